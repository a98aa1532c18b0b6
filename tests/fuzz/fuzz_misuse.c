/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The fuzz harness's misuse operations for what the hardening checks for
 * (hostile and careless use from outside), each an operation that
 * declares the report it must get (WARNs, misuse counters, error codes)
 * and then lets the invariant checks prove that nothing was lost: no page
 * leaked, none owned twice, no pool left waiting. The XDP ones are in
 * fuzz_xdp.c. A kind whose fix is not in the tree is skipped
 * (fz_misuse_on(), fuzz.h).
 *
 * Where an operation needs a page to have a history the model cannot
 * arrange across operations (a page freed by one pool and taken by
 * another, a device destroyed under its pools), it builds it with
 * short-lived pools of its own, inside the operation, so the input stays
 * reproducible and the report belongs to that operation.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <net/page_pool/helpers.h>

#include "fuzz.h"

/* The operation's arguments are read even when its kind is off, so an
 * input means the same with and without the fix. */
static bool skip_unless(enum fz_misuse kind)
{
	if (fz_misuse_on(kind))
		return false;
	fz.t.skipped++;
	return true;
}

static void declared(enum fz_op op)
{
	fz.t.misuse++;
	fz.t.misuse_ops[op]++;
}

/* A held whole page with exactly one page_pool reference, nobody else's,
 * of an active pool, starting the search at @b. */
static struct fz_page *pick_single(uint8_t b, bool page_only)
{
	int i;

	for (i = 0; i < fz.nr_pages; i++) {
		struct fz_page *x = &fz.pages[(b + i) % fz.nr_pages];

		if (x->refs == 1 && !x->stack_refs && !x->page_refs && x->whole &&
		    fz.pools[x->rec].state == REC_ACTIVE &&
		    !(page_only && netmem_is_net_iov(x->nm)))
			return x;
	}
	return NULL;
}

/*
 * The same page twice in one page_pool_put_netmem_bulk() (pages of any
 * pools) or page_pool_put_page_bulk() (one pool's pages, by address): the
 * second occurrence drops a reference nobody holds - a pp_ref_count
 * underflow, reported (WARN, ref_underflow) and skipped; the page is in
 * its pool once (a later burst would find it twice otherwise).
 */
void fz_op_bulk_dup(void)
{
	uint8_t b = fz_u8(), how = fz_u8();
	netmem_ref data[10], copy[10];
	void *va[10];
	struct fz_page *e;
	bool page_bulk = how & 1;
	int n = 0, i, j, dup_at, ri;

	if (skip_unless(FZ_MU_BULK_DUP))
		return;
	e = pick_single(b, page_bulk);
	if (!e) {
		fz.t.skipped++;
		return;
	}
	ri = e->rec;
	data[n++] = e->nm;
	/* Up to 7 other references the model holds (distinct pages, free
	 * references; for the page bulk of the same pool). */
	for (i = 0; i < fz.nr_pages && n < 1 + (how >> 5); i++) {
		struct fz_page *x = &fz.pages[(b + 1 + i) % fz.nr_pages];

		if (x == e || x->refs <= x->stack_refs)
			continue;
		if (page_bulk && (x->rec != ri || netmem_is_net_iov(x->nm)))
			continue;
		for (j = 0; j < n && data[j] != x->nm; j++)
			;
		if (j == n)
			data[n++] = x->nm;
	}
	/* The duplicate somewhere after the first occurrence. */
	dup_at = 1 + (how >> 1) % n;
	memmove(&data[dup_at + 1], &data[dup_at], sizeof(data[0]) * (size_t)(n - dup_at));
	data[dup_at] = e->nm;
	n++;
	memcpy(copy, data, sizeof(data[0]) * (size_t)n);
	if (page_bulk) {
		for (i = 0; i < n; i++)
			va[i] = netmem_address(data[i]);
		page_pool_put_page_bulk(fz.pools[ri].pool, va, n);
	} else {
		page_pool_put_netmem_bulk(data, (u32)n);
	}
	ppinv_expect_double_put(&fz.inv);
	declared(FZ_OP_BULK_DUP);
	/* Every other page once, the duplicated one once. */
	for (i = 0; i < n; i++) {
		struct fz_page *x;

		if (i == dup_at)
			continue;
		x = fz_find(copy[i]);
		fz.t.bulk_returns++;
		fz_drop_ref(x);
	}
	fz_settle_zombies();
}

