/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The invariant checker of the reliability suite,
 * shared by the libFuzzer harness (tests/fuzz), the stress program
 * (tests/stress) and the cmocka suites that show every check firing
 * (tests/reliability/test_invariants.c) - so the tests prove the very code
 * that CI relies on.
 *
 * The invariants, and the check that enforces each:
 *   - every page taken from the page allocator goes back exactly once:
 *     ppinv_check_arena_whole() (nothing leaked: free == total) and
 *     ppinv_check_step() (the allocator's bad-free counters did not move:
 *     no double free, no page freed while still a page_pool page);
 *   - inflight == hold - release, never negative, at least the pages the
 *     caller holds, and equal to what introspection reports:
 *     ppinv_check_pool();
 *   - a pool is freed once its last page is home: ppinv_check_pool_gone(),
 *     ppinv_check_no_pools();
 *   - no DMA-API violation: ppinv_check_step() reads every tracked
 *     device's violation counters; ppinv_check_dma_idle() finds mappings
 *     left live when no pool uses the device (an unmap was skipped);
 *   - no page marked as a page_pool page after everything is gone:
 *     ppinv_check_arena_whole();
 *   - the WARN count and the misuse counters move only by what the caller
 *     declared as deliberate misuse: ppinv_expect_*() + ppinv_check_step();
 *   - a page the caller holds is still a page_pool page of its pool with a
 *     reference: ppinv_check_held();
 *   - a pool holds no more returned pages than the kernel's ring would
 *     (pool_size): the lanes and the shared ring together, and with lanes
 *     the ring credits add up (free + unspent in lanes + pages parked ==
 *     the ring's size): ppinv_check_pool().
 *
 * DMA safety at driver unbind (DMA tracking) is gated. Without DMA tracking,
 * a page returned after its device unbound is unmapped through the unbound
 * device, and unbinding with mapped pages in flight leaks them: both are
 * DMA-API violations. A device unbound while it had live mappings is
 * "tainted" (ppinv_device_unbinding()) until the caller says every page of
 * that era is home (ppinv_device_settled()). Violations on a tainted device
 * are
 *   - expected (counted in expected_dma) when the caller says a pool on it
 *     ran with DMA tracking off (pp_page_pool_set_dma_tracking(
 *     PP_DMA_TRACK_OFF)): the bug tracking fixes, reproduced on purpose;
 *   - tolerated (tolerated_dma) when expect_dma_safe_unbind is off: for
 *     builds from before DMA tracking;
 *   - failures otherwise.
 * expect_dma_safe_unbind comes from PP_RELIABILITY_EXPECT_DMA_SAFE_UNBIND=
 * 0|1 in the environment, default PPINV_EXPECT_DMA_SAFE_UNBIND_DEFAULT
 * (1: every build has DMA tracking).
 *
 * Threads: ppinv_check_step() reads only counters the library keeps with
 * atomics, so one thread may run it while others use page_pool (the
 * stress program's controller does); the other checks read pool fields and
 * walk the arena, and need a quiescent point. A struct ppinv itself
 * belongs to one thread.
 *
 * The harnesses also report their own model's findings through
 * ppinv_fail(): PPINV_HELD_PAGE for a page handed out twice, PPINV_API for
 * a call that broke its contract (an allocation failing with memory
 * available and no fault armed, create accepting invalid parameters).
 */
#ifndef PP_RELIABILITY_INVARIANTS_H
#define PP_RELIABILITY_INVARIANTS_H

#include <stdbool.h>
#include <stdio.h>

#include <net/netmem.h>
#include <pagepool.h>

struct device;
struct page_pool;

/* 1: DMA tracking (destroy unmaps in-flight pages while the device is
 * bound) is in every build; the environment overrides it (0 for testing a
 * build from before the fix). */
#define PPINV_EXPECT_DMA_SAFE_UNBIND_DEFAULT	1
#define PPINV_ENV_DMA_SAFE_UNBIND	"PP_RELIABILITY_EXPECT_DMA_SAFE_UNBIND"

#define PPINV_MAX_DEVS	8

/* Which invariant a failure broke. */
enum ppinv_kind {
	PPINV_PAGE_LEAKED,	/* arena not whole: a page never came home */
	PPINV_PP_PAGE_LEFT,	/* a page still marked page_pool with no pool */
	PPINV_DOUBLE_FREE,	/* page allocator saw a double/bad free */
	PPINV_DOUBLE_RETURN,	/* page_pool saw an undeclared double put */
	PPINV_INFLIGHT,		/* inflight != hold - release, or < held */
	PPINV_POOL_LEAKED,	/* a pool outlived its last page */
	PPINV_DMA_VIOLATION,	/* DMA-API violation on a tracked device */
	PPINV_DMA_UNMAP_SKIPPED,/* mappings live on a device no pool uses */
	PPINV_WARN,		/* WARN count moved by an undeclared amount */
	PPINV_HELD_PAGE,	/* a held page is not its pool's any more */
	PPINV_API,		/* a call broke its documented contract */
	PPINV_RING_BOUND,	/* more parked than the kernel's ring holds */
	PPINV_NR,
};

struct ppinv_dev {
	struct device *dev;
	unsigned long base;		/* violations already accounted */
	bool tainted;			/* unbound with live mappings */
	bool fix_off;			/* ... and a pool on it had tracking off */
	unsigned long tolerated;	/* violations forgiven while tainted */
	unsigned long unbinds;
	unsigned long resident_mappings;	/* live on purpose (a provider's) */
};

struct ppinv;
typedef void (*ppinv_failure_fn)(struct ppinv *c, enum ppinv_kind kind, const char *msg);

struct ppinv {
	bool expect_dma_safe_unbind;
	bool quiet;			/* do not print failures to stderr */
	ppinv_failure_fn on_failure;	/* called after each failure (may abort) */

	/* Baselines: what the counters read at the last check. */
	unsigned long warns;
	struct pp_page_pool_misuse misuse;
	struct pp_mem_counters mm;
	/* Declared deliberate misuse since the last check. */
	unsigned long expect_warns;
	struct pp_page_pool_misuse expect_misuse;
	/* Declared double puts not reported yet (ppinv_expect_double_put()). */
	unsigned long pending_double_puts;

	struct ppinv_dev devs[PPINV_MAX_DEVS];
	int nr_devs;
	/* Pages the caller keeps out of the page allocator on purpose (a
	 * memory provider's region): "home" means free + resident == total. */
	unsigned long resident_pages;

	unsigned long checks;		/* check calls made */
	unsigned long failures[PPINV_NR];
	unsigned long total_failures;
	unsigned long expected_dma;	/* violations of pools with tracking off */
	unsigned long tolerated_dma;	/* violations forgiven (gate off) */
	unsigned long declared_warns;	/* WARNs declared and seen */
	char last[768];			/* the last failure's message */
};

/* Reset @c, read the gate from the environment, take the baselines. */
void ppinv_init(struct ppinv *c);
/* Take the baselines again (after deliberate, undeclared noise). */
void ppinv_rebase(struct ppinv *c);
/* Watch @dev's violation counters from now on. 0, or -ENOSPC. */
int ppinv_track_device(struct ppinv *c, struct device *dev);
/* @n mappings on @dev are live on purpose (a provider's region). */
void ppinv_device_resident(struct ppinv *c, struct device *dev, unsigned long n);
/* Stop watching @dev (before pp_device_destroy()). */
void ppinv_untrack_device(struct ppinv *c, struct device *dev);

/* Declare deliberate misuse the next ppinv_check_step() must see. */
void ppinv_expect_warns(struct ppinv *c, unsigned long n);
void ppinv_expect_misuse(struct ppinv *c, unsigned long not_pp_page,
			 unsigned long foreign_pool, unsigned long ref_underflow);
/* A put of a netmem that is back in its pool: reported (a WARN and the
 * double_put counter) where the pool's owner finds it - at once for a
 * direct put, at the refill or destroy's drain for a put into the ring -
 * so this check or a later one sees it; ppinv_check_idle() wants every
 * declared one seen, and no check may see more than were declared. */
void ppinv_expect_double_put(struct ppinv *c);

/* Call right before device_release_driver(@dev): taints @dev if it has
 * live mappings (pages in flight that the unbind will leak). @fix_off: a
 * pool of this device that is still alive runs with DMA tracking off. */
void ppinv_device_unbinding(struct ppinv *c, struct device *dev, bool fix_off);
/* Every page mapped before @dev's last unbind is home: violations count
 * again from here (those up to now are accounted first). */
void ppinv_device_settled(struct ppinv *c, struct device *dev);
bool ppinv_device_tainted(const struct ppinv *c, const struct device *dev);

/* The checks. Each returns the number of failures it found (0: holds),
 * counts them in @c and reports them (stderr unless quiet, on_failure). */

/* WARNs, misuse counters, allocator bad-free counters and DMA violations
 * moved only as declared since the last check; then re-baselines. */
int ppinv_check_step(struct ppinv *c);
/* @pool's accounting: hold - release >= 0, >= @held (pages the caller
 * holds, distinct, with a page_pool reference), == @held when @exact, and
 * introspection agrees. @pool MUST be alive. */
int ppinv_check_pool(struct ppinv *c, const struct page_pool *pool, long held, bool exact);
/* Pool @id must be freed (not listed any more). */
int ppinv_check_pool_gone(struct ppinv *c, u32 id);
/* No pool is listed at all. */
int ppinv_check_no_pools(struct ppinv *c);
/* @netmem, which the caller holds with @page_refs extra page references,
 * is a page_pool netmem of @pool with a page_pool reference. */
int ppinv_check_held(struct ppinv *c, netmem_ref netmem, const struct page_pool *pool,
		     int page_refs);
/* Every page is home: free + resident_pages == total, no page marked
 * page_pool (the walker), and the allocator reserved no page for bad frees. */
int ppinv_check_arena_whole(struct ppinv *c);
/* No mapping is live on any tracked device beyond its resident ones (call
 * when no pool uses them): an unmap was skipped otherwise. */
int ppinv_check_dma_idle(struct ppinv *c);
/* Everything gone: step + no pools + arena whole + DMA idle. */
int ppinv_check_idle(struct ppinv *c);

/* Record a failure found by the caller's own model (e.g. a page handed
 * out twice). */
void ppinv_fail(struct ppinv *c, enum ppinv_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const char *ppinv_kind_name(enum ppinv_kind kind);
/* One line: "<label>: checks=N failures=N [kind=N ...] declared_warns=N
 * expected_dma=N tolerated_dma=N expect_dma_safe_unbind=0|1". */
void ppinv_print_summary(const struct ppinv *c, FILE *out, const char *label);

#endif
