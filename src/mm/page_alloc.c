/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Page allocation: alloc_pages_node(), alloc_pages_bulk_node(),
 * alloc_contig_pages() and the address-returning wrappers.
 *
 * Order 0 comes from the calling CPU's list for the node (no lock, no
 * atomic: the list belongs to this thread); an empty list is refilled with
 * a batch from the zone, under the zone lock. Higher orders come from the
 * buddy lists directly. The preferred node is tried first, then the others
 * in ascending order (wrapping), unless __GFP_THISNODE.
 * A thread on the shared CPU (<pagepool/runtime.h>) has no list of its own:
 * its order-0 pages come from the buddy lists, under the zone lock, so the
 * threads sharing that CPU never share a list (reached through the branch
 * for a thread without an id, which every thread had: registered threads
 * run the same instructions as before).
 * An allocation that would fail first drains the other CPUs' lists, as the
 * kernel's slow path does (__alloc_pages_direct_reclaim() ->
 * drain_all_pages()), and tries again: pages freed by a thread that went
 * quiet (the deferred-release worker, any idle thread) are not lost to
 * the others. How that is safe against their owners: struct ppmm_pcpu.
 * Every page handed out passes through pp_should_fail(PP_FAULT_PAGE_ALLOC)
 * once, so fault injection fails single allocations and cuts bulk ones
 * short exactly where it would in the kernel.
 * Layer: mm.
 */
#include <pthread.h>
#include <string.h>

#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <pagepool/runtime.h>

#include "mm/mm_internal.h"

/* The node to allocate from: @nid, or the calling CPU's node. A node that
 * does not exist is a caller bug; warn and use the local one. */
static inline int resolve_node(int nid, int cpu)
{
	int nr = ppmm_arena.nr_nodes;

	if (likely(nid == NUMA_NO_NODE) || unlikely((unsigned int)nid >= (unsigned int)nr)) {
		WARN_ONCE(nid != NUMA_NO_NODE, "mm: allocation from node %d of %d", nid, nr);
		/* The division only with simulated NUMA: it costs more than
		 * the rest of the fast path. */
		return nr == 1 ? 0 : cpu % nr;
	}
	return nid;
}

/*
 * Relaxed atomic stores (plain moves on x86) for the words a page_pool's
 * destroy may read without holding the page - pp_magic (its DMA index),
 * pp and dma_addr - while the page is released, freed and allocated
 * again elsewhere: the reader then loses its claim and drops the value,
 * but the accesses must not race in C11 terms (found by the TSan stress).
 */
static inline void zero_union(struct page *page)
{
	WRITE_ONCE(page->pp_magic, 0UL);
	WRITE_ONCE(page->pp, NULL);
	/* Not pp_put_seq: with the owner's word in pp_mem_map.home, which
	 * the page allocator never writes either, it keeps counting the
	 * page's returns across its lives in page_pools, so a stale return
	 * still in some ring is recognised as one (<net/page_pool/helpers.h>,
	 * "Home state"). */
	WRITE_ONCE(page->dma_addr, 0UL);
	atomic_long_set(&page->pp_ref_count, 0);
}

/* Pages 1.. of a block: clear what they held while free, and make them
 * tails of @page for a compound page. */
static noinline void prep_block(struct page *page, unsigned int order, gfp_t gfp)
{
	unsigned long i, n = 1UL << order;
	unsigned long tail = (gfp & __GFP_COMP) ? (unsigned long)page | 1 : 0;

	for (i = 1; i < n; i++) {
		zero_union(page + i);
		WRITE_ONCE(page[i].compound_head, tail);
	}
	if (gfp & __GFP_COMP)
		WRITE_ONCE(page->flags, READ_ONCE(page->flags) | BIT(PG_head));
}

static inline void prep_new_page(struct page *page, unsigned int order, gfp_t gfp)
{
	ppmm_unpoison(page, order);
	WRITE_ONCE(page->flags, (gfp & __GFP_MEMALLOC) ? BIT(PG_pfmemalloc) : 0UL);
	zero_union(page);
	page->order = order;
	WRITE_ONCE(page->_mm_state, (unsigned short)PPMM_PAGE_ALLOC);
	page->private = 0;
	if (unlikely(order))
		prep_block(page, order, gfp);
	set_page_count(page, 1);
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
}

