/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* cpu_relax(): the spin-wait hint; and <asm/msr.h>, which kernel code
 * reaches through the kernel's <asm/processor.h>. Layer: runtime. */
#ifndef _PP_LINUX_PROCESSOR_H
#define _PP_LINUX_PROCESSOR_H

#include <asm/msr.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#endif
