/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Per-CPU order-0 lists: a refill moves exactly one batch under one zone
 * lock round trip, a list above its high mark gives exactly one batch back,
 * the list is LIFO (cache-hot pages first), a free lands on the freeing
 * CPU's list, and a CPU id given back (unregister or thread exit) drains
 * its lists.
 */
#include <pthread.h>

#include "mm_test.h"
#include "mm/mm_internal.h"

#define BATCH	8
#define HIGH	32

static int setup_small(void **state)
{
	mm_arena(4, 1, BATCH, HIGH);
	return 0;
}

static int setup_default(void **state)
{
	mm_arena(4, 1, 0, 0);
	return 0;
}

static unsigned long buddy_free(void)
{
	return mm_free_pages() - pp_mem_pcp_count(0, 0);
}

static void test_refill_moves_one_batch(void **state)
{
	unsigned long total = mm_total_pages();
	unsigned long rounds = ppmm_zone_lock_rounds(0);
	struct page *pages[BATCH + 1];
	int i;

	assert_int_equal(pp_mem_pcp_count(0, 0), 0);
	pages[0] = alloc_page(GFP_KERNEL);
	assert_non_null(pages[0]);
	assert_true(test_bit(PG_pcp, &pages[0]->flags) == false);
	assert_int_equal(pp_mem_pcp_count(0, 0), BATCH - 1);
	assert_int_equal(buddy_free(), total - BATCH);
	assert_int_equal(ppmm_zone_lock_rounds(0), rounds + 1);

	/* The rest of the batch comes without the lock. */
	for (i = 1; i < BATCH; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		assert_int_equal(pp_mem_pcp_count(0, 0), BATCH - 1 - i);
	}
	assert_int_equal(ppmm_zone_lock_rounds(0), rounds + 1);
	assert_int_equal(buddy_free(), total - BATCH);

	/* Empty again: the next page costs one more round trip. */
	pages[BATCH] = alloc_page(GFP_KERNEL);
	assert_int_equal(pp_mem_pcp_count(0, 0), BATCH - 1);
	assert_int_equal(ppmm_zone_lock_rounds(0), rounds + 2);
	assert_int_equal(buddy_free(), total - 2 * BATCH);

	for (i = 0; i <= BATCH; i++)
		__free_page(pages[i]);
	mm_assert_all_free();
}

/* Free one page at a time: the count follows count+1, minus a batch each
 * time it passes high, exactly, and each drain is one lock round trip. */
static void test_drain_above_high_moves_one_batch(void **state)
{
	enum { N = HIGH * 3 + 5 };
	struct page *pages[N];
	unsigned long rounds, expect_rounds;
	int i, expect;

	for (i = 0; i < N; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		assert_non_null(pages[i]);
	}
	expect = (int)pp_mem_pcp_count(0, 0);
	rounds = ppmm_zone_lock_rounds(0);
	expect_rounds = rounds;
	for (i = 0; i < N; i++) {
		__free_page(pages[i]);
		expect++;
		if (expect > HIGH) {
			expect -= BATCH;
			expect_rounds++;
		}
		assert_int_equal(pp_mem_pcp_count(0, 0), expect);
		assert_int_equal(ppmm_zone_lock_rounds(0), expect_rounds);
		assert_true(pp_mem_pcp_count(0, 0) <= HIGH);
	}
	assert_true(expect_rounds > rounds + 2);
	assert_int_equal(mm_free_pages(), mm_total_pages());
	pp_mem_drain_local();
	assert_int_equal(pp_mem_pcp_count(0, 0), 0);
	mm_assert_all_free();
}

static void test_defaults(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);

	assert_int_equal(pp_mem_pcp_count(0, 0), PPMM_TEST_BATCH - 1);
	__free_page(page);
	assert_int_equal(pp_mem_pcp_count(0, 0), PPMM_TEST_BATCH);
	mm_assert_all_free();
}

static void test_lifo_and_flags(void **state)
{
	struct page *a = alloc_page(GFP_KERNEL), *b;

	assert_false(test_bit(PG_pcp, &a->flags));
	assert_false(test_bit(PG_buddy, &a->flags));
	__free_page(a);
	assert_true(test_bit(PG_pcp, &a->flags));
	assert_int_equal(page_ref_count(a), 0);
	b = alloc_page(GFP_KERNEL);
	assert_ptr_equal(a, b);
	assert_false(test_bit(PG_pcp, &b->flags));
	__free_page(b);
	pp_mem_drain_local();
	assert_false(test_bit(PG_pcp, &b->flags));
	mm_assert_all_free();
}

