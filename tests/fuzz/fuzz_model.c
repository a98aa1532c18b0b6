/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page_pool fuzz harness, part one: the arena and devices set up once,
 * the model of every reference the harness holds (so each page can be
 * accounted for), the invariant checks run after every operation, and the
 * per-input teardown that gives everything back and proves it is all home.
 * The operations' table is in fuzz_ops.c; the input format in fuzz.h.
 *
 * After every operation (fz_check_all()):
 *   - WARNs, misuse counters and the page allocator's bad-free counters
 *     moved only by the misuse the operation declared; no DMA-API violation
 *     on any device (violations after an unbind with pages in flight are
 *     gated, see invariants.h);
 *   - every live pool: 0 <= hold - release, >= the pages the model holds,
 *     == them for a destroyed pool with nothing parked in its ring, and
 *     introspection agrees;
 *   - every netmem the model holds a page_pool reference on is still a
 *     page_pool netmem of its pool with pp_ref_count > 0 and the page
 *     references the model took;
 *   - a destroyed pool whose last page came home is freed.
 * At the end of each input everything is returned and destroyed, and
 * ppinv_check_idle() proves the arena whole, no page marked page_pool, no
 * pool listed, no mapping live, the provider's buffers all home.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/device.h>
#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <net/page_pool/helpers.h>

#include "fuzz.h"

struct fz_state fz;
#ifdef PP_FUZZ_FAST
static unsigned long arena_total;	/* the arena's pages (check_home()) */
#endif

/* The library's messages: kept (the last LOG_LINES) for a failure report,
 * never printed otherwise - violations that are expected would flood the
 * fuzzer's output. PP_FUZZ_VERBOSE=1 prints them as they come. */
#define LOG_LINES	48
#define LOG_LEN		240
static char log_ring[LOG_LINES][LOG_LEN];
static unsigned int log_next;
static bool log_verbose;
int fz_verbose;		/* PP_FUZZ_VERBOSE: 1 messages, 2 operations, 3 the model after each */

/* The library prints from its own threads too (the RCU callback thread
 * frees a pool whose last device reference then goes, with a message). */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static int fz_print(int level, const char *fmt, va_list ap)
{
	char *line;

	(void)level;
	pthread_mutex_lock(&log_lock);
	line = log_ring[log_next++ % LOG_LINES];
	vsnprintf(line, LOG_LEN, fmt, ap);
	if (log_verbose)
		fputs(line, stderr);
	pthread_mutex_unlock(&log_lock);
	return 0;
}

void fz_dump_state(void)
{
	unsigned int i, start;
	int r;

	fprintf(stderr, "--- fuzz model: role %d, bh %d, in_poll %d, %d netmem(s) held, stack %d, faults armed %#x, op %lu at byte %zu of %zu\n",
		fz.role, fz.bh, fz.in_poll, fz.nr_pages, fz.stack_len, fz.armed, fz.nops,
		fz.pos, fz.size);
	for (r = 0; r < FZ_MAX_POOLS; r++) {
		const struct fz_pool *p = &fz.pools[r];

		if (p->state == REC_FREE)
			continue;
		fprintf(stderr, "  pool rec %d id %u %s owner %d dev %d dma %d mp %d napi %d xdp %d order %u held %ld\n",
			r, p->id, p->state == REC_ACTIVE ? "active" : "destroyed", p->owner,
			p->dev, p->dma_map, p->mp, p->napi_on, p->xdp_reg, p->order, p->held);
	}
	fprintf(stderr, "--- last library messages:\n");
	pthread_mutex_lock(&log_lock);
	start = log_next > LOG_LINES ? log_next - LOG_LINES : 0;
	for (i = start; i < log_next; i++)
		fprintf(stderr, "  %s", log_ring[i % LOG_LINES]);
	pthread_mutex_unlock(&log_lock);
}

static void on_failure(struct ppinv *c, enum ppinv_kind kind, const char *msg)
{
	(void)c;
	(void)kind;
	(void)msg;
	fz_dump_state();
	abort();	/* libFuzzer saves the input as crash-<sha1> */
}

