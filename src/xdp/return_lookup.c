/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The lookup generation of the XDP return path, the kernel's up to v6.0:
 * the allocator is found by mem id in the RCU id -> allocator table
 * (ppxdp_mem_lookup(): pagepool's id table or rculfhash, whichever the
 * build has or pp_xdp_set_lookup_table() chose), inside rcu_read_lock();
 * bulk returns (v5.11-v6.13) keep the found allocator and flush whenever
 * the id changes. Compiled only in builds that have it (meson
 * -Dxdp_return=lookup, or -Ddesigns=all); entered from the exported calls
 * of return.c, under the contract written in xdp_internal.h.
 *
 * Memory orders: none of its own. A lookup's acquire loads are T0r/S0r
 * of the id table (xdp_internal.h) or H0r of mem_lfht.c; what they find
 * stays valid until rcu_read_unlock(), since entries are freed only after
 * a grace period.
 */
#include <linux/bottom_half.h>
#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>

#include "xdp/xdp_internal.h"

/*
 * An id with no allocator: the kernel would oops. Say so, and refuse the
 * netmem: reported as page_pool reports a put that names no pool (WARN,
 * misuse counter not_pp_page or foreign_pool, by
 * __page_pool_put_misdirected() with no pool), and the page is left
 * exactly as it is - never followed, never sent anywhere.
 *
 * Why not give it to the pool the page names? The id of a live pool's
 * registration is always found (its entries go only when the pool is
 * freed), so an unknown id means the frame is stale or made up: its pool
 * and id are gone, and its page is back in the page allocator - where
 * page->pp is a free-list link, which a return that followed it as a
 * pool would crash on (SIGSEGV) - or a second pool has since allocated
 * it, and sending it "home" would drop its new user's reference and hand
 * the page out twice (the ABA that page_pool itself refuses: a put whose
 * page another pool owns now). A caller who really held the page keeps
 * its reference and may put it to its pool.
 */
static noinline void xdp_return_unknown_id(netmem_ref netmem, u32 mem_id)
{
	WARN_ONCE(1, "xdp: return to unregistered mem id %u refused", mem_id);
	__page_pool_put_misdirected(NULL, netmem, -1, false);
}

/*
 * The old generation for a page_pool netmem (its head). Out of line: the
 * kernel of either generation has only one of the two paths in
 * __xdp_return(), and inlining this one beside the direct path made every
 * direct return save and restore three registers it does not use.
 * Entered by a tail jump.
 */
noinline void ppxdp_return_pp_lookup(netmem_ref netmem, u32 mem_id, bool napi_direct)
{
	struct xdp_mem_allocator *xa;

	rcu_read_lock();
	/* mem_id is valid, checked at registration */
	xa = ppxdp_mem_lookup(mem_id);
	napi_direct &= !xdp_return_frame_no_direct();
	if (likely(xa))
		page_pool_put_full_netmem(xa->page_pool, netmem, napi_direct);
	else
		xdp_return_unknown_id(netmem, mem_id);
	rcu_read_unlock();
}

/*
 * The old bulk: one allocator per bulk. Caller MUST hold one RCU read-side
 * section (or stay bh-disabled) across the whole bulk: bq->xa is kept
 * between calls.
 */
static noinline void xdp_bulk_new_allocator(struct xdp_frame_bulk *bq, u32 mem_id)
{
	WARN_ONCE(!rcu_read_lock_held() && !in_softirq(),
		  "xdp_return_frame_bulk() outside an RCU read-side section");
	xdp_flush_frame_bulk(bq);
	bq->xa = ppxdp_mem_lookup(mem_id);
}

/* Out of line, as ppxdp_return_pp_lookup() is, so that the direct path's
 * common case calls nothing and saves no registers. A frame's fragments
 * belong to its memory model, so they go into the same bulk. */
noinline void ppxdp_return_frame_bulk_lookup(struct xdp_frame *xdpf, struct xdp_frame_bulk *bq)
{
	const struct xdp_mem_allocator *xa;

	/* First: a bad count means bq->xa is garbage too. */
	ppxdp_bulk_make_room(bq);
	xa = bq->xa;
	if (unlikely(!xa || xdpf->mem_id != xa->mem.id)) {
		xdp_bulk_new_allocator(bq, xdpf->mem_id);
		/* An unknown id: refused as a single return refuses it (the
		 * mixed-pool flush would send each page to whatever pool it
		 * names now: see xdp_return_unknown_id()). */
		if (unlikely(!bq->xa)) {
			xdp_return_frame(xdpf);
			return;
		}
	}
	if (unlikely(xdp_frame_has_frags(xdpf))) {
		ppxdp_bulk_add_frags(xdpf, bq);
		ppxdp_bulk_make_room(bq);
	}
	bq->q[bq->count++] = ppxdp_bulk_netmem(xdpf->data);
}
