/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The system's UAPI <linux/string.h> (which includes glibc's <string.h>)
 * plus the kernel helpers kernel code expects next to memset()/strcmp():
 * strscpy(), kstrdup(), memzero_explicit() (kmemdup() is in <linux/slab.h>).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_STRING_H
#define _PP_LINUX_STRING_H

#include_next <linux/string.h>

#include <string.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/types.h>

/*
 * Copy @src into @dest of @count bytes, always NUL-terminated when @count
 * is not 0. Returns the length copied, or -E2BIG if @src did not fit (then
 * @dest holds the truncated string). Any context.
 */
static inline ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (count == 0)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return (ssize_t)len;
}

/* A kmalloc()ed copy of @s (NULL for NULL or when out of memory); free
 * with kfree(). Sleeps unless @gfp is GFP_ATOMIC. */
static inline char *kstrdup(const char *s, gfp_t gfp)
{
	size_t len;
	char *p;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	p = (char *)kmalloc(len, gfp);
	if (p)
		memcpy(p, s, len);
	return p;
}

/* memset() to zero that the compiler may not drop as a dead store. */
static inline void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}

#endif /* _PP_LINUX_STRING_H */
