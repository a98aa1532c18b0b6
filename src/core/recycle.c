/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool recycling: the puts, single and bulk, as the kernel's
 * net/core/page_pool.c has them - recyclable? sync for the device; a
 * direct put into the alloc cache, any other into the ring
 * (src/core/ring.h: this CPU's lane or the kernel's ptr_ring); a page that
 * cannot be recycled, or finds the ring full, back to the page allocator
 * (release.c). The inline fast paths drivers call are in
 * <net/page_pool/helpers.h>; this file is what they call.
 *
 * Who may run what (docs/ARCHITECTURE.md, "Contexts"): a put from any
 * context but hard IRQ; a direct put (allow_direct) only from the pool's
 * consumer context, which also owns the alloc cache; page_pool_napi_local()
 * decides whether a put that did not say so is that context.
 */

#include <linux/bottom_half.h>
#include <linux/lockdep.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

#include "core/core_internal.h"
#include "core/home.h"
#include "core/lifecycle.h"
#include "core/ring.h"

/* Caller MUST be the consumer context and have checked recyclability. */
static bool page_pool_recycle_in_cache(netmem_ref netmem, struct page_pool *pool)
{
	/* CONFIG_DEBUG_NET: another context inside - take the ring. */
	if (!ppcore_consumer_enter(pool, "direct recycle"))
		return false;
	if (unlikely(pool->alloc.count == PP_ALLOC_CACHE_SIZE)) {
		__pp_consumer_stat_inc(pool->cache_full);
		ppcore_consumer_exit(pool);
		return false;
	}
	/* Home already, or put into the ring on this trip: a duplicate,
	 * dealt with by dropping it. */
	if (unlikely(!__page_pool_home_direct(netmem))) {
		ppcore_consumer_exit(pool);
		page_pool_home_dup(pool, netmem, "direct put", PP_DUP_HOME);
		return true;
	}
	ppcore_netmem_in(pool, netmem);
	pool->alloc.cache[pool->alloc.count++] = netmem;
	__pp_consumer_stat_inc(pool->cached);
	ppcore_consumer_exit(pool);
	return true;
}

/* The user holds extra page references (refcount-based recycling tricks)
 * or the page came from the emergency reserves: unmap and release it, the
 * last put_page() frees it. */
static noinline void page_pool_put_release(struct page_pool *pool, netmem_ref netmem)
{
	recycle_stat_inc(pool, released_refcnt);
	page_pool_put_return_page(pool, netmem);
}

/* Recycle into the cache if allowed; returns the netmem when it should go
 * to the ring, 0 when it was dealt with. */
static __always_inline netmem_ref __page_pool_put_page(struct page_pool *pool, netmem_ref netmem,
						       unsigned int dma_sync_size,
						       bool allow_direct)
{
	lockdep_assert_no_hardirq();

	if (likely(__page_pool_page_can_be_recycled(netmem))) {
		page_pool_dma_sync_for_device(pool, netmem, dma_sync_size);
		if (allow_direct && page_pool_recycle_in_cache(netmem, pool))
			return 0;
		return netmem;
	}

	page_pool_put_release(pool, netmem);
	return 0;
}

/*
 * May the caller use the lockless alloc cache although it did not say so?
 * Yes if it runs in softirq on the CPU that owns the pool: the per-CPU
 * pool's CPU, or the CPU whose poll list holds the pool's NAPI right now.
 */
static __always_inline bool __page_pool_napi_local(const struct page_pool *pool,
						   bool in_softirq, int cpuid)
{
	const struct napi_struct *napi;

	if (unlikely(!in_softirq))
		return false;
	if (READ_ONCE(pool->cpuid) == cpuid)
		return true;
	napi = READ_ONCE(pool->p.napi);
	return napi && READ_ONCE(napi->list_owner) == cpuid;
}

bool page_pool_napi_local(const struct page_pool *pool)
{
	return __page_pool_napi_local(pool, in_softirq(), in_softirq() ? smp_processor_id() : -1);
}


/*
 * The put paths below page_pool_put_netmem() (helpers.h), which dropped
 * the last reference and checked that the netmem is @pool's.
 *
 * Why this many functions: the commonest put - not the consumer, a plain
 * page, no sync for the device, into this CPU's lane - calls nothing on
 * its way to the lane's store, so __page_pool_put_unrefed_netmem() saves
 * and restores no registers; every other case is a function of its own
 * entered by a tail jump (page_pool_put_napi_local(),
 * page_pool_put_unrefed_slow(), page_pool_put_release(),
 * page_pool_put_lane_full()); that is why a lane that does not exist yet
 * or has no credit left is handled there too (page_pool_lane_produce()
 * only reports it). objdump shows the function with no push. The
 * kernel's structure is the slow one:
 * page_pool_put_unrefed_slow() is its page_pool_put_unrefed_netmem() body,
 * __page_pool_put_page() then page_pool_recycle_in_ring().
 */

