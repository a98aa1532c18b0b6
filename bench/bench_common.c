/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Shared benchmark plumbing (see bench_common.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/bottom_half.h>
#include <pagepool.h>

#include "bench_common.h"
#include "time_bench.h"

static void usage(const char *prog, const struct bench_param *params, int n)
{
	int i;

	fprintf(stderr, "usage: %s [name=value ...]\n", prog);
	for (i = 0; i < n; i++)
		fprintf(stderr, "  %-16s %s (default %llu)\n", params[i].name,
			params[i].help, *params[i].value);
	exit(2);
}

void bench_parse_params(int argc, char **argv, const struct bench_param *params, int n)
{
	int a, i;

	for (a = 1; a < argc; a++) {
		const char *eq = strchr(argv[a], '=');
		char *end;

		if (!eq)
			usage(argv[0], params, n);
		for (i = 0; i < n; i++) {
			size_t len = strlen(params[i].name);

			if ((size_t)(eq - argv[a]) == len && !strncmp(argv[a], params[i].name, len))
				break;
		}
		if (i == n)
			usage(argv[0], params, n);
		errno = 0;
		*params[i].value = strtoull(eq + 1, &end, 0);
		if (errno || *end || end == eq + 1)
			usage(argv[0], params, n);
	}
}

void bench_init(int host_cpu, int cpu, unsigned long arena_mb)
{
	struct pp_mem_config cfg = { .size = arena_mb << 20 };
	int err;

	time_bench_print_to_stdout();
	if (host_cpu >= 0 && (err = pp_thread_pin(host_cpu))) {
		fprintf(stderr, "cannot pin to CPU %d: %s\n", host_cpu, strerror(-err));
		exit(1);
	}
	if ((err = pp_thread_register(cpu)) < 0) {
		fprintf(stderr, "cannot register as CPU %d: %s\n", cpu, strerror(-err));
		exit(1);
	}
	if ((err = pp_mem_init(&cfg))) {
		fprintf(stderr, "cannot create a %lu MiB arena: %s\n", arena_mb, strerror(-err));
		exit(1);
	}
}

void bench_run_in_softirq(void (*fn)(void *arg), void *arg)
{
	local_bh_disable();
	fn(arg);
	local_bh_enable();
}

uint64_t pp_bench_now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec;
}
