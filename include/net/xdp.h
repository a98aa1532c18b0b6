/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The XDP memory model, as the kernel's include/net/xdp.h: the RX-queue
 * info a driver registers, the memory model (allocator type and id)
 * attached to it, xdp_buff / xdp_frame with their multi-buffer fragments
 * (in the skb_shared_info at the end of the buffer), and the calls that
 * give a frame's memory - head and every fragment - back to whoever
 * allocated it, one frame at a time or in bulks of XDP_BULK_QUEUE_SIZE
 * from any mix of pools.
 *
 * Which kernel. The driver-facing API is current upstream's, Linux v6.18
 * (netmem-based, frames carrying a memory type); Linux 6.12's names and
 * forms are kept beside it wherever the two do not conflict. Where they
 * conflict, upstream's form is the one here:
 *   - __xdp_return() takes (netmem_ref, enum xdp_mem_type, napi_direct,
 *     xdp) as since v6.14, not 6.12's (void *data, struct xdp_mem_info *,
 *     ...): the same name cannot have both signatures, and every return
 *     path here is netmem-based.
 *   - struct xdp_frame_bulk holds netmem_refs (v6.14), not 6.12's void *
 *     addresses; xdp_flush_frame_bulk() is upstream's inline.
 *   - xdp_frame.len and .headroom are u32 (upstream), not 6.12's u16.
 * Kept from 6.12 although upstream does not have them, because no
 * upstream code is hurt by them: xdp_buff_is_frag_pfmemalloc() and
 * xdp_frame_is_frag_pfmemalloc() (v6.18 replaced them with the
 * *_get_skb_flags() getters), xdp_reinit_buff() (in 6.12.117's header),
 * xdp_rxq_info.napi_id (dropped upstream after 6.12; __xdp_rxq_info_reg()
 * still takes it), xdp_frame_bulk.xa (dropped in v6.14).
 *
 * The frame's mem id. Upstream v6.14 ("xdp: get rid of xdp_frame::mem.id")
 * left frames with the memory type only, since the page names its pool.
 * pagepool also runs the return path of every kernel up to v6.13, which
 * finds the allocator by id (PP_XDP_RETURN_LOOKUP, <pagepool/xdp.h>), and
 * the id cannot come from the page without already having the pool. So a
 * frame keeps 6.12's struct xdp_mem_info mem { type, id }, in a union with
 * upstream's mem_type (the same 32 bits as mem.type) and mem_id (the same
 * as mem.id): code of either kernel compiles, and the frame is 40 bytes,
 * as both kernels' (u16 len and headroom, as theirs).
 *
 * Left out, because an honest version needs what this library does not
 * have:
 *   - a struct sk_buff and build_skb(): xdp_build_skb_from_frame(),
 *     __xdp_build_skb_from_frame(), xdp_build_skb_from_buff(),
 *     xdp_build_skb_from_zc(), xdp_alloc_skb_bulk() (it allocates
 *     sk_buffs), xdp_update_skb_shared_info() / v6.18's
 *     xdp_update_skb_frags_info() (they update skb->len, data_len,
 *     truesize, pfmemalloc, unreadable);
 *   - an AF_XDP buffer pool: xdp_convert_zc_to_xdp_frame() (it frees the
 *     xsk buffer it copied); xdp_convert_buff_to_frame() of a
 *     MEM_TYPE_XSK_BUFF_POOL buffer returns NULL instead;
 *   - BPF bytecode, BTF and the verifier (an XDP program here is a C
 *     function: <linux/bpf.h>, bpf_prog_run_xdp() in <linux/filter.h>):
 *     xdp_attachment_setup() (it drops a bpf_prog reference),
 *     bpf_xdp_metadata_kfunc_id(), bpf_dev_bound_kfunc_id(), the
 *     XDP_METADATA_KFUNC_xxx table (it names UAPI <linux/netdev.h>
 *     constants that Debian 12's linux-libc-dev does not have);
 *   - a net_device with xdp_features (and UAPI <linux/netdev.h>'s
 *     NETDEV_XDP_ACT_*): xdp_set_features_flag(), xdp_clear_features_flag(),
 *     xdp_features_set_redirect_target(), xdp_features_clear_redirect_target()
 *     and their _locked forms.
 * The types drivers declare with them are here: struct
 * xdp_attachment_info, struct xdp_metadata_ops, enum xdp_rss_hash_type,
 * struct xdp_cpumap_stats.
 *
 * XDP_PACKET_HEADROOM and enum xdp_action come from the system's UAPI
 * <linux/bpf.h>, included here, so AF_XDP and libbpf code compiles next
 * to this header.
 *
 * Contexts, as in the kernel:
 *   - registration and unregistration: process context, may sleep;
 *   - xdp_return_frame(), xdp_return_frame_bulk(), xdp_flush_frame_bulk():
 *     any thread; page_pool decides whether the caller is the pool's
 *     consumer (page_pool_napi_local()) - never assumed;
 *   - xdp_return_frame_rx_napi(), xdp_return_buff(), xdp_return_frag():
 *     only inside the NAPI poll that owns the memory's pool (they recycle
 *     into its lock-free alloc cache), unless
 *     xdp_set_return_frame_no_direct() is in effect;
 *   - the buff/frame helpers: wherever the caller owns the buffer.
 *
 * Two generations of the return path live side by side (see
 * <pagepool/xdp.h>): the newest reads the pool from the page
 * (netmem_get_pp()), the old one looks the mem id up in a hash table under
 * RCU. Both return a multi-buffer frame's fragments as well as its head.
 * Layer: xdp.
 */
