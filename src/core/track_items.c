/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA tracking, the items design (PP_DMA_TRACK_ITEMS; Yunsheng Lin's
 * page_pool_item series, which upstream did not take: it chose the index
 * design, track_index.c). The contract is in dma_track.h.
 *
 * Each page of the pool points at a 16-byte item (its pp field, tagged
 * with PP_ITEM_TAG) inside a page-sized, page-aligned block whose first
 * word is the pool, so netmem_get_pp() finds the pool through the item.
 * Items are taken by the consumer from a private hold list, given back to
 * a lock-free release list by whoever frees the page, and the hold list
 * takes the whole release list when it runs empty. When both are empty a
 * new block is allocated (a "slow" item, counted in item_fast_empty): the
 * pages in flight stay unlimited. Every pool has items, mapping or not,
 * since they carry the page -> pool link; only a mapping pool's are
 * tracked. Cost: every page -> pool lookup goes through the item; 16 bytes
 * per page.
 *
 * Memory orders (each acquire with the release it pairs with):
 *
 *   Attach, detach (any thread)           Destroy's unmap_all
 *   A1  WRITE_ONCE(item->pp_netmem),      S1  state = smp_load_acquire(
 *       then smp_store_release(               &item->state); USED and
 *       &item->state, USED)                   MAPPED: read pp_netmem
 *       (mapped() then sets MAPPED
 *       with set_bit(), fully ordered,
 *       which continues A1's release
 *       sequence)
 *   D1  smp_store_release(&item->state,   S1  (the same load: a state of 0
 *       0): the item is free again            skips the item)
 *   L1  llist_add(): the free-list link   S2  netmem = smp_load_acquire(
 *       written over pp_netmem, with          &item->pp_netmem), then
 *       release, after D1                     READ_ONCE(item->state) again:
 *                                             a link read means the state
 *                                             read after it sees D1's 0
 *   L2  llist_add() of a freed item pairs with the consumer's
 *       llist_del_all() (acquire, <linux/llist.h>) in items_get().
 *   C   a claim once destroy started: test_and_clear_bit(MAPPED), fully
 *       ordered, the releaser's against destroy's. Only the winner unmaps.
 *
 * The block list is under blocks_lock (the consumer adds, unmap_all and
 * stats walk it). Claims before destroy are plain: only the page's
 * releaser touches its item then (dma_track.h, "The invariant"). The hold
 * list is the consumer's alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bitops.h>
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

_Static_assert(sizeof(struct page_pool_item) == 16, "the series' 16-byte item");
_Static_assert(offsetof(struct page_pool_item_block, pp) == 0,
	       "netmem_get_pp() reads the pool from the block's first word");

