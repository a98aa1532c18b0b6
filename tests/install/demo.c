/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Built outside the tree with `pkg-config --cflags --libs pagepool` alone:
 * allocate a page, map it through an IOMMU device, unmap it. */
#include <stdio.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <pagepool.h>

int main(void)
{
	struct device *dev = pp_device_create("demo", PP_DMA_IOMMU, PP_DMA_DEBUG);
	struct page *page = alloc_page(GFP_KERNEL);
	dma_addr_t dma;

	if (IS_ERR(dev) || !page)
		return 1;
	dma = dma_map_page_attrs(dev, page, 0, PAGE_SIZE, DMA_FROM_DEVICE, 0);
	if (dma_mapping_error(dev, dma))
		return 1;
	dma_unmap_page_attrs(dev, dma, PAGE_SIZE, DMA_FROM_DEVICE, 0);
	__free_page(page);
	printf("mapped at %#llx, %lu DMA-API violations\n", (unsigned long long)dma,
	       pp_dma_violations(dev));
	pp_device_destroy(dev);
	return pp_dma_violations(NULL) != 0;
}
