/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The XDP memory model, as the kernel's include/net/xdp.h (newest,
 * netmem-based): the RX-queue info a driver registers, the memory model
 * (allocator type and id) attached to it, xdp_buff / xdp_frame, and the
 * calls that give a frame's memory back to whoever allocated it, one frame
 * at a time or in bulks of XDP_BULK_QUEUE_SIZE from any mix of pools.
 *
 * Contexts, as in the kernel:
 *   - registration and unregistration: process context, may sleep;
 *   - xdp_return_frame(), xdp_return_frame_bulk(), xdp_flush_frame_bulk():
 *     any thread; page_pool decides whether the caller is the pool's
 *     consumer (page_pool_napi_local()) - never assumed;
 *   - xdp_return_frame_rx_napi(), xdp_return_buff(): only inside the NAPI
 *     poll that owns the frame's pool (they recycle into its lock-free
 *     alloc cache), unless xdp_set_return_frame_no_direct() is in effect.
 *
 * Two generations of the return path live side by side (see
 * <pagepool/xdp.h>): the newest reads the pool from the page
 * (netmem_get_pp()), the old one looks the mem id up in a hash table under
 * RCU. Multi-buffer frames (XDP_FLAGS_HAS_FRAGS) are not supported: there
 * is no skb_shared_info here.
 * Layer: xdp.
 */
#ifndef _PP_NET_XDP_H
#define _PP_NET_XDP_H

#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/types.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>

enum xdp_mem_type {
	MEM_TYPE_PAGE_SHARED = 0,	/* split-page refcount (page_frag) */
	MEM_TYPE_PAGE_ORDER0,		/* one page per frame, put_page() */
	MEM_TYPE_PAGE_POOL,
	MEM_TYPE_XSK_BUFF_POOL,
	MEM_TYPE_MAX,
};

/* XDP flags for ndo_xdp_xmit */
#define XDP_XMIT_FLUSH		(1U << 0)	/* doorbell signal consumer */
#define XDP_XMIT_FLAGS_MASK	XDP_XMIT_FLUSH

/* struct xdp_mem_info { u32 type; u32 id; } comes from
 * <net/page_pool/types.h>: page_pool_use_xdp_mem() takes it, and page_pool
 * sits below this layer. */

struct page_pool;

struct xdp_rxq_info {
	struct net_device *dev;
	u32 queue_index;
	u32 reg_state;
	struct xdp_mem_info mem;
	unsigned int napi_id;
	u32 frag_size;
} ____cacheline_aligned;	/* read per packet: no false sharing */

struct xdp_txq_info {
	struct net_device *dev;
};

enum xdp_buff_flags {
	XDP_FLAGS_HAS_FRAGS		= BIT(0),	/* non-linear buffer */
	XDP_FLAGS_FRAGS_PF_MEMALLOC	= BIT(1),	/* frags under memory pressure */
};

struct xdp_buff {
	void *data;
	void *data_end;
	void *data_meta;
	void *data_hard_start;
	struct xdp_rxq_info *rxq;
	struct xdp_txq_info *txq;
	u32 frame_sz;		/* frame size: deduces data_hard_end */
	u32 flags;		/* enum xdp_buff_flags */
};

/*
 * The tailroom XDP leaves for skb_shared_info, which build_skb() puts at
 * the end of the frame: SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) of a
 * 64-bit kernel with MAX_SKB_FRAGS 17. There is no sk_buff here; the
 * constant keeps drivers' frame_sz arithmetic and the conversion's
 * "missing reserved tailroom" check as the kernel has them.
 */
#define XDP_SKB_SHARED_INFO_SIZE	320

#define xdp_data_hard_end(xdp)						\
	((void *)((char *)(xdp)->data_hard_start + (xdp)->frame_sz -	\
		  XDP_SKB_SHARED_INFO_SIZE))

static __always_inline bool xdp_buff_has_frags(const struct xdp_buff *xdp)
{
	return !!(xdp->flags & XDP_FLAGS_HAS_FRAGS);
}

static __always_inline void
xdp_init_buff(struct xdp_buff *xdp, u32 frame_sz, struct xdp_rxq_info *rxq)
{
	xdp->frame_sz = frame_sz;
	xdp->rxq = rxq;
	xdp->flags = 0;
}

