/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The owner's side of the home state (<net/page_pool/helpers.h>, "Home
 * state", has the words and the rules; the inline allocation and direct
 * put are there): taking netmems out of the ring, and the question a
 * page's release asks first. Private to src/core.
 *
 * Memory orders: the home words are written only by the pool's owner and
 * read by others only on a put's way to a release
 * (page_pool_put_return_page(), page_pool_home_releasable()), all with
 * READ_ONCE/WRITE_ONCE (H2: relaxed, no ordering of its own). What the
 * owner must see of pp_put_seq comes with the netmem: a put's increment
 * is made before the store that publishes the netmem in the ring, which
 * the refill acquires (the ring's P1/C1, LS1); a put made before a
 * hand-off that the owner's allocation follows is seen through that
 * hand-off's own synchronisation.
 */
#ifndef _PP_CORE_HOME_H
#define _PP_CORE_HOME_H

#include <net/netmem.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"

/* Why a put is a duplicate (home.c reports it: WARN and count). */
enum pp_home_dup {
	PP_DUP_HOME,		/* the netmem was back in the pool already */
	PP_DUP_STALE,		/* made before the netmem went out again */
	PP_DUP_IN_RING,		/* a put of this trip is in the ring already */
	PP_DUP_NOT_OURS,	/* in the ring, but the page left the pool */
	PP_DUP_RELEASED,	/* let go already: its release is deferred */
};
void page_pool_home_dup(struct page_pool *pool, netmem_ref netmem, const char *where,
			enum pp_home_dup why);

/*
 * The deferred release (PP_PUT_SEQ_LIMBO). A holder that lets a netmem go
 * while a duplicate put of it waits in a ring (pp_put_seq != seen) cannot
 * release it: the put would later name a page that may be someone else's.
 * It marks the netmem instead, and whoever sees the last such put taken
 * out releases it - the owner, at its take, or the holder itself when the
 * owner took it between the holder's test and its mark. The two sides
 * are a store followed by a load of the other's word (the holder's mark
 * then seen; the owner's seen then pp_put_seq), each with a full barrier
 * between, so at least one of them sees the other; both may, and the one
 * whose compare-and-exchange clears the mark releases. All of it runs
 * only for a duplicate put: no barrier on any common path.
 *
 * While marked, the netmem's pp_ref_count is 0, so any further put of it
 * - a duplicate of this trip, the holder having let it go - underflows
 * and is reported as a double put (__page_pool_unref_underflow()) rather
 * than cache the page under its pending release.
 */
static __always_inline void page_pool_home_take_limbo(struct page_pool *pool, netmem_ref netmem,
						      u32 seen)
{
	unsigned long *seq = netmem_put_seq_ref(netmem);
	unsigned long ps;

	smp_mb();	/* seen (stored by the caller) before pp_put_seq */
	ps = READ_ONCE(*seq);
	if (likely(!(ps & PP_PUT_SEQ_LIMBO)) || (u32)ps != seen)
		return;
	/* The last put of it left in a ring: the deferred release is ours,
	 * unless its holder clears the mark first (it saw seen too). */
	if (!try_cmpxchg(seq, &ps, ps & ~PP_PUT_SEQ_LIMBO))
		return;
	atomic_long_set(netmem_get_pp_ref_count_ref(netmem), 1);
	page_pool_return_page(pool, netmem);
}

/*
 * The holder's side: true when the release is deferred (an owner's take
 * will release the netmem), false when the last duplicate was taken out
 * meanwhile and the caller releases it now.
 */
static inline bool page_pool_home_defer_release(netmem_ref netmem)
{
	unsigned long *seq = netmem_put_seq_ref(netmem);
	unsigned long ps = READ_ONCE(*seq);

	/* Before the mark: once marked, the owner may release the page. */
	atomic_long_set(netmem_get_pp_ref_count_ref(netmem), 0);
	while (!try_cmpxchg(seq, &ps, ps | PP_PUT_SEQ_LIMBO))
		;
	smp_mb();	/* the mark before seen */
	if ((u32)ps != READ_ONCE(netmem_home_ref(netmem)->seen))
		return true;
	ps |= PP_PUT_SEQ_LIMBO;
	if (!try_cmpxchg(seq, &ps, ps & ~PP_PUT_SEQ_LIMBO))
		return true;	/* the owner cleared it: its release */
	atomic_long_set(netmem_get_pp_ref_count_ref(netmem), 1);
	return false;
}

/*
 * One netmem taken out of the ring by the owner (the refill, destroy's
 * drain): true if it brings the netmem home (out, and every put counted
 * before it went out taken: seen == base), false if it is a duplicate,
 * reported here, which the caller drops. The netmem is this pool's: a put
 * checks the pool before it counts, and a page does not leave the pool
 * while a put of it is in a ring (page_pool_home_releasable()) - unless
 * two puts raced, which nothing here can tell (helpers.h). So the refill
 * reads no struct page at all; destroy's drain checks anyway
 * (page_pool_home_take_checked()).
 */
static __always_inline bool page_pool_home_take(struct page_pool *pool, netmem_ref netmem,
						const char *where)
{
	struct page_pool_home *home = netmem_home_ref(netmem);
	u32 ob = READ_ONCE(home->out_base);
	u32 seen = READ_ONCE(home->seen);

	WRITE_ONCE(home->seen, seen + 1);
	if (likely(ob == ((seen << 1) | PP_HOME_OUT))) {
		WRITE_ONCE(home->out_base, ob & ~PP_HOME_OUT);
		return true;
	}
	/* Home already, or an older trip's put: counted, and dropped. */
	page_pool_home_dup(pool, netmem, where, (ob & PP_HOME_OUT) ? PP_DUP_STALE : PP_DUP_HOME);
	page_pool_home_take_limbo(pool, netmem, seen + 1);
	return false;
}

/* The same, for destroy's drain: a netmem that is no longer this pool's
 * (two racing puts let it go) is dropped without touching its words. */
static inline bool page_pool_home_take_checked(struct page_pool *pool, netmem_ref netmem,
					       const char *where)
{
	if (unlikely(netmem_get_pp(netmem) != pool)) {
		page_pool_home_dup(pool, netmem, where, PP_DUP_NOT_OURS);
		return false;
	}
	return page_pool_home_take(pool, netmem, where);
}

/* The refill put netmems from the ring at alloc.cache[@from..count):
 * keep those that come home, in order. The owner only. */
static __always_inline void page_pool_home_take_refilled(struct page_pool *pool, u32 from)
{
	u32 i, j = from;

	for (i = from; i < pool->alloc.count; i++) {
		netmem_ref netmem = pool->alloc.cache[i];

		if (likely(page_pool_home_take(pool, netmem, "refill")))
			pool->alloc.cache[j++] = netmem;
	}
	pool->alloc.count = j;
}

/*
 * May this netmem go back to the page allocator (or its provider) now?
 * Not while a put of it waits in a ring (pp_put_seq != seen): that put
 * would later name a page that may be someone else's; the release is then
 * deferred (page_pool_home_defer_release()). Any context; the home word is
 * read racily (H2), but a caller holding the page's last reference of
 * this trip, or the owner, sees every take that came before.
 */
static __always_inline bool page_pool_home_releasable(netmem_ref netmem)
{
	unsigned long ps = READ_ONCE(*netmem_put_seq_ref(netmem));

	return !(ps & PP_PUT_SEQ_LIMBO) && (u32)ps == READ_ONCE(netmem_home_ref(netmem)->seen);
}

/*
 * A put that sends its netmem back to the page allocator instead of the
 * pool (not recyclable, or the ring full): a netmem that is home already
 * (the first put of this trip cached it), or whose first put of this trip
 * waits in the ring, is a duplicate - reported and dropped, not freed
 * under the cache or the ring. A second put made after the first sees
 * the owner's "home", or the first's count (helpers.h).
 */
static inline void page_pool_put_return_page(struct page_pool *pool, netmem_ref netmem)
{
	u32 ob = READ_ONCE(netmem_home_ref(netmem)->out_base);

	if (unlikely(!(ob & PP_HOME_OUT))) {
		page_pool_home_dup(pool, netmem, "release", PP_DUP_HOME);
		return;
	}
	/* Let go already (a put that dropped no reference of its own:
	 * page_pool_put_unrefed_netmem()). */
	if (unlikely(READ_ONCE(*netmem_put_seq_ref(netmem)) & PP_PUT_SEQ_LIMBO)) {
		page_pool_home_dup(pool, netmem, "release", PP_DUP_RELEASED);
		return;
	}
	/* A put of this trip went into the ring already (and brings the
	 * page home when taken out): this one is the duplicate. */
	if (unlikely((ob >> 1) != (__page_pool_put_seq(netmem) & (U32_MAX >> 1)))) {
		page_pool_home_dup(pool, netmem, "release", PP_DUP_IN_RING);
		return;
	}
	page_pool_return_page(pool, netmem);
}

/* A put counted for the ring found no room there: it goes home instead
 * (page_pool_return_page()), uncounted. The putter, still holding it. */
static __always_inline void page_pool_home_uncount(netmem_ref netmem)
{
	unsigned long *seq = netmem_put_seq_ref(netmem);

	WRITE_ONCE(*seq, READ_ONCE(*seq) - 1);
}

#endif /* _PP_CORE_HOME_H */
