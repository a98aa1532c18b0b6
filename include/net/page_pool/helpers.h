/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool inline helpers, as the kernel's include/net/page_pool/helpers.h:
 * the calls drivers make per packet.
 *
 * Fast paths. page_pool_alloc_netmems() and page_pool_alloc_pages() are
 * exported functions (kernel code may take their address); calls to them
 * are also macros onto inline bodies holding just the fast path - pop from
 * the alloc cache - so a driver's RX loop runs them without a call, as
 * DPDK's mempool cache does. (A function-like macro does not touch
 * &page_pool_alloc_pages or the prototypes in types.h, which come first.)
 * page_pool_put_netmem() and the puts over it push a directly recycled
 * page back into the cache inline; every other put calls
 * __page_pool_put_unrefed_netmem() (src/core/recycle.c).
 *
 * The put helpers are __always_inline: gcc otherwise outlines
 * page_pool_put_netmem() at -O2, which costs the fast path a call and
 * its register saves (bench_page_pool_simple's tasklet01 shows it).
 *
 * Safety checks that the kernel leaves to debug builds stay on, because
 * they cost a load and a compare on cache lines the fast path touches
 * anyway: a put names the page's own pool (else WARN, nothing freed twice,
 * see page_pool_put_netmem()), and a put of a page that is back in the
 * pool already is reported and dropped instead of a page cached twice
 * (home state, below).
 * Layer: core.
 */
#ifndef _PP_NET_PAGE_POOL_HELPERS_H
#define _PP_NET_PAGE_POOL_HELPERS_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <net/page_pool/types.h>
#include <pagepool/runtime.h>

/* What the inline fast paths call (exported). */
/**
 * __page_pool_alloc_netmems_slow() - allocation when the alloc cache is empty
 * @pool: the pool
 * @gfp: allocation flags
 *
 * Refills the cache from the ring, else allocates from the page allocator
 * (or the memory provider). What the inline fast path calls.
 *
 * Context: the pool's consumer context.
 * Return: the netmem, or 0.
 */
netmem_ref __page_pool_alloc_netmems_slow(struct page_pool *pool, gfp_t gfp);
/**
 * __page_pool_put_unrefed_netmem() - page_pool_put_unrefed_netmem() past its owner check
 * @pool: the pool, netmem_get_pp(@netmem) as the caller checked
 * @netmem: the netmem
 * @dma_sync_size: bytes to sync for the device (-1: max_len)
 * @allow_direct: the caller is the pool's consumer context
 *
 * Context: any context; @allow_direct only in the consumer's.
 */
void __page_pool_put_unrefed_netmem(struct page_pool *pool, netmem_ref netmem,
				    unsigned int dma_sync_size, bool allow_direct);
/**
 * __page_pool_put_misdirected() - refuse a put that names the wrong pool
 * @pool: the pool the caller named
 * @netmem: the netmem, which is not @pool's
 * @dma_sync_size: as the put's
 * @allow_direct: as the put's
 *
 * A WARN and the misuse counter (foreign_pool or not_pp_page); the netmem
 * is not touched. Except a page that backs a net_iov of a bound area
 * (pp_net_iov_area_bind_pages()): with @pool named, that is a put of the
 * net_iov to @pool, with the same owner check.
 *
 * Context: any context.
 */
void __page_pool_put_misdirected(struct page_pool *pool, netmem_ref netmem,
				 unsigned int dma_sync_size, bool allow_direct);
/**
 * __page_pool_unref_underflow() - report more pp references dropped than held
 * @netmem: the netmem
 * @nr: references dropped
 * @ret: the count that resulted
 *
 * A WARN and the misuse counter ref_underflow; page_pool_unref_netmem()
 * then undoes the drop.
 *
 * Context: any context.
 */
