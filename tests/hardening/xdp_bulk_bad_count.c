/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * An xdp_frame_bulk whose count is past its capacity (XDP_BULK_QUEUE_SIZE)
 * or negative - xdp_frame_bulk_init() forgotten, stack garbage - had
 * xdp_return_frame_bulk() write the frame's page at q[count], past the
 * bulk, and the flush read that many "netmems" (and the lookup generation
 * followed a garbage bq->xa as an allocator). Now the add reports it (WARN)
 * and starts the bulk empty, its garbage left alone: nothing is written
 * past the bulk, the frame goes home with the flush. With CONFIG_DEBUG_NET
 * the inline xdp_flush_frame_bulk() checks too (WARN, nothing read).
 */
#include "xdp_hard.h"

/* A bulk with memory after it that must stay untouched. */
struct guarded_bulk {
	struct xdp_frame_bulk bq;
	unsigned long guard[64];
};

#define GUARD	0x5a5a5a5a5a5a5a5aUL

static void guard_init(struct guarded_bulk *g, int count, void *xa)
{
	int i;

	memset(&g->bq, 0xa5, sizeof(g->bq));	/* garbage netmems */
	for (i = 0; i < 64; i++)
		g->guard[i] = GUARD;
	g->bq.count = count;
	g->bq.xa = xa;
}

static void guard_check(const struct guarded_bulk *g)
{
	int i;

	for (i = 0; i < 64; i++)
		assert_int_equal(g->guard[i], GUARD);
}

static u64 recycled(const struct page_pool *pool)
{
	struct page_pool_stats st = kapi_stats(pool);

	return st.recycle_stats.cached + st.recycle_stats.ring + st.recycle_stats.ring_full +
	       st.recycle_stats.released_refcnt;
}

static const int bad_counts[] = { XDP_BULK_QUEUE_SIZE + 1, 40, -1, -1000000 };

/* Add a frame to a bad bulk, flush: one WARN, the frame home, nothing
 * past the bulk written, every page home at the end. Both generations; in
 * the lookup one bq->xa is garbage as well. */
static void test_add_to_bad_bulk(void **state)
{
	struct page_pool *pool = xh_pool();
	struct xdp_rxq_info rxq;
	unsigned int m, c;

	(void)state;
	xh_rxq_reg(&rxq, 0, pool);
	for (m = 0; m < 2; m++) {
		pp_xdp_set_return_mode(xh_modes[m]);
		for (c = 0; c < ARRAY_SIZE(bad_counts); c++) {
			struct guarded_bulk g;
			u64 r0 = recycled(pool);

			print_message("%s, count %d\n", xh_mode_name(xh_modes[m]), bad_counts[c]);
			guard_init(&g, bad_counts[c], (void *)0x10);
			hard_warns();
			rcu_read_lock();
			xdp_return_frame_bulk(xh_frame_from(page_pool_dev_alloc_pages(pool), &rxq),
					      &g.bq);
			assert_int_equal(hard_warns(), 1);
			assert_true(kapi_logged("past its capacity"));
			assert_int_equal(g.bq.count, 1);
			xdp_flush_frame_bulk(&g.bq);
			rcu_read_unlock();
			guard_check(&g);
			assert_int_equal(recycled(pool), r0 + 1);
			assert_int_equal(hard_warns(), 0);
		}
	}
	pp_xdp_set_return_mode(PP_XDP_RETURN_DIRECT);
	xh_teardown(&rxq, pool);
	xh_assert_end_state();
}

/* A full bulk is still flushed, not taken for a bad one. */
static void test_full_bulk_flushes(void **state)
{
	struct page_pool *pool = xh_pool();
	struct xdp_rxq_info rxq;
	struct xdp_frame_bulk bq;
	unsigned int m;
	int i;

	(void)state;
	xh_rxq_reg(&rxq, 0, pool);
	for (m = 0; m < 2; m++) {
		u64 r0 = recycled(pool);

		pp_xdp_set_return_mode(xh_modes[m]);
		hard_warns();
		xdp_frame_bulk_init(&bq);
		rcu_read_lock();
		for (i = 0; i < 3 * XDP_BULK_QUEUE_SIZE + 1; i++)
			xdp_return_frame_bulk(xh_frame_from(page_pool_dev_alloc_pages(pool), &rxq),
					      &bq);
		assert_int_equal(bq.count, 1);
		xdp_flush_frame_bulk(&bq);
		rcu_read_unlock();
		assert_int_equal(hard_warns(), 0);
		assert_int_equal(recycled(pool), r0 + 3 * XDP_BULK_QUEUE_SIZE + 1);
	}
	pp_xdp_set_return_mode(PP_XDP_RETURN_DIRECT);
	xh_teardown(&rxq, pool);
	xh_assert_end_state();
}

/* CONFIG_DEBUG_NET: flushing a bad bulk reads nothing. */
static void test_flush_bad_bulk(void **state)
{
	unsigned int c;

	(void)state;
	HARD_NEEDS_DEBUG_NET();
	for (c = 0; c < ARRAY_SIZE(bad_counts); c++) {
		struct guarded_bulk g;

		guard_init(&g, bad_counts[c], NULL);
		g.guard[0] = 0;		/* q[16], were it read: no netmem */
		hard_warns();
		xdp_flush_frame_bulk(&g.bq);
		assert_int_equal(hard_warns(), 1);
		assert_int_equal(g.bq.count, 0);
	}
	xh_assert_end_state();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_add_to_bad_bulk),
		EACH_RING(test_full_bulk_flushes),
		cmocka_unit_test(test_flush_bad_bulk),
	};

	xh_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
