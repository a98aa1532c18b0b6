/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Shared set-up for the XDP suites: arena and log capture, a registered
 * net_device, pools, RX queues with a page_pool memory model, frames made
 * the way a driver makes them, and the "every page is home" check.
 */
#ifndef PP_XDP_TEST_H
#define PP_XDP_TEST_H

#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <pagepool.h>
#include <pagepool/xdp.h>

#include "pool_test.h"
#include "xdp/xdp_internal.h"
#include "test_common.h"

#define XT_HEADROOM	XDP_PACKET_HEADROOM	/* 256, UAPI <linux/bpf.h> */
#define XT_LEN		64

static struct net_device *xt_netdev __maybe_unused;

static inline void xdp_test_init(void)
{
	struct pp_mem_config cfg = { .size = 32 << 20, .nr_nodes = 1 };

	pp_test_capture_log();
	if (pp_mem_init(&cfg) || pp_thread_register(0) != 0)
		abort();
	pp_page_pool_set_defer_times(10, 60 * 1000);
	xt_netdev = alloc_etherdev(0);
	if (!xt_netdev || register_netdev(xt_netdev))
		abort();
}

/* Every page taken from the page allocator is back, none marked page_pool. */
static inline void assert_all_pages_home(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	assert_int_equal(st.pp_pages, 0);
	assert_int_equal(st.free_pages, st.total_pages);
}

/* Ids in use once every pending removal has run (they are released from
 * RCU callbacks). */
static inline unsigned int xt_mem_ids(void)
{
	rcu_barrier();
	return pp_xdp_mem_id_count();
}

static inline struct page_pool *xt_pool(struct napi_struct *napi)
{
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = 1024,
		.nid = NUMA_NO_NODE,
		.napi = napi,
		.dma_dir = DMA_BIDIRECTIONAL,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR(pool));
	return pool;
}

/* An RX queue on xt_netdev with @pool as its page_pool memory model. */
static inline void xt_rxq_reg(struct xdp_rxq_info *rxq, u32 qid, struct page_pool *pool)
{
	memset(rxq, 0, sizeof(*rxq));
	assert_int_equal(xdp_rxq_info_reg(rxq, xt_netdev, qid, 0), 0);
	assert_int_equal(xdp_rxq_info_reg_mem_model(rxq, MEM_TYPE_PAGE_POOL, pool), 0);
	assert_int_not_equal(rxq->mem.id, 0);
	assert_int_equal(pool->xdp_mem_id, rxq->mem.id);
}

/* What a driver does for XDP_REDIRECT / XDP_TX: buffer -> frame. */
static inline struct xdp_frame *xt_frame_from(struct page *page, struct xdp_rxq_info *rxq)
{
	struct xdp_buff xdp;
	struct xdp_frame *f;

	assert_non_null(page);
	xdp_init_buff(&xdp, PAGE_SIZE, rxq);
	xdp_prepare_buff(&xdp, page_address(page), XT_HEADROOM, XT_LEN, true);
	f = xdp_convert_buff_to_frame(&xdp);
	assert_ptr_equal(f, page_address(page));
	return f;
}

static inline struct xdp_frame *xt_frame(struct page_pool *pool, struct xdp_rxq_info *rxq)
{
	return xt_frame_from(page_pool_alloc_pages(pool, GFP_ATOMIC), rxq);
}


static inline bool xt_pool_alive(u32 pool_id)
{
	struct pp_page_pool_info info;

	return pp_page_pool_get_info(pool_id, &info) == 0;
}

/* Unregister the queue (drops the XDP reference), destroy (the driver's),
 * and let deferred release run. */
static inline void xt_teardown(struct xdp_rxq_info *rxq, struct page_pool *pool)
{
	u32 id = pp_page_pool_id(pool);

	xdp_rxq_info_unreg(rxq);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	assert_false(xt_pool_alive(id));
}

