/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The simnic driver, written the way the 2018 mlx5 page_pool conversion
 * (and mlx5e today) drives its hardware, with the kernel API only:
 *   - per queue pair: an RX ring with a NAPI poll (budget 64), a page_pool
 *     (PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV; DMA_BIDIRECTIONAL while an
 *     XDP program is attached, for XDP_TX; XDP_PACKET_HEADROOM in front
 *     of the frame) registered as the queue's MEM_TYPE_PAGE_POOL model,
 *     and a TX ring with its own completion NAPI;
 *   - in front of page_pool_dev_alloc_pages(), the driver-local page cache
 *     the 2018 conversion kept (mlx5e_rx_cache_put/get): a small ring of
 *     pages the driver holds a reference on, reused when the reference
 *     count shows the driver is the only holder;
 *   - the XDP hook: dma_sync_single_for_cpu() of what the device wrote,
 *     bpf_prog_run_xdp(), then the verdict (simnic_run_xdp());
 *   - ndo_xdp_xmit onto the TX queue of smp_processor_id() % nr_queues,
 *     mapping with dma_map_single() what is not this device's page_pool
 *     memory; TX completion unmapping it and returning frames with
 *     xdp_return_frame_bulk() or xdp_return_frame().
 * The NIC is simnic_hw.c; it reaches memory only through DMA addresses.
 */
#include <linux/bottom_half.h>
#include <linux/bpf.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <pagepool.h>

#include "simnic.h"
#include "simnic_hw.h"

#define SIMNIC_DEF_RING		1024
#define SIMNIC_MAX_RING		32768
#define SIMNIC_DEF_PKT_LEN	64
#define SIMNIC_NAPI_BUDGET	64
#define SIMNIC_CACHE_SIZE	256	/* pages; a power of 2 (mlx5e's was 128) */

/* The device writes the frame after XDP_PACKET_HEADROOM; the end of the
 * page is left for skb_shared_info, as a build_skb() driver does. */
#define SIMNIC_RX_HEADROOM	XDP_PACKET_HEADROOM
#define SIMNIC_RX_BUF_LEN	(PAGE_SIZE - SIMNIC_RX_HEADROOM - \
				 SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
/* The longest packet the wire may bring: one that fits the RX buffer and
 * that the device holds whole (SIMNIC_MAX_FRAME), to receive and to send
 * back out with XDP_TX. */
#define SIMNIC_MAX_PKT_LEN	min_t(unsigned int, SIMNIC_RX_BUF_LEN, SIMNIC_MAX_FRAME)

struct simnic_rx_buf {
	struct page *page;
	dma_addr_t dma;			/* of the page (not of the frame) */
	u8 map_dir;			/* SIMNIC_RX_PAGE_ALLOC: how it is mapped */
	bool mapped;			/* SIMNIC_RX_PAGE_ALLOC: still mapped */
};

/* The page cache: pages in [head, tail) wait for their other holder. */
struct simnic_page_cache {
	u32 head, tail;
	struct page *page[SIMNIC_CACHE_SIZE];
};

struct simnic_rxq {
	struct napi_struct napi;
	struct simnic *nic;
	unsigned int index;
	struct simnic_desc *desc;
	dma_addr_t desc_dma;
	struct simnic_rx_buf *buf;
	u32 ci, pi;			/* consumed / posted, free-running */
	struct page_pool *page_pool;
	struct xdp_rxq_info xdp_rxq;
	struct simnic_page_cache cache;
	int fault;			/* simnic_inject_fault(): -1 none */
	/* Counters, written by the poll only (one CPU at a time). */
	u64 rx_packets, rx_dma_faults;
	u64 xdp_pass, xdp_drop, xdp_tx, xdp_redirect, xdp_aborted, redirect_errors;
	u64 cache_hits, cache_misses;
};

enum simnic_tx_type {
	SIMNIC_TX_POOL,			/* this device's page_pool page: its DMA address */
	SIMNIC_TX_MAPPED,		/* dma_map_single() here */
};

struct simnic_tx_buf {
	struct xdp_frame *xdpf;
	dma_addr_t dma;
	u32 len;
	u8 type;
};

struct simnic_txq {
	struct napi_struct napi;	/* TX completion */
	struct simnic *nic;
	unsigned int index;
	spinlock_t lock;		/* producers: XDP_TX and ndo_xdp_xmit */
	struct simnic_desc *desc;
	dma_addr_t desc_dma;
	struct simnic_tx_buf *buf;
	u32 pi;				/* under lock */
	u32 pending;			/* queued, not yet doorbelled; under lock */
	u32 ci;				/* completion's; P1 below */
	/* Counters: tx_xmit and tx_refused under lock, tx_completed by the
	 * completion poll. */
	u64 tx_xmit, tx_refused, tx_completed;
};

struct simnic {
	struct net_device *ndev;
	struct device *dev;		/* the bus device: DMA goes through it */
	struct simnic_hw hw;
	struct simnic_config cfg;
	unsigned int nq;
	u32 rx_size, tx_size;
	int up;				/* READ_ONCE: ndo_xdp_xmit checks it */
	bool destroyed;			/* left behind holding a pp_hold page */
	struct bpf_prog *xdp_prog;	/* rcu_dereference() in the poll */
	struct page *held;		/* pp_hold */
	struct simnic_rxq rxq[SIMNIC_MAX_QUEUES];
	struct simnic_txq txq[SIMNIC_MAX_QUEUES];
};

static inline void simnic_add(u64 *ctr, u64 n)
{
	/* One writer; get_stats reads while it runs. */
	WRITE_ONCE(*ctr, *ctr + n);
}

static bool simnic_uses_pool(const struct simnic *nic)
{
	return nic->cfg.rx_mem != SIMNIC_RX_PAGE_ALLOC;
}

static struct simnic *simnic_of(struct net_device *ndev)
{
	return *(struct simnic **)netdev_priv(ndev);
}

/* ---- RX buffers ---- */

static enum dma_data_direction simnic_rx_dir(const struct simnic *nic)
{
	return rcu_access_pointer(nic->xdp_prog) ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE;
}

/*
 * The cache's get (mlx5e_rx_cache_get): the oldest page, if its other
 * holders are done with it; otherwise the cache is busy and the pool
 * gives a page.
 */
static struct page *simnic_cache_get(struct simnic_rxq *rxq)
{
	struct simnic_page_cache *c = &rxq->cache;
	struct page *page;

