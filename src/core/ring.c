/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The return ring (src/core/ring.h has the contract): the kernel's
 * ptr_ring design - one ring per pool, producers under its producer
 * spinlock, the consumer alone and lock-free - and the entry points both
 * designs share: a single netmem or a bulk into the ring, the consumer's
 * refill, destroy's emptying, and the producers' drain before the pool is
 * freed. With lanes (ring_lanes.c) the lanes come first and this ring
 * takes what they spill.
 *
 * Memory orders: the ring's own (P1 publish, C1 consume, C2 batched
 * clearing) are labelled in <linux/ptr_ring.h>. The producer lock orders
 * producers among themselves and against page_pool_ring_sync_producers().
 */

#include <linux/bottom_half.h>
#include <linux/ptr_ring.h>
#include <linux/spinlock.h>
#include <linux/topology.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"
#include "core/ring.h"

bool page_pool_producer_lock(struct page_pool *pool)
{
	bool in_softirq = in_softirq();

	if (in_softirq)
		spin_lock(&pool->ring.producer_lock);
	else
		spin_lock_bh(&pool->ring.producer_lock);
	return in_softirq;
}

void page_pool_producer_unlock(struct page_pool *pool, bool in_softirq)
{
	if (in_softirq)
		spin_unlock(&pool->ring.producer_lock);
	else
		spin_unlock_bh(&pool->ring.producer_lock);
}

/* Into the shared ring, under its producer lock (the kernel's design). */
noinline bool page_pool_recycle_in_shared_ring(struct page_pool *pool, netmem_ref netmem)
{
	bool in_softirq, ret;

	in_softirq = page_pool_producer_lock(pool);
	ret = !__ptr_ring_produce(&pool->ring, (void *)netmem);
	if (ret)
		recycle_stat_inc(pool, ring);
	page_pool_producer_unlock(pool, in_softirq);
	return ret;
}

/* The puts of @bulk are counted already (page_pool_recycle_ring_bulk()). */
void page_pool_shared_ring_bulk(struct page_pool *pool, netmem_ref *bulk, u32 bulk_len,
				u32 room)
{
	u32 i;
	bool in_softirq;

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
	if (page_pool_has_lanes(pool) && room > i)
		ppcore_ring_credits_put(pool, room - i);
	/* Ring full: free the rest outside the lock (put_page can be slow). */
	for (; i < bulk_len; i++) {
		page_pool_home_uncount(bulk[i]);
		page_pool_put_return_page(pool, bulk[i]);
	}
}

int page_pool_ring_design_init(struct page_pool *pool, u32 ring_qsize)
{
	switch (page_pool_ring_design(pool)) {
	case PP_RING_LANES:
		return ppcore_lanes_init(pool, ring_qsize);
	case PP_RING_LLIST:
	case PP_RING_LLIST_BATCH:
		return ppcore_llist_init(pool, ring_qsize);
	case PP_RING_MAGAZINE:
		return ppcore_mag_init(pool, ring_qsize);
	default:
		return 0;
	}
}

void page_pool_ring_design_free(struct page_pool *pool)
{
	switch (page_pool_ring_design(pool)) {
	case PP_RING_LANES:
		ppcore_lanes_free(pool);
		break;
	case PP_RING_LLIST:
	case PP_RING_LLIST_BATCH:
		ppcore_llist_free(pool);
		break;
	case PP_RING_MAGAZINE:
		ppcore_mag_free(pool);
		break;
	default:
		break;
	}
}

void page_pool_return_ring_page(struct page_pool *pool, netmem_ref netmem)
{
	/* Destroy's drain takes it out of the ring as the refill would: a
	 * duplicate put is dropped here. */
	if (!page_pool_home_take_checked(pool, netmem, "destroy"))
		return;
	/* Pages in the ring are owned by the pool alone. */
	if (netmem_ref_count(netmem) != 1)
		pr_crit("%s() page_pool refcnt %d violation\n", __func__,
			netmem_ref_count(netmem));
	page_pool_return_page(pool, netmem);
}

/* Destroy: no consumer any more; empty the lanes and the ring. Late
 * returns still find room, as in the kernel's emptied ring. */
void page_pool_empty_ring(struct page_pool *pool)
{
	netmem_ref netmem;
	u32 consumed = 0;

	if (page_pool_has_lanes(pool))
		consumed = ppcore_lanes_drain(pool);
	else if (page_pool_ring_is_llist(pool))
		ppcore_llist_drain(pool);
	else if (page_pool_ring_design(pool) == PP_RING_MAGAZINE)
		ppcore_mag_drain(pool);
	while ((netmem = (netmem_ref)ptr_ring_consume_bh(&pool->ring))) {
		page_pool_return_ring_page(pool, netmem);
		consumed++;
	}
	if (page_pool_has_lanes(pool) && consumed)
		ppcore_ring_credits_put(pool, consumed);
}


/* Before the pool is freed: a producer still inside the producer lock
 * (page_pool_recycle_in_shared_ring()) has left it once we took it. */
void page_pool_ring_sync_producers(struct page_pool *pool)
{
	bool in_softirq = page_pool_producer_lock(pool);

	page_pool_producer_unlock(pool, in_softirq);
}
