/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Holder tracking (meson -Dholders, CONFIG_PAGEPOOL_HOLDERS): a page
 * allocated and kept in leak_rx_fill() is attributed to that function and
 * the line of its call, by pp_page_pool_for_each_holder() + pp_symbolize()
 * and by the stalled-destroy warning; recycled pages are no longer listed;
 * an XDP frame conversion is recorded as the hand-on site; pages taken on
 * two CPUs are counted exactly per CPU. In a build without the option
 * the walk is -EOPNOTSUPP and that is all this suite checks.
 * Context: one thread as CPU 0, a second one on another CPU id for one case.
 * Layer: tests.
 */
#include <string.h>
#include <unistd.h>

#include <linux/delay.h>
#include <net/xdp.h>

#include "core_test.h"

/* Keep the test functions whole: no clone, no interprocedural change
 * (gcc's noipa; clang makes neither of those here). */
#if defined(__has_attribute) && __has_attribute(__noipa__)
#define __no_ipa	__attribute__((__noipa__))
#else
#define __no_ipa
#endif

#define RETRY_MS	20
#define WARN_MS		100
#define MAX_GROUPS	16

struct holders_seen {
	int nr;
	struct pp_page_pool_holder h[MAX_GROUPS];
};

static int collect_cb(const struct pp_page_pool_holder *h, void *arg)
{
	struct holders_seen *s = arg;

	if (s->nr < MAX_GROUPS)
		s->h[s->nr] = *h;
	s->nr++;
	return 0;
}

static int collect(u32 id, struct holders_seen *s)
{
	memset(s, 0, sizeof(*s));
	return pp_page_pool_for_each_holder(id, collect_cb, s);
}

static int stop_cb(const struct pp_page_pool_holder *h, void *arg)
{
	(void)h;
	++*(int *)arg;
	return 42;
}

#if IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)

/* The line of leak_rx_fill()'s allocation, set by the function itself. */
static int leak_line;

static noinline __no_ipa struct page *leak_rx_fill(struct page_pool *pool)
{
	struct page *page;

	leak_line = __LINE__ + 1;
	page = page_pool_dev_alloc_pages(pool);
	__asm__ volatile("" ::: "memory");	/* keep the call a call, not a tail jump */
	return page;
}

static noinline __no_ipa struct xdp_frame *frame_handoff(struct xdp_buff *xdp)
{
	struct xdp_frame *f = xdp_convert_buff_to_frame(xdp);

	__asm__ volatile("" ::: "memory");
	return f;
}

/* The exported function, called through its address (not the inline). */
static struct page *(*volatile alloc_fn)(struct page_pool *pool, gfp_t gfp) = page_pool_alloc_pages;

static noinline __no_ipa struct page *alloc_by_pointer(struct page_pool *pool)
{
	struct page *page = alloc_fn(pool, GFP_ATOMIC);

	__asm__ volatile("" ::: "memory");
	return page;
}

static void sym(unsigned long ip, char *buf, size_t len)
{
	assert_true(pp_symbolize(ip, buf, len) > 0);
	print_message("%#lx: %s\n", ip, buf);
}

static void test_leak_attributed(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	u32 id = pp_page_pool_id(pool);
	struct holders_seen s;
	char buf[256], want[64];
	struct page *p;

	(void)state;
	p = leak_rx_fill(pool);
	assert_non_null(p);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 1);
	assert_int_equal(s.h[0].pages, 1);
	assert_int_equal(s.h[0].cpu, 0);
	assert_int_equal(s.h[0].handoff_ip, 0);
	/* The take site is inside leak_rx_fill() itself. */
	sym(s.h[0].take_ip, buf, sizeof(buf));
	assert_true(s.h[0].take_ip > (unsigned long)leak_rx_fill);
	assert_true(s.h[0].take_ip < (unsigned long)leak_rx_fill + 4096);
	snprintf(want, sizeof(want), "(test_holders.c:%d)", leak_line);
	assert_true(strncmp(buf, "leak_rx_fill+0x", 15) == 0);
	assert_non_null(strstr(buf, want));
	assert_true(s.h[0].held_ns < 10ULL * NSEC_PER_SEC);

	/* The stalled-destroy warning names it too. */
	pp_test_log_clear();
	page_pool_destroy(pool);
	msleep(WARN_MS * 3);
	snprintf(buf, sizeof(buf), "page_pool id %u: 1 page held since leak_rx_fill+0x", id);
	assert_true(pp_test_log_contains(buf));
	snprintf(buf, sizeof(buf), "(test_holders.c:%d) on cpu 0, for 0 s\n", leak_line);
	assert_true(pp_test_log_contains(buf));
	assert_false(pp_test_log_contains("last handed on"));
	/* Still listed while destroyed and waiting for its page. */
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 1);

	page_pool_put_full_page(pool, p, false);
	for (int i = 0; i < 500 && pool_alive(id); i++)
		msleep(1);
	assert_false(pool_alive(id));
	assert_int_equal(collect(id, &s), -ENOENT);
	assert_all_pages_home();
}

