/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Scatter-gather DMA (<linux/dma-mapping.h>): dma_map_sg_attrs(),
 * dma_map_sgtable(), their unmap, and the sg syncs.
 *
 * A list is checked whole before anything is mapped (every entry arena
 * memory inside its page's block, length > 0), so a bad entry fails the map
 * with nothing to undo. The backend then maps it: the IOMMU into one IOVA
 * range with merged DMA segments (iommu.c), the direct backend entry by
 * entry, as dma-direct does, through its single map (that loop is here).
 * The debug layer records one mapping per DMA segment, with the entry
 * count, as the kernel's does; the statistics and the trace hook count DMA
 * segments too.
 *
 * Errors follow the kernel's __dma_map_sg_attrs(): -EINVAL for a bad list,
 * -ENOMEM when address space or memory runs out, -EIO for anything the
 * backend refuses otherwise (beyond the mask), an unbound device and an
 * injected fault; dma_map_sg_attrs() turns them all into 0.
 *
 * A device pagepool did not create maps each entry at its physical address
 * and has nothing to undo or sync.
 * Layer: dma.
 */
#include <errno.h>

#include <linux/bug.h>
#include <linux/mm.h>
#include <pagepool/runtime.h>

#include "dma_internal.h"

static bool ppdma_sg_ok(const struct device *dev, struct scatterlist *sg,
			int nents)
{
	struct scatterlist *s;
	int i;

	if (WARN_ON_ONCE(!sg || nents <= 0))
		return false;
	for_each_sg(sg, s, nents, i) {
		if (WARN_ONCE(!s, "DMA-API: %s: sg list ends after %d of %d entries",
			      dev_name(dev), i, nents))
			return false;
		if (!ppdma_map_args_ok(dev, sg_page(s), s->offset, s->length))
			return false;
	}
	return true;
}

/* dma-direct: each entry at its own bus address; one failure undoes the
 * entries before it. */
static int ppdma_map_sg_each(struct pp_dma_dev *d, struct scatterlist *sg,
			     int nents, enum dma_data_direction dir, u64 mask)
{
	struct scatterlist *s, *t;
	int i, j;

	for_each_sg(sg, s, nents, i) {
		phys_addr_t phys = sg_phys(s);

		if (d)
			s->dma_address = d->be->map(d, phys, s->length, dir, mask, 0);
		else
			s->dma_address = (phys + s->length - 1 > mask) ?
					 DMA_MAPPING_ERROR : phys;
		if (s->dma_address == DMA_MAPPING_ERROR)
			goto err_unmap;
		sg_dma_len(s) = s->length;
	}
	return nents;

err_unmap:
	for_each_sg(sg, t, i, j)
		if (d)
			d->be->unmap(d, sg_dma_address(t), sg_dma_len(t));
	return -EIO;
}

static int ppdma_map_sg(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir)
{
	struct pp_dma_dev *d = to_ppdma(dev);
	bool fail = pp_should_fail(PP_FAULT_DMA_MAP);
	struct scatterlist *s;
	struct ppdma_slot *sl;
	int ret = -EIO, i;

	if (!d) {
		if (fail || !valid_dma_direction(dir))
			return -EIO;
		if (!ppdma_sg_ok(dev, sg, nents))
			return -EINVAL;
		return ppdma_map_sg_each(NULL, sg, nents, dir,
					 ppdma_stream_limit(dev));
	}

	if (!ppdma_op_begin_checked(d, PP_DMA_OP_MAP, DMA_MAPPING_ERROR, 0, dir, &sl))
		goto out;
	if (unlikely(fail))
		goto out;
	if (!ppdma_sg_ok(dev, sg, nents)) {
		ret = -EINVAL;
		goto out;
	}
	if (d->be->map_sg)
		ret = d->be->map_sg(d, sg, nents, dir, ppdma_stream_limit(dev));
	else
		ret = ppdma_map_sg_each(d, sg, nents, dir,
					ppdma_stream_limit(dev));
	if (ret > 0 && d->debug &&
	    unlikely(ppdma_debug_map_sg(d, sg, nents, ret, dir))) {
		/* As for a single map: no record, no mapping. */
		if (d->be->unmap_sg)
			d->be->unmap_sg(d, sg, ret);
		else
			for_each_sg(sg, s, ret, i)
				d->be->unmap(d, sg_dma_address(s), sg_dma_len(s));
		ret = -ENOMEM;
	}
out:
	if (ret > 0)
		for (i = 0; i < ret; i++)
			ppdma_count(&sl->maps);
	else
		ppdma_count(&sl->map_errors);
	ppdma_op_end(sl);
	if (ret > 0)
		for_each_sg(sg, s, ret, i)
			ppdma_trace(d, PP_DMA_OP_MAP, sg_dma_address(s),
				    sg_dma_len(s), dir);
	else
		ppdma_trace(d, PP_DMA_OP_MAP, DMA_MAPPING_ERROR, 0, dir);
	return ret;
}

unsigned int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg,
			      int nents, enum dma_data_direction dir,
			      unsigned long attrs)
{
	int ret = ppdma_map_sg(dev, sg, nents, dir);

	return ret > 0 ? (unsigned int)ret : 0;
}

