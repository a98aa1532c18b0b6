/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Use-after-recycle poisoning (CONFIG_PAGEPOOL_POISON, meson -Dpoison):
 * the two calls the page-lifecycle hooks make (src/core/lifecycle.h). A
 * netmem that comes home to its pool (alloc cache, ring, lanes, magazines,
 * llist) is poisoned, so a user that touches it after its put faults at
 * that instruction under ASan (or valgrind); it is unpoisoned when it
 * leaves the pool again - to a user, or back to the page allocator.
 *
 * Context: the hook's (lifecycle.h): out and release on the pool's consumer
 * or the releasing context, in on any CPU that puts the netmem. Both
 * functions touch only @netmem's memory (its page data), never pool state
 * shared with other CPUs. A net_iov has no CPU address: nothing to do.
 * Only declared here; defined by the poisoning build's own file, and never
 * called unless CONFIG_PAGEPOOL_POISON is set.
 * Layer: core.
 */
#ifndef _PP_CORE_POISON_H
#define _PP_CORE_POISON_H

#include <net/netmem.h>
#include <net/page_pool/types.h>

/* @netmem came home: make its memory inaccessible. */
void ppcore_poison_netmem(struct page_pool *pool, netmem_ref netmem);
/* @netmem leaves the pool (to a user or the page allocator): accessible again. */
void ppcore_unpoison_netmem(struct page_pool *pool, netmem_ref netmem);

#endif /* _PP_CORE_POISON_H */
