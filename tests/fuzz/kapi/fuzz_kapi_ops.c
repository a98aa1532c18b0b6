/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The kernel-API fuzz harness, part two: the operations (enum kz_op in
 * fuzz_kapi.h gives each one's argument bytes) and their table. Each does
 * what a driver or the stack may do with the kernel's page_pool API,
 * updates the model (fuzz_kapi.c), and is followed by the checks.
 *
 * An operation a driver could not legally do at that point is skipped,
 * not attempted: allocation outside the pool's consumer (its role), direct
 * recycling outside its consumer's softirq context or after destroy,
 * creation, destroy, unbind and the deferred release in softirq context
 * (they sleep: the kernel's destroy may wait for a grace period), a
 * DMA-mapping pool on an unbound device, syncing a page of a destroyed
 * pool for the CPU (its mapping may be gone). Invalid pool parameters are
 * attempted: the kernel refuses them, and so must pagepool, with the same
 * error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>

#include "fuzz_kapi.h"

static const unsigned int pool_sizes[] = { 0, 1, 2, 16, 64, 128, 256, 1024 };
static const int nids[] = { NUMA_NO_NODE, 0, 1 };
static const unsigned int frag_sizes[] = { 1, 64, 256, 1024, 1500, 2048, 3000, 4096, 9000 };
static const unsigned int sync_sizes[] = { 0, 1, 64, 1500, 4096, -1 };

static int free_rec(void)
{
	int r;

	for (r = 0; r < KZ_MAX_POOLS; r++)
		if (kz.pools[r].state == KZ_FREE)
			return r;
	return -1;
}

static int kz_napi_poll(struct napi_struct *napi, int budget);

/* Why an allocation may come back empty: a fault fired, the page
 * allocator ran dry, or a DMA map failed. */
struct kz_cause {
	unsigned long faults, alloc_failed, map_errors;
};

static void cause_snap(struct kz_cause *c, const struct kz_pool *r)
{
	struct pp_mem_counters mm;
	struct pp_dma_stats ds;

	c->faults = kz_faults_injected();
	pp_mem_get_counters(&mm);
	c->alloc_failed = mm.alloc_failed;
	c->map_errors = 0;
	if (r->dma_map) {
		pp_dma_get_stats(kz.devs[r->dev], &ds);
		c->map_errors = ds.map_errors;
	}
}

static void null_needs_cause(const struct kz_cause *before, const struct kz_pool *r,
			     const char *what)
{
	struct kz_cause now;

	kz.t.alloc_null++;
	cause_snap(&now, r);
	if (now.faults == before->faults && now.alloc_failed == before->alloc_failed &&
	    now.map_errors == before->map_errors)
		kz_fail(PPINV_API, "%s from pool %u returned nothing with memory available and no fault",
			what, r->id);
}

/*
 * CREATE slot mode a b c d. Valid pools (mode bit 0) of the kinds drivers
 * make; or parameters page_pool_init() refuses with -EINVAL, each kind
 * one rule of the kernel's: a flag it does not know, PP_FLAG_DMA_MAP with
 * a direction other than from-device or bidirectional,
 * PP_FLAG_DMA_SYNC_DEV without PP_FLAG_DMA_MAP, and PP_FLAG_DMA_SYNC_DEV
 * with max_len 0. (A NULL device or an order above MAX_PAGE_ORDER are not
 * tried: the kernel does not check them and would crash or fail later.)
 */
static void op_create(bool in_poll)
{
	uint8_t s = kz_u8(), mode = kz_u8(), a = kz_u8(), b = kz_u8(), c = kz_u8(), d = kz_u8();
	struct page_pool_params pp;
	struct page_pool *pool;
	struct kz_pool *r;
	bool napi = mode & 0x10, percpu = mode & 0x20, valid = mode & 1;
	int slot = s % KZ_SLOTS, ri, dev = -1;
	long err;

	if (in_poll || kz_in_softirq() || kz.slot[slot] >= 0 || (ri = free_rec()) < 0) {
		kz.t.skipped++;
		return;
	}
	r = &kz.pools[ri];
	memset(&pp, 0, sizeof(pp));
	pp.nid = KZ_PICK(nids, c >> 6);
	pp.pool_size = KZ_PICK(pool_sizes, d);
	pp.dma_dir = DMA_FROM_DEVICE;
	if (valid) {
		switch ((mode >> 1) & 3) {
		case 0:
			pp.order = a % 3;
			break;
		case 1:
			dev = a % kz.nr_devs;
			pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
			pp.dma_dir = b & 1 ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE;
			pp.order = (b >> 1) % 3;
			pp.offset = c & 1 ? 256 : 0;
			pp.max_len = (PAGE_SIZE << pp.order) - pp.offset;
			if (c & 2)
				pp.max_len = min(pp.max_len, 1500u);
			break;
		case 2:
			dev = a % kz.nr_devs;
			pp.flags = PP_FLAG_DMA_MAP;
			pp.dma_dir = b & 1 ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE;
			pp.order = (b >> 1) % 3;
			break;
		case 3:
			pp.pool_size = 1u << (a % 5);
			break;
		}
	} else {
		dev = b % kz.nr_devs;
		switch (a % 4) {
		case 0:
			pp.flags = (unsigned int)BIT(4 + c % 4) | (b & 0x10 ? PP_FLAG_DMA_MAP : 0);
			break;
		case 1:
			pp.flags = PP_FLAG_DMA_MAP;
			pp.dma_dir = c & 1 ? DMA_TO_DEVICE : DMA_NONE;
			break;
		case 2:
			pp.flags = PP_FLAG_DMA_SYNC_DEV;
			pp.max_len = PAGE_SIZE;
			break;
		case 3:
			pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
			pp.max_len = 0;
			break;
		}
	}
	if (dev >= 0) {
		if (!kz.bound[dev]) {
			kz.t.skipped++;
			return;
		}
		pp.dev = kz.devs[dev];
	}
	memset(r, 0, sizeof(*r));
	if (napi) {
		netif_napi_add(NULL, &r->napi, kz_napi_poll);
		napi_enable(&r->napi);
		pp.napi = &r->napi;
	}
	/* A per-CPU pool is its consumer's CPU's: the pool recycles
	 * directly whenever it is put to in softirq there. */
	pool = percpu ? page_pool_create_percpu(&pp, KZ_CPU_BASE + kz.role) : page_pool_create(&pp);
	if (IS_ERR_OR_NULL(pool)) {
		err = pool ? PTR_ERR(pool) : 0;
		if (napi) {
			napi_disable(&r->napi);
			netif_napi_del(&r->napi);
		}
		kz.t.create_errors++;
		if (!valid && err == -EINVAL) {
			kz.t.bad_creates++;
			return;
		}
		/* A fault may refuse any pool, before its parameters are
		 * looked at (the kernel allocates the pool first). */
		if (err == -ENOMEM && kz.armed)
			return;
		kz_fail(PPINV_API, "page_pool_create() of %s parameters (kind %d, flags %#x, dir %d, order %u, max_len %u) = %ld",
			valid ? "valid" : "invalid", valid ? (mode >> 1) & 3 : a % 4,
			pp.flags, (int)pp.dma_dir, pp.order, pp.max_len, err);
		return;
	}
	if (!valid) {
		kz_fail(PPINV_API, "page_pool_create() accepted invalid parameters (kind %d, flags %#x, dir %d, max_len %u)",
			a % 4, pp.flags, (int)pp.dma_dir, pp.max_len);
		page_pool_destroy(pool);
		if (napi) {
			napi_disable(&r->napi);
			netif_napi_del(&r->napi);
		}
		return;
	}
	r->state = KZ_ACTIVE;
	r->pool = pool;
	r->id = pool->user.id;
	r->owner = kz.role;
	r->dev = pp.flags & PP_FLAG_DMA_MAP ? dev : -1;
	r->dma_map = pp.flags & PP_FLAG_DMA_MAP;
	r->sync = pp.flags & PP_FLAG_DMA_SYNC_DEV;
	r->napi_on = napi;
	r->percpu = percpu;
	r->order = pp.order;
	r->offset = pp.offset;
	r->max_len = pp.max_len;
#ifdef CONFIG_PAGE_POOL_STATS
	page_pool_get_stats(pool, &r->base);
#endif
	kz.slot[slot] = ri;
	kz.t.creates++;
}

/* The pool of slot @b, if the calling role may allocate from it now. */
static struct kz_pool *consumer_rec(uint8_t b, int *ri)
{
	struct kz_pool *r = kz_slot_rec(b, ri);

	if (!r || r->state != KZ_ACTIVE || r->owner != kz.role)
		return NULL;
	return r;
}

static void sync_for_cpu(struct kz_pool *r, netmem_ref nm, unsigned int off, unsigned int len)
{
	unsigned int room = (PAGE_SIZE << r->order) - r->offset;

	/* The kernel syncs from the pool's offset on: stay in the page. */
	if (!r->dma_map || off >= room)
		return;
	len = min(len ? len : 1, room - off);
	page_pool_dma_sync_for_cpu(r->pool, netmem_to_page(nm), off, len);
	kz.t.syncs++;
}

/*
 * ALLOC slot kind size: kind % 4 picks page_pool_dev_alloc_pages(),
 * page_pool_alloc_netmems(GFP_ATOMIC), page_pool_dev_alloc_frag() or
 * page_pool_dev_alloc() (a whole page for more than half a page, else a
 * fragment); bit 6: the buffer is synced for the CPU, as a driver does
 * before it reads a received frame.
 */
static void op_alloc(void)
{
	uint8_t s = kz_u8(), kind = kz_u8(), sz = kz_u8();
	unsigned int max_size, size, offset = 0;
	struct kz_cause cause;
	struct kz_pool *r;
	struct page *page = NULL;
	netmem_ref nm = 0;
	bool frag = false;
	int ri;

	r = consumer_rec(s, &ri);
	if (!r) {
		kz.t.skipped++;
		return;
	}
	max_size = PAGE_SIZE << r->order;
	size = min(KZ_PICK(frag_sizes, sz), max_size);
	cause_snap(&cause, r);
	switch (kind % 4) {
	case 0:
		page = page_pool_dev_alloc_pages(r->pool);
		nm = page ? page_to_netmem(page) : 0;
		size = max_size;
		break;
	case 1:
		nm = page_pool_alloc_netmems(r->pool, GFP_ATOMIC | __GFP_NOWARN);
		size = max_size;
		break;
	case 2:
		page = page_pool_dev_alloc_frag(r->pool, &offset, size);
		nm = page ? page_to_netmem(page) : 0;
		frag = true;
		break;
	case 3:
		frag = size * 2 <= max_size;
		page = page_pool_dev_alloc(r->pool, &offset, &size);
		nm = page ? page_to_netmem(page) : 0;
		if (page && (offset + size > max_size || (!frag && (offset || size != max_size))))
			kz_fail(PPINV_API, "page_pool_dev_alloc() on pool %u gave offset %u size %u in a buffer of %u",
				r->id, offset, size, max_size);
		break;
	}
	if (!nm) {
		null_needs_cause(&cause, r, "an allocation");
		/* A failed fragment allocation leaves the pool without a
		 * current fragment page (the kernel's: frag_page = 0). */
		if (frag)
			kz_frag_retire(ri);
		return;
	}
	if (frag && offset + size > max_size)
		kz_fail(PPINV_API, "pool %u: fragment at %u of %u bytes past the buffer of %u",
			r->id, offset, size, max_size);
	kz_take(ri, nm, frag, offset, size);
	if (kind & 0x40)
		sync_for_cpu(r, nm, offset, size);
}

/*
 * PUT item how: one page_pool reference back. how % 4:
 * page_pool_put_full_page(allow_direct = false), the same with
 * allow_direct = true (where the caller is the consumer in softirq),
 * page_pool_recycle_direct() (likewise), page_pool_put_page() with a
 * dma_sync_size (how >> 2 picks it); bit 7: the netmem form of the call.
 */
static void op_put(void)
{
	uint8_t it = kz_u8(), how = kz_u8();
	struct kz_page *e = kz_pick(it);
	struct kz_pool *r;
	struct page *page;
	bool direct, nmcall = how & 0x80;

	if (!e) {
		kz.t.skipped++;
		return;
	}
	r = &kz.pools[e->rec];
	page = netmem_to_page(e->nm);
	direct = (how % 4) != 0 && kz_can_direct(r);
	switch (how % 4) {
	case 0:
	case 1:
		if (nmcall)
			page_pool_put_full_netmem(r->pool, e->nm, direct);
		else
			page_pool_put_full_page(r->pool, page, direct);
		break;
	case 2:
		if (direct)
			page_pool_recycle_direct(r->pool, page);
		else
			page_pool_put_full_page(r->pool, page, false);
		break;
	case 3:
		if (nmcall)
			page_pool_put_netmem(r->pool, e->nm, KZ_PICK(sync_sizes, how >> 2), direct);
		else
			page_pool_put_page(r->pool, page, KZ_PICK(sync_sizes, how >> 2), direct);
		break;
	}
	kz_put_ref(e, direct || kz_napi_local(e->rec));
	kz_settle_zombies();
}

/*
 * BULK n items...: page_pool_put_page_bulk() (Linux 6.12's bulk put, one
 * pool per call) of up to n % 16 + 1 held netmems of the first item's
 * pool, each once, one page_pool reference each.
 */
static void op_bulk(void)
{
	uint8_t n = kz_u8() % 16 + 1, first = kz_u8();
	struct kz_page *e0 = kz_pick(first), *take[16];
	void *data[16];
	int rec, k = 0, i, j;
	bool local;

	if (!e0) {
		for (i = 1; i < n; i++)
			kz_u8();
		kz.t.skipped++;
		return;
	}
	rec = e0->rec;
	take[k++] = e0;
	for (i = 1; i < n; i++) {
		struct kz_page *e = kz_pick(kz_u8());
		bool dup = false;

		if (!e || e->rec != rec)
			continue;
		for (j = 0; j < k; j++)
			dup |= take[j] == e;
		if (!dup)
			take[k++] = e;
	}
	for (i = 0; i < k; i++)
		data[i] = page_address(netmem_to_page(take[i]->nm));
	local = kz_napi_local(rec);
	page_pool_put_page_bulk(kz.pools[rec].pool, data, k);
	kz.pools[rec].exp.bulks++;
	kz.t.bulk_returns += (unsigned long)k;
	/* Model updates last: forgetting an entry moves another one into
	 * its place; from the highest index down nothing moves twice. */
	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++)
			if (take[j] > take[i]) {
				struct kz_page *t = take[i];

				take[i] = take[j];
				take[j] = t;
			}
	for (i = 0; i < k; i++)
		kz_put_ref_bulk(take[i], local);
	kz_settle_zombies();
}

static void op_get_page(void)
{
	struct kz_page *e = kz_pick(kz_u8());

	if (!e || e->page_refs >= 8) {
		kz.t.skipped++;
		return;
	}
	get_page(netmem_to_page(e->nm));
	e->page_refs++;
}

static void op_put_page(void)
{
	uint8_t b = kz_u8();
	int i, n = kz.nr_pages;

	for (i = 0; i < n; i++) {
		struct kz_page *e = &kz.pages[(b + i) % n];

		if (e->page_refs) {
			kz_drop_page_ref(e);
			return;
		}
	}
	kz.t.skipped++;
}

static void op_pp_ref(void)
{
	struct kz_page *e = kz_pick(kz_u8());

	if (!e || e->refs >= 8) {
		kz.t.skipped++;
		return;
	}
	page_pool_ref_netmem(e->nm);
	e->refs++;
}

static void op_destroy(bool in_poll)
{
	int ri;
	struct kz_pool *r = kz_slot_rec(kz_u8(), &ri);

	if (in_poll || kz_in_softirq() || !r) {
		kz.t.skipped++;
		return;
	}
	kz_destroy_rec(ri);
}

/*
 * UNBIND dev: the driver's remove - every pool of the device destroyed
 * (pages held stay in flight, returned later), then the driver unbound.
 * With the kernel's DMA tracking the destroy unmapped the pages in
 * flight, so nothing is mapped at the unbind and the late returns unmap
 * nothing: any mapping still live taints the device, and a violation on
 * it fails (PP_RELIABILITY_EXPECT_DMA_SAFE_UNBIND is not relaxed here).
 */
static void op_unbind(bool in_poll)
{
	int d = kz_u8() % kz.nr_devs, r;

	if (in_poll || kz_in_softirq() || !kz.bound[d]) {
		kz.t.skipped++;
		return;
	}
	for (r = 0; r < KZ_MAX_POOLS; r++)
		if (kz.pools[r].state == KZ_ACTIVE && kz.pools[r].dma_map && kz.pools[r].dev == d)
			kz_destroy_rec(r);
	ppinv_device_unbinding(&kz.inv, kz.devs[d], false);
	device_release_driver(kz.devs[d]);
	kz.bound[d] = false;
	kz.t.unbinds++;
}

static void op_rebind(bool in_poll)
{
	int d = kz_u8() % kz.nr_devs, err;

	if (in_poll || kz_in_softirq() || kz.bound[d]) {
		kz.t.skipped++;
		return;
	}
	err = pp_device_bind(kz.devs[d]);
	if (err) {
		if (!kz.armed)
			kz_fail(PPINV_API, "pp_device_bind(%s) = %d", dev_name(kz.devs[d]), err);
		return;
	}
	kz.bound[d] = true;
	kz.t.rebinds++;
}

/* FAULT point mode arg: the page allocator, DMA map or kmalloc. */
static void op_fault(void)
{
	static const enum pp_fault_point points[] = {
		PP_FAULT_PAGE_ALLOC, PP_FAULT_DMA_MAP, PP_FAULT_KMALLOC,
	};
	uint8_t p = kz_u8(), mode = kz_u8(), arg = kz_u8();
	enum pp_fault_point point = KZ_PICK(points, p);
	struct pp_fault_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	switch (mode % 5) {
	case 0:
		pp_fault_inject(point, NULL);
		kz.armed &= ~(1u << point);
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
		kz_fail(PPINV_API, "pp_fault_inject(%d) refused a valid rule", point);
	kz.armed |= 1u << point;
	kz.faulted = true;
	kz.t.faults_armed++;
}

static void op_role(bool in_poll)
{
	int r = kz_u8() % kz.nr_roles, cpu;

	if (in_poll || kz_in_softirq() || r == kz.role) {
		kz.t.skipped++;
		return;
	}
	pp_thread_unregister();
	cpu = pp_thread_register(KZ_CPU_BASE + r);
	if (cpu != KZ_CPU_BASE + r)
		kz_fail(PPINV_API, "pp_thread_register(%d) = %d", KZ_CPU_BASE + r, cpu);
	kz.role = r;
	kz.t.role_switches++;
}

static void op_bh(bool in_poll)
{
	uint8_t on = kz_u8() & 1;

	if (in_poll) {
		kz.t.skipped++;
	} else if (on && kz.bh < 2) {
		local_bh_disable();
		kz.bh++;
	} else if (!on && kz.bh > 0) {
		local_bh_enable();
		kz.bh--;
	}
}

static bool poll_ran;

static int kz_napi_poll(struct napi_struct *napi, int budget)
{
	int ri;

	(void)budget;
	poll_ran = true;
	for (ri = 0; ri < KZ_MAX_POOLS; ri++)
		if (kz.pools[ri].state == KZ_ACTIVE && &kz.pools[ri].napi == napi)
			break;
	kz.poll_rec = ri < KZ_MAX_POOLS ? ri : -1;
	while (kz.poll_left > 0 && kz_more() && kz.nops < KZ_MAX_OPS) {
		kz.poll_left--;
		kz_run_op(true);
	}
	kz.poll_rec = -1;
	napi_complete_done(napi, 0);
	return 0;
}

/* NAPI_POLL slot n: the next n % 8 + 1 operations run inside the pool's
 * own NAPI poll (softirq, the pool's consumer, napi-local recycling). */
static void op_napi_poll(bool in_poll)
{
	uint8_t s = kz_u8(), n = kz_u8();
	struct kz_pool *r = consumer_rec(s, NULL);

	if (in_poll || kz_in_softirq() || !r || !r->napi_on) {
		kz.t.skipped++;
		return;
	}
	kz.poll_left = 1 + n % 8;
	poll_ran = false;
	if (!napi_schedule(&r->napi))
		kz_fail(PPINV_API, "napi_schedule() of an idle NAPI failed");
	pp_net_rx_action();
	if (!poll_ran)
		kz_fail(PPINV_API, "the scheduled NAPI poll did not run");
	kz.t.polls++;
	kz_settle_zombies();
}

static void op_run_work(bool in_poll)
{
	if (in_poll || kz_in_softirq()) {
		kz.t.skipped++;
		return;
	}
	kz_run_release();
}

/* SYNC_CPU item off len: page_pool_dma_sync_for_cpu() on a held page of
 * a live DMA-mapping pool, inside its buffer. */
static void op_sync_cpu(void)
{
	struct kz_page *e = kz_pick(kz_u8());
	uint8_t off = kz_u8(), len = kz_u8();
	struct kz_pool *r;

	if (!e || (r = &kz.pools[e->rec])->state != KZ_ACTIVE || !r->dma_map) {
		kz.t.skipped++;
		return;
	}
	sync_for_cpu(r, e->nm, off & 1 ? e->offset : off * 16u, (unsigned int)len * 24u);
}

/*
 * BURST slot n how: what a NAPI poll does with a burst of frames in
 * softirq on the consumer: allocate n + 1 pages (at most 64), then put
 * them all back - recycled directly (how bit 0), or through the ring.
 */
static void op_burst(void)
{
	uint8_t s = kz_u8(), n = kz_u8() % 64 + 1, how = kz_u8();
	netmem_ref got[64];
	struct kz_cause cause;
	struct kz_pool *r;
	bool bh = false;
	int ri, k = 0, i;

	r = consumer_rec(s, &ri);
	if (!r) {
		kz.t.skipped++;
		return;
	}
	if (!kz_in_softirq()) {
		local_bh_disable();
		kz.bh++;
		bh = true;
	}
	for (i = 0; i < n; i++) {
		struct page *page;

		cause_snap(&cause, r);
		page = page_pool_dev_alloc_pages(r->pool);
		if (!page) {
			null_needs_cause(&cause, r, "a burst allocation");
			break;
		}
		got[k++] = page_to_netmem(page);
		kz_take(ri, got[k - 1], false, 0, PAGE_SIZE << r->order);
	}
	for (i = k - 1; i >= 0; i--) {
		struct kz_page *e;
		int j;

		for (j = 0, e = NULL; j < kz.nr_pages; j++)
			if (kz.pages[j].nm == got[i])
				e = &kz.pages[j];
		if (how & 1)
			page_pool_recycle_direct(r->pool, netmem_to_page(got[i]));
		else
			page_pool_put_full_page(r->pool, netmem_to_page(got[i]), false);
		kz_put_ref(e, (how & 1) || kz_napi_local(ri));
	}
	if (bh) {
		local_bh_enable();
		kz.bh--;
	}
}

/* UPDATE_NID slot nid how: the pool's NUMA node changes, in softirq on the
 * consumer (the kernel's "appropriate safe context"); how bit 0: through
 * page_pool_nid_changed(). */
static void op_update_nid(void)
{
	uint8_t s = kz_u8(), n = kz_u8(), how = kz_u8();
	struct kz_pool *r = consumer_rec(s, NULL);
	int nid = KZ_PICK(nids, n);

	if (!r) {
		kz.t.skipped++;
		return;
	}
	local_bh_disable();
	if (how & 1 && nid != NUMA_NO_NODE)
		page_pool_nid_changed(r->pool, nid);
	else
		page_pool_update_nid(r->pool, nid);
	local_bh_enable();
}

/* A whole page (not a fragment: the pool holds references of its own on
 * its current fragment page) whose page_pool references are all the
 * model's. */
static struct kz_page *pick_whole(uint8_t b)
{
	int i, n = kz.nr_pages;

	for (i = 0; i < n; i++) {
		struct kz_page *e = &kz.pages[(b + i) % n];

		if (e->refs && !e->frag && e->nm != kz.pools[e->rec].frag_nm)
			return e;
	}
	return NULL;
}

/* SPLIT item n: the driver splits a page it alone holds into n % 8 + 2
 * references (mlx5 and others hand pieces of one page to the stack). */
static void op_split(void)
{
	struct kz_page *e = pick_whole(kz_u8());
	uint8_t n = kz_u8() % 8 + 2;

	if (!e || e->refs != 1) {
		kz.t.skipped++;
		return;
	}
	page_pool_fragment_netmem(e->nm, n);
	e->refs = n;
	kz.t.splits++;
}

/* UNREF item k how: k % refs + 1 references dropped at once, as a driver
 * drains the bias it kept; when that was all of them the page goes back
 * with page_pool_put_unrefed_netmem() (allow_direct as for PUT). */
static void op_unref(void)
{
	struct kz_page *e = pick_whole(kz_u8());
	uint8_t k = kz_u8(), how = kz_u8();
	struct kz_pool *r;
	long ret, want;
	bool direct;
	int nr;

	if (!e) {
		kz.t.skipped++;
		return;
	}
	r = &kz.pools[e->rec];
	nr = k % e->refs + 1;
	want = e->refs - nr;
	ret = page_pool_unref_netmem(e->nm, nr);
	if (ret != want)
		kz_fail(PPINV_API, "page_pool_unref_netmem(%#lx, %d) = %ld with %d reference(s) held",
			(unsigned long)e->nm, nr, ret, e->refs);
	if (want) {
		e->refs -= nr;
		return;
	}
	/* The last one: the caller gives the page back unrefed. */
	e->refs = 1;
	direct = (how & 1) && kz_can_direct(r);
	page_pool_put_unrefed_netmem(r->pool, e->nm, -1, direct);
	kz_put_ref(e, direct || kz_napi_local((int)(r - kz.pools)));
	kz_settle_zombies();
}

void kz_run_op(bool in_poll)
{
	size_t at = kz.pos;
	enum kz_op op = (enum kz_op)(kz_u8() % KZ_OP_NR);

	static int trace = -1;

	if (trace < 0)
		trace = getenv("PP_FUZZ_TRACE") != NULL;
	kz.nops++;
	kz.t.ops++;
	/* PP_FUZZ_TRACE: each operation as it runs, for a crash that stops
	 * the process before the model's state is printed. */
	if (trace)
		fprintf(stderr, "fuzz-kapi: op %lu: %d at byte %zu%s\n", kz.nops, op, at,
			in_poll ? " (in NAPI poll)" : "");
	switch (op) {
	case KZ_OP_CREATE:	op_create(in_poll); break;
	case KZ_OP_ALLOC:	op_alloc(); break;
	case KZ_OP_PUT:		op_put(); break;
	case KZ_OP_BULK:	op_bulk(); break;
	case KZ_OP_GET_PAGE:	op_get_page(); break;
	case KZ_OP_PUT_PAGE:	op_put_page(); break;
	case KZ_OP_PP_REF:	op_pp_ref(); break;
	case KZ_OP_DESTROY:	op_destroy(in_poll); break;
	case KZ_OP_UNBIND:	op_unbind(in_poll); break;
	case KZ_OP_REBIND:	op_rebind(in_poll); break;
	case KZ_OP_FAULT:	op_fault(); break;
	case KZ_OP_ROLE:	op_role(in_poll); break;
	case KZ_OP_BH:		op_bh(in_poll); break;
	case KZ_OP_NAPI_POLL:	op_napi_poll(in_poll); break;
	case KZ_OP_RUN_WORK:	op_run_work(in_poll); break;
	case KZ_OP_SYNC_CPU:	op_sync_cpu(); break;
	case KZ_OP_BURST:	op_burst(); break;
	case KZ_OP_UPDATE_NID:	op_update_nid(); break;
	case KZ_OP_SPLIT:	op_split(); break;
	case KZ_OP_UNREF:	op_unref(); break;
	case KZ_OP_NR:		break;
	}
	kz_check_all();
}
