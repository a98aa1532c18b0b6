/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The list designs of the return ring (src/core/ring_llist.c), on each of
 * them the build has (llist, llist_batch; the program skips without
 * them): the kernel's bound, exact for single and bulk puts, before and
 * after a refill; the list is newest first (LIFO); llist_batch takes the
 * whole list with one exchange and refills from its private chain the
 * times after, the bound counting what waits there; returning CPUs push
 * concurrently while the owner refills, and every page comes home once;
 * destroy drains list and chain, and puts after it come home through the
 * retry.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/delay.h>
#include <linux/processor.h>
#include <linux/ptr_ring.h>

#include "core_test.h"
#include "core/ring_llist.h"	/* a white-box look at the list */

#define RETRY_MS	10

static struct pp_llist *list_of(struct page_pool *pool)
{
	assert_true(pool->ring_design == PP_RING_LLIST ||
		    pool->ring_design == PP_RING_LLIST_BATCH);
	return pool->ring_state;
}

/* Netmems waiting: the head's count (the bound's). */
static u32 waiting(struct page_pool *pool)
{
	return pp_llist_count((unsigned long)atomic_long_read(&list_of(pool)->head));
}

static netmem_ref first(struct page_pool *pool)
{
	return pp_llist_first((unsigned long)atomic_long_read(&list_of(pool)->head));
}

static netmem_ref next_of(netmem_ref netmem)
{
	return pp_llist_first(*netmem_ring_link(netmem));
}

static u32 chain_len(netmem_ref netmem)
{
	u32 n = 0;

	for (; netmem; netmem = next_of(netmem))
		n++;
	return n;
}

static struct page_pool *make_sized(unsigned int size)
{
	struct page_pool_params pp = { .pool_size = size, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR(pool));
	return pool;
}

static bool batch(struct page_pool *pool)
{
	return pool->ring_design == PP_RING_LLIST_BATCH;
}

/* Non-direct puts from this thread (not in softirq): all to the list. */
static void put_all(struct page_pool *pool, struct page **pages, int n)
{
	int i;

	for (i = 0; i < n; i++)
		page_pool_put_full_page(pool, pages[i], false);
}

/* Allocate @n, from the cache, the list or the page allocator. */
static void alloc_all(struct page_pool *pool, struct page **pages, int n)
{
	int i;

	for (i = 0; i < n; i++)
		assert_non_null(pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));
}

/*
 * Single puts: exactly ring size netmems wait, the next is ring_full -
 * for a ring size that is not a power of two too; after two refills moved
 * 128 into the cache, exactly 128 more fit (the batch design's private
 * chain still counts: it waits as the kernel's ring slots would).
 */
