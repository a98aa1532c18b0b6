/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Pool lifetime under a memory-model registration: the pool is freed only
 * after the driver's page_pool_destroy() AND the unregistration, in either
 * order, AND the return of its last in-flight page; until then its mem id
 * still resolves (the old return generation needs it), afterwards the
 * disconnect callback has removed the id, which comes free after a grace
 * period - also when the last frames come back from another thread while
 * the release work runs. "Freed" is seen through the registry:
 * pp_page_pool_get_info() answers -ENOENT.
 */
#include <pthread.h>

#include "xdp_test.h"


static void drop_driver(struct xdp_rxq_info *rxq, struct page_pool *pool)
{
	(void)rxq;
	page_pool_destroy(pool);
}

static void drop_xdp(struct xdp_rxq_info *rxq, struct page_pool *pool)
{
	(void)pool;
	xdp_rxq_info_unreg(rxq);
}

/*
 * Two frames out; first drop; one frame back; second drop; the pool waits
 * for the last frame, which comes back through generation @g's return
 * path (xdp_test.h), if the build has it.
 */
static void inflight_case_in(void (*first)(struct xdp_rxq_info *, struct page_pool *),
			     void (*second)(struct xdp_rxq_info *, struct page_pool *),
			     int g)
{
	struct page_pool *pool = xt_pool(NULL);
	u32 pool_id = pp_page_pool_id(pool);
	unsigned int ids = xt_mem_ids();
	struct pp_page_pool_info info;
	struct xdp_rxq_info rxq;
	unsigned long warns = pp_warn_count();
	struct xdp_frame *f[2];
	u32 mem_id;

	xt_rxq_reg(&rxq, 0, pool);
	mem_id = rxq.mem.id;
	f[0] = xt_frame(pool, &rxq);
	f[1] = xt_frame(pool, &rxq);

	first(&rxq, pool);
	pp_workqueue_run_all();
	/* One reference left: not even released (no detach time yet). */
	assert_int_equal(pp_page_pool_get_info(pool_id, &info), 0);
	assert_false(info.has_detach_time);
	assert_ptr_equal(lookup_allocator(mem_id), pool);

	xdp_return_frame(f[0]);
	second(&rxq, pool);
	pp_workqueue_run_all();
	/* Both references gone, one page out: waiting, still resolvable. */
	assert_int_equal(pp_page_pool_get_info(pool_id, &info), 0);
	assert_int_equal(info.inflight, 1);
	assert_true(info.has_detach_time);
	assert_ptr_equal(lookup_allocator(mem_id), pool);

	assert_true(xt_set_generation(g));
	xdp_return_frame(f[1]);
	xt_default_generation();
	pp_workqueue_run_all();
	assert_false(xt_pool_alive(pool_id));
	assert_null(lookup_allocator(mem_id));
	assert_int_equal(xt_mem_ids(), ids);
	assert_int_equal(pp_warn_count(), warns);
	assert_all_pages_home();
}

static void inflight_case(void (*first)(struct xdp_rxq_info *, struct page_pool *),
			  void (*second)(struct xdp_rxq_info *, struct page_pool *),
			  int g)
{
	if (!xt_set_generation(g))
		return;
	xt_default_generation();
	inflight_case_in(first, second, g);
}

static void test_destroy_then_unreg_inflight(void **state)
{
	int g;

	(void)state;
	for (g = 0; g < XT_GENERATIONS; g++)
		inflight_case(drop_driver, drop_xdp, g);
	assert_all_pages_home();
}

static void test_unreg_then_destroy_inflight(void **state)
{
	int g;

	(void)state;
	for (g = 0; g < XT_GENERATIONS; g++)
		inflight_case(drop_xdp, drop_driver, g);
	assert_all_pages_home();
}

/* Nothing in flight: the second drop frees the pool, not the first. */
static void idle_case(void (*first)(struct xdp_rxq_info *, struct page_pool *),
		      void (*second)(struct xdp_rxq_info *, struct page_pool *))
{
	struct page_pool *pool = xt_pool(NULL);
	u32 pool_id = pp_page_pool_id(pool);
	struct xdp_rxq_info rxq;
	u32 mem_id;

	xt_rxq_reg(&rxq, 0, pool);
	mem_id = rxq.mem.id;
	xdp_return_frame(xt_frame(pool, &rxq));

	first(&rxq, pool);
	pp_workqueue_run_all();
	assert_true(xt_pool_alive(pool_id));
	assert_ptr_equal(lookup_allocator(mem_id), pool);

	second(&rxq, pool);
	assert_false(xt_pool_alive(pool_id));
	assert_null(lookup_allocator(mem_id));
	assert_all_pages_home();
}

static void test_idle_pool_freed_by_second_drop(void **state)
{
	(void)state;
	idle_case(drop_driver, drop_xdp);
	idle_case(drop_xdp, drop_driver);
	assert_all_pages_home();
}

