/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A provider pool of DMA_BIDIRECTIONAL (an XDP_TX pool) over net_iovs
 * backed by host memory (tests/common/hostmem_mp.h): 2 KiB fragments of a
 * 4 KiB net_iov with their DMA addresses, syncs for the CPU and for the
 * device on the provider's one mapping, puts of the net_iov and of the
 * page behind it (single, bulk, 6.12's bulk of addresses; the wrong pool
 * named is refused), page_pool_destroy() with net_iovs still held and
 * their later release to the provider. No DMA-API violation, every page
 * home.
 */
#include <string.h>

#include <net/page_pool/memory_provider.h>
#include <pagepool/dma.h>

#include "core_test.h"
#include "hostmem_mp.h"

static struct device *dev;
static struct net_device *netdev;

static struct pp_page_pool_misuse misuse(void)
{
	struct pp_page_pool_misuse m;

	assert_int_equal(pp_page_pool_get_misuse(&m), 0);
	return m;
}

static unsigned long recycled(struct page_pool *pool)
{
	struct page_pool_stats st = pool_stats(pool);

	return st.recycle_stats.cached + st.recycle_stats.ring;
}

static char *niov_va(netmem_ref netmem)
{
	return pp_net_iov_address(netmem_to_net_iov(netmem));
}

static void test_frags_dma_and_syncs(void **state)
{
	struct pp_memory_provider_params p;
	struct hostmem_mp *mp = hostmem_mp_create(dev, 3);
	struct page_pool *pool;
	struct pp_dma_stats ds0, ds;
	netmem_ref a, b;
	unsigned int oa, ob;
	unsigned int idx;
	char buf[8];

	(void)state;
	assert_non_null(mp);
	pool = hostmem_pool(mp, netdev, NULL, &p);
	assert_false(IS_ERR(pool));
	assert_int_equal(page_pool_get_dma_dir(pool), DMA_BIDIRECTIONAL);
	pp_dma_get_stats(dev, &ds0);

	a = page_pool_alloc_frag_netmem(pool, &oa, 2048, GFP_ATOMIC);
	b = page_pool_alloc_frag_netmem(pool, &ob, 2048, GFP_ATOMIC);
	assert_true(netmem_is_net_iov(a));
	assert_true(a == b);
	assert_int_equal(oa, 0);
	assert_int_equal(ob, 2048);
	idx = net_iov_idx(netmem_to_net_iov(a));
	assert_int_equal(page_pool_get_dma_addr_netmem(a), mp->dma[idx]);
	assert_ptr_equal(niov_va(a), page_address(mp->pages + idx));

	/* The device writes the second fragment; after the sync for the CPU
	 * the CPU reads it at the net_iov's address. */
	assert_int_equal(pp_dma_device_write(dev, page_pool_get_dma_addr_netmem(b) + ob, "frag1",
					     6), 0);
	page_pool_dma_sync_netmem_for_cpu(pool, b, ob, 6);
	assert_string_equal(niov_va(b) + ob, "frag1");
	/* The CPU writes the first (XDP_TX), the device reads it. */
	strcpy(niov_va(a) + oa, "frag0");
	dma_sync_single_for_device(dev, page_pool_get_dma_addr_netmem(a) + oa, 6,
				   DMA_BIDIRECTIONAL);
	assert_int_equal(pp_dma_device_read(dev, page_pool_get_dma_addr_netmem(a) + oa, buf, 6),
			 0);
	assert_string_equal(buf, "frag0");
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.syncs_for_cpu - ds0.syncs_for_cpu, 1);
	assert_int_equal(ds.maps, ds0.maps);	/* the provider mapped at create */

	page_pool_put_full_netmem(pool, a, false);
	assert_int_equal(recycled(pool), 0);
	page_pool_put_full_netmem(pool, b, false);
	/* Not recycled yet: it is the frag page, drained at the next
	 * fragment that does not fit (or destroy). */
	destroy_and_settle(pool);
	assert_int_equal(hostmem_free(mp), hostmem_nr(mp));
	assert_int_equal(mp->users, 0);
	net_mp_close_rxq(netdev, 0, &p);
	assert_int_equal(hostmem_mp_destroy(mp), 0);
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_all_pages_home();
}

