/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The magazine design of the return ring (PP_RING_MAGAZINE,
 * src/core/ring_magazine.c), in any build that has it (a skip, exit 77,
 * in the others):
 *   - the bound: one returning CPU and no consumer find the ring full at
 *     the kernel's put (ring size + 1), single puts and a 6.12 bulk (one
 *     ring_full), for magazines that divide the ring and one that does
 *     not, and a magazine of one page;
 *   - a quiet CPU's partial magazine: the refill takes its pages when the
 *     depot is empty, and destroy completes (the pool freed) while the
 *     CPU that put them stays quiet;
 *   - cross-CPU producers (registered threads, single and bulk puts)
 *     against the consumer: every page home, none handed out twice;
 *   - destroy with pages in flight and late puts (partial and full
 *     magazines) after its drain: the retry takes them, the pool goes;
 *   - the publishing store is a put's last access to the pool, for a
 *     partial publish and for a hand-over: the test hook frees the pool
 *     right there, so any later access is a use after free (ASan).
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include <linux/processor.h>
#include <linux/ptr_ring.h>
#include <linux/rcupdate.h>

#include "core_test.h"
#include "core/ring.h"	/* ppcore_mag_parked(): a white-box count */

#define RETRY_MS	10

static bool wait_gone(u32 id, int ms)
{
	while (ms-- > 0) {
		pp_workqueue_run_all();
		if (!pool_alive(id))
			return true;
		usleep(1000);
	}
	return !pool_alive(id);
}

static struct page_pool *mag_pool(unsigned int pool_size)
{
	struct page_pool_params pp = { .pool_size = pool_size, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	assert_int_equal(page_pool_ring_design(pool), PP_RING_MAGAZINE);
	return pool;
}

/* A thread on CPU id @cpu runs @fn(@arg) and gives the id back. */
struct on_cpu {
	int cpu;
	void (*fn)(void *arg);
	void *arg;
};

static void *on_cpu_main(void *p)
{
	struct on_cpu *o = p;

	if (pp_thread_register(o->cpu) != o->cpu)
		return (void *)1L;
	o->fn(o->arg);
	pp_thread_unregister();
	return NULL;
}

static void run_on_cpu(int cpu, void (*fn)(void *), void *arg)
{
	struct on_cpu o = { cpu, fn, arg };

	assert_null(pp_test_run_thread(on_cpu_main, &o));
}

struct put_list {
	struct page_pool *pool;
	struct page **pages;
	int n;
};

static void put_list_fn(void *arg)
{
	struct put_list *l = arg;
	int i;

	for (i = 0; i < l->n; i++)	/* process context: the ring */
		page_pool_put_full_page(l->pool, l->pages[i], false);
}

/* --- the bound ------------------------------------------------------ */

static struct page *pages[2048];

static void bound_single(unsigned int pool_size, unsigned int ring_size)
{
	struct page_pool *pool = mag_pool(pool_size);
	unsigned int n = ring_size + 5, i;
	struct page_pool_stats st = { 0 };

	for (i = 0; i < n; i++)
		assert_non_null(pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));
	for (i = 0; i < n; i++)
		page_pool_put_full_page(pool, pages[i], false);
	page_pool_get_stats(pool, &st);
	assert_int_equal(st.recycle_stats.ring, ring_size);
	assert_int_equal(st.recycle_stats.ring_full, 5);
	assert_int_equal(ppcore_mag_parked(pool), ring_size);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_bound_single(void **state)
{
	(void)state;
	PP_TEST_NEEDS_RING(PP_RING_MAGAZINE);
	bound_single(0, 1024);		/* magazines of 64 */
	bound_single(100, 100);		/* of 6: 100 is no multiple */
	bound_single(1, 1);		/* of 1: every put hands over */
	pp_test_ring_restore();
}

/* 6.12's page_pool_put_page_bulk(): one round, one ring_full. */
static void test_bound_bulk(void **state)
{
	struct page_pool *pool;
	struct page_pool_stats st = { 0 };
	static void *data[300];
	int i;

	(void)state;
	PP_TEST_NEEDS_RING(PP_RING_MAGAZINE);
	pool = mag_pool(100);
	for (i = 0; i < 130; i++)
		assert_non_null(data[i] = page_address(page_pool_alloc_pages(pool, GFP_ATOMIC)));
	page_pool_put_page_bulk(pool, data, 130);
	page_pool_get_stats(pool, &st);
	assert_int_equal(st.recycle_stats.ring, 100);
	assert_int_equal(st.recycle_stats.ring_full, 1);
	assert_int_equal(ppcore_mag_parked(pool), 100);
	destroy_and_settle(pool);
	assert_all_pages_home();
	pp_test_ring_restore();
}

/* --- a quiet CPU's partial magazine --------------------------------- */

/* The refill finds the depot empty and takes the partial magazine's
 * pages: the next allocations are those pages, not new ones. */
static void test_quiet_cpu_refill(void **state)
{
	struct page_pool *pool;
	struct page_pool_stats st = { 0 };
	struct page *back[5];
	struct put_list l;
	int i, j, found;

	(void)state;
	PP_TEST_NEEDS_RING(PP_RING_MAGAZINE);
	pool = mag_pool(1024);
	/* One slow allocation fills the cache with 64: take them all. */
	for (i = 0; i < 64; i++)
		assert_non_null(pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));
	assert_int_equal(pool->alloc.count, 0);
	l = (struct put_list){ pool, pages, 5 };	/* fewer than a magazine */
	run_on_cpu(3, put_list_fn, &l);			/* then CPU 3 is quiet */
	assert_int_equal(ppcore_mag_parked(pool), 5);

