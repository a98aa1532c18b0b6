/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool_recycle_direct() from a thread that is not the
 * pool's consumer while the consumer allocates corrupted the lockless
 * alloc cache (pages handed out twice, a count past 128). The kernel does
 * not check this; a CONFIG_DEBUG_NET build (meson -Ddebug_net) does: the
 * intruder is counted (concurrent_consumer), reported with one WARN per
 * pool, and sent to the ring instead of the cache. Release builds skip
 * these tests (the checks would cost the fast path an atomic).
 *
 * test_recycle_during_refill: deterministic - the consumer is held inside
 * its refill (the PP_HOOK_ALLOC_REFILL test hook) while another CPU
 * recycles "directly". test_race: both at full speed for a while; no page
 * is ever handed out twice.
 */
#include "hard.h"

#include <pthread.h>
#include <semaphore.h>

static struct page_pool *pool;
static struct page *intruder_page;
static sem_t in_refill, intruder_done;
static bool hold_refill;

static void hook(enum pp_page_pool_hook point, struct page_pool *p, void *arg)
{
	(void)arg;
	if (point != PP_HOOK_ALLOC_REFILL || p != pool ||
	    !__atomic_load_n(&hold_refill, __ATOMIC_ACQUIRE))
		return;
	__atomic_store_n(&hold_refill, false, __ATOMIC_RELEASE);
	sem_post(&in_refill);
	sem_wait(&intruder_done);
}

static void *intruder(void *arg)
{
	(void)arg;
	if (pp_thread_register(-1) <= 0)
		abort();
	sem_wait(&in_refill);
	local_bh_disable();
	page_pool_recycle_direct(pool, intruder_page);	/* the misuse */
	local_bh_enable();
	sem_post(&intruder_done);
	pp_thread_unregister();
	return NULL;
}

static struct page_pool *make_pool(void)
{
	struct page_pool_params pp = { .pool_size = 256, .nid = NUMA_NO_NODE };
	struct page_pool *p = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(p));
	return p;
}

static void test_recycle_during_refill(void **state)
{
	struct page_pool_stats s0, s1;
	struct pp_page_pool_misuse m0, m1;
	static struct page *got[512];
	pthread_t t;
	int i, j, n;

	(void)state;
	HARD_NEEDS_DEBUG_NET();
	pool = make_pool();
	sem_init(&in_refill, 0, 0);
	sem_init(&intruder_done, 0, 0);
	assert_int_equal(pp_page_pool_set_test_hook(hook, NULL), 0);

	/* The intruder's page; then empty the cache so the next
	 * allocation refills. */
	intruder_page = page_pool_dev_alloc_pages(pool);
	for (n = 0; n < 63; n++)
		assert_non_null(got[n] = page_pool_dev_alloc_pages(pool));
	s0 = kapi_stats(pool);
	pp_page_pool_get_misuse(&m0);
	hard_warns();

	assert_int_equal(pthread_create(&t, NULL, intruder, NULL), 0);
	__atomic_store_n(&hold_refill, true, __ATOMIC_RELEASE);
	local_bh_disable();
	assert_non_null(got[n++] = page_pool_dev_alloc_pages(pool));	/* refills */
	local_bh_enable();
	pthread_join(t, NULL);
	pp_page_pool_set_test_hook(NULL, NULL);

	s1 = kapi_stats(pool);
	pp_page_pool_get_misuse(&m1);
	assert_int_equal(m1.concurrent_consumer - m0.concurrent_consumer, 1);
	assert_int_equal(hard_warns(), 1);
	assert_true(kapi_logged("consumer side"));
	/* Not into the cache the consumer was filling: into the ring. */
	assert_int_equal(s1.recycle_stats.cached, s0.recycle_stats.cached);
	assert_int_equal(s1.recycle_stats.ring, s0.recycle_stats.ring + 1);

	/* Nothing handed out twice. */
	for (; n < 400; n++) {
		assert_non_null(got[n] = page_pool_dev_alloc_pages(pool));
		for (j = 0; j < n; j++)
			assert_ptr_not_equal(got[n], got[j]);
	}
	for (i = 0; i < n; i++)
		page_pool_put_full_page(pool, got[i], false);
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
	sem_destroy(&in_refill);
	sem_destroy(&intruder_done);
}

/* The race at full speed: the consumer allocates and recycles directly;
 * the intruder recycles directly the pages the consumer hands it. Every
 * page is held by at most one side (a page twice in the handoff ring, or
 * one the consumer gets while the intruder holds it, fails). */
#define HANDOFF	64
static struct page *handoff[HANDOFF];
static unsigned int h_head, h_tail, race_stop;

static void *race_intruder(void *arg)
{
	(void)arg;
	if (pp_thread_register(-1) <= 0)
		abort();
	while (!__atomic_load_n(&race_stop, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&h_tail, __ATOMIC_ACQUIRE) != h_head) {
		unsigned int t = __atomic_load_n(&h_tail, __ATOMIC_ACQUIRE);
		struct page *p;

		if (t == __atomic_load_n(&h_head, __ATOMIC_ACQUIRE))
			continue;
		p = handoff[t % HANDOFF];
		__atomic_store_n(&h_tail, t + 1, __ATOMIC_RELEASE);
		local_bh_disable();
		page_pool_recycle_direct(pool, p);
		local_bh_enable();
	}
	pp_thread_unregister();
	return NULL;
}

static void test_race(void **state)
{
	struct pp_page_pool_misuse m0, m1;
	pthread_t t;
	long i;

	(void)state;
	HARD_NEEDS_DEBUG_NET();
	pool = make_pool();
	hard_warns();
	pp_page_pool_get_misuse(&m0);
	h_head = h_tail = race_stop = 0;
	assert_int_equal(pthread_create(&t, NULL, race_intruder, NULL), 0);
	for (i = 0; i < 100000; i++) {
		struct page *p;

		local_bh_disable();
		p = page_pool_dev_alloc_pages(pool);
		if (p && (i & 1)) {
			page_pool_recycle_direct(pool, p);
		} else if (p) {
			/* A page the intruder holds must not come out again. */
			while (h_head - __atomic_load_n(&h_tail, __ATOMIC_ACQUIRE) >= HANDOFF)
				;
			handoff[h_head % HANDOFF] = p;
			__atomic_store_n(&h_head, h_head + 1, __ATOMIC_RELEASE);
		}
		local_bh_enable();
	}
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	pp_page_pool_get_misuse(&m1);
	assert_true(hard_warns() <= 1);	/* one per pool */
	print_message("concurrent consumer entries seen: %lu\n",
		      m1.concurrent_consumer - m0.concurrent_consumer);
	/* No page twice: no put of a page already back in the pool. */
	assert_int_equal(m1.ref_underflow, m0.ref_underflow);
	assert_int_equal(m1.not_pp_page, m0.not_pp_page);
	assert_true(kapi_stats(pool).recycle_stats.cached <= 100000);
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
	assert_int_equal(pp_dma_violations(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_recycle_during_refill),
		EACH_RING(test_race),
	};

	kapi_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