/* A fragment's place: inside its page, never at or past its end. */
static void check_frag(const struct fz_pool *r, netmem_ref nm, unsigned int offset,
		       unsigned int size, const char *what)
{
	unsigned int max_size = PAGE_SIZE << r->order;

	if (offset >= max_size || offset + size > max_size)
		fz_fail(PPINV_API, "pool %u: %s gave a fragment [%u, +%u) of netmem %#lx, its page is %u bytes",
			r->id, what, offset, size, (unsigned long)nm, max_size);
}

/*
 * Size-0 allocations: page_pool_dev_alloc_va(), page_pool_alloc_frag(),
 * also right after a fragment that filled its page - never a fragment at
 * or past the page's end (the one after it belongs to someone else). An
 * empty result needs a cause, or is the library refusing size 0 (a WARN).
 */
static void zero_alloc(int ri, bool va_call, const char *what)
{
	struct fz_pool *r = &fz.pools[ri];
	unsigned int size = 0, offset = 0;
	struct fz_cause c;
	netmem_ref nm;

	fz_cause_snap(&c, r);
	if (va_call) {
		void *va = page_pool_dev_alloc_va(r->pool, &size);

		nm = va ? virt_to_netmem(va) : 0;
		if (va)
			offset = (unsigned int)((char *)va - (char *)netmem_address(nm));
	} else {
		struct page *page = page_pool_dev_alloc_frag(r->pool, &offset, 0);

		nm = page ? page_to_netmem(page) : 0;
		size = 0;
	}
	if (!nm) {
		if (!fz_had_cause(&c, r))
			ppinv_expect_warns(&fz.inv, 1);	/* size 0 refused */
		fz.t.alloc_null++;
		return;
	}
	check_frag(r, nm, offset, size, what);
	fz.t.allocs++;
	fz_take(ri, nm, false);
}

void fz_op_alloc_zero(void)
{
	uint8_t s = fz_u8(), how = fz_u8();
	struct fz_pool *r;
	unsigned int max_size, offset = 0, size;
	struct fz_cause c;
	netmem_ref nm;
	int ri;

	if (skip_unless(FZ_MU_ALLOC_ZERO))
		return;
	r = fz_slot_rec(s, &ri);
	if (!r || r->state != REC_ACTIVE || r->owner != fz.role || r->orphan || r->mp) {
		fz.t.skipped++;
		return;
	}
	max_size = PAGE_SIZE << r->order;
	declared(FZ_OP_ALLOC_ZERO);
	if (how & 1) {
		/* Fragments that fill their page: one of the whole page
		 * (page_pool_alloc_frag() takes up to the page size), or
		 * halves by the size-based call, which stretches the last
		 * one to the page's end. */
		int k, parts = (how & 2) ? 1 : 2;

		for (k = 0; k < parts; k++) {
			size = max_size / (unsigned int)parts;
			fz_cause_snap(&c, r);
			if (parts == 1)
				nm = page_pool_alloc_frag_netmem(r->pool, &offset, size,
								 GFP_ATOMIC | __GFP_NOWARN);
			else
				nm = page_pool_alloc_netmem(r->pool, &offset, &size,
							    GFP_ATOMIC | __GFP_NOWARN);
			if (!nm) {
				fz.t.alloc_null++;
				if (!fz_had_cause(&c, r))
					fz_fail(PPINV_API, "pool %u: a %u-byte fragment failed with no cause",
						r->id, size);
				return;
			}
			fz.t.allocs++;
			check_frag(r, nm, offset, size, "a filling fragment");
			fz_take(ri, nm, false);
		}
	}
	zero_alloc(ri, how & 4, how & 4 ? "page_pool_dev_alloc_va(size 0)" :
					   "page_pool_alloc_frag(size 0)");
}

