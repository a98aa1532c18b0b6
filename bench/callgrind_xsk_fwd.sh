#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Instructions the AF_XDP forwarder's own code executes per forwarded
# frame, for each frame manager: examples/xdp_fwd under callgrind
# (deterministic, unlike rates on a shared VM) between pp-xsk-send and
# pp-xsk-sink in namespaces of tools/netns-setup (prefix cgx<pid>, removed
# at the end). The kernel's part (the copies, veth) is not counted:
# callgrind sees user space only. Under callgrind the forwarder is slow, so
# the sender outruns it and most frames are dropped at its in-socket; the
# counts are per frame it forwarded.
#
# Printed per manager: frames forwarded, the whole program's instructions
# per frame (the busy-poll loop's idle rounds included: an upper bound of
# the data path), and for pagepool the data path alone (inclusive costs of
# the RX poll - XDP hook, xdp_do_redirect, the flush's ndo_xdp_xmit, the
# fill refill - and of the TX-completion poll), each divided by the frames.
#
# Usage: bench/callgrind_xsk_fwd.sh [--build DIR] [--seconds S] [--keep DIR] [-- XDP_FWD_FLAGS...]
#   defaults: build, 4 s of traffic, xdp_fwd flags --mode drv --no-dma-debug;
#   --keep DIR keeps each manager's callgrind output there (DIR/pagepool.cg,
#   DIR/fixed.cg, for callgrind_annotate)
# Root; network namespaces and AF_XDP (else one "skipped" line, exit 0).
# Layer: bench.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
build=$src/build
seconds=4
keep=
flags=()
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--keep) keep=$2; mkdir -p "$keep"; shift 2 ;;
	--) shift; flags=("$@"); break ;;
	-h|--help) sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "callgrind_xsk_fwd.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ ${#flags[@]} -gt 0 ] || flags=(--mode drv --no-dma-debug)
[ "$(id -u)" = 0 ] || { echo "callgrind-xsk: skipped: not root"; exit 0; }
command -v valgrind >/dev/null || { echo "callgrind-xsk: skipped: no valgrind"; exit 0; }
fwd=$build/examples/xdp_fwd/xdp_fwd
send=$build/tools/xsk-traffic/pp-xsk-send
sink=$build/tools/xsk-traffic/pp-xsk-sink
for p in "$fwd" "$send" "$sink"; do
	[ -x "$p" ] || { echo "callgrind-xsk: skipped: $p not built (-Dxsk)"; exit 0; }
done
prefix=cgx$$
tmp=$(mktemp -d)
cleanup() { "$src/tools/netns-setup" down --prefix "$prefix" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
"$src/tools/netns-setup" up --prefix "$prefix" >/dev/null 2>&1 ||
	{ echo "callgrind-xsk: skipped: cannot make network namespaces"; exit 0; }

for frames in pagepool fixed; do
	ip netns exec "$prefix-rx" "$sink" --ifname vr0 --idle 2 --timeout $((seconds + 60)) \
		--json >"$tmp/sink.json" 2>/dev/null &
	sp=$!
	ip netns exec "$prefix-fwd" valgrind --tool=callgrind --callgrind-out-file="$tmp/$frames.cg" \
		"$fwd" --in vf0 --out vf1 --frames "$frames" --duration $((seconds + 8)) --quiet \
		--totals-json "$tmp/$frames.json" "${flags[@]}" >"$tmp/fwd.out" 2>&1 &
	fp=$!
	for _ in $(seq 120); do
		grep -q ready "$tmp/fwd.out" && break
		kill -0 $fp 2>/dev/null || break
		sleep 0.5
	done
	grep -q ready "$tmp/fwd.out" || { cat "$tmp/fwd.out" >&2; echo "callgrind-xsk: xdp_fwd did not start" >&2; exit 1; }
	ip netns exec "$prefix-tx" "$send" --ifname vs0 --duration "$seconds" --mode packet --json >/dev/null
	wait $fp || { cat "$tmp/fwd.out" >&2; echo "callgrind-xsk: xdp_fwd --frames $frames failed" >&2; exit 1; }
	kill $sp 2>/dev/null || true
	wait $sp 2>/dev/null || true
	callgrind_annotate --inclusive=yes "$tmp/$frames.cg" >"$tmp/$frames.txt" 2>/dev/null
	[ -z "$keep" ] || cp "$tmp/$frames.cg" "$tmp/$frames.json" "$keep/"
	python3 - "$frames" "$tmp/$frames.json" "$tmp/$frames.txt" "${flags[*]}" <<'PY'
import json, re, sys
frames, totals, ann, flags = sys.argv[1:5]
n = json.load(open(totals))["forwarded"]
cost = {}
for line in open(ann):
    m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+(\S+)", line)
    if not m:
        continue
    ir = int(m.group(1).replace(",", ""))
    name = m.group(2)
    if name == "PROGRAM":
        cost["total"] = ir
        continue
    fn = name.rsplit(":", 1)[-1]
    if " [" in line or "[" in line:
        cost.setdefault(fn, ir)
if not n:
    sys.exit("callgrind-xsk: %s forwarded nothing" % frames)
line = "%-8s forwarded %8d  whole program (idle polls included) %5.0f instr/frame" % (frames, n, cost.get("total", 0) / n)
if frames == "pagepool":
    rx, txc = cost.get("ppxsk_rx_poll", 0), cost.get("ppxsk_txc_poll", 0)
    line += "  data path %4.0f (RX poll %4.0f, of it xdp_do_redirect %3.0f; TX completion %4.0f)" % (
        (rx + txc) / n, rx / n, cost.get("xdp_do_redirect", 0) / n, txc / n)
print(line + "  [xdp_fwd %s]" % flags)
PY
done
