/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Frames: xdp_convert_buff_to_frame() layout and its size checks, memory
 * that is not a page_pool's (MEM_TYPE_PAGE_ORDER0, MEM_TYPE_PAGE_SHARED),
 * a frame whose id names nothing, and the two return generations giving
 * identical results on one mixed scenario.
 */
#include "xdp_test.h"

static void test_convert_layout_and_checks(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	unsigned long warns = pp_warn_count();
	struct xdp_rxq_info rxq;
	struct xdp_frame *f;
	struct xdp_buff xdp, back;
	struct page *page;
	char *hard;

	(void)state;
	xt_rxq_reg(&rxq, 0, pool);
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	hard = page_address(page);

	/* 8 bytes of metadata before the packet. */
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(&xdp, (unsigned char *)hard, XT_HEADROOM, XT_LEN, true);
	xdp.data_meta = (char *)xdp.data - 8;
	f = xdp_convert_buff_to_frame(&xdp);
	assert_ptr_equal(f, hard);
	assert_ptr_equal(f->data, hard + XT_HEADROOM);
	assert_int_equal(f->len, XT_LEN);
	assert_int_equal(f->headroom, XT_HEADROOM - sizeof(*f));
	assert_int_equal(f->metasize, 8);
	assert_int_equal(f->frame_sz, PAGE_SIZE);
	assert_int_equal(f->flags, 0);
	assert_int_equal(f->mem_type, MEM_TYPE_PAGE_POOL);
	assert_int_equal(f->mem_id, rxq.mem.id);
	assert_null(f->dev_rx);
	xdp_convert_frame_to_buff(f, &back);
	assert_ptr_equal(back.data_hard_start, hard);
	assert_ptr_equal(back.data, xdp.data);
	assert_ptr_equal(back.data_end, xdp.data_end);
	assert_ptr_equal(back.data_meta, xdp.data_meta);

	/* Headroom exactly one frame: fits; plus metadata: does not. */
	xdp_prepare_buff(&xdp, (unsigned char *)hard, sizeof(*f), XT_LEN, true);
	assert_ptr_equal(xdp_convert_buff_to_frame(&xdp), hard);
	xdp_prepare_buff(&xdp, (unsigned char *)hard, sizeof(*f) + 3, XT_LEN, true);
	xdp.data_meta = (char *)xdp.data - 4;
	assert_null(xdp_convert_buff_to_frame(&xdp));
	xdp_prepare_buff(&xdp, (unsigned char *)hard, sizeof(*f) - 1, XT_LEN, false);
	assert_null(xdp_convert_buff_to_frame(&xdp));
	assert_int_equal(pp_warn_count(), warns);

	/* No tailroom left for skb_shared_info: a driver bug, WARNed. */
	xdp_prepare_buff(&xdp, (unsigned char *)hard, XT_HEADROOM,
			 PAGE_SIZE - XT_HEADROOM - XDP_SKB_SHARED_INFO_SIZE + 1, true);
	assert_null(xdp_convert_buff_to_frame(&xdp));
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_true(pp_test_log_contains("missing reserved tailroom"));
	xdp_prepare_buff(&xdp, (unsigned char *)hard, XT_HEADROOM,
			 PAGE_SIZE - XT_HEADROOM - XDP_SKB_SHARED_INFO_SIZE, true);
	assert_non_null(xdp_convert_buff_to_frame(&xdp));

	/* AF_XDP buffers need a zero-copy clone: not here. */
	rxq.mem.type = MEM_TYPE_XSK_BUFF_POOL;
	assert_null(xdp_convert_buff_to_frame(&xdp));
	rxq.mem.type = MEM_TYPE_PAGE_POOL;

	page_pool_put_full_page(pool, page, false);
	xt_teardown(&rxq, pool);
	assert_all_pages_home();
}

static unsigned long free_pages_now(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	return st.free_pages;
}

