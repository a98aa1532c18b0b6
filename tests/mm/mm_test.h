/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Helpers shared by the mm test suites: arena set-up, and snapshots of the
 * free lists (buddy blocks per node and order, per-CPU counts) that a test
 * takes before and compares after, to show an operation left them as they
 * were.
 */
#ifndef PP_MM_TEST_H
#define PP_MM_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/numa.h>
#include <pagepool/mm.h>
#include <pagepool/runtime.h>

#include "test_common.h"

#define MiB	(1UL << 20)
#define PPMM_TEST_BLOCK	(1UL << MAX_PAGE_ORDER)	/* pages in the largest block */
/* Bytes in the largest block: the arena's granule (4 MiB at 4 KiB pages,
 * 32 MiB at 16 KiB, 512 MiB at 64 KiB). Arenas in tests are sized in it. */
#define MM_BLOCK_BYTES	(PAGE_SIZE << MAX_PAGE_ORDER)
#define PPMM_TEST_BATCH	63			/* default pcp_batch */

struct mm_snap {
	unsigned long blocks[MAX_NUMNODES][NR_PAGE_ORDERS];
	unsigned long pcp[NR_CPUS][MAX_NUMNODES];
	unsigned long free_pages;
};

static inline void mm_snap_take(struct mm_snap *s)
{
	struct pp_mem_stats st;
	unsigned int o;
	int nid, cpu;

	memset(s, 0, sizeof(*s));
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		for (o = 0; o < NR_PAGE_ORDERS; o++)
			s->blocks[nid][o] = pp_mem_free_blocks(nid, o);
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			s->pcp[cpu][nid] = pp_mem_pcp_count(cpu, nid);
	}
	pp_mem_get_stats(&st);
	s->free_pages = st.free_pages;
}

static inline void mm_snap_assert_equal(const struct mm_snap *a, const struct mm_snap *b)
{
	unsigned int o;
	int nid, cpu;

	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		for (o = 0; o < NR_PAGE_ORDERS; o++) {
			if (a->blocks[nid][o] != b->blocks[nid][o])
				print_error("node %d order %u: %lu free blocks, expected %lu\n",
					    nid, o, b->blocks[nid][o], a->blocks[nid][o]);
			assert_int_equal(a->blocks[nid][o], b->blocks[nid][o]);
		}
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			assert_int_equal(a->pcp[cpu][nid], b->pcp[cpu][nid]);
	}
	assert_int_equal(a->free_pages, b->free_pages);
}

/* A fresh arena of @blocks largest blocks (MM_BLOCK_BYTES each) with
 * @nodes nodes and the given per-CPU list tuning (0: defaults); any
 * previous arena must be free. System-page backing keeps the pre-fault
 * cost of small arenas low and predictable (4 MiB blocks at 4 KiB pages);
 * from 32 MiB blocks up (16 and 64 KiB pages) THP: an 8-block arena of
 * 64 KiB pages is 4 GiB, a million 4 KiB faults to pre-fault per test
 * without it (mm/contig took 45 s), 2048 with it. */
static inline void mm_arena(unsigned long blocks, int nodes, int batch, int high)
{
	struct pp_mem_config cfg = {
		.size = blocks * MM_BLOCK_BYTES,
		.backing = MM_BLOCK_BYTES >= (32UL << 20) ? PP_MEM_THP : PP_MEM_4K,
		.nr_nodes = nodes,
		.pcp_batch = batch,
		.pcp_high = high,
	};

	pp_mem_drain_local();
	assert_int_equal(pp_mem_exit(), 0);
	assert_int_equal(pp_mem_init(&cfg), 0);
}

static inline unsigned long mm_free_pages(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	return st.free_pages;
}

static inline unsigned long mm_total_pages(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	return st.total_pages;
}

/* Everything free again, once this CPU's lists are drained: the arena
 * holds no allocation (other CPUs' lists must be empty already). */
static inline void mm_assert_all_free(void)
{
	struct pp_mem_stats st;
	int nid;

	pp_mem_drain_local();
	pp_mem_get_stats(&st);
	assert_int_equal(st.free_pages, st.total_pages);
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		unsigned long blocks = pp_mem_free_blocks(nid, MAX_PAGE_ORDER);
		unsigned int o;

		for (o = 0; o < MAX_PAGE_ORDER; o++)
			assert_int_equal(pp_mem_free_blocks(nid, o), 0);
		(void)blocks;
	}
}

#endif
