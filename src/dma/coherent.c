/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA allocations (<linux/dma-mapping.h>): coherent memory
 * (dma_alloc_attrs() and the dma_alloc_coherent() family), managed
 * coherent memory freed at driver unbind (dmam_*), pages that stay mapped
 * for streaming DMA (dma_alloc_pages(), dma_alloc_noncoherent()), the
 * one-block non-contiguous allocations, and the calls that describe or map
 * an allocation elsewhere (dma_get_sgtable_attrs(), dma_mmap_*()).
 *
 * An allocation is a non-compound block of get_order(size) from the page
 * allocator, zeroed, then mapped through the device's backend like any
 * buffer (direct: its physical address; IOMMU: an IOVA below the mask), in
 * one op section, so that a concurrent unbind sees it whole or not at all.
 * The debug layer records it with its kind and CPU address. Everything an
 * allocation took is given back when a later step fails, including under
 * PP_FAULT_DMA_MAP, which fails it before any memory is taken.
 *
 * Frees trust the debug record over the caller: with PP_DMA_DEBUG, a free
 * with the wrong size or CPU address is reported and then frees what was
 * allocated; a free of an unknown address, a double free, or a free of a
 * mapping that is not an allocation of this kind (a page_pool page's
 * streaming mapping given to dma_free_coherent()) is reported and frees no
 * memory. Without debug, a free the backend does not recognise leaves the
 * memory alone (the kernel would free it anyway). After the driver unbind,
 * the mapping died with the binding: a free is reported as use after
 * unbind and gives the memory back.
 * Layer: dma.
 */
#include <errno.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <pagepool/runtime.h>

#include "dma_internal.h"

/* A dmam_alloc_attrs() allocation, on its device's managed list. */
struct ppdma_managed {
	struct list_head node;
	void *vaddr;
	dma_addr_t handle;
	size_t size;
};

static struct page *ppdma_alloc_block(const struct device *dev, size_t size,
				      gfp_t gfp, bool nowarn)
{
	struct page *page;
	unsigned int order = (unsigned int)get_order(size);

	/* The kernel refuses __GFP_COMP for DMA memory; callers checked.
	 * Zeroing is ours to do, for every allocation. */
	gfp &= ~(__GFP_ZERO | __GFP_COMP);
	if (nowarn)
		gfp |= __GFP_NOWARN;
	page = alloc_pages_node(dev_to_node(dev), gfp, order);
	if (page)
		memset(page_address(page), 0, PAGE_SIZE << order);
	return page;
}

static bool ppdma_is_allocation(enum ppdma_map_type type)
{
	return type == PPDMA_MAP_COHERENT || type == PPDMA_MAP_NONCOHERENT ||
	       type == PPDMA_MAP_SG;
}

/*
 * Allocate @size bytes for @dev, zeroed and mapped for @dir below @limit:
 * the first page, with the bus address in *@handle; NULL on failure with
 * nothing taken. @m, if not NULL, goes on the managed list once the
 * allocation exists (inside the op section: unbind drains the sections
 * before it walks the list).
 */
static struct page *ppdma_alloc(struct device *dev, size_t size,
				dma_addr_t *handle, gfp_t gfp,
				enum dma_data_direction dir,
				enum ppdma_map_type type, u64 limit, bool nowarn,
				struct ppdma_managed *m)
{
	bool fail = pp_should_fail(PP_FAULT_DMA_MAP);
	struct pp_dma_dev *d = to_ppdma(dev);
	dma_addr_t addr = DMA_MAPPING_ERROR;
	struct page *page = NULL;
	struct ppdma_slot *s;

	if (!size)
		return NULL;
	if (!d) {
		if (fail)
			return NULL;
		page = ppdma_alloc_block(dev, size, gfp, nowarn);
		if (!page)
			return NULL;
		/* dma-direct's dma_coherent_ok(): no zone to retry from. */
		if (page_to_phys(page) + size - 1 > limit) {
			__free_pages(page, (unsigned int)get_order(size));
			return NULL;
		}
		*handle = page_to_phys(page);
		return page;
	}

