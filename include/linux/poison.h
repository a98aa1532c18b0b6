/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Poison values. POISON_POINTER_DELTA is the target's
 * CONFIG_ILLEGAL_POINTER_VALUE (<asm/poison.h>: 0xdead000000000000 on
 * x86-64 and arm64), 0 where the architecture has none, as the kernel's:
 * an address no load can reach, so a poisoned pointer faults when
 * dereferenced and can never be mistaken for a real userspace pointer
 * (which is what makes pp_magic unambiguous even though it shares its
 * word with a list pointer, see linux/mm_types.h and linux/mm.h).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_POISON_H
#define _PP_LINUX_POISON_H

#include <asm/poison.h>

#ifdef ILLEGAL_POINTER_VALUE
#define POISON_POINTER_DELTA	ILLEGAL_POINTER_VALUE
#else
#define POISON_POINTER_DELTA	0UL
#endif

#define LIST_POISON1		((void *)(0x100 + POISON_POINTER_DELTA))
#define LIST_POISON2		((void *)(0x122 + POISON_POINTER_DELTA))

/* The page_pool signature kept in page->pp_magic. */
#define PP_SIGNATURE		(0x40 + POISON_POINTER_DELTA)

#endif
