#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Write the fuzz harness's seed corpus (tests/fuzz/corpus) and dictionary.

Each seed is a short scenario in the harness's input format (fuzz.h): a
configuration byte, then operations. Inputs fuzzing found (found-*) are
kept in corpus/ beside the seeds. The opcodes are read from enum fz_op in
fuzz.h, so the seeds follow the harness if operations are added. Run from
anywhere:  tests/fuzz/gen_corpus.py   (rewrites corpus/ and pagepool.dict)
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def opcodes():
    text = open(os.path.join(HERE, "fuzz.h")).read()
    start = text.index("enum fz_op {")
    body = text[start:text.index("FZ_OP_NR,", start)]
    names = re.findall(r"^\s*FZ_OP_(\w+),", body, re.M)
    return {n: i for i, n in enumerate(names)}


OP = opcodes()

# Configuration byte (fuzz.h).
TWO_DEVS, ROLES2, ROLES3, PTR_RING = 0x01, 0x02, 0x04, 0x08
TRACK_ITEMS, TRACK_OFF = 0x10, 0x20
XDP_LOOKUP = 0x40

# CREATE mode byte: bit 0 template, bits 1-2 kind, 0x10 NAPI, 0x20 per-CPU.
PLAIN, DMA_SYNC, DMA_ONLY, MP = 0x01, 0x03, 0x05, 0x07
NAPI, PERCPU = 0x10, 0x20


def create(slot, mode, a=0, b=0, c=0, d=6):
    return [OP["CREATE"], slot, mode, a, b, c, d]


def alloc(slot, kind=2, size=0):
    """kind: 0 pages, 1 dev pages, 2 netmems, 3 frag, 4 size-based, 5 va;
    | 0x40 sync for CPU, | 0x80 GFP_KERNEL. size: index into the sizes."""
    return [OP["ALLOC"], slot, kind, size]


def put(item, how=0, direct=False):
    return [OP["PUT"], item, how | (0x80 if direct else 0)]


def bulk(items):
    return [OP["BULK"], len(items) - 1] + list(items)


def op(name, *args):
    return [OP[name]] + list(args)


def burst(slot, n, how=0):
    return [OP["BURST"], slot, n, how]


def fault(point, mode, arg=0):
    """point: 0 page alloc, 1 DMA map, 2 MP alloc, 3 tracking, 4 kmalloc;
    mode: 0 off, 1 every Nth, 2 probability, 3 next N, 4 every Nth after skip."""
    return [OP["FAULT"], point, mode, arg]


def xdp(what, arg=0, how=0):
    """what: 0 register slot arg, 1 unregister, 2 return a held page as a
    frame (how: 0 frame, 1 rx_napi, 2 bulk, 3 buff), 3 return mode."""
    return [OP["XDP"], what, arg, how]


def napi_poll(slot, ops):
    """The next len(ops) operations run inside the pool's NAPI poll."""
    flat = [OP["NAPI_POLL"], slot, len(ops) - 1]
    for o in ops:
        flat += o
    return flat


def seq(cfg, *ops):
    out = [cfg]
    for o in ops:
        out += o
    return bytes(out)


def allocs(slot, n, kind=2):
    return [alloc(slot, kind, i % 10) for i in range(n)]


def puts(n, direct=False, how=0):
    return [put(0, how, direct) for _ in range(n)]


SEEDS = {}

# Each pool kind: allocate, recycle directly in softirq, return the rest.
for name, mode in (("plain", PLAIN), ("dma-sync", DMA_SYNC), ("dma-only", DMA_ONLY),
                   ("mp", MP), ("plain-napi", PLAIN | NAPI), ("dma-percpu", DMA_SYNC | PERCPU)):
    for cfg, tag in ((0, ""), (PTR_RING | TWO_DEVS, "-ptr_ring"), (TRACK_ITEMS, "-items")):
        SEEDS[f"kind-{name}{tag}"] = seq(cfg, create(0, mode), *allocs(0, 6),
                                         op("BH", 1), *puts(3, True), op("BH", 0), *puts(3))

# Higher orders, fragments, size-based and va allocations.
SEEDS["order2-frags"] = seq(0, create(0, DMA_SYNC, 0, 4), *allocs(0, 10, 3), *puts(10))
SEEDS["frag-sizes"] = seq(0, create(0, PLAIN), *[alloc(0, k, s) for k in (3, 4, 5)
                                                for s in range(10)], *puts(30, how=4))
SEEDS["frag-too-big"] = seq(0, create(0, PLAIN), alloc(0, 3, 0x87), alloc(0, 3, 0x80))

