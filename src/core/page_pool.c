/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool: creation, allocation (alloc cache, ring refill, slow path from
 * the page allocator with DMA mapping), recycling (direct into the cache,
 * through the ring, or back to the page allocator), bulk recycling,
 * fragments, and the napi-local rule. The algorithm and its statistics are
 * the kernel's (net/core/page_pool.c, netmem-based); destroy and the
 * deferred release are in release.c, the registry in registry.c.
 *
 * Layout of responsibilities on the recycle path:
 *   put (any context) -> __page_pool_put_page(): recyclable? sync for
 *   device; direct -> alloc cache | else -> ring (producer lock) | ring full
 *   or not recyclable -> ppcore_return_netmem() -> page allocator.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

#include "core/core_internal.h"
#include "core/dma_track.h"

DEFINE_STATIC_KEY_FALSE(page_pool_mem_providers);

/* Frag bias: a fresh frag page holds this many references, so that each
 * fragment's put is one atomic and the page is drained once at the end. */
#define BIAS_MAX	(LONG_MAX >> 1)

/* Ring design for new pools; PAGEPOOL_RING=lanes|ptr_ring sets it first. */
static int ring_mode = -1;

static int default_ring_mode(void)
{
	int mode = READ_ONCE(ring_mode);

	if (mode < 0) {
		const char *env = getenv("PAGEPOOL_RING");

		mode = env && !strcmp(env, "ptr_ring") ? PP_RING_PTR_RING : PP_RING_LANES;
		WRITE_ONCE(ring_mode, mode);
	}
	return mode;
}

int pp_page_pool_set_ring_mode(int mode)
{
	int old = default_ring_mode();

	if (mode != PP_RING_LANES && mode != PP_RING_PTR_RING)
		return -EINVAL;
	WRITE_ONCE(ring_mode, mode);
	return old;
}

/* DMA tracking design for new pools; PAGEPOOL_DMA_TRACKING sets it first. */
static int dma_tracking_mode = -1;

static int default_dma_tracking(void)
{
	int mode = READ_ONCE(dma_tracking_mode);

	if (mode < 0) {
		const char *env = getenv("PAGEPOOL_DMA_TRACKING");

		mode = PP_DMA_TRACK_INDEX;
		if (env && !strcmp(env, "items"))
			mode = PP_DMA_TRACK_ITEMS;
		else if (env && !strcmp(env, "off"))
			mode = PP_DMA_TRACK_OFF;
		WRITE_ONCE(dma_tracking_mode, mode);
	}
	return mode;
}

int pp_page_pool_set_dma_tracking(int mode)
{
	int old = default_dma_tracking();

	if (mode != PP_DMA_TRACK_INDEX && mode != PP_DMA_TRACK_ITEMS && mode != PP_DMA_TRACK_OFF)
		return -EINVAL;
	WRITE_ONCE(dma_tracking_mode, mode);
	return old;
}

unsigned int ppcore_fixes = PP_FIX_NAPI_LOCAL_RCU;

unsigned int pp_page_pool_set_fixes(unsigned int mask)
{
	return __atomic_exchange_n(&ppcore_fixes, mask, __ATOMIC_RELAXED);
}

#ifdef CONFIG_PAGEPOOL_TEST_HOOKS
pp_page_pool_hook_fn ppcore_hook_fn;
static void *ppcore_hook_arg;

int pp_page_pool_set_test_hook(pp_page_pool_hook_fn fn, void *arg)
{
	WRITE_ONCE(ppcore_hook_arg, arg);
	__atomic_store_n(&ppcore_hook_fn, fn, __ATOMIC_RELEASE);
	return 0;
}

void ppcore_run_hook(enum pp_page_pool_hook point, struct page_pool *pool)
{
	pp_page_pool_hook_fn fn = __atomic_load_n(&ppcore_hook_fn, __ATOMIC_ACQUIRE);

	if (fn)
		fn(point, pool, READ_ONCE(ppcore_hook_arg));
}
#else
int pp_page_pool_set_test_hook(pp_page_pool_hook_fn fn, void *arg)
{
	(void)fn;
	(void)arg;
	return -EOPNOTSUPP;
}
#endif

/*
 * The consumer-side guard of a CONFIG_DEBUG_NET build. The alloc cache and
 * the fragment state are lockless: the kernel's contract is that one
 * context at a time (the pool's NAPI poll) allocates and recycles
 * directly. A direct recycle or an allocation from another thread while
 * the consumer runs corrupts them - pages handed out twice, a cache count
 * past PP_ALLOC_CACHE_SIZE (issue 12, finding 5) - and the kernel does not
 * check. Here, in the debug build, every consumer operation enters the
 * guard (a compare-and-exchange of the thread's identity; nested entries
 * by the same thread are counted): a second thread finding it taken is
 * the misuse. It is counted (concurrent_consumer), reported (one WARN per
 * pool), and made harmless: a direct recycle takes the ring instead, an
 * allocation fails (NULL, as under memory pressure), a NUMA update leaves
 * the cache alone. The release build has none of this: the checks would
 * cost the fast paths an atomic each.
 */
