/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The DMA-API debug layer: one test per violation kind, each on both
 * backends, asserting that exactly that kind's counter (on the device and
 * over all devices) and the totals moved by the expected amount and that
 * the message names the device and the kind; then what must not be
 * reported (a clean page_pool-style cycle, a remap of a tombstoned
 * address, syncs inside a mapping, any-direction syncs of a bidirectional
 * mapping), that a violating unmap leaves the backend intact, and
 * PAGEPOOL_DMA_ABORT=1.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dma_test.h"

static const enum pp_dma_backend backends[] = { PP_DMA_DIRECT, PP_DMA_IOMMU };

#define for_each_backend(b)						\
	for (unsigned int __i = 0; __i < 2 && ((b) = backends[__i], 1); __i++)

/* The message: "DMA-API: <device>: <kind>: ..." */
static void assert_reported(const char *dev, enum pp_dma_violation kind, int n)
{
	char needle[128];

	snprintf(needle, sizeof(needle), "DMA-API: %s: %s: ", dev,
		 pp_dma_violation_name(kind));
	assert_int_equal(pp_test_log_count(needle), n);
}

static void test_names(void **state)
{
	int i, j;

	for (i = 0; i < PP_DMA_V_NR; i++) {
		const char *n = pp_dma_violation_name((enum pp_dma_violation)i);

		assert_non_null(n);
		assert_string_not_equal(n, "unknown");
		for (j = 0; j < i; j++)
			assert_string_not_equal(n, pp_dma_violation_name((enum pp_dma_violation)j));
	}
	assert_string_equal(pp_dma_violation_name(PP_DMA_V_NR), "unknown");
	assert_int_equal(pp_dma_violation_count(NULL, PP_DMA_V_NR), 0);
}

static void test_double_unmap(void **state)
{
	enum pp_dma_backend b;

	for_each_backend(b) {
		struct device *dev = dma_test_dev("dbl", b, PP_DMA_DEBUG);
		struct page *page = dma_test_page(0);
		unsigned long warns = pp_warn_count();
		struct vsnap vs;
		dma_addr_t addr, again;

		pp_test_log_clear();
		addr = dma_map_page(dev, page, 0, 512, DMA_FROM_DEVICE);
		dma_unmap_page(dev, addr, 512, DMA_FROM_DEVICE);
		vsnap_take(&vs, dev);
		dma_unmap_page(dev, addr, 512, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_DOUBLE_UNMAP, 1);
		assert_reported("dbl", PP_DMA_V_DOUBLE_UNMAP, 1);
		/* The message names the address and size. */
		{
			char needle[64];

			snprintf(needle, sizeof(needle), "[device address=0x%016llx] [size=512 bytes]",
				 (unsigned long long)addr);
			assert_true(pp_test_log_contains(needle));
		}
		/* The backend was not called a second time. */
		assert_int_equal(pp_warn_count(), warns);
		assert_int_equal(dma_test_stats(dev).unmaps, 1);
		if (b == PP_DMA_IOMMU) {
			struct ppdma_iommu_info info = dma_test_iommu(dev);

			assert_int_equal(info.iova_used, 0);
			assert_int_equal(info.iotlb_flushes, 1);
		}
		/* And still works. */
		again = dma_map_page(dev, page, 0, 512, DMA_FROM_DEVICE);
		assert_false(dma_mapping_error(dev, again));
		dma_unmap_page(dev, again, 512, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_DOUBLE_UNMAP, 1);

		__free_page(page);
		pp_device_destroy(dev);
	}
}

