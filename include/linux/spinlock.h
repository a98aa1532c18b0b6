/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * spinlock_t: a test-and-test-and-set lock. Acquire is one atomic exchange
 * when uncontended; waiters spin on a plain load with cpu_relax() and, past
 * a bound, yield the host CPU, because a userspace lock holder can be
 * preempted (the kernel's cannot, while it holds a spinlock).
 * The _bh variants also disable bottom halves, the _irq variants are the
 * plain ones (there are no hard interrupts here).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_SPINLOCK_H
#define _PP_LINUX_SPINLOCK_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/bottom_half.h>
#include <linux/compiler.h>
#include <linux/types.h>

typedef struct spinlock {
	int locked;
} spinlock_t;
typedef spinlock_t raw_spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name)	{ .locked = 0 }
#define DEFINE_SPINLOCK(name)		spinlock_t name = __SPIN_LOCK_UNLOCKED(name)
#define DEFINE_RAW_SPINLOCK(name)	DEFINE_SPINLOCK(name)

/**
 * __pp_spin_lock_slow() - spin_lock() when the lock is taken
 * @lock: the lock
 *
 * Spins, then yields, until the lock is free.
 *
 * Context: any context.
 */
void __pp_spin_lock_slow(spinlock_t *lock);

static inline void spin_lock_init(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELAXED);
}

static inline bool spin_trylock(spinlock_t *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED) == 0 &&
	       __atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE) == 0;
}

static inline void spin_lock(spinlock_t *lock)
{
	if (unlikely(__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE)))
		__pp_spin_lock_slow(lock);
}

static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED) != 0;
}

static inline void spin_lock_bh(spinlock_t *lock)
{
	local_bh_disable();
	spin_lock(lock);
}

static inline void spin_unlock_bh(spinlock_t *lock)
{
	spin_unlock(lock);
	local_bh_enable();
}

static inline bool spin_trylock_bh(spinlock_t *lock)
{
	local_bh_disable();
	if (spin_trylock(lock))
		return true;
	local_bh_enable();
	return false;
}

#define spin_lock_irq(lock)			spin_lock(lock)
#define spin_unlock_irq(lock)			spin_unlock(lock)
#define spin_lock_irqsave(lock, flags)		do { (flags) = 0; spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags)	do { (void)(flags); spin_unlock(lock); } while (0)
#define raw_spin_lock_init(l)			spin_lock_init(l)
#define raw_spin_lock(l)			spin_lock(l)
#define raw_spin_unlock(l)			spin_unlock(l)
#define raw_spin_lock_irqsave(l, f)		spin_lock_irqsave(l, f)
#define raw_spin_unlock_irqrestore(l, f)	spin_unlock_irqrestore(l, f)
#define assert_spin_locked(lock)		((void)WARN_ON_ONCE(!spin_is_locked(lock)))
#define local_irq_save(flags)			do { (flags) = 0; } while (0)
#define local_irq_restore(flags)		do { (void)(flags); } while (0)
#define local_irq_disable()			do { } while (0)
#define local_irq_enable()			do { } while (0)

#include <linux/bug.h>
#include <linux/lockdep.h>	/* as the kernel's: lockdep_assert_*() */

#pragma GCC visibility pop
#endif /* _PP_LINUX_SPINLOCK_H */
