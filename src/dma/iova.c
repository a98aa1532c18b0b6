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
 * dma_internal.h) parks freed single granules in two magazines, with a
 * depot of full magazines behind them (below), and hands them out again
 * first. page_pool maps and unmaps one page at a time, so in steady state
 * a thread recycles its own few IOVAs without the shared lock, and the
 * domain's page tables stay small and warm. A bitmap that runs out is
 * refilled from all caches and the depot before a map fails.
 *
 * Lock order: a cache's lock, the depot lock, the allocator lock.
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

/*
 * Freed single granules, as the kernel's IOVA "rcache": per op slot two
 * magazines of 127 (loaded and prev), and behind them a depot of full
 * magazines for the whole domain. A thread that maps and unmaps one page
 * at a time lives on its loaded magazine; a driver's TX path that maps a
 * NAPI budget before its completion unmaps it needs the second; and when
 * one thread maps and another unmaps (TX completion on another CPU) the
 * unmapping thread's full magazines go to the depot and the mapping
 * thread takes them from there, one lock round per 127 granules instead
 * of the allocator lock per granule (bench_xdp_redirect's cross-CPU
 * completion on the IOMMU backend ran at 0.7 x its same-CPU rate on
 * that lock). Magazines move by copy (1 KiB), so none is ever allocated
 * on the map or unmap path.
 * Lock order: a slot's cache lock, the depot lock, the allocator lock.
 */
#define IOVA_MAG_SIZE	127
#define IOVA_DEPOT_MAGS	64

struct iova_mag {
	unsigned long n;
	unsigned long pfn[IOVA_MAG_SIZE];
};

struct ppdma_iova_cache {
	spinlock_t lock;
	struct iova_mag *loaded, *prev;
	struct iova_mag mags[2];
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
	iv->depot = kcalloc(IOVA_DEPOT_MAGS, sizeof(*iv->depot), GFP_KERNEL);
	if (!iv->map || !iv->full || !iv->caches || !iv->depot) {
		ppdma_iova_destroy(iv);
		return -ENOMEM;
	}
	spin_lock_init(&iv->depot_lock);
	for (i = 0; i < PPDMA_NR_SLOTS; i++) {
		spin_lock_init(&iv->caches[i].lock);
		iv->caches[i].loaded = &iv->caches[i].mags[0];
		iv->caches[i].prev = &iv->caches[i].mags[1];
	}
	__set_bit(0, iv->map);		/* IOVA 0 is never handed out */
	iv->hint = 1;
	return 0;
}

void ppdma_iova_destroy(struct ppdma_iova *iv)
{
	kfree(iv->map);
	kfree(iv->full);
	kfree(iv->caches);
	kfree(iv->depot);
	iv->map = NULL;
	iv->full = NULL;
	iv->caches = NULL;
	iv->depot = NULL;
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

/* Granules parked in the caches and the depot, counted when asked (a map
 * that found the bitmap exhausted, a statistics read): a shared counter
 * kept at every map and unmap was a cache line both CPUs wrote per
 * packet. Racy against concurrent maps and unmaps, which only makes a
 * flush more or less useful. */
static unsigned long iova_cached(struct ppdma_iova *iv)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < PPDMA_NR_SLOTS; i++) {
		struct ppdma_iova_cache *c = &iv->caches[i];

		spin_lock(&c->lock);
		n += c->loaded->n + c->prev->n;
		spin_unlock(&c->lock);
	}
	spin_lock(&iv->depot_lock);
	n += (unsigned long)iv->depot_n * IOVA_MAG_SIZE;
	spin_unlock(&iv->depot_lock);
	return n;
}

/* Under the allocator lock. */
static void iova_mag_empty(struct ppdma_iova *iv, struct iova_mag *m)
{
	while (m->n)
		__iova_free(iv, m->pfn[--m->n], 1);
}

/* Give every cached granule back to the bitmap. */
static void iova_flush_caches(struct ppdma_iova *iv)
{
	unsigned int i;

	for (i = 0; i < PPDMA_NR_SLOTS; i++) {
		struct ppdma_iova_cache *c = &iv->caches[i];

		spin_lock(&c->lock);
		spin_lock(&iv->lock);
		iova_mag_empty(iv, c->loaded);
		iova_mag_empty(iv, c->prev);
		spin_unlock(&iv->lock);
		spin_unlock(&c->lock);
	}
	spin_lock(&iv->depot_lock);
	spin_lock(&iv->lock);
	while (iv->depot_n)
		iova_mag_empty(iv, &iv->depot[--iv->depot_n]);
	spin_unlock(&iv->lock);
	spin_unlock(&iv->depot_lock);
}

static void iova_mag_swap(struct ppdma_iova_cache *c)
{
	struct iova_mag *m = c->loaded;

	c->loaded = c->prev;
	c->prev = m;
}

/* A granule below @limit from the slot's magazines or the depot, or 0.
 * Under the slot's lock. */
static unsigned long iova_cache_get(struct ppdma_iova *iv, struct ppdma_iova_cache *c,
				    unsigned long limit)
{
	struct iova_mag *m = c->loaded;

	if (!m->n && c->prev->n) {
		iova_mag_swap(c);
		m = c->loaded;
	}
	if (!m->n) {
		spin_lock(&iv->depot_lock);
		if (iv->depot_n)
			*m = iv->depot[--iv->depot_n];
		spin_unlock(&iv->depot_lock);
	}
	/* A granule cached under a wider DMA mask may be out of reach now:
	 * leave it to the flush. */
	if (m->n && m->pfn[m->n - 1] < limit)
		return m->pfn[--m->n];
	return 0;
}

/* Park @pfn in the slot's magazines, a full one going to the depot (or,
 * the depot full, back to the bitmap). Under the slot's lock. */
static void iova_cache_put(struct ppdma_iova *iv, struct ppdma_iova_cache *c, unsigned long pfn)
{
	if (c->loaded->n == IOVA_MAG_SIZE) {
		if (c->prev->n == IOVA_MAG_SIZE) {
			bool pushed = false;

			spin_lock(&iv->depot_lock);
			if (iv->depot_n < IOVA_DEPOT_MAGS) {
				iv->depot[iv->depot_n++] = *c->prev;
				pushed = true;
			}
			spin_unlock(&iv->depot_lock);
			if (pushed) {
				c->prev->n = 0;
			} else {
				spin_lock(&iv->lock);
				iova_mag_empty(iv, c->prev);
				spin_unlock(&iv->lock);
			}
		}
		iova_mag_swap(c);
	}
	c->loaded->pfn[c->loaded->n++] = pfn;
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
		pfn = iova_cache_get(iv, c, limit);
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

		spin_lock(&c->lock);
		iova_cache_put(iv, c, pfn);
		spin_unlock(&c->lock);
		return;
	}
	spin_lock(&iv->lock);
	__iova_free(iv, pfn, n);
	spin_unlock(&iv->lock);
}

unsigned long ppdma_iova_used(struct ppdma_iova *iv)
{
	unsigned long cached = iova_cached(iv);	/* its locks come first */
	unsigned long used;

	spin_lock(&iv->lock);
	used = iv->used - cached;
	spin_unlock(&iv->lock);
	return used;
}
