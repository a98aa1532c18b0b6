/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The simulated NIC itself: per queue an RX engine fed by the wire, a TX
 * engine run by the doorbell, two interrupt lines, and the interrupt
 * controller that delivers lines on the CPU they are routed to. Like
 * hardware it knows only bus addresses: descriptors and buffers are read
 * and written with pp_dma_device_read()/write(), through the IOMMU under
 * that backend, so a buffer that is not mapped, or mapped in the wrong
 * direction, is a fault the device reports in the descriptor, never a
 * silent success.
 *
 * The device runs inline, on the CPU that drives it: the wire is a call
 * made on the flow's CPU before its softirqs run, and the TX engine sends
 * at the doorbell, inside ndo_xdp_xmit's flush or the RX poll's XDP_TX
 * doorbell. With 2 cores a flow is one CPU, and a device thread would
 * take the other core from the CPU that returns the frames.
 */
#include <linux/bug.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <pagepool.h>

#include "simnic_hw.h"

/* ---- The clock of the line-rate cap ---- */

#if defined(__x86_64__) || defined(__i386__)
static u64 simnic_tsc(void)
{
	return __builtin_ia32_rdtsc();
}
#else
static u64 simnic_tsc(void)
{
	return ktime_get_ns();
}
#endif

static u64 simnic_tsc_hz;	/* written once, under simnic_irq_lock */

/* TSC ticks per second, measured against the monotonic clock over 5 ms. */
static void simnic_tsc_calibrate(void)
{
	u64 t0, t1, c0, c1;

	if (simnic_tsc_hz)
		return;
#if defined(__x86_64__) || defined(__i386__)
	t0 = ktime_get_ns();
	c0 = simnic_tsc();
	do {
		t1 = ktime_get_ns();
	} while (t1 - t0 < 5 * NSEC_PER_MSEC);
	c1 = simnic_tsc();
	WRITE_ONCE(simnic_tsc_hz, max_t(u64, 1, (c1 - c0) * NSEC_PER_SEC / (t1 - t0)));
#else
	(void)t0, (void)t1, (void)c0, (void)c1;
	WRITE_ONCE(simnic_tsc_hz, NSEC_PER_SEC);
#endif
}

/* A token bucket in units of 1/tsc_hz packet: @n packets wanted, how
 * many the line allows now. At most one NAPI budget's worth is saved up
 * while the wire is idle, so a pause does not turn into a burst above
 * line rate. */
#define SIMNIC_BURST	64

static unsigned int simnic_line_take(struct simnic_hw *hw, struct simnic_hw_queue *q,
				     unsigned int n)
{
	u64 hz = READ_ONCE(simnic_tsc_hz), now = simnic_tsc(), dt, have;

	dt = min_t(u64, now - q->last_tsc, hz);
	q->last_tsc = now;
	q->tokens = min_t(u64, q->tokens + dt * hw->rate_pps, SIMNIC_BURST * hz);
	have = q->tokens / hz;
	if (n > have)
		n = (unsigned int)have;
	q->tokens -= (u64)n * hz;
	return n;
}

/* ---- The interrupt controller ---- */

#define SIMNIC_MAX_DEVS	32

static DEFINE_MUTEX(simnic_irq_lock);
/* Readers (simnic_service()) under rcu_read_lock(); writers under the
 * mutex, freeing after a grace period. */
static struct simnic_hw *simnic_devs[SIMNIC_MAX_DEVS];

/*
 * The controller's per-CPU summary: "some line routed to this CPU was
 * raised", one cache line per CPU. An idle CPU polling for interrupts
 * (a TX-completion CPU between bursts) reads only its own word; scanning
 * every device's lines instead kept pulling in lines the flow's CPU writes
 * per burst, and cross-CPU completion ran at a third of the same-CPU rate
 * on this 2-vCPU guest (bench_xdp_redirect cache=0 scenarios=16).
 */
struct simnic_cpu_summary {
	atomic_t raised;
} ____cacheline_aligned;

