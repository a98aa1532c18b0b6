/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool destroy and the way out of the pool: a page's return to the
 * page allocator (unmap, DMA tracking, release count) and inflight
 * accounting; destroy drops the driver's reference, stops direct recycling,
 * give back the frag page, scrub (empty the alloc cache once, stop DMA
 * syncs, empty the ring), and free the pool when no page is in flight;
 * otherwise retry from delayed work until the last page comes home,
 * warning periodically about pools user space cannot see.
 *
 * Lifetime rule: the pool is freed by whichever release finds
 * inflight == 0, and only after taking the producer lock once, so a
 * recycler still inside page_pool_recycle_in_ring() (which holds that
 * lock) has left it (the kernel's fix for the syzbot UAF, 271683bb2cf3).
 * The pool's memory itself goes after an RCU grace period (bulk returns
 * into a lane run bh-disabled, an RCU reader). A single put into a lane
 * holds neither: its publishing store is its last access to the pool
 * (page_pool_lane_produce() in ring.h; tests/core/test_destroy.c races it).
 */

#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>
#include <pagepool/core.h>

#include "core/core_internal.h"
#include "core/home.h"
#include "core/dma_track.h"
#include "core/lifecycle.h"
#include "core/ring.h"

unsigned int ppcore_defer_time_ms = 1000;	/* DEFER_TIME */
unsigned int ppcore_defer_warn_ms = 60 * 1000;	/* DEFER_WARN_INTERVAL */

void pp_page_pool_set_defer_times(unsigned int retry_ms, unsigned int warn_ms)
{
	if (retry_ms)
		WRITE_ONCE(ppcore_defer_time_ms, retry_ms);
	if (warn_ms)
		WRITE_ONCE(ppcore_defer_warn_ms, warn_ms);
}

static unsigned long defer_time(void)
{
	return msecs_to_jiffies(READ_ONCE(ppcore_defer_time_ms));
}

static unsigned long defer_warn_interval(void)
{
	return msecs_to_jiffies(READ_ONCE(ppcore_defer_warn_ms));
}

static void __page_pool_destroy(struct page_pool *pool)
{
	if (pool->disconnect)
		pool->disconnect(pool);
	page_pool_unlist(pool);
	page_pool_uninit(pool);
	ppcore_free(pool);
}

static void page_pool_empty_alloc_cache(struct page_pool *pool)
{
	netmem_ref netmem;

	/* The consumer is gone (the driver's contract for destroy). */
	while (pool->alloc.count) {
		netmem = pool->alloc.cache[--pool->alloc.count];
		page_pool_return_page(pool, netmem);
	}
}

static void page_pool_empty_alloc_cache_once(struct page_pool *pool)
{
	if (pool->destroy_cnt)
		return;
	page_pool_empty_alloc_cache(pool);
	/* From now on a direct recycle would land in a dead cache. */
	WRITE_ONCE(pool->dying, true);
	ppcore_hook(PP_HOOK_DESTROY_CACHE_EMPTIED, pool);
}

/*
 * Grace periods destroy owes, when pages are still out:
 *   WAIT_DMA   syncs for the device stopped: wait for recyclers that saw
 *              the old value, unmap what is still mapped (DMA tracking),
 *              wait for releases that claimed a mapping first;
 *   WAIT_NAPI  the napi_local fix: wait for a put that decided napi-local
 *              before direct recycling was disabled, then empty the alloc
 *              cache again (its page may be there now).
 * As in the kernel (and Yunsheng Lin's fix in its last form), nothing is
 * waited for when no page is out: destroy from softirq - the kernel's
 * bench module destroys its pool in a tasklet - then waits for nothing.
 * With pages out, waiting is not possible in atomic context (the kernel
 * would report sleeping there); the waits then move to the release work,
 * which runs at once in process context, and destroy WARNs once.
 */
#define PP_DESTROY_WAIT_DMA	0x1
#define PP_DESTROY_WAIT_NAPI	0x2

static bool page_pool_destroy_may_wait(void)
{
	return !in_atomic() && !rcu_read_lock_held();
}

