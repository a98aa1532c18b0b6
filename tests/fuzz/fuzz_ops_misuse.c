/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The fuzz harness's misuse operations for the mistakes page_pool has
 * always caught: a whole page put twice, a put naming another pool, a put
 * of a page no pool owns, allocation from and destroy of a destroyed pool.
 * Each must be reported (a WARN and its counter), corrupt nothing, and
 * lose nothing. The misuse the hardening added checks for is in
 * fuzz_misuse.c (and, for XDP, fuzz_xdp.c).
 */
#include <linux/mm.h>
#include <net/page_pool/helpers.h>

#include "fuzz.h"

void fz_op_double_put(void)
{
	uint8_t b = fz_u8(), how = fz_u8();
	struct fz_pool *r;
	struct fz_page *e = NULL;
	struct page_pool *pool;
	netmem_ref nm;
	bool back_in_pool;
	int i, ri;

	for (i = 0; i < fz.nr_pages && !e; i++) {
		struct fz_page *x = &fz.pages[(b + i) % fz.nr_pages];

		if (x->refs == 1 && !x->stack_refs && !x->page_refs && x->whole)
			e = x;
	}
	if (!e) {
		fz.t.skipped++;
		return;
	}
	ri = e->rec;
	r = &fz.pools[ri];
	pool = r->pool;
	nm = e->nm;
	page_pool_put_full_netmem(pool, nm, (how & 1) && fz_can_direct(r));
	fz_drop_ref(e);
	/* Back in the pool (cache or ring): a double put, found by the
	 * pool's owner. Given back to the page allocator or the provider: no
	 * pool's page. */
	back_in_pool = (READ_ONCE(__netmem_clear_lsb(nm)->pp_magic) & PP_MAGIC_MASK) == PP_SIGNATURE &&
		       netmem_get_pp(nm) == pool;
	page_pool_put_full_netmem(pool, nm, false);
	if (back_in_pool) {
		ppinv_expect_double_put(&fz.inv);
	} else {
		ppinv_expect_warns(&fz.inv, 1);
		ppinv_expect_misuse(&fz.inv, 1, 0, 0);
	}
	fz.t.misuse++;
	fz_after_put(ri);
}

void fz_op_wrong_pool(void)
{
	uint8_t b = fz_u8(), t = fz_u8();
	struct fz_page *e = fz_pick_free_ref(b);
	struct fz_pool *other = NULL;
	int i, ri;

	if (!e) {
		fz.t.skipped++;
		return;
	}
	ri = e->rec;
	for (i = 0; i < FZ_MAX_POOLS && !other; i++) {
		int x = (t + i) % FZ_MAX_POOLS;

		if (x != ri && fz.pools[x].state != REC_FREE)
			other = &fz.pools[x];
	}
	if (!other) {
		fz.t.skipped++;
		return;
	}
	page_pool_put_full_netmem(other->pool, e->nm, false);
	ppinv_expect_warns(&fz.inv, 1);
	ppinv_expect_misuse(&fz.inv, 0, 1, 0);
	fz.t.misuse++;
	/* Refused: nothing changes, the reference is still ours, and goes
	 * to the right pool later (a put that went "home" instead would,
	 * after an ABA, drop the reference of the page's new holder:
	 * FZ_OP_ABA). */
	fz.t.misuse_ops[FZ_OP_WRONG_POOL]++;
}

/* The @b-th (cyclically) pool that is alive, or destroyed and alive. */
static struct fz_pool *pick_alive(uint8_t b, bool destroyed_only)
{
	int i;

	for (i = 0; i < FZ_MAX_POOLS; i++) {
		struct fz_pool *r = &fz.pools[(b + i) % FZ_MAX_POOLS];

		/* (A destroyed pool that XDP still holds is not destroyed yet:
		 * allocating from it or destroying it is no misuse.) */
		if (destroyed_only ? r->state == REC_ZOMBIE && !r->xdp_reg : r->state != REC_FREE)
			return r;
	}
	return NULL;
}

void fz_op_stray_put(void)
{
	uint8_t b = fz_u8(), how = fz_u8();
	struct fz_pool *r = pick_alive(b, false);
	struct page *page;

	if (!r || !(page = alloc_page(GFP_ATOMIC | __GFP_NOWARN))) {
		fz.t.skipped++;
		return;
	}
	if (how & 1) {
		netmem_ref one = page_to_netmem(page);

		page_pool_put_netmem_bulk(&one, 1);
	} else {
		page_pool_put_full_page(r->pool, page, false);
	}
	ppinv_expect_warns(&fz.inv, 1);
	ppinv_expect_misuse(&fz.inv, 1, 0, 0);
	fz.t.misuse++;
	if (page_ref_count(page) != 1 || page_pool_page_is_pp(page))
		fz_fail(PPINV_API, "a stray page was touched by the put: refcount %d",
			page_ref_count(page));
	__free_page(page);
}

void fz_op_alloc_destroyed(void)
{
	struct fz_pool *r = pick_alive(fz_u8(), true);
	netmem_ref nm;

	if (!r) {
		fz.t.skipped++;
		return;
	}
	nm = page_pool_alloc_netmems(r->pool, GFP_ATOMIC | __GFP_NOWARN);
	ppinv_expect_warns(&fz.inv, 1);
	fz.t.misuse++;
	if (nm)
		fz_fail(PPINV_API, "destroyed pool %u handed out netmem %#lx", r->id,
			(unsigned long)nm);
}

void fz_op_destroy_again(void)
{
	struct fz_pool *r = pick_alive(fz_u8(), true);

	if (!r) {
		fz.t.skipped++;
		return;
	}
	page_pool_destroy(r->pool);
	ppinv_expect_warns(&fz.inv, 1);
	fz.t.misuse++;
}
