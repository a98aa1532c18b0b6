/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * RX-queue and memory-model registration: each error the kernel returns,
 * with its WARN where the kernel WARNs, one case per test; the happy paths
 * (an id that maps to the pool, the split xdp_reg_page_pool() API, types
 * without an allocator) and allocation failure. Then mem ids: the kernel's
 * cyclic allocation over 1..0xFFFD (its IDA range ends before MEM_ID_MAX
 * 0xFFFE), exhaustion, wrap-around, reuse only after a grace period, and
 * the id -> allocator table staying exact while it grows to every id and
 * shrinks back.
 *
 * The expected ids are the kernel's: __mem_id_cyclic_get() searches from
 * the id after the last one handed out and, finding nothing up to the top,
 * resets the cursor to 1 and searches once more. So after a failed
 * registration the cursor is at the bottom; after handing out id k it is
 * at k + 1.
 */
#include "xdp_test.h"


static void test_rxq_reg_without_netdev(void **state)
{
	struct xdp_rxq_info rxq;
	unsigned long warns = pp_warn_count();

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	assert_int_equal(xdp_rxq_info_reg(&rxq, NULL, 0, 0), -ENODEV);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_false(xdp_rxq_info_is_reg(&rxq));
	assert_all_pages_home();
}

static void test_rxq_reg_unused_queue(void **state)
{
	struct xdp_rxq_info rxq;
	unsigned long warns = pp_warn_count();

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	xdp_rxq_info_unused(&rxq);
	assert_int_equal(xdp_rxq_info_reg(&rxq, xt_netdev, 0, 0), -EINVAL);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_false(xdp_rxq_info_is_reg(&rxq));
	/* Unregistering an unused queue is allowed and silent. */
	xdp_rxq_info_unreg(&rxq);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_all_pages_home();
}

static void test_rxq_reg_fields_and_reregister(void **state)
{
	struct xdp_rxq_info rxq;
	unsigned long warns = pp_warn_count();

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	assert_int_equal(__xdp_rxq_info_reg(&rxq, xt_netdev, 3, 77, 2048), 0);
	assert_true(xdp_rxq_info_is_reg(&rxq));
	assert_ptr_equal(rxq.dev, xt_netdev);
	assert_int_equal(rxq.queue_index, 3);
	assert_int_equal(rxq.napi_id, 77);
	assert_int_equal(rxq.frag_size, 2048);
	assert_int_equal(warns, pp_warn_count());
	/* A second registration: handled, with a WARN. */
	assert_int_equal(xdp_rxq_info_reg(&rxq, xt_netdev, 4, 0), 0);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal(rxq.queue_index, 4);
	xdp_rxq_info_unreg(&rxq);
	assert_false(xdp_rxq_info_is_reg(&rxq));
	assert_null(rxq.dev);
	assert_all_pages_home();
}

static void test_mem_model_unregistered_rxq(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct xdp_rxq_info rxq;
	unsigned long warns = pp_warn_count();
	unsigned int ids = xt_mem_ids();

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, pool), -EFAULT);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal(xt_mem_ids(), ids);
	assert_int_equal(rxq.mem.id, 0);
	/* No reference was taken: the driver's destroy frees the pool. */
	page_pool_destroy(pool);
	assert_all_pages_home();
}

static void test_mem_model_bad_type(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct xdp_rxq_info rxq;
	unsigned long warns = pp_warn_count();
	unsigned int ids = xt_mem_ids();

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	assert_int_equal(xdp_rxq_info_reg(&rxq, xt_netdev, 0, 0), 0);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_MAX, pool), -EOPNOTSUPP);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, (enum xdp_mem_type)-1, pool),
			 -EOPNOTSUPP);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, (enum xdp_mem_type)1000, NULL),
			 -EOPNOTSUPP);
	assert_int_equal(xt_mem_ids(), ids);
	assert_int_equal(rxq.mem.id, 0);
	assert_int_equal(pp_warn_count(), warns);
	xdp_rxq_info_unreg(&rxq);
	page_pool_destroy(pool);
	assert_all_pages_home();
}

