/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The DMA-API debug layer (the kernel's CONFIG_DMA_API_DEBUG,
 * kernel/dma/debug.c), on for devices created with PP_DMA_DEBUG, and the
 * violation counters and reports shared with the rest of src/dma.
 *
 * Each debug device has a hash table of its mappings keyed by bus address
 * (the device is implicit: the kernel's single table is keyed by (device,
 * address); one table per device gives the same answers without a global
 * lock), recording size, direction, physical address and state. Unmapped
 * entries stay as tombstones until the same address is mapped again, which
 * tells a double unmap from an unmap of an address that was never mapped
 * (the kernel reports both as the latter). Tombstones are capped per
 * device, oldest dropped first; a double unmap that comes later than that
 * is still reported, as an unknown unmap.
 *
 * Direction rules are the kernel's: an unmap must use the map's
 * direction; a sync must too, except that a DMA_BIDIRECTIONAL mapping may
 * be synced in any direction (check_sync() returns early for it).
 *
 * Each entry also records its kind (single, scatter-gather, coherent,
 * resource, noncoherent) and, for scatterlists, the entry count given to
 * the map: as in the kernel, a mapping must be undone by its own family of
 * calls with the same count, and an allocation freed with its own CPU
 * address. A scatterlist has one entry per DMA segment it was mapped to.
 *
 * One spinlock per table. The kernel uses one per hash bucket; debug mode
 * is for finding bugs, and a single lock keeps the tombstone list simple.
 * Reports are printed after the lock is dropped.
 * Layer: dma.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "dma_internal.h"
#include "runtime/runtime_internal.h"

#define DBG_HASH_BITS		12	/* 4096 chains: short for tens of thousands of mappings */
#define DBG_BUCKETS		(1U << DBG_HASH_BITS)
/* Enough to cover every page of a small pool cycling through its ring a
 * few times, and at most ~1 MiB of entries per device. */
#define DBG_MAX_TOMBS		16384
/* Leaks at unbind printed one by one; the rest are counted and summed up
 * in one line (a pool can leak thousands of pages). */
#define DBG_LEAKS_PRINTED	8

struct ppdma_dbg_entry {
	struct ppdma_dbg_entry *next;	/* hash chain */
	struct list_head tomb;		/* tombstones, oldest first */
	struct ppdma_ref ref;
	bool live;
};

struct ppdma_debug {
	spinlock_t lock;
	unsigned long nr_live;
	unsigned long nr_tombs;
	unsigned long max_pages;	/* most pages any mapping has spanned */
	struct list_head tombs;
	struct ppdma_dbg_entry *hash[DBG_BUCKETS];
};

/* Violations over all devices, ever: they outlive the devices. */
static atomic_long_t ppdma_violations_total;
static atomic_long_t ppdma_violations_kind[PP_DMA_V_NR];

static const char *const ppdma_violation_names[PP_DMA_V_NR] = {
	[PP_DMA_V_DOUBLE_UNMAP]		= "double-unmap",
	[PP_DMA_V_UNKNOWN_UNMAP]	= "unknown-unmap",
	[PP_DMA_V_BAD_UNMAP]		= "bad-unmap-size",
	[PP_DMA_V_SYNC_OUTSIDE]		= "sync-outside-mapping",
	[PP_DMA_V_WRONG_DIR]		= "wrong-direction",
	[PP_DMA_V_LEAK_AT_UNBIND]	= "leak-at-unbind",
	[PP_DMA_V_USE_AFTER_UNBIND]	= "use-after-unbind",
	[PP_DMA_V_WRONG_FUNCTION]	= "wrong-function",
	[PP_DMA_V_WRONG_CPU_ADDR]	= "wrong-cpu-address",
	[PP_DMA_V_SG_COUNT]		= "sg-entry-count",
};

static const char *const ppdma_type_names[] = {
	[PPDMA_MAP_SINGLE]	= "single",
	[PPDMA_MAP_SG]		= "scatter-gather",
	[PPDMA_MAP_COHERENT]	= "coherent",
	[PPDMA_MAP_RESOURCE]	= "resource",
	[PPDMA_MAP_NONCOHERENT]	= "noncoherent",
};

