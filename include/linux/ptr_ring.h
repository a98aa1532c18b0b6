/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * ptr_ring: a fixed-size ring of non-NULL pointers where an empty slot is a
 * NULL pointer, so producer and consumer never read each other's index.
 *
 * Locking contract (as the kernel's): the __ptr_ring_* calls take no lock;
 * the caller serialises producers (producer_lock) and consumers
 * (consumer_lock) as it needs. One producer and one consumer may run
 * concurrently without any lock shared between them. page_pool runs many
 * producers under producer_lock and its single consumer lock-free.
 *
 * Ordering:
 *   P1: the producer publishes a slot with a release store;
 *   C1: the consumer reads it with an acquire load (pairs with P1), so it
 *       sees everything written to the object before it was produced;
 *   C2: the consumer frees slots in batches, newest slot first, so a
 *       producer catching up never writes into a cache line the consumer
 *       is still clearing; a producer that sees NULL (relaxed) owns the slot.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_PTR_RING_H
#define _PP_LINUX_PTR_RING_H

#include <linux/cache.h>
#include <linux/errno.h>
#include <linux/gfp_types.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <stdlib.h>

struct ptr_ring {
	int producer ____cacheline_aligned_in_smp;
	spinlock_t producer_lock;
	int consumer_head ____cacheline_aligned_in_smp;	/* next slot to read */
	int consumer_tail;	/* first read slot not yet cleared */
	spinlock_t consumer_lock;
	int size ____cacheline_aligned_in_smp;		/* slots */
	int batch;		/* slots cleared together */
	void **queue;
};

static inline bool __ptr_ring_full(struct ptr_ring *r)
{
	return __atomic_load_n(&r->queue[r->producer], __ATOMIC_RELAXED) != NULL;
}

/* Caller holds producer_lock (or is the only producer). 0 or -ENOSPC. */
static inline int __ptr_ring_produce(struct ptr_ring *r, void *ptr)
{
	int p = r->producer;

	if (unlikely(!r->size) ||
	    __atomic_load_n(&r->queue[p], __ATOMIC_RELAXED))
		return -ENOSPC;
	__atomic_store_n(&r->queue[p], ptr, __ATOMIC_RELEASE);	/* P1 */
	if (unlikely(++p >= r->size))
		p = 0;
	r->producer = p;
	return 0;
}

/*
 * Produce in two steps, for a single producer whose publishing store must
 * be its last access to the ring's owner (pagepool's lanes: after it the
 * consumer may take the object and free the ring). Not the kernel's API.
 * __ptr_ring_reserve() takes the slot and moves the producer index (NULL:
 * full); the caller then does whatever must precede publication, and
 * __ptr_ring_publish() stores the object (P1).
 */
static inline void **__ptr_ring_reserve(struct ptr_ring *r)
{
	int p = r->producer;
	void **slot = &r->queue[p];

	if (unlikely(!r->size) || __atomic_load_n(slot, __ATOMIC_RELAXED))
		return NULL;
	r->producer = p + 1 < r->size ? p + 1 : 0;
	return slot;
}

static inline void __ptr_ring_publish(void **slot, void *ptr)
{
	__atomic_store_n(slot, ptr, __ATOMIC_RELEASE);	/* P1 */
}

/* Caller is the consumer. NULL when empty. */
static inline void *__ptr_ring_peek(struct ptr_ring *r)
{
	if (likely(r->size))
		return __atomic_load_n(&r->queue[r->consumer_head],
				       __ATOMIC_ACQUIRE);		/* C1 */
	return NULL;
}

static inline bool __ptr_ring_empty(struct ptr_ring *r)
{
	return !__ptr_ring_peek(r);
}

/* Release the slot at consumer_head, in batches (C2). */
static inline void __ptr_ring_discard_one(struct ptr_ring *r)
{
	int head = r->consumer_head + 1;

	if (unlikely(head - r->consumer_tail >= r->batch || head >= r->size)) {
		int i = head;

		while (--i >= r->consumer_tail)
			__atomic_store_n(&r->queue[i], NULL, __ATOMIC_RELAXED);
		r->consumer_tail = head;
	}
	if (unlikely(head >= r->size)) {
		head = 0;
		r->consumer_tail = 0;
	}
	r->consumer_head = head;
}

static inline void *__ptr_ring_consume(struct ptr_ring *r)
{
	void *ptr = __ptr_ring_peek(r);

	if (ptr)
		__ptr_ring_discard_one(r);
	return ptr;
}

/*
 * Take up to @n entries: read them (C1) and release slots exactly as @n
 * single consumes would (a batch at a time, newest first, C2; the slots
 * of an unfinished batch stay set until a later consume completes it), so
 * producers see the same free slots as after __ptr_ring_consume() calls -
 * the kernel's page_pool refills one entry at a time, and ring_full counts
 * depend on it. Cheaper than n single consumes: the indexes stay in
 * registers.
 */
static inline int __ptr_ring_consume_batched(struct ptr_ring *r, void **array, int n)
{
	int head = r->consumer_head, tail = r->consumer_tail, i, j, end;

	if (unlikely(!r->size))
		return 0;
	for (i = 0; i < n; i++) {
		void *ptr = __atomic_load_n(&r->queue[head], __ATOMIC_ACQUIRE);

		if (!ptr)
			break;
		array[i] = ptr;
		if (unlikely(++head >= r->size)) {
			/* Wrapped: single consumes clear the end here. */
			for (j = r->size - 1; j >= tail; j--)
				__atomic_store_n(&r->queue[j], NULL, __ATOMIC_RELAXED);
			head = tail = 0;
		}
	}
	/* Single consumes clear whenever a whole batch is behind the head:
	 * the tail moves by whole batches. */
	end = tail + (head - tail) / r->batch * r->batch;
	for (j = end - 1; j >= tail; j--)
		__atomic_store_n(&r->queue[j], NULL, __ATOMIC_RELAXED);
	r->consumer_tail = end;
	r->consumer_head = head;
	return i;
}

static inline int ptr_ring_produce(struct ptr_ring *r, void *ptr)
{
	int ret;

	spin_lock(&r->producer_lock);
	ret = __ptr_ring_produce(r, ptr);
	spin_unlock(&r->producer_lock);
	return ret;
}

static inline int ptr_ring_produce_bh(struct ptr_ring *r, void *ptr)
{
	int ret;

	spin_lock_bh(&r->producer_lock);
	ret = __ptr_ring_produce(r, ptr);
	spin_unlock_bh(&r->producer_lock);
	return ret;
}

static inline void *ptr_ring_consume(struct ptr_ring *r)
{
	void *ptr;

	spin_lock(&r->consumer_lock);
	ptr = __ptr_ring_consume(r);
	spin_unlock(&r->consumer_lock);
	return ptr;
}

static inline void *ptr_ring_consume_bh(struct ptr_ring *r)
{
	void *ptr;

	spin_lock_bh(&r->consumer_lock);
	ptr = __ptr_ring_consume(r);
	spin_unlock_bh(&r->consumer_lock);
	return ptr;
}

static inline bool ptr_ring_full(struct ptr_ring *r)
{
	bool ret;

	spin_lock(&r->producer_lock);
	ret = __ptr_ring_full(r);
	spin_unlock(&r->producer_lock);
	return ret;
}

static inline bool ptr_ring_empty(struct ptr_ring *r)
{
	bool ret;

	spin_lock(&r->consumer_lock);
	ret = __ptr_ring_empty(r);
	spin_unlock(&r->consumer_lock);
	return ret;
}

/* Two cache lines' worth of slots per clearing batch, at most half the ring. */
static inline void __ptr_ring_set_size(struct ptr_ring *r, int size)
{
	r->size = size;
	r->batch = SMP_CACHE_BYTES * 2 / (int)sizeof(*r->queue);
	if (r->batch > r->size / 2 || !r->batch)
		r->batch = 1;
}

static inline int ptr_ring_init(struct ptr_ring *r, int size, gfp_t gfp)
{
	(void)gfp;
	if (size < 0)
		return -EINVAL;
	r->queue = (void **)calloc(size ? (size_t)size : 1, sizeof(void *));
	if (!r->queue)
		return -ENOMEM;
	__ptr_ring_set_size(r, size);
	r->producer = r->consumer_head = r->consumer_tail = 0;
	spin_lock_init(&r->producer_lock);
	spin_lock_init(&r->consumer_lock);
	return 0;
}

/* Drain with @destroy (may be NULL) and free the slots. No concurrent users. */
static inline void ptr_ring_cleanup(struct ptr_ring *r, void (*destroy)(void *))
{
	void *ptr;

	if (destroy)
		while ((ptr = __ptr_ring_consume(r)))
			destroy(ptr);
	free(r->queue);
	r->queue = NULL;
	r->size = 0;
}

#endif /* _PP_LINUX_PTR_RING_H */
