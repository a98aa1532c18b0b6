/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The buddy free lists of each zone (one zone per simulated node), and the
 * batch moves between a zone and a per-CPU order-0 list.
 *
 * A free block of order k starts at a page index that is a multiple of
 * 2^k (indices count from the arena base, which is aligned to the largest
 * block); its buddy is at index ^ 2^k. The first page of a free block
 * carries PG_buddy and page->order = k; the other pages carry nothing.
 * Everything here that touches the lists runs under zone->lock, which is a
 * real lock: concurrent refills and drains from several CPUs contend on it
 * as they do in the kernel. A per-CPU list moves pages in and out in
 * batches, one lock round trip per batch. Runs of physically contiguous
 * pages (alloc_contig_pages()) are cut out of the lists here too.
 * Layer: mm.
 */
#include <limits.h>
#include <sched.h>

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/spinlock.h>

#include "mm/mm_internal.h"
#include "runtime/runtime_internal.h"

static void __add_free(struct ppmm_zone *zone, struct page *page,
		       unsigned int order)
{
	page->order = order;
	WRITE_ONCE(page->flags, BIT(PG_buddy));
	list_add(&page->buddy_list, &zone->free_area[order].free_list);
	zone->free_area[order].nr_free++;
}

void ppmm_zone_init(struct ppmm_zone *zone, int nid, unsigned long start,
		    unsigned long nr_pages)
{
	unsigned long i;
	unsigned int o;

	spin_lock_init(&zone->lock);
	zone->nid = nid;
	zone->start = start;
	zone->nr_pages = nr_pages;
	zone->nr_free_pages = nr_pages;
	zone->lock_rounds = 0;
	for (o = 0; o < NR_PAGE_ORDERS; o++) {
		INIT_LIST_HEAD(&zone->free_area[o].free_list);
		zone->free_area[o].nr_free = 0;
	}
	/* Lowest address first on the lists, so allocation starts at the
	 * bottom of the node (easier to read in tests and dumps). */
	for (i = nr_pages; i >= PPMM_BLOCK_PAGES; i -= PPMM_BLOCK_PAGES)
		__add_free(zone, pp_mem_map.map + start + i - PPMM_BLOCK_PAGES,
			   MAX_PAGE_ORDER);
}

/*
 * Take a block of @order, splitting a larger one if needed: the lower half
 * is kept, the upper halves go back on the lists (the kernel's expand()).
 * Returns the first page with flags cleared, or NULL. Caller MUST hold
 * zone->lock.
 */
struct page *__ppmm_rmqueue(struct ppmm_zone *zone, unsigned int order)
{
	struct ppmm_free_area *area;
	struct page *page;
	unsigned int o;

	for (o = order; o < NR_PAGE_ORDERS; o++) {
		area = &zone->free_area[o];
		if (list_empty(&area->free_list))
			continue;
		page = list_first_entry(&area->free_list, struct page, buddy_list);
		__list_unlink(&page->buddy_list);
		area->nr_free--;
		WRITE_ONCE(page->flags, 0UL);
		while (o > order) {
			o--;
			__add_free(zone, page + (1UL << o), o);
		}
		zone->nr_free_pages -= 1UL << order;
		return page;
	}
	return NULL;
}

/*
 * Put a block of @order back and merge it with its free buddies as far as
 * they go. The block MUST be free in every other sense already (state,
 * tails, poison). Caller MUST hold zone->lock.
 */
void __ppmm_free_one(struct ppmm_zone *zone, struct page *page,
		     unsigned int order)
{
	struct page *map = pp_mem_map.map;
	unsigned long idx = ppmm_page_idx(page);

	WRITE_ONCE(page->flags, 0UL);
	zone->nr_free_pages += 1UL << order;
	while (order < MAX_PAGE_ORDER) {
		unsigned long buddy_idx = idx ^ (1UL << order);
		struct page *buddy = map + buddy_idx;

		/* Only a free block of exactly this order merges: a free
		 * block of a lower order inside the buddy means the buddy
		 * is partly allocated; PG_pcp pages stay on their list. */
		if (!(READ_ONCE(buddy->flags) & BIT(PG_buddy)) ||
		    buddy->order != order)
			break;
		__list_unlink(&buddy->buddy_list);
		zone->free_area[order].nr_free--;
		WRITE_ONCE(buddy->flags, 0UL);
		idx &= buddy_idx;
		order++;
	}
	__add_free(zone, map + idx, order);
}

