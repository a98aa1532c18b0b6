/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Every check of the shared invariant checker (invariants.h), the one the
 * fuzzer and the stress program run, shown to fire: each test breaks one
 * invariant on purpose - keeps a page, frees a page twice, puts a page
 * twice, unmaps a pool page behind the pool's back, skips an unmap, bumps
 * the release counter, leaves a page marked page_pool, unbinds with pages
 * in flight without DMA tracking - asserts that exactly that check reports
 * it, then repairs the damage and asserts that the same check passes.
 */
#include "rel_test.h"

struct rel_env rel;

/* A fresh quiet checker that records, and counts calls to on_failure. */
static int failure_calls;

static void count_failure(struct ppinv *c, enum ppinv_kind kind, const char *msg)
{
	(void)c;
	(void)kind;
	(void)msg;
	failure_calls++;
}

static void checker(struct ppinv *c)
{
	rel_checker(c);
	c->on_failure = count_failure;
	failure_calls = 0;
}

/* Exactly @n failures, all of @kind, since the checker was made. */
static void assert_fired(const struct ppinv *c, enum ppinv_kind kind, unsigned long n)
{
	assert_int_equal(c->failures[kind], n);
	assert_int_equal(c->total_failures, n);
	assert_int_equal(failure_calls, (int)n);
	assert_non_null(strstr(c->last, ppinv_kind_name(kind)));
}

