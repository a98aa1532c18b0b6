/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The program tests/telemetry/ctl_test.py observes with pagepool-ctl: two
 * pools in a known state, served on a telemetry socket, while it waits on
 * stdin. Built as users build (installed headers, pkg-config only).
 *
 *   pool A: order 0, pool_size 256, on a registered netdev with a NAPI;
 *           200 pages allocated, 100 of them put back with allow_direct,
 *           one more released with an extra reference held (99 held out);
 *   pool B: order 1, pool_size 16, no netdev; 10 allocated, 6 put from
 *           process context, 3 allocated again (7 held out).
 *
 * The counters these give (the kernel's algorithm, as
 * tests/kernel-api/stats_sequences.c derives them) are in ctl_test.py; this
 * program prints what the library itself reports, one line per pool:
 *   pool ID IFINDEX NAPI_ID INFLIGHT INFLIGHT_MEM C0 .. C10
 * (IFINDEX and NAPI_ID -1 when absent, C0.. the counters in
 * page_pool_stats' order), then "ready". In a library with holder tracking
 * the pages held out are 99 of pool A taken at "take site A", and 4 and 3
 * of pool B taken at "take site B1" and "B2" (the comments on those lines). A line "quit" (or EOF) on stdin
 * gives every page back and destroys everything; the exit status is 0
 * when all pages came home.
 *
 * Usage: ctl_target SOCKET_DIR
 */
#include <stdio.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>
#include <pagepool/telemetry.h>

static struct page *held_a[200], *held_b[10];
static int nheld_a, nheld_b;

static int print_pool(struct page_pool *pool)
{
	struct pp_page_pool_info info;
	struct page_pool_stats st;
	u32 id = pp_page_pool_id(pool);

	memset(&st, 0, sizeof(st));
	if (pp_page_pool_get_info(id, &info) || !page_pool_get_stats(pool, &st))
		return -1;
	printf("pool %u %d %lld %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
	       id, info.has_ifindex ? info.ifindex : -1,
	       info.has_napi_id ? (long long)info.napi_id : -1LL,
	       (unsigned long long)info.inflight, (unsigned long long)info.inflight_mem,
	       (unsigned long long)st.alloc_stats.fast, (unsigned long long)st.alloc_stats.slow,
	       (unsigned long long)st.alloc_stats.slow_high_order,
	       (unsigned long long)st.alloc_stats.empty, (unsigned long long)st.alloc_stats.refill,
	       (unsigned long long)st.alloc_stats.waive, (unsigned long long)st.recycle_stats.cached,
	       (unsigned long long)st.recycle_stats.cache_full,
	       (unsigned long long)st.recycle_stats.ring,
	       (unsigned long long)st.recycle_stats.ring_full,
	       (unsigned long long)st.recycle_stats.released_refcnt);
	return 0;
}

int main(int argc, char **argv)
{
	struct pp_telemetry_config cfg = { .dir = argc > 1 ? argv[1] : NULL };
	struct page_pool_params pa = {
		.order = 0, .pool_size = 256, .nid = NUMA_NO_NODE, .dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool_params pb = {
		.order = 1, .pool_size = 16, .nid = NUMA_NO_NODE, .dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *a, *b;
	struct napi_struct napi;
	struct pp_mem_stats ms;
	struct net_device *nd;
	struct page *page;
	char line[64];
	int i, err;

	if (pp_thread_register(0))
		return 1;
	err = pp_telemetry_start(&cfg);
	if (err) {
		fprintf(stderr, "pp_telemetry_start: %d\n", err);
		return 1;
	}
	nd = alloc_etherdev(0);
	if (!nd || register_netdev(nd))
		return 1;
	memset(&napi, 0, sizeof(napi));
	netif_napi_add(nd, &napi, NULL);
	pa.netdev = nd;
	pa.napi = &napi;
	a = page_pool_create(&pa);
	b = page_pool_create(&pb);
	if (IS_ERR(a) || IS_ERR(b))
		return 1;

	for (i = 0; i < 200; i++) {
		held_a[nheld_a] = page_pool_dev_alloc_pages(a);	/* take site A */
		if (!held_a[nheld_a++])
			return 1;
	}
	for (i = 0; i < 100; i++)
		page_pool_put_full_page(a, held_a[--nheld_a], true);
	/* An extra reference: the pool lets the page go (released_refcnt). */
	page = held_a[--nheld_a];
	get_page(page);
	page_pool_put_full_page(a, page, false);
	put_page(page);

	for (i = 0; i < 10; i++) {
		held_b[nheld_b] = page_pool_dev_alloc_pages(b);	/* take site B1 */
		if (!held_b[nheld_b++])
			return 1;
	}
	for (i = 0; i < 6; i++)
		page_pool_put_full_page(b, held_b[--nheld_b], false);
	for (i = 0; i < 3; i++) {
		held_b[nheld_b] = page_pool_dev_alloc_pages(b);	/* take site B2 */
		if (!held_b[nheld_b++])
			return 1;
	}

	if (print_pool(a) || print_pool(b))
		return 1;
	printf("ready\n");
	fflush(stdout);

	while (fgets(line, sizeof(line), stdin) && strcmp(line, "quit\n"))
		;

	while (nheld_a)
		page_pool_put_full_page(a, held_a[--nheld_a], false);
	while (nheld_b)
		page_pool_put_full_page(b, held_b[--nheld_b], false);
	page_pool_destroy(a);
	page_pool_destroy(b);
	netif_napi_del(&napi);
	unregister_netdev(nd);
	free_netdev(nd);
	pp_workqueue_run_all();
	pp_telemetry_stop();
	pp_mem_get_stats(&ms);
	return ms.free_pages == ms.total_pages && ms.pp_pages == 0 ? 0 : 1;
}
