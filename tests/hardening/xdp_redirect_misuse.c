/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XDP_REDIRECT misused by a careless driver or program, each case a
 * finding of the outside trial:
 *
 *   - a stale target: a program calls bpf_redirect_map() and then returns
 *     another verdict, so no xdp_do_redirect() consumes the target; the
 *     device is unregistered and freed; in a later poll a program returns
 *     XDP_REDIRECT without a helper call. The redirect info kept the
 *     device's pointer across bottom-half sections, and xdp_do_redirect()
 *     followed it into the freed net_device (a use after free). Now a
 *     devmap target is the device's ifindex, looked up again as
 *     bpf_redirect()'s is: -EINVAL, the buffer stays the driver's;
 *   - xdp_do_redirect() with no RX device: the bulk queue is on the flush
 *     list exactly when its dev_rx is set, so a NULL dev_rx listed the
 *     queue again at the next frame, and xdp_do_flush() then looped for
 *     ever on the corrupted list. Now WARN and -EINVAL (a NULL buffer
 *     too), nothing queued;
 *   - a device unregistered inside a bottom-half-disabled section, with a
 *     frame this very section queued for it: the queues were leaked as
 *     they were, still naming the device, so the section's xdp_do_flush()
 *     called ndo_xdp_xmit through the freed net_device. Now every queue is
 *     marked dead there, as for an unflushed queue on another CPU, and
 *     the flush gives its frames back without touching the device.
 *
 * Built as users build (installed headers, pkg-config only); in the
 * ASan+UBSan build the first and last are heap-use-after-free reports
 * without their fixes.
 */
#include "xdp_hard.h"

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/rtnetlink.h>

/* A TX device whose ndo_xdp_xmit completes at once and counts its calls. */
struct tx_priv {
	int calls;
	int frames;
};

static int tx_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	struct tx_priv *p = netdev_priv(dev);
	int i;

	(void)flags;
	p->calls++;
	p->frames += n;
	for (i = 0; i < n; i++)
		xdp_return_frame(frames[i]);
	return n;
}

static const struct net_device_ops tx_ops = { .ndo_xdp_xmit = tx_xmit };

/* Calls of every TX device's ndo_xdp_xmit, kept outside the devices so
 * that a call made after free_netdev() is seen without reading one. */
static int calls_after_free;
static struct net_device *freed_dev;

static int tx_xmit_watch(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	if (dev == freed_dev)
		calls_after_free++;
	return tx_xmit(dev, n, frames, flags);
}

static const struct net_device_ops tx_watch_ops = { .ndo_xdp_xmit = tx_xmit_watch };

static struct net_device *tx_dev(const struct net_device_ops *ops)
{
	struct net_device *dev = alloc_etherdev(sizeof(struct tx_priv));

	assert_non_null(dev);
	dev->netdev_ops = ops;
	assert_int_equal(register_netdev(dev), 0);
	dev->flags |= IFF_UP;
	return dev;
}

static void tx_dev_free(struct net_device *dev)
{
	unregister_netdev(dev);
	free_netdev(dev);
}

static struct page_pool *pool;
static struct xdp_rxq_info rxq;

/* A received buffer, as a driver's poll prepares it. */
static struct page *rx_buf(struct xdp_buff *xdp)
{
	struct page *page = page_pool_dev_alloc_pages(pool);

	assert_non_null(page);
	xdp_init_buff(xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(xdp, page_address(page), XH_HEADROOM, XH_LEN, true);
	return page;
}

static struct pp_xdp_redirect_stats stats(void)
{
	struct pp_xdp_redirect_stats st;