	if (c->head == c->tail)
		return NULL;
	page = c->page[c->head & (SIMNIC_CACHE_SIZE - 1)];
	/*
	 * R1' (acquire): the last other holder's accesses to the page
	 * (another device reading it for TX, a program writing it) happen
	 * before we hand it to our device again. Pairs with the fully
	 * ordered decrement of that holder's put (page_pool_unref_netmem()
	 * for a pool page, put_page() for an allocator page).
	 */
	if (simnic_uses_pool(rxq->nic)) {
		if (atomic_long_read_acquire(netmem_get_pp_ref_count_ref(page_to_netmem(page))) != 1)
			return NULL;
	} else if (atomic_read_acquire(&page->_refcount) != 1) {
		return NULL;
	}
	c->head++;
	return page;
}

/*
 * The cache's put (mlx5e_rx_cache_put), when a received page is about to
 * leave the driver: take a reference of our own, so the page stays ours
 * when its holder gives it back. In the pool modes the reference is a
 * page_pool one (pp_ref_count): the holder's put then only drops its
 * reference, and the page stays mapped and the pool's.
 */
static void simnic_cache_put(struct simnic_rxq *rxq, struct page *page)
{
	struct simnic_page_cache *c = &rxq->cache;

	if (c->tail - c->head == SIMNIC_CACHE_SIZE)
		return;
	if (simnic_uses_pool(rxq->nic))
		page_pool_ref_page(page);
	else
		get_page(page);
	c->page[c->tail & (SIMNIC_CACHE_SIZE - 1)] = page;
	c->tail++;
}

static void simnic_cache_drain(struct simnic_rxq *rxq)
{
	struct simnic_page_cache *c = &rxq->cache;

	while (c->head != c->tail) {
		struct page *page = c->page[c->head & (SIMNIC_CACHE_SIZE - 1)];

		if (simnic_uses_pool(rxq->nic))
			page_pool_put_full_page(rxq->page_pool, page, false);
		else
			put_page(page);
		c->head++;
	}
}

/* A fresh RX buffer for slot @idx: the cache, then the pool (or the page
 * allocator and a mapping of our own). */
static int simnic_alloc_rx_buf(struct simnic_rxq *rxq, struct simnic_rx_buf *buf)
{
	struct simnic *nic = rxq->nic;
	enum dma_data_direction dir;
	struct page *page = NULL;
	dma_addr_t dma;

	if (nic->cfg.page_cache) {
		page = simnic_cache_get(rxq);
		simnic_add(page ? &rxq->cache_hits : &rxq->cache_misses, 1);
	}

	if (simnic_uses_pool(nic)) {
		if (page) {
			/* No put through the pool synced it for the device. */
			dma_sync_single_for_device(nic->dev,
						   page_pool_get_dma_addr(page) + SIMNIC_RX_HEADROOM,
						   SIMNIC_RX_BUF_LEN,
						   page_pool_get_dma_dir(rxq->page_pool));
		} else {
			gfp_t gfp = GFP_ATOMIC | __GFP_NOWARN;

			/* No recycling: emergency-reserve pages, which
			 * page_pool releases at their return. */
			if (nic->cfg.rx_mem == SIMNIC_RX_PAGE_POOL_NO_RECYCLE)
				gfp |= __GFP_MEMALLOC;
			page = page_pool_alloc_pages(rxq->page_pool, gfp);
			if (!page)
				return -ENOMEM;
		}
		buf->page = page;
		buf->dma = page_pool_get_dma_addr(page);
		return 0;
	}

	if (!page) {
		page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);
		if (!page)
			return -ENOMEM;
	}
	dir = simnic_rx_dir(nic);
	if (unlikely(rxq->fault == SIMNIC_FAULT_RX_WRONG_DIR))
		dir = DMA_TO_DEVICE;		/* the injected bug */
	dma = dma_map_page(nic->dev, page, 0, PAGE_SIZE, dir);
	if (dma_mapping_error(nic->dev, dma)) {
		put_page(page);
		return -ENOMEM;
	}
	buf->page = page;
	buf->dma = dma;
	buf->map_dir = (u8)dir;
	buf->mapped = true;
	return 0;
}

/* SIMNIC_RX_PAGE_ALLOC: the mapping goes before the frame leaves us. */
static void simnic_rx_unmap(struct simnic *nic, struct simnic_rx_buf *buf)
{
	if (buf->mapped)
		dma_unmap_page(nic->dev, buf->dma, PAGE_SIZE,
			       (enum dma_data_direction)buf->map_dir);
	buf->mapped = false;
}

/* Give a received page back from the poll (XDP_DROP, a failed action,
 * the XDP_PASS model): direct recycling into the pool, syncing @sync bytes
 * for the device (SIMNIC_SYNC_FULL: the pool's max_len, as
 * page_pool_put_full_page()). */
#define SIMNIC_SYNC_FULL	(-1U)

static void simnic_rx_page_done(struct simnic_rxq *rxq, struct page *page, unsigned int sync)
{
	if (simnic_uses_pool(rxq->nic))
		page_pool_put_page(rxq->page_pool, page, sync, true);
	else
		put_page(page);
}

static void simnic_post_rx(struct simnic_rxq *rxq, u32 slot, const struct simnic_rx_buf *buf)
{
	struct simnic_desc *d = &rxq->desc[slot];

	rxq->buf[slot] = *buf;
	d->addr = buf->dma + SIMNIC_RX_HEADROOM;
	d->buf_len = (u16)SIMNIC_RX_BUF_LEN;
	d->pkt_len = 0;
	d->status = 0;
}

/* Post buffers into every free slot; the tail register last. False when
 * an allocation failed and the ring is short. */
static bool simnic_refill(struct simnic_rxq *rxq)
{
	struct simnic *nic = rxq->nic;
	u32 mask = nic->rx_size - 1, pi = rxq->pi, first = pi;
	bool full = true;

	while (pi - rxq->ci < nic->rx_size) {
		struct simnic_rx_buf buf;

		if (simnic_alloc_rx_buf(rxq, &buf)) {
			full = false;
			break;
		}
		simnic_post_rx(rxq, pi & mask, &buf);
		if (rxq->fault == SIMNIC_FAULT_RX_WRONG_DIR)
			rxq->fault = -1;
		pi++;
	}
	if (unlikely(rxq->fault == SIMNIC_FAULT_RX_UNMAPPED) && pi != first) {
		/* The injected bug: the first buffer of this refill unmapped
		 * while the device owns it. After the loop, so that no other
		 * buffer of it gets the freed IOVA. */
		simnic_rx_unmap(nic, &rxq->buf[first & mask]);
		rxq->fault = -1;
	}
	if (pi != rxq->pi) {
		rxq->pi = pi;
		/* T1 (release): the descriptors before the tail. Pairs with
		 * T1' in simnic_hw_rx(). */
		smp_store_release(&nic->hw.q[rxq->index].rx_tail, pi);
	}
	return full;
}

