/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The fuzz harness's XDP operations, built when the XDP layer is (meson
 * defines PP_FUZZ_HAVE_XDP when include/net/xdp.h and src/xdp exist): a
 * slot's pool is registered as an RX queue's memory model (the pool gains
 * a user reference, so the driver's page_pool_destroy() no longer frees
 * it: the model keeps it alive, unscrubbed, until the unregistration),
 * unregistered (the last user destroys), held pages go back as XDP frames
 * through each return call, and the return path switches between the
 * page's pool and the mem-id lookup.
 */
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <net/page_pool/helpers.h>

#include "fuzz.h"

#ifdef PP_FUZZ_HAVE_XDP
/* Register an RX queue (queue 1: queue 0 carries the provider) with the
 * pool as its memory model: the pool gains a user reference. */
static void xdp_reg(struct fz_pool *r)
{
	int err;

	memset(&r->rxq, 0, sizeof(r->rxq));
	err = xdp_rxq_info_reg(&r->rxq, fz.netdev, 1, 0);
	if (err) {
		fz_fail(PPINV_API, "xdp_rxq_info_reg() = %d", err);
		return;
	}
	err = xdp_rxq_info_reg_mem_model(&r->rxq, MEM_TYPE_PAGE_POOL, r->pool);
	if (err) {
		if (!(fz.armed && err == -ENOMEM))
			fz_fail(PPINV_API, "xdp_rxq_info_reg_mem_model(pool %u) = %d", r->id, err);
		xdp_rxq_info_unreg(&r->rxq);
		return;
	}
	r->xdp_reg = true;
	fz.t.xdp_regs++;
}

/*
 * A held whole page with one page_pool reference and nobody else's, of a
 * pool with an XDP memory model (@active: and still active), searched from
 * @b, made an XDP frame in place (@xdp is its buffer): the frame, with
 * *@ep its page. NULL when there is none (the operation is counted as
 * skipped) or the conversion failed (reported).
 */
static struct xdp_frame *xdp_held_frame(uint8_t b, bool active, struct xdp_buff *xdp,
					 struct fz_page **ep)
{
	struct xdp_frame *xdpf;
	struct fz_page *e = NULL;
	struct fz_pool *r;
	int i;

	for (i = 0; i < fz.nr_pages && !e; i++) {
		struct fz_page *x = &fz.pages[(b + i) % fz.nr_pages];

		if (x->refs == 1 && !x->stack_refs && !x->page_refs && x->whole &&
		    !netmem_is_net_iov(x->nm) && fz.pools[x->rec].xdp_reg &&
		    (!active || fz.pools[x->rec].state == REC_ACTIVE))
			e = x;
	}
	if (!e) {
		fz.t.skipped++;
		return NULL;
	}
	r = &fz.pools[e->rec];
	xdp_init_buff(xdp, PAGE_SIZE << r->order, &r->rxq);
	xdp_prepare_buff(xdp, netmem_address(e->nm), 256, 64, false);
	xdpf = xdp_convert_buff_to_frame(xdp);
	if (!xdpf) {
		fz_fail(PPINV_API, "xdp_convert_buff_to_frame() refused a valid buffer");
		return NULL;
	}
	*ep = e;
	return xdpf;
}

/* A held whole page, as an XDP frame (XDP_REDIRECT or XDP_TX), given back
 * by one of the return calls. */
static void xdp_return(uint8_t b, uint8_t how)
{
	struct xdp_frame_bulk bq;
	struct xdp_frame *xdpf;
	struct xdp_buff xdp;
	struct fz_pool *r;
	struct fz_page *e;
	bool napi;
	int ri;

	xdpf = xdp_held_frame(b, false, &xdp, &e);
	if (!xdpf)
		return;
	ri = e->rec;
	r = &fz.pools[ri];
	/* The _rx_napi and buff calls are for the pool's own NAPI poll. */
	napi = fz_can_direct(r);
	switch (how % 4) {
	case 0:
		xdp_return_frame(xdpf);
		break;
	case 1:
		if (napi)
			xdp_return_frame_rx_napi(xdpf);
		else
			xdp_return_frame(xdpf);
		break;
	case 2:
		xdp_frame_bulk_init(&bq);
		rcu_read_lock();
		xdp_return_frame_bulk(xdpf, &bq);
		xdp_flush_frame_bulk(&bq);
		rcu_read_unlock();
		break;
	case 3:
		if (napi)
			xdp_return_buff(&xdp);
		else
			xdp_return_frame(xdpf);
		break;
	}
	fz.t.xdp_frames++;
	fz_drop_ref(e);
	fz_after_put(ri);
}

/* Misuse the hardening checks for (fuzz_misuse.c has the others). */

