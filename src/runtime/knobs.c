/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The run-time knobs: every environment variable the library reads, read
 * here and nowhere else, so that one table says what a process can be
 * told from outside. The layers interpret their own values; this file
 * only knows the names.
 *
 * A knob is read when asked for, not cached at start-up: the callers read
 * it once where a cached value is right (a design default, the log level)
 * and at every use where it is not (a test sets PAGEPOOL_DMA_ABORT in a
 * forked child before it provokes a violation).
 */
#include <stdlib.h>

#include "runtime/runtime_internal.h"

static const char *const pprt_knob_names[PPRT_KNOB_NR] = {
	/* runtime (log.c): "1" prints debug-level messages. */
	[PPRT_KNOB_DEBUG] = "PAGEPOOL_DEBUG",
	/* runtime (log.c): "1" prints a backtrace with each WARN. */
	[PPRT_KNOB_WARN_BACKTRACE] = "PAGEPOOL_WARN_BACKTRACE",
	/* runtime (log.c): "1" aborts at the first WARN. */
	[PPRT_KNOB_WARN_ABORT] = "PAGEPOOL_WARN_ABORT",
	/* mm (arena.c): the arena's size in MiB when pp_mem_init() gets 0. */
	[PPRT_KNOB_MEM_MB] = "PAGEPOOL_MEM_MB",
	/* dma (debug.c): "1" aborts at a DMA-API violation. */
	[PPRT_KNOB_DMA_ABORT] = "PAGEPOOL_DMA_ABORT",
	/* core (pool.c): lanes | ptr_ring (a one-design build warns about the other). */
	[PPRT_KNOB_RING] = "PAGEPOOL_RING",
	/* core (pool.c): index | items | off (likewise). */
	[PPRT_KNOB_DMA_TRACKING] = "PAGEPOOL_DMA_TRACKING",
	/* xdp (designs.c): direct | lookup (a one-design build warns about the other). */
	[PPRT_KNOB_XDP_RETURN] = "PAGEPOOL_XDP_RETURN",
	/* xdp (designs.c): id | rculfhash (likewise). */
	[PPRT_KNOB_XDP_TABLE] = "PAGEPOOL_XDP_TABLE",
};

const char *pprt_knob_name(enum pprt_knob knob)
{
	return (unsigned int)knob < PPRT_KNOB_NR ? pprt_knob_names[knob] : NULL;
}

const char *pprt_knob(enum pprt_knob knob)
{
	const char *name = pprt_knob_name(knob);
	const char *v = name ? getenv(name) : NULL;

	return v && *v ? v : NULL;
}

bool pprt_knob_flag(enum pprt_knob knob)
{
	const char *v = pprt_knob(knob);

	return v && v[0] == '1' && !v[1];
}
