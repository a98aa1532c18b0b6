/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * simnic: a simulated NIC and its driver, written as a kernel driver is
 * (descriptor rings in coherent memory, NAPI, a page_pool per RX queue,
 * XDP with XDP_TX, XDP_REDIRECT and ndo_xdp_xmit, TX completion returning
 * frames to whoever allocated them), over a device model that reaches
 * memory only through its DMA backend (pp_dma_device_read()/write(), the
 * IOMMU when there is one). Two of them make the 2018 mlx5 page_pool
 * conversion's XDP_REDIRECT set-up: RX on one, ndo_xdp_xmit out of the
 * other, frames coming back to the RX device's page_pool from the TX
 * completion on the same CPU or another one. docs/SIMNIC.md describes the
 * model, the decisions and this API.
 *
 * Contexts: create, destroy, open, stop, set_xdp, set_irq_affinity,
 * quiesce and pp_hold are process context, one at a time per device, on a
 * registered thread (pp_thread_register()); stop and destroy want every
 * other CPU that services the device either idle or still servicing (the
 * NAPI they have scheduled must finish). simnic_wire_rx() of a queue is
 * the queue's DMA engine: one caller at a time per queue, never while the
 * device is being stopped or destroyed. simnic_service() runs on any
 * registered thread; simnic_get_stats() anywhere.
 * Layer: drivers.
 */
#ifndef _SIMNIC_H
#define _SIMNIC_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct net_device;
struct bpf_prog;

#define SIMNIC_MAX_QUEUES 2

enum simnic_dma { SIMNIC_DMA_IOMMU, SIMNIC_DMA_DIRECT };

/*
 * Where RX buffers come from:
 *   PAGE_ALLOC: alloc_page() + dma_map_page() per buffer, unmapped by the
 *     RX driver before the frame leaves it, freed by whoever holds it last
 *     (a frame's TX completion: xdp_return_frame() of a
 *     MEM_TYPE_PAGE_ORDER0 frame, put_page());
 *   PAGE_POOL_NO_RECYCLE: page_pool allocates and maps, but every page
 *     given back is released (unmapped and freed) instead of recycled: the
 *     pool allocates with __GFP_MEMALLOC, and page_pool never recycles a
 *     page from the emergency reserves (pfmemalloc), on any return path;
 *   PAGE_POOL: page_pool with recycling, the 2018 conversion.
 */
enum simnic_rx_mem { SIMNIC_RX_PAGE_ALLOC, SIMNIC_RX_PAGE_POOL_NO_RECYCLE, SIMNIC_RX_PAGE_POOL };

enum simnic_irq { SIMNIC_IRQ_RX, SIMNIC_IRQ_TXC };

struct simnic_config {
	const char *name;            /* netdev name; NULL: "simnic%d" */
	enum simnic_dma dma;
	enum simnic_rx_mem rx_mem;
	bool page_cache;             /* the driver-local cache with elevated refcount */
	bool tx_bulk_return;         /* TX completion: xdp_return_frame_bulk (else one by one) */
	unsigned int nr_queues;      /* 1..SIMNIC_MAX_QUEUES RX/TX queue pairs; 0: 1 */
	unsigned int rx_ring_size, tx_ring_size;  /* descriptors, power of 2; 0: 1024 */
	unsigned int pkt_len;        /* bytes per packet the wire delivers, 18..3072; 0: 64 */
	u64 line_rate_pps;           /* per-queue device cap; 0: none */
	/* The device without DMA-API debug (PP_DMA_DEBUG): no record per
	 * mapping, so no violation of the driver's (double unmap, sync of
	 * what is not mapped, ...) is caught, only the device's own faults
	 * (an IOMMU fault under SIMNIC_DMA_IOMMU). For timing, as a kernel
	 * without CONFIG_DMA_API_DEBUG; everything else keeps the checks. */
	bool no_dma_debug;
};

/*
 * Every packet the wire brings is either missed (rx_missed: no posted
 * buffer, or the link down) or received (rx_packets), and every received
 * one is exactly one of: xdp_pass, xdp_drop, xdp_aborted (XDP_ABORTED and
 * unknown verdicts), redirect_errors (xdp_do_redirect() failed),
 * rx_dma_faults (the device could not write the buffer), xdp_tx (XDP_TX
 * verdicts) or xdp_redirect (xdp_do_redirect() took it). XDP_TX and
 * redirected frames then reach a TX queue: tx_xmit (taken) or tx_refused
 * (ring full, link down), and every taken frame is tx_completed, a
 * tx_dma_faults one included (the device could not read it; its memory
 * is given back all the same).
 */
struct simnic_stats {               /* totals over the queues */
	u64 rx_packets, rx_missed, rx_dma_faults;
	u64 xdp_pass, xdp_drop, xdp_tx, xdp_redirect, xdp_aborted, redirect_errors;
	u64 tx_xmit, tx_refused, tx_completed, tx_dma_faults;   /* TX side: frames taken by ndo_xdp_xmit / XDP_TX, refused, completed */
	u64 cache_hits, cache_misses;   /* the driver-local page cache */
	/* Nanoseconds the device model ran (the wire's RX engine and the TX
	 * engine at the doorbell) on the CPUs that called it: the NIC's work,
	 * which real hardware does beside the host's CPUs. */
	u64 device_ns;
};

