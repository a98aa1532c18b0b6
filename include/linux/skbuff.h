/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The parts of the kernel's <linux/skbuff.h> that page_pool and XDP share
 * with the stack: struct skb_shared_info (what build_skb() puts at the end
 * of a buffer, and where a multi-buffer xdp_buff keeps its fragments),
 * skb_frag_t and the fragment helpers drivers use to fill and read it, the
 * SKB_* size macros, and dev_alloc_page(). There is no struct sk_buff here
 * (only its name); pagepool has no stack.
 *
 * The layout follows Linux 6.12 for x86-64, so sizeof() and __alignof__()
 * agree with the kernel's: page_pool_alloc_frag() aligns fragments to
 * __alignof__(struct skb_shared_info), and XDP's tailroom is
 * SKB_DATA_ALIGN(sizeof(struct skb_shared_info)).
 * Layer: core.
 */
#ifndef _PP_LINUX_SKBUFF_H
#define _PP_LINUX_SKBUFF_H

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/numa.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <net/netmem.h>

/* CONFIG_MAX_SKB_FRAGS's default. */
#define MAX_SKB_FRAGS	17

#define SKB_DATA_ALIGN(X)	ALIGN(X, SMP_CACHE_BYTES)
/* Of X bytes of buffer, what is left for data once skb_shared_info (cache
 * aligned) takes the end. */
#define SKB_WITH_OVERHEAD(X)	((X) - SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
/* The buffer size that leaves X bytes of data plus skb_shared_info. */
#define SKB_HEAD_ALIGN(X)	(SKB_DATA_ALIGN(X) + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))

/*
 * RX buffer headroom, as drivers size it (with XDP_PACKET_HEADROOM):
 * NET_IP_ALIGN shifts the frame so the IP header after the 14-byte
 * Ethernet header is 4-byte aligned - 0 on x86-64, where unaligned loads
 * cost nothing and the kernel's <asm/processor.h> sets it so, 2 on every
 * other target; NET_SKB_PAD is the headroom the stack wants in front of a
 * received frame, at least 32 bytes and a cache line.
 */
#ifndef NET_IP_ALIGN
#if defined(__x86_64__) || defined(__i386__)
#define NET_IP_ALIGN	0
#else
#define NET_IP_ALIGN	2
#endif
#endif

#ifndef NET_SKB_PAD
#define NET_SKB_PAD	max(32, L1_CACHE_BYTES)
#endif

struct sk_buff;

typedef struct skb_frag {
	netmem_ref netmem;
	unsigned int len;
	unsigned int offset;
} skb_frag_t;

struct skb_shared_hwtstamps {
	union {
		ktime_t hwtstamp;
		void *netdev_data;
	};
};

struct xsk_tx_metadata_compl {
	__u64 *tx_timestamp;
};

/*
 * Linux 6.12's field order and offsets. Since v6.14 the kernel also keeps
 * the fragments' total truesize here for a multi-buffer xdp_buff
 * (xdp_frags_truesize, which __xdp_buff_add_frag() maintains), in a union
 * with destructor_arg - both are dead by the time the other is used (an
 * skb built from the buffer resets destructor_arg). Upstream moved
 * xdp_frags_size into that union too (offset 40); here it stays at 6.12's
 * offset 36 and the union holds the truesize alone, so no 6.12 field
 * moves.
 */
struct skb_shared_info {
	__u8 flags;
	__u8 meta_len;
	__u8 nr_frags;
	__u8 tx_flags;
	unsigned short gso_size;
	unsigned short gso_segs;
	struct sk_buff *frag_list;
	union {
		struct skb_shared_hwtstamps hwtstamps;
		struct xsk_tx_metadata_compl xsk_meta;
	};
	unsigned int gso_type;
	u32 tskey;
	atomic_t dataref;
	unsigned int xdp_frags_size;
	union {
		void *destructor_arg;
		u32 xdp_frags_truesize;
	};
	skb_frag_t frags[MAX_SKB_FRAGS];
};

#if defined(__x86_64__)
_Static_assert(sizeof(struct skb_shared_info) == 320, "6.12's x86-64 size");
_Static_assert(__alignof__(struct skb_shared_info) == 8, "6.12's x86-64 alignment");
_Static_assert(offsetof(struct skb_shared_info, xdp_frags_size) == 36 &&
	       offsetof(struct skb_shared_info, destructor_arg) == 40 &&
	       offsetof(struct skb_shared_info, frags) == 48, "6.12's x86-64 offsets");
#endif

/*
 * Fragment accessors. Any context; none checks its arguments. A fragment
 * is (netmem, offset, len): a page or a net_iov, the byte offset of the
 * data in it, and the data's length.
 */
static inline unsigned int skb_frag_size(const skb_frag_t *frag)
{
	return frag->len;
}

static inline void skb_frag_size_set(skb_frag_t *frag, unsigned int size)
{
	frag->len = size;
}

