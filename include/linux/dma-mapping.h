/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The DMA API of <linux/dma-mapping.h> as of Linux v6.18: streaming maps
 * (single, page, phys, resource, scatterlists), coherent, non-coherent and
 * non-contiguous allocations, syncs, masks and device limits. Calls go
 * through the device's backend (direct or simulated IOMMU) and, when the
 * device was created with PP_DMA_DEBUG, through the DMA-API debug checks
 * (<pagepool/dma.h>). A struct device that pagepool did not create is a
 * coherent dma-direct device (<linux/device.h>).
 *
 * Error conventions are the kernel's:
 *   - dma_map_{page,single,phys,resource}*() return DMA_MAPPING_ERROR (test
 *     with dma_mapping_error()): out of IOVA space, beyond the DMA mask, a
 *     buffer outside the arena, an unbound device, PP_FAULT_DMA_MAP;
 *   - dma_map_sg*() return the number of DMA segments, 0 on any failure;
 *     dma_map_sgtable() returns 0 or -EINVAL (bad list or buffer), -ENOMEM
 *     (IOVA space, memory), -EIO (beyond the mask, unbound, injected fault);
 *   - dma_alloc_*() return NULL (and dma_alloc_noncontiguous() NULL).
 * Unmaps, frees and syncs take what the map or allocation returned.
 *
 * Where pagepool differs from the kernel, on purpose:
 *   - A device without dma_mask (dev->dma_mask == NULL: a zeroed struct
 *     device, the one in struct net_device) maps as if its mask were
 *     dma_get_mask()'s 32 bits; the kernel WARNs and fails such a map.
 *   - There is no swiotlb and there are no memory zones: a buffer the device
 *     cannot reach fails to map (the kernel would bounce it), and a
 *     coherent allocation landing above coherent_dma_mask fails (the kernel
 *     would retry from ZONE_DMA32/ZONE_DMA).
 *   - Mapping into a process (dma_mmap_*(), dma_can_mmap()) has no meaning
 *     in userspace, where there is no vm_area_struct to map into: those
 *     return -ENXIO / false. There is no PCI peer-to-peer memory either
 *     (dma_pci_p2pdma_supported() is false).
 *   - dma_map_sg() through the simulated IOMMU merges segments into fewer
 *     DMA segments as the kernel's IOMMU path does (one IOVA range for the
 *     list; a segment that starts at offset 0 of its page joins the previous
 *     one if that ended at a page end, up to dma_get_max_seg_size(), and
 *     never starting over a dma_get_seg_boundary() boundary). The kernel
 *     also pads the IOVA layout so that no single segment straddles a
 *     boundary; that padding is not modelled. The direct backend never
 *     merges (dma-direct does not).
 *
 * Context: any thread, including softirq, unless a function says otherwise.
 * Layer: dma.
 */
#ifndef _PP_LINUX_DMA_MAPPING_H
#define _PP_LINUX_DMA_MAPPING_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/types.h>

/* DMA attributes (the kernel's values). pagepool's backends honour
 * DMA_ATTR_NO_WARN (allocations) and DMA_ATTR_MMIO (dma_map_phys()); the
 * others change nothing in a simulator without caches or write combining,
 * and are accepted everywhere the kernel accepts them. */
#define DMA_ATTR_WEAK_ORDERING		(1UL << 1)
#define DMA_ATTR_WRITE_COMBINE		(1UL << 2)
#define DMA_ATTR_NO_KERNEL_MAPPING	(1UL << 4)
#define DMA_ATTR_SKIP_CPU_SYNC		(1UL << 5)
#define DMA_ATTR_FORCE_CONTIGUOUS	(1UL << 6)
#define DMA_ATTR_ALLOC_SINGLE_PAGES	(1UL << 7)
#define DMA_ATTR_NO_WARN		(1UL << 8)
#define DMA_ATTR_PRIVILEGED		(1UL << 9)
#define DMA_ATTR_MMIO			(1UL << 10)	/* v6.18: not RAM */

/* The address no successful map ever returns. Drivers test with
 * dma_mapping_error(), never against this value. */
#define DMA_MAPPING_ERROR		(~(dma_addr_t)0)

#define DMA_BIT_MASK(n)			(((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))

struct vm_area_struct;

/* A backend's public table. Implementations live in src/dma (direct,
 * iommu); their entries take the same checked path as the calls below. */
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