static void test_mem_model_page_pool_without_pool(void **state)
{
	struct xdp_rxq_info rxq;
	struct xdp_mem_info mem = { 0, 0 };
	unsigned int ids = xt_mem_ids();

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	assert_int_equal(xdp_rxq_info_reg(&rxq, xt_netdev, 0, 0), 0);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, NULL), -EINVAL);
	assert_int_equal(xdp_reg_mem_model(&mem, MEM_TYPE_PAGE_POOL, NULL), -EINVAL);
	assert_int_equal(xt_mem_ids(), ids);
	assert_int_equal(rxq.mem.id, 0);
	xdp_rxq_info_unreg(&rxq);
	assert_all_pages_home();
}

/* Types whose memory needs no allocator object get no id. */
static void test_mem_model_without_allocator(void **state)
{
	static const enum xdp_mem_type types[] = {
		MEM_TYPE_PAGE_SHARED, MEM_TYPE_PAGE_ORDER0, MEM_TYPE_XSK_BUFF_POOL,
	};
	struct xdp_rxq_info rxq;
	unsigned int ids = xt_mem_ids();
	unsigned long warns = pp_warn_count();
	size_t i;

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	assert_int_equal(xdp_rxq_info_reg(&rxq, xt_netdev, 0, 0), 0);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, types[i], NULL), 0);
		assert_int_equal(rxq.mem.type, types[i]);
		assert_int_equal(rxq.mem.id, 0);
		assert_int_equal(xt_mem_ids(), ids);
		xdp_rxq_info_unreg_mem_model(&rxq);
		assert_int_equal(rxq.mem.type, 0);
	}
	xdp_rxq_info_unreg(&rxq);
	assert_int_equal(pp_warn_count(), warns);
	assert_all_pages_home();
}

static void test_unreg_mem_model_unregistered_rxq(void **state)
{
	struct xdp_rxq_info rxq;
	unsigned long warns = pp_warn_count();

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	rxq.mem.type = MEM_TYPE_PAGE_POOL;
	rxq.mem.id = 5;
	xdp_rxq_info_unreg_mem_model(&rxq);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal(rxq.mem.id, 5);	/* untouched */
	assert_all_pages_home();
}

static void test_unreg_unknown_id(void **state)
{
	struct xdp_mem_info mem = { MEM_TYPE_PAGE_POOL, PPXDP_MEM_ID_MAX - 1 };
	unsigned long warns = pp_warn_count();

	(void)state;
	assert_null(lookup_allocator(mem.id));
	xdp_unreg_mem_model(&mem);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_true(pp_test_log_contains("Request remove non-existing id"));
	assert_int_equal(mem.id, 0);
	assert_all_pages_home();
}

static void test_id_names_the_pool(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct xdp_rxq_info rxq;
	unsigned int ids = xt_mem_ids();

	(void)state;
	xt_rxq_reg(&rxq, 0, pool);
	assert_int_equal(rxq.mem.type, MEM_TYPE_PAGE_POOL);
	assert_ptr_equal(lookup_allocator(rxq.mem.id), pool);
	assert_int_equal(xt_mem_ids(), ids + 1);
	xt_teardown(&rxq, pool);
	assert_int_equal(xt_mem_ids(), ids);
	assert_all_pages_home();
}

/* Registration under memory pressure: -ENOMEM, nothing half done. */
static void test_mem_model_enomem(void **state)
{
	struct pp_fault_config once = { .next_n = 1 };
	struct page_pool *pool = xt_pool(NULL);
	struct xdp_rxq_info rxq;
	unsigned int ids = xt_mem_ids();
	u32 pool_id = pp_page_pool_id(pool);

	(void)state;
	memset(&rxq, 0, sizeof(rxq));
	assert_int_equal(xdp_rxq_info_reg(&rxq, xt_netdev, 0, 0), 0);
	assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC, &once), 0);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, pool), -ENOMEM);
	pp_fault_inject(PP_FAULT_KMALLOC, NULL);
	assert_int_equal(rxq.mem.id, 0);
	assert_int_equal(xt_mem_ids(), ids);
	/* No reference taken: unregistering the queue leaves the pool to
	 * the driver, whose destroy frees it. */
	xdp_rxq_info_unreg(&rxq);
	assert_true(xt_pool_alive(pool_id));
	page_pool_destroy(pool);
	assert_false(xt_pool_alive(pool_id));
	assert_all_pages_home();
}

