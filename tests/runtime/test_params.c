/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * kstrto*() with the kernel's rules, and parse_args() over this program's
 * own module_param()s (found in its __param section, as the module runner
 * finds them): values of each type, '-'/'_' in names, quoting, "--", and
 * the kernel's messages for unknown names, bad and missing values.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <pagepool/runtime.h>

#include "test_common.h"

static int p_int = 5;
module_param(p_int, int, 0444);
static unsigned int p_uint;
module_param(p_uint, uint, 0444);
static long p_long;
module_param(p_long, long, 0444);
static unsigned long long p_ullong;
module_param(p_ullong, ullong, 0444);
static bool p_bool;
module_param(p_bool, bool, 0644);
static bool p_inv = true;
module_param_named(p_noinv, p_inv, invbool, 0444);
static char *p_str = "lit";
module_param(p_str, charp, 0444);
static char p_buf[8];
module_param_string(p_buf, p_buf, sizeof(p_buf), 0444);
static unsigned short p_arr[3];
static unsigned int p_arr_n;
module_param_array(p_arr, ushort, &p_arr_n, 0444);

extern const struct kernel_param __start___param[];
extern const struct kernel_param __stop___param[];

static char *parse(const char *args)
{
	static char buf[256];

	strcpy(buf, args);
	pp_test_log_clear();
	return parse_args("mod", buf, __start___param,
			  (unsigned int)(__stop___param - __start___param), -32768, 32767,
			  NULL, NULL);
}

static void test_kstrtox(void **state)
{
	unsigned long long ull;
	long long ll;
	unsigned int u;
	int i;
	u8 b;
	s8 sb;
	bool v;

	(void)state;
	assert_int_equal(kstrtoull("18446744073709551615", 0, &ull), 0);
	assert_true(ull == ULLONG_MAX);
	assert_int_equal(kstrtoull("18446744073709551616", 0, &ull), -ERANGE);
	assert_int_equal(kstrtoull("0x1F\n", 0, &ull), 0);
	assert_int_equal(ull, 31);
	assert_int_equal(kstrtoull("017", 0, &ull), 0);
	assert_int_equal(ull, 15);
	assert_int_equal(kstrtoull("1F", 16, &ull), 0);
	assert_int_equal(kstrtoull("0x", 0, &ull), -EINVAL);
	assert_int_equal(kstrtoull("+3", 0, &ull), 0);
	assert_int_equal(kstrtoull("-3", 0, &ull), -EINVAL);
	assert_int_equal(kstrtoull(" 3", 0, &ull), -EINVAL);
	assert_int_equal(kstrtoull("3\n\n", 0, &ull), -EINVAL);
	assert_int_equal(kstrtoull("", 0, &ull), -EINVAL);
	assert_int_equal(kstrtoll("-9223372036854775808", 0, &ll), 0);
	assert_true(ll == LLONG_MIN);
	assert_int_equal(kstrtoll("-9223372036854775809", 0, &ll), -ERANGE);
	assert_int_equal(kstrtoll("9223372036854775808", 0, &ll), -ERANGE);
	assert_int_equal(kstrtouint("4294967296", 0, &u), -ERANGE);
	assert_int_equal(kstrtoint("-2147483648", 0, &i), 0);
	assert_int_equal(i, INT_MIN);
	assert_int_equal(kstrtoint("2147483648", 0, &i), -ERANGE);
	assert_int_equal(kstrtou8("255", 0, &b), 0);
	assert_int_equal(kstrtou8("256", 0, &b), -ERANGE);
	assert_int_equal(kstrtos8("-129", 0, &sb), -ERANGE);
	assert_int_equal(kstrtobool("yes", &v), 0);
	assert_true(v);
	assert_int_equal(kstrtobool("off", &v), 0);
	assert_false(v);
	assert_int_equal(kstrtobool("o", &v), -EINVAL);
	assert_int_equal(kstrtobool("2", &v), -EINVAL);
	assert_int_equal(kstrtobool(NULL, &v), -EINVAL);
}

static void test_parse_good(void **state)
{
	(void)state;
	assert_null(parse("p_int=-7 p-uint=0x10 p_long=-3 p_ullong=077 p_bool p_noinv=1 "
			  "p_str=\"a b\" p_buf=short p_arr=1,2"));
	assert_int_equal(p_int, -7);
	assert_int_equal(p_uint, 16);
	assert_int_equal(p_long, -3);
	assert_int_equal(p_ullong, 63);
	assert_true(p_bool);
	assert_false(p_inv);
	assert_string_equal(p_str, "a b");
	assert_string_equal(p_buf, "short");
	assert_int_equal(p_arr_n, 2);
	assert_int_equal(p_arr[1], 2);
	/* Replacing a charp frees our copy; the literal default was never ours. */
	assert_null(parse("p_str=again"));
	assert_string_equal(p_str, "again");
	/* "--" ends the parameters. */
	assert_string_equal(parse("p_int=1 -- rest of it"), "rest of it");
	assert_int_equal(p_int, 1);
	destroy_params(__start___param, (unsigned int)(__stop___param - __start___param));
	assert_null(p_str);
}

static void test_parse_bad(void **state)
{
	char *err;

	(void)state;
	err = parse("nope=1");
	assert_int_equal(PTR_ERR(err), -ENOENT);
	assert_true(pp_test_log_contains("mod: Unknown parameter `nope'"));

	err = parse("p_int=abc");
	assert_int_equal(PTR_ERR(err), -EINVAL);
	assert_true(pp_test_log_contains("mod: `abc' invalid for parameter `p_int'"));

	err = parse("p_int");
	assert_int_equal(PTR_ERR(err), -EINVAL);
	assert_true(pp_test_log_contains("mod: `' invalid for parameter `p_int'"));

	err = parse("p_uint=4294967296");
	assert_int_equal(PTR_ERR(err), -ERANGE);
	assert_true(pp_test_log_contains("mod: `4294967296' invalid for parameter `p_uint'"));

	err = parse("p_noinv");	/* invbool needs a value, as in the kernel */
	assert_int_equal(PTR_ERR(err), -EINVAL);

	err = parse("p_buf=waytoolong");
	assert_int_equal(PTR_ERR(err), -ENOSPC);
	assert_true(pp_test_log_contains("p_buf: string doesn't fit in 7 chars."));
	assert_true(pp_test_log_contains("mod: `waytoolong' too large for parameter `p_buf'"));

	err = parse("p_arr=1,2,3,4");
	assert_int_equal(PTR_ERR(err), -EINVAL);
	assert_true(pp_test_log_contains("p_arr: can only take 3 arguments"));
	assert_true(pp_test_log_contains("mod: `1' invalid for parameter `p_arr'"));

	/* Parsing goes on after a failure; the last error is returned. */
	err = parse("p_int=x p_long=9 nope");
	assert_int_equal(PTR_ERR(err), -ENOENT);
	assert_int_equal(p_long, 9);
	assert_int_equal(pp_test_log_count("invalid for parameter"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kstrtox),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
