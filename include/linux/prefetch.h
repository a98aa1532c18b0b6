/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Prefetch hints. Layer: runtime. */
#ifndef _PP_LINUX_PREFETCH_H
#define _PP_LINUX_PREFETCH_H
#define prefetch(x)	__builtin_prefetch(x)
#define prefetchw(x)	__builtin_prefetch(x, 1)
#endif
