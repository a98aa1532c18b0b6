/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * ILLEGAL_POINTER_VALUE: the target's CONFIG_ILLEGAL_POINTER_VALUE, the
 * offset <linux/poison.h> adds to its poison pointers (POISON_POINTER_DELTA)
 * and that PP_SIGNATURE, the page_pool mark in page->pp_magic, carries.
 * The kernel sets it per architecture in Kconfig: arch/x86/Kconfig
 * "default 0xdead000000000000 if X86_64" (0 on 32-bit x86), arch/arm64/
 * Kconfig "default 0xdead000000000000". An architecture without it has a
 * delta of 0 (<linux/poison.h>).
 *
 * Why it is safe as a poison on both: on x86-64 it is non-canonical (bits
 * 63..47 not all equal, with 4- and 5-level paging alike), so a load
 * through a poisoned pointer faults. On arm64, Linux runs EL0 with top-byte
 * ignore (TCR_EL1.TBI0): a data access disregards bits 63..56, so the CPU
 * sees 0x00ad000000000000. Bit 55 is set, which selects the upper (TTBR1)
 * half, whose addresses need bits 54..VA_BITS all ones for any VA_BITS of
 * 39 to 52, and 0xad's bits 54..48 (0101101) are not: a translation fault,
 * SIGSEGV, as without TBI; and an EL0 access to the upper half would fault
 * anyway. TBI also means a user pointer may carry a tag in its top byte
 * (HWASan, MTE), but bits 55..48 of an EL0 address are always 0 and
 * PP_SIGNATURE has 0xad there, which PP_MAGIC_MASK keeps: no pointer,
 * tagged or not, reads as a page_pool mark.
 * <asm/target.h> checks that the compiler's target is the library's.
 * Layer: runtime.
 */
#ifndef _PP_ASM_POISON_H
#define _PP_ASM_POISON_H

#include <asm/target.h>

#if defined(__x86_64__)
#define ILLEGAL_POINTER_VALUE	0xdead000000000000UL
#elif defined(__aarch64__)
#define ILLEGAL_POINTER_VALUE	0xdead000000000000UL
#endif

#endif /* _PP_ASM_POISON_H */
