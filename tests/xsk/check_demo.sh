#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# check_demo.sh SOURCE BUILD: examples/xdp_fwd/demo.sh as users run it.
# (1) A second demo given the prefix a running one holds fails at once and
# leaves the first one's namespaces alone: the first still ends with exit
# 0. (2) Two demos at once on their default (per-run) prefixes both pass.
# (3) Ctrl-C (SIGINT to the demo's process group) mid-traffic: exit 130,
# and the sender's and the sink's lines are still printed. Afterwards no
# namespace of these runs is left. Root only; 77 when it cannot run.
# Layer: tests.
set -u
src=$1
build=$2
demo=$src/examples/xdp_fwd/demo.sh
tmp=$(mktemp -d)
fail=0
pa=ppdA$$
trap 'rm -rf "$tmp"' EXIT

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
[ -x "$build/examples/xdp_fwd/xdp_fwd" ] || { echo "SKIP: no xdp_fwd in the build"; exit 77; }
ip netns add "ppdprobe$$" 2>/dev/null || { echo "SKIP: no network namespaces"; exit 77; }
ip netns del "ppdprobe$$"

# (1) the same prefix twice
XDP_FWD_PREFIX=$pa "$demo" "$build" pagepool 3 >"$tmp/a.out" 2>&1 &
a=$!
i=0
while [ ! -e "/run/netns/$pa-fwd" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
XDP_FWD_PREFIX=$pa "$demo" "$build" pagepool 1 >"$tmp/b.out" 2>&1
rc=$?
if [ $rc -eq 0 ] || [ ! -e "/run/netns/$pa-fwd" ]; then
	echo "FAIL: a second demo on prefix $pa: exit $rc, the first's namespaces" \
	     "$([ -e "/run/netns/$pa-fwd" ] && echo kept || echo deleted)"
	sed 's/^/    /' "$tmp/b.out"; fail=1
else
	echo "ok: a second demo on a held prefix: exit $rc, the first's namespaces kept"
fi
wait $a; rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: the first demo: exit $rc"; sed 's/^/    /' "$tmp/a.out"; fail=1
else
	echo "ok: the first demo: exit 0: $(grep '^sink:' "$tmp/a.out")"
fi

# (2) two at once, default prefixes
"$demo" "$build" fixed 2 >"$tmp/c.out" 2>&1 & c=$!
"$demo" "$build" pagepool 2 >"$tmp/d.out" 2>&1 & d=$!
wait $c; rc_c=$?
wait $d; rc_d=$?
if [ $rc_c -ne 0 ] || [ $rc_d -ne 0 ]; then
	echo "FAIL: two demos at once: exit $rc_c and $rc_d"
	sed 's/^/    /' "$tmp/c.out" "$tmp/d.out"; fail=1
else
	echo "ok: two demos at once: both exit 0"
fi

# (3) Ctrl-C: the whole process group, as a terminal sends it
# (a background job starts with SIGINT ignored, which a shell cannot trap:
# the demo gets it back to default, in a process group of its own)
python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setpgid(0, 0)
os.execv(sys.argv[1], sys.argv[1:])' "$demo" "$build" pagepool 20 >"$tmp/e.out" 2>&1 &
e=$!
i=0
while ! grep -q 'xdp_fwd: ready' "$tmp/e.out" && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
sleep 1
kill -INT -$e
wait $e; rc=$?
if [ $rc -ne 130 ] || ! grep -q '^sender: *{.*"sent"' "$tmp/e.out" ||
   ! grep -q '^sink: *{.*"received"' "$tmp/e.out" || ! grep -q 'check: ok' "$tmp/e.out"; then
	echo "FAIL: Ctrl-C: exit $rc (want 130), or a line missing:"; sed 's/^/    /' "$tmp/e.out"
	fail=1
else
	echo "ok: Ctrl-C: exit 130; $(grep '^sender:' "$tmp/e.out"); $(grep '^sink:' "$tmp/e.out")"
fi

left=$(ls /run/netns 2>/dev/null | grep -E "^($pa|ppxd($c|$d|$e))-" || true)
if [ -n "$left" ]; then
	echo "FAIL: namespaces left: $left"; fail=1
fi
exit $fail
