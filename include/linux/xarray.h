/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XArray: the kernel's array of pointers indexed by unsigned long, with
 * the interface kernel code calls (xa_load, xa_store, xa_erase,
 * xa_cmpxchg, xa_insert, xa_alloc, xa_alloc_cyclic, xa_find,
 * xa_for_each, xa_destroy, the _bh/_irq and __ locked forms, value and
 * error entries, XA_ZERO_ENTRY reservations).
 *
 * Our own implementation (src/runtime/xarray.c), not lib/xarray.c: a
 * 64-way radix tree whose height grows with the largest index stored, so
 * the whole unsigned long range is indexable. Readers (xa_load, xa_find,
 * xa_for_each) run under RCU and take no lock; writers hold xa_lock, as
 * in the kernel (the un-prefixed functions take it themselves, the __
 * ones expect it held). Nodes are freed after a grace period. A store
 * that needs nodes allocates them all before it changes anything, so an
 * -ENOMEM leaves the array as it was. Every node keeps a bit per slot
 * saying the subtree below is full, which makes xa_alloc() find the lowest
 * free index in the limit by a walk down, not a scan.
 *
 * Not implemented, and so not declared (a program that uses them fails
 * to compile rather than getting wrong answers): search marks
 * (xa_set_mark, XA_MARK_0..2, xa_find with a mark), multi-index entries
 * (xa_store_range, order > 0), the advanced xas_* API, and the node
 * cache's gfp subtleties (allocations use kmalloc with the caller's
 * flags, under the lock: userspace can allocate there).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_XARRAY_H
#define _PP_LINUX_XARRAY_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/gfp_types.h>
#include <linux/limits.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/* Entries. A pointer the array holds must have its bottom two bits clear
 * or be a value entry (bit 0 set); "internal" entries (bits 1:0 == 10)
 * belong to the array: XA_ZERO_ENTRY and the encoded errors. */
static inline void *xa_mk_value(unsigned long v)
{
	WARN_ON((long)v < 0);
	return (void *)((v << 1) | 1);
}

static inline unsigned long xa_to_value(const void *entry)
{
	return (unsigned long)entry >> 1;
}

static inline bool xa_is_value(const void *entry)
{
	return (unsigned long)entry & 1;
}

static inline void *xa_mk_internal(unsigned long v)
{
	return (void *)((v << 2) | 2);
}

static inline unsigned long xa_to_internal(const void *entry)
{
	return (unsigned long)entry >> 2;
}

static inline bool xa_is_internal(const void *entry)
{
	return ((unsigned long)entry & 3) == 2;
}

/* A reserved index: loads see NULL, the index is not free. */
#define XA_ZERO_ENTRY		xa_mk_internal(257)
/* Internal entries up to this one are the array's own; storing one is
 * refused with -EINVAL. */
#define XA_RETRY_ENTRY		xa_mk_internal(256)

static inline bool xa_is_zero(const void *entry)
{
	return entry == XA_ZERO_ENTRY;
}

static inline bool xa_is_advanced(const void *entry)
{
	return xa_is_internal(entry) && entry <= XA_RETRY_ENTRY;
}

/* Errors travel as internal entries of -errno. */
#define XA_ERROR(errno)		((void *)(((unsigned long)(errno) << 2) | 2UL))

static inline bool xa_is_err(const void *entry)
{
	return xa_is_internal(entry) && entry >= xa_mk_internal(-MAX_ERRNO);
}

static inline int xa_err(void *entry)
{
	if (xa_is_err(entry))
		return (long)entry >> 2;
	return 0;
}

static inline void *xa_zero_to_null(void *entry)
{
	return xa_is_zero(entry) ? NULL : entry;
}

/* xa_find()'s filter: only "any present entry" is implemented. */
typedef unsigned int xa_mark_t;
#define XA_PRESENT		((xa_mark_t)8U)

