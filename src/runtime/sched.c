/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Tasks and kthreads (semantics in <linux/sched.h> and <linux/kthread.h>).
 *
 * Each task_struct is embedded in a struct pp_task that carries a mutex and
 * condition variable for sleeping: schedule() waits on them while the state
 * is not TASK_RUNNING, wake_up_process() sets TASK_RUNNING under the mutex
 * and signals. The state word itself is written with atomics (the sleeper
 * sets it without the mutex, in set_current_state()), and the waker tests
 * it under the mutex, so a wake-up between set_current_state() and
 * schedule() is never lost.
 *
 * Every task is on one list (tasks_lock). That keeps them reachable for
 * LeakSanitizer while their threads live (a kthread's task outlives its
 * function until kthread_stop()) and lets the module runner ask how many
 * kthreads still run.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bug.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <pagepool/runtime.h>

#include "runtime/runtime_internal.h"

struct pp_task {
	struct task_struct task;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* state changed, or kthread progress */
	struct list_head node;		/* on all_tasks */
	bool kthread;
	/* kthreads only */
	int (*threadfn)(void *data);
	void *data;
	struct cpumask bind;		/* empty: any CPU */
	bool created;			/* the thread exists (pid is set) */
	bool started;			/* woken or stopped: past its first wait */
	bool should_stop;		/* atomic: kthread_should_stop() reads it */
	bool exited;			/* the function returned (or never ran) */
	int result;
	pthread_t thread;
};

static pthread_mutex_t tasks_lock = PTHREAD_MUTEX_INITIALIZER;
static LIST_HEAD(all_tasks);

static __thread struct pp_task *cur_task;
static pthread_once_t task_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t task_key;

static struct pp_task *to_pp_task(struct task_struct *p)
{
	return container_of(p, struct pp_task, task);
}

static void task_init_sync(struct pp_task *t)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&t->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->cond, &ca);
	pthread_condattr_destroy(&ca);
}

static void task_list_add(struct pp_task *t)
{
	pthread_mutex_lock(&tasks_lock);
	list_add_tail(&t->node, &all_tasks);
	pthread_mutex_unlock(&tasks_lock);
}

