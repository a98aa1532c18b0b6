/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The netlink view (page-pool-get / page-pool-stats-get): ids, ifindex,
 * napi-id, inflight and inflight-mem, detach-time, a pool re-parented to
 * lo when its device unregisters, invisible pools, dumps and JSON.
 */
#include <stdio.h>
#include <string.h>

#include "core_test.h"

static int count_cb(const struct pp_page_pool_info *info, void *arg)
{
	u32 *ids = arg;

	ids[ids[0] + 1] = info->id;
	ids[0]++;
	return 0;
}

static void test_info_and_orphaning(void **state)
{
	struct net_device *nd = alloc_etherdev(0);
	struct napi_struct napi;
	struct page_pool_params pp = {
		.order = 1, .pool_size = 64, .nid = NUMA_NO_NODE, .netdev = nd, .napi = &napi,
	};
	struct pp_page_pool_info info;
	struct page_pool *pool, *invisible;
	struct page *p;
	u32 ids[16] = { 0 };
	u32 id;

	(void)state;
	memset(&napi, 0, sizeof(napi));
	assert_int_equal(register_netdev(nd), 0);
	netif_napi_add(nd, &napi, NULL);
	pool = page_pool_create(&pp);
	invisible = make_pool(0, NULL, 0);
	assert_true(pp_page_pool_id(invisible) > pp_page_pool_id(pool));

	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_int_equal(pp_page_pool_get_info(pp_page_pool_id(pool), &info), 0);
	assert_true(info.has_ifindex);
	assert_int_equal(info.ifindex, nd->ifindex);
	assert_true(info.has_napi_id);
	assert_int_equal(info.napi_id, napi.napi_id);
	assert_int_equal(info.inflight, 1);
	assert_int_equal(info.inflight_mem, 2 * PAGE_SIZE);
	assert_false(info.has_detach_time);

	assert_int_equal(pp_page_pool_get_info(pp_page_pool_id(invisible), &info), 0);
	assert_false(info.has_ifindex);
	assert_false(info.has_napi_id);

	/* The device goes: its pool is shown on lo (ifindex 1). */
	netif_napi_del(&napi);
	unregister_netdev(nd);
	assert_int_equal(pp_page_pool_get_info(pp_page_pool_id(pool), &info), 0);
	assert_true(info.has_ifindex);
	assert_int_equal(info.ifindex, 1);
	free_netdev(nd);

	pp_page_pool_for_each(count_cb, ids);
	assert_int_equal(ids[0], 2);
	assert_true(ids[1] < ids[2]);		/* id order */

	id = pp_page_pool_id(pool);
	page_pool_destroy(pool);		/* detached, one page out */
	assert_int_equal(pp_page_pool_get_info(id, &info), 0);
	assert_true(info.has_detach_time);
	assert_true(info.detach_time > 0);
	page_pool_put_full_page(pool, p, false);
	pp_workqueue_run_all();
	assert_int_equal(pp_page_pool_get_info(id, &info), -ENOENT);
	page_pool_destroy(invisible);
	assert_all_pages_home();
}

static void test_json_dump(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct page_pool_stats st;
	char buf[4096], needle[64];
	struct page *p;
	FILE *f;

	(void)state;
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	f = fmemopen(buf, sizeof(buf), "w");
	pp_page_pool_dump_json(f);
	fclose(f);
	snprintf(needle, sizeof(needle), "{\"id\": %u, \"inflight\": 64", pp_page_pool_id(pool));
	assert_non_null(strstr(buf, needle));
	assert_non_null(strstr(buf, "\"alloc-slow\": 1"));
	assert_non_null(strstr(buf, "\"recycle-released-refcnt\": 0"));
	memset(&st, 0, sizeof(st));
	assert_int_equal(pp_page_pool_get_stats_by_id(pp_page_pool_id(pool), &st), 0);
	assert_int_equal(st.alloc_stats.slow, 1);
	assert_int_equal(pp_page_pool_get_stats_by_id(0, &st), -ENOENT);
	page_pool_put_full_page(pool, p, false);
	destroy_and_settle(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info_and_orphaning),
		cmocka_unit_test(test_json_dump),
	};

	core_test_init(16, 1);
	pp_thread_register(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
