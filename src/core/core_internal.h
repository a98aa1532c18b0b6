/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool internals shared by the files of src/core (the kernel's
 * net/core/page_pool_priv.h and netmem_priv.h). Names carry the ppcore_
 * prefix, or the kernel's where the function is the kernel's private one.
 *
 * The memory orders of src/core, each pair once (the label is written at
 * both ends; the DMA tracking's own pairs are in dma_track.h and
 * track_*.c, whose labels are their own, the rings' P1/C1/C2 in
 * <linux/ptr_ring.h>):
 *   U1/U1'  pp_ref_count: a user's put is a fully ordered decrement
 *           (page_pool_unref_netmem(), helpers.h); the last user reads
 *           the count with acquire (there, and page_pool_frag_unbias() in
 *           frag.c), so the other users' accesses to the page happen
 *           before the page is recycled or freed.
 *   LS1/C1  a lane's slot: the put's release store publishes the netmem
 *           (page_pool_lane_produce(), ring.h, the ptr_ring's P1); the
 *           consumer's acquire load takes it (C1).
 *   LC1/LC1' pool->lanes[cpu]: the lane's creator publishes it with a
 *           release store (ring_lanes.c); the refill, destroy's drain and
 *           the statistics read it with acquire after finding its bit.
 *   R1/R1'  pages_state_release_cnt: a page's return is a fully ordered
 *           increment, its last access to the pool (release.c); the
 *           inflight count reads it with acquire, so whoever frees the
 *           pool sees the returner done with it.
 *   CG1/CG1' the debug build's consumer guard (pool.c): entry is an
 *           acquire compare-and-exchange, exit a release store, so one
 *           consumer's cache writes happen before the next one's reads.
 *   H1/H1'  the test hook (pool.c): its argument is stored before the
 *           hook with release; the caller loads the hook with acquire.
 * Everything else shared between contexts is a counter or a flag read
 * with READ_ONCE() that orders nothing, or is ordered by a lock or RCU:
 * dma_sync (cleared by destroy, re-read inside an RCU read-side section,
 * then synchronize_rcu()), the producer lock of the shared ring, the
 * registry's page_pools_lock.
 */
#ifndef _PP_CORE_INTERNAL_H
#define _PP_CORE_INTERNAL_H

#include <linux/dma-mapping.h>
#include <linux/jump_label.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <net/netmem.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

/* The pp_magic / pp fields of a netmem (netmem_priv.h). */
static inline void netmem_set_pp(netmem_ref netmem, struct page_pool *pool)
{
	WRITE_ONCE(__netmem_clear_lsb(netmem)->pp, pool);
}

static inline void netmem_or_pp_magic(netmem_ref netmem, unsigned long pp_magic)
{
	struct netmem_desc *d = __netmem_clear_lsb(netmem);

	WRITE_ONCE(d->pp_magic, READ_ONCE(d->pp_magic) | pp_magic);
}

static inline void netmem_clear_pp_magic(netmem_ref netmem)
{
	WRITE_ONCE(__netmem_clear_lsb(netmem)->pp_magic, 0);
}

static inline void netmem_set_dma_addr(netmem_ref netmem, unsigned long dma_addr)
{
	WRITE_ONCE(__netmem_clear_lsb(netmem)->dma_addr, dma_addr);	/* see netmem_get_dma_addr() */
}

/* Returns true on failure, as the kernel's (never fails on 64-bit). */
static inline bool page_pool_set_dma_addr_netmem(netmem_ref netmem, dma_addr_t addr)
{
	netmem_set_dma_addr(netmem, (unsigned long)addr);
	return false;
}

static inline unsigned long netmem_get_dma_index(netmem_ref netmem)
{
	return (READ_ONCE(__netmem_clear_lsb(netmem)->pp_magic) & PP_DMA_INDEX_MASK) >>
	       PP_DMA_INDEX_SHIFT;
}

static inline void netmem_set_dma_index(netmem_ref netmem, unsigned long id)
{
	struct netmem_desc *d = __netmem_clear_lsb(netmem);
	unsigned long magic = READ_ONCE(d->pp_magic) & ~PP_DMA_INDEX_MASK;

	WRITE_ONCE(d->pp_magic, magic | (id << PP_DMA_INDEX_SHIFT));
}

/* Global state. */
DECLARE_STATIC_KEY_FALSE(page_pool_mem_providers);	/* pool.c */
extern struct mutex page_pools_lock;			/* registry.c */
extern unsigned int ppcore_defer_time_ms;		/* release.c */
extern unsigned int ppcore_defer_warn_ms;

/* Per-CPU recycle statistics (any context). */
#ifdef CONFIG_PAGE_POOL_STATS
#define recycle_stat_inc(pool, __stat)	this_cpu_inc((pool)->recycle_stats->__stat)
#define recycle_stat_add(pool, __stat, val) this_cpu_add((pool)->recycle_stats->__stat, val)
#define alloc_stat_inc(pool, __stat)	__pp_consumer_stat_inc((pool)->alloc_stats.__stat)
#else
#define recycle_stat_inc(pool, __stat)	do { } while (0)
#define recycle_stat_add(pool, __stat, val) do { } while (0)
#define alloc_stat_inc(pool, __stat)	do { } while (0)
#endif

/* Bulk returns are produced into the ring this many at a time (the
 * kernel's on-stack XDP_BULK_QUEUE_SIZE array). */
#define PAGE_POOL_BULK_SIZE	16

/* pool.c: creation and the pool's end; the designs of new pools. */
void page_pool_uninit(struct page_pool *pool);
void ppcore_free(struct page_pool *pool);
int ppcore_ring_mode(void);		/* enum pp_ring_mode */
int ppcore_dma_tracking_mode(void);	/* enum pp_dma_tracking */

/* alloc.c */
static inline void page_pool_hold_inc(struct page_pool *pool)
{
	/* Written by the consumer only; read by destroy and introspection. */
	WRITE_ONCE(pool->pages_state_hold_cnt, pool->pages_state_hold_cnt + 1);
}
bool page_pool_set_pp_info(struct page_pool *pool, netmem_ref netmem);
/* __page_pool_alloc_netmems_slow() with the take site given (lifecycle.h). */
netmem_ref ppcore_alloc_netmems_ip(struct page_pool *pool, gfp_t gfp, unsigned long ip);
/* Inline: the page's return (release.c) is its hot caller. */
static inline void page_pool_clear_pp_info(netmem_ref netmem)
{
	netmem_clear_pp_magic(netmem);
	netmem_set_pp(netmem, NULL);
}
void __page_pool_dma_sync_for_device(const struct page_pool *pool, netmem_ref netmem,
				     u32 dma_sync_size);

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

/* recycle.c */
static __always_inline bool __page_pool_page_can_be_recycled(netmem_ref netmem)
{
	/* refcount 1: page_pool owns it and can recycle it; a pfmemalloc
	 * page came from the emergency reserves and must go back. */
	return netmem_is_net_iov(netmem) ||
	       (page_ref_count(netmem_to_page(netmem)) == 1 &&
		!page_is_pfmemalloc(netmem_to_page(netmem)));
}
bool page_pool_napi_local(const struct page_pool *pool);

/* frag.c */
void page_pool_free_frag(struct page_pool *pool);

/* release.c: a page leaves the pool for good; inflight accounting. */
void page_pool_return_page(struct page_pool *pool, netmem_ref netmem);
s32 page_pool_inflight(const struct page_pool *pool, bool strict);

/* registry.c (the kernel's page_pool_user.c) */
int page_pool_list(struct page_pool *pool);
void page_pool_detached(struct page_pool *pool);
void page_pool_unlist(struct page_pool *pool);
void ppcore_run_create_hook(void);	/* registry_hooks.h's create hook */
/* The listed pool with @id (destroyed ones waiting for pages included), or
 * NULL. Caller MUST hold page_pools_lock. */
struct page_pool *ppcore_pool_by_id_locked(u32 id);

/* DMA tracking: src/core/dma_track.h. */

/*
 * The fixes that can be switched off to show their bugs (pool.c;
 * PP_FIX_NAPI_LOCAL_RCU, Yunsheng Lin's napi_local fix). Without CONFIG_PAGEPOOL_FIX_SWITCHES (every
 * build but the all-designs one) they are always on, and the test is a
 * constant.
 */
#ifdef CONFIG_PAGEPOOL_FIX_SWITCHES
extern unsigned int ppcore_fixes;
static __always_inline bool ppcore_fix_on(unsigned int fix)
{
	return READ_ONCE(ppcore_fixes) & fix;
}
#else
static __always_inline bool ppcore_fix_on(unsigned int fix)
{
	(void)fix;
	return true;
}
#endif

/* Test hooks (pool.c). */
#ifdef CONFIG_PAGEPOOL_TEST_HOOKS
extern pp_page_pool_hook_fn ppcore_hook_fn;
void ppcore_run_hook(enum pp_page_pool_hook point, struct page_pool *pool);
#define ppcore_hook(point, pool)						\
	do {									\
		if (unlikely(READ_ONCE(ppcore_hook_fn)))			\
			ppcore_run_hook(point, pool);				\
	} while (0)
#else
#define ppcore_hook(point, pool)	do { } while (0)
#endif

/*
 * The consumer-side guard of a CONFIG_DEBUG_NET build (pool.c). The alloc
 * cache and the fragment state are lockless: the kernel's contract is that
 * one context at a time (the pool's NAPI poll) allocates and recycles
 * directly. A direct recycle or an allocation from another thread while
 * the consumer runs corrupts them - pages handed out twice, a cache count
 * past PP_ALLOC_CACHE_SIZE - and the kernel does not check. Here, in the
 * debug build, every consumer operation enters the guard (a
 * compare-and-exchange of the thread's identity; nested entries by the
 * same thread are counted): a second thread finding it taken is the
 * misuse. It is counted (concurrent_consumer), reported (one WARN per
 * pool), and made harmless: a direct recycle takes the ring instead, an
 * allocation fails (NULL, as under memory pressure), a NUMA update leaves
 * the cache alone. The release build has none of this: the checks would
 * cost the fast paths an atomic each.
 */
#ifdef CONFIG_DEBUG_NET
bool ppcore_consumer_enter(struct page_pool *pool, const char *what);
void ppcore_consumer_exit(struct page_pool *pool);
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

/* mp.c */
int ppcore_mp_check_ops(const struct memory_provider_ops *ops);
/* niov_pages.c: the net_iov a bound page backs (PG_net_iov, checked
 * against its area), or NULL; and the same for a netmem: the bound net_iov
 * of a page netmem, or 0 (a net_iov, or a page that backs none). */
struct net_iov *ppcore_page_net_iov(const struct page *page);
/* The page that backs @niov in a bound area, or NULL (NULL @niov, unbound). */
struct page *ppcore_net_iov_page(const struct net_iov *niov);
netmem_ref ppcore_bound_netmem(netmem_ref netmem);

/* Misuse counters (pp_page_pool_get_misuse()). */
enum ppcore_misuse {
	PPCORE_MISUSE_NOT_PP_PAGE,
	PPCORE_MISUSE_FOREIGN_POOL,
	PPCORE_MISUSE_REF_UNDERFLOW,
	PPCORE_MISUSE_CONCURRENT_CONSUMER,
	PPCORE_MISUSE_DOUBLE_PUT,
	PPCORE_MISUSE_NR,
};
void ppcore_count_misuse(enum ppcore_misuse kind);

#endif /* _PP_CORE_INTERNAL_H */
