/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * simnic end to end: every XDP verdict (PASS, DROP, TX, ABORTED, an
 * unknown one, REDIRECT by ifindex and by devmap to a second simnic) on
 * each RX memory mode and both DMA backends, with the page cache on and
 * off, bulk and one-by-one TX completion, the completion on the RX CPU
 * and on a second logical CPU. Each case sends traffic, quiesces, and
 * checks the counters against what was sent, simnic_check_accounting(),
 * then stops and destroys the devices and checks that no pool is left,
 * every page is home and the DMA-API debug layer saw no violation.
 * A DMA fault test: a buffer the device cannot write (unmapped, or mapped
 * for the wrong direction) under the IOMMU is counted and its page comes
 * back.
 */
#include "simnic_test.h"

#define ROUNDS		40
#define BURST		48

enum st_verdict { V_PASS, V_DROP, V_TX, V_ABORTED, V_UNKNOWN, V_REDIR_IFINDEX, V_REDIR_MAP,
		  V_NR };

static const char *const v_name[V_NR] = {
	"pass", "drop", "tx", "aborted", "unknown", "redirect-ifindex", "redirect-devmap",
};

struct st_case {
	enum simnic_dma dma;
	enum simnic_rx_mem mem;
	enum st_verdict v;
	bool cache, bulk, remote;	/* remote: TX completion on another CPU */
	unsigned int nr_queues;
};

/* What the TX side took of @sent frames. With the completion on another
 * CPU the ring may fill before that CPU runs (2 vCPUs shared with other
 * work): then ndo_xdp_xmit takes fewer, and the rest are refused. */
static void assert_tx(const struct simnic_stats *s, u64 sent, bool remote)
{
	if (remote) {
		assert_int_equal(s->tx_xmit + s->tx_refused, sent);
		assert_true(s->tx_xmit > 0);
	} else {
		assert_int_equal(s->tx_xmit, sent);
		assert_int_equal(s->tx_refused, 0);
	}
	assert_int_equal(s->tx_completed, s->tx_xmit);
	assert_int_equal(s->tx_dma_faults, 0);
}

