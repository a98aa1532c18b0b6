/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* UAPI <linux/errno.h> plus the kernel-internal codes. Layer: runtime. */
#ifndef _PP_LINUX_ERRNO_H
#define _PP_LINUX_ERRNO_H
#include_next <linux/errno.h>
#include <errno.h>
#include <linux/err.h>
#endif
