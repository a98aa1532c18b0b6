/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What every benchmark program shares: kernel-module-style key=value
 * parameters ("loops=10000000 run_flags=0x3"), pinning, arena set-up with
 * pre-faulting, and the "tasklet" context (softirq on the pool's owner
 * thread).
 * Layer: bench.
 */
#ifndef PP_BENCH_COMMON_H
#define PP_BENCH_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bench_param {
	const char *name;
	unsigned long long *value;
	const char *help;
};

/* Parse argv as name=value pairs (decimal or 0x hex); unknown names or
 * malformed values print usage and exit(2). */
void bench_parse_params(int argc, char **argv, const struct bench_param *params, int n);

/* Set up the calling thread as the benchmark's CPU: pin to host CPU
 * @host_cpu (when >= 0), claim logical CPU @cpu, create a pre-faulted
 * arena of @arena_mb MiB, print to stdout. Exits on failure. */
void bench_init(int host_cpu, int cpu, unsigned long arena_mb);

/* Run @fn the way the kernel runs a tasklet: in softirq context on this
 * (the pool's owner) thread. */
void bench_run_in_softirq(void (*fn)(void *arg), void *arg);

/* Cross-CPU topologies (ours and DPDK's): a queue that stays full this
 * long means its consumer is gone, and the producer gives up. (The kernel
 * module gives up after 1000 attempts per page; on a loaded machine a
 * descheduled consumer can legitimately take longer than that.) */
#define PP_BENCH_STALL_SEC	10

/*
 * Design axes (pagepool's run-time choices, <pagepool/core.h>): the
 * programs' design parameters (ring=, tracking=) go through these, so that
 * every program names a design, refuses one and says "not in this build"
 * the same way.
 *
 * bench_set_design(): @param=@v (-1: keep the build's design, or the one
 * the environment chose) through @set (pp_page_pool_set_ring_mode() and
 * the like). Returns 0, or the exit status the program should end with:
 * 77 for a design this build does not compile in (a line on stderr says
 * which meson option has it), so that a script that runs every design can
 * tell "not in this build" from a failure; 2 for a value that is no
 * design. @names[0..@nr) are the designs by enum value; @option the meson
 * option that selects one.
 *
 * bench_current_design(): the design new pools get now.
 */
int bench_set_design(const char *param, unsigned long long v, int (*set)(int),
		     const char *const *names, size_t nr, const char *option);
int bench_current_design(int (*set)(int), int always_built);

/* The ring designs by enum pp_ring_mode value (PAGEPOOL_RING's names). */
extern const char *const bench_ring_names[];
extern const size_t bench_nr_ring_names;

/* The name of ring design @mode ("?" for a value that is none). */
const char *bench_ring_name(int mode);

/* ring=@v: bench_set_design() on the ring axis. */
int bench_set_ring(unsigned long long v);

/* The ring design new pools get now, by name. */
const char *bench_ring_current(void);

/* CLOCK_MONOTONIC, whole seconds. */
uint64_t pp_bench_now_sec(void);

#endif
