/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What a device can do, as <linux/dma-mapping.h> reports it: the mask that
 * reaches all memory, whether the device is addressing limited, mapping
 * size limits, the merge boundary, whether syncs matter, whether coherent
 * memory is in reach. The answers come from the backend's description
 * (struct ppdma_backend) and the arena's extent; a device pagepool did not
 * create answers as the direct backend does.
 * Layer: dma.
 */
#include <stdint.h>

#include <linux/bitops.h>
#include <linux/mm.h>

#include "dma_internal.h"

static const struct ppdma_backend *ppdma_be(const struct device *dev)
{
	const struct pp_dma_dev *d = to_ppdma(dev);

	return d ? d->be : &ppdma_direct_backend;
}

/*
 * The kernel's dma_direct_get_required_mask(): all ones up to the top bit
 * of the highest physical address of memory. Before the arena exists
 * there is no memory to reach; the answer is then the 32 bits every
 * device must support.
 */
static u64 ppdma_direct_required_mask(void)
{
	u64 top;

	if (!READ_ONCE(pp_mem_map.nr_pages))
		return DMA_BIT_MASK(32);
	top = ((u64)(PP_PFN_OFFSET + pp_mem_map.nr_pages) << PAGE_SHIFT) - 1;
	return DMA_BIT_MASK(fls64(top));
}

u64 dma_get_required_mask(struct device *dev)
{
	if (ppdma_be(dev)->remaps)
		return DMA_BIT_MASK(32);	/* the IOVA space */
	return ppdma_direct_required_mask();
}

/* Without an IOMMU, a mask below the memory's extent cannot reach it all;
 * an IOMMU maps any memory below the mask. */
bool dma_addressing_limited(struct device *dev)
{
	if (ppdma_limit(dev, dma_get_mask(dev)) < dma_get_required_mask(dev)) {
		dev_dbg(dev, "device is DMA addressing limited\n");
		return true;
	}
	return false;
}

size_t dma_max_mapping_size(struct device *dev)
{
	return ppdma_be(dev)->max_mapping_size;
}

size_t dma_opt_mapping_size(struct device *dev)
{
	const struct ppdma_backend *be = ppdma_be(dev);

	return min(be->opt_mapping_size, be->max_mapping_size);
}

unsigned long dma_get_merge_boundary(struct device *dev)
{
	return ppdma_be(dev)->merge_boundary;
}

bool dma_pci_p2pdma_supported(struct device *dev)
{
	return false;
}

/* A non-coherent device needs its syncs; so does any IOMMU device, by the
 * kernel's rule (it cannot tell per address). A coherent direct device
 * never does: there is no swiotlb buffer to copy. */
bool __dma_need_sync(struct device *dev, dma_addr_t dma_addr)
{
	const struct pp_dma_dev *d = to_ppdma(dev);

	if (!d)
		return false;
	return d->be->need_sync || (d->flags & PP_DMA_NONCOHERENT);
}

bool dma_coherent_ok(struct device *dev, phys_addr_t phys, size_t size)
{
	return phys + size - 1 <= ppdma_limit(dev, READ_ONCE(dev->coherent_dma_mask));
}
