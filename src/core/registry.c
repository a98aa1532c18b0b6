/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The registry of live pools (the kernel's net/core/page_pool_user.c):
 * cyclic ids from 1, the per-netdev pool lists, re-parenting of the pools
 * of an unregistered device to loopback ("orphaned"), detach time, and the
 * introspection API that stands in for netlink's page-pool-get and
 * page-pool-stats-get (also as JSON). Also the misuse counters.
 *
 * Visibility, as netlink has it: a pool is "normal" while its netdev is
 * registered, "orphaned" (shown on lo) after, and "invisible" when created
 * without a netdev or when lo itself goes (netdev = NET_PTR_POISON).
 * Everything here runs under page_pools_lock; so does the notify hook of
 * registry_hooks.h (the telemetry server's events), which only queues.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

#include "core/core_internal.h"
#include "core/registry_hooks.h"

DEFINE_MUTEX(page_pools_lock);
static LIST_HEAD(page_pools);		/* every listed pool, by id */
static u32 id_next = 1;

/* registry_hooks.h. pool_notify is written and called under
 * page_pools_lock; create_hook is taken by an exchange and called outside
 * every lock. */
static ppcore_pool_notify_fn pool_notify;
static void (*create_hook)(void);

static void fill_info_locked(const struct page_pool *pool, struct pp_page_pool_info *info);

void ppcore_set_pool_notify(ppcore_pool_notify_fn fn)
{
	mutex_lock(&page_pools_lock);
	pool_notify = fn;
	mutex_unlock(&page_pools_lock);
}

static void pool_event_locked(const struct page_pool *pool, enum ppcore_pool_event ev)
{
	struct pp_page_pool_info info;

	if (!pool_notify)
		return;
	fill_info_locked(pool, &info);
	pool_notify(ev, &info);
}

void ppcore_set_create_hook(void (*fn)(void))
{
	WRITE_ONCE(create_hook, fn);
}

/* page_pool_create()'s call, after the pool is listed. */
void ppcore_run_create_hook(void)
{
	void (*fn)(void);

	if (likely(!READ_ONCE(create_hook)))
		return;
	fn = xchg(&create_hook, NULL);
	if (fn)
		fn();
}

/* Counts, relaxed: they order nothing. */
static atomic_long_t misuse[PPCORE_MISUSE_NR];

void ppcore_count_misuse(enum ppcore_misuse kind)
{
	atomic_long_inc(&misuse[kind]);
}

int pp_page_pool_get_misuse(struct pp_page_pool_misuse *m)
{
	if (!m)
		return -EINVAL;
	m->not_pp_page = atomic_long_read(&misuse[PPCORE_MISUSE_NOT_PP_PAGE]);
	m->foreign_pool = atomic_long_read(&misuse[PPCORE_MISUSE_FOREIGN_POOL]);
	m->ref_underflow = atomic_long_read(&misuse[PPCORE_MISUSE_REF_UNDERFLOW]);
	m->concurrent_consumer = atomic_long_read(&misuse[PPCORE_MISUSE_CONCURRENT_CONSUMER]);
	m->double_put = atomic_long_read(&misuse[PPCORE_MISUSE_DOUBLE_PUT]);
	return 0;
}

struct page_pool *ppcore_pool_by_id_locked(u32 id)
{
	struct page_pool *pool;

	list_for_each_entry(pool, &page_pools, user.all)
		if (pool->user.id == id)
			return pool;
	return NULL;
}

/* Cyclic id allocation over 1..U32_MAX, skipping ids in use. */
static int alloc_id_locked(u32 *out)
{
	u32 tries;

	for (tries = 0; tries < 1u << 20; tries++) {
		u32 id = id_next++;

		if (!id_next)
			id_next = 1;
		if (id && !ppcore_pool_by_id_locked(id)) {
			*out = id;
			return 0;
		}
	}
	return -EBUSY;
}

int page_pool_list(struct page_pool *pool)
{
	struct page_pool *pos;
	int err;

	mutex_lock(&page_pools_lock);
	err = alloc_id_locked(&pool->user.id);
	if (err)
		goto out;

	/* Keep the list sorted by id so dumps come out in id order. */
	list_for_each_entry(pos, &page_pools, user.all)
		if (pos->user.id > pool->user.id)
			break;
	list_add_tail(&pool->user.all, __list_member(pos, user.all));

	INIT_HLIST_NODE(&pool->user.list);
	if (pool->slow.netdev) {
		hlist_add_head(&pool->user.list, &pool->slow.netdev->page_pools);
		pool->user.napi_id = pool->p.napi ? READ_ONCE(pool->p.napi->napi_id) : 0;
	}
	pool_event_locked(pool, PPCORE_POOL_ADD);
out:
	mutex_unlock(&page_pools_lock);
	return err;
}

void page_pool_detached(struct page_pool *pool)
{
	mutex_lock(&page_pools_lock);
	pool->user.detach_time = (u64)ktime_get_boottime_seconds();
	pool_event_locked(pool, PPCORE_POOL_CHANGE);
	mutex_unlock(&page_pools_lock);
}

void page_pool_unlist(struct page_pool *pool)
{
	mutex_lock(&page_pools_lock);
	pool_event_locked(pool, PPCORE_POOL_DEL);
	list_del(&pool->user.all);
	if (!hlist_unhashed(&pool->user.list))
		hlist_del(&pool->user.list);
	mutex_unlock(&page_pools_lock);
}

u32 pp_page_pool_id(const struct page_pool *pool)
{
	/* 0 is no pool's id; an unchecked page_pool_create() error too. */
	return IS_ERR_OR_NULL(pool) ? 0 : pool->user.id;
}

static void fill_info_locked(const struct page_pool *pool, struct pp_page_pool_info *info)
{
	struct net_device *netdev = READ_ONCE(pool->slow.netdev);
	u64 inflight = (u64)page_pool_inflight(pool, false);

	memset(info, 0, sizeof(*info));
	info->id = pool->user.id;
	if (netdev && netdev != NET_PTR_POISON) {
		info->has_ifindex = true;
		info->ifindex = netdev->ifindex;
	}
	if (pool->user.napi_id) {
		info->has_napi_id = true;
		info->napi_id = pool->user.napi_id;
	}
	info->inflight = inflight;
	info->inflight_mem = inflight * (PAGE_SIZE << pool->p.order);
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
	mutex_lock(&page_pools_lock);
	pool = ppcore_pool_by_id_locked(id);
	if (pool) {
		fill_info_locked(pool, info);
		err = 0;
	}
	mutex_unlock(&page_pools_lock);
	return err;
}

int pp_page_pool_get_stats_by_id(u32 id, struct page_pool_stats *stats)
{
	struct page_pool *pool;
	int err = -ENOENT;

	if (!stats)
		return -EINVAL;
	mutex_lock(&page_pools_lock);
	pool = ppcore_pool_by_id_locked(id);
	if (pool) {
		page_pool_get_stats(pool, stats);
		err = 0;
	}
	mutex_unlock(&page_pools_lock);
	return err;
}

int pp_page_pool_for_each(int (*cb)(const struct pp_page_pool_info *info, void *arg), void *arg)
{
	struct pp_page_pool_info info;
	struct page_pool *pool;
	int ret = 0;

	if (!cb)
		return -EINVAL;
	mutex_lock(&page_pools_lock);
	list_for_each_entry(pool, &page_pools, user.all) {
		fill_info_locked(pool, &info);
		ret = cb(&info, arg);
		if (ret)
			break;
	}
	mutex_unlock(&page_pools_lock);
	return ret;
}

int pp_page_pool_dump_json(FILE *out)
{
	struct page_pool *pool;
	bool first = true;
	int err;

	if (!out)
		return -EINVAL;
	mutex_lock(&page_pools_lock);
	fputs("[", out);
	list_for_each_entry(pool, &page_pools, user.all) {
		struct page_pool_stats st = { 0 };
		struct pp_page_pool_info info;

		fill_info_locked(pool, &info);
		page_pool_get_stats(pool, &st);
		fprintf(out, "%s\n  {\"id\": %" PRIu32, first ? "" : ",", info.id);
		if (info.has_ifindex)
			fprintf(out, ", \"ifindex\": %d", info.ifindex);
		if (info.has_napi_id)
			fprintf(out, ", \"napi-id\": %" PRIu32, info.napi_id);
		fprintf(out, ", \"inflight\": %llu, \"inflight-mem\": %llu",
			info.inflight, info.inflight_mem);
		if (info.has_detach_time)
			fprintf(out, ", \"detach-time\": %llu", info.detach_time);
		fprintf(out, ",\n   \"stats\": {\"alloc-fast\": %llu, \"alloc-slow\": %llu"
			", \"alloc-slow-high-order\": %llu, \"alloc-empty\": %llu"
			", \"alloc-refill\": %llu, \"alloc-waive\": %llu"
			", \"recycle-cached\": %llu, \"recycle-cache-full\": %llu"
			", \"recycle-ring\": %llu, \"recycle-ring-full\": %llu"
			", \"recycle-released-refcnt\": %llu}}",
			st.alloc_stats.fast, st.alloc_stats.slow, st.alloc_stats.slow_high_order,
			st.alloc_stats.empty, st.alloc_stats.refill, st.alloc_stats.waive,
			st.recycle_stats.cached, st.recycle_stats.cache_full,
			st.recycle_stats.ring, st.recycle_stats.ring_full,
			st.recycle_stats.released_refcnt);
		first = false;
	}
	fputs(first ? "]\n" : "\n]\n", out);
	/* A full disk or a closed pipe: the dump is incomplete. */
	err = fflush(out) || ferror(out) ? -EIO : 0;
	mutex_unlock(&page_pools_lock);
	return err;
}

/* A device goes away: its pools move to loopback, or become invisible
 * when loopback itself goes. Runs under RTNL from the notifier chain. */
static int page_pool_netdevice_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	struct net_device *lo = dev_net(netdev)->loopback_dev;
	struct hlist_node *n;
	struct page_pool *pool;

	(void)nb;
	if (event != NETDEV_UNREGISTER || hlist_empty(&netdev->page_pools))
		return NOTIFY_DONE;

	mutex_lock(&page_pools_lock);
	hlist_for_each_entry_safe(pool, n, &netdev->page_pools, user.list) {
		hlist_del_init(&pool->user.list);
		if (lo && lo != netdev) {
			WRITE_ONCE(pool->slow.netdev, lo);
			hlist_add_head(&pool->user.list, &lo->page_pools);
			pool_event_locked(pool, PPCORE_POOL_CHANGE);
		} else {
			WRITE_ONCE(pool->slow.netdev, NET_PTR_POISON);
		}
	}
	mutex_unlock(&page_pools_lock);
	return NOTIFY_OK;
}

static struct notifier_block page_pool_netdevice_nb = {
	.notifier_call = page_pool_netdevice_event,
};

__attribute__((constructor)) static void page_pool_user_init(void)
{
	register_netdevice_notifier(&page_pool_netdevice_nb);
}
