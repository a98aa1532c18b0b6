/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * kdvq: a software device written the way Linux 6.12's veth
 * (drivers/net/veth.c) and netdevsim (drivers/net/netdevsim/netdev.c) use
 * page_pool and XDP - our own code, using their calls in their places:
 *   - a page_pool per RX queue on the interface's own struct device
 *     (.dev = &ndev->dev), with .napi, .netdev, DMA_BIDIRECTIONAL and
 *     pool_size, no DMA mapping (netdevsim's nsim_create_page_pool());
 *   - ndo_xdp_xmit queueing frames on a ptr_ring under its producer lock
 *     and scheduling the NAPI, which runs the XDP program on each frame
 *     with the no-direct-return flag set (veth_xdp_rcv_one());
 *   - XDP_TX back to the peer in bulks, XDP_DROP and failures through
 *     xdp_return_frame() / xdp_return_buff();
 *   - frames turned into multi-buffer xdp_buffs out of page_pool
 *     fragments (what veth's skb copy path allocates), xdpf_clone();
 *   - teardown as nsim_del_napi(): napi_disable(), __netif_napi_del(),
 *     one synchronize_net(), then page_pool_destroy(); and netdevsim's
 *     pp_hold page held across it.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>

#include "kdrv.h"

#define VQ_RING_SIZE		256
#define VQ_XDP_TX_BULK_SIZE	16
#define VQ_VLAN_HLEN		4
#define VQ_HDR_LEN		64	/* bytes copied into the head of a rebuilt frame */

struct vq_rq {
	struct napi_struct xdp_napi;
	struct net_device *dev;
	struct ptr_ring xdp_ring;
	struct xdp_rxq_info xdp_rxq;
	struct xdp_mem_info xdp_mem;
	struct page_pool *page_pool;
	bool napi_on;
};

struct vq_priv {
	struct net_device *peer;
	const struct kd_xdp_prog *xdp_prog;
	struct vq_rq rq;
	struct page *held;		/* netdevsim's ns->page */
	struct vq_counters cnt;
};

struct vq_xdp_tx_bq {
	struct xdp_frame *q[VQ_XDP_TX_BULK_SIZE];
	unsigned int count;
};

static void vq_ptr_free(void *ptr)
{
	xdp_return_frame(ptr);
}

static void __vq_xdp_flush(struct vq_rq *rq)
{
	if (napi_schedule_prep(&rq->xdp_napi))
		__napi_schedule(&rq->xdp_napi);
}

/* ndo_xdp_xmit: the peer hands us frames. */
static int vq_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	struct vq_priv *priv = netdev_priv(dev);
	struct vq_rq *rq = &priv->rq;
	unsigned int max_len;
	int i, nxmit = 0;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	if (!READ_ONCE(rq->napi_on))
		return -ENXIO;

	max_len = dev->mtu + dev->hard_header_len + VQ_VLAN_HLEN;
	spin_lock(&rq->xdp_ring.producer_lock);
	for (i = 0; i < n; i++) {
		struct xdp_frame *frame = frames[i];

		if (unlikely(xdp_get_frame_len(frame) > max_len ||
			     __ptr_ring_produce(&rq->xdp_ring, frame)))
			break;
		nxmit++;
	}
	spin_unlock(&rq->xdp_ring.producer_lock);

	if (flags & XDP_XMIT_FLUSH)
		__vq_xdp_flush(rq);
	priv->cnt.xmit += (u64)nxmit;
	priv->cnt.xmit_err += (u64)(n - nxmit);
	return nxmit;
}

static void vq_xdp_flush_bq(struct vq_priv *priv, struct vq_xdp_tx_bq *bq)
{
	struct net_device *peer = priv->peer;
	int sent = peer->netdev_ops->ndo_xdp_xmit(peer, (int)bq->count, bq->q, XDP_XMIT_FLUSH);
	unsigned int i;

	if (sent < 0)
		sent = 0;
	for (i = (unsigned int)sent; unlikely(i < bq->count); i++)
		xdp_return_frame(bq->q[i]);
	priv->cnt.xdp_tx += (u64)sent;
	priv->cnt.xdp_tx_err += bq->count - (u64)sent;
	bq->count = 0;
}

static int vq_xdp_tx(struct vq_priv *priv, struct xdp_buff *xdp, struct vq_xdp_tx_bq *bq)
{
	struct xdp_frame *frame = xdp_convert_buff_to_frame(xdp);

	if (unlikely(!frame))
		return -EOVERFLOW;
	if (unlikely(bq->count == VQ_XDP_TX_BULK_SIZE))
		vq_xdp_flush_bq(priv, bq);
	bq->q[bq->count++] = frame;
	return 0;
}

/*
 * Copy the frame in @src into a multi-buffer xdp_buff of our own pool:
 * the first VQ_HDR_LEN bytes in a head fragment with XDP headroom and
 * tailroom, the rest in up to two fragments. -ENOMEM leaves nothing
 * allocated.
 */
static int vq_build_mb(struct vq_rq *rq, const struct xdp_buff *src, struct xdp_buff *mb)
{
	u32 len = (u32)((char *)src->data_end - (char *)src->data);
	u32 hdr = min_t(u32, len, VQ_HDR_LEN), rest = len - hdr, part;
	unsigned int size, off, fsize;
	struct skb_shared_info *sinfo;
	struct page *fpage;
	void *va;

	size = XDP_PACKET_HEADROOM + VQ_HDR_LEN + SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	va = page_pool_dev_alloc_va(rq->page_pool, &size);
	if (!va)
		return -ENOMEM;
	xdp_init_buff(mb, size, &rq->xdp_rxq);
	xdp_prepare_buff(mb, va, XDP_PACKET_HEADROOM, (int)hdr, true);
	memcpy(mb->data, src->data, hdr);
	if (!rest)
		return 0;

	sinfo = xdp_get_shared_info_from_buff(mb);
	sinfo->nr_frags = 0;
	sinfo->xdp_frags_size = 0;
	xdp_buff_set_frags_flag(mb);

	/* First fragment: a plain frag of the pool. */
	part = rest / 2 ? rest / 2 : rest;
	fpage = page_pool_dev_alloc_frag(rq->page_pool, &off, part);
	if (!fpage)
		goto err;
	memcpy((char *)page_address(fpage) + off, (char *)src->data + hdr, part);
	skb_frag_fill_page_desc(&sinfo->frags[sinfo->nr_frags++], fpage, (int)off, (int)part);
	sinfo->xdp_frags_size += part;
	hdr += part;
	rest -= part;
	if (!rest)
		return 0;

	/* Second: page_pool_dev_alloc(), which may round the size up. */
	fsize = rest;
	fpage = page_pool_dev_alloc(rq->page_pool, &off, &fsize);
	if (!fpage)
		goto err;
	memcpy((char *)page_address(fpage) + off, (char *)src->data + hdr, rest);
	__skb_fill_page_desc_noacc(sinfo, sinfo->nr_frags++, fpage, (int)off, (int)rest);
	sinfo->xdp_frags_size += rest;
	return 0;
err:
	xdp_return_buff(mb);
	return -ENOMEM;
}

/* The rebuilt buffer must read back as the original. */
static bool vq_mb_equal(const struct xdp_buff *mb, const struct xdp_buff *src)
{
	const struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(mb);
	const char *p = src->data;
	u32 lin = (u32)((char *)mb->data_end - (char *)mb->data);
	int i;

	if (xdp_get_buff_len(mb) != (u32)((char *)src->data_end - (char *)src->data))
		return false;
	if (memcmp(mb->data, p, lin))
		return false;
	p += lin;
	if (!xdp_buff_has_frags(mb))
		return true;
	for (i = 0; i < sinfo->nr_frags; i++) {
		const skb_frag_t *frag = &sinfo->frags[i];

		if (skb_frag_is_net_iov(frag) ||
		    memcmp(skb_frag_address(frag), p, skb_frag_size(frag)))
			return false;
		p += skb_frag_size(frag);
	}
	return true;
}

/* The XDP_PASS side of the stack: no sk_buff here, so check what an
 * skb would have been built from, clone it once, and let it go. */
static void vq_pass_frame(struct vq_priv *priv, struct xdp_frame *frame)
{
	struct xdp_frame *clone = xdpf_clone(frame);

	if (clone && clone->len == frame->len && clone->metasize == frame->metasize &&
	    !memcmp((char *)clone->data - clone->metasize,
		    (char *)frame->data - frame->metasize, frame->len + frame->metasize) &&
	    xdp_get_frame_len(clone) == xdp_get_frame_len(frame))
		priv->cnt.clone_ok++;
	if (clone)
		xdp_return_frame(clone);
	priv->cnt.pass++;
	xdp_return_frame(frame);
}

/* One frame from the ring; NULL when it was consumed (veth_xdp_rcv_one). */
static struct xdp_frame *vq_xdp_rcv_one(struct vq_priv *priv, struct xdp_frame *frame,
					struct vq_xdp_tx_bq *bq)
{
	struct vq_rq *rq = &priv->rq;
	const struct kd_xdp_prog *prog = READ_ONCE(priv->xdp_prog);
	struct xdp_frame orig_frame;
	struct xdp_buff xdp, mb;
	u32 act;

	if (!prog)
		return frame;

	xdp_convert_frame_to_buff(frame, &xdp);
	xdp.rxq = &rq->xdp_rxq;
	act = kd_prog_run_xdp(prog, &xdp);

	switch (act) {
	case XDP_PASS:
		if (xdp_update_frame_from_buff(&xdp, frame))
			goto err_xdp;
		return frame;
	case XDP_TX:
		orig_frame = *frame;
		xdp.rxq->mem = frame->mem;
		if (unlikely(vq_xdp_tx(priv, &xdp, bq) < 0)) {
			frame = &orig_frame;
			goto err_xdp;
		}
		rq->xdp_rxq.mem = rq->xdp_mem;
		return NULL;
	case XDP_REDIRECT:
		/* "Redirect" here rebuilds the frame as a multi-buffer one
		 * in our own pool and sends that to the peer; the original
		 * goes back to its pool at once. */
		if (vq_build_mb(rq, &xdp, &mb))
			goto err_xdp;
		if (!vq_mb_equal(&mb, &xdp)) {
			xdp_return_buff(&mb);
			goto err_xdp;
		}
		priv->cnt.mb_built++;
		xdp_return_frame(frame);
		if (vq_xdp_tx(priv, &mb, bq) < 0)
			xdp_return_buff(&mb);
		return NULL;
	default:
	case XDP_ABORTED:
	case XDP_DROP:
		priv->cnt.xdp_drops++;
		goto err_xdp;
	}
err_xdp:
	rq->xdp_rxq.mem = rq->xdp_mem;
	xdp_return_frame(frame);
	return NULL;
}

static int vq_poll(struct napi_struct *napi, int budget)
{
	struct vq_rq *rq = container_of(napi, struct vq_rq, xdp_napi);
	struct vq_priv *priv = netdev_priv(rq->dev);
	struct vq_xdp_tx_bq bq;
	int done = 0;

	bq.count = 0;
	xdp_set_return_frame_no_direct();
	while (done < budget) {
		struct xdp_frame *frame = __ptr_ring_consume(&rq->xdp_ring);

		if (!frame)
			break;
		priv->cnt.xdp_packets++;
		priv->cnt.xdp_bytes += xdp_get_frame_len(frame);
		frame = vq_xdp_rcv_one(priv, frame, &bq);
		if (frame)
			vq_pass_frame(priv, frame);
		done++;
	}
	if (bq.count)
		vq_xdp_flush_bq(priv, &bq);
	xdp_clear_return_frame_no_direct();

	if (done < budget && napi_complete_done(napi, done)) {
		if (unlikely(!__ptr_ring_empty(&rq->xdp_ring)) &&
		    napi_schedule_prep(&rq->xdp_napi))
			__napi_schedule(&rq->xdp_napi);
	}
	return done;
}

static int vq_create_page_pool(struct vq_rq *rq)
{
	struct page_pool_params p = {
		.order = 0,
		.pool_size = VQ_RING_SIZE,
		.nid = NUMA_NO_NODE,
		.dev = &rq->xdp_napi.dev->dev,
		.napi = &rq->xdp_napi,
		.dma_dir = DMA_BIDIRECTIONAL,
		.netdev = rq->xdp_napi.dev,
	};

	rq->page_pool = page_pool_create(&p);
	if (IS_ERR(rq->page_pool)) {
		int err = (int)PTR_ERR(rq->page_pool);

		rq->page_pool = NULL;
		return err;
	}
	return 0;
}

static int vq_open(struct net_device *dev)
{
	struct vq_priv *priv = netdev_priv(dev);
	struct vq_rq *rq = &priv->rq;
	int err;

	rq->dev = dev;
	netif_napi_add(dev, &rq->xdp_napi, vq_poll);
	err = vq_create_page_pool(rq);
	if (err)
		goto err_napi;
	err = ptr_ring_init(&rq->xdp_ring, VQ_RING_SIZE, GFP_KERNEL);
	if (err)
		goto err_pp;
	err = xdp_rxq_info_reg(&rq->xdp_rxq, dev, 0, rq->xdp_napi.napi_id);
	if (err < 0)
		goto err_ring;
	err = xdp_rxq_info_reg_mem_model(&rq->xdp_rxq, MEM_TYPE_PAGE_POOL, rq->page_pool);
	if (err < 0)
		goto err_rxq;
	/* Kept: XDP_TX of a peer's frame overwrites the rxq's model. */
	rq->xdp_mem = rq->xdp_rxq.mem;
	napi_enable(&rq->xdp_napi);
	WRITE_ONCE(rq->napi_on, true);
	return 0;

err_rxq:
	xdp_rxq_info_unreg(&rq->xdp_rxq);
err_ring:
	ptr_ring_cleanup(&rq->xdp_ring, vq_ptr_free);
err_pp:
	page_pool_destroy(rq->page_pool);
	rq->page_pool = NULL;
err_napi:
	netif_napi_del(&rq->xdp_napi);
	return err;
}

static int vq_stop(struct net_device *dev)
{
	struct vq_priv *priv = netdev_priv(dev);
	struct vq_rq *rq = &priv->rq;

	WRITE_ONCE(rq->napi_on, false);
	napi_disable(&rq->xdp_napi);
	__netif_napi_del(&rq->xdp_napi);
	synchronize_net();

	rq->xdp_rxq.mem = rq->xdp_mem;
	xdp_rxq_info_unreg(&rq->xdp_rxq);
	ptr_ring_cleanup(&rq->xdp_ring, vq_ptr_free);
	page_pool_destroy(rq->page_pool);
	rq->page_pool = NULL;
	return 0;
}

static const struct net_device_ops vq_netdev_ops = {
	.ndo_open	= vq_open,
	.ndo_stop	= vq_stop,
	.ndo_xdp_xmit	= vq_xdp_xmit,
};

struct net_device *vq_create(void)
{
	struct net_device *dev = alloc_etherdev(sizeof(struct vq_priv));

	if (!dev)
		return NULL;
	memset(netdev_priv(dev), 0, sizeof(struct vq_priv));
	dev->netdev_ops = &vq_netdev_ops;
	if (register_netdev(dev)) {
		free_netdev(dev);
		return NULL;
	}
	return dev;
}

void vq_destroy(struct net_device *dev)
{
	unregister_netdev(dev);
	free_netdev(dev);
}

void vq_set_peer(struct net_device *dev, struct net_device *peer)
{
	struct vq_priv *priv = netdev_priv(dev);

	priv->peer = peer;
}

void vq_set_xdp_prog(struct net_device *dev, const struct kd_xdp_prog *prog)
{
	struct vq_priv *priv = netdev_priv(dev);

	WRITE_ONCE(priv->xdp_prog, prog);
}

/* netdevsim's pp_hold, without debugfs: the held page outlives the pool. */
int vq_pp_hold(struct net_device *dev, bool hold)
{
	struct vq_priv *priv = netdev_priv(dev);

	if (hold == !!priv->held)
		return 0;
	if (hold) {
		if (!READ_ONCE(priv->rq.napi_on))
			return -ENETDOWN;
		priv->held = page_pool_dev_alloc_pages(priv->rq.page_pool);
		return priv->held ? 0 : -ENOMEM;
	}
	page_pool_put_full_page(kd_page_pool(priv->held), priv->held, false);
	priv->held = NULL;
	return 0;
}

struct page_pool *vq_get_page_pool(struct net_device *dev)
{
	struct vq_priv *priv = netdev_priv(dev);

	return priv->rq.page_pool;
}

void vq_get_counters(struct net_device *dev, struct vq_counters *c)
{
	struct vq_priv *priv = netdev_priv(dev);

	*c = priv->cnt;
}
