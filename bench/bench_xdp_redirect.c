/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * bench_xdp_redirect: the XDP_REDIRECT test of the 2018 mlx5 page_pool
 * conversion, on two simulated NICs (drivers/simnic). Packets arrive on
 * the RX NIC; its XDP program, a C function calling
 * bpf_redirect_map(devmap, 0, 0), sends every one to the TX NIC (devmap
 * entry 0); the TX NIC's ndo_xdp_xmit queues the frame, and its TX
 * completion gives the page back - xdp_return_frame() into the RX
 * page_pool, or put_page() to the page allocator when the RX side did not
 * use one. The 2018 series (RX on mlx5, out of ixgbe, at a 13 Mpps line
 * rate) measured 6 Mpps on one flow without page_pool and 4 Mpps on two
 * (the page allocator's zone lock), 10 Mpps with page_pool when the TX
 * completion ran on the RX CPU and 12 Mpps when it ran on another; the
 * 2019 page->pp series measured +6.5 % packets per second end to end for
 * the direct __xdp_return() over the mem-id lookup.
 *
 * Scenarios (scenarios= bits, in this order; the letters of
 * docs/BENCHMARKS.md):
 *   0 (a) alloc             no page_pool: a page allocated and DMA-mapped
 *                           per packet, unmapped and freed at TX completion
 *   1 (b) pool_norecycle    page_pool, its pages never recycled
 *   2 (c) pool              page_pool, TX completion on the RX CPU
 *   3 (f) pool_lookup       (c) with the mem-id lookup xdp_return
 *   4 (d) pool_xcpu         page_pool, TX completion on the other CPU
 *   5 (f) pool_xcpu_lookup  (d) with the mem-id lookup xdp_return
 *   6 (e) alloc_2flows      (a) with two flows: two RX queues, queue i on
 *                           logical CPU i, its redirect to TX queue i
 *   7 (e) pool_2flows       (c) with two flows, the same way
 * (c) and (d) run the direct xdp_return generation, (f) the lookup one
 * (pp_xdp_set_return_mode()); a library without both generations runs
 * (c) and (d) with its own and says it left (f) out. Each scenario runs
 * on the IOMMU and on the direct DMA backend (dma= bits 0 and 1).
 *
 * Threads: logical CPU 0 (this thread) pinned to host CPU rx_cpu,
 * logical CPU 1 to other_cpu (default: the next CPU the process may use).
 * A flow's CPU drives the wire, simnic_wire_rx(nic, q, burst) then
 * simnic_service() (its interrupts, its softirqs: the NAPI polls that
 * run the program, redirect and complete), in a loop; a completion CPU
 * loops on simnic_service(); a CPU with neither role sleeps. The line-rate
 * cap is off (line_rate_pps=0): we measure capacity; 13000000 sets the
 * 2018 generator's rate.
 *
 * Timing: per scenario and backend, the NICs and their pools are created,
 * the threads run warmup_ms, then a window_ms window timed with the TSC
 * (bench/time_bench.h): the TX NIC's completions at its two ends give the
 * packets forwarded. Then the wire stops, everything in flight is
 * drained (simnic_quiesce()), and the end state is checked: every packet
 * accounted for (simnic_check_accounting(): forwarded, dropped by the
 * program or a drop with a reason), and, once the NICs are destroyed, no
 * page lost (the arena's free pages back to their count before, no page
 * still marked page_pool, no allocator or page_pool misuse counted), no
 * DMA-API violation, no page_pool left (none live, none waiting for
 * pages), no WARN. A failure is printed and makes the exit status 1; the
 * other runs go on.
 *
 * The repetitions (reps=, default 3; warmup_ms=50, window_ms=200) run
 * every scenario and backend once each, in order, so the two runs of a
 * pair compared (direct / lookup, cross / same CPU) are a few runs apart,
 * and the pair's ratio is taken within each repetition: a change of load
 * on a shared machine between repetitions falls on both alike. Output,
 * per scenario and backend, after the last repetition:
 *
 *   Type:xdp_redirect_<scenario>-<iommu|direct> Mpps: M (median of R:
 *     m1 m2 ...; forwarded:N in S sec, key:value ...)
 *
 * (one line: M the median, m1.. each repetition's figure, N and S summed
 * over the repetitions), and after it the same for <backend>_host: the
 * rate with the device model's time taken out (S without it,
 * device_share its median share of the flow CPUs' time: simnic's
 * device_ns), then the table beside the 2018 / 2019 figures
 * and the ratios with their targets, medians of the ratios paired within
 * each repetition. Targets are reported, never asserted.
 *
 * Other parameters: burst=N packets per simnic_wire_rx() (64), cache=0|1
 * the RX driver's own page cache with elevated refcount (0: with it on,
 * the driver takes a reference on every received page and reuses it once
 * the holder lets go, so it serves almost every buffer in (a) and (c)
 * alike - see the hits on each run's line - and neither the page
 * allocator nor page_pool's recycling is what is timed), dma_debug=0|1
 * DMA-API debug on both NICs (1; make bench times with 0, as the 2018
 * kernel without CONFIG_DMA_API_DEBUG), bulk=0|1 TX completion through
 * xdp_return_frame_bulk() (0: one frame at a time, as ixgbe did in 2018),
 * rx_ring=N, tx_ring=N (0: the driver's default), table=-1|0|1 the table
 * the lookup generation reads (pp_xdp_set_lookup_table(); -1 the
 * build's; one the build lacks: exit status 77), fault=N makes every run
 * end in a bad state on purpose, to show the checks fail (1: a page
 * allocated and not freed; 2: a page_pool page held by simnic_pp_hold()
 * across the NICs' stop and destroy; 3: a DMA mapping unmapped twice on
 * the RX device).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/compiler.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <pagepool.h>

#include "simnic.h"

#include "bench_common.h"
#include "time_bench.h"

#define MAX_REPS	32
#define ARENA_MB	128

enum scen_flags {
	S_2FLOWS = 1 << 0,	/* two RX queues, one flow on each CPU */
	S_XCPU = 1 << 1,	/* TX completion on the other CPU */
	S_LOOKUP = 1 << 2,	/* the mem-id lookup xdp_return generation */
};

static const struct scenario {
	const char *key;
	char letter;
	enum simnic_rx_mem rx_mem;
	unsigned int flags;
	double mpps_2018;	/* the 2018 series' figure, 0: none */
} scenarios[] = {
	{ "alloc", 'a', SIMNIC_RX_PAGE_ALLOC, 0, 6 },
	{ "pool_norecycle", 'b', SIMNIC_RX_PAGE_POOL_NO_RECYCLE, 0, 0 },
	{ "pool", 'c', SIMNIC_RX_PAGE_POOL, 0, 10 },
	{ "pool_lookup", 'f', SIMNIC_RX_PAGE_POOL, S_LOOKUP, 0 },
	{ "pool_xcpu", 'd', SIMNIC_RX_PAGE_POOL, S_XCPU, 12 },
	{ "pool_xcpu_lookup", 'f', SIMNIC_RX_PAGE_POOL, S_XCPU | S_LOOKUP, 0 },
	{ "alloc_2flows", 'e', SIMNIC_RX_PAGE_ALLOC, S_2FLOWS, 4 },
	{ "pool_2flows", 'e', SIMNIC_RX_PAGE_POOL, S_2FLOWS, 0 },
};
#define NR_SCEN		(sizeof(scenarios) / sizeof(scenarios[0]))

static const char *const dma_names[] = { "iommu", "direct" };
static const enum simnic_dma dma_kinds[] = { SIMNIC_DMA_IOMMU, SIMNIC_DMA_DIRECT };
#define NR_DMA		2

/* The ratios printed with their targets: scenario indices, the target
 * (0: reported only), the backends it is judged on (bits). The 2018 (c)
 * over (a) is about the cost of mapping a page per packet, which the
 * IOMMU backend has and the direct one nearly has not. */
static const struct ratio {
	unsigned int num, den;
	double target;
	unsigned int judged_dma;
	const char *what;
} ratios[] = {
	{ 2, 0, 1.6, 1, "page_pool (c) vs no page_pool (a)" },
	{ 4, 2, 0.8, 3, "TX completion cross-CPU (d) vs same CPU (c)" },
	{ 7, 2, 1.8, 3, "page_pool two flows vs one (e)" },
	{ 6, 0, 0, 3, "page allocator two flows vs one (e; its zone lock)" },
	{ 2, 3, 1.05, 3, "direct __xdp_return() vs mem-id lookup, same CPU (f)" },
	{ 4, 5, 1.05, 3, "direct __xdp_return() vs mem-id lookup, cross-CPU (f)" },
};

static unsigned long long reps = 3, warmup_ms = 50, window_ms = 200;
static unsigned long long scen_mask = (1ULL << NR_SCEN) - 1, dma_mask = 3;
static unsigned long long line_rate_pps, burst = 64, cache, bulk;
static unsigned long long rx_ring, tx_ring, table = -1ULL, fault, dma_debug = 1;
static unsigned long long rx_cpu, other_cpu = -1ULL;

static uint64_t tsc_hz;

/* Per scenario, backend and repetition: M packets/s (< 0: not run or
 * failed), packets forwarded and seconds in the window. */
static double mpps[NR_SCEN][NR_DMA][MAX_REPS];
/* The device model's share of the flow CPUs' time in each window, and
 * the rate with that time taken out (what bounds the rate: see
 * device_ns in <simnic.h>). */
static double dev_share[NR_SCEN][NR_DMA][MAX_REPS];
static double mpps_host[NR_SCEN][NR_DMA][MAX_REPS];
static uint64_t fwd_pkts[NR_SCEN][NR_DMA];
static double fwd_sec[NR_SCEN][NR_DMA];
static double fwd_host_sec[NR_SCEN][NR_DMA];	/* fwd_sec less the device's */
static unsigned int runs_ok, runs_failed;
static int ran_mode[NR_SCEN];	/* the xdp_return generation it ran */

/* ---- the XDP program --------------------------------------------------- */

static u32 redirect_prog(struct xdp_buff *xdp, void *arg)
{
	(void)xdp;
	return (u32)bpf_redirect_map(arg, 0, 0);
}

/* ---- logical CPU 1 ----------------------------------------------------- */

enum role { ROLE_IDLE, ROLE_FLOW, ROLE_TXC, ROLE_EXIT };

/*
 * The two threads meet through the mutex for everything but the run
 * itself: the main thread sets the role and bumps gen, CPU 1 runs it and
 * bumps done_gen. During a run the only shared word is stop.
 * Memory order:
 *   ST1  the main thread's WRITE_ONCE(stop, 1) is seen by CPU 1's
 *        READ_ONCE() in its loop; nothing is published with it (what CPU
 *        1 did is read after done_gen, under the mutex), so no barrier.
 *   RN1  CPU 1's WRITE_ONCE(running, 1) as it enters its loop, read by
 *        the main thread's READ_ONCE() before it starts the warm-up
 *        clock: only a time, nothing published with it either.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int gen, done_gen;
	enum role role;
	struct simnic *nic;
	int stop;
	int running;
	bool ready;	/* registered (or failed to: err) */
	int err;
} cpu1 = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

/*
 * After the stop, service until idle: simnic_quiesce() on the main
 * thread wants every other CPU that serviced the NICs idle (its last
 * simnic_service() returned 0). The main thread stopped the wire on its
 * own queue before it set stop, and this CPU's wire stops here, so no
 * new work is routed to this CPU once it is idle.
 */
static void flow_loop(struct simnic *nic, unsigned int q, const int *stop)
{
	while (!READ_ONCE(*stop)) {	/* ST1 */
		simnic_wire_rx(nic, q, (unsigned int)burst);
		simnic_service();
	}
	while (simnic_service() > 0)
		;
}

static void txc_loop(const int *stop)
{
	while (!READ_ONCE(*stop))	/* ST1 */
		simnic_service();
	while (simnic_service() > 0)
		;
}

static void *cpu1_main(void *arg)
{
	unsigned int seen = 0;
	int err;

	(void)arg;
	if (other_cpu != -1ULL && (err = pp_thread_pin((int)other_cpu)))
		fprintf(stderr, "xdp_redirect: cannot pin logical CPU 1 to host CPU %llu: %s\n",
			other_cpu, strerror(-err));
	err = pp_thread_register(1);
	pthread_mutex_lock(&cpu1.lock);
	cpu1.err = err < 0 ? err : 0;
	cpu1.ready = true;
	for (;;) {
		enum role role;

		cpu1.done_gen = seen;
		pthread_cond_broadcast(&cpu1.cond);
		while (cpu1.gen == seen)
			pthread_cond_wait(&cpu1.cond, &cpu1.lock);
		seen = cpu1.gen;
		role = cpu1.role;
		pthread_mutex_unlock(&cpu1.lock);
		if (role == ROLE_EXIT)
			break;
		WRITE_ONCE(cpu1.running, 1);	/* RN1 */
		if (role == ROLE_FLOW)
			flow_loop(cpu1.nic, 1, &cpu1.stop);
		else if (role == ROLE_TXC)
			txc_loop(&cpu1.stop);
		pthread_mutex_lock(&cpu1.lock);
	}
	pp_thread_unregister();
	return NULL;
}

static void cpu1_start(enum role role, struct simnic *nic)
{
	pthread_mutex_lock(&cpu1.lock);
	cpu1.role = role;
	cpu1.nic = nic;
	WRITE_ONCE(cpu1.stop, 0);
	WRITE_ONCE(cpu1.running, 0);
	cpu1.gen++;
	pthread_cond_broadcast(&cpu1.cond);
	pthread_mutex_unlock(&cpu1.lock);
}

static void cpu1_wait(void)
{
	pthread_mutex_lock(&cpu1.lock);
	while (cpu1.done_gen != cpu1.gen)
		pthread_cond_wait(&cpu1.cond, &cpu1.lock);
	pthread_mutex_unlock(&cpu1.lock);
}

/* ---- the end state ----------------------------------------------------- */

struct snapshot {
	struct pp_mem_stats mem;
	struct pp_mem_counters memc;
	struct pp_page_pool_misuse misuse;
	unsigned long dma_violations;
	unsigned long warns;
};

static void snap(struct snapshot *s)
{
	pp_mem_get_stats(&s->mem);
	pp_mem_get_counters(&s->memc);
	pp_page_pool_get_misuse(&s->misuse);
	s->dma_violations = pp_dma_violations(NULL);
	s->warns = pp_warn_count();
}

struct pools_left {
	unsigned int pools;
	u64 inflight;
};

static int count_pool(const struct pp_page_pool_info *info, void *arg)
{
	struct pools_left *p = arg;

	p->pools++;
	p->inflight += info->inflight;
	return 0;
}

static void pools_left(struct pools_left *p)
{
	p->pools = 0;
	p->inflight = 0;
	pp_page_pool_for_each(count_pool, p);
}

/* A pool whose pages all came home is freed by its destroy, or by the
 * deferred release soon after (its retry runs on the workqueue): wait a
 * little for those before calling what is left a leak. */
static void wait_pools_gone(struct pools_left *p)
{
	int i;

	for (i = 0; i < 200; i++) {
		rcu_barrier();
		pp_workqueue_run_all();
		pools_left(p);
		if (!p->pools)
			return;
		usleep(5000);
	}
}

static unsigned long misuse_sum(const struct pp_page_pool_misuse *m)
{
	return m->not_pp_page + m->foreign_pool + m->ref_underflow + m->concurrent_consumer +
	       m->double_put;
}

static unsigned long memc_sum(const struct pp_mem_counters *c)
{
	return c->double_free + c->bad_get + c->bad_free + c->freed_pp_page + c->out_of_arena +
	       c->reserved_pages;
}

/* Compare the end state with @before; print it; true if clean. @acct:
 * simnic_check_accounting()'s result and @why its reason. */
static bool check_end_state(const char *name, unsigned int rep, const struct snapshot *before,
			    int acct, const char *why)
{
	struct snapshot after;
	struct pools_left left;
	long lost;
	bool ok;

	wait_pools_gone(&left);
	/* The per-CPU lists count as free: nothing to drain. */
	snap(&after);
	lost = (long)before->mem.free_pages - (long)after.mem.free_pages;
	ok = !lost && !after.mem.pp_pages && !left.pools && !left.inflight && !acct &&
	     after.dma_violations == before->dma_violations &&
	     misuse_sum(&after.misuse) == misuse_sum(&before->misuse) &&
	     memc_sum(&after.memc) == memc_sum(&before->memc) && after.warns == before->warns;
	printf("xdp_redirect: end state %s rep %u: %s (lost pages %ld, pp pages %lu, DMA-API violations %lu%s, page_pools left %u inflight %llu, allocator misuse %lu, page_pool misuse %lu, WARNs %lu, accounting %s%s%s)\n",
	       name, rep + 1, ok ? "ok" : "FAILED", lost, after.mem.pp_pages,
	       after.dma_violations - before->dma_violations,
	       dma_debug ? "" : " (dma_debug=0: the driver's DMA-API use not checked, the device's faults are)",
	       left.pools,
	       (unsigned long long)left.inflight, memc_sum(&after.memc) - memc_sum(&before->memc),
	       misuse_sum(&after.misuse) - misuse_sum(&before->misuse),
	       after.warns - before->warns, acct ? "FAILED" : "ok", acct ? ": " : "",
	       acct ? why : "");
	return ok;
}

/* ---- one run ----------------------------------------------------------- */

static u64 device_ns(struct simnic *a, struct simnic *b)
{
	struct simnic_stats sa, sb;

	if (simnic_get_stats(a, &sa) || simnic_get_stats(b, &sb))
		return 0;
	return sa.device_ns + sb.device_ns;
}

static u64 tx_completed(struct simnic *tx)
{
	struct simnic_stats st;

	if (simnic_get_stats(tx, &st))
		return 0;
	return st.tx_completed;
}

static void config(struct simnic_config *c, const char *name, unsigned int d,
		   const struct scenario *s)
{
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->dma = dma_kinds[d];
	c->rx_mem = s->rx_mem;
	c->page_cache = cache;
	c->tx_bulk_return = bulk;
	c->nr_queues = s->flags & S_2FLOWS ? 2 : 1;
	c->rx_ring_size = (unsigned int)rx_ring;
	c->tx_ring_size = (unsigned int)tx_ring;
	c->pkt_len = 64;
	c->line_rate_pps = line_rate_pps;
	c->no_dma_debug = !dma_debug;
}

/* Run scenario @si on backend @d once: M packets/s, or -1 if it failed
 * (said on stdout). */
static double run_one(unsigned int si, unsigned int d, unsigned int rep)
{
	const struct scenario *s = &scenarios[si];
	struct simnic *rx = NULL, *tx = NULL, *nics[2];
	uint64_t t0 = 0, t1 = 0, warm_end, win_end, now;
	struct bpf_map *map = NULL;
	struct bpf_prog *prog = NULL;
	struct simnic_config cfg;
	struct snapshot before;
	struct simnic_stats rs, ts;
	struct pp_xdp_redirect_stats xr0 = { 0 }, xr1 = { 0 };
	struct page *leak = NULL;
	char name[64], why[256] = "";
	const char *stage = "simnic_create";
	u64 c0 = 0, c1 = 0, dv0 = 0, dv1 = 0;
	bool held = false, ok = true;
	enum role role;
	int err, acct = 0;
	double r = -1;

	snprintf(name, sizeof(name), "xdp_redirect_%s-%s", s->key, dma_names[d]);
	/* (f) needs the lookup generation (main() left it out otherwise);
	 * the others run the direct one, or the only one a lookup-only
	 * library has (-EOPNOTSUPP, and the line says which ran). */
	err = pp_xdp_set_return_mode(s->flags & S_LOOKUP ? PP_XDP_RETURN_LOOKUP :
				     PP_XDP_RETURN_DIRECT);
	if (err < 0 && (err != -EOPNOTSUPP || (s->flags & S_LOOKUP))) {
		printf("xdp_redirect: %s: cannot select its xdp_return generation: %d\n", name,
		       err);
		runs_failed++;
		return -1;
	}
	ran_mode[si] = pp_xdp_get_return_mode();
	snap(&before);
	pp_xdp_get_redirect_stats(&xr0);

	config(&cfg, "xrx", d, s);
	rx = simnic_create(&cfg);
	if (IS_ERR(rx)) {
		err = (int)PTR_ERR(rx);
		rx = NULL;
		goto fail;
	}
	config(&cfg, "xtx", d, s);
	tx = simnic_create(&cfg);
	if (IS_ERR(tx)) {
		err = (int)PTR_ERR(tx);
		tx = NULL;
		goto fail;
	}
	stage = "the devmap";
	map = pp_devmap_create(1);
	if (IS_ERR(map)) {
		err = (int)PTR_ERR(map);
		map = NULL;
		goto fail;
	}
	if ((err = pp_devmap_update(map, 0, simnic_netdev(tx)->ifindex)))
		goto fail;
	stage = "the XDP program";
	prog = pp_xdp_prog_create(redirect_prog, map, "redirect_map");
	if (IS_ERR(prog)) {
		err = (int)PTR_ERR(prog);
		prog = NULL;
		goto fail;
	}
	stage = "simnic_set_xdp";
	/* Attached while down: attaching to a running NIC restarts its
	 * queues (the pools' DMA direction changes), as mlx5 does. */
	if ((err = simnic_set_xdp(rx, prog)))
		goto fail;
	stage = "simnic_open";
	if ((err = simnic_open(rx)) || (err = simnic_open(tx)))
		goto fail;
	stage = "the IRQ affinity";
	if ((s->flags & S_XCPU) &&
	    (err = simnic_set_irq_affinity(tx, 0, SIMNIC_IRQ_TXC, 1)))
		goto fail;
	if (fault == 2) {
		stage = "simnic_pp_hold";
		if ((err = simnic_pp_hold(rx, true)))
			goto fail;
		held = true;
	}

	role = s->flags & S_2FLOWS ? ROLE_FLOW : s->flags & S_XCPU ? ROLE_TXC : ROLE_IDLE;
	cpu1_start(role, rx);
	/* The warm-up starts when CPU 1 runs: on a busy machine its wake-up
	 * can take longer than a short warm-up, and a window it misses
	 * measures nothing. (At most a second: a CPU 1 that does not come
	 * shows as a low figure, not a hang.) */
	now = time_bench_tsc_start();
	warm_end = now + tsc_hz;
	while (role != ROLE_IDLE && !READ_ONCE(cpu1.running) &&	/* RN1 */
	       time_bench_tsc_start() < warm_end)
		sched_yield();
	now = time_bench_tsc_start();
	warm_end = now + warmup_ms * tsc_hz / 1000;
	win_end = 0;
	for (;;) {
		simnic_wire_rx(rx, 0, (unsigned int)burst);
		simnic_service();
		now = time_bench_tsc_start();
		if (!win_end && now >= warm_end) {
			c0 = tx_completed(tx);
			dv0 = device_ns(rx, tx);
			t0 = time_bench_tsc_start();
			win_end = t0 + window_ms * tsc_hz / 1000;
		} else if (win_end && now >= win_end) {
			t1 = time_bench_tsc_stop();
			c1 = tx_completed(tx);
			dv1 = device_ns(rx, tx);
			break;
		}
	}
	WRITE_ONCE(cpu1.stop, 1);	/* ST1 */
	cpu1_wait();

	nics[0] = rx;
	nics[1] = tx;
	stage = "simnic_quiesce";
	if ((err = simnic_quiesce(nics, 2)))
		goto fail;
	acct = simnic_check_accounting(rx, tx, why, sizeof(why));
	simnic_get_stats(rx, &rs);
	simnic_get_stats(tx, &ts);
	pp_xdp_get_redirect_stats(&xr1);
	r = (double)(c1 - c0) * (double)tsc_hz / (double)(t1 - t0) / 1e6;
	{
		/* The device ran on the flow CPUs (one per flow): its share of
		 * their time, and the rate the host's part alone would give. */
		double win = (double)(t1 - t0) / (double)tsc_hz;
		double dev = (double)(dv1 - dv0) / 1e9 / (s->flags & S_2FLOWS ? 2 : 1);

		dev_share[si][d][rep] = win > 0 ? dev / win : 0;
		mpps_host[si][d][rep] = win > dev ? (double)(c1 - c0) / (win - dev) / 1e6 : 0;
		fwd_host_sec[si][d] += win > dev ? win - dev : 0;
	}
	fwd_pkts[si][d] += c1 - c0;
	fwd_sec[si][d] += (double)(t1 - t0) / (double)tsc_hz;
	printf("xdp_redirect: %s rep %u: %.3f Mpps (%llu in %.6f s) - rx packets:%llu missed:%llu dma_faults:%llu - xdp redirect:%llu drop:%llu aborted:%llu redirect_errors:%llu - tx xmit:%llu refused:%llu completed:%llu dma_faults:%llu - cache hits:%llu misses:%llu - ndo_xdp_xmit frames/flush:%.1f drops:%lu\n",
	       name, rep + 1, r, (unsigned long long)(c1 - c0),
	       (double)(t1 - t0) / (double)tsc_hz,
	       (unsigned long long)rs.rx_packets, (unsigned long long)rs.rx_missed,
	       (unsigned long long)rs.rx_dma_faults, (unsigned long long)rs.xdp_redirect,
	       (unsigned long long)rs.xdp_drop, (unsigned long long)rs.xdp_aborted,
	       (unsigned long long)rs.redirect_errors, (unsigned long long)ts.tx_xmit,
	       (unsigned long long)ts.tx_refused, (unsigned long long)ts.tx_completed,
	       (unsigned long long)ts.tx_dma_faults, (unsigned long long)rs.cache_hits,
	       (unsigned long long)rs.cache_misses,
	       xr1.flushes > xr0.flushes ? (double)(xr1.xmit_frames - xr0.xmit_frames) /
	       (double)(xr1.flushes - xr0.flushes) : 0.0, xr1.xmit_drops - xr0.xmit_drops);
	printf("xdp_redirect: %s rep %u: device model %.0f %% of the flow CPU time; without it %.3f Mpps\n",
	       name, rep + 1, 100 * dev_share[si][d][rep], mpps_host[si][d][rep]);
	if (fault == 1)
		leak = alloc_page(GFP_KERNEL);
	if (fault == 3) {
		struct device *dev = simnic_dma_device(rx);
		struct page *page = alloc_page(GFP_KERNEL);
		dma_addr_t addr;

		if (page) {
			addr = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_FROM_DEVICE);
			if (!dma_mapping_error(dev, addr)) {
				dma_unmap_page(dev, addr, PAGE_SIZE, DMA_FROM_DEVICE);
				dma_unmap_page(dev, addr, PAGE_SIZE, DMA_FROM_DEVICE);
			}
			__free_page(page);
		}
	}
	err = 0;
fail:
	if (err) {
		printf("xdp_redirect: %s rep %u: %s failed: %d (%s)\n", name, rep + 1, stage, err,
		       strerror(-err));
		ok = false;
	}
	/* Down first: the program is detached from a stopped NIC, so its
	 * queues are not restarted for it. A NIC never opened says
	 * -ENETDOWN, which is fine. */
	if (rx)
		simnic_stop(rx);
	if (tx)
		simnic_stop(tx);
	if (rx)
		simnic_set_xdp(rx, NULL);
	pp_xdp_prog_destroy(prog);
	pp_devmap_destroy(map);
	if (tx)
		simnic_destroy(tx);
	if (rx)
		simnic_destroy(rx);
	if (held) {
		/* The hold kept the RX pool (and what is left of the NIC)
		 * alive past the destroy: check that state, then let go. */
		ok = check_end_state(name, rep, &before, acct, why) && ok;
		simnic_pp_hold(rx, false);
		wait_pools_gone(&(struct pools_left){ 0 });
	} else {
		ok = check_end_state(name, rep, &before, acct, why) && ok;
	}
	if (leak)
		__free_page(leak);
	if (!ok) {
		runs_failed++;
		return -1;
	}
	runs_ok++;
	return r;
}