static struct simnic_cpu_summary simnic_summary[NR_CPUS];

static void simnic_summary_flag(int cpu)
{
	if (cpu >= 0 && cpu < NR_CPUS && !atomic_read(&simnic_summary[cpu].raised))
		atomic_set_release(&simnic_summary[cpu].raised, 1);
}

void simnic_irq_raise(struct simnic_irq_line *line)
{
	/* I1 (release): the device's head write-back before it, which the
	 * NAPI the handler schedules reads. Pairs with I1' in
	 * simnic_irq_deliver_local(). */
	atomic_set_release(&line->pending, 1);
	/* S1: pending before the routing is read; pairs with S2 in
	 * simnic_irq_set_cpu(): a line moved meanwhile is flagged on its new
	 * CPU by one side or the other. */
	smp_mb();
	simnic_summary_flag(READ_ONCE(line->cpu));
}

void simnic_irq_set_cpu(struct simnic_irq_line *line, int cpu)
{
	WRITE_ONCE(line->cpu, cpu);
	smp_mb();	/* S2: the routing before pending is read */
	if (atomic_read(&line->pending))
		simnic_summary_flag(cpu);
}

bool simnic_irq_pending(const struct simnic_irq_line *line)
{
	return atomic_read(&line->pending) != 0;
}

unsigned int simnic_irq_deliver_local(void)
{
	int cpu = smp_processor_id();
	unsigned int i, j, n = 0;

	/* S3 (fully ordered): cleared before the lines are read, so a raise
	 * after this read of a line flags the CPU again. */
	if (!atomic_read(&simnic_summary[cpu].raised) ||
	    !atomic_xchg(&simnic_summary[cpu].raised, 0))
		return 0;
	rcu_read_lock();
	for (i = 0; i < SIMNIC_MAX_DEVS; i++) {
		struct simnic_hw *hw = rcu_dereference(simnic_devs[i]);

		if (!hw)
			continue;
		for (j = 0; j < 2 * hw->nr_queues; j++) {
			struct simnic_irq_line *l = &hw->q[j / 2].irq[j % 2];

			if (READ_ONCE(l->cpu) != cpu || !atomic_read(&l->pending))
				continue;
			/* I1' (fully ordered): clear before the handler, so a
			 * raise during its NAPI's poll is delivered again;
			 * acquires I1. */
			if (atomic_xchg(&l->pending, 0)) {
				l->handler(l->dev_id);
				n++;
			}
		}
	}
	rcu_read_unlock();
	return n;
}

void simnic_hw_init(struct simnic_hw *hw, struct device *dev, unsigned int nr_queues,
		    u32 pkt_len, u64 rate_pps)
{
	unsigned int i;

	hw->dev = dev;
	hw->nr_queues = nr_queues;
	hw->pkt_len = pkt_len;
	hw->rate_pps = rate_pps;
	WRITE_ONCE(hw->running, 0);
	for (i = 0; i < nr_queues; i++) {
		struct simnic_hw_queue *q = &hw->q[i];
		u32 k;

		atomic_set(&q->irq[SIMNIC_IRQ_RX].pending, 0);
		atomic_set(&q->irq[SIMNIC_IRQ_TXC].pending, 0);
		simnic_irq_set_cpu(&q->irq[SIMNIC_IRQ_RX], (int)i);
		simnic_irq_set_cpu(&q->irq[SIMNIC_IRQ_TXC], (int)i);
		/* An Ethernet frame: broadcast to a locally administered
		 * source, IPv4, then a pattern; bytes 14..17 carry the
		 * sequence number the wire stamps. */
		memset(q->frame, 0xff, 6);
		q->frame[6] = 0x02;
		q->frame[7] = 0x00;
		q->frame[8] = 0x5e;
		q->frame[9] = 0x10;
		q->frame[10] = 0x00;
		q->frame[11] = (u8)i;
		q->frame[12] = 0x08;
		q->frame[13] = 0x00;
		for (k = 14; k < SIMNIC_MAX_FRAME; k++)
			q->frame[k] = (u8)(k * 7 + i);
	}

	mutex_lock(&simnic_irq_lock);
	if (rate_pps)
		simnic_tsc_calibrate();
	for (i = 0; i < nr_queues; i++)
		hw->q[i].last_tsc = simnic_tsc();
	for (i = 0; i < SIMNIC_MAX_DEVS; i++) {
		if (!simnic_devs[i]) {
			rcu_assign_pointer(simnic_devs[i], hw);
			break;
		}
	}
	/* More devices than the controller has inputs: a bench bug. */
	WARN_ON(i == SIMNIC_MAX_DEVS);
	mutex_unlock(&simnic_irq_lock);
}

