/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XDP_REDIRECT as a driver uses it (<linux/filter.h>, <linux/bpf.h>),
 * built as users build (../kernel-api/run.sh: installed headers and
 * pkg-config only). An RX device runs a C XDP program on page_pool
 * buffers and redirects them, by ifindex or through a devmap, to TX
 * devices whose ndo_xdp_xmit records what it gets, can take only some
 * frames or fail with an errno, and completes what it took at once (its
 * "TX completion" gives the frames back). Every test ends with every page
 * home and no DMA-API violation.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "../hardening/hard.h"

#include <linux/bottom_half.h>
#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/xdp.h>
#include <pagepool/xdp.h>

#define LEN		64
#define MAX_CALLS	256

/* The fake TX device. */
struct fake_tx {
	pthread_mutex_t lock;
	int take;		/* frames a call takes at most (-1: all) */
	int err;		/* if set, every call returns it */
	bool hold;		/* keep taken frames until fake_complete() */
	int calls, frames;
	int n[MAX_CALLS];
	u32 flags[MAX_CALLS];
	struct xdp_frame *held[1024];
	int nheld;
};

static int fake_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	struct fake_tx *tx = netdev_priv(dev);
	int i, took;

	pthread_mutex_lock(&tx->lock);
	if (tx->calls < MAX_CALLS) {
		tx->n[tx->calls] = n;
		tx->flags[tx->calls] = flags;
	}
	tx->calls++;
	if (tx->err) {
		pthread_mutex_unlock(&tx->lock);
		return tx->err;
	}
	took = tx->take < 0 || tx->take > n ? n : tx->take;
	tx->frames += took;
	for (i = 0; i < took; i++) {
		if (tx->hold)
			tx->held[tx->nheld++] = frames[i];
		else
			xdp_return_frame(frames[i]);	/* TX completion */
	}
	pthread_mutex_unlock(&tx->lock);
	return took;
}

/* Give back the frames a holding device took. */
static void fake_complete(struct net_device *dev)
{
	struct fake_tx *tx = netdev_priv(dev);

	while (tx->nheld)
		xdp_return_frame(tx->held[--tx->nheld]);
}

static const struct net_device_ops fake_ops = { .ndo_xdp_xmit = fake_xmit };
static const struct net_device_ops rx_ops = { 0 };

static struct net_device *tx_dev(void)
{
	struct net_device *dev = alloc_etherdev(sizeof(struct fake_tx));
	struct fake_tx *tx;

	assert_non_null(dev);
	tx = netdev_priv(dev);
	pthread_mutex_init(&tx->lock, NULL);
	tx->take = -1;
	dev->netdev_ops = &fake_ops;
	assert_int_equal(register_netdev(dev), 0);
	dev->flags |= IFF_UP;	/* what dev_open() would do */
	return dev;
}

static void tx_dev_free(struct net_device *dev)
{
	fake_complete(dev);
	if (dev->reg_state == NETREG_REGISTERED)
		unregister_netdev(dev);
	free_netdev(dev);
}

/* The RX side: a device, an IOMMU DMA device with DMA-API debug, a pool
 * and an RX queue with its memory model. */
struct rx {
	struct net_device *dev;
	struct page_pool *pool;
	struct xdp_rxq_info rxq;
};

static struct device *dma_dev;

static void rx_init(struct rx *rx, u32 qid)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
		.dev = dma_dev,
		.dma_dir = DMA_BIDIRECTIONAL,
		.max_len = PAGE_SIZE,
	};

	rx->dev = alloc_etherdev(0);
	assert_non_null(rx->dev);
	rx->dev->netdev_ops = &rx_ops;
	assert_int_equal(register_netdev(rx->dev), 0);
	rx->pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(rx->pool));
	memset(&rx->rxq, 0, sizeof(rx->rxq));
	assert_int_equal(xdp_rxq_info_reg(&rx->rxq, rx->dev, qid, 0), 0);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rx->rxq, MEM_TYPE_PAGE_POOL, rx->pool), 0);
}

static void rx_fini(struct rx *rx)
{
	xdp_rxq_info_unreg(&rx->rxq);
	page_pool_destroy(rx->pool);
	unregister_netdev(rx->dev);
	free_netdev(rx->dev);
}

