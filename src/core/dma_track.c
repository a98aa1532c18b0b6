/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA tracking: knowing every DMA-mapped page of a pool, so that
 * page_pool_destroy() can unmap the ones still in flight while the device
 * is bound, and pages that come back later are released without touching
 * the device. Two designs (enum pp_dma_tracking), same contract:
 *
 *   attach    the page joins the pool (items: takes its item)
 *   mapped    the page was DMA-mapped: record it
 *   claim     the page leaves: true for exactly one caller, who unmaps
 *   unmap_all destroy: unmap every recorded page (no page reference held)
 *   detach    the page leaves the pool (items: gives its item back)
 *
 * Unmap-once. Until destroy starts, only the page's releaser touches its
 * record, so a claim is a plain store. Destroy raises destroy_cnt, then
 * waits a grace period (releases claim inside an RCU read-side section),
 * then walks the records; from the flag on, claims are an atomic
 * compare-and-exchange (index) or test-and-clear (items), and the loser
 * never unmaps. (The seeds' unmap path works the same way.) Callers read
 * the page's DMA address before claiming, because a winner that is not
 * them may clear it right after (the scrub holds no page reference).
 *
 * INDEX (upstream v6.15): an id in pp_magic's index bits and a per-pool
 * table of slots id -> page. The table grows one chunk at a time and never
 * shrinks or moves a chunk, so lock-free readers with an id always find its
 * slot (ids are published after the chunk, through the page). Only the
 * consumer writes non-zero slots (map time); anyone may clear one (claim).
 * Allocation is next-fit; a probe that finds no free slot within
 * INDEX_PROBE slots grows the table instead of searching on, which keeps
 * it sparse without counting. Cost: a store at map and at unmap (no
 * atomic before destroy); 8 bytes per tracked page.
 *
 * ITEMS (Yunsheng Lin's series): each page points at a 16-byte item inside
 * a page-sized, page-aligned block whose first word is the pool; items are
 * taken by the consumer from a private hold list, given back to a lock-free
 * release list by whoever frees the page, and the hold list steals the
 * release list when empty. When both are empty a new block is allocated (a
 * "slow" item: inflight pages stay unlimited; counted in item_fast_empty).
 * Cost: every page -> pool lookup goes through the item.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/dma-mapping.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/page_pool/helpers.h>
#include <pagepool/core.h>
#include <pagepool/runtime.h>

#include "core/core_internal.h"
#include "core/dma_track.h"

/* INDEX design (the table and its hot paths: dma_track.h). */

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
		smp_store_release(&t->dir, dir);
	}
	WRITE_ONCE(t->dir[t->nr_chunks], chunk);
	smp_store_release(&t->nr_chunks, t->nr_chunks + 1);
	return 0;
}

/* Consumer only: take slot @id if free. Only we write non-zero slots;
 * others only clear them, so a plain check-then-store is race-free. */
static bool index_take(struct pp_index_table *t, unsigned long id, netmem_ref netmem)
{
	unsigned long *slot = index_slot(t, id);

	if (__atomic_load_n(slot, __ATOMIC_RELAXED))
		return false;
	__atomic_store_n(slot, (unsigned long)netmem, __ATOMIC_RELEASE);
	t->hint = (u32)(id + 1);
	return true;
}

/* Consumer only: a free slot for @netmem; returns its id (>= 1) or 0. */
static unsigned long index_alloc(struct pp_index_table *t, netmem_ref netmem)
{
	unsigned long cap = (unsigned long)t->nr_chunks * INDEX_CHUNK, id = t->hint, n;

	/* Common case: the slot at the cursor is free. (The consumer owns
	 * the directory, so plain loads of it are fine here.) */
	if (likely(id && id < cap)) {
		unsigned long *slot = &t->dir[id >> INDEX_CHUNK_SHIFT][id & (INDEX_CHUNK - 1)];

		if (!__atomic_load_n(slot, __ATOMIC_RELAXED)) {
			__atomic_store_n(slot, (unsigned long)netmem, __ATOMIC_RELEASE);
			t->hint = (u32)(id + 1);
			return id;
		}
	}

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

/* ITEMS design. */

#define PP_ITEM_USED		0	/* state bits */
#define PP_ITEM_MAPPED		1

struct page_pool_item {
	unsigned long state;
	union {
		netmem_ref pp_netmem;		/* while USED */
		struct llist_node lentry;	/* while free */
	};
};

struct page_pool_item_block {
	struct page_pool *pp;			/* first word: netmem_get_pp() */
	struct list_head list;
	unsigned int nr;
	struct page_pool_item items[];
};

#define ITEM_BLOCK_SIZE		PAGE_SIZE
#define ITEMS_PER_BLOCK		((ITEM_BLOCK_SIZE - sizeof(struct page_pool_item_block)) / \
				 sizeof(struct page_pool_item))

