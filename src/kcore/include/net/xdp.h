/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * <net/xdp.h> for kernel core mode (src/kcore): the part of the
 * kernel's header that net/core/page_pool.c and the kernel's
 * <net/page_pool/...> headers reach - the memory model (enum xdp_mem_type,
 * struct xdp_mem_info), which page_pool_use_xdp_mem() reads. The XDP layer
 * itself (net/core/xdp.c: xdp_rxq_info, frames, the return paths) is not
 * part of kernel core mode: it is pagepool's xdp layer, built on pagepool's
 * core, and the kernel's needs BPF and sk_buff, which are not here. So a
 * test of the XDP paths runs against pagepool's core only.
 * Layer: core (kernel core mode's shims).
 */
#ifndef _PP_KCORE_NET_XDP_H
#define _PP_KCORE_NET_XDP_H

#include <linux/types.h>
/* What the kernel's <net/xdp.h> brings page_pool.c through its own
 * includes (<linux/skbuff.h>, <linux/filter.h>, <linux/netdevice.h>):
 * skb_shared_info for the fragment alignment, static keys, jiffies,
 * per-CPU variables. */
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/rtnetlink.h>	/* ASSERT_RTNL() */
#include <linux/skbuff.h>

enum xdp_mem_type {
	MEM_TYPE_PAGE_SHARED = 0,
	MEM_TYPE_PAGE_ORDER0,
	MEM_TYPE_PAGE_POOL,
	MEM_TYPE_XSK_BUFF_POOL,
	MEM_TYPE_MAX,
};

struct xdp_mem_info {
	u32 type;	/* enum xdp_mem_type */
	u32 id;
};

#endif /* _PP_KCORE_NET_XDP_H */
