/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Execution context. Each thread carries a kernel-style preempt count:
 * local_bh_disable() adds SOFTIRQ_DISABLE_OFFSET, running softirqs (NAPI
 * polls, tasklets) adds SOFTIRQ_OFFSET, so in_softirq(),
 * in_serving_softirq() and in_task() answer as the kernel's do. The count is
 * thread-local and only its thread touches it.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_PREEMPT_H
#define _PP_LINUX_PREEMPT_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/compiler.h>

#define PREEMPT_MASK		0x000000ffU
#define SOFTIRQ_SHIFT		8
#define SOFTIRQ_OFFSET		(1U << SOFTIRQ_SHIFT)
#define SOFTIRQ_MASK		0x0000ff00U
#define SOFTIRQ_DISABLE_OFFSET	(2 * SOFTIRQ_OFFSET)
#define HARDIRQ_OFFSET		0x00010000U
#define HARDIRQ_MASK		0x000f0000U
#define NMI_MASK		0x00f00000U

/* Per-thread state behind smp_processor_id() and the preempt count. */
struct pp_thread_ctx {
	int cpu;			/* logical CPU id; -1 until registered */
	unsigned int preempt_count;
	unsigned int softirq_pending;	/* __PP_SOFTIRQ_* bits raised on this CPU */
	int rcu_nesting;		/* RCU read-side depth (bh regions included) */
};

/* softirq_pending bits: 1 << the kernel's softirq number (HI_SOFTIRQ,
 * NET_RX_SOFTIRQ, TASKLET_SOFTIRQ in <linux/interrupt.h>). */
#define __PP_SOFTIRQ_HI		(1U << 0)	/* tasklet_hi_schedule() */
#define __PP_SOFTIRQ_NET_RX	(1U << 3)	/* NAPI polls */
#define __PP_SOFTIRQ_TASKLET	(1U << 6)	/* tasklet_schedule() */
#define __PP_SOFTIRQ_ALL	(__PP_SOFTIRQ_HI | __PP_SOFTIRQ_NET_RX | __PP_SOFTIRQ_TASKLET)
/* Not a softirq: set while a thread past the CPU id limit holds the shared
 * CPU (<pagepool/runtime.h>, src/runtime/cpu.c), so that the outermost
 * local_bh_enable() takes its slow path, where the shared CPU is given
 * back. Registered threads never have it: their fast path is unchanged. */
#define __PP_SOFTIRQ_SHARED	(1U << 31)

extern __thread struct pp_thread_ctx __pp_ctx
	__attribute__((tls_model("initial-exec")));

static inline unsigned int preempt_count(void)
{
	return __pp_ctx.preempt_count;
}

#define softirq_count()		(preempt_count() & SOFTIRQ_MASK)
#define hardirq_count()		(preempt_count() & HARDIRQ_MASK)
#define irq_count()		(preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK | NMI_MASK))
#define in_softirq()		(softirq_count() != 0)
#define in_serving_softirq()	((softirq_count() & SOFTIRQ_OFFSET) != 0)
#define in_hardirq()		(hardirq_count() != 0)
#define in_irq()		in_hardirq()
#define in_nmi()		((preempt_count() & NMI_MASK) != 0)
#define in_interrupt()		(irq_count() != 0)
#define in_task()		(!(in_nmi() || in_hardirq() || in_serving_softirq()))
#define in_atomic()		(preempt_count() != 0)

/* Threads are not preempted by other threads of the same "CPU" (one thread
 * owns a CPU id), so these only keep the count for in_atomic(). */
#define preempt_disable()	do { __pp_ctx.preempt_count += 1; barrier(); } while (0)
#define preempt_enable()	do { barrier(); __pp_ctx.preempt_count -= 1; } while (0)
#define preempt_disable_notrace()	preempt_disable()
#define preempt_enable_notrace()	preempt_enable()
#define migrate_disable()	do { } while (0)
#define migrate_enable()	do { } while (0)

#pragma GCC visibility pop
#endif /* _PP_LINUX_PREEMPT_H */
