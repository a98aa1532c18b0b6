/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Where non-direct returns wait for the consumer: the contract between
 * the recycle, allocation and release code and the two designs of the
 * return ring.
 *
 *   ptr_ring (ring.c)     the kernel's: one ptr_ring per pool (pool->ring),
 *                         producers serialised by its producer spinlock,
 *                         the consumer lock-free (it is alone).
 *   lanes (ring_lanes.c)  a lane per returning CPU, a single-producer
 *                         ptr_ring of its own (no lock, no atomic
 *                         read-modify-write), with ring credits bounding
 *                         what lanes and ring hold together to the
 *                         kernel's ring size (struct pp_lane); a full
 *                         lane spills into pool->ring. The default.
 *
 * Which designs exist is a build-time choice (meson -Dring, -Ddesigns;
 * CONFIG_PAGEPOOL_RING_*). page_pool_has_lanes() is a constant unless both
 * are compiled in; then a pool has lanes iff pool->lanes is set (chosen at
 * creation, pp_page_pool_set_ring_mode()). Without the lanes design the
 * lane functions below are stubs that are never called.
 *
 * The ring side, for both designs (inline here, or in ring.c):
 *   page_pool_recycle_in_ring()   one netmem, any context but hard IRQ:
 *                                 true if it went in (lane or ring).
 *   page_pool_recycle_ring_bulk() up to PAGE_POOL_BULK_SIZE netmems from
 *                                 one pool; what finds no room goes home.
 *   page_pool_ring_refill()       the consumer fills its empty alloc cache
 *                                 (inline, in alloc.c's refill).
 *   page_pool_empty_ring()        destroy (no consumer any more) empties
 *                                 the lanes and the ring.
 *   page_pool_ring_sync_producers() waits for producers inside the
 *                                 producer lock (release, before free).
 * The lanes (ring_lanes.c) provide the ppcore_lanes_*() functions below -
 * among them ppcore_lanes_produced(), the returns counted in the lanes
 * (stats) - and the inline single put, page_pool_lane_produce(), with its
 * slow case page_pool_lane_produce_slow().
 *
 * The invariant both keep: a netmem in a lane or the ring had its put
 * counted in pp_put_seq (home state, <net/page_pool/helpers.h>) and
 * counts as in flight for inflight accounting until
 * it is refilled into the alloc cache or returned to the page allocator;
 * with lanes, every netmem in a lane or the ring holds one ring credit,
 * and, with no put in progress, free credits + credits the lanes keep +
 * netmems in lanes and ring = ring size.
 */
#ifndef _PP_CORE_RING_H
#define _PP_CORE_RING_H

#include <linux/ptr_ring.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"
#include "core/home.h"
#include "core/lifecycle.h"

#define PP_LANE_SIZE	256	/* slots per lane, at most the ring's size */

/*
 * A lane: its ring, the producer's count of pages it put in (the `ring`
 * statistic for lane returns) and the end of the ring credits it holds
 * (credit_end - produced of them are unspent); both are producer-written
 * only.
 *
 * Ring credits keep the lanes within the kernel's bound: a pool never
 * holds more returned pages than its ptr_ring would (pool_size, 1024 when
 * 0, at most 16384). The pool starts with that many credits; a page put
 * into a lane or the shared ring spends one, and the consumer gives them
 * back as it refills. A producer takes credits from the pool in batches
 * so the common put needs no atomic; the price is that a lane keeps what
 * it did not spend until its CPU puts again. What all lanes keep together
 * is capped at a 32nd of the ring (page_pool_credits_keep_max()), so
 * with several returning CPUs a put may find the pool "full" at most that
 * many pages earlier than the kernel's ring would, however many CPUs went
 * quiet with credits in hand. A lane is a
 * ptr_ring of min(ring size, PP_LANE_SIZE) slots; when that is the whole
 * ring size, a full lane is a full ring (no spill), so with one returning
 * CPU ring and ring_full count exactly as the kernel's, consumed slots
 * that the consumer clears only a batch at a time included.
 * Where the counts differ from the kernel's (the kernel-API fuzzer,
 * tests/fuzz/kapi, declares both, docs/RELIABILITY.md):
 *   - a second returning CPU's lane has no consumed-but-uncleared slots of
 *     the first one's, so it can take pages the kernel's single ring
 *     refuses while its consumer has not cleared a batch: ring_full later
 *     than the kernel's, never past pool_size;
 *   - a smaller lane (pool_size > 256) spills into the shared ring, and a
 *     refill then takes the pages in another order than the kernel's one
 *     ring, so a NUMA refill (page_pool_refill_alloc_cache()) meets a page
 *     of another node at another point: fast, slow and waive move by a
 *     few, even with one returning CPU.
 */
struct pp_lane {
	struct ptr_ring ring;
	u64 produced;
	u64 credit_end;
	u32 credits_kept;	/* declared in page_pool::ring_credits */
};

/* The pool's design: a constant unless every design is compiled in. */
static __always_inline enum pp_ring_mode page_pool_ring_design(const struct page_pool *pool)
{
#ifdef CONFIG_PAGEPOOL_ALL_DESIGNS
	return (enum pp_ring_mode)pool->ring_design;
#else
	(void)pool;
	return CONFIG_PAGEPOOL_RING_DEFAULT;
#endif
}

static __always_inline bool page_pool_has_lanes(const struct page_pool *pool)
{
	return page_pool_ring_design(pool) == PP_RING_LANES;
}

/* The list designs (PP_RING_LLIST, PP_RING_LLIST_BATCH; ring_llist.c). */
static __always_inline bool page_pool_ring_is_llist(const struct page_pool *pool)
{
	return page_pool_ring_design(pool) == PP_RING_LLIST ||
	       page_pool_ring_design(pool) == PP_RING_LLIST_BATCH;
}

/*
 * The designs other than lanes and ptr_ring each live in a file of their
 * own and provide these, with the same contexts and duties as the
 * entry points at the top of this file:
 *   init(pool, ring_qsize)  page_pool_init(), process context: allocate
 *                           pool->ring_state; 0 or -ENOMEM.
 *   free(pool)              when the pool's memory goes, or after init
 *                           failed (ring_state may be NULL).
 *   recycle(pool, netmem)   one netmem, any context but hard IRQ, no RCU
 *                           section assumed: true if it went in, false if
 *                           the design holds as many as the kernel's ring
 *                           would (the caller counts ring_full and sends it
 *                           home). The store that makes the netmem visible
 *                           to the consumer is the last access to the pool.
 *                           Counts the `ring` statistic.
 *   recycle_bulk(pool, bulk, n)  up to PAGE_POOL_BULK_SIZE netmems, in a
 *                           bh-disabled region or process context; what
 *                           finds no room goes home (page_pool_return_page)
 *                           with one ring_full for the bulk, as the
 *                           kernel's.
 *   refill(pool, pref_nid)  the consumer's empty alloc cache, up to
 *                           PP_ALLOC_CACHE_REFILL; a page of another node
 *                           goes home (waive) and ends the refill: false.
 *   drain(pool)             destroy, no consumer any more: every netmem
 *                           the design holds goes home
 *                           (page_pool_return_ring_page()); late returns
 *                           keep finding room.
 *   produced(pool)          the design's part of the `ring` statistic when
 *                           it does not count it per CPU (else 0).
 */
#define PP_RING_DESIGN_OPS(d)							\
	int ppcore_##d##_init(struct page_pool *pool, u32 ring_qsize);		\
	void ppcore_##d##_free(struct page_pool *pool);				\
	bool ppcore_##d##_recycle(struct page_pool *pool, netmem_ref netmem);	\
	void ppcore_##d##_recycle_bulk(struct page_pool *pool, netmem_ref *bulk, u32 n); \
	bool ppcore_##d##_refill(struct page_pool *pool, int pref_nid);	\
	u32 ppcore_##d##_drain(struct page_pool *pool);				\
	u64 ppcore_##d##_produced(const struct page_pool *pool)

/* A design not compiled in: never called (the pool's design is one of
 * the build's), and not referenced either, even at -O0. */
#define PP_RING_DESIGN_STUBS(d)							\
	static inline int ppcore_##d##_init(struct page_pool *pool, u32 ring_qsize) \
	{ (void)pool; (void)ring_qsize; return -EOPNOTSUPP; }			\
	static inline void ppcore_##d##_free(struct page_pool *pool) { (void)pool; } \
	static inline bool ppcore_##d##_recycle(struct page_pool *pool, netmem_ref netmem) \
	{ (void)pool; (void)netmem; return false; }				\
	static inline void ppcore_##d##_recycle_bulk(struct page_pool *pool,	\
						     netmem_ref *bulk, u32 n)	\
	{ (void)pool; (void)bulk; (void)n; }					\
	static inline bool ppcore_##d##_refill(struct page_pool *pool, int pref_nid) \
	{ (void)pool; (void)pref_nid; return true; }				\
	static inline u32 ppcore_##d##_drain(struct page_pool *pool)		\
	{ (void)pool; return 0; }						\
	static inline u64 ppcore_##d##_produced(const struct page_pool *pool)	\
	{ (void)pool; return 0; }