/* @meta_valid false: the driver does not support XDP metadata (data_meta
 * set past data, which xdp_data_meta_unsupported() detects). */
static __always_inline void
xdp_prepare_buff(struct xdp_buff *xdp, unsigned char *hard_start,
		 int headroom, int data_len, const bool meta_valid)
{
	unsigned char *data = hard_start + headroom;

	xdp->data_hard_start = hard_start;
	xdp->data = data;
	xdp->data_end = data + data_len;
	xdp->data_meta = meta_valid ? data : data + 1;
}

static __always_inline void xdp_set_data_meta_invalid(struct xdp_buff *xdp)
{
	xdp->data_meta = (char *)xdp->data + 1;
}

static __always_inline bool xdp_data_meta_unsupported(const struct xdp_buff *xdp)
{
	return unlikely(xdp->data_meta > xdp->data);
}

/*
 * A frame that outlives the NAPI poll (XDP_REDIRECT, XDP_TX queues): it sits
 * at the start of the buffer's headroom, so the memory describes itself.
 * The newest kernel's frame carries only the memory type, because the page
 * names its pool. pagepool keeps the registration id too (@mem_id, last;
 * the frame takes 48 bytes of headroom instead of 40): the old return
 * generation (PP_XDP_RETURN_LOOKUP) finds the allocator by id, as every
 * kernel up to v6.0 did with the frame's struct xdp_mem_info, and the id
 * cannot come from the page without already having the pool - which is
 * the new generation. xdp_convert_buff_to_frame() fills it from
 * rxq->mem.id.
 */
struct xdp_frame {
	void *data;
	u32 len;
	u32 headroom;		/* before data, after this struct */
	u32 metasize;		/* uses the lower 8 bits */
	/* The rxq lives only for the NAPI poll; the type (and id) travel
	 * with the frame to other CPUs. */
	enum xdp_mem_type mem_type:32;
	struct net_device *dev_rx;	/* used by cpumap */
	u32 frame_sz;
	u32 flags;		/* enum xdp_buff_flags */
	u32 mem_id;		/* pagepool: for PP_XDP_RETURN_LOOKUP */
};

_Static_assert(sizeof(struct xdp_frame) <= 64, "a frame fits one cache line of headroom");

static __always_inline bool xdp_frame_has_frags(const struct xdp_frame *frame)
{
	return !!(frame->flags & XDP_FLAGS_HAS_FRAGS);
}

/* Clear kernel pointers in xdp_frame */
static inline void xdp_scrub_frame(struct xdp_frame *frame)
{
	frame->data = NULL;
	frame->dev_rx = NULL;
}

/* Out of line so the fast path carries no WARN body. */
void xdp_warn(const char *msg, const char *func, const int line);
#define XDP_WARN(msg)	xdp_warn(msg, __func__, __LINE__)

/* Fill @xdp_frame from @xdp: 0, or -ENOSPC when the headroom cannot hold
 * the frame (plus metadata) or the driver left no tailroom. */
static inline int xdp_update_frame_from_buff(const struct xdp_buff *xdp,
					     struct xdp_frame *xdp_frame)
{
	int metasize, headroom;

	headroom = (int)((char *)xdp->data - (char *)xdp->data_hard_start);
	metasize = (int)((char *)xdp->data - (char *)xdp->data_meta);
	metasize = metasize > 0 ? metasize : 0;
	if (unlikely(headroom - metasize < (int)sizeof(*xdp_frame)))
		return -ENOSPC;

	/* The driver did not reserve tailroom for skb_shared_info. */
	if (unlikely(xdp->data_end > xdp_data_hard_end(xdp))) {
		XDP_WARN("Driver BUG: missing reserved tailroom");
		return -ENOSPC;
	}

	xdp_frame->data = xdp->data;
	xdp_frame->len = (u32)((char *)xdp->data_end - (char *)xdp->data);
	xdp_frame->headroom = (u32)headroom - (u32)sizeof(*xdp_frame);
	xdp_frame->metasize = (u32)metasize;
	xdp_frame->frame_sz = xdp->frame_sz;
	xdp_frame->flags = xdp->flags;
	return 0;
}

