/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * alloc_contig_pages() and free_contig_range(): runs of 1, one largest
 * block less one page, one block and four blocks of pages are physically contiguous order-0 pages with refcount 1 each,
 * taken from the buddy lists exactly (free_pages drops by the run, the
 * excess of a split block goes back), zeroed on __GFP_ZERO, accessible
 * while the rest stays poisoned; given back the lists are as they were and
 * the walker finds no page held. Runs built from adjacent smaller blocks,
 * exhaustion (NULL, counted, quiet with __GFP_NOWARN), nodes and the
 * nodemask, fault injection, each kind of bad free (one WARN, its counter,
 * nothing changed), pages still referenced at free time, and two threads
 * cutting runs while others allocate single pages.
 * Layer: tests.
 */
#include <pthread.h>
#include <stdlib.h>

#include "mm_test.h"

#include "poison_check.h"

#define ARENA_BLOCKS	8	/* largest blocks */
#define B		PPMM_TEST_BLOCK	/* pages in one: 1024 at 4 KiB pages */
/* A count of pages as a share of a largest block: @n4k at 4 KiB pages
 * (where a block is 1024 pages), as much more as a block has more pages
 * at larger ones, so a run spans the same blocks in every build. */
#define NR(n4k)		((n4k) * B / 1024)

static int setup(void **state)
{
	mm_arena(ARENA_BLOCKS, 1, 0, 0);
	return 0;
}

static int setup_small(void **state)
{
	mm_arena(2, 1, 0, 0);	/* 2 largest blocks, 2 * B pages */
	return 0;
}

static int count_held(struct page *page, void *arg)
{
	*(unsigned long *)arg += page_ref_count(page) != 0;
	return 0;
}

/* Pages of the arena with a reference. */
static unsigned long mm_held(void)
{
	unsigned long n = 0;

	assert_int_equal(pp_mem_walk(count_held, &n), 0);
	return n;
}

/* @first .. @first + @nr - 1: contiguous in memory and in pfn, one node,
 * each an order-0 page of its own with refcount 1. */
static void assert_run(struct page *first, unsigned long nr)
{
	char *base = page_address(first);
	unsigned long i;

	for (i = 0; i < nr; i++) {
		struct page *p = first + i;

		if (page_address(p) != base + i * PAGE_SIZE)
			fail_msg("page %lu of %lu is not contiguous", i, nr);
		assert_int_equal(page_to_pfn(p), page_to_pfn(first) + i);
		assert_int_equal(page_to_nid(p), page_to_nid(first));
		assert_int_equal(page_ref_count(p), 1);
		assert_false(PageCompound(p));
		assert_int_equal(compound_order(p), 0);
		assert_false(page_pool_page_is_pp(p));
		assert_ptr_equal(virt_to_page(base + i * PAGE_SIZE + 100), p);
	}
}