#if IS_ENABLED(CONFIG_PAGEPOOL_RING_LLIST) || IS_ENABLED(CONFIG_PAGEPOOL_RING_LLIST_BATCH)
PP_RING_DESIGN_OPS(llist);	/* ring_llist.c, both list designs */
#else
PP_RING_DESIGN_STUBS(llist)
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_RING_MAGAZINE)
PP_RING_DESIGN_OPS(mag);	/* ring_magazine.c */
/* White-box, for tests: how many netmems of @pool the magazines hold (a
 * netmem of another pool is not counted), with no put or refill running. */
u32 ppcore_mag_parked(const struct page_pool *pool);
#else
PP_RING_DESIGN_STUBS(mag)
static inline u32 ppcore_mag_parked(const struct page_pool *pool) { (void)pool; return 0; }
#endif

/* ring.c */
/* The pool's design, chosen at page_pool_init(): its state made, freed. */
int page_pool_ring_design_init(struct page_pool *pool, u32 ring_qsize);
void page_pool_ring_design_free(struct page_pool *pool);
/* The shared ring's part of a bulk: the first @room of @bulk hold a ring
 * credit (with lanes; all of them without), the rest find it full. */
void page_pool_shared_ring_bulk(struct page_pool *pool, netmem_ref *bulk, u32 bulk_len,
				u32 room);