/**
 * xdp_convert_buff_to_frame() - turn @xdp into a frame stored at the start
 * of its headroom (data_hard_start). NULL when it does not fit (see
 * xdp_update_frame_from_buff()) or for MEM_TYPE_XSK_BUFF_POOL, whose
 * zero-copy clone needs an AF_XDP buffer pool this library does not have.
 * Context: the RX NAPI poll (the rxq is read).
 */
static inline struct xdp_frame *xdp_convert_buff_to_frame(struct xdp_buff *xdp)
{
	struct xdp_frame *xdp_frame;

	if (unlikely(xdp->rxq->mem.type == MEM_TYPE_XSK_BUFF_POOL))
		return NULL;

	xdp_frame = (struct xdp_frame *)xdp->data_hard_start;
	if (unlikely(xdp_update_frame_from_buff(xdp, xdp_frame) < 0))
		return NULL;

	/* The rxq is only valid during this poll: copy its memory model. */
	xdp_frame->mem_type = (enum xdp_mem_type)xdp->rxq->mem.type;
	xdp_frame->mem_id = xdp->rxq->mem.id;
	xdp_frame->dev_rx = NULL;
	return xdp_frame;
}

static inline void xdp_convert_frame_to_buff(const struct xdp_frame *frame,
					     struct xdp_buff *xdp)
{
	xdp->data_hard_start = (char *)frame->data - frame->headroom - sizeof(*frame);
	xdp->data = frame->data;
	xdp->data_end = (char *)frame->data + frame->len;
	xdp->data_meta = (char *)frame->data - frame->metasize;
	xdp->frame_sz = frame->frame_sz;
	xdp->flags = frame->flags;
}

/*
 * The no-direct flag: cpumap, veth and bpf test_run set it around code that
 * runs XDP programs outside the RX NAPI that owns the pages, so that
 * xdp_return_frame_rx_napi() there does not recycle into another context's
 * alloc cache (the kernel's BPF_RI_F_RF_NO_DIRECT in bpf_redirect_info,
 * per CPU; here per thread, which is a CPU). Set and clear on the same
 * thread, around the loop.
 */
#define BPF_RI_F_RF_NO_DIRECT	BIT(0)

extern __thread u32 __xdp_ri_kern_flags __attribute__((tls_model("initial-exec")));

static __always_inline bool xdp_return_frame_no_direct(void)
{
	return __xdp_ri_kern_flags & BPF_RI_F_RF_NO_DIRECT;
}

static inline void xdp_set_return_frame_no_direct(void)
{
	__xdp_ri_kern_flags |= BPF_RI_F_RF_NO_DIRECT;
}

static inline void xdp_clear_return_frame_no_direct(void)
{
	__xdp_ri_kern_flags &= ~BPF_RI_F_RF_NO_DIRECT;
}

/*
 * Returning memory. __xdp_return() is the newest generation: the pool comes
 * from the page. The frame and buff calls below follow the return mode of
 * <pagepool/xdp.h>.
 */
void __xdp_return(netmem_ref netmem, enum xdp_mem_type mem_type, bool napi_direct,
		  struct xdp_buff *xdp);
/* Any context. */
void xdp_return_frame(struct xdp_frame *xdpf);
/* Only from the NAPI poll that owns the frame's pool. */
void xdp_return_frame_rx_napi(struct xdp_frame *xdpf);
/* Only from the NAPI poll that received @xdp (XDP_DROP, failed XDP_TX). */
void xdp_return_buff(struct xdp_buff *xdp);

/*
 * Bulk return: gather up to XDP_BULK_QUEUE_SIZE (the XDP_REDIRECT bulk size)
 * page_pool netmems, from any mix of pools, and give them back with one
 * page_pool_put_netmem_bulk() - one producer-lock round per pool. Usually on
 * the caller's stack:
 *
 *	struct xdp_frame_bulk bq;
 *
 *	xdp_frame_bulk_init(&bq);
 *	rcu_read_lock();	(or a NAPI poll / bh-disabled section)
 *	for each frame: xdp_return_frame_bulk(xdpf, &bq);
 *	xdp_flush_frame_bulk(&bq);
 *	rcu_read_unlock();
 *
 * The RCU section is required only by the old generation
 * (PP_XDP_RETURN_LOOKUP), which keeps the looked-up allocator in @xa between
 * calls, as v5.11-v6.13 did; it also flushes whenever the mem id changes.
 */