static void test_unknown_unmap(void **state)
{
	enum pp_dma_backend b;

	for_each_backend(b) {
		struct device *dev = dma_test_dev("unk", b, PP_DMA_DEBUG);
		struct page *page = dma_test_page(0);
		unsigned long warns = pp_warn_count();
		struct vsnap vs;
		dma_addr_t addr;

		pp_test_log_clear();
		addr = dma_map_page(dev, page, 0, 512, DMA_FROM_DEVICE);
		vsnap_take(&vs, dev);
		/* Never mapped: a neighbouring address, and a made-up one. */
		dma_unmap_page(dev, addr + 8, 512, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_UNKNOWN_UNMAP, 1);
		dma_unmap_page(dev, 0x7654321000ULL, 64, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_UNKNOWN_UNMAP, 2);
		assert_reported("unk", PP_DMA_V_UNKNOWN_UNMAP, 2);
		assert_int_equal(pp_warn_count(), warns);
		/* The real mapping is untouched. */
		assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 1);
		assert_int_equal(dma_test_stats(dev).live_mappings, 1);
		dma_unmap_page(dev, addr, 512, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_UNKNOWN_UNMAP, 2);

		__free_page(page);
		pp_device_destroy(dev);
	}
}

/* A wrong size is reported; the mapping still goes, all of it (the IOMMU
 * frees what it mapped, not what the caller claims). */
static void test_bad_unmap_size(void **state)
{
	enum pp_dma_backend b;

	for_each_backend(b) {
		struct device *dev = dma_test_dev("size", b, PP_DMA_DEBUG);
		struct page *page = dma_test_page(1);
		struct vsnap vs;
		char msg[80];
		dma_addr_t addr;

		pp_test_log_clear();
		addr = dma_map_page(dev, page, 0, 2 * PAGE_SIZE, DMA_BIDIRECTIONAL);
		vsnap_take(&vs, dev);
		dma_unmap_page(dev, addr, 1024, DMA_BIDIRECTIONAL);
		assert_violations(&vs, dev, PP_DMA_V_BAD_UNMAP, 1);
		assert_reported("size", PP_DMA_V_BAD_UNMAP, 1);
		snprintf(msg, sizeof(msg), "[map size=%lu bytes] [unmap size=1024 bytes]",
			 2 * PAGE_SIZE);
		assert_true(pp_test_log_contains(msg));
		assert_int_equal(dma_test_stats(dev).live_mappings, 0);
		assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 0);
		if (b == PP_DMA_IOMMU) {
			char c;

			assert_int_equal(dma_test_iommu(dev).iova_used, 0);
			assert_int_equal(pp_dma_device_read(dev, addr + PAGE_SIZE, &c, 1), -EFAULT);
		}
		put_page(page);
		pp_device_destroy(dev);
	}
}

static void test_wrong_dir_unmap(void **state)
{
	enum pp_dma_backend b;

	for_each_backend(b) {
		struct device *dev = dma_test_dev("dir", b, PP_DMA_DEBUG);
		struct page *page = dma_test_page(0);
		struct vsnap vs;
		dma_addr_t addr;

		pp_test_log_clear();
		addr = dma_map_page(dev, page, 0, 512, DMA_TO_DEVICE);
		vsnap_take(&vs, dev);
		dma_unmap_page(dev, addr, 512, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_DIR, 1);
		assert_reported("dir", PP_DMA_V_WRONG_DIR, 1);
		assert_true(pp_test_log_contains("[mapped with DMA_TO_DEVICE] [unmapped with DMA_FROM_DEVICE]"));
		/* Unmapped all the same. */
		assert_int_equal(dma_test_stats(dev).live_mappings, 0);
		/* A bidirectional mapping must be unmapped bidirectionally. */
		addr = dma_map_page(dev, page, 0, 512, DMA_BIDIRECTIONAL);
		dma_unmap_page(dev, addr, 512, DMA_TO_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_DIR, 2);

		__free_page(page);
		pp_device_destroy(dev);
	}
}