/* A temporary pool of the operation's own (plain, order 0, small ring). */
static struct page_pool *temp_pool(struct device *dev)
{
	struct page_pool_params pp = {
		.pool_size = 16,
		.nid = NUMA_NO_NODE,
	};
	struct page_pool *pool;

	if (dev) {
		pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
		pp.dev = dev;
		pp.dma_dir = DMA_FROM_DEVICE;
		pp.max_len = PAGE_SIZE;
	}
	pool = page_pool_create(&pp);
	return IS_ERR_OR_NULL(pool) ? NULL : pool;
}

/*
 * ABA: a page pool A freed goes to the page allocator and pool B takes it;
 * then a stale put names A. Refused - WARN "foreign pool", misuse
 * foreign_pool - and the page is not touched: B's holder keeps it (one
 * pp reference, still B's). Pool A is kept alive for the stale put by a
 * second page in flight (a put naming a freed pool is a use after free of
 * the caller's). B is a slot pool when one fits (the model then holds the
 * page on), else a temporary one.
 */
void fz_op_aba(bool in_poll)
{
	uint8_t s = fz_u8(), how = fz_u8();
	struct page *p, *q, *got[160];
	struct page_pool *a, *b, *tb = NULL;
	struct fz_pool *r;
	int ri = -1, n = 0, i, found = -1;

	if (skip_unless(FZ_MU_ABA))
		return;
	if (in_poll || fz_in_softirq()) {
		fz.t.skipped++;
		return;
	}
	r = fz_slot_rec(s, &ri);
	if ((how & 1) && r && r->state == REC_ACTIVE && r->owner == fz.role && !r->orphan &&
	    !r->mp && !r->order) {
		b = r->pool;
	} else {
		ri = -1;
		b = tb = temp_pool(NULL);
	}
	a = temp_pool(NULL);
	if (!a || !b)
		goto out;
	p = page_pool_dev_alloc_pages(a);
	q = page_pool_dev_alloc_pages(a);
	if (!p || !q) {
		if (p)
			page_pool_put_full_page(a, p, false);
		if (q)
			page_pool_put_full_page(a, q, false);
		goto out;
	}
	/* p back to A, then A destroyed: its ring and cache go to the page
	 * allocator (p with them), A waits for q. */
	page_pool_put_full_page(a, p, false);
	page_pool_destroy(a);
	/* B takes pages until p is among them (a refill takes the page
	 * allocator's hottest pages: p is one). */
	for (n = 0; n < (int)ARRAY_SIZE(got); n++) {
		got[n] = page_pool_dev_alloc_pages(b);
		if (!got[n])
			break;
		if (got[n] == p) {
			found = n++;
			break;
		}
	}
	if (found >= 0) {
		/* The stale put. */
		page_pool_put_full_page(a, p, false);
		ppinv_expect_warns(&fz.inv, 1);
		ppinv_expect_misuse(&fz.inv, 0, 1, 0);
		declared(FZ_OP_ABA);
		if (!page_pool_page_is_pp(p) || page_pool_to_pp(p) != b ||
		    atomic_long_read(netmem_get_pp_ref_count_ref(page_to_netmem(p))) != 1)
			fz_fail(PPINV_HELD_PAGE,
				"a stale put naming pool %u touched page %#lx, now pool %u's (pp %d, pp_ref_count %ld)",
				pp_page_pool_id(a), (unsigned long)page_to_netmem(p),
				pp_page_pool_id(b), page_pool_page_is_pp(p),
				atomic_long_read(netmem_get_pp_ref_count_ref(page_to_netmem(p))));
	} else {
		fz.t.skipped++;
	}
	for (i = 0; i < n; i++) {
		if (ri >= 0 && i == found)
			fz_take(ri, page_to_netmem(p), true);	/* B's holder keeps it */
		else
			page_pool_put_full_page(b, got[i], false);
	}
	page_pool_put_full_page(a, q, false);	/* A's last page: A goes */
	a = NULL;
out:
	if (a)
		page_pool_destroy(a);
	if (tb)
		page_pool_destroy(tb);
	fz_run_release();	/* A and B go (and the model's zombies the work frees) */
}

