/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * bench_holders: the cost of holder tracking (meson -Dholders) per page
 * allocation. One element is what a driver's RX refill does for a buffer
 * it recycles at once: page_pool_dev_alloc_pages() + page_pool_recycle_direct()
 * on a warm pool, in softirq on its owner CPU - the inline alloc-cache pop
 * and direct recycle of a default build; a library call each way, an out
 * and an in record (src/core/lifecycle.h) in a -Dholders=true build.
 *
 * Prints one line: the build's mode, the element count and the fastest
 * of reps= timed runs in ns per element:
 *   bench_holders: holders=on loops=2000000 best of 5: 12.345 ns/alloc
 * bench/bench_holders.sh runs it from a build without and a build with
 * the option, and under callgrind, and prints the difference:
 *   holders: +N instr/alloc, +M ns/alloc
 * Parameters: loops=N (default 2000000), reps=N (default 5), cpu=N (host
 * CPU to pin to, -1: none; default 1).
 * Context: one thread, pagepool CPU 0.
 * Layer: bench.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/bottom_half.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

static noinline void alloc_recycle_loop(struct page_pool *pool, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		struct page *page = page_pool_dev_alloc_pages(pool);

		if (unlikely(!page))
			abort();
		page_pool_recycle_direct(pool, page);
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int parse(const char *arg, const char *key, long *val)
{
	size_t k = strlen(key);
	char *end;

	if (strncmp(arg, key, k) || arg[k] != '=')
		return 0;
	errno = 0;
	*val = strtol(arg + k + 1, &end, 0);
	if (errno || *end || end == arg + k + 1) {
		fprintf(stderr, "bench_holders: bad value in %s\n", arg);
		exit(2);
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct page_pool_params pp = { .pool_size = 256, .nid = NUMA_NO_NODE };
	struct pp_mem_config cfg = { .size = 16 << 20 };
	long loops = 2000000, reps = 5, cpu = 1, r;
	struct page_pool *pool;
	double best = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!parse(argv[i], "loops", &loops) && !parse(argv[i], "reps", &reps) &&
		    !parse(argv[i], "cpu", &cpu)) {
			fprintf(stderr, "bench_holders: unknown parameter %s\n", argv[i]);
			return 2;
		}
	}
	if (loops <= 0 || reps <= 0) {
		fprintf(stderr, "bench_holders: loops and reps must be positive\n");
		return 2;
	}
	if (cpu >= 0 && pp_thread_pin((int)cpu))
		fprintf(stderr, "bench_holders: cannot pin to CPU %ld, unpinned\n", cpu);
	if (pp_mem_init(&cfg) || pp_thread_register(0) < 0)
		return 1;
	pool = page_pool_create(&pp);
	if (IS_ERR(pool))
		return 1;
	local_bh_disable();
	alloc_recycle_loop(pool, 1000);	/* warm: the slow path filled the cache */
	for (r = 0; r < reps; r++) {
		double t0 = now_ns(), ns;

		alloc_recycle_loop(pool, loops);
		ns = (now_ns() - t0) / (double)loops;
		if (!r || ns < best)
			best = ns;
	}
	local_bh_enable();
	page_pool_destroy(pool);
	printf("bench_holders: holders=%s loops=%ld best of %ld: %.3f ns/alloc\n",
	       IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS) ? "on" : "off", loops, reps, best);
	return 0;
}
