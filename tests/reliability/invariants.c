/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The invariant checker shared by the fuzzer, the stress program and the
 * reliability suites; see invariants.h for what each check enforces and
 * for the DMA-safe-unbind gate.
 */
#include "invariants.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/mm.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>
/* A kernel core build (docs/KERNEL_CORE.md) checks the kernel's struct
 * page_pool: its ptr_ring, hold and release counters; it has no lanes,
 * and no misuse counters (pp_page_pool_get_misuse() is -EOPNOTSUPP there,
 * so those deltas stay 0). */
#ifndef CONFIG_PAGEPOOL_KERNEL_CORE
#include "core/ring.h"	/* struct pp_lane: a white-box look at the lanes */
#endif

static const char *const kind_names[PPINV_NR] = {
	[PPINV_PAGE_LEAKED]		= "page-leaked",
	[PPINV_PP_PAGE_LEFT]		= "pp-page-left",
	[PPINV_DOUBLE_FREE]		= "double-free",
	[PPINV_DOUBLE_RETURN]		= "double-return",
	[PPINV_INFLIGHT]		= "inflight",
	[PPINV_POOL_LEAKED]		= "pool-leaked",
	[PPINV_DMA_VIOLATION]		= "dma-violation",
	[PPINV_DMA_UNMAP_SKIPPED]	= "dma-unmap-skipped",
	[PPINV_WARN]			= "warn",
	[PPINV_HELD_PAGE]		= "held-page",
	[PPINV_API]			= "api-contract",
	[PPINV_RING_BOUND]		= "ring-bound",
};

const char *ppinv_kind_name(enum ppinv_kind kind)
{
	return (unsigned int)kind < PPINV_NR ? kind_names[kind] : "unknown";
}

void ppinv_fail(struct ppinv *c, enum ppinv_kind kind, const char *fmt, ...)
{
	int n;
	va_list ap;

	c->failures[kind]++;
	c->total_failures++;
	n = snprintf(c->last, sizeof(c->last), "invariant %s: ", ppinv_kind_name(kind));
	va_start(ap, fmt);
	vsnprintf(c->last + n, sizeof(c->last) - (size_t)n, fmt, ap);
	va_end(ap);
	if (!c->quiet)
		fprintf(stderr, "pagepool reliability: %s\n", c->last);
	if (c->on_failure)
		c->on_failure(c, kind, c->last);
}

static bool env_gate(void)
{
	const char *v = getenv(PPINV_ENV_DMA_SAFE_UNBIND);

	if (!v || !*v)
		return PPINV_EXPECT_DMA_SAFE_UNBIND_DEFAULT;
	return *v == '1' || *v == 'y' || *v == 'Y';
}

void ppinv_rebase(struct ppinv *c)
{
	int i;

	c->warns = pp_warn_count();
	memset(&c->misuse, 0, sizeof(c->misuse));
	pp_page_pool_get_misuse(&c->misuse);
	pp_mem_get_counters(&c->mm);
	c->expect_warns = 0;
	memset(&c->expect_misuse, 0, sizeof(c->expect_misuse));
	for (i = 0; i < c->nr_devs; i++)
		c->devs[i].base = pp_dma_violations(c->devs[i].dev);
}

void ppinv_init(struct ppinv *c)
{
	memset(c, 0, sizeof(*c));
	c->expect_dma_safe_unbind = env_gate();
	ppinv_rebase(c);
}

static struct ppinv_dev *find_dev(const struct ppinv *c, const struct device *dev)
{
	int i;

	for (i = 0; i < c->nr_devs; i++)
		if (c->devs[i].dev == dev)
			return (struct ppinv_dev *)&c->devs[i];
	return NULL;
}

int ppinv_track_device(struct ppinv *c, struct device *dev)
{
	struct ppinv_dev *d = find_dev(c, dev);

	if (d)
		return 0;
	if (c->nr_devs == PPINV_MAX_DEVS)
		return -ENOSPC;
	d = &c->devs[c->nr_devs++];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	d->base = pp_dma_violations(dev);
	return 0;
}

void ppinv_untrack_device(struct ppinv *c, struct device *dev)
{
	struct ppinv_dev *d = find_dev(c, dev);

	if (!d)
		return;
	*d = c->devs[--c->nr_devs];
}

void ppinv_device_resident(struct ppinv *c, struct device *dev, unsigned long n)
{
	struct ppinv_dev *d = find_dev(c, dev);

	if (d)
		d->resident_mappings = n;
}

void ppinv_expect_double_put(struct ppinv *c)
{
	c->pending_double_puts++;
}

