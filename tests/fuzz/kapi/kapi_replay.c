/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Runs the kernel-API fuzz harness once over each input named on the
 * command line (files, or directories of files, in name order) without
 * libFuzzer: the committed corpus (tests/fuzz/corpus-kapi) is a regression
 * test in every build, on pagepool's core and on the kernel's, and a crash
 * file from a fuzzing run replays under a debugger. An invariant failure
 * aborts with the model's state and the library's last messages; success
 * prints the harness's summary.
 *
 * --stats-expect=FILE (before the inputs): every page_pool_get_stats()
 * reading must be the one recorded in FILE (fuzz_kapi.c); the meson test
 * passes the kernel core's recording for the corpus. The other ring
 * designs of an all-designs build (PAGEPOOL_RING=llist, llist_batch or
 * magazine) differ from the kernel's ptr_ring by design: they have no
 * slots to clear in batches, so they find the ring full later
 * (tests/kernel-api/stats_sequences.c), and llist hands pages back last
 * in first out, so a refill meets a page of the wrong NUMA node
 * ("waive") at another point. The comparison is skipped there; the rules
 * of fuzz_kapi.h still hold.
 *
 * --stats-lanes=FILE: the readings of the seeds declared to differ from
 * the kernel's on pagepool's lanes design (corpus-kapi.stats-lanes);
 * given where the build's default ring design is lanes, used unless
 * PAGEPOOL_RING names another design.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_kapi.h"

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(2);
	}
	buf = malloc(len > 0 ? (size_t)len : 1);
	if (!buf || (len > 0 && fread(buf, 1, (size_t)len, f) != (size_t)len)) {
		fprintf(stderr, "%s: read failed\n", path);
		exit(2);
	}
	fclose(f);
	if (getenv("PP_FUZZ_TRACE"))
		fprintf(stderr, "fuzz-kapi: input %s\n", path);
	kz_set_input_name(strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static long run_path(const char *path)
{
	struct dirent *de;
	struct stat st;
	char **names = NULL;
	size_t n = 0, i;
	long runs = 0;
	DIR *d;

	if (stat(path, &st)) {
		perror(path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		run_file(path);
		return 1;
	}
	d = opendir(path);
	if (!d) {
		perror(path);
		exit(2);
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || asprintf(&names[n], "%s/%s", path, de->d_name) < 0)
			exit(2);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		runs += run_path(names[i]);
		free(names[i]);
	}
	free(names);
	return runs;
}

/* A ring design whose "full" comes later than the kernel ptr_ring's. */
static bool ring_unlike_kernel(void)
{
	const char *ring = getenv("PAGEPOOL_RING");

	return ring && *ring && strcmp(ring, "lanes") && strcmp(ring, "ptr_ring");
}

int main(int argc, char **argv)
{
	const char *expect = NULL, *declared = NULL, *ring = getenv("PAGEPOOL_RING");
	long runs = 0;
	int i = 1;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strncmp(argv[i], "--stats-expect=", 15)) {
			expect = argv[i] + 15;
		} else if (!strncmp(argv[i], "--stats-lanes=", 14)) {
			declared = argv[i] + 14;
		} else {
			i = argc;
			break;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: %s [--stats-expect=FILE [--stats-lanes=FILE]] <input file or directory>...\n",
			argv[0]);
		return 2;
	}
	kz_set_summary_label("fuzz-kapi-replay");
	LLVMFuzzerInitialize(&argc, &argv);
	if (expect && ring_unlike_kernel()) {
		printf("fuzz-kapi-replay: PAGEPOOL_RING=%s: stats not compared with %s\n",
		       getenv("PAGEPOOL_RING"), expect);
		expect = NULL;
	}
	if (expect && kz_stats_expect(expect)) {
		perror(expect);
		return 2;
	}
	/* The lanes' declared differences, where the pools get lanes (the
	 * build's default ring design, unless PAGEPOOL_RING names another). */
	if (expect && declared && (!ring || !*ring || !strcmp(ring, "lanes")) &&
	    kz_stats_declare(declared)) {
		perror(declared);
		return 2;
	}
	for (; i < argc; i++)
		runs += run_path(argv[i]);
	kz_stats_expect_done();
	if (expect)
		printf("fuzz-kapi-replay: every stats reading is the one in %s\n", expect);
	printf("fuzz-kapi-replay: %ld input(s) replayed, all invariants held\n", runs);
	return runs ? 0 : 1;
}