/* ---- output ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	double tmp[MAX_REPS];

	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* Scenario @si on backend @d ran cleanly in every repetition. */
static bool measured(unsigned int si, unsigned int d)
{
	unsigned int i;

	for (i = 0; i < reps; i++)
		if (mpps[si][d][i] < 0)
			return false;
	return true;
}

static void print_line(unsigned int si, unsigned int d)
{
	const struct scenario *s = &scenarios[si];
	unsigned int i;

	printf("Type:xdp_redirect_%s-%s Mpps: %.3f (median of %llu:", s->key, dma_names[d],
	       median(mpps[si][d], (unsigned int)reps), reps);
	for (i = 0; i < reps; i++)
		printf(" %.3f", mpps[si][d][i]);
	printf("; forwarded:%llu in %.9f sec, flows:%d txc:%s return:%s rx_mem:%s cache:%s bulk:%s line_rate:%llu burst:%llu)\n",
	       (unsigned long long)fwd_pkts[si][d], fwd_sec[si][d],
	       s->flags & S_2FLOWS ? 2 : 1, s->flags & S_XCPU ? "other_cpu" : "same_cpu",
	       ran_mode[si] == PP_XDP_RETURN_LOOKUP ? "lookup" : "direct",
	       s->rx_mem == SIMNIC_RX_PAGE_ALLOC ? "page_alloc" :
	       s->rx_mem == SIMNIC_RX_PAGE_POOL_NO_RECYCLE ? "page_pool_no_recycle" : "page_pool",
	       cache ? "on" : "off", bulk ? "on" : "off", line_rate_pps, burst);
	/* The same with the device model's time taken out (design
	 * <backend>_host): what bounds the line above. */
	printf("Type:xdp_redirect_%s-%s_host Mpps: %.3f (median of %llu:", s->key, dma_names[d],
	       median(mpps_host[si][d], (unsigned int)reps), reps);
	for (i = 0; i < reps; i++)
		printf(" %.3f", mpps_host[si][d][i]);
	printf("; forwarded:%llu in %.9f sec, device_share:%.3f)\n",
	       (unsigned long long)fwd_pkts[si][d], fwd_host_sec[si][d],
	       median(dev_share[si][d], (unsigned int)reps));
}