static void test_order0_and_shared_memory(void **state)
{
	struct xdp_rxq_info rxq;
	struct xdp_frame *f, *g;
	struct xdp_frame_bulk bq;
	struct xdp_buff xdp;
	struct page *page;
	unsigned long free0;
	int m;

	(void)state;
	for (m = 0; m < XT_GENERATIONS; m++) {
		if (!xt_set_generation(m))
			continue;
		memset(&rxq, 0, sizeof(rxq));
		assert_int_equal(xdp_rxq_info_reg(&rxq, xt_netdev, 0, 0), 0);

		/* One page per frame: put_page(). */
		assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_ORDER0, NULL), 0);
		free0 = free_pages_now();
		f = xt_frame_from(alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL, 0), &rxq);
		g = xt_frame_from(alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL, 0), &rxq);
		assert_int_equal(f->mem_type, MEM_TYPE_PAGE_ORDER0);
		assert_int_equal(free_pages_now(), free0 - 2);
		xdp_return_frame(f);
		assert_int_equal(free_pages_now(), free0 - 1);
		xdp_frame_bulk_init(&bq);
		xdp_return_frame_bulk(g, &bq);	/* not page_pool: at once */
		assert_int_equal(bq.count, 0);
		assert_int_equal(free_pages_now(), free0);
		xdp_rxq_info_unreg_mem_model(&rxq);

		/* Two frames on one split page: the last return frees it. */
		assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_SHARED, NULL), 0);
		page = alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL, 0);
		get_page(page);
		xdp_init_buff(&xdp, PAGE_SIZE / 2, &rxq);
		xdp_prepare_buff(&xdp, page_address(page), XT_HEADROOM, XT_LEN, true);
		f = xdp_convert_buff_to_frame(&xdp);
		xdp_prepare_buff(&xdp, (unsigned char *)page_address(page) + PAGE_SIZE / 2,
				 XT_HEADROOM, XT_LEN, true);
		g = xdp_convert_buff_to_frame(&xdp);
		assert_non_null(f);
		assert_non_null(g);
		xdp_return_frame(g);
		assert_int_equal(free_pages_now(), free0 - 1);
		xdp_return_frame(f);
		assert_int_equal(free_pages_now(), free0);

		xdp_rxq_info_unreg(&rxq);
		assert_all_pages_home();
	}
	xt_default_generation();
	assert_all_pages_home();
}

/* A frame of @rxq with id 0, returned singly and in a bulk by the lookup
 * generation: refused both times. Returns the pages put back after. */
static int unknown_id_returns(struct page_pool *pool, struct xdp_rxq_info *rxq)
{
	struct pp_page_pool_misuse m0, m1;
	struct xdp_frame_bulk bq;
	struct xdp_frame *f;
	unsigned long warns;
	int call;

	for (call = 0; call < 2; call++) {
		f = xt_frame(pool, rxq);
		f->mem_id = 0;
		pp_page_pool_get_misuse(&m0);
		warns = pp_warn_count();
		if (call == 0) {
			xdp_return_frame(f);
		} else {
			xdp_frame_bulk_init(&bq);
			rcu_read_lock();
			xdp_return_frame_bulk(f, &bq);
			xdp_flush_frame_bulk(&bq);
			rcu_read_unlock();
		}
		pp_page_pool_get_misuse(&m1);
		assert_int_equal(pp_warn_count(), warns + 2);
		assert_int_equal(m1.foreign_pool - m0.foreign_pool, 1);
		assert_true(pp_test_log_contains("unregistered mem id 0 refused"));
		/* Untouched: still the caller's, who puts it. */
		assert_int_equal(atomic_long_read(netmem_get_pp_ref_count_ref(
					virt_to_netmem(f))), 1);
		page_pool_put_full_page(pool, virt_to_page(f), false);
	}
	return call;
}

/*
 * The old generation with an id that names nothing (a hand-made frame):
 * the kernel would oops; here a WARN for the id, and the page is refused
 * as page_pool refuses a put naming no pool (a WARN, foreign_pool) and
 * left exactly as it is: the caller still holds it and puts it properly.
 * (Sending it to the pool the page names would hand a stale frame's page,
 * since allocated by another pool, out twice: see return_lookup.c.)
 */
static void test_lookup_unknown_id(void **state)
{
	struct page_pool_stats st0, st1;
	struct xdp_rxq_info rxq;
	struct page_pool *pool;
	struct xdp_frame *f;
	unsigned long warns;
	int g, puts = 0;

	(void)state;
	if (!xt_generation_built(1) && !xt_generation_built(2)) {
		print_message("    no lookup generation in this build (meson -Dxdp_return=lookup "
			      "or -Ddesigns=all)\n");
		skip();
	}
	pool = xt_pool(NULL);
	warns = pp_warn_count();
	xt_rxq_reg(&rxq, 0, pool);
	st0 = pool_stats(pool);

	/* The new generation does not read the id at all. */
	if (xt_set_generation(0)) {
		f = xt_frame(pool, &rxq);
		f->mem_id = 0;
		xdp_return_frame(f);
		assert_int_equal(pp_warn_count(), warns);
		puts++;
	}

	for (g = 1; g < XT_GENERATIONS; g++) {
		if (xt_set_generation(g))
			puts += unknown_id_returns(pool, &rxq);
	}
	xt_default_generation();

	st1 = pool_stats(pool);
	assert_int_equal(st1.recycle_stats.ring, st0.recycle_stats.ring + puts);
	xt_teardown(&rxq, pool);
	assert_all_pages_home();
}

