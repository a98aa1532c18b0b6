/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The system's UAPI <linux/limits.h> (PATH_MAX, NAME_MAX, ...) kept visible
 * with #include_next, plus the kernel's fixed-width limits: U8_MAX ...
 * S64_MIN, and PHYS_ADDR_MAX.
 *
 * glibc's <limits.h> includes <linux/limits.h> itself (bits/local_lim.h),
 * so with our include directory first this file is read in the middle of
 * glibc's header: it includes nothing but the UAPI file, and spells the
 * casts with C types instead of u8/u32/... (the same types, see
 * <linux/types.h>) so it needs no typedef to be defined yet.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_LIMITS_H
#define _PP_LINUX_LIMITS_H

#include_next <linux/limits.h>

#define U8_MAX		((unsigned char)~0U)
#define S8_MAX		((signed char)(U8_MAX >> 1))
#define S8_MIN		((signed char)(-S8_MAX - 1))
#define U16_MAX		((unsigned short)~0U)
#define S16_MAX		((short)(U16_MAX >> 1))
#define S16_MIN		((short)(-S16_MAX - 1))
#define U32_MAX		((unsigned int)~0U)
#define U32_MIN		((unsigned int)0)
#define S32_MAX		((int)(U32_MAX >> 1))
#define S32_MIN		((int)(-S32_MAX - 1))
#define U64_MAX		((unsigned long long)~0ULL)
#define S64_MAX		((long long)(U64_MAX >> 1))
#define S64_MIN		((long long)(-S64_MAX - 1))
#define PHYS_ADDR_MAX	U64_MAX

#endif /* _PP_LINUX_LIMITS_H */