int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs)
{
	int ret;

	if (WARN_ON_ONCE(sgt->orig_nents > INT_MAX))
		return -EINVAL;
	ret = ppdma_map_sg(dev, sgt->sgl, (int)sgt->orig_nents, dir);
	if (ret < 0)
		return ret;
	sgt->nents = (unsigned int)ret;
	return 0;
}

/* The DMA segments of a mapped list: the leading entries of the @nents
 * given to the map whose sg_dma_len() is not 0. */
static int ppdma_sg_segments(struct scatterlist *sg, int nents)
{
	struct scatterlist *s;
	int i;

	/* A count past the list's end stops at the end, not in a crash. */
	for (i = 0, s = sg; i < nents && s; i++, s = sg_next(s))
		if (!sg_dma_len(s))
			break;
	return i;
}

void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir, unsigned long attrs)
{
	struct pp_dma_dev *d = to_ppdma(dev);
	struct scatterlist *s;
	struct ppdma_slot *sl;
	int n = 0, removed = 0, i;

	if (!d || nents <= 0)
		return;		/* dma-direct, coherent: nothing to undo */
	if (!ppdma_op_begin_checked(d, PP_DMA_OP_UNMAP, sg_dma_address(sg), sg_dma_len(sg), dir, &sl))
		goto out;
	/* Debug first, as for a single unmap: only segments it knew as live
	 * reach the backend. */
	n = d->debug ? ppdma_debug_unmap_sg(d, sg, nents, dir) :
		       ppdma_sg_segments(sg, nents);
	if (!n)
		goto out;
	if (d->be->unmap_sg) {
		removed = d->be->unmap_sg(d, sg, n);
	} else {
		for_each_sg(sg, s, n, i)
			removed += d->be->unmap(d, sg_dma_address(s), sg_dma_len(s));
	}
	for (i = 0; i < removed; i++)
		ppdma_count(&sl->unmaps);
out:
	ppdma_op_end(sl);
	if (!n)
		ppdma_trace(d, PP_DMA_OP_UNMAP, sg_dma_address(sg), sg_dma_len(sg), dir);
	for_each_sg(sg, s, n, i)
		ppdma_trace(d, PP_DMA_OP_UNMAP, sg_dma_address(s), sg_dma_len(s), dir);
}

static void ppdma_sync_sg(struct device *dev, struct scatterlist *sg,
			  int nelems, enum dma_data_direction dir, bool for_cpu)
{
	enum pp_dma_op op = for_cpu ? PP_DMA_OP_SYNC_FOR_CPU :
				      PP_DMA_OP_SYNC_FOR_DEVICE;
	struct pp_dma_dev *d = to_ppdma(dev);
	struct scatterlist *s;
	struct ppdma_slot *sl;
	int n = 0, i;

	if (!d || nelems <= 0)
		return;		/* coherent: no cache to maintain */
	if (!ppdma_op_begin_checked(d, op, sg_dma_address(sg), sg_dma_len(sg), dir, &sl))
		goto out;
	n = ppdma_sg_segments(sg, nelems);
	for_each_sg(sg, s, n, i) {
		if (d->debug)
			ppdma_debug_sync(d, sg_dma_address(s), sg_dma_len(s), dir,
					 for_cpu);
		d->be->sync(d, sg_dma_address(s), sg_dma_len(s), dir, for_cpu);
		ppdma_count(for_cpu ? &sl->syncs_for_cpu : &sl->syncs_for_device);
	}
out:
	ppdma_op_end(sl);
	for_each_sg(sg, s, n, i)
		ppdma_trace(d, op, sg_dma_address(s), sg_dma_len(s), dir);
}

void __dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg,
			   int nelems, enum dma_data_direction dir)
{
	ppdma_sync_sg(dev, sg, nelems, dir, true);
}

void __dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
			      int nelems, enum dma_data_direction dir)
{
	ppdma_sync_sg(dev, sg, nelems, dir, false);
}
