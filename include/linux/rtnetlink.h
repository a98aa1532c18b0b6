/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* The RTNL lock: one global mutex serialising device registration.
 * Layer: runtime. */
#ifndef _PP_LINUX_RTNETLINK_H
#define _PP_LINUX_RTNETLINK_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>

void rtnl_lock(void);
void rtnl_unlock(void);
bool rtnl_is_locked(void);
#define ASSERT_RTNL()	do { } while (0)

#pragma GCC visibility pop
#endif
