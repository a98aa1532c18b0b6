/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The streaming DMA API of single buffers (<linux/dma-mapping.h>: page,
 * single, phys and resource maps, their unmaps, syncs) and the device-side
 * access of <pagepool/dma.h>.
 *
 * Every call opens an op section (device.c), checks the binding, validates
 * its arguments, consults fault injection (maps), runs the DMA-API debug
 * checks around the backend when the device has PP_DMA_DEBUG, counts, and
 * finally calls the trace hook, outside the section so that a hook may
 * itself call the DMA API.
 *
 * What is reported where:
 *   - an invalid direction (DMA_NONE, garbage): always, as wrong direction
 *     (the kernel BUG()s); the call does nothing;
 *   - any call after unbind: as use after unbind on IOMMU devices and on
 *     debug devices (a direct mapping without debug keeps no state that
 *     could tell), and on every device after pp_device_destroy(); a map
 *     after unbind fails on every device;
 *   - bad map arguments (page outside the arena, size 0, range past the
 *     end of the page block): a WARN and a failed map, as they are caller
 *     bugs, not DMA-API misuse of a valid buffer.
 *
 * A device pagepool did not create (dev->pp == NULL, "bare") takes none of
 * the section machinery: it is the kernel's dma-direct for a coherent
 * device, so a map checks its arguments, fault injection and the mask and
 * returns the physical address, and unmaps and syncs have nothing to do.
 * Layer: dma.
 */
#include <errno.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <pagepool/runtime.h>

#include "dma_internal.h"

const char *const ppdma_op_verbs[] = {
	[PP_DMA_OP_MAP]			= "maps",
	[PP_DMA_OP_UNMAP]		= "unmaps",
	[PP_DMA_OP_SYNC_FOR_CPU]	= "syncs for cpu",
	[PP_DMA_OP_SYNC_FOR_DEVICE]	= "syncs for device",
};

noinline void ppdma_after_unbind(struct pp_dma_dev *d, enum pp_dma_op op,
				 dma_addr_t addr, size_t size)
{
	/* After pp_device_destroy() every backend can tell: nobody may use
	 * the device any more, so whatever still arrives is a late call
	 * (device.c keeps the memory for exactly this report). */
	if (!d->detect_unbind && !READ_ONCE(d->destroyed))
		return;
	ppdma_report(d, PP_DMA_V_USE_AFTER_UNBIND,
		     "device driver %s DMA memory through a device whose driver is unbound "
		     "[device address=0x%016llx] [size=%zu bytes]",
		     ppdma_op_verbs[op], (unsigned long long)addr, size);
}

noinline void ppdma_bad_dir(struct pp_dma_dev *d, enum pp_dma_op op,
			    dma_addr_t addr, size_t size,
			    enum dma_data_direction dir)
{
	ppdma_report(d, PP_DMA_V_WRONG_DIR,
		     "device driver %s DMA memory with an invalid direction "
		     "[device address=0x%016llx] [size=%zu bytes] [direction=%s (%d)]",
		     ppdma_op_verbs[op], (unsigned long long)addr, size,
		     ppdma_dir_name(dir), (int)dir);
}

/*
 * The bytes from @page to the end of the block it belongs to: the rest of
 * the compound page for a head or tail page; for the first page of a
 * non-compound block (which holds the reference count) the block, whose
 * order the page allocator records in it; else just the page.
 */
static size_t ppdma_block_room(const struct page *page)
{
	const struct page *head = compound_head(page);

	if (head != page || PageHead(page))
		return page_size(head) - (size_t)(page - head) * PAGE_SIZE;
	if (page_ref_count(page) > 0)
		return PAGE_SIZE << READ_ONCE(page->order);
	return PAGE_SIZE;
}

bool ppdma_map_args_ok(const struct device *dev, const struct page *page,
		       size_t offset, size_t size)
{
	const struct page *map = pp_mem_map.map;
	size_t room;

	if (WARN_ONCE(!page || page < map || page >= map + pp_mem_map.nr_pages,
		      "DMA-API: %s: mapping memory outside the arena [page=%p]",
		      dev_name(dev), page))
		return false;
	/* The block, but never past the end of the arena. */
	room = min_t(size_t, ppdma_block_room(page),
		     (size_t)(map + pp_mem_map.nr_pages - page) * PAGE_SIZE);
	if (WARN_ONCE(!size || offset >= room || size > room - offset,
		      "DMA-API: %s: mapping a bad range [pfn=0x%lx] [offset=%zu] [size=%zu]",
		      dev_name(dev), page_to_pfn(page), offset, size))
		return false;
	return true;
}

