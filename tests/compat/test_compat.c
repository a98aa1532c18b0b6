/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Runs the kernel-style driver of sim_rx_driver.c: a pool with
 * PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV on an IOMMU device with DMA-API
 * debug on, an RX ring filled with page_pool_dev_alloc_pages(), frames
 * written by the device and completed in the NAPI poll (recycle_direct),
 * a quarter of them passed to "the stack" - another thread that frees them
 * with page_pool_put_full_page() much later: after the driver closed and
 * destroyed the pool (the device stays bound). The run must end with zero
 * DMA-API violations, zero WARNs, and every page back in the page
 * allocator.
 */
#include <pthread.h>
#include <unistd.h>

#include <linux/processor.h>
#include <linux/ptr_ring.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

#include "sim_rx_driver.h"
#include "test_common.h"

#define ROUNDS	400
#define BURST	48

static struct ptr_ring stack_q;
static int stack_release;	/* main -> stack thread: free what you hold */
static long stack_held;

static void *stack_thread(void *arg)
{
	struct page **held = calloc(ROUNDS * BURST, sizeof(*held));
	long n = 0, i;

	(void)arg;
	pp_thread_register(1);
	/* Hold every page passed up until told to let go. */
	while (!__atomic_load_n(&stack_release, __ATOMIC_ACQUIRE)) {
		struct page *p = ptr_ring_consume(&stack_q);

		if (p)
			held[n++] = p;
		else
			usleep(100);
	}
	while ((held[n] = ptr_ring_consume(&stack_q)))
		n++;
	__atomic_store_n(&stack_held, n, __ATOMIC_RELEASE);
	/* The pool is destroyed by now; the page still knows its pool. */
	for (i = 0; i < n; i++)
		page_pool_put_full_page(page_pool_to_pp(held[i]), held[i], false);
	free(held);
	return NULL;
}

static void test_driver_lifecycle(void **state)
{
	struct device *dev = pp_device_create("nic0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	unsigned long warns0 = pp_warn_count();
	struct pp_page_pool_info info;
	u64 packets, passed, dropped;
	struct sim_priv *priv;
	pthread_t st;
	u32 pool_id;
	int r, i;

	(void)state;
	assert_false(IS_ERR(dev));
	assert_int_equal(ptr_ring_init(&stack_q, ROUNDS * BURST, GFP_KERNEL), 0);
	pthread_create(&st, NULL, stack_thread, NULL);

	priv = sim_rx_open(dev, &stack_q, 4);
	assert_non_null(priv);
	pool_id = sim_rx_pool_id(priv);
	for (r = 0; r < ROUNDS; r++)
		assert_int_equal(sim_hw_receive(priv, BURST, 1500), BURST);
	sim_rx_counters(priv, &packets, &passed, &dropped);
	assert_int_equal(packets, ROUNDS * BURST);
	assert_int_equal(passed, ROUNDS * BURST / 4);
	assert_int_equal(dropped, 0);			/* every frame read back intact */

	/* Driver goes away while the stack still holds pages. */
	sim_rx_close(priv);
	assert_int_equal(pp_page_pool_get_info(pool_id, &info), 0);
	assert_true(info.has_detach_time);
	assert_true(info.inflight > 0);
	assert_true(pp_device_is_bound(dev));

	__atomic_store_n(&stack_release, 1, __ATOMIC_RELEASE);
	pthread_join(st, NULL);
	assert_int_equal(stack_held, passed);
	for (i = 0; i < 1000 && !pp_page_pool_get_info(pool_id, &info); i++)
		pp_workqueue_run_all();
	assert_int_equal(pp_page_pool_get_info(pool_id, &info), -ENOENT);

	assert_int_equal(pp_dma_violations(dev), 0);
	assert_int_equal(pp_warn_count(), warns0);
	{
		struct pp_mem_stats ms;
		struct pp_dma_stats ds;

		pp_dma_get_stats(dev, &ds);
		assert_int_equal(ds.live_mappings, 0);
		pp_mem_get_stats(&ms);
		assert_int_equal(ms.pp_pages, 0);
		assert_int_equal(ms.free_pages, ms.total_pages);
	}
	ptr_ring_cleanup(&stack_q, NULL);
	pp_device_destroy(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_lifecycle),
	};
	/*
	 * The stack holds ROUNDS * BURST / 4 = 4800 pages at once, beside the
	 * RX ring and the pool's caches: the arena is sized in pages, 8192 at
	 * least (64 MiB at 4 KiB pages is 16384; at 16 KiB it would be only
	 * 4096, too few).
	 */
	struct pp_mem_config cfg = {
		.size = max_t(size_t, (size_t)64 << 20, (size_t)8192 << PAGE_SHIFT),
	};

	pp_test_capture_log();
	if (pp_mem_init(&cfg))
		return 1;
	pp_thread_register(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
