/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Simulated devices for DMA: backends, driver unbind, the DMA-API debug
 * layer's verdicts, statistics, tracing, and device-side access (what the
 * NIC's DMA engine does) for simulated drivers.
 *
 * These calls also take a struct device that pagepool did not create
 * (<linux/device.h>): it has no violations, statistics or trace hook (the
 * counts are 0, the hook is not installed), it is always bound (there is
 * no binding to lose), and its device-side access reaches all arena
 * memory, as a device without IOMMU does.
 *
 * Arguments: a NULL or ERR_PTR() device (an unchecked pp_device_create())
 * or output pointer is an error (-EINVAL, or the neutral value a function's
 * comment names), never a crash. Every error a function returns is listed
 * at it.
 * Layer: dma.
 */
#ifndef _PAGEPOOL_DMA_H
#define _PAGEPOOL_DMA_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>
#include <stddef.h>
#include <linux/dma-direction.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct device;

enum pp_dma_backend {
	PP_DMA_DIRECT,	/* bus address = physical address of the page */
	PP_DMA_IOMMU,	/* simulated IOMMU: IOVA allocator + IO page table */
	PP_DMA_WINDOW,	/* one window of arena memory; bus address = offset
			 * into it (pp_device_create_window()) */
};

#define PP_DMA_DEBUG		0x1	/* DMA-API debug checks on this device */
#define PP_DMA_NONCOHERENT	0x2	/* syncs are required (and counted) */

/**
 * pp_device_create() - create a simulated DMA device with a bound driver
 * @name: the device's name, copied (NULL: "dmaN")
 * @backend: PP_DMA_DIRECT or PP_DMA_IOMMU (PP_DMA_WINDOW needs its
 *	window: pp_device_create_window())
 * @flags: PP_DMA_DEBUG, PP_DMA_NONCOHERENT, or 0
 *
 * The caller holds the creator's reference, which pp_device_destroy()
 * drops.
 *
 * Context: process context.
 * Return: the device; ERR_PTR(-EINVAL) for a bad backend or flag,
 * ERR_PTR(-ENOMEM).
 */
struct device *pp_device_create(const char *name, enum pp_dma_backend backend,
				unsigned int flags);

/**
 * pp_device_create_window() - create a device that reaches one window of arena memory
 * @name: the device's name, copied (NULL: "dmaN")
 * @base: the window's first byte: page-aligned arena memory (such as the
 *	page_address() of an alloc_contig_pages() run)
 * @len: its length, a multiple of PAGE_SIZE, inside the arena
 * @flags: PP_DMA_DEBUG, PP_DMA_NONCOHERENT, or 0, as for pp_device_create()
 *
 * Backend PP_DMA_WINDOW: the bus address of a byte of the window is its
 * offset from @base (0 is @base itself; an AF_XDP UMEM's addressing).
 * A map of memory outside the window returns DMA_MAPPING_ERROR (counted
 * in map_errors; with PP_DMA_DEBUG nothing is recorded for it), never a
 * crash; so does a dma_alloc_*() whose memory the page allocator placed
 * outside it. Unmap, sync, dma_map_sg() (physically contiguous entries
 * merge into one DMA segment), the debug layer and unbind work as on the
 * other backends. pp_dma_device_read() and pp_dma_device_write() reach
 * the whole window, mapped or not (a device without an IOMMU inside its
 * aperture), and nothing outside it (-EFAULT). The window is the device's
 * for its life: the memory must stay allocated until the device is
 * destroyed and its last mapping unmapped. pp_device_destroy() destroys
 * it.
 *
 * Context: process context.
 * Return: the device; ERR_PTR(-EINVAL) for a NULL or unaligned @base or
 * @len, a window not inside the arena (or no arena yet), or a bad flag;
 * ERR_PTR(-ENOMEM).
 */
struct device *pp_device_create_window(const char *name, void *base, size_t len,
				       unsigned int flags);

/**
 * pp_device_bind() - bind a driver to a device again
 * @dev: a device of pp_device_create() whose driver was released
 *	(device_release_driver(), <linux/device.h>)
 *
 * The IOMMU gets a fresh domain.
 *
 * Context: process context.
 * Return: 0; -EBUSY if bound; -EINVAL for NULL or a device pagepool did not
 * create; -ENODEV after pp_device_destroy(); -ENOMEM (the IOMMU's domain
 * could not be allocated).
 */
