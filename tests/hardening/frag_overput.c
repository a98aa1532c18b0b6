/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A fragment over-put - more page_pool puts of a fragmented
 * page than fragments were handed out, while the pool still holds the
 * page's frag bias. Each put only takes one from a count near BIAS_MAX, so
 * nothing showed until the drain (the next fragment that does not fit, or
 * destroy), which WARNed, undid the underflow and kept the page: the
 * page and the pool leaked, destroy waited forever.
 * Now the drain reports it (WARN, misuse counter ref_underflow) and
 * releases the page to the page allocator - never recycles it into the
 * pool, since a user may still hold a fragment of it - and the pool is
 * freed. With CONFIG_DEBUG_NET the next fragment allocation already sees
 * it and stops carving from that page.
 */
#include "hard.h"

#include <linux/dma-mapping.h>
#include <linux/skbuff.h>

static struct device *dev;

static struct page_pool *make_pool(void)
{
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = dev,
		.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE,
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	hard_warns();
	return pool;
}

static unsigned long underflows(void)
{
	struct pp_page_pool_misuse m;

	pp_page_pool_get_misuse(&m);
	return m.ref_underflow;
}

/* Two 1000-byte fragments of one page, put three times: one over-put.
 * Silent so far (the frag bias hides it). */
static struct page *overput_two(struct page_pool *pool)
{
	unsigned int off;
	struct page *a, *b;

	a = page_pool_dev_alloc_frag(pool, &off, 1000);
	b = page_pool_dev_alloc_frag(pool, &off, 1000);
	assert_non_null(a);
	assert_ptr_equal(a, b);
	page_pool_put_page(pool, a, -1, false);
	page_pool_put_page(pool, b, -1, false);
	page_pool_put_page(pool, a, -1, false);		/* the over-put */
	assert_int_equal(hard_warns(), 0);
	return a;
}

/* Pages in the page allocator's lists now. */
static unsigned long pages_free(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	return st.free_pages;
}

static void finish(struct page_pool *pool)
{
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	assert_int_equal(pp_dma_violations(dev), 0);
	kapi_assert_all_pages_home();
}

/* The next fragment does not fit: the drain sees the over-put. */
static void test_overput_drained_by_alloc(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long u0 = underflows();
	struct page *p, *q;
	unsigned int off;

	unsigned long free0;

	(void)state;
	p = overput_two(pool);
	free0 = pages_free();
	q = page_pool_dev_alloc_frag(pool, &off, 3000);	/* from the cache */
	assert_non_null(q);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(underflows() - u0, 1);
	assert_true(kapi_logged("more times than its"));
	/* Released, not recycled: back in the page allocator; the new
	 * fragment is on another page. */
	assert_ptr_not_equal(q, p);
	assert_int_equal(pages_free(), free0 + 1);
	page_pool_put_page(pool, q, -1, false);
	assert_int_equal(hard_warns(), 0);
	finish(pool);
}

/* Destroy drains the frag page: reported, released, the pool is freed. */
static void test_overput_at_destroy(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long u0 = underflows();

	(void)state;
	overput_two(pool);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(underflows() - u0, 1);
	assert_int_equal(pp_dma_violations(dev), 0);
	kapi_assert_all_pages_home();
}

/* The over-putter put twice too often while another user still holds its
 * fragment: the puts still outnumber the fragments, the page leaves the
 * pool; the holder's late put then finds a page no pool owns - reported,
 * nothing freed twice. */
static void test_overput_while_held(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long u0 = underflows();
	struct pp_page_pool_misuse m0, m1;
	struct page *a, *b, *c, *q;
	unsigned long free0;
	unsigned int off;

	(void)state;
	a = page_pool_dev_alloc_frag(pool, &off, 1000);
	b = page_pool_dev_alloc_frag(pool, &off, 1000);
	c = page_pool_dev_alloc_frag(pool, &off, 1000);
	assert_ptr_equal(a, b);
	assert_ptr_equal(a, c);
	page_pool_put_page(pool, a, -1, false);
	page_pool_put_page(pool, a, -1, false);
	page_pool_put_page(pool, a, -1, false);		/* two over-puts */
	page_pool_put_page(pool, b, -1, false);
	/* c is still held. */
	free0 = pages_free();
	q = page_pool_dev_alloc_frag(pool, &off, 3000);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(underflows() - u0, 1);
	assert_ptr_not_equal(q, a);
	assert_int_equal(pages_free(), free0 + 1);	/* out of the pool */

	pp_page_pool_get_misuse(&m0);
	page_pool_put_page(pool, c, -1, false);		/* the holder's put */
	pp_page_pool_get_misuse(&m1);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(m1.not_pp_page - m0.not_pp_page, 1);
	page_pool_put_page(pool, q, -1, false);
	assert_int_equal(hard_warns(), 0);
	finish(pool);
}

/* CONFIG_DEBUG_NET: the next fragment allocation sees the over-put,
 * although the fragment would fit, and takes a new page. */
static void test_overput_seen_at_next_alloc(void **state)
{
	struct page_pool *pool;
	unsigned long u0 = underflows();
	unsigned long free0;
	struct page *p, *q;
	unsigned int off;

	(void)state;
	HARD_NEEDS_DEBUG_NET();
	pool = make_pool();
	p = overput_two(pool);
	free0 = pages_free();
	q = page_pool_dev_alloc_frag(pool, &off, 100);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(underflows() - u0, 1);
	assert_ptr_not_equal(q, p);
	assert_int_equal(off, 0);
	assert_int_equal(pages_free(), free0 + 1);
	page_pool_put_page(pool, q, -1, false);
	assert_int_equal(hard_warns(), 0);
	finish(pool);
}

/* No false alarm: fragments with extra references (skb clones take one
 * with page_pool_ref_page()), all returned, then more carving. */
static void test_extra_refs_are_no_overput(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long u0 = underflows();
	struct page *a, *b, *c;
	unsigned int off;

	(void)state;
	a = page_pool_dev_alloc_frag(pool, &off, 1000);
	b = page_pool_dev_alloc_frag(pool, &off, 1000);
	page_pool_ref_page(a);
	page_pool_put_page(pool, a, -1, false);
	page_pool_put_page(pool, a, -1, false);
	page_pool_put_page(pool, b, -1, false);
	c = page_pool_dev_alloc_frag(pool, &off, 1000);	/* same page, fits */
	assert_ptr_equal(c, a);
	/* The third fragment: 2000 on x86-64, 2048 on arm64, whose fragment
	 * unit is its DMA alignment (128). */
	assert_int_equal(off, 2 * ALIGN(1000, max_t(unsigned int, dma_get_cache_alignment(),
						      __alignof__(struct skb_shared_info))));
	page_pool_put_page(pool, c, -1, false);
	c = page_pool_dev_alloc_frag(pool, &off, 3000);	/* drains: all back */
	assert_ptr_equal(c, a);				/* reused in place */
	assert_int_equal(off, 0);
	page_pool_put_page(pool, c, -1, false);
	assert_int_equal(hard_warns(), 0);
	assert_int_equal(underflows(), u0);
	finish(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_overput_drained_by_alloc),
		EACH_RING(test_overput_at_destroy),
		EACH_RING(test_overput_while_held),
		EACH_RING(test_overput_seen_at_next_alloc),
		EACH_RING(test_extra_refs_are_no_overput),
	};
	int rc;

	kapi_setup();
	dev = pp_device_create("hard_frag0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	assert_false(IS_ERR_OR_NULL(dev));
	rc = pp_test_run_group(tests, NULL, NULL);
	pp_device_destroy(dev);
	return rc;
}
