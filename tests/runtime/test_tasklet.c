/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Tasklets: they run as softirqs (in_serving_softirq(), not in_task()) on
 * the CPU that scheduled them, once per scheduling, HI before normal, not
 * while disabled; they run at the outermost local_bh_enable(), from
 * pp_do_softirq(), before the task blocks on a mutex or completion, and
 * when the thread gives its CPU id back; tasklet_kill() waits for a
 * tasklet queued on another CPU.
 */
#include <pthread.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <pagepool/runtime.h>

#include "test_common.h"

struct seen {
	struct tasklet_struct t;
	int runs;
	int cpu;
	bool serving;
	bool task;
	int order;
	struct completion *done;
	struct mutex *unlock;
	bool reschedule_once;
};

static int order_counter;

static void seen_cb(struct tasklet_struct *t)
{
	struct seen *s = from_tasklet(s, t, t);

	s->runs++;
	s->cpu = smp_processor_id();
	s->serving = in_serving_softirq();
	s->task = in_task();
	s->order = ++order_counter;
	if (s->reschedule_once) {
		s->reschedule_once = false;
		tasklet_schedule(&s->t);
	}
	if (s->done)
		complete(s->done);
	if (s->unlock)
		mutex_unlock(s->unlock);
}

static void seen_init(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = -1;
	tasklet_setup(&s->t, seen_cb);
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(pp_thread_register(3), 3);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pp_thread_unregister();
	return 0;
}

static void test_runs_in_softirq_on_its_cpu(void **state)
{
	struct seen s;

	(void)state;
	seen_init(&s);
	tasklet_schedule(&s.t);
	tasklet_schedule(&s.t);		/* already scheduled: runs once */
	assert_int_equal(s.runs, 0);	/* not from task context by itself */
	assert_true(pp_softirq_pending());
	local_bh_disable();
	assert_int_equal(s.runs, 0);
	local_bh_enable();		/* the outermost enable runs it */
	assert_int_equal(s.runs, 1);
	assert_int_equal(s.cpu, 3);
	assert_true(s.serving);
	assert_false(s.task);
	assert_false(pp_softirq_pending());
	assert_true(in_task());
}

static void test_hi_first_and_do_softirq(void **state)
{
	struct seen lo, hi;

	(void)state;
	seen_init(&lo);
	seen_init(&hi);
	tasklet_schedule(&lo.t);
	tasklet_hi_schedule(&hi.t);
	assert_int_equal(pp_do_softirq(), 2);
	assert_true(hi.order < lo.order);
	assert_int_equal(pp_do_softirq(), 0);
}

static void test_reschedule_from_callback(void **state)
{
	struct seen s;

	(void)state;
	seen_init(&s);
	s.reschedule_once = true;
	tasklet_schedule(&s.t);
	assert_int_equal(pp_do_softirq(), 2);	/* the restart round runs it again */
	assert_int_equal(s.runs, 2);
}

/* The same through local_bh_enable(): handlers that raise more run in
 * restart rounds there too, as in the kernel's __do_softirq() (3 runs of
 * a HI and a normal tasklet that reschedule themselves, in one enable). */
static int resched_hi_runs, resched_runs;
static struct tasklet_struct resched_hi, resched;

static void resched_hi_cb(struct tasklet_struct *t)
{
	if (++resched_hi_runs < 3)
		tasklet_hi_schedule(t);
}

static void resched_cb(struct tasklet_struct *t)
{
	if (++resched_runs < 3)
		tasklet_schedule(t);
}

static void test_reschedule_within_bh_enable(void **state)
{
	(void)state;
	resched_hi_runs = resched_runs = 0;
	tasklet_setup(&resched_hi, resched_hi_cb);
	tasklet_setup(&resched, resched_cb);
	local_bh_disable();
	tasklet_hi_schedule(&resched_hi);
	tasklet_schedule(&resched);
	local_bh_enable();
	assert_int_equal(resched_hi_runs, 3);
	assert_int_equal(resched_runs, 3);
	assert_false(pp_softirq_pending());
}

static void test_disabled_stays_queued(void **state)
{
	struct seen s;

	(void)state;
	seen_init(&s);
	tasklet_disable(&s.t);
	tasklet_schedule(&s.t);
	pp_do_softirq();
	assert_int_equal(s.runs, 0);
	assert_true(pp_softirq_pending());
	tasklet_enable(&s.t);
	pp_do_softirq();
	assert_int_equal(s.runs, 1);
	assert_false(pp_softirq_pending());
}

