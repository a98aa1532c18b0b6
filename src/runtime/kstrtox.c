/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * kstrto*() and simple_strto*(), see <linux/kstrtox.h> for the rules.
 *
 * strtoull() is no help: it skips leading whitespace, accepts a '-' on
 * unsigned conversions (negating the result) and a lone "0x", and reports
 * overflow through errno. So one digit scanner does the work for all the
 * widths, and each width only checks the range.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>

#include <linux/kstrtox.h>

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;	/* ASCII lower case */
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 99;
}

/* Resolve base 0 (and skip a "0x" for base 16) as the kernel does: "0x"
 * only counts as a prefix when a hex digit follows it. */
static const char *radix_prefix(const char *s, unsigned int *base)
{
	bool hex_prefix = s[0] == '0' && (s[1] | 0x20) == 'x' && digit_value(s[2]) < 16;

	if (*base == 0)
		*base = hex_prefix ? 16 : s[0] == '0' ? 8 : 10;
	if (*base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	return s;
}

/* Scan digits of @base from @s. Returns the number of digits read; sets
 * *@overflow when the value exceeded 64 bits (the stored value is then
 * meaningless). */
static unsigned int scan_digits(const char *s, unsigned int base,
				unsigned long long *val, bool *overflow)
{
	unsigned long long v = 0;
	unsigned int n = 0;
	int d;

	*overflow = false;
	while ((d = digit_value(s[n])) < (int)base) {
		if (v > (ULLONG_MAX - (unsigned int)d) / base)
			*overflow = true;
		v = v * base + (unsigned int)d;
		n++;
	}
	*val = v;
	return n;
}

/* An unsigned magnitude with nothing but one newline after it. */
static int parse_magnitude(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v;
	bool overflow;
	unsigned int n;

	if (base == 1 || base > 16)
		return -EINVAL;
	s = radix_prefix(s, &base);
	n = scan_digits(s, base, &v, &overflow);
	if (overflow)
		return -ERANGE;
	if (n == 0)
		return -EINVAL;
	s += n;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (*s == '+')
		s++;
	return parse_magnitude(s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long mag;
	int ret;

	if (*s == '-') {
		ret = parse_magnitude(s + 1, base, &mag);
		if (ret)
			return ret;
		/* -2^63 is the one negative value whose magnitude is not an
		 * s64. */
		if (mag > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = mag == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)mag;
		return 0;
	}
	ret = kstrtoull(s, base, &mag);
	if (ret)
		return ret;
	if (mag > (unsigned long long)LLONG_MAX)
		return -ERANGE;
	*res = (long long)mag;
	return 0;
}

/* The narrower widths: convert at 64 bits, then check the range. */
#define KSTRTO_UNSIGNED(fn, type, max)					\
int fn(const char *s, unsigned int base, type *res)			\
{									\
	unsigned long long v;						\
	int ret = kstrtoull(s, base, &v);				\
									\
	if (ret)							\
		return ret;						\
	if (v > (max))							\
		return -ERANGE;						\
	*res = (type)v;							\
	return 0;							\
}

#define KSTRTO_SIGNED(fn, type, min, max)				\
int fn(const char *s, unsigned int base, type *res)			\
{									\
	long long v;							\
	int ret = kstrtoll(s, base, &v);				\
									\
	if (ret)							\
		return ret;						\
	if (v < (min) || v > (max))					\
		return -ERANGE;						\
	*res = (type)v;							\
	return 0;							\
}

KSTRTO_UNSIGNED(kstrtoul, unsigned long, ULONG_MAX)
KSTRTO_UNSIGNED(kstrtouint, unsigned int, UINT_MAX)
KSTRTO_UNSIGNED(kstrtou16, u16, USHRT_MAX)
KSTRTO_UNSIGNED(kstrtou8, u8, UCHAR_MAX)
KSTRTO_SIGNED(kstrtol, long, LONG_MIN, LONG_MAX)
KSTRTO_SIGNED(kstrtoint, int, INT_MIN, INT_MAX)
KSTRTO_SIGNED(kstrtos16, s16, SHRT_MIN, SHRT_MAX)
KSTRTO_SIGNED(kstrtos8, s8, SCHAR_MIN, SCHAR_MAX)

int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if ((s[1] | 0x20) == 'n') {
			*res = true;
			return 0;
		}
		if ((s[1] | 0x20) == 'f') {
			*res = false;
			return 0;
		}
		return -EINVAL;
	default:
		return -EINVAL;
	}
}

unsigned long long simple_strtoull(const char *cp, char **endp, unsigned int base)
{
	unsigned long long v;
	bool overflow;

	if (base == 1 || base > 16)
		base = 10;
	cp = radix_prefix(cp, &base);
	cp += scan_digits(cp, base, &v, &overflow);
	if (endp)
		*endp = (char *)cp;
	return v;
}

long long simple_strtoll(const char *cp, char **endp, unsigned int base)
{
	/* Negate in unsigned arithmetic: wraps instead of overflowing. */
	if (*cp == '-')
		return (long long)(0ULL - simple_strtoull(cp + 1, endp, base));
	return (long long)simple_strtoull(cp, endp, base);
}

unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base)
{
	return (unsigned long)simple_strtoull(cp, endp, base);
}

long simple_strtol(const char *cp, char **endp, unsigned int base)
{
	return (long)simple_strtoll(cp, endp, base);
}
