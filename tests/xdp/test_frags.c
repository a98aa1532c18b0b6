/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Multi-buffer XDP and the helpers around it: the buffer and frame flags,
 * xdp_buff_add_frag() (coalescing, the MAX_SKB_FRAGS limit), the lengths
 * that sum the fragments, the conversions keeping fragments and flags,
 * every return call giving each fragment back to its own pool (all three
 * ways a frame finds its pool), fragment refcounts of page_pool frag
 * pages, xdpf_clone() copying into pages of its own, the metadata checks,
 * and the <linux/skbuff.h> fragment helpers.
 */
#include <linux/skbuff.h>

#include "xdp_test.h"

#define NR_FRAGS	3
#define FRAG_OFF	128
#define FRAG_LEN(i)	(200 + 10 * (i))

/* Pages a pool has taken back (into its cache, its ring, or released). */
static u64 recycled(struct page_pool *pool)
{
	struct page_pool_stats st = pool_stats(pool);

	return st.recycle_stats.cached + st.recycle_stats.ring +
	       st.recycle_stats.ring_full + st.recycle_stats.released_refcnt;
}

static unsigned long free_pages_now(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	return st.free_pages;
}

static long pp_refs(netmem_ref netmem)
{
	return atomic_long_read(netmem_get_pp_ref_count_ref(netmem));
}

/*
 * What a multi-buffer driver builds: the head from @head_pool, @nr
 * fragments of whole pages from @frag_pool[i % nfp], each filled with the
 * byte i + 1 where its data is.
 */
static void build_mb(struct xdp_buff *xdp, struct xdp_rxq_info *rxq, struct page_pool *head_pool,
		     struct page_pool **frag_pool, int nfp, int nr)
{
	struct page *head = page_pool_dev_alloc_pages(head_pool);
	int i;

	assert_non_null(head);
	xdp_init_buff(xdp, PAGE_SIZE, rxq);
	xdp_prepare_buff(xdp, page_address(head), XT_HEADROOM, XT_LEN, true);
	memset(xdp->data, 0xee, XT_LEN);
	for (i = 0; i < nr; i++) {
		struct page *page = page_pool_dev_alloc_pages(frag_pool[i % nfp]);

		assert_non_null(page);
		memset((char *)page_address(page) + FRAG_OFF, i + 1, FRAG_LEN(i));
		assert_true(xdp_buff_add_frag(xdp, page_to_netmem(page), FRAG_OFF, FRAG_LEN(i),
					      PAGE_SIZE));
	}
}

static unsigned int mb_len(int nr)
{
	unsigned int len = XT_LEN;
	int i;

	for (i = 0; i < nr; i++)
		len += FRAG_LEN(i);
	return len;
}

