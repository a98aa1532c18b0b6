/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool: data types and the out-of-line API, as the kernel's
 * include/net/page_pool/types.h (newest, netmem-based). The inline helpers
 * drivers call are in <net/page_pool/helpers.h>.
 *
 * Contexts, as in the kernel:
 *   - allocation and direct recycling (allow_direct == true) only from the
 *     pool's consumer context: its NAPI poll, or whatever single context
 *     the driver guarantees; the alloc cache has no locks and no atomics;
 *   - any other put, from any thread, goes into the returning CPU's lane
 *     (no lock; a full lane spills into the shared ring, under its
 *     producer spinlock), or with PP_RING_PTR_RING into the shared ring
 *     alone, unless page_pool_napi_local() proves the caller is the
 *     consumer context;
 *   - page_pool_destroy() after the consumer stopped (NAPI disabled).
 * Layer: core.
 */
#ifndef _PP_NET_PAGE_POOL_TYPES_H
#define _PP_NET_PAGE_POOL_TYPES_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/cache.h>
#include <linux/dma-direction.h>
#include <linux/kernel.h>
#include <linux/ptr_ring.h>
#include <linux/refcount.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/netmem.h>

#define PP_FLAG_DMA_MAP			BIT(0)	/* map pages once, keep them mapped */
#define PP_FLAG_DMA_SYNC_DEV		BIT(1)	/* sync-for-device on recycle */
#define PP_FLAG_SYSTEM_POOL		BIT(2)	/* global per-CPU system pool */
#define PP_FLAG_ALLOW_UNREADABLE_NETMEM	BIT(3)	/* may hand out net_iov */
#define PP_FLAG_ALL	(PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV | \
			 PP_FLAG_SYSTEM_POOL | PP_FLAG_ALLOW_UNREADABLE_NETMEM)

/*
 * Alloc cache: 128 slots = a NAPI budget (64) of refills plus room for
 * XDP_DROP direct recycles in the same poll; refilled 64 at a time from the
 * ring or the page allocator.
 */
#define PP_ALLOC_CACHE_SIZE	128
#define PP_ALLOC_CACHE_REFILL	64
struct pp_alloc_cache {
	u32 count;
	netmem_ref cache[PP_ALLOC_CACHE_SIZE];
};

/* The ring: 1024 slots unless pool_size says otherwise, at most 16384. */
#define PAGE_POOL_DEFAULT_RING_SIZE	1024
#define PAGE_POOL_MAX_RING_SIZE		16384

struct pp_lane;	/* src/core/ring.h: pagepool's lanes design */
struct device;
struct napi_struct;
struct net_device;
struct page_pool;
struct memory_provider_ops;

/* The XDP memory model's identity of an allocator (net/xdp.h uses this
 * definition: page_pool_use_xdp_mem() reads it, and the XDP layer sits
 * above page_pool). */
struct xdp_mem_info {
	u32 type;	/* enum xdp_mem_type */
	u32 id;
};

struct page_pool_params_fast {
	unsigned int order;		/* 2^order pages per allocation */
	unsigned int pool_size;		/* ring size; 0 = 1024 */
	int nid;			/* NUMA node; NUMA_NO_NODE allowed */
	struct device *dev;		/* for DMA mapping */
	struct napi_struct *napi;	/* sole consumer: enables napi-local recycling */
	enum dma_data_direction dma_dir;
	unsigned int max_len;		/* max bytes synced for device */
	unsigned int offset;		/* where the device starts writing */
};

struct page_pool_params_slow {
	struct net_device *netdev;	/* netlink visibility; NULL = invisible */
	unsigned int queue_idx;		/* with PP_FLAG_ALLOW_UNREADABLE_NETMEM */
	unsigned int flags;
	/* private: for tests */
	void (*init_callback)(netmem_ref netmem, void *arg);
	void *init_arg;
};

/* The kernel wraps these in struct_group_tagged(); anonymous unions give
 * the same two views: params.order and params.fast.order. */