	for (i = 0; i < 5; i++)
		assert_non_null(back[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));
	page_pool_get_stats(pool, &st);
	assert_int_equal(st.alloc_stats.refill, 1);
	assert_int_equal(st.alloc_stats.slow, 1);	/* only the first 64 */
	for (i = 0; i < 5; i++) {
		for (found = 0, j = 0; j < 5; j++)
			found += back[i] == pages[j];
		assert_int_equal(found, 1);
	}
	for (i = 0; i < 5; i++)
		page_pool_put_full_page(pool, back[i], true);
	for (i = 5; i < 64; i++)
		page_pool_put_full_page(pool, pages[i], true);
	destroy_and_settle(pool);
	assert_all_pages_home();
	pp_test_ring_restore();
}

/* Destroy completes while the CPU that filled a partial magazine stays
 * registered and never puts again. */
struct quiet {
	struct put_list l;
	int put, leave;
};

static void *quiet_main(void *arg)
{
	struct quiet *q = arg;

	if (pp_thread_register(4) != 4)
		return (void *)1L;
	put_list_fn(&q->l);
	__atomic_store_n(&q->put, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&q->leave, __ATOMIC_ACQUIRE))
		usleep(1000);
	pp_thread_unregister();
	return NULL;
}

static void test_quiet_cpu_destroy(void **state)
{
	struct quiet q = { 0 };
	struct page_pool *pool;
	pthread_t t;
	u32 id;
	int i;

	(void)state;
	PP_TEST_NEEDS_RING(PP_RING_MAGAZINE);
	pool = mag_pool(1024);
	id = pp_page_pool_id(pool);
	for (i = 0; i < 7; i++)
		assert_non_null(pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));
	q.l = (struct put_list){ pool, pages, 7 };
	assert_int_equal(pthread_create(&t, NULL, quiet_main, &q), 0);
	while (!__atomic_load_n(&q.put, __ATOMIC_ACQUIRE))
		usleep(1000);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	assert_false(pool_alive(id));	/* no retry needed: inflight was 0 */
	__atomic_store_n(&q.leave, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	assert_all_pages_home();
	pp_test_ring_restore();
}

/* --- cross-CPU producers -------------------------------------------- */

#define XC_RETURNERS	3
#define XC_PAGES	200000
#define XC_OWNER_SLOTS	(1 << 16)

static void *xc_owner[XC_OWNER_SLOTS];	/* who holds the page now */
static unsigned long xc_twice;
static struct ptr_ring xc_queue[XC_RETURNERS];
static struct page_pool *xc_pool;
static int xc_done;

