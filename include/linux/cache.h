/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Cache-line size and alignment markers, struct cacheline groups, and
 * ARCH_DMA_MINALIGN, over the target's <asm/cache.h> (L1_CACHE_SHIFT: 6 on
 * x86-64 and arm64). The architecture defines ARCH_DMA_MINALIGN only where
 * DMA buffers must be kept apart by more than their natural alignment
 * (arm64: 128, the largest cache line of its non-coherent devices; x86-64
 * does not define it and DMA is cache coherent there), and then this
 * header defines ARCH_HAS_DMA_MINALIGN; elsewhere it is the alignment of
 * a u64, as the kernel's.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_CACHE_H
#define _PP_LINUX_CACHE_H

#include <asm/cache.h>
#include <linux/compiler.h>

#define L1_CACHE_BYTES		(1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES		L1_CACHE_BYTES
#define ____cacheline_aligned		__aligned(SMP_CACHE_BYTES)
#define ____cacheline_aligned_in_smp	__aligned(SMP_CACHE_BYTES)
#define __cacheline_aligned		__aligned(SMP_CACHE_BYTES)
#define __cacheline_aligned_in_smp	__aligned(SMP_CACHE_BYTES)
#define cache_line_size()		L1_CACHE_BYTES

#ifndef __cacheline_group_begin
#define __cacheline_group_begin(GROUP)	__u8 __cacheline_group_begin__##GROUP[0]
#endif
#ifndef __cacheline_group_end
#define __cacheline_group_end(GROUP)	__u8 __cacheline_group_end__##GROUP[0]
#endif

/* A group aligned to its own cache line (or to the alignment given), with
 * a pad after its end so that the next member starts on a new line. */
#define __cacheline_group_begin_aligned(GROUP, ...)			\
	__cacheline_group_begin(GROUP)					\
	__aligned((__VA_ARGS__ + 0) ? : SMP_CACHE_BYTES)
#define __cacheline_group_end_aligned(GROUP, ...)			\
	__cacheline_group_end(GROUP) __aligned(sizeof(long));		\
	struct { } __cacheline_group_pad__##GROUP			\
	__aligned((__VA_ARGS__ + 0) ? : SMP_CACHE_BYTES)

/* Build-time checks that a member lies inside a group, and of a group's
 * size (bytes between its markers). */
#ifndef CACHELINE_ASSERT_GROUP_MEMBER
#define CACHELINE_ASSERT_GROUP_MEMBER(TYPE, GROUP, MEMBER)			\
	BUILD_BUG_ON(!(offsetof(TYPE, MEMBER) >=				\
		       offsetofend(TYPE, __cacheline_group_begin__##GROUP) &&	\
		       offsetofend(TYPE, MEMBER) <=				\
		       offsetof(TYPE, __cacheline_group_end__##GROUP)))
#endif
#ifndef CACHELINE_ASSERT_GROUP_SIZE
#define CACHELINE_ASSERT_GROUP_SIZE(TYPE, GROUP, SIZE)				\
	BUILD_BUG_ON(offsetof(TYPE, __cacheline_group_end__##GROUP) -		\
		     offsetofend(TYPE, __cacheline_group_begin__##GROUP) >	\
		     SIZE)
#endif

#ifdef ARCH_DMA_MINALIGN
#define ARCH_HAS_DMA_MINALIGN
#else
#define ARCH_DMA_MINALIGN	__alignof__(unsigned long long)
#endif

#endif
