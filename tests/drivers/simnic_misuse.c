/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * simnic used the way its API allows but its first version got wrong,
 * each a finding of the outside trial:
 *
 *   - the longest pkt_len the configuration accepted (the RX buffer,
 *     3520 bytes) was longer than the frame the device model holds (3072):
 *     the wire read past its frame into the TX engine's buffer, and every
 *     XDP_TX of such a frame was a TX DMA fault. Now the longest accepted
 *     pkt_len is a frame the device can both receive and send, whole;
 *   - simnic_quiesce() with a bad device in its array returned -EINVAL
 *     after it had routed the lines of the devices before it to the
 *     calling CPU, and left them there. Now it checks them all first.
 */
#include "simnic_test.h"

#include <linux/err.h>

static u32 tx_pattern_fn(struct xdp_buff *xdp, void *arg)
{
	unsigned long *bad = arg;
	const u8 *d = xdp->data;
	u32 len = (u32)((u8 *)xdp->data_end - d), k;

	/* The device's frame: byte k is k * 7 (queue 0) past the header and
	 * the sequence number. */
	for (k = 18; k < len; k++)
		if (d[k] != (u8)(k * 7)) {
			(*bad)++;
			break;
		}
	return XDP_TX;
}

static void test_longest_frame(void **state)
{
	unsigned long violations = pp_dma_violations(NULL), bad = 0;
	struct simnic_config cfg = { .dma = SIMNIC_DMA_IOMMU, .rx_mem = SIMNIC_RX_PAGE_POOL };
	struct bpf_prog *prog = pp_xdp_prog_create(tx_pattern_fn, &bad, "pattern");
	struct simnic *nic = ERR_PTR(-EINVAL);
	struct simnic_stats st;
	unsigned int len, got;

	(void)state;
	assert_false(IS_ERR(prog));
	/* The longest pkt_len accepted, whatever it is. */
	for (len = PAGE_SIZE; len >= 18; len--) {
		cfg.pkt_len = len;
		nic = simnic_create(&cfg);
		if (!IS_ERR(nic))
			break;
		assert_int_equal(PTR_ERR(nic), -EINVAL);
	}
	assert_false(IS_ERR(nic));
	print_message("longest pkt_len accepted: %u\n", len);
	assert_int_equal(simnic_set_xdp(nic, prog), 0);
	assert_int_equal(simnic_open(nic), 0);
	got = simnic_wire_rx(nic, 0, 32);
	assert_int_equal(got, 32);
	assert_int_equal(simnic_quiesce(&nic, 1), 0);
	st_assert_accounting(nic, NULL);
	assert_int_equal(simnic_get_stats(nic, &st), 0);
	/* Received whole, sent whole. */
	assert_int_equal(bad, 0);
	assert_int_equal(st.rx_dma_faults, 0);
	assert_int_equal(st.xdp_tx, got);
	assert_int_equal(st.tx_xmit, got);
	assert_int_equal(st.tx_dma_faults, 0);
	simnic_destroy(nic);
	pp_xdp_prog_destroy(prog);
	synchronize_rcu();
	st_assert_clean(violations);
}

static void test_quiesce_bad_array(void **state)
{
	unsigned long violations = pp_dma_violations(NULL);
	struct simnic_config cfg = { .dma = SIMNIC_DMA_DIRECT, .rx_mem = SIMNIC_RX_PAGE_POOL };
	struct simnic *nic = simnic_create(&cfg), *nics[2];
	int other = smp_processor_id() + 1;

	(void)state;
	assert_false(IS_ERR(nic));
	assert_int_equal(simnic_open(nic), 0);
	/* Queue 0's RX line on a CPU nobody services. */
	assert_int_equal(simnic_set_irq_affinity(nic, 0, SIMNIC_IRQ_RX, other), 0);
	nics[0] = nic;
	nics[1] = NULL;
	assert_int_equal(simnic_quiesce(nics, 2), -EINVAL);
	nics[1] = ERR_PTR(-ENOMEM);
	assert_int_equal(simnic_quiesce(nics, 2), -EINVAL);
	/* The line is where it was: this CPU has nothing to deliver. */
	assert_int_equal(simnic_wire_rx(nic, 0, 8), 8);
	assert_int_equal(simnic_service(), 0);
	/* Back here, the packets are received. */
	assert_int_equal(simnic_set_irq_affinity(nic, 0, SIMNIC_IRQ_RX, smp_processor_id()), 0);
	assert_int_equal(simnic_quiesce(&nic, 1), 0);
	st_assert_accounting(nic, NULL);
	simnic_destroy(nic);
	st_assert_clean(violations);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_longest_frame),
		cmocka_unit_test(test_quiesce_bad_array),
	};

	kapi_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
