/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The arena behind the page allocator: configuration, statistics, the
 * walker over all pages (the leak detector), and allocator counters.
 * Layer: mm.
 */
#ifndef _PAGEPOOL_MM_H
#define _PAGEPOOL_MM_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct page;

/*
 * Zero is the default (THP), as for every pp_mem_config field. The names
 * are historical: "4K" is the system's ordinary page, whatever its size.
 * PP_MEM_HUGETLB maps at the system's default huge page size (Hugepagesize
 * in /proc/meminfo: 2 MiB on x86-64, 32 MiB or 512 MiB on arm64 with
 * 16/64 KiB pages); the largest block (PAGE_SIZE << MAX_PAGE_ORDER) must
 * be a multiple of it, else pp_mem_init() says -EINVAL.
 */
enum pp_mem_backing {
	PP_MEM_THP = 0,		/* MADV_HUGEPAGE; falls back to system pages silently */
	PP_MEM_4K = 1,		/* ordinary system pages (sysconf(_SC_PAGESIZE)) */
	PP_MEM_HUGETLB = 2,	/* MAP_HUGETLB; needs reserved huge pages */
};

/*
 * Arena configuration. Zero in any field means its default:
 *   size      64 MiB (or PAGEPOOL_MEM_MB from the environment), rounded up
 *             to a multiple of the largest block (PAGE_SIZE <<
 *             MAX_PAGE_ORDER: 4 MiB at 4 KiB pages, 32 MiB at 16 KiB,
 *             512 MiB at 64 KiB) and per node;
 *   backing   PP_MEM_THP;
 *   nr_nodes  1 simulated NUMA node (up to MAX_NUMNODES); the arena is split
 *             evenly and logical CPU n sits on node n % nr_nodes;
 *   pcp_batch 63 pages moved per per-CPU list refill or drain;
 *   pcp_high  6 * pcp_batch (at most a node's pages): a per-CPU list
 *             drains a batch above this.
 * Ranges (pp_mem_init() says -EINVAL outside them and creates nothing):
 *   size      0, or up to SIZE_MAX / 2 (more than the machine's memory,
 *             in bytes after rounding, is -ENOMEM);
 *   backing   one of enum pp_mem_backing;
 *   nr_nodes  0 .. MAX_NUMNODES;
 *   pcp_batch 0, or 1 .. the pages of one node (size / nr_nodes after
 *             rounding, / PAGE_SIZE);
 *   pcp_high  0, or pcp_batch (the default one if 0) .. the pages of one
 *             node.
 * The whole arena is pre-faulted: a page fault costs 10-20 us in a VM, and
 * benchmarks must not measure them.
 *
 * The library's page (PAGE_SIZE, meson -Dpage_size=4k|16k|64k) must be at
 * least the system's (sysconf(_SC_PAGESIZE)): the arena's per-page work
 * (pre-fault, alignment, poisoning and unmapping at page granularity) needs
 * whole system pages. A smaller one is refused when the arena is created:
 * an error naming both sizes is logged, and pp_mem_init() (or the first
 * allocation, for the default arena) fails with -EINVAL. A larger one is
 * fine (16 KiB or 64 KiB library pages on a 4 KiB system).
 */
struct pp_mem_config {
	size_t size;
	int backing;
	int nr_nodes;
	int pcp_batch;
	int pcp_high;
};

/**
 * pp_mem_init() - create the arena behind the page allocator
 * @cfg: the configuration (struct pp_mem_config); NULL: the defaults
 *
 * Optional: the first allocation creates a default arena.
 *
 * Context: process context.
 * Return: 0; -EBUSY if an arena exists; -EINVAL for a bad field, a library
 * PAGE_SIZE smaller than the system page size, or PP_MEM_HUGETLB when the
 * largest block is not a multiple of the default huge page size; -ENOMEM
 * for more than the machine's memory or if the mapping fails (also for
 * PP_MEM_HUGETLB without reserved pages).
 */
int pp_mem_init(const struct pp_mem_config *cfg);