static void test_flags(void **state)
{
	struct xdp_rxq_info rxq = { 0 };
	struct xdp_buff xdp;
	struct xdp_frame f;
	char buf[64];

	(void)state;
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(&xdp, (unsigned char *)buf, 0, 16, true);
	assert_false(xdp_buff_has_frags(&xdp));
	xdp_buff_set_frags_flag(&xdp);
	assert_true(xdp_buff_has_frags(&xdp));
	assert_false(xdp_buff_is_frag_pfmemalloc(&xdp));
	xdp_buff_set_frag_pfmemalloc(&xdp);
	assert_true(xdp_buff_is_frag_pfmemalloc(&xdp));
	xdp_buff_set_frag_unreadable(&xdp);
	assert_int_equal(xdp_buff_get_skb_flags(&xdp), XDP_FLAGS_HAS_FRAGS |
			 XDP_FLAGS_FRAGS_PF_MEMALLOC | XDP_FLAGS_FRAGS_UNREADABLE);
	xdp_buff_clear_frag_pfmemalloc(&xdp);
	assert_false(xdp_buff_is_frag_pfmemalloc(&xdp));
	xdp_buff_clear_frags_flag(&xdp);
	assert_false(xdp_buff_has_frags(&xdp));
	assert_int_equal(xdp_buff_get_skb_flags(&xdp), XDP_FLAGS_FRAGS_UNREADABLE);
	xdp_buff_set_frags_flag(&xdp);
	xdp_reinit_buff(&xdp);
	assert_int_equal(xdp.flags, 0);

	memset(&f, 0, sizeof(f));
	f.flags = XDP_FLAGS_HAS_FRAGS | XDP_FLAGS_FRAGS_PF_MEMALLOC;
	assert_true(xdp_frame_has_frags(&f));
	assert_true(xdp_frame_is_frag_pfmemalloc(&f));
	assert_int_equal(xdp_frame_get_skb_flags(&f), f.flags);
	f.flags = 0;
	assert_false(xdp_frame_has_frags(&f));
	assert_false(xdp_frame_is_frag_pfmemalloc(&f));

	/* 6.12's mem { type, id } and upstream's mem_type / mem_id are one. */
	f.mem.type = MEM_TYPE_PAGE_POOL;
	f.mem.id = 77;
	assert_int_equal(f.mem_type, MEM_TYPE_PAGE_POOL);
	assert_int_equal(f.mem_id, 77);
	f.mem_type = MEM_TYPE_PAGE_ORDER0;
	assert_int_equal(f.mem.type, MEM_TYPE_PAGE_ORDER0);
	assert_int_equal(sizeof(f), 40);	/* the kernel's */

	/* Scrub clears the kernel pointers only. */
	f.data = buf;
	f.dev_rx = xt_netdev;
	f.len = 5;
	xdp_scrub_frame(&f);
	assert_null(f.data);
	assert_null(f.dev_rx);
	assert_int_equal(f.len, 5);
}

static void test_add_frag_len_and_convert(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct skb_shared_info *sinfo;
	struct xdp_rxq_info rxq;
	struct xdp_buff xdp, back;
	struct xdp_frame *f;
	int i;

	(void)state;
	xt_rxq_reg(&rxq, 0, pool);
	build_mb(&xdp, &rxq, pool, &pool, 1, NR_FRAGS);
	sinfo = xdp_get_shared_info_from_buff(&xdp);
	assert_ptr_equal(sinfo, (char *)xdp.data_hard_start + PAGE_SIZE - 320);
	assert_true(xdp_buff_has_frags(&xdp));
	assert_false(xdp_buff_is_frag_pfmemalloc(&xdp));
	assert_int_equal(sinfo->nr_frags, NR_FRAGS);
	assert_int_equal(sinfo->xdp_frags_size, mb_len(NR_FRAGS) - XT_LEN);
	assert_int_equal(sinfo->xdp_frags_truesize, NR_FRAGS * PAGE_SIZE);
	for (i = 0; i < NR_FRAGS; i++) {
		assert_int_equal(skb_frag_off(&sinfo->frags[i]), FRAG_OFF);
		assert_int_equal(skb_frag_size(&sinfo->frags[i]), FRAG_LEN(i));
		assert_int_equal(*(u8 *)skb_frag_address(&sinfo->frags[i]), i + 1);
	}
	assert_int_equal(xdp_get_buff_len(&xdp), mb_len(NR_FRAGS));

	/* The frame keeps the fragments and the flags. */
	xdp_buff_set_frag_pfmemalloc(&xdp);
	f = xdp_convert_buff_to_frame(&xdp);
	assert_non_null(f);
	assert_true(xdp_frame_has_frags(f));
	assert_true(xdp_frame_is_frag_pfmemalloc(f));
	assert_int_equal(f->flags, xdp.flags);
	assert_int_equal(f->len, XT_LEN);
	assert_int_equal(xdp_get_frame_len(f), mb_len(NR_FRAGS));
	assert_ptr_equal(xdp_get_shared_info_from_frame(f), sinfo);
	assert_int_equal(f->mem.type, MEM_TYPE_PAGE_POOL);
	assert_int_equal(f->mem.id, rxq.mem.id);
	xdp_convert_frame_to_buff(f, &back);
	assert_int_equal(back.flags, xdp.flags);
	assert_int_equal(xdp_get_buff_len(&back), mb_len(NR_FRAGS));

	/* Without the flag the shared info is not read. */
	xdp_buff_clear_frags_flag(&back);
	assert_int_equal(xdp_get_buff_len(&back), XT_LEN);

	xdp_return_frame(f);
	xt_teardown(&rxq, pool);
	assert_all_pages_home();
}

