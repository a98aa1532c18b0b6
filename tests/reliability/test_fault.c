/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Fault injection at every allocation point page_pool depends on - the
 * page allocator, DMA map, the memory provider, DMA tracking (index and
 * item designs), kmalloc - with each rule: fail every Nth call, fail with
 * probability p, fail the next N. For every case:
 *   - allocations fail cleanly: 0/NULL, never a half-made page;
 *   - the faults are counted: pp_fault_count(), and the layer's own counter
 *     (page allocator failures, DMA map errors), and the pool's allocation
 *     statistics count exactly the allocations that succeeded;
 *   - nothing leaks: inflight matches what the test holds, and after
 *     destroy the arena is whole, no mapping is live, the provider has all
 *     its buffers, no WARN, no DMA-API violation (the shared checker);
 *   - the pool keeps working when the fault is cleared.
 * And page_pool_create() and pp_region_provider_create() fail cleanly with
 * -ENOMEM at each of their allocations in turn.
 */
#include <unistd.h>

#include "rel_test.h"

struct rel_env rel;

struct fcase {
	enum pp_fault_point point;
	struct pp_fault_config cfg;
	enum rel_pool_kind kind;
	bool expect_null;	/* the rule is strong enough to empty a refill */
	bool hold_all;		/* keep every page: the pool must grow */
	int rounds;		/* allocations (0: ROUNDS) */
};

#define ROUNDS		600
#define KEEP		1600	/* the array; normally at most KEEP_SOME are kept */
#define KEEP_SOME	200
#define AFTER		300

static unsigned long map_errors(void)
{
	struct pp_dma_stats st;

	pp_dma_get_stats(rel.dev, &st);
	return st.map_errors;
}

static unsigned long alloc_failures(void)
{
	struct pp_mem_counters mc;

	pp_mem_get_counters(&mc);
	return mc.alloc_failed;
}

/* Distinct netmems among @n (fragments of one page count once). */
static long distinct(const netmem_ref *held, int n)
{
	long d = 0;
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && held[j] != held[i]; j++)
			;
		d += j == i;
	}
	return d;
}

static void put_all(struct page_pool *pool, netmem_ref *held, int *n)
{
	while (*n)
		page_pool_put_full_netmem(pool, held[--*n], false);
}