/* The lane and the ring are full: back to the page allocator. */
static noinline void page_pool_put_ring_full(struct page_pool *pool, netmem_ref netmem)
{
	recycle_stat_inc(pool, ring_full);
	page_pool_home_uncount(netmem);
	page_pool_put_return_page(pool, netmem);
}

/* A netmem __page_pool_put_page() left for the ring. */
static __always_inline void page_pool_put_in_ring(struct page_pool *pool, netmem_ref netmem)
{
	if (!page_pool_recycle_in_ring(pool, netmem))
		page_pool_put_ring_full(pool, netmem);
}

/*
 * A put that did not say it is the pool's consumer, made in softirq to a
 * pool with a NAPI or an owner CPU: it may be the consumer anyway
 * (napi-local). The napi_local fix (Yunsheng Lin, "fix two bugs related
 * to page_pool") decides and recycles inside one RCU read-side section
 * (re-reading napi and cpuid in it), so
 * page_pool_destroy(), which waits a grace period after disabling direct
 * recycling, cannot empty the cache between our decision and our push.
 * (In softirq this nests: cheap.)
 */
static noinline void page_pool_put_napi_local(struct page_pool *pool, netmem_ref netmem,
					      unsigned int dma_sync_size)
{
	bool fix = ppcore_fix_on(PP_FIX_NAPI_LOCAL_RCU);
	bool allow_direct;

	if (fix)
		rcu_read_lock();
	allow_direct = __page_pool_napi_local(pool, true, smp_processor_id());
	if (allow_direct) {
		ppcore_hook(PP_HOOK_NAPI_LOCAL_DECIDED, pool);
		/* The race the fix closes: reported if it happens. */
		WARN_ONCE(READ_ONCE(pool->destroy_cnt),
			  "page_pool %u: napi-local direct recycle decided after destroy began",
			  pool->user.id);
	}
	netmem = __page_pool_put_page(pool, netmem, dma_sync_size, allow_direct);
	if (fix)
		rcu_read_unlock();
	if (netmem)
		page_pool_put_in_ring(pool, netmem);
}

/* Only in softirq, and only for a pool with a NAPI or an owner CPU, can a
 * put that did not say so be the consumer: all other puts skip the
 * napi-local question. */
static __always_inline bool page_pool_put_may_be_napi_local(const struct page_pool *pool)
{
	return in_softirq() && (READ_ONCE(pool->p.napi) || READ_ONCE(pool->cpuid) >= 0);
}

/* Every put but the commonest and the napi-local ones: direct puts, puts
 * to pools without lanes (the kernel's ptr_ring design) or that sync for
 * the device. */
static noinline void page_pool_put_unrefed_slow(struct page_pool *pool, netmem_ref netmem,
						unsigned int dma_sync_size, bool allow_direct)
{
	/* Direct recycling into a cache that destroy emptied for the last
	 * time loses the page: report it (the debug check of that series) and take
	 * the ring instead, which destroy keeps emptying. */
	if (allow_direct && unlikely(READ_ONCE(pool->dying))) {
		WARN_ONCE(1, "page_pool %u: direct recycle into a destroyed pool; the page takes the ring",
			  pool->user.id);
		allow_direct = false;
	}
	netmem = __page_pool_put_page(pool, netmem, dma_sync_size, allow_direct);
	if (netmem)
		page_pool_put_in_ring(pool, netmem);
}

/* The commonest put found its lane full (or none, or no credit). */
static noinline void page_pool_put_lane_full(struct page_pool *pool, netmem_ref netmem,
					     enum pp_lane_put how)
{
	if (!ppcore_lanes_recycle_fallback(pool, netmem, how))
		page_pool_put_ring_full(pool, netmem);
}

/*
 * __page_pool_put_unrefed_netmem() - give back a netmem whose last
 * reference the caller dropped. Caller MUST have checked that @netmem is
 * @pool's (page_pool_put_netmem(), the XDP return reading the pool from
 * the netmem); page_pool_put_unrefed_netmem() below is the kernel's
 * export, which checks.
 */
void __page_pool_put_unrefed_netmem(struct page_pool *pool, netmem_ref netmem,
				    unsigned int dma_sync_size, bool allow_direct)
{
	if (!allow_direct) {
		if (page_pool_put_may_be_napi_local(pool)) {
			page_pool_put_napi_local(pool, netmem, dma_sync_size);
			return;
		}
		if (page_pool_has_lanes(pool) && !READ_ONCE(pool->dma_sync)) {
			enum pp_lane_put how;

			if (unlikely(!__page_pool_page_can_be_recycled(netmem))) {
				page_pool_put_release(pool, netmem);
				return;
			}
			ppcore_netmem_in(pool, netmem);
			__page_pool_count_ring_put(netmem);
			how = page_pool_lane_produce(pool, smp_processor_id(), netmem);
			if (unlikely(how != PP_LANE_PUBLISHED))
				page_pool_put_lane_full(pool, netmem, how);
			return;
		}
	}
	page_pool_put_unrefed_slow(pool, netmem, dma_sync_size, allow_direct);
}

