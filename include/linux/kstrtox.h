/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * String to integer conversion with the kernel's rules (kstrto*()), which
 * are stricter than strtol(): the whole string must be a number, optionally
 * followed by one newline; no leading whitespace; a '+' sign is accepted, a
 * '-' only by the signed forms. @base 0 detects the radix: "0x"/"0X"
 * followed by a hex digit is hexadecimal, another leading "0" octal,
 * anything else decimal; an explicit @base of 16 accepts and skips a
 * leading "0x". @base may be 2..16.
 *
 * Every kstrto*() returns 0 and stores the value, -ERANGE if the number
 * does not fit the type (nothing stored), or -EINVAL if the string is not a
 * number (nothing stored). Any context.
 *
 * simple_strto*() are the kernel's lenient, deprecated forms: they convert
 * the longest valid prefix, never fail, and store where they stopped in
 * *@endp (if non-NULL).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_KSTRTOX_H
#define _PP_LINUX_KSTRTOX_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/types.h>

int __must_check kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int __must_check kstrtoll(const char *s, unsigned int base, long long *res);
int __must_check kstrtoul(const char *s, unsigned int base, unsigned long *res);
int __must_check kstrtol(const char *s, unsigned int base, long *res);
int __must_check kstrtouint(const char *s, unsigned int base, unsigned int *res);
int __must_check kstrtoint(const char *s, unsigned int base, int *res);
int __must_check kstrtou16(const char *s, unsigned int base, u16 *res);
int __must_check kstrtos16(const char *s, unsigned int base, s16 *res);
int __must_check kstrtou8(const char *s, unsigned int base, u8 *res);
int __must_check kstrtos8(const char *s, unsigned int base, s8 *res);

/* "y", "Y", "t", "T", "1", "on" are true; "n", "N", "f", "F", "0", "off"
 * are false; only the first character (two for on/of) is looked at, as in
 * the kernel. Returns 0 or -EINVAL (also for NULL). */
int __must_check kstrtobool(const char *s, bool *res);

static inline int __must_check kstrtou64(const char *s, unsigned int base, u64 *res)
{
	return kstrtoull(s, base, res);
}

static inline int __must_check kstrtos64(const char *s, unsigned int base, s64 *res)
{
	return kstrtoll(s, base, res);
}

static inline int __must_check kstrtou32(const char *s, unsigned int base, u32 *res)
{
	return kstrtouint(s, base, res);
}

static inline int __must_check kstrtos32(const char *s, unsigned int base, s32 *res)
{
	return kstrtoint(s, base, res);
}

unsigned long long simple_strtoull(const char *cp, char **endp, unsigned int base);
long long simple_strtoll(const char *cp, char **endp, unsigned int base);
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);
long simple_strtol(const char *cp, char **endp, unsigned int base);

#pragma GCC visibility pop
#endif /* _PP_LINUX_KSTRTOX_H */
