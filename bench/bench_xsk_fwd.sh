#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# The AF_XDP forwarder's rate, pagepool-managed UMEM against the
# fixed-frame baseline, on the veth pairs of tools/netns-setup (a prefix
# of its own, removed at the end, also on failure):
#
#   pp-xsk-send (P-tx, CPU S) -> xdp_fwd (P-fwd, CPU F) -> pp-xsk-sink (P-rx, CPU K)
#
# ROUNDS interleaved rounds; each measures, for each sender mode (AF_XDP
# TX copy mode, then AF_PACKET sendmmsg + PACKET_QDISC_BYPASS), both frame
# managers with the same flags, in an order that alternates from round to
# round (pagepool first in odd rounds, fixed first in even ones); one
# measurement: the sender at full rate for DURATION seconds through a
# freshly started forwarder. Per measurement: "send", the sender's own
# rate (frames the kernel took over its time); "fwd", frames the
# forwarder forwarded over the sender's time; "recv", frames the sink
# received over the sender's time (the forwarding rate: what came out at
# the far side); "span", the sink's own rate over the kernel's first..last
# arrival time (high when few frames came in bursts). Prints each round
# with where its sent-minus-received frames went (the in-socket's
# XDP_STATISTICS rx_dropped, of which rx_fill_ring_empty_descs, and
# rx_ring_full; the out-socket's tx_invalid_descs; the forwarder's drops
# by reason; the sink socket's drops; the TX drops of vs0 and vf1, frames
# a veth could not hand to its peer; what no counter has), then the
# medians per sender mode and frame manager with the spread [min-max]
# beside each, the losses summed over the rounds, and ratio = median recv
# pagepool / median recv fixed, with the verdict ">= 1.0" and the
# sender's offered rate (median send) for each frame manager beside it.
# The load average at start and end and what bounds the rates head the
# report. The lines go to OUT (default results/bench-xsk.txt), the raw
# JSON of every process to OUT.jsonl (one object per measurement, as
# before).
#
# Usage: bench/bench_xsk_fwd.sh [--build DIR] [--rounds R] [--duration S]
#        [--cpus S,F,K] [--out FILE] [--short] [--only pagepool|fixed]
#        [-- XDP_FWD_FLAGS...]
#   defaults: build, 5 rounds, 3 s, CPUs 0,1,1 (-1: not pinned), xdp_fwd flags
#     --mode drv --no-dma-debug (pagepool's UMEM device without DMA-API debug, as
#     a production kernel runs page_pool; the fixed baseline has no DMA layer)
#   --short: 1 round of 0.5 s (CI: fails if a program fails, never on rate)
#   --only: one frame manager (no ratio), to look at it alone
# Not root, or no network namespaces or AF_XDP: one "skipped" line, exit 0.
# Layer: bench.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
build=$src/build
rounds=5
duration=3
cpus=0,1,1
out=
short=0
only=
fwd_flags=()
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--duration) duration=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--short) short=1; rounds=1; duration=0.5; shift ;;
	--only) only=$2; shift 2 ;;
	--) shift; fwd_flags=("$@"); break ;;
	-h|--help) sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench_xsk_fwd.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ ${#fwd_flags[@]} -gt 0 ] || fwd_flags=(--mode drv --no-dma-debug)
out=${out:-$src/results/bench-xsk.txt}
IFS=, read -r cpu_send cpu_fwd cpu_sink <<<"$cpus"

skip() {
	echo "bench-xsk: skipped: $*"
	exit 0
}
[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, AF_XDP)"
command -v ip >/dev/null 2>&1 || skip "no 'ip' command (iproute2)"
send=$build/tools/xsk-traffic/pp-xsk-send
sink=$build/tools/xsk-traffic/pp-xsk-sink
fwd=$build/examples/xdp_fwd/xdp_fwd
[ -f "$src/examples/xdp_fwd/meson.build" ] || skip "no examples/xdp_fwd in this tree"
for exe in "$send" "$sink" "$fwd"; do
	[ -x "$exe" ] || { echo "bench-xsk: $exe is not built (meson -Dxsk)" >&2; exit 1; }
done
prefix=ppb$$
ip netns add "$prefix-probe" 2>/dev/null || skip "cannot create a network namespace"
ip netns del "$prefix-probe"
python3 -c 'import socket; socket.socket(44, socket.SOCK_RAW, 0)' 2>/dev/null ||
	skip "cannot create an AF_XDP socket"

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	"$src/tools/netns-setup" down --prefix "$prefix" || true
	rm -rf "$tmp"
}
trap cleanup EXIT
"$src/tools/netns-setup" up --prefix "$prefix" >/dev/null
mkdir -p "$(dirname "$out")"
: >"$out.jsonl"

