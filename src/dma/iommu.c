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
 * The granule (what one leaf entry maps, and the unit of the IOVA
 * allocator) is the library's PAGE_SIZE in every build, IOMMU_GRANULE_SHIFT
 * below. That is the arm64 SMMU's choice too: it supports 4 KiB, 16 KiB and
 * 64 KiB translation granules, and the kernel runs it at the CPU's page
 * size. x86 VT-d only has 4 KiB entries, so a real x86-64 kernel with
 * larger pages would write PAGE_SIZE / 4 KiB entries per page; x86-64
 * 16/64 KiB builds here take the CPU page size anyway (one entry per
 * library page): the simulator models the table's work per page, and a
 * 4 KiB sub-granule would only multiply it by a constant.
 *
 * Page-table format (one 64-bit entry, 512 entries per table):
 *   table entry  pointer to the next-level table | PTE_P
 *   leaf entry   physical pfn << PTE_PFN_SHIFT | PTE_P | PTE_R (device may
 *                read) | PTE_W (device may write) | PTE_MMIO (not RAM: a
 *                resource, nothing behind it for the simulated device); the
 *                first page of a mapping also has PTE_HEAD and its page
 *                count - 1 in bits 48..62, so the table itself records what
 *                an unmap must clear and free. The entry holds the frame
 *                number in a fixed field (bits 12..47) above the flag bits,
 *                not the address, so the layout is the same for every
 *                granule.
 *
 * A scatterlist gets one IOVA range for all its entries, each entry a
 * mapping of its own inside it (its own head entry), laid out back to back
 * so that the device sees the list as few contiguous DMA segments: an
 * entry that starts at offset 0 of its page continues the previous one if
 * that ended at a page end (the kernel's iommu_dma_map_sg() merges on the
 * same rule, within the device's segment size and boundary).
 * Tables are installed with a compare-and-swap, so maps of different IOVAs
 * write the table without a lock; only the IOVA allocator locks, and its
 * per-thread caches spare most calls even that.
 * Layer: dma.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "dma_internal.h"
#include "iova.h"

/* A 32-bit IOVA space, as the kernel gives a device whose DMA mask allows
 * it (it tries below 4 GiB first for PCI devices). 2^20 granules at 4 KiB
 * pages (a 128 KiB bitmap per domain), 2^16 at 64 KiB. */
#define IOMMU_GRANULE_SHIFT	PAGE_SHIFT
#define IOMMU_IOVA_BITS		32
#define IOMMU_NR_GRANULES	(1UL << (IOMMU_IOVA_BITS - IOMMU_GRANULE_SHIFT))

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
#define PTE_MMIO	(1ULL << 4)
/* The frame number's field: above the flag bits, below the page count. */
#define PTE_PFN_SHIFT	12
#define PTE_PFN_BITS	36
#define PTE_PFN_MASK	(((1ULL << PTE_PFN_BITS) - 1) << PTE_PFN_SHIFT)
#define PTE_NR_SHIFT	(PTE_PFN_SHIFT + PTE_PFN_BITS)
/* Pages per mapping: twice the largest block (2^MAX_PAGE_ORDER pages),
 * 8 MiB at 4 KiB pages, 64 MiB at 16 KiB, 1 GiB at 64 KiB; the count's
 * field (bits 48..62) holds up to 2^15. */
#define PTE_NR_MAX	(2UL << MAX_PAGE_ORDER)
#define PTE_NR_FIELD	(1UL << 15)

/* IOTLB flushes, counted per op slot (one per thread): one shared
 * counter was a line every CPU's unmap wrote, two CPUs unmapping on one
 * device bounced it per packet. Summed when read. */
struct iommu_flush_ctr {
	atomic_long_t n;
} ____cacheline_aligned;

struct ppdma_domain {
	struct ppdma_iova iova;
	atomic_long_t tables;		/* tables in this domain */
	u64 *root;
	struct iommu_flush_ctr iotlb_flushes[PPDMA_NR_SLOTS];
};

static unsigned long iommu_iotlb_flushes(struct ppdma_domain *dom)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < PPDMA_NR_SLOTS; i++)
		n += atomic_long_read(&dom->iotlb_flushes[i].n);
	return n;
}