void __page_pool_unref_underflow(netmem_ref netmem, long nr, long ret);
/**
 * __page_pool_alloc_unreadable() - a page allocator got a net_iov
 * @pool: a memory-provider pool
 * @netmem: the net_iov it gave
 *
 * The net_iov goes back to the pool, with a WARN.
 *
 * Context: the pool's consumer context.
 * Return: NULL.
 */
__cold struct page *__page_pool_alloc_unreadable(struct page_pool *pool, netmem_ref netmem);

/*
 * The builds whose library must see every allocation and direct recycle:
 * CONFIG_DEBUG_NET (the consumer guard), CONFIG_PAGEPOOL_HOLDERS (holder
 * tracking) and CONFIG_PAGEPOOL_POISON (use-after-recycle poisoning). The
 * inline fast paths below then call the library instead of touching the
 * alloc cache, and the allocation helpers are __always_inline, so the
 * return address the library records as the take site is the caller's
 * code even at -O0; in every other build they are what they always were.
 */
#if IS_ENABLED(CONFIG_DEBUG_NET) || IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS) || \
	IS_ENABLED(CONFIG_PAGEPOOL_POISON)
#define __PP_FASTPATH_IN_LIBRARY	1
#define __pp_alloc_inline		__always_inline
#else
#define __PP_FASTPATH_IN_LIBRARY	0
#define __pp_alloc_inline		inline
#endif

static inline bool is_page_pool_compiled_in(void)
{
	return true;
}

/* Consumer-only counters: one writer, racy readers; see types.h. */
#ifdef CONFIG_PAGE_POOL_STATS
#define __pp_consumer_stat_inc(field)	WRITE_ONCE(field, READ_ONCE(field) + 1)
#else
#define __pp_consumer_stat_inc(field)	do { } while (0)
#endif

/**
 * page_pool_fragment_netmem() - split a fresh page into @nr references
 * @netmem: the netmem
 * @nr: the number of pp references it then holds
 *
 * The page must be fresh: allocated and not yet given to anyone.
 */
static inline void page_pool_fragment_netmem(netmem_ref netmem, long nr)
{
	atomic_long_set(netmem_get_pp_ref_count_ref(netmem), nr);
}

static inline void page_pool_fragment_page(struct page *page, long nr)
{
	page_pool_fragment_netmem(page_to_netmem(page), nr);
}

/**
 * page_pool_unref_netmem() - drop @nr references
 * @netmem: the netmem
 * @nr: references to drop
 *
 * When the caller holds them all (the common single-user case) no atomic
 * read-modify-write is needed. Dropping more than are held is reported and
 * undone (the count never goes negative).
 *
 * Return: the references left.
 */
static __always_inline long page_pool_unref_netmem(netmem_ref netmem, long nr)
{
	atomic_long_t *pp_ref_count = netmem_get_pp_ref_count_ref(netmem);
	long ret;

	/*
	 * Acquire, where the kernel reads relaxed: when two users share a
	 * page (fragments), the other one's earlier reads of the page happen
	 * before its seq_cst decrement; acquiring that value orders them
	 * before our recycle or free, which rewrites those words. A plain
	 * load on x86; found by the TSan stress (docs/RELIABILITY.md).
	 * U1' here, against U1, the fully ordered decrement below.
	 */
	if (atomic_long_read_acquire(pp_ref_count) == nr) {
		/* Last user: leave one reference for the next owner (the
		 * "1 piece" state fresh pages are in). Constant nr is 1. */
		if (!__builtin_constant_p(nr))
			atomic_long_set(pp_ref_count, 1);
		return 0;
	}

	ret = atomic_long_sub_return(nr, pp_ref_count);	/* U1 */
	if (unlikely(ret <= 0)) {
		if (ret < 0) {
			__page_pool_unref_underflow(netmem, nr, ret);
			return ret;
		}
		atomic_long_set(pp_ref_count, 1);
	}
	return ret;
}

static inline long page_pool_unref_page(struct page *page, long nr)
{
	return page_pool_unref_netmem(page_to_netmem(page), nr);
}