/* The programs. */
struct target {
	struct bpf_map *map;	/* NULL: by ifindex */
	u64 key;		/* ifindex, or map key */
	u64 flags;
};

static u32 prog_redirect(struct xdp_buff *xdp, void *arg)
{
	const struct target *t = arg;

	(void)xdp;
	if (t->map)
		return (u32)bpf_redirect_map(t->map, t->key, t->flags);
	return (u32)bpf_redirect((u32)t->key, t->flags);
}

/*
 * One received packet, as a driver's NAPI poll handles it (bottom halves
 * off): a page from the pool, the program, XDP_REDIRECT through
 * xdp_do_redirect(), any failure or other verdict recycled into the pool.
 * Returns the verdict and, for XDP_REDIRECT, xdp_do_redirect()'s result.
 */
static u32 rx_one(struct rx *rx, struct bpf_prog *prog, int *err)
{
	struct page *page = page_pool_dev_alloc_pages(rx->pool);
	struct xdp_buff xdp;
	u32 act;

	assert_non_null(page);
	xdp_init_buff(&xdp, PAGE_SIZE, &rx->rxq);
	xdp_prepare_buff(&xdp, page_address(page), XDP_PACKET_HEADROOM, LEN, true);
	act = bpf_prog_run_xdp(prog, &xdp);
	*err = 0;
	if (act == XDP_REDIRECT) {
		*err = xdp_do_redirect(rx->dev, &xdp, prog);
		if (!*err)
			return act;
	}
	page_pool_put_full_page(rx->pool, page, true);
	return act;
}

/* @n packets in one poll, then xdp_do_flush(); every redirect must work. */
static void rx_poll(struct rx *rx, struct bpf_prog *prog, int n)
{
	int i, err;

	local_bh_disable();
	for (i = 0; i < n; i++) {
		assert_int_equal(rx_one(rx, prog, &err), XDP_REDIRECT);
		assert_int_equal(err, 0);
	}
	xdp_do_flush();
	local_bh_enable();
}

static struct pp_xdp_redirect_stats stats_delta(struct pp_xdp_redirect_stats *base)
{
	struct pp_xdp_redirect_stats now, d;

	assert_int_equal(pp_xdp_get_redirect_stats(&now), 0);
	d.redirects = now.redirects - base->redirects;
	d.redirect_errors = now.redirect_errors - base->redirect_errors;
	d.xmit_frames = now.xmit_frames - base->xmit_frames;
	d.xmit_drops = now.xmit_drops - base->xmit_drops;
	d.xmit_errors = now.xmit_errors - base->xmit_errors;
	d.flushes = now.flushes - base->flushes;
	*base = now;
	return d;
}

/* Pages given back to @pool (recycled or released) since the last call. */
static u64 returned(struct page_pool *pool)
{
	static u64 seen;
	struct page_pool_stats st = kapi_stats(pool);
	const struct page_pool_recycle_stats *r = &st.recycle_stats;
	u64 now = r->cached + r->cache_full + r->ring + r->ring_full + r->released_refcnt, d;

	d = now - seen;
	seen = now;
	return d;
}

static void end_state(void)
{
	kapi_assert_all_pages_home();
	assert_int_equal(pp_dma_violations(NULL), 0);
}

/* By ifindex: one poll of 3 frames is one ndo_xdp_xmit(3, FLUSH). */
static void test_ifindex(void **state)
{
	struct pp_xdp_redirect_stats base, d;
	struct net_device *b = tx_dev();
	struct fake_tx *tx = netdev_priv(b);
	struct target t = { .key = (u64)b->ifindex };
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect, &t, "redir_ifindex");
	struct rx rx;

	(void)state;
	assert_false(IS_ERR_OR_NULL(prog));
	assert_int_equal(pp_xdp_get_redirect_stats(&base), 0);
	rx_init(&rx, 0);
	rx_poll(&rx, prog, 3);
	assert_int_equal(tx->calls, 1);
	assert_int_equal(tx->n[0], 3);
	assert_int_equal(tx->flags[0], XDP_XMIT_FLUSH);
	assert_int_equal(tx->frames, 3);
	d = stats_delta(&base);
	assert_int_equal(d.redirects, 3);
	assert_int_equal(d.xmit_frames, 3);
	assert_int_equal(d.flushes, 1);
	assert_int_equal(d.redirect_errors + d.xmit_drops + d.xmit_errors, 0);

	/* A second flush has nothing to send. */
	local_bh_disable();
	xdp_do_flush();
	local_bh_enable();
	assert_int_equal(tx->calls, 1);

	pp_xdp_prog_destroy(prog);
	rx_fini(&rx);
	tx_dev_free(b);
	end_state();
}

