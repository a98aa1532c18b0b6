/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The model-specific register accessors' "safe" forms, over the system's
 * UAPI <asm/msr.h> (the msr driver's ioctl numbers, x86 only). A program
 * cannot execute rdmsr; the *_safe() forms exist because the instruction
 * may fault, and fail with -EIO then, so here they always fail that way.
 * Kernel benchmark headers reference them (time_bench.h's msr_inst()).
 * Layer: runtime.
 */
#ifndef _PP_ASM_MSR_H
#define _PP_ASM_MSR_H

#if defined(__has_include_next)
#if __has_include_next(<asm/msr.h>)
#include_next <asm/msr.h>
#endif
#endif

#include <errno.h>

/* Read MSR @msr into *@p. Returns -EIO (no MSR access here); *@p is 0. */
static inline int rdmsrq_safe(unsigned int msr, unsigned long long *p)
{
	(void)msr;
	*p = 0;
	return -EIO;
}

/* The name of rdmsrq_safe() before v6.16. */
static inline int rdmsrl_safe(unsigned int msr, unsigned long long *p)
{
	return rdmsrq_safe(msr, p);
}

/* Write @val to MSR @msr. Returns -EIO (no MSR access here). */
static inline int wrmsrq_safe(unsigned int msr, unsigned long long val)
{
	(void)msr;
	(void)val;
	return -EIO;
}

#define wrmsrl_safe(msr, val)	wrmsrq_safe(msr, val)

#endif /* _PP_ASM_MSR_H */
