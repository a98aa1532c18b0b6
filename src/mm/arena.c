/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The arena: one mapping of page memory aligned to the largest block, and
 * the struct page array beside it (pp_mem_map), split into simulated NUMA
 * nodes. pp_mem_init() creates it, the first allocation creates a default
 * one, pp_mem_exit() removes it when nothing is allocated, so tests can try
 * arenas of several shapes in one process.
 *
 * Backing: system pages (sysconf(_SC_PAGESIZE)), THP (MADV_HUGEPAGE,
 * silently system pages when refused) or hugetlb (MAP_HUGETLB at the
 * system's default huge page size, which must divide the largest block;
 * -ENOMEM when no huge pages are reserved). The library's PAGE_SIZE must
 * be at least the system page size: the per-page work here (pre-fault,
 * block alignment, poisoning and unmapping at page granularity) acts on
 * whole system pages, so a smaller library page is refused. The whole
 * arena and the struct page array are pre-faulted here: a page fault costs
 * 10-20 us in a VM, and allocation paths and benchmarks must never take one.
 * Layer: mm.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/topology.h>
#include <pagepool/mm.h>

#include "mm/mm_internal.h"
#include "runtime/runtime_internal.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23	/* Linux 5.14 */
#endif

struct pp_mem_map pp_mem_map;
struct ppmm_arena ppmm_arena;
struct ppmm_zone ppmm_zones[MAX_NUMNODES];
struct ppmm_pcpu ppmm_pcpu[NR_CPUS];
int ppmm_up;

/* Serialises arena creation and removal, and CPU offline drains against
 * removal. Never taken on allocation paths once the arena is up. */
static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;

/* Test overrides of the system's sizes (0: ask the system). Tests that
 * link the static library set them to try page and huge page sizes the
 * machine does not have; set only with no arena up. */
long ppmm_test_sys_page_size;
unsigned long ppmm_test_huge_page_size;
/* Skip MADV_POPULATE_WRITE: pre-fault with the touch loop alone, as on a
 * kernel before 5.14 (or under qemu-user, which ignores the advice). */
bool ppmm_test_no_populate;

long ppmm_sys_page_size(void)
{
	return ppmm_test_sys_page_size ?: sysconf(_SC_PAGESIZE);
}

/* The default huge page size in bytes (Hugepagesize: in /proc/meminfo,
 * what MAP_HUGETLB without MAP_HUGE_SHIFT flags maps), or 0 if unknown. */