/* Caller MUST own @pcp's CPU and have checked the list is not empty. */
static inline struct page *pcp_pop(struct ppmm_pcp *pcp)
{
	struct page *page = list_first_entry(&pcp->list, struct page, buddy_list);

	__list_unlink(&page->buddy_list);
	WRITE_ONCE(pcp->count, pcp->count - 1);
	return page;
}

static bool cpu_has_pcp_pages(int cpu)
{
	int nid;

	for (nid = 0; nid < ppmm_arena.nr_nodes; nid++)
		if (READ_ONCE(ppmm_pcpu[cpu].node[nid].count))
			return true;
	return false;
}

/* One remote drainer at a time (each waits for owners, not for others). */
static pthread_mutex_t remote_drain_lock = PTHREAD_MUTEX_INITIALIZER;

bool ppmm_drain_all_remote(void)
{
	int self = __pp_ctx.cpu, cpu;
	bool moved = false;

	pthread_mutex_lock(&remote_drain_lock);
	/* The shared CPU's lists stay empty (its threads use the zones). */
	for (cpu = 0; cpu < __PP_CPU_SHARED; cpu++)
		if (cpu != self && cpu_has_pcp_pages(cpu))
			moved |= ppmm_pcp_drain_remote(cpu);
	pthread_mutex_unlock(&remote_drain_lock);
	return moved;
}

/* The shared CPU's order 0: the preferred node's buddy lists, then the
 * others unless __GFP_THISNODE. */
static struct page *zones_alloc0(int nid, gfp_t gfp)
{
	int nr = ppmm_arena.nr_nodes, i, n;
	struct page *page;

	for (i = 0; i < nr; i++) {
		n = nid + i < nr ? nid + i : nid + i - nr;
		page = ppmm_buddy_alloc(&ppmm_zones[n], 0);
		if (page)
			return page;
		if (gfp & __GFP_THISNODE)
			break;
	}
	return NULL;
}

static noinline struct page *alloc_shared(int nid, gfp_t gfp)
{
	struct page *page = zones_alloc0(nid, gfp);

	if (!page && ppmm_drain_all_remote())
		page = zones_alloc0(nid, gfp);
	return page;
}

/*
 * This CPU's list for @nid is empty (or a remote drain stopped it):
 * refill it, or try the other nodes; then drain the other CPUs and try
 * once more. Called inside pcp_enter(), returns inside it.
 */
static noinline struct page *pcp_alloc_slow(int cpu, int nid, gfp_t gfp)
{
	struct ppmm_pcpu *p = &ppmm_pcpu[cpu];
	int nr = ppmm_arena.nr_nodes, i, n;
	bool drained = false;
	struct ppmm_pcp *pcp;

	if (cpu == __PP_CPU_SHARED)	/* no lists of its own */
		return alloc_shared(nid, gfp);
again:
	while (unlikely(pcpu_low(p)))
		ppmm_pcp_wait_drain(p);
	for (i = 0; i < nr; i++) {
		n = nid + i < nr ? nid + i : nid + i - nr;
		pcp = &p->node[n];
		if (!list_empty(&pcp->list) ||
		    ppmm_pcp_refill(&ppmm_zones[n], pcp, ppmm_arena.pcp_batch))
			return pcp_pop(pcp);
		if (gfp & __GFP_THISNODE)
			break;
	}
	if (drained)
		return NULL;
	/* Out of the bracket: a remote drainer may be waiting for it. */
	pcp_exit(p);
	drained = ppmm_drain_all_remote();
	pcp_enter(p);
	if (drained)
		goto again;
	return NULL;
}

static noinline struct page *alloc_high_order(int cpu, int nid, gfp_t gfp,
					      unsigned int order)
{
	int nr = ppmm_arena.nr_nodes, i, n, pass;
	struct page *page;

	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < nr; i++) {
			n = nid + i < nr ? nid + i : nid + i - nr;
			page = ppmm_buddy_alloc(&ppmm_zones[n], order);
			if (page)
				return page;
			if (gfp & __GFP_THISNODE)
				break;
		}
		/* Order-0 pages parked on this CPU's lists, then on the
		 * others', may be what keeps a block from merging: give them
		 * back and try again. */
		if (pass == 0 && cpu_has_pcp_pages(cpu))
			ppmm_drain_cpu(cpu);
		else if (!ppmm_drain_all_remote())
			break;
	}
	return NULL;
}