/* Through a devmap, two slots to two devices; the kernel's results for
 * empty and out-of-range keys and for flags. */
static void test_map(void **state)
{
	struct net_device *b = tx_dev(), *c = tx_dev();
	struct fake_tx *tb = netdev_priv(b), *tc = netdev_priv(c);
	struct bpf_map *map = pp_devmap_create(8);
	struct target t;
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect, &t, "redir_map");
	struct rx rx;

	(void)state;
	assert_false(IS_ERR_OR_NULL(map));
	assert_int_equal(pp_devmap_update(map, 0, b->ifindex), 0);
	assert_int_equal(pp_devmap_update(map, 7, c->ifindex), 0);
	rx_init(&rx, 0);

	t = (struct target){ .map = map, .key = 0 };
	rx_poll(&rx, prog, 2);
	t.key = 7;
	rx_poll(&rx, prog, 5);
	assert_int_equal(tb->frames, 2);
	assert_int_equal(tc->frames, 5);
	/* The key is a u32, as the kernel's lookup reads it. */
	t.key = (1ULL << 32) | 7;
	rx_poll(&rx, prog, 1);
	assert_int_equal(tc->frames, 6);

	/* Replacing a slot: the new device gets the frames. */
	assert_int_equal(pp_devmap_update(map, 0, c->ifindex), 0);
	t.key = 0;
	rx_poll(&rx, prog, 1);
	assert_int_equal(tc->frames, 7);
	assert_int_equal(tb->frames, 2);

	local_bh_disable();
	/* Empty and out-of-range slots: the lower bits of the flags. */
	assert_int_equal(bpf_redirect_map(map, 3, 0), XDP_ABORTED);
	assert_int_equal(bpf_redirect_map(map, 3, XDP_PASS), XDP_PASS);
	assert_int_equal(bpf_redirect_map(map, 8, XDP_DROP), XDP_DROP);
	assert_int_equal(bpf_redirect_map(map, (1ULL << 40) | 3, XDP_TX), XDP_TX);
	/* Flags the kernel does not accept; an accepted one. */
	assert_int_equal(bpf_redirect_map(map, 0, 1ULL << 5), XDP_ABORTED);
	assert_int_equal(bpf_redirect_map(map, 0, BPF_F_EXCLUDE_INGRESS), XDP_REDIRECT);
	/* bpf_redirect() takes no flags. */
	assert_int_equal(bpf_redirect((u32)b->ifindex, 1), XDP_ABORTED);
	local_bh_enable();

	/* The devmap's own errors. */
	assert_int_equal(PTR_ERR(pp_devmap_create(0)), -EINVAL);
	assert_int_equal(PTR_ERR(pp_devmap_create(PP_DEVMAP_MAX_ENTRIES + 1)), -EINVAL);
	assert_int_equal(pp_devmap_update(map, 8, b->ifindex), -E2BIG);
	assert_int_equal(pp_devmap_update(map, 1, 100000), -ENODEV);
	assert_int_equal(pp_devmap_update(map, 1, 0), -EINVAL);
	assert_int_equal(pp_devmap_update(NULL, 1, b->ifindex), -EINVAL);
	assert_int_equal(pp_devmap_delete(map, 8), -E2BIG);
	assert_int_equal(pp_devmap_delete(map, 1), -ENOENT);
	assert_int_equal(pp_devmap_delete(NULL, 1), -EINVAL);
	assert_int_equal(PTR_ERR(pp_xdp_prog_create(NULL, NULL, "x")), -EINVAL);
	assert_int_equal(pp_xdp_get_redirect_stats(NULL), -EINVAL);
	/* A verdict the driver does not know: the kernel's message, once. */
	bpf_warn_invalid_xdp_action(b, prog, 7);
	assert_true(kapi_logged("Illegal XDP return value 7 on prog redir_map dev "));

	pp_devmap_destroy(map);
	pp_xdp_prog_destroy(prog);
	rx_fini(&rx);
	tx_dev_free(b);
	tx_dev_free(c);
	rcu_barrier();
	end_state();
}

