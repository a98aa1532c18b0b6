/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Giving XDP memory back (the return half of the kernel's net/core/xdp.c),
 * in two generations selected at run time (pp_xdp_set_return_mode()):
 *
 *   direct (v6.1+, the seed fb33ec016b87, in its netmem form): the pool is
 *     read from the page; the pool cannot go away under us because it is
 *     not freed while it has pages in flight, and this page is one.
 *   lookup (up to v6.0): the allocator is found by mem id in the RCU hash
 *     table, inside rcu_read_lock(); bulk returns (v5.11-v6.13) keep the
 *     found allocator and flush whenever the id changes.
 *
 * Both paths are compiled into each exported function and chosen by one
 * static key, so a benchmark compares them in the same binary with the
 * same page_pool code underneath; the direct mode pays one predicted
 * branch for the choice.
 *
 * Every put goes through page_pool_put_full_*(), which still checks the
 * page against the pool it is given and lets page_pool_napi_local() turn a
 * non-direct return from the pool's own NAPI context into a direct one.
 *
 * Multi-buffer frames and buffers (XDP_FLAGS_HAS_FRAGS) give back every
 * fragment, then the head, as the kernel does. Their paths are out of
 * line and entered by a tail jump, so a linear frame pays one test of its
 * flags and nothing else for them.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <pagepool/xdp.h>

#include "xdp/xdp_internal.h"

/* Per thread, as the kernel's is per CPU (a thread is a CPU here). */
__thread u32 __xdp_ri_kern_flags __attribute__((tls_model("initial-exec")));

DEFINE_STATIC_KEY_FALSE(ppxdp_return_lookup);

int pp_xdp_set_return_mode(int mode)
{
	int old = pp_xdp_get_return_mode();

	switch (mode) {
	case PP_XDP_RETURN_DIRECT:
		static_branch_disable(&ppxdp_return_lookup);
		break;
	case PP_XDP_RETURN_LOOKUP:
		static_branch_enable(&ppxdp_return_lookup);
		break;
	default:
		return -EINVAL;
	}
	return old;
}

int pp_xdp_get_return_mode(void)
{
	return static_key_enabled(&ppxdp_return_lookup) ? PP_XDP_RETURN_LOOKUP
							 : PP_XDP_RETURN_DIRECT;
}

__attribute__((constructor)) static void ppxdp_return_mode_init(void)
{
	const char *env = getenv("PAGEPOOL_XDP_RETURN");

	if (env && !strcmp(env, "lookup"))
		pp_xdp_set_return_mode(PP_XDP_RETURN_LOOKUP);
	env = getenv("PAGEPOOL_XDP_TABLE");
	if (env && !strcmp(env, "rculfhash"))
		pp_xdp_set_lookup_table(PP_XDP_TABLE_RCULFHASH);
}

/* Memory that is not a page_pool's: the same in both generations. */
static __always_inline void xdp_return_other(netmem_ref netmem, enum xdp_mem_type mem_type)
{
	switch (mem_type) {
	case MEM_TYPE_PAGE_SHARED:
		/* page_frag_free(): a reference on the head page. */
		put_page(netmem_to_page(netmem_compound_head(netmem)));
		break;
	case MEM_TYPE_PAGE_ORDER0:
		put_page(netmem_to_page(netmem));
		break;
	case MEM_TYPE_XSK_BUFF_POOL:
		/* xsk_buff_free(): no AF_XDP buffer pool in this library. */
		XDP_WARN("MEM_TYPE_XSK_BUFF_POOL memory cannot be returned here");
		break;
	default:
		/* Not possible, checked at registration */
		WARN(1, "Incorrect XDP memory type (%d) usage", mem_type);
		break;
	}
}

/*
 * Memory said to be a page_pool's that no pool owns: a page the pool gave
 * back (to its user, or to the page allocator - a stale frame), or one
 * that never was a pool's. The kernel would follow page->pp, which is then
 * NULL or a free-list link. Reported as page_pool reports a put of such a
 * page - a WARN and the not_pp_page misuse counter, by
 * __page_pool_put_misdirected() with no pool, which touches nothing else -
 * and left alone. Never follows page->pp.
 */
static noinline void xdp_return_pp_without_pool(netmem_ref netmem)
{
	pr_warn("xdp: MEM_TYPE_PAGE_POOL return of netmem %#lx, which no page_pool owns "
		"(a stale frame?): left alone\n", (unsigned long)netmem);
	__page_pool_put_misdirected(NULL, netmem, -1, false);
}

/* The newest generation for a page_pool netmem. Caller passes the head
 * (netmem_compound_head(), or virt_to_netmem() which already is). */
static __always_inline void xdp_return_pp_direct(netmem_ref netmem, bool napi_direct)
{
	struct page_pool *pool = netmem_get_pp(netmem);

	if (napi_direct && xdp_return_frame_no_direct())
		napi_direct = false;
	/* The seed trusts mem_type and skips the pp_magic check; we keep it
	 * (one load from pp's cache line): page_pool_put_netmem() catches a
	 * page no pool owns by its owner check, and this path has none. */
	if (unlikely(!netmem_is_pp(netmem) || !pool)) {
		xdp_return_pp_without_pool(netmem);
		return;
	}
	/* page_pool_put_full_netmem() past its owner check: the pool was
	 * read from the netmem, there is nothing to compare. */
	if (!page_pool_unref_and_test(netmem))
		return;
	if (napi_direct && __page_pool_recycle_in_cache(pool, netmem))
		return;
	__page_pool_put_unrefed_netmem(pool, netmem, -1, napi_direct);
}

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
 * page->pp is a free-list link, which the kernel-derived code used to
 * follow as a pool (issue 12, finding 1: SIGSEGV) - or a second pool has
 * since allocated it, and sending it "home" would drop its new user's
 * reference and hand the page out twice (the ABA that page_pool itself
 * now refuses, finding 6). A caller who really held the page keeps its
 * reference and may put it to its pool.
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
static noinline void xdp_return_pp_lookup(netmem_ref netmem, u32 mem_id, bool napi_direct)
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

void __xdp_return(netmem_ref netmem, enum xdp_mem_type mem_type, bool napi_direct,
		  struct xdp_buff *xdp)
{
	(void)xdp;
	if (likely(mem_type == MEM_TYPE_PAGE_POOL))
		xdp_return_pp_direct(netmem_compound_head(netmem), napi_direct);
	else
		xdp_return_other(netmem, mem_type);
}

/*
 * One netmem of memory model @mem, in the generation the return mode
 * chose. @head: @netmem is known to be a compound head (virt_to_netmem()
 * of a linear part); a fragment's may be any page of a compound one. The
 * id is read only by the old generation, so the direct one never loads
 * it.
 */
static __always_inline void xdp_return_netmem(netmem_ref netmem, bool head,
					      const struct xdp_mem_info *mem,
					      bool napi_direct)
{
	enum xdp_mem_type mem_type = (enum xdp_mem_type)mem->type;

	if (likely(mem_type == MEM_TYPE_PAGE_POOL)) {
		if (!head)
			netmem = netmem_compound_head(netmem);
		if (ppxdp_return_lookup_on())
			xdp_return_pp_lookup(netmem, mem->id, napi_direct);
		else
			xdp_return_pp_direct(netmem, napi_direct);
		return;
	}
	xdp_return_other(netmem, mem_type);
}

static __always_inline void xdp_return_data(void *data, const struct xdp_mem_info *mem,
					    bool napi_direct)
{
	xdp_return_netmem(virt_to_netmem(data), true, mem, napi_direct);
}

/* Every fragment of @sinfo. @mem is the caller's copy: a fragment may
 * share the head's page, and the frame that holds the memory model lives
 * there. */
static noinline void xdp_return_frags(const struct skb_shared_info *sinfo,
				      const struct xdp_mem_info *mem, bool napi_direct)
{
	u32 i, nr_frags = sinfo->nr_frags;

	for (i = 0; i < nr_frags; i++)
		xdp_return_netmem(skb_frag_netmem(&sinfo->frags[i]), false, mem, napi_direct);
}

/* A multi-buffer frame: the fragments (read from the skb_shared_info at
 * the end of the head's buffer, so before the head goes), then the head. */
static noinline void xdp_return_frame_frags(struct xdp_frame *xdpf, bool napi_direct)
{
	struct xdp_mem_info mem = xdpf->mem;
	void *data = xdpf->data;

	xdp_return_frags(xdp_get_shared_info_from_frame(xdpf), &mem, napi_direct);
	xdp_return_data(data, &mem, napi_direct);
}

void xdp_return_frame(struct xdp_frame *xdpf)
{
	if (unlikely(xdp_frame_has_frags(xdpf))) {
		xdp_return_frame_frags(xdpf, false);
		return;
	}
	xdp_return_data(xdpf->data, &xdpf->mem, false);
}

void xdp_return_frame_rx_napi(struct xdp_frame *xdpf)
{
	if (unlikely(xdp_frame_has_frags(xdpf))) {
		xdp_return_frame_frags(xdpf, true);
		return;
	}
	xdp_return_data(xdpf->data, &xdpf->mem, true);
}

static noinline void xdp_return_buff_frags(struct xdp_buff *xdp)
{
	struct xdp_mem_info mem = xdp->rxq->mem;

	xdp_return_frags(xdp_get_shared_info_from_buff(xdp), &mem, true);
	xdp_return_data(xdp->data, &mem, true);
}

void xdp_return_buff(struct xdp_buff *xdp)
{
	const struct xdp_rxq_info *rxq = xdp->rxq;

	if (unlikely(rxq->mem.type == MEM_TYPE_XSK_BUFF_POOL)) {
		XDP_WARN("MEM_TYPE_XSK_BUFF_POOL memory cannot be returned here");
		return;
	}
	if (unlikely(xdp_buff_has_frags(xdp))) {
		xdp_return_buff_frags(xdp);
		return;
	}
	xdp_return_data(xdp->data, &rxq->mem, true);
}

void xdp_return_frag(netmem_ref netmem, const struct xdp_buff *xdp)
{
	xdp_return_netmem(netmem, false, &xdp->rxq->mem, true);
}

/*
 * What a bulk queues for a frame's head: the page of its data, not yet its
 * compound head - page_pool_put_netmem_bulk() takes any page of a compound
 * netmem (as it must for fragments) and finds the head itself, so finding
 * it here too would cost the bulk add four instructions for nothing.
 */
static __always_inline netmem_ref xdp_bulk_netmem(const void *data)
{
	return page_to_netmem(virt_to_page(data));
}

/*
 * A bulk whose count is past its capacity (or negative): never
 * initialised (xdp_frame_bulk_init() forgotten, stack garbage), or
 * overwritten. Adding at q[count] would write past the bulk and a flush
 * would read past it - pointers that are no netmems. Nothing in it can be
 * trusted, the cached allocator (bq->xa) neither: reported, and the bulk
 * starts empty; whatever it held is left alone.
 */
static noinline void xdp_bulk_bad_count(struct xdp_frame_bulk *bq)
{
	WARN(1, "xdp_frame_bulk: count %d past its capacity %d (not initialised?): reset, "
	     "its contents left alone", bq->count, XDP_BULK_QUEUE_SIZE);
	bq->count = 0;
	bq->xa = NULL;
}

void __xdp_flush_frame_bulk_bad_count(struct xdp_frame_bulk *bq)
{
	xdp_bulk_bad_count(bq);
}

/* Give back a bulk whose count is at least its capacity: full, or bad
 * (reset). The put is of exactly XDP_BULK_QUEUE_SIZE, which costs no
 * more than xdp_flush_frame_bulk()'s empty test and count reload. */
static __always_inline void xdp_bulk_flush_full(struct xdp_frame_bulk *bq)
{
	if (unlikely(bq->count != XDP_BULK_QUEUE_SIZE)) {
		xdp_bulk_bad_count(bq);
		return;
	}
	page_pool_put_netmem_bulk(bq->q, XDP_BULK_QUEUE_SIZE);
	bq->count = 0;
}

/* Room for one more netmem: a full bulk is flushed, a bad one reset.
 * Unsigned, so a negative count is past capacity too (and the compare
 * costs what the kernel's == does). */
static __always_inline void xdp_bulk_make_room(struct xdp_frame_bulk *bq)
{
	if (unlikely((u32)bq->count >= XDP_BULK_QUEUE_SIZE))
		xdp_bulk_flush_full(bq);
}

/* Queue a multi-buffer frame's fragments, flushing whenever the bulk is
 * full (the fragments do not hold the frame; its head is queued after). */
static void xdp_bulk_add_frags(const struct xdp_frame *xdpf, struct xdp_frame_bulk *bq)
{
	const struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(xdpf);
	u32 i, nr_frags = sinfo->nr_frags;

	for (i = 0; i < nr_frags; i++) {
		xdp_bulk_make_room(bq);
		bq->q[bq->count++] = skb_frag_netmem(&sinfo->frags[i]);
	}
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

/* Out of line, as xdp_return_pp_lookup() is, so that the direct path's
 * common case below calls nothing and saves no registers. A frame's
 * fragments belong to its memory model, so they go into the same bulk. */
static noinline void xdp_return_frame_bulk_lookup(struct xdp_frame *xdpf,
						  struct xdp_frame_bulk *bq)
{
	const struct xdp_mem_allocator *xa;

	/* First: a bad count means bq->xa is garbage too. */
	xdp_bulk_make_room(bq);
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
		xdp_bulk_add_frags(xdpf, bq);
		xdp_bulk_make_room(bq);
	}
	bq->q[bq->count++] = xdp_bulk_netmem(xdpf->data);
}

/* A full bulk: give it back, then start the next one with @netmem. */
static noinline void xdp_bulk_flush_then_add(struct xdp_frame_bulk *bq, netmem_ref netmem)
{
	xdp_bulk_flush_full(bq);
	bq->q[0] = netmem;
	bq->count = 1;
}

/* The direct generation's multi-buffer frame: fragments, then the head. */
static noinline void xdp_return_frame_bulk_frags(struct xdp_frame *xdpf,
						 struct xdp_frame_bulk *bq)
{
	netmem_ref head = xdp_bulk_netmem(xdpf->data);

	xdp_bulk_add_frags(xdpf, bq);
	xdp_bulk_make_room(bq);
	bq->q[bq->count++] = head;
}

void xdp_return_frame_bulk(struct xdp_frame *xdpf, struct xdp_frame_bulk *bq)
{
	netmem_ref netmem;

	if (unlikely(xdpf->mem_type != MEM_TYPE_PAGE_POOL)) {
		xdp_return_frame(xdpf);
		return;
	}
	if (ppxdp_return_lookup_on()) {
		xdp_return_frame_bulk_lookup(xdpf, bq);
		return;
	}
	if (unlikely(xdp_frame_has_frags(xdpf))) {
		xdp_return_frame_bulk_frags(xdpf, bq);
		return;
	}
	/* Pools may be mixed: page_pool_put_netmem_bulk() sorts them out. */
	netmem = xdp_bulk_netmem(xdpf->data);
	/* Full, or past capacity (a bulk never initialised): out of line. */
	if (unlikely((u32)bq->count >= XDP_BULK_QUEUE_SIZE)) {
		xdp_bulk_flush_then_add(bq, netmem);
		return;
	}
	bq->q[bq->count++] = netmem;
}
