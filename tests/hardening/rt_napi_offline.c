/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A NAPI scheduled by a thread that then exits stayed on
 * that CPU's poll list, which nobody polls any more: "CPU 7 goes offline
 * with NAPI instances still scheduled on it", and napi_disable() hung. So
 * did a thread that exited with bottom halves disabled. In the kernel a
 * dead CPU's pending softirqs run and dev_cpu_dead() hands its poll list
 * to a live CPU. Now the offline path runs the pending softirqs, NAPI
 * polls included (no report: that is what local_bh_enable() would have
 * done); a region left bh-disabled is reported and ended first; a NAPI
 * still scheduled after that (it keeps using its whole weight) is handed
 * over, reported, and polled by its napi_disable().
 *
 * The polls recycle napi-locally from a DMA-mapping pool on the exiting
 * thread's CPU. The end state: napi_disable() returns (a watchdog fails
 * the program instead of hanging), every page home, no DMA-API violation.
 */
#include <pthread.h>
#include <unistd.h>

#include <linux/bottom_half.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>

#include "hard.h"

static struct device *dma_dev;
static struct net_device *netdev;
static struct napi_struct napi;
static struct page_pool *pool;
static unsigned long polls;
static bool repoll;	/* the poll uses its whole weight and never completes */

static int napi_poll(struct napi_struct *n, int budget)
{
	struct page *p = page_pool_dev_alloc_pages(pool);

	__atomic_fetch_add(&polls, 1, __ATOMIC_RELAXED);
	if (p)
		page_pool_put_full_page(pool, p, true);	/* napi-local */
	if (repoll)
		return budget;
	napi_complete_done(n, 1);
	return 1;
}

/* What never returns fails the program, with the reason, instead. */
static const char *waiting_for;	/* written before the watchdog starts */
static bool done_waiting;		/* atomic: the watchdog polls it */

static void *watchdog(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 200 && !__atomic_load_n(&done_waiting, __ATOMIC_ACQUIRE); i++)
		usleep(50 * 1000);
	if (!__atomic_load_n(&done_waiting, __ATOMIC_ACQUIRE)) {
		fprintf(stderr, "FAIL: %s did not return within 10 s (hang)\n", waiting_for);
		_exit(1);
	}
	return NULL;
}

static void must_return(const char *what, void (*fn)(void))
{
	pthread_t wd;

	waiting_for = what;
	__atomic_store_n(&done_waiting, false, __ATOMIC_RELEASE);
	assert_int_equal(pthread_create(&wd, NULL, watchdog, NULL), 0);
	fn();
	__atomic_store_n(&done_waiting, true, __ATOMIC_RELEASE);
	pthread_join(wd, NULL);
}

static void do_napi_disable(void)
{
	napi_disable(&napi);
}

static void do_synchronize_rcu(void)
{
	synchronize_rcu();
}

static void setup_napi(bool repolling)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP,
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
		.dev = dma_dev,
		.dma_dir = DMA_FROM_DEVICE,
		.napi = &napi,
	};

	memset(&napi, 0, sizeof(napi));
	netif_napi_add(netdev, &napi, napi_poll);
	napi_enable(&napi);
	pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(pool));
	polls = 0;
	repoll = repolling;
	hard_warns();
}

static void teardown_napi(void)
{
	netif_napi_del(&napi);
	page_pool_destroy(pool);
	pool = NULL;
	kapi_assert_all_pages_home();
	assert_int_equal(pp_dma_violations(dma_dev), 0);
	assert_int_equal(pp_nr_registered_cpus(), 1);	/* main's only */
}

static void *schedule_and_exit(void *arg)
{
	if (pp_thread_register(7) != 7)
		return (void *)1L;
	napi_schedule(&napi);
	(void)arg;
	return NULL;	/* CPU 7 goes offline here, its NAPI scheduled */
}

static void *schedule_bh_disabled_and_exit(void *arg)
{
	if (pp_thread_register(7) != 7)
		return (void *)1L;
	local_bh_disable();
	napi_schedule(&napi);
	(void)arg;
	return NULL;	/* ... and never local_bh_enable() */
}

static void run_thread(void *(*fn)(void *))
{
	pthread_t th;
	void *ret;

	assert_int_equal(pthread_create(&th, NULL, fn, NULL), 0);
	assert_int_equal(pthread_join(th, &ret), 0);
	assert_null(ret);
}

/* The reproducer: the poll runs as the thread exits; nothing to report. */
static void test_exit_with_napi_scheduled(void **state)
{
	(void)state;
	setup_napi(false);
	run_thread(schedule_and_exit);
	assert_int_equal(polls, 1);
	assert_int_equal(hard_warns(), 0);
	must_return("napi_disable()", do_napi_disable);
	/* A second thread on CPU 7 finds nothing left behind. */
	run_thread(schedule_and_exit);	/* disabled now: not scheduled */
	assert_int_equal(polls, 1);
	assert_int_equal(hard_warns(), 0);
	teardown_napi();
}

/* Exit with bottom halves disabled: one WARN, the region is ended, the
 * poll runs, RCU grace periods do not wait for the dead reader. */
static void test_exit_bh_disabled(void **state)
{
	(void)state;
	setup_napi(false);
	run_thread(schedule_bh_disabled_and_exit);
	assert_int_equal(hard_warns(), 1);
	assert_true(kapi_logged("with bottom halves disabled"));
	assert_int_equal(polls, 1);
	must_return("synchronize_rcu()", do_synchronize_rcu);
	must_return("napi_disable()", do_napi_disable);
	assert_int_equal(hard_warns(), 0);
	teardown_napi();
}

/* A NAPI still scheduled after the dying CPU's softirq rounds is handed
 * over (one WARN) and its napi_disable() polls it to completion. */
static void test_exit_repolling(void **state)
{
	unsigned long at_exit;

	(void)state;
	setup_napi(true);
	run_thread(schedule_and_exit);
	at_exit = polls;
	assert_true(at_exit >= 1);
	assert_int_equal(hard_warns(), 1);
	assert_true(kapi_logged("still scheduled after its softirqs ran"));
	must_return("napi_disable()", do_napi_disable);
	assert_true(polls > at_exit);	/* polled once more, by us, to complete */
	assert_int_equal(hard_warns(), 0);
	teardown_napi();
}

/* Handed over, then a thread taking a CPU id adopts it and polls it. */
static void *register_and_poll(void *arg)
{
	(void)arg;
	if (pp_thread_register(3) != 3)
		return (void *)1L;
	repoll = false;
	pp_do_softirq();
	return NULL;
}

static void test_orphan_adopted_by_new_cpu(void **state)
{
	unsigned long at_exit;

	(void)state;
	setup_napi(true);
	run_thread(schedule_and_exit);
	assert_int_equal(hard_warns(), 1);
	at_exit = polls;
	run_thread(register_and_poll);
	assert_int_equal(polls, at_exit + 1);	/* completed on CPU 3 */
	assert_int_equal(hard_warns(), 0);
	must_return("napi_disable()", do_napi_disable);
	teardown_napi();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_with_napi_scheduled),
		cmocka_unit_test(test_exit_bh_disabled),
		cmocka_unit_test(test_exit_repolling),
		cmocka_unit_test(test_orphan_adopted_by_new_cpu),
	};
	int rc;

	kapi_setup();
	dma_dev = pp_device_create("rt_napi_offline", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR(dma_dev))
		return 1;
	netdev = alloc_etherdev(0);
	if (!netdev || register_netdev(netdev))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unregister_netdev(netdev);
	free_netdev(netdev);
	pp_device_destroy(dma_dev);
	return rc;
}