	if (!ppdma_op_begin_checked(d, PP_DMA_OP_MAP, addr, size, dir, &s))
		goto out;
	if (unlikely(fail))
		goto out;
	page = ppdma_alloc_block(dev, size, gfp, nowarn);
	if (!page)
		goto out;
	addr = d->be->map(d, page_to_phys(page), size, dir, limit, 0);
	if (addr == DMA_MAPPING_ERROR)
		goto err_free;
	if (d->debug) {
		struct ppdma_ref ref = {
			.addr = addr, .size = size, .phys = page_to_phys(page),
			.dir = dir, .type = type,
			.sg_call_ents = type == PPDMA_MAP_SG,
			.sg_mapped_ents = type == PPDMA_MAP_SG,
		};

		if (ppdma_debug_map(d, &ref))
			goto err_unmap;
	}
	if (m) {
		m->vaddr = page_address(page);
		m->handle = addr;
		m->size = size;
		spin_lock(&d->managed_lock);
		list_add_tail(&m->node, &d->managed);
		spin_unlock(&d->managed_lock);
	}
	*handle = addr;
	goto out;

err_unmap:
	d->be->unmap(d, addr, size);
	addr = DMA_MAPPING_ERROR;
err_free:
	__free_pages(page, (unsigned int)get_order(size));
	page = NULL;
out:
	ppdma_count(page ? &s->maps : &s->map_errors);
	ppdma_op_end(s);
	ppdma_trace(d, PP_DMA_OP_MAP, addr, size, dir);
	return page;
}

/*
 * Undo an allocation on a bound device: inside an op section, or at unbind
 * with the sections drained. @page and @size are the caller's; the debug
 * record, when there is one, decides (see the top of this file).
 */
static void ppdma_free_bound(struct pp_dma_dev *d, struct ppdma_slot *s,
			     size_t size, struct page *page, dma_addr_t addr,
			     enum dma_data_direction dir, enum ppdma_map_type type,
			     int sg_ents)
{
	bool owned = true;

	if (d->debug) {
		struct ppdma_ref ref = {
			.addr = addr, .size = size, .phys = page_to_phys(page),
			.dir = dir, .type = type, .sg_call_ents = sg_ents,
		}, found;

		if (!ppdma_debug_unmap(d, &ref, &found))
			return;
		size = found.size;
		owned = found.type == type && ppdma_is_allocation(found.type);
		if (owned && pfn_valid(found.phys >> PAGE_SHIFT))
			page = pfn_to_page(found.phys >> PAGE_SHIFT);
	}
	if (!d->be->unmap(d, addr, size))
		return;
	ppdma_count(&s->unmaps);
	if (owned)
		__free_pages(page, (unsigned int)get_order(size));
}

static void ppdma_free(struct device *dev, size_t size, void *cpu_addr,
		       dma_addr_t addr, enum dma_data_direction dir,
		       enum ppdma_map_type type, int sg_ents)
{
	struct pp_dma_dev *d = to_ppdma(dev);
	struct ppdma_slot *s;
	struct page *page;
	bool bound;

	if (!cpu_addr)
		return;
	/* The kernel would free whatever it was given; here a pointer that
	 * cannot be an allocation is refused before it reaches the page
	 * allocator. */
	if (WARN_ONCE(!virt_addr_valid(cpu_addr) || !PAGE_ALIGNED(cpu_addr) || !size,
		      "DMA-API: %s: freeing DMA memory that is not an allocation "
		      "[cpu address=%p] [size=%zu]", dev_name(dev), cpu_addr, size))
		return;
	page = virt_to_page(cpu_addr);
	if (!d) {
		__free_pages(page, (unsigned int)get_order(size));
		return;
	}
	s = ppdma_op_begin(d, &bound);
	if (unlikely(!valid_dma_direction(dir))) {
		ppdma_bad_dir(d, PP_DMA_OP_UNMAP, addr, size, dir);
		goto out;
	}
	if (unlikely(!bound)) {
		ppdma_after_unbind(d, PP_DMA_OP_UNMAP, addr, size);
		/* The binding took the mapping with it; the memory is the
		 * driver's to give back. */
		__free_pages(page, (unsigned int)get_order(size));
		goto out;
	}
	ppdma_free_bound(d, s, size, page, addr, dir, type, sg_ents);
out:
	ppdma_op_end(s);
	ppdma_trace(d, PP_DMA_OP_UNMAP, addr, size, dir);
}

