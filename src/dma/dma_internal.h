/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Private to src/dma: the object behind struct device (struct pp_dma_dev),
 * the op sections that make every DMA call safe against a concurrent driver
 * unbind, the backend contract that direct.c and iommu.c implement, and the
 * DMA-API debug layer's entry points (debug.c).
 *
 * Tests may include this header: the static library keeps these ppdma_
 * names global, the shared library's symbol map hides them.
 * Layer: dma.
 */
#ifndef _PP_DMA_INTERNAL_H
#define _PP_DMA_INTERNAL_H

#include <pthread.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/refcount.h>
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
 *   map        map [phys, phys + size) for @dir: the bus address, or
 *              DMA_MAPPING_ERROR (address space exhausted, out of the DMA
 *              mask, out of memory). Must never return 0.
 *   unmap      undo the mapping at @addr. True if one was removed. MUST
 *              survive any @addr (a double unmap, a made-up address) and
 *              leave the backend consistent.
 *   sync       cache maintenance for [addr, addr + size). MUST survive any
 *              range.
 *   translate  the device's view: the CPU address behind bus address
 *              @addr and, in @room, how many bytes follow it contiguously
 *              (at most to the end of its page). -EFAULT if not mapped or
 *              if the mapping does not allow a device read (@write false)
 *              or write.
 */
struct ppdma_backend {
	enum pp_dma_backend type;
	const struct dma_map_ops *ops;
	int (*attach)(struct pp_dma_dev *d);
	void (*detach)(struct pp_dma_dev *d);
	dma_addr_t (*map)(struct pp_dma_dev *d, phys_addr_t phys, size_t size,
			  enum dma_data_direction dir);
	bool (*unmap)(struct pp_dma_dev *d, dma_addr_t addr, size_t size);
	void (*sync)(struct pp_dma_dev *d, dma_addr_t addr, size_t size,
		     enum dma_data_direction dir, bool for_cpu);
	int (*translate)(struct pp_dma_dev *d, dma_addr_t addr, bool write,
			 void **cpu, size_t *room);
};

extern const struct ppdma_backend ppdma_direct_backend;
extern const struct ppdma_backend ppdma_iommu_backend;

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
	long active;			/* open op sections (see device.c) */
	unsigned long maps;		/* successful maps */
	unsigned long unmaps;		/* unmaps that removed a mapping */
	unsigned long map_errors;
	unsigned long syncs_for_device;
	unsigned long syncs_for_cpu;
} ____cacheline_aligned;

struct pp_dma_dev {
	struct device dev;
	const struct ppdma_backend *be;
	unsigned int flags;
	bool debug;			/* PP_DMA_DEBUG */
	bool detect_unbind;		/* report use after unbind (iommu or debug) */
	int bound;			/* seq_cst; written under bind_lock */
	refcount_t ref;
	pthread_mutex_t bind_lock;	/* serializes bind and unbind */
	void *domain;			/* backend state of the current binding */
	struct ppdma_debug *dbg;	/* PP_DMA_DEBUG: the mapping table */
	u64 dma_mask;			/* what dev.dma_mask points to */
	pp_dma_trace_fn trace;
	void *trace_arg;
	long live_base;			/* maps - unmaps when the last binding ended */
	atomic_long_t violations[PP_DMA_V_NR];
	char *name;
	struct ppdma_slot slots[PPDMA_NR_SLOTS];
};

static inline struct pp_dma_dev *to_ppdma(const struct device *dev)
{
	return dev->pp;
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
	__atomic_fetch_add(&s->active, 1, __ATOMIC_SEQ_CST);
	*bound = __atomic_load_n(&d->bound, __ATOMIC_SEQ_CST);
	return s;
}

static inline void ppdma_op_end(struct ppdma_slot *s)
{
	/* R0: everything the section did happens before the drain in
	 * ppdma_unbind() that reads this count back to zero (acquire). */
	__atomic_fetch_sub(&s->active, 1, __ATOMIC_RELEASE);
}

static inline void ppdma_count(unsigned long *ctr)
{
	__atomic_fetch_add(ctr, 1, __ATOMIC_RELAXED);
}

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
/* Record a new mapping. 0 or -ENOMEM (then the caller undoes the map). */
int ppdma_debug_map(struct pp_dma_dev *d, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, phys_addr_t phys);
/* Check an unmap and retire the mapping. False when there is no mapping to
 * remove (double or unknown unmap): the backend MUST then not be called. */
bool ppdma_debug_unmap(struct pp_dma_dev *d, dma_addr_t addr, size_t size,
		       enum dma_data_direction dir);
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
