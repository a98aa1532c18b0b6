/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The window backend (PP_DMA_WINDOW, pp_device_create_window()): a device
 * that reaches one window of arena memory, [base, base + len), and whose
 * bus address of a byte there is its offset from base. That is how an
 * AF_XDP socket sees its UMEM (a descriptor's address is an offset into
 * it), or a device behind a fixed aperture: the bus address is a function
 * of the CPU address alone, with no per-binding state, as for the direct
 * backend, but memory outside the window cannot be mapped at all (the map
 * fails with DMA_MAPPING_ERROR, counted as a map error, nothing recorded
 * by the debug layer), and bus address 0 is the window's first byte.
 *
 * The window is fixed at creation (d->win_base, d->win_len; base and len
 * page-aligned, inside the arena) and read without synchronisation by the
 * ops, after the creation published the device. As for the direct
 * backend, unmap and sync translate nothing, and the device reaches its
 * whole window whether mapped or not (a device without an IOMMU inside
 * its aperture); a scatterlist's physically contiguous entries merge into
 * one DMA segment (their bus addresses are contiguous too), within the
 * device's maximum segment size and segment boundary.
 * Layer: dma.
 */
#include <errno.h>
#include <stdint.h>

#include <linux/mm.h>

#include "dma_internal.h"

/* No per-binding state: the window is the device's, not the binding's. */
static int window_attach(struct pp_dma_dev *d)
{
	return 0;
}

static void window_detach(struct pp_dma_dev *d)
{
}

/* The bus address of physical address @phys if [@phys, +@size) lies in
 * @d's window, else DMA_MAPPING_ERROR. Any @phys: one below the arena's
 * frames wraps to an offset past the window. */
static dma_addr_t window_addr(const struct pp_dma_dev *d, phys_addr_t phys, size_t size)
{
	unsigned long cpu = pp_mem_map.base + (unsigned long)(phys - (PP_PFN_OFFSET << PAGE_SHIFT));
	unsigned long off = cpu - d->win_base;

	if (unlikely(!size || off >= d->win_len || size > d->win_len - off))
		return DMA_MAPPING_ERROR;
	return off;
}

/* A resource (MMIO) is never in a window of RAM. */
static dma_addr_t window_map(struct pp_dma_dev *d, phys_addr_t phys, size_t size,
			     enum dma_data_direction dir, u64 mask, unsigned int flags)
{
	dma_addr_t addr;

	if (unlikely(flags & PPDMA_MAP_MMIO))
		return DMA_MAPPING_ERROR;
	addr = window_addr(d, phys, size);
	if (unlikely(addr == DMA_MAPPING_ERROR || addr + size - 1 > mask))
		return DMA_MAPPING_ERROR;
	return addr;
}

/* Nothing to undo; an address the window could not have handed out is
 * not counted as an unmap. */
static bool window_unmap(struct pp_dma_dev *d, dma_addr_t addr, size_t size)
{
	return addr < d->win_len && size <= d->win_len - addr;
}

/*
 * All entries must lie in the window (and below @mask), else -EIO with
 * nothing mapped; then the DMA segments, written in place (the segment
 * being filled never runs ahead of the entry being read): an entry joins
 * the open segment when its bus address continues it, the sum stays
 * within the maximum segment size and the segment does not cross a
 * segment boundary.
 */
static int window_map_sg(struct pp_dma_dev *d, struct scatterlist *sgl, int nents,
			 enum dma_data_direction dir, u64 mask)
{
	unsigned long seg_mask = dma_get_seg_boundary(&d->dev);
	u64 max_seg = dma_get_max_seg_size(&d->dev);
	struct scatterlist *s, *cur = NULL;
	dma_addr_t addr, cur_addr = 0;
	u64 cur_len = 0;
	int i, count = 0;

	for_each_sg(sgl, s, nents, i) {
		addr = window_map(d, sg_phys(s), s->length, dir, mask, 0);
		if (addr == DMA_MAPPING_ERROR)
			return -EIO;
	}
	for_each_sg(sgl, s, nents, i) {
		addr = window_addr(d, sg_phys(s), s->length);
		if (cur && addr == cur_addr + cur_len && cur_len + s->length <= max_seg &&
		    !((cur_addr ^ (addr + s->length - 1)) & ~(dma_addr_t)seg_mask)) {
			cur_len += s->length;
		} else {
			cur = cur ? sg_next(cur) : sgl;
			cur_addr = addr;
			cur_len = s->length;
			sg_dma_address(cur) = addr;
			count++;
		}
		sg_dma_len(cur) = (unsigned int)cur_len;
	}
	/* The entries past the last segment say so with length 0. */
	for (i = count, s = cur; i < nents; i++) {
		s = sg_next(s);
		sg_dma_address(s) = DMA_MAPPING_ERROR;
		sg_dma_len(s) = 0;
	}
	return count;
}

static void window_sync(struct pp_dma_dev *d, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, bool for_cpu)
{
}

static int window_translate(struct pp_dma_dev *d, dma_addr_t addr, bool write,
			    void **cpu, size_t *room)
{
	if (addr >= d->win_len)
		return -EFAULT;
	*cpu = (void *)(d->win_base + (unsigned long)addr);
	*room = PAGE_SIZE - offset_in_page(addr);
	return 0;
}

static const struct dma_map_ops window_dma_ops = {
	.name			= "window",
	.map_page		= ppdma_ops_map_page,
	.unmap_page		= ppdma_ops_unmap_page,
	.sync_single_for_cpu	= __dma_sync_single_for_cpu,
	.sync_single_for_device	= __dma_sync_single_for_device,
};

/* The window bounds every mapping; merging is of contiguous bytes, not at
 * a page boundary the block layer could rely on (0); coherent unless
 * PP_DMA_NONCOHERENT; bus addresses are translated (offsets), so the
 * required mask is the 32 bits of a window below 4 GiB. The segment unmap
 * is the single one per segment (map_sg.c). */
const struct ppdma_backend ppdma_window_backend = {
	.type		= PP_DMA_WINDOW,
	.ops		= &window_dma_ops,
	.max_mapping_size = SIZE_MAX,
	.opt_mapping_size = SIZE_MAX,
	.merge_boundary	= 0,
	.need_sync	= false,
	.remaps		= true,
	.attach		= window_attach,
	.detach		= window_detach,
	.map		= window_map,
	.unmap		= window_unmap,
	.map_sg		= window_map_sg,
	.sync		= window_sync,
	.translate	= window_translate,
};
