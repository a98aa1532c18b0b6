/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The kernel's page_pool_check (tools/testing/selftests/net/nl_netdev.py)
 * replayed on simnic, with simnic_pp_hold() for netdevsim's debugfs
 * pp_hold and pagepool's introspection API (pp_page_pool_for_each(),
 * the page-pool-get dump) for the netlink one: pools appear with the link,
 * go with it, and a pool whose page is held past link down stays, detached,
 * until the page comes back - also past device removal, when it is
 * orphaned to the loopback device's ifindex.
 */
#include "simnic_test.h"

struct pp_view {
	int ifindex;
	int pools, attached, detached;
	u64 inflight;
	int lo_pools;
};

static int pp_view_cb(const struct pp_page_pool_info *info, void *arg)
{
	struct pp_view *v = arg;

	if (info->has_ifindex && info->ifindex == 1)
		v->lo_pools++;
	if (!info->has_ifindex || info->ifindex != v->ifindex)
		return 0;
	v->pools++;
	v->inflight += info->inflight;
	if (info->has_detach_time)
		v->detached++;
	else
		v->attached++;
	return 0;
}

/* get_pp(): the pools of @ifindex. */
static struct pp_view get_pp(int ifindex)
{
	struct pp_view v = { .ifindex = ifindex };

	assert_int_equal(pp_page_pool_for_each(pp_view_cb, &v), 0);
	return v;
}

/* ksft_busy_wait(lambda: len(get_pp()) == n, deadline=2): the deferred
 * release retries (every 10 ms here, kapi_setup()); the kernel checks once
 * a second. */
static bool wait_pools(int ifindex, int n)
{
	u64 end = ktime_get_ns() + 2 * NSEC_PER_SEC;

	do {
		if (get_pp(ifindex).pools == n)
			return true;
		pp_workqueue_run_all();
	} while (ktime_get_ns() < end);
	return false;
}

static void test_page_pool_check(void **state)
{
	struct simnic_config cfg = { .dma = SIMNIC_DMA_IOMMU, .rx_mem = SIMNIC_RX_PAGE_POOL,
				     .rx_ring_size = 64 };
	unsigned long viol = pp_dma_violations(NULL);
	struct simnic *nic = simnic_create(&cfg);
	struct pp_view v;
	int ifindex, lo_before;

	(void)state;
	assert_false(IS_ERR(nic));
	ifindex = simnic_netdev(nic)->ifindex;
	assert_true(ifindex > 1);

	/* No page pools when down */
	assert_int_equal(simnic_stop(nic), -ENETDOWN);
	assert_int_equal(get_pp(ifindex).pools, 0);

	/* Up, empty page pool appears (the ring's buffers are posted, but
	 * simnic counts them: inflight is the pages out of the pool, and
	 * the kernel's netdevsim posts none) */
	assert_int_equal(simnic_open(nic), 0);
	v = get_pp(ifindex);
	assert_int_equal(v.pools, 1);
	assert_int_equal(v.inflight, 64);	/* the posted RX buffers */

	/* Down, it disappears, again */
	assert_int_equal(simnic_stop(nic), 0);
	assert_int_equal(get_pp(ifindex).pools, 0);

	/* Up, allocate a page */
	assert_int_equal(simnic_open(nic), 0);
	assert_int_equal(simnic_pp_hold(nic, true), 0);
	assert_int_equal(simnic_pp_hold(nic, true), -EBUSY);
	v = get_pp(ifindex);
	assert_true(v.inflight >= 65);

	/* Now let's leak a page */
	assert_int_equal(simnic_stop(nic), 0);
	v = get_pp(ifindex);
	assert_int_equal(v.pools, 1);
	assert_int_equal(v.inflight, 1);
	assert_int_equal(v.attached, 0);

	/* New pp can get created, and we'll have two */
	assert_int_equal(simnic_open(nic), 0);
	v = get_pp(ifindex);
	assert_int_equal(v.attached, 1);
	assert_int_equal(v.detached, 1);

	/* Free the old page and the old pp is gone */
	assert_int_equal(simnic_pp_hold(nic, false), 0);
	assert_int_equal(simnic_pp_hold(nic, false), -ENOENT);
	assert_true(wait_pools(ifindex, 1));

	/* And down... */
	assert_int_equal(simnic_stop(nic), 0);
	assert_int_equal(get_pp(ifindex).pools, 0);
	assert_int_equal(simnic_pp_hold(nic, true), -ENETDOWN);

	/* Last, leave the page hanging for destroy: the orphaning path.
	 * The pool outlives the device, reported on lo (ifindex 1). */
	assert_int_equal(simnic_open(nic), 0);
	assert_int_equal(simnic_pp_hold(nic, true), 0);
	lo_before = get_pp(1).lo_pools;
	simnic_destroy(nic);
	pp_workqueue_run_all();
	v = get_pp(ifindex);
	assert_int_equal(v.pools, 0);
	v = get_pp(1);
	assert_int_equal(v.lo_pools, lo_before + 1);
	assert_int_equal(v.detached, 1);
	assert_int_equal(v.inflight, 1);
	/* The held page comes back after the device went: the pool goes. */
	assert_int_equal(simnic_pp_hold(nic, false), 0);
	assert_true(wait_pools(1, lo_before));
	st_assert_clean(viol);
}

/* The same sequence's hold across link down and up with traffic in
 * between: the held page is not disturbed by the pool's recycling. */
static void test_hold_with_traffic(void **state)
{
	struct simnic_config cfg = { .dma = SIMNIC_DMA_IOMMU, .rx_mem = SIMNIC_RX_PAGE_POOL,
				     .page_cache = true, .rx_ring_size = 128 };
	unsigned long viol = pp_dma_violations(NULL);
	struct simnic *nic = simnic_create(&cfg);
	int i;

	(void)state;
	assert_false(IS_ERR(nic));
	assert_int_equal(simnic_open(nic), 0);
	assert_int_equal(simnic_pp_hold(nic, true), 0);
	for (i = 0; i < 20; i++) {
		simnic_wire_rx(nic, 0, 64);
		simnic_service();
	}
	assert_int_equal(simnic_stop(nic), 0);
	assert_int_equal(simnic_open(nic), 0);
	for (i = 0; i < 20; i++) {
		simnic_wire_rx(nic, 0, 64);
		simnic_service();
	}
	assert_int_equal(simnic_quiesce(&nic, 1), 0);
	st_assert_accounting(nic, NULL);
	assert_int_equal(simnic_pp_hold(nic, false), 0);
	simnic_destroy(nic);
	st_assert_clean(viol);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_pool_check),
		cmocka_unit_test(test_hold_with_traffic),
	};

	kapi_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