static inline void skb_frag_size_add(skb_frag_t *frag, int delta)
{
	frag->len += delta;
}

static inline void skb_frag_size_sub(skb_frag_t *frag, int delta)
{
	frag->len -= delta;
}

static inline unsigned int skb_frag_off(const skb_frag_t *frag)
{
	return frag->offset;
}

static inline void skb_frag_off_add(skb_frag_t *frag, int delta)
{
	frag->offset += delta;
}

static inline void skb_frag_off_set(skb_frag_t *frag, unsigned int offset)
{
	frag->offset = offset;
}

static inline void skb_frag_off_copy(skb_frag_t *fragto, const skb_frag_t *fragfrom)
{
	fragto->offset = fragfrom->offset;
}

/* True when the fragment is a net_iov (memory-provider memory, possibly
 * not readable by the CPU). */
static inline bool skb_frag_is_net_iov(const skb_frag_t *frag)
{
	return netmem_is_net_iov(frag->netmem);
}

/* The fragment's net_iov, or NULL when it is a page. */
static inline struct net_iov *skb_frag_net_iov(const skb_frag_t *frag)
{
	return netmem_to_net_iov(frag->netmem);
}

/* The fragment's page, or NULL when it is a net_iov. */
static inline struct page *skb_frag_page(const skb_frag_t *frag)
{
	return netmem_to_page(frag->netmem);
}

static inline netmem_ref skb_frag_netmem(const skb_frag_t *frag)
{
	return frag->netmem;
}

static inline void skb_frag_page_copy(skb_frag_t *fragto, const skb_frag_t *fragfrom)
{
	fragto->netmem = fragfrom->netmem;
}

/* The CPU address of the fragment's data; NULL for a net_iov. */
static inline void *skb_frag_address(const skb_frag_t *frag)
{
	struct page *page = skb_frag_page(frag);

	if (!page)
		return NULL;
	return (char *)page_address(page) + skb_frag_off(frag);
}

/* As skb_frag_address(); every page here is mapped, so the extra check of
 * the kernel's version (a highmem page without a mapping) never fails. */
static inline void *skb_frag_address_safe(const skb_frag_t *frag)
{
	return skb_frag_address(frag);
}

/* Set all three fields; no reference is taken. */
static inline void skb_frag_fill_netmem_desc(skb_frag_t *frag, netmem_ref netmem,
					     int off, int size)
{
	frag->netmem = netmem;
	frag->offset = (unsigned int)off;
	skb_frag_size_set(frag, (unsigned int)size);
}

static inline void skb_frag_fill_page_desc(skb_frag_t *frag, struct page *page,
					   int off, int size)
{
	skb_frag_fill_netmem_desc(frag, page_to_netmem(page), off, size);
}

/* Fill fragment @i of @shinfo; nr_frags and the sizes are the caller's
 * ("noacc": no accounting). */
static inline void __skb_fill_netmem_desc_noacc(struct skb_shared_info *shinfo, int i,
						netmem_ref netmem, int off, int size)
{
	skb_frag_fill_netmem_desc(&shinfo->frags[i], netmem, off, size);
}

static inline void __skb_fill_page_desc_noacc(struct skb_shared_info *shinfo, int i,
					      struct page *page, int off, int size)
{
	__skb_fill_netmem_desc_noacc(shinfo, i, page_to_netmem(page), off, size);
}

/* Map @size bytes of the fragment from @offset (past its own offset) for
 * @dev: dma_map_page()'s return and error convention (check with
 * dma_mapping_error()). Process or softirq context. Pages only. */
static inline dma_addr_t skb_frag_dma_map(struct device *dev, const skb_frag_t *frag,
					  size_t offset, size_t size,
					  enum dma_data_direction dir)
{
	return dma_map_page(dev, skb_frag_page(frag), skb_frag_off(frag) + offset, size, dir);
}

/*
 * A page for device RX outside page_pool: compound when @order > 0, and
 * allowed to use the emergency reserves (__GFP_MEMALLOC) as the kernel's,
 * which pagepool's page allocator marks pfmemalloc. NULL when there is no
 * memory. Any context (GFP_ATOMIC for the dev_alloc_* forms).
 */
static inline struct page *__dev_alloc_pages(gfp_t gfp_mask, unsigned int order)
{
	return alloc_pages_node(NUMA_NO_NODE, gfp_mask | __GFP_COMP | __GFP_MEMALLOC, order);
}

static inline struct page *__dev_alloc_page(gfp_t gfp_mask)
{
	return __dev_alloc_pages(gfp_mask, 0);
}

#define dev_alloc_pages(_order)	__dev_alloc_pages(GFP_ATOMIC | __GFP_NOWARN, _order)
#define dev_alloc_page()	dev_alloc_pages(0)

#endif /* _PP_LINUX_SKBUFF_H */
