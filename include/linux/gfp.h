/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page allocator's entry points. Pages come from the arena of
 * <pagepool/mm.h> (a default arena is created on first use).
 *
 * Allocation: from the calling CPU's per-CPU list for order 0 (refilled
 * from the buddy lists in batches, under the zone lock), from the buddy
 * lists for order > 0. Node @nid (NUMA_NO_NODE = the calling CPU's node)
 * first, then the other nodes unless __GFP_THISNODE. NULL when memory runs
 * out or PP_FAULT_PAGE_ALLOC fires; with __GFP_NOWARN no warning is printed.
 * Pages come with refcount 1. With __GFP_COMP an order > 0 block is a
 * compound page (one refcount, on the head); without it, it must be freed
 * with __free_pages() of the same order.
 * Layer: mm.
 */
#ifndef _PP_LINUX_GFP_H
#define _PP_LINUX_GFP_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/gfp_types.h>
#include <linux/mm_types.h>
#include <linux/numa.h>
#include <linux/topology.h>

#define MAX_PAGE_ORDER	10
#define NR_PAGE_ORDERS	(MAX_PAGE_ORDER + 1)
#define MAX_ORDER	MAX_PAGE_ORDER

/**
 * alloc_pages_node() - allocate a block of pages from a node
 * @nid: the node (NUMA_NO_NODE: the calling CPU's; one out of range is
 *	warned about once and treated as NUMA_NO_NODE)
 * @gfp: GFP flags (__GFP_ZERO, __GFP_COMP, __GFP_NOWARN, ...)
 * @order: the block's order, up to MAX_PAGE_ORDER
 *
 * From the CPU's per-CPU list for order 0, else the node's buddy lists.
 *
 * Context: any context (the arena never sleeps to reclaim).
 * Return: the first page, or NULL (a warning unless __GFP_NOWARN).
 */
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);
#define __alloc_pages_node(nid, gfp, order)	alloc_pages_node(nid, gfp, order)

static inline struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	return alloc_pages_node(NUMA_NO_NODE, gfp, order);
}

#define alloc_page(gfp)		alloc_pages(gfp, 0)

/**
 * alloc_pages_bulk_node() - fill an array with order-0 pages
 * @gfp: GFP flags
 * @nid: the node
 * @nr_pages: the array's slots
 * @page_array: the array; its NULL slots are filled, the others kept
 *
 * One zone-lock round trip at most when the node has memory.
 *
 * Context: any context.
 * Return: the number of populated slots (less than @nr_pages when memory
 * ran out): as in the kernel, slots [0, return) hold pages, the fill
 * stops at the first slot it cannot fill.
 */
unsigned long alloc_pages_bulk_node(gfp_t gfp, int nid, unsigned long nr_pages,
				    struct page **page_array);
#define alloc_pages_bulk_array_node(gfp, nid, nr, arr)	alloc_pages_bulk_node(gfp, nid, nr, arr)
#define alloc_pages_bulk(gfp, nr, arr)	alloc_pages_bulk_node(gfp, NUMA_NO_NODE, nr, arr)
#define alloc_pages_bulk_array(gfp, nr, arr)	alloc_pages_bulk(gfp, nr, arr)

/**
 * __free_pages() - drop a reference on a block of pages
 * @page: the first page
 * @order: the block's order
 *
 * Frees the block when it was the last. For a compound page @order must be
 * its order; for a non-compound block whose first page is still
 * referenced, the rest of the block is freed (as the kernel does).
 *
 * Context: any context.
 */
void __free_pages(struct page *page, unsigned int order);
#define __free_page(page)	__free_pages((page), 0)

/**
 * __get_free_pages() - allocate a block of pages, by address
 * @gfp: GFP flags
 * @order: the block's order
 *
 * Context: any context.
 * Return: the block's address, or 0.
 */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
#define __get_free_page(gfp)	__get_free_pages((gfp), 0)
/**
 * get_zeroed_page() - allocate a zeroed page, by address
 * @gfp: GFP flags
 *
 * Context: any context.
 * Return: the page's address, or 0.
 */
unsigned long get_zeroed_page(gfp_t gfp);
/**
 * free_pages() - __free_pages() by address
 * @addr: the block's address; an address outside the arena is reported and
 *	ignored
 * @order: the block's order
 *
 * Context: any context.
 */
void free_pages(unsigned long addr, unsigned int order);
#define free_page(addr)		free_pages((addr), 0)

/**
 * free_unref_page() - free a page whose last reference the caller dropped
 * @page: the page (refcount 0); one with a non-zero refcount is reported
 *	and left alone
 * @order: the block's order
 *
 * Context: any context.
 */
void free_unref_page(struct page *page, unsigned int order);

#pragma GCC visibility pop
#endif /* _PP_LINUX_GFP_H */
