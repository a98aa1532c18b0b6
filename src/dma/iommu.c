/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The simulated IOMMU backend: each binding of a device gets a domain with
 * an IOVA allocator (iova.c) and a four-level IO page table, and the device
 * reaches memory only through that table. The work is real so that its
 * cost against the direct backend is honest: a map allocates an IOVA (from
 * the thread's cache of freed ones, else from the bitmap under the
 * allocator lock) and writes one page-table entry per page (allocating
 * tables on first use); an unmap clears them, "flushes the IOTLB" (counted;
 * strict mode, so the IOVA is reused only after the flush) and frees the
 * IOVA; a sync walks the table to find the physical address, as
 * iommu_dma_sync_single_for_cpu() does.
 *
 * Driver unbind frees the domain with all its tables. That is the state
 * the kernel's crash at iommu_get_dma_domain() dereferenced; device.c keeps
 * every op from reaching a freed domain.
 *
 * Page-table format (one 64-bit entry, 512 entries per 4 KiB table):
 *   table entry  pointer to the next-level table | PTE_P
 *   leaf entry   physical pfn << 12 | PTE_P | PTE_R (device may read) |
 *                PTE_W (device may write); the first page of a mapping also
 *                has PTE_HEAD and its page count - 1 in bits 52..62, so the
 *                table itself records what an unmap must clear and free.
 * Tables are installed with a compare-and-swap, so maps of different IOVAs
 * write the table without a lock; only the IOVA allocator locks, and its
 * per-thread caches spare most calls even that.
 * Layer: dma.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "dma_internal.h"
#include "iova.h"

/* A 32-bit IOVA space, as the kernel gives a device whose DMA mask allows
 * it (it tries below 4 GiB first for PCI devices). 2^20 granules: a 128 KiB
 * bitmap per domain. */
#define IOMMU_IOVA_BITS		32
#define IOMMU_NR_GRANULES	(1UL << (IOMMU_IOVA_BITS - PAGE_SHIFT))

/* Four levels of 512 entries resolve a 36-bit IOVA pfn (48-bit IOVAs, as
 * x86 and arm64 IOMMUs do), more than our space needs; the walk is the same
 * four dependent loads either way. */
#define PT_LEVELS	4
#define PT_BITS		9
#define PT_ENTRIES	(1UL << PT_BITS)
#define PT_BYTES	(PT_ENTRIES * sizeof(u64))

#define PTE_P		(1ULL << 0)
#define PTE_R		(1ULL << 1)
#define PTE_W		(1ULL << 2)
#define PTE_HEAD	(1ULL << 3)
#define PTE_PFN_SHIFT	12
#define PTE_PFN_MASK	(((1ULL << 40) - 1) << PTE_PFN_SHIFT)
#define PTE_NR_SHIFT	52
#define PTE_NR_MAX	(1UL << 11)	/* pages per mapping: 8 MiB > any block */

struct ppdma_domain {
	struct ppdma_iova iova;
	unsigned long iotlb_flushes;	/* atomic */
	unsigned long tables;		/* atomic: tables in this domain */
	u64 *root;
};

static unsigned long ppdma_tables_live;	/* atomic: over all domains */

static u64 *iommu_table_alloc(struct ppdma_domain *dom)
{
	u64 *t = kzalloc(PT_BYTES, GFP_ATOMIC);

	if (t) {
		__atomic_fetch_add(&dom->tables, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&ppdma_tables_live, 1, __ATOMIC_RELAXED);
	}
	return t;
}

static void iommu_table_free(struct ppdma_domain *dom, u64 *t)
{
	__atomic_fetch_sub(&dom->tables, 1, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&ppdma_tables_live, 1, __ATOMIC_RELAXED);
	kfree(t);
}

static inline u64 *pte_table(u64 e)
{
	return (u64 *)(uintptr_t)(e & ~PTE_P);
}

/*
 * The leaf entry for IOVA pfn @iova, or NULL when a table on the way is
 * missing and @alloc is false, or cannot be allocated. Caller MUST have
 * checked @iova against the space.
 */
