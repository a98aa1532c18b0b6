/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Tasks and kthreads: current for a plain thread; kthread_create() makes a
 * stopped kthread (kthread_stop() before waking it: -EINTR, function never
 * runs); kthread_run() runs it as a CPU of its own with its name and
 * PF_KTHREAD; kthread_create_on_cpu() binds it (and refuses an owned id);
 * set_cpus_allowed_ptr() moves the calling kthread; schedule() sleeps
 * until wake_up_process(); schedule_timeout() returns 0 when the time ran
 * out; cpumask operations and cpu_online_mask.
 */
#include <string.h>
#include <unistd.h>

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/gfp_types.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <pagepool/runtime.h>

#include "test_common.h"

static int setup(void **state)
{
	(void)state;
	assert_int_equal(pp_thread_register(2), 2);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pp_thread_unregister();
	return 0;
}

static void test_current_plain_thread(void **state)
{
	(void)state;
	assert_non_null(current);
	assert_ptr_equal(current, current);
	assert_int_equal(current->pid, gettid());
	assert_int_equal(current->tgid, getpid());
	assert_false(current->flags & PF_KTHREAD);
	assert_true(task_is_running(current));
	assert_false(kthread_should_stop());
	assert_int_equal(signal_pending(current), 0);
}

struct kt {
	struct completion started;
	atomic_t ran;
	int cpu;
	char comm[TASK_COMM_LEN];
	unsigned int flags;
	pid_t pid;
	int move_to;		/* >= 0: set_cpus_allowed_ptr() there first */
	int move_ret;
};

static int kt_fn(void *data)
{
	struct kt *k = data;

	if (k->move_to >= 0)
		k->move_ret = set_cpus_allowed_ptr(current, cpumask_of(k->move_to));
	k->cpu = smp_processor_id();
	memcpy(k->comm, current->comm, sizeof(k->comm));
	k->flags = current->flags;
	k->pid = current->pid;
	atomic_inc(&k->ran);
	complete(&k->started);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 7;
}

static void kt_init(struct kt *k)
{
	memset(k, 0, sizeof(*k));
	init_completion(&k->started);
	k->cpu = -1;
	k->move_to = -1;
}

static void test_stop_before_wake(void **state)
{
	struct task_struct *p;
	struct kt k;

	(void)state;
	kt_init(&k);
	p = kthread_create(kt_fn, &k, "never%d", 1);
	assert_false(IS_ERR(p));
	assert_string_equal(p->comm, "never1");
	assert_true(p->pid > 0);
	assert_false(task_is_running(p));	/* created stopped */
	assert_int_equal(kthread_stop(p), -EINTR);
	assert_int_equal(atomic_read(&k.ran), 0);
}

static void test_run_and_stop(void **state)
{
	struct task_struct *p;
	struct kt k;

	(void)state;
	kt_init(&k);
	p = kthread_run(kt_fn, &k, "a-long-kthread-name-%d", 12345);
	assert_false(IS_ERR(p));
	wait_for_completion(&k.started);
	assert_int_equal(pp_kthreads_running(), 1);
	assert_string_equal(k.comm, "a-long-kthread-");	/* TASK_COMM_LEN - 1 */
	assert_true(k.flags & PF_KTHREAD);
	assert_true(k.pid != gettid());
	assert_true(k.cpu >= 0 && k.cpu != 2);
	assert_true(cpu_online(k.cpu));
	assert_int_equal(kthread_stop(p), 7);
	assert_int_equal(pp_kthreads_running(), 0);
	assert_false(cpu_online(k.cpu));
}

