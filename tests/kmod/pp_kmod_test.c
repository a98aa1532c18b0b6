// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * pp_kmod_test: a test module written as kernel modules are, for
 * pagepool-kmod. Built by the way users build (installed headers,
 * `pkg-config --cflags --libs pagepool-kmod`) and in-tree; run by
 * check_kmod.sh, which asserts on the lines it prints.
 *
 * init prints the parameters it was given (one of each standard type, an
 * array, an inverted bool), then checks, each printing PASS or FAIL:
 *   - a tasklet runs in softirq (in_serving_softirq(), !in_task()) on the
 *     CPU that scheduled it, and can use page_pool's softirq fast path
 *     (page_pool_recycle_direct());
 *   - a HI tasklet scheduled after a normal one runs before it;
 *   - a kthread runs with its name, PF_KTHREAD and a CPU of its own, and
 *     sleeps in schedule() until module_exit stops it (its result: 42).
 * fail=N makes init return -N, so the runner's insmod message can be
 * checked. A failed check makes init return -EIO.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <net/page_pool/helpers.h>

static int loops = 1000;
module_param(loops, int, 0444);
MODULE_PARM_DESC(loops, "page_pool alloc/recycle rounds in the tasklet");

static bool verbose;
module_param(verbose, bool, 0644);
MODULE_PARM_DESC(verbose, "print more");

static char *tag = "default";
module_param(tag, charp, 0444);
MODULE_PARM_DESC(tag, "a string, printed back");

static unsigned long long big = 1;
module_param(big, ullong, 0444);

static unsigned int flags = 0x10;
module_param(flags, hexint, 0444);

static short delta = -1;
module_param(delta, short, 0444);

static unsigned char byteval = 7;
module_param(byteval, byte, 0444);

static unsigned long ulongval = 3;
module_param(ulongval, ulong, 0444);

static bool start_kthread = true;
module_param_named(no_kthread, start_kthread, invbool, 0444);
MODULE_PARM_DESC(no_kthread, "do not start the kthread (invbool)");

static int vals[4];
static unsigned int nr_vals;
module_param_array(vals, int, &nr_vals, 0444);
MODULE_PARM_DESC(vals, "up to 4 ints, summed");

static int fail;
module_param(fail, int, 0444);
MODULE_PARM_DESC(fail, "make init return -fail");

static int failures;