struct simnic;

/* ERR_PTR(-EINVAL/-ENOMEM); a DMA device (pp_device_create) and a
 * registered netdev, link down; IRQ affinity: queue i -> logical CPU i. */
struct simnic *simnic_create(const struct simnic_config *cfg);
/* Device removal: stops if up, unregisters; pools that still have held
 * pages live on until the page comes back (page_pool destroy semantics).
 * With a pp_hold page held, the struct simnic stays behind holding it
 * (and the DMA device): simnic_pp_hold(nic, false) is then the only call
 * allowed on it, gives the page back and frees what is left. */
void simnic_destroy(struct simnic *nic);
/* Link up (ndo_open): pools, xdp_rxq_info, NAPIs, RX rings filled.
 * 0, -EBUSY (up already), -ENOMEM. */
int simnic_open(struct simnic *nic);
/* Link down (ndo_stop): NAPIs disabled, rings drained, pools destroyed.
 * 0, or -ENETDOWN when down already. */
int simnic_stop(struct simnic *nic);
struct net_device *simnic_netdev(struct simnic *nic);
/* NULL detaches; allowed up or down. Attaching the first program or
 * detaching the last while up restarts the queues (the pools' DMA
 * direction changes), as mlx5 does. The caller owns @prog; once this
 * returns no poll runs the program it replaced. 0 or -ENOMEM. */
int simnic_set_xdp(struct simnic *nic, struct bpf_prog *prog);
/* Route queue @q's @irq to logical CPU @cpu (0 .. PP_NR_CPUS - 2). 0 or
 * -EINVAL. A pending interrupt goes to the new CPU. */
int simnic_set_irq_affinity(struct simnic *nic, unsigned int q, enum simnic_irq irq, int cpu);
/* The wire: up to n packets into queue q's posted buffers (the line-rate
 * cap applies: packets beyond it are not sent, and not counted), raises
 * the RX interrupt; returns packets delivered (missed ones are counted,
 * not returned). 0 for a bad @nic or @q. */
unsigned int simnic_wire_rx(struct simnic *nic, unsigned int q, unsigned int n);
/* On the calling logical CPU: deliver the interrupts routed here (all
 * simnic devices), run this CPU's softirqs (pp_do_softirq); returns NAPI
 * work done, 0 when idle. */
int simnic_service(void);
/*
 * From one thread while no other CPU services these devices, and after
 * the CPUs that did went idle (their last simnic_service() returned 0):
 * routes every interrupt line of the devices to the calling CPU, services
 * until every RX/TX/completion ring is empty and no interrupt is pending,
 * then routes the lines back. 0 or -ETIMEDOUT (after 2 s; a NAPI left
 * scheduled on another CPU's list cannot run here).
 */
int simnic_quiesce(struct simnic **nics, unsigned int n);
/* 0, or -EINVAL for a NULL argument. */
int simnic_get_stats(struct simnic *nic, struct simnic_stats *st);
/* After quiesce: the equation above over the pair (tx_nic may equal
 * rx_nic or be NULL; the frames either device redirected went to one of
 * the two); 0 or -EBADMSG with the reason in @why. */
int simnic_check_accounting(struct simnic *rx_nic, struct simnic *tx_nic, char *why, size_t len);
/* netdevsim's debugfs pp_hold: take (or give back) one page of queue 0's
 * RX pool. 0; -EBUSY already held; -ENETDOWN (hold while down); -ENOENT
 * (release with none held); -EOPNOTSUPP (SIMNIC_RX_PAGE_ALLOC: no pool);
 * -ENOMEM. */
int simnic_pp_hold(struct simnic *nic, bool hold);

/*
 * Driver bugs, on purpose, for tests: the next RX buffer queue @q posts
 * (SIMNIC_RX_PAGE_ALLOC only: the driver maps it) is
 *   SIMNIC_FAULT_RX_UNMAPPED: unmapped right after it was posted;
 *   SIMNIC_FAULT_RX_WRONG_DIR: mapped DMA_TO_DEVICE instead of
 *     DMA_FROM_DEVICE.
 * Under the IOMMU backend the device's write then faults (rx_dma_faults);
 * the driver gives the page back all the same. 0, -EINVAL, -EOPNOTSUPP
 * (a page_pool mode: the pool maps).
 */
enum simnic_fault { SIMNIC_FAULT_RX_UNMAPPED, SIMNIC_FAULT_RX_WRONG_DIR };
int simnic_inject_fault(struct simnic *nic, unsigned int q, enum simnic_fault fault);

/* The DMA device the NIC sits on (for pp_dma_violations(), stats). */
struct device *simnic_dma_device(struct simnic *nic);
/* Queue @q's RX page_pool's id (pp_page_pool_get_info()), 0 when none. */
u32 simnic_rx_pool_id(struct simnic *nic, unsigned int q);

#endif /* _SIMNIC_H */
