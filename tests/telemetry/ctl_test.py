#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""pagepool-ctl as users get it: the build installed into a scratch DESTDIR,
the installed bin/pagepool-ctl run against target programs compiled from
the installed headers with pkg-config alone (ctl_target.c; ctl_pp_hold.c
with simnic's .c files, as tests/drivers builds them), or against an
in-tree benchmark started with PAGEPOOL_TELEMETRY=1.

Usage: ctl_test.py BUILD_DIR SOURCE_DIR TEST [BENCH_PROGRAM]
TEST: state | pp_hold | bench | errors (the functions test_* below).
CTL_EXTRA_CFLAGS in the environment: flags the target programs need too
(a sanitizer build passes -fsanitize=...).
"""
import glob
import json
import os
import pty
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time

# page_pool_stats' counters, in order, as the telemetry protocol names them.
STATS = ["alloc-fast", "alloc-slow", "alloc-slow-high-order", "alloc-empty",
         "alloc-refill", "alloc-waive", "recycle-cached", "recycle-cache-full",
         "recycle-ring", "recycle-ring-full", "recycle-released-refcnt"]
# dump's table columns for them.
STAT_HEADS = ["FAST", "SLOW", "SLOW-HO", "EMPTY", "REFILL", "WAIVE", "CACHED",
              "CACHE-FULL", "RING", "RING-FULL", "RELEASED"]

# The library's page size is the build's (meson -Dpage_size): inflight-mem
# is inflight pages times it. Read from <generated/autoconf.h> in main().
PAGE_SIZE = None

# A cross build (tests/meson.build's test setup): the target's compiler,
# and every program (targets, pagepool-ctl, the benchmark) runs through
# the exe wrapper (qemu-user, which keeps the pid the sockets are named by).
CC = os.environ.get("PAGEPOOL_CROSS_CC", "cc").split()
WRAPPER = os.environ.get("PAGEPOOL_EXE_WRAPPER", "").split()


def comm(name):
    """The COMM the server reports for program NAME: its /proc/self/comm,
    which under qemu-user is the emulator's (qemu emulates /proc/self/maps,
    stat, cmdline, not comm): then the wrapper's name, as the kernel
    gives it (15 bytes)."""
    return (os.path.basename(WRAPPER[0]) if WRAPPER else name)[:15]


# What ctl_target.c's two pools must show, by the kernel's algorithm
# (net/core/page_pool.c of Linux 6.12, as tests/kernel-api/stats_sequences.c
# derives it):
# A, order 0, pool_size 256: 200 allocations - an empty cache and ring at
#   allocations 1, 65, 129, 193 ("empty", "slow": 64 pages each, 256 in
#   all), the other 196 "fast"; 56 pages left in the cache. 100 puts with
#   allow_direct: 72 fill the cache to 128 ("cached"), 28 find it full
#   ("cache_full") and go to the ring ("ring"). One put with an extra
#   reference: "released_refcnt", the page leaves the pool: inflight 255.
# B, order 1, pool_size 16: 10 allocations, each "empty" and
#   "slow_high_order" (one page per call at order > 0); 6 puts from process
#   context into the ring; 3 allocations: one refill from the ring (6 pages
#   into the cache, "refill"), then 2 "fast". Inflight 10 pages of 2 * PAGE_SIZE.
WANT_A = dict(zip(STATS, [196, 4, 0, 4, 0, 0, 72, 28, 28, 0, 1]))
WANT_B = dict(zip(STATS, [2, 0, 10, 10, 1, 0, 0, 0, 6, 0, 0]))


def set_page_size(build):
    """PAGE_SIZE = 1 << CONFIG_PAGE_SHIFT of the build under test, and the
    inflight-mem the two pools must show with it."""
    global PAGE_SIZE
    shift = None
    with open(os.path.join(build, "include", "generated", "autoconf.h")) as f:
        for line in f:
            m = re.match(r"#define CONFIG_PAGE_SHIFT (\d+)$", line.strip())
            if m:
                shift = int(m.group(1))
    if shift is None:
        sys.exit("no CONFIG_PAGE_SHIFT in %s/include/generated/autoconf.h" % build)
    PAGE_SIZE = 1 << shift
    WANT_A.update({"inflight": 255, "inflight-mem": 255 * PAGE_SIZE})
    WANT_B.update({"inflight": 10, "inflight-mem": 10 * 2 * PAGE_SIZE})

failures = 0


def check(cond, what):
    global failures
    if cond:
        print("ok: " + what)
    else:
        print("FAIL: " + what)
        failures += 1
    return cond


def check_eq(got, want, what):
    return check(got == want, "%s: %r (want %r)" % (what, got, want))


class Installed:
    """The build installed under a scratch DESTDIR, and what pkg-config says
    about it."""

    def __init__(self, build, src):
        self.src = src
        self.dest = tempfile.mkdtemp(prefix="ctl-test-")
        subprocess.run(["meson", "install", "-C", build, "--destdir", self.dest,
                        "--no-rebuild", "--quiet"], check=True, stdout=subprocess.DEVNULL)
        pcs = glob.glob(self.dest + "/**/pagepool.pc", recursive=True)
        if not pcs:
            sys.exit("pagepool.pc was not installed")
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pcs[0]))
        prefix = self.pkgconfig(env, ["--variable=prefix"])
        define = "--define-variable=prefix=" + self.dest + prefix
        self.flags = self.pkgconfig(env, [define, "--cflags", "--libs"]).split()
        self.libdir = self.pkgconfig(env, [define, "--variable=libdir"])
        self.ctl = os.path.join(self.dest + prefix, "bin", "pagepool-ctl")
        if not os.path.exists(self.ctl):
            sys.exit("pagepool-ctl was not installed in " + os.path.dirname(self.ctl))
        print("installed pagepool-ctl: " + self.ctl)

    @staticmethod
    def pkgconfig(env, args):
        return subprocess.run(["pkg-config"] + args + ["pagepool"], env=env, check=True,
                              capture_output=True, text=True).stdout.strip()

    def cc(self, name, sources):
        out = os.path.join(self.dest, name)
        extra = os.environ.get("CTL_EXTRA_CFLAGS", "").split()
        # -g: the holders' take sites are named by file and line.
        cmd = CC + ["-std=gnu11", "-g", "-Wall", "-Wextra", "-Werror"] + extra + \
              ["-o", out] + sources + self.flags
        print(" ".join(cmd))
        subprocess.run(cmd, check=True)
        return out

    def cleanup(self):
        shutil.rmtree(self.dest, ignore_errors=True)


class Target:
    """A target program, started with its socket directory, talking on stdin
    and stdout."""

    def __init__(self, inst, prog, sockdir):
        env = dict(os.environ, LD_LIBRARY_PATH=inst.libdir)
        self.p = subprocess.Popen(WRAPPER + [prog, sockdir], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)
        self.pid = self.p.pid

    def readline(self):
        line = self.p.stdout.readline()
        if not line:
            sys.exit("the target program exited early (status %s)" % self.p.wait())
        return line.rstrip("\n")

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()
        return self.readline()

    def quit(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.close()
        return self.p.wait(timeout=60)


def run_ctl(inst, args, sockdir=None, env=None, timeout=30):
    """pagepool-ctl ARGS; the socket directory by --dir, or by the
    environment when sockdir is None (env has PAGEPOOL_TELEMETRY_DIR)."""
    cmd = WRAPPER + [inst.ctl] + (["--dir", sockdir] if sockdir else []) + args
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       env=env if env is not None else os.environ)
    print("$ pagepool-ctl %s -> %d" % (" ".join(args), r.returncode))
    for line in (r.stdout + r.stderr).splitlines():
        print("  | " + line)
    return r


def table(text, first):
    """The rows of a table whose header starts with @first: dicts by header."""
    rows, head = [], None
    for line in text.splitlines():
        cells = line.split()
        if cells and cells[0] == first:
            head = cells
        elif head and len(cells) == len(head):
            rows.append(dict(zip(head, cells)))
        elif head and not cells:
            head = None
    return rows


def blocks(text):
    """show/stats output: {pool id: {key: value}} from "pool N of pid P"
    lines and the indented "key value ..." lines under them."""
    out, cur = {}, None
    for line in text.splitlines():
        cells = line.split()
        if line.startswith("pool "):
            cur = out.setdefault(int(cells[1]), {})
        elif cur is not None and line.startswith("  ") and len(cells) >= 2:
            cur[cells[0]] = cells[1]
    return out


def num(v):
    return None if v in (None, "-") else int(v)


# ---- 1. two pools in a known state ------------------------------------------

def test_state(inst, args):
    # The tool talks to the socket: it does not link the library.
    if shutil.which("readelf"):
        dyn = subprocess.run(["readelf", "-d", inst.ctl], capture_output=True, text=True).stdout
        needed = [ln.split("[")[1].rstrip("]") for ln in dyn.splitlines() if "(NEEDED)" in ln]
        check(any(n.startswith("libjansson") for n in needed) and
              not any("pagepool" in n for n in needed),
              "pagepool-ctl links jansson, not libpagepool: %s" % needed)
    sockdir = tempfile.mkdtemp(prefix="ctl-sock-")
    prog = inst.cc("ctl_target", [os.path.join(inst.src, "tests/telemetry/ctl_target.c")])
    t = Target(inst, prog, sockdir)
    truth = {}
    while True:
        line = t.readline()
        if line == "ready":
            break
        f = line.split()
        v = [int(x) for x in f[1:]]
        truth[v[0]] = dict(zip(["id", "ifindex", "napi-id", "inflight", "inflight-mem"] + STATS,
                               v))
    ids = sorted(truth)
    check_eq(len(ids), 2, "the target has two pools")
    a, b = truth[ids[0]], truth[ids[1]]
    # The library's own figures are the kernel's (else the comparisons
    # below would check the wrong thing).
    for key, want in WANT_A.items():
        check_eq(a[key], want, "pool A %s in the process" % key)
    for key, want in WANT_B.items():
        check_eq(b[key], want, "pool B %s in the process" % key)
    check(a["ifindex"] > 1 and a["napi-id"] > 0, "pool A has an ifindex and a napi-id")
    check_eq(b["ifindex"], -1, "pool B has no ifindex")
    env = dict(os.environ, PAGEPOOL_TELEMETRY_DIR=sockdir)

    # list: the socket directory from the environment.
    r = run_ctl(inst, ["list"], env=env)
    rows = [x for x in table(r.stdout, "PID") if x["PID"] == str(t.pid)]
    check_eq(r.returncode, 0, "list exit code")
    if check_eq(len(rows), 1, "list shows the target"):
        check_eq(rows[0]["POOLS"], "2", "list POOLS")
        check_eq(num(rows[0]["INFLIGHT"]), a["inflight"] + b["inflight"], "list INFLIGHT")
        check_eq(num(rows[0]["INFLIGHT-MEM"]), a["inflight-mem"] + b["inflight-mem"],
                 "list INFLIGHT-MEM")
        check_eq(rows[0]["COMM"], comm("ctl_target"), "list COMM")
    r = run_ctl(inst, ["list", "--json"], sockdir)
    procs = json.loads(r.stdout) if r.returncode == 0 else []
    if check_eq(len(procs), 1, "list --json: one process"):
        check_eq(procs[0].get("pid"), t.pid, "list --json pid")
        check_eq(procs[0].get("uid"), os.getuid(), "list --json uid")
        check_eq(procs[0].get("pools"), 2, "list --json pools")

    # dump --json: every attribute and counter of both pools.
    r = run_ctl(inst, ["dump", "--json"], sockdir)
    check_eq(r.returncode, 0, "dump --json exit code")
    dump = {p["id"]: p for p in json.loads(r.stdout)} if r.returncode == 0 else {}
    check_eq(sorted(dump), ids, "dump --json: the two pools, by id")
    for want in (a, b):
        got = dump.get(want["id"], {})
        for key in ["inflight", "inflight-mem"] + STATS:
            check_eq(got.get(key), want[key], "dump --json pool %d %s" % (want["id"], key))
    check_eq(dump.get(a["id"], {}).get("ifindex"), a["ifindex"], "dump --json pool A ifindex")
    check_eq(dump.get(a["id"], {}).get("napi-id"), a["napi-id"], "dump --json pool A napi-id")
    check("ifindex" not in dump.get(b["id"], {"ifindex": 0}), "dump --json pool B: no ifindex")
    check("detach-time" not in dump.get(a["id"], {"detach-time": 0}),
          "dump --json pool A: no detach-time")

    # dump: the table.
    r = run_ctl(inst, ["dump"], sockdir)
    rows = {num(x["ID"]): x for x in table(r.stdout, "ID")}
    for want in (a, b):
        got = rows.get(want["id"], {})
        check_eq(num(got.get("INFLIGHT")), want["inflight"], "dump pool %d INFLIGHT" % want["id"])
        check_eq(num(got.get("INFLIGHT-MEM")), want["inflight-mem"],
                 "dump pool %d INFLIGHT-MEM" % want["id"])
        for key, head in zip(STATS, STAT_HEADS):
            check_eq(num(got.get(head)), want[key], "dump pool %d %s" % (want["id"], head))
    check_eq(rows.get(b["id"], {}).get("IFINDEX"), "-", "dump pool B IFINDEX")

    # show: one pool each.
    for want in (a, b):
        r = run_ctl(inst, ["show", str(want["id"])], sockdir)
        got = blocks(r.stdout).get(want["id"], {})
        check_eq(r.returncode, 0, "show %d exit code" % want["id"])
        for key in ["ifindex", "napi-id", "inflight", "inflight-mem"]:
            w = None if want[key] == -1 else want[key]
            check_eq(num(got.get(key)), w, "show %d %s" % (want["id"], key))
        check_eq(got.get("detach-time"), "-", "show %d detach-time" % want["id"])
        r = run_ctl(inst, ["show", "--json", str(want["id"])], sockdir)
        got = json.loads(r.stdout) if r.returncode == 0 else {}
        check_eq(got.get("inflight"), want["inflight"], "show --json %d inflight" % want["id"])

    # stats POOL and stats: every counter.
    for want in (a, b):
        r = run_ctl(inst, ["stats", str(want["id"])], sockdir)
        got = blocks(r.stdout).get(want["id"], {})
        check_eq(r.returncode, 0, "stats %d exit code" % want["id"])
        for key in STATS:
            check_eq(num(got.get(key)), want[key], "stats %d %s" % (want["id"], key))
    r = run_ctl(inst, ["stats"], sockdir)
    got = blocks(r.stdout)
    check_eq(sorted(got), ids, "stats: both pools")
    for want in (a, b):
        for key in STATS:
            check_eq(num(got.get(want["id"], {}).get(key)), want[key],
                     "stats (all) %d %s" % (want["id"], key))
    r = run_ctl(inst, ["stats", "--json"], sockdir)
    got = {s["info"]["id"]: s for s in json.loads(r.stdout)} if r.returncode == 0 else {}
    check_eq(got.get(a["id"], {}).get("info", {}).get("ifindex"), a["ifindex"],
             "stats --json pool A info.ifindex")

    # watch -n 2: two refreshes, each with both pools; nothing moves, so
    # every rate is 0.
    r = run_ctl(inst, ["watch", "-n", "2", "-i", "0.2"], sockdir)
    check_eq(r.returncode, 0, "watch exit code")
    heads = [ln for ln in r.stdout.splitlines() if ln.startswith("pid %d " % t.pid)]
    check_eq(len(heads), 2, "watch -n 2: two refreshes")
    check("\033[2J" not in r.stdout, "watch: no screen clearing into a pipe")
    rows = table(r.stdout, "ID")
    check_eq(len(rows), 4, "watch: two pools in each refresh")
    for row in rows:
        want = truth.get(num(row["ID"]), {})
        check_eq(num(row["INFLIGHT"]), want.get("inflight"), "watch pool %s INFLIGHT" % row["ID"])
        check_eq(num(row["INFLIGHT-MEM"]), want.get("inflight-mem"),
                 "watch pool %s INFLIGHT-MEM" % row["ID"])
        for col in ["ALLOC-FAST/s", "ALLOC-SLOW/s", "RECYCLE-CACHED/s", "RECYCLE-RING/s",
                    "RELEASED/s"]:
            check_eq(row[col], "0", "watch pool %s %s" % (row["ID"], col))

    # holders: who holds the pages out, where the library tracks them.
    src = open(os.path.join(inst.src, "tests/telemetry/ctl_target.c")).read().splitlines()
    site = {m: "ctl_target.c:%d)" % (i + 1) for i, ln in enumerate(src)
            for m in ("A", "B1", "B2") if ln.endswith("/* take site %s */" % m)}
    if procs and procs[0].get("holders"):
        for want, groups in ((a, [(99, "A")]), (b, [(4, "B1"), (3, "B2")])):
            r = run_ctl(inst, ["holders", str(want["id"])], sockdir)
            lines = r.stdout.splitlines()
            check_eq(r.returncode, 0, "holders %d exit code" % want["id"])
            check_eq(len(lines), len(groups), "holders %d: one line per take site" % want["id"])
            for line, (pages, m) in zip(lines, groups):
                check(line.startswith("%d pages held since main+0x" % pages) and
                      (site[m] + " on cpu 0, for ") in line,
                      "holders %d: %d pages taken at %s" % (want["id"], pages, site[m]))
        r = run_ctl(inst, ["holders", "--json", str(a["id"])], sockdir)
        got = json.loads(r.stdout) if r.returncode == 0 else []
        check_eq([h.get("pages") for h in got], [99], "holders --json pages")
    else:
        r = run_ctl(inst, ["holders", str(a["id"])], sockdir)
        check(r.returncode == 1 and "without holder tracking" in r.stderr,
              "holders: this build does not track holders, and it says so")

    # On a terminal, each refresh clears the screen first.
    master, slave = pty.openpty()
    w = subprocess.run(WRAPPER + [inst.ctl, "--dir", sockdir, "watch", "-n", "1", "-i", "0.1"],
                       stdout=slave, stderr=subprocess.PIPE, timeout=30)
    os.close(slave)
    tty = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        tty += chunk
    os.close(master)
    check(w.returncode == 0 and tty.startswith(b"\033[H\033[2J"),
          "watch on a terminal clears the screen: %r" % tty[:16])

    check_eq(t.quit(), 0, "the target gave every page back")
    check(not os.path.exists(os.path.join(sockdir, "%d.sock" % t.pid)),
          "pp_telemetry_stop() removed the socket")
    shutil.rmtree(sockdir, ignore_errors=True)


# ---- 2. netdevsim's page_pool_check, seen from outside ------------------------

def pools_of(inst, sockdir, pid, ifindex):
    r = run_ctl(inst, ["-p", str(pid), "dump", "--json"], sockdir)
    if not check_eq(r.returncode, 0, "dump --json exit code"):
        return []
    return [p for p in json.loads(r.stdout) if p.get("ifindex") == ifindex]


def test_pp_hold(inst, args):
    sockdir = tempfile.mkdtemp(prefix="ctl-sock-")
    simnic = [os.path.join(inst.src, "drivers/simnic", f) for f in ("simnic.c", "simnic_hw.c")]
    prog = inst.cc("ctl_pp_hold", [os.path.join(inst.src, "tests/telemetry/ctl_pp_hold.c")] +
                   simnic)
    t = Target(inst, prog, sockdir)
    ifindex = int(t.readline().split()[1])
    ev = subprocess.Popen(WRAPPER + [inst.ctl, "--dir", sockdir, "-p", str(t.pid), "events", "-n", "3"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Subscribed before the device moves: the line that says so.
    check("subscribed" in ev.stderr.readline(), "events: subscribed")

    # No page pools when down
    check_eq(len(pools_of(inst, sockdir, t.pid, ifindex)), 0, "down: no pool for the device")
    # Up, and hold a page
    check_eq(t.send("up"), "ok %d" % ifindex, "up")
    check_eq(t.send("hold"), "ok %d" % ifindex, "hold")
    pools = pools_of(inst, sockdir, t.pid, ifindex)
    if check_eq(len(pools), 1, "up + hold: one pool for the device"):
        check(pools[0]["inflight"] >= 1, "up + hold: inflight %d >= 1" % pools[0]["inflight"])
        check("detach-time" not in pools[0], "up: the pool is attached")
        pid_ = pools[0]["id"]
    # Down: the pool stays, detached, with the held page
    check_eq(t.send("down"), "ok %d" % ifindex, "down")
    pools = pools_of(inst, sockdir, t.pid, ifindex)
    if check_eq(len(pools), 1, "down: one pool for the device"):
        check_eq(pools[0]["inflight"], 1, "down: inflight of the detached pool")
        check(pools[0].get("detach-time", 0) > 0, "down: the pool has a detach-time")
        r = run_ctl(inst, ["-p", str(t.pid), "show", str(pools[0]["id"])], sockdir)
        check("detached" in r.stdout, "show says the pool is detached")
    # Release: the pool goes
    check_eq(t.send("release"), "ok %d" % ifindex, "release")
    deadline, n = time.time() + 3, -1
    while time.time() < deadline:
        n = len(pools_of(inst, sockdir, t.pid, ifindex))
        if n == 0:
            break
        time.sleep(0.05)
    check_eq(n, 0, "release: no pool for the device")

    # The notifications, in the kernel's order: add at open, change at the
    # detach, del when the last page came back.
    try:
        out, err = ev.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        ev.kill()
        out, err = ev.communicate()
    print("events:\n" + out + err)
    names = [ln.split()[0] for ln in out.splitlines() if ln]
    check_eq(names, ["page-pool-add-ntf", "page-pool-change-ntf", "page-pool-del-ntf"],
             "events: add, change, del")
    check_eq(ev.returncode, 0, "events -n 3 exit code")
    check(all(" id %d " % pid_ in ln + " " for ln in out.splitlines()), "events: one pool's id")
    check_eq(t.quit(), 0, "the target exits clean")
    shutil.rmtree(sockdir, ignore_errors=True)


# ---- 3. an unchanged benchmark, PAGEPOOL_TELEMETRY=1 ---------------------------

def test_bench(inst, args):
    bench = args[0]
    sockdir = tempfile.mkdtemp(prefix="ctl-sock-")
    env = dict(os.environ, PAGEPOOL_TELEMETRY="1", PAGEPOOL_TELEMETRY_DIR=sockdir)
    # One scenario, (c) page_pool with TX completion on the RX CPU, on the
    # direct backend, for about 4 s.
    b = subprocess.Popen(WRAPPER + [bench, "reps=1", "warmup_ms=100", "window_ms=4000",
                          "scenarios=0x4", "dma=2"],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen = None
    deadline = time.time() + 20
    while time.time() < deadline and b.poll() is None:
        r = subprocess.run(WRAPPER + [inst.ctl, "--dir", sockdir, "list", "--json"], capture_output=True,
                           text=True)
        procs = json.loads(r.stdout) if r.returncode == 0 and r.stdout else []
        if procs and procs[0].get("pools", 0) >= 1 and procs[0].get("inflight", 0) > 0:
            seen = procs[0]
            break
        time.sleep(0.05)
    if check(seen is not None, "list shows the benchmark with pools inflight"):
        check_eq(seen.get("pid"), b.pid, "list: the benchmark's pid")
        r = run_ctl(inst, ["list"], sockdir)
        check(str(b.pid) in r.stdout and comm("bench_xdp_redirect") in r.stdout,
              "list (table)")
        r = run_ctl(inst, ["-p", str(b.pid), "dump", "--json"], sockdir)
        pools = json.loads(r.stdout) if r.returncode == 0 else []
        check(len(pools) >= 1, "dump --json: %d pools" % len(pools))
        check(any(p.get("ifindex", 0) > 1 and p.get("inflight", 0) > 0 for p in pools),
              "dump --json: an RX pool of a simnic device with pages inflight")
        check(any(p.get("alloc-fast", 0) + p.get("alloc-slow", 0) > 0 for p in pools),
              "dump --json: the pools allocated")
        r = run_ctl(inst, ["-p", str(b.pid), "dump"], sockdir)
        check_eq(r.returncode, 0, "dump exit code")
        # Packets flow: the RX pool allocates and recycles at some rate.
        r = run_ctl(inst, ["-p", str(b.pid), "watch", "-n", "1", "-i", "0.5"], sockdir)
        rows = table(r.stdout, "ID")
        check(any(num(x["ALLOC-FAST/s"]) > 0 and num(x["RECYCLE-CACHED/s"]) > 0 for x in rows),
              "watch: a pool allocating and recycling per second")
    out, _ = b.communicate(timeout=120)
    check_eq(b.returncode, 0, "the benchmark's end state is clean")
    if b.returncode:
        print(out)
    # Its socket is gone: removed at exit, or (a process that never
    # stopped its server) by list as a dead process's.
    r = run_ctl(inst, ["list"], sockdir)
    check_eq(r.returncode, 0, "list after the benchmark")
    check(not os.path.exists(os.path.join(sockdir, "%d.sock" % b.pid)),
          "the benchmark's socket is gone after list")
    shutil.rmtree(sockdir, ignore_errors=True)


# ---- 4. error paths -------------------------------------------------------------

def dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def test_errors(inst, args):
    sockdir = tempfile.mkdtemp(prefix="ctl-sock-")
    empty = tempfile.mkdtemp(prefix="ctl-empty-")

    r = run_ctl(inst, ["dump"], empty)
    check_eq(r.returncode, 1, "no process: dump exit code")
    check("no pagepool process" in r.stderr, "no process: the message says so")
    r = run_ctl(inst, ["list"], empty)
    check_eq(r.returncode, 0, "no process: list exit code")
    check("no pagepool processes" in r.stdout, "no process: list says so")
    r = run_ctl(inst, ["dump"], os.path.join(empty, "nonexistent"))
    check_eq(r.returncode, 1, "no directory: dump exit code")

    pid = dead_pid()
    r = run_ctl(inst, ["-p", str(pid), "show", "1"], sockdir)
    check_eq(r.returncode, 1, "-p of a dead pid: exit code")
    check("no pagepool process %d" % pid in r.stderr, "-p of a dead pid: the message")

    # A dead process's socket: nobody listens on it.
    stale = os.path.join(sockdir, "%d.sock" % pid)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(stale)
    s.close()
    r = run_ctl(inst, ["-p", str(pid), "dump"], sockdir)
    check_eq(r.returncode, 1, "-p of a dead pid with a stale socket: exit code")
    check("not running" in r.stderr and "stale socket" in r.stderr,
          "-p of a dead pid with a stale socket: the message")
    r = run_ctl(inst, ["list"], sockdir)
    check_eq(r.returncode, 0, "list with a stale socket: exit code")
    check("removed the stale socket" in r.stderr, "list says it removed the stale socket")
    check(not os.path.exists(stale), "list removed the stale socket")
    # A regular file with a socket's name is someone's: list leaves it.
    with open(stale, "w") as f:
        f.write("not a socket\n")
    r = run_ctl(inst, ["list"], sockdir)
    check_eq(r.returncode, 0, "list with a file named like a socket: exit code")
    check(os.path.exists(stale), "list left a regular file named <pid>.sock alone")
    os.unlink(stale)
    for cmd in ("show", "holders"):
        r = run_ctl(inst, [cmd, "1", "2"], sockdir)
        check_eq(r.returncode, 2, "%s with two pool ids: exit code" % cmd)
        check("takes one POOL id" in r.stderr, "%s with two pool ids: the message" % cmd)

    prog = inst.cc("ctl_target", [os.path.join(inst.src, "tests/telemetry/ctl_target.c")])
    t = Target(inst, prog, sockdir)
    while t.readline() != "ready":
        pass
    for cmd in (["show", "99999"], ["stats", "99999"]):
        r = run_ctl(inst, cmd, sockdir)
        check_eq(r.returncode, 1, "%s: exit code" % " ".join(cmd))
        check("no such pool 99999" in r.stderr, "%s: the message names the pool" % " ".join(cmd))
    r = run_ctl(inst, ["-p", str(t.pid), "process-of-nothing"], sockdir)
    check_eq(r.returncode, 2, "unknown command: exit code")
    for cmd in (["show", "abc"], ["show"], ["show", "0"], ["stats", "1", "2"], ["list", "x"],
                ["watch", "-i", "0"], ["-p", "x", "dump"], ["dump", "--bogus"]):
        r = run_ctl(inst, cmd, sockdir)
        check_eq(r.returncode, 2, "%s: usage exit code" % " ".join(cmd))
    r = run_ctl(inst, ["list", "--json"], sockdir)
    procs = json.loads(r.stdout) if r.returncode == 0 else []
    holders = procs[0].get("holders") if procs else None
    r = run_ctl(inst, ["holders", "1"], sockdir)
    if holders is False:
        check_eq(r.returncode, 1, "holders without holder tracking: exit code")
        check("without holder tracking" in r.stderr, "holders: the message says why")
    else:
        check_eq(r.returncode, 0, "holders with holder tracking: exit code")
    r = run_ctl(inst, ["holders", "99999"], sockdir)
    check_eq(r.returncode, 1, "holders 99999: exit code")
    check(("no such pool 99999" if holders else "without holder tracking") in r.stderr,
          "holders 99999: the message")

    # Two processes: which one?
    t2 = Target(inst, prog, sockdir)
    while t2.readline() != "ready":
        pass
    r = run_ctl(inst, ["dump"], sockdir)
    check_eq(r.returncode, 1, "two processes, no -p: exit code")
    check("pick one with -p" in r.stderr and str(t.pid) in r.stderr and str(t2.pid) in r.stderr,
          "two processes: the message lists both")
    r = run_ctl(inst, ["-p", str(t2.pid), "show", "1"], sockdir)
    check_eq(r.returncode, 0, "two processes, -p picks one")
    r = run_ctl(inst, ["dump", "-a", "--json"], sockdir)
    pids = sorted({p.get("pid") for p in json.loads(r.stdout)}) if r.returncode == 0 else []
    check_eq(pids, sorted([t.pid, t2.pid]), "dump -a --json: both processes' pools")
    check_eq(t2.quit(), 0, "the second target exits clean")

    # Another uid, where we can be one: the socket is opened up to it, so
    # the server's own peer check answers.
    if os.getuid() == 0:
        bindir = tempfile.mkdtemp(prefix="ctl-bin-")
        ctl = os.path.join(bindir, "pagepool-ctl")
        shutil.copy(inst.ctl, ctl)
        for d in (bindir, sockdir):
            os.chmod(d, 0o755)
        os.chmod(os.path.join(sockdir, "%d.sock" % t.pid), 0o777)
        r = subprocess.run(WRAPPER + [ctl, "--dir", sockdir, "-p", str(t.pid), "dump"],
                           capture_output=True, text=True, timeout=30,
                           preexec_fn=lambda: os.setuid(65534))
        print("$ (uid 65534) pagepool-ctl dump -> %d\n  | %s" % (r.returncode, r.stderr))
        check_eq(r.returncode, 1, "another uid: exit code")
        check("permission denied" in r.stderr and "EACCES" in r.stderr,
              "another uid: the message says permission denied")
        os.chmod(sockdir, 0o700)
        os.chmod(os.path.join(sockdir, "%d.sock" % t.pid), 0o600)
        shutil.rmtree(bindir, ignore_errors=True)
    else:
        print("skip: another uid needs root")
    check_eq(t.quit(), 0, "the target exits clean")
    shutil.rmtree(sockdir, ignore_errors=True)
    shutil.rmtree(empty, ignore_errors=True)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    build, src, test = sys.argv[1:4]
    set_page_size(build)
    inst = Installed(build, src)
    try:
        globals()["test_" + test](inst, sys.argv[4:])
    finally:
        inst.cleanup()
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
