/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The long stress program of the reliability suite: drivers and
 * the stack hammering page_pool from several threads, with pools destroyed
 * while their pages are out, devices unbound and rebound under them, and
 * faults injected, for a given time or operation count; then everything is
 * returned and the invariant checker (tests/reliability/invariants.h)
 * proves nothing was lost, double-freed or touched after unbind.
 *
 * Threads:
 *   owner i     a driver: one pool (PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
 *               device i % devices) with its own NAPI; each NAPI poll
 *               allocates a burst of pages and fragments and recycles them
 *               directly, keeps some on its "RX ring" (returned later in
 *               bulk), and hands the rest to returner threads. Every
 *               destroy_every polls (randomised) it destroys the pool with
 *               pages out and creates a new one; its RX-ring pages go back
 *               before or after the destroy.
 *   returner j  the stack on another CPU: holds what it is handed for a
 *               while, then returns it one by one, in bulks of up to 16
 *               (mixed pools), or after taking an extra page reference.
 *               With the XDP layer built in, owners also register their
 *               pool as an RX queue's memory model and turn some pages into
 *               XDP frames (XDP_REDIRECT); returners give those back with
 *               xdp_return_frame() or xdp_return_frame_bulk(), and the
 *               controller flips the return path (pool from the page, or
 *               the mem-id lookup) now and then.
 *   main        the controller: every unbind_ms (randomised) it performs
 *               driver remove on a device (its owners destroy their pools
 *               and wait), unbinds it, lets returns arrive, rebinds it and
 *               lets the owners probe again; with faults=1 it arms and
 *               disarms fault injection (page allocator, DMA map, DMA
 *               tracking, kmalloc: every point these pools reach); every
 *               100 ms it checks that no WARN, no double free and no
 *               DMA-API violation happened so far.
 *
 * Usage: stress [duration=S] [ops=N] [owners=2] [returners=2] [devices=2]
 *               [destroy_every=2000] [unbind_ms=50] [faults=1]
 *               [tracking=index|items|off] [seed=N] [progress=S]
 * tracking= names a DMA tracking design the build has (off: meson
 * -Ddesigns=all); by default the pools get the build's.
 * Stops at whichever of duration (default 10 s) and ops comes first
 * (ops=N alone: no time limit). Prints one "stress: ..." line of figures
 * and the checker's line; exits 1 on any violation.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bottom_half.h>
#include <linux/device.h>
#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/processor.h>
#include <linux/ptr_ring.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>
#include <pagepool.h>

#include "invariants.h"
#include "../common/test_designs.h"

#ifdef PP_STRESS_HAVE_XDP
#include <linux/rcupdate.h>
#include <net/xdp.h>
#include <pagepool/xdp.h>
#endif

/* The pool a page belongs to. page_pool_to_pp() is pagepool's (Yunsheng
 * Lin's API, right under every DMA-tracking design); a kernel core build
 * (docs/KERNEL_CORE.md) reads page->pp, as the kernel's own code does. */
static inline struct page_pool *pp_stress_pool_of(struct page *page)
{
#ifdef CONFIG_PAGEPOOL_KERNEL_CORE
	return page->pp;
#else
	return page_pool_to_pp(page);
#endif
}

/* A bulk return of pages of any pools: page_pool_put_netmem_bulk()
 * (v6.14). Kernel trees before it have page_pool_put_page_bulk(), one
 * pool per call: there each run of pages of one pool is one bulk. */
static void pp_stress_put_bulk(netmem_ref *data, u32 n)
{
#ifdef CONFIG_PAGEPOOL_KERNEL_CORE
	void *addr[64];
	u32 i = 0;

	while (i < n) {
		struct page_pool *pool = netmem_to_page(data[i])->pp;
		int k = 0;

		while (i < n && k < (int)ARRAY_SIZE(addr) && netmem_to_page(data[i])->pp == pool)
			addr[k++] = page_address(netmem_to_page(data[i++]));
		page_pool_put_page_bulk(pool, addr, k);
	}
#else
	page_pool_put_netmem_bulk(data, n);
#endif
}