	assert_int_equal(pp_xdp_get_redirect_stats(&st), 0);
	return st;
}

static void test_stale_map_target(void **state)
{
	struct bpf_map *map = pp_devmap_create(1);
	struct net_device *tx = tx_dev(&tx_ops);
	struct pp_xdp_redirect_stats s0;
	struct xdp_buff xdp;
	struct page *page;

	(void)state;
	assert_false(IS_ERR(map));
	assert_int_equal(pp_devmap_update(map, 0, tx->ifindex), 0);

	/* A poll: the program looks the entry up, then passes the packet. */
	local_bh_disable();
	assert_int_equal(bpf_redirect_map(map, 0, 0), XDP_REDIRECT);
	local_bh_enable();

	tx_dev_free(tx);
	pp_devmap_destroy(map);
	synchronize_rcu();

	/* A later poll: XDP_REDIRECT with no helper call this time. */
	s0 = stats();
	local_bh_disable();
	page = rx_buf(&xdp);
	assert_int_equal(xdp_do_redirect(xh_netdev, &xdp, NULL), -EINVAL);
	page_pool_put_full_page(pool, page, true);	/* still the driver's */
	xdp_do_flush();
	local_bh_enable();
	assert_int_equal(stats().redirect_errors, s0.redirect_errors + 1);
	assert_int_equal(stats().redirects, s0.redirects);

	/* A live device in the map still gets the frame, through the
	 * same lookup. */
	tx = tx_dev(&tx_ops);
	map = pp_devmap_create(1);
	assert_int_equal(pp_devmap_update(map, 0, tx->ifindex), 0);
	local_bh_disable();
	assert_int_equal(bpf_redirect_map(map, 0, 0), XDP_REDIRECT);
	rx_buf(&xdp);
	assert_int_equal(xdp_do_redirect(xh_netdev, &xdp, NULL), 0);
	xdp_do_flush();
	local_bh_enable();
	assert_int_equal(((struct tx_priv *)netdev_priv(tx))->frames, 1);
	pp_devmap_destroy(map);
	tx_dev_free(tx);
	assert_int_equal(hard_warns(), 0);
}

static void test_null_args(void **state)
{
	struct net_device *tx = tx_dev(&tx_ops);
	struct tx_priv *p = netdev_priv(tx);
	struct pp_xdp_redirect_stats s0 = stats();
	struct xdp_buff xdp;
	struct page *page;
	int i;

	(void)state;
	hard_warns();
	local_bh_disable();
	/* Two frames with no RX device on a queue not yet listed. */
	for (i = 0; i < 2; i++) {
		assert_int_equal(bpf_redirect(tx->ifindex, 0), XDP_REDIRECT);
		page = rx_buf(&xdp);
		assert_int_equal(xdp_do_redirect(NULL, &xdp, NULL), -EINVAL);
		page_pool_put_full_page(pool, page, true);
	}
	assert_int_equal(bpf_redirect(tx->ifindex, 0), XDP_REDIRECT);
	assert_int_equal(xdp_do_redirect(xh_netdev, NULL, NULL), -EINVAL);
	/* The target was consumed by the refused calls too. */
	page = rx_buf(&xdp);
	assert_int_equal(xdp_do_redirect(xh_netdev, &xdp, NULL), -EINVAL);
	page_pool_put_full_page(pool, page, true);
	/* The queue and the flush list still work. */
	assert_int_equal(bpf_redirect(tx->ifindex, 0), XDP_REDIRECT);
	rx_buf(&xdp);
	assert_int_equal(xdp_do_redirect(xh_netdev, &xdp, NULL), 0);
	xdp_do_flush();
	local_bh_enable();
	assert_true(hard_warns() >= 1);
	assert_true(kapi_logged("xdp_do_redirect() with no"));
	assert_int_equal(p->calls, 1);
	assert_int_equal(p->frames, 1);
	assert_int_equal(stats().redirect_errors, s0.redirect_errors + 4);
	tx_dev_free(tx);
}

static void test_unregister_in_section(void **state)
{
	struct net_device *tx = tx_dev(&tx_watch_ops);
	struct pp_xdp_redirect_stats s0 = stats();
	struct xdp_buff xdp;

	(void)state;
	hard_warns();
	local_bh_disable();
	assert_int_equal(bpf_redirect(tx->ifindex, 0), XDP_REDIRECT);
	rx_buf(&xdp);
	assert_int_equal(xdp_do_redirect(xh_netdev, &xdp, NULL), 0);
	/* The driver bug: the device goes away inside the section. */
	freed_dev = tx;
	tx_dev_free(tx);
	assert_int_equal(hard_warns(), 1);
	assert_true(kapi_logged("unregistered inside a bottom-half-disabled"));
	xdp_do_flush();
	local_bh_enable();
	/* The frame came back without the device being called. */
	assert_int_equal(calls_after_free, 0);
	assert_int_equal(stats().xmit_drops, s0.xmit_drops + 1);
	assert_int_equal(stats().xmit_frames, s0.xmit_frames);
	freed_dev = NULL;
}

static int setup(void **state)
{
	(void)state;
	pool = xh_pool();
	xh_rxq_reg(&rxq, 0, pool);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	xh_teardown(&rxq, pool);
	xh_assert_end_state();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stale_map_target, setup, teardown),
		cmocka_unit_test_setup_teardown(test_null_args, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unregister_in_section, setup, teardown),
	};

	xh_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