/* xa_flags (gfp_t bits above the allocator's, as in the kernel). */
#define XA_FLAGS_LOCK_IRQ	((gfp_t)(1U << 24))
#define XA_FLAGS_LOCK_BH	((gfp_t)(1U << 25))
#define XA_FLAGS_TRACK_FREE	((gfp_t)(1U << 26))
#define XA_FLAGS_ZERO_BUSY	((gfp_t)(1U << 27))
#define XA_FLAGS_ALLOC_WRAPPED	((gfp_t)(1U << 28))
#define XA_FLAGS_ACCOUNT	((gfp_t)(1U << 29))
#define XA_FLAGS_ALLOC		XA_FLAGS_TRACK_FREE
#define XA_FLAGS_ALLOC1		(XA_FLAGS_TRACK_FREE | XA_FLAGS_ZERO_BUSY)

struct xarray {
	spinlock_t xa_lock;
	gfp_t xa_flags;
	void __rcu *xa_head;	/* the root node, or NULL when empty */
};

#define XARRAY_INIT(name, flags) {			\
	.xa_lock = __SPIN_LOCK_UNLOCKED(name.xa_lock),	\
	.xa_flags = (flags),				\
	.xa_head = NULL,				\
}
#define DEFINE_XARRAY_FLAGS(name, flags)	struct xarray name = XARRAY_INIT(name, flags)
#define DEFINE_XARRAY(name)		DEFINE_XARRAY_FLAGS(name, 0)
#define DEFINE_XARRAY_ALLOC(name)	DEFINE_XARRAY_FLAGS(name, XA_FLAGS_ALLOC)
#define DEFINE_XARRAY_ALLOC1(name)	DEFINE_XARRAY_FLAGS(name, XA_FLAGS_ALLOC1)

/* The range xa_alloc() picks from, both ends included. */
struct xa_limit {
	u32 max;
	u32 min;
};
#define XA_LIMIT(_min, _max)	(struct xa_limit) { .min = (_min), .max = (_max) }
#define xa_limit_32b		XA_LIMIT(0, U32_MAX)
#define xa_limit_31b		XA_LIMIT(0, S32_MAX)
#define xa_limit_16b		XA_LIMIT(0, U16_MAX)

static inline void xa_init_flags(struct xarray *xa, gfp_t flags)
{
	spin_lock_init(&xa->xa_lock);
	xa->xa_flags = flags;
	xa->xa_head = NULL;
}

static inline void xa_init(struct xarray *xa)
{
	xa_init_flags(xa, 0);
}

static inline bool xa_empty(const struct xarray *xa)
{
	return READ_ONCE(xa->xa_head) == NULL;
}

#define xa_lock(xa)		spin_lock(&(xa)->xa_lock)
#define xa_unlock(xa)		spin_unlock(&(xa)->xa_lock)
#define xa_lock_bh(xa)		spin_lock_bh(&(xa)->xa_lock)
#define xa_unlock_bh(xa)	spin_unlock_bh(&(xa)->xa_lock)
#define xa_lock_irq(xa)		spin_lock_irq(&(xa)->xa_lock)
#define xa_unlock_irq(xa)	spin_unlock_irq(&(xa)->xa_lock)
#define xa_lock_irqsave(xa, flags)	spin_lock_irqsave(&(xa)->xa_lock, flags)
#define xa_unlock_irqrestore(xa, flags)	spin_unlock_irqrestore(&(xa)->xa_lock, flags)

/**
 * xa_load() - the entry at an index
 * @xa: the array
 * @index: the index
 *
 * Context: any context; takes and releases the RCU read lock.
 * Return: the entry, or NULL (also for a reserved index).
 */
void *xa_load(struct xarray *xa, unsigned long index);

/**
 * __xa_store() - xa_store() with xa_lock held
 * @xa: the array
 * @index: the index
 * @entry: the new entry (NULL erases; in an allocating array it reserves)
 * @gfp: allocation flags for new nodes
 *
 * Context: xa_lock held.
 * Return: the old entry, or an error entry (xa_err()): -EINVAL for an
 * internal entry, -ENOMEM with the array unchanged.
 */
void *__xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);

