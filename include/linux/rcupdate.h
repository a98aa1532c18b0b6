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

void __pp_rcu_read_lock(void);
void __pp_rcu_read_unlock(void);
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

void synchronize_rcu(void);
void synchronize_rcu_expedited(void);
void call_rcu(struct rcu_head *head, rcu_callback_t func);
void rcu_barrier(void);

/* kfree_rcu(ptr, field): free @ptr after a grace period. The offset of the
 * rcu_head travels in the callback pointer, as the kernel does it. */
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
