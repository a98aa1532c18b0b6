/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page_pool fuzz harness: its input format, its model of what the
 * caller holds, and the split between fuzz_model.c (set-up, the model, the
 * per-step invariant checks, teardown), fuzz_ops.c (the operations' table;
 * the operations by concern in fuzz_ops_*.c, fuzz_misuse.c and fuzz_xdp.c,
 * listed there).
 *
 * Input: one configuration byte, then operations, each an opcode byte
 * (taken modulo FZ_OP_NR) and the argument bytes it reads; reads past the
 * end give 0, and the input ends the sequence. The configuration byte:
 *   bit 0     devices in use: 1 or 2 (full target: IOMMU, then direct,
 *             both with DMA-API debug; fast target: direct, then direct
 *             with DMA-API debug - see below);
 *   bits 1-2  roles (logical CPUs) 1..3 (value 3 reads as 3);
 *   bit 3     ring design of the pools created: lanes or ptr_ring;
 *   bits 4-5  DMA tracking of the pools created: index (0, 3), items (1),
 *             or off (2) - no tracking, so a pool destroyed with pages in
 *             flight still unmaps them after its device's driver is gone
 *             (the unbind crash the tracking fixes): violations the
 *             checker then expects (invariants.h);
 *   bit 6     XDP return path: the page's pool (direct) or the mem-id
 *             lookup (when built with the XDP layer).
 * A memory-provider device (full: IOMMU, debug; fast: direct) and a region provider bound to
 * RX queue 0 of a registered net_device, both made once at start-up, serve
 * memory-provider pools; that device is never unbound.
 *
 * Roles are logical CPUs FZ_CPU_BASE + role. The fuzzer is single-threaded:
 * the calling thread switches role with pp_thread_unregister() +
 * pp_thread_register(), and softirq context is varied with
 * local_bh_disable()/enable() and by running operations inside a real NAPI
 * poll (FZ_OP_NAPI_POLL runs the next 1..8 operations from the pool's poll
 * callback). A pool's consumer is the role that created it: allocations
 * and direct recycling happen only there, direct recycling only in softirq
 * context and never after destroy, as the kernel's contract says.
 */
#ifndef PP_FUZZ_H
#define PP_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netdevice.h>
#include <net/page_pool/memory_provider.h>
#include <net/page_pool/types.h>
#include <pagepool.h>

#include "invariants.h"

#ifdef PP_FUZZ_HAVE_XDP
#include <net/xdp.h>
#include <pagepool/xdp.h>
#endif

enum fz_op {
	FZ_OP_CREATE,		/* slot mode a b c d: create with any parameters */
	FZ_OP_ALLOC,		/* slot kind size: page/netmem/frag/size-based/va */
	FZ_OP_PUT,		/* item how direct size: one page_pool reference back */
	FZ_OP_BULK,		/* n items...: page_pool_put_netmem_bulk(), mixed pools */
	FZ_OP_GET_PAGE,		/* item: an extra page reference (get_page) */
	FZ_OP_PUT_PAGE,		/* item: drop an extra page reference */
	FZ_OP_PP_REF,		/* item: an extra page_pool reference */
	FZ_OP_TO_STACK,		/* item: hand one reference to "the stack" */
	FZ_OP_STACK_RETURN,	/* n: the stack frees its oldest n references */
	FZ_OP_DESTROY,		/* slot: destroy (pages may be in flight) */
	FZ_OP_UNBIND,		/* dev: driver remove - destroy its pools, unbind */
	FZ_OP_REBIND,		/* dev: bind the driver again */
	FZ_OP_UPDATE_NID,	/* slot nid how: page_pool_update_nid / nid_changed */
	FZ_OP_FAULT,		/* point mode arg: arm or disarm fault injection */
	FZ_OP_ROLE,		/* role: switch the calling thread's logical CPU */
	FZ_OP_BH,		/* on: local_bh_disable() / local_bh_enable() */
	FZ_OP_NAPI_POLL,	/* slot n: run the next n ops inside the pool's NAPI poll */
	FZ_OP_BURST,		/* slot n direct: NAPI-like alloc n, recycle n */
	FZ_OP_RUN_WORK,		/* run the deferred-release work now */
	FZ_OP_DOUBLE_PUT,	/* item: misuse - put a whole page twice */
	FZ_OP_WRONG_POOL,	/* item slot: misuse - put naming another pool */
	FZ_OP_STRAY_PUT,	/* slot bulk: misuse - put a page no pool owns */
	FZ_OP_ALLOC_DESTROYED,	/* pick: misuse - allocate from a destroyed pool */
	FZ_OP_DESTROY_AGAIN,	/* pick: misuse - destroy a destroyed pool again */
	FZ_OP_XDP,		/* what arg how: XDP register / unregister / return
				 * a frame / return mode; misuse: a stale frame,
				 * the mem model registered twice, a frame twice
				 * in one bulk (when built with XDP) */
	/* Misuse the hardening checks for (fuzz_misuse.c), appended so older
	 * inputs keep their meaning. */
	FZ_OP_BULK_DUP,		/* item how: the same page twice in one bulk */
	FZ_OP_ALLOC_ZERO,	/* slot how: size-0 va/frag allocations */
	FZ_OP_ABA,		/* slot how: stale put after the page changed pools */
	FZ_OP_MP_PAGE_ALLOC,	/* slot how: page/va allocation on a provider pool */
	FZ_OP_FRAG_OVERPUT,	/* item how: one put more than fragments held */
	FZ_OP_DEV_GONE,		/* slot how: pp_device_destroy() under a live pool */
	FZ_OP_BAD_ARGS,		/* what: NULL/NaN arguments to the pp_* API */
	FZ_OP_NR,
};

