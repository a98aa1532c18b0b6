/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The lanes design of the return ring (src/core/ring.h has the contract):
 * a lane per returning CPU, the ring credits that keep lanes and ring
 * within the kernel's ring size, and the lanes' side of the refill, the
 * bulk put, destroy's drain and the statistics. The single put's inline
 * fast path, page_pool_lane_produce(), is in ring.h.
 *
 * Memory orders (the ring's own pairs, P1/C1/C2, are in <linux/ptr_ring.h>):
 *   LC1  page_pool_lane_create() publishes pool->lanes[cpu] with a release
 *        store; the consumer (refill, destroy's drain, statistics) finds
 *        the lane through lane_mask and reads the pointer with acquire
 *        (LC1'), so it sees the lane's initialised ring.
 *   LP1  a lane's `produced` count is written by its CPU only (WRITE_ONCE)
 *        and read racily by page_pool_get_stats() (READ_ONCE): a counter,
 *        no ordering.
 *   CR1  ring_credits: compare-and-exchange loops (fully ordered, as the
 *        kernel's atomic64_try_cmpxchg()) against the consumer's add:
 *        only the count matters, it orders nothing else.
 */

#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/cpumask.h>
#include <linux/ptr_ring.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"
#include "core/ring.h"

/* A lane for every CPU id that puts; the credits a whole ring's worth. */
int ppcore_lanes_init(struct page_pool *pool, u32 ring_qsize)
{
	pool->lanes = kcalloc(NR_CPUS, sizeof(*pool->lanes), GFP_KERNEL);
	if (!pool->lanes)
		return -ENOMEM;
	/* The lanes and the shared ring together hold at most what the
	 * kernel's ring would (struct pp_lane). */
	atomic64_set(&pool->ring_credits, (s64)ring_qsize);
	return 0;
}

void ppcore_lanes_free(struct page_pool *pool)
{
	int cpu;

	if (!pool->lanes)
		return;
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (pool->lanes[cpu]) {
			ptr_ring_cleanup(&pool->lanes[cpu]->ring, NULL);
			kfree(pool->lanes[cpu]);
		}
	}
	kfree(pool->lanes);
	pool->lanes = NULL;
}

/*
 * Ring credits (PP_RING_LANES; struct pp_lane explains them). One 64-bit
 * word: the free credits (low half) and the credits lanes may hold unspent
 * (high half, "held"). A lane that takes credits takes what it needs now
 * plus some to keep for its next puts, and declares what it keeps: it has
 * spent everything it kept before (that is why it takes), so its new
 * declaration replaces its old one. The credits kept by all lanes together
 * never exceed a 32nd of the ring (page_pool_credits_keep_max()): a CPU
 * that returned pages and went quiet keeps its declaration, and costs the
 * other CPUs at most that much room, however many CPUs do it. Each lane
 * keeps at most its share of that (the 32nd divided among the CPUs that
 * may return pages) and at most 63 (so at least one atomic per 64 puts);
 * with nothing to keep, a lane takes one credit per put.
 * Taking is a compare-and-exchange loop that never lets the free count go
 * below zero; giving back (the consumer, once per refill) is one add.
 */
#define PP_CREDITS(free, held)	(((s64)(u64)(held) << 32) | (free))
#define PP_CREDITS_FREE(v)	((u32)(u64)(v))
#define PP_CREDITS_HELD(v)	((u32)((u64)(v) >> 32))

static u32 page_pool_credits_keep_max(const struct page_pool *pool)
{
	return (u32)pool->ring.size / 32;
}

/* A lane's share of what lanes may keep: among the CPUs registered or
 * with a lane already, at most 63. */
static u32 page_pool_lane_keep_share(const struct page_pool *pool)
{
	unsigned int cpus = max(num_online_cpus(), (unsigned int)atomic_read(&pool->nr_lanes));

	cpus = max(cpus, 1u);
	return min(page_pool_credits_keep_max(pool) / cpus, 63u);
}

/*
 * Take credits for @need netmems now and, for @lane (NULL: none, keep
 * nothing), up to its share to keep. Returns how many were taken (@need
 * plus what is kept, or fewer than @need when the pool has fewer free);
 * the lane's declaration becomes what it keeps. Caller is the lane's CPU.
 */
static u32 page_pool_ring_credits_take(struct page_pool *pool, struct pp_lane *lane, u32 need)
{
	s64 v = atomic64_read(&pool->ring_credits), nv;
	u32 share = lane ? page_pool_lane_keep_share(pool) : 0;
	u32 free, held, others, got, keep;

	do {
		free = PP_CREDITS_FREE(v);
		held = PP_CREDITS_HELD(v);
		if (!free)
			return 0;
		got = min(need, free);
		keep = 0;
		others = held;
		if (lane) {
			u32 room;

			others = held - lane->credits_kept;
			room = page_pool_credits_keep_max(pool) > others ?
			       page_pool_credits_keep_max(pool) - others : 0;
			if (got == need)
				keep = min3(share, room, free - got);
		}
		nv = PP_CREDITS(free - got - keep, others + keep);
	} while (!atomic64_try_cmpxchg(&pool->ring_credits, &v, nv));
	if (lane)
		lane->credits_kept = keep;
	return got + keep;
}

/* This CPU's lane has no credit left: take one and some to keep. False
 * when the pool has none: the lanes and the ring hold what the kernel's
 * ring would, the page goes home (ring_full). */
static bool page_pool_lane_credits_refill(struct page_pool *pool, struct pp_lane *lane)
{
	u32 got = page_pool_ring_credits_take(pool, lane, 1);

	lane->credit_end += got;
	return got;
}

/* With lanes: the caller holds a ring credit for @netmem, so the shared
 * ring (pool_size slots) cannot be full; if it were, the credit goes back
 * with the page. */
static noinline bool page_pool_lane_spill(struct page_pool *pool, netmem_ref netmem)
{
	if (likely(page_pool_recycle_in_shared_ring(pool, netmem)))
		return true;
	ppcore_ring_credits_put(pool, 1);
	return false;
}

/* No lane for this CPU (it could not be allocated): the shared ring, with
 * a credit taken from the pool itself. */
static noinline bool page_pool_lane_spill_uncredited(struct page_pool *pool, netmem_ref netmem)
{
	if (!page_pool_ring_credits_take(pool, NULL, 1))
		return false;
	return page_pool_lane_spill(pool, netmem);
}

/* This CPU's lane, created on its first return. Only this CPU writes
 * pool->lanes[cpu]; the consumer reads it with acquire (pairs with the
 * release here). NULL if it cannot be allocated: use the shared ring. */
static noinline struct pp_lane *page_pool_lane_create(struct page_pool *pool, int cpu)
{
	struct pp_lane *lane;

	/* The shared CPU's threads return concurrently: a single-producer
	 * lane is no place for them; the shared ring is (<pagepool/runtime.h>). */
	if (unlikely(cpu == __PP_CPU_SHARED))
		return NULL;
	lane = kzalloc(sizeof(*lane), GFP_ATOMIC);
	if (!lane)
		return NULL;
	/* No larger than the shared ring: pool_size bounds what one
	 * returning CPU can park. */
	if (ptr_ring_init(&lane->ring, min(pool->ring.size, PP_LANE_SIZE), GFP_ATOMIC)) {
		kfree(lane);
		return NULL;
	}
	smp_store_release(&pool->lanes[cpu], lane);	/* LC1 */
	set_bit(cpu, pool->lane_mask);
	atomic_inc(&pool->nr_lanes);
	return lane;
}

/*
 * Ring credits for up to @n netmems of a bulk put from CPU @cpu (the
 * caller's): its lane's first, then the pool's. Returns how many it got;
 * *lanep is the lane (NULL: none could be made, the credits are the
 * pool's alone). Caller is in a bh-disabled region.
 */
static u32 page_pool_lane_take_credits(struct page_pool *pool, int cpu, u32 n,
				       struct pp_lane **lanep)
{
	struct pp_lane *lane = pool->lanes[cpu];
	u32 held;

	if (unlikely(!lane))
		lane = page_pool_lane_create(pool, cpu);
	*lanep = lane;
	if (!lane)
		return page_pool_ring_credits_take(pool, NULL, n);
	held = (u32)(lane->credit_end - lane->produced);
	/* What is missing, plus some to keep for the puts to come. */
	if (held < n)
		lane->credit_end += page_pool_ring_credits_take(pool, lane, n - held);
	return (u32)min_t(u64, lane->credit_end - lane->produced, n);
}

/*
 * Produce into @lane, CPU @cpu's (the caller's): single producer, single
 * consumer (the pool's), so no lock and no atomic read-modify-write. The
 * caller holds a ring credit for each netmem. Caller is in a bh-disabled
 * region, i.e. an RCU read-side section: the pool's memory outlives it
 * (page_pool_free_rcu()).
 */
static __always_inline u32 page_pool_lane_produce_bulk(struct pp_lane *lane, netmem_ref *netmems,
						       u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (__ptr_ring_produce(&lane->ring, (void *)netmems[i]))
			break;
	WRITE_ONCE(lane->produced, lane->produced + i);
	return i;
}

/* Where a lane put that was not published goes: the shared ring, or home. */
/* page_pool_lane_produce() found no lane or no credit: make the lane,
 * take credits, and produce again (which then publishes or finds the lane
 * full). */
enum pp_lane_put page_pool_lane_produce_slow(struct page_pool *pool, int cpu,
					     netmem_ref netmem)
{
	struct pp_lane *lane = pool->lanes[cpu];

	if (!lane) {
		lane = page_pool_lane_create(pool, cpu);
		if (!lane)
			return PP_LANE_NO_LANE;
	}
	if (lane->produced == lane->credit_end && !page_pool_lane_credits_refill(pool, lane))
		return PP_LANE_NO_CREDIT;
	return page_pool_lane_produce(pool, cpu, netmem);
}

bool ppcore_lanes_recycle_fallback(struct page_pool *pool, netmem_ref netmem,
				   enum pp_lane_put how)
{
	if (how == PP_LANE_SLOW) {
		how = page_pool_lane_produce_slow(pool, smp_processor_id(), netmem);
		/* Published: the pool may be gone already; touch nothing. */
		if (how == PP_LANE_PUBLISHED)
			return true;
	}
	switch (how) {
	case PP_LANE_SPILL:
		return page_pool_lane_spill(pool, netmem);
	case PP_LANE_NO_LANE:
		return page_pool_lane_spill_uncredited(pool, netmem);
	default:
		return false;
	}
}

/*
 * Bulk into this CPU's lane. Returns how many went in; *credited says how
 * many of the first netmems hold a ring credit (those past the returned
 * count that do go to the shared ring; those past *credited find the pool
 * as full as the kernel's ring would be).
 */
static __always_inline u32 page_pool_lanes_bulk(struct page_pool *pool, netmem_ref *bulk,
						u32 bulk_len, u32 *credited)
{
	struct pp_lane *lane;
	u32 done = 0;

	local_bh_disable();
	*credited = page_pool_lane_take_credits(pool, smp_processor_id(), bulk_len, &lane);
	if (lane) {
		done = page_pool_lane_produce_bulk(lane, bulk, *credited);
		/* Credited netmems the lane had no room for take their
		 * credits to the shared ring - unless the lane is as large
		 * as the ring: then the ring is full, as the kernel's would
		 * be, and the credits go back. */
		lane->credit_end -= *credited - done;
		if (lane->ring.size == pool->ring.size) {
			if (*credited > done)
				ppcore_ring_credits_put(pool, *credited - done);
			*credited = done;
		}
	}
	local_bh_enable();
	return done;
}

/* A bulk: this CPU's lane first; what the lane has no room for, the
 * shared ring, each with the credit it holds. */
void ppcore_lanes_recycle_ring_bulk(struct page_pool *pool, netmem_ref *bulk, u32 bulk_len)
{
	u32 room, done = page_pool_lanes_bulk(pool, bulk, bulk_len, &room);

	if (done == bulk_len)
		return;
	page_pool_shared_ring_bulk(pool, bulk + done, bulk_len - done, room - done);
}


/*
 * Destroy: the consumer is gone, and destroy (or its retry work, the two
 * serialised by the shared ring's consumer lock) empties every lane.
 * Returns how many netmems it took; the caller gives their credits back.
 */
u32 ppcore_lanes_drain(struct page_pool *pool)
{
	netmem_ref netmem;
	u32 consumed = 0;
	int cpu;

	spin_lock_bh(&pool->ring.consumer_lock);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct pp_lane *lane;

		if (!test_bit(cpu, pool->lane_mask))
			continue;
		lane = smp_load_acquire(&pool->lanes[cpu]);	/* LC1' */
		while ((netmem = (netmem_ref)__ptr_ring_consume(&lane->ring))) {
			page_pool_return_ring_page(pool, netmem);
			consumed++;
		}
	}
	spin_unlock_bh(&pool->ring.consumer_lock);
	return consumed;
}

/* The lanes' part of the `ring` statistic: what each CPU put into its
 * lane (LP1). */
u64 ppcore_lanes_produced(const struct page_pool *pool)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		if (test_bit(cpu, pool->lane_mask))
			n += READ_ONCE(smp_load_acquire(&pool->lanes[cpu])->produced); /* LC1' */
	return n;
}
