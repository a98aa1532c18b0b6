/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What the pieces of the kernel-api driver test share: the simulated
 * NIC's "datasheet" (registers, descriptor format), the entry points of
 * the two drivers (kdring: a descriptor-ring NIC in the manner of netsec
 * and cpsw; kdvq: a software device in the manner of veth and netdevsim)
 * and the stand-ins for what pagepool has no equivalent of - an XDP
 * program and the stack's receive hook. Built from the installed headers
 * only (run.sh).
 */
#ifndef KDRV_H
#define KDRV_H

#include <linux/netdevice.h>
#include <linux/types.h>
#include <net/netmem.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>

/* The pool of a page as netdevsim finds it: page->pp. Under the item
 * tracking design (meson -Ddma_tracking=items) page->pp holds the page's
 * item, tagged (docs/DMA_SAFETY.md, "The two tracking designs"), and a
 * driver written for that design asks page_pool_to_pp(): there page->pp
 * names no pool, and a put to it is refused. */
static inline struct page_pool *kd_page_pool(struct page *page)
{
	if ((unsigned long)page->pp & PP_ITEM_TAG)
		return page_pool_to_pp(page);
	return page->pp;
}

/* ---- The NIC (sim_nic.c), as its driver sees it ---- */

/* A descriptor, 16 bytes in coherent memory, little-endian on the bus.
 * The driver fills buf_hi/buf_lo/len_info, then (after dma_wmb()) sets
 * KD_DESC_OWN; the device clears OWN when it is done, after writing
 * everything else (so the driver reads OWN, dma_rmb(), then the rest). */
struct kd_desc {
	u32 attr;
	u32 buf_hi;
	u32 buf_lo;
	u32 len_info;	/* RX: [15:0] buffer length, [31:16] frame length */
};

#define KD_DESC_OWN	BIT(31)		/* the device owns the descriptor */
#define KD_DESC_LD	BIT(30)		/* last descriptor of the ring: wrap */
#define KD_DESC_ERR	BIT(21)		/* RX: the frame was bad */
#define KD_DESC_FS	BIT(9)		/* first segment of a frame */
#define KD_DESC_LS	BIT(8)		/* last segment of a frame */

/* Registers (32-bit). */
enum kd_reg {
	KD_REG_RX_BASE_LO,		/* + 2 * queue */
	KD_REG_RX_BASE_HI,
	KD_REG_RX1_BASE_LO,
	KD_REG_RX1_BASE_HI,
	KD_REG_TX_BASE_LO,
	KD_REG_TX_BASE_HI,
	KD_REG_TX_DOORBELL,		/* write: frames queued since last write */
	KD_REG_INTEN_SET,
	KD_REG_INTEN_CLR,
	KD_REG_INT_STATUS,		/* read clears */
	KD_REG_CTRL,			/* KD_CTRL_RUN */
	KD_REG_LB_SRC_LO,		/* loopback engine: copy LEN bytes */
	KD_REG_LB_SRC_HI,
	KD_REG_LB_DST_LO,
	KD_REG_LB_DST_HI,
	KD_REG_LB_LEN,			/* write starts the copy */
	KD_REG_LB_STATUS,		/* 0 ok, else a fault */
	KD_NR_REGS,
};

#define KD_IRQ_RX	BIT(0)
#define KD_IRQ_TX	BIT(1)
#define KD_CTRL_RUN	BIT(0)

#define KD_NR_RXQ	2

struct kd_hw;
typedef void (*kd_irq_handler_t)(int irq, void *dev_id);

/* MMIO and the interrupt line (request_irq() stand-in). */
void kd_hw_writel(struct kd_hw *hw, enum kd_reg reg, u32 val);
u32 kd_hw_readl(struct kd_hw *hw, enum kd_reg reg);
void kd_hw_request_irq(struct kd_hw *hw, kd_irq_handler_t fn, void *dev_id);

/* The test bench's side of the NIC. */
struct kd_hw *sim_nic_create(struct device *dev);
void sim_nic_destroy(struct kd_hw *hw);
/* The wire delivers a frame to RX queue @q: 0, or -ENOBUFS when no
 * descriptor is posted there (the NIC drops it). */
int sim_nic_rx(struct kd_hw *hw, unsigned int q, const void *frame, u32 len, bool bad);
/* Raise the pending interrupts (the NAPI poll runs before this returns). */
void sim_nic_kick(struct kd_hw *hw);
/* Transmit every frame the driver has handed over; returns how many. */
int sim_nic_tx_run(struct kd_hw *hw);
/* The frames transmitted so far (copied from the driver's buffers). */
struct sim_tx_frame {
	u8 data[2048];
	u32 len;
	u32 segs;
};
unsigned int sim_nic_tx_count(const struct kd_hw *hw);
const struct sim_tx_frame *sim_nic_tx_frame(const struct kd_hw *hw, unsigned int i);
/* Bus errors the device met (pp_dma_device_read/write failures). */
unsigned long sim_nic_faults(const struct kd_hw *hw);
unsigned long sim_nic_rx_missed(const struct kd_hw *hw);

/* ---- Stand-ins for what pagepool does not have ---- */

/* An attached XDP program (bpf_prog_run_xdp() runs it). */
struct kd_xdp_prog {
	u32 (*run)(const struct kd_xdp_prog *prog, struct xdp_buff *xdp);
};

static inline u32 kd_prog_run_xdp(const struct kd_xdp_prog *prog, struct xdp_buff *xdp)
{
	return prog->run(prog, xdp);
}

/* The stack: build_skb() + netif_receive_skb() of a page_pool page with
 * skb_mark_for_recycle(). The receiver owns the page from here on and
 * gives it back with page_pool_put_full_page(page->pp, ...). */
typedef void (*kd_stack_rx_t)(struct net_device *dev, struct page *page,
			      u32 offset, u32 len);

/* ---- kdring (ring_drv.c): netsec/cpsw style ---- */

int kd_probe(struct device *pdev, struct kd_hw *hw, struct net_device **ndevp);
void kd_remove(struct net_device *ndev);
/* Before ndo_open, as a program attached while the device is down. */
void kd_set_xdp_prog(struct net_device *ndev, const struct kd_xdp_prog *prog);
void kd_set_redirect_target(struct net_device *ndev, struct net_device *target);
void kd_set_stack(struct net_device *ndev, kd_stack_rx_t rx);
struct page_pool *kd_get_page_pool(struct net_device *ndev, unsigned int q);
/* ethtool -S */
int kd_get_sset_count(struct net_device *ndev);
void kd_get_strings(struct net_device *ndev, u8 *data);
void kd_get_ethtool_stats(struct net_device *ndev, u64 *data);
#define KD_N_DRV_STATS	6	/* the driver's own counters before page_pool's */

/* ---- kdvq (vq_drv.c): veth/netdevsim style ---- */

struct net_device *vq_create(void);
void vq_destroy(struct net_device *ndev);
void vq_set_peer(struct net_device *ndev, struct net_device *peer);
void vq_set_xdp_prog(struct net_device *ndev, const struct kd_xdp_prog *prog);
/* netdevsim's pp_hold: take one page from the pool (true) or give it back. */
int vq_pp_hold(struct net_device *ndev, bool hold);
struct page_pool *vq_get_page_pool(struct net_device *ndev);
struct vq_counters {
	u64 xdp_packets, xdp_bytes, xdp_drops, xdp_tx, xdp_tx_err, pass;
	u64 mb_built, clone_ok, xmit, xmit_err;
};
void vq_get_counters(struct net_device *ndev, struct vq_counters *c);

#endif /* KDRV_H */