#ifndef _PP_NET_XDP_H
#define _PP_NET_XDP_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/bpf.h>		/* UAPI: XDP_PACKET_HEADROOM, enum xdp_action, xdp_md */

#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/cache.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

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
struct bpf_prog;

struct xdp_rxq_info {
	struct net_device *dev;
	u32 queue_index;
	u32 reg_state;
	struct xdp_mem_info mem;
	unsigned int napi_id;		/* 6.12; dropped upstream since */
	u32 frag_size;
} ____cacheline_aligned;	/* read per packet: no false sharing */

struct xdp_txq_info {
	struct net_device *dev;
};

enum xdp_buff_flags {
	XDP_FLAGS_HAS_FRAGS		= BIT(0),	/* non-linear buffer */
	XDP_FLAGS_FRAGS_PF_MEMALLOC	= BIT(1),	/* frags under memory pressure */
	/* Frags in memory the CPU may not read (net_iov). Never true of a
	 * buffer an XDP program sees; drivers use the helpers without XDP. */
	XDP_FLAGS_FRAGS_UNREADABLE	= BIT(2),
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
 * Buffer flags. The fragments of a buffer with XDP_FLAGS_HAS_FRAGS are
 * described by the skb_shared_info at xdp_data_hard_end() (nr_frags,
 * frags[], xdp_frags_size, xdp_frags_truesize); without the flag that
 * area is not read. Wherever the caller owns the buffer.
 */
static __always_inline bool xdp_buff_has_frags(const struct xdp_buff *xdp)
{
	return !!(xdp->flags & XDP_FLAGS_HAS_FRAGS);
}

static __always_inline void xdp_buff_set_frags_flag(struct xdp_buff *xdp)
{
	xdp->flags |= XDP_FLAGS_HAS_FRAGS;
}

static __always_inline void xdp_buff_clear_frags_flag(struct xdp_buff *xdp)
{
	xdp->flags &= ~XDP_FLAGS_HAS_FRAGS;
}

/* 6.12's; upstream v6.18 reads the bit out of xdp_buff_get_skb_flags(). */
static __always_inline bool xdp_buff_is_frag_pfmemalloc(const struct xdp_buff *xdp)
{
	return !!(xdp->flags & XDP_FLAGS_FRAGS_PF_MEMALLOC);
}

static __always_inline void xdp_buff_set_frag_pfmemalloc(struct xdp_buff *xdp)
{
	xdp->flags |= XDP_FLAGS_FRAGS_PF_MEMALLOC;
}

static __always_inline void xdp_buff_clear_frag_pfmemalloc(struct xdp_buff *xdp)
{
	xdp->flags &= ~XDP_FLAGS_FRAGS_PF_MEMALLOC;
}

static __always_inline void xdp_buff_set_frag_unreadable(struct xdp_buff *xdp)
{
	xdp->flags |= XDP_FLAGS_FRAGS_UNREADABLE;
}

/* The flags an skb built from the buffer inherits (enum xdp_buff_flags). */
static __always_inline u32 xdp_buff_get_skb_flags(const struct xdp_buff *xdp)
{
	return xdp->flags;
}

/* Forget the fragments and flags of a buffer about to be reused (6.12). */
static __always_inline void xdp_reinit_buff(struct xdp_buff *xdp)
{
	xdp->flags = 0;
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

/*
 * The tailroom XDP leaves for skb_shared_info, which build_skb() puts at
 * the end of the frame (and where the fragments are listed):
 * SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), 320 on x86-64 with
 * MAX_SKB_FRAGS 17. (XDP_SKB_SHARED_INFO_SIZE is pagepool's name.)
 */
#define XDP_SKB_SHARED_INFO_SIZE	SKB_DATA_ALIGN(sizeof(struct skb_shared_info))

#define xdp_data_hard_end(xdp)						\
	((void *)((char *)(xdp)->data_hard_start + (xdp)->frame_sz -	\
		  XDP_SKB_SHARED_INFO_SIZE))

/* The buffer's skb_shared_info (meaningful with XDP_FLAGS_HAS_FRAGS). */
static inline struct skb_shared_info *
xdp_get_shared_info_from_buff(const struct xdp_buff *xdp)
{
	return (struct skb_shared_info *)xdp_data_hard_end(xdp);
}

/* Bytes of packet: the linear part plus every fragment's. */
static __always_inline unsigned int xdp_get_buff_len(const struct xdp_buff *xdp)
{
	unsigned int len = (unsigned int)((char *)xdp->data_end - (char *)xdp->data);

	if (likely(!xdp_buff_has_frags(xdp)))
		return len;
	return len + xdp_get_shared_info_from_buff(xdp)->xdp_frags_size;
}

/**
 * xdp_return_frag() - give back one fragment's reference
 * @netmem: the fragment's memory
 * @xdp: the buffer whose memory model (@xdp->rxq) the fragment is of
 *
 * What __xdp_buff_add_frag() does with a fragment it merged into the
 * previous one.
 *
 * Context: the NAPI poll that received @xdp.
 */
void xdp_return_frag(netmem_ref netmem, const struct xdp_buff *xdp);

/**
 * __xdp_buff_add_frag() - append a fragment to @xdp
 * @xdp:	the buffer
 * @netmem:	memory holding the fragment (the caller's reference passes
 *		to the buffer)
 * @offset:	where the fragment starts in @netmem
 * @size:	its length
 * @truesize:	memory it occupies (added to xdp_frags_truesize)
 * @try_coalesce: merge into the previous fragment when it is the same
 *		netmem and ends at @offset; the merged fragment's reference
 *		is then given back (xdp_return_frag()). Not for AF_XDP.
 *
 * The first fragment sets XDP_FLAGS_HAS_FRAGS and initialises the
 * skb_shared_info. Does not touch the pfmemalloc / unreadable flags
 * (xdp_buff_add_frag() does).
 *
 * Context: the RX NAPI poll.
 * Return: true, or false when the buffer already has MAX_SKB_FRAGS
 * fragments and @netmem could not be merged (the caller keeps its
 * reference).
 */
static inline bool __xdp_buff_add_frag(struct xdp_buff *xdp, netmem_ref netmem,
				       u32 offset, u32 size, u32 truesize,
				       bool try_coalesce)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);
	u32 nr_frags = 0;

