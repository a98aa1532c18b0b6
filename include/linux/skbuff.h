/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The parts of the kernel's <linux/skbuff.h> that page_pool and XDP share
 * with the stack: struct skb_shared_info (what build_skb() puts at the end
 * of a buffer, and where a multi-buffer xdp_buff keeps its fragments) and
 * skb_frag_t. There is no struct sk_buff here; pagepool has no stack.
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
#include <linux/kernel.h>
#include <linux/types.h>
#include <net/netmem.h>

/* CONFIG_MAX_SKB_FRAGS's default. */
#define MAX_SKB_FRAGS	17

#define SKB_DATA_ALIGN(X)	ALIGN(X, SMP_CACHE_BYTES)

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
	void *destructor_arg;
	skb_frag_t frags[MAX_SKB_FRAGS];
};

#endif /* _PP_LINUX_SKBUFF_H */