void page_pool_empty_ring(struct page_pool *pool);
/* The shared ring's producer lock, from any context but hard IRQ: true
 * if the caller was in softirq already (pass it to the unlock). */
bool page_pool_producer_lock(struct page_pool *pool);
void page_pool_producer_unlock(struct page_pool *pool, bool in_softirq);
void page_pool_ring_sync_producers(struct page_pool *pool);
bool page_pool_recycle_in_shared_ring(struct page_pool *pool, netmem_ref netmem);
/* A netmem out of a lane or the ring goes home (destroy). */
void page_pool_return_ring_page(struct page_pool *pool, netmem_ref netmem);

/*
 * The consumer side, inline in alloc.c's refill (one function, as the
 * kernel's page_pool_refill_alloc_cache() is).
 */
/*
 * One netmem taken out of the ring by a refill on a machine with several
 * nodes: home into the alloc cache, or dropped as a duplicate; a page of
 * another node goes back to the page allocator instead (waive) and ends
 * the refill: false. A page with a duplicate put still in a ring stays
 * (it may not go back to the page allocator yet).
 */
static __always_inline bool page_pool_refill_take_one(struct page_pool *pool, netmem_ref netmem,
						      int pref_nid)
{
	if (unlikely(!page_pool_home_take(pool, netmem, "refill")))
		return true;
	if (likely(netmem_is_pref_nid(netmem, pref_nid)) ||
	    unlikely(!page_pool_home_releasable(netmem))) {
		pool->alloc.cache[pool->alloc.count++] = netmem;
		return true;
	}
	page_pool_return_page(pool, netmem);
	alloc_stat_inc(pool, waive);
	return false;
}