static void xc_claim(struct page *p, void *who)
{
	void *none = NULL;

	if (!__atomic_compare_exchange_n(&xc_owner[page_to_pfn(p) % XC_OWNER_SLOTS], &none, who,
					 false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		__atomic_fetch_add(&xc_twice, 1, __ATOMIC_RELAXED);
}

static void xc_unclaim(struct page *p)
{
	__atomic_store_n(&xc_owner[page_to_pfn(p) % XC_OWNER_SLOTS], NULL, __ATOMIC_RELEASE);
}

/* Returner @i: single puts, or (odd ones) bulks of up to 8. */
static void *xc_returner(void *arg)
{
	long i = (long)arg, returned = 0;
	void *bulk[8];
	unsigned int idle = 0;
	int nb = 0;

	if (pp_thread_register(-1) <= 0)
		return (void *)-1L;
	for (;;) {
		struct page *p = __ptr_ring_consume(&xc_queue[i]);

		if (!p) {
			if (__atomic_load_n(&xc_done, __ATOMIC_ACQUIRE) &&
			    __ptr_ring_empty(&xc_queue[i]))
				break;
			if (nb) {
				page_pool_put_page_bulk(xc_pool, bulk, nb);
				nb = 0;
			}
			pp_test_relax_or_yield(&idle);
			continue;
		}
		idle = 0;
		xc_unclaim(p);
		returned++;
		if (!(i & 1)) {
			page_pool_put_full_page(xc_pool, p, false);
			continue;
		}
		bulk[nb++] = page_address(p);
		if (nb == 8) {
			page_pool_put_page_bulk(xc_pool, bulk, nb);
			nb = 0;
		}
	}
	if (nb)
		page_pool_put_page_bulk(xc_pool, bulk, nb);
	pp_thread_unregister();
	return (void *)returned;
}

static void test_cross_cpu_producers(void **state)
{
	struct page_pool_stats st = { 0 };
	pthread_t t[XC_RETURNERS];
	long i, returned = 0;
	unsigned int full;
	void *ret;

	(void)state;
	PP_TEST_NEEDS_RING(PP_RING_MAGAZINE);
	/* Magazines of 16: hand-overs, partial takes and a full ring all
	 * happen. */
	xc_pool = mag_pool(256);
	xc_done = 0;
	for (i = 0; i < XC_RETURNERS; i++) {
		assert_int_equal(ptr_ring_init(&xc_queue[i], 128, GFP_KERNEL), 0);
		assert_int_equal(pthread_create(&t[i], NULL, xc_returner, (void *)i), 0);
	}
	local_bh_disable();		/* the consumer, as a NAPI poll */
	for (i = 0; i < XC_PAGES; i++) {
		struct page *p = page_pool_alloc_pages(xc_pool, GFP_ATOMIC);

		assert_non_null(p);
		xc_claim(p, xc_queue);
		for (full = 0; __ptr_ring_produce(&xc_queue[i % XC_RETURNERS], p); )
			pp_test_relax_or_yield(&full);
	}
	local_bh_enable();
	__atomic_store_n(&xc_done, 1, __ATOMIC_RELEASE);
	for (i = 0; i < XC_RETURNERS; i++) {
		assert_int_equal(pthread_join(t[i], &ret), 0);
		assert_true((long)ret >= 0);
		returned += (long)ret;
	}
	assert_int_equal(returned, XC_PAGES);
	assert_int_equal(__atomic_load_n(&xc_twice, __ATOMIC_RELAXED), 0);
	page_pool_get_stats(xc_pool, &st);
	assert_true(st.recycle_stats.ring <= XC_PAGES);
	print_message("%d pages: ring %llu, ring_full %llu, refill %llu, slow %llu\n", XC_PAGES,
		      st.recycle_stats.ring, st.recycle_stats.ring_full, st.alloc_stats.refill,
		      st.alloc_stats.slow);
	assert_true(st.recycle_stats.ring > 0);
	assert_true(st.alloc_stats.refill > 0);
	destroy_and_settle(xc_pool);
	for (i = 0; i < XC_RETURNERS; i++)
		ptr_ring_cleanup(&xc_queue[i], NULL);
	assert_all_pages_home();
	pp_test_ring_restore();
}

/* --- destroy with pages in flight, late puts ------------------------- */

struct late {
	struct page_pool *pool;
	struct page **pages;
	int n, early, go, stage;
};

static void *late_main(void *arg)
{
	struct late *l = arg;
	int i;

	if (pp_thread_register(-1) <= 0)
		return (void *)1L;
	for (i = 0; i < l->early; i++)
		page_pool_put_full_page(l->pool, l->pages[i], false);
	__atomic_store_n(&l->stage, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&l->go, __ATOMIC_ACQUIRE))
		usleep(1000);
	for (; i < l->n; i++)		/* after destroy's drain */
		page_pool_put_full_page(l->pool, l->pages[i], false);
	pp_thread_unregister();
	return NULL;
}

static void test_destroy_late_puts(void **state)
{
	struct late l[2];
	struct page_pool *pool;
	pthread_t t[2];
	u32 id;
	int i, k;

	(void)state;
	PP_TEST_NEEDS_RING(PP_RING_MAGAZINE);
	pool = mag_pool(64);			/* magazines of 4 */
	id = pp_page_pool_id(pool);
	for (i = 0; i < 40; i++)
		assert_non_null(pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));
	for (k = 0; k < 2; k++) {
		/* 7 before destroy (a full magazine and a partial one), 13
		 * after (three full, a partial of one). */
		l[k] = (struct late){ pool, pages + 20 * k, 20, 7, 0, 0 };
		assert_int_equal(pthread_create(&t[k], NULL, late_main, &l[k]), 0);
	}
	for (k = 0; k < 2; k++)
		while (!__atomic_load_n(&l[k].stage, __ATOMIC_ACQUIRE))
			usleep(1000);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	assert_true(pool_alive(id));		/* 26 pages still out */
	for (k = 0; k < 2; k++)
		__atomic_store_n(&l[k].go, 1, __ATOMIC_RELEASE);
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	assert_true(wait_gone(id, 100 * RETRY_MS));
	assert_all_pages_home();
	pp_test_ring_restore();
}