/* The calling thread's CPU id, for the page allocator: a thread without
 * one claims one, or gets __PP_CPU_SHARED (no per-CPU list of its own). */
static __always_inline int alloc_cpu(void)
{
	int cpu = __pp_ctx.cpu;

	if (unlikely(cpu < 0))
		cpu = __pp_cpu_lazy_register();
	return cpu;
}

struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	struct ppmm_pcpu *p;
	struct ppmm_pcp *pcp;
	struct page *page;
	int cpu, low;

	if (unlikely(!ppmm_arena_up()) && ppmm_arena_default())
		goto fail;
	if (unlikely(order > MAX_PAGE_ORDER)) {
		WARN_ON_ONCE(!(gfp & __GFP_NOWARN));
		goto fail;
	}
	if (unlikely(pp_should_fail(PP_FAULT_PAGE_ALLOC)))
		goto fail;
	cpu = alloc_cpu();
	nid = resolve_node(nid, cpu);
	if (likely(order == 0)) {
		/* fast path: "above @low" is "not empty" unless a remote
		 * drain stopped the lists (struct ppmm_pcpu). The shared
		 * CPU's lists are always empty: its threads take the slow
		 * path, and its bracket guards nothing. */
		p = &ppmm_pcpu[cpu];
		pcp = &p->node[nid];
		pcp_enter(p);
		/* The acquire load first: only after it may the list be read.
		 * The count is read atomically (a plain load all the same):
		 * when the list is stopped, a remote drain may be writing it. */
		low = pcpu_low(p);
		if (likely(READ_ONCE(pcp->count) > low))
			page = pcp_pop(pcp);
		else
			page = pcp_alloc_slow(cpu, nid, gfp);
		pcp_exit(p);
	} else {
		page = alloc_high_order(cpu, nid, gfp, order);
	}
	if (unlikely(!page))
		goto fail;
	prep_new_page(page, order, gfp);
	return page;
fail:
	ppmm_alloc_failed(gfp, order, nid);
	return NULL;
}

/* A bulk for the shared CPU: page by page from the buddy lists, slots
 * [@i, @nr_pages) that are empty, stopping at the first it cannot fill. */
static noinline unsigned long alloc_bulk_shared(gfp_t gfp, int nid, unsigned long nr_pages,
						struct page **page_array, unsigned long i)
{
	unsigned long got = 0;
	struct page *page;

	nid = resolve_node(nid, __PP_CPU_SHARED);
	for (; i < nr_pages; i++) {
		if (page_array[i])
			continue;
		if (unlikely(pp_should_fail(PP_FAULT_PAGE_ALLOC)))
			break;
		page = alloc_shared(nid, gfp);
		if (!page)
			break;
		prep_new_page(page, 0, gfp);
		page_array[i] = page;
		got++;
	}
	if (!got)
		ppmm_alloc_failed(gfp, 0, nid);
	return i;
}

/*
 * Slots [0, return) hold pages afterwards, as in the kernel: the scan
 * stops at the first slot it cannot fill. Per node tried, the CPU list is
 * refilled at most once, with enough pages for the whole request (at least
 * a batch), so a bulk of up to a batch costs at most one zone-lock round
 * trip when the preferred node has memory.
 */
unsigned long alloc_pages_bulk_node(gfp_t gfp, int nid, unsigned long nr_pages,
				    struct page **page_array)
{
	unsigned long i = 0, want = 0, got = 0, j;
	int cpu, nr, k, n, start;
	bool refilled, injected = false;
	struct ppmm_pcpu *p;
	struct ppmm_pcp *pcp;
	struct page *page;

	while (i < nr_pages && page_array[i])
		i++;
	if (i == nr_pages)
		return i;
	if (unlikely(!ppmm_arena_up()) && ppmm_arena_default())
		goto fail;

