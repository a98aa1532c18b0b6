/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page_pool fuzz harness, part two: the operations (see enum fz_op in
 * fuzz.h for their arguments). Each does what a driver, the stack or a
 * careless caller would do, updates the model (fuzz_model.c), declares the
 * WARNs and misuse counts it causes on purpose, and is followed by the
 * invariant checks.
 *
 * Operations a driver could not legally do at that point are skipped, not
 * attempted: allocation and direct recycling outside the pool's consumer
 * context (its role, softirq for direct recycling, never after destroy),
 * destroy or unbind in softirq context, creating a DMA-mapping pool on an
 * unbound device, and pool parameters the kernel accepts but that make the
 * pool itself sync outside its own mapping (offset + max_len > the
 * page size with PP_FLAG_DMA_SYNC_DEV: a driver bug no check in page_pool
 * can see). Everything else - invalid parameters, double puts, puts naming
 * the wrong pool, puts of pages no pool owns, allocation from and destroy
 * of a destroyed pool - is attempted, and must be reported and lose
 * nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>

#include "fuzz.h"

#ifdef PP_FUZZ_FAST
/* Small rings (fuzz.h): 0 is the default, 1024. Same count of choices as
 * the full target's, so an input means the same to both. */
static const unsigned int pool_sizes[] = { 0, 1, 2, 16, 64, 128, 8, 32, 256 };
static const int nids[] = { NUMA_NO_NODE, 0, 0 };	/* one node */
#else
static const unsigned int pool_sizes[] = { 0, 1, 2, 16, 64, 128, 1024, 16384, 65536 };
static const int nids[] = { NUMA_NO_NODE, 0, 1 };
#endif
static const unsigned int max_lens[] = { 0, 1, 64, 1500, 2048, 4096, 16384, 65536, UINT_MAX };
static const unsigned int alloc_sizes[] = { 1, 64, 256, 1024, 1500, 2048, 3000, 4096, 9000, 65536 };
static const unsigned int sync_sizes[] = { (unsigned int)-1, 0, 64, 1500, 65536 };

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define PICK(a, b)	((a)[(b) % ARRAY_LEN(a)])

/* Why an allocation may come back empty (struct fz_cause): a fault
 * fired, the page allocator ran dry, a DMA map failed, or the provider is
 * empty. */
void fz_cause_snap(struct fz_cause *c, const struct fz_pool *r)
{
	struct pp_mem_counters mm;
	struct pp_dma_stats ds;

	c->faults = fz_faults_injected();
	pp_mem_get_counters(&mm);
	c->alloc_failed = mm.alloc_failed;
	c->map_errors = 0;
	if (r->dma_map && r->dev >= 0) {	/* (an orphan's device is gone) */
		pp_dma_get_stats(fz.devs[r->dev], &ds);
		c->map_errors = ds.map_errors;
	}
}

/* An allocation came back empty: it must have a cause. */
bool fz_had_cause(const struct fz_cause *before, const struct fz_pool *r)
{
	struct fz_cause now;

	fz_cause_snap(&now, r);
	return now.faults != before->faults || now.alloc_failed != before->alloc_failed ||
	       now.map_errors != before->map_errors ||
	       (r->mp && fz.rp && !pp_region_provider_free(fz.rp));
}

static void null_needs_cause(const struct fz_cause *before, const struct fz_pool *r,
			     const char *what)
{
	fz.t.alloc_null++;
	if (!fz_had_cause(before, r))
		fz_fail(PPINV_API, "%s from pool %u returned nothing with memory available and no fault",
			what, r->id);
}

int fz_free_rec(void)
{
	int r;

	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state == REC_FREE)
			return r;
	return -1;
}

static int dev_index(const struct device *dev)
{
	int d;

	for (d = 0; d <= FZ_DEV_MP; d++)
		if (fz.devs[d] == dev)
			return d;
	return -1;
}

