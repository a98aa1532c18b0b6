/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The streaming DMA API (<linux/dma-mapping.h>) and the device-side access
 * of <pagepool/dma.h>.
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
 *     could tell); a map after unbind fails on every device;
 *   - bad map arguments (page outside the arena, size 0, range past the
 *     end of the page block): a WARN and a failed map, as they are caller
 *     bugs, not DMA-API misuse of a valid buffer.
 * Layer: dma.
 */
#include <errno.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/mm.h>
#include <pagepool/runtime.h>

#include "dma_internal.h"

static inline void ppdma_trace(struct pp_dma_dev *d, enum pp_dma_op op,
			       dma_addr_t addr, size_t size,
			       enum dma_data_direction dir)
{
	/* Paired with the release store in pp_dma_set_trace(). */
	pp_dma_trace_fn fn = __atomic_load_n(&d->trace, __ATOMIC_ACQUIRE);

	if (unlikely(fn))
		fn(&d->dev, op, addr, size, dir, READ_ONCE(d->trace_arg));
}

static const char *const ppdma_op_verbs[] = {
	[PP_DMA_OP_MAP]			= "maps",
	[PP_DMA_OP_UNMAP]		= "unmaps",
	[PP_DMA_OP_SYNC_FOR_CPU]	= "syncs for cpu",
	[PP_DMA_OP_SYNC_FOR_DEVICE]	= "syncs for device",
};

static noinline void ppdma_after_unbind(struct pp_dma_dev *d, enum pp_dma_op op,
					dma_addr_t addr, size_t size)
{
	if (!d->detect_unbind)
		return;
	ppdma_report(d, PP_DMA_V_USE_AFTER_UNBIND,
		     "device driver %s DMA memory through a device whose driver is unbound "
		     "[device address=0x%016llx] [size=%zu bytes]",
		     ppdma_op_verbs[op], (unsigned long long)addr, size);
}

static noinline void ppdma_bad_dir(struct pp_dma_dev *d, enum pp_dma_op op,
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

static bool ppdma_map_args_ok(struct pp_dma_dev *d, const struct page *page,
			      size_t offset, size_t size)
{
	const struct page *map = pp_mem_map.map;
	size_t room;

	if (WARN_ONCE(!page || page < map || page >= map + pp_mem_map.nr_pages,
		      "DMA-API: %s: mapping memory outside the arena [page=%p]",
		      dev_name(&d->dev), page))
		return false;
	/* The block, but never past the end of the arena. */
	room = min_t(size_t, ppdma_block_room(page),
		     (size_t)(map + pp_mem_map.nr_pages - page) * PAGE_SIZE);
	if (WARN_ONCE(!size || offset >= room || size > room - offset,
		      "DMA-API: %s: mapping a bad range [pfn=0x%lx] [offset=%zu] [size=%zu]",
		      dev_name(&d->dev), page_to_pfn(page), offset, size))
		return false;
	return true;
}

static dma_addr_t ppdma_map(struct pp_dma_dev *d, struct page *page,
			    size_t offset, size_t size,
			    enum dma_data_direction dir)
{
	dma_addr_t addr = DMA_MAPPING_ERROR;
	bool fail = pp_should_fail(PP_FAULT_DMA_MAP);
	struct ppdma_slot *s;
	phys_addr_t phys;
	bool bound;

	s = ppdma_op_begin(d, &bound);
	if (unlikely(!valid_dma_direction(dir))) {
		ppdma_bad_dir(d, PP_DMA_OP_MAP, addr, size, dir);
		goto out;
	}
	if (unlikely(!bound)) {
		ppdma_after_unbind(d, PP_DMA_OP_MAP, addr, size);
		goto out;
	}
	if (unlikely(fail || !ppdma_map_args_ok(d, page, offset, size)))
		goto out;

	phys = page_to_phys(page) + offset;
	addr = d->be->map(d, phys, size, dir);
	if (unlikely(addr == DMA_MAPPING_ERROR))
		goto out;
	if (d->debug && unlikely(ppdma_debug_map(d, addr, size, dir, phys))) {
		/* No record, no mapping: an untracked mapping would later
		 * show up as an unknown unmap. */
		d->be->unmap(d, addr, size);
		addr = DMA_MAPPING_ERROR;
	}
out:
	ppdma_count(addr == DMA_MAPPING_ERROR ? &s->map_errors : &s->maps);
	ppdma_op_end(s);
	ppdma_trace(d, PP_DMA_OP_MAP, addr, size, dir);
	return addr;
}

dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	return ppdma_map(to_ppdma(dev), page, offset, size, dir);
}

dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr, size_t size,
				enum dma_data_direction dir, unsigned long attrs)
{
	struct page *page = NULL;

	if (virt_addr_valid(ptr))
		page = virt_to_page(ptr);
	return ppdma_map(to_ppdma(dev), page, offset_in_page(ptr), size, dir);
}

void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs)
{
	struct pp_dma_dev *d = to_ppdma(dev);
	struct ppdma_slot *s;
	bool bound;

	s = ppdma_op_begin(d, &bound);
	if (unlikely(!valid_dma_direction(dir))) {
		ppdma_bad_dir(d, PP_DMA_OP_UNMAP, addr, size, dir);
		goto out;
	}
	if (unlikely(!bound)) {
		ppdma_after_unbind(d, PP_DMA_OP_UNMAP, addr, size);
		goto out;
	}
	/* Debug first: a double unmap must not reach the backend (it would
	 * free the IOVA twice), and the record must be gone before the
	 * backend frees the address for reuse by another map. */
	if (d->debug && !ppdma_debug_unmap(d, addr, size, dir))
		goto out;
	if (d->be->unmap(d, addr, size))
		ppdma_count(&s->unmaps);
out:
	ppdma_op_end(s);
	ppdma_trace(d, PP_DMA_OP_UNMAP, addr, size, dir);
}

void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	dma_unmap_page_attrs(dev, addr, size, dir, attrs);
}

static void ppdma_sync(struct device *dev, dma_addr_t addr, size_t size,
		       enum dma_data_direction dir, bool for_cpu)
{
	enum pp_dma_op op = for_cpu ? PP_DMA_OP_SYNC_FOR_CPU :
				      PP_DMA_OP_SYNC_FOR_DEVICE;
	struct pp_dma_dev *d = to_ppdma(dev);
	struct ppdma_slot *s;
	bool bound;

	s = ppdma_op_begin(d, &bound);
	if (unlikely(!valid_dma_direction(dir))) {
		ppdma_bad_dir(d, op, addr, size, dir);
		goto out;
	}
	if (unlikely(!bound)) {
		ppdma_after_unbind(d, op, addr, size);
		goto out;
	}
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
 * on every backend.
 *
 * An unmap racing with an access to the same range is the caller's bug, as
 * on hardware: the simulator does not wait for in-flight device accesses
 * when it clears the IO page table.
 */
static int ppdma_device_access(struct device *dev, dma_addr_t addr, void *buf,
			       size_t len, bool write)
{
	struct pp_dma_dev *d;
	struct ppdma_slot *s;
	size_t off, room, n;
	void *cpu;
	bool bound;
	int err = 0;

	if (!dev)
		return -ENODEV;
	d = to_ppdma(dev);
	s = ppdma_op_begin(d, &bound);
	if (unlikely(!bound)) {
		ppdma_op_end(s);
		ppdma_report(d, PP_DMA_V_USE_AFTER_UNBIND,
			     "device %s DMA memory after its driver was unbound "
			     "[device address=0x%016llx] [size=%zu bytes]",
			     write ? "writes" : "reads", (unsigned long long)addr, len);
		return -ENODEV;
	}
	if (addr + len < addr) {
		err = -EFAULT;
		goto out;
	}
	for (off = 0; off < len; off += room) {
		err = d->be->translate(d, addr + off, write, &cpu, &room);
		if (err)
			goto out;
	}
	for (off = 0; off < len; off += n) {
		err = d->be->translate(d, addr + off, write, &cpu, &room);
		if (WARN_ON_ONCE(err))	/* the caller unmapped it meanwhile */
			goto out;
		n = min(room, len - off);
		if (write)
			memcpy(cpu, (const char *)buf + off, n);
		else
			memcpy((char *)buf + off, cpu, n);
	}
out:
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