static void test_wrong_dir_sync(void **state)
{
	enum pp_dma_backend b;

	for_each_backend(b) {
		struct device *dev = dma_test_dev("sdir", b, PP_DMA_DEBUG);
		struct page *page = dma_test_page(0);
		struct vsnap vs;
		dma_addr_t to, bidi;

		pp_test_log_clear();
		to = dma_map_page(dev, page, 0, 512, DMA_TO_DEVICE);
		bidi = dma_map_page(dev, page, 1024, 512, DMA_BIDIRECTIONAL);
		vsnap_take(&vs, dev);
		dma_sync_single_for_cpu(dev, to, 512, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_DIR, 1);
		assert_reported("sdir", PP_DMA_V_WRONG_DIR, 1);
		assert_true(pp_test_log_contains("[mapped with DMA_TO_DEVICE] [synced with DMA_FROM_DEVICE]"));
		dma_sync_single_for_device(dev, to, 512, DMA_TO_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_DIR, 1);
		/* The kernel's check_sync() accepts any direction on a
		 * bidirectional mapping. */
		dma_sync_single_for_device(dev, bidi, 512, DMA_TO_DEVICE);
		dma_sync_single_for_cpu(dev, bidi, 512, DMA_FROM_DEVICE);
		dma_sync_single_for_cpu(dev, bidi, 512, DMA_BIDIRECTIONAL);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_DIR, 1);

		dma_unmap_page(dev, to, 512, DMA_TO_DEVICE);
		dma_unmap_page(dev, bidi, 512, DMA_BIDIRECTIONAL);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_DIR, 1);
		__free_page(page);
		pp_device_destroy(dev);
	}
}

static void test_sync_outside(void **state)
{
	enum pp_dma_backend b;

	for_each_backend(b) {
		struct device *dev = dma_test_dev("sync", b, PP_DMA_DEBUG);
		struct page *page = dma_test_page(2);
		struct vsnap vs;
		dma_addr_t addr, big;

		pp_test_log_clear();
		addr = dma_map_page(dev, page, 0, 1024, DMA_FROM_DEVICE);
		/* 3 pages from offset 2 KiB of page 1 of the block. */
		big = dma_map_page(dev, page + 1, 2048, 3 * PAGE_SIZE - 2048, DMA_FROM_DEVICE);
		vsnap_take(&vs, dev);

		/* Inside: at offsets, page_pool style, and deep in a mapping
		 * that started pages earlier. */
		dma_sync_single_range_for_cpu(dev, addr, 256, 512, DMA_FROM_DEVICE);
		dma_sync_single_range_for_device(dev, addr, 0, 1024, DMA_FROM_DEVICE);
		dma_sync_single_range_for_cpu(dev, addr, 1023, 1, DMA_FROM_DEVICE);
		dma_sync_single_range_for_cpu(dev, big, 2 * PAGE_SIZE, 1000, DMA_FROM_DEVICE);
		dma_sync_single_range_for_cpu(dev, big, 0, 3 * PAGE_SIZE - 2048, DMA_FROM_DEVICE);
		assert_no_violations(&vs, dev);

		/* Starts inside, ends past the end. */
		dma_sync_single_range_for_cpu(dev, addr, 512, 1024, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_SYNC_OUTSIDE, 1);
		/* big's last page holds PAGE_SIZE - 2048 of it: one byte more. */
		dma_sync_single_range_for_device(dev, big, 2 * PAGE_SIZE, PAGE_SIZE - 2047,
						 DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_SYNC_OUTSIDE, 2);
		/* Not in any mapping: just past one, before one, nowhere. */
		dma_sync_single_for_cpu(dev, addr + 1024, 16, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_SYNC_OUTSIDE, 3);
		dma_sync_single_for_cpu(dev, big - 1, 16, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_SYNC_OUTSIDE, 4);
		dma_sync_single_for_device(dev, 0x123456000ULL, 16, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_SYNC_OUTSIDE, 5);
		assert_reported("sync", PP_DMA_V_SYNC_OUTSIDE, 5);

		/* After the unmap, a sync is outside too. */
		dma_unmap_page(dev, addr, 1024, DMA_FROM_DEVICE);
		dma_sync_single_for_cpu(dev, addr, 16, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_SYNC_OUTSIDE, 6);

		dma_unmap_page(dev, big, 3 * PAGE_SIZE - 2048, DMA_FROM_DEVICE);
		put_page(page);
		pp_device_destroy(dev);
	}
}

