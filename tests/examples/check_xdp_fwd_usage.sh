#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# check_xdp_fwd_usage.sh XDP_FWD: xdp_fwd's command line (contract E) as a
# user meets it, without root or interfaces: each bad option is refused
# with exit status 2 and a message naming it, --help prints the usage, and
# an interface that does not exist is a clear error (exit 1, no crash, the
# totals file written with check.ok and no frame missing) for both frame
# managers.
# Layer: tests.
set -u
fwd=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect RC PATTERN ARGS...: the exit status is RC and stderr matches PATTERN.
expect() {
	want=$1 pat=$2
	shift 2
	"$fwd" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne "$want" ] || ! grep -q -- "$pat" "$tmp/err"; then
		echo "FAIL: xdp_fwd $*: exit $rc (want $want), stderr:"
		sed 's/^/    /' "$tmp/err"
		fail=1
	else
		echo "ok: xdp_fwd $* -> $rc: $(head -n 1 "$tmp/err")"
	fi
}

expect 2 '--in and --out are required'
expect 2 '--in and --out are required' --in a
expect 2 'must be two interfaces' --in a --out a
expect 2 'bad value for --frame-size.*2048 or 4096' --in a --out b --frame-size 1000
expect 2 'not a number' --in a --out b --frame-size x
expect 2 'bad value for --cpu.*0 \.\. 1023' --in a --out b --cpu 99999
expect 2 'bad value for --frames' --in a --out b --frames nope
expect 2 'bad value for --mode' --in a --out b --mode zc
expect 2 'bad value for --ring.*a power of two, 64 \.\. 65536' --in a --out b --ring 1000
expect 2 'bad value for --completion' --in a --out b --completion both
expect 2 'bad value for --nr-frames: 2239.* 2240 \.\. 1048576' --in a --out b --nr-frames 2239 --ring 2048
expect 2 'bad value for --nr-frames: 2111.* 2112 \.\. 1048576' --in a --out b --nr-frames 2111 \
	--ring 2048 --frames fixed
expect 2 'bad value for --nr-frames: 129' --in a --out b --nr-frames 129 --ring 64 --frames fixed
expect 2 'bad value for --duration' --in a --out b --duration -1
expect 2 'not a number' --in a --out b --teardown-after -5
expect 2 'unexpected argument' --in a --out b extra
expect 2 'usage' --in a --out b --no-such-option

"$fwd" --help >"$tmp/out" 2>&1
rc=$?
missing=
for opt in --in --out --frames --mode --frame-size --nr-frames --ring --completion --bulk \
	--cpu --duration --teardown-after --status --quiet --totals-json; do
	grep -q -- "^  $opt\|, $opt " "$tmp/out" || missing="$missing $opt"
done
if [ $rc -ne 0 ] || [ -n "$missing" ] || ! grep -q 'default 2048' "$tmp/out"; then
	echo "FAIL: xdp_fwd --help: rc $rc, options not described:$missing"; fail=1
else
	echo "ok: xdp_fwd --help"
fi

for frames in fixed pagepool; do
	expect 1 "xdp_fwd: " --in pp-nosuch-if0 --out pp-nosuch-if1 --frames $frames --quiet \
		--totals-json "$tmp/t.json"
	if grep -q 'check: ok' "$tmp/out"; then
		echo "FAIL: --frames $frames: 'check: ok' after a failed start-up"; fail=1
	fi
	if ! grep -q "\"frames\":\"$frames\"" "$tmp/t.json" 2>/dev/null; then
		echo "FAIL: --frames $frames: no totals file after the failed setup"; fail=1
	elif ! grep -q '"check":{"ok":true' "$tmp/t.json"; then
		echo "FAIL: --frames $frames: a frame missing after the failed setup:"
		cat "$tmp/t.json"; fail=1
	fi
done
exit $fail