/*
 * A stale frame: made from a page of a pool registered as an RX queue's
 * memory model, then the page goes back, the queue unregisters and the
 * pool is destroyed - pool and mem id gone, the page free (pp_ref_count 1,
 * its struct page's pool word a free-list link now) - and the frame is
 * returned by one of the return calls. Reported and the page left alone:
 *   - the page still free: a WARN and not_pp_page in the direct
 *     generation, plus the unknown id's WARN with the mem-id lookup;
 *   - the page taken by another pool meanwhile (how & 4; the lookup
 *     generation, which can tell: the frame's id names nothing): the id's
 *     WARN and the refusal's (foreign_pool), the new holder's reference
 *     untouched. (The direct generation cannot tell such a frame from a
 *     live one: it trusts the page, as the kernel does - not fuzzed.)
 * All inside the operation, with pools and a queue of its own, so nothing
 * else takes the page meanwhile. The frame is a copy (as a driver's stale
 * descriptor would be): the original lives in the page, free memory now.
 */
static struct page_pool *xdp_temp_pool(void)
{
	struct page_pool_params pp = { .pool_size = 16, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	return IS_ERR_OR_NULL(pool) ? NULL : pool;
}

static void xdp_stale(uint8_t how)
{
	bool lookup = (how & 8) || (how & 4), other = how & 4;
	struct page *page, *got[160];
	struct xdp_frame_bulk bq;
	struct xdp_frame stale, *xdpf;
	struct xdp_rxq_info rxq;
	struct page_pool *pool, *b = NULL;
	struct xdp_buff xdp;
	int mode, n = 0, i, found = -1;

	/* Without the lookup generation the direct one returns the frame: it
	 * catches a page no pool owns, but cannot tell a stale frame whose
	 * page another pool took since (docs/XDP.md), so that case needs the
	 * lookup generation (meson -Ddesigns=all). */
	if (!IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP)) {
		if (other)
			goto skip;
		lookup = false;
	}
	/* And without the direct generation, every return looks up. */
	if (!IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_DIRECT))
		lookup = true;
	pool = xdp_temp_pool();
	if (!pool)
		goto skip;
	memset(&rxq, 0, sizeof(rxq));
	if (xdp_rxq_info_reg(&rxq, fz.netdev, 1, 0)) {
		page_pool_destroy(pool);
		goto skip;
	}
	if (xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, pool)) {
		xdp_rxq_info_unreg(&rxq);
		page_pool_destroy(pool);
		goto skip;
	}
	page = page_pool_dev_alloc_pages(pool);
	if (!page) {
		xdp_rxq_info_unreg(&rxq);
		page_pool_destroy(pool);
		goto skip;
	}
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(&xdp, page_address(page), 256, 64, false);
	xdpf = xdp_convert_buff_to_frame(&xdp);
	if (xdpf)
		stale = *xdpf;
	page_pool_put_full_page(pool, page, false);
	xdp_rxq_info_unreg(&rxq);
	page_pool_destroy(pool);
	fz_run_release();
	if (!xdpf) {
		fz_fail(PPINV_API, "xdp_convert_buff_to_frame() refused a valid buffer");
		return;
	}
	if (page_pool_page_is_pp(page)) {
		fz_fail(PPINV_PP_PAGE_LEFT, "page %#lx still a page_pool page after its pool went",
			(unsigned long)page_to_netmem(page));
		return;
	}
	if (other) {
		/* Another pool takes the page (a refill takes the page
		 * allocator's hottest pages: this one is among them). */
		b = xdp_temp_pool();
		for (n = 0; b && n < (int)ARRAY_SIZE(got); n++) {
			got[n] = page_pool_dev_alloc_pages(b);
			if (!got[n])
				break;
			if (got[n] == page) {
				found = n++;
				break;
			}
		}
		if (found < 0)
			goto out;
	}
	mode = pp_xdp_set_return_mode(lookup ? PP_XDP_RETURN_LOOKUP : PP_XDP_RETURN_DIRECT);
	switch (how % 3) {
	case 0:
		xdp_return_frame(&stale);
		break;
	case 1:
		xdp_frame_bulk_init(&bq);
		rcu_read_lock();
		xdp_return_frame_bulk(&stale, &bq);
		xdp_flush_frame_bulk(&bq);
		rcu_read_unlock();
		break;
	case 2:
		local_bh_disable();
		xdp_return_frame_rx_napi(&stale);
		local_bh_enable();
		break;
	}
	pp_xdp_set_return_mode(mode);
	ppinv_expect_warns(&fz.inv, lookup ? 2 : 1);
	ppinv_expect_misuse(&fz.inv, !other, other, 0);
	fz.t.misuse++;
	fz.t.misuse_ops[FZ_OP_XDP]++;
	if (other ? atomic_long_read(netmem_get_pp_ref_count_ref(page_to_netmem(page))) != 1 ||
		    page_pool_to_pp(page) != b :
		    page_ref_count(page) != 0 || page_pool_page_is_pp(page))
		fz_fail(PPINV_HELD_PAGE, "a stale XDP frame touched page %#lx (%s): refcount %d, pp %d",
			(unsigned long)page_to_netmem(page), other ? "another pool's" : "free",
			page_ref_count(page), page_pool_page_is_pp(page));