static int old_style_data;

static void old_style_fn(unsigned long data)
{
	old_style_data = (int)data;
}

static DECLARE_TASKLET_OLD(old_style, old_style_fn);

static void test_init_and_declare(void **state)
{
	struct tasklet_struct t;

	(void)state;
	tasklet_init(&t, old_style_fn, 77);
	tasklet_schedule(&t);
	pp_do_softirq();
	assert_int_equal(old_style_data, 77);
	tasklet_schedule(&old_style);
	pp_do_softirq();
	assert_int_equal(old_style_data, 0);
}

/* The prototype-kernel module's pattern: lock a mutex, schedule a tasklet
 * that unlocks it, lock again; the second lock blocks, so the CPU runs
 * the tasklet. Also wait_for_completion(). */
static void test_blocking_runs_softirqs(void **state)
{
	DEFINE_MUTEX(m);
	DECLARE_COMPLETION(done);
	struct seen s;

	(void)state;
	seen_init(&s);
	s.unlock = &m;
	mutex_lock(&m);
	tasklet_schedule(&s.t);
	mutex_lock(&m);
	assert_int_equal(s.runs, 1);
	mutex_unlock(&m);

	seen_init(&s);
	s.done = &done;
	tasklet_schedule(&s.t);
	wait_for_completion(&done);
	assert_int_equal(s.runs, 1);
	assert_int_equal(s.cpu, 3);
}

static void test_kill_own_cpu(void **state)
{
	struct seen s;

	(void)state;
	seen_init(&s);
	tasklet_schedule(&s.t);
	tasklet_kill(&s.t);		/* queued here: runs it */
	assert_int_equal(s.runs, 1);
	assert_false(test_bit(TASKLET_STATE_SCHED, &s.t.state));
	tasklet_kill(&s.t);		/* idle: returns at once */
}

/* A thread schedules on its CPU and blocks; another kills. */
struct remote {
	struct seen s;
	struct completion scheduled;
	struct completion release;
};

static void *remote_thread(void *arg)
{
	struct remote *r = arg;

	pp_thread_register(5);
	tasklet_schedule(&r->s.t);
	complete(&r->scheduled);
	wait_for_completion(&r->release);	/* blocking runs it, on CPU 5 */
	pp_thread_unregister();
	return NULL;
}

static void test_kill_remote_and_offline(void **state)
{
	struct remote r;
	pthread_t th;

	(void)state;
	seen_init(&r.s);
	init_completion(&r.scheduled);
	init_completion(&r.release);
	assert_int_equal(pthread_create(&th, NULL, remote_thread, &r), 0);
	wait_for_completion(&r.scheduled);
	complete(&r.release);
	tasklet_kill(&r.s.t);
	assert_int_equal(r.s.runs, 1);
	assert_int_equal(r.s.cpu, 5);
	pthread_join(th, NULL);
}

static void *offline_thread(void *arg)
{
	struct seen *s = arg;

	pp_thread_register(6);
	tasklet_schedule(&s->t);
	return NULL;	/* thread exit gives CPU 6 back: the tasklet runs */
}

static void test_runs_at_thread_exit(void **state)
{
	struct seen s;
	pthread_t th;

	(void)state;
	seen_init(&s);
	assert_int_equal(pthread_create(&th, NULL, offline_thread, &s), 0);
	pthread_join(th, NULL);
	assert_int_equal(s.runs, 1);
	assert_int_equal(s.cpu, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_in_softirq_on_its_cpu),
		cmocka_unit_test(test_hi_first_and_do_softirq),
		cmocka_unit_test(test_reschedule_from_callback),
		cmocka_unit_test(test_reschedule_within_bh_enable),
		cmocka_unit_test(test_disabled_stays_queued),
		cmocka_unit_test(test_init_and_declare),
		cmocka_unit_test(test_blocking_runs_softirqs),
		cmocka_unit_test(test_kill_own_cpu),
		cmocka_unit_test(test_kill_remote_and_offline),
		cmocka_unit_test(test_runs_at_thread_exit),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, setup, teardown);
}
