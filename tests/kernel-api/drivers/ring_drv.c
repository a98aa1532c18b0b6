/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * kdring: a descriptor-ring NIC driver written the way Linux 6.12's netsec
 * (drivers/net/ethernet/socionext/netsec.c) and cpsw with davinci_cpdma
 * use page_pool, XDP and the DMA API - our own code, using the calls those
 * drivers make, in the same places:
 *   - descriptor rings in dma_alloc_coherent() memory, an ownership bit
 *     handed over with dma_wmb() and read back with dma_rmb();
 *   - RX queue 0 is netsec's: a page_pool that maps and syncs for the
 *     device (.offset/.max_len), the driver syncing for the CPU;
 *   - RX queue 1 is cpsw's: a page_pool that only maps
 *     (PP_FLAG_DMA_MAP, DMA_BIDIRECTIONAL, no NAPI), the driver syncing
 *     both ways itself, as cpdma does for "mapped" buffers;
 *   - one NAPI for both, with a budget; XDP verdicts handled as
 *     netsec_run_xdp() does; XDP_TX reusing the page_pool DMA address,
 *     ndo_xdp_xmit mapping frames with dma_map_single() (a multi-buffer
 *     frame as a scatterlist, dma_map_sg()); TX completion giving frames
 *     back with xdp_return_frame_bulk() or, for XDP_TX, with
 *     xdp_return_frame_rx_napi();
 *   - ethtool statistics with page_pool's (veth's pattern), a DMA
 *     loopback self-test on an sg_table, and teardown.
 * The NIC is sim_nic.c; it reaches memory only through DMA addresses.
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/topology.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <uapi/linux/bpf.h>	/* the path cpsw_priv.h includes it by */

#include "kdrv.h"

#define KD_RX_DESC_NUM	64
#define KD_TX_DESC_NUM	128
#define KD_DESC_SZ	sizeof(struct kd_desc)
#define KD_MAX_SEGS	4		/* head + 3 fragments per TX frame */

/* Room for XDP (or the stack) in front of the frame, and for
 * skb_shared_info behind it: one frame per page. */
#define KD_RXBUF_HEADROOM	(max(XDP_PACKET_HEADROOM, NET_SKB_PAD) + NET_IP_ALIGN)
#define KD_RX_BUF_NON_DATA	(KD_RXBUF_HEADROOM + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
#define KD_RX_BUF_SIZE		(PAGE_SIZE - KD_RX_BUF_NON_DATA)

/* What the RX path did with a frame (netsec's NETSEC_XDP_*). */
#define KD_XDP_PASS	0
#define KD_XDP_CONSUMED	BIT(0)
#define KD_XDP_TX	BIT(1)
#define KD_XDP_REDIR	BIT(2)

enum kd_rxq_style {
	KD_RXQ_NETSEC,		/* pool maps and syncs for the device */
	KD_RXQ_CPSW,		/* pool maps; the driver syncs */
};

enum kd_tx_type {
	KD_TX_NONE,
	KD_TX_XDP_TX,		/* an RX page_pool page: no mapping of ours */
	KD_TX_XDP_NDO,		/* ndo_xdp_xmit: dma_map_single() */
	KD_TX_XDP_NDO_SG,	/* ndo_xdp_xmit of a multi-buffer frame: dma_map_sg() */
	KD_TX_CONT,		/* a later segment of a KD_TX_XDP_NDO_SG frame */
};

struct kd_rx_buf {
	dma_addr_t dma_addr;	/* where the device writes */
	void *addr;		/* page_address() of the page */
	u16 len;
};

struct kd_tx_buf {
	struct xdp_frame *xdpf;
	DEFINE_DMA_UNMAP_ADDR(dma);
	DEFINE_DMA_UNMAP_LEN(len);
	u8 type;
	u8 nsegs;		/* descriptors the frame takes */
	int sg_nents;		/* what dma_map_sg() was given */
	struct scatterlist sgl[KD_MAX_SEGS];
};

struct kd_ring {
	struct kd_desc *vaddr;
	dma_addr_t desc_dma;
	u16 num;
	u16 head, tail;
};

struct kd_rxq {
	struct kd_ring ring;
	struct kd_rx_buf *buf;
	enum kd_rxq_style style;
	struct page_pool *page_pool;
	struct xdp_rxq_info xdp_rxq;
};

struct kd_txq {
	struct kd_ring ring;
	struct kd_tx_buf *buf;
	spinlock_t lock;	/* XDP_TX and ndo_xdp_xmit */
	u16 xdp_xmit;		/* queued by ndo_xdp_xmit, not yet doorbelled */
};

/* The devmap bulk queue xdp_do_redirect() fills and xdp_do_flush()
 * empties into the target's ndo_xdp_xmit (pagepool has no devmap). */
struct kd_redirect_bq {
	struct xdp_frame *q[XDP_BULK_QUEUE_SIZE];
	int count;
};

