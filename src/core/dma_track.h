/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA tracking: a pool knows every page it has DMA-mapped, so that
 * page_pool_destroy() can unmap the pages still in flight while the device
 * is bound, and pages that come back after the driver unbound are released
 * without touching the device (the kernel's IOMMU crash at driver unbind,
 * "iommu_get_dma_domain"). This header is the contract between the core and
 * the designs that do it. Private to src/core.
 *
 * Designs (enum pp_dma_tracking; meson -Ddma_tracking, -Ddesigns=all):
 *   PP_DMA_TRACK_INDEX  track_index.c: upstream v6.15's design, an id in
 *                       pp_magic's index bits and a per-pool table
 *                       id -> page. Its map and unmap hot paths are
 *                       inline, below.
 *   PP_DMA_TRACK_ITEMS  track_items.c: Yunsheng Lin's page_pool_item
 *                       design (not merged upstream): the page's pp field
 *                       points at an item in a block that names the pool.
 *   PP_DMA_TRACK_OFF    CONFIG_PAGEPOOL_FIX_SWITCHES builds only: no
 *                       tracking, the behaviour before the fix.
 * dma_track.c holds what both share: the entry points that are not inline
 * and their dispatch.
 *
 * Which design a pool uses. A default build compiles one design: only its
 * file is built (src/core/meson.build, the kernel's obj-$(CONFIG_...)),
 * ppcore_track_design() is a constant, and every call below is a direct
 * call into that design (or its inline code): pool->dma_tracking is never
 * read. An all-designs build (CONFIG_PAGEPOOL_ALL_DESIGNS) dispatches on
 * pool->dma_tracking, which page_pool_init() sets before
 * ppcore_track_init() and nothing changes later. The dispatch is written
 * with #if, not IS_ENABLED() in C, so that a design that is not compiled in
 * is not referenced even at -O0.
 *
 * What a design provides, who calls it, in which context:
 *   init       ppcore_track_init(): page_pool_init(), process context,
 *              before the pool is visible. Sets pool->track and
 *              pool->dma_tracked (tracking in effect: only pools that
 *              DMA-map pages need it). 0, -ENOMEM, or -EOPNOTSUPP for a
 *              design not compiled in. After a failure free still runs.
 *   free       ppcore_track_free(): when the pool's memory goes (no page
 *              is out any more), or after init failed.
 *   attach     ppcore_track_attach(): the page joins the pool, before
 *              anything reads it as the pool's (page_pool_set_pp_info());
 *              the consumer. Sets the page -> pool link. False: no
 *              tracking state for the page; the caller drops it.
 *   mapped     ppcore_track_mapped(): page_pool_dma_map(), the consumer,
 *              after the page's DMA address was stored; only if
 *              ppcore_dma_tracked(). Records the page. 0, or -ENOMEM: the
 *              caller unmaps and drops the page.
 *   claim      ppcore_track_claim_unmap(): the page's release, any thread,
 *              inside an RCU read-side section, the page's DMA address
 *              read before (a winner that is not the caller may clear it
 *              right after). True for exactly one claimer, who unmaps.
 *   unmap_all  ppcore_track_unmap_all(): page_pool_scrub(), destroy's
 *              thread, after destroy_cnt was raised and a grace period
 *              passed, with no consumer left; holds no page reference.
 *              Claims and unmaps every page still recorded.
 *   detach     ppcore_track_detach(): the page leaves the pool, any thread,
 *              after its claim and before the release count moves (the
 *              pool may be freed right after that). Undoes attach.
 *   stats      pp_page_pool_get_track_stats(): any thread, any time; a
 *              snapshot.
 *   lookup     netmem_get_pp() in <net/netmem.h>: the page -> pool link
 *              attach set, for every page_pool_to_pp(). Only the items
 *              design changes it, and its branch there exists only when
 *              that design is compiled in.
 *
 * The invariant: a page of a tracking pool is mapped if and only if it is
 * recorded, from its mapped() until its winning claim, and each mapping is
 * unmapped once, by the winner of its claim. Before destroy only the
 * page's releaser touches its record, so a claim is a plain read and
 * store. Destroy raises destroy_cnt, waits a grace period (a claim in
 * progress either finished or sees the new count), then unmaps; from then
 * on claims are atomic read-modify-writes (cmpxchg: index;
 * test_and_clear_bit: items), the releaser races only destroy's unmap_all,
 * and the loser never touches the device. A second grace period lets a
 * releaser that won finish its unmap before the driver unbinds.
 */
#ifndef _PP_CORE_DMA_TRACK_H
#define _PP_CORE_DMA_TRACK_H

