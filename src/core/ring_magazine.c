/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The magazine design of the return ring (PP_RING_MAGAZINE; src/core/ring.h
 * has the contract), after Bonwick and Adams, "Magazines and Vmem" (USENIX
 * 2001): a returning CPU puts into a magazine of its own with plain stores
 * and, when it is full, hands the whole magazine over to the pool's depot
 * in one operation and takes an empty one; the consumer's refill takes
 * full magazines from the depot - one exchange for all of them - moves
 * their netmems into the alloc cache and gives the empties back.
 *
 * Sizes. A magazine holds M = ring size / 16 netmems, at most 64
 * (PP_MAG_SIZE) and at least 1. 64 is the refill's batch
 * (PP_ALLOC_CACHE_REFILL): a refill of an empty cache takes one full
 * magazine whole, so the magazine goes back at once - one exchange and
 * one push per 64 pages on the consumer's side, one pop and one push per
 * 64 on the returner's; a small ring gets small magazines, so that its
 * pages do not sit in one CPU's partial magazine. The pool has the ring's
 * worth of magazines plus PP_MAG_SPARE (32) for the partial magazines
 * CPUs hold, all made at init: no put allocates.
 *
 * The bound (rule 1) is not in the magazines' slots but in ring credits,
 * as the lanes': the pool starts with the ring size, each netmem put
 * spends one, the consumer gives back what it took once per refill. A
 * CPU takes credits a few at a time (its share of a 32nd of the ring, at
 * most 63), so most puts take none. Slots would not do: a CPU that put
 * one page and went quiet would hold a magazine's worth of them for good,
 * and sixteen such CPUs the whole ring. With credits it keeps at most its
 * share of a 32nd of the ring, whatever number of CPUs do the same
 * (kernel-api/ring_bound). So: with one returning CPU and no consumer,
 * ring_full comes at the same put as the kernel's (ring size + 1), single
 * or bulk; with several, at most a 32nd of the ring earlier. The
 * magazines themselves run out only when more CPUs hold a partial one
 * than there are spare (32): then a put fails early too (ring_full),
 * never late. One difference the other way: the kernel's ptr_ring can be
 * full before it holds its size, on slots its consumer has not cleared
 * yet (it clears them 16 at a time); the magazines have no such slots.
 *
 * A partial magazine - the one a CPU fills, which it may stop filling for
 * good - is a single-producer block the consumer may read: every put
 * publishes the magazine's fill count with a release store, and the
 * consumer, when the depot has no full magazine, takes what is published
 * beyond what it took before (its own `taken`). So a quiet CPU's pages are
 * never out of reach: refill gets them when the depot is empty, destroy's
 * drain gets them always.
 *
 * Who writes which word (a magazine m; pc the per-CPU state of its CPU):
 *   m->slot[i]    the CPU that holds m, only for i >= m->count (not yet
 *                 published). The consumer reads i < count (after MC1),
 *                 or every slot once m came from the depot (after MC2).
 *   m->count      the CPU that holds m, 1 .. cap - 1 (MP1); never cap: the
 *                 put that fills m publishes it by handing it over (MP2).
 *                 The consumer resets it to 0 while m is empty in its
 *                 hands, before giving it back (ME1).
 *   m->taken      the consumer only: slots [0, taken) are taken.
 *   m->node       the CPU that hands m over (before MP2).
 *   m->next_empty the consumer, which pushes m onto the empty list (ME1);
 *                 poppers read it racily, their generation check
 *                 catches a stale read.
 *   pc->cur       the CPU itself (WRITE_ONCE); the consumer reads it
 *                 (READ_ONCE) to find partial magazines.
 *   pc->produced, pc->credit_end, pc->kept  the CPU itself; the
 *                 statistics read `produced` racily.
 *   d->credits    producers take (compare-and-exchange), the consumer and
 *                 destroy's drain give back (add): CR1.
 * A magazine is in one of four places: the depot's empty list; held by a
 * CPU (pc->cur); in the depot's full list; in the consumer's hands (cons,
 * batch). Producers move it from empty to held (ME1') and from held to
 * full (the cur store first, then MP2); only the consumer moves it from
 * full to its hands (MC2) and back to empty (ME1), and only once it took
 * every slot (taken == cap).
 *
 * Why this is correct under any interleaving:
 *   - A slot is taken once: `taken` grows from 0 to cap within one round
 *     of a magazine (empty, held, full, consumer's, empty) and each take
 *     reads [taken, end) with end no more than what is published: the
 *     count it loaded (MC1) for a held magazine, cap for one from the
 *     depot (MP2 published the last slot, MP1s the others).
 *   - The consumer never reads a magazine that is back in a producer's
 *     hands for a new round through an old pointer: it reads pc->cur and
 *     uses the magazine in the same step, and a magazine becomes empty
 *     again only through the consumer itself, after MC2 - and MC2 reads the
 *     hand-over that came after the CPU replaced pc->cur, so from then on
 *     the consumer reads the new pointer. What it may read is a stale
 *     pointer to a magazine just handed over (in the full list, not yet
 *     exchanged): count is then at most cap - 1, it takes up to it, and
 *     takes the rest, from taken on, when the exchange brings the magazine.
 *   - Nothing is lost: every netmem put is in a slot of a magazine that is
 *     held (published by MP1: the partial scan sees it), full or the
 *     consumer's; drain takes all three. What a drain may miss is only a
 *     put in progress - its netmem still in flight, its putter's - or the
 *     last slot of a magazine between the cur store and MP2, in flight
 *     until MP2 and in the depot after it, where the retry's drain finds
 *     it. A CPU that goes quiet has every netmem it put published, so
 *     destroy completes (inflight 0) whether it ever puts again or not.
 *   - Rule 2, the publishing store is the put's last access to the pool:
 *     a put takes its credit first; one that does not fill its magazine
 *     writes the slot and its `produced` count, then MP1, then nothing;
 *     one that fills it writes the slot and the count, pops an empty
 *     magazine, stores pc->cur, then MP2, then nothing. A bulk put is
 *     safe after any hand-over but its last for two reasons: the netmems
 *     it has not put yet are in flight and keep the pool from being
 *     freed, and it runs with bottom halves off, an RCU read-side section
 *     that page_pool_free_rcu() waits for.
 *   - Rule 4: the shared CPU (__PP_CPU_SHARED) is many threads; its
 *     magazine is filled under the shared ring's producer lock, by one of
 *     them at a time. The unlock comes after the publishing store: that is
 *     what page_pool_ring_sync_producers() waits for before the pool is
 *     freed, as for the kernel's ring.
 *
 * Memory orders:
 *   MP1  a put's release store of m->count (n + 1) publishes slot n, the
 *        slots before it, and what the putter did with the pages; pairs
 *        with MC1, the consumer's (refill's partial take, drain's) acquire
 *        load of m->count.
 *   MP2  the hand-over: llist_add()'s release compare-and-exchange on the
 *        depot's full list publishes the whole magazine (its last slot,
 *        which no MP1 did); pairs with MC2, the consumer's acquire exchange
 *        (llist_del_all()). Other hand-overs' compare-and-exchanges on the
 *        head continue the release sequence.
 *   ME1  the consumer's fully ordered compare-and-exchange that pushes an
 *        emptied magazine onto the empty list publishes its reset (count
 *        0, taken 0) and its link; pairs with ME1', the producer's
 *        fully ordered compare-and-exchange that pops it (the acquire read
 *        before it lets the popper read the head's link), after which the
 *        producer writes its slots.
 *   MX1  pc->cur, the CPU mask and the `produced` counters: single-writer
 *        words read racily (READ_ONCE); they order nothing - what the
 *        consumer reads through them is published by MP1, or its own.
 *   CR1  the credits: compare-and-exchange loops (fully ordered) against
 *        the consumer's add; only the count matters, they order nothing.
 */

#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/cpumask.h>
#include <linux/llist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"
#include "core/ring.h"

#define PP_MAG_SIZE	64	/* the refill's batch, PP_ALLOC_CACHE_REFILL */
#define PP_MAG_MIN_NR	16	/* magazines' worth of the ring, at least */
#define PP_MAG_SPARE	32	/* magazines beyond the ring's worth */

struct pp_mag {
	u32 count;		/* published fill (MP1); the holder's */
	u32 cap;		/* slots; constant */
	u32 taken;		/* the consumer's */
	u32 next_empty;		/* the empty list's link: index + 1, 0 ends */
	u32 idx;		/* in the depot's array; constant */
	struct llist_node node;	/* the full list's link */
	netmem_ref slot[];
};

/* A CPU's magazine, its count of netmems put (the `ring` statistic) and
 * the end of the ring credits it took (credit_end - produced of them are
 * unspent, `kept` of those declared in the depot's held count); on a line
 * of its own: two returning CPUs write no line in common. */
struct pp_mag_cpu {
	struct pp_mag *cur;
	u64 produced;
	u64 credit_end;
	u32 kept;
} ____cacheline_aligned_in_smp;

struct pp_mag_depot {
	/* The consumer's: the magazine it is emptying (taken < cap), the
	 * rest of the full magazines its last exchange brought, and where
	 * the partial scan starts. */
	struct pp_mag *cons;
	struct llist_node *batch;
	u32 cursor;

	/* The depot proper, one line: a hand-over pops an empty magazine
	 * and pushes the full one, the consumer exchanges the full list,
	 * pushes the emptied one and gives back the credits of what it took.
	 * Full: any number of pushers, one taker of all. Empty: a generation
	 * in the high half (against ABA: a popper that read a head and its
	 * link, then lost the line while the head went and came back, fails
	 * its compare-and-exchange) and the head's index + 1 in the low half.
	 * Credits: free (low half) and declared kept (high half). */
	struct llist_head full ____cacheline_aligned_in_smp;
	atomic64_t empty;
	atomic64_t credits;

	/* Read-mostly: the CPUs that ever held a magazine (the partial scan
	 * visits those) and their number, the ring size, the magazines. */
	unsigned long cpu_mask[(NR_CPUS + BITS_PER_LONG - 1) / BITS_PER_LONG]
		____cacheline_aligned_in_smp;
	atomic_t nr_cpus;
	u32 ring_size;
	u8 *mags;
	size_t stride;
	u32 nr;

	struct pp_mag_cpu cpu[NR_CPUS];
};

static inline struct pp_mag_depot *pp_mag_depot(const struct page_pool *pool)
{
	return pool->ring_state;
}

static inline struct pp_mag *pp_mag_at(const struct pp_mag_depot *d, u32 idx)
{
	return (struct pp_mag *)(d->mags + (size_t)idx * d->stride);
}

#define PP_MAG_EMPTY(gen, idx1)	((s64)(((u64)(u32)(gen) << 32) | (u32)(idx1)))
#define PP_MAG_EMPTY_GEN(v)	((u32)((u64)(v) >> 32))
#define PP_MAG_EMPTY_IDX1(v)	((u32)(u64)(v))

/* An empty magazine for a producer, or NULL: none left. ME1'. */
static struct pp_mag *pp_mag_empty_pop(struct pp_mag_depot *d)
{
	s64 v = atomic64_read_acquire(&d->empty);
	struct pp_mag *m;

	do {
		u32 idx1 = PP_MAG_EMPTY_IDX1(v);

		if (!idx1)
			return NULL;
		m = pp_mag_at(d, idx1 - 1);
		/* Racy when another producer popped m meanwhile: then the
		 * generation moved and the compare-and-exchange fails. */
	} while (!atomic64_try_cmpxchg(&d->empty, &v,
				       PP_MAG_EMPTY(PP_MAG_EMPTY_GEN(v) + 1,
						    READ_ONCE(m->next_empty))));
	return m;
}

/* An emptied magazine back for the producers (the consumer, or init). ME1. */
static void pp_mag_empty_push(struct pp_mag_depot *d, struct pp_mag *m)
{
	s64 v = atomic64_read(&d->empty);

	WRITE_ONCE(m->count, 0);
	m->taken = 0;
	do {
		WRITE_ONCE(m->next_empty, PP_MAG_EMPTY_IDX1(v));
	} while (!atomic64_try_cmpxchg(&d->empty, &v,
				       PP_MAG_EMPTY(PP_MAG_EMPTY_GEN(v) + 1, m->idx + 1)));
}

/*
 * Ring credits, as the lanes' (src/core/ring_lanes.c; struct pp_lane in
 * ring.h): the depot starts with the ring size; a put spends one, the
 * consumer gives back what it took, once per refill. A CPU takes what it
 * needs now plus some to keep for its next puts (so most puts take none)
 * and declares what it keeps - it has spent what it kept before, that is
 * why it takes, so the new declaration replaces the old. All CPUs
 * together keep at most a 32nd of the ring, each at most its share of
 * that and at most 63: a CPU that went quiet costs the others no more.
 * CR1: compare-and-exchange loops (fully ordered) against the consumer's
 * add; only the count matters, they order nothing else.
 */
#define PP_CREDITS(free, held)	(((s64)(u64)(held) << 32) | (free))
#define PP_CREDITS_FREE(v)	((u32)(u64)(v))
#define PP_CREDITS_HELD(v)	((u32)((u64)(v) >> 32))

static u32 pp_mag_keep_share(const struct pp_mag_depot *d)
{
	unsigned int cpus = max(num_online_cpus(), (unsigned int)atomic_read(&d->nr_cpus));

	return min(d->ring_size / 32 / max(cpus, 1u), 63u);
}

/* Credits for @need netmems and some to keep for CPU @pc, which will
 * spend all it holds unspent: credit_end moves by what it got (fewer than
 * @need, and nothing kept, when the pool has fewer free). */
static void pp_mag_credits_take(struct pp_mag_depot *d, struct pp_mag_cpu *pc, u32 need)
{
	s64 v = atomic64_read(&d->credits), nv;
	u32 share = pp_mag_keep_share(d), keep_max = d->ring_size / 32;
	u32 free, others, got, keep;

	do {
		free = PP_CREDITS_FREE(v);
		if (!free)
			return;
		got = min(need, free);
		others = PP_CREDITS_HELD(v) - pc->kept;
		keep = 0;
		if (got == need && keep_max > others)
			keep = min3(share, keep_max - others, free - got);
		nv = PP_CREDITS(free - got - keep, others + keep);
	} while (!atomic64_try_cmpxchg(&d->credits, &v, nv));	/* CR1 */
	pc->kept = keep;
	pc->credit_end += got + keep;
}

/* @n netmems left the magazines (or a credit taken was not spent). */
static void pp_mag_credits_put(struct pp_mag_depot *d, u32 n)
{
	/* The free count stays below 2^32 (at most the ring's size). */
	atomic64_add(n, &d->credits);				/* CR1 */
}

int ppcore_mag_init(struct page_pool *pool, u32 ring_qsize)
{
	u32 size = clamp_t(u32, ring_qsize / PP_MAG_MIN_NR, 1, PP_MAG_SIZE);
	struct pp_mag_depot *d;
	u32 i;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->ring_size = ring_qsize;
	d->nr = DIV_ROUND_UP(ring_qsize, size) + PP_MAG_SPARE;
	d->stride = ALIGN(sizeof(struct pp_mag) + size * sizeof(netmem_ref),
			  (size_t)SMP_CACHE_BYTES);
	d->mags = kcalloc(d->nr, d->stride, GFP_KERNEL);
	if (!d->mags) {
		kfree(d);
		return -ENOMEM;
	}
	init_llist_head(&d->full);
	atomic64_set(&d->empty, 0);
	atomic64_set(&d->credits, PP_CREDITS(ring_qsize, 0));
	/* Pushed last first, so the first magazines go out first. */
	for (i = d->nr; i-- > 0;) {
		struct pp_mag *m = pp_mag_at(d, i);

		m->idx = i;
		m->cap = size;
		pp_mag_empty_push(d, m);
	}
	pool->ring_state = d;
	return 0;
}

void ppcore_mag_free(struct page_pool *pool)
{
	struct pp_mag_depot *d = pp_mag_depot(pool);

	if (!d)
		return;
	kfree(d->mags);
	kfree(d);
	pool->ring_state = NULL;
}

/*
 * Put @n netmems, all holding a credit, into CPU @pc's magazine, taking
 * an empty one when it has none, handing it over when it fills. Returns
 * how many went in: fewer than @n when no empty magazine was left. Caller
 * is the CPU (or holds the producer lock, for the shared CPU). When
 * everything went in, the publishing store (MP1 or MP2) was the last
 * access to the pool; when not, the netmems left are still the caller's,
 * in flight, and keep the pool alive.
 */
static u32 pp_mag_put(struct page_pool *pool, struct pp_mag_depot *d, struct pp_mag_cpu *pc,
		      int cpu, const netmem_ref *netmems, u32 n)
{
	u32 done = 0;

	while (done < n) {
		struct pp_mag *m = pc->cur;
		u32 c, k;

		if (!m) {
			m = pp_mag_empty_pop(d);
			if (!m)
				break;
			if (unlikely(!test_bit(cpu, d->cpu_mask))) {
				set_bit(cpu, d->cpu_mask);
				atomic_inc(&d->nr_cpus);
			}
			WRITE_ONCE(pc->cur, m);		/* MX1 */
		}
		c = m->count;
		k = min(m->cap - c, n - done);
		memcpy(&m->slot[c], &netmems[done], k * sizeof(*netmems));
		done += k;
		WRITE_ONCE(pc->produced, pc->produced + k);	/* MX1 */
		if (c + k < m->cap) {
			smp_store_release(&m->count, c + k);	/* MP1 */
		} else {
			/* Full: the CPU's next magazine first (after the
			 * hand-over the pool may be gone), then the whole
			 * magazine to the depot. */
			WRITE_ONCE(pc->cur, pp_mag_empty_pop(d));	/* MX1 */
			llist_add(&m->node, &d->full);		/* MP2 */
		}
	}
	/* Right after the last publishing store: a test may free the pool
	 * here (passes the pointer only). */
	if (done)
		ppcore_hook(PP_HOOK_LANE_PUBLISHED, pool);
	return done;
}

/*
 * @n netmems into CPU @pc's magazines: the credits first (what @pc holds,
 * then the depot's), then the magazines. Returns how many went in; the
 * credits of those that did not go back.
 */
static u32 pp_mag_put_credited(struct page_pool *pool, struct pp_mag_depot *d,
			       struct pp_mag_cpu *pc, int cpu, const netmem_ref *netmems, u32 n)
{
	u32 held = (u32)(pc->credit_end - pc->produced), avail, done;

	if (held < n)
		pp_mag_credits_take(d, pc, n - held);
	avail = (u32)min_t(u64, pc->credit_end - pc->produced, n);
	done = avail ? pp_mag_put(pool, d, pc, cpu, netmems, avail) : 0;
	if (unlikely(done < avail)) {
		/* No empty magazine (more CPUs hold one than the pool has
		 * spare): the credits go back, the pages home. */
		pc->credit_end -= avail - done;
		pp_mag_credits_put(d, avail - done);
	}
	return done;
}

static bool pp_mag_producer_lock(struct page_pool *pool)
{
	bool in_softirq = in_softirq();

	if (in_softirq)
		spin_lock(&pool->ring.producer_lock);
	else
		spin_lock_bh(&pool->ring.producer_lock);
	return in_softirq;
}

static void pp_mag_producer_unlock(struct page_pool *pool, bool in_softirq)
{
	if (in_softirq)
		spin_unlock(&pool->ring.producer_lock);
	else
		spin_unlock_bh(&pool->ring.producer_lock);
}

/* The shared CPU's threads: its magazine under the producer lock. */
static noinline bool pp_mag_recycle_shared(struct page_pool *pool, netmem_ref netmem)
{
	struct pp_mag_depot *d = pp_mag_depot(pool);
	bool in_softirq = pp_mag_producer_lock(pool);
	u32 done = pp_mag_put_credited(pool, d, &d->cpu[__PP_CPU_SHARED], __PP_CPU_SHARED,
				       &netmem, 1);

	pp_mag_producer_unlock(pool, in_softirq);
	return done;
}

/* No credit, no magazine, or this put fills it: the general case. */
static noinline bool pp_mag_recycle_slow(struct page_pool *pool, int cpu, netmem_ref netmem)
{
	struct pp_mag_depot *d = pp_mag_depot(pool);

	return pp_mag_put_credited(pool, d, &d->cpu[cpu], cpu, &netmem, 1);
}

/* A thread that has no CPU id yet, or the shared CPU's. */
static noinline bool pp_mag_recycle_any_cpu(struct page_pool *pool, netmem_ref netmem)
{
	int cpu = smp_processor_id();

	if (cpu == __PP_CPU_SHARED)
		return pp_mag_recycle_shared(pool, netmem);
	return pp_mag_recycle_slow(pool, cpu, netmem);
}

/*
 * One netmem into this CPU's magazine: a slot, the count, the publishing
 * store (MP1) - no atomic read-modify-write, no line the consumer writes.
 * A put that fills the magazine, finds none or has no credit left goes the
 * slow way.
 */
bool ppcore_mag_recycle(struct page_pool *pool, netmem_ref netmem)
{
	struct pp_mag_depot *d = pp_mag_depot(pool);
	/* smp_processor_id() without its lazy registration, whose call
	 * would make every put save registers: a thread with no id yet
	 * (negative: huge, unsigned) or on the shared CPU goes the general
	 * way, which asks smp_processor_id(). */
	unsigned int cpu = (unsigned int)__pp_ctx.cpu;
	struct pp_mag_cpu *pc;
	struct pp_mag *m;
	u32 c;

	if (unlikely(cpu >= __PP_CPU_SHARED))
		return pp_mag_recycle_any_cpu(pool, netmem);
	pc = &d->cpu[cpu];
	m = pc->cur;
	if (unlikely(!m || pc->produced == pc->credit_end))
		return pp_mag_recycle_slow(pool, (int)cpu, netmem);
	c = m->count;
	if (unlikely(c + 1 >= m->cap))
		return pp_mag_recycle_slow(pool, (int)cpu, netmem);
	m->slot[c] = netmem;
	WRITE_ONCE(pc->produced, pc->produced + 1);		/* MX1 */
	smp_store_release(&m->count, c + 1);			/* MP1 */
	ppcore_hook(PP_HOOK_LANE_PUBLISHED, pool);	/* passes the pointer only */
	return true;
}

/*
 * A bulk: fill this CPU's magazine from it, handing magazines over as they
 * fill; what finds no credit (or no empty magazine) goes home with one
 * ring_full, as the kernel's bulk finds its ring full once.
 */
void ppcore_mag_recycle_bulk(struct page_pool *pool, netmem_ref *bulk, u32 n)
{
	struct pp_mag_depot *d = pp_mag_depot(pool);
	u32 done, i;
	int cpu;

	if (!n)
		return;
	/* A stable CPU id, and on the shared CPU one thread at a time with
	 * bottom halves off - the producer lock serialises it against the
	 * shared CPU's single puts, which run with them on. */
	local_bh_disable();
	cpu = smp_processor_id();
	if (unlikely(cpu == __PP_CPU_SHARED)) {
		spin_lock(&pool->ring.producer_lock);
		done = pp_mag_put_credited(pool, d, &d->cpu[cpu], cpu, bulk, n);
		spin_unlock(&pool->ring.producer_lock);
	} else {
		done = pp_mag_put_credited(pool, d, &d->cpu[cpu], cpu, bulk, n);
	}
	local_bh_enable();
	if (done == n)
		return;
	/* The rest is still ours, in flight: the pool is alive. Their puts
	 * were counted for the ring (home state): uncounted, they go home. */
	recycle_stat_inc(pool, ring_full);
	for (i = done; i < n; i++) {
		page_pool_home_uncount(bulk[i]);
		page_pool_put_return_page(pool, bulk[i]);
	}
}

/*
 * The consumer takes @m's slots from m->taken up to @end (published) into
 * the alloc cache, as far as the refill goes; *@consumed counts them.
 * Each comes home as it leaves the ring (home state: a duplicate put is
 * dropped here), as the ptr_ring's refill does (page_pool_refill_from()).
 * A page of another node goes home and ends the refill: false.
 */
static __always_inline bool pp_mag_take(struct page_pool *pool, struct pp_mag *m, u32 end,
					int pref_nid, u32 *consumed)
{
	u32 t = m->taken, k = min(end - t, PP_ALLOC_CACHE_REFILL - pool->alloc.count);

	if (likely(nr_node_ids <= 1)) {
		u32 from = pool->alloc.count;

		memcpy(&pool->alloc.cache[from], &m->slot[t], k * sizeof(netmem_ref));
		pool->alloc.count += k;
		m->taken = t + k;
		*consumed += k;
		page_pool_home_take_refilled(pool, from);
		return true;
	}
	while (k--) {
		netmem_ref netmem = m->slot[t++];

		++*consumed;
		if (unlikely(!page_pool_home_take(pool, netmem, "refill")))
			continue;
		/* A page with a duplicate put still in a ring stays (it may
		 * not go back to the page allocator yet). */
		if (likely(netmem_is_pref_nid(netmem, pref_nid)) ||
		    unlikely(!page_pool_home_releasable(netmem))) {
			pool->alloc.cache[pool->alloc.count++] = netmem;
		} else {
			m->taken = t;
			page_pool_return_page(pool, netmem);
			alloc_stat_inc(pool, waive);
			return false;
		}
	}
	m->taken = t;
	return true;
}

/* The next full magazine for the consumer: the rest of its last exchange,
 * or all the depot has now (MC2); NULL when the depot is empty. */
static struct pp_mag *pp_mag_next_full(struct pp_mag_depot *d)
{
	struct llist_node *node = d->batch;

	if (!node) {
		node = llist_del_all(&d->full);			/* MC2 */
		if (!node)
			return NULL;
	}
	d->batch = node->next;
	return container_of(node, struct pp_mag, node);
}

/*
 * The depot is empty: take what the CPUs' partial magazines published
 * (MC1), from the CPU the last scan stopped at, so that pages of a CPU
 * that went quiet do not wait while the pool allocates new ones.
 */
static bool pp_mag_take_partials(struct page_pool *pool, struct pp_mag_depot *d, int pref_nid,
				 u32 *consumed)
{
	unsigned int i, start = d->cursor;

	for (i = 0; i < ARRAY_SIZE(d->cpu_mask); i++) {
		unsigned int w = (start + i) % ARRAY_SIZE(d->cpu_mask);
		unsigned long bits = READ_ONCE(d->cpu_mask[w]);	/* MX1 */

		while (bits) {
			int cpu = (int)(w * BITS_PER_LONG + __ffs(bits));
			struct pp_mag *m = READ_ONCE(d->cpu[cpu].cur);	/* MX1 */
			u32 c;

			bits &= bits - 1;
			if (!m)
				continue;
			c = smp_load_acquire(&m->count);	/* MC1 */
			if (c == m->taken)
				continue;
			if (!pp_mag_take(pool, m, c, pref_nid, consumed))
				return false;
			if (pool->alloc.count >= PP_ALLOC_CACHE_REFILL) {
				d->cursor = w;
				return true;
			}
		}
	}
	return true;
}

/* Full magazines first, then partial ones. */
static bool pp_mag_refill(struct page_pool *pool, struct pp_mag_depot *d, int pref_nid,
			  u32 *consumed)
{
	while (pool->alloc.count < PP_ALLOC_CACHE_REFILL) {
		struct pp_mag *m = d->cons;

		if (!m) {
			m = pp_mag_next_full(d);
			if (!m)
				return pp_mag_take_partials(pool, d, pref_nid, consumed);
			d->cons = m;
		}
		if (!pp_mag_take(pool, m, m->cap, pref_nid, consumed))
			return false;
		if (m->taken < m->cap)
			break;
		d->cons = NULL;
		pp_mag_empty_push(d, m);			/* ME1 */
	}
	return true;
}

/* The consumer's refill; what it took frees its credits, in one add. */
bool ppcore_mag_refill(struct page_pool *pool, int pref_nid)
{
	struct pp_mag_depot *d = pp_mag_depot(pool);
	u32 consumed = 0;
	bool ret = pp_mag_refill(pool, d, pref_nid, &consumed);

	if (consumed)
		pp_mag_credits_put(d, consumed);
	return ret;
}

/* Destroy: @m's slots from taken up to @end go home. */
static u32 pp_mag_drain_one(struct page_pool *pool, struct pp_mag *m, u32 end)
{
	u32 n = end - m->taken;

	while (m->taken < end)
		page_pool_return_ring_page(pool, m->slot[m->taken++]);
	return n;
}

/*
 * Destroy: the consumer is gone; destroy and its retry work (serialised by
 * the shared ring's consumer lock, as the lanes' drain) take every full
 * magazine and what every partial one published. Emptied magazines and
 * the credits go back, so late puts keep finding room; what they put the
 * retry takes.
 */
u32 ppcore_mag_drain(struct page_pool *pool)
{
	struct pp_mag_depot *d = pp_mag_depot(pool);
	struct pp_mag *m;
	u32 n = 0;
	int cpu;

	spin_lock_bh(&pool->ring.consumer_lock);
	if (d->cons) {
		m = d->cons;
		d->cons = NULL;
		n += pp_mag_drain_one(pool, m, m->cap);
		pp_mag_empty_push(d, m);			/* ME1 */
	}
	while ((m = pp_mag_next_full(d))) {
		n += pp_mag_drain_one(pool, m, m->cap);
		pp_mag_empty_push(d, m);			/* ME1 */
	}
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!test_bit(cpu, d->cpu_mask))		/* MX1 */
			continue;
		m = READ_ONCE(d->cpu[cpu].cur);			/* MX1 */
		if (m)
			n += pp_mag_drain_one(pool, m, smp_load_acquire(&m->count)); /* MC1 */
	}
	spin_unlock_bh(&pool->ring.consumer_lock);
	if (n)
		pp_mag_credits_put(d, n);
	return n;
}

