/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * xdp_rxq_info_reg_mem_model() twice on one RX queue kept the
 * first registration's pool reference and both mem ids for ever - the
 * first pool was never freed - and said nothing. Now a queue that already
 * has a memory model with an id refuses another: WARN and -EBUSY, nothing
 * changes. Around it, the other orders a driver can get wrong, each with
 * its report and the end state (pools freed, ids released, pages home):
 * registration on a queue that is not registered (-EFAULT), unregistration
 * twice, registration after unregistration, and a second unregistration
 * of one registration through a copy of its xdp_mem_info (an attached
 * queue not detached), which the kernel would turn into a second
 * page_pool_destroy() of a pool its driver still uses.
 */
#include "xdp_hard.h"

static bool pool_listed(u32 id)
{
	struct pp_page_pool_info info;

	return pp_page_pool_get_info(id, &info) == 0;
}

/* The pool's driver has not called destroy (no one dropped its reference). */
static bool pool_detached(u32 id)
{
	struct pp_page_pool_info info;

	assert_int_equal(pp_page_pool_get_info(id, &info), 0);
	return info.has_detach_time;
}

static u64 recycled(const struct page_pool *pool)
{
	struct page_pool_stats st = kapi_stats(pool);

	return st.recycle_stats.cached + st.recycle_stats.ring + st.recycle_stats.ring_full +
	       st.recycle_stats.released_refcnt;
}

/* A page from @pool through @rxq as a frame and back to @pool: the queue's
 * model works. */
static void frame_round_trip(struct page_pool *pool, struct xdp_rxq_info *rxq)
{
	u64 before = recycled(pool);

	/* A frame that names no mem id finds its pool through page->pp only:
	 * the lookup generation refuses it (and leaves the page out), as
	 * kernels up to v6.0 had no such frame. A build without the direct
	 * generation gives the page back directly instead. */
	if (!rxq->mem.id && !IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_DIRECT)) {
		print_message("id-less frame: needs the direct XDP return (meson -Dxdp_return=direct or -Ddesigns=all)\n");
		page_pool_put_full_page(pool, page_pool_dev_alloc_pages(pool), false);
		assert_int_equal(recycled(pool), before + 1);
		return;
	}
	xdp_return_frame(xh_frame_from(page_pool_dev_alloc_pages(pool), rxq));
	assert_int_equal(recycled(pool), before + 1);
}

static void assert_gone(u32 id)
{
	pp_workqueue_run_all();
	assert_false(pool_listed(id));
}

/* A second pool on a queue that has one: refused, the first stays. */
static void test_reg_twice_other_pool(void **state)
{
	struct page_pool *a = xh_pool(), *b = xh_pool();
	u32 ida = pp_page_pool_id(a), idb = pp_page_pool_id(b);
	unsigned int ids0 = xh_mem_ids();
	struct xdp_rxq_info rxq;
	u32 mem_id;

	(void)state;
	xh_rxq_reg(&rxq, 0, a);
	mem_id = rxq.mem.id;
	assert_int_equal(xh_mem_ids(), ids0 + 1);
	hard_warns();
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, b), -EBUSY);
	assert_int_equal(hard_warns(), 1);
	assert_true(kapi_logged("Memory model already registered"));
	assert_int_equal(rxq.mem.id, mem_id);
	assert_int_equal(rxq.mem.type, MEM_TYPE_PAGE_POOL);
	assert_int_equal(xh_mem_ids(), ids0 + 1);
	frame_round_trip(a, &rxq);

	/* The driver's teardown frees both pools and every id. */
	xdp_rxq_info_unreg(&rxq);
	page_pool_destroy(a);
	page_pool_destroy(b);
	assert_gone(ida);
	assert_gone(idb);
	assert_int_equal(xh_mem_ids(), ids0);
	assert_int_equal(hard_warns(), 0);
	xh_assert_end_state();
}

/* The same pool twice on one queue: refused; one unregistration and one
 * destroy free it. */
static void test_reg_twice_same_pool(void **state)
{
	struct page_pool *a = xh_pool();
	u32 ida = pp_page_pool_id(a);
	unsigned int ids0 = xh_mem_ids();
	struct xdp_rxq_info rxq;

	(void)state;
	xh_rxq_reg(&rxq, 0, a);
	hard_warns();
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, a), -EBUSY);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(xh_mem_ids(), ids0 + 1);
	frame_round_trip(a, &rxq);
	xh_teardown(&rxq, a);
	assert_gone(ida);
	assert_int_equal(xh_mem_ids(), ids0);
	assert_int_equal(hard_warns(), 0);
	xh_assert_end_state();
}

/* A model without an id holds nothing and may be replaced (drivers that
 * reconfigure a queue register MEM_TYPE_PAGE_SHARED again and again, or
 * switch to a pool). */
static void test_replace_model_without_id(void **state)
{
	struct page_pool *a = xh_pool();
	u32 ida = pp_page_pool_id(a);
	unsigned int ids0 = xh_mem_ids();
	struct xdp_rxq_info rxq;

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	assert_int_equal(xdp_rxq_info_reg(&rxq, xh_netdev, 0, 0), 0);
	hard_warns();
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_SHARED, NULL), 0);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_SHARED, NULL), 0);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, a), 0);
	assert_int_equal(hard_warns(), 0);
	assert_int_equal(xh_mem_ids(), ids0 + 1);
	frame_round_trip(a, &rxq);
	xh_teardown(&rxq, a);
	assert_gone(ida);
	assert_int_equal(xh_mem_ids(), ids0);
	xh_assert_end_state();
}

/* Registration on a queue never registered, or unregistered since:
 * -EFAULT, and the pool is not held (the driver's destroy frees it). */
