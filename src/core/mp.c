/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Memory providers: binding a provider to an RX queue, the kernel's
 * "ops must be read-only data" rule, and pagepool's region provider - a
 * provider of net_iovs over preallocated, once-mapped memory, the shape of
 * upstream's devmem provider without the dma-buf.
 */
#include <errno.h>

#include <asm/sections.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>
#include <pagepool/core.h>
#include <pagepool/runtime.h>

#include "core/core_internal.h"

/* The kernel refuses provider ops that are not in .rodata (a writable ops
 * table is an exploit primitive); is_kernel_rodata() says what read-only
 * data is here (<asm/sections.h>). */
int ppcore_mp_check_ops(const struct memory_provider_ops *ops)
{
	return is_kernel_rodata((unsigned long)ops) ? 0 : -EFAULT;
}

int net_mp_open_rxq(struct net_device *dev, unsigned int rxq_idx,
		    struct pp_memory_provider_params *p)
{
	struct netdev_rx_queue *rxq;
	int ret = 0;

	if (!dev || !p || !p->mp_ops || rxq_idx >= dev->real_num_rx_queues)
		return -EINVAL;
	rtnl_lock();
	rxq = __netif_get_rx_queue(dev, rxq_idx);
	if (rxq->mp_params.mp_ops)
		ret = -EEXIST;
	else
		rxq->mp_params = *p;
	rtnl_unlock();
	return ret;
}

void net_mp_close_rxq(struct net_device *dev, unsigned int rxq_idx,
		      struct pp_memory_provider_params *old_p)
{
	struct netdev_rx_queue *rxq;

	if (WARN_ON(!dev || rxq_idx >= dev->real_num_rx_queues))
		return;
	rtnl_lock();
	rxq = __netif_get_rx_queue(dev, rxq_idx);
	if (!WARN_ON(rxq->mp_params.mp_priv != old_p->mp_priv ||
		     rxq->mp_params.mp_ops != old_p->mp_ops))
		rxq->mp_params = (struct pp_memory_provider_params){ 0 };
	rtnl_unlock();
}

/* The region provider. */

/*
 * The region is made of high-order chunks, each mapped once: as small as
 * the region needs (16 net_iovs: an order-4 chunk), at most 1024 buffers
 * (order 10, MAX_PAGE_ORDER at 4 KiB pages: 4 MiB there, 16 MiB at 16 KiB,
 * 64 MiB at 64 KiB). Not a MAX_PAGE_ORDER block whatever the need: with
 * 64 KiB pages that is 512 MiB, the whole of a default arena, for a
 * provider of a few buffers.
 */
#define REGION_CHUNK_MAX_ORDER	min_t(unsigned int, MAX_PAGE_ORDER, 10)

struct pp_region_provider {
	struct device *dev;
	unsigned int nr_niovs;
	unsigned int chunk_order;	/* each chunk: 1 << chunk_order pages */
	unsigned int nr_chunks;
	struct page **chunks;		/* high-order blocks, mapped once */
	dma_addr_t *chunk_dma;
	struct net_iov_area area;
	spinlock_t lock;		/* free stack; releases come from any CPU */
	struct net_iov **free_stack;
	unsigned int nr_free;
	atomic_t users;			/* pools using it (a count: relaxed) */
};

static const struct memory_provider_ops region_ops;

static netmem_ref region_alloc_netmems(struct page_pool *pool, gfp_t gfp)
{
	struct pp_region_provider *rp = pool->mp_priv;
	struct net_iov *got[PP_ALLOC_CACHE_REFILL];
	unsigned int n, i;

	(void)gfp;
	if (pp_should_fail(PP_FAULT_MP_ALLOC))
		return 0;
	spin_lock_bh(&rp->lock);
	n = min(rp->nr_free, (unsigned int)PP_ALLOC_CACHE_REFILL);
	for (i = 0; i < n; i++)
		got[i] = rp->free_stack[--rp->nr_free];
	spin_unlock_bh(&rp->lock);
	if (!n)
		return 0;

	for (i = 0; i < n; i++) {
		net_mp_niov_set_page_pool(pool, got[i]);
		if (i + 1 < n)
			net_mp_netmem_place_in_cache(pool, net_iov_to_netmem(got[i]));
	}
	return net_iov_to_netmem(got[n - 1]);
}

