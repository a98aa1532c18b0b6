/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * <net/netdev_rx_queue.h> for kernel core mode (src/kcore). The
 * runtime's own header (include/net/netdev_rx_queue.h) defines struct
 * pp_memory_provider_params itself, because the runtime layer cannot
 * include a core header; the kernel defines it in <net/page_pool/types.h>,
 * which in kernel core mode is the tested tree's. So this version takes the
 * struct from there. struct netdev_rx_queue has the runtime's layout
 * member for member (the runtime-only library's netdev.c hands these out
 * through __netif_get_rx_queue()); the kernel core build, when it exists,
 * must check the offsets against the runtime's at build time.
 * Layer: core (kernel core mode's shims).
 */
#ifndef _PP_NET_NETDEV_RX_QUEUE_H	/* the runtime header's guard: one of the two */
#define _PP_NET_NETDEV_RX_QUEUE_H
#define _PP_KCORE_NETDEV_RX_QUEUE_H

#include <linux/cache.h>
#include <linux/types.h>
#include <net/page_pool/types.h>

struct napi_struct;
struct net_device;

struct netdev_rx_queue {
	struct net_device *dev;
	struct napi_struct *napi;
	struct pp_memory_provider_params mp_params;
} ____cacheline_aligned_in_smp;

#endif
