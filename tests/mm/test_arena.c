/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The arena: configuration checks and rounding, alignment, the pre-fault
 * (every page resident before the first allocation), the backings,
 * pp_mem_exit() refusing while anything is allocated, the default arena
 * created by the first allocation (once, even when two threads race for
 * it), and the address <-> page arithmetic.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mm_test.h"

#include "mm/mm_internal.h"

/* Pages of an arena asked for @bytes: rounded up to whole largest blocks
 * (so 8 MiB is 2 blocks at 4 KiB pages, one at 16 and 64 KiB). */
static unsigned long pages_for(unsigned long bytes)
{
	return ALIGN(bytes, MM_BLOCK_BYTES) / PAGE_SIZE;
}

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
	pp_test_log_clear();
	arena_with(&(struct pp_mem_config){ .size = 1UL << 50 }, -ENOMEM);
	assert_true(pp_test_log_contains("is more than the machine's memory"));
	/* Nothing was created by the failures. */
	assert_int_equal(pp_mem_map.nr_pages, 0);
	assert_int_equal(mm_total_pages(), 0);
}

static void test_init_twice_busy(void **state)
{
	mm_arena(2, 1, 0, 0);
	assert_int_equal(pp_mem_init(&(struct pp_mem_config){ .size = 2 * MM_BLOCK_BYTES }), -EBUSY);
	assert_int_equal(mm_total_pages(), 2 * PPMM_TEST_BLOCK);
}

static void test_exit_busy_while_allocated(void **state)
{
	struct page *page, *other;

	mm_arena(2, 1, 0, 0);
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

	mm_arena(2, 1, 0, 0);
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
	/* A block and a quarter: two blocks. */
	arena_with(&(struct pp_mem_config){ .size = MM_BLOCK_BYTES + MM_BLOCK_BYTES / 4,
					    .backing = PP_MEM_4K }, 0);
	assert_int_equal(pp_mem_map.end - pp_mem_map.base, 2 * MM_BLOCK_BYTES);
	assert_int_equal(mm_total_pages(), 2 * PPMM_TEST_BLOCK);

	/* 4 blocks over 3 nodes: 1.3 blocks per node, rounded up to 2. */
	arena_with(&(struct pp_mem_config){ .size = 4 * MM_BLOCK_BYTES, .backing = PP_MEM_4K,
					    .nr_nodes = 3 }, 0);
	assert_int_equal(pp_mem_map.nr_pages, 6 * PPMM_TEST_BLOCK);
	assert_int_equal(pp_mem_free_blocks(2, MAX_PAGE_ORDER), 2);
	assert_int_equal(pp_mem_free_blocks(3, MAX_PAGE_ORDER), 0);
}

/* mincore() reports one byte per system page, not per library page.
 * The vector is sized for 4 KiB pages whatever the system page: under
 * qemu-user with a larger guest page (qemu-aarch64 -p 65536, the
 * aarch64-64k configuration) qemu 7.2 hands the guest's vector to the
 * host's mincore(), which writes one byte per *host* page (4 KiB): a
 * vector of len / 64 KiB bytes overflowed into the malloc heap and glibc
 * aborted in sysmalloc() at the next allocation. A kernel writes exactly
 * one byte per system page; bytes written past those (the 0xfe sentinel
 * gone) mean such an emulator, and then a system page counts as resident
 * when one of its host pages is (a guest page's first write faults one
 * host page). */