struct kd_priv {
	struct net_device *ndev;
	struct device *dev;		/* the bus device: DMA goes through it */
	struct kd_hw *hw;
	struct napi_struct napi;
	struct kd_rxq rxq[KD_NR_RXQ];
	struct kd_txq txq;
	const struct kd_xdp_prog *xdp_prog;
	struct net_device *redirect_target;
	struct kd_redirect_bq redir;
	kd_stack_rx_t stack_rx;
	u32 rx_buf_len;
	u64 xdp_pass, xdp_drop, xdp_tx, xdp_redirect, xdp_invalid, tx_done;
};

static void kd_write(struct kd_priv *priv, enum kd_reg reg, u32 val)
{
	kd_hw_writel(priv->hw, reg, val);
}

static u32 kd_read(struct kd_priv *priv, enum kd_reg reg)
{
	return kd_hw_readl(priv->hw, reg);
}

/* ---- RX ---- */

static void kd_set_rx_de(struct kd_priv *priv, struct kd_rxq *rxq, u16 idx,
			 const struct kd_rx_buf *buf)
{
	struct kd_desc *de = &rxq->ring.vaddr[idx];
	u32 attr = KD_DESC_OWN | KD_DESC_FS | KD_DESC_LS;

	if (idx == rxq->ring.num - 1)
		attr |= KD_DESC_LD;
	if (rxq->style == KD_RXQ_CPSW)
		/* cpdma submits a mapped buffer after a sync for the device. */
		dma_sync_single_for_device(priv->dev, buf->dma_addr, buf->len,
					   DMA_BIDIRECTIONAL);
	de->buf_hi = upper_32_bits(buf->dma_addr);
	de->buf_lo = lower_32_bits(buf->dma_addr);
	de->len_info = buf->len;
	/* Everything above is visible to the device before it owns it. */
	dma_wmb();
	WRITE_ONCE(de->attr, attr);
	rxq->buf[idx] = *buf;
}

static void *kd_alloc_rx_data(struct kd_priv *priv, struct kd_rxq *rxq,
			      dma_addr_t *dma_handle, u16 *len)
{
	struct page *page = page_pool_dev_alloc_pages(rxq->page_pool);

	if (!page)
		return NULL;
	/* The pool mapped the whole page: the device writes past the
	 * headroom, and leaves the tail for skb_shared_info. */
	*dma_handle = page_pool_get_dma_addr(page) + KD_RXBUF_HEADROOM;
	*len = (u16)priv->rx_buf_len;
	return page_address(page);
}

static void kd_put_rx_page(struct kd_rxq *rxq, struct page *page, unsigned int sync)
{
	if (rxq->style == KD_RXQ_CPSW)
		page_pool_recycle_direct(rxq->page_pool, page);
	else
		page_pool_put_page(rxq->page_pool, page, sync, true);
}

/* ---- TX ---- */

static u16 kd_tx_free(const struct kd_txq *txq)
{
	u16 used = (u16)((txq->ring.head + txq->ring.num - txq->ring.tail) % txq->ring.num);

	return (u16)(txq->ring.num - used);
}

static void kd_set_tx_de(struct kd_txq *txq, dma_addr_t dma, u32 len, u32 seg_flags)
{
	u16 idx = txq->ring.head;
	struct kd_desc *de = &txq->ring.vaddr[idx];
	u32 attr = KD_DESC_OWN | seg_flags;

	if (idx == txq->ring.num - 1)
		attr |= KD_DESC_LD;
	de->buf_hi = upper_32_bits(dma);
	de->buf_lo = lower_32_bits(dma);
	de->len_info = len;
	dma_wmb();
	WRITE_ONCE(de->attr, attr);
	txq->ring.head = (u16)((idx + 1) % txq->ring.num);
}

/* A multi-buffer frame from ndo_xdp_xmit: head and fragments as one
 * scatterlist, one descriptor per DMA segment. */
static u32 kd_xdp_queue_sg(struct kd_priv *priv, struct kd_txq *txq, struct xdp_frame *xdpf)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(xdpf);
	u16 first = txq->ring.head;
	struct kd_tx_buf *tb = &txq->buf[first];
	struct scatterlist *sg;
	int nents = 1 + sinfo->nr_frags;
	int mapped, i;

	if (nents > KD_MAX_SEGS || kd_tx_free(txq) <= nents)
		return KD_XDP_CONSUMED;

	sg_init_table(tb->sgl, (unsigned int)nents);
	sg_set_page(&tb->sgl[0], virt_to_page(xdpf->data), xdpf->len,
		    (unsigned int)offset_in_page(xdpf->data));
	for (i = 0; i < sinfo->nr_frags; i++) {
		const skb_frag_t *frag = &sinfo->frags[i];

		sg_set_page(&tb->sgl[i + 1], skb_frag_page(frag), skb_frag_size(frag),
			    skb_frag_off(frag));
	}
	mapped = (int)dma_map_sg(priv->dev, tb->sgl, nents, DMA_TO_DEVICE);
	if (!mapped)
		return KD_XDP_CONSUMED;

	tb->type = KD_TX_XDP_NDO_SG;
	tb->xdpf = xdpf;
	tb->sg_nents = nents;
	tb->nsegs = (u8)mapped;
	for_each_sg(tb->sgl, sg, mapped, i) {
		u32 flags = (i == 0 ? KD_DESC_FS : 0) | (i == mapped - 1 ? KD_DESC_LS : 0);

		if (i)
			txq->buf[txq->ring.head].type = KD_TX_CONT;
		kd_set_tx_de(txq, sg_dma_address(sg), sg_dma_len(sg), flags);
	}
	return KD_XDP_TX;
}

