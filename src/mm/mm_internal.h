/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Library-internal interface of the mm layer: the arena description, the
 * zones (one per simulated NUMA node) with their buddy free lists, the
 * per-CPU order-0 lists, and the bad-input reporting shared by the .c files
 * of src/mm. Names carry the ppmm_ prefix and are not exported from the
 * shared library; tests that link the static archive may use them.
 *
 * Invariants over the page states (page->_mm_state, page->flags):
 *   - PPMM_PAGE_ALLOC  iff the page is the first page of a live allocation
 *                      (order-0 page, compound head, or the first page of
 *                      a non-compound block); page->order is its order.
 *   - PPMM_PAGE_FREE   every other page: in a free block, on a per-CPU
 *                      list, or inside an allocated block.
 *   - PPMM_PAGE_BAD    first page of a block taken out of circulation
 *                      (PG_reserved, never freed again).
 *   - PG_buddy         set only on the first page of a free buddy block,
 *                      whose order is page->order; under the zone lock.
 *   - PG_pcp           set only on pages on a per-CPU list; those lists
 *                      are touched by their owning CPU's thread, or by a
 *                      remote drain that has excluded it (struct
 *                      ppmm_pcpu).
 * Free page memory is poisoned when the build poisons (meson -Dpoison,
 * CONFIG_PAGEPOOL_POISON: ASan or valgrind, runtime/mem_poison.h): every
 * page in a buddy block or on a per-CPU list, and a bad page; an
 * allocation unpoisons exactly the block it hands out (a split leaves the
 * upper halves poisoned, a merge joins poisoned blocks). Allocated memory
 * is accessible, whoever holds it.
 * Layer: mm.
 */
#ifndef _PP_MM_INTERNAL_H
#define _PP_MM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/numa.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <pagepool/mm.h>

#include "runtime/mem_poison.h"

/* The largest block: alignment and granule of the arena and of a node. */
#define PPMM_BLOCK_PAGES	(1UL << MAX_PAGE_ORDER)
#define PPMM_BLOCK_SIZE		(PAGE_SIZE << MAX_PAGE_ORDER)

/* The system's page and default huge page sizes (arena.c), each with a
 * test override read instead when non-zero (set with no arena up), and the
 * check of an arena's size in bytes against the machine's memory. */
extern long ppmm_test_sys_page_size;
extern unsigned long ppmm_test_huge_page_size;
extern bool ppmm_test_no_populate;
long ppmm_sys_page_size(void);
unsigned long ppmm_huge_page_size(void);
bool ppmm_size_fits_phys(size_t size, long phys_pages, long sys_page);

/* Defaults of struct pp_mem_config (see <pagepool/mm.h>). */
#define PPMM_DEFAULT_SIZE	(64UL << 20)
#define PPMM_DEFAULT_BATCH	63	/* the kernel's pcp batch for a large zone */
#define PPMM_DEFAULT_HIGH_MULT	6	/* high = 6 * batch, as zone_highsize() */

enum ppmm_page_state {
	PPMM_PAGE_FREE	= 0,	/* zero, so a fresh struct page array is all free */
	PPMM_PAGE_ALLOC	= 0xa110,
	PPMM_PAGE_BAD	= 0x0bad,
};

struct ppmm_free_area {
	struct list_head free_list;
	unsigned long nr_free;		/* blocks on free_list */
};

/*
 * A zone: the buddy lists of one simulated node. Everything below the lock
 * is written only under it. The zone covers page indices [start, start +
 * nr_pages), a multiple of PPMM_BLOCK_PAGES, so a buddy never lies in
 * another zone.
 */
struct ppmm_zone {
	spinlock_t lock;
	int nid;
	unsigned long start;
	unsigned long nr_pages;
	unsigned long nr_free_pages;	/* pages in the buddy lists */
	unsigned long lock_rounds;	/* lock acquisitions, for tests/benchmarks */
	struct ppmm_free_area free_area[NR_PAGE_ORDERS];
} __aligned(64);

/*
 * A per-CPU list of free order-0 pages of one node. Only the thread that
 * owns the CPU id touches @list; @count is written by it with WRITE_ONCE()
 * and may be read by anyone with READ_ONCE() (statistics).
 */
struct ppmm_pcp {
	struct list_head list;
	int count;
};

