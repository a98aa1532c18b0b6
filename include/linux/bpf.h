/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The kernel-internal <linux/bpf.h>, as much of it as an XDP driver and a
 * redirecting XDP program need: struct bpf_prog, struct bpf_map, the
 * XDP_REDIRECT helpers bpf_redirect() and bpf_redirect_map(), and the
 * devmap (BPF_MAP_TYPE_DEVMAP).
 *
 * The UAPI header of the same name - enum xdp_action, XDP_PACKET_HEADROOM,
 * struct xdp_md, BPF_F_BROADCAST, BPF_OBJ_NAME_LEN - is the system's
 * (linux-libc-dev), pulled in first with #include_next, as the kernel's
 * <linux/bpf.h> includes <uapi/linux/bpf.h>. Nothing of it is copied here,
 * so libbpf and AF_XDP code compiles next to this header.
 *
 * What is simplified: there is no BPF bytecode, verifier or JIT. An XDP
 * program is a C function taking the buffer and a caller's argument and
 * returning an enum xdp_action; bpf_prog_run_xdp() (<linux/filter.h>)
 * calls it. The function calls the helpers below as a BPF program would.
 * Maps are made by the bpf() syscall in the kernel; here by the pp_devmap_*
 * calls, with the syscall's (BPF_MAP_UPDATE_ELEM / DELETE_ELEM) results.
 * Layer: xdp.
 */
#ifndef _PP_LINUX_BPF_H
#define _PP_LINUX_BPF_H

#include_next <linux/bpf.h>		/* UAPI: enum xdp_action, BPF_F_* */

#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/rcupdate.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xdp_buff;
struct bpf_map;				/* opaque: a devmap */

/*
 * An XDP program: @bpf_func(xdp, arg) returns an enum xdp_action. Made
 * by pp_xdp_prog_create(); a driver keeps it behind an RCU pointer
 * (READ_ONCE(rq->xdp_prog) in its NAPI poll), as the kernel's drivers do.
 */
struct bpf_prog {
	u32 (*bpf_func)(struct xdp_buff *xdp, void *arg);
	void *arg;
	char name[BPF_OBJ_NAME_LEN];
	struct rcu_head rcu;
};

/**
 * pp_xdp_prog_create() - an XDP program that is a C function
 * @fn: the program: called with the buffer and @arg, returns an enum xdp_action
 * @arg: passed to @fn
 * @name: kept for messages, cut to BPF_OBJ_NAME_LEN - 1 characters; may be NULL
 *
 * Context: process context.
 * Return: the program; ERR_PTR(-EINVAL) for a NULL @fn, ERR_PTR(-ENOMEM).
 */
struct bpf_prog *pp_xdp_prog_create(u32 (*fn)(struct xdp_buff *xdp, void *arg), void *arg,
				    const char *name);
/**
 * pp_xdp_prog_destroy() - free an XDP program after an RCU grace period
 * @prog: the program, unpublished by the caller; NULL or an ERR_PTR is ignored
 *
 * The kernel's bpf_prog_put() of the last reference: a NAPI poll on another
 * CPU that still runs it finishes first.
 *
 * Context: any context.
 */
void pp_xdp_prog_destroy(struct bpf_prog *prog);

/*
 * The helpers an XDP program calls before returning XDP_REDIRECT; they
 * record the target in the calling thread's redirect info (the kernel's
 * struct bpf_redirect_info, per task since v6.11), which the driver's
 * xdp_do_redirect() then consumes. The last call before xdp_do_redirect()
 * wins. Only from a program run by bpf_prog_run_xdp() in a NAPI poll (or
 * a bottom-half-disabled section), as in the kernel.
 *
 * bpf_redirect(): to the device with @ifindex, looked up when
 * xdp_do_redirect() runs. XDP_REDIRECT; XDP_ABORTED for any @flags (the
 * XDP form of the helper takes none).
 *
 * bpf_redirect_map(): to the device in entry @key of devmap @map, kept
 * as its ifindex and looked up again by xdp_do_redirect() (a target left
 * unconsumed never points at a freed device). XDP_REDIRECT when the entry
 * exists; otherwise the target is cleared and
 * the lower two bits of @flags are returned (an enum xdp_action:
 * XDP_ABORTED with flags 0, XDP_PASS with flags XDP_PASS, ...). @flags with
 * other bits than those and BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS:
 * XDP_ABORTED. @key is read as a u32, as the kernel's map lookup does.
 * BPF_F_BROADCAST (one frame to every entry) is accepted by the kernel but
 * not implemented here: XDP_ABORTED, with a one-time warning.
 */
