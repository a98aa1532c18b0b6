/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * RCU, on liburcu's membarrier flavour (urcu-memb): readers pay a
 * thread-local load and store; synchronize_rcu() uses sys_membarrier.
 *
 * Kernel semantics kept:
 *   - read-side sections nest, and may run in any context;
 *   - local_bh_disable() regions (so every NAPI poll) are read-side
 *     sections too, as in the kernel since v4.20: synchronize_rcu() waits
 *     for them;
 *   - call_rcu() callbacks run on a helper thread after a grace period;
 *     rcu_barrier() waits for all queued callbacks.
 * Calling synchronize_rcu() inside a read-side section deadlocks (as in the
 * kernel); it is reported with a WARN first.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_RCUPDATE_H
#define _PP_LINUX_RCUPDATE_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/bottom_half.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/types.h>

/**
 * __pp_rcu_read_lock() - enter the outermost RCU read-side section
 *
 * What rcu_read_lock() calls when the thread is in none (liburcu's
 * rcu_read_lock()).
 *
 * Context: any context.
 */
void __pp_rcu_read_lock(void);
/**
 * __pp_rcu_read_unlock() - leave the outermost RCU read-side section
 *
 * Context: any context.
 */
void __pp_rcu_read_unlock(void);
/**
 * __pp_rcu_read_lock_held() - whether the calling thread is in an RCU read-side section
 *
 * rcu_read_lock_held(): a local_bh_disable() region counts, as in the
 * kernel.
 *
 * Context: any context.
 * Return: true if it is.
 */
bool __pp_rcu_read_lock_held(void);

/* Nested sections (the common case inside softirq) are a thread-local
 * increment; only the outermost one calls into liburcu. */
static inline void rcu_read_lock(void)
{
	if (__pp_ctx.rcu_nesting > 0)
		__pp_ctx.rcu_nesting++;
	else
		__pp_rcu_read_lock();
	barrier();
}

static inline void rcu_read_unlock(void)
{
	barrier();
	if (__pp_ctx.rcu_nesting > 1)
		__pp_ctx.rcu_nesting--;
	else
		__pp_rcu_read_unlock();
}

#define rcu_read_lock_bh()	local_bh_disable()
#define rcu_read_unlock_bh()	local_bh_enable()
#define rcu_read_lock_held()	__pp_rcu_read_lock_held()

/**
 * synchronize_rcu() - wait for an RCU grace period
 *
 * Every read-side section that began before the call (bottom-half-disabled
 * regions included) has ended when it returns. Inside a read-side section
 * it would deadlock, as in the kernel: a WARN first.
 *
 * Context: process context; may sleep.
 */
void synchronize_rcu(void);
/**
 * synchronize_rcu_expedited() - synchronize_rcu(), the same here
 *
 * Context: process context; may sleep.
 */
void synchronize_rcu_expedited(void);
/**
 * call_rcu() - run a callback after an RCU grace period
 * @head: the rcu_head, in the object the callback frees
 * @func: the callback, run on a helper thread
 *
 * Context: any context.
 */
void call_rcu(struct rcu_head *head, rcu_callback_t func);
/**
 * rcu_barrier() - wait until every queued call_rcu() callback has run
 *
 * Context: process context; may sleep.
 */
void rcu_barrier(void);

/* kfree_rcu(ptr, field): free @ptr after a grace period. The offset of the
 * rcu_head travels in the callback pointer, as the kernel does it. */
/**
 * __pp_kfree_rcu() - the body of kfree_rcu()
 * @head: the rcu_head in the object
 * @offset: its offset in the object, which is freed after a grace period
 *
 * Context: any context.
 */
void __pp_kfree_rcu(struct rcu_head *head, unsigned long offset);
#define kfree_rcu(ptr, rhf)						\
	__pp_kfree_rcu(&(ptr)->rhf, __builtin_offsetof(__typeof__(*(ptr)), rhf))
#define kvfree_rcu(ptr, rhf)	kfree_rcu(ptr, rhf)

#define rcu_dereference(p)		__atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_dereference_bh(p)		rcu_dereference(p)
#define rcu_dereference_protected(p, c)	(p)
#define rcu_dereference_check(p, c)	rcu_dereference(p)
#define rcu_access_pointer(p)		READ_ONCE(p)
#define rcu_assign_pointer(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE(p, v)

#pragma GCC visibility pop
#endif /* _PP_LINUX_RCUPDATE_H */
