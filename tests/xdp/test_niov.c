/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XDP frames on net_iovs backed by host memory (tests/common/hostmem_mp.h:
 * a provider whose area is bound to arena pages, an XDP_TX pool of
 * DMA_BIDIRECTIONAL): the binding and its lookups; a frame built with
 * xdp_convert_buff_to_frame() on a net_iov's memory goes back to the pool
 * holding the net_iov through every return call in every return
 * generation the build has; half-page fragments of one net_iov are counted by
 * pp_ref_count (a fragment returned twice is a reported double put, and
 * the net_iov is cached once); a frame returned after page_pool_destroy()
 * is the pool's deferred release; pages of areas not bound (or no longer)
 * and stale frames are refused with a warning, as before.
 */
#include <net/page_pool/memory_provider.h>
#include <pagepool/dma.h>

#include "hostmem_mp.h"
#include "xdp_test.h"

static struct device *dev;

static struct pp_page_pool_misuse misuse(void)
{
	struct pp_page_pool_misuse m;

	assert_int_equal(pp_page_pool_get_misuse(&m), 0);
	return m;
}

static unsigned long misuse_total(void)
{
	struct pp_page_pool_misuse m = misuse();

	return m.not_pp_page + m.foreign_pool + m.ref_underflow + m.double_put +
	       m.concurrent_consumer;
}

/* What a driver does on RX into a net_iov's memory: buffer -> frame. */
static struct xdp_frame *niov_frame(netmem_ref netmem, unsigned int offset,
				    unsigned int frame_sz, struct xdp_rxq_info *rxq,
				    struct xdp_buff *xdp)
{
	unsigned char *va = pp_net_iov_address(netmem_to_net_iov(netmem));
	struct xdp_frame *f;

	assert_non_null(va);
	xdp_init_buff(xdp, frame_sz, rxq);
	xdp_prepare_buff(xdp, va + offset, XT_HEADROOM, XT_LEN, true);
	f = xdp_convert_buff_to_frame(xdp);
	assert_ptr_equal(f, va + offset);
	return f;
}

static unsigned long recycled(struct page_pool *pool)
{
	struct page_pool_stats st = pool_stats(pool);

	return st.recycle_stats.cached + st.recycle_stats.ring;
}

/* The provider, its pool on queue 0 and the queue's memory model. */
struct niov_env {
	struct hostmem_mp *mp;
	struct pp_memory_provider_params p;
	struct page_pool *pool;
	struct xdp_rxq_info rxq;
	struct napi_struct napi;
	bool has_napi;
};

static void env_up(struct niov_env *e, unsigned int order, bool napi)
{
	memset(e, 0, sizeof(*e));
	e->mp = hostmem_mp_create(dev, order);
	assert_non_null(e->mp);
	e->has_napi = napi;
	if (napi) {
		netif_napi_add(xt_netdev, &e->napi, call_poll);
		napi_enable(&e->napi);
	}
	e->pool = hostmem_pool(e->mp, xt_netdev, napi ? &e->napi : NULL, &e->p);
	assert_false(IS_ERR(e->pool));
	xt_rxq_reg(&e->rxq, 0, e->pool);
}

/* Queue, pool, provider: every net_iov back, no DMA-API violation. */
static void env_down(struct niov_env *e)
{
	if (e->has_napi)
		napi_disable(&e->napi);
	xt_teardown(&e->rxq, e->pool);
	if (e->has_napi)
		netif_napi_del(&e->napi);
	net_mp_close_rxq(xt_netdev, 0, &e->p);
	assert_int_equal(hostmem_free(e->mp), hostmem_nr(e->mp));
	assert_int_equal(e->mp->users, 0);
	assert_int_equal(e->mp->allocs, e->mp->releases);
	assert_int_equal(hostmem_mp_destroy(e->mp), 0);
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_all_pages_home();
}

