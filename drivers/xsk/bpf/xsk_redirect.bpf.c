/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The kernel-side XDP program of the AF_XDP driver and of the fixed-frame
 * baseline: every frame that arrives on a queue with an AF_XDP socket in
 * xsks_map goes to that socket; frames of queues without one continue to
 * the kernel stack (XDP_PASS, the bpf_redirect_map() default action).
 *
 * Compiled by clang for the BPF target at build time (drivers/xsk/meson.build)
 * against the system's uapi and libbpf headers, never pagepool's, and
 * embedded into xsk_bpf.c as bytes. Runs in the kernel, in the receive
 * softirq of the interface (native veth XDP) or of the generic XDP hook.
 * Layer: drivers.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Key: RX queue index; value: an AF_XDP socket fd (as written by user space). */
struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} xsks_map SEC(".maps");

SEC("xdp")
int ppxsk_redirect(struct xdp_md *ctx)
{
	return bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_PASS);
}

/* No GPL-only helper is used; the kernel takes any license string. */
char _license[] SEC("license") = "Dual BSD/GPL";