struct page_pool_params {
	union {
		struct page_pool_params_fast fast;
		struct {
			unsigned int order;
			unsigned int pool_size;
			int nid;
			struct device *dev;
			struct napi_struct *napi;
			enum dma_data_direction dma_dir;
			unsigned int max_len;
			unsigned int offset;
		};
	};
	union {
		struct page_pool_params_slow slow;
		struct {
			struct net_device *netdev;
			unsigned int queue_idx;
			unsigned int flags;
			void (*init_callback)(netmem_ref netmem, void *arg);
			void *init_arg;
		};
	};
};

struct page_pool_alloc_stats {
	u64 fast;		/* served from the alloc cache */
	u64 slow;		/* slow-path calls that returned an order-0 page */
	u64 slow_high_order;	/* high-order page allocations */
	u64 empty;		/* ring empty when refilling: slow path forced */
	u64 refill;		/* allocations that refilled the cache from the ring */
	u64 waive;		/* ring pages released for a NUMA mismatch */
};

struct page_pool_recycle_stats {
	u64 cached;		/* recycled into the alloc cache */
	u64 cache_full;		/* direct recycle found the cache full */
	u64 ring;		/* recycled into the ring */
	u64 ring_full;		/* ring full: released to the page allocator */
	u64 released_refcnt;	/* not recyclable (refcount != 1): released */
};

struct page_pool_stats {
	struct page_pool_alloc_stats alloc_stats;
	struct page_pool_recycle_stats recycle_stats;
};

/* Frag group: what page_pool_alloc_frag() carves pages with. */
#define PAGE_POOL_FRAG_GROUP_ALIGN	(4 * sizeof(long))

struct page_pool {
	struct page_pool_params_fast p;

	int cpuid;			/* per-CPU pool owner, -1 otherwise */
	u32 pages_state_hold_cnt;	/* pages taken; consumer-written only */

	bool has_init_callback:1;
	bool dma_map:1;
	bool dev_held:1;		/* page_pool_init() holds p.dev (a counted device) */
	bool dma_sync_for_cpu:1;
	bool system:1;
	/* dma_sync (cleared by destroy, read under RCU) and dying (set when
	 * destroy empties the cache) share a word the direct-recycle fast
	 * path tests with one load: either one sends it to the slow path. */
	union {
		struct {
			bool dma_sync;
			bool dying;
		};
		u16 direct_slow;
	};

	struct {
		long frag_users;
		netmem_ref frag_page;
		unsigned int frag_offset;
	} __aligned(PAGE_POOL_FRAG_GROUP_ALIGN);

	struct delayed_work release_dw;
	void (*disconnect)(void *pool);
	unsigned long defer_start;
	unsigned long defer_warn;

	u32 xdp_mem_id;

	/*
	 * Consumer-only statistics, on the cache line right before the alloc
	 * cache: the fast path touches them with the cache. Direct recycles
	 * (cached, cache_full) happen only in the consumer context, so they
	 * are counted here instead of per CPU; page_pool_get_stats() adds
	 * both up, with the kernel's meaning.
	 */
	struct {
		struct page_pool_alloc_stats alloc_stats;
		u64 cached;
		u64 cache_full;
	} ____cacheline_aligned_in_smp;

	struct pp_alloc_cache alloc ____cacheline_aligned_in_smp;
#ifdef CONFIG_DEBUG_NET
	/* The consumer-side guard (ppcore_consumer_enter()): which thread is
	 * inside an allocation or a direct recycle, how deep. */
	void *dbg_consumer;
	unsigned int dbg_consumer_depth;
	bool dbg_consumer_warned;
#endif

	/* The shared ring: many producers under ring.producer_lock, the
	 * consumer (refill) lock-free. With lanes, only what a lane cannot
	 * take (a full lane, a CPU without one) comes here. */
	struct ptr_ring ring;