/* The split API: one registration, attached to two queues. */
static void test_reg_page_pool_attach(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct xdp_rxq_info rxq[2];
	struct xdp_frame *f[2];
	u32 pool_id = pp_page_pool_id(pool);
	int q;

	(void)state;
	assert_int_equal(xdp_reg_page_pool(pool), 0);
	assert_int_not_equal(pool->xdp_mem_id, 0);
	assert_ptr_equal(lookup_allocator(pool->xdp_mem_id), pool);
	for (q = 0; q < 2; q++) {
		memset(&rxq[q], 0, sizeof(rxq[q]));
		assert_int_equal(xdp_rxq_info_reg(&rxq[q], xt_netdev, (u32)q, 0), 0);
		xdp_rxq_info_attach_page_pool(&rxq[q], pool);
		assert_int_equal(rxq[q].mem.type, MEM_TYPE_PAGE_POOL);
		assert_int_equal(rxq[q].mem.id, pool->xdp_mem_id);
		f[q] = xt_frame(pool, &rxq[q]);
		assert_int_equal(f[q]->mem_id, pool->xdp_mem_id);
	}
	for (q = 0; q < 2; q++) {
		xdp_return_frame(f[q]);
		xdp_rxq_info_detach_mem_model(&rxq[q]);
		xdp_rxq_info_unreg(&rxq[q]);	/* detached: no destroy */
	}
	assert_true(xt_pool_alive(pool_id));
	xdp_unreg_page_pool(pool);
	assert_true(xt_pool_alive(pool_id));
	page_pool_destroy(pool);
	assert_false(xt_pool_alive(pool_id));
	assert_all_pages_home();
}

#define NR_IDS	(PPXDP_MEM_ID_MAX - PPXDP_MEM_ID_MIN)	/* 0xFFFD */

/* Mem-id tests: mems[i] is registered with allocator &mems[i], so the
 * index is the id; they fill the whole id space, so they run last. */
static struct xdp_mem_info *mems;

static int reg(struct xdp_mem_info *mem)
{
	int err = xdp_reg_mem_model(mem, MEM_TYPE_PAGE_ORDER0, mem);

	return err ? err : (int)mem->id;
}

/* Register @slot's model again; the id it got, or -errno. */
static int reg_into(u32 slot)
{
	return reg(&mems[slot]);
}

static void unreg(u32 id)
{
	assert_int_equal(mems[id].id, id);
	xdp_unreg_mem_model(&mems[id]);
	assert_int_equal(mems[id].id, 0);
}

static void test_cyclic_exhaustion_and_wrap(void **state)
{
	struct xdp_mem_info extra = { 0, 0 };
	u32 first, id, n;

	(void)state;
	assert_int_equal(xt_mem_ids(), 0);

	/*
	 * Earlier tests left the cursor somewhere: one registration shows
	 * where (k), and frees k again. Then the ids come in cyclic order,
	 * k + 1 up to the top, wrapping to 1 and on up to k.
	 */
	first = (u32)reg(&mems[0]);
	assert_true(first >= PPXDP_MEM_ID_MIN && first < PPXDP_MEM_ID_MAX);
	xdp_unreg_mem_model(&mems[0]);
	assert_int_equal(xt_mem_ids(), 0);
	for (n = 0; n < NR_IDS; n++) {
		id = (first + n) % NR_IDS + 1;
		assert_int_equal(reg(&mems[id]), (int)id);
	}
	assert_int_equal(xt_mem_ids(), NR_IDS);
	for (id = PPXDP_MEM_ID_MIN; id < PPXDP_MEM_ID_MAX; id += 97)
		assert_ptr_equal(lookup_allocator(id), &mems[id]);
	assert_ptr_equal(lookup_allocator(NR_IDS), &mems[NR_IDS]);
	assert_null(lookup_allocator(0));
	assert_null(lookup_allocator(PPXDP_MEM_ID_MAX));

	/* All 0xFFFD in use: the next one fails, after the retry. */
	assert_int_equal(xdp_reg_mem_model(&extra, MEM_TYPE_PAGE_ORDER0, &extra), -ENOSPC);
	assert_int_equal(extra.id, 0);

	/* A hole in the middle: the retry reset the cursor to the bottom,
	 * so the next registration gets exactly that id. */
	unreg(30000);
	rcu_barrier();
	assert_null(lookup_allocator(30000));
	assert_int_equal(reg_into(30000), 30000);

	/* Two holes, one below and one above the cursor (now 30001): the
	 * cyclic rule gives the one above first, then wraps to the one
	 * below. */
	unreg(100);
	unreg(50000);
	rcu_barrier();
	assert_int_equal(reg_into(50000), 50000);
	assert_int_equal(reg_into(100), 100);
	assert_int_equal(xdp_reg_mem_model(&extra, MEM_TYPE_PAGE_ORDER0, &extra), -ENOSPC);

	/* The top id is reachable from a cursor below it. */
	unreg(NR_IDS);
	unreg(7);
	rcu_barrier();
	assert_int_equal(reg_into(7), 7);		/* cursor was 1 after -ENOSPC */
	assert_int_equal(reg_into(NR_IDS), NR_IDS);	/* 8 .. top */
	for (id = PPXDP_MEM_ID_MIN; id < PPXDP_MEM_ID_MAX; id += 1009)
		assert_ptr_equal(lookup_allocator(id), &mems[id]);
	assert_all_pages_home();
}

