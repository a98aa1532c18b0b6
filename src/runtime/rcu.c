/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * RCU on liburcu's membarrier flavour (urcu-memb), read side inlined.
 *
 * This file includes liburcu's static read-side header only; it must not
 * see liburcu's own rcu_* name mapping or struct rcu_head, which would clash
 * with the kernel names we implement, so the handful of liburcu entry
 * points used here are declared below with their liburcu names.
 *
 * - Readers: every thread that owns a CPU id is registered with liburcu
 *   (pprt_rcu_thread_online()); read-side sections nest, and a bh-disabled
 *   region counts as one (see cpu.c).
 * - call_rcu(): callbacks are queued to one helper thread which waits a
 *   grace period per batch and runs them in queue order; kfree_rcu() passes
 *   the rcu_head offset in place of the function (offsets are < 4096, no
 *   function lives there).
 * - ThreadSanitizer cannot see the membarrier-based ordering between a
 *   reader's unlock and synchronize_rcu() returning, so under TSan each
 *   unlock releases and each grace period acquires one sync object: every
 *   reader that finished before the grace period happens-before the code
 *   after it, which is exactly RCU's guarantee.
 */
#define _LGPL_SOURCE 1
#include <urcu/static/urcu-memb.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/netdevice.h>	/* synchronize_net() */
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>

#include "runtime/runtime_internal.h"

/* liburcu-memb entry points (liburcu's own names, from urcu/urcu-memb.h). */
void urcu_memb_register_thread(void);
void urcu_memb_unregister_thread(void);
void urcu_memb_synchronize_rcu(void);
void urcu_memb_read_lock(void);
void urcu_memb_read_unlock(void);

/*
 * The read side: inlined from liburcu's static header, except under
 * ThreadSanitizer, where liburcu's plain (volatile) accesses to its
 * grace-period futex would be instrumented and reported as races; there we
 * call liburcu's out-of-line read side (same code, not instrumented) and
 * rely on the explicit happens-before annotation below.
 */
#ifdef PP_TSAN
#define pp_urcu_read_lock()	urcu_memb_read_lock()
#define pp_urcu_read_unlock()	urcu_memb_read_unlock()
#else
#define pp_urcu_read_lock()	_urcu_memb_read_lock()
#define pp_urcu_read_unlock()	_urcu_memb_read_unlock()
#endif

/* The kernel's callback_head, restated: linux/types.h cannot be included
 * next to liburcu's headers. Layouts must match (checked in rcu_cb.c). */
struct pprt_cb {
	struct pprt_cb *next;
	void (*func)(struct pprt_cb *head);
};

#ifdef PP_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
static char tsan_gp_sync;
#define tsan_reader_done()	__tsan_release(&tsan_gp_sync)
#define tsan_gp_done()		__tsan_acquire(&tsan_gp_sync)
#else
#define tsan_reader_done()	do { } while (0)
#define tsan_gp_done()		do { } while (0)
#endif

/* The nesting depth lives in the thread context (linux/preempt.h) so the
 * inline rcu_read_lock() can nest without a call. */
#define rcu_nesting	(__pp_ctx.rcu_nesting)
static __thread bool rcu_registered __attribute__((tls_model("initial-exec")));

void pprt_rcu_thread_online(void)
{
	if (!rcu_registered) {
		urcu_memb_register_thread();
		rcu_registered = true;
	}
}

void pprt_rcu_thread_offline(void)
{
	if (rcu_registered) {
		WARN(rcu_nesting, "thread gives up its CPU inside an RCU read-side section");
		urcu_memb_unregister_thread();
		rcu_registered = false;
	}
}

void pprt_rcu_read_lock(void)
{
	/* Readers must be registered: claiming a CPU id registers us. */
	if (unlikely(!rcu_registered))
		(void)smp_processor_id();
	pp_urcu_read_lock();
	rcu_nesting++;
}

void pprt_rcu_read_unlock(void)
{
	if (WARN_ONCE(rcu_nesting <= 0, "rcu_read_unlock() without rcu_read_lock()"))
		return;
	rcu_nesting--;
	tsan_reader_done();
	pp_urcu_read_unlock();
}

