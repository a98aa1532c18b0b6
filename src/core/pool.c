/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool creation and end of life, as the kernel's page_pool_init(),
 * page_pool_create*() and the free that follows the last page home; the
 * design each new pool gets (the build's, or in an all-designs build the
 * run-time choice); direct-recycling and NUMA settings; the test hooks
 * and the debug build's consumer guard. Allocation is in alloc.c,
 * recycling in recycle.c and ring*.c, fragments in frag.c, destroy and
 * the page return in release.c.
 */

#include <errno.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/lockdep.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

#include "core/core_internal.h"
#include "core/dma_track.h"
#include "core/ring.h"
#include "runtime/runtime_internal.h"

DEFINE_STATIC_KEY_FALSE(page_pool_mem_providers);

/*
 * The designs of new pools (meson -Ddesigns, <generated/autoconf.h>). A
 * default build has one design per axis, which every pool gets; an
 * environment variable naming another gets one warning. An all-designs
 * build starts from the per-axis option's design, or from the environment
 * (PAGEPOOL_RING, PAGEPOOL_DMA_TRACKING; read once, at the first pool or
 * setter call), and the setters switch it for pools created afterwards.
 * The design is read at creation only: the fast paths test the pool
 * (page_pool_has_lanes(), ppcore_track_design()), constants outside the
 * all-designs build.
 */
struct ppcore_design_axis {
	const char *const names[__PP_RING_NR];	/* the knob's values, by enum value */
	int nr;
	int built_mask;			/* BIT(enum value) of each design compiled in */
	int dflt;			/* the build's selection */
	enum pprt_knob knob;
	const char *option;		/* the meson option that selects it */
	int mode;			/* -1 until chosen */
};

static struct ppcore_design_axis ppcore_ring_axis = {
	.names = { [PP_RING_LANES] = "lanes", [PP_RING_PTR_RING] = "ptr_ring",
		   [PP_RING_LLIST] = "llist", [PP_RING_LLIST_BATCH] = "llist_batch",
		   [PP_RING_MAGAZINE] = "magazine" },
	.nr = __PP_RING_NR,
	.built_mask = (IS_ENABLED(CONFIG_PAGEPOOL_RING_LANES) << PP_RING_LANES) |
		      (IS_ENABLED(CONFIG_PAGEPOOL_RING_PTR_RING) << PP_RING_PTR_RING) |
		      (IS_ENABLED(CONFIG_PAGEPOOL_RING_LLIST) << PP_RING_LLIST) |
		      (IS_ENABLED(CONFIG_PAGEPOOL_RING_LLIST_BATCH) << PP_RING_LLIST_BATCH) |
		      (IS_ENABLED(CONFIG_PAGEPOOL_RING_MAGAZINE) << PP_RING_MAGAZINE),
	.dflt = CONFIG_PAGEPOOL_RING_DEFAULT,
	.knob = PPRT_KNOB_RING,
	.option = "-Dring",
	.mode = -1,
};

static struct ppcore_design_axis ppcore_track_axis = {
	.names = { [PP_DMA_TRACK_INDEX] = "index", [PP_DMA_TRACK_ITEMS] = "items",
		   [PP_DMA_TRACK_OFF] = "off" },
	.nr = 3,
	/* "off" is the behaviour before the DMA-unbind fix: only where the
	 * fixes can be switched off. */
	.built_mask = (IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX) << PP_DMA_TRACK_INDEX) |
		      (IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS) << PP_DMA_TRACK_ITEMS) |
		      (IS_ENABLED(CONFIG_PAGEPOOL_FIX_SWITCHES) << PP_DMA_TRACK_OFF),
	.dflt = CONFIG_PAGEPOOL_DMA_TRACK_DEFAULT,
	.knob = PPRT_KNOB_DMA_TRACKING,
	.option = "-Ddma_tracking",
	.mode = -1,
};

static bool ppcore_design_built(const struct ppcore_design_axis *axis, int mode)
{
	return mode >= 0 && mode < axis->nr && (axis->built_mask & (1 << mode));
}

/* The design new pools get: the knob's, if it names one this build has
 * (a warning if it does not), else the build's selection. */