/* An id comes free only after a grace period: a reader that found the
 * entry can never see the id given to someone else. */
static void test_id_reused_after_grace_period(void **state)
{
	struct xdp_mem_info extra = { 0, 0 };

	(void)state;
	assert_int_equal(xt_mem_ids(), NR_IDS);
	rcu_read_lock();
	assert_ptr_equal(lookup_allocator(12345), &mems[12345]);
	unreg(12345);
	/* Unpublished at once ... */
	assert_null(ppxdp_mem_lookup(12345));
	/* ... but not reusable while we are inside the read section. */
	assert_int_equal(xdp_reg_mem_model(&extra, MEM_TYPE_PAGE_ORDER0, &extra), -ENOSPC);
	rcu_read_unlock();
	rcu_barrier();
	assert_int_equal(reg_into(12345), 12345);
	assert_all_pages_home();
}

/* Empty the table in a scattered order; it stays exact and shrinks. */
static void test_drain_all(void **state)
{
	u32 id, step = 7919, n = 0;

	(void)state;
	for (id = 1; n < NR_IDS; id = (id + step) % PPXDP_MEM_ID_MAX) {
		if (!id)
			continue;
		unreg(id);
		n++;
		if (n % 8192 == 0) {
			u32 probe = (id + 1) % PPXDP_MEM_ID_MAX;

			/* A neighbour still registered still resolves. */
			if (probe && mems[probe].id)
				assert_ptr_equal(lookup_allocator(probe), &mems[probe]);
		}
	}
	assert_int_equal(xt_mem_ids(), 0);
	assert_true(ppxdp_mem_table->mask + 1 <= 16);
	for (id = PPXDP_MEM_ID_MIN; id < PPXDP_MEM_ID_MAX; id += 4099)
		assert_null(lookup_allocator(id));
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rxq_reg_without_netdev),
		cmocka_unit_test(test_rxq_reg_unused_queue),
		cmocka_unit_test(test_rxq_reg_fields_and_reregister),
		cmocka_unit_test(test_mem_model_unregistered_rxq),
		cmocka_unit_test(test_mem_model_bad_type),
		cmocka_unit_test(test_mem_model_page_pool_without_pool),
		cmocka_unit_test(test_mem_model_without_allocator),
		cmocka_unit_test(test_unreg_mem_model_unregistered_rxq),
		cmocka_unit_test(test_unreg_unknown_id),
		cmocka_unit_test(test_id_names_the_pool),
		cmocka_unit_test(test_mem_model_enomem),
		cmocka_unit_test(test_reg_page_pool_attach),
		cmocka_unit_test(test_cyclic_exhaustion_and_wrap),
		cmocka_unit_test(test_id_reused_after_grace_period),
		cmocka_unit_test(test_drain_all),
	};

	xdp_test_init();
	mems = calloc(PPXDP_MEM_ID_MAX, sizeof(*mems));
	if (!mems)
		abort();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
