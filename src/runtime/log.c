/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * printk() through a replaceable print callback, WARN/BUG reporting and
 * print rate limiting.
 *
 * Failure policy (the one place it is written down): a broken contract that
 * the library can survive is a WARN (counted, printed, execution goes on
 * with the bad input refused); a state it cannot continue from is BUG()
 * (printed, then abort()). PAGEPOOL_WARN_ABORT=1 turns every WARN into an
 * abort, to stop in a debugger at the first one.
 */
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bug.h>
#include <linux/ktime.h>
#include <linux/printk.h>
#include <pagepool/runtime.h>

#include "runtime/runtime_internal.h"

bool pp_log_debug(void)
{
	static int debug = -1;
	int d = READ_ONCE(debug);

	if (d < 0) {
		d = pprt_knob_flag(PPRT_KNOB_DEBUG);
		WRITE_ONCE(debug, d);
	}
	return d;
}

static int default_print(int level, const char *fmt, va_list ap)
{
	if (level > LOGLEVEL_INFO && !pp_log_debug())
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static pp_print_fn print_fn = default_print;
static unsigned long warn_count;

pp_print_fn pp_set_print(pp_print_fn fn)
{
	return __atomic_exchange_n(&print_fn, fn, __ATOMIC_ACQ_REL);
}

static const char *kbuild_modname;

void pp_printk_set_modname(const char *name)
{
	__atomic_store_n(&kbuild_modname, name, __ATOMIC_RELEASE);
}

static const char *modname(void)
{
	const char *name = __atomic_load_n(&kbuild_modname, __ATOMIC_ACQUIRE);

	return name ? name : program_invocation_short_name;
}

/*
 * Replace each KBUILD_MODNAME placeholder in @fmt by the module name, with
 * '%' doubled so the name stays text. Returns @fmt itself when there is
 * none (the common case: one strstr()), @buf when the result fits in it,
 * else a malloc()ed string the caller frees.
 */
static const char *expand_modname(const char *fmt, char *buf, size_t bufsz)
{
	static const char mark[] = __PP_KBUILD_MODNAME_PLACEHOLDER;
	const size_t marklen = sizeof(mark) - 1;
	const char *name, *p, *q;
	size_t namelen, need;
	char *out, *o;
	int n = 0;

	if (!strstr(fmt, mark))
		return fmt;
	name = modname();
	for (p = name, namelen = 0; *p; p++)
		namelen += *p == '%' ? 2 : 1;
	for (p = fmt; (p = strstr(p, mark)); p += marklen)
		n++;
	need = strlen(fmt) - (size_t)n * marklen + (size_t)n * namelen + 1;
	out = need <= bufsz ? buf : malloc(need);
	if (!out)
		return fmt;
	for (o = out, p = fmt; (q = strstr(p, mark)); p = q + marklen) {
		const char *c;

		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		for (c = name; *c; c++) {
			if (*c == '%')
				*o++ = '%';
			*o++ = *c;
		}
	}
	strcpy(o, p);
	return out;
}

int vprintk(const char *fmt, va_list args)
{
	int level = LOGLEVEL_WARNING;	/* the kernel's default message level */
	char buf[256];
	const char *out;
	pp_print_fn fn;
	int ret;

	/* Level prefixes; "\001m" is not one, it is the module name. */
	while (fmt[0] == KERN_SOH[0] && fmt[1] && fmt[1] != 'm') {
		if (fmt[1] >= '0' && fmt[1] <= '7')
			level = fmt[1] - '0';
		else if (fmt[1] == 'c')
			level = LOGLEVEL_INFO;	/* continuation of the last line */
		fmt += 2;
	}
	fn = __atomic_load_n(&print_fn, __ATOMIC_ACQUIRE);
	if (!fn)
		return 0;
	out = expand_modname(fmt, buf, sizeof(buf));
	ret = fn(level, out, args);
	if (out != fmt && out != buf)
		free((void *)out);
	return ret;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vprintk(fmt, ap);
	va_end(ap);
	return ret;
}

unsigned long pp_warn_count(void)
{
	return __atomic_load_n(&warn_count, __ATOMIC_RELAXED);
}

static void print_backtrace(void)
{
	void *frames[32];
	char **names;
	int i, n;

	n = backtrace(frames, 32);
	names = backtrace_symbols(frames, n);
	if (!names)
		return;
	for (i = 1; i < n; i++)
		printk(KERN_WARNING "  %s\n", names[i]);
	free(names);
}

void __pp_warn(const char *file, int line, bool print, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	__atomic_fetch_add(&warn_count, 1, __ATOMIC_RELAXED);
	if (print) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		printk(KERN_WARNING "WARNING: at %s:%d: %s\n", file, line, msg);
		if (pprt_knob_flag(PPRT_KNOB_WARN_BACKTRACE))
			print_backtrace();
	}
	if (pprt_knob_flag(PPRT_KNOB_WARN_ABORT))
		abort();
}

/* A BUILD_BUG() the optimizer did not remove (<linux/build_bug.h>) was
 * reached. */
void __pp_build_bug_failed(const char *file, int line)
{
	__pp_bug(file, line, "BUILD_BUG() reached");
}

void __pp_bug(const char *file, int line, const char *what)
{
	printk(KERN_EMERG "BUG: at %s:%d: %s\n", file, line, what);
	print_backtrace();
	abort();
}

/* Rate limit: a burst of 10 messages per 5 s per call site. */
#define RATELIMIT_INTERVAL_MS	5000
#define RATELIMIT_BURST		10

static pthread_mutex_t ratelimit_lock = PTHREAD_MUTEX_INITIALIZER;

bool __pp_ratelimit(struct pp_ratelimit *rs)
{
	long long now = (long long)(ktime_get_ns() / NSEC_PER_MSEC);
	bool ok;

	pthread_mutex_lock(&ratelimit_lock);
	if (!rs->begin_ms || now - rs->begin_ms >= RATELIMIT_INTERVAL_MS) {
		if (rs->missed)
			printk(KERN_WARNING "pagepool: %d messages suppressed\n", rs->missed);
		rs->begin_ms = now;
		rs->printed = 0;
		rs->missed = 0;
	}
	ok = rs->printed < RATELIMIT_BURST;
	if (ok)
		rs->printed++;
	else
		rs->missed++;
	pthread_mutex_unlock(&ratelimit_lock);
	return ok;
}