#define FZ_SLOTS	3	/* pools a driver has at once */
#define FZ_MAX_POOLS	16	/* slots + destroyed pools with pages in flight */
#define FZ_MAX_PAGES	2048	/* netmems the model holds references to */
#define FZ_STACK	256	/* references "the stack" holds */
#define FZ_MAX_OPS	1024	/* operations per input */
#define FZ_MAX_DEVS	2
#define FZ_DEV_MP	FZ_MAX_DEVS	/* index of the memory-provider device */
#define FZ_CPU_BASE	200	/* role r is logical CPU FZ_CPU_BASE + r */
#define FZ_MP_NIOVS	192	/* buffers of the region provider */

/*
 * The two targets, one source (meson builds it twice):
 *   fuzz_pagepool (the full target): a 16 MiB arena on two simulated NUMA
 *     nodes, an IOMMU device and a direct one, both with DMA-API debug,
 *     the provider on an IOMMU device with debug, pool sizes up to 65536;
 *   fuzz_pool (PP_FUZZ_FAST, the fast target, for the pool and XDP paths):
 *     an 8 MiB arena on one node (two blocks of the largest order, the
 *     allocator's unit: one is the region provider's, one serves the
 *     pools; the end-of-input walk covers 2048 struct pages, not 4096,
 *     and the pools run dry sooner, a path worth fuzzing), device 0 direct without DMA-API debug (the
 *     cheap backend: a map is an address computation), device 1 - in
 *     inputs that ask for two - direct with DMA-API debug (so the DMA
 *     checks still run on part of the pools), the provider on a direct
 *     device without debug, and small pool sizes (rings of at most 256, so
 *     creating and emptying one is cheap). The input format is the same:
 *     one corpus serves both.
 */
#ifdef PP_FUZZ_FAST
#define FZ_ARENA_MB	8	/* one node, two MAX_PAGE_ORDER blocks */
#define FZ_NR_NODES	1
#else
#define FZ_ARENA_MB	16	/* two simulated NUMA nodes of 8 MiB */
#define FZ_NR_NODES	2
#endif

enum fz_rec_state { REC_FREE, REC_ACTIVE, REC_ZOMBIE };

/* A pool the model knows: active in a slot, or destroyed and waiting for
 * its pages (a zombie). */