/* One run of @nr pages: taken exactly, usable, given back exactly. */
static void run_of(unsigned long nr)
{
	struct mm_snap before, after;
	struct page *first;
	unsigned long free0, i;
	char *mem;

	mm_snap_take(&before);
	free0 = before.free_pages;
	first = alloc_contig_pages(nr, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_non_null(first);
	assert_run(first, nr);
	assert_int_equal(mm_free_pages(), free0 - nr);
	assert_int_equal(mm_held(), nr);
	mem = page_address(first);
	if (pp_test_poison_checkable()) {
		assert_true(pp_test_addressable(mem, nr * PAGE_SIZE));
		/* The excess of the block it was cut from went back poisoned
		 * (the arena is empty, so the run starts a largest block). */
		if (nr % PPMM_TEST_BLOCK)
			assert_true(pp_test_poisoned(mem + nr * PAGE_SIZE, PAGE_SIZE));
	}
	memset(mem, 0x5a, nr * PAGE_SIZE);
	for (i = 0; i < nr; i += 97)
		assert_int_equal(mem[i * PAGE_SIZE + PAGE_SIZE - 1], 0x5a);
	free_contig_range(page_to_pfn(first), nr);
	assert_int_equal(mm_held(), 0);
	if (pp_test_poison_checkable())
		assert_true(pp_test_poisoned(mem, PAGE_SIZE));
	pp_mem_drain_local();
	mm_snap_take(&after);
	mm_snap_assert_equal(&before, &after);
	mm_assert_all_free();
}

static void test_run_1(void **state)
{
	run_of(1);
}

static void test_run_block_less_one(void **state)
{
	run_of(B - 1);
}

static void test_run_block(void **state)
{
	run_of(B);
}

static void test_run_4_blocks(void **state)
{
	run_of(4 * B);
}

/* Odd sizes across block boundaries, one after the other with the
 * previous ones held: runs never overlap and the count is exact. */
static void test_runs_do_not_overlap(void **state)
{
	const unsigned long nrs[] = { 3, NR(1500), 1, 2 * B + 1, 17, NR(700), B, 5 };
	struct page *runs[ARRAY_SIZE(nrs)];
	unsigned long free0 = mm_free_pages(), sum = 0, i, j;

	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		runs[i] = alloc_contig_pages(nrs[i], GFP_KERNEL, NUMA_NO_NODE, NULL);
		assert_non_null(runs[i]);
		assert_run(runs[i], nrs[i]);
		memset(page_address(runs[i]), (int)i, nrs[i] * PAGE_SIZE);
		sum += nrs[i];
		assert_int_equal(mm_free_pages(), free0 - sum);
	}
	for (i = 0; i < ARRAY_SIZE(nrs); i++)
		for (j = 0; j < ARRAY_SIZE(nrs); j++)
			if (i != j)
				assert_true(runs[i] + nrs[i] <= runs[j] ||
					    runs[j] + nrs[j] <= runs[i]);
	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		unsigned char *m = page_address(runs[i]);

		assert_int_equal(m[0], i);
		assert_int_equal(m[nrs[i] * PAGE_SIZE - 1], i);
	}
	assert_int_equal(mm_held(), sum);
	for (i = ARRAY_SIZE(nrs); i-- > 0;)
		free_contig_range(page_to_pfn(runs[i]), nrs[i]);
	assert_int_equal(mm_held(), 0);
	mm_assert_all_free();
}