#define MINCORE_MIN_PAGE	4096UL
static void assert_resident(unsigned long start, unsigned long len)
{
	unsigned long sys = (unsigned long)sysconf(_SC_PAGESIZE);
	unsigned long n = DIV_ROUND_UP(len, sys), i, j, resident = 0;
	unsigned long n_min = DIV_ROUND_UP(len, MINCORE_MIN_PAGE);
	unsigned long per = sys / MINCORE_MIN_PAGE;
	unsigned char *vec = malloc(n_min);
	bool host_pages = false;

	assert_non_null(vec);
	memset(vec, 0xfe, n_min);
	assert_int_equal(mincore((void *)start, len, vec), 0);
	for (i = n; i < n_min; i++)
		host_pages |= vec[i] != 0xfe;
	for (i = 0; i < n; i++) {
		unsigned char any = vec[i] & 1;

		for (j = 0; host_pages && j < per; j++)
			any |= vec[i * per + j] & 1;
		resident += any;
	}
	free(vec);
	assert_int_equal(resident, n);
}

static void check_arena_shape(unsigned long bytes)
{
	assert_int_equal(pp_mem_map.base % (PAGE_SIZE << MAX_PAGE_ORDER), 0);
	assert_int_equal(pp_mem_map.end - pp_mem_map.base, bytes);
	assert_int_equal(pp_mem_map.nr_pages, bytes / PAGE_SIZE);
	assert_resident(pp_mem_map.base, bytes);
	/* The struct page array is its own mapping: it starts on a system
	 * page, not necessarily on a library page. */
	assert_resident((unsigned long)pp_mem_map.map,
			pp_mem_map.nr_pages * sizeof(struct page));
}

static void test_prefault_and_alignment_4k(void **state)
{
	arena_with(&(struct pp_mem_config){ .size = 3 * MM_BLOCK_BYTES, .backing = PP_MEM_4K }, 0);
	check_arena_shape(3 * MM_BLOCK_BYTES);
}

/* Without MADV_POPULATE_WRITE (a kernel before 5.14) the touch loop alone
 * faults every system page in: with 16 or 64 KiB library pages on a 4 KiB
 * system it wrote once per library page and left the rest unfaulted. */
static void test_prefault_without_populate(void **state)
{
	ppmm_test_no_populate = true;
	arena_with(&(struct pp_mem_config){ .size = 2 * MM_BLOCK_BYTES, .backing = PP_MEM_4K }, 0);
	ppmm_test_no_populate = false;
	check_arena_shape(2 * MM_BLOCK_BYTES);
}