static void test_bind_and_lookup(void **state)
{
	struct net_iov_area area = { 0 }, other = { 0 };
	struct net_iov niovs[4] = { 0 }, niovs2[4] = { 0 };
	struct page *pages, *comp, *plain;
	struct page_pool *pp_pool;
	struct page *pp_page;
	int i, here;

	(void)state;
	pages = alloc_pages(GFP_KERNEL, 2);
	assert_non_null(pages);
	assert_int_equal(pp_net_iov_area_bind_pages(NULL, pages), -EINVAL);
	assert_int_equal(pp_net_iov_area_bind_pages(&area, pages), -EINVAL);	/* empty */
	area.niovs = niovs;
	area.num_niovs = 4;
	assert_int_equal(pp_net_iov_area_bind_pages(&area, NULL), -EINVAL);
	/* The net_iovs must be the area's. */
	assert_int_equal(pp_net_iov_area_bind_pages(&area, pages), -EINVAL);
	for (i = 0; i < 4; i++)
		niovs[i].owner = &area;
	/* A compound page is refused (its tails resolve to the head). */
	comp = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	assert_int_equal(pp_net_iov_area_bind_pages(&area, comp), -EINVAL);
	/* So is a page_pool page, and nothing is left marked. */
	pp_pool = xt_pool(NULL);
	pp_page = page_pool_alloc_pages(pp_pool, GFP_ATOMIC);
	area.num_niovs = 1;
	assert_int_equal(pp_net_iov_area_bind_pages(&area, pp_page), -EINVAL);
	assert_null(pp_virt_to_net_iov(page_address(pp_page)));
	page_pool_put_full_page(pp_pool, pp_page, false);
	page_pool_destroy(pp_pool);
	area.num_niovs = 4;

	assert_int_equal(pp_net_iov_area_bind_pages(&area, pages), 0);
	for (i = 0; i < 4; i++) {
		char *va = page_address(pages + i);

		assert_true(test_bit(PG_net_iov, &pages[i].flags));
		assert_ptr_equal(pp_net_iov_address(&niovs[i]), va);
		assert_ptr_equal(pp_virt_to_net_iov(va), &niovs[i]);
		assert_ptr_equal(pp_virt_to_net_iov(va + PAGE_SIZE - 1), &niovs[i]);
		assert_false(netmem_is_pp(page_to_netmem(pages + i)));
	}
	/* Bound already, or its pages by another area. */
	assert_int_equal(pp_net_iov_area_bind_pages(&area, pages), -EINVAL);
	other.niovs = niovs2;
	other.num_niovs = 4;
	for (i = 0; i < 4; i++)
		niovs2[i].owner = &other;
	assert_int_equal(pp_net_iov_area_bind_pages(&other, pages + 2), -EINVAL);
	assert_ptr_equal(pp_virt_to_net_iov(page_address(pages + 2)), &niovs[2]);
	assert_null(pp_net_iov_address(&niovs2[0]));
	/* Outside the arena, ordinary pages, NULL. */
	assert_null(pp_virt_to_net_iov(&here));
	assert_null(pp_virt_to_net_iov(NULL));
	plain = alloc_page(GFP_KERNEL);
	assert_null(pp_virt_to_net_iov(page_address(plain)));
	assert_null(pp_net_iov_address(NULL));

	pp_net_iov_area_unbind_pages(&area);
	for (i = 0; i < 4; i++) {
		assert_false(test_bit(PG_net_iov, &pages[i].flags));
		assert_int_equal(pages[i].private, 0);
		assert_null(pp_virt_to_net_iov(page_address(pages + i)));
		assert_null(pp_net_iov_address(&niovs[i]));
	}
	pp_net_iov_area_unbind_pages(&area);	/* unbound: nothing to do */
	pp_net_iov_area_unbind_pages(NULL);
	/* The pages can be bound again, by another area. */
	assert_int_equal(pp_net_iov_area_bind_pages(&other, pages), 0);
	assert_ptr_equal(pp_virt_to_net_iov(page_address(pages + 3)), &niovs2[3]);
	pp_net_iov_area_unbind_pages(&other);

	__free_pages(pages, 2);
	put_page(comp);
	put_page(plain);
	pp_workqueue_run_all();
	assert_all_pages_home();
}

/* The ways back, one frame each. */
enum ret_api {
	RET_FRAME,		/* xdp_return_frame() */
	RET_FRAME_RX_NAPI,	/* xdp_return_frame_rx_napi(), in the poll */
	RET_BUFF,		/* xdp_return_buff(), in the poll */
	RET_BULK,		/* xdp_return_frame_bulk() + flush */
	RET_XDP_RETURN,		/* __xdp_return() of virt_to_netmem(data) */
	RET_FRAG,		/* xdp_return_frag() of the page netmem */
	RET_NR,
};

static const char *const ret_name[RET_NR] = {
	"xdp_return_frame", "xdp_return_frame_rx_napi", "xdp_return_buff",
	"xdp_return_frame_bulk", "__xdp_return", "xdp_return_frag",
};