static inline void page_pool_ref_netmem(netmem_ref netmem)
{
	atomic_long_inc(netmem_get_pp_ref_count_ref(netmem));
}

static inline void page_pool_ref_page(struct page *page)
{
	page_pool_ref_netmem(page_to_netmem(page));
}

static __always_inline bool page_pool_unref_and_test(netmem_ref netmem)
{
	return page_pool_unref_netmem(netmem, 1) == 0;
}

/* Older name of page_pool_unref_and_test(). */
static __always_inline bool page_pool_is_last_ref(netmem_ref netmem)
{
	return page_pool_unref_and_test(netmem);
}

/*
 * Home state: whether a netmem is home (in the alloc cache or the ring) or
 * out (with a user), so that a put of a netmem that is home already, a
 * double put, is caught - without the putter writing what the pool's
 * owner writes. pp_ref_count stays 1 while a netmem is home, as in the
 * kernel, so the put of a single user only reads it. The state is two
 * words, each with one kind of writer:
 *
 *   pp_put_seq   in the netmem (the kernel's padding word): how many
 *                last-reference puts went into the ring, counted by each
 *                putter as it puts (a plain increment). A returner on
 *                another CPU writes this and its ring slot, nothing the
 *                owner writes; the owner reads it, so the line moves once
 *                per trip, not twice (the owner writing pp_ref_count at
 *                allocation and the returner at its put was that).
 *   home words   struct page_pool_home, netmem_home_ref(): away from the
 *                netmem's cache line (beside the memmap for a page), and
 *                written only by the pool's owner (its consumer context,
 *                or destroy once there is no consumer):
 *                  out_base  bit 0: out; the rest: pp_put_seq when the
 *                            netmem went out ("base")
 *                  seen      pp_put_seq puts the owner took out of the
 *                            ring, whatever became of them
 *                Counts are modulo 2^31 (base) and 2^32; a ring holds at
 *                most 16384.
 *
 * The owner's rules:
 *   allocation       out, base = pp_put_seq. Puts counted then but not
 *                    yet taken out of the ring (seen < base) were made
 *                    while the netmem was home: duplicates.
 *   direct put       taken iff out; then home. (Had a put into the ring
 *                    come first on this trip, it is found when it is
 *                    taken out: home already, or older than the next
 *                    allocation.)
 *   taking one out   seen++; it brings the netmem home iff out and seen
 *   of the ring      was base (the refill, destroy's drain); any other is
 *                    a duplicate - home already, or older than the
 *                    allocation - and is dropped. Which of two puts of
 *                    one trip is dropped does not matter: both name the
 *                    same netmem.
 * A duplicate is reported (WARN, the double_put misuse counter) where the
 * owner finds it, at once for a direct put (or a put that would release a
 * page that is home), at the refill for a put into the ring; the netmem
 * is cached once. A page goes back to the page allocator only with no put
 * of it left in a ring (pp_put_seq == seen): a release that finds one
 * there is deferred (PP_PUT_SEQ_LIMBO) until the owner takes the last of
 * them out; both words live on while the page is free, so a stale put in
 * some ring stays recognisable whatever the page does next.
 * Caught: a second put of one trip made after the first (in the
 * happens-before sense) and before the pool hands the page out again -
 * whether it finds the page in the cache, in the ring, or still out
 * because the first put waits in the ring - in any mix of direct puts and
 * puts from any CPU, also when the pool hands the page out again before
 * it takes the second put out of the ring. Not caught: a put made after
 * the page went out again, which is a put of the new trip (nothing that
 * counts references can tell it from its holder's), and two puts racing
 * each other on two CPUs (both read pp_ref_count 1 at once; a
 * pp_ref_count mark has the same window, and the kernel checks nothing).
 * tests/hardening/double_put_orders holds every order to this.
 */
