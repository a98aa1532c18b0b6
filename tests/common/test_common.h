/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Helpers shared by the cmocka suites: capture what the library prints,
 * and count WARNs around a block of code.
 */
#ifndef PP_TEST_COMMON_H
#define PP_TEST_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>

/* Route the library's printk() into an in-memory log (and to stderr when
 * PAGEPOOL_TEST_VERBOSE=1). Call once at start-up. */
void pp_test_capture_log(void);
/* Forget what was captured so far. */
void pp_test_log_clear(void);
/* True if a captured line contains @needle. */
bool pp_test_log_contains(const char *needle);
/* Number of captured lines containing @needle. */
int pp_test_log_count(const char *needle);


/* cmocka needs these before its header. */
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_designs.h"

/* A wait loop's step: spin a while, then give the CPU away. The
 * multi-threaded tests run more threads than this machine's two CPUs,
 * and a waiter that only spins holds up the thread it waits for for a
 * whole time slice (core/ring_llist took 50-100 s so, 0.5 s with this).
 * @spins: the loop's counter, 0 at the start of each wait. */
void pp_test_relax_or_yield(unsigned int *spins);

/* Run @fn in a new thread and wait for it; returns its return value. */
void *pp_test_run_thread(void *(*fn)(void *), void *arg);

#endif