void fz_fail(enum ppinv_kind kind, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ppinv_fail(&fz.inv, kind, "%s", msg);
}

static unsigned int misuse_mask = FZ_MISUSE_LANDED;

bool fz_misuse_on(enum fz_misuse kind)
{
	return misuse_mask & (1u << kind);
}

static void misuse_from_env(void)
{
	const char *v = getenv("PP_FUZZ_MISUSE");

	if (!v || !*v)
		return;
	misuse_mask = !strcmp(v, "all") ? (1u << FZ_MU_NR) - 1 : (unsigned int)strtoul(v, NULL, 16);
}

unsigned long fz_faults_injected(void)
{
	unsigned long n = 0;
	int p;

	for (p = 0; p < PP_FAULT_NR; p++)
		n += pp_fault_count((enum pp_fault_point)p);
	return n;
}

/* Model. */

bool fz_in_softirq(void)
{
	return fz.bh > 0 || fz.in_poll;
}

/* Direct recycling is the consumer's privilege: its role, in softirq
 * context, and never once the pool is destroyed. */
bool fz_can_direct(const struct fz_pool *r)
{
	return r->state == REC_ACTIVE && r->owner == fz.role && fz_in_softirq();
}

struct fz_pool *fz_slot_rec(uint8_t b, int *ri)
{
	int s = fz.slot[b % FZ_SLOTS];

	if (s < 0)
		return NULL;
	if (ri)
		*ri = s;
	return &fz.pools[s];
}

FZ_NO_COVERAGE struct fz_page *fz_find(netmem_ref nm)
{
	int i;

	for (i = 0; i < fz.nr_pages; i++)
		if (fz.pages[i].nm == nm)
			return &fz.pages[i];
	return NULL;
}

/* The @b-th held netmem (cyclically) with a reference not in the stack. */
FZ_NO_COVERAGE struct fz_page *fz_pick_free_ref(uint8_t b)
{
	int i, n = fz.nr_pages;

	for (i = 0; i < n; i++) {
		struct fz_page *e = &fz.pages[(b + i) % n];

		if (e->refs > e->stack_refs)
			return e;
	}
	return NULL;
}

/* The pool handed @nm out to the model (whole, or as a fragment). */
void fz_take(int ri, netmem_ref nm, bool whole)
{
	struct fz_pool *r = &fz.pools[ri];
	struct fz_page *e = fz_find(nm);

	if (e) {
		/* Only the pool's current fragment page may come out again. */
		if (whole || r->pool->frag_page != nm || (e->refs && e->rec != ri))
			fz_fail(PPINV_HELD_PAGE,
				"pool %u handed out netmem %#lx (%s) that the model still holds (%d pp refs, %d page refs, pool rec %d)",
				r->id, (unsigned long)nm, whole ? "whole" : "fragment", e->refs,
				e->page_refs, e->rec);
		if (!e->refs) {
			e->rec = ri;
			r->held++;
		}
		e->refs++;
		e->whole = false;
		return;
	}
	if (fz.nr_pages == FZ_MAX_PAGES) {
		/* Cannot track more: give it straight back (never happens
		 * with FZ_MAX_OPS operations, kept for safety). */
		page_pool_put_full_netmem(r->pool, nm, false);
		return;
	}
	e = &fz.pages[fz.nr_pages++];
	memset(e, 0, sizeof(*e));
	e->nm = nm;
	e->rec = ri;
	e->refs = 1;
	e->whole = whole;
	r->held++;
}

static void forget(struct fz_page *e)
{
	*e = fz.pages[--fz.nr_pages];
}

/* The model gave one page_pool reference of @e back (the caller made the
 * call). A destroyed pool may park the page in its ring until the release
 * work runs: its inflight is no longer exact. */