static void task_free(struct pp_task *t)
{
	pthread_mutex_lock(&tasks_lock);
	list_del(&t->node);
	pthread_mutex_unlock(&tasks_lock);
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

/* A thread that is not a kthread leaves: its lazily made task goes too. */
static void task_key_destructor(void *arg)
{
	struct pp_task *t = arg;

	if (cur_task == t)
		cur_task = NULL;
	task_free(t);
}

static void task_key_init(void)
{
	if (pthread_key_create(&task_key, task_key_destructor))
		abort();
}

static struct pp_task *current_task_slow(void)
{
	struct pp_task *t = calloc(1, sizeof(*t));

	if (!t) {
		pr_crit("pagepool: out of memory for the task_struct of thread %d\n", (int)gettid());
		abort();
	}
	task_init_sync(t);
	t->task.__state = TASK_RUNNING;
	t->task.pid = gettid();
	t->task.tgid = getpid();
	if (pthread_getname_np(pthread_self(), t->task.comm, sizeof(t->task.comm)))
		snprintf(t->task.comm, sizeof(t->task.comm), "%s", program_invocation_short_name);
	task_list_add(t);
	pthread_once(&task_key_once, task_key_init);
	pthread_setspecific(task_key, t);
	cur_task = t;
	return t;
}

static struct pp_task *current_task(void)
{
	struct pp_task *t = cur_task;

	return likely(t) ? t : current_task_slow();
}

struct task_struct *get_current(void)
{
	return &current_task()->task;
}

static unsigned int task_state(struct pp_task *t)
{
	return __atomic_load_n(&t->task.__state, __ATOMIC_SEQ_CST);
}

static bool stop_requested(struct pp_task *t)
{
	return t->kthread && __atomic_load_n(&t->should_stop, __ATOMIC_ACQUIRE);
}

/* CLOCK_MONOTONIC deadline @ms milliseconds from now. */
static struct timespec deadline_after_ms(unsigned long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)(ms / 1000);
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

/*
 * Sleep while the state is not TASK_RUNNING, until @deadline if given.
 * Returns false if the deadline passed first. Leaves the state
 * TASK_RUNNING either way, as the kernel's schedule_timeout() does.
 */
static bool task_sleep(struct pp_task *t, const struct timespec *deadline)
{
	bool woken = true;

	__pp_before_sleep();
	pthread_mutex_lock(&t->lock);
	while (task_state(t) != TASK_RUNNING && !stop_requested(t)) {
		if (!deadline) {
			pthread_cond_wait(&t->cond, &t->lock);
		} else if (pthread_cond_timedwait(&t->cond, &t->lock, deadline) == ETIMEDOUT) {
			woken = task_state(t) == TASK_RUNNING || stop_requested(t);
			break;
		}
	}
	__atomic_store_n(&t->task.__state, TASK_RUNNING, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&t->lock);
	return woken;
}

void schedule(void)
{
	struct pp_task *t = current_task();

	if (task_state(t) == TASK_RUNNING) {
		__pp_before_sleep();
		sched_yield();
		return;
	}
	task_sleep(t, NULL);
}

long schedule_timeout(long timeout)
{
	struct pp_task *t = current_task();
	unsigned long start, elapsed;
	struct timespec deadline;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		pr_err("schedule_timeout: wrong timeout value %lx\n", (unsigned long)timeout);
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	start = jiffies;
	if (task_state(t) == TASK_RUNNING) {
		__pp_before_sleep();
		sched_yield();
	} else {
		deadline = deadline_after_ms((unsigned long)timeout);
		if (!task_sleep(t, &deadline))
			return 0;
	}
	elapsed = jiffies - start;
	return elapsed >= (unsigned long)timeout ? 0 : timeout - (long)elapsed;
}

long schedule_timeout_interruptible(long timeout)
{
	__set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_killable(long timeout)
{
	__set_current_state(TASK_KILLABLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_idle(long timeout)
{
	__set_current_state(TASK_IDLE);
	return schedule_timeout(timeout);
}

int wake_up_process(struct task_struct *p)
{
	struct pp_task *t = to_pp_task(p);
	int woke = 0;

	pthread_mutex_lock(&t->lock);
	if (task_state(t) != TASK_RUNNING) {
		__atomic_store_n(&p->__state, TASK_RUNNING, __ATOMIC_SEQ_CST);
		woke = 1;
	}
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return woke;
}

/* Pin the calling thread to host CPU @cpu, if the host has it. Failure
 * (no such CPU, a cpuset that forbids it) leaves the affinity as it was:
 * the logical id is what the code sees, the host CPU only matters for
 * timing. */
static void try_pin_host(int cpu)
{
	(void)pp_thread_pin(cpu);
}

/* Under t->lock. */
static bool kthread_started(struct pp_task *t)
{
	return t->started;
}

int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask)
{
	struct pp_task *t = to_pp_task(p);
	unsigned int cpu;
	int ret;

	if (cpumask_empty(new_mask))
		return -EINVAL;
	if (t != cur_task) {
		pthread_mutex_lock(&t->lock);
		ret = -EINVAL;
		if (t->kthread && !kthread_started(t)) {
			cpumask_copy(&t->bind, new_mask);
			ret = 0;
		}
		pthread_mutex_unlock(&t->lock);
		return ret;
	}
	if (WARN_ONCE(in_interrupt(), "set_cpus_allowed_ptr() on current from atomic context"))
		return -EINVAL;
	if (cpumask_test_cpu(smp_processor_id(), new_mask))
		return 0;
	for_each_cpu(cpu, new_mask) {
		if (pprt_thread_move_cpu((int)cpu) == (int)cpu) {
			try_pin_host((int)cpu);
			return 0;
		}
	}
	return -EBUSY;
}

/* Kthreads. */

static void *kthread_main(void *arg)
{
	struct pp_task *t = arg;
	bool run, bound;
	struct cpumask bind;
	unsigned int cpu;
	int ret = -EINTR;

	cur_task = t;
	pthread_setname_np(pthread_self(), t->task.comm);
	pthread_mutex_lock(&t->lock);
	t->task.pid = gettid();
	t->created = true;
	pthread_cond_broadcast(&t->cond);
	/* Created stopped: wait for wake_up_process() or kthread_stop(). */
	while (task_state(t) != TASK_RUNNING && !stop_requested(t))
		pthread_cond_wait(&t->cond, &t->lock);
	run = !stop_requested(t);
	t->started = true;
	cpumask_copy(&bind, &t->bind);
	pthread_mutex_unlock(&t->lock);

	if (run) {
		bound = !cpumask_empty(&bind);
		if (bound) {
			for_each_cpu(cpu, &bind)
				if (pp_thread_register((int)cpu) == (int)cpu)
					break;
			if (cpu < nr_cpu_ids)
				try_pin_host((int)cpu);
			else
				WARN(1, "kthread %s: its CPU %u is owned by another thread (one thread per CPU id); it runs as another CPU",
				     t->task.comm, cpumask_first(&bind));
		}
		/* No free id: the kthread runs on the shared CPU (its
		 * first use of one makes it a member, with the one-time
		 * WARN), as any thread past the limit does. */
		if (__pp_ctx.cpu < 0)
			(void)pp_thread_register(-1);
		ret = t->threadfn(t->data);
		pp_thread_unregister();
	}

	pthread_mutex_lock(&t->lock);
	t->result = ret;
	t->exited = true;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static struct task_struct *kthread_new(int (*threadfn)(void *data), void *data,
				       const struct cpumask *bind, const char *namefmt,
				       va_list ap)
{
	struct pp_task *t = calloc(1, sizeof(*t));
	char name[64];
	size_t len;

	if (!t)
		return ERR_PTR(-ENOMEM);
	task_init_sync(t);
	t->kthread = true;
	t->threadfn = threadfn;
	t->data = data;
	if (bind)
		cpumask_copy(&t->bind, bind);
	t->task.flags = PF_KTHREAD;
	t->task.tgid = getpid();
	/* Created stopped, as the kernel's kthreads. */
	t->task.__state = TASK_UNINTERRUPTIBLE;
	vsnprintf(name, sizeof(name), namefmt, ap);
	/* comm keeps TASK_COMM_LEN - 1 characters, as the kernel's. */
	len = strnlen(name, sizeof(t->task.comm) - 1);
	memcpy(t->task.comm, name, len);
	t->task.comm[len] = '\0';
	task_list_add(t);

	if (pthread_create(&t->thread, NULL, kthread_main, t)) {
		task_free(t);
		return ERR_PTR(-ENOMEM);
	}
	pthread_mutex_lock(&t->lock);
	while (!t->created)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
	return &t->task;
}

struct task_struct *kthread_create_on_node(int (*threadfn)(void *data), void *data,
					   int node, const char namefmt[], ...)
{
	struct task_struct *p;
	va_list ap;

	(void)node;
	va_start(ap, namefmt);
	p = kthread_new(threadfn, data, NULL, namefmt, ap);
	va_end(ap);
	return p;
}

/* Only a helper to pass @cpu through a va_list to kthread_new(). */
static struct task_struct *kthread_new_cpu(int (*threadfn)(void *data), void *data,
					   const struct cpumask *bind,
					   const char *namefmt, ...)
{
	struct task_struct *p;
	va_list ap;

	va_start(ap, namefmt);
	p = kthread_new(threadfn, data, bind, namefmt, ap);
	va_end(ap);
	return p;
}

struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data), void *data,
					  unsigned int cpu, const char *namefmt)
{
	if (cpu >= NR_CPUS)
		return ERR_PTR(-EINVAL);
	if (cpu_online((int)cpu)) {
		pr_warn("kthread_create_on_cpu(%s): CPU %u is owned by another thread; a CPU id has one thread here\n",
			namefmt, cpu);
		return ERR_PTR(-EBUSY);
	}
	return kthread_new_cpu(threadfn, data, cpumask_of(cpu), namefmt, cpu);
}

void kthread_bind_mask(struct task_struct *k, const struct cpumask *mask)
{
	struct pp_task *t = to_pp_task(k);

	pthread_mutex_lock(&t->lock);
	if (!WARN(!t->kthread || kthread_started(t),
		  "kthread_bind() on %s, which is not a kthread that waits to start",
		  k->comm))
		cpumask_copy(&t->bind, mask);
	pthread_mutex_unlock(&t->lock);
}

void kthread_bind(struct task_struct *k, unsigned int cpu)
{
	if (WARN_ON(cpu >= NR_CPUS))
		return;
	kthread_bind_mask(k, cpumask_of(cpu));
}

bool kthread_should_stop(void)
{
	struct pp_task *t = cur_task;

	return t && stop_requested(t);
}

void *kthread_data(struct task_struct *k)
{
	return to_pp_task(k)->data;
}

int kthread_stop(struct task_struct *k)
{
	struct pp_task *t = to_pp_task(k);
	int ret;

	if (WARN(!t->kthread, "kthread_stop() on %s, which is not a kthread", k->comm))
		return -EINVAL;
	if (WARN(t == cur_task, "kthread_stop() on itself (%s)", k->comm))
		return -EINVAL;
	pthread_mutex_lock(&t->lock);
	__atomic_store_n(&t->should_stop, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);

	__pp_before_sleep();
	pthread_join(t->thread, NULL);
	ret = t->result;
	task_free(t);
	return ret;
}

int kthread_stop_put(struct task_struct *k)
{
	return kthread_stop(k);
}

unsigned int pp_kthreads_running(void)
{
	struct pp_task *t;
	unsigned int n = 0;

	pthread_mutex_lock(&tasks_lock);
	list_for_each_entry(t, &all_tasks, node) {
		if (!t->kthread)
			continue;
		pthread_mutex_lock(&t->lock);
		n += !t->exited;
		pthread_mutex_unlock(&t->lock);
	}
	pthread_mutex_unlock(&tasks_lock);
	return n;
}