/* One pool registered on two queues: three references, two ids, and the
 * disconnect removes both. */
static void test_pool_on_two_queues(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	u32 pool_id = pp_page_pool_id(pool);
	unsigned int ids = xt_mem_ids();
	struct xdp_rxq_info rxq[2];
	struct xdp_frame *f;
	u32 mem_id[2];
	int q;

	(void)state;
	for (q = 0; q < 2; q++) {
		xt_rxq_reg(&rxq[q], (u32)q, pool);
		mem_id[q] = rxq[q].mem.id;
	}
	assert_int_not_equal(mem_id[0], mem_id[1]);
	assert_int_equal(xt_mem_ids(), ids + 2);
	f = xt_frame(pool, &rxq[0]);

	page_pool_destroy(pool);
	xdp_rxq_info_unreg(&rxq[0]);
	pp_workqueue_run_all();
	assert_true(xt_pool_alive(pool_id));
	xdp_rxq_info_unreg(&rxq[1]);
	pp_workqueue_run_all();
	assert_true(xt_pool_alive(pool_id));	/* f is out */
	assert_ptr_equal(lookup_allocator(mem_id[0]), pool);
	assert_ptr_equal(lookup_allocator(mem_id[1]), pool);

	/* By id where the build has the lookup generation: still found. */
	(void)pp_xdp_set_return_mode(PP_XDP_RETURN_LOOKUP);
	xdp_return_frame(f);
	xt_default_generation();
	pp_workqueue_run_all();
	assert_false(xt_pool_alive(pool_id));
	assert_null(lookup_allocator(mem_id[0]));
	assert_null(lookup_allocator(mem_id[1]));
	assert_int_equal(xt_mem_ids(), ids);
	assert_all_pages_home();
}

/*
 * The driver went down (both references dropped) while a TX-completion
 * thread still returns its frames, in both generations: the release work
 * runs concurrently with the returns, the last return lets it free the
 * pool, and the disconnect unpublishes the id while the other thread may
 * still be looking it up (RCU keeps the entry alive for it). Run under
 * ThreadSanitizer too.
 */
#define NR_LATE	256

struct late {
	struct xdp_frame *frames[NR_LATE];
	int done;
};

static void *late_returns(void *arg)
{
	struct late *l = arg;
	struct xdp_frame_bulk bq;
	int i;

	assert_true(pp_thread_register(-1) > 0);	/* any CPU but the owner's 0 */
	for (i = 0; i < NR_LATE; i += 8) {
		int k;

		local_bh_disable();
		if (i % 16) {
			for (k = 0; k < 8; k++)
				xdp_return_frame(l->frames[i + k]);
		} else {
			xdp_frame_bulk_init(&bq);
			for (k = 0; k < 8; k++)
				xdp_return_frame_bulk(l->frames[i + k], &bq);
			xdp_flush_frame_bulk(&bq);
		}
		local_bh_enable();
	}
	__atomic_store_n(&l->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_late_returns_race_release(void **state)
{
	static struct late l;
	struct xdp_rxq_info rxq;
	struct page_pool *pool;
	unsigned int ids;
	pthread_t t;
	u32 pool_id, mem_id;
	int m, i;

	(void)state;
	for (m = 0; m < XT_GENERATIONS; m++) {
		if (!xt_set_generation(m))
			continue;
		ids = xt_mem_ids();
		pool = xt_pool(NULL);
		pool_id = pp_page_pool_id(pool);
		xt_rxq_reg(&rxq, 0, pool);
		mem_id = rxq.mem.id;
		for (i = 0; i < NR_LATE; i++)
			l.frames[i] = xt_frame(pool, &rxq);
		l.done = 0;

		xdp_rxq_info_unreg(&rxq);
		page_pool_destroy(pool);
		assert_true(xt_pool_alive(pool_id));
		assert_int_equal(pool_inflight(pool), NR_LATE);

		assert_int_equal(pthread_create(&t, NULL, late_returns, &l), 0);
		while (!__atomic_load_n(&l.done, __ATOMIC_ACQUIRE))
			pp_workqueue_run_all();
		pthread_join(t, NULL);
		pp_workqueue_run_all();
		assert_false(xt_pool_alive(pool_id));
		assert_null(lookup_allocator(mem_id));
		assert_int_equal(xt_mem_ids(), ids);
		assert_all_pages_home();
	}
	xt_default_generation();
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_destroy_then_unreg_inflight),
		cmocka_unit_test(test_unreg_then_destroy_inflight),
		cmocka_unit_test(test_idle_pool_freed_by_second_drop),
		cmocka_unit_test(test_pool_on_two_queues),
		cmocka_unit_test(test_late_returns_race_release),
	};

	xdp_test_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
