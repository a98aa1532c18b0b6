/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * <net/net_debug.h>: the networking debug checks (DEBUG_NET_WARN_ON_ONCE()
 * and friends, compiled in with CONFIG_DEBUG_NET, meson -Ddebug_net).
 * pagepool defines them in <linux/bug.h> beside WARN_ON_ONCE(); this is the
 * kernel's header path, which kernel headers (<net/netmem.h>) include.
 * Layer: runtime.
 */
#ifndef _PP_NET_NET_DEBUG_H
#define _PP_NET_NET_DEBUG_H

#include <linux/bug.h>
#include <linux/printk.h>

#endif /* _PP_NET_NET_DEBUG_H */
