/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Giving XDP memory back (the return half of the kernel's net/core/xdp.c):
 * the exported calls and the direct generation, the kernel's since v6.1
 * (commit fb33ec016b87, "xdp: improve page_pool xdp_return performance",
 * in its netmem form): the pool is read from the page; the pool cannot go
 * away under us because it is not freed while it has pages in flight, and
 * this page is one.
 *
 * The generation of up to v6.0 - the allocator found by mem id in an RCU
 * hash table - is in return_lookup.c, compiled when the build has it
 * (meson -Dxdp_return=lookup, or -Ddesigns=all). Where the two meet, and
 * what each may assume of the other, is written in xdp_internal.h. In a
 * build with one generation the calls below contain only that one; in an
 * all-designs build one static key chooses (pp_xdp_set_return_mode()),
 * so a benchmark compares both in the same binary with the same
 * page_pool code underneath, and the direct generation pays one predicted
 * branch for the choice.
 *
 * Every put goes through page_pool's put, which still lets
 * page_pool_napi_local() turn a non-direct return from the pool's own NAPI
 * context into a direct one.
 *
 * Multi-buffer frames and buffers (XDP_FLAGS_HAS_FRAGS) give back every
 * fragment, then the head, as the kernel does. Their paths are out of
 * line and entered by a tail jump, so a linear frame pays one test of its
 * flags and nothing else for them.
 *
 * Memory orders: none of its own. The lookup generation's are those of
 * the tables (xdp_internal.h, mem_lfht.c); __xdp_ri_kern_flags is per
 * thread.
 */
#include <linux/bottom_half.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>
#include <net/xdp.h>
#include <pagepool/xdp.h>

#include "xdp/xdp_internal.h"

/* Per thread, as the kernel's is per CPU (a thread is a CPU here). */
__thread u32 __xdp_ri_kern_flags __attribute__((tls_model("initial-exec")));

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

/* Below: memory said to be a page_pool's that no pool owns. */
static noinline void xdp_return_pp_without_pool(netmem_ref netmem, bool napi_direct);

/* The newest generation for a page_pool netmem. Caller passes the head
 * (netmem_compound_head(), or virt_to_netmem() which already is). */
static __always_inline void xdp_return_pp_direct(netmem_ref netmem, bool napi_direct)
{
	struct page_pool *pool = netmem_get_pp(netmem);
	/* The caller's, unmasked: a constant where this is inlined, so the
	 * branch below does not make the mask be computed before it. */
	bool caller_direct = napi_direct;

	if (napi_direct && xdp_return_frame_no_direct())
		napi_direct = false;
	/* The kernel trusts mem_type and skips the pp_magic check; we keep
	 * it (one load from pp's cache line): page_pool_put_netmem() catches
	 * a page no pool owns by its owner check, and this path has none. */
	if (unlikely(!netmem_is_pp(netmem) || !pool)) {
		xdp_return_pp_without_pool(netmem, caller_direct);
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
 * Memory said to be a page_pool's that no pool owns: a page the pool gave
 * back (to its user, or to the page allocator - a stale frame), or one
 * that never was a pool's. The kernel would follow page->pp, which is then
 * NULL or a free-list link. Reported as page_pool reports a put of such a
 * page - a WARN and the not_pp_page misuse counter, by
 * __page_pool_put_misdirected() with no pool, which touches nothing else -
 * and left alone. Never follows page->pp.
 *
 * But a page that backs a bound net_iov (<net/page_pool/memory_provider.h>)
 * is no page_pool's page while its net_iov is: the frame's data lies in
 * memory a provider pool handed out as that net_iov, which goes back to
 * the pool holding it as a page_pool page would (one no pool holds now -
 * a stale frame - is refused as a page is). @napi_direct: the caller's,
 * not yet masked by the no-direct flag (xdp_return_pp_direct() does it).
 */
static noinline void xdp_return_pp_without_pool(netmem_ref netmem, bool napi_direct)
{
	struct net_iov *niov = NULL;

	if (!netmem_is_net_iov(netmem))
		niov = pp_virt_to_net_iov(page_address(__netmem_to_page(netmem)));
	if (niov) {
		xdp_return_pp_direct(net_iov_to_netmem(niov), napi_direct);
		return;
	}
	pr_warn("xdp: MEM_TYPE_PAGE_POOL return of netmem %#lx, which no page_pool owns "
		"(a stale frame?): left alone\n", (unsigned long)netmem);
	__page_pool_put_misdirected(NULL, netmem, -1, false);
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
 * One netmem of memory model @mem, in the generation the build has, or
 * the return mode chose. @head: @netmem is known to be a compound head (virt_to_netmem()
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
			ppxdp_return_pp_lookup(netmem, mem->id, napi_direct);
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
 * A bulk whose count is past its capacity (or negative): never
 * initialised (xdp_frame_bulk_init() forgotten, stack garbage), or
 * overwritten. Adding at q[count] would write past the bulk and a flush
 * would read past it - pointers that are no netmems. Nothing in it can be
 * trusted, the cached allocator (bq->xa) neither: reported, and the bulk
 * starts empty; whatever it held is left alone.
 */
noinline void ppxdp_bulk_bad_count(struct xdp_frame_bulk *bq)
{
	WARN(1, "xdp_frame_bulk: count %d past its capacity %d (not initialised?): reset, "
	     "its contents left alone", bq->count, XDP_BULK_QUEUE_SIZE);
	bq->count = 0;
	bq->xa = NULL;
}

void __xdp_flush_frame_bulk_bad_count(struct xdp_frame_bulk *bq)
{
	ppxdp_bulk_bad_count(bq);
}

/* Queue a multi-buffer frame's fragments, flushing whenever the bulk is
 * full (the fragments do not hold the frame; its head is queued after). */
void ppxdp_bulk_add_frags(const struct xdp_frame *xdpf, struct xdp_frame_bulk *bq)
{
	const struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(xdpf);
	u32 i, nr_frags = sinfo->nr_frags;

	for (i = 0; i < nr_frags; i++) {
		ppxdp_bulk_make_room(bq);
		bq->q[bq->count++] = skb_frag_netmem(&sinfo->frags[i]);
	}
}

/* A full bulk: give it back, then start the next one with @netmem. */
static noinline void xdp_bulk_flush_then_add(struct xdp_frame_bulk *bq, netmem_ref netmem)
{
	ppxdp_bulk_flush_full(bq);
	bq->q[0] = netmem;
	bq->count = 1;
}

/* The direct generation's multi-buffer frame: fragments, then the head. */
static noinline void xdp_return_frame_bulk_frags(struct xdp_frame *xdpf,
						 struct xdp_frame_bulk *bq)
{
	netmem_ref head = ppxdp_bulk_netmem(xdpf->data);

	ppxdp_bulk_add_frags(xdpf, bq);
	ppxdp_bulk_make_room(bq);
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
		ppxdp_return_frame_bulk_lookup(xdpf, bq);
		return;
	}
	if (unlikely(xdp_frame_has_frags(xdpf))) {
		xdp_return_frame_bulk_frags(xdpf, bq);
		return;
	}
	/* Pools may be mixed: page_pool_put_netmem_bulk() sorts them out. */
	netmem = ppxdp_bulk_netmem(xdpf->data);
	/* Full, or past capacity (a bulk never initialised): out of line. */
	if (unlikely((u32)bq->count >= XDP_BULK_QUEUE_SIZE)) {
		xdp_bulk_flush_then_add(bq, netmem);
		return;
	}
	bq->q[bq->count++] = netmem;
}
