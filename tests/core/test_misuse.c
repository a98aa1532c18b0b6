/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Bad input on the put paths, one case each: a page no pool owns, another
 * pool's page, a double put (direct and ring), a put after the pool is
 * gone, a bulk with a stray page. Each is a WARN plus its own counter,
 * corrupts nothing (the cache holds each page once, refcounts intact), and
 * loses nothing (everything is home at the end).
 */
#include <string.h>
#include <unistd.h>

#include <linux/delay.h>

#include "core_test.h"

static struct pp_page_pool_misuse misuse_now(void)
{
	struct pp_page_pool_misuse m;

	pp_page_pool_get_misuse(&m);
	return m;
}

static void test_not_a_pp_page(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct pp_page_pool_misuse m0 = misuse_now(), m;
	unsigned long warns = pp_warn_count();
	struct page *page = alloc_page(GFP_KERNEL);

	(void)state;
	page_pool_put_full_page(pool, page, true);
	m = misuse_now();
	assert_int_equal(m.not_pp_page, m0.not_pp_page + 1);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal(page_ref_count(page), 1);	/* untouched */
	assert_int_equal(pool->alloc.count, 0);
	__free_page(page);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_page_of_another_pool(void **state)
{
	struct page_pool *a = make_pool(0, NULL, 0), *b = make_pool(0, NULL, 0);
	struct pp_page_pool_misuse m0 = misuse_now();
	unsigned long warns = pp_warn_count();
	struct page *pa, *pb;
	u32 cached_b;

	(void)state;
	pa = page_pool_alloc_pages(a, GFP_ATOMIC);
	pb = page_pool_alloc_pages(b, GFP_ATOMIC);
	cached_b = b->alloc.count;
	local_bh_disable();
	page_pool_put_full_page(b, pa, true);		/* wrong pool, "direct" */
	local_bh_enable();
	assert_int_equal(misuse_now().foreign_pool, m0.foreign_pool + 1);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal(b->alloc.count, cached_b);	/* not cached in b */
	/* Refused: not sent home either (it may be a stale put, the page
	 * now another user's); the caller
	 * still holds its reference and puts it to the right pool. */
	assert_int_equal(pool_stats(a).recycle_stats.ring, 0);
	page_pool_put_full_page(a, pa, false);
	assert_int_equal(pool_stats(a).recycle_stats.ring, 1);
	page_pool_put_full_page(b, pb, false);
	destroy_and_settle(a);
	destroy_and_settle(b);
	assert_all_pages_home();
}

static void test_double_put_direct(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct pp_page_pool_misuse m0 = misuse_now();
	unsigned long warns = pp_warn_count();
	struct page *p, *q;
	u32 count;

	(void)state;
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	local_bh_disable();
	page_pool_recycle_direct(pool, p);
	count = pool->alloc.count;
	page_pool_recycle_direct(pool, p);		/* again */
	local_bh_enable();
	assert_int_equal(pool->alloc.count, count);	/* cached once */
	assert_int_equal(misuse_now().double_put, m0.double_put + 1);
	assert_int_equal(pp_warn_count(), warns + 1);
	/* Home with the kernel's one reference, untouched by the put. */
	assert_int_equal(atomic_long_read(&p->pp_ref_count), 1);
	/* The pool still works and hands the page out once. */
	q = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_ptr_equal(q, p);
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_ptr_not_equal(p, q);
	page_pool_put_full_page(pool, p, false);
	page_pool_put_full_page(pool, q, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_double_put_ring(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct pp_page_pool_misuse m0 = misuse_now();
	struct page *p;
	struct page *q[PP_ALLOC_CACHE_SIZE + 2];
	unsigned long warns;
	int i, j, n = 0;

	(void)state;
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	/* Empty the cache, so the next allocation refills from the ring. */
	while (pool->alloc.count)
		q[n++] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	warns = pp_warn_count();
	page_pool_put_full_page(pool, p, false);
	page_pool_put_full_page(pool, p, false);	/* again */
	/* Both went into the ring (a putter on another CPU cannot tell); the
	 * owner finds the second when it takes them out. */
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 2);
	assert_int_equal(misuse_now().double_put, m0.double_put);
	q[n++] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_ptr_equal(q[n - 1], p);
	assert_int_equal(misuse_now().double_put, m0.double_put + 1);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal(pool->alloc.count, 0);		/* cached once: handed out */
	/* Handed out once: the next allocation is another page. */
	q[n++] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_ptr_not_equal(q[i], q[j]);
	for (i = 0; i < n; i++)
		page_pool_put_full_page(pool, q[i], false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_put_after_pool_gone(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct pp_page_pool_misuse m0 = misuse_now();
	struct pp_page_pool_info info;
	u32 id = pp_page_pool_id(pool);
	unsigned long warns;
	struct page *p;
	int i;

	(void)state;
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_destroy(pool);
	page_pool_put_full_page(pool, p, false);	/* legitimate late return */
	for (i = 0; i < 500 && !pp_page_pool_get_info(id, &info); i++)
		usleep(2000);
	assert_int_equal(pp_page_pool_get_info(id, &info), -ENOENT);
	assert_all_pages_home();

	/* The pool is freed; putting the page again must not touch it
	 * (ASan would report the use after free). */
	warns = pp_warn_count();
	page_pool_put_full_page(pool, p, false);
	assert_int_equal(misuse_now().not_pp_page, m0.not_pp_page + 1);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_all_pages_home();
}

/* A driver that recycles directly after destroying the pool: the cache was
 * emptied for the last time, so the page would be lost there. Reported,
 * and the page goes through the ring, which destroy keeps emptying. */
static void test_recycle_direct_after_destroy(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct pp_page_pool_info info;
	unsigned long warns;
	u32 id = pp_page_pool_id(pool);
	struct page *p;
	int i;

	(void)state;
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_destroy(pool);
	warns = pp_warn_count();
	local_bh_disable();
	page_pool_recycle_direct(pool, p);
	local_bh_enable();
	assert_int_equal(pp_warn_count(), warns + 1);
	for (i = 0; i < 500 && !pp_page_pool_get_info(id, &info); i++)
		usleep(2000);
	assert_int_equal(pp_page_pool_get_info(id, &info), -ENOENT);
	assert_all_pages_home();
}

static void test_bulk_with_stray_page(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct pp_page_pool_misuse m0 = misuse_now();
	struct page *stray = alloc_page(GFP_KERNEL);
	netmem_ref data[3];

	(void)state;
	data[0] = page_pool_alloc_netmems(pool, GFP_ATOMIC);
	data[1] = page_to_netmem(stray);
	data[2] = page_pool_alloc_netmems(pool, GFP_ATOMIC);
	page_pool_put_netmem_bulk(data, 3);
	assert_int_equal(misuse_now().not_pp_page, m0.not_pp_page + 1);
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 2);
	assert_int_equal(page_ref_count(stray), 1);
	__free_page(stray);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_a_pp_page),
		cmocka_unit_test(test_double_put_direct),
		cmocka_unit_test(test_double_put_ring),
		cmocka_unit_test(test_put_after_pool_gone),
		cmocka_unit_test(test_bulk_with_stray_page),
		cmocka_unit_test(test_recycle_direct_after_destroy),
		cmocka_unit_test(test_page_of_another_pool),
	};

	core_test_init(16, 1);
	pp_thread_register(0);
	pp_page_pool_set_defer_times(10, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
