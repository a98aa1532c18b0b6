/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool internals shared by the files of src/core (the kernel's
 * net/core/page_pool_priv.h and netmem_priv.h). Names carry the ppcore_
 * prefix, or the kernel's where the function is the kernel's private one.
 */
#ifndef _PP_CORE_INTERNAL_H
#define _PP_CORE_INTERNAL_H

#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
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

/* Global state (page_pool.c). */
DECLARE_STATIC_KEY_FALSE(page_pool_mem_providers);
extern struct mutex page_pools_lock;
extern unsigned int ppcore_defer_time_ms;
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

/* page_pool.c */
void ppcore_uninit(struct page_pool *pool);
void ppcore_free(struct page_pool *pool);
bool page_pool_set_pp_info(struct page_pool *pool, netmem_ref netmem);
void page_pool_clear_pp_info(netmem_ref netmem);
void ppcore_return_netmem(struct page_pool *pool, netmem_ref netmem);
/* PP_RING_LANES: @n pages left the lanes or the shared ring (page_pool.c). */
void ppcore_ring_credits_put(struct page_pool *pool, u32 n);
s32 page_pool_inflight(const struct page_pool *pool, bool strict);

/* release.c */
void ppcore_free_frag(struct page_pool *pool);

/* registry.c (the kernel's page_pool_user.c) */
int page_pool_list(struct page_pool *pool);
void page_pool_detached(struct page_pool *pool);
void page_pool_unlist(struct page_pool *pool);

/* dma_track.c */
int ppcore_track_init(struct page_pool *pool);
void ppcore_track_free(struct page_pool *pool);
void ppcore_track_unmap_all(struct page_pool *pool);

/* Fixes and test hooks (page_pool.c). */
extern unsigned int ppcore_fixes;
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

/* mp.c */
int ppcore_mp_check_ops(const struct memory_provider_ops *ops);

/* Misuse counters (pp_page_pool_get_misuse()). */
enum ppcore_misuse {
	PPCORE_MISUSE_NOT_PP_PAGE,
	PPCORE_MISUSE_FOREIGN_POOL,
	PPCORE_MISUSE_REF_UNDERFLOW,
	PPCORE_MISUSE_CONCURRENT_CONSUMER,
	PPCORE_MISUSE_NR,
};
void ppcore_count_misuse(enum ppcore_misuse kind);

#endif /* _PP_CORE_INTERNAL_H */
