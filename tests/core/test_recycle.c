/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Recycling paths: the napi-local rule (softirq + per-CPU pool id, or the
 * CPU whose poll list holds the pool's NAPI), direct vs ring vs release,
 * bulk puts over mixed pools, and the DMA contract: map once and keep the
 * page mapped while it recycles, sync for device of max_len at map time and
 * of min(size, max_len) at `offset` on each recycle, and allocation that
 * survives DMA-map faults.
 */
#include <pthread.h>
#include <string.h>

#include "core_test.h"
#include "core/ring.h"	/* struct pp_lane: a white-box look at the lanes */
#include "core/ring_llist.h"	/* and at the list designs' list */

static struct device *dev;

static int noop_poll(struct napi_struct *n, int budget)
{
	(void)budget;
	napi_complete_done(n, 0);
	return 0;
}

static void test_napi_local_rule(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct napi_struct napi;
	struct page *p;

	(void)state;
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	/* Process context, no napi: ring. */
	page_pool_put_full_page(pool, p, false);
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 1);

	memset(&napi, 0, sizeof(napi));
	netif_napi_add(NULL, &napi, noop_poll);
	napi_enable(&napi);
	page_pool_enable_direct_recycling(pool, &napi);
	assert_ptr_equal(pool->p.napi, &napi);

	/* In softirq but the NAPI is idle (list_owner -1): ring. */
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	local_bh_disable();
	page_pool_put_full_page(pool, p, false);
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 2);

	/* Scheduled on this CPU: the non-direct put is local, so cached. */
	napi_schedule(&napi);
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_put_full_page(pool, p, false);
	assert_int_equal(pool_stats(pool).recycle_stats.cached, 1);
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 2);
	local_bh_enable();			/* runs the poll: completes */
	assert_int_equal(napi.list_owner, -1);

	/* Scheduled, but outside softirq: not local. */
	napi_schedule(&napi);
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_put_full_page(pool, p, false);
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 3);
	pp_net_rx_action();

	napi_disable(&napi);
	page_pool_disable_direct_recycling(pool);
	assert_null(pool->p.napi);
	destroy_and_settle(pool);
	netif_napi_del(&napi);
	assert_all_pages_home();
}