static void print_table(void)
{
	unsigned int si, d, i, k;

	printf("xdp_redirect: M packets/s forwarded, median of %llu (the 2018 mlx5 series on hardware, 13 Mpps line rate%s):\n",
	       reps, line_rate_pps ? "" : "; ours: no line-rate cap");
	printf("xdp_redirect:   %-24s %10s %10s %10s\n", "scenario", "iommu", "direct", "2018");
	for (si = 0; si < NR_SCEN; si++) {
		const struct scenario *s = &scenarios[si];
		char cell[NR_DMA][16], ref[16] = "-";

		if (!(scen_mask & (1ULL << si)))
			continue;
		for (d = 0; d < NR_DMA; d++) {
			if ((dma_mask & (1ULL << d)) && measured(si, d))
				snprintf(cell[d], sizeof(cell[d]), "%.2f",
					 median(mpps[si][d], (unsigned int)reps));
			else
				snprintf(cell[d], sizeof(cell[d]), "-");
		}
		if (s->mpps_2018)
			snprintf(ref, sizeof(ref), "%.0f", s->mpps_2018);
		printf("xdp_redirect:   (%c) %-20s %10s %10s %10s\n", s->letter, s->key, cell[0],
		       cell[1], ref);
	}
	printf("xdp_redirect: the device model's share of the flow CPUs' time (it does in software what the NIC does beside the host) and the rate without it, medians:\n");
	printf("xdp_redirect:   %-24s %16s %16s\n", "scenario", "iommu", "direct");
	for (si = 0; si < NR_SCEN; si++) {
		const struct scenario *s = &scenarios[si];
		char cell[NR_DMA][32];

		if (!(scen_mask & (1ULL << si)))
			continue;
		for (d = 0; d < NR_DMA; d++) {
			if ((dma_mask & (1ULL << d)) && measured(si, d))
				snprintf(cell[d], sizeof(cell[d]), "%3.0f %% %6.2f",
					 100 * median(dev_share[si][d], (unsigned int)reps),
					 median(mpps_host[si][d], (unsigned int)reps));
			else
				snprintf(cell[d], sizeof(cell[d]), "-");
		}
		printf("xdp_redirect:   (%c) %-20s %16s %16s\n", s->letter, s->key, cell[0], cell[1]);
	}
	printf("xdp_redirect: ratios (median over the repetitions of the ratio within each; targets reported, not asserted):\n");
	for (k = 0; k < sizeof(ratios) / sizeof(ratios[0]); k++) {
		const struct ratio *q = &ratios[k];

		for (d = 0; d < NR_DMA; d++) {
			double v[MAX_REPS], m;
			bool judged = q->target && (q->judged_dma & (1U << d));

			if (!(dma_mask & (1ULL << d)) || !(scen_mask & (1ULL << q->num)) ||
			    !(scen_mask & (1ULL << q->den)) || !measured(q->num, d) ||
			    !measured(q->den, d))
				continue;
			for (i = 0; i < reps; i++)
				v[i] = mpps[q->den][d][i] > 0 ?
				       mpps[q->num][d][i] / mpps[q->den][d][i] : 0;
			m = median(v, (unsigned int)reps);
			if (q->target)
				printf("xdp_redirect:   %-6s %s: %s / %s = %.2fx, target >= %.2fx: %s\n",
				       dma_names[d], q->what, scenarios[q->num].key,
				       scenarios[q->den].key, m, q->target,
				       !judged ? "reported (judged on the IOMMU backend)" :
				       m >= q->target ? "met" : "MISSED");
			else
				printf("xdp_redirect:   %-6s %s: %s / %s = %.2fx (2018: 4 / 6 = 0.67x)\n",
				       dma_names[d], q->what, scenarios[q->num].key,
				       scenarios[q->den].key, m);
		}
	}
}

