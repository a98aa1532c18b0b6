/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Which XDP designs run: the setters accept exactly the designs the build
 * has (-EOPNOTSUPP for the others, -EINVAL for what is no design), and
 * the environment (PAGEPOOL_XDP_RETURN, PAGEPOOL_XDP_TABLE) gives the
 * initial choice at the first memory-model registration - or, naming a
 * design the build lacks, one warning that names the build option, and
 * nothing else. meson runs this program with several environments
 * (tests/xdp/meson.build); what it expects follows from the build's
 * CONFIG_PAGEPOOL_XDP_* and the environment it finds.
 */
#include "xdp_test.h"

struct axis {
	const char *knob;
	const char *option;
	const char *names[2];
	bool built[2];
	int dflt;
	int (*get)(void);
};

static int get_table(void)
{
	/* The setter returns the previous table: set it back at once. */
	int t = pp_xdp_set_lookup_table(CONFIG_PAGEPOOL_XDP_TABLE_DEFAULT);

	assert_true(t >= 0);
	assert_true(pp_xdp_set_lookup_table(t) >= 0);
	return t;
}

static const struct axis axes[2] = {
	{
		"PAGEPOOL_XDP_RETURN", "xdp_return", { "direct", "lookup" },
		{ IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_DIRECT),
		  IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP) },
		CONFIG_PAGEPOOL_XDP_RETURN_DEFAULT, pp_xdp_get_return_mode,
	},
	{
		"PAGEPOOL_XDP_TABLE", "xdp_table", { "id", "rculfhash" },
		{ IS_ENABLED(CONFIG_PAGEPOOL_XDP_TABLE_ID),
		  IS_ENABLED(CONFIG_PAGEPOOL_XDP_TABLE_RCULFHASH) },
		CONFIG_PAGEPOOL_XDP_TABLE_DEFAULT, get_table,
	},
};

/* What the environment should have chosen on @a, and the warnings it
 * should have caused (0 or 1), by the knob's value. */
static int expected(const struct axis *a, int *warnings)
{
	const char *v = getenv(a->knob);
	int d;

	*warnings = 0;
	if (!v || !*v)
		return a->dflt;
	for (d = 0; d < 2; d++) {
		if (!strcmp(v, a->names[d])) {
			if (a->built[d])
				return d;
			*warnings = 1;
			return a->dflt;
		}
	}
	*warnings = 1;
	return a->dflt;
}

/* Warnings about @a's knob, and whether they name its build option. */
static int knob_warnings(const struct axis *a, bool *names_option)
{
	char needle[96], option[96];
	const char *v = getenv(a->knob);

	snprintf(needle, sizeof(needle), "%s=%s ignored", a->knob, v ? v : "");
	snprintf(option, sizeof(option), "-D%s=%s", a->option, v ? v : "");
	*names_option = pp_test_log_contains(option);
	return pp_test_log_count(needle);
}

/* First, before anything else registers: the knobs apply at the first
 * registration, warn once, and only once. */
static void test_knobs_at_first_registration(void **state)
{
	struct xdp_mem_info mem[2];
	int i, k;

	(void)state;
	for (k = 0; k < 2; k++) {
		bool named;

		assert_int_equal(knob_warnings(&axes[k], &named), 0);
	}
	for (i = 0; i < 2; i++) {
		memset(&mem[i], 0, sizeof(mem[i]));
		assert_int_equal(xdp_reg_mem_model(&mem[i], MEM_TYPE_PAGE_ORDER0, &mem[i]), 0);
	}
	for (k = 0; k < 2; k++) {
		int want_warnings, want = expected(&axes[k], &want_warnings);
		bool on = k ? ppxdp_table_lfht_on() : ppxdp_return_lookup_on();
		bool named;

		/* In force since the registration, before any getter ran. */
		assert_int_equal(on, want == 1);
		assert_int_equal(knob_warnings(&axes[k], &named), want_warnings);
		assert_int_equal(axes[k].get(), want);
		assert_int_equal(knob_warnings(&axes[k], &named), want_warnings);
		/* A design the build lacks: the warning names the option. */
		if (want_warnings && getenv(axes[k].knob) &&
		    (!strcmp(getenv(axes[k].knob), axes[k].names[0]) ||
		     !strcmp(getenv(axes[k].knob), axes[k].names[1])))
			assert_true(named);
	}
	for (i = 0; i < 2; i++)
		xdp_unreg_mem_model(&mem[i]);
	assert_int_equal(xt_mem_ids(), 0);
}

static void test_setters(void **state)
{
	int k, d;

	(void)state;
	assert_int_equal(pp_xdp_set_return_mode(-1), -EINVAL);
	assert_int_equal(pp_xdp_set_return_mode(2), -EINVAL);
	assert_int_equal(pp_xdp_set_lookup_table(-1), -EINVAL);
	assert_int_equal(pp_xdp_set_lookup_table(2), -EINVAL);
	for (k = 0; k < 2; k++) {
		int (*set)(int) = k ? pp_xdp_set_lookup_table : pp_xdp_set_return_mode;

		for (d = 0; d < 2; d++) {
			int before = axes[k].get();

			if (!axes[k].built[d]) {
				assert_int_equal(set(d), -EOPNOTSUPP);
				assert_int_equal(axes[k].get(), before);
				continue;
			}
			/* The previous design, then the new one is in force. */
			assert_int_equal(set(d), before);
			assert_int_equal(axes[k].get(), d);
		}
		assert_true(set(axes[k].dflt) >= 0);
		assert_int_equal(axes[k].get(), axes[k].dflt);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knobs_at_first_registration),
		cmocka_unit_test(test_setters),
	};

	xdp_test_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
