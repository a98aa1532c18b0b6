/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * smp_processor_id(): the calling thread's logical CPU id. A thread that has
 * not called pp_thread_register() is given a free id on first use; when
 * none is free it runs on the shared CPU, __PP_CPU_SHARED (the design is in
 * <pagepool/runtime.h>). For such a thread the id, as the kernel's in
 * preemptible code, is only stable inside bottom-half-disabled regions and
 * softirq: per-CPU data it reaches through this_cpu_ptr() must be touched
 * there (the this_cpu_*() operations are safe anywhere).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_SMP_H
#define _PP_LINUX_SMP_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/compiler.h>
#include <linux/kconfig.h>
#include <linux/preempt.h>

/* The number of CPU ids: meson -Dnr_cpus (default 256), as the kernel's
 * NR_CPUS comes from CONFIG_NR_CPUS. == PP_NR_CPUS. */
#define NR_CPUS		CONFIG_NR_CPUS
/* The last id is the shared CPU of the threads past NR_CPUS - 1; never
 * owned by one thread. == PP_CPU_SHARED. */
#define __PP_CPU_SHARED	(NR_CPUS - 1)

/**
 * __pp_cpu_lazy_register() - smp_processor_id() of a thread without a CPU id
 *
 * Claims a free id, or runs the thread on the shared CPU (never an abort).
 *
 * Context: any context.
 * Return: the CPU id; __PP_CPU_SHARED on the shared CPU.
 */
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

#pragma GCC visibility pop
#endif
