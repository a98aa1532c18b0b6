/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * bench_page_pool_simple: the kernel's page_pool micro-benchmark module
 * (tools/testing/selftests/net/bench/page_pool/bench_page_pool_simple.c,
 * and prototype-kernel's), as a program. Same tests, same Type strings,
 * same parameters:
 *
 *   loops=N       invocations per page_pool test (default 10000000); the
 *                 for_loop, atomic_inc and rcu baselines run 10x that
 *   run_flags=M   bitmask of test groups (default: all)
 *     bit 0  baseline: for_loop, atomic_inc, lock, rcu (the seeds' test)
 *     bit 1-3  no-softirq-page_pool01/02/03 (process context)
 *     bit 4-6  tasklet_page_pool01_fast_path/02_ptr_ring/03_slow
 *     bit 7  tasklet_page_pool04_napi_aware
 *   cpu=N         host CPU to pin to (default 0; -1 = no pinning)
 * pagepool's own knobs (for design comparisons; defaults = the kernel
 * module's set-up on the build's designs):
 *   dma=D         0: no DMA mapping (the module's pool), 1: PP_FLAG_DMA_MAP
 *                 on a direct device, 2: on a simulated-IOMMU device
 *   tracking=T    DMA tracking: 0 index, 1 items, 2 off (default -1: the
 *                 build's, or PAGEPOOL_DMA_TRACKING's)
 *   fixes=M       PP_FIX_* mask (default 1: the napi_local RCU fix on)
 *   ring=R        0 lanes, 1 the kernel's locked ptr_ring, 2 llist,
 *                 3 llist_batch, 4 magazine (enum pp_ring_mode; default
 *                 -1: the build's, or PAGEPOOL_RING's)
 * A design the build does not have (meson -Dring, -Ddma_tracking; tracking
 * off and fixes off only with -Ddesigns=all) ends the program with exit
 * status 77 and a line saying so, so that a script that runs every design
 * can tell "not in this build" from a failure.
 *
 * One iteration of each page_pool test: allocate a page, then
 *   01 fast_path  page_pool_recycle_direct(): back into the alloc cache;
 *   02 ptr_ring   page_pool_put_page(.., false): through the ring (the
 *                 producer lock), refilled into the cache 64 at a time;
 *   03 slow       get_page + put + put_page: refcount 2 makes it
 *                 unrecyclable, so it goes back to the page allocator and
 *                 every 64th allocation bulk-allocates 64 new pages;
 *   04 napi_aware page_pool_put_page(.., false) with the pool bound to a
 *                 NAPI whose list_owner is this CPU: napi-local, cached.
 * "tasklet" = in softirq on the pool's owner thread; "no-softirq" =
 * process context (so napi_local is false and the producer lock is _bh).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

#include "bench_common.h"
#include "time_bench.h"

enum benchmark_bit {
	bit_run_bench_baseline,
	bit_run_bench_no_softirq01,
	bit_run_bench_no_softirq02,
	bit_run_bench_no_softirq03,
	bit_run_bench_tasklet01,
	bit_run_bench_tasklet02,
	bit_run_bench_tasklet03,
	bit_run_bench_tasklet04,
};

static unsigned long long loops = 10000000;
static unsigned long long run_flags = 0xffffffff;
static unsigned long long host_cpu = 0;
static unsigned long long dma_mode = 0;
static unsigned long long tracking = -1ULL;
static unsigned long long fixes = PP_FIX_NAPI_LOCAL_RCU;
static unsigned long long ring = -1ULL;
static struct device *bench_dev;
#define enabled(bit)	(run_flags & (1ULL << (bit)))

#define MY_POOL_SIZE	1024

static int time_bench_for_loop(struct time_bench_record *rec, void *data)
{
	uint64_t loops_cnt = 0;
	uint32_t i;

	(void)data;
	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		loops_cnt++;
		barrier();
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

static int time_bench_atomic_inc(struct time_bench_record *rec, void *data)
{
	atomic_t cnt = ATOMIC_INIT(0);
	uint32_t i;

	(void)data;
	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		atomic_inc(&cnt);
		barrier();
	}
	time_bench_stop(rec, (uint64_t)atomic_read(&cnt));
	return atomic_read(&cnt);
}

/* The cost of the ring's producer lock, uncontended. */
static int time_bench_lock(struct time_bench_record *rec, void *data)
{
	uint64_t loops_cnt = 0;
	spinlock_t lock;
	uint32_t i;

	(void)data;
	spin_lock_init(&lock);
	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		spin_lock(&lock);
		loops_cnt++;
		barrier();
		spin_unlock(&lock);
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

/* The seeds' test: the price of the napi_local fix's read-side section. */
static int time_bench_rcu(struct time_bench_record *rec, void *data)
{
	uint64_t loops_cnt = 0;
	uint32_t i;

	(void)data;
	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		rcu_read_lock();
		loops_cnt++;
		barrier();
		rcu_read_unlock();
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

/* Allocate @elems pages and put them back non-direct: they land in the ring. */
static void pp_fill_ptr_ring(struct page_pool *pp, int elems)
{
	struct page **array = kcalloc((size_t)elems, sizeof(*array), GFP_ATOMIC);
	int i;

	for (i = 0; i < elems; i++)
		array[i] = page_pool_alloc_pages(pp, GFP_ATOMIC);
	for (i = 0; i < elems; i++)
		page_pool_put_page(pp, array[i], -1, false);
	kfree(array);
}

enum test_type { type_fast_path, type_ptr_ring, type_page_allocator, type_napi_aware };

static int time_bench_page_pool(struct time_bench_record *rec, enum test_type type,
				const char *func)
{
	struct page_pool_params pp_params = {
		.order = 0,
		.flags = bench_dev ? PP_FLAG_DMA_MAP : 0,
		.pool_size = MY_POOL_SIZE,
		.nid = NUMA_NO_NODE,
		.dev = bench_dev,
		.dma_dir = DMA_BIDIRECTIONAL,
	};
	struct napi_struct napi;
	uint64_t loops_cnt = 0;
	struct page_pool *pp;
	struct page *page;
	uint32_t i;

	if (type == type_napi_aware) {
		/* As the kernel module: a zeroed NAPI, owned by this CPU. It is
		 * given at creation (page_pool_params.napi, every kernel since
		 * 6.5) rather than with page_pool_enable_direct_recycling()
		 * (6.17), so that kernel core mode builds this against older
		 * trees' headers too; the measured loop is the same. */
		memset(&napi, 0, sizeof(napi));
		napi.list_owner = -1;	/* not yet: the ring is filled first */
		pp_params.napi = &napi;
	}

	pp = page_pool_create(&pp_params);
	if (IS_ERR(pp)) {
		pr_warn("%s(): cannot create page_pool\n", func);
		return 0;
	}
	pp_fill_ptr_ring(pp, 64);
	if (type == type_napi_aware)
		napi.list_owner = smp_processor_id();

	if (in_softirq())
		pr_warn("%s(): in_serving_softirq fast-path\n", func);
	else
		pr_warn("%s(): Cannot use page_pool fast-path\n", func);

	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		page = page_pool_alloc_pages(pp, GFP_ATOMIC);
		if (!page)
			break;
		loops_cnt++;
		barrier();

		switch (type) {
		case type_fast_path:
			page_pool_recycle_direct(pp, page);
			break;
		case type_ptr_ring:
		case type_napi_aware:
			page_pool_put_page(pp, page, -1, false);
			break;
		case type_page_allocator:
			get_page(page);
			page_pool_put_page(pp, page, -1, false);
			put_page(page);
			break;
		}
	}
	time_bench_stop(rec, loops_cnt);

	if (bench_dev && type == type_page_allocator) {
		/* What DMA tracking costs in memory, per page it tracks. */
		struct pp_page_pool_track_stats ts;
		static const char *const names[] = { "index", "items", "off" };

		pp_page_pool_get_track_stats(pp, &ts);
		if (ts.bytes_per_slot)
			pr_info("%s(): DMA tracking %s: %llu bytes per tracked page (%llu bytes for %llu slots)\n",
				func, names[ts.mode], (unsigned long long)ts.bytes_per_slot,
				(unsigned long long)ts.bytes, (unsigned long long)ts.capacity);
	}
	if (type == type_napi_aware) {
		struct page_pool_stats stats = { 0 };

		page_pool_get_stats(pp, &stats);
		if (stats.recycle_stats.cached < rec->loops)
			pr_warn("%s(): NAPI-aware recycling wasn't used\n", func);
	}
	/* page_pool_destroy() may wait for RCU grace periods (the napi_local
	 * fix, DMA-safe teardown), which cannot happen inside a softirq
	 * section: the kernel module destroys inside its tasklet, we step out
	 * for it. */
	if (in_softirq()) {
		local_bh_enable();
		page_pool_destroy(pp);
		local_bh_disable();
	} else {
		page_pool_destroy(pp);
	}
	return (int)loops_cnt;
}

static int time_bench_page_pool01_fast_path(struct time_bench_record *rec, void *data)
{
	(void)data;
	return time_bench_page_pool(rec, type_fast_path, __func__);
}

static int time_bench_page_pool02_ptr_ring(struct time_bench_record *rec, void *data)
{
	(void)data;
	return time_bench_page_pool(rec, type_ptr_ring, __func__);
}

static int time_bench_page_pool03_slow(struct time_bench_record *rec, void *data)
{
	(void)data;
	return time_bench_page_pool(rec, type_page_allocator, __func__);
}

static int time_bench_page_pool04_napi_aware(struct time_bench_record *rec, void *data)
{
	(void)data;
	return time_bench_page_pool(rec, type_napi_aware, __func__);
}

static void run_tasklet_tests(void *arg)
{
	uint32_t nr_loops = (uint32_t)loops;

	(void)arg;
	pr_warn("pp_tasklet_handler(): in_serving_softirq fast-path\n");
	if (enabled(bit_run_bench_tasklet01))
		time_bench_loop(nr_loops, 0, "tasklet_page_pool01_fast_path", NULL,
				time_bench_page_pool01_fast_path);
	if (enabled(bit_run_bench_tasklet02))
		time_bench_loop(nr_loops, 0, "tasklet_page_pool02_ptr_ring", NULL,
				time_bench_page_pool02_ptr_ring);
	if (enabled(bit_run_bench_tasklet03))
		time_bench_loop(nr_loops, 0, "tasklet_page_pool03_slow", NULL,
				time_bench_page_pool03_slow);
	if (enabled(bit_run_bench_tasklet04))
		time_bench_loop(nr_loops, 0, "tasklet_page_pool04_napi_aware", NULL,
				time_bench_page_pool04_napi_aware);
}

int main(int argc, char **argv)
{
	const struct bench_param params[] = {
		{ "loops", &loops, "page_pool test invocations (baselines run 10x)" },
		{ "run_flags", &run_flags, "bitmask of tests to run" },
		{ "cpu", &host_cpu, "host CPU to pin to (-1: none)" },
		{ "dma", &dma_mode, "0 no DMA, 1 direct device, 2 IOMMU device" },
		{ "tracking", &tracking, "DMA tracking: 0 index, 1 items, 2 off, -1 the build's" },
		{ "fixes", &fixes, "PP_FIX_* mask (1: napi_local RCU fix)" },
		{ "ring", &ring, "0 lanes, 1 ptr_ring, 2 llist, 3 llist_batch, 4 magazine, -1 the build's" },
	};
	static const char *const tracking_names[] = { "index", "items", "off" };
	uint32_t nr_loops;
	int err;

	bench_parse_params(argc, argv, params, ARRAY_SIZE(params));
	if (loops > 0xffffffffULL / 10) {
		fprintf(stderr, "loops must be <= %llu\n", 0xffffffffULL / 10);
		return 2;
	}
	nr_loops = (uint32_t)loops;
	bench_init((int)(long long)host_cpu, 0, 64);
	if (dma_mode > 2) {
		fprintf(stderr, "bad dma=\n");
		return 2;
	}
	err = bench_set_design("tracking", tracking, pp_page_pool_set_dma_tracking,
			       tracking_names, ARRAY_SIZE(tracking_names), "-Ddma_tracking");
	if (!err)
		err = bench_set_ring(ring);
	if (err)
		return err;
	if (fixes != PP_FIX_NAPI_LOCAL_RCU && !IS_ENABLED(CONFIG_PAGEPOOL_FIX_SWITCHES)) {
		fprintf(stderr, "fixes=%#llx: the fixes cannot be turned off in this build (meson -Ddesigns=all)\n",
			fixes);
		return 77;
	}
	pp_page_pool_set_fixes((unsigned int)fixes);
	if (dma_mode) {
		bench_dev = pp_device_create("bench0", dma_mode == 1 ? PP_DMA_DIRECT : PP_DMA_IOMMU, 0);
		if (IS_ERR(bench_dev))
			return 1;
	}
	pr_info("bench_page_pool_simple: Loaded\n");
	time_bench_print_unit();
	pr_info("bench_page_pool_simple: designs: ring %s, DMA tracking %s, fixes %#x\n",
		bench_ring_current(),
		tracking_names[bench_current_design(pp_page_pool_set_dma_tracking,
						    CONFIG_PAGEPOOL_DMA_TRACK_DEFAULT)],
		pp_page_pool_set_fixes((unsigned int)fixes));

	if (enabled(bit_run_bench_baseline)) {
		time_bench_loop(nr_loops * 10, 0, "for_loop", NULL, time_bench_for_loop);
		time_bench_loop(nr_loops * 10, 0, "atomic_inc", NULL, time_bench_atomic_inc);
		time_bench_loop(nr_loops, 0, "lock", NULL, time_bench_lock);
		time_bench_loop(nr_loops * 10, 0, "rcu", NULL, time_bench_rcu);
	}
	if (enabled(bit_run_bench_no_softirq01))
		time_bench_loop(nr_loops, 0, "no-softirq-page_pool01", NULL,
				time_bench_page_pool01_fast_path);
	if (enabled(bit_run_bench_no_softirq02))
		time_bench_loop(nr_loops, 0, "no-softirq-page_pool02", NULL,
				time_bench_page_pool02_ptr_ring);
	if (enabled(bit_run_bench_no_softirq03))
		time_bench_loop(nr_loops, 0, "no-softirq-page_pool03", NULL,
				time_bench_page_pool03_slow);
	if (run_flags & (0xfULL << bit_run_bench_tasklet01))
		bench_run_in_softirq(run_tasklet_tests, NULL);
	if (bench_dev)
		pp_device_destroy(bench_dev);
	return 0;
}
