#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Write the kernel-API fuzz harness's seed corpus (tests/fuzz/corpus-kapi).

Each seed is a short scenario in the harness's input format (fuzz_kapi.h):
a configuration byte, then operations. The opcodes are read from enum
kz_op in fuzz_kapi.h, so the seeds follow the harness if operations are
appended. Inputs a fuzzing run found (found-*) are kept beside the seeds.
Run from anywhere:  tests/fuzz/kapi/gen_corpus.py   (rewrites the seeds)

The replay compares every page_pool_get_stats() reading with the kernel
core's, recorded in corpus-kapi.stats; after changing the seeds record it
again from a kernel core build (make kernel-test builds one in build-kcore)
and a default build (lanes), for the seeds of LANES_DIFFER:
  tests/fuzz/kapi/gen_corpus.py --stats build-kcore build
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "corpus-kapi")


def opcodes():
    text = open(os.path.join(HERE, "fuzz_kapi.h")).read()
    start = text.index("enum kz_op {")
    body = text[start:text.index("KZ_OP_NR,", start)]
    names = re.findall(r"^\s*KZ_OP_(\w+),", body, re.M)
    return {n: i for i, n in enumerate(names)}


OP = opcodes()

# Configuration byte.
TWO_DEVS, ROLES2, ROLES3 = 0x01, 0x02, 0x04

# CREATE mode: bit 0 valid, bits 1-2 kind, 0x10 NAPI.
PLAIN, DMA_SYNC, DMA_ONLY, SMALL = 0x01, 0x03, 0x05, 0x07
NAPI, PERCPU = 0x10, 0x20
BAD = 0x00

# ALLOC kinds; | SYNC_CPU syncs the buffer for the CPU.
PAGES, NETMEMS, FRAG, SIZED = 0, 1, 2, 3
SYNC_CPU = 0x40

# PUT how: 0 put_full, 1 put_full direct, 2 recycle_direct, 3 put_page
# with a dma_sync_size (how >> 2); | NETMEM the netmem call.
FULL, FULL_DIRECT, RECYCLE_DIRECT, PUT_SYNC = 0, 1, 2, 3
NETMEM = 0x80

# Fault points and modes.
F_PAGE, F_DMA, F_KMALLOC = 0, 1, 2
F_OFF, F_NTH, F_PROB, F_NEXT, F_SKIP = 0, 1, 2, 3, 4


def op(name, *args):
    return [OP[name]] + list(args)


def create(slot, mode, a=0, b=0, c=0, d=0):
    """a: order / device / bad kind; b: direction and order; c: offset,
    max_len, nid (c >> 6); d: pool_size index."""
    return op("CREATE", slot, mode, a, b, c, d)


def alloc(slot, kind=PAGES, size=0):
    return op("ALLOC", slot, kind, size)


def put(item=0, how=FULL):
    return op("PUT", item, how)


def bulk(items):
    return op("BULK", len(items) - 1, *items)


def fault(point, mode, arg=0):
    return op("FAULT", point, mode, arg)


def napi_poll(slot, ops):
    """The next len(ops) operations run inside the pool's NAPI poll."""
    flat = op("NAPI_POLL", slot, len(ops) - 1)
    for o in ops:
        flat += o
    return flat


def seq(cfg, *ops):
    out = [cfg]
    for o in ops:
        out += o
    return bytes(out)


def allocs(slot, n, kind=PAGES):
    return [alloc(slot, kind, i) for i in range(n)]


def puts(n, how=FULL):
    return [put(0, how) for _ in range(n)]


SEEDS = {}

