/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Fault injection: the userspace counterpart of fail_page_alloc, failslab
 * and fail_function (the functions marked ALLOW_ERROR_INJECTION()). Each
 * point, and each injectable function, has its own rules and counters, all
 * atomics, so any thread may hit any point concurrently; __pp_fault_armed
 * keeps the unarmed cost to one load in pp_should_fail().
 *
 * Rules combine: after @skip calls, a call fails if one of the next_n
 * budget, the every_nth rule or the probability draw says so.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <linux/compiler.h>
#include <linux/error-injection.h>
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

/*
 * fail_function: the functions marked ALLOW_ERROR_INJECTION() in the
 * library, in the order the linker laid out their marks
 * (<linux/error-injection.h>, section pp_error_inject). Hidden, so the
 * bounds are this library's own section even when a program has marks of
 * its own; weak, so a library with no mark (the runtime-only one) sees an
 * empty list. Each has its rules in fn_points[], armed when its bit in
 * fn_armed is set; __PP_FAULT_ARMED_FUNCTION in __pp_fault_armed says that
 * some bit is, so an unarmed check stays one load.
 */
extern const struct pp_error_inject_entry __start_pp_error_inject[]
	__attribute__((weak, visibility("hidden")));
extern const struct pp_error_inject_entry __stop_pp_error_inject[]
	__attribute__((weak, visibility("hidden")));
#define PP_FAIL_FUNCTION_MAX	(sizeof(unsigned long) * 8)
static struct fault_point fn_points[PP_FAIL_FUNCTION_MAX];
static unsigned long fn_armed;	/* bit per armed function; atomic */
static pthread_mutex_t fn_lock = PTHREAD_MUTEX_INITIALIZER;	/* arming */

static unsigned int fail_function_nr(void)
{
	size_t n = __start_pp_error_inject ?
		   (size_t)(__stop_pp_error_inject - __start_pp_error_inject) : 0;

	/* More marks than bits: the ones past the last bit stay unarmable
	 * (pp_fail_function_inject() answers -ENOSPC for them). */
	return n;
}

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

/* Write @cfg's rules into @fp, which nobody reads: its armed bit is clear.
 * Relaxed stores: a caller that raced with the disarm may still read them;
 * the armed bit's release after this publishes them to everyone else. */
static void fault_point_set(struct fault_point *fp, const struct pp_fault_config *cfg)
{
	WRITE_ONCE(fp->every_nth, cfg->every_nth);
	WRITE_ONCE(fp->skip, cfg->skip);
	WRITE_ONCE(fp->seed, cfg->seed ? cfg->seed : 0x5eed5eed5eedULL);
	WRITE_ONCE(fp->threshold, cfg->probability >= 1.0 ? UINT64_MAX :
		   (uint64_t)(cfg->probability * 18446744073709551616.0));
	__atomic_store_n(&fp->draws, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&fp->next_left, cfg->next_n, __ATOMIC_RELAXED);
	__atomic_store_n(&fp->calls, 0, __ATOMIC_RELAXED);
}

static bool fault_config_arms(const struct pp_fault_config *cfg)
{
	return cfg && (cfg->every_nth || cfg->next_n || cfg->probability != 0.0);
}

int pp_fault_inject(enum pp_fault_point point, const struct pp_fault_config *cfg)
{
	if ((unsigned int)point >= PP_FAULT_NR)
		return -EINVAL;
	if (cfg && !fault_config_valid(cfg))
		return -EINVAL;

	/* Disarm first so no caller sees a half-written rule set. */
	__atomic_fetch_and(&__pp_fault_armed, ~(1 << point), __ATOMIC_SEQ_CST);
	if (!fault_config_arms(cfg))
		return 0;
	fault_point_set(&points[point], cfg);
	__atomic_fetch_or(&__pp_fault_armed, 1 << point, __ATOMIC_SEQ_CST);
	return 0;
}

unsigned long pp_fault_count(enum pp_fault_point point)
{
	if ((unsigned int)point >= PP_FAULT_NR)
		return 0;
	return __atomic_load_n(&points[point].injected, __ATOMIC_RELAXED);
}

/* Does this call at @fp fail, by its rules? The caller saw it armed. */
static bool fault_point_hit(struct fault_point *fp)
{
	unsigned long n, left, skip, nth;
	bool fail = false;

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

bool __pp_should_fail_slow(enum pp_fault_point point)
{
	if ((unsigned int)point >= PP_FAULT_NR ||
	    !(__atomic_load_n(&__pp_fault_armed, __ATOMIC_ACQUIRE) & (1 << point)))
		return false;
	return fault_point_hit(&points[point]);
}

/* The index of the mark called @name, or -ENOENT. */
static int fail_function_find(const char *name)
{
	unsigned int i, n = fail_function_nr();

	if (!name)
		return -ENOENT;
	for (i = 0; i < n; i++)
		if (!strcmp(__start_pp_error_inject[i].name, name))
			return i;
	return -ENOENT;
}

const char *pp_fail_function_name(unsigned int i)
{
	return i < fail_function_nr() ? __start_pp_error_inject[i].name : NULL;
}

int pp_fail_function_inject(const char *name, const struct pp_fault_config *cfg)
{
	int i = fail_function_find(name);

	if (i < 0)
		return i;
	if ((unsigned int)i >= PP_FAIL_FUNCTION_MAX)
		return -ENOSPC;
	if (cfg && !fault_config_valid(cfg))
		return -EINVAL;

	/* One arming at a time, so the summary bit is cleared only when the
	 * last armed function is disarmed. */
	pthread_mutex_lock(&fn_lock);
	__atomic_fetch_and(&fn_armed, ~(1UL << i), __ATOMIC_SEQ_CST);
	if (fault_config_arms(cfg)) {
		fault_point_set(&fn_points[i], cfg);
		__atomic_fetch_or(&fn_armed, 1UL << i, __ATOMIC_SEQ_CST);
	}
	if (__atomic_load_n(&fn_armed, __ATOMIC_RELAXED))
		__atomic_fetch_or(&__pp_fault_armed, __PP_FAULT_ARMED_FUNCTION, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&__pp_fault_armed, ~__PP_FAULT_ARMED_FUNCTION,
				   __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&fn_lock);
	return 0;
}

unsigned long pp_fail_function_count(const char *name)
{
	int i = fail_function_find(name);

	if (i < 0 || (unsigned int)i >= PP_FAIL_FUNCTION_MAX)
		return 0;
	return __atomic_load_n(&fn_points[i].injected, __ATOMIC_RELAXED);
}

bool __pp_error_inject_should_fail_slow(const struct pp_error_inject_entry *mark)
{
	size_t i;

	if (!__start_pp_error_inject || mark < __start_pp_error_inject ||
	    mark >= __stop_pp_error_inject)
		return false;
	i = mark - __start_pp_error_inject;
	if (i >= PP_FAIL_FUNCTION_MAX ||
	    !(__atomic_load_n(&fn_armed, __ATOMIC_ACQUIRE) & (1UL << i)))
		return false;
	return fault_point_hit(&fn_points[i]);
}