/* Puts that name the page behind the net_iov: resolved to the net_iov. */
static void test_puts_of_the_page(void **state)
{
	struct pp_memory_provider_params p;
	struct hostmem_mp *mp = hostmem_mp_create(dev, 3);
	struct pp_page_pool_misuse m0, m1;
	struct page_pool *pool, *other;
	netmem_ref n[6], bulk[2];
	void *addrs[2];
	unsigned long warns;
	int i;

	(void)state;
	assert_non_null(mp);
	pool = hostmem_pool(mp, netdev, NULL, &p);
	assert_false(IS_ERR(pool));
	other = make_pool(0, NULL, 0);
	for (i = 0; i < 6; i++) {
		n[i] = page_pool_alloc_netmems(pool, GFP_ATOMIC);
		assert_true(netmem_is_net_iov(n[i]));
	}
	warns = pp_warn_count();
	m0 = misuse();

	/* The wrong pool named: refused, the net_iov still held. */
	page_pool_put_full_page(other, virt_to_page(niov_va(n[0])), false);
	m1 = misuse();
	assert_int_equal(m1.foreign_pool - m0.foreign_pool, 1);
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal(recycled(pool), 0);
	assert_int_equal(atomic_long_read(netmem_get_pp_ref_count_ref(n[0])), 1);
	warns = pp_warn_count();
	m0 = misuse();

	/* Single puts of the page (a pointer anywhere in it), direct and not. */
	page_pool_put_full_page(pool, virt_to_page(niov_va(n[0]) + 100), false);
	assert_int_equal(recycled(pool), 1);
	local_bh_disable();
	page_pool_recycle_direct(pool, virt_to_page(niov_va(n[1])));
	local_bh_enable();
	assert_int_equal(pool_stats(pool).recycle_stats.cached, 1);
	/* page_pool_free_va() of an address in it. */
	page_pool_free_va(pool, niov_va(n[2]) + 256, false);
	assert_int_equal(recycled(pool), 3);
	/* The bulk of netmems, pages of bound net_iovs. */
	bulk[0] = page_to_netmem(virt_to_page(niov_va(n[3])));
	bulk[1] = page_to_netmem(virt_to_page(niov_va(n[4])));
	page_pool_put_netmem_bulk(bulk, 2);
	assert_int_equal(recycled(pool), 5);
	/* 6.12's bulk of addresses. */
	addrs[0] = niov_va(n[5]) + 64;
	page_pool_put_page_bulk(pool, addrs, 1);
	assert_int_equal(recycled(pool), 6);
	assert_int_equal(pp_warn_count(), warns);
	m1 = misuse();
	assert_memory_equal(&m0, &m1, sizeof(m0));

	/* An unrefed put of the page is not the net_iov's count: refused. */
	n[0] = page_pool_alloc_netmems(pool, GFP_ATOMIC);
	page_pool_put_unrefed_page(pool, virt_to_page(niov_va(n[0])), -1, false);
	m1 = misuse();
	assert_int_equal(m1.not_pp_page - m0.not_pp_page, 1);
	page_pool_put_full_netmem(pool, n[0], false);

	destroy_and_settle(other);
	destroy_and_settle(pool);
	assert_int_equal(hostmem_free(mp), hostmem_nr(mp));
	net_mp_close_rxq(netdev, 0, &p);
	assert_int_equal(hostmem_mp_destroy(mp), 0);
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_all_pages_home();
}

/* Destroy with net_iovs held (a whole one, a fragment): the pool waits
 * for them; their puts release them to the provider and free the pool. */
static void test_destroy_with_net_iovs_held(void **state)
{
	struct pp_memory_provider_params p;
	struct hostmem_mp *mp = hostmem_mp_create(dev, 3);
	struct page_pool *pool;
	netmem_ref whole, frag, cached;
	unsigned int off;
	u32 id;

	(void)state;
	assert_non_null(mp);
	pool = hostmem_pool(mp, netdev, NULL, &p);
	assert_false(IS_ERR(pool));
	id = pp_page_pool_id(pool);
	whole = page_pool_alloc_netmems(pool, GFP_ATOMIC);
	frag = page_pool_alloc_frag_netmem(pool, &off, 2048, GFP_ATOMIC);
	cached = page_pool_alloc_netmems(pool, GFP_ATOMIC);
	local_bh_disable();
	page_pool_recycle_direct_netmem(pool, cached);
	local_bh_enable();
	assert_int_equal(hostmem_free(mp), hostmem_nr(mp) - 3);

	destroy_and_settle(pool);
	/* The cached one went home at destroy; the two held keep the pool. */
	assert_true(pool_alive(id));
	assert_int_equal(hostmem_free(mp), hostmem_nr(mp) - 2);
	assert_int_equal(mp->users, 1);
	assert_int_equal(hostmem_mp_destroy(mp), -EBUSY);

	page_pool_put_full_page(pool, virt_to_page(niov_va(whole)), false);
	pp_workqueue_run_all();
	assert_true(pool_alive(id));
	assert_int_equal(hostmem_free(mp), hostmem_nr(mp) - 1);
	page_pool_put_full_netmem(pool, frag, false);
	pp_workqueue_run_all();
	assert_false(pool_alive(id));
	assert_int_equal(hostmem_free(mp), hostmem_nr(mp));
	assert_int_equal(mp->users, 0);
	net_mp_close_rxq(netdev, 0, &p);
	assert_int_equal(hostmem_mp_destroy(mp), 0);
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frags_dma_and_syncs),
		cmocka_unit_test(test_puts_of_the_page),
		cmocka_unit_test(test_destroy_with_net_iovs_held),
	};
	int ret;

	core_test_init(32, 1);
	pp_thread_register(0);
	pp_page_pool_set_defer_times(10, 60 * 1000);
	dev = pp_device_create("niov1", PP_DMA_IOMMU, PP_DMA_DEBUG);
	netdev = alloc_etherdev(0);
	register_netdev(netdev);
	/* PP_TEST_FILTER=NAME runs one test alone (a failed one leaves the
	 * queue bound, and the later ones fail their set-up). */
	if (getenv("PP_TEST_FILTER"))
		cmocka_set_test_filter(getenv("PP_TEST_FILTER"));
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	unregister_netdev(netdev);
	free_netdev(netdev);
	pp_device_destroy(dev);
	return ret;
}
