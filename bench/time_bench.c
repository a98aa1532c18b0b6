/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * time_bench: statistics, printing and concurrent runs (see time_bench.h).
 * The arithmetic is the kernel harness's: integer cycles per call
 * (tsc_interval / invoked_cnt), ns per call as quotient plus a 3-digit
 * "decimal" computed as remainder / (invoked_cnt / 1000), truncating, which
 * is what the kernel prints (its comment calls it an incorrect roundup).
 * Tools that want more precision use tsc_interval and the invoke count,
 * both on the line. What a "cycle" is depends on the target (time_bench.h).
 */
#define pr_fmt(fmt) "time_bench: " fmt

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <pagepool/runtime.h>

#include "time_bench.h"

#define NANOSEC_PER_SEC	1000000000ULL

bool time_bench_calc_stats(struct time_bench_record *rec)
{
	uint32_t ns_per_call_remainder = 0;
	uint64_t invoked_cnt = rec->invoked_cnt;

	if (rec->version_abi != 1) {
		pr_err("ABI version mismatch\n");
		return false;
	}
	if (invoked_cnt < 1000) {
		pr_err("ERR: need more(>1000) loops(%llu) for timing\n",
		       (unsigned long long)invoked_cnt);
		return false;
	}
	if (invoked_cnt > 0xffffffffULL) {
		pr_err("ERR: Invoke counter too big (%llu)\n", (unsigned long long)invoked_cnt);
		return false;
	}
	if (rec->flags & TIME_BENCH_TSC) {
		rec->tsc_interval = rec->tsc_stop - rec->tsc_start;
		if (!rec->tsc_interval) {
			pr_err("ABORT: timing took ZERO TSC time\n");
			return false;
		}
		rec->tsc_cycles = rec->tsc_interval / invoked_cnt;
	}
	if (rec->flags & TIME_BENCH_WALLCLOCK) {
		rec->time_start = (uint64_t)rec->ts_start.tv_sec * NANOSEC_PER_SEC +
				  (uint64_t)rec->ts_start.tv_nsec;
		rec->time_stop = (uint64_t)rec->ts_stop.tv_sec * NANOSEC_PER_SEC +
				 (uint64_t)rec->ts_stop.tv_nsec;
		rec->time_interval = rec->time_stop - rec->time_start;
		if (!rec->time_interval) {
			pr_err("ABORT: timing took ZERO wallclock time\n");
			return false;
		}
		rec->time_sec = div_u64_rem(rec->time_interval, (u32)NANOSEC_PER_SEC,
					    &rec->time_sec_remainder);
		rec->ns_per_call_quotient = div_u64_rem(rec->time_interval, (u32)invoked_cnt,
							&ns_per_call_remainder);
		rec->ns_per_call_decimal = ns_per_call_remainder / (invoked_cnt / 1000);
	}
	return true;
}

void time_bench_print_record(const char *txt, const struct time_bench_record *rec)
{
	pr_info("Type:%s Per elem: %llu cycles(tsc) %llu.%03llu ns (step:%d) - (measurement period time:%llu.%09u sec time_interval:%llu) - (invoke count:%llu tsc_interval:%llu)\n",
		txt, (unsigned long long)rec->tsc_cycles,
		(unsigned long long)rec->ns_per_call_quotient,
		(unsigned long long)rec->ns_per_call_decimal, (int)rec->step,
		(unsigned long long)rec->time_sec, rec->time_sec_remainder,
		(unsigned long long)rec->time_interval,
		(unsigned long long)rec->invoked_cnt,
		(unsigned long long)rec->tsc_interval);
}

bool time_bench_loop(uint32_t loops, int step, const char *txt, void *data,
		     int (*func)(struct time_bench_record *record, void *data))
{
	struct time_bench_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.version_abi = 1;
	rec.loops = loops;
	rec.step = (uint32_t)step;
	rec.flags = TIME_BENCH_LOOP | TIME_BENCH_TSC | TIME_BENCH_WALLCLOCK;

	if (!func(&rec, data)) {
		pr_err("ABORT: function being timed failed\n");
		return false;
	}
	if (rec.invoked_cnt < loops)
		pr_warn("WARNING: Invoke count(%llu) smaller than loops(%u)\n",
			(unsigned long long)rec.invoked_cnt, loops);
	if (!time_bench_calc_stats(&rec))
		return false;
	time_bench_print_record(txt, &rec);
	return true;
}

/* Concurrent runs. */

static void *concurrent_thread(void *arg)
{
	struct time_bench_cpu *c = arg;

	pp_thread_pin(c->cpu);
	pp_thread_register(-1);
	__atomic_fetch_add(&c->sync->ready, 1, __ATOMIC_ACQ_REL);
	while (!__atomic_load_n(&c->sync->start, __ATOMIC_ACQUIRE))
		sched_yield();
	if (c->bench_func(&c->rec, c->data))
		c->did_bench_run = true;
	pp_thread_unregister();
	return NULL;
}

