/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A stale XDP frame - its page already given back, its pool
 * destroyed and freed, its mem id unregistered - returned with the lookup
 * generation of __xdp_return(): xdp_return_unknown_id() followed the free
 * page's page->pp (a free-list link) as a pool and crashed (UBSan:
 * misaligned struct page_pool access; SIGSEGV without it). Now, in both
 * generations and by every return call, such a page is reported - a WARN
 * and the not_pp_page misuse counter, plus the unknown id's WARN in the
 * lookup generation - and left alone: the page allocator's free page count
 * does not move, nothing is unmapped twice.
 *
 * And when a second pool has since allocated the stale frame's page, the
 * lookup generation - which can tell, the frame's id names nothing - no
 * longer sends it to that pool (dropping its new user's reference, so the
 * pool handed the page out twice): refused, page untouched. (The direct
 * generation cannot tell such a frame from a live one: it trusts the page,
 * as the kernel does.)
 */
#include "xdp_hard.h"

enum call { C_FRAME, C_RX_NAPI, C_BULK, C_BUFF, C_FRAG, C_NR };

static const char *const call_name[C_NR] = {
	"xdp_return_frame", "xdp_return_frame_rx_napi", "xdp_return_frame_bulk",
	"xdp_return_buff", "xdp_return_frag",
};

/* Return @stale (a copy: the frame lives in the page, which is free now)
 * once by @call. */
static void return_by(const struct xdp_frame *stale, enum call call)
{
	struct xdp_frame copy = *stale;
	struct xdp_rxq_info rxq = { .mem = stale->mem };
	struct xdp_frame_bulk bq;
	struct xdp_buff xdp;

	/* What the driver's buffer looked like: the queue's memory model
	 * is the stale one. */
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(&xdp, (unsigned char *)stale->data - XH_HEADROOM, XH_HEADROOM, XH_LEN, true);

	local_bh_disable();		/* the _rx_napi, buff and frag calls' context */
	switch (call) {
	case C_FRAME:
		xdp_return_frame(&copy);
		break;
	case C_RX_NAPI:
		xdp_return_frame_rx_napi(&copy);
		break;
	case C_BULK:
		xdp_frame_bulk_init(&bq);
		rcu_read_lock();
		xdp_return_frame_bulk(&copy, &bq);
		xdp_flush_frame_bulk(&bq);
		rcu_read_unlock();
		break;
	case C_BUFF:
		xdp_return_buff(&xdp);
		break;
	case C_FRAG:
		xdp_return_frag(virt_to_netmem(stale->data), &xdp);
		break;
	default:
		fail();
	}
	local_bh_enable();
}

/* Every return call in both generations: reported, nothing moves. */
static void return_stale_every_way(const struct xdp_frame *stale)
{
	int m, c;

	for (m = 0; m < 2; m++) {
		if (pp_xdp_set_return_mode(xh_modes[m]) == -EOPNOTSUPP) {
			print_message("%s: not in this build (meson -Ddesigns=all)\n",
				      xh_mode_name(xh_modes[m]));
			continue;
		}
		for (c = 0; c < C_NR; c++) {
			struct pp_mem_stats st0, st1;
			unsigned long not_pp = xh_not_pp();
			/* The lookup generation also reports the unknown id. */
			unsigned long want = xh_modes[m] == PP_XDP_RETURN_LOOKUP ? 2 : 1;

			print_message("%s, %s\n", xh_mode_name(xh_modes[m]), call_name[c]);
			hard_warns();
			pp_mem_get_stats(&st0);
			return_by(stale, (enum call)c);
			pp_mem_get_stats(&st1);
			assert_int_equal(hard_warns(), want);
			assert_int_equal(xh_not_pp() - not_pp, 1);
			assert_int_equal(st1.free_pages, st0.free_pages);
			assert_int_equal(st1.pp_pages, st0.pp_pages);
		}
	}
	pp_xdp_set_return_mode(PP_XDP_RETURN_DIRECT);
}

/* The page left the pool while it lived (a user held a second page
 * reference, so the pool released it), went back to the page allocator,
 * and then the pool and its mem id went too. */
