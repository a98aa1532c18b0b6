/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A minimal struct device: a name, a parent, a DMA backend (dma_map_ops), a
 * NUMA node and a driver binding. Bus devices with a DMA backend are made
 * with pp_device_create() (<pagepool/dma.h>); device_release_driver() is
 * the driver unbind. Other code embeds one, as the kernel's struct
 * net_device does (zero-initialised: no backend).
 * Layer: runtime (the structure and its accessors; the DMA layer gives a
 * device its backend and implements the reference counting and unbind).
 */
#ifndef _PP_LINUX_DEVICE_H
#define _PP_LINUX_DEVICE_H

#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/types.h>

struct dma_map_ops;
struct pp_dma_dev;

struct device {
	const char *init_name;
	struct device *parent;
	const struct dma_map_ops *dma_ops;
	u64 *dma_mask;
	u64 coherent_dma_mask;
	int numa_node;
	bool dma_skip_sync;		/* coherent and no DMA debug: syncs do nothing */
	void *driver_data;
	struct pp_dma_dev *pp;		/* backend, IOMMU domain, debug state (src/dma) */
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
 * is dropped (pp_device_destroy() drops the creator's). */
struct device *get_device(struct device *dev);
void put_device(struct device *dev);

/* Driver unbind: tears down the IOMMU domain; mappings still live are
 * reported as leaked (DMA-API debug); later unmaps or syncs through this
 * device are "use after unbind" violations. */
void device_release_driver(struct device *dev);

#define dev_printk(level, dev, fmt, ...)				\
	printk(level "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_err(dev, fmt, ...)	dev_printk(KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...)	dev_printk(KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...)	dev_printk(KERN_INFO, dev, fmt, ##__VA_ARGS__)
#define dev_dbg(dev, fmt, ...)	dev_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__)
#define dev_warn_once(dev, fmt, ...) \
	printk_once(KERN_WARNING "%s: " fmt, dev_name(dev), ##__VA_ARGS__)

#endif
