/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The per-call trace hook (pp_dma_set_trace): one record per DMA call, in
 * order, with the exact address, size and direction — for a ranged sync,
 * the mapping's address plus the offset and the synced length, which is
 * what page_pool's sync-for-device tests assert on. Also: failed maps are
 * traced with DMA_MAPPING_ERROR, calls after unbind are traced, syncs
 * skipped by dma_dev_need_sync() are not, removing the hook stops the
 * records, and a hook may itself call the DMA API.
 */
#include <stdio.h>

#include "dma_test.h"

struct rec {
	struct device *dev;
	enum pp_dma_op op;
	dma_addr_t addr;
	size_t size;
	enum dma_data_direction dir;
};

struct log {
	struct rec r[64];
	unsigned int n;
	int marker;
};

static void record(struct device *dev, enum pp_dma_op op, dma_addr_t addr,
		   size_t size, enum dma_data_direction dir, void *arg)
{
	struct log *l = arg;

	assert_int_equal(l->marker, 0x5a5a);
	assert_true(l->n < 64);
	l->r[l->n++] = (struct rec){ dev, op, addr, size, dir };
}

#define assert_rec(l, i, o, a, s, d)				\
do {								\
	assert_int_equal((l)->r[i].op, (o));			\
	assert_int_equal((l)->r[i].addr, (a));			\
	assert_int_equal((l)->r[i].size, (s));			\
	assert_int_equal((l)->r[i].dir, (d));			\
} while (0)

static void test_exact_ranges(void **state)
{
	unsigned int b;

	for (b = PP_DMA_DIRECT; b <= PP_DMA_IOMMU; b++) {
		struct device *dev = dma_test_dev("trace", b, PP_DMA_NONCOHERENT);
		struct page *page = dma_test_page(0);
		struct log l = { .marker = 0x5a5a };
		dma_addr_t addr;

		pp_dma_set_trace(dev, record, &l);
		addr = dma_map_page_attrs(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL,
					  DMA_ATTR_SKIP_CPU_SYNC);
		/* page_pool: sync what the device may have written, from
		 * the headroom on, only as far as the data went. */
		dma_sync_single_range_for_device(dev, addr, 256, 1514, DMA_BIDIRECTIONAL);
		dma_sync_single_range_for_cpu(dev, addr, 256 + 14, 60, DMA_BIDIRECTIONAL);
		dma_sync_single_for_device(dev, addr + 4000, 96, DMA_BIDIRECTIONAL);
		dma_unmap_page_attrs(dev, addr, PAGE_SIZE, DMA_BIDIRECTIONAL,
				     DMA_ATTR_SKIP_CPU_SYNC);

		assert_int_equal(l.n, 5);
		assert_ptr_equal(l.r[0].dev, dev);
		assert_rec(&l, 0, PP_DMA_OP_MAP, addr, PAGE_SIZE, DMA_BIDIRECTIONAL);
		assert_rec(&l, 1, PP_DMA_OP_SYNC_FOR_DEVICE, addr + 256, 1514, DMA_BIDIRECTIONAL);
		assert_rec(&l, 2, PP_DMA_OP_SYNC_FOR_CPU, addr + 270, 60, DMA_BIDIRECTIONAL);
		assert_rec(&l, 3, PP_DMA_OP_SYNC_FOR_DEVICE, addr + 4000, 96, DMA_BIDIRECTIONAL);
		assert_rec(&l, 4, PP_DMA_OP_UNMAP, addr, PAGE_SIZE, DMA_BIDIRECTIONAL);

		/* Removed: nothing more. */
		pp_dma_set_trace(dev, NULL, NULL);
		addr = dma_map_page(dev, page, 0, 64, DMA_TO_DEVICE);
		dma_unmap_page(dev, addr, 64, DMA_TO_DEVICE);
		assert_int_equal(l.n, 5);

		__free_page(page);
		pp_device_destroy(dev);
	}
}

/* On a coherent device without debug the inline sync wrappers return
 * before the call: no record. A direct __dma_sync_* call is traced. */
