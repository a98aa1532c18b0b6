/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Delayed work: fires after its delay (not before), once; queueing a queued
 * item is refused; cancel prevents it; flush runs it now; a self-requeuing
 * item is stopped by cancel_delayed_work_sync(); pp_workqueue_run_all()
 * runs what is queued whatever its expiry.
 */
#include <unistd.h>

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <pagepool/runtime.h>

#include "test_common.h"

struct timed_work {
	struct delayed_work dw;
	unsigned long queued_at, ran_at;
	int runs;
	int requeue;	/* re-queue itself this many times */
	unsigned int requeue_ms;	/* that far ahead; 0: 5 ms */
};

static void timed_fn(struct work_struct *work)
{
	struct timed_work *t = container_of(to_delayed_work(work), struct timed_work, dw);

	t->ran_at = jiffies;
	if (t->requeue > 0) {
		t->requeue--;
		schedule_delayed_work(&t->dw, msecs_to_jiffies(t->requeue_ms ?: 5));
	}
	/* Last access: once the test sees the count, @t may go away. */
	__atomic_fetch_add(&t->runs, 1, __ATOMIC_RELEASE);
}

static int runs(struct timed_work *t)
{
	return __atomic_load_n(&t->runs, __ATOMIC_ACQUIRE);
}

static void wait_runs(struct timed_work *t, int n)
{
	int i;

	for (i = 0; i < 5000 && runs(t) < n; i++)
		usleep(1000);
}

static void test_delayed_work_fires_after_delay(void **state)
{
	struct timed_work t = { .runs = 0 };

	(void)state;
	INIT_DELAYED_WORK(&t.dw, timed_fn);
	t.queued_at = jiffies;
	assert_true(schedule_delayed_work(&t.dw, msecs_to_jiffies(50)));
	assert_false(schedule_delayed_work(&t.dw, msecs_to_jiffies(1)));	/* already queued */
	assert_true(delayed_work_pending(&t.dw));
	wait_runs(&t, 1);
	assert_int_equal(runs(&t), 1);
	assert_true(t.ran_at - t.queued_at >= 50);
	assert_false(delayed_work_pending(&t.dw));
	msleep(60);
	assert_int_equal(runs(&t), 1);	/* exactly once */
}

static void test_cancel_and_flush(void **state)
{
	struct timed_work t = { .runs = 0 };

	(void)state;
	INIT_DELAYED_WORK(&t.dw, timed_fn);
	schedule_delayed_work(&t.dw, msecs_to_jiffies(30));
	assert_true(cancel_delayed_work(&t.dw));
	assert_false(cancel_delayed_work(&t.dw));
	msleep(60);
	assert_int_equal(runs(&t), 0);

	schedule_delayed_work(&t.dw, msecs_to_jiffies(60 * 1000));
	assert_true(flush_delayed_work(&t.dw));	/* runs now, waits for it */
	assert_int_equal(runs(&t), 1);
	assert_false(flush_delayed_work(&t.dw));
}

static void test_mod_delayed_work(void **state)
{
	struct timed_work t = { .runs = 0 };

	(void)state;
	INIT_DELAYED_WORK(&t.dw, timed_fn);
	schedule_delayed_work(&t.dw, msecs_to_jiffies(60 * 1000));
	t.queued_at = jiffies;
	assert_true(mod_delayed_work(system_wq, &t.dw, msecs_to_jiffies(20)));
	wait_runs(&t, 1);
	assert_int_equal(runs(&t), 1);
	assert_true(t.ran_at - t.queued_at < 30 * 1000);
}

static void test_cancel_sync_stops_requeue(void **state)
{
	struct timed_work t = { .runs = 0, .requeue = 1000 };

	(void)state;
	INIT_DELAYED_WORK(&t.dw, timed_fn);
	schedule_delayed_work(&t.dw, 0);
	wait_runs(&t, 3);
	cancel_delayed_work_sync(&t.dw);
	{
		int n = runs(&t);

		msleep(30);
		assert_int_equal(runs(&t), n);
		assert_false(delayed_work_pending(&t.dw));
	}
}

static void test_run_all(void **state)
{
	/* b's second instance is an hour away: due only if run_all ran it,
	 * never because the worker got to it after the call returned (with
	 * 5 ms it did, once in ~200 TSan runs on a loaded machine). */
	struct timed_work a = { .runs = 0 },
			  b = { .runs = 0, .requeue = 1, .requeue_ms = 3600 * 1000 };

	(void)state;
	INIT_DELAYED_WORK(&a.dw, timed_fn);
	INIT_DELAYED_WORK(&b.dw, timed_fn);
	schedule_delayed_work(&a.dw, msecs_to_jiffies(3600 * 1000));
	schedule_delayed_work(&b.dw, msecs_to_jiffies(3600 * 1000));
	pp_workqueue_run_all();
	assert_int_equal(runs(&a), 1);
	assert_int_equal(runs(&b), 1);
	/* b re-queued itself; that instance was not due at the call. */
	cancel_delayed_work_sync(&b.dw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delayed_work_fires_after_delay),
		cmocka_unit_test(test_cancel_and_flush),
		cmocka_unit_test(test_mod_delayed_work),
		cmocka_unit_test(test_cancel_sync_stops_requeue),
		cmocka_unit_test(test_run_all),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
