/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool allocation, as the kernel's: the alloc cache (its inline pop
 * is in <net/page_pool/helpers.h>), its refill from the return ring
 * (src/core/ring.h), and the slow path - a bulk of pages from the page
 * allocator, each DMA-mapped once for its whole life in the pool, linked
 * to the pool (pp info) and counted in flight (hold count). Only the
 * pool's consumer context allocates.
 */

#include <string.h>

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/error-injection.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/topology.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

#include "core/core_internal.h"
#include "core/dma_track.h"
#include "core/lifecycle.h"
#include "core/ring.h"

/* Refill the empty alloc cache from the lanes and the ring; returns one
 * netmem or 0. */
static noinline netmem_ref page_pool_refill_alloc_cache(struct page_pool *pool)
{
	netmem_ref netmem = 0;
	int pref_nid;

	/* The consumer's node is stable while it runs (softirq in the kernel,
	 * one thread per CPU id here). */
	pref_nid = (pool->p.nid == NUMA_NO_NODE) ? numa_mem_id() : pool->p.nid;

	page_pool_ring_refill(pool, pref_nid);
	if (likely(pool->alloc.count > 0)) {
		netmem = pool->alloc.cache[--pool->alloc.count];
		alloc_stat_inc(pool, refill);
	}
	return netmem;
}

void __page_pool_dma_sync_for_device(const struct page_pool *pool, netmem_ref netmem,
				     u32 dma_sync_size)
{
	dma_addr_t dma_addr = page_pool_get_dma_addr_netmem(netmem);

	dma_sync_size = min(dma_sync_size, pool->p.max_len);
	__dma_sync_single_for_device(pool->p.dev, dma_addr + pool->p.offset,
				     dma_sync_size, pool->p.dma_dir);
}

static bool page_pool_dma_map(struct page_pool *pool, netmem_ref netmem, gfp_t gfp)
{
	dma_addr_t dma;

	(void)gfp;
	/* Map once for the page's whole life in the pool; the sync is ours. */
	dma = dma_map_page_attrs(pool->p.dev, netmem_to_page(netmem), 0,
				 PAGE_SIZE << pool->p.order, pool->p.dma_dir,
				 DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING);
	if (dma_mapping_error(pool->p.dev, dma))
		return false;

	if (page_pool_set_dma_addr_netmem(netmem, dma)) {
		WARN_ONCE(1, "unexpected DMA address");
		goto unmap_failed;
	}
	/* Recorded, so destroy can unmap it if it is still out then. */
	if (ppcore_dma_tracked(pool) && ppcore_track_mapped(pool, netmem))
		goto unset_failed;

	/* A fresh mapping is synced for the whole area the device may use. */
	page_pool_dma_sync_for_device(pool, netmem, pool->p.max_len);
	return true;

unset_failed:
	page_pool_set_dma_addr_netmem(netmem, 0);
unmap_failed:
	ppcore_dma_unmap_page(pool, dma);
	return false;
}

static __always_inline bool __page_pool_set_pp_info(struct page_pool *pool,
						      netmem_ref netmem)
{
	/* The page -> pool link (an item, for ITEMS tracking). */
	if (!ppcore_track_attach(pool, netmem))
		return false;
	netmem_or_pp_magic(netmem, PP_SIGNATURE);
	/* Every page starts as one fragment (see page_pool_unref_netmem()). */
	page_pool_fragment_netmem(netmem, 1);
	if (pool->has_init_callback)
		pool->slow.init_callback(netmem, pool->slow.init_arg);
	return true;
}

bool page_pool_set_pp_info(struct page_pool *pool, netmem_ref netmem)
{
	return __page_pool_set_pp_info(pool, netmem);
}

/* A page that got the pool's link but no mapping: give both back. */
static void page_pool_drop_unmapped(struct page_pool *pool, netmem_ref netmem)
{
	ppcore_track_detach(pool, netmem);
	page_pool_clear_pp_info(netmem);
	put_page(netmem_to_page(netmem));
}

static struct page *__page_pool_alloc_page_order(struct page_pool *pool, gfp_t gfp)
{
	struct page *page;

	gfp |= __GFP_COMP;
	page = alloc_pages_node(pool->p.nid, gfp, pool->p.order);
	if (unlikely(!page))
		return NULL;