_Static_assert(sizeof(struct page_pool_item) == 16, "the seeds' 16-byte item");
_Static_assert(offsetof(struct page_pool_item_block, pp) == 0,
	       "netmem_get_pp() reads the pool from the block's first word");

struct pp_items {
	struct llist_node *hold;	/* consumer-only free items */
	struct llist_head release;	/* items given back, any thread */
	spinlock_t blocks_lock;		/* the block list (scrub walks it) */
	struct list_head blocks;
	unsigned long nr_blocks;
	u64 fast_empty;			/* slow items: a block allocated on demand */
	u64 full;			/* no item at all: the page was dropped */
};

static int items_add_block(struct page_pool *pool, struct pp_items *it)
{
	struct page_pool_item_block *blk;
	unsigned int i;

	if (pp_should_fail(PP_FAULT_TRACKING))
		return -ENOMEM;
	/* Page-aligned: an item's address masked with PAGE_MASK is its block. */
	if (posix_memalign((void **)&blk, ITEM_BLOCK_SIZE, ITEM_BLOCK_SIZE))
		return -ENOMEM;
	memset(blk, 0, ITEM_BLOCK_SIZE);
	blk->pp = pool;
	blk->nr = ITEMS_PER_BLOCK;
	for (i = 0; i < blk->nr; i++) {
		blk->items[i].lentry.next = it->hold;
		it->hold = &blk->items[i].lentry;
	}
	spin_lock_bh(&it->blocks_lock);
	list_add_tail(&blk->list, &it->blocks);
	WRITE_ONCE(it->nr_blocks, it->nr_blocks + 1);
	spin_unlock_bh(&it->blocks_lock);
	return 0;
}

/* Consumer only. */
static struct page_pool_item *items_get(struct page_pool *pool, struct pp_items *it)
{
	struct llist_node *n = it->hold;

	if (unlikely(!n)) {
		/* Take back everything released since last time. */
		n = it->hold = llist_del_all(&it->release);
		if (!n) {
			WRITE_ONCE(it->fast_empty, it->fast_empty + 1);
			if (items_add_block(pool, it)) {
				WRITE_ONCE(it->full, it->full + 1);
				return NULL;
			}
			n = it->hold;
		}
	}
	it->hold = n->next;
	return container_of(n, struct page_pool_item, lentry);
}

static struct page_pool_item *netmem_item(netmem_ref netmem)
{
	unsigned long v = (unsigned long)READ_ONCE(__netmem_clear_lsb(netmem)->pp);

	return (v & PP_ITEM_TAG) ? (struct page_pool_item *)(v & ~PP_ITEM_TAG) : NULL;
}

/* The contract. */

int ppcore_track_init(struct page_pool *pool)
{
	struct pp_items *it;
	unsigned long want, have;

	switch (pool->dma_tracking) {
	case PP_DMA_TRACK_INDEX:
		if (!pool->dma_map)
			return 0;
		pool->track = kzalloc(sizeof(struct pp_index_table), GFP_KERNEL);
		if (!pool->track)
			return -ENOMEM;
		pool->dma_tracked = true;
		return 0;
	case PP_DMA_TRACK_ITEMS:
		it = kzalloc(sizeof(*it), GFP_KERNEL);
		if (!it)
			return -ENOMEM;
		spin_lock_init(&it->blocks_lock);
		INIT_LIST_HEAD(&it->blocks);
		init_llist_head(&it->release);
		pool->track = it;
		/* The seeds' preallocation: two rings' worth, a cache, slack. */
		want = (unsigned long)pool->ring.size * 2 + PP_ALLOC_CACHE_SIZE + 512;
		for (have = 0; have < want; have += ITEMS_PER_BLOCK)
			if (items_add_block(pool, it))
				return -ENOMEM;	/* ppcore_track_free() cleans up */
		pool->dma_tracked = pool->dma_map;
		return 0;
	default:
		return 0;
	}
}

