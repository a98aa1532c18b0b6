/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * __stringify(): the macro-expanded argument as a string literal, and the
 * token pasting helpers. Layer: runtime.
 */
#ifndef _PP_LINUX_STRINGIFY_H
#define _PP_LINUX_STRINGIFY_H

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#define ___PASTE(a, b)		a##b
#define __PASTE(a, b)		___PASTE(a, b)

#endif /* _PP_LINUX_STRINGIFY_H */