void *dma_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		      gfp_t flag, unsigned long attrs)
{
	struct page *page;

	WARN_ON_ONCE(!dev->coherent_dma_mask);
	if (WARN_ON_ONCE(flag & __GFP_COMP))
		return NULL;
	/* The implementation picks the zone (there are none here). */
	flag &= ~(__GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM);
	page = ppdma_alloc(dev, size, dma_handle, flag, DMA_BIDIRECTIONAL,
			   PPDMA_MAP_COHERENT,
			   ppdma_limit(dev, READ_ONCE(dev->coherent_dma_mask)),
			   attrs & DMA_ATTR_NO_WARN, NULL);
	return page ? page_address(page) : NULL;
}

void dma_free_attrs(struct device *dev, size_t size, void *cpu_addr,
		    dma_addr_t dma_handle, unsigned long attrs)
{
	ppdma_free(dev, size, cpu_addr, dma_handle, DMA_BIDIRECTIONAL,
		   PPDMA_MAP_COHERENT, 0);
}

void *dmam_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		       gfp_t gfp, unsigned long attrs)
{
	struct ppdma_managed *m;
	struct page *page;

	if (!to_ppdma(dev))
		return NULL;	/* no driver binding to tie the memory to */
	WARN_ON_ONCE(!dev->coherent_dma_mask);
	if (WARN_ON_ONCE(gfp & __GFP_COMP))
		return NULL;
	gfp &= ~(__GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM);
	m = kmalloc(sizeof(*m), gfp);
	if (!m)
		return NULL;
	page = ppdma_alloc(dev, size, dma_handle, gfp, DMA_BIDIRECTIONAL,
			   PPDMA_MAP_COHERENT,
			   ppdma_limit(dev, READ_ONCE(dev->coherent_dma_mask)),
			   attrs & DMA_ATTR_NO_WARN, m);
	if (!page) {
		kfree(m);
		return NULL;
	}
	return page_address(page);
}

/*
 * The record leaves the list before the memory is freed: an unbind that
 * runs meanwhile then does not free it a second time. No record means the
 * unbind (or an earlier call) already freed it, so nothing is freed here;
 * the kernel WARNs and frees anyway.
 */
void dmam_free_coherent(struct device *dev, size_t size, void *vaddr,
			dma_addr_t dma_handle)
{
	struct pp_dma_dev *d = to_ppdma(dev);
	struct ppdma_managed *m, *found = NULL;

	if (WARN_ON(!d))
		return;
	spin_lock(&d->managed_lock);
	list_for_each_entry(m, &d->managed, node) {
		if (m->vaddr == vaddr && m->handle == dma_handle) {
			list_del(&m->node);
			found = m;
			break;
		}
	}
	spin_unlock(&d->managed_lock);
	if (WARN_ON(!found))
		return;
	WARN_ON_ONCE(found->size != size);
	kfree(found);
	dma_free_attrs(dev, size, vaddr, dma_handle, 0);
}

/* Not traced: the trace hook may not run while unbind holds the bind lock
 * (a hook may unbind). */
void ppdma_release_managed(struct pp_dma_dev *d)
{
	struct ppdma_managed *m, *next;
	LIST_HEAD(list);

	spin_lock(&d->managed_lock);
	list_splice_init(&d->managed, &list);
	spin_unlock(&d->managed_lock);
	list_for_each_entry_safe(m, next, &list, node) {
		ppdma_free_bound(d, ppdma_this_slot(d), m->size,
				 virt_to_page(m->vaddr), m->handle,
				 DMA_BIDIRECTIONAL, PPDMA_MAP_COHERENT, 0);
		kfree(m);
	}
}

/* The limit of dma_alloc_pages(): the kernel's direct path checks the
 * coherent mask; its IOMMU path maps the pages as a streaming buffer. */
static u64 ppdma_pages_limit(struct device *dev)
{
	struct pp_dma_dev *d = to_ppdma(dev);

	if (d && d->be->remaps)
		return ppdma_stream_limit(dev);
	return ppdma_limit(dev, READ_ONCE(dev->coherent_dma_mask));
}

static bool ppdma_pages_gfp_ok(const struct device *dev, gfp_t gfp)
{
	if (WARN_ON_ONCE(!dev->coherent_dma_mask))
		return false;
	if (WARN_ON_ONCE(gfp & (__GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM)))
		return false;
	if (WARN_ON_ONCE(gfp & __GFP_COMP))
		return false;
	return true;
}

