/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The same frame twice in one xdp_frame_bulk passed as "last
 * reference" both times, with no WARN, and the pool later handed the page
 * out twice. Every path of xdp_return_frame_bulk() - both generations of
 * __xdp_return(), linear and multi-buffer frames, the old per-allocator
 * bulk that flushes whenever the mem id changes - queues netmems that
 * xdp_flush_frame_bulk() gives to page_pool_put_netmem_bulk(), so the
 * core's fix covers them all: a duplicate is a double put the pool's
 * owner drops where it finds it (WARN, misuse counter double_put). This program holds
 * each path to that, and checks the legitimate twin - two frames on one
 * page_pool fragment page, two references - is not mistaken for one.
 */
#include "xdp_hard.h"

#define NR_FRAGS	3

/* A multi-buffer frame: a head and NR_FRAGS whole-page fragments. */
static struct xdp_frame *mb_frame(struct page_pool *pool, struct xdp_rxq_info *rxq)
{
	struct page *head = page_pool_dev_alloc_pages(pool);
	struct xdp_frame *f;
	struct xdp_buff xdp;
	int i;

	assert_non_null(head);
	xdp_init_buff(&xdp, PAGE_SIZE, rxq);
	xdp_prepare_buff(&xdp, page_address(head), XH_HEADROOM, XH_LEN, true);
	for (i = 0; i < NR_FRAGS; i++) {
		struct page *page = page_pool_dev_alloc_pages(pool);

		assert_non_null(page);
		assert_true(xdp_buff_add_frag(&xdp, page_to_netmem(page), 0, 256, PAGE_SIZE));
	}
	f = xdp_convert_buff_to_frame(&xdp);
	assert_non_null(f);
	assert_true(xdp_frame_has_frags(f));
	return f;
}

/* Return @n frames of @f in one bulk (in softirq, as a redirect target);
 * the pool hands out 2 * pool_size pages, none twice, and by then the
 * duplicates were reported: @dups WARNs and double puts (at the refill
 * that took them out of the ring). */
static void bulk_and_check(struct page_pool *pool, struct xdp_frame **f, int n, int dups)
{
	unsigned long u0 = xh_double_puts();
	struct xdp_frame_bulk bq;
	int i;

	hard_warns();
	local_bh_disable();
	rcu_read_lock();
	xdp_frame_bulk_init(&bq);
	for (i = 0; i < n; i++)
		xdp_return_frame_bulk(f[i], &bq);
	xdp_flush_frame_bulk(&bq);
	rcu_read_unlock();
	local_bh_enable();
	hard_assert_distinct_allocs(pool, 512);
	assert_int_equal(hard_warns(), dups);
	assert_int_equal(xh_double_puts() - u0, dups);
}

static void for_each_mode(void (*fn)(void))
{
	int m;

	for (m = 0; m < 2; m++) {
		print_message("%s\n", xh_mode_name(xh_modes[m]));
		pp_xdp_set_return_mode(xh_modes[m]);
		fn();
	}
	pp_xdp_set_return_mode(PP_XDP_RETURN_DIRECT);
	xh_assert_end_state();
}

/* A linear frame twice, eight others between. */
static void linear_dup(void)
{
	struct page_pool *pool = xh_pool();
	struct xdp_frame *f[10];
	struct xdp_rxq_info rxq;
	int i;

	xh_rxq_reg(&rxq, 0, pool);
	for (i = 0; i < 9; i++)
		f[i] = xh_frame_from(page_pool_dev_alloc_pages(pool), &rxq);
	f[9] = f[2];
	bulk_and_check(pool, f, 10, 1);
	xh_teardown(&rxq, pool);
}

static void test_linear_frame_twice(void **state)
{
	(void)state;
	for_each_mode(linear_dup);
}

/* A multi-buffer frame twice: its head and each fragment are duplicates
 * (8 netmems, one flush). */
static void mb_dup(void)
{
	struct page_pool *pool = xh_pool();
	struct xdp_rxq_info rxq;
	struct xdp_frame *f[2];

	xh_rxq_reg(&rxq, 0, pool);
	f[0] = f[1] = mb_frame(pool, &rxq);
	bulk_and_check(pool, f, 2, 1 + NR_FRAGS);
	xh_teardown(&rxq, pool);
}

static void test_mb_frame_twice(void **state)
{
	(void)state;
	for_each_mode(mb_dup);
}

/* Frames of two pools interleaved, one of A's twice: the old bulk flushes
 * at each change of id, the new one sorts the pools in one flush. */
static void two_pools_dup(void)
{
	struct page_pool *a = xh_pool(), *b = xh_pool();
	struct xdp_rxq_info ra, rb;
	struct xdp_frame *f[9];
	int i;

	xh_rxq_reg(&ra, 0, a);
	xh_rxq_reg(&rb, 1, b);
	for (i = 0; i < 8; i++)
		f[i] = i & 1 ? xh_frame_from(page_pool_dev_alloc_pages(b), &rb)
			     : xh_frame_from(page_pool_dev_alloc_pages(a), &ra);
	f[8] = f[4];
	bulk_and_check(a, f, 9, 1);
	hard_assert_distinct_allocs(b, 512);
	xh_teardown(&ra, a);
	xh_teardown(&rb, b);
}

static void test_two_pools_frame_twice(void **state)
{
	(void)state;
	for_each_mode(two_pools_dup);
}

/* Not a duplicate: two frames on one page_pool fragment page hold two
 * pp references; both go in one bulk, the page goes home once, no WARN. */
static void frag_twins(void)
{
	struct page_pool *pool = xh_pool();
	struct xdp_rxq_info rxq;
	struct xdp_frame *f[2];
	unsigned int off[2];
	struct xdp_buff xdp;
	struct page *p[2];
	int i;

	xh_rxq_reg(&rxq, 0, pool);
	for (i = 0; i < 2; i++) {
		p[i] = page_pool_dev_alloc_frag(pool, &off[i], PAGE_SIZE / 2);
		assert_non_null(p[i]);
		xdp_init_buff(&xdp, PAGE_SIZE / 2, &rxq);
		xdp_prepare_buff(&xdp, (unsigned char *)page_address(p[i]) + off[i],
				 XH_HEADROOM, XH_LEN, true);
		f[i] = xdp_convert_buff_to_frame(&xdp);
		assert_non_null(f[i]);
	}
	assert_ptr_equal(p[0], p[1]);
	bulk_and_check(pool, f, 2, 0);
	xh_teardown(&rxq, pool);
}

static void test_frag_page_twins_are_no_duplicate(void **state)
{
	(void)state;
	for_each_mode(frag_twins);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_linear_frame_twice),
		EACH_RING(test_mb_frame_twice),
		EACH_RING(test_two_pools_frame_twice),
		EACH_RING(test_frag_page_twins_are_no_duplicate),
	};

	xh_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