/* The kernel's CONFIG_DMA_API_DEBUG hooks that drivers may call. pagepool's
 * debug layer is per device (PP_DMA_DEBUG) and sits behind the calls
 * themselves, so these are the kernel's no-ops. */
static inline void debug_dma_mapping_error(struct device *dev, dma_addr_t dma_addr)
{
	(void)dev;
	(void)dma_addr;
}

static inline void debug_dma_map_single(struct device *dev, const void *addr,
					unsigned long len)
{
	(void)dev;
	(void)addr;
	(void)len;
}

/**
 * dma_mapping_error() - whether a map failed
 * @dev: the device
 * @dma_addr: what the map returned
 *
 * Context: any context.
 * Return: -ENOMEM if @dma_addr is DMA_MAPPING_ERROR, else 0.
 */
int dma_mapping_error(struct device *dev, dma_addr_t dma_addr);

/*
 * Streaming maps of one buffer: @size bytes at @offset into @page, inside
 * the page's block (compound page or allocation). The bus address, or
 * DMA_MAPPING_ERROR. The buffer belongs to the device until the unmap or a
 * sync for the CPU.
 */
/**
 * dma_map_page_attrs() - map part of a page for streaming DMA
 * @dev: the device
 * @page: the page
 * @offset: where the buffer starts in @page
 * @size: its length, inside the page's block
 * @dir: the direction
 * @attrs: DMA_ATTR_* (see above)
 *
 * Context: any context.
 * Return: the bus address, or DMA_MAPPING_ERROR (test with
 * dma_mapping_error()).
 */
dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs);
/**
 * dma_unmap_page_attrs() - unmap a streaming mapping of dma_map_page_attrs()
 * @dev: the device
 * @addr: the bus address the map returned
 * @size: the size mapped
 * @dir: the direction mapped
 * @attrs: DMA_ATTR_*
 *
 * A mismatch is a violation with DMA-API debug (<pagepool/dma.h>).
 *
 * Context: any context.
 */
void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs);
/* @ptr must be arena memory (page_address() of an allocation). */
/**
 * dma_map_single_attrs() - map a buffer by its CPU address for streaming DMA
 * @dev: the device
 * @ptr: the buffer: arena memory (page_address() of an allocation)
 * @size: its length
 * @dir: the direction
 * @attrs: DMA_ATTR_*
 *
 * Context: any context.
 * Return: the bus address, or DMA_MAPPING_ERROR.
 */
dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr, size_t size,
				enum dma_data_direction dir, unsigned long attrs);
/**
 * dma_unmap_single_attrs() - unmap a streaming mapping of dma_map_single_attrs()
 * @dev: the device
 * @addr: the bus address
 * @size: the size mapped
 * @dir: the direction mapped
 * @attrs: DMA_ATTR_*
 *
 * Context: any context.
 */
void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs);

/*
 * v6.18's physical-address maps. Without DMA_ATTR_MMIO, @phys must be RAM
 * (arena memory) and this is dma_map_page_attrs() of the page holding it;
 * with it, this is dma_map_resource(). DMA_MAPPING_ERROR on failure.
 * Unmap with the same @attrs.
 */
/**
 * dma_map_phys() - map a physical address (v6.18)
 * @dev: the device
 * @phys: the address: RAM (arena memory), or with DMA_ATTR_MMIO anything
 * @size: the length
 * @dir: the direction
 * @attrs: DMA_ATTR_*; DMA_ATTR_MMIO makes this dma_map_resource()
 *
 * Context: any context.
 * Return: the bus address, or DMA_MAPPING_ERROR.
 */
dma_addr_t dma_map_phys(struct device *dev, phys_addr_t phys, size_t size,
			enum dma_data_direction dir, unsigned long attrs);
/**
 * dma_unmap_phys() - unmap a mapping of dma_map_phys()
 * @dev: the device
 * @addr: the bus address
 * @size: the size mapped
 * @dir: the direction mapped
 * @attrs: the attributes it was mapped with
 *
 * Context: any context.
 */
void dma_unmap_phys(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, unsigned long attrs);

/*
 * Map a physical address that is not RAM (another device's registers, a
 * doorbell): the direct backend gives the address itself if it is within
 * the DMA mask (else WARN and DMA_MAPPING_ERROR), the IOMMU an IOVA. The
 * simulator has nothing behind such an address, so the simulated device
 * faults on it (pp_dma_device_read/write() return -EFAULT).
 */