/* --- the publishing store is the last access -------------------------- */

static struct publish_race PR;

static void put_one_fn(void *arg)
{
	struct publish_race *r = arg;

	page_pool_put_full_page(r->pool, r->page, false);	/* process context */
}

/*
 * CPU 5 puts a first page (its magazine made, credits taken), destroy
 * drains it; then CPU 5 puts the pool's last page: in a magazine of 64 a
 * partial publish on the fast path (MP1), in magazines of 1 a hand-over
 * (MP2). The hook frees the pool at that store.
 */
static void publish_races_free(unsigned int pool_size)
{
	struct page *first;

	memset(&PR, 0, sizeof(PR));
	PR.pool = mag_pool(pool_size);
	PR.id = pp_page_pool_id(PR.pool);
	first = page_pool_alloc_pages(PR.pool, GFP_ATOMIC);
	PR.page = page_pool_alloc_pages(PR.pool, GFP_ATOMIC);
	assert_non_null(first);
	assert_non_null(PR.page);
	run_on_cpu(5, put_one_fn, &(struct publish_race){ .pool = PR.pool, .page = first });
	page_pool_destroy(PR.pool);
	pp_workqueue_run_all();
	assert_true(pool_alive(PR.id));			/* waits for the page */

	assert_int_equal(pp_page_pool_set_test_hook(publish_hook, &PR), 0);
	run_on_cpu(5, put_one_fn, &PR);
	pp_page_pool_set_test_hook(NULL, NULL);
	assert_int_equal(PR.hooked, 1);
	assert_true(PR.gone_in_hook);	/* freed while the put was still inside */
	assert_all_pages_home();
}

static void test_publish_is_last_access(void **state)
{
	(void)state;
	PP_TEST_NEEDS_RING(PP_RING_MAGAZINE);
	publish_races_free(1024);
	publish_races_free(16);
	pp_test_ring_restore();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound_single),
		cmocka_unit_test(test_bound_bulk),
		cmocka_unit_test(test_quiet_cpu_refill),
		cmocka_unit_test(test_quiet_cpu_destroy),
		cmocka_unit_test(test_cross_cpu_producers),
		cmocka_unit_test(test_destroy_late_puts),
		cmocka_unit_test(test_publish_is_last_access),
	};

	core_test_init(32, 1);
	pp_thread_register(0);
	pp_page_pool_set_defer_times(RETRY_MS, 0);
	return pp_test_run_group(tests, NULL, NULL);
}