static void run_case(const struct st_case *c)
{
	struct simnic_config cfg = {
		.dma = c->dma, .rx_mem = c->mem, .page_cache = c->cache,
		.tx_bulk_return = c->bulk, .nr_queues = c->nr_queues,
		.rx_ring_size = 256, .tx_ring_size = 512, .pkt_len = 60 + c->v * 50,
	};
	unsigned long viol = pp_dma_violations(NULL), warns = pp_warn_count();
	bool redirect = c->v == V_REDIR_IFINDEX || c->v == V_REDIR_MAP;
	struct st_prog_arg arg = { 0 };
	struct simnic *rx, *tx = NULL, *both[2];
	struct bpf_map *map = NULL;
	struct simnic_stats rs, ts;
	struct pp_dma_stats ds;
	struct bpf_prog *prog;
	struct st_cpu cpu1;
	u64 sent = 0;
	unsigned int r, q;

	rx = simnic_create(&cfg);
	assert_false(IS_ERR(rx));
	assert_int_equal(simnic_open(rx), 0);
	if (redirect) {
		tx = simnic_create(&cfg);
		assert_false(IS_ERR(tx));
		assert_int_equal(simnic_open(tx), 0);
		/* The target needs no program of its own (ndo_xdp_xmit). */
		arg.ifindex = simnic_netdev(tx)->ifindex;
		if (c->v == V_REDIR_MAP) {
			map = pp_devmap_create(4);
			assert_false(IS_ERR(map));
			assert_int_equal(pp_devmap_update(map, 0, arg.ifindex), 0);
			arg.map = map;
			arg.ifindex = 0;
		}
	}
	switch (c->v) {
	case V_PASS: arg.act = XDP_PASS; break;
	case V_DROP: arg.act = XDP_DROP; break;
	case V_TX: arg.act = XDP_TX; break;
	case V_ABORTED: arg.act = XDP_ABORTED; break;
	case V_UNKNOWN: arg.act = 77; break;
	default: arg.act = XDP_REDIRECT; break;
	}
	prog = pp_xdp_prog_create(st_prog_fn, &arg, v_name[c->v]);
	assert_false(IS_ERR(prog));
	/* Attached while up: the queues restart bidirectional. */
	assert_int_equal(simnic_set_xdp(rx, prog), 0);

	if (c->remote) {
		/* The TX completion of every queue goes to CPU 1, which
		 * services concurrently with the RX CPU. */
		struct simnic *t = tx ? tx : rx;
		int cpu = st_cpu_start(&cpu1);

		assert_true(cpu != smp_processor_id());
		for (q = 0; q < c->nr_queues; q++)
			assert_int_equal(simnic_set_irq_affinity(t, q, SIMNIC_IRQ_TXC, cpu), 0);
	}
	for (q = 0; q < c->nr_queues; q++)	/* RX on CPU 0, whatever the queue */
		assert_int_equal(simnic_set_irq_affinity(rx, q, SIMNIC_IRQ_RX, 0), 0);

	for (r = 0; r < ROUNDS; r++) {
		for (q = 0; q < c->nr_queues; q++)
			sent += simnic_wire_rx(rx, q, BURST);
		simnic_service();
	}
	if (c->remote)
		st_cpu_stop(&cpu1);
	both[0] = rx;
	both[1] = tx;
	assert_int_equal(simnic_quiesce(both, tx ? 2 : 1), 0);
	st_assert_accounting(rx, tx);

	assert_int_equal(simnic_get_stats(rx, &rs), 0);
	if (getenv("SIMNIC_VERBOSE"))
		fprintf(stderr, "  rx %llu pass %llu drop %llu tx %llu redir %llu aborted %llu "
			"redir_err %llu xmit %llu refused %llu done %llu hits %llu\n",
			(unsigned long long)rs.rx_packets, (unsigned long long)rs.xdp_pass,
			(unsigned long long)rs.xdp_drop, (unsigned long long)rs.xdp_tx,
			(unsigned long long)rs.xdp_redirect, (unsigned long long)rs.xdp_aborted,
			(unsigned long long)rs.redirect_errors, (unsigned long long)rs.tx_xmit,
			(unsigned long long)rs.tx_refused, (unsigned long long)rs.tx_completed,
			(unsigned long long)rs.cache_hits);
	assert_int_equal(sent, (u64)ROUNDS * BURST * c->nr_queues);
	assert_int_equal(rs.rx_packets, sent);
	assert_int_equal(rs.rx_missed, 0);
	assert_int_equal(rs.rx_dma_faults, 0);
	assert_int_equal(arg.runs, sent);
	switch (c->v) {
	case V_PASS:
		assert_int_equal(rs.xdp_pass, sent);
		break;
	case V_DROP:
		assert_int_equal(rs.xdp_drop, sent);
		break;
	case V_TX:
		assert_int_equal(rs.xdp_tx, sent);
		assert_tx(&rs, sent, c->remote);
		break;
	case V_ABORTED:
		assert_int_equal(rs.xdp_aborted, sent);
		break;
	case V_UNKNOWN:
		assert_int_equal(rs.xdp_aborted, sent);
		assert_true(pp_warn_count() > warns || kapi_logged("77"));
		break;
	default:
		assert_int_equal(rs.xdp_redirect, sent);
		assert_int_equal(rs.redirect_errors, 0);
		assert_int_equal(simnic_get_stats(tx, &ts), 0);
		assert_tx(&ts, sent, c->remote);
		assert_int_equal(ts.rx_packets, 0);
		break;
	}
	if (c->cache && c->mem != SIMNIC_RX_PAGE_ALLOC && c->v != V_REDIR_MAP &&
	    c->v != V_REDIR_IFINDEX && !c->remote)
		/* Pages given back in the poll are free again at the next
		 * refill: the cache serves. */
		assert_true(rs.cache_hits > 0);

	/* What the device wrote was synced for the CPU before the program
	 * looked (the simulated devices are coherent, so only the count
	 * shows it); SIMNIC_RX_PAGE_ALLOC's unmap syncs (not counted as
	 * a sync). */
	assert_int_equal(pp_dma_get_stats(simnic_dma_device(rx), &ds), 0);
	if (c->mem != SIMNIC_RX_PAGE_ALLOC)
		assert_true(ds.syncs_for_cpu >= rs.rx_packets);
	assert_int_equal(ds.map_errors, 0);
	if (c->mem != SIMNIC_RX_PAGE_ALLOC && !c->cache) {
		struct page_pool_stats ps;

		memset(&ps, 0, sizeof(ps));
		for (q = 0; q < c->nr_queues; q++)
			assert_int_equal(pp_page_pool_get_stats_by_id(simnic_rx_pool_id(rx, q),
								      &ps), 0);
		if (c->mem == SIMNIC_RX_PAGE_POOL_NO_RECYCLE) {
			/* Every page given back was released, none recycled:
			 * each buffer came from the page allocator. */
			assert_int_equal(ps.recycle_stats.cached + ps.recycle_stats.ring, 0);
			assert_true(ps.alloc_stats.fast + ps.alloc_stats.slow >= sent);
		} else if (!c->remote || c->v < V_TX) {
			/* Recycled: nearly every buffer came from the pool. */
			assert_true(ps.recycle_stats.cached + ps.recycle_stats.ring > 0);
			assert_true(ps.alloc_stats.slow < sent / 2);
		}
	}

	assert_int_equal(simnic_set_xdp(rx, NULL), 0);
	pp_xdp_prog_destroy(prog);
	assert_int_equal(simnic_stop(rx), 0);
	simnic_destroy(rx);
	if (tx) {
		assert_int_equal(simnic_stop(tx), 0);
		simnic_destroy(tx);
	}
	pp_devmap_destroy(map);
	st_assert_clean(viol);
}