static void test_leak_at_unbind(void **state)
{
	enum pp_dma_backend b;

	for_each_backend(b) {
		struct device *dev = dma_test_dev("leak", b, PP_DMA_DEBUG);
		struct page *page = dma_test_page(0);
		struct vsnap vs;
		dma_addr_t addr[20];
		unsigned int i;

		pp_test_log_clear();
		for (i = 0; i < 3; i++)
			addr[i] = dma_map_page(dev, page, i * 64, 64, DMA_FROM_DEVICE);
		dma_unmap_page(dev, addr[1], 64, DMA_FROM_DEVICE);
		vsnap_take(&vs, dev);
		device_release_driver(dev);
		assert_violations(&vs, dev, PP_DMA_V_LEAK_AT_UNBIND, 2);
		assert_reported("leak", PP_DMA_V_LEAK_AT_UNBIND, 2);
		assert_true(pp_test_log_contains("pending DMA allocations while released from device [count=2]"));
		assert_int_equal(dma_test_stats(dev).live_mappings, 0);

		/* Many: each counted, the first few printed. */
		assert_int_equal(pp_device_bind(dev), 0);
		pp_test_log_clear();
		for (i = 0; i < 20; i++)
			addr[i] = dma_map_page(dev, page, i * 64, 64, DMA_FROM_DEVICE);
		vsnap_take(&vs, dev);
		device_release_driver(dev);
		assert_violations(&vs, dev, PP_DMA_V_LEAK_AT_UNBIND, 20);
		assert_int_equal(pp_test_log_count("leak-at-unbind: mapping still live"), 8);
		assert_true(pp_test_log_contains("leak-at-unbind: ... and 12 more mappings still live"));

		/* No leak, no report. */
		assert_int_equal(pp_device_bind(dev), 0);
		addr[0] = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
		dma_unmap_page(dev, addr[0], 64, DMA_FROM_DEVICE);
		vsnap_take(&vs, NULL);
		pp_device_destroy(dev);
		assert_no_violations(&vs, NULL);
		__free_page(page);
	}
}

/* With debug on, use after unbind is caught on the direct backend too, and
 * is the only thing reported (the table was emptied at unbind, so it is
 * not also an unknown unmap). */
static void test_use_after_unbind(void **state)
{
	enum pp_dma_backend b;

	for_each_backend(b) {
		struct device *dev = dma_test_dev("uau", b, PP_DMA_DEBUG);
		struct page *page = dma_test_page(0);
		struct vsnap vs;
		dma_addr_t addr;

		pp_test_log_clear();
		addr = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
		vsnap_take(&vs, dev);
		device_release_driver(dev);
		assert_violations(&vs, dev, PP_DMA_V_LEAK_AT_UNBIND, 1);

		vsnap_take(&vs, dev);
		dma_sync_single_for_cpu(dev, addr, 64, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 1);
		dma_unmap_page(dev, addr, 64, DMA_FROM_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 2);
		assert_true(dma_mapping_error(dev, dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE)));
		assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 3);
		assert_reported("uau", PP_DMA_V_USE_AFTER_UNBIND, 3);
		assert_int_equal(dma_test_stats(dev).unmaps, 0);

		__free_page(page);
		pp_device_destroy(dev);
	}
}

