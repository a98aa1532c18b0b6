/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Hooks of the pool registry for the layers above core (the telemetry
 * server), which core may not include: the registry's events, as the
 * kernel's netdev_nl_page_pool_event() sends them to the netlink group,
 * and a call at the first page_pool_create() of the process.
 *
 * Context: the notify hook runs under page_pools_lock, from whatever
 * context added, detached, re-parented or unlisted the pool (a driver's
 * thread, the netdev notifier, the workqueue's deferred release, a put
 * that released the pool). It may only queue what it is given: it must not
 * block, sleep on anything but a short lock of its own, or call back into
 * the registry. Setting it takes page_pools_lock, so once
 * ppcore_set_pool_notify(NULL) returns no call is running.
 * Layer: core.
 */
#ifndef _PP_CORE_REGISTRY_HOOKS_H
#define _PP_CORE_REGISTRY_HOOKS_H

#include <pagepool/core.h>

enum ppcore_pool_event {
	PPCORE_POOL_ADD,	/* page_pool_list(): the pool is in the registry */
	PPCORE_POOL_CHANGE,	/* detached (destroy with pages out), re-parented to lo */
	PPCORE_POOL_DEL,	/* page_pool_unlist(): about to leave the registry */
};

/* @info: the pool as pp_page_pool_get_info() reports it, filled under
 * page_pools_lock at the event. */
typedef void (*ppcore_pool_notify_fn)(enum ppcore_pool_event ev,
				      const struct pp_page_pool_info *info);
void ppcore_set_pool_notify(ppcore_pool_notify_fn fn);

/* Called once, by the first page_pool_create() that succeeds after it is
 * set (outside every lock of the registry); the hook is cleared before the
 * call. Set from a constructor. */
void ppcore_set_create_hook(void (*fn)(void));

#endif /* _PP_CORE_REGISTRY_HOOKS_H */
