#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Holder tracking's cost per allocation: bench_holders from a build without
# the option (OFF) and one with -Dholders=true (ON), alternated REPS times
# (same run, so the machine's noise hits both alike; the median of each
# build's runs counts, each run the best of its 3 inner repetitions), and
# under callgrind (instructions per element inside the loop function
# alone, so background threads do not count: the difference between a 2N-
# and an N-loop run over N, so the warm-up cancels). Prints
#   holders: +N instr/alloc, +M ns/alloc
# Usage: bench_holders.sh OFF_BUILD_DIR ON_BUILD_DIR [REPS]
# valgrind needs a build without -march beyond x86-64-v3.
set -eu
off=$1/bench/bench_holders
on=$2/bench/bench_holders
reps=${3:-5}
for b in "$off" "$on"; do
	[ -x "$b" ] || { echo "bench_holders.sh: no $b"; exit 1; }
done
"$off" loops=1000 reps=1 | grep -q 'holders=off' || { echo "$off: not a holders=off build"; exit 1; }
"$on" loops=1000 reps=1 | grep -q 'holders=on' || { echo "$on: not a holders=on build"; exit 1; }

one() {	# ns/alloc of one run of $1 (its best of 3 inner reps)
	"$1" loops=2000000 reps=3 | sed -n 's/.*: \([0-9.]*\) ns\/alloc/\1/p'
}
median() {	# the median of the numbers on stdin, one per line
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
runs_off=; runs_on=
i=0
while [ $i -lt "$reps" ]; do
	runs_off="$runs_off $(one "$off")"; runs_on="$runs_on $(one "$on")"
	i=$((i + 1))
done
ns_off=$(printf '%s\n' $runs_off | median)
ns_on=$(printf '%s\n' $runs_on | median)

ir() {	# instructions of $1 with loops=$2, one rep, counted inside the loop only
	valgrind --tool=callgrind --toggle-collect=alloc_recycle_loop --callgrind-out-file=/dev/null \
		"$1" loops="$2" reps=1 cpu=-1 2>&1 |
		sed -n 's/.*Collected : //p' | tr -d ,
}
n=200000
per_elem() {
	a=$(ir "$1" $n); b=$(ir "$1" $((2 * n)))
	awk -v a="$a" -v b="$b" -v n=$n 'BEGIN { printf "%.2f", (b - a) / n }'
}
if command -v valgrind >/dev/null; then
	ir_off=$(per_elem "$off"); ir_on=$(per_elem "$on")
	ir_d=$(awk -v a="$ir_off" -v b="$ir_on" 'BEGIN { printf "%.2f", b - a }')
else
	ir_off=?; ir_on=?; ir_d=?
fi
ns_d=$(awk -v a="$ns_off" -v b="$ns_on" 'BEGIN { printf "%.3f", b - a }')
echo "off: $ir_off instr/alloc, $ns_off ns/alloc; on: $ir_on instr/alloc, $ns_on ns/alloc"
echo "holders: +$ir_d instr/alloc, +$ns_d ns/alloc"
