/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * refcount_t: an atomic_t that WARNs and saturates instead of wrapping, and
 * WARNs on increment from zero (a use after free), as the kernel's.
 * refcount_dec_and_test() has release ordering and acquire on success.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_REFCOUNT_H
#define _PP_LINUX_REFCOUNT_H

#include <limits.h>
#include <linux/atomic.h>
#include <linux/bug.h>

typedef struct refcount_struct {
	atomic_t refs;
} refcount_t;

#define REFCOUNT_INIT(n)	{ .refs = ATOMIC_INIT(n) }
#define REFCOUNT_SATURATED	(INT_MIN / 2)

static inline void refcount_set(refcount_t *r, int n)
{
	atomic_set(&r->refs, n);
}

static inline unsigned int refcount_read(const refcount_t *r)
{
	return (unsigned int)atomic_read(&r->refs);
}

static inline bool refcount_inc_not_zero(refcount_t *r)
{
	int old = atomic_read(&r->refs);

	do {
		if (old == 0)
			return false;
	} while (!atomic_try_cmpxchg(&r->refs, &old, old + 1));
	if (unlikely(old < 0 || old + 1 < 0)) {
		atomic_set(&r->refs, REFCOUNT_SATURATED);
		WARN_ONCE(1, "refcount_t: saturated; leaking memory");
	}
	return true;
}

static inline void refcount_inc(refcount_t *r)
{
	int old = __atomic_fetch_add(&r->refs.counter, 1, __ATOMIC_RELAXED);

	if (unlikely(old <= 0 || old + 1 < 0)) {
		atomic_set(&r->refs, REFCOUNT_SATURATED);
		WARN_ONCE(1, "refcount_t: %s; use-after-free or saturation",
			  old == 0 ? "addition on 0" : "saturated");
	}
}

static inline void refcount_add(int i, refcount_t *r)
{
	int old = __atomic_fetch_add(&r->refs.counter, i, __ATOMIC_RELAXED);

	if (unlikely(old <= 0 || old + i < 0)) {
		atomic_set(&r->refs, REFCOUNT_SATURATED);
		WARN_ONCE(1, "refcount_t: addition on 0 or saturation");
	}
}

static inline bool refcount_sub_and_test(int i, refcount_t *r)
{
	/* Release for the users' accesses; acquire for whoever sees zero and
	 * frees (one acq_rel RMW: the same instruction on x86, and TSan
	 * understands it, which it does not a standalone fence). */
	int old = __atomic_fetch_sub(&r->refs.counter, i, __ATOMIC_ACQ_REL);

	if (old == i)
		return true;
	if (unlikely(old < 0 || old - i < 0)) {
		atomic_set(&r->refs, REFCOUNT_SATURATED);
		WARN_ONCE(1, "refcount_t: underflow; use-after-free");
	}
	return false;
}

static inline bool refcount_dec_and_test(refcount_t *r)
{
	return refcount_sub_and_test(1, r);
}

static inline void refcount_dec(refcount_t *r)
{
	if (unlikely(refcount_sub_and_test(1, r)))
		WARN_ONCE(1, "refcount_t: decrement hit 0; leaking memory");
}

#endif /* _PP_LINUX_REFCOUNT_H */