void simnic_hw_fini(struct simnic_hw *hw)
{
	unsigned int i;

	mutex_lock(&simnic_irq_lock);
	for (i = 0; i < SIMNIC_MAX_DEVS; i++)
		if (simnic_devs[i] == hw)
			rcu_assign_pointer(simnic_devs[i], NULL);
	mutex_unlock(&simnic_irq_lock);
	/* No simnic_service() is still looking at its lines. */
	synchronize_rcu();
}

void simnic_hw_set_running(struct simnic_hw *hw, bool run)
{
	unsigned int i;

	if (run) {
		for (i = 0; i < hw->nr_queues; i++) {
			struct simnic_hw_queue *q = &hw->q[i];

			/* Reset: the engines start at slot 0 of the rings
			 * the driver programmed. */
			q->rx_next = q->tx_next = 0;
			q->rx_head = q->tx_head = 0;
			q->tokens = 0;
			q->last_tsc = simnic_tsc();
		}
	}
	/* C1 (release): the ring registers before the engines run. The
	 * wire's caller and the doorbell acquire it (C1'). */
	smp_store_release(&hw->running, run ? 1 : 0);
}

/* ---- RX: the wire ---- */

static unsigned int __simnic_hw_rx(struct simnic_hw *hw, unsigned int qi, unsigned int n)
{
	struct simnic_hw_queue *q = &hw->q[qi];
	unsigned int done = 0;
	u32 tail, mask;

	if (!smp_load_acquire(&hw->running)) {		/* C1' */
		WRITE_ONCE(q->rx_missed, q->rx_missed + n);
		return 0;
	}
	if (hw->rate_pps)
		n = simnic_line_take(hw, q, n);
	/* T1' (acquire): the descriptors the driver posted below the tail.
	 * Pairs with T1 in the driver's refill. */
	tail = smp_load_acquire(&q->rx_tail);
	mask = q->rx_size - 1;

	while (done < n && q->rx_next != tail) {
		u32 first = q->rx_next & mask;
		/* One fetch of the descriptors up to the tail, the ring's end
		 * or the burst, whichever comes first, and one write-back of
		 * them (status and length, whole descriptors): what a NIC's
		 * descriptor engine does per cache line, rather than two DMA
		 * transactions per packet. */
		u32 k, cnt = min3(n - done, tail - q->rx_next, q->rx_size - first);
		dma_addr_t at = q->rx_base + first * sizeof(struct simnic_desc);

		cnt = min_t(u32, cnt, SIMNIC_DESC_BATCH);
		if (pp_dma_device_read(hw->dev, at, q->rx_desc_batch, cnt * sizeof(struct simnic_desc)))
			break;			/* the ring itself is gone: no more RX */
		for (k = 0; k < cnt; k++) {
			struct simnic_desc *d = &q->rx_desc_batch[k];
			u32 len = hw->pkt_len;

			memcpy(&q->frame[14], &q->seq, sizeof(q->seq));
			q->seq++;
			d->pkt_len = (u16)len;
			d->status = SIMNIC_DESC_DONE;
			if (len > d->buf_len || pp_dma_device_write(hw->dev, d->addr, q->frame, len))
				d->status |= SIMNIC_DESC_ERR_DMA;
		}
		if (pp_dma_device_write(hw->dev, at, q->rx_desc_batch,
					cnt * sizeof(struct simnic_desc)))
			break;
		q->rx_next += cnt;
		done += cnt;
	}
	if (n > done)
		WRITE_ONCE(q->rx_missed, q->rx_missed + (n - done));
	if (done) {
		/* H1 (release): buffers and write-backs before the head.
		 * Pairs with H1' in the driver's RX poll. */
		smp_store_release(&q->rx_head, q->rx_next);
		simnic_irq_raise(&q->irq[SIMNIC_IRQ_RX]);
	}
	return done;
}

