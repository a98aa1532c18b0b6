/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XDP memory model internals shared by the files of src/xdp (the kernel's
 * net/xdp_priv.h plus the mem id table). Names carry the ppxdp_ prefix, or
 * the kernel's where the object is the kernel's.
 *
 * The id -> allocator table: open addressing with linear probing over a
 * power-of-two array of entry pointers, hashed by the id itself (ids are
 * handed out cyclically, so consecutive ids fill consecutive slots - the
 * kernel's rhashtable uses the same identity hash). Chosen over liburcu's
 * rculfhash by measurement: a chain of dependent lookups over 64 ids took
 * 14 cycles (5.5 ns) each here against 36 cycles (14 ns) for
 * cds_lfht_lookup() with the same identity hash (median of 7, Zen 5 VM,
 * both without the read-side lock, which costs the same for both). Ours is
 * three dependent loads and no call; rculfhash adds the bit-reversed
 * split-ordered walk and an indirect match call.
 *
 * Concurrency:
 *   readers   ppxdp_mem_lookup() inside an RCU read-side section (or a
 *             bh-disabled region), any thread, no lock;
 *   writers   hold ppxdp_mem_lock. They change a slot only from NULL or
 *             a tombstone to an entry (insert) or from an entry to a
 *             tombstone (remove), and replace the whole array (rehash) by
 *             publishing a new one; the old array and removed entries are
 *             freed after a grace period. At least one slot is always
 *             NULL, so a probe ends even while writers run.
 * Entries are immutable once published, but for the writer-only
 * unregistered flag.
 */
#ifndef _PP_XDP_INTERNAL_H
#define _PP_XDP_INTERNAL_H

#include "xdp/mem_lfht.h"

#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <net/xdp.h>

/* The kernel's struct xdp_mem_allocator: what a mem id names. */
struct xdp_mem_allocator {
	struct xdp_mem_info mem;
	union {
		void *allocator;
		struct page_pool *page_pool;
	};
	struct rcu_head rcu;
	struct ppxdp_lfht_node lfht;	/* in the rculfhash mirror */
	/* The registration was dropped (xdp_unreg_mem_model()); the entry
	 * stays published until its pool is freed. Written and read under
	 * ppxdp_mem_lock only - returns never look at it - so a second
	 * unregistration of the same id (two copies of one xdp_mem_info) is
	 * refused instead of dropping a pool reference it does not own. */
	bool unregistered;
};

/* Mem ids: MEM_ID_MIN .. MEM_ID_MAX - 1, as the kernel's IDA range (its
 * MEM_ID_MAX 0xFFFE is exclusive), so 0xFFFD ids at most; 0 = "no id". */
#define PPXDP_MEM_ID_MIN	1
#define PPXDP_MEM_ID_MAX	0xFFFE

struct ppxdp_mem_table {
	u32 mask;		/* slots - 1 */
	u32 live;		/* entries (writer only) */
	u32 used;		/* entries + tombstones (writer only) */
	struct rcu_head rcu;
	struct xdp_mem_allocator *slots[];
};

/* A removed entry: probes continue past it. */
#define PPXDP_TOMBSTONE		((struct xdp_mem_allocator *)1UL)

extern struct ppxdp_mem_table *ppxdp_mem_table;
extern struct mutex ppxdp_mem_lock;

/*
 * Look @id up. Caller MUST be inside an RCU read-side section (or hold
 * ppxdp_mem_lock) and keep it while using the entry. NULL when unknown.
 */
DECLARE_STATIC_KEY_FALSE(ppxdp_lookup_lfht);

static __always_inline struct xdp_mem_allocator *ppxdp_mem_lookup(u32 id)
{
	/* Acquire (rcu_dereference) pairs with the release in the writer's
	 * rcu_assign_pointer(): the array's contents and the entries it
	 * points to are seen initialised. */
	const struct ppxdp_mem_table *t = rcu_dereference(ppxdp_mem_table);
	u32 i;

	/* The general-purpose table, as the kernel's rhashtable. */
	if (static_branch_unlikely(&ppxdp_lookup_lfht)) {
		struct ppxdp_lfht_node *n = ppxdp_lfht_lookup(id);

		return n ? container_of(n, struct xdp_mem_allocator, lfht) : NULL;
	}
	if (unlikely(!t))
		return NULL;
	for (i = id & t->mask;; i = (i + 1) & t->mask) {
		struct xdp_mem_allocator *xa = rcu_dereference(t->slots[i]);

		if (!xa)
			return NULL;
		if (likely(xa != PPXDP_TOMBSTONE && xa->mem.id == id))
			return xa;
	}
}

/* mem_id.c - all with ppxdp_mem_lock held. */
/* Give @xa a cyclic id and publish it: 0, -ENOSPC or -ENOMEM. */
int ppxdp_mem_insert(struct xdp_mem_allocator *xa);
/* Unpublish @xa; its id is released and it is freed after a grace period. */
void ppxdp_mem_remove(struct xdp_mem_allocator *xa);
/* Unpublish every entry of @allocator. */
void ppxdp_mem_remove_allocator(const void *allocator);

/* return.c: the old generation is on while this key is enabled. Hidden:
 * the library's own code reads it directly, not through the GOT (one
 * instruction less per return). */
extern struct static_key_false ppxdp_return_lookup __attribute__((visibility("hidden")));

static __always_inline bool ppxdp_return_lookup_on(void)
{
	return static_branch_unlikely(&ppxdp_return_lookup);
}

#endif /* _PP_XDP_INTERNAL_H */