/*
 * page_pool_dev_alloc_pages() / page_pool_dev_alloc_va() on a memory
 * provider's pool (its netmems are net_iovs, not pages): NULL with a WARN,
 * and nothing taken from the provider is lost (the checks find the pool's
 * inflight and the provider's free buffers right).
 */
void fz_op_mp_page_alloc(void)
{
	uint8_t s = fz_u8(), how = fz_u8();
	struct pp_page_pool_misuse m0, m1;
	struct fz_pool *r;
	unsigned int size = 256 << (how & 3);
	unsigned long warns;
	struct fz_cause c;
	void *got;

	if (skip_unless(FZ_MU_MP_PAGE))
		return;
	r = fz_slot_rec(s, NULL);
	if (!r || r->state != REC_ACTIVE || r->owner != fz.role || !r->mp) {
		fz.t.skipped++;
		return;
	}
	fz_cause_snap(&c, r);
	pp_page_pool_get_misuse(&m0);
	warns = pp_warn_count();
	if (how & 4)
		got = page_pool_dev_alloc_va(r->pool, &size);
	else
		got = page_pool_dev_alloc_pages(r->pool);
	/* The allocation may refill from the ring and find there the
	 * duplicate of an earlier, declared double put: that report (its
	 * WARN, and the misuse counter the invariant check matches against
	 * the declared double puts, adding their WARNs itself) is not this
	 * op's. */
	pp_page_pool_get_misuse(&m1);
	warns = pp_warn_count() - warns - (m1.double_put - m0.double_put);
	/* The refusal WARNs once it has a net_iov to refuse: none came (a
	 * fault, the provider empty) - no WARN, and a cause. */
	if (warns != 1 && (warns || !fz_had_cause(&c, r)))
		fz_fail(PPINV_WARN, "pool %u (memory provider): a page allocation gave %lu WARN(s), 1 expected",
			r->id, warns);
	ppinv_expect_warns(&fz.inv, warns);
	declared(FZ_OP_MP_PAGE_ALLOC);
	if (got)
		fz_fail(PPINV_API, "pool %u (memory provider) handed out a %s %p", r->id,
			how & 4 ? "CPU address" : "struct page", got);
}

/*
 * A fragment over-put: one page_pool put more than the fragments the
 * model holds of a page. While the page is the pool's current fragment
 * page the pool's own bias absorbs it, and the underflow shows when the
 * pool lets go of the page (drain): the operation forces that at once (a
 * fragment that does not fit) so the report is this operation's - WARN and
 * ref_underflow - and the page and the pool must not leak (the end of the
 * input proves both). A page no longer the fragment page underflows on the
 * put itself, or is no pool's page any more, as a double put.
 */
