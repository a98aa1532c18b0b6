/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Where returned frames go, in both return generations: a bulk mixing
 * three pools gives every page to its own pool; returns from another
 * thread never take the direct path (the alloc cache belongs to the pool's
 * NAPI); xdp_return_frame_rx_napi() and xdp_return_buff() in the owner's
 * NAPI poll recycle into the cache; the no-direct flag (cpumap, veth)
 * forces the ring.
 *
 * "Direct" is read from the pool's stats: recycle_stats.cached counts
 * recycles into the alloc cache, recycle_stats.ring the ones into the
 * ring (or the per-CPU lanes).
 */
#include "xdp_test.h"

#define NR_PER_POOL	40

static void test_bulk_three_pools_interleaved(void **state)
{
	struct pp_page_pool_misuse mis0, mis1;
	struct page_pool *pool[3];
	struct xdp_rxq_info rxq[3];
	struct page *pages[3][NR_PER_POOL];
	struct xdp_frame *frames[3 * NR_PER_POOL];
	struct page_pool_stats before[3];
	struct xdp_frame_bulk bq;
	int m, p, i, k;

	(void)state;
	for (m = 0; m < XT_GENERATIONS; m++) {
		unsigned long warns = pp_warn_count();

		if (!xt_set_generation(m))
			continue;
		for (p = 0; p < 3; p++) {
			pool[p] = xt_pool(NULL);
			xt_rxq_reg(&rxq[p], (u32)p, pool[p]);
		}
		/* p0 p1 p2 p0 p1 p2 ...: every bulk of 16 mixes all three. */
		for (i = 0; i < NR_PER_POOL; i++) {
			for (p = 0; p < 3; p++) {
				pages[p][i] = page_pool_alloc_pages(pool[p], GFP_ATOMIC);
				frames[3 * i + p] = xt_frame_from(pages[p][i], &rxq[p]);
			}
		}
		for (p = 0; p < 3; p++)
			before[p] = pool_stats(pool[p]);
		pp_page_pool_get_misuse(&mis0);

		xdp_frame_bulk_init(&bq);
		rcu_read_lock();
		for (i = 0; i < 3 * NR_PER_POOL; i++)
			xdp_return_frame_bulk(frames[i], &bq);
		xdp_flush_frame_bulk(&bq);
		rcu_read_unlock();
		assert_int_equal(bq.count, 0);

		pp_page_pool_get_misuse(&mis1);
		assert_memory_equal(&mis0, &mis1, sizeof(mis0));
		assert_int_equal(pp_warn_count(), warns);
		for (p = 0; p < 3; p++) {
			struct page_pool_stats st = pool_stats(pool[p]);
			struct page *again[2 * NR_PER_POOL + PP_ALLOC_CACHE_SIZE];
			int seen = 0, n = 0;

			/* Process context: no direct recycling, all to the ring. */
			assert_int_equal(st.recycle_stats.ring - before[p].recycle_stats.ring,
					 NR_PER_POOL);
			assert_int_equal(st.recycle_stats.cached, before[p].recycle_stats.cached);
			assert_int_equal(st.recycle_stats.ring_full, 0);
			/* Its pages come out of this pool again, and only its. */
			while (seen < NR_PER_POOL && n < (int)ARRAY_SIZE(again)) {
				struct page *pg = page_pool_alloc_pages(pool[p], GFP_ATOMIC);

				assert_ptr_equal(page_pool_to_pp(pg), pool[p]);
				for (k = 0; k < NR_PER_POOL; k++)
					seen += pages[p][k] == pg;
				again[n++] = pg;
			}
			assert_int_equal(seen, NR_PER_POOL);
			while (n)
				page_pool_put_full_page(pool[p], again[--n], false);
		}
		for (p = 0; p < 3; p++)
			xt_teardown(&rxq[p], pool[p]);
		assert_all_pages_home();
	}
	xt_default_generation();
	assert_all_pages_home();
}

/* The other thread: CPU 1, in softirq as a TX-completion NAPI would be. */
struct remote {
	struct xdp_frame **frames;
	int n;
};