#define CHECK(cond, fmt, ...)						\
do {									\
	if (cond) {							\
		pr_info("PASS: " fmt "\n", ##__VA_ARGS__);		\
	} else {							\
		pr_err("FAIL: " fmt " (%s)\n", ##__VA_ARGS__, #cond);	\
		failures++;						\
	}								\
} while (0)

/* What the tasklets saw, written in softirq, read after the completion. */
struct tasklet_seen {
	struct tasklet_struct tasklet;
	struct completion done;
	int cpu;
	bool serving_softirq;
	bool in_task;
	int order;
	int recycled;
};

static struct tasklet_seen normal, hi;
static int sched_cpu;
static atomic_t run_order = ATOMIC_INIT(0);

static int pool_rounds(void)
{
	struct page_pool_params pp = {
		.pool_size = 64,
		.nid = NUMA_NO_NODE,
		.dma_dir = DMA_BIDIRECTIONAL,
	};
	struct page_pool *pool = page_pool_create(&pp);
	int i, n = 0;

	if (IS_ERR(pool))
		return -1;
	for (i = 0; i < loops; i++) {
		struct page *page = page_pool_dev_alloc_pages(pool);

		if (!page)
			break;
		/* Only allowed in softirq on the pool's CPU. */
		page_pool_recycle_direct(pool, page);
		n++;
	}
	page_pool_destroy(pool);
	return n;
}

static void tasklet_fn(struct tasklet_struct *t)
{
	struct tasklet_seen *s = from_tasklet(s, t, tasklet);

	s->cpu = smp_processor_id();
	s->serving_softirq = in_serving_softirq();
	s->in_task = in_task();
	s->order = atomic_inc_return(&run_order);
	if (s == &normal)
		s->recycled = pool_rounds();
	complete(&s->done);
}

static int check_tasklets(void)
{
	tasklet_setup(&normal.tasklet, tasklet_fn);
	tasklet_setup(&hi.tasklet, tasklet_fn);
	init_completion(&normal.done);
	init_completion(&hi.done);

	sched_cpu = smp_processor_id();
	tasklet_schedule(&normal.tasklet);
	tasklet_hi_schedule(&hi.tasklet);
	/* Sleeping lets the CPU run its softirqs, as ksoftirqd would. */
	wait_for_completion(&normal.done);
	wait_for_completion(&hi.done);

	CHECK(normal.cpu == sched_cpu, "tasklet ran on CPU %d, scheduled on CPU %d",
	      normal.cpu, sched_cpu);
	CHECK(normal.serving_softirq && !normal.in_task,
	      "tasklet ran in softirq (in_serving_softirq=%d in_task=%d)",
	      normal.serving_softirq, normal.in_task);
	CHECK(normal.recycled == loops, "tasklet recycled %d of %d pages directly",
	      normal.recycled, loops);
	CHECK(hi.order < normal.order, "HI tasklet ran first (order %d < %d)",
	      hi.order, normal.order);
	return 0;
}

static struct task_struct *worker;
static DECLARE_COMPLETION(worker_started);
static int worker_cpu = -1;
static char worker_comm[TASK_COMM_LEN];
static bool worker_is_kthread;

static int worker_fn(void *data)
{
	(void)data;
	worker_cpu = smp_processor_id();
	memcpy(worker_comm, current->comm, sizeof(worker_comm));
	worker_is_kthread = current->flags & PF_KTHREAD;
	complete(&worker_started);

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 42;
}

static int check_kthread(void)
{
	worker = kthread_run(worker_fn, NULL, "%s/%d", "pp_kmod_kt", 0);
	if (IS_ERR(worker)) {
		pr_err("FAIL: kthread_run: %ld\n", PTR_ERR(worker));
		failures++;
		worker = NULL;
		return 0;
	}
	wait_for_completion(&worker_started);
	CHECK(!strcmp(worker_comm, "pp_kmod_kt/0") && worker_is_kthread,
	      "kthread %s runs (PF_KTHREAD %d)", worker_comm, worker_is_kthread);
	CHECK(worker_cpu >= 0 && worker_cpu != smp_processor_id(),
	      "kthread runs as CPU %d, a CPU of its own", worker_cpu);
	return 0;
}

static int __init pp_kmod_test_init(void)
{
	int i, sum = 0;

	for (i = 0; i < (int)nr_vals; i++)
		sum += vals[i];
	pr_info("loaded on CPU %d: loops=%d verbose=%d tag=%s big=%llu flags=%#x delta=%d byteval=%u ulongval=%lu kthread=%d vals=%u sum=%d\n",
		smp_processor_id(), loops, verbose, tag, big, flags, delta, byteval,
		ulongval, start_kthread, nr_vals, sum);
	if (fail)
		return -fail;
	if (loops < 0) {
		pr_err("loops must not be negative\n");
		return -EINVAL;
	}
	check_tasklets();
	if (start_kthread)
		check_kthread();
	if (verbose)
		pr_info("verbose: %d check(s) failed\n", failures);
	return failures ? -EIO : 0;
}
module_init(pp_kmod_test_init);

static void __exit pp_kmod_test_exit(void)
{
	if (worker) {
		int ret = kthread_stop(worker);

		CHECK(ret == 42, "kthread stopped, returned %d", ret);
	}
	tasklet_kill(&normal.tasklet);
	tasklet_kill(&hi.tasklet);
	pr_info("unloaded, %d failure(s)\n", failures);
}
module_exit(pp_kmod_test_exit);

MODULE_DESCRIPTION("pagepool-kmod test module");
MODULE_AUTHOR("pagepool");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION("1");