/* Under txq->lock. */
static u32 kd_xdp_queue_one(struct kd_priv *priv, struct xdp_frame *xdpf, bool is_ndo,
			    struct page_pool *pool)
{
	struct kd_txq *txq = &priv->txq;
	struct kd_tx_buf *tb;
	dma_addr_t dma;

	if (is_ndo && xdp_frame_has_frags(xdpf))
		return kd_xdp_queue_sg(priv, txq, xdpf);
	if (kd_tx_free(txq) <= 1)
		return KD_XDP_CONSUMED;

	tb = &txq->buf[txq->ring.head];
	if (is_ndo) {
		/* Someone else's frame: map it for this device. */
		dma = dma_map_single(priv->dev, xdpf->data, xdpf->len, DMA_TO_DEVICE);
		if (dma_mapping_error(priv->dev, dma))
			return KD_XDP_CONSUMED;
		tb->type = KD_TX_XDP_NDO;
		dma_unmap_addr_set(tb, dma, dma);
		dma_unmap_len_set(tb, len, xdpf->len);
	} else {
		/* Our own RX page: already mapped by the pool, bidirectionally
		 * since a program is attached; sync what the program wrote. */
		struct page *page = virt_to_page(xdpf->data);

		dma = page_pool_get_dma_addr(page) + xdpf->headroom + sizeof(*xdpf);
		dma_sync_single_for_device(priv->dev, dma, xdpf->len,
					   page_pool_get_dma_dir(pool));
		tb->type = KD_TX_XDP_TX;
	}
	tb->xdpf = xdpf;
	tb->nsegs = 1;
	kd_set_tx_de(txq, dma, xdpf->len, KD_DESC_FS | KD_DESC_LS);
	return KD_XDP_TX;
}

static void kd_xdp_ring_tx_db(struct kd_priv *priv, u16 pkts)
{
	if (likely(pkts))
		kd_write(priv, KD_REG_TX_DOORBELL, pkts);
}

static void kd_tx_buf_release(struct kd_priv *priv, struct kd_tx_buf *tb,
			      struct xdp_frame_bulk *bq, bool in_napi)
{
	switch (tb->type) {
	case KD_TX_XDP_NDO:
		dma_unmap_single(priv->dev, dma_unmap_addr(tb, dma),
				 dma_unmap_len(tb, len), DMA_TO_DEVICE);
		if (bq)
			xdp_return_frame_bulk(tb->xdpf, bq);
		else
			xdp_return_frame(tb->xdpf);
		break;
	case KD_TX_XDP_NDO_SG:
		dma_unmap_sg(priv->dev, tb->sgl, tb->sg_nents, DMA_TO_DEVICE);
		if (bq)
			xdp_return_frame_bulk(tb->xdpf, bq);
		else
			xdp_return_frame(tb->xdpf);
		break;
	case KD_TX_XDP_TX:
		if (in_napi)
			xdp_return_frame_rx_napi(tb->xdpf);
		else
			xdp_return_frame(tb->xdpf);
		break;
	default:
		break;
	}
	tb->type = KD_TX_NONE;
	tb->xdpf = NULL;
}

/* TX completion, from the NAPI poll. */
static bool kd_clean_tx_ring(struct kd_priv *priv)
{
	struct kd_txq *txq = &priv->txq;
	struct xdp_frame_bulk bq;
	int cnt = 0;

	spin_lock(&txq->lock);
	xdp_frame_bulk_init(&bq);
	rcu_read_lock();	/* xdp_return_frame_bulk() */
	while (txq->ring.tail != txq->ring.head) {
		u16 idx = txq->ring.tail;
		struct kd_tx_buf *tb = &txq->buf[idx];
		u16 last = (u16)((idx + tb->nsegs - 1) % txq->ring.num);
		u16 i;

		/* A frame is done when its last segment is. */
		if (READ_ONCE(txq->ring.vaddr[last].attr) & KD_DESC_OWN)
			break;
		dma_rmb();
		kd_tx_buf_release(priv, tb, &bq, true);
		for (i = 0; i < tb->nsegs; i++) {
			u16 j = (u16)((idx + i) % txq->ring.num);

			txq->ring.vaddr[j].attr = 0;
			txq->buf[j].type = KD_TX_NONE;
		}
		txq->ring.tail = (u16)((last + 1) % txq->ring.num);
		cnt++;
	}
	xdp_flush_frame_bulk(&bq);
	rcu_read_unlock();
	spin_unlock(&txq->lock);

	priv->tx_done += (u64)cnt;
	priv->ndev->stats.tx_packets += (unsigned long)cnt;
	return cnt != 0;
}

/* ---- XDP ---- */