void fz_drop_ref(struct fz_page *e)
{
	struct fz_pool *r = &fz.pools[e->rec];

	fz.t.returns++;
	if (r->state == REC_ZOMBIE) {
		r->exact = false;
		fz.t.late_returns++;
	}
	if (--e->refs == 0)
		r->held--;
	if (!e->refs && !e->page_refs)
		forget(e);
}

void fz_drop_page_ref(struct fz_page *e)
{
	put_page(netmem_to_page(e->nm));
	e->page_refs--;
	if (!e->refs && !e->page_refs)
		forget(e);
}

/* Devices of pools still alive (active or destroyed). */
FZ_NO_COVERAGE static bool dev_in_use(int d)
{
	int r;

	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state != REC_FREE && fz.pools[r].dma_map && fz.pools[r].dev == d)
			return true;
	return false;
}

/* A record's pool is gone: the record is free, and a device that was
 * unbound with pages in flight is settled once no pool of its uses it. */
static void rec_gone(int ri)
{
	struct fz_pool *r = &fz.pools[ri];
	int d = r->dma_map ? r->dev : -1;

	ppinv_check_pool_gone(&fz.inv, r->id);
	r->state = REC_FREE;
	r->pool = NULL;
	if (d >= 0 && !dev_in_use(d) && ppinv_device_tainted(&fz.inv, fz.devs[d]))
		ppinv_device_settled(&fz.inv, fz.devs[d]);
}

/* Destroyed pools whose last page came home must be freed by the
 * deferred release: run it and check. Not in softirq context (the work
 * waits for a grace period). */
void fz_settle_zombies(void)
{
	bool run = false;
	int r;

	if (fz_in_softirq())
		return;
	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state == REC_ZOMBIE && !fz.pools[r].held && !fz.pools[r].xdp_reg)
			run = true;
	if (run)
		fz_run_release();
}

/* Run the deferred release now (an operation's own pools need it, or the
 * model's zombies): whatever destroyed pool of the model's it freed is
 * gone from the model too. Caller MUST NOT be in softirq context. */
void fz_run_release(void)
{
	int r;

	pp_workqueue_run_all();
	for (r = 0; r < FZ_MAX_POOLS; r++) {
		if (fz.pools[r].state != REC_ZOMBIE || fz.pools[r].xdp_reg)
			continue;
		fz.pools[r].exact = true;	/* the ring was emptied */
		if (!fz.pools[r].held)
			rec_gone(r);
	}
}

/* The pool's XDP memory model goes (rxq unregistration drops the pool's
 * user reference). If the driver destroyed the pool already, this was the
 * last user: the destroy happens now. Caller MUST NOT be in softirq. */
void fz_xdp_unreg(int ri)
{
	struct fz_pool *r = &fz.pools[ri];

#ifdef PP_FUZZ_HAVE_XDP
	xdp_rxq_info_unreg(&r->rxq);
#endif
	r->xdp_reg = false;
	if (r->state != REC_ZOMBIE)
		return;
	r->exact = true;
	if (!r->held)
		rec_gone(ri);
	else
		fz.t.destroyed_inflight++;
}

void fz_after_put(int ri)
{
	(void)ri;
	fz_settle_zombies();
}

/* The driver's teardown of one pool: stop NAPI, destroy. Pages the model
 * holds stay in flight. Caller MUST NOT be in softirq context. */
void fz_destroy_rec(int ri)
{
	struct fz_pool *r = &fz.pools[ri];
	int s;

	for (s = 0; s < FZ_SLOTS; s++)
		if (fz.slot[s] == ri)
			fz.slot[s] = -1;
	if (r->napi_on)
		napi_disable(&r->napi);
	page_pool_destroy(r->pool);
	if (r->napi_on) {
		netif_napi_del(&r->napi);
		r->napi_on = false;
	}
	fz.t.destroys++;
	r->state = REC_ZOMBIE;
	if (r->xdp_reg) {
		/* XDP still holds a user reference: the pool lives on,
		 * unscrubbed, until fz_xdp_unreg(). */
		r->exact = false;
		return;
	}
	r->exact = true;
	if (!r->held) {
		/* Nothing in flight: freed at once. */
		rec_gone(ri);
		return;
	}
	fz.t.destroyed_inflight++;
}