	if (!xdp_buff_has_frags(xdp)) {
		xdp_buff_set_frags_flag(xdp);
		sinfo->xdp_frags_size = 0;
		sinfo->xdp_frags_truesize = 0;
	} else {
		skb_frag_t *prev;

		nr_frags = sinfo->nr_frags;
		prev = &sinfo->frags[nr_frags - 1];
		if (try_coalesce && skb_frag_netmem(prev) == netmem &&
		    skb_frag_off(prev) + skb_frag_size(prev) == offset) {
			skb_frag_size_add(prev, (int)size);
			/* Two references, one fragment: drop one. It is never
			 * the last: the fragment keeps the other. */
			xdp_return_frag(netmem, xdp);
			goto account;
		}
		if (unlikely(nr_frags == MAX_SKB_FRAGS))
			return false;
	}
	__skb_fill_netmem_desc_noacc(sinfo, (int)nr_frags++, netmem, (int)offset, (int)size);
	sinfo->nr_frags = (u8)nr_frags;
account:
	sinfo->xdp_frags_size += size;
	sinfo->xdp_frags_truesize += truesize;
	return true;
}

/* __xdp_buff_add_frag() with coalescing, which also sets
 * XDP_FLAGS_FRAGS_PF_MEMALLOC for a pfmemalloc page and
 * XDP_FLAGS_FRAGS_UNREADABLE for a net_iov. Same returns and context. */
static inline bool xdp_buff_add_frag(struct xdp_buff *xdp, netmem_ref netmem,
				     u32 offset, u32 size, u32 truesize)
{
	if (!__xdp_buff_add_frag(xdp, netmem, offset, size, truesize, true))
		return false;
	if (unlikely(netmem_is_pfmemalloc(netmem)))
		xdp_buff_set_frag_pfmemalloc(xdp);
	if (unlikely(netmem_is_net_iov(netmem)))
		xdp_buff_set_frag_unreadable(xdp);
	return true;
}