static void test_skipped_syncs(void **state)
{
	struct device *dev = dma_test_dev("coh", PP_DMA_DIRECT, 0);
	struct page *page = dma_test_page(0);
	struct log l = { .marker = 0x5a5a };
	dma_addr_t addr;

	pp_dma_set_trace(dev, record, &l);
	addr = dma_map_page(dev, page, 0, 512, DMA_FROM_DEVICE);
	dma_sync_single_for_device(dev, addr, 512, DMA_FROM_DEVICE);
	dma_sync_single_range_for_cpu(dev, addr, 0, 512, DMA_FROM_DEVICE);
	assert_int_equal(l.n, 1);
	__dma_sync_single_for_cpu(dev, addr, 128, DMA_FROM_DEVICE);
	assert_int_equal(l.n, 2);
	assert_rec(&l, 1, PP_DMA_OP_SYNC_FOR_CPU, addr, 128, DMA_FROM_DEVICE);
	dma_unmap_page(dev, addr, 512, DMA_FROM_DEVICE);
	assert_int_equal(l.n, 3);

	__free_page(page);
	pp_device_destroy(dev);
}

/* Failed calls are traced too: a failed map with DMA_MAPPING_ERROR, calls
 * after unbind with what they were given. */
static void test_failures_traced(void **state)
{
	struct device *dev = dma_test_dev("fail", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	struct log l = { .marker = 0x5a5a };
	dma_addr_t addr;

	pp_dma_set_trace(dev, record, &l);
	pp_fault_inject(PP_FAULT_DMA_MAP, &(struct pp_fault_config){ .next_n = 1 });
	addr = dma_map_page(dev, page, 0, 100, DMA_TO_DEVICE);
	pp_fault_inject(PP_FAULT_DMA_MAP, NULL);
	assert_true(dma_mapping_error(dev, addr));
	assert_int_equal(l.n, 1);
	assert_rec(&l, 0, PP_DMA_OP_MAP, DMA_MAPPING_ERROR, 100, DMA_TO_DEVICE);

	addr = dma_map_page(dev, page, 0, 100, DMA_TO_DEVICE);
	device_release_driver(dev);
	__dma_sync_single_for_device(dev, addr + 10, 20, DMA_TO_DEVICE);
	dma_unmap_page(dev, addr, 100, DMA_TO_DEVICE);
	assert_int_equal(l.n, 4);
	assert_rec(&l, 2, PP_DMA_OP_SYNC_FOR_DEVICE, addr + 10, 20, DMA_TO_DEVICE);
	assert_rec(&l, 3, PP_DMA_OP_UNMAP, addr, 100, DMA_TO_DEVICE);

	__free_page(page);
	pp_device_destroy(dev);
}

/* The hook runs outside the layer's locks and op sections: it may call
 * the DMA API on the same device, and even unbind it. */
struct reentrant {
	struct page *page;
	unsigned int calls;
	bool nested;
	dma_addr_t inner;
};

static void reenter(struct device *dev, enum pp_dma_op op, dma_addr_t addr,
		    size_t size, enum dma_data_direction dir, void *arg)
{
	struct reentrant *r = arg;

	r->calls++;
	if (op == PP_DMA_OP_MAP && !r->nested) {
		r->nested = true;
		r->inner = dma_map_page(dev, r->page, 64, 64, DMA_TO_DEVICE);
		__dma_sync_single_for_device(dev, addr, size, dir);
	}
	if (op == PP_DMA_OP_UNMAP && size == 32)
		device_release_driver(dev);
}

static void test_reentrant_hook(void **state)
{
	struct device *dev = dma_test_dev("reenter", PP_DMA_IOMMU, PP_DMA_DEBUG);
	struct reentrant r = { .page = dma_test_page(0) };
	struct vsnap vs;
	dma_addr_t addr;

	vsnap_take(&vs, dev);
	pp_dma_set_trace(dev, reenter, &r);
	addr = dma_map_page(dev, r.page, 0, 32, DMA_TO_DEVICE);
	assert_false(dma_mapping_error(dev, addr));
	assert_false(dma_mapping_error(dev, r.inner));
	assert_int_equal(r.calls, 3);	/* outer map, inner map, sync */
	dma_unmap_page(dev, r.inner, 64, DMA_TO_DEVICE);
	dma_unmap_page(dev, addr, 32, DMA_TO_DEVICE);	/* hook unbinds */
	assert_false(pp_device_is_bound(dev));
	assert_no_violations(&vs, dev);

	__free_page(r.page);
	pp_device_destroy(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_exact_ranges),
		dma_test(test_skipped_syncs),
		dma_test(test_failures_traced),
		dma_test(test_reentrant_hook),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