/* 17 frames in one poll: the 17th finds the queue full and sends 16
 * (no doorbell, as the kernel's bq_enqueue()); xdp_do_flush() sends the
 * last one with XDP_XMIT_FLUSH. */
static void test_bulk(void **state)
{
	struct pp_xdp_redirect_stats base, d;
	struct net_device *b = tx_dev();
	struct fake_tx *tx = netdev_priv(b);
	struct target t = { .key = (u64)b->ifindex };
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect, &t, "bulk");
	struct rx rx;
	int i, err;

	(void)state;
	rx_init(&rx, 0);
	assert_int_equal(pp_xdp_get_redirect_stats(&base), 0);
	local_bh_disable();
	for (i = 0; i < 16; i++) {
		assert_int_equal(rx_one(&rx, prog, &err), XDP_REDIRECT);
		assert_int_equal(err, 0);
	}
	assert_int_equal(tx->calls, 0);		/* 16 queued, none sent */
	assert_int_equal(rx_one(&rx, prog, &err), XDP_REDIRECT);
	assert_int_equal(err, 0);
	assert_int_equal(tx->calls, 1);
	assert_int_equal(tx->n[0], 16);
	assert_int_equal(tx->flags[0], 0);
	xdp_do_flush();
	local_bh_enable();
	assert_int_equal(tx->calls, 2);
	assert_int_equal(tx->n[1], 1);
	assert_int_equal(tx->flags[1], XDP_XMIT_FLUSH);
	assert_int_equal(tx->frames, 17);
	d = stats_delta(&base);
	assert_int_equal(d.redirects, 17);
	assert_int_equal(d.flushes, 2);
	assert_int_equal(d.xmit_frames, 17);

	pp_xdp_prog_destroy(prog);
	rx_fini(&rx);
	tx_dev_free(b);
	end_state();
}

/* ndo_xdp_xmit takes some frames, or fails: the rest go back to their
 * pool at once, counted; the ones it took stay the device's until its
 * TX completion. */
static void test_refuse(void **state)
{
	struct pp_xdp_redirect_stats base, d;
	struct net_device *b = tx_dev();
	struct fake_tx *tx = netdev_priv(b);
	struct target t = { .key = (u64)b->ifindex };
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect, &t, "refuse");
	struct rx rx;

	(void)state;
	rx_init(&rx, 0);
	tx->hold = true;
	tx->take = 5;
	assert_int_equal(pp_xdp_get_redirect_stats(&base), 0);
	returned(rx.pool);
	rx_poll(&rx, prog, 12);
	assert_int_equal(tx->calls, 1);
	assert_int_equal(tx->frames, 5);
	assert_int_equal(returned(rx.pool), 7);	/* the 7 refused are home */
	d = stats_delta(&base);
	assert_int_equal(d.xmit_frames, 5);
	assert_int_equal(d.xmit_drops, 7);
	assert_int_equal(d.xmit_errors, 0);

	/* An errno: nothing taken. */
	tx->err = -ENOSPC;
	rx_poll(&rx, prog, 20);			/* 16 at the 17th, 4 at flush */
	assert_int_equal(tx->calls, 3);
	assert_int_equal(tx->frames, 5);
	assert_int_equal(returned(rx.pool), 20);
	d = stats_delta(&base);
	assert_int_equal(d.xmit_drops, 20);
	assert_int_equal(d.xmit_errors, 2);
	assert_int_equal(d.flushes, 2);

	fake_complete(b);
	assert_int_equal(returned(rx.pool), 5);
	pp_xdp_prog_destroy(prog);
	rx_fini(&rx);
	tx_dev_free(b);
	end_state();
}

/* No target, a target that is gone, cannot transmit or is down: an
 * errno, nothing queued, the buffer the driver's (rx_one() recycles it). */