/* ---- TX: the doorbell ---- */

static void __simnic_hw_tx_doorbell(struct simnic_hw *hw, unsigned int qi, u32 tail)
{
	struct simnic_hw_queue *q = &hw->q[qi];
	u32 mask = q->tx_size - 1;
	bool sent = false;

	/* T2 (release): the descriptors below @tail, and the driver's
	 * bookkeeping of them, before the device sees the tail. The engine
	 * runs right here, on the same CPU; T2' is its read. */
	smp_store_release(&q->tx_tail, tail);
	if (!smp_load_acquire(&hw->running))		/* C1' */
		return;
	tail = smp_load_acquire(&q->tx_tail);		/* T2' */

	while (q->tx_next != tail) {
		u32 first = q->tx_next & mask;
		/* Descriptors fetched and written back in batches, as on RX. */
		u32 k, cnt = min(tail - q->tx_next, q->tx_size - first);
		dma_addr_t at = q->tx_base + first * sizeof(struct simnic_desc);

		cnt = min_t(u32, cnt, SIMNIC_DESC_BATCH);
		if (pp_dma_device_read(hw->dev, at, q->tx_desc_batch, cnt * sizeof(struct simnic_desc)))
			break;
		for (k = 0; k < cnt; k++) {
			struct simnic_desc *d = &q->tx_desc_batch[k];

			d->status = SIMNIC_DESC_DONE;
			if (d->buf_len > SIMNIC_MAX_FRAME ||
			    pp_dma_device_read(hw->dev, d->addr, q->tx_buf, d->buf_len)) {
				d->status |= SIMNIC_DESC_ERR_DMA;
				WRITE_ONCE(q->tx_faults, q->tx_faults + 1);
			}
		}
		if (pp_dma_device_write(hw->dev, at, q->tx_desc_batch,
					cnt * sizeof(struct simnic_desc)))
			break;
		q->tx_next += cnt;
		sent = true;
	}
	if (sent) {
		/* H2 (release): write-backs before the head. Pairs with H2'
		 * in the TX-completion poll. */
		smp_store_release(&q->tx_head, q->tx_next);
		simnic_irq_raise(&q->irq[SIMNIC_IRQ_TXC]);
	}
}

/*
 * The engines above, timed: the device model runs on the CPU that calls
 * it (the wire's, the doorbell's), doing in software what a NIC does in
 * parallel with the host - reading descriptors, copying frames through
 * the IOMMU. Its time per queue (device_ns in the stats) tells a
 * benchmark how much of a CPU's time was the device's, not the driver's
 * or page_pool's. Two clock reads per burst or doorbell.
 */
unsigned int simnic_hw_rx(struct simnic_hw *hw, unsigned int qi, unsigned int n)
{
	struct simnic_hw_queue *q = &hw->q[qi];
	u64 t0 = ktime_get_ns();
	unsigned int done = __simnic_hw_rx(hw, qi, n);

	WRITE_ONCE(q->rx_dev_ns, q->rx_dev_ns + (ktime_get_ns() - t0));
	return done;
}

void simnic_hw_tx_doorbell(struct simnic_hw *hw, unsigned int qi, u32 tail)
{
	struct simnic_hw_queue *q = &hw->q[qi];
	u64 t0 = ktime_get_ns();

	__simnic_hw_tx_doorbell(hw, qi, tail);
	WRITE_ONCE(q->tx_dev_ns, q->tx_dev_ns + (ktime_get_ns() - t0));
}
