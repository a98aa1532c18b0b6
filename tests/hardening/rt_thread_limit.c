/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The thread that used the library when every CPU id was taken
 * made it abort() (lazy registration past NR_CPUS). Now pp_thread_register()
 * says -ENOSPC, and the threads past the limit run on the shared CPU
 * (PP_CPU_SHARED, <pagepool/runtime.h>): one WARN for the process, and
 * everything keeps working - concurrently, and correctly: page_pool puts
 * from process context and with bottom halves disabled, napi-local
 * recycling in a NAPI the threads take turns polling, tasklets, the page
 * allocator, this_cpu_inc() on a per-CPU counter.
 *
 * Every id but the shared one is held by a parked thread first, so the
 * default build (256 ids) exercises the same path as a small one
 * (meson -Dnr_cpus=8); under TSan the members' races would be reported.
 * The end state: every page home, none handed out twice, no DMA-API
 * violation, the counter exact.
 */
#include <pthread.h>

#include <linux/bottom_half.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "hard.h"

#define MEMBERS		6	/* threads past the limit, at once */
#define ROUNDS		200
#define BATCH		8

/* Parked threads holding ids 1 .. PP_CPU_SHARED - 1 (0 is main's). */
static pthread_t holders[PP_NR_CPUS];
static int nr_holders;
static pthread_mutex_t park_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_cond = PTHREAD_COND_INITIALIZER;
static int parked, release_upto = PP_NR_CPUS;	/* holders with id >= this leave */

static void *holder_main(void *arg)
{
	int cpu = (int)(long)arg;

	if (pp_thread_register(cpu) != cpu)
		return (void *)1L;
	pthread_mutex_lock(&park_lock);
	parked++;
	pthread_cond_broadcast(&park_cond);
	while (cpu < release_upto)
		pthread_cond_wait(&park_cond, &park_lock);
	pthread_mutex_unlock(&park_lock);
	return NULL;	/* the id is given back at exit */
}

static void take_all_ids(void)
{
	pthread_attr_t attr;
	int cpu;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 << 10);
	release_upto = PP_NR_CPUS;
	parked = 0;
	nr_holders = 0;
	for (cpu = 1; cpu < PP_CPU_SHARED; cpu++)
		assert_int_equal(pthread_create(&holders[nr_holders++], &attr, holder_main,
						(void *)(long)cpu), 0);
	pthread_attr_destroy(&attr);
	pthread_mutex_lock(&park_lock);
	while (parked < nr_holders)
		pthread_cond_wait(&park_cond, &park_lock);
	pthread_mutex_unlock(&park_lock);
	assert_int_equal(pp_nr_registered_cpus(), PP_CPU_SHARED);
}

static void release_ids_from(int cpu)
{
	pthread_mutex_lock(&park_lock);
	release_upto = cpu;
	pthread_cond_broadcast(&park_cond);
	pthread_mutex_unlock(&park_lock);
}

static void give_back_all_ids(void)
{
	void *ret;
	int i;

	if (!nr_holders)
		return;
	release_ids_from(0);
	for (i = 0; i < nr_holders; i++) {
		assert_int_equal(pthread_join(holders[i], &ret), 0);
		assert_null(ret);
	}
	nr_holders = 0;
}

/* What the members share. */
static struct device *dma_dev;
static struct page_pool *pool;		/* consumer: main, on CPU 0 */
static struct page_pool *napi_pool;	/* consumer: its NAPI, polled by members */
static struct napi_struct napi;
static struct net_device *netdev;
static unsigned long *counter;		/* alloc_percpu */
static unsigned long tasklet_runs, polls, bad_context;
static struct tasklet_struct tasklets[MEMBERS];
static struct page *handed[MEMBERS][ROUNDS];	/* from main's pool to each member */

static int napi_poll(struct napi_struct *n, int budget)
{
	struct page *p;
	int i;

	/* The pool's consumer: napi-local recycling (direct), which only
	 * one context may do at a time. */
	for (i = 0; i < BATCH; i++) {
		p = page_pool_dev_alloc_pages(napi_pool);
		if (!p) {
			__atomic_fetch_add(&bad_context, 1, __ATOMIC_RELAXED);
			break;
		}
		hard_claim(p, n);
		hard_unclaim(p);
		page_pool_put_full_page(napi_pool, p, false);
	}
	__atomic_fetch_add(&polls, 1, __ATOMIC_RELAXED);
	napi_complete_done(n, 0);
	(void)budget;
	return 0;
}