/*
 * A frame that outlives the NAPI poll (XDP_REDIRECT, XDP_TX queues): it sits
 * at the start of the buffer's headroom, so the memory describes itself;
 * its fragments, if any, stay listed in the skb_shared_info at the end of
 * the buffer. The memory model travels as 6.12's @mem { type, id } or,
 * under upstream's names, @mem_type and (pagepool's) @mem_id - the same
 * eight bytes (see the top of this file).
 */
struct xdp_frame {
	void *data;
	u16 len;
	u16 headroom;		/* before data, after this struct */
	u32 metasize;		/* uses the lower 8 bits */
	/* The rxq lives only for the NAPI poll; the type and id travel
	 * with the frame to other CPUs. */
	union {
		struct xdp_mem_info mem;		/* Linux 6.12 */
		struct {
			enum xdp_mem_type mem_type:32;	/* upstream, v6.14+ */
			u32 mem_id;	/* for PP_XDP_RETURN_LOOKUP */
		};
	};
	struct net_device *dev_rx;	/* used by cpumap */
	u32 frame_sz;
	u32 flags;		/* enum xdp_buff_flags */
};

_Static_assert(offsetof(struct xdp_frame, mem.type) == offsetof(struct xdp_frame, mem_id) - 4 &&
	       offsetof(struct xdp_frame, mem.id) == offsetof(struct xdp_frame, mem_id),
	       "mem_type / mem_id alias mem.type / mem.id");
/* 40 bytes on 64-bit, as Linux 6.12's and v6.14+'s: xdp_convert_buff_to_frame()
 * needs that much headroom and leaves headroom - 40 - metasize. */
_Static_assert(sizeof(struct xdp_frame) == 24 + 2 * sizeof(void *),
	       "struct xdp_frame has the kernel's size");

static __always_inline bool xdp_frame_has_frags(const struct xdp_frame *frame)
{
	return !!(frame->flags & XDP_FLAGS_HAS_FRAGS);
}

/* 6.12's; upstream v6.18 reads the bit out of xdp_frame_get_skb_flags(). */
static __always_inline bool xdp_frame_is_frag_pfmemalloc(const struct xdp_frame *frame)
{
	return !!(frame->flags & XDP_FLAGS_FRAGS_PF_MEMALLOC);
}

static __always_inline u32 xdp_frame_get_skb_flags(const struct xdp_frame *frame)
{
	return frame->flags;
}

/* The frame's skb_shared_info (meaningful with XDP_FLAGS_HAS_FRAGS): at
 * the end of the buffer that starts at the frame. */
static inline struct skb_shared_info *
xdp_get_shared_info_from_frame(const struct xdp_frame *frame)
{
	char *data_hard_start = (char *)frame->data - frame->headroom - sizeof(*frame);

	return (struct skb_shared_info *)(data_hard_start + frame->frame_sz -
					  XDP_SKB_SHARED_INFO_SIZE);
}

/* Bytes of packet in the frame: linear part plus fragments. */
static __always_inline unsigned int xdp_get_frame_len(const struct xdp_frame *xdpf)
{
	unsigned int len = xdpf->len;

	if (likely(!xdp_frame_has_frags(xdpf)))
		return len;
	return len + xdp_get_shared_info_from_frame(xdpf)->xdp_frags_size;
}

struct xdp_cpumap_stats {
	unsigned int redirect;
	unsigned int pass;
	unsigned int drop;
};

/* Clear kernel pointers in xdp_frame */
static inline void xdp_scrub_frame(struct xdp_frame *frame)
{
	frame->data = NULL;
	frame->dev_rx = NULL;
}

/* Out of line so the fast path carries no WARN body. */
/**
 * xdp_warn() - the body of XDP_WARN()
 * @msg: the message
 * @func: the calling function
 * @line: the calling line
 *
 * Context: any context.
 */
void xdp_warn(const char *msg, const char *func, const int line);
#define XDP_WARN(msg)	xdp_warn(msg, __func__, __LINE__)

/**
 * xdpf_clone() - copy a frame into memory of its own
 * @xdpf: the frame; untouched and still the caller's
 *
 * A new page (dev_alloc_page(), MEM_TYPE_PAGE_ORDER0, frame_sz PAGE_SIZE)
 * holds the frame, its headroom (metadata included) and its data; each
 * fragment of a multi-buffer frame is copied into a page of its own,
 * listed in the new page's skb_shared_info (the kernel's version copies
 * only the linear part and keeps the frags flag). Flags are kept.
 *
 * Context: any context.
 * Return: the clone (give it back with any xdp_return_frame*() call), or
 * NULL when the linear part does not fit a page with skb_shared_info's
 * tailroom (SKB_WITH_OVERHEAD(PAGE_SIZE)), a fragment is longer than a
 * page or is a net_iov (not readable), or a page cannot be allocated.
 */