# NAPI: operations inside the poll use napi-local recycling.
SEEDS["napi-poll"] = seq(0, create(0, DMA_SYNC | NAPI),
                         napi_poll(0, [alloc(0), alloc(0), alloc(0), put(0), put(0, 2, True)]),
                         napi_poll(0, [burst(0, 100, 1), put(0)]))
SEEDS["bursts"] = seq(PTR_RING, create(0, DMA_SYNC, 0, 0, 0, 1), op("BH", 1), burst(0, 200, 1),
                      burst(0, 255, 0), burst(0, 255, 2), burst(0, 255, 4), op("BH", 0))
SEEDS["small-ring"] = seq(0, create(0, DMA_SYNC, 0, 0, 0, 1), *allocs(0, 40), *puts(40))

# Destroy with pages in flight; returns after destroy; deferred release.
SEEDS["destroy-inflight"] = seq(0, create(0, DMA_SYNC), *allocs(0, 8), op("DESTROY", 0),
                                *puts(4), op("RUN_WORK"), *puts(4))
SEEDS["destroy-stack"] = seq(0, create(0, DMA_SYNC), *allocs(0, 4), *[op("TO_STACK", i)
                                                                      for i in range(4)],
                             op("DESTROY", 0), op("STACK_RETURN", 7))
SEEDS["destroy-frag-inflight"] = seq(0, create(0, PLAIN), *allocs(0, 5, 3), op("DESTROY", 0),
                                     *puts(5))

# Driver unbind with pages in flight, each tracking design, then rebind.
for cfg, tag in ((0, "index"), (TRACK_ITEMS, "items"), (TRACK_OFF, "off"),
                 (TWO_DEVS, "index-2dev")):
    SEEDS[f"unbind-{tag}"] = seq(cfg, create(0, DMA_SYNC), create(1, DMA_ONLY, 1),
                                 *allocs(0, 5), *allocs(1, 5), op("UNBIND", 0),
                                 *puts(3), op("REBIND", 0), create(2, DMA_SYNC),
                                 *allocs(2, 3), *puts(10))

# Bulk returns over mixed pools, extra references, the stack.
SEEDS["bulk-mixed"] = seq(0, create(0, DMA_SYNC), create(1, PLAIN), create(2, MP),
                          *allocs(0, 4), *allocs(1, 4), *allocs(2, 4),
                          bulk(range(12)))
SEEDS["extra-refs"] = seq(0, create(0, DMA_SYNC), *allocs(0, 4), op("GET_PAGE", 0),
                          op("PP_REF", 1), put(0), put(1), put(1), op("PUT_PAGE", 0),
                          *puts(3))
SEEDS["frag-page-ref"] = seq(0, create(0, PLAIN), *allocs(0, 3, 3), op("GET_PAGE", 0),
                             *puts(3), alloc(0, 3, 6), op("PUT_PAGE", 0), put(0))

# Roles (logical CPUs): cross-CPU returns into lanes, per-CPU pools.
SEEDS["roles-lanes"] = seq(ROLES3, create(0, DMA_SYNC), *allocs(0, 6), op("ROLE", 1),
                           *puts(3), op("ROLE", 2), *puts(3), op("ROLE", 0), *allocs(0, 6))
SEEDS["roles-percpu"] = seq(ROLES2, create(0, PLAIN | PERCPU), *allocs(0, 4), op("BH", 1),
                            *puts(2), op("BH", 0), op("ROLE", 1), op("BH", 1), *puts(2))

# NUMA: move the pool between the two nodes.
SEEDS["update-nid"] = seq(0, create(0, DMA_SYNC, 0, 0, 0x40), *allocs(0, 4), *puts(4),
                          op("UPDATE_NID", 0, 2, 0), *allocs(0, 4), op("UPDATE_NID", 0, 0, 1),
                          *puts(4))

# Fault injection at each point, each rule, during allocations.
for point in range(5):
    for mode in (1, 2, 3, 4):
        kind = MP if point == 2 else DMA_SYNC
        SEEDS[f"fault-{point}-{mode}"] = seq(0, create(0, kind), fault(point, mode, 7),
                                             *allocs(0, 8), burst(0, 150), fault(point, 0),
                                             *allocs(0, 4), *puts(12))
SEEDS["fault-create"] = seq(0, fault(4, 3, 1), create(0, DMA_SYNC), create(0, DMA_SYNC),
                            *allocs(0, 2))

# Misuse: each must be reported and lose nothing.
SEEDS["misuse-double-put"] = seq(0, create(0, DMA_SYNC), *allocs(0, 2),
                                 op("DOUBLE_PUT", 0, 0), op("DOUBLE_PUT", 0, 1))