#ifdef CONFIG_DEBUG_NET
static bool ppcore_consumer_enter(struct page_pool *pool, const char *what)
{
	void *me = (void *)&__pp_ctx, *owner = NULL;

	if (__atomic_compare_exchange_n(&pool->dbg_consumer, &owner, me, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		pool->dbg_consumer_depth = 1;
		return true;
	}
	if (owner == me) {
		pool->dbg_consumer_depth++;
		return true;
	}
	ppcore_count_misuse(PPCORE_MISUSE_CONCURRENT_CONSUMER);
	if (!__atomic_exchange_n(&pool->dbg_consumer_warned, true, __ATOMIC_RELAXED))
		WARN(1, "page_pool %u: %s while another context is in the pool's consumer side (only its NAPI context may allocate or recycle directly)",
		     pool->user.id, what);
	return false;
}

static void ppcore_consumer_exit(struct page_pool *pool)
{
	if (!--pool->dbg_consumer_depth)
		__atomic_store_n(&pool->dbg_consumer, NULL, __ATOMIC_RELEASE);
}
#else
static __always_inline bool ppcore_consumer_enter(struct page_pool *pool, const char *what)
{
	(void)pool;
	(void)what;
	return true;
}

static __always_inline void ppcore_consumer_exit(struct page_pool *pool)
{
	(void)pool;
}
#endif

/* System pools share one per-CPU statistics object, as in the kernel. */
static struct page_pool_recycle_stats __percpu *pp_system_recycle_stats;
static DEFINE_MUTEX(system_stats_lock);

static bool page_pool_producer_lock(struct page_pool *pool)
{
	bool in_softirq = in_softirq();

	if (in_softirq)
		spin_lock(&pool->ring.producer_lock);
	else
		spin_lock_bh(&pool->ring.producer_lock);
	return in_softirq;
}

static void page_pool_producer_unlock(struct page_pool *pool, bool in_softirq)
{
	if (in_softirq)
		spin_unlock(&pool->ring.producer_lock);
	else
		spin_unlock_bh(&pool->ring.producer_lock);
}

static int page_pool_stats_init(struct page_pool *pool)
{
#ifdef CONFIG_PAGE_POOL_STATS
	if (!(pool->slow.flags & PP_FLAG_SYSTEM_POOL)) {
		pool->recycle_stats = alloc_percpu(struct page_pool_recycle_stats);
		return pool->recycle_stats ? 0 : -ENOMEM;
	}
	mutex_lock(&system_stats_lock);
	if (!pp_system_recycle_stats)
		pp_system_recycle_stats = alloc_percpu(struct page_pool_recycle_stats);
	pool->recycle_stats = pp_system_recycle_stats;
	mutex_unlock(&system_stats_lock);
	pool->system = true;
	return pool->recycle_stats ? 0 : -ENOMEM;
#else
	pool->system = !!(pool->slow.flags & PP_FLAG_SYSTEM_POOL);
	return 0;
#endif
}

static void page_pool_stats_uninit(struct page_pool *pool)
{
#ifdef CONFIG_PAGE_POOL_STATS
	if (!pool->system)
		free_percpu(pool->recycle_stats);
#endif
}

static int page_pool_init(struct page_pool *pool, const struct page_pool_params *params,
			  int cpuid)
{
	unsigned int ring_qsize = PAGE_POOL_DEFAULT_RING_SIZE;
	struct netdev_rx_queue *rxq;
	int err;

	memcpy(&pool->p, &params->fast, sizeof(pool->p));
	memcpy(&pool->slow, &params->slow, sizeof(pool->slow));

	pool->cpuid = cpuid;
	pool->dma_sync_for_cpu = true;

	if (pool->slow.flags & ~PP_FLAG_ALL)
		return -EINVAL;

	if (pool->p.pool_size)
		ring_qsize = min(pool->p.pool_size, (unsigned int)PAGE_POOL_MAX_RING_SIZE);

	/* DMA_FROM_DEVICE, or DMA_BIDIRECTIONAL for XDP_TX. */
	if (pool->slow.flags & PP_FLAG_DMA_MAP) {
		if (pool->p.dma_dir != DMA_FROM_DEVICE &&
		    pool->p.dma_dir != DMA_BIDIRECTIONAL)
			return -EINVAL;
		/* NULL or an unchecked ERR_PTR() (a failed device creation). */
		if (IS_ERR_OR_NULL(pool->p.dev))
			return -EINVAL;
		pool->dma_map = true;
	}

	if (pool->slow.flags & PP_FLAG_DMA_SYNC_DEV) {
		/* Syncing for the device needs a mapping and a length. */
		if (!(pool->slow.flags & PP_FLAG_DMA_MAP))
			return -EINVAL;
		if (!pool->p.max_len)
			return -EINVAL;
		pool->dma_sync = true;
	}

	pool->has_init_callback = !!pool->slow.init_callback;

	err = page_pool_stats_init(pool);
	if (err)
		return err;

	if (ptr_ring_init(&pool->ring, (int)ring_qsize, GFP_KERNEL) < 0) {
		err = -ENOMEM;
		goto err_free_stats;
	}
	if (default_ring_mode() == PP_RING_LANES) {
		pool->lanes = kcalloc(NR_CPUS, sizeof(*pool->lanes), GFP_KERNEL);
		if (!pool->lanes) {
			err = -ENOMEM;
			goto err_free_ring;
		}
		/* The lanes and the shared ring together hold at most what
		 * the kernel's ring would (struct pp_lane). */
		atomic64_set(&pool->ring_credits, (s64)ring_qsize);
	}

	pool->dma_tracking = (u8)default_dma_tracking();
	err = ppcore_track_init(pool);
	if (err)
		goto err_free_ring;

	atomic_set(&pool->pages_state_release_cnt, 0);
	/* The driver calling page_pool_create() also calls page_pool_destroy(). */
	refcount_set(&pool->user_cnt, 1);

	if (pool->slow.flags & PP_FLAG_ALLOW_UNREADABLE_NETMEM) {
		if (!pool->slow.netdev ||
		    pool->slow.queue_idx >= pool->slow.netdev->num_rx_queues) {
			err = -EINVAL;
			goto err_free_ring;
		}
		rxq = __netif_get_rx_queue(pool->slow.netdev, pool->slow.queue_idx);
		pool->mp_priv = rxq->mp_params.mp_priv;
		pool->mp_ops = rxq->mp_params.mp_ops;
	}

	if (pool->mp_ops) {
		if (!pool->dma_map || !pool->dma_sync) {
			err = -EOPNOTSUPP;
			goto err_free_ring;
		}
		if (WARN_ON(ppcore_mp_check_ops(pool->mp_ops))) {
			err = -EFAULT;
			goto err_free_ring;
		}
		err = pool->mp_ops->init(pool);
		if (err) {
			pr_warn("%s() mem-provider init failed %d\n", __func__, err);
			goto err_free_ring;
		}
		static_branch_inc(&page_pool_mem_providers);
	} else if (pool->p.order > MAX_PAGE_ORDER) {
		err = -EINVAL;
		goto err_free_ring;
	}
	/* The pool syncs and unmaps through the device until it is freed,
	 * its last page home, which may be long after the driver destroyed
	 * the device: hold it that long, as the kernel's page_pool_init()
	 * long did (6.12 has no such reference). Taken last, so that no
	 * error path above has to drop it. */
	if (pool->dma_map)
		get_device(pool->p.dev);
	return 0;

err_free_ring:
	ppcore_track_free(pool);
	kfree(pool->lanes);
	ptr_ring_cleanup(&pool->ring, NULL);
err_free_stats:
	page_pool_stats_uninit(pool);
	return err;
}

static void page_pool_free_lanes(struct page_pool *pool)
{
	int cpu;

	if (!pool->lanes)
		return;
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (pool->lanes[cpu]) {
			ptr_ring_cleanup(&pool->lanes[cpu]->ring, NULL);
			kfree(pool->lanes[cpu]);
		}
	}
	kfree(pool->lanes);
}

/* Undo page_pool_init(), part one, when the last page came home: the
 * memory provider is told now. */
void ppcore_uninit(struct page_pool *pool)
{
	if (pool->mp_ops) {
		pool->mp_ops->destroy(pool);
		static_branch_dec(&page_pool_mem_providers);
	}
}

/* page_pool_init()'s device reference. */
static void page_pool_put_device(struct page_pool *pool)
{
	if (pool->dma_map)
		put_device(pool->p.dev);
}

/* Part two, a grace period later: a recycler that saw the pool (it puts
 * inside an RCU read-side section, bh-disabled) may still be finishing
 * its statistics or lane update until then - or a sync or unmap through
 * the device, which the pool's reference keeps until here. */
static void page_pool_free_rcu(struct rcu_head *head)
{
	struct page_pool *pool = container_of(head, struct page_pool, rcu);

	ppcore_track_free(pool);
	page_pool_free_lanes(pool);
	ptr_ring_cleanup(&pool->ring, NULL);
	page_pool_stats_uninit(pool);
	page_pool_put_device(pool);
	kfree(pool);
}

void ppcore_free(struct page_pool *pool)
{
	call_rcu(&pool->rcu, page_pool_free_rcu);
}

struct page_pool *page_pool_create_percpu(const struct page_pool_params *params, int cpuid)
{
	struct page_pool *pool;
	int err;

	pool = kzalloc_node(sizeof(*pool), GFP_KERNEL, params->nid);
	if (!pool)
		return ERR_PTR(-ENOMEM);

	err = page_pool_init(pool, params, cpuid);
	if (err < 0)
		goto err_free;

	err = page_pool_list(pool);
	if (err)
		goto err_uninit;

