/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Built outside the tree the user's way (pkg-config against an installed
 * -Dholders=true build, check_holders.sh): the inline allocation fast path
 * of <net/page_pool/helpers.h> compiles into this program, and holder
 * tracking must record this program's call site - user_rx_fill() and the
 * line of its call - not a function inside the library. Also a fragment
 * (page_pool_dev_alloc_frag(), a library function) and a bulk put.
 * Exit status 0 when every check holds; each failure prints a line.
 * Context: one thread, CPU 0.
 * Layer: tests.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <net/page_pool/helpers.h>
#include <pagepool.h>

/* The installed <generated/autoconf.h> must say what the library is. */
#if !IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)
#error "the installed headers are not a -Dholders=true build's"
#endif

/* Keep the test functions whole: no clone, no interprocedural change
 * (gcc's noipa; clang makes neither of those here). */
#if defined(__has_attribute) && __has_attribute(__noipa__)
#define __no_ipa	__attribute__((__noipa__))
#else
#define __no_ipa
#endif

static int rx_line, frag_line;
static int failures;

#define CHECK(cond)								\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "holders_user.c:%d: %s\n", __LINE__, #cond); \
			failures++;						\
		}								\
	} while (0)

static noinline __no_ipa struct page *user_rx_fill(struct page_pool *pool)
{
	struct page *page;

	rx_line = __LINE__ + 1;
	page = page_pool_dev_alloc_pages(pool);
	__asm__ volatile("" ::: "memory");
	return page;
}

static noinline __no_ipa struct page *user_frag_fill(struct page_pool *pool,
								    unsigned int *off)
{
	struct page *page;

	frag_line = __LINE__ + 1;
	page = page_pool_dev_alloc_frag(pool, off, 512);
	__asm__ volatile("" ::: "memory");
	return page;
}

struct seen {
	int nr;
	struct pp_page_pool_holder h[4];
};

static int cb(const struct pp_page_pool_holder *h, void *arg)
{
	struct seen *s = arg;

	if (s->nr < 4)
		s->h[s->nr] = *h;
	s->nr++;
	return 0;
}

/* The one group's take site, symbolized, starts with @func and names @line. */
static void check_site(u32 id, u64 pages, const char *func, int line)
{
	struct seen s = { 0 };
	char buf[256], want[64];

	CHECK(pp_page_pool_for_each_holder(id, cb, &s) == 0);
	CHECK(s.nr == 1);
	if (s.nr != 1)
		return;
	CHECK(s.h[0].pages == pages);
	CHECK(pp_symbolize(s.h[0].take_ip, buf, sizeof(buf)) > 0);
	printf("%llu pages held since %s\n", (unsigned long long)s.h[0].pages, buf);
	CHECK(strncmp(buf, func, strlen(func)) == 0 && buf[strlen(func)] == '+');
	snprintf(want, sizeof(want), "(holders_user.c:%d)", line);
	CHECK(strstr(buf, want) != NULL);
}

int main(void)
{
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *pool;
	struct page *page[20];
	unsigned int off;
	u32 id;
	int i;

	pp_thread_register(0);
	pool = page_pool_create(&pp);
	if (IS_ERR(pool))
		return 1;
	id = pp_page_pool_id(pool);

	/* The slow path (an empty cache), then the alloc cache's pops. */
	for (i = 0; i < 20; i++)
		page[i] = user_rx_fill(pool);
	check_site(id, 20, "user_rx_fill", rx_line);
	for (i = 0; i < 10; i++)
		page_pool_recycle_direct(pool, page[i]);
	for (i = 0; i < 10; i++)
		page[i] = user_rx_fill(pool);
	check_site(id, 20, "user_rx_fill", rx_line);
	for (i = 0; i < 20; i++)
		page_pool_recycle_direct(pool, page[i]);
	{
		struct seen s = { 0 };

		/* Nothing held: no group. */
		CHECK(pp_page_pool_for_each_holder(id, cb, &s) == 0 && s.nr == 0);
	}

	page[0] = user_frag_fill(pool, &off);
	check_site(id, 1, "user_frag_fill", frag_line);
	page_pool_put_full_page(pool, page[0], false);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	printf("holders: %s\n", failures ? "FAILED" : "OK");
	return failures != 0;
}
