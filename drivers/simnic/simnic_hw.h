/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The simulated NIC as its driver sees it - the "datasheet": descriptor
 * format, the per-queue registers, the interrupt lines - and the calls the
 * device model (simnic_hw.c) offers the driver (simnic.c). Not installed.
 *
 * Rings. A queue has an RX and a TX ring of struct simnic_desc in
 * coherent memory, a power of 2 in size, indexed by free-running u32
 * counters (slot = counter & (size - 1)), as ixgbe's head/tail registers:
 *   - the driver posts descriptors, then writes the tail register
 *     (RX: buffers posted up to here; TX: frames to send up to here, the
 *     doorbell);
 *   - the device works from its head up to the tail, fetching the
 *     descriptors SIMNIC_DESC_BATCH at a time and writing them back whole
 *     (status, and for RX the frame length) the same way, then its head
 *     register (head write-back), then raises the queue's interrupt;
 *   - the driver reads the head register, then the descriptors below it.
 * A register write is a store-release, a register read a load-acquire:
 * the device's DMA writes happen before its head write, the driver's
 * descriptor writes before its tail write. The device reaches descriptors
 * and buffers only through pp_dma_device_read()/write().
 */
#ifndef _SIMNIC_HW_H
#define _SIMNIC_HW_H

#include <linux/atomic.h>
#include <linux/dma-mapping.h>
#include <linux/list.h>
#include <linux/types.h>

#include "simnic.h"

/* 16 bytes, host byte order (the simulated bus is the host's). */
struct simnic_desc {
	u64 addr;		/* bus address of the buffer */
	u16 buf_len;		/* RX: room there; TX: frame length */
	u16 pkt_len;		/* RX write-back: frame length */
	u32 status;		/* write-back */
};

#define SIMNIC_DESC_DONE	BIT(0)
#define SIMNIC_DESC_ERR_DMA	BIT(1)	/* the buffer could not be reached */


/* Descriptors the device fetches (and writes back) in one DMA
 * transaction: four cache lines. */
#define SIMNIC_DESC_BATCH	16

/* The longest frame the device sends or receives. */
#define SIMNIC_MAX_FRAME	3072

typedef void (*simnic_irq_handler_t)(void *dev_id);

/* An interrupt line: raised by the device on any CPU (pending), delivered
 * on the CPU it is routed to, when that CPU calls simnic_service(). */
struct simnic_irq_line {
	atomic_t pending;
	int cpu;			/* affinity: READ_ONCE/WRITE_ONCE */
	simnic_irq_handler_t handler;	/* request_irq()'s */
	void *dev_id;
};

struct simnic_hw_queue {
	/* Ring registers, programmed while the device is stopped. */
	dma_addr_t rx_base, tx_base;
	u32 rx_size, tx_size;
	/* Driver -> device (store-release by the driver). */
	u32 rx_tail, tx_tail;
	/* Device -> driver: head write-back (store-release by the device). */
	u32 rx_head, tx_head;

	/* The device's own state: the RX engine belongs to the wire's
	 * caller, the TX engine to the doorbell's (under the driver's TX
	 * lock). */
	u32 rx_next, tx_next;
	u32 seq;
	u64 tokens;			/* line-rate cap: packets, scaled */
	u64 last_tsc;
	u64 rx_missed;			/* WRITE_ONCE by the wire's caller */
	u64 tx_faults;			/* WRITE_ONCE by the TX engine */
	u64 rx_dev_ns, tx_dev_ns;	/* time in each engine, WRITE_ONCE by its runner */
	/* The descriptor engines' fetch buffers: the RX engine's belongs to
	 * the wire's caller, the TX engine's to the doorbell's, which may be
	 * two CPUs at once. */
	struct simnic_desc rx_desc_batch[SIMNIC_DESC_BATCH];
	struct simnic_desc tx_desc_batch[SIMNIC_DESC_BATCH];
	u8 frame[SIMNIC_MAX_FRAME];	/* what the wire delivers */
	u8 tx_buf[SIMNIC_MAX_FRAME];	/* what the TX engine read */

	struct simnic_irq_line irq[2];	/* enum simnic_irq */
};

struct simnic_hw {
	struct device *dev;		/* DMA goes through it */
	int running;			/* CTRL: READ_ONCE/WRITE_ONCE */
	unsigned int nr_queues;
	u32 pkt_len;
	u64 rate_pps;
	struct list_head node;		/* the interrupt controller's list */
	struct simnic_hw_queue q[SIMNIC_MAX_QUEUES];
};

/* Set up @hw (not running, lines routed queue i -> CPU i) and connect
 * its lines to the interrupt controller. */
void simnic_hw_init(struct simnic_hw *hw, struct device *dev, unsigned int nr_queues,
		    u32 pkt_len, u64 rate_pps);
/* Disconnect the lines; after it no simnic_service() touches @hw. */
void simnic_hw_fini(struct simnic_hw *hw);
void simnic_hw_set_running(struct simnic_hw *hw, bool run);

/* The wire (simnic_wire_rx()). */
unsigned int simnic_hw_rx(struct simnic_hw *hw, unsigned int q, unsigned int n);
/* The TX doorbell: the driver wrote tx_tail; the device sends up to it
 * now and raises the TX-completion interrupt. Under the driver's TX lock. */
void simnic_hw_tx_doorbell(struct simnic_hw *hw, unsigned int q, u32 tail);

void simnic_irq_raise(struct simnic_irq_line *line);
/* Route @line to @cpu (a pending one is delivered there). */
void simnic_irq_set_cpu(struct simnic_irq_line *line, int cpu);
/* Deliver every line routed to the calling CPU; returns how many. */
unsigned int simnic_irq_deliver_local(void);
bool simnic_irq_pending(const struct simnic_irq_line *line);

#endif /* _SIMNIC_HW_H */
