/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Looking at the arena from outside the allocation paths: statistics,
 * counters, the walker over every struct page (the kernel's
 * page_bench06_walk_all: the page_pool leak detector), the free-list and
 * per-CPU list counts that tests compare, and draining the calling CPU.
 *
 * Context: any thread. Counts of the buddy lists are read under the zone
 * lock, per-CPU counts with READ_ONCE(); the walker and the page_pool page
 * count read struct pages without locks, so they are exact only while the
 * arena is quiescent (the walker's callback MUST NOT run concurrently with
 * allocations; statistics may, and are then a snapshot).
 * Layer: mm.
 */
#include <errno.h>
#include <string.h>

#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <pagepool/mm.h>

#include "mm/mm_internal.h"

/*
 * The page_pool page count is a racy snapshot by design (the kernel's
 * data_race()): pp_magic shares its word with the free-list pointers that
 * other CPUs rewrite. Tell ThreadSanitizer these reads are meant to race,
 * so callers may take statistics while other threads run.
 */
#ifdef PP_TSAN
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#define racy_reads_begin()	AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define racy_reads_end()	AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#else
#define racy_reads_begin()	do { } while (0)
#define racy_reads_end()	do { } while (0)
#endif

static unsigned long pcp_total(void)
{
	unsigned long n = 0;
	int cpu, nid;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		for (nid = 0; nid < ppmm_arena.nr_nodes; nid++)
			n += READ_ONCE(ppmm_pcpu[cpu].node[nid].count);
	return n;
}

int pp_mem_get_stats(struct pp_mem_stats *st)
{
	unsigned long i, pp = 0, free = 0;
	int nid;

	if (!st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (!ppmm_arena_up())
		return 0;
	for (nid = 0; nid < ppmm_arena.nr_nodes; nid++) {
		spin_lock(&ppmm_zones[nid].lock);
		free += ppmm_zones[nid].nr_free_pages;
		spin_unlock(&ppmm_zones[nid].lock);
	}
	st->free_pages = free + pcp_total();
	racy_reads_begin();
	for (i = 0; i < pp_mem_map.nr_pages; i++)
		pp += page_pool_page_is_pp(&pp_mem_map.map[i]);
	racy_reads_end();
	st->pp_pages = pp;
	st->total_pages = pp_mem_map.nr_pages -
			  atomic_long_read(&ppmm_arena.reserved);
	return 0;
}

int pp_mem_get_counters(struct pp_mem_counters *c)
{
	if (!c)
		return -EINVAL;
	ppmm_counters_read(c);
	return 0;
}

int pp_mem_walk(pp_page_walk_fn fn, void *arg)
{
	unsigned long i;
	int ret;

	if (!fn)
		return -EINVAL;
	if (!ppmm_arena_up())
		return 0;
	for (i = 0; i < pp_mem_map.nr_pages; i++) {
		ret = fn(&pp_mem_map.map[i], arg);
		if (ret)
			return ret;
	}
	return 0;
}

unsigned long pp_mem_free_blocks(int nid, unsigned int order)
{
	struct ppmm_zone *zone;
	unsigned long n;

	if (!ppmm_arena_up() || nid < 0 || nid >= ppmm_arena.nr_nodes ||
	    order > MAX_PAGE_ORDER)
		return 0;
	zone = &ppmm_zones[nid];
	spin_lock(&zone->lock);
	n = zone->free_area[order].nr_free;
	spin_unlock(&zone->lock);
	return n;
}

unsigned long pp_mem_pcp_count(int cpu, int nid)
{
	if (!ppmm_arena_up() || cpu < 0 || cpu >= NR_CPUS || nid < 0 ||
	    nid >= ppmm_arena.nr_nodes)
		return 0;
	return (unsigned long)READ_ONCE(ppmm_pcpu[cpu].node[nid].count);
}

void pp_mem_drain_local(void)
{
	/* A thread without a CPU id has no lists: do not give it one. */
	if (ppmm_arena_up() && __pp_ctx.cpu >= 0)
		ppmm_drain_cpu(__pp_ctx.cpu);
}

unsigned long ppmm_zone_lock_rounds(int nid)
{
	unsigned long n;

	if (!ppmm_arena_up() || nid < 0 || nid >= ppmm_arena.nr_nodes)
		return 0;
	spin_lock(&ppmm_zones[nid].lock);
	n = ppmm_zones[nid].lock_rounds;
	spin_unlock(&ppmm_zones[nid].lock);
	return n;
}