/**
 * bpf_redirect() - the XDP helper: redirect to a device by ifindex
 * @ifindex: the device, looked up when xdp_do_redirect() runs
 * @flags: must be 0 (the XDP form of the helper takes none)
 *
 * Context: an XDP program run in a NAPI poll (see above).
 * Return: XDP_REDIRECT; XDP_ABORTED for any @flags.
 */
long bpf_redirect(u32 ifindex, u64 flags);
/**
 * bpf_redirect_map() - the XDP helper: redirect to a device of a devmap
 * @map: the devmap
 * @key: the entry (read as a u32)
 * @flags: the action when the entry is empty in the lower two bits;
 *	BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS (not implemented: XDP_ABORTED,
 *	one warning)
 *
 * Context: an XDP program run in a NAPI poll (see above).
 * Return: XDP_REDIRECT when the entry exists; otherwise the lower two
 * bits of @flags (XDP_ABORTED for flags 0); XDP_ABORTED for other bits.
 */
long bpf_redirect_map(struct bpf_map *map, u64 key, u64 flags);

/*
 * The devmap: an array of @max_entries slots, each empty or naming a
 * device. Entries are RCU-protected: the readers are redirecting NAPI
 * polls; an update, a delete, a device's unregistration (which empties
 * every slot naming it, as the kernel's devmap netdev notifier does) and
 * pp_devmap_destroy() free what they replaced after a grace period, so a
 * concurrent redirect on another CPU either sees the old device (and its
 * frame goes there) or none. Process context for all four.
 *
 * pp_devmap_create(): ERR_PTR(-EINVAL) for 0 or more than
 *	PP_DEVMAP_MAX_ENTRIES entries, ERR_PTR(-ENOMEM).
 * pp_devmap_update(): point slot @key at the registered device @ifindex
 *	(the kernel's BPF_ANY). 0; -E2BIG @key >= max_entries; -ENODEV no
 *	registered device has @ifindex; -EINVAL NULL or ERR_PTR @map,
 *	@ifindex <= 0; -ENOMEM.
 * pp_devmap_delete(): empty slot @key. 0; -E2BIG out of range; -ENOENT
 *	already empty; -EINVAL bad @map.
 * pp_devmap_destroy(): frees the map after a grace period; NULL or an
 *	ERR_PTR is ignored. No program may use @map afterwards.
 */
#define PP_DEVMAP_MAX_ENTRIES	(1U << 20)
/**
 * pp_devmap_create() - create a devmap
 * @max_entries: number of slots, 1 .. PP_DEVMAP_MAX_ENTRIES
 *
 * Context: process context.
 * Return: the map; ERR_PTR(-EINVAL) for 0 or more than
 * PP_DEVMAP_MAX_ENTRIES entries, ERR_PTR(-ENOMEM).
 */
struct bpf_map *pp_devmap_create(u32 max_entries);
/**
 * pp_devmap_update() - point a devmap slot at a device (the kernel's BPF_ANY)
 * @map: the map
 * @key: the slot
 * @ifindex: a registered device
 *
 * Context: process context.
 * Return: 0; -E2BIG for @key >= max_entries; -ENODEV if no registered
 * device has @ifindex; -EINVAL for a NULL or ERR_PTR @map, or @ifindex <= 0;
 * -ENOMEM.
 */
int pp_devmap_update(struct bpf_map *map, u32 key, int ifindex);
/**
 * pp_devmap_delete() - empty a devmap slot
 * @map: the map
 * @key: the slot
 *
 * Context: process context.
 * Return: 0; -E2BIG out of range; -ENOENT already empty; -EINVAL bad @map.
 */
int pp_devmap_delete(struct bpf_map *map, u32 key);
/**
 * pp_devmap_destroy() - free a devmap after a grace period
 * @map: the map; NULL or an ERR_PTR is ignored
 *
 * No program may use @map afterwards.
 *
 * Context: process context.
 */
void pp_devmap_destroy(struct bpf_map *map);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop
#endif /* _PP_LINUX_BPF_H */