# Each pool kind: allocate each way, recycle directly in softirq, the rest
# through the ring.
for name, mode, a, b in (("plain", PLAIN, 0, 0), ("plain-order1", PLAIN, 1, 0),
                         ("dma-sync", DMA_SYNC, 0, 0), ("dma-sync-bidir-order1", DMA_SYNC, 1, 3),
                         ("dma-only", DMA_ONLY, 0, 0), ("small-ring", SMALL, 2, 0)):
    for cfg, tag in ((0, ""), (TWO_DEVS, "-dev1")):
        SEEDS[f"kind-{name}{tag}"] = seq(
            cfg, create(0, mode, a | (1 if tag else 0), b), *allocs(0, 4, PAGES),
            *allocs(0, 2, NETMEMS), op("BH", 1), *puts(3, FULL_DIRECT),
            put(0, RECYCLE_DIRECT | NETMEM), op("BH", 0), *puts(2))

# Invalid parameters: each rule page_pool_init() enforces.
SEEDS["create-invalid"] = seq(0, *[create(kind % 3, BAD, kind, 0, c) for kind in range(4)
                                   for c in range(2)])

# Fragments: several per page, pages retired by a fragment that does not
# fit, put while current and after; size-based allocation.
SEEDS["frags"] = seq(0, create(0, PLAIN), *[alloc(0, FRAG, s) for s in (3, 3, 4, 3, 5, 6)],
                     *puts(6))
SEEDS["frags-order2-dma"] = seq(0, create(0, DMA_SYNC, 0, 4, 1),
                                *[alloc(0, FRAG | SYNC_CPU, s) for s in range(9)],
                                put(1), put(3), alloc(0, FRAG, 7), *puts(8))
SEEDS["sized"] = seq(0, create(0, DMA_SYNC), *[alloc(0, SIZED, s) for s in range(9)],
                     *[alloc(0, SIZED, s) for s in (1, 1, 2, 4)], *puts(13, PUT_SYNC | 0x0c))
SEEDS["frag-refs"] = seq(0, create(0, PLAIN), *allocs(0, 3, FRAG), op("PP_REF", 0),
                         op("GET_PAGE", 1), alloc(0, FRAG, 8), *puts(3), op("PUT_PAGE", 0),
                         *puts(2))

# Extra references: page references make the last put release, pp
# references delay it.
SEEDS["extra-refs"] = seq(0, create(0, DMA_SYNC), *allocs(0, 4), op("GET_PAGE", 0),
                          op("PP_REF", 1), put(0), put(1), put(1), op("PUT_PAGE", 0),
                          *puts(3))
SEEDS["released-direct"] = seq(0, create(0, PLAIN), *allocs(0, 3), op("GET_PAGE", 0),
                               op("GET_PAGE", 1), op("BH", 1), *puts(3, FULL_DIRECT),
                               op("BH", 0), op("PUT_PAGE", 0), op("PUT_PAGE", 0))

# NAPI: operations inside the pool's own poll recycle napi-locally.
SEEDS["napi-poll"] = seq(0, create(0, DMA_SYNC | NAPI),
                         napi_poll(0, [alloc(0), alloc(0), alloc(0, FRAG, 2), put(0),
                                       put(0, FULL_DIRECT)]),
                         napi_poll(0, [op("BURST", 0, 40, 1), put(0), bulk([0, 1])]))
SEEDS["napi-two-pools"] = seq(0, create(0, PLAIN | NAPI), create(1, DMA_ONLY | NAPI),
                              *allocs(0, 3), *allocs(1, 3),
                              napi_poll(1, [put(0), put(0), put(0), put(0)]),
                              napi_poll(0, [put(0), put(0, FULL_DIRECT)]))

# A per-CPU pool recycles directly in softirq on its CPU, through the
# ring from another CPU or in process context.
SEEDS["percpu"] = seq(ROLES2, create(0, DMA_SYNC | PERCPU), *allocs(0, 8), op("BH", 1),
                      *puts(3), bulk([0, 1]), op("BH", 0), put(0), op("ROLE", 1),
                      op("BH", 1), *puts(2), op("BH", 0), op("ROLE", 0), op("BH", 1),
                      op("BURST", 0, 20, 0), op("BH", 0))

