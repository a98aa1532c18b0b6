#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# demo.sh BUILD_DIR [FRAMES] [SECONDS]: the AF_XDP forwarder end to end
# (make xdp-fwd-demo). Makes the three namespaces (tools/netns-setup, prefix
# $XDP_FWD_PREFIX or ppxd<pid>: one of its own per run, so two demos at once
# do not meet), starts pp-xsk-sink in P-rx, xdp_fwd --frames FRAMES
# (pagepool by default; or fixed) in P-fwd from vf0 to vf1, then
# pp-xsk-send in P-tx for SECONDS (3) at full rate (AF_XDP copy-mode TX),
# stops the forwarder with SIGINT and prints the three programs' totals:
# what was sent, forwarded (with every drop by reason and the sockets'
# XDP_STATISTICS) and received, and the forwarder's end check. Ctrl-C stops
# the traffic early: the three still print their lines. It removes the
# namespaces it made, on every exit, and only those (a prefix another run
# holds makes netns-setup up fail: nothing is taken down then). As root.
# Exit: 0 when the forwarder's check is ok and the sink saw no duplicate;
# 130 after Ctrl-C (the totals printed); 77 when this machine cannot run
# it (not root, no xdp_fwd in the build).
# Layer: examples.
set -u

build=${1:?usage: demo.sh BUILD_DIR [pagepool|fixed] [SECONDS]}
frames=${2:-pagepool}
secs=${3:-3}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$build" && pwd)
fwd=$build/examples/xdp_fwd/xdp_fwd
send=$build/tools/xsk-traffic/pp-xsk-send
sink=$build/tools/xsk-traffic/pp-xsk-sink
p=${XDP_FWD_PREFIX:-ppxd$$}
made=
interrupted=

if [ "$(id -u)" -ne 0 ]; then
	echo "xdp-fwd-demo: needs root (network namespaces, AF_XDP): run it as root" >&2
	exit 77
fi
for b in "$fwd" "$send" "$sink"; do
	if [ ! -x "$b" ]; then
		echo "xdp-fwd-demo: $b is not built (meson -Dxsk needs libxdp-dev, libbpf-dev, clang)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d)
cleanup() {
	[ -n "${sink_pid:-}" ] && kill "$sink_pid" 2>/dev/null
	[ -n "${fwd_pid:-}" ] && kill "$fwd_pid" 2>/dev/null
	wait 2>/dev/null
	[ -n "$made" ] && "$top/tools/netns-setup" down --prefix "$p" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
# Ctrl-C reaches the sender, the forwarder and the sink too (each stops
# and prints its totals); the script goes on to collect and print them.
trap 'interrupted=1' INT TERM

if ! "$top/tools/netns-setup" up --prefix "$p"; then
	echo "xdp-fwd-demo: no namespaces with prefix $p (XDP_FWD_PREFIX=... picks another)" >&2
	exit 1
fi
made=1

ip netns exec "$p"-rx "$sink" --ifname vr0 --idle 2 --timeout $((secs + 20)) --json \
	>"$tmp/sink.json" 2>"$tmp/sink.err" &
sink_pid=$!
ip netns exec "$p"-fwd "$fwd" --in vf0 --out vf1 --frames "$frames" --cpu 0 \
	--totals-json "$tmp/fwd.json" 2>"$tmp/fwd.err" &
fwd_pid=$!
# Both bound before the first frame: each says so on stderr.
i=0
while ! { grep -q listening "$tmp/sink.err" && grep -q ready "$tmp/fwd.err"; } 2>/dev/null; do
	[ -n "$interrupted" ] && exit 130
	if ! kill -0 $fwd_pid 2>/dev/null || [ $i -ge 100 ]; then
		echo "xdp-fwd-demo: xdp_fwd did not start:" >&2
		cat "$tmp/fwd.err" >&2
		exit 1
	fi
	sleep 0.1; i=$((i + 1))
done
cat "$tmp/fwd.err"
ip netns exec "$p"-tx "$send" --ifname vs0 --count 100000000 --duration "$secs" --mode xdp \
	--dst 02:70:70:00:00:02 --cpu 1 --json >"$tmp/send.json"
[ -n "$interrupted" ] || sleep 0.5
kill -INT $fwd_pid 2>/dev/null
# wait returns early when a signal arrives meanwhile: until it is gone.
while wait $fwd_pid; fwd_rc=$?; kill -0 $fwd_pid 2>/dev/null; do :; done
fwd_pid=
[ -n "$interrupted" ] && kill -INT $sink_pid 2>/dev/null
while wait $sink_pid; kill -0 $sink_pid 2>/dev/null; do :; done
sink_pid=

echo
echo "sender:    $(cat "$tmp/send.json")"
echo "forwarder: $(cat "$tmp/fwd.json" 2>/dev/null)"
echo "sink:      $(cat "$tmp/sink.json")"
[ -n "$interrupted" ] && exit 130
grep -q '"duplicates":0,' "$tmp/sink.json" || { echo "xdp-fwd-demo: the sink saw duplicates" >&2; exit 1; }
exit $fwd_rc