/*
 * A CPU's lists, and what lets another thread drain them (the kernel's
 * drain_all_pages(), before an allocation fails) while the owner may be
 * using them - without a lock or an atomic on the owner's fast paths:
 *   - the owner brackets every use of its lists with @busy (a plain store
 *     of 1 before, a release store of 0 after: pcp_enter()/pcp_exit());
 *   - its fast paths compare against @low (allocate while a list's count
 *     is above it) and @high (free while the count stays at or below it)
 *     instead of "not empty" and the arena's high mark: the same number
 *     of instructions;
 *   - a remote drain sets @low to INT_MAX and @high to -1, so that the
 *     owner's next use takes its slow path, which waits; runs
 *     membarrier(PRIVATE_EXPEDITED), the full barrier the owner's store of
 *     @busy and load of @low/@high would need between them (the
 *     asymmetric Dekker of liburcu's membarrier flavour); waits for @busy
 *     to read 0 (acquire); drains; and restores @low and @high (release).
 * Either the drain sees @busy set and waits for the owner to finish, or
 * the owner sees the stop and waits for the drain: never both on a list.
 * The release/acquire pairs order the lists' contents both ways (and are
 * what ThreadSanitizer checks).
 */
struct ppmm_pcpu {
	struct ppmm_pcp node[MAX_NUMNODES];
	int busy;
	int low;
	int high;
} __aligned(64);

/* The arena, fixed between pp_mem_init() and pp_mem_exit(). */
/*
 * The page-owner record of holder tracking (CONFIG_PAGEPOOL_HOLDERS), one
 * per struct page, in the memmap's mapping (after the home words): who
 * took the page out of its page_pool. Like the kernel's page_owner, the
 * page allocator only makes room for it; it is written by page_pool's
 * lifecycle hooks (src/core/holders.h), each field with WRITE_ONCE(), and
 * read racily by the holder walk (READ_ONCE(); a record being rewritten
 * may be seen half old, half new: a walk is a snapshot of a moving pool).
 */
struct ppmm_page_owner {
	void *pool;			/* non-NULL: out of this pool, with a user */
	unsigned long take_ip;		/* the take site */
	unsigned long handoff_ip;	/* the last hand-on site, 0: none */
	u64 take_ns;			/* ktime_get_coarse_ns() at the take */
	long cpu;			/* smp_processor_id() at the take */
};

struct ppmm_arena {
	int nr_nodes;
	int pcp_batch;
	int pcp_high;
	int backing;			/* what was asked for */
	bool thp;			/* MADV_HUGEPAGE accepted */
	unsigned long node_pages;	/* pages per node */
	void *mem;			/* pp_mem_map.base, for munmap */
	size_t mem_len;
	size_t map_len;			/* bytes of the struct pages and home words */
	atomic_long_t reserved;		/* pages taken out of circulation */
	struct ppmm_page_owner *owners;	/* CONFIG_PAGEPOOL_HOLDERS: one per page */
};

extern struct ppmm_arena ppmm_arena;
extern struct ppmm_zone ppmm_zones[MAX_NUMNODES];
extern struct ppmm_pcpu ppmm_pcpu[NR_CPUS];
extern int ppmm_up;			/* arena present; acquire/release */

/* arena.c */
/* Create the default arena unless one exists. 0 or -errno. Any thread. */
int ppmm_arena_default(void);
/* The runtime's CPU offline hook: drain @cpu's per-CPU lists. */
void ppmm_cpu_offline(int cpu);

/* @page's owner record; the arena has them iff CONFIG_PAGEPOOL_HOLDERS. */
static inline struct ppmm_page_owner *ppmm_page_owner(const struct page *page)
{
	return &ppmm_arena.owners[page - pp_mem_map.map];
}

static inline bool ppmm_arena_up(void)
{
	/* A0: pairs with the release store in arena.c that publishes
	 * pp_mem_map, the zones and the per-CPU lists. */
	return smp_load_acquire(&ppmm_up);
}

/* buddy.c: the zone free lists. Caller MUST hold zone->lock for the __
 * functions. */
void ppmm_zone_init(struct ppmm_zone *zone, int nid, unsigned long start,
		    unsigned long nr_pages);
struct page *__ppmm_rmqueue(struct ppmm_zone *zone, unsigned int order);
void __ppmm_free_one(struct ppmm_zone *zone, struct page *page,
		     unsigned int order);
/* Take up to @count order-0 pages from @zone onto @pcp (one lock round
 * trip); returns how many. Owner thread of @pcp only. */
int ppmm_pcp_refill(struct ppmm_zone *zone, struct ppmm_pcp *pcp, int count);
/* Give the @count coldest pages of @pcp back to @zone (one lock round
 * trip). Owner thread of @pcp only. */
void ppmm_pcp_drain(struct ppmm_zone *zone, struct ppmm_pcp *pcp, int count);
/* Allocate/free an order > 0 block, or an order-0 page that bypasses the
 * per-CPU lists, directly in the buddy lists of @zone. */