	for (j = i; j < nr_pages; j++)
		want += !page_array[j];
	cpu = __pp_ctx.cpu;
	if (unlikely(cpu < 0)) {
		cpu = __pp_cpu_lazy_register();
		if (cpu == __PP_CPU_SHARED)
			return alloc_bulk_shared(gfp, nid, nr_pages, page_array, i);
	}
	start = resolve_node(nid, cpu);
	nr = ppmm_arena.nr_nodes;
	p = &ppmm_pcpu[cpu];
	pcp_enter(p);
	while (unlikely(pcpu_low(p)))	/* a remote drain runs */
		ppmm_pcp_wait_drain(p);
	for (k = 0; k < nr && i < nr_pages; k++) {
		n = start + k < nr ? start + k : start + k - nr;
		pcp = &p->node[n];
		refilled = false;
		for (; i < nr_pages; i++) {
			if (page_array[i])
				continue;
			if (list_empty(&pcp->list)) {
				long need = (long)(want - got) - pcp->count;

				if (refilled)
					break;
				refilled = true;
				need = clamp_t(long, need, ppmm_arena.pcp_batch, INT_MAX);
				if (!ppmm_pcp_refill(&ppmm_zones[n], pcp, (int)need))
					break;
			}
			if (unlikely(pp_should_fail(PP_FAULT_PAGE_ALLOC))) {
				injected = true;
				goto out;
			}
			page_array[i] = pcp_pop(pcp);
			prep_new_page(page_array[i], 0, gfp);
			got++;
		}
		if (gfp & __GFP_THISNODE)
			break;
	}
out:
	pcp_exit(p);
	if (got)
		return i;
	/* Nothing at all: as the kernel's bulk allocator, one page through
	 * the single-page path, which drains the other CPUs first. */
	if (!injected) {
		page = alloc_pages_node(start, gfp, 0);	/* reports its failure */
		if (page)
			page_array[i++] = page;
		return i;
	}
	nid = start;
fail:
	ppmm_alloc_failed(gfp, 0, nid);
	return i;
}

/*
 * alloc_contig_pages(): a run of free buddy blocks of one zone cut to
 * @nr_pages (ppmm_zone_take_run()), each page then an order-0 allocation of
 * its own. Zones in the order alloc_pages_node() tries nodes, those outside
 * @nodemask skipped; when none has the run, this CPU's lists and then the
 * others' are drained (their pages may be what splits a run) and the zones
 * tried again, as for a high order. One pp_should_fail() for the call.
 */
struct page *alloc_contig_pages(unsigned long nr_pages, gfp_t gfp, int nid,
				nodemask_t *nodemask)
{
	int cpu, nr, i, n, start = nid, pass;
	struct page *page;
	unsigned long j;

	if (unlikely(!ppmm_arena_up()) && ppmm_arena_default())
		goto fail;
	if (unlikely(!nr_pages || (gfp & __GFP_COMP))) {
		WARN_ONCE(!(gfp & __GFP_NOWARN), "mm: alloc_contig_pages() of %lu pages%s",
			  nr_pages, (gfp & __GFP_COMP) ? " with __GFP_COMP (not supported)" : "");
		goto fail;
	}
	if (unlikely(pp_should_fail(PP_FAULT_PAGE_ALLOC)))
		goto fail;
	cpu = alloc_cpu();
	start = resolve_node(nid, cpu);
	nr = ppmm_arena.nr_nodes;
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < nr; i++) {
			n = start + i < nr ? start + i : start + i - nr;
			if (i && (gfp & __GFP_THISNODE))
				break;
			if (nodemask && !node_isset(n, *nodemask))
				continue;
			page = ppmm_zone_take_run(&ppmm_zones[n], nr_pages);
			if (page)
				goto found;
		}
		if (pass == 0 && cpu_has_pcp_pages(cpu))
			ppmm_drain_cpu(cpu);
		else if (!ppmm_drain_all_remote())
			break;
	}
fail:
	ppmm_contig_failed(gfp, nr_pages, start);
	return NULL;
found:
	for (j = 0; j < nr_pages; j++)
		prep_new_page(page + j, 0, gfp);
	return page;
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp & ~__GFP_HIGHMEM, order);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	return __get_free_pages(gfp | __GFP_ZERO, 0);
}