/* Coalescing into the previous fragment, and the MAX_SKB_FRAGS limit. */
static void test_add_frag_coalesce_and_limit(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct skb_shared_info *sinfo;
	struct page *p[4], *extra;
	struct xdp_rxq_info rxq;
	unsigned int off[4];
	struct xdp_buff xdp;
	long refs;
	int i;

	(void)state;
	xt_rxq_reg(&rxq, 0, pool);
	build_mb(&xdp, &rxq, pool, &pool, 1, 0);

	/* Four fragments of one page_pool page: 0, 1024, 2048, 3072. */
	for (i = 0; i < 4; i++) {
		p[i] = page_pool_dev_alloc_frag(pool, &off[i], i < 3 ? 1024 : 64);
		assert_ptr_equal(p[i], p[0]);
		assert_int_equal(off[i], off[0] + 1024 * i);
	}
	refs = pp_refs(page_to_netmem(p[0]));

	/* Back to back: one fragment, and the merged one's reference is
	 * given back. */
	assert_true(xdp_buff_add_frag(&xdp, page_to_netmem(p[0]), off[0], 1024, 1024));
	assert_true(xdp_buff_add_frag(&xdp, page_to_netmem(p[1]), off[1], 1024, 1024));
	sinfo = xdp_get_shared_info_from_buff(&xdp);
	assert_int_equal(sinfo->nr_frags, 1);
	assert_int_equal(skb_frag_size(&sinfo->frags[0]), 2048);
	assert_int_equal(sinfo->xdp_frags_size, 2048);
	assert_int_equal(sinfo->xdp_frags_truesize, 2048);
	assert_int_equal(pp_refs(page_to_netmem(p[0])), refs - 1);
	/* A gap: a fragment of its own, reference kept. */
	assert_true(xdp_buff_add_frag(&xdp, page_to_netmem(p[2]), off[2] + 8, 100, 1024));
	assert_int_equal(sinfo->nr_frags, 2);
	/* Adjacent, but __xdp_buff_add_frag() told not to coalesce. */
	assert_true(__xdp_buff_add_frag(&xdp, page_to_netmem(p[3]), off[2] + 108, 64, 64, false));
	assert_int_equal(sinfo->nr_frags, 3);
	assert_int_equal(pp_refs(page_to_netmem(p[0])), refs - 1);
	assert_int_equal(sinfo->xdp_frags_truesize, 2048 + 1024 + 64);
	assert_int_equal(xdp_get_buff_len(&xdp), XT_LEN + 2048 + 100 + 64);

	/* Fill to MAX_SKB_FRAGS; one more is refused and stays the caller's. */
	for (i = 3; i < MAX_SKB_FRAGS; i++)
		assert_true(xdp_buff_add_frag(&xdp, page_to_netmem(page_pool_dev_alloc_pages(pool)),
					      0, 100, PAGE_SIZE));
	assert_int_equal(sinfo->nr_frags, MAX_SKB_FRAGS);
	extra = page_pool_dev_alloc_pages(pool);
	assert_false(xdp_buff_add_frag(&xdp, page_to_netmem(extra), 0, 100, PAGE_SIZE));
	assert_int_equal(sinfo->nr_frags, MAX_SKB_FRAGS);
	page_pool_put_full_page(pool, extra, false);

	local_bh_disable();
	xdp_return_buff(&xdp);
	local_bh_enable();
	xt_teardown(&rxq, pool);
	assert_all_pages_home();
}