static bool region_release_netmem(struct page_pool *pool, netmem_ref netmem)
{
	struct pp_region_provider *rp = pool->mp_priv;
	struct net_iov *niov = netmem_to_net_iov(netmem);

	if (WARN_ON(!niov || niov->owner != &rp->area))
		return false;
	net_mp_niov_clear_page_pool(niov);
	spin_lock_bh(&rp->lock);
	rp->free_stack[rp->nr_free++] = niov;
	spin_unlock_bh(&rp->lock);
	return false;	/* a net_iov is never put_page()d */
}

static int region_init(struct page_pool *pool)
{
	struct pp_region_provider *rp = pool->mp_priv;

	if (!rp)
		return -EINVAL;
	if (pool->p.order != 0)
		return -E2BIG;
	if (pool->p.dev != rp->dev || pool->p.dma_dir != DMA_FROM_DEVICE)
		return -EINVAL;
	atomic_inc(&rp->users);
	return 0;
}

static void region_destroy(struct page_pool *pool)
{
	struct pp_region_provider *rp = pool->mp_priv;

	atomic_dec(&rp->users);
}

static const struct memory_provider_ops region_ops = {
	.alloc_netmems = region_alloc_netmems,
	.release_netmem = region_release_netmem,
	.init = region_init,
	.destroy = region_destroy,
};

static void region_free(struct pp_region_provider *rp)
{
	unsigned int c;

	/* Also on a failed create: any of the arrays may be missing. */
	for (c = 0; rp->chunks && c < rp->nr_chunks; c++) {
		if (!rp->chunks[c])
			continue;
		if (rp->chunk_dma && rp->chunk_dma[c] &&
		    !dma_mapping_error(rp->dev, rp->chunk_dma[c]))
			dma_unmap_page_attrs(rp->dev, rp->chunk_dma[c],
					     PAGE_SIZE << rp->chunk_order, DMA_FROM_DEVICE, 0);
		__free_pages(rp->chunks[c], rp->chunk_order);
	}
	kfree(rp->chunks);
	kfree(rp->chunk_dma);
	kfree(rp->area.niovs);
	kfree(rp->free_stack);
	/* The region's mappings are on rp->dev: it holds the device as a
	 * DMA-mapping pool does, so a pp_device_destroy() under a live
	 * provider cannot free the device it unmaps on. */
	put_device(rp->dev);
	kfree(rp);
}

struct pp_region_provider *pp_region_provider_create(struct device *dev, unsigned int nr_niovs)
{
	struct pp_region_provider *rp;
	unsigned int c, i;

	if (IS_ERR_OR_NULL(dev) || !nr_niovs)
		return ERR_PTR(-EINVAL);
	rp = kzalloc(sizeof(*rp), GFP_KERNEL);
	if (!rp)
		return ERR_PTR(-ENOMEM);
	rp->dev = get_device(dev);
	rp->nr_niovs = nr_niovs;
	rp->chunk_order = min_t(unsigned int, order_base_2(nr_niovs), REGION_CHUNK_MAX_ORDER);
	rp->nr_chunks = DIV_ROUND_UP(nr_niovs, 1u << rp->chunk_order);
	spin_lock_init(&rp->lock);
	rp->chunks = kcalloc(rp->nr_chunks, sizeof(*rp->chunks), GFP_KERNEL);
	rp->chunk_dma = kcalloc(rp->nr_chunks, sizeof(*rp->chunk_dma), GFP_KERNEL);
	rp->area.niovs = kcalloc(nr_niovs, sizeof(*rp->area.niovs), GFP_KERNEL);
	rp->free_stack = kcalloc(nr_niovs, sizeof(*rp->free_stack), GFP_KERNEL);
	if (!rp->chunks || !rp->chunk_dma || !rp->area.niovs || !rp->free_stack)
		goto err_nomem;
	rp->area.num_niovs = nr_niovs;