FZ_NO_COVERAGE void fz_check_all(void)
{
	int r, i;

	ppinv_check_step(&fz.inv);
	for (r = 0; r < FZ_MAX_POOLS; r++) {
		const struct fz_pool *p = &fz.pools[r];

		if (p->state == REC_FREE)
			continue;
		ppinv_check_pool(&fz.inv, p->pool, p->held,
				 p->state == REC_ZOMBIE && p->exact && !p->xdp_reg);
	}
	for (i = 0; i < fz.nr_pages; i++) {
		const struct fz_page *e = &fz.pages[i];

		if (e->refs)
			ppinv_check_held(&fz.inv, e->nm, fz.pools[e->rec].pool, e->page_refs);
		else if (netmem_ref_count(e->nm) < e->page_refs)
			fz_fail(PPINV_HELD_PAGE, "page %#lx: refcount %d below the %d the model holds",
				(unsigned long)e->nm, netmem_ref_count(e->nm), e->page_refs);
	}
}

/* The region provider serving memory-provider pools: made once at
 * start-up (its chunks are kept - one, of 256 pages - and their mappings
 * are live on the provider device: both declared resident to the checker,
 * as measured, not assumed), bound to RX queue 0; every input must leave
 * all its buffers home. */
bool fz_mp_ensure(void)
{
	return fz.rp != NULL;
}

static void mp_check_home(void)
{
	unsigned int nfree = pp_region_provider_free(fz.rp);

	if (nfree != FZ_MP_NIOVS)
		fz_fail(PPINV_PAGE_LEAKED, "region provider: %u of %u net_iovs home",
			nfree, FZ_MP_NIOVS);
}

static void mp_setup(void)
{
	struct pp_mem_stats before, after;
	struct pp_dma_stats dma0, dma1;

	pp_mem_get_stats(&before);
	pp_dma_get_stats(fz.devs[FZ_DEV_MP], &dma0);
	fz.rp = pp_region_provider_create(fz.devs[FZ_DEV_MP], FZ_MP_NIOVS);
	if (IS_ERR(fz.rp))
		abort();
	pp_region_provider_params(fz.rp, &fz.mpp);
	if (net_mp_open_rxq(fz.netdev, 0, &fz.mpp))
		abort();
	pp_mem_get_stats(&after);
	pp_dma_get_stats(fz.devs[FZ_DEV_MP], &dma1);
	fz.inv.resident_pages = before.free_pages - after.free_pages;
	if (dma1.live_mappings <= dma0.live_mappings)
		abort();
	ppinv_device_resident(&fz.inv, fz.devs[FZ_DEV_MP],
			      dma1.live_mappings - dma0.live_mappings);
}

/* Set-up, once. */

static struct device *make_dev(const char *name, enum pp_dma_backend be, unsigned int flags)
{
	struct device *dev = pp_device_create(name, be, flags);

	if (IS_ERR_OR_NULL(dev)) {
		fprintf(stderr, "fuzz: cannot create device %s\n", name);
		abort();
	}
	ppinv_track_device(&fz.inv, dev);
	return dev;
}

#ifdef PP_FUZZ_FAST
const char *fz_summary_label = "fuzz-pool";
#else
const char *fz_summary_label = "fuzz";
#endif

