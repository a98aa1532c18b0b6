/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The in-kernel perf counter calls, over the system's UAPI
 * <linux/perf_event.h> (struct perf_event_attr, PERF_TYPE_*, PERF_FORMAT_*),
 * which stays visible. A program cannot create kernel counters: the
 * creation call fails as the kernel's does when the PMU is unavailable,
 * with ERR_PTR(-EOPNOTSUPP), and the other calls accept what it returned
 * (an error pointer or NULL) and do nothing. Code that wants counters from
 * userspace uses perf_event_open(2) with the same attr.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_PERF_EVENT_H
#define _PP_LINUX_PERF_EVENT_H

#include_next <linux/perf_event.h>

#include <linux/err.h>
#include <linux/types.h>

struct perf_event;		/* never allocated here */
struct perf_sample_data;
struct pt_regs;
struct task_struct;

typedef void (*perf_overflow_handler_t)(struct perf_event *, struct perf_sample_data *,
					struct pt_regs *regs);

/* Returns ERR_PTR(-EOPNOTSUPP): no kernel counters here. Any context. */
static inline struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t callback, void *context)
{
	(void)attr;
	(void)cpu;
	(void)task;
	(void)callback;
	(void)context;
	return (struct perf_event *)ERR_PTR(-EOPNOTSUPP);
}

static inline void perf_event_enable(struct perf_event *event)
{
	(void)event;
}

static inline void perf_event_disable(struct perf_event *event)
{
	(void)event;
}

/* Returns 0 (nothing to release). */
static inline int perf_event_release_kernel(struct perf_event *event)
{
	(void)event;
	return 0;
}

/* Reads 0 for every counter. */
static inline u64 perf_event_read_value(struct perf_event *event, u64 *enabled, u64 *running)
{
	(void)event;
	*enabled = 0;
	*running = 0;
	return 0;
}

#endif /* _PP_LINUX_PERF_EVENT_H */