/**
 * dma_map_resource() - map a physical address that is not RAM
 * @dev: the device
 * @phys_addr: the address (another device's registers, a doorbell)
 * @size: the length
 * @dir: the direction
 * @attrs: DMA_ATTR_*
 *
 * Context: any context.
 * Return: the bus address, or DMA_MAPPING_ERROR.
 */
dma_addr_t dma_map_resource(struct device *dev, phys_addr_t phys_addr,
			    size_t size, enum dma_data_direction dir,
			    unsigned long attrs);
/**
 * dma_unmap_resource() - unmap a mapping of dma_map_resource()
 * @dev: the device
 * @addr: the bus address
 * @size: the size mapped
 * @dir: the direction mapped
 * @attrs: DMA_ATTR_*
 *
 * Context: any context.
 */
void dma_unmap_resource(struct device *dev, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, unsigned long attrs);

/*
 * Scatter-gather maps of the @nents entries at @sg. dma_map_sg_attrs()
 * returns how many DMA segments it filled in (sg_dma_address(),
 * sg_dma_len() of the first ones; fewer than @nents when the IOMMU merged
 * segments), 0 on failure with nothing mapped. Unmap and sync with the
 * same @sg and @nents, not with the returned count.
 */
/**
 * dma_map_sg_attrs() - map a scatterlist
 * @dev: the device
 * @sg: the list
 * @nents: its entries
 * @dir: the direction
 * @attrs: DMA_ATTR_*
 *
 * Context: any context.
 * Return: the number of DMA segments filled in, 0 on failure (nothing
 * mapped).
 */
unsigned int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg,
			      int nents, enum dma_data_direction dir,
			      unsigned long attrs);
/**
 * dma_unmap_sg_attrs() - unmap a scatterlist
 * @dev: the device
 * @sg: the list
 * @nents: the count given to dma_map_sg_attrs() (not the one it returned)
 * @dir: the direction mapped
 * @attrs: DMA_ATTR_*
 *
 * Context: any context.
 */
void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir, unsigned long attrs);
/**
 * dma_map_sgtable() - map an sg_table
 * @dev: the device
 * @sgt: the table: its orig_nents entries are mapped, nents is set to the
 *	DMA segment count
 * @dir: the direction
 * @attrs: DMA_ATTR_*
 *
 * Context: any context.
 * Return: 0; -EINVAL (empty or invalid list, buffer outside the arena);
 * -ENOMEM (IOVA space or memory exhausted; may succeed later); -EIO
 * (beyond the DMA mask, unbound device, PP_FAULT_DMA_MAP).
 */
int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs);

/*
 * Coherent allocations: @size bytes of zeroed memory from the arena (a
 * block of get_order(@size)), mapped for both directions through the
 * device's backend below coherent_dma_mask, for descriptor rings and the
 * like. The CPU address, with the bus address in *@dma_handle, or NULL:
 * @size 0, no memory (the page allocator warns unless DMA_ATTR_NO_WARN or
 * __GFP_NOWARN), out of IOVA space, above the mask (or no coherent mask:
 * a WARN, as in the kernel), unbound device, PP_FAULT_DMA_MAP. __GFP_COMP
 * is refused with a WARN, as in the kernel. Free with the same size and
 * both addresses; freeing NULL does nothing. With DMA-API debug, a free
 * that does not match the allocation is reported (<pagepool/dma.h>) and
 * frees what was allocated, or nothing if it names no allocation.
 */
/**
 * dma_alloc_attrs() - allocate coherent memory
 * @dev: the device
 * @size: bytes wanted
 * @dma_handle: set to the bus address
 * @flag: GFP flags
 * @attrs: DMA_ATTR_*
 *
 * Context: process context, or atomic with GFP_ATOMIC.
 * Return: the CPU address, or NULL (see above).
 */
void *dma_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		      gfp_t flag, unsigned long attrs);
/**
 * dma_free_attrs() - free coherent memory
 * @dev: the device
 * @size: the size allocated
 * @cpu_addr: the CPU address (NULL: nothing is done)
 * @dma_handle: the bus address
 * @attrs: DMA_ATTR_*
 *
 * Context: any context but hard interrupt.
 */
void dma_free_attrs(struct device *dev, size_t size, void *cpu_addr,
		    dma_addr_t dma_handle, unsigned long attrs);

/*
 * Managed coherent allocations (devres): as dma_alloc_attrs(), and freed
 * by the driver unbind (device_release_driver()) if the driver did not
 * free them first with dmam_free_coherent() (which WARNs, and frees
 * nothing, for memory that is not a managed allocation of @dev: after the
 * unbind released it, for one). A device pagepool did not create has no
 * driver binding to tie the memory to: dmam_alloc_attrs() returns NULL.
 */
