/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Concurrency (run under TSan and ASan in CI):
 *   - several threads map, device-write, sync and unmap on one device
 *     while another thread unbinds its driver: nothing crashes, every
 *     device write that succeeded landed in the right page, and every op
 *     either completed against the binding (a mapping still live then is
 *     a leak: with debug, leaks == maps - unmaps) or was reported as use
 *     after unbind; no other violation kind appears;
 *   - the same threads (the device reading instead of writing) through a
 *     storm of unbind/rebind cycles: no crash, no memory error, every IO
 *     page table freed at the end;
 *   - threads sharing one IOMMU domain without unbind: live IOVAs never
 *     overlap (each thread's device writes land only in its own pages),
 *     and the counters add up exactly.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include "dma_test.h"

#define NR_WORKERS	4
#define NR_PAGES	4

struct shared {
	struct device *dev;
	unsigned long progress;		/* atomic: cycles completed, all workers */
	int stop;			/* atomic */
	bool stop_on_error;		/* end at the first failed map (unbind) */
};

struct worker {
	pthread_t thread;
	struct shared *sh;
	unsigned int id;
	unsigned long iters;		/* stop after this many (0: no limit) */
	struct page *pages[NR_PAGES];
	unsigned long cycles, data_errors, bad_rc;
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	struct device *dev = sh->dev;
	unsigned long i;

	for (i = 0; !w->iters || i < w->iters; i++) {
		struct page *page = w->pages[i % NR_PAGES];
		u32 val = (u32)(w->id << 24 | (i & 0xffffff));
		u32 *cpu = (u32 *)((char *)page_address(page) + 64);
		dma_addr_t addr;
		int rc;

		if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
			break;
		addr = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, addr)) {
			if (sh->stop_on_error)
				break;
			sched_yield();
			continue;
		}
		/* In a rebind storm another thread's stale unmap may take
		 * our IOVA and hand it to a third thread's page: the device
		 * only reads then, so that two writes never meet in one page. */
		if (sh->stop_on_error)
			rc = pp_dma_device_write(dev, addr + 64, &val, sizeof(val));
		else
			rc = pp_dma_device_read(dev, addr + 64, &val, sizeof(val));
		if (rc == 0) {
			__dma_sync_single_for_cpu(dev, addr + 64, sizeof(val),
						  DMA_BIDIRECTIONAL);
			if (sh->stop_on_error && READ_ONCE(*cpu) != val)
				w->data_errors++;
		} else if (rc != -ENODEV && (sh->stop_on_error || rc != -EFAULT)) {
			w->bad_rc++;
		}
		__dma_sync_single_for_device(dev, addr, PAGE_SIZE, DMA_BIDIRECTIONAL);
		dma_unmap_page(dev, addr, PAGE_SIZE, DMA_BIDIRECTIONAL);
		w->cycles++;
		__atomic_fetch_add(&sh->progress, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void workers_start(struct worker *w, struct shared *sh, unsigned long iters)
{
	unsigned int i, p;

	for (i = 0; i < NR_WORKERS; i++) {
		w[i] = (struct worker){ .sh = sh, .id = i + 1, .iters = iters };
		for (p = 0; p < NR_PAGES; p++)
			w[i].pages[p] = dma_test_page(0);
		assert_int_equal(pthread_create(&w[i].thread, NULL, worker_fn, &w[i]), 0);
	}
}

static void workers_join(struct worker *w)
{
	unsigned int i, p;

	for (i = 0; i < NR_WORKERS; i++) {
		assert_int_equal(pthread_join(w[i].thread, NULL), 0);
		assert_int_equal(w[i].data_errors, 0);
		assert_int_equal(w[i].bad_rc, 0);
		for (p = 0; p < NR_PAGES; p++)
			__free_page(w[i].pages[p]);
	}
}

static void wait_progress(struct shared *sh, unsigned long n)
{
	while (__atomic_load_n(&sh->progress, __ATOMIC_RELAXED) < n)
		sched_yield();
}

static void unbind_under_load(enum pp_dma_backend b, unsigned int flags)
{
	struct shared sh = { .stop_on_error = true };
	unsigned long tables = ppdma_iommu_live_tables();
	struct worker w[NR_WORKERS];
	struct pp_dma_stats st;
	struct vsnap vs, now;
	unsigned long leaks, uau;
	int k;

	sh.dev = dma_test_dev("race", b, flags);
	vsnap_take(&vs, sh.dev);
	workers_start(w, &sh, 0);
	wait_progress(&sh, 200);
	device_release_driver(sh.dev);
	workers_join(w);

	vsnap_take(&now, sh.dev);
	for (k = 0; k < PP_DMA_V_NR; k++)
		if (k != PP_DMA_V_USE_AFTER_UNBIND && k != PP_DMA_V_LEAK_AT_UNBIND)
			assert_int_equal(now.dev_kind[k] - vs.dev_kind[k], 0);
	leaks = now.dev_kind[PP_DMA_V_LEAK_AT_UNBIND] - vs.dev_kind[PP_DMA_V_LEAK_AT_UNBIND];
	uau = now.dev_kind[PP_DMA_V_USE_AFTER_UNBIND] - vs.dev_kind[PP_DMA_V_USE_AFTER_UNBIND];

	st = dma_test_stats(sh.dev);
	assert_int_equal(st.live_mappings, 0);
	assert_true(st.maps >= 200);
	if (flags & PP_DMA_DEBUG) {
		/* Each mapping still live at unbind was a leak, and its late
		 * unmap a use after unbind, as was each worker's last map. */
		assert_int_equal(leaks, st.maps - st.unmaps);
		assert_true(uau >= leaks + NR_WORKERS);
	} else {
		assert_int_equal(leaks, 0);
	}
	if (b == PP_DMA_IOMMU) {
		assert_true(uau >= NR_WORKERS);
		assert_false(dma_test_iommu(sh.dev).attached);
		assert_int_equal(ppdma_iommu_live_tables(), tables);
	}
	pp_device_destroy(sh.dev);
}

static void test_unbind_under_load_direct(void **state)
{
	unbind_under_load(PP_DMA_DIRECT, 0);
}

static void test_unbind_under_load_direct_debug(void **state)
{
	unbind_under_load(PP_DMA_DIRECT, PP_DMA_DEBUG);
}

static void test_unbind_under_load_iommu(void **state)
{
	unbind_under_load(PP_DMA_IOMMU, 0);
}

static void test_unbind_under_load_iommu_debug(void **state)
{
	unbind_under_load(PP_DMA_IOMMU, PP_DMA_DEBUG | PP_DMA_NONCOHERENT);
}

/*
 * Unbind and rebind, again and again, under load. A mapping made in one
 * binding and unmapped in the next is caller misuse the layer must survive:
 * on the IOMMU its address may by then belong to another thread's mapping
 * (which it then removes), so device writes may fault; nothing may crash
 * or touch freed memory, and at the end every table is freed.
 */
static void rebind_storm(enum pp_dma_backend b, unsigned int flags)
{
	struct shared sh = { .stop_on_error = false };
	unsigned long tables = ppdma_iommu_live_tables();
	struct worker w[NR_WORKERS];
	pp_print_fn old;
	unsigned int cycle;

	/* Stale unmaps WARN or report by the hundred; keep the log quiet. */
	old = pp_set_print(NULL);
	sh.dev = dma_test_dev("storm", b, flags);
	workers_start(w, &sh, 0);
	for (cycle = 0; cycle < 30; cycle++) {
		unsigned long p = __atomic_load_n(&sh.progress, __ATOMIC_RELAXED);

		wait_progress(&sh, p + 20);
		device_release_driver(sh.dev);
		assert_false(pp_device_is_bound(sh.dev));
		sched_yield();
		assert_int_equal(pp_device_bind(sh.dev), 0);
	}
	__atomic_store_n(&sh.stop, 1, __ATOMIC_RELAXED);
	workers_join(w);
	pp_set_print(old);

	device_release_driver(sh.dev);
	assert_int_equal(dma_test_stats(sh.dev).live_mappings, 0);
	pp_device_destroy(sh.dev);
	if (b == PP_DMA_IOMMU)
		assert_int_equal(ppdma_iommu_live_tables(), tables);
}

static void test_rebind_storm_direct_debug(void **state)
{
	rebind_storm(PP_DMA_DIRECT, PP_DMA_DEBUG);
}

static void test_rebind_storm_iommu(void **state)
{
	rebind_storm(PP_DMA_IOMMU, 0);
}

static void test_rebind_storm_iommu_debug(void **state)
{
	rebind_storm(PP_DMA_IOMMU, PP_DMA_DEBUG);
}

#define SHARED_ITERS	1500

static void shared_domain(unsigned int flags)
{
	struct shared sh = { .stop_on_error = true };
	struct worker w[NR_WORKERS];
	struct ppdma_iommu_info info;
	struct pp_dma_stats st;
	struct vsnap vs;

	sh.dev = dma_test_dev("shared", PP_DMA_IOMMU, flags);
	vsnap_take(&vs, sh.dev);
	workers_start(w, &sh, SHARED_ITERS);
	workers_join(w);

	st = dma_test_stats(sh.dev);
	assert_int_equal(st.maps, NR_WORKERS * SHARED_ITERS);
	assert_int_equal(st.unmaps, NR_WORKERS * SHARED_ITERS);
	assert_int_equal(st.map_errors, 0);
	assert_int_equal(st.syncs_for_cpu, NR_WORKERS * SHARED_ITERS);
	assert_int_equal(st.syncs_for_device, NR_WORKERS * SHARED_ITERS);
	assert_int_equal(st.live_mappings, 0);
	info = dma_test_iommu(sh.dev);
	assert_int_equal(info.iova_used, 0);
	assert_int_equal(info.iotlb_flushes, NR_WORKERS * SHARED_ITERS);
	assert_no_violations(&vs, sh.dev);
	pp_device_destroy(sh.dev);
}

static void test_shared_domain(void **state)
{
	shared_domain(0);
}

static void test_shared_domain_debug(void **state)
{
	shared_domain(PP_DMA_DEBUG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_unbind_under_load_direct),
		dma_test(test_unbind_under_load_direct_debug),
		dma_test(test_unbind_under_load_iommu),
		dma_test(test_unbind_under_load_iommu_debug),
		dma_test(test_rebind_storm_direct_debug),
		dma_test(test_rebind_storm_iommu),
		dma_test(test_rebind_storm_iommu_debug),
		dma_test(test_shared_domain),
		dma_test(test_shared_domain_debug),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
