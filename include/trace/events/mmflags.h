/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The kernel's <trace/events/mmflags.h> gives events headers the names of
 * GFP and page flags for their TP_printk() lines (show_gfp_flags() and
 * friends). The events headers that pagepool hosts print none, so this
 * only keeps the kernel's include line working.
 * Layer: runtime.
 */
#ifndef _PP_TRACE_EVENTS_MMFLAGS_H
#define _PP_TRACE_EVENTS_MMFLAGS_H
#endif