static void test_percpu_pool_rule(void **state)
{
	struct page_pool_params pp = { .pool_size = 64, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create_percpu(&pp, smp_processor_id());
	struct page *p;

	(void)state;
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	local_bh_disable();
	page_pool_put_full_page(pool, p, false);	/* cpuid matches, softirq */
	local_bh_enable();
	assert_int_equal(pool_stats(pool).recycle_stats.cached, 1);

	page_pool_disable_direct_recycling(pool);	/* cpuid = -1 */
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	local_bh_disable();
	page_pool_put_full_page(pool, p, false);
	local_bh_enable();
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 1);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

struct remote_put {
	struct page_pool *pool;
	struct page **pages;
	int n;
};

static void *remote_put_fn(void *arg)
{
	struct remote_put *r = arg;
	int i;

	/* Another CPU, even in softirq, is never local to the pool. */
	local_bh_disable();
	for (i = 0; i < r->n; i++)
		page_pool_put_full_page(r->pool, r->pages[i], false);
	local_bh_enable();
	return NULL;
}

static void test_other_cpu_goes_to_ring(void **state)
{
	struct page_pool_params pp = { .pool_size = 256, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create_percpu(&pp, smp_processor_id());
	struct page *pages[32];
	struct remote_put r = { pool, pages, 32 };
	int i;

	(void)state;
	for (i = 0; i < 32; i++)
		pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	pp_test_run_thread(remote_put_fn, &r);
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 32);
	assert_int_equal(pool_stats(pool).recycle_stats.cached, 0);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

/* Pages parked in the ring, the lanes or the list, each checked to be the
 * pool's. */
static int count_parked_in(struct page_pool *pool, struct ptr_ring *r)
{
	int i, n = 0;

	for (i = 0; i < r->size; i++) {
		netmem_ref netmem = (netmem_ref)r->queue[i];

		if (netmem) {
			assert_ptr_equal(netmem_get_pp(netmem), pool);
			n++;
		}
	}
	return n;
}

static int count_parked_in_chain(struct page_pool *pool, netmem_ref netmem)
{
	int n = 0;

	for (; netmem; netmem = pp_llist_first(*netmem_ring_link(netmem)), n++)
		assert_ptr_equal(netmem_get_pp(netmem), pool);
	return n;
}

static int count_parked(struct page_pool *pool)
{
	int cpu, n = count_parked_in(pool, &pool->ring);

	if (pool->ring_design == PP_RING_LLIST || pool->ring_design == PP_RING_LLIST_BATCH) {
		struct pp_llist *l = pool->ring_state;

		n += count_parked_in_chain(pool,
				pp_llist_first((unsigned long)atomic_long_read(&l->head)));
		n += count_parked_in_chain(pool, l->priv);
	}

	if (pool->lanes)
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			if (pool->lanes[cpu])
				n += count_parked_in(pool, &pool->lanes[cpu]->ring);
	if (page_pool_ring_design(pool) == PP_RING_MAGAZINE)
		n += (int)ppcore_mag_parked(pool);
	return n;
}

static void test_bulk_mixed_pools(void **state)
{
	struct page_pool *pools[3];
	netmem_ref data[40], extra;
	int i, k;

	(void)state;
	for (k = 0; k < 3; k++)
		pools[k] = make_pool(0, NULL, 0);
	/* 40 pages interleaved over three pools; one holds a second pp
	 * reference and must survive the bulk put. */
	for (i = 0; i < 40; i++)
		data[i] = page_pool_alloc_netmems(pools[i % 3], GFP_ATOMIC);
	extra = data[7];				/* pool 1 */
	page_pool_ref_netmem(extra);
	page_pool_put_netmem_bulk(data, 40);
	/* pool 0 got 14 pages, pool 1 13 (one still held), pool 2 13 */
	assert_int_equal(pool_stats(pools[0]).recycle_stats.ring, 14);
	assert_int_equal(pool_stats(pools[1]).recycle_stats.ring, 12);
	assert_int_equal(pool_stats(pools[2]).recycle_stats.ring, 13);
	page_pool_put_full_netmem(pools[1], extra, false);
	assert_int_equal(pool_stats(pools[1]).recycle_stats.ring, 13);
	/* Each pool's ring (and lanes) hold its own pages only. */
	for (k = 0; k < 3; k++)
		assert_int_equal(count_parked(pools[k]), k == 0 ? 14 : 13);
	for (k = 0; k < 3; k++)
		destroy_and_settle(pools[k]);
	assert_all_pages_home();
}

/* DMA: record the syncs for the device. */
struct sync_rec {
	dma_addr_t addr;
	size_t size;
	enum dma_data_direction dir;
};
static struct sync_rec syncs[256];
static int nr_syncs;

static void trace(struct device *d, enum pp_dma_op op, dma_addr_t addr, size_t size,
		  enum dma_data_direction dir, void *arg)
{
	(void)d;
	(void)arg;
	if (op == PP_DMA_OP_SYNC_FOR_DEVICE && nr_syncs < 256)
		syncs[nr_syncs++] = (struct sync_rec){ addr, size, dir };
}

static void test_dma_map_once_and_sync(void **state)
{
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = dev, .dma_dir = DMA_FROM_DEVICE,
		.max_len = 1500, .offset = 256, .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct page_pool *pool = page_pool_create(&pp);
	struct pp_dma_stats ds0, ds;
	struct page *p;
	dma_addr_t dma;
	int i;

	(void)state;
	pp_dma_set_trace(dev, trace, NULL);
	nr_syncs = 0;
	pp_dma_get_stats(dev, &ds0);
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.maps - ds0.maps, 64);		/* the bulk, mapped once */
	assert_int_equal(nr_syncs, 64);				/* each synced at map */
	for (i = 0; i < 64; i++) {
		assert_int_equal(syncs[i].size, 1500);		/* max_len */
		assert_int_equal(syncs[i].dir, DMA_FROM_DEVICE);
	}
	dma = page_pool_get_dma_addr(p);
	assert_true(dma != 0 && dma != DMA_MAPPING_ERROR);

	/* Recycle with a small length: min(len, max_len) at dma + offset. */
	nr_syncs = 0;
	local_bh_disable();
	page_pool_put_page(pool, p, 100, true);
	assert_int_equal(nr_syncs, 1);
	assert_int_equal(syncs[0].addr, dma + 256);
	assert_int_equal(syncs[0].size, 100);
	/* A long (or "full", -1) length is clamped to max_len. */
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_int_equal(page_pool_get_dma_addr(p), dma);	/* same page, same mapping */
	page_pool_put_page(pool, p, 9000, true);
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_put_full_page(pool, p, true);
	local_bh_enable();
	assert_int_equal(nr_syncs, 3);
	assert_int_equal(syncs[1].size, 1500);
	assert_int_equal(syncs[2].size, 1500);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.maps - ds0.maps, 64);		/* no re-mapping */
	assert_int_equal(ds.unmaps - ds0.unmaps, 0);

	/* The driver's sync for the CPU, at offset + pool offset. */
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	page_pool_dma_sync_for_cpu(pool, p, 14, 64);
	page_pool_put_full_page(pool, p, false);

	pp_dma_set_trace(dev, NULL, NULL);
	destroy_and_settle(pool);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.unmaps - ds0.unmaps, 64);		/* each unmapped once */
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_all_pages_home();
}