static void test_missing_target(void **state)
{
	struct pp_xdp_redirect_stats base, d;
	struct net_device *b = tx_dev();
	struct fake_tx *tx = netdev_priv(b);
	struct bpf_map *map = pp_devmap_create(4);
	struct target t = { .key = 100000 };
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect, &t, "missing");
	struct rx rx;
	struct page *page;
	struct xdp_buff xdp;
	int err;

	(void)state;
	rx_init(&rx, 0);
	assert_int_equal(pp_xdp_get_redirect_stats(&base), 0);
	local_bh_disable();
	/* No such ifindex. */
	assert_int_equal(rx_one(&rx, prog, &err), XDP_REDIRECT);
	assert_int_equal(err, -EINVAL);
	/* The RX device has no ndo_xdp_xmit. */
	t.key = (u64)rx.dev->ifindex;
	assert_int_equal(rx_one(&rx, prog, &err), XDP_REDIRECT);
	assert_int_equal(err, -EOPNOTSUPP);
	/* Down. */
	b->flags &= ~IFF_UP;
	t.key = (u64)b->ifindex;
	assert_int_equal(rx_one(&rx, prog, &err), XDP_REDIRECT);
	assert_int_equal(err, -ENETDOWN);
	b->flags |= IFF_UP;
	/* Longer than the MTU allows. */
	b->mtu = 32;
	assert_int_equal(rx_one(&rx, prog, &err), XDP_REDIRECT);
	assert_int_equal(err, -EMSGSIZE);
	b->mtu = 1500;

	/* No helper call at all; and a target is consumed once. */
	page = page_pool_dev_alloc_pages(rx.pool);
	xdp_init_buff(&xdp, PAGE_SIZE, &rx.rxq);
	xdp_prepare_buff(&xdp, page_address(page), XDP_PACKET_HEADROOM, LEN, true);
	assert_int_equal(xdp_do_redirect(rx.dev, &xdp, prog), -EINVAL);
	assert_int_equal(bpf_redirect((u32)b->ifindex, 0), XDP_REDIRECT);
	assert_int_equal(xdp_do_redirect(rx.dev, &xdp, prog), 0);
	page = page_pool_dev_alloc_pages(rx.pool);
	xdp_prepare_buff(&xdp, page_address(page), XDP_PACKET_HEADROOM, LEN, true);
	assert_int_equal(xdp_do_redirect(rx.dev, &xdp, prog), -EINVAL);
	/* A headroom too small for the frame. */
	xdp_prepare_buff(&xdp, page_address(page), 8, LEN, true);
	assert_int_equal(bpf_redirect((u32)b->ifindex, 0), XDP_REDIRECT);
	assert_int_equal(xdp_do_redirect(rx.dev, &xdp, prog), -EOVERFLOW);
	page_pool_put_full_page(rx.pool, page, true);
	xdp_do_flush();
	local_bh_enable();
	assert_int_equal(tx->frames, 1);
	d = stats_delta(&base);
	assert_int_equal(d.redirects, 1);
	assert_int_equal(d.redirect_errors, 7);

	/* Outside a bottom-half-disabled section: refused, a WARN. */
	hard_warns();
	assert_int_equal(bpf_redirect((u32)b->ifindex, 0), XDP_ABORTED);
	assert_int_equal(xdp_do_redirect(rx.dev, &xdp, prog), -EINVAL);
	assert_true(hard_warns() >= 1);

	/* A deleted map entry: the helper's fallback, no target. */
	assert_int_equal(pp_devmap_update(map, 2, b->ifindex), 0);
	assert_int_equal(pp_devmap_delete(map, 2), 0);
	t = (struct target){ .map = map, .key = 2 };
	local_bh_disable();
	assert_int_equal(rx_one(&rx, prog, &err), XDP_ABORTED);
	assert_int_equal(bpf_redirect((u32)b->ifindex, 0), XDP_REDIRECT);
	/* The failed lookup clears an earlier target. */
	assert_int_equal(bpf_redirect_map(map, 2, 0), XDP_ABORTED);
	page = page_pool_dev_alloc_pages(rx.pool);
	xdp_prepare_buff(&xdp, page_address(page), XDP_PACKET_HEADROOM, LEN, true);
	assert_int_equal(xdp_do_redirect(rx.dev, &xdp, prog), -EINVAL);
	page_pool_put_full_page(rx.pool, page, true);
	local_bh_enable();
	assert_int_equal(tx->frames, 1);

	pp_devmap_destroy(map);
	pp_xdp_prog_destroy(prog);
	rx_fini(&rx);
	tx_dev_free(b);
	rcu_barrier();
	end_state();
}