static void simnic_free_rx_bufs(struct simnic_rxq *rxq)
{
	struct simnic *nic = rxq->nic;
	u32 mask = nic->rx_size - 1;

	for (; rxq->ci != rxq->pi; rxq->ci++) {
		struct simnic_rx_buf *buf = &rxq->buf[rxq->ci & mask];

		if (simnic_uses_pool(nic)) {
			page_pool_put_full_page(rxq->page_pool, buf->page, false);
		} else {
			simnic_rx_unmap(nic, buf);
			put_page(buf->page);
		}
		buf->page = NULL;
	}
}

/* ---- TX ---- */

static u32 simnic_tx_free(struct simnic *nic, struct simnic_txq *txq)
{
	/* P1' (acquire): the completion is done with the slots below ci.
	 * Pairs with P1 in simnic_txc_clean(). */
	return nic->tx_size - (txq->pi - smp_load_acquire(&txq->ci));
}

/* Is @page one of this device's page_pool pages, mapped for the device
 * to read? Then its DMA address serves for TX, no mapping of our own. */
static bool simnic_own_pool_page(struct simnic *nic, struct xdp_frame *xdpf, struct page *page)
{
	struct page_pool *pp;
	unsigned int i;

	if (xdpf->mem_type != MEM_TYPE_PAGE_POOL)
		return false;
	pp = netmem_get_pp(page_to_netmem(page));
	for (i = 0; i < nic->nq; i++)
		if (pp == nic->rxq[i].page_pool)
			return page_pool_get_dma_dir(pp) == DMA_BIDIRECTIONAL;
	return false;
}

/* One frame onto @txq. Under txq->lock. 0, or -ENOSPC / -ENOMEM. */
static int simnic_xmit_one(struct simnic *nic, struct simnic_txq *txq, struct xdp_frame *xdpf)
{
	u32 slot = txq->pi & (nic->tx_size - 1);
	struct simnic_tx_buf *tb = &txq->buf[slot];
	struct page *page = virt_to_page(xdpf->data);
	struct simnic_desc *d = &txq->desc[slot];
	dma_addr_t dma;

	if (!simnic_tx_free(nic, txq))
		return -ENOSPC;
	if (xdp_frame_has_frags(xdpf))
		return -EOPNOTSUPP;		/* no multi-buffer TX */
	if (simnic_own_pool_page(nic, xdpf, page)) {
		/* XDP_TX, or a redirect back to ourselves: the pool's
		 * bidirectional mapping; sync what the program wrote. */
		dma = page_pool_get_dma_addr(page) + offset_in_page(xdpf->data);
		dma_sync_single_for_device(nic->dev, dma, xdpf->len, DMA_BIDIRECTIONAL);
		tb->type = SIMNIC_TX_POOL;
	} else {
		dma = dma_map_single(nic->dev, xdpf->data, xdpf->len, DMA_TO_DEVICE);
		if (dma_mapping_error(nic->dev, dma))
			return -ENOMEM;
		tb->type = SIMNIC_TX_MAPPED;
	}
	tb->xdpf = xdpf;
	tb->dma = dma;
	tb->len = xdpf->len;
	d->addr = dma;
	d->buf_len = (u16)xdpf->len;
	d->pkt_len = 0;
	d->status = 0;
	txq->pi++;
	txq->pending++;
	return 0;
}

/* Under txq->lock. */
static void simnic_tx_doorbell(struct simnic *nic, struct simnic_txq *txq)
{
	if (!txq->pending)
		return;
	txq->pending = 0;
	simnic_hw_tx_doorbell(&nic->hw, txq->index, txq->pi);
}

static void simnic_tx_buf_release(struct simnic *nic, struct simnic_tx_buf *tb,
				  struct xdp_frame_bulk *bq)
{
	if (tb->type == SIMNIC_TX_MAPPED)
		dma_unmap_single(nic->dev, tb->dma, tb->len, DMA_TO_DEVICE);
	if (bq)
		xdp_return_frame_bulk(tb->xdpf, bq);
	else
		xdp_return_frame(tb->xdpf);
	tb->xdpf = NULL;
}

/* Return what the device has sent, up to @budget frames. */
static int simnic_txc_clean(struct simnic *nic, struct simnic_txq *txq, int budget)
{
	/* H2' (acquire): the device's write-backs below its head. */
	u32 head = smp_load_acquire(&nic->hw.q[txq->index].tx_head);
	u32 ci = txq->ci, mask = nic->tx_size - 1;
	bool bulk = nic->cfg.tx_bulk_return;
	struct xdp_frame_bulk bq;
	int done = 0;

	if (ci == head)
		return 0;
	xdp_frame_bulk_init(&bq);
	rcu_read_lock();	/* xdp_return_frame_bulk() */
	while (ci != head && done < budget) {
		struct simnic_tx_buf *tb = &txq->buf[ci & mask];

		simnic_tx_buf_release(nic, tb, bulk ? &bq : NULL);
		ci++;
		done++;
	}
	if (bulk)
		xdp_flush_frame_bulk(&bq);
	rcu_read_unlock();
	/* P1 (release): the slots below ci are free for the producers.
	 * Pairs with P1' in simnic_tx_free(). */
	smp_store_release(&txq->ci, ci);
	simnic_add(&txq->tx_completed, (u64)done);
	return done;
}

static int simnic_txc_poll(struct napi_struct *napi, int budget)
{
	struct simnic_txq *txq = container_of(napi, struct simnic_txq, napi);
	int done = simnic_txc_clean(txq->nic, txq, budget);

	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/*
 * ndo_xdp_xmit: frames from xdp_do_flush() (another device's RX poll, or
 * ours). The TX queue is the calling CPU's, as real drivers pick their
 * XDP TX queue; several CPUs may share one, hence the lock. Returns how
 * many frames it took; the core gives the rest back.
 */
static int simnic_xdp_xmit(struct net_device *ndev, int n, struct xdp_frame **frames, u32 flags)
{
	struct simnic *nic = simnic_of(ndev);
	struct simnic_txq *txq = &nic->txq[(unsigned int)smp_processor_id() % nic->nq];
	int i = 0, ret;

	if (unlikely(n < 0))
		return -EINVAL;
	rcu_read_lock();		/* against simnic_stop() */
	spin_lock(&txq->lock);
	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK)) {
		ret = -EINVAL;
	} else if (unlikely(!READ_ONCE(nic->up))) {
		ret = -ENETDOWN;
	} else {
		for (i = 0; i < n; i++)
			if (simnic_xmit_one(nic, txq, frames[i]))
				break;
		ret = i;
		if (flags & XDP_XMIT_FLUSH)
			simnic_tx_doorbell(nic, txq);
	}
	simnic_add(&txq->tx_xmit, (u64)i);
	simnic_add(&txq->tx_refused, (u64)(n - i));
	spin_unlock(&txq->lock);
	rcu_read_unlock();
	return ret;
}

