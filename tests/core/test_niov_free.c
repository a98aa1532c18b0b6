/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page allocator refuses to free a page still bound to a net_iov area
 * (PG_net_iov, pp_net_iov_area_bind_pages()): free_contig_range() of a run
 * holding one, and the last put_page() / __free_pages() of one, are a WARN
 * and a bad free each, and free nothing: the page keeps its reference and
 * its binding (the net_iov still resolves), and the provider's free after
 * the unbind gives every page back. Here because the test needs both core
 * (the binding) and mm (the free).
 * Layer: tests.
 */
#include <net/netmem.h>
#include <net/page_pool/memory_provider.h>
#include <pagepool/mm.h>

#include "core_test.h"

#define NR	4

struct bound_run {
	struct net_iov_area area;
	struct net_iov niovs[NR];
	struct page *pages;
};

static void bind_run(struct bound_run *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->pages = alloc_contig_pages(NR, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_non_null(r->pages);
	r->area.niovs = r->niovs;
	r->area.num_niovs = NR;
	for (i = 0; i < NR; i++)
		r->niovs[i].owner = &r->area;
	assert_int_equal(pp_net_iov_area_bind_pages(&r->area, r->pages), 0);
}

/* The run is as bind left it: each page allocated, refcount 1, bound. */
static void assert_run_intact(struct bound_run *r)
{
	int i;

	for (i = 0; i < NR; i++) {
		assert_int_equal(page_ref_count(r->pages + i), 1);
		assert_ptr_equal(pp_virt_to_net_iov(page_address(r->pages + i)), &r->niovs[i]);
	}
}

static unsigned long bad_free(void)
{
	struct pp_mem_counters c;

	assert_int_equal(pp_mem_get_counters(&c), 0);
	return c.bad_free;
}

static void free_refused(struct bound_run *r, int how)
{
	struct pp_mem_stats before, after;
	unsigned long bad = bad_free(), warns = pp_warn_count();

	pp_mem_get_stats(&before);
	pp_test_log_clear();
	switch (how) {
	case 0:
		free_contig_range(page_to_pfn(r->pages), NR);
		break;
	case 1:
		put_page(r->pages + 1);
		break;
	case 2:
		__free_pages(r->pages + 2, 0);
		break;
	}
	pp_mem_get_stats(&after);
	assert_int_equal(bad_free(), bad + 1);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_true(pp_test_log_contains("bound to a net_iov area"));
	assert_int_equal(after.free_pages, before.free_pages);
	assert_run_intact(r);
}

static void test_free_of_bound_pages_refused(void **state)
{
	struct pp_mem_stats st;
	struct bound_run r;
	unsigned long bad;

	(void)state;
	bind_run(&r);
	free_refused(&r, 0);	/* free_contig_range() of the whole run */
	free_refused(&r, 1);	/* the last put_page() of one page */
	free_refused(&r, 2);	/* __free_pages() of one page */

	/* A run that only partly overlaps a bound page is refused too. */
	bad = bad_free();
	free_contig_range(page_to_pfn(r.pages) + 3, 1);
	assert_int_equal(bad_free(), bad + 1);
	assert_run_intact(&r);

	/* After the unbind the provider's free works: no bad free, all home. */
	pp_net_iov_area_unbind_pages(&r.area);
	assert_null(pp_virt_to_net_iov(page_address(r.pages)));
	bad = bad_free();
	free_contig_range(page_to_pfn(r.pages), NR);
	assert_int_equal(bad_free(), bad);
	pp_mem_get_stats(&st);
	assert_int_equal(st.free_pages, st.total_pages);
}

/* An unbound run and an ordinary page free as before. */
static void test_unbound_frees(void **state)
{
	struct page *run, *page;
	struct pp_mem_stats st;
	unsigned long bad = bad_free(), warns = pp_warn_count();

	(void)state;
	run = alloc_contig_pages(NR, GFP_KERNEL, NUMA_NO_NODE, NULL);
	page = alloc_page(GFP_KERNEL);
	assert_non_null(run);
	assert_non_null(page);
	free_contig_range(page_to_pfn(run), NR);
	put_page(page);
	assert_int_equal(bad_free(), bad);
	assert_int_equal(pp_warn_count(), warns);
	pp_mem_get_stats(&st);
	assert_int_equal(st.free_pages, st.total_pages);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_of_bound_pages_refused),
		cmocka_unit_test(test_unbound_frees),
	};

	core_test_init(16, 1);
	pp_thread_register(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
