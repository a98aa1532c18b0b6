/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Bad input to the page allocator. Each case must be reported with one
 * WARN and its own counter (and no other), must leave the free lists and
 * per-CPU lists exactly as they were, and the arena must keep working.
 * A page freed while still marked as a page_pool page is the exception by
 * design: it is taken out of circulation (PG_reserved, reserved_pages).
 */
#include "mm_test.h"

#include "poison_check.h"

enum which { DOUBLE_FREE, BAD_GET, BAD_FREE, FREED_PP, OUT_OF_ARENA };

struct expect {
	struct pp_mem_counters c;
	unsigned long warns;
	struct mm_snap snap;
};

static unsigned long field(const struct pp_mem_counters *c, enum which w)
{
	switch (w) {
	case DOUBLE_FREE:	return c->double_free;
	case BAD_GET:		return c->bad_get;
	case BAD_FREE:		return c->bad_free;
	case FREED_PP:		return c->freed_pp_page;
	case OUT_OF_ARENA:	return c->out_of_arena;
	}
	return 0;
}

static void before(struct expect *e)
{
	pp_mem_get_counters(&e->c);
	e->warns = pp_warn_count();
	mm_snap_take(&e->snap);
	pp_test_log_clear();
}

/* Exactly one report of kind @w, lists untouched. */
static void after(const struct expect *e, enum which w, const char *msg)
{
	struct pp_mem_counters c;
	struct mm_snap snap;
	enum which k;

	pp_mem_get_counters(&c);
	for (k = DOUBLE_FREE; k <= OUT_OF_ARENA; k++)
		assert_int_equal(field(&c, k), field(&e->c, k) + (k == w));
	assert_int_equal(c.alloc_failed, e->c.alloc_failed);
	assert_int_equal(pp_warn_count(), e->warns + 1);
	assert_true(pp_test_log_contains(msg));
	mm_snap_take(&snap);
	mm_snap_assert_equal(&e->snap, &snap);
}

/* The arena still hands out and takes back pages. */
static void still_works(void)
{
	struct page *p = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);
	struct page *q = alloc_page(GFP_KERNEL);

	assert_non_null(p);
	assert_non_null(q);
	put_page(q);
	put_page(p);
}

static int setup(void **state)
{
	mm_arena(2, 1, 0, 0);
	return 0;
}

static void test_put_page_twice(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct expect e;

	put_page(page);
	before(&e);
	put_page(page);
	after(&e, DOUBLE_FREE, "double free");
	assert_int_equal(page_ref_count(page), 0);
	still_works();
	mm_assert_all_free();
}

static void test_free_page_twice(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct expect e;

	__free_page(page);
	before(&e);
	__free_page(page);
	after(&e, DOUBLE_FREE, "put_page() of a free page");
	still_works();
	mm_assert_all_free();
}

/* A compound page freed twice, after its block merged into the lists. */
static void test_compound_freed_twice(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_COMP, 4);
	struct expect e;

	put_page(page);
	before(&e);
	put_page(page + 3);	/* no longer a tail: the page itself underflows */
	after(&e, DOUBLE_FREE, "double free");
	before(&e);
	__free_pages(page, 4);
	after(&e, DOUBLE_FREE, "double free");
	still_works();
	mm_assert_all_free();
}

static void test_free_pages_of_free_page(void **state)
{
	struct expect e;
	unsigned long addr = __get_free_page(GFP_KERNEL);

	free_page(addr);
	before(&e);
	free_page(addr);
	after(&e, DOUBLE_FREE, "double free");
	mm_assert_all_free();
}

static void test_get_page_on_free_page(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct page *never = pp_mem_map.map + pp_mem_map.nr_pages - 5;
	struct expect e;

	__free_page(page);
	before(&e);
	get_page(page);
	after(&e, BAD_GET, "get_page() on a free page");
	assert_int_equal(page_ref_count(page), 0);

	/* A page inside a free buddy block. */
	before(&e);
	get_page(never);
	after(&e, BAD_GET, "bad get");
	assert_int_equal(page_ref_count(never), 0);
	still_works();
	mm_assert_all_free();
}

static void test_free_tail_page(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	struct expect e;

	before(&e);
	__free_pages(page + 1, 0);
	after(&e, BAD_FREE, "tail page");
	before(&e);
	free_unref_page(page + 2, 0);
	after(&e, BAD_FREE, "tail page");
	assert_int_equal(page_ref_count(page), 1);
	assert_true(PageTail(page + 1));
	put_page(page);
	mm_assert_all_free();
}