/* ---- RX poll and XDP ---- */

enum { SIMNIC_XDP_TX = BIT(0), SIMNIC_XDP_REDIR = BIT(1) };

/* XDP_TX onto this queue pair's TX ring; doorbell at the end of the poll. */
static bool simnic_xdp_tx(struct simnic_rxq *rxq, struct xdp_buff *xdp)
{
	struct simnic_txq *txq = &rxq->nic->txq[rxq->index];
	struct xdp_frame *xdpf = xdp_convert_buff_to_frame(xdp);
	int err;

	if (unlikely(!xdpf)) {
		simnic_add(&txq->tx_refused, 1);
		return false;
	}
	spin_lock(&txq->lock);
	err = simnic_xmit_one(rxq->nic, txq, xdpf);
	simnic_add(err ? &txq->tx_refused : &txq->tx_xmit, 1);
	spin_unlock(&txq->lock);
	return !err;
}

/*
 * The verdict. Every path either hands the page on (XDP_TX, a redirect
 * the core took) or gives it back here, counted. XDP_PASS: there is no
 * sk_buff or stack in pagepool; the stack is modelled as consuming the
 * packet at once, in the poll: the page goes back with
 * page_pool_put_full_page() and direct recycling, as napi_consume_skb()
 * of a recycle-marked skb would.
 */
static u32 simnic_run_xdp(struct simnic_rxq *rxq, struct bpf_prog *prog,
			  struct xdp_buff *xdp, struct page *page)
{
	struct net_device *ndev = rxq->nic->ndev;
	unsigned int sync;
	u32 act;

	act = bpf_prog_run_xdp(prog, xdp);
	/* What the CPU may have written, for the pool's sync for device. */
	sync = (unsigned int)((char *)xdp->data_end - (char *)xdp->data_hard_start) -
	       SIMNIC_RX_HEADROOM;

	switch (act) {
	case XDP_PASS:
		simnic_add(&rxq->xdp_pass, 1);
		simnic_rx_page_done(rxq, page, SIMNIC_SYNC_FULL);
		return 0;
	case XDP_TX:
		simnic_add(&rxq->xdp_tx, 1);
		if (simnic_xdp_tx(rxq, xdp))
			return SIMNIC_XDP_TX;
		simnic_rx_page_done(rxq, page, sync);
		return 0;
	case XDP_REDIRECT:
		if (!xdp_do_redirect(ndev, xdp, prog)) {
			simnic_add(&rxq->xdp_redirect, 1);
			return SIMNIC_XDP_REDIR;
		}
		simnic_add(&rxq->redirect_errors, 1);
		simnic_rx_page_done(rxq, page, sync);
		return 0;
	case XDP_DROP:
		simnic_add(&rxq->xdp_drop, 1);
		simnic_rx_page_done(rxq, page, sync);
		return 0;
	default:
		bpf_warn_invalid_xdp_action(ndev, prog, act);
		fallthrough;
	case XDP_ABORTED:
		simnic_add(&rxq->xdp_aborted, 1);
		simnic_rx_page_done(rxq, page, sync);
		return 0;
	}
}

static int simnic_rx_poll(struct napi_struct *napi, int budget)
{
	struct simnic_rxq *rxq = container_of(napi, struct simnic_rxq, napi);
	struct simnic *nic = rxq->nic;
	u32 mask = nic->rx_size - 1, head, flags = 0;
	struct bpf_prog *prog;
	struct xdp_buff xdp;
	int done = 0;

	if (simnic_uses_pool(nic))
		page_pool_nid_changed(rxq->page_pool, numa_mem_id());
	prog = rcu_dereference(nic->xdp_prog);	/* a NAPI poll is an RCU reader */
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq->xdp_rxq);
	/* H1' (acquire): the device's writes below its head. Pairs with H1
	 * in simnic_hw_rx(). */
	head = smp_load_acquire(&nic->hw.q[rxq->index].rx_head);

	while (done < budget && rxq->ci != head) {
		u32 slot = rxq->ci & mask;
		struct simnic_rx_buf *buf = &rxq->buf[slot];
		const struct simnic_desc *d = &rxq->desc[slot];
		struct page *page = buf->page;
		u32 len = d->pkt_len;
		u8 *va = page_address(page);

		rxq->ci++;
		done++;
		simnic_add(&rxq->rx_packets, 1);
		buf->page = NULL;
		if (unlikely(d->status & SIMNIC_DESC_ERR_DMA)) {
			/* The device could not write the buffer (an IOMMU
			 * fault): drop it, the page goes back unread. */
			simnic_add(&rxq->rx_dma_faults, 1);
			if (simnic_uses_pool(nic)) {
				simnic_rx_page_done(rxq, page, 0);
			} else {
				simnic_rx_unmap(nic, buf);
				put_page(page);
			}
			continue;
		}

		if (simnic_uses_pool(nic)) {
			dma_sync_single_for_cpu(nic->dev, buf->dma + SIMNIC_RX_HEADROOM, len,
						page_pool_get_dma_dir(rxq->page_pool));
		} else {
			/* Unmapped before the frame leaves (the unmap syncs). */
			simnic_rx_unmap(nic, buf);
		}
		prefetch(va + SIMNIC_RX_HEADROOM);
		xdp_prepare_buff(&xdp, va, SIMNIC_RX_HEADROOM, len, true);

		if (nic->cfg.page_cache)
			simnic_cache_put(rxq, page);

		if (prog) {
			flags |= simnic_run_xdp(rxq, prog, &xdp, page);
		} else {
			/* No program: the stack (the XDP_PASS model). */
			simnic_add(&rxq->xdp_pass, 1);
			simnic_rx_page_done(rxq, page, SIMNIC_SYNC_FULL);
		}
	}

	if (flags & SIMNIC_XDP_REDIR)
		xdp_do_flush();
	if (flags & SIMNIC_XDP_TX) {
		struct simnic_txq *txq = &nic->txq[rxq->index];

		spin_lock(&txq->lock);
		simnic_tx_doorbell(nic, txq);
		spin_unlock(&txq->lock);
	}
	/* A short ring (an allocation failed) keeps the poll scheduled, as
	 * mlx5e_post_rx_wqes() does, to try again. */
	if (!simnic_refill(rxq))
		return budget;
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/* ---- Interrupts ---- */