static void page_pool_scrub(struct page_pool *pool)
{
	if (!pool->destroy_cnt && pool->dma_map &&
	    ((READ_ONCE(pool->dma_sync) && dma_dev_need_sync(pool->p.dev)) ||
	     ppcore_dma_tracked(pool))) {
		/* Stop syncing for the device ("skip dma sync operation for
		 * inflight pages"); recyclers sync inside an RCU read
		 * section, so a grace period lets those that saw the old
		 * value finish before anything is unmapped. */
		WRITE_ONCE(pool->dma_sync, false);
		pool->destroy_wait |= PP_DESTROY_WAIT_DMA;
	}
	/* The ring first: a duplicate put in it of a page in the cache is
	 * dropped before the page is released. */
	if (!pool->destroy_cnt)
		page_pool_empty_ring(pool);
	page_pool_empty_alloc_cache_once(pool);
	WRITE_ONCE(pool->destroy_cnt, pool->destroy_cnt + 1);

	if (pool->destroy_wait & PP_DESTROY_WAIT_DMA) {
		/* A page in the ring was synced before it was produced: give
		 * those back first, so only pages still out need a wait. */
		page_pool_empty_ring(pool);
		if (page_pool_inflight(pool, false) == 0) {
			pool->destroy_wait &= ~PP_DESTROY_WAIT_DMA;
		} else if (page_pool_destroy_may_wait()) {
			synchronize_net();
			if (ppcore_dma_tracked(pool)) {
				/* Unmap every page still mapped while the
				 * device is bound; then wait for releases
				 * that claimed a mapping first and are
				 * unmapping it now, so none is left when
				 * destroy returns and the driver unbinds. */
				ppcore_track_unmap_all(pool);
				synchronize_net();
			}
			pool->destroy_wait &= ~PP_DESTROY_WAIT_DMA;
		}
	}
	/* No consumer any more, but producers may still be adding. */
	page_pool_empty_ring(pool);
}

/* Returns the pages still in flight; 0 means the pool was freed. */
static int page_pool_release(struct page_pool *pool)
{
	int inflight;

	page_pool_scrub(pool);
	inflight = page_pool_inflight(pool, true);
	if (pool->destroy_wait & PP_DESTROY_WAIT_NAPI) {
		/* No page out: no put can be racing with us. */
		if (inflight <= 0) {
			pool->destroy_wait &= ~PP_DESTROY_WAIT_NAPI;
		} else if (page_pool_destroy_may_wait()) {
			ppcore_hook(PP_HOOK_DESTROY_SYNC_BEGIN, pool);
			synchronize_rcu();
			pool->destroy_wait &= ~PP_DESTROY_WAIT_NAPI;
			page_pool_empty_alloc_cache(pool);
			inflight = page_pool_inflight(pool, true);
		}
	}
	/* Wait for producers still inside the ring's critical section. */
	page_pool_ring_sync_producers(pool);
	if (!inflight)
		__page_pool_destroy(pool);
	return inflight;
}

static void page_pool_release_retry(struct work_struct *wq)
{
	struct delayed_work *dwq = to_delayed_work(wq);
	struct page_pool *pool = container_of(dwq, struct page_pool, release_dw);
	void *netdev;
	int inflight;

	inflight = page_pool_release(pool);
	/* 0: freed. Negative: an accounting bug; it never recovers. */
	if (inflight <= 0)
		return;

	/* Periodic warning, only for pools user space cannot see. */
	netdev = READ_ONCE(pool->slow.netdev);
	if (time_after_eq(jiffies, pool->defer_warn) &&
	    (!netdev || netdev == NET_PTR_POISON)) {
		int sec = (s32)((u32)jiffies - (u32)pool->defer_start) / HZ;

		pr_warn("%s() stalled pool shutdown: id %u, %d inflight %d sec\n",
			__func__, pool->user.id, inflight, sec);
#if IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)
		/* Who holds them: one line per take site. */
		ppcore_holders_warn(pool);
#endif
		pool->defer_warn = jiffies + defer_warn_interval();
	}

	schedule_delayed_work(&pool->release_dw, defer_time());
}