/* Each return call once on a copy of @f (the copy is what is returned:
 * the page's own memory may be a free page's); one WARN each, and the
 * page's refcount and the free page count stay as they were. */
static void return_each_way(const struct xdp_frame *f, struct page *page)
{
	unsigned long warns, free0 = free_pages_now();
	int refs = page_ref_count(page);
	struct xdp_frame_bulk bq;
	struct xdp_frame copy;
	int call;

	for (call = 0; call < 3; call++) {
		copy = *f;
		warns = pp_warn_count();
		local_bh_disable();
		if (call == 0) {
			xdp_return_frame(&copy);
		} else if (call == 1) {
			xdp_return_frame_rx_napi(&copy);
		} else {
			xdp_frame_bulk_init(&bq);
			rcu_read_lock();
			xdp_return_frame_bulk(&copy, &bq);
			xdp_flush_frame_bulk(&bq);
			rcu_read_unlock();
		}
		local_bh_enable();
		assert_int_equal(pp_warn_count(), warns + 1);
		assert_int_equal(page_ref_count(page), refs);
		assert_int_equal(free_pages_now(), free0);
	}
}

/*
 * A frame that says MEM_TYPE_PAGE_POOL on a page no pool owns: a page
 * straight from the page allocator (pp NULL), and a stale frame whose page
 * the pool released and the page allocator took back (pp is a free-list
 * link there, which the direct generation would follow as a pool without
 * its pp_magic check). Every generation and every return call reports it
 * and leaves the page alone; the pool's counters do not move.
 */
static void test_page_pool_frame_without_pool(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct page_pool_stats st0, st1;
	struct xdp_rxq_info rxq;
	struct xdp_frame stale;
	struct page *page;
	int g;

	(void)state;
	xt_rxq_reg(&rxq, 0, pool);

	/* A stale frame: the pool releases the page (a user holds a second
	 * reference), the user puts it, the page allocator has it. */
	page = page_pool_dev_alloc_pages(pool);
	stale = *xt_frame_from(page, &rxq);
	get_page(page);
	page_pool_put_full_page(pool, page, false);
	assert_false(page_pool_page_is_pp(page));
	put_page(page);
	assert_non_null(READ_ONCE(page->pp));	/* a free-list link now */
	st0 = pool_stats(pool);
	for (g = 0; g < XT_GENERATIONS; g++) {
		if (!xt_set_generation(g))
			continue;
		return_each_way(&stale, page);
	}

	/* A page that never was a pool's. */
	page = alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL, 0);
	assert_non_null(page);
	for (g = 0; g < XT_GENERATIONS; g++) {
		if (!xt_set_generation(g))
			continue;
		return_each_way(xt_frame_from(page, &rxq), page);
	}
	put_page(page);

	xt_default_generation();
	st1 = pool_stats(pool);
	assert_memory_equal(&st1, &st0, sizeof(st0));
	xt_teardown(&rxq, pool);
	assert_all_pages_home();
}

/* One scenario touching every return path; its outcome per generation. */
struct outcome {
	struct page_pool_stats st[2];
	struct pp_page_pool_misuse misuse;
	unsigned long warns;
};

struct scenario {
	struct page_pool *pool[2];
	struct xdp_rxq_info rxq[2];
	struct xdp_frame *a[40], *b[40];
};

static struct scenario sc;

static void scenario_poll(void *arg)
{
	struct xdp_frame_bulk bq;
	int i;

	(void)arg;
	for (i = 0; i < 10; i++)
		xdp_return_frame_rx_napi(sc.a[i]);
	for (; i < 15; i++)
		xdp_return_frame(sc.a[i]);		/* napi-local: cached */
	for (i = 0; i < 5; i++)
		xdp_return_frame_rx_napi(sc.b[i]);
	xdp_frame_bulk_init(&bq);
	for (i = 0; i < 10; i++) {
		xdp_return_frame_bulk(sc.a[15 + i], &bq);
		xdp_return_frame_bulk(sc.b[5 + i], &bq);
	}
	xdp_flush_frame_bulk(&bq);
	xdp_set_return_frame_no_direct();
	for (i = 15; i < 19; i++)
		xdp_return_frame_rx_napi(sc.b[i]);
	xdp_clear_return_frame_no_direct();
	/* Refill from the ring and the cache. */
	for (i = 0; i < 20; i++)
		sc.a[i] = xt_frame(sc.pool[0], &sc.rxq[0]);
}