void ppcore_track_free(struct page_pool *pool)
{
	struct page_pool_item_block *blk, *tmp;
	struct pp_index_table *t;
	struct pp_items *it;
	u32 k;

	if (!pool->track)
		return;
	if (pool->dma_tracking == PP_DMA_TRACK_INDEX) {
		t = pool->track;
		for (k = 0; k < t->nr_chunks; k++)
			kfree(t->dir[k]);
		kfree(t->dir);
		while (t->old) {
			struct pp_index_old_dir *o = t->old;

			t->old = o->next;
			kfree(o->dir);
			kfree(o);
		}
	} else {
		it = pool->track;
		list_for_each_entry_safe(blk, tmp, &it->blocks, list)
			free(blk);
	}
	kfree(pool->track);
	pool->track = NULL;
}

/* ITEMS: attach before anything else touches the page as the pool's. */
bool __ppcore_track_attach(struct page_pool *pool, netmem_ref netmem)
{
	struct page_pool_item *item;

	item = items_get(pool, pool->track);
	if (!item)
		return false;
	item->pp_netmem = netmem;
	__atomic_store_n(&item->state, BIT(PP_ITEM_USED), __ATOMIC_RELEASE);
	WRITE_ONCE(__netmem_clear_lsb(netmem)->pp,
		   (struct page_pool *)((unsigned long)item | PP_ITEM_TAG));
	return true;
}

/* ITEMS: before the release count moves (the pool may go right after). */
void __ppcore_track_detach(struct page_pool *pool, netmem_ref netmem)
{
	struct page_pool_item *item = netmem_item(netmem);
	struct pp_items *it = pool->track;

	if (!item)
		return;
	__atomic_store_n(&item->state, 0, __ATOMIC_RELEASE);
	llist_add(&item->lentry, &it->release);
}

int __ppcore_track_mapped(struct page_pool *pool, netmem_ref netmem)
{
	struct page_pool_item *item;
	unsigned long id;

	if (pool->dma_tracking == PP_DMA_TRACK_INDEX) {
		if (pp_should_fail(PP_FAULT_TRACKING))
			return -ENOMEM;
		id = index_alloc(pool->track, netmem);
		if (!id)
			return -ENOMEM;
		netmem_set_dma_index(netmem, id);
		return 0;
	}
	item = netmem_item(netmem);
	if (WARN_ON_ONCE(!item))
		return -EINVAL;
	set_bit(PP_ITEM_MAPPED, &item->state);
	return 0;
}

/* Caller is inside an RCU read-side section (see the top of the file). */
bool __ppcore_track_claim_unmap(struct page_pool *pool, netmem_ref netmem)
{
	bool destroying = READ_ONCE(pool->destroy_cnt) != 0;
	struct page_pool_item *item;
	unsigned long id, state;

	if (pool->dma_tracking == PP_DMA_TRACK_INDEX) {
		id = netmem_get_dma_index(netmem);
		return id && index_claim(pool->track, id, netmem, destroying);
	}
	item = netmem_item(netmem);
	if (!item)
		return false;
	if (destroying)
		return test_and_clear_bit(PP_ITEM_MAPPED, &item->state);
	state = __atomic_load_n(&item->state, __ATOMIC_RELAXED);
	__atomic_store_n(&item->state, state & ~BIT(PP_ITEM_MAPPED), __ATOMIC_RELAXED);
	return state & BIT(PP_ITEM_MAPPED);
}

