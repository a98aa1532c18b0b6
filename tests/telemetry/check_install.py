#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# The telemetry server as a user meets it: install the build into a scratch
# DESTDIR, build tests/telemetry/observed.c against it with pkg-config
# alone, run it with PAGEPOOL_TELEMETRY=1 and PAGEPOOL_TELEMETRY_DIR, and
# ask its socket from this process: page-pool-get (dump and by id),
# page-pool-stats-get and process-get must say what the program's own C
# calls said, garbage gets EINVAL on a connection that stays; when the
# program exits (without calling pp_telemetry_stop()) its socket is gone.
# Usage: check_install.py BUILD_DIR SOURCE_DIR
import json
import os
import shlex
import socket
import stat
import subprocess
import sys
import tempfile
import time

build, src = sys.argv[1], sys.argv[2]


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def call(f, req):
    f.write((json.dumps(req) + "\n").encode())
    f.flush()
    line = f.readline()
    if not line:
        fail("no reply to %s" % req)
    return json.loads(line)


# A cross build (tests/meson.build's test setup): the target's compiler,
# and the program runs through the exe wrapper (qemu-user, which keeps the
# pid: the socket is still named after prog.pid).
CC = os.environ.get("PAGEPOOL_CROSS_CC", "cc").split()
WRAPPER = os.environ.get("PAGEPOOL_EXE_WRAPPER", "").split()
# The comm the server reports is /proc/self/comm: under qemu-user the
# emulator's (qemu does not emulate comm), as the kernel gives it.
COMM = (os.path.basename(WRAPPER[0]) if WRAPPER else "observed")[:15]

with tempfile.TemporaryDirectory() as dest:
    subprocess.run(["meson", "install", "-C", build, "--destdir", dest, "--no-rebuild",
                    "--quiet"], check=True, stdout=subprocess.DEVNULL)
    pcs = [os.path.join(d, f) for d, _, fs in os.walk(dest) for f in fs if f == "pagepool.pc"]
    if not pcs:
        fail("pagepool.pc was not installed")
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pcs[0]))
    pkg = lambda *a: subprocess.run(["pkg-config"] + list(a), env=env, check=True,
                                    capture_output=True, text=True).stdout.strip()
    prefix = pkg("--variable=prefix", "pagepool")
    flags = pkg("--define-variable=prefix=" + dest + prefix, "--cflags", "--libs", "pagepool")
    libdir = pkg("--define-variable=prefix=" + dest + prefix, "--variable=libdir", "pagepool")
    exe = os.path.join(dest, "observed")
    subprocess.run(CC + ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-o", exe,
                    os.path.join(src, "tests/telemetry/observed.c")] + shlex.split(flags),
                   check=True)

    sockdir = os.path.join(dest, "sockets")
    run_env = dict(os.environ, LD_LIBRARY_PATH=libdir, PAGEPOOL_TELEMETRY="1",
                   PAGEPOOL_TELEMETRY_DIR=sockdir)
    prog = subprocess.Popen(WRAPPER + [exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=run_env)
    first = prog.stdout.readline().decode().split()
    if not first:
        fail("observed printed nothing (exit %s)" % prog.wait())
    want = {k: int(v) for k, v in (kv.split("=") for kv in first)}
    path = os.path.join(sockdir, "%d.sock" % prog.pid)
    st = os.stat(path)
    if not stat.S_ISSOCK(st.st_mode) or st.st_mode & 0o777 != 0o600:
        fail("%s: mode %o" % (path, st.st_mode))
    if os.stat(sockdir).st_mode & 0o777 != 0o700:
        fail("%s is not 0700" % sockdir)

    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(path)
    f = s.makefile("rwb")
    r = call(f, {"op": "page-pool-get", "seq": 1})
    if r.get("seq") != 1 or len(r["reply"]) != 1:
        fail("dump: %s" % r)
    pool = r["reply"][0]
    expect = {"id": want["id"], "inflight": want["inflight"],
              "inflight-mem": want["inflight-mem"]}
    if pool != expect:
        fail("page-pool-get %s, the program's C API said %s" % (pool, expect))
    r = call(f, {"op": "page-pool-get", "id": want["id"]})
    if r["reply"] != expect:
        fail("page-pool-get by id: %s" % r)
    r = call(f, {"op": "page-pool-stats-get", "info": {"id": want["id"]}})
    if "error" in r:
        if r["error"]["errno"] != 95:
            fail("page-pool-stats-get: %s" % r)
    else:
        got = r["reply"]
        for k in ("alloc-slow", "alloc-fast", "recycle-ring"):
            if got[k] != want[k]:
                fail("page-pool-stats-get %s=%s, the program said %s" % (k, got[k], want[k]))
    r = call(f, {"op": "process-get"})
    if r["reply"]["pid"] != prog.pid or r["reply"]["comm"] != COMM:
        fail("process-get: %s" % r)
    f.write(b"not json\n")
    f.flush()
    r = json.loads(f.readline())
    if r.get("error", {}).get("name") != "EINVAL":
        fail("garbage: %s" % r)
    r = call(f, {"op": "page-pool-get", "id": want["id"] + 1000})
    if r.get("error", {}).get("name") != "ENOENT":
        fail("no such pool: %s" % r)
    s.close()

    prog.stdin.write(b"\n")
    prog.stdin.close()
    if prog.wait(timeout=30) != 0:
        fail("observed exited %d" % prog.returncode)
    if os.path.exists(path):
        fail("%s left behind after exit" % path)
    print("telemetry from outside the process: page-pool-get %s; OK" % json.dumps(pool))