struct fz_pool {
	enum fz_rec_state state;
	struct page_pool *pool;
	u32 id;
	int owner;		/* role that consumes it */
	int dev;		/* device index if it DMA-maps, else -1 */
	bool dma_map, mp, napi_on;
	bool track_off;		/* created with DMA tracking off */
	bool orphan;		/* its device was destroyed under it
				 * (FZ_OP_DEV_GONE): no more allocations */
	bool exact;		/* zombie with nothing parked: inflight == held */
	unsigned int order;
	long held;		/* distinct netmems the model holds a pp ref on */
	bool xdp_reg;		/* an XDP memory model holds a user reference */
	struct napi_struct napi;
#ifdef PP_FUZZ_HAVE_XDP
	struct xdp_rxq_info rxq;
#endif
};

/* A netmem the model holds references to. */
struct fz_page {
	netmem_ref nm;
	int rec;		/* pool record (valid while refs > 0) */
	int refs;		/* page_pool references held */
	int stack_refs;		/* of which "the stack" holds */
	int page_refs;		/* extra page references (get_page) */
	bool whole;		/* handed out as a whole page, never a fragment */
};

struct fz_totals {
	unsigned long inputs, ops, allocs, alloc_null, returns, bulk_returns;
	unsigned long creates, create_errors, destroys, destroyed_inflight;
	unsigned long unbinds, rebinds, late_returns, polls, role_switches;
	unsigned long misuse, faults_armed, skipped;
	unsigned long xdp_regs, xdp_frames;
	unsigned long misuse_ops[FZ_OP_NR];	/* declared misuse, per op */
};

struct fz_state {
	/* Set up once. */
	bool ready;
	struct device *devs[FZ_MAX_DEVS + 1];	/* + the memory-provider device */
	struct net_device *netdev;
	struct pp_region_provider *rp;
	struct pp_memory_provider_params mpp;
	struct ppinv inv;
	struct fz_totals t;
	int default_tracking;		/* the library's, restored per input */
	int default_xdp_mode;		/* likewise, the XDP return path */
	unsigned long misuse_at_begin;	/* fz.t.misuse when the input began */

	/* Per input. */
	const uint8_t *data;
	size_t size, pos;
	unsigned long nops;
	int nr_devs, nr_roles, role, bh;
	int tracking;			/* enum pp_dma_tracking of new pools */
	bool bound[FZ_MAX_DEVS];
	bool in_poll;
	int poll_left;
	unsigned int armed;		/* bit per fault point */
	struct fz_pool pools[FZ_MAX_POOLS];
	int slot[FZ_SLOTS];		/* record index or -1 */
	struct fz_page pages[FZ_MAX_PAGES];
	int nr_pages;
	netmem_ref stack[FZ_STACK];
	int stack_head, stack_len;
};

extern struct fz_state fz;

/* The model's own bookkeeping (lookups, the per-operation checks) needs no
 * coverage feedback: its comparisons traced by libFuzzer were a tenth of
 * an input's time, and say nothing about the library. */
#if defined(__clang__) && __clang_major__ >= 13
#define FZ_NO_COVERAGE	__attribute__((no_sanitize("coverage")))
#else
#define FZ_NO_COVERAGE
#endif

/*
 * The misuse the hardening checks for (hostile or careless use from
 * outside), each a declared misuse operation whose report the checker
 * requires. Each needs its fix in the library; a kind whose
 * fix is not in the tree being fuzzed is switched off (the operation
 * consumes its arguments and is skipped), so the corpus replay stays a
 * regression test on every tree. FZ_MISUSE_LANDED names the kinds on;
 * PP_FUZZ_MISUSE=all (or a hex mask) in the environment overrides it, to
 * show a kind failing on a tree without its fix.
 */
enum fz_misuse {
	FZ_MU_STALE_XDP,	/* stale frame after its pool and mem id are gone */
	FZ_MU_DEV_GONE,		/* pp_device_destroy() under live pools */
	FZ_MU_BULK_DUP,		/* a page twice in one page_pool bulk */
	FZ_MU_XDP_BULK_DUP,	/* a frame twice in one xdp_frame_bulk */
	FZ_MU_ALLOC_ZERO,	/* size-0 va/frag allocations */
	FZ_MU_ABA,		/* stale put after the page changed pools */
	FZ_MU_MP_PAGE,		/* page/va allocation on a provider pool */
	FZ_MU_REG_TWICE,	/* xdp_rxq_info_reg_mem_model() twice */
	FZ_MU_FRAG_OVERPUT,	/* a fragment put once more than held */
	FZ_MU_BAD_ARGS,		/* NULL arguments to the pp_* introspection */
	FZ_MU_BAD_FAULT,	/* NaN/negative/>1 fault probability */
	FZ_MU_NR,
};

