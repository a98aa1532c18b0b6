/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * bench_cross_cpu_bare: the topology of bench_page_pool_cross_cpu with no
 * page_pool in it - what bounds the cross-CPU figure on this machine.
 *
 *   thread A      pinned to rx_cpu (default 0), the pool owner's place:
 *                 takes an object from a local array stack (the alloc
 *                 cache), pushes its pointer into an SPSC ptr_ring of 1024
 *                 slots, one at a time (the benchmark's own queue); a full
 *                 queue puts it back on the stack and retries. When the
 *                 stack is empty it takes up to 64 objects back from the
 *                 return channel (page_pool's refill).
 *   thread B      pinned to the next CPU (the returner): takes each pointer
 *                 from that queue and hands it back through the return
 *                 channel (page_pool's ring).
 *
 * The return channel, per variant (variants=M, bit i = row i, default
 * all):
 *   0 spsc           another SPSC ptr_ring, one object at a time: a
 *                    release store per object into a slot A clears.
 *   1 batch8         a local array of 8 on B, flushed into an index ring
 *   2 batch64        (slots, then ONE release store of the tail) when full;
 *                    A reads the tail once per refill and frees the slots
 *                    with one store of the head.
 *   3 spsc_touch     as spsc and batch64, and each side reads and writes
 *   4 batch64_touch  the object's 64-byte descriptor (struct page's size)
 *                    as page_pool's alloc and put write the page's: the
 *                    line changes owner twice per object.
 * The difference between a row and its _touch twin is what a descriptor
 * line moving between the CPUs costs here; the gap from spsc to batch64
 * what publishing per object costs.
 *
 * 4096 objects, more than the queue, a batch and a refill together, so
 * neither side waits for want of objects and the return channel (4096
 * slots) is never full. Timing as bench_page_pool_cross_cpu's: B takes
 * its first object untimed, then times loops=N (default 1000000) objects;
 * A times its whole run, per object it produced (loops + 1). Output per
 * variant, in time_bench's format (time_bench_print_stats_cpumask(): B's
 * CPU line, then A's, then the Sum line) and the rate line
 *
 *   Type:bare_cross_cpu_<variant> pages/sec: N (returned:R in S sec,
 *     returning_cpus:1 ring:<variant> oversubscribed:yes|no)
 *
 * with the span of B's timed loop. Every object is counted back at the
 * end: one lost or duplicated fails the program. With one CPU both
 * threads share it (oversubscribed) and yield after 1024 failed attempts,
 * as in bench_page_pool_cross_cpu.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/ptr_ring.h>

#include "bench_common.h"
#include "time_bench.h"

#define NR_OBJS		4096	/* a power of two: the index ring's size */
#define FWD_QUEUE_SZ	1024	/* bench_page_pool_cross_cpu's queue */
#define REFILL		64	/* PP_ALLOC_CACHE_REFILL */
#define MAX_BATCH	64
#define YIELD_AFTER	1024	/* as bench_page_pool_cross_cpu */

static unsigned long long loops = 1000000;
static unsigned long long variants = 0x1f;
static unsigned long long rx_cpu = 0;

enum channel { CH_SPSC, CH_BATCH };

static const struct variant {
	const char *name;
	enum channel ch;
	int batch;
	bool touch;
} variant_tab[] = {
	{ "spsc", CH_SPSC, 1, false },
	{ "batch8", CH_BATCH, 8, false },
	{ "batch64", CH_BATCH, 64, false },
	{ "spsc_touch", CH_SPSC, 1, true },
	{ "batch64_touch", CH_BATCH, 64, true },
};

/* The per-object descriptor: struct page's size and alignment. */
struct bare_obj {
	unsigned long owner_state;	/* A: as page_pool_alloc writes the page */
	unsigned long returned;		/* B: as the put writes its count */
	unsigned long pad[6];
} ____cacheline_aligned;

/*
 * The batched return channel: a single-producer single-consumer index ring.
 * B (the producer) writes its batch's slots, then publishes them all with
 * one release store of tail (R1); A (the consumer) reads tail with an
 * acquire load (pairs with R1) and so sees the slots and what B wrote to
 * the objects, takes them, and gives the slots back with one release store
 * of head (R2), which B's room check reads with acquire (pairs with R2):
 * A's reads of the slots are done before B writes them again.
 */
struct idx_ring {
	unsigned int tail ____cacheline_aligned;	/* B's; A reads */
	unsigned int head_cache;			/* B's copy of head */
	unsigned int head ____cacheline_aligned;	/* A's; B reads */
	void *slots[NR_OBJS] ____cacheline_aligned;
};

struct bare {
	const struct variant *v;
	struct bare_obj *objs;
	struct ptr_ring fwd;		/* A -> B, one at a time */
	struct ptr_ring ret;		/* B -> A, CH_SPSC */
	struct idx_ring *iret;		/* B -> A, CH_BATCH */
	/* A's, and B's: each on lines of its own (no false sharing) */
	int top ____cacheline_aligned;
	void *stack[NR_OBJS];
	int nb ____cacheline_aligned;
	void *batch[MAX_BATCH];
	struct time_bench_cpu tasks[2] ____cacheline_aligned;	/* [0] B, [1] A, as the
								 * cross-CPU program */
	bool shared;			/* A and B on one CPU */
	int producer_done;
	uint64_t fwd_full, empty_polls, refill_empty;
	bool failed;
};

/* B's batch into the index ring, with one publish. */
static bool publish(struct bare *b)
{
	struct idx_ring *r = b->iret;
	unsigned int t = r->tail, n = (unsigned int)b->nb, i;

	if (t + n - r->head_cache > NR_OBJS) {
		r->head_cache = smp_load_acquire(&r->head);	/* pairs with R2 */
		if (t + n - r->head_cache > NR_OBJS)
			return false;	/* cannot be: there are NR_OBJS objects */
	}
	for (i = 0; i < n; i++)
		r->slots[(t + i) & (NR_OBJS - 1)] = b->batch[i];
	smp_store_release(&r->tail, t + n);	/* R1 */
	b->nb = 0;
	return true;
}

static bool ret_put(struct bare *b, void *obj)
{
	if (b->v->ch == CH_SPSC)
		return __ptr_ring_produce(&b->ret, obj) == 0;
	b->batch[b->nb++] = obj;
	return b->nb < b->v->batch || publish(b);
}

/* B's partial batch at the end of its run. */
static bool ret_flush(struct bare *b)
{
	return b->v->ch == CH_SPSC || !b->nb || publish(b);
}

/* A's refill: up to REFILL objects from the return channel onto the stack. */
static int refill(struct bare *b)
{
	struct idx_ring *r = b->iret;
	unsigned int h, n, i;
	void *obj;

	if (b->v->ch == CH_SPSC) {
		for (n = 0; n < REFILL && (obj = __ptr_ring_consume(&b->ret)); n++)
			b->stack[b->top++] = obj;
		return (int)n;
	}
	h = r->head;
	n = min(smp_load_acquire(&r->tail) - h, (unsigned int)REFILL);	/* pairs with R1 */
	for (i = 0; i < n; i++)
		b->stack[b->top++] = r->slots[(h + i) & (NR_OBJS - 1)];
	if (n)
		smp_store_release(&r->head, h + n);	/* R2 */
	return (int)n;
}

static void thread_a(struct bare *b, struct time_bench_record *rec)
{
	uint64_t nr_produce = (uint64_t)rec->loops + 1, cnt = 0, full = 0, empty = 0;
	uint64_t fail_in_row = 0, stall_start = 0;
	bool touch = b->v->touch;

	time_bench_start(rec);
	while (cnt < nr_produce) {
		struct bare_obj *obj;

		if (unlikely(!b->top) && !refill(b)) {
			empty++;
			goto failed_attempt;
		}
		obj = b->stack[--b->top];
		if (touch)
			obj->owner_state = obj->returned + 1;
		if (unlikely(__ptr_ring_produce(&b->fwd, obj) < 0)) {
			b->stack[b->top++] = obj;
			full++;
			goto failed_attempt;
		}
		fail_in_row = 0;
		stall_start = 0;
		cnt++;
		continue;
failed_attempt:
		if (unlikely(++fail_in_row % YIELD_AFTER == 0)) {
			if (b->shared)
				sched_yield();
			if (fail_in_row % (YIELD_AFTER << 10) == 0) {
				if (!stall_start) {
					stall_start = pp_bench_now_sec();
				} else if (pp_bench_now_sec() - stall_start > PP_BENCH_STALL_SEC) {
					pr_err("%s: A stalled after %llu objects\n", b->v->name,
					       (unsigned long long)cnt);
					b->failed = true;
					break;
				}
			}
		}
	}
	time_bench_stop(rec, cnt);
	b->fwd_full = full;
	b->refill_empty = empty;
	smp_store_release(&b->producer_done, 1);	/* pairs with B's acquire */
}

/* B's next object, or NULL once A is done and the queue stays empty. */
static struct bare_obj *fwd_take(struct bare *b, uint64_t *empty)
{
	unsigned int empty_in_row = 0;
	struct bare_obj *obj;

	while (!(obj = __ptr_ring_consume(&b->fwd))) {
		(*empty)++;
		if (unlikely(++empty_in_row == YIELD_AFTER)) {
			empty_in_row = 0;
			/* pairs with A's release of producer_done */
			if (smp_load_acquire(&b->producer_done) && __ptr_ring_empty(&b->fwd))
				return NULL;
			if (b->shared)
				sched_yield();
		}
	}
	return obj;
}

static int bare_thread(struct time_bench_record *rec, void *data)
{
	struct bare *b = data;
	bool touch = b->v->touch;
	uint64_t cnt = 0, empty = 0;
	struct bare_obj *obj;
	uint32_t i;

	if ((struct time_bench_cpu *)rec == &b->tasks[1]) {
		thread_a(b, rec);
		return (int)rec->invoked_cnt;
	}
	obj = fwd_take(b, &empty);
	if (!obj || !ret_put(b, obj)) {
		pr_err("%s: no first object\n", b->v->name);
		b->failed = true;
		return 0;
	}
	empty = 0;
	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		obj = fwd_take(b, &empty);
		if (unlikely(!obj)) {
			pr_err("%s: queue ran dry after %llu objects\n", b->v->name,
			       (unsigned long long)cnt);
			break;
		}
		if (touch)
			obj->returned = obj->owner_state;
		if (unlikely(!ret_put(b, obj))) {
			pr_err("%s: return channel full\n", b->v->name);
			b->failed = true;
			break;
		}
		cnt++;
	}
	if (!ret_flush(b))
		b->failed = true;
	time_bench_stop(rec, cnt);
	b->empty_polls = empty;
	return (int)cnt;
}

/* Every object is on A's stack, in a channel or in B's batch once: a
 * lost or duplicated one is a bug in the channels above. */
static bool count_back(struct bare *b)
{
	static unsigned char seen[NR_OBJS];
	struct bare_obj *obj;
	int i, n = 0;
	bool ok = true;

#define SEEN(o) do {								\
		long idx = (struct bare_obj *)(o) - b->objs;			\
		if (idx < 0 || idx >= NR_OBJS || seen[idx]++)			\
			ok = false;						\
		n++;								\
	} while (0)
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < b->top; i++)
		SEEN(b->stack[i]);
	while ((obj = __ptr_ring_consume(&b->fwd)))
		SEEN(obj);
	while ((obj = __ptr_ring_consume(&b->ret)))
		SEEN(obj);
	for (i = 0; i < b->nb; i++)
		SEEN(b->batch[i]);
	while (b->iret->head != b->iret->tail)
		SEEN(b->iret->slots[b->iret->head++ & (NR_OBJS - 1)]);