struct xdp_frame *xdpf_clone(struct xdp_frame *xdpf);

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

/* Fill @xdp_frame from @xdp, flags (so the fragments) included: 0, or
 * -ENOSPC when the headroom cannot hold the frame (plus metadata) or the
 * driver left no tailroom (WARNed). */
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
 * xdp_convert_buff_to_frame() - turn an xdp_buff into an xdp_frame
 * @xdp: the buffer
 *
 * The frame is stored at the start of the buffer's headroom
 * (data_hard_start), fragments and flags kept.
 *
 * Context: the RX NAPI poll (the rxq is read).
 * Return: the frame; NULL when it does not fit (see
 * xdp_update_frame_from_buff()) or for MEM_TYPE_XSK_BUFF_POOL, whose
 * zero-copy clone needs an AF_XDP buffer pool this library does not have.
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
	xdp_frame->mem = xdp->rxq->mem;
	xdp_frame->dev_rx = NULL;
	/* Holder tracking: the frame's page is handed on here (its caller
	 * is the hand-on site; <pagepool/core.h>). */
	if (IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS) && xdp_frame->mem.type == MEM_TYPE_PAGE_POOL)
		pp_page_pool_note_handoff(page_to_netmem(virt_to_head_page(xdp->data)));
	return xdp_frame;
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
 * Returning memory. Every call gives back the fragments of a multi-buffer
 * frame or buffer (XDP_FLAGS_HAS_FRAGS) first, each to the pool that owns
 * it, then the head; a frame's fragments are read from its skb_shared_info
 * before the head page, which holds it, is given back.
 *
 * __xdp_return(): one netmem (any page of a compound one) of memory type
 * @mem_type, in the newest generation whatever the return mode (the pool
 * comes from the page; there is no id to look up). @napi_direct: the
 * caller is the pool's NAPI poll (ignored under the no-direct flag); @xdp:
 * the buffer, which the kernel needs for MEM_TYPE_XSK_BUFF_POOL only (not
 * supported here: WARN, memory left alone).
 * The frame and buff calls below follow the return mode of
 * <pagepool/xdp.h>.
 *
 * Hostile or careless returns, in every call and both generations:
 *   - a MEM_TYPE_PAGE_POOL netmem no pool owns - a stale frame whose page
 *     the pool gave back (to the page allocator, perhaps with the pool and
 *     its mem id long gone), or a page that never was a pool's - is
 *     reported as page_pool reports such a put (WARN, the not_pp_page
 *     misuse counter of <pagepool/core.h>) and left alone: its pp field
 *     is never followed;
 *   - in the lookup generation, a frame whose id names no registered
 *     model (a stale frame whose pool is gone, or a made-up id): WARN
 *     (printed once) for the id, and the page is refused as page_pool
 *     refuses a put naming no pool (WARN, not_pp_page or foreign_pool),
 *     left exactly as it is, by single and bulk returns alike - even
 *     when the page is a pool's: a live pool's ids are always found, so
 *     such a page was given back and may be another user's by now. The
 *     direct generation cannot tell a stale frame whose page a pool has
 *     allocated again from a live one; it trusts the page, as the kernel.
 * Memory of a net_iov area bound to arena pages (an AF_XDP UMEM,
 * <net/page_pool/memory_provider.h>) is not a page_pool page, but its
 * net_iov is: every call above, in both generations, gives such a frame
 * back to the pool that holds the net_iov (a stale one is refused as a
 * page is).
 */
/**
 * __xdp_return() - give back one netmem of an XDP memory type
 * @netmem: the netmem (any page of a compound one)
 * @mem_type: its memory type
 * @napi_direct: the caller is the pool's NAPI poll (ignored under the
 *	no-direct flag)
 * @xdp: the buffer, which the kernel needs for MEM_TYPE_XSK_BUFF_POOL only
 *	(not supported here: WARN, memory left alone)
 *
 * In the newest generation whatever the return mode (see above).
 *
 * Context: any context; @napi_direct only in the pool's NAPI poll.
 */
void __xdp_return(netmem_ref netmem, enum xdp_mem_type mem_type, bool napi_direct,
		  struct xdp_buff *xdp);
/**
 * xdp_return_frame() - give back a frame's memory
 * @xdpf: the frame
 *
 * Fragments first, then the head, each to the pool that owns it (see
 * above).
 *
 * Context: any context.
 */
void xdp_return_frame(struct xdp_frame *xdpf);
/**
 * xdp_return_frame_rx_napi() - give back a frame's memory, recycling directly
 * @xdpf: the frame
 *
 * Context: only the NAPI poll that owns the frame's pool.
 */
