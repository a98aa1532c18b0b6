/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The NIC kdring drives, as a test bench: registers, an interrupt line,
 * two RX queues and a TX queue of struct kd_desc rings, and a loopback
 * copy engine. Like real hardware it knows only the bus addresses the
 * driver programmed: every descriptor and buffer access goes through
 * pp_dma_device_read()/pp_dma_device_write() and the device's IOMMU, so a
 * wrong address, a missing mapping or a mapping in the wrong direction
 * shows up as a fault or as wrong bytes, never as a silent success.
 */
#include <linux/bottom_half.h>
#include <linux/slab.h>
#include <string.h>
#include <pagepool.h>

#include "kdrv.h"

#define SIM_TX_LOG	256

struct kd_hw {
	struct device *dev;
	u32 regs[KD_NR_REGS];
	u32 inten, status;
	kd_irq_handler_t irq_fn;
	void *irq_arg;
	u32 rx_idx[KD_NR_RXQ];
	u32 tx_idx;
	u32 tx_pending;		/* frames doorbelled, not yet sent */
	unsigned long faults, rx_missed;
	unsigned int ntx;
	struct sim_tx_frame *tx_log;
};

struct kd_hw *sim_nic_create(struct device *dev)
{
	struct kd_hw *hw = kzalloc(sizeof(*hw), GFP_KERNEL);

	if (!hw)
		return NULL;
	hw->tx_log = kcalloc(SIM_TX_LOG, sizeof(*hw->tx_log), GFP_KERNEL);
	if (!hw->tx_log) {
		kfree(hw);
		return NULL;
	}
	hw->dev = dev;
	return hw;
}

void sim_nic_destroy(struct kd_hw *hw)
{
	kfree(hw->tx_log);
	kfree(hw);
}

static dma_addr_t reg64(const struct kd_hw *hw, enum kd_reg lo)
{
	return ((dma_addr_t)hw->regs[lo + 1] << 32) | hw->regs[lo];
}

static int sim_read(struct kd_hw *hw, dma_addr_t addr, void *dst, size_t len)
{
	int err = pp_dma_device_read(hw->dev, addr, dst, len);

	if (err)
		hw->faults++;
	return err;
}

static int sim_write(struct kd_hw *hw, dma_addr_t addr, const void *src, size_t len)
{
	int err = pp_dma_device_write(hw->dev, addr, src, len);

	if (err)
		hw->faults++;
	return err;
}

static void sim_loopback(struct kd_hw *hw)
{
	u32 len = hw->regs[KD_REG_LB_LEN];
	u8 *bounce = kmalloc(len ? len : 1, GFP_KERNEL);

	if (!bounce ||
	    sim_read(hw, reg64(hw, KD_REG_LB_SRC_LO), bounce, len) ||
	    sim_write(hw, reg64(hw, KD_REG_LB_DST_LO), bounce, len))
		hw->regs[KD_REG_LB_STATUS] = 1;
	kfree(bounce);
}

void kd_hw_writel(struct kd_hw *hw, enum kd_reg reg, u32 val)
{
	switch (reg) {
	case KD_REG_INTEN_SET:
		hw->inten |= val;
		break;
	case KD_REG_INTEN_CLR:
		hw->inten &= ~val;
		break;
	case KD_REG_TX_DOORBELL:
		hw->tx_pending += val;
		break;
	case KD_REG_CTRL:
		hw->regs[reg] = val;
		if (!(val & KD_CTRL_RUN)) {
			memset(hw->rx_idx, 0, sizeof(hw->rx_idx));
			hw->tx_idx = 0;
			hw->tx_pending = 0;
		}
		break;
	case KD_REG_LB_LEN:
		hw->regs[reg] = val;
		sim_loopback(hw);
		break;
	default:
		hw->regs[reg] = val;
		break;
	}
}

u32 kd_hw_readl(struct kd_hw *hw, enum kd_reg reg)
{
	if (reg == KD_REG_INT_STATUS) {
		u32 st = hw->status;

		hw->status = 0;
		return st;
	}
	return hw->regs[reg];
}

void kd_hw_request_irq(struct kd_hw *hw, kd_irq_handler_t fn, void *dev_id)
{
	hw->irq_fn = fn;
	hw->irq_arg = dev_id;
}