#undef SEEN
	if (!ok || n != NR_OBJS) {
		pr_err("%s: %d objects counted back, of %d%s\n", b->v->name, n, NR_OBJS,
		       ok ? "" : ", some twice or foreign");
		return false;
	}
	return true;
}

static void print_rate(struct bare *b)
{
	struct time_bench_record *rec = &b->tasks[0].rec;
	uint64_t start = (uint64_t)rec->ts_start.tv_sec * 1000000000ULL +
			 (uint64_t)rec->ts_start.tv_nsec;
	uint64_t stop = (uint64_t)rec->ts_stop.tv_sec * 1000000000ULL +
			(uint64_t)rec->ts_stop.tv_nsec;
	uint64_t span = stop > start ? stop - start : 0;
	char type[64];

	if (!b->tasks[0].did_bench_run || !rec->invoked_cnt || !span) {
		pr_err("%s: no objects returned\n", b->v->name);
		b->failed = true;
		return;
	}
	snprintf(type, sizeof(type), "bare_cross_cpu_%s", b->v->name);
	pr_info("Type:%s pages/sec: %llu (returned:%llu in %llu.%09llu sec, returning_cpus:1 ring:%s oversubscribed:%s)\n",
		type, (unsigned long long)((double)rec->invoked_cnt * 1e9 / (double)span),
		(unsigned long long)rec->invoked_cnt, (unsigned long long)(span / 1000000000ULL),
		(unsigned long long)(span % 1000000000ULL), b->v->name,
		b->shared ? "yes" : "no");
	pr_info("bare_cross_cpu_%s: A queue_full:%llu refill_empty:%llu - B empty_polls:%llu\n",
		b->v->name, (unsigned long long)b->fwd_full,
		(unsigned long long)b->refill_empty, (unsigned long long)b->empty_polls);
}