void ppinv_expect_warns(struct ppinv *c, unsigned long n)
{
	c->expect_warns += n;
}

void ppinv_expect_misuse(struct ppinv *c, unsigned long not_pp_page,
			 unsigned long foreign_pool, unsigned long ref_underflow)
{
	c->expect_misuse.not_pp_page += not_pp_page;
	c->expect_misuse.foreign_pool += foreign_pool;
	c->expect_misuse.ref_underflow += ref_underflow;
}

void ppinv_device_unbinding(struct ppinv *c, struct device *dev, bool fix_off)
{
	struct ppinv_dev *d = find_dev(c, dev);
	struct pp_dma_stats st;

	if (!d)
		return;
	d->unbinds++;
	pp_dma_get_stats(dev, &st);
	if (st.live_mappings > d->resident_mappings) {
		d->tainted = true;
		d->fix_off |= fix_off;
	}
}

/* Violations on a tainted device that are not failures: the seed bug with
 * its fix off, or any with the gate off. */
static bool forgive(struct ppinv *c, struct ppinv_dev *d, unsigned long n)
{
	if (!d->tainted)
		return false;
	if (d->fix_off) {
		c->expected_dma += n;
	} else if (!c->expect_dma_safe_unbind) {
		c->tolerated_dma += n;
	} else {
		return false;
	}
	d->tolerated += n;
	return true;
}

/* Account the violations seen on @d since its baseline. */
static int account_dev(struct ppinv *c, struct ppinv_dev *d)
{
	unsigned long now = pp_dma_violations(d->dev), delta = now - d->base;
	char kinds[256];
	int k, n = 0;

	d->base = now;
	if (!delta || forgive(c, d, delta))
		return 0;
	kinds[0] = 0;
	for (k = 0; k < PP_DMA_V_NR; k++) {
		unsigned long v = pp_dma_violation_count(d->dev, (enum pp_dma_violation)k);

		if (v)
			n += snprintf(kinds + n, sizeof(kinds) - (size_t)n, " %s=%lu",
				      pp_dma_violation_name((enum pp_dma_violation)k), v);
		if (n >= (int)sizeof(kinds))
			break;
	}
	ppinv_fail(c, PPINV_DMA_VIOLATION,
		   "%lu new DMA-API violation(s) on device %s%s (totals:%s)", delta,
		   dev_name(d->dev), d->tainted ? " after an unbind with pages in flight" : "",
		   kinds);
	return 1;
}

void ppinv_device_settled(struct ppinv *c, struct device *dev)
{
	struct ppinv_dev *d = find_dev(c, dev);

	if (!d)
		return;
	account_dev(c, d);
	d->tainted = false;
	d->fix_off = false;
}

bool ppinv_device_tainted(const struct ppinv *c, const struct device *dev)
{
	const struct ppinv_dev *d = find_dev(c, dev);

	return d && d->tainted;
}

#define MM_FIELDS(X)		\
	X(double_free)		\
	X(bad_get)		\
	X(bad_free)		\
	X(freed_pp_page)	\
	X(out_of_arena)		\
	X(reserved_pages)

