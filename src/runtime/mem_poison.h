/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Use-after-recycle poisoning, the primitive: make a memory range
 * inaccessible to the program, or accessible again, through the checker
 * the build chose (meson -Dpoison, CONFIG_PAGEPOOL_POISON_*):
 *   asan      ASan's shadow (__asan_poison_memory_region): an access is
 *             reported as use-after-poison at the faulting instruction;
 *   valgrind  memcheck's client requests (VALGRIND_MAKE_MEM_NOACCESS /
 *             _DEFINED): an access is an "Invalid read/write"; outside
 *             valgrind each request is a few instructions that do nothing;
 *   none      nothing at all (the functions are empty).
 * Unpoisoning makes the bytes defined: a recycled page keeps what it held,
 * and the allocator's fresh pages are whatever the arena's memory held
 * (zero or an earlier use's data), as the kernel's are.
 *
 * Context: any thread; no locks. Poisoning is not ownership: the caller
 * MUST own the range when it changes its state (the mm layer under its
 * list discipline, the pool at the lifecycle transitions).
 * Layer: runtime.
 */
#ifndef _PP_RUNTIME_MEM_POISON_H
#define _PP_RUNTIME_MEM_POISON_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/kconfig.h>

#if defined(CONFIG_PAGEPOOL_POISON_ASAN)
#include <sanitizer/asan_interface.h>
#elif defined(CONFIG_PAGEPOOL_POISON_VALGRIND)
#include <valgrind/memcheck.h>
#endif

static inline void pprt_poison(const void *addr, size_t len)
{
#if defined(CONFIG_PAGEPOOL_POISON_ASAN)
	__asan_poison_memory_region(addr, len);
#elif defined(CONFIG_PAGEPOOL_POISON_VALGRIND)
	(void)VALGRIND_MAKE_MEM_NOACCESS(addr, len);
#else
	(void)addr;
	(void)len;
#endif
}

static inline void pprt_unpoison(const void *addr, size_t len)
{
#if defined(CONFIG_PAGEPOOL_POISON_ASAN)
	__asan_unpoison_memory_region(addr, len);
#elif defined(CONFIG_PAGEPOOL_POISON_VALGRIND)
	(void)VALGRIND_MAKE_MEM_DEFINED(addr, len);
#else
	(void)addr;
	(void)len;
#endif
}

#endif /* _PP_RUNTIME_MEM_POISON_H */
