/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A release racing destroy and unbind, in the kernel's API only. With DMA
 * tracking, a page comes back to its pool's release path on another CPU
 * (here in process context, bottom halves on: page_pool_put_full_page()
 * from any context is allowed) and, holding an extra reference, is
 * released: the release claims the page's tracking record, then unmaps
 * it. This program stops that release between its claim and its unmap
 * (the DMA layer's before-unmap hook), and meanwhile the driver calls
 * page_pool_destroy() and unbinds the device; then it lets the release go.
 *
 * The destroy must not return while a release that claimed a record has
 * not unmapped it: the driver unbinds right after, and the unmap then goes
 * through a detached IOMMU domain (the seeds' crash, by another path).
 * pagepool's core waits a grace period after its walk of the records
 * (every claim runs inside an RCU read-side section), so its destroy
 * returns only once the stopped release has unmapped: no violation.
 * Linux 6.12.118's page_pool_scrub() waits (synchronize_net()) only before
 * its walk, for pools that sync, and a release in process context is not
 * inside a read-side section anyway: its destroy returns at once, and the
 * unmap lands after the unbind - a use-after-unbind violation, and with
 * DMA-API debug a mapping leaked at unbind. (tests/kernel-api/meson.build
 * declares that failure for kernel core builds; docs/KERNEL_CORE.md.)
 *
 * The stopped release waits for the unbind at most STALL_MS, so that a
 * destroy that does wait for it (pagepool's) is not blocked for ever.
 * Built as an outside user builds (run.sh).
 */
#include "kapi.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#define STALL_MS	300

static struct page_pool *pool;
static struct page *racing;		/* the page the release unmaps */
static int in_unmap, unbound;		/* handshake with the hook */
static pthread_t releaser_thread;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* In the releasing thread only: say we are in the unmap, then wait for
 * the unbind (or STALL_MS). Spins with yields: the wait may be inside an
 * RCU read-side section, where sleeping is not allowed. */
static void before_unmap(struct device *dev, dma_addr_t addr, size_t size, void *arg)
{
	double t0 = now_ms();

	(void)dev;
	(void)addr;
	(void)size;
	(void)arg;
	if (!pthread_equal(pthread_self(), releaser_thread))
		return;
	if (__atomic_exchange_n(&in_unmap, 1, __ATOMIC_ACQ_REL))
		return;		/* only the first unmap waits */
	while (!__atomic_load_n(&unbound, __ATOMIC_ACQUIRE) && now_ms() - t0 < STALL_MS)
		sched_yield();
}

/* Another CPU takes a page reference (as the stack would), then returns
 * the page: with the reference count above one the pool releases it,
 * unmapping it; then the stack's reference goes. */
static void *releaser(void *arg)
{
	(void)arg;
	if (pp_thread_register(-1) <= 0)
		abort();
	get_page(racing);
	page_pool_put_full_page(racing->pp, racing, false);
	put_page(racing);
	pp_thread_unregister();
	return NULL;
}

static void release_races_unbind(unsigned int dev_flags)
{
	struct device *dev = pp_device_create("race0", PP_DMA_IOMMU, dev_flags);
	struct page_pool_params pp = {
		.pool_size = 64, .nid = NUMA_NO_NODE, .dev = dev, .dma_dir = DMA_FROM_DEVICE,
		.max_len = 2048, .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct pp_dma_stats ds;
	struct page *other;
	double t0, destroy_ms;
	u32 id;

	assert_non_null(dev);
	pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(pool));
	id = pp_page_pool_id(pool);
	assert_non_null(racing = page_pool_alloc_pages(pool, GFP_ATOMIC));
	/* Another page still mapped at destroy: the kernel's scrub then does
	 * take its grace period (its "outstanding mapped pages"). */
	assert_non_null(other = page_pool_alloc_pages(pool, GFP_ATOMIC));

	in_unmap = unbound = 0;
	pp_dma_set_before_unmap(dev, before_unmap, NULL);
	assert_int_equal(pthread_create(&releaser_thread, NULL, releaser, NULL), 0);
	while (!__atomic_load_n(&in_unmap, __ATOMIC_ACQUIRE))
		sched_yield();

	/* The release has claimed its page and stands before the unmap. */
	t0 = now_ms();
	page_pool_destroy(pool);		/* the driver's remove() */
	destroy_ms = now_ms() - t0;
	device_release_driver(dev);		/* then the unbind */
	__atomic_store_n(&unbound, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(releaser_thread, NULL), 0);

	page_pool_put_full_page(pool, other, false);
	kapi_settle_pool(id);
	assert_false(kapi_pool_listed(id));
	pp_dma_set_before_unmap(dev, NULL, NULL);

	pp_dma_get_stats(dev, &ds);
	print_message("%s: destroy took %.0f ms; %lu maps, %lu unmaps, %lu DMA-API violations\n",
		      dev_flags & PP_DMA_DEBUG ? "DMA-API debug" : "IOMMU only", destroy_ms,
		      ds.maps, ds.unmaps, pp_dma_violations(dev));
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_int_equal(ds.maps, ds.unmaps);
	kapi_assert_all_pages_home();
	pp_device_destroy(dev);
}

static void test_iommu_only(void **state)
{
	(void)state;
	release_races_unbind(0);
}

static void test_dma_debug(void **state)
{
	(void)state;
	release_races_unbind(PP_DMA_DEBUG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iommu_only),
		cmocka_unit_test(test_dma_debug),
	};

	kapi_setup();
	return pp_test_run_group_name("kernel-api/unbind_race_release", tests, NULL, NULL);
}