int pp_device_bind(struct device *dev);
/**
 * pp_device_is_bound() - whether a device has its driver bound
 * @dev: the device
 *
 * Context: any context.
 * Return: false for NULL or ERR_PTR(); true for a device pagepool did not
 * create; else whether it is bound.
 */
bool pp_device_is_bound(const struct device *dev);

/**
 * pp_device_destroy() - unbind a device's driver and drop the creator's reference
 * @dev: a device of pp_device_create(); NULL, an ERR_PTR() and a device
 *	pagepool did not create are ignored
 *
 * Lifetime, as in the kernel (device_unregister() + put_device()): the
 * memory of the struct device goes with its last reference, never under
 * a user. Every page_pool with PP_FLAG_DMA_MAP holds one from
 * page_pool_create() until the pool is freed (its last page home, after
 * page_pool_destroy()), so destroying the device first is safe in every
 * DMA tracking design: the pool's later syncs, unmaps and device-side
 * accesses are use-after-unbind violations (on every backend once the
 * device is destroyed), never a use after free; its maps fail. Destroy with
 * DMA mappings live in the binding it ends is a WARN (with PP_DMA_DEBUG
 * each is also a leak at unbind): they died with the binding.
 *
 * Mappings made directly with dma_map_*() / dma_alloc_*() hold no
 * reference; instead, when the last reference goes while any mapping the
 * device ever made was not unmapped (maps != unmaps), the memory is kept
 * until the process exits (a message says so), so that late unmaps, syncs
 * and frees of such mappings are reported as use after unbind, not a use
 * after free; dma_free_coherent() still gives the memory back.
 *
 * After destroy the device cannot be bound again (pp_device_bind():
 * -ENODEV); a second destroy while a reference keeps the memory is a WARN
 * and does nothing. After the last reference the pointer is dead.
 *
 * Context: process context.
 */
void pp_device_destroy(struct device *dev);

/* DMA-API misuse seen on @dev (NULL: on all devices, ever; 0 for an
 * ERR_PTR() or a device pagepool did not create). Every
 * violation is also printed; PAGEPOOL_DMA_ABORT=1 in the environment makes
 * the first one abort(), for debugging under gdb. */
enum pp_dma_violation {
	PP_DMA_V_DOUBLE_UNMAP,		/* unmap of a mapping already unmapped */
	PP_DMA_V_UNKNOWN_UNMAP,		/* unmap of an address never mapped */
	PP_DMA_V_BAD_UNMAP,		/* unmap with the wrong size */
	PP_DMA_V_SYNC_OUTSIDE,		/* sync not inside a live mapping */
	PP_DMA_V_WRONG_DIR,		/* unmap/sync with another direction */
	PP_DMA_V_LEAK_AT_UNBIND,	/* mapping still live at unbind */
	PP_DMA_V_USE_AFTER_UNBIND,	/* map/unmap/sync after unbind */
	PP_DMA_V_WRONG_FUNCTION,	/* unmap/free by another family of calls
					 * than the map (dma_unmap_page() of a
					 * coherent allocation, ...) */
	PP_DMA_V_WRONG_CPU_ADDR,	/* coherent/noncoherent free with another
					 * CPU address than the allocation's */
	PP_DMA_V_SG_COUNT,		/* dma_unmap_sg() with another nents
					 * than the dma_map_sg() */
	PP_DMA_V_NR,
};

/**
 * pp_dma_violations() - DMA-API misuse seen on a device
 * @dev: the device; NULL: on all devices, ever
 *
 * Every violation is also printed; PAGEPOOL_DMA_ABORT=1 in the environment
 * makes the first one abort(), for debugging under gdb.
 *
 * Context: any context.
 * Return: the number of violations of every kind (enum pp_dma_violation);
 * 0 for an ERR_PTR() or a device pagepool did not create.
 */
unsigned long pp_dma_violations(const struct device *dev);
/**
 * pp_dma_violation_count() - DMA-API misuse of one kind seen on a device
 * @dev: the device; NULL: on all devices, ever
 * @kind: the kind (enum pp_dma_violation)
 *
 * Context: any context.
 * Return: the count; 0 for a @kind out of range, an ERR_PTR() or a device
 * pagepool did not create.
 */
unsigned long pp_dma_violation_count(const struct device *dev,
				     enum pp_dma_violation kind);