/* The queue's RX and TX-completion interrupt handlers: schedule the NAPI
 * on the CPU the line is routed to (the one delivering it). */
static void simnic_rx_irq(void *dev_id)
{
	struct simnic_rxq *rxq = dev_id;

	napi_schedule(&rxq->napi);
}

static void simnic_txc_irq(void *dev_id)
{
	struct simnic_txq *txq = dev_id;

	napi_schedule(&txq->napi);
}

int simnic_service(void)
{
	int work = 0, w;

	simnic_irq_deliver_local();
	/* pp_do_softirq() stops after the kernel's 10 rounds; a poll that
	 * used its budget is still listed, and runs in the next call. */
	do {
		w = pp_do_softirq();
		work += w;
	} while (w && pp_softirq_pending());
	return work;
}

/* ---- Open and stop ---- */

static void simnic_free_rxq(struct simnic *nic, struct simnic_rxq *rxq)
{
	if (rxq->buf)
		simnic_free_rx_bufs(rxq);
	simnic_cache_drain(rxq);
	if (xdp_rxq_info_is_reg(&rxq->xdp_rxq))
		xdp_rxq_info_unreg(&rxq->xdp_rxq);
	if (rxq->page_pool)
		page_pool_destroy(rxq->page_pool);
	rxq->page_pool = NULL;
	if (rxq->desc)
		dma_free_coherent(nic->dev, nic->rx_size * sizeof(struct simnic_desc),
				  rxq->desc, rxq->desc_dma);
	rxq->desc = NULL;
	kfree(rxq->buf);
	rxq->buf = NULL;
}

static int simnic_open_rxq(struct simnic *nic, struct simnic_rxq *rxq)
{
	struct simnic_hw_queue *hq = &nic->hw.q[rxq->index];
	int err;

	rxq->ci = rxq->pi = 0;
	rxq->cache.head = rxq->cache.tail = 0;
	rxq->desc = dma_alloc_coherent(nic->dev, nic->rx_size * sizeof(struct simnic_desc),
				       &rxq->desc_dma, GFP_KERNEL);
	rxq->buf = kcalloc(nic->rx_size, sizeof(*rxq->buf), GFP_KERNEL);
	if (!rxq->desc || !rxq->buf) {
		err = -ENOMEM;
		goto err;
	}

	if (simnic_uses_pool(nic)) {
		struct page_pool_params pp = { 0 };

		pp.order = 0;
		pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
		pp.pool_size = nic->rx_size;
		pp.nid = NUMA_NO_NODE;
		pp.dev = nic->dev;
		pp.napi = &rxq->napi;
		pp.netdev = nic->ndev;
		pp.queue_idx = rxq->index;
		pp.dma_dir = simnic_rx_dir(nic);
		pp.offset = SIMNIC_RX_HEADROOM;
		pp.max_len = SIMNIC_RX_BUF_LEN;
		rxq->page_pool = page_pool_create(&pp);
		if (IS_ERR(rxq->page_pool)) {
			err = (int)PTR_ERR(rxq->page_pool);
			rxq->page_pool = NULL;
			goto err;
		}
	}
	err = xdp_rxq_info_reg(&rxq->xdp_rxq, nic->ndev, rxq->index, rxq->napi.napi_id);
	if (err)
		goto err;
	if (simnic_uses_pool(nic))
		err = xdp_rxq_info_reg_mem_model(&rxq->xdp_rxq, MEM_TYPE_PAGE_POOL,
						 rxq->page_pool);
	else
		err = xdp_rxq_info_reg_mem_model(&rxq->xdp_rxq, MEM_TYPE_PAGE_ORDER0, NULL);
	if (err)
		goto err;

	hq->rx_base = rxq->desc_dma;
	hq->rx_size = nic->rx_size;
	hq->rx_tail = 0;
	if (!simnic_refill(rxq)) {
		err = -ENOMEM;
		goto err;
	}
	return 0;
err:
	simnic_free_rxq(nic, rxq);
	return err;
}

/* Frames the device never completed (the link went down first): give
 * them back as a completion would. */
static void simnic_free_txq(struct simnic *nic, struct simnic_txq *txq)
{
	if (txq->buf) {
		simnic_txc_clean(nic, txq, INT_MAX);
		while (txq->ci != txq->pi) {
			simnic_tx_buf_release(nic, &txq->buf[txq->ci & (nic->tx_size - 1)], NULL);
			txq->ci++;
			simnic_add(&txq->tx_completed, 1);
		}
	}
	if (txq->desc)
		dma_free_coherent(nic->dev, nic->tx_size * sizeof(struct simnic_desc),
				  txq->desc, txq->desc_dma);
	txq->desc = NULL;
	kfree(txq->buf);
	txq->buf = NULL;
}

static int simnic_open_txq(struct simnic *nic, struct simnic_txq *txq)
{
	struct simnic_hw_queue *hq = &nic->hw.q[txq->index];

	txq->pi = txq->ci = txq->pending = 0;
	txq->desc = dma_alloc_coherent(nic->dev, nic->tx_size * sizeof(struct simnic_desc),
				       &txq->desc_dma, GFP_KERNEL);
	txq->buf = kcalloc(nic->tx_size, sizeof(*txq->buf), GFP_KERNEL);
	if (!txq->desc || !txq->buf) {
		simnic_free_txq(nic, txq);
		return -ENOMEM;
	}
	hq->tx_base = txq->desc_dma;
	hq->tx_size = nic->tx_size;
	hq->tx_tail = 0;
	return 0;
}