static int ppcore_design_get(struct ppcore_design_axis *axis)
{
	int mode = READ_ONCE(axis->mode);
	const char *v;

	if (mode >= 0)
		return mode;
	mode = axis->dflt;
	v = pprt_knob(axis->knob);
	if (v) {
		int i;

		for (i = 0; i < axis->nr && strcmp(v, axis->names[i]); i++)
			;
		if (ppcore_design_built(axis, i))
			mode = i;
		else if (i < axis->nr)
			pr_warn("pagepool: %s=%s ignored: this build does not have that design (meson %s%s-Ddesigns=all); using %s\n",
				pprt_knob_name(axis->knob), v,
				/* "off" is no option's value: it is a fix switched off */
				axis == &ppcore_track_axis && i == PP_DMA_TRACK_OFF ? "" : axis->option,
				axis == &ppcore_track_axis && i == PP_DMA_TRACK_OFF ? "" : " or ",
				axis->names[mode]);
		else
			pr_warn("pagepool: %s=%s: unknown value; using %s\n",
				pprt_knob_name(axis->knob), v, axis->names[mode]);
	}
	/* Racing first readers agree (the same inputs give the same mode);
	 * a setter that got in first is not undone. */
	{
		int unset = -1;

		if (!try_cmpxchg_relaxed(&axis->mode, &unset, mode))
			mode = unset;
	}
	return mode;
}

static int ppcore_design_set(struct ppcore_design_axis *axis, int mode)
{
	int old = ppcore_design_get(axis);

	if (mode < 0 || mode >= axis->nr)
		return -EINVAL;
	if (!ppcore_design_built(axis, mode))
		return -EOPNOTSUPP;
	WRITE_ONCE(axis->mode, mode);
	return old;
}

/* At pool creation. A one-design build reads the knob too, to warn
 * about a design it does not have. */
int ppcore_ring_mode(void)
{
	return ppcore_design_get(&ppcore_ring_axis);
}

int ppcore_dma_tracking_mode(void)
{
	return ppcore_design_get(&ppcore_track_axis);
}

int pp_page_pool_set_ring_mode(int mode)
{
	return ppcore_design_set(&ppcore_ring_axis, mode);
}

int pp_page_pool_set_dma_tracking(int mode)
{
	return ppcore_design_set(&ppcore_track_axis, mode);
}

#ifdef CONFIG_PAGEPOOL_FIX_SWITCHES
unsigned int ppcore_fixes = PP_FIX_NAPI_LOCAL_RCU;

unsigned int pp_page_pool_set_fixes(unsigned int mask)
{
	return xchg_relaxed(&ppcore_fixes, mask);
}
#else
/* The fixes are always on: the call changes nothing and returns the mask
 * in effect, so a caller that tried to turn one off can see it is on. */
unsigned int pp_page_pool_set_fixes(unsigned int mask)
{
	(void)mask;
	return PP_FIX_NAPI_LOCAL_RCU;
}
#endif

#ifdef CONFIG_PAGEPOOL_TEST_HOOKS
pp_page_pool_hook_fn ppcore_hook_fn;
static void *ppcore_hook_arg;

int pp_page_pool_set_test_hook(pp_page_pool_hook_fn fn, void *arg)
{
	WRITE_ONCE(ppcore_hook_arg, arg);
	/* H1: the argument is seen by whoever sees the hook (H1'). */
	smp_store_release(&ppcore_hook_fn, fn);	/* H1 */
	return 0;
}

void ppcore_run_hook(enum pp_page_pool_hook point, struct page_pool *pool)
{
	pp_page_pool_hook_fn fn = smp_load_acquire(&ppcore_hook_fn);	/* H1' */

	if (fn)
		fn(point, pool, READ_ONCE(ppcore_hook_arg));
}
#else
int pp_page_pool_set_test_hook(pp_page_pool_hook_fn fn, void *arg)
{
	(void)fn;
	(void)arg;
	return -EOPNOTSUPP;
}
#endif