/* The pfmemalloc and unreadable bits follow the fragments added. */
static void test_add_frag_flags(void **state)
{
	struct xdp_rxq_info rxq = { 0 };
	struct net_iov niov;
	struct xdp_buff xdp;
	struct page *head, *pf;

	(void)state;
	head = alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL, 0);
	pf = alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL | __GFP_MEMALLOC, 0);
	assert_true(page_is_pfmemalloc(pf));
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(&xdp, page_address(head), XT_HEADROOM, XT_LEN, true);
	assert_true(xdp_buff_add_frag(&xdp, page_to_netmem(head), 3000, 10, 0));
	assert_int_equal(xdp.flags, XDP_FLAGS_HAS_FRAGS);
	assert_true(xdp_buff_add_frag(&xdp, page_to_netmem(pf), 0, 10, 0));
	assert_int_equal(xdp.flags, XDP_FLAGS_HAS_FRAGS | XDP_FLAGS_FRAGS_PF_MEMALLOC);
	memset(&niov, 0, sizeof(niov));
	assert_true(xdp_buff_add_frag(&xdp, net_iov_to_netmem(&niov), 0, 10, 0));
	assert_int_equal(xdp.flags, XDP_FLAGS_HAS_FRAGS | XDP_FLAGS_FRAGS_PF_MEMALLOC |
			 XDP_FLAGS_FRAGS_UNREADABLE);
	put_page(pf);
	put_page(head);
	assert_all_pages_home();
}

enum how { RET_FRAME, RET_FRAME_RX_NAPI, RET_BUFF, RET_BULK, RET_FRAG_CALLS, RET_HOW };

static void return_mb(struct xdp_buff *xdp, enum how how)
{
	struct xdp_frame_bulk bq;
	struct xdp_frame *f = NULL;

	if (how != RET_BUFF && how != RET_FRAG_CALLS) {
		f = xdp_convert_buff_to_frame(xdp);
		assert_non_null(f);
	}
	local_bh_disable();
	rcu_read_lock();
	switch (how) {
	case RET_FRAME:
		xdp_return_frame(f);
		break;
	case RET_FRAME_RX_NAPI:
		xdp_return_frame_rx_napi(f);
		break;
	case RET_BUFF:
		xdp_return_buff(xdp);
		break;
	case RET_BULK:
		xdp_frame_bulk_init(&bq);
		xdp_return_frame_bulk(f, &bq);
		xdp_flush_frame_bulk(&bq);
		break;
	case RET_FRAG_CALLS: {
		/* A driver dropping a buffer piece by piece. */
		struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);
		int i;

		for (i = 0; i < sinfo->nr_frags; i++)
			xdp_return_frag(skb_frag_netmem(&sinfo->frags[i]), xdp);
		xdp_buff_clear_frags_flag(xdp);
		xdp_return_buff(xdp);
		break;
	}
	default:
		fail();
	}
	rcu_read_unlock();
	local_bh_enable();
}

/*
 * Every return call, in every generation: the head and each fragment go
 * back to their pool - counted by the pool's recycle statistics - and
 * nothing is left in flight at teardown. With the direct generation the
 * fragments may come from other pools (the pool is read from each page).
 */
static void test_return_gives_back_every_frag(void **state)
{
	struct page_pool *pool[2];
	struct xdp_rxq_info rxq;
	struct xdp_buff xdp;
	u64 r0[2];
	int g, how;

	(void)state;
	for (g = 0; g < XT_GENERATIONS; g++) {
		if (!xt_set_generation(g))
			continue;
		for (how = 0; how < RET_HOW; how++) {
			unsigned long warns = pp_warn_count();
			int nfp = g == 0 ? 2 : 1;

			pool[0] = xt_pool(NULL);
			pool[1] = xt_pool(NULL);
			xt_rxq_reg(&rxq, 0, pool[0]);
			build_mb(&xdp, &rxq, pool[0], pool, nfp, NR_FRAGS + 2);
			r0[0] = recycled(pool[0]);
			r0[1] = recycled(pool[1]);
			return_mb(&xdp, (enum how)how);
			if (nfp == 2) {
				/* head + fragments 0, 2, 4 / fragments 1, 3 */
				assert_int_equal(recycled(pool[0]) - r0[0], 4);
				assert_int_equal(recycled(pool[1]) - r0[1], 2);
			} else {
				assert_int_equal(recycled(pool[0]) - r0[0], 1 + NR_FRAGS + 2);
			}
			assert_int_equal(pp_warn_count(), warns);
			xt_teardown(&rxq, pool[0]);
			page_pool_destroy(pool[1]);
			pp_workqueue_run_all();
			assert_all_pages_home();
		}
	}
	xt_default_generation();
}