	/* The pool's link (item) first: tracking records the mapping in it. */
	if (unlikely(!__page_pool_set_pp_info(pool, page_to_netmem(page)))) {
		put_page(page);
		return NULL;
	}
	if (pool->dma_map && unlikely(!page_pool_dma_map(pool, page_to_netmem(page), gfp))) {
		page_pool_drop_unmapped(pool, page_to_netmem(page));
		return NULL;
	}

	alloc_stat_inc(pool, slow_high_order);
	page_pool_hold_inc(pool);
	return page;
}

/* The cache is empty: bulk-allocate PP_ALLOC_CACHE_REFILL pages, map each
 * once, keep them in the cache and hand out the last one. */
static noinline netmem_ref __page_pool_alloc_pages_slow(struct page_pool *pool, gfp_t gfp)
{
	const int bulk = PP_ALLOC_CACHE_REFILL;
	unsigned int pp_order = pool->p.order;
	bool dma_map = pool->dma_map;
	netmem_ref netmem;
	int i, nr_pages;

	/* From NAPI a failure report is useless: never warn. */
	if ((gfp & GFP_ATOMIC) == GFP_ATOMIC)
		gfp |= __GFP_NOWARN;

	if (unlikely(pp_order))
		return page_to_netmem(__page_pool_alloc_page_order(pool, gfp));

	if (unlikely(pool->alloc.count > 0))
		return pool->alloc.cache[--pool->alloc.count];

	/* alloc_pages_bulk_node() fills the NULL slots. */
	memset(&pool->alloc.cache, 0, sizeof(void *) * bulk);
	nr_pages = (int)alloc_pages_bulk_node(gfp, pool->p.nid, bulk,
					      (struct page **)pool->alloc.cache);
	if (unlikely(!nr_pages))
		return 0;

	for (i = 0; i < nr_pages; i++) {
		netmem = pool->alloc.cache[i];
		if (unlikely(!__page_pool_set_pp_info(pool, netmem))) {
			put_page(netmem_to_page(netmem));
			continue;
		}
		if (dma_map && unlikely(!page_pool_dma_map(pool, netmem, gfp))) {
			page_pool_drop_unmapped(pool, netmem);
			continue;
		}
		/* Home in the cache, mapped and synced: a transition in (the
		 * last one goes out again below, through the caller's out). */
		ppcore_netmem_in(pool, netmem);
		pool->alloc.cache[pool->alloc.count++] = netmem;
		page_pool_hold_inc(pool);
	}

	if (likely(pool->alloc.count > 0)) {
		netmem = pool->alloc.cache[--pool->alloc.count];
		alloc_stat_inc(pool, slow);
	} else {
		netmem = 0;
	}
	return netmem;
}

/* Everything page_pool_alloc_netmems() does past its inline fast path. */
static __always_inline netmem_ref __page_pool_alloc_netmems_consumer(struct page_pool *pool,
								     gfp_t gfp, unsigned long ip)
{
	netmem_ref netmem;

	/* Allocating from a destroyed pool would take pages nobody will
	 * ever free (the cache was emptied for the last time). */
	if (WARN(READ_ONCE(pool->destroy_cnt), "page_pool %u: allocation after destroy",
		 pool->user.id))
		return 0;
	if (pool->alloc.count) {
		netmem = pool->alloc.cache[--pool->alloc.count];
		alloc_stat_inc(pool, fast);
	} else {
		/* Only the debug build's guard has a test that needs to
		 * hold the consumer here; the release refill pays nothing. */
		if (IS_ENABLED(CONFIG_DEBUG_NET))
			ppcore_hook(PP_HOOK_ALLOC_REFILL, pool);
		netmem = page_pool_refill_alloc_cache(pool);
	}
	if (!netmem) {
		if (static_branch_unlikely(&page_pool_mem_providers) && pool->mp_ops)
			netmem = pool->mp_ops->alloc_netmems(pool, gfp);
		else
			netmem = __page_pool_alloc_pages_slow(pool, gfp);
		if (!netmem)
			return 0;
	}
	/* Out of the pool (home state); pp_ref_count is 1 already. */
	__page_pool_home_leave(netmem);
	ppcore_netmem_out(pool, netmem, ip);
	return netmem;
}

