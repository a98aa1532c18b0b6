/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Ethernet device allocation and MAC address helpers. Layer: runtime. */
#ifndef _PP_LINUX_ETHERDEVICE_H
#define _PP_LINUX_ETHERDEVICE_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <string.h>

/**
 * ether_setup() - Ethernet defaults for a net_device
 * @dev: the device
 *
 * "eth%d", MTU 1500, ARPHRD_ETHER, a 14-byte link header (hard_header_len),
 * broadcast ff:..:ff, a random locally administered MAC.
 *
 * Context: process context.
 */
void ether_setup(struct net_device *dev);
/**
 * eth_random_addr() - a random locally administered unicast MAC address
 * @addr: the 6 bytes written
 *
 * Context: any context.
 */
void eth_random_addr(u8 *addr);

#define alloc_etherdev_mqs(sizeof_priv, txqs, rxqs)			\
	alloc_netdev_mqs(sizeof_priv, "eth%d", NET_NAME_ENUM, ether_setup, txqs, rxqs)
#define alloc_etherdev_mq(sizeof_priv, count)	alloc_etherdev_mqs(sizeof_priv, count, count)
#define alloc_etherdev(sizeof_priv)		alloc_etherdev_mqs(sizeof_priv, 1, 1)

static inline bool is_zero_ether_addr(const u8 *addr)
{
	static const u8 zero[ETH_ALEN];

	return memcmp(addr, zero, ETH_ALEN) == 0;
}

static inline bool is_multicast_ether_addr(const u8 *addr)
{
	return addr[0] & 0x01;
}

static inline bool is_valid_ether_addr(const u8 *addr)
{
	return !is_multicast_ether_addr(addr) && !is_zero_ether_addr(addr);
}

static inline void ether_addr_copy(u8 *dst, const u8 *src)
{
	memcpy(dst, src, ETH_ALEN);
}

static inline void eth_hw_addr_set(struct net_device *dev, const u8 *addr)
{
	memcpy(dev->dev_addr_storage, addr, ETH_ALEN);
}

static inline void eth_hw_addr_random(struct net_device *dev)
{
	eth_random_addr(dev->dev_addr_storage);
}

#pragma GCC visibility pop
#endif
