/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The list designs' state (src/core/ring_llist.c, which explains them):
 * here for ring_llist.c and for the tests that look inside.
 */
#ifndef _PP_CORE_RING_LLIST_H
#define _PP_CORE_RING_LLIST_H

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/mm_types.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>

#define PP_LLIST_SHIFT	48
#define PP_LLIST_ONE	(1UL << PP_LLIST_SHIFT)
#define PP_LLIST_PTR	(PP_LLIST_ONE - 1)
/* In a link word (never in the head): the netmem is in the list or on the
 * consumer's private chain. The count stays below 2^15. */
#define PP_LLIST_LINKED	(1UL << 63)

_Static_assert(sizeof(long) == 8, "the head word holds a pointer and a count");
_Static_assert(PAGE_POOL_MAX_RING_SIZE < (1UL << (63 - PP_LLIST_SHIFT)),
	       "the head's count holds the largest ring size");

/* pool->ring_state of a pool with a list design. */
struct pp_llist {
	/* Producers and the consumer: count << PP_LLIST_SHIFT | first. */
	atomic_long_t head ____cacheline_aligned_in_smp;
	u32 size;		/* the bound: the kernel's ring size */

	/* The consumer's (and destroy's drain's) alone. */
	netmem_ref priv ____cacheline_aligned_in_smp;	/* BATCH: the rest of a take */
	u32 priv_count;
	u64 taken;		/* LL3: left the list (refill, waive, drain) */
};

static __always_inline u32 pp_llist_count(unsigned long head)
{
	return (u32)(head >> PP_LLIST_SHIFT);
}

static __always_inline netmem_ref pp_llist_first(unsigned long head)
{
	return (netmem_ref)(head & PP_LLIST_PTR);
}

/* The design's word in a waiting netmem: struct page's `private` or
 * struct net_iov's pp_ring_link (one offset, asserted in <net/netmem.h>). */
static __always_inline unsigned long *netmem_ring_link(netmem_ref netmem)
{
	return (unsigned long *)((char *)__netmem_clear_lsb(netmem) +
				 offsetof(struct page, private));
}

#endif /* _PP_CORE_RING_LLIST_H */
