/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * xdp_fwd --frames pagepool: the forwarder on drivers/xsk (ppxsk.h). One
 * UMEM of pagepool memory (--nr-frames x --frame-size; frames smaller
 * than PAGE_SIZE are page_pool frags of a PAGE_SIZE net_iov), a port on --in and one on
 * --out, each a kernel-style net_device with its own RX page_pool, both on
 * that UMEM. The driver runs our XDP verdict hook, a C struct bpf_prog:
 * fwd_classify() says ours -> bpf_redirect(--out's ifindex) ->
 * XDP_REDIRECT, and xdp_do_redirect() puts the frame into --out's TX ring
 * (same UMEM: its address, no copy); anything else -> XDP_DROP, its reason
 * counted here, the frame back to the pool. TX completion gives the frame
 * back with xdp_return_frame() (or xdp_return_frame_bulk() with --bulk) to
 * the --in pool it came from.
 *
 * Threads: this one is logical CPU 0, pinned by the front end to --cpu,
 * and loops on ppxsk_service() (the ports' NAPIs and softirqs on CPU 0).
 * --completion other: a second thread, logical CPU 1 pinned to the next
 * allowed host CPU, loops on ppxsk_service() too, and --out's TX
 * completion is serviced there (txc_cpu 1); the fixed baseline runs its
 * completion ring on a second thread the same way.
 *
 * Teardown: both ports closed while the other thread (if any) still
 * services, then that thread stops; the pools are destroyed by the close
 * (deferred while frames are out) and gone once every frame is back; then
 * ppxsk_umem_check() (every frame back in the provider, no DMA-API
 * violation) and ppxsk_umem_destroy().
 *
 * Context: setup/run/teardown/check on the main thread (logical CPU 0).
 * Layer: examples.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <pagepool.h>

#include "ppxsk.h"

#include "xdp_fwd.h"

static struct {
	const struct fwd_opts *o;
	struct ppxsk_umem *umem;
	struct ppxsk_port *in, *out;
	struct bpf_prog *prog;
	u32 out_ifindex;
	u32 pool_in, pool_out;

	pthread_t comp_thread;
	bool comp_running;
	int comp_stop;

	uint64_t drop[FWD_DROP_MAX];	/* the hook's reasons (NAPI on CPU 0) */
	uint64_t redirected;		/* the hook's XDP_REDIRECTs: fwd_tick()'s total */
	struct fwd_snap last;
	bool closed;
} P;

/* The verdict hook, run by --in's RX NAPI on each frame. */
static u32 fwd_prog(struct xdp_buff *xdp, void *arg)
{
	enum fwd_drop why;

	(void)arg;
	why = fwd_classify(xdp->data, (u32)(xdp->data_end - xdp->data));
	if (why == FWD_DROP_MAX) {
		fwd_cnt_add(&P.redirected, 1);
		return (u32)bpf_redirect(P.out_ifindex, 0);
	}
	fwd_cnt_add(&P.drop[why], 1);
	return XDP_DROP;
}

static void *comp_main(void *arg)
{
	int host_cpu = (int)(intptr_t)arg, err;

	err = pp_thread_register(1);
	if (err < 0) {
		fprintf(stderr, "xdp_fwd: completion thread: logical CPU 1: %s\n", strerror(-err));
		return NULL;
	}
	if (host_cpu >= 0)
		(void)pp_thread_pin(host_cpu);
	while (!__atomic_load_n(&P.comp_stop, __ATOMIC_ACQUIRE))
		if (!ppxsk_service())
			__builtin_ia32_pause();
	/* Whatever was raised here before the stop runs now. */
	while (ppxsk_service())
		;
	pp_thread_unregister();
	return NULL;
}

_Static_assert(FWD_PP_ALLOC_CACHE == PP_ALLOC_CACHE_SIZE, "xdp_fwd.h's copy of the cache size");

static struct ppxsk_port *open_port(const struct fwd_opts *o, const char *ifname, int txc_cpu,
				    unsigned int flags)
{
	struct ppxsk_port_config pc = {
		.ifname = ifname, .queue = 0,
		.mode = o->mode == FWD_MODE_DRV ? PPXSK_MODE_DRV : PPXSK_MODE_SKB,
		.fill_size = o->ring, .comp_size = o->ring, .rx_size = o->ring, .tx_size = o->ring,
		.bulk_return = o->bulk, .txc_cpu = txc_cpu, .flags = flags,
	};
	struct ppxsk_port *port = ppxsk_port_open(P.umem, &pc);

	if (IS_ERR(port)) {
		fprintf(stderr, "xdp_fwd: AF_XDP port on %s: %s\n", ifname,
			strerror((int)-PTR_ERR(port)));
		return NULL;
	}
	return port;
}

static int pagepool_setup(const struct fwd_opts *o)
{
	struct ppxsk_umem_config uc = { .nr_frames = o->nr_frames, .frame_size = o->frame_size,
					.no_dma_debug = o->no_dma_debug };
	int txc = o->completion_other ? 1 : -1;
	int err;

	P.o = o;
	/* The UMEM is whole library pages (PAGE_SIZE, the build's: 4, 16 or
	 * 64 KiB), each a net_iov whose fragments are the frames. */
	if ((u64)o->nr_frames * o->frame_size % PAGE_SIZE) {
		fprintf(stderr, "xdp_fwd: bad value for --nr-frames: %u x %u B is not a whole "
			"number of pagepool's %lu KiB pages (use a multiple of %lu)\n",
			o->nr_frames, o->frame_size, PAGE_SIZE >> 10, PAGE_SIZE / o->frame_size);
		return -EINVAL;
	}
	err = pp_thread_register(0);
	if (err < 0) {
		fprintf(stderr, "xdp_fwd: logical CPU 0: %s\n", strerror(-err));
		return err;
	}
	P.umem = ppxsk_umem_create(&uc);
	if (IS_ERR(P.umem)) {
		err = (int)PTR_ERR(P.umem);
		P.umem = NULL;
		fprintf(stderr, "xdp_fwd: UMEM of %u x %u B: %s%s\n", o->nr_frames, o->frame_size,
			strerror(-err), err != -ENOMEM ? "" :
			" (the UMEM comes from pagepool's arena, 64 MiB unless PAGEPOOL_MEM_MB "
			"says more MiB; it also needs that many contiguous pages free)");
		return err;
	}
	/* The completion thread first: --out's TX completion NAPI is its. */
	if (o->completion_other) {
		err = pthread_create(&P.comp_thread, NULL, comp_main,
				     (void *)(intptr_t)fwd_other_cpu(o->cpu));
		if (err) {
			fprintf(stderr, "xdp_fwd: completion thread: %s\n", strerror(err));
			return -err;
		}
		P.comp_running = true;
	}
	/* --out only sends (as the baseline's --out socket): TX-only, so it
	 * parks no frame in a fill ring where nothing arrives. */
	P.out = open_port(o, o->out, txc, PPXSK_PORT_TX_ONLY);
	if (!P.out)
		return -ENODEV;
	P.in = open_port(o, o->in, txc, 0);
	if (!P.in)
		return -ENODEV;
	P.out_ifindex = (u32)ppxsk_port_netdev(P.out)->ifindex;
	P.pool_in = ppxsk_port_pool_id(P.in);
	P.pool_out = ppxsk_port_pool_id(P.out);

	P.prog = pp_xdp_prog_create(fwd_prog, NULL, "xdp_fwd");
	if (IS_ERR(P.prog)) {
		err = (int)PTR_ERR(P.prog);
		P.prog = NULL;
		return err;
	}
	err = ppxsk_port_set_xdp(P.in, P.prog);
	if (err)
		fprintf(stderr, "xdp_fwd: verdict hook on %s: %s\n", o->in, strerror(-err));
	return err;
}

static int pagepool_run(const struct fwd_opts *o)
{
	struct ppxsk_stats so;
	uint64_t sent;
	int work;

	while (!fwd_should_stop() && !fwd_teardown_due()) {
		work = ppxsk_service();
		if (work < 0)
			return work;
		sent = fwd_cnt_read(&P.redirected);
		/* The hook's count includes redirects --out refused (its TX
		 * ring full): past --teardown-after the exact count of frames
		 * put into the ring decides (a system call, only then). */
		if (o->teardown_after && sent >= o->teardown_after &&
		    !ppxsk_port_get_stats(P.out, &so))
			sent = so.tx_xmit;
		fwd_tick(sent);
	}
	return 0;
}

static void copy_xs(struct fwd_xs *d, const struct xdp_statistics *s)
{
	d->rx_dropped = s->rx_dropped;
	d->rx_invalid_descs = s->rx_invalid_descs;
	d->tx_invalid_descs = s->tx_invalid_descs;
	d->rx_ring_full = s->rx_ring_full;
	d->rx_fill_ring_empty_descs = s->rx_fill_ring_empty_descs;
	d->tx_ring_empty_descs = s->tx_ring_empty_descs;
}

static void pool_state(struct fwd_snap *s)
{
	struct page_pool_stats ps;
	struct pp_page_pool_info info;
	u32 ids[2] = { P.pool_in, P.pool_out };
	int i;

	memset(&ps, 0, sizeof(ps));
	s->inflight = 0;
	for (i = 0; i < 2; i++) {
		if (!ids[i])
			continue;
		(void)pp_page_pool_get_stats_by_id(ids[i], &ps);
		if (!pp_page_pool_get_info(ids[i], &info))
			s->inflight += info.inflight;
	}
	s->has_pool = true;
	s->alloc_fast = ps.alloc_stats.fast;
	s->alloc_slow = ps.alloc_stats.slow;
	s->recycle_cached = ps.recycle_stats.cached;
	s->recycle_ring = ps.recycle_stats.ring;
}

static void pagepool_snap(struct fwd_snap *s)
{
	struct ppxsk_stats si, so;
	int i;

	if (P.closed) {
		*s = P.last;
		pool_state(s);	/* inflight now: 0 once the pools are gone */
		s->alloc_fast = P.last.alloc_fast;
		s->alloc_slow = P.last.alloc_slow;
		s->recycle_cached = P.last.recycle_cached;
		s->recycle_ring = P.last.recycle_ring;
		return;
	}
	memset(s, 0, sizeof(*s));
	memset(&si, 0, sizeof(si));
	memset(&so, 0, sizeof(so));
	if (P.in)
		(void)ppxsk_port_get_stats(P.in, &si);
	if (P.out)
		(void)ppxsk_port_get_stats(P.out, &so);
	s->rx = si.rx_packets;
	s->tx = so.tx_xmit;
	s->completed = so.tx_completed;
	for (i = 0; i < FWD_DROP_MAX; i++)
		s->drop[i] = fwd_cnt_read(&P.drop[i]);
	s->drop[FWD_DROP_TX_RING_FULL] = so.tx_refused;
	s->drop[FWD_DROP_REDIRECT] = si.redirect_errors;
	s->drop[FWD_DROP_ABORTED] = si.xdp_aborted;
	/* XDP_PASS has no stack to go to here: the frame went back to the pool. */
	s->drop[FWD_DROP_OTHER] = si.xdp_pass;
	s->drop[FWD_DROP_TX_DEV_DROPPED] = so.tx_dev_dropped;
	s->drop[FWD_DROP_NO_TAILROOM] = si.xdp_no_tailroom;
	copy_xs(&s->xs_in, &si.xs);
	copy_xs(&s->xs_out, &so.xs);
	pool_state(s);
}

static bool pool_gone(u32 id)
{
	struct pp_page_pool_info info;

	return !id || pp_page_pool_get_info(id, &info) == -ENOENT;
}

static int pagepool_teardown(void)
{
	struct timespec ts = { 0, 1000000 };
	int err = 0, e, i;

	/* The hook first: no frame is redirected any more (a poll that ran it
	 * has flushed its frames into --out's TX ring when this returns), so
	 * the last reading's TX count is final; frames that arrive from now
	 * on are XDP_PASS (back to the pool, counted as "other"). */
	if (P.in && P.prog)
		(void)ppxsk_port_set_xdp(P.in, NULL);
	pagepool_snap(&P.last);
	P.closed = true;
	if (P.in && (e = ppxsk_port_close(P.in)) && !err)
		err = e;
	if (P.out && (e = ppxsk_port_close(P.out)) && !err)
		err = e;
	P.in = P.out = NULL;
	if (P.comp_running) {
		__atomic_store_n(&P.comp_stop, 1, __ATOMIC_RELEASE);
		pthread_join(P.comp_thread, NULL);
		P.comp_running = false;
	}
	/* Destroyed pools go once their last frame is back (page_pool's deferred
	 * release); give them up to 2 s, running this CPU's softirqs meanwhile. */
	for (i = 0; i < 2000 && !(pool_gone(P.pool_in) && pool_gone(P.pool_out)); i++) {
		(void)ppxsk_service();
		nanosleep(&ts, NULL);
	}
	pp_xdp_prog_destroy(P.prog);
	P.prog = NULL;
	return err;
}

static void pagepool_check(struct fwd_check *c)
{
	char why[sizeof(c->why)] = "";
	int err;

	memset(c, 0, sizeof(*c));
	c->frames_total = P.o->nr_frames;
	if (!P.umem) {
		snprintf(c->why, sizeof(c->why), "no UMEM was made");
		return;
	}
	err = ppxsk_umem_check(P.umem, why, sizeof(why));
	c->ok = !err;
	if (err)
		snprintf(c->why, sizeof(c->why), "%s", why[0] ? why : strerror(-err));
	if (!pool_gone(P.pool_in) || !pool_gone(P.pool_out)) {
		c->ok = false;
		snprintf(c->why + strlen(c->why), sizeof(c->why) - strlen(c->why), "%s%s",
			 c->why[0] ? "; " : "", "a port's page_pool is still there 2 s after close");
	}
	/* ppxsk_umem_check() passes only with every frame back in the provider
	 * and no DMA-API violation on the UMEM's device. */
	if (c->ok)
		c->frames_free = c->frames_total;
	err = ppxsk_umem_destroy(P.umem);
	if (err && c->ok) {
		c->ok = false;
		snprintf(c->why, sizeof(c->why), "ppxsk_umem_destroy: %s", strerror(-err));
	}
	P.umem = NULL;
	pp_thread_unregister();
}

const struct fwd_ops fwd_pagepool_ops = {
	.name = "pagepool",
	.setup = pagepool_setup,
	.run = pagepool_run,
	.snap = pagepool_snap,
	.teardown = pagepool_teardown,
	.check = pagepool_check,
};