/* ---- main -------------------------------------------------------------- */

/* The next host CPU after @cpu that the process may use; @cpu itself if
 * it is the only one. */
static int next_host_cpu(int cpu)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set))
		return cpu;
	for (i = 1; i < CPU_SETSIZE; i++)
		if (CPU_ISSET((cpu + i) % CPU_SETSIZE, &set))
			return (cpu + i) % CPU_SETSIZE;
	return cpu;
}

int main(int argc, char **argv)
{
	const struct bench_param params[] = {
		{ "reps", &reps, "repetitions of every scenario (1..32)" },
		{ "warmup_ms", &warmup_ms, "warm-up before each timed window, ms" },
		{ "window_ms", &window_ms, "timed window per scenario, ms (1..60000)" },
		{ "scenarios", &scen_mask, "bitmask: 0 alloc, 1 pool_norecycle, 2 pool, 3 pool_lookup, 4 pool_xcpu, 5 pool_xcpu_lookup, 6 alloc_2flows, 7 pool_2flows" },
		{ "dma", &dma_mask, "bitmask: 0 IOMMU, 1 direct" },
		{ "line_rate_pps", &line_rate_pps, "wire rate cap per queue, packets/s (0: none)" },
		{ "burst", &burst, "packets per simnic_wire_rx() (1..1024)" },
		{ "cache", &cache, "the RX driver's page cache (0|1)" },
		{ "bulk", &bulk, "TX completion through xdp_return_frame_bulk (0|1)" },
		{ "rx_ring", &rx_ring, "RX ring size (0: the driver's)" },
		{ "tx_ring", &tx_ring, "TX ring size (0: the driver's)" },
		{ "table", &table, "lookup generation's table: -1 the build's, 0 id, 1 rculfhash" },
		{ "rx_cpu", &rx_cpu, "host CPU of logical CPU 0 (RX)" },
		{ "other_cpu", &other_cpu, "host CPU of logical CPU 1 (-1: the next one)" },
		{ "dma_debug", &dma_debug, "DMA-API debug on both NICs (0|1; 0: timing as a kernel without CONFIG_DMA_API_DEBUG, driver-side DMA-API misuse not checked)" },
		{ "fault", &fault, "self-test: 1 keep a page, 2 hold a pool page, 3 unmap a mapping twice" },
	};
	bool have_lookup, have_direct;
	unsigned int rep, si, d;
	pthread_t thr;
	int mode, err;

	bench_parse_params(argc, argv, params, (int)(sizeof(params) / sizeof(params[0])));
	if (reps < 1 || reps > MAX_REPS || window_ms < 1 || window_ms > 60000 ||
	    warmup_ms > 60000 || burst < 1 || burst > 1024 || cache > 1 || bulk > 1 || dma_debug > 1 ||
	    fault > 3 || !scen_mask || scen_mask >> NR_SCEN || !dma_mask || dma_mask > 3 ||
	    (table != -1ULL && table > 1)) {
		fprintf(stderr, "bench_xdp_redirect: a parameter is out of range (see -h)\n");
		return 2;
	}
	if (other_cpu == -1ULL)
		other_cpu = (unsigned long long)next_host_cpu((int)rx_cpu);
	bench_init((int)rx_cpu, 0, ARENA_MB);
	tsc_hz = time_bench_tsc_hz();
	pr_info("bench_xdp_redirect: Loaded (TSC %llu Hz)\n", (unsigned long long)tsc_hz);

	if (table != -1ULL && (err = pp_xdp_set_lookup_table((int)table)) < 0) {
		fprintf(stderr, "table=%llu: %s\n", table, err == -EOPNOTSUPP ?
			"not in this build (meson -Dxdp_table or -Ddesigns=all)" : strerror(-err));
		return err == -EOPNOTSUPP ? 77 : 1;
	}
	/* Which xdp_return generations the library has: set each, then put
	 * back the one it started with. */
	mode = pp_xdp_get_return_mode();
	have_direct = pp_xdp_set_return_mode(PP_XDP_RETURN_DIRECT) >= 0;
	have_lookup = pp_xdp_set_return_mode(PP_XDP_RETURN_LOOKUP) >= 0;
	pp_xdp_set_return_mode(mode);
	if (!(have_direct && have_lookup)) {
		for (si = 0; si < NR_SCEN; si++) {
			if ((scenarios[si].flags & S_LOOKUP) && (scen_mask & (1ULL << si))) {
				printf("xdp_redirect: not in this build: xdp_redirect_%s (the lookup xdp_return beside the direct one needs meson -Ddesigns=all)\n",
				       scenarios[si].key);
				scen_mask &= ~(1ULL << si);
			}
		}
	}
	pr_info("bench_xdp_redirect: logical CPU 0 on host CPU %llu, CPU 1 on host CPU %llu; reps:%llu warmup_ms:%llu window_ms:%llu burst:%llu cache:%llu bulk:%llu line_rate_pps:%llu dma_debug:%llu xdp_return generations:%s%s\n",
		rx_cpu, other_cpu, reps, warmup_ms, window_ms, burst, cache, bulk, line_rate_pps, dma_debug,
		have_direct ? " direct" : "", have_lookup ? " lookup" : "");
	if (fault)
		pr_info("bench_xdp_redirect: fault=%llu: every run must end in a FAILED end state\n",
			fault);

	if (pthread_create(&thr, NULL, cpu1_main, NULL)) {
		fprintf(stderr, "cannot start logical CPU 1\n");
		return 1;
	}
	pthread_mutex_lock(&cpu1.lock);
	while (!cpu1.ready)
		pthread_cond_wait(&cpu1.cond, &cpu1.lock);
	err = cpu1.err;
	pthread_mutex_unlock(&cpu1.lock);
	if (err) {
		fprintf(stderr, "cannot register logical CPU 1: %s\n", strerror(-err));
		return 1;
	}

	for (rep = 0; rep < reps; rep++)
		for (si = 0; si < NR_SCEN; si++)
			for (d = 0; d < NR_DMA; d++)
				mpps[si][d][rep] = (scen_mask & (1ULL << si)) &&
						   (dma_mask & (1ULL << d)) ?
						   run_one(si, d, rep) : -1;
	pp_xdp_set_return_mode(mode);

	cpu1_start(ROLE_EXIT, NULL);
	pthread_join(thr, NULL);

	for (si = 0; si < NR_SCEN; si++)
		for (d = 0; d < NR_DMA; d++)
			if ((scen_mask & (1ULL << si)) && (dma_mask & (1ULL << d)) &&
			    measured(si, d))
				print_line(si, d);
	print_table();
	printf("xdp_redirect: end state: %u runs clean, %u failed\n", runs_ok, runs_failed);
	return runs_failed ? 1 : 0;
}