/* What page_pool does with every page, many times over: nothing to report. */
static void test_clean_cycle(void **state)
{
	enum pp_dma_backend b;

	for_each_backend(b) {
		struct device *dev = dma_test_dev("clean", b, PP_DMA_DEBUG);
		struct page *pages[8];
		dma_addr_t addr[8];
		struct vsnap vs, all;
		unsigned int i, round;
		char pkt[256] = "packet";

		vsnap_take(&vs, dev);
		vsnap_take(&all, NULL);
		for (i = 0; i < 8; i++)
			pages[i] = dma_test_page(0);
		for (round = 0; round < 50; round++) {
			for (i = 0; i < 8; i++) {
				addr[i] = dma_map_page_attrs(dev, pages[i], 0, PAGE_SIZE,
							     DMA_BIDIRECTIONAL,
							     DMA_ATTR_SKIP_CPU_SYNC |
							     DMA_ATTR_WEAK_ORDERING);
				assert_false(dma_mapping_error(dev, addr[i]));
				dma_sync_single_range_for_device(dev, addr[i], 256, 1536,
								 DMA_BIDIRECTIONAL);
				assert_int_equal(pp_dma_device_write(dev, addr[i] + 256, pkt,
								     sizeof(pkt)), 0);
				dma_sync_single_range_for_cpu(dev, addr[i], 256, sizeof(pkt),
							      DMA_BIDIRECTIONAL);
			}
			for (i = 0; i < 8; i++)
				dma_unmap_page_attrs(dev, addr[i], PAGE_SIZE, DMA_BIDIRECTIONAL,
						     DMA_ATTR_SKIP_CPU_SYNC);
		}
		assert_no_violations(&vs, dev);
		assert_int_equal(dma_test_stats(dev).live_mappings, 0);
		for (i = 0; i < 8; i++)
			__free_page(pages[i]);
		pp_device_destroy(dev);
		assert_no_violations(&all, NULL);
	}
}

/* A tombstone lasts until its address is mapped again: then an unmap is a
 * normal one. The direct backend maps a page to the same address every
 * time, and may hold several live mappings at one address. */
static void test_tombstones(void **state)
{
	struct device *dev = dma_test_dev("tomb", PP_DMA_DIRECT, PP_DMA_DEBUG);
	struct page *page = dma_test_page(0);
	dma_addr_t a, b2, c;
	struct vsnap vs;

	vsnap_take(&vs, dev);
	a = dma_map_page(dev, page, 0, 128, DMA_TO_DEVICE);
	dma_unmap_page(dev, a, 128, DMA_TO_DEVICE);
	b2 = dma_map_page(dev, page, 0, 128, DMA_TO_DEVICE);
	assert_int_equal(a, b2);
	dma_unmap_page(dev, b2, 128, DMA_TO_DEVICE);
	assert_no_violations(&vs, dev);

	/* Two live mappings at one address, of different directions: the
	 * best fit is picked, then a third unmap is a double one. */
	a = dma_map_page(dev, page, 0, 128, DMA_TO_DEVICE);
	c = dma_map_page(dev, page, 0, 128, DMA_FROM_DEVICE);
	assert_int_equal(a, c);
	dma_unmap_page(dev, c, 128, DMA_FROM_DEVICE);
	dma_unmap_page(dev, a, 128, DMA_TO_DEVICE);
	assert_no_violations(&vs, dev);
	dma_unmap_page(dev, a, 128, DMA_TO_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_DOUBLE_UNMAP, 1);

	__free_page(page);
	pp_device_destroy(dev);
}

/* PAGEPOOL_DMA_ABORT=1: the first violation abort()s (in a child). */
static void test_abort(void **state)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct device *dev;
		struct page *page;
		dma_addr_t addr;

		pp_set_print(NULL);
		setenv("PAGEPOOL_DMA_ABORT", "1", 1);
		signal(SIGABRT, SIG_DFL);
		dev = pp_device_create("abort", PP_DMA_DIRECT, PP_DMA_DEBUG);
		page = alloc_page(GFP_KERNEL);
		addr = dma_map_page(dev, page, 0, 64, DMA_TO_DEVICE);
		dma_unmap_page(dev, addr, 64, DMA_TO_DEVICE);
		dma_unmap_page(dev, addr, 64, DMA_TO_DEVICE);	/* aborts */
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_names),
		dma_test(test_double_unmap),
		dma_test(test_unknown_unmap),
		dma_test(test_bad_unmap_size),
		dma_test(test_wrong_dir_unmap),
		dma_test(test_wrong_dir_sync),
		dma_test(test_sync_outside),
		dma_test(test_leak_at_unbind),
		dma_test(test_use_after_unbind),
		dma_test(test_clean_cycle),
		dma_test(test_tombstones),
		dma_test(test_abort),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