static void run_case(void **state)
{
	const struct fcase *fc = *state;
	unsigned long f0, m0, a0, injected;
	static netmem_ref held[KEEP];
	struct page_pool_stats st;
	struct page_pool *pool;
	struct ppinv c;
	int i, n = 0, nulls = 0, ok = 0, rounds = fc->rounds ? fc->rounds : ROUNDS;
	u64 counted;

	/* The tracking cases are the index design's but for the item kind
	 * (rel_pool() makes the pool with the design chosen here). */
	if (fc->kind == REL_ITEMS)
		PP_TEST_NEEDS_DMA_TRACKING(PP_DMA_TRACK_ITEMS);
	else if (fc->point == PP_FAULT_TRACKING)
		PP_TEST_NEEDS_DMA_TRACKING(PP_DMA_TRACK_INDEX);
	rel_checker(&c);
	pool = rel_pool(fc->kind);
	f0 = pp_fault_count(fc->point);
	m0 = map_errors();
	a0 = alloc_failures();
	assert_int_equal(pp_fault_inject(fc->point, &fc->cfg), 0);

	local_bh_disable();
	for (i = 0; i < rounds; i++) {
		netmem_ref nm = rel_alloc(pool, fc->kind);

		if (!nm) {
			nulls++;
			continue;
		}
		ok++;
		assert_int_equal(ppinv_check_held(&c, nm, pool, 0), 0);
		if (fc->hold_all || (i % 3 == 0 && n < KEEP_SOME))
			held[n++] = nm;		/* in flight for a while */
		else
			page_pool_put_full_netmem(pool, nm, true);
		if (n == KEEP_SOME && !fc->hold_all)
			put_all(pool, held, &n);	/* through the ring */
	}
	local_bh_enable();
	injected = pp_fault_count(fc->point) - f0;
	assert_int_equal(pp_fault_inject(fc->point, NULL), 0);

	/* The faults happened and surfaced as clean failures. */
	assert_true(injected > 0);
	if (fc->expect_null)
		assert_true(nulls > 0);
	assert_int_equal(nulls + ok, rounds);
	if (fc->point == PP_FAULT_DMA_MAP)
		assert_int_equal(map_errors() - m0, injected);	/* each one a map error */
	if (fc->point == PP_FAULT_PAGE_ALLOC && nulls)
		assert_true(alloc_failures() - a0 > 0);
	if (fc->point == PP_FAULT_MP_ALLOC)
		assert_int_equal(nulls, injected);	/* the provider is asked only when empty */
	/* Statistics count the successes, each once (fragments share pages). */
	memset(&st, 0, sizeof(st));
	page_pool_get_stats(pool, &st);
	counted = st.alloc_stats.fast + st.alloc_stats.slow + st.alloc_stats.refill +
		  st.alloc_stats.slow_high_order;
	if (fc->kind != REL_FRAG && fc->kind != REL_MP)
		assert_int_equal(counted, ok);
	assert_int_equal(ppinv_check_pool(&c, pool, distinct(held, n), false), 0);
	assert_int_equal(ppinv_check_step(&c), 0);

	/* Fault cleared: the pool works again, every time. */
	put_all(pool, held, &n);
	local_bh_disable();
	for (i = 0; i < AFTER; i++) {
		netmem_ref nm = rel_alloc(pool, fc->kind);

		assert_true(nm != 0);
		if (n < KEEP_SOME && fc->kind != REL_MP)
			held[n++] = nm;
		else
			page_pool_put_full_netmem(pool, nm, true);
	}
	local_bh_enable();
	put_all(pool, held, &n);

	rel_destroy(&c, pool);
	assert_int_equal(pp_region_provider_free(rel.rp), REL_MP_NIOVS);
	assert_int_equal(ppinv_check_idle(&c), 0);
}

#define NTH(p, n, k, null)	{ .point = p, .cfg = { .every_nth = n }, .kind = k, .expect_null = null }
#define PROB(p, x, k, null)	{ .point = p, .cfg = { .probability = x, .seed = 42 }, .kind = k, .expect_null = null }
#define NEXT(p, n, k, null)	{ .point = p, .cfg = { .next_n = n }, .kind = k, .expect_null = null }
#define SKIP_NTH(p, s, n, k)	{ .point = p, .cfg = { .every_nth = n, .skip = s }, .kind = k, .expect_null = true }

