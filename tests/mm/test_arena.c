/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The arena: configuration checks and rounding, alignment, the pre-fault
 * (every page resident before the first allocation), the backings,
 * pp_mem_exit() refusing while anything is allocated, the default arena
 * created by the first allocation (once, even when two threads race for
 * it), and the address <-> page arithmetic.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mm_test.h"

static void arena_with(const struct pp_mem_config *cfg, int expect)
{
	pp_mem_drain_local();
	assert_int_equal(pp_mem_exit(), 0);
	assert_int_equal(pp_mem_init(cfg), expect);
}

static void test_bad_config(void **state)
{
	arena_with(&(struct pp_mem_config){ .nr_nodes = MAX_NUMNODES + 1 }, -EINVAL);
	arena_with(&(struct pp_mem_config){ .nr_nodes = -1 }, -EINVAL);
	arena_with(&(struct pp_mem_config){ .pcp_batch = -1 }, -EINVAL);
	arena_with(&(struct pp_mem_config){ .pcp_high = -5 }, -EINVAL);
	arena_with(&(struct pp_mem_config){ .backing = 7 }, -EINVAL);
	arena_with(&(struct pp_mem_config){ .size = 1UL << 50 }, -ENOMEM);
	/* Nothing was created by the failures. */
	assert_int_equal(pp_mem_map.nr_pages, 0);
	assert_int_equal(mm_total_pages(), 0);
}

static void test_init_twice_busy(void **state)
{
	mm_arena(8, 1, 0, 0);
	assert_int_equal(pp_mem_init(&(struct pp_mem_config){ .size = 8 * MiB }), -EBUSY);
	assert_int_equal(mm_total_pages(), 8 * MiB / PAGE_SIZE);
}

static void test_exit_busy_while_allocated(void **state)
{
	struct page *page, *other;

	mm_arena(8, 1, 0, 0);
	page = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	assert_non_null(page);
	assert_int_equal(pp_mem_exit(), -EBUSY);
	/* Nothing changed: the arena still works. */
	other = alloc_page(GFP_KERNEL);
	assert_non_null(other);
	assert_true(virt_addr_valid(page_address(other)));
	__free_page(other);
	assert_int_equal(pp_mem_exit(), -EBUSY);
	put_page(page);
	assert_int_equal(pp_mem_exit(), 0);
	assert_int_equal(pp_mem_map.nr_pages, 0);
}

struct holder {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stage;
	int cpu;
};

static void holder_wait(struct holder *h, int stage)
{
	pthread_mutex_lock(&h->lock);
	while (h->stage < stage)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
}

static void holder_set(struct holder *h, int stage)
{
	pthread_mutex_lock(&h->lock);
	h->stage = stage;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
}

/* Leaves one page on its CPU's list and waits. */
static void *pcp_holder(void *arg)
{
	struct holder *h = arg;
	struct page *page;

	/* No cmocka asserts off the main thread: report, check there. */
	h->cpu = pp_thread_register(7);
	page = alloc_page(GFP_KERNEL);
	__free_page(page);
	holder_set(h, 1);
	holder_wait(h, 2);
	return NULL;	/* thread exit drains CPU 7's lists */
}

static void test_exit_busy_while_other_cpu_holds_pages(void **state)
{
	struct holder h = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, -1 };
	pthread_t t;

	mm_arena(8, 1, 0, 0);
	pthread_create(&t, NULL, pcp_holder, &h);
	holder_wait(&h, 1);
	assert_int_equal(h.cpu, 7);
	assert_int_equal(pp_mem_pcp_count(7, 0), PPMM_TEST_BATCH);
	assert_int_equal(pp_mem_exit(), -EBUSY);
	holder_set(&h, 2);
	pthread_join(t, NULL);
	assert_int_equal(pp_mem_pcp_count(7, 0), 0);
	assert_int_equal(pp_mem_exit(), 0);
}

static void test_size_rounding(void **state)
{
	arena_with(&(struct pp_mem_config){ .size = 5 * MiB, .backing = PP_MEM_4K }, 0);
	assert_int_equal(pp_mem_map.end - pp_mem_map.base, 8 * MiB);
	assert_int_equal(mm_total_pages(), 8 * MiB / PAGE_SIZE);

	/* 16 MiB over 3 nodes: 5.3 MiB per node, rounded up to 8 MiB. */
	arena_with(&(struct pp_mem_config){ .size = 16 * MiB, .backing = PP_MEM_4K,
					    .nr_nodes = 3 }, 0);
	assert_int_equal(pp_mem_map.nr_pages, 24 * MiB / PAGE_SIZE);
	assert_int_equal(pp_mem_free_blocks(2, MAX_PAGE_ORDER), 2);
	assert_int_equal(pp_mem_free_blocks(3, MAX_PAGE_ORDER), 0);
}

static void assert_resident(unsigned long start, unsigned long len)
{
	unsigned long n = len / PAGE_SIZE, i, resident = 0;
	unsigned char *vec = malloc(n);

	assert_non_null(vec);
	assert_int_equal(mincore((void *)start, len, vec), 0);
	for (i = 0; i < n; i++)
		resident += vec[i] & 1;
	free(vec);
	assert_int_equal(resident, n);
}