/* The consumer-side guard (core_internal.h says what it is for). */
#ifdef CONFIG_DEBUG_NET
bool ppcore_consumer_enter(struct page_pool *pool, const char *what)
{
	void *me = (void *)&__pp_ctx, *owner = NULL;

	/* CG1 (acquire): the previous consumer's cache writes happen
	 * before ours; pairs with CG1' in ppcore_consumer_exit(). */
	if (try_cmpxchg_acquire(&pool->dbg_consumer, &owner, me)) {
		pool->dbg_consumer_depth = 1;
		return true;
	}
	if (owner == me) {
		pool->dbg_consumer_depth++;
		return true;
	}
	ppcore_count_misuse(PPCORE_MISUSE_CONCURRENT_CONSUMER);
	if (!xchg_relaxed(&pool->dbg_consumer_warned, true))
		WARN(1, "page_pool %u: %s while another context is in the pool's consumer side (only its NAPI context may allocate or recycle directly)",
		     pool->user.id, what);
	return false;
}

void ppcore_consumer_exit(struct page_pool *pool)
{
	if (!--pool->dbg_consumer_depth)
		smp_store_release(&pool->dbg_consumer, NULL);	/* CG1' */
}
#endif

/* System pools share one per-CPU statistics object, as in the kernel. */
static struct page_pool_recycle_stats __percpu *pp_system_recycle_stats;
static DEFINE_MUTEX(system_stats_lock);

static int page_pool_stats_init(struct page_pool *pool)
{
#ifdef CONFIG_PAGE_POOL_STATS
	if (!(pool->slow.flags & PP_FLAG_SYSTEM_POOL)) {
		pool->recycle_stats = alloc_percpu(struct page_pool_recycle_stats);
		return pool->recycle_stats ? 0 : -ENOMEM;
	}
	mutex_lock(&system_stats_lock);
	if (!pp_system_recycle_stats)
		pp_system_recycle_stats = alloc_percpu(struct page_pool_recycle_stats);
	pool->recycle_stats = pp_system_recycle_stats;
	mutex_unlock(&system_stats_lock);
	pool->system = true;
	return pool->recycle_stats ? 0 : -ENOMEM;
#else
	pool->system = !!(pool->slow.flags & PP_FLAG_SYSTEM_POOL);
	return 0;
#endif
}

static void page_pool_stats_uninit(struct page_pool *pool)
{
#ifdef CONFIG_PAGE_POOL_STATS
	if (!pool->system)
		free_percpu(pool->recycle_stats);
#endif
}