unsigned long ppmm_huge_page_size(void)
{
	unsigned long kb = 0;
	char line[128];
	FILE *f;

	if (ppmm_test_huge_page_size)
		return ppmm_test_huge_page_size;
	f = fopen("/proc/meminfo", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Hugepagesize: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb > ULONG_MAX >> 10 ? 0 : kb << 10;
}

/* Whether @size bytes fit in @phys_pages pages of @sys_page bytes (the
 * machine's memory); non-positive values (unknown) fit anything. Bytes on
 * both sides: the library's PAGE_SIZE need not be the system's. */
bool ppmm_size_fits_phys(size_t size, long phys_pages, long sys_page)
{
	if (phys_pages <= 0 || sys_page <= 0)
		return true;
	/* More memory than size_t counts: anything fits. */
	if ((unsigned long)phys_pages > SIZE_MAX / (unsigned long)sys_page)
		return true;
	return size <= (size_t)phys_pages * (size_t)sys_page;
}

static size_t default_size(void)
{
	const char *e = pprt_knob(PPRT_KNOB_MEM_MB);
	unsigned long mb;
	char *end;

	if (e) {
		errno = 0;
		mb = strtoul(e, &end, 10);
		if (!errno && !*end && mb && mb < (1UL << 30))
			return (size_t)mb << 20;
		pr_warn("pagepool: PAGEPOOL_MEM_MB=\"%s\" is not a number of MiB (1 .. %lu): the default %zu MiB arena instead\n",
			e, (1UL << 30) - 1, (size_t)PPMM_DEFAULT_SIZE >> 20);
	}
	return PPMM_DEFAULT_SIZE;
}

/* Fill @a from @cfg (NULL: all defaults). 0, -EINVAL for a field out of
 * the ranges <pagepool/mm.h> gives, or -ENOMEM for more memory than the
 * machine has. The per-CPU list limits are checked against the node size
 * only once it is known, and computed in long: a batch near INT_MAX used
 * to overflow the default high mark (6 * batch). */
static int resolve_config(const struct pp_mem_config *cfg, struct ppmm_arena *a,
			  size_t *size)
{
	static const struct pp_mem_config none;
	size_t per_node;
	long high;

	if (!cfg)
		cfg = &none;
	if (cfg->backing < 0 || cfg->backing > PP_MEM_HUGETLB ||
	    cfg->nr_nodes < 0 || cfg->nr_nodes > MAX_NUMNODES ||
	    cfg->pcp_batch < 0 || cfg->pcp_high < 0)
		return -EINVAL;
	if (cfg->pcp_high && cfg->pcp_batch && cfg->pcp_high < cfg->pcp_batch)
		return -EINVAL;
	a->backing = cfg->backing;
	a->nr_nodes = cfg->nr_nodes ?: 1;
	a->pcp_batch = cfg->pcp_batch ?: PPMM_DEFAULT_BATCH;

	*size = cfg->size ?: default_size();
	/* Rounding up would wrap: no machine has that much. */
	if (*size > SIZE_MAX / 2)
		return -EINVAL;
	per_node = ALIGN(DIV_ROUND_UP(*size, (size_t)a->nr_nodes), PPMM_BLOCK_SIZE);
	a->node_pages = per_node >> PAGE_SHIFT;
	*size = per_node * a->nr_nodes;
	/* More than the machine has would only fail later, in the
	 * pre-fault, as an OOM kill. What is mapped is the rounded size. */
	if (!ppmm_size_fits_phys(*size, sysconf(_SC_PHYS_PAGES),
				 sysconf(_SC_PAGESIZE))) {
		pr_err("pagepool: an arena of %zu bytes (rounded up to whole %lu-byte blocks) is more than the machine's memory\n",
		       *size, (unsigned long)PPMM_BLOCK_SIZE);
		return -ENOMEM;
	}

	/* A batch is taken from one node's buddy lists: no more than the
	 * node holds. An explicit high mark from the batch up to the node's
	 * pages; the default one, 6 * batch, stays within the node too. */
	if ((unsigned long)a->pcp_batch > a->node_pages)
		return -EINVAL;
	if (cfg->pcp_high) {
		if (cfg->pcp_high < a->pcp_batch ||
		    (unsigned long)cfg->pcp_high > a->node_pages)
			return -EINVAL;
		a->pcp_high = cfg->pcp_high;
	} else {
		high = PPMM_DEFAULT_HIGH_MULT * (long)a->pcp_batch;
		if ((unsigned long)high > a->node_pages)
			high = (long)a->node_pages;
		a->pcp_high = (int)high;
	}
	return 0;
}

/*
 * Map @len bytes of page memory at an address aligned to the largest
 * block: reserve @len + one block of address space, map the memory over
 * the aligned part of it, and give the slack back.
 */
static void *map_aligned(size_t len, int backing)
{
	unsigned long resv, start;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED;
	void *p;

	p = mmap(NULL, len + PPMM_BLOCK_SIZE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	resv = (unsigned long)p;
	start = ALIGN(resv, PPMM_BLOCK_SIZE);
	if (backing == PP_MEM_HUGETLB)
		flags |= MAP_HUGETLB;	/* the default huge page size (check_sizes()) */
	p = mmap((void *)start, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED) {
		munmap((void *)resv, len + PPMM_BLOCK_SIZE);
		return NULL;
	}
	if (start > resv)
		munmap((void *)resv, start - resv);
	if (resv + PPMM_BLOCK_SIZE > start)
		munmap((void *)(start + len), resv + PPMM_BLOCK_SIZE - start);
	return p;
}

/* Write every page once. MADV_POPULATE_WRITE faults the range in one
 * system call (2.5x faster than touching with THP); the touch loop then
 * costs ~1 ms for 64 MiB and covers kernels without it. */
static void prefault(void *mem, size_t len)
{
	volatile char *p = mem;
	long sys = sysconf(_SC_PAGESIZE);
	/* One write per system page: a library page of 16 or 64 KiB on a
	 * 4 KiB system is 4 or 16 of them, and a write per PAGE_SIZE left
	 * all but the first unfaulted. */
	size_t step = sys > 0 && (unsigned long)sys < PAGE_SIZE ? (size_t)sys : PAGE_SIZE;
	size_t off;

	if (!ppmm_test_no_populate)
		(void)madvise(mem, len, MADV_POPULATE_WRITE);
	for (off = 0; off < len; off += step)
		p[off] = 0;
}

static void init_pcp_lists(void)
{
	int cpu, nid;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		for (nid = 0; nid < MAX_NUMNODES; nid++) {
			INIT_LIST_HEAD(&ppmm_pcpu[cpu].node[nid].list);
			WRITE_ONCE(ppmm_pcpu[cpu].node[nid].count, 0);
		}
		WRITE_ONCE(ppmm_pcpu[cpu].busy, 0);
		WRITE_ONCE(ppmm_pcpu[cpu].low, 0);
		WRITE_ONCE(ppmm_pcpu[cpu].high, ppmm_arena.pcp_high);
	}
}

/*
 * The checks against the system's sizes: a library page of at least one
 * system page, and for hugetlb a largest block that is a whole number of
 * default huge pages (the arena and each node are whole blocks, so then
 * they are whole huge pages, and block alignment is huge page alignment).
 * 0 or -EINVAL, with the reason logged.
 */
static int check_sizes(int backing)
{
	long sys = ppmm_sys_page_size();
	unsigned long huge;

	if (sys > 0 && PAGE_SIZE < (unsigned long)sys) {
		pr_err("pagepool: library PAGE_SIZE %lu is smaller than the system page size %ld: rebuild with meson -Dpage_size= at least %ldk\n",
		       PAGE_SIZE, sys, sys >> 10);
		return -EINVAL;
	}
	if (backing != PP_MEM_HUGETLB)
		return 0;
	huge = ppmm_huge_page_size();
	if (huge && PPMM_BLOCK_SIZE % huge) {
		pr_err("pagepool: PP_MEM_HUGETLB: the largest block (%lu bytes) is not a multiple of the default huge page size (%lu bytes)\n",
		       PPMM_BLOCK_SIZE, huge);
		return -EINVAL;
	}
	return 0;
}

/* Caller MUST hold arena_lock, with no arena up. */
static int arena_create(const struct pp_mem_config *cfg)
{
	struct ppmm_arena a = { 0 };
	unsigned long nr_pages, i;
	struct page *map;
	size_t size;
	void *mem;
	int nid, ret;

	ret = resolve_config(cfg, &a, &size);
	if (!ret)
		ret = check_sizes(a.backing);
	if (ret)
		return ret;
	/* Registering twice is a no-op in the runtime. */
	ret = pprt_register_cpu_offline_hook(ppmm_cpu_offline);
	if (!ret)
		ret = pprt_register_cpu_idle_hook(pp_mem_drain_local);
	if (WARN_ON(ret))
		return ret;	/* all PPRT_MAX_CPU_HOOKS slots taken */
	nr_pages = size >> PAGE_SHIFT;

	mem = map_aligned(size, a.backing);
	if (!mem) {
		if (a.backing == PP_MEM_HUGETLB)
			pr_err("pagepool: PP_MEM_HUGETLB: cannot map %zu bytes of %lu-byte huge pages (%s): reserve them first (HugePages_Free in /proc/meminfo, /proc/sys/vm/nr_hugepages)\n",
			       size, ppmm_huge_page_size(), strerror(errno));
		else
			pr_err("pagepool: cannot map an arena of %zu bytes: %s\n",
			       size, strerror(errno));
		return -ENOMEM;
	}
	if (a.backing == PP_MEM_THP)
		a.thp = madvise(mem, size, MADV_HUGEPAGE) == 0;
	/* The struct pages, then the owners' words (pp_mem_map.home), then
	 * holder tracking's page-owner records when built in, in one
	 * mapping. */
	a.map_len = nr_pages * (sizeof(struct page) + 8);
	if (IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS))
		a.map_len += nr_pages * sizeof(struct ppmm_page_owner);
	a.map_len = PAGE_ALIGN(a.map_len);
	map = mmap(NULL, a.map_len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		munmap(mem, size);
		return -ENOMEM;
	}
	prefault(mem, size);
	prefault(map, a.map_len);
	a.mem = mem;
	a.mem_len = size;

	/* The mapping is fresh, so every struct page is zero: no flags,
	 * refcount 0, PPMM_PAGE_FREE. Only the node is left to set. */
	for (i = 0; i < nr_pages; i++)
		map[i].nid = (unsigned char)(i / a.node_pages);

	pp_mem_map.base = (unsigned long)mem;
	pp_mem_map.end = (unsigned long)mem + size;
	pp_mem_map.map = map;
	pp_mem_map.home = map + nr_pages;
	if (IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS))
		a.owners = (struct ppmm_page_owner *)((char *)pp_mem_map.home + nr_pages * 8);
	BUILD_BUG_ON(sizeof(struct page) != 64);
	pp_mem_map.home_bias = (unsigned long)pp_mem_map.home - ((unsigned long)map >> 3);
	pp_mem_map.nr_pages = nr_pages;
	ppmm_arena = a;
	for (nid = 0; nid < a.nr_nodes; nid++)
		ppmm_zone_init(&ppmm_zones[nid], nid, nid * a.node_pages,
			       a.node_pages);
	init_pcp_lists();
	/* Free memory is poisoned; allocation unpoisons what it hands out. */
	pprt_poison(mem, size);
	WRITE_ONCE(__pp_nr_nodes, a.nr_nodes);

	/* R0: publishes pp_mem_map, the zones and the lists; pairs with the
	 * acquire in ppmm_arena_up() (A0). */
	smp_store_release(&ppmm_up, 1);
	return 0;
}