/* page_pool_init()'s verdict on @pp, from the rules the kernel documents;
 * *mp tells whether the pool will run on the region provider. */
static int predict_create(const struct page_pool_params *pp, bool *mp)
{
	unsigned int flags = pp->flags;
	bool dma_map = flags & PP_FLAG_DMA_MAP, sync = flags & PP_FLAG_DMA_SYNC_DEV;

	*mp = false;
	if (flags & ~PP_FLAG_ALL)
		return -EINVAL;
	if (dma_map && ((pp->dma_dir != DMA_FROM_DEVICE && pp->dma_dir != DMA_BIDIRECTIONAL) ||
			!pp->dev))
		return -EINVAL;
	if (sync && (!dma_map || !pp->max_len))
		return -EINVAL;
	if (flags & PP_FLAG_ALLOW_UNREADABLE_NETMEM) {
		if (!pp->netdev || pp->queue_idx >= pp->netdev->num_rx_queues)
			return -EINVAL;
		*mp = pp->queue_idx == 0 && fz.rp;
	}
	if (*mp) {
		if (!dma_map || !sync)
			return -EOPNOTSUPP;
		if (pp->order)
			return -E2BIG;
		if (pp->dev != fz.devs[FZ_DEV_MP] || pp->dma_dir != DMA_FROM_DEVICE)
			return -EINVAL;
		return 0;
	}
	if (pp->order > MAX_PAGE_ORDER)
		return -EINVAL;
	return 0;
}

