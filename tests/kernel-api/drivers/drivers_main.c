/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Runs the kernel-style drivers of this directory against the simulated
 * NIC, so they are not only compiled: kdring (netsec/cpsw style) on a
 * DMA-debug IOMMU device, kdvq (veth/netdevsim style) as its redirect
 * target. Frames carry their fate in their first two bytes - what the
 * XDP program on kdring does with them, then the one on kdvq - and the
 * test checks every outcome: the bytes the stack received, the bytes the
 * NIC transmitted (XDP_TX from a page_pool page, ndo_xdp_xmit of a mapped
 * frame, a multi-buffer frame as a scatterlist), the drops, the
 * counters ethtool reports, and that teardown leaves every page home and
 * no DMA-API violation behind. Built as an outside user builds (run.sh).
 */
#include "../kapi.h"

#include <linux/dma-mapping.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <net/xdp.h>

#include "kdrv.h"

#define MAX_SEQ		1024
#define MAX_FRAME	1514

/* ---- The frames ---- */

static u32 frame_len(u16 seq)
{
	return 60 + (seq * 37u) % (MAX_FRAME - 60);
}

static void make_frame(u8 *f, u16 seq, char at_ring, char at_vq)
{
	u32 i, len = frame_len(seq);

	f[0] = (u8)at_ring;
	f[1] = (u8)at_vq;
	f[2] = (u8)(seq & 0xff);
	f[3] = (u8)(seq >> 8);
	for (i = 4; i < len; i++)
		f[i] = (u8)(seq + i);
}

/* ---- The XDP programs ---- */

struct test_prog {
	struct kd_xdp_prog prog;
	unsigned int byte;		/* which byte holds the verdict */
	unsigned long meta_unsupported, meta_added, bad_meta;
};

static u32 verdict_of(char c)
{
	switch (c) {
	case 'P': return XDP_PASS;
	case 'D': return XDP_DROP;
	case 'T': return XDP_TX;
	case 'R': return XDP_REDIRECT;
	case 'A': return XDP_ABORTED;
	default: return 1000;		/* no such action */
	}
}

static u32 run_prog(const struct kd_xdp_prog *p, struct xdp_buff *xdp)
{
	struct test_prog *tp = container_of(p, struct test_prog, prog);
	u8 *d = xdp->data;
	u32 act = verdict_of((char)d[tp->byte]);

	if (tp->byte == 0) {
		/* On kdring: queue 0 (netsec) has no metadata; queue 1
		 * (cpsw) takes 8 bytes of it on redirected frames. */
		if (xdp_data_meta_unsupported(xdp)) {
			tp->meta_unsupported++;
		} else if (act == XDP_REDIRECT) {
			if (xdp_metalen_invalid(8)) {
				tp->bad_meta++;
			} else {
				xdp->data_meta = (char *)xdp->data - 8;
				memset(xdp->data_meta, 0xee, 8);
				tp->meta_added++;
			}
		}
		if (act == XDP_TX)
			d[4] ^= 0xff;		/* what the NIC must send */
	} else if (act == XDP_TX) {
		d[5] ^= 0x0f;
	}
	return act;
}

static struct test_prog ring_prog = { .prog = { .run = run_prog }, .byte = 0 };
static struct test_prog vq_prog = { .prog = { .run = run_prog }, .byte = 1 };

/* ---- The stack ---- */

struct stack_pkt {
	struct page *page;
	u32 offset, len;
};

static struct stack_pkt stack_q[MAX_SEQ];
static unsigned int stack_n, stack_ok, stack_bad;

static void stack_rx(struct net_device *dev, struct page *page, u32 offset, u32 len)
{
	(void)dev;
	if (stack_n < MAX_SEQ)
		stack_q[stack_n++] = (struct stack_pkt){ page, offset, len };
}

/* The stack frees its skbs: half one by one through page->pp as
 * netdevsim does, half in one netmem bulk. Outside any NAPI. */