static void test_released_page(void **state)
{
	struct page_pool *pool = xh_pool();
	struct xdp_frame stale;
	struct xdp_rxq_info rxq;
	struct page *page;

	(void)state;
	xh_rxq_reg(&rxq, 0, pool);
	page = page_pool_dev_alloc_pages(pool);
	stale = *xh_frame_from(page, &rxq);
	get_page(page);
	page_pool_put_full_page(pool, page, false);
	put_page(page);
	xh_teardown(&rxq, pool);
	assert_int_equal(hard_warns(), 0);

	return_stale_every_way(&stale);
	xh_assert_end_state();
}

/* The frame was returned once, properly; the pool was destroyed and gave
 * its pages back to the page allocator; a second, stale copy comes back. */
static void test_returned_then_pool_gone(void **state)
{
	struct page_pool *pool = xh_pool();
	struct xdp_rxq_info rxq;
	struct xdp_frame stale;

	(void)state;
	xh_rxq_reg(&rxq, 0, pool);
	stale = *xh_frame_from(page_pool_dev_alloc_pages(pool), &rxq);
	xdp_return_frame((struct xdp_frame *)((char *)stale.data - XH_HEADROOM));
	xh_teardown(&rxq, pool);
	assert_int_equal(hard_warns(), 0);

	return_stale_every_way(&stale);
	xh_assert_end_state();
}

/* Allocate from @pool until @want comes out (or @max pages); all held. */
static int alloc_until(struct page_pool *pool, struct page *want, struct page **got, int max)
{
	int n;

	for (n = 0; n < max; n++) {
		got[n] = page_pool_dev_alloc_pages(pool);
		assert_non_null(got[n]);
		if (got[n] == want)
			return n + 1;
	}
	return -1;
}

static void test_page_now_another_pools(void **state)
{
	struct page_pool *a = xh_pool(), *b;
	struct page *page, *got[512];
	struct xdp_rxq_info rxq;
	struct xdp_frame stale;
	int n, i, j, c;

	(void)state;
	xh_rxq_reg(&rxq, 0, a);
	page = page_pool_dev_alloc_pages(a);
	stale = *xh_frame_from(page, &rxq);
	xdp_return_frame((struct xdp_frame *)page_address(page));
	xh_teardown(&rxq, a);

	/* Pool B, a driver's, gets the page from the page allocator. */
	b = xh_pool();
	n = alloc_until(b, page, got, 256);
	assert_true(n > 0);

	/* Only the lookup generation can tell this stale frame: the direct
	 * one finds B's page and cannot know the frame is not B's. */
	if (pp_xdp_set_return_mode(PP_XDP_RETURN_LOOKUP) == -EOPNOTSUPP) {
		for (i = 0; i < n; i++)
			page_pool_put_full_page(b, got[i], false);
		page_pool_destroy(b);
		skip();
	}
	for (c = 0; c < C_NR; c++) {
		struct pp_page_pool_misuse m0, m1;

		print_message("lookup, %s\n", call_name[c]);
		hard_warns();
		pp_page_pool_get_misuse(&m0);
		return_by(&stale, (enum call)c);
		pp_page_pool_get_misuse(&m1);
		assert_int_equal(hard_warns(), 2);	/* the id; the refusal */
		assert_int_equal(m1.foreign_pool - m0.foreign_pool, 1);
		/* B's user still holds its reference. */
		assert_int_equal(atomic_long_read(netmem_get_pp_ref_count_ref(
					page_to_netmem(page))), 1);
	}
	pp_xdp_set_return_mode(PP_XDP_RETURN_DIRECT);

	/* B does not hand the held page out again. */
	for (i = n; i < n + 256; i++) {
		got[i] = page_pool_dev_alloc_pages(b);
		assert_non_null(got[i]);
		for (j = 0; j < i; j++)
			assert_ptr_not_equal(got[i], got[j]);
	}
	for (i = 0; i < n + 256; i++)
		page_pool_put_full_page(b, got[i], false);
	assert_int_equal(hard_warns(), 0);
	page_pool_destroy(b);
	xh_assert_end_state();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_released_page),
		EACH_RING(test_returned_then_pool_gone),
		EACH_RING(test_page_now_another_pools),
	};

	xh_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
