/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Work items and delayed work on one worker thread (the kernel's system_wq,
 * minus concurrency): items run one at a time, in expiry order, outside
 * any softirq section. The worker starts on first use.
 *
 * Contract, as in the kernel: a work item may be queued while it runs (it
 * runs again); cancel_*_sync() and flush_*() wait for a running instance;
 * the memory of a queued item must stay valid until it ran or was cancelled.
 * Not here yet: workqueues of one's own (alloc_workqueue(),
 * destroy_workqueue(), flush_workqueue(), the WQ_* flags); kernel code
 * that makes one does not compile against these headers. system_wq and its
 * aliases are the one queue.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_WORKQUEUE_H
#define _PP_LINUX_WORKQUEUE_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/kernel.h>
#include <linux/types.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	struct list_head entry;		/* on the worker's queue */
	work_func_t func;
	unsigned long expires_ms;	/* CLOCK_MONOTONIC ms; 0 = now */
	int pending;			/* queued, not yet started */
};

struct delayed_work {
	struct work_struct work;
};

struct workqueue_struct;
extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_long_wq;
extern struct workqueue_struct *system_unbound_wq;

#define __WORK_INITIALIZER(n, f)	{ .entry = { &(n).entry, &(n).entry }, .func = (f) }
#define DECLARE_WORK(n, f)		struct work_struct n = __WORK_INITIALIZER(n, f)
#define DECLARE_DELAYED_WORK(n, f)	struct delayed_work n = { .work = __WORK_INITIALIZER((n).work, f) }

static inline void INIT_WORK(struct work_struct *work, work_func_t func)
{
	work->entry.next = work->entry.prev = &work->entry;
	work->func = func;
	work->expires_ms = 0;
	work->pending = 0;
}

#define INIT_DELAYED_WORK(dw, f)	INIT_WORK(&(dw)->work, (f))
#define INIT_DEFERRABLE_WORK(dw, f)	INIT_WORK(&(dw)->work, (f))

static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

/**
 * queue_delayed_work() - queue a work item to run after a delay
 * @wq: the workqueue (system_wq, ...: all run on the library's worker thread)
 * @dw: the item
 * @delay: jiffies to wait
 *
 * Context: any context.
 * Return: true if queued; false if it was already queued (then its expiry
 * is left alone, as in the kernel).
 */
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
			unsigned long delay);
/**
 * mod_delayed_work() - queue a work item, or change the expiry of a queued one
 * @wq: the workqueue
 * @dw: the item
 * @delay: jiffies to wait from now
 *
 * Context: any context.
 * Return: false if it was idle and is now queued, true if a queued item got
 * the new expiry.
 */
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
		      unsigned long delay);
/**
 * queue_work() - queue a work item to run as soon as the worker can
 * @wq: the workqueue
 * @work: the item
 *
 * Context: any context.
 * Return: true if queued; false if it was already queued.
 */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
/**
 * cancel_delayed_work() - dequeue a delayed work item
 * @dw: the item
 *
 * Does not wait for a running instance.
 *
 * Context: any context.
 * Return: whether it was queued.
 */
bool cancel_delayed_work(struct delayed_work *dw);
/**
 * cancel_delayed_work_sync() - dequeue a delayed work item and wait for it
 * @dw: the item
 *
 * Waits for a running instance to finish.
 *
 * Context: process context, not from the item itself.
 * Return: whether it was queued.
 */
bool cancel_delayed_work_sync(struct delayed_work *dw);
/**
 * cancel_work_sync() - dequeue a work item and wait for it
 * @work: the item
 *
 * Context: process context, not from the item itself.
 * Return: whether it was queued.
 */
bool cancel_work_sync(struct work_struct *work);
/**
 * flush_work() - run a queued work item now, or wait for the running one
 * @work: the item
 *
 * Context: process context, not from the item itself.
 * Return: whether it waited for anything.
 */
bool flush_work(struct work_struct *work);
/**
 * flush_delayed_work() - run a queued delayed work item now, whatever its expiry
 * @dw: the item
 *
 * Context: process context, not from the item itself.
 * Return: whether it waited for anything.
 */
bool flush_delayed_work(struct delayed_work *dw);
/**
 * work_pending() - whether a work item is queued
 * @work: the item
 *
 * Context: any context.
 * Return: true if it is queued and has not started.
 */
bool work_pending(const struct work_struct *work);
#define delayed_work_pending(dw)	work_pending(&(dw)->work)

static inline bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}

static inline bool schedule_delayed_work(struct delayed_work *dw, unsigned long delay)
{
	return queue_delayed_work(system_wq, dw, delay);
}

#pragma GCC visibility pop
#endif /* _PP_LINUX_WORKQUEUE_H */