	return pool;

err_uninit:
	ppcore_uninit(pool);
	page_pool_put_device(pool);
	ppcore_track_free(pool);
	page_pool_free_lanes(pool);
	ptr_ring_cleanup(&pool->ring, NULL);
	page_pool_stats_uninit(pool);
err_free:
	pr_warn("%s() gave up with errno %d\n", __func__, err);
	kfree(pool);
	return ERR_PTR(err);
}

struct page_pool *page_pool_create(const struct page_pool_params *params)
{
	return page_pool_create_percpu(params, -1);
}

/* Allocation. */

/*
 * Move returned pages from @r into the alloc cache, up to the refill
 * target. A page of the wrong NUMA node is given back to the page
 * allocator instead, and ends the refill (the slow path then allocates on
 * the right node, which limits the stress on the page allocator).
 * Returns false on such a waive. Only the consumer runs this, so the
 * ring's consumer side needs no lock.
 */
static bool page_pool_refill_from(struct page_pool *pool, struct ptr_ring *r, int pref_nid,
				  u32 *consumed)
{
	/* One node: no page can be on the wrong one; take them in one pass. */
	if (likely(nr_node_ids <= 1)) {
		u32 n = (u32)__ptr_ring_consume_batched(r,
				(void **)&pool->alloc.cache[pool->alloc.count],
				PP_ALLOC_CACHE_REFILL - (int)pool->alloc.count);

		pool->alloc.count += n;
		*consumed += n;
		return true;
	}
	while (pool->alloc.count < PP_ALLOC_CACHE_REFILL) {
		netmem_ref netmem = (netmem_ref)__ptr_ring_consume(r);

		if (unlikely(!netmem))
			break;
		++*consumed;
		if (likely(netmem_is_pref_nid(netmem, pref_nid))) {
			pool->alloc.cache[pool->alloc.count++] = netmem;
		} else {
			ppcore_return_netmem(pool, netmem);
			alloc_stat_inc(pool, waive);
			return false;
		}
	}
	return true;
}

/* The lanes that exist, starting at the round-robin cursor. */
static bool page_pool_refill_from_lanes(struct page_pool *pool, int pref_nid, u32 *consumed)
{
	unsigned int i, start = pool->lane_cursor;

	for (i = 0; i < ARRAY_SIZE(pool->lane_mask); i++) {
		unsigned int w = (start + i) % ARRAY_SIZE(pool->lane_mask);
		unsigned long bits = READ_ONCE(pool->lane_mask[w]);

		while (bits) {
			int cpu = (int)(w * BITS_PER_LONG + __ffs(bits));
			struct pp_lane *lane = smp_load_acquire(&pool->lanes[cpu]);

			bits &= bits - 1;
			if (!page_pool_refill_from(pool, &lane->ring, pref_nid, consumed))
				return false;
			if (pool->alloc.count >= PP_ALLOC_CACHE_REFILL) {
				pool->lane_cursor = w;
				return true;
			}
		}
	}
	return true;
}

/* Refill the empty alloc cache from the lanes and the ring; returns one
 * netmem or 0. */
static noinline netmem_ref page_pool_refill_alloc_cache(struct page_pool *pool)
{
	netmem_ref netmem = 0;
	u32 consumed = 0;
	int pref_nid;

	/* The consumer's node is stable while it runs (softirq in the kernel,
	 * one thread per CPU id here). */
	pref_nid = (pool->p.nid == NUMA_NO_NODE) ? numa_mem_id() : pool->p.nid;

	if (pool->lanes && !page_pool_refill_from_lanes(pool, pref_nid, &consumed))
		goto out;
	if (pool->alloc.count < PP_ALLOC_CACHE_REFILL) {
		if (__ptr_ring_empty(&pool->ring)) {
			if (!pool->alloc.count)
				alloc_stat_inc(pool, empty);
		} else {
			page_pool_refill_from(pool, &pool->ring, pref_nid, &consumed);
		}
	}
out:
	/* The pages taken out of the lanes and the ring free their credits. */
	if (pool->lanes && consumed)
		ppcore_ring_credits_put(pool, consumed);
	if (likely(pool->alloc.count > 0)) {
		netmem = pool->alloc.cache[--pool->alloc.count];
		alloc_stat_inc(pool, refill);
	}
	return netmem;
}

static void __page_pool_dma_sync_for_device(const struct page_pool *pool,
					    netmem_ref netmem, u32 dma_sync_size)
{
	dma_addr_t dma_addr = page_pool_get_dma_addr_netmem(netmem);

	dma_sync_size = min(dma_sync_size, pool->p.max_len);
	__dma_sync_single_for_device(pool->p.dev, dma_addr + pool->p.offset,
				     dma_sync_size, pool->p.dma_dir);
}

/* dma_sync is cleared by destroy; re-check it inside an RCU section so the
 * destroy path can wait for syncs in progress before it unmaps. */
static __always_inline void page_pool_dma_sync_for_device(const struct page_pool *pool,
							   netmem_ref netmem,
							   u32 dma_sync_size)
{
	if (READ_ONCE(pool->dma_sync) && dma_dev_need_sync(pool->p.dev)) {
		rcu_read_lock();
		if (READ_ONCE(pool->dma_sync))
			__page_pool_dma_sync_for_device(pool, netmem, dma_sync_size);
		rcu_read_unlock();
	}
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
	if (pool->dma_tracked && ppcore_track_mapped(pool, netmem))
		goto unset_failed;

	/* A fresh mapping is synced for the whole area the device may use. */
	page_pool_dma_sync_for_device(pool, netmem, pool->p.max_len);
	return true;

unset_failed:
	page_pool_set_dma_addr_netmem(netmem, 0);
unmap_failed:
	dma_unmap_page_attrs(pool->p.dev, dma, PAGE_SIZE << pool->p.order, pool->p.dma_dir,
			     DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING);
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

void page_pool_clear_pp_info(netmem_ref netmem)
{
	netmem_clear_pp_magic(netmem);
	netmem_set_pp(netmem, NULL);
}

static inline void page_pool_hold_inc(struct page_pool *pool)
{
	/* Written by the consumer only; read by destroy and introspection. */
	WRITE_ONCE(pool->pages_state_hold_cnt, pool->pages_state_hold_cnt + 1);
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
static noinline netmem_ref __page_pool_alloc_netmems_slow(struct page_pool *pool, gfp_t gfp)
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
								     gfp_t gfp)
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
			netmem = __page_pool_alloc_netmems_slow(pool, gfp);
		if (!netmem)
			return 0;
	}
	/* Pages in the pool have pp_ref_count 0; the caller gets one ref. */
	atomic_long_set(netmem_get_pp_ref_count_ref(netmem), 1);
	return netmem;
}

