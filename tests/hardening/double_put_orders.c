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
 * And a second put that would send the page back to the page allocator
 * (the ring full, an extra page reference) after the first cached it or
 * put it into the ring; a release while a duplicate waits in the ring.
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

/* What most cases start from: a pool, the counters before, the page @p
 * out, and the cache emptied into @held so the next allocation refills
 * from the ring. */
struct dp_case {
	struct page_pool *pool;
	unsigned long dp0;
	struct page *held[2 * POOL_SIZE], *p;
	int n;
};

static void dp_begin(struct dp_case *c)
{
	c->pool = make_pool();
	c->dp0 = double_puts();
	hard_warns();
	c->p = page_pool_dev_alloc_pages(c->pool);
	c->n = empty_cache(c->pool, c->held, 0);
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
	static struct dp_case c;

	(void)state;
	dp_begin(&c);
	put_ring(c.pool, c.p);
	put_ring(c.pool, c.p);
	check_end(c.pool, c.held, c.n, c.dp0);
}

/* The ring put first: the direct put takes the page (it is out), the
 * ring's copy is dropped when taken out. */
static void test_ring_then_direct(void **state)
{
	static struct dp_case c;

	(void)state;
	dp_begin(&c);
	put_ring(c.pool, c.p);
	put_direct(c.pool, c.p);
	check_end(c.pool, c.held, c.n, c.dp0);
}

/* The direct put first; the page is handed out again (LIFO: the next
 * allocation) before the refill takes the ring's copy, which is then
 * older than the allocation. */
static void test_direct_then_ring_realloc(void **state)
{
	static struct dp_case c;

	(void)state;
	dp_begin(&c);
	put_direct(c.pool, c.p);
	put_ring(c.pool, c.p);
	c.held[c.n++] = page_pool_dev_alloc_pages(c.pool);
	assert_ptr_equal(c.held[c.n - 1], c.p);	/* out again, legitimately */
	assert_int_equal(double_puts() - c.dp0, 0);
	check_end(c.pool, c.held, c.n, c.dp0);
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
	static struct dp_case c;

	(void)state;
	dp_begin(&c);
	put_remote(c.pool, &c.p, 1);
	put_direct(c.pool, c.p);
	check_end(c.pool, c.held, c.n, c.dp0);
}

