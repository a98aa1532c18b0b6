/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Symbol export markers. What the shared library exports is decided by its
 * version script (src/libpagepool.map); these only keep kernel code compiling.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_EXPORT_H
#define _PP_LINUX_EXPORT_H
#define EXPORT_SYMBOL(sym)		extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym)		extern __typeof__(sym) sym
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	extern __typeof__(sym) sym
#define ALLOW_ERROR_INJECTION(fname, type)
#endif
