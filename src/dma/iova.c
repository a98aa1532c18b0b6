/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The IOVA allocator of the simulated IOMMU: hands out ranges of page
 * granules from one domain's IO virtual address space.
 *
 * A bitmap with one bit per granule (1 = allocated) plus a summary bitmap
 * with one bit per bitmap word (1 = the word is full), searched next-fit
 * from where the previous allocation ended, under the allocator lock. A
 * single-granule search skips 64 full words per summary bit, so it stays
 * O(1) while the space is not nearly full; longer ranges scan word by
 * word. Granule 0 is reserved at init, so no IOVA is ever 0.
 *
 * In front of the bitmap, as the kernel's per-CPU "rcache" in front of its
 * red-black tree (drivers/iommu/iova.c), each op slot (one per thread, see
 * dma_internal.h) parks up to IOVA_CACHE_SIZE freed single granules and
 * hands them out again first. page_pool maps and unmaps one page at a
 * time, so in steady state a thread recycles its own few IOVAs without
 * the shared lock, and the domain's page tables stay small and warm. A
 * bitmap that runs out is refilled from all caches before a map fails.
 *
 * Lock order: a cache's lock, then the allocator lock.
 * Layer: dma.
 */
#include <errno.h>
#include <string.h>

#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "dma_internal.h"
#include "iova.h"

#define W	BITS_PER_LONG

/* Freed single granules a slot keeps: 2 KiB per slot. A thread that maps
 * and unmaps one page at a time needs one; a driver's TX path maps a whole
 * NAPI budget (64 frames) before its completion unmaps them, and a
 * completion that runs late unmaps a ring's worth at once - with fewer,
 * every map and unmap past the cache takes the shared lock, which two
 * CPUs mapping on one device then fight over (two-flow XDP_REDIRECT
 * through one TX device did: no scaling at all at 30). The kernel keeps
 * two magazines of 127 per CPU and a depot behind them. */
#define IOVA_CACHE_SIZE	254

struct ppdma_iova_cache {
	spinlock_t lock;
	unsigned int n;
	unsigned long pfn[IOVA_CACHE_SIZE];
} ____cacheline_aligned;

int ppdma_iova_init(struct ppdma_iova *iv, unsigned long nr)
{
	unsigned int i;

	/* Whole summary words keep the searches free of edge cases. */
	if (!nr || nr % (W * W))
		return -EINVAL;
	memset(iv, 0, sizeof(*iv));
	spin_lock_init(&iv->lock);
	iv->nr = nr;
	iv->map = kcalloc(nr / W, sizeof(unsigned long), GFP_KERNEL);
	iv->full = kcalloc(nr / W / W, sizeof(unsigned long), GFP_KERNEL);
	iv->caches = kcalloc(PPDMA_NR_SLOTS, sizeof(*iv->caches), GFP_KERNEL);
	if (!iv->map || !iv->full || !iv->caches) {
		ppdma_iova_destroy(iv);
		return -ENOMEM;
	}
	for (i = 0; i < PPDMA_NR_SLOTS; i++)
		spin_lock_init(&iv->caches[i].lock);
	__set_bit(0, iv->map);		/* IOVA 0 is never handed out */
	iv->hint = 1;
	return 0;
}

void ppdma_iova_destroy(struct ppdma_iova *iv)
{
	kfree(iv->map);
	kfree(iv->full);
	kfree(iv->caches);
	iv->map = NULL;
	iv->full = NULL;
	iv->caches = NULL;
}

/* First word index in [w, end) that is not full, or end. */
static unsigned long iova_next_open_word(const struct ppdma_iova *iv,
					 unsigned long w, unsigned long end)
{
	while (w < end) {
		unsigned long open = ~iv->full[w / W] & (~0UL << (w % W));

		if (open) {
			w = w / W * W + __ffs(open);
			return min(w, end);
		}
		w = (w / W + 1) * W;
	}
	return end;
}

/* One free granule in [from, to), or 0. */
static unsigned long iova_find_one(const struct ppdma_iova *iv,
				   unsigned long from, unsigned long to)
{
	unsigned long w, end = DIV_ROUND_UP(to, W);

	if (from >= to)
		return 0;
	for (w = from / W; (w = iova_next_open_word(iv, w, end)) < end; w++) {
		unsigned long free = ~iv->map[w];

		if (w == from / W)
			free &= ~0UL << (from % W);
		if (w == end - 1 && to % W)
			free &= (1UL << (to % W)) - 1;
		if (free)
			return w * W + __ffs(free);
	}
	return 0;
}

/* First bit in [i, size) whose value is @set, or size. */
static unsigned long iova_find_bit(const unsigned long *map, unsigned long size,
				   unsigned long i, bool set)
{
	while (i < size) {
		unsigned long word = set ? map[i / W] : ~map[i / W];

		word &= ~0UL << (i % W);
		if (word)
			return min(i / W * W + __ffs(word), size);
		i = (i / W + 1) * W;
	}
	return size;
}

/* A run of @n free granules in [from, to), or 0. */
static unsigned long iova_find_range(const struct ppdma_iova *iv,
				     unsigned long n, unsigned long from,
				     unsigned long to)
{
	unsigned long i = from, busy;

	while (i < to && to - i >= n) {
		i = iova_find_bit(iv->map, to, i, false);
		if (i >= to || to - i < n)
			break;
		busy = iova_find_bit(iv->map, i + n, i, true);
		if (busy == i + n)
			return i;
		i = busy + 1;
	}
	return 0;
}

