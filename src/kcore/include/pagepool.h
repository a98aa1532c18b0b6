/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * <pagepool.h> of a kernel core build (meson -Dkernel_core,
 * docs/KERNEL_CORE.md): pagepool's own API less the XDP layer and the
 * telemetry server, which sit on pagepool's core. <pagepool/core.h> is
 * there, answered from the kernel's struct page_pool where it can be
 * (src/kcore/glue.c) and -EOPNOTSUPP where only pagepool's core can.
 * Layer: core (kernel core mode).
 */
#ifndef _PAGEPOOL_H
#define _PAGEPOOL_H

#include <pagepool/runtime.h>
#include <pagepool/mm.h>
#include <pagepool/dma.h>
#include <pagepool/core.h>

#endif