static void op_create(bool in_poll)
{
	uint8_t s = fz_u8(), mode = fz_u8(), a = fz_u8(), b = fz_u8(), c = fz_u8(), d = fz_u8();
	struct page_pool_params pp;
	struct page_pool *pool;
	struct fz_pool *r;
	bool mp, napi = mode & 0x10, percpu = mode & 0x20;
	int slot = s % FZ_SLOTS, ri, want, err, di;

	/* Creation sleeps (a mutex, allocation): not in softirq. */
	if (in_poll || fz_in_softirq() || fz.slot[slot] >= 0 || (ri = fz_free_rec()) < 0)
		goto skip;
	memset(&pp, 0, sizeof(pp));
	pp.nid = PICK(nids, c >> 6);
	pp.pool_size = PICK(pool_sizes, d);
	if (mode & 1) {
		/* A valid configuration of one of the kinds drivers use. */
		switch ((mode >> 1) & 3) {
		case 0:
			pp.order = a % 3;
			break;
		case 1:
			pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
			pp.dev = fz.devs[a % fz.nr_devs];
			pp.dma_dir = b & 1 ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE;
			pp.order = (b >> 1) % 4;
			pp.offset = c & 1 ? 64 : 0;
			pp.max_len = (PAGE_SIZE << pp.order) - pp.offset;
			if (c & 2)
				pp.max_len = min(pp.max_len, 1500u);
			break;
		case 2:
			pp.flags = PP_FLAG_DMA_MAP;
			pp.dev = fz.devs[a % fz.nr_devs];
			pp.dma_dir = b & 1 ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE;
			pp.order = (b >> 1) % 3;
			break;
		case 3:
			if (!fz_mp_ensure())
				goto skip;
			pp.flags = PP_FLAG_ALLOW_UNREADABLE_NETMEM | PP_FLAG_DMA_MAP |
				   PP_FLAG_DMA_SYNC_DEV;
			pp.dev = fz.devs[FZ_DEV_MP];
			pp.dma_dir = DMA_FROM_DEVICE;
			pp.max_len = PAGE_SIZE;
			pp.netdev = fz.netdev;
			pp.queue_idx = 0;
			break;
		}
		if (!pp.netdev && (c & 4))
			pp.netdev = fz.netdev;	/* visible to introspection */
	} else {
		/* Anything at all. */
		pp.flags = a & 0x1f;
		pp.dma_dir = (enum dma_data_direction)(b % 4);
		pp.order = c % 13;
		pp.max_len = PICK(max_lens, d >> 4);
		switch ((b >> 2) % 4) {
		case 0:
			pp.dev = NULL;
			break;
		case 1:
			pp.dev = fz.devs[0];
			break;
		case 2:
			pp.dev = fz.devs[fz.nr_devs - 1];
			break;
		case 3:
			pp.dev = fz.devs[FZ_DEV_MP];
			break;
		}
		if ((c >> 4) & 1)
			pp.netdev = fz.netdev;
		pp.queue_idx = (a >> 5) % 3;	/* 2 is past the last RX queue */
	}

	want = predict_create(&pp, &mp);
	di = pp.dev ? dev_index(pp.dev) : -1;
	if (!want) {
		bool dma_map = pp.flags & PP_FLAG_DMA_MAP;

		/* A driver probes only a bound device. */
		if (dma_map && di >= 0 && di < FZ_MAX_DEVS && !fz.bound[di])
			goto skip;
		/* Syncing past its own mapping: a driver bug page_pool cannot see. */
		if ((pp.flags & PP_FLAG_DMA_SYNC_DEV) &&
		    (u64)pp.offset + pp.max_len > (u64)(PAGE_SIZE << min(pp.order, 12u)))
			goto skip;
	}

	r = &fz.pools[ri];
	memset(r, 0, sizeof(*r));
	if (napi) {
		netif_napi_add(NULL, &r->napi, fz_napi_poll);
		napi_enable(&r->napi);
		pp.napi = &r->napi;
	}
	pool = percpu ? page_pool_create_percpu(&pp, FZ_CPU_BASE + fz.role) : page_pool_create(&pp);
	fz.t.creates++;
	if (IS_ERR_OR_NULL(pool)) {
		err = pool ? (int)PTR_ERR(pool) : 0;
		fz.t.create_errors++;
		if (napi) {
			napi_disable(&r->napi);
			netif_napi_del(&r->napi);
		}
		if (err != want && !(fz.armed && err == -ENOMEM))
			fz_fail(PPINV_API,
				"page_pool_create(flags %#x dir %d order %u max_len %u pool_size %u dev %d netdev %d queue %u) = %d, expected %d (faults armed %#x)",
				pp.flags, pp.dma_dir, pp.order, pp.max_len, pp.pool_size, di,
				!!pp.netdev, pp.queue_idx, err, want, fz.armed);
		return;
	}
	if (want)
		fz_fail(PPINV_API,
			"page_pool_create(flags %#x dir %d order %u max_len %u dev %d queue %u) accepted what should fail with %d",
			pp.flags, pp.dma_dir, pp.order, pp.max_len, di, pp.queue_idx, want);
	r->state = REC_ACTIVE;
	r->pool = pool;
	r->id = pp_page_pool_id(pool);
	r->owner = fz.role;
	r->dma_map = pp.flags & PP_FLAG_DMA_MAP;
	r->dev = r->dma_map ? di : -1;
	r->mp = mp;
	r->napi_on = napi;
	r->track_off = fz.tracking == PP_DMA_TRACK_OFF;
	r->order = pp.order;
	fz.slot[slot] = ri;
	if (page_pool_is_unreadable(pool) != mp)
		fz_fail(PPINV_API, "pool %u: unreadable %d, expected %d", r->id,
			page_pool_is_unreadable(pool), mp);
	return;
skip:
	fz.t.skipped++;
}

static void op_alloc(void)
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
		null_needs_cause(&c, r, "allocation");
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
static void op_put(void)
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

static void op_bulk(void)
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

static void op_get_page(void)
{
	struct fz_page *e = fz_pick_free_ref(fz_u8());

	if (!e || netmem_is_net_iov(e->nm) || e->page_refs >= 4) {
		fz.t.skipped++;
		return;
	}
	get_page(netmem_to_page(e->nm));
	e->page_refs++;
}