int pprt_rcu_nesting(void)
{
	return rcu_nesting;
}

void __pp_rcu_read_lock(void)
{
	pprt_rcu_read_lock();
}

void __pp_rcu_read_unlock(void)
{
	pprt_rcu_read_unlock();
}

bool __pp_rcu_read_lock_held(void)
{
	return rcu_nesting > 0;
}

void synchronize_rcu(void)
{
	/* Waiting for ourselves would never end: refuse loudly instead. */
	if (WARN(rcu_nesting > 0, "synchronize_rcu() inside an RCU read-side section"))
		return;
	/* A fork child's only thread is the caller, outside a reader: the
	 * grace period is over already (fork.c). */
	if (unlikely(pprt_fork_child("synchronize_rcu()")))
		return;	/* (no other thread to order against: no barrier) */
	urcu_memb_synchronize_rcu();
	tsan_gp_done();
}

void synchronize_rcu_expedited(void)
{
	synchronize_rcu();
}

void synchronize_net(void)
{
	synchronize_rcu();
}

/* call_rcu() machinery. */

static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cb_cond = PTHREAD_COND_INITIALIZER;
static struct pprt_cb *cb_head, **cb_tail = &cb_head;
static bool cb_thread_started;

#define KFREE_RCU_OFFSET_MAX	4096

static void run_callbacks(struct pprt_cb *list)
{
	while (list) {
		struct pprt_cb *next = list->next;
		uintptr_t f = (uintptr_t)list->func;

		if (f < KFREE_RCU_OFFSET_MAX)
			free((char *)list - f);
		else
			list->func(list);
		list = next;
	}
}

static void *cb_thread(void *arg)
{
	(void)arg;
	pprt_thread_mark_library();	/* runs on the shared CPU, takes no id */
	for (;;) {
		struct pprt_cb *list;

		pthread_mutex_lock(&cb_lock);
		while (!cb_head)
			pthread_cond_wait(&cb_cond, &cb_lock);
		list = cb_head;
		cb_head = NULL;
		cb_tail = &cb_head;
		pthread_mutex_unlock(&cb_lock);

		synchronize_rcu();
		run_callbacks(list);
	}
	return NULL;
}

void pprt_call_rcu(struct pprt_cb *head, void (*func)(struct pprt_cb *));

void pprt_call_rcu(struct pprt_cb *head, void (*func)(struct pprt_cb *))
{
	pthread_t tid;

	head->func = func;
	head->next = NULL;
	/* No callback thread in a fork child: outside a reader the grace
	 * period is over (the caller is the only thread), so the callback
	 * runs now; inside one it cannot, and stays queued (fork.c). */
	if (unlikely(pprt_fork_child("call_rcu()"))) {
		if (!rcu_nesting)
			run_callbacks(head);
		return;
	}
	pthread_mutex_lock(&cb_lock);
	if (!cb_thread_started) {
		pthread_attr_t attr;

		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&tid, &attr, cb_thread, NULL))
			BUG();
		pthread_attr_destroy(&attr);
		cb_thread_started = true;
	}
	*cb_tail = head;
	cb_tail = &head->next;
	pthread_cond_signal(&cb_cond);
	pthread_mutex_unlock(&cb_lock);
}

struct barrier_cb {
	struct pprt_cb cb;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
};

static void barrier_fn(struct pprt_cb *head)
{
	struct barrier_cb *b = (struct barrier_cb *)head;

	pthread_mutex_lock(&b->lock);
	b->done = true;
	pthread_cond_signal(&b->cond);
	pthread_mutex_unlock(&b->lock);
}

/* Callbacks run in queue order, so once ours ran, all earlier ones did. */
void rcu_barrier(void)
{
	struct barrier_cb b = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};

	if (unlikely(pprt_fork_child("rcu_barrier()")))
		return;
	pprt_call_rcu(&b.cb, barrier_fn);
	pthread_mutex_lock(&b.lock);
	while (!b.done)
		pthread_cond_wait(&b.cond, &b.lock);
	pthread_mutex_unlock(&b.lock);
	pthread_cond_destroy(&b.cond);
	pthread_mutex_destroy(&b.lock);
}
