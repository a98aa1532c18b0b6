/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * printk() and the pr_*() family. Every message goes to the print callback
 * set with pp_set_print() (<pagepool/runtime.h>), with the kernel log level
 * decoded from the KERN_* prefix. Define pr_fmt() before the first include,
 * as in the kernel. Layer: runtime.
 */
#ifndef _PP_LINUX_PRINTK_H
#define _PP_LINUX_PRINTK_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdarg.h>
#include <linux/compiler.h>
#include <linux/types.h>

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_DEFAULT	""
#define KERN_CONT	KERN_SOH "c"

#define LOGLEVEL_SCHED		-2
#define LOGLEVEL_DEFAULT	-1
#define LOGLEVEL_EMERG		0
#define LOGLEVEL_ALERT		1
#define LOGLEVEL_CRIT		2
#define LOGLEVEL_ERR		3
#define LOGLEVEL_WARNING	4
#define LOGLEVEL_NOTICE		5
#define LOGLEVEL_INFO		6
#define LOGLEVEL_DEBUG		7

/**
 * printk() - print a kernel message through the library's print callback
 * @fmt: printf format, optionally led by a KERN_* level (default
 *	KERN_WARNING's, as the kernel's default message level)
 * @...: the format's arguments
 *
 * See pp_set_print().
 *
 * Context: any context.
 * Return: the number of characters printed.
 */
__printf(1, 2) int printk(const char *fmt, ...);
/**
 * vprintk() - printk() with a va_list
 * @fmt: printf format, optionally led by a KERN_* level
 * @args: its arguments
 *
 * Context: any context.
 * Return: the number of characters printed.
 */
int vprintk(const char *fmt, va_list args);

/* True once per @interval_ms per call site, with a burst of 10. */
struct pp_ratelimit {
	long long begin_ms;
	int printed;
	int missed;
};
/**
 * __pp_ratelimit() - the rate limit of printk_ratelimited() and friends
 * @rs: the call site's state
 *
 * At most 10 messages every 5 seconds per call site, as the kernel's
 * default.
 *
 * Context: any context.
 * Return: true if this message may print.
 */
bool __pp_ratelimit(struct pp_ratelimit *rs);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning		pr_warn
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_devel(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)

#define printk_once(fmt, ...)						\
({									\
	static bool __print_once;					\
	if (!__atomic_exchange_n(&__print_once, true, __ATOMIC_RELAXED))\
		printk(fmt, ##__VA_ARGS__);				\
})
#define pr_warn_once(fmt, ...)	printk_once(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_once(fmt, ...)	printk_once(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_once(fmt, ...)	printk_once(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)

#define printk_ratelimited(fmt, ...)					\
({									\
	static struct pp_ratelimit __rs;				\
	if (__pp_ratelimit(&__rs))					\
		printk(fmt, ##__VA_ARGS__);				\
})
#define pr_warn_ratelimited(fmt, ...) printk_ratelimited(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_ratelimited(fmt, ...)  printk_ratelimited(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define net_warn_ratelimited(fmt, ...) pr_warn_ratelimited(fmt, ##__VA_ARGS__)

#pragma GCC visibility pop
#endif /* _PP_LINUX_PRINTK_H */
