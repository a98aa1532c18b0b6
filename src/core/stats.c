/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool statistics: page_pool_get_stats() (accumulating, as the
 * kernel's) and the deprecated ethtool export with the kernel's eleven
 * strings in the kernel's order.
 */
#include <string.h>

#include <linux/ethtool.h>
#include <linux/percpu.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"
#include "core/ring.h"

static const char pp_stats[][ETH_GSTRING_LEN] = {
	"rx_pp_alloc_fast",
	"rx_pp_alloc_slow",
	"rx_pp_alloc_slow_ho",
	"rx_pp_alloc_empty",
	"rx_pp_alloc_refill",
	"rx_pp_alloc_waive",
	"rx_pp_recycle_cached",
	"rx_pp_recycle_cache_full",
	"rx_pp_recycle_ring",
	"rx_pp_recycle_ring_full",
	"rx_pp_recycle_released_ref",
};

bool page_pool_get_stats(const struct page_pool *pool, struct page_pool_stats *stats)
{
	int cpu;

	/* The kernel checks only @stats; a NULL pool is no pool's stats. */
	if (!stats || !pool)
		return false;
	/* The caller zeroed @stats; we add, as the kernel does. */
	stats->alloc_stats.fast += READ_ONCE(pool->alloc_stats.fast);
	stats->alloc_stats.slow += READ_ONCE(pool->alloc_stats.slow);
	stats->alloc_stats.slow_high_order += READ_ONCE(pool->alloc_stats.slow_high_order);
	stats->alloc_stats.empty += READ_ONCE(pool->alloc_stats.empty);
	stats->alloc_stats.refill += READ_ONCE(pool->alloc_stats.refill);
	stats->alloc_stats.waive += READ_ONCE(pool->alloc_stats.waive);
	stats->recycle_stats.cached += READ_ONCE(pool->cached);
	stats->recycle_stats.cache_full += READ_ONCE(pool->cache_full);

#ifdef CONFIG_PAGE_POOL_STATS
	for_each_possible_cpu(cpu) {
		const struct page_pool_recycle_stats *pcpu = per_cpu_ptr(pool->recycle_stats, cpu);

		stats->recycle_stats.cached += READ_ONCE(pcpu->cached);
		stats->recycle_stats.cache_full += READ_ONCE(pcpu->cache_full);
		stats->recycle_stats.ring += READ_ONCE(pcpu->ring);
		stats->recycle_stats.ring_full += READ_ONCE(pcpu->ring_full);
		stats->recycle_stats.released_refcnt += READ_ONCE(pcpu->released_refcnt);
	}
#else
	(void)cpu;
#endif
	/* Lane returns are counted in the lanes (producer-written). */
	if (page_pool_has_lanes(pool))
		stats->recycle_stats.ring += ppcore_lanes_produced(pool);
	else if (page_pool_ring_is_llist(pool))
		stats->recycle_stats.ring += ppcore_llist_produced(pool);
	else if (page_pool_ring_design(pool) == PP_RING_MAGAZINE)
		stats->recycle_stats.ring += ppcore_mag_produced(pool);
	return true;
}

u8 *page_pool_ethtool_stats_get_strings(u8 *data)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pp_stats); i++) {
		memcpy(data, pp_stats[i], ETH_GSTRING_LEN);
		data += ETH_GSTRING_LEN;
	}
	return data;
}

int page_pool_ethtool_stats_get_count(void)
{
	return (int)ARRAY_SIZE(pp_stats);
}

u64 *page_pool_ethtool_stats_get(u64 *data, const void *stats)
{
	const struct page_pool_stats *pool_stats = stats;

	*data++ = pool_stats->alloc_stats.fast;
	*data++ = pool_stats->alloc_stats.slow;
	*data++ = pool_stats->alloc_stats.slow_high_order;
	*data++ = pool_stats->alloc_stats.empty;
	*data++ = pool_stats->alloc_stats.refill;
	*data++ = pool_stats->alloc_stats.waive;
	*data++ = pool_stats->recycle_stats.cached;
	*data++ = pool_stats->recycle_stats.cache_full;
	*data++ = pool_stats->recycle_stats.ring;
	*data++ = pool_stats->recycle_stats.ring_full;
	*data++ = pool_stats->recycle_stats.released_refcnt;
	return data;
}
