/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * smp_processor_id(): the calling thread's logical CPU id. A thread that has
 * not called pp_thread_register() is given a free id on first use.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_SMP_H
#define _PP_LINUX_SMP_H

#include <linux/compiler.h>
#include <linux/preempt.h>

#define NR_CPUS		256	/* == PP_NR_CPUS */

int __pp_cpu_lazy_register(void);

static inline int smp_processor_id(void)
{
	int cpu = __pp_ctx.cpu;

	if (unlikely(cpu < 0))
		cpu = __pp_cpu_lazy_register();
	return cpu;
}

#define raw_smp_processor_id()	smp_processor_id()
#define get_cpu()		({ preempt_disable(); smp_processor_id(); })
#define put_cpu()		preempt_enable()

#endif
