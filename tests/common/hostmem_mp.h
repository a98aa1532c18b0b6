/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A small memory provider for the suites: net_iovs backed by host memory,
 * the shape of an AF_XDP UMEM. A run of 2^order contiguous arena pages
 * (alloc_contig_pages(): one order-0 page per net_iov, none compound),
 * bound to the provider's net_iov area (pp_net_iov_area_bind_pages()),
 * each page DMA-mapped once DMA_BIDIRECTIONAL (an XDP_TX pool's direction)
 * at create, a mapping per net_iov (the DMA API maps within one allocated
 * block, and each page of the run is a block of its own). A free stack under a
 * spinlock, as the region provider's; the pool's direction is not checked,
 * so XDP_TX pools (DMA_BIDIRECTIONAL) bind to it.
 *
 * Context: create and destroy in process context with no pool on it; the
 * ops run where page_pool calls them. Layer: tests.
 */
#ifndef PP_TEST_HOSTMEM_MP_H
#define PP_TEST_HOSTMEM_MP_H

#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>

struct hostmem_mp {
	struct device *dev;
	unsigned int order;
	struct page *pages;
	dma_addr_t *dma;	/* net_iov i's mapping */
	struct net_iov_area area;
	spinlock_t lock;
	struct net_iov **free;
	unsigned int nr_free;
	int users;		/* pools on it, under lock */
	unsigned long allocs, releases;
};

static netmem_ref hostmem_alloc(struct page_pool *pool, gfp_t gfp)
{
	struct hostmem_mp *mp = pool->mp_priv;
	struct net_iov *niov = NULL;

	(void)gfp;
	spin_lock_bh(&mp->lock);
	if (mp->nr_free) {
		niov = mp->free[--mp->nr_free];
		mp->allocs++;
	}
	spin_unlock_bh(&mp->lock);
	if (!niov)
		return 0;
	net_mp_niov_set_page_pool(pool, niov);
	return net_iov_to_netmem(niov);
}

static bool hostmem_release(struct page_pool *pool, netmem_ref netmem)
{
	struct hostmem_mp *mp = pool->mp_priv;
	struct net_iov *niov = netmem_to_net_iov(netmem);

	if (WARN_ON(!niov || niov->owner != &mp->area))
		return false;
	net_mp_niov_clear_page_pool(niov);
	spin_lock_bh(&mp->lock);
	mp->free[mp->nr_free++] = niov;
	mp->releases++;
	spin_unlock_bh(&mp->lock);
	return false;
}

static int hostmem_init(struct page_pool *pool)
{
	struct hostmem_mp *mp = pool->mp_priv;

	if (!mp || pool->p.order || pool->p.dev != mp->dev)
		return -EINVAL;
	spin_lock_bh(&mp->lock);
	mp->users++;
	spin_unlock_bh(&mp->lock);
	return 0;
}

static void hostmem_destroy(struct page_pool *pool)
{
	struct hostmem_mp *mp = pool->mp_priv;

	spin_lock_bh(&mp->lock);
	mp->users--;
	spin_unlock_bh(&mp->lock);
}

static const struct memory_provider_ops hostmem_ops = {
	.alloc_netmems = hostmem_alloc,
	.release_netmem = hostmem_release,
	.init = hostmem_init,
	.destroy = hostmem_destroy,
};

static inline unsigned int hostmem_nr(const struct hostmem_mp *mp)
{
	return 1u << mp->order;
}

static inline unsigned int hostmem_free(struct hostmem_mp *mp)
{
	unsigned int n;

	spin_lock_bh(&mp->lock);
	n = mp->nr_free;
	spin_unlock_bh(&mp->lock);
	return n;
}

/* 2^@order net_iovs on @dev; NULL on failure (the suites assert it). */
static inline struct hostmem_mp *hostmem_mp_create(struct device *dev, unsigned int order)
{
	struct hostmem_mp *mp = kzalloc(sizeof(*mp), GFP_KERNEL);
	unsigned int i, n = 1u << order;

	if (!mp)
		return NULL;
	mp->dev = dev;
	mp->order = order;
	spin_lock_init(&mp->lock);
	mp->area.niovs = kcalloc(n, sizeof(*mp->area.niovs), GFP_KERNEL);
	mp->free = kcalloc(n, sizeof(*mp->free), GFP_KERNEL);
	mp->dma = kcalloc(n, sizeof(*mp->dma), GFP_KERNEL);
	mp->pages = alloc_contig_pages(n, GFP_KERNEL | __GFP_ZERO, NUMA_NO_NODE, NULL);
	if (!mp->area.niovs || !mp->free || !mp->dma || !mp->pages)
		goto fail;
	mp->area.num_niovs = n;
	for (i = 0; i < n; i++)
		mp->area.niovs[i].owner = &mp->area;
	if (pp_net_iov_area_bind_pages(&mp->area, mp->pages))
		goto fail;
	for (i = 0; i < n; i++) {
		mp->dma[i] = dma_map_page_attrs(dev, mp->pages + i, 0, PAGE_SIZE,
						DMA_BIDIRECTIONAL, 0);
		if (dma_mapping_error(dev, mp->dma[i]))
			goto unmap;
		net_mp_niov_set_dma_addr(&mp->area.niovs[i], mp->dma[i]);
		mp->free[mp->nr_free++] = &mp->area.niovs[n - 1 - i];
	}
	return mp;
unmap:
	while (i--)
		dma_unmap_page_attrs(dev, mp->dma[i], PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	pp_net_iov_area_unbind_pages(&mp->area);
fail:
	if (mp->pages)
		free_contig_range(page_to_pfn(mp->pages), n);
	kfree(mp->dma);
	kfree(mp->free);
	kfree(mp->area.niovs);
	kfree(mp);
	return NULL;
}

/* Every net_iov back and no pool on it: 0, the memory freed; else -EBUSY. */
static inline int hostmem_mp_destroy(struct hostmem_mp *mp)
{
	unsigned int i;

	if (hostmem_free(mp) != hostmem_nr(mp) || mp->users)
		return -EBUSY;
	for (i = 0; i < hostmem_nr(mp); i++)
		dma_unmap_page_attrs(mp->dev, mp->dma[i], PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	pp_net_iov_area_unbind_pages(&mp->area);
	free_contig_range(page_to_pfn(mp->pages), hostmem_nr(mp));
	kfree(mp->dma);
	kfree(mp->free);
	kfree(mp->area.niovs);
	kfree(mp);
	return 0;
}

static inline void hostmem_mp_params(struct hostmem_mp *mp, struct pp_memory_provider_params *p)
{
	p->mp_priv = mp;
	p->mp_ops = &hostmem_ops;
}

/* A provider pool on @netdev's queue 0: DMA_BIDIRECTIONAL (XDP_TX), synced
 * for the device, with @napi (or none). The queue keeps the provider bound
 * until hostmem_pool_close(). */
static inline struct page_pool *hostmem_pool(struct hostmem_mp *mp, struct net_device *netdev,
					     struct napi_struct *napi,
					     struct pp_memory_provider_params *p)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_ALLOW_UNREADABLE_NETMEM | PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = mp->dev, .napi = napi,
		.dma_dir = DMA_BIDIRECTIONAL, .max_len = PAGE_SIZE, .netdev = netdev,
		.queue_idx = 0,
	};
	struct page_pool *pool;

	hostmem_mp_params(mp, p);
	if (net_mp_open_rxq(netdev, 0, p))
		return ERR_PTR(-EBUSY);
	pool = page_pool_create(&pp);
	if (IS_ERR(pool))
		net_mp_close_rxq(netdev, 0, p);
	return pool;
}

#endif