# wait_ready ERRFILE PID: until xdp_fwd says "ready" on stderr (its
# sockets are up and in the XSKMAP), 15 s at most.
wait_ready() {
	local i
	for i in $(seq 1 150); do
		grep -q ready "$1" 2>/dev/null && return 0
		kill -0 "$2" 2>/dev/null || { echo "bench-xsk: xdp_fwd exited:" >&2; cat "$1" >&2; return 1; }
		sleep 0.1
	done
	echo "bench-xsk: xdp_fwd not ready after 15 s" >&2
	return 1
}

# veth_drops: the TX drops of vs0 (P-tx) and vf1 (P-fwd): frames the
# veth could not hand to its peer (its ring or backlog full), which no
# socket counts; one number.
veth_drops() {
	local n=0 d
	for d in "$prefix-tx vs0" "$prefix-fwd vf1"; do
		set -- $d
		n=$((n + $(ip -n "$1" -s -j link show dev "$2" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["stats64"]["tx"]["dropped"])')))
	done
	echo "$n"
}

# measure ROUND SENDMODE FRAMES: one line of JSON into $out.jsonl.
measure() {
	local round=$1 mode=$2 frames=$3 sp fp
	ip netns exec "$prefix-rx" "$sink" --ifname vr0 --idle 1 --timeout $((${duration%.*} + 30)) \
		--cpu "$cpu_sink" --json >"$tmp/sink.out" 2>"$tmp/sink.err" &
	sp=$!
	pids+=("$sp")
	for _ in $(seq 1 50); do grep -q listening "$tmp/sink.err" && break; sleep 0.1; done
	local fcpu=()
	[ "$cpu_fwd" -lt 0 ] || fcpu=(--cpu "$cpu_fwd")
	ip netns exec "$prefix-fwd" "$fwd" --in vf0 --out vf1 --frames "$frames" "${fcpu[@]}" \
		--quiet --totals-json "$tmp/totals.json" "${fwd_flags[@]}" >"$tmp/fwd.out" 2>"$tmp/fwd.err" &
	fp=$!
	pids+=("$fp")
	if ! wait_ready "$tmp/fwd.err" "$fp"; then
		# The queue stays busy until the kernel's deferred release of
		# the previous forwarder's sockets has run: once more, later.
		grep -qi busy "$tmp/fwd.err" || return 1
		sleep 1
		ip netns exec "$prefix-fwd" "$fwd" --in vf0 --out vf1 --frames "$frames" "${fcpu[@]}" \
			--quiet --totals-json "$tmp/totals.json" "${fwd_flags[@]}" \
			>"$tmp/fwd.out" 2>"$tmp/fwd.err" &
		fp=$!
		pids+=("$fp")
		wait_ready "$tmp/fwd.err" "$fp"
	fi
	local vd0 vd1
	vd0=$(veth_drops)
	ip netns exec "$prefix-tx" "$send" --ifname vs0 --mode "$mode" --duration "$duration" \
		--dst 02:70:70:00:00:02 --cpu "$cpu_send" --json >"$tmp/send.out"
	wait "$sp" || true
	kill -INT "$fp"
	if ! wait "$fp"; then
		echo "bench-xsk: xdp_fwd --frames $frames failed:" >&2
		cat "$tmp/fwd.err" >&2
		return 1
	fi
	vd1=$(veth_drops)
	python3 - "$round" "$mode" "$frames" "$tmp" $((vd1 - vd0)) >>"$out.jsonl" <<'PY'
import json, sys
rnd, mode, frames, tmp, veth = sys.argv[1:6]
def last(path):
    lines = [l for l in open(path) if l.strip().startswith("{")]
    return json.loads(lines[-1])
s, k = last(tmp + "/send.out"), last(tmp + "/sink.out")
t = json.load(open(tmp + "/totals.json"))
if not t.get("check", {}).get("ok"):
    sys.exit("bench-xsk: the forwarder's check failed: %s" % t.get("check"))
print(json.dumps({"round": int(rnd), "send_mode": mode, "frames": frames, "sender": s,
                  "sink": k, "totals": t, "veth_tx_dropped": int(veth)}))
PY
}

echo "bench-xsk: $rounds rounds of ${duration} s, CPUs send/fwd/sink $cpus, xdp_fwd ${fwd_flags[*]}"
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then order="pagepool fixed"; else order="fixed pagepool"; fi
	[ -z "$only" ] || order=$only
	for mode in xdp packet; do
		for frames in $order; do
			measure "$r" "$mode" "$frames"
		done
	done
done

load_end=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$out.jsonl" "$out" "$short" "${fwd_flags[*]}" "$cpus" "$load_start" "$load_end" <<'PY'
import json, statistics, sys
src, out, short, flags, cpus = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4], sys.argv[5]
load_start, load_end = sys.argv[6], sys.argv[7]
rows = [json.loads(l) for l in open(src) if l.strip()]
# Where the frames the sender sent and the sink did not receive went; the
# kernel counts a frame dropped for an empty fill ring in rx_dropped too.
LOSS = ("rx_dropped", "fq_empty", "ring_full", "tx_invalid", "fwd_drops", "sink_drops",
        "veth_drops", "other")
def losses(r):
    t = r["totals"]
    xi = t.get("xdp_statistics", {}).get("in", {})
    xo = t.get("xdp_statistics", {}).get("out", {})
    d = {"rx_dropped": xi.get("rx_dropped", 0), "fq_empty": xi.get("rx_fill_ring_empty_descs", 0),
         "ring_full": xi.get("rx_ring_full", 0), "tx_invalid": xo.get("tx_invalid_descs", 0),
         "fwd_drops": sum(t.get("drops", {}).values()), "sink_drops": r["sink"].get("drops", 0),
         "veth_drops": r.get("veth_tx_dropped", 0)}
    counted = sum(v for k, v in d.items() if k != "fq_empty")
    d["other"] = r["sender"]["sent"] - r["sink"]["received"] - counted
    return d
def rate(r, n):
    t = r["sender"]["elapsed_s"]
    return n / t if t else 0.0
for r in rows:
    r["rates"] = {"send": r["sender"]["pps"], "fwd": rate(r, r["totals"].get("forwarded", 0)),
                  "recv": rate(r, r["sink"]["received"]), "span": r["sink"]["pps"]}
lines = []
p = lines.append
p("AF_XDP forwarder (xdp_fwd %s; CPUs send,fwd,sink %s), Mpps" % (flags, cpus))
p("load average (1, 5, 15 min): %s at start, %s at end" % (load_start, load_end))
p("bound: in copy mode on veth the generic XDP hook (or the veth NAPI) and the copy run in "
  "the sender's softirq on the sender's CPU, so the offered load (send) depends on the "
  "forwarder's CPU use: read recv beside send")
p("%-5s %-7s %-9s %7s %7s %7s %7s %9s  " % (
    "round", "sender", "frames", "send", "fwd", "recv", "span", "lost") +
  " ".join("%10s" % k for k in LOSS))
for r in rows:
    x = r["rates"]
    l = losses(r)
    p("%-5d %-7s %-9s %7.3f %7.3f %7.3f %7.3f %9d  %s" % (
        r["round"], r["send_mode"], r["frames"], x["send"] / 1e6, x["fwd"] / 1e6,
        x["recv"] / 1e6, x["span"] / 1e6, r["sender"]["sent"] - r["sink"]["received"],
        " ".join("%10d" % l[k] for k in LOSS)))
for mode in ("xdp", "packet"):
    med = {}
    for frames in ("pagepool", "fixed"):
        sel = [r for r in rows if r["send_mode"] == mode and r["frames"] == frames]
        if not sel:
            continue
        med[frames] = {k: statistics.median(r["rates"][k] for r in sel)
                       for k in ("send", "fwd", "recv", "span")}
        m = med[frames]
        def spread(k):
            v = [r["rates"][k] / 1e6 for r in sel]
            return "%.3f [%.3f-%.3f]" % (m[k] / 1e6, min(v), max(v))
        p("median %-7s %-9s send %s  fwd %s  recv %s  span %s Mpps (%d rounds)" % (
            mode, frames, spread("send"), spread("fwd"), spread("recv"), spread("span"),
            len(sel)))
        tot = {k: sum(losses(r)[k] for r in sel) for k in LOSS}
        p("lost   %-7s %-9s %d of %d sent: in.rx_dropped %d (fill ring empty %d), "
          "in.rx_ring_full %d, out.tx_invalid_descs %d, forwarder drops %d, sink drops %d, "
          "veth TX drops %d, no counter %d (all rounds)" % (
              mode, frames, sum(r["sender"]["sent"] - r["sink"]["received"] for r in sel),
              sum(r["sender"]["sent"] for r in sel), tot["rx_dropped"], tot["fq_empty"],
              tot["ring_full"], tot["tx_invalid"], tot["fwd_drops"], tot["sink_drops"],
              tot["veth_drops"], tot["other"]))
    if "pagepool" in med and "fixed" in med and med["fixed"]["recv"] > 0:
        ratio = med["pagepool"]["recv"] / med["fixed"]["recv"]
        p("ratio %-7s pagepool/fixed (median recv): %.3f  %s  (offered, median send: "
          "pagepool %.3f, fixed %.3f Mpps)" % (
              mode, ratio, "ok (>= 1.0)" if ratio >= 1.0 else "BELOW 1.0",
              med["pagepool"]["send"] / 1e6, med["fixed"]["send"] / 1e6))
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
sys.stdout.write(text)
if short:
    print("bench-xsk: short run (the rates say nothing; the pipeline works)")
PY
echo "bench-xsk: results in $out (raw: $out.jsonl)"
