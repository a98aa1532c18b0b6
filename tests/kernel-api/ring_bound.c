/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The ring's room when pages come back from several CPUs. The kernel's
 * ring (6.12.117: one ptr_ring of pool_size slots) takes a page whenever
 * a slot is free, whichever CPU returned pages before. pagepool's lanes
 * hold the same bound through ring credits that a lane takes in batches;
 * a CPU that returned a page and went quiet keeps its lane's unspent
 * credits, and this checks that all of them together cost less than a
 * 32nd of the ring - and never let the pool hold more than the kernel's.
 * Built as an outside user builds (run.sh).
 */
#include "kapi.h"

#include <pthread.h>
#include <unistd.h>

#define POOL_SIZE	1024
#define MAX_REMOTE	24

static struct page_pool *pool;
static struct page *remote_page[MAX_REMOTE];
static int returned, quit;

/* A CPU of its own: return one page, then stay (registered, quiet). */
static void *remote_cpu(void *arg)
{
	struct page *page = arg;

	if (pp_thread_register(-1) <= 0)
		abort();
	page_pool_put_full_page(pool, page, false);
	__atomic_add_fetch(&returned, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&quit, __ATOMIC_ACQUIRE))
		usleep(1000);
	pp_thread_unregister();
	return NULL;
}

static u64 ring_stat(void)
{
	return kapi_stats(pool).recycle_stats.ring;
}

/* @nremote CPUs each park one page; then the pool's CPU overflows its
 * cache into the ring: how many more pages does the ring take? */
static void overflow_after_remote_returns(int nremote)
{
	struct page_pool_params pp = { .pool_size = POOL_SIZE, .nid = NUMA_NO_NODE };
	static struct page *mine[POOL_SIZE + 256];
	pthread_t t[MAX_REMOTE];
	int kernel_room = POOL_SIZE - nremote, room, n = POOL_SIZE + 128, i;
	u64 before;

	pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(pool));
	for (i = 0; i < nremote; i++)
		remote_page[i] = page_pool_dev_alloc_pages(pool);
	for (i = 0; i < n; i++)
		assert_non_null(mine[i] = page_pool_dev_alloc_pages(pool));

	returned = quit = 0;
	for (i = 0; i < nremote; i++)
		assert_int_equal(pthread_create(&t[i], NULL, remote_cpu, remote_page[i]), 0);
	while (__atomic_load_n(&returned, __ATOMIC_ACQUIRE) < nremote)
		usleep(1000);

	/* Direct: the cache takes what fits, the rest goes to the ring. */
	before = ring_stat();
	for (i = 0; i < n; i++)
		page_pool_put_full_page(pool, mine[i], true);
	room = (int)(ring_stat() - before);
	print_message("%d quiet CPUs: the ring took %d more pages (the kernel's: %d)\n",
		      nremote, room, kernel_room);
	assert_true(room <= kernel_room);
	assert_true(room >= kernel_room - POOL_SIZE / 32);

	__atomic_store_n(&quit, 1, __ATOMIC_RELEASE);
	for (i = 0; i < nremote; i++)
		pthread_join(t[i], NULL);
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
}

static void test_one_quiet_cpu(void **state)
{
	(void)state;
	overflow_after_remote_returns(1);
}

static void test_four_quiet_cpus(void **state)
{
	(void)state;
	overflow_after_remote_returns(4);
}

static void test_sixteen_quiet_cpus(void **state)
{
	(void)state;
	overflow_after_remote_returns(16);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_one_quiet_cpu),
		EACH_RING(test_four_quiet_cpus),
		EACH_RING(test_sixteen_quiet_cpus),
	};

	kapi_setup();
	return pp_test_run_group_name("kernel-api/ring_bound", tests, NULL, NULL);
}
