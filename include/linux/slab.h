/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * kmalloc() and friends on the C heap. Objects of 64 bytes or more are
 * cache-line aligned (the kernel's power-of-two caches align naturally, and
 * our structs use ____cacheline_aligned members). Every call is an injection
 * point for PP_FAULT_KMALLOC (the kernel's failslab).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_SLAB_H
#define _PP_LINUX_SLAB_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/gfp_types.h>
#include <linux/overflow.h>
#include <linux/types.h>

/**
 * __pp_kmalloc() - the body of kmalloc() and friends
 * @size: bytes wanted
 * @flags: GFP flags (__GFP_ZERO zeroes)
 *
 * Context: any context.
 * Return: the memory, or NULL (no memory, or PP_FAULT_KMALLOC fired).
 */
void *__pp_kmalloc(size_t size, gfp_t flags);
/**
 * kfree() - free memory of kmalloc()
 * @objp: the memory; NULL is ignored
 *
 * Context: any context.
 */
void kfree(const void *objp);
/**
 * krealloc() - resize memory of kmalloc()
 * @objp: the memory, or NULL (then it is kmalloc())
 * @new_size: bytes wanted
 * @flags: GFP flags
 *
 * Context: any context.
 * Return: the memory (moved or not), or NULL with @objp left as it was.
 */
void *krealloc(const void *objp, size_t new_size, gfp_t flags);

static inline void *kmalloc(size_t size, gfp_t flags)
{
	return __pp_kmalloc(size, flags);
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return __pp_kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return __pp_kmalloc(bytes, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

#define kmalloc_node(size, flags, node)		kmalloc(size, flags)
#define kzalloc_node(size, flags, node)		kzalloc(size, flags)
#define kcalloc_node(n, size, flags, node)	kcalloc(n, size, flags)
#define kvmalloc(size, flags)			kmalloc(size, flags)
#define kvzalloc(size, flags)			kzalloc(size, flags)
#define kvcalloc(n, size, flags)		kcalloc(n, size, flags)
#define kvmalloc_array(n, size, flags)		kmalloc_array(n, size, flags)
#define kvzalloc_node(size, flags, node)	kzalloc(size, flags)
#define kvfree(p)				kfree(p)
#define kfree_sensitive(p)			kfree(p)

static inline void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);

	if (p)
		__builtin_memcpy(p, src, len);
	return p;
}

#pragma GCC visibility pop
#endif