/**
 * dmam_alloc_attrs() - allocate managed coherent memory
 * @dev: the device
 * @size: bytes wanted
 * @dma_handle: set to the bus address
 * @gfp: GFP flags
 * @attrs: DMA_ATTR_*
 *
 * Context: process context.
 * Return: the CPU address, or NULL (as dma_alloc_attrs(), and for a device
 * pagepool did not create).
 */
void *dmam_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		       gfp_t gfp, unsigned long attrs);
/**
 * dmam_free_coherent() - free managed coherent memory before the unbind
 * @dev: the device
 * @size: the size allocated
 * @vaddr: the CPU address
 * @dma_handle: the bus address
 *
 * Context: process context.
 */
void dmam_free_coherent(struct device *dev, size_t size, void *vaddr,
			dma_addr_t dma_handle);

/**
 * dma_get_sgtable_attrs() - a one-entry sg_table for a coherent allocation
 * @dev: the device
 * @sgt: filled in; free with sg_free_table()
 * @cpu_addr: the allocation's CPU address
 * @dma_addr: its bus address
 * @size: its size
 * @attrs: DMA_ATTR_*
 *
 * The memory is always contiguous here.
 *
 * Context: process context.
 * Return: 0, -ENXIO if @cpu_addr is not arena memory, -ENOMEM.
 */
int dma_get_sgtable_attrs(struct device *dev, struct sg_table *sgt,
			  void *cpu_addr, dma_addr_t dma_addr, size_t size,
			  unsigned long attrs);
/**
 * dma_mmap_attrs() - map coherent memory into user space
 * @dev: the device
 * @vma: the user mapping
 * @cpu_addr: the allocation's CPU address
 * @dma_addr: its bus address
 * @size: its size
 * @attrs: DMA_ATTR_*
 *
 * No meaning in userspace (no vm_area_struct).
 *
 * Context: process context.
 * Return: -ENXIO.
 */
int dma_mmap_attrs(struct device *dev, struct vm_area_struct *vma,
		   void *cpu_addr, dma_addr_t dma_addr, size_t size,
		   unsigned long attrs);
/**
 * dma_can_mmap() - whether dma_mmap_attrs() works
 * @dev: the device
 *
 * Context: any context.
 * Return: false (see dma_mmap_attrs()).
 */
bool dma_can_mmap(struct device *dev);
/**
 * dma_pci_p2pdma_supported() - whether the device can do PCI peer-to-peer DMA
 * @dev: the device
 *
 * Context: any context.
 * Return: false: the simulator has no PCI peer-to-peer memory.
 */
bool dma_pci_p2pdma_supported(struct device *dev);

/* Masks. 0, or -EIO if @mask is below 24 bits (what the platform cannot
 * honour) or, for dma_set_mask(), @dev has no dma_mask. */
/**
 * dma_set_mask() - set the streaming DMA mask
 * @dev: the device
 * @mask: the mask (DMA_BIT_MASK())
 *
 * Context: process context.
 * Return: 0, or -EIO if @mask is below 24 bits or @dev has no dma_mask.
 */
int dma_set_mask(struct device *dev, u64 mask);
/**
 * dma_set_coherent_mask() - set the coherent DMA mask
 * @dev: the device
 * @mask: the mask
 *
 * Context: process context.
 * Return: 0, or -EIO if @mask is below 24 bits.
 */
int dma_set_coherent_mask(struct device *dev, u64 mask);
/**
 * dma_get_required_mask() - the smallest mask that reaches all memory
 * @dev: the device
 *
 * Context: any context.
 * Return: the arena's highest physical address for the direct backend, 32
 * bits behind the IOMMU.
 */
u64 dma_get_required_mask(struct device *dev);
/**
 * dma_addressing_limited() - whether the device cannot reach all memory
 * @dev: the device
 *
 * Context: any context.
 * Return: true if the DMA mask (or bus limit) cannot reach all memory.
 */
bool dma_addressing_limited(struct device *dev);
/**
 * dma_max_mapping_size() - the largest single mapping
 * @dev: the device
 *
 * Context: any context.
 * Return: SIZE_MAX direct, 8 MiB through the simulated IOMMU (its
 * page-table format).
 */