void fz_op_frag_overput(void)
{
	uint8_t b = fz_u8(), how = fz_u8();
	struct fz_page *e = NULL;
	struct fz_pool *r;
	struct page_pool *pool;
	unsigned int offset, size;
	netmem_ref nm;
	bool current, back_in_pool;
	int i, ri, refs;

	if (skip_unless(FZ_MU_FRAG_OVERPUT))
		return;
	for (i = 0; i < fz.nr_pages && !e; i++) {
		struct fz_page *x = &fz.pages[(b + i) % fz.nr_pages];

		if (x->refs && !x->stack_refs && !x->page_refs && !x->whole &&
		    !netmem_is_net_iov(x->nm) && fz.pools[x->rec].state == REC_ACTIVE &&
		    fz.pools[x->rec].owner == fz.role && !fz.pools[x->rec].orphan)
			e = x;
	}
	if (!e) {
		fz.t.skipped++;
		return;
	}
	ri = e->rec;
	r = &fz.pools[ri];
	pool = r->pool;
	nm = e->nm;
	current = pool->frag_page == nm;
	refs = e->refs;
	for (i = 0; i < refs; i++) {
		page_pool_put_netmem(pool, nm, -1, false);
		fz_drop_ref(fz_find(nm));
	}
	if (current) {
		page_pool_put_netmem(pool, nm, -1, false);	/* the over-put */
		/* The drain: a fragment of the whole page cannot share it. */
		size = PAGE_SIZE << r->order;
		nm = page_pool_alloc_frag_netmem(pool, &offset, size, GFP_ATOMIC | __GFP_NOWARN);
		if (nm) {
			check_frag(r, nm, offset, size, "a whole-page fragment");
			fz_take(ri, nm, false);
			fz.t.allocs++;
		}
		/* The drain comes first, new page or not (a fault). */
		ppinv_expect_warns(&fz.inv, 1);
		ppinv_expect_misuse(&fz.inv, 0, 0, 1);
	} else {
		back_in_pool = page_pool_page_is_pp(netmem_to_page(nm)) &&
			       netmem_get_pp(nm) == pool;
		page_pool_put_netmem(pool, nm, -1, false);	/* the over-put */
		if (back_in_pool) {
			ppinv_expect_double_put(&fz.inv);
		} else {
			ppinv_expect_warns(&fz.inv, 1);
			ppinv_expect_misuse(&fz.inv, 1, 0, 0);
		}
	}
	(void)how;
	declared(FZ_OP_FRAG_OVERPUT);
	fz_after_put(ri);
}

/*
 * pp_device_destroy() of a device with a live DMA-mapping pool (driver
 * remove that forgot its pools): the pool's reference keeps the device's
 * memory alive (the kernel's get_device()/put_device()), destroy unbinds
 * it. The pool lives on in its slot, with pages out, as an orphan: no more
 * allocations (its driver is gone), but recycling, late returns and its
 * destroy go on - no use after free (ASan), nothing lost. The destroy
 * WARNs when mappings are live. The device is not watched by the
 * checker: its violations after the unbind are the ones unbinding with
 * pages in flight and tracking off must give (counted, not failures).
 */
#define FZ_DEV_GONE_MAX	2000
static unsigned long dev_gone_made;

void fz_op_dev_gone(bool in_poll)
{
	uint8_t s = fz_u8(), how = fz_u8();
	int slot = s % FZ_SLOTS, ri, i, n = 1 + (how >> 4) % 8;
	struct pp_dma_stats st;
	struct device *dev;
	struct page_pool *pool;
	struct fz_pool *r;
	char name[32];

	if (skip_unless(FZ_MU_DEV_GONE))
		return;
	/* A device destroyed with mappings live is kept by the library for
	 * good (later calls on those mappings are reported, never a use
	 * after free): 5-40 KB each, more under ASan. The process makes at
	 * most FZ_DEV_GONE_MAX of them (the fuzzer ran out of memory after
	 * a few minutes otherwise); later inputs skip the operation. */
	if (dev_gone_made >= FZ_DEV_GONE_MAX) {
		fz.t.skipped++;
		return;
	}
	if (in_poll || fz_in_softirq() || fz.slot[slot] >= 0 || (ri = fz_free_rec()) < 0) {
		fz.t.skipped++;
		return;
	}
	dev_gone_made++;
	snprintf(name, sizeof(name), "fz-gone-%lu", fz.t.inputs);
	dev = pp_device_create(name, how & 1 ? PP_DMA_IOMMU : PP_DMA_DIRECT,
			       how & 2 ? PP_DMA_DEBUG : 0);
	if (IS_ERR_OR_NULL(dev)) {
		if (!fz.armed)
			fz_fail(PPINV_API, "pp_device_create() = %ld with no fault armed",
				PTR_ERR(dev));
		return;
	}
	pool = temp_pool(dev);
	if (!pool) {
		if (!fz.armed)
			fz_fail(PPINV_API, "a valid DMA pool was refused with no fault armed");
		pp_device_destroy(dev);
		return;
	}
	r = &fz.pools[ri];
	memset(r, 0, sizeof(*r));
	r->state = REC_ACTIVE;
	r->pool = pool;
	r->id = pp_page_pool_id(pool);
	r->owner = fz.role;
	r->dma_map = true;
	r->dev = -1;		/* not one of the model's devices */
	r->track_off = fz.tracking == PP_DMA_TRACK_OFF;
	fz.slot[slot] = ri;
	fz.t.creates++;
	for (i = 0; i < n; i++) {
		netmem_ref nm = page_pool_dev_alloc_netmems(pool);

		if (!nm)
			break;
		fz_take(ri, nm, true);
		fz.t.allocs++;
	}
	if ((how & 4) && fz.nr_pages) {
		/* One back before the device goes: into the pool's ring. */
		struct fz_page *e = &fz.pages[fz.nr_pages - 1];

		if (e->rec == ri && e->refs == 1 && e->whole) {
			page_pool_put_full_netmem(pool, e->nm, false);
			fz_drop_ref(e);
		}
	}
	/* Mappings still live (the pool's pages, out or cached): the
	 * destroy says so, once. */
	pp_dma_get_stats(dev, &st);
	pp_device_destroy(dev);
	ppinv_expect_warns(&fz.inv, st.live_mappings ? 1 : 0);
	r->orphan = true;
	declared(FZ_OP_DEV_GONE);
}

