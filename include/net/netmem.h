/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * netmem: a reference to either a struct page or a struct net_iov (memory a
 * memory provider owns, possibly not CPU-readable). netmem_ref is the
 * pointer with bit 0 (NET_IOV) set for a net_iov. Both carry the page_pool
 * fields at the same offsets (asserted below), so the accessors work on
 * either without a branch.
 * Layer: core.
 */
#ifndef _PP_NET_NETMEM_H
#define _PP_NET_NETMEM_H

#include <linux/atomic.h>
#include <linux/kconfig.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/stddef.h>
#include <linux/types.h>

typedef unsigned long __bitwise netmem_ref;

#define NET_IOV	0x01UL

enum net_iov_type {
	NET_IOV_DMABUF,
	NET_IOV_IOURING,
	NET_IOV_MAX = ULONG_MAX,
};

/* The page_pool part shared by struct page and struct net_iov. */
struct netmem_desc {
	unsigned long _flags;
	unsigned long pp_magic;
	struct page_pool *pp;
	union {
		unsigned long _pp_mapping_pad;
		unsigned long pp_put_seq;	/* see struct page */
	};
	unsigned long dma_addr;
	atomic_long_t pp_ref_count;
};

struct net_iov_area;

/* The words of a netmem's home state only its pool's owner writes
 * (<net/page_pool/helpers.h>, "Home state"). */
struct page_pool_home {
	u32 out_base;	/* bit 0: out; above: pp_put_seq when it went out */
	u32 seen;	/* pp_put_seq puts taken out of the ring */
};

struct net_iov {
	union {
		struct netmem_desc desc;
		struct {
			unsigned long _flags;
			unsigned long pp_magic;
			struct page_pool *pp;
			union {
				unsigned long _pp_mapping_pad;
				unsigned long pp_put_seq;
			};
			unsigned long dma_addr;
			atomic_long_t pp_ref_count;
		};
	};
	struct net_iov_area *owner;
	/* The list designs of the return ring (PP_RING_LLIST,
	 * PP_RING_LLIST_BATCH, src/core/ring_llist.c) own this word while
	 * the net_iov waits in their list: its link. At the offset of
	 * struct page's `private`, which is the same link for a page, so
	 * one accessor serves both without a branch. */
	unsigned long pp_ring_link;
	enum net_iov_type type;
	/* The pool owner's words for this net_iov (netmem_home_ref()); pages
	 * keep theirs beside the memmap (pp_mem_map.home). */
	struct page_pool_home pp_home;
};

struct net_iov_area {
	struct net_iov *niovs;
	size_t num_niovs;
	unsigned long base_virtual;	/* offset of niovs[0] in the area */
	/* pagepool: the page that backs niovs[0] while the area is bound
	 * to host memory (pp_net_iov_area_bind_pages(), <net/page_pool/
	 * memory_provider.h>); niovs[i] is backed by pp_pages + i. NULL
	 * when unbound. */
	struct page *pp_pages;
};

#define __NETMEM_ASSERT(f)						\
	_Static_assert(offsetof(struct page, f) == offsetof(struct netmem_desc, f) && \
		       offsetof(struct net_iov, f) == offsetof(struct netmem_desc, f), \
		       "struct page, net_iov and netmem_desc disagree on " #f)
__NETMEM_ASSERT(pp_magic);
__NETMEM_ASSERT(pp);
__NETMEM_ASSERT(_pp_mapping_pad);
__NETMEM_ASSERT(pp_put_seq);
__NETMEM_ASSERT(dma_addr);
__NETMEM_ASSERT(pp_ref_count);
#undef __NETMEM_ASSERT
_Static_assert(offsetof(struct net_iov, pp_ring_link) == offsetof(struct page, private),
	       "the list designs' link is one word for pages and net_iovs");

static inline bool netmem_is_net_iov(const netmem_ref netmem)
{
	return (netmem & NET_IOV) != 0;
}

static inline struct page *__netmem_to_page(netmem_ref netmem)
{
	return (struct page *)netmem;
}

/* A page, or NULL for a net_iov (which has no struct page). */
static inline struct page *netmem_to_page(netmem_ref netmem)
{
	if (unlikely(netmem_is_net_iov(netmem)))
		return NULL;
	return __netmem_to_page(netmem);
}

static inline struct net_iov *netmem_to_net_iov(netmem_ref netmem)
{
	if (netmem_is_net_iov(netmem))
		return (struct net_iov *)(netmem & ~NET_IOV);
	return NULL;
}

static inline netmem_ref net_iov_to_netmem(struct net_iov *niov)
{
	return (netmem_ref)niov | NET_IOV;
}

static inline netmem_ref page_to_netmem(const struct page *page)
{
	return (netmem_ref)page;
}

static inline struct netmem_desc *__netmem_clear_lsb(netmem_ref netmem)
{
	return (struct netmem_desc *)(netmem & ~NET_IOV);
}

/* Does the netmem carry the page_pool signature (a page a pool owns, or a
 * net_iov)? False for a page no pool owns, free or in use elsewhere. */
static inline bool netmem_is_pp(netmem_ref netmem)
{
	return (READ_ONCE(__netmem_clear_lsb(netmem)->pp_magic) & PP_MAGIC_MASK) == PP_SIGNATURE;
}

/*
 * The page -> pool link. Normally the pp field is the pool. Pools that
 * track their DMA mappings with the page_pool_item design
 * (PP_DMA_TRACK_ITEMS) store the page's item there instead, tagged with
 * bit 0 (PP_ITEM_TAG); the item lives in a page-aligned block whose first
 * word is the pool. Either way this is the pool (or NULL), and
 * page_pool_to_pp() is this. A build without that design has no tagged
 * link, and no test for one.
 */
#define PP_ITEM_TAG	0x1UL

static inline struct page_pool *netmem_get_pp(netmem_ref netmem)
{
	unsigned long v = (unsigned long)READ_ONCE(__netmem_clear_lsb(netmem)->pp);

	if (IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS) && unlikely(v & PP_ITEM_TAG))
		return READ_ONCE(*(struct page_pool **)(v & PAGE_MASK));
	return (struct page_pool *)v;
}

