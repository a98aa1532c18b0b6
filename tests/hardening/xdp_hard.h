/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What the XDP hardening programs (xdp_*.c) share, on top of hard.h:
 * a registered net_device, pools, RX queues with a page_pool memory model,
 * frames made the way a driver makes them, and the two return generations.
 * Installed API only (<net/xdp.h>, <pagepool/xdp.h>, the kernel headers).
 */
#ifndef PP_XDP_HARD_H
#define PP_XDP_HARD_H

#include "hard.h"

#include <linux/bottom_half.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <net/xdp.h>
#include <pagepool/xdp.h>

#define XH_HEADROOM	XDP_PACKET_HEADROOM
#define XH_LEN		64

static struct net_device *xh_netdev;
static struct device *xh_dev;

/* kapi_setup(), a registered net_device for the RX queues, and an IOMMU
 * device with DMA-API debug for the pools to map their pages on. */
static inline void xh_setup(void)
{
	kapi_setup();
	xh_netdev = alloc_etherdev(0);
	if (!xh_netdev || register_netdev(xh_netdev))
		abort();
	xh_dev = pp_device_create("xdp-hard", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR_OR_NULL(xh_dev))
		abort();
}

/* A DMA-mapping pool on xh_dev, as an XDP driver's (bidirectional: XDP_TX). */
static inline struct page_pool *xh_pool(void)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
		.dev = xh_dev,
		.dma_dir = DMA_BIDIRECTIONAL,
		.max_len = PAGE_SIZE,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

/* An RX queue on xh_netdev with @pool as its page_pool memory model. */
static inline void xh_rxq_reg(struct xdp_rxq_info *rxq, u32 qid, struct page_pool *pool)
{
	memset(rxq, 0, sizeof(*rxq));
	assert_int_equal(xdp_rxq_info_reg(rxq, xh_netdev, qid, 0), 0);
	assert_int_equal(xdp_rxq_info_reg_mem_model(rxq, MEM_TYPE_PAGE_POOL, pool), 0);
	assert_int_not_equal(rxq->mem.id, 0);
}

/* What a driver does for XDP_REDIRECT / XDP_TX: buffer -> frame. */
static inline struct xdp_frame *xh_frame_from(struct page *page, struct xdp_rxq_info *rxq)
{
	struct xdp_buff xdp;
	struct xdp_frame *f;

	assert_non_null(page);
	xdp_init_buff(&xdp, PAGE_SIZE, rxq);
	xdp_prepare_buff(&xdp, page_address(page), XH_HEADROOM, XH_LEN, true);
	f = xdp_convert_buff_to_frame(&xdp);
	assert_ptr_equal(f, page_address(page));
	return f;
}

/* The driver's teardown: unregister the queue, destroy the pool, let the
 * deferred release run; the pool is gone. */
static inline void xh_teardown(struct xdp_rxq_info *rxq, struct page_pool *pool)
{
	struct pp_page_pool_info info;
	u32 id = pp_page_pool_id(pool);

	xdp_rxq_info_unreg(rxq);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	assert_int_not_equal(pp_page_pool_get_info(id, &info), 0);
}

/* The end state every test asserts: every page home, none marked
 * page_pool, no DMA-API violation on any device. */
static inline void xh_assert_end_state(void)
{
	kapi_assert_all_pages_home();
	assert_int_equal(pp_dma_violations(NULL), 0);
}

/* Memory models registered once every pending removal has run. */
static inline unsigned int xh_mem_ids(void)
{
	rcu_barrier();
	return pp_xdp_mem_id_count();
}

static inline unsigned long xh_not_pp(void)
{
	struct pp_page_pool_misuse m;

	pp_page_pool_get_misuse(&m);
	return m.not_pp_page;
}

static inline unsigned long xh_double_puts(void)
{
	struct pp_page_pool_misuse m;

	pp_page_pool_get_misuse(&m);
	return m.double_put;
}

/* Both generations of __xdp_return(): run a test once per mode. */
static const int xh_modes[2] = { PP_XDP_RETURN_DIRECT, PP_XDP_RETURN_LOOKUP };

static inline const char *xh_mode_name(int mode)
{
	return mode == PP_XDP_RETURN_LOOKUP ? "lookup" : "direct";
}

#endif /* PP_XDP_HARD_H */