static void op_put_page(void)
{
	uint8_t b = fz_u8();
	int i;

	for (i = 0; i < fz.nr_pages; i++) {
		struct fz_page *e = &fz.pages[(b + i) % fz.nr_pages];

		if (e->page_refs) {
			fz_drop_page_ref(e);
			return;
		}
	}
	fz.t.skipped++;
}

static void op_pp_ref(void)
{
	struct fz_page *e = fz_pick_free_ref(fz_u8());

	if (!e || e->refs >= 16) {
		fz.t.skipped++;
		return;
	}
	page_pool_ref_netmem(e->nm);
	e->refs++;
}

static void op_to_stack(void)
{
	struct fz_page *e = fz_pick_free_ref(fz_u8());

	if (!e || fz.stack_len == FZ_STACK) {
		fz.t.skipped++;
		return;
	}
	fz.stack[(fz.stack_head + fz.stack_len++) % FZ_STACK] = e->nm;
	e->stack_refs++;
}

/* The stack frees its oldest references, from whatever context the
 * caller is in, naming the pool the page says it belongs to. */
static void op_stack_return(void)
{
	int n = 1 + fz_u8() % 8;

	while (n-- && fz.stack_len) {
		netmem_ref nm = fz.stack[fz.stack_head];
		struct fz_page *e = fz_find(nm);

		fz.stack_head = (fz.stack_head + 1) % FZ_STACK;
		fz.stack_len--;
		e->stack_refs--;
		if (netmem_is_net_iov(nm)) {
			page_pool_put_full_netmem(netmem_get_pp(nm), nm, false);
		} else {
			struct page *page = netmem_to_page(nm);

			page_pool_put_full_page(page_pool_to_pp(page), page, false);
		}
		fz_drop_ref(e);
	}
	fz_settle_zombies();
}

static void op_destroy(bool in_poll)
{
	int ri;

	if (in_poll || fz_in_softirq() || !fz_slot_rec(fz_u8(), &ri)) {
		fz.t.skipped++;
		return;
	}
	fz_destroy_rec(ri);
}

/* Driver remove: its pools go (pages may stay in flight), then the driver
 * unbinds from the device. */
static void op_unbind(bool in_poll)
{
	int d = fz_u8() % fz.nr_devs, r;
	bool fix_off = false;

	if (in_poll || fz_in_softirq() || !fz.bound[d]) {
		fz.t.skipped++;
		return;
	}
	/* remove(): the RX queues' XDP info goes, then the pools. */
	for (r = 0; r < FZ_MAX_POOLS; r++) {
		struct fz_pool *p = &fz.pools[r];

		if (p->state == REC_FREE || !p->dma_map || p->dev != d)
			continue;
		if (p->xdp_reg)
			fz_xdp_unreg(r);
		if (p->state == REC_ACTIVE)
			fz_destroy_rec(r);
	}
	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state == REC_ZOMBIE && fz.pools[r].dma_map &&
		    fz.pools[r].dev == d && fz.pools[r].track_off)
			fix_off = true;
	ppinv_device_unbinding(&fz.inv, fz.devs[d], fix_off);
	device_release_driver(fz.devs[d]);
	fz.bound[d] = false;
	fz.t.unbinds++;
}

static void op_rebind(void)
{
	int d = fz_u8() % fz.nr_devs, err;

	if (fz.bound[d]) {
		fz.t.skipped++;
		return;
	}
	err = pp_device_bind(fz.devs[d]);
	if (err) {
		if (!fz.armed)
			fz_fail(PPINV_API, "pp_device_bind(%s) = %d with no fault armed",
				dev_name(fz.devs[d]), err);
		return;
	}
	fz.bound[d] = true;
	fz.t.rebinds++;
}

static void op_update_nid(void)
{
	uint8_t s = fz_u8(), n = fz_u8(), how = fz_u8();
	struct fz_pool *r = fz_slot_rec(s, NULL);

	if (!r || r->owner != fz.role) {
		fz.t.skipped++;
		return;
	}
	if (how & 1)
		page_pool_nid_changed(r->pool, PICK(nids, n));
	else
		page_pool_update_nid(r->pool, PICK(nids, n));
}