/* Bulks of multi-buffer frames from two pools: more netmems than a bulk
 * holds, so it fills in the middle of a frame's fragments. */
static void test_bulk_of_mb_frames(void **state)
{
	struct page_pool *pool[2];
	struct xdp_rxq_info rxq[2];
	struct xdp_frame *f[8];
	struct xdp_frame_bulk bq;
	struct xdp_buff xdp;
	u64 r0[2];
	int g, i, q;

	(void)state;
	for (g = 0; g < XT_GENERATIONS; g++) {
		unsigned long warns = pp_warn_count();

		if (!xt_set_generation(g))
			continue;
		for (q = 0; q < 2; q++) {
			pool[q] = xt_pool(NULL);
			xt_rxq_reg(&rxq[q], (u32)q, pool[q]);
		}
		/* Frames alternate pools; frame i has i fragments. */
		for (i = 0; i < 8; i++) {
			build_mb(&xdp, &rxq[i & 1], pool[i & 1], &pool[i & 1], 1, i);
			f[i] = xdp_convert_buff_to_frame(&xdp);
			assert_non_null(f[i]);
		}
		r0[0] = recycled(pool[0]);
		r0[1] = recycled(pool[1]);
		xdp_frame_bulk_init(&bq);
		rcu_read_lock();
		for (i = 0; i < 8; i++)
			xdp_return_frame_bulk(f[i], &bq);
		xdp_flush_frame_bulk(&bq);
		rcu_read_unlock();
		/* Pool 0: frames 0, 2, 4, 6 (12 fragments); pool 1: 1, 3, 5, 7 (16). */
		assert_int_equal(recycled(pool[0]) - r0[0], 4 + 12);
		assert_int_equal(recycled(pool[1]) - r0[1], 4 + 16);
		assert_int_equal(pp_warn_count(), warns);
		for (q = 0; q < 2; q++)
			xt_teardown(&rxq[q], pool[q]);
		assert_all_pages_home();
	}
	xt_default_generation();
}

/* Fragments of page_pool frag pages: each return drops one pp reference
 * of the shared page, which goes back only with its last fragment. */
static void test_frag_page_refcounts(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct xdp_rxq_info rxq;
	struct xdp_buff xdp;
	struct xdp_frame *f;
	unsigned int off[2];
	struct page *p[2];
	long refs;
	int g, k;

	(void)state;
	xt_rxq_reg(&rxq, 0, pool);
	for (g = 0; g < XT_GENERATIONS; g++) {
		if (!xt_set_generation(g))
			continue;
		p[0] = page_pool_dev_alloc_frag(pool, &off[0], 512);
		p[1] = page_pool_dev_alloc_frag(pool, &off[1], 512);
		assert_ptr_equal(p[0], p[1]);
		refs = pp_refs(page_to_netmem(p[0]));
		for (k = 0; k < 2; k++) {
			u64 r0;

			build_mb(&xdp, &rxq, pool, &pool, 1, 0);
			/* Not adjacent to anything: no coalescing. */
			assert_true(xdp_buff_add_frag(&xdp, page_to_netmem(p[k]), off[k] + 8, 100, 512));
			f = xdp_convert_buff_to_frame(&xdp);
			r0 = recycled(pool);
			xdp_return_frame(f);
			/* The head page came back; the frag page lost one
			 * reference and is still out. */
			assert_int_equal(recycled(pool) - r0, 1);
			assert_int_equal(pp_refs(page_to_netmem(p[0])), refs - 1 - k);
			assert_true(page_pool_page_is_pp(p[0]));
		}
	}
	xt_default_generation();
	/* The pool drains its frag pages at destroy. */
	xt_teardown(&rxq, pool);
	assert_all_pages_home();
}