#define MAX_OWNERS	8
#define MAX_RETURNERS	8
#define MAX_DEVS	4
#define BURST		32	/* pages per NAPI poll */
#define RX_RING		64	/* pages an owner keeps between polls */
#define QUEUE		512	/* handoff queue per returner */
#define HOLD		256	/* pages a returner holds before returning */
#define BULK		16	/* XDP_BULK_QUEUE_SIZE */
#define FRAG_BIT	0x2UL	/* tag on a handed-off pointer: a fragment */
#define XDPF_BIT	0x4UL	/* ... an XDP frame (pointer into the page) */
#define TAGS		(FRAG_BIT | XDPF_BIT)

struct counters {
	unsigned long allocs, alloc_fail, returns, bulk_returns, frag_returns;
	unsigned long ref_returns, destroys, create_fail, late_returns;
	unsigned long xdp_frames;
};

struct owner {
	int idx, dev;
	pthread_t thread;
	struct page_pool *pool;
	struct napi_struct napi;
#ifdef PP_STRESS_HAVE_XDP
	struct xdp_rxq_info rxq;
	bool xdp_reg;
#endif
	unsigned long rx[RX_RING];	/* tagged like handed-off pages */
	int nr_rx;
	unsigned long long rng;
	unsigned long polls_to_destroy;
	unsigned long acked;		/* unbind generation acknowledged */
	struct counters c;		/* this thread's */
	struct counters pub;		/* published copy, atomics */
};

struct returner {
	int idx;
	pthread_t thread;
	struct ptr_ring q;
	unsigned long hold[HOLD];
	int nr_hold;
	unsigned long long rng;
	struct counters c, pub;
};

static struct {
	double duration;
	unsigned long ops, destroy_every, unbind_ms, progress;
	int owners, returners, devices, faults, tracking;
	unsigned long long seed;
} cfg = {
	.duration = -1, .destroy_every = 2000, .unbind_ms = 50, .owners = 2,
	.returners = 2, .devices = 2, .faults = 1, .tracking = -1,
	.seed = 1,
};

static struct owner owners[MAX_OWNERS];
static struct returner returners[MAX_RETURNERS];
static struct device *devs[MAX_DEVS];
static struct net_device *netdev;	/* the RX queues XDP registers */
static struct ppinv inv;

static int stop_owners, stop_returners;
static long bad_create_err;	/* an error page_pool_create() must not give */
static unsigned long unbind_gen[MAX_DEVS];	/* requested */
static unsigned long rebind_gen[MAX_DEVS];	/* done */
static unsigned long unbinds, fault_windows;

/* The library's messages, kept for a failure report. */
#define LOG_LINES	32
#define LOG_LEN		240
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_ring[LOG_LINES][LOG_LEN];
static unsigned int log_next;

static int capture(int level, const char *fmt, va_list ap)
{
	(void)level;
	pthread_mutex_lock(&log_lock);
	vsnprintf(log_ring[log_next++ % LOG_LINES], LOG_LEN, fmt, ap);
	pthread_mutex_unlock(&log_lock);
	return 0;
}

static void dump_log(void)
{
	unsigned int i, start;

	pthread_mutex_lock(&log_lock);
	start = log_next > LOG_LINES ? log_next - LOG_LINES : 0;
	fprintf(stderr, "--- last library messages:\n");
	for (i = start; i < log_next; i++)
		fprintf(stderr, "  %s", log_ring[i % LOG_LINES]);
	pthread_mutex_unlock(&log_lock);
}