static void test_page_leaked(void **state)
{
	struct page_pool *pool = rel_pool(REL_DMA);
	struct page *kept;
	struct ppinv c;
	u32 id = pp_page_pool_id(pool);

	(void)state;
	checker(&c);
	kept = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_destroy(pool);		/* the page stays in flight */
	pp_workqueue_run_all();
	assert_int_equal(ppinv_check_arena_whole(&c), 2);	/* not home, still pp */
	assert_int_equal(c.failures[PPINV_PAGE_LEAKED], 1);
	assert_int_equal(c.failures[PPINV_PP_PAGE_LEFT], 1);
	assert_non_null(strstr(c.last, "1 page(s) still marked as page_pool pages"));
	/* The pool waits for it: that is a leaked pool too, once "gone". */
	assert_int_equal(ppinv_check_no_pools(&c), 1);
	assert_int_equal(c.failures[PPINV_POOL_LEAKED], 1);
	assert_int_equal(ppinv_check_pool_gone(&c, id), 1);

	/* Given back: everything holds. */
	checker(&c);
	page_pool_put_full_page(pool, kept, false);
	rel_destroy_wait(&c, id);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

static void test_page_double_freed(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct ppinv c;

	(void)state;
	checker(&c);
	__free_page(page);
	__free_page(page);			/* the page allocator catches it */
	assert_int_equal(ppinv_check_step(&c), 2);	/* the counter, and its WARN */
	assert_int_equal(c.failures[PPINV_DOUBLE_FREE], 1);
	assert_int_equal(c.failures[PPINV_WARN], 1);
	assert_non_null(strstr(c.last, "1 WARN(s), declared 0"));

	checker(&c);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

static void test_page_double_returned(void **state)
{
	struct page_pool *pool = rel_pool(REL_DMA);
	struct page *page;
	struct ppinv c;

	(void)state;
	checker(&c);
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_recycle_direct(pool, page);
	page_pool_recycle_direct(pool, page);	/* again: found at once */
	assert_int_equal(ppinv_check_step(&c), 2);
	assert_int_equal(c.failures[PPINV_DOUBLE_RETURN], 1);
	assert_int_equal(c.failures[PPINV_WARN], 1);

	/* The same misuse, declared (what the fuzzer does): no failure, the
	 * direct one now and the one through the ring when the pool takes it
	 * out of the ring (here, destroy's drain). */
	checker(&c);
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_recycle_direct(pool, page);
	page_pool_recycle_direct(pool, page);
	ppinv_expect_double_put(&c);
	assert_int_equal(ppinv_check_step(&c), 0);
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_put_full_page(pool, page, false);
	page_pool_put_full_page(pool, page, false);
	ppinv_expect_double_put(&c);
	assert_int_equal(ppinv_check_step(&c), 0);
	assert_int_equal(c.pending_double_puts, 1);	/* not found yet */
	assert_int_equal(c.declared_warns, 1);
	/* Destroy's drain finds it: seen, no failure. */
	rel_destroy(&c, pool);
	assert_int_equal(ppinv_check_step(&c), 0);
	assert_int_equal(c.pending_double_puts, 0);
	assert_int_equal(c.declared_warns, 2);
	if (ppinv_check_idle(&c))
		fail_msg("%s", c.last);

	/* Declared but never found: the idle check fires. */
	ppinv_expect_double_put(&c);
	assert_int_equal(ppinv_check_idle(&c), 1);
	assert_fired(&c, PPINV_DOUBLE_RETURN, 1);

	/* Declared but not done: that fires too. */
	checker(&c);
	ppinv_expect_warns(&c, 1);
	assert_int_equal(ppinv_check_step(&c), 1);
	assert_fired(&c, PPINV_WARN, 1);
}

/* A pool page unmapped behind the pool's back: the pool's own unmap at
 * release is then a double unmap, a DMA-API violation. */
static void test_dma_violation(void **state)
{
	struct page_pool_params pp = {
		.pool_size = 64, .nid = NUMA_NO_NODE, .dev = rel.dev,
		.dma_dir = DMA_FROM_DEVICE, .flags = PP_FLAG_DMA_MAP,
	};
	struct page_pool *pool = page_pool_create(&pp);
	struct page *page;
	struct ppinv c;

	(void)state;
	checker(&c);
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	dma_unmap_page_attrs(rel.dev, page_pool_get_dma_addr(page), PAGE_SIZE,
			     DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	assert_int_equal(ppinv_check_step(&c), 0);	/* legal so far */
	page_pool_put_full_page(pool, page, false);
	page_pool_destroy(pool);			/* unmaps it again */
	pp_workqueue_run_all();
	assert_int_equal(ppinv_check_step(&c), 1);
	assert_fired(&c, PPINV_DMA_VIOLATION, 1);
	assert_non_null(strstr(c.last, "double-unmap=1"));

	checker(&c);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

/* An unmap that never happens: the pool releases a page whose DMA address
 * it lost (a hook zeroes it), so it unmaps a wrong address and the real
 * mapping stays live with no user. */
static void test_unmap_skipped(void **state)
{
	struct page_pool *pool = rel_pool(REL_DMA);
	struct page *page;
	struct ppinv c;
	dma_addr_t addr;

	(void)state;
	checker(&c);
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	addr = page_pool_get_dma_addr(page);
	page->dma_addr = 0;				/* the hook */
	get_page(page);					/* release, not recycle */
	page_pool_put_full_page(pool, page, false);
	put_page(page);
	rel_destroy(&c, pool);
	assert_int_equal(ppinv_check_dma_idle(&c), 1);
	assert_int_equal(c.failures[PPINV_DMA_UNMAP_SKIPPED], 1);
	assert_non_null(strstr(c.last, "mapping(s) live with no user"));
	/* (The wrong unmap itself was a violation too.) */
	assert_int_equal(ppinv_check_step(&c), 1);
	assert_int_equal(c.failures[PPINV_DMA_VIOLATION], 1);

	/* Unmapped by hand: the device is idle again. */
	checker(&c);
	dma_unmap_page_attrs(rel.dev, addr, PAGE_SIZE, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

static void test_inflight_mismatch(void **state)
{
	struct page_pool *pool = rel_pool(REL_DMA);
	struct page *p[2];
	struct ppinv c;

	(void)state;
	checker(&c);
	p[0] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	p[1] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_int_equal(ppinv_check_pool(&c, pool, 2, false), 0);
	assert_int_equal(ppinv_check_pool(&c, pool, 1000, false), 1);	/* more held than out */
	assert_fired(&c, PPINV_INFLIGHT, 1);

	/* The release counter moves without a release. */
	checker(&c);
	atomic_add(64, &pool->pages_state_release_cnt);
	assert_int_equal(ppinv_check_pool(&c, pool, 2, false), 1);
	assert_fired(&c, PPINV_INFLIGHT, 1);
	atomic_add(1000, &pool->pages_state_release_cnt);
	assert_int_equal(ppinv_check_pool(&c, pool, 2, false), 1);
	assert_non_null(strstr(c.last, "negative inflight"));
	atomic_sub(1064, &pool->pages_state_release_cnt);

	/* Exact: a destroyed pool holds exactly the pages out. */
	checker(&c);
	page_pool_put_full_page(pool, p[1], false);
	page_pool_destroy(pool);
	assert_int_equal(ppinv_check_pool(&c, pool, 1, true), 0);
	assert_int_equal(ppinv_check_pool(&c, pool, 0, true), 1);
	assert_fired(&c, PPINV_INFLIGHT, 1);

	checker(&c);
	page_pool_put_full_page(pool, p[0], false);
	rel_destroy_wait(&c, pp_page_pool_id(pool));
	assert_int_equal(ppinv_check_idle(&c), 0);
}

/* Pages parked in the ring (or lanes) of the build's design: within the
 * bound, the check is quiet. */
static void test_ring_bound(void **state)
{
	struct page_pool *pool = rel_pool(REL_PLAIN);
	struct page *p[4];
	struct ppinv c;
	int i;

	(void)state;
	checker(&c);
	for (i = 0; i < 4; i++)
		p[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	for (i = 0; i < 4; i++)
		page_pool_put_full_page(pool, p[i], false);	/* parked in the ring */
	assert_int_equal(ppinv_check_pool(&c, pool, 0, false), 0);
	rel_destroy(&c, pool);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

/* The lanes' books broken: the check fires. (A ptr_ring cannot hold more
 * than its slots, and the check reads no more than that.) */
static void test_ring_bound_lanes(void **state)
{
	struct page_pool *pool;
	struct page *p[4];
	struct ppinv c;
	int i;

	(void)state;
	PP_TEST_NEEDS_RING(PP_RING_LANES);
	pool = rel_pool(REL_PLAIN);
	pp_test_ring_restore();
	assert_non_null(pool->lanes);
	checker(&c);
	for (i = 0; i < 4; i++)
		p[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	for (i = 0; i < 4; i++)
		page_pool_put_full_page(pool, p[i], false);	/* parked in a lane */
	assert_int_equal(ppinv_check_pool(&c, pool, 0, false), 0);

	/* A credit appears from nowhere: the books do not add up, and the
	 * lanes could park more than the kernel's ring. */
	atomic64_inc(&pool->ring_credits);
	assert_int_equal(ppinv_check_pool(&c, pool, 0, false), 1);
	assert_fired(&c, PPINV_RING_BOUND, 1);
	assert_non_null(strstr(c.last, "ring credits"));
	atomic64_dec(&pool->ring_credits);

	/* A ring that claims fewer slots than the lanes hold pages. */
	checker(&c);
	pool->ring.size = 2;
	assert_int_equal(ppinv_check_pool(&c, pool, 0, false), 1);
	assert_fired(&c, PPINV_RING_BOUND, 1);
	assert_non_null(strstr(c.last, "parked"));
	pool->ring.size = 256;

	checker(&c);
	assert_int_equal(ppinv_check_pool(&c, pool, 0, false), 0);
	rel_destroy(&c, pool);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

static void test_pp_page_left_behind(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct ppinv c;

	(void)state;
	checker(&c);
	WRITE_ONCE(page->pp_magic, PP_SIGNATURE);	/* a pool forgot to clear it */
	assert_int_equal(ppinv_check_arena_whole(&c), 2);	/* left behind, and not home */
	assert_int_equal(c.failures[PPINV_PP_PAGE_LEFT], 1);
	assert_int_equal(c.failures[PPINV_PAGE_LEAKED], 1);
	assert_non_null(strstr(c.last, "still marked as page_pool pages"));

	checker(&c);
	WRITE_ONCE(page->pp_magic, 0);
	__free_page(page);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

static void test_held_page(void **state)
{
	struct page_pool *a = rel_pool(REL_DMA), *b = rel_pool(REL_PLAIN);
	struct page *pa;
	struct ppinv c;

	(void)state;
	checker(&c);
	pa = page_pool_alloc_pages(a, GFP_ATOMIC);
	assert_int_equal(ppinv_check_held(&c, page_to_netmem(pa), a, 0), 0);
	assert_int_equal(ppinv_check_held(&c, page_to_netmem(pa), b, 0), 1);	/* wrong pool */
	assert_int_equal(ppinv_check_held(&c, page_to_netmem(pa), a, 1), 1);	/* a ref short */
	assert_int_equal(c.failures[PPINV_HELD_PAGE], 2);
	page_pool_put_full_page(a, pa, false);
	assert_int_equal(ppinv_check_held(&c, page_to_netmem(pa), a, 0), 1);	/* back in the pool */
	assert_non_null(strstr(c.last, "back in the pool"));

	checker(&c);
	rel_destroy(&c, a);
	rel_destroy(&c, b);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

/* The seed's crash, with DMA tracking off (the fix switched off): pages in
 * flight at driver unbind leak their mappings and are later unmapped
 * through the unbound device. The checker reports it unless told the fix
 * is off (expected) or the gate is off (tolerated); with tracking on the
 * same sequence is clean under the strict gate. */
static unsigned long unbind_scenario(struct ppinv *c, int tracking, bool say_fix_off)
{
	/* Its own device: unbinding rel.dev would take the provider's
	 * mapping with it. */
	struct device *dev = pp_device_create("rel-unbind", PP_DMA_IOMMU, PP_DMA_DEBUG);
	struct page_pool_params pp = {
		.pool_size = 64, .nid = NUMA_NO_NODE, .dev = dev, .dma_dir = DMA_FROM_DEVICE,
		.max_len = PAGE_SIZE, .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct page_pool *pool;
	struct page *page;
	unsigned long failures;
	u32 id;

	assert_false(IS_ERR_OR_NULL(dev));
	assert_int_equal(ppinv_track_device(c, dev), 0);
	/* (The caller checked that the build has @tracking.) */
	assert_true(pp_test_dma_tracking(tracking));
	pool = page_pool_create(&pp);
	pp_test_dma_tracking_restore();
	assert_false(IS_ERR_OR_NULL(pool));
	id = pp_page_pool_id(pool);
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_destroy(pool);			/* driver remove */
	ppinv_device_unbinding(c, dev, say_fix_off);
	device_release_driver(dev);
	ppinv_check_step(c);
	page_pool_put_full_page(pool, page, false);	/* the stack, later */
	rel_destroy_wait(c, id);
	ppinv_check_step(c);
	failures = c->total_failures;
	ppinv_device_settled(c, dev);
	ppinv_untrack_device(c, dev);
	pp_device_destroy(dev);
	return failures;
}

static void test_dma_unbind_gate(void **state)
{
	struct ppinv c;

	(void)state;
	PP_TEST_NEEDS_DMA_TRACKING(PP_DMA_TRACK_OFF);
	/* Fix off, checker strict and not told: it fires. */
	checker(&c);
	c.expect_dma_safe_unbind = true;
	assert_true(unbind_scenario(&c, PP_DMA_TRACK_OFF, false) >= 2);
	assert_int_equal(c.failures[PPINV_DMA_VIOLATION], c.total_failures);
	assert_non_null(strstr(c.last, "after an unbind with pages in flight"));
	assert_non_null(strstr(c.last, "use-after-unbind="));

	/* Told the fix is off: the same violations are expected. */
	checker(&c);
	c.expect_dma_safe_unbind = true;
	assert_int_equal(unbind_scenario(&c, PP_DMA_TRACK_OFF, true), 0);
	assert_true(c.expected_dma >= 2);

	/* Gate off (a build without DMA tracking): tolerated. */
	checker(&c);
	c.expect_dma_safe_unbind = false;
	assert_int_equal(unbind_scenario(&c, PP_DMA_TRACK_OFF, false), 0);
	assert_true(c.tolerated_dma >= 2);
}

/* The fix on, gate strict: nothing to report, with each design built. */
static void test_dma_unbind_clean_with_tracking(void **state)
{
	static const int modes[] = { PP_DMA_TRACK_INDEX, PP_DMA_TRACK_ITEMS };
	struct ppinv c;
	unsigned int i;

	(void)state;
	checker(&c);
	c.expect_dma_safe_unbind = true;
	for (i = 0; i < ARRAY_SIZE(modes); i++)
		if (pp_test_dma_tracking(modes[i]))
			assert_int_equal(unbind_scenario(&c, modes[i], false), 0);
	pp_test_dma_tracking_restore();
	assert_int_equal(c.expected_dma + c.tolerated_dma, 0);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

/* The gate's default and its environment override. */
static void test_gate_from_environment(void **state)
{
	struct ppinv c;

	(void)state;
	unsetenv(PPINV_ENV_DMA_SAFE_UNBIND);
	ppinv_init(&c);
	assert_int_equal(c.expect_dma_safe_unbind, PPINV_EXPECT_DMA_SAFE_UNBIND_DEFAULT);
	setenv(PPINV_ENV_DMA_SAFE_UNBIND, "0", 1);
	ppinv_init(&c);
	assert_false(c.expect_dma_safe_unbind);
	setenv(PPINV_ENV_DMA_SAFE_UNBIND, "1", 1);
	ppinv_init(&c);
	assert_true(c.expect_dma_safe_unbind);
	unsetenv(PPINV_ENV_DMA_SAFE_UNBIND);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_leaked),
		cmocka_unit_test(test_page_double_freed),
		cmocka_unit_test(test_page_double_returned),
		cmocka_unit_test(test_dma_violation),
		cmocka_unit_test(test_unmap_skipped),
		cmocka_unit_test(test_inflight_mismatch),
		cmocka_unit_test(test_ring_bound),
		cmocka_unit_test(test_ring_bound_lanes),
		cmocka_unit_test(test_pp_page_left_behind),
		cmocka_unit_test(test_held_page),
		cmocka_unit_test(test_dma_unbind_gate),
		cmocka_unit_test(test_dma_unbind_clean_with_tracking),
		cmocka_unit_test(test_gate_from_environment),
	};

	rel_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