static int kd_xdp_do_redirect(struct kd_priv *priv, struct xdp_buff *xdp)
{
	struct xdp_frame *xdpf;

	if (!priv->redirect_target)
		return -ENODEV;
	xdpf = xdp_convert_buff_to_frame(xdp);
	if (unlikely(!xdpf))
		return -EOVERFLOW;
	priv->redir.q[priv->redir.count++] = xdpf;
	if (priv->redir.count == XDP_BULK_QUEUE_SIZE) {
		struct net_device *t = priv->redirect_target;
		int sent = t->netdev_ops->ndo_xdp_xmit(t, priv->redir.count, priv->redir.q, 0);
		int i;

		for (i = sent < 0 ? 0 : sent; i < priv->redir.count; i++)
			xdp_return_frame_rx_napi(priv->redir.q[i]);
		priv->redir.count = 0;
	}
	return 0;
}

static void kd_xdp_do_flush(struct kd_priv *priv)
{
	struct net_device *t = priv->redirect_target;
	int sent, i;

	if (!priv->redir.count)
		return;
	sent = t->netdev_ops->ndo_xdp_xmit(t, priv->redir.count, priv->redir.q,
					   XDP_XMIT_FLUSH);
	for (i = sent < 0 ? 0 : sent; i < priv->redir.count; i++)
		xdp_return_frame_rx_napi(priv->redir.q[i]);
	priv->redir.count = 0;
}

static u32 kd_xdp_xmit_back(struct kd_priv *priv, struct kd_rxq *rxq, struct xdp_buff *xdp)
{
	struct xdp_frame *xdpf = xdp_convert_buff_to_frame(xdp);
	u32 ret;

	if (unlikely(!xdpf))
		return KD_XDP_CONSUMED;
	spin_lock(&priv->txq.lock);
	ret = kd_xdp_queue_one(priv, xdpf, false, rxq->page_pool);
	spin_unlock(&priv->txq.lock);
	return ret;
}

static u32 kd_run_xdp(struct kd_priv *priv, struct kd_rxq *rxq, struct xdp_buff *xdp)
{
	unsigned int len = (unsigned int)((char *)xdp->data_end - (char *)xdp->data);
	unsigned int sync;
	u32 act, ret = KD_XDP_PASS;

	act = kd_prog_run_xdp(priv->xdp_prog, xdp);

	/* What the CPU may have touched, for the pool's sync for device. */
	sync = (unsigned int)((char *)xdp->data_end - (char *)xdp->data_hard_start) -
	       KD_RXBUF_HEADROOM;
	sync = max(sync, len);

	switch (act) {
	case XDP_PASS:
		ret = KD_XDP_PASS;
		priv->xdp_pass++;
		break;
	case XDP_TX:
		ret = kd_xdp_xmit_back(priv, rxq, xdp);
		if (ret != KD_XDP_TX)
			kd_put_rx_page(rxq, virt_to_head_page(xdp->data), sync);
		else
			priv->xdp_tx++;
		break;
	case XDP_REDIRECT:
		if (!kd_xdp_do_redirect(priv, xdp)) {
			ret = KD_XDP_REDIR;
			priv->xdp_redirect++;
		} else {
			ret = KD_XDP_CONSUMED;
			kd_put_rx_page(rxq, virt_to_head_page(xdp->data), sync);
		}
		break;
	default:
		priv->xdp_invalid++;
		fallthrough;
	case XDP_ABORTED:
		fallthrough;
	case XDP_DROP:
		ret = KD_XDP_CONSUMED;
		priv->xdp_drop++;
		kd_put_rx_page(rxq, virt_to_head_page(xdp->data), sync);
		break;
	}
	return ret;
}