static void test_clone_linear(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct xdp_rxq_info rxq;
	struct xdp_frame *f, *c, big;
	struct xdp_buff xdp;
	unsigned long free0;
	u64 r0;

	(void)state;
	xt_rxq_reg(&rxq, 0, pool);
	build_mb(&xdp, &rxq, pool, &pool, 1, 0);
	xdp.data_meta = (char *)xdp.data - 8;
	memset(xdp.data_meta, 0x5a, 8);
	f = xdp_convert_buff_to_frame(&xdp);
	f->dev_rx = xt_netdev;
	assert_non_null(f);

	free0 = free_pages_now();
	c = xdpf_clone(f);
	assert_non_null(c);
	assert_ptr_not_equal(c, f);
	assert_int_equal(free_pages_now(), free0 - 1);
	assert_false(page_pool_page_is_pp(virt_to_page(c)));
	assert_ptr_equal(c, page_address(virt_to_page(c)));
	assert_int_equal(c->mem_type, MEM_TYPE_PAGE_ORDER0);
	assert_int_equal(c->mem.id, 0);
	assert_int_equal(c->frame_sz, PAGE_SIZE);
	assert_int_equal(c->len, f->len);
	assert_int_equal(c->headroom, f->headroom);
	assert_int_equal(c->metasize, 8);
	assert_int_equal(c->flags, f->flags);
	assert_ptr_equal(c->dev_rx, xt_netdev);
	assert_ptr_equal(c->data, (char *)c + sizeof(*c) + c->headroom);
	assert_memory_equal((char *)c->data - 8, (char *)f->data - 8, 8 + XT_LEN);
	/* A copy, not an alias. */
	memset(f->data, 0x11, XT_LEN);
	assert_int_equal(*(u8 *)c->data, 0xee);

	/* A copy of the frame for the case below, taken while the frame's
	 * page is still ours: once returned, the page is the pool's (and
	 * poisoned, in a poisoning build). */
	big = *f;
	r0 = recycled(pool);
	xdp_return_frame(c);
	assert_int_equal(free_pages_now(), free0);
	assert_int_equal(recycled(pool), r0);
	xdp_return_frame(f);
	assert_int_equal(recycled(pool), r0 + 1);

	/* More than a page can hold with skb_shared_info's tailroom. */
	big.len = SKB_WITH_OVERHEAD(PAGE_SIZE) - sizeof(big) - big.headroom + 1;
	free0 = free_pages_now();
	assert_null(xdpf_clone(&big));
	assert_int_equal(free_pages_now(), free0);

	xt_teardown(&rxq, pool);
	assert_all_pages_home();
}

static void test_clone_frags(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct skb_shared_info *fs, *cs;
	struct xdp_rxq_info rxq;
	struct xdp_frame *f, *c;
	struct xdp_buff xdp;
	struct net_iov niov;
	unsigned long free0;
	u64 r0;
	int i;

	(void)state;
	xt_rxq_reg(&rxq, 0, pool);
	build_mb(&xdp, &rxq, pool, &pool, 1, NR_FRAGS);
	f = xdp_convert_buff_to_frame(&xdp);
	fs = xdp_get_shared_info_from_frame(f);

	free0 = free_pages_now();
	c = xdpf_clone(f);
	assert_non_null(c);
	/* A page for the head, one per fragment. */
	assert_int_equal(free_pages_now(), free0 - 1 - NR_FRAGS);
	assert_true(xdp_frame_has_frags(c));
	assert_int_equal(xdp_get_frame_len(c), xdp_get_frame_len(f));
	cs = xdp_get_shared_info_from_frame(c);
	assert_ptr_equal(cs, (char *)c + PAGE_SIZE - 320);
	assert_int_equal(cs->nr_frags, NR_FRAGS);
	for (i = 0; i < NR_FRAGS; i++) {
		struct page *cp = skb_frag_page(&cs->frags[i]);

		assert_ptr_not_equal(cp, skb_frag_page(&fs->frags[i]));
		assert_false(page_pool_page_is_pp(cp));
		assert_int_equal(skb_frag_size(&cs->frags[i]), FRAG_LEN(i));
		assert_memory_equal(skb_frag_address(&cs->frags[i]),
				    skb_frag_address(&fs->frags[i]), FRAG_LEN(i));
	}
	/* The clone's pages go back to the page allocator, the original's
	 * to its pool. */
	r0 = recycled(pool);
	xdp_return_frame(c);
	assert_int_equal(free_pages_now(), free0);
	assert_int_equal(recycled(pool), r0);

	/* A fragment the CPU cannot read: no clone, nothing leaked. */
	memset(&niov, 0, sizeof(niov));
	skb_frag_fill_netmem_desc(&fs->frags[NR_FRAGS], net_iov_to_netmem(&niov), 0, 10);
	fs->nr_frags++;
	assert_null(xdpf_clone(f));
	assert_int_equal(free_pages_now(), free0);
	fs->nr_frags--;

	xdp_return_frame(f);
	assert_int_equal(recycled(pool), r0 + 1 + NR_FRAGS);
	xt_teardown(&rxq, pool);
	assert_all_pages_home();
}

