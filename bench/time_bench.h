/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * time_bench: Jesper Brouer's kernel micro-benchmark harness, in userspace,
 * with its API and its output lines byte for byte, so the kernel's tooling
 * (the selftest's regex, people's grep scripts) reads our results as it
 * reads the kernel's:
 *
 *   time_bench: Type:%s Per elem: %llu cycles(tsc) %llu.%03llu ns (step:%d)
 *     - (measurement period time:%llu.%09u sec time_interval:%llu)
 *     - (invoke count:%llu tsc_interval:%llu)
 *
 * (one line), the per-CPU "Type:%s CPU(%d) ..." lines and the
 * "Sum Type:%s Average: %llu cycles(tsc) CPUs:%d step:%d" line of
 * concurrent runs. Lines go through printk (pr_info), so pp_set_print()
 * decides where they land; time_bench_print_to_stdout() is the usual
 * choice for a benchmark program.
 *
 * Cycle counter: the TSC read between fences on x86 (lfence; rdtsc at the
 * start, rdtscp; lfence at the stop), the virtual counter cntvct_el0 on
 * arm64, CLOCK_MONOTONIC_RAW nanoseconds elsewhere. The lines say
 * "cycles(tsc)" on every target, as the kernel's time_bench does with
 * get_cycles() (cntvct_el0 on arm64 too), so the same tools read them; the
 * unit differs. x86-64: TSC cycles, at the TSC's frequency (calibrated
 * against CLOCK_MONOTONIC_RAW by time_bench_tsc_hz()). arm64: ticks of
 * the generic timer, at the frequency cntfrq_el0 states (often 24 MHz to
 * 1 GHz, fixed by the platform: not the CPU clock), which
 * time_bench_tsc_hz() returns as read, no calibration; ns of a count are
 * count * 1e9 / that. Under qemu-user the counter is the emulator's
 * rendering of host time, and no figure is a CPU cycle of anything.
 * time_bench_print_unit() prints that as a line on targets other than
 * x86-64 (whose output stays the kernel's, byte for byte). The "ns"
 * figure of a line is wall time either way: CLOCK_REALTIME around the loop,
 * as in the kernel.
 * Layer: bench.
 */
#ifndef PP_BENCH_TIME_BENCH_H
#define PP_BENCH_TIME_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/ktime.h>
#include <linux/types.h>

#define TIME_BENCH_LOOP		(1U << 0)
#define TIME_BENCH_TSC		(1U << 1)
#define TIME_BENCH_WALLCLOCK	(1U << 2)
#define TIME_BENCH_PMU		(1U << 3)	/* no PMU here: never set */

struct time_bench_record {
	uint32_t version_abi;
	uint32_t loops;		/* requested invocations */
	uint32_t step;		/* e.g. bulk size */
	uint32_t flags;
	int32_t cpu;		/* for concurrent runs */
	/* Records */
	uint64_t invoked_cnt;	/* what the measured function reports */
	uint64_t tsc_start;
	uint64_t tsc_stop;
	struct timespec64 ts_start;
	struct timespec64 ts_stop;
	uint64_t pmc_inst_start, pmc_inst_stop, pmc_clk_start, pmc_clk_stop;
	/* Results */
	uint64_t tsc_interval;
	uint64_t time_start, time_stop, time_interval;	/* ns */
	uint64_t pmc_inst, pmc_clk;
	/* Derived */
	uint64_t tsc_cycles;			/* per invocation, truncated */
	uint64_t ns_per_call_quotient, ns_per_call_decimal;
	uint64_t time_sec;
	uint32_t time_sec_remainder;
	uint64_t pmc_ipc_quotient, pmc_ipc_decimal;
};

/* The counter, fenced so the timed region neither leaks out nor in. */
static inline uint64_t time_bench_tsc_start(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
#endif
}

static inline uint64_t time_bench_tsc_stop(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) :: "memory");
	return v;
#else
	return time_bench_tsc_start();
#endif
}

static inline void time_bench_start(struct time_bench_record *rec)
{
	ktime_get_real_ts64(&rec->ts_start);
	rec->tsc_start = time_bench_tsc_start();
}

static inline void time_bench_stop(struct time_bench_record *rec, uint64_t invoked_cnt)
{
	rec->tsc_stop = time_bench_tsc_stop();
	ktime_get_real_ts64(&rec->ts_stop);
	rec->invoked_cnt = invoked_cnt;
}

/* Derive the results; false (and a pr_err) if the record is unusable:
 * fewer than 1000 invocations, zero elapsed time, wrong ABI. */
bool time_bench_calc_stats(struct time_bench_record *rec);

/* Print the record's line, as time_bench_loop() does. */
void time_bench_print_record(const char *txt, const struct time_bench_record *rec);

/* Run @func once with a fresh record for @loops invocations and print the
 * result line. @func returns the number of invocations it timed (0 =
 * failure: "ABORT: function being timed failed"). */
bool time_bench_loop(uint32_t loops, int step, const char *txt, void *data,
		     int (*func)(struct time_bench_record *record, void *data));

/* Concurrent runs: one thread per CPU of @cpus (host CPU ids, each thread
 * pinned and registered as that logical CPU), started together. */
struct time_bench_sync {
	int start;
	int ready;
};

struct time_bench_cpu {
	struct time_bench_record rec;
	struct time_bench_sync *sync;
	void *data;
	int (*bench_func)(struct time_bench_record *record, void *data);
	int cpu;
	bool did_bench_run;
	void *thread;
};

void time_bench_run_concurrent(uint32_t loops, int step, void *data,
			       const int *cpus, int nr_cpus,
			       struct time_bench_sync *sync,
			       struct time_bench_cpu *cpu_tasks,
			       int (*func)(struct time_bench_record *record, void *data));
void time_bench_print_stats_cpumask(const char *desc, struct time_bench_cpu *cpu_tasks,
				    int nr_cpus);

/* Counter ticks per second: x86-64's TSC calibrated once (about 50 ms);
 * arm64's cntfrq_el0 as read; 1e9 for the CLOCK_MONOTONIC_RAW fallback. */
uint64_t time_bench_tsc_hz(void);

/* Print, as "time_bench: time unit: ...", what the "cycles(tsc)" figures are
 * and at what frequency, on targets where they are not TSC cycles; nothing
 * on x86-64, where the kernel's format already says it. */
void time_bench_print_unit(void);

/* Send printk() output (the result lines) to stdout. */
void time_bench_print_to_stdout(void);

#endif /* PP_BENCH_TIME_BENCH_H */