/* A device unregistered while another CPU has frames queued for it: the
 * unregistration waits for that CPU's poll to end, and the poll's
 * xdp_do_flush() sends them. Afterwards the device is no target, by
 * ifindex or through the map. */
struct unreg_ctx {
	struct rx *rx;
	struct bpf_prog *prog;
	struct net_device *b;
	volatile int queued, unregistering;
};

static int unreg_seen_event(struct notifier_block *nb, unsigned long event, void *ptr);
static struct unreg_ctx *unreg_ctx;
static struct notifier_block unreg_nb = {
	.notifier_call = unreg_seen_event,
	.priority = 100,	/* before the xdp layer's */
};

static int unreg_seen_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	(void)nb;
	if (event == NETDEV_UNREGISTER && unreg_ctx &&
	    netdev_notifier_info_to_dev(ptr) == unreg_ctx->b)
		__atomic_store_n(&unreg_ctx->unregistering, 1, __ATOMIC_RELEASE);
	return NOTIFY_DONE;
}

static void *unreg_cpu1(void *arg)
{
	struct unreg_ctx *c = arg;
	int i, err;

	assert_int_equal(pp_thread_register(1), 1);
	local_bh_disable();
	for (i = 0; i < 5; i++) {
		assert_int_equal(rx_one(c->rx, c->prog, &err), XDP_REDIRECT);
		assert_int_equal(err, 0);
	}
	__atomic_store_n(&c->queued, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&c->unregistering, __ATOMIC_ACQUIRE))
		usleep(100);
	usleep(20000);	/* the unregistration now waits in its grace period */
	xdp_do_flush();
	local_bh_enable();
	pp_thread_unregister();
	return NULL;
}

static void test_unregister_queued(void **state)
{
	struct net_device *b = tx_dev();
	struct fake_tx *tx = netdev_priv(b);
	struct bpf_map *map = pp_devmap_create(2);
	struct target t = { .key = (u64)b->ifindex };
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect, &t, "unreg");
	struct unreg_ctx c = { .prog = prog, .b = b };
	struct rx rx;
	pthread_t th;
	int err;

	(void)state;
	rx_init(&rx, 0);
	c.rx = &rx;
	assert_int_equal(pp_devmap_update(map, 1, b->ifindex), 0);
	unreg_ctx = &c;
	assert_int_equal(register_netdevice_notifier(&unreg_nb), 0);
	/* The pool's pages are allocated by CPU 1 only meanwhile. */
	assert_int_equal(pthread_create(&th, NULL, unreg_cpu1, &c), 0);
	while (!__atomic_load_n(&c.queued, __ATOMIC_ACQUIRE))
		usleep(100);
	assert_int_equal(tx->calls, 0);
	hard_warns();
	unregister_netdev(b);
	/* The frames were sent before the unregistration returned. */
	assert_int_equal(tx->frames, 5);
	assert_int_equal(tx->flags[0], XDP_XMIT_FLUSH);
	assert_int_equal(hard_warns(), 0);
	pthread_join(th, NULL);
	assert_int_equal(unregister_netdevice_notifier(&unreg_nb), 0);
	unreg_ctx = NULL;

	/* Gone as a target. */
	local_bh_disable();
	assert_int_equal(rx_one(&rx, prog, &err), XDP_REDIRECT);
	assert_int_equal(err, -EINVAL);
	assert_int_equal(bpf_redirect_map(map, 1, 0), XDP_ABORTED);
	local_bh_enable();
	assert_int_equal(pp_devmap_update(map, 1, b->ifindex), -ENODEV);

	pp_devmap_destroy(map);
	pp_xdp_prog_destroy(prog);
	tx_dev_free(b);
	rx_fini(&rx);
	rcu_barrier();
	end_state();
}