int ppmm_pcp_refill(struct ppmm_zone *zone, struct ppmm_pcp *pcp, int count)
{
	struct page *page;
	int n;

	spin_lock(&zone->lock);
	zone->lock_rounds++;
	for (n = 0; n < count; n++) {
		page = __ppmm_rmqueue(zone, 0);
		if (!page)
			break;
		WRITE_ONCE(page->flags, BIT(PG_pcp));
		/* Tail: the list is popped from the head, so pages go out
		 * in the order the buddy lists gave them (ascending). */
		list_add_tail(&page->buddy_list, &pcp->list);
	}
	spin_unlock(&zone->lock);
	WRITE_ONCE(pcp->count, pcp->count + n);
	return n;
}

void ppmm_pcp_drain(struct ppmm_zone *zone, struct ppmm_pcp *pcp, int count)
{
	struct page *page;
	int n;

	if (count > pcp->count)
		count = pcp->count;
	if (count <= 0)
		return;
	/* The tail holds the pages freed longest ago: the coldest ones go
	 * back, the cache-hot ones stay for the next allocation. */
	spin_lock(&zone->lock);
	zone->lock_rounds++;
	for (n = 0; n < count; n++) {
		page = list_last_entry(&pcp->list, struct page, buddy_list);
		__list_unlink(&page->buddy_list);
		__ppmm_free_one(zone, page, 0);
	}
	spin_unlock(&zone->lock);
	WRITE_ONCE(pcp->count, pcp->count - count);
}

/* All of @p's lists to the zones. Caller has them to itself. */
static void drain_lists(struct ppmm_pcpu *p)
{
	struct ppmm_pcp *pcp;
	int nid;

	for (nid = 0; nid < ppmm_arena.nr_nodes; nid++) {
		pcp = &p->node[nid];
		if (pcp->count)
			ppmm_pcp_drain(&ppmm_zones[nid], pcp, pcp->count);
	}
}

void ppmm_pcp_wait_drain(struct ppmm_pcpu *p)
{
	pcp_exit(p);
	while (pcpu_low(p))
		sched_yield();
	pcp_enter(p);
}

void ppmm_drain_cpu(int cpu)
{
	struct ppmm_pcpu *p;

	if (cpu < 0 || cpu >= NR_CPUS)
		return;
	p = &ppmm_pcpu[cpu];
	pcp_enter(p);
	/* A remote drain of the same lists may run (struct ppmm_pcpu). */
	while (unlikely(pcpu_low(p)))
		ppmm_pcp_wait_drain(p);
	drain_lists(p);
	pcp_exit(p);
}

/*
 * Drain CPU @cpu's lists from another thread (struct ppmm_pcpu). Caller
 * MUST hold the remote-drain lock. False, touching nothing, when the
 * system has no membarrier(PRIVATE_EXPEDITED): then only the owner can.
 */
bool ppmm_pcp_drain_remote(int cpu)
{
	struct ppmm_pcpu *p = &ppmm_pcpu[cpu];

	WRITE_ONCE(p->low, INT_MAX);
	WRITE_ONCE(p->high, -1);
	if (!pprt_membarrier()) {
		smp_store_release(&p->high, ppmm_arena.pcp_high);
		smp_store_release(&p->low, 0);
		return false;
	}
	/* Pairs with the owner's pcp_exit(): its last use is done. */
	while (smp_load_acquire(&p->busy))
		sched_yield();
	drain_lists(p);
	/* Pairs with the owner's pcpu_high() / pcpu_low(). */
	smp_store_release(&p->high, ppmm_arena.pcp_high);
	smp_store_release(&p->low, 0);
	return true;
}

struct page *ppmm_buddy_alloc(struct ppmm_zone *zone, unsigned int order)
{
	struct page *page;

	spin_lock(&zone->lock);
	zone->lock_rounds++;
	page = __ppmm_rmqueue(zone, order);
	spin_unlock(&zone->lock);
	return page;
}

