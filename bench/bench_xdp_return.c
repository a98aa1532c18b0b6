/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * bench_xdp_return: what the kernel commit "xdp: improve page_pool
 * xdp_return performance" (fb33ec016b87) saved, measured per frame - the
 * old return generation (mem id looked up in the id -> allocator table
 * under rcu_read_lock()) against the new one (the pool read from the
 * page), in one run, through the same exported calls, switched with
 * pp_xdp_set_return_mode().
 *
 *   loops=N      frames returned per test and generation (default
 *                10000000, rounded down to a multiple of 2048)
 *   run_flags=M  bitmask of tests (default: all)
 *     bit 0  xdp_return_frame_rx_napi: napi_direct, into the alloc cache
 *     bit 1  xdp_return_frame: not direct (the pool has no NAPI), into
 *            the pool's ring
 *     bit 2  xdp_return_frame_bulk + xdp_flush_frame_bulk, one pool
 *     bit 3  the same, frames of two pools interleaved
 *     bit 4  no-softirq xdp_return_frame: as bit 1 from process context,
 *            where the lookup generation's rcu_read_lock() is the
 *            outermost one (liburcu's read side, not a nesting count)
 *   models=N     other memory models registered first, so the table
 *                holds N + 2 ids, as on a host with several NICs (64)
 *   cpu=N        host CPU to pin to (default 0; -1 = no pinning)
 *   table=T      the id -> allocator table the lookup generation reads:
 *                0 pagepool's id table, 1 liburcu's rculfhash (a
 *                general-purpose RCU hash table, as the kernel's
 *                rhashtable was), 2 both, one after the other (default)
 *   gens=M       bitmask of generations: bit 0 direct, bit 1 lookup
 *                (default 3, both). One alone is for profilers
 *                (tools/callgrind_xdp_return.py); no ratio is printed.
 *   ring=R       the pools' ring design (enum pp_ring_mode: 0 lanes,
 *                1 ptr_ring, 2 llist, 3 llist_batch, 4 magazine; default
 *                -1: the build's, or PAGEPOOL_RING's). The not-direct
 *                returns (bits 1-4) go through it: xdp_return_frame()
 *                one page at a time, the bulk tests the ring's bulk put
 *                (page_pool_put_netmem_bulk()) once per flush. A design
 *                the build lacks: exit status 77, as the other programs.
 *
 * A library has the generations and tables its build chose (meson
 * -Dxdp_return, -Dxdp_table); a default build has the direct generation
 * alone. The rows of what the library lacks are left out, with a line
 * that says so: all of them need a build with -Ddesigns=all.
 *
 * Set-up: a registered net_device, two RX queues, each with a page_pool
 * (order 0, 1024-entry ring, no DMA) registered through
 * xdp_rxq_info_reg_mem_model(MEM_TYPE_PAGE_POOL). Tests 0-3 run in
 * softirq context on the pools' owner thread (the kernel's "tasklet"
 * tests; XDP returns happen in NAPI polls), test 4 in process context.
 *
 * The timed region measures the return path only. Frames are prepared in
 * batches of 128 outside it: allocate a page from the pool, xdp_init_buff()
 * + xdp_prepare_buff() (256 bytes headroom, 64 bytes of data),
 * xdp_convert_buff_to_frame(). Then the clock runs while the batch is
 * returned. ONE ITERATION = returning ONE frame with the call under test
 * (for the bulk tests: one xdp_return_frame_bulk() plus a sixteenth of a
 * flush; the lookup generation also holds one rcu_read_lock() per batch,
 * which its bulk API requires). The record's cycle count is the sum of the
 * timed regions (fenced TSC reads around each batch); its wall time is
 * that sum converted with the calibrated TSC rate, so the batch
 * preparation is in neither. The two generations run interleaved, 16
 * batches (2048 frames) at a time, so load from other processes on a
 * shared machine falls on both alike; each line reports its share. A
 * batch that was interrupted (more than 500 cycles per frame) is measured
 * again.
 *
 * The last line gives direct/lookup per test, from the exact cycle sums,
 * and how many interrupted batches were redone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <pagepool.h>
#include <pagepool/xdp.h>

#include "bench_common.h"
#include "time_bench.h"

static unsigned long long loops = 10000000;
static unsigned long long run_flags = 0xffffffff;
static unsigned long long nr_models = 64;
static unsigned long long host_cpu = 0;
static unsigned long long table = 2;
static unsigned long long gens = 3;
static unsigned long long ring = -1ULL;
/* The lookup generation's name in Type strings: which table it reads. */
static const char *lookup_label = "lookup";

/*
 * Frames per timed region: the alloc cache holds exactly one batch, so
 * xdp_return_frame_rx_napi() never finds it full. The fenced TSC reads
 * around a region cost about 50 cycles, 0.4 cycle per frame, in every
 * test alike.
 */