static const struct fcase cases[] = {
	/* Page allocator: a refill takes what the bulk got (partial bulks
	 * are fine); order > 0 and an empty bulk surface as NULL. */
	NTH(PP_FAULT_PAGE_ALLOC, 3, REL_DMA, false),
	NTH(PP_FAULT_PAGE_ALLOC, 1, REL_DMA, true),
	PROB(PP_FAULT_PAGE_ALLOC, 0.3, REL_ORDER2, true),
	NEXT(PP_FAULT_PAGE_ALLOC, 70, REL_DMA, true),
	NTH(PP_FAULT_PAGE_ALLOC, 2, REL_FRAG, true),
	PROB(PP_FAULT_PAGE_ALLOC, 0.5, REL_PLAIN, false),
	SKIP_NTH(PP_FAULT_PAGE_ALLOC, 100, 1, REL_ORDER2),
	/* DMA map: an unmapped page never leaves the pool. */
	NTH(PP_FAULT_DMA_MAP, 2, REL_DMA, false),
	NEXT(PP_FAULT_DMA_MAP, 64, REL_DMA, true),
	PROB(PP_FAULT_DMA_MAP, 0.25, REL_ORDER2, true),
	NTH(PP_FAULT_DMA_MAP, 3, REL_FRAG, true),
	/* DMA tracking: a page that cannot be tracked is unmapped and
	 * dropped (index: per page; items: per block of items). The index
	 * cases need the index design, the item case the item design. */
	NTH(PP_FAULT_TRACKING, 2, REL_DMA, false),
	NEXT(PP_FAULT_TRACKING, 64, REL_DMA, true),
	PROB(PP_FAULT_TRACKING, 0.5, REL_ORDER2, true),
	/* (items: the pool preallocates 1152 items; hold more than that) */
	{ .point = PP_FAULT_TRACKING, .cfg = { .next_n = 1000 }, .kind = REL_ITEMS,
	  .expect_null = true, .hold_all = true, .rounds = 1500 },
	/* Memory provider. */
	NTH(PP_FAULT_MP_ALLOC, 2, REL_MP, true),
	PROB(PP_FAULT_MP_ALLOC, 0.5, REL_MP, true),
	NEXT(PP_FAULT_MP_ALLOC, 3, REL_MP, true),
	/* kmalloc: IOMMU page tables, DMA-debug records, tracking chunks,
	 * return lanes. */
	NTH(PP_FAULT_KMALLOC, 5, REL_DMA, false),
	NEXT(PP_FAULT_KMALLOC, 64, REL_DMA, true),
	PROB(PP_FAULT_KMALLOC, 0.2, REL_ORDER2, true),
};

/* page_pool_create() fails with -ENOMEM at each of its allocations in
 * turn (kmalloc, and the item blocks the seeds' tracking preallocates),
 * undoing everything it did (LSan checks the heap in sanitizer builds, the
 * checker the rest), until it has none left to fail. The item runs need
 * the item design: index tracking allocates nothing at create (its table
 * grows at the first map), so a run of it could not fail there. */
static void test_create_fails_at_each_allocation(void **state)
{
	static const struct {
		enum rel_pool_kind kind;
		enum pp_fault_point point;
	} runs[] = {
		{ REL_DMA, PP_FAULT_KMALLOC }, { REL_ITEMS, PP_FAULT_KMALLOC },
		{ REL_ITEMS, PP_FAULT_TRACKING }, { REL_PLAIN, PP_FAULT_KMALLOC },
		{ REL_MP, PP_FAULT_KMALLOC },
	};
	struct pp_fault_config cfg = { .every_nth = 1 };
	unsigned int k, step, failures;
	struct ppinv c;

	(void)state;
	for (k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		struct page_pool_params pp = {
			.pool_size = 64, .nid = NUMA_NO_NODE, .dev = rel.dev,
			.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE,
			.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		};
		struct page_pool *pool = NULL;

		if (runs[k].kind == REL_PLAIN) {
			pp.flags = 0;
			pp.dev = NULL;
		} else if (runs[k].kind == REL_MP) {
			pp.flags |= PP_FLAG_ALLOW_UNREADABLE_NETMEM;
			pp.netdev = rel.netdev;
		}
		if (runs[k].kind == REL_ITEMS && !pp_test_dma_tracking(PP_DMA_TRACK_ITEMS))
			continue;	/* (said so) */
		pp_test_dma_tracking_restore();
		rel_checker(&c);
		failures = 0;
		for (step = 0; step < 64; step++) {
			cfg.skip = step;
			if (runs[k].kind == REL_ITEMS)
				assert_true(pp_test_dma_tracking(PP_DMA_TRACK_ITEMS));
			pp_fault_inject(runs[k].point, &cfg);
			pool = page_pool_create(&pp);
			pp_fault_inject(runs[k].point, NULL);
			pp_test_dma_tracking_restore();
			if (!IS_ERR(pool))
				break;
			assert_int_equal(PTR_ERR(pool), -ENOMEM);
			failures++;
			assert_int_equal(ppinv_check_no_pools(&c), 0);
		}
		assert_false(IS_ERR_OR_NULL(pool));
		assert_true(failures > 0);	/* create does allocate there */
		print_message("run %u: page_pool_create() failed cleanly at each of %u allocation(s)\n",
			      k, failures);
		rel_destroy(&c, pool);
		assert_int_equal(ppinv_check_idle(&c), 0);
	}
}

