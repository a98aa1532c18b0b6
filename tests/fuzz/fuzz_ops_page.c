/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The fuzz harness's allocation and return operations: every allocation
 * call a driver uses (pages, netmems, fragments, size-based, va), every put
 * call, page_pool_put_netmem_bulk() over pages of any pools, and a NAPI
 * poll's burst (allocate up to a budget, recycle it all). An allocation
 * that comes back empty must have a cause (fz_null_needs_cause()).
 */
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <net/page_pool/helpers.h>

#include "fuzz.h"

/* What an argument byte picks (PICK()). */
static const unsigned int alloc_sizes[] = { 1, 64, 256, 1024, 1500, 2048, 3000, 4096, 9000, 65536 };
static const unsigned int sync_sizes[] = { (unsigned int)-1, 0, 64, 1500, 65536 };

void fz_op_alloc(void)
{
	uint8_t s = fz_u8(), kind = fz_u8(), sz = fz_u8();
	gfp_t gfp = GFP_ATOMIC | __GFP_NOWARN;
	unsigned int max_size, size, offset = 0;
	netmem_ref nm = 0;
	bool whole = true, warn = false;
	struct fz_pool *r;
	struct fz_cause c;
	void *va;
	int ri, k;

	r = fz_slot_rec(s, &ri);
	/* (A pool whose device was destroyed under it: its driver is gone.) */
	if (!r || r->state != REC_ACTIVE || r->owner != fz.role || r->orphan) {
		fz.t.skipped++;
		return;
	}
	if ((kind & 0x80) && !fz_in_softirq())
		gfp = GFP_KERNEL;
	max_size = PAGE_SIZE << r->order;
	size = min(PICK(alloc_sizes, sz), max_size);
	k = kind % 6;
	if (r->mp)
		k = k & 1 ? 3 : 2;	/* unreadable memory: netmem calls only */
	fz_cause_snap(&c, r);
	switch (k) {
	case 0:
		nm = page_to_netmem(page_pool_alloc_pages(r->pool, gfp));
		break;
	case 1:
		nm = page_to_netmem(page_pool_dev_alloc_pages(r->pool));
		break;
	case 2:
		nm = page_pool_alloc_netmems(r->pool, gfp);
		break;
	case 3:
		if (sz & 0x80) {
			size = max_size + 1;	/* misuse: bigger than a page */
			warn = true;
		}
		nm = page_pool_alloc_frag_netmem(r->pool, &offset, size, gfp);
		whole = false;
		break;
	case 4:
		whole = (size << 1) > max_size;
		nm = page_pool_alloc_netmem(r->pool, &offset, &size, gfp);
		break;
	case 5:
		whole = (size << 1) > max_size;
		va = page_pool_alloc_va(r->pool, &size, gfp);
		nm = va ? virt_to_netmem(va) : 0;
		if (va)
			offset = (unsigned int)((char *)va - (char *)netmem_address(nm));
		break;
	}
	if (warn) {
		ppinv_expect_warns(&fz.inv, 1);
		fz.t.misuse++;
		if (nm)
			fz_fail(PPINV_API, "pool %u: fragment of %u bytes from %u-byte pages", r->id,
				size, max_size);
		return;
	}
	if (!nm) {
		fz_null_needs_cause(&c, r, "allocation");
		return;
	}
	fz.t.allocs++;
	if (netmem_is_net_iov(nm) != r->mp)
		fz_fail(PPINV_API, "pool %u handed out a %s", r->id,
			netmem_is_net_iov(nm) ? "net_iov from a page pool" : "page from a provider pool");
	/* No fragment starts at or past its page's end, none runs past it. */
	if (!whole && (offset >= max_size || offset + size > max_size))
		fz_fail(PPINV_API, "pool %u: fragment [%u, +%u) beyond its %u-byte page", r->id,
			offset, size, max_size);
	fz_take(ri, nm, whole);
	/* A driver reading what the device wrote. */
	if ((kind & 0x40) && r->dma_map && offset + r->pool->p.offset + 64 <= max_size)
		page_pool_dma_sync_netmem_for_cpu(r->pool, nm, offset, 64);
}

/* One page_pool reference back, by one of the put calls drivers use. */
void fz_op_put(void)
{
	uint8_t it = fz_u8(), how = fz_u8();
	struct fz_page *e = fz_pick_free_ref(it);
	unsigned int sync = PICK(sync_sizes, how >> 3);
	struct fz_pool *r;
	netmem_ref nm;
	bool direct;
	int ri;

	if (!e) {
		fz.t.skipped++;
		return;
	}
	ri = e->rec;
	r = &fz.pools[ri];
	nm = e->nm;
	direct = (how & 0x80) && fz_can_direct(r);
	switch (how % 6) {
	case 0:
		page_pool_put_full_netmem(r->pool, nm, direct);
		break;
	case 1:
		page_pool_put_netmem(r->pool, nm, sync, direct);
		break;
	case 2:
		if (direct)
			page_pool_recycle_direct_netmem(r->pool, nm);
		else
			page_pool_put_full_netmem(r->pool, nm, false);
		break;
	case 3:
		if (netmem_is_net_iov(nm))
			page_pool_put_full_netmem(r->pool, nm, direct);
		else
			page_pool_put_page(r->pool, netmem_to_page(nm), sync, direct);
		break;
	case 4:
		if (netmem_is_net_iov(nm))
			page_pool_put_netmem(r->pool, nm, sync, direct);
		else
			page_pool_free_va(r->pool, (char *)netmem_address(nm) + (how & 0x40 ? 100 : 0),
					  direct);
		break;
	case 5:
		if (page_pool_unref_and_test(nm))
			page_pool_put_unrefed_netmem(r->pool, nm, sync, direct);
		break;
	}
	fz_drop_ref(e);
	fz_after_put(ri);
}