size_t dma_max_mapping_size(struct device *dev);
/**
 * dma_opt_mapping_size() - the largest mapping that takes no slow path
 * @dev: the device
 *
 * Context: any context.
 * Return: one page through the IOMMU (its per-thread IOVA caches hold
 * single pages), else as dma_max_mapping_size().
 */
size_t dma_opt_mapping_size(struct device *dev);
/**
 * dma_get_merge_boundary() - the boundary at which the device's IOMMU merges segments
 * @dev: the device
 *
 * Context: any context.
 * Return: PAGE_SIZE - 1 through the IOMMU (it merges at page
 * granularity), 0 (never merges) direct.
 */
unsigned long dma_get_merge_boundary(struct device *dev);

/*
 * Non-contiguous allocations. pagepool always gives one contiguous block
 * (the kernel's path without an IOMMU): a one-entry sg_table, mapped for
 * @dir, nents == 1. NULL on failure; attrs other than
 * DMA_ATTR_ALLOC_SINGLE_PAGES and __GFP_COMP are refused with a WARN.
 * dma_vmap_noncontiguous() gives the block's address; vunmap does
 * nothing; dma_mmap_noncontiguous() is -ENXIO (see dma_mmap_attrs()).
 */
/**
 * dma_alloc_noncontiguous() - allocate memory for DMA that needs no contiguity
 * @dev: the device
 * @size: bytes wanted
 * @dir: the direction it is mapped for
 * @gfp: GFP flags
 * @attrs: 0 or DMA_ATTR_ALLOC_SINGLE_PAGES
 *
 * Context: process context.
 * Return: a one-entry sg_table, or NULL.
 */
struct sg_table *dma_alloc_noncontiguous(struct device *dev, size_t size,
					 enum dma_data_direction dir, gfp_t gfp,
					 unsigned long attrs);
/**
 * dma_free_noncontiguous() - free memory of dma_alloc_noncontiguous()
 * @dev: the device
 * @size: the size allocated
 * @sgt: the table it returned
 * @dir: the direction
 *
 * Context: process context.
 */
void dma_free_noncontiguous(struct device *dev, size_t size,
			    struct sg_table *sgt, enum dma_data_direction dir);
/**
 * dma_vmap_noncontiguous() - a CPU address for memory of dma_alloc_noncontiguous()
 * @dev: the device
 * @size: the size allocated
 * @sgt: the table
 *
 * Context: process context.
 * Return: the block's address.
 */
void *dma_vmap_noncontiguous(struct device *dev, size_t size,
			     struct sg_table *sgt);
/**
 * dma_vunmap_noncontiguous() - undo dma_vmap_noncontiguous() (nothing to do)
 * @dev: the device
 * @vaddr: the address
 *
 * Context: process context.
 */
void dma_vunmap_noncontiguous(struct device *dev, void *vaddr);
/**
 * dma_mmap_noncontiguous() - map memory of dma_alloc_noncontiguous() into user space
 * @dev: the device
 * @vma: the user mapping
 * @size: the size allocated
 * @sgt: the table
 *
 * Context: process context.
 * Return: -ENXIO (see dma_mmap_attrs()).
 */
int dma_mmap_noncontiguous(struct device *dev, struct vm_area_struct *vma,
			   size_t size, struct sg_table *sgt);

/* Syncs: hand a streaming mapping to the CPU or back to the device. */
/**
 * __dma_sync_single_for_cpu() - hand a streaming mapping to the CPU
 * @dev: the device
 * @addr: a bus address inside a live mapping
 * @size: the length synced
 * @dir: the direction mapped
 *
 * What dma_sync_single_for_cpu() calls when the device needs syncs.
 *
 * Context: any context.
 */
void __dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_data_direction dir);
/**
 * __dma_sync_single_for_device() - hand a streaming mapping back to the device
 * @dev: the device
 * @addr: a bus address inside a live mapping
 * @size: the length synced
 * @dir: the direction mapped
 *
 * Context: any context.
 */
void __dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				  size_t size, enum dma_data_direction dir);
/**
 * __dma_sync_sg_for_cpu() - hand a mapped scatterlist to the CPU
 * @dev: the device
 * @sg: the list
 * @nelems: the count given to dma_map_sg()
 * @dir: the direction mapped
 *
 * Context: any context.
 */
void __dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg,
			   int nelems, enum dma_data_direction dir);
/**
 * __dma_sync_sg_for_device() - hand a mapped scatterlist back to the device
 * @dev: the device
 * @sg: the list
 * @nelems: the count given to dma_map_sg()
 * @dir: the direction mapped
 *
 * Context: any context.
 */