struct page *ppmm_buddy_alloc(struct ppmm_zone *zone, unsigned int order);
void ppmm_buddy_free(struct page *page, unsigned int order);
/* @nr contiguous pages out of @zone's buddy lists (alloc_contig_pages()),
 * flagless, still poisoned and PPMM_PAGE_FREE; NULL if no such run is
 * free. Takes zone->lock. */
struct page *ppmm_zone_take_run(struct ppmm_zone *zone, unsigned long nr);

/* buddy.c */
/* Drain all of @cpu's per-CPU lists. Owner of @cpu (or its last owner,
 * once it is gone) only. */
void ppmm_drain_cpu(int cpu);

/* page_alloc.c: drain every other CPU's lists (drain_all_pages()); true
 * if any page moved. Caller MUST NOT be inside its own pcp_enter(). */
bool ppmm_drain_all_remote(void);
/* buddy.c: one CPU's lists, from another thread; under the remote-drain
 * lock (page_alloc.c). */
bool ppmm_pcp_drain_remote(int cpu);

/* The owner's bracket around any use of its lists (struct ppmm_pcpu). */
static __always_inline void pcp_enter(struct ppmm_pcpu *p)
{
	WRITE_ONCE(p->busy, 1);
	/* Not reordered by the compiler with the loads of @low / @high that
	 * follow; the CPU's part is the remote side's membarrier. */
	barrier();
}

static __always_inline void pcp_exit(struct ppmm_pcpu *p)
{
	smp_store_release(&p->busy, 0);
}

static __always_inline int pcpu_low(struct ppmm_pcpu *p)
{
	return smp_load_acquire(&p->low);
}

static __always_inline int pcpu_high(struct ppmm_pcpu *p)
{
	return smp_load_acquire(&p->high);
}

/* A remote drain of @p runs: out of the bracket until it is done, then
 * back in. The caller re-reads everything about its lists. */
void ppmm_pcp_wait_drain(struct ppmm_pcpu *p);

/* page_free.c */
/* Free a block whose last reference is gone and which passed the checks.
 * Order 0 goes to the calling CPU's list. */
void ppmm_free_block(struct page *page, unsigned int order);

/* page_free.c: bad input. Each report is a WARN (printing rate limited
 * per kind) plus its counter; none touches the free lists. */
enum ppmm_bad {
	PPMM_BAD_DOUBLE_FREE,
	PPMM_BAD_GET,
	PPMM_BAD_FREE,
	PPMM_BAD_PP_PAGE,
	PPMM_BAD_OUT_OF_ARENA,
	PPMM_BAD_NR,
};
__cold void __ppmm_report(enum ppmm_bad kind, const void *what, const char *why,
			  const char *file, int line, struct pp_ratelimit *rs);
/* Printing is rate limited per call site, as the kernel's bad_page(). */
#define ppmm_report(kind, what, why)					\
({									\
	static struct pp_ratelimit __ppmm_rs;				\
	__ppmm_report(kind, what, why, __FILE__, __LINE__, &__ppmm_rs);	\
})
/* A page freed while still marked as a page_pool page: take the block out
 * of circulation (the kernel's bad_page()). */
__cold void ppmm_bad_pp_page(struct page *page, unsigned int order);
__cold void ppmm_alloc_failed(gfp_t gfp, unsigned int order, int nid);
__cold void ppmm_contig_failed(gfp_t gfp, unsigned long nr_pages, int nid);
/* Is @page a pointer to a struct page of the live arena? */
bool ppmm_page_in_map(const struct page *page);
void ppmm_counters_read(struct pp_mem_counters *c);

/* Zone of a page; the page MUST be in the arena. */
static inline struct ppmm_zone *ppmm_page_zone(const struct page *page)
{
	return &ppmm_zones[page->nid];
}

static inline unsigned long ppmm_page_idx(const struct page *page)
{
	return (unsigned long)(page - pp_mem_map.map);
}

/* Free page memory is poisoned, so a use after free is reported where it
 * happens; nothing without CONFIG_PAGEPOOL_POISON. */
static inline void ppmm_poison(struct page *page, unsigned int order)
{
	pprt_poison(page_address(page), PAGE_SIZE << order);
}

static inline void ppmm_unpoison(struct page *page, unsigned int order)
{
	pprt_unpoison(page_address(page), PAGE_SIZE << order);
}

/* For tests and benchmarks: how often @nid's zone lock was taken. */
unsigned long ppmm_zone_lock_rounds(int nid);

#endif /* _PP_MM_INTERNAL_H */