static unsigned long long rnd(unsigned long long *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define COUNTER_FIELDS(X) X(allocs) X(alloc_fail) X(returns) X(bulk_returns) \
	X(frag_returns) X(ref_returns) X(destroys) X(create_fail) X(late_returns) \
	X(xdp_frames)

/* The owning thread publishes its counters; the controller reads them. */
static void publish(struct counters *pub, const struct counters *c)
{
#define X(f) __atomic_store_n(&pub->f, c->f, __ATOMIC_RELAXED);
	COUNTER_FIELDS(X)
#undef X
}

static void sum_counters(struct counters *sum)
{
	int i;

	memset(sum, 0, sizeof(*sum));
#define X(f) sum->f += __atomic_load_n(&p->f, __ATOMIC_RELAXED);
	for (i = 0; i < cfg.owners; i++) {
		struct counters *p = &owners[i].pub;

		COUNTER_FIELDS(X)
	}
	for (i = 0; i < cfg.returners; i++) {
		struct counters *p = &returners[i].pub;

		COUNTER_FIELDS(X)
	}
#undef X
}

static unsigned long total_ops(const struct counters *s)
{
	return s->allocs + s->returns;
}

/* A page_pool reference back, from any thread, naming the pool the page
 * says it belongs to (the pool may be destroyed and waiting). */
static void return_one(struct counters *c, unsigned long tagged)
{
	struct page *page = (struct page *)(tagged & ~TAGS);

	c->returns++;
#ifdef PP_STRESS_HAVE_XDP
	if (tagged & XDPF_BIT) {
		/* TX completion on another CPU: the frame names its memory. */
		xdp_return_frame((struct xdp_frame *)page_address(page));
		c->xdp_frames++;
		return;
	}
#endif
	page_pool_put_page(pp_stress_pool_of(page), page, -1, false);
	if (tagged & FRAG_BIT)
		c->frag_returns++;
}

#ifdef PP_STRESS_HAVE_XDP
/* XDP_REDIRECT: the page becomes a frame stored in its own headroom. NULL
 * if the pool has no XDP memory model. */
static unsigned long owner_xdp_frame(struct owner *o, struct page *page)
{
	struct xdp_frame *xdpf;
	struct xdp_buff xdp;

	if (!o->xdp_reg)
		return 0;
	xdp_init_buff(&xdp, PAGE_SIZE, &o->rxq);
	xdp_prepare_buff(&xdp, page_address(page), 256, 64, false);
	xdpf = xdp_convert_buff_to_frame(&xdp);
	return xdpf ? (unsigned long)page | XDPF_BIT : 0;
}

static void owner_xdp_reg(struct owner *o)
{
	memset(&o->rxq, 0, sizeof(o->rxq));
	o->xdp_reg = !xdp_rxq_info_reg(&o->rxq, netdev, (u32)o->idx, o->napi.napi_id) &&
		     !xdp_rxq_info_reg_mem_model(&o->rxq, MEM_TYPE_PAGE_POOL, o->pool);
	if (!o->xdp_reg)
		xdp_rxq_info_unreg(&o->rxq);	/* (a fault: run without XDP) */
}

static void owner_xdp_unreg(struct owner *o)
{
	if (o->xdp_reg)
		xdp_rxq_info_unreg(&o->rxq);
	o->xdp_reg = false;
}
#endif

/* Owners. */

static int owner_poll(struct napi_struct *napi, int budget);

static void owner_create(struct owner *o)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = 256 << (o->idx % 3),
		.nid = NUMA_NO_NODE,
		.dev = devs[o->dev],
		.dma_dir = DMA_FROM_DEVICE,
		.max_len = PAGE_SIZE,
		.napi = &o->napi,
	};
	struct page_pool *pool;

	memset(&o->napi, 0, sizeof(o->napi));
	netif_napi_add(NULL, &o->napi, owner_poll);
	napi_enable(&o->napi);
	pool = page_pool_create(&pp);
	if (IS_ERR(pool)) {
		/* Only an injected fault may refuse a valid pool (reported
		 * by the controller: the checker is its alone). */
		if (PTR_ERR(pool) != -ENOMEM || !cfg.faults)
			__atomic_store_n(&bad_create_err, PTR_ERR(pool), __ATOMIC_RELAXED);
		o->c.create_fail++;
		napi_disable(&o->napi);
		netif_napi_del(&o->napi);
		o->pool = NULL;
		return;
	}
	o->pool = pool;
	o->polls_to_destroy = cfg.destroy_every / 2 + rnd(&o->rng) % (cfg.destroy_every + 1);
