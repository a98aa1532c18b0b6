/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Kernel core mode's glue (docs/KERNEL_CORE.md): what the kernel's
 * net/core/page_pool.c calls that the kernel keeps in other files, and
 * pagepool's own pool API (<pagepool/core.h>) answered from the kernel's
 * struct page_pool. Compiled with the tested tree's headers first, as
 * page_pool.c is.
 *
 *   - page_pool_list(), page_pool_detached(), page_pool_unlist(): the
 *     pool registry of net/core/page_pool_user.c without its netlink half.
 *     Ids come from an allocating XArray, cyclically from 1, under one
 *     mutex, and a pool with a netdev joins the netdev's page_pools list,
 *     as there.
 *   - The tracepoints of <trace/events/page_pool.h> (CREATE_TRACE_POINTS
 *     here, once for the library).
 *   - <pagepool/core.h>: the introspection calls (pp_page_pool_id,
 *     _get_info, _get_stats_by_id, _for_each) read the kernel's fields;
 *     the design switches accept exactly the kernel's design (ring:
 *     ptr_ring; DMA tracking: the tree's); the calls that reach pagepool's
 *     own core (test hooks, holders, misuse counters, the region memory
 *     provider, the defer times, which are #defines in page_pool.c) return
 *     -EOPNOTSUPP or do nothing, each said below: a test that needs them
 *     is listed as needing pagepool-only hooks.
 *   - fail_function: a wrapper for each function the tree marks
 *     ALLOW_ERROR_INJECTION(), in place of the kernel's kprobe.
 * Layer: core (kernel core mode).
 */
#include <linux/errno.h>
#include <linux/error-injection.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/xarray.h>
#include <net/netdev_rx_queue.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

#include "page_pool_priv.h"	/* the tested tree's net/core/ */

#define CREATE_TRACE_POINTS
#include <trace/events/page_pool.h>

/* The runtime's netdev.c hands out struct netdev_rx_queue as the runtime
 * header lays it out; this file sees src/kcore's copy, whose
 * mp_params is the tested tree's struct. They must agree. */
static_assert(offsetof(struct netdev_rx_queue, dev) == 0, "rx queue layout");
static_assert(offsetof(struct netdev_rx_queue, napi) == sizeof(void *), "rx queue layout");
static_assert(offsetof(struct netdev_rx_queue, mp_params) == 2 * sizeof(void *),
	      "rx queue layout");
static_assert(sizeof(struct pp_memory_provider_params) == 2 * sizeof(void *),
	      "the tested tree's pp_memory_provider_params is not the runtime's");

static DEFINE_XARRAY_ALLOC1(kcore_pools);
static u32 kcore_next_id;
static DEFINE_MUTEX(kcore_pools_lock);

int page_pool_list(struct page_pool *pool)
{
	int err;

	mutex_lock(&kcore_pools_lock);
	err = xa_alloc_cyclic(&kcore_pools, &pool->user.id, pool, xa_limit_32b,
			      &kcore_next_id, GFP_KERNEL);
	if (err < 0)
		goto out;
	INIT_HLIST_NODE(&pool->user.list);
	if (pool->slow.netdev) {
		hlist_add_head(&pool->user.list, &pool->slow.netdev->page_pools);
		pool->user.napi_id = pool->p.napi ? pool->p.napi->napi_id : 0;
	}
	err = 0;
out:
	mutex_unlock(&kcore_pools_lock);
	return err;
}

void page_pool_detached(struct page_pool *pool)
{
	mutex_lock(&kcore_pools_lock);
	pool->user.detach_time = ktime_get_boottime_seconds();
	mutex_unlock(&kcore_pools_lock);
}

void page_pool_unlist(struct page_pool *pool)
{
	mutex_lock(&kcore_pools_lock);
	xa_erase(&kcore_pools, pool->user.id);
	if (!hlist_unhashed(&pool->user.list))
		hlist_del(&pool->user.list);
	mutex_unlock(&kcore_pools_lock);
}

/* ---- <pagepool/core.h> over the kernel's struct page_pool ---- */

u32 pp_page_pool_id(const struct page_pool *pool)
{
	if (IS_ERR_OR_NULL(pool))
		return 0;
	return pool->user.id;
}

/* As page_pool_user.c's page_pool_nl_fill() fills its reply; with
 * kcore_pools_lock held. */
static void kcore_fill_info(struct page_pool *pool, struct pp_page_pool_info *info)
{
	s32 inflight = page_pool_inflight(pool, false);

	memset(info, 0, sizeof(*info));
	info->id = pool->user.id;
	if (pool->slow.netdev) {
		info->has_ifindex = true;
		info->ifindex = pool->slow.netdev->ifindex;
	}
	if (pool->user.napi_id) {
		info->has_napi_id = true;
		info->napi_id = pool->user.napi_id;
	}
	info->inflight = inflight > 0 ? inflight : 0;
	info->inflight_mem = info->inflight * (PAGE_SIZE << pool->p.order);
	if (pool->user.detach_time) {
		info->has_detach_time = true;
		info->detach_time = pool->user.detach_time;
	}
}

int pp_page_pool_get_info(u32 id, struct pp_page_pool_info *info)
{
	struct page_pool *pool;
	int err = -ENOENT;

	if (!info)
		return -EINVAL;
	mutex_lock(&kcore_pools_lock);
	pool = xa_load(&kcore_pools, id);
	if (pool) {
		kcore_fill_info(pool, info);
		err = 0;
	}
	mutex_unlock(&kcore_pools_lock);
	return err;
}

int pp_page_pool_get_stats_by_id(u32 id, struct page_pool_stats *stats)
{
	struct page_pool *pool;
	int err = -ENOENT;

	if (!stats)
		return -EINVAL;
	mutex_lock(&kcore_pools_lock);
	pool = xa_load(&kcore_pools, id);
	if (pool) {
#ifdef CONFIG_PAGE_POOL_STATS
		err = page_pool_get_stats(pool, stats) ? 0 : -EINVAL;
#else
		err = -EOPNOTSUPP;
#endif
	}
	mutex_unlock(&kcore_pools_lock);
	return err;
}

int pp_page_pool_for_each(int (*cb)(const struct pp_page_pool_info *info, void *arg), void *arg)
{
	struct pp_page_pool_info info;
	struct page_pool *pool;
	unsigned long id;
	int ret = 0;

	if (!cb)
		return -EINVAL;
	mutex_lock(&kcore_pools_lock);
	xa_for_each(&kcore_pools, id, pool) {
		kcore_fill_info(pool, &info);
		ret = cb(&info, arg);
		if (ret)
			break;
	}
	mutex_unlock(&kcore_pools_lock);
	return ret;
}

/* The kernel's ring is one ptr_ring: that design exists, no other. */
int pp_page_pool_set_ring_mode(int mode)
{
	if (mode < 0 || mode >= __PP_RING_NR)
		return -EINVAL;
	return mode == PP_RING_PTR_RING ? PP_RING_PTR_RING : -EOPNOTSUPP;
}

/* The tested tree's DMA tracking: the index in pp_magic and the per-pool
 * XArray where it has them (upstream v6.15, backported to 6.12.y, whose
 * types.h defines PP_DMA_INDEX_BITS), none before. */
#ifdef PP_DMA_INDEX_BITS
#define KCORE_DMA_TRACKING	PP_DMA_TRACK_INDEX
#else
#define KCORE_DMA_TRACKING	PP_DMA_TRACK_OFF
#endif

int pp_page_pool_set_dma_tracking(int mode)
{
	if (mode < PP_DMA_TRACK_INDEX || mode > PP_DMA_TRACK_OFF)
		return -EINVAL;
	return mode == KCORE_DMA_TRACKING ? KCORE_DMA_TRACKING : -EOPNOTSUPP;
}

int pp_page_pool_get_track_stats(const struct page_pool *pool,
				 struct pp_page_pool_track_stats *st)
{
	if (!pool || !st)
		return -EINVAL;
	return -EOPNOTSUPP;
}

/* The kernel's code is what it is: nothing to switch. */
unsigned int pp_page_pool_set_fixes(unsigned int mask)
{
	(void)mask;
	return 0;
}

/* DEFER_TIME and DEFER_WARN_INTERVAL are #defines in page_pool.c (1 s and
 * 60 s): a release retry here waits the kernel's second. */
void pp_page_pool_set_defer_times(unsigned int retry_ms, unsigned int warn_ms)
{
	(void)retry_ms;
	(void)warn_ms;
}

int pp_page_pool_set_test_hook(pp_page_pool_hook_fn fn, void *arg)
{
	(void)fn;
	(void)arg;
	return -EOPNOTSUPP;
}

int pp_page_pool_dump_json(FILE *out)
{
	(void)out;
	return -EOPNOTSUPP;
}

int pp_page_pool_for_each_holder(u32 id, int (*cb)(const struct pp_page_pool_holder *h, void *arg),
				 void *arg)
{
	(void)id;
	(void)cb;
	(void)arg;
	return -EOPNOTSUPP;
}

void pp_page_pool_note_handoff(netmem_ref netmem)
{
	(void)netmem;
}

/* The kernel counts no misuse: it WARNs (pp_warn_count() sees those). */
int pp_page_pool_get_misuse(struct pp_page_pool_misuse *m)
{
	if (!m)
		return -EINVAL;
	return -EOPNOTSUPP;
}

/* The region memory provider is pagepool's core's. */
struct pp_region_provider *pp_region_provider_create(struct device *dev, unsigned int nr_niovs)
{
	(void)dev;
	(void)nr_niovs;
	return ERR_PTR(-EOPNOTSUPP);
}

int pp_region_provider_params(struct pp_region_provider *rp, struct pp_memory_provider_params *p)
{
	(void)rp;
	(void)p;
	return -EOPNOTSUPP;
}

unsigned int pp_region_provider_free(const struct pp_region_provider *rp)
{
	(void)rp;
	return 0;
}

void *pp_region_provider_addr(const struct pp_region_provider *rp, netmem_ref netmem)
{
	(void)rp;
	(void)netmem;
	return NULL;
}

int pp_region_provider_destroy(struct pp_region_provider *rp)
{
	(void)rp;
	return -EOPNOTSUPP;
}

/*
 * fail_function. src/kcore/meson.build compiles page_pool.c with each
 * function it marks ALLOW_ERROR_INJECTION() renamed to __pp_kcore_<name>
 * (PP_KCORE_EI_<name> says which); the name itself is this wrapper, which
 * asks the tree's mark (__pp_eil_<name>, <linux/error-injection.h>) and
 * returns the error value on an injected failure, without running the
 * function, as the kernel's kprobe does. Callers outside page_pool.c (the
 * tree's inline helpers in users' code, calls through the address) all
 * come here; a call inside page_pool.c would reach the renamed body
 * directly, and 6.12's has none. One load and a tail call while nothing
 * is armed.
 */
#ifdef PP_KCORE_EI_page_pool_alloc_pages
PP_ERROR_INJECT_MARK(page_pool_alloc_pages);
struct page *__pp_kcore_page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp);

struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp)
{
	if (pp_error_inject_should_fail(&__pp_eil_page_pool_alloc_pages))
		return NULL;	/* EI_ETYPE_NULL */
	return __pp_kcore_page_pool_alloc_pages(pool, gfp);
}
#endif
