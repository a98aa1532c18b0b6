/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * ALLOW_ERROR_INJECTION(): the kernel marks a function whose return value
 * bpf_override_return() or fail_function may replace. Here the mark
 * records the function's name and error type in the pp_error_inject
 * section (what the kernel lists in fail_function/injectable); the
 * failures themselves are injected one level
 * down, where pagepool's fault points are (<pagepool/runtime.h>,
 * enum pp_fault_point): a failing page_pool_alloc_pages() is the page
 * allocator or the DMA mapping failing under it (PP_FAULT_PAGE_ALLOC,
 * PP_FAULT_DMA_MAP), the way fail_page_alloc makes it fail in the kernel.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_ERROR_INJECTION_H
#define _PP_LINUX_ERROR_INJECTION_H

#include <linux/compiler.h>
#include <linux/types.h>

enum {
	EI_ETYPE_NULL,		/* return NULL on error */
	EI_ETYPE_ERRNO,		/* return -ERRNO on error */
	EI_ETYPE_ERRNO_NULL,	/* return -ERRNO or NULL on error */
	EI_ETYPE_TRUE,		/* return true on error */
};

struct pp_error_inject_entry {
	const char *name;
	int etype;
};

#define ALLOW_ERROR_INJECTION(fname, _etype)					\
	static const struct pp_error_inject_entry __used			\
	__attribute__((section("pp_error_inject"), aligned(sizeof(void *))))	\
	__pp_eil_##fname = { #fname, EI_ETYPE_##_etype }

#endif /* _PP_LINUX_ERROR_INJECTION_H */