int ppinv_check_step(struct ppinv *c)
{
	struct pp_page_pool_misuse m = { 0 };
	struct pp_mem_counters mm;
	unsigned long warns = pp_warn_count();
	unsigned long double_puts;
	int i, bad = 0;

	c->checks++;
	pp_mem_get_counters(&mm);
#define X(f)								\
	if (mm.f != c->mm.f) {						\
		ppinv_fail(c, PPINV_DOUBLE_FREE,			\
			   "page allocator counter " #f " moved by %lu",	\
			   mm.f - c->mm.f);				\
		bad++;							\
	}
	MM_FIELDS(X)
#undef X
	c->mm = mm;

	pp_page_pool_get_misuse(&m);
	double_puts = m.double_put - c->misuse.double_put;
	if (double_puts > c->pending_double_puts) {
		ppinv_fail(c, PPINV_DOUBLE_RETURN, "double puts: %lu, declared and not seen yet %lu",
			   double_puts, c->pending_double_puts);
		bad++;
		double_puts = c->pending_double_puts;
	}
	c->pending_double_puts -= double_puts;
	if (m.ref_underflow - c->misuse.ref_underflow != c->expect_misuse.ref_underflow) {
		ppinv_fail(c, PPINV_DOUBLE_RETURN,
			   "pp_ref_count underflows: %lu, declared %lu",
			   m.ref_underflow - c->misuse.ref_underflow,
			   c->expect_misuse.ref_underflow);
		bad++;
	}
	if (m.not_pp_page - c->misuse.not_pp_page != c->expect_misuse.not_pp_page) {
		ppinv_fail(c, PPINV_DOUBLE_RETURN,
			   "puts of pages no pool owns: %lu, declared %lu",
			   m.not_pp_page - c->misuse.not_pp_page, c->expect_misuse.not_pp_page);
		bad++;
	}
	if (m.foreign_pool - c->misuse.foreign_pool != c->expect_misuse.foreign_pool) {
		ppinv_fail(c, PPINV_DOUBLE_RETURN,
			   "puts naming the wrong pool: %lu, declared %lu",
			   m.foreign_pool - c->misuse.foreign_pool, c->expect_misuse.foreign_pool);
		bad++;
	}
	/* Never declared: nothing in the suites recycles directly or
	 * allocates from outside a pool's consumer context on purpose
	 * (tests/hardening/concurrent_consumer does, without the checker).
	 * Counted only in a CONFIG_DEBUG_NET build. */
	if (m.concurrent_consumer != c->misuse.concurrent_consumer) {
		ppinv_fail(c, PPINV_DOUBLE_RETURN,
			   "consumer side entered by a second context: %lu times",
			   m.concurrent_consumer - c->misuse.concurrent_consumer);
		bad++;
	}
	c->misuse = m;

	/* Each double put seen came with its WARN. */
	c->expect_warns += double_puts;
	if (warns - c->warns != c->expect_warns) {
		ppinv_fail(c, PPINV_WARN, "%lu WARN(s), declared %lu",
			   warns - c->warns, c->expect_warns);
		bad++;
	} else {
		c->declared_warns += c->expect_warns;
	}
	c->warns = warns;
	c->expect_warns = 0;
	memset(&c->expect_misuse, 0, sizeof(c->expect_misuse));

	for (i = 0; i < c->nr_devs; i++)
		bad += account_dev(c, &c->devs[i]);
	return bad;
}

/*
 * Entries parked in a ring nobody is touching: from consumer_head on, up
 * to the first free slot. Slots in [consumer_tail, consumer_head) were
 * consumed but are cleared only in batches (ptr_ring.h, C2): not parked.
 */
static long ring_used(const struct ptr_ring *r)
{
	int i = r->consumer_head;
	long n = 0;

	while (n < r->size && r->queue[i]) {
		n++;
		if (++i == r->size)
			i = 0;
		if (i == r->consumer_tail && r->consumer_tail != r->consumer_head)
			break;
	}
	return n;
}

/* The kernel's bound on returned pages, and the lanes' credit books. */
static int check_ring_bound(struct ppinv *c, const struct page_pool *pool, u32 id)
{
	long parked = ring_used(&pool->ring), unspent = 0, credits, held, declared = 0;
#ifndef CONFIG_PAGEPOOL_KERNEL_CORE
	unsigned long bits;
	int w, cpu;

	/* Word by word: the check runs after every fuzzer operation for
	 * every pool, and most of the NR_CPUS bits are clear. */
	for (w = 0; pool->lanes && w < NR_CPUS / BITS_PER_LONG; w++) {
		for (bits = pool->lane_mask[w]; bits; bits &= bits - 1) {
			const struct pp_lane *lane;

			cpu = w * BITS_PER_LONG + __builtin_ctzl(bits);
			lane = pool->lanes[cpu];
			parked += ring_used(&lane->ring);
			unspent += (long)(lane->credit_end - lane->produced);
			declared += lane->credits_kept;
			if ((long)(lane->credit_end - lane->produced) > (long)lane->credits_kept) {
				ppinv_fail(c, PPINV_RING_BOUND,
					   "pool %u: lane %d keeps %ld credits, declared %u",
					   id, cpu, (long)(lane->credit_end - lane->produced),
					   lane->credits_kept);
				return 1;
			}
		}
	}
#endif
	if (parked > pool->ring.size) {
		ppinv_fail(c, PPINV_RING_BOUND, "pool %u: %ld pages parked, ring of %d", id,
			   parked, pool->ring.size);
		return 1;
	}
#ifdef CONFIG_PAGEPOOL_KERNEL_CORE
	(void)unspent;
	(void)credits;
	(void)held;
	(void)declared;
	return 0;
#else
	if (!pool->lanes)
		return 0;
	credits = (long)(u32)atomic64_read(&pool->ring_credits);
	held = (long)(atomic64_read(&pool->ring_credits) >> 32);
	if (credits + unspent + parked != pool->ring.size) {
		ppinv_fail(c, PPINV_RING_BOUND,
			   "pool %u: ring credits %ld free + %ld unspent + %ld parked != %d",
			   id, credits, unspent, parked, pool->ring.size);
		return 1;
	}
	/* What lanes may keep is declared, and capped at a 32nd of the ring. */
	if (held != declared || held > pool->ring.size / 32) {
		ppinv_fail(c, PPINV_RING_BOUND,
			   "pool %u: lanes keep %ld credits declared as %ld, at most %d",
			   id, declared, held, pool->ring.size / 32);
		return 1;
	}
	return 0;
#endif
}

