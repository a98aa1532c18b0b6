/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The ppxsk driver: AF_XDP sockets (copy mode) on real interfaces as the
 * queues of a kernel-style driver, with page_pool managing the UMEM.
 *
 * UMEM. nr_frames * frame_size bytes of contiguous arena pages
 * (alloc_contig_pages()), registered with the kernel by libxdp at the
 * first port's open (xsk_umem__create(); aligned chunks, no extra
 * headroom) and released when the last port closes. The memory is this
 * driver's memory provider: a net_iov_area with one net_iov per PAGE_SIZE,
 * bound to its page (pp_net_iov_area_bind_pages(), so an XDP return of a
 * frame in it finds the owning pool), each page mapped once
 * DMA_BIDIRECTIONAL on a window device whose bus address is the offset
 * into the UMEM: a net_iov's DMA address is its UMEM offset. A chunk
 * smaller than PAGE_SIZE is a page_pool fragment of its net_iov
 * (page_pool_alloc_frag_netmem(): two 2 KiB chunks per 4 KiB page, eight
 * 2 KiB or four 4 KiB chunks per 16 KiB page, 32 or 16 per 64 KiB page);
 * a chunk of PAGE_SIZE (4 KiB chunks, 4 KiB pages) is a net_iov. The
 * kernel sees only chunks (2048 or 4096 bytes, never more than the host's
 * page: AF_XDP's limit), each wholly inside one library page, so the UMEM
 * layout it checks is the same whatever the library's page size.
 *
 * Ownership. Every chunk has one state word: HOST (in a page_pool, the
 * provider, or with the driver and the XDP core - not in the kernel), or
 * FILL / TX with the number of the port whose socket's ring holds it. The
 * transitions are compare-and-swap: refill HOST -> FILL(p); RX descriptor
 * FILL(p) -> HOST; XDP_TX or ndo_xdp_xmit HOST -> TX(p); completion TX(p)
 * -> HOST. A descriptor or completion whose chunk is not in the state the
 * transition expects is counted (rx_bad_desc, comp_bad_desc) and refused:
 * nothing is put, so a forged or repeated address never puts a chunk
 * twice. A frame offered for TX whose chunk is not HOST (still in a fill
 * or TX ring) is refused the same way (tx_refused).
 *
 * Close. The program and the socket go first (xsk_socket__delete(); the
 * UMEM's first socket, whose descriptor libxdp keeps as the UMEM's, is
 * released by putting an unbound socket in its descriptor's place), so the
 * kernel holds no chunk of the port's rings any more; then every chunk in
 * FILL(p) goes back to the pool and every chunk in TX(p) is completed
 * (xdp_return_frame()). Then xdp_rxq_info_unreg(), page_pool_destroy():
 * frames this port received that sit in another port's TX ring keep the
 * pool alive until their completion (page_pool's deferred destroy), then
 * net_mp_close_rxq() and the netdev.
 *
 * Memory lifetime. The UMEM holds one reference for its creator and one
 * per page_pool using its provider (taken in the provider's init, dropped
 * in its destroy, which page_pool calls when the pool's last netmem came
 * home). ppxsk_umem_destroy() drops the creator's; the last drop frees the
 * memory, from a work item when it happens in a put (any context).
 *
 * Contexts and locking: umem->mutex serialises open, close, destroy and
 * check. The port table is RCU: ppxsk_service() reads it in a
 * bottom-half-disabled section, close unpublishes and waits a grace
 * period. A TX ring has many producers (XDP_TX of its own RX poll,
 * ndo_xdp_xmit from any port's poll on any CPU): port->tx_lock; the
 * kick (sendto()) is outside it, from the RX CPU only. The fill
 * and RX rings belong to the RX NAPI, the completion ring to the TX
 * completion NAPI. The provider's free stack: umem->lock (releases come
 * from any CPU).
 * Layer: drivers.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/bottom_half.h>
#include <linux/bpf.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>
#include <net/xdp.h>
#include <pagepool.h>
#include <xdp/xsk.h>

#include "ppxsk.h"
#include "xsk_bpf.h"

#define PPXSK_DEF_FRAMES	4096
#define PPXSK_DEF_FRAME_SIZE	2048
#define PPXSK_DEF_RING		2048
#define PPXSK_MAX_RING		32768
#define PPXSK_MAX_PORTS		32
#define PPXSK_NAPI_BUDGET	64
#define PPXSK_REFILL_MAX	256	/* fill descriptors per poll */
#define PPXSK_SERVICE_WORK	1024	/* ppxsk_service() runs no new softirq round past this */

/* Chunk state word: the state in the low byte, the port number above. */
enum { PPXSK_CHUNK_HOST = 0, PPXSK_CHUNK_FILL = 1, PPXSK_CHUNK_TX = 2 };
#define PPXSK_STATE(s, slot)	((int)((s) | ((slot) << 8)))

struct ppxsk_umem {
	struct mutex mutex;		/* open, close, destroy, check */
	void *area;
	size_t size;
	unsigned int nr_frames, frame_size, nr_pages;
	/* log2(frame_size): the data path turns addresses into chunks with
	 * shifts, not the divisions a frame size read from memory costs. */
	unsigned int frame_shift;
	struct page *pages;
	struct device *dev;		/* the window device over the area */
	unsigned int nr_mapped;		/* pages mapped (one mapping each) */
	struct net_iov_area niov_area;
	spinlock_t lock;		/* the free stack */
	struct net_iov **free_stack;
	unsigned int nr_free;
	atomic_t *chunk;		/* ownership, one word per chunk */
	atomic_t refs;			/* creator + one per pool */
	struct work_struct free_work;
	/* libxdp's view, while a port is open */
	struct xsk_umem *xumem;
	struct xsk_ring_prod fill0;	/* the first socket's, copied at its open */
	struct xsk_ring_cons comp0;
	unsigned int fill_size, comp_size;
	unsigned int nr_ports;
	bool owner_closed;		/* the first socket went before the others */
	bool destroyed;
};

struct ppxsk_port {
	struct ppxsk_umem *umem;
	unsigned int slot;		/* 1..PPXSK_MAX_PORTS: its number in chunk states */
	struct ppxsk_port_config cfg;
	char ifname[IFNAMSIZ];
	struct net_device *ndev;
	struct napi_struct rx_napi, txc_napi;
	int rx_cpu, txc_cpu;
	struct page_pool *pool;
	struct xdp_rxq_info xdp_rxq;
	struct pp_memory_provider_params mp;
	bool mp_open;
	struct ppxsk_bpf *bpf;
	struct xsk_socket *xsk;
	int fd;
	struct xsk_ring_cons rx, comp;
	struct xsk_ring_prod tx, fill;
	struct bpf_prog __rcu *xdp_prog;
	spinlock_t tx_lock;		/* TX ring producers */
	int up;				/* READ_ONCE: ndo_xdp_xmit checks it */
	bool tx_only;			/* PPXSK_PORT_TX_ONLY: no RX ring, pool, fill posting */
	/* Counters. RX side: the RX NAPI only; tx_xmit, tx_refused,
	 * tx_foreign: under tx_lock; completion: the TX completion
	 * NAPI (and close, after it is disabled). */
	u64 rx_packets, xdp_pass, xdp_drop, xdp_tx, xdp_redirect, xdp_aborted, redirect_errors;
	u64 fill_posted, fill_alloc_failed, rx_bad_desc, xdp_no_tailroom;
	u64 tx_xmit, tx_refused, tx_foreign;
	atomic_long_t tx_kicks, tx_kick_errors;	/* any CPU that kicks */
	atomic_long_t tx_dev_dropped;
	u64 tx_completed, comp_bad_desc;
};

static DEFINE_MUTEX(ppxsk_table_mutex);
static struct ppxsk_port __rcu *ppxsk_ports[PPXSK_MAX_PORTS];
static unsigned int ppxsk_slots_hw;	/* slots ever used: what the service scans */

/* Work our polls did on this thread: local_bh_enable() runs a softirq
 * round itself when one is pending, and pp_do_softirq() counts only the
 * rounds it ran, so the service counts the polls' work here. */
static __thread unsigned long ppxsk_poll_work;

/* One writer at a time (the NAPI that owns it, or under tx_lock);
 * ppxsk_port_get_stats() reads it from any thread: relaxed atomics both
 * ways, never a plain access. */
static inline void ppxsk_add(u64 *ctr, u64 n)
{
	WRITE_ONCE(*ctr, READ_ONCE(*ctr) + n);
}

/* ---- UMEM memory and its provider ---- */

static void ppxsk_umem_unmap(struct ppxsk_umem *umem)
{
	while (umem->nr_mapped) {
		struct net_iov *niov = &umem->niov_area.niovs[--umem->nr_mapped];

		dma_unmap_page_attrs(umem->dev,
				     page_pool_get_dma_addr_netmem(net_iov_to_netmem(niov)),
				     PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	}
}

static void ppxsk_umem_free(struct ppxsk_umem *umem)
{
	pp_net_iov_area_unbind_pages(&umem->niov_area);
	ppxsk_umem_unmap(umem);
	free_contig_range(page_to_pfn(umem->pages), umem->nr_pages);
	pp_device_destroy(umem->dev);
	kfree(umem->niov_area.niovs);
	kfree(umem->free_stack);
	kfree(umem->chunk);
	kfree(umem);
}

static void ppxsk_umem_free_work(struct work_struct *work)
{
	ppxsk_umem_free(container_of(work, struct ppxsk_umem, free_work));
}

/* From a pool's destroy (any context): the work item frees. */
static void ppxsk_umem_put(struct ppxsk_umem *umem, bool may_sleep)
{
	if (!atomic_dec_and_test(&umem->refs))
		return;
	if (may_sleep)
		ppxsk_umem_free(umem);
	else
		schedule_work(&umem->free_work);
}

static netmem_ref ppxsk_mp_alloc_netmems(struct page_pool *pool, gfp_t gfp)
{
	struct ppxsk_umem *umem = pool->mp_priv;
	struct net_iov *got[PP_ALLOC_CACHE_REFILL];
	unsigned int n, i;

	(void)gfp;
	spin_lock_bh(&umem->lock);
	n = min(umem->nr_free, (unsigned int)PP_ALLOC_CACHE_REFILL);
	for (i = 0; i < n; i++)
		got[i] = umem->free_stack[--umem->nr_free];
	spin_unlock_bh(&umem->lock);
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		net_mp_niov_set_page_pool(pool, got[i]);
		if (i + 1 < n)
			net_mp_netmem_place_in_cache(pool, net_iov_to_netmem(got[i]));
	}
	return net_iov_to_netmem(got[n - 1]);
}

static bool ppxsk_mp_release_netmem(struct page_pool *pool, netmem_ref netmem)
{
	struct ppxsk_umem *umem = pool->mp_priv;
	struct net_iov *niov = netmem_to_net_iov(netmem);

	if (WARN_ON(!niov || niov->owner != &umem->niov_area))
		return false;
	net_mp_niov_clear_page_pool(niov);
	spin_lock_bh(&umem->lock);
	umem->free_stack[umem->nr_free++] = niov;
	spin_unlock_bh(&umem->lock);
	return false;			/* a net_iov is never put_page()d */
}

static int ppxsk_mp_init(struct page_pool *pool)
{
	struct ppxsk_umem *umem = pool->mp_priv;

	if (!umem)
		return -EINVAL;
	if (pool->p.order != 0 || pool->p.dev != umem->dev ||
	    pool->p.dma_dir != DMA_BIDIRECTIONAL)
		return -EINVAL;
	atomic_inc(&umem->refs);
	return 0;
}

static void ppxsk_mp_destroy(struct page_pool *pool)
{
	ppxsk_umem_put(pool->mp_priv, false);
}

static const struct memory_provider_ops ppxsk_mp_ops = {
	.alloc_netmems = ppxsk_mp_alloc_netmems,
	.release_netmem = ppxsk_mp_release_netmem,
	.init = ppxsk_mp_init,
	.destroy = ppxsk_mp_destroy,
};

struct ppxsk_umem *ppxsk_umem_create(const struct ppxsk_umem_config *cfg)
{
	struct ppxsk_umem *umem;
	unsigned int i;
	int err = -ENOMEM;

	if (!cfg)
		return ERR_PTR(-EINVAL);
	umem = kzalloc(sizeof(*umem), GFP_KERNEL);
	if (!umem)
		return ERR_PTR(-ENOMEM);
	umem->nr_frames = cfg->nr_frames ? cfg->nr_frames : PPXSK_DEF_FRAMES;
	umem->frame_size = cfg->frame_size ? cfg->frame_size : PPXSK_DEF_FRAME_SIZE;
	if ((umem->frame_size != 2048 && umem->frame_size != 4096) ||
	    umem->nr_frames > (1u << 20) ||
	    ((u64)umem->nr_frames * umem->frame_size) % PAGE_SIZE) {
		kfree(umem);
		return ERR_PTR(-EINVAL);
	}
	umem->frame_shift = ilog2(umem->frame_size);
	umem->size = (size_t)umem->nr_frames * umem->frame_size;
	umem->nr_pages = (unsigned int)(umem->size / PAGE_SIZE);
	mutex_init(&umem->mutex);
	spin_lock_init(&umem->lock);
	INIT_WORK(&umem->free_work, ppxsk_umem_free_work);
	atomic_set(&umem->refs, 1);

	umem->pages = alloc_contig_pages(umem->nr_pages, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN,
					 NUMA_NO_NODE, NULL);
	if (!umem->pages)
		goto err_free;
	umem->area = page_address(umem->pages);
	umem->dev = pp_device_create_window("ppxsk-umem", umem->area, umem->size,
					    cfg->no_dma_debug ? 0 : PP_DMA_DEBUG);
	if (IS_ERR(umem->dev)) {
		err = (int)PTR_ERR(umem->dev);
		goto err_pages;
	}
	umem->niov_area.niovs = kcalloc(umem->nr_pages, sizeof(struct net_iov), GFP_KERNEL);
	umem->free_stack = kcalloc(umem->nr_pages, sizeof(*umem->free_stack), GFP_KERNEL);
	umem->chunk = kcalloc(umem->nr_frames, sizeof(*umem->chunk), GFP_KERNEL);
	if (!umem->niov_area.niovs || !umem->free_stack || !umem->chunk)
		goto err_dev;
	umem->niov_area.num_niovs = umem->nr_pages;
	/* Mapped once, a page at a time (the pages are order 0): on the
	 * window device the bus address is the UMEM offset. */
	for (i = 0; i < umem->nr_pages; i++) {
		struct net_iov *niov = &umem->niov_area.niovs[i];
		dma_addr_t dma = dma_map_page_attrs(umem->dev, umem->pages + i, 0, PAGE_SIZE,
						    DMA_BIDIRECTIONAL, 0);

		if (dma_mapping_error(umem->dev, dma)) {
			err = -EIO;
			goto err_unmap;
		}
		niov->owner = &umem->niov_area;
		niov->type = NET_IOV_DMABUF;
		net_mp_niov_set_dma_addr(niov, dma);
		umem->nr_mapped++;
	}
	err = pp_net_iov_area_bind_pages(&umem->niov_area, umem->pages);
	if (err)
		goto err_unmap;
	/* Popped from the top: the first pages go out first. */
	for (i = umem->nr_pages; i-- > 0;)
		umem->free_stack[umem->nr_free++] = &umem->niov_area.niovs[i];
	return umem;

err_unmap:
	ppxsk_umem_unmap(umem);
err_dev:
	pp_device_destroy(umem->dev);
err_pages:
	free_contig_range(page_to_pfn(umem->pages), umem->nr_pages);
err_free:
	kfree(umem->niov_area.niovs);
	kfree(umem->free_stack);
	kfree(umem->chunk);
	kfree(umem);
	return ERR_PTR(err);
}

int ppxsk_umem_destroy(struct ppxsk_umem *umem)
{
	if (IS_ERR_OR_NULL(umem))
		return -EINVAL;
	mutex_lock(&umem->mutex);
	if (umem->destroyed || umem->nr_ports) {
		int err = umem->destroyed ? -EINVAL : -EBUSY;

		mutex_unlock(&umem->mutex);
		return err;
	}
	umem->destroyed = true;
	mutex_unlock(&umem->mutex);
	ppxsk_umem_put(umem, true);
	return 0;
}

#define PPXSK_BAD(...)	do { if (why && len) snprintf(why, len, __VA_ARGS__); \
			     err = -EBADMSG; goto out; } while (0)

int ppxsk_umem_check(struct ppxsk_umem *umem, char *why, size_t len)
{
	u64 deadline = ktime_get_ns() + 2 * NSEC_PER_SEC;
	unsigned int i, nr_free;
	unsigned long viol;
	int err = 0;

	if (why && len)
		why[0] = '\0';
	if (IS_ERR_OR_NULL(umem))
		return -EINVAL;
	mutex_lock(&umem->mutex);
	if (umem->nr_ports) {
		mutex_unlock(&umem->mutex);
		return -EBUSY;
	}
	/* Pools whose frames came back late free their cache from
	 * page_pool's deferred release: give them a moment. */
	for (;;) {
		spin_lock_bh(&umem->lock);
		nr_free = umem->nr_free;
		spin_unlock_bh(&umem->lock);
		if (nr_free == umem->nr_pages && atomic_read(&umem->refs) == 1)
			break;
		if (ktime_get_ns() > deadline)
			break;
		usleep(1000);
	}
	for (i = 0; i < umem->nr_frames; i++) {
		int st = atomic_read(&umem->chunk[i]);

		if (st != PPXSK_CHUNK_HOST)
			PPXSK_BAD("chunk %u (UMEM offset %#llx) still %s of port %d", i,
				  (unsigned long long)i * umem->frame_size,
				  (st & 0xff) == PPXSK_CHUNK_FILL ? "in the fill ring" :
				  "in the TX ring", st >> 8);
	}
	if (nr_free != umem->nr_pages)
		PPXSK_BAD("%u of %u net_iovs back in the provider", nr_free, umem->nr_pages);
	if (atomic_read(&umem->refs) != 1)
		PPXSK_BAD("%d page_pools still use the provider", atomic_read(&umem->refs) - 1);
	viol = pp_dma_violations(umem->dev);
	if (viol)
		PPXSK_BAD("%lu DMA-API violations on the UMEM's device", viol);
out:
	mutex_unlock(&umem->mutex);
	return err;
}

/* ---- chunks ---- */

static inline bool ppxsk_chunk_move(struct ppxsk_umem *umem, u64 chunk, int from, int to)
{
	return atomic_cmpxchg(&umem->chunk[chunk], from, to) == from;
}

static inline struct net_iov *ppxsk_chunk_niov(const struct ppxsk_umem *umem, u64 chunk)
{
	return &umem->niov_area.niovs[(chunk * umem->frame_size) >> PAGE_SHIFT];
}

/* ---- TX ---- */

/* Let the kernel send what the TX ring holds. In copy mode one sendto()
 * sends a batch of the kernel's (32): kick until the ring is drained or
 * the kernel stops taking (completion ring full, ...). Without tx_lock:
 * the kernel serialises senders on the socket itself, and a producer must
 * not spin on the lock while another CPU sits in the system call. */
static void ppxsk_tx_kick(struct ppxsk_port *port)
{
	unsigned int tries = 0;

	while (__atomic_load_n(port->tx.consumer, __ATOMIC_ACQUIRE) !=
	       __atomic_load_n(port->tx.producer, __ATOMIC_RELAXED) && tries++ < 64) {
		u32 before = __atomic_load_n(port->tx.consumer, __ATOMIC_ACQUIRE);

		atomic_long_inc(&port->tx_kicks);
		if (sendto(port->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0) {
			/* EBUSY: the device dropped a frame (NET_XMIT_DROP; the
			 * peer is down, its backlog full, ...): the kernel
			 * completed that one descriptor without sending it and
			 * stopped there. */
			if (errno == EBUSY)
				atomic_long_inc(&port->tx_dev_dropped);
			else if (errno != EAGAIN && errno != ENOBUFS) {
				atomic_long_inc(&port->tx_kick_errors);
				break;
			}
		}
		if (__atomic_load_n(port->tx.consumer, __ATOMIC_ACQUIRE) == before)
			break;
	}
}

static bool ppxsk_tx_pending(const struct ppxsk_port *port)
{
	return __atomic_load_n(port->tx.consumer, __ATOMIC_ACQUIRE) !=
	       __atomic_load_n(port->tx.producer, __ATOMIC_ACQUIRE);
}

/* One frame onto the TX ring, not yet submitted. Under tx_lock. */
static int ppxsk_xmit_one(struct ppxsk_port *port, struct xdp_frame *xdpf)
{
	struct ppxsk_umem *umem = port->umem;
	unsigned long off = (unsigned long)((char *)xdpf->data - (char *)umem->area);
	struct xdp_desc *desc;
	struct net_iov *niov;
	u64 chunk;
	u32 idx;

	if (off >= umem->size || xdp_frame_has_frags(xdpf)) {
		ppxsk_add(&port->tx_foreign, 1);
		return -EINVAL;		/* not in this UMEM: the caller frees it */
	}
	chunk = off >> umem->frame_shift;
	/* The frame must be where the completion will look for it: at its
	 * chunk's start (our RX buffers' data_hard_start), and end inside it. */
	if ((char *)xdpf != (char *)umem->area + chunk * umem->frame_size ||
	    off + xdpf->len > (chunk + 1) * umem->frame_size) {
		ppxsk_add(&port->tx_foreign, 1);
		return -EINVAL;
	}
	if (!xsk_ring_prod__reserve(&port->tx, 1, &idx))
		return -ENOSPC;
	if (!ppxsk_chunk_move(umem, chunk, PPXSK_CHUNK_HOST,
			      PPXSK_STATE(PPXSK_CHUNK_TX, port->slot))) {
		port->tx.cached_prod--;	/* still in a ring: never twice */
		return -EBUSY;
	}
	niov = ppxsk_chunk_niov(umem, chunk);
	dma_sync_single_for_device(umem->dev, page_pool_get_dma_addr_netmem(net_iov_to_netmem(niov)) +
				   (off & (PAGE_SIZE - 1)), xdpf->len, DMA_BIDIRECTIONAL);
	desc = xsk_ring_prod__tx_desc(&port->tx, idx);
	desc->addr = off;
	desc->len = xdpf->len;
	desc->options = 0;
	return 0;
}

/* ndo_xdp_xmit: frames from xdp_do_flush() of any port's RX poll, ours
 * included. Returns how many it took (from the start); the core gives the
 * rest back. */
static int ppxsk_xdp_xmit(struct net_device *ndev, int n, struct xdp_frame **frames, u32 flags)
{
	struct ppxsk_port *port = *(struct ppxsk_port **)netdev_priv(ndev);
	int i = 0, ret;

	if (unlikely(n < 0 || (flags & ~XDP_XMIT_FLAGS_MASK)))
		return -EINVAL;
	rcu_read_lock();		/* against ppxsk_port_close() */
	if (unlikely(!READ_ONCE(port->up))) {
		rcu_read_unlock();
		return -ENETDOWN;
	}
	spin_lock(&port->tx_lock);
	for (i = 0; i < n; i++)
		if (ppxsk_xmit_one(port, frames[i]))
			break;
	ret = i;
	if (i)
		xsk_ring_prod__submit(&port->tx, (u32)i);
	ppxsk_add(&port->tx_xmit, (u64)i);
	ppxsk_add(&port->tx_refused, (u64)(n - i));
	spin_unlock(&port->tx_lock);
	if (flags & XDP_XMIT_FLUSH)
		ppxsk_tx_kick(port);
	rcu_read_unlock();
	return ret;
}

/* A completion address: TX(p) -> HOST, the frame back to its pool. */
static bool ppxsk_complete_one(struct ppxsk_port *port, u64 addr, struct xdp_frame_bulk *bq)
{
	struct ppxsk_umem *umem = port->umem;
	u64 chunk = addr >> umem->frame_shift;
	struct xdp_frame *xdpf;

	if (addr >= umem->size ||
	    !ppxsk_chunk_move(umem, chunk, PPXSK_STATE(PPXSK_CHUNK_TX, port->slot),
			      PPXSK_CHUNK_HOST)) {
		ppxsk_add(&port->comp_bad_desc, 1);
		return false;
	}
	xdpf = (struct xdp_frame *)((char *)umem->area + chunk * umem->frame_size);
	if (bq)
		xdp_return_frame_bulk(xdpf, bq);
	else
		xdp_return_frame(xdpf);
	ppxsk_add(&port->tx_completed, 1);
	return true;
}

static int ppxsk_txc_clean(struct ppxsk_port *port, int budget)
{
	struct xdp_frame_bulk bq;
	bool bulk = port->cfg.bulk_return;
	u32 idx, n, i;

	n = xsk_ring_cons__peek(&port->comp, (u32)budget, &idx);
	if (!n)
		return 0;
	xdp_frame_bulk_init(&bq);
	rcu_read_lock();		/* xdp_return_frame_bulk() */
	for (i = 0; i < n; i++)
		ppxsk_complete_one(port, *xsk_ring_cons__comp_addr(&port->comp, idx + i),
				   bulk ? &bq : NULL);
	if (bulk)
		xdp_flush_frame_bulk(&bq);
	rcu_read_unlock();
	xsk_ring_cons__release(&port->comp, n);
	return (int)n;
}

static int ppxsk_txc_poll(struct napi_struct *napi, int budget)
{
	struct ppxsk_port *port = container_of(napi, struct ppxsk_port, txc_napi);
	int done = ppxsk_txc_clean(port, budget);

	ppxsk_poll_work += (unsigned long)done;
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/* ---- RX ---- */

/* Post buffers from the pool into the fill ring. In the RX NAPI (or with
 * bottom halves off on its CPU: the pool's consumer). */
static void ppxsk_refill(struct ppxsk_port *port)
{
	struct ppxsk_umem *umem = port->umem;
	u32 n, idx, got = 0;

	n = xsk_prod_nb_free(&port->fill, PPXSK_REFILL_MAX);
	n = min_t(u32, n, PPXSK_REFILL_MAX);
	if (!n || !xsk_ring_prod__reserve(&port->fill, n, &idx))
		return;
	while (got < n) {
		unsigned int off = 0;
		netmem_ref netmem;
		u64 chunk;

		if (umem->frame_size == PAGE_SIZE)
			netmem = page_pool_alloc_netmems(port->pool, GFP_ATOMIC);
		else
			netmem = page_pool_alloc_frag_netmem(port->pool, &off, umem->frame_size,
							     GFP_ATOMIC);
		if (!netmem) {
			ppxsk_add(&port->fill_alloc_failed, 1);
			break;
		}
		chunk = ((u64)net_iov_idx(netmem_to_net_iov(netmem)) * PAGE_SIZE + off) >>
			umem->frame_shift;
		if (WARN_ON_ONCE(!ppxsk_chunk_move(umem, chunk, PPXSK_CHUNK_HOST,
						   PPXSK_STATE(PPXSK_CHUNK_FILL, port->slot)))) {
			/* The pool handed out a chunk the kernel holds:
			 * not posted twice; its reference is kept. */
			ppxsk_add(&port->rx_bad_desc, 1);
			continue;
		}
		*xsk_ring_prod__fill_addr(&port->fill, idx + got) = chunk * umem->frame_size;
		got++;
	}
	port->fill.cached_prod -= n - got;	/* give back the unused reservation */
	if (got) {
		xsk_ring_prod__submit(&port->fill, got);
		ppxsk_add(&port->fill_posted, got);
	}
	if (xsk_ring_prod__needs_wakeup(&port->fill))
		recvfrom(port->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
}

enum { PPXSK_DID_TX = BIT(0), PPXSK_DID_REDIR = BIT(1) };

static bool ppxsk_xdp_tx(struct ppxsk_port *port, struct xdp_buff *xdp)
{
	struct xdp_frame *xdpf = xdp_convert_buff_to_frame(xdp);
	int err = -ENOMEM;

	spin_lock(&port->tx_lock);
	if (xdpf)
		err = ppxsk_xmit_one(port, xdpf);
	if (!err)
		xsk_ring_prod__submit(&port->tx, 1);
	if (err)
		ppxsk_add(&port->tx_refused, 1);
	else
		ppxsk_add(&port->tx_xmit, 1);
	spin_unlock(&port->tx_lock);
	return !err;
}

static int ppxsk_rx_poll(struct napi_struct *napi, int budget)
{
	struct ppxsk_port *port = container_of(napi, struct ppxsk_port, rx_napi);
	struct ppxsk_umem *umem = port->umem;
	struct bpf_prog *prog = rcu_dereference(port->xdp_prog);
	u32 idx, n, i, did = 0;
	struct xdp_buff xdp;

	n = xsk_ring_cons__peek(&port->rx, (u32)budget, &idx);
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&port->rx, idx + i);
		u64 addr = d->addr, chunk = addr >> umem->frame_shift;
		u32 headroom = (u32)(addr & (umem->frame_size - 1)), len = d->len;
		struct net_iov *niov;
		netmem_ref netmem;
		u32 act;

		if (addr >= umem->size || headroom + len > umem->frame_size ||
		    !ppxsk_chunk_move(umem, chunk, PPXSK_STATE(PPXSK_CHUNK_FILL, port->slot),
				      PPXSK_CHUNK_HOST)) {
			ppxsk_add(&port->rx_bad_desc, 1);
			continue;
		}
		ppxsk_add(&port->rx_packets, 1);
		niov = ppxsk_chunk_niov(umem, chunk);
		netmem = net_iov_to_netmem(niov);
		dma_sync_single_range_for_cpu(umem->dev, page_pool_get_dma_addr_netmem(netmem),
					      (chunk * umem->frame_size & (PAGE_SIZE - 1)) + headroom,
					      len, DMA_BIDIRECTIONAL);
		if (!prog) {
			ppxsk_add(&port->xdp_pass, 1);
			page_pool_put_netmem(port->pool, netmem, -1, true);
			continue;
		}
		xdp_init_buff(&xdp, umem->frame_size, &port->xdp_rxq);
		xdp_prepare_buff(&xdp, (unsigned char *)umem->area + chunk * umem->frame_size,
				 (int)headroom, (int)len, false);
		act = bpf_prog_run_xdp(prog, &xdp);
		/* A frame going out as an xdp_frame needs the chunk's tail
		 * for its skb_shared_info (xdp_convert_buff_to_frame()
		 * refuses it, with a warning, otherwise): a frame too long
		 * for that is dropped here and counted, before the action. */
		if ((act == XDP_TX || act == XDP_REDIRECT) &&
		    unlikely(xdp.data_end > xdp_data_hard_end(&xdp))) {
			ppxsk_add(&port->xdp_no_tailroom, 1);
			page_pool_put_netmem(port->pool, netmem, -1, true);
			continue;
		}
		switch (act) {
		case XDP_TX:
			ppxsk_add(&port->xdp_tx, 1);
			if (ppxsk_xdp_tx(port, &xdp)) {
				did |= PPXSK_DID_TX;
				continue;
			}
			break;
		case XDP_REDIRECT:
			if (!xdp_do_redirect(port->ndev, &xdp, prog)) {
				ppxsk_add(&port->xdp_redirect, 1);
				did |= PPXSK_DID_REDIR;
				continue;
			}
			ppxsk_add(&port->redirect_errors, 1);
			break;
		case XDP_PASS:
			/* No stack here: consumed at once, as simnic does. */
			ppxsk_add(&port->xdp_pass, 1);
			break;
		case XDP_DROP:
			ppxsk_add(&port->xdp_drop, 1);
			break;
		default:
			bpf_warn_invalid_xdp_action(port->ndev, prog, act);
			fallthrough;
		case XDP_ABORTED:
			ppxsk_add(&port->xdp_aborted, 1);
			break;
		}
		page_pool_put_netmem(port->pool, netmem, -1, true);
	}
	if (n)
		xsk_ring_cons__release(&port->rx, n);
	if (did & PPXSK_DID_REDIR)
		xdp_do_flush();
	if (did & PPXSK_DID_TX)
		ppxsk_tx_kick(port);
	ppxsk_refill(port);
	ppxsk_poll_work += n;
	if ((int)n < budget)
		napi_complete_done(napi, (int)n);
	return (int)n;
}

/* ---- the service loop ---- */

int ppxsk_service(void)
{
	int cpu = smp_processor_id();
	unsigned int i, nr = READ_ONCE(ppxsk_slots_hw);
	unsigned long before = ppxsk_poll_work;

	local_bh_disable();
	for (i = 0; i < nr; i++) {
		struct ppxsk_port *port = rcu_dereference(ppxsk_ports[i]);

		if (!port)
			continue;
		if (port->rx_cpu == cpu) {
			if (!port->tx_only &&
			    (xsk_cons_nb_avail(&port->rx, 1) ||
			     xsk_prod_nb_free(&port->fill, PPXSK_REFILL_MAX) >= PPXSK_NAPI_BUDGET))
				napi_schedule(&port->rx_napi);
			/* What a flush's kick left (the kernel's batch, a
			 * full completion ring): the RX CPU kicks again, so
			 * one CPU feeds the socket, as its producer does. */
			if (ppxsk_tx_pending(port))
				ppxsk_tx_kick(port);
		}
		if (port->txc_cpu == cpu &&
		    __atomic_load_n(port->comp.producer, __ATOMIC_ACQUIRE) != *port->comp.consumer)
			napi_schedule(&port->txc_napi);
	}
	local_bh_enable();	/* runs a round of the polls scheduled */
	/* pp_do_softirq() stops after the kernel's 10 rounds; a poll that
	 * used its budget is still listed, and runs in the next round - up
	 * to PPXSK_SERVICE_WORK frames per call: under a flood the polls
	 * always have work, and a caller that checks its limits (signals,
	 * a frame count) between calls must get control back. */
	while (ppxsk_poll_work - before < PPXSK_SERVICE_WORK && pp_softirq_pending() &&
	       pp_do_softirq())
		;
	return (int)min_t(unsigned long, ppxsk_poll_work - before, INT_MAX);
}

/* ---- ports ---- */

static const struct net_device_ops ppxsk_netdev_ops = {
	.ndo_xdp_xmit = ppxsk_xdp_xmit,
};

static int ppxsk_ring_size(unsigned int v, unsigned int *out)
{
	*out = v ? v : PPXSK_DEF_RING;
	return is_power_of_2(*out) && *out <= PPXSK_MAX_RING ? 0 : -EINVAL;
}

static int ppxsk_check_config(const struct ppxsk_port_config *cfg, struct ppxsk_port_config *out)
{
	unsigned int v;

	if (!cfg || !cfg->ifname || !cfg->ifname[0] || strlen(cfg->ifname) >= IFNAMSIZ ||
	    cfg->queue != 0 || (unsigned int)cfg->mode > PPXSK_MODE_DRV ||
	    cfg->txc_cpu < -1 || cfg->txc_cpu >= PP_CPU_SHARED ||
	    (cfg->flags & ~PPXSK_PORT_TX_ONLY))
		return -EINVAL;
	*out = *cfg;
	if (ppxsk_ring_size(cfg->fill_size, &v))
		return -EINVAL;
	out->fill_size = v;
	if (ppxsk_ring_size(cfg->comp_size, &v))
		return -EINVAL;
	out->comp_size = v;
	if (cfg->flags & PPXSK_PORT_TX_ONLY) {
		out->rx_size = 0;	/* no RX ring */
	} else {
		if (ppxsk_ring_size(cfg->rx_size, &v))
			return -EINVAL;
		out->rx_size = v;
	}
	if (ppxsk_ring_size(cfg->tx_size, &v))
		return -EINVAL;
	out->tx_size = v;
	return 0;
}

/* Every chunk the closed socket's rings held comes back: fill and RX ring
 * chunks to the pool, TX and completion ring frames completed. */
static void ppxsk_give_back(struct ppxsk_port *port)
{
	struct ppxsk_umem *umem = port->umem;
	int fill = PPXSK_STATE(PPXSK_CHUNK_FILL, port->slot);
	int tx = PPXSK_STATE(PPXSK_CHUNK_TX, port->slot);
	u64 c;

	local_bh_disable();
	for (c = 0; c < umem->nr_frames; c++) {
		int st = atomic_read(&umem->chunk[c]);

		if (st == fill && ppxsk_chunk_move(umem, c, fill, PPXSK_CHUNK_HOST))
			page_pool_put_netmem(port->pool, net_iov_to_netmem(ppxsk_chunk_niov(umem, c)),
					     -1, false);
		else if (st == tx)
			ppxsk_complete_one(port, c * umem->frame_size, NULL);
	}
	local_bh_enable();
}

static void ppxsk_socket_close(struct ppxsk_port *port)
{
	struct ppxsk_umem *umem = port->umem;
	bool owner = port->fd == xsk_umem__fd(umem->xumem);

	xsk_socket__delete(port->xsk);
	port->xsk = NULL;
	if (owner) {
		/* libxdp keeps the UMEM's descriptor (this socket's) until
		 * xsk_umem__delete(); the socket would stay bound, its rings
		 * the kernel's. Put an unbound socket in its place: the
		 * kernel releases ours now, the UMEM lives on in the others. */
		int ph = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);

		if (ph >= 0) {
			dup2(ph, port->fd);
			close(ph);
		} else {
			pr_warn("ppxsk: %s: no socket to release the UMEM's first socket: %d\n",
				port->ifname, -errno);
		}
		umem->owner_closed = true;
	}
	port->fd = -1;
}

static void ppxsk_port_free(struct ppxsk_port *port)
{
	if (port->pool) {
		if (xdp_rxq_info_is_reg(&port->xdp_rxq))
			xdp_rxq_info_unreg(&port->xdp_rxq);
		page_pool_destroy(port->pool);
		port->pool = NULL;
	}
	if (port->mp_open)
		net_mp_close_rxq(port->ndev, 0, &port->mp);
	if (port->ndev) {
		if (port->ndev->reg_state == NETREG_REGISTERED)
			unregister_netdev(port->ndev);
		netif_napi_del(&port->rx_napi);
		netif_napi_del(&port->txc_napi);
		free_netdev(port->ndev);
	}
	kfree(port);
}

/* The last port gone: libxdp's UMEM goes (the kernel's with it). */
static void ppxsk_umem_release_xumem(struct ppxsk_umem *umem)
{
	if (umem->nr_ports || !umem->xumem)
		return;
	xsk_umem__delete(umem->xumem);
	umem->xumem = NULL;
	umem->owner_closed = false;
}

static unsigned long ppxsk_slots_used;	/* under ppxsk_table_mutex */

static int ppxsk_slot_get(struct ppxsk_port *port)
{
	unsigned int i;
	int err = -ENOSPC;

	mutex_lock(&ppxsk_table_mutex);
	for (i = 0; i < PPXSK_MAX_PORTS; i++) {
		if (!(ppxsk_slots_used & BIT(i))) {
			ppxsk_slots_used |= BIT(i);
			port->slot = i + 1;
			if (port->slot > ppxsk_slots_hw)
				WRITE_ONCE(ppxsk_slots_hw, port->slot);
			err = 0;
			break;
		}
	}
	mutex_unlock(&ppxsk_table_mutex);
	return err;
}

static void ppxsk_slot_put(struct ppxsk_port *port, bool published)
{
	mutex_lock(&ppxsk_table_mutex);
	if (published)
		rcu_assign_pointer(ppxsk_ports[port->slot - 1], (struct ppxsk_port *)NULL);
	ppxsk_slots_used &= ~BIT(port->slot - 1);
	mutex_unlock(&ppxsk_table_mutex);
}

static int ppxsk_xumem_create(struct ppxsk_umem *umem, struct ppxsk_port *port)
{
	struct xsk_umem_config ucfg = {
		.fill_size = port->cfg.fill_size,
		.comp_size = port->cfg.comp_size,
		.frame_size = umem->frame_size,
		.frame_headroom = 0,
		.flags = 0,
	};
	int err;

	err = xsk_umem__create(&umem->xumem, umem->area, umem->size, &umem->fill0, &umem->comp0,
			       &ucfg);
	if (err) {
		umem->xumem = NULL;
		return err;
	}
	umem->fill_size = port->cfg.fill_size;
	umem->comp_size = port->cfg.comp_size;
	return 0;
}

static int ppxsk_open_socket(struct ppxsk_port *port)
{
	struct ppxsk_umem *umem = port->umem;
	struct xsk_socket_config xcfg = {
		.rx_size = port->cfg.rx_size,
		.tx_size = port->cfg.tx_size,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.xdp_flags = port->cfg.mode == PPXSK_MODE_DRV ? XDP_FLAGS_DRV_MODE :
							       XDP_FLAGS_SKB_MODE,
		.bind_flags = XDP_COPY | XDP_USE_NEED_WAKEUP,
	};
	unsigned int tries;
	int err;

	if (umem->xumem && (umem->fill_size != port->cfg.fill_size ||
			    umem->comp_size != port->cfg.comp_size))
		return -EINVAL;
	port->bpf = ppxsk_bpf_attach(port->ifname, port->cfg.mode == PPXSK_MODE_DRV);
	if (IS_ERR(port->bpf)) {
		err = (int)PTR_ERR(port->bpf);
		port->bpf = NULL;
		return err;
	}
	/* A socket closed on this queue a moment ago leaves its buffer pool
	 * registered there until the kernel's deferred release ran: the
	 * bind says -EBUSY until then. A failed first socket leaves libxdp's
	 * UMEM without its fill and completion rings: it is made again. */
	for (tries = 0;; tries++) {
		if (!umem->xumem) {
			err = ppxsk_xumem_create(umem, port);
			if (err)
				return err;
		}
		err = xsk_socket__create_shared(&port->xsk, port->ifname, port->cfg.queue,
						umem->xumem, port->tx_only ? NULL : &port->rx,
						&port->tx, &port->fill, &port->comp, &xcfg);
		if (err != -EBUSY || tries >= 200)
			break;
		if (umem->nr_ports == 1) {
			xsk_umem__delete(umem->xumem);
			umem->xumem = NULL;
		}
		usleep(10000);
	}
	if (err) {
		port->xsk = NULL;
		return err;
	}
	port->fd = xsk_socket__fd(port->xsk);
	return ppxsk_bpf_add_socket(port->bpf, port->cfg.queue, port->xsk);
}

struct ppxsk_port *ppxsk_port_open(struct ppxsk_umem *umem, const struct ppxsk_port_config *cfg)
{
	struct page_pool_params pp = { 0 };
	struct ppxsk_port *port;
	char name[IFNAMSIZ + 4];
	int err;

	if (IS_ERR_OR_NULL(umem))
		return ERR_PTR(-EINVAL);
	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return ERR_PTR(-ENOMEM);
	port->fd = -1;
	port->umem = umem;
	err = ppxsk_check_config(cfg, &port->cfg);
	if (err) {
		kfree(port);
		return ERR_PTR(err);
	}
	snprintf(port->ifname, sizeof(port->ifname), "%s", cfg->ifname);
	port->cfg.ifname = port->ifname;
	port->rx_cpu = smp_processor_id();
	port->txc_cpu = cfg->txc_cpu < 0 ? port->rx_cpu : cfg->txc_cpu;
	port->tx_only = cfg->flags & PPXSK_PORT_TX_ONLY;
	spin_lock_init(&port->tx_lock);

	mutex_lock(&umem->mutex);
	if (umem->destroyed) {
		err = -EINVAL;
		goto err_unlock;
	}
	if (umem->owner_closed) {
		err = -EBUSY;
		goto err_unlock;
	}
	err = ppxsk_slot_get(port);
	if (err)
		goto err_unlock;

	/* "xsk-<ifname>", cut to a netdev name's length */
	snprintf(name, sizeof(name), "xsk-%s", port->ifname);
	name[IFNAMSIZ - 1] = '\0';
	port->ndev = alloc_netdev_mqs(sizeof(port), name, NET_NAME_ENUM, ether_setup, 1, 1);
	if (!port->ndev) {
		err = -ENOMEM;
		goto err_port;
	}
	*(struct ppxsk_port **)netdev_priv(port->ndev) = port;
	SET_NETDEV_DEV(port->ndev, umem->dev);
	port->ndev->netdev_ops = &ppxsk_netdev_ops;
	netif_napi_add_weight(port->ndev, &port->rx_napi, ppxsk_rx_poll, PPXSK_NAPI_BUDGET);
	netif_napi_add_weight(port->ndev, &port->txc_napi, ppxsk_txc_poll, PPXSK_NAPI_BUDGET);
	netif_queue_set_napi(port->ndev, 0, NETDEV_QUEUE_TYPE_RX, &port->rx_napi);
	err = register_netdev(port->ndev);
	if (err)
		goto err_port;
	if (port->tx_only)
		goto open_socket;	/* no pool, no provider, no RX queue info */

	port->mp.mp_priv = umem;
	port->mp.mp_ops = &ppxsk_mp_ops;
	err = net_mp_open_rxq(port->ndev, 0, &port->mp);
	if (err)
		goto err_port;
	port->mp_open = true;

	pp.order = 0;
	pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV | PP_FLAG_ALLOW_UNREADABLE_NETMEM;
	pp.pool_size = port->cfg.fill_size;
	pp.nid = NUMA_NO_NODE;
	pp.dev = umem->dev;
	pp.napi = &port->rx_napi;
	pp.netdev = port->ndev;
	pp.queue_idx = 0;
	pp.dma_dir = DMA_BIDIRECTIONAL;
	pp.offset = 0;
	pp.max_len = PAGE_SIZE;
	port->pool = page_pool_create(&pp);
	if (IS_ERR(port->pool)) {
		err = (int)PTR_ERR(port->pool);
		port->pool = NULL;
		goto err_port;
	}
	err = xdp_rxq_info_reg(&port->xdp_rxq, port->ndev, 0, port->rx_napi.napi_id);
	if (!err)
		err = xdp_rxq_info_reg_mem_model(&port->xdp_rxq, MEM_TYPE_PAGE_POOL, port->pool);
	if (err)
		goto err_port;

open_socket:
	umem->nr_ports++;
	err = ppxsk_open_socket(port);
	if (err)
		goto err_socket;

	napi_enable(&port->rx_napi);
	napi_enable(&port->txc_napi);
	WRITE_ONCE(port->ndev->flags, port->ndev->flags | IFF_UP);
	WRITE_ONCE(port->up, 1);
	/* The first buffers, as the NAPI would post them. */
	if (!port->tx_only) {
		local_bh_disable();
		ppxsk_refill(port);
		local_bh_enable();
	}
	mutex_lock(&ppxsk_table_mutex);
	rcu_assign_pointer(ppxsk_ports[port->slot - 1], port);
	mutex_unlock(&ppxsk_table_mutex);
	mutex_unlock(&umem->mutex);
	return port;

err_socket:
	if (port->xsk)
		ppxsk_socket_close(port);
	if (port->bpf)
		ppxsk_bpf_detach(port->bpf);
	umem->nr_ports--;
	ppxsk_give_back(port);
	ppxsk_umem_release_xumem(umem);
err_port:
	ppxsk_slot_put(port, false);
	ppxsk_port_free(port);
	mutex_unlock(&umem->mutex);
	return ERR_PTR(err);
err_unlock:
	mutex_unlock(&umem->mutex);
	kfree(port);
	return ERR_PTR(err);
}

static void ppxsk_counters(struct ppxsk_port *port, struct ppxsk_stats *st);
static int ppxsk_socket_stats(struct ppxsk_port *port, struct xdp_statistics *xs);

int ppxsk_port_close_stats(struct ppxsk_port *port, struct ppxsk_stats *st)
{
	struct xdp_statistics xs;
	struct ppxsk_umem *umem;
	unsigned int slot;

	if (IS_ERR_OR_NULL(port))
		return -EINVAL;
	umem = port->umem;
	mutex_lock(&umem->mutex);
	slot = port->slot;
	/* No service loop schedules it, no flush queues frames for it. */
	WRITE_ONCE(port->up, 0);
	WRITE_ONCE(port->ndev->flags, port->ndev->flags & ~IFF_UP);
	mutex_lock(&ppxsk_table_mutex);
	rcu_assign_pointer(ppxsk_ports[slot - 1], (struct ppxsk_port *)NULL);
	mutex_unlock(&ppxsk_table_mutex);
	synchronize_rcu();
	napi_disable(&port->rx_napi);
	napi_disable(&port->txc_napi);

	/* The kernel lets go of the rings first; its last word on them. */
	ppxsk_bpf_detach(port->bpf);
	port->bpf = NULL;
	ppxsk_socket_stats(port, &xs);
	ppxsk_socket_close(port);
	ppxsk_give_back(port);
	if (st) {
		ppxsk_counters(port, st);
		st->xs = xs;
	}
	umem->nr_ports--;
	ppxsk_umem_release_xumem(umem);

	mutex_lock(&ppxsk_table_mutex);
	ppxsk_slots_used &= ~BIT(slot - 1);
	mutex_unlock(&ppxsk_table_mutex);
	ppxsk_port_free(port);
	mutex_unlock(&umem->mutex);
	return 0;
}

int ppxsk_port_close(struct ppxsk_port *port)
{
	return ppxsk_port_close_stats(port, NULL);
}

struct net_device *ppxsk_port_netdev(struct ppxsk_port *port)
{
	return IS_ERR_OR_NULL(port) ? NULL : port->ndev;
}

u32 ppxsk_port_pool_id(struct ppxsk_port *port)
{
	return IS_ERR_OR_NULL(port) || !port->pool ? 0 : pp_page_pool_id(port->pool);
}

int ppxsk_port_set_xdp(struct ppxsk_port *port, struct bpf_prog *prog)
{
	if (IS_ERR_OR_NULL(port) || IS_ERR(prog) || (port->tx_only && prog))
		return -EINVAL;
	rcu_assign_pointer(port->xdp_prog, prog);
	synchronize_rcu();		/* no poll runs the old one after this */
	return 0;
}

static void ppxsk_counters(struct ppxsk_port *port, struct ppxsk_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->rx_packets = READ_ONCE(port->rx_packets);
	st->xdp_pass = READ_ONCE(port->xdp_pass);
	st->xdp_drop = READ_ONCE(port->xdp_drop);
	st->xdp_tx = READ_ONCE(port->xdp_tx);
	st->xdp_redirect = READ_ONCE(port->xdp_redirect);
	st->xdp_aborted = READ_ONCE(port->xdp_aborted);
	st->redirect_errors = READ_ONCE(port->redirect_errors);
	st->tx_xmit = READ_ONCE(port->tx_xmit);
	st->tx_refused = READ_ONCE(port->tx_refused);
	st->tx_completed = READ_ONCE(port->tx_completed);
	st->fill_posted = READ_ONCE(port->fill_posted);
	st->fill_alloc_failed = READ_ONCE(port->fill_alloc_failed);
	st->rx_bad_desc = READ_ONCE(port->rx_bad_desc);
	st->xdp_no_tailroom = READ_ONCE(port->xdp_no_tailroom);
	st->comp_bad_desc = READ_ONCE(port->comp_bad_desc);
	st->tx_foreign = READ_ONCE(port->tx_foreign);
	st->tx_kicks = (u64)atomic_long_read(&port->tx_kicks);
	st->tx_kick_errors = (u64)atomic_long_read(&port->tx_kick_errors);
	st->tx_dev_dropped = (u64)atomic_long_read(&port->tx_dev_dropped);
}

static int ppxsk_socket_stats(struct ppxsk_port *port, struct xdp_statistics *xs)
{
	socklen_t optlen = sizeof(*xs);

	memset(xs, 0, sizeof(*xs));
	if (port->fd >= 0 && getsockopt(port->fd, SOL_XDP, XDP_STATISTICS, xs, &optlen))
		return -errno;
	return 0;
}

int ppxsk_port_get_stats(struct ppxsk_port *port, struct ppxsk_stats *st)
{
	if (IS_ERR_OR_NULL(port) || !st)
		return -EINVAL;
	ppxsk_counters(port, st);
	return ppxsk_socket_stats(port, &st->xs);
}

int ppxsk_port_test_complete(struct ppxsk_port *port, u64 addr)
{
	bool ok;

	if (IS_ERR_OR_NULL(port))
		return -EINVAL;
	local_bh_disable();
	ok = ppxsk_complete_one(port, addr, NULL);
	local_bh_enable();
	return ok ? 0 : -EBADMSG;
}
