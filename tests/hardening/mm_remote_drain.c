/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Free memory that could not be allocated. Pages released by
 * the deferred-release worker sat on that thread's per-CPU list; with a
 * 4 MiB arena CPU 0 got 693 of 1024 pages while the stats said 1024 free.
 * Now the worker keeps none (it runs on the shared CPU), and an allocation
 * that would fail first drains every other CPU's lists (the kernel's
 * drain_all_pages()), safely against an owner that uses them meanwhile.
 *
 * Each test ends with every page home, none handed out twice, no DMA-API
 * violation, no WARN, and no allocation failure but the ones expected.
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "hard.h"

/* The smallest arena: one maximal block, 1 << MAX_PAGE_ORDER pages (4 MiB
 * at 4 KiB pages, 32 MiB at 16 KiB, 512 MiB at 64 KiB). */
#define ARENA_PAGES	(1UL << MAX_PAGE_ORDER)
#define ARENA		(PAGE_SIZE << MAX_PAGE_ORDER)

static unsigned long total_pages(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	return st.total_pages;
}

static unsigned long alloc_failures(void)
{
	struct pp_mem_counters c;

	pp_mem_get_counters(&c);
	return c.alloc_failed;
}

static struct page *all[ARENA_PAGES];

/* CPU 0 takes every page of the arena, single pages and a bulk. */
static void assert_cpu0_gets_everything(void)
{
	unsigned long n = 0, total = total_pages(), failed = alloc_failures(), got;
	unsigned long i;

	assert_true(total <= ARRAY_SIZE(all));
	/* A bulk first: the bulk path drains the others too. */
	memset(all, 0, sizeof(all));
	got = alloc_pages_bulk_array_node(GFP_KERNEL, NUMA_NO_NODE, 16, all);
	assert_int_equal(got, 16);
	for (n = 16; n < total; n++) {
		all[n] = alloc_page(GFP_KERNEL);
		if (!all[n])
			break;
	}
	assert_int_equal(n, total);
	assert_int_equal(alloc_failures(), failed);
	/* Now the arena is empty indeed. */
	assert_null(alloc_page(GFP_KERNEL | __GFP_NOWARN));
	for (i = 0; i < n; i++)
		hard_claim(all[i], all);
	assert_int_equal(__atomic_load_n(&hard_twice, __ATOMIC_RELAXED), 0);
	for (i = 0; i < n; i++) {
		hard_unclaim(all[i]);
		__free_page(all[i]);
		all[i] = NULL;
	}
}

static void assert_end_state(unsigned long failures_before, unsigned long expected)
{
	kapi_assert_all_pages_home();
	assert_int_equal(alloc_failures() - failures_before, expected);
	assert_int_equal(pp_dma_violations(NULL), 0);
	assert_int_equal(hard_warns(), 0);
}

/* Every CPU's list but ours (CPU 0) empty, within a second. */
static bool wait_others_lists_empty(void)
{
	int cpu, tries;
	unsigned long n;

	for (tries = 0; tries < 1000; tries++) {
		n = 0;
		for (cpu = 1; cpu < PP_NR_CPUS; cpu++)
			n += pp_mem_pcp_count(cpu, 0);
		if (!n)
			return true;
		usleep(1000);
	}
	print_message("%lu pages still on other CPUs' lists\n", n);
	return false;
}

/* The finding as reported: the deferred release frees a destroyed pool's
 * returned pages on the workqueue thread. */
static void test_worker_strands_nothing(void **state)
{
	struct page_pool_params pp = { .pool_size = 1024, .nid = NUMA_NO_NODE };
	unsigned long failed = alloc_failures(), n, i;
	struct page_pool *pool;
	struct pp_mem_stats st;
	static struct page *held[ARENA_PAGES];

	(void)state;
	hard_warns();
	pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(pool));
	n = total_pages() * 3 / 4;
	assert_true(n <= ARRAY_SIZE(held));
	for (i = 0; i < n; i++)
		assert_non_null(held[i] = page_pool_dev_alloc_pages(pool));
	/* Destroyed with pages in flight: they come back afterwards and the
	 * deferred release (the worker) gives them to the page allocator. */
	page_pool_destroy(pool);
	for (i = 0; i < n; i++)
		page_pool_put_full_page(pool, held[i], false);
	pp_workqueue_run_all();
	pp_mem_get_stats(&st);
	assert_int_equal(st.free_pages, st.total_pages);
	assert_int_equal(st.pp_pages, 0);
	/* The worker left nothing on a per-CPU list: it runs on the shared
	 * CPU, which has none (a worker with an id gave them back when it
	 * went idle, maybe after run_all returned: wait a bit). */
	assert_true(wait_others_lists_empty());
	/* Free, so allocatable: by CPU 0, all of them. */
	assert_cpu0_gets_everything();
	assert_end_state(failed, 1);	/* the one NULL that proved it empty */
}

