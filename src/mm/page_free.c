/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Freeing pages: the last-reference path behind put_page(), __free_pages(),
 * free_pages(), free_unref_page(), and the checks that keep bad input away
 * from the free lists.
 *
 * Bad input is reported with a WARN (every one counted in pp_warn_count(),
 * printing rate limited per kind) and a counter of pp_mem_get_counters();
 * the page is then left alone, except a page freed while still marked as a
 * page_pool page, which is taken out of circulation as the kernel's
 * bad_page() does: its memory may still be in use by whoever forgot it.
 * A page still bound to a net_iov area (PG_net_iov) is never freed: its
 * provider hands it out as a net_iov until it unbinds it. free_contig_range()
 * refuses a run with one; the last put_page() or __free_pages() of one gives
 * the reference back (refcount 1, the provider's), so that the provider's
 * own free after the unbind still works. Both are bad frees.
 * Order-0 pages go to the calling CPU's list (no lock); a list above its
 * high mark gives a batch back to the zone. A thread on the shared CPU
 * (<pagepool/runtime.h>) gives them straight to the zone, under its lock. Compound and other high-order
 * blocks go straight to the buddy lists. free_contig_range() puts the
 * order-0 pages of a contiguous run one by one, after checking them all.
 * Layer: mm.
 */
#include <linux/bug.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/smp.h>

#include "mm/mm_internal.h"

/* Counters of struct pp_mem_counters, in its field order; atomic. */
static atomic_long_t counters[PPMM_BAD_NR];
static atomic_long_t alloc_failed;
static atomic_long_t reserved_pages;

static const char *const bad_name[PPMM_BAD_NR] = {
	[PPMM_BAD_DOUBLE_FREE]	= "double free",
	[PPMM_BAD_GET]		= "bad get",
	[PPMM_BAD_FREE]		= "bad free",
	[PPMM_BAD_PP_PAGE]	= "freed page_pool page",
	[PPMM_BAD_OUT_OF_ARENA]	= "out of arena",
};

bool ppmm_page_in_map(const struct page *page)
{
	unsigned long off = (unsigned long)page - (unsigned long)pp_mem_map.map;

	return pp_mem_map.map && off < pp_mem_map.nr_pages * sizeof(struct page) &&
	       off % sizeof(struct page) == 0;
}

void __ppmm_report(enum ppmm_bad kind, const void *what, const char *why,
		   const char *file, int line, struct pp_ratelimit *rs)
{
	const struct page *page = what;

	atomic_long_inc(&counters[kind]);
	if (kind != PPMM_BAD_OUT_OF_ARENA && ppmm_page_in_map(page))
		__pp_warn(file, line, __pp_ratelimit(rs),
			  "mm: %s: %s: page %p pfn %#lx refcount %d flags %#lx order %u",
			  bad_name[kind], why, what, page_to_pfn(page),
			  page_ref_count(page), READ_ONCE(page->flags), page->order);
	else
		__pp_warn(file, line, __pp_ratelimit(rs), "mm: %s: %s: %p",
			  bad_name[kind], why, what);
}

void ppmm_bad_pp_page(struct page *page, unsigned int order)
{
	unsigned long n = 1UL << order;

	ppmm_report(PPMM_BAD_PP_PAGE, page,
		    "freed while still a page_pool page, taken out of circulation");
	set_bit(PG_reserved, &page->flags);
	WRITE_ONCE(page->_mm_state, (unsigned short)PPMM_PAGE_BAD);
	ppmm_poison(page, order);
	atomic_long_add(n, &ppmm_arena.reserved);
	atomic_long_add(n, &reserved_pages);
}

void ppmm_alloc_failed(gfp_t gfp, unsigned int order, int nid)
{
	atomic_long_inc(&alloc_failed);
	if (!(gfp & __GFP_NOWARN))
		pr_warn_ratelimited("pagepool: page allocation failure: order:%u, mode:%#x, nid:%d\n",
				    order, gfp, nid);
}

void ppmm_contig_failed(gfp_t gfp, unsigned long nr_pages, int nid)
{
	atomic_long_inc(&alloc_failed);
	if (!(gfp & __GFP_NOWARN))
		pr_warn_ratelimited("pagepool: contiguous allocation failure: %lu pages, mode:%#x, nid:%d\n",
				    nr_pages, gfp, nid);
}

void ppmm_counters_read(struct pp_mem_counters *c)
{
	c->double_free = atomic_long_read(&counters[PPMM_BAD_DOUBLE_FREE]);
	c->bad_get = atomic_long_read(&counters[PPMM_BAD_GET]);
	c->bad_free = atomic_long_read(&counters[PPMM_BAD_FREE]);
	c->freed_pp_page = atomic_long_read(&counters[PPMM_BAD_PP_PAGE]);
	c->out_of_arena = atomic_long_read(&counters[PPMM_BAD_OUT_OF_ARENA]);
	c->alloc_failed = atomic_long_read(&alloc_failed);
	c->reserved_pages = atomic_long_read(&reserved_pages);
}

/* The shared CPU has no list of its own: the zone. */
static noinline void free_shared(struct page *page)
{
	WRITE_ONCE(page->_mm_state, (unsigned short)PPMM_PAGE_FREE);
	ppmm_buddy_free(page, 0);
}

/* Above the high mark, or a remote drain stopped the lists (then the
 * high mark reads -1: struct ppmm_pcpu). Entered inside pcp_enter(), and
 * leaves the bracket itself, so the fast path can jump here. */
static noinline void pcp_free_slow(struct page *page, int cpu)
{
	struct ppmm_pcpu *p = &ppmm_pcpu[cpu];
	struct ppmm_pcp *pcp = &p->node[page->nid];
	int count;

	while (unlikely(pcpu_low(p)))
		ppmm_pcp_wait_drain(p);
	list_add(&page->buddy_list, &pcp->list);
	count = pcp->count + 1;
	WRITE_ONCE(pcp->count, count);
	if (count > ppmm_arena.pcp_high)
		ppmm_pcp_drain(ppmm_page_zone(page), pcp, ppmm_arena.pcp_batch);
	pcp_exit(p);
}

/* fast path: an order-0 page onto this CPU's list for its node. */
static inline void pcp_free(struct page *page)
{
	struct ppmm_pcpu *p;
	struct ppmm_pcp *pcp;
	int cpu = __pp_ctx.cpu, count, high;

	/* A thread without an id: the branch smp_processor_id() has. */
	if (unlikely(cpu < 0)) {
		cpu = __pp_cpu_lazy_register();
		if (cpu == __PP_CPU_SHARED) {
			free_shared(page);
			return;
		}
	}
	p = &ppmm_pcpu[cpu];
	pcp = &p->node[page->nid];

	ppmm_poison(page, 0);
	WRITE_ONCE(page->_mm_state, (unsigned short)PPMM_PAGE_FREE);
	WRITE_ONCE(page->flags, BIT(PG_pcp));
	/* The high mark is checked first, against this CPU's copy of it,
	 * which a remote drain lowers to stop the list (struct ppmm_pcpu). */
	pcp_enter(p);
	/* The acquire load first: only after it may the list be read. The
	 * count is read atomically (a plain load all the same): when the
	 * list is stopped, a remote drain may be writing it. */
	high = pcpu_high(p);
	count = READ_ONCE(pcp->count) + 1;
	if (unlikely(count > high)) {
		pcp_free_slow(page, cpu);
		return;
	}
	list_add(&page->buddy_list, &pcp->list);
	WRITE_ONCE(pcp->count, count);
	pcp_exit(p);
}

void ppmm_free_block(struct page *page, unsigned int order)
{
	unsigned long i, n;

	if (likely(order == 0)) {
		pcp_free(page);
		return;
	}
	/* Tails of a compound page stop being tails: a free page must not
	 * look like one (PageTail() would send a later put to the head). */
	if (READ_ONCE(page->flags) & BIT(PG_head))
		for (i = 1, n = 1UL << order; i < n; i++)
			WRITE_ONCE(page[i].compound_head, 0UL);
	WRITE_ONCE(page->_mm_state, (unsigned short)PPMM_PAGE_FREE);
	ppmm_buddy_free(page, order);
}

/* The last reference to a page bound to a net_iov area went: the page stays
 * its provider's, with the reference it had (see the head comment). */
static noinline __cold void bad_niov_put(struct page *page)
{
	set_page_count(page, 1);
	ppmm_report(PPMM_BAD_FREE, page,
		    "last reference dropped on a page still bound to a net_iov area, not freed (the provider unbinds first)");
}

/* The last reference to the block of @order at @page is gone. */
static inline void free_checked(struct page *page, unsigned int order)
{
	if (unlikely(page_pool_page_is_pp(page))) {
		ppmm_bad_pp_page(page, order);
		return;
	}
	/* One load of a word the free below writes anyway, and a branch. */
	if (unlikely(READ_ONCE(page->flags) & BIT(PG_net_iov))) {
		bad_niov_put(page);
		return;
	}
	if (unlikely(READ_ONCE(page->_mm_state) != PPMM_PAGE_ALLOC)) {
		ppmm_report(PPMM_BAD_FREE, page,
			    "last reference dropped on a page that is not an allocation");
		return;
	}
	ppmm_free_block(page, order);
}

void __pp_put_page_last(struct page *page)
{
	free_checked(page, READ_ONCE(page->order));
}

void __pp_put_page_bad(struct page *page)
{
	atomic_inc(&page->_refcount);	/* undo the underflow */
	ppmm_report(PPMM_BAD_DOUBLE_FREE, page, "put_page() of a free page");
}

void __pp_get_page_bad(struct page *page)
{
	atomic_dec(&page->_refcount);	/* undo the increment */
	ppmm_report(PPMM_BAD_GET, page, "get_page() on a free page");
}

void __free_pages(struct page *page, unsigned int order)
{
	bool head, alloc;

	if (unlikely(!ppmm_page_in_map(page))) {
		ppmm_report(PPMM_BAD_OUT_OF_ARENA, page,
			    "__free_pages() of a pointer that is not a struct page of the arena");
		return;
	}
	if (unlikely(PageTail(page) || order > MAX_PAGE_ORDER)) {
		ppmm_report(PPMM_BAD_FREE, page, PageTail(page) ?
			    "__free_pages() of a tail page" :
			    "__free_pages() with order > MAX_PAGE_ORDER");
		return;
	}
	head = PageHead(page);
	alloc = READ_ONCE(page->_mm_state) == PPMM_PAGE_ALLOC;
	/* A page that is not an allocation is caught by the refcount
	 * underflow below (it has none), as a double free. */
	if (alloc && unlikely(READ_ONCE(page->order) != order)) {
		ppmm_report(PPMM_BAD_FREE, page, "__free_pages() with the wrong order");
		return;
	}
	/* A non-compound block whose first page outlives this call is an
	 * order-0 page from here on: record that before the reference goes,
	 * so a concurrent final put_page() frees one page, not the block. */
	if (alloc && !head && order)
		WRITE_ONCE(page->order, 0);
	if (put_page_testzero(page)) {
		free_checked(page, order);
	} else if (alloc && !head) {
		/* The kernel's __free_pages(): someone else still holds the
		 * first page (get_page() on it); free the rest, in halves. */
		while (order-- > 0)
			ppmm_free_block(page + (1UL << order), order);
	}
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (!addr)
		return;
	/* An address inside a page frees that page, as the kernel's
	 * virt_to_page() does; only addresses outside are refused. */
	if (unlikely(!virt_addr_valid((void *)addr))) {
		ppmm_report(PPMM_BAD_OUT_OF_ARENA, (void *)addr,
			    "free_pages() of an address outside the arena");
		return;
	}
	__free_pages(virt_to_page((void *)addr), order);
}

void free_unref_page(struct page *page, unsigned int order)
{
	unsigned short state;

	if (unlikely(!ppmm_page_in_map(page))) {
		ppmm_report(PPMM_BAD_OUT_OF_ARENA, page,
			    "free_unref_page() of a pointer that is not a struct page of the arena");
		return;
	}
	if (unlikely(PageTail(page) || order > MAX_PAGE_ORDER)) {
		ppmm_report(PPMM_BAD_FREE, page, PageTail(page) ?
			    "free_unref_page() of a tail page" :
			    "free_unref_page() with order > MAX_PAGE_ORDER");
		return;
	}
	if (unlikely(page_ref_count(page) != 0)) {
		ppmm_report(PPMM_BAD_FREE, page,
			    "free_unref_page() of a page that is still referenced");
		return;
	}
	state = READ_ONCE(page->_mm_state);
	if (unlikely(state != PPMM_PAGE_ALLOC)) {
		ppmm_report(PPMM_BAD_DOUBLE_FREE, page,
			    "free_unref_page() of a page that is not allocated");
		return;
	}
	if (unlikely(READ_ONCE(page->order) != order)) {
		ppmm_report(PPMM_BAD_FREE, page, "free_unref_page() with the wrong order");
		return;
	}
	free_checked(page, order);
}

/*
 * Every page of the run is checked before any is touched: bad input is one
 * report and changes nothing. Then each page is put, as the kernel's
 * free_contig_range() does; a page someone else still references is not
 * freed by that put but by its last put_page(), and the run's count of
 * such pages is reported (one WARN, counted as a bad free).
 */
void free_contig_range(unsigned long pfn, unsigned long nr_pages)
{
	static struct pp_ratelimit busy_rs;
	unsigned long i, busy = 0;
	struct page *first, *page;
	int ref;

	if (!nr_pages)
		return;
	if (unlikely(!ppmm_arena_up() || !pfn_valid(pfn) ||
		     nr_pages > pp_mem_map.nr_pages - (pfn - PP_PFN_OFFSET))) {
		ppmm_report(PPMM_BAD_OUT_OF_ARENA, (void *)pfn,
			    "free_contig_range() of page frames outside the arena, from pfn");
		return;
	}
	first = pfn_to_page(pfn);
	for (i = 0; i < nr_pages; i++) {
		page = first + i;
		ref = page_ref_count(page);
		if (PageTail(page) || PageHead(page)) {
			ppmm_report(PPMM_BAD_FREE, page,
				    "free_contig_range() of a page of a compound page");
			return;
		}
		/* The pages inside a non-compound block look free. */
		if (READ_ONCE(page->_mm_state) != PPMM_PAGE_ALLOC || ref <= 0) {
			ppmm_report(PPMM_BAD_DOUBLE_FREE, page,
				    "free_contig_range() of a page that is not allocated (free, or inside a higher-order block)");
			return;
		}
		if (READ_ONCE(page->order)) {
			ppmm_report(PPMM_BAD_FREE, page,
				    "free_contig_range() of the first page of a higher-order block");
			return;
		}
		if (unlikely(READ_ONCE(page->flags) & BIT(PG_net_iov))) {
			ppmm_report(PPMM_BAD_FREE, page,
				    "free_contig_range() of a page still bound to a net_iov area (unbind it first), nothing freed");
			return;
		}
	}
	for (i = 0; i < nr_pages; i++) {
		page = first + i;
		busy += page_ref_count(page) != 1;
		put_page(page);
	}
	if (unlikely(busy)) {
		atomic_long_inc(&counters[PPMM_BAD_FREE]);
		__pp_warn(__FILE__, __LINE__, __pp_ratelimit(&busy_rs),
			  "mm: bad free: free_contig_range(): %lu of %lu pages are still in use, each freed by its last put_page()",
			  busy, nr_pages);
	}
}