void __dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
			      int nelems, enum dma_data_direction dir);
/**
 * __dma_need_sync() - whether syncs of a mapping do something
 * @dev: the device
 * @dma_addr: the bus address
 *
 * Context: any context.
 * Return: true for a non-coherent device, or the IOMMU backend (the
 * kernel answers true for any IOMMU device).
 */
bool __dma_need_sync(struct device *dev, dma_addr_t dma_addr);

/* True if syncs on this device must be called: a non-coherent device, any
 * device with DMA-API debug on (so the debug layer sees every sync, as
 * CONFIG_DMA_API_DEBUG does), and a device nobody set up (dma_skip_sync
 * false, as in the kernel before a driver probes). */
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

/* Sync the DMA segments of a mapped list; @nelems is the count given to
 * dma_map_sg(), not the one it returned. */
static inline void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg,
				       int nelems, enum dma_data_direction dir)
{
	if (dma_dev_need_sync(dev))
		__dma_sync_sg_for_cpu(dev, sg, nelems, dir);
}

static inline void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
					  int nelems, enum dma_data_direction dir)
{
	if (dma_dev_need_sync(dev))
		__dma_sync_sg_for_device(dev, sg, nelems, dir);
}

/* True if the driver must sync @dma_addr (page_pool asks to skip syncs). */
static inline bool dma_need_sync(struct device *dev, dma_addr_t dma_addr)
{
	return dma_dev_need_sync(dev) ? __dma_need_sync(dev, dma_addr) : false;
}

/*
 * Pages for streaming DMA that stay mapped (the kernel's "non-coherent"
 * allocations): a zeroed non-compound block of get_order(@size) mapped for
 * @dir (below coherent_dma_mask direct, below the DMA mask through the
 * IOMMU, as the kernel's two paths do). The first page, or NULL. The
 * driver syncs them like any streaming mapping. __GFP_COMP and the zone
 * flags are refused with a WARN.
 */
/**
 * dma_alloc_pages() - allocate pages for streaming DMA that stay mapped
 * @dev: the device
 * @size: bytes wanted
 * @dma_handle: set to the bus address
 * @dir: the direction they are mapped for
 * @gfp: GFP flags (no __GFP_COMP, no zone flags)
 *
 * Context: process context, or atomic with GFP_ATOMIC.
 * Return: the first page, or NULL.
 */
struct page *dma_alloc_pages(struct device *dev, size_t size,
			     dma_addr_t *dma_handle, enum dma_data_direction dir,
			     gfp_t gfp);
/**
 * dma_free_pages() - free pages of dma_alloc_pages()
 * @dev: the device
 * @size: the size allocated
 * @page: the first page
 * @dma_handle: the bus address
 * @dir: the direction
 *
 * Context: any context but hard interrupt.
 */
void dma_free_pages(struct device *dev, size_t size, struct page *page,
		    dma_addr_t dma_handle, enum dma_data_direction dir);
/**
 * dma_mmap_pages() - map pages of dma_alloc_pages() into user space
 * @dev: the device
 * @vma: the user mapping
 * @size: the size allocated
 * @page: the first page
 *
 * Context: process context.
 * Return: -ENXIO (see dma_mmap_attrs()).
 */
int dma_mmap_pages(struct device *dev, struct vm_area_struct *vma,
		   size_t size, struct page *page);

static inline void *dma_alloc_noncoherent(struct device *dev, size_t size,
					  dma_addr_t *dma_handle,
					  enum dma_data_direction dir, gfp_t gfp)
{
	struct page *page = dma_alloc_pages(dev, size, dma_handle, dir, gfp);

	return page ? page_address(page) : NULL;
}