/* A NAPI whose poll (call_poll) runs @fn: run_in_poll() schedules it on
 * this thread and lets the softirq run it, as the owner's RX poll. */
static void (*poll_fn)(void *arg) __maybe_unused;
static void *poll_arg __maybe_unused;

static inline int call_poll(struct napi_struct *n, int budget)
{
	(void)budget;
	poll_fn(poll_arg);
	napi_complete_done(n, 1);
	return 1;
}

static inline void run_in_poll(struct napi_struct *napi, void (*fn)(void *), void *arg)
{
	poll_fn = fn;
	poll_arg = arg;
	local_bh_disable();
	assert_true(napi_schedule(napi));
	local_bh_enable();		/* runs the poll */
	assert_int_equal(READ_ONCE(napi->list_owner), -1);
}

/*
 * The three ways a frame finds its pool: 0 the direct generation (the
 * pool pointer in the page), 1 the lookup generation on pagepool's id
 * table, 2 the lookup generation on liburcu's rculfhash. A build has the
 * ones its options chose (-Dxdp_return, -Dxdp_table), or all three with
 * -Ddesigns=all.
 */
#define XT_GENERATIONS	3

static const char *const xt_generation_name[XT_GENERATIONS] __maybe_unused = {
	"direct", "lookup on the id table", "lookup on rculfhash",
};

static inline bool xt_generation_built(int g)
{
	switch (g) {
	case 0:
		return IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_DIRECT);
	case 1:
		return IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP) &&
		       IS_ENABLED(CONFIG_PAGEPOOL_XDP_TABLE_ID);
	default:
		return IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP) &&
		       IS_ENABLED(CONFIG_PAGEPOOL_XDP_TABLE_RCULFHASH);
	}
}

/*
 * Switch to generation @g: true; false, after a message, when the build
 * does not have it - the setters must then have refused with -EOPNOTSUPP.
 * The direct generation reads no table, so it sets none.
 */
static inline bool xt_set_generation(int g)
{
	static bool said[XT_GENERATIONS];
	int mode = pp_xdp_set_return_mode(g ? PP_XDP_RETURN_LOOKUP : PP_XDP_RETURN_DIRECT);
	int table = g ? pp_xdp_set_lookup_table(g == 2 ? PP_XDP_TABLE_RCULFHASH
						       : PP_XDP_TABLE_ID) : 0;

	if (!xt_generation_built(g)) {
		assert_true(mode == -EOPNOTSUPP || table == -EOPNOTSUPP);
		assert_true(mode >= 0 || mode == -EOPNOTSUPP);
		assert_true(table >= 0 || table == -EOPNOTSUPP);
		if (!said[g])
			print_message("    generation \"%s\" is not in this build (meson "
				      "-Ddesigns=all): its runs are skipped\n", xt_generation_name[g]);
		said[g] = true;
		return false;
	}
	assert_true(mode >= 0);
	assert_true(table >= 0);
	return true;
}

/* A test of generation @g alone: switch to it, or skip the test. */
#define xt_require_generation(g)					\
	do {								\
		if (!xt_set_generation(g))				\
			skip();						\
	} while (0)

/* Back to what the build starts with (-Dxdp_return, -Dxdp_table). */
static inline void xt_default_generation(void)
{
	assert_true(pp_xdp_set_return_mode(CONFIG_PAGEPOOL_XDP_RETURN_DEFAULT) >= 0);
	assert_true(pp_xdp_set_lookup_table(CONFIG_PAGEPOOL_XDP_TABLE_DEFAULT) >= 0);
}

/* The allocator @id names now in the table the lookup generation reads
 * (the build's, or the one pp_xdp_set_lookup_table() chose), or NULL. */
static inline void *lookup_allocator(u32 id)
{
	struct xdp_mem_allocator *xa;
	void *a;

	rcu_read_lock();
	xa = ppxdp_mem_lookup(id);
	a = xa ? xa->allocator : NULL;
	rcu_read_unlock();
	return a;
}

#endif