/* The `ring` statistic: what each CPU put into its magazines (MX1). */
u64 ppcore_mag_produced(const struct page_pool *pool)
{
	const struct pp_mag_depot *d = pp_mag_depot(pool);
	u64 n = 0;
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (test_bit(cpu, d->cpu_mask))
			n += READ_ONCE(d->cpu[cpu].produced);
	return n;
}

/* Slots [from, to) of @m that hold @pool's netmems. */
static u32 pp_mag_count_own(const struct page_pool *pool, const struct pp_mag *m, u32 from,
			    u32 to)
{
	u32 n = 0;

	for (; from < to; from++)
		n += netmem_get_pp(m->slot[from]) == pool;
	return n;
}

u32 ppcore_mag_parked(const struct page_pool *pool)
{
	const struct pp_mag_depot *d = pp_mag_depot(pool);
	const struct llist_node *node;
	u32 n = 0;
	int pass, cpu;

	if (d->cons)
		n += pp_mag_count_own(pool, d->cons, d->cons->taken, d->cons->cap);
	/* The consumer's batch, then the depot's full list. */
	for (pass = 0; pass < 2; pass++) {
		node = pass ? READ_ONCE(d->full.first) : d->batch;
		for (; node; node = node->next) {
			const struct pp_mag *m = container_of(node, struct pp_mag, node);

			n += pp_mag_count_own(pool, m, m->taken, m->cap);
		}
	}
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct pp_mag *m = READ_ONCE(d->cpu[cpu].cur);

		if (m)
			n += pp_mag_count_own(pool, m, m->taken, smp_load_acquire(&m->count));
	}
	return n;
}
