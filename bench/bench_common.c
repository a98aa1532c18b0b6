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

int bench_set_design(const char *param, unsigned long long v, int (*set)(int),
		     const char *const *names, size_t nr, const char *option)
{
	int r;

	if (v == -1ULL)
		return 0;
	r = v < nr ? set((int)v) : -EINVAL;
	if (r == -EOPNOTSUPP) {
		/* (Tracking off, the behaviour before the fix, is no option's
		 * value: it is only in an all-designs build.) */
		if (!strcmp(names[v], "off"))
			fprintf(stderr, "%s=%llu (%s): not in this build (meson -Ddesigns=all)\n",
				param, v, names[v]);
		else
			fprintf(stderr, "%s=%llu (%s): not in this build (meson %s=%s or -Ddesigns=all)\n",
				param, v, names[v], option, names[v]);
		return 77;
	}
	if (r < 0) {
		size_t i;

		fprintf(stderr, "bad %s=%llu: -1 (the build's)", param, v);
		for (i = 0; i < nr; i++)
			fprintf(stderr, ", %zu (%s)", i, names[i]);
		fprintf(stderr, "\n");
		return 2;
	}
	return 0;
}

int bench_current_design(int (*set)(int), int always_built)
{
	/* Set to itself: the setter returns the old design, and the build's
	 * selection is always compiled in. */
	int cur = set(always_built);

	set(cur);
	return cur;
}

/* By enum pp_ring_mode value: a design added to the enum gets its name
 * here (the build error below says so). */
const char *const bench_ring_names[] = {
	[PP_RING_LANES] = "lanes",
	[PP_RING_PTR_RING] = "ptr_ring",
	[PP_RING_LLIST] = "llist",
	[PP_RING_LLIST_BATCH] = "llist_batch",
	[PP_RING_MAGAZINE] = "magazine",
};
const size_t bench_nr_ring_names = sizeof(bench_ring_names) / sizeof(bench_ring_names[0]);
_Static_assert(sizeof(bench_ring_names) / sizeof(bench_ring_names[0]) == __PP_RING_NR,
	       "bench_ring_names[]: one name per enum pp_ring_mode value");

const char *bench_ring_name(int mode)
{
	return mode >= 0 && (size_t)mode < bench_nr_ring_names && bench_ring_names[mode] ?
	       bench_ring_names[mode] : "?";
}

int bench_set_ring(unsigned long long v)
{
	return bench_set_design("ring", v, pp_page_pool_set_ring_mode, bench_ring_names,
				bench_nr_ring_names, "-Dring");
}

const char *bench_ring_current(void)
{
	return bench_ring_name(bench_current_design(pp_page_pool_set_ring_mode,
						    CONFIG_PAGEPOOL_RING_DEFAULT));
}

uint64_t pp_bench_now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec;
}
