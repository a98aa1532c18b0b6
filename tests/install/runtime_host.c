/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A piece of kernel-style code hosted by the runtime-only library, built
 * outside the tree with `pkg-config --cflags --libs pagepool-runtime`
 * alone and linked with its per-CPU linker script
 * (`pkg-config --variable=percpu_ldscript pagepool-runtime`): what a
 * subsystem's .c file finds there without any page_pool - a static per-CPU
 * counter bumped from two CPUs, an allocating XArray, pages and kmalloc,
 * DMA mappings through an IOMMU device with DMA-API debug, call_rcu(),
 * work items. tests/install/check_runtime_lib.sh builds and runs it.
 */
#include <pthread.h>
#include <stdio.h>

#include <linux/dma-mapping.h>
#include <linux/error-injection.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <pagepool/dma.h>
#include <pagepool/mm.h>
#include <pagepool/runtime.h>

#define CHECK(cond)								\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #cond); \
			return 1;						\
		}								\
	} while (0)

static DEFINE_PER_CPU(unsigned long, host_events);
static DEFINE_XARRAY_ALLOC1(host_ids);

struct host_obj {
	struct rcu_head rcu;
	u32 id;
};

static int rcu_frees, work_runs;

static void host_obj_free(struct rcu_head *head)
{
	kfree(container_of(head, struct host_obj, rcu));
	__atomic_fetch_add(&rcu_frees, 1, __ATOMIC_RELAXED);
}

static void host_work_fn(struct work_struct *work)
{
	(void)work;
	__atomic_fetch_add(&work_runs, 1, __ATOMIC_RELAXED);
}

static DECLARE_WORK(host_work, host_work_fn);

static void *cpu1_thread(void *arg)
{
	int i;

	(void)arg;
	if (pp_thread_register(1) != 1)
		return (void *)1;
	for (i = 0; i < 1000; i++)
		this_cpu_inc(host_events);
	pp_thread_unregister();
	return NULL;
}

int main(void)
{
	struct device *dev = pp_device_create("host", PP_DMA_IOMMU, PP_DMA_DEBUG);
	struct host_obj *objs[16];
	struct pp_mem_stats ms;
	struct page *page;
	dma_addr_t dma;
	pthread_t t;
	void *ret;
	int i;

	CHECK(pp_thread_register(0) == 0);
	CHECK(!IS_ERR(dev));

	/* Per-CPU: CPU 0's copy and CPU 1's are distinct, and both count. */
	for (i = 0; i < 500; i++)
		this_cpu_inc(host_events);
	CHECK(pthread_create(&t, NULL, cpu1_thread, NULL) == 0);
	CHECK(pthread_join(t, &ret) == 0 && ret == NULL);
	CHECK(per_cpu(host_events, 0) == 500);
	CHECK(per_cpu(host_events, 1) == 1000);

	/* An allocating XArray: ids from 1, lowest free first. */
	for (i = 0; i < 16; i++) {
		objs[i] = kzalloc(sizeof(*objs[i]), GFP_KERNEL);
		CHECK(objs[i]);
		CHECK(xa_alloc(&host_ids, &objs[i]->id, objs[i], xa_limit_32b, GFP_KERNEL) == 0);
		CHECK(objs[i]->id == (u32)i + 1);
	}
	CHECK(xa_erase(&host_ids, 5) == objs[4]);
	CHECK(xa_alloc(&host_ids, &objs[4]->id, objs[4], xa_limit_32b, GFP_KERNEL) == 0);
	CHECK(objs[4]->id == 5);
	for (i = 0; i < 16; i++) {
		CHECK(xa_load(&host_ids, objs[i]->id) == objs[i]);
		xa_erase(&host_ids, objs[i]->id);
		call_rcu(&objs[i]->rcu, host_obj_free);
	}
	rcu_barrier();
	CHECK(rcu_frees == 16);
	xa_destroy(&host_ids);

	/* Pages and a DMA mapping, checked by DMA-API debug. */
	page = alloc_pages(GFP_KERNEL, 1);
	CHECK(page);
	dma = dma_map_page_attrs(dev, page, 0, 2 * PAGE_SIZE, DMA_FROM_DEVICE, 0);
	CHECK(!dma_mapping_error(dev, dma));
	dma_sync_single_for_cpu(dev, dma, PAGE_SIZE, DMA_FROM_DEVICE);
	dma_unmap_page_attrs(dev, dma, 2 * PAGE_SIZE, DMA_FROM_DEVICE, 0);
	__free_pages(page, 1);

	/* Work items run on the runtime's worker. */
	schedule_work(&host_work);
	flush_work(&host_work);
	CHECK(work_runs == 1);

	/* No page_pool here, so nothing is injectable by fail_function. */
	CHECK(pp_fail_function_name(0) == NULL);

	CHECK(pp_dma_violations(NULL) == 0);
	pp_device_destroy(dev);
	pp_mem_get_stats(&ms);
	CHECK(ms.free_pages == ms.total_pages);
	printf("hosted: per-CPU 500 + 1000, 16 ids, %d RCU frees, 1 work item, "
	       "0 DMA-API violations, all %lu pages free\n", rcu_frees,
	       (unsigned long)ms.total_pages);
	return 0;
}