static int page_pool_init(struct page_pool *pool, const struct page_pool_params *params,
			  int cpuid)
{
	unsigned int ring_qsize = PAGE_POOL_DEFAULT_RING_SIZE;
	struct netdev_rx_queue *rxq;
	int err;

	memcpy(&pool->p, &params->fast, sizeof(pool->p));
	memcpy(&pool->slow, &params->slow, sizeof(pool->slow));

	pool->cpuid = cpuid;
	pool->dma_sync_for_cpu = true;

	if (pool->slow.flags & ~PP_FLAG_ALL)
		return -EINVAL;

	if (pool->p.pool_size)
		ring_qsize = min(pool->p.pool_size, (unsigned int)PAGE_POOL_MAX_RING_SIZE);

	/* DMA_FROM_DEVICE, or DMA_BIDIRECTIONAL for XDP_TX. */
	if (pool->slow.flags & PP_FLAG_DMA_MAP) {
		if (pool->p.dma_dir != DMA_FROM_DEVICE &&
		    pool->p.dma_dir != DMA_BIDIRECTIONAL)
			return -EINVAL;
		/* NULL or an unchecked ERR_PTR() (a failed device creation). */
		if (IS_ERR_OR_NULL(pool->p.dev))
			return -EINVAL;
		pool->dma_map = true;
	}

	if (pool->slow.flags & PP_FLAG_DMA_SYNC_DEV) {
		/* Syncing for the device needs a mapping and a length. */
		if (!(pool->slow.flags & PP_FLAG_DMA_MAP))
			return -EINVAL;
		if (!pool->p.max_len)
			return -EINVAL;
		pool->dma_sync = true;
	}

	pool->has_init_callback = !!pool->slow.init_callback;

	err = page_pool_stats_init(pool);
	if (err)
		return err;

	if (ptr_ring_init(&pool->ring, (int)ring_qsize, GFP_KERNEL) < 0) {
		err = -ENOMEM;
		goto err_free_stats;
	}
	pool->ring_design = (u8)ppcore_ring_mode();
	err = page_pool_ring_design_init(pool, ring_qsize);
	if (err)
		goto err_free_ring;

	pool->dma_tracking = (u8)ppcore_dma_tracking_mode();
	err = ppcore_track_init(pool);
	if (err)
		goto err_free_ring;

	atomic_set(&pool->pages_state_release_cnt, 0);
	/* The driver calling page_pool_create() also calls page_pool_destroy(). */
	refcount_set(&pool->user_cnt, 1);

	if (pool->slow.flags & PP_FLAG_ALLOW_UNREADABLE_NETMEM) {
		if (!pool->slow.netdev ||
		    pool->slow.queue_idx >= pool->slow.netdev->num_rx_queues) {
			err = -EINVAL;
			goto err_free_ring;
		}
		rxq = __netif_get_rx_queue(pool->slow.netdev, pool->slow.queue_idx);
		pool->mp_priv = rxq->mp_params.mp_priv;
		pool->mp_ops = rxq->mp_params.mp_ops;
	}

	if (pool->mp_ops) {
		if (!pool->dma_map || !pool->dma_sync) {
			err = -EOPNOTSUPP;
			goto err_free_ring;
		}
		if (WARN_ON(ppcore_mp_check_ops(pool->mp_ops))) {
			err = -EFAULT;
			goto err_free_ring;
		}
		err = pool->mp_ops->init(pool);
		if (err) {
			pr_warn("%s() mem-provider init failed %d\n", __func__, err);
			goto err_free_ring;
		}
		static_branch_inc(&page_pool_mem_providers);
	} else if (pool->p.order > MAX_PAGE_ORDER) {
		err = -EINVAL;
		goto err_free_ring;
	}
	/* The pool syncs and unmaps through the device until it is freed,
	 * its last page home, which may be long after the driver destroyed
	 * the device: hold it that long, as the kernel's page_pool_init()
	 * long did (6.12 has no such reference). Taken last, so that no
	 * error path above has to drop it. A device pagepool did not create
	 * (dev->pp NULL) has no count to hold: its owner may free it as soon
	 * as page_pool_destroy() returned, so whether there is a reference
	 * to drop is noted now, while the device is surely alive, and the
	 * free a grace period later does not read the device to find out. */
	if (pool->dma_map && pool->p.dev->pp) {
		get_device(pool->p.dev);
		pool->dev_held = true;
	}
	return 0;

err_free_ring:
	ppcore_track_free(pool);
	page_pool_ring_design_free(pool);
	ptr_ring_cleanup(&pool->ring, NULL);
err_free_stats:
	page_pool_stats_uninit(pool);
	return err;
}

/* Undo page_pool_init(), part one, when the last page came home: the
 * memory provider is told now. */
void page_pool_uninit(struct page_pool *pool)
{
	if (pool->mp_ops) {
		pool->mp_ops->destroy(pool);
		static_branch_dec(&page_pool_mem_providers);
	}
}

/* page_pool_init()'s device reference. */
static void page_pool_put_device(struct page_pool *pool)
{
	if (pool->dev_held)
		put_device(pool->p.dev);
}

/* Part two, a grace period later: a recycler that saw the pool (it puts
 * inside an RCU read-side section, bh-disabled) may still be finishing
 * its statistics or lane update until then - or a sync or unmap through
 * the device, which the pool's reference keeps until here. */
static void page_pool_free_rcu(struct rcu_head *head)
{
	struct page_pool *pool = container_of(head, struct page_pool, rcu);

	ppcore_track_free(pool);
	page_pool_ring_design_free(pool);
	ptr_ring_cleanup(&pool->ring, NULL);
	page_pool_stats_uninit(pool);
	page_pool_put_device(pool);
	kfree(pool);
}

void ppcore_free(struct page_pool *pool)
{
	call_rcu(&pool->rcu, page_pool_free_rcu);
}

/* A program built against another build's headers (types.h,
 * __PP_INLINE_ABI): say which option differs. */