static void bound_single(unsigned int size)
{
	static struct page *pages[1280], *again[65];
	struct page_pool *pool = make_sized(size);
	struct page_pool_stats st;
	int n = (int)size + 10, m = (n + 64 + 63) / 64 * 64, more;

	alloc_all(pool, pages, m);		/* whole slow calls: the cache is empty */
	assert_int_equal(pool->alloc.count, 0);
	put_all(pool, pages, n);
	st = pool_stats(pool);
	assert_int_equal(st.recycle_stats.ring, size);
	assert_int_equal(st.recycle_stats.ring_full, 10);
	assert_int_equal(waiting(pool), size);
	assert_int_equal(chain_len(first(pool)), size);
	assert_int_equal(pool_inflight(pool), m - 10);

	alloc_all(pool, again, 1);		/* a refill */
	assert_int_equal(pool->alloc.count, PP_ALLOC_CACHE_REFILL - 1);
	assert_int_equal(waiting(pool), size - PP_ALLOC_CACHE_REFILL);
	if (batch(pool)) {
		/* The whole list was taken: what did not fit waits privately. */
		assert_int_equal(first(pool), 0);
		assert_int_equal(list_of(pool)->priv_count, size - PP_ALLOC_CACHE_REFILL);
		assert_int_equal(chain_len(list_of(pool)->priv), size - PP_ALLOC_CACHE_REFILL);
	} else {
		assert_int_equal(chain_len(first(pool)), size - PP_ALLOC_CACHE_REFILL);
	}
	alloc_all(pool, again + 1, 64);		/* 63 from the cache, a refill */
	assert_int_equal(waiting(pool), size - 2 * PP_ALLOC_CACHE_REFILL);
	/* 65 + the held ones: 128 fit, the rest is ring_full. */
	put_all(pool, again, 65);
	put_all(pool, pages + n, m - n);
	more = 65 + m - n;
	st = pool_stats(pool);
	assert_int_equal(st.recycle_stats.ring, size + 2 * PP_ALLOC_CACHE_REFILL);
	assert_int_equal(st.recycle_stats.ring_full, 10 + more - 2 * PP_ALLOC_CACHE_REFILL);
	assert_int_equal(waiting(pool), size);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_bound_single(void **state)
{
	(void)state;
	bound_single(256);
	bound_single(1000);
}

/* Bulk puts of 16 (one pool): what fits goes in, the rest home with one
 * ring_full per bulk, as the kernel's. */
static void test_bound_bulk(void **state)
{
	static struct page *pages[64];
	struct page_pool *pool = make_sized(40);
	netmem_ref bulk[16];
	struct page_pool_stats st;
	int b, i;

	(void)state;
	alloc_all(pool, pages, 64);
	for (b = 0; b < 4; b++) {
		for (i = 0; i < 16; i++)
			bulk[i] = page_to_netmem(pages[b * 16 + i]);
		page_pool_put_netmem_bulk(bulk, 16);
		st = pool_stats(pool);
		/* 16, 32, 40 (8 home, one ring_full), 40 (16 home). */
		assert_int_equal(st.recycle_stats.ring, b < 2 ? 16 * (b + 1) : 40);
		assert_int_equal(st.recycle_stats.ring_full, b < 2 ? 0 : b - 1);
		assert_int_equal(waiting(pool), st.recycle_stats.ring);
	}
	/* The chain of a bulk is in the list as linked, bulk[0] first. */
	assert_int_equal(chain_len(first(pool)), 40);
	assert_ptr_equal(first(pool), page_to_netmem(pages[32]));
	assert_ptr_equal(next_of(first(pool)), page_to_netmem(pages[33]));
	assert_int_equal(pool_inflight(pool), 40);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

/*
 * LIFO: the list is newest first, and a refill moves it into the cache
 * in that order, so the cache (a stack) hands the oldest of the refill
 * out first. (The kernel's ring is FIFO: there the newest is out first.)
 */
static void test_lifo(void **state)
{
	static struct page *pages[64];
	struct page_pool *pool = make_sized(64);
	struct page *got;
	netmem_ref n;
	int i;

	(void)state;
	alloc_all(pool, pages, 64);		/* one slow call: the cache is empty */
	assert_int_equal(pool->alloc.count, 0);
	put_all(pool, pages, 10);
	for (n = first(pool), i = 9; n; n = next_of(n), i--)
		assert_ptr_equal(n, page_to_netmem(pages[i]));
	assert_int_equal(i, -1);
	got = page_pool_alloc_pages(pool, GFP_ATOMIC);	/* a refill of the 10 */
	assert_int_equal(waiting(pool), 0);
	assert_int_equal(pool->alloc.count, 9);
	assert_ptr_equal(got, pages[0]);
	assert_ptr_equal(netmem_to_page(pool->alloc.cache[8]), pages[1]);
	assert_ptr_equal(netmem_to_page(pool->alloc.cache[0]), pages[9]);
	page_pool_put_full_page(pool, got, false);
	put_all(pool, pages + 10, 54);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

/*
 * llist_batch: one take, then refills from the private chain, one atomic
 * each (the head word's count comes down by what left), pages put in
 * between waiting on the shared list until the chain runs short; every
 * page out once.
 */
static void test_batch_private_refills(void **state)
{
	static struct page *pages[256], *extra[5], *out[256];
	struct page_pool *pool;
	struct pp_llist *l;
	int i, j, nout = 0;

	(void)state;
	pool = make_sized(1024);
	if (!batch(pool)) {
		destroy_and_settle(pool);
		pp_test_skip();
	}
	l = list_of(pool);
	alloc_all(pool, pages, 200);
	alloc_all(pool, extra, 5);
	while (pool->alloc.count)	/* nothing left in the cache */
		page_pool_put_full_page(pool, page_pool_alloc_pages(pool, GFP_ATOMIC), false);
	put_all(pool, pages, 200);	/* 200 on the list, over the cache's */
	assert_int_equal(waiting(pool), 200 + 51);
	assert_int_equal(chain_len(first(pool)), 251);

	/* Take: 64 to the cache, 187 private, nothing shared. */
	out[nout++] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_int_equal(first(pool), 0);
	assert_int_equal(l->priv_count, 187);
	assert_int_equal(waiting(pool), 187);
	/* Puts land on the shared list; the count covers both. */
	put_all(pool, extra, 5);
	assert_int_equal(waiting(pool), 192);
	assert_int_equal(chain_len(first(pool)), 5);

	/* Refills from the chain: 64, 64, then 59 + the 5 shared ones. */
	for (j = 0; j < 3; j++) {
		for (i = 0; i < 64; i++)
			out[nout++] = page_pool_alloc_pages(pool, GFP_ATOMIC);
		assert_int_equal(l->priv_count, j < 2 ? 187 - 64 * (j + 1) : 0);
		assert_int_equal(waiting(pool), j < 2 ? 192 - 64 * (j + 1) : 0);
		assert_int_equal(chain_len(first(pool)), j < 2 ? 5 : 0);
	}
	assert_int_equal(pool->alloc.count, 63);
	while (pool->alloc.count)
		out[nout++] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	/* Every page came out once: the 251 + 5. */
	assert_int_equal(nout, 256);
	for (i = 0; i < nout; i++)
		for (j = i + 1; j < nout; j++)
			assert_ptr_not_equal(out[i], out[j]);
	assert_int_equal(pool_stats(pool).alloc_stats.slow, 4);	/* 205 + 51: no more */
	put_all(pool, out, nout);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

/*
 * Returning CPUs: PRODUCERS threads, each a CPU of its own, put what the
 * owner hands them (singles and bulks of up to 16), while the owner
 * allocates in a softirq section and refills. A page taken from the list
 * twice would be handed out while it is out already: the owner checks
 * every allocation against what it has out.
 */
#define PRODUCERS	3
#ifdef __SANITIZE_THREAD__
#define XPAGES_DEFAULT	50000L		/* ThreadSanitizer: ~20x slower */
#else
#define XPAGES_DEFAULT	400000L
#endif

static long xpages = XPAGES_DEFAULT;	/* PP_TEST_LLIST_PAGES overrides */

static struct page_pool *xpool;
static struct ptr_ring xhand[PRODUCERS];	/* owner -> producer, SPSC */
static unsigned char *xout;			/* by page index: out of the pool */

static void *xproducer(void *arg)
{
	long id = (long)arg, n = 0;
	netmem_ref bulk[16];
	unsigned int idle = 0;
	u32 nb = 0;

	assert_true(pp_thread_register(-1) > 0);
	for (;;) {
		struct page *p = __ptr_ring_consume(&xhand[id]);

		if (!p) {
			/* Nothing handed over: a partial bulk goes now. */
			if (nb) {
				page_pool_put_netmem_bulk(bulk, nb);
				nb = 0;
			}
			pp_test_relax_or_yield(&idle);
			continue;
		}
		idle = 0;
		if ((long)p == 1)	/* the owner is done */
			break;
		__atomic_store_n(&xout[p - pp_mem_map.map], 0, __ATOMIC_RELAXED);
		if (n++ % 3) {
			page_pool_put_full_page(xpool, p, false);
		} else {
			bulk[nb++] = page_to_netmem(p);
			if (nb == 16) {
				page_pool_put_netmem_bulk(bulk, nb);
				nb = 0;
			}
		}
	}
	if (nb)
		page_pool_put_netmem_bulk(bulk, nb);
	pp_thread_unregister();
	return NULL;
}

static void test_cross_cpu_producers(void **state)
{
	struct page_pool_stats st;
	pthread_t t[PRODUCERS];
	struct pp_mem_stats ms;
	long i, twice = 0;
	unsigned int full;
	int k;

	(void)state;
	pp_mem_get_stats(&ms);
	xout = calloc(ms.total_pages, 1);
	xpool = make_sized(64);
	for (k = 0; k < PRODUCERS; k++) {
		assert_int_equal(ptr_ring_init(&xhand[k], 64, GFP_KERNEL), 0);
		pthread_create(&t[k], NULL, xproducer, (void *)(long)k);
	}
	local_bh_disable();
	for (i = 0; i < xpages; i++) {
		struct page *p = page_pool_alloc_pages(xpool, GFP_ATOMIC);

		assert_non_null(p);
		assert_true((size_t)(p - pp_mem_map.map) < ms.total_pages);
		if (__atomic_exchange_n(&xout[p - pp_mem_map.map], 1, __ATOMIC_RELAXED))
			twice++;
		for (full = 0; __ptr_ring_produce(&xhand[i % PRODUCERS], p); )
			pp_test_relax_or_yield(&full);
	}
	for (k = 0; k < PRODUCERS; k++)
		for (full = 0; __ptr_ring_produce(&xhand[k], (void *)1L); )
			pp_test_relax_or_yield(&full);
	local_bh_enable();
	for (k = 0; k < PRODUCERS; k++) {
		pthread_join(t[k], NULL);
		ptr_ring_cleanup(&xhand[k], NULL);
	}
	assert_int_equal(twice, 0);
	st = pool_stats(xpool);
	assert_int_equal(st.alloc_stats.fast + st.alloc_stats.slow + st.alloc_stats.refill,
			 xpages);
	print_message("%ld pages from %d CPUs: %llu refill, %llu slow, %llu ring, %llu ring_full\n",
		      xpages, PRODUCERS, st.alloc_stats.refill, st.alloc_stats.slow,
		      st.recycle_stats.ring, st.recycle_stats.ring_full);
	assert_true(st.recycle_stats.ring > 0 && st.recycle_stats.ring <= xpages);
	assert_true(waiting(xpool) <= 64);
	destroy_and_settle(xpool);
	assert_all_pages_home();
	free(xout);
}

/*
 * Destroy with pages in flight: the drain sends list and chain home; puts
 * after it (single and bulk, from another CPU, racing the retry) start a
 * new list, which the retry drains; the pool goes once the last is home.
 */
struct late {
	struct page_pool *pool;
	struct page **pages;
	int n;
};

static void *late_putter(void *arg)
{
	struct late *lp = arg;
	netmem_ref bulk[16];
	int i;

	assert_true(pp_thread_register(-1) > 0);
	for (i = 0; i < lp->n; i++) {
		if (i % 2) {
			page_pool_put_full_page(lp->pool, lp->pages[i], false);
		} else {
			bulk[0] = page_to_netmem(lp->pages[i]);
			page_pool_put_netmem_bulk(bulk, 1);
		}
		if (i % 20 == 0)
			usleep(3000);		/* across several retries */
	}
	pp_thread_unregister();
	return NULL;
}

static void test_destroy_in_flight_late_puts(void **state)
{
	static struct page *pages[320];
	struct page_pool *pool = make_sized(1024);
	u32 id = pp_page_pool_id(pool);
	struct pp_page_pool_info info;
	struct late lp;
	int ms;

	(void)state;
	alloc_all(pool, pages, 320);		/* 5 slow calls, the cache empty */
	put_all(pool, pages, 150);		/* waiting */
	/* One refill of 64: the batch design has a private chain now. */
	pages[0] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_int_equal(waiting(pool), 150 - 64);
	if (batch(pool))
		assert_int_equal(list_of(pool)->priv_count, 150 - 64);
	pp_page_pool_set_defer_times(RETRY_MS, 60 * 1000);
	page_pool_destroy(pool);
	assert_int_equal(pp_page_pool_get_info(id, &info), 0);
	/* The list, the chain and the cache went home. */
	assert_int_equal(info.inflight, 1 + 170);
	assert_int_equal(waiting(pool), 0);
	assert_int_equal(list_of(pool)->priv, 0);

	/* pages[0] (the refill's) and pages[150..319], late, from another
	 * CPU, while the retry runs. */
	pages[149] = pages[0];
	lp = (struct late){ pool, pages + 149, 171 };
	pp_test_run_thread(late_putter, &lp);
	for (ms = 0; ms < 5000 && pp_page_pool_get_info(id, &info) == 0; ms++)
		usleep(1000);
	assert_int_not_equal(pp_page_pool_get_info(id, &info), 0);	/* freed */
	assert_all_pages_home();
	pp_page_pool_set_defer_times(1000, 60 * 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound_single),
		cmocka_unit_test(test_bound_bulk),
		cmocka_unit_test(test_lifo),
		cmocka_unit_test(test_batch_private_refills),
		cmocka_unit_test(test_cross_cpu_producers),
		cmocka_unit_test(test_destroy_in_flight_late_puts),
	};
	static const int modes[] = { PP_RING_LLIST, PP_RING_LLIST_BATCH };
	int failed = 0, ran = 0;
	size_t m;

	if (getenv("PP_TEST_LLIST_PAGES"))
		xpages = atol(getenv("PP_TEST_LLIST_PAGES"));
	core_test_init(64, 1);
	pp_thread_register(0);
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		if (!pp_test_ring_mode(modes[m]))
			continue;
		failed += _cmocka_run_group_tests(pp_test_ring_name(modes[m]), tests,
						  ARRAY_SIZE(tests), NULL, NULL);
		ran += (int)ARRAY_SIZE(tests);
	}
	pp_test_ring_restore();
	return pp_test_exit_status(failed, ran);
}