#ifndef FZ_MISUSE_LANDED
#define FZ_MISUSE_LANDED	((1u << FZ_MU_NR) - 1)	/* all: every fix is in the tree */
#endif

bool fz_misuse_on(enum fz_misuse kind);

/* Input. */
static inline bool fz_more(void)
{
	return fz.pos < fz.size;
}

static inline uint8_t fz_u8(void)
{
	return fz.pos < fz.size ? fz.data[fz.pos++] : 0;
}

/* fuzz_model.c */
extern int fz_verbose;
void fz_dump_state(void);
void fz_fail(enum ppinv_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool fz_in_softirq(void);
bool fz_can_direct(const struct fz_pool *r);
struct fz_pool *fz_slot_rec(uint8_t b, int *ri);
struct fz_page *fz_find(netmem_ref nm);
struct fz_page *fz_pick_free_ref(uint8_t b);
void fz_take(int ri, netmem_ref nm, bool whole);
void fz_drop_ref(struct fz_page *e);
void fz_drop_page_ref(struct fz_page *e);
void fz_after_put(int ri);
void fz_destroy_rec(int ri);
void fz_settle_zombies(void);
void fz_run_release(void);
void fz_xdp_unreg(int ri);
void fz_check_all(void);
bool fz_mp_ensure(void);
unsigned long fz_faults_injected(void);

/* An argument byte picks one of a table's values. */
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define PICK(a, b)	((a)[(b) % ARRAY_LEN(a)])

/* fuzz_ops.c: the operations' table, and what the operations share */
void fz_run_op(bool in_poll);
struct fz_cause {
	unsigned long faults, alloc_failed, map_errors;
};
void fz_cause_snap(struct fz_cause *c, const struct fz_pool *r);
bool fz_had_cause(const struct fz_cause *before, const struct fz_pool *r);
void fz_null_needs_cause(const struct fz_cause *before, const struct fz_pool *r,
			 const char *what);
int fz_free_rec(void);
/* fuzz_ops_pool.c: pool life-cycle and devices */
void fz_op_create(bool in_poll);
void fz_op_destroy(bool in_poll);
void fz_op_unbind(bool in_poll);
void fz_op_rebind(void);
void fz_op_update_nid(void);
/* fuzz_ops_page.c: allocation and the put calls */
void fz_op_alloc(void);
void fz_op_put(void);
void fz_op_bulk(void);
void fz_op_burst(void);
/* fuzz_ops_refs.c: extra references, the stack's */
void fz_op_get_page(void);
void fz_op_put_page(void);
void fz_op_pp_ref(void);
void fz_op_to_stack(void);
void fz_op_stack_return(void);
/* fuzz_ops_context.c: role, bh, NAPI poll, deferred work, faults */
void fz_op_fault(void);
void fz_op_role(bool in_poll);
void fz_op_bh(bool in_poll);
void fz_op_napi_poll(bool in_poll);
void fz_op_run_work(bool in_poll);
int fz_napi_poll(struct napi_struct *napi, int budget);
/* fuzz_ops_misuse.c: the mistakes page_pool has always caught */
void fz_op_double_put(void);
void fz_op_wrong_pool(void);
void fz_op_stray_put(void);
void fz_op_alloc_destroyed(void);
void fz_op_destroy_again(void);
/* fuzz_misuse.c: the misuse the hardening checks for */
void fz_op_bulk_dup(void);
void fz_op_alloc_zero(void);
void fz_op_aba(bool in_poll);
void fz_op_mp_page_alloc(void);
void fz_op_frag_overput(void);
void fz_op_dev_gone(bool in_poll);
void fz_op_bad_args(void);
/* fuzz_xdp.c */
void fz_op_xdp(bool in_poll);

/* The entry points (libFuzzer's, also used by the replay driver). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fz_print_summary(const char *label);
/* Label of the summary printed at exit ("fuzz"). */
extern const char *fz_summary_label;

#endif
