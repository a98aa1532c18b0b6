/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* The RTNL lock: one global mutex serialising device registration.
 * Layer: runtime. */
#ifndef _PP_LINUX_RTNETLINK_H
#define _PP_LINUX_RTNETLINK_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>

/**
 * rtnl_lock() - take the rtnl lock
 *
 * A mutex that serializes device registration and configuration.
 *
 * Context: process context; may sleep.
 */
void rtnl_lock(void);
/**
 * rtnl_unlock() - release the rtnl lock
 *
 * Context: process context, rtnl held.
 */
void rtnl_unlock(void);
/**
 * rtnl_is_locked() - whether the rtnl lock is held (by anyone)
 *
 * Context: any context.
 * Return: true if it is.
 */
bool rtnl_is_locked(void);
#define ASSERT_RTNL()	do { } while (0)

#pragma GCC visibility pop
#endif