static void test_free_with_wrong_order(void **state)
{
	struct page *comp = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);
	struct page *plain = alloc_pages(GFP_KERNEL, 2);
	struct page *single = alloc_page(GFP_KERNEL);
	struct expect e;

	before(&e);
	__free_pages(comp, 2);
	after(&e, BAD_FREE, "wrong order");
	before(&e);
	__free_pages(plain, 3);
	after(&e, BAD_FREE, "wrong order");
	before(&e);
	__free_pages(single, 1);
	after(&e, BAD_FREE, "wrong order");
	before(&e);
	__free_pages(single, MAX_PAGE_ORDER + 1);
	after(&e, BAD_FREE, "MAX_PAGE_ORDER");
	/* Refused means untouched: still allocated, still referenced. */
	assert_int_equal(page_ref_count(comp), 1);
	assert_int_equal(page_ref_count(plain), 1);
	assert_int_equal(page_ref_count(single), 1);
	__free_pages(comp, 3);
	__free_pages(plain, 2);
	__free_pages(single, 0);
	mm_assert_all_free();
}

static void test_free_unref_page(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct page *block = alloc_pages(GFP_KERNEL | __GFP_COMP, 1);
	unsigned long warns;
	struct expect e;

	/* Still referenced. */
	before(&e);
	free_unref_page(page, 0);
	after(&e, BAD_FREE, "still referenced");
	assert_int_equal(page_ref_count(page), 1);

	/* The proper use: the caller dropped the last reference. */
	warns = pp_warn_count();
	assert_true(put_page_testzero(page));
	free_unref_page(page, 0);
	assert_true(put_page_testzero(block));
	free_unref_page(block, 1);
	assert_int_equal(pp_warn_count(), warns);

	/* Already free: refcount 0, but not an allocation. */
	before(&e);
	free_unref_page(page, 0);
	after(&e, DOUBLE_FREE, "not allocated");
	mm_assert_all_free();
}

static void test_out_of_arena(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct page fake = { 0 };
	unsigned long local;
	struct expect e;

	before(&e);
	free_pages((unsigned long)&local, 0);
	after(&e, OUT_OF_ARENA, "outside the arena");
	before(&e);
	free_pages(pp_mem_map.end, 0);
	after(&e, OUT_OF_ARENA, "outside the arena");
	before(&e);
	__free_pages(&fake, 0);
	after(&e, OUT_OF_ARENA, "not a struct page of the arena");
	before(&e);
	__free_pages(pp_mem_map.map + pp_mem_map.nr_pages, 0);
	after(&e, OUT_OF_ARENA, "out of arena");
	/* Inside the array but not at a struct page boundary. */
	before(&e);
	__free_pages((struct page *)((char *)page + 8), 0);
	after(&e, OUT_OF_ARENA, "out of arena");
	before(&e);
	free_unref_page((struct page *)((char *)page - 1), 0);
	after(&e, OUT_OF_ARENA, "out of arena");
	assert_int_equal(page_ref_count(page), 1);

	/* NULL address: a no-op, not an error (as the kernel's). */
	before(&e);
	free_pages(0, 0);
	assert_int_equal(pp_warn_count(), e.warns);
	__free_page(page);
	mm_assert_all_free();
}

/* The kernel's bad_page(): a page freed while still marked page_pool is
 * reported and leaked on purpose, never reused. */
static void test_freed_page_pool_page(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct page *block = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	unsigned long total = mm_total_pages(), free0;
	struct pp_mem_counters c0, c1;
	unsigned long warns = pp_warn_count();
	static struct page *all[2 * PPMM_TEST_BLOCK];	/* the whole arena */
	struct pp_mem_stats st;
	unsigned long n;

	pp_mem_get_counters(&c0);
	page->pp_magic = PP_SIGNATURE | (3UL << PP_DMA_INDEX_SHIFT);
	block->pp_magic = PP_SIGNATURE;
	pp_test_log_clear();
	free0 = mm_free_pages();
	put_page(page);
	put_page(block + 1);
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.freed_pp_page, c0.freed_pp_page + 2);
	assert_int_equal(c1.reserved_pages, c0.reserved_pages + 5);
	assert_int_equal(c1.double_free, c0.double_free);
	assert_int_equal(c1.bad_free, c0.bad_free);
	assert_int_equal(pp_warn_count(), warns + 2);
	assert_true(pp_test_log_contains("freed page_pool page"));
	assert_true(test_bit(PG_reserved, &page->flags));
	assert_true(test_bit(PG_reserved, &block->flags));
	/* Not back in the lists, and no longer counted as usable. */
	assert_int_equal(mm_free_pages(), free0);
	assert_int_equal(mm_total_pages(), total - 5);
	pp_mem_get_stats(&st);
	assert_int_equal(st.pp_pages, 2);

	/* Never handed out again: take all memory and look. */
	for (n = 0; n < ARRAY_SIZE(all); n++) {
		all[n] = alloc_page(GFP_KERNEL | __GFP_NOWARN);
		if (!all[n])
			break;
		assert_ptr_not_equal(all[n], page);
		assert_true(all[n] < block || all[n] >= block + 4);
	}
	assert_int_equal(n, total - 5);
	while (n--)
		__free_page(all[n]);
	pp_mem_drain_local();
	/* A put of the reserved page is a double free, nothing more. */
	pp_mem_get_counters(&c0);
	put_page(page);
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.double_free, c0.double_free + 1);
	assert_int_equal(c1.reserved_pages, c0.reserved_pages);
	/* The arena can go with its bad pages in it. */
	assert_int_equal(pp_mem_exit(), 0);
}

