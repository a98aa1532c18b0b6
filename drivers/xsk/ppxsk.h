/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * ppxsk: an AF_XDP "NIC" driver. The hardware is a real kernel interface
 * (a veth, in copy mode) reached through an AF_XDP socket; the driver is
 * written as a kernel driver is, on the kernel API and <pagepool.h>: a
 * registered net_device per port, an RX NAPI that turns the socket's RX
 * descriptors into xdp_buffs and runs the XDP program (a C function,
 * ppxsk_port_set_xdp()), a page_pool per port whose memory provider is the
 * UMEM (one net_iov per PAGE_SIZE of it, each net_iov's DMA address its UMEM
 * offset), ndo_xdp_xmit onto the socket's TX ring without a copy, and a TX
 * completion NAPI that gives frames back with xdp_return_frame*().
 * docs/XSK.md describes the decisions; the header comment of ppxsk.c the
 * ownership rules.
 *
 * Contexts: ppxsk_umem_create/destroy/check and ppxsk_port_open/close/
 * set_xdp are process context on a registered thread (pp_thread_register()),
 * one at a time per UMEM. A port's RX NAPI runs on the logical CPU of the
 * thread that opened it; its TX completion NAPI on txc_cpu (or the RX CPU).
 * ppxsk_service() polls, on the calling thread's CPU, the NAPIs that live
 * there; ppxsk_port_get_stats() any registered thread, any time the port
 * is open.
 * Layer: drivers.
 */
#ifndef _PPXSK_H
#define _PPXSK_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/if_xdp.h>	/* struct xdp_statistics */
#include <linux/types.h>

struct net_device;
struct bpf_prog;

struct ppxsk_umem_config {
	unsigned int nr_frames;   /* UMEM chunks; 0: 4096 */
	unsigned int frame_size;  /* 2048 or 4096 (page_pool frags of a larger PAGE_SIZE net_iov); 0: 2048 */
	bool no_dma_debug;        /* default: the window device has PP_DMA_DEBUG */
};

struct ppxsk_umem;
struct ppxsk_port;
struct ppxsk_stats;

/* ERR_PTR(-EINVAL) for a bad config (a frame size other than 2048 or
 * 4096, or nr_frames * frame_size not a whole number of library pages,
 * PAGE_SIZE: 4, 16 or 64 KiB as the build was configured), -ENOMEM (no
 * contiguous run of arena pages that large, ...). */
struct ppxsk_umem *ppxsk_umem_create(const struct ppxsk_umem_config *cfg);
/* After its ports are closed; -EBUSY while a port is open, -EINVAL for a
 * bad @umem. The memory goes when its last frame is back (the last pool's
 * provider destroy); the struct with it. */
int ppxsk_umem_destroy(struct ppxsk_umem *umem);

enum ppxsk_mode { PPXSK_MODE_SKB, PPXSK_MODE_DRV };

/*
 * ppxsk_port_config.flags (pagepool addition).
 * PPXSK_PORT_TX_ONLY: a port that only transmits (a forwarder's egress).
 * Its socket has a TX ring and its completion ring, no RX ring (rx_size is
 * ignored); nothing is ever posted to its fill ring; it has no page_pool,
 * no memory provider bound to its queue and no xdp_rxq_info, so it holds
 * no UMEM frame of its own: every frame it sends came from another port's
 * pool (ndo_xdp_xmit) and goes back there on completion. Its RX NAPI never
 * runs; ppxsk_port_set_xdp() on it is -EINVAL; ppxsk_port_pool_id() is 0.
 */
#define PPXSK_PORT_TX_ONLY	(1u << 0)

struct ppxsk_port_config {
	const char *ifname;
	unsigned int queue;      /* queue 0 */
	enum ppxsk_mode mode;
	/* Ring sizes, powers of 2; 0: 2048 each. fill_size and comp_size are
	 * the UMEM's (the first port's choice holds until the last closes). */
	unsigned int fill_size, comp_size, rx_size, tx_size;
	bool bulk_return;        /* TX completion with xdp_return_frame_bulk() (else one by one) */
	int txc_cpu;             /* -1: TX completion serviced on the RX NAPI's CPU; else that logical CPU */
	unsigned int flags;      /* PPXSK_PORT_*; 0: RX and TX */
};

/*
 * Attaches our XDP program to @ifname (ppxsk_bpf_attach()), binds an
 * AF_XDP socket in copy mode to it, sharing @umem. ERR_PTR(-EINVAL) (bad
 * config), -EBUSY (the UMEM's first socket was closed while others stay
 * open: no new socket can join it until they close too; or the interface
 * has an XDP program), -ENODEV, -ENOMEM, or the socket's -errno.
 */
