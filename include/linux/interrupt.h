/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Softirq numbers and tasklets, with the kernel's semantics over
 * threads-as-CPUs (<pagepool/runtime.h>).
 *
 * tasklet_schedule() queues the tasklet on the calling CPU (the registered
 * thread; an unregistered one gets a CPU id first) and raises
 * TASKLET_SOFTIRQ there; tasklet_hi_schedule() uses HI_SOFTIRQ, which runs
 * first. The tasklet then runs on that CPU, as a softirq: inside an RCU
 * read-side section with SOFTIRQ_OFFSET in the preempt count, so
 * in_softirq(), in_serving_softirq() and in_interrupt() are true and
 * in_task() is false. A tasklet never runs on two CPUs at once, runs once
 * however often it was scheduled before it ran, and if scheduled again
 * while running runs again afterwards.
 *
 * When it runs: at the points where the kernel would run a softirq raised
 * by that CPU without preempting its task, namely
 *   - the outermost local_bh_enable() (or spin_unlock_bh() ...),
 *   - right after a softirq handler, when it was raised from softirq (up
 *     to the kernel's 10 rounds; a NAPI raised again is polled at the
 *     next of these points instead),
 *   - when the CPU's task blocks: mutex_lock() on a held mutex,
 *     wait_for_completion(), schedule(), schedule_timeout(), msleep() and
 *     kthread_stop() first run the pending softirqs (ksoftirqd's job while
 *     the task sleeps),
 *   - pp_do_softirq(), and the module runner after module_init() and
 *     around module_exit(),
 *   - when the thread gives its CPU id back (pp_thread_unregister(), thread
 *     exit): enabled tasklets run first; disabled ones stay queued for the
 *     next owner of the id.
 * A task that schedules a tasklet and then spins without reaching one of
 * these never sees it run (the kernel's ksoftirqd could preempt it).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_INTERRUPT_H
#define _PP_LINUX_INTERRUPT_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/types.h>

enum {
	HI_SOFTIRQ = 0,
	TIMER_SOFTIRQ,
	NET_TX_SOFTIRQ,
	NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ,
	IRQ_POLL_SOFTIRQ,
	TASKLET_SOFTIRQ,
	SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ,
	RCU_SOFTIRQ,
	NR_SOFTIRQS
};

typedef enum irqreturn {
	IRQ_NONE = 0,
	IRQ_HANDLED = 1 << 0,
	IRQ_WAKE_THREAD = 1 << 1,
} irqreturn_t;

struct tasklet_struct {
	struct tasklet_struct *next;	/* on its CPU's list while scheduled */
	unsigned long state;		/* TASKLET_STATE_* bits */
	atomic_t count;			/* > 0: disabled */
	bool use_callback;		/* callback (tasklet_setup) or func(data) */
	union {
		void (*func)(unsigned long data);
		void (*callback)(struct tasklet_struct *t);
	};
	unsigned long data;
};

enum {
	TASKLET_STATE_SCHED,	/* queued, will run */
	TASKLET_STATE_RUN,	/* running now */
};

#define DECLARE_TASKLET(name, _callback)				\
	struct tasklet_struct name = {					\
		.count = ATOMIC_INIT(0), .callback = _callback,		\
		.use_callback = true, }

#define DECLARE_TASKLET_DISABLED(name, _callback)			\
	struct tasklet_struct name = {					\
		.count = ATOMIC_INIT(1), .callback = _callback,		\
		.use_callback = true, }

/* The pre-v5.9 form: func(data) with data 0. */
#define DECLARE_TASKLET_OLD(name, _func)				\
	struct tasklet_struct name = {					\
		.count = ATOMIC_INIT(0), .func = _func, }

#define DECLARE_TASKLET_DISABLED_OLD(name, _func)			\
	struct tasklet_struct name = {					\
		.count = ATOMIC_INIT(1), .func = _func, }

/* The structure that embeds @callback_tasklet as @tasklet_fieldname. */
#define from_tasklet(var, callback_tasklet, tasklet_fieldname)		\
	container_of(callback_tasklet, __typeof__(*var), tasklet_fieldname)

/**
 * tasklet_setup() - initialise a tasklet, enabled and not scheduled
 * @t: the tasklet
 * @callback: called with @t when it runs
 *
 * Context: any context.
 */
void tasklet_setup(struct tasklet_struct *t, void (*callback)(struct tasklet_struct *));
/**
 * tasklet_init() - initialise a tasklet, the pre-v5.9 form
 * @t: the tasklet
 * @func: called with @data when it runs
 * @data: passed to @func
 *
 * Context: any context.
 */
void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long), unsigned long data);

