/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* See ktime.h. Layer: runtime. */
#ifndef _PP_LINUX_TIMEKEEPING_H
#define _PP_LINUX_TIMEKEEPING_H
#include <linux/ktime.h>
#endif
