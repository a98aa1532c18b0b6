/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Private to src/dma: the object behind struct device (struct pp_dma_dev),
 * the op sections that make every DMA call safe against a concurrent driver
 * unbind, the backend contract that direct.c and iommu.c implement, and the
 * DMA-API debug layer's entry points (debug.c).
 *
 * Tests may include this header: the static library keeps these ppdma_
 * names global, the shared library's symbol map hides them.
 *
 * Files: device.c (devices, binding, masks), mapping.c (single maps,
 * syncs, device-side access), map_sg.c (scatterlists), coherent.c
 * (allocations), info.c (what a device can do), debug.c, direct.c,
 * iommu.c + iova.c, window.c (backends), scatterlist.c (sg tables, no
 * DMA).
 * Layer: dma.
 */
#ifndef _PP_DMA_INTERNAL_H
#define _PP_DMA_INTERNAL_H

#include <pthread.h>
#include <linux/cache.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <pagepool/dma.h>

struct pp_dma_dev;

/*
 * The backend contract. A backend turns a physical range into a bus
 * address and back; it knows nothing of debug checks, statistics, tracing
 * or unbind, which mapping.c and device.c do around it.
 *
 * Context: map, unmap, sync and translate run inside an op section of a
 * bound device (ppdma_op_begin() returned bound == true), from any number
 * of threads at once. attach and detach run with the bind lock held and no
 * op section open (device.c drains them first), so they own d->domain.
 *
 * Duties:
 *   attach     set up the per-binding state in d->domain. 0 or -ENOMEM.
 *   detach     tear it down; every mapping dies with it.
 *   map        map [phys, phys + size) for @dir so that the device reaches
 *              it at bus addresses up to @mask: the bus address, or
 *              DMA_MAPPING_ERROR (address space exhausted, beyond @mask,
 *              out of memory). Must never return 0, except the window
 *              backend, whose bus addresses are offsets into its window
 *              (0 is its first byte). With PPDMA_MAP_MMIO
 *              the range is not RAM (dma_map_resource()): no struct page,
 *              nothing for the simulated device to read or write.
 *   unmap      undo the mapping at @addr. True if one was removed. MUST
 *              survive any @addr (a double unmap, a made-up address) and
 *              leave the backend consistent.
 *   map_sg     optional (NULL: each entry is mapped with map, as
 *              dma-direct does): map the @nents entries of @sg, which
 *              mapping code has checked (arena pages, lengths > 0), and
 *              fill in their DMA segments (merged or not) from the first
 *              entry on, the unused entries' sg_dma_len() set to 0. The
 *              segment count, or -ENOMEM (address space, memory) / -EIO
 *              (beyond @mask), with nothing left mapped.
 *   unmap_sg   with map_sg: undo the first @n DMA segments of a list that
 *              map_sg filled in; how many it removed. MUST survive any
 *              list, as unmap survives any address.
 *   sync       cache maintenance for [addr, addr + size). MUST survive any
 *              range.
 *   translate  the device's view: the CPU address behind bus address
 *              @addr and, in @room, how many bytes follow it contiguously
 *              (at most to the end of its page). -EFAULT if not mapped or
 *              if the mapping does not allow a device read (@write false)
 *              or write.
 */
#define PPDMA_MAP_MMIO	0x1	/* map: the range is not RAM */

struct ppdma_backend {
	enum pp_dma_backend type;
	const struct dma_map_ops *ops;
	/* What the device can do (info.c): dma_max_mapping_size(),
	 * dma_opt_mapping_size(), dma_get_merge_boundary(); whether syncs
	 * matter even on a coherent device (the kernel's answer for IOMMU
	 * devices); whether bus addresses are translated (an IOMMU: any
	 * memory is reached through a 32-bit IOVA space, and streaming
	 * rather than coherent masks govern dma_alloc_pages()). */
	size_t max_mapping_size;
	size_t opt_mapping_size;
	unsigned long merge_boundary;
	bool need_sync;
	bool remaps;
	int (*attach)(struct pp_dma_dev *d);
	void (*detach)(struct pp_dma_dev *d);
	dma_addr_t (*map)(struct pp_dma_dev *d, phys_addr_t phys, size_t size,
			  enum dma_data_direction dir, u64 mask,
			  unsigned int flags);
	bool (*unmap)(struct pp_dma_dev *d, dma_addr_t addr, size_t size);
	int (*map_sg)(struct pp_dma_dev *d, struct scatterlist *sg, int nents,
		      enum dma_data_direction dir, u64 mask);
	int (*unmap_sg)(struct pp_dma_dev *d, struct scatterlist *sg, int n);
	void (*sync)(struct pp_dma_dev *d, dma_addr_t addr, size_t size,
		     enum dma_data_direction dir, bool for_cpu);
	int (*translate)(struct pp_dma_dev *d, dma_addr_t addr, bool write,
			 void **cpu, size_t *room);
};