static void test_direct_then_remote_realloc(void **state)
{
	static struct dp_case c;

	(void)state;
	dp_begin(&c);
	put_direct(c.pool, c.p);
	put_remote(c.pool, &c.p, 1);
	c.held[c.n++] = page_pool_dev_alloc_pages(c.pool);
	assert_ptr_equal(c.held[c.n - 1], c.p);
	check_end(c.pool, c.held, c.n, c.dp0);
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

/* Fill the ring until a put finds it full (pages from @fill, counted in
 * *@used); returns how many went in. @pool_size 64 makes that quick. */
static struct page_pool *make_small_pool(void)
{
	struct page_pool_params pp = { .pool_size = 64, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

static int fill_ring(struct page_pool *pool, struct page **fill, int n)
{
	u64 full0 = kapi_stats(pool).recycle_stats.ring_full;
	int i = 0;

	while (kapi_stats(pool).recycle_stats.ring_full == full0) {
		assert_true(i < n);
		put_ring(pool, fill[i++]);
	}
	return i;
}

/*
 * The second put cannot go into the pool - the ring is full, or the page
 * has an extra page reference (not recyclable) - and would send the page
 * back to the page allocator: after a direct put that cached it, that
 * would free it under the cache; after a ring put of this trip, under
 * the ring. Either way it is the duplicate: reported, dropped.
 * @first_direct: the first put is direct (else into the ring).
 * @extra_ref: the second put holds an extra page reference (else it finds
 * the ring full).
 */
static void release_second(bool first_direct, bool extra_ref)
{
	struct page_pool *pool = make_small_pool();
	unsigned long dp0 = double_puts();
	struct page *held[2 * POOL_SIZE], *fill[256], *p;
	int i, n, nf = 0, used = 0;

	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	for (i = 0; i < 160; i++)
		assert_non_null(fill[nf++] = page_pool_dev_alloc_pages(pool));
	n = empty_cache(pool, held, 0);
	if (first_direct)
		put_direct(pool, p);
	else
		put_ring(pool, p);
	if (extra_ref) {
		get_page(p);
		put_ring(pool, p);
		assert_int_equal(page_ref_count(p), 2);	/* the duplicate freed nothing */
		put_page(p);
	} else {
		used = fill_ring(pool, fill, nf);
		put_ring(pool, p);
	}
	assert_int_equal(double_puts() - dp0, 1);	/* at once */
	assert_int_equal(hard_warns(), 1);
	for (i = used; i < nf; i++)
		put_ring(pool, fill[i]);
	/* No allocation may hand p out twice. */
	hard_assert_distinct_allocs(pool, 256);
	assert_int_equal(double_puts() - dp0, 1);
	assert_int_equal(hard_warns(), 0);
	for (i = 0; i < n; i++)
		page_pool_put_full_page(pool, held[i], false);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	kapi_assert_all_pages_home();
}

static void test_direct_then_ring_full(void **state) { (void)state; release_second(true, false); }
static void test_ring_then_ring_full(void **state) { (void)state; release_second(false, false); }
static void test_direct_then_extra_ref(void **state) { (void)state; release_second(true, true); }
static void test_ring_then_extra_ref(void **state) { (void)state; release_second(false, true); }

/*
 * A duplicate put waits in the ring while the page, home, is released
 * (page_pool_update_nid() empties the cache): the release waits until the
 * owner takes the duplicate out, then the page goes; it is not lost and
 * the destroyed pool is freed. One double put, one report.
 */
static void test_release_with_dup_in_ring(void **state)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *p;
	u32 id = pp_page_pool_id(pool);
	struct pp_page_pool_info info;

	(void)state;
	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	put_direct(pool, p);
	put_ring(pool, p);			/* the duplicate, in the ring */
	local_bh_disable();
	page_pool_update_nid(pool, 0);		/* releases the cache: p waits */
	local_bh_enable();
	assert_int_equal(hard_inflight(pool), 1);
	hard_assert_distinct_allocs(pool, 256);	/* the refill takes the duplicate */
	assert_int_equal(double_puts() - dp0, 1);
	assert_int_equal(hard_warns(), 1);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	assert_int_equal(pp_page_pool_get_info(id, &info), -ENOENT);
	kapi_assert_all_pages_home();
}

/*
 * A put after the release was deferred: the page's holder let it go with
 * a stale duplicate (from its previous trip) still in the ring, so the
 * release waits for the owner to take that out (PP_PUT_SEQ_LIMBO) - and
 * then the page is put once more, directly, into the ring, or on the
 * release path again. That third put is this trip's duplicate: reported
 * and dropped, and the page goes back to the page allocator once, when
 * the stale put is taken out - not cached under the pending release (the
 * page would then be the pool's and the allocator's at once) nor left
 * waiting for ever. Two double puts, two reports.
 * @how: 0 direct, 1 into the ring, 2 the release path (extra reference).
 */
static void put_after_deferred_release(int how)
{
	struct page_pool *pool = make_pool();
	unsigned long dp0 = double_puts();
	struct page *p;
	u32 id = pp_page_pool_id(pool);
	struct pp_page_pool_info info;

	hard_warns();
	p = page_pool_dev_alloc_pages(pool);
	put_direct(pool, p);
	put_ring(pool, p);			/* stale once p goes out again */
	assert_ptr_equal(page_pool_dev_alloc_pages(pool), p);
	get_page(p);
	put_ring(pool, p);			/* not recyclable: release, deferred */
	assert_int_equal(page_ref_count(p), 2);		/* the pool's is still there */
	assert_int_equal(double_puts() - dp0, 0);
	switch (how) {
	case 0:
		put_direct(pool, p);
		break;
	case 1:
		put_ring(pool, p);
		break;
	default:
		get_page(p);
		put_ring(pool, p);
		put_page(p);
		break;
	}
	assert_int_equal(double_puts() - dp0, 1);	/* at once */
	assert_int_equal(hard_warns(), 1);
	/* The refill takes the stale put, reports it, and releases p. */
	hard_assert_distinct_allocs(pool, 256);
	assert_int_equal(double_puts() - dp0, 2);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(page_ref_count(p), 1);		/* ours only: the pool's is gone */
	put_page(p);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	assert_int_equal(pp_page_pool_get_info(id, &info), -ENOENT);
	kapi_assert_all_pages_home();
}

static void test_direct_after_deferred_release(void **state) { (void)state; put_after_deferred_release(0); }
static void test_ring_after_deferred_release(void **state) { (void)state; put_after_deferred_release(1); }
static void test_release_after_deferred_release(void **state) { (void)state; put_after_deferred_release(2); }

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
		EACH_RING(test_direct_then_ring_full),
		EACH_RING(test_ring_then_ring_full),
		EACH_RING(test_direct_then_extra_ref),
		EACH_RING(test_ring_then_extra_ref),
		EACH_RING(test_release_with_dup_in_ring),
		EACH_RING(test_direct_after_deferred_release),
		EACH_RING(test_ring_after_deferred_release),
		EACH_RING(test_release_after_deferred_release),
	};

	kapi_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