static void *scenario_remote(void *arg)
{
	struct xdp_frame_bulk bq;
	int i;

	(void)arg;
	assert_true(pp_thread_register(-1) > 0);	/* any CPU but the owner's 0 */
	for (i = 25; i < 31; i++)
		xdp_return_frame(sc.a[i]);
	local_bh_disable();
	xdp_frame_bulk_init(&bq);
	for (i = 19; i < 30; i++)
		xdp_return_frame_bulk(sc.b[i], &bq);
	xdp_flush_frame_bulk(&bq);
	local_bh_enable();
	return NULL;
}

static void run_scenario(int g, struct outcome *out)
{
	struct pp_page_pool_misuse m0;
	struct napi_struct napi;
	unsigned long warns = pp_warn_count();
	int i, q;

	assert_true(xt_set_generation(g));
	pp_page_pool_get_misuse(&m0);
	memset(&sc, 0, sizeof(sc));
	memset(&napi, 0, sizeof(napi));
	netif_napi_add(xt_netdev, &napi, call_poll);
	napi_enable(&napi);
	sc.pool[0] = xt_pool(&napi);
	sc.pool[1] = xt_pool(NULL);
	for (q = 0; q < 2; q++)
		xt_rxq_reg(&sc.rxq[q], (u32)q, sc.pool[q]);
	for (i = 0; i < 40; i++) {
		sc.a[i] = xt_frame(sc.pool[0], &sc.rxq[0]);
		sc.b[i] = xt_frame(sc.pool[1], &sc.rxq[1]);
	}

	run_in_poll(&napi, scenario_poll, NULL);

	pp_test_run_thread(scenario_remote, NULL);
	/* What is still out: the refilled a[0..19], a[31..39], b[30..39]. */
	for (i = 0; i < 40; i++) {
		if (i < 20 || i >= 31)
			xdp_return_frame(sc.a[i]);
		if (i >= 30)
			xdp_return_frame(sc.b[i]);
	}

	memset(out, 0, sizeof(*out));
	for (q = 0; q < 2; q++)
		out->st[q] = pool_stats(sc.pool[q]);
	pp_page_pool_get_misuse(&out->misuse);
	out->misuse.not_pp_page -= m0.not_pp_page;
	out->misuse.foreign_pool -= m0.foreign_pool;
	out->misuse.ref_underflow -= m0.ref_underflow;
	out->warns = pp_warn_count() - warns;

	napi_disable(&napi);
	for (q = 0; q < 2; q++)
		xt_teardown(&sc.rxq[q], sc.pool[q]);
	netif_napi_del(&napi);
	assert_all_pages_home();
	xt_default_generation();
}

/* Every lookup generation the build has against the direct one; skipped
 * in a build without both kinds (meson -Ddesigns=all has all three). */
static void test_generations_identical(void **state)
{
	struct outcome direct, lookup;
	int g, compared = 0;

	(void)state;
	xt_require_generation(0);
	run_scenario(0, &direct);
	/* The scenario exercised both kinds of recycling, cleanly ... */
	assert_true(direct.st[0].recycle_stats.cached > 0);
	assert_true(direct.st[1].recycle_stats.cached > 0);
	assert_true(direct.st[0].recycle_stats.ring > 0);
	assert_true(direct.st[1].recycle_stats.ring > 0);
	assert_int_equal(direct.warns, 0);
	assert_int_equal(direct.misuse.foreign_pool + direct.misuse.not_pp_page, 0);
	/* ... and the old generation did exactly the same. */
	for (g = 1; g < XT_GENERATIONS; g++) {
		if (!xt_set_generation(g))
			continue;
		run_scenario(g, &lookup);
		assert_memory_equal(&direct, &lookup, sizeof(direct));
		compared++;
	}
	xt_default_generation();
	assert_all_pages_home();
	if (!compared) {
		print_message("    no lookup generation to compare in this build (meson "
			      "-Ddesigns=all)\n");
		skip();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_convert_layout_and_checks),
		cmocka_unit_test(test_order0_and_shared_memory),
		cmocka_unit_test(test_lookup_unknown_id),
		cmocka_unit_test(test_page_pool_frame_without_pool),
		cmocka_unit_test(test_generations_identical),
	};

	xdp_test_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
