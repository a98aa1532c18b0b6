/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * PAGEPOOL_TELEMETRY=1 (set by meson for this test, with
 * PAGEPOOL_TELEMETRY_DIR): no server before the first page_pool_create(),
 * one after it, in that directory, answering; a second create starts
 * nothing new.
 * Context: the test thread is CPU 0. Layer: tests.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include <net/page_pool/helpers.h>
#include <pagepool.h>
#include <pagepool/telemetry.h>

#include "tlm_test.h"

static void test_env_start(void **state)
{
	struct page_pool_params pp = { .pool_size = 64, .nid = NUMA_NO_NODE };
	const char *dir = getenv("PAGEPOOL_TELEMETRY_DIR");
	struct page_pool *pool, *pool2;
	struct tlm_client c;
	char path[256], want[256];
	struct stat st;
	json_t *r;

	(void)state;
	assert_non_null(dir);
	assert_int_equal(pp_telemetry_socket_path(path, sizeof(path)), -ENOTCONN);
	pool = page_pool_create(&pp);
	assert_false(IS_ERR(pool));
	assert_true(pp_telemetry_socket_path(path, sizeof(path)) > 0);
	snprintf(want, sizeof(want), "%s/%d.sock", dir, (int)getpid());
	assert_string_equal(path, want);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);

	assert_int_equal(tlm_connect_path(&c, path), 0);
	r = tlm_call(&c, "{\"op\":\"page-pool-get\"}");
	assert_int_equal(json_array_size(json_object_get(r, "reply")), 1);
	assert_int_equal(tlm_int(json_array_get(json_object_get(r, "reply"), 0), "id"),
			 pp_page_pool_id(pool));
	json_decref(r);

	pool2 = page_pool_create(&pp);
	assert_false(IS_ERR(pool2));
	r = tlm_call(&c, "{\"op\":\"page-pool-get\"}");
	assert_int_equal(json_array_size(json_object_get(r, "reply")), 2);
	json_decref(r);
	tlm_close(&c);

	page_pool_destroy(pool2);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	pp_telemetry_stop();
	assert_int_equal(stat(path, &st), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_start),
	};
	struct pp_mem_config cfg = { .size = 16 << 20, .nr_nodes = 1 };

	pp_test_capture_log();
	if (pp_mem_init(&cfg))
		abort();
	pp_thread_register(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
