/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * struct page: one per 4 KiB page of the arena, 64 bytes, in an array beside
 * it (so virt_to_page() and page_address() are arithmetic).
 *
 * The middle 40 bytes are a union, by page state:
 *   - free (in a buddy or per-CPU list): buddy_list;
 *   - owned by page_pool: pp_magic, pp, dma_addr, pp_ref_count (the
 *     kernel's netmem fields, same order and offsets as struct net_iov),
 *     and pp_put_seq where the kernel has a padding word;
 *   - tail page of a compound page: compound_head = head | 1.
 * The first word is therefore a list pointer, PP_SIGNATURE (non-canonical,
 * see linux/poison.h) plus the DMA index bits, or head|1: a page_pool page
 * is recognisable without any extra flag, and bit 0 always marks a tail.
 * Layer: mm.
 */
#ifndef _PP_LINUX_MM_TYPES_H
#define _PP_LINUX_MM_TYPES_H

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>
/* As the kernel's <linux/mm_types.h>, which code relies on for them. */
#include <linux/refcount.h>
#include <linux/workqueue.h>

struct page_pool;

struct page {
	unsigned long flags;		/* PG_* bits */
	union {
		struct {	/* free page, owned by the page allocator */
			struct list_head buddy_list;
			unsigned long _buddy_pad[3];
		};
		struct {	/* page_pool page (netmem) */
			unsigned long pp_magic;	/* PP_SIGNATURE | DMA index */
			struct page_pool *pp;
			union {
				unsigned long _pp_mapping_pad;
				/* last-reference puts into the ring, by
				 * their putters (<net/page_pool/helpers.h>,
				 * "Home state"); kept while the page is free */
				unsigned long pp_put_seq;
			};
			unsigned long dma_addr;
			atomic_long_t pp_ref_count;
		};
		struct {	/* tail page of a compound page */
			unsigned long compound_head;	/* head | 1 */
			unsigned long _tail_pad[4];
		};
	};
	atomic_t _refcount;
	unsigned char order;		/* head: allocation order; free: buddy order */
	unsigned char nid;		/* node of the page */
	unsigned short _mm_state;	/* allocator bookkeeping (src/mm) */
	/* Free for the page's owner. A page_pool page: the list designs of
	 * the return ring (PP_RING_LLIST, PP_RING_LLIST_BATCH) own it while
	 * the page waits in their list, as its link (struct net_iov has its
	 * pp_ring_link at this offset); nothing else of page_pool uses it.
	 * A page bound to a net_iov area (PG_net_iov, never a page_pool
	 * page itself): the net_iov it backs. */
	unsigned long private;
};

_Static_assert(sizeof(struct page) == 64, "struct page must stay 64 bytes");
_Static_assert(offsetof(struct page, pp_magic) == offsetof(struct page, compound_head),
	       "pp_magic and compound_head share the first union word");

#endif /* _PP_LINUX_MM_TYPES_H */