/* A resource is any physical range that does not wrap; it need not be
 * RAM, so the arena says nothing about it. */
static bool ppdma_resource_ok(const struct device *dev, phys_addr_t phys,
			      size_t size)
{
	return !WARN_ONCE(!size || phys + size - 1 < phys,
			  "DMA-API: %s: mapping a bad resource [phys=0x%016llx] [size=%zu]",
			  dev_name(dev), (unsigned long long)phys, size);
}

/*
 * A map on a bare device: dma-direct for a coherent device. The range
 * must lie below the limit (there is no swiotlb to bounce it). Bus address
 * 0 is never handed out: the arena's frames start above it, and a resource
 * at 0 fails.
 */
static dma_addr_t ppdma_bare_map(struct device *dev, phys_addr_t phys,
				 size_t size, enum dma_data_direction dir)
{
	if (unlikely(!valid_dma_direction(dir)))
		return DMA_MAPPING_ERROR;
	if (unlikely(!phys || phys + size - 1 > ppdma_stream_limit(dev)))
		return DMA_MAPPING_ERROR;
	return phys;
}

/*
 * Map a buffer on a device pagepool created: RAM as @page + @offset, or
 * (PPDMA_MAP_MMIO in @flags) the resource at @phys.
 */
static dma_addr_t ppdma_map(struct pp_dma_dev *d, struct page *page,
			    size_t offset, phys_addr_t phys, size_t size,
			    enum dma_data_direction dir, unsigned int flags,
			    enum ppdma_map_type type)
{
	dma_addr_t addr = DMA_MAPPING_ERROR;
	bool fail = pp_should_fail(PP_FAULT_DMA_MAP);
	struct ppdma_slot *s;

	if (!ppdma_op_begin_checked(d, PP_DMA_OP_MAP, addr, size, dir, &s))
		goto out;
	if (unlikely(fail))
		goto out;
	if (flags & PPDMA_MAP_MMIO) {
		if (unlikely(!ppdma_resource_ok(&d->dev, phys, size)))
			goto out;
	} else {
		if (unlikely(!ppdma_map_args_ok(&d->dev, page, offset, size)))
			goto out;
		phys = page_to_phys(page) + offset;
	}

	addr = d->be->map(d, phys, size, dir, ppdma_stream_limit(&d->dev), flags);
	if (unlikely(addr == DMA_MAPPING_ERROR))
		goto out;
	if (d->debug) {
		struct ppdma_ref ref = {
			.addr = addr, .size = size, .phys = phys, .dir = dir,
			.type = type,
		};

		/* No record, no mapping: an untracked mapping would later
		 * show up as an unknown unmap. */
		if (unlikely(ppdma_debug_map(d, &ref))) {
			d->be->unmap(d, addr, size);
			addr = DMA_MAPPING_ERROR;
		}
	}
out:
	ppdma_count(addr == DMA_MAPPING_ERROR ? &s->map_errors : &s->maps);
	ppdma_op_end(s);
	ppdma_trace(d, PP_DMA_OP_MAP, addr, size, dir);
	return addr;
}

static dma_addr_t ppdma_map_page(struct device *dev, struct page *page,
				 size_t offset, size_t size,
				 enum dma_data_direction dir)
{
	struct pp_dma_dev *d = to_ppdma(dev);

	if (likely(d))
		return ppdma_map(d, page, offset, 0, size, dir, 0, PPDMA_MAP_SINGLE);
	if (unlikely(pp_should_fail(PP_FAULT_DMA_MAP)) ||
	    unlikely(!ppdma_map_args_ok(dev, page, offset, size)))
		return DMA_MAPPING_ERROR;
	return ppdma_bare_map(dev, page_to_phys(page) + offset, size, dir);
}

dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	return ppdma_map_page(dev, page, offset, size, dir);
}

dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr, size_t size,
				enum dma_data_direction dir, unsigned long attrs)
{
	struct page *page = NULL;

	if (virt_addr_valid(ptr))
		page = virt_to_page(ptr);
	return ppdma_map_page(dev, page, offset_in_page(ptr), size, dir);
}

dma_addr_t dma_map_resource(struct device *dev, phys_addr_t phys_addr,
			    size_t size, enum dma_data_direction dir,
			    unsigned long attrs)
{
	struct pp_dma_dev *d = to_ppdma(dev);
	dma_addr_t addr;

	if (likely(d))
		return ppdma_map(d, NULL, 0, phys_addr, size, dir, PPDMA_MAP_MMIO,
				 PPDMA_MAP_RESOURCE);
	if (unlikely(pp_should_fail(PP_FAULT_DMA_MAP)) ||
	    unlikely(!ppdma_resource_ok(dev, phys_addr, size)))
		return DMA_MAPPING_ERROR;
	addr = ppdma_bare_map(dev, phys_addr, size, dir);
	/* dma-direct complains about a resource the device cannot reach. */
	WARN_ONCE(addr == DMA_MAPPING_ERROR && valid_dma_direction(dir),
		  "DMA-API: %s: resource [phys=0x%016llx] [size=%zu] beyond the DMA mask",
		  dev_name(dev), (unsigned long long)phys_addr, size);
	return addr;
}

dma_addr_t dma_map_phys(struct device *dev, phys_addr_t phys, size_t size,
			enum dma_data_direction dir, unsigned long attrs)
{
	unsigned long pfn = phys >> PAGE_SHIFT;

	if (attrs & DMA_ATTR_MMIO)
		return dma_map_resource(dev, phys, size, dir, attrs);
	/* RAM: only the arena's frames have a struct page; anything else
	 * fails as a map outside the arena. */
	return ppdma_map_page(dev, pfn_valid(pfn) ? pfn_to_page(pfn) : NULL,
			      offset_in_page(phys), size, dir);
}

static void ppdma_unmap(struct device *dev, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, enum ppdma_map_type type)
{
	struct pp_dma_dev *d = to_ppdma(dev);
	struct ppdma_slot *s;

	if (unlikely(!d))
		return;		/* dma-direct, coherent: nothing to undo */
	ppdma_before_unmap(d, addr, size);
	if (!ppdma_op_begin_checked(d, PP_DMA_OP_UNMAP, addr, size, dir, &s))
		goto out;
	/* Debug first: a double unmap must not reach the backend (it would
	 * free the IOVA twice), and the record must be gone before the
	 * backend frees the address for reuse by another map. */
	if (d->debug) {
		struct ppdma_ref ref = {
			.addr = addr, .size = size, .dir = dir, .type = type,
		};

		if (!ppdma_debug_unmap(d, &ref, NULL))
			goto out;
	}
	if (d->be->unmap(d, addr, size))
		ppdma_count(&s->unmaps);
out:
	ppdma_op_end(s);
	ppdma_trace(d, PP_DMA_OP_UNMAP, addr, size, dir);
}

void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs)
{
	ppdma_unmap(dev, addr, size, dir, PPDMA_MAP_SINGLE);
}

void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	ppdma_unmap(dev, addr, size, dir, PPDMA_MAP_SINGLE);
}

void dma_unmap_resource(struct device *dev, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, unsigned long attrs)
{
	ppdma_unmap(dev, addr, size, dir, PPDMA_MAP_RESOURCE);
}

void dma_unmap_phys(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, unsigned long attrs)
{
	ppdma_unmap(dev, addr, size, dir, (attrs & DMA_ATTR_MMIO) ?
		    PPDMA_MAP_RESOURCE : PPDMA_MAP_SINGLE);
}

static void ppdma_sync(struct device *dev, dma_addr_t addr, size_t size,
		       enum dma_data_direction dir, bool for_cpu)
{
	enum pp_dma_op op = for_cpu ? PP_DMA_OP_SYNC_FOR_CPU :
				      PP_DMA_OP_SYNC_FOR_DEVICE;
	struct pp_dma_dev *d = to_ppdma(dev);
	struct ppdma_slot *s;