static void page_pool_put_refused(struct page_pool *pool, netmem_ref netmem);

void page_pool_put_unrefed_netmem(struct page_pool *pool, netmem_ref netmem,
				  unsigned int dma_sync_size, bool allow_direct)
{
	if (unlikely(netmem_get_pp(netmem) != pool)) {
		/* Refused, page left as it is: see __page_pool_put_misdirected().
		 * Even a page that backs a net_iov: the caller dropped a
		 * reference on the page, which is not the net_iov's count. */
		page_pool_put_refused(pool, netmem);
		return;
	}
	if (allow_direct && __page_pool_recycle_in_cache(pool, netmem))
		return;
	__page_pool_put_unrefed_netmem(pool, netmem, dma_sync_size, allow_direct);
}

void page_pool_put_unrefed_page(struct page_pool *pool, struct page *page,
				unsigned int dma_sync_size, bool allow_direct)
{
	page_pool_put_unrefed_netmem(pool, page_to_netmem(page), dma_sync_size, allow_direct);
}

/*
 * A put that names the wrong pool is refused: reported, and the page is
 * left exactly as it is. A page that is no pool's (never was, or already
 * given back to the page allocator) is not touched. Another pool's page
 * is not sent home either: the commonest way to get here is a stale put -
 * the page went back to the page allocator after its last put and a
 * second pool has since allocated it - and the reference the put would
 * drop is its new user's (sending it home would hand it out twice). A caller who did hold the page and only named the wrong
 * pool keeps its reference and may put it to the right pool; until then
 * the page counts as in flight for its pool, which is safe.
 */
static void page_pool_put_refused(struct page_pool *pool, netmem_ref netmem)
{
	struct page_pool *owner;

	if (!netmem || !netmem_is_pp(netmem) || !(owner = netmem_get_pp(netmem))) {
		/* @pool may be gone already (a put after destroy): only its
		 * address is printed, it is never dereferenced here. */
		ppcore_count_misuse(PPCORE_MISUSE_NOT_PP_PAGE);
		WARN(1, "page_pool %p: put of a page that no page_pool owns (%#lx)",
		     (void *)pool, (unsigned long)netmem);
		return;
	}
	ppcore_count_misuse(PPCORE_MISUSE_FOREIGN_POOL);
	WARN(1, "page_pool %p: put of a page of page_pool %u refused (stale put, or the wrong pool named)",
	     (void *)pool, pp_page_pool_id(owner));
}

/*
 * One exception: a page that is no page_pool's but backs a bound net_iov
 * (<net/page_pool/memory_provider.h>: a driver that puts
 * virt_to_page(data) of a provider pool's buffer, or the XDP return of the
 * lookup generation, which names the pool by mem id) is a put of that
 * net_iov to @pool - with page_pool_put_netmem()'s owner check, so a
 * net_iov @pool does not hold is refused as any other put is. Without a
 * pool named there is nothing to check the net_iov against: refused.
 */
void __page_pool_put_misdirected(struct page_pool *pool, netmem_ref netmem,
				 unsigned int dma_sync_size, bool allow_direct)
{
	netmem_ref niov;

	if (pool && netmem && !netmem_is_pp(netmem) && (niov = ppcore_bound_netmem(netmem))) {
		page_pool_put_netmem(pool, niov, dma_sync_size, allow_direct);
		return;
	}
	page_pool_put_refused(pool, netmem);
}

void __page_pool_unref_underflow(netmem_ref netmem, long nr, long ret)
{
	/* Undo, so the count stays meaningful for the real last user. */
	atomic_long_add(nr, netmem_get_pp_ref_count_ref(netmem));
	/* Its holder let it go, and its release waits for a duplicate put
	 * in a ring (home.h): this put is a duplicate of that trip. */
	if (READ_ONCE(*netmem_put_seq_ref(netmem)) & PP_PUT_SEQ_LIMBO) {
		page_pool_home_dup(netmem_get_pp(netmem), netmem, "put", PP_DUP_RELEASED);
		return;
	}
	ppcore_count_misuse(PPCORE_MISUSE_REF_UNDERFLOW);
	WARN(1, "page_pool: pp_ref_count underflow (%ld) on %#lx: double put?",
	     ret, (unsigned long)netmem);
}

/* Bulk. */

