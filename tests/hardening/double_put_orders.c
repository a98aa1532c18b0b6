/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A page's last reference put twice, in every order of direct puts (the
 * pool's consumer) and puts into the ring (anyone, here also a thread on
 * another CPU), on every ring design: the pool's owner reports the second
 * put (WARN, the double_put misuse counter) - at once for a direct put, at
 * the refill for a put into the ring - the page is cached once and handed
 * out once, and every page is home at the end. The orders that an owner
 * bit set at refill and at direct recycle would miss are here: a direct
 * put after a ring put of the same trip, a ring put after a direct put
 * whose page is handed out again before the refill, and two ring puts a
 * refill takes apart with the page handed out between them.
 * (A put after the page was handed out again belongs to the new trip: no
 * scheme that counts references can tell it from its holder's put.)
 */
#include <pthread.h>

#include "hard.h"

#define POOL_SIZE	256

static struct page_pool *make_pool(void)
{
	struct page_pool_params pp = { .pool_size = POOL_SIZE, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

static unsigned long double_puts(void)
{
	struct pp_page_pool_misuse m;

	assert_int_equal(pp_page_pool_get_misuse(&m), 0);
	return m.double_put;
}

static void put_direct(struct page_pool *pool, struct page *p)
{
	local_bh_disable();
	page_pool_recycle_direct(pool, p);
	local_bh_enable();
}

static void put_ring(struct page_pool *pool, struct page *p)
{
	page_pool_put_full_page(pool, p, false);
}

/* A thread on another CPU id puts @n pages into the ring, in order. */
struct remote {
	struct page_pool *pool;
	struct page **pages;
	int n;
};

static void *remote_main(void *arg)
{
	struct remote *r = arg;
	int i;

	if (pp_thread_register(-1) <= 0)
		abort();
	for (i = 0; i < r->n; i++)
		page_pool_put_full_page(r->pool, r->pages[i], false);
	pp_thread_unregister();
	return NULL;
}

static void put_remote(struct page_pool *pool, struct page **pages, int n)
{
	struct remote r = { .pool = pool, .pages = pages, .n = n };
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, remote_main, &r), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
}

/* Allocate until the cache is empty, so the next allocation refills from
 * the ring; the pages go to @held. */
static int empty_cache(struct page_pool *pool, struct page **held, int n)
{
	while (pool->alloc.count) {
		assert_true(n < 2 * POOL_SIZE);
		assert_non_null(held[n++] = page_pool_dev_alloc_pages(pool));
	}
	return n;
}

/*
 * The end of every case: the report came, once, with its WARN; 2 x pool
 * size allocations are all distinct (the page is in the pool once), and
 * after destroy every page is home.
 */
static void check_end(struct page_pool *pool, struct page **held, int n, unsigned long dp0)
{
	int i;

	hard_assert_distinct_allocs(pool, 2 * POOL_SIZE - n > 256 ? 256 : 2 * POOL_SIZE - n);
	assert_int_equal(double_puts() - dp0, 1);
	assert_int_equal(hard_warns(), 1);
	for (i = 0; i < n; i++)
		page_pool_put_full_page(pool, held[i], false);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	kapi_assert_all_pages_home();
}

static void test_direct_direct(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *p;

	(void)state;
	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	put_direct(pool, p);
	put_direct(pool, p);
	assert_int_equal(double_puts() - dp0, 1);	/* at once */
	check_end(pool, NULL, 0, dp0);
}

static void test_ring_ring(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *held[2 * POOL_SIZE], *p;
	int n;

	(void)state;
	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	n = empty_cache(pool, held, 0);
	put_ring(pool, p);
	put_ring(pool, p);
	check_end(pool, held, n, dp0);
}

/* The ring put first: the direct put takes the page (it is out), the
 * ring's copy is dropped when taken out. */
static void test_ring_then_direct(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *held[2 * POOL_SIZE], *p;
	int n;

	(void)state;
	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	n = empty_cache(pool, held, 0);
	put_ring(pool, p);
	put_direct(pool, p);
	check_end(pool, held, n, dp0);
}

/* The direct put first; the page is handed out again (LIFO: the next
 * allocation) before the refill takes the ring's copy, which is then
 * older than the allocation. */
static void test_direct_then_ring_realloc(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *held[2 * POOL_SIZE], *p;
	int n;

	(void)state;
	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	n = empty_cache(pool, held, 0);
	put_direct(pool, p);
	put_ring(pool, p);
	held[n++] = page_pool_dev_alloc_pages(pool);
	assert_ptr_equal(held[n - 1], p);	/* out again, legitimately */
	assert_int_equal(double_puts() - dp0, 0);
	check_end(pool, held, n, dp0);
}

static void test_remote_twice(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *held[2 * POOL_SIZE], *p, *two[2];
	int n;

	(void)state;
	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	n = empty_cache(pool, held, 0);
	two[0] = two[1] = p;
	put_remote(pool, two, 2);
	check_end(pool, held, n, dp0);
}

static void test_remote_then_direct(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *held[2 * POOL_SIZE], *p;
	int n;

	(void)state;
	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	n = empty_cache(pool, held, 0);
	put_remote(pool, &p, 1);
	put_direct(pool, p);
	check_end(pool, held, n, dp0);
}

static void test_direct_then_remote_realloc(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *held[2 * POOL_SIZE], *p;
	int n;

	(void)state;
	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	n = empty_cache(pool, held, 0);
	put_direct(pool, p);
	put_remote(pool, &p, 1);
	held[n++] = page_pool_dev_alloc_pages(pool);
	assert_ptr_equal(held[n - 1], p);
	check_end(pool, held, n, dp0);
}

/* Two remote puts of one page behind 63 others: a refill of 64 takes the
 * first and stops, the page is handed out again at once (the cache is a
 * stack), and the next refill takes the second copy - older than that
 * allocation. (Where a design's refill takes both at once, the second is
 * a copy of a page already home: reported the same.) */
static void test_remote_twice_across_refill(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *held[2 * POOL_SIZE], *batch[65], *p;
	int i, n;

	(void)state;
	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	for (i = 0; i < 63; i++)
		assert_non_null(batch[i] = page_pool_dev_alloc_pages(pool));
	n = empty_cache(pool, held, 0);
	batch[63] = batch[64] = p;
	put_remote(pool, batch, 65);
	/* Every page goes out again: the refills take all 65 puts. */
	for (i = 0; i < 64; i++)
		assert_non_null(held[n++] = page_pool_dev_alloc_pages(pool));
	check_end(pool, held, n, dp0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_direct_direct),
		EACH_RING(test_ring_ring),
		EACH_RING(test_ring_then_direct),
		EACH_RING(test_direct_then_ring_realloc),
		EACH_RING(test_remote_twice),
		EACH_RING(test_remote_then_direct),
		EACH_RING(test_direct_then_remote_realloc),
		EACH_RING(test_remote_twice_across_refill),
	};

	kapi_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