#ifdef PP_STRESS_HAVE_XDP
	owner_xdp_reg(o);
#endif
}

static void flush_rx(struct owner *o, bool bulk)
{
	netmem_ref data[RX_RING];
	int i, n = o->nr_rx;

	if (!n)
		return;
	if (bulk) {
		for (i = 0; i < n; i++)
			data[i] = page_to_netmem((struct page *)(o->rx[i] & ~TAGS));
		pp_stress_put_bulk(data, (u32)n);
		o->c.bulk_returns += (unsigned long)n;
		o->c.returns += (unsigned long)n;
	} else {
		for (i = 0; i < n; i++)
			return_one(&o->c, o->rx[i]);
	}
	o->nr_rx = 0;
}

/* Driver teardown of the pool, with pages out at the returners; the RX
 * ring goes back before the destroy or (late) after it. */
static void owner_destroy(struct owner *o)
{
	bool late = rnd(&o->rng) & 1;

	if (!o->pool)
		return;
	if (!late)
		flush_rx(o, false);
	napi_disable(&o->napi);
#ifdef PP_STRESS_HAVE_XDP
	/* Half the time the rxq goes first (the last user is the destroy),
	 * half the time after (the last user is the unregistration). */
	if (late)
		owner_xdp_unreg(o);
	page_pool_destroy(o->pool);
	owner_xdp_unreg(o);
#else
	page_pool_destroy(o->pool);
#endif
	netif_napi_del(&o->napi);
	o->pool = NULL;
	o->c.destroys++;
	if (late) {
		o->c.late_returns += (unsigned long)o->nr_rx;
		flush_rx(o, false);
	}
}

static int owner_poll(struct napi_struct *napi, int budget)
{
	struct owner *o = container_of(napi, struct owner, napi);
	int i, work = 0;

	for (i = 0; i < BURST; i++) {
		unsigned long long r = rnd(&o->rng);
		bool frag = (r & 7) < 2;
		unsigned int off, act = (unsigned int)(r >> 8) % 10;
		struct page *page;

		if (frag)
			page = page_pool_dev_alloc_frag(o->pool, &off, r & 8 ? 1024 : 2048);
		else
			page = page_pool_dev_alloc_pages(o->pool);
		if (!page) {
			o->c.alloc_fail++;
			continue;
		}
		o->c.allocs++;
		work++;
		if (act < 5 && cfg.returners) {
			struct returner *ret = &returners[(r >> 16) % (unsigned int)cfg.returners];
			unsigned long tagged = (unsigned long)page | (frag ? FRAG_BIT : 0);

#ifdef PP_STRESS_HAVE_XDP
			if (!frag && act == 0) {
				unsigned long f = owner_xdp_frame(o, page);

				tagged = f ? f : tagged;
			}
#endif
			if (!ptr_ring_produce(&ret->q, (void *)tagged))
				continue;
			if (tagged & XDPF_BIT) {
				/* Queue full: XDP_DROP after all. */
				return_one(&o->c, tagged);
				continue;
			}
		}
		if (act < 8) {
			/* XDP_DROP: straight back into the cache. */
			page_pool_put_page(o->pool, page, -1, true);
			o->c.returns++;
			o->c.frag_returns += frag;
		} else if (o->nr_rx < RX_RING) {
			o->rx[o->nr_rx++] = (unsigned long)page | (frag ? FRAG_BIT : 0);
		} else {
			return_one(&o->c, (unsigned long)page | (frag ? FRAG_BIT : 0));
		}
	}
	if (o->nr_rx > RX_RING / 2 && (rnd(&o->rng) & 3) == 0)
		flush_rx(o, true);	/* napi-local: direct */
	napi_complete_done(napi, work);
	return min(work, budget - 1);
}

