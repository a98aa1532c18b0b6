/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A fragment in the next page. page_pool_dev_alloc_va() with
 * size 0 right after fragments that filled their page exactly returned
 * page_address + 4096: the next page's first byte. page_pool_free_va() of
 * it put the following page (held by its user, or sitting in the pool),
 * and the filled page kept a reference nobody would ever drop.
 * Now no fragment starts at or past its page's end, for every size; size 0
 * gets the smallest fragment (helpers.h), inside a page.
 *
 * Each test checks every fragment's offset, then frees everything and
 * asserts no WARN, nothing in flight, no page handed out twice, every page
 * home; on an order-0 and an order-2 pool.
 */
#include "hard.h"

#define NHELD	64

struct frag {
	struct page *page;	/* the page the allocator said */
	unsigned int off;
	void *va;		/* the va variants' pointer */
};

static struct page_pool *make_pool(unsigned int order)
{
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .order = order,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

static unsigned int max_size(const struct page_pool *pool)
{
	return PAGE_SIZE << pool->p.order;
}

/* A fragment lies inside the page its allocator named: it starts before
 * the end, and (va variants) its address is that page's plus the offset. */
static void assert_inside(const struct page_pool *pool, const struct frag *f)
{
	assert_non_null(f->page);
	assert_true(f->off < max_size(pool));
	if (f->va) {
		assert_ptr_equal(virt_to_head_page(f->va), f->page);
		assert_true((char *)f->va - (char *)page_address(f->page) < (long)max_size(pool));
	}
	assert_ptr_equal(page_pool_to_pp(f->page), pool);
}

static void frag_alloc(struct page_pool *pool, struct frag *f, unsigned int size)
{
	f->va = NULL;
	f->page = page_pool_dev_alloc_frag(pool, &f->off, size);
	assert_inside(pool, f);
}

static void va_alloc(struct page_pool *pool, struct frag *f, unsigned int size)
{
	f->va = page_pool_dev_alloc_va(pool, &size);
	assert_non_null(f->va);
	f->page = virt_to_head_page(f->va);
	f->off = (unsigned int)((char *)f->va - (char *)page_address(f->page));
	assert_inside(pool, f);
}

static void alloc_sized(struct page_pool *pool, struct frag *f, unsigned int size)
{
	f->va = NULL;
	f->page = page_pool_dev_alloc(pool, &f->off, &size);
	assert_inside(pool, f);
	assert_true(f->off + size <= max_size(pool));
}

static void frag_free(struct page_pool *pool, struct frag *f)
{
	if (f->va)
		page_pool_free_va(pool, f->va, false);
	else
		page_pool_put_page(pool, f->page, -1, false);
}

/* Pages a user holds around the fragments: the next page of a filled one
 * is likely one of these (the pool's bulk refill is contiguous). */
static void hold(struct page_pool *pool, struct page **held)
{
	int i;

	for (i = 0; i < NHELD; i++)
		assert_non_null(held[i] = page_pool_dev_alloc_pages(pool));
}

/* Give back the held pages and the fragments; then no WARN, nothing in
 * flight, 256 distinct pages from the pool, all home after destroy. */
static void finish(struct page_pool *pool, struct page **held, struct frag *f, int nf)
{
	struct page *got[256];
	int i, j;

	for (i = 0; i < nf; i++)
		frag_free(pool, &f[i]);
	for (i = 0; i < NHELD; i++)
		page_pool_put_full_page(pool, held[i], false);
	assert_int_equal(hard_warns(), 0);
	/* The frag page keeps its bias until the next drain: destroy. */
	for (i = 0; i < 256; i++) {
		got[i] = page_pool_dev_alloc_pages(pool);
		assert_non_null(got[i]);
		for (j = 0; j < i; j++)
			assert_ptr_not_equal(got[i], got[j]);
	}
	for (i = 0; i < 256; i++)
		page_pool_put_full_page(pool, got[i], false);
	page_pool_destroy(pool);
	assert_int_equal(hard_warns(), 0);
	kapi_assert_all_pages_home();
}

/* The finding as reported: page_pool_dev_alloc_va() of half a page twice
 * (exact fill), then size 0. */
static void check_va_exact_fill_then_zero(unsigned int order)
{
	struct page_pool *pool = make_pool(order);
	struct page *held[NHELD];
	struct frag f[3];

	hard_warns();
	hold(pool, held);
	va_alloc(pool, &f[0], max_size(pool) / 2);
	va_alloc(pool, &f[1], max_size(pool) / 2);
	assert_ptr_equal(f[1].page, f[0].page);
	va_alloc(pool, &f[2], 0);
	assert_ptr_not_equal(f[2].page, f[0].page);	/* the page was full */
	assert_int_equal(f[2].off, 0);
	finish(pool, held, f, 3);
}

/* page_pool_alloc_frag(): one fragment of the whole page, then size 0;
 * and size 0 first, then more size-0 ones: each its own address. */
static void check_frag_sizes(unsigned int order)
{
	struct page_pool *pool = make_pool(order);
	struct page *held[NHELD];
	struct frag f[6];

	hard_warns();
	hold(pool, held);
	frag_alloc(pool, &f[0], max_size(pool));		/* exact fill */
	assert_int_equal(f[0].off, 0);
	frag_alloc(pool, &f[1], 0);
	assert_ptr_not_equal(f[1].page, f[0].page);
	assert_int_equal(f[1].off, 0);
	frag_alloc(pool, &f[2], 0);				/* same page, next unit */
	assert_ptr_equal(f[2].page, f[1].page);
	assert_true(f[2].off > f[1].off);
	/* to the end exactly (the unit: what a size-0 fragment took) */
	frag_alloc(pool, &f[3], max_size(pool) - f[2].off - (f[2].off - f[1].off));
	frag_alloc(pool, &f[4], 0);
	frag_alloc(pool, &f[5], max_size(pool) - f[4].off - 8);	/* the rest, less a unit */
	finish(pool, held, f, 6);
}

/* page_pool_dev_alloc(): the tail rule fills the page (frag_offset at the
 * end), then size 0; more than half a page and more than the page are
 * whole pages (*size says so), also sizes whose doubling wraps. */
static void check_alloc_tail_then_zero(unsigned int order)
{
	struct page_pool *pool = make_pool(order);
	struct page *held[NHELD];
	unsigned int third = max_size(pool) / 3;
	struct frag f[7];

	hard_warns();
	hold(pool, held);
	alloc_sized(pool, &f[0], third + 8);
	alloc_sized(pool, &f[1], third + 8);	/* no third one fits: gets the tail */
	assert_ptr_equal(f[1].page, f[0].page);
	alloc_sized(pool, &f[2], 0);
	assert_ptr_not_equal(f[2].page, f[0].page);
	alloc_sized(pool, &f[3], max_size(pool) / 2 + 1);
	assert_int_equal(f[3].off, 0);
	alloc_sized(pool, &f[4], max_size(pool) + 1);
	assert_int_equal(f[4].off, 0);
	alloc_sized(pool, &f[5], 0);
	/* 2 GiB and more: a whole page too (the doubling wrapped once). */
	alloc_sized(pool, &f[6], 0x80000000u + 8);
	assert_int_equal(f[6].off, 0);
	finish(pool, held, f, 7);
}

/* Size-0 allocations in a row past a page's worth: each inside a page. */
static void check_zero_run(unsigned int order)
{
	struct page_pool *pool = make_pool(order);
	struct page *held[NHELD];
	static struct frag f[PAGE_SIZE / 8 + 4];
	int i, n = (int)(sizeof(f) / sizeof(f[0]));

	hard_warns();
	hold(pool, held);
	for (i = 0; i < n; i++)
		va_alloc(pool, &f[i], 0);
	finish(pool, held, f, n);
}

static void test_va_exact_fill_then_zero(void **state) { (void)state; check_va_exact_fill_then_zero(0); }
static void test_va_exact_fill_then_zero_order2(void **state) { (void)state; check_va_exact_fill_then_zero(2); }
static void test_frag_sizes(void **state) { (void)state; check_frag_sizes(0); }
static void test_frag_sizes_order2(void **state) { (void)state; check_frag_sizes(2); }
static void test_alloc_tail_then_zero(void **state) { (void)state; check_alloc_tail_then_zero(0); }
static void test_alloc_tail_then_zero_order2(void **state) { (void)state; check_alloc_tail_then_zero(2); }
static void test_zero_run(void **state) { (void)state; check_zero_run(0); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_va_exact_fill_then_zero),
		EACH_RING(test_va_exact_fill_then_zero_order2),
		EACH_RING(test_frag_sizes),
		EACH_RING(test_frag_sizes_order2),
		EACH_RING(test_alloc_tail_then_zero),
		EACH_RING(test_alloc_tail_then_zero_order2),
		EACH_RING(test_zero_run),
	};

	kapi_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
