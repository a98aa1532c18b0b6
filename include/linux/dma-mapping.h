/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The streaming DMA API. Calls go through the device's dma_map_ops (direct
 * or simulated IOMMU) and, when the device was created with PP_DMA_DEBUG,
 * through the DMA-API debug checks first (<pagepool/dma.h>).
 *
 * dma_map_*() return DMA_MAPPING_ERROR on failure (out of IOVA space, a
 * buffer outside the arena, an unbound device, PP_FAULT_DMA_MAP); callers
 * must test with dma_mapping_error(). Unmap and sync take the address the
 * map returned. Any thread.
 * Layer: dma.
 */
#ifndef _PP_LINUX_DMA_MAPPING_H
#define _PP_LINUX_DMA_MAPPING_H

#include <linux/cache.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/mm.h>
#include <linux/types.h>

#define DMA_MAPPING_ERROR		(~(dma_addr_t)0)
#define DMA_BIT_MASK(n)			(((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))

#define DMA_ATTR_WEAK_ORDERING		(1UL << 1)
#define DMA_ATTR_WRITE_COMBINE		(1UL << 2)
#define DMA_ATTR_NO_KERNEL_MAPPING	(1UL << 4)
#define DMA_ATTR_SKIP_CPU_SYNC		(1UL << 5)
#define DMA_ATTR_FORCE_CONTIGUOUS	(1UL << 6)
#define DMA_ATTR_ALLOC_SINGLE_PAGES	(1UL << 7)
#define DMA_ATTR_NO_WARN		(1UL << 8)
#define DMA_ATTR_PRIVILEGED		(1UL << 9)

/* A backend. Implementations live in src/dma (direct, iommu). */
struct dma_map_ops {
	const char *name;
	dma_addr_t (*map_page)(struct device *dev, struct page *page,
			       unsigned long offset, size_t size,
			       enum dma_data_direction dir, unsigned long attrs);
	void (*unmap_page)(struct device *dev, dma_addr_t addr, size_t size,
			   enum dma_data_direction dir, unsigned long attrs);
	void (*sync_single_for_cpu)(struct device *dev, dma_addr_t addr,
				    size_t size, enum dma_data_direction dir);
	void (*sync_single_for_device)(struct device *dev, dma_addr_t addr,
				       size_t size, enum dma_data_direction dir);
};

dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs);
void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs);
dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr, size_t size,
				enum dma_data_direction dir, unsigned long attrs);
void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs);
void __dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_data_direction dir);
void __dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				  size_t size, enum dma_data_direction dir);
int dma_mapping_error(struct device *dev, dma_addr_t dma_addr);
int dma_set_mask(struct device *dev, u64 mask);
int dma_set_coherent_mask(struct device *dev, u64 mask);

/* True if syncs on this device do anything: a non-coherent device, or any
 * device with DMA-API debug on (so the debug layer sees every sync, as
 * CONFIG_DMA_API_DEBUG does). */
static inline bool dma_dev_need_sync(const struct device *dev)
{
	return !READ_ONCE(dev->dma_skip_sync);
}

static inline void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr,
					   size_t size, enum dma_data_direction dir)
{
	if (dma_dev_need_sync(dev))
		__dma_sync_single_for_cpu(dev, addr, size, dir);
}

static inline void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
					      size_t size, enum dma_data_direction dir)
{
	if (dma_dev_need_sync(dev))
		__dma_sync_single_for_device(dev, addr, size, dir);
}

static inline void dma_sync_single_range_for_cpu(struct device *dev, dma_addr_t addr,
						 unsigned long offset, size_t size,
						 enum dma_data_direction dir)
{
	dma_sync_single_for_cpu(dev, addr + offset, size, dir);
}

static inline void dma_sync_single_range_for_device(struct device *dev, dma_addr_t addr,
						    unsigned long offset, size_t size,
						    enum dma_data_direction dir)
{
	dma_sync_single_for_device(dev, addr + offset, size, dir);
}

#define dma_map_page(d, p, o, s, r)	dma_map_page_attrs(d, p, o, s, r, 0)
#define dma_unmap_page(d, a, s, r)	dma_unmap_page_attrs(d, a, s, r, 0)
#define dma_map_single(d, a, s, r)	dma_map_single_attrs(d, a, s, r, 0)
#define dma_unmap_single(d, a, s, r)	dma_unmap_single_attrs(d, a, s, r, 0)

static inline int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	int rc = dma_set_mask(dev, mask);

	return rc ? rc : dma_set_coherent_mask(dev, mask);
}

/*
 * The alignment that keeps a DMA buffer off cache lines shared with other
 * data: what the kernel returns for the target. 1 on x86-64, whose DMA is
 * cache coherent (it does not define ARCH_DMA_MINALIGN); 128 on arm64,
 * whose non-coherent devices need buffers apart by its largest cache line
 * (<linux/cache.h>).
 */
static inline int dma_get_cache_alignment(void)
{
#ifdef ARCH_HAS_DMA_MINALIGN
	return ARCH_DMA_MINALIGN;
#endif
	return 1;
}

#endif /* _PP_LINUX_DMA_MAPPING_H */
