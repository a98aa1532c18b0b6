/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A struct page allocation from a memory-provider pool (its
 * buffers are net_iovs, unreadable, with no struct page).
 * page_pool_dev_alloc_pages() and page_pool_dev_alloc_va() returned NULL
 * and lost the net_iov they took: the pool was never freed, the
 * provider's destroy returned -EBUSY, its mapping leaked at unbind. The
 * kernel's netmem_to_page() does the same with a WARN_ON_ONCE.
 * Now every page allocator (pages, whole-page and fragment sizes, the va
 * helpers, page_pool_alloc_frag) gives the net_iov straight back to the
 * pool, WARNs (printed once) and returns NULL; the netmem API still
 * works, and everything goes home to the provider.
 */
#include "hard.h"

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <net/page_pool/memory_provider.h>

#define NIOVS	16

static struct device *dev;

struct mp_env {
	struct net_device *ndev;
	struct pp_region_provider *rp;
	struct pp_memory_provider_params mpp;
	struct page_pool *pool;
};

static void mp_setup(struct mp_env *e)
{
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = dev,
		.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE, .queue_idx = 0,
		.flags = PP_FLAG_ALLOW_UNREADABLE_NETMEM | PP_FLAG_DMA_MAP |
			 PP_FLAG_DMA_SYNC_DEV,
	};

	e->ndev = alloc_etherdev(0);
	assert_non_null(e->ndev);
	assert_int_equal(register_netdev(e->ndev), 0);
	e->rp = pp_region_provider_create(dev, NIOVS);
	assert_false(IS_ERR(e->rp));
	pp_region_provider_params(e->rp, &e->mpp);
	assert_int_equal(net_mp_open_rxq(e->ndev, 0, &e->mpp), 0);
	pp.netdev = e->ndev;
	e->pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(e->pool));
	assert_true(page_pool_is_unreadable(e->pool));
	hard_warns();
}

/* Every net_iov can still be allocated once through the netmem API (none
 * was lost, none is handed out twice) - but the one a fragment allocator
 * made the pool's frag page: it stays that until destroy drains it, as any
 * frag page. Then all of them go home, the pool is freed, the provider
 * can be destroyed. */
static void mp_finish(struct mp_env *e, bool frag)
{
	int i, j, nr = frag ? NIOVS - 1 : NIOVS;
	netmem_ref n[NIOVS];

	for (i = 0; i < nr; i++) {
		n[i] = page_pool_dev_alloc_netmems(e->pool);
		assert_true(netmem_is_net_iov(n[i]));
		for (j = 0; j < i; j++)
			assert_true(n[i] != n[j]);
	}
	assert_int_equal(pp_region_provider_free(e->rp), 0);
	for (i = 0; i < nr; i++)
		page_pool_put_full_netmem(e->pool, n[i], false);
	page_pool_destroy(e->pool);
	pp_workqueue_run_all();
	assert_int_equal(hard_warns(), 0);
	assert_int_equal(pp_region_provider_free(e->rp), NIOVS);
	net_mp_close_rxq(e->ndev, 0, &e->mpp);
	assert_int_equal(pp_region_provider_destroy(e->rp), 0);
	unregister_netdev(e->ndev);
	free_netdev(e->ndev);
	assert_int_equal(pp_dma_violations(dev), 0);
	kapi_assert_all_pages_home();
}

enum how { PAGES, PAGES_EXPORTED, ALLOC_WHOLE, VA_WHOLE, ALLOC_FRAG, VA_FRAG, FRAG, FRAG_DEV };

static bool is_frag(enum how how)
{
	return how >= ALLOC_FRAG;
}

static struct page *bad_alloc(struct page_pool *pool, enum how how)
{
	unsigned int off = 0, size;
	/* More than half a page: a whole page (3000 at 4 KiB pages). */
	unsigned int whole = PAGE_SIZE - 1096;

	switch (how) {
	case PAGES:
		return page_pool_dev_alloc_pages(pool);
	case PAGES_EXPORTED:
		/* The exported function, not the inline macro. */
		return (page_pool_alloc_pages)(pool, GFP_ATOMIC);
	case ALLOC_WHOLE:
		size = whole;
		return page_pool_dev_alloc(pool, &off, &size);
	case ALLOC_FRAG:
		size = 256;
		return page_pool_dev_alloc(pool, &off, &size);
	case VA_WHOLE:
		size = whole;
		return page_pool_dev_alloc_va(pool, &size);
	case VA_FRAG:
		size = 256;
		return page_pool_dev_alloc_va(pool, &size);
	case FRAG:
		return page_pool_alloc_frag(pool, &off, 256, GFP_ATOMIC);
	case FRAG_DEV:
		return page_pool_dev_alloc_frag(pool, &off, 256);
	}
	return NULL;
}

/* The misuse NIOVS * 3 times (more than the provider has: a lost net_iov
 * each time would empty it), with some net_iovs held legitimately. */
static void check(enum how how)
{
	struct mp_env e;
	netmem_ref held[4];
	int i;

	mp_setup(&e);
	for (i = 0; i < 4; i++)
		held[i] = page_pool_dev_alloc_netmems(e.pool);
	for (i = 0; i < NIOVS * 3; i++) {
		assert_null(bad_alloc(e.pool, how));
		assert_int_equal(hard_warns(), 1);
	}
	assert_true(kapi_logged("page allocation from a pool of net_iovs"));
	for (i = 0; i < 4; i++)
		page_pool_put_full_netmem(e.pool, held[i], false);
	mp_finish(&e, is_frag(how));
}

/* In the pool's softirq context too (direct recycling allowed). */
static void check_softirq(enum how how)
{
	struct mp_env e;
	int i;

	mp_setup(&e);
	local_bh_disable();
	for (i = 0; i < NIOVS * 3; i++) {
		assert_null(bad_alloc(e.pool, how));
		assert_int_equal(hard_warns(), 1);
	}
	local_bh_enable();
	mp_finish(&e, is_frag(how));
}

static void test_pages(void **state) { (void)state; check(PAGES); }
static void test_pages_exported(void **state) { (void)state; check(PAGES_EXPORTED); }
static void test_alloc_whole(void **state) { (void)state; check(ALLOC_WHOLE); }
static void test_alloc_frag(void **state) { (void)state; check(ALLOC_FRAG); }
static void test_va_whole(void **state) { (void)state; check(VA_WHOLE); }
static void test_va_frag(void **state) { (void)state; check(VA_FRAG); }
static void test_frag(void **state) { (void)state; check(FRAG); }
static void test_frag_dev(void **state) { (void)state; check(FRAG_DEV); }
static void test_pages_softirq(void **state) { (void)state; check_softirq(PAGES); }
static void test_va_frag_softirq(void **state) { (void)state; check_softirq(VA_FRAG); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_pages),
		EACH_RING(test_pages_exported),
		EACH_RING(test_alloc_whole),
		EACH_RING(test_alloc_frag),
		EACH_RING(test_va_whole),
		EACH_RING(test_va_frag),
		EACH_RING(test_frag),
		EACH_RING(test_frag_dev),
		EACH_RING(test_pages_softirq),
		EACH_RING(test_va_frag_softirq),
	};
	int rc;

	kapi_setup();
	dev = pp_device_create("hard_mp0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	assert_false(IS_ERR_OR_NULL(dev));
	rc = pp_test_run_group(tests, NULL, NULL);
	pp_device_destroy(dev);
	return rc;
}