#define XDP_BULK_QUEUE_SIZE	16
struct xdp_frame_bulk {
	int count;
	void *xa;		/* old generation: cached allocator */
	netmem_ref q[XDP_BULK_QUEUE_SIZE];
};

static __always_inline void xdp_frame_bulk_init(struct xdp_frame_bulk *bq)
{
	bq->count = 0;
	bq->xa = NULL;
}

void xdp_return_frame_bulk(struct xdp_frame *xdpf, struct xdp_frame_bulk *bq);

static inline void xdp_flush_frame_bulk(struct xdp_frame_bulk *bq)
{
	if (unlikely(!bq->count))
		return;
	page_pool_put_netmem_bulk(bq->q, (u32)bq->count);
	bq->count = 0;
}

#define DEV_MAP_BULK_SIZE	XDP_BULK_QUEUE_SIZE

/*
 * RX-queue registration. xdp_rxq_info_reg(): 0; -ENODEV (and a WARN)
 * without a net_device; -EINVAL (WARN) for a queue marked unused. A queue
 * still registered is unregistered first (WARN). Process context.
 */
int __xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev,
		       u32 queue_index, unsigned int napi_id, u32 frag_size);

static inline int xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev,
				   u32 queue_index, unsigned int napi_id)
{
	return __xdp_rxq_info_reg(xdp_rxq, dev, queue_index, napi_id, 0);
}

/* Also unregisters the memory model. An unused queue is ignored. */
void xdp_rxq_info_unreg(struct xdp_rxq_info *xdp_rxq);
/* The driver promises never to register this queue. */
void xdp_rxq_info_unused(struct xdp_rxq_info *xdp_rxq);
bool xdp_rxq_info_is_reg(struct xdp_rxq_info *xdp_rxq);

/*
 * Memory models. With an allocator, a registration gets a mem id, cyclic in
 * 1..0xFFFD, that maps to the allocator in an RCU hash table; a page_pool
 * also gets a user reference, so it is freed only after both the driver's
 * page_pool_destroy() and the unregistration, and after its last page came
 * home - at which point its disconnect callback removes the ids.
 * Returns 0, or
 *   -EFAULT     (rxq variant, with a WARN) the queue is not registered;
 *   -EOPNOTSUPP unknown type;
 *   -EINVAL     MEM_TYPE_PAGE_POOL without a pool;
 *   -ENOSPC     every mem id is in use;
 *   -ENOMEM.
 * Process context; may sleep.
 */
int xdp_rxq_info_reg_mem_model(struct xdp_rxq_info *xdp_rxq,
			       enum xdp_mem_type type, void *allocator);
/* WARNs (and does nothing) if the queue is not registered. */
void xdp_rxq_info_unreg_mem_model(struct xdp_rxq_info *xdp_rxq);
int xdp_reg_mem_model(struct xdp_mem_info *mem, enum xdp_mem_type type, void *allocator);
/*
 * Resets @mem. A page_pool registration drops the pool's user reference
 * (page_pool_destroy()); the id goes when the pool is freed. Any other
 * allocator's id is removed now (the kernel keeps such ids for ever).
 */
void xdp_unreg_mem_model(struct xdp_mem_info *mem);

/* The split API: register a pool once, attach it to several queues. */
int xdp_reg_page_pool(struct page_pool *pool);
void xdp_unreg_page_pool(const struct page_pool *pool);
void xdp_rxq_info_attach_page_pool(struct xdp_rxq_info *xdp_rxq,
				   const struct page_pool *pool);

static inline void xdp_rxq_info_attach_mem_model(struct xdp_rxq_info *xdp_rxq,
						 const struct xdp_mem_info *mem)
{
	xdp_rxq->mem = *mem;
}

static inline void xdp_rxq_info_detach_mem_model(struct xdp_rxq_info *xdp_rxq)
{
	xdp_rxq->mem = (struct xdp_mem_info){ 0, 0 };
}

#endif /* _PP_NET_XDP_H */