void page_pool_destroy(struct page_pool *pool)
{
	bool napi_local_possible;

	if (!pool)
		return;
	if (!page_pool_put(pool))
		return;

	/* Only a pool with a NAPI or an owner CPU can be napi-local. */
	napi_local_possible = READ_ONCE(pool->p.napi) || READ_ONCE(pool->cpuid) >= 0;
	page_pool_disable_direct_recycling(pool);
	ppcore_hook(PP_HOOK_DESTROY_DIRECT_DISABLED, pool);
	/* The napi_local fix: a put that decided napi_local() before direct
	 * recycling was disabled is still inside its RCU read-side section
	 * and may push into the cache after the release below emptied it:
	 * the release waits a grace period for it if pages are out. */
	if (napi_local_possible && ppcore_fix_on(PP_FIX_NAPI_LOCAL_RCU))
		pool->destroy_wait |= PP_DESTROY_WAIT_NAPI;
	page_pool_free_frag(pool);

	if (!page_pool_release(pool))
		return;

	page_pool_detached(pool);
	pool->defer_start = jiffies;
	pool->defer_warn = jiffies + defer_warn_interval();

	INIT_DELAYED_WORK(&pool->release_dw, page_pool_release_retry);
	if (pool->destroy_wait) {
		/* Pages are out and we could not wait here. */
		WARN_ONCE(1, "page_pool %u: destroyed in atomic context with pages in flight; "
			  "its grace periods and DMA unmapping run from the release work",
			  pool->user.id);
		schedule_delayed_work(&pool->release_dw, 0);
		return;
	}
	schedule_delayed_work(&pool->release_dw, defer_time());
}

/* Releasing a page to the page allocator, and inflight accounting. */

static void __page_pool_release_netmem_dma(struct page_pool *pool, netmem_ref netmem)
{
	dma_addr_t dma;

	if (!pool->dma_map)
		return;
	/* Read first: a claimer that is not us (destroy's scrub) holds no
	 * page reference and may clear it once it wins. */
	dma = page_pool_get_dma_addr_netmem(netmem);
	if (ppcore_dma_tracked(pool)) {
		/* Unmap only if destroy did not do it already; inside an RCU
		 * read-side section, so destroy can wait for a claim-and-unmap
		 * in progress before the driver unbinds the device. (Softirq
		 * already is one.) */
		bool rcu = !in_softirq();

		if (rcu)
			rcu_read_lock();
		if (ppcore_track_claim_unmap(pool, netmem))
			ppcore_dma_unmap_page(pool, dma);
		if (rcu)
			rcu_read_unlock();
		netmem_set_dma_index(netmem, 0);
	} else {
		ppcore_dma_unmap_page(pool, dma);
	}
	page_pool_set_dma_addr_netmem(netmem, 0);
}

/*
 * The netmem leaves the pool for good: unmap (or hand it to its memory
 * provider), count the release, and put the page. After the release count
 * moves, a concurrent destroy may free the pool: do not touch it again.
 */
void page_pool_return_page(struct page_pool *pool, netmem_ref netmem)
{
	bool put = true;

	/* The holder let it go (a deferred release below stays let go). */
	ppcore_netmem_release(pool, netmem);
	/* A duplicate put of it still waits in a ring (reported when it
	 * is taken out): the page stays the pool's, in flight, until the
	 * owner takes that put out and releases it then, rather than go to
	 * the page allocator while the put names it. */
	if (unlikely(!page_pool_home_releasable(netmem)) && page_pool_home_defer_release(netmem))
		return;

	if (static_branch_unlikely(&page_pool_mem_providers) && pool->mp_ops)
		put = pool->mp_ops->release_netmem(pool, netmem);
	else
		__page_pool_release_netmem_dma(pool, netmem);
	ppcore_track_detach(pool, netmem);

	/* R1 (release; atomic_inc_return() is fully ordered): the thread that
	 * sees this count and frees the pool sees our accesses to it as done.
	 * Pairs with R1' in page_pool_inflight(). */
	atomic_inc_return(&pool->pages_state_release_cnt);

	if (put) {
		page_pool_clear_pp_info(netmem);
		put_page(netmem_to_page(netmem));
	}
}

/* Serial-number distance of two u32 counters, valid below 2^31. */
#define _distance(a, b)	((s32)((a) - (b)))

s32 page_pool_inflight(const struct page_pool *pool, bool strict)
{
	u32 release_cnt = (u32)atomic_read_acquire(&pool->pages_state_release_cnt); /* R1' */
	u32 hold_cnt = READ_ONCE(pool->pages_state_hold_cnt);
	s32 inflight = _distance(hold_cnt, release_cnt);

	if (strict)
		WARN(inflight < 0, "Negative(%d) inflight packet-pages", inflight);
	else
		inflight = max(0, inflight);
	return inflight;
}