struct in_poll {
	enum ret_api api;
	bool in_poll;
	struct xdp_frame *f;
	struct xdp_buff *xdp;
};

static void return_one(void *arg)
{
	struct in_poll *ip = arg;
	struct xdp_frame_bulk bq;

	switch (ip->api) {
	case RET_FRAME:
		xdp_return_frame(ip->f);
		break;
	case RET_FRAME_RX_NAPI:
		xdp_return_frame_rx_napi(ip->f);
		break;
	case RET_BUFF:
		xdp_return_buff(ip->xdp);
		break;
	case RET_BULK:
		xdp_frame_bulk_init(&bq);
		rcu_read_lock();
		xdp_return_frame_bulk(ip->f, &bq);
		xdp_flush_frame_bulk(&bq);
		rcu_read_unlock();
		break;
	case RET_XDP_RETURN:
		__xdp_return(virt_to_netmem(ip->f->data), MEM_TYPE_PAGE_POOL, ip->in_poll, NULL);
		break;
	default:
		xdp_return_frag(virt_to_netmem(ip->f->data), ip->xdp);
		break;
	}
}

static void test_every_return_every_generation(void **state)
{
	int g, api, round;

	(void)state;
	for (g = 0; g < XT_GENERATIONS; g++) {
		struct niov_env e;

		if (!xt_set_generation(g))
			continue;
		env_up(&e, 3, true);
		for (round = 0; round < 2; round++) {
			for (api = 0; api < RET_NR; api++) {
				/* Outside the poll only what may run anywhere. */
				if (round == 1 && api != RET_FRAME && api != RET_BULK &&
				    api != RET_XDP_RETURN)
					continue;
				unsigned long warns = pp_warn_count(), bad = misuse_total();
				unsigned long rec = recycled(e.pool);
				struct page_pool_stats st0, st1;
				struct in_poll ip = { .api = (enum ret_api)api, .in_poll = !round };
				struct xdp_buff xdp;
				netmem_ref n = page_pool_dev_alloc_netmems(e.pool);
				long inflight = pool_inflight(e.pool);

				assert_true(netmem_is_net_iov(n));
				ip.f = niov_frame(n, 0, PAGE_SIZE, &e.rxq, &xdp);
				ip.xdp = &xdp;
				st0 = pool_stats(e.pool);
				/* Round 0 in the pool's poll, round 1 from process
				 * context (never direct). */
				if (round == 0)
					run_in_poll(&e.napi, return_one, &ip);
				else
					return_one(&ip);
				st1 = pool_stats(e.pool);
				print_message("    %s, %s, %s: cached %llu ring %llu\n",
					      xt_generation_name[g], ret_name[api],
					      round ? "process" : "poll",
					      (unsigned long long)(st1.recycle_stats.cached -
								   st0.recycle_stats.cached),
					      (unsigned long long)(st1.recycle_stats.ring -
								   st0.recycle_stats.ring));
				assert_int_equal(pp_warn_count(), warns);
				assert_int_equal(misuse_total(), bad);
				assert_int_equal(recycled(e.pool), rec + 1);
				/* Back in the pool, not released: inflight stays. */
				assert_int_equal(pool_inflight(e.pool), inflight);
				if (round == 0)
					assert_int_equal(st1.recycle_stats.cached,
							 st0.recycle_stats.cached + 1);
				else
					assert_int_equal(st1.recycle_stats.cached,
							 st0.recycle_stats.cached);
			}
		}
		env_down(&e);
	}
	xt_default_generation();
}

/* Two half-page fragments of one net_iov (2 KiB at 4 KiB pages), each its
 * own frame. */