/* The @i-th reference of the bulk may use @nm only if the model holds
 * more free references than the bulk already took. */
FZ_NO_COVERAGE static bool bulk_has_room(const struct fz_page *e, const netmem_ref *data, int n)
{
	int i, taken = 0;

	for (i = 0; i < n; i++)
		taken += data[i] == e->nm;
	return e->refs - e->stack_refs > taken;
}

void fz_op_bulk(void)
{
	netmem_ref data[24], copy[24];
	int want = 1 + fz_u8() % 24, n = 0, i, j;

	for (i = 0; i < want; i++) {
		uint8_t b = fz_u8();

		for (j = 0; j < fz.nr_pages; j++) {
			struct fz_page *e = &fz.pages[(b + j) % fz.nr_pages];

			if (bulk_has_room(e, data, n)) {
				data[n++] = e->nm;
				break;
			}
		}
	}
	if (!n) {
		fz.t.skipped++;
		return;
	}
	memcpy(copy, data, sizeof(data[0]) * (size_t)n);
	page_pool_put_netmem_bulk(data, (u32)n);	/* overwrites data */
	for (i = 0; i < n; i++) {
		struct fz_page *e = fz_find(copy[i]);

		fz.t.bulk_returns++;
		fz_drop_ref(e);
	}
	fz_settle_zombies();
}

/* The netmems of one burst (up to 256), open addressing, each entry
 * tagged with its burst: a burst proves each netmem came out once in O(1)
 * per allocation and without clearing the set (a sort of the burst was a
 * tenth of the harness's time, clearing 4 KiB a tenth of the rest). */
#define BURST_SET	512

static struct { netmem_ref nm; unsigned long gen; } burst_set[BURST_SET];
static unsigned long burst_gen;

FZ_NO_COVERAGE static bool burst_set_add(netmem_ref nm)
{
	unsigned int i = (unsigned int)((nm >> 6) * 0x9e3779b1u) % BURST_SET;

	while (burst_set[i].gen == burst_gen) {
		if (burst_set[i].nm == nm)
			return false;
		i = (i + 1) % BURST_SET;
	}
	burst_set[i].nm = nm;
	burst_set[i].gen = burst_gen;
	return true;
}

/* What a NAPI poll does per budget: allocate a burst, then recycle it. */
void fz_op_burst(void)
{
	uint8_t s = fz_u8(), n = fz_u8(), how = fz_u8();
	netmem_ref got[256];
	struct fz_pool *r;
	struct fz_cause c;
	bool direct;
#ifdef PP_FUZZ_FAST
	/* Up to two refills' worth: past the cache and into the ring or the
	 * page allocator, as a 256 burst would, at half the average cost
	 * (bursts were two thirds of all allocations in an evolved corpus). */
	int i, cnt = 0, want = 1 + n % 128;
#else
	int i, cnt = 0, want = 1 + n;
#endif

	r = fz_slot_rec(s, NULL);
	if (!r || r->owner != fz.role || r->orphan) {
		fz.t.skipped++;
		return;
	}
	fz_cause_snap(&c, r);
	burst_gen++;
	for (i = 0; i < want; i++) {
		netmem_ref nm = page_pool_alloc_netmems(r->pool, GFP_ATOMIC | __GFP_NOWARN);

		if (!nm) {
			fz_null_needs_cause(&c, r, "burst allocation");
			break;
		}
		got[cnt++] = nm;
		ppinv_check_held(&fz.inv, nm, r->pool, 0);
		if (fz_find(nm))
			fz_fail(PPINV_HELD_PAGE, "pool %u handed out netmem %#lx that the model holds",
				r->id, (unsigned long)nm);
		if (!burst_set_add(nm))
			fz_fail(PPINV_HELD_PAGE, "pool %u handed out netmem %#lx twice in one burst",
				r->id, (unsigned long)nm);
	}
	fz.t.allocs += (unsigned long)cnt;
	direct = (how & 1) && fz_can_direct(r);
	if (how & 2) {
		page_pool_put_netmem_bulk(got, (u32)cnt);
	} else {
		for (i = 0; i < cnt; i++)
			page_pool_put_full_netmem(r->pool, got[how & 4 ? cnt - 1 - i : i], direct);
	}
	fz.t.returns += (unsigned long)cnt;
}