static void test_dma_map_faults(void **state)
{
	struct page_pool *pool = make_pool(PP_FLAG_DMA_MAP, dev, 0);
	struct pp_dma_stats ds0, ds;
	struct page *p;

	(void)state;
	pp_dma_get_stats(dev, &ds0);
	/* Every other mapping fails: the bulk keeps the 32 that mapped. */
	pp_fault_inject(PP_FAULT_DMA_MAP, &(struct pp_fault_config){ .every_nth = 2 });
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	pp_fault_inject(PP_FAULT_DMA_MAP, NULL);
	assert_non_null(p);
	assert_int_equal(pool->alloc.count, 31);
	assert_int_equal(pool_inflight(pool), 32);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.map_errors - ds0.map_errors, 32);

	page_pool_put_full_page(pool, p, false);
	destroy_and_settle(pool);
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_all_pages_home();

	/* All fail: the allocation fails cleanly, nothing held. */
	pool = make_pool(PP_FLAG_DMA_MAP, dev, 0);
	pp_fault_inject(PP_FAULT_DMA_MAP, &(struct pp_fault_config){ .probability = 1.0 });
	assert_null(page_pool_alloc_pages(pool, GFP_ATOMIC));
	pp_fault_inject(PP_FAULT_DMA_MAP, NULL);
	assert_int_equal(pool_inflight(pool), 0);
	assert_all_pages_home();
	/* ...and works again when the fault clears. */
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_non_null(p);
	page_pool_put_full_page(pool, p, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_page_alloc_fault(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct page *p;

	(void)state;
	pp_fault_inject(PP_FAULT_PAGE_ALLOC, &(struct pp_fault_config){ .probability = 1.0 });
	assert_null(page_pool_alloc_pages(pool, GFP_ATOMIC));
	pp_fault_inject(PP_FAULT_PAGE_ALLOC, NULL);
	assert_int_equal(pool_stats(pool).alloc_stats.slow, 0);
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_non_null(p);
	page_pool_put_full_page(pool, p, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_napi_local_rule),
		cmocka_unit_test(test_percpu_pool_rule),
		cmocka_unit_test(test_other_cpu_goes_to_ring),
		cmocka_unit_test(test_bulk_mixed_pools),
		cmocka_unit_test(test_dma_map_once_and_sync),
		cmocka_unit_test(test_dma_map_faults),
		cmocka_unit_test(test_page_alloc_fault),
	};
	int ret;

	core_test_init(32, 1);
	pp_thread_register(0);
	dev = pp_device_create("recycle0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	ret = pp_test_run_on_each_ring(tests, ARRAY_SIZE(tests));
	pp_device_destroy(dev);
	return ret;
}