#define PP_HOME_OUT		0x1u
/* In pp_put_seq: the page's holder let it go, but it could not go back
 * to the page allocator with a (duplicate) put of it still in a ring; the
 * owner releases it when it takes the last of those out (src/core/home.h).
 * Meanwhile its pp_ref_count is 0, so one more put of it underflows and
 * is reported as a double put, not cached under the pending release. */
#define PP_PUT_SEQ_LIMBO	(1UL << (BITS_PER_LONG - 1))

static __always_inline u32 __page_pool_put_seq(netmem_ref netmem)
{
	return (u32)READ_ONCE(*netmem_put_seq_ref(netmem));
}

/* A last-reference put into the ring, counted before the netmem goes in. */
static __always_inline void __page_pool_count_ring_put(netmem_ref netmem)
{
	unsigned long *seq = netmem_put_seq_ref(netmem);

	WRITE_ONCE(*seq, READ_ONCE(*seq) + 1);
}

/* Allocation: the netmem goes out. The owner only. */
static __always_inline void __page_pool_home_leave(netmem_ref netmem)
{
	WRITE_ONCE(netmem_home_ref(netmem)->out_base,
		   (__page_pool_put_seq(netmem) << 1) | PP_HOME_OUT);
}

/* A direct put: true and home if the netmem is out, false if it is home
 * already (a duplicate: the caller reports it). The owner only. */
static __always_inline bool __page_pool_home_direct(netmem_ref netmem)
{
	struct page_pool_home *home = netmem_home_ref(netmem);
	u32 ob = READ_ONCE(home->out_base);

	if (unlikely(!(ob & PP_HOME_OUT)))
		return false;
	WRITE_ONCE(home->out_base, ob & ~PP_HOME_OUT);
	return true;
}

/* Fast path: pop from the alloc cache; the page leaves the pool. */
static __always_inline netmem_ref __page_pool_alloc_netmems_inline(struct page_pool *pool,
								   gfp_t gfp)
{
	u32 count;

	/* CONFIG_DEBUG_NET: every allocation goes through the library,
	 * which checks that no other context is in the consumer side; the
	 * introspection builds record the allocation there. */
	if (__PP_FASTPATH_IN_LIBRARY)
		return __page_pool_alloc_netmems_slow(pool, gfp);
	count = pool->alloc.count;
	if (likely(count)) {
		netmem_ref netmem = pool->alloc.cache[--count];

		pool->alloc.count = count;
		__pp_consumer_stat_inc(pool->alloc_stats.fast);
		__page_pool_home_leave(netmem);
		return netmem;
	}
	return __page_pool_alloc_netmems_slow(pool, gfp);
}

/*
 * A page, never a net_iov: on a memory-provider pool the netmem goes back
 * to the pool (WARN, NULL) instead of being lost - the same test of the
 * NET_IOV bit that netmem_to_page() makes, so no cost on the fast path.
 */
static __always_inline struct page *__page_pool_alloc_pages_inline(struct page_pool *pool,
								   gfp_t gfp)
{
	netmem_ref netmem = __page_pool_alloc_netmems_inline(pool, gfp);

	if (unlikely(netmem_is_net_iov(netmem)))
		return __page_pool_alloc_unreadable(pool, netmem);
	return __netmem_to_page(netmem);
}

/*
 * A call of page_pool_alloc_pages(), the function the kernel marks
 * ALLOW_ERROR_INJECTION() (src/core/alloc.c): while some function is
 * armed for fail_function (pp_fail_function_inject()), the call goes to
 * the exported body, which asks its mark, so an injected failure reaches
 * every call as the kernel's kprobe does; otherwise it is the inline fast
 * path, for one load and a predicted branch.
 */
static __always_inline struct page *__page_pool_alloc_pages_call(struct page_pool *pool,
								 gfp_t gfp)
{
	if (unlikely(READ_ONCE(__pp_fault_armed) & __PP_FAULT_ARMED_FUNCTION))
		return (page_pool_alloc_pages)(pool, gfp);
	return __page_pool_alloc_pages_inline(pool, gfp);
}