static const enum simnic_rx_mem mems[] = {
	SIMNIC_RX_PAGE_POOL, SIMNIC_RX_PAGE_POOL_NO_RECYCLE, SIMNIC_RX_PAGE_ALLOC,
};

static void test_matrix(enum simnic_dma dma)
{
	unsigned int m, v, k;

	for (m = 0; m < ARRAY_SIZE(mems); m++) {
		for (v = 0; v < V_NR; v++) {
			for (k = 0; k < 4; k++) {
				struct st_case c = {
					.dma = dma, .mem = mems[m], .v = (enum st_verdict)v,
					.cache = k & 1, .bulk = !(k & 2), .remote = k & 2,
					.nr_queues = 1 + (k == 3),
				};

				if (getenv("SIMNIC_VERBOSE"))
					fprintf(stderr, "dma %d mem %d %s cache %d bulk %d remote %d nq %u\n",
						dma, mems[m], v_name[v], c.cache, c.bulk, c.remote,
						c.nr_queues);
				run_case(&c);
				c.bulk = !c.bulk;
				if (c.remote)
					run_case(&c);
			}
		}
	}
}

static void test_iommu(void **state)
{
	(void)state;
	test_matrix(SIMNIC_DMA_IOMMU);
}

static void test_direct(void **state)
{
	(void)state;
	test_matrix(SIMNIC_DMA_DIRECT);
}

/* The device writes into a buffer it cannot reach; the driver counts it
 * and the page comes back. */
