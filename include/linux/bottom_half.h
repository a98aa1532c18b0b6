/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * local_bh_disable()/local_bh_enable(). As in the kernel (since RCU flavour
 * consolidation in v4.20), a bottom-half-disabled region is an RCU read-side
 * critical section: synchronize_rcu() waits for it. The outermost
 * local_bh_enable() runs the softirqs (NAPI polls, tasklets) raised
 * meanwhile.
 * Nesting is free; only the outermost transition calls into the library.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_BOTTOM_HALF_H
#define _PP_LINUX_BOTTOM_HALF_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/preempt.h>

/**
 * __pp_local_bh_disable_outer() - the outermost local_bh_disable()
 *
 * Enters the bottom-half-disabled region (an RCU read-side section; on the
 * shared CPU, takes its lock).
 *
 * Context: any context.
 */
void __pp_local_bh_disable_outer(void);
/**
 * __pp_local_bh_enable_outer() - the outermost local_bh_enable()
 *
 * Leaves the region and runs the softirqs raised meanwhile.
 *
 * Context: the end of a bottom-half-disabled region.
 */
void __pp_local_bh_enable_outer(void);

static inline void local_bh_disable(void)
{
	if (__pp_ctx.preempt_count & SOFTIRQ_MASK)
		__pp_ctx.preempt_count += SOFTIRQ_DISABLE_OFFSET;
	else
		__pp_local_bh_disable_outer();
	barrier();
}

static inline void local_bh_enable(void)
{
	barrier();
	if ((__pp_ctx.preempt_count & SOFTIRQ_MASK) > SOFTIRQ_DISABLE_OFFSET)
		__pp_ctx.preempt_count -= SOFTIRQ_DISABLE_OFFSET;
	else
		__pp_local_bh_enable_outer();
}

/*
 * The calling CPU's task is about to block (mutex, completion, sleep): run
 * the softirqs raised on this CPU first, as the kernel's ksoftirqd would
 * while the task sleeps. Only from plain task context (preempt count 0);
 * costs one thread-local load when nothing is raised.
 */
/**
 * __pp_softirq_before_sleep() - run this CPU's raised softirqs before the task blocks
 *
 * Context: plain task context (preempt count 0).
 */
void __pp_softirq_before_sleep(void);

static inline bool __pp_softirqs_due_before_sleep(void)
{
	return unlikely(__pp_ctx.softirq_pending) && !__pp_ctx.preempt_count;
}

static inline void __pp_before_sleep(void)
{
	if (__pp_softirqs_due_before_sleep())
		__pp_softirq_before_sleep();
}

#pragma GCC visibility pop
#endif
