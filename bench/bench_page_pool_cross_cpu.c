/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * bench_page_pool_cross_cpu: prototype-kernel's bench_page_pool_cross_cpu
 * module as a program. Pages are allocated on one CPU and returned to the
 * pool from others, as when a NIC's RX CPU hands packets to other CPUs and
 * the TX completion (or the consumer) frees them there.
 *
 *   RX thread     the pool's owner, pinned to its own CPU, in softirq
 *                 (local_bh_disable) for the whole run: loops
 *                 page_pool_alloc_pages(); pushes the page into the next
 *                 returning thread's queue, round robin; when that queue is
 *                 full, page_pool_recycle_direct() and retry the same queue.
 *                 It produces returning_cpus * (loops + 1) pages in all.
 *   returners     one per returning CPU, pinned and registered, in process
 *                 context (kthreads in the kernel module): take the first
 *                 page untimed, then per iteration __ptr_ring_consume() from
 *                 their queue (spinning while it is empty) and
 *                 page_pool_put_page(pp, page, -1, false). That put is the
 *                 measured cross-CPU return: the shared ring under its
 *                 producer lock (PP_RING_PTR_RING, the kernel's design),
 *                 this CPU's lock-free lane (PP_RING_LANES, the default),
 *                 or another design of enum pp_ring_mode.
 *
 * As in the module: pool_size 32000 (the ring is capped at 16384), 256
 * pages put into the pool's ring at creation, one SPSC ptr_ring of 1024
 * slots per returning thread (one producer, one consumer, so the unlocked
 * __ptr_ring_* calls are safe), results through
 * time_bench_print_stats_cpumask(): a line per thread (the RX thread's
 * covers its whole run, per page produced; each returner's, per page
 * returned) and the "Sum Type:page_pool_cross_cpu Average" line. Then one
 * line of our own:
 *
 *   Type:page_pool_cross_cpu pages/sec: N (returned:R in S sec,
 *     returning_cpus:n ring:<design> oversubscribed:yes|no)
 *
 * R is the pages the returners returned in their timed loops, S the span
 * from the first returner's start to the last one's stop.
 *
 * Host CPUs: the RX thread on rx_cpu (default 0), returner i on the i-th
 * other CPU the process may use, wrapping. Threads with a CPU of their own
 * spin, as the kernel module's do. With more threads than CPUs some share
 * one ("oversubscribed"): a sharing thread that finds its queue empty (or,
 * for RX, full) 1024 times in a row yields, so the one it waits for can
 * run; such figures measure the scheduler as much as the pool.
 *
 * Parameters: loops=N (pages per returner, default 1000000),
 * returning_cpus=N (default 1), ring=-1|0..4 (-1: the build's design, or in
 * an all-designs build PAGEPOOL_RING's from the environment; else enum
 * pp_ring_mode: 0 lanes, 1 ptr_ring, 2 llist, 3 llist_batch, 4 magazine;
 * one the build lacks: exit status 77), rx_cpu=N.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bottom_half.h>
#include <linux/err.h>
#include <linux/printk.h>
#include <linux/ptr_ring.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

#include "bench_common.h"
#include "time_bench.h"

#define MY_POOL_SIZE	32000	/* the module's; the ring is capped at 16384 */
#define POOL_PREFILL	256	/* pages put into the pool's ring at creation */
#define SPSC_QUEUE_SZ	1024	/* the module's per-returner queue */
#define MAX_RETURNERS	64
/* Failed attempts in a row before a thread that shares its CPU with
 * another benchmark thread yields it (1024 empty polls is already ~10 us
 * of waiting). Threads alone on their CPU never yield: a yield would hand
 * the CPU to whatever else runs on the machine. */
#define YIELD_AFTER	1024

static unsigned long long loops = 1000000;
static unsigned long long returning_cpus = 1;
static unsigned long long ring_param = (unsigned long long)-1;
static unsigned long long rx_cpu = 0;

struct cross_cpu {
	struct page_pool *pp;
	int nr_returners;
	struct ptr_ring *queues;
	struct time_bench_cpu *tasks;	/* [0, n) returners, [n] the RX thread */
	bool shared[MAX_RETURNERS + 1];	/* task's host CPU runs another task */
	int producer_done;		/* RX finished: no more pages will come */
	uint64_t queue_full;		/* RX pushes that found a queue full */
	uint64_t empty_polls;		/* returners' polls of an empty queue */
	bool failed;
};

static void rx_bh(struct cross_cpu *d, struct time_bench_record *rec)
{
	uint64_t nr_produce = (uint64_t)d->nr_returners * ((uint64_t)rec->loops + 1);
	uint64_t cnt = 0, full = 0, full_in_row = 0, stall_start = 0;
	struct page_pool *pp = d->pp;
	bool stalled = false;
	int q = 0;

	time_bench_start(rec);
	local_bh_disable();
	while (cnt < nr_produce) {
		struct page *page = page_pool_alloc_pages(pp, GFP_ATOMIC);

		if (unlikely(!page)) {
			pr_err("%s(): out-of-pages\n", __func__);
			d->failed = true;
			break;
		}
		if (unlikely(__ptr_ring_produce(&d->queues[q], page) < 0)) {
			full++;
			page_pool_recycle_direct(pp, page);
			if (unlikely(++full_in_row % YIELD_AFTER == 0)) {
				if (d->shared[d->nr_returners]) {
					local_bh_enable();
					sched_yield();
					local_bh_disable();
				}
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
		if (++q == d->nr_returners)
			q = 0;
	}
	local_bh_enable();
	time_bench_stop(rec, cnt);

	if (stalled) {
		pr_err("%s(): FAIL (cnt:%llu), queue %d full for %d s\n", __func__,
		       (unsigned long long)cnt, q, PP_BENCH_STALL_SEC);
		d->failed = true;
	}
	__atomic_store_n(&d->queue_full, full, __ATOMIC_RELAXED);
	__atomic_store_n(&d->producer_done, 1, __ATOMIC_RELEASE);
}

/* Next page from @queue, or NULL once the producer is done and the queue
 * stays empty. */
static struct page *returner_consume(struct cross_cpu *d, int idx, struct ptr_ring *queue,
				     uint64_t *empty)
{
	unsigned int empty_in_row = 0;
	struct page *page;

	while (!(page = __ptr_ring_consume(queue))) {
		(*empty)++;
		if (unlikely(++empty_in_row == YIELD_AFTER)) {
			empty_in_row = 0;
			if (__atomic_load_n(&d->producer_done, __ATOMIC_ACQUIRE) &&
			    __ptr_ring_empty(queue))
				return NULL;
			if (d->shared[idx])
				sched_yield();
		}
	}
	return page;
}

static int time_pp_put_page_recycle(struct time_bench_record *rec, void *data)
{
	struct cross_cpu *d = data;
	int idx = (int)((struct time_bench_cpu *)rec - d->tasks);
	uint64_t loops_cnt = 0, empty = 0;
	struct ptr_ring *queue;
	struct page *page;
	uint32_t i;

	/* The RX thread times its whole producer run. */
	if (idx == d->nr_returners) {
		rx_bh(d, rec);
		return (int)rec->invoked_cnt;
	}

	queue = &d->queues[idx];
	page = returner_consume(d, idx, queue, &empty);
	if (!page) {
		pr_err("%s(): no first page\n", __func__);
		return 0;
	}
	page_pool_put_page(d->pp, page, -1, false);
	empty = 0;

	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		page = returner_consume(d, idx, queue, &empty);
		if (unlikely(!page)) {
			pr_err("%s(): queue %d ran dry after %llu pages\n", __func__, idx,
			       (unsigned long long)loops_cnt);
			break;
		}
		page_pool_put_page(d->pp, page, -1, false);
		loops_cnt++;
	}
	time_bench_stop(rec, loops_cnt);
	__atomic_fetch_add(&d->empty_polls, empty, __ATOMIC_RELAXED);
	return (int)loops_cnt;
}

static struct page_pool *pp_create(void)
{
	struct page_pool_params pp_params = {
		.order = 0,
		.flags = 0,
		.pool_size = MY_POOL_SIZE,
		.nid = NUMA_NO_NODE,
		.dev = NULL,
		.dma_dir = DMA_BIDIRECTIONAL,
	};
	struct page *pages[POOL_PREFILL];
	struct page_pool *pp;
	int i;

	pp = page_pool_create(&pp_params);
	if (IS_ERR(pp))
		return NULL;
	for (i = 0; i < POOL_PREFILL; i++)
		pages[i] = page_pool_alloc_pages(pp, GFP_KERNEL);
	for (i = 0; i < POOL_PREFILL; i++)
		if (pages[i])
			page_pool_put_page(pp, pages[i], -1, false);
	return pp;
}

/* Host CPU of each thread: RX on rx_cpu, returners on the other CPUs of
 * the process's affinity mask in turn; @shared[i]: thread i's CPU runs
 * another thread too. Call before pinning. Returns true if any CPU is
 * shared. */
static bool place_threads(int *cpus, bool *shared, int n, int rx)
{
	int others[CPU_SETSIZE], nr_others = 0, c, i, j;
	bool any = false;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		CPU_ZERO(&set);
	for (c = 0; c < CPU_SETSIZE; c++)
		if (c != rx && CPU_ISSET(c, &set))
			others[nr_others++] = c;
	for (i = 0; i < n; i++)
		cpus[i] = nr_others ? others[i % nr_others] : rx;
	cpus[n] = rx;
	for (i = 0; i <= n; i++) {
		shared[i] = false;
		for (j = 0; j <= n; j++)
			if (j != i && cpus[j] == cpus[i])
				shared[i] = true;
		any |= shared[i];
	}
	return any;
}

static void print_rate(struct cross_cpu *d, bool oversubscribed)
{
	uint64_t returned = 0, first = UINT64_MAX, last = 0, span;
	int i;

	for (i = 0; i < d->nr_returners; i++) {
		struct time_bench_record *rec = &d->tasks[i].rec;
		uint64_t start = (uint64_t)rec->ts_start.tv_sec * 1000000000ULL +
				 (uint64_t)rec->ts_start.tv_nsec;
		uint64_t stop = (uint64_t)rec->ts_stop.tv_sec * 1000000000ULL +
				(uint64_t)rec->ts_stop.tv_nsec;

		if (!d->tasks[i].did_bench_run)
			continue;
		returned += rec->invoked_cnt;
		first = min(first, start);
		last = max(last, stop);
	}
	if (!returned || last <= first) {
		pr_err("page_pool_cross_cpu: no pages returned\n");
		d->failed = true;
		return;
	}
	span = last - first;
	pr_info("Type:page_pool_cross_cpu pages/sec: %llu (returned:%llu in %llu.%09llu sec, returning_cpus:%d ring:%s oversubscribed:%s)\n",
		(unsigned long long)((double)returned * 1e9 / (double)span),
		(unsigned long long)returned, (unsigned long long)(span / 1000000000ULL),
		(unsigned long long)(span % 1000000000ULL), d->nr_returners,
		bench_ring_current(), oversubscribed ? "yes" : "no");
}

static void print_pool_stats(struct cross_cpu *d)
{
	struct page_pool_stats st = { 0 };

	page_pool_get_stats(d->pp, &st);
	pr_info("page_pool_cross_cpu: alloc fast:%llu slow:%llu refill:%llu empty:%llu - recycle cached:%llu ring:%llu ring_full:%llu released_refcnt:%llu - rx queue_full:%llu returner empty_polls:%llu\n",
		(unsigned long long)st.alloc_stats.fast, (unsigned long long)st.alloc_stats.slow,
		(unsigned long long)st.alloc_stats.refill, (unsigned long long)st.alloc_stats.empty,
		(unsigned long long)st.recycle_stats.cached,
		(unsigned long long)st.recycle_stats.ring,
		(unsigned long long)st.recycle_stats.ring_full,
		(unsigned long long)st.recycle_stats.released_refcnt,
		(unsigned long long)d->queue_full, (unsigned long long)d->empty_polls);
}

int main(int argc, char **argv)
{
	const struct bench_param params[] = {
		{ "loops", &loops, "pages each returning thread returns" },
		{ "returning_cpus", &returning_cpus, "returning threads (1..64)" },
		{ "ring", &ring_param,
		  "-1 library default, 0 lanes, 1 ptr_ring, 2 llist, 3 llist_batch, 4 magazine" },
		{ "rx_cpu", &rx_cpu, "host CPU of the RX thread" },
	};
	struct time_bench_cpu tasks[MAX_RETURNERS + 1];
	struct ptr_ring queues[MAX_RETURNERS];
	int cpus[MAX_RETURNERS + 1], n, i, err;
	struct time_bench_sync sync;
	struct cross_cpu d;
	bool oversubscribed;
	struct page *page;

	bench_parse_params(argc, argv, params, 4);
	if (loops < 1000 || loops > 0xffffffffULL / MAX_RETURNERS) {
		fprintf(stderr, "loops must be in [1000, %llu]\n", 0xffffffffULL / MAX_RETURNERS);
		return 2;
	}
	if (returning_cpus < 1 || returning_cpus > MAX_RETURNERS) {
		fprintf(stderr, "returning_cpus must be in [1, %d]\n", MAX_RETURNERS);
		return 2;
	}
	/* 77: not in this build, as opposed to a failure, for a script that
	 * runs every design. */
	err = bench_set_ring(ring_param);
	if (err)
		return err;
	n = (int)returning_cpus;
	memset(&d, 0, sizeof(d));
	oversubscribed = place_threads(cpus, d.shared, n, (int)rx_cpu);
	bench_init((int)rx_cpu, 0, 64);
	pr_info("bench_page_pool_cross_cpu: Loaded\n");
	pr_info("bench_page_pool_cross_cpu: ring:%s returning_cpus:%d loops:%llu rx host CPU %d, returners on host CPUs",
		bench_ring_current(), n, loops, cpus[n]);
	for (i = 0; i < n; i++)
		pr_cont(" %d", cpus[i]);
	pr_cont("%s\n", oversubscribed ?
		" (oversubscribed: more threads than CPUs, they time-share)" : "");

	d.pp = pp_create();
	if (!d.pp) {
		pr_err("cannot create the page_pool\n");
		return 1;
	}
	d.nr_returners = n;
	d.queues = queues;
	d.tasks = tasks;
	for (i = 0; i < n; i++) {
		if (ptr_ring_init(&queues[i], SPSC_QUEUE_SZ, GFP_KERNEL)) {
			pr_err("cannot create queue %d\n", i);
			return 1;
		}
	}

	time_bench_run_concurrent((uint32_t)loops, n, &d, cpus, n + 1, &sync, tasks,
				  time_pp_put_page_recycle);
	time_bench_print_stats_cpumask("page_pool_cross_cpu", tasks, n + 1);
	print_rate(&d, oversubscribed);
	print_pool_stats(&d);

	/* Only after an abort is anything left in the queues. */
	for (i = 0; i < n; i++) {
		while ((page = __ptr_ring_consume(&queues[i])))
			page_pool_put_page(d.pp, page, -1, false);
		ptr_ring_cleanup(&queues[i], NULL);
	}
	page_pool_destroy(d.pp);
	for (i = 0; i <= n; i++)
		if (!tasks[i].did_bench_run)
			d.failed = true;
	return d.failed ? 1 : 0;
}