/* A driver that forgets xdp_do_flush() and the device then unregisters
 * from the same CPU: WARN, the frames are sent, none lost. */
static void test_unregister_unflushed(void **state)
{
	struct net_device *b = tx_dev();
	struct fake_tx *tx = netdev_priv(b);
	struct target t = { .key = (u64)b->ifindex };
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect, &t, "unflushed");
	struct rx rx;
	int i, err;

	(void)state;
	rx_init(&rx, 0);
	local_bh_disable();
	for (i = 0; i < 3; i++) {
		assert_int_equal(rx_one(&rx, prog, &err), XDP_REDIRECT);
		assert_int_equal(err, 0);
	}
	local_bh_enable();	/* no xdp_do_flush(): a driver bug */
	hard_warns();
	tx->hold = true;
	unregister_netdev(b);
	assert_true(hard_warns() >= 1);
	assert_int_equal(tx->frames, 3);
	fake_complete(b);
	/* The flush list no longer holds the freed queue. */
	local_bh_disable();
	xdp_do_flush();
	local_bh_enable();

	pp_xdp_prog_destroy(prog);
	tx_dev_free(b);
	rx_fini(&rx);
	end_state();
}

/* Two CPUs redirect to one device at once, each from its own RX queue
 * and pool, each poll in its own softirq section. */
#define TWO_POLLS	200
#define TWO_BATCH	40

struct two_ctx {
	int cpu;
	struct rx rx;
	struct bpf_prog *prog;
	struct target t;
};

static void *two_cpu(void *arg)
{
	struct two_ctx *c = arg;
	int i;

	assert_int_equal(pp_thread_register(c->cpu), c->cpu);
	for (i = 0; i < TWO_POLLS; i++)
		rx_poll(&c->rx, c->prog, TWO_BATCH);
	if (c->cpu)
		pp_thread_unregister();
	return NULL;
}

static void test_two_cpus(void **state)
{
	struct pp_xdp_redirect_stats base, d;
	struct net_device *b = tx_dev();
	struct fake_tx *tx = netdev_priv(b);
	struct bpf_map *map = pp_devmap_create(1);
	struct two_ctx c[2];
	pthread_t th;
	int i;

	(void)state;
	assert_int_equal(pp_devmap_update(map, 0, b->ifindex), 0);
	for (i = 0; i < 2; i++) {
		c[i].cpu = i;
		rx_init(&c[i].rx, (u32)i);
		/* One by ifindex, one through the map. */
		c[i].t = i ? (struct target){ .map = map, .key = 0 }
			   : (struct target){ .key = (u64)b->ifindex };
		c[i].prog = pp_xdp_prog_create(prog_redirect, &c[i].t, "two");
	}
	assert_int_equal(pp_xdp_get_redirect_stats(&base), 0);
	assert_int_equal(pthread_create(&th, NULL, two_cpu, &c[1]), 0);
	two_cpu(&c[0]);
	pthread_join(th, NULL);
	assert_int_equal(tx->frames, 2 * TWO_POLLS * TWO_BATCH);
	d = stats_delta(&base);
	assert_int_equal(d.redirects, 2 * TWO_POLLS * TWO_BATCH);
	assert_int_equal(d.xmit_frames, 2 * TWO_POLLS * TWO_BATCH);
	/* 40 a poll: one send of 16 at the 17th and at the 33rd, one flush. */
	assert_int_equal(d.flushes, 2 * TWO_POLLS * 3);

	for (i = 0; i < 2; i++) {
		pp_xdp_prog_destroy(c[i].prog);
		rx_fini(&c[i].rx);
	}
	pp_devmap_destroy(map);
	tx_dev_free(b);
	rcu_barrier();
	end_state();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifindex),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_bulk),
		cmocka_unit_test(test_refuse),
		cmocka_unit_test(test_missing_target),
		cmocka_unit_test(test_unregister_queued),
		cmocka_unit_test(test_unregister_unflushed),
		cmocka_unit_test(test_two_cpus),
	};

	kapi_setup();
	dma_dev = pp_device_create("redirect", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR_OR_NULL(dma_dev))
		abort();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