static inline atomic_long_t *netmem_get_pp_ref_count_ref(netmem_ref netmem)
{
	return &__netmem_clear_lsb(netmem)->pp_ref_count;
}

/*
 * The two words of a netmem's home state (<net/page_pool/helpers.h>,
 * "Home state"): the putters' count of returns into the ring, in the
 * netmem itself, and the word only the pool's owner writes, away from
 * the netmem's cache line - beside the memmap for a page, in the net_iov
 * for a net_iov (whose line it shares: net_iovs are a memory provider's,
 * returned far less often than pages).
 */
static __always_inline unsigned long *netmem_put_seq_ref(netmem_ref netmem)
{
	return &__netmem_clear_lsb(netmem)->pp_put_seq;
}

static __always_inline struct page_pool_home *netmem_home_ref(netmem_ref netmem)
{
	if (netmem_is_net_iov(netmem))
		return &((struct net_iov *)(netmem & ~NET_IOV))->pp_home;
	return (struct page_pool_home *)(pp_mem_map.home_bias + ((unsigned long)netmem >> 3));
}

static inline unsigned long netmem_get_dma_addr(netmem_ref netmem)
{
	/* READ_ONCE: destroy's unmap-all reads it while a late return
	 * clears it (the claim protocol decides who unmaps; the value read
	 * by the loser is unused, but the access must not be torn). */
	return READ_ONCE(__netmem_clear_lsb(netmem)->dma_addr);
}

static inline int netmem_ref_count(netmem_ref netmem)
{
	if (netmem_is_net_iov(netmem))
		return 1;
	return page_ref_count(__netmem_to_page(netmem));
}

static inline bool netmem_is_pref_nid(netmem_ref netmem, int pref_nid)
{
	if (netmem_is_net_iov(netmem))
		return true;
	return page_to_nid(__netmem_to_page(netmem)) == pref_nid;
}

static inline bool netmem_is_pfmemalloc(netmem_ref netmem)
{
	if (netmem_is_net_iov(netmem))
		return false;
	return page_is_pfmemalloc(__netmem_to_page(netmem));
}

static inline netmem_ref netmem_compound_head(netmem_ref netmem)
{
	if (netmem_is_net_iov(netmem))
		return netmem;
	return page_to_netmem(compound_head(__netmem_to_page(netmem)));
}

/* CPU address of a page netmem; NULL for a net_iov (unreadable). */
static inline void *netmem_address(netmem_ref netmem)
{
	if (netmem_is_net_iov(netmem))
		return NULL;
	return page_address(__netmem_to_page(netmem));
}

static inline netmem_ref virt_to_netmem(const void *data)
{
	return page_to_netmem(virt_to_head_page(data));
}

static inline int netmem_to_nid(netmem_ref netmem)
{
	if (netmem_is_net_iov(netmem))
		return NUMA_NO_NODE;
	return page_to_nid(__netmem_to_page(netmem));
}

static inline struct net_iov_area *net_iov_owner(const struct net_iov *niov)
{
	return niov->owner;
}

static inline unsigned int net_iov_idx(const struct net_iov *niov)
{
	return (unsigned int)(niov - net_iov_owner(niov)->niovs);
}

#endif /* _PP_NET_NETMEM_H */