SEEDS["misuse-wrong-pool"] = seq(0, create(0, DMA_SYNC), create(1, PLAIN), *allocs(0, 2),
                                 op("WRONG_POOL", 0, 1), op("WRONG_POOL", 0, 1))
SEEDS["misuse-stray"] = seq(0, create(0, PLAIN), op("STRAY_PUT", 0, 0), op("STRAY_PUT", 0, 1))
SEEDS["misuse-after-destroy"] = seq(0, create(0, DMA_SYNC), *allocs(0, 2), op("DESTROY", 0),
                                    op("ALLOC_DESTROYED", 0), op("DESTROY_AGAIN", 0),
                                    *puts(2))

# Invalid parameters (raw mode): bad flags, direction, order, device, queue.
SEEDS["create-invalid"] = seq(0, create(0, 0, 0x1f), create(0, 0, 0x01, 1),
                              create(0, 0, 0x03, 2, 0), create(0, 0, 0x00, 0, 12),
                              create(0, 0, 0x08, 0, 0x10, 0x40), create(0, 0, 0x0b, 0x0e, 0x10),
                              create(0, 0, 0x01, 2, 11))

# XDP: register a pool as an RX queue's memory model, return frames by
# each call and each return path, destroy and unregister in both orders.
for cfg, tag in ((0, "direct"), (XDP_LOOKUP, "lookup")):
    SEEDS[f"xdp-{tag}"] = seq(cfg, create(0, DMA_SYNC | NAPI), xdp(0, 0), *allocs(0, 6),
                              xdp(2, 0, 0), xdp(2, 1, 2), op("BH", 1), xdp(2, 2, 1),
                              xdp(2, 3, 3), op("BH", 0), op("DESTROY", 0), xdp(2, 0, 0),
                              xdp(1, 0), *puts(2))
SEEDS["xdp-napi"] = seq(0, create(0, DMA_SYNC | NAPI), xdp(0, 0), *allocs(0, 4),
                        napi_poll(0, [xdp(2, 0, 1), xdp(2, 1, 3), alloc(0), xdp(2, 2, 2)]),
                        xdp(1, 0), op("DESTROY", 0), *puts(2))
SEEDS["xdp-unbind"] = seq(0, create(0, DMA_SYNC), xdp(0, 0), *allocs(0, 4), op("UNBIND", 0),
                          *puts(4), op("REBIND", 0))

# Misuse the hardening checks for (fuzz_misuse.c, fuzz_xdp.c): each must be reported
# and lose nothing.
SEEDS["misuse-bulk-dup"] = seq(0, create(0, DMA_SYNC), create(1, PLAIN), *allocs(0, 4),
                               *allocs(1, 3), op("BULK_DUP", 0, 0x20), op("BULK_DUP", 1, 0x44),
                               op("BULK_DUP", 2, 0x21), op("BH", 1), op("BULK_DUP", 0, 0x23),
                               op("BH", 0), *puts(3))
SEEDS["misuse-alloc-zero"] = seq(0, create(0, PLAIN), op("ALLOC_ZERO", 0, 0),
                                 op("ALLOC_ZERO", 0, 4), op("ALLOC_ZERO", 0, 1),
                                 op("ALLOC_ZERO", 0, 3), op("ALLOC_ZERO", 0, 5),
                                 op("ALLOC_ZERO", 0, 7), *puts(8, how=4))
SEEDS["misuse-alloc-zero-order1"] = seq(0, create(0, DMA_SYNC, 0, 2), op("ALLOC_ZERO", 0, 3),
                                        op("ALLOC_ZERO", 0, 5), *puts(4))
SEEDS["misuse-aba"] = seq(0, create(0, PLAIN), *allocs(0, 2), op("ABA", 0, 1),
                          op("ABA", 0, 0), *puts(3))
SEEDS["misuse-aba-dma"] = seq(TWO_DEVS, create(0, DMA_SYNC, 1), op("ABA", 0, 1), *puts(1))
SEEDS["misuse-wrong-pool-kept"] = seq(0, create(0, DMA_SYNC), create(1, PLAIN), *allocs(0, 2),
                                      op("WRONG_POOL", 0, 1), put(0), put(0))
SEEDS["misuse-mp-page-alloc"] = seq(0, create(0, MP), alloc(0), op("MP_PAGE_ALLOC", 0, 0),
                                    op("MP_PAGE_ALLOC", 0, 4), op("MP_PAGE_ALLOC", 0, 5),
                                    *puts(1))
SEEDS["misuse-frag-overput"] = seq(0, create(0, PLAIN), *allocs(0, 3, 3),
                                   op("FRAG_OVERPUT", 0, 0), *allocs(0, 4, 3),
                                   op("FRAG_OVERPUT", 1, 0), *puts(4))