struct ppxsk_port *ppxsk_port_open(struct ppxsk_umem *umem, const struct ppxsk_port_config *cfg);
/* Any time, with frames in the kernel's rings or in flight: every chunk
 * the port's socket held (fill, RX, TX and completion rings) is given
 * back; the pool is destroyed (page_pool destroy semantics: it lives on
 * while its frames are out, e.g. in another port's TX ring). 0, -EINVAL. */
int ppxsk_port_close(struct ppxsk_port *port);
/* pagepool addition: ppxsk_port_close(), and @st (may be NULL) gets the
 * port's final counters - the frames the close completed included - and
 * the socket's XDP_STATISTICS as it read them just before the socket went.
 * For totals taken at teardown: frames the kernel sent whose completions
 * were not reaped yet are tx_completed here, not in a get_stats() before. */
int ppxsk_port_close_stats(struct ppxsk_port *port, struct ppxsk_stats *st);
/* ->ifindex for bpf_redirect(). */
struct net_device *ppxsk_port_netdev(struct ppxsk_port *port);
/* The C verdict hook; NULL: none (every frame is XDP_PASS). The caller
 * owns @prog; once this returns no poll runs the one it replaced.
 * -EINVAL on a TX-only port (it receives nothing). */
int ppxsk_port_set_xdp(struct ppxsk_port *port, struct bpf_prog *prog);
/* On the calling registered thread: poll the rings of the ports whose
 * NAPIs run on this CPU, run softirqs; returns work done (0 = idle). */
int ppxsk_service(void);

/*
 * Every RX descriptor is rx_packets (then exactly one of xdp_pass,
 * xdp_drop, xdp_aborted, redirect_errors, xdp_tx, xdp_redirect,
 * xdp_no_tailroom) or
 * rx_bad_desc (an address not of a chunk this port posted: counted,
 * refused, the chunk not touched). Frames offered to the port's TX (XDP_TX
 * and ndo_xdp_xmit) are tx_xmit or tx_refused (TX ring full, a frame not
 * in this UMEM or one still owned by the kernel); each tx_xmit frame is
 * tx_completed, by its completion or by the port's close. comp_bad_desc:
 * completions of chunks not in this port's TX (refused, never a put).
 * tx_dev_dropped: tx_xmit frames the kernel completed without sending
 * them (the device dropped them: NET_XMIT_DROP, sendto() said EBUSY), one
 * per such kick; they are lost on the wire, not in memory.
 * xdp_no_tailroom: XDP_TX or XDP_REDIRECT verdicts on frames that leave
 * the chunk less tail than an xdp_frame needs (its skb_shared_info): the
 * frame is dropped, back to the pool, without a warning. The kernel puts
 * a frame XDP_PACKET_HEADROOM (256) into its chunk, so the longest frame
 * that can go out is frame_size - 256 - 320: 1472 bytes with 2048-byte
 * frames, 3520 with 4096.
 */
struct ppxsk_stats {
	u64 rx_packets, xdp_pass, xdp_drop, xdp_tx, xdp_redirect, xdp_aborted, redirect_errors;
	u64 tx_xmit, tx_refused, tx_completed, fill_posted, fill_alloc_failed;
	struct xdp_statistics xs;     /* the socket's XDP_STATISTICS */
	/* pagepool additions to the contract's fields: */
	u64 rx_bad_desc, comp_bad_desc, tx_foreign, tx_kicks, tx_kick_errors;
	u64 tx_dev_dropped, xdp_no_tailroom;
};
int ppxsk_port_get_stats(struct ppxsk_port *port, struct ppxsk_stats *st);
/* Its RX page_pool (pp_page_pool_get_info()); 0 for a TX-only port. */
u32 ppxsk_port_pool_id(struct ppxsk_port *port);
/* After all ports are closed and the pools gone (waits up to 2 s for
 * deferred destroys): 0 if every frame is back in the provider and no
 * DMA-API violation was seen on the UMEM's device; -EBADMSG with the
 * reason in @why; -EBUSY while a port is open. */
int ppxsk_umem_check(struct ppxsk_umem *umem, char *why, size_t len);

/* Tests only: handle @addr as if the port's completion ring had returned
 * it (ppxsk's misuse checks). Process context, port open; the port's TX
 * completion NAPI must not run meanwhile. 0 taken, -EBADMSG refused. */
int ppxsk_port_test_complete(struct ppxsk_port *port, u64 addr);

#endif /* _PPXSK_H */