# Bursts: the cache fills (cache_full), the ring fills (ring_full).
SEEDS["bursts"] = seq(0, create(0, DMA_SYNC, 0, 0, 0, 2), op("BH", 1),
                      op("BURST", 0, 63, 1), op("BURST", 0, 63, 1), op("BURST", 0, 63, 0),
                      op("BH", 0), *allocs(0, 20), *puts(20))
SEEDS["cache-full"] = seq(0, create(0, PLAIN, 0, 0, 0, 3),
                          *[op("BURST", 0, 63, 0) for _ in range(3)],
                          *[alloc(0) for _ in range(140)], op("BH", 1),
                          *puts(140, FULL_DIRECT), op("BH", 0))

# Bulk returns, in and out of the NAPI poll.
SEEDS["bulk"] = seq(0, create(0, DMA_SYNC), create(1, PLAIN), *allocs(0, 6), *allocs(1, 6),
                    bulk(range(12)), bulk(range(6)), *puts(2))
SEEDS["bulk-small-ring"] = seq(0, create(0, SMALL, 1), *allocs(0, 10), bulk(range(10)))

# Destroy with pages in flight; late returns; the deferred release.
SEEDS["destroy-inflight"] = seq(0, create(0, DMA_SYNC), *allocs(0, 8), op("DESTROY", 0),
                                *puts(4), op("RUN_WORK"), *puts(4))
SEEDS["destroy-frags-inflight"] = seq(0, create(0, DMA_SYNC, 0, 2), *allocs(0, 5, FRAG),
                                      op("DESTROY", 0), *puts(5))
SEEDS["destroy-refs-inflight"] = seq(0, create(0, DMA_ONLY), *allocs(0, 4), op("GET_PAGE", 0),
                                     op("PP_REF", 1), op("DESTROY", 0), *puts(5),
                                     op("PUT_PAGE", 0))

# Driver unbind after destroy, pages returned after the unbind, rebind.
for cfg, tag in ((0, "iommu"), (TWO_DEVS, "2dev")):
    SEEDS[f"unbind-{tag}"] = seq(cfg, create(0, DMA_SYNC), create(1, DMA_ONLY, 1),
                                 *allocs(0, 5), *allocs(1, 5, FRAG), op("UNBIND", 0),
                                 *puts(3), op("REBIND", 0), create(2, DMA_SYNC),
                                 *allocs(2, 3), op("UNBIND", 1), *puts(10), op("REBIND", 1))

# Roles: cross-CPU returns (always the ring), the consumer's own.
SEEDS["roles"] = seq(ROLES3, create(0, DMA_SYNC), *allocs(0, 6), op("ROLE", 1), *puts(3),
                     op("ROLE", 2), op("BH", 1), *puts(2, FULL_DIRECT), op("BH", 0),
                     op("ROLE", 0), *puts(1), create(1, PLAIN | NAPI), op("ROLE", 1),
                     op("NAPI_POLL", 1, 0), alloc(1), op("ROLE", 1))
SEEDS["roles-napi"] = seq(ROLES2, op("ROLE", 1), create(0, DMA_SYNC | NAPI), *allocs(0, 4),
                          op("ROLE", 0), *puts(2), op("ROLE", 1),
                          napi_poll(0, [alloc(0), put(0), put(0), put(0)]))

# A driver splits whole pages into references itself, drains them at
# once or one by one.
SEEDS["split-unref"] = seq(0, create(0, DMA_SYNC), *allocs(0, 4), op("SPLIT", 0, 2),
                           op("SPLIT", 1, 6), op("UNREF", 0, 1, 0), put(0), put(0),
                           op("UNREF", 1, 255, 0), op("BH", 1), op("UNREF", 0, 7, 1),
                           op("BH", 0), op("PP_REF", 0), op("UNREF", 0, 0, 0), *puts(4))
