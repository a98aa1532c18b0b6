/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The id -> allocator table on liburcu's rculfhash: a general-purpose RCU
 * hash table, as the kernel's rhashtable is (split-ordered lists, a hash
 * computed per lookup, a bucket walk). It holds the same entries as the id
 * table of mem_id.c, so the lookup generation of the XDP return path can
 * read the kind of table the kernel used (pp_xdp_set_lookup_table()).
 * Compiled only in builds that have it (meson -Dxdp_table=rculfhash, or
 * -Ddesigns=all), the only file that needs liburcu-cds.
 *
 * This file includes liburcu's headers, which map rcu_* names and define
 * struct rcu_head, so it sees none of the kernel headers but
 * <linux/atomic.h>: the node is an opaque blob in struct xdp_mem_allocator
 * (size checked below) and callers hold the RCU read-side lock as
 * rculfhash requires.
 *
 * Memory orders (the table pointer; rculfhash orders its nodes itself):
 *   H0w  smp_store_release(&ht)   ppxdp_lfht_add(), first call
 *   H0r  smp_load_acquire(&ht)    ppxdp_lfht_lookup()
 * A reader that sees the table sees it set up. Writers (add, del) hold
 * ppxdp_mem_lock, so their own loads of ht are relaxed (READ_ONCE()).
 */
#include <stddef.h>
#include <stdint.h>

#define _LGPL_SOURCE 1
#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include <linux/atomic.h>

#include "xdp/mem_lfht.h"

_Static_assert(sizeof(struct cds_lfht_node) <= sizeof(((struct ppxdp_lfht_node *)0)->opaque),
	       "ppxdp_lfht_node must hold a cds_lfht_node");

static struct cds_lfht *ht;

/* The kernel's rhashtable params for mem ids hash the u32 id with the
 * table's seeded jhash; a multiplicative hash stands in for it here. */
static unsigned long hash_id(uint32_t id)
{
	return (unsigned long)((uint64_t)id * 0x9e3779b97f4a7c15ULL >> 32);
}

static int match_id(struct cds_lfht_node *node, const void *key)
{
	const struct ppxdp_lfht_node *n = (const struct ppxdp_lfht_node *)node;

	return n->id == *(const uint32_t *)key;
}

int ppxdp_lfht_add(struct ppxdp_lfht_node *node, uint32_t id)
{
	struct cds_lfht *t = READ_ONCE(ht);

	if (!t) {
		/* 64 buckets to start, as the kernel's nelem_hint. */
		t = cds_lfht_new_flavor(64, 64, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
					&urcu_memb_flavor, NULL);
		if (!t)
			return -1;
		/* H0w: the table's set-up before the pointer to it. */
		smp_store_release(&ht, t);
	}
	node->id = id;
	cds_lfht_node_init((struct cds_lfht_node *)node);
	cds_lfht_add(t, hash_id(id), (struct cds_lfht_node *)node);
	return 0;
}

void ppxdp_lfht_del(struct ppxdp_lfht_node *node)
{
	struct cds_lfht *t = READ_ONCE(ht);

	if (t)
		cds_lfht_del(t, (struct cds_lfht_node *)node);
}

struct ppxdp_lfht_node *ppxdp_lfht_lookup(uint32_t id)
{
	/* H0r: pairs with H0w; the table is seen set up. */
	struct cds_lfht *t = smp_load_acquire(&ht);
	struct cds_lfht_iter iter;

	if (!t)
		return NULL;
	cds_lfht_lookup(t, hash_id(id), match_id, &id, &iter);
	return (struct ppxdp_lfht_node *)cds_lfht_iter_get_node(&iter);
}