static void *remote_returns(void *arg)
{
	struct remote *r = arg;
	struct xdp_frame_bulk bq;
	int i = 0, third = r->n / 3;

	assert_true(pp_thread_register(-1) > 0);	/* any CPU but the owner's 0 */
	local_bh_disable();
	for (; i < third; i++)
		xdp_return_frame(r->frames[i]);
	xdp_frame_bulk_init(&bq);
	for (; i < 2 * third; i++)
		xdp_return_frame_bulk(r->frames[i], &bq);
	xdp_flush_frame_bulk(&bq);
	/* cpumap: an XDP_DROP in its kthread returns with rx_napi, under
	 * the no-direct flag. */
	xdp_set_return_frame_no_direct();
	for (; i < r->n - 1; i++)
		xdp_return_frame_rx_napi(r->frames[i]);
	xdp_clear_return_frame_no_direct();
	local_bh_enable();
	/* And one from process context. */
	xdp_return_frame(r->frames[i]);
	return NULL;
}

static void test_other_thread_never_direct(void **state)
{
	struct xdp_frame *frames[31];
	struct page_pool_stats st0, st1;
	struct napi_struct napi;
	struct page_pool *pool;
	struct xdp_rxq_info rxq;
	struct remote r = { frames, (int)ARRAY_SIZE(frames) };
	int m, i;

	(void)state;
	for (m = 0; m < XT_GENERATIONS; m++) {
		if (!xt_set_generation(m))
			continue;
		/* The pool's NAPI is "running" on CPU 0 (this thread) all
		 * along, as in the kernel's tasklet_page_pool04 test. */
		memset(&napi, 0, sizeof(napi));
		napi.list_owner = 0;
		pool = xt_pool(&napi);
		xt_rxq_reg(&rxq, 0, pool);

		/* Control: the owner in softirq returning non-direct is
		 * napi-local, so cached. The test can see a direct return. */
		st0 = pool_stats(pool);
		local_bh_disable();
		xdp_return_frame(xt_frame(pool, &rxq));
		local_bh_enable();
		st1 = pool_stats(pool);
		assert_int_equal(st1.recycle_stats.cached, st0.recycle_stats.cached + 1);

		for (i = 0; i < r.n; i++)
			frames[i] = xt_frame(pool, &rxq);
		st0 = pool_stats(pool);
		pp_test_run_thread(remote_returns, &r);
		st1 = pool_stats(pool);
		assert_int_equal(st1.recycle_stats.cached, st0.recycle_stats.cached);
		assert_int_equal(st1.recycle_stats.ring + st1.recycle_stats.ring_full,
				 st0.recycle_stats.ring + st0.recycle_stats.ring_full + (u64)r.n);

		napi.list_owner = -1;
		xt_teardown(&rxq, pool);
		assert_all_pages_home();
	}
	xt_default_generation();
	assert_all_pages_home();
}

/* A real NAPI poll owning the pool. */
struct napi_returns {
	struct xdp_frame *frames[8];
	struct xdp_rxq_info *rxq;
	struct page *buf_page;
};

static void rx_napi_returns(void *arg)
{
	struct napi_returns *nr = arg;
	struct xdp_buff xdp;
	int i;

	assert_true(in_serving_softirq());
	for (i = 0; i < (int)ARRAY_SIZE(nr->frames); i++)
		xdp_return_frame_rx_napi(nr->frames[i]);
	/* XDP_DROP of the buffer being processed. */
	xdp_init_buff(&xdp, PAGE_SIZE, nr->rxq);
	xdp_prepare_buff(&xdp, page_address(nr->buf_page), XT_HEADROOM, XT_LEN, true);
	xdp_return_buff(&xdp);
}

static void test_rx_napi_in_owner_poll_recycles_to_cache(void **state)
{
	struct napi_returns nr;
	struct page_pool_stats st0, st1;
	struct napi_struct napi;
	struct page_pool *pool;
	struct xdp_rxq_info rxq;
	int m, i;

	(void)state;
	for (m = 0; m < XT_GENERATIONS; m++) {
		if (!xt_set_generation(m))
			continue;
		memset(&napi, 0, sizeof(napi));
		netif_napi_add(xt_netdev, &napi, call_poll);
		napi_enable(&napi);
		pool = xt_pool(&napi);
		xt_rxq_reg(&rxq, 0, pool);
		nr.rxq = &rxq;
		for (i = 0; i < (int)ARRAY_SIZE(nr.frames); i++)
			nr.frames[i] = xt_frame(pool, &rxq);
		nr.buf_page = page_pool_alloc_pages(pool, GFP_ATOMIC);

		st0 = pool_stats(pool);
		run_in_poll(&napi, rx_napi_returns, &nr);
		st1 = pool_stats(pool);
		assert_int_equal(st1.recycle_stats.cached,
				 st0.recycle_stats.cached + ARRAY_SIZE(nr.frames) + 1);
		assert_int_equal(st1.recycle_stats.ring, st0.recycle_stats.ring);

		napi_disable(&napi);
		xt_teardown(&rxq, pool);
		netif_napi_del(&napi);
		assert_all_pages_home();
	}
	xt_default_generation();
	assert_all_pages_home();
}

