/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The kernel side of pagepool's AF_XDP users: our XDP program
 * (bpf/xsk_redirect.bpf.c, embedded in the binary) attached to one real
 * interface, with its XSKMAP (64 queues). A frame that arrives on queue q
 * goes to the AF_XDP socket added for q, or to the kernel stack when there
 * is none. The pagepool driver (ppxsk) and the fixed-frame baseline both
 * use it, so that what the kernel does is the same for both.
 *
 * This header includes nothing of pagepool's or of the system's BPF
 * headers: it compiles beside either. xsk_bpf.c itself is built against
 * the system's uapi, libbpf and libxdp headers only.
 *
 * Errors: ppxsk_bpf_attach() returns an ERR_PTR()-encoded -errno (test it
 * with IS_ERR()/PTR_ERR() of <linux/err.h>, or as a pointer value in
 * [-4095, -1]); the others return 0 or -errno. -EBUSY: the interface has
 * an XDP program in that mode already, -EEXIST: in the other mode (nothing
 * is replaced). -ENODEV: no such interface. -EOPNOTSUPP: the interface has
 * no native XDP (drv_mode).
 *
 * -EBUSY/-EEXIST also print one line on stderr saying what holds the
 * interface (ppxsk_bpf_holder()).
 *
 * Context: process context, any thread; one caller at a time per struct
 * ppxsk_bpf. The program is attached through a BPF link: it runs while the
 * process lives and is detached by ppxsk_bpf_detach() or when the process
 * exits in any way, SIGKILL included (the link goes with its last fd).
 * Layer: drivers.
 */
#ifndef PPXSK_XSK_BPF_H
#define PPXSK_XSK_BPF_H

#include <stdbool.h>
#include <stddef.h>

struct ppxsk_bpf;
struct xsk_socket;

/* Load the program and attach it to ifname: native XDP (drv_mode) or the
 * generic hook (skb mode). Fails with -EBUSY rather than replace a program. */
struct ppxsk_bpf *ppxsk_bpf_attach(const char *ifname, bool drv_mode);
/* Frames of RX queue `queue` go to xsk (its fd into the XSKMAP); replaces
 * the socket that queue had. -EINVAL: queue >= 64 or a NULL argument. */
int ppxsk_bpf_add_socket(struct ppxsk_bpf *b, unsigned int queue, struct xsk_socket *xsk);
/* Queue `queue` has no socket any more: its frames go to the stack. 0 also
 * when it had none (the kernel's XSKMAP delete does not tell). Closing a
 * socket removes it from the map too. */
int ppxsk_bpf_del_socket(struct ppxsk_bpf *b, unsigned int queue);
/* The XSKMAP's fd, for callers that manage the entries themselves. */
int ppxsk_bpf_map_fd(const struct ppxsk_bpf *b);
/* The interface it is attached to. */
int ppxsk_bpf_ifindex(const struct ppxsk_bpf *b);
/* Detach our program (destroy its link: nobody can have replaced it),
 * close the map and free b. b is freed in every case. */
int ppxsk_bpf_detach(struct ppxsk_bpf *b);
/* What holds ifname's XDP hook: writes a one-line description into buf
 * (program id and name, its mode, and whether a BPF link of a live process
 * holds it or netlink attached it, with the `ip link set dev IF xdpgeneric
 * off` / `xdp off` that removes the latter). Returns the program's id
 * (> 0), 0 when the interface has no XDP program (buf untouched), -ENODEV,
 * -EINVAL, or the -errno of the query. */
int ppxsk_bpf_holder(const char *ifname, char *buf, size_t len);

#endif /* PPXSK_XSK_BPF_H */
