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
 * with __free_pages() of the same order. alloc_contig_pages() hands out
 * runs of any length of order-0 pages, each with its own refcount.
 * Layer: mm.
 */
#ifndef _PP_LINUX_GFP_H
#define _PP_LINUX_GFP_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/gfp_types.h>
#include <linux/mm_types.h>
#include <linux/nodemask.h>
#include <linux/numa.h>
#include <linux/topology.h>

/* The largest order, as <linux/mmzone.h> takes it: the architecture's
 * CONFIG_ARCH_FORCE_MAX_ORDER where it sets one (arm64 and the larger page
 * sizes here: include/generated/meson.build), else 10. */
#ifdef CONFIG_ARCH_FORCE_MAX_ORDER
#define MAX_PAGE_ORDER	CONFIG_ARCH_FORCE_MAX_ORDER
#else
#define MAX_PAGE_ORDER	10
#endif
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

/**
 * alloc_contig_pages() - allocate a run of physically contiguous pages
 * @nr_pages: the run's length in pages, any count from 1 up to a node's
 *	pages
 * @gfp_mask: GFP flags: __GFP_ZERO, __GFP_NOWARN, __GFP_THISNODE are
 *	honoured; __GFP_COMP is not supported (NULL)
 * @nid: the node tried first (NUMA_NO_NODE: the calling CPU's)
 * @nodemask: the nodes the run may come from; NULL: any
 *
 * The run lies in one node's zone: page_address(page) + i * PAGE_SIZE is
 * page_address(page + i), and page_to_pfn(page) + i is page i's pfn. Every
 * page is an order-0 page of its own with refcount 1 (not a compound
 * page): it may be put on its own, or the run given back with
 * free_contig_range(). The run is cut from free buddy blocks (the smallest
 * block that holds it, else adjacent free blocks), the excess of the last
 * one going back; nothing is migrated, so memory fragmented by pages that
 * stay allocated may have no run although enough pages are free. Pages on
 * per-CPU lists are drained back first when that is what is missing.
 *
 * Context: process context (one zone lock held for a scan of the zone's
 * struct pages at most).
 * Return: the first page, or NULL when no such run is free, @nr_pages is 0
 * or @gfp_mask has __GFP_COMP (a warning unless __GFP_NOWARN), or
 * PP_FAULT_PAGE_ALLOC fires (once per call).
 */
struct page *alloc_contig_pages(unsigned long nr_pages, gfp_t gfp_mask, int nid,
				nodemask_t *nodemask);

/**
 * free_contig_range() - put each page of a run of order-0 pages
 * @pfn: the first page's pfn (page_to_pfn())
 * @nr_pages: the run's length; 0 does nothing
 *
 * Every page is checked first: a range outside the arena, a page that is
 * not allocated (free, or inside a higher-order block), or part of a
 * compound page or the first page of a higher-order block is reported (a
 * WARN and its counter of pp_mem_get_counters()) and nothing is freed.
 * Then each page is put once, as put_page(). A page whose refcount was
 * not 1 (someone else still holds it) is not freed by this put but by its
 * last put_page(), as in the kernel; their count is reported by one WARN,
 * counted as a bad free.
 *
 * Context: any context.
 */
void free_contig_range(unsigned long pfn, unsigned long nr_pages);

#pragma GCC visibility pop
#endif /* _PP_LINUX_GFP_H */