static void owner_unbind_ack(struct owner *o)
{
	unsigned long want = __atomic_load_n(&unbind_gen[o->dev], __ATOMIC_ACQUIRE);

	if (want == o->acked)
		return;
	/* Driver remove: the pool goes, then wait for the probe. */
	owner_destroy(o);
	__atomic_store_n(&o->acked, want, __ATOMIC_RELEASE);
	while (__atomic_load_n(&rebind_gen[o->dev], __ATOMIC_ACQUIRE) != want)
		usleep(100);
}

static void *owner_main(void *arg)
{
	struct owner *o = arg;

	if (pp_thread_register(-1) < 0)
		abort();
	owner_create(o);
	while (!__atomic_load_n(&stop_owners, __ATOMIC_ACQUIRE)) {
		owner_unbind_ack(o);
		if (!o->pool) {
			owner_create(o);
			if (!o->pool) {
				sched_yield();
				continue;
			}
		}
		napi_schedule(&o->napi);
		pp_net_rx_action();
		publish(&o->pub, &o->c);
		if (!--o->polls_to_destroy)
			owner_destroy(o);
	}
	owner_destroy(o);
	flush_rx(o, false);
	publish(&o->pub, &o->c);
	return NULL;
}

/* Returners. */

static void returner_release(struct returner *r, int n)
{
	netmem_ref bulk[BULK];
	int nb = 0;

	while (n-- > 0 && r->nr_hold) {
		unsigned long long x = rnd(&r->rng);
		/* Any held page, not only the oldest: returns interleave pools. */
		int i = (int)(x % (unsigned long long)r->nr_hold);
		unsigned long tagged = r->hold[i];
		struct page *page = (struct page *)(tagged & ~TAGS);

		r->hold[i] = r->hold[--r->nr_hold];
#ifdef PP_STRESS_HAVE_XDP
		if ((tagged & XDPF_BIT) && (x >> 40) & 1) {
			/* XDP TX completion in a bulk: mixed pools, one flush. */
			struct xdp_frame_bulk bq;

			xdp_frame_bulk_init(&bq);
			rcu_read_lock();
			xdp_return_frame_bulk((struct xdp_frame *)page_address(page), &bq);
			xdp_flush_frame_bulk(&bq);
			rcu_read_unlock();
			r->c.returns++;
			r->c.xdp_frames++;
			continue;
		}
#endif
		if (tagged & XDPF_BIT) {
			return_one(&r->c, tagged);
			continue;
		}
		switch ((x >> 32) % 4) {
		case 0:
		case 1:
			return_one(&r->c, tagged);
			break;
		case 2:
			bulk[nb++] = page_to_netmem(page);
			r->c.frag_returns += !!(tagged & FRAG_BIT);
			if (nb == BULK) {
				pp_stress_put_bulk(bulk, BULK);
				r->c.returns += BULK;
				r->c.bulk_returns += BULK;
				nb = 0;
			}
			break;
		case 3:
			if (tagged & FRAG_BIT) {
				return_one(&r->c, tagged);
				break;
			}
			/* The refcount trick: the pool must release, not recycle. */
			get_page(page);
			page_pool_put_full_page(pp_stress_pool_of(page), page, false);
			put_page(page);
			r->c.returns++;
			r->c.ref_returns++;
			break;
		}
	}
	if (nb) {
		pp_stress_put_bulk(bulk, (u32)nb);
		r->c.returns += (unsigned long)nb;
		r->c.bulk_returns += (unsigned long)nb;
	}
}

