/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool statistics after scripted sequences, checked counter by counter
 * against the values Linux 6.12.117's net/core/page_pool.c (Debian's
 * linux-source-6.12) gives for the same calls. Each expected value is
 * derived in the comments from that file's algorithm:
 *   - alloc: a page in the alloc cache is "fast"; an empty cache refills
 *     from the ring: ring empty -> "empty" and the slow path bulk-allocates
 *     64 pages (PP_ALLOC_CACHE_REFILL) -> "slow" once per call (order > 0:
 *     one page, "slow_high_order"); ring not empty -> consume one at a time
 *     until 64 or empty, a page of the wrong NUMA node is released
 *     ("waive") and ends the refill -> "refill" if the cache got pages;
 *   - put with allow_direct (or napi-local: softirq on the NAPI's CPU):
 *     into the cache, "cached", or "cache_full" at 128 and on to the ring;
 *   - any other put: the ring (ptr_ring of pool_size slots, 1024 for 0),
 *     "ring", or "ring_full" and the page goes back to the page allocator;
 *     a page with extra references is released, "released_refcnt";
 *   - ptr_ring clears consumed slots in batches (16 slots, or 1 when the
 *     ring has fewer than 32), so a producer that catches up with the
 *     consumer can find the ring full before pool_size pages are in it.
 * Every sequence runs on each of pagepool's return designs the build has
 * (EACH_RING): the per-CPU lanes (default), the kernel's ptr_ring, the list
 * designs and the magazines; the counts must be the kernel's for all of
 * them, but for the ptr_ring's early "full" on slots its consumer has not
 * cleared yet, which a list or a magazine has no slots for
 * (ring_clears_in_batches()). Built as an outside user builds (run.sh).
 */
#include "kapi.h"

#include <linux/netdevice.h>

struct counts {
	u64 fast, slow, slow_high_order, empty, refill, waive;
	u64 cached, cache_full, ring, ring_full, released_refcnt;
};

static void assert_counts(const struct page_pool *pool, struct counts want, const char *step)
{
	struct page_pool_stats st = kapi_stats(pool);
	struct counts got = {
		st.alloc_stats.fast, st.alloc_stats.slow, st.alloc_stats.slow_high_order,
		st.alloc_stats.empty, st.alloc_stats.refill, st.alloc_stats.waive,
		st.recycle_stats.cached, st.recycle_stats.cache_full, st.recycle_stats.ring,
		st.recycle_stats.ring_full, st.recycle_stats.released_refcnt,
	};
	static const char *const names[] = {
		"fast", "slow", "slow_high_order", "empty", "refill", "waive",
		"cached", "cache_full", "ring", "ring_full", "released_refcnt",
	};
	const u64 *g = &got.fast, *w = &want.fast;
	int i, bad = 0;

	for (i = 0; i < 11; i++) {
		if (g[i] != w[i]) {
			print_error("%s: %s = %llu, the kernel's is %llu\n", step, names[i],
				    (unsigned long long)g[i], (unsigned long long)w[i]);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* The pages a sequence holds, as a stack. */
static struct page *held[2048];
static int nheld;

static void alloc_n(struct page_pool *pool, int n)
{
	while (n--) {
		struct page *page = page_pool_dev_alloc_pages(pool);

		assert_non_null(page);
		held[nheld++] = page;
	}
}

static void put_n(struct page_pool *pool, int n, bool allow_direct)
{
	while (n--)
		page_pool_put_full_page(pool, held[--nheld], allow_direct);
}

static struct page_pool *make_pool(unsigned int pool_size, int nid, struct napi_struct *napi)
{
	struct page_pool_params pp = {
		.pool_size = pool_size, .nid = nid, .napi = napi, .dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	nheld = 0;
	return pool;
}

static void finish(struct page_pool *pool)
{
	assert_int_equal(nheld, 0);
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
}

/* pool_size 4: a ring of 4 slots, cleared slot by slot (batch 1). */
static void seq_pool_size_4(void **state)
{
	struct page_pool *pool = make_pool(4, NUMA_NO_NODE, NULL);
	struct page *page;

	(void)state;
	/* 1st alloc: cache and ring empty -> empty, slow (64 pages, 63 left
	 * in the cache); 9 more from the cache -> fast. */
	alloc_n(pool, 10);
	assert_counts(pool, (struct counts){ .fast = 9, .slow = 1, .empty = 1 }, "alloc 10");

	/* 6 puts from process context: 4 fill the ring, 2 find it full. */
	put_n(pool, 6, false);
	assert_counts(pool, (struct counts){ .fast = 9, .slow = 1, .empty = 1,
					     .ring = 4, .ring_full = 2 }, "put 6");

	/* Empty the cache (54 fast), then a refill takes the ring's 4. */
	alloc_n(pool, 55);
	assert_counts(pool, (struct counts){ .fast = 63, .slow = 1, .empty = 1, .refill = 1,
					     .ring = 4, .ring_full = 2 }, "refill");

	/* Every consumed slot was cleared: 4 fit again, the 5th is full. */
	put_n(pool, 5, false);
	/* The other 54 straight into the cache (3 + 54 <= 128). */
	put_n(pool, 54, true);
	assert_counts(pool, (struct counts){ .fast = 63, .slow = 1, .empty = 1, .refill = 1,
					     .cached = 54, .ring = 8, .ring_full = 3 },
		      "put 5 + 54 direct");

	/* A page the user holds an extra reference on is released. */
	page = page_pool_dev_alloc_pages(pool);
	get_page(page);
	page_pool_put_full_page(pool, page, false);
	put_page(page);
	assert_counts(pool, (struct counts){ .fast = 64, .slow = 1, .empty = 1, .refill = 1,
					     .cached = 54, .ring = 8, .ring_full = 3,
					     .released_refcnt = 1 }, "released");
	finish(pool);
}

/* The list designs (llist, llist_batch) have no slots to clear: a page
 * the consumer took frees its room at once, so they never find the pool
 * full before pool_size pages wait (the kernel's bound, without its
 * ptr_ring's early "full"). */
static bool ring_clears_in_batches(void)
{
	int d = pp_test_ring_current();

	return d != PP_RING_LLIST && d != PP_RING_LLIST_BATCH && d != PP_RING_MAGAZINE;
}

/* pool_size 64: a ring of 64 slots, cleared 16 at a time. */
static void seq_pool_size_64(void **state)
{
	struct page_pool *pool = make_pool(64, NUMA_NO_NODE, NULL);
	/* The early "full" below: 4 pages with the kernel's slots, none
	 * with the list designs or the magazines. */
	int early = ring_clears_in_batches() ? 4 : 0;

	(void)state;
	/* 4 slow calls of 64 (200 = 3 * 64 + 8), each after an empty refill;
	 * 196 from the cache; 56 left there. */
	alloc_n(pool, 200);
	assert_counts(pool, (struct counts){ .fast = 196, .slow = 4, .empty = 4 }, "alloc 200");

	/* Direct: 72 fill the cache to 128; 128 find it full and go to the
	 * ring: 64 fit, 64 go home. */
	put_n(pool, 200, true);
	assert_counts(pool, (struct counts){ .fast = 196, .slow = 4, .empty = 4, .cached = 72,
					     .cache_full = 128, .ring = 64, .ring_full = 64 },
		      "direct 200");

	/* 128 from the cache, then a refill consumes all 64: the consumer
	 * wraps, every slot is cleared. */
	alloc_n(pool, 129);
	/* 64 fit, 6 are full. */
	put_n(pool, 70, false);
	/* The cache's 63, then a refill of 64 again. */
	alloc_n(pool, 64);
	assert_counts(pool, (struct counts){ .fast = 387, .slow = 4, .empty = 4, .refill = 2,
					     .cached = 72, .cache_full = 128, .ring = 128,
					     .ring_full = 70 }, "two refills");

	/* 20 in; after 63 from the cache, a refill consumes those 20: slots
	 * 0-15 are cleared (one batch), 16-19 are not yet. */
	put_n(pool, 20, false);
	alloc_n(pool, 64);
	/* The producer is at 20: 44 slots to the end, 16 after the wrap,
	 * then slot 16 is still set: 60 in, 4 full (a list, magazines: 64 in). */
	put_n(pool, 64, false);
	assert_counts(pool, (struct counts){ .fast = 450, .slow = 4, .empty = 4, .refill = 3,
					     .cached = 72, .cache_full = 128, .ring = 212 - early,
					     .ring_full = 70 + early }, "ring full before 64");

	/* The other 103 into the cache: 19 + 103 <= 128. */
	assert_int_equal(nheld, 103);
	put_n(pool, nheld, true);
	assert_counts(pool, (struct counts){ .fast = 450, .slow = 4, .empty = 4, .refill = 3,
					     .cached = 175, .cache_full = 128, .ring = 212 - early,
					     .ring_full = 70 + early }, "direct rest");
	finish(pool);
}

/* pool_size 0: the kernel's default ring of 1024. */
static void seq_pool_size_0(void **state)
{
	struct page_pool *pool = make_pool(0, NUMA_NO_NODE, NULL);

	(void)state;
	/* 19 slow calls (19 * 64 = 1216 >= 1200), 1181 fast, 16 left. */
	alloc_n(pool, 1200);
	/* 1024 fit in the ring, 76 are full. */
	put_n(pool, 1100, false);
	assert_counts(pool, (struct counts){ .fast = 1181, .slow = 19, .empty = 19,
					     .ring = 1024, .ring_full = 76 }, "ring of 1024");

	/* 16 from the cache, a refill of 64 (slots 0-63 cleared), 64 in. */
	alloc_n(pool, 17);
	put_n(pool, 64, false);
	/* The rest direct: 63 + 53 <= 128. */
	assert_int_equal(nheld, 53);
	put_n(pool, nheld, true);
	assert_counts(pool, (struct counts){ .fast = 1197, .slow = 19, .empty = 19, .refill = 1,
					     .cached = 53, .ring = 1088, .ring_full = 76 },
		      "refill and back");
	finish(pool);
}

/* In softirq, on the CPU whose poll list holds the pool's NAPI, a put that
 * does not say allow_direct is napi-local: into the cache. Bulk puts too
 * (page_pool_put_page_bulk(), 6.12's form). */
static void seq_napi_local(void **state)
{
	struct napi_struct napi = { .list_owner = -1 };
	struct page_pool *pool = make_pool(64, NUMA_NO_NODE, &napi);
	void *data[8];
	int i;

	(void)state;
	/* As the kernel's bench module: a NAPI owned by this CPU (given at
	 * creation, which every kernel since 6.5 takes). */
	napi.list_owner = smp_processor_id();

	alloc_n(pool, 20);
	local_bh_disable();
	put_n(pool, 4, false);			/* napi-local: cached */
	local_bh_enable();
	put_n(pool, 4, false);			/* process context: ring */
	for (i = 0; i < 8; i++)
		data[i] = page_address(held[--nheld]);
	local_bh_disable();
	page_pool_put_page_bulk(pool, data, 4);	/* napi-local: cached */
	local_bh_enable();
	page_pool_put_page_bulk(pool, data + 4, 4);	/* ring */
	assert_counts(pool, (struct counts){ .fast = 19, .slow = 1, .empty = 1, .cached = 8,
					     .ring = 8 }, "napi-local");
	napi.list_owner = -1;
	put_n(pool, nheld, true);
	assert_counts(pool, (struct counts){ .fast = 19, .slow = 1, .empty = 1, .cached = 12,
					     .ring = 8 }, "direct rest");
	finish(pool);
}

/* 6.12's page_pool_put_page_bulk() produces the whole array in one round
 * and counts ring_full once, however many pages find the ring full. */
static void seq_bulk_ring_full(void **state)
{
	struct page_pool *pool = make_pool(31, NUMA_NO_NODE, NULL);
	void *data[64];
	int i;

	(void)state;
	alloc_n(pool, 64);			/* empty, slow, 63 fast; cache empty */
	for (i = 0; i < 64; i++)
		data[i] = page_address(held[--nheld]);
	page_pool_put_page_bulk(pool, data, 64);	/* 31 in, 33 released */
	assert_counts(pool, (struct counts){ .fast = 63, .slow = 1, .empty = 1, .ring = 31,
					     .ring_full = 1 }, "bulk of 64");
	finish(pool);
}

/* Order 1: no bulk, every slow allocation is one high-order page. */
static void seq_high_order(void **state)
{
	struct page_pool_params pp = { .order = 1, .pool_size = 64, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	(void)state;
	assert_false(IS_ERR_OR_NULL(pool));
	nheld = 0;
	alloc_n(pool, 3);			/* 3 x (empty, slow_high_order) */
	put_n(pool, 3, true);			/* cached */
	alloc_n(pool, 2);			/* fast */
	put_n(pool, 2, false);			/* ring */
	assert_counts(pool, (struct counts){ .fast = 2, .slow_high_order = 3, .empty = 3,
					     .cached = 3, .ring = 2 }, "order 1");
	finish(pool);
}

/* NUMA: a ring page of another node is released and ends the refill. */
static void seq_numa_waive(void **state)
{
	struct page_pool *pool = make_pool(64, 0, NULL);

	(void)state;
	alloc_n(pool, 4);			/* node 0: empty, slow, 3 fast */
	put_n(pool, 4, false);			/* ring 4 */
	page_pool_update_nid(pool, 1);		/* flushes the cache (no count) */
	/* Refill: the first ring page is node 0's -> waive, refill ends
	 * with nothing; slow path on node 1. */
	alloc_n(pool, 1);
	assert_int_equal(page_to_nid(held[0]), 1);
	put_n(pool, 1, true);
	assert_counts(pool, (struct counts){ .fast = 3, .slow = 2, .empty = 1, .waive = 1,
					     .cached = 1, .ring = 4 }, "waive");
	finish(pool);
}


int main(void)
{
	/* Two NUMA nodes, for the waive sequence. */
	struct pp_mem_config cfg = { .size = 64 << 20, .nr_nodes = 2 };
	const struct CMUnitTest tests[] = {
		EACH_RING(seq_pool_size_4),
		EACH_RING(seq_pool_size_64),
		EACH_RING(seq_pool_size_0),
		EACH_RING(seq_napi_local),
		EACH_RING(seq_bulk_ring_full),
		EACH_RING(seq_high_order),
		EACH_RING(seq_numa_waive),
	};

	if (pp_mem_init(&cfg))
		return 1;
	kapi_setup();
	return pp_test_run_group_name("kernel-api/stats", tests, NULL, NULL);
}
