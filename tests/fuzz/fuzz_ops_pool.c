/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The fuzz harness's pool life-cycle operations: creating a pool with any
 * parameters (valid ones of the kinds drivers use, or anything at all,
 * checked against page_pool_init()'s rules), destroying it with pages in
 * flight, a driver's remove (its pools destroyed, the device unbound) and
 * probe again, and the pool's NUMA node changing.
 */
#include <errno.h>
#include <string.h>

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

void fz_op_create(bool in_poll)
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

void fz_op_destroy(bool in_poll)
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
void fz_op_unbind(bool in_poll)
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

void fz_op_rebind(void)
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

void fz_op_update_nid(void)
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
