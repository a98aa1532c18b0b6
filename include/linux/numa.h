/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* NUMA constants. Layer: runtime. */
#ifndef _PP_LINUX_NUMA_H
#define _PP_LINUX_NUMA_H

#define NUMA_NO_NODE	(-1)
#define MAX_NUMNODES	8	/* simulated nodes the memory map can be split into */

#endif