#define BATCH		PP_ALLOC_CACHE_SIZE
#define HEADROOM	256	/* XDP_PACKET_HEADROOM */
#define FRAME_LEN	64

enum test_type {
	T_RX_NAPI,
	T_FRAME,
	T_BULK,
	T_BULK_2POOLS,
	T_NO_SOFTIRQ,
	T_NR,
};

static const char *const test_name[T_NR] = {
	"xdp_return_frame_rx_napi",
	"xdp_return_frame",
	"xdp_return_frame_bulk",
	"xdp_return_frame_bulk_2pools",
	"no-softirq-xdp_return_frame",
};

struct bench {
	struct net_device *netdev;
	struct xdp_rxq_info rxq[2];
	struct page_pool *pool[2];
	struct xdp_frame *frames[BATCH];
	enum test_type type;
	int mode;
	/* results, per [type][mode] */
	u64 cycles[T_NR][2];
	u64 count[T_NR][2];
	u64 interrupted[T_NR][2];	/* batches measured again */
};

static struct page_pool *make_pool(void)
{
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = 1024,
		.nid = NUMA_NO_NODE,
		.dma_dir = DMA_BIDIRECTIONAL,
	};
	struct page_pool *pool = page_pool_create(&pp);

	if (IS_ERR(pool)) {
		fprintf(stderr, "page_pool_create: %ld\n", PTR_ERR(pool));
		exit(1);
	}
	return pool;
}

/* Untimed: BATCH frames, alternating between the queues for 2pools. */
static bool prepare_batch(struct bench *b)
{
	int i;

	for (i = 0; i < BATCH; i++) {
		int q = b->type == T_BULK_2POOLS ? (i & 1) : 0;
		struct page *page = page_pool_dev_alloc_pages(b->pool[q]);
		struct xdp_buff xdp;

		if (!page)
			return false;
		xdp_init_buff(&xdp, PAGE_SIZE, &b->rxq[q]);
		xdp_prepare_buff(&xdp, page_address(page), HEADROOM, FRAME_LEN, true);
		b->frames[i] = xdp_convert_buff_to_frame(&xdp);
		if (!b->frames[i])
			return false;
	}
	return true;
}

/* Timed: give the batch back. */
static __always_inline void return_batch(struct bench *b)
{
	struct xdp_frame_bulk bq;
	int i;

	switch (b->type) {
	case T_RX_NAPI:
		for (i = 0; i < BATCH; i++)
			xdp_return_frame_rx_napi(b->frames[i]);
		break;
	case T_FRAME:
	case T_NO_SOFTIRQ:
		for (i = 0; i < BATCH; i++)
			xdp_return_frame(b->frames[i]);
		break;
	case T_BULK:
	case T_BULK_2POOLS:
		xdp_frame_bulk_init(&bq);
		if (b->mode == PP_XDP_RETURN_LOOKUP)
			rcu_read_lock();
		for (i = 0; i < BATCH; i++)
			xdp_return_frame_bulk(b->frames[i], &bq);
		xdp_flush_frame_bulk(&bq);
		if (b->mode == PP_XDP_RETURN_LOOKUP)
			rcu_read_unlock();
		break;
	default:
		break;
	}
}

/*
 * Both generations over @frames frames each, interleaved in chunks of
 * CHUNK batches - which one goes first alternates - so that whatever else
 * runs on a shared machine falls on both alike. Returns false if frames
 * could not be prepared.
 */
#define CHUNK	16

/*
 * A batch that took longer than this per frame was interrupted (the
 * scheduler, another VM): about ten times the slowest path's real cost.
 * It is not counted and is measured again; the number of such batches is
 * printed.
 */
#define INTERRUPTED_CYCLES_PER_FRAME	500

static bool measure_pair(struct bench *b, u64 frames)
{
	u64 chunks = frames / (CHUNK * BATCH), c;
	int m, i, n;

	for (m = 0; m < 2; m++) {
		b->cycles[b->type][m] = 0;
		b->count[b->type][m] = 0;
		b->interrupted[b->type][m] = 0;
	}
	for (c = 0; c < chunks; c++) {
		for (i = 0; i < 2; i++) {
			m = (int)((c + (u64)i) & 1);
			if (!(gens & (1ULL << m)))
				continue;
			b->mode = m;
			pp_xdp_set_return_mode(m);
			for (n = 0; n < CHUNK; n++) {
				u64 t0, t1;

				if (!prepare_batch(b))
					return false;
				t0 = time_bench_tsc_start();
				return_batch(b);
				t1 = time_bench_tsc_stop();
				if (t1 - t0 > BATCH * INTERRUPTED_CYCLES_PER_FRAME &&
				    b->interrupted[b->type][m] < chunks * CHUNK) {
					b->interrupted[b->type][m]++;
					n--;
					continue;
				}
				b->cycles[b->type][m] += t1 - t0;
				b->count[b->type][m] += BATCH;
			}
		}
	}
	return true;
}

