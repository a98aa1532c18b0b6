/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Holder tracking (CONFIG_PAGEPOOL_HOLDERS): the walk over the arena's
 * page-owner records (src/core/holders.h writes them) that groups a pool's
 * inflight pages by (take site, hand-on site, CPU) -
 * pp_page_pool_for_each_holder() and the stalled-destroy warning's lines.
 * Without the option both exist and do nothing (-EOPNOTSUPP, no lines),
 * and pp_page_pool_note_handoff() is an empty call.
 *
 * Context: process context, any thread. The public walk holds
 * page_pools_lock while it reads the records (the pool cannot be freed
 * meanwhile), then calls back with no lock held; the warning runs in the
 * pool's own release work, where the pool is alive. The records are read
 * racily (holders.h), so a walk is a snapshot of a moving pool.
 * Layer: core.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>
#include <pagepool/runtime.h>

#include "core/core_internal.h"
#include "core/lifecycle.h"

#if IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)

/* The stalled-destroy warning prints at most this many groups. */
#define PPCORE_HOLDERS_WARN_MAX	8

struct holder_set {
	struct pp_page_pool_holder *v;
	size_t nr, cap;
};

static struct pp_page_pool_holder *holder_group(struct holder_set *set, unsigned long take_ip,
						unsigned long handoff_ip, int cpu)
{
	struct pp_page_pool_holder *h;
	size_t i;

	/* Few groups in practice (sites x CPUs): a linear search, newest
	 * first, as consecutive pages tend to share their group. */
	for (i = set->nr; i-- > 0;) {
		h = &set->v[i];
		if (h->take_ip == take_ip && h->handoff_ip == handoff_ip && h->cpu == cpu)
			return h;
	}
	if (set->nr == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 16;

		h = realloc(set->v, cap * sizeof(*h));
		if (!h)
			return NULL;
		set->v = h;
		set->cap = cap;
	}
	h = &set->v[set->nr++];
	*h = (struct pp_page_pool_holder){ .take_ip = take_ip, .handoff_ip = handoff_ip,
					   .cpu = cpu };
	return h;
}

static int holder_cmp(const void *a, const void *b)
{
	const struct pp_page_pool_holder *x = a, *y = b;

	if (x->pages != y->pages)
		return x->pages > y->pages ? -1 : 1;
	if (x->held_ns != y->held_ns)
		return x->held_ns > y->held_ns ? -1 : 1;
	return x->take_ip < y->take_ip ? -1 : x->take_ip > y->take_ip;
}

/* @pool's holders into @set, sorted. 0 or -ENOMEM. */
static int holders_collect(const struct page_pool *pool, struct holder_set *set)
{
	unsigned long i, nr_pages;
	u64 now = ktime_get_coarse_ns();

	if (!ppmm_arena_up())
		return 0;
	nr_pages = pp_mem_map.nr_pages;
	for (i = 0; i < nr_pages; i++) {
		struct ppmm_page_owner *o = &ppmm_arena.owners[i];
		struct pp_page_pool_holder *h;
		u64 take_ns, held;

		if (smp_load_acquire(&o->pool) != pool)
			continue;
		h = holder_group(set, READ_ONCE(o->take_ip), READ_ONCE(o->handoff_ip),
				 (int)READ_ONCE(o->cpu));
		if (!h)
			return -ENOMEM;
		take_ns = READ_ONCE(o->take_ns);
		held = now > take_ns ? now - take_ns : 0;
		h->pages++;
		if (held > h->held_ns)
			h->held_ns = held;
	}
	if (set->nr > 1)
		qsort(set->v, set->nr, sizeof(*set->v), holder_cmp);
	return 0;
}

int pp_page_pool_for_each_holder(u32 id, int (*cb)(const struct pp_page_pool_holder *h, void *arg),
				 void *arg)
{
	struct holder_set set = { 0 };
	struct page_pool *pool;
	int ret = 0;
	size_t i;

	if (!cb)
		return -EINVAL;
	mutex_lock(&page_pools_lock);
	pool = ppcore_pool_by_id_locked(id);
	if (pool)
		ret = holders_collect(pool, &set);
	mutex_unlock(&page_pools_lock);
	if (!pool)
		return -ENOENT;
	for (i = 0; !ret && i < set.nr; i++)
		ret = cb(&set.v[i], arg);
	free(set.v);
	return ret;
}

__ppcore_take_site void pp_page_pool_note_handoff(netmem_ref netmem)
{
	/* A page that backs a bound net_iov: the net_iov is the pool's. */
	if (netmem && !netmem_is_pp(netmem))
		netmem = ppcore_bound_netmem(netmem);
	if (netmem && netmem_is_pp(netmem))
		ppcore_netmem_handoff(netmem, PPCORE_RET_IP);
}

/* pp_symbolize(), or the bare address when nothing maps it. */
static const char *holder_site(unsigned long ip, char *buf, size_t len)
{
	if (pp_symbolize(ip, buf, len) < 0)
		snprintf(buf, len, "%#lx", ip);
	return buf;
}

void ppcore_holders_warn(struct page_pool *pool)
{
	struct holder_set set = { 0 };
	char take[256], handoff[256];
	size_t i;

	if (holders_collect(pool, &set)) {
		pr_warn("page_pool id %u: holders not listed (out of memory)\n", pool->user.id);
		free(set.v);
		return;
	}
	for (i = 0; i < set.nr && i < PPCORE_HOLDERS_WARN_MAX; i++) {
		const struct pp_page_pool_holder *h = &set.v[i];

		if (h->handoff_ip)
			holder_site(h->handoff_ip, handoff, sizeof(handoff));
		pr_warn("page_pool id %u: %llu page%s held since %s on cpu %d, for %llu s%s%s\n",
			pool->user.id, (unsigned long long)h->pages, h->pages == 1 ? "" : "s",
			holder_site(h->take_ip, take, sizeof(take)), h->cpu,
			(unsigned long long)(h->held_ns / NSEC_PER_SEC),
			h->handoff_ip ? ", last handed on at " : "", h->handoff_ip ? handoff : "");
	}
	if (set.nr > PPCORE_HOLDERS_WARN_MAX) {
		unsigned long long rest = 0;

		for (i = PPCORE_HOLDERS_WARN_MAX; i < set.nr; i++)
			rest += set.v[i].pages;
		pr_warn("page_pool id %u: ... %zu more sites, %llu page%s\n", pool->user.id,
			set.nr - PPCORE_HOLDERS_WARN_MAX, rest, rest == 1 ? "" : "s");
	}
	free(set.v);
}

#else /* !CONFIG_PAGEPOOL_HOLDERS */

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

#endif /* CONFIG_PAGEPOOL_HOLDERS */
