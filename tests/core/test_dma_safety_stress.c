/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA-safe teardown under load (DMA tracking's stress test). Generations of:
 * a device (IOMMU or direct, DMA-API debug on or off), a pool with
 * PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV, an owner thread that allocates
 * in softirq and either recycles directly or hands pages to one of three
 * returner threads, which give them back singly or in bulks. At a random
 * moment the owner destroys the pool with pages still out, and at another
 * random moment the driver unbinds; the returners keep returning
 * throughout. Until 1,000,000 pages (PP_TEST_PAGES) went through.
 *
 * Checked per generation: zero DMA-API violations; every mapping unmapped
 * exactly once (maps == unmaps, nothing live at the end); the pool freed;
 * every page home. Run under TSan and ASan by CI.
 */
#include <pthread.h>
#include <stdlib.h>

#include <linux/processor.h>
#include <linux/ptr_ring.h>

#include "core_test.h"

#define RETURNERS	3

static long total_pages = 1000000;

struct returner {
	pthread_t tid;
	struct ptr_ring q;		/* owner -> returner, SPSC */
	int stop_seq;			/* main: generation N is over, drain */
	int done_seq;			/* returner: drained for generation N */
	int quit;
	unsigned int seed;
	long returned;
};

static struct returner ret[RETURNERS];

static unsigned int rnd(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void give_back(netmem_ref *held, int *n, bool bulk)
{
	int i;

	if (!*n)
		return;
	if (bulk) {
		page_pool_put_netmem_bulk(held, (u32)*n);
	} else {
		for (i = 0; i < *n; i++)
			page_pool_put_full_netmem(netmem_get_pp(held[i]), held[i], false);
	}
	*n = 0;
}

static void *returner_fn(void *arg)
{
	struct returner *r = arg;
	netmem_ref held[16];
	unsigned int idle = 0;
	int n = 0, seq;

	pp_thread_register(-1);
	for (;;) {
		void *p = __ptr_ring_consume(&r->q);

		if (p) {
			idle = 0;
			held[n++] = page_to_netmem(p);
			r->returned++;
			/* Hold a few, return singly or as a bulk. */
			if (n == 16 || rnd(&r->seed) % 4 == 0)
				give_back(held, &n, rnd(&r->seed) & 1);
			continue;
		}
		give_back(held, &n, false);
		if (__atomic_load_n(&r->quit, __ATOMIC_ACQUIRE))
			break;
		/* The ring was empty and nothing is held: this generation's
		 * pages are all back (the owner stopped producing first). */
		seq = __atomic_load_n(&r->stop_seq, __ATOMIC_ACQUIRE);
		if (seq != r->done_seq && __ptr_ring_empty(&r->q))
			__atomic_store_n(&r->done_seq, seq, __ATOMIC_RELEASE);
		pp_test_relax_or_yield(&idle);
	}
	return NULL;
}

static void run_generation(unsigned int *seed, long *pages_done, int gen)
{
	unsigned int flags = (gen & 1) ? PP_DMA_DEBUG : 0;
	enum pp_dma_backend backend = (gen & 2) ? PP_DMA_DIRECT : PP_DMA_IOMMU;
	struct device *dev = pp_device_create("stress", backend, flags);
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = dev, .dma_dir = DMA_FROM_DEVICE,
		.max_len = 1500, .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	long pages = 500 + rnd(seed) % 4000, destroy_at, unbind_at, i;
	struct pp_page_pool_info info;
	struct pp_dma_stats ds;
	struct page_pool *pool;
	bool destroyed = false, unbound = false;
	u32 id;
	unsigned int spins;
	int k;

	assert_false(IS_ERR(dev));
	pool = page_pool_create(&pp);
	assert_false(IS_ERR(pool));
	id = pp_page_pool_id(pool);
	destroy_at = rnd(seed) % pages;
	unbind_at = destroy_at + rnd(seed) % (pages - destroy_at + 1);

	local_bh_disable();
	for (i = 0; i < pages; i++) {
		if (i == destroy_at) {
			/* Pages are out with the returners right now. */
			local_bh_enable();
			page_pool_destroy(pool);
			local_bh_disable();
			destroyed = true;
		}
		if (i == unbind_at && destroyed) {
			local_bh_enable();
			device_release_driver(dev);
			local_bh_disable();
			unbound = true;
		}
		if (destroyed) {
			/* Nothing to allocate any more: let time pass while
			 * the returners work. */
			cpu_relax();
			continue;
		}
		{
			struct page *p = page_pool_alloc_pages(pool, GFP_ATOMIC);
			struct returner *r = &ret[rnd(seed) % RETURNERS];

			assert_non_null(p);
			(*pages_done)++;
			if (rnd(seed) % 4 == 0 || __ptr_ring_produce(&r->q, p))
				page_pool_recycle_direct(pool, p);
		}
	}
	local_bh_enable();
	if (!destroyed)
		page_pool_destroy(pool);
	if (!unbound)
		device_release_driver(dev);

	/* Let the returners drain, then check the generation. */
	for (k = 0; k < RETURNERS; k++)
		__atomic_store_n(&ret[k].stop_seq, gen + 1, __ATOMIC_RELEASE);
	for (k = 0; k < RETURNERS; k++)
		for (spins = 0; __atomic_load_n(&ret[k].done_seq, __ATOMIC_ACQUIRE) != gen + 1; )
			pp_test_relax_or_yield(&spins);
	for (i = 0; i < 1000 && !pp_page_pool_get_info(id, &info); i++)
		pp_workqueue_run_all();
	if (!pp_page_pool_get_info(id, &info))
		print_message("gen %d: pool %u still has %llu inflight (pages %ld destroy_at %ld unbind_at %ld)\n",
			      gen, id, info.inflight, pages, destroy_at, unbind_at);
	assert_int_equal(pp_page_pool_get_info(id, &info), -ENOENT);
	assert_int_equal(pp_dma_violations(dev), 0);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.maps, ds.unmaps);		/* each exactly once */
	assert_int_equal(ds.live_mappings, 0);
	assert_all_pages_home();
	pp_device_destroy(dev);
}

static void test_destroy_and_unbind_under_returns(void **state)
{
	unsigned int seed = 0x5eed;
	long done = 0;
	int gen = 0, k;

	(void)state;
	for (k = 0; k < RETURNERS; k++) {
		assert_int_equal(ptr_ring_init(&ret[k].q, 256, GFP_KERNEL), 0);
		ret[k].seed = 0x1234u + (unsigned int)k;
		pthread_create(&ret[k].tid, NULL, returner_fn, &ret[k]);
	}
	while (done < total_pages)
		run_generation(&seed, &done, gen++);
	for (k = 0; k < RETURNERS; k++) {
		__atomic_store_n(&ret[k].quit, 1, __ATOMIC_RELEASE);
		pthread_join(ret[k].tid, NULL);
		ptr_ring_cleanup(&ret[k].q, NULL);
	}
	print_message("%ld pages over %d generations (pool destroyed and device unbound "
		      "with pages out each time); returners took %ld, %ld, %ld\n",
		      done, gen, ret[0].returned, ret[1].returned, ret[2].returned);
	assert_int_equal(pp_dma_violations(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_destroy_and_unbind_under_returns),
	};
	const char *n = getenv("PP_TEST_PAGES");

	if (n)
		total_pages = atol(n);
	core_test_init(32, 1);
	pp_thread_register(0);
	pp_page_pool_set_defer_times(5, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
