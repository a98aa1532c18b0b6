#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The AF_XDP forwarder's acceptance tests, on real interfaces.

Each run makes its own namespaces (tools/netns-setup, a prefix unique to
the run) and removes them, also on failure:

    P-tx: vs0 -> P-fwd: vf0 [xdp_fwd] vf1 -> P-rx: vr0 [pp-xsk-sink]

forward_all: pp-xsk-send sends N frames; xdp_fwd forwards them; at the end
(SIGINT) the sink must have received every frame the sender sent but the
ones a counter accounts for, printed as an equation:

    received == sent - (in.rx_dropped + in.rx_ring_full + out.tx_invalid_descs
                        + forwarder drops by reason + sink socket drops)

(the forwarder's reasons include tx_dev_dropped: frames --out's device
dropped after the kernel took them from the TX ring, sendto() EBUSY)

(the in-socket's rx_fill_ring_empty_descs is printed too: the kernel
counts those frames in rx_dropped as well); no duplicates; at least 1 %
of them (and 1000) arrive: a forwarder that drops everything for a
counted reason fails, a sanitizer build flooded by the sender does not;
the forwarder exits 0 and its check
after teardown is ok: every frame back, 0 DMA-API violations, pool
inflight 0.

lossy: frames the forwarder cannot deliver (the far side down: the
kernel drops them at --out's device, drops.tx_dev_dropped; frames too
long for a 2 KiB frame's tailroom: drops.no_tailroom), each one in the
equation above, no warning printed, the check ok.

iface_gone: vr0 (and so vf1) deleted under a running forwarder: it
says so, stops by itself with exit status 1, its check is ok.

teardown_midstream: xdp_fwd --teardown-after K while the sender is still
sending (it stops 0.3 s after the forwarder exited by itself, at most
after --duration): the forwarder closes its sockets mid-stream (it forwarded K and
at most 4096 more, the rings' worth, while the sender sent at least twice
that), exits 0 and its check is ok; the sink saw no duplicate and no more
than was forwarded.

Root only. Exit 77 (skipped, with the reason) where namespaces or AF_XDP
sockets cannot be created; 0 passed; 1 failed.
Layer: tests.
"""
import argparse
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77
IN_MAC = "02:70:70:00:00:02"     # vf0: the sender's destination


class Skip(Exception):
    pass


class Fail(Exception):
    pass


def log(msg):
    print(msg, flush=True)


def probe(prefix):
    """Skip (raise Skip) where the test cannot run at all."""
    if os.geteuid() != 0:
        raise Skip("needs root (network namespaces, AF_XDP)")
    try:
        subprocess.run(["ip", "-V"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        raise Skip("no 'ip' command (iproute2)")
    ns = prefix + "-probe"
    r = subprocess.run(["ip", "netns", "add", ns], capture_output=True, text=True)
    if r.returncode != 0:
        raise Skip("cannot create a network namespace: " + r.stderr.strip())
    subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    try:
        s = socket.socket(44, socket.SOCK_RAW, 0)     # AF_XDP
        s.close()
    except OSError as e:
        raise Skip("cannot create an AF_XDP socket: %s" % e)


class Bed:
    """The namespaces of one run, and the processes started in them."""

    def __init__(self, args, prefix):
        self.args = args
        self.prefix = prefix
        self.procs = []
        self.up = False

    def __enter__(self):
        r = subprocess.run([self.args.netns_setup, "up", "--prefix", self.prefix],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise Fail("netns-setup up failed: " + r.stderr.strip())
        self.up = True
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        if self.up:
            r = subprocess.run([self.args.netns_setup, "down", "--prefix", self.prefix],
                               capture_output=True, text=True)
            if r.returncode != 0:
                log("netns-setup down failed: " + r.stderr.strip())
        return False

    def start(self, ns, argv, **kw):
        p = subprocess.Popen(["ip", "netns", "exec", "%s-%s" % (self.prefix, ns)] + argv,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
        self.procs.append(p)
        return p

    def run(self, ns, argv, timeout):
        p = self.start(ns, argv)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            raise Fail("%s did not finish in %d s: %s" % (argv[0], timeout, err.strip()))
        return p.returncode, out, err


def wait_line(p, words, timeout, collect):
    """Read p's stderr until a line contains one of words; False on timeout/exit.

    Reads the pipe's fd directly (a buffered readline() could hold the line
    looked for while select() says there is nothing more to read)."""
    end = time.monotonic() + timeout
    fd = p.stderr.fileno()
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            chunk = os.read(fd, 65536).decode(errors="replace")
            if not chunk:
                return False
            collect.append(chunk)
            text = "".join(collect)
            if any(w in line for line in text.splitlines() for w in words):
                return True
        elif p.poll() is not None:
            return False
    return False


def start_sink(bed, expect, idle, timeout=60):
    argv = [bed.args.sink, "--ifname", "vr0", "--idle", str(idle), "--timeout", str(timeout),
            "--json"]
    if expect:
        argv += ["--expect", str(expect)]
    sink = bed.start("rx", argv)
    lines = []
    if not wait_line(sink, ["listening"], 10, lines):
        raise Fail("pp-xsk-sink did not start: " + "".join(lines))
    return sink


def start_fwd(bed, fwd_args, totals):
    argv = [bed.args.xdp_fwd, "--in", "vf0", "--out", "vf1", "--quiet",
            "--totals-json", totals] + fwd_args
    log("forwarder: " + " ".join(argv))
    fwd = bed.start("fwd", argv)
    # Ready when it says so on stderr: both sockets up, the in-socket in
    # the XSKMAP (a frame that came earlier would go to the stack, lost
    # without a counter).
    lines = []
    if not wait_line(fwd, ["ready"], 15, lines):
        if fwd.poll() is not None:
            raise Fail("xdp_fwd exited with %d before it was ready: %s"
                       % (fwd.returncode, "".join(lines) + fwd.stderr.read()))
        raise Fail("xdp_fwd not ready after 15 s: " + "".join(lines))
    fwd.early_stderr = "".join(lines)
    return fwd


def stop_fwd(fwd, timeout=30):
    if fwd.poll() is None:
        fwd.send_signal(signal.SIGINT)
    try:
        out, err = fwd.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        fwd.kill()
        out, err = fwd.communicate()
        raise Fail("xdp_fwd did not stop within %d s of SIGINT: %s" % (timeout, err))
    return fwd.returncode, out, fwd.early_stderr + err


def last_json(text, what):
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise Fail("%s printed no JSON: %r" % (what, text))


def read_totals(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise Fail("xdp_fwd's --totals-json %s: %s" % (path, e))


def fwd_result(rc, err, path):
    """The totals of a forwarder that exited with rc; a failure says why."""
    if rc != 0:
        why = "xdp_fwd exited with %d: %s" % (rc, err.strip())
        try:
            t = read_totals(path)
        except Fail:
            raise Fail(why)
        log("forwarder totals: " + json.dumps(t, sort_keys=True))
        try:
            check_after_teardown(t, t.get("frames"))
        except Fail as e:
            why += "; " + str(e)
        raise Fail(why)
    t = read_totals(path)
    log("forwarder totals: " + json.dumps(t, sort_keys=True))
    return t


def check_after_teardown(t, frames):
    c = t.get("check")
    if not isinstance(c, dict):
        raise Fail("totals have no check: %s" % json.dumps(t))
    log("check: ok=%s frames_total=%s frames_free=%s dma_violations=%s why=%r"
        % (c.get("ok"), c.get("frames_total"), c.get("frames_free"),
           c.get("dma_violations"), c.get("why", "")))
    bad = []
    if c.get("ok") is not True:
        bad.append("check not ok: %s" % c.get("why"))
    if c.get("frames_total") != c.get("frames_free"):
        bad.append("frames not all back: %s of %s free" % (c.get("frames_free"),
                                                          c.get("frames_total")))
    if c.get("dma_violations") != 0:
        bad.append("DMA-API violations: %s" % c.get("dma_violations"))
    if frames == "pagepool":
        pool = t.get("pool")
        if not isinstance(pool, dict) or pool.get("inflight") != 0:
            bad.append("pool inflight not 0: %s" % json.dumps(pool))
        else:
            log("pool: " + json.dumps(pool, sort_keys=True))
    if bad:
        raise Fail("; ".join(bad))


def fwd_argv(a):
    argv = ["--frames", a.frames, "--mode", a.mode, "--frame-size", str(a.frame_size),
            "--completion", a.completion]
    if a.bulk:
        argv.append("--bulk")
    if a.ring:
        argv += ["--ring", str(a.ring)]
    if a.nr_frames:
        argv += ["--nr-frames", str(a.nr_frames)]
    return argv


def send(bed, a, count=None, duration=None):
    argv = [a.send, "--ifname", "vs0", "--mode", a.send_mode, "--dst", IN_MAC, "--json"]
    if a.len:
        argv += ["--len", str(a.len)]
    if count:
        argv += ["--count", str(count)]
    if duration:
        argv += ["--duration", str(duration)]
    rc, out, err = bed.run("tx", argv, timeout=60)
    if rc != 0:
        raise Fail("pp-xsk-send failed (%d): %s" % (rc, err.strip()))
    s = last_json(out, "pp-xsk-send")
    log("sender: " + json.dumps(s))
    return s


def forward_all(a, bed, tmp):
    totals_path = os.path.join(tmp, "totals.json")
    sink = start_sink(bed, a.count, idle=1)
    fwd = start_fwd(bed, fwd_argv(a), totals_path)
    s = send(bed, a, count=a.count)
    try:
        sout, serr = sink.communicate(timeout=70)
    except subprocess.TimeoutExpired:
        raise Fail("pp-xsk-sink did not finish")
    k = last_json(sout, "pp-xsk-sink")
    log("sink: " + json.dumps(k))
    rc, fout, ferr = stop_fwd(fwd)
    t = fwd_result(rc, ferr, totals_path)

    xs_in = t["xdp_statistics"]["in"]
    xs_out = t["xdp_statistics"]["out"]
    drops = t.get("drops", {})
    terms = [("in.rx_dropped", xs_in["rx_dropped"]), ("in.rx_ring_full", xs_in["rx_ring_full"]),
             ("out.tx_invalid_descs", xs_out["tx_invalid_descs"])]
    terms += [("fwd." + k2, v) for k2, v in sorted(drops.items())]
    terms += [("sink.drops", k["drops"])]
    lost = sum(v for _, v in terms)
    sent = s["sent"]
    ok = k["received"] == sent - lost
    log("equation: received %d %s sent %d - (%s) = %d - %d; in.rx_fill_ring_empty_descs %d "
        "(inside in.rx_dropped)"
        % (k["received"], "==" if ok else "!=", sent,
           " + ".join("%s %d" % tv for tv in terms), sent, lost,
           xs_in["rx_fill_ring_empty_descs"]))
    bad = []
    if sent != a.count:
        bad.append("sender sent %d of %d" % (sent, a.count))
    if not ok:
        bad.append("%d frames lost without a counter" % (sent - lost - k["received"]))
    if k["duplicates"] or k["foreign"]:
        bad.append("sink saw %d duplicates, %d foreign frames" % (k["duplicates"], k["foreign"]))
    # That forwarding happened, not only accounted drops: 1 % of what was
    # sent. With the fewest frames 64-entry rings allow (the ring64 cases)
    # the fill ring runs dry whenever the forwarder loses the CPU during
    # the 0.2 s burst, and on a loaded 2-vCPU machine both frame managers
    # then forward 1600-1900 frames of 200000 (seen at 7810308 as on
    # later commits; each loss is accounted by rx_fill_ring_empty_descs,
    # which the equation above checks): there the test asks for what
    # those cases exist to show, that every frame went round several
    # times - four times the UMEM's frames.
    if a.ring and a.ring <= 64 and a.nr_frames:
        need = 4 * a.nr_frames
    else:
        need = max(1000, sent // 100)
    if k["received"] < need:
        bad.append("only %d of %d frames forwarded (at least %d expected)"
                   % (k["received"], sent, need))
    if t.get("forwarded", -1) < k["received"]:
        bad.append("forwarder says %s forwarded, the sink got %d" % (t.get("forwarded"),
                                                                    k["received"]))
    check_after_teardown(t, a.frames)
    if bad:
        raise Fail("; ".join(bad))


def lossy(a, bed, tmp):
    """Frames the forwarder cannot deliver, each counted: --egress-down (the
    far side's vr0 down: the kernel completes every TX descriptor without
    sending it, sendto() says EBUSY: drops.tx_dev_dropped) or --len longer
    than a frame leaves the tailroom for (drops.no_tailroom). The equation
    of forward_all holds with --expect-drop's counter > 0, the forwarder
    printed no warning, its check is ok."""
    totals_path = os.path.join(tmp, "totals.json")
    if a.egress_down:
        subprocess.run(["ip", "-n", bed.prefix + "-rx", "link", "set", "vr0", "down"],
                       check=True)
        sink = None
    else:
        # (it may see nothing at all: it gives up after 8 s)
        sink = start_sink(bed, None, idle=1, timeout=8)
    fwd = start_fwd(bed, fwd_argv(a), totals_path)
    s = send(bed, a, count=a.count)
    time.sleep(0.5)
    if sink is not None:
        try:
            sout, serr = sink.communicate(timeout=70)
        except subprocess.TimeoutExpired:
            raise Fail("pp-xsk-sink did not finish")
        k = last_json(sout, "pp-xsk-sink")
    else:
        k = {"received": 0, "drops": 0, "duplicates": 0, "foreign": 0}
    log("sink: " + json.dumps(k))
    rc, fout, ferr = stop_fwd(fwd)
    t = fwd_result(rc, ferr, totals_path)
    xs_in = t["xdp_statistics"]["in"]
    xs_out = t["xdp_statistics"]["out"]
    drops = t.get("drops", {})
    terms = [("in.rx_dropped", xs_in["rx_dropped"]), ("in.rx_ring_full", xs_in["rx_ring_full"]),
             ("out.tx_invalid_descs", xs_out["tx_invalid_descs"])]
    terms += [("fwd." + k2, v) for k2, v in sorted(drops.items())]
    terms += [("sink.drops", k["drops"])]
    lost = sum(v for _, v in terms)
    sent = s["sent"]
    ok = k["received"] == sent - lost
    log("equation: received %d %s sent %d - (%s) = %d - %d"
        % (k["received"], "==" if ok else "!=", sent,
           " + ".join("%s %d" % tv for tv in terms), sent, lost))
    bad = []
    if not ok:
        bad.append("%d frames lost without a counter" % (sent - lost - k["received"]))
    if drops.get(a.expect_drop, 0) == 0:
        bad.append("drops.%s is %s, expected > 0" % (a.expect_drop, drops.get(a.expect_drop)))
    warn = [ln for ln in ferr.splitlines() if "BUG" in ln or "WARN" in ln or "warn" in ln]
    if warn:
        bad.append("the forwarder warned %d times, first: %s" % (len(warn), warn[0]))
    check_after_teardown(t, a.frames)
    if bad:
        raise Fail("; ".join(bad))


def iface_gone(a, bed, tmp):
    """The far side's veth pair deleted under a running forwarder (vr0 and
    with it vf1): within a few seconds xdp_fwd says "interface vf1 went
    away", stops by itself with exit status 1, and its check after
    teardown is ok (every frame back)."""
    totals_path = os.path.join(tmp, "totals.json")
    fwd = start_fwd(bed, fwd_argv(a), totals_path)
    send(bed, a, count=20000)
    subprocess.run(["ip", "-n", bed.prefix + "-rx", "link", "del", "vr0"], check=True)
    t0 = time.monotonic()
    try:
        out, err = fwd.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        raise Fail("xdp_fwd still running 10 s after vf1 went away")
    err = fwd.early_stderr + err
    log("xdp_fwd exited with %d after %.1f s; stderr: %s"
        % (fwd.returncode, time.monotonic() - t0, err.strip()))
    bad = []
    if "interface vf1 went away" not in err:
        bad.append("no 'interface vf1 went away' message")
    if fwd.returncode != 1:
        bad.append("exit status %d, not 1" % fwd.returncode)
    t = read_totals(totals_path)
    log("forwarder totals: " + json.dumps(t, sort_keys=True))
    try:
        check_after_teardown(t, a.frames)
    except Fail as e:
        bad.append(str(e))
    if bad:
        raise Fail("; ".join(bad))


def teardown_midstream(a, bed, tmp):
    totals_path = os.path.join(tmp, "totals.json")
    sink = start_sink(bed, 0, idle=1)
    fwd = start_fwd(bed, fwd_argv(a) + ["--teardown-after", str(a.teardown_after)], totals_path)
    # The sender runs until the forwarder has torn down and exited by
    # itself, and a little longer: the teardown is mid-stream however
    # slow the build (sanitizers) or the machine.
    sender = bed.start("tx", [a.send, "--ifname", "vs0", "--mode", a.send_mode, "--dst", IN_MAC,
                              "--duration", str(a.duration), "--json"])
    try:
        fwd.wait(timeout=a.duration)
    except subprocess.TimeoutExpired:
        pass
    torn_down = fwd.poll() is not None
    time.sleep(0.3)
    if sender.poll() is None:
        sender.send_signal(signal.SIGINT)
    sout, serr = sender.communicate(timeout=30)
    if sender.returncode != 0:
        raise Fail("pp-xsk-send failed (%d): %s" % (sender.returncode, serr.strip()))
    s = last_json(sout, "pp-xsk-send")
    log("sender: " + json.dumps(s))
    if not torn_down:
        stop_fwd(fwd)
        raise Fail("xdp_fwd --teardown-after %d did not tear down and exit within %g s"
                   % (a.teardown_after, a.duration))
    rc, fout, ferr = stop_fwd(fwd)
    sout, _ = sink.communicate(timeout=30)
    k = last_json(sout, "pp-xsk-sink")
    log("sink: " + json.dumps(k))
    t = fwd_result(rc, ferr, totals_path)
    bad = []
    fwded = t.get("forwarded", 0)
    if fwded < a.teardown_after:
        bad.append("forwarded %d < --teardown-after %d" % (fwded, a.teardown_after))
    # Closed right after K: what was forwarded past K is at most what the
    # rings held (4096 frames), and the sender went on long after.
    if fwded > a.teardown_after + 4096:
        bad.append("forwarded %d, more than --teardown-after %d + 4096: the sockets stayed open"
                   % (fwded, a.teardown_after))
    if s["sent"] < 2 * fwded:
        bad.append("sent %d < 2 x forwarded %d: the teardown was not mid-stream"
                   % (s["sent"], fwded))
    if k["received"] > fwded:
        bad.append("the sink got %d frames, more than the %d forwarded" % (k["received"], fwded))
    if k["duplicates"] or k["foreign"]:
        bad.append("sink saw %d duplicates, %d foreign frames" % (k["duplicates"], k["foreign"]))
    log("teardown: sent %d, forwarded %d, received %d" % (s["sent"], fwded, k["received"]))
    check_after_teardown(t, a.frames)
    if bad:
        raise Fail("; ".join(bad))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("case", choices=["forward_all", "teardown_midstream", "lossy",
                                     "iface_gone"])
    ap.add_argument("--build", required=True, help="the meson build directory")
    ap.add_argument("--source", required=True, help="the source tree")
    ap.add_argument("--frames", choices=["pagepool", "fixed"], default="pagepool")
    ap.add_argument("--mode", choices=["skb", "drv"], default="drv")
    ap.add_argument("--frame-size", type=int, choices=[2048, 4096], default=2048)
    ap.add_argument("--completion", choices=["same", "other"], default="same")
    ap.add_argument("--bulk", action="store_true")
    ap.add_argument("--ring", type=int, default=0)
    ap.add_argument("--nr-frames", type=int, default=0)
    ap.add_argument("--len", type=int, default=0, help="the sender's frame length")
    ap.add_argument("--egress-down", action="store_true", help="lossy: vr0 down")
    ap.add_argument("--expect-drop", default="tx_dev_dropped", help="lossy: this drop > 0")
    ap.add_argument("--send-mode", choices=["xdp", "packet"], default="xdp")
    ap.add_argument("--count", type=int, default=200000)
    ap.add_argument("--duration", type=float, default=60.0,
                    help="teardown_midstream: the longest the sender runs")
    ap.add_argument("--teardown-after", type=int, default=50000)
    a = ap.parse_args()
    a.netns_setup = os.path.join(a.source, "tools", "netns-setup")
    a.send = os.path.join(a.build, "tools", "xsk-traffic", "pp-xsk-send")
    a.sink = os.path.join(a.build, "tools", "xsk-traffic", "pp-xsk-sink")
    a.xdp_fwd = os.path.join(a.build, "examples", "xdp_fwd", "xdp_fwd")
    prefix = "ppt%d" % (os.getpid() % 1000000)
    try:
        probe(prefix)
        for exe in (a.send, a.sink, a.xdp_fwd):
            if not os.access(exe, os.X_OK):
                raise Fail("%s is not built" % exe)
        with tempfile.TemporaryDirectory() as tmp, Bed(a, prefix) as bed:
            {"forward_all": forward_all, "teardown_midstream": teardown_midstream,
             "lossy": lossy, "iface_gone": iface_gone}[a.case](
                a, bed, tmp)
    except Skip as e:
        log("SKIP: %s" % e)
        return SKIP
    except Fail as e:
        log("FAIL: %s" % e)
        return 1
    log("PASS: %s %s" % (a.case, " ".join(fwd_argv(a))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