static void print_at_exit(void)
{
	if (fz.ready)
		fz_print_summary(fz_summary_label);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct pp_mem_config cfg = { .size = (size_t)FZ_ARENA_MB << 20, .nr_nodes = FZ_NR_NODES };
	const char *v = getenv("PP_FUZZ_VERBOSE");

	(void)argc;
	(void)argv;
	if (fz.ready)
		return 0;
	fz_verbose = v ? atoi(v) : 0;
	log_verbose = fz_verbose >= 1;
	misuse_from_env();
	pp_set_print(fz_print);
	if (pp_mem_init(&cfg)) {
		fprintf(stderr, "fuzz: pp_mem_init failed\n");
		abort();
	}
	if (pp_thread_register(FZ_CPU_BASE) != FZ_CPU_BASE)
		abort();
	/* The deferred release runs only when the harness says so (fz_settle_zombies
	 * and teardown), never behind its back in the middle of a check. */
	pp_page_pool_set_defer_times(3600 * 1000, 3600 * 1000);
	fz.default_tracking = pp_page_pool_set_dma_tracking(PP_DMA_TRACK_INDEX);
	pp_page_pool_set_dma_tracking(fz.default_tracking);
#ifdef PP_FUZZ_HAVE_XDP
	fz.default_xdp_mode = pp_xdp_get_return_mode();
#endif
	ppinv_init(&fz.inv);
	fz.inv.quiet = false;
	fz.inv.on_failure = on_failure;
#ifdef PP_FUZZ_FAST
	/* The cheap backend (fuzz.h); DMA-API debug on the second device. */
	fz.devs[0] = make_dev("fz-direct", PP_DMA_DIRECT, 0);
	fz.devs[1] = make_dev("fz-direct-debug", PP_DMA_DIRECT, PP_DMA_DEBUG);
	fz.devs[FZ_DEV_MP] = make_dev("fz-mp", PP_DMA_DIRECT, 0);
#else
	fz.devs[0] = make_dev("fz-iommu", PP_DMA_IOMMU, PP_DMA_DEBUG);
	fz.devs[1] = make_dev("fz-direct", PP_DMA_DIRECT, PP_DMA_DEBUG);
	fz.devs[FZ_DEV_MP] = make_dev("fz-mp", PP_DMA_IOMMU, PP_DMA_DEBUG);
#endif
	fz.netdev = alloc_etherdev_mqs(0, 1, 2);
	if (!fz.netdev || register_netdev(fz.netdev))
		abort();
	mp_setup();
	ppinv_rebase(&fz.inv);
#ifdef PP_FUZZ_FAST
	{
		struct pp_mem_stats st;

		pp_mem_get_stats(&st);
		arena_total = st.total_pages;
	}
#endif
	fz.ready = true;
	atexit(print_at_exit);
	return 0;
}

/* Per input. */

static void begin_input(const uint8_t *data, size_t size)
{
	uint8_t cfg;
	int r, s;

	fz.data = data;
	fz.size = size;
	fz.pos = 0;
	fz.nops = 0;
	fz.role = 0;
	fz.bh = 0;
	fz.in_poll = false;
	fz.armed = 0;
	fz.nr_pages = 0;
	fz.stack_head = fz.stack_len = 0;
	for (r = 0; r < FZ_MAX_POOLS; r++)
		fz.pools[r].state = REC_FREE;
	for (s = 0; s < FZ_SLOTS; s++)
		fz.slot[s] = -1;
	for (r = 0; r < FZ_MAX_DEVS; r++)
		fz.bound[r] = true;

	cfg = fz_u8();
	fz.nr_devs = 1 + (cfg & 1);
	fz.nr_roles = 1 + ((cfg >> 1) & 3) % 3;
	pp_page_pool_set_ring_mode(cfg & 8 ? PP_RING_PTR_RING : PP_RING_LANES);
	fz.tracking = ((cfg >> 4) & 3) == 1 ? PP_DMA_TRACK_ITEMS :
		      ((cfg >> 4) & 3) == 2 ? PP_DMA_TRACK_OFF : PP_DMA_TRACK_INDEX;
	pp_page_pool_set_dma_tracking(fz.tracking);
#ifdef PP_FUZZ_HAVE_XDP
	pp_xdp_set_return_mode(cfg & 0x40 ? PP_XDP_RETURN_LOOKUP : PP_XDP_RETURN_DIRECT);
#endif
	ppinv_rebase(&fz.inv);
}

