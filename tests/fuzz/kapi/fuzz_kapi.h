/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page_pool fuzz harness in its kernel-API form: the same idea as
 * tests/fuzz (a model of every reference the caller holds, the invariant
 * checker after every operation, everything given back and proven home at
 * the end of each input), written against the kernel's page_pool API
 * alone - <net/page_pool/helpers.h>, <net/page_pool/types.h>, netmem - and
 * pagepool's runtime, mm and DMA layers (threads, NAPI, fault injection,
 * DMA-API debug, device unbind, arena accounting). Nothing here reaches
 * into pagepool's core, so the same source runs against pagepool's core
 * (the default build) and against the kernel's own net/core/page_pool.c
 * (kernel core mode, docs/KERNEL_CORE.md), and both must pass the same
 * corpus.
 *
 * Only valid use of the API is fuzzed: the kernel's core does not detect
 * misuse (a double put corrupts it), so there are no misuse operations.
 * Arguments the kernel refuses with an error (page_pool_create() with
 * invalid parameters) are fine, and both cores must give the same error.
 *
 * Input: one configuration byte, then operations, each an opcode byte
 * (taken modulo KZ_OP_NR) and the argument bytes it reads; reads past the
 * end give 0, and the input ends the sequence. The configuration byte:
 *   bit 0     devices in use: 1 or 2 (an IOMMU device, then a direct one,
 *             both with DMA-API debug);
 *   bits 1-2  roles (logical CPUs) 1..3 (3 reads as 3).
 *
 * The operations and their argument bytes (enum kz_op, below; each is
 * described where fuzz_kapi_ops.c implements it):
 *   CREATE    slot mode a b c d   mode bit 0: a valid pool of the kind
 *                                 (mode >> 1) & 3 (plain, DMA map + sync
 *                                 for device, DMA map only, plain with a
 *                                 small ring), bit 4: with a NAPI, bit 5:
 *                                 page_pool_create_percpu() for the
 *                                 creating role's CPU; bit 0
 *                                 clear: parameters the kernel refuses
 *                                 (kind a % 4), which must fail with
 *                                 -EINVAL on both cores;
 *   ALLOC     slot kind size      kind % 4: page_pool_dev_alloc_pages(),
 *                                 page_pool_alloc_netmems(),
 *                                 page_pool_dev_alloc_frag(),
 *                                 page_pool_dev_alloc(); bit 6: sync the
 *                                 buffer for the CPU afterwards;
 *   PUT       item how            how % 4: put_full (not direct), put_full
 *                                 direct, recycle_direct, put_page with a
 *                                 dma_sync_size; bit 7: the netmem call;
 *   BULK      n items...          page_pool_put_page_bulk() of up to n + 1
 *                                 held pages of the first item's pool;
 *   GET_PAGE  item                an extra page reference (get_page());
 *   PUT_PAGE  item                drop one (put_page());
 *   PP_REF    item                an extra page_pool reference
 *                                 (page_pool_ref_netmem());
 *   DESTROY   slot                NAPI off, page_pool_destroy(), pages held
 *                                 stay in flight;
 *   UNBIND    dev                 driver remove: the device's pools are
 *                                 destroyed, then device_release_driver();
 *   REBIND    dev                 pp_device_bind();
 *   FAULT     point mode arg      arm/disarm page allocation, DMA map or
 *                                 kmalloc fault injection;
 *   ROLE      role                the thread becomes another logical CPU;
 *   BH        on                  local_bh_disable() / local_bh_enable();
 *   NAPI_POLL slot n              the next 1..8 operations run inside the
 *                                 pool's real NAPI poll;
 *   RUN_WORK                      the deferred release runs now;
 *   SYNC_CPU  item off len        page_pool_dma_sync_for_cpu();
 *   BURST     slot n how          NAPI-like: allocate n + 1, put them all;
 *   UPDATE_NID slot nid how       page_pool_update_nid() in softirq;
 *   SPLIT     item n              a whole page the model alone holds is
 *                                 split into n % 8 + 2 page_pool references
 *                                 (page_pool_fragment_netmem(), as drivers
 *                                 that carve pages themselves do);
 *   UNREF     item k how          k of a whole page's page_pool references
 *                                 dropped at once (page_pool_unref_netmem());
 *                                 the last ones are followed by
 *                                 page_pool_put_unrefed_netmem().
 *
 * Roles are logical CPUs KZ_CPU_BASE + role. The harness is
 * single-threaded: the thread switches role with pp_thread_unregister() +
 * pp_thread_register(), so a put from another role is a cross-CPU return
 * (the ring, never the consumer's cache). A pool's consumer is the role
 * that created it: allocations happen only there, direct recycling only
 * there in softirq context and never after destroy, as the kernel's
 * contract says.
 */
#ifndef PP_FUZZ_KAPI_H
#define PP_FUZZ_KAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netdevice.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>
#include <pagepool/dma.h>
#include <pagepool/mm.h>
#include <pagepool/runtime.h>

#include "invariants.h"

enum kz_op {
	KZ_OP_CREATE,
	KZ_OP_ALLOC,
	KZ_OP_PUT,
	KZ_OP_BULK,
	KZ_OP_GET_PAGE,
	KZ_OP_PUT_PAGE,
	KZ_OP_PP_REF,
	KZ_OP_DESTROY,
	KZ_OP_UNBIND,
	KZ_OP_REBIND,
	KZ_OP_FAULT,
	KZ_OP_ROLE,
	KZ_OP_BH,
	KZ_OP_NAPI_POLL,
	KZ_OP_RUN_WORK,
	KZ_OP_SYNC_CPU,
	KZ_OP_BURST,
	KZ_OP_UPDATE_NID,
	KZ_OP_SPLIT,
	KZ_OP_UNREF,
	KZ_OP_NR,
};

#define KZ_SLOTS	3	/* pools a driver has at once */
#define KZ_MAX_POOLS	12	/* slots + destroyed pools with pages in flight */
#define KZ_MAX_PAGES	1024	/* netmems the model holds references to */
#define KZ_MAX_OPS	512	/* operations per input */
#define KZ_MAX_DEVS	2
#define KZ_CPU_BASE	100	/* role r is logical CPU KZ_CPU_BASE + r */
#define KZ_ARENA_MB	16	/* two simulated NUMA nodes of 8 MiB */
#define KZ_NR_NODES	2

enum kz_rec_state { KZ_FREE, KZ_ACTIVE, KZ_ZOMBIE };

/*
 * What the stats of a pool must have moved by since they were last read,
 * from what the harness did (fuzz_kapi.c, check_stats()). These are the
 * rules both cores follow, from the kernel's code: every successful
 * allocation counts exactly one of fast, refill, slow, slow_high_order;
 * every last page_pool reference put counts released_refcnt if the page
 * has other references, else cached or cache_full when recycled directly
 * (allow_direct, or napi-local), and every page that is not cached goes
 * to the ring: ring or ring_full (a bulk counts ring_full once per call).
 */
struct kz_expect {
	unsigned long alloc_ok;		/* successful allocation calls */
	unsigned long direct;		/* last puts, recyclable, direct */
	unsigned long to_ring;		/* last puts, recyclable, not direct */
	unsigned long released;		/* last puts with page references */
	unsigned long bulk_to_ring;	/* bulk candidates for the ring */
	unsigned long bulks;		/* bulk calls with such candidates */
};

/* A pool the model knows: active in a slot, or destroyed and waiting for
 * its pages (a zombie). */
struct kz_pool {
	enum kz_rec_state state;
	struct page_pool *pool;
	u32 id;
	int owner;		/* role that consumes it */
	int dev;		/* device index if it DMA-maps, else -1 */
	bool dma_map, sync, napi_on, percpu;
	unsigned int order, offset, max_len;
	long held;		/* distinct netmems the model holds a pp ref on */
	netmem_ref frag_nm;	/* the pool's current fragment page, or 0 */
	unsigned int frag_end;	/* where its last fragment handed out ends */
	struct napi_struct napi;
	struct page_pool_stats base;	/* stats when last checked */
	struct kz_expect exp;		/* moves expected since then */
};

/* A netmem the model holds references to. */
struct kz_page {
	netmem_ref nm;
	int rec;		/* pool record (valid while refs > 0) */
	int refs;		/* page_pool references held */
	int page_refs;		/* extra page references (get_page) */
	bool frag;		/* handed out as a fragment */
	unsigned int offset, len;	/* the last buffer handed out in it */
	dma_addr_t dma;		/* its DMA address while held */
	u64 tag;		/* written at the start of a whole page held */
};

struct kz_totals {
	unsigned long inputs, ops, allocs, alloc_null, returns, bulk_returns;
	unsigned long creates, create_errors, bad_creates, destroys, destroyed_inflight;
	unsigned long unbinds, rebinds, late_returns, polls, role_switches;
	unsigned long faults_armed, skipped, syncs, stats_checks, released_refcnt;
	unsigned long cross_cpu_returns, direct_returns, splits;
};

struct kz_state {
	bool ready;
	struct device *devs[KZ_MAX_DEVS];
	struct ppinv inv;
	struct kz_totals t;

	const uint8_t *data;
	size_t size, pos;
	unsigned long nops;
	int nr_devs, nr_roles, role, bh;
	bool bound[KZ_MAX_DEVS];
	int poll_rec;			/* record whose NAPI poll is running, or -1 */
	int poll_left;
	unsigned int armed;		/* bit per fault point */
	bool faulted;			/* a fault was armed in this input */
	struct kz_pool pools[KZ_MAX_POOLS];
	int slot[KZ_SLOTS];		/* record index or -1 */
	struct kz_page pages[KZ_MAX_PAGES];
	int nr_pages;
};

extern struct kz_state kz;

static inline bool kz_more(void)
{
	return kz.pos < kz.size;
}

static inline uint8_t kz_u8(void)
{
	return kz.pos < kz.size ? kz.data[kz.pos++] : 0;
}

#define KZ_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define KZ_PICK(a, b)	((a)[(b) % KZ_LEN(a)])

/* fuzz_kapi.c: set-up, the model, the checks */
void kz_fail(enum ppinv_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool kz_in_softirq(void);
bool kz_can_direct(const struct kz_pool *r);
bool kz_napi_local(int ri);
struct kz_pool *kz_slot_rec(uint8_t b, int *ri);
struct kz_page *kz_pick(uint8_t b);
void kz_take(int ri, netmem_ref nm, bool frag, unsigned int offset, unsigned int len);
void kz_put_ref(struct kz_page *e, bool direct);
void kz_put_ref_bulk(struct kz_page *e, bool direct);
void kz_drop_page_ref(struct kz_page *e);
void kz_frag_retire(int ri);
void kz_destroy_rec(int ri);
void kz_settle_zombies(void);
void kz_run_release(void);
void kz_check_all(void);
unsigned long kz_faults_injected(void);

/* fuzz_kapi_ops.c: the operations' table */
void kz_run_op(bool in_poll);

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void kz_print_summary(const char *label);
/* The replay's name for the input that runs next (stats readings carry
 * it). */
void kz_set_input_name(const char *name);
/* Compare every stats reading with those recorded in @path (the format of
 * PP_FUZZ_KAPI_STATS; fuzz_kapi.c). 0, or -1 if it cannot be read. */
int kz_stats_expect(const char *path);
/* Readings of the seeds in @path replace the recorded ones: declared
 * differences of the core under test (fuzz_kapi.c). */
int kz_stats_declare(const char *path);
void kz_stats_expect_done(void);
/* Label of the summary printed at exit ("fuzz-kapi"). */
void kz_set_summary_label(const char *label);

#endif