SEEDS["misuse-frag-overput-drained"] = seq(0, create(0, PLAIN), alloc(0, 3, 5), alloc(0, 3, 5),
                                           alloc(0, 3, 5), op("FRAG_OVERPUT", 0, 0), *puts(2))
for cfg, tag in ((0, "index"), (TRACK_ITEMS, "items"), (TRACK_OFF, "off")):
    SEEDS[f"misuse-dev-gone-{tag}"] = seq(cfg, op("DEV_GONE", 0, 0x30), op("DEV_GONE", 1, 0x47),
                                          op("BH", 1), put(0, 0, True), op("BH", 0), put(1),
                                          op("DESTROY", 0), put(0), op("RUN_WORK"), *puts(4))
SEEDS["misuse-dev-gone-debug"] = seq(0, op("DEV_GONE", 0, 0x73), op("TO_STACK", 0),
                                     op("STACK_RETURN", 0), op("DESTROY", 0), *puts(8))
SEEDS["misuse-bad-args"] = seq(0, create(0, PLAIN), *[op("BAD_ARGS", w) for w in
                                                      (0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 13)])
for cfg, tag in ((0, "direct"), (XDP_LOOKUP, "lookup")):
    SEEDS[f"misuse-xdp-{tag}"] = seq(cfg, create(0, DMA_SYNC | NAPI), create(1, PLAIN),
                                     xdp(0, 0), *allocs(0, 4), *[xdp(4, 0, h) for h in
                                                                  (0, 1, 2, 8, 9, 10, 4, 5, 6)],
                                     xdp(5, 0, 0x80), xdp(5, 0, 1), xdp(6, 0), op("BH", 1),
                                     xdp(6, 1), xdp(4, 0, 2), op("BH", 0), xdp(1, 0), *puts(4))

DICT = {
    "xdp_reg": xdp(0, 0),
    "xdp_unreg": xdp(1, 0),
    "xdp_frame": xdp(2, 0, 0),
    "create_dma_sync": create(0, DMA_SYNC),
    "create_mp": create(0, MP),
    "create_napi": create(0, DMA_SYNC | NAPI),
    "alloc_netmem": alloc(0),
    "alloc_frag": alloc(0, 3, 4),
    "put_direct": put(0, 0, True),
    "destroy": op("DESTROY", 0),
    "unbind": op("UNBIND", 0),
    "rebind": op("REBIND", 0),
    "bh_on": op("BH", 1),
    "bh_off": op("BH", 0),
    "burst": burst(0, 100, 1),
    "run_work": op("RUN_WORK"),
    "to_stack": op("TO_STACK", 0),
    "stack_return": op("STACK_RETURN", 7),
    "fault_page_next": fault(0, 3, 5),
    "fault_dma_nth": fault(1, 1, 3),
    "fault_off": fault(0, 0),
    "double_put": op("DOUBLE_PUT", 0, 0),
    "bulk_dup": op("BULK_DUP", 0, 0),
    "alloc_zero_fill": op("ALLOC_ZERO", 0, 5),
    "aba": op("ABA", 0, 1),
    "mp_page_alloc": op("MP_PAGE_ALLOC", 0, 0),
    "frag_overput": op("FRAG_OVERPUT", 0, 0),
    "dev_gone": op("DEV_GONE", 0, 0x30),
    "bad_args": op("BAD_ARGS", 0),
    "xdp_stale": xdp(4, 0, 0),
    "xdp_reg_twice": xdp(5, 0, 0),
    "xdp_bulk_dup": xdp(6, 0),
}


def main():
    out = os.path.join(HERE, "corpus")
    os.makedirs(out, exist_ok=True)
    # Seeds are rewritten; inputs that fuzzing found (found-*: failures
    # since fixed, kept as regression inputs) stay.
    for f in os.listdir(out):
        if f.startswith("seed-"):
            os.unlink(os.path.join(out, f))
    for name, data in sorted(SEEDS.items()):
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(data)
    with open(os.path.join(HERE, "pagepool.dict"), "w") as f:
        f.write("# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause\n"
                "# libFuzzer dictionary for fuzz_pagepool and fuzz_pool: whole operations in the\n"
                "# harness's input format (fuzz.h). Generated by gen_corpus.py.\n")
        for name, ops in sorted(DICT.items()):
            f.write('%s="%s"\n' % (name, "".join("\\x%02x" % b for b in ops)))
    print(f"{len(SEEDS)} seeds in {out}, {len(DICT)} dictionary entries", file=sys.stderr)


if __name__ == "__main__":
    main()
