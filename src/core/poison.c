/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Use-after-recycle poisoning of page_pool netmems (CONFIG_PAGEPOOL_POISON,
 * meson -Dpoison): the two calls of the page-lifecycle hooks
 * (src/core/lifecycle.h, declared in src/core/poison.h), over the checker
 * the build chose (runtime/mem_poison.h: ASan's shadow or memcheck's
 * client requests).
 *
 * What a netmem's memory is, state by state:
 *   with a user (out)          accessible, all 2^order pages of it;
 *   home (alloc cache, ring,   poisoned: the putter gave it up, and the
 *   lanes, magazines, llist)   next user gets it only through an "out";
 *   released                   accessible for the instant between the
 *                              pool letting go and the page allocator
 *                              taking it (which poisons its free pages,
 *                              src/mm), or for good when someone else
 *                              still holds a reference to the page.
 * The pool itself never reads or writes a netmem's memory: its state is in
 * struct page (pp_magic, dma_addr, pp_ref_count, the llist link in
 * `private`), outside the page data, and the sync for device on recycle
 * happens before the put (the simulated DMA API moves no bytes for a
 * sync). A net_iov (memory provider) has no CPU address: nothing to do.
 *
 * Context: any thread (lifecycle.h: out on the consumer, in on any CPU that
 * puts, before the store that publishes the netmem); the caller owns the
 * netmem, so the pool outlives the call.
 * Layer: core.
 */
#include <linux/mm.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>

#include "core/poison.h"
#include "runtime/mem_poison.h"

/* The memory of @netmem (a page of @pool, 2^order pages), or NULL. */
static inline void *netmem_memory(const struct page_pool *pool, netmem_ref netmem,
				  size_t *len)
{
	if (netmem_is_net_iov(netmem))
		return NULL;
	*len = PAGE_SIZE << pool->p.order;
	return page_address(__netmem_to_page(netmem));
}

void ppcore_poison_netmem(struct page_pool *pool, netmem_ref netmem)
{
	size_t len;
	void *mem = netmem_memory(pool, netmem, &len);

	if (mem)
		pprt_poison(mem, len);
}

void ppcore_unpoison_netmem(struct page_pool *pool, netmem_ref netmem)
{
	size_t len;
	void *mem = netmem_memory(pool, netmem, &len);

	if (mem)
		pprt_unpoison(mem, len);
}