static int page_pool_check_inline_abi(unsigned long abi)
{
	const unsigned long mine = __PP_INLINE_ABI, items = __PP_INLINE_ABI_ITEMS;

	if ((abi & ~items) == (mine & ~items) && ((abi & items) || !(mine & items)))
		return 0;
	WARN(1, "page_pool_create: the program was compiled against the headers of another pagepool build "
	     "(its NR_CPUS %lu, DEBUG_NET %s, PAGE_POOL_STATS %s, item pointers %s; this library's %lu, %s, %s, %s): "
	     "rebuild it against this library's headers",
	     abi >> 8, abi & __PP_INLINE_ABI_DEBUG_NET ? "y" : "n",
	     abi & __PP_INLINE_ABI_STATS ? "y" : "n", abi & items ? "decoded" : "not decoded",
	     mine >> 8, mine & __PP_INLINE_ABI_DEBUG_NET ? "y" : "n",
	     mine & __PP_INLINE_ABI_STATS ? "y" : "n", mine & items ? "made" : "never made");
	return -ENOEXEC;
}

struct page_pool *__page_pool_create_percpu_checked(unsigned long inline_abi,
						    const struct page_pool_params *params,
						    int cpuid)
{
	int err = page_pool_check_inline_abi(inline_abi);

	if (err)
		return ERR_PTR(err);
	return (page_pool_create_percpu)(params, cpuid);
}

struct page_pool *__page_pool_create_checked(unsigned long inline_abi,
					     const struct page_pool_params *params)
{
	return __page_pool_create_percpu_checked(inline_abi, params, -1);
}

struct page_pool *(page_pool_create_percpu)(const struct page_pool_params *params, int cpuid)
{
	struct page_pool *pool;
	int err;

	pool = kzalloc_node(sizeof(*pool), GFP_KERNEL, params->nid);
	if (!pool)
		return ERR_PTR(-ENOMEM);

	err = page_pool_init(pool, params, cpuid);
	if (err < 0)
		goto err_free;

	err = page_pool_list(pool);
	if (err)
		goto err_uninit;

	ppcore_run_create_hook();
	return pool;

err_uninit:
	page_pool_uninit(pool);
	page_pool_put_device(pool);
	ppcore_track_free(pool);
	page_pool_ring_design_free(pool);
	ptr_ring_cleanup(&pool->ring, NULL);
	page_pool_stats_uninit(pool);
err_free:
	pr_warn("%s() gave up with errno %d\n", __func__, err);
	kfree(pool);
	return ERR_PTR(err);
}

struct page_pool *(page_pool_create)(const struct page_pool_params *params)
{
	return (page_pool_create_percpu)(params, -1);
}

/* Direct recycling and NUMA. */

void page_pool_enable_direct_recycling(struct page_pool *pool, struct napi_struct *napi)
{
	if (READ_ONCE(pool->p.napi) == napi)
		return;
	WARN_ON(!napi || pool->p.napi);

	mutex_lock(&page_pools_lock);
	WRITE_ONCE(pool->p.napi, napi);
	mutex_unlock(&page_pools_lock);
}

void page_pool_disable_direct_recycling(struct page_pool *pool)
{
	/* Paired with READ_ONCE() in page_pool_napi_local(). */
	WRITE_ONCE(pool->cpuid, -1);

	if (!pool->p.napi)
		return;

	napi_assert_will_not_race(pool->p.napi);

	mutex_lock(&page_pools_lock);
	WRITE_ONCE(pool->p.napi, NULL);
	mutex_unlock(&page_pools_lock);
}

/* Caller provides the consumer context (NAPI). */
void page_pool_update_nid(struct page_pool *pool, int new_nid)
{
	netmem_ref netmem;

	pool->p.nid = new_nid;
	if (!ppcore_consumer_enter(pool, "NUMA node update"))
		return;
	/* Flush the cache; ring pages are filtered lazily at refill (waive). */
	while (pool->alloc.count) {
		netmem = pool->alloc.cache[--pool->alloc.count];
		page_pool_return_page(pool, netmem);
	}
	ppcore_consumer_exit(pool);
}

void page_pool_use_xdp_mem(struct page_pool *pool, void (*disconnect)(void *),
			   const struct xdp_mem_info *mem)
{
	refcount_inc(&pool->user_cnt);
	pool->disconnect = disconnect;
	pool->xdp_mem_id = mem->id;
}