/*
 * Everything gone: no pool listed, no mapping live, every page home.
 *
 * The full target walks the arena after every input (ppinv_check_idle():
 * the free count and the walker's count of pages still marked page_pool).
 * The fast target proves "every page home" per input from counters alone
 * - the buddy lists' free blocks of every order plus every CPU's per-CPU
 * list, against the arena's size: a page never given back is missing
 * from them - and relies on the page allocator for "no page_pool mark
 * left": a page freed while still marked is counted (freed_pp_page) and
 * the step check fails on it. What counters cannot see is a mark written
 * into a page that is already free (a stray write through a stale
 * pointer); the walk finds that, and runs after every input that did a
 * declared misuse (where stale pointers are used on purpose, so the
 * guilty input is the one reported) and every FZ_WALK_EVERY inputs.
 */
#ifdef PP_FUZZ_FAST
#define FZ_WALK_EVERY	64

FZ_NO_COVERAGE static unsigned long arena_free_counted(void)
{
	unsigned long n = 0;
	unsigned int o;
	int nid, cpu;

	for (nid = 0; nid < FZ_NR_NODES; nid++) {
		for (o = 0; o <= MAX_PAGE_ORDER; o++)
			n += pp_mem_free_blocks(nid, o) << o;
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			n += pp_mem_pcp_count(cpu, nid);
	}
	return n;
}

static void check_home(void)
{
	unsigned long nfree;

	if (fz.t.misuse != fz.misuse_at_begin || fz.t.inputs % FZ_WALK_EVERY == 0) {
		ppinv_check_idle(&fz.inv);
		return;
	}
	ppinv_check_step(&fz.inv);
	ppinv_check_no_pools(&fz.inv);
	nfree = arena_free_counted();
	if (nfree + fz.inv.resident_pages != arena_total)
		fz_fail(PPINV_PAGE_LEAKED, "%ld page(s) never came home (free %lu + resident %lu of %lu)",
			(long)(arena_total - nfree - fz.inv.resident_pages), nfree,
			fz.inv.resident_pages, arena_total);
	ppinv_check_dma_idle(&fz.inv);
}
#else
static void check_home(void)
{
	ppinv_check_idle(&fz.inv);
}
#endif

/* Give everything back, destroy everything, and prove it is all home. */
static void end_input(void)
{
	int p, r, d;

	while (fz.bh > 0) {
		local_bh_enable();
		fz.bh--;
	}
	for (p = 0; p < PP_FAULT_NR; p++)
		pp_fault_inject((enum pp_fault_point)p, NULL);
	fz.armed = 0;
	if (fz.role != 0) {
		pp_thread_unregister();
		if (pp_thread_register(FZ_CPU_BASE) != FZ_CPU_BASE)
			fz_fail(PPINV_API, "cannot take CPU %d back", FZ_CPU_BASE);
		fz.role = 0;
	}

	/* The stack lets go, then the model returns what it holds. */
	while (fz.stack_len) {
		netmem_ref nm = fz.stack[fz.stack_head];
		struct fz_page *e = fz_find(nm);

		fz.stack_head = (fz.stack_head + 1) % FZ_STACK;
		fz.stack_len--;
		e->stack_refs--;
		page_pool_put_full_netmem(netmem_get_pp(nm), nm, false);
		fz_drop_ref(e);
	}
	/* Always the last entry, so forgetting one moves nothing. */
	while (fz.nr_pages) {
		struct fz_page *e = &fz.pages[fz.nr_pages - 1];

		if (e->refs) {
			page_pool_put_full_netmem(fz.pools[e->rec].pool, e->nm, false);
			fz_drop_ref(e);
		} else {
			fz_drop_page_ref(e);
		}
	}

	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state != REC_FREE && fz.pools[r].xdp_reg)
			fz_xdp_unreg(r);
	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state == REC_ACTIVE)
			fz_destroy_rec(r);
	fz_check_all();
	fz_settle_zombies();
	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state != REC_FREE)
			fz_fail(PPINV_POOL_LEAKED, "pool %u (rec %d) alive at the end of the input",
				fz.pools[r].id, r);

	/* Devices back to bound; one unbound with pages in flight gets a
	 * fresh binding (its old IOVAs may still be referenced by the late
	 * unmaps of pools whose DMA tracking is off), and is settled. */
	for (d = 0; d < FZ_MAX_DEVS; d++) {
		struct device *dev = fz.devs[d];

		if (ppinv_device_tainted(&fz.inv, dev) && fz.bound[d]) {
			device_release_driver(dev);
			fz.bound[d] = false;
		}
		if (!fz.bound[d]) {
			if (pp_device_bind(dev))
				fz_fail(PPINV_API, "pp_device_bind(%s) failed", dev_name(dev));
			fz.bound[d] = true;
		}
		ppinv_device_settled(&fz.inv, dev);
	}
	mp_check_home();
	check_home();
	pp_page_pool_set_ring_mode(PP_RING_LANES);
	pp_page_pool_set_dma_tracking(fz.default_tracking);
