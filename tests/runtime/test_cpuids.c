/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The library's own threads take no CPU id. A page_pool destroyed with a
 * page in flight has its release deferred to the work queue's worker, and
 * call_rcu() callbacks run on the RCU callback thread: both run library
 * code that asks smp_processor_id(), and both must answer PP_CPU_SHARED
 * instead of claiming the lowest free id for good. Afterwards every id the
 * application did not take (all but 0 here) is still free for
 * pp_thread_register(). A thread the application creates with kthread_run()
 * is the application's and still gets an id of its own.
 *
 * Context: the main thread is CPU 0; helper threads of the test register
 * ids one at a time. Layer: tests.
 */
#include <errno.h>
#include <unistd.h>

#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/workqueue.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

#include "test_common.h"

/* Every id but @taken (and the shared one, which no thread owns) can be
 * claimed by a new thread: the thread claims each in turn. */
static void *claim_all(void *arg)
{
	int taken = (int)(long)arg, cpu, bad = 0;

	for (cpu = 0; cpu < PP_CPU_SHARED; cpu++) {
		int ret = pp_thread_register(cpu);

		if (cpu == taken) {
			if (ret != -EBUSY)
				bad++;
			continue;
		}
		if (ret != cpu) {
			print_error("pp_thread_register(%d) = %d\n", cpu, ret);
			bad++;
			continue;
		}
		pp_thread_unregister();
	}
	return (void *)(long)bad;
}

static void assert_ids_free_but_0(void)
{
	assert_int_equal((long)pp_test_run_thread(claim_all, (void *)0L), 0);
}

struct cpu_probe {
	struct work_struct work;
	struct rcu_head rcu;
	int cpu;
	int done;
};

static void probe_work_fn(struct work_struct *work)
{
	struct cpu_probe *p = container_of(work, struct cpu_probe, work);

	p->cpu = smp_processor_id();
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
}

static void probe_rcu_fn(struct rcu_head *head)
{
	struct cpu_probe *p = container_of(head, struct cpu_probe, rcu);

	/* A bh-disabled region, as callbacks that recycle pages open. */
	local_bh_disable();
	p->cpu = smp_processor_id();
	local_bh_enable();
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
}

static bool pool_gone(u32 id)
{
	struct pp_page_pool_info info;
	int i;

	for (i = 0; i < 5000; i++) {
		if (pp_page_pool_get_info(id, &info) == -ENOENT)
			return true;
		usleep(1000);
	}
	return false;
}

static void test_library_threads_take_no_id(void **state)
{
	struct page_pool_params pp = {
		.pool_size = 64, .nid = NUMA_NO_NODE, .dma_dir = DMA_FROM_DEVICE,
	};
	struct pp_page_pool_info info;
	struct cpu_probe wp = { .cpu = -1 }, rp = { .cpu = -1 };
	unsigned long warns = pp_warn_count();
	struct page_pool *pool;
	struct page *page;
	u32 id;

	(void)state;
	assert_int_equal(pp_thread_register(0), 0);
	/* The release retries every 5 ms: the worker runs page_pool code
	 * many times while the page is out. */
	pp_page_pool_set_defer_times(5, 10000);

	pool = page_pool_create(&pp);
	assert_false(IS_ERR(pool));
	id = pool->user.id;
	page = page_pool_dev_alloc_pages(pool);
	assert_non_null(page);
	page_pool_destroy(pool);	/* one page in flight: release deferred */
	usleep(100 * 1000);
	assert_int_equal(pp_page_pool_get_info(id, &info), 0);	/* still waiting */
	assert_true(info.has_detach_time);
	assert_int_equal(info.inflight, 1);
	assert_ids_free_but_0();	/* the worker's release retries took none */

	/* A work item and an RCU callback run on the shared CPU. */
	INIT_WORK(&wp.work, probe_work_fn);
	assert_true(schedule_work(&wp.work));
	flush_work(&wp.work);
	assert_int_equal(__atomic_load_n(&wp.done, __ATOMIC_ACQUIRE), 1);
	assert_int_equal(wp.cpu, PP_CPU_SHARED);
	call_rcu(&rp.rcu, probe_rcu_fn);
	rcu_barrier();
	assert_int_equal(__atomic_load_n(&rp.done, __ATOMIC_ACQUIRE), 1);
	assert_int_equal(rp.cpu, PP_CPU_SHARED);

	/* Only the application's id is owned, and the shared CPU. */
	assert_false(cpu_online(1));
	assert_int_equal(pp_nr_registered_cpus(), 2);
	assert_ids_free_but_0();

	/* The last page comes back; the worker's next retry frees the pool
	 * (and the pages, from the shared CPU). */
	page_pool_put_full_page(pool, page, false);
	assert_true(pool_gone(id));
	assert_ids_free_but_0();
	/* The library's threads are on the shared CPU by design: no WARN
	 * about too many threads. */
	assert_int_equal(pp_warn_count(), warns);
	pp_page_pool_set_defer_times(1000, 60000);	/* the defaults */
}

static int kthread_fn(void *arg)
{
	int *cpu = arg;

	__atomic_store_n(cpu, smp_processor_id(), __ATOMIC_RELEASE);
	while (!kthread_should_stop())
		usleep(1000);
	return 0;
}

/* kthread_run() threads are the application's: they still get an id. */
static void test_kthread_still_gets_an_id(void **state)
{
	struct task_struct *t;
	int cpu = -2, i;

	(void)state;
	t = kthread_run(kthread_fn, &cpu, "probe");
	assert_false(IS_ERR(t));
	/* Stopped before it ran, it would not run at all. */
	for (i = 0; i < 5000 && __atomic_load_n(&cpu, __ATOMIC_ACQUIRE) == -2; i++)
		usleep(1000);
	kthread_stop(t);
	assert_true(cpu >= 0 && cpu < PP_CPU_SHARED);
	assert_int_not_equal(cpu, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library_threads_take_no_id),
		cmocka_unit_test(test_kthread_still_gets_an_id),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