int sim_nic_rx(struct kd_hw *hw, unsigned int q, const void *frame, u32 len, bool bad)
{
	dma_addr_t base = reg64(hw, (enum kd_reg)(KD_REG_RX_BASE_LO + 2 * q));
	dma_addr_t at = base + hw->rx_idx[q] * sizeof(struct kd_desc);
	struct kd_desc de;

	if (!(hw->regs[KD_REG_CTRL] & KD_CTRL_RUN) || sim_read(hw, at, &de, sizeof(de)))
		return -EIO;
	if (!(de.attr & KD_DESC_OWN) || (de.len_info & 0xffff) < len) {
		hw->rx_missed++;
		return -ENOBUFS;
	}
	if (sim_write(hw, ((dma_addr_t)de.buf_hi << 32) | de.buf_lo, frame, len))
		return -EIO;
	de.len_info = (len << 16) | (de.len_info & 0xffff);
	/* The length first, then hand the descriptor back. */
	if (sim_write(hw, at + offsetof(struct kd_desc, len_info), &de.len_info, 4))
		return -EIO;
	de.attr = (de.attr & ~(KD_DESC_OWN | KD_DESC_ERR)) | (bad ? KD_DESC_ERR : 0);
	if (sim_write(hw, at, &de.attr, 4))
		return -EIO;
	hw->rx_idx[q] = (de.attr & KD_DESC_LD) ? 0 : hw->rx_idx[q] + 1;
	hw->status |= KD_IRQ_RX;
	return 0;
}

void sim_nic_kick(struct kd_hw *hw)
{
	if (!hw->status || !(hw->inten & hw->status) || !hw->irq_fn)
		return;
	/* The interrupt handler schedules the NAPI; it runs when the
	 * softirq does, at local_bh_enable(). */
	local_bh_disable();
	hw->irq_fn(0, hw->irq_arg);
	local_bh_enable();
	/* A NAPI scheduled during that pass (kdring's redirect schedules
	 * kdvq's, a poll that used its budget stays listed) runs in a later
	 * one: the kernel's __do_softirq() restarts for it, or ksoftirqd
	 * takes it; pagepool's local_bh_enable() makes a single pass. */
	while (pp_softirq_pending())
		pp_net_rx_action();
}

int sim_nic_tx_run(struct kd_hw *hw)
{
	dma_addr_t base = reg64(hw, KD_REG_TX_BASE_LO);
	int sent = 0;

	while (hw->tx_pending) {
		struct sim_tx_frame *f = &hw->tx_log[hw->ntx % SIM_TX_LOG];
		u32 first = hw->tx_idx, idx = first, nseg = 0, i;
		struct kd_desc de;
		bool done = false;

		f->len = 0;
		while (!done) {
			dma_addr_t at = base + idx * sizeof(struct kd_desc);
			u32 seg;

			if (sim_read(hw, at, &de, sizeof(de)) || !(de.attr & KD_DESC_OWN))
				return sent;	/* the driver did not hand it over */
			seg = de.len_info & 0xffff;
			if (f->len + seg > sizeof(f->data) ||
			    sim_read(hw, ((dma_addr_t)de.buf_hi << 32) | de.buf_lo,
				     f->data + f->len, seg))
				return sent;
			f->len += seg;
			nseg++;
			done = de.attr & KD_DESC_LS;
			idx = (de.attr & KD_DESC_LD) ? 0 : idx + 1;
		}
		f->segs = nseg;
		/* Completion: the last segment last. */
		for (i = 0, idx = first; i < nseg; i++) {
			dma_addr_t at = base + idx * sizeof(struct kd_desc);

			if (sim_read(hw, at, &de, sizeof(de)))
				return sent;
			de.attr &= ~KD_DESC_OWN;
			if (sim_write(hw, at, &de.attr, 4))
				return sent;
			idx = (de.attr & KD_DESC_LD) ? 0 : idx + 1;
		}
		hw->tx_idx = idx;
		hw->tx_pending--;
		hw->ntx++;
		sent++;
	}
	if (sent)
		hw->status |= KD_IRQ_TX;
	return sent;
}

unsigned int sim_nic_tx_count(const struct kd_hw *hw)
{
	return hw->ntx;
}

const struct sim_tx_frame *sim_nic_tx_frame(const struct kd_hw *hw, unsigned int i)
{
	return &hw->tx_log[i % SIM_TX_LOG];
}

unsigned long sim_nic_faults(const struct kd_hw *hw)
{
	return hw->faults;
}

unsigned long sim_nic_rx_missed(const struct kd_hw *hw)
{
	return hw->rx_missed;
}