/**
 * pp_mem_exit() - unmap the arena so another pp_mem_init() can run
 *
 * Context: process context.
 * Return: 0; -EBUSY (and nothing changes) while any page is allocated or
 * other threads own CPU ids with non-empty per-CPU lists.
 */
int pp_mem_exit(void);

struct pp_mem_stats {
	unsigned long total_pages;	/* usable pages in the arena */
	unsigned long free_pages;	/* in buddy and per-CPU lists */
	unsigned long pp_pages;		/* pages marked as page_pool pages now:
					 * head pages, so an order-N page_pool
					 * page counts once, not 2^N times as in
					 * total_pages and free_pages */
};
/**
 * pp_mem_get_stats() - the arena's page counts
 * @st: filled in (all zero before the arena exists)
 *
 * Returned void before: callers that ignore the result keep working,
 * source and binary.
 *
 * Context: any context.
 * Return: 0, or -EINVAL for a NULL @st.
 */
int pp_mem_get_stats(struct pp_mem_stats *st);

/* Bad input seen by the allocator since start-up. Each one was reported
 * with a WARN and left the free lists untouched. */
struct pp_mem_counters {
	unsigned long double_free;	/* put/free of a page that is already free */
	unsigned long bad_get;		/* get_page() on a free page */
	unsigned long bad_free;		/* tail page, wrong order, refcount != 0, bound net_iov page */
	unsigned long freed_pp_page;	/* freed while still marked page_pool */
	unsigned long out_of_arena;	/* address/page outside the arena */
	unsigned long alloc_failed;	/* allocations that returned nothing */
	unsigned long reserved_pages;	/* pages taken out of circulation */
};
/**
 * pp_mem_get_counters() - the allocator's bad-input counters
 * @c: filled in (struct pp_mem_counters)
 *
 * Returned void before, as pp_mem_get_stats().
 *
 * Context: any context.
 * Return: 0, or -EINVAL for a NULL @c.
 */
int pp_mem_get_counters(struct pp_mem_counters *c);

/* Call @fn for every page in the arena (heads and tails, free or not),
 * in address order; stops early and returns @fn's value if non-zero;
 * -EINVAL for a NULL @fn. Takes no locks: for quiescent checks and leak
 * hunting. */
typedef int (*pp_page_walk_fn)(struct page *page, void *arg);
/**
 * pp_mem_walk() - call a function for every page in the arena
 * @fn: called with each page (heads and tails, free or not), in address
 *	order; a non-zero return stops the walk
 * @arg: passed to @fn
 *
 * Takes no locks: for quiescent checks and leak hunting.
 *
 * Context: any thread, with the arena quiescent.
 * Return: @fn's non-zero value, 0 after the last page, or -EINVAL for a
 * NULL @fn.
 */
int pp_mem_walk(pp_page_walk_fn fn, void *arg);

/**
 * pp_mem_free_blocks() - free blocks of one order in a node's buddy lists
 * @nid: the node
 * @order: the order
 *
 * Context: any context.
 * Return: the count; 0 for a node or an order out of range, or before the
 * arena exists.
 */
unsigned long pp_mem_free_blocks(int nid, unsigned int order);
/**
 * pp_mem_pcp_count() - pages on a CPU's per-CPU list for a node
 * @cpu: the logical CPU
 * @nid: the node
 *
 * Context: any context.
 * Return: the count; 0 for a CPU or node out of range.
 */
unsigned long pp_mem_pcp_count(int cpu, int nid);
/**
 * pp_mem_drain_local() - give the calling CPU's per-CPU pages back to the buddy lists
 *
 * Not needed for correctness: an allocation that would fail first drains
 * every CPU's lists (as the kernel's drain_all_pages()), the library's
 * workqueue thread drains its own when it goes idle, and a thread's lists
 * are drained when it gives its CPU id back (or exits).
 *
 * Context: process context.
 */
void pp_mem_drain_local(void);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop
#endif /* _PAGEPOOL_MM_H */