const char *pp_dma_violation_name(enum pp_dma_violation kind)
{
	if ((unsigned int)kind >= PP_DMA_V_NR)
		return "unknown";
	return ppdma_violation_names[kind];
}

const char *ppdma_dir_name(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_BIDIRECTIONAL:
		return "DMA_BIDIRECTIONAL";
	case DMA_TO_DEVICE:
		return "DMA_TO_DEVICE";
	case DMA_FROM_DEVICE:
		return "DMA_FROM_DEVICE";
	case DMA_NONE:
		return "DMA_NONE";
	}
	return "invalid";
}

/* A device pagepool did not create has no debug layer: no violations. */
unsigned long pp_dma_violations(const struct device *dev)
{
	unsigned long n = 0;
	int k;

	if (!dev)
		return atomic_long_read(&ppdma_violations_total);
	if (IS_ERR(dev) || !to_ppdma(dev))
		return 0;
	for (k = 0; k < PP_DMA_V_NR; k++)
		n += atomic_long_read(&to_ppdma(dev)->violations[k]);
	return n;
}

unsigned long pp_dma_violation_count(const struct device *dev,
				     enum pp_dma_violation kind)
{
	if ((unsigned int)kind >= PP_DMA_V_NR)
		return 0;
	if (!dev)
		return atomic_long_read(&ppdma_violations_kind[kind]);
	if (IS_ERR(dev) || !to_ppdma(dev))
		return 0;
	return atomic_long_read(&to_ppdma(dev)->violations[kind]);
}

void ppdma_count_violations(struct pp_dma_dev *d, enum pp_dma_violation kind,
			    unsigned long n)
{
	atomic_long_add(n, &d->violations[kind]);
	atomic_long_add(n, &ppdma_violations_kind[kind]);
	atomic_long_add(n, &ppdma_violations_total);
}

/* Read at every violation, not cached: they are rare, and a test may set
 * the variable in a forked child before provoking one. */
static bool ppdma_abort_requested(void)
{
	return pprt_knob_flag(PPRT_KNOB_DMA_ABORT);
}

