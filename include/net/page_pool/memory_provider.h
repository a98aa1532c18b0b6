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

struct memory_provider_ops {
	/* Refill: return one netmem, may also place up to the cache's free
	 * room into the alloc cache with net_mp_netmem_place_in_cache(). */
	netmem_ref (*alloc_netmems)(struct page_pool *pool, gfp_t gfp);
	/* A netmem leaves the pool; true if the caller should put_page() it. */
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

/* From ->alloc_netmems() only: the caller knows there is room. */
static inline void net_mp_netmem_place_in_cache(struct page_pool *pool, netmem_ref netmem)
{
	pool->alloc.cache[pool->alloc.count++] = netmem;
}

#pragma GCC visibility pop
#endif
