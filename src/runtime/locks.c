/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Contended spinlock path. Spin on a plain load (no cache-line ping-pong)
 * with the pause hint; after a bounded spin give the host CPU away, since
 * in userspace the holder may have been preempted.
 */
#include <sched.h>

#include <linux/processor.h>
#include <linux/spinlock.h>

#define SPINS_BEFORE_YIELD	128

void __pp_spin_lock_slow(spinlock_t *lock)
{
	for (;;) {
		int spins = 0;

		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED)) {
			cpu_relax();
			if (++spins == SPINS_BEFORE_YIELD) {
				sched_yield();
				spins = 0;
			}
		}
		if (!__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
			return;
	}
}