	/* PP_RING_LANES: lanes[cpu] is written (created, produced into) only
	 * by CPU cpu and consumed only by the pool's consumer; lane_mask has
	 * a bit per lane that exists. NULL lanes array: PP_RING_PTR_RING. */
	struct pp_lane **lanes;
	unsigned long lane_mask[(NR_CPUS + BITS_PER_LONG - 1) / BITS_PER_LONG];
	u32 lane_cursor;		/* consumer's round-robin start */
	atomic_t nr_lanes;		/* lanes made (bits in lane_mask) */
	/* The pool's ring design (enum pp_ring_mode), read only where every
	 * design is compiled in; the state of the designs that are neither
	 * lanes nor ptr_ring (src/core/ring_*.c), set at init. */
	u8 ring_design;
	void *ring_state;

	/* DMA tracking (src/core/dma_track.c): the design and its state. */
	u8 dma_tracking;		/* enum pp_dma_tracking */
	bool dma_tracked;		/* tracking in effect (DMA-mapping pool) */
	void *track;

	void *mp_priv;
	const struct memory_provider_ops *mp_ops;

	struct page_pool_recycle_stats __percpu *recycle_stats;
	atomic_t pages_state_release_cnt ____cacheline_aligned_in_smp;

	/* PP_RING_LANES: the free ring credits and those lanes declared
	 * they keep (see struct pp_lane and page_pool_ring_credits_take()).
	 * Taken by producers a batch at a time, given back by the consumer
	 * once per refill. */
	atomic64_t ring_credits ____cacheline_aligned_in_smp;

	/* Users: the driver, plus one per XDP memory-model registration. */
	refcount_t user_cnt;
	u64 destroy_cnt;
	/* Grace periods destroy still owes (PP_DESTROY_WAIT_* in
	 * src/core/release.c); only destroy and its retry work touch it. */
	u8 destroy_wait;
	struct rcu_head rcu;		/* memory freed after a grace period */

	struct page_pool_params_slow slow;

	/* Registry / introspection (netlink page-pool-get), under
	 * page_pools_lock. */
	struct {
		struct hlist_node list;
		u64 detach_time;
		u32 napi_id;
		u32 id;
		struct list_head all;	/* every live pool */
	} user;
};

_Static_assert(offsetof(struct page_pool, alloc) % SMP_CACHE_BYTES == 0,
	       "the alloc cache starts a cache line");
_Static_assert(offsetof(struct page_pool, alloc) - offsetof(struct page_pool, alloc_stats) ==
	       SMP_CACHE_BYTES, "consumer stats sit on the line before the alloc cache");

/**
 * page_pool_create() - create a page_pool
 * @params: the pool's parameters (struct page_pool_params)
 *
 * As the kernel's. The pool holds its device (PP_FLAG_DMA_MAP) from here
 * until it is freed. A call through the header's page_pool_create() macro
 * also checks that the program was built against this build's headers
 * (see __page_pool_create_checked()); &page_pool_create is this unchecked
 * function.
 *
 * Context: process context (allocates; may sleep).
 * Return: the pool; ERR_PTR(-EINVAL) for bad parameters (unknown flags, a
 * DMA direction other than DMA_FROM_DEVICE or DMA_BIDIRECTIONAL with
 * PP_FLAG_DMA_MAP, a NULL or ERR_PTR() device, PP_FLAG_DMA_SYNC_DEV without
 * PP_FLAG_DMA_MAP or max_len, an order above MAX_PAGE_ORDER, an unreadable
 * pool without its netdev queue), ERR_PTR(-ENOMEM), or the memory
 * provider's init() error.
 */
struct page_pool *page_pool_create(const struct page_pool_params *params);
/**
 * page_pool_create_percpu() - create a page_pool for one CPU's own use
 * @params: the pool's parameters
 * @cpuid: the CPU whose context may recycle directly (napi-local) without a
 *	NAPI, as the kernel's system page_pool of each CPU; -1: none
 *
 * Context: process context.
 * Return: as page_pool_create().
 */
