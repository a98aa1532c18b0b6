/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Memory providers: a page_pool whose RX queue is bound to a provider gets
 * its buffers (net_iov, possibly not CPU-readable) from the provider
 * instead of the page allocator, as upstream's devmem and io_uring zero-copy
 * RX do. The provider does its own DMA mapping.
 * Layer: core.
 */
#ifndef _PP_NET_PAGE_POOL_MEMORY_PROVIDER_H
#define _PP_NET_PAGE_POOL_MEMORY_PROVIDER_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <net/netdev_rx_queue.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>

struct sk_buff;

/**
 * struct memory_provider_ops - what a memory provider does for its pools
 * @alloc_netmems: refill. Called by the pool's consumer (the context that
 *	allocates from the pool: its NAPI, bh disabled, or a process that
 *	owns it) when the alloc cache and the ring are empty, with the
 *	caller's gfp (do not sleep unless @gfp allows it). Return one
 *	netmem, or 0 when the provider has none (the allocation fails).
 *	Every net_iov it hands out, the returned one and each placed in the
 *	cache, must first go through net_mp_niov_set_page_pool() (the
 *	pool's pp info, pp_ref_count 1, counted as held), and carry its DMA
 *	address (net_mp_niov_set_dma_addr(), when the provider mapped its
 *	memory): the pool syncs it for the device with that address. It may
 *	place more into the alloc cache with net_mp_netmem_place_in_cache(),
 *	which is how a batch refill is done: the cache is empty when
 *	@alloc_netmems is called and holds PP_ALLOC_CACHE_SIZE, so up to
 *	PP_ALLOC_CACHE_SIZE - 1 besides the returned one (the region
 *	provider hands out PP_ALLOC_CACHE_REFILL at a time).
 * @release_netmem: a netmem leaves the pool for good: the ring was full
 *	on a recycle, it was not recyclable, or the pool is being destroyed
 *	and drains its cache and ring. The provider takes it back: for a
 *	net_iov, net_mp_niov_clear_page_pool() and onto its own free list.
 *	The pool neither unmaps nor syncs it (the provider's mapping).
 *	Called from wherever the put happened (any thread, bh disabled or
 *	not): lock what the free list needs. Return true only for a struct
 *	page the pool should then put_page() (after clearing its pp info);
 *	false for a net_iov, which is never put_page()d.
 * @init: page_pool_create() of a pool bound to the provider, after
 *	pool->mp_priv and pool->mp_ops are set and before the pool is
 *	returned or any allocation: check the pool's parameters (order,
 *	device, dma_dir) and count the pool as a user. A non-zero return
 *	(a -errno) fails page_pool_create() with that error, and @destroy is
 *	not called; should page_pool_create() fail after a successful @init,
 *	@destroy is called at once (nothing was handed out). Process
 *	context.
 * @destroy: the pool is finally released: page_pool_destroy() was called
 *	and its last netmem came home (each one through @release_netmem),
 *	so no netmem of the pool is out any more. That may be long after
 *	page_pool_destroy(), on whichever thread returned the last netmem
 *	or ran the deferred release. Drop the pool's use of the provider;
 *	the provider's memory may be freed when no pool uses it any more.
 *	The pool's fields (pool->mp_priv, pool->p) may still be read; the
 *	pool is freed right after.
 * @nl_fill: the kernel's netlink report of a queue's provider. Never
 *	called by pagepool (no netlink); may be NULL.
 * @uninstall: the kernel's device unregistration with the provider
 *	bound. Never called by pagepool (net_mp_close_rxq() unbinds); may be
 *	NULL.
 *
 * A provider binds to an RX queue with net_mp_open_rxq() and a
 * &struct pp_memory_provider_params whose mp_ops points at its ops and
 * whose mp_priv is its own state. A pool created for that queue with
 * PP_FLAG_ALLOW_UNREADABLE_NETMEM (and .netdev, .queue_idx) then has
 * pool->mp_priv = that mp_priv and pool->mp_ops = those ops; it must have
 * PP_FLAG_DMA_MAP and PP_FLAG_DMA_SYNC_DEV (else -EOPNOTSUPP), and the
 * ops must be in read-only memory, a static const object (else a WARN
 * and -EFAULT): a pool calls through them for as long as it lives.
 * @alloc_netmems, @release_netmem, @init and @destroy are required.
 * src/core/mp.c's region provider (pp_region_provider_params()) is one
 * written this way.
 */
struct memory_provider_ops {
	netmem_ref (*alloc_netmems)(struct page_pool *pool, gfp_t gfp);
	bool (*release_netmem)(struct page_pool *pool, netmem_ref netmem);
	int (*init)(struct page_pool *pool);
	void (*destroy)(struct page_pool *pool);
	int (*nl_fill)(void *mp_priv, struct sk_buff *rsp, struct netdev_rx_queue *rxq);
	void (*uninstall)(void *mp_priv, struct netdev_rx_queue *rxq);
};

/**
 * net_mp_niov_set_dma_addr() - record a net_iov's DMA address
 * @niov: the net_iov
 * @addr: its DMA address
 *
 * Context: a memory provider's init() or alloc_netmems().
 * Return: false: the address is stored. (The kernel's returns true when
 * the address does not fit its compressed form, which cannot happen here.)
 */
