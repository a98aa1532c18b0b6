/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A minimal struct device: a name, a parent, a DMA backend (dma_map_ops),
 * DMA masks and segment limits, a NUMA node and a driver binding. Bus
 * devices with a DMA backend are made with pp_device_create()
 * (<pagepool/dma.h>); device_release_driver() is the driver unbind.
 *
 * A struct device that pagepool did not create (zero-initialised, or
 * embedded in another structure such as struct net_device; dev->pp is
 * NULL) is a cache-coherent device without IOMMU, as the kernel's
 * dma-direct sees one: maps return the physical address, syncs and unmaps
 * do nothing, there is no binding to lose and no DMA-API debugging. Its
 * DMA mask is *dma_mask if set, else 32 bits (see <linux/dma-mapping.h>).
 * Layer: runtime (the structure and its accessors; the DMA layer gives a
 * device its backend and implements the reference counting and unbind).
 */
#ifndef _PP_LINUX_DEVICE_H
#define _PP_LINUX_DEVICE_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/types.h>

struct dma_map_ops;
struct pp_dma_dev;

/* What a bus driver tells the DMA layer about a device's scatter-gather
 * limits (the kernel's; a PCI device has them, pagepool's devices too). */
struct device_dma_parameters {
	unsigned int max_segment_size;
	unsigned int min_align_mask;
	unsigned long segment_boundary_mask;
};

struct device {
	const char *init_name;
	struct device *parent;
	const struct dma_map_ops *dma_ops;
	u64 *dma_mask;
	u64 coherent_dma_mask;
	u64 bus_dma_limit;		/* upstream bridge limit; 0: none */
	struct device_dma_parameters *dma_parms;
	int numa_node;
	bool dma_skip_sync;		/* coherent and no DMA debug: syncs do nothing */
	void *driver_data;
	struct pp_dma_dev *pp;		/* backend, IOMMU domain, debug state (src/dma);
					 * NULL: a plain coherent dma-direct device */
};

static inline const char *dev_name(const struct device *dev)
{
	return dev->init_name ? dev->init_name : "(null)";
}

static inline int dev_to_node(const struct device *dev)
{
	return dev ? dev->numa_node : -1;
}

static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}

static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

/* Reference counting: the device's memory stays until the last reference
 * is dropped (pp_device_destroy() drops the creator's; a DMA-mapping
 * page_pool holds one while it exists), or longer while mappings it made
 * were never unmapped (<pagepool/dma.h>, pp_device_destroy()). On a device
 * that pagepool did not create, its owner manages the memory: get_device()
 * returns @dev and put_device() does nothing. NULL is ignored. Any thread. */
/**
 * get_device() - take a reference on a device
 * @dev: the device; NULL is ignored
 *
 * Context: any thread.
 * Return: @dev.
 */
struct device *get_device(struct device *dev);
/**
 * put_device() - drop a reference on a device
 * @dev: the device; NULL is ignored
 *
 * The last one frees the device (see above).
 *
 * Context: any thread.
 */
void put_device(struct device *dev);

/**
 * device_release_driver() - unbind a device's driver
 * @dev: the device
 *
 * Releases the driver's managed DMA allocations (dmam_alloc_coherent()),
 * then tears down the IOMMU domain; mappings still live are reported as
 * leaked (DMA-API debug); later unmaps or syncs through this device are
 * "use after unbind" violations. Nothing to do on a device pagepool did
 * not create. pp_device_bind() binds it again.
 *
 * Context: process context; not from a DMA trace hook's print callback.
 */
void device_release_driver(struct device *dev);

#define dev_printk(level, dev, fmt, ...)				\
	printk(level "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_err(dev, fmt, ...)	dev_printk(KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...)	dev_printk(KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...)	dev_printk(KERN_INFO, dev, fmt, ##__VA_ARGS__)
#define dev_dbg(dev, fmt, ...)	dev_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__)
#define dev_warn_once(dev, fmt, ...) \
	printk_once(KERN_WARNING "%s: " fmt, dev_name(dev), ##__VA_ARGS__)

#pragma GCC visibility pop
#endif