struct page_pool *page_pool_create_percpu(const struct page_pool_params *params, int cpuid);

/*
 * What the inline code of these headers was compiled for (pagepool's
 * vermagic): the layout of struct page_pool (CONFIG_NR_CPUS,
 * CONFIG_DEBUG_NET), the inline statistics (CONFIG_PAGE_POOL_STATS), and
 * whether netmem_get_pp() decodes the items design's tagged page->pp
 * (CONFIG_PAGEPOOL_DMA_TRACK_ITEMS). page_pool_create() and
 * page_pool_create_percpu() pass it, so a library refuses a program built
 * against another build's headers - ERR_PTR(-ENOEXEC) and a WARN that
 * says which option differs, as the kernel refuses a module of another
 * configuration - instead of the program's puts being refused one by one.
 * Headers that decode item pointers also work with a library that never
 * makes them. The functions keep their addresses: &page_pool_create and
 * (page_pool_create)(...) are the library's own, unchecked.
 */
#define __PP_INLINE_ABI_DEBUG_NET	0x1UL
#define __PP_INLINE_ABI_STATS		0x2UL
#define __PP_INLINE_ABI_ITEMS		0x4UL
#define __PP_INLINE_ABI							\
	(((unsigned long)CONFIG_NR_CPUS << 8) |				\
	 (IS_ENABLED(CONFIG_DEBUG_NET) ? __PP_INLINE_ABI_DEBUG_NET : 0) |	\
	 (IS_ENABLED(CONFIG_PAGE_POOL_STATS) ? __PP_INLINE_ABI_STATS : 0) |	\
	 (IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS) ? __PP_INLINE_ABI_ITEMS : 0))
/**
 * __page_pool_create_checked() - page_pool_create() with the inline ABI check
 * @inline_abi: __PP_INLINE_ABI as the caller's headers compute it
 * @params: the pool's parameters
 *
 * What the page_pool_create() macro calls.
 *
 * Context: process context.
 * Return: as page_pool_create(), or ERR_PTR(-ENOEXEC) (and a WARN naming
 * the option) when @inline_abi is not the library's.
 */
struct page_pool *__page_pool_create_checked(unsigned long inline_abi,
					     const struct page_pool_params *params);
/**
 * __page_pool_create_percpu_checked() - page_pool_create_percpu() with the inline ABI check
 * @inline_abi: __PP_INLINE_ABI as the caller's headers compute it
 * @params: the pool's parameters
 * @cpuid: as page_pool_create_percpu()
 *
 * Context: process context.
 * Return: as __page_pool_create_checked().
 */
struct page_pool *__page_pool_create_percpu_checked(unsigned long inline_abi,
						    const struct page_pool_params *params,
						    int cpuid);
/* Variadic, so that an argument with commas of its own (a compound
 * literal) passes through as it would to the function. */
#define page_pool_create(...)	__page_pool_create_checked(__PP_INLINE_ABI, __VA_ARGS__)
#define page_pool_create_percpu(...)						\
	__page_pool_create_percpu_checked(__PP_INLINE_ABI, __VA_ARGS__)
/**
 * page_pool_alloc_netmems() - allocate a netmem from a pool
 * @pool: the pool
 * @gfp: allocation flags for the slow path (GFP_ATOMIC from softirq)
 *
 * From the alloc cache, else refilled from the ring, else from the page
 * allocator (or the memory provider), mapped and synced as the pool's
 * flags say. The caller holds the only reference.
 *
 * Context: the pool's consumer context (its NAPI poll, or the one thread
 * that allocates from it).
 * Return: the netmem, or 0 when no memory could be had.
 */