static void *returner_main(void *arg)
{
	struct returner *r = arg;
	unsigned long idle = 0;

	if (pp_thread_register(-1) < 0)
		abort();
	for (;;) {
		void *p = ptr_ring_consume(&r->q);

		if (p) {
			idle = 0;
			if (r->nr_hold == HOLD)
				returner_release(r, 1 + (int)(rnd(&r->rng) % 64));
			r->hold[r->nr_hold++] = (unsigned long)p;
			continue;
		}
		if (__atomic_load_n(&stop_returners, __ATOMIC_ACQUIRE) && ptr_ring_empty(&r->q))
			break;
		/* Quiet: let go of some, then wait a little. */
		returner_release(r, r->nr_hold / 4 + 1);
		publish(&r->pub, &r->c);
		if (++idle > 16)
			usleep(50);
		else
			cpu_relax();
	}
	returner_release(r, r->nr_hold);
	publish(&r->pub, &r->c);
	return NULL;
}

/* Controller. */

static void unbind_cycle(unsigned long long *rng)
{
	int d = (int)(rnd(rng) % (unsigned long long)cfg.devices), i, err;
	unsigned long gen = unbind_gen[d] + 1;
	bool waiting;

	__atomic_store_n(&unbind_gen[d], gen, __ATOMIC_RELEASE);
	do {
		waiting = false;
		for (i = 0; i < cfg.owners; i++)
			if (owners[i].dev == d &&
			    __atomic_load_n(&owners[i].acked, __ATOMIC_ACQUIRE) != gen)
				waiting = true;
		if (waiting)
			usleep(100);
	} while (waiting);
	/* Every pool of the device is destroyed; pages are still out. */
	ppinv_device_unbinding(&inv, devs[d], cfg.tracking == PP_DMA_TRACK_OFF);
	device_release_driver(devs[d]);
	unbinds++;
	usleep((useconds_t)(rnd(rng) % 2000));	/* late returns arrive */
	while ((err = pp_device_bind(devs[d]))) {
		if (!cfg.faults)
			ppinv_fail(&inv, PPINV_API, "pp_device_bind() = %d", err);
		usleep(100);
	}
	__atomic_store_n(&rebind_gen[d], gen, __ATOMIC_RELEASE);
}

static void faults_arm(bool on)
{
	static const enum pp_fault_point points[] = {
		PP_FAULT_PAGE_ALLOC, PP_FAULT_DMA_MAP, PP_FAULT_TRACKING, PP_FAULT_KMALLOC,
	};
	struct pp_fault_config fc = { .probability = 0.002, .seed = 7 };
	unsigned int i;

	for (i = 0; i < sizeof(points) / sizeof(points[0]); i++)
		pp_fault_inject(points[i], on ? &fc : NULL);
}

static unsigned long faults_injected(void)
{
	unsigned long n = 0;
	int p;

	for (p = 0; p < PP_FAULT_NR; p++)
		n += pp_fault_count((enum pp_fault_point)p);
	return n;
}

static int parse_args(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		char *v = strchr(argv[i], '=');

		if (!v)
			return -1;
		*v++ = 0;
		if (!strcmp(argv[i], "duration"))
			cfg.duration = atof(v);
		else if (!strcmp(argv[i], "ops"))
			cfg.ops = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "owners"))
			cfg.owners = atoi(v);
		else if (!strcmp(argv[i], "returners"))
			cfg.returners = atoi(v);
		else if (!strcmp(argv[i], "devices"))
			cfg.devices = atoi(v);
		else if (!strcmp(argv[i], "destroy_every"))
			cfg.destroy_every = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "unbind_ms"))
			cfg.unbind_ms = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "faults"))
			cfg.faults = atoi(v);
		else if (!strcmp(argv[i], "seed"))
			cfg.seed = strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "progress"))
			cfg.progress = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "tracking")) {
			cfg.tracking = !strcmp(v, "off") ? PP_DMA_TRACK_OFF :
				       !strcmp(v, "items") ? PP_DMA_TRACK_ITEMS :
				       !strcmp(v, "index") ? PP_DMA_TRACK_INDEX : -2;
			if (cfg.tracking == -2)
				return -1;
		}
		else
			return -1;
	}
	if (cfg.owners < 1 || cfg.owners > MAX_OWNERS || cfg.returners < 0 ||
	    cfg.returners > MAX_RETURNERS || cfg.devices < 1 || cfg.devices > MAX_DEVS ||
	    cfg.destroy_every < 2)
		return -1;
	return 0;
}