static void test_dma_fault(void **state)
{
	static const enum simnic_fault faults[] = {
		SIMNIC_FAULT_RX_UNMAPPED, SIMNIC_FAULT_RX_WRONG_DIR,
	};
	struct simnic_config cfg = {
		.dma = SIMNIC_DMA_IOMMU, .rx_mem = SIMNIC_RX_PAGE_ALLOC, .rx_ring_size = 64,
	};
	unsigned long viol = pp_dma_violations(NULL);
	unsigned int f;

	(void)state;
	for (f = 0; f < ARRAY_SIZE(faults); f++) {
		struct simnic *nic = simnic_create(&cfg);
		struct simnic_stats st;
		u64 sent = 0;
		int i;

		assert_false(IS_ERR(nic));
		/* The pool maps in the pool modes: nothing to inject. */
		{
			struct simnic_config pc = cfg;
			struct simnic *p;

			pc.rx_mem = SIMNIC_RX_PAGE_POOL;
			p = simnic_create(&pc);
			assert_false(IS_ERR(p));
			assert_int_equal(simnic_inject_fault(p, 0, faults[f]), -EOPNOTSUPP);
			simnic_destroy(p);
		}
		assert_int_equal(simnic_inject_fault(nic, 1, faults[f]), -EINVAL);
		assert_int_equal(simnic_open(nic), 0);
		/* The ring is full: the next buffer posted is the one after
		 * the first packet's. */
		assert_int_equal(simnic_inject_fault(nic, 0, faults[f]), 0);
		for (i = 0; i < 4; i++) {
			sent += simnic_wire_rx(nic, 0, 64);
			simnic_service();
		}
		assert_int_equal(simnic_quiesce(&nic, 1), 0);
		st_assert_accounting(nic, NULL);
		assert_int_equal(simnic_get_stats(nic, &st), 0);
		assert_int_equal(st.rx_packets, sent);
		assert_int_equal(st.rx_dma_faults, 1);
		assert_int_equal(st.xdp_pass, sent - 1);
		assert_int_equal(simnic_stop(nic), 0);
		simnic_destroy(nic);
		st_assert_clean(viol);
	}
}

/* Bad arguments: clear errors, nothing created. */
static void test_bad_config(void **state)
{
	struct simnic_config bad[] = {
		{ .nr_queues = SIMNIC_MAX_QUEUES + 1 },
		{ .rx_ring_size = 1000 },
		{ .tx_ring_size = 3 },
		{ .pkt_len = 8 },
		{ .pkt_len = 4096 },
		{ .dma = (enum simnic_dma)7 },
		{ .rx_mem = (enum simnic_rx_mem)9 },
	};
	struct simnic_config ok = { .dma = SIMNIC_DMA_DIRECT, .rx_mem = SIMNIC_RX_PAGE_POOL };
	struct simnic *nic;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(PTR_ERR(simnic_create(&bad[i])), -EINVAL);
	assert_int_equal(PTR_ERR(simnic_create(NULL)), -EINVAL);
	nic = simnic_create(&ok);
	assert_false(IS_ERR(nic));
	assert_int_equal(simnic_stop(nic), -ENETDOWN);
	assert_int_equal(simnic_pp_hold(nic, true), -ENETDOWN);
	assert_int_equal(simnic_pp_hold(nic, false), -ENOENT);
	assert_int_equal(simnic_set_irq_affinity(nic, 1, SIMNIC_IRQ_RX, 0), -EINVAL);
	assert_int_equal(simnic_set_irq_affinity(nic, 0, SIMNIC_IRQ_RX, -1), -EINVAL);
	/* Down: the wire's packets are missed. */
	assert_int_equal(simnic_wire_rx(nic, 0, 10), 0);
	assert_int_equal(simnic_open(nic), 0);
	assert_int_equal(simnic_open(nic), -EBUSY);
	simnic_destroy(nic);		/* up: destroy stops it */
	st_assert_clean(pp_dma_violations(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_iommu),
		cmocka_unit_test(test_direct),
		cmocka_unit_test(test_dma_fault),
	};

	kapi_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
