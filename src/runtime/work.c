/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Work items and delayed work on one worker thread, and jiffies.
 *
 * The queue is sorted by expiry (FIFO among equal expiries) under wq_lock;
 * the worker sleeps on a CLOCK_MONOTONIC timed wait until the first item is
 * due. "running" names the item being executed, so cancel_*_sync() and
 * flush_*() can wait for it (wq_done is broadcast after each item).
 * The worker is a library thread: it runs on the shared CPU and never takes
 * a CPU id from the application (cpu.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include <linux/bug.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/workqueue.h>
#include <pagepool/runtime.h>

#include "runtime/runtime_internal.h"

struct workqueue_struct {
	const char *name;
};

static struct workqueue_struct wq_system = { "events" };
struct workqueue_struct *system_wq = &wq_system;
struct workqueue_struct *system_long_wq = &wq_system;
struct workqueue_struct *system_unbound_wq = &wq_system;

static pthread_mutex_t wq_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wq_cond;		/* queue changed */
static pthread_cond_t wq_done;		/* an item finished */
static LIST_HEAD(wq_list);
static struct work_struct *wq_running;
static pthread_t wq_thread;
static bool wq_started;

unsigned long __pp_jiffies(void)
{
	return (unsigned long)(ktime_get_ns() / NSEC_PER_MSEC);
}

static void *worker(void *arg);

static void wq_start_locked(void)
{
	pthread_condattr_t ca;
	pthread_attr_t attr;

	if (wq_started)
		return;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&wq_cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&wq_done, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&wq_thread, &attr, worker, NULL))
		BUG();
	pthread_attr_destroy(&attr);
	wq_started = true;
}

/* Insert keeping the list sorted by expiry, after equal expiries. */
static void wq_insert_locked(struct work_struct *work)
{
	struct work_struct *pos;

	list_for_each_entry(pos, &wq_list, entry) {
		if (time_after(pos->expires_ms, work->expires_ms)) {
			list_add_tail(&work->entry, &pos->entry);
			goto inserted;
		}
	}
	list_add_tail(&work->entry, &wq_list);
inserted:
	work->pending = 1;
	pthread_cond_signal(&wq_cond);
}

static void *worker(void *arg)
{
	(void)arg;
	pprt_thread_mark_library();	/* runs on the shared CPU, takes no id */
	pthread_mutex_lock(&wq_lock);
	for (;;) {
		struct work_struct *work;
		unsigned long now;

		if (list_empty(&wq_list)) {
			/* Idle: the idle hooks run (the mm layer gives back
			 * what a thread with an id keeps on its per-CPU lists;
			 * on the shared CPU the worker keeps none). */
			pprt_cpu_idle();
			pthread_cond_wait(&wq_cond, &wq_lock);
			continue;
		}
		work = list_first_entry(&wq_list, struct work_struct, entry);
		now = __pp_jiffies();
		if (time_after(work->expires_ms, now)) {
			u64 ns = (u64)work->expires_ms * NSEC_PER_MSEC;
			struct timespec ts = { (time_t)(ns / NSEC_PER_SEC),
					       (long)(ns % NSEC_PER_SEC) };

			pprt_cpu_idle();	/* idle until then */
			pthread_cond_timedwait(&wq_cond, &wq_lock, &ts);
			continue;
		}
		list_del_init(&work->entry);
		work->pending = 0;
		wq_running = work;
		pthread_mutex_unlock(&wq_lock);

		work->func(work);

		pthread_mutex_lock(&wq_lock);
		wq_running = NULL;
		pthread_cond_broadcast(&wq_done);
	}
	return NULL;
}

bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
			unsigned long delay)
{
	struct work_struct *work = &dw->work;
	bool queued = false;

	(void)wq;
	pthread_mutex_lock(&wq_lock);
	wq_start_locked();
	if (!work->pending) {
		work->expires_ms = __pp_jiffies() + delay;
		wq_insert_locked(work);
		queued = true;
	}
	pthread_mutex_unlock(&wq_lock);
	return queued;
}

bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
		      unsigned long delay)
{
	struct work_struct *work = &dw->work;
	bool was_pending;

	(void)wq;
	pthread_mutex_lock(&wq_lock);
	wq_start_locked();
	was_pending = work->pending;
	if (was_pending)
		list_del_init(&work->entry);
	work->expires_ms = __pp_jiffies() + delay;
	wq_insert_locked(work);
	pthread_mutex_unlock(&wq_lock);
	return was_pending;
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	return queue_delayed_work(wq, container_of(work, struct delayed_work, work), 0);
}

static bool cancel_locked(struct work_struct *work)
{
	if (!work->pending)
		return false;
	list_del_init(&work->entry);
	work->pending = 0;
	return true;
}

bool cancel_delayed_work(struct delayed_work *dw)
{
	bool ret;

	pthread_mutex_lock(&wq_lock);
	ret = cancel_locked(&dw->work);
	pthread_mutex_unlock(&wq_lock);
	return ret;
}

/* Wait until @work is neither queued nor running. The worker itself may
 * cancel or flush the item it is running: then there is nothing to wait for. */
static void wait_idle_locked(struct work_struct *work)
{
	bool on_worker = wq_started && pthread_equal(pthread_self(), wq_thread);

	/* No worker in a fork child: nothing would ever finish (fork.c). */
	if (unlikely(pprt_fork_child("cancel/flush of a work item")))
		return;
	while ((work->pending || wq_running == work) && !(on_worker && wq_running == work))
		pthread_cond_wait(&wq_done, &wq_lock);
}

bool cancel_work_sync(struct work_struct *work)
{
	bool ret;

	pthread_mutex_lock(&wq_lock);
	ret = cancel_locked(work);
	if (wq_started)
		wait_idle_locked(work);
	pthread_mutex_unlock(&wq_lock);
	return ret;
}

bool cancel_delayed_work_sync(struct delayed_work *dw)
{
	return cancel_work_sync(&dw->work);
}

bool flush_work(struct work_struct *work)
{
	bool waited;

	pthread_mutex_lock(&wq_lock);
	waited = work->pending || wq_running == work;
	if (work->pending) {	/* due now: move it to the front of the queue */
		list_del_init(&work->entry);
		work->expires_ms = __pp_jiffies();
		list_add(&work->entry, &wq_list);
		pthread_cond_signal(&wq_cond);
	}
	if (wq_started)
		wait_idle_locked(work);
	pthread_mutex_unlock(&wq_lock);
	return waited;
}

bool flush_delayed_work(struct delayed_work *dw)
{
	return flush_work(&dw->work);
}

bool work_pending(const struct work_struct *work)
{
	bool ret;

	pthread_mutex_lock(&wq_lock);
	ret = work->pending;
	pthread_mutex_unlock(&wq_lock);
	return ret;
}

/* pp_workqueue_run_all(): make every queued item due now (keeping their
 * order), queue a marker behind them and wait for the marker to run. Items
 * that re-queue themselves while this runs land behind the marker. */
struct run_all_marker {
	struct work_struct work;
	bool done;
};

static void marker_fn(struct work_struct *work)
{
	struct run_all_marker *m = container_of(work, struct run_all_marker, work);

	pthread_mutex_lock(&wq_lock);
	m->done = true;
	pthread_mutex_unlock(&wq_lock);
}

void pp_workqueue_run_all(void)
{
	struct run_all_marker m = { .done = false };
	struct work_struct *pos;
	unsigned long now = __pp_jiffies();

	/* The worker is missing in a fork child, and wq_lock may be held
	 * by it for good (fork.c). */
	if (unlikely(pprt_fork_child("pp_workqueue_run_all()")))
		return;
	INIT_WORK(&m.work, marker_fn);
	pthread_mutex_lock(&wq_lock);
	wq_start_locked();
	list_for_each_entry(pos, &wq_list, entry)
		pos->expires_ms = now;
	m.work.expires_ms = now;
	wq_insert_locked(&m.work);
	while (!m.done || wq_running == &m.work)
		pthread_cond_wait(&wq_done, &wq_lock);
	pthread_mutex_unlock(&wq_lock);
}
