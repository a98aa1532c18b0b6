/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool introspection and knobs that are pagepool's own: the netlink
 * page-pool-get / page-pool-stats-get view as a C API (and as JSON), misuse
 * counters, the deferred-release timing, and a memory provider over a
 * preallocated region.
 *
 * Arguments: a NULL (or ERR_PTR()) pool, provider or output pointer is an
 * error (-EINVAL, or the neutral value a function's comment names), never
 * a crash. Every error a function returns is listed at it.
 * Layer: core.
 */
#ifndef _PAGEPOOL_CORE_H
#define _PAGEPOOL_CORE_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include <net/netmem.h>

#ifdef __cplusplus
extern "C" {
#endif

struct device;
struct page_pool;
struct page_pool_stats;
struct pp_memory_provider_params;

/**
 * pp_page_pool_set_defer_times() - timing of the deferred release after destroy
 * @retry_ms: retry interval in ms (the kernel's DEFER_TIME, 1000 ms); 0 keeps it
 * @warn_ms: "stalled pool shutdown" warning interval in ms (DEFER_WARN_INTERVAL,
 *	60 s) for pools user space cannot see; 0 keeps it
 *
 * After page_pool_destroy() with pages in flight the pool retries its
 * release every @retry_ms and warns every @warn_ms. Applies to retries
 * scheduled afterwards.
 *
 * Context: any thread.
 */
void pp_page_pool_set_defer_times(unsigned int retry_ms, unsigned int warn_ms);

/*
 * Where non-direct returns go (pagepool's own choice; see
 * pp_page_pool_set_ring_mode() below). Each is bounded as the kernel's
 * ring is (pool_size, 1024 when 0, at most 16384 returned pages waiting):
 *   PP_RING_LANES       one single-producer lane per returning CPU, no lock
 *                       and no atomic read-modify-write; a full lane spills
 *                       into the shared ring. The default.
 *   PP_RING_PTR_RING    the kernel's design: one ring, producers serialised
 *                       by its producer spinlock.
 *   PP_RING_LLIST       Yunsheng Lin's "use list instead of ptr_ring for
 *                       ring cache": a lock-free list (a compare-and-exchange
 *                       per put); the consumer takes one page at a time.
 *   PP_RING_LLIST_BATCH the same list, the consumer taking all of it with
 *                       one exchange per refill (his "batch refilling pages
 *                       to reduce atomic operation"; mimalloc's collection
 *                       of a thread's remote frees is the same move).
 *   PP_RING_MAGAZINE    Bonwick's magazines: a returning CPU fills a
 *                       magazine of its own and hands the whole magazine
 *                       over; the consumer takes full magazines.
 * Which of them the library has is a build-time choice (meson -Dring, or
 * -Ddesigns=all for all; CONFIG_PAGEPOOL_RING_* in <generated/autoconf.h>).
 */
enum pp_ring_mode {
	PP_RING_LANES,
	PP_RING_PTR_RING,
	PP_RING_LLIST,
	PP_RING_LLIST_BATCH,
	PP_RING_MAGAZINE,
	__PP_RING_NR,
};

/*
 * How a pool tracks its DMA-mapped pages so page_pool_destroy() can unmap
 * the ones still in flight while the device is bound (the IOMMU crash at
 * driver unbind; see docs/DMA_SAFETY.md and pp_page_pool_set_dma_tracking()
 * below):
 *   PP_DMA_TRACK_INDEX  upstream v6.15's design: an index in pp_magic and a
 *                       per-pool table, unmap-once by compare-and-exchange;
 *                       costs only at map and unmap. The default.
 *   PP_DMA_TRACK_ITEMS  Yunsheng Lin's design: every page points at a 16-byte
 *                       page_pool_item in a page-sized block that names the
 *                       pool; hold/release item lists.
 *   PP_DMA_TRACK_OFF    no tracking: the behaviour before the fix.
 * Which of them the library has is a build-time choice (meson
 * -Ddma_tracking, or -Ddesigns=all for all three; OFF exists only there).
 */
enum pp_dma_tracking {
	PP_DMA_TRACK_INDEX,
	PP_DMA_TRACK_ITEMS,
	PP_DMA_TRACK_OFF,
};

/**
 * pp_page_pool_set_ring_mode() - ring design of pools created from now on
 * @mode: an enum pp_ring_mode: PP_RING_LANES (the default), PP_RING_PTR_RING
 *	(the kernel's), PP_RING_LLIST, PP_RING_LLIST_BATCH or PP_RING_MAGAZINE
 *
 * The environment variable PAGEPOOL_RING=lanes|ptr_ring|llist|llist_batch|magazine
 * sets the initial default; naming a design the build does not have gets
 * one warning and the build's design. Existing pools keep theirs.
 *
 * Context: any thread.
 * Return: the previous mode; -EINVAL for a value that is no design,
 * -EOPNOTSUPP for a design this build does not have (meson -Dring,
 * -Ddesigns=all).
 */
int pp_page_pool_set_ring_mode(int mode);

/**
 * pp_page_pool_set_dma_tracking() - DMA tracking design of pools created from now on
 * @mode: an enum pp_dma_tracking: PP_DMA_TRACK_INDEX (the default, upstream's),
 *	PP_DMA_TRACK_ITEMS (Yunsheng Lin's) or PP_DMA_TRACK_OFF (no fix: pages
 *	returned after destroy are unmapped through the device then, even if
 *	it unbound)
 *
 * PAGEPOOL_DMA_TRACKING=index|items|off sets the initial default (a design
 * the build does not have: one warning, the build's design). The designs
 * and their cost: docs/DMA_SAFETY.md.
 *
 * Context: any thread.
 * Return: the previous mode; -EINVAL for a value that is no design,
 * -EOPNOTSUPP for a design this build does not have (meson -Ddma_tracking,
 * -Ddesigns=all; PP_DMA_TRACK_OFF only there).
 */
int pp_page_pool_set_dma_tracking(int mode);

struct pp_page_pool_track_stats {
	int mode;			/* enum pp_dma_tracking */
	u64 tracked;			/* INDEX: pages recorded as mapped now */
	u64 capacity;			/* slots (INDEX) or items (ITEMS) */
	u64 bytes;			/* memory the tracking uses */
	u64 bytes_per_slot;		/* per tracked page */
	u64 item_fast_empty;		/* ITEMS: blocks allocated on demand */
	u64 item_full;			/* ITEMS: pages dropped for want of an item */
	u64 item_blocks;
};
/**
 * pp_page_pool_get_track_stats() - the DMA tracking state of a pool
 * @pool: the pool
 * @st: filled in (struct pp_page_pool_track_stats)
 *
 * Context: any thread.
 * Return: 0, or -EINVAL for a NULL @pool or @st.
 */
int pp_page_pool_get_track_stats(const struct page_pool *pool,
				 struct pp_page_pool_track_stats *st);

/*
 * The seeds' napi_local fix (docs/DMA_SAFETY.md): an RCU read-side section
 * around the napi-local decision and the cache recycle, and a grace period
 * in page_pool_destroy() after direct recycling is disabled, before the
 * cache is emptied. On by default; switchable to show the race in an
 * all-designs build (CONFIG_PAGEPOOL_FIX_SWITCHES); elsewhere the call
 * changes nothing. Returns the previous mask (the mask in effect).
 */
#define PP_FIX_NAPI_LOCAL_RCU	0x1
/**
 * pp_page_pool_set_fixes() - switch the napi_local fix on or off
 * @mask: PP_FIX_NAPI_LOCAL_RCU or 0
 *
 * The napi_local fix (docs/DMA_SAFETY.md): an RCU read-side section around
 * the napi-local decision and the cache recycle, and a grace period in
 * page_pool_destroy() after direct recycling is disabled, before the cache
 * is emptied. On by default; switchable, to show the race, in an
 * all-designs build (CONFIG_PAGEPOOL_FIX_SWITCHES); elsewhere the call
 * changes nothing.
 *
 * Context: any thread, with no pool in use.
 * Return: the previous mask (the mask in effect).
 */
unsigned int pp_page_pool_set_fixes(unsigned int mask);

/*
 * Test hooks (built with meson -Dtest_hooks=true, the default): called at
 * the points below with the pool, so tests can stop a thread exactly there.
 * Returns 0, or -EOPNOTSUPP when built without hooks.
 */
enum pp_page_pool_hook {
	PP_HOOK_NAPI_LOCAL_DECIDED,	/* a put found napi_local() true */
	PP_HOOK_DESTROY_DIRECT_DISABLED,/* destroy disabled direct recycling */
	PP_HOOK_DESTROY_SYNC_BEGIN,	/* destroy starts its grace period (fix on) */
	PP_HOOK_DESTROY_CACHE_EMPTIED,	/* destroy emptied the alloc cache */
	PP_HOOK_LANE_PUBLISHED,		/* a put published a page in its lane;
					 * the pool may be freed from here on:
					 * the hook must not dereference it */
	PP_HOOK_ALLOC_REFILL,		/* an allocation found the alloc cache
					 * empty and refills it (the consumer
					 * side is busy); CONFIG_DEBUG_NET
					 * builds only */
	PP_HOOK_NR,
};
typedef void (*pp_page_pool_hook_fn)(enum pp_page_pool_hook point, struct page_pool *pool,
				     void *arg);
/**
 * pp_page_pool_set_test_hook() - install the test hook
 * @fn: called with the point and the pool at each enum pp_page_pool_hook
 *	point; NULL removes the hook
 * @arg: passed to @fn
 *
 * For tests that stop a thread exactly at one of those points (built with
 * meson -Dtest_hooks=true, the default).
 *
 * Context: any thread; @fn runs in the context of the code it interrupts.
 * Return: 0, or -EOPNOTSUPP when built without hooks.
 */
int pp_page_pool_set_test_hook(pp_page_pool_hook_fn fn, void *arg);

/* One pool as netlink's page-pool-get reports it. */
struct pp_page_pool_info {
	u32 id;
	bool has_ifindex;	/* absent for invisible pools */
	int ifindex;		/* lo's (1) once the device went away */
	bool has_napi_id;
	u32 napi_id;
	u64 inflight;		/* pages allocated and not yet freed */
	u64 inflight_mem;	/* bytes they hold */
	bool has_detach_time;	/* present once the driver called destroy */
	u64 detach_time;	/* CLOCK_BOOTTIME seconds */
};

/**
 * pp_page_pool_id() - the id of a pool, as netlink reports it
 * @pool: the pool
 *
 * Context: any context.
 * Return: the pool's id; 0 (no pool's) for a NULL or ERR_PTR() @pool.
 */
u32 pp_page_pool_id(const struct page_pool *pool);
/**
 * pp_page_pool_get_info() - one pool as netlink's page-pool-get reports it
 * @id: the pool's id (pp_page_pool_id())
 * @info: filled in
 *
 * Pools without a netdev are found too (the kernel hides them).
 *
 * Context: any thread.
 * Return: 0, -ENOENT for no such pool, or -EINVAL for a NULL @info.
 */
int pp_page_pool_get_info(u32 id, struct pp_page_pool_info *info);
/**
 * pp_page_pool_get_stats_by_id() - netlink's page-pool-stats-get for one pool
 * @id: the pool's id
 * @stats: the counters are added to it (as page_pool_get_stats() does)
 *
 * Context: any thread.
 * Return: 0, -ENOENT for no such pool, or -EINVAL for a NULL @stats.
 */
int pp_page_pool_get_stats_by_id(u32 id, struct page_pool_stats *stats);
/**
 * pp_page_pool_for_each() - call a function for each live pool
 * @cb: called with each pool's info, in id order; a non-zero return stops
 *	the walk
 * @arg: passed to @cb
 *
 * Destroyed pools still waiting for their pages are included.
 *
 * Context: any thread; @cb runs under the registry lock and must not
 * create or destroy pools.
 * Return: the non-zero value @cb returned, 0 after the last pool, or
 * -EINVAL for a NULL @cb.
 */
int pp_page_pool_for_each(int (*cb)(const struct pp_page_pool_info *info, void *arg),
			  void *arg);
/**
 * pp_page_pool_dump_json() - the page-pool-get and page-pool-stats-get dumps as JSON
 * @out: the stream written to (one JSON array, then flushed)
 *
 * Context: any thread.
 * Return: 0; -EINVAL for a NULL @out; -EIO if the stream's error indicator
 * is set afterwards (a failed write, or one before the call).
 */
int pp_page_pool_dump_json(FILE *out);

/*
 * Holder tracking (meson -Dholders, CONFIG_PAGEPOOL_HOLDERS; off by
 * default): who holds a pool's inflight pages. Every page taken out of a
 * pool records its take site (the code address that called the
 * allocation), CPU and time; a hand-on (an XDP frame conversion, an
 * XDP_REDIRECT enqueue) records its site too. pp_symbolize()
 * (<pagepool/runtime.h>) turns the addresses into "func+0x40 (file.c:212)".
 * docs/INTROSPECTION.md, "Holder tracking".
 */
struct pp_page_pool_holder {
	unsigned long take_ip;		/* code address that took the pages out of the pool */
	unsigned long handoff_ip;	/* last hand-on site (put to another context, XDP frame
					   conversion, skb recycle mark); 0: none */
	int cpu;			/* CPU (pagepool cpu id) that took them */
	u64 pages;			/* inflight pages of the pool in this group */
	u64 held_ns;			/* the oldest page of the group: time since its take */
};
/**
 * pp_page_pool_for_each_holder() - a pool's inflight pages by who holds them
 * @id: the pool's id (pp_page_pool_id())
 * @cb: called for each group of pages with the same (take_ip, handoff_ip,
 *	cpu), biggest first (pages, then the oldest); a non-zero return stops
 *	the walk
 * @arg: passed to @cb
 *
 * A destroyed pool with pages inflight is still listed. The walk is a racy
 * snapshot: a page taken or put meanwhile may be counted or not.
 *
 * Context: any thread; @cb runs with no lock held.
 * Return: the non-zero value @cb returned, 0 after the last group;
 * -EOPNOTSUPP without CONFIG_PAGEPOOL_HOLDERS, -ENOENT for no such id,
 * -EINVAL for a NULL @cb, -ENOMEM.
 */
int pp_page_pool_for_each_holder(u32 id, int (*cb)(const struct pp_page_pool_holder *h, void *arg),
				 void *arg);
/**
 * pp_page_pool_note_handoff() - record the caller as a netmem's hand-on site
 * @netmem: a page_pool netmem its holder gives to another context without
 *	a put
 *
 * With holder tracking built in (CONFIG_PAGEPOOL_HOLDERS) the caller's
 * return address becomes the netmem's handoff_ip; otherwise nothing. The
 * XDP frame conversion of <net/xdp.h> calls it in that build. A netmem
 * that is no pool's is ignored.
 *
 * Context: the netmem's holder.
 */
void pp_page_pool_note_handoff(netmem_ref netmem);

/* Bad puts seen since start-up (each was also a WARN). */
struct pp_page_pool_misuse {
	unsigned long not_pp_page;	/* put of a page no pool owns */
	unsigned long foreign_pool;	/* put naming the wrong pool */
	unsigned long ref_underflow;	/* more pp references dropped than held */
	/* Two contexts in a pool's consumer side at once (a direct recycle
	 * or an allocation from outside the pool's consumer context while it
	 * runs). Seen only in a CONFIG_DEBUG_NET build (meson -Ddebug_net). */
	unsigned long concurrent_consumer;
	/* A page's last reference put twice in one trip (found by the
	 * pool's owner: at a direct put, the refill or destroy's drain;
	 * <net/page_pool/helpers.h>, "Home state"). */
	unsigned long double_put;
};
/**
 * pp_page_pool_get_misuse() - the bad puts seen since start-up
 * @m: filled in (struct pp_page_pool_misuse; each was also a WARN)
 *
 * Context: any thread.
 * Return: 0, or -EINVAL for a NULL @m.
 */
int pp_page_pool_get_misuse(struct pp_page_pool_misuse *m);

/*
 * A memory provider of net_iovs over one preallocated, DMA-mapped region:
 * the provider the tests and examples bind to an RX queue with
 * net_mp_open_rxq(). @nr_niovs buffers of PAGE_SIZE, mapped once on @dev.
 * ERR_PTR(-EINVAL / -ENOMEM / -EIO).
 */
struct pp_region_provider;
/**
 * pp_region_provider_create() - a memory provider over one preallocated region
 * @dev: the device the region is DMA-mapped on (once, here)
 * @nr_niovs: number of net_iov buffers, PAGE_SIZE each
 *
 * The provider the tests and examples bind to an RX queue with
 * net_mp_open_rxq() (see pp_region_provider_params()).
 *
 * Context: process context (allocates).
 * Return: the provider, or ERR_PTR(-EINVAL), ERR_PTR(-ENOMEM) or
 * ERR_PTR(-EIO) (the mapping failed).
 */
struct pp_region_provider *pp_region_provider_create(struct device *dev,
						     unsigned int nr_niovs);
/**
 * pp_region_provider_params() - memory provider parameters that name a region provider
 * @rp: the provider
 * @p: filled in, to bind @rp to an RX queue (net_mp_open_rxq())
 *
 * Context: any thread.
 * Return: 0, or -EINVAL for a NULL @rp or @p.
 */
int pp_region_provider_params(struct pp_region_provider *rp,
			      struct pp_memory_provider_params *p);
/**
 * pp_region_provider_free() - buffers currently free in a region provider
 * @rp: the provider
 *
 * Context: any thread.
 * Return: the number of buffers in no pool; 0 for a NULL @rp.
 */
unsigned int pp_region_provider_free(const struct pp_region_provider *rp);
/**
 * pp_region_provider_addr() - CPU address of one of a region provider's buffers
 * @rp: the provider
 * @netmem: a net_iov of @rp
 *
 * Context: any context.
 * Return: the address (the region is host memory); NULL for a netmem that
 * is not one of @rp's buffers, or a NULL @rp.
 */
void *pp_region_provider_addr(const struct pp_region_provider *rp, netmem_ref netmem);
/**
 * pp_region_provider_destroy() - unmap and free a region provider
 * @rp: the provider
 *
 * Context: process context.
 * Return: 0; -EBUSY while buffers are out or a pool still uses it; -EINVAL
 * for a NULL @rp.
 */
int pp_region_provider_destroy(struct pp_region_provider *rp);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop
#endif /* _PAGEPOOL_CORE_H */