SEEDS["split-napi"] = seq(0, create(0, PLAIN | NAPI), *allocs(0, 3),
                          napi_poll(0, [op("SPLIT", 0, 3), op("UNREF", 0, 2, 0), put(0),
                                        op("UNREF", 0, 255, 1), put(0), put(0)]))

# NUMA node changes.
SEEDS["update-nid"] = seq(0, create(0, PLAIN, 0, 0, 0x40), *allocs(0, 4), *puts(4),
                          op("UPDATE_NID", 0, 2, 0), *allocs(0, 4), *puts(4),
                          op("UPDATE_NID", 0, 0, 1), *allocs(0, 70), *puts(70))

# DMA sync for the CPU on mapped pages, whole and fragments.
SEEDS["sync-cpu"] = seq(0, create(0, DMA_SYNC, 0, 2, 1), *allocs(0, 3),
                        *allocs(0, 3, FRAG), *[op("SYNC_CPU", i, i * 37, 200 - i) for i in range(6)],
                        *puts(6, PUT_SYNC | 0x08))

# Fault injection: page allocation, DMA map, kmalloc (pool creation).
SEEDS["fault-page"] = seq(0, create(0, DMA_SYNC), fault(F_PAGE, F_NEXT, 3), *allocs(0, 4),
                          fault(F_PAGE, F_NTH, 3), *allocs(0, 70), fault(F_PAGE, F_OFF),
                          *puts(70))
SEEDS["fault-dma"] = seq(0, create(0, DMA_SYNC), fault(F_DMA, F_PROB, 100), *allocs(0, 80),
                         fault(F_DMA, F_OFF), *puts(80))
SEEDS["fault-kmalloc"] = seq(0, fault(F_KMALLOC, F_NEXT, 1), create(0, DMA_SYNC),
                             create(1, PLAIN), fault(F_KMALLOC, F_SKIP, 5), create(2, DMA_ONLY),
                             *allocs(1, 3), *allocs(2, 3), fault(F_KMALLOC, F_OFF), *puts(6))

# The kernel's ptr_ring clears consumed slots 16 at a time: after a refill
# that took 20 pages, slots 16-19 are not cleared yet, so the 61st put
# finds the ring full (tests/kernel-api/stats_sequences.c). With lanes,
# pagepool's default ring design, each returning CPU has a ring of its
# own: a second CPU's lane has no uncleared slots, and with credits left
# (60 of 64 in use) it takes pages the kernel's ring refuses.
SEEDS["lanes-ring-full-two-cpus"] = seq(ROLES2, create(0, PLAIN, 0, 0, 0, 4), *allocs(0, 84),
                                        *puts(20), *allocs(0, 45), *puts(60), op("ROLE", 1),
                                        *puts(4), op("ROLE", 0))

# A lane smaller than the ring (pool_size 1024: lanes of 256) spills into
# the shared ring, and a refill takes the lane's pages and the shared ring's
# in another order than the kernel's one ring: a refill that prefers one
# NUMA node (after page_pool_update_nid()) meets the other node's page at
# another point (waive). An input libFuzzer found, kept whole (its
# readings on lanes and on the kernel's core first differ at operation
# 134; with pool_size 256 they never do).
SEEDS["lanes-spill-numa-refill"] = bytes.fromhex(
    "00000001000040000100002b01000001010000020100000302000002000002000002000011000200"
    "01000000480000010100000201000003020000020000020000020000110000010100000001000001"
    "00220100000000030000000001000000010000012700000201000003120002120114000001000200"
    "000200001301ff000c01131300070100000003000000020c0110003f0110103d010d000301000004"
    "01000005010000060100000701000008010000090100000a020000020000020000020c0006001300"
    "00000200001100000101000000010000010022010000000003000000000100000001000001270000"
    "0201000003120002120114000001000200000200001301ff000c0113130007010c00060013000000"
    "0200000200000200000200007070707070700007010c000600130000000200000200000200000200"
    "00707070707070d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d9d8d8d8d8d8d8d8d8"
    "d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d870707070707000020000"
    "02000002000002000200000200000200000200007070707070700007010c00060013000000020000"
    "020000020000020000707070707070d8d8d8000000020000020000ff05d8d8d8d8d8d8d8d8d8d8d8"
    "d8d8d8d8d8d8d8d8d8d8d80002000002d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8000002"
    "0000d8d8d8d8d8d8d8d8d8d8d8d8d81100000101000000010000010022010000020000020000")