#include <linux/bug.h>
#include <linux/dma-mapping.h>
#include <linux/kconfig.h>
#include <linux/mm.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>
#include <pagepool/runtime.h>

#include "core/core_internal.h"

/* The page_pool's own unmap: the whole page, and no CPU sync (the pool
 * syncs for the CPU itself, and only what the device wrote). */
static inline void ppcore_dma_unmap_page(const struct page_pool *pool, dma_addr_t dma)
{
	dma_unmap_page_attrs(pool->p.dev, dma, PAGE_SIZE << pool->p.order, pool->p.dma_dir,
			     DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING);
}

/* The pool's design: a constant unless every design is compiled in. */
static __always_inline enum pp_dma_tracking ppcore_track_design(const struct page_pool *pool)
{
#ifdef CONFIG_PAGEPOOL_ALL_DESIGNS
	return (enum pp_dma_tracking)pool->dma_tracking;
#else
	(void)pool;
	return CONFIG_PAGEPOOL_DMA_TRACK_DEFAULT;
#endif
}

/* Is design @mode compiled in (pp_page_pool_set_dma_tracking() refuses the
 * others with -EOPNOTSUPP)? False for a value that names no design. */
static inline bool ppcore_track_built(int mode)
{
	switch (mode) {
	case PP_DMA_TRACK_INDEX:
		return IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX);
	case PP_DMA_TRACK_ITEMS:
		return IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS);
#ifdef CONFIG_PAGEPOOL_FIX_SWITCHES
	case PP_DMA_TRACK_OFF:
		return true;
#endif
	default:
		return false;
	}
}

/*
 * Does this DMA-mapping pool track its mappings (pool->dma_tracked)? Every
 * design tracks the pages of a pool that maps them, so only a build where
 * PP_DMA_TRACK_OFF exists has to read the flag. Only for a pool with
 * pool->dma_map set.
 */
static __always_inline bool ppcore_dma_tracked(const struct page_pool *pool)
{
#ifdef CONFIG_PAGEPOOL_FIX_SWITCHES
	return pool->dma_tracked;
#else
	(void)pool;
	return true;
#endif
}

int ppcore_track_init(struct page_pool *pool);
void ppcore_track_free(struct page_pool *pool);
void ppcore_track_unmap_all(struct page_pool *pool);

#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX)
/*
 * INDEX design, the part the map and unmap of every page go through
 * (track_index.c has the rest, the table's growth, and the memory-order
 * table I1/I2, G1/G2, N1/N2, C that the labels here refer to).
 */
#define INDEX_CHUNK_SHIFT	9
#define INDEX_CHUNK		(1u << INDEX_CHUNK_SHIFT)	/* 4 KiB of slots */
#define INDEX_MAX		((1ul << PP_DMA_INDEX_BITS) - 1)

struct pp_index_table {
	unsigned long **dir;		/* chunk k: slots [k*CHUNK, (k+1)*CHUNK) */
	u32 nr_chunks;			/* chunks in dir (consumer-written) */
	u32 dir_size;			/* capacity of dir */
	u32 hint;			/* next-fit cursor (consumer-only) */
	struct pp_index_old_dir {	/* replaced directories, freed at the end */
		struct pp_index_old_dir *next;
		unsigned long **dir;
	} *old;
};

/* Any thread: the slot of @id, an id of a recorded page (or below
 * nr_chunks * INDEX_CHUNK, read with N2). */
static inline unsigned long *index_slot(struct pp_index_table *t, unsigned long id)
{
	unsigned long **dir = smp_load_acquire(&t->dir);		/* G2 */

	return &READ_ONCE(dir[id >> INDEX_CHUNK_SHIFT])[id & (INDEX_CHUNK - 1)];
}

/* The consumer, the table's only writer, reads it without ordering. */
static __always_inline unsigned long *index_own_slot(struct pp_index_table *t, unsigned long id)
{
	return &t->dir[id >> INDEX_CHUNK_SHIFT][id & (INDEX_CHUNK - 1)];
}

/* Consumer only: take slot @id (< capacity) for @netmem if it is free.
 * Only the consumer makes a slot non-zero; others only clear one, so a
 * check and then a store cannot lose a race. */
static __always_inline bool index_take(struct pp_index_table *t, unsigned long id,
				       netmem_ref netmem)
{
	unsigned long *slot = index_own_slot(t, id);

	if (READ_ONCE(*slot))
		return false;
	smp_store_release(slot, (unsigned long)netmem);			/* I1 */
	t->hint = (u32)(id + 1);
	return true;
}

int ppcore_index_init(struct page_pool *pool);
void ppcore_index_free(struct page_pool *pool);
int ppcore_index_mapped_slow(struct page_pool *pool, netmem_ref netmem);
void ppcore_index_unmap_all(struct page_pool *pool);
void ppcore_index_stats(const struct page_pool *pool, struct pp_page_pool_track_stats *st);