static int kd_process_rx(struct kd_priv *priv, struct kd_rxq *rxq, int budget,
			 u32 *xdp_act, u16 *xdp_xmit)
{
	struct net_device *ndev = priv->ndev;
	enum dma_data_direction dma_dir;
	struct xdp_buff xdp;
	int done = 0;

	xdp_init_buff(&xdp, PAGE_SIZE, &rxq->xdp_rxq);
	dma_dir = page_pool_get_dma_dir(rxq->page_pool);

	while (done < budget) {
		u16 idx = rxq->ring.tail;
		struct kd_desc *de = &rxq->ring.vaddr[idx];
		struct kd_rx_buf *buf = &rxq->buf[idx];
		struct page *page = virt_to_page(buf->addr);
		u32 xdp_result = KD_XDP_PASS;
		struct kd_rx_buf fresh;
		u16 pkt_len;
		u32 attr;

		attr = READ_ONCE(de->attr);
		if (attr & KD_DESC_OWN)
			break;
		/* Nothing else of the descriptor before OWN was seen clear. */
		dma_rmb();
		done++;

		pkt_len = (u16)(de->len_info >> 16);
		if (attr & KD_DESC_ERR) {
			ndev->stats.rx_errors++;
			/* Give the same buffer back to the device. */
			kd_set_rx_de(priv, rxq, idx, buf);
			rxq->ring.tail = (u16)((idx + 1) % rxq->ring.num);
			continue;
		}

		/* A fresh buffer first: without one, the frame stays. */
		fresh.addr = kd_alloc_rx_data(priv, rxq, &fresh.dma_addr, &fresh.len);
		if (unlikely(!fresh.addr))
			break;

		if (rxq->style == KD_RXQ_NETSEC)
			dma_sync_single_for_cpu(priv->dev, buf->dma_addr, pkt_len, dma_dir);
		else
			page_pool_dma_sync_for_cpu(rxq->page_pool, page,
						   KD_RXBUF_HEADROOM, pkt_len);
		prefetch(buf->addr);

		if (unlikely(page_pool_is_unreadable(rxq->page_pool))) {
			kd_put_rx_page(rxq, page, pkt_len);
			ndev->stats.rx_dropped++;
			goto next;
		}

		/* netsec carries no metadata; cpsw's queue here does. */
		xdp_prepare_buff(&xdp, buf->addr, KD_RXBUF_HEADROOM, pkt_len,
				 rxq->style == KD_RXQ_CPSW);

		if (priv->xdp_prog) {
			xdp_result = kd_run_xdp(priv, rxq, &xdp);
			if (xdp_result != KD_XDP_PASS) {
				*xdp_act |= xdp_result;
				if (xdp_result == KD_XDP_TX)
					(*xdp_xmit)++;
				goto count;
			}
		}
		/* build_skb() + skb_mark_for_recycle(): the stack owns it. */
		priv->stack_rx(ndev, page, (u32)((char *)xdp.data - (char *)xdp.data_hard_start),
			       (u32)((char *)xdp.data_end - (char *)xdp.data));
count:
		ndev->stats.rx_packets++;
		ndev->stats.rx_bytes += (unsigned long)((char *)xdp.data_end - (char *)xdp.data);
next:
		kd_set_rx_de(priv, rxq, idx, &fresh);
		rxq->ring.tail = (u16)((idx + 1) % rxq->ring.num);
	}
	return done;
}

static void kd_finalize_xdp_rx(struct kd_priv *priv, u32 xdp_res, u16 pkts)
{
	if (xdp_res & KD_XDP_REDIR)
		kd_xdp_do_flush(priv);
	if (xdp_res & KD_XDP_TX)
		kd_xdp_ring_tx_db(priv, pkts);
}

static int kd_napi_poll(struct napi_struct *napi, int budget)
{
	struct kd_priv *priv = container_of(napi, struct kd_priv, napi);
	u32 xdp_act = 0;
	u16 xdp_xmit = 0;
	int done = 0, q;

	for (q = 0; q < KD_NR_RXQ; q++)
		page_pool_nid_changed(priv->rxq[q].page_pool, numa_mem_id());

	kd_clean_tx_ring(priv);
	for (q = 0; q < KD_NR_RXQ && done < budget; q++)
		done += kd_process_rx(priv, &priv->rxq[q], budget - done, &xdp_act, &xdp_xmit);
	kd_finalize_xdp_rx(priv, xdp_act, xdp_xmit);

	if (done < budget && napi_complete_done(napi, done))
		kd_write(priv, KD_REG_INTEN_SET, KD_IRQ_RX | KD_IRQ_TX);
	return done;
}

static void kd_irq_handler(int irq, void *dev_id)
{
	struct kd_priv *priv = dev_id;
	u32 status = kd_read(priv, KD_REG_INT_STATUS);

	(void)irq;
	if (!status)
		return;
	kd_write(priv, KD_REG_INTEN_CLR, KD_IRQ_RX | KD_IRQ_TX);
	napi_schedule(&priv->napi);
}

/* ndo_xdp_xmit: frames redirected to us by another device. */
static int kd_xdp_xmit(struct net_device *ndev, int n, struct xdp_frame **frames, u32 flags)
{
	struct kd_priv *priv = netdev_priv(ndev);
	struct kd_txq *txq = &priv->txq;
	int i, nxmit = 0;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;

	spin_lock(&txq->lock);
	for (i = 0; i < n; i++) {
		if (kd_xdp_queue_one(priv, frames[i], true, NULL) != KD_XDP_TX)
			break;
		txq->xdp_xmit++;
		nxmit++;
	}
	spin_unlock(&txq->lock);

	if (unlikely(flags & XDP_XMIT_FLUSH)) {
		kd_xdp_ring_tx_db(priv, txq->xdp_xmit);
		txq->xdp_xmit = 0;
	}
	return nxmit;
}

/* ---- Rings: allocation, setup, teardown ---- */

static int kd_alloc_ring(struct kd_priv *priv, struct kd_ring *ring, u16 num)
{
	ring->vaddr = dma_alloc_coherent(priv->dev, KD_DESC_SZ * num, &ring->desc_dma,
					 GFP_KERNEL);
	if (!ring->vaddr)
		return -ENOMEM;
	ring->num = num;
	ring->head = ring->tail = 0;
	return 0;
}

static void kd_free_ring(struct kd_priv *priv, struct kd_ring *ring)
{
	if (ring->vaddr)
		dma_free_coherent(priv->dev, KD_DESC_SZ * ring->num, ring->vaddr,
				  ring->desc_dma);
	ring->vaddr = NULL;
}