/*
 * A bulk put's reference drop: true when it was the last one. The same
 * page twice in one bulk is two last references, as two single puts
 * would be: the second is the duplicate the owner drops (home state) -
 * at once for a direct put, at the refill for the ring - so the page is
 * cached once.
 */
static __always_inline bool page_pool_bulk_take_last_ref(netmem_ref netmem)
{
	return page_pool_unref_and_test(netmem);
}

/*
 * The netmems of @data[0..@count) that are @data[0]'s pool's go back to it,
 * through one ring round per PAGE_POOL_BULK_SIZE; the others are moved to
 * the front of @data, and their number is returned. Every netmem has a
 * pool (checked by the caller). One loop per pool, so the pool stays in a
 * register and no element asks "is this the first?".
 */
static __always_inline u32 page_pool_put_bulk_of_first_pool(netmem_ref *data, u32 count)
{
	struct page_pool *pool = netmem_get_pp(data[0]);
	bool allow_direct = page_pool_napi_local(pool);
	netmem_ref bulk[PAGE_POOL_BULK_SIZE];
	u32 bulk_len = 0, foreign = 0, i;

	for (i = 0; i < count; i++) {
		netmem_ref netmem = data[i];

		if (unlikely(netmem_get_pp(netmem) != pool)) {
			/* Another pool's: next round. */
			data[foreign++] = netmem;
			continue;
		}
		netmem = __page_pool_put_page(pool, netmem, -1, allow_direct);
		if (!netmem)
			continue;
		bulk[bulk_len++] = netmem;
		if (unlikely(bulk_len == PAGE_POOL_BULK_SIZE)) {
			page_pool_recycle_ring_bulk(pool, bulk, bulk_len);
			bulk_len = 0;
		}
	}
	if (bulk_len)
		page_pool_recycle_ring_bulk(pool, bulk, bulk_len);
	return foreign;
}

/*
 * A bulk put of a netmem no pool owns: the net_iov it backs if it is a
 * bound page (niov_pages.c) that a pool holds, else 0 (refused by the
 * caller: reported, left alone).
 */
static noinline netmem_ref page_pool_bulk_bound(netmem_ref netmem)
{
	netmem_ref niov = ppcore_bound_netmem(netmem);

	if (niov && netmem_is_pp(niov) && netmem_get_pp(niov))
		return niov;
	return 0;
}

/*
 * page_pool_put_netmem_bulk() - drop a reference on each of @count netmems,
 * which may belong to different pools: one producer-lock round per pool.
 * @data is overwritten.
 */
void page_pool_put_netmem_bulk(netmem_ref *data, u32 count)
{
	u32 bulk_len = 0, i;

	for (i = 0; i < count; i++) {
		netmem_ref netmem = netmem_compound_head(data[i]);

		if (unlikely(!netmem_is_pp(netmem) || !netmem_get_pp(netmem))) {
			netmem_ref niov = page_pool_bulk_bound(netmem);

			if (!niov) {
				ppcore_count_misuse(PPCORE_MISUSE_NOT_PP_PAGE);
				WARN(1, "page_pool: bulk put of a page no page_pool owns (%#lx)",
				     (unsigned long)netmem);
				continue;
			}
			netmem = niov;
		}
		if (page_pool_bulk_take_last_ref(netmem))
			data[bulk_len++] = netmem;
	}
	while (bulk_len)
		bulk_len = page_pool_put_bulk_of_first_pool(data, bulk_len);
}

/*
 * Linux 6.12's bulk put, with its accounting: one napi-local decision, and
 * every page for the ring in one producer round, so ring_full counts once
 * per call however many pages find the ring full (v6.14's netmem bulk
 * works in rounds of PAGE_POOL_BULK_SIZE). A page that is not @pool's is
 * refused as a single put would refuse it (__page_pool_put_misdirected():
 * reported, left as it is).
 */
void page_pool_put_page_bulk(struct page_pool *pool, void **data, int count)
{
	netmem_ref *bulk = (netmem_ref *)data;
	u32 bulk_len = 0;
	bool allow_direct;
	int i;

	_Static_assert(sizeof(netmem_ref) == sizeof(void *), "netmems in place of pointers");
	if (count <= 0)
		return;
	allow_direct = page_pool_napi_local(pool);
	for (i = 0; i < count; i++) {
		netmem_ref netmem = page_to_netmem(virt_to_head_page(data[i]));

		if (unlikely(netmem_get_pp(netmem) != pool)) {
			__page_pool_put_misdirected(pool, netmem, -1, false);
			continue;
		}
		/* Not the last user of a fragmented page. */
		if (!page_pool_bulk_take_last_ref(netmem))
			continue;
		netmem = __page_pool_put_page(pool, netmem, -1, allow_direct);
		if (netmem)
			bulk[bulk_len++] = netmem;
	}
	if (bulk_len)
		page_pool_recycle_ring_bulk(pool, bulk, bulk_len);
}