static int count_pool(const struct pp_page_pool_info *info, void *arg)
{
	(void)info;
	(*(int *)arg)++;
	return 0;
}

int main(int argc, char **argv)
{
	struct pp_mem_config mc = { .size = 64 << 20 };
	unsigned long long rng;
	double t0, t, next_unbind, next_check, next_fault, next_progress;
	struct counters sum;
	struct pp_mem_stats st;
	bool armed = false;
	int i, pools;
	long lost;

	if (parse_args(argc, argv)) {
		fprintf(stderr, "usage: %s [duration=S] [ops=N] [owners=N] [returners=N] [devices=N] [destroy_every=N] [unbind_ms=N] [faults=0|1] [tracking=index|items|off] [seed=N] [progress=S]\n",
			argv[0]);
		return 2;
	}
	if (cfg.duration < 0)
		cfg.duration = cfg.ops ? 0 : 10;
	rng = cfg.seed * 0x9e3779b97f4a7c15ULL + 1;
	pp_set_print(capture);
	if (pp_mem_init(&mc) || pp_thread_register(-1) < 0)
		return 2;
	pp_page_pool_set_defer_times(10, 60 * 1000);
	/* tracking=: that design, if the build has it; else the build's
	 * (or, in an all-designs build, PAGEPOOL_DMA_TRACKING's). */
	if (cfg.tracking >= 0 && !pp_test_dma_tracking(cfg.tracking))
		return 2;
	cfg.tracking = pp_test_dma_tracking_current();
	ppinv_init(&inv);
	for (i = 0; i < cfg.devices; i++) {
		char name[24];

		snprintf(name, sizeof(name), "stress%d", i);
		devs[i] = pp_device_create(name, i % 2 ? PP_DMA_DIRECT : PP_DMA_IOMMU, PP_DMA_DEBUG);
		if (IS_ERR(devs[i]))
			return 2;
		ppinv_track_device(&inv, devs[i]);
	}
	netdev = alloc_etherdev_mqs(0, 1, MAX_OWNERS);
	if (!netdev || register_netdev(netdev))
		return 2;
	for (i = 0; i < cfg.returners; i++) {
		returners[i].idx = i;
		returners[i].rng = rnd(&rng) | 1;
		if (ptr_ring_init(&returners[i].q, QUEUE, GFP_KERNEL))
			return 2;
	}
	ppinv_rebase(&inv);

	t0 = now_s();
	for (i = 0; i < cfg.returners; i++)
		pthread_create(&returners[i].thread, NULL, returner_main, &returners[i]);
	for (i = 0; i < cfg.owners; i++) {
		owners[i].idx = i;
		owners[i].dev = i % cfg.devices;
		owners[i].rng = rnd(&rng) | 1;
		pthread_create(&owners[i].thread, NULL, owner_main, &owners[i]);
	}

	next_unbind = t0 + (double)cfg.unbind_ms / 1000;
	next_check = t0 + 0.1;
	next_fault = t0 + 0.2;
	next_progress = t0 + (double)cfg.progress;
	for (;;) {
		usleep(1000);
		t = now_s();
		sum_counters(&sum);
		if ((cfg.duration > 0 && t - t0 >= cfg.duration) ||
		    (cfg.ops && total_ops(&sum) >= cfg.ops) || inv.total_failures)
			break;
		if (cfg.unbind_ms && t >= next_unbind) {
			unbind_cycle(&rng);
			next_unbind = t + (double)(cfg.unbind_ms / 2 + rnd(&rng) % (cfg.unbind_ms + 1)) / 1000;
		}
		if (cfg.faults && t >= next_fault) {
			armed = !armed;
			faults_arm(armed);
			fault_windows += armed;
			next_fault = t + (armed ? 0.05 : 0.2);
		}
#ifdef PP_STRESS_HAVE_XDP
		/* Flip the XDP return path (frames may be in flight),
		 * where the build has both (meson -Ddesigns=all). */
		if (IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_DIRECT) &&
		    IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP) && !(rnd(&rng) % 500))
			pp_xdp_set_return_mode(pp_xdp_get_return_mode() == PP_XDP_RETURN_DIRECT ?
					       PP_XDP_RETURN_LOOKUP : PP_XDP_RETURN_DIRECT);