static void test_zeroed(void **state)
{
	unsigned long nr = 1500, i;
	struct page *first;
	unsigned char *m;

	first = alloc_contig_pages(nr, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_non_null(first);
	memset(page_address(first), 0xff, nr * PAGE_SIZE);
	free_contig_range(page_to_pfn(first), nr);
	pp_mem_drain_local();
	/* Lowest address first: the same memory again, dirty. */
	first = alloc_contig_pages(nr, GFP_KERNEL | __GFP_ZERO, NUMA_NO_NODE, NULL);
	assert_non_null(first);
	m = page_address(first);
	for (i = 0; i < nr * PAGE_SIZE; i++)
		if (m[i])
			fail_msg("byte %lu of a __GFP_ZERO run is %#x", i, m[i]);
	free_contig_range(page_to_pfn(first), nr);
	mm_assert_all_free();
}

/* The pages of a run are the caller's one by one: each may be put on its
 * own, in any order, and the lists come back whole. */
static void test_pages_put_one_by_one(void **state)
{
	unsigned long nr = B - 1, i, j, t, *order;
	struct mm_snap before, after;
	struct page *first;

	mm_snap_take(&before);
	first = alloc_contig_pages(nr, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_non_null(first);
	order = malloc(nr * sizeof(*order));
	for (i = 0; i < nr; i++)
		order[i] = i;
	srand(7);
	for (i = nr - 1; i > 0; i--) {
		j = (unsigned long)rand() % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < nr; i++)
		put_page(first + order[i]);
	free(order);
	assert_int_equal(mm_held(), 0);
	pp_mem_drain_local();
	mm_snap_take(&after);
	mm_snap_assert_equal(&before, &after);
}

/*
 * One page held at the bottom of the first block: no free largest block
 * is left there, yet the B - 1 pages above it and the next block make a
 * run of 2 * B - 1 (adjacent smaller blocks); 2 * B has no room.
 */
static void test_run_from_adjacent_blocks(void **state)
{
	struct page *pin, *run;
	struct pp_mem_counters c0, c1;

	pin = alloc_pages(GFP_KERNEL, 0);
	assert_non_null(pin);
	assert_int_equal(page_to_pfn(pin), PP_PFN_OFFSET);	/* lowest first */
	pp_mem_get_counters(&c0);
	assert_null(alloc_contig_pages(2 * B, GFP_KERNEL | __GFP_NOWARN, NUMA_NO_NODE, NULL));
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.alloc_failed, c0.alloc_failed + 1);
	/* The failed try drained this CPU's list, whose pages held the
	 * first block apart. */
	assert_int_equal(pp_mem_pcp_count(0, 0), 0);
	run = alloc_contig_pages(2 * B - 1, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_non_null(run);
	assert_ptr_equal(run, pin + 1);
	assert_run(run, 2 * B - 1);
	assert_int_equal(mm_free_pages(), 0);
	free_contig_range(page_to_pfn(run), 2 * B - 1);
	put_page(pin);
	mm_assert_all_free();
}

static void test_exhaustion(void **state)
{
	struct pp_mem_counters c0, c1;
	unsigned long warns;
	struct page *all, *one;

	pp_mem_get_counters(&c0);
	warns = pp_warn_count();
	pp_test_log_clear();
	assert_null(alloc_contig_pages(2 * B + 1, GFP_KERNEL | __GFP_NOWARN, NUMA_NO_NODE, NULL));
	assert_false(pp_test_log_contains("contiguous allocation failure"));
	all = alloc_contig_pages(2 * B, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_non_null(all);
	assert_int_equal(mm_free_pages(), 0);
	assert_null(alloc_contig_pages(1, GFP_KERNEL | __GFP_NOWARN, NUMA_NO_NODE, NULL));
	assert_null(alloc_page(GFP_KERNEL | __GFP_NOWARN));
	/* Without __GFP_NOWARN the failure is printed (not a WARN). */
	assert_null(alloc_contig_pages(1, GFP_KERNEL, NUMA_NO_NODE, NULL));
	assert_true(pp_test_log_contains("contiguous allocation failure: 1 pages"));
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.alloc_failed, c0.alloc_failed + 4);
	assert_int_equal(pp_warn_count(), warns);
	/* One page back: exactly one page can be had again. */
	put_page(all + 2 * B - 1);
	one = alloc_contig_pages(1, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_ptr_equal(one, all + 2 * B - 1);
	free_contig_range(page_to_pfn(all), 2 * B);
	mm_assert_all_free();
}

static void test_bad_arguments(void **state)
{
	unsigned long warns = pp_warn_count(), free0 = mm_free_pages();

	assert_null(alloc_contig_pages(0, GFP_KERNEL | __GFP_NOWARN, NUMA_NO_NODE, NULL));
	assert_null(alloc_contig_pages(4, GFP_KERNEL | __GFP_COMP | __GFP_NOWARN,
				       NUMA_NO_NODE, NULL));
	assert_int_equal(pp_warn_count(), warns);
	assert_null(alloc_contig_pages(4, GFP_KERNEL | __GFP_COMP, NUMA_NO_NODE, NULL));
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_null(alloc_contig_pages(ARENA_BLOCKS * B + 1, GFP_KERNEL | __GFP_NOWARN,
				       NUMA_NO_NODE, NULL));
	assert_int_equal(mm_free_pages(), free0);
	free_contig_range(page_to_pfn(pp_mem_map.map), 0);	/* nothing */
	assert_int_equal(pp_warn_count(), warns + 1);
	mm_assert_all_free();
}

static void test_fault_injection(void **state)
{
	unsigned long free0 = mm_free_pages();
	struct page *p;

	assert_int_equal(pp_fault_inject(PP_FAULT_PAGE_ALLOC,
					 &(struct pp_fault_config){ .next_n = 1 }), 0);
	assert_null(alloc_contig_pages(100, GFP_KERNEL | __GFP_NOWARN, NUMA_NO_NODE, NULL));
	assert_int_equal(mm_free_pages(), free0);
	p = alloc_contig_pages(100, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_non_null(p);
	free_contig_range(page_to_pfn(p), 100);
	pp_fault_inject(PP_FAULT_PAGE_ALLOC, NULL);
	mm_assert_all_free();
}

/* Two nodes of 2 * B pages: the node asked for, the nodemask, and a run
 * never spans nodes. */
static void test_nodes(void **state)
{
	nodemask_t only1 = NODE_MASK_NONE, none = NODE_MASK_NONE;
	struct page *a, *b;

	mm_arena(4, 2, 0, 0);
	node_set(1, only1);
	assert_true(node_isset(1, only1));
	assert_false(node_isset(0, only1));
	assert_false(node_isset(MAX_NUMNODES, only1));

	a = alloc_contig_pages(2 * B, GFP_KERNEL, 0, NULL);
	assert_non_null(a);
	assert_run(a, 2 * B);
	assert_int_equal(page_to_nid(a), 0);
	/* Node 0 is full: __GFP_THISNODE has nothing, without it node 1. */
	assert_null(alloc_contig_pages(10, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 0, NULL));
	b = alloc_contig_pages(10, GFP_KERNEL, 0, NULL);
	assert_non_null(b);
	assert_int_equal(page_to_nid(b), 1);
	free_contig_range(page_to_pfn(b), 10);
	free_contig_range(page_to_pfn(a), 2 * B);
	pp_mem_drain_local();

	/* More than a node: no run, though the arena has the pages. */
	assert_null(alloc_contig_pages(2 * B + 1, GFP_KERNEL | __GFP_NOWARN, NUMA_NO_NODE, NULL));
	a = alloc_contig_pages(1000, GFP_KERNEL, 0, &only1);
	assert_non_null(a);
	assert_int_equal(page_to_nid(a), 1);
	assert_int_equal(page_to_nid(a + 999), 1);
	assert_null(alloc_contig_pages(1, GFP_KERNEL | __GFP_NOWARN, NUMA_NO_NODE, &none));
	free_contig_range(page_to_pfn(a), 1000);
	mm_assert_all_free();
	mm_arena(ARENA_BLOCKS, 1, 0, 0);
}

struct expect {
	struct pp_mem_counters c;
	unsigned long warns, held;
	struct mm_snap snap;
};

static void before(struct expect *e)
{
	pp_mem_get_counters(&e->c);
	e->warns = pp_warn_count();
	e->held = mm_held();
	mm_snap_take(&e->snap);
	pp_test_log_clear();
}

/* One WARN with @msg, counted in @field only; nothing changed. */
#define assert_one_report(e, field, msg)					\
	do {									\
		struct pp_mem_counters __c;					\
		struct mm_snap __s;						\
										\
		pp_mem_get_counters(&__c);					\
		assert_int_equal(__c.field, (e)->c.field + 1);			\
		assert_int_equal(__c.double_free + __c.bad_free + __c.out_of_arena, \
				 (e)->c.double_free + (e)->c.bad_free +		\
				 (e)->c.out_of_arena + 1);			\
		assert_int_equal(pp_warn_count(), (e)->warns + 1);		\
		assert_true(pp_test_log_contains(msg));				\
		assert_int_equal(mm_held(), (e)->held);				\
		mm_snap_take(&__s);						\
		mm_snap_assert_equal(&(e)->snap, &__s);				\
	} while (0)

static void test_bad_free(void **state)
{
	struct page *run, *comp, *blk;
	unsigned long pfn;
	struct expect e;

	run = alloc_contig_pages(64, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_non_null(run);
	pfn = page_to_pfn(run);

	/* The run and one page past it, which is free. */
	before(&e);
	free_contig_range(pfn, 65);
	assert_one_report(&e, double_free, "not allocated");
	assert_run(run, 64);

	/* Beyond the arena's end; and below its first pfn. */
	before(&e);
	free_contig_range(page_to_pfn(pp_mem_map.map + pp_mem_map.nr_pages - 2), 3);
	assert_one_report(&e, out_of_arena, "outside the arena");
	before(&e);
	free_contig_range(PP_PFN_OFFSET - 1, 2);
	assert_one_report(&e, out_of_arena, "outside the arena");
	before(&e);
	free_contig_range(pfn, ~0UL);
	assert_one_report(&e, out_of_arena, "outside the arena");

	/* Compound pages and higher-order blocks are not order-0 pages. */
	comp = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	blk = alloc_pages(GFP_KERNEL, 2);
	before(&e);
	free_contig_range(page_to_pfn(comp), 4);
	assert_one_report(&e, bad_free, "compound page");
	before(&e);
	free_contig_range(page_to_pfn(blk), 1);
	assert_one_report(&e, bad_free, "higher-order block");
	before(&e);
	free_contig_range(page_to_pfn(blk) + 1, 1);
	assert_one_report(&e, double_free, "inside a higher-order block");
	put_page(comp);
	__free_pages(blk, 2);

	/* Freed twice. */
	free_contig_range(pfn, 64);
	before(&e);
	free_contig_range(pfn, 64);
	assert_one_report(&e, double_free, "not allocated");
	mm_assert_all_free();
}

/* A page someone else holds outlives free_contig_range(): one WARN with
 * the count, that page still allocated until its last put. */
static void test_free_with_pages_in_use(void **state)
{
	struct pp_mem_counters c0, c1;
	unsigned long warns, free0 = mm_free_pages();
	struct page *run;

	run = alloc_contig_pages(300, GFP_KERNEL, NUMA_NO_NODE, NULL);
	assert_non_null(run);
	get_page(run + 5);
	get_page(run + 299);
	get_page(run + 299);
	pp_mem_get_counters(&c0);
	warns = pp_warn_count();
	pp_test_log_clear();
	free_contig_range(page_to_pfn(run), 300);
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.bad_free, c0.bad_free + 1);
	assert_int_equal(c1.double_free, c0.double_free);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_true(pp_test_log_contains("2 of 300 pages are still in use"));
	assert_int_equal(mm_held(), 2);
	assert_int_equal(page_ref_count(run + 5), 1);
	assert_int_equal(page_ref_count(run + 299), 2);
	assert_int_equal(mm_free_pages(), free0 - 2);
	put_page(run + 5);
	put_page(run + 299);
	put_page(run + 299);
	assert_int_equal(mm_held(), 0);
	assert_int_equal(pp_warn_count(), warns + 1);
	mm_assert_all_free();
}

/* Runs cut by two threads while two others churn single pages: no page
 * handed out twice (each run's pages carry its owner's tag), nothing lost. */
#define CHURN_ROUNDS	300

struct churn {
	int cpu;
	bool contig;
	unsigned int seed;
	unsigned long fails;
};

static void *churn_thread(void *arg)
{
	struct churn *c = arg;
	struct page *pages[64];
	unsigned long i, r, nr;

	if (pp_thread_register(c->cpu) != c->cpu)
		return (void *)1;
	for (r = 0; r < CHURN_ROUNDS; r++) {
		if (c->contig) {
			struct page *run;
			unsigned int *m;

			nr = 1 + (unsigned long)rand_r(&c->seed) % 1500;
			run = alloc_contig_pages(nr, GFP_KERNEL | __GFP_NOWARN, NUMA_NO_NODE, NULL);
			if (!run) {
				c->fails++;
				continue;
			}
			for (i = 0; i < nr; i++) {
				m = page_address(run + i);
				m[0] = c->seed;
				m[PAGE_SIZE / sizeof(*m) - 1] = (unsigned int)i;
			}
			for (i = 0; i < nr; i++) {
				m = page_address(run + i);
				if (m[0] != c->seed || m[PAGE_SIZE / sizeof(*m) - 1] != i ||
				    page_ref_count(run + i) != 1)
					return (void *)2;
			}
			free_contig_range(page_to_pfn(run), nr);
		} else {
			for (i = 0; i < ARRAY_SIZE(pages); i++)
				pages[i] = alloc_page(GFP_KERNEL | __GFP_NOWARN);
			for (i = 0; i < ARRAY_SIZE(pages); i++)
				if (pages[i])
					put_page(pages[i]);
		}
	}
	pp_mem_drain_local();
	pp_thread_unregister();
	return NULL;
}

static void test_concurrent(void **state)
{
	struct churn c[4] = {
		{ .cpu = 1, .contig = true, .seed = 1 },
		{ .cpu = 2, .contig = true, .seed = 2 },
		{ .cpu = 3, .seed = 3 },
		{ .cpu = 4, .seed = 4 },
	};
	pthread_t t[4];
	void *ret;
	int i;

	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, churn_thread, &c[i]), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], &ret), 0);
		assert_null(ret);
	}
	/* Single pages held by the others may split the free memory, so a
	 * run may fail now and then; most must not. */
	assert_true(c[0].fails < CHURN_ROUNDS / 10);
	assert_true(c[1].fails < CHURN_ROUNDS / 10);
	assert_int_equal(mm_held(), 0);
	mm_assert_all_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_run_1, setup),
		cmocka_unit_test_setup(test_run_block_less_one, setup),
		cmocka_unit_test_setup(test_run_block, setup),
		cmocka_unit_test_setup(test_run_4_blocks, setup),
		cmocka_unit_test_setup(test_runs_do_not_overlap, setup),
		cmocka_unit_test_setup(test_zeroed, setup),
		cmocka_unit_test_setup(test_pages_put_one_by_one, setup),
		cmocka_unit_test_setup(test_run_from_adjacent_blocks, setup_small),
		cmocka_unit_test_setup(test_exhaustion, setup_small),
		cmocka_unit_test_setup(test_bad_arguments, setup),
		cmocka_unit_test_setup(test_fault_injection, setup),
		cmocka_unit_test_setup(test_nodes, setup),
		cmocka_unit_test_setup(test_bad_free, setup),
		cmocka_unit_test_setup(test_free_with_pages_in_use, setup),
		cmocka_unit_test_setup(test_concurrent, setup),
	};

	pp_test_capture_log();
	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
