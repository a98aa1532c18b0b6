/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Kernel threads: each kthread is a thread of its own and a registered CPU
 * of the runtime (<pagepool/runtime.h>) while its function runs.
 *
 * kthread_create() starts the thread and returns once it exists (its pid
 * is set), stopped, as the kernel's: the function runs after
 * wake_up_process() (kthread_run() does both). A kthread that was bound
 * (kthread_bind(), kthread_create_on_cpu(), or set_cpus_allowed_ptr()
 * before it started) registers as that CPU id and is pinned to the host CPU
 * of that number when it can be; otherwise it takes the lowest free id. If
 * the bound id is owned by another thread when the function starts (one
 * thread per CPU id), a WARN says so and it takes the lowest free id.
 * When the function returns the thread gives its CPU id back (tasklets it
 * queued run first) and its result waits for kthread_stop().
 *
 * Names (the printf-style @namefmt) are kept in task->comm and given to the
 * thread (pthread_setname_np), truncated to TASK_COMM_LEN - 1 characters.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_KTHREAD_H
#define _PP_LINUX_KTHREAD_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/numa.h>
#include <linux/sched.h>

/**
 * kthread_create_on_node() - create a kthread, not yet running
 * @threadfn: its function, called with @data
 * @data: passed to @threadfn
 * @node: ignored (memory is not placed per node)
 * @namefmt: printf format of its name
 * @...: the format's arguments
 *
 * wake_up_process() starts it.
 *
 * Context: process context.
 * Return: the task, or ERR_PTR(-ENOMEM) if the thread could not be made.
 */
__printf(4, 5)
struct task_struct *kthread_create_on_node(int (*threadfn)(void *data), void *data,
					   int node, const char namefmt[], ...);

#define kthread_create(threadfn, data, namefmt, arg...)		\
	kthread_create_on_node(threadfn, data, NUMA_NO_NODE, namefmt, ##arg)

/**
 * kthread_create_on_cpu() - create a kthread bound to a CPU
 * @threadfn: its function, called with @data
 * @data: passed to @threadfn
 * @cpu: the CPU
 * @namefmt: its name; one %u (or %d) in it becomes @cpu
 *
 * Context: process context.
 * Return: the task; ERR_PTR(-EBUSY) if @cpu is owned by another thread
 * right now (it could never run there); ERR_PTR(-EINVAL) if @cpu is out of
 * range; ERR_PTR(-ENOMEM).
 */
struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data), void *data,
					  unsigned int cpu, const char *namefmt);

/* kthread_create() + wake_up_process(). Returns what kthread_create() did. */
#define kthread_run(threadfn, data, namefmt, ...)			\
({									\
	struct task_struct *__k						\
		= kthread_create(threadfn, data, namefmt, ## __VA_ARGS__); \
	if (!IS_ERR(__k))						\
		wake_up_process(__k);					\
	__k;								\
})

/* kthread_create_on_cpu() + wake_up_process(). */
static inline struct task_struct *
kthread_run_on_cpu(int (*threadfn)(void *data), void *data, unsigned int cpu,
		   const char *namefmt)
{
	struct task_struct *p = kthread_create_on_cpu(threadfn, data, cpu, namefmt);

	if (!IS_ERR(p))
		wake_up_process(p);
	return p;
}

/**
 * kthread_bind() - bind a kthread, not yet woken, to a CPU
 * @k: the kthread (a WARN if it already runs)
 * @cpu: the CPU
 *
 * Context: process context.
 */
void kthread_bind(struct task_struct *k, unsigned int cpu);
/**
 * kthread_bind_mask() - bind a kthread to the first CPU of a mask free when it starts
 * @k: the kthread, not yet woken
 * @mask: the CPUs
 *
 * Context: process context.
 */
void kthread_bind_mask(struct task_struct *k, const struct cpumask *mask);

/**
 * kthread_stop() - stop a kthread and wait for it
 * @k: the kthread; must not be used afterwards (the task is freed)
 *
 * kthread_should_stop() becomes true in it, and it is woken; then waits
 * for its function to return. The caller's CPU runs its raised softirqs
 * before it waits.
 *
 * Context: process context, not from @k itself.
 * Return: the function's result, or -EINTR if @k was never woken (its
 * function does not run then).
 */
int kthread_stop(struct task_struct *k);
/**
 * kthread_stop_put() - kthread_stop() for callers that took a task reference
 * @k: the kthread
 *
 * There are no task references here: the same as kthread_stop().
 *
 * Context: process context, not from @k itself.
 * Return: as kthread_stop().
 */
int kthread_stop_put(struct task_struct *k);

/**
 * kthread_should_stop() - whether the calling kthread is asked to stop
 *
 * Context: a kthread's function.
 * Return: true once kthread_stop() was called for it; false outside
 * kthreads.
 */
bool kthread_should_stop(void);

/* Parking is not supported: never asked to park. */
static inline bool kthread_should_park(void)
{
	return false;
}

static inline bool kthread_should_stop_or_park(void)
{
	return kthread_should_stop();
}

/**
 * kthread_data() - the data a kthread was created with
 * @k: the kthread
 *
 * Context: any context.
 * Return: its @data.
 */
void *kthread_data(struct task_struct *k);

#pragma GCC visibility pop
#endif /* _PP_LINUX_KTHREAD_H */