#endif
		if (t >= next_check) {
			ppinv_check_step(&inv);
			next_check = t + 0.1;
		}
		if (cfg.progress && t >= next_progress) {
			fprintf(stderr, "stress: %.0f s, %lu ops (%.2f Mops/s), %lu destroys, %lu unbinds\n",
				t - t0, total_ops(&sum), (double)total_ops(&sum) / (t - t0) / 1e6,
				sum.destroys, unbinds);
			next_progress = t + (double)cfg.progress;
		}
	}

	/* Wind down: drivers first, then the stack lets go of everything. */
	faults_arm(false);
	__atomic_store_n(&stop_owners, 1, __ATOMIC_RELEASE);
	for (i = 0; i < cfg.owners; i++)
		pthread_join(owners[i].thread, NULL);
	__atomic_store_n(&stop_returners, 1, __ATOMIC_RELEASE);
	for (i = 0; i < cfg.returners; i++)
		pthread_join(returners[i].thread, NULL);
	t = now_s() - t0;
	sum_counters(&sum);

	/* The deferred release frees the last pools. */
	for (i = 0; i < 1000; i++) {
		pools = 0;
		pp_workqueue_run_all();
		pp_page_pool_for_each(count_pool, &pools);
		if (!pools)
			break;
		usleep(1000);
	}
	for (i = 0; i < cfg.returners; i++)
		ptr_ring_cleanup(&returners[i].q, NULL);
	if (__atomic_load_n(&bad_create_err, __ATOMIC_RELAXED))
		ppinv_fail(&inv, PPINV_API, "page_pool_create() of a valid pool = %ld",
			   bad_create_err);
	ppinv_check_idle(&inv);
	pp_mem_get_stats(&st);
	lost = (long)st.total_pages - (long)st.free_pages;

	printf("stress: duration=%.1fs ops=%lu (%.2f Mops/s) allocs=%lu returns=%lu bulk_returns=%lu frag_returns=%lu ref_returns=%lu xdp_frames=%lu late_returns=%lu destroys=%lu unbinds=%lu fault_windows=%lu faults_injected=%lu alloc_failures=%lu create_failures=%lu owners=%d returners=%d devices=%d tracking=%s violations=%lu lost_pages=%ld result=%s\n",
	       t, total_ops(&sum), (double)total_ops(&sum) / t / 1e6, sum.allocs, sum.returns,
	       sum.bulk_returns, sum.frag_returns, sum.ref_returns, sum.xdp_frames, sum.late_returns,
	       sum.destroys, unbinds, fault_windows, faults_injected(), sum.alloc_fail,
	       sum.create_fail, cfg.owners, cfg.returners, cfg.devices,
	       pp_test_tracking_name(cfg.tracking),
	       inv.total_failures, lost, inv.total_failures ? "FAIL" : "PASS");
	ppinv_print_summary(&inv, stdout, "stress invariants");
	if (sum.allocs != sum.returns)
		printf("stress: WARNING: %lu allocations but %lu returns counted\n", sum.allocs,
		       sum.returns);
	if (inv.total_failures)
		dump_log();
	for (i = 0; i < cfg.devices; i++)
		pp_device_destroy(devs[i]);
	unregister_netdev(netdev);
	free_netdev(netdev);
	return inv.total_failures || sum.allocs != sum.returns ? 1 : 0;
}