void xdp_return_frame_rx_napi(struct xdp_frame *xdpf);
/**
 * xdp_return_buff() - give back a buffer's memory (XDP_DROP, failed XDP_TX)
 * @xdp: the buffer
 *
 * Context: only the NAPI poll that received @xdp.
 */
void xdp_return_buff(struct xdp_buff *xdp);

/*
 * Bulk return: gather up to XDP_BULK_QUEUE_SIZE (the XDP_REDIRECT bulk size)
 * page_pool netmems - heads and fragments - from any mix of pools, and give
 * them back with one page_pool_put_netmem_bulk() - one producer-lock round
 * per pool. Usually on the caller's stack:
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
 * Memory of other types is returned at once (xdp_return_frame()).
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

/*
 * A bulk whose count is past XDP_BULK_QUEUE_SIZE (or negative) - never
 * initialised, or overwritten - is reported (WARN) and reset to empty by
 * xdp_return_frame_bulk(), its contents left alone: nothing is written or
 * read past it. xdp_flush_frame_bulk() checks the same only with
 * CONFIG_DEBUG_NET (it is inline in the caller's code, once per bulk).
 */
/**
 * xdp_return_frame_bulk() - queue a frame's memory for a bulk return
 * @xdpf: the frame
 * @bq: the bulk (xdp_frame_bulk_init()); flushed when full, and by
 *	xdp_flush_frame_bulk()
 *
 * Context: any context; in the lookup generation, inside one RCU read-side
 * section with the flush.
 */
void xdp_return_frame_bulk(struct xdp_frame *xdpf, struct xdp_frame_bulk *bq);
/**
 * __xdp_flush_frame_bulk_bad_count() - report a bulk with a bad count
 * @bq: the bulk; reset to empty, its contents left alone
 *
 * What xdp_flush_frame_bulk() calls under CONFIG_DEBUG_NET (a WARN).
 *
 * Context: any context.
 */
void __xdp_flush_frame_bulk_bad_count(struct xdp_frame_bulk *bq);

static inline void xdp_flush_frame_bulk(struct xdp_frame_bulk *bq)
{
	if (unlikely(!bq->count))
		return;
	if (IS_ENABLED(CONFIG_DEBUG_NET) && unlikely((u32)bq->count > XDP_BULK_QUEUE_SIZE)) {
		__xdp_flush_frame_bulk_bad_count(bq);
		return;
	}
	page_pool_put_netmem_bulk(bq->q, (u32)bq->count);
	bq->count = 0;
}

#define DEV_MAP_BULK_SIZE	XDP_BULK_QUEUE_SIZE

/*
 * RX-queue registration. xdp_rxq_info_reg(): 0; -ENODEV (and a WARN)
 * without a net_device; -EINVAL (WARN) for a queue marked unused. A queue
 * still registered is unregistered first (WARN). Process context.
 */
/**
 * __xdp_rxq_info_reg() - register an RX queue's XDP info
 * @xdp_rxq: the queue's info
 * @dev: its net_device
 * @queue_index: the queue
 * @napi_id: its NAPI's id
 * @frag_size: the size of its fragments (0: none)
 *
 * A queue still registered is unregistered first (WARN).
 *
 * Context: process context.
 * Return: 0; -ENODEV (and a WARN) without a net_device; -EINVAL (WARN) for
 * a queue marked unused.
 */
int __xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev,
		       u32 queue_index, unsigned int napi_id, u32 frag_size);

static inline int xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev,
				   u32 queue_index, unsigned int napi_id)
{
	return __xdp_rxq_info_reg(xdp_rxq, dev, queue_index, napi_id, 0);
}

/**
 * xdp_rxq_info_unreg() - unregister an RX queue's XDP info
 * @xdp_rxq: the queue's info
 *
 * Also unregisters the memory model. An unused queue is ignored.
 *
 * Context: process context.
 */
void xdp_rxq_info_unreg(struct xdp_rxq_info *xdp_rxq);
/**
 * xdp_rxq_info_unused() - mark an RX queue's XDP info as never registered
 * @xdp_rxq: the queue's info
 *
 * The driver promises never to register this queue.
 *
 * Context: process context.
 */
void xdp_rxq_info_unused(struct xdp_rxq_info *xdp_rxq);
/**
 * xdp_rxq_info_is_reg() - whether an RX queue's XDP info is registered
 * @xdp_rxq: the queue's info
 *
 * Context: any context.
 * Return: true if it is.
 */
bool xdp_rxq_info_is_reg(struct xdp_rxq_info *xdp_rxq);