netmem_ref page_pool_alloc_netmems(struct page_pool *pool, gfp_t gfp);
/**
 * page_pool_alloc_pages() - allocate a page from a pool
 * @pool: the pool
 * @gfp: allocation flags for the slow path
 *
 * page_pool_alloc_netmems() for a pool of pages. A net_iov (a pool bound to
 * a memory provider) is refused: it goes back to the pool, with a WARN.
 *
 * Context: the pool's consumer context.
 * Return: the page, or NULL.
 */
struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp);
/**
 * page_pool_alloc_frag_netmem() - allocate a fragment of a page from a pool
 * @pool: the pool
 * @offset: set to the fragment's offset in the page
 * @size: the fragment's size
 * @gfp: allocation flags for the slow path
 *
 * Fragments are carved from the pool's current page, each holding one
 * pp reference, as the kernel's.
 *
 * Context: the pool's consumer context.
 * Return: the netmem holding the fragment, or 0 (no memory, or @size
 * larger than the pool's pages: a WARN). Size 0 gets the smallest
 * fragment (the kernel's could start one past the page's end).
 */
netmem_ref page_pool_alloc_frag_netmem(struct page_pool *pool, unsigned int *offset,
				       unsigned int size, gfp_t gfp);
/**
 * page_pool_alloc_frag() - allocate a fragment of a page from a pool
 * @pool: the pool
 * @offset: set to the fragment's offset in the page
 * @size: the fragment's size
 * @gfp: allocation flags for the slow path
 *
 * Context: the pool's consumer context.
 * Return: the page, or NULL; as page_pool_alloc_frag_netmem().
 */
struct page *page_pool_alloc_frag(struct page_pool *pool, unsigned int *offset,
				  unsigned int size, gfp_t gfp);
/**
 * page_pool_destroy() - the driver is done with a pool
 * @pool: the pool; NULL is ignored
 *
 * Drops the driver's reference; a pool registered as an XDP memory model
 * is held by the registration too, and the last of the two goes on:
 * disables direct recycling, empties the cache and the ring, and frees the
 * pool when its last page comes home. With pages in flight the release is
 * retried from a work item (pp_page_pool_set_defer_times()), and pages
 * that come back later are never unmapped through a device that went
 * away. Unlike the kernel's, never sleeps in atomic context: there, with
 * pages in flight, its grace periods and DMA unmapping are left to the
 * release work (a one-time WARN).
 *
 * Context: any context; not concurrently with the pool's consumer (its
 * NAPI disabled).
 */
void page_pool_destroy(struct page_pool *pool);
/**
 * page_pool_use_xdp_mem() - tie a pool to an XDP memory model
 * @pool: the pool
 * @disconnect: called when the pool is finally freed, with the memory
 *	model's allocator
 * @mem: the memory model (struct xdp_mem_info)
 *
 * Called by xdp_rxq_info_reg_mem_model(); drivers do not call it.
 *
 * Context: process context.
 */
void page_pool_use_xdp_mem(struct page_pool *pool, void (*disconnect)(void *),
			   const struct xdp_mem_info *mem);
/**
 * page_pool_put_unrefed_netmem() - give back a netmem whose pp references are dropped
 * @pool: the pool that owns it
 * @netmem: the netmem
 * @dma_sync_size: bytes to sync for the device (-1: max_len)
 * @allow_direct: the caller is the pool's consumer context, so the netmem
 *	may go straight into the alloc cache
 *
 * A netmem that is not @pool's is refused: a WARN, a misuse counter
 * (pp_page_pool_get_misuse()), and the netmem is not touched.
 *
 * Context: any context; @allow_direct only in the consumer's.
 */
void page_pool_put_unrefed_netmem(struct page_pool *pool, netmem_ref netmem,
				  unsigned int dma_sync_size, bool allow_direct);
/**
 * page_pool_put_unrefed_page() - page_pool_put_unrefed_netmem() for a page
 * @pool: the pool that owns it
 * @page: the page
 * @dma_sync_size: bytes to sync for the device (-1: max_len)
 * @allow_direct: the caller is the pool's consumer context
 *
 * Context: any context; @allow_direct only in the consumer's.
 */
