/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The fuzz harness's reference operations: the extra references a driver
 * or the stack takes on a page it holds (get_page(), page_pool_ref_netmem())
 * and drops, and "the stack": references handed to it, which it frees
 * later, oldest first, from whatever context the caller is in.
 */
#include <linux/mm.h>
#include <net/page_pool/helpers.h>

#include "fuzz.h"

void fz_op_get_page(void)
{
	struct fz_page *e = fz_pick_free_ref(fz_u8());

	if (!e || netmem_is_net_iov(e->nm) || e->page_refs >= 4) {
		fz.t.skipped++;
		return;
	}
	get_page(netmem_to_page(e->nm));
	e->page_refs++;
}

void fz_op_put_page(void)
{
	uint8_t b = fz_u8();
	int i;

	for (i = 0; i < fz.nr_pages; i++) {
		struct fz_page *e = &fz.pages[(b + i) % fz.nr_pages];

		if (e->page_refs) {
			fz_drop_page_ref(e);
			return;
		}
	}
	fz.t.skipped++;
}

void fz_op_pp_ref(void)
{
	struct fz_page *e = fz_pick_free_ref(fz_u8());

	if (!e || e->refs >= 16) {
		fz.t.skipped++;
		return;
	}
	page_pool_ref_netmem(e->nm);
	e->refs++;
}

void fz_op_to_stack(void)
{
	struct fz_page *e = fz_pick_free_ref(fz_u8());

	if (!e || fz.stack_len == FZ_STACK) {
		fz.t.skipped++;
		return;
	}
	fz.stack[(fz.stack_head + fz.stack_len++) % FZ_STACK] = e->nm;
	e->stack_refs++;
}

/* The stack frees its oldest references, from whatever context the
 * caller is in, naming the pool the page says it belongs to. */
void fz_op_stack_return(void)
{
	int n = 1 + fz_u8() % 8;

	while (n-- && fz.stack_len) {
		netmem_ref nm = fz.stack[fz.stack_head];
		struct fz_page *e = fz_find(nm);

		fz.stack_head = (fz.stack_head + 1) % FZ_STACK;
		fz.stack_len--;
		e->stack_refs--;
		if (netmem_is_net_iov(nm)) {
			page_pool_put_full_netmem(netmem_get_pp(nm), nm, false);
		} else {
			struct page *page = netmem_to_page(nm);

			page_pool_put_full_page(page_pool_to_pp(page), page, false);
		}
		fz_drop_ref(e);
	}
	fz_settle_zombies();
}