static u64 *iommu_walk(struct ppdma_domain *dom, unsigned long iova, bool alloc)
{
	u64 *table = dom->root;
	int lvl;

	for (lvl = PT_LEVELS - 1; lvl > 0; lvl--) {
		u64 *slot = &table[(iova >> (lvl * PT_BITS)) & (PT_ENTRIES - 1)];
		/* Acquire, paired with the CAS below: a table is zeroed
		 * before it is reachable. */
		u64 e = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

		if (unlikely(!(e & PTE_P))) {
			u64 *t, ne;

			if (!alloc)
				return NULL;
			t = iommu_table_alloc(dom);
			if (!t)
				return NULL;
			ne = (u64)(uintptr_t)t | PTE_P;
			if (__atomic_compare_exchange_n(slot, &e, ne, false,
							__ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
				e = ne;
			else	/* another map installed one; e holds it */
				iommu_table_free(dom, t);
		}
		table = pte_table(e);
	}
	return &table[iova & (PT_ENTRIES - 1)];
}

static void iommu_free_tables(struct ppdma_domain *dom, u64 *table, int lvl)
{
	unsigned long i;

	if (lvl > 0)
		for (i = 0; i < PT_ENTRIES; i++)
			if (table[i] & PTE_P)
				iommu_free_tables(dom, pte_table(table[i]), lvl - 1);
	iommu_table_free(dom, table);
}

/* The device reads memory it transmits (TO_DEVICE) and writes memory it
 * receives into (FROM_DEVICE). */
static u64 iommu_perm(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_TO_DEVICE:
		return PTE_R;
	case DMA_FROM_DEVICE:
		return PTE_W;
	default:
		return PTE_R | PTE_W;
	}
}

static int iommu_attach(struct pp_dma_dev *d)
{
	struct ppdma_domain *dom = kzalloc(sizeof(*dom), GFP_KERNEL);

	if (!dom)
		return -ENOMEM;
	if (ppdma_iova_init(&dom->iova, IOMMU_NR_GRANULES))
		goto err_free;
	dom->root = iommu_table_alloc(dom);
	if (!dom->root)
		goto err_iova;
	d->domain = dom;
	return 0;

err_iova:
	ppdma_iova_destroy(&dom->iova);
err_free:
	kfree(dom);
	return -ENOMEM;
}

static void iommu_detach(struct pp_dma_dev *d)
{
	struct ppdma_domain *dom = d->domain;

	iommu_free_tables(dom, dom->root, PT_LEVELS - 1);
	WARN_ON_ONCE(__atomic_load_n(&dom->tables, __ATOMIC_RELAXED));
	ppdma_iova_destroy(&dom->iova);
	kfree(dom);
	d->domain = NULL;
}

static dma_addr_t iommu_map(struct pp_dma_dev *d, phys_addr_t phys,
			    size_t size, enum dma_data_direction dir)
{
	struct ppdma_domain *dom = d->domain;
	unsigned long pfn = phys >> PAGE_SHIFT;
	unsigned long off = phys & ~PAGE_MASK;
	unsigned long n = (off + size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	unsigned long limit = (READ_ONCE(d->dma_mask) >> PAGE_SHIFT) + 1;
	u64 perm = iommu_perm(dir) | PTE_P;
	unsigned long iova, i;
	u64 *ptep, pte;

	if (unlikely(n > PTE_NR_MAX))
		return DMA_MAPPING_ERROR;
	iova = ppdma_iova_alloc(&dom->iova, n, limit);
	if (unlikely(!iova))
		return DMA_MAPPING_ERROR;

	/* The head entry last: it is what makes the mapping exist for
	 * iommu_unmap(). */
	for (i = n; i-- > 0;) {
		ptep = iommu_walk(dom, iova + i, true);
		if (unlikely(!ptep))
			goto err_unwind;
		pte = ((u64)(pfn + i) << PTE_PFN_SHIFT) | perm;
		if (!i)
			pte |= PTE_HEAD | ((u64)(n - 1) << PTE_NR_SHIFT);
		/* A fresh IOVA has no entry: the allocator handed it out
		 * twice if it does. */
		WARN_ON_ONCE(__atomic_load_n(ptep, __ATOMIC_RELAXED));
		__atomic_store_n(ptep, pte, __ATOMIC_RELEASE);
	}
	return ((dma_addr_t)iova << PAGE_SHIFT) | off;

err_unwind:
	while (++i < n)
		__atomic_store_n(iommu_walk(dom, iova + i, false), 0, __ATOMIC_RELAXED);
	ppdma_iova_free(&dom->iova, iova, n);
	return DMA_MAPPING_ERROR;
}

/*
 * The length comes from the head entry, not from @size: a wrong size (a
 * debug "bad unmap") must not clear a neighbour's entries. Two unmaps of
 * one mapping race on the head entry's CAS and only one frees the IOVA.
 * Without the debug layer in front, an unmap of something not mapped gets
 * the kernel's WARN (__iommu_dma_unmap: "unmapped != size").
 */
static bool iommu_unmap(struct pp_dma_dev *d, dma_addr_t addr, size_t size)
{
	struct ppdma_domain *dom = d->domain;
	unsigned long iova = addr >> PAGE_SHIFT, n, i;
	u64 *ptep, pte;

	if (unlikely(!iova || iova >= dom->iova.nr))
		goto bogus;
	ptep = iommu_walk(dom, iova, false);
	if (unlikely(!ptep))
		goto bogus;
	pte = __atomic_load_n(ptep, __ATOMIC_ACQUIRE);
	if (unlikely((pte & (PTE_P | PTE_HEAD)) != (PTE_P | PTE_HEAD)) ||
	    unlikely(!__atomic_compare_exchange_n(ptep, &pte, 0, false,
						  __ATOMIC_ACQ_REL,
						  __ATOMIC_RELAXED)))
		goto bogus;
	n = (pte >> PTE_NR_SHIFT) + 1;
	for (i = 1; i < n; i++)
		__atomic_store_n(iommu_walk(dom, iova + i, false), 0, __ATOMIC_RELAXED);

	/* The IOTLB flush, before the IOVA can be handed out again. */
	__atomic_fetch_add(&dom->iotlb_flushes, 1, __ATOMIC_RELAXED);
	ppdma_iova_free(&dom->iova, iova, n);
	return true;

bogus:
	WARN(1, "iommu: %s: unmapping an IOVA that is not mapped "
	     "[device address=0x%016llx] [size=%zu bytes]",
	     dev_name(&d->dev), (unsigned long long)addr, size);
	return false;
}

/* Look the physical address up, as the kernel does before maintaining the
 * caches for it; there are no caches to maintain here. */
static void iommu_sync(struct pp_dma_dev *d, dma_addr_t addr, size_t size,
		       enum dma_data_direction dir, bool for_cpu)
{
	struct ppdma_domain *dom = d->domain;
	unsigned long iova = addr >> PAGE_SHIFT;
	u64 *ptep;

	if (iova >= dom->iova.nr)
		return;
	ptep = iommu_walk(dom, iova, false);
	if (ptep)
		(void)__atomic_load_n(ptep, __ATOMIC_ACQUIRE);
}

static int iommu_translate(struct pp_dma_dev *d, dma_addr_t addr, bool write,
			   void **cpu, size_t *room)
{
	struct ppdma_domain *dom = d->domain;
	unsigned long iova = addr >> PAGE_SHIFT, pfn;
	u64 *ptep, pte;

	if (iova >= dom->iova.nr)
		return -EFAULT;
	ptep = iommu_walk(dom, iova, false);
	if (!ptep)
		return -EFAULT;
	pte = __atomic_load_n(ptep, __ATOMIC_ACQUIRE);
	if (!(pte & PTE_P) || !(pte & (write ? PTE_W : PTE_R)))
		return -EFAULT;
	pfn = (pte & PTE_PFN_MASK) >> PTE_PFN_SHIFT;
	if (WARN_ON_ONCE(!pfn_valid(pfn)))
		return -EFAULT;
	*cpu = (char *)page_address(pfn_to_page(pfn)) + offset_in_page(addr);
	*room = PAGE_SIZE - offset_in_page(addr);
	return 0;
}

static const struct dma_map_ops iommu_dma_ops = {
	.name			= "iommu",
	.map_page		= ppdma_ops_map_page,
	.unmap_page		= ppdma_ops_unmap_page,
	.sync_single_for_cpu	= __dma_sync_single_for_cpu,
	.sync_single_for_device	= __dma_sync_single_for_device,
};

const struct ppdma_backend ppdma_iommu_backend = {
	.type		= PP_DMA_IOMMU,
	.ops		= &iommu_dma_ops,
	.attach		= iommu_attach,
	.detach		= iommu_detach,
	.map		= iommu_map,
	.unmap		= iommu_unmap,
	.sync		= iommu_sync,
	.translate	= iommu_translate,
};

int ppdma_iommu_get_info(struct device *dev, struct ppdma_iommu_info *info)
{
	struct ppdma_domain *dom;
	struct pp_dma_dev *d;

	memset(info, 0, sizeof(*info));
	if (!dev || to_ppdma(dev)->be != &ppdma_iommu_backend)
		return -EINVAL;
	d = to_ppdma(dev);
	pthread_mutex_lock(&d->bind_lock);
	dom = d->domain;
	if (dom) {
		info->attached = true;
		info->iova_total = dom->iova.nr - 1;
		info->iova_used = ppdma_iova_used(&dom->iova);
		info->iotlb_flushes = __atomic_load_n(&dom->iotlb_flushes,
						      __ATOMIC_RELAXED);
		info->tables = __atomic_load_n(&dom->tables, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&d->bind_lock);
	return 0;
}

unsigned long ppdma_iommu_live_tables(void)
{
	return __atomic_load_n(&ppdma_tables_live, __ATOMIC_RELAXED);
}
