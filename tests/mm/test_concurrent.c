/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Two threads (two CPUs) allocating and freeing at once: order 0 singly
 * and in bulk, compound blocks, and pages handed to the other thread to
 * free (so frees land on a list other than the allocating CPU's and
 * drains race with refills on the zone lock). Run under TSan by CI.
 * Afterwards the totals add up: every page came back, no bad input was
 * reported, the free lists are as they started.
 */
#include <pthread.h>
#include <stdlib.h>

#include "mm_test.h"

#define ITERS		20000
#define HOLD		256	/* pages a thread keeps at most */
#define XFER		64	/* hand-over slots between the threads */

struct held {
	struct page *page;
	unsigned int order;
	unsigned long stamp;	/* written into every page of the block */
};

/* A hand-over box per direction, under a mutex (the test's own
 * synchronisation, which is what makes the cross-thread free legal). */
struct box {
	pthread_mutex_t lock;
	struct held slot[XFER];
	int n;
};

struct worker {
	int cpu;
	unsigned long seed;
	struct box *out, *in;
	pthread_barrier_t *start;
	/* results, read by main after join */
	unsigned long allocated_pages, freed_pages, failed;
	int registered;
	unsigned long stamp_errors;
	unsigned long seq;
};

static unsigned long next_rnd(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A unique stamp in every page of a new block: a block handed out twice
 * (overlapping allocations) shows up as an overwritten stamp. */
static struct held hold(struct worker *w, struct page *page, unsigned int order)
{
	struct held h = { page, order, ((unsigned long)w->cpu << 48) | ++w->seq };
	unsigned long i;

	for (i = 0; i < (1UL << order); i++)
		*(unsigned long *)page_address(page + i) = h.stamp;
	return h;
}

static void release(struct worker *w, struct held h)
{
	unsigned long i;

	for (i = 0; i < (1UL << h.order); i++)
		if (*(unsigned long *)page_address(h.page + i) != h.stamp)
			w->stamp_errors++;
	if (h.order)
		put_page(h.page);
	else if (next_rnd(&w->seed) & 1)
		__free_page(h.page);
	else
		put_page(h.page);
	w->freed_pages += 1UL << h.order;
}

static void drain_box(struct worker *w)
{
	struct held got[XFER];
	int i, n;

	pthread_mutex_lock(&w->in->lock);
	n = w->in->n;
	memcpy(got, w->in->slot, n * sizeof(got[0]));
	w->in->n = 0;
	pthread_mutex_unlock(&w->in->lock);
	for (i = 0; i < n; i++)
		release(w, got[i]);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct held held[HOLD + 16];
	struct page *bulk[16];
	int nheld = 0, it, i, k;
	unsigned long r;

	w->registered = pp_thread_register(w->cpu) == w->cpu;
	pthread_barrier_wait(w->start);
	for (it = 0; it < ITERS; it++) {
		r = next_rnd(&w->seed);
		if (nheld < HOLD && (r & 3) != 0) {
			if ((r >> 8) % 8 == 0) {
				memset(bulk, 0, sizeof(bulk));
				k = (int)alloc_pages_bulk(GFP_KERNEL | __GFP_NOWARN, 16, bulk);
				for (i = 0; i < k; i++)
					held[nheld++] = hold(w, bulk[i], 0);
				w->allocated_pages += k;
				w->failed += k < 16;
			} else {
				unsigned int order = (r >> 8) % 5 == 0 ? (r >> 16) % 4 : 0;
				struct page *p = alloc_pages(GFP_KERNEL | __GFP_NOWARN |
							     (order ? __GFP_COMP : 0), order);

				if (!p) {
					w->failed++;
					continue;
				}
				held[nheld++] = hold(w, p, order);
				w->allocated_pages += 1UL << order;
			}
		} else if (nheld) {
			i = (int)((r >> 8) % nheld);
			struct held h = held[i];

			held[i] = held[--nheld];
			if ((r >> 20) & 1) {
				/* Hand it to the other thread. */
				pthread_mutex_lock(&w->out->lock);
				if (w->out->n < XFER) {
					w->out->slot[w->out->n++] = h;
					h.page = NULL;
				}
				pthread_mutex_unlock(&w->out->lock);
			}
			if (h.page)
				release(w, h);
		}
		if ((it & 63) == 0)
			drain_box(w);
	}
	for (i = 0; i < nheld; i++)
		release(w, held[i]);
	return NULL;
}

static void test_two_threads(void **state)
{
	struct box ab = { PTHREAD_MUTEX_INITIALIZER }, ba = { PTHREAD_MUTEX_INITIALIZER };
	struct pp_mem_counters c0, c1;
	struct mm_snap before, after;
	unsigned long warns = pp_warn_count();
	pthread_barrier_t start;
	struct worker w[2];
	pthread_t t[2];
	int i;

	mm_arena(2, 1, 16, 64);	/* small lists: many refills and drains */
	mm_snap_take(&before);
	pp_mem_get_counters(&c0);
	pthread_barrier_init(&start, NULL, 2);
	w[0] = (struct worker){ .cpu = 1, .seed = 0x1234567, .out = &ab, .in = &ba, .start = &start };
	w[1] = (struct worker){ .cpu = 2, .seed = 0x7654321, .out = &ba, .in = &ab, .start = &start };
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker_fn, &w[i]);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start);

	/* Pages still in the boxes: their owner threads are gone, free
	 * them here. */
	for (i = 0; i < ab.n; i++) {
		put_page(ab.slot[i].page);
		w[1].freed_pages += 1UL << ab.slot[i].order;
	}
	for (i = 0; i < ba.n; i++) {
		put_page(ba.slot[i].page);
		w[0].freed_pages += 1UL << ba.slot[i].order;
	}

	for (i = 0; i < 2; i++) {
		assert_true(w[i].registered);
		assert_int_equal(w[i].stamp_errors, 0);
		assert_true(w[i].allocated_pages > ITERS / 2);
		print_message("cpu %d: allocated %lu pages, freed %lu, %lu short allocations\n",
			      w[i].cpu, w[i].allocated_pages, w[i].freed_pages, w[i].failed);
	}
	assert_int_equal(w[0].allocated_pages + w[1].allocated_pages,
			 w[0].freed_pages + w[1].freed_pages);
	/* Both CPUs' lists were drained when their threads exited. */
	assert_int_equal(pp_mem_pcp_count(1, 0), 0);
	assert_int_equal(pp_mem_pcp_count(2, 0), 0);
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.double_free, c0.double_free);
	assert_int_equal(c1.bad_free, c0.bad_free);
	assert_int_equal(c1.bad_get, c0.bad_get);
	assert_int_equal(pp_warn_count(), warns);
	pp_mem_drain_local();
	mm_snap_take(&after);
	mm_snap_assert_equal(&before, &after);
	assert_int_equal(pp_mem_exit(), 0);
}

