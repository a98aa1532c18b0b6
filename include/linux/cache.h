/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Cache-line size and alignment markers. Layer: runtime. */
#ifndef _PP_LINUX_CACHE_H
#define _PP_LINUX_CACHE_H

#include <linux/compiler.h>

#define L1_CACHE_SHIFT		6
#define L1_CACHE_BYTES		(1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES		L1_CACHE_BYTES
#define ____cacheline_aligned		__aligned(SMP_CACHE_BYTES)
#define ____cacheline_aligned_in_smp	__aligned(SMP_CACHE_BYTES)
#define __cacheline_aligned		__aligned(SMP_CACHE_BYTES)
#define __cacheline_aligned_in_smp	__aligned(SMP_CACHE_BYTES)
#define cache_line_size()		L1_CACHE_BYTES

#endif
