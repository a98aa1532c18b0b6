/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA tracking, the index design (PP_DMA_TRACK_INDEX; upstream v6.15's,
 * where the table is an xarray, pool->dma_mapped): an id in pp_magic's
 * index bits and a per-pool table of slots id -> page. The contract is in
 * dma_track.h, with this design's map and unmap hot paths (the slot take
 * and the claim); here are the table's growth, the slow path of a map and
 * destroy's unmap of everything still recorded.
 *
 * The table grows one chunk at a time and never shrinks or moves a chunk,
 * so a lock-free reader with an id always finds its slot. Only the
 * consumer writes non-zero slots (map time); whoever releases the page, or
 * destroy, clears one (the claim). Id 0 means "not tracked" and is never
 * given out. Allocation is next-fit from a cursor; a probe that finds no
 * free slot within INDEX_PROBE slots grows the table instead of searching
 * on, which keeps it sparse without counting. Cost: a store at map and at
 * unmap (no atomic read-modify-write before destroy); 8 bytes per tracked
 * page.
 *
 * Memory orders (each acquire with the release it pairs with):
 *
 *   Consumer (map, grow)                  Any thread
 *   I1  the page's DMA address stored,    I2  unmap_all: netmem =
 *       then smp_store_release(slot,          smp_load_acquire(slot), then
 *       netmem)  [index_take()]               it reads the DMA address
 *   G1  a new directory filled, then      G2  index_slot(): dir =
 *       smp_store_release(&t->dir)            smp_load_acquire(&t->dir)
 *   N1  WRITE_ONCE(dir[n], chunk), then   N2  unmap_all, stats: n =
 *       smp_store_release(&t->nr_chunks,      smp_load_acquire(&t->nr_chunks),
 *       n + 1)                                then slots of ids below
 *                                             n * INDEX_CHUNK
 *   C   a claim once destroy started: try_cmpxchg(slot, netmem, 0), fully
 *       ordered, the releaser's against destroy's (dma_track.h,
 *       index_claim()). Only the winner unmaps. It is fully ordered on
 *       failure too: the loser's later stores to the page (its DMA address
 *       cleared) must not be visible to the winner's earlier read of that
 *       address (a relaxed failure would allow it in the C model).
 *
 * A releaser gets its id from the page (netmem_get_dma_index()): the page
 * reached it after the consumer's I1, through whatever handed the page on
 * (the recycle ring, a driver's queue), which orders the slot's chunk and
 * directory before its G2. Claims before destroy are plain: only the
 * page's releaser touches its slot then (dma_track.h, "The invariant").
 */
#include <errno.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <pagepool/core.h>
#include <pagepool/runtime.h>

#include "core/core_internal.h"
#include "core/dma_track.h"

/* Probe this many slots for a free one before growing the table. */
#define INDEX_PROBE	32

/* Consumer only. Add a chunk (and a bigger directory when needed). */
static int index_grow(struct pp_index_table *t)
{
	unsigned long *chunk;

	if ((unsigned long)(t->nr_chunks + 1) * INDEX_CHUNK > INDEX_MAX)
		return -ENOSPC;
	if (pp_should_fail(PP_FAULT_TRACKING))
		return -ENOMEM;
	chunk = kcalloc(INDEX_CHUNK, sizeof(*chunk), GFP_ATOMIC);
	if (!chunk)
		return -ENOMEM;
	if (t->nr_chunks == t->dir_size) {
		u32 size = t->dir_size ? t->dir_size * 2 : 8;
		unsigned long **dir = kcalloc(size, sizeof(*dir), GFP_ATOMIC);
		struct pp_index_old_dir *old = kmalloc(sizeof(*old), GFP_ATOMIC);

		if (!dir || !old) {
			kfree(dir);
			kfree(old);
			kfree(chunk);
			return -ENOMEM;
		}
		if (t->dir) {
			memcpy(dir, t->dir, t->nr_chunks * sizeof(*dir));
			/* Readers may still hold the old one: keep it. */
			old->dir = t->dir;
			old->next = t->old;
			t->old = old;
		} else {
			kfree(old);
		}
		t->dir_size = size;
		smp_store_release(&t->dir, dir);			/* G1 */
	}
	WRITE_ONCE(t->dir[t->nr_chunks], chunk);
	smp_store_release(&t->nr_chunks, t->nr_chunks + 1);		/* N1 */
	return 0;
}

/* Consumer only: a free slot for @netmem, from the cursor on; its id
 * (>= 1), or 0 when none could be had. */
static unsigned long index_alloc(struct pp_index_table *t, netmem_ref netmem)
{
	unsigned long cap = (unsigned long)t->nr_chunks * INDEX_CHUNK, id = t->hint, n;

	for (n = 0; n < cap; n++, id++) {
		if (id >= cap)
			id = 0;
		if (id && index_take(t, id, netmem))	/* id 0: "not tracked" */
			return id;
		/* Dense around the cursor: add a chunk, use its first slot. */
		if (n == INDEX_PROBE && index_grow(t) == 0) {
			id = cap;
			cap += INDEX_CHUNK;
			if (index_take(t, id, netmem))
				return id;
		}
	}
	if (!cap && index_grow(t) == 0 && index_take(t, 1, netmem))
		return 1;
	return 0;
}

int ppcore_index_init(struct page_pool *pool)
{
	/* Only the pages a pool maps are tracked; the others need nothing. */
	if (!pool->dma_map)
		return 0;
	pool->track = kzalloc(sizeof(struct pp_index_table), GFP_KERNEL);
	if (!pool->track)
		return -ENOMEM;
	pool->dma_tracked = true;
	return 0;
}

void ppcore_index_free(struct page_pool *pool)
{
	struct pp_index_table *t = pool->track;
	u32 k;

	for (k = 0; k < t->nr_chunks; k++)
		kfree(t->dir[k]);
	kfree(t->dir);
	while (t->old) {
		struct pp_index_old_dir *o = t->old;

		t->old = o->next;
		kfree(o->dir);
		kfree(o);
	}
}

/* The cursor's slot was not free (or the table is empty): search. */
int ppcore_index_mapped_slow(struct page_pool *pool, netmem_ref netmem)
{
	unsigned long id;

	if (pp_should_fail(PP_FAULT_TRACKING))
		return -ENOMEM;
	id = index_alloc(pool->track, netmem);
	if (!id)
		return -ENOMEM;
	netmem_set_dma_index(netmem, id);
	return 0;
}

/* Destroy: unmap everything still recorded, holding no page reference. A
 * page being released concurrently either loses its claim to us (and is
 * not unmapped again) or wins it and unmaps itself. */
void ppcore_index_unmap_all(struct page_pool *pool)
{
	struct pp_index_table *t = pool->track;
	unsigned long cap = (unsigned long)smp_load_acquire(&t->nr_chunks) * INDEX_CHUNK; /* N2 */
	unsigned long id;

	for (id = 1; id < cap; id++) {
		netmem_ref netmem = (netmem_ref)smp_load_acquire(index_slot(t, id));	/* I2 */
		dma_addr_t dma;

		if (!netmem)
			continue;
		dma = page_pool_get_dma_addr_netmem(netmem);
		if (index_claim(t, id, netmem, true))
			ppcore_dma_unmap_page(pool, dma);
	}
}

void ppcore_index_stats(const struct page_pool *pool, struct pp_page_pool_track_stats *st)
{
	struct pp_index_table *t = pool->track;
	u32 chunks = smp_load_acquire(&t->nr_chunks);			/* N2 */
	unsigned long id;

	st->capacity = (u64)chunks * INDEX_CHUNK;
	for (id = 1; id < st->capacity; id++)	/* no counter on the hot path */
		st->tracked += !!READ_ONCE(*index_slot(t, id));
	st->bytes = st->capacity * sizeof(unsigned long) +
		    READ_ONCE(t->dir_size) * sizeof(unsigned long *) + sizeof(*t);
	st->bytes_per_slot = sizeof(unsigned long);
}
