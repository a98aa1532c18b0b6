/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * bench_peers: what a userspace program would use instead of page_pool,
 * measured in the same process and printed in the same time_bench lines,
 * so one parser and one table cover both. One iteration of each Type:
 *
 *   dpdk_mempool_cache256_get_put   rte_mempool_get() + rte_mempool_put() of
 *                                   one object, per-lcore cache of 256
 *                                   (the constant-n inline path)
 *   dpdk_mempool_cache256_bulk1     rte_mempool_get_bulk() +
 *   dpdk_mempool_cache256_bulk32    rte_mempool_put_bulk() of n objects
 *   dpdk_mempool_nocache_bulk1      (step:n, per object), with a cache of
 *   dpdk_mempool_nocache_bulk32     256 or none (every call reaches the
 *                                   ring_mp_mc backend)
 *   dpdk_ring_spsc_bulk1/32         rte_ring_enqueue_bulk() +
 *   dpdk_ring_mpmc_bulk1/32         rte_ring_dequeue_bulk() of n pointers
 *                                   on a single-producer/single-consumer
 *                                   or a multi-producer/multi-consumer ring
 *                                   (step:n, per object)
 *   glibc_malloc_free_4k            malloc(4096) + free()
 *   glibc_malloc_free_4k_batch256   malloc(4096) x256, then free() x256
 *                                   (step:256, per object)
 *   dpdk_mempool_cross_cpu          the cross-CPU topology of
 *                                   bench_page_pool_cross_cpu with DPDK:
 *                                   thread A (cpu) rte_mempool_get()s one
 *                                   object from its lcore cache and passes
 *                                   it over an SP/SC rte_ring of 1024 to
 *                                   thread B (peer_cpu), which
 *                                   rte_mempool_put()s it into its own
 *                                   lcore cache; a full ring sends the
 *                                   object back into A's cache (as page_pool
 *                                   recycles directly). Per-thread lines,
 *                                   the Sum line, and
 *     Type:dpdk_mempool_cross_cpu objects/sec: N (returned:R in S sec, ...)
 *                                   as bench_page_pool_cross_cpu reports.
 *
 * The bulk forms take n at run time, through a volatile, as a driver's
 * burst size is: with a constant n DPDK's inlined code unrolls (a different,
 * faster path, which rte_mempool_get/put of one object gets). The objects
 * are 2048 bytes (DPDK's own mempool_perf test size) and never touched,
 * 8191 per pool. DPDK runs with --no-huge --no-pci --no-shconf
 * --no-telemetry -m 256, one EAL lcore (cpu); the topology's two threads
 * are registered with rte_thread_register() so each has an lcore cache.
 *
 * glibc: heap trimming would make every free() hand memory back to the
 * kernel and every malloc() fault it in again (10-20 us a fault in this VM),
 * so, before anything else allocates, mallopt() sets M_TRIM_THRESHOLD and
 * M_MMAP_THRESHOLD to 1 GiB and M_TOP_PAD to 64 MiB, and the heap is
 * warmed before timing. The program prints the settings it applied.
 *
 * Parameters: loops=N (objects per single-thread Type, default 10000000;
 * bulk Types run loops/n iterations of n objects, rounded up), cross_loops=N
 * (objects B returns, default 1000000), run_flags=M (bit 0 mempool, bit 1
 * ring, bit 2 glibc, bit 3 cross-CPU; default all), cpu=N (EAL lcore /
 * thread A, default 0), peer_cpu=N (thread B, default 1).
 */
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* DPDK and our kernel headers both define phys_addr_t: DPDK's gets
 * another name in this file. */
#define phys_addr_t rte_phys_addr_t
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_version.h>
#undef phys_addr_t

#include <linux/printk.h>

#include "bench_common.h"
#include "time_bench.h"

#define MP_NR_OBJS	8191	/* 2^13 - 1: the backend ring's size */
#define MP_ELT_SIZE	2048	/* DPDK's mempool_perf element */
#define MP_CACHE	256
#define MAX_BULK	32
#define XCPU_RING_SZ	1024	/* as the page_pool test's SPSC queue */
#define MALLOC_BATCH	256
/* Failed polls in a row before a topology thread yields its CPU, which it
 * does only when A and B share one (the same rule as
 * bench_page_pool_cross_cpu.c). */
#define YIELD_AFTER	1024

enum benchmark_bit {
	bit_mempool,
	bit_ring,
	bit_glibc,
	bit_cross_cpu,
};

static unsigned long long loops = 10000000;
static unsigned long long cross_loops = 1000000;
static unsigned long long run_flags = 0xffffffff;
static unsigned long long host_cpu = 0;
static unsigned long long peer_cpu = 1;
#define enabled(bit)	(run_flags & (1ULL << (bit)))

/* The run-time n of the bulk forms: read once per test through a volatile,
 * so the compiler cannot specialise the DPDK inlines for it. */
static volatile unsigned int bulk_n;

/* Keep the compiler from pairing malloc() with free() and dropping both. */
#define escape(p)	__asm__ __volatile__("" : : "r"(p) : "memory")

struct mp_bench {
	struct rte_mempool *mp;
	unsigned int n;
};

static int time_mempool_get_put(struct time_bench_record *rec, void *data)
{
	struct rte_mempool *mp = ((struct mp_bench *)data)->mp;
	uint64_t loops_cnt = 0;
	uint32_t i;
	void *obj;

	for (i = 0; i < 1000; i++) {	/* warm the cache */
		if (rte_mempool_get(mp, &obj))
			return 0;
		rte_mempool_put(mp, obj);
	}
	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		if (unlikely(rte_mempool_get(mp, &obj)))
			break;
		loops_cnt++;
		barrier();
		rte_mempool_put(mp, obj);
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

static int time_mempool_bulk(struct time_bench_record *rec, void *data)
{
	struct mp_bench *b = data;
	struct rte_mempool *mp = b->mp;
	unsigned int n;
	uint32_t i, iters;
	uint64_t loops_cnt = 0;
	void *objs[MAX_BULK];

	bulk_n = b->n;
	n = bulk_n;
	if (!n || n > MAX_BULK)
		return 0;
	iters = (rec->loops + n - 1) / n;
	for (i = 0; i < 1000; i++) {
		if (rte_mempool_get_bulk(mp, objs, n))
			return 0;
		rte_mempool_put_bulk(mp, objs, n);
	}
	time_bench_start(rec);
	for (i = 0; i < iters; i++) {
		if (unlikely(rte_mempool_get_bulk(mp, objs, n)))
			break;
		loops_cnt += n;
		barrier();
		rte_mempool_put_bulk(mp, objs, n);
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

struct ring_bench {
	struct rte_ring *r;
	unsigned int n;
};

static int time_ring_bulk(struct time_bench_record *rec, void *data)
{
	static char dummy[MAX_BULK];
	struct ring_bench *b = data;
	struct rte_ring *r = b->r;
	unsigned int n, k;
	uint32_t i, iters;
	uint64_t loops_cnt = 0;
	void *objs[MAX_BULK];

	bulk_n = b->n;
	n = bulk_n;
	if (!n || n > MAX_BULK)
		return 0;
	for (k = 0; k < n; k++)
		objs[k] = &dummy[k];
	iters = (rec->loops + n - 1) / n;
	for (i = 0; i < 1000; i++) {
		if (rte_ring_enqueue_bulk(r, objs, n, NULL) != n ||
		    rte_ring_dequeue_bulk(r, objs, n, NULL) != n)
			return 0;
	}
	time_bench_start(rec);
	for (i = 0; i < iters; i++) {
		if (unlikely(rte_ring_enqueue_bulk(r, objs, n, NULL) != n))
			break;
		barrier();
		if (unlikely(rte_ring_dequeue_bulk(r, objs, n, NULL) != n))
			break;
		loops_cnt += n;
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

static int time_malloc_free_4k(struct time_bench_record *rec, void *data)
{
	uint64_t loops_cnt = 0;
	uint32_t i;
	void *p;

	(void)data;
	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		p = malloc(4096);
		if (unlikely(!p))
			break;
		escape(p);
		loops_cnt++;
		free(p);
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

static int time_malloc_free_4k_batch(struct time_bench_record *rec, void *data)
{
	static void *ptrs[MALLOC_BATCH];
	uint32_t i, rounds = (rec->loops + MALLOC_BATCH - 1) / MALLOC_BATCH;
	uint64_t loops_cnt = 0;
	int k;

	(void)data;
	time_bench_start(rec);
	for (i = 0; i < rounds; i++) {
		for (k = 0; k < MALLOC_BATCH; k++) {
			ptrs[k] = malloc(4096);
			escape(ptrs[k]);
		}
		for (k = 0; k < MALLOC_BATCH; k++)
			free(ptrs[k]);
		loops_cnt += MALLOC_BATCH;
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

/* The cross-CPU topology. tasks[0] is B (returns), tasks[1] is A (gets). */
struct xcpu {
	struct rte_mempool *mp;
	struct rte_ring *ring;
	struct time_bench_cpu *tasks;
	bool shared;			/* A and B run on one host CPU */
	int producer_done;
	uint64_t ring_full;
	uint64_t empty_polls;
	bool failed;
};

static void xcpu_producer(struct xcpu *d, struct time_bench_record *rec)
{
	uint64_t nr_produce = (uint64_t)rec->loops + 1, cnt = 0, full = 0;
	uint64_t full_in_row = 0, stall_start = 0;
	bool stalled = false;
	void *obj;

	time_bench_start(rec);
	while (cnt < nr_produce) {
		if (unlikely(rte_mempool_get(d->mp, &obj))) {
			pr_err("%s(): mempool empty\n", __func__);
			d->failed = true;
			break;
		}
		if (unlikely(rte_ring_sp_enqueue(d->ring, obj))) {
			full++;
			rte_mempool_put(d->mp, obj);
			if (unlikely(++full_in_row % YIELD_AFTER == 0)) {
				if (d->shared)
					sched_yield();
				if (full_in_row % (YIELD_AFTER << 10) == 0) {
					if (!stall_start)
						stall_start = pp_bench_now_sec();
					else if (pp_bench_now_sec() - stall_start > PP_BENCH_STALL_SEC)
						stalled = true;
				}
				if (unlikely(stalled))
					break;
			}
			continue;
		}
		full_in_row = 0;
		stall_start = 0;
		cnt++;
	}
	time_bench_stop(rec, cnt);
	if (stalled) {
		pr_err("%s(): FAIL (cnt:%llu), ring full for %d s\n", __func__,
		       (unsigned long long)cnt, PP_BENCH_STALL_SEC);
		d->failed = true;
	}
	d->ring_full = full;
	__atomic_store_n(&d->producer_done, 1, __ATOMIC_RELEASE);
}

static void *xcpu_consume(struct xcpu *d, uint64_t *empty)
{
	unsigned int empty_in_row = 0;
	void *obj = NULL;

	while (rte_ring_sc_dequeue(d->ring, &obj)) {
		(*empty)++;
		if (unlikely(++empty_in_row == YIELD_AFTER)) {
			empty_in_row = 0;
			if (__atomic_load_n(&d->producer_done, __ATOMIC_ACQUIRE) &&
			    rte_ring_empty(d->ring))
				return NULL;
			if (d->shared)
				sched_yield();
		}
	}
	return obj;
}

static int time_xcpu(struct time_bench_record *rec, void *data)
{
	struct xcpu *d = data;
	int idx = (int)((struct time_bench_cpu *)rec - d->tasks);
	uint64_t loops_cnt = 0, empty = 0;
	unsigned int lcore;
	uint32_t i;
	void *obj;

	/* An lcore id gives this thread its own default mempool cache. */
	if (rte_thread_register()) {
		pr_err("%s(): rte_thread_register: %s\n", __func__, rte_strerror(rte_errno));
		d->failed = true;
		if (idx == 1)
			__atomic_store_n(&d->producer_done, 1, __ATOMIC_RELEASE);
		return 0;
	}
	lcore = rte_lcore_id();

	if (idx == 1) {
		xcpu_producer(d, rec);
		loops_cnt = rec->invoked_cnt;
		goto out;
	}

	obj = xcpu_consume(d, &empty);
	if (!obj) {
		pr_err("%s(): no first object\n", __func__);
		goto out;
	}
	rte_mempool_put(d->mp, obj);
	empty = 0;

	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		obj = xcpu_consume(d, &empty);
		if (unlikely(!obj)) {
			pr_err("%s(): ring ran dry after %llu objects\n", __func__,
			       (unsigned long long)loops_cnt);
			break;
		}
		rte_mempool_put(d->mp, obj);
		loops_cnt++;
	}
	time_bench_stop(rec, loops_cnt);
	d->empty_polls = empty;
out:
	/* Nothing flushes a cache when its lcore goes away. */
	rte_mempool_cache_flush(rte_mempool_default_cache(d->mp, lcore), d->mp);
	rte_thread_unregister();
	return (int)loops_cnt;
}

static bool run_xcpu(struct rte_mempool *mp)
{
	struct time_bench_cpu tasks[2];
	struct time_bench_sync sync;
	int cpus[2] = { (int)peer_cpu, (int)host_cpu };
	struct time_bench_record *rec = &tasks[0].rec;
	uint64_t start, stop;
	struct xcpu d;
	void *obj = NULL;

	memset(&d, 0, sizeof(d));
	d.mp = mp;
	d.tasks = tasks;
	d.shared = host_cpu == peer_cpu;
	d.ring = rte_ring_create("pp_bench_xcpu", XCPU_RING_SZ, SOCKET_ID_ANY,
				 RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (!d.ring) {
		pr_err("rte_ring_create: %s\n", rte_strerror(rte_errno));
		return false;
	}
	pr_info("bench_peers: dpdk_mempool_cross_cpu: A (get, enqueue) on host CPU %d, B (dequeue, put) on host CPU %d%s\n",
		(int)host_cpu, (int)peer_cpu, d.shared ? " (oversubscribed: one CPU)" : "");

	time_bench_run_concurrent((uint32_t)cross_loops, 1, &d, cpus, 2, &sync, tasks, time_xcpu);
	time_bench_print_stats_cpumask("dpdk_mempool_cross_cpu", tasks, 2);

	start = (uint64_t)rec->ts_start.tv_sec * 1000000000ULL + (uint64_t)rec->ts_start.tv_nsec;
	stop = (uint64_t)rec->ts_stop.tv_sec * 1000000000ULL + (uint64_t)rec->ts_stop.tv_nsec;
	if (!tasks[0].did_bench_run || !tasks[1].did_bench_run || stop <= start || d.failed) {
		pr_err("dpdk_mempool_cross_cpu: failed\n");
		d.failed = true;
	} else {
		pr_info("Type:dpdk_mempool_cross_cpu objects/sec: %llu (returned:%llu in %llu.%09llu sec, returning_cpus:1 ring:rte_ring_spsc)\n",
			(unsigned long long)((double)rec->invoked_cnt * 1e9 / (double)(stop - start)),
			(unsigned long long)rec->invoked_cnt,
			(unsigned long long)((stop - start) / 1000000000ULL),
			(unsigned long long)((stop - start) % 1000000000ULL));
		pr_info("dpdk_mempool_cross_cpu: A ring_full:%llu B empty_polls:%llu\n",
			(unsigned long long)d.ring_full, (unsigned long long)d.empty_polls);
	}
	while (!rte_ring_sc_dequeue(d.ring, &obj))
		rte_mempool_put(mp, obj);
	rte_ring_free(d.ring);
	return !d.failed;
}

/* mallopt() before the first allocation of the process. */
static int mallopt_trim, mallopt_pad, mallopt_mmap;

static void tune_malloc(void)
{
	mallopt_trim = mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt_pad = mallopt(M_TOP_PAD, 64 << 20);
	mallopt_mmap = mallopt(M_MMAP_THRESHOLD, 1 << 30);
}

static void warm_heap(void)
{
	void *ptrs[4 * MALLOC_BATCH];
	int k;

	for (k = 0; k < 4 * MALLOC_BATCH; k++) {
		ptrs[k] = malloc(4096);
		if (ptrs[k])
			memset(ptrs[k], 0, 4096);	/* fault it in */
	}
	for (k = 0; k < 4 * MALLOC_BATCH; k++)
		free(ptrs[k]);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(int argc, char **argv)
{
	const struct bench_param params[] = {
		{ "loops", &loops, "iterations per single-thread test" },
		{ "cross_loops", &cross_loops, "objects returned in the cross-CPU topology" },
		{ "run_flags", &run_flags, "bitmask: 1 mempool, 2 ring, 4 glibc, 8 cross-CPU" },
		{ "cpu", &host_cpu, "host CPU of the EAL lcore and thread A" },
		{ "peer_cpu", &peer_cpu, "host CPU of thread B" },
	};
	char lcores[32], prefix[64], runtime_dir[PATH_MAX] = "";
	struct mp_bench mpb;
	struct ring_bench rb;
	struct rte_mempool *mp_cache = NULL, *mp_nocache = NULL;
	struct rte_ring *ring_spsc = NULL, *ring_mpmc = NULL;
	uint32_t nr_loops;
	bool ok = true;
	char *eal_argv[16];
	int eal_argc = 0;
	bool parent_existed;

	tune_malloc();
	bench_parse_params(argc, argv, params, 5);
	if (loops < 1000 * MAX_BULK || loops > 0xffffffffULL ||
	    cross_loops < 1000 || cross_loops > 0xffffffffULL - 1) {
		fprintf(stderr, "loops must be in [%d, 2^32), cross_loops in [1000, 2^32 - 1)\n",
			1000 * MAX_BULK);
		return 2;
	}
	nr_loops = (uint32_t)loops;
	time_bench_print_to_stdout();

	snprintf(lcores, sizeof(lcores), "%d", (int)host_cpu);
	snprintf(prefix, sizeof(prefix), "--file-prefix=pagepool_bench_%d", (int)getpid());
	eal_argv[eal_argc++] = argv[0];
	eal_argv[eal_argc++] = "--no-huge";
	eal_argv[eal_argc++] = "--no-pci";
	eal_argv[eal_argc++] = "--no-shconf";
	eal_argv[eal_argc++] = "--no-telemetry";
	eal_argv[eal_argc++] = "-l";
	eal_argv[eal_argc++] = lcores;
	eal_argv[eal_argc++] = "-m";
	eal_argv[eal_argc++] = "256";
	eal_argv[eal_argc++] = "--log-level=lib.eal:error";
	eal_argv[eal_argc++] = prefix;
	eal_argv[eal_argc] = NULL;
	/* EAL makes <base>/dpdk/<file-prefix>, <base> being /var/run for
	 * root, else $XDG_RUNTIME_DIR or /tmp: note whether <base>/dpdk
	 * existed, so that only what this run created goes away. */
	snprintf(runtime_dir, sizeof(runtime_dir), "%s/dpdk",
		 !geteuid() ? "/var/run" :
		 getenv("XDG_RUNTIME_DIR") ? getenv("XDG_RUNTIME_DIR") : "/tmp");
	parent_existed = !access(runtime_dir, F_OK);
	if (rte_eal_init(eal_argc, eal_argv) < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	snprintf(runtime_dir, sizeof(runtime_dir), "%s", rte_eal_get_runtime_dir());

	pr_info("bench_peers: Loaded (%s, EAL lcore %u on host CPU %d)\n", rte_version(),
		rte_lcore_id(), (int)host_cpu);

	if (enabled(bit_mempool)) {
		mp_cache = rte_mempool_create("pp_bench_c256", MP_NR_OBJS, MP_ELT_SIZE, MP_CACHE,
					      0, NULL, NULL, NULL, NULL, SOCKET_ID_ANY, 0);
		mp_nocache = rte_mempool_create("pp_bench_c0", MP_NR_OBJS, MP_ELT_SIZE, 0,
						0, NULL, NULL, NULL, NULL, SOCKET_ID_ANY, 0);
		if (!mp_cache || !mp_nocache) {
			pr_err("rte_mempool_create: %s\n", rte_strerror(rte_errno));
			ok = false;
			goto out;
		}
		mpb.mp = mp_cache;
		mpb.n = 1;
		ok &= time_bench_loop(nr_loops, 1, "dpdk_mempool_cache256_get_put", &mpb,
				      time_mempool_get_put);
		ok &= time_bench_loop(nr_loops, 1, "dpdk_mempool_cache256_bulk1", &mpb,
				      time_mempool_bulk);
		mpb.n = 32;
		ok &= time_bench_loop(nr_loops, 32, "dpdk_mempool_cache256_bulk32", &mpb,
				      time_mempool_bulk);
		mpb.mp = mp_nocache;
		mpb.n = 1;
		ok &= time_bench_loop(nr_loops, 1, "dpdk_mempool_nocache_bulk1", &mpb,
				      time_mempool_bulk);
		mpb.n = 32;
		ok &= time_bench_loop(nr_loops, 32, "dpdk_mempool_nocache_bulk32", &mpb,
				      time_mempool_bulk);
	}

	if (enabled(bit_ring)) {
		ring_spsc = rte_ring_create("pp_bench_spsc", 1024, SOCKET_ID_ANY,
					    RING_F_SP_ENQ | RING_F_SC_DEQ);
		ring_mpmc = rte_ring_create("pp_bench_mpmc", 1024, SOCKET_ID_ANY, 0);
		if (!ring_spsc || !ring_mpmc) {
			pr_err("rte_ring_create: %s\n", rte_strerror(rte_errno));
			ok = false;
			goto out;
		}
		rb.r = ring_spsc;
		rb.n = 1;
		ok &= time_bench_loop(nr_loops, 1, "dpdk_ring_spsc_bulk1", &rb, time_ring_bulk);
		rb.n = 32;
		ok &= time_bench_loop(nr_loops, 32, "dpdk_ring_spsc_bulk32", &rb, time_ring_bulk);
		rb.r = ring_mpmc;
		rb.n = 1;
		ok &= time_bench_loop(nr_loops, 1, "dpdk_ring_mpmc_bulk1", &rb, time_ring_bulk);
		rb.n = 32;
		ok &= time_bench_loop(nr_loops, 32, "dpdk_ring_mpmc_bulk32", &rb, time_ring_bulk);
	}

	if (enabled(bit_glibc)) {
		pr_info("bench_peers: glibc %s malloc tuned: mallopt(M_TRIM_THRESHOLD, 1 GiB)=%d mallopt(M_TOP_PAD, 64 MiB)=%d mallopt(M_MMAP_THRESHOLD, 1 GiB)=%d (1 = applied); heap warmed before timing\n",
			gnu_get_libc_version(), mallopt_trim, mallopt_pad, mallopt_mmap);
		warm_heap();
		ok &= time_bench_loop(nr_loops, 0, "glibc_malloc_free_4k", NULL,
				      time_malloc_free_4k);
		ok &= time_bench_loop(nr_loops, MALLOC_BATCH, "glibc_malloc_free_4k_batch256",
				      NULL, time_malloc_free_4k_batch);
	}

	if (enabled(bit_cross_cpu)) {
		if (!mp_cache)
			mp_cache = rte_mempool_create("pp_bench_c256", MP_NR_OBJS, MP_ELT_SIZE,
						      MP_CACHE, 0, NULL, NULL, NULL, NULL,
						      SOCKET_ID_ANY, 0);
		if (!mp_cache) {
			pr_err("rte_mempool_create: %s\n", rte_strerror(rte_errno));
			ok = false;
			goto out;
		}
		ok &= run_xcpu(mp_cache);
	}

out:
	rte_ring_free(ring_spsc);
	rte_ring_free(ring_mpmc);
	rte_mempool_free(mp_cache);
	rte_mempool_free(mp_nocache);
	rte_eal_cleanup();
	/* --no-shconf should leave nothing behind; make sure of it. */
	if (runtime_dir[0] && !access(runtime_dir, F_OK))
		nftw(runtime_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (runtime_dir[0] && !parent_existed)
		rmdir(dirname(runtime_dir));	/* only if empty */
	return ok ? 0 : 1;
}