static atomic_long_t ppdma_tables_live;	/* over all domains */

static u64 *iommu_table_alloc(struct ppdma_domain *dom)
{
	u64 *t = kzalloc(PT_BYTES, GFP_ATOMIC);

	if (t) {
		atomic_long_inc(&dom->tables);
		atomic_long_inc(&ppdma_tables_live);
	}
	return t;
}

static void iommu_table_free(struct ppdma_domain *dom, u64 *t)
{
	atomic_long_dec(&dom->tables);
	atomic_long_dec(&ppdma_tables_live);
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
		u64 e = smp_load_acquire(slot);

		if (unlikely(!(e & PTE_P))) {
			u64 *t, ne;

			if (!alloc)
				return NULL;
			t = iommu_table_alloc(dom);
			if (!t)
				return NULL;
			ne = (u64)(uintptr_t)t | PTE_P;
			/* Fully ordered: release publishes the zeroed
			 * table, acquire on failure reads the winner's (the
			 * kernel has no acq_rel variant). */
			if (try_cmpxchg(slot, &e, ne))
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
	WARN_ON_ONCE(atomic_long_read(&dom->tables));
	ppdma_iova_destroy(&dom->iova);
	kfree(dom);
	d->domain = NULL;
}

/* Pages an IOVA mapping of [phys, phys + size) takes. */
static unsigned long iommu_npages(phys_addr_t phys, size_t size)
{
	return ((phys & ~PAGE_MASK) + size + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

static unsigned long iommu_limit(u64 mask)
{
	return (unsigned long)(mask >> PAGE_SHIFT) + 1;
}

/* Clear the leaf entries of IOVA pfns [iova, iova + n), all present. */
static void iommu_clear_ptes(struct ppdma_domain *dom, unsigned long iova,
			     unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		WRITE_ONCE(*iommu_walk(dom, iova + i, false), 0);
}

/*
 * Write one mapping of @n pages from frame @pfn at IOVA pfn @iova, the head
 * entry last: it is what makes the mapping exist for iommu_unmap(). 0, or
 * -ENOMEM (an IO page table) with nothing written.
 */
static int iommu_set_ptes(struct ppdma_domain *dom, unsigned long iova,
			  unsigned long pfn, unsigned long n, u64 perm)
{
	unsigned long i;
	u64 *ptep, pte;

	for (i = n; i-- > 0;) {
		ptep = iommu_walk(dom, iova + i, true);
		if (unlikely(!ptep)) {
			iommu_clear_ptes(dom, iova + i + 1, n - i - 1);
			return -ENOMEM;
		}
		pte = ((u64)(pfn + i) << PTE_PFN_SHIFT) | perm;
		if (!i)
			pte |= PTE_HEAD | ((u64)(n - 1) << PTE_NR_SHIFT);
		/* A fresh IOVA has no entry: the allocator handed it out
		 * twice if it does. */
		WARN_ON_ONCE(READ_ONCE(*ptep));
		smp_store_release(ptep, pte);
	}
	return 0;
}

static dma_addr_t iommu_map(struct pp_dma_dev *d, phys_addr_t phys,
			    size_t size, enum dma_data_direction dir, u64 mask,
			    unsigned int flags)
{
	struct ppdma_domain *dom = d->domain;
	unsigned long n = iommu_npages(phys, size);
	u64 perm = iommu_perm(dir) | PTE_P;
	unsigned long iova;

	BUILD_BUG_ON(PTE_NR_MAX > PTE_NR_FIELD);
	if (flags & PPDMA_MAP_MMIO)
		perm |= PTE_MMIO;
	if (unlikely(n > PTE_NR_MAX || (phys >> PAGE_SHIFT) + n > (1ULL << PTE_PFN_BITS)))
		return DMA_MAPPING_ERROR;
	iova = ppdma_iova_alloc(&dom->iova, n, iommu_limit(mask));
	if (unlikely(!iova))
		return DMA_MAPPING_ERROR;
	if (unlikely(iommu_set_ptes(dom, iova, phys >> PAGE_SHIFT, n, perm))) {
		ppdma_iova_free(&dom->iova, iova, n);
		return DMA_MAPPING_ERROR;
	}
	return ((dma_addr_t)iova << PAGE_SHIFT) | (phys & ~PAGE_MASK);
}

/*
 * Remove the mapping whose head entry is at IOVA pfn @iova: its page count,
 * or 0 if there is none. Two unmaps of one mapping race on the head
 * entry's CAS and only one frees the IOVA.
 */
static unsigned long iommu_unmap_head(struct ppdma_domain *dom, unsigned long iova)
{
	unsigned long n;
	u64 *ptep, pte;

	if (unlikely(!iova || iova >= dom->iova.nr))
		return 0;
	ptep = iommu_walk(dom, iova, false);
	if (unlikely(!ptep))
		return 0;
	pte = smp_load_acquire(ptep);
	if (unlikely((pte & (PTE_P | PTE_HEAD)) != (PTE_P | PTE_HEAD)) ||
	    /* Fully ordered (acq_rel in C11 terms would do): one
	     * unmap of two racing ones wins the entry. */
	    unlikely(!try_cmpxchg(ptep, &pte, 0)))
		return 0;
	n = (pte >> PTE_NR_SHIFT) + 1;
	iommu_clear_ptes(dom, iova + 1, n - 1);

	/* The IOTLB flush, before the IOVA can be handed out again. */
	atomic_long_inc(&dom->iotlb_flushes[ppdma_this_slot_idx()].n);
	ppdma_iova_free(&dom->iova, iova, n);
	return n;
}

/*
 * The length comes from the head entry, not from @size: a wrong size (a
 * debug "bad unmap") must not clear a neighbour's entries. Without the
 * debug layer in front, an unmap of something not mapped gets the
 * kernel's WARN (__iommu_dma_unmap: "unmapped != size").
 */
static bool iommu_unmap(struct pp_dma_dev *d, dma_addr_t addr, size_t size)
{
	if (likely(iommu_unmap_head(d->domain, addr >> PAGE_SHIFT)))
		return true;
	WARN(1, "iommu: %s: unmapping an IOVA that is not mapped "
	     "[device address=0x%016llx] [size=%zu bytes]",
	     dev_name(&d->dev), (unsigned long long)addr, size);
	return false;
}

/*
 * One IOVA range for the whole list, each entry mapped at the next free
 * page of it, then the DMA segments: an entry joins the open segment when
 * the previous entry ended at a page end, it starts at offset 0, its IOVA
 * is not at a segment boundary and the sum stays within the maximum
 * segment size. Entries are written in place: the segment being filled is
 * never ahead of the entry being read, and only the DMA fields change.
 */
static int iommu_map_sg(struct pp_dma_dev *d, struct scatterlist *sgl, int nents,
			enum dma_data_direction dir, u64 mask)
{
	struct ppdma_domain *dom = d->domain;
	unsigned long seg_mask = dma_get_seg_boundary(&d->dev);
	u64 max_seg = dma_get_max_seg_size(&d->dev);
	u64 perm = iommu_perm(dir) | PTE_P;
	struct scatterlist *s, *cur = NULL;
	unsigned long total = 0, iova, pos, n;
	u64 cur_len = 0;
	bool open = false;
	int i, count = 0;

	for_each_sg(sgl, s, nents, i) {
		n = iommu_npages(sg_phys(s), s->length);
		if (n > PTE_NR_MAX)
			return -EINVAL;
		total += n;
	}
	iova = ppdma_iova_alloc(&dom->iova, total, iommu_limit(mask));
	if (!iova)
		return -ENOMEM;

	pos = iova;
	for_each_sg(sgl, s, nents, i) {
		phys_addr_t phys = sg_phys(s);
		unsigned long off = phys & ~PAGE_MASK;
		dma_addr_t dma = ((dma_addr_t)pos << PAGE_SHIFT) + off;

		n = iommu_npages(phys, s->length);
		if (iommu_set_ptes(dom, pos, phys >> PAGE_SHIFT, n, perm))
			goto err_unwind;
		if (open && !off && (dma & seg_mask) && cur_len + s->length <= max_seg) {
			cur_len += s->length;
		} else {
			cur = cur ? sg_next(cur) : sgl;
			sg_dma_address(cur) = dma;
			cur_len = s->length;
			count++;
		}
		sg_dma_len(cur) = (unsigned int)cur_len;
		open = !((off + s->length) & ~PAGE_MASK);
		pos += n;
	}
	/* The entries past the last segment say so with length 0. */
	for (i = count, s = cur; i < nents; i++) {
		s = sg_next(s);
		sg_dma_address(s) = DMA_MAPPING_ERROR;
		sg_dma_len(s) = 0;
	}
	return count;

err_unwind:
	/* The entries mapped so far, each a mapping from its head entry. */
	for (pos = iova; pos < iova + total;) {
		n = iommu_unmap_head(dom, pos);
		if (!n)
			break;
		pos += n;
	}
	if (pos < iova + total)
		ppdma_iova_free(&dom->iova, pos, iova + total - pos);
	return -ENOMEM;
}

/*
 * Walk each DMA segment's IOVA pages from head entry to head entry. A list
 * that map_sg did not fill in (a made-up address) stops the walk at the
 * first page without a head entry, with the kernel's WARN.
 */
static int iommu_unmap_sg(struct pp_dma_dev *d, struct scatterlist *sgl, int nr)
{
	struct ppdma_domain *dom = d->domain;
	struct scatterlist *s;
	int i, done = 0;

	for_each_sg(sgl, s, nr, i) {
		dma_addr_t addr = sg_dma_address(s);
		unsigned long pos = addr >> PAGE_SHIFT, n;
		unsigned long end = (unsigned long)((addr + sg_dma_len(s) + PAGE_SIZE - 1) >>
						    PAGE_SHIFT);

		if (!sg_dma_len(s))
			break;
		while (pos < end) {
			n = iommu_unmap_head(dom, pos);
			if (!n) {
				WARN(1, "iommu: %s: unmapping an sg segment that is not mapped "
				     "[device address=0x%016llx] [size=%u bytes]",
				     dev_name(&d->dev), (unsigned long long)addr,
				     sg_dma_len(s));
				return done;
			}
			pos += n;
		}
		done++;
	}
	return done;
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
		(void)smp_load_acquire(ptep);
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
	pte = smp_load_acquire(ptep);
	if (!(pte & PTE_P) || !(pte & (write ? PTE_W : PTE_R)))
		return -EFAULT;
	/* Another device's registers: nothing the simulator can reach. */
	if (pte & PTE_MMIO)
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

/* A mapping holds at most PTE_NR_MAX pages; only single-page IOVAs are
 * cached per thread (iova.c); merging is at page granularity; syncs walk
 * the IO page table, so they matter even on a coherent device (as the
 * kernel says of any IOMMU device); the IOVA space lies below 4 GiB
 * whatever memory the device reaches. */
const struct ppdma_backend ppdma_iommu_backend = {
	.type		= PP_DMA_IOMMU,
	.ops		= &iommu_dma_ops,
	.max_mapping_size = PTE_NR_MAX * PAGE_SIZE,
	.opt_mapping_size = PAGE_SIZE,
	.merge_boundary	= PAGE_SIZE - 1,
	.need_sync	= true,
	.remaps		= true,
	.attach		= iommu_attach,
	.detach		= iommu_detach,
	.map		= iommu_map,
	.unmap		= iommu_unmap,
	.map_sg		= iommu_map_sg,
	.unmap_sg	= iommu_unmap_sg,
	.sync		= iommu_sync,
	.translate	= iommu_translate,
};

int ppdma_iommu_get_info(struct device *dev, struct ppdma_iommu_info *info)
{
	struct ppdma_domain *dom;
	struct pp_dma_dev *d;

	memset(info, 0, sizeof(*info));
	if (!dev || !to_ppdma(dev) || to_ppdma(dev)->be != &ppdma_iommu_backend)
		return -EINVAL;
	d = to_ppdma(dev);
	pthread_mutex_lock(&d->bind_lock);
	dom = d->domain;
	if (dom) {
		info->attached = true;
		info->iova_total = dom->iova.nr - 1;
		info->iova_used = ppdma_iova_used(&dom->iova);
		info->iotlb_flushes = iommu_iotlb_flushes(dom);
		info->tables = atomic_long_read(&dom->tables);
	}
	pthread_mutex_unlock(&d->bind_lock);
	return 0;
}

unsigned long ppdma_iommu_live_tables(void)
{
	return atomic_long_read(&ppdma_tables_live);
}