static void test_frags_counted_by_pp_ref_count(void **state)
{
	int g;

	(void)state;
	for (g = 0; g < XT_GENERATIONS; g++) {
		struct xdp_buff xa, xb, xc;
		struct xdp_frame *fa, *fb, *fc;
		unsigned int oa, ob, oc, seen;
		netmem_ref a, b, c, got[64];
		struct pp_page_pool_misuse m0, m1;
		unsigned long warns, rec;
		struct niov_env e;
		const unsigned int half = PAGE_SIZE / 2;
		int i, n = 0;

		if (!xt_set_generation(g))
			continue;
		env_up(&e, 3, false);
		a = page_pool_alloc_frag_netmem(e.pool, &oa, half, GFP_ATOMIC);
		b = page_pool_alloc_frag_netmem(e.pool, &ob, half, GFP_ATOMIC);
		assert_true(netmem_is_net_iov(a));
		assert_true(a == b);
		assert_int_equal(oa, 0);
		assert_int_equal(ob, half);
		/* A third takes the next net_iov: the first is drained, its
		 * count now the two fragments out. */
		c = page_pool_alloc_frag_netmem(e.pool, &oc, half, GFP_ATOMIC);
		assert_true(c != a);
		assert_int_equal(oc, 0);
		assert_int_equal(atomic_long_read(netmem_get_pp_ref_count_ref(a)), 2);
		fa = niov_frame(a, oa, half, &e.rxq, &xa);
		fb = niov_frame(b, ob, half, &e.rxq, &xb);
		fc = niov_frame(c, oc, half, &e.rxq, &xc);

		warns = pp_warn_count();
		rec = recycled(e.pool);
		xdp_return_frame(fa);
		assert_int_equal(recycled(e.pool), rec);	/* b still out */
		assert_int_equal(atomic_long_read(netmem_get_pp_ref_count_ref(a)), 1);
		xdp_return_frame(fb);
		assert_int_equal(recycled(e.pool), rec + 1);
		assert_int_equal(pp_warn_count(), warns);

		/* fa again: a double put, reported (at the put, or when the
		 * refill finds the duplicate), and the net_iov comes out of
		 * the pool once: everything the pool hands out now. */
		m0 = misuse();
		xdp_return_frame(fa);
		for (seen = 0; n < (int)ARRAY_SIZE(got); n++) {
			got[n] = page_pool_dev_alloc_netmems(e.pool);
			if (!got[n])
				break;
			seen += got[n] == a;
		}
		m1 = misuse();
		assert_int_equal(seen, 1);
		assert_int_equal(pp_warn_count(), warns + 1);
		assert_int_equal((m1.ref_underflow - m0.ref_underflow) +
				 (m1.double_put - m0.double_put), 1);
		assert_int_equal(m1.not_pp_page, m0.not_pp_page);
		for (i = 0; i < n; i++)
			page_pool_put_full_netmem(e.pool, got[i], false);
		xdp_return_frame(fc);
		env_down(&e);
	}
	xt_default_generation();
}

/* A frame held across page_pool_destroy(): its return is the last one,
 * which frees the pool and gives the net_iov back to the provider. */
static void test_return_after_destroy(void **state)
{
	int g, bulk;

	(void)state;
	for (g = 0; g < XT_GENERATIONS; g++) {
		if (!xt_set_generation(g))
			continue;
		for (bulk = 0; bulk < 2; bulk++) {
			struct niov_env e;
			struct xdp_buff xdp;
			struct xdp_frame *f;
			struct xdp_frame_bulk bq;
			u32 id;

			env_up(&e, 2, false);
			id = pp_page_pool_id(e.pool);
			f = niov_frame(page_pool_dev_alloc_netmems(e.pool), 0, PAGE_SIZE, &e.rxq,
				       &xdp);
			xdp_rxq_info_unreg(&e.rxq);
			page_pool_destroy(e.pool);
			pp_workqueue_run_all();
			assert_true(xt_pool_alive(id));
			assert_int_equal(pool_inflight(e.pool), 1);
			assert_int_equal(hostmem_free(e.mp), hostmem_nr(e.mp) - 1);
			if (bulk) {
				xdp_frame_bulk_init(&bq);
				rcu_read_lock();
				xdp_return_frame_bulk(f, &bq);
				xdp_flush_frame_bulk(&bq);
				rcu_read_unlock();
			} else {
				xdp_return_frame(f);
			}
			pp_workqueue_run_all();
			assert_false(xt_pool_alive(id));
			assert_int_equal(hostmem_free(e.mp), hostmem_nr(e.mp));
			assert_int_equal(e.mp->users, 0);
			net_mp_close_rxq(xt_netdev, 0, &e.p);
			assert_int_equal(hostmem_mp_destroy(e.mp), 0);
			assert_int_equal(pp_dma_violations(dev), 0);
			assert_all_pages_home();
		}
	}
	xt_default_generation();
}

/* Memory no bound area backs is refused as before; so is a stale frame
 * whose net_iov went back to the provider. */
