/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Print capture for the test suites (see test_common.h). */
#include "test_common.h"

#include <linux/processor.h>
#include <pagepool/runtime.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_LINES	4096
#define LINE_LEN	512

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_buf[LOG_LINES][LINE_LEN];
static int log_n;
static bool verbose;

static int capture(int level, const char *fmt, va_list ap)
{
	char line[LINE_LEN];
	va_list copy;

	va_copy(copy, ap);
	vsnprintf(line, sizeof(line), fmt, copy);
	va_end(copy);
	pthread_mutex_lock(&log_lock);
	if (log_n < LOG_LINES)
		memcpy(log_buf[log_n++], line, LINE_LEN);
	pthread_mutex_unlock(&log_lock);
	if (verbose)
		fprintf(stderr, "<%d>%s", level, line);
	return 0;
}

void pp_test_capture_log(void)
{
	const char *v = getenv("PAGEPOOL_TEST_VERBOSE");

	verbose = v && *v == '1';
	pp_set_print(capture);
}

void pp_test_log_clear(void)
{
	pthread_mutex_lock(&log_lock);
	log_n = 0;
	pthread_mutex_unlock(&log_lock);
}

int pp_test_log_count(const char *needle)
{
	int i, n = 0;

	pthread_mutex_lock(&log_lock);
	for (i = 0; i < log_n; i++)
		if (strstr(log_buf[i], needle))
			n++;
	pthread_mutex_unlock(&log_lock);
	return n;
}

bool pp_test_log_contains(const char *needle)
{
	return pp_test_log_count(needle) > 0;
}

void *pp_test_run_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	void *ret = NULL;

	if (pthread_create(&t, NULL, fn, arg))
		abort();
	pthread_join(t, &ret);
	return ret;
}

void pp_test_relax_or_yield(unsigned int *spins)
{
	if (++*spins < 64) {
		cpu_relax();
		return;
	}
	*spins = 0;
	sched_yield();
}
