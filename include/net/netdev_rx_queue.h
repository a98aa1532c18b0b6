/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Per-RX-queue state of a net_device: the memory-provider binding that a
 * page_pool created with PP_FLAG_ALLOW_UNREADABLE_NETMEM picks up.
 * Layer: runtime.
 */
#ifndef _PP_NET_NETDEV_RX_QUEUE_H
#define _PP_NET_NETDEV_RX_QUEUE_H

#include <linux/cache.h>
#include <linux/types.h>

struct memory_provider_ops;
struct napi_struct;
struct net_device;

struct pp_memory_provider_params {
	void *mp_priv;
	const struct memory_provider_ops *mp_ops;
};

struct netdev_rx_queue {
	struct net_device *dev;
	struct napi_struct *napi;
	struct pp_memory_provider_params mp_params;
} ____cacheline_aligned_in_smp;

#endif