static void test_metadata(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct xdp_rxq_info rxq;
	struct xdp_buff xdp;
	struct xdp_frame *f;
	struct page *page;

	(void)state;
	xt_rxq_reg(&rxq, 0, pool);
	page = page_pool_dev_alloc_pages(pool);
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq);

	xdp_prepare_buff(&xdp, page_address(page), XT_HEADROOM, XT_LEN, true);
	assert_ptr_equal(xdp.data_meta, xdp.data);
	assert_false(xdp_data_meta_unsupported(&xdp));
	xdp_set_data_meta_invalid(&xdp);
	assert_ptr_equal(xdp.data_meta, (char *)xdp.data + 1);
	assert_true(xdp_data_meta_unsupported(&xdp));
	/* No metadata in the frame of a buffer without it. */
	f = xdp_convert_buff_to_frame(&xdp);
	assert_int_equal(f->metasize, 0);

	xdp_prepare_buff(&xdp, page_address(page), XT_HEADROOM, XT_LEN, false);
	assert_true(xdp_data_meta_unsupported(&xdp));
	xdp_prepare_buff(&xdp, page_address(page), XT_HEADROOM, XT_LEN, true);
	xdp.data_meta = (char *)xdp.data - 32;
	assert_false(xdp_data_meta_unsupported(&xdp));
	f = xdp_convert_buff_to_frame(&xdp);
	assert_int_equal(f->metasize, 32);

	/* Multiples of 4 up to what skb_shared_info.meta_len holds. */
	assert_false(xdp_metalen_invalid(0));
	assert_false(xdp_metalen_invalid(4));
	assert_false(xdp_metalen_invalid(32));
	assert_false(xdp_metalen_invalid(252));
	assert_true(xdp_metalen_invalid(1));
	assert_true(xdp_metalen_invalid(6));
	assert_true(xdp_metalen_invalid(255));
	assert_true(xdp_metalen_invalid(256));
	assert_true(xdp_metalen_invalid(1UL << 40));

	xdp_return_frame(f);
	xt_teardown(&rxq, pool);
	assert_all_pages_home();
}

static void test_bulk_init_and_rxq_states(void **state)
{
	struct page_pool *pool = xt_pool(NULL);
	struct xdp_frame_bulk bq;
	struct xdp_rxq_info rxq;

	(void)state;
	memset(&bq, 0x5a, sizeof(bq));
	xdp_frame_bulk_init(&bq);
	assert_int_equal(bq.count, 0);
	assert_null(bq.xa);
	xdp_flush_frame_bulk(&bq);	/* empty: nothing to do */

	memset(&rxq, 0, sizeof(rxq));
	assert_false(xdp_rxq_info_is_reg(&rxq));
	xt_rxq_reg(&rxq, 3, pool);
	assert_true(xdp_rxq_info_is_reg(&rxq));
	assert_int_equal(rxq.queue_index, 3);
	xt_teardown(&rxq, pool);
	assert_false(xdp_rxq_info_is_reg(&rxq));
	xdp_rxq_info_unused(&rxq);
	assert_false(xdp_rxq_info_is_reg(&rxq));
	assert_all_pages_home();
}

