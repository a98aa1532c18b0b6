/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool-ctl's line formats (tools/pagepool-ctl/format.c) on the objects
 * the telemetry protocol defines: a holder group with and without a
 * handoff site and under and over 10 s, one with no symbol, notifications
 * with and without their optional attributes, truncation, and the pool id
 * argument's bounds. No server: the objects are built here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <cmocka.h>
#include <jansson.h>

#include "../../tools/pagepool-ctl/ctl.h"

static json_t *parse(const char *text)
{
	json_t *j = json_loads(text, 0, NULL);

	assert_non_null(j);
	return j;
}

static void test_holder(void **state)
{
	json_t *h = parse("{\"pages\":1389,\"take-site\":\"rx_fill+0x40 (sim_rx.c:212)\","
			  "\"take-ip\":\"0x401234\",\"cpu\":1,\"held-for-ms\":61000,"
			  "\"handoff-site\":\"xdp_do_redirect+0x12 (redirect.c:80)\"}");
	char buf[256];

	(void)state;
	assert_int_equal(ctl_fmt_holder(h, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1389 pages held since rx_fill+0x40 (sim_rx.c:212) on cpu 1, "
			    "for 61 s, last handed on at xdp_do_redirect+0x12 (redirect.c:80)");
	json_object_del(h, "handoff-site");
	json_object_set_new(h, "held-for-ms", json_integer(2345));
	assert_int_equal(ctl_fmt_holder(h, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1389 pages held since rx_fill+0x40 (sim_rx.c:212) on cpu 1, "
			    "for 2.3 s");
	/* No symbol for the site: the address. */
	json_object_del(h, "take-site");
	assert_int_equal(ctl_fmt_holder(h, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1389 pages held since 0x401234 on cpu 1, for 2.3 s");
	assert_int_equal(ctl_fmt_holder(h, buf, 10), -ERANGE);
	assert_string_equal(buf, "1389 page");
	json_decref(h);
	h = json_array();
	assert_int_equal(ctl_fmt_holder(h, buf, sizeof(buf)), -EINVAL);
	json_decref(h);
}

static void test_event(void **state)
{
	json_t *ev = parse("{\"name\":\"page-pool-change-ntf\",\"msg\":{\"id\":5,\"ifindex\":2,"
			   "\"napi-id\":8193,\"inflight\":1,\"inflight-mem\":4096,"
			   "\"detach-time\":1733000000}}");
	char buf[256];

	(void)state;
	assert_int_equal(ctl_fmt_event(ev, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "page-pool-change-ntf id 5 ifindex 2 napi-id 8193 inflight 1 "
			    "inflight-mem 4096 detach-time 1733000000");
	json_decref(ev);
	/* A pool without a netdev: no ifindex, no napi-id. */
	ev = parse("{\"name\":\"page-pool-add-ntf\",\"msg\":{\"id\":7,\"inflight\":0,"
		   "\"inflight-mem\":0}}");
	assert_int_equal(ctl_fmt_event(ev, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "page-pool-add-ntf id 7 inflight 0 inflight-mem 0");
	json_decref(ev);
	ev = parse("{\"seq\":1,\"reply\":{}}");
	assert_int_equal(ctl_fmt_event(ev, buf, sizeof(buf)), -EINVAL);
	json_decref(ev);
}

static void test_parse_pool(void **state)
{
	static const char *const bad[] = {
		"", "0", "-1", "+1", " 1", "1 ", "12x", "abc", "4294967296", "99999999999999999999",
	};
	long long id = 0;
	size_t i;

	(void)state;
	assert_int_equal(ctl_parse_pool("1", &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(ctl_parse_pool("4294967295", &id), 0);
	assert_int_equal(id, 4294967295LL);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ctl_parse_pool(bad[i], &id), -EINVAL);
	assert_int_equal(ctl_parse_pool(NULL, &id), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holder),
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_parse_pool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