void ppmm_buddy_free(struct page *page, unsigned int order)
{
	struct ppmm_zone *zone = ppmm_page_zone(page);

	ppmm_poison(page, order);
	spin_lock(&zone->lock);
	zone->lock_rounds++;
	__ppmm_free_one(zone, page, order);
	spin_unlock(&zone->lock);
}

/*
 * Give the pages [@idx, @end) of a block just taken out of the lists back
 * to them, as the aligned power-of-two blocks the range is made of
 * (lowest bits first: each piece's buddy is the lower part, which the
 * caller keeps, so nothing merges back into the pages it took). The pages
 * are still poisoned and flagless. Caller MUST hold zone->lock.
 */
static void __give_back(struct ppmm_zone *zone, unsigned long idx, unsigned long end)
{
	unsigned int o;

	while (idx < end) {
		o = idx ? min_t(unsigned int, __ffs(idx), MAX_PAGE_ORDER) : MAX_PAGE_ORDER;
		while (idx + (1UL << o) > end)
			o--;
		__ppmm_free_one(zone, pp_mem_map.map + idx, o);
		idx += 1UL << o;
	}
}

/* Unlink the free blocks that tile [@idx, @idx + @nr) (the first one
 * starts at @idx; the last one may reach past the end, whose excess goes
 * back). Caller MUST hold zone->lock. */
static void __take_blocks(struct ppmm_zone *zone, unsigned long idx, unsigned long nr)
{
	unsigned long end = idx + nr, i = idx, len = 0;
	struct page *page;
	unsigned int o;

	while (i < end) {
		page = pp_mem_map.map + i;
		o = page->order;
		__list_unlink(&page->buddy_list);
		zone->free_area[o].nr_free--;
		WRITE_ONCE(page->flags, 0UL);
		zone->nr_free_pages -= 1UL << o;
		len += 1UL << o;
		i += 1UL << o;
	}
	__give_back(zone, end, idx + len);
}

/*
 * @nr physically contiguous pages out of @zone (alloc_contig_pages()).
 * Below a largest block, the smallest free block that holds them is split
 * as an allocation of that order would be, and its upper part beyond @nr
 * goes back. Otherwise, or when no single block holds them, the zone is
 * scanned from the bottom for adjacent free buddy blocks that together
 * hold @nr pages (the lowest such run); the blocks are unlinked and the
 * last one's excess goes back. Pages on per-CPU lists are not in the buddy
 * lists and end a run (the caller drains them and tries again). Returns
 * the first page, every page of the run flagless, still poisoned and in
 * the state free pages have (PPMM_PAGE_FREE): the caller prepares them.
 * NULL when no run is free. Takes zone->lock, for one scan of the zone's
 * struct pages at most.
 */
struct page *ppmm_zone_take_run(struct ppmm_zone *zone, unsigned long nr)
{
	unsigned long i, end, run = 0, run_start = 0;
	struct page *page = NULL;
	unsigned int o;

	spin_lock(&zone->lock);
	zone->lock_rounds++;
	if (nr > zone->nr_free_pages)
		goto out;
	if (nr < PPMM_BLOCK_PAGES) {
		o = order_base_2(nr);
		page = __ppmm_rmqueue(zone, o);
		if (page) {
			i = ppmm_page_idx(page);
			__give_back(zone, i + nr, i + (1UL << o));
			goto out;
		}
	}
	/* A free block's first page carries PG_buddy and its order; every
	 * other page of the zone that is not such a head ends a run. Heads
	 * are aligned to their order, so stepping over a free block lands
	 * on the next block or page. */
	for (i = zone->start, end = zone->start + zone->nr_pages; i < end;) {
		struct page *p = pp_mem_map.map + i;

		if (!(READ_ONCE(p->flags) & BIT(PG_buddy))) {
			run = 0;
			i++;
			continue;
		}
		if (!run)
			run_start = i;
		run += 1UL << p->order;
		i += 1UL << p->order;
		if (run >= nr) {
			__take_blocks(zone, run_start, nr);
			page = pp_mem_map.map + run_start;
			break;
		}
	}
out:
	spin_unlock(&zone->lock);
	return page;
}