/* Upstream's page_pool_register_dma_index(): the common case is that the
 * slot at the cursor is free. */
static __always_inline int ppcore_index_mapped(struct page_pool *pool, netmem_ref netmem)
{
	struct pp_index_table *t = pool->track;
	unsigned long id = t->hint;

	if (likely(id && id < (unsigned long)t->nr_chunks * INDEX_CHUNK &&
		   !pp_should_fail(PP_FAULT_TRACKING) && index_take(t, id, netmem))) {
		netmem_set_dma_index(netmem, id);
		return 0;
	}
	return ppcore_index_mapped_slow(pool, netmem);
}

/* The claim on slot @id, recorded for @netmem (see "The invariant"). */
static inline bool index_claim(struct pp_index_table *t, unsigned long id, netmem_ref netmem,
			       bool destroying)
{
	unsigned long *slot = index_slot(t, id);
	unsigned long expected = (unsigned long)netmem;

	if (!destroying) {
		if (WARN_ON_ONCE(READ_ONCE(*slot) != expected))
			return false;
		WRITE_ONCE(*slot, 0);
		return true;
	}
	return try_cmpxchg(slot, &expected, 0);				/* C */
}

/* Upstream's page_pool_release_dma_index(). */
static __always_inline bool ppcore_index_claim_unmap(struct page_pool *pool, netmem_ref netmem)
{
	unsigned long id = netmem_get_dma_index(netmem);

	return id && index_claim(pool->track, id, netmem, READ_ONCE(pool->destroy_cnt) != 0);
}
#endif /* CONFIG_PAGEPOOL_DMA_TRACK_INDEX */

#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)
/* ITEMS design (track_items.c): every entry is out of line. */
int ppcore_items_init(struct page_pool *pool);
void ppcore_items_free(struct page_pool *pool);
bool ppcore_items_attach(struct page_pool *pool, netmem_ref netmem);
void ppcore_items_detach(struct page_pool *pool, netmem_ref netmem);
int ppcore_items_mapped(struct page_pool *pool, netmem_ref netmem);
bool ppcore_items_claim_unmap(struct page_pool *pool, netmem_ref netmem);
void ppcore_items_unmap_all(struct page_pool *pool);
void ppcore_items_stats(const struct page_pool *pool, struct pp_page_pool_track_stats *st);
#endif

/*
 * The inline entries. Each is a direct call in a default build; in an
 * all-designs build it tests the design (the index design first, the
 * default). mapped and claim run only for a pool whose pages are tracked,
 * so never for PP_DMA_TRACK_OFF: when the index design is not the pool's,
 * the items design is.
 */

/* Only the items design does anything at attach for a page; the others,
 * and every net_iov, just get the pool as the link. */
static __always_inline bool ppcore_track_attach(struct page_pool *pool, netmem_ref netmem)
{
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)
	if (unlikely(ppcore_track_design(pool) == PP_DMA_TRACK_ITEMS) &&
	    !netmem_is_net_iov(netmem))
		return ppcore_items_attach(pool, netmem);
#endif
	netmem_set_pp(netmem, pool);
	return true;
}

static __always_inline void ppcore_track_detach(struct page_pool *pool, netmem_ref netmem)
{
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)
	if (unlikely(ppcore_track_design(pool) == PP_DMA_TRACK_ITEMS))
		ppcore_items_detach(pool, netmem);
#else
	(void)pool;
	(void)netmem;
#endif
}

/* The page was DMA-mapped: record it. 0, or -ENOMEM (drop the page). */
static __always_inline int ppcore_track_mapped(struct page_pool *pool, netmem_ref netmem)
{
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX)
	if (likely(ppcore_track_design(pool) == PP_DMA_TRACK_INDEX))
		return ppcore_index_mapped(pool, netmem);
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)
	return ppcore_items_mapped(pool, netmem);
#else
	return 0;	/* not reached: the index design is the only one */
#endif
}

/* The page leaves: true for exactly one caller, who unmaps. Caller is
 * inside an RCU read-side section. */
static __always_inline bool ppcore_track_claim_unmap(struct page_pool *pool, netmem_ref netmem)
{
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX)
	if (likely(ppcore_track_design(pool) == PP_DMA_TRACK_INDEX))
		return ppcore_index_claim_unmap(pool, netmem);
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)
	return ppcore_items_claim_unmap(pool, netmem);
#else
	return false;	/* not reached: the index design is the only one */
#endif
}

#endif /* _PP_CORE_DMA_TRACK_H */