netmem_ref __page_pool_alloc_netmems_slow_path(struct page_pool *pool, gfp_t gfp)
{
	netmem_ref netmem;

	if (!ppcore_consumer_enter(pool, "allocation"))
		return 0;
	netmem = __page_pool_alloc_netmems_consumer(pool, gfp);
	ppcore_consumer_exit(pool);
	return netmem;
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
		bool undone = pool->alloc.count < PP_ALLOC_CACHE_SIZE;

		if (undone) {
			atomic_long_set(netmem_get_pp_ref_count_ref(netmem), 0);
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

/* The exported bodies; calls go to the inline copies in helpers.h. */
netmem_ref (page_pool_alloc_netmems)(struct page_pool *pool, gfp_t gfp)
{
	return __page_pool_alloc_netmems_inline(pool, gfp);
}

struct page *(page_pool_alloc_pages)(struct page_pool *pool, gfp_t gfp)
{
	return __page_pool_alloc_pages_inline(pool, gfp);
}

/* Recycling. */

/*
 * Ring credits (PP_RING_LANES; struct pp_lane explains them). One 64-bit
 * word: the free credits (low half) and the credits lanes may hold unspent
 * (high half, "held"). A lane that takes credits takes what it needs now
 * plus some to keep for its next puts, and declares what it keeps: it has
 * spent everything it kept before (that is why it takes), so its new
 * declaration replaces its old one. The credits kept by all lanes together
 * never exceed a 32nd of the ring (page_pool_credits_keep_max()): a CPU
 * that returned pages and went quiet keeps its declaration, and costs the
 * other CPUs at most that much room, however many CPUs do it. Each lane
 * keeps at most its share of that (the 32nd divided among the CPUs that
 * may return pages) and at most 63 (so at least one atomic per 64 puts);
 * with nothing to keep, a lane takes one credit per put.
 * Taking is a compare-and-exchange loop that never lets the free count go
 * below zero; giving back (the consumer, once per refill) is one add.
 */
#define PP_CREDITS(free, held)	(((s64)(u64)(held) << 32) | (free))
#define PP_CREDITS_FREE(v)	((u32)(u64)(v))
#define PP_CREDITS_HELD(v)	((u32)((u64)(v) >> 32))

static u32 page_pool_credits_keep_max(const struct page_pool *pool)
{
	return (u32)pool->ring.size / 32;
}

/* A lane's share of what lanes may keep: among the CPUs registered or
 * with a lane already, at most 63. */
static u32 page_pool_lane_keep_share(const struct page_pool *pool)
{
	unsigned int cpus = max(num_online_cpus(), (unsigned int)atomic_read(&pool->nr_lanes));

	cpus = max(cpus, 1u);
	return min(page_pool_credits_keep_max(pool) / cpus, 63u);
}

/*
 * Take credits for @need netmems now and, for @lane (NULL: none, keep
 * nothing), up to its share to keep. Returns how many were taken (@need
 * plus what is kept, or fewer than @need when the pool has fewer free);
 * the lane's declaration becomes what it keeps. Caller is the lane's CPU.
 */
static u32 page_pool_ring_credits_take(struct page_pool *pool, struct pp_lane *lane, u32 need)
{
	s64 v = atomic64_read(&pool->ring_credits), nv;
	u32 share = lane ? page_pool_lane_keep_share(pool) : 0;
	u32 free, held, others, got, keep;

	do {
		free = PP_CREDITS_FREE(v);
		held = PP_CREDITS_HELD(v);
		if (!free)
			return 0;
		got = min(need, free);
		keep = 0;
		others = held;
		if (lane) {
			u32 room;

			others = held - lane->credits_kept;
			room = page_pool_credits_keep_max(pool) > others ?
			       page_pool_credits_keep_max(pool) - others : 0;
			if (got == need)
				keep = min3(share, room, free - got);
		}
		nv = PP_CREDITS(free - got - keep, others + keep);
	} while (!atomic64_try_cmpxchg(&pool->ring_credits, &v, nv));
	if (lane)
		lane->credits_kept = keep;
	return got + keep;
}

void ppcore_ring_credits_put(struct page_pool *pool, u32 n)
{
	/* The free count stays below 2^32 (at most the ring's size). */
	atomic64_add(n, &pool->ring_credits);
}

/* This CPU's lane has no credit left: take one and some to keep. False
 * when the pool has none: the lanes and the ring hold what the kernel's
 * ring would, the page goes home (ring_full). */
static noinline bool page_pool_lane_credits_refill(struct page_pool *pool, struct pp_lane *lane)
{
	u32 got = page_pool_ring_credits_take(pool, lane, 1);

	lane->credit_end += got;
	return got;
}

/* Into the shared ring, under its producer lock (the kernel's design). */
static noinline bool page_pool_recycle_in_shared_ring(struct page_pool *pool, netmem_ref netmem)
{
	bool in_softirq, ret;

	in_softirq = page_pool_producer_lock(pool);
	ret = !__ptr_ring_produce(&pool->ring, (void *)netmem);
	if (ret)
		recycle_stat_inc(pool, ring);
	page_pool_producer_unlock(pool, in_softirq);
	return ret;
}

/* With lanes: the caller holds a ring credit for @netmem, so the shared
 * ring (pool_size slots) cannot be full; if it were, the credit goes back
 * with the page. */
static noinline bool page_pool_lane_spill(struct page_pool *pool, netmem_ref netmem)
{
	if (likely(page_pool_recycle_in_shared_ring(pool, netmem)))
		return true;
	ppcore_ring_credits_put(pool, 1);
	return false;
}

/* No lane for this CPU (it could not be allocated): the shared ring, with
 * a credit taken from the pool itself. */
static noinline bool page_pool_lane_spill_uncredited(struct page_pool *pool, netmem_ref netmem)
{
	if (!page_pool_ring_credits_take(pool, NULL, 1))
		return false;
	return page_pool_lane_spill(pool, netmem);
}

/* This CPU's lane, created on its first return. Only this CPU writes
 * pool->lanes[cpu]; the consumer reads it with acquire (pairs with the
 * release here). NULL if it cannot be allocated: use the shared ring. */
static noinline struct pp_lane *page_pool_lane_create(struct page_pool *pool, int cpu)
{
	struct pp_lane *lane;

	/* The shared CPU's threads return concurrently: a single-producer
	 * lane is no place for them; the shared ring is (<pagepool/runtime.h>). */
	if (unlikely(cpu == __PP_CPU_SHARED))
		return NULL;
	lane = kzalloc(sizeof(*lane), GFP_ATOMIC);
	if (!lane)
		return NULL;
	/* No larger than the shared ring: pool_size bounds what one
	 * returning CPU can park. */
	if (ptr_ring_init(&lane->ring, min(pool->ring.size, PP_LANE_SIZE), GFP_ATOMIC)) {
		kfree(lane);
		return NULL;
	}
	smp_store_release(&pool->lanes[cpu], lane);
	set_bit(cpu, pool->lane_mask);
	atomic_inc(&pool->nr_lanes);
	return lane;
}

/*
 * Ring credits for up to @n netmems of a bulk put from CPU @cpu (the
 * caller's): its lane's first, then the pool's. Returns how many it got;
 * *lanep is the lane (NULL: none could be made, the credits are the
 * pool's alone). Caller is in a bh-disabled region.
 */
static u32 page_pool_lane_take_credits(struct page_pool *pool, int cpu, u32 n,
				       struct pp_lane **lanep)
{
	struct pp_lane *lane = pool->lanes[cpu];
	u32 held;

	if (unlikely(!lane))
		lane = page_pool_lane_create(pool, cpu);
	*lanep = lane;
	if (!lane)
		return page_pool_ring_credits_take(pool, NULL, n);
	held = (u32)(lane->credit_end - lane->produced);
	/* What is missing, plus some to keep for the puts to come. */
	if (held < n)
		lane->credit_end += page_pool_ring_credits_take(pool, lane, n - held);
	return (u32)min_t(u64, lane->credit_end - lane->produced, n);
}

/*
 * Produce into @lane, CPU @cpu's (the caller's): single producer, single
 * consumer (the pool's), so no lock and no atomic read-modify-write. The
 * caller holds a ring credit for each netmem. Caller is in a bh-disabled
 * region, i.e. an RCU read-side section: the pool's memory outlives it
 * (page_pool_free_rcu()).
 */
static __always_inline u32 page_pool_lane_produce(struct pp_lane *lane, netmem_ref *netmems,
						  u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (__ptr_ring_produce(&lane->ring, (void *)netmems[i]))
			break;
	WRITE_ONCE(lane->produced, lane->produced + i);
	return i;
}

/*
 * One netmem into CPU @cpu's lane (the caller's) from any context, with
 * no RCU read-side section and no bh-disable: the store that publishes
 * the netmem is this function's last access to the pool. Until that
 * store the netmem in our hands counts as in flight, so the pool cannot
 * be freed; after it the consumer (or destroy's drain) may take the
 * netmem, the last page may go home and the pool be freed, and we touch
 * nothing of it any more. So the producer index and the lane's count
 * move first - both are this CPU's alone (a CPU is one thread here:
 * pp_thread_register() refuses a CPU in use, and softirqs run on their
 * CPU's own thread, never in between these stores).
 */
enum pp_lane_put {
	PP_LANE_PUBLISHED,	/* in the lane */
	PP_LANE_SPILL,		/* credit held, lane full: the shared ring */
	PP_LANE_NO_LANE,	/* no lane could be made, no credit held */
	PP_LANE_NO_CREDIT,	/* full where the kernel's ring would be */
};

static __always_inline enum pp_lane_put page_pool_lane_produce_last(struct page_pool *pool,
								    int cpu, netmem_ref netmem)
{
	struct pp_lane *lane = pool->lanes[cpu];
	void **slot;
	int p;

	if (unlikely(!lane)) {
		lane = page_pool_lane_create(pool, cpu);
		if (!lane)
			return PP_LANE_NO_LANE;
	}
	if (unlikely(lane->produced == lane->credit_end) &&
	    !page_pool_lane_credits_refill(pool, lane))
		return PP_LANE_NO_CREDIT;
	p = lane->ring.producer;
	slot = &lane->ring.queue[p];
	if (unlikely(!lane->ring.size) || __atomic_load_n(slot, __ATOMIC_RELAXED)) {
		/* A lane as large as the pool's ring is full where the
		 * kernel's ring would be (the same ptr_ring, the same slots
		 * still uncleared): ring full, and the credit goes back (a
		 * lane keeps no more than it declared). A smaller lane
		 * spills, the credit going with the page. */
		lane->credit_end--;
		if (lane->ring.size == pool->ring.size) {
			ppcore_ring_credits_put(pool, 1);
			return PP_LANE_NO_CREDIT;
		}
		return PP_LANE_SPILL;
	}
	lane->ring.producer = p + 1 < lane->ring.size ? p + 1 : 0;
	WRITE_ONCE(lane->produced, lane->produced + 1);
	__atomic_store_n(slot, (void *)netmem, __ATOMIC_RELEASE);	/* P1: publish */
	ppcore_hook(PP_HOOK_LANE_PUBLISHED, pool);	/* passes the pointer only */
	return PP_LANE_PUBLISHED;
}

/* Where a lane put that was not published goes: the shared ring, or home. */
static bool page_pool_lane_put_fallback(struct page_pool *pool, netmem_ref netmem,
					enum pp_lane_put how)
{
	switch (how) {
	case PP_LANE_SPILL:
		return page_pool_lane_spill(pool, netmem);
	case PP_LANE_NO_LANE:
		return page_pool_lane_spill_uncredited(pool, netmem);
	default:
		return false;
	}
}

/* Mark it "in the pool" before the consumer can see it, then this CPU's
 * lane, or the shared ring when the lane is full. */
static __always_inline bool page_pool_recycle_in_ring(struct page_pool *pool, netmem_ref netmem,
						      int cpu)
{
	enum pp_lane_put how;

	atomic_long_set(netmem_get_pp_ref_count_ref(netmem), 0);
	if (!pool->lanes)
		return page_pool_recycle_in_shared_ring(pool, netmem);
	how = page_pool_lane_produce_last(pool, cpu, netmem);
	if (likely(how == PP_LANE_PUBLISHED))
		return true;
	return page_pool_lane_put_fallback(pool, netmem, how);
}

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
	atomic_long_set(netmem_get_pp_ref_count_ref(netmem), 0);
	pool->alloc.cache[pool->alloc.count++] = netmem;
	__pp_consumer_stat_inc(pool->cached);
	ppcore_consumer_exit(pool);
	return true;
}

static __always_inline bool __page_pool_page_can_be_recycled(netmem_ref netmem)
{
	return netmem_is_net_iov(netmem) ||
	       (page_ref_count(netmem_to_page(netmem)) == 1 &&
		!page_is_pfmemalloc(netmem_to_page(netmem)));
}

/* The user holds extra page references (refcount-based recycling tricks)
 * or the page came from the emergency reserves: unmap and release it, the
 * last put_page() frees it. */
static noinline void page_pool_put_release(struct page_pool *pool, netmem_ref netmem)
{
	recycle_stat_inc(pool, released_refcnt);
	ppcore_return_netmem(pool, netmem);
}

/* Recycle into the cache if allowed; returns the netmem when it should go
 * to the ring, 0 when it was dealt with. */
static __always_inline netmem_ref __page_pool_put_page(struct page_pool *pool, netmem_ref netmem,
						       unsigned int dma_sync_size,
						       bool allow_direct)
{
	lockdep_assert_no_hardirq();

	/* refcount 1: page_pool owns it and can recycle it; a pfmemalloc
	 * page came from the emergency reserves and must go back. */
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

static bool page_pool_napi_local(const struct page_pool *pool)
{
	return __page_pool_napi_local(pool, in_softirq(), in_softirq() ? smp_processor_id() : -1);
}

/*
 * The slow paths of a put whose caller dropped the last reference and
 * knows @pool owns @netmem. page_pool_put_unrefed_owned() below sorts the
 * puts into three cases, so that the commonest one saves no registers.
 */

/* The lane and the ring are full: back to the page allocator. */
static void page_pool_put_ring_full(struct page_pool *pool, netmem_ref netmem)
{
	recycle_stat_inc(pool, ring_full);
	ppcore_return_netmem(pool, netmem);
}

/* A recyclable netmem that did not go into the alloc cache. */
static __always_inline void page_pool_put_to_ring(struct page_pool *pool, netmem_ref netmem,
						  int cpu)
{
	if (!page_pool_recycle_in_ring(pool, netmem, cpu))
		page_pool_put_ring_full(pool, netmem);
}

/* The rest of a put once allow_direct is final. */
static __always_inline void page_pool_put_decided(struct page_pool *pool, netmem_ref netmem,
						  unsigned int dma_sync_size, bool allow_direct,
						  int cpu)
{
	netmem = __page_pool_put_page(pool, netmem, dma_sync_size, allow_direct);
	if (netmem)
		page_pool_put_to_ring(pool, netmem, cpu);
}

/*
 * A put that did not say it is the pool's consumer, made in softirq to a
 * pool with a NAPI or an owner CPU: it may be the consumer anyway
 * (napi-local). The seeds' napi_local fix decides and recycles inside one
 * RCU read-side section (re-reading napi and cpuid in it), so
 * page_pool_destroy(), which waits a grace period after disabling direct
 * recycling, cannot empty the cache between our decision and our push.
 * (In softirq this nests: cheap.)
 */
static noinline void page_pool_put_unrefed_napi_local(struct page_pool *pool, netmem_ref netmem,
						      unsigned int dma_sync_size)
{
	bool fix = READ_ONCE(ppcore_fixes) & PP_FIX_NAPI_LOCAL_RCU;
	int cpu = smp_processor_id();
	bool allow_direct;

	if (fix)
		rcu_read_lock();
	allow_direct = __page_pool_napi_local(pool, true, cpu);
	if (allow_direct) {
		ppcore_hook(PP_HOOK_NAPI_LOCAL_DECIDED, pool);
		/* The race the fix closes: reported if it happens. */
		WARN_ONCE(READ_ONCE(pool->destroy_cnt),
			  "page_pool %u: napi-local direct recycle decided after destroy began",
			  pool->user.id);
	}
	if (fix) {
		netmem = __page_pool_put_page(pool, netmem, dma_sync_size, allow_direct);
		rcu_read_unlock();
		if (netmem)
			page_pool_put_to_ring(pool, netmem, cpu);
		return;
	}
	page_pool_put_decided(pool, netmem, dma_sync_size, allow_direct, cpu);
}

/* Only in softirq, and only for a pool with a NAPI or an owner CPU, can a
 * put that did not say so be the consumer: all other puts skip the
 * napi-local question. */
static __always_inline bool page_pool_put_may_be_napi_local(const struct page_pool *pool)
{
	return in_softirq() && (READ_ONCE(pool->p.napi) || READ_ONCE(pool->cpuid) >= 0);
}

/* Every put the lane fast case below did not take, but for the napi-local
 * question (asked before): direct ones, puts to pools without lanes (the
 * kernel's ptr_ring design) or that sync for the device. */
static noinline void page_pool_put_unrefed_general(struct page_pool *pool, netmem_ref netmem,
						   unsigned int dma_sync_size, bool allow_direct)
{
	/* Direct recycling into a cache that destroy emptied for the last
	 * time loses the page: report it (the seeds' debug check) and take
	 * the ring instead, which destroy keeps emptying. */
	if (allow_direct && unlikely(READ_ONCE(pool->dying))) {
		WARN_ONCE(1, "page_pool %u: direct recycle into a destroyed pool; the page takes the ring",
			  pool->user.id);
		allow_direct = false;
	}
	page_pool_put_decided(pool, netmem, dma_sync_size, allow_direct, smp_processor_id());
}

/* The lane fast case did not publish: what page_pool_recycle_in_ring()
 * does next. */
static noinline void page_pool_put_lane_full(struct page_pool *pool, netmem_ref netmem,
					     enum pp_lane_put how)
{
	if (!page_pool_lane_put_fallback(pool, netmem, how))
		page_pool_put_ring_full(pool, netmem);
}

/*
 * The commonest put first: from a context that is not the pool's consumer
 * and cannot become it (process context, or softirq on a pool with
 * neither NAPI nor owner CPU), of a plain recyclable page that needs no
 * sync for the device, into this CPU's lane. That case calls nothing, so
 * it saves and restores no registers. The napi-local question, a page to
 * release, a full lane and every other case (pools without lanes among
 * them) are functions of their own, entered by a tail jump.
 */
static __always_inline void page_pool_put_unrefed_owned(struct page_pool *pool,
							netmem_ref netmem,
							unsigned int dma_sync_size,
							bool allow_direct)
{
	if (!allow_direct) {
		if (page_pool_put_may_be_napi_local(pool)) {
			page_pool_put_unrefed_napi_local(pool, netmem, dma_sync_size);
			return;
		}
		/* A pool without lanes (the kernel's ptr_ring design) goes
		 * straight to the general case. */
		if (pool->lanes && !READ_ONCE(pool->dma_sync)) {
			enum pp_lane_put how;

			if (unlikely(!__page_pool_page_can_be_recycled(netmem))) {
				page_pool_put_release(pool, netmem);
				return;
			}
			atomic_long_set(netmem_get_pp_ref_count_ref(netmem), 0);
			how = page_pool_lane_produce_last(pool, smp_processor_id(), netmem);
			if (unlikely(how != PP_LANE_PUBLISHED))
				page_pool_put_lane_full(pool, netmem, how);
			return;
		}
	}
	page_pool_put_unrefed_general(pool, netmem, dma_sync_size, allow_direct);
}

void __page_pool_put_unrefed_slow_path(struct page_pool *pool, netmem_ref netmem,
				       unsigned int dma_sync_size, bool allow_direct)
{
	if (unlikely(netmem_get_pp(netmem) != pool)) {
		/* Refused, page left as it is: see __page_pool_put_misdirected(). */
		__page_pool_put_misdirected(pool, netmem, dma_sync_size, false);
		return;
	}
	page_pool_put_unrefed_owned(pool, netmem, dma_sync_size, allow_direct);
}

void __page_pool_put_unrefed_owned_slow_path(struct page_pool *pool, netmem_ref netmem,
					     unsigned int dma_sync_size, bool allow_direct)
{
	page_pool_put_unrefed_owned(pool, netmem, dma_sync_size, allow_direct);
}

void (page_pool_put_unrefed_netmem)(struct page_pool *pool, netmem_ref netmem,
				    unsigned int dma_sync_size, bool allow_direct)
{
	if (allow_direct && __page_pool_recycle_direct_fast(pool, netmem))
		return;
	__page_pool_put_unrefed_slow_path(pool, netmem, dma_sync_size, allow_direct);
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
 * drop is its new user's (issue 12, finding 6: sending it home handed it
 * out twice). A caller who did hold the page and only named the wrong
 * pool keeps its reference and may put it to the right pool; until then
 * the page counts as in flight for its pool, which is safe.
 */
void __page_pool_put_misdirected(struct page_pool *pool, netmem_ref netmem,
				 unsigned int dma_sync_size, bool allow_direct)
{
	struct page_pool *owner;

	(void)allow_direct;
	(void)dma_sync_size;
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

void __page_pool_unref_underflow(netmem_ref netmem, long nr, long ret)
{
	/* Undo, so the count stays meaningful for the real last user. */
	atomic_long_add(nr, netmem_get_pp_ref_count_ref(netmem));
	ppcore_count_misuse(PPCORE_MISUSE_REF_UNDERFLOW);
	WARN(1, "page_pool: pp_ref_count underflow (%ld) on %#lx: double put?",
	     ret, (unsigned long)netmem);
}

/* Bulk. */

/*
 * Bulk into this CPU's lane. Returns how many went in; *credited says how
 * many of the first netmems hold a ring credit (those past the returned
 * count that do go to the shared ring; those past *credited find the pool
 * as full as the kernel's ring would be).
 */
static u32 page_pool_recycle_lane_bulk(struct page_pool *pool, netmem_ref *bulk, u32 bulk_len,
				       u32 *credited)
{
	struct pp_lane *lane;
	u32 done = 0;

	local_bh_disable();
	*credited = page_pool_lane_take_credits(pool, smp_processor_id(), bulk_len, &lane);
	if (lane) {
		done = page_pool_lane_produce(lane, bulk, *credited);
		/* Credited netmems the lane had no room for take their
		 * credits to the shared ring - unless the lane is as large
		 * as the ring: then the ring is full, as the kernel's would
		 * be, and the credits go back. */
		lane->credit_end -= *credited - done;
		if (lane->ring.size == pool->ring.size) {
			if (*credited > done)
				ppcore_ring_credits_put(pool, *credited - done);
			*credited = done;
		}
	}
	local_bh_enable();
	return done;
}

/* The netmems of @bulk are marked back in the pool already (pp_ref_count
 * 0, set by the bulk put as it took each one). */
static void page_pool_recycle_ring_bulk(struct page_pool *pool, netmem_ref *bulk, u32 bulk_len)
{
	u32 i, done, room = bulk_len;
	bool in_softirq;

	if (pool->lanes) {
		done = page_pool_recycle_lane_bulk(pool, bulk, bulk_len, &room);
		if (done == bulk_len)
			return;
		bulk += done;
		bulk_len -= done;
		room -= done;
	}

	/* As the kernel's: one ring_full for the bulk, however many are
	 * left when the ring is full. */
	in_softirq = page_pool_producer_lock(pool);
	for (i = 0; i < bulk_len; i++) {
		if (i == room || __ptr_ring_produce(&pool->ring, (void *)bulk[i])) {
			recycle_stat_inc(pool, ring_full);
			break;
		}
	}
	recycle_stat_add(pool, ring, i);
	page_pool_producer_unlock(pool, in_softirq);

	/* Credits taken for netmems the ring refused go back. */
	if (pool->lanes && room > i)
		ppcore_ring_credits_put(pool, room - i);
	/* Ring full: free the rest outside the lock (put_page can be slow). */
	for (; i < bulk_len; i++)
		ppcore_return_netmem(pool, bulk[i]);
}

/*
 * A bulk put's reference drop: true when it was the last one. The last
 * user's drop leaves pp_ref_count at 1 (page_pool_unref_netmem()); here
 * the page is marked back in the pool (0) at once, as a single put marks
 * it before it returns, so the same page further on in the same bulk is a
 * reference underflow - reported and skipped - and not a second "last
 * reference" that would put the page into the pool twice (issue 12,
 * finding 3). page_pool_recycle_ring_bulk() used to write the 0; the
 * store moved here, so a bulk costs no more than before.
 */
static __always_inline bool page_pool_bulk_take_last_ref(netmem_ref netmem)
{
	if (!page_pool_unref_and_test(netmem))
		return false;
	atomic_long_set(netmem_get_pp_ref_count_ref(netmem), 0);
	return true;
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
			ppcore_count_misuse(PPCORE_MISUSE_NOT_PP_PAGE);
			WARN(1, "page_pool: bulk put of a page no page_pool owns (%#lx)",
			     (unsigned long)netmem);
			continue;
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
 * reported and sent home as a single put would be.
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

/* Fragments. */

/*
 * Drop the frag bias of @netmem: the references page_pool_fragment_netmem()
 * gave it that no fragment took (BIAS_MAX - frag_users). Returns what is
 * left: > 0, users still hold fragments (the last one's put recycles the
 * page); 0, every fragment came back and the page is the pool's again (in
 * the "1 piece" state); < 0, the page was put more times than fragments were
 * handed out (a fragment over-put).
 *
 * An over-put before the drain is silent: each fragment put only takes one
 * from a count near BIAS_MAX. Here it shows. Which put was the extra one
 * cannot be told (a put names the page, not the fragment), so every
 * fragment's puts have come in - or an over-putter put more than once too
 * often while a fragment is still held. Either way the page must not be
 * recycled into the pool (a holder's page would be handed out twice), and
 * it must not be kept (the pool would wait for it forever): the caller
 * releases it to the page allocator. The count is left negative, so a
 * put racing with that release is an underflow too (reported, undone)
 * and never looks like a last reference.
 */
static long page_pool_frag_unbias(struct page_pool *pool, netmem_ref netmem)
{
	atomic_long_t *pp_ref_count = netmem_get_pp_ref_count_ref(netmem);
	long drain_count = BIAS_MAX - pool->frag_users;
	long ret;

	/* Acquire: as page_pool_unref_netmem(), the users' reads of the page
	 * happen before we recycle it. */
	if (atomic_long_read_acquire(pp_ref_count) == drain_count) {
		atomic_long_set(pp_ref_count, 1);
		return 0;
	}
	ret = atomic_long_sub_return(drain_count, pp_ref_count);
	if (likely(ret > 0))
		return ret;
	if (ret == 0) {
		atomic_long_set(pp_ref_count, 1);
		return 0;
	}
	ppcore_count_misuse(PPCORE_MISUSE_REF_UNDERFLOW);
	WARN(1, "page_pool %u: fragmented page %#lx put %ld more times than its %ld fragments; released, not recycled",
	     pool->user.id, (unsigned long)netmem, -ret, pool->frag_users);
	return ret;
}

static netmem_ref page_pool_drain_frag(struct page_pool *pool, netmem_ref netmem)
{
	long ret = page_pool_frag_unbias(pool, netmem);

	/* Some user still holds a fragment. */
	if (likely(ret > 0))
		return 0;

	if (ret == 0 && __page_pool_page_can_be_recycled(netmem)) {
		page_pool_dma_sync_for_device(pool, netmem, -1);
		return netmem;
	}
	/* Extra page references, or an over-put (ret < 0): out of the pool. */
	ppcore_return_netmem(pool, netmem);
	return 0;
}

/* Destroy: the pool will carve no more fragments from its frag page. */
void ppcore_free_frag(struct page_pool *pool)
{
	netmem_ref netmem = pool->frag_page;

	pool->frag_page = 0;
	/* Users still hold fragments: the last one's put releases the page
	 * (the pool is destroyed). Otherwise every fragment is back - or it
	 * was over-put, which page_pool_frag_unbias() reported: release it
	 * either way; the pool must not wait for it. */
	if (!netmem || page_pool_frag_unbias(pool, netmem) > 0)
		return;
	ppcore_return_netmem(pool, netmem);
}

/*
 * The smallest fragment, and the unit fragments are rounded up to: the
 * larger of the DMA alignment (1 on x86-64, 128 on arm64) and
 * skb_shared_info's (8), as Linux 6.12.117 (Debian's linux-source-6.12) does,
 * so a fragment can end in a shared info that build_skb() puts there.
 * 100-byte fragments: 0, 104, 208, ...
 */
static inline unsigned int page_pool_frag_align(void)
{
	return max_t(unsigned int, dma_get_cache_alignment(),
		     __alignof__(struct skb_shared_info));
}

static netmem_ref __page_pool_alloc_frag_consumer(struct page_pool *pool, unsigned int *offset,
						  unsigned int size, gfp_t gfp);

/* The fragment state is the consumer's too (see ppcore_consumer_enter()). */
netmem_ref page_pool_alloc_frag_netmem(struct page_pool *pool, unsigned int *offset,
				       unsigned int size, gfp_t gfp)
{
	netmem_ref netmem;

	if (!ppcore_consumer_enter(pool, "fragment allocation"))
		return 0;
	netmem = __page_pool_alloc_frag_consumer(pool, offset, size, gfp);
	ppcore_consumer_exit(pool);
	return netmem;
}

static netmem_ref __page_pool_alloc_frag_consumer(struct page_pool *pool, unsigned int *offset,
						  unsigned int size, gfp_t gfp)
{
	unsigned int max_size = PAGE_SIZE << pool->p.order;
	netmem_ref netmem = pool->frag_page;

	/*
	 * A fragment never starts at or past its page's end. The kernel's
	 * code lets a size-0 fragment start at frag_offset == max_size when
	 * the page was filled exactly: page_address() + offset is then the
	 * next page, and page_pool_free_va() of it puts a page someone else
	 * holds. Size 0 gets the smallest fragment instead (helpers.h):
	 * inside a page, its own address, one reference like any other.
	 * One compare catches both size 0 (it wraps) and a size above the
	 * page, as the kernel's WARN_ON(size > max_size) alone did.
	 */
	if (unlikely(size - 1 >= max_size)) {
		if (WARN_ON(size > max_size))
			return 0;
		size = 1;
	}
	/* max_size is a multiple of the unit: never more than the page. */
	size = ALIGN(size, page_pool_frag_align());
	*offset = pool->frag_offset;

	/*
	 * CONFIG_DEBUG_NET: a fragment over-put shows before the drain. The
	 * current page's count is BIAS_MAX minus the puts plus the extra
	 * references users took (page_pool_ref_netmem(), which precede their
	 * puts); below BIAS_MAX - frag_users, more came back than was handed
	 * out. Stop carving from the page: drain it now, which reports it and
	 * releases it (page_pool_frag_unbias()). One load of a word the
	 * release build does not touch here, so it is a debug check.
	 */
	if (IS_ENABLED(CONFIG_DEBUG_NET) && netmem &&
	    unlikely(atomic_long_read(netmem_get_pp_ref_count_ref(netmem)) <
		     BIAS_MAX - pool->frag_users)) {
		netmem = page_pool_drain_frag(pool, netmem);
		if (netmem) {
			/* Defensive: the drain hands back a page only when no
			 * underflow was seen after all (a racing
			 * page_pool_ref_netmem()). */
			alloc_stat_inc(pool, fast);
			goto frag_reset;
		}
	} else if (netmem && *offset + size > max_size) {
		netmem = page_pool_drain_frag(pool, netmem);
		if (netmem) {
			/* The last user gave it back: reuse it in place. */
			alloc_stat_inc(pool, fast);
			goto frag_reset;
		}
	}

	if (!netmem) {
		netmem = page_pool_alloc_netmems(pool, gfp);
		if (unlikely(!netmem)) {
			pool->frag_page = 0;
			return 0;
		}
		pool->frag_page = netmem;
frag_reset:
		pool->frag_users = 1;
		*offset = 0;
		pool->frag_offset = size;
		page_pool_fragment_netmem(netmem, BIAS_MAX);
		return netmem;
	}

	pool->frag_users++;
	pool->frag_offset = *offset + size;
	/* 6.12 counts every fragment carved from the current page as a
	 * fast allocation (newer kernels count only the page). */
	alloc_stat_inc(pool, fast);
	return netmem;
}

struct page *page_pool_alloc_frag(struct page_pool *pool, unsigned int *offset,
				  unsigned int size, gfp_t gfp)
{
	netmem_ref netmem = page_pool_alloc_frag_netmem(pool, offset, size, gfp);

	if (unlikely(netmem_is_net_iov(netmem)))
		return __page_pool_alloc_unreadable(pool, netmem);
	return __netmem_to_page(netmem);
}

/* Direct recycling and NUMA. */

void page_pool_enable_direct_recycling(struct page_pool *pool, struct napi_struct *napi)
{
	if (READ_ONCE(pool->p.napi) == napi)
		return;
	WARN_ON(!napi || pool->p.napi);

	mutex_lock(&page_pools_lock);
	WRITE_ONCE(pool->p.napi, napi);
	mutex_unlock(&page_pools_lock);
}

void page_pool_disable_direct_recycling(struct page_pool *pool)
{
	/* Paired with READ_ONCE() in page_pool_napi_local(). */
	WRITE_ONCE(pool->cpuid, -1);

	if (!pool->p.napi)
		return;

	napi_assert_will_not_race(pool->p.napi);

	mutex_lock(&page_pools_lock);
	WRITE_ONCE(pool->p.napi, NULL);
	mutex_unlock(&page_pools_lock);
}

/* Caller provides the consumer context (NAPI). */
void page_pool_update_nid(struct page_pool *pool, int new_nid)
{
	netmem_ref netmem;

	pool->p.nid = new_nid;
	if (!ppcore_consumer_enter(pool, "NUMA node update"))
		return;
	/* Flush the cache; ring pages are filtered lazily at refill (waive). */
	while (pool->alloc.count) {
		netmem = pool->alloc.cache[--pool->alloc.count];
		ppcore_return_netmem(pool, netmem);
	}
	ppcore_consumer_exit(pool);
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
	if (pool->dma_tracked) {
		/* Unmap only if destroy did not do it already; inside an RCU
		 * read-side section, so destroy can wait for a claim-and-unmap
		 * in progress before the driver unbinds the device. (Softirq
		 * already is one.) */
		bool rcu = !in_softirq();

		if (rcu)
			rcu_read_lock();
		if (ppcore_track_claim_unmap(pool, netmem))
			dma_unmap_page_attrs(pool->p.dev, dma, PAGE_SIZE << pool->p.order,
					     pool->p.dma_dir,
					     DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING);
		if (rcu)
			rcu_read_unlock();
		netmem_set_dma_index(netmem, 0);
	} else {
		dma_unmap_page_attrs(pool->p.dev, dma, PAGE_SIZE << pool->p.order,
				     pool->p.dma_dir,
				     DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING);
	}
	page_pool_set_dma_addr_netmem(netmem, 0);
}

/*
 * The netmem leaves the pool for good: unmap (or hand it to its memory
 * provider), count the release, and put the page. After the release count
 * moves, a concurrent destroy may free the pool: do not touch it again.
 */
void ppcore_return_netmem(struct page_pool *pool, netmem_ref netmem)
{
	bool put = true;

	if (static_branch_unlikely(&page_pool_mem_providers) && pool->mp_ops)
		put = pool->mp_ops->release_netmem(pool, netmem);
	else
		__page_pool_release_netmem_dma(pool, netmem);
	ppcore_track_detach(pool, netmem);

	/* Release ordering pairs with the acquire in page_pool_inflight(): the
	 * thread that sees this count and frees the pool sees our accesses to
	 * it as done. */
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
	u32 release_cnt = (u32)atomic_read_acquire(&pool->pages_state_release_cnt);
	u32 hold_cnt = READ_ONCE(pool->pages_state_hold_cnt);
	s32 inflight = _distance(hold_cnt, release_cnt);

	if (strict)
		WARN(inflight < 0, "Negative(%d) inflight packet-pages", inflight);
	else
		inflight = max(0, inflight);
	return inflight;
}

void page_pool_use_xdp_mem(struct page_pool *pool, void (*disconnect)(void *),
			   const struct xdp_mem_info *mem)
{
	refcount_inc(&pool->user_cnt);
	pool->disconnect = disconnect;
	pool->xdp_mem_id = mem->id;
}

/* Memory-provider hooks for net_iovs. */

bool net_mp_niov_set_dma_addr(struct net_iov *niov, dma_addr_t addr)
{
	return page_pool_set_dma_addr_netmem(net_iov_to_netmem(niov), addr);
}

void net_mp_niov_set_page_pool(struct page_pool *pool, struct net_iov *niov)
{
	netmem_ref netmem = net_iov_to_netmem(niov);

	/* A net_iov never needs an item: cannot fail. */
	page_pool_set_pp_info(pool, netmem);
	page_pool_hold_inc(pool);
}

void net_mp_niov_clear_page_pool(struct net_iov *niov)
{
	page_pool_clear_pp_info(net_iov_to_netmem(niov));
}
