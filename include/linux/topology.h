/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * CPU to NUMA node. The memory map may be split into simulated nodes
 * (pp_mem_config.nr_nodes); logical CPU n then sits on node n % nr_nodes.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_TOPOLOGY_H
#define _PP_LINUX_TOPOLOGY_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/numa.h>
#include <linux/smp.h>

extern int __pp_nr_nodes;

static inline int cpu_to_node(int cpu)
{
	int nr = __atomic_load_n(&__pp_nr_nodes, __ATOMIC_RELAXED);

	return nr > 1 ? cpu % nr : 0;
}

static inline int numa_node_id(void)
{
	return cpu_to_node(smp_processor_id());
}

/* The node whose memory this CPU allocates from (no memoryless nodes here). */
static inline int numa_mem_id(void)
{
	return numa_node_id();
}

#define nr_node_ids	(__atomic_load_n(&__pp_nr_nodes, __ATOMIC_RELAXED))

#pragma GCC visibility pop
#endif