/*
 * time_bench_loop()'s callback: the record of b->mode's share of the
 * last measure_pair(), as time_bench_start/stop would leave it for the
 * sum of the timed regions only (wall time from the calibrated TSC rate).
 */
static int xdp_return_record(struct time_bench_record *rec, void *data)
{
	struct bench *b = data;
	u64 cycles = b->cycles[b->type][b->mode];
	u64 ns = (u64)((double)cycles * 1e9 / (double)time_bench_tsc_hz());

	rec->tsc_start = 0;
	rec->tsc_stop = cycles;
	rec->ts_start.tv_sec = 0;
	rec->ts_start.tv_nsec = 0;
	rec->ts_stop.tv_sec = (time64_t)(ns / 1000000000ULL);
	rec->ts_stop.tv_nsec = (long)(ns % 1000000000ULL);
	rec->invoked_cnt = b->count[b->type][b->mode];
	return (int)rec->invoked_cnt;
}

static void run_test(struct bench *b, int t)
{
	const char *const mode_name[2] = { "direct", lookup_label };
	char txt[96];
	int m;

	if (!(run_flags & (1ULL << t)))
		return;
	b->type = (enum test_type)t;
	/* Warm-up, untimed: both paths' code and data, the pools' rings and
	 * caches in their steady state. */
	if (!measure_pair(b, 2 * CHUNK * BATCH) || !measure_pair(b, loops)) {
		pr_err("%s: cannot prepare frames\n", test_name[t]);
		return;
	}
	/* Lookup first, as the commit's before/after. */
	for (m = PP_XDP_RETURN_LOOKUP; m >= PP_XDP_RETURN_DIRECT; m--) {
		if (!(gens & (1ULL << m)))
			continue;
		b->mode = m;
		snprintf(txt, sizeof(txt), "%s-%s", test_name[t], mode_name[m]);
		time_bench_loop((uint32_t)loops,
				t == T_BULK || t == T_BULK_2POOLS ? XDP_BULK_QUEUE_SIZE : 0,
				txt, b, xdp_return_record);
	}
}

static void run_softirq_tests(void *arg)
{
	int t;

	for (t = 0; t < T_NO_SOFTIRQ; t++)
		run_test(arg, t);
}

/*
 * Leave out of gens and of the table mask what this library was built
 * without (its setters say -EOPNOTSUPP), each with a line that says so.
 * Returns the tables to run, as a mask by enum pp_xdp_lookup_table; one
 * bit, for one pass, when no lookup rows run (no table is read then).
 */
static unsigned int select_designs(void)
{
	static const char *const gen_name[2] = { "direct", "lookup" };
	static const char *const table_row[2] = { "lookup", "lookup_rculfhash" };
	unsigned int tables = 0;
	int m, t;

	for (m = PP_XDP_RETURN_DIRECT; m <= PP_XDP_RETURN_LOOKUP; m++) {
		if ((gens & (1ULL << m)) && pp_xdp_set_return_mode(m) == -EOPNOTSUPP) {
			gens &= ~(1ULL << m);
			pr_info("bench_xdp_return: no %s rows: this build has no %s generation "
				"(they need meson -Ddesigns=all)\n", gen_name[m], gen_name[m]);
		}
	}
	if (!(gens & (1ULL << PP_XDP_RETURN_LOOKUP)))
		return 1U << PP_XDP_TABLE_ID;
	for (t = PP_XDP_TABLE_ID; t <= PP_XDP_TABLE_RCULFHASH; t++) {
		if (table != 2 && (int)table != t)
			continue;
		if (pp_xdp_set_lookup_table(t) == -EOPNOTSUPP) {
			pr_info("bench_xdp_return: no %s rows: this build has no %s table "
				"(they need meson -Ddesigns=all)\n", table_row[t],
				t == PP_XDP_TABLE_ID ? "id" : "rculfhash");
			continue;
		}
		tables |= 1U << t;
	}
	return tables;
}

