/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The target's cache geometry, as the kernel's arch/x86 and arch/arm64
 * <asm/cache.h>: L1_CACHE_SHIFT, and ARCH_DMA_MINALIGN where the
 * architecture defines one.
 *
 * x86-64: L1_CACHE_SHIFT is CONFIG_X86_L1_CACHE_SHIFT, 6 for every 64-bit
 * CPU choice; DMA is cache coherent, so there is no ARCH_DMA_MINALIGN.
 * arm64: L1_CACHE_SHIFT is 6 (the kernel's comment: most cores have
 * 64-byte lines, and a larger value would only waste space), but
 * ARCH_DMA_MINALIGN is 128, the largest cache-line writeback granule of
 * the cores it runs on, so a buffer of a non-coherent device never shares
 * a line with other data that a cache maintenance operation would clobber.
 * <linux/cache.h> builds the rest on these; <asm/target.h> checks that
 * the compiler's target is the library's.
 * Layer: runtime.
 */
#ifndef _PP_ASM_CACHE_H
#define _PP_ASM_CACHE_H

#include <asm/target.h>

#if defined(__x86_64__)
#define L1_CACHE_SHIFT		6
#elif defined(__aarch64__)
#define L1_CACHE_SHIFT		6
#define ARCH_DMA_MINALIGN	128
#endif

#endif /* _PP_ASM_CACHE_H */
