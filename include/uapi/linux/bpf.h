/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * <uapi/linux/bpf.h>, the path kernel code (cpsw_priv.h, for one) uses to
 * name the UAPI BPF header directly. In the kernel's tree that is
 * include/uapi/linux/bpf.h; here the UAPI header is the system's
 * <linux/bpf.h> (linux-libc-dev), and this is that header and nothing
 * else: #include_next skips pagepool's kernel-internal <linux/bpf.h>
 * (which includes the system's the same way), as this file was found in
 * the directory that holds it.
 * Layer: xdp.
 */
#include_next <linux/bpf.h>
