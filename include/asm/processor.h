/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * cpu_relax(), the spin-wait hint, as the kernel's arch <asm/processor.h>:
 * x86-64's rep_nop(), i.e. pause (it lets the sibling hyperthread run and
 * avoids the memory-order mis-speculation when the awaited store lands);
 * arm64's yield (with the kernel's "memory" clobber; x86-64's builtin is
 * a volatile operation the compiler keeps in place, and the loops that
 * spin on it re-read what they wait for with READ_ONCE()).
 * <asm/target.h> checks that the compiler's target is the library's.
 * Layer: runtime.
 */
#ifndef _PP_ASM_PROCESSOR_H
#define _PP_ASM_PROCESSOR_H

#include <asm/target.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

#endif /* _PP_ASM_PROCESSOR_H */