/*
 * Memory models. With an allocator, a registration gets a mem id, cyclic in
 * 1..0xFFFD, that maps to the allocator in an RCU hash table; a page_pool
 * also gets a user reference, so it is freed only after both the driver's
 * page_pool_destroy() and the unregistration, and after its last page came
 * home - at which point its disconnect callback removes the ids.
 * Returns 0, or
 *   -EFAULT     (rxq variant, with a WARN) the queue is not registered
 *               (never, or unregistered since): register it first;
 *   -EBUSY      (rxq variant, with a WARN; not in the kernel, which
 *               overwrites) the queue already has a memory model with an
 *               id - registered by an earlier call, or attached: nothing
 *               changes, the first model stays. The kernel would keep the
 *               first registration's id and pool reference for ever (the
 *               pool is never freed). Unregister (or detach) first; a
 *               model without an id (PAGE_SHARED / PAGE_ORDER0 with no
 *               allocator) may be replaced, as drivers that reconfigure
 *               a queue do;
 *   -EOPNOTSUPP unknown type;
 *   -EINVAL     MEM_TYPE_PAGE_POOL without a pool;
 *   -ENOSPC     every mem id is in use;
 *   -ENOMEM.
 * xdp_reg_mem_model() does not read @mem (callers may pass it
 * uninitialised, as the kernel allows), so it cannot tell a second
 * registration into the same @mem: the caller's to avoid.
 * Process context; may sleep.
 */
/**
 * xdp_rxq_info_reg_mem_model() - register a queue's memory model
 * @xdp_rxq: the registered queue's info
 * @type: the memory type
 * @allocator: the allocator (the page_pool for MEM_TYPE_PAGE_POOL), or NULL
 *
 * Context: process context; may sleep.
 * Return: 0 or -errno, as listed above.
 */
int xdp_rxq_info_reg_mem_model(struct xdp_rxq_info *xdp_rxq,
			       enum xdp_mem_type type, void *allocator);
/**
 * xdp_rxq_info_unreg_mem_model() - unregister a queue's memory model
 * @xdp_rxq: the queue's info
 *
 * WARNs (and does nothing) if the queue is not registered; a second call
 * finds no model (id 0) and does nothing.
 *
 * Context: process context.
 */
void xdp_rxq_info_unreg_mem_model(struct xdp_rxq_info *xdp_rxq);
/**
 * xdp_reg_mem_model() - register a memory model without a queue
 * @mem: filled in (not read: it may be uninitialised)
 * @type: the memory type
 * @allocator: the allocator, or NULL
 *
 * Context: process context; may sleep.
 * Return: 0 or -errno, as xdp_rxq_info_reg_mem_model() but for the rxq
 * variant's -EFAULT and -EBUSY.
 */
int xdp_reg_mem_model(struct xdp_mem_info *mem, enum xdp_mem_type type, void *allocator);
/**
 * xdp_unreg_mem_model() - unregister a memory model
 * @mem: what xdp_reg_mem_model() filled in; reset
 *
 * A page_pool registration drops the pool's user reference
 * (page_pool_destroy()); the id goes when the pool is freed. Any other
 * allocator's id is removed now (the kernel keeps such ids for ever).
 * A second unregistration of one page_pool registration - through a copy
 * of its xdp_mem_info, e.g. a queue it was attached to and not detached
 * from - WARNs and does nothing (the kernel would destroy the pool once
 * more, dropping a reference its driver holds); an id that names nothing
 * WARNs too.
 *
 * Context: process context.
 */
void xdp_unreg_mem_model(struct xdp_mem_info *mem);

/* The split API: register a pool once (xdp_reg_mem_model()'s returns),
 * attach it to several queues; unregister after detaching. Process
 * context. */
/**
 * xdp_reg_page_pool() - register a page_pool as a memory model once
 * @pool: the pool
 *
 * Context: process context.
 * Return: as xdp_reg_mem_model().
 */
int xdp_reg_page_pool(struct page_pool *pool);
/**
 * xdp_unreg_page_pool() - unregister a page_pool registered with xdp_reg_page_pool()
 * @pool: the pool; detach it from its queues first
 *
 * Context: process context.
 */
void xdp_unreg_page_pool(const struct page_pool *pool);
/**
 * xdp_rxq_info_attach_page_pool() - attach a registered page_pool to a queue
 * @xdp_rxq: the queue's info
 * @pool: the pool (xdp_reg_page_pool())
 *
 * Context: process context.
 */
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