/**
 * pp_dma_violation_name() - the name of a kind of DMA-API misuse
 * @kind: the kind (enum pp_dma_violation)
 *
 * Context: any context.
 * Return: a static string; "unknown" for a @kind out of range.
 */
const char *pp_dma_violation_name(enum pp_dma_violation kind);

/* Maps count every mapping the backend made: a page or resource map, a
 * coherent or page allocation, each DMA segment of a scatterlist. */
struct pp_dma_stats {
	unsigned long maps, unmaps;
	unsigned long map_errors;
	unsigned long syncs_for_device, syncs_for_cpu;
	unsigned long live_mappings;	/* maps - unmaps that succeeded */
};
/**
 * pp_dma_get_stats() - a device's mapping counters
 * @dev: the device
 * @st: filled in (struct pp_dma_stats)
 *
 * A device pagepool did not create has all counts 0.
 *
 * Context: any context.
 * Return: 0; -EINVAL for a NULL @st, or a NULL or ERR_PTR() @dev (then *@st
 * is zeroed).
 */
int pp_dma_get_stats(const struct device *dev, struct pp_dma_stats *st);

/* Per-call trace hook, for tests that assert on exact sync ranges. */
enum pp_dma_op {
	PP_DMA_OP_MAP,
	PP_DMA_OP_UNMAP,
	PP_DMA_OP_SYNC_FOR_CPU,
	PP_DMA_OP_SYNC_FOR_DEVICE,
};
typedef void (*pp_dma_trace_fn)(struct device *dev, enum pp_dma_op op,
				dma_addr_t addr, size_t size,
				enum dma_data_direction dir, void *arg);
/**
 * pp_dma_set_trace() - set a device's per-call trace hook
 * @dev: the device; a NULL or ERR_PTR() @dev is ignored
 * @fn: called at every map, unmap and sync; NULL removes the hook
 * @arg: passed to @fn
 *
 * For tests that assert on exact sync ranges. pp_device_destroy() removes
 * the hook too (its @arg may not outlive the creator).
 *
 * Context: any thread; @fn runs in the context of the DMA call.
 */
void pp_dma_set_trace(struct device *dev, pp_dma_trace_fn fn, void *arg);

/* A hook that runs as a single unmap begins, for race reproductions. */
typedef void (*pp_dma_before_unmap_fn)(struct device *dev, dma_addr_t addr, size_t size,
				       void *arg);
/**
 * pp_dma_set_before_unmap() - set a device's before-unmap hook
 * @dev: the device; a NULL or ERR_PTR() @dev, or one with no state of
 *	its own (dma-direct without PP_DMA_DEBUG), is ignored
 * @fn: called in the unmapping thread at each dma_unmap_page_attrs() /
 *	dma_unmap_single_attrs() of @dev, before the unmap checks or changes
 *	anything (it may wait, to hold the unmap there); NULL removes it
 * @arg: passed to @fn
 *
 * For tests that stop an unmap between the caller's decision to unmap and
 * the unmap itself (a release racing a driver unbind).
 * pp_device_destroy() removes the hook, as it does the trace hook.
 *
 * Context: any thread; @fn runs in the context of the unmap.
 */
void pp_dma_set_before_unmap(struct device *dev, pp_dma_before_unmap_fn fn, void *arg);

/**
 * pp_dma_device_write() - the device writes to memory it has mapped
 * @dev: the device
 * @addr: the bus address written
 * @src: the data
 * @len: its length
 *
 * The copy goes through the device's translation (the IOMMU's page table,
 * the window's offset, or none).
 *
 * Context: any context.
 * Return: 0; -EFAULT if the range is not mapped (or was unmapped); -ENODEV
 * after unbind (reported as use after unbind); -EINVAL for a NULL @dev, or
 * a NULL buffer with @len > 0.
 */
int pp_dma_device_write(struct device *dev, dma_addr_t addr, const void *src,
			size_t len);
/**
 * pp_dma_device_read() - the device reads from memory it has mapped
 * @dev: the device
 * @addr: the bus address read
 * @dst: where the data goes
 * @len: its length
 *
 * Context: any context.
 * Return: as pp_dma_device_write().
 */
int pp_dma_device_read(struct device *dev, dma_addr_t addr, void *dst,
		       size_t len);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop
#endif /* _PAGEPOOL_DMA_H */
