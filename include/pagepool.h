/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool's own calls (everything that is not the kernel's API): threads as
 * CPUs, the print callback, WARN counters and fault injection (runtime), the
 * arena (mm), simulated devices (dma), page_pool introspection (core) and
 * the XDP return-path switch (xdp), the telemetry server (telemetry).
 * Kernel code needs this header only to set up threads and devices.
 */
#ifndef _PAGEPOOL_H
#define _PAGEPOOL_H

#include <pagepool/runtime.h>
#include <pagepool/mm.h>
#include <pagepool/dma.h>
#include <pagepool/core.h>
#include <pagepool/xdp.h>
#include <pagepool/telemetry.h>

#endif