static void test_thp_backing(void **state)
{
	struct page *page;

	arena_with(&(struct pp_mem_config){ .size = 2 * MM_BLOCK_BYTES, .backing = PP_MEM_THP }, 0);
	check_arena_shape(2 * MM_BLOCK_BYTES);
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

/* The default huge page size in bytes, 0 if the system has none. */
static unsigned long huge_page_bytes(void)
{
	long kb = meminfo("Hugepagesize:");

	return kb > 0 ? (unsigned long)kb << 10 : 0;
}

/* Without enough reserved huge pages MAP_HUGETLB fails: -ENOMEM, nothing
 * left behind. With enough, it works (the CI machine has none unless
 * someone reserved them). A largest block that is not a whole number of
 * huge pages is -EINVAL before any mapping. */
static void test_hugetlb_backing(void **state)
{
	long free_huge = meminfo("HugePages_Free:");
	unsigned long huge = huge_page_bytes(), need;
	struct pp_mem_config cfg = { .size = MM_BLOCK_BYTES, .backing = PP_MEM_HUGETLB };

	pp_mem_drain_local();
	assert_int_equal(pp_mem_exit(), 0);
	if (!huge)
		skip();		/* no hugetlb in this kernel */
	if (MM_BLOCK_BYTES % huge) {
		assert_int_equal(pp_mem_init(&cfg), -EINVAL);
		assert_int_equal(pp_mem_map.nr_pages, 0);
		return;
	}
	need = MM_BLOCK_BYTES / huge;
	if (free_huge >= 0 && (unsigned long)free_huge < need) {
		/* Said, not only returned: the fix is outside the program. */
		pp_test_log_clear();
		assert_int_equal(pp_mem_init(&cfg), -ENOMEM);
		assert_true(pp_test_log_contains("PP_MEM_HUGETLB: cannot map"));
		assert_true(pp_test_log_contains("nr_hugepages"));
		assert_int_equal(pp_mem_map.nr_pages, 0);
		assert_int_equal(mm_total_pages(), 0);
	} else if (free_huge >= 0) {
		assert_int_equal(pp_mem_init(&cfg), 0);
		check_arena_shape(MM_BLOCK_BYTES);
	} else {
		skip();
	}
}

/* A default huge page larger than the largest block (as 512 MiB huge
 * pages under a 16 KiB library page would be): refused with -EINVAL and a
 * message, whatever is reserved; the other backings do not care. */
static void test_hugetlb_block_not_multiple(void **state)
{
	struct pp_mem_config cfg = { .size = MM_BLOCK_BYTES, .backing = PP_MEM_HUGETLB };

	pp_mem_drain_local();
	assert_int_equal(pp_mem_exit(), 0);
	ppmm_test_huge_page_size = 2 * MM_BLOCK_BYTES;
	pp_test_log_clear();
	assert_int_equal(pp_mem_init(&cfg), -EINVAL);
	assert_true(pp_test_log_contains("not a multiple of the default huge page size"));
	assert_int_equal(pp_mem_map.nr_pages, 0);
	cfg.backing = PP_MEM_4K;
	assert_int_equal(pp_mem_init(&cfg), 0);
	ppmm_test_huge_page_size = 0;
	assert_int_equal(pp_mem_exit(), 0);
}

/* A system page larger than the library's PAGE_SIZE (a 4 KiB build on a
 * 64 KiB kernel) is refused when the arena is created: pp_mem_init() and
 * the first allocation's default arena fail with -EINVAL, and the message
 * names both sizes and the meson option. The system page size is the test
 * override here, as this machine's kernel has the page size it has. */
static void test_sys_page_larger_refused(void **state)
{
	char msg[128];

	pp_mem_drain_local();
	assert_int_equal(pp_mem_exit(), 0);
	ppmm_test_sys_page_size = 2 * (long)PAGE_SIZE;
	assert_int_equal(ppmm_sys_page_size(), 2 * (long)PAGE_SIZE);
	snprintf(msg, sizeof(msg), "library PAGE_SIZE %lu is smaller than the system page size %ld",
		 PAGE_SIZE, 2 * (long)PAGE_SIZE);
	pp_test_log_clear();
	assert_int_equal(pp_mem_init(&(struct pp_mem_config){ .backing = PP_MEM_4K }), -EINVAL);
	assert_true(pp_test_log_contains(msg));
	assert_true(pp_test_log_contains("-Dpage_size="));
	assert_int_equal(pp_mem_map.nr_pages, 0);

	/* The default arena: the first allocation fails, nothing aborts. */
	pp_test_log_clear();
	setenv("PAGEPOOL_MEM_MB", "8", 1);
	assert_null(alloc_page(GFP_KERNEL | __GFP_NOWARN));
	assert_int_equal(ppmm_arena_default(), -EINVAL);
	unsetenv("PAGEPOOL_MEM_MB");
	assert_true(pp_test_log_contains(msg));
	assert_int_equal(pp_mem_map.nr_pages, 0);

	/* Equal, or a library page larger than the system's, is fine. */
	ppmm_test_sys_page_size = (long)PAGE_SIZE;
	arena_with(&(struct pp_mem_config){ .backing = PP_MEM_4K, .size = MM_BLOCK_BYTES }, 0);
	ppmm_test_sys_page_size = (long)PAGE_SIZE / 4;
	arena_with(&(struct pp_mem_config){ .backing = PP_MEM_4K, .size = MM_BLOCK_BYTES }, 0);
	ppmm_test_sys_page_size = 0;
	assert_int_equal(ppmm_sys_page_size(), sysconf(_SC_PAGESIZE));
	assert_int_equal(pp_mem_exit(), 0);
}

/* The machine's memory is counted in bytes (system pages times the system
 * page size), not in library pages: a size just over it is refused, just
 * under or equal fits, whatever PAGE_SIZE is. Only the real over case is
 * tried with pp_mem_init(): an arena just under would pre-fault all of
 * the machine. */
static void test_size_vs_machine_memory(void **state)
{
	long phys = sysconf(_SC_PHYS_PAGES), sys = sysconf(_SC_PAGESIZE);
	size_t bytes;

	assert_true(phys > 0 && sys > 0);
	bytes = (size_t)phys * (size_t)sys;
	assert_true(ppmm_size_fits_phys(bytes, phys, sys));
	assert_true(ppmm_size_fits_phys(bytes - 1, phys, sys));
	assert_false(ppmm_size_fits_phys(bytes + 1, phys, sys));
	arena_with(&(struct pp_mem_config){ .size = bytes + 1, .backing = PP_MEM_4K }, -ENOMEM);
	assert_int_equal(pp_mem_map.nr_pages, 0);

	/* A 24 GiB machine with 64 KiB system pages (393216 of them): 2 GiB
	 * fits, 24 GiB fits exactly, a page more does not; the same with
	 * 4 KiB system pages. */
	assert_true(ppmm_size_fits_phys(2UL << 30, 393216, 65536));
	assert_true(ppmm_size_fits_phys(24UL << 30, 393216, 65536));
	assert_false(ppmm_size_fits_phys((24UL << 30) + 65536, 393216, 65536));
	assert_true(ppmm_size_fits_phys(24UL << 30, 6291456, 4096));
	assert_false(ppmm_size_fits_phys((24UL << 30) + 1, 6291456, 4096));
	/* Unknown memory fits anything; a product past size_t does not wrap. */
	assert_true(ppmm_size_fits_phys(SIZE_MAX / 2, -1, 4096));
	assert_true(ppmm_size_fits_phys(SIZE_MAX / 2, 1024, 0));
	assert_true(ppmm_size_fits_phys(SIZE_MAX / 2, LONG_MAX, 65536));
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
	assert_int_equal(mm_total_pages(), pages_for(8 * MiB));
	assert_true(virt_addr_valid(page_address(page)));
	__free_page(page);
	assert_int_equal(pp_mem_exit(), 0);
}

/* A PAGEPOOL_MEM_MB that is not a number of MiB is reported, and the
 * default arena (64 MiB, rounded up to whole blocks) is made instead. */
static void test_default_arena_bad_env(void **state)
{
	static const char *const bad[] = { "abc", "8M", "0", "-1" };
	struct page *page;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		pp_mem_drain_local();
		assert_int_equal(pp_mem_exit(), 0);
		pp_test_log_clear();
		setenv("PAGEPOOL_MEM_MB", bad[i], 1);
		page = alloc_page(GFP_KERNEL);
		unsetenv("PAGEPOOL_MEM_MB");
		assert_non_null(page);
		assert_true(pp_test_log_contains("is not a number of MiB"));
		assert_int_equal(mm_total_pages(), pages_for(64 * MiB));
		__free_page(page);
	}
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
	assert_int_equal(pp_mem_map.nr_pages, pages_for(8 * MiB));
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

	mm_arena(2, 1, 0, 0);
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
		cmocka_unit_test(test_prefault_without_populate),
		cmocka_unit_test(test_thp_backing),
		cmocka_unit_test(test_hugetlb_backing),
		cmocka_unit_test(test_hugetlb_block_not_multiple),
		cmocka_unit_test(test_sys_page_larger_refused),
		cmocka_unit_test(test_size_vs_machine_memory),
		cmocka_unit_test(test_default_arena_on_first_alloc),
		cmocka_unit_test(test_default_arena_bad_env),
		cmocka_unit_test(test_default_arena_once),
		cmocka_unit_test(test_address_arithmetic),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
