/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * nodemask_t: a set of NUMA node ids, the kernel's type and the handful of
 * operations the page allocator's callers use (alloc_contig_pages()). One
 * bit per simulated node (MAX_NUMNODES). The operations are the kernel's
 * macros taking the mask itself (not a pointer), as in <linux/nodemask.h>.
 * The atomic bit operations of <linux/bitops.h>: a mask shared between
 * threads may be changed by one while others read it.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_NODEMASK_H
#define _PP_LINUX_NODEMASK_H

#include <linux/bitops.h>
#include <linux/numa.h>
#include <linux/types.h>

#define __PP_NODEMASK_LONGS	((MAX_NUMNODES + BITS_PER_LONG - 1) / BITS_PER_LONG)

typedef struct {
	unsigned long bits[__PP_NODEMASK_LONGS];
} nodemask_t;

_Static_assert(MAX_NUMNODES < BITS_PER_LONG, "NODE_MASK_ALL fills one word");

#define NODE_MASK_NONE	((nodemask_t){ .bits = { 0UL } })
#define NODE_MASK_ALL	((nodemask_t){ .bits = { (1UL << MAX_NUMNODES) - 1 } })

static inline void __node_set(int node, nodemask_t *dstp)
{
	set_bit(node, dstp->bits);
}

static inline void __node_clear(int node, nodemask_t *dstp)
{
	clear_bit(node, dstp->bits);
}

/* A node out of [0, MAX_NUMNODES) is never in a mask. */
static inline bool __node_isset(int node, const nodemask_t *srcp)
{
	return (unsigned int)node < MAX_NUMNODES && test_bit(node, srcp->bits);
}

static inline void __nodes_clear(nodemask_t *dstp)
{
	unsigned int i;

	for (i = 0; i < __PP_NODEMASK_LONGS; i++)
		dstp->bits[i] = 0;
}

#define node_set(node, dst)	__node_set((node), &(dst))
#define node_clear(node, dst)	__node_clear((node), &(dst))
#define node_isset(node, src)	__node_isset((node), &(src))
#define nodes_clear(dst)	__nodes_clear(&(dst))

#endif /* _PP_LINUX_NODEMASK_H */