void ppdma_report(struct pp_dma_dev *d, enum pp_dma_violation kind,
		  const char *fmt, ...)
{
	char detail[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	ppdma_count_violations(d, kind, 1);
	pr_err("DMA-API: %s: %s: %s\n", dev_name(&d->dev),
	       pp_dma_violation_name(kind), detail);
	if (ppdma_abort_requested()) {
		pr_emerg("DMA-API: PAGEPOOL_DMA_ABORT=1: aborting at the first violation\n");
		abort();
	}
}

/* The page an address is in, scrambled (Fibonacci hashing). */
static inline unsigned int dbg_hash(dma_addr_t addr)
{
	return (unsigned int)(((addr >> PAGE_SHIFT) * 0x61c8864680b583ebULL) >>
			      (64 - DBG_HASH_BITS));
}

static inline unsigned long dbg_pages(dma_addr_t addr, size_t size)
{
	return ((addr & ~PAGE_MASK) + size + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

int ppdma_debug_init(struct pp_dma_dev *d)
{
	struct ppdma_debug *dbg = kzalloc(sizeof(*dbg), GFP_KERNEL);

	if (!dbg)
		return -ENOMEM;
	spin_lock_init(&dbg->lock);
	INIT_LIST_HEAD(&dbg->tombs);
	d->dbg = dbg;
	return 0;
}

/* Caller holds the lock. Returns how many live entries were dropped, and
 * copies up to @max of them to @out. */
static unsigned long dbg_clear(struct ppdma_debug *dbg,
			       struct ppdma_dbg_entry *out, unsigned long max)
{
	struct ppdma_dbg_entry *e, *next;
	unsigned long live = 0;
	unsigned int b;

	for (b = 0; b < DBG_BUCKETS; b++) {
		for (e = dbg->hash[b]; e; e = next) {
			next = e->next;
			if (e->live && live++ < max)
				out[live - 1] = *e;
			kfree(e);
		}
		dbg->hash[b] = NULL;
	}
	INIT_LIST_HEAD(&dbg->tombs);
	dbg->nr_live = 0;
	dbg->nr_tombs = 0;
	return live;
}

void ppdma_debug_free(struct pp_dma_dev *d)
{
	if (!d->dbg)
		return;
	dbg_clear(d->dbg, NULL, 0);
	kfree(d->dbg);
	d->dbg = NULL;
}

/* Caller holds the lock. Unlink @t from its hash chain. */
static void dbg_unhash(struct ppdma_debug *dbg, struct ppdma_dbg_entry *t)
{
	struct ppdma_dbg_entry **pp = &dbg->hash[dbg_hash(t->ref.addr)];

	while (*pp != t)
		pp = &(*pp)->next;
	*pp = t->next;
}

/* Caller holds the lock. Hash @e in, dropping the tombstones of its
 * address onto *@stale (freed by the caller after the lock). */
static void dbg_insert(struct ppdma_debug *dbg, struct ppdma_dbg_entry *e,
		       struct ppdma_dbg_entry **stale)
{
	struct ppdma_dbg_entry *t, **pp = &dbg->hash[dbg_hash(e->ref.addr)];
	unsigned long pages = dbg_pages(e->ref.addr, e->ref.size);

	/* The address is in use again: its tombstones have served. */
	while ((t = *pp)) {
		if (!t->live && t->ref.addr == e->ref.addr) {
			*pp = t->next;
			list_del(&t->tomb);
			dbg->nr_tombs--;
			t->next = *stale;
			*stale = t;
			continue;
		}
		pp = &t->next;
	}
	e->next = dbg->hash[dbg_hash(e->ref.addr)];
	dbg->hash[dbg_hash(e->ref.addr)] = e;
	dbg->nr_live++;
	if (pages > dbg->max_pages)
		dbg->max_pages = pages;
}

static void dbg_free_list(struct ppdma_dbg_entry *t)
{
	struct ppdma_dbg_entry *next;

	for (; t; t = next) {
		next = t->next;
		kfree(t);
	}
}

int ppdma_debug_map(struct pp_dma_dev *d, const struct ppdma_ref *ref)
{
	struct ppdma_debug *dbg = d->dbg;
	struct ppdma_dbg_entry *e, *stale = NULL;

	e = kmalloc(sizeof(*e), GFP_ATOMIC);
	if (!e)
		return -ENOMEM;
	e->ref = *ref;
	e->live = true;

	spin_lock(&dbg->lock);
	dbg_insert(dbg, e, &stale);
	spin_unlock(&dbg->lock);
	dbg_free_list(stale);
	return 0;
}

/* The entries are allocated before the lock is taken, so that a failure
 * leaves no record of a mapping the caller then undoes. */
int ppdma_debug_map_sg(struct pp_dma_dev *d, struct scatterlist *sg,
		       int nents, int mapped, enum dma_data_direction dir)
{
	struct ppdma_dbg_entry *new = NULL, *e, *stale = NULL;
	struct ppdma_debug *dbg = d->dbg;
	struct scatterlist *s;
	int i;

	for_each_sg(sg, s, mapped, i) {
		e = kmalloc(sizeof(*e), GFP_ATOMIC);
		if (!e) {
			dbg_free_list(new);
			return -ENOMEM;
		}
		e->ref = (struct ppdma_ref){
			.addr = sg_dma_address(s), .size = sg_dma_len(s),
			.phys = sg_phys(s), .dir = dir, .type = PPDMA_MAP_SG,
			.sg_call_ents = nents, .sg_mapped_ents = mapped,
		};
		e->live = true;
		e->next = new;
		new = e;
	}
	spin_lock(&dbg->lock);
	while ((e = new)) {
		new = e->next;
		dbg_insert(dbg, e, &stale);
	}
	spin_unlock(&dbg->lock);
	dbg_free_list(stale);
	return 0;
}

/*
 * Caller holds the lock. The entry at exactly @addr in state @live that
 * best matches the call: same size and direction, else same size, else
 * any (the same page can be mapped twice on the direct backend, at one
 * address; the kernel picks the best fit the same way).
 */
static struct ppdma_dbg_entry *dbg_find_exact(struct ppdma_debug *dbg,
					      const struct ppdma_ref *ref,
					      bool live)
{
	struct ppdma_dbg_entry *e, *best = NULL;
	int score, best_score = -1;

	for (e = dbg->hash[dbg_hash(ref->addr)]; e; e = e->next) {
		if (e->ref.addr != ref->addr || e->live != live)
			continue;
		score = (e->ref.type == ref->type) * 4 +
			(e->ref.size == ref->size) * 2 + (e->ref.dir == ref->dir);
		if (score > best_score) {
			best = e;
			best_score = score;
			if (score == 7)
				break;
		}
	}
	return best;
}

/* Caller holds the lock. Move a live entry to the tombstones, dropping the
 * oldest tombstone past the cap. */
static void dbg_retire(struct ppdma_debug *dbg, struct ppdma_dbg_entry *e)
{
	struct ppdma_dbg_entry *old;

	e->live = false;
	dbg->nr_live--;
	list_add_tail(&e->tomb, &dbg->tombs);
	if (++dbg->nr_tombs <= DBG_MAX_TOMBS)
		return;
	old = list_first_entry(&dbg->tombs, struct ppdma_dbg_entry, tomb);
	list_del(&old->tomb);
	dbg->nr_tombs--;
	dbg_unhash(dbg, old);
	kfree(old);
}

/* The checks of an unmap that found its live mapping @m, kernel's order. */
static void dbg_check_unmap(struct pp_dma_dev *d, const struct ppdma_ref *ref,
			    const struct ppdma_ref *m)
{
	unsigned long long addr = ref->addr;

	if (m->size != ref->size)
		ppdma_report(d, PP_DMA_V_BAD_UNMAP,
			     "device driver frees DMA memory with different size "
			     "[device address=0x%016llx] [map size=%zu bytes] "
			     "[unmap size=%zu bytes]", addr, m->size, ref->size);
	if (m->type != ref->type)
		ppdma_report(d, PP_DMA_V_WRONG_FUNCTION,
			     "device driver frees DMA memory with wrong function "
			     "[device address=0x%016llx] [size=%zu bytes] "
			     "[mapped as %s] [unmapped as %s]", addr, ref->size,
			     ppdma_type_names[m->type], ppdma_type_names[ref->type]);
	else if ((m->type == PPDMA_MAP_COHERENT || m->type == PPDMA_MAP_NONCOHERENT) &&
		 m->phys != ref->phys)
		ppdma_report(d, PP_DMA_V_WRONG_CPU_ADDR,
			     "device driver frees DMA memory with different CPU address "
			     "[device address=0x%016llx] [size=%zu bytes] "
			     "[cpu alloc address=0x%016llx] [cpu free address=0x%016llx]",
			     addr, ref->size, (unsigned long long)m->phys,
			     (unsigned long long)ref->phys);
	if (ref->sg_call_ents && ref->type == PPDMA_MAP_SG &&
	    ref->sg_call_ents != m->sg_call_ents)
		ppdma_report(d, PP_DMA_V_SG_COUNT,
			     "device driver frees DMA sg list with different entry count "
			     "[map count=%d] [unmap count=%d]",
			     m->sg_call_ents, ref->sg_call_ents);
	if (m->dir != ref->dir)
		ppdma_report(d, PP_DMA_V_WRONG_DIR,
			     "device driver frees DMA memory with different direction "
			     "[device address=0x%016llx] [size=%zu bytes] "
			     "[mapped with %s] [unmapped with %s]", addr, ref->size,
			     ppdma_dir_name(m->dir), ppdma_dir_name(ref->dir));
}

bool ppdma_debug_unmap(struct pp_dma_dev *d, const struct ppdma_ref *ref,
		       struct ppdma_ref *found)
{
	struct ppdma_debug *dbg = d->dbg;
	struct ppdma_dbg_entry *e;
	struct ppdma_ref m;
	bool tomb = false;

	spin_lock(&dbg->lock);
	e = dbg_find_exact(dbg, ref, true);
	if (e) {
		m = e->ref;
		dbg_retire(dbg, e);
	} else {
		e = dbg_find_exact(dbg, ref, false);
		if (e) {
			m = e->ref;
			tomb = true;
		}
	}
	spin_unlock(&dbg->lock);

	if (!e) {
		if (ref->addr == DMA_MAPPING_ERROR)
			ppdma_report(d, PP_DMA_V_UNKNOWN_UNMAP,
				     "device driver tries to free an invalid DMA memory address");
		else
			ppdma_report(d, PP_DMA_V_UNKNOWN_UNMAP,
				     "device driver tries to free DMA memory it has not allocated "
				     "[device address=0x%016llx] [size=%zu bytes]",
				     (unsigned long long)ref->addr, ref->size);
		return false;
	}
	if (tomb) {
		ppdma_report(d, PP_DMA_V_DOUBLE_UNMAP,
			     "device driver frees DMA memory it has already freed "
			     "[device address=0x%016llx] [size=%zu bytes] "
			     "[phys=0x%016llx] [mapped with %s] [mapped as %s]",
			     (unsigned long long)ref->addr, ref->size,
			     (unsigned long long)m.phys, ppdma_dir_name(m.dir),
			     ppdma_type_names[m.type]);
		return false;
	}
	dbg_check_unmap(d, ref, &m);
	if (found)
		*found = m;
	return true;
}

/* As the kernel: the first segment's record says how many DMA segments the
 * list was mapped to; each of those is checked like a single unmap. */
int ppdma_debug_unmap_sg(struct pp_dma_dev *d, struct scatterlist *sg,
			 int nents, enum dma_data_direction dir)
{
	struct scatterlist *s;
	struct ppdma_ref found;
	int i, mapped = nents, done = 0;

	for (i = 0, s = sg; i < nents && i < mapped && s; i++, s = sg_next(s)) {
		struct ppdma_ref ref = {
			.addr = sg_dma_address(s), .size = sg_dma_len(s),
			.phys = sg_phys(s), .dir = dir, .type = PPDMA_MAP_SG,
			.sg_call_ents = nents,
		};

		if (!ppdma_debug_unmap(d, &ref, &found))
			break;
		if (!i)
			mapped = found.sg_mapped_ents;
		done++;
	}
	return done;
}

/*
 * Caller holds the lock. A live mapping that holds @addr, preferring one
 * that holds all of [addr, addr + size) and then one whose direction
 * allows the sync. A mapping starts at most max_pages - 1 pages before
 * @addr, so only those chains are searched.
 */
static struct ppdma_dbg_entry *dbg_find_contain(struct ppdma_debug *dbg,
						dma_addr_t addr, size_t size,
						enum dma_data_direction dir,
						bool *inside)
{
	dma_addr_t page = addr & PAGE_MASK, end = addr + size;
	struct ppdma_dbg_entry *e, *best = NULL;
	int score, best_score = -1;
	unsigned long back;

	*inside = false;
	if (end < addr)
		return NULL;
	for (back = 0; back < dbg->max_pages && page >= back * PAGE_SIZE; back++) {
		dma_addr_t start_page = page - back * PAGE_SIZE;

		for (e = dbg->hash[dbg_hash(start_page)]; e; e = e->next) {
			if (!e->live || (e->ref.addr & PAGE_MASK) != start_page ||
			    addr < e->ref.addr || addr - e->ref.addr >= e->ref.size)
				continue;
			score = (end <= e->ref.addr + e->ref.size) * 2 +
				(e->ref.dir == DMA_BIDIRECTIONAL || e->ref.dir == dir);
			if (score > best_score) {
				best = e;
				best_score = score;
			}
		}
		if (best_score == 3)
			break;
	}
	*inside = best_score >= 2;
	return best;
}

void ppdma_debug_sync(struct pp_dma_dev *d, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir, bool for_cpu)
{
	struct ppdma_debug *dbg = d->dbg;
	const char *what = for_cpu ? "for cpu" : "for device";
	struct ppdma_dbg_entry *e;
	struct ppdma_ref found;
	bool inside;

	spin_lock(&dbg->lock);
	e = dbg_find_contain(dbg, addr, size, dir, &inside);
	if (e)
		found = e->ref;
	spin_unlock(&dbg->lock);

	if (!e) {
		ppdma_report(d, PP_DMA_V_SYNC_OUTSIDE,
			     "device driver tries to sync DMA memory it has not allocated "
			     "[device address=0x%016llx] [size=%zu bytes] [sync %s]",
			     (unsigned long long)addr, size, what);
		return;
	}
	if (!inside)
		ppdma_report(d, PP_DMA_V_SYNC_OUTSIDE,
			     "device driver syncs DMA memory outside allocated range "
			     "[device address=0x%016llx] [allocation size=%zu bytes] "
			     "[sync address=0x%016llx] [sync size=%zu bytes] [sync %s]",
			     (unsigned long long)found.addr, found.size,
			     (unsigned long long)addr, size, what);
	if (found.dir != DMA_BIDIRECTIONAL && found.dir != dir)
		ppdma_report(d, PP_DMA_V_WRONG_DIR,
			     "device driver syncs DMA memory with different direction "
			     "[device address=0x%016llx] [size=%zu bytes] "
			     "[mapped with %s] [synced with %s] [sync %s]",
			     (unsigned long long)addr, size,
			     ppdma_dir_name(found.dir), ppdma_dir_name(dir), what);
}

void ppdma_debug_unbind(struct pp_dma_dev *d)
{
	struct ppdma_dbg_entry leaked[DBG_LEAKS_PRINTED];
	struct ppdma_debug *dbg = d->dbg;
	unsigned long n, i;

	spin_lock(&dbg->lock);
	n = dbg_clear(dbg, leaked, DBG_LEAKS_PRINTED);
	dbg->max_pages = 0;
	spin_unlock(&dbg->lock);

	if (!n)
		return;
	pr_err("DMA-API: %s: device driver has pending DMA allocations while released from device [count=%lu]\n",
	       dev_name(&d->dev), n);
	for (i = 0; i < n && i < DBG_LEAKS_PRINTED; i++)
		ppdma_report(d, PP_DMA_V_LEAK_AT_UNBIND,
			     "mapping still live at driver unbind "
			     "[device address=0x%016llx] [phys=0x%016llx] "
			     "[size=%zu bytes] [mapped with %s] [mapped as %s]",
			     (unsigned long long)leaked[i].ref.addr,
			     (unsigned long long)leaked[i].ref.phys, leaked[i].ref.size,
			     ppdma_dir_name(leaked[i].ref.dir),
			     ppdma_type_names[leaked[i].ref.type]);
	if (n > DBG_LEAKS_PRINTED) {
		ppdma_count_violations(d, PP_DMA_V_LEAK_AT_UNBIND,
				       n - DBG_LEAKS_PRINTED);
		pr_err("DMA-API: %s: %s: ... and %lu more mappings still live at driver unbind\n",
		       dev_name(&d->dev),
		       pp_dma_violation_name(PP_DMA_V_LEAK_AT_UNBIND),
		       n - DBG_LEAKS_PRINTED);
	}
}

unsigned long ppdma_debug_live(struct pp_dma_dev *d)
{
	unsigned long n;

	if (!d->dbg)
		return 0;
	spin_lock(&d->dbg->lock);
	n = d->dbg->nr_live;
	spin_unlock(&d->dbg->lock);
	return n;
}
