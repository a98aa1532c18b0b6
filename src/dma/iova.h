/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The simulated IOMMU's IOVA allocator (iova.c), private to src/dma.
 * Addresses are in page granules (IOVA >> PAGE_SHIFT). Thread-safe: any
 * thread, any number at once.
 * Layer: dma.
 */
#ifndef _PP_DMA_IOVA_H
#define _PP_DMA_IOVA_H

#include <linux/atomic.h>
#include <linux/spinlock.h>

struct ppdma_iova_cache;
struct iova_mag;

struct ppdma_iova {
	spinlock_t lock;	/* map, full, hint, used */
	unsigned long *map;	/* a bit per granule, 1 = allocated or cached */
	unsigned long *full;	/* a bit per map word, 1 = the word is full */
	unsigned long nr;	/* granules in the space */
	unsigned long hint;	/* next-fit: the next search starts here */
	unsigned long used;	/* granules taken from the bitmap (0 excluded) */
	struct ppdma_iova_cache *caches;	/* one per op slot */
	spinlock_t depot_lock;
	unsigned int depot_n;			/* full magazines in the depot */
	struct iova_mag *depot;
};

/* A space of @nr granules, a multiple of BITS_PER_LONG squared. 0,
 * -EINVAL or -ENOMEM. */
int ppdma_iova_init(struct ppdma_iova *iv, unsigned long nr);
/* Caller MUST be the only user left. */
void ppdma_iova_destroy(struct ppdma_iova *iv);

/* @n contiguous granules below @limit: the first one, or 0 if none. */
unsigned long ppdma_iova_alloc(struct ppdma_iova *iv, unsigned long n,
			       unsigned long limit);
/* Give back what ppdma_iova_alloc() returned, with the same @n. */
void ppdma_iova_free(struct ppdma_iova *iv, unsigned long pfn, unsigned long n);
/* Granules handed out and not given back. */
unsigned long ppdma_iova_used(struct ppdma_iova *iv);

#endif /* _PP_DMA_IOVA_H */