static void check_arena_shape(unsigned long bytes)
{
	assert_int_equal(pp_mem_map.base % (PAGE_SIZE << MAX_PAGE_ORDER), 0);
	assert_int_equal(pp_mem_map.end - pp_mem_map.base, bytes);
	assert_int_equal(pp_mem_map.nr_pages, bytes / PAGE_SIZE);
	assert_resident(pp_mem_map.base, bytes);
	assert_resident((unsigned long)pp_mem_map.map & PAGE_MASK,
			PAGE_ALIGN(pp_mem_map.nr_pages * sizeof(struct page)));
}

static void test_prefault_and_alignment_4k(void **state)
{
	arena_with(&(struct pp_mem_config){ .size = 12 * MiB, .backing = PP_MEM_4K }, 0);
	check_arena_shape(12 * MiB);
}

static void test_thp_backing(void **state)
{
	struct page *page;

	arena_with(&(struct pp_mem_config){ .size = 16 * MiB, .backing = PP_MEM_THP }, 0);
	check_arena_shape(16 * MiB);
	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 5);
	assert_non_null(page);
	__free_pages(page, 5);
}

static long meminfo(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	fclose(f);
	return v;
}

/* Without reserved huge pages MAP_HUGETLB fails: -ENOMEM, nothing left
 * behind. With enough reserved, it works (the CI machine has none unless
 * someone reserved them). */
static void test_hugetlb_backing(void **state)
{
	long free_huge = meminfo("HugePages_Free:");
	struct pp_mem_config cfg = { .size = 8 * MiB, .backing = PP_MEM_HUGETLB };

	pp_mem_drain_local();
	assert_int_equal(pp_mem_exit(), 0);
	if (free_huge == 0) {
		assert_int_equal(pp_mem_init(&cfg), -ENOMEM);
		assert_int_equal(pp_mem_map.nr_pages, 0);
		assert_int_equal(mm_total_pages(), 0);
	} else if (free_huge >= 4) {
		assert_int_equal(pp_mem_init(&cfg), 0);
		check_arena_shape(8 * MiB);
	} else {
		skip();
	}
}

/* The first allocation creates the default arena; PAGEPOOL_MEM_MB sizes
 * it. */
static void test_default_arena_on_first_alloc(void **state)
{
	struct page *page;

	pp_mem_drain_local();
	assert_int_equal(pp_mem_exit(), 0);
	setenv("PAGEPOOL_MEM_MB", "8", 1);
	page = alloc_page(GFP_KERNEL);
	unsetenv("PAGEPOOL_MEM_MB");
	assert_non_null(page);
	assert_int_equal(mm_total_pages(), 8 * MiB / PAGE_SIZE);
	assert_true(virt_addr_valid(page_address(page)));
	__free_page(page);
	assert_int_equal(pp_mem_exit(), 0);
}

static void *first_alloc(void *arg)
{
	struct page **out = arg;

	*out = alloc_page(GFP_KERNEL);
	__free_page(*out);
	return NULL;
}

/* Two threads racing to the first allocation create one arena. */
static void test_default_arena_once(void **state)
{
	struct page *pa = NULL, *pb = NULL;
	pthread_t a, b;

	pp_mem_drain_local();
	assert_int_equal(pp_mem_exit(), 0);
	setenv("PAGEPOOL_MEM_MB", "8", 1);
	pthread_create(&a, NULL, first_alloc, &pa);
	pthread_create(&b, NULL, first_alloc, &pb);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	unsetenv("PAGEPOOL_MEM_MB");
	assert_non_null(pa);
	assert_non_null(pb);
	assert_int_equal(pp_mem_map.nr_pages, 8 * MiB / PAGE_SIZE);
	assert_true(virt_addr_valid(page_address(pa)));
	assert_true(virt_addr_valid(page_address(pb)));
	/* Both threads exited: their lists were drained. */
	assert_int_equal(mm_free_pages(), mm_total_pages());
	assert_int_equal(pp_mem_exit(), 0);
}

static void test_address_arithmetic(void **state)
{
	struct page *page;
	void *addr;

	mm_arena(8, 1, 0, 0);
	page = alloc_page(GFP_KERNEL);
	addr = page_address(page);
	assert_ptr_equal(virt_to_page(addr), page);
	assert_ptr_equal(virt_to_page((char *)addr + 100), page);
	assert_ptr_equal(pfn_to_page(page_to_pfn(page)), page);
	assert_true(pfn_valid(page_to_pfn(page)));
	assert_false(pfn_valid(PP_PFN_OFFSET - 1));
	assert_false(pfn_valid(PP_PFN_OFFSET + pp_mem_map.nr_pages));
	assert_true(page_to_pfn(pp_mem_map.map) == PP_PFN_OFFSET);
	assert_int_equal(page_to_phys(page), page_to_pfn(page) << PAGE_SHIFT);
	assert_false(virt_addr_valid((void *)(pp_mem_map.base - 1)));
	assert_false(virt_addr_valid((void *)pp_mem_map.end));
	assert_false(virt_addr_valid(&page));
	assert_int_equal(page_to_nid(page), 0);
	__free_page(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_init_twice_busy),
		cmocka_unit_test(test_exit_busy_while_allocated),
		cmocka_unit_test(test_exit_busy_while_other_cpu_holds_pages),
		cmocka_unit_test(test_size_rounding),
		cmocka_unit_test(test_prefault_and_alignment_4k),
		cmocka_unit_test(test_thp_backing),
		cmocka_unit_test(test_hugetlb_backing),
		cmocka_unit_test(test_default_arena_on_first_alloc),
		cmocka_unit_test(test_default_arena_once),
		cmocka_unit_test(test_address_arithmetic),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