/* A registered thread that freed pages and then waits in its own code
 * (not in the library): only a remote drain can give its pages back. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int phase;

static void *idler_main(void *arg)
{
	struct page *p[200];
	long err = 0;
	int i, n;

	(void)arg;
	if (pp_thread_register(5) != 5)
		err = 1;
	for (n = 0; n < 200 && !err; n++)
		if (!(p[n] = alloc_page(GFP_KERNEL)))
			err = 2;
	for (i = 0; i < n; i++)
		__free_page(p[i]);
	if (!err && pp_mem_pcp_count(5, 0) == 0)	/* they are on its list */
		err = 3;
	pthread_mutex_lock(&lock);
	phase = 1;
	pthread_cond_broadcast(&cond);
	while (phase != 2)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return (void *)err;
}

static void test_idle_thread_lists_drained(void **state)
{
	unsigned long failed = alloc_failures();
	pthread_t th;
	void *ret;

	(void)state;
	hard_warns();
	phase = 0;
	assert_int_equal(pthread_create(&th, NULL, idler_main, NULL), 0);
	pthread_mutex_lock(&lock);
	while (phase != 1)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);

	assert_true(pp_mem_pcp_count(5, 0) > 0);
	assert_cpu0_gets_everything();
	/* Its list was drained for us. */
	assert_true(pp_mem_pcp_count(5, 0) < 200);

	pthread_mutex_lock(&lock);
	phase = 2;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	assert_int_equal(pthread_join(th, &ret), 0);
	assert_null(ret);
	assert_end_state(failed, 1);
}

/* Remote drains while the owner allocates and frees as fast as it can:
 * under TSan, a race between the two on the lists would be reported. */
#define BUSY_ROUNDS	40
static bool busy_stop;
static unsigned long busy_ops;

static void *busy_main(void *arg)
{
	struct page *p[8];
	int i, n;

	(void)arg;
	if (pp_thread_register(6) != 6)
		return (void *)1L;
	while (!__atomic_load_n(&busy_stop, __ATOMIC_ACQUIRE)) {
		for (n = 0; n < 8; n++) {
			p[n] = alloc_page(GFP_KERNEL | __GFP_NOWARN);
			if (!p[n])
				break;
			hard_claim(p[n], p);
		}
		for (i = 0; i < n; i++) {
			hard_unclaim(p[i]);
			__free_page(p[i]);
		}
		__atomic_fetch_add(&busy_ops, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_drain_races_owner(void **state)
{
	unsigned long failed = alloc_failures(), total = total_pages(), n, i, r;
	unsigned long busy_failed;
	pthread_t th;
	void *ret;

	(void)state;
	hard_warns();
	busy_stop = false;
	busy_ops = 0;
	assert_int_equal(pthread_create(&th, NULL, busy_main, NULL), 0);
	while (!__atomic_load_n(&busy_ops, __ATOMIC_RELAXED))
		sched_yield();
	for (r = 0; r < BUSY_ROUNDS; r++) {
		/* Take everything we can get: each failure drains the busy
		 * thread's lists while it uses them. */
		for (n = 0; n < total; n++) {
			all[n] = alloc_page(GFP_KERNEL | __GFP_NOWARN);
			if (!all[n])
				break;
			hard_claim(all[n], all);
		}
		/* All but what the busy thread holds: at most 8 pages and
		 * a refill it took between our drain and our retry. */
		assert_true(n + 8 + 2 * 64 >= total);
		for (i = 0; i < n; i++) {
			hard_unclaim(all[i]);
			__free_page(all[i]);
		}
	}
	__atomic_store_n(&busy_stop, true, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(th, &ret), 0);
	assert_null(ret);
	assert_true(busy_ops > 0);
	assert_int_equal(__atomic_load_n(&hard_twice, __ATOMIC_RELAXED), 0);
	/* The end state. Allocations failed (NOWARN) only while the other
	 * thread held pages: never more than one per round and its loops. */
	busy_failed = alloc_failures() - failed;
	kapi_assert_all_pages_home();
	assert_true(busy_failed <= BUSY_ROUNDS + busy_ops);
	assert_int_equal(pp_dma_violations(NULL), 0);
	assert_int_equal(hard_warns(), 0);
}

/* A failed assertion leaves pages taken and the idler waiting: undo, so
 * the next test starts from a whole arena. */
static int teardown(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(all); i++)
		if (all[i]) {
			hard_unclaim(all[i]);
			__free_page(all[i]);
			all[i] = NULL;
		}
	pthread_mutex_lock(&lock);
	phase = 2;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	__atomic_store_n(&busy_stop, true, __ATOMIC_RELEASE);
	return 0;
}

int main(void)
{
	const struct pp_mem_config cfg = { .size = ARENA };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_worker_strands_nothing, teardown),
		cmocka_unit_test_teardown(test_idle_thread_lists_drained, teardown),
		cmocka_unit_test_teardown(test_drain_races_owner, teardown),
	};

	if (pp_mem_init(&cfg))
		return 1;
	kapi_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