int ppinv_check_pool(struct ppinv *c, const struct page_pool *pool, long held, bool exact)
{
	u32 hold = READ_ONCE(pool->pages_state_hold_cnt);
	u32 release = (u32)atomic_read(&pool->pages_state_release_cnt);
	s32 inflight = (s32)(hold - release);
	u32 id = pp_page_pool_id(pool);
	struct pp_page_pool_info info;
	int bad = 0;

	c->checks++;
	if (inflight < 0) {
		ppinv_fail(c, PPINV_INFLIGHT, "pool %u: negative inflight %d (hold %u, release %u)",
			   id, inflight, hold, release);
		return 1;
	}
	if (inflight < held || (exact && inflight != held)) {
		ppinv_fail(c, PPINV_INFLIGHT,
			   "pool %u: inflight %d (hold %u - release %u) but %ld page(s) held",
			   id, inflight, hold, release, held);
		bad++;
	}
	if (pp_page_pool_get_info(id, &info)) {
		ppinv_fail(c, PPINV_POOL_LEAKED, "pool %u: alive but not listed", id);
		bad++;
	} else if (info.inflight != (u64)inflight) {
		ppinv_fail(c, PPINV_INFLIGHT,
			   "pool %u: introspection says %llu in flight, hold - release = %d",
			   id, (unsigned long long)info.inflight, inflight);
		bad++;
	}
	bad += check_ring_bound(c, pool, id);
	return bad;
}

int ppinv_check_pool_gone(struct ppinv *c, u32 id)
{
	struct pp_page_pool_info info;

	c->checks++;
	if (pp_page_pool_get_info(id, &info) == -ENOENT)
		return 0;
	ppinv_fail(c, PPINV_POOL_LEAKED,
		   "pool %u: still alive with %llu page(s) in flight after its last page came home",
		   id, (unsigned long long)info.inflight);
	return 1;
}

struct pool_list {
	int n;
	char ids[160];
	size_t len;
};

static int list_pool(const struct pp_page_pool_info *info, void *arg)
{
	struct pool_list *l = arg;

	l->n++;
	if (l->len < sizeof(l->ids) - 24)
		l->len += (size_t)snprintf(l->ids + l->len, sizeof(l->ids) - l->len,
					   " %u(inflight %llu)", info->id,
					   (unsigned long long)info->inflight);
	return 0;
}

int ppinv_check_no_pools(struct ppinv *c)
{
	struct pool_list l = { 0 };

	c->checks++;
	pp_page_pool_for_each(list_pool, &l);
	if (!l.n)
		return 0;
	ppinv_fail(c, PPINV_POOL_LEAKED, "%d pool(s) still listed:%s", l.n, l.ids);
	return 1;
}

int ppinv_check_held(struct ppinv *c, netmem_ref netmem, const struct page_pool *pool,
		     int page_refs)
{
	unsigned long magic = READ_ONCE(__netmem_clear_lsb(netmem)->pp_magic);
	long pp_refs = atomic_long_read(netmem_get_pp_ref_count_ref(netmem));
	u32 id = pp_page_pool_id(pool);
	u32 home;

	c->checks++;
	if ((magic & PP_MAGIC_MASK) != PP_SIGNATURE) {
		ppinv_fail(c, PPINV_HELD_PAGE,
			   "netmem %#lx of pool %u is held but not marked page_pool (magic %#lx)",
			   (unsigned long)netmem, id, magic);
		return 1;
	}
	if (netmem_get_pp(netmem) != pool) {
		ppinv_fail(c, PPINV_HELD_PAGE, "netmem %#lx of pool %u now names pool %u",
			   (unsigned long)netmem, id, pp_page_pool_id(netmem_get_pp(netmem)));
		return 1;
	}
	if (pp_refs <= 0) {
		ppinv_fail(c, PPINV_HELD_PAGE,
			   "netmem %#lx of pool %u is held but has pp_ref_count %ld",
			   (unsigned long)netmem, id, pp_refs);
		return 1;
	}
#ifndef CONFIG_PAGEPOOL_KERNEL_CORE
	/* Held: out of the pool in its owner's home word, and not put into
	 * the ring since it went out (<net/page_pool/helpers.h>, "Home
	 * state"; pagepool's core only). */
	home = READ_ONCE(netmem_home_ref(netmem)->out_base);
	if (!(home & PP_HOME_OUT) || (home >> 1) != (__page_pool_put_seq(netmem) & 0x7fffffffu)) {
		ppinv_fail(c, PPINV_HELD_PAGE,
			   "netmem %#lx of pool %u is held but is back in the pool (out/base %#x, put count %#x)",
			   (unsigned long)netmem, id, home, __page_pool_put_seq(netmem));
		return 1;
	}
#else
	(void)home;
#endif
	if (!netmem_is_net_iov(netmem) && netmem_ref_count(netmem) < 1 + page_refs) {
		ppinv_fail(c, PPINV_HELD_PAGE,
			   "page %#lx of pool %u: refcount %d, the holder alone has %d",
			   (unsigned long)netmem, id, netmem_ref_count(netmem), 1 + page_refs);
		return 1;
	}
	return 0;
}