static void test_on_cpu_and_move(void **state)
{
	struct task_struct *p;
	struct kt k;

	(void)state;
	kt_init(&k);
	p = kthread_create_on_cpu(kt_fn, &k, 9, "bound/%u");
	assert_false(IS_ERR(p));
	assert_string_equal(p->comm, "bound/9");
	wake_up_process(p);
	wait_for_completion(&k.started);
	assert_int_equal(k.cpu, 9);
	assert_int_equal(kthread_stop(p), 7);

	/* CPU 2 is ours: a kthread can never run there. */
	p = kthread_create_on_cpu(kt_fn, &k, 2, "busy/%u");
	assert_int_equal(PTR_ERR(p), -EBUSY);

	kt_init(&k);
	k.move_to = 11;
	p = kthread_run(kt_fn, &k, "mover");
	assert_false(IS_ERR(p));
	wait_for_completion(&k.started);
	assert_int_equal(k.move_ret, 0);
	assert_int_equal(k.cpu, 11);
	assert_int_equal(kthread_stop(p), 7);

	kt_init(&k);
	k.move_to = 2;		/* owned by this thread */
	p = kthread_run(kt_fn, &k, "stuck");
	wait_for_completion(&k.started);
	assert_int_equal(k.move_ret, -EBUSY);
	assert_int_equal(kthread_stop(p), 7);
}

struct sleeper {
	struct completion asleep;
	atomic_t woken;
	struct completion timed;
	long left;
};

static int sleeper_fn(void *data)
{
	struct sleeper *s = data;

	set_current_state(TASK_UNINTERRUPTIBLE);
	complete(&s->asleep);
	schedule();			/* until wake_up_process() */
	atomic_inc(&s->woken);
	s->left = schedule_timeout_uninterruptible(20);	/* nobody wakes it */
	complete(&s->timed);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(MAX_SCHEDULE_TIMEOUT);
	return 0;
}

static void test_sleep_and_wake(void **state)
{
	struct task_struct *p;
	struct sleeper s;
	unsigned long start;

	(void)state;
	memset(&s, 0, sizeof(s));
	init_completion(&s.asleep);
	init_completion(&s.timed);
	p = kthread_run(sleeper_fn, &s, "sleeper");
	wait_for_completion(&s.asleep);
	/* It said it would sleep; it stays asleep until woken. */
	assert_int_equal(schedule_timeout_uninterruptible(10), 0);
	assert_int_equal(atomic_read(&s.woken), 0);
	wake_up_process(p);
	start = jiffies;
	while (!atomic_read(&s.woken))
		schedule_timeout_uninterruptible(1);
	assert_true(jiffies - start < 5000);
	wait_for_completion(&s.timed);
	assert_int_equal(s.left, 0);
	/* kthread_stop() wakes it from its MAX_SCHEDULE_TIMEOUT sleep. */
	assert_int_equal(kthread_stop(p), 0);
	/* A running task is not woken again. */
	assert_int_equal(wake_up_process(current), 0);
}

static void test_cpumask(void **state)
{
	cpumask_t m = CPU_MASK_NONE, n;
	cpumask_var_t v;
	int cpu, count = 0;

	(void)state;
	assert_true(cpumask_empty(&m));
	cpumask_set_cpu(3, &m);
	cpumask_set_cpu(200, &m);
	assert_true(cpumask_test_cpu(200, &m));
	assert_false(cpumask_test_cpu(4, &m));
	assert_int_equal(cpumask_weight(&m), 2);
	assert_int_equal(cpumask_first(&m), 3);
	assert_int_equal(cpumask_next(3, &m), 200);
	assert_int_equal(cpumask_next(200, &m), nr_cpu_ids);
	for_each_cpu(cpu, &m)
		count++;
	assert_int_equal(count, 2);
	cpumask_copy(&n, &m);
	assert_true(cpumask_equal(&n, &m));
	cpumask_clear_cpu(3, &n);
	assert_true(cpumask_subset(&n, &m));
	assert_true(cpumask_and(&n, &n, cpumask_of(200)));
	assert_false(cpumask_andnot(&n, &n, cpumask_of(200)));
	assert_true(zalloc_cpumask_var(&v, GFP_KERNEL));
	assert_true(cpumask_empty(v));
	free_cpumask_var(v);
	assert_true(cpumask_full(cpu_possible_mask));
	/* This thread is CPU 2, and cpu_online_mask says so. */
	assert_true(cpumask_test_cpu(2, cpu_online_mask));
	assert_int_equal(cpumask_weight(cpu_online_mask), num_online_cpus());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_current_plain_thread),
		cmocka_unit_test(test_stop_before_wake),
		cmocka_unit_test(test_run_and_stop),
		cmocka_unit_test(test_on_cpu_and_move),
		cmocka_unit_test(test_sleep_and_wake),
		cmocka_unit_test(test_cpumask),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, setup, teardown);
}
