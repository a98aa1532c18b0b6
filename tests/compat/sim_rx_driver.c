/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A small RX driver written the way kernel drivers use page_pool: only
 * kernel headers (plus <pagepool.h> for the simulated device). The
 * "hardware" is sim_hw_receive(): it DMA-writes a frame into the buffer of
 * the next posted descriptor through the device's IOMMU mapping.
 *
 * Per completed descriptor the poll syncs the frame for the CPU, then
 * either drops it (XDP_DROP-like: page_pool_recycle_direct()) or passes
 * it up "the stack" (hands the page to the stack's queue, which another
 * thread drains with page_pool_put_full_page()), and reposts a fresh page.
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

#include "sim_rx_driver.h"

#define RX_RING_SIZE	256
#define RX_HEADROOM	256
#define RX_BUF_LEN	2048

struct sim_rx_desc {
	struct page *page;
	dma_addr_t dma;		/* where the device writes: page dma + headroom */
	u32 len;		/* written by the device; 0 = still posted */
};

struct sim_priv {
	struct net_device *netdev;
	struct device *dev;
	struct napi_struct napi;
	struct page_pool *pool;
	struct sim_rx_desc ring[RX_RING_SIZE];
	u32 next_to_clean;		/* driver side */
	u32 hw_head;			/* device side */
	struct ptr_ring *stack;		/* pages passed up */
	u64 rx_packets, rx_dropped, rx_passed, alloc_fail;
	u32 pass_every;			/* pass one frame in this many */
};

static int sim_post_buffer(struct sim_priv *priv, struct sim_rx_desc *desc)
{
	struct page *page = page_pool_dev_alloc_pages(priv->pool);

	desc->page = NULL;
	desc->len = 0;
	if (!page) {
		priv->alloc_fail++;
		return -ENOMEM;
	}
	desc->page = page;
	desc->dma = page_pool_get_dma_addr(page) + RX_HEADROOM;
	desc->len = 0;
	return 0;
}

static int sim_poll(struct napi_struct *napi, int budget)
{
	struct sim_priv *priv = container_of(napi, struct sim_priv, napi);
	int done = 0;

	while (done < budget) {
		struct sim_rx_desc *desc = &priv->ring[priv->next_to_clean % RX_RING_SIZE];
		struct page *page = desc->page;
		u8 *data;

		if (!READ_ONCE(desc->len))
			break;
		page_pool_dma_sync_for_cpu(priv->pool, page, 0, desc->len);
		data = (u8 *)page_address(page) + RX_HEADROOM;
		if (data[0] != 0xaa)		/* what sim_hw_receive() wrote */
			priv->rx_dropped++;
		priv->rx_packets++;

		if (priv->pass_every && priv->rx_packets % priv->pass_every == 0 &&
		    !ptr_ring_produce(priv->stack, page)) {
			priv->rx_passed++;	/* the stack owns it now */
		} else {
			page_pool_recycle_direct(priv->pool, page);
		}
		sim_post_buffer(priv, desc);
		priv->next_to_clean++;
		done++;
	}
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

struct sim_priv *sim_rx_open(struct device *dev, struct ptr_ring *stack, u32 pass_every)
{
	struct page_pool_params pp = { 0 };
	struct net_device *netdev;
	struct sim_priv *priv;
	int i;

	netdev = alloc_etherdev(sizeof(*priv));
	if (!netdev)
		return NULL;
	priv = netdev_priv(netdev);
	priv->netdev = netdev;
	priv->dev = dev;
	priv->stack = stack;
	priv->pass_every = pass_every;
	SET_NETDEV_DEV(netdev, dev);
	if (register_netdev(netdev))
		goto err_free;
	netif_napi_add(netdev, &priv->napi, sim_poll);

	pp.order = 0;
	pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
	pp.pool_size = RX_RING_SIZE;
	pp.nid = dev_to_node(dev);
	pp.dev = dev;
	pp.napi = &priv->napi;
	pp.netdev = netdev;
	pp.dma_dir = DMA_FROM_DEVICE;
	pp.offset = RX_HEADROOM;
	pp.max_len = RX_BUF_LEN;
	priv->pool = page_pool_create(&pp);
	if (IS_ERR(priv->pool))
		goto err_unregister;

	for (i = 0; i < RX_RING_SIZE; i++)
		if (sim_post_buffer(priv, &priv->ring[i]))
			goto err_unpost;
	napi_enable(&priv->napi);
	return priv;

err_unpost:
	while (i--)
		page_pool_put_full_page(priv->pool, priv->ring[i].page, false);
	page_pool_destroy(priv->pool);
err_unregister:
	netif_napi_del(&priv->napi);
	unregister_netdev(netdev);
err_free:
	free_netdev(netdev);
	return NULL;
}

/* The device receives @n frames of @len bytes: DMA writes, then an
 * "interrupt" schedules the NAPI on the calling CPU. */
int sim_hw_receive(struct sim_priv *priv, int n, u32 len)
{
	u8 frame[RX_BUF_LEN];
	int i, got = 0;

	memset(frame, 0xaa, sizeof(frame));
	for (i = 0; i < n; i++) {
		struct sim_rx_desc *desc = &priv->ring[priv->hw_head % RX_RING_SIZE];

		if (priv->hw_head - priv->next_to_clean >= RX_RING_SIZE ||
		    !desc->page || desc->len)
			break;		/* no buffer posted: the device drops */
		if (pp_dma_device_write(priv->dev, desc->dma, frame, len))
			return -EIO;
		WRITE_ONCE(desc->len, len);
		priv->hw_head++;
		got++;
	}
	local_bh_disable();
	napi_schedule(&priv->napi);
	local_bh_enable();		/* the softirq runs the poll here */
	return got;
}

void sim_rx_counters(struct sim_priv *priv, u64 *packets, u64 *passed, u64 *dropped)
{
	*packets = priv->rx_packets;
	*passed = priv->rx_passed;
	*dropped = priv->rx_dropped;
}

u32 sim_rx_pool_id(struct sim_priv *priv)
{
	return pp_page_pool_id(priv->pool);
}

/* ndo_stop + remove: quiesce NAPI, give back the posted buffers, destroy
 * the pool (the stack may still hold pages), unregister. */
void sim_rx_close(struct sim_priv *priv)
{
	struct net_device *netdev = priv->netdev;
	u32 i;

	napi_disable(&priv->napi);
	for (i = 0; i < RX_RING_SIZE; i++) {
		if (priv->ring[i].page) {
			page_pool_put_full_page(priv->pool, priv->ring[i].page, false);
			priv->ring[i].page = NULL;
		}
	}
	page_pool_destroy(priv->pool);
	netif_napi_del(&priv->napi);
	unregister_netdev(netdev);
	free_netdev(netdev);
}
