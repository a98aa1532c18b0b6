/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* CPU iteration. "Possible" CPUs are all NR_CPUS ids; "online" ones are the
 * ids that a live thread owns right now. Layer: runtime. */
#ifndef _PP_LINUX_CPUMASK_H
#define _PP_LINUX_CPUMASK_H

#include <linux/smp.h>
#include <stdbool.h>

#define nr_cpu_ids		NR_CPUS
#define num_possible_cpus()	NR_CPUS

bool cpu_online(int cpu);
unsigned int num_online_cpus(void);

#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#define for_each_online_cpu(cpu)					\
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)			\
		if (!cpu_online(cpu)) {} else

#endif