	if (unlikely(!d))
		return;		/* coherent: no cache to maintain */
	if (!ppdma_op_begin_checked(d, op, addr, size, dir, &s))
		goto out;
	if (d->debug)
		ppdma_debug_sync(d, addr, size, dir, for_cpu);
	d->be->sync(d, addr, size, dir, for_cpu);
	ppdma_count(for_cpu ? &s->syncs_for_cpu : &s->syncs_for_device);
out:
	ppdma_op_end(s);
	ppdma_trace(d, op, addr, size, dir);
}

void __dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_data_direction dir)
{
	ppdma_sync(dev, addr, size, dir, true);
}

void __dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				  size_t size, enum dma_data_direction dir)
{
	ppdma_sync(dev, addr, size, dir, false);
}

dma_addr_t ppdma_ops_map_page(struct device *dev, struct page *page,
			      unsigned long offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	return dma_map_page_attrs(dev, page, offset, size, dir, attrs);
}

void ppdma_ops_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs)
{
	dma_unmap_page_attrs(dev, addr, size, dir, attrs);
}

int dma_mapping_error(struct device *dev, dma_addr_t dma_addr)
{
	return unlikely(dma_addr == DMA_MAPPING_ERROR) ? -ENOMEM : 0;
}

/*
 * Device-side access. The whole range is translated before any byte moves,
 * so a fault leaves memory untouched (-EFAULT; a device error, not DMA-API
 * misuse by the driver, so no violation is counted). Access after unbind
 * is the driver letting a dead device DMA: -ENODEV and use after unbind,
 * on every backend. A bare device has no IOMMU and no binding: it reaches
 * arena memory by physical address, as the direct backend's device does.
 *
 * An unmap racing with an access to the same range is the caller's bug, as
 * on hardware: the simulator does not wait for in-flight device accesses
 * when it clears the IO page table.
 */
static int ppdma_copy(const struct ppdma_backend *be, struct pp_dma_dev *d,
		      dma_addr_t addr, void *buf, size_t len, bool write)
{
	size_t off, room, n;
	void *cpu;
	int err;

	if (addr + len < addr)
		return -EFAULT;
	for (off = 0; off < len; off += room) {
		err = be->translate(d, addr + off, write, &cpu, &room);
		if (err)
			return err;
	}
	for (off = 0; off < len; off += n) {
		err = be->translate(d, addr + off, write, &cpu, &room);
		if (WARN_ON_ONCE(err))	/* the caller unmapped it meanwhile */
			return err;
		n = min(room, len - off);
		if (write)
			memcpy(cpu, (const char *)buf + off, n);
		else
			memcpy((char *)buf + off, cpu, n);
	}
	return 0;
}

static int ppdma_device_access(struct device *dev, dma_addr_t addr, void *buf,
			       size_t len, bool write)
{
	struct pp_dma_dev *d;
	struct ppdma_slot *s;
	bool bound;
	int err;

	/* Caller bugs, not DMA: no device, or no buffer for a real copy. */
	if (IS_ERR_OR_NULL(dev) || (!buf && len))
		return -EINVAL;
	d = to_ppdma(dev);
	if (!d)
		return ppdma_copy(&ppdma_direct_backend, NULL, addr, buf, len, write);
	s = ppdma_op_begin(d, &bound);
	if (unlikely(!bound)) {
		ppdma_op_end(s);
		ppdma_report(d, PP_DMA_V_USE_AFTER_UNBIND,
			     "device %s DMA memory after its driver was unbound "
			     "[device address=0x%016llx] [size=%zu bytes]",
			     write ? "writes" : "reads", (unsigned long long)addr, len);
		return -ENODEV;
	}
	err = ppdma_copy(d->be, d, addr, buf, len, write);
	ppdma_op_end(s);
	return err;
}

int pp_dma_device_write(struct device *dev, dma_addr_t addr, const void *src,
			size_t len)
{
	return ppdma_device_access(dev, addr, (void *)src, len, true);
}

int pp_dma_device_read(struct device *dev, dma_addr_t addr, void *dst,
		       size_t len)
{
	return ppdma_device_access(dev, addr, dst, len, false);
}
