/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * <uapi/linux/bpf.h>, the path kernel code (cpsw_priv.h, for one) uses to
 * name the UAPI BPF header directly. In the kernel's tree that is
 * include/uapi/linux/bpf.h; here the UAPI header is the system's
 * <linux/bpf.h> (linux-libc-dev), which <net/xdp.h> also includes, so this
 * is that header and nothing else. pagepool has no kernel-internal
 * <linux/bpf.h> that could shadow it.
 * Layer: xdp.
 */
#include <linux/bpf.h>
