/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * NAPI: the list_owner transitions the page_pool napi_local rule depends on
 * (idle -1, scheduled = the scheduling CPU, back to -1 on completion, -1 and
 * SCHED when disabled), repolling, MISSED, polls run from the outermost
 * local_bh_enable(), and napi_assert_will_not_race().
 */
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/smp.h>
#include <pagepool/runtime.h>

#include "test_common.h"

struct poll_log {
	int calls;
	int owner_seen;		/* napi->list_owner during the last poll */
	bool serving_seen;	/* in_serving_softirq() during the last poll */
	int work;		/* what the poll reports */
	bool complete;		/* call napi_complete_done() when work < budget */
};

static struct poll_log plog;

static int test_poll(struct napi_struct *napi, int budget)
{
	plog.calls++;
	plog.owner_seen = READ_ONCE(napi->list_owner);
	plog.serving_seen = in_serving_softirq();
	if (plog.work < budget && plog.complete)
		napi_complete_done(napi, plog.work);
	return plog.work;
}

static struct net_device *dev;

static int setup(void **state)
{
	(void)state;
	assert_int_equal(pp_thread_register(2), 2);
	dev = alloc_etherdev(0);
	assert_non_null(dev);
	assert_int_equal(register_netdev(dev), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unregister_netdev(dev);
	free_netdev(dev);
	pp_thread_unregister();
	return 0;
}

static void test_list_owner_transitions(void **state)
{
	struct napi_struct napi;
	unsigned long warns __maybe_unused;

	(void)state;
	memset(&napi, 0, sizeof(napi));
	memset(&plog, 0, sizeof(plog));
	netif_napi_add(dev, &napi, test_poll);
	assert_int_equal(napi.list_owner, -1);
	assert_true(napi_is_scheduled(&napi));		/* added disabled */
	assert_true(napi.napi_id > NR_CPUS);

	napi_enable(&napi);
	assert_false(napi_is_scheduled(&napi));
	assert_int_equal(napi.list_owner, -1);

	assert_true(napi_schedule(&napi));
	assert_int_equal(napi.list_owner, 2);
	assert_true(pp_softirq_pending());

	/* Scheduled: tearing a pool down now would race. (A kernel core
	 * build takes napi_assert_will_not_race() from the kernel tree's
	 * net/core/dev.h, which only the core's files see.) */
#ifndef CONFIG_PAGEPOOL_KERNEL_CORE
	warns = pp_warn_count();
	napi_assert_will_not_race(&napi);
	assert_int_equal(pp_warn_count(), warns + 1);
#endif

	plog.work = 3;
	plog.complete = true;
	assert_int_equal(pp_net_rx_action(), 3);
	assert_int_equal(plog.calls, 1);
	assert_int_equal(plog.owner_seen, 2);		/* owner while polling */
	assert_true(plog.serving_seen);
	assert_int_equal(napi.list_owner, -1);		/* completed */
	assert_false(napi_is_scheduled(&napi));
	assert_false(pp_softirq_pending());

	napi_disable(&napi);
	assert_true(napi_is_scheduled(&napi));
	assert_int_equal(napi.list_owner, -1);
#ifndef CONFIG_PAGEPOOL_KERNEL_CORE
	warns = pp_warn_count();
	napi_assert_will_not_race(&napi);
	assert_int_equal(pp_warn_count(), warns);
#endif
	assert_false(napi_schedule(&napi));	/* disabled: not put on a list */
	assert_int_equal(napi.list_owner, -1);
	assert_false(pp_softirq_pending());
	netif_napi_del(&napi);
}

static void test_repoll_and_missed(void **state)
{
	struct napi_struct napi;

	(void)state;
	memset(&napi, 0, sizeof(napi));
	memset(&plog, 0, sizeof(plog));
	netif_napi_add_weight(dev, &napi, test_poll, 8);
	napi_enable(&napi);

	/* Whole weight used: stays scheduled on this CPU and polls again. */
	plog.work = 8;
	plog.complete = true;
	assert_true(napi_schedule(&napi));
	assert_int_equal(pp_net_rx_action(), 8);
	assert_int_equal(napi.list_owner, 2);
	assert_true(napi_is_scheduled(&napi));
	assert_true(pp_softirq_pending());
	plog.work = 1;
	assert_int_equal(pp_net_rx_action(), 1);
	assert_int_equal(plog.calls, 2);
	assert_int_equal(napi.list_owner, -1);

	/* Scheduled again while scheduled: MISSED makes completion re-queue. */
	assert_true(napi_schedule(&napi));
	assert_false(napi_schedule(&napi));
	plog.work = 0;
	pp_net_rx_action();
	assert_int_equal(plog.calls, 3);
	assert_true(napi_is_scheduled(&napi));		/* re-queued by MISSED */
	assert_int_equal(napi.list_owner, 2);
	pp_net_rx_action();
	assert_int_equal(plog.calls, 4);
	assert_false(napi_is_scheduled(&napi));

	napi_disable(&napi);
	netif_napi_del(&napi);
}

static void test_bh_enable_runs_polls(void **state)
{
	struct napi_struct napi;

	(void)state;
	memset(&napi, 0, sizeof(napi));
	memset(&plog, 0, sizeof(plog));
	netif_napi_add(dev, &napi, test_poll);
	napi_enable(&napi);
	plog.complete = true;

	local_bh_disable();
	napi_schedule(&napi);
	assert_int_equal(pp_net_rx_action(), 0);	/* not inside bh-disabled */
	assert_int_equal(plog.calls, 0);
	local_bh_disable();
	local_bh_enable();				/* inner: nothing runs */
	assert_int_equal(plog.calls, 0);
	local_bh_enable();				/* outermost: polls run */
	assert_int_equal(plog.calls, 1);
	assert_true(plog.serving_seen);
	assert_false(in_softirq());
	assert_int_equal(napi.list_owner, -1);

	/* napi_disable() of an instance scheduled on our own list polls it. */
	napi_schedule(&napi);
	napi_disable(&napi);
	assert_int_equal(plog.calls, 2);
	assert_int_equal(napi.list_owner, -1);
	netif_napi_del(&napi);
}

#ifndef CONFIG_PAGEPOOL_KERNEL_CORE
static void test_uninitialised_napi_never_races(void **state)
{
	struct napi_struct napi;
	unsigned long warns = pp_warn_count();

	(void)state;
	/* What tasklet_page_pool04_napi_aware does: a zeroed instance, never
	 * added, with list_owner set by hand. */
	memset(&napi, 0, sizeof(napi));
	napi.list_owner = smp_processor_id();
	napi_assert_will_not_race(&napi);
	assert_int_equal(pp_warn_count(), warns);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_owner_transitions),
		cmocka_unit_test(test_repoll_and_missed),
		cmocka_unit_test(test_bh_enable_runs_polls),
#ifndef CONFIG_PAGEPOOL_KERNEL_CORE	/* napi_assert_will_not_race() is the kernel tree's there */
		cmocka_unit_test(test_uninitialised_napi_never_races),
#endif
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, setup, teardown);
}