static void print_ratios(const struct bench *b)
{
	unsigned long long interrupted = 0;
	char line[640];
	int t, len = 0;

	for (t = 0; t < T_NR; t++) {
		double lookup, direct;

		if (!b->count[t][PP_XDP_RETURN_LOOKUP] || !b->count[t][PP_XDP_RETURN_DIRECT])
			continue;
		lookup = (double)b->cycles[t][PP_XDP_RETURN_LOOKUP] /
			 (double)b->count[t][PP_XDP_RETURN_LOOKUP];
		direct = (double)b->cycles[t][PP_XDP_RETURN_DIRECT] /
			 (double)b->count[t][PP_XDP_RETURN_DIRECT];
		len += snprintf(line + len, sizeof(line) - (size_t)len,
				" %s=%.3f(%.1f/%.1f cycles)", test_name[t], direct / lookup,
				direct, lookup);
		interrupted += b->interrupted[t][0] + b->interrupted[t][1];
	}
	if (len)
		pr_info("bench_xdp_return: ratio direct/%s per frame:%s (%llu interrupted batches redone)\n",
			lookup_label, line, (unsigned long long)interrupted);
}

int main(int argc, char **argv)
{
	const struct bench_param params[] = {
		{ "loops", &loops, "frames returned per test" },
		{ "run_flags", &run_flags, "bitmask of tests to run" },
		{ "models", &nr_models, "other memory models registered first" },
		{ "cpu", &host_cpu, "host CPU to pin to (-1: none)" },
		{ "table", &table, "lookup table: 0 id table, 1 rculfhash, 2 both" },
		{ "gens", &gens, "generations: bit 0 direct, bit 1 lookup" },
		{ "ring", &ring,
		  "ring design: 0 lanes, 1 ptr_ring, 2 llist, 3 llist_batch, 4 magazine, -1 the build's" },
	};
	unsigned int tables;
	int tbl;
	struct xdp_mem_info *others;
	struct bench *b;
	unsigned long long i;
	int q, err;

	bench_parse_params(argc, argv, params, ARRAY_SIZE(params));
	loops -= loops % (CHUNK * BATCH);
	if (!loops || loops > 0xffffffffULL || nr_models > 60000 || table > 2 ||
	    !gens || gens > 3) {
		fprintf(stderr, "need 2048 <= loops < 2^32, models <= 60000, table <= 2, gens 1..3\n");
		return 2;
	}
	err = bench_set_ring(ring);
	if (err)
		return err;
	bench_init((int)(long long)host_cpu, 0, 64);
	pr_info("bench_xdp_return: Loaded\n");
	pr_info("bench_xdp_return: designs: ring %s\n", bench_ring_current());
	tables = select_designs();
	if (!gens || !tables)
		return 0;

	b = calloc(1, sizeof(*b));
	others = calloc(nr_models + 1, sizeof(*others));
	if (!b || !others)
		return 1;

	/* Other models: any non-NULL allocator gets an id. */
	for (i = 0; i < nr_models; i++) {
		err = xdp_reg_mem_model(&others[i], MEM_TYPE_PAGE_ORDER0, &others[i]);
		if (err) {
			fprintf(stderr, "xdp_reg_mem_model: %d\n", err);
			return 1;
		}
	}

	b->netdev = alloc_etherdev(0);
	if (!b->netdev || register_netdev(b->netdev)) {
		fprintf(stderr, "cannot register a net_device\n");
		return 1;
	}
	for (q = 0; q < 2; q++) {
		b->pool[q] = make_pool();
		err = xdp_rxq_info_reg(&b->rxq[q], b->netdev, (u32)q, 0);
		if (!err)
			err = xdp_rxq_info_reg_mem_model(&b->rxq[q], MEM_TYPE_PAGE_POOL,
							 b->pool[q]);
		if (err) {
			fprintf(stderr, "rxq %d registration: %d\n", q, err);
			return 1;
		}
	}
	pr_info("bench_xdp_return: %u memory models registered, pool mem ids %u and %u\n",
		pp_xdp_mem_id_count(), b->rxq[0].mem.id, b->rxq[1].mem.id);

	for (tbl = PP_XDP_TABLE_ID; tbl <= PP_XDP_TABLE_RCULFHASH; tbl++) {
		if (!(tables & (1U << tbl)))
			continue;
		if (gens & (1ULL << PP_XDP_RETURN_LOOKUP))
			pp_xdp_set_lookup_table(tbl);
		lookup_label = tbl == PP_XDP_TABLE_ID ? "lookup" : "lookup_rculfhash";
		bench_run_in_softirq(run_softirq_tests, b);
		run_test(b, T_NO_SOFTIRQ);
		print_ratios(b);
	}

	for (q = 0; q < 2; q++) {
		xdp_rxq_info_unreg(&b->rxq[q]);		/* drops the XDP reference */
		page_pool_destroy(b->pool[q]);		/* the driver's: frees it */
	}
	for (i = 0; i < nr_models; i++)
		xdp_unreg_mem_model(&others[i]);
	unregister_netdev(b->netdev);
	free_netdev(b->netdev);
	free(others);
	free(b);
	return 0;
}