# Seeds whose stats are declared to differ from the kernel's on
# pagepool's lanes design: the replay there compares them with the lanes'
# own readings (corpus-kapi.stats-lanes), and fails if they no longer
# differ. Each says why.
LANES_DIFFER = {
    "lanes-ring-full-two-cpus": "a second returning CPU's lane has no slots the consumer "
                                "has yet to clear: 3 puts counted ring where the kernel "
                                "counts ring_full",
    "lanes-spill-numa-refill": "a lane smaller than the ring spills into the shared ring, "
                               "and a refill takes their pages in another order than the "
                               "kernel's ring: a NUMA refill stops at another page "
                               "(fast 630 slow 8 waive 10 where the kernel counts 631, 7, 9)",
}

# A longer mix of everything.
SEEDS["mix"] = seq(ROLES2 | TWO_DEVS, create(0, DMA_SYNC | NAPI, 0, 0, 2, 4),
                   create(1, DMA_ONLY, 1, 2), create(2, PLAIN, 1),
                   *allocs(0, 5), *allocs(1, 4, FRAG), *allocs(2, 3, SIZED),
                   napi_poll(0, [alloc(0), put(0), bulk([0, 1, 2]), op("BURST", 0, 10, 1)]),
                   op("GET_PAGE", 2), op("PP_REF", 3), op("ROLE", 1), *puts(3),
                   op("ROLE", 0), op("DESTROY", 1), fault(F_PAGE, F_PROB, 20),
                   *allocs(2, 10, FRAG), fault(F_PAGE, F_OFF), op("UNBIND", 0),
                   *puts(6), op("REBIND", 0), op("RUN_WORK"), *puts(4))


def replay_stats(build, out):
    """Every stats reading of the corpus's seeds on @build (fuzz_kapi.c)."""
    exe = os.path.join(build, "tests", "fuzz", "kapi", "fuzz_kapi_replay")
    env = dict(os.environ, PP_FUZZ_KAPI_STATS=out)
    env.pop("PAGEPOOL_RING", None)
    subprocess.run([exe, OUT], env=env, check=True, stdout=subprocess.DEVNULL)


def record_stats(kcore_build, lanes_build=None):
    """The kernel core's readings (corpus-kapi.stats) and, from a build of
    pagepool's core with lanes, the declared seeds' (corpus-kapi.stats-lanes)."""
    out = os.path.join(HERE, "corpus-kapi.stats")
    replay_stats(kcore_build, out)
    print(f"stats of {os.path.relpath(OUT)} recorded in {os.path.relpath(out)}")
    if not lanes_build:
        return
    tmp = out + ".tmp"
    replay_stats(lanes_build, tmp)
    with open(tmp) as f, open(out + "-lanes", "w") as w:
        for line in f:
            if line.split(" ", 1)[0] in LANES_DIFFER:
                w.write(line)
    os.unlink(tmp)
    print(f"lanes readings of {', '.join(sorted(LANES_DIFFER))} in {os.path.relpath(out)}-lanes")


def main():
    if len(sys.argv) in (3, 4) and sys.argv[1] == "--stats":
        record_stats(*sys.argv[2:])
        return
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if not f.startswith("found-"):
            os.unlink(os.path.join(OUT, f))
    for name, data in sorted(SEEDS.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"{len(SEEDS)} seeds in {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