static __always_inline netmem_ref __page_pool_alloc_netmems_ip(struct page_pool *pool, gfp_t gfp,
								unsigned long ip)
{
	netmem_ref netmem;

	if (!ppcore_consumer_enter(pool, "allocation"))
		return 0;
	netmem = __page_pool_alloc_netmems_consumer(pool, gfp, ip);
	ppcore_consumer_exit(pool);
	return netmem;
}

/* The take site is the caller's: with the inline fast path in the caller
 * (helpers.h), the driver's own code. */
__ppcore_take_site netmem_ref __page_pool_alloc_netmems_slow(struct page_pool *pool, gfp_t gfp)
{
	return __page_pool_alloc_netmems_ip(pool, gfp, PPCORE_RET_IP);
}

/* For the fragment allocator (frag.c), which has its own caller's ip. */
netmem_ref ppcore_alloc_netmems_ip(struct page_pool *pool, gfp_t gfp, unsigned long ip)
{
	return __page_pool_alloc_netmems_ip(pool, gfp, ip);
}

/*
 * A page allocation (page_pool_alloc_pages(), page_pool_alloc(),
 * page_pool_alloc_frag() and the helpers over them) from a pool whose
 * memory provider hands out net_iovs: there is no struct page to return.
 * The kernel's netmem_to_page() WARNs once and returns NULL, and the net_iov
 * it took stays out for good (the pool is never freed, the provider stays
 * busy). Here it goes straight back to the pool: nothing is lost, and the
 * caller gets NULL with a WARN as in the kernel. The check costs the page
 * allocators nothing: netmem_to_page() tested the NET_IOV bit already.
 */
struct page *__page_pool_alloc_unreadable(struct page_pool *pool, netmem_ref netmem)
{
	WARN_ONCE(1, "page_pool %u: page allocation from a pool of net_iovs (memory provider); use the netmem API",
		  pool->user.id);
	/* A whole netmem has just left the alloc cache (or the refill that
	 * put the rest there): the allocating context owns the cache, so
	 * undo the pop, as if it never happened - no sync, no ring. */
	if (netmem != pool->frag_page &&
	    atomic_long_read(netmem_get_pp_ref_count_ref(netmem)) == 1 &&
	    ppcore_consumer_enter(pool, "allocation")) {
		/* Just out, no put since: home again. */
		bool undone = pool->alloc.count < PP_ALLOC_CACHE_SIZE &&
			      __page_pool_home_direct(netmem);

		if (undone) {
			ppcore_netmem_in(pool, netmem);
			pool->alloc.cache[pool->alloc.count++] = netmem;
		}
		ppcore_consumer_exit(pool);
		if (undone)
			return NULL;
	}
	/* A fragment: its reference goes back as a user's put would. */
	page_pool_put_full_netmem(pool, netmem, false);
	return NULL;
}

/* The exported bodies; calls go to the inline copies in helpers.h. A call
 * through their address, in the builds that record the take site, records
 * its caller, not this body. */
__ppcore_take_site netmem_ref (page_pool_alloc_netmems)(struct page_pool *pool, gfp_t gfp)
{
	if (__PP_FASTPATH_IN_LIBRARY)
		return __page_pool_alloc_netmems_ip(pool, gfp, PPCORE_RET_IP);
	return __page_pool_alloc_netmems_inline(pool, gfp);
}

/* fail_function may make it return NULL (pp_fail_function_inject()), as
 * the kernel allows; helpers.h's calls come here while a function is
 * armed, and the check below is the kernel's kprobe on its entry. */
ALLOW_ERROR_INJECTION(page_pool_alloc_pages, NULL);

__ppcore_take_site struct page *(page_pool_alloc_pages)(struct page_pool *pool, gfp_t gfp)
{
	netmem_ref netmem;

	if (pp_error_inject_should_fail(&__pp_eil_page_pool_alloc_pages))
		return NULL;
	if (!__PP_FASTPATH_IN_LIBRARY)
		return __page_pool_alloc_pages_inline(pool, gfp);
	netmem = __page_pool_alloc_netmems_ip(pool, gfp, PPCORE_RET_IP);
	if (unlikely(netmem_is_net_iov(netmem)))
		return __page_pool_alloc_unreadable(pool, netmem);
	return __netmem_to_page(netmem);
}