#define page_pool_alloc_netmems(pool, gfp)	__page_pool_alloc_netmems_inline(pool, gfp)
#define page_pool_alloc_pages(pool, gfp)	__page_pool_alloc_pages_call(pool, gfp)

/*
 * __page_pool_recycle_in_cache() - the inline case of a direct recycle.
 * Caller MUST be the pool's consumer context, hold the last reference and
 * have checked that @netmem is @pool's. Taken only when nothing else is to
 * be done: a plain recyclable page, no sync for the device, room in the
 * cache, the put of this trip (home state, above); false sends the put to
 * the library.
 */
static __always_inline bool __page_pool_recycle_in_cache(struct page_pool *pool,
							 netmem_ref netmem)
{
	u32 count;

	/* CONFIG_DEBUG_NET: the library's direct recycle checks the caller
	 * (the introspection builds: records the netmem's homecoming). */
	if (__PP_FASTPATH_IN_LIBRARY)
		return false;
	count = pool->alloc.count;
	if (!netmem_is_net_iov(netmem)) {
		const struct page *page = __netmem_to_page(netmem);

		if (unlikely(page_ref_count(page) != 1 || page_is_pfmemalloc(page)))
			return false;
	}
	if (unlikely(READ_ONCE(pool->direct_slow) || count >= PP_ALLOC_CACHE_SIZE))
		return false;
	/* A duplicate: the library's direct recycle reports it. */
	if (unlikely(!__page_pool_home_direct(netmem)))
		return false;
	pool->alloc.cache[count] = netmem;
	pool->alloc.count = count + 1;
	__pp_consumer_stat_inc(pool->cached);
	return true;
}

/**
 * page_pool_put_netmem() - drop a reference; the last one recycles
 * @pool: the pool the netmem came from
 * @netmem: the netmem
 * @dma_sync_size: bytes the device may have written (-1: max_len).
 * @allow_direct: the caller is the pool's consumer context.
 *
 * A netmem that is not @pool's (not a page_pool page at all, a page already
 * given back to the page allocator, or another pool's page - a stale put
 * after the page moved to another pool) is refused: a WARN, the misuse
 * counter foreign_pool or not_pp_page, and the page is not touched. A page
 * that backs a bound net_iov (<net/page_pool/memory_provider.h>) is a put
 * of that net_iov.
 */
static __always_inline void page_pool_put_netmem(struct page_pool *pool, netmem_ref netmem,
					unsigned int dma_sync_size, bool allow_direct)
{
	if (unlikely(netmem_get_pp(netmem) != pool)) {
		__page_pool_put_misdirected(pool, netmem, dma_sync_size, allow_direct);
		return;
	}
	if (!page_pool_unref_and_test(netmem))
		return;
	if (allow_direct && __page_pool_recycle_in_cache(pool, netmem))
		return;
	__page_pool_put_unrefed_netmem(pool, netmem, dma_sync_size, allow_direct);
}

static __always_inline void page_pool_put_page(struct page_pool *pool, struct page *page,
				      unsigned int dma_sync_size, bool allow_direct)
{
	page_pool_put_netmem(pool, page_to_netmem(page), dma_sync_size, allow_direct);
}

static __always_inline void page_pool_put_full_netmem(struct page_pool *pool, netmem_ref netmem,
					     bool allow_direct)
{
	page_pool_put_netmem(pool, netmem, -1, allow_direct);
}

static __always_inline void page_pool_put_full_page(struct page_pool *pool, struct page *page,
					   bool allow_direct)
{
	page_pool_put_netmem(pool, page_to_netmem(page), -1, allow_direct);
}

