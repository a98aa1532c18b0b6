/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * RCU: synchronize_rcu() waits for a reader in another thread (an explicit
 * read-side section, and a bh-disabled region), call_rcu() callbacks run
 * after a grace period, rcu_barrier() waits for them, and a grace period
 * requested from inside a reader is refused with a WARN.
 *
 * The "still waiting" checks give the grace period 100 ms to (wrongly)
 * finish; a correct implementation cannot finish at all while the reader
 * holds on, so the checks cannot pass by luck, only fail by it if the
 * implementation were broken.
 */
#include <pthread.h>
#include <unistd.h>

#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <pagepool/runtime.h>

#include "test_common.h"

struct reader {
	bool use_bh;
	int in;		/* reader is inside its section */
	int release;	/* main tells it to leave */
};

static void *reader_fn(void *arg)
{
	struct reader *r = arg;

	if (r->use_bh)
		local_bh_disable();
	else
		rcu_read_lock();
	__atomic_store_n(&r->in, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&r->release, __ATOMIC_ACQUIRE))
		usleep(100);
	if (r->use_bh)
		local_bh_enable();
	else
		rcu_read_unlock();
	return NULL;
}

static int gp_done;

static void *syncer_fn(void *arg)
{
	(void)arg;
	synchronize_rcu();
	__atomic_store_n(&gp_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void check_waits_for(bool use_bh)
{
	struct reader r = { .use_bh = use_bh };
	pthread_t rt, st;

	gp_done = 0;
	pthread_create(&rt, NULL, reader_fn, &r);
	while (!__atomic_load_n(&r.in, __ATOMIC_ACQUIRE))
		usleep(100);
	pthread_create(&st, NULL, syncer_fn, NULL);
	msleep(100);
	assert_int_equal(__atomic_load_n(&gp_done, __ATOMIC_ACQUIRE), 0);
	__atomic_store_n(&r.release, 1, __ATOMIC_RELEASE);
	pthread_join(st, NULL);
	assert_int_equal(gp_done, 1);
	pthread_join(rt, NULL);
}

static void test_synchronize_waits_for_reader(void **state)
{
	(void)state;
	check_waits_for(false);
}

static void test_synchronize_waits_for_bh_region(void **state)
{
	(void)state;
	check_waits_for(true);
}

struct cb_obj {
	struct rcu_head rcu;
	int *counter;
};

static void cb_fn(struct rcu_head *head)
{
	struct cb_obj *o = container_of(head, struct cb_obj, rcu);

	__atomic_fetch_add(o->counter, 1, __ATOMIC_RELAXED);
	kfree(o);
}

static void test_call_rcu_and_barrier(void **state)
{
	int counter = 0, i;

	(void)state;
	for (i = 0; i < 100; i++) {
		struct cb_obj *o = kzalloc(sizeof(*o), GFP_KERNEL);

		o->counter = &counter;
		call_rcu(&o->rcu, cb_fn);
	}
	rcu_barrier();
	assert_int_equal(__atomic_load_n(&counter, __ATOMIC_RELAXED), 100);
}

static void test_call_rcu_waits_for_reader(void **state)
{
	struct reader r = { .use_bh = false };
	struct cb_obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
	int counter = 0;
	pthread_t rt;

	(void)state;
	pthread_create(&rt, NULL, reader_fn, &r);
	while (!__atomic_load_n(&r.in, __ATOMIC_ACQUIRE))
		usleep(100);
	o->counter = &counter;
	call_rcu(&o->rcu, cb_fn);
	msleep(100);
	assert_int_equal(__atomic_load_n(&counter, __ATOMIC_RELAXED), 0);
	__atomic_store_n(&r.release, 1, __ATOMIC_RELEASE);
	rcu_barrier();
	assert_int_equal(__atomic_load_n(&counter, __ATOMIC_RELAXED), 1);
	pthread_join(rt, NULL);
}

struct kr_obj {
	long payload[8];
	struct rcu_head rh;
};

static void test_kfree_rcu(void **state)
{
	struct kr_obj *o = kzalloc(sizeof(*o), GFP_KERNEL);

	(void)state;
	kfree_rcu(o, rh);	/* LeakSanitizer fails the run if it is not freed */
	rcu_barrier();
}

static void test_synchronize_inside_reader_refused(void **state)
{
	unsigned long warns = pp_warn_count();

	(void)state;
	rcu_read_lock();
	assert_true(rcu_read_lock_held());
	synchronize_rcu();	/* would deadlock: refused */
	rcu_read_unlock();
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_false(rcu_read_lock_held());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synchronize_waits_for_reader),
		cmocka_unit_test(test_synchronize_waits_for_bh_region),
		cmocka_unit_test(test_call_rcu_and_barrier),
		cmocka_unit_test(test_call_rcu_waits_for_reader),
		cmocka_unit_test(test_kfree_rcu),
		cmocka_unit_test(test_synchronize_inside_reader_refused),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
