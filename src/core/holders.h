/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Holder tracking (CONFIG_PAGEPOOL_HOLDERS): the lifecycle hooks' writers
 * of a page's owner record (struct ppmm_page_owner, one per struct page of
 * the arena, src/mm/mm_internal.h), and the walk that groups a pool's
 * inflight pages by take site (holders.c).
 *
 * Context: out on the pool's consumer, clear on whoever puts or releases
 * the page, handoff on its holder - one writer at a time per record, each
 * one ordered after the last by the page's own hand-over. The walk reads
 * every record racily (READ_ONCE; the pool pointer is stored last with
 * release and read with acquire, so a record seen held has its take's
 * fields, unless it is being retaken at that moment). net_iovs have no
 * record of their own: one of a bound area (pp_net_iov_area_bind_pages())
 * is tracked in the record of the page behind it, which no pool holds as a
 * page; the others are not tracked. The take time is the coarse clock's (the
 * tick's resolution, a few ms): a clock read per allocation cost more
 * than the rest of the tracking together.
 * Layer: core.
 */
#ifndef _PP_CORE_HOLDERS_H
#define _PP_CORE_HOLDERS_H

#include <linux/ktime.h>
#include <linux/smp.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"
#include "mm/mm_internal.h"

/* The record a netmem's holder is written in: a page's own; for a
 * net_iov, the record of the page that backs it in a bound area
 * (niov_pages.c), or none. */
static __always_inline struct ppmm_page_owner *ppcore_holder_record(netmem_ref netmem)
{
	if (netmem_is_net_iov(netmem)) {
		struct page *page = ppcore_net_iov_page(netmem_to_net_iov(netmem));

		return page ? ppmm_page_owner(page) : NULL;
	}
	return ppmm_page_owner(__netmem_to_page(netmem));
}

static __always_inline void ppcore_holder_out(struct page_pool *pool, netmem_ref netmem,
					      unsigned long ip)
{
	struct ppmm_page_owner *o = ppcore_holder_record(netmem);

	if (!o)
		return;
	WRITE_ONCE(o->take_ip, ip);
	WRITE_ONCE(o->handoff_ip, 0UL);
	WRITE_ONCE(o->take_ns, ktime_get_coarse_ns());
	WRITE_ONCE(o->cpu, (long)smp_processor_id());
	smp_store_release(&o->pool, (void *)pool);
}

/* Home, or back to the page allocator: no holder. */
static __always_inline void ppcore_holder_clear(netmem_ref netmem)
{
	struct ppmm_page_owner *o = ppcore_holder_record(netmem);

	if (o)
		WRITE_ONCE(o->pool, NULL);
}

static __always_inline void ppcore_holder_handoff(netmem_ref netmem, unsigned long ip)
{
	struct ppmm_page_owner *o = ppcore_holder_record(netmem);

	if (o && READ_ONCE(o->pool))
		WRITE_ONCE(o->handoff_ip, ip);
}

/* The stalled-destroy warning's lines (release.c): @pool's holders, one
 * line per group, biggest first, at most 8 and "... N more". */
void ppcore_holders_warn(struct page_pool *pool);

#endif /* _PP_CORE_HOLDERS_H */