static void stack_drain(void)
{
	netmem_ref bulk[MAX_SEQ];
	unsigned int i, nb = 0;

	for (i = 0; i < stack_n; i++) {
		struct stack_pkt *p = &stack_q[i];
		const u8 *d = (const u8 *)page_address(p->page) + p->offset;
		u16 seq = (u16)(d[2] | d[3] << 8);
		u8 want[MAX_FRAME];

		make_frame(want, seq, (char)d[0], (char)d[1]);
		if (p->len == frame_len(seq) && !memcmp(d, want, p->len))
			stack_ok++;
		else
			stack_bad++;
		if (i & 1)
			bulk[nb++] = page_to_netmem(p->page);
		else
			page_pool_put_full_page(kd_page_pool(p->page), p->page, false);
	}
	if (nb)
		page_pool_put_netmem_bulk(bulk, nb);
	stack_n = 0;
}

/* ---- The bench ---- */

static struct device *pdev;
static struct kd_hw *hw;
static struct net_device *ndev, *vq;

static int bench_up(void **state)
{
	(void)state;
	pdev = pp_device_create("kdrv0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	assert_false(IS_ERR_OR_NULL(pdev));
	hw = sim_nic_create(pdev);
	assert_non_null(hw);
	assert_int_equal(kd_probe(pdev, hw, &ndev), 0);
	vq = vq_create();
	assert_non_null(vq);

	/* struct net_device's dev is the interface's device, its parent
	 * the bus device; DMA goes through the parent. */
	assert_string_equal(dev_name(&ndev->dev), ndev->name);
	assert_ptr_equal(ndev->dev.parent, pdev);
	assert_string_equal(dev_name(pdev), "kdrv0");
	assert_true(dma_get_mask(pdev) == DMA_BIT_MASK(40));

	kd_set_stack(ndev, stack_rx);
	kd_set_xdp_prog(ndev, &ring_prog.prog);
	kd_set_redirect_target(ndev, vq);
	vq_set_peer(vq, ndev);
	vq_set_xdp_prog(vq, &vq_prog.prog);
	assert_int_equal(ndev->netdev_ops->ndo_open(ndev), 0);
	assert_int_equal(vq->netdev_ops->ndo_open(vq), 0);
	return 0;
}

static int bench_down(void **state)
{
	struct pp_dma_stats ds;

	(void)state;
	assert_int_equal(ndev->netdev_ops->ndo_stop(ndev), 0);
	assert_int_equal(vq->netdev_ops->ndo_stop(vq), 0);
	vq_destroy(vq);
	kd_remove(ndev);
	kapi_assert_all_pages_home();

	pp_dma_get_stats(pdev, &ds);
	assert_int_equal(ds.live_mappings, 0);
	assert_true(ds.maps > 0 && ds.syncs_for_cpu > 0 && ds.syncs_for_device > 0);
	assert_int_equal(sim_nic_faults(hw), 0);
	assert_int_equal(pp_dma_violations(NULL), 0);
	sim_nic_destroy(hw);
	pp_device_destroy(pdev);
	return 0;
}

/* What the NIC must have sent for @seq, by the two verdicts. */
static bool tx_expected(u16 seq, char r, char v, u8 *want, u32 *segs_min)
{
	make_frame(want, seq, r, v);
	*segs_min = 1;
	if (r == 'T') {
		want[4] ^= 0xff;
		return true;
	}
	if (r != 'R')
		return false;
	if (v == 'T') {
		want[5] ^= 0x0f;
		return true;
	}
	if (v == 'R') {
		*segs_min = frame_len(seq) > 64 ? 2 : 1;
		return true;
	}
	return false;
}

static const char ring_verdicts[] = "PDTRAXRRRR";
static const char vq_verdicts[] = "PDTR";

static void test_traffic(void **state)
{
	unsigned int tx_seen[MAX_SEQ] = { 0 };
	unsigned long want_pass = 0, want_drop = 0, want_tx = 0, want_redir = 0,
		      want_invalid = 0, want_vq_pass = 0, want_vq_drop = 0, want_mb = 0,
		      want_sent = 0;
	unsigned int round, i, t, tx_base = sim_nic_tx_count(hw);
	struct vq_counters vc;
	u16 seq = 0;

	(void)state;
	for (round = 0; round < 16; round++) {
		for (i = 0; i < 24; i++, seq++) {
			char r = ring_verdicts[seq % (sizeof(ring_verdicts) - 1)];
			char v = vq_verdicts[(seq / 3) % (sizeof(vq_verdicts) - 1)];
			u8 f[MAX_FRAME], want[MAX_FRAME];
			u32 segs;

			make_frame(f, seq, r, v);
			assert_int_equal(sim_nic_rx(hw, seq % 2, f, frame_len(seq), false), 0);
			if (tx_expected(seq, r, v, want, &segs))
				want_sent++;
			switch (r) {
			case 'P': want_pass++; break;
			case 'T': want_tx++; break;
			case 'R':
				want_redir++;
				if (v == 'P')
					want_vq_pass++;
				else if (v == 'D')
					want_vq_drop++;
				else if (v == 'R')
					want_mb++;
				break;
			case 'X': want_invalid++; want_drop++; break;
			default: want_drop++; break;
			}
		}
		sim_nic_kick(hw);		/* RX poll, redirect, kdvq poll */
		sim_nic_tx_run(hw);		/* the wire */
		sim_nic_kick(hw);		/* TX completion */
		stack_drain();
		assert_int_equal(sim_nic_faults(hw), 0);
	}

	/* Every frame the NIC sent is one we expected, byte for byte. */
	for (t = tx_base; t < sim_nic_tx_count(hw); t++) {
		const struct sim_tx_frame *f = sim_nic_tx_frame(hw, t);
		u16 s = (u16)(f->data[2] | f->data[3] << 8);
		u8 want[MAX_FRAME];
		u32 segs;

		assert_true(s < seq);
		assert_true(tx_expected(s, (char)f->data[0], (char)f->data[1], want, &segs));
		assert_int_equal(f->len, frame_len(s));
		assert_memory_equal(f->data, want, f->len);
		assert_true(f->segs >= segs);
		tx_seen[s]++;
	}
	assert_int_equal(sim_nic_tx_count(hw) - tx_base, want_sent);
	for (t = 0; t < seq; t++)
		assert_true(tx_seen[t] <= 1);

	assert_int_equal(stack_bad, 0);
	assert_int_equal(stack_ok, want_pass);
	assert_int_equal(ndev->stats.rx_packets, seq);
	assert_int_equal(ndev->stats.tx_packets, want_sent);
	assert_true(ring_prog.meta_unsupported > 0);	/* queue 0, netsec */
	assert_true(ring_prog.meta_added > 0);		/* queue 1, cpsw */
	assert_int_equal(ring_prog.bad_meta, 0);

	vq_get_counters(vq, &vc);
	assert_int_equal(vc.xdp_packets, want_redir);
	assert_int_equal(vc.xmit_err, 0);
	assert_int_equal(vc.pass, want_vq_pass);
	assert_int_equal(vc.clone_ok, want_vq_pass);
	assert_int_equal(vc.xdp_drops, want_vq_drop);
	assert_int_equal(vc.mb_built, want_mb);
	assert_int_equal(vc.xdp_tx_err, 0);

	/* ethtool -S: the driver's counters, then page_pool's, summed
	 * over both RX queues' pools. */
	{
		int n = kd_get_sset_count(ndev), k;
		u8 (*names)[ETH_GSTRING_LEN] = calloc((size_t)n, ETH_GSTRING_LEN);
		u64 *vals = calloc((size_t)n, sizeof(u64));
		struct page_pool_stats sum;

		assert_int_equal(n, KD_N_DRV_STATS + page_pool_ethtool_stats_get_count());
		kd_get_strings(ndev, &names[0][0]);
		kd_get_ethtool_stats(ndev, vals);
		assert_string_equal((char *)names[0], "xdp_pass");
		assert_string_equal((char *)names[KD_N_DRV_STATS], "rx_pp_alloc_fast");
		assert_int_equal(vals[0], want_pass);
		assert_int_equal(vals[1], want_drop);
		assert_int_equal(vals[2], want_tx);
		assert_int_equal(vals[3], want_redir);
		assert_int_equal(vals[4], want_invalid);
		assert_int_equal(vals[5], want_sent);

		memset(&sum, 0, sizeof(sum));
		for (k = 0; k < KD_NR_RXQ; k++)
			assert_true(page_pool_get_stats(kd_get_page_pool(ndev, (unsigned int)k), &sum));
		assert_int_equal(vals[KD_N_DRV_STATS + 0], sum.alloc_stats.fast);
		assert_int_equal(vals[KD_N_DRV_STATS + 1], sum.alloc_stats.slow);
		assert_int_equal(vals[KD_N_DRV_STATS + 6], sum.recycle_stats.cached);
		assert_int_equal(vals[KD_N_DRV_STATS + 8], sum.recycle_stats.ring);
		/* Refills came from recycled pages, not only from the slow path. */
		assert_true(sum.alloc_stats.fast > 0);
		assert_true(sum.recycle_stats.cached > 0);
		free(names);
		free(vals);
	}
}

/* More frames than descriptors, with no poll between them; a bad frame;
 * a poll that uses its whole budget and runs again. */
static void test_ring_full_and_errors(void **state)
{
	unsigned long missed = sim_nic_rx_missed(hw);
	unsigned long errors = ndev->stats.rx_errors;
	unsigned long rx = ndev->stats.rx_packets;
	u64 before[64], after[64];
	u8 f[MAX_FRAME];
	u16 seq;
	int ok = 0;

	(void)state;
	assert_true(kd_get_sset_count(ndev) <= 64);
	kd_get_ethtool_stats(ndev, before);
	for (seq = 0; seq < 70; seq++) {
		make_frame(f, seq, 'D', 'P');
		if (sim_nic_rx(hw, 0, f, frame_len(seq), false) == 0)
			ok++;
	}
	assert_int_equal(ok, 64);
	assert_int_equal(sim_nic_rx_missed(hw) - missed, 6);
	sim_nic_kick(hw);
	kd_get_ethtool_stats(ndev, after);
	assert_int_equal(after[1] - before[1], 64);	/* xdp_drop */
	assert_int_equal(ndev->stats.rx_packets - rx, 64);

	make_frame(f, 70, 'P', 'P');
	assert_int_equal(sim_nic_rx(hw, 0, f, 100, true), 0);
	make_frame(f, 71, 'P', 'P');
	assert_int_equal(sim_nic_rx(hw, 0, f, frame_len(71), false), 0);
	sim_nic_kick(hw);
	assert_int_equal(ndev->stats.rx_errors - errors, 1);
	assert_int_equal(stack_n, 1);
	stack_drain();
	assert_int_equal(stack_bad, 0);
	assert_int_equal(sim_nic_faults(hw), 0);
}

/* netdevsim's pp_hold: a page held while the pool is destroyed comes
 * home afterwards. */
static void test_pp_hold_across_stop(void **state)
{
	(void)state;
	assert_int_equal(vq_pp_hold(vq, true), 0);
	assert_int_equal(vq->netdev_ops->ndo_stop(vq), 0);
	assert_int_equal(vq_pp_hold(vq, true), 0);	/* still held */
	assert_int_equal(vq_pp_hold(vq, false), 0);
	assert_int_equal(vq->netdev_ops->ndo_open(vq), 0);
	assert_int_equal(vq_pp_hold(vq, true), 0);
	assert_int_equal(vq_pp_hold(vq, false), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_traffic, bench_up, bench_down),
		cmocka_unit_test_setup_teardown(test_ring_full_and_errors, bench_up, bench_down),
		cmocka_unit_test_setup_teardown(test_pp_hold_across_stop, bench_up, bench_down),
	};

	kapi_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