static inline void dma_free_noncoherent(struct device *dev, size_t size,
					void *vaddr, dma_addr_t dma_handle,
					enum dma_data_direction dir)
{
	dma_free_pages(dev, size, virt_to_page(vaddr), dma_handle, dir);
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

/* Unmap @sgt (all its orig_nents entries). */
static inline void dma_unmap_sgtable(struct device *dev, struct sg_table *sgt,
				     enum dma_data_direction dir, unsigned long attrs)
{
	dma_unmap_sg_attrs(dev, sgt->sgl, (int)sgt->orig_nents, dir, attrs);
}

static inline void dma_sync_sgtable_for_cpu(struct device *dev, struct sg_table *sgt,
					    enum dma_data_direction dir)
{
	dma_sync_sg_for_cpu(dev, sgt->sgl, (int)sgt->orig_nents, dir);
}

static inline void dma_sync_sgtable_for_device(struct device *dev, struct sg_table *sgt,
					       enum dma_data_direction dir)
{
	dma_sync_sg_for_device(dev, sgt->sgl, (int)sgt->orig_nents, dir);
}

#define dma_map_single(d, a, s, r)	dma_map_single_attrs(d, a, s, r, 0)
#define dma_unmap_single(d, a, s, r)	dma_unmap_single_attrs(d, a, s, r, 0)
#define dma_map_sg(d, s, n, r)		dma_map_sg_attrs(d, s, n, r, 0)
#define dma_unmap_sg(d, s, n, r)	dma_unmap_sg_attrs(d, s, n, r, 0)
#define dma_map_page(d, p, o, s, r)	dma_map_page_attrs(d, p, o, s, r, 0)
#define dma_unmap_page(d, a, s, r)	dma_unmap_page_attrs(d, a, s, r, 0)
#define dma_get_sgtable(d, t, v, h, s)	dma_get_sgtable_attrs(d, t, v, h, s, 0)
#define dma_mmap_coherent(d, v, c, h, s) dma_mmap_attrs(d, v, c, h, s, 0)

/**
 * dma_coherent_ok() - whether a physical range suits coherent memory
 * @dev: the device
 * @phys: the start
 * @size: the length
 *
 * The direct backend's test for coherent memory.
 *
 * Context: any context.
 * Return: true if [@phys, @phys + @size) is reachable under the coherent
 * mask and the bus limit.
 */
bool dma_coherent_ok(struct device *dev, phys_addr_t phys, size_t size);

static inline void *dma_alloc_coherent(struct device *dev, size_t size,
				       dma_addr_t *dma_handle, gfp_t gfp)
{
	return dma_alloc_attrs(dev, size, dma_handle, gfp,
			       (gfp & __GFP_NOWARN) ? DMA_ATTR_NO_WARN : 0);
}

static inline void dma_free_coherent(struct device *dev, size_t size,
				     void *cpu_addr, dma_addr_t dma_handle)
{
	dma_free_attrs(dev, size, cpu_addr, dma_handle, 0);
}

/* The streaming mask; 32 bits when the device has none set. */
static inline u64 dma_get_mask(struct device *dev)
{
	if (dev->dma_mask && *dev->dma_mask)
		return *dev->dma_mask;
	return DMA_BIT_MASK(32);
}

/* Both masks. The coherent mask is set only if the streaming one was
 * accepted, and may not fail after it (the kernel's guarantee); the
 * result is dma_set_mask()'s. */
static inline int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	int rc = dma_set_mask(dev, mask);

	if (rc == 0)
		dma_set_coherent_mask(dev, mask);
	return rc;
}

/* As dma_set_mask_and_coherent(), for a device whose dma_mask pointer was
 * never set up: it is pointed at coherent_dma_mask first. */
static inline int dma_coerce_mask_and_coherent(struct device *dev, u64 mask)
{
	dev->dma_mask = &dev->coherent_dma_mask;
	return dma_set_mask_and_coherent(dev, mask);
}

/* Segment limits from dev->dma_parms: pagepool's devices have them (64 KiB
 * segments within 4 GiB boundaries, as a PCI device's); a device without
 * them gets the kernel's defaults (64 KiB, no boundary), and setting them
 * WARNs and does nothing. */
static inline unsigned int dma_get_max_seg_size(struct device *dev)
{
	if (dev->dma_parms && dev->dma_parms->max_segment_size)
		return dev->dma_parms->max_segment_size;
	return SZ_64K;
}

static inline void dma_set_max_seg_size(struct device *dev, unsigned int size)
{
	if (WARN_ON_ONCE(!dev->dma_parms))
		return;
	dev->dma_parms->max_segment_size = size;
}

static inline unsigned long dma_get_seg_boundary(struct device *dev)
{
	if (dev->dma_parms && dev->dma_parms->segment_boundary_mask)
		return dev->dma_parms->segment_boundary_mask;
	return ULONG_MAX;
}

/* The boundary in units of 2^@page_shift bytes; NULL @dev: 4 GiB. */
static inline unsigned long dma_get_seg_boundary_nr_pages(struct device *dev,
							  unsigned int page_shift)
{
	if (!dev)
		return (U32_MAX >> page_shift) + 1;
	return (dma_get_seg_boundary(dev) >> page_shift) + 1;
}

