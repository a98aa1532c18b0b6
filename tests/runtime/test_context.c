/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Threads as CPUs and the softirq context: registration rules, lazy
 * registration, automatic release at thread exit, in_softirq() nesting,
 * unbalanced local_bh_enable().
 */
#include <errno.h>
#include <pthread.h>

#include <linux/bottom_half.h>
#include <linux/cpumask.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <pagepool/runtime.h>

#include "test_common.h"

static void *register_cpu3(void *arg)
{
	(void)arg;
	return (void *)(long)pp_thread_register(3);
}

static void test_register_rules(void **state)
{
	(void)state;
	assert_int_equal(pp_thread_register(-2), -EINVAL);
	assert_int_equal(pp_thread_register(NR_CPUS), -EINVAL);
	assert_int_equal(pp_thread_register(3), 3);
	assert_int_equal(smp_processor_id(), 3);
	assert_int_equal(pp_thread_register(3), 3);	/* same id: no-op */
	assert_int_equal(pp_thread_register(-1), 3);
	assert_int_equal(pp_thread_register(4), -EEXIST);
	assert_true(cpu_online(3));
	/* Another thread cannot take an owned id. */
	assert_int_equal((long)pp_test_run_thread(register_cpu3, NULL), -EBUSY);
	pp_thread_unregister();
	assert_false(cpu_online(3));
	/* Now it can; and the id is free again when that thread exits. */
	assert_int_equal((long)pp_test_run_thread(register_cpu3, NULL), 3);
	assert_false(cpu_online(3));
	assert_int_equal(pp_thread_register(3), 3);
	pp_thread_unregister();
}

static void *lazy_cpu(void *arg)
{
	int *out = arg;

	out[0] = smp_processor_id();
	out[1] = cpu_online(out[0]);
	return NULL;
}

static void test_lazy_registration(void **state)
{
	int out[2] = { -1, 0 };

	(void)state;
	assert_int_equal(pp_thread_register(0), 0);
	pp_test_run_thread(lazy_cpu, out);
	assert_true(out[0] > 0 && out[0] < NR_CPUS);	/* 0 is ours */
	assert_true(out[1]);
	assert_false(cpu_online(out[0]));		/* released at exit */
	pp_thread_unregister();
}

static void test_softirq_nesting(void **state)
{
	unsigned long warns;

	(void)state;
	assert_false(in_softirq());
	assert_true(in_task());
	local_bh_disable();
	assert_true(in_softirq());
	assert_false(in_serving_softirq());
	assert_true(in_task());
	local_bh_disable();
	assert_true(in_softirq());
	local_bh_enable();
	assert_true(in_softirq());	/* still one level deep */
	local_bh_enable();
	assert_false(in_softirq());
	assert_int_equal(preempt_count(), 0);

	/* An unbalanced enable is reported and changes nothing. */
	warns = pp_warn_count();
	local_bh_enable();
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal(preempt_count(), 0);
	assert_false(in_softirq());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register_rules),
		cmocka_unit_test(test_lazy_registration),
		cmocka_unit_test(test_softirq_nesting),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
