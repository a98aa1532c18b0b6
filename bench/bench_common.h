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

/* CLOCK_MONOTONIC, whole seconds. */
uint64_t pp_bench_now_sec(void);

#endif