/**
 * __xa_erase() - xa_erase() with xa_lock held
 * @xa: the array
 * @index: the index
 *
 * Context: xa_lock held.
 * Return: the old entry (NULL for a reserved index).
 */
void *__xa_erase(struct xarray *xa, unsigned long index);

/**
 * __xa_cmpxchg() - xa_cmpxchg() with xa_lock held
 * @xa: the array
 * @index: the index
 * @old: the entry expected there (NULL: empty)
 * @entry: the new entry (NULL erases)
 * @gfp: allocation flags for new nodes
 *
 * Context: xa_lock held.
 * Return: the entry that was there (it was replaced if it equals @old),
 * or an error entry as for __xa_store().
 */
void *__xa_cmpxchg(struct xarray *xa, unsigned long index, void *old,
		   void *entry, gfp_t gfp);

/**
 * __xa_insert() - xa_insert() with xa_lock held
 * @xa: the array
 * @index: the index
 * @entry: the new entry (NULL reserves)
 * @gfp: allocation flags for new nodes
 *
 * Context: xa_lock held.
 * Return: 0, -EBUSY if the index holds an entry or a reservation, -EINVAL
 * for an internal entry, -ENOMEM.
 */
int __xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);

/**
 * __xa_alloc() - xa_alloc() with xa_lock held
 * @xa: the array (initialised with XA_FLAGS_ALLOC or XA_FLAGS_ALLOC1)
 * @id: where the index goes
 * @entry: the entry (NULL reserves the index)
 * @limit: the range to pick from
 * @gfp: allocation flags for new nodes
 *
 * Context: xa_lock held.
 * Return: 0 with *@id the lowest free index in @limit; -EBUSY if there is
 * none, -ENOMEM, -EINVAL for an array that does not allocate or an
 * internal entry (*@id untouched on error).
 */
int __xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit, gfp_t gfp);

/**
 * __xa_alloc_cyclic() - xa_alloc_cyclic() with xa_lock held
 * @xa: the array (initialised with XA_FLAGS_ALLOC or XA_FLAGS_ALLOC1)
 * @id: where the index goes
 * @entry: the entry (NULL reserves the index)
 * @limit: the range to pick from
 * @next: where the search starts; updated to the index after *@id
 * @gfp: allocation flags for new nodes
 *
 * Context: xa_lock held.
 * Return: 0, or 1 if the search wrapped past the end of @limit; errors as
 * __xa_alloc().
 */
int __xa_alloc_cyclic(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
		      u32 *next, gfp_t gfp);

/**
 * xa_find() - the first present entry at or after an index
 * @xa: the array
 * @indexp: in: where to start; out: the entry's index
 * @max: the last index to look at
 * @filter: XA_PRESENT (the only filter implemented)
 *
 * Reserved indices are skipped.
 *
 * Context: any context; takes and releases the RCU read lock.
 * Return: the entry, or NULL (then *@indexp is unchanged).
 */
void *xa_find(struct xarray *xa, unsigned long *indexp, unsigned long max, xa_mark_t filter);

/**
 * xa_find_after() - the first present entry after an index
 * @xa: the array
 * @indexp: in: the index to start after; out: the entry's index
 * @max: the last index to look at
 * @filter: XA_PRESENT (the only filter implemented)
 *
 * Context: any context; takes and releases the RCU read lock.
 * Return: the entry, or NULL.
 */
void *xa_find_after(struct xarray *xa, unsigned long *indexp, unsigned long max,
		    xa_mark_t filter);

/**
 * xa_destroy() - remove every entry and free the nodes
 * @xa: the array
 *
 * The entries themselves are the caller's. The array can be used again.
 *
 * Context: takes xa_lock (as the array's flags say: plain, _bh or _irq).
 */
void xa_destroy(struct xarray *xa);

#define xa_for_each_range(xa, index, entry, start, last)		\
	for (index = (start), entry = xa_find(xa, &index, last, XA_PRESENT); \
	     entry; entry = xa_find_after(xa, &index, last, XA_PRESENT))