/*
 * Move returned pages from @r into the alloc cache, up to the refill
 * target. A page of the wrong NUMA node is given back to the page
 * allocator instead, and ends the refill (the slow path then allocates on
 * the right node, which limits the stress on the page allocator).
 * Returns false on such a waive. Only the consumer runs this, so the
 * ring's consumer side needs no lock.
 */
static __always_inline bool page_pool_refill_from(struct page_pool *pool, struct ptr_ring *r,
						  int pref_nid, u32 *consumed)
{
	/* One node: no page can be on the wrong one; take them in one pass,
	 * then keep those that come home (home state: a duplicate put is
	 * dropped here). */
	if (likely(nr_node_ids <= 1)) {
		u32 from = pool->alloc.count;
		u32 n = (u32)__ptr_ring_consume_batched(r, (void **)&pool->alloc.cache[from],
							PP_ALLOC_CACHE_REFILL - (int)from);

		pool->alloc.count += n;
		*consumed += n;
		page_pool_home_take_refilled(pool, from);
		return true;
	}
	while (pool->alloc.count < PP_ALLOC_CACHE_REFILL) {
		netmem_ref netmem = (netmem_ref)__ptr_ring_consume(r);

		if (unlikely(!netmem))
			break;
		++*consumed;
		if (!page_pool_refill_take_one(pool, netmem, pref_nid))
			return false;
	}
	return true;
}

/* What a single put into this CPU's lane did (page_pool_lane_produce()). */
enum pp_lane_put {
	PP_LANE_PUBLISHED,	/* in the lane */
	PP_LANE_SPILL,		/* credit held, lane full: the shared ring */
	PP_LANE_NO_LANE,	/* no lane could be made, no credit held */
	PP_LANE_NO_CREDIT,	/* full where the kernel's ring would be */
	PP_LANE_SLOW,		/* no lane yet or no credit: make it, take some, retry */
};

#if IS_ENABLED(CONFIG_PAGEPOOL_RING_LANES)
/* ring_lanes.c */
int ppcore_lanes_init(struct page_pool *pool, u32 ring_qsize);
void ppcore_lanes_free(struct page_pool *pool);
bool ppcore_lanes_recycle_fallback(struct page_pool *pool, netmem_ref netmem,
				   enum pp_lane_put how);
void ppcore_lanes_recycle_ring_bulk(struct page_pool *pool, netmem_ref *bulk, u32 bulk_len);
u32 ppcore_lanes_drain(struct page_pool *pool);
u64 ppcore_lanes_produced(const struct page_pool *pool);
/* @n netmems left the lanes or the shared ring, or a credit taken was not
 * spent: the credits go back to the pool (CR1). */
static inline void ppcore_ring_credits_put(struct page_pool *pool, u32 n)
{
	/* The free count stays below 2^32 (at most the ring's size). */
	atomic64_add(n, &pool->ring_credits);
}

/*
 * One netmem into CPU @cpu's lane (the caller's) from any context, with
 * no RCU read-side section and no bh-disable: the store that publishes
 * the netmem is this function's last access to the pool. Until that
 * store the netmem in our hands counts as in flight, so the pool cannot
 * be freed; after it the consumer (or destroy's drain) may take the
 * netmem, the last page may go home and the pool be freed, and we touch
 * nothing of it any more. So the producer index and the lane's count
 * move first - both are this CPU's alone (a CPU is one thread here:
 * pp_thread_register() refuses a CPU in use, and softirqs run on their
 * CPU's own thread, never in between these stores). The caller set
 * pp_ref_count to 0 (in the pool).
 */