	for (c = 0; c < rp->nr_chunks; c++) {
		rp->chunks[c] = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_ZERO,
					    rp->chunk_order);
		if (!rp->chunks[c])
			goto err_nomem;
		rp->chunk_dma[c] = dma_map_page_attrs(dev, rp->chunks[c], 0,
						      PAGE_SIZE << rp->chunk_order,
						      DMA_FROM_DEVICE, 0);
		if (dma_mapping_error(dev, rp->chunk_dma[c])) {
			region_free(rp);
			return ERR_PTR(-EIO);
		}
	}

	for (i = 0; i < nr_niovs; i++) {
		struct net_iov *niov = &rp->area.niovs[i];

		niov->owner = &rp->area;
		niov->type = NET_IOV_DMABUF;
		net_mp_niov_set_dma_addr(niov, rp->chunk_dma[i >> rp->chunk_order] +
					 ((dma_addr_t)(i & ((1u << rp->chunk_order) - 1)) <<
					  PAGE_SHIFT));
		rp->free_stack[rp->nr_free++] = niov;
	}
	return rp;

err_nomem:
	region_free(rp);
	return ERR_PTR(-ENOMEM);
}

/* NULL and ERR_PTR() providers (an unchecked create) are refused by
 * every call below, never dereferenced. */
int pp_region_provider_params(struct pp_region_provider *rp, struct pp_memory_provider_params *p)
{
	if (IS_ERR_OR_NULL(rp) || !p)
		return -EINVAL;
	p->mp_priv = rp;
	p->mp_ops = &region_ops;
	return 0;
}

unsigned int pp_region_provider_free(const struct pp_region_provider *rp)
{
	unsigned int n;

	if (IS_ERR_OR_NULL(rp))
		return 0;
	spin_lock_bh((spinlock_t *)&rp->lock);
	n = rp->nr_free;
	spin_unlock_bh((spinlock_t *)&rp->lock);
	return n;
}

void *pp_region_provider_addr(const struct pp_region_provider *rp, netmem_ref netmem)
{
	struct net_iov *niov = netmem_to_net_iov(netmem);
	unsigned int idx;

	if (IS_ERR_OR_NULL(rp) || !niov || niov->owner != &rp->area)
		return NULL;
	idx = net_iov_idx(niov);
	return (char *)page_address(rp->chunks[idx >> rp->chunk_order]) +
	       ((size_t)(idx & ((1u << rp->chunk_order) - 1)) << PAGE_SHIFT);
}

int pp_region_provider_destroy(struct pp_region_provider *rp)
{
	if (IS_ERR_OR_NULL(rp))
		return -EINVAL;
	if (pp_region_provider_free(rp) != rp->nr_niovs ||
	    atomic_read(&rp->users))
		return -EBUSY;
	region_free(rp);
	return 0;
}

/* Memory-provider hooks for net_iovs. */

bool net_mp_niov_set_dma_addr(struct net_iov *niov, dma_addr_t addr)
{
	return page_pool_set_dma_addr_netmem(net_iov_to_netmem(niov), addr);
}

void net_mp_niov_set_page_pool(struct page_pool *pool, struct net_iov *niov)
{
	netmem_ref netmem = net_iov_to_netmem(niov);

	/* A net_iov never needs an item: cannot fail. */
	page_pool_set_pp_info(pool, netmem);
	page_pool_hold_inc(pool);
}

void net_mp_niov_clear_page_pool(struct net_iov *niov)
{
	page_pool_clear_pp_info(net_iov_to_netmem(niov));
}