static void test_recycled_not_listed(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	u32 id = pp_page_pool_id(pool);
	struct holders_seen s;
	struct page *p[40];
	int i, stopped = 0;

	(void)state;
	for (i = 0; i < 40; i++)
		p[i] = leak_rx_fill(pool);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 1);
	assert_int_equal(s.h[0].pages, 40);
	/* A callback's non-zero return stops the walk and is returned. */
	assert_int_equal(pp_page_pool_for_each_holder(id, stop_cb, &stopped), 42);
	assert_int_equal(stopped, 1);

	/* Direct recycles (alloc cache), puts into the ring, and the rest. */
	for (i = 0; i < 15; i++)
		page_pool_recycle_direct(pool, p[i]);
	for (i = 15; i < 30; i++)
		page_pool_put_full_page(pool, p[i], false);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 1);
	assert_int_equal(s.h[0].pages, 10);
	for (i = 30; i < 40; i++)
		page_pool_put_full_page(pool, p[i], false);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 0);

	/* Taken again from the cache and the ring: listed again, once each. */
	for (i = 0; i < 40; i++)
		p[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 1);
	assert_int_equal(s.h[0].pages, 40);
	for (i = 0; i < 40; i++)
		page_pool_recycle_direct(pool, p[i]);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 0);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_handoff_xdp_frame(void **state)
{
	struct net_device *nd = alloc_etherdev(0);
	struct page_pool *pool = make_pool(0, NULL, 0);
	u32 id = pp_page_pool_id(pool);
	struct xdp_rxq_info rxq;
	struct holders_seen s;
	struct xdp_frame *f;
	struct xdp_buff xdp;
	struct page *p, *q;
	char buf[256];

	(void)state;
	assert_int_equal(register_netdev(nd), 0);
	memset(&rxq, 0, sizeof(rxq));
	assert_int_equal(xdp_rxq_info_reg(&rxq, nd, 0, 0), 0);
	assert_int_equal(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, pool), 0);
	p = leak_rx_fill(pool);
	q = leak_rx_fill(pool);
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(&xdp, page_address(p), XDP_PACKET_HEADROOM, 64, true);
	f = frame_handoff(&xdp);
	assert_non_null(f);

	/* Two groups: the converted page (hand-on site) and the other. */
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 2);
	assert_int_equal(s.h[0].pages, 1);
	assert_int_equal(s.h[1].pages, 1);
	if (!s.h[0].handoff_ip) {
		struct pp_page_pool_holder t = s.h[0];

		s.h[0] = s.h[1];
		s.h[1] = t;
	}
	assert_int_equal(s.h[1].handoff_ip, 0);
	assert_int_equal(s.h[0].take_ip, s.h[1].take_ip);
	sym(s.h[0].handoff_ip, buf, sizeof(buf));
	/* The conversion inlined into its caller, or its own copy (-O0). */
	assert_true(strncmp(buf, "frame_handoff+0x", 16) == 0 ||
		    strncmp(buf, "xdp_convert_buff_to_frame+0x", 28) == 0);

	/* The frame's return brings the page home: the group is gone. */
	xdp_return_frame(f);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 1);
	assert_int_equal(s.h[0].handoff_ip, 0);
	page_pool_put_full_page(pool, q, false);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 0);
	xdp_rxq_info_unreg(&rxq);
	destroy_and_settle(pool);
	unregister_netdev(nd);
	free_netdev(nd);
	assert_all_pages_home();
}

