/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The XDP half of the kernel's <linux/filter.h>: running a program on a
 * buffer, and XDP_REDIRECT - xdp_do_redirect() after the program chose a
 * target with bpf_redirect() or bpf_redirect_map() (<linux/bpf.h>), and
 * xdp_do_flush() at the end of the NAPI poll.
 *
 * The model is the kernel's devmap bulking (kernel/bpf/devmap.c):
 * every device with an ndo_xdp_xmit has one bulk queue per CPU
 * (dev->xdp_bulkq, made when it registers and freed when it unregisters,
 * by a netdevice notifier). xdp_do_redirect() turns the buffer into a
 * frame and appends it to the target's queue for this CPU, which it puts
 * on this CPU's flush list; a queue that already holds XDP_BULK_QUEUE_SIZE
 * (16, the kernel's DEV_MAP_BULK_SIZE) frames is sent first, with flags 0.
 * xdp_do_flush() sends every queue on the list with XDP_XMIT_FLUSH.
 * ndo_xdp_xmit(dev, n, frames, flags) returns how many frames it took
 * (from the start of the array: 0..n) or -errno (none taken); the frames
 * not taken are given back with xdp_return_frame_rx_napi() and counted as
 * drops (<pagepool/xdp.h>). A frame the driver took is the driver's: it
 * gives it back from its TX completion.
 *
 * Context, as in the kernel: both calls run inside a NAPI poll (or another
 * bottom-half-disabled section), on the CPU of the poll, and a driver that
 * redirected calls xdp_do_flush() before its poll returns - the frames
 * sit in per-CPU queues until then. A bottom-half-disabled section is an
 * RCU read-side one, which keeps the target device valid meanwhile; the
 * shared logical CPU (<pagepool/runtime.h>) is held by one thread in
 * such a section, so its queues have one user at a time as any CPU's.
 * Called outside one, xdp_do_redirect() refuses (-EINVAL, a one-time
 * WARN) and xdp_do_flush() does nothing but warn.
 * Layer: xdp.
 */
#ifndef _PP_LINUX_FILTER_H
#define _PP_LINUX_FILTER_H

#include <linux/bpf.h>
#include <linux/compiler.h>
#include <linux/netdevice.h>
#include <linux/types.h>
#include <net/xdp.h>

#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel's DEV_MAP_BULK_SIZE: frames per device per CPU before a
 * send; the same size as an xdp_frame_bulk. */
#define DEV_MAP_BULK_SIZE	XDP_BULK_QUEUE_SIZE

/*
 * One device's bulk queue on one CPU (kernel/bpf/devmap.c's struct
 * xdp_dev_bulk_queue). Only its CPU touches it, with bottom halves off.
 */
struct xdp_dev_bulk_queue {
	struct xdp_frame *q[DEV_MAP_BULK_SIZE];
	struct list_head flush_node;	/* on this CPU's flush list, or empty */
	struct net_device *dev;		/* the target: constant */
	struct net_device *dev_rx;	/* the RX device of the queued frames */
	unsigned int count;
	bool dead;			/* the device is gone (a driver bug left
					 * frames here): give them back */
};

/* Run @prog on @xdp: its enum xdp_action. @prog is not NULL (a driver runs
 * only a program it found attached). */
static __always_inline u32 bpf_prog_run_xdp(const struct bpf_prog *prog, struct xdp_buff *xdp)
{
	return prog->bpf_func(xdp, prog->arg);
}

/**
 * xdp_do_redirect() - queue a buffer for the target its program chose
 * @dev: the receiving device
 * @xdp: the buffer
 * @prog: the program (may be NULL: it is named in no message yet)
 *
 * Consumes the target the program set (once: a second call without a new
 * helper call has none) and queues @xdp, as a frame, for it; the frame
 * then belongs to the redirect path (sent at the latest by xdp_do_flush()).
 *
 * Context: the NAPI poll (bottom halves disabled).
 * Return: 0 when queued. -errno when nothing was queued and the buffer is
 * still the caller's (the driver recycles it, as for XDP_DROP):
 * -EINVAL: no target set; the target (an ifindex, or a devmap entry's
 * device) is not registered (any more); called outside a
 * bottom-half-disabled section; @dev or @xdp NULL (a one-time WARN).
 * -ENETDOWN: the target is not up (IFF_UP clear in dev->flags).
 * -EOPNOTSUPP: the target has no ndo_xdp_xmit.
 * -EMSGSIZE: the frame is longer than the target's MTU plus its link
 * header and a VLAN tag (the kernel's xdp_ok_fwd_dev()).
 * -EOVERFLOW: the buffer cannot become a frame (headroom too small, or
 * an AF_XDP buffer).
 * -ENOMEM: the target's bulk queues could not be allocated when it
 * registered.
 */
int xdp_do_redirect(struct net_device *dev, struct xdp_buff *xdp, struct bpf_prog *prog);

/**
 * xdp_do_flush() - send every bulk queue on this CPU's flush list
 *
 * Each with XDP_XMIT_FLUSH (see above).
 *
 * Context: the NAPI poll that redirected, before it returns.
 */
void xdp_do_flush(void);

/* The kernel's name before v6.11. */
static inline void xdp_do_flush_map(void)
{
	xdp_do_flush();
}

/**
 * bpf_warn_invalid_xdp_action() - warn about an action the driver does not handle
 * @dev: the device (may be NULL)
 * @prog: the program (may be NULL)
 * @act: the action it returned
 *
 * A one-time warning naming them, as the kernel's. The driver then drops
 * the buffer.
 *
 * Context: any context.
 */
void bpf_warn_invalid_xdp_action(struct net_device *dev, struct bpf_prog *prog, u32 act);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop
#endif /* _PP_LINUX_FILTER_H */