/*
 * pp_region_provider_create() under kmalloc faults, each allocation in
 * turn: every failure is -ENOMEM (or -EIO when the allocation that failed
 * was the DMA layer's) and loses nothing, until the step where
 * no allocation fails and the provider is created (and destroyed). Found
 * by the fuzzer: region_free() walked rp->chunks[] and rp->chunk_dma[] when
 * the kcalloc() of one of them had failed, and crashed (fixed in
 * src/core/mp.c).
 */
static void test_provider_create_fails_at_each_allocation(void **state)
{
	struct pp_fault_config cfg = { .every_nth = 1 };
	struct pp_region_provider *rp = NULL;
	int step, failures = 0;
	struct ppinv c;

	(void)state;
	rel_checker(&c);
	for (step = 0; step < 64; step++) {
		cfg.skip = (unsigned long)step;
		pp_fault_inject(PP_FAULT_KMALLOC, &cfg);
		rp = pp_region_provider_create(rel.dev, 8);
		pp_fault_inject(PP_FAULT_KMALLOC, NULL);
		if (!IS_ERR(rp))
			break;
		/* -EIO: the failed allocation was the DMA layer's (IOMMU
		 * or dma-debug), so a chunk's mapping failed. */
		assert_true(PTR_ERR(rp) == -ENOMEM || PTR_ERR(rp) == -EIO);
		failures++;
	}
	assert_false(IS_ERR(rp));
	assert_true(failures >= 4);	/* at least the four arrays */
	assert_int_equal(pp_region_provider_destroy(rp), 0);
	assert_int_equal(ppinv_check_idle(&c), 0);	/* nothing leaked */
}

int main(void)
{
	struct CMUnitTest tests[sizeof(cases) / sizeof(cases[0]) + 2];
	static char names[sizeof(cases) / sizeof(cases[0])][96];
	static const char *const point_names[PP_FAULT_NR] = {
		"page_alloc", "dma_map", "mp_alloc", "tracking", "kmalloc",
	};
	static const char *const kind_names[] = {
		"dma", "items", "plain", "order2", "frag", "mp",
	};
	size_t i, n = sizeof(cases) / sizeof(cases[0]);

	for (i = 0; i < n; i++) {
		const struct fcase *fc = &cases[i];

		if (fc->cfg.every_nth)
			snprintf(names[i], sizeof(names[i]), "%s_every_%lu%s_%s",
				 point_names[fc->point], fc->cfg.every_nth,
				 fc->cfg.skip ? "_after_skip" : "", kind_names[fc->kind]);
		else if (fc->cfg.next_n)
			snprintf(names[i], sizeof(names[i]), "%s_next_%lu_%s",
				 point_names[fc->point], fc->cfg.next_n, kind_names[fc->kind]);
		else
			snprintf(names[i], sizeof(names[i]), "%s_probability_%.2f_%s",
				 point_names[fc->point], fc->cfg.probability, kind_names[fc->kind]);
		tests[i] = (struct CMUnitTest){ .name = names[i], .test_func = run_case,
						.initial_state = (void *)fc };
	}
	tests[n] = (struct CMUnitTest)cmocka_unit_test(test_create_fails_at_each_allocation);
	tests[n + 1] = (struct CMUnitTest)cmocka_unit_test(test_provider_create_fails_at_each_allocation);
	rel_setup();
	return pp_test_exit_status(_cmocka_run_group_tests("reliability/fault", tests, n + 2,
							   NULL, NULL), (int)(n + 2));
}