void time_bench_run_concurrent(uint32_t loops, int step, void *data,
			       const int *cpus, int nr_cpus,
			       struct time_bench_sync *sync,
			       struct time_bench_cpu *cpu_tasks,
			       int (*func)(struct time_bench_record *record, void *data))
{
	pthread_t tids[nr_cpus];
	int i;

	sync->start = 0;
	sync->ready = 0;
	for (i = 0; i < nr_cpus; i++) {
		struct time_bench_cpu *c = &cpu_tasks[i];

		memset(&c->rec, 0, sizeof(c->rec));
		c->rec.version_abi = 1;
		c->rec.loops = loops;
		c->rec.step = (uint32_t)step;
		c->rec.flags = TIME_BENCH_LOOP | TIME_BENCH_TSC | TIME_BENCH_WALLCLOCK;
		c->rec.cpu = cpus[i];
		c->sync = sync;
		c->data = data;
		c->bench_func = func;
		c->cpu = cpus[i];
		c->did_bench_run = false;
		pthread_create(&tids[i], NULL, concurrent_thread, c);
	}
	while (__atomic_load_n(&sync->ready, __ATOMIC_ACQUIRE) < nr_cpus)
		sched_yield();
	__atomic_store_n(&sync->start, 1, __ATOMIC_RELEASE);
	for (i = 0; i < nr_cpus; i++)
		pthread_join(tids[i], NULL);
}

void time_bench_print_stats_cpumask(const char *desc, struct time_bench_cpu *cpu_tasks,
				    int nr_cpus)
{
	uint64_t average = 0;
	int i, step = 0, n = 0;

	for (i = 0; i < nr_cpus; i++) {
		struct time_bench_cpu *c = &cpu_tasks[i];
		struct time_bench_record *rec = &c->rec;

		if (!c->did_bench_run || !time_bench_calc_stats(rec))
			continue;
		pr_info("Type:%s CPU(%d) %llu cycles(tsc) %llu.%03llu ns (step:%d) - (measurement period time:%llu.%09u sec time_interval:%llu) - (invoke count:%llu tsc_interval:%llu)\n",
			desc, c->cpu, (unsigned long long)rec->tsc_cycles,
			(unsigned long long)rec->ns_per_call_quotient,
			(unsigned long long)rec->ns_per_call_decimal, (int)rec->step,
			(unsigned long long)rec->time_sec, rec->time_sec_remainder,
			(unsigned long long)rec->time_interval,
			(unsigned long long)rec->invoked_cnt,
			(unsigned long long)rec->tsc_interval);
		average += rec->tsc_cycles;
		step = (int)rec->step;
		n++;
	}
	if (n)
		average /= (uint64_t)n;
	pr_info("Sum Type:%s Average: %llu cycles(tsc) CPUs:%d step:%d\n",
		desc, (unsigned long long)average, n, step);
}

uint64_t time_bench_tsc_hz(void)
{
#if defined(__x86_64__) || defined(__i386__)
	static uint64_t hz;
	struct timespec a, b;
	uint64_t t0, t1, ns;

	if (hz)
		return hz;
	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = time_bench_tsc_start();
	do {
		clock_gettime(CLOCK_MONOTONIC_RAW, &b);
		ns = (uint64_t)(b.tv_sec - a.tv_sec) * NANOSEC_PER_SEC +
		     (uint64_t)b.tv_nsec - (uint64_t)a.tv_nsec;
	} while (ns < 50 * 1000 * 1000);
	t1 = time_bench_tsc_stop();
	hz = (uint64_t)((double)(t1 - t0) * 1e9 / (double)ns);
	return hz;
#elif defined(__aarch64__)
	/* The generic timer states its own frequency; EL0 may read it. */
	uint64_t hz;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
	return hz;
#else
	return NANOSEC_PER_SEC;
#endif
}

void time_bench_print_unit(void)
{
#if defined(__aarch64__)
	uint64_t hz = time_bench_tsc_hz();

	pr_info("time unit: \"cycles(tsc)\" are cntvct_el0 ticks at %llu Hz (cntfrq_el0; %llu.%03llu ns per tick), not CPU cycles; under qemu-user they are emulated host time\n",
		(unsigned long long)hz,
		hz ? (unsigned long long)(NANOSEC_PER_SEC / hz) : 0ULL,
		hz ? (unsigned long long)(NANOSEC_PER_SEC * 1000 / hz % 1000) : 0ULL);
#elif !defined(__x86_64__) && !defined(__i386__)
	pr_info("time unit: \"cycles(tsc)\" are CLOCK_MONOTONIC_RAW nanoseconds\n");
#endif
}

static int stdout_print(int level, const char *fmt, va_list ap)
{
	if (level > LOGLEVEL_INFO)
		return 0;
	return vfprintf(level <= LOGLEVEL_WARNING ? stderr : stdout, fmt, ap);
}

void time_bench_print_to_stdout(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	pp_set_print(stdout_print);
}
