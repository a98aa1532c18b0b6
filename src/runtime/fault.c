/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Fault injection: the userspace counterpart of fail_page_alloc, failslab
 * and ALLOW_ERROR_INJECTION. Each point has its own rules and counters, all
 * atomics, so any thread may hit any point concurrently; __pp_fault_armed
 * keeps the unarmed cost to one load in pp_should_fail().
 *
 * Rules combine: after @skip calls, a call fails if one of the next_n
 * budget, the every_nth rule or the probability draw says so.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <linux/compiler.h>
#include <pagepool/runtime.h>

struct fault_point {
	unsigned long every_nth;
	unsigned long skip;
	uint64_t threshold;	/* fail if draw < threshold (0: never) */
	uint64_t seed;
	unsigned long next_left;	/* atomic */
	unsigned long calls;		/* atomic */
	unsigned long injected;		/* atomic, never reset */
	uint64_t draws;			/* atomic */
};

int __pp_fault_armed;
static struct fault_point points[PP_FAULT_NR];

/* splitmix64: a counter-based draw, so concurrent callers need only one
 * atomic add and still get independent values. */
static uint64_t draw(struct fault_point *fp)
{
	uint64_t z = READ_ONCE(fp->seed) + __atomic_fetch_add(&fp->draws, 1, __ATOMIC_RELAXED) *
		     0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Is @cfg a rule set pp_fault_inject() can honour? Every field is checked
 * for its range, so a mistake is refused instead of arming something else:
 *   - probability: a number in [0, 1]. Written as "not inside" so that a NaN,
 *     for which every comparison is false, is refused too (it used to pass
 *     both "< 0" and "> 1" and armed a threshold of whatever the conversion
 *     of NaN gives: about half the calls failed);
 *   - every_nth, next_n, skip: counts up to LONG_MAX. Larger values are a
 *     negative number converted (-1 meaning "forever" to the caller, "never"
 *     or "2^64 calls" here): refused. every_nth = 1 fails every call;
 *   - seed: any value (0: the fixed default);
 *   - skip or seed with no rule (every_nth, next_n and probability all 0)
 *     arm nothing: refused, as a rule that was forgotten. An all-zero
 *     config still disarms, as NULL does.
 */
static bool fault_config_valid(const struct pp_fault_config *cfg)
{
	if (!(cfg->probability >= 0.0 && cfg->probability <= 1.0))
		return false;
	if (cfg->every_nth > LONG_MAX || cfg->next_n > LONG_MAX || cfg->skip > LONG_MAX)
		return false;
	if (!cfg->every_nth && !cfg->next_n && cfg->probability == 0.0 &&
	    (cfg->skip || cfg->seed))
		return false;
	return true;
}

int pp_fault_inject(enum pp_fault_point point, const struct pp_fault_config *cfg)
{
	struct fault_point *fp;

	if ((unsigned int)point >= PP_FAULT_NR)
		return -EINVAL;
	if (cfg && !fault_config_valid(cfg))
		return -EINVAL;
	fp = &points[point];

	/* Disarm first so no caller sees a half-written rule set. */
	__atomic_fetch_and(&__pp_fault_armed, ~(1 << point), __ATOMIC_SEQ_CST);
	if (!cfg || (!cfg->every_nth && !cfg->next_n && cfg->probability == 0.0))
		return 0;

	/* Relaxed stores: a caller that raced with the disarm may still read
	 * them; the armed bit's release below publishes them to everyone else. */
	WRITE_ONCE(fp->every_nth, cfg->every_nth);
	WRITE_ONCE(fp->skip, cfg->skip);
	WRITE_ONCE(fp->seed, cfg->seed ? cfg->seed : 0x5eed5eed5eedULL);
	WRITE_ONCE(fp->threshold, cfg->probability >= 1.0 ? UINT64_MAX :
		   (uint64_t)(cfg->probability * 18446744073709551616.0));
	__atomic_store_n(&fp->draws, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&fp->next_left, cfg->next_n, __ATOMIC_RELAXED);
	__atomic_store_n(&fp->calls, 0, __ATOMIC_RELAXED);
	__atomic_fetch_or(&__pp_fault_armed, 1 << point, __ATOMIC_SEQ_CST);
	return 0;
}

unsigned long pp_fault_count(enum pp_fault_point point)
{
	if ((unsigned int)point >= PP_FAULT_NR)
		return 0;
	return __atomic_load_n(&points[point].injected, __ATOMIC_RELAXED);
}

bool __pp_should_fail_slow(enum pp_fault_point point)
{
	struct fault_point *fp;
	unsigned long n, left, skip, nth;
	bool fail = false;

	if ((unsigned int)point >= PP_FAULT_NR ||
	    !(__atomic_load_n(&__pp_fault_armed, __ATOMIC_ACQUIRE) & (1 << point)))
		return false;
	fp = &points[point];
	n = __atomic_add_fetch(&fp->calls, 1, __ATOMIC_RELAXED);
	skip = READ_ONCE(fp->skip);
	if (n <= skip)
		return false;
	n -= skip;

	left = __atomic_load_n(&fp->next_left, __ATOMIC_RELAXED);
	while (left && !fail)
		fail = __atomic_compare_exchange_n(&fp->next_left, &left, left - 1,
						   false, __ATOMIC_RELAXED,
						   __ATOMIC_RELAXED);
	nth = READ_ONCE(fp->every_nth);
	if (!fail && nth && n % nth == 0)
		fail = true;
	if (!fail && READ_ONCE(fp->threshold) && draw(fp) < READ_ONCE(fp->threshold))
		fail = true;
	if (fail)
		__atomic_fetch_add(&fp->injected, 1, __ATOMIC_RELAXED);
	return fail;
}