/* Both threads take memory until there is none, then give it all back:
 * what they hold together never exceeds the arena, and it all returns. */
struct hog {
	int cpu;
	pthread_barrier_t *start, *full, *measured;
	unsigned long got;
	struct page **pages;
	unsigned long cap;
};

static void *hog_fn(void *arg)
{
	struct hog *h = arg;
	struct page *p;
	unsigned long i;

	pp_thread_register(h->cpu);
	pthread_barrier_wait(h->start);
	while (h->got < h->cap && (p = alloc_page(GFP_KERNEL | __GFP_NOWARN)))
		h->pages[h->got++] = p;
	pthread_barrier_wait(h->full);
	pthread_barrier_wait(h->measured);
	for (i = 0; i < h->got; i++)
		__free_page(h->pages[i]);
	return NULL;
}

static void test_exhaust_concurrently(void **state)
{
	pthread_barrier_t start, full, measured;
	unsigned long total, free_at_full;
	struct hog h[2];
	pthread_t t[2];
	int i;

	mm_arena(2, 1, 0, 0);
	total = mm_total_pages();
	pthread_barrier_init(&start, NULL, 2);
	pthread_barrier_init(&full, NULL, 3);
	pthread_barrier_init(&measured, NULL, 3);
	for (i = 0; i < 2; i++) {
		h[i] = (struct hog){ .cpu = 1 + i, .start = &start, .full = &full,
				    .measured = &measured, .cap = total };
		h[i].pages = calloc(total, sizeof(struct page *));
		pthread_create(&t[i], NULL, hog_fn, &h[i]);
	}
	pthread_barrier_wait(&full);
	free_at_full = mm_free_pages();
	pthread_barrier_wait(&measured);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	/* Pages left on one CPU's list are not reachable by the other (the
	 * kernel would IPI a drain); so exhaustion means "nothing in the
	 * buddy lists", and what is parked is less than a batch per CPU. */
	assert_true(h[0].got + h[1].got + free_at_full == total);
	assert_true(free_at_full < 2 * PPMM_TEST_BATCH);
	for (i = 0; i < 2; i++)
		free(h[i].pages);
	pthread_barrier_destroy(&start);
	pthread_barrier_destroy(&full);
	pthread_barrier_destroy(&measured);
	assert_int_equal(mm_free_pages(), total);
	mm_assert_all_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_exhaust_concurrently),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