static void test_put_non_allocation(void **state)
{
	struct page *block = alloc_pages(GFP_KERNEL, 2);
	struct expect e;

	/* Someone forged a reference on page 1 of a non-compound block and
	 * drops it: not an allocation, refused. */
	set_page_count(block + 1, 1);
	before(&e);
	put_page(block + 1);
	after(&e, BAD_FREE, "not an allocation");
	__free_pages(block, 2);
	mm_assert_all_free();
}

/* In a poisoning build (meson -Dpoison: ASan, or valgrind when run under
 * it), free page memory is poisoned: a use after free of a page is
 * reported at the access. Allocation unpoisons exactly the block, a free
 * poisons it again on the per-CPU list and in the buddy lists. */
static void test_free_memory_poisoned(void **state)
{
	struct page *page, *block;
	char *addr;

	if (!pp_test_poison_checkable()) {
		print_message("needs a poisoning build (meson -Dpoison; valgrind: run under it)\n");
		skip();
	}
	/* Nothing allocated: the whole arena is poisoned. */
	assert_true(pp_test_byte_poisoned((void *)pp_mem_map.base));
	assert_true(pp_test_byte_poisoned((void *)(pp_mem_map.end - 1)));
	page = alloc_page(GFP_KERNEL);
	addr = page_address(page);
	assert_true(pp_test_addressable(addr, PAGE_SIZE));
	assert_true(pp_test_byte_poisoned(addr + PAGE_SIZE));
	__free_page(page);	/* to the per-CPU list */
	assert_true(pp_test_poisoned(addr, PAGE_SIZE));
	pp_mem_drain_local();	/* to the buddy lists: still poisoned */
	assert_true(pp_test_poisoned(addr, PAGE_SIZE));

	/* A compound block, split from a larger one: only it is unpoisoned. */
	block = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);
	addr = page_address(block);
	assert_true(pp_test_addressable(addr, PAGE_SIZE << 3));
	assert_true(pp_test_byte_poisoned(addr + (PAGE_SIZE << 3)));
	put_page(block);
	assert_true(pp_test_poisoned(addr, PAGE_SIZE << 3));

	/* __GFP_ZERO zeroes after unpoisoning (no report), a non-compound
	 * block whose first page is still held gives back the rest, and
	 * that rest is poisoned while the first page stays accessible. */
	block = alloc_pages(GFP_KERNEL | __GFP_ZERO, 2);
	addr = page_address(block);
	assert_true(pp_test_addressable(addr, PAGE_SIZE << 2));
	assert_int_equal(addr[(PAGE_SIZE << 2) - 1], 0);
	get_page(block);
	__free_pages(block, 2);
	assert_true(pp_test_addressable(addr, PAGE_SIZE));
	assert_true(pp_test_poisoned(addr + PAGE_SIZE, PAGE_SIZE * 3));
	put_page(block);
	assert_true(pp_test_poisoned(addr, PAGE_SIZE));
	mm_assert_all_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_put_page_twice, setup),
		cmocka_unit_test_setup(test_free_page_twice, setup),
		cmocka_unit_test_setup(test_compound_freed_twice, setup),
		cmocka_unit_test_setup(test_free_pages_of_free_page, setup),
		cmocka_unit_test_setup(test_get_page_on_free_page, setup),
		cmocka_unit_test_setup(test_free_tail_page, setup),
		cmocka_unit_test_setup(test_free_with_wrong_order, setup),
		cmocka_unit_test_setup(test_free_unref_page, setup),
		cmocka_unit_test_setup(test_out_of_arena, setup),
		cmocka_unit_test_setup(test_freed_page_pool_page, setup),
		cmocka_unit_test_setup(test_put_non_allocation, setup),
		cmocka_unit_test_setup(test_free_memory_poisoned, setup),
	};

	pp_test_capture_log();
	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
