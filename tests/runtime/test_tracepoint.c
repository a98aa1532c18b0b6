// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Tracepoints (<linux/tracepoint.h>): an events header written as the
 * kernel's compiles, its events count hits only while enabled, fill their
 * record with the header's own TP_fast_assign() and format its TP_printk()
 * line for a probe; event classes give one tracepoint per DEFINE_EVENT.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#define CREATE_TRACE_POINTS
#include "trace/events/pp_test.h"

struct seen {
	int calls;
	char name[32];
	char line[256];
	int a;
	unsigned long b;
};

static void probe(void *data, const char *name, const void *record, const char *line)
{
	struct seen *s = data;
	const struct trace_event_raw_pp_test_event *r = record;

	s->calls++;
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->line, sizeof(s->line), "%s", line);
	if (!strcmp(name, "pp_test_event")) {
		s->a = r->a;
		s->b = r->b;
	}
}

static void test_off_until_enabled(void **state)
{
	(void)state;
	assert_false(trace_pp_test_event_enabled());
	trace_pp_test_event(1, 2);
	assert_int_equal(pp_tracepoint_hits("pp_test_event"), 0);
	assert_int_equal(pp_tracepoint_enable("pp_test_event", NULL, NULL), 0);
	assert_true(trace_pp_test_event_enabled());
	trace_pp_test_event(1, 2);
	trace_pp_test_event(3, 4);
	assert_int_equal(pp_tracepoint_hits("pp_test_event"), 2);
	assert_int_equal(pp_tracepoint_disable("pp_test_event"), 0);
	trace_pp_test_event(5, 6);
	assert_int_equal(pp_tracepoint_hits("pp_test_event"), 2);
}

static void test_probe_sees_record_and_line(void **state)
{
	struct seen s = { 0 };

	(void)state;
	assert_int_equal(pp_tracepoint_enable("pp_test_event", probe, &s), 0);
	assert_int_equal(pp_tracepoint_hits("pp_test_event"), 0);	/* from 0 again */
	trace_pp_test_event(-7, 21);
	assert_int_equal(s.calls, 1);
	assert_string_equal(s.name, "pp_test_event");
	assert_int_equal(s.a, -7);
	assert_int_equal(s.b, 42);		/* the header's own assignment */
	assert_string_equal(s.line, "a=-7 b=42 tag=tst");
	pp_tracepoint_disable("pp_test_event");
}

static void test_class_events_are_separate(void **state)
{
	struct seen s = { 0 };

	(void)state;
	assert_int_equal(pp_tracepoint_enable("pp_test_two", probe, &s), 0);
	trace_pp_test_one(1);
	trace_pp_test_two(2);
	assert_int_equal(s.calls, 1);
	assert_string_equal(s.name, "pp_test_two");
	assert_string_equal(s.line, "v=2");
	assert_int_equal(pp_tracepoint_hits("pp_test_one"), 0);
	assert_int_equal(pp_tracepoint_hits("pp_test_two"), 1);
	pp_tracepoint_disable("pp_test_two");
}

static void test_bad_names(void **state)
{
	(void)state;
	assert_int_equal(pp_tracepoint_enable("no_such_event", NULL, NULL), -ENOENT);
	assert_int_equal(pp_tracepoint_disable("no_such_event"), -ENOENT);
	assert_int_equal(pp_tracepoint_hits("no_such_event"), -ENOENT);
	assert_int_equal(pp_tracepoint_enable(NULL, NULL, NULL), -EINVAL);
	assert_int_equal(pp_tracepoint_hits(NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off_until_enabled),
		cmocka_unit_test(test_probe_sees_record_and_line),
		cmocka_unit_test(test_class_events_are_separate),
		cmocka_unit_test(test_bad_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