static void test_skbuff_helpers(void **state)
{
	struct skb_shared_info *sinfo;
	struct net_iov niov;
	struct page *page;
	skb_frag_t a, b;

	(void)state;
	assert_int_equal(sizeof(struct skb_shared_info), 320);
	assert_int_equal(__alignof__(struct skb_shared_info), 8);
	assert_int_equal(SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), 320);
	assert_int_equal(XDP_SKB_SHARED_INFO_SIZE, 320);
	assert_int_equal(SKB_WITH_OVERHEAD(4096), 4096 - 320);
	assert_int_equal(SKB_HEAD_ALIGN(1500), 1536 + 320);
	assert_int_equal(XDP_PACKET_HEADROOM, 256);

	page = dev_alloc_page();
	assert_non_null(page);
	skb_frag_fill_page_desc(&a, page, 100, 50);
	assert_ptr_equal(skb_frag_page(&a), page);
	assert_int_equal(skb_frag_netmem(&a), page_to_netmem(page));
	assert_false(skb_frag_is_net_iov(&a));
	assert_null(skb_frag_net_iov(&a));
	assert_int_equal(skb_frag_off(&a), 100);
	assert_int_equal(skb_frag_size(&a), 50);
	assert_ptr_equal(skb_frag_address(&a), (char *)page_address(page) + 100);
	assert_ptr_equal(skb_frag_address_safe(&a), (char *)page_address(page) + 100);
	skb_frag_size_add(&a, 10);
	skb_frag_size_sub(&a, 20);
	assert_int_equal(skb_frag_size(&a), 40);
	skb_frag_size_set(&a, 7);
	assert_int_equal(skb_frag_size(&a), 7);
	skb_frag_off_add(&a, 8);
	assert_int_equal(skb_frag_off(&a), 108);
	skb_frag_off_set(&a, 9);
	assert_int_equal(skb_frag_off(&a), 9);
	memset(&b, 0, sizeof(b));
	skb_frag_off_copy(&b, &a);
	skb_frag_page_copy(&b, &a);
	assert_int_equal(skb_frag_off(&b), 9);
	assert_ptr_equal(skb_frag_page(&b), page);

	memset(&niov, 0, sizeof(niov));
	skb_frag_fill_netmem_desc(&b, net_iov_to_netmem(&niov), 4, 5);
	assert_true(skb_frag_is_net_iov(&b));
	assert_ptr_equal(skb_frag_net_iov(&b), &niov);
	assert_null(skb_frag_page(&b));
	assert_null(skb_frag_address(&b));

	sinfo = (struct skb_shared_info *)((char *)page_address(page) + SKB_WITH_OVERHEAD(PAGE_SIZE));
	__skb_fill_page_desc_noacc(sinfo, 2, page, 1, 2);
	__skb_fill_netmem_desc_noacc(sinfo, 3, net_iov_to_netmem(&niov), 3, 4);
	assert_ptr_equal(skb_frag_page(&sinfo->frags[2]), page);
	assert_int_equal(skb_frag_off(&sinfo->frags[2]), 1);
	assert_int_equal(skb_frag_size(&sinfo->frags[2]), 2);
	assert_ptr_equal(skb_frag_net_iov(&sinfo->frags[3]), &niov);
	assert_int_equal(skb_frag_size(&sinfo->frags[3]), 4);
	put_page(page);
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_add_frag_len_and_convert),
		cmocka_unit_test(test_add_frag_coalesce_and_limit),
		cmocka_unit_test(test_add_frag_flags),
		cmocka_unit_test(test_return_gives_back_every_frag),
		cmocka_unit_test(test_bulk_of_mb_frames),
		cmocka_unit_test(test_frag_page_refcounts),
		cmocka_unit_test(test_clone_linear),
		cmocka_unit_test(test_clone_frags),
		cmocka_unit_test(test_metadata),
		cmocka_unit_test(test_bulk_init_and_rxq_states),
		cmocka_unit_test(test_skbuff_helpers),
	};

	/* PP_TEST_FILTER=test_clone_frags runs one test alone (tests that
	 * leak pages make the later ones fail their all-pages-home checks). */
	if (getenv("PP_TEST_FILTER"))
		cmocka_set_test_filter(getenv("PP_TEST_FILTER"));
	xdp_test_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