static int simnic_ndo_stop(struct net_device *ndev)
{
	struct simnic *nic = simnic_of(ndev);
	unsigned int i;

	if (!nic->up)
		return -ENETDOWN;
	/* No new frames from other devices' flushes (they run inside RCU
	 * read-side sections), nothing more from the wire. */
	WRITE_ONCE(nic->up, 0);
	synchronize_rcu();
	simnic_hw_set_running(&nic->hw, false);
	for (i = 0; i < nic->nq; i++) {
		napi_disable(&nic->rxq[i].napi);
		napi_disable(&nic->txq[i].napi);
	}
	for (i = 0; i < nic->nq; i++) {
		atomic_set(&nic->hw.q[i].irq[SIMNIC_IRQ_RX].pending, 0);
		atomic_set(&nic->hw.q[i].irq[SIMNIC_IRQ_TXC].pending, 0);
		/* TX first: XDP_TX frames hold RX pool pages. */
		simnic_free_txq(nic, &nic->txq[i]);
		simnic_free_rxq(nic, &nic->rxq[i]);
	}
	return 0;
}

static int simnic_ndo_open(struct net_device *ndev)
{
	struct simnic *nic = simnic_of(ndev);
	unsigned int i, n;
	int err;

	if (nic->up)
		return -EBUSY;
	for (n = 0; n < nic->nq; n++) {
		err = simnic_open_txq(nic, &nic->txq[n]);
		if (err)
			goto err;
		err = simnic_open_rxq(nic, &nic->rxq[n]);
		if (err) {
			simnic_free_txq(nic, &nic->txq[n]);
			goto err;
		}
	}
	for (i = 0; i < nic->nq; i++) {
		napi_enable(&nic->rxq[i].napi);
		napi_enable(&nic->txq[i].napi);
	}
	simnic_hw_set_running(&nic->hw, true);
	/* The refill's tail writes came before the device reset; post them
	 * again now that the engines run. */
	for (i = 0; i < nic->nq; i++)
		smp_store_release(&nic->hw.q[i].rx_tail, nic->rxq[i].pi);
	WRITE_ONCE(nic->up, 1);
	return 0;
err:
	while (n--) {
		simnic_free_txq(nic, &nic->txq[n]);
		simnic_free_rxq(nic, &nic->rxq[n]);
	}
	return err;
}

static const struct net_device_ops simnic_netdev_ops = {
	.ndo_open	= simnic_ndo_open,
	.ndo_stop	= simnic_ndo_stop,
	.ndo_xdp_xmit	= simnic_xdp_xmit,
};

/* dev_open() and dev_close(): the ndo, and IFF_UP, which redirecting
 * devices check before they queue frames for us. */
int simnic_open(struct simnic *nic)
{
	struct net_device *ndev;
	int err;

	if (IS_ERR_OR_NULL(nic) || nic->destroyed)
		return -EINVAL;
	ndev = nic->ndev;
	err = ndev->netdev_ops->ndo_open(ndev);
	if (!err)
		WRITE_ONCE(ndev->flags, ndev->flags | IFF_UP);
	return err;
}

int simnic_stop(struct simnic *nic)
{
	struct net_device *ndev;

	if (IS_ERR_OR_NULL(nic) || nic->destroyed)
		return -EINVAL;
	ndev = nic->ndev;
	if (!nic->up)
		return -ENETDOWN;
	WRITE_ONCE(ndev->flags, ndev->flags & ~IFF_UP);
	return ndev->netdev_ops->ndo_stop(ndev);
}

/* ---- Create and destroy ---- */

static int simnic_check_config(const struct simnic_config *cfg, struct simnic_config *out)
{
	*out = *cfg;
	if (!out->nr_queues)
		out->nr_queues = 1;
	if (!out->rx_ring_size)
		out->rx_ring_size = SIMNIC_DEF_RING;
	if (!out->tx_ring_size)
		out->tx_ring_size = SIMNIC_DEF_RING;
	if (!out->pkt_len)
		out->pkt_len = SIMNIC_DEF_PKT_LEN;
	if (out->nr_queues > SIMNIC_MAX_QUEUES ||
	    !is_power_of_2(out->rx_ring_size) || out->rx_ring_size > SIMNIC_MAX_RING ||
	    !is_power_of_2(out->tx_ring_size) || out->tx_ring_size > SIMNIC_MAX_RING ||
	    out->pkt_len < ETH_HLEN + 4 || out->pkt_len > SIMNIC_MAX_PKT_LEN ||
	    (unsigned int)out->dma > SIMNIC_DMA_DIRECT ||
	    (unsigned int)out->rx_mem > SIMNIC_RX_PAGE_POOL)
		return -EINVAL;
	if (out->nr_queues > (unsigned int)PP_CPU_SHARED)
		return -EINVAL;		/* queue i's lines go to CPU i */
	return 0;
}

static void simnic_setup(struct net_device *ndev)
{
	ether_setup(ndev);
}

struct simnic *simnic_create(const struct simnic_config *cfg)
{
	struct net_device *ndev;
	struct simnic *nic;
	char busname[IFNAMSIZ + 8];
	unsigned int i;
	int err;

	if (!cfg)
		return ERR_PTR(-EINVAL);
	nic = kzalloc(sizeof(*nic), GFP_KERNEL);
	if (!nic)
		return ERR_PTR(-ENOMEM);
	err = simnic_check_config(cfg, &nic->cfg);
	if (err)
		goto err_free;
	nic->cfg.name = NULL;		/* not kept: the netdev has it */
	nic->nq = nic->cfg.nr_queues;
	nic->rx_size = nic->cfg.rx_ring_size;
	nic->tx_size = nic->cfg.tx_ring_size;

	snprintf(busname, sizeof(busname), "%s-pci", cfg->name ? cfg->name : "simnic");
	nic->dev = pp_device_create(busname, cfg->dma == SIMNIC_DMA_IOMMU ? PP_DMA_IOMMU :
				    PP_DMA_DIRECT, cfg->no_dma_debug ? 0 : PP_DMA_DEBUG);
	if (IS_ERR(nic->dev)) {
		err = (int)PTR_ERR(nic->dev);
		goto err_free;
	}

	ndev = alloc_netdev_mqs(sizeof(nic), cfg->name ? cfg->name : "simnic%d",
				NET_NAME_ENUM, simnic_setup, nic->nq, nic->nq);
	if (!ndev) {
		err = -ENOMEM;
		goto err_dev;
	}
	*(struct simnic **)netdev_priv(ndev) = nic;
	nic->ndev = ndev;
	SET_NETDEV_DEV(ndev, nic->dev);
	ndev->netdev_ops = &simnic_netdev_ops;

