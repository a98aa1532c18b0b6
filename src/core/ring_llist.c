/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The list designs of the return ring (src/core/ring.h has the contract),
 * after Yunsheng Lin's RFC "page_pool: use list instead of ptr_ring for
 * ring cache" and "page_pool: batch refilling pages to reduce atomic
 * operation": every return is pushed onto one lock-free singly linked
 * list per pool (one compare-and-exchange, any number of producers, any
 * context but hard IRQ), and the consumer takes from it.
 *
 *   PP_RING_LLIST        the refill pops one netmem per compare-and-exchange
 *                        (llist_del_first()'s pop: safe with the single
 *                        consumer a pool has), up to the refill target:
 *                        two atomics per netmem, the push and the pop.
 *   PP_RING_LLIST_BATCH  the refill takes the whole list with one
 *                        compare-and-exchange; what does not fit into the
 *                        alloc cache stays on a consumer-private chain for
 *                        the refills after it, each of which costs one
 *                        atomic (on the head word) whatever it moves: one
 *                        atomic per put, one per refill.
 * Either way the refill walks a chain of dependent loads, a struct page
 * line each, where a ring reads an array of slots: the price cross-CPU.
 *
 * The link: a netmem waiting in the list keeps its successor in its
 * page's `private` word (struct net_iov's pp_ring_link, at the same
 * offset), which no other part of page_pool uses; the design owns it from
 * the push until the consumer takes the netmem, and leaves it stale.
 *
 * The bound, without a second atomic per put: the list's length lives in
 * the head word itself, above the pointer - head = count << 48 | first
 * netmem (user-space addresses, net_iovs' included, are below 2^47 on
 * x86-64 and 2^48 on arm64 unless an mmap asks for more; a netmem above
 * that is refused, see pp_llist_unlinkable()). A push is one
 * compare-and-exchange that checks the count against the kernel's ring
 * size (pool->ring.size) and increments it together with linking the
 * netmem; a bulk links its netmems into a chain first and pushes the
 * chain with one. So ring_full comes exactly where the kernel's ring,
 * with nothing consumed, would refuse: after ring size netmems, for
 * single and bulk puts (a bulk takes what fits, the rest goes home with
 * one ring_full). A pushed netmem's link is the head word it replaced,
 * count included: in the LLIST design that is the exact head once the
 * netmem is popped, so a pop needs nothing but the link. In the BATCH
 * design the count also covers the consumer's private chain (those
 * netmems still wait for the alloc cache, as they would in the kernel's
 * ring), so it is decremented only as they move into the cache - by the
 * refill's one atomic - and the links' counts are not used.
 *
 * Order: both designs are LIFO, the kernel's ptr_ring is FIFO. The list
 * taken with one exchange is newest first; reversing it would walk the
 * whole list - up to the ring size of cold struct pages, one cache miss
 * each - in one refill, where the batch design walks only what goes into
 * the cache (64) and keeps the rest as it is. LIFO also hands out the
 * most recently returned pages first, the likeliest to be cached. Nothing
 * in page_pool depends on the order.
 *
 * The `ring` statistic costs the producers nothing: it is what the
 * consumer took (taken: refilled, waived or drained, consumer-written)
 * plus what waits (the head's count), ppcore_llist_produced().
 *
 * Memory orders:
 *   LL1  a push (single or bulk) is a release compare-and-exchange of the
 *        head: it publishes the links written before it and everything the
 *        putter did with the pages. It is the put's last access to the
 *        pool (rule 2 of ring.h).
 *   LL1' the consumer's acquire of the head: the LLIST pop (fully ordered,
 *        so that its failure's reload, the new first netmem, is an acquire
 *        too), the BATCH take (acquire on success; a failed one reads only
 *        the count), destroy's exchange. Every access to the head is a
 *        read-modify-write after init, so one acquire orders after every
 *        push before it (release sequences), links of netmems below the
 *        first included.
 *   LL2  the BATCH refill's decrement of the count (relaxed): a count,
 *        it publishes nothing (the netmems it accounts for are already
 *        the consumer's).
 *   LL3  taken: consumer-written (WRITE_ONCE), read racily by the
 *        statistics (READ_ONCE); a counter, no ordering.
 *   LL4  a link's PP_LLIST_LINKED bit: written with the link before the
 *        push (LL1), cleared by the consumer with a release store once
 *        the netmem is out of the list (pop, move into the cache, drain);
 *        a put reads it with acquire (LL4'): clear, and its push comes
 *        after that take in the head's order; set, and the netmem waits
 *        in the list - the put is a double put, not the list's
 *        (pp_llist_listed()).
 *
 * Double puts: the home state (<net/page_pool/helpers.h>) lets a ring
 * hold two puts of one netmem and drops the duplicate when the owner
 * takes it out; a list cannot hold a netmem twice (the second link would
 * cut it), so a put that finds its netmem linked is settled at once, as
 * a put that finds no room is (home.h's page_pool_put_return_page()). Two
 * puts of one netmem racing on two CPUs are caught by nobody (helpers.h);
 * here they may cut the list, as they would hand a page out twice in the
 * kernel.
 */

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/topology.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"
#include "core/home.h"
#include "core/ring.h"
#include "core/ring_llist.h"

static __always_inline bool pp_llist_linkable(netmem_ref netmem)
{
	return !(netmem & ~PP_LLIST_PTR);
}

/* A netmem whose address does not fit beside the count: the address
 * space was asked for more than 48 bits. Refused (it goes home, counted
 * ring_full) rather than corrupting the list. */
static noinline bool pp_llist_unlinkable(netmem_ref netmem)
{
	WARN_ONCE(1, "page_pool: netmem %#lx above 2^%d: the list ring design cannot link it\n",
		  (unsigned long)netmem, PP_LLIST_SHIFT);
	return false;
}

int ppcore_llist_init(struct page_pool *pool, u32 ring_qsize)
{
	struct pp_llist *l = kzalloc(sizeof(*l), GFP_KERNEL);

	if (!l)
		return -ENOMEM;
	atomic_long_set(&l->head, 0);
	l->size = ring_qsize;
	pool->ring_state = l;
	return 0;
}

void ppcore_llist_free(struct page_pool *pool)
{
	kfree(pool->ring_state);
	pool->ring_state = NULL;
}

/*
 * A put of a netmem that waits in the list or on the private chain
 * already (its link says so, LL4'): a list holds a netmem once - linking
 * it again would cut the list. What this put is, the home state decides,
 * as for a put that finds no room: a duplicate of the waiting one
 * (reported and dropped), or a put of a later trip while an older
 * duplicate waits, whose page then goes back to the page allocator when
 * the owner takes that duplicate out (the deferred release). Either way
 * the list is done with it. Only a double put gets here.
 */
static noinline void pp_llist_listed(struct page_pool *pool, netmem_ref netmem)
{
	page_pool_home_uncount(netmem);
	page_pool_put_return_page(pool, netmem);
}

/* One netmem, any context but hard IRQ, no RCU section assumed: the
 * successful compare-and-exchange is the last access to the pool. */
bool ppcore_llist_recycle(struct page_pool *pool, netmem_ref netmem)
{
	struct pp_llist *l = pool->ring_state;
	unsigned long *link = netmem_ring_link(netmem);
	long old;

	if (unlikely(!pp_llist_linkable(netmem)))
		return pp_llist_unlinkable(netmem);
	if (unlikely(smp_load_acquire(link) & PP_LLIST_LINKED)) {		/* LL4' */
		pp_llist_listed(pool, netmem);
		return true;
	}
	old = atomic_long_read(&l->head);
	do {
		if (unlikely(pp_llist_count((unsigned long)old) >= l->size)) {
			WRITE_ONCE(*link, 0UL);	/* not linked after all */
			return false;	/* where the kernel's ring is full */
		}
		WRITE_ONCE(*link, (unsigned long)old | PP_LLIST_LINKED);
	} while (!atomic_long_try_cmpxchg_release(&l->head, &old,		/* LL1 */
			(long)((((unsigned long)old & ~PP_LLIST_PTR) + PP_LLIST_ONE) | netmem)));
	return true;
}

/*
 * Up to PAGE_POOL_BULK_SIZE netmems: as many as there is room for are
 * linked into a chain (bulk[0] first) and pushed with one
 * compare-and-exchange; the rest go home with one ring_full, as the
 * kernel's. A netmem linked already - waiting in the list, or twice in
 * this bulk - is not the list's (pp_llist_listed()). The netmems still in
 * our hands keep the pool alive until the last of them is pushed or
 * returned, so what comes after the push is safe.
 */
void ppcore_llist_recycle_bulk(struct page_pool *pool, netmem_ref *bulk, u32 n)
{
	struct pp_llist *l = pool->ring_state;
	unsigned long bad = 0;
	u32 i, j, m = 0, c;
	long old;

	for (i = 0; i < n; i++)
		bad |= bulk[i];
	if (unlikely(!pp_llist_linkable(bad))) {
		pp_llist_unlinkable(bad);
		j = n;
		goto home;
	}
	/* Marked linked as they are looked at, so that a second copy in the
	 * bulk finds the first (LL4'). */
	for (i = j = 0; i < n; i++) {
		unsigned long *link = netmem_ring_link(bulk[i]);

		if (unlikely(smp_load_acquire(link) & PP_LLIST_LINKED)) {	/* LL4' */
			pp_llist_listed(pool, bulk[i]);
			continue;
		}
		WRITE_ONCE(*link, PP_LLIST_LINKED);
		bulk[j++] = bulk[i];
	}
	if (!j)
		return;
	old = atomic_long_read(&l->head);
	do {
		c = pp_llist_count((unsigned long)old);
		m = c < l->size ? min(j, l->size - c) : 0;
		if (!m)
			break;
		/* Each link is the head word the chain below it makes, count
		 * included (the LLIST pop installs it as it is). */
		WRITE_ONCE(*netmem_ring_link(bulk[m - 1]), (unsigned long)old | PP_LLIST_LINKED);
		for (i = m - 1; i > 0; i--)
			WRITE_ONCE(*netmem_ring_link(bulk[i - 1]),
				   ((unsigned long)(c + m - i) << PP_LLIST_SHIFT) | bulk[i] |
				   PP_LLIST_LINKED);
	} while (!atomic_long_try_cmpxchg_release(&l->head, &old,		/* LL1 */
			(long)(((unsigned long)(c + m) << PP_LLIST_SHIFT) | bulk[0])));
	if (m == j)
		return;
	for (i = m; i < j; i++)
		WRITE_ONCE(*netmem_ring_link(bulk[i]), 0UL);	/* not linked after all */
home:
	recycle_stat_inc(pool, ring_full);
	for (i = m; i < j; i++) {
		page_pool_home_uncount(bulk[i]);
		page_pool_put_return_page(pool, bulk[i]);
	}
}

/* What the refill does with a netmem of another node. */
enum pp_llist_nid { PP_LLIST_KEEP, PP_LLIST_DROP, PP_LLIST_WAIVE };

/*
 * The kernel releases a page of another node (waive) and ends the refill.
 * With the home state a release needs the netmem taken out of the ring
 * first - the caller's page_pool_home_take_refilled() takes what goes
 * into the cache, so the waived netmem is taken here - and no other put
 * of it waiting in a ring; a netmem that has one stays (KEEP: into the
 * cache, taken with the others). DROP: the take found a duplicate.
 */
static noinline enum pp_llist_nid pp_llist_other_node(struct page_pool *pool, netmem_ref netmem)
{
	unsigned long ps = READ_ONCE(*netmem_put_seq_ref(netmem));
	u32 seen = READ_ONCE(netmem_home_ref(netmem)->seen);

	if ((ps & PP_PUT_SEQ_LIMBO) || (u32)ps != seen + 1)
		return PP_LLIST_KEEP;
	if (!page_pool_home_take(pool, netmem, "refill"))
		return PP_LLIST_DROP;
	page_pool_return_page(pool, netmem);
	alloc_stat_inc(pool, waive);
	return PP_LLIST_WAIVE;
}

/*
 * Move up to @n netmems from the consumer's private chain into the alloc
 * cache (BATCH). A page of another node goes home instead (waive) and
 * ends the move: *waived. Returns how many left the chain, moved, dropped
 * or waived. The chain's links are the consumer's now (LL1' ordered their
 * writes before the take); each netmem is unlinked as it leaves (LL4).
 */
static __always_inline u32 pp_llist_priv_move(struct page_pool *pool, struct pp_llist *l,
					      u32 n, int pref_nid, bool *waived)
{
	netmem_ref netmem = l->priv;
	u32 i;

	for (i = 0; i < n && netmem; i++) {
		unsigned long *link = netmem_ring_link(netmem);
		netmem_ref cur = netmem;

		netmem = pp_llist_first(*link);
		smp_store_release(link, 0UL);					/* LL4 */
		if (unlikely(nr_node_ids > 1 && !netmem_is_pref_nid(cur, pref_nid))) {
			enum pp_llist_nid what = pp_llist_other_node(pool, cur);

			if (what == PP_LLIST_WAIVE) {
				*waived = true;
				i++;
				break;
			}
			if (what == PP_LLIST_DROP)
				continue;
		}
		pool->alloc.cache[pool->alloc.count++] = cur;
	}
	DEBUG_NET_WARN_ON_ONCE(i < n && !*waived);	/* the count and the chain disagree */
	l->priv = netmem;
	l->priv_count -= i;
	return i;
}

/*
 * BATCH: the private chain first (it is older); when it cannot fill the
 * cache, the whole shared list is taken with one compare-and-exchange
 * that also subtracts what the private chain gave (LL1'); otherwise the
 * count comes down by one subtraction (LL2). One atomic per refill,
 * however many it moves; none when both are empty. A waive costs a second
 * one (the count given back for what the take did not move).
 */
static bool pp_llist_refill_batch(struct page_pool *pool, struct pp_llist *l, int pref_nid)
{
	u32 want = PP_ALLOC_CACHE_REFILL - pool->alloc.count, moved = 0, k, got, c;
	bool waived = false;
	long old;

	if (l->priv_count) {
		moved = pp_llist_priv_move(pool, l, min(want, l->priv_count), pref_nid, &waived);
		if (moved == want || waived ||
		    !pp_llist_first((unsigned long)atomic_long_read(&l->head))) {
			atomic_long_sub((long)((unsigned long)moved << PP_LLIST_SHIFT),
					&l->head);				/* LL2 */
			goto out;
		}
	} else if (!pp_llist_first((unsigned long)atomic_long_read(&l->head))) {
		return true;		/* empty: no atomic at all */
	}

	/* Take the shared list: the count keeps what stays private. */
	old = atomic_long_read(&l->head);
	do {
		c = pp_llist_count((unsigned long)old);	/* moved + the shared list */
		k = min(c - moved, want - moved);
	} while (!atomic_long_try_cmpxchg_acquire(&l->head, &old,			/* LL1' */
			(long)((unsigned long)(c - moved - k) << PP_LLIST_SHIFT)));
	l->priv = pp_llist_first((unsigned long)old);
	l->priv_count = c - moved;
	got = pp_llist_priv_move(pool, l, k, pref_nid, &waived);
	moved += got;
	if (unlikely(got < k))		/* waived: what the take did not move waits on */
		atomic_long_add((long)((unsigned long)(k - got) << PP_LLIST_SHIFT), &l->head);
out:
	WRITE_ONCE(l->taken, l->taken + moved);				/* LL3 */
	return !waived;
}

/* LLIST: one netmem per compare-and-exchange, the first of the list; the
 * link is the head it leaves (LL1'). */
static bool pp_llist_refill_pop(struct page_pool *pool, struct pp_llist *l, int pref_nid)
{
	long old = atomic_long_read_acquire(&l->head);				/* LL1' */
	bool ok = true;
	u32 taken = 0;

	while (pool->alloc.count < PP_ALLOC_CACHE_REFILL) {
		netmem_ref netmem;
		long next;

		do {
			netmem = pp_llist_first((unsigned long)old);
			if (!netmem)
				goto out;
			next = (long)(READ_ONCE(*netmem_ring_link(netmem)) & ~PP_LLIST_LINKED);
		} while (!atomic_long_try_cmpxchg(&l->head, &old, next));	/* LL1' */
		smp_store_release(netmem_ring_link(netmem), 0UL);		/* LL4 */
		taken++;
		/* The head we installed, unless a push came in between (then
		 * the exchange fails and reloads it). */
		old = next;
		if (unlikely(nr_node_ids > 1 && !netmem_is_pref_nid(netmem, pref_nid))) {
			enum pp_llist_nid what = pp_llist_other_node(pool, netmem);

			if (what == PP_LLIST_WAIVE) {
				ok = false;
				break;
			}
			if (what == PP_LLIST_DROP)
				continue;
		}
		pool->alloc.cache[pool->alloc.count++] = netmem;
	}
out:
	WRITE_ONCE(l->taken, l->taken + taken);				/* LL3 */
	return ok;
}

bool ppcore_llist_refill(struct page_pool *pool, int pref_nid)
{
	struct pp_llist *l = pool->ring_state;

	if (page_pool_ring_design(pool) == PP_RING_LLIST_BATCH)
		return pp_llist_refill_batch(pool, l, pref_nid);
	return pp_llist_refill_pop(pool, l, pref_nid);
}

/*
 * Destroy: the consumer is gone; destroy and its retry work (serialised
 * by the shared ring's consumer lock, as the lanes') take the list with
 * one exchange, which also zeroes the count - the private chain, which
 * it covered, goes home too. Puts after it start a new list, which the
 * next retry drains.
 */
u32 ppcore_llist_drain(struct page_pool *pool)
{
	struct pp_llist *l = pool->ring_state;
	netmem_ref netmem, next;
	u32 n = 0;

	spin_lock_bh(&pool->ring.consumer_lock);
	netmem = pp_llist_first((unsigned long)atomic_long_xchg(&l->head, 0));	/* LL1' */
	for (; netmem; netmem = next, n++) {
		next = pp_llist_first(READ_ONCE(*netmem_ring_link(netmem)));
		smp_store_release(netmem_ring_link(netmem), 0UL);		/* LL4 */
		page_pool_return_ring_page(pool, netmem);
	}
	for (netmem = l->priv; netmem; netmem = next, n++) {
		next = pp_llist_first(READ_ONCE(*netmem_ring_link(netmem)));
		smp_store_release(netmem_ring_link(netmem), 0UL);		/* LL4 */
		page_pool_return_ring_page(pool, netmem);
	}
	l->priv = 0;
	l->priv_count = 0;
	WRITE_ONCE(l->taken, l->taken + n);					/* LL3 */
	spin_unlock_bh(&pool->ring.consumer_lock);
	return n;
}

/* What went in: what the consumer took plus what waits (LL3; a racy sum
 * while puts and refills run, exact when they do not). */
u64 ppcore_llist_produced(const struct page_pool *pool)
{
	const struct pp_llist *l = pool->ring_state;

	return READ_ONCE(l->taken) + pp_llist_count((unsigned long)atomic_long_read(&l->head));
}
