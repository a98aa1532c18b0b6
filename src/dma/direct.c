/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The direct backend: no IOMMU, the device sees physical addresses (the
 * kernel's dma-direct without swiotlb). The bus address of a buffer is its
 * page's physical address plus the offset, computed from the page frame
 * number; unmap and sync translate nothing. The arena's frames start at
 * PP_PFN_OFFSET, so no mapping is ever at bus address 0.
 *
 * The simulator has no CPU caches to maintain, so a sync on a
 * non-coherent device costs only the call: what it would cost on real
 * hardware (a cache clean/invalidate per line) is not modelled.
 * Layer: dma.
 */
#include <errno.h>
#include <stdint.h>

#include <linux/mm.h>

#include "dma_internal.h"

/* The device has no per-binding state: the bus address is a function of
 * the physical address alone. */
static int direct_attach(struct pp_dma_dev *d)
{
	return 0;
}

static void direct_detach(struct pp_dma_dev *d)
{
}

/*
 * The kernel's dma_direct_map_phys() bounces a buffer the device cannot
 * reach (above its DMA mask) through swiotlb; there is no swiotlb here,
 * so such a map fails, as it does in the kernel with swiotlb off. A
 * resource (MMIO) is reached at its physical address too; one at 0 fails,
 * since no mapping may be at bus address 0.
 */
static dma_addr_t direct_map(struct pp_dma_dev *d, phys_addr_t phys,
			     size_t size, enum dma_data_direction dir, u64 mask,
			     unsigned int flags)
{
	if (unlikely(!phys || phys + size - 1 > mask))
		return DMA_MAPPING_ERROR;
	return phys;
}

/* Nothing to undo. The address must at least be one we could have handed
 * out, so that the statistics do not count a made-up unmap. */
static bool direct_unmap(struct pp_dma_dev *d, dma_addr_t addr, size_t size)
{
	return pfn_valid(addr >> PAGE_SHIFT);
}

static void direct_sync(struct pp_dma_dev *d, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, bool for_cpu)
{
}

/* Without an IOMMU the device can reach all memory, mapped or not (which is
 * why the kernel wants an IOMMU); only addresses outside the arena fault.
 * @d is not used, and is NULL for a device pagepool did not create. */
static int direct_translate(struct pp_dma_dev *d, dma_addr_t addr, bool write,
			    void **cpu, size_t *room)
{
	unsigned long pfn = addr >> PAGE_SHIFT;

	if (!pfn_valid(pfn))
		return -EFAULT;
	*cpu = (char *)page_address(pfn_to_page(pfn)) + offset_in_page(addr);
	*room = PAGE_SIZE - offset_in_page(addr);
	return 0;
}

/* dev->dma_ops of a direct device. The kernel leaves dma_ops NULL for
 * dma-direct; we keep a table so that a backend can be told by name. */
static const struct dma_map_ops direct_dma_ops = {
	.name			= "direct",
	.map_page		= ppdma_ops_map_page,
	.unmap_page		= ppdma_ops_unmap_page,
	.sync_single_for_cpu	= __dma_sync_single_for_cpu,
	.sync_single_for_device	= __dma_sync_single_for_device,
};

/* No limit of its own on a mapping; never merges; reaches all memory
 * the mask covers. */
const struct ppdma_backend ppdma_direct_backend = {
	.type		= PP_DMA_DIRECT,
	.ops		= &direct_dma_ops,
	.max_mapping_size = SIZE_MAX,
	.opt_mapping_size = SIZE_MAX,
	.merge_boundary	= 0,
	.need_sync	= false,
	.remaps		= false,
	.attach		= direct_attach,
	.detach		= direct_detach,
	.map		= direct_map,
	.unmap		= direct_unmap,
	.sync		= direct_sync,
	.translate	= direct_translate,
};