#define xa_for_each_start(xa, index, entry, start)			\
	xa_for_each_range(xa, index, entry, start, ULONG_MAX)
#define xa_for_each(xa, index, entry)					\
	xa_for_each_start(xa, index, entry, 0)

/* The locked forms: plain, _bh and _irq take xa_lock the named way. */
#define __PP_XA_LOCKED(lockfn, unlockfn, call) ({			\
	__typeof__(call) __pp_xa_ret;					\
	lockfn(xa);							\
	__pp_xa_ret = (call);						\
	unlockfn(xa);							\
	__pp_xa_ret;							\
})

static inline void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock, xa_unlock, __xa_store(xa, index, entry, gfp));
}

static inline void *xa_store_bh(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock_bh, xa_unlock_bh, __xa_store(xa, index, entry, gfp));
}

static inline void *xa_store_irq(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock_irq, xa_unlock_irq, __xa_store(xa, index, entry, gfp));
}

static inline void *xa_erase(struct xarray *xa, unsigned long index)
{
	return __PP_XA_LOCKED(xa_lock, xa_unlock, __xa_erase(xa, index));
}

static inline void *xa_erase_bh(struct xarray *xa, unsigned long index)
{
	return __PP_XA_LOCKED(xa_lock_bh, xa_unlock_bh, __xa_erase(xa, index));
}

static inline void *xa_erase_irq(struct xarray *xa, unsigned long index)
{
	return __PP_XA_LOCKED(xa_lock_irq, xa_unlock_irq, __xa_erase(xa, index));
}

static inline void *xa_cmpxchg(struct xarray *xa, unsigned long index, void *old,
			       void *entry, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock, xa_unlock, __xa_cmpxchg(xa, index, old, entry, gfp));
}

static inline void *xa_cmpxchg_bh(struct xarray *xa, unsigned long index, void *old,
				  void *entry, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock_bh, xa_unlock_bh,
			      __xa_cmpxchg(xa, index, old, entry, gfp));
}

static inline void *xa_cmpxchg_irq(struct xarray *xa, unsigned long index, void *old,
				   void *entry, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock_irq, xa_unlock_irq,
			      __xa_cmpxchg(xa, index, old, entry, gfp));
}

static inline int xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock, xa_unlock, __xa_insert(xa, index, entry, gfp));
}

static inline int xa_insert_bh(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock_bh, xa_unlock_bh, __xa_insert(xa, index, entry, gfp));
}

static inline int xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
			   gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock, xa_unlock, __xa_alloc(xa, id, entry, limit, gfp));
}

static inline int xa_alloc_bh(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
			      gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock_bh, xa_unlock_bh, __xa_alloc(xa, id, entry, limit, gfp));
}

static inline int xa_alloc_irq(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
			       gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock_irq, xa_unlock_irq,
			      __xa_alloc(xa, id, entry, limit, gfp));
}

static inline int xa_alloc_cyclic(struct xarray *xa, u32 *id, void *entry,
				  struct xa_limit limit, u32 *next, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock, xa_unlock,
			      __xa_alloc_cyclic(xa, id, entry, limit, next, gfp));
}

static inline int xa_alloc_cyclic_bh(struct xarray *xa, u32 *id, void *entry,
				     struct xa_limit limit, u32 *next, gfp_t gfp)
{
	return __PP_XA_LOCKED(xa_lock_bh, xa_unlock_bh,
			      __xa_alloc_cyclic(xa, id, entry, limit, next, gfp));
}

/* xa_reserve(): keep an index busy without an entry; xa_release() undoes it
 * if nothing was stored there since. */
static inline int xa_reserve(struct xarray *xa, unsigned long index, gfp_t gfp)
{
	return xa_err(xa_cmpxchg(xa, index, NULL, XA_ZERO_ENTRY, gfp));
}

static inline void xa_release(struct xarray *xa, unsigned long index)
{
	xa_cmpxchg(xa, index, XA_ZERO_ENTRY, NULL, 0);
}

#pragma GCC visibility pop
#endif /* _PP_LINUX_XARRAY_H */
