/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * <net/xdp.h> next to the system's UAPI <linux/bpf.h> and <linux/if_xdp.h>
 * and libbpf's <bpf/libbpf.h>, in one translation unit: AF_XDP and libbpf
 * programs include them together with ours. Built twice, with our header
 * first and last (PP_UAPI_OURS_LAST), so neither order may redefine
 * anything; it then checks that the constants both sides use agree and
 * that the kernel-side and UAPI-side structures are all usable. Compiled
 * with -Werror, so a redefined macro (XDP_PACKET_HEADROOM, say) fails the
 * build, as a redefined type would anyway. Without
 * libbpf-dev (no PP_HAVE_LIBBPF) the libbpf half is skipped, and the test
 * says so with meson's skip code after checking the rest.
 */
#ifndef PP_UAPI_OURS_LAST
#include <net/xdp.h>
#include <net/page_pool/helpers.h>
#endif

#include <linux/bpf.h>
#include <linux/if_xdp.h>
#ifdef PP_HAVE_LIBBPF
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#endif

#ifdef PP_UAPI_OURS_LAST
#include <net/xdp.h>
#include <net/page_pool/helpers.h>
#endif

#include <stdio.h>

/* The system's headers, not copies of ours: pagepool must never ship a
 * UAPI <linux/bpf.h> (or <linux/if_xdp.h>) of its own. Its <linux/bpf.h>
 * is the kernel-internal one (struct bpf_prog, the redirect helpers), which
 * includes the system's UAPI header as the kernel's includes
 * <uapi/linux/bpf.h>; both must be here. */
#if !defined(__LINUX_BPF_H__) || !defined(_LINUX_IF_XDP_H) || !defined(BPF_PSEUDO_MAP_FD)
#error "<linux/bpf.h> / <linux/if_xdp.h> are not the system's UAPI headers"
#endif
#ifndef _PP_LINUX_BPF_H
#error "<linux/bpf.h> is not pagepool's kernel-internal header"
#endif

_Static_assert(XDP_PACKET_HEADROOM == 256, "UAPI headroom");
_Static_assert(XDP_PACKET_HEADROOM >= sizeof(struct xdp_frame), "a frame fits the headroom");
_Static_assert(XDP_PASS == 2 && XDP_REDIRECT == 4, "enum xdp_action from UAPI");
_Static_assert(sizeof(struct xdp_md) == 24, "UAPI xdp_md");

/* Both sides' names in one function. */
static int use_both(struct xdp_buff *xdp, struct xdp_md *md, struct xdp_desc *desc)
{
	struct sockaddr_xdp sxdp = { .sxdp_family = 44, .sxdp_flags = XDP_ZEROCOPY };
	enum xdp_action act = XDP_DROP;

	desc->len = xdp_get_buff_len(xdp);
	md->data_meta = 0;
	return (int)act + (int)sxdp.sxdp_flags + (xdp_data_meta_unsupported(xdp) ? 1 : 0);
}

int main(void)
{
	struct xdp_rxq_info rxq = { 0 };
	struct xdp_desc desc = { 0 };
	struct xdp_md md = { 0 };
	struct xdp_buff xdp;
	char buf[512];

	xdp_init_buff(&xdp, sizeof(buf), &rxq);
	xdp_prepare_buff(&xdp, (unsigned char *)buf, 0, 64, true);
	if (use_both(&xdp, &md, &desc) != XDP_DROP + XDP_ZEROCOPY || desc.len != 64)
		return 1;
#ifdef PP_HAVE_LIBBPF
	/* Link against libbpf too: a call, not only declarations. */
	if (libbpf_major_version() < 1)
		return 1;
	printf("libbpf %u.%u with <net/xdp.h>: ok\n", libbpf_major_version(),
	       libbpf_minor_version());
	return 0;
#else
	printf("libbpf-dev not installed: <bpf/libbpf.h> not checked\n");
	return 77;
#endif
}
