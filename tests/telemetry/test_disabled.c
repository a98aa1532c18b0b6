/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A library built without the telemetry server (meson -Dtelemetry=disabled
 * or no jansson): <pagepool/telemetry.h>'s calls exist and return
 * -EOPNOTSUPP; stop is harmless.
 * Context: the test thread. Layer: tests.
 */
#include <errno.h>

#include <pagepool/telemetry.h>

#include "test_common.h"

static void test_disabled(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(pp_telemetry_start(NULL), -EOPNOTSUPP);
	assert_int_equal(pp_telemetry_socket_path(buf, sizeof(buf)), -EOPNOTSUPP);
	pp_telemetry_stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disabled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