int pp_mem_init(const struct pp_mem_config *cfg)
{
	int ret = -EBUSY;

	pthread_mutex_lock(&arena_lock);
	if (!ppmm_up)
		ret = arena_create(cfg);
	pthread_mutex_unlock(&arena_lock);
	return ret;
}

int ppmm_arena_default(void)
{
	int ret = 0;

	pthread_mutex_lock(&arena_lock);
	if (!ppmm_up)
		ret = arena_create(NULL);
	pthread_mutex_unlock(&arena_lock);
	if (ret)
		pr_err_ratelimited("pagepool: cannot create the default page arena: %d\n", ret);
	return ret;
}

/* Pages in the buddy lists of all zones. */
static unsigned long buddy_free_pages(void)
{
	unsigned long n = 0;
	int nid;

	for (nid = 0; nid < ppmm_arena.nr_nodes; nid++) {
		spin_lock(&ppmm_zones[nid].lock);
		n += ppmm_zones[nid].nr_free_pages;
		spin_unlock(&ppmm_zones[nid].lock);
	}
	return n;
}

/*
 * Caller MUST make sure no other thread allocates or frees meanwhile.
 * Pages taken out of circulation (bad pages) do not keep the arena busy:
 * they are gone with it.
 */
int pp_mem_exit(void)
{
	int cpu, nid, ret = -EBUSY;

	pthread_mutex_lock(&arena_lock);
	if (!ppmm_up) {
		ret = 0;
		goto out;
	}
	/* This thread's own lists are ours to drain; other threads' are
	 * theirs (drained when they give their CPU id back). */
	if (__pp_ctx.cpu >= 0)
		ppmm_drain_cpu(__pp_ctx.cpu);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		for (nid = 0; nid < ppmm_arena.nr_nodes; nid++)
			if (READ_ONCE(ppmm_pcpu[cpu].node[nid].count))
				goto out;
	if (buddy_free_pages() + atomic_long_read(&ppmm_arena.reserved) !=
	    pp_mem_map.nr_pages)
		goto out;

	smp_store_release(&ppmm_up, 0);
	/* ASan's shadow outlives the mapping: a later mapping at this
	 * address must not inherit the poison. */
	pprt_unpoison(ppmm_arena.mem, ppmm_arena.mem_len);
	munmap(ppmm_arena.mem, ppmm_arena.mem_len);
	munmap(pp_mem_map.map, ppmm_arena.map_len);
	memset(&pp_mem_map, 0, sizeof(pp_mem_map));
	memset(&ppmm_arena, 0, sizeof(ppmm_arena));
	WRITE_ONCE(__pp_nr_nodes, 1);
	ret = 0;
out:
	pthread_mutex_unlock(&arena_lock);
	return ret;
}

/* Runs on the thread giving @cpu back, before the id is released. */
void ppmm_cpu_offline(int cpu)
{
	pthread_mutex_lock(&arena_lock);
	if (ppmm_up)
		ppmm_drain_cpu(cpu);
	pthread_mutex_unlock(&arena_lock);
}
