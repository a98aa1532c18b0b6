/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A program that knows nothing of telemetry, built outside the tree with
 * `pkg-config --cflags --libs pagepool` alone (check_install.py): a pool
 * with pages out and known counters. It prints the pool as the C API sees
 * it, then waits for a line on stdin and exits without stopping anything.
 * Run with PAGEPOOL_TELEMETRY=1, it is observed from outside.
 * Context: one thread, CPU 0. Layer: tests.
 */
#include <stdio.h>
#include <linux/err.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

int main(void)
{
	struct page_pool_params pp = { .pool_size = 256, .nid = NUMA_NO_NODE };
	struct pp_mem_config cfg = { .size = 16 << 20, .nr_nodes = 1 };
	struct pp_page_pool_info info;
	struct page_pool_stats st = { 0 };
	struct page_pool *pool;
	struct page *p[100];
	char line[16];
	int i;

	if (pp_mem_init(&cfg) || pp_thread_register(0) < 0)
		return 1;
	pool = page_pool_create(&pp);
	if (IS_ERR(pool))
		return 1;
	for (i = 0; i < 100; i++)
		p[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	for (i = 0; i < 30; i++)
		page_pool_put_full_page(pool, p[i], false);
	if (pp_page_pool_get_info(pp_page_pool_id(pool), &info))
		return 1;
	page_pool_get_stats(pool, &st);
	printf("id=%u inflight=%llu inflight-mem=%llu alloc-slow=%llu alloc-fast=%llu recycle-ring=%llu\n",
	       info.id, (unsigned long long)info.inflight, (unsigned long long)info.inflight_mem,
	       (unsigned long long)st.alloc_stats.slow, (unsigned long long)st.alloc_stats.fast,
	       (unsigned long long)st.recycle_stats.ring);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (i = 30; i < 100; i++)
		page_pool_put_full_page(pool, p[i], false);
	page_pool_destroy(pool);
	return 0;
}
