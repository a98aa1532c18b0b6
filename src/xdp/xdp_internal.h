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
 *
 * Memory orders (the id table; mem_lfht.c has its own for rculfhash):
 *   T0w  rcu_assign_pointer(ppxdp_mem_table)   table_rehash()       release
 *   T0r  rcu_dereference(ppxdp_mem_table)      ppxdp_mem_lookup()   acquire
 *   S0w  rcu_assign_pointer(t->slots[i])       ppxdp_mem_insert()   release
 *   S0r  rcu_dereference(t->slots[i])          ppxdp_mem_lookup()   acquire
 * T0: a reader that sees the new array sees it filled (its mask, every
 * slot the rehash copied). S0: a reader that sees an entry sees its id,
 * type and allocator. A tombstone is a plain WRITE_ONCE(): nothing is
 * read through it. The old array and removed entries are freed after a
 * grace period (kfree_rcu(), call_rcu()), so a reader still holding them
 * reads valid memory until it leaves its read-side section.
 */
#ifndef _PP_XDP_INTERNAL_H
#define _PP_XDP_INTERNAL_H

#include "xdp/mem_lfht.h"

#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <net/page_pool/types.h>
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
 * The designs of the XDP layer, two axes, each chosen at build time
 * (meson -Dxdp_return, -Dxdp_table; <generated/autoconf.h>):
 *
 *   return generation   CONFIG_PAGEPOOL_XDP_RETURN_DIRECT   return.c
 *                       CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP   return_lookup.c
 *   lookup table        CONFIG_PAGEPOOL_XDP_TABLE_ID        here and mem_id.c
 *                       CONFIG_PAGEPOOL_XDP_TABLE_RCULFHASH mem_lfht.c
 *
 * A default build has one design per axis: ppxdp_return_lookup_on() and
 * ppxdp_table_lfht_on() are then constants (macros, so that even an
 * unoptimised build drops the other design's calls), the fast paths carry
 * no test for the other design and its file is not compiled. An
 * all-designs build (-Ddesigns=all, CONFIG_PAGEPOOL_ALL_DESIGNS) compiles
 * both of each axis, and the two predicates read static keys, switched by
 * pp_xdp_set_return_mode() and pp_xdp_set_lookup_table() (designs.c).
 */
#ifdef CONFIG_PAGEPOOL_ALL_DESIGNS
/* designs.c. Hidden: the library's own code reads them directly, not
 * through the GOT (one instruction less per return). */
extern struct static_key_false ppxdp_return_lookup __attribute__((visibility("hidden")));
extern struct static_key_false ppxdp_lookup_lfht __attribute__((visibility("hidden")));

#define ppxdp_return_lookup_on()	static_branch_unlikely(&ppxdp_return_lookup)
#define ppxdp_table_lfht_on()		static_branch_unlikely(&ppxdp_lookup_lfht)
#else
#define ppxdp_return_lookup_on()	IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP)
#define ppxdp_table_lfht_on()		IS_ENABLED(CONFIG_PAGEPOOL_XDP_TABLE_RCULFHASH)
#endif

/*
 * designs.c: the choices the environment (PAGEPOOL_XDP_RETURN,
 * PAGEPOOL_XDP_TABLE) makes, applied once: at the first memory-model
 * registration - no frame can name a page_pool's memory model before
 * that - or at the first call of a setter or getter, whichever is first
 * (an explicit choice then wins). With ppxdp_mem_lock held.
 */
void ppxdp_designs_init_locked(void);

/*
 * Look @id up, for the lookup generation. Caller MUST be inside an RCU
 * read-side section (or a bh-disabled region) and keep it while using the
 * entry. NULL when unknown. Writers, who hold ppxdp_mem_lock, use
 * ppxdp_mem_find() instead: the id table is their registry in every build.
 */
static __always_inline struct xdp_mem_allocator *ppxdp_mem_lookup(u32 id)
{
	const struct ppxdp_mem_table *t;
	u32 i;

	/* The general-purpose table, as the kernel's rhashtable. */
	if (ppxdp_table_lfht_on()) {
		struct ppxdp_lfht_node *n = ppxdp_lfht_lookup(id);

		return n ? container_of(n, struct xdp_mem_allocator, lfht) : NULL;
	}
	/* T0r: pairs with T0w, the publication of the array in
	 * table_rehash() (mem_id.c): its slots are seen as filled. */
	t = rcu_dereference(ppxdp_mem_table);
	if (unlikely(!t))
		return NULL;
	for (i = id & t->mask;; i = (i + 1) & t->mask) {
		/* S0r: pairs with S0w, the publication of an entry in
		 * ppxdp_mem_insert(): its fields are seen initialised. */
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
/* The published entry of @id, or NULL, from the id table. */
struct xdp_mem_allocator *ppxdp_mem_find(u32 id);
/* All-designs builds: fill the rculfhash table with every published
 * entry and keep it filled from now on (0, or -ENOMEM with nothing
 * added). The other builds keep it from the start if they have it. */
int ppxdp_lfht_start(void);

/*
 * Where the two return generations meet.
 *
 * The exported calls of return.c (xdp_return_frame*(), xdp_return_buff(),
 * xdp_return_frag(), xdp_return_frame_bulk()) pick the generation with
 * ppxdp_return_lookup_on(), once per netmem or bulk add, and hand the
 * lookup generation (return_lookup.c) what it needs:
 *   - ppxdp_return_pp_lookup(): a MEM_TYPE_PAGE_POOL netmem that is
 *     already its compound head, the memory model's id and napi_direct
 *     (not yet masked by xdp_return_frame_no_direct());
 *   - ppxdp_return_frame_bulk_lookup(): a MEM_TYPE_PAGE_POOL frame and
 *     the bulk, whose count may be anything (a bad one is reset).
 * The direct path, the kernel's current one, is compiled in every build:
 * __xdp_return() carries no id, so it always reads the pool from the page
 * (in a lookup-only build that is all the direct path serves). Both generations end in page_pool's put (the lookup one
 * through the owner check of page_pool_put_full_netmem(), the direct one
 * having read the owner from the page) and share the bulk: the same queue
 * of netmems, flushed by xdp_flush_frame_bulk() into
 * page_pool_put_netmem_bulk(), which sorts mixed pools out. Only the
 * lookup generation reads or writes bq->xa; the direct one leaves it as
 * xdp_frame_bulk_init() set it. Switching generations is allowed with
 * frames in flight, not in the middle of a bulk.
 */
void ppxdp_return_pp_lookup(netmem_ref netmem, u32 mem_id, bool napi_direct);
void ppxdp_return_frame_bulk_lookup(struct xdp_frame *xdpf, struct xdp_frame_bulk *bq);

/* return.c, for both generations' bulks. */
/* A bulk whose count is past its capacity: reported, and reset. */
void ppxdp_bulk_bad_count(struct xdp_frame_bulk *bq);
/* Queue a multi-buffer frame's fragments, flushing whenever it is full. */
void ppxdp_bulk_add_frags(const struct xdp_frame *xdpf, struct xdp_frame_bulk *bq);

/*
 * What a bulk queues for a frame's head: the page of its data, not yet its
 * compound head - page_pool_put_netmem_bulk() takes any page of a compound
 * netmem (as it must for fragments) and finds the head itself, so finding
 * it here too would cost the bulk add four instructions for nothing.
 */
static __always_inline netmem_ref ppxdp_bulk_netmem(const void *data)
{
	return page_to_netmem(virt_to_page(data));
}

/* Give back a bulk whose count is at least its capacity: full, or bad
 * (reset). The put is of exactly XDP_BULK_QUEUE_SIZE, which costs no
 * more than xdp_flush_frame_bulk()'s empty test and count reload. */
static __always_inline void ppxdp_bulk_flush_full(struct xdp_frame_bulk *bq)
{
	if (unlikely(bq->count != XDP_BULK_QUEUE_SIZE)) {
		ppxdp_bulk_bad_count(bq);
		return;
	}
	page_pool_put_netmem_bulk(bq->q, XDP_BULK_QUEUE_SIZE);
	bq->count = 0;
}

/* Room for one more netmem: a full bulk is flushed, a bad one reset.
 * Unsigned, so a negative count is past capacity too (and the compare
 * costs what the kernel's == does). */
static __always_inline void ppxdp_bulk_make_room(struct xdp_frame_bulk *bq)
{
	if (unlikely((u32)bq->count >= XDP_BULK_QUEUE_SIZE))
		ppxdp_bulk_flush_full(bq);
}

/*
 * XDP_REDIRECT (redirect.c, devmap.c). The redirect info's kinds of
 * target, each an ifindex; the helpers set it with
 * ppxdp_set_redirect_target() after
 * ppxdp_helper_context_ok() (false, with a one-time WARN, outside a
 * bottom-half-disabled section). ppxdp_devmap_unregister_dev() empties
 * every devmap slot naming @dev; under RTNL, from the netdevice notifier.
 */
enum {
	PPXDP_RI_NONE = 0,
	PPXDP_RI_IFINDEX,
	PPXDP_RI_MAP,
};
struct net_device;
void ppxdp_set_redirect_target(u32 kind, u32 ifindex);
bool ppxdp_helper_context_ok(const char *helper);
void ppxdp_devmap_unregister_dev(struct net_device *dev);

#endif /* _PP_XDP_INTERNAL_H */