extern const struct ppdma_backend ppdma_direct_backend;
extern const struct ppdma_backend ppdma_iommu_backend;
extern const struct ppdma_backend ppdma_window_backend;

/* The entries of a backend's public dma_map_ops table (dev->dma_ops): they
 * take the same checked path as the DMA API (mapping.c), so calling through
 * dev->dma_ops is as safe as calling dma_map_page_attrs(). */
dma_addr_t ppdma_ops_map_page(struct device *dev, struct page *page,
			      unsigned long offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs);
void ppdma_ops_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs);

/*
 * Op sections are counted in slots: a thread uses one slot for its whole
 * life (threads are spread round-robin), so a slot's cache line stays with
 * one thread as long as there are no more threads than slots. Each slot
 * also holds that thread's share of the device statistics, so the fast
 * path touches one line. 64 slots keep a device at 4 KiB of counters and
 * cover the logical CPUs a test or benchmark uses in practice; threads past
 * that share slots, which costs speed but not correctness.
 */
#define PPDMA_NR_SLOTS	64

struct ppdma_slot {
	atomic_long_t active;		/* open op sections (see device.c) */
	atomic_long_t maps;		/* successful maps */
	atomic_long_t unmaps;		/* unmaps that removed a mapping */
	atomic_long_t map_errors;
	atomic_long_t syncs_for_device;
	atomic_long_t syncs_for_cpu;
} ____cacheline_aligned;

struct pp_dma_dev {
	struct device dev;
	const struct ppdma_backend *be;
	unsigned int flags;
	bool debug;			/* PP_DMA_DEBUG */
	bool detect_unbind;		/* report use after unbind (iommu or debug) */
	int bound;			/* seq_cst; written under bind_lock */
	int destroyed;			/* pp_device_destroy() ran, or the device
					 * is kept (seq_cst; device.c) */
	refcount_t ref;
	pthread_mutex_t bind_lock;	/* serializes bind and unbind */
	void *domain;			/* backend state of the current binding */
	struct ppdma_debug *dbg;	/* PP_DMA_DEBUG: the mapping table */
	u64 dma_mask;			/* what dev.dma_mask points to */
	unsigned long win_base;		/* PP_DMA_WINDOW: the window's CPU address */
	size_t win_len;			/* and length; fixed at creation */
	pp_dma_trace_fn trace;
	void *trace_arg;
	pp_dma_before_unmap_fn before_unmap;	/* pp_dma_set_before_unmap() */
	void *before_unmap_arg;
	long live_base;			/* maps - unmaps when the last binding ended */
	atomic_long_t violations[PP_DMA_V_NR];
	struct device_dma_parameters dma_parms;	/* what dev.dma_parms points to */
	spinlock_t managed_lock;
	struct list_head managed;	/* dmam_alloc_attrs() allocations */
	char *name;
	struct list_head kept;		/* on ppdma_kept_devs (device.c) */
	struct ppdma_slot slots[PPDMA_NR_SLOTS];
};

/* NULL for a device pagepool did not create (a "bare" device: coherent
 * dma-direct, no state). */
static inline struct pp_dma_dev *to_ppdma(const struct device *dev)
{
	return dev->pp;
}

/* The highest bus address @mask and the device's bus limit both allow
 * (the kernel's min_not_zero()). */
static inline u64 ppdma_limit(const struct device *dev, u64 mask)
{
	u64 bus = READ_ONCE(dev->bus_dma_limit);

	if (!mask || (bus && bus < mask))
		return bus;
	return mask;
}

/* The streaming limit. A device without a dma_mask maps as dma_get_mask()
 * describes it, with 32 bits (<linux/dma-mapping.h> says why). */
static inline u64 ppdma_stream_limit(const struct device *dev)
{
	u64 *mask = READ_ONCE(dev->dma_mask);
	u64 m = mask ? READ_ONCE(*mask) : 0;

	return ppdma_limit(dev, m ? m : DMA_BIT_MASK(32));
}