out:
	for (i = 0; i < n; i++)
		page_pool_put_full_page(b, got[i], false);
	if (b) {
		page_pool_destroy(b);
		fz_run_release();
	}
	return;
skip:
	fz.t.skipped++;
}

/* xdp_rxq_info_reg_mem_model() on a queue that has a memory model: refused
 * (an error and a WARN), and nothing changes - the first pool keeps its one
 * user reference (the unregistration later must free it: a second
 * reference or mem id left behind would keep the pool alive). */
static void xdp_reg_twice(uint8_t arg, uint8_t how)
{
	struct fz_pool *r = NULL, *other;
	int i, err;

	for (i = 0; i < FZ_MAX_POOLS && !r; i++) {
		struct fz_pool *x = &fz.pools[(arg + i) % FZ_MAX_POOLS];

		if (x->state != REC_FREE && x->xdp_reg)
			r = x;
	}
	if (!r) {
		fz.t.skipped++;
		return;
	}
	other = fz_slot_rec(how, NULL);
	if (!other || other->state != REC_ACTIVE || (how & 0x80))
		other = r;
	err = xdp_rxq_info_reg_mem_model(&r->rxq, MEM_TYPE_PAGE_POOL, other->pool);
	if (!err)
		fz_fail(PPINV_API, "xdp_rxq_info_reg_mem_model() on a registered queue (pool %u, then %u) succeeded",
			r->id, other->id);
	ppinv_expect_warns(&fz.inv, 1);
	fz.t.misuse++;
	fz.t.misuse_ops[FZ_OP_XDP]++;
}

/* The same frame twice in one xdp_frame_bulk: the flush puts the page in
 * one page_pool bulk twice - the second a pp_ref_count underflow,
 * reported (WARN, ref_underflow) and skipped. */
static void xdp_bulk_dup(uint8_t b)
{
	struct xdp_frame_bulk bq;
	struct xdp_frame *xdpf;
	struct xdp_buff xdp;
	struct fz_page *e;
	int ri;

	xdpf = xdp_held_frame(b, true, &xdp, &e);
	if (!xdpf)
		return;
	ri = e->rec;
	xdp_frame_bulk_init(&bq);
	rcu_read_lock();
	xdp_return_frame_bulk(xdpf, &bq);
	xdp_return_frame_bulk(xdpf, &bq);
	xdp_flush_frame_bulk(&bq);
	rcu_read_unlock();
	ppinv_expect_double_put(&fz.inv);
	fz.t.misuse++;
	fz.t.misuse_ops[FZ_OP_XDP]++;
	fz.t.xdp_frames++;
	fz_drop_ref(e);
	fz_after_put(ri);
}

/* XDP register/return: register a slot's pool as an
 * RX queue's memory model, unregister one (the last user destroys), return
 * a held page as a frame, or switch the return path (page's pool / mem-id
 * lookup); and the misuse above. Registration and unregistration sleep:
 * not in softirq. */
void fz_op_xdp(bool in_poll)
{
	uint8_t what = fz_u8(), arg = fz_u8(), how = fz_u8();
	struct fz_pool *r;
	int i;

	switch (what % 7) {
	case 0:
		r = fz_slot_rec(arg, NULL);
		if (in_poll || fz_in_softirq() || !r || r->xdp_reg)
			break;
		xdp_reg(r);
		return;
	case 1:
		if (in_poll || fz_in_softirq())
			break;
		for (i = 0; i < FZ_MAX_POOLS; i++) {
			int ri = (arg + i) % FZ_MAX_POOLS;

			if (fz.pools[ri].state != REC_FREE && fz.pools[ri].xdp_reg) {
				fz_xdp_unreg(ri);
				return;
			}
		}
		break;
	case 2:
		xdp_return(arg, how);
		return;
	case 3:
		pp_xdp_set_return_mode(how & 1 ? PP_XDP_RETURN_LOOKUP : PP_XDP_RETURN_DIRECT);
		return;
	case 4:
		/* (Creating and destroying pools: not in softirq.) */
		if (!fz_misuse_on(FZ_MU_STALE_XDP) || in_poll || fz_in_softirq())
			break;
		xdp_stale(how);
		return;
	case 5:
		if (!fz_misuse_on(FZ_MU_REG_TWICE) || in_poll || fz_in_softirq())
			break;
		xdp_reg_twice(arg, how);
		return;
	case 6:
		if (!fz_misuse_on(FZ_MU_XDP_BULK_DUP))
			break;
		xdp_bulk_dup(arg);
		return;
	}
	fz.t.skipped++;
}
#else
/* Built without the XDP layer: the operation consumes its arguments, so
 * corpora stay valid either way. */
void fz_op_xdp(bool in_poll)
{
	(void)in_poll;
	(void)fz_u8();
	(void)fz_u8();
	(void)fz_u8();
	fz.t.skipped++;
}
#endif

