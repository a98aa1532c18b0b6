/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * atomic_t, atomic_long_t, atomic64_t and the barriers, on the compiler's
 * __atomic builtins, with the kernel's ordering rules:
 *   - atomic_read()/atomic_set(): relaxed;
 *   - RMW ops that return nothing (atomic_inc, atomic_add, ...): relaxed;
 *   - RMW ops that return a value (atomic_inc_return, atomic_xchg,
 *     atomic_cmpxchg, atomic_dec_and_test, ...): fully ordered;
 *   - _relaxed / _acquire / _release suffixes as named.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_ATOMIC_H
#define _PP_LINUX_ATOMIC_H

#include <linux/compiler.h>
#include <linux/types.h>

#define __PP_RLX	__ATOMIC_RELAXED
#define __PP_ACQ	__ATOMIC_ACQUIRE
#define __PP_REL	__ATOMIC_RELEASE
#define __PP_SC		__ATOMIC_SEQ_CST

/*
 * ThreadSanitizer does not model fences (gcc warns, -Wtsan, an error with
 * -Werror) and would report races they prevent. Under it every barrier is
 * a sequentially consistent read-modify-write of one shared word instead:
 * on x86 as strong as the fence (a locked instruction is a full barrier),
 * and an edge TSan understands - stronger than needed, only in TSan builds.
 * The word is a weak definition in every user, so one is chosen at link.
 */
#if defined(__SANITIZE_THREAD__)
#define __PP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define __PP_TSAN 1
#endif
#endif

#ifdef __PP_TSAN
__attribute__((weak)) unsigned long __pp_tsan_fence_word;
#define __pp_fence(order)						\
	((void)__atomic_fetch_add(&__pp_tsan_fence_word, 0, __PP_SC))
#else
#define __pp_fence(order)	__atomic_thread_fence(order)
#endif

#define smp_mb()		__pp_fence(__PP_SC)
#define smp_rmb()		__pp_fence(__PP_ACQ)
#define smp_wmb()		__pp_fence(__PP_REL)
#define mb()			smp_mb()
#define rmb()			smp_rmb()
#define wmb()			smp_wmb()
/*
 * Ordering of accesses to memory a device shares with the CPU (descriptor
 * rings): read the descriptor's "done" bit, dma_rmb(), then its other
 * fields; fill a descriptor, dma_wmb(), then hand it to the device. The
 * simulated devices are other threads, so these are the C11 fences that
 * order against another thread (on x86-64 only the compiler is held back,
 * as the kernel's dma_rmb()/dma_wmb() there).
 */
#define dma_rmb()		__pp_fence(__PP_ACQ)
#define dma_wmb()		__pp_fence(__PP_REL)
#define smp_mb__before_atomic()	smp_mb()
#define smp_mb__after_atomic()	smp_mb()
#define smp_load_acquire(p)	__atomic_load_n((p), __PP_ACQ)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __PP_REL)
#define smp_store_mb(var, v)	__atomic_store_n(&(var), (v), __PP_SC)
/*
 * Not the kernel's: the load that pairs with smp_store_mb() and with the
 * fully ordered RMWs in a store-buffering handshake ("I announce, then
 * look at yours" on both sides): both sides' accesses are in the single
 * sequentially consistent order, so one side sees the other. Kernel code
 * writes smp_mb() then READ_ONCE(); here that would be a fence (mfence)
 * where x86 needs none: a sequentially consistent load is a plain load.
 */
#define smp_load_mb(p)		__atomic_load_n((p), __PP_SC)

/* Generic value ops on any scalar lvalue, as the kernel's. */
#define xchg(ptr, v)		__atomic_exchange_n((ptr), (v), __PP_SC)
#define xchg_relaxed(ptr, v)	__atomic_exchange_n((ptr), (v), __PP_RLX)
#define cmpxchg(ptr, old, new)						\
({									\
	__typeof__(*(ptr)) __old = (old);				\
	__atomic_compare_exchange_n((ptr), &__old, (new), false,	\
				    __PP_SC, __PP_SC);			\
	__old;								\
})
#define cmpxchg_relaxed(ptr, old, new)					\
({									\
	__typeof__(*(ptr)) __old = (old);				\
	__atomic_compare_exchange_n((ptr), &__old, (new), false,	\
				    __PP_RLX, __PP_RLX);		\
	__old;								\
})
#define try_cmpxchg(ptr, oldp, new)					\
	__atomic_compare_exchange_n((ptr), (oldp), (new), false, __PP_SC, __PP_SC)
/* The kernel's ordering variants: the order applies on success; a failed
 * try_cmpxchg*() is a relaxed load into *oldp. */
#define try_cmpxchg_relaxed(ptr, oldp, new)				\
	__atomic_compare_exchange_n((ptr), (oldp), (new), false, __PP_RLX, __PP_RLX)
#define try_cmpxchg_acquire(ptr, oldp, new)				\
	__atomic_compare_exchange_n((ptr), (oldp), (new), false, __PP_ACQ, __PP_RLX)
#define try_cmpxchg_release(ptr, oldp, new)				\
	__atomic_compare_exchange_n((ptr), (oldp), (new), false, __PP_REL, __PP_RLX)
#define xchg_acquire(ptr, v)	__atomic_exchange_n((ptr), (v), __PP_ACQ)
#define xchg_release(ptr, v)	__atomic_exchange_n((ptr), (v), __PP_REL)

