/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page_pool fuzz harness, part three: the XDP operations (DESIGN.md
 * section 6), built when the XDP layer is (meson defines PP_FUZZ_HAVE_XDP
 * when include/net/xdp.h and src/xdp exist). A slot's pool is registered
 * as an RX queue's memory model (the pool gains a user reference, so the
 * driver's page_pool_destroy() no longer frees it: the model keeps it
 * alive, unscrubbed, until the unregistration), unregistered (the last
 * user destroys), held pages go back as XDP frames through each return
 * call, and the return path switches between the page's pool and the
 * mem-id lookup.
 */
#include <string.h>

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

/* A held whole page, as an XDP frame (XDP_REDIRECT or XDP_TX), given back
 * by one of the return calls. */
static void xdp_return(uint8_t b, uint8_t how)
{
	struct xdp_frame_bulk bq;
	struct xdp_frame *xdpf;
	struct xdp_buff xdp;
	struct fz_pool *r;
	struct fz_page *e = NULL;
	bool napi;
	int i, ri;

	for (i = 0; i < fz.nr_pages && !e; i++) {
		struct fz_page *x = &fz.pages[(b + i) % fz.nr_pages];

		if (x->refs == 1 && !x->stack_refs && !x->page_refs && x->whole &&
		    !netmem_is_net_iov(x->nm) && fz.pools[x->rec].xdp_reg)
			e = x;
	}
	if (!e) {
		fz.t.skipped++;
		return;
	}
	ri = e->rec;
	r = &fz.pools[ri];
	xdp_init_buff(&xdp, PAGE_SIZE << r->order, &r->rxq);
	xdp_prepare_buff(&xdp, netmem_address(e->nm), 256, 64, false);
	xdpf = xdp_convert_buff_to_frame(&xdp);
	if (!xdpf) {
		fz_fail(PPINV_API, "xdp_convert_buff_to_frame() refused a valid buffer");
		return;
	}
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

/* XDP register/return (DESIGN.md section 6): register a slot's pool as an
 * RX queue's memory model, unregister one (the last user destroys), return
 * a held page as a frame, or switch the return path (page's pool / mem-id
 * lookup). Registration and unregistration sleep: not in softirq. */
void fz_op_xdp(bool in_poll)
{
	uint8_t what = fz_u8(), arg = fz_u8(), how = fz_u8();
	struct fz_pool *r;
	int i;

	switch (what % 4) {
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