/*
 * Metadata (the bytes between data_meta and data). A driver that cannot
 * carry it marks the buffer with xdp_set_data_meta_invalid() (data_meta
 * one past data), so bpf_xdp_adjust_meta() refuses to grow it;
 * xdp_data_meta_unsupported() tells such a buffer. xdp_metalen_invalid():
 * true when @metalen is not a multiple of 4 or exceeds what
 * skb_shared_info.meta_len can hold (255).
 */
static __always_inline void xdp_set_data_meta_invalid(struct xdp_buff *xdp)
{
	xdp->data_meta = (char *)xdp->data + 1;
}

static __always_inline bool xdp_data_meta_unsupported(const struct xdp_buff *xdp)
{
	return unlikely(xdp->data_meta > xdp->data);
}

#define XDP_META_LEN_MAX	((1UL << (8 * sizeof_field(struct skb_shared_info, meta_len))) - 1)

static inline bool xdp_metalen_invalid(unsigned long metalen)
{
	BUILD_BUG_ON(XDP_META_LEN_MAX != 255);
	return !IS_ALIGNED(metalen, sizeof(u32)) || metalen > XDP_META_LEN_MAX;
}

/* What a driver keeps of its attached program (drivers embed it);
 * xdp_attachment_setup() is left out (see the top of this file). */
struct xdp_attachment_info {
	struct bpf_prog *prog;
	u32 flags;
};

/* RX metadata a driver can report to XDP programs (its
 * xdp_metadata_ops); the types only - there are no kfuncs here. */
enum xdp_rss_hash_type {
	/* L3 and L4 bits */
	XDP_RSS_L3_IPV4		= BIT(0),
	XDP_RSS_L3_IPV6		= BIT(1),
	XDP_RSS_L3_DYNHDR	= BIT(2),	/* IPv4 options / IPv6 extension headers */
	XDP_RSS_L4		= BIT(3),	/* hashed over L4, protocol maybe unknown */
	XDP_RSS_L4_TCP		= BIT(4),
	XDP_RSS_L4_UDP		= BIT(5),
	XDP_RSS_L4_SCTP		= BIT(6),
	XDP_RSS_L4_IPSEC	= BIT(7),	/* includes the IPsec SPI */
	XDP_RSS_L4_ICMP		= BIT(8),

	/* Combinations drivers map their hardware's hash types to */
	XDP_RSS_TYPE_NONE		= 0,
	XDP_RSS_TYPE_L2			= XDP_RSS_TYPE_NONE,

	XDP_RSS_TYPE_L3_IPV4		= XDP_RSS_L3_IPV4,
	XDP_RSS_TYPE_L3_IPV6		= XDP_RSS_L3_IPV6,
	XDP_RSS_TYPE_L3_IPV4_OPT	= XDP_RSS_L3_IPV4 | XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L3_IPV6_EX		= XDP_RSS_L3_IPV6 | XDP_RSS_L3_DYNHDR,

	XDP_RSS_TYPE_L4_ANY		= XDP_RSS_L4,
	XDP_RSS_TYPE_L4_IPV4_TCP	= XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_TCP,
	XDP_RSS_TYPE_L4_IPV4_UDP	= XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_UDP,
	XDP_RSS_TYPE_L4_IPV4_SCTP	= XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_SCTP,
	XDP_RSS_TYPE_L4_IPV4_IPSEC	= XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_IPSEC,
	XDP_RSS_TYPE_L4_IPV4_ICMP	= XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_ICMP,

	XDP_RSS_TYPE_L4_IPV6_TCP	= XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_TCP,
	XDP_RSS_TYPE_L4_IPV6_UDP	= XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_UDP,
	XDP_RSS_TYPE_L4_IPV6_SCTP	= XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_SCTP,
	XDP_RSS_TYPE_L4_IPV6_IPSEC	= XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_IPSEC,
	XDP_RSS_TYPE_L4_IPV6_ICMP	= XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_ICMP,

	XDP_RSS_TYPE_L4_IPV6_TCP_EX	= XDP_RSS_TYPE_L4_IPV6_TCP | XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L4_IPV6_UDP_EX	= XDP_RSS_TYPE_L4_IPV6_UDP | XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L4_IPV6_SCTP_EX	= XDP_RSS_TYPE_L4_IPV6_SCTP | XDP_RSS_L3_DYNHDR,
};

struct xdp_metadata_ops {
	int (*xmo_rx_timestamp)(const struct xdp_md *ctx, u64 *timestamp);
	int (*xmo_rx_hash)(const struct xdp_md *ctx, u32 *hash,
			   enum xdp_rss_hash_type *rss_type);
	int (*xmo_rx_vlan_tag)(const struct xdp_md *ctx, __be16 *vlan_proto,
			       u16 *vlan_tci);
};

#pragma GCC visibility pop
#endif /* _PP_NET_XDP_H */