static struct page_pool *kd_create_page_pool(struct kd_priv *priv, struct kd_rxq *rxq)
{
	struct page_pool_params pp_params = { 0 };

	if (rxq->style == KD_RXQ_NETSEC) {
		pp_params.order = 0;
		pp_params.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
		pp_params.pool_size = rxq->ring.num;
		pp_params.nid = NUMA_NO_NODE;
		pp_params.dev = priv->dev;
		pp_params.dma_dir = priv->xdp_prog ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE;
		pp_params.offset = KD_RXBUF_HEADROOM;
		pp_params.max_len = priv->rx_buf_len;
		pp_params.napi = &priv->napi;
		pp_params.netdev = priv->ndev;
	} else {
		pp_params.order = 0;
		pp_params.flags = PP_FLAG_DMA_MAP;
		pp_params.pool_size = rxq->ring.num;
		pp_params.nid = NUMA_NO_NODE;
		pp_params.dma_dir = DMA_BIDIRECTIONAL;
		pp_params.dev = priv->dev;
	}
	return page_pool_create(&pp_params);
}

static void kd_uninit_rxq(struct kd_priv *priv, struct kd_rxq *rxq)
{
	void *bulk[KD_RX_DESC_NUM];
	int n = 0;
	u16 idx;

	if (rxq->buf && rxq->ring.vaddr) {
		for (idx = 0; idx < rxq->ring.num; idx++) {
			struct kd_rx_buf *buf = &rxq->buf[idx];

			if (!buf->addr)
				continue;
			if (rxq->style == KD_RXQ_NETSEC)
				page_pool_put_full_page(rxq->page_pool,
							virt_to_page(buf->addr), false);
			else
				bulk[n++] = buf->addr;
			buf->addr = NULL;
		}
		if (n)
			page_pool_put_page_bulk(rxq->page_pool, bulk, n);
	}
	if (xdp_rxq_info_is_reg(&rxq->xdp_rxq))
		xdp_rxq_info_unreg(&rxq->xdp_rxq);
	if (rxq->page_pool)
		page_pool_destroy(rxq->page_pool);
	rxq->page_pool = NULL;
	kd_free_ring(priv, &rxq->ring);
	kfree(rxq->buf);
	rxq->buf = NULL;
}

static int kd_setup_rxq(struct kd_priv *priv, unsigned int q)
{
	struct kd_rxq *rxq = &priv->rxq[q];
	int err, i;

	rxq->style = q == 0 ? KD_RXQ_NETSEC : KD_RXQ_CPSW;
	err = kd_alloc_ring(priv, &rxq->ring, KD_RX_DESC_NUM);
	if (err)
		return err;
	rxq->buf = kcalloc(KD_RX_DESC_NUM, sizeof(*rxq->buf), GFP_KERNEL);
	if (!rxq->buf) {
		err = -ENOMEM;
		goto err_out;
	}

	rxq->page_pool = kd_create_page_pool(priv, rxq);
	if (IS_ERR(rxq->page_pool)) {
		err = (int)PTR_ERR(rxq->page_pool);
		rxq->page_pool = NULL;
		goto err_out;
	}
	err = xdp_rxq_info_reg(&rxq->xdp_rxq, priv->ndev, q, priv->napi.napi_id);
	if (err)
		goto err_out;
	err = xdp_rxq_info_reg_mem_model(&rxq->xdp_rxq, MEM_TYPE_PAGE_POOL, rxq->page_pool);
	if (err)
		goto err_out;

	for (i = 0; i < KD_RX_DESC_NUM; i++) {
		struct kd_rx_buf buf;

		buf.addr = kd_alloc_rx_data(priv, rxq, &buf.dma_addr, &buf.len);
		if (!buf.addr) {
			err = -ENOMEM;
			goto err_out;
		}
		kd_set_rx_de(priv, rxq, (u16)i, &buf);
	}
	kd_write(priv, (enum kd_reg)(KD_REG_RX_BASE_LO + 2 * q), lower_32_bits(rxq->ring.desc_dma));
	kd_write(priv, (enum kd_reg)(KD_REG_RX_BASE_HI + 2 * q), upper_32_bits(rxq->ring.desc_dma));
	return 0;

err_out:
	kd_uninit_rxq(priv, rxq);
	return err;
}

static void kd_uninit_txq(struct kd_priv *priv)
{
	struct kd_txq *txq = &priv->txq;

	if (txq->buf) {
		while (txq->ring.tail != txq->ring.head) {
			struct kd_tx_buf *tb = &txq->buf[txq->ring.tail];
			u8 nsegs = tb->nsegs ? tb->nsegs : 1;

			kd_tx_buf_release(priv, tb, NULL, false);
			txq->ring.tail = (u16)((txq->ring.tail + nsegs) % txq->ring.num);
		}
	}
	kd_free_ring(priv, &txq->ring);
	kfree(txq->buf);
	txq->buf = NULL;
}