static void op_fault(void)
{
	uint8_t p = fz_u8(), mode = fz_u8(), arg = fz_u8();
	enum pp_fault_point point = (enum pp_fault_point)(p % PP_FAULT_NR);
	struct pp_fault_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	switch (mode % 5) {
	case 0:
		pp_fault_inject(point, NULL);
		fz.armed &= ~(1u << point);
		return;
	case 1:
		cfg.every_nth = 2 + arg % 15;
		break;
	case 2:
		cfg.probability = (1 + arg) / 512.0;
		cfg.seed = 1 + arg;
		break;
	case 3:
		cfg.next_n = 1 + arg % 16;
		break;
	case 4:
		cfg.every_nth = 1 + arg % 4;
		cfg.skip = arg % 32;
		break;
	}
	if (pp_fault_inject(point, &cfg))
		fz_fail(PPINV_API, "pp_fault_inject(%d) refused a valid rule", point);
	fz.armed |= 1u << point;
	fz.t.faults_armed++;
}

static void op_role(bool in_poll)
{
	int r = fz_u8() % fz.nr_roles, cpu;

	if (in_poll || fz_in_softirq() || r == fz.role) {
		fz.t.skipped++;
		return;
	}
	pp_thread_unregister();
	cpu = pp_thread_register(FZ_CPU_BASE + r);
	if (cpu != FZ_CPU_BASE + r)
		fz_fail(PPINV_API, "pp_thread_register(%d) = %d", FZ_CPU_BASE + r, cpu);
	fz.role = r;
	fz.t.role_switches++;
}

static void op_bh(bool in_poll)
{
	uint8_t on = fz_u8() & 1;

	if (in_poll) {
		fz.t.skipped++;
	} else if (on && fz.bh < 2) {
		local_bh_disable();
		fz.bh++;
	} else if (!on && fz.bh > 0) {
		local_bh_enable();
		fz.bh--;
	}
}

static bool poll_ran;

int fz_napi_poll(struct napi_struct *napi, int budget)
{
	(void)budget;
	poll_ran = true;
	fz.in_poll = true;
	while (fz.poll_left > 0 && fz_more() && fz.nops < FZ_MAX_OPS) {
		fz.poll_left--;
		fz_run_op(true);
	}
	fz.in_poll = false;
	napi_complete_done(napi, 0);
	return 0;
}

static void op_napi_poll(bool in_poll)
{
	uint8_t s = fz_u8(), n = fz_u8();
	struct fz_pool *r = fz_slot_rec(s, NULL);

	if (in_poll || fz_in_softirq() || !r || !r->napi_on || r->owner != fz.role) {
		fz.t.skipped++;
		return;
	}
	fz.poll_left = 1 + n % 8;
	poll_ran = false;
	if (!napi_schedule(&r->napi))
		fz_fail(PPINV_API, "napi_schedule() of an idle NAPI failed");
	pp_net_rx_action();
	if (!poll_ran)
		fz_fail(PPINV_API, "the scheduled NAPI poll did not run");
	fz.t.polls++;
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
static void op_burst(void)
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
			null_needs_cause(&c, r, "burst allocation");
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

static void op_run_work(bool in_poll)
{
	int r;

	if (in_poll || fz_in_softirq()) {
		fz.t.skipped++;
		return;
	}
	pp_workqueue_run_all();
	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state == REC_ZOMBIE)
			fz.pools[r].exact = true;
	fz_settle_zombies();
}

/* Misuse. Each must be reported (a WARN and its counter), corrupt
 * nothing, and lose nothing. */