bool net_mp_niov_set_dma_addr(struct net_iov *niov, dma_addr_t addr);
/**
 * net_mp_niov_set_page_pool() - attach a net_iov to a pool
 * @pool: the pool
 * @niov: the net_iov: it gets the pool's pp info and pp_ref_count 1, and
 *	is counted as held
 *
 * Context: a memory provider's alloc_netmems().
 */
void net_mp_niov_set_page_pool(struct page_pool *pool, struct net_iov *niov);
/**
 * net_mp_niov_clear_page_pool() - detach a net_iov from its pool
 * @niov: the net_iov
 *
 * Context: only from a memory provider's release_netmem().
 */
void net_mp_niov_clear_page_pool(struct net_iov *niov);

/**
 * net_mp_open_rxq() - bind a memory provider to an RX queue
 * @dev: the device
 * @rxq_idx: the RX queue
 * @p: the provider (pp_region_provider_params() fills one in)
 *
 * Pools created for that queue with PP_FLAG_ALLOW_UNREADABLE_NETMEM then
 * use it.
 *
 * Context: process context; takes the rtnl lock (the caller must not hold it).
 * Return: 0; -EINVAL for a NULL @dev, @p or provider ops, or a bad queue;
 * -EEXIST if a provider is bound.
 */
int net_mp_open_rxq(struct net_device *dev, unsigned int rxq_idx,
		    struct pp_memory_provider_params *p);
/**
 * net_mp_close_rxq() - unbind a memory provider from an RX queue
 * @dev: the device
 * @rxq_idx: the RX queue
 * @old_p: the provider that net_mp_open_rxq() bound
 *
 * A WARN if it is not the one bound, or for a bad queue.
 *
 * Context: process context; takes the rtnl lock.
 */
void net_mp_close_rxq(struct net_device *dev, unsigned int rxq_idx,
		      struct pp_memory_provider_params *old_p);

/*
 * net_iov areas on host memory (pagepool's extension). A provider whose
 * net_iovs are ordinary arena pages - one net_iov per PAGE_SIZE, e.g. an
 * AF_XDP UMEM - binds its area to those pages. A bound page carries
 * PG_net_iov and points at its net_iov (page->private), so every path
 * that only has a data pointer (an XDP frame's data, a put of
 * virt_to_page(data)) finds the net_iov in O(1) and gives it to the pool
 * that holds it: xdp_return_frame() and the other XDP returns in both
 * generations, xdp_return_frame_bulk(), page_pool_put_netmem_bulk(), and a
 * put of the page naming the net_iov's pool (page_pool_put_full_page()
 * and friends). That resolution is made only where the page is found not
 * to be a page_pool page (the path that refuses such a put), so ordinary
 * pages pay nothing for it.
 */
/**
 * pp_net_iov_area_bind_pages() - back a net_iov area by contiguous arena pages
 * @area: the area; niovs[0..num_niovs) set up, each with owner @area
 * @first: the first of num_niovs contiguous pages the caller owns (e.g.
 *	from alloc_contig_pages()); page @first + i backs niovs[i]
 *
 * The pages must be allocated, not compound, not page_pool pages and not
 * bound already. Unbind before the pages are freed.
 *
 * Context: process context, before any of the area's net_iovs is handed
 * out.
 * Return: 0; -EINVAL for a NULL or empty @area, an area bound already, a
 * net_iov whose owner is not @area, or a page that is not as above (then
 * nothing is bound).
 */
int pp_net_iov_area_bind_pages(struct net_iov_area *area, struct page *first);
/**
 * pp_net_iov_area_unbind_pages() - undo pp_net_iov_area_bind_pages()
 * @area: the area (NULL or unbound: nothing to do)
 *
 * The pages are left as ordinary allocated pages, for the caller to free.
 *
 * Context: process context, once no frame or pool holds the area's memory.
 */
void pp_net_iov_area_unbind_pages(struct net_iov_area *area);
/**
 * pp_net_iov_address() - CPU address of a bound net_iov
 * @niov: the net_iov
 *
 * Context: any context.
 * Return: the address of its page, or NULL for a NULL net_iov or one of an
 * unbound area.
 */
void *pp_net_iov_address(const struct net_iov *niov);
/**
 * pp_virt_to_net_iov() - the net_iov whose page holds an address
 * @addr: any address
 *
 * O(1): the page's PG_net_iov flag and back pointer, checked against its
 * area.
 *
 * Context: any context.
 * Return: the net_iov, or NULL when @addr is outside the arena or its page
 * backs no net_iov.
 */
struct net_iov *pp_virt_to_net_iov(const void *addr);

/* From ->alloc_netmems() only (struct memory_provider_ops): the caller
 * knows there is room; marks nothing, net_mp_niov_set_page_pool() first. */
static inline void net_mp_netmem_place_in_cache(struct page_pool *pool, netmem_ref netmem)
{
	pool->alloc.cache[pool->alloc.count++] = netmem;
}

#pragma GCC visibility pop
#endif