/* The owner's poll, but the pool is not bound to the NAPI, so page_pool
 * cannot find out by itself: napi_direct decides, and the flag wins. */
struct flag_returns {
	struct xdp_frame *frames[4];
	struct xdp_rxq_info *rxq;
	struct page *buf_page;
	struct page_pool *pool;
	bool other_thread_saw_flag;
};

static void *peek_flag(void *arg)
{
	(void)arg;
	return (void *)(unsigned long)xdp_return_frame_no_direct();
}

static void flag_returns(void *arg)
{
	struct flag_returns *fr = arg;
	struct page_pool_stats a, b;
	struct xdp_buff xdp;

	a = pool_stats(fr->pool);
	xdp_return_frame_rx_napi(fr->frames[0]);
	b = pool_stats(fr->pool);
	assert_int_equal(b.recycle_stats.cached, a.recycle_stats.cached + 1);

	xdp_set_return_frame_no_direct();
	assert_true(xdp_return_frame_no_direct());
	fr->other_thread_saw_flag = pp_test_run_thread(peek_flag, NULL) != NULL;
	a = pool_stats(fr->pool);
	xdp_return_frame_rx_napi(fr->frames[1]);
	xdp_return_frame_rx_napi(fr->frames[2]);
	xdp_init_buff(&xdp, PAGE_SIZE, fr->rxq);
	xdp_prepare_buff(&xdp, page_address(fr->buf_page), XT_HEADROOM, XT_LEN, true);
	xdp_return_buff(&xdp);
	b = pool_stats(fr->pool);
	assert_int_equal(b.recycle_stats.cached, a.recycle_stats.cached);
	assert_int_equal(b.recycle_stats.ring, a.recycle_stats.ring + 3);
	xdp_clear_return_frame_no_direct();

	a = pool_stats(fr->pool);
	xdp_return_frame_rx_napi(fr->frames[3]);
	b = pool_stats(fr->pool);
	assert_int_equal(b.recycle_stats.cached, a.recycle_stats.cached + 1);
}

static void test_no_direct_flag(void **state)
{
	struct flag_returns fr;
	struct napi_struct napi;
	struct xdp_rxq_info rxq;
	int m, i;

	(void)state;
	for (m = 0; m < XT_GENERATIONS; m++) {
		if (!xt_set_generation(m))
			continue;
		memset(&napi, 0, sizeof(napi));
		netif_napi_add(xt_netdev, &napi, call_poll);
		napi_enable(&napi);
		fr.pool = xt_pool(NULL);
		xt_rxq_reg(&rxq, 0, fr.pool);
		fr.rxq = &rxq;
		for (i = 0; i < (int)ARRAY_SIZE(fr.frames); i++)
			fr.frames[i] = xt_frame(fr.pool, &rxq);
		fr.buf_page = page_pool_alloc_pages(fr.pool, GFP_ATOMIC);
		fr.other_thread_saw_flag = true;

		run_in_poll(&napi, flag_returns, &fr);
		assert_false(fr.other_thread_saw_flag);	/* per thread */
		assert_false(xdp_return_frame_no_direct());

		napi_disable(&napi);
		netif_napi_del(&napi);
		xt_teardown(&rxq, fr.pool);
		assert_all_pages_home();
	}
	xt_default_generation();
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bulk_three_pools_interleaved),
		cmocka_unit_test(test_other_thread_never_direct),
		cmocka_unit_test(test_rx_napi_in_owner_poll_recycles_to_cache),
		cmocka_unit_test(test_no_direct_flag),
	};

	xdp_test_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