/**
 * __tasklet_schedule() - queue a tasklet on this CPU
 * @t: the tasklet, whose SCHED bit the caller set
 *
 * The slow path of tasklet_schedule().
 *
 * Context: any context.
 */
void __tasklet_schedule(struct tasklet_struct *t);
/**
 * __tasklet_hi_schedule() - queue a tasklet on this CPU in HI_SOFTIRQ
 * @t: the tasklet, whose SCHED bit the caller set
 *
 * The slow path of tasklet_hi_schedule().
 *
 * Context: any context.
 */
void __tasklet_hi_schedule(struct tasklet_struct *t);

/* Schedule @t to run on the calling CPU, unless it is scheduled already
 * (then it runs once). Any context. */
static inline void tasklet_schedule(struct tasklet_struct *t)
{
	if (!test_and_set_bit(TASKLET_STATE_SCHED, &t->state))
		__tasklet_schedule(t);
}

/* As tasklet_schedule(), in HI_SOFTIRQ: before NAPI and normal tasklets. */
static inline void tasklet_hi_schedule(struct tasklet_struct *t)
{
	if (!test_and_set_bit(TASKLET_STATE_SCHED, &t->state))
		__tasklet_hi_schedule(t);
}

/* Claim the RUN bit: returns 1 if it was free (we run @t), 0 if @t runs
 * elsewhere. */
static inline int tasklet_trylock(struct tasklet_struct *t)
{
	return !test_and_set_bit(TASKLET_STATE_RUN, &t->state);
}

/**
 * tasklet_unlock() - release a tasklet's RUN bit
 * @t: the tasklet
 *
 * Context: any context.
 */
void tasklet_unlock(struct tasklet_struct *t);
/**
 * tasklet_unlock_wait() - wait until a tasklet is not running
 * @t: the tasklet
 *
 * Sleeps.
 *
 * Context: process context, not from @t.
 */
void tasklet_unlock_wait(struct tasklet_struct *t);
/**
 * tasklet_unlock_spin_wait() - tasklet_unlock_wait(), spinning
 * @t: the tasklet
 *
 * Context: any context (for atomic context), not from @t.
 */
void tasklet_unlock_spin_wait(struct tasklet_struct *t);

/* Disable @t without waiting: a scheduled @t stays queued and runs after
 * tasklet_enable(). Disables nest. Any context. */
static inline void tasklet_disable_nosync(struct tasklet_struct *t)
{
	atomic_inc(&t->count);
	smp_mb__after_atomic();
}

/* Disable @t and wait until it is not running. Process context. */
static inline void tasklet_disable(struct tasklet_struct *t)
{
	tasklet_disable_nosync(t);
	tasklet_unlock_wait(t);
	smp_mb();
}

/* Disable @t and spin until it is not running. Any context. */
static inline void tasklet_disable_in_atomic(struct tasklet_struct *t)
{
	tasklet_disable_nosync(t);
	tasklet_unlock_spin_wait(t);
	smp_mb();
}

/* Undo one tasklet_disable(). Any context. */
static inline void tasklet_enable(struct tasklet_struct *t)
{
	smp_mb__before_atomic();
	atomic_dec(&t->count);
}

/**
 * tasklet_kill() - wait until a tasklet is neither scheduled nor running
 * @t: the tasklet; left so (a later tasklet_schedule() queues it again)
 *
 * If @t is queued on the calling CPU this runs the CPU's pending softirqs;
 * if it is queued on another CPU it waits for that thread to run it. As in
 * the kernel, killing a tasklet that is scheduled but disabled waits until
 * it is enabled (a WARN says so after a few seconds).
 *
 * Context: process context; from softirq it prints the kernel's notice
 * and, for a tasklet queued on this CPU, never returns.
 */
void tasklet_kill(struct tasklet_struct *t);

#pragma GCC visibility pop
#endif /* _PP_LINUX_INTERRUPT_H */