static void iova_mark(struct ppdma_iova *iv, unsigned long pfn,
		      unsigned long n, bool used)
{
	unsigned long i;

	for (i = pfn; i < pfn + n; i++) {
		unsigned long w = i / W;

		if (used) {
			__set_bit(i, iv->map);
			if (iv->map[w] == ~0UL)
				__set_bit(w, iv->full);
		} else {
			__clear_bit(i, iv->map);
			__clear_bit(w, iv->full);
		}
	}
}

/* Caller holds iv->lock. */
static unsigned long __iova_alloc(struct ppdma_iova *iv, unsigned long n,
				  unsigned long limit)
{
	unsigned long pfn, hint = iv->hint;

	if (hint >= limit || !hint)
		hint = 1;
	/* Next fit: from the hint to the limit, then wrap around. */
	if (n == 1) {
		pfn = iova_find_one(iv, hint, limit);
		if (!pfn)
			pfn = iova_find_one(iv, 1, hint);
	} else {
		pfn = iova_find_range(iv, n, hint, limit);
		if (!pfn)
			pfn = iova_find_range(iv, n, 1, min(hint + n - 1, limit));
	}
	if (!pfn)
		return 0;
	iova_mark(iv, pfn, n, true);
	iv->used += n;
	iv->hint = pfn + n;
	return pfn;
}

/* Caller holds iv->lock. The range IOMMU unmap claimed from the page
 * table is handed back exactly once (iommu.c claims a mapping's head
 * entry atomically), so a granule already free here is a simulator bug. */
static void __iova_free(struct ppdma_iova *iv, unsigned long pfn, unsigned long n)
{
	unsigned long i;

	if (WARN_ON_ONCE(!pfn || pfn + n > iv->nr || pfn + n < pfn))
		return;
	for (i = pfn; i < pfn + n; i++)
		if (WARN_ON_ONCE(!test_bit(i, iv->map)))
			return;
	iova_mark(iv, pfn, n, false);
	iv->used -= n;
}

/* Granules parked in the caches, counted when asked (a map that found
 * the bitmap exhausted, a statistics read): a shared counter kept at
 * every map and unmap was a cache line both CPUs wrote per packet. Racy
 * against concurrent maps, which only makes a flush more or less useful. */
static unsigned long iova_cached(struct ppdma_iova *iv)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < PPDMA_NR_SLOTS; i++)
		n += READ_ONCE(iv->caches[i].n);
	return n;
}

/* Give every cached granule back to the bitmap. */
static void iova_flush_caches(struct ppdma_iova *iv)
{
	unsigned int i;

	for (i = 0; i < PPDMA_NR_SLOTS; i++) {
		struct ppdma_iova_cache *c = &iv->caches[i];

		spin_lock(&c->lock);
		spin_lock(&iv->lock);
		while (c->n) {
			WRITE_ONCE(c->n, c->n - 1);
			__iova_free(iv, c->pfn[c->n], 1);
		}
		spin_unlock(&iv->lock);
		spin_unlock(&c->lock);
	}
}

unsigned long ppdma_iova_alloc(struct ppdma_iova *iv, unsigned long n,
			       unsigned long limit)
{
	unsigned long pfn = 0;
	bool flushed = false;

	if (limit > iv->nr)
		limit = iv->nr;
	if (!n || n >= limit)
		return 0;
	if (n == 1) {
		struct ppdma_iova_cache *c = &iv->caches[ppdma_this_slot_idx()];

		spin_lock(&c->lock);
		/* A granule cached under a wider DMA mask may be out of
		 * reach now: leave it to the flush. */
		if (c->n && c->pfn[c->n - 1] < limit) {
			pfn = c->pfn[c->n - 1];
			WRITE_ONCE(c->n, c->n - 1);
		}
		spin_unlock(&c->lock);
		if (pfn)
			return pfn;
	}
retry:
	spin_lock(&iv->lock);
	pfn = __iova_alloc(iv, n, limit);
	spin_unlock(&iv->lock);
	if (unlikely(!pfn) && !flushed && iova_cached(iv)) {
		iova_flush_caches(iv);
		flushed = true;
		goto retry;
	}
	return pfn;
}

void ppdma_iova_free(struct ppdma_iova *iv, unsigned long pfn, unsigned long n)
{
	if (n == 1) {
		struct ppdma_iova_cache *c = &iv->caches[ppdma_this_slot_idx()];
		bool parked = false;

		spin_lock(&c->lock);
		if (c->n < IOVA_CACHE_SIZE) {
			c->pfn[c->n] = pfn;
			WRITE_ONCE(c->n, c->n + 1);
			parked = true;
		}
		spin_unlock(&c->lock);
		if (parked)
			return;
	}
	spin_lock(&iv->lock);
	__iova_free(iv, pfn, n);
	spin_unlock(&iv->lock);
}

unsigned long ppdma_iova_used(struct ppdma_iova *iv)
{
	unsigned long used;

	spin_lock(&iv->lock);
	used = iv->used - iova_cached(iv);
	spin_unlock(&iv->lock);
	return used;
}
