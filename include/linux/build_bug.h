/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Compile-time assertions. Layer: runtime. */
#ifndef _PP_LINUX_BUILD_BUG_H
#define _PP_LINUX_BUILD_BUG_H

#define BUILD_BUG_ON_MSG(cond, msg)	_Static_assert(!(cond), msg)
#define BUILD_BUG_ON(cond)		_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")
#ifndef static_assert
#define static_assert(expr, ...)	_Static_assert(expr, "" __VA_ARGS__)
#endif

#endif