/* Caller MUST be the pool's consumer context (its NAPI poll). */
static __always_inline void page_pool_recycle_direct(struct page_pool *pool, struct page *page)
{
	page_pool_put_full_page(pool, page, true);
}

static __always_inline void page_pool_recycle_direct_netmem(struct page_pool *pool, netmem_ref netmem)
{
	page_pool_put_full_netmem(pool, netmem, true);
}

/* Allocation helpers for the NAPI context (GFP_ATOMIC | __GFP_NOWARN). */
static __pp_alloc_inline struct page *page_pool_dev_alloc_pages(struct page_pool *pool)
{
	return page_pool_alloc_pages(pool, GFP_ATOMIC | __GFP_NOWARN);
}

static __pp_alloc_inline netmem_ref page_pool_dev_alloc_netmems(struct page_pool *pool)
{
	return page_pool_alloc_netmems(pool, GFP_ATOMIC | __GFP_NOWARN);
}

/*
 * page_pool_alloc_frag() and the size-based allocators below carve
 * fragments that always start inside their page: a fragment that would
 * start at or past the end takes a new page. Size 0 gets the smallest
 * fragment (the alignment unit: 8 bytes on x86-64, dma_get_cache_alignment()
 * where that is larger) - a real fragment with its own address and one
 * reference, freed like any other - rather than NULL: a driver treats NULL
 * as out of memory, and the kernel's code would hand out the byte after
 * the page (the next page's first byte, whose page_pool_free_va() then
 * puts a page that is not this fragment's). A size above
 * PAGE_SIZE << order is refused by page_pool_alloc_frag() (WARN, NULL);
 * page_pool_alloc() gives a whole page for it and *size says how much that
 * is (the kernel's contract: *size is the allocated size).
 * On a memory-provider pool (net_iovs) the struct page variants return
 * NULL with a WARN and take nothing; use the netmem variants there.
 * Each fragment is put exactly once. A page put more often than it had
 * fragments is reported when the pool drains it (the next fragment that
 * does not fit, or destroy; with CONFIG_DEBUG_NET already the next
 * fragment allocation): WARN, ref_underflow misuse counter, and the page
 * goes back to the page allocator, never into the pool - which fragment
 * was put twice cannot be told, and a page some user may still hold must
 * not be handed out again by the pool.
 */
static __pp_alloc_inline struct page *page_pool_dev_alloc_frag(struct page_pool *pool,
						    unsigned int *offset, unsigned int size)
{
	return page_pool_alloc_frag(pool, offset, size, GFP_ATOMIC | __GFP_NOWARN);
}

/*
 * page_pool_alloc_netmem() - a whole page when @size is more than half a
 * page, else a fragment; when the rest of the page cannot hold another
 * fragment of this size it is added to this one (*size grows), so truesize
 * is never underestimated.
 */
static __pp_alloc_inline netmem_ref page_pool_alloc_netmem(struct page_pool *pool, unsigned int *offset,
						unsigned int *size, gfp_t gfp)
{
	unsigned int max_size = PAGE_SIZE << pool->p.order;
	netmem_ref netmem;

	/* Not (*size << 1) > max_size, the kernel's test: it wraps for a
	 * size of 2 GiB and more, which then looked like a small fragment. */
	if (*size > (max_size >> 1)) {
		*size = max_size;
		*offset = 0;
		return page_pool_alloc_netmems(pool, gfp);
	}

	netmem = page_pool_alloc_frag_netmem(pool, offset, *size, gfp);
	if (unlikely(!netmem))
		return 0;

	if (pool->frag_offset + *size > max_size) {
		*size = max_size - *offset;
		pool->frag_offset = max_size;
	}
	return netmem;
}

static __pp_alloc_inline netmem_ref page_pool_dev_alloc_netmem(struct page_pool *pool,
						    unsigned int *offset, unsigned int *size)
{
	return page_pool_alloc_netmem(pool, offset, size, GFP_ATOMIC | __GFP_NOWARN);
}