static __always_inline enum pp_lane_put page_pool_lane_produce(struct page_pool *pool, int cpu,
							       netmem_ref netmem)
{
	struct pp_lane *lane = pool->lanes[cpu];
	void **slot;

	/* No lane yet, or no credit left: page_pool_lane_produce_slow(),
	 * through the caller's fallback. Calling nothing here keeps the
	 * commonest put free of register saves. */
	if (unlikely(!lane || lane->produced == lane->credit_end))
		return PP_LANE_SLOW;
	if (unlikely(!__ptr_ring_reserve(&lane->ring, &slot))) {
		/* A lane as large as the pool's ring is full where the
		 * kernel's ring would be (the same ptr_ring, the same slots
		 * still uncleared): ring full, and the credit goes back (a
		 * lane keeps no more than it declared). A smaller lane
		 * spills, the credit going with the page. */
		lane->credit_end--;
		if (lane->ring.size == pool->ring.size) {
			ppcore_ring_credits_put(pool, 1);
			return PP_LANE_NO_CREDIT;
		}
		return PP_LANE_SPILL;
	}
	WRITE_ONCE(lane->produced, lane->produced + 1);
	/* LS1 (the ring's P1): publishes the netmem and everything the putter
	 * did with the page; pairs with C1, the consumer's acquire of the
	 * slot (the refill, or destroy's drain). */
	__ptr_ring_publish(slot, (void *)netmem);
	ppcore_hook(PP_HOOK_LANE_PUBLISHED, pool);	/* passes the pointer only */
	return PP_LANE_PUBLISHED;
}
/* The lanes that exist, starting at the round-robin cursor. */
static __always_inline bool ppcore_lanes_refill(struct page_pool *pool, int pref_nid,
						u32 *consumed)
{
	unsigned int i, start = pool->lane_cursor;

	for (i = 0; i < ARRAY_SIZE(pool->lane_mask); i++) {
		unsigned int w = (start + i) % ARRAY_SIZE(pool->lane_mask);
		unsigned long bits = READ_ONCE(pool->lane_mask[w]);

		while (bits) {
			int cpu = (int)(w * BITS_PER_LONG + __ffs(bits));
			struct pp_lane *lane = smp_load_acquire(&pool->lanes[cpu]); /* LC1' */

			bits &= bits - 1;
			if (!page_pool_refill_from(pool, &lane->ring, pref_nid, consumed))
				return false;
			if (pool->alloc.count >= PP_ALLOC_CACHE_REFILL) {
				pool->lane_cursor = w;
				return true;
			}
		}
	}
	return true;
}
enum pp_lane_put page_pool_lane_produce_slow(struct page_pool *pool, int cpu,
					     netmem_ref netmem);
#else
/* The ptr_ring design alone: page_pool_has_lanes() is false, so none of
 * these is ever called; they keep the callers free of #ifdefs. */
static inline int ppcore_lanes_init(struct page_pool *pool, u32 ring_qsize)
{
	(void)pool;
	(void)ring_qsize;
	return 0;
}

static inline void ppcore_lanes_free(struct page_pool *pool)
{
	(void)pool;
}

static inline bool ppcore_lanes_recycle_fallback(struct page_pool *pool, netmem_ref netmem,
						 enum pp_lane_put how)
{
	(void)pool;
	(void)netmem;
	(void)how;
	return false;
}

static inline void ppcore_lanes_recycle_ring_bulk(struct page_pool *pool, netmem_ref *bulk,
						  u32 bulk_len)
{
	(void)pool;
	(void)bulk;
	(void)bulk_len;
}

static inline bool ppcore_lanes_refill(struct page_pool *pool, int pref_nid, u32 *consumed)
{
	(void)pool;
	(void)pref_nid;
	(void)consumed;
	return true;
}

static inline u32 ppcore_lanes_drain(struct page_pool *pool)
{
	(void)pool;
	return 0;
}

static inline u64 ppcore_lanes_produced(const struct page_pool *pool)
{
	(void)pool;
	return 0;
}

static inline void ppcore_ring_credits_put(struct page_pool *pool, u32 n)
{
	(void)pool;
	(void)n;
}

static inline enum pp_lane_put page_pool_lane_produce(struct page_pool *pool, int cpu,
						      netmem_ref netmem)
{
	(void)pool;
	(void)cpu;
	(void)netmem;
	return PP_LANE_NO_LANE;
}
#endif /* CONFIG_PAGEPOOL_RING_LANES */