	simnic_hw_init(&nic->hw, nic->dev, nic->nq, nic->cfg.pkt_len, nic->cfg.line_rate_pps);
	for (i = 0; i < nic->nq; i++) {
		struct simnic_rxq *rxq = &nic->rxq[i];
		struct simnic_txq *txq = &nic->txq[i];

		rxq->nic = nic;
		rxq->index = i;
		rxq->fault = -1;
		txq->nic = nic;
		txq->index = i;
		spin_lock_init(&txq->lock);
		netif_napi_add_weight(ndev, &rxq->napi, simnic_rx_poll, SIMNIC_NAPI_BUDGET);
		netif_napi_add_weight(ndev, &txq->napi, simnic_txc_poll, SIMNIC_NAPI_BUDGET);
		netif_queue_set_napi(ndev, i, NETDEV_QUEUE_TYPE_RX, &rxq->napi);
		nic->hw.q[i].irq[SIMNIC_IRQ_RX].handler = simnic_rx_irq;
		nic->hw.q[i].irq[SIMNIC_IRQ_RX].dev_id = rxq;
		nic->hw.q[i].irq[SIMNIC_IRQ_TXC].handler = simnic_txc_irq;
		nic->hw.q[i].irq[SIMNIC_IRQ_TXC].dev_id = txq;
	}

	err = register_netdev(ndev);
	if (err)
		goto err_netdev;
	return nic;

err_netdev:
	for (i = 0; i < nic->nq; i++) {
		netif_napi_del(&nic->rxq[i].napi);
		netif_napi_del(&nic->txq[i].napi);
	}
	simnic_hw_fini(&nic->hw);
	free_netdev(ndev);
err_dev:
	pp_device_destroy(nic->dev);
err_free:
	kfree(nic);
	return ERR_PTR(err);
}

void simnic_destroy(struct simnic *nic)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(nic) || nic->destroyed)
		return;
	if (nic->up)
		simnic_stop(nic);
	/* The interrupt lines go first: no simnic_service() delivers to
	 * NAPIs that are about to be deleted. */
	simnic_hw_fini(&nic->hw);
	unregister_netdev(nic->ndev);
	for (i = 0; i < nic->nq; i++) {
		netif_napi_del(&nic->rxq[i].napi);
		netif_napi_del(&nic->txq[i].napi);
	}
	free_netdev(nic->ndev);
	nic->ndev = NULL;
	if (nic->held) {
		/* netdevsim's pp_hold page outlives the device; the pool
		 * (destroyed at stop, unmapped there) waits for it. */
		nic->destroyed = true;
		return;
	}
	pp_device_destroy(nic->dev);
	kfree(nic);
}

struct net_device *simnic_netdev(struct simnic *nic)
{
	return IS_ERR_OR_NULL(nic) ? NULL : nic->ndev;
}

struct device *simnic_dma_device(struct simnic *nic)
{
	return IS_ERR_OR_NULL(nic) ? NULL : nic->dev;
}

u32 simnic_rx_pool_id(struct simnic *nic, unsigned int q)
{
	if (IS_ERR_OR_NULL(nic) || q >= nic->nq)
		return 0;
	return pp_page_pool_id(nic->rxq[q].page_pool);
}

/* ---- XDP attach, interrupts, faults ---- */

int simnic_set_xdp(struct simnic *nic, struct bpf_prog *prog)
{
	struct bpf_prog *old;
	bool restart;
	int err = 0;

	if (IS_ERR_OR_NULL(nic) || nic->destroyed || IS_ERR(prog))
		return -EINVAL;
	old = rcu_access_pointer(nic->xdp_prog);
	/* The pools' DMA direction follows the program (XDP_TX reads RX
	 * pages): a first program, or none after one, restarts the queues,
	 * as mlx5e_xdp_set() does. */
	restart = nic->up && !old != !prog;
	if (restart)
		simnic_stop(nic);
	rcu_assign_pointer(nic->xdp_prog, prog);
	if (restart)
		err = simnic_open(nic);
	else
		synchronize_rcu();	/* no poll runs @old after we return */
	return err;
}

int simnic_set_irq_affinity(struct simnic *nic, unsigned int q, enum simnic_irq irq, int cpu)
{
	if (IS_ERR_OR_NULL(nic) || nic->destroyed || q >= nic->nq ||
	    (unsigned int)irq > SIMNIC_IRQ_TXC || cpu < 0 || cpu >= PP_CPU_SHARED)
		return -EINVAL;
	simnic_irq_set_cpu(&nic->hw.q[q].irq[irq], cpu);
	return 0;
}

int simnic_inject_fault(struct simnic *nic, unsigned int q, enum simnic_fault fault)
{
	if (IS_ERR_OR_NULL(nic) || nic->destroyed || q >= nic->nq ||
	    (unsigned int)fault > SIMNIC_FAULT_RX_WRONG_DIR)
		return -EINVAL;
	if (simnic_uses_pool(nic))
		return -EOPNOTSUPP;
	/* Read by the refill, in the poll: set it before the traffic. */
	nic->rxq[q].fault = (int)fault;
	return 0;
}

unsigned int simnic_wire_rx(struct simnic *nic, unsigned int q, unsigned int n)
{
	if (IS_ERR_OR_NULL(nic) || nic->destroyed || q >= nic->nq)
		return 0;
	return simnic_hw_rx(&nic->hw, q, n);
}

/* ---- Quiesce, statistics, accounting ---- */

static bool simnic_idle(struct simnic *nic)
{
	unsigned int i;

	for (i = 0; i < nic->nq; i++) {
		struct simnic_hw_queue *hq = &nic->hw.q[i];

		if (simnic_irq_pending(&hq->irq[SIMNIC_IRQ_RX]) ||
		    simnic_irq_pending(&hq->irq[SIMNIC_IRQ_TXC]))
			return false;
		if (!nic->up)
			continue;
		if (smp_load_acquire(&hq->rx_head) != nic->rxq[i].ci ||
		    nic->rxq[i].pi - nic->rxq[i].ci != nic->rx_size)
			return false;
		if (smp_load_acquire(&nic->txq[i].ci) != READ_ONCE(nic->txq[i].pi))
			return false;
		if (napi_is_scheduled(&nic->rxq[i].napi) || napi_is_scheduled(&nic->txq[i].napi))
			return false;
	}
	return true;
}

