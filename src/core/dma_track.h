/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA tracking, the hot paths of the INDEX design inline (the map and the
 * unmap of every page of a DMA-mapping pool go through them); everything
 * else is in dma_track.c, whose header comment explains the design.
 * Private to src/core.
 */
#ifndef _PP_CORE_DMA_TRACK_H
#define _PP_CORE_DMA_TRACK_H

#include <linux/bug.h>
#include <linux/mm.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>
#include <pagepool/runtime.h>

#include "core/core_internal.h"

/* INDEX design. */

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

/* Probe this many slots for a free one before growing the table. */
#define INDEX_PROBE	32

static inline unsigned long *index_slot(struct pp_index_table *t, unsigned long id)
{
	unsigned long **dir = smp_load_acquire(&t->dir);

	return &READ_ONCE(dir[id >> INDEX_CHUNK_SHIFT])[id & (INDEX_CHUNK - 1)];
}

int __ppcore_track_mapped(struct page_pool *pool, netmem_ref netmem);
bool __ppcore_track_claim_unmap(struct page_pool *pool, netmem_ref netmem);

/* The page was DMA-mapped: record it. 0, or -ENOMEM (drop the page). */
static __always_inline int ppcore_track_mapped(struct page_pool *pool, netmem_ref netmem)
{
	struct pp_index_table *t = pool->track;
	unsigned long id = t ? t->hint : 0;

	/* INDEX, and the slot at the cursor is free: the common case. The
	 * consumer owns the directory, so plain loads of it are fine. */
	if (likely(pool->dma_tracking == PP_DMA_TRACK_INDEX && id &&
		   id < (unsigned long)t->nr_chunks * INDEX_CHUNK &&
		   !pp_should_fail(PP_FAULT_TRACKING))) {
		unsigned long *slot = &t->dir[id >> INDEX_CHUNK_SHIFT][id & (INDEX_CHUNK - 1)];

		if (!__atomic_load_n(slot, __ATOMIC_RELAXED)) {
			__atomic_store_n(slot, (unsigned long)netmem, __ATOMIC_RELEASE);
			t->hint = (u32)(id + 1);
			netmem_set_dma_index(netmem, id);
			return 0;
		}
	}
	return __ppcore_track_mapped(pool, netmem);
}

/* Before destroy: the releaser is the only one touching its slot. */
static inline bool index_claim(struct pp_index_table *t, unsigned long id, netmem_ref netmem,
			bool destroying)
{
	unsigned long *slot = index_slot(t, id);
	unsigned long expected = (unsigned long)netmem;

	if (!destroying) {
		if (WARN_ON_ONCE(__atomic_load_n(slot, __ATOMIC_RELAXED) != expected))
			return false;
		__atomic_store_n(slot, 0, __ATOMIC_RELAXED);
		return true;
	}
	return __atomic_compare_exchange_n(slot, &expected, 0, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* The page leaves: true for exactly one caller, who unmaps. Caller is
 * inside an RCU read-side section (see dma_track.c). */
static __always_inline bool ppcore_track_claim_unmap(struct page_pool *pool, netmem_ref netmem)
{
	if (likely(pool->dma_tracking == PP_DMA_TRACK_INDEX)) {
		unsigned long id = netmem_get_dma_index(netmem);

		return id && index_claim(pool->track, id, netmem,
					 READ_ONCE(pool->destroy_cnt) != 0);
	}
	return __ppcore_track_claim_unmap(pool, netmem);
}

#endif /* _PP_CORE_DMA_TRACK_H */
