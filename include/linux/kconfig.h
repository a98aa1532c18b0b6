/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The build's configuration, as the kernel's <linux/kconfig.h>: the
 * CONFIG_* symbols that meson chose (generated into <generated/autoconf.h>
 * at configure time and installed with the headers) and the IS_ENABLED()
 * family that tests them.
 *
 * Why a header and not -D flags: inline code in these headers (the stats
 * of the alloc and recycle fast paths, for one) is compiled into the
 * user's program, so it must see the library's configuration, and a user
 * builds with nothing but `pkg-config --cflags pagepool`. Every kernel
 * header here reaches this one through <linux/types.h> or
 * <linux/compiler.h>, as the kernel's build force-includes its own.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_KCONFIG_H
#define _PP_LINUX_KCONFIG_H

#include <generated/autoconf.h>

/*
 * IS_ENABLED(CONFIG_FOO) is 1 when CONFIG_FOO is defined to 1, else 0, and
 * is usable in #if and in C expressions alike. The trick: a defined-to-1
 * option pastes into __ARG_PLACEHOLDER_1, which expands to "0," and shifts
 * a 1 into the second argument position; anything else leaves the 0 there.
 */
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define __is_defined(x)			___is_defined(x)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)

/*
 * KBUILD_MODNAME: kbuild defines it (-DKBUILD_MODNAME='"name"') for every
 * object of a module, and kernel code pastes it into format strings at
 * compile time: #define pr_fmt(fmt) KBUILD_MODNAME ": " fmt. A plain cc
 * line defines nothing, so the default is a placeholder string that
 * printk() replaces, while it prints, with the module's name: the one the
 * module runner found (see <linux/module.h>), else the program's name
 * (basename of argv[0]; under the runner with - as _, as kbuild names
 * modules). Only format strings are rewritten; code that uses
 * KBUILD_MODNAME as a value sees the two placeholder bytes.
 */
#define __PP_KBUILD_MODNAME_PLACEHOLDER	"\001m"
#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME		__PP_KBUILD_MODNAME_PLACEHOLDER
#endif

/* pagepool has no modules: every option is built in (=y) or absent. */
#define IS_BUILTIN(option)		__is_defined(option)
#define IS_MODULE(option)		0
#define IS_REACHABLE(option)		__is_defined(option)
#define IS_ENABLED(option)		__is_defined(option)

#endif /* _PP_LINUX_KCONFIG_H */
