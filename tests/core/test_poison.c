/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Use-after-recycle poisoning (meson -Dpoison), state by state: a page the
 * caller holds is accessible, every byte of it; a page the pool holds - in
 * the alloc cache after a direct recycle, in the return ring (lanes,
 * llist, magazines: each ring design of the build) after a put from
 * another CPU, the rest of a slow-path bulk waiting in the cache - and a
 * page back in the page allocator after destroy is inaccessible, all of
 * it (a high-order pool's page: all its pages). A fragmented page stays
 * accessible while any fragment is out.
 *
 * The checks ask the checker without touching the memory
 * (tests/common/poison_check.h): ASan's shadow in an ASan build, memcheck's
 * addressability (client check requests, error reporting off around them)
 * under valgrind in the -Dpoison=valgrind build (make test-valgrind). In
 * builds without poisoning, and in the valgrind build run without
 * valgrind, the tests skip. The reports themselves, at the faulting
 * access, are tests/hardening/use_after_recycle.c's.
 */
#include <pthread.h>
#include <string.h>

#include "core_test.h"
#include "poison_check.h"

#define NEEDS_POISON()							\
	do {								\
		if (!pp_test_poison_checkable()) {			\
			print_message("needs a poisoning build (meson -Dpoison; valgrind: run under it)\n"); \
			skip();						\
		}							\
	} while (0)

static struct device *dev;

static struct page_pool *poison_pool(unsigned int order)
{
	struct page_pool_params pp = {
		.order = order, .pool_size = 256, .nid = NUMA_NO_NODE, .dev = dev,
		.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE << order,
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

static void assert_held(struct page *page, unsigned int order)
{
	assert_true(pp_test_addressable(page_address(page), PAGE_SIZE << order));
}

static void assert_home(struct page *page, unsigned int order)
{
	assert_true(pp_test_poisoned(page_address(page), PAGE_SIZE << order));
}

/* Alloc cache: recycled is poisoned, allocated again is not; the rest of
 * the slow path's bulk waits in the cache poisoned; destroy hands every
 * page to the page allocator, still poisoned. */
static void test_alloc_cache(void **state)
{
	struct page_pool *pool;
	struct page *a, *b, *c;

	(void)state;
	NEEDS_POISON();
	pool = poison_pool(0);
	local_bh_disable();
	a = page_pool_dev_alloc_pages(pool);	/* slow path: a bulk */
	b = page_pool_dev_alloc_pages(pool);	/* from the cache */
	assert_non_null(a);
	assert_non_null(b);
	assert_held(a, 0);
	assert_held(b, 0);
	assert_true(pool->alloc.count > 0);
	/* The next page the cache would hand out is poisoned. */
	assert_home(netmem_to_page(pool->alloc.cache[pool->alloc.count - 1]), 0);
	memset(page_address(a), 0x5a, PAGE_SIZE);
	page_pool_recycle_direct(pool, a);
	assert_home(a, 0);
	assert_held(b, 0);
	c = page_pool_dev_alloc_pages(pool);	/* LIFO: a again */
	assert_ptr_equal(c, a);
	assert_held(c, 0);
	assert_int_equal(((unsigned char *)page_address(c))[PAGE_SIZE - 1], 0x5a);
	page_pool_put_full_page(pool, c, true);
	page_pool_put_full_page(pool, b, true);
	assert_home(b, 0);
	local_bh_enable();
	destroy_and_settle(pool);
	assert_home(a, 0);
	assert_home(b, 0);
	assert_all_pages_home();
}

struct remote_put {
	struct page_pool *pool;
	struct page **pages;
	int n;
};

static void *remote_put_fn(void *arg)
{
	struct remote_put *r = arg;
	int i;

	for (i = 0; i < r->n; i++)
		page_pool_put_full_page(r->pool, r->pages[i], false);
	return NULL;
}

/* Another CPU's puts go to the return ring: poisoned there; the refill
 * that brings them back to the cache and out unpoisons only what it
 * hands out. */
static void test_ring_from_other_cpu(void **state)
{
	struct page *pages[PP_ALLOC_CACHE_SIZE], *p;
	struct remote_put r;
	struct page_pool *pool;
	int i, n = 0, n_home = 0;

	(void)state;
	NEEDS_POISON();
	pool = poison_pool(0);
	/* Take what the cache holds, so the next allocation refills from
	 * the ring. */
	do {
		assert_true(n < PP_ALLOC_CACHE_SIZE);
		pages[n] = page_pool_dev_alloc_pages(pool);
		assert_non_null(pages[n]);
		assert_held(pages[n], 0);
		n++;
	} while (pool->alloc.count);
	assert_true(n >= 8);
	r = (struct remote_put){ pool, pages, 8 };
	pp_test_run_thread(remote_put_fn, &r);
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 8);
	for (i = 0; i < 8; i++)
		assert_home(pages[i], 0);
	for (i = 8; i < n; i++)
		assert_held(pages[i], 0);
	p = page_pool_dev_alloc_pages(pool);	/* refill from the ring */
	assert_non_null(p);
	assert_held(p, 0);
	assert_true(pool_stats(pool).alloc_stats.refill >= 1);
	for (i = 0; i < 8; i++) {
		if (pages[i] == p)
			continue;
		assert_home(pages[i], 0);
		n_home++;
	}
	assert_int_equal(n_home, 7);
	page_pool_put_full_page(pool, p, false);
	assert_home(p, 0);
	for (i = 8; i < n; i++)
		page_pool_put_full_page(pool, pages[i], false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

/* A page inflight at destroy: accessible until its put, which releases it
 * to the page allocator: poisoned. */
static void test_put_after_destroy(void **state)
{
	struct page_pool *pool;
	struct page *p;

	(void)state;
	NEEDS_POISON();
	pool = poison_pool(0);
	p = page_pool_dev_alloc_pages(pool);
	assert_non_null(p);
	page_pool_destroy(pool);
	assert_held(p, 0);
	memset(page_address(p), 1, PAGE_SIZE);
	page_pool_put_full_page(pool, p, false);
	pp_workqueue_run_all();
	assert_home(p, 0);
	assert_all_pages_home();
}

/* A high-order pool: all of a page's 2^order pages change state. */
static void test_high_order(void **state)
{
	struct page_pool *pool;
	struct page *p;

	(void)state;
	NEEDS_POISON();
	pool = poison_pool(2);
	p = page_pool_dev_alloc_pages(pool);
	assert_non_null(p);
	assert_held(p, 2);
	memset(page_address(p), 2, PAGE_SIZE << 2);
	page_pool_put_full_page(pool, p, false);
	assert_home(p, 2);
	destroy_and_settle(pool);
	assert_home(p, 2);
	assert_all_pages_home();
}

/* Fragments: the page is accessible while any fragment is out, poisoned
 * when the last one comes home. */
static void test_frag(void **state)
{
	struct page_pool *pool;
	struct page *a, *b;
	unsigned int off_a, off_b;

	(void)state;
	NEEDS_POISON();
	pool = poison_pool(0);
	a = page_pool_dev_alloc_frag(pool, &off_a, 1024);
	b = page_pool_dev_alloc_frag(pool, &off_b, 1024);
	assert_ptr_equal(a, b);
	assert_held(a, 0);
	memset((char *)page_address(a) + off_a, 3, 1024);
	page_pool_put_page(pool, a, -1, false);
	assert_held(b, 0);
	memset((char *)page_address(b) + off_b, 4, 1024);
	/* The pool's own bias still holds the page (it is the frag page):
	 * draining it at destroy is what sends it home. */
	page_pool_put_page(pool, b, -1, false);
	destroy_and_settle(pool);
	assert_home(a, 0);
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_cache),
		cmocka_unit_test(test_ring_from_other_cpu),
		cmocka_unit_test(test_put_after_destroy),
		cmocka_unit_test(test_high_order),
		cmocka_unit_test(test_frag),
	};
	int ret;

	core_test_init(32, 1);
	pp_thread_register(0);
	dev = pp_device_create("poison0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	ret = pp_test_run_on_each_ring(tests, ARRAY_SIZE(tests));
	pp_device_destroy(dev);
	return ret;
}