static int first_pp(struct page *page, void *arg)
{
	unsigned long *pfn = arg;

	if (!page_pool_page_is_pp(page))
		return 0;
	*pfn = page_to_pfn(page);
	return 1;
}

int ppinv_check_arena_whole(struct ppinv *c)
{
	struct pp_mem_counters mm;
	struct pp_mem_stats st;
	unsigned long pfn = 0;
	int bad = 0;

	c->checks++;
	pp_mem_get_stats(&st);	/* counts page_pool pages with the walker */
	if (st.free_pages + c->resident_pages != st.total_pages) {
		ppinv_fail(c, PPINV_PAGE_LEAKED,
			   "%ld page(s) never came home (free %lu + resident %lu of %lu)",
			   (long)(st.total_pages - st.free_pages - c->resident_pages),
			   st.free_pages, c->resident_pages, st.total_pages);
		bad++;
	}
	if (st.pp_pages) {
		pp_mem_walk(first_pp, &pfn);
		ppinv_fail(c, PPINV_PP_PAGE_LEFT,
			   "%lu page(s) still marked as page_pool pages with no pool (first pfn %#lx)",
			   st.pp_pages, pfn);
		bad++;
	}
	pp_mem_get_counters(&mm);
	if (mm.reserved_pages) {
		ppinv_fail(c, PPINV_DOUBLE_FREE,
			   "%lu page(s) taken out of circulation by bad frees", mm.reserved_pages);
		bad++;
	}
	return bad;
}

int ppinv_check_dma_idle(struct ppinv *c)
{
	struct pp_dma_stats st;
	int i, bad = 0;

	c->checks++;
	for (i = 0; i < c->nr_devs; i++) {
		struct ppinv_dev *d = &c->devs[i];

		pp_dma_get_stats(d->dev, &st);
		if (st.live_mappings == d->resident_mappings ||
		    forgive(c, d, st.live_mappings - d->resident_mappings))
			continue;
		ppinv_fail(c, PPINV_DMA_UNMAP_SKIPPED,
			   "device %s: %lu mapping(s) live with no user, %lu expected (maps %lu, unmaps %lu)",
			   dev_name(d->dev), st.live_mappings, d->resident_mappings, st.maps, st.unmaps);
		bad++;
	}
	return bad;
}

int ppinv_check_idle(struct ppinv *c)
{
	int bad = ppinv_check_step(c);

	/* Every pool is gone, every ring drained: each declared double put
	 * was found by now. */
	if (c->pending_double_puts) {
		ppinv_fail(c, PPINV_DOUBLE_RETURN, "%lu declared double put(s) never reported",
			   c->pending_double_puts);
		c->pending_double_puts = 0;
		bad++;
	}
	bad += ppinv_check_no_pools(c);
	bad += ppinv_check_arena_whole(c);
	bad += ppinv_check_dma_idle(c);
	return bad;
}

void ppinv_print_summary(const struct ppinv *c, FILE *out, const char *label)
{
	int k;

	fprintf(out, "%s: checks=%lu failures=%lu", label, c->checks, c->total_failures);
	for (k = 0; k < PPINV_NR; k++)
		if (c->failures[k])
			fprintf(out, " %s=%lu", kind_names[k], c->failures[k]);
	fprintf(out, " declared_warns=%lu expected_dma=%lu tolerated_dma=%lu expect_dma_safe_unbind=%d\n",
		c->declared_warns, c->expected_dma, c->tolerated_dma, c->expect_dma_safe_unbind);
}