/*
 * NULL and out-of-range arguments to pagepool's own API: an error, never
 * a crash. pp_fault_inject() with a NaN, negative or > 1 probability is
 * -EINVAL and arms nothing; the introspection calls with a NULL result
 * pointer; page_pool_get_stats(pool, NULL) is false, as the kernel's.
 */
void fz_op_bad_args(void)
{
	uint8_t what = fz_u8();
	struct pp_page_pool_track_stats ts;
	struct pp_fault_config cfg;
	struct fz_pool *r;
	int ret;

	if (what % 6 < 3 ? skip_unless(FZ_MU_BAD_FAULT) : skip_unless(FZ_MU_BAD_ARGS))
		return;
	declared(FZ_OP_BAD_ARGS);
	r = fz_slot_rec(what >> 3, NULL);
	switch (what % 6) {
	case 0:
	case 1:
	case 2: {
		static const double bad[] = { NAN, -0.25, 1.5 };
		enum pp_fault_point point = (enum pp_fault_point)((what >> 3) % PP_FAULT_NR);

		memset(&cfg, 0, sizeof(cfg));
		cfg.probability = bad[what % 6];
		ret = pp_fault_inject(point, &cfg);
		if (ret != -EINVAL)
			fz_fail(PPINV_API, "pp_fault_inject(%d, probability %g) = %d, not -EINVAL",
				point, cfg.probability, ret);
		/* (A point armed before stays as it was: the faults it
		 * injects are causes the model already accepts.) */
		break;
	}
	case 3:
		ret = pp_page_pool_get_info(r ? r->id : 1, NULL);
		if (ret != -EINVAL)
			fz_fail(PPINV_API, "pp_page_pool_get_info(%u, NULL) = %d, not -EINVAL",
				r ? r->id : 1, ret);
		break;
	case 4:
		ret = pp_page_pool_dump_json(NULL);
		if (ret != -EINVAL)
			fz_fail(PPINV_API, "pp_page_pool_dump_json(NULL) = %d, not -EINVAL", ret);
		break;
	case 5:
		ret = pp_page_pool_get_track_stats(NULL, &ts);
		if (ret != -EINVAL)
			fz_fail(PPINV_API, "pp_page_pool_get_track_stats(NULL, ...) = %d, not -EINVAL",
				ret);
		if (!r)
			break;
		ret = pp_page_pool_get_track_stats(r->pool, NULL);
		if (ret != -EINVAL)
			fz_fail(PPINV_API, "pp_page_pool_get_track_stats(pool %u, NULL) = %d, not -EINVAL",
				r->id, ret);
		if (page_pool_get_stats(r->pool, NULL))
			fz_fail(PPINV_API, "page_pool_get_stats(pool %u, NULL) = true", r->id);
		break;
	}
}