/* Op sections (device.c explains the protocol with unbind). */
extern __thread unsigned int ppdma_slot_idx
	__attribute__((tls_model("initial-exec")));
unsigned int ppdma_slot_assign(void);

/* The calling thread's slot index, the same on every device. */
static inline unsigned int ppdma_this_slot_idx(void)
{
	unsigned int i = ppdma_slot_idx;

	if (unlikely(i >= PPDMA_NR_SLOTS))
		i = ppdma_slot_assign();
	return i;
}

static inline struct ppdma_slot *ppdma_this_slot(struct pp_dma_dev *d)
{
	return &d->slots[ppdma_this_slot_idx()];
}

/*
 * Open an op section on @d; *@bound tells whether the driver is bound. If
 * it is, the binding (and d->domain) stays valid until ppdma_op_end().
 * Caller MUST close the section with ppdma_op_end() on every path, and
 * MUST NOT open a second one on the same device meanwhile.
 */
static inline struct ppdma_slot *ppdma_op_begin(struct pp_dma_dev *d, bool *bound)
{
	struct ppdma_slot *s = ppdma_this_slot(d);

	/* A0: announce the section before looking at the binding. Paired
	 * with U0 in ppdma_unbind(): of "A0 then read bound" and "U0 clears
	 * bound then reads active", one side must see the other (both are
	 * sequentially consistent). */
	atomic_long_inc_return(&s->active);
	*bound = smp_load_mb(&d->bound);
	return s;
}

static inline void ppdma_op_end(struct ppdma_slot *s)
{
	/* R0: everything the section did happens before the drain in
	 * ppdma_unbind() that reads this count back to zero (acquire). */
	atomic_long_fetch_sub_release(1, &s->active);
}

static inline void ppdma_count(atomic_long_t *ctr)
{
	atomic_long_inc(ctr);
}

/* Shared by the files that implement DMA calls (mapping.c). */
extern const char *const ppdma_op_verbs[];
/* Report a call on an unbound device (when the device can tell). */
void ppdma_after_unbind(struct pp_dma_dev *d, enum pp_dma_op op,
			dma_addr_t addr, size_t size);
/* Report an invalid direction. */
void ppdma_bad_dir(struct pp_dma_dev *d, enum pp_dma_op op, dma_addr_t addr,
		   size_t size, enum dma_data_direction dir);
/*
 * Open an op section for @op on [@addr, +@size) in @dir, as every DMA call
 * does: true if the call may go on; false after reporting an invalid
 * direction or a call on an unbound device. Either way *@s is the open
 * section, and the caller MUST close it with ppdma_op_end().
 */
static inline bool ppdma_op_begin_checked(struct pp_dma_dev *d, enum pp_dma_op op,
					  dma_addr_t addr, size_t size,
					  enum dma_data_direction dir, struct ppdma_slot **s)
{
	bool bound;

	*s = ppdma_op_begin(d, &bound);
	if (unlikely(!valid_dma_direction(dir))) {
		ppdma_bad_dir(d, op, addr, size, dir);
		return false;
	}
	if (unlikely(!bound)) {
		ppdma_after_unbind(d, op, addr, size);
		return false;
	}
	return true;
}

/* @size bytes at @offset into @page are inside the arena and inside the
 * page's block; else a WARN (naming @dev) and false. */
bool ppdma_map_args_ok(const struct device *dev, const struct page *page,
		       size_t offset, size_t size);

/* The trace hook, called after the op section closes. */
static inline void ppdma_trace(struct pp_dma_dev *d, enum pp_dma_op op,
			       dma_addr_t addr, size_t size,
			       enum dma_data_direction dir)
{
	/* Paired with the release store in pp_dma_set_trace(). */
	pp_dma_trace_fn fn = smp_load_acquire(&d->trace);

	if (unlikely(fn))
		fn(&d->dev, op, addr, size, dir, READ_ONCE(d->trace_arg));
}

/* The before-unmap hook, called as a single unmap begins, before anything
 * changes. */
static inline void ppdma_before_unmap(struct pp_dma_dev *d, dma_addr_t addr, size_t size)
{
	/* Paired with the release store in pp_dma_set_before_unmap(). */
	pp_dma_before_unmap_fn fn = smp_load_acquire(&d->before_unmap);

	if (unlikely(fn))
		fn(&d->dev, addr, size, READ_ONCE(d->before_unmap_arg));
}

/* Driver unbind (coherent.c): free the managed allocations. Called by
 * ppdma_unbind() with the bind lock held and the op sections drained,
 * before the debug layer's leak check and the backend's detach. */