static __pp_alloc_inline struct page *page_pool_alloc(struct page_pool *pool, unsigned int *offset,
					   unsigned int *size, gfp_t gfp)
{
	netmem_ref netmem = page_pool_alloc_netmem(pool, offset, size, gfp);

	if (unlikely(netmem_is_net_iov(netmem)))
		return __page_pool_alloc_unreadable(pool, netmem);
	return __netmem_to_page(netmem);
}

static __pp_alloc_inline struct page *page_pool_dev_alloc(struct page_pool *pool,
					       unsigned int *offset, unsigned int *size)
{
	return page_pool_alloc(pool, offset, size, GFP_ATOMIC | __GFP_NOWARN);
}

static __pp_alloc_inline void *page_pool_alloc_va(struct page_pool *pool, unsigned int *size, gfp_t gfp)
{
	unsigned int offset;
	struct page *page;

	page = page_pool_alloc(pool, &offset, size, gfp & ~__GFP_HIGHMEM);
	if (unlikely(!page))
		return NULL;
	return (char *)page_address(page) + offset;
}

static __pp_alloc_inline void *page_pool_dev_alloc_va(struct page_pool *pool, unsigned int *size)
{
	return page_pool_alloc_va(pool, size, GFP_ATOMIC | __GFP_NOWARN);
}

static inline void page_pool_free_va(struct page_pool *pool, void *va, bool allow_direct)
{
	page_pool_put_page(pool, virt_to_head_page(va), -1, allow_direct);
}

static inline enum dma_data_direction page_pool_get_dma_dir(const struct page_pool *pool)
{
	return pool->p.dma_dir;
}

static inline dma_addr_t page_pool_get_dma_addr_netmem(netmem_ref netmem)
{
	return (dma_addr_t)netmem_get_dma_addr(netmem);
}

static inline dma_addr_t page_pool_get_dma_addr(const struct page *page)
{
	return page_pool_get_dma_addr_netmem(page_to_netmem(page));
}

/* The driver's sync before the CPU reads what the device wrote. */
static inline void page_pool_dma_sync_for_cpu(const struct page_pool *pool,
					      const struct page *page,
					      u32 offset, u32 dma_sync_size)
{
	dma_sync_single_range_for_cpu(pool->p.dev, page_pool_get_dma_addr(page),
				      offset + pool->p.offset, dma_sync_size,
				      page_pool_get_dma_dir(pool));
}

static inline void page_pool_dma_sync_netmem_for_cpu(const struct page_pool *pool,
						     const netmem_ref netmem, u32 offset,
						     u32 dma_sync_size)
{
	if (!pool->dma_sync_for_cpu)
		return;
	dma_sync_single_range_for_cpu(pool->p.dev, page_pool_get_dma_addr_netmem(netmem),
				      offset + pool->p.offset, dma_sync_size,
				      page_pool_get_dma_dir(pool));
}

/* Drop a user reference; true when it was the last. */
static inline bool page_pool_put(struct page_pool *pool)
{
	return refcount_dec_and_test(&pool->user_cnt);
}

/* From NAPI: move the pool to @new_nid if the NAPI moved. */
static inline void page_pool_nid_changed(struct page_pool *pool, int new_nid)
{
	if (unlikely(pool->p.nid != new_nid))
		page_pool_update_nid(pool, new_nid);
}

static inline bool page_pool_is_unreadable(struct page_pool *pool)
{
	return !!pool->mp_ops;
}

/* Yunsheng Lin's page -> pool API (Yunsheng Lin, "page_pool: introduce
 * page_pool_to_pp() API"): drivers ask, instead of reading page->pp. */
static inline struct page_pool *page_pool_to_pp(struct page *page)
{
	return netmem_get_pp(page_to_netmem(page));
}

#pragma GCC visibility pop
#endif /* _PP_NET_PAGE_POOL_HELPERS_H */
