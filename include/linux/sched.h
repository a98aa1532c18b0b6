/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Tasks: current, task states, schedule() and friends, wake_up_process(),
 * set_cpus_allowed_ptr(), over the system's UAPI <linux/sched.h> (CLONE_*,
 * SCHED_*), which stays visible and compiles next to glibc's <sched.h>.
 *
 * A task is a thread. current is the calling thread's task_struct, made on
 * first use for threads the program created (pid = its thread id, comm =
 * its thread name) and by kthread_create() for kthreads (<linux/kthread.h>).
 * A task runs as the logical CPU its thread registered as
 * (<pagepool/runtime.h>): one thread per CPU id, so two tasks never share a
 * CPU, and a task moves to another CPU only by set_cpus_allowed_ptr() on
 * itself.
 *
 * Sleeping follows the kernel's protocol: set_current_state(TASK_*), check
 * the condition, schedule(); wake_up_process() makes the task
 * TASK_RUNNING and wakes it. schedule() may return early, as the kernel's
 * may (callers re-check their condition): it returns when the task is
 * woken, and in a kthread also once kthread_stop() was called. Before a
 * task sleeps, the softirqs raised on its CPU run (ksoftirqd's work while
 * the task sleeps; see <linux/interrupt.h>). No signals: signal_pending()
 * is always false, so TASK_INTERRUPTIBLE sleeps like TASK_UNINTERRUPTIBLE.
 * Timeouts are in jiffies (HZ = 1000, <linux/jiffies.h>).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_SCHED_H
#define _PP_LINUX_SCHED_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include_next <linux/sched.h>

#include <sched.h>
#include <sys/types.h>

#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/processor.h>
#include <linux/smp.h>
#include <linux/types.h>

/* Task states (the kernel's values). */
#define TASK_RUNNING		0x00000000
#define TASK_INTERRUPTIBLE	0x00000001
#define TASK_UNINTERRUPTIBLE	0x00000002
#define __TASK_STOPPED		0x00000004
#define __TASK_TRACED		0x00000008
#define TASK_PARKED		0x00000040
#define TASK_DEAD		0x00000080
#define TASK_WAKEKILL		0x00000100
#define TASK_WAKING		0x00000200
#define TASK_NOLOAD		0x00000400
#define TASK_NEW		0x00000800
#define TASK_KILLABLE		(TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_IDLE		(TASK_UNINTERRUPTIBLE | TASK_NOLOAD)
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

#define PF_KTHREAD		0x00200000	/* a kthread */

enum {
	TASK_COMM_LEN = 16,
};

#define MAX_SCHEDULE_TIMEOUT	LONG_MAX

struct task_struct {
	unsigned int __state;		/* TASK_*; use the helpers below */
	unsigned int flags;		/* PF_KTHREAD */
	pid_t pid;			/* the thread id (gettid()) */
	pid_t tgid;			/* the process id */
	char comm[TASK_COMM_LEN];	/* thread name, NUL-terminated */
};

/**
 * get_current() - the calling thread's task (current)
 *
 * Context: any context.
 * Return: the task, never NULL.
 */
struct task_struct *get_current(void);
#define current			get_current()

#define task_is_running(task)	(READ_ONCE((task)->__state) == TASK_RUNNING)

/* Set the calling task's state, with a full barrier after it (so the
 * condition check that follows is not reordered before it). */
#define set_current_state(state_value)					\
	__atomic_store_n(&current->__state, (state_value), __ATOMIC_SEQ_CST)
/* Set the calling task's state without the barrier. */
#define __set_current_state(state_value)				\
	__atomic_store_n(&current->__state, (state_value), __ATOMIC_RELAXED)

/**
 * schedule() - give up the CPU
 *
 * If the task's state is not TASK_RUNNING, sleep until wake_up_process()
 * (or, in a kthread, kthread_stop()); then the state is TASK_RUNNING
 * again. In TASK_RUNNING this only yields.
 *
 * Context: process context.
 */
void schedule(void);

/**
 * schedule_timeout() - schedule(), sleeping at most a timeout
 * @timeout: jiffies; MAX_SCHEDULE_TIMEOUT: no limit
 *
 * A negative @timeout is an error: it is reported, the state set to
 * TASK_RUNNING, and 0 returned, as the kernel does.
 *
 * Context: process context.
 * Return: 0 if the time ran out, else the jiffies left
 * (MAX_SCHEDULE_TIMEOUT for no limit).
 */
long schedule_timeout(long timeout);
/* schedule_timeout() after setting the state (interruptible, ...). */
/**
 * schedule_timeout_interruptible() - schedule_timeout() in TASK_INTERRUPTIBLE
 * @timeout: jiffies
 *
 * Context: process context.
 * Return: as schedule_timeout().
 */
long schedule_timeout_interruptible(long timeout);
/**
 * schedule_timeout_uninterruptible() - schedule_timeout() in TASK_UNINTERRUPTIBLE
 * @timeout: jiffies
 *
 * Context: process context.
 * Return: as schedule_timeout().
 */
long schedule_timeout_uninterruptible(long timeout);
/**
 * schedule_timeout_killable() - schedule_timeout() in TASK_KILLABLE
 * @timeout: jiffies
 *
 * Context: process context.
 * Return: as schedule_timeout().
 */
long schedule_timeout_killable(long timeout);
/**
 * schedule_timeout_idle() - schedule_timeout() in TASK_IDLE
 * @timeout: jiffies
 *
 * Context: process context.
 * Return: as schedule_timeout().
 */
long schedule_timeout_idle(long timeout);

/**
 * wake_up_process() - make a task TASK_RUNNING and wake it
 * @p: the task (also a kthread not yet started)
 *
 * Context: any context.
 * Return: 1 if it was not running, 0 if it was.
 */
int wake_up_process(struct task_struct *p);

/**
 * set_cpus_allowed_ptr() - restrict a task to a set of CPUs
 * @p: the task: current, or a kthread not started yet
 * @new_mask: the CPUs
 *
 * For @p == current: if its CPU is in the mask, nothing moves; otherwise
 * the thread becomes the first CPU of the mask that no other thread owns
 * (the per-CPU state of the old id is handed back as at unregister, and
 * the thread is pinned to the host CPU of that number when it can be).
 * A kthread not started yet will start on the first free CPU of the
 * mask, as kthread_bind_mask().
 *
 * Context: process context.
 * Return: 0; -EINVAL for an empty mask, or when @p is another task that is
 * already running (pagepool cannot move another thread); -EBUSY if every
 * CPU of the mask is owned by other threads.
 */
int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask);

/* No signals are ever delivered here. */
static inline int signal_pending(struct task_struct *p)
{
	(void)p;
	return 0;
}

static inline int fatal_signal_pending(struct task_struct *p)
{
	(void)p;
	return 0;
}

static inline int signal_pending_state(unsigned int state, struct task_struct *p)
{
	(void)state;
	(void)p;
	return 0;
}

static inline pid_t task_pid_nr(struct task_struct *p)
{
	return p->pid;
}

static inline pid_t task_tgid_nr(struct task_struct *p)
{
	return p->tgid;
}

static inline bool need_resched(void)
{
	return false;
}

static inline void yield(void)
{
	sched_yield();
}

#pragma GCC visibility pop
#endif /* _PP_LINUX_SCHED_H */