void ppdma_release_managed(struct pp_dma_dev *d);

/* Violations (debug.c). ppdma_report() counts one violation of @kind on
 * @d, prints it (device name, kind, then the formatted detail) and aborts
 * when PAGEPOOL_DMA_ABORT=1. ppdma_count_violations() counts @n without
 * printing. Any context; takes no lock of @d. */
__cold __printf(3, 4)
void ppdma_report(struct pp_dma_dev *d, enum pp_dma_violation kind,
		  const char *fmt, ...);
__cold void ppdma_count_violations(struct pp_dma_dev *d,
				   enum pp_dma_violation kind, unsigned long n);
const char *ppdma_dir_name(enum dma_data_direction dir);

/* The DMA-API debug layer (debug.c), for devices with PP_DMA_DEBUG. Every
 * call but init/free runs inside an op section of a bound device, or (for
 * unbind) with the bind lock held and the sections drained. */
int ppdma_debug_init(struct pp_dma_dev *d);
void ppdma_debug_free(struct pp_dma_dev *d);

/* The kinds of mapping, as the kernel's debug layer tells them apart: an
 * unmap or free must use the family of calls that made the mapping. */
enum ppdma_map_type {
	PPDMA_MAP_SINGLE,	/* dma_map_page/single/phys */
	PPDMA_MAP_SG,		/* dma_map_sg*, dma_alloc_noncontiguous */
	PPDMA_MAP_COHERENT,	/* dma_alloc_attrs/coherent/wc, dmam_* */
	PPDMA_MAP_RESOURCE,	/* dma_map_resource, dma_map_phys + MMIO */
	PPDMA_MAP_NONCOHERENT,	/* dma_alloc_pages/noncoherent */
};

/* One mapping, as recorded or as an unmap describes it. */
struct ppdma_ref {
	dma_addr_t addr;
	size_t size;
	phys_addr_t phys;	/* coherent, noncoherent: checked at the free */
	enum dma_data_direction dir;
	enum ppdma_map_type type;
	int sg_call_ents;	/* sg: the nents given to the map (0: unknown) */
	int sg_mapped_ents;	/* sg: the DMA segments it made */
};

/* Record a new mapping. 0 or -ENOMEM (then the caller undoes the map). */
int ppdma_debug_map(struct pp_dma_dev *d, const struct ppdma_ref *ref);
/* Record the @mapped DMA segments of a list mapped from @nents entries,
 * all or none. 0 or -ENOMEM. */
int ppdma_debug_map_sg(struct pp_dma_dev *d, struct scatterlist *sg,
		       int nents, int mapped, enum dma_data_direction dir);
/* Check an unmap or free and retire the mapping; *@found (if not NULL)
 * gets the recorded one. False when there is no mapping to remove
 * (double or unknown unmap): the backend MUST then not be called. */
bool ppdma_debug_unmap(struct pp_dma_dev *d, const struct ppdma_ref *ref,
		       struct ppdma_ref *found);
/* The same for a list given to dma_unmap_sg() with @nents: how many of
 * its leading DMA segments were live and are now retired (0: none, the
 * backend MUST then not be called). */
int ppdma_debug_unmap_sg(struct pp_dma_dev *d, struct scatterlist *sg,
			 int nents, enum dma_data_direction dir);
void ppdma_debug_sync(struct pp_dma_dev *d, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir, bool for_cpu);
/* Driver unbind: report every live mapping as leaked, forget them all. */
void ppdma_debug_unbind(struct pp_dma_dev *d);
/* Live mappings in the table (for tests). */
unsigned long ppdma_debug_live(struct pp_dma_dev *d);

/* Introspection of the simulated IOMMU, for tests (iommu.c). */
struct ppdma_iommu_info {
	bool attached;			/* a domain exists (driver bound) */
	unsigned long iova_total;	/* granules in the IOVA space */
	unsigned long iova_used;	/* granules allocated now */
	unsigned long tables;		/* IO page tables of this domain */
	unsigned long iotlb_flushes;	/* of this domain */
};
/* -EINVAL if @dev is not an IOMMU device. Takes the bind lock. */
int ppdma_iommu_get_info(struct device *dev, struct ppdma_iommu_info *info);
/* IO page tables allocated and not yet freed, over all domains. */
unsigned long ppdma_iommu_live_tables(void);

#endif /* _PP_DMA_INTERNAL_H */