void page_pool_put_unrefed_page(struct page_pool *pool, struct page *page,
				unsigned int dma_sync_size, bool allow_direct);
/**
 * page_pool_put_netmem_bulk() - drop a reference on each of many netmems
 * @data: the netmems (overwritten)
 * @count: how many
 *
 * Each netmem whose last reference this was goes back to the pool that
 * owns it (the netmems may belong to different pools: one producer-lock
 * round per pool). A netmem no page_pool owns is refused (a WARN, the
 * misuse counter not_pp_page).
 *
 * Context: any context.
 */
void page_pool_put_netmem_bulk(netmem_ref *data, u32 count);
/**
 * page_pool_put_page_bulk() - Linux 6.12's bulk put
 * @pool: the pool of the pages
 * @data: the pages' virtual addresses (overwritten)
 * @count: how many
 *
 * v6.14 replaced it by page_pool_put_netmem_bulk(). Each page goes back to
 * the pool that owns it.
 *
 * Context: any context.
 */
void page_pool_put_page_bulk(struct page_pool *pool, void **data, int count);
/**
 * page_pool_update_nid() - move a pool to another NUMA node
 * @pool: the pool
 * @new_nid: the node new pages come from
 *
 * The pages in the alloc cache are given back to the page allocator.
 *
 * Context: the pool's consumer context.
 */
void page_pool_update_nid(struct page_pool *pool, int new_nid);
/**
 * page_pool_disable_direct_recycling() - stop napi-local recycling
 * @pool: the pool
 *
 * Forgets the pool's CPU (page_pool_create_percpu()) and NAPI, as the
 * kernel's; the NAPI must be disabled or never initialised
 * (napi_assert_will_not_race() WARNs otherwise). There is no grace period
 * here: page_pool_destroy() has the one that makes a racing direct
 * recycle safe (pp_page_pool_set_fixes()).
 *
 * Context: process context.
 */
void page_pool_disable_direct_recycling(struct page_pool *pool);
/**
 * page_pool_enable_direct_recycling() - start napi-local recycling with a NAPI
 * @pool: the pool
 * @napi: the NAPI whose poll is the pool's consumer
 *
 * A WARN if the pool already has another NAPI (or @napi is NULL).
 *
 * Context: process context.
 */
void page_pool_enable_direct_recycling(struct page_pool *pool, struct napi_struct *napi);

/**
 * page_pool_get_stats() - add a pool's statistics to a struct page_pool_stats
 * @pool: the pool
 * @stats: accumulated into (+=); the caller zeroes it
 *
 * The kernel declares it only under CONFIG_PAGE_POOL_STATS (drivers test for
 * that); here it always exists and, without the option, reports the
 * counters that are kept regardless (none of the per-CPU recycle ones).
 *
 * Context: any context.
 * Return: false if @stats (or @pool) is NULL (nothing done), else true.
 */
bool page_pool_get_stats(const struct page_pool *pool, struct page_pool_stats *stats);
/**
 * page_pool_ethtool_stats_get_count() - number of page_pool ethtool statistics
 *
 * Context: any context.
 * Return: the count.
 */
int page_pool_ethtool_stats_get_count(void);
/**
 * page_pool_ethtool_stats_get_strings() - write the page_pool ethtool statistics' names
 * @data: where to write them, ETH_GSTRING_LEN bytes each
 *
 * Context: any context.
 * Return: @data past the names.
 */
u8 *page_pool_ethtool_stats_get_strings(u8 *data);
/**
 * page_pool_ethtool_stats_get() - write the page_pool ethtool statistics' values
 * @data: where to write them
 * @stats: a struct page_pool_stats
 *
 * Context: any context.
 * Return: @data past the values.
 */
u64 *page_pool_ethtool_stats_get(u64 *data, const void *stats);

#pragma GCC visibility pop
#endif /* _PP_NET_PAGE_POOL_TYPES_H */