struct cpu1_take {
	struct page_pool *pool;
	int cpu;
	struct page *p[7];
};

static void *take_on_other_cpu(void *arg)
{
	struct cpu1_take *t = arg;
	int i;

	/* The lowest free id (the workqueue's thread may own some). */
	t->cpu = pp_thread_register(-1);
	if (t->cpu <= 0)
		return NULL;
	for (i = 0; i < 7; i++)
		t->p[i] = leak_rx_fill(t->pool);
	pp_thread_unregister();
	return NULL;
}

static void test_two_cpus_exact(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	u32 id = pp_page_pool_id(pool);
	struct cpu1_take t = { .pool = pool };
	struct holders_seen s;
	struct page *p[5];
	int i;

	(void)state;
	for (i = 0; i < 5; i++)
		p[i] = leak_rx_fill(pool);
	pp_test_run_thread(take_on_other_cpu, &t);
	assert_true(t.cpu > 0);
	assert_non_null(t.p[6]);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 2);
	/* Biggest first. */
	assert_int_equal(s.h[0].cpu, t.cpu);
	assert_int_equal(s.h[0].pages, 7);
	assert_int_equal(s.h[1].cpu, 0);
	assert_int_equal(s.h[1].pages, 5);
	assert_int_equal(s.h[0].take_ip, s.h[1].take_ip);

	/* Put from this CPU: the other CPU's group shrinks by exactly that. */
	for (i = 0; i < 3; i++)
		page_pool_put_full_page(pool, t.p[i], false);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 2);
	assert_int_equal(s.h[0].cpu, 0);
	assert_int_equal(s.h[0].pages, 5);
	assert_int_equal(s.h[1].cpu, t.cpu);
	assert_int_equal(s.h[1].pages, 4);
	for (i = 3; i < 7; i++)
		page_pool_put_full_page(pool, t.p[i], false);
	for (i = 0; i < 5; i++)
		page_pool_recycle_direct(pool, p[i]);
	assert_int_equal(collect(id, &s), 0);
	assert_int_equal(s.nr, 0);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_exported_body_records_caller(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct holders_seen s;
	struct page *p;
	char buf[256];

	(void)state;
	p = alloc_by_pointer(pool);
	assert_non_null(p);
	assert_int_equal(collect(pp_page_pool_id(pool), &s), 0);
	assert_int_equal(s.nr, 1);
	sym(s.h[0].take_ip, buf, sizeof(buf));
	assert_true(strncmp(buf, "alloc_by_pointer+0x", 19) == 0);
	page_pool_recycle_direct(pool, p);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_bad_args(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);

	(void)state;
	assert_int_equal(pp_page_pool_for_each_holder(pp_page_pool_id(pool), NULL, NULL),
			 -EINVAL);
	assert_int_equal(pp_page_pool_for_each_holder(0xfffffff0u, collect_cb, NULL), -ENOENT);
	destroy_and_settle(pool);
}

#else /* !CONFIG_PAGEPOOL_HOLDERS */

static void test_not_built(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct holders_seen s;
	struct page *p;
	int stopped = 0;

	(void)state;
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_int_equal(collect(pp_page_pool_id(pool), &s), -EOPNOTSUPP);
	assert_int_equal(pp_page_pool_for_each_holder(pp_page_pool_id(pool), stop_cb, &stopped),
			 -EOPNOTSUPP);
	assert_int_equal(stopped, 0);
	/* A no-op call in this build. */
	pp_page_pool_note_handoff(page_to_netmem(p));
	page_pool_recycle_direct(pool, p);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#if IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)
		cmocka_unit_test(test_leak_attributed),
		cmocka_unit_test(test_recycled_not_listed),
		cmocka_unit_test(test_handoff_xdp_frame),
		cmocka_unit_test(test_two_cpus_exact),
		cmocka_unit_test(test_exported_body_records_caller),
		cmocka_unit_test(test_bad_args),
#else
		cmocka_unit_test(test_not_built),
#endif
	};

	core_test_init(16, 1);
	pp_thread_register(0);
	pp_page_pool_set_defer_times(RETRY_MS, WARN_MS);
	return pp_test_run_group(tests, NULL, NULL);
}