struct worker {
	int cpu;
	int nr;
	struct page *pages[64];
	unsigned long count_before_exit;
	int unregister;
};

static void *alloc_then_free_worker(void *arg)
{
	struct worker *w = arg;
	int i;

	if (pp_thread_register(w->cpu) != w->cpu)
		return NULL;
	for (i = 0; i < w->nr; i++)
		w->pages[i] = alloc_page(GFP_KERNEL);
	for (i = 0; i < w->nr; i++)
		__free_page(w->pages[i]);
	w->count_before_exit = pp_mem_pcp_count(w->cpu, 0);
	if (w->unregister) {
		pp_thread_unregister();
		w->count_before_exit += 1000 * pp_mem_pcp_count(w->cpu, 0);
	}
	return NULL;
}

/* Thread exit gives the CPU id back, which drains its lists. */
static void test_thread_exit_drains(void **state)
{
	struct worker w = { .cpu = 5, .nr = 10 };
	pthread_t t;

	pthread_create(&t, NULL, alloc_then_free_worker, &w);
	pthread_join(t, NULL);
	assert_int_equal(w.count_before_exit, 2 * BATCH);	/* 2 refills - 10 + 10 */
	assert_int_equal(pp_mem_pcp_count(5, 0), 0);
	mm_assert_all_free();
}

static void test_unregister_drains(void **state)
{
	struct worker w = { .cpu = 6, .nr = 3, .unregister = 1 };
	pthread_t t;

	pthread_create(&t, NULL, alloc_then_free_worker, &w);
	pthread_join(t, NULL);
	/* BATCH pages before unregister, none right after it. */
	assert_int_equal(w.count_before_exit, BATCH);
	mm_assert_all_free();
}

static void *alloc_only_worker(void *arg)
{
	struct worker *w = arg;
	int i;

	if (pp_thread_register(w->cpu) != w->cpu)
		return NULL;
	for (i = 0; i < w->nr; i++)
		w->pages[i] = alloc_page(GFP_KERNEL);
	return NULL;
}

/* Pages allocated on CPU 3 and freed here land on this CPU's list. */
static void test_free_lands_on_freeing_cpu(void **state)
{
	struct worker w = { .cpu = 3, .nr = 4 };
	pthread_t t;
	int i;

	pthread_create(&t, NULL, alloc_only_worker, &w);
	pthread_join(t, NULL);
	assert_int_equal(pp_mem_pcp_count(3, 0), 0);	/* drained at exit */
	assert_int_equal(pp_mem_pcp_count(0, 0), 0);
	for (i = 0; i < w.nr; i++) {
		assert_non_null(w.pages[i]);
		__free_page(w.pages[i]);
		assert_int_equal(pp_mem_pcp_count(0, 0), i + 1);
	}
	mm_assert_all_free();
}

static void test_drain_local_restores_lists(void **state)
{
	struct mm_snap before, after;
	struct page *pages[3 * BATCH];
	int i;

	mm_snap_take(&before);
	for (i = 0; i < 3 * BATCH; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	for (i = 0; i < 3 * BATCH; i++)
		__free_page(pages[i]);
	assert_true(pp_mem_pcp_count(0, 0) > 0);
	pp_mem_drain_local();
	mm_snap_take(&after);
	mm_snap_assert_equal(&before, &after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_refill_moves_one_batch, setup_small),
		cmocka_unit_test_setup(test_drain_above_high_moves_one_batch, setup_small),
		cmocka_unit_test_setup(test_defaults, setup_default),
		cmocka_unit_test_setup(test_lifo_and_flags, setup_small),
		cmocka_unit_test_setup(test_thread_exit_drains, setup_small),
		cmocka_unit_test_setup(test_unregister_drains, setup_small),
		cmocka_unit_test_setup(test_free_lands_on_freeing_cpu, setup_small),
		cmocka_unit_test_setup(test_drain_local_restores_lists, setup_small),
	};

	pp_test_capture_log();
	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