#ifdef PP_FUZZ_HAVE_XDP
	pp_xdp_set_return_mode(fz.default_xdp_mode);
#endif
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fz.ready)
		LLVMFuzzerInitialize(NULL, NULL);
	fz.t.inputs++;
	fz.misuse_at_begin = fz.t.misuse;
	begin_input(data, size);
	while (fz_more() && fz.nops < FZ_MAX_OPS)
		fz_run_op(false);
	end_input();
	return 0;
}

void fz_print_summary(const char *label)
{
	static const struct { enum fz_op op; const char *name; } mu[] = {
		{ FZ_OP_WRONG_POOL, "wrong_pool" }, { FZ_OP_BULK_DUP, "bulk_dup" },
		{ FZ_OP_ALLOC_ZERO, "alloc_zero" }, { FZ_OP_ABA, "aba" },
		{ FZ_OP_MP_PAGE_ALLOC, "mp_page_alloc" }, { FZ_OP_FRAG_OVERPUT, "frag_overput" },
		{ FZ_OP_DEV_GONE, "dev_gone" }, { FZ_OP_BAD_ARGS, "bad_args" },
		{ FZ_OP_XDP, "xdp" },
	};
	char inv_label[64], per[512];
	unsigned long total = 0;
	size_t i, n = 0;

	per[0] = 0;
	for (i = 0; i < sizeof(mu) / sizeof(mu[0]); i++) {
		total += fz.t.misuse_ops[mu[i].op];
		n += (size_t)snprintf(per + n, sizeof(per) - n, " %s=%lu", mu[i].name,
				      fz.t.misuse_ops[mu[i].op]);
	}

	fprintf(stderr,
		"%s: inputs=%lu ops=%lu allocs=%lu alloc_null=%lu returns=%lu bulk_returns=%lu creates=%lu create_errors=%lu destroys=%lu destroyed_with_inflight=%lu late_returns=%lu unbinds=%lu rebinds=%lu napi_polls=%lu role_switches=%lu xdp_regs=%lu xdp_frames=%lu misuse=%lu faults_armed=%lu faults_injected=%lu\n",
		label, fz.t.inputs, fz.t.ops, fz.t.allocs, fz.t.alloc_null, fz.t.returns,
		fz.t.bulk_returns, fz.t.creates, fz.t.create_errors, fz.t.destroys,
		fz.t.destroyed_inflight, fz.t.late_returns, fz.t.unbinds, fz.t.rebinds,
		fz.t.polls, fz.t.role_switches, fz.t.xdp_regs, fz.t.xdp_frames, fz.t.misuse,
		fz.t.faults_armed,
		fz_faults_injected());
	/* The misuse the hardening checks for, by operation, and which kinds
	 * are on (the key's name is the one tools/reliability/fuzz.sh reads). */
	fprintf(stderr, "%s: misuse_issue12=%lu%s kinds_on=%#x\n", label, total, per, misuse_mask);
	snprintf(inv_label, sizeof(inv_label), "%s invariants", label);
	ppinv_print_summary(&fz.inv, stderr, inv_label);
}