/* One body for the three widths; T is the counter type, P the prefix. */
#define __PP_ATOMIC_OPS(P, A, T)					\
static inline T P##_read(const A *v)					\
{ return __atomic_load_n(&v->counter, __PP_RLX); }			\
static inline T P##_read_acquire(const A *v)				\
{ return __atomic_load_n(&v->counter, __PP_ACQ); }			\
static inline void P##_set(A *v, T i)					\
{ __atomic_store_n(&v->counter, i, __PP_RLX); }				\
static inline void P##_set_release(A *v, T i)				\
{ __atomic_store_n(&v->counter, i, __PP_REL); }				\
static inline void P##_add(T i, A *v)					\
{ __atomic_fetch_add(&v->counter, i, __PP_RLX); }			\
static inline void P##_sub(T i, A *v)					\
{ __atomic_fetch_sub(&v->counter, i, __PP_RLX); }			\
static inline void P##_inc(A *v)					\
{ __atomic_fetch_add(&v->counter, 1, __PP_RLX); }			\
static inline void P##_dec(A *v)					\
{ __atomic_fetch_sub(&v->counter, 1, __PP_RLX); }			\
static inline void P##_or(T i, A *v)					\
{ __atomic_fetch_or(&v->counter, i, __PP_RLX); }			\
static inline void P##_and(T i, A *v)					\
{ __atomic_fetch_and(&v->counter, i, __PP_RLX); }			\
static inline T P##_add_return(T i, A *v)				\
{ return __atomic_add_fetch(&v->counter, i, __PP_SC); }			\
static inline T P##_add_return_relaxed(T i, A *v)			\
{ return __atomic_add_fetch(&v->counter, i, __PP_RLX); }		\
static inline T P##_sub_return(T i, A *v)				\
{ return __atomic_sub_fetch(&v->counter, i, __PP_SC); }			\
static inline T P##_sub_return_relaxed(T i, A *v)			\
{ return __atomic_sub_fetch(&v->counter, i, __PP_RLX); }		\
static inline T P##_inc_return(A *v)					\
{ return __atomic_add_fetch(&v->counter, 1, __PP_SC); }			\
static inline T P##_inc_return_relaxed(A *v)				\
{ return __atomic_add_fetch(&v->counter, 1, __PP_RLX); }		\
static inline T P##_dec_return(A *v)					\
{ return __atomic_sub_fetch(&v->counter, 1, __PP_SC); }			\
static inline T P##_fetch_add(T i, A *v)				\
{ return __atomic_fetch_add(&v->counter, i, __PP_SC); }			\
static inline T P##_fetch_add_relaxed(T i, A *v)			\
{ return __atomic_fetch_add(&v->counter, i, __PP_RLX); }		\
static inline T P##_fetch_sub(T i, A *v)				\
{ return __atomic_fetch_sub(&v->counter, i, __PP_SC); }			\
static inline T P##_fetch_sub_release(T i, A *v)			\
{ return __atomic_fetch_sub(&v->counter, i, __PP_REL); }		\
static inline T P##_fetch_or(T i, A *v)					\
{ return __atomic_fetch_or(&v->counter, i, __PP_SC); }			\
static inline bool P##_dec_and_test(A *v)				\
{ return __atomic_sub_fetch(&v->counter, 1, __PP_SC) == 0; }		\
static inline bool P##_inc_and_test(A *v)				\
{ return __atomic_add_fetch(&v->counter, 1, __PP_SC) == 0; }		\
static inline bool P##_sub_and_test(T i, A *v)				\
{ return __atomic_sub_fetch(&v->counter, i, __PP_SC) == 0; }		\
static inline T P##_xchg(A *v, T n)					\
{ return __atomic_exchange_n(&v->counter, n, __PP_SC); }		\
static inline T P##_cmpxchg(A *v, T o, T n)				\
{ __atomic_compare_exchange_n(&v->counter, &o, n, false, __PP_SC,	\
			      __PP_SC); return o; }			\
static inline bool P##_try_cmpxchg(A *v, T *o, T n)			\
{ return __atomic_compare_exchange_n(&v->counter, o, n, false,		\
				     __PP_SC, __PP_SC); }		\
/* The order on success; a failed one is a relaxed load into *o. */	\
static inline bool P##_try_cmpxchg_acquire(A *v, T *o, T n)		\
{ return __atomic_compare_exchange_n(&v->counter, o, n, false,		\
				     __PP_ACQ, __PP_RLX); }		\
static inline bool P##_try_cmpxchg_release(A *v, T *o, T n)		\
{ return __atomic_compare_exchange_n(&v->counter, o, n, false,		\
				     __PP_REL, __PP_RLX); }		\
static inline bool P##_add_unless(A *v, T a, T u)			\
{									\
	T c = P##_read(v);						\
	do {								\
		if (c == u)						\
			return false;					\
	} while (!P##_try_cmpxchg(v, &c, c + a));			\
	return true;							\
}									\
static inline bool P##_inc_not_zero(A *v)				\
{ return P##_add_unless(v, 1, 0); }

__PP_ATOMIC_OPS(atomic, atomic_t, int)
__PP_ATOMIC_OPS(atomic_long, atomic_long_t, long)
__PP_ATOMIC_OPS(atomic64, atomic64_t, s64)

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }
#define ATOMIC64_INIT(i)	{ (i) }

#endif /* _PP_LINUX_ATOMIC_H */