static void tasklet_fn(struct tasklet_struct *t)
{
	(void)t;
	if (!in_serving_softirq() || smp_processor_id() != PP_CPU_SHARED)
		__atomic_fetch_add(&bad_context, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&tasklet_runs, 1, __ATOMIC_RELAXED);
}

static void *member_main(void *arg)
{
	long me = (long)arg;
	struct page *mine[BATCH];
	int r, i;

	/* Every id is taken: a clear error, not an abort. */
	if (pp_thread_register(-1) != -ENOSPC || pp_thread_register(PP_CPU_SHARED) != -EINVAL)
		return (void *)1L;
	/* Using the library anyway: the shared CPU. */
	if (smp_processor_id() != PP_CPU_SHARED)
		return (void *)2L;

	for (r = 0; r < ROUNDS; r++) {
		/* Main's pool: a put from process context (the lane fast path
		 * of a registered thread) and one with bottom halves off. */
		if (r & 1) {
			page_pool_put_full_page(pool, handed[me][r], false);
		} else {
			local_bh_disable();
			page_pool_put_full_page(pool, handed[me][r], false);
			local_bh_enable();
		}
		/* The page allocator, order 0, single and bulk. */
		for (i = 0; i < BATCH; i++) {
			mine[i] = alloc_page(GFP_KERNEL);
			if (!mine[i])
				return (void *)3L;
			hard_claim(mine[i], mine);
		}
		for (i = 0; i < BATCH; i++) {
			hard_unclaim(mine[i]);
			__free_page(mine[i]);
		}
		memset(mine, 0, sizeof(mine));
		if (alloc_pages_bulk_array_node(GFP_KERNEL, NUMA_NO_NODE, BATCH, mine) != BATCH)
			return (void *)4L;
		for (i = 0; i < BATCH; i++)
			hard_claim(mine[i], mine);
		for (i = 0; i < BATCH; i++) {
			hard_unclaim(mine[i]);
			put_page(mine[i]);
		}
		/* A per-CPU counter from process context and in softirq. */
		this_cpu_inc(*counter);
		/* NAPI: scheduled by whoever comes, polled by the member that
		 * holds the shared CPU when the region ends. */
		local_bh_disable();
		this_cpu_inc(*counter);
		napi_schedule(&napi);
		local_bh_enable();
		/* A tasklet from process context: runs at the next softirq
		 * point of the shared CPU. */
		tasklet_schedule(&tasklets[me]);
		local_bh_disable();
		local_bh_enable();
	}
	return NULL;
}

static bool first_run = true;