static void test_reg_on_unregistered_queue(void **state)
{
	struct page_pool *a = xh_pool();
	u32 ida = pp_page_pool_id(a);
	unsigned int ids0 = xh_mem_ids();
	struct xdp_rxq_info rxq;

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	hard_warns();
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, a), -EFAULT);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(xdp_rxq_info_reg(&rxq, xh_netdev, 0, 0), 0);
	xdp_rxq_info_unreg(&rxq);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, a), -EFAULT);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(xh_mem_ids(), ids0);
	page_pool_destroy(a);
	assert_gone(ida);
	assert_int_equal(hard_warns(), 0);
	xh_assert_end_state();
}

/* Unregistration twice: the model once, the queue twice. One reference
 * dropped, the pool freed by its driver's destroy, no second destroy. */
static void test_unreg_twice(void **state)
{
	struct page_pool *a = xh_pool();
	u32 ida = pp_page_pool_id(a);
	unsigned int ids0 = xh_mem_ids();
	struct xdp_rxq_info rxq;

	(void)state;
	xh_rxq_reg(&rxq, 0, a);
	hard_warns();
	xdp_rxq_info_unreg_mem_model(&rxq);
	xdp_rxq_info_unreg_mem_model(&rxq);	/* no model left: nothing */
	assert_int_equal(hard_warns(), 0);
	assert_false(pool_detached(ida));
	xdp_rxq_info_unreg(&rxq);
	xdp_rxq_info_unreg(&rxq);		/* "Missing register" */
	assert_int_equal(hard_warns(), 1);
	assert_false(pool_detached(ida));
	frame_round_trip(a, &(struct xdp_rxq_info){ .mem = { MEM_TYPE_PAGE_POOL, 0 } });
	page_pool_destroy(a);
	assert_gone(ida);
	assert_int_equal(xh_mem_ids(), ids0);
	assert_int_equal(hard_warns(), 0);
	xh_assert_end_state();
}

/* Registration after unregistration: the model's on a registered queue
 * works (a new id); the queue's needs xdp_rxq_info_reg() first. */
static void test_reg_after_unreg(void **state)
{
	struct page_pool *a = xh_pool(), *b = xh_pool();
	u32 ida = pp_page_pool_id(a), idb = pp_page_pool_id(b);
	unsigned int ids0 = xh_mem_ids();
	struct xdp_rxq_info rxq;
	u32 first;

	(void)state;
	xh_rxq_reg(&rxq, 0, a);
	first = rxq.mem.id;
	xdp_rxq_info_unreg_mem_model(&rxq);
	page_pool_destroy(a);
	assert_gone(ida);
	hard_warns();
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, b), 0);
	assert_int_equal(hard_warns(), 0);
	assert_int_not_equal(rxq.mem.id, 0);
	assert_int_not_equal(rxq.mem.id, first);
	assert_int_equal(xh_mem_ids(), ids0 + 1);
	frame_round_trip(b, &rxq);
	xh_teardown(&rxq, b);
	assert_gone(idb);
	assert_int_equal(xh_mem_ids(), ids0);
	xh_assert_end_state();
}

/*
 * The split API: one registration (xdp_reg_page_pool()) attached to two
 * queues, which the driver then unregisters without detaching. The first
 * xdp_rxq_info_unreg() drops the registration; the second one, and the
 * driver's xdp_unreg_page_pool(), find the same id again. Refused (WARN):
 * the pool keeps its driver's reference - it is not destroyed while its
 * driver allocates from it - and the driver's destroy frees it.
 */
static void test_unreg_through_copy(void **state)
{
	struct page_pool *a = xh_pool();
	u32 ida = pp_page_pool_id(a);
	unsigned int ids0 = xh_mem_ids();
	struct xdp_rxq_info rxq[2];
	struct page *held;
	int i;

	(void)state;
	assert_int_equal(xdp_reg_page_pool(a), 0);
	for (i = 0; i < 2; i++) {
		memset(&rxq[i], 0, sizeof(rxq[i]));
		assert_int_equal(xdp_rxq_info_reg(&rxq[i], xh_netdev, (u32)i, 0), 0);
		xdp_rxq_info_attach_page_pool(&rxq[i], a);
	}
	held = page_pool_dev_alloc_pages(a);	/* keeps a released pool alive */
	assert_non_null(held);
	hard_warns();
	xdp_rxq_info_unreg(&rxq[0]);		/* drops the registration */
	assert_int_equal(hard_warns(), 0);
	xdp_rxq_info_unreg(&rxq[1]);		/* the same id again */
	assert_int_equal(hard_warns(), 1);
	assert_true(kapi_logged("already removed id"));
	xdp_unreg_page_pool(a);			/* and once more */
	assert_int_equal(hard_warns(), 1);
	assert_false(pool_detached(ida));	/* the driver's reference holds */

	/* The driver goes on using its pool, then tears it down. */
	frame_round_trip(a, &(struct xdp_rxq_info){ .mem = { MEM_TYPE_PAGE_POOL, 0 } });
	page_pool_put_full_page(a, held, false);
	page_pool_destroy(a);
	assert_gone(ida);
	assert_int_equal(xh_mem_ids(), ids0);
	assert_int_equal(hard_warns(), 0);
	xh_assert_end_state();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reg_twice_other_pool),
		cmocka_unit_test(test_reg_twice_same_pool),
		cmocka_unit_test(test_replace_model_without_id),
		cmocka_unit_test(test_reg_on_unregistered_queue),
		cmocka_unit_test(test_unreg_twice),
		cmocka_unit_test(test_reg_after_unreg),
		cmocka_unit_test(test_unreg_through_copy),
	};

	xh_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