static int kd_setup_txq(struct kd_priv *priv)
{
	struct kd_txq *txq = &priv->txq;
	int err = kd_alloc_ring(priv, &txq->ring, KD_TX_DESC_NUM);

	if (err)
		return err;
	txq->buf = kcalloc(KD_TX_DESC_NUM, sizeof(*txq->buf), GFP_KERNEL);
	if (!txq->buf) {
		kd_free_ring(priv, &txq->ring);
		return -ENOMEM;
	}
	spin_lock_init(&txq->lock);
	txq->xdp_xmit = 0;
	kd_write(priv, KD_REG_TX_BASE_LO, lower_32_bits(txq->ring.desc_dma));
	kd_write(priv, KD_REG_TX_BASE_HI, upper_32_bits(txq->ring.desc_dma));
	return 0;
}

/*
 * Self-test at open: the loopback engine copies a two-page pattern,
 * mapped as an sg_table, into a buffer mapped for the device to write;
 * the CPU syncs the range it wants and compares.
 */
static int kd_dma_selftest(struct kd_priv *priv)
{
	struct page *src[2] = { NULL, NULL }, *dst_page = NULL;
	const unsigned int seg = PAGE_SIZE / 4, dst_off = 64;
	struct scatterlist *sg;
	struct sg_table sgt;
	dma_addr_t dst_dma;
	unsigned int i, done = 0;
	u8 *dst;
	int err;

	err = sg_alloc_table(&sgt, 2, GFP_KERNEL);
	if (err)
		return err;
	err = -ENOMEM;
	for (i = 0; i < 2; i++) {
		src[i] = alloc_page(GFP_KERNEL);
		if (!src[i])
			goto out_pages;
		memset(page_address(src[i]), 0x5a + (int)i, PAGE_SIZE);
	}
	for_each_sgtable_sg(&sgt, sg, i)
		sg_set_page(sg, src[i], seg, i * 128);
	dst_page = alloc_page(GFP_KERNEL);
	if (!dst_page)
		goto out_pages;
	dst = page_address(dst_page);
	memset(dst, 0, PAGE_SIZE);

	err = dma_map_sgtable(priv->dev, &sgt, DMA_TO_DEVICE, 0);
	if (err)
		goto out_pages;
	dst_dma = dma_map_single(priv->dev, dst, PAGE_SIZE, DMA_FROM_DEVICE);
	if (dma_mapping_error(priv->dev, dst_dma)) {
		err = -ENOMEM;
		goto out_unmap_sg;
	}
	for_each_sgtable_dma_sg(&sgt, sg, i) {
		dma_addr_t to = dst_dma + dst_off + done;

		kd_write(priv, KD_REG_LB_SRC_LO, lower_32_bits(sg_dma_address(sg)));
		kd_write(priv, KD_REG_LB_SRC_HI, upper_32_bits(sg_dma_address(sg)));
		kd_write(priv, KD_REG_LB_DST_LO, lower_32_bits(to));
		kd_write(priv, KD_REG_LB_DST_HI, upper_32_bits(to));
		kd_write(priv, KD_REG_LB_LEN, sg_dma_len(sg));
		done += sg_dma_len(sg);
	}
	err = kd_read(priv, KD_REG_LB_STATUS) ? -EIO : 0;
	dma_sync_single_range_for_cpu(priv->dev, dst_dma, dst_off, done, DMA_FROM_DEVICE);
	for (i = 0; !err && i < done; i++)
		if (dst[dst_off + i] != (i < seg ? 0x5a : 0x5b))
			err = -EIO;
	if (!err && done != 2 * seg)
		err = -EIO;
	dma_unmap_single(priv->dev, dst_dma, PAGE_SIZE, DMA_FROM_DEVICE);
out_unmap_sg:
	dma_unmap_sgtable(priv->dev, &sgt, DMA_TO_DEVICE, 0);
out_pages:
	if (dst_page)
		__free_page(dst_page);
	for (i = 0; i < 2; i++)
		if (src[i])
			__free_page(src[i]);
	sg_free_table(&sgt);
	return err;
}

static int kd_ndo_open(struct net_device *ndev)
{
	struct kd_priv *priv = netdev_priv(ndev);
	unsigned int q;
	int err;

	err = kd_setup_txq(priv);
	if (err)
		return err;
	for (q = 0; q < KD_NR_RXQ; q++) {
		err = kd_setup_rxq(priv, q);
		if (err)
			goto err_rx;
	}
	kd_write(priv, KD_REG_CTRL, KD_CTRL_RUN);
	err = kd_dma_selftest(priv);
	if (err) {
		dev_err(&ndev->dev, "DMA self-test failed: %d\n", err);
		goto err_run;
	}
	napi_enable(&priv->napi);
	kd_write(priv, KD_REG_INTEN_SET, KD_IRQ_RX | KD_IRQ_TX);
	return 0;

err_run:
	kd_write(priv, KD_REG_CTRL, 0);
err_rx:
	while (q--)
		kd_uninit_rxq(priv, &priv->rxq[q]);
	kd_uninit_txq(priv);
	return err;
}