static int run_variant(struct bare *b, const struct variant *v, const int *cpus)
{
	struct time_bench_sync sync;
	char type[64];
	int i;

	b->v = v;
	b->top = 0;
	b->nb = 0;
	b->producer_done = 0;
	b->fwd_full = b->empty_polls = b->refill_empty = 0;
	memset(b->objs, 0, NR_OBJS * sizeof(*b->objs));
	memset(b->iret, 0, sizeof(*b->iret));
	if (ptr_ring_init(&b->fwd, FWD_QUEUE_SZ, GFP_KERNEL) ||
	    ptr_ring_init(&b->ret, NR_OBJS, GFP_KERNEL)) {
		pr_err("cannot create the queues\n");
		return 1;
	}
	for (i = NR_OBJS - 1; i >= 0; i--)
		b->stack[b->top++] = &b->objs[i];

	time_bench_run_concurrent((uint32_t)loops, 0, b, cpus, 2, &sync, b->tasks, bare_thread);
	snprintf(type, sizeof(type), "bare_cross_cpu_%s", v->name);
	time_bench_print_stats_cpumask(type, b->tasks, 2);
	print_rate(b);
	if (!count_back(b))
		b->failed = true;
	for (i = 0; i < 2; i++)
		if (!b->tasks[i].did_bench_run)
			b->failed = true;
	ptr_ring_cleanup(&b->fwd, NULL);
	ptr_ring_cleanup(&b->ret, NULL);
	return b->failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct bench_param params[] = {
		{ "loops", &loops, "objects B returns per variant" },
		{ "variants", &variants,
		  "bitmask: 0 spsc, 1 batch8, 2 batch64, 3 spsc_touch, 4 batch64_touch" },
		{ "rx_cpu", &rx_cpu, "host CPU of thread A (B: the next one)" },
	};
	int cpus[2], c, rc = 0;
	struct bare *b;
	cpu_set_t set;
	size_t v;

	bench_parse_params(argc, argv, params, ARRAY_SIZE(params));
	if (loops < 1000 || loops > 0x7fffffffULL || !variants ||
	    variants >= 1ULL << ARRAY_SIZE(variant_tab)) {
		fprintf(stderr, "need 1000 <= loops < 2^31 and variants in 1..%#llx\n",
			(1ULL << ARRAY_SIZE(variant_tab)) - 1);
		return 2;
	}
	/* As bench_page_pool_cross_cpu's place_threads() for one returner:
	 * B on the first other CPU the process may use. */
	cpus[1] = (int)rx_cpu;
	cpus[0] = (int)rx_cpu;
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (c = 0; c < CPU_SETSIZE; c++)
			if (c != (int)rx_cpu && CPU_ISSET(c, &set)) {
				cpus[0] = c;
				break;
			}
	bench_init((int)rx_cpu, 0, 4);
	b = calloc(1, sizeof(*b));
	if (!b || posix_memalign((void **)&b->objs, SMP_CACHE_BYTES, NR_OBJS * sizeof(*b->objs)) ||
	    posix_memalign((void **)&b->iret, SMP_CACHE_BYTES, sizeof(*b->iret))) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	b->shared = cpus[0] == cpus[1];
	pr_info("bench_cross_cpu_bare: Loaded\n");
	pr_info("bench_cross_cpu_bare: A on host CPU %d, B on host CPU %d%s; loops:%llu, %d objects, queue %d slots, refill %d\n",
		cpus[1], cpus[0], b->shared ? " (oversubscribed: one CPU, they time-share)" : "",
		loops, NR_OBJS, FWD_QUEUE_SZ, REFILL);
	for (v = 0; v < ARRAY_SIZE(variant_tab); v++)
		if (variants & (1ULL << v))
			rc |= run_variant(b, &variant_tab[v], cpus);
	free(b->iret);
	free(b->objs);
	free(b);
	return rc;
}