struct page *dma_alloc_pages(struct device *dev, size_t size,
			     dma_addr_t *dma_handle, enum dma_data_direction dir,
			     gfp_t gfp)
{
	if (!ppdma_pages_gfp_ok(dev, gfp))
		return NULL;
	return ppdma_alloc(dev, PAGE_ALIGN(size), dma_handle, gfp, dir,
			   PPDMA_MAP_NONCOHERENT, ppdma_pages_limit(dev),
			   gfp & __GFP_NOWARN, NULL);
}

void dma_free_pages(struct device *dev, size_t size, struct page *page,
		    dma_addr_t dma_handle, enum dma_data_direction dir)
{
	if (!page)
		return;
	ppdma_free(dev, PAGE_ALIGN(size), page_address(page), dma_handle, dir,
		   PPDMA_MAP_NONCOHERENT, 0);
}

int dma_mmap_pages(struct device *dev, struct vm_area_struct *vma,
		   size_t size, struct page *page)
{
	return -ENXIO;
}

struct sg_table *dma_alloc_noncontiguous(struct device *dev, size_t size,
					 enum dma_data_direction dir, gfp_t gfp,
					 unsigned long attrs)
{
	struct sg_table *sgt;
	dma_addr_t handle;
	struct page *page;

	if (WARN_ON_ONCE(attrs & ~DMA_ATTR_ALLOC_SINGLE_PAGES))
		return NULL;
	if (!ppdma_pages_gfp_ok(dev, gfp))
		return NULL;
	sgt = kmalloc(sizeof(*sgt), gfp);
	if (!sgt)
		return NULL;
	if (sg_alloc_table(sgt, 1, gfp))
		goto err_free_sgt;
	size = PAGE_ALIGN(size);
	page = ppdma_alloc(dev, size, &handle, gfp, dir, PPDMA_MAP_SG,
			   ppdma_pages_limit(dev), gfp & __GFP_NOWARN, NULL);
	if (!page)
		goto err_free_table;
	sg_set_page(sgt->sgl, page, (unsigned int)size, 0);
	sg_dma_address(sgt->sgl) = handle;
	sg_dma_len(sgt->sgl) = (unsigned int)size;
	sgt->nents = 1;
	return sgt;

err_free_table:
	sg_free_table(sgt);
err_free_sgt:
	kfree(sgt);
	return NULL;
}

void dma_free_noncontiguous(struct device *dev, size_t size,
			    struct sg_table *sgt, enum dma_data_direction dir)
{
	ppdma_free(dev, PAGE_ALIGN(size), sg_virt(sgt->sgl),
		   sg_dma_address(sgt->sgl), dir, PPDMA_MAP_SG,
		   (int)sgt->orig_nents);
	sg_free_table(sgt);
	kfree(sgt);
}

void *dma_vmap_noncontiguous(struct device *dev, size_t size,
			     struct sg_table *sgt)
{
	return page_address(sg_page(sgt->sgl));
}

void dma_vunmap_noncontiguous(struct device *dev, void *vaddr)
{
}

int dma_mmap_noncontiguous(struct device *dev, struct vm_area_struct *vma,
			   size_t size, struct sg_table *sgt)
{
	return -ENXIO;
}

/* Both kernel paths (dma-direct, dma-iommu) describe memory that is
 * linearly mapped by the one page behind its CPU address. */
int dma_get_sgtable_attrs(struct device *dev, struct sg_table *sgt,
			  void *cpu_addr, dma_addr_t dma_addr, size_t size,
			  unsigned long attrs)
{
	int err;

	if (!virt_addr_valid(cpu_addr))
		return -ENXIO;
	err = sg_alloc_table(sgt, 1, GFP_KERNEL);
	if (err)
		return err;
	sg_set_page(sgt->sgl, virt_to_page(cpu_addr), (unsigned int)PAGE_ALIGN(size), 0);
	return 0;
}

int dma_mmap_attrs(struct device *dev, struct vm_area_struct *vma,
		   void *cpu_addr, dma_addr_t dma_addr, size_t size,
		   unsigned long attrs)
{
	return -ENXIO;
}

bool dma_can_mmap(struct device *dev)
{
	return false;
}
