/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The devmap (BPF_MAP_TYPE_DEVMAP, the kernel's kernel/bpf/devmap.c): an
 * array of slots each naming a device or none, read by bpf_redirect_map()
 * in NAPI polls, written by pp_devmap_update() / pp_devmap_delete() and by
 * the netdevice notifier when a device named in it unregisters.
 *
 * Writers hold RTNL - the notifier runs under it, and an update must not
 * name a device that is unregistering meanwhile, which RTNL excludes - so
 * a slot needs no compare-and-exchange (the kernel's does: its updates
 * run without RTNL). A replaced or removed entry is freed after a grace
 * period, so a reader holding it reads valid memory until it leaves its
 * read-side section; the device it names stays valid as long, because
 * unregistration empties the slots and then waits for a grace period
 * (redirect.c) before the device can be freed. A map, once destroyed, is
 * freed after a grace period too.
 *
 * Memory orders:
 *   M1w  rcu_assign_pointer(map->netdev_map[key])  pp_devmap_update()  release
 *   M1r  rcu_dereference(map->netdev_map[key])     bpf_redirect_map()  acquire
 * M1: a reader that sees an entry sees its device pointer. Clearing a slot
 * (delete, unregistration) publishes nothing: a relaxed NULL store would
 * do, the release store is kept for one form.
 */
#include <linux/bpf.h>
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "xdp/xdp_internal.h"

struct bpf_dtab_netdev {
	struct net_device *dev;
	struct rcu_head rcu;
};

struct bpf_map {
	u32 max_entries;
	struct list_head list;		/* on dev_map_list, under RTNL */
	struct rcu_head rcu;
	struct bpf_dtab_netdev *netdev_map[];	/* __rcu each */
};

static LIST_HEAD(dev_map_list);		/* every live devmap, under RTNL */

long bpf_redirect_map(struct bpf_map *map, u64 key, u64 flags)
{
	const u64 action_mask = XDP_ABORTED | XDP_DROP | XDP_PASS | XDP_TX;
	struct bpf_dtab_netdev *entry = NULL;
	u32 idx = (u32)key;	/* the kernel's lookup takes a u32 key */

	if (unlikely(flags & ~(action_mask | BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS)))
		return XDP_ABORTED;
	if (unlikely(!ppxdp_helper_context_ok("bpf_redirect_map")))
		return XDP_ABORTED;
	if (unlikely(flags & BPF_F_BROADCAST)) {
		WARN_ONCE(1, "bpf_redirect_map(): BPF_F_BROADCAST is not implemented");
		ppxdp_set_redirect_target(PPXDP_RI_NONE, 0);
		return XDP_ABORTED;
	}
	if (WARN_ONCE(IS_ERR_OR_NULL(map), "bpf_redirect_map() on no map"))
		return XDP_ABORTED;

	if (likely(idx < map->max_entries))
		entry = rcu_dereference(map->netdev_map[idx]);		/* M1r */
	if (unlikely(!entry)) {
		/* Cleared, so that of several lookups the last one counts. */
		ppxdp_set_redirect_target(PPXDP_RI_NONE, 0);
		return (long)(flags & action_mask);
	}
	/* The device's ifindex, not the device: the target may outlive
	 * this section (redirect.c, struct ppxdp_redirect_info). */
	ppxdp_set_redirect_target(PPXDP_RI_MAP, (u32)entry->dev->ifindex);
	return XDP_REDIRECT;
}

struct bpf_map *pp_devmap_create(u32 max_entries)
{
	struct bpf_map *map;

	if (!max_entries || max_entries > PP_DEVMAP_MAX_ENTRIES)
		return ERR_PTR(-EINVAL);
	map = kvzalloc(sizeof(*map) + (size_t)max_entries * sizeof(map->netdev_map[0]),
		       GFP_KERNEL);
	if (!map)
		return ERR_PTR(-ENOMEM);
	map->max_entries = max_entries;
	rtnl_lock();
	list_add_tail(&map->list, &dev_map_list);
	rtnl_unlock();
	return map;
}

/* Under RTNL: empty slot @key; false if it was empty. */
static bool slot_clear(struct bpf_map *map, u32 key)
{
	struct bpf_dtab_netdev *old = rcu_dereference_protected(map->netdev_map[key], true);

	if (!old)
		return false;
	rcu_assign_pointer(map->netdev_map[key], NULL);			/* M1w */
	kfree_rcu(old, rcu);
	return true;
}

int pp_devmap_update(struct bpf_map *map, u32 key, int ifindex)
{
	struct bpf_dtab_netdev *entry, *old;
	struct net_device *dev;

	if (IS_ERR_OR_NULL(map) || ifindex <= 0)
		return -EINVAL;
	if (key >= map->max_entries)
		return -E2BIG;
	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return -ENOMEM;

	rtnl_lock();
	dev = __dev_get_by_index(&init_net, ifindex);
	if (!dev || dev->reg_state != NETREG_REGISTERED) {
		rtnl_unlock();
		kfree(entry);
		return -ENODEV;
	}
	entry->dev = dev;
	old = rcu_dereference_protected(map->netdev_map[key], true);
	rcu_assign_pointer(map->netdev_map[key], entry);		/* M1w */
	rtnl_unlock();
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

int pp_devmap_delete(struct bpf_map *map, u32 key)
{
	bool found;

	if (IS_ERR_OR_NULL(map))
		return -EINVAL;
	if (key >= map->max_entries)
		return -E2BIG;
	rtnl_lock();
	found = slot_clear(map, key);
	rtnl_unlock();
	return found ? 0 : -ENOENT;
}

static void devmap_free_rcu(struct rcu_head *head)
{
	struct bpf_map *map = container_of(head, struct bpf_map, rcu);
	u32 i;

	/* A grace period after the map left dev_map_list and every program
	 * stopped using it: its entries have no reader left. */
	for (i = 0; i < map->max_entries; i++)
		kfree(map->netdev_map[i]);
	kvfree(map);
}

void pp_devmap_destroy(struct bpf_map *map)
{
	if (IS_ERR_OR_NULL(map))
		return;
	rtnl_lock();
	list_del(&map->list);
	rtnl_unlock();
	call_rcu(&map->rcu, devmap_free_rcu);
}

void ppxdp_devmap_unregister_dev(struct net_device *dev)
{
	struct bpf_map *map;
	u32 i;

	list_for_each_entry(map, &dev_map_list, list)
		for (i = 0; i < map->max_entries; i++) {
			struct bpf_dtab_netdev *e =
				rcu_dereference_protected(map->netdev_map[i], true);

			if (e && e->dev == dev)
				slot_clear(map, i);
		}
}
