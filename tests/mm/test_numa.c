/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Simulated NUMA nodes: the arena is split evenly, page->nid follows the
 * address, logical CPU n allocates from node n % nr_nodes by default,
 * allocation falls back to the other nodes when its node is empty unless
 * __GFP_THISNODE, and frees go back to the page's own node.
 */
#include <pthread.h>

#include "mm_test.h"

#define NODES	2
#define NODE_BLOCKS	2	/* largest blocks per node */
#define NODE_BYTES	(NODE_BLOCKS * MM_BLOCK_BYTES)

static int setup(void **state)
{
	mm_arena(NODES * NODE_BLOCKS, NODES, 0, 0);
	return 0;
}

static int nid_of_addr(const void *addr)
{
	return (int)(((unsigned long)addr - pp_mem_map.base) / NODE_BYTES);
}

static int count_nid(struct page *page, void *arg)
{
	unsigned long *per_node = arg;

	if (page->nid != nid_of_addr(page_address(page)))
		return -1;
	per_node[page->nid]++;
	return 0;
}

static void test_layout(void **state)
{
	unsigned long per_node[NODES] = { 0 };
	int nid;

	assert_int_equal(nr_node_ids, NODES);
	assert_int_equal(pp_mem_walk(count_nid, per_node), 0);
	for (nid = 0; nid < NODES; nid++) {
		assert_int_equal(per_node[nid], NODE_BLOCKS * PPMM_TEST_BLOCK);
		assert_int_equal(pp_mem_free_blocks(nid, MAX_PAGE_ORDER),
				 NODE_BLOCKS);
	}
	assert_int_equal(cpu_to_node(0), 0);
	assert_int_equal(cpu_to_node(1), 1);
	assert_int_equal(cpu_to_node(5), 1);
}

static void test_explicit_node(void **state)
{
	unsigned int order;
	int nid;

	for (nid = 0; nid < NODES; nid++)
		for (order = 0; order <= 3; order++) {
			struct page *p = alloc_pages_node(nid, GFP_KERNEL | __GFP_COMP, order);

			assert_non_null(p);
			assert_int_equal(page_to_nid(p), nid);
			assert_int_equal(nid_of_addr(page_address(p)), nid);
			put_page(p);
		}
	/* Order-0 frees went to this CPU's list of each node. */
	assert_true(pp_mem_pcp_count(0, 0) > 0);
	assert_true(pp_mem_pcp_count(0, 1) > 0);
	mm_assert_all_free();
}

struct local_alloc {
	int cpu;
	int nid_default, nid_numa_node_id;
};

static void *alloc_local(void *arg)
{
	struct local_alloc *la = arg;
	struct page *p;

	if (pp_thread_register(la->cpu) != la->cpu)
		return NULL;
	p = alloc_page(GFP_KERNEL);
	la->nid_default = page_to_nid(p);
	la->nid_numa_node_id = numa_node_id();
	__free_page(p);
	return NULL;
}

/* NUMA_NO_NODE: the calling CPU's node. */
static void test_local_node(void **state)
{
	struct local_alloc la[3] = { { .cpu = 1 }, { .cpu = 2 }, { .cpu = 3 } };
	pthread_t t;
	int i;

	for (i = 0; i < 3; i++) {
		la[i].nid_default = -1;
		pthread_create(&t, NULL, alloc_local, &la[i]);
		pthread_join(t, NULL);
		assert_int_equal(la[i].nid_default, la[i].cpu % NODES);
		assert_int_equal(la[i].nid_numa_node_id, la[i].cpu % NODES);
	}
	mm_assert_all_free();
}

/* Node 0 full: order 0 and higher orders come from node 1, unless
 * __GFP_THISNODE. */
static void test_fallback_and_thisnode(void **state)
{
	struct page *blocks[NODE_BLOCKS];
	struct pp_mem_counters c0, c1;
	struct page *p;
	unsigned long i;

	for (i = 0; i < ARRAY_SIZE(blocks); i++) {
		blocks[i] = alloc_pages_node(0, GFP_KERNEL | __GFP_THISNODE, MAX_PAGE_ORDER);
		assert_non_null(blocks[i]);
		assert_int_equal(page_to_nid(blocks[i]), 0);
	}
	pp_mem_get_counters(&c0);
	assert_null(alloc_pages_node(0, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 0));
	assert_null(alloc_pages_node(0, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 2));
	assert_null(alloc_pages(GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 0));
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.alloc_failed, c0.alloc_failed + 3);

	p = alloc_pages_node(0, GFP_KERNEL, 0);
	assert_non_null(p);
	assert_int_equal(page_to_nid(p), 1);
	__free_page(p);
	p = alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL | __GFP_COMP, 4);
	assert_non_null(p);
	assert_int_equal(page_to_nid(p), 1);
	put_page(p);

	/* Freed node-0 memory is node 0's again. */
	for (i = 0; i < ARRAY_SIZE(blocks); i++)
		__free_pages(blocks[i], MAX_PAGE_ORDER);
	p = alloc_pages_node(0, GFP_KERNEL | __GFP_THISNODE, 0);
	assert_non_null(p);
	assert_int_equal(page_to_nid(p), 0);
	__free_page(p);
	mm_assert_all_free();
}

static void test_bad_node_warns_and_uses_local(void **state)
{
	unsigned long warns = pp_warn_count();
	struct page *p = alloc_pages_node(NODES + 3, GFP_KERNEL, 0);

	assert_non_null(p);
	assert_int_equal(page_to_nid(p), 0);
	assert_int_equal(pp_warn_count(), warns + 1);
	__free_page(p);
	mm_assert_all_free();
}

static void test_back_to_one_node(void **state)
{
	mm_arena(2, 1, 0, 0);
	assert_int_equal(nr_node_ids, 1);
	assert_int_equal(cpu_to_node(1), 0);
	assert_int_equal(pp_mem_free_blocks(1, MAX_PAGE_ORDER), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_layout, setup),
		cmocka_unit_test_setup(test_explicit_node, setup),
		cmocka_unit_test_setup(test_local_node, setup),
		cmocka_unit_test_setup(test_fallback_and_thisnode, setup),
		cmocka_unit_test_setup(test_bad_node_warns_and_uses_local, setup),
		cmocka_unit_test(test_back_to_one_node),
	};

	pp_test_capture_log();
	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