static void test_unbound_and_stale_warn(void **state)
{
	int g, bulk;

	(void)state;
	for (g = 0; g < XT_GENERATIONS; g++) {
		if (!xt_set_generation(g))
			continue;
		for (bulk = 0; bulk < 2; bulk++) {
			struct net_iov_area area = { 0 };
			struct net_iov niov = { 0 };
			struct pp_page_pool_misuse m0, m1;
			struct niov_env e;
			struct xdp_buff xdp;
			struct xdp_frame *f, *stale;
			struct xdp_frame_bulk bq;
			struct page *page;
			unsigned long warns;

			env_up(&e, 2, false);
			/* A page an area was bound to and is no longer. */
			page = alloc_page(GFP_KERNEL);
			niov.owner = &area;
			area.niovs = &niov;
			area.num_niovs = 1;
			assert_int_equal(pp_net_iov_area_bind_pages(&area, page), 0);
			pp_net_iov_area_unbind_pages(&area);
			xdp_init_buff(&xdp, PAGE_SIZE, &e.rxq);
			xdp_prepare_buff(&xdp, page_address(page), XT_HEADROOM, XT_LEN, true);
			f = xdp_convert_buff_to_frame(&xdp);
			/* A frame whose net_iov the pool gave back. */
			stale = niov_frame(page_pool_dev_alloc_netmems(e.pool), 0, PAGE_SIZE,
					   &e.rxq, &xdp);
			xdp_return_frame(stale);

			xt_teardown(&e.rxq, e.pool);
			assert_int_equal(hostmem_free(e.mp), hostmem_nr(e.mp));

			m0 = misuse();
			warns = pp_warn_count();
			if (bulk) {
				xdp_frame_bulk_init(&bq);
				rcu_read_lock();
				xdp_return_frame_bulk(f, &bq);
				xdp_return_frame_bulk(stale, &bq);
				xdp_flush_frame_bulk(&bq);
				rcu_read_unlock();
			} else {
				xdp_return_frame(f);
				xdp_return_frame(stale);
			}
			m1 = misuse();
			/* Lookup generation: the pool's id is gone, refused for
			 * that (WARN_ONCE) and as a page no pool owns. */
			assert_true(pp_warn_count() >= warns + 2);
			assert_int_equal(m1.not_pp_page - m0.not_pp_page, 2);
			assert_int_equal(page_ref_count(page), 1);
			assert_int_equal(hostmem_free(e.mp), hostmem_nr(e.mp));
			put_page(page);
			net_mp_close_rxq(xt_netdev, 0, &e.p);
			assert_int_equal(hostmem_mp_destroy(e.mp), 0);
			assert_all_pages_home();
		}
	}
	xt_default_generation();
}

static int holder_cb(const struct pp_page_pool_holder *h, void *arg)
{
	struct pp_page_pool_holder *out = arg;

	if (h->handoff_ip)
		*out = *h;
	return 0;
}

/* Holder tracking (meson -Dholders=true): the conversion of a frame on a
 * net_iov's memory is recorded as the net_iov's hand-on site, as it is for
 * a page (the page behind it is no pool's: the note resolves it). */
static void test_holders_handoff(void **state)
{
	struct pp_page_pool_holder h = { 0 };
	struct xdp_buff xdp;
	struct xdp_frame *f;
	struct niov_env e;

	(void)state;
	if (!IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)) {
		print_message("    holder tracking is not in this build (meson -Dholders=true)\n");
		skip();
	}
	env_up(&e, 2, false);
	f = niov_frame(page_pool_dev_alloc_netmems(e.pool), 0, PAGE_SIZE, &e.rxq, &xdp);
	assert_int_equal(pp_page_pool_for_each_holder(pp_page_pool_id(e.pool), holder_cb, &h), 0);
	assert_int_equal(h.pages, 1);
	assert_true(h.handoff_ip != 0);
	xdp_return_frame(f);
	env_down(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bind_and_lookup),
		cmocka_unit_test(test_every_return_every_generation),
		cmocka_unit_test(test_frags_counted_by_pp_ref_count),
		cmocka_unit_test(test_return_after_destroy),
		cmocka_unit_test(test_unbound_and_stale_warn),
		cmocka_unit_test(test_holders_handoff),
	};

	xdp_test_init();
	dev = pp_device_create("niov0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR(dev))
		abort();
	/* PP_TEST_FILTER=NAME runs one test alone (a failed one leaves the
	 * queue bound, and the later ones fail their set-up). */
	if (getenv("PP_TEST_FILTER"))
		cmocka_set_test_filter(getenv("PP_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