int simnic_quiesce(struct simnic **nics, unsigned int n)
{
	int saved[8][SIMNIC_MAX_QUEUES][2];
	int cpu = smp_processor_id();
	u64 deadline = ktime_get_ns() + 2 * NSEC_PER_SEC;
	unsigned int d, q, k;
	int ret = -ETIMEDOUT;

	if (!nics || n > ARRAY_SIZE(saved))
		return -EINVAL;
	/* Every device first: a bad one must not leave the lines of those
	 * before it routed here. */
	for (d = 0; d < n; d++)
		if (IS_ERR_OR_NULL(nics[d]) || nics[d]->destroyed)
			return -EINVAL;
	for (d = 0; d < n; d++) {
		for (q = 0; q < nics[d]->nq; q++)
			for (k = 0; k < 2; k++) {
				saved[d][q][k] = READ_ONCE(nics[d]->hw.q[q].irq[k].cpu);
				simnic_irq_set_cpu(&nics[d]->hw.q[q].irq[k], cpu);
			}
	}
	do {
		bool idle = true;

		simnic_service();
		for (d = 0; d < n && idle; d++)
			idle = simnic_idle(nics[d]);
		if (idle) {
			ret = 0;
			break;
		}
	} while (ktime_get_ns() < deadline);
	for (d = 0; d < n; d++)
		for (q = 0; q < nics[d]->nq; q++)
			for (k = 0; k < 2; k++)
				simnic_irq_set_cpu(&nics[d]->hw.q[q].irq[k], saved[d][q][k]);
	return ret;
}

int simnic_get_stats(struct simnic *nic, struct simnic_stats *st)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(nic) || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for (i = 0; i < nic->nq; i++) {
		const struct simnic_rxq *r = &nic->rxq[i];
		const struct simnic_txq *t = &nic->txq[i];

		st->rx_packets += READ_ONCE(r->rx_packets);
		st->rx_missed += READ_ONCE(nic->hw.q[i].rx_missed);
		st->rx_dma_faults += READ_ONCE(r->rx_dma_faults);
		st->xdp_pass += READ_ONCE(r->xdp_pass);
		st->xdp_drop += READ_ONCE(r->xdp_drop);
		st->xdp_tx += READ_ONCE(r->xdp_tx);
		st->xdp_redirect += READ_ONCE(r->xdp_redirect);
		st->xdp_aborted += READ_ONCE(r->xdp_aborted);
		st->redirect_errors += READ_ONCE(r->redirect_errors);
		st->tx_xmit += READ_ONCE(t->tx_xmit);
		st->tx_refused += READ_ONCE(t->tx_refused);
		st->tx_completed += READ_ONCE(t->tx_completed);
		st->tx_dma_faults += READ_ONCE(nic->hw.q[i].tx_faults);
		st->cache_hits += READ_ONCE(r->cache_hits);
		st->cache_misses += READ_ONCE(r->cache_misses);
		st->device_ns += READ_ONCE(nic->hw.q[i].rx_dev_ns) +
				 READ_ONCE(nic->hw.q[i].tx_dev_ns);
	}
	return 0;
}

#define SIMNIC_BAD(...)	do { if (why && len) snprintf(why, len, __VA_ARGS__); return -EBADMSG; } while (0)

int simnic_check_accounting(struct simnic *rx_nic, struct simnic *tx_nic, char *why, size_t len)
{
	struct simnic *nics[2] = { rx_nic, tx_nic != rx_nic ? tx_nic : NULL };
	u64 sent = 0, taken = 0;
	unsigned int i;

	if (why && len)
		why[0] = '\0';
	if (IS_ERR_OR_NULL(rx_nic) || IS_ERR(tx_nic))
		SIMNIC_BAD("no device");
	for (i = 0; i < 2; i++) {
		struct simnic *nic = nics[i];
		struct simnic_stats s;
		u64 fates;

		if (!nic)
			continue;
		if (nic->destroyed)
			SIMNIC_BAD("%s: destroyed", i ? "tx" : "rx");
		if (!simnic_idle(nic))
			SIMNIC_BAD("%s: not quiesced (a ring or an interrupt is still busy)",
				   nic->ndev->name);
		simnic_get_stats(nic, &s);
		fates = s.xdp_pass + s.xdp_drop + s.xdp_aborted + s.redirect_errors +
			s.rx_dma_faults + s.xdp_tx + s.xdp_redirect;
		if (s.rx_packets != fates)
			SIMNIC_BAD("%s: rx_packets %llu != pass %llu + drop %llu + aborted %llu + "
				   "redirect_errors %llu + dma_faults %llu + tx %llu + redirect %llu",
				   nic->ndev->name, (unsigned long long)s.rx_packets,
				   (unsigned long long)s.xdp_pass, (unsigned long long)s.xdp_drop,
				   (unsigned long long)s.xdp_aborted,
				   (unsigned long long)s.redirect_errors,
				   (unsigned long long)s.rx_dma_faults, (unsigned long long)s.xdp_tx,
				   (unsigned long long)s.xdp_redirect);
		if (s.tx_completed != s.tx_xmit)
			SIMNIC_BAD("%s: tx_completed %llu != tx_xmit %llu", nic->ndev->name,
				   (unsigned long long)s.tx_completed, (unsigned long long)s.tx_xmit);
		if (s.tx_dma_faults > s.tx_completed)
			SIMNIC_BAD("%s: tx_dma_faults %llu > tx_completed %llu", nic->ndev->name,
				   (unsigned long long)s.tx_dma_faults,
				   (unsigned long long)s.tx_completed);
		sent += s.xdp_tx + s.xdp_redirect;
		taken += s.tx_xmit + s.tx_refused;
	}
	if (sent != taken)
		SIMNIC_BAD("XDP_TX + redirected %llu != TX taken + refused %llu over the pair",
			   (unsigned long long)sent, (unsigned long long)taken);
	return 0;
}

/* ---- netdevsim's pp_hold ---- */

int simnic_pp_hold(struct simnic *nic, bool hold)
{
	struct page *page;

	if (IS_ERR_OR_NULL(nic))
		return -EINVAL;
	if (!hold) {
		if (!nic->held)
			return -ENOENT;
		page = nic->held;
		nic->held = NULL;
		page_pool_put_full_page(netmem_get_pp(page_to_netmem(page)), page, false);
		if (nic->destroyed) {
			pp_device_destroy(nic->dev);
			kfree(nic);
		}
		return 0;
	}
	if (nic->destroyed)
		return -EINVAL;
	if (nic->held)
		return -EBUSY;
	if (!simnic_uses_pool(nic))
		return -EOPNOTSUPP;
	if (!nic->up)
		return -ENETDOWN;
	/* The pool's consumer is queue 0's NAPI: take it as the NAPI would,
	 * with bottom halves off, so no poll on this CPU runs meanwhile. */
	local_bh_disable();
	page = page_pool_dev_alloc_pages(nic->rxq[0].page_pool);
	local_bh_enable();
	if (!page)
		return -ENOMEM;
	nic->held = page;
	return 0;
}
