/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XDP mem ids: the cyclic id allocator (the kernel's IDA + mem_id_next) and
 * the RCU-read id -> allocator table described in xdp_internal.h. Writers
 * serialise on ppxdp_mem_lock; the read side is ppxdp_mem_lookup().
 *
 * Ids follow the kernel's rule exactly: search upwards from the id after
 * the last one handed out; when nothing is free up to the top, retry once
 * from MEM_ID_MIN; -ENOSPC when that fails too. An id becomes free again
 * only in the RCU callback that frees its entry, so a reader that found
 * the entry never sees the id reused under it.
 *
 * Memory orders: the writer sides of the id table's pairs, T0w (a new
 * array) and S0w (a new entry), whose readers and table are in
 * xdp_internal.h; rculfhash orders its own (mem_lfht.c). Everything else
 * here is read and written under ppxdp_mem_lock.
 */
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <pagepool/xdp.h>

#include "xdp/xdp_internal.h"

DEFINE_MUTEX(ppxdp_mem_lock);
struct ppxdp_mem_table *ppxdp_mem_table;

/*
 * Whether every insert and remove also goes to the rculfhash table
 * (mem_lfht.c), under ppxdp_mem_lock. In a build whose table is rculfhash:
 * always; in a build without it: never (a constant, so the calls are not
 * compiled). In an all-designs build, from the first time its lookups are
 * chosen on (ppxdp_lfht_start(); rculfhash with auto-resize runs a worker
 * thread, and a process that never compares the two tables should not get
 * one), then for the rest of the process, so switching back and forth is
 * cheap. The id table is kept in every build: it hands out the ids, and
 * writers find entries in it (ppxdp_mem_find(), by allocator at
 * disconnect).
 */
#ifdef CONFIG_PAGEPOOL_ALL_DESIGNS
static bool lfht_kept = CONFIG_PAGEPOOL_XDP_TABLE_DEFAULT == PP_XDP_TABLE_RCULFHASH;

int ppxdp_lfht_start(void)
{
	struct ppxdp_mem_table *t = ppxdp_mem_table;
	u32 i, done = 0;
	int err = 0;

	if (lfht_kept)
		return 0;
	rcu_read_lock();
	for (i = 0; t && i <= t->mask; i++) {
		struct xdp_mem_allocator *xa = t->slots[i];

		if (!xa || xa == PPXDP_TOMBSTONE)
			continue;
		err = ppxdp_lfht_add(&xa->lfht, xa->mem.id);
		if (err)
			break;
		done = i + 1;
	}
	if (err) {
		/* Undo: the rculfhash table is all or nothing. */
		for (i = 0; i < done; i++) {
			struct xdp_mem_allocator *xa = t->slots[i];

			if (xa && xa != PPXDP_TOMBSTONE)
				ppxdp_lfht_del(&xa->lfht);
		}
	}
	rcu_read_unlock();
	if (err)
		return -ENOMEM;
	lfht_kept = true;
	return 0;
}
#else
#define lfht_kept	IS_ENABLED(CONFIG_PAGEPOOL_XDP_TABLE_RCULFHASH)
#endif

/* Id allocator state, under ppxdp_mem_lock. */
#define MEM_ID_WORDS	((PPXDP_MEM_ID_MAX + BITS_PER_LONG - 1) / BITS_PER_LONG)
static unsigned long mem_id_map[MEM_ID_WORDS];
static u32 mem_id_next = PPXDP_MEM_ID_MIN;
static unsigned int mem_id_used;

/*
 * Table sizing. 8 slots at least (the kernel's min_size); grown so a
 * rehash leaves it at most half full and rehashed before entries plus
 * tombstones pass three quarters (short probes, and a NULL slot always
 * ends a probe); shrunk below one eighth so the same size is not crossed
 * back and forth. At most 2^17 slots for 0xFFFD ids: 1 MiB.
 */
#define TABLE_MIN_SIZE	8U

/* First clear bit in [from, end), or -ENOSPC. */
static int mem_id_find_free(u32 from, u32 end)
{
	u32 word, bit;

	while (from < end) {
		unsigned long free;

		word = from / BITS_PER_LONG;
		bit = from % BITS_PER_LONG;
		free = ~mem_id_map[word] & (~0UL << bit);
		if (free) {
			u32 id = word * BITS_PER_LONG + (u32)__ffs(free);

			return id < end ? (int)id : -ENOSPC;
		}
		from = (word + 1) * BITS_PER_LONG;
	}
	return -ENOSPC;
}

static int mem_id_cyclic_get(void)
{
	int retries = 1;
	int id;

again:
	id = mem_id_find_free(mem_id_next, PPXDP_MEM_ID_MAX);
	if (id < 0) {
		/* Cyclic: wrap to the bottom once. */
		if (retries--) {
			mem_id_next = PPXDP_MEM_ID_MIN;
			goto again;
		}
		return id;
	}
	__set_bit(id, mem_id_map);
	mem_id_used++;
	mem_id_next = (u32)id + 1;
	return id;
}

static void mem_id_release(u32 id)
{
	if (WARN_ON_ONCE(id < PPXDP_MEM_ID_MIN || id >= PPXDP_MEM_ID_MAX ||
			 !test_bit(id, mem_id_map)))
		return;
	__clear_bit(id, mem_id_map);
	mem_id_used--;
}

unsigned int pp_xdp_mem_id_count(void)
{
	unsigned int n;

	mutex_lock(&ppxdp_mem_lock);
	n = mem_id_used;
	mutex_unlock(&ppxdp_mem_lock);
	return n;
}

