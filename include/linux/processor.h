/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * cpu_relax(), the spin-wait hint, from the target's <asm/processor.h>;
 * and <asm/msr.h>, which kernel code reaches through the kernel's
 * <asm/processor.h> (its rdmsr "safe" accessors fail with -EIO on every
 * target here).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_PROCESSOR_H
#define _PP_LINUX_PROCESSOR_H

#include <asm/msr.h>
#include <asm/processor.h>

#endif