/*
 * One netmem into the ring: this CPU's lane (or the shared ring when the
 * lane spills), or the shared ring in the ptr_ring design. False when
 * there is no room where the kernel's ring would have none: the caller
 * sends it home (ring_full), uncounting the put (page_pool_home_uncount()).
 * The put is counted (pp_put_seq, home state) before the consumer can see
 * the netmem.
 */
static __always_inline bool page_pool_recycle_in_ring(struct page_pool *pool, netmem_ref netmem)
{
	enum pp_lane_put how;

	ppcore_netmem_in(pool, netmem);
	__page_pool_count_ring_put(netmem);
	switch (page_pool_ring_design(pool)) {
	case PP_RING_LANES:
		how = page_pool_lane_produce(pool, smp_processor_id(), netmem);
		if (likely(how == PP_LANE_PUBLISHED))
			return true;
		return ppcore_lanes_recycle_fallback(pool, netmem, how);
	case PP_RING_LLIST:
	case PP_RING_LLIST_BATCH:
		return ppcore_llist_recycle(pool, netmem);
	case PP_RING_MAGAZINE:
		return ppcore_mag_recycle(pool, netmem);
	default:
		return page_pool_recycle_in_shared_ring(pool, netmem);
	}
}

/* The consumer's refill of its empty alloc cache: the lanes first, then
 * the shared ring; every netmem taken out frees its ring credit. */
static __always_inline void page_pool_ring_refill(struct page_pool *pool, int pref_nid)
{
	u32 consumed = 0;

	if (page_pool_ring_is_llist(pool) ||
	    page_pool_ring_design(pool) == PP_RING_MAGAZINE) {
		u32 from = pool->alloc.count;
		bool ok = page_pool_ring_design(pool) == PP_RING_MAGAZINE ?
			  ppcore_mag_refill(pool, pref_nid) :
			  ppcore_llist_refill(pool, pref_nid);

		/* The magazines take theirs home themselves, page by page
		 * where a page of another node must go home after its take. */
		if (page_pool_ring_design(pool) != PP_RING_MAGAZINE)
			page_pool_home_take_refilled(pool, from);
		if (ok && !pool->alloc.count)
			alloc_stat_inc(pool, empty);
		return;
	}
	if (page_pool_has_lanes(pool) && !ppcore_lanes_refill(pool, pref_nid, &consumed))
		goto out;
	if (pool->alloc.count < PP_ALLOC_CACHE_REFILL) {
		if (__ptr_ring_empty(&pool->ring)) {
			if (!pool->alloc.count)
				alloc_stat_inc(pool, empty);
		} else {
			page_pool_refill_from(pool, &pool->ring, pref_nid, &consumed);
		}
	}
out:
	if (page_pool_has_lanes(pool) && consumed)
		ppcore_ring_credits_put(pool, consumed);
}

/*
 * Up to PAGE_POOL_BULK_SIZE netmems of one pool into the ring, each put
 * counted first (home state): the lanes design's whole bulk
 * (ring_lanes.c), or the shared ring's, or another design's. What finds
 * no room goes home, uncounted (page_pool_home_uncount()). Caller is in a
 * bh-disabled region or process context, not hard IRQ.
 */
static __always_inline void page_pool_recycle_ring_bulk(struct page_pool *pool,
							 netmem_ref *bulk, u32 bulk_len)
{
	u32 i;

	for (i = 0; i < bulk_len; i++) {
		ppcore_netmem_in(pool, bulk[i]);
		__page_pool_count_ring_put(bulk[i]);
	}
	switch (page_pool_ring_design(pool)) {
	case PP_RING_LANES:
		ppcore_lanes_recycle_ring_bulk(pool, bulk, bulk_len);
		break;
	case PP_RING_LLIST:
	case PP_RING_LLIST_BATCH:
		ppcore_llist_recycle_bulk(pool, bulk, bulk_len);
		break;
	case PP_RING_MAGAZINE:
		ppcore_mag_recycle_bulk(pool, bulk, bulk_len);
		break;
	default:
		page_pool_shared_ring_bulk(pool, bulk, bulk_len, bulk_len);
	}
}

#endif /* _PP_CORE_RING_H */