struct pp_items {
	struct llist_node *hold;	/* consumer-only free items */
	struct llist_head release;	/* items given back, any thread */
	spinlock_t blocks_lock;		/* the block list (unmap_all walks it) */
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
		n = it->hold = llist_del_all(&it->release);		/* L2 */
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

int ppcore_items_init(struct page_pool *pool)
{
	struct pp_items *it;
	unsigned long want, have;

	it = kzalloc(sizeof(*it), GFP_KERNEL);
	if (!it)
		return -ENOMEM;
	spin_lock_init(&it->blocks_lock);
	INIT_LIST_HEAD(&it->blocks);
	init_llist_head(&it->release);
	pool->track = it;
	/* The series' preallocation: two rings' worth, a cache, slack. */
	want = (unsigned long)pool->ring.size * 2 + PP_ALLOC_CACHE_SIZE + 512;
	for (have = 0; have < want; have += ITEMS_PER_BLOCK)
		if (items_add_block(pool, it))
			return -ENOMEM;	/* ppcore_track_free() cleans up */
	pool->dma_tracked = pool->dma_map;
	return 0;
}

void ppcore_items_free(struct page_pool *pool)
{
	struct page_pool_item_block *blk, *tmp;
	struct pp_items *it = pool->track;

	list_for_each_entry_safe(blk, tmp, &it->blocks, list)
		free(blk);
}

/* Before anything else touches the page as the pool's. */
bool ppcore_items_attach(struct page_pool *pool, netmem_ref netmem)
{
	struct page_pool_item *item;

	item = items_get(pool, pool->track);
	if (!item)
		return false;
	WRITE_ONCE(item->pp_netmem, netmem);
	smp_store_release(&item->state, BIT(PP_ITEM_USED));		/* A1 */
	WRITE_ONCE(__netmem_clear_lsb(netmem)->pp,
		   (struct page_pool *)((unsigned long)item | PP_ITEM_TAG));
	return true;
}

/* Before the release count moves (the pool may go right after). */
void ppcore_items_detach(struct page_pool *pool, netmem_ref netmem)
{
	struct page_pool_item *item = netmem_item(netmem);
	struct pp_items *it = pool->track;

	if (!item)
		return;
	smp_store_release(&item->state, 0);				/* D1 */
	llist_add(&item->lentry, &it->release);				/* L1, L2 */
}

int ppcore_items_mapped(struct page_pool *pool, netmem_ref netmem)
{
	struct page_pool_item *item = netmem_item(netmem);

	(void)pool;
	if (WARN_ON_ONCE(!item))
		return -EINVAL;
	set_bit(PP_ITEM_MAPPED, &item->state);
	return 0;
}

/* Inside an RCU read-side section (dma_track.h, "The invariant"). */
bool ppcore_items_claim_unmap(struct page_pool *pool, netmem_ref netmem)
{
	struct page_pool_item *item = netmem_item(netmem);
	unsigned long state;

	if (!item)
		return false;
	if (READ_ONCE(pool->destroy_cnt))
		return test_and_clear_bit(PP_ITEM_MAPPED, &item->state);	/* C */
	state = READ_ONCE(item->state);
	WRITE_ONCE(item->state, state & ~BIT(PP_ITEM_MAPPED));
	return state & BIT(PP_ITEM_MAPPED);
}

/* Destroy: unmap everything still mapped, holding no page reference. A
 * page being released concurrently either loses its claim to us (and is
 * not unmapped again) or wins it and unmaps itself. */
void ppcore_items_unmap_all(struct page_pool *pool)
{
	struct pp_items *it = pool->track;
	struct page_pool_item_block *blk;
	unsigned int i;

	spin_lock_bh(&it->blocks_lock);
	list_for_each_entry(blk, &it->blocks, list) {
		for (i = 0; i < blk->nr; i++) {
			struct page_pool_item *item = &blk->items[i];
			unsigned long state = smp_load_acquire(&item->state);	/* S1 */
			netmem_ref netmem;
			dma_addr_t dma;

			if (!(state & BIT(PP_ITEM_USED)) || !(state & BIT(PP_ITEM_MAPPED)))
				continue;
			/*
			 * A concurrent release may detach the item now and
			 * reuse pp_netmem's word as its free-list link: read
			 * the word, then check the state is unchanged, or this
			 * would dereference a list pointer (S2).
			 */
			netmem = (netmem_ref)smp_load_acquire(&item->pp_netmem);	/* S2 */
			if (READ_ONCE(item->state) != state)
				continue;
			dma = page_pool_get_dma_addr_netmem(netmem);
			if (test_and_clear_bit(PP_ITEM_MAPPED, &item->state))	/* C */
				ppcore_dma_unmap_page(pool, dma);
		}
	}
	spin_unlock_bh(&it->blocks_lock);
}

void ppcore_items_stats(const struct page_pool *pool, struct pp_page_pool_track_stats *st)
{
	struct pp_items *it = pool->track;
	struct page_pool_item_block *blk;
	unsigned int i;

	st->capacity = READ_ONCE(it->nr_blocks) * ITEMS_PER_BLOCK;
	st->bytes = READ_ONCE(it->nr_blocks) * ITEM_BLOCK_SIZE + sizeof(*it);
	st->bytes_per_slot = sizeof(struct page_pool_item);
	st->item_fast_empty = READ_ONCE(it->fast_empty);
	st->item_full = READ_ONCE(it->full);
	st->item_blocks = READ_ONCE(it->nr_blocks);
	/* The pages recorded as mapped, as the index design counts them. */
	spin_lock_bh(&it->blocks_lock);
	list_for_each_entry(blk, &it->blocks, list)
		for (i = 0; i < blk->nr; i++)
			st->tracked += (READ_ONCE(blk->items[i].state) & BIT(PP_ITEM_MAPPED)) != 0;
	spin_unlock_bh(&it->blocks_lock);
}