static int kd_ndo_stop(struct net_device *ndev)
{
	struct kd_priv *priv = netdev_priv(ndev);
	unsigned int q;

	kd_write(priv, KD_REG_INTEN_CLR, KD_IRQ_RX | KD_IRQ_TX);
	/* Descriptor writes land before the engine stops. */
	dma_wmb();
	napi_disable(&priv->napi);
	kd_write(priv, KD_REG_CTRL, 0);
	kd_uninit_txq(priv);
	for (q = 0; q < KD_NR_RXQ; q++)
		kd_uninit_rxq(priv, &priv->rxq[q]);
	return 0;
}

static const struct net_device_ops kd_netdev_ops = {
	.ndo_open	= kd_ndo_open,
	.ndo_stop	= kd_ndo_stop,
	.ndo_xdp_xmit	= kd_xdp_xmit,
};

/* ---- ethtool -S: our counters, then page_pool's (veth's pattern) ---- */

static const char kd_stat_names[KD_N_DRV_STATS][ETH_GSTRING_LEN] = {
	"xdp_pass", "xdp_drop", "xdp_tx", "xdp_redirect", "xdp_invalid", "tx_done",
};

int kd_get_sset_count(struct net_device *ndev)
{
	(void)ndev;
	return KD_N_DRV_STATS + page_pool_ethtool_stats_get_count();
}

void kd_get_strings(struct net_device *ndev, u8 *data)
{
	(void)ndev;
	memcpy(data, kd_stat_names, sizeof(kd_stat_names));
	page_pool_ethtool_stats_get_strings(data + sizeof(kd_stat_names));
}

static void kd_get_page_pool_stats(struct net_device *ndev, u64 *data)
{
#ifdef CONFIG_PAGE_POOL_STATS
	struct kd_priv *priv = netdev_priv(ndev);
	struct page_pool_stats pp_stats = {};
	int q;

	for (q = 0; q < KD_NR_RXQ; q++) {
		if (!priv->rxq[q].page_pool)
			continue;
		page_pool_get_stats(priv->rxq[q].page_pool, &pp_stats);
	}
	page_pool_ethtool_stats_get(data, &pp_stats);
#else
	(void)ndev;
	(void)data;
#endif
}

void kd_get_ethtool_stats(struct net_device *ndev, u64 *data)
{
	struct kd_priv *priv = netdev_priv(ndev);

	data[0] = priv->xdp_pass;
	data[1] = priv->xdp_drop;
	data[2] = priv->xdp_tx;
	data[3] = priv->xdp_redirect;
	data[4] = priv->xdp_invalid;
	data[5] = priv->tx_done;
	kd_get_page_pool_stats(ndev, &data[KD_N_DRV_STATS]);
}

/* ---- probe / remove ---- */

int kd_probe(struct device *pdev, struct kd_hw *hw, struct net_device **ndevp)
{
	struct net_device *ndev;
	struct kd_priv *priv;
	int align, err;

	ndev = alloc_etherdev(sizeof(*priv));
	if (!ndev)
		return -ENOMEM;
	priv = netdev_priv(ndev);
	memset(priv, 0, sizeof(*priv));
	priv->ndev = ndev;
	priv->dev = pdev;
	priv->hw = hw;
	SET_NETDEV_DEV(ndev, pdev);
	ndev->netdev_ops = &kd_netdev_ops;

	/* RX buffers end on a DMA cache-alignment boundary. */
	align = dma_get_cache_alignment();
	priv->rx_buf_len = (u32)ALIGN_DOWN(KD_RX_BUF_SIZE, (unsigned long)align);

	netif_napi_add(ndev, &priv->napi, kd_napi_poll);
	kd_hw_request_irq(hw, kd_irq_handler, priv);

	err = register_netdev(ndev);
	if (err)
		goto unreg_napi;
	if (dma_set_mask_and_coherent(pdev, DMA_BIT_MASK(40))) {
		dev_warn(pdev, "Failed to set DMA mask\n");
		err = -EIO;
		goto unreg;
	}
	dev_info(&ndev->dev, "registered on %s\n", dev_name(pdev));
	*ndevp = ndev;
	return 0;

unreg:
	unregister_netdev(ndev);
unreg_napi:
	netif_napi_del(&priv->napi);
	free_netdev(ndev);
	return err;
}

void kd_remove(struct net_device *ndev)
{
	struct kd_priv *priv = netdev_priv(ndev);

	unregister_netdev(ndev);
	netif_napi_del(&priv->napi);
	free_netdev(ndev);
}

void kd_set_xdp_prog(struct net_device *ndev, const struct kd_xdp_prog *prog)
{
	struct kd_priv *priv = netdev_priv(ndev);

	WRITE_ONCE(priv->xdp_prog, prog);
}

void kd_set_redirect_target(struct net_device *ndev, struct net_device *target)
{
	struct kd_priv *priv = netdev_priv(ndev);

	priv->redirect_target = target;
}

void kd_set_stack(struct net_device *ndev, kd_stack_rx_t rx)
{
	struct kd_priv *priv = netdev_priv(ndev);

	priv->stack_rx = rx;
}

struct page_pool *kd_get_page_pool(struct net_device *ndev, unsigned int q)
{
	struct kd_priv *priv = netdev_priv(ndev);

	return q < KD_NR_RXQ ? priv->rxq[q].page_pool : NULL;
}