static void op_double_put(void)
{
	uint8_t b = fz_u8(), how = fz_u8();
	struct fz_pool *r;
	struct fz_page *e = NULL;
	struct page_pool *pool;
	netmem_ref nm;
	bool back_in_pool;
	int i, ri;

	for (i = 0; i < fz.nr_pages && !e; i++) {
		struct fz_page *x = &fz.pages[(b + i) % fz.nr_pages];

		if (x->refs == 1 && !x->stack_refs && !x->page_refs && x->whole)
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
	page_pool_put_full_netmem(pool, nm, (how & 1) && fz_can_direct(r));
	fz_drop_ref(e);
	/* In the pool (cache or ring, pp_ref_count 0): an underflow. Given
	 * back to the page allocator or the provider: no pool's page. */
	back_in_pool = (READ_ONCE(__netmem_clear_lsb(nm)->pp_magic) & PP_MAGIC_MASK) == PP_SIGNATURE &&
		       netmem_get_pp(nm) == pool;
	page_pool_put_full_netmem(pool, nm, false);
	ppinv_expect_warns(&fz.inv, 1);
	ppinv_expect_misuse(&fz.inv, !back_in_pool, 0, back_in_pool);
	fz.t.misuse++;
	fz_after_put(ri);
}

static void op_wrong_pool(void)
{
	uint8_t b = fz_u8(), t = fz_u8();
	struct fz_page *e = fz_pick_free_ref(b);
	struct fz_pool *other = NULL;
	int i, ri;

	if (!e) {
		fz.t.skipped++;
		return;
	}
	ri = e->rec;
	for (i = 0; i < FZ_MAX_POOLS && !other; i++) {
		int x = (t + i) % FZ_MAX_POOLS;

		if (x != ri && fz.pools[x].state != REC_FREE)
			other = &fz.pools[x];
	}
	if (!other) {
		fz.t.skipped++;
		return;
	}
	page_pool_put_full_netmem(other->pool, e->nm, false);
	ppinv_expect_warns(&fz.inv, 1);
	ppinv_expect_misuse(&fz.inv, 0, 1, 0);
	fz.t.misuse++;
	/* Refused (issue 12, finding 6): nothing changes, the reference is
	 * still ours, and goes to the right pool later (a put that went
	 * "home" instead would, after an ABA, drop the reference of the
	 * page's new holder: FZ_OP_ABA). */
	fz.t.misuse_ops[FZ_OP_WRONG_POOL]++;
}

/* The @b-th (cyclically) pool that is alive, or destroyed and alive. */
static struct fz_pool *pick_alive(uint8_t b, bool destroyed_only)
{
	int i;

	for (i = 0; i < FZ_MAX_POOLS; i++) {
		struct fz_pool *r = &fz.pools[(b + i) % FZ_MAX_POOLS];

		/* (A destroyed pool that XDP still holds is not destroyed yet:
		 * allocating from it or destroying it is no misuse.) */
		if (destroyed_only ? r->state == REC_ZOMBIE && !r->xdp_reg : r->state != REC_FREE)
			return r;
	}
	return NULL;
}

static void op_stray_put(void)
{
	uint8_t b = fz_u8(), how = fz_u8();
	struct fz_pool *r = pick_alive(b, false);
	struct page *page;

	if (!r || !(page = alloc_page(GFP_ATOMIC | __GFP_NOWARN))) {
		fz.t.skipped++;
		return;
	}
	if (how & 1) {
		netmem_ref one = page_to_netmem(page);

		page_pool_put_netmem_bulk(&one, 1);
	} else {
		page_pool_put_full_page(r->pool, page, false);
	}
	ppinv_expect_warns(&fz.inv, 1);
	ppinv_expect_misuse(&fz.inv, 1, 0, 0);
	fz.t.misuse++;
	if (page_ref_count(page) != 1 || page_pool_page_is_pp(page))
		fz_fail(PPINV_API, "a stray page was touched by the put: refcount %d",
			page_ref_count(page));
	__free_page(page);
}

static void op_alloc_destroyed(void)
{
	struct fz_pool *r = pick_alive(fz_u8(), true);
	netmem_ref nm;

	if (!r) {
		fz.t.skipped++;
		return;
	}
	nm = page_pool_alloc_netmems(r->pool, GFP_ATOMIC | __GFP_NOWARN);
	ppinv_expect_warns(&fz.inv, 1);
	fz.t.misuse++;
	if (nm)
		fz_fail(PPINV_API, "destroyed pool %u handed out netmem %#lx", r->id,
			(unsigned long)nm);
}

static void op_destroy_again(void)
{
	struct fz_pool *r = pick_alive(fz_u8(), true);

	if (!r) {
		fz.t.skipped++;
		return;
	}
	page_pool_destroy(r->pool);
	ppinv_expect_warns(&fz.inv, 1);
	fz.t.misuse++;
}

void fz_run_op(bool in_poll)
{
	size_t at = fz.pos;
	enum fz_op op = (enum fz_op)(fz_u8() % FZ_OP_NR);

	fz.nops++;
	fz.t.ops++;
	/* PP_FUZZ_VERBOSE=2: each operation as it runs, for a crash that
	 * stops the process before the model's state is printed. */
	if (fz_verbose >= 2)
		fprintf(stderr, "fuzz: op %lu: %d at byte %zu%s\n", fz.nops, op, at,
			in_poll ? " (in NAPI poll)" : "");
	switch (op) {
	case FZ_OP_CREATE:		op_create(in_poll); break;
	case FZ_OP_ALLOC:		op_alloc(); break;
	case FZ_OP_PUT:			op_put(); break;
	case FZ_OP_BULK:		op_bulk(); break;
	case FZ_OP_GET_PAGE:		op_get_page(); break;
	case FZ_OP_PUT_PAGE:		op_put_page(); break;
	case FZ_OP_PP_REF:		op_pp_ref(); break;
	case FZ_OP_TO_STACK:		op_to_stack(); break;
	case FZ_OP_STACK_RETURN:	op_stack_return(); break;
	case FZ_OP_DESTROY:		op_destroy(in_poll); break;
	case FZ_OP_UNBIND:		op_unbind(in_poll); break;
	case FZ_OP_REBIND:		op_rebind(); break;
	case FZ_OP_UPDATE_NID:		op_update_nid(); break;
	case FZ_OP_FAULT:		op_fault(); break;
	case FZ_OP_ROLE:		op_role(in_poll); break;
	case FZ_OP_BH:			op_bh(in_poll); break;
	case FZ_OP_NAPI_POLL:		op_napi_poll(in_poll); break;
	case FZ_OP_BURST:		op_burst(); break;
	case FZ_OP_RUN_WORK:		op_run_work(in_poll); break;
	case FZ_OP_DOUBLE_PUT:		op_double_put(); break;
	case FZ_OP_WRONG_POOL:		op_wrong_pool(); break;
	case FZ_OP_STRAY_PUT:		op_stray_put(); break;
	case FZ_OP_ALLOC_DESTROYED:	op_alloc_destroyed(); break;
	case FZ_OP_DESTROY_AGAIN:	op_destroy_again(); break;
	case FZ_OP_XDP:			fz_op_xdp(in_poll); break;
	case FZ_OP_BULK_DUP:		fz_op_bulk_dup(); break;
	case FZ_OP_ALLOC_ZERO:		fz_op_alloc_zero(); break;
	case FZ_OP_ABA:			fz_op_aba(in_poll); break;
	case FZ_OP_MP_PAGE_ALLOC:	fz_op_mp_page_alloc(); break;
	case FZ_OP_FRAG_OVERPUT:	fz_op_frag_overput(); break;
	case FZ_OP_DEV_GONE:		fz_op_dev_gone(in_poll); break;
	case FZ_OP_BAD_ARGS:		fz_op_bad_args(); break;
	case FZ_OP_NR:			break;
	}
	if (fz_verbose >= 3)
		fz_dump_state();
	fz_check_all();
}
