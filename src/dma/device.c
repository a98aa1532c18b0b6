/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Simulated devices: creation, reference counting, driver bind and unbind,
 * DMA masks, statistics and the trace hook.
 *
 * The interesting part is unbind. In the kernel, device_release_driver()
 * detaches the IOMMU domain, and a page unmapped later through that device
 * dereferences the dead domain ("kernel crash at iommu_get_dma_domain",
 * the bug behind page_pool's inflight-page tracking). Here every DMA call
 * runs inside an op section, and unbind waits for the open sections before
 * it tears anything down, so a call either completes against the old
 * binding or finds the device unbound and reports a use after unbind.
 *
 * The other part is the end of a device's life (a device destroyed while a
 * pool or a driver's mapping still uses it). The struct device is the
 * memory every DMA call and every page_pool reads (dev->pp, dma_skip_sync,
 * the name in reports), so it must outlive every user, whatever order they
 * go in:
 *   - references: the creator holds one (pp_device_create()), each pool
 *     that maps pages takes one in page_pool_init() and drops it when the
 *     pool is freed, anyone else with get_device(). pp_device_destroy()
 *     unbinds the driver and drops the creator's; the memory goes with the
 *     last reference, as the kernel's device_unregister() + put_device().
 *     Destroy with DMA mappings live in the binding it ends is a WARN (and,
 *     with PP_DMA_DEBUG, each is a leak at unbind).
 *   - mappings: a mapping made with dma_map_*() holds no reference (the
 *     kernel's do not either, and one would cost an atomic per map and
 *     unmap). Instead, a device whose last reference goes while mappings it
 *     made were never unmapped (maps != unmaps, counting every binding) is
 *     kept, on ppdma_kept_devs, until the process exits: the holder of such
 *     a mapping may still unmap or sync it, and must get a use-after-unbind
 *     report (every backend reports once the device is destroyed), not a
 *     use after free. Once a binding ended its mappings died with it and
 *     their unmaps fail, so no count could tell when the last one came
 *     back: keeping the memory is the only answer that holds for a double
 *     or made-up unmap too. A device is kept only after misuse that was
 *     reported (or the PP_DMA_TRACK_OFF bug reproduction), ~5 KiB each.
 *   - after pp_device_destroy() the device cannot be bound again
 *     (pp_device_bind(): -ENODEV) and a second destroy is a WARN that
 *     changes nothing, as long as a reference keeps the memory; after the
 *     last reference the pointer is dead, as in the kernel.
 * Layer: dma.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/processor.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "dma_internal.h"

/*
 * Binding protocol.
 *
 * Ops (mapping.c):                      Unbind (ppdma_unbind):
 *   A0  active++          (seq_cst)       U0  bound = 0          (seq_cst)
 *       b = bound         (seq_cst)       U1  for each slot: wait until
 *       if b: use d->domain, d->dbg               active == 0 (acquire)
 *   R0  active--          (release)       U2  debug leak check, detach
 *
 * An op that read bound == 1 did its A0 before U0 in the single total
 * order of sequentially consistent operations, so U1's first read of that
 * slot already counts it, and U1 only moves on once the op's R0 brought
 * the count back to zero: everything the op did happens before U2 frees
 * the domain. An op whose A0 came after U0 reads bound == 0 and touches
 * nothing. Bind publishes a new domain before its seq_cst store of
 * bound = 1, which ops read with a seq_cst (so acquire) load.
 *
 * Which operations may run concurrently on one device:
 *                    map/unmap/sync/rw   bind/unbind   get/put_device
 *   map/unmap/sync/rw       yes              yes            yes
 *   bind/unbind             yes       no (bind_lock)        yes
 *   last put_device         NO               NO             -
 *
 * The read side costs two uncontended atomic RMWs on the thread's own
 * slot, so the direct backend's map/unmap stays in the tens of ns; the
 * writer spins, which is fine for an operation as rare as unbind. The trace
 * hook runs after the section closes, so it may unbind; a print callback
 * reached from a violation report runs inside one and MUST NOT (unbind
 * would wait for itself).
 */

__thread unsigned int ppdma_slot_idx __attribute__((tls_model("initial-exec"))) = UINT_MAX;
static atomic_t ppdma_slot_next;
static atomic_long_t ppdma_dev_ids;

unsigned int ppdma_slot_assign(void)
{
	unsigned int i = (unsigned int)atomic_fetch_add_relaxed(1, &ppdma_slot_next);

	ppdma_slot_idx = i % PPDMA_NR_SLOTS;
	return ppdma_slot_idx;
}

/* U1: wait until no op section that may have seen the old binding is
 * open. New sections see bound == 0 and close at once, so this ends. */
static void ppdma_wait_for_ops(struct pp_dma_dev *d)
{
	unsigned int i, spins;

	for (i = 0; i < PPDMA_NR_SLOTS; i++) {
		spins = 0;
		/* Paired with R0 (release) in ppdma_op_end(). */
		while (smp_load_mb(&d->slots[i].active.counter)) {
			if (++spins < 64)
				cpu_relax();
			else
				sched_yield();
		}
	}
}

static long ppdma_net_maps(const struct pp_dma_dev *d)
{
	long net = 0;
	unsigned int i;

	for (i = 0; i < PPDMA_NR_SLOTS; i++)
		net += atomic_long_read(&d->slots[i].maps) -
		       atomic_long_read(&d->slots[i].unmaps);
	return net;
}

/* Caller holds bind_lock and the driver is bound. */
static void ppdma_unbind(struct pp_dma_dev *d)
{
	/* U0: from here on, new op sections find the device unbound. */
	smp_store_mb(d->bound, 0);
	ppdma_wait_for_ops(d);

	/* U2: no op touches the binding any more. The driver's managed
	 * allocations go first, as the kernel releases devres before it
	 * reports what the driver left mapped. */
	ppdma_release_managed(d);
	if (d->debug)
		ppdma_debug_unbind(d);
	WRITE_ONCE(d->live_base, ppdma_net_maps(d));
	d->be->detach(d);
	d->domain = NULL;
}

/* Caller holds bind_lock and the driver is not bound. */
static int ppdma_bind(struct pp_dma_dev *d)
{
	int err = d->be->attach(d);

	if (err)
		return err;
	/* Publishes d->domain to ops that read bound == 1. */
	smp_store_mb(d->bound, 1);
	return 0;
}

/* Devices whose last reference went with mappings never unmapped (see the
 * top of this file): reachable, so not a leak to LeakSanitizer. */
static LIST_HEAD(ppdma_kept_devs);
static DEFINE_MUTEX(ppdma_kept_lock);

static void ppdma_free(struct pp_dma_dev *d)
{
	if (d->debug)
		ppdma_debug_free(d);
	pthread_mutex_destroy(&d->bind_lock);
	kfree(d->name);
	kfree(d);
}

/* A device on backend @be; @win_base and @win_len: its window
 * (PP_DMA_WINDOW), checked by the caller. */
static struct device *ppdma_create(const char *name, const struct ppdma_backend *be,
				   unsigned int flags, unsigned long win_base, size_t win_len)
{
	struct pp_dma_dev *d;
	char auto_name[32];
	size_t len;
	int err;

	if (flags & ~(PP_DMA_DEBUG | PP_DMA_NONCOHERENT))
		return ERR_PTR(-EINVAL);
	if (!name) {
		snprintf(auto_name, sizeof(auto_name), "dma%lu",
			 (unsigned long)atomic_long_fetch_add_relaxed(1, &ppdma_dev_ids));
		name = auto_name;
	}

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return ERR_PTR(-ENOMEM);
	len = strlen(name) + 1;
	d->name = kmalloc(len, GFP_KERNEL);
	if (!d->name) {
		kfree(d);
		return ERR_PTR(-ENOMEM);
	}
	memcpy(d->name, name, len);

	d->be = be;
	d->flags = flags;
	d->debug = flags & PP_DMA_DEBUG;
	d->detect_unbind = d->debug || be == &ppdma_iommu_backend;
	d->win_base = win_base;
	d->win_len = win_len;
	d->dma_mask = DMA_BIT_MASK(32);
	refcount_set(&d->ref, 1);
	pthread_mutex_init(&d->bind_lock, NULL);
	INIT_LIST_HEAD(&d->kept);

	spin_lock_init(&d->managed_lock);
	INIT_LIST_HEAD(&d->managed);
	/* A PCI device's scatter-gather limits (pci_setup_device()). */
	d->dma_parms.max_segment_size = SZ_64K;
	d->dma_parms.segment_boundary_mask = 0xffffffffUL;

	d->dev.init_name = d->name;
	d->dev.dma_ops = be->ops;
	d->dev.dma_mask = &d->dma_mask;
	d->dev.coherent_dma_mask = DMA_BIT_MASK(32);
	d->dev.dma_parms = &d->dma_parms;
	d->dev.numa_node = NUMA_NO_NODE;
	/* With DMA-API debug, syncs must reach the checks even on a coherent
	 * device, as dma_dev_need_sync() under CONFIG_DMA_API_DEBUG. */
	d->dev.dma_skip_sync = !(flags & (PP_DMA_DEBUG | PP_DMA_NONCOHERENT));
	d->dev.pp = d;

	if (d->debug) {
		err = ppdma_debug_init(d);
		if (err)
			goto err_free;
	}
	err = ppdma_bind(d);
	if (err)
		goto err_free;
	return &d->dev;

err_free:
	ppdma_free(d);
	return ERR_PTR(err);
}

/* PP_DMA_WINDOW needs its window: pp_device_create_window(). */
struct device *pp_device_create(const char *name, enum pp_dma_backend backend,
				unsigned int flags)
{
	switch (backend) {
	case PP_DMA_DIRECT:
		return ppdma_create(name, &ppdma_direct_backend, flags, 0, 0);
	case PP_DMA_IOMMU:
		return ppdma_create(name, &ppdma_iommu_backend, flags, 0, 0);
	default:
		return ERR_PTR(-EINVAL);
	}
}

struct device *pp_device_create_window(const char *name, void *base, size_t len,
				       unsigned int flags)
{
	unsigned long b = (unsigned long)base;

	/* Inside the arena (which then exists): the window's pages are
	 * what the device may reach and what maps are checked against. */
	if (!base || !PAGE_ALIGNED(b) || !len || !PAGE_ALIGNED(len) ||
	    !virt_addr_valid(base) || len > READ_ONCE(pp_mem_map.end) - b)
		return ERR_PTR(-EINVAL);
	return ppdma_create(name, &ppdma_window_backend, flags, b, len);
}

/* A device pagepool did not create belongs to whoever embeds it; there
 * is no reference count to keep. Both calls still read dev->pp to tell
 * the two kinds apart, so a holder that may outlive the owner's memory
 * (a pool, freed a grace period after page_pool_destroy() returned) must
 * decide while the device is surely alive whether it holds a reference,
 * and not call put_device() on a bare device later: by then dev->pp may
 * be whatever the owner put in that memory next. */
struct device *get_device(struct device *dev)
{
	if (dev && to_ppdma(dev))
		refcount_inc(&to_ppdma(dev)->ref);
	return dev;
}

void put_device(struct device *dev)
{
	struct pp_dma_dev *d;

	if (!dev || !to_ppdma(dev))
		return;
	d = to_ppdma(dev);
	if (!refcount_dec_and_test(&d->ref))
		return;
	/* The last reference went without pp_device_destroy(): still unbind,
	 * so leaks are reported and the domain is freed. */
	if (READ_ONCE(d->bound))
		ppdma_unbind(d);
	/* No op section is open (the last reference is gone), so the counts
	 * are final. A mapping never unmapped may still be unmapped or synced
	 * by whoever holds it: keep the memory for that report. */
	if (ppdma_net_maps(d)) {
		/* More unmaps than maps: unmaps of addresses never mapped (or
		 * twice), which only PP_DMA_DEBUG reports one by one. The count
		 * cannot say which mappings are still live: keep the memory. */
		if (ppdma_net_maps(d) < 0)
			pr_warn("DMA-API: %s: last reference dropped after %ld more DMA unmaps than maps "
				"(unmaps of addresses never mapped; PP_DMA_DEBUG names them); "
				"the device's memory is kept, so later calls on it are reported\n",
				dev_name(dev), -ppdma_net_maps(d));
		else
			pr_warn("DMA-API: %s: last reference dropped with %ld DMA mappings never unmapped; "
				"the device's memory is kept, so later calls on them are reported\n",
				dev_name(dev), ppdma_net_maps(d));
		smp_store_mb(d->destroyed, 1);
		/* Nobody holds the device: nobody vouches for the hook's
		 * argument any more. */
		pp_dma_set_trace(dev, NULL, NULL);
		pp_dma_set_before_unmap(dev, NULL, NULL);
		mutex_lock(&ppdma_kept_lock);
		list_add_tail(&d->kept, &ppdma_kept_devs);
		mutex_unlock(&ppdma_kept_lock);
		return;
	}
	ppdma_free(d);
}

void device_release_driver(struct device *dev)
{
	struct pp_dma_dev *d;

	if (!dev || !to_ppdma(dev))
		return;		/* nothing bound, nothing kept */
	d = to_ppdma(dev);
	pthread_mutex_lock(&d->bind_lock);
	if (d->bound)
		ppdma_unbind(d);
	pthread_mutex_unlock(&d->bind_lock);
}

int pp_device_bind(struct device *dev)
{
	struct pp_dma_dev *d;
	int err = -EBUSY;

	if (IS_ERR_OR_NULL(dev) || !to_ppdma(dev))
		return -EINVAL;
	d = to_ppdma(dev);
	pthread_mutex_lock(&d->bind_lock);
	/* A destroyed device kept alive by a pool's reference has no driver
	 * to bind any more. */
	if (smp_load_mb(&d->destroyed))
		err = -ENODEV;
	else if (!d->bound)
		err = ppdma_bind(d);
	pthread_mutex_unlock(&d->bind_lock);
	return err;
}

/* A device pagepool did not create has no binding to lose. */
bool pp_device_is_bound(const struct device *dev)
{
	if (IS_ERR_OR_NULL(dev))
		return false;
	if (!to_ppdma(dev))
		return true;
	return smp_load_acquire(&to_ppdma(dev)->bound);
}

void pp_device_destroy(struct device *dev)
{
	struct pp_dma_dev *d;
	long live = 0;

	if (IS_ERR_OR_NULL(dev) || !to_ppdma(dev))
		return;
	d = to_ppdma(dev);
	/* A second destroy would drop a reference that is not the creator's
	 * (a pool's) and free the memory under its owner. */
	if (WARN(xchg(&d->destroyed, 1),
		 "DMA-API: %s: pp_device_destroy() of a device already destroyed\n",
		 dev_name(dev)))
		return;
	pthread_mutex_lock(&d->bind_lock);
	if (d->bound) {
		long base = READ_ONCE(d->live_base);

		ppdma_unbind(d);
		/* Exact: the op sections are drained, and unbind set the base
		 * to the device's net maps at this moment. */
		live = READ_ONCE(d->live_base) - base;
	}
	pthread_mutex_unlock(&d->bind_lock);
	WARN(live > 0,
	     "DMA-API: %s: pp_device_destroy() with %ld DMA mappings live (a pool or the driver still uses the device); "
	     "they died with the binding, later calls on them are reported\n",
	     dev_name(dev), live);
	/* The creator's trace hook goes with the creator's reference: its
	 * argument may die with the caller, while a pool's late returns still
	 * reach the device. */
	pp_dma_set_trace(dev, NULL, NULL);
	pp_dma_set_before_unmap(dev, NULL, NULL);
	put_device(dev);
}

/*
 * DMA masks. The kernel's dma_set_mask() fails with -EIO when the platform
 * cannot honour the mask; our floor is the 24 bits of x86's ZONE_DMA, which
 * dma_direct_supported() accepts too. The direct backend then refuses to
 * map memory above the mask (the kernel would bounce it through swiotlb);
 * the IOMMU allocates IOVAs below it.
 */
static bool ppdma_mask_ok(u64 mask)
{
	return mask >= DMA_BIT_MASK(24);
}

int dma_set_mask(struct device *dev, u64 mask)
{
	if (!dev || !dev->dma_mask || !ppdma_mask_ok(mask))
		return -EIO;
	WRITE_ONCE(*dev->dma_mask, mask);
	return 0;
}

int dma_set_coherent_mask(struct device *dev, u64 mask)
{
	if (!dev || !ppdma_mask_ok(mask))
		return -EIO;
	WRITE_ONCE(dev->coherent_dma_mask, mask);
	return 0;
}

int pp_dma_get_stats(const struct device *dev, struct pp_dma_stats *st)
{
	const struct pp_dma_dev *d;
	unsigned int i;
	long live;

	if (!st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (IS_ERR_OR_NULL(dev))
		return -EINVAL;
	if (!to_ppdma(dev))
		return 0;
	d = to_ppdma(dev);
	for (i = 0; i < PPDMA_NR_SLOTS; i++) {
		const struct ppdma_slot *s = &d->slots[i];

		st->maps += atomic_long_read(&s->maps);
		st->unmaps += atomic_long_read(&s->unmaps);
		st->map_errors += atomic_long_read(&s->map_errors);
		st->syncs_for_device += atomic_long_read(&s->syncs_for_device);
		st->syncs_for_cpu += atomic_long_read(&s->syncs_for_cpu);
	}
	/* Mappings die with their binding. The direct backend without
	 * debug cannot tell a bogus unmap from a real one, so a buggy caller
	 * can push the difference below zero: report 0 then. */
	live = (long)(st->maps - st->unmaps) -
	       READ_ONCE(d->live_base);
	st->live_mappings = live > 0 ? (unsigned long)live : 0;
	return 0;
}

/*
 * The trace hook. Caller MUST NOT switch from one non-NULL hook to another
 * while ops run on @dev (an op could pair the old function with the new
 * argument); installing or removing one at any time is fine.
 */
void pp_dma_set_trace(struct device *dev, pp_dma_trace_fn fn, void *arg)
{
	struct pp_dma_dev *d;

	if (IS_ERR_OR_NULL(dev) || !to_ppdma(dev))
		return;		/* no state to hold a hook */
	d = to_ppdma(dev);
	if (!fn) {
		smp_store_release(&d->trace, NULL);
		WRITE_ONCE(d->trace_arg, NULL);
		return;
	}
	WRITE_ONCE(d->trace_arg, arg);
	/* Paired with the acquire load in ppdma_trace() (mapping.c). */
	smp_store_release(&d->trace, fn);
}

/* The before-unmap hook: the same rules as the trace hook's. */
void pp_dma_set_before_unmap(struct device *dev, pp_dma_before_unmap_fn fn, void *arg)
{
	struct pp_dma_dev *d;

	if (IS_ERR_OR_NULL(dev) || !to_ppdma(dev))
		return;
	d = to_ppdma(dev);
	if (!fn) {
		smp_store_release(&d->before_unmap, NULL);
		WRITE_ONCE(d->before_unmap_arg, NULL);
		return;
	}
	WRITE_ONCE(d->before_unmap_arg, arg);
	/* Paired with the acquire load in ppdma_before_unmap(). */
	smp_store_release(&d->before_unmap, fn);
}
