/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Every kernel-doc form tools/kerneldoc-filter.py translates, for
 * tests/docs/check_filter.py: a function, a function-like and an
 * object-like macro, a struct, an enum, a typedef, a DOC: block, and
 * prose with the characters doxygen would read as markup (<linux/mm.h>,
 * 50%, #, $, &, \, an e-mail@address).
 * Layer: tests.
 */
#ifndef _PP_TESTS_KERNELDOC_SAMPLE_H
#define _PP_TESTS_KERNELDOC_SAMPLE_H

/**
 * DOC: Sample
 *
 * A free-standing block: kernel-doc prints it as prose; the filter makes
 * it a plain comment.
 */

/**
 * struct sample_pool - a pool of samples
 * @count: how many are in it
 * @name: what <linux/mm.h> calls it
 *
 * Members are listed as items.
 */
struct sample_pool {
	int count;
	const char *name;
};

/**
 * enum sample_mode - how a sample is taken
 * @SAMPLE_FAST: the fast way
 * @SAMPLE_SLOW: the slow way, 50% of the time
 */
enum sample_mode {
	SAMPLE_FAST,
	SAMPLE_SLOW,
};

/**
 * typedef sample_fn - a callback over samples
 * @pool: the pool
 *
 * Return: 0 to go on.
 */
typedef int (*sample_fn)(struct sample_pool *pool);

/**
 * SAMPLE_MAX - the most samples a pool holds
 */
#define SAMPLE_MAX	64

/**
 * SAMPLE_COUNT() - the samples in a pool
 * @p: the pool
 */
#define SAMPLE_COUNT(p)	((p)->count)

/**
 * sample_take() - take samples from a &struct sample_pool
 * @pool: the pool; %NULL is -EINVAL
 * @mode: &enum sample_mode
 * @nr: how many, at most SAMPLE_MAX
 *	(a continued description)
 * @...: printf arguments, # of them $free, a \ and a & alone
 *
 * Takes @nr samples from @pool, as sample_put() gives them back. Mail
 * sample@example.org.
 *
 * Context: any context.
 * Note: a note.
 * Return: the samples taken, or -EINVAL.
 */
int sample_take(struct sample_pool *pool, enum sample_mode mode, int nr, ...);

/**
 * sample_put() - give samples back
 * @pool: the pool
 * @nr: how many
 *
 * Context: process context.
 */
void sample_put(struct sample_pool *pool, int nr);

#endif