static void test_past_the_limit(void **state)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP,
		.pool_size = 1024,
		.nid = NUMA_NO_NODE,
		.dev = dma_dev,
		.dma_dir = DMA_FROM_DEVICE,
	};
	pthread_t th[MEMBERS];
	unsigned long sum = 0;
	void *ret;
	long m;
	int r, cpu;

	(void)state;
	memset(&napi, 0, sizeof(napi));
	netif_napi_add(netdev, &napi, napi_poll);
	napi_enable(&napi);
	pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(pool));
	pp.napi = &napi;
	pp.flags = 0;
	napi_pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(napi_pool));
	counter = alloc_percpu(unsigned long);
	assert_non_null(counter);
	for (m = 0; m < MEMBERS; m++) {
		tasklet_setup(&tasklets[m], tasklet_fn);
		for (r = 0; r < ROUNDS; r++) {
			handed[m][r] = page_pool_dev_alloc_pages(pool);
			assert_non_null(handed[m][r]);
		}
	}

	take_all_ids();
	hard_warns();
	for (m = 0; m < MEMBERS; m++)
		assert_int_equal(pthread_create(&th[m], NULL, member_main, (void *)m), 0);
	for (m = 0; m < MEMBERS; m++) {
		assert_int_equal(pthread_join(th[m], &ret), 0);
		assert_null(ret);
	}
	/* One WARN for the process: the first thread past the limit. */
	assert_int_equal(hard_warns(), first_run ? 1 : 0);
	first_run = false;
	assert_true(kapi_logged("threads use the library"));
	/* The last member gave the shared CPU back. */
	assert_int_equal(pp_nr_registered_cpus(), PP_CPU_SHARED);
	give_back_all_ids();

	assert_int_equal(__atomic_load_n(&hard_twice, __ATOMIC_RELAXED), 0);
	assert_int_equal(bad_context, 0);
	assert_int_equal(tasklet_runs, (unsigned long)MEMBERS * ROUNDS);
	assert_true(polls > 0);
	tasklet_runs = polls = 0;
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(counter, cpu));
	assert_int_equal(sum, 2UL * MEMBERS * ROUNDS);
	free_percpu(counter);

	/* Every page the members returned is in the pool once: the pool
	 * hands out MEMBERS * ROUNDS distinct pages again. */
	{
		static struct page *again[MEMBERS * ROUNDS];
		int i;

		for (i = 0; i < MEMBERS * ROUNDS; i++) {
			again[i] = page_pool_dev_alloc_pages(pool);
			assert_non_null(again[i]);
			hard_claim(again[i], again);
		}
		assert_int_equal(__atomic_load_n(&hard_twice, __ATOMIC_RELAXED), 0);
		for (i = 0; i < MEMBERS * ROUNDS; i++) {
			hard_unclaim(again[i]);
			page_pool_put_full_page(pool, again[i], false);
		}
	}
	for (m = 0; m < MEMBERS; m++)
		tasklet_kill(&tasklets[m]);
	page_pool_destroy(pool);
	/* The kernel's order: the NAPI stops before its pool goes. */
	napi_disable(&napi);
	netif_napi_del(&napi);
	page_pool_destroy(napi_pool);
	kapi_assert_all_pages_home();
	assert_int_equal(pp_dma_violations(NULL), 0);
	assert_int_equal(hard_warns(), 0);
}

/* A member moves to an id that became free, and off the shared CPU. */
static void *mover_main(void *arg)
{
	int cpu;

	(void)arg;
	if (smp_processor_id() != PP_CPU_SHARED)
		return (void *)1L;
	release_ids_from(PP_CPU_SHARED - 1);	/* the last holder leaves */
	do {
		cpu = pp_thread_register(-1);
	} while (cpu == -ENOSPC);
	if (cpu != PP_CPU_SHARED - 1 || smp_processor_id() != cpu)
		return (void *)2L;
	if (pp_nr_registered_cpus() != PP_CPU_SHARED)	/* shared CPU gone */
		return (void *)3L;
	return NULL;
}

static void test_member_moves_to_free_id(void **state)
{
	pthread_t th;
	void *ret;

	(void)state;
	take_all_ids();
	assert_int_equal(pthread_create(&th, NULL, mover_main, NULL), 0);
	assert_int_equal(pthread_join(th, &ret), 0);
	assert_null(ret);
	give_back_all_ids();
	assert_int_equal(hard_warns(), 0);	/* the WARN was once per process */
	kapi_assert_all_pages_home();
}

/* A failed assertion leaves the ids taken: give them back for the next. */
static int teardown(void **state)
{
	(void)state;
	give_back_all_ids();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		KAPI_ON_RING(test_past_the_limit, lanes, LANES, teardown),
		KAPI_ON_RING(test_past_the_limit, ptr_ring, PTR_RING, teardown),
		KAPI_ON_RING(test_past_the_limit, llist, LLIST, teardown),
		KAPI_ON_RING(test_past_the_limit, llist_batch, LLIST_BATCH, teardown),
		KAPI_ON_RING(test_past_the_limit, magazine, MAGAZINE, teardown),
		cmocka_unit_test_teardown(test_member_moves_to_free_id, teardown),
	};
	int rc;

	kapi_setup();
	dma_dev = pp_device_create("rt_limit", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR(dma_dev))
		return 1;
	netdev = alloc_etherdev(0);
	if (!netdev || register_netdev(netdev))
		return 1;
	rc = pp_test_run_group(tests, NULL, NULL);
	unregister_netdev(netdev);
	free_netdev(netdev);
	pp_device_destroy(dma_dev);
	return rc;
}
