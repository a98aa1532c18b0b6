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

/**
 * kstrtoull() - convert a string to an unsigned long long
 * @s: the string (the rules are at the top of this file)
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: 0; -ERANGE if the number does not fit; -EINVAL if the string is
 * not a number (nothing stored on error).
 */
int __must_check kstrtoull(const char *s, unsigned int base, unsigned long long *res);
/**
 * kstrtoll() - convert a string to a long long
 * @s: the string
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: as kstrtoull().
 */
int __must_check kstrtoll(const char *s, unsigned int base, long long *res);
/**
 * kstrtoul() - convert a string to an unsigned long
 * @s: the string
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: as kstrtoull().
 */
int __must_check kstrtoul(const char *s, unsigned int base, unsigned long *res);
/**
 * kstrtol() - convert a string to a long
 * @s: the string
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: as kstrtoull().
 */
int __must_check kstrtol(const char *s, unsigned int base, long *res);
/**
 * kstrtouint() - convert a string to an unsigned int
 * @s: the string
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: as kstrtoull().
 */
int __must_check kstrtouint(const char *s, unsigned int base, unsigned int *res);
/**
 * kstrtoint() - convert a string to an int
 * @s: the string
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: as kstrtoull().
 */
int __must_check kstrtoint(const char *s, unsigned int base, int *res);
/**
 * kstrtou16() - convert a string to a u16
 * @s: the string
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: as kstrtoull().
 */
int __must_check kstrtou16(const char *s, unsigned int base, u16 *res);
/**
 * kstrtos16() - convert a string to an s16
 * @s: the string
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: as kstrtoull().
 */
int __must_check kstrtos16(const char *s, unsigned int base, s16 *res);
/**
 * kstrtou8() - convert a string to a u8
 * @s: the string
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: as kstrtoull().
 */
int __must_check kstrtou8(const char *s, unsigned int base, u8 *res);
/**
 * kstrtos8() - convert a string to an s8
 * @s: the string
 * @base: the radix, 2..16, or 0 to detect it
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: as kstrtoull().
 */
int __must_check kstrtos8(const char *s, unsigned int base, s8 *res);

/**
 * kstrtobool() - convert a string to a bool
 * @s: the string: "y", "Y", "t", "T", "1", "on" are true; "n", "N", "f",
 *	"F", "0", "off" are false; only the first character (two for on/of)
 *	is looked at, as in the kernel
 * @res: where the value is stored
 *
 * Context: any context.
 * Return: 0, or -EINVAL (also for NULL).
 */
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

/**
 * simple_strtoull() - the kernel's lenient, deprecated conversion to unsigned long long
 * @cp: the string
 * @endp: set to where the conversion stopped (if non-NULL)
 * @base: the radix, or 0 to detect it
 *
 * Converts the longest valid prefix and never fails.
 *
 * Context: any context.
 * Return: the value (0 when there is no number).
 */
unsigned long long simple_strtoull(const char *cp, char **endp, unsigned int base);
/**
 * simple_strtoll() - the lenient conversion to long long
 * @cp: the string
 * @endp: set to where the conversion stopped (if non-NULL)
 * @base: the radix, or 0 to detect it
 *
 * Context: any context.
 * Return: the value, as simple_strtoull().
 */
long long simple_strtoll(const char *cp, char **endp, unsigned int base);
/**
 * simple_strtoul() - the lenient conversion to unsigned long
 * @cp: the string
 * @endp: set to where the conversion stopped (if non-NULL)
 * @base: the radix, or 0 to detect it
 *
 * Context: any context.
 * Return: the value, as simple_strtoull().
 */
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);
/**
 * simple_strtol() - the lenient conversion to long
 * @cp: the string
 * @endp: set to where the conversion stopped (if non-NULL)
 * @base: the radix, or 0 to detect it
 *
 * Context: any context.
 * Return: the value, as simple_strtoull().
 */
long simple_strtol(const char *cp, char **endp, unsigned int base);

#pragma GCC visibility pop
#endif /* _PP_LINUX_KSTRTOX_H */
