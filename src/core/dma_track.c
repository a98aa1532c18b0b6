/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA tracking, what the designs share: the entry points of the contract
 * (dma_track.h) that are not inline, and their dispatch to the design of
 * the pool, track_index.c or track_items.c. In a default build only one of
 * them is compiled and each entry calls it directly.
 */
#include <errno.h>
#include <string.h>

#include <linux/err.h>
#include <linux/slab.h>
#include <pagepool/core.h>

#include "core/core_internal.h"
#include "core/dma_track.h"

int ppcore_track_init(struct page_pool *pool)
{
	/* The setter refuses a design this build lacks; a pool must never
	 * get one (its calls would go to the compiled design). */
	if (!ppcore_track_built(pool->dma_tracking))
		return -EOPNOTSUPP;
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX)
	if (ppcore_track_design(pool) == PP_DMA_TRACK_INDEX)
		return ppcore_index_init(pool);
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)
	if (ppcore_track_design(pool) == PP_DMA_TRACK_ITEMS)
		return ppcore_items_init(pool);
#endif
	return 0;	/* PP_DMA_TRACK_OFF: nothing to set up */
}

void ppcore_track_free(struct page_pool *pool)
{
	if (!pool->track)
		return;
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX)
	if (ppcore_track_design(pool) == PP_DMA_TRACK_INDEX)
		ppcore_index_free(pool);
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)
	if (ppcore_track_design(pool) == PP_DMA_TRACK_ITEMS)
		ppcore_items_free(pool);
#endif
	kfree(pool->track);
	pool->track = NULL;
}

/* Only for a pool whose pages are tracked (pool->dma_tracked). */
void ppcore_track_unmap_all(struct page_pool *pool)
{
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX)
	if (ppcore_track_design(pool) == PP_DMA_TRACK_INDEX)
		ppcore_index_unmap_all(pool);
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)
	if (ppcore_track_design(pool) == PP_DMA_TRACK_ITEMS)
		ppcore_items_unmap_all(pool);
#endif
}

int pp_page_pool_get_track_stats(const struct page_pool *pool,
				 struct pp_page_pool_track_stats *st)
{
	if (IS_ERR_OR_NULL(pool) || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->mode = ppcore_track_design(pool);
	if (!pool->track)
		return 0;
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX)
	if (ppcore_track_design(pool) == PP_DMA_TRACK_INDEX)
		ppcore_index_stats(pool, st);
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)
	if (ppcore_track_design(pool) == PP_DMA_TRACK_ITEMS)
		ppcore_items_stats(pool, st);
#endif
	return 0;
}