static void track_unmap(struct page_pool *pool, dma_addr_t dma)
{
	dma_unmap_page_attrs(pool->p.dev, dma, PAGE_SIZE << pool->p.order, pool->p.dma_dir,
			     DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING);
}

/* Destroy: unmap everything still mapped, holding no page reference. A
 * page being released concurrently either loses its claim to us (and is
 * not unmapped again) or wins it and unmaps itself. */
void ppcore_track_unmap_all(struct page_pool *pool)
{
	if (pool->dma_tracking == PP_DMA_TRACK_INDEX) {
		struct pp_index_table *t = pool->track;
		unsigned long cap = (unsigned long)smp_load_acquire(&t->nr_chunks) * INDEX_CHUNK;
		unsigned long id;

		for (id = 1; id < cap; id++) {
			unsigned long *slot = index_slot(t, id);
			netmem_ref netmem = (netmem_ref)__atomic_load_n(slot, __ATOMIC_ACQUIRE);
			dma_addr_t dma;

			if (!netmem)
				continue;
			dma = page_pool_get_dma_addr_netmem(netmem);
			if (index_claim(t, id, netmem, true))
				track_unmap(pool, dma);
		}
	} else {
		struct pp_items *it = pool->track;
		struct page_pool_item_block *blk;
		unsigned int i;

		spin_lock_bh(&it->blocks_lock);
		list_for_each_entry(blk, &it->blocks, list) {
			for (i = 0; i < blk->nr; i++) {
				struct page_pool_item *item = &blk->items[i];
				unsigned long state = __atomic_load_n(&item->state, __ATOMIC_ACQUIRE);
				netmem_ref netmem;
				dma_addr_t dma;

				if (!(state & BIT(PP_ITEM_USED)) || !(state & BIT(PP_ITEM_MAPPED)))
					continue;
				/*
				 * A concurrent release may detach the item now and
				 * reuse pp_netmem's word as its free-list link: read
				 * the word, then check the state is unchanged, or
				 * this would dereference a list pointer. The detach
				 * clears the state before llist_add() stores the link
				 * with release: acquiring a link orders a state of 0.
				 */
				netmem = (netmem_ref)__atomic_load_n(&item->pp_netmem, __ATOMIC_ACQUIRE);
				if (__atomic_load_n(&item->state, __ATOMIC_RELAXED) != state)
					continue;
				dma = page_pool_get_dma_addr_netmem(netmem);
				if (test_and_clear_bit(PP_ITEM_MAPPED, &item->state))
					track_unmap(pool, dma);
			}
		}
		spin_unlock_bh(&it->blocks_lock);
	}
}

int pp_page_pool_get_track_stats(const struct page_pool *pool,
				 struct pp_page_pool_track_stats *st)
{
	if (IS_ERR_OR_NULL(pool) || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->mode = pool->dma_tracking;
	if (!pool->track)
		return 0;
	if (pool->dma_tracking == PP_DMA_TRACK_INDEX) {
		struct pp_index_table *t = pool->track;
		u32 chunks = smp_load_acquire(&t->nr_chunks);
		unsigned long id;

		st->capacity = (u64)chunks * INDEX_CHUNK;
		for (id = 1; id < st->capacity; id++)	/* no counter on the hot path */
			st->tracked += !!__atomic_load_n(index_slot(t, id), __ATOMIC_RELAXED);
		st->bytes = st->capacity * sizeof(unsigned long) +
			    READ_ONCE(t->dir_size) * sizeof(unsigned long *) + sizeof(*t);
		st->bytes_per_slot = sizeof(unsigned long);
	} else {
		struct pp_items *it = pool->track;

		st->capacity = READ_ONCE(it->nr_blocks) * ITEMS_PER_BLOCK;
		st->bytes = READ_ONCE(it->nr_blocks) * ITEM_BLOCK_SIZE + sizeof(*it);
		st->bytes_per_slot = sizeof(struct page_pool_item);
		st->item_fast_empty = READ_ONCE(it->fast_empty);
		st->item_full = READ_ONCE(it->full);
		st->item_blocks = READ_ONCE(it->nr_blocks);
	}
	return 0;
}
