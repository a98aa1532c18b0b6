#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# The long local run of the reliability suite (at least 30 minutes of
# fuzzing and 10^9 stress operations, all clean), at low
# priority so it can run beside other work:
#
#   tools/reliability/long-run.sh [-f FUZZ_MINUTES] [-o STRESS_OPS]
#                                 [-s "plain asan tsan"] [-d OUT_DIR]
#
# Defaults: 35 minutes of fuzzing (both targets), then 10^9 stress operations in each of
# the builds named by -s (plain: BUILD, default build; asan: ASAN_BUILD,
# default build-asan; tsan: TSAN_BUILD, default build-tsan; the sanitizer
# trees must exist: make test-asan / test-tsan). -f 0 or -s "" skip a part.
# Fuzzing and stress run one after the other, each under nice -n 10. The
# summary lines of every part go to OUT_DIR/summary.txt (default
# results/reliability), the full logs beside it. Exit status: non-zero if
# any part failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

fuzz_min=35
ops=1000000000
sans="plain asan tsan"
out=results/reliability
while getopts "f:o:s:d:" opt; do
	case $opt in
	f) fuzz_min=$OPTARG ;;
	o) ops=$OPTARG ;;
	s) sans=$OPTARG ;;
	d) out=$OPTARG ;;
	*) echo "usage: $0 [-f FUZZ_MINUTES] [-o STRESS_OPS] [-s \"plain asan tsan\"] [-d OUT_DIR]" >&2
	   exit 2 ;;
	esac
done
mkdir -p "$out"
summary=$out/summary.txt
: >"$summary"
rc=0

note() { echo "$*" | tee -a "$summary"; }
note "long run started $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(nproc) CPU(s), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"

if [[ $fuzz_min -gt 0 ]]; then
	# Both targets (tools/reliability/fuzz.sh): two thirds of the time
	# to fuzz_pool (fast), the rest to fuzz_pagepool (IOMMU + debug).
	fb=${FUZZ_BUILD:-build-fuzz}
	if nice -n 10 tools/reliability/fuzz.sh -t $((fuzz_min * 60)) -b "$fb" \
		-c "$out/fuzz-corpus" >"$out/fuzz-summary.txt" 2>&1; then :; else rc=1; fi
	for t in pool pagepool; do
		cp "$fb/fuzz-$t.log" "$out/fuzz-$t.log" 2>/dev/null || true
	done
	note "$(grep '^fuzz-pool: ' "$out/fuzz-summary.txt" | head -1)"
	note "$(grep '^fuzz-pool invariants:' "$out/fuzz-pool.log" | tail -1)"
	note "$(grep '^fuzz: ' "$out/fuzz-summary.txt" | head -1)"
	note "$(grep '^fuzz invariants:' "$out/fuzz-pagepool.log" | tail -1)"
fi

for san in $sans; do
	case $san in
	plain) b=${BUILD:-build} ;;
	asan) b=${ASAN_BUILD:-build-asan} ;;
	tsan) b=${TSAN_BUILD:-build-tsan} ;;
	*) echo "unknown build $san" >&2; exit 2 ;;
	esac
	if nice -n 10 tools/reliability/stress.sh "$b" "$san" ops="$ops" progress=60 \
		>"$out/stress-$san-summary.txt" 2>&1; then :; else rc=1; fi
	cp "$b/stress-$san.log" "$out/stress-$san.log" 2>/dev/null || true
	while read -r line; do note "$line"; done < <(grep '^stress\[' "$out/stress-$san-summary.txt")
done

note "long run finished $(date -u '+%Y-%m-%d %H:%M:%S UTC'), status $rc"
exit "$rc"