static u32 table_size(const struct ppxdp_mem_table *t)
{
	return t ? t->mask + 1 : 0;
}

/* Slot for a new entry of @id: the first empty or tombstone slot. */
static u32 table_free_slot(const struct ppxdp_mem_table *t, u32 id)
{
	u32 i;

	for (i = id & t->mask;; i = (i + 1) & t->mask) {
		struct xdp_mem_allocator *xa = t->slots[i];

		if (!xa || xa == PPXDP_TOMBSTONE)
			return i;
	}
}

/* Replace the table by one of @size slots holding the same entries.
 * Readers of the old array keep it until a grace period passes. */
static int table_rehash(u32 size)
{
	struct ppxdp_mem_table *old = ppxdp_mem_table, *t;
	u32 i;

	t = kzalloc(sizeof(*t) + size * sizeof(t->slots[0]), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->mask = size - 1;
	for (i = 0; old && i <= old->mask; i++) {
		struct xdp_mem_allocator *xa = old->slots[i];

		if (!xa || xa == PPXDP_TOMBSTONE)
			continue;
		t->slots[table_free_slot(t, xa->mem.id)] = xa;
		t->live++;
	}
	t->used = t->live;
	/* T0w: the filled array before the pointer to it (xdp_internal.h). */
	rcu_assign_pointer(ppxdp_mem_table, t);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/* Smallest table that is at most half full with @live entries. */
static u32 table_size_for(u32 live)
{
	u32 size = TABLE_MIN_SIZE;

	while (size < 2 * (live + 1))
		size <<= 1;
	return size;
}

int ppxdp_mem_insert(struct xdp_mem_allocator *xa)
{
	struct ppxdp_mem_table *t = ppxdp_mem_table;
	int id, err;
	u32 i;

	/* The first registration: the environment's designs apply now. */
	ppxdp_designs_init_locked();
	id = mem_id_cyclic_get();
	if (id < 0)
		return id;

	if (!t || (t->used + 1) * 4 > table_size(t) * 3) {
		err = table_rehash(table_size_for(t ? t->live + 1 : 1));
		if (err) {
			mem_id_release((u32)id);
			return err;
		}
		t = ppxdp_mem_table;
	}

	/* The rculfhash table first: nothing is published if it fails. */
	if (lfht_kept) {
		rcu_read_lock();
		err = ppxdp_lfht_add(&xa->lfht, (u32)id);
		rcu_read_unlock();
		if (err) {
			mem_id_release((u32)id);
			return -ENOMEM;
		}
	}

	xa->mem.id = (u32)id;
	i = table_free_slot(t, (u32)id);
	if (!t->slots[i])
		t->used++;
	t->live++;
	/* S0w: the entry's fields before the pointer to it (xdp_internal.h). */
	rcu_assign_pointer(t->slots[i], xa);
	return 0;
}

static void mem_allocator_rcu_free(struct rcu_head *rcu)
{
	struct xdp_mem_allocator *xa = container_of(rcu, struct xdp_mem_allocator, rcu);

	/* No reader can hold the entry any more: the id may be reused. */
	mutex_lock(&ppxdp_mem_lock);
	mem_id_release(xa->mem.id);
	mutex_unlock(&ppxdp_mem_lock);
	kfree(xa);
}

/* Unpublish the entry in slot @i of the current table. */
static void table_remove_slot(struct ppxdp_mem_table *t, u32 i)
{
	struct xdp_mem_allocator *xa = t->slots[i];

	WRITE_ONCE(t->slots[i], PPXDP_TOMBSTONE);
	t->live--;
	if (lfht_kept) {
		rcu_read_lock();
		ppxdp_lfht_del(&xa->lfht);
		rcu_read_unlock();
	}
	call_rcu(&xa->rcu, mem_allocator_rcu_free);
}

/* Shrink after removals; a failed allocation just keeps the big table. */
static void table_maybe_shrink(void)
{
	struct ppxdp_mem_table *t = ppxdp_mem_table;

	if (table_size(t) > TABLE_MIN_SIZE && t->live * 8 < table_size(t))
		(void)table_rehash(table_size_for(t->live));
}

struct xdp_mem_allocator *ppxdp_mem_find(u32 id)
{
	const struct ppxdp_mem_table *t = ppxdp_mem_table;
	u32 i;

	if (!t)
		return NULL;
	for (i = id & t->mask; t->slots[i]; i = (i + 1) & t->mask) {
		struct xdp_mem_allocator *xa = t->slots[i];

		if (xa != PPXDP_TOMBSTONE && xa->mem.id == id)
			return xa;
	}
	return NULL;
}

void ppxdp_mem_remove(struct xdp_mem_allocator *xa)
{
	struct ppxdp_mem_table *t = ppxdp_mem_table;
	u32 i;

	if (WARN_ON_ONCE(!t))
		return;
	for (i = xa->mem.id & t->mask; t->slots[i]; i = (i + 1) & t->mask) {
		if (t->slots[i] == xa) {
			table_remove_slot(t, i);
			table_maybe_shrink();
			return;
		}
	}
	WARN(1, "xdp: mem id %u is not in the table", xa->mem.id);
}

void ppxdp_mem_remove_allocator(const void *allocator)
{
	struct ppxdp_mem_table *t = ppxdp_mem_table;
	u32 i;

	if (!t)
		return;
	for (i = 0; i <= t->mask; i++) {
		struct xdp_mem_allocator *xa = t->slots[i];

		if (xa && xa != PPXDP_TOMBSTONE && xa->allocator == allocator)
			table_remove_slot(t, i);
	}
	table_maybe_shrink();
}