static inline void dma_set_seg_boundary(struct device *dev, unsigned long mask)
{
	if (WARN_ON_ONCE(!dev->dma_parms))
		return;
	dev->dma_parms->segment_boundary_mask = mask;
}

static inline unsigned int dma_get_min_align_mask(struct device *dev)
{
	if (dev->dma_parms)
		return dev->dma_parms->min_align_mask;
	return 0;
}

static inline void dma_set_min_align_mask(struct device *dev,
					  unsigned int min_align_mask)
{
	if (WARN_ON_ONCE(!dev->dma_parms))
		return;
	dev->dma_parms->min_align_mask = min_align_mask;
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

#ifdef ARCH_HAS_DMA_MINALIGN
#define ____dma_from_device_aligned	__aligned(ARCH_DMA_MINALIGN)
#else
#define ____dma_from_device_aligned
#endif
/* Mark the start and end of a DMA_FROM_DEVICE buffer inside a struct. */
#define __dma_from_device_group_begin(GROUP)			\
	__cacheline_group_begin(GROUP) ____dma_from_device_aligned
#define __dma_from_device_group_end(GROUP)			\
	__cacheline_group_end(GROUP) ____dma_from_device_aligned

static inline void *dmam_alloc_coherent(struct device *dev, size_t size,
					dma_addr_t *dma_handle, gfp_t gfp)
{
	return dmam_alloc_attrs(dev, size, dma_handle, gfp,
				(gfp & __GFP_NOWARN) ? DMA_ATTR_NO_WARN : 0);
}

/* Write-combined coherent memory: coherent memory here (no caches). */
static inline void *dma_alloc_wc(struct device *dev, size_t size,
				 dma_addr_t *dma_addr, gfp_t gfp)
{
	unsigned long attrs = DMA_ATTR_WRITE_COMBINE;

	if (gfp & __GFP_NOWARN)
		attrs |= DMA_ATTR_NO_WARN;
	return dma_alloc_attrs(dev, size, dma_addr, gfp, attrs);
}

static inline void dma_free_wc(struct device *dev, size_t size,
			       void *cpu_addr, dma_addr_t dma_addr)
{
	dma_free_attrs(dev, size, cpu_addr, dma_addr, DMA_ATTR_WRITE_COMBINE);
}

/* -ENXIO: see dma_mmap_attrs(). */
static inline int dma_mmap_wc(struct device *dev, struct vm_area_struct *vma,
			      void *cpu_addr, dma_addr_t dma_addr, size_t size)
{
	return dma_mmap_attrs(dev, vma, cpu_addr, dma_addr, size,
			      DMA_ATTR_WRITE_COMBINE);
}

/* Unmap state a driver keeps per buffer: real fields, as on x86-64 and
 * arm64 (CONFIG_NEED_DMA_MAP_STATE). */
#ifdef CONFIG_NEED_DMA_MAP_STATE
#define DEFINE_DMA_UNMAP_ADDR(ADDR_NAME)		dma_addr_t ADDR_NAME
#define DEFINE_DMA_UNMAP_LEN(LEN_NAME)			__u32 LEN_NAME
#define dma_unmap_addr(PTR, ADDR_NAME)			((PTR)->ADDR_NAME)
#define dma_unmap_addr_set(PTR, ADDR_NAME, VAL)		(((PTR)->ADDR_NAME) = (VAL))
#define dma_unmap_len(PTR, LEN_NAME)			((PTR)->LEN_NAME)
#define dma_unmap_len_set(PTR, LEN_NAME, VAL)		(((PTR)->LEN_NAME) = (VAL))
#else
#define DEFINE_DMA_UNMAP_ADDR(ADDR_NAME)
#define DEFINE_DMA_UNMAP_LEN(LEN_NAME)
#define dma_unmap_addr(PTR, ADDR_NAME)				\
	({ __typeof__(PTR) __p __maybe_unused = PTR; 0; })
#define dma_unmap_addr_set(PTR, ADDR_NAME, VAL)			\
	do { __typeof__(PTR) __p __maybe_unused = PTR; } while (0)
#define dma_unmap_len(PTR, LEN_NAME)				\
	({ __typeof__(PTR) __p __maybe_unused = PTR; 0; })
#define dma_unmap_len_set(PTR, LEN_NAME, VAL)			\
	do { __typeof__(PTR) __p __maybe_unused = PTR; } while (0)
#endif

#pragma GCC visibility pop
#endif /* _PP_LINUX_DMA_MAPPING_H */
