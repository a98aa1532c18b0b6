/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A kernel module's source, compiled into a program: module_init(),
 * module_exit(), MODULE_LICENSE() and the other MODULE_*() tags, module
 * parameters (<linux/moduleparam.h>), THIS_MODULE. The system's UAPI
 * <linux/module.h> (finit_module flags) stays visible.
 *
 * module_init(fn) makes __pp_module_init an alias of fn and module_exit(fn)
 * makes __pp_module_exit one, as the kernel makes init_module and
 * cleanup_module aliases in a module: two module_init()s in one program
 * are a link error, as in one module. The module runner (link with
 * `pkg-config --libs pagepool-kmod`, see <pagepool/kmod.h>) supplies main(),
 * which parses the command line's name=value parameters, calls the init
 * function, runs the tasklets it scheduled and calls the exit function. A
 * program with its own main() may call them itself.
 *
 * KBUILD_MODNAME: kbuild passes -DKBUILD_MODNAME='"name"'; that still works.
 * Without it, <linux/kconfig.h> defines a placeholder that printk() replaces
 * with the module's name when it prints ("name: " from the usual pr_fmt),
 * so a plain cc line needs no extra flag; see <linux/kconfig.h>.
 *
 * The MODULE_*() strings are kept as the kernel keeps .modinfo, in the
 * "__pp_modinfo" section; the runner's --help prints them.
 * Layer: runtime (the runner that uses them sits above all layers).
 */
#ifndef _PP_LINUX_MODULE_H
#define _PP_LINUX_MODULE_H

#include_next <linux/module.h>

#include <linux/compiler.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/processor.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/time.h>

#define MODULE_NAME_LEN		(64 - sizeof(unsigned long))

/* There is no struct module to point at: THIS_MODULE is NULL, as for code
 * built into the kernel. */
struct module;
#define THIS_MODULE		((struct module *)0)
#define KBUILD_MODFILE		KBUILD_MODNAME

static inline bool try_module_get(struct module *module)
{
	(void)module;
	return true;
}

static inline void module_put(struct module *module)
{
	(void)module;
}

#define __module_get(module)	((void)(module))

/* The init function the runner calls, and the exit function. */
int __pp_module_init(void);
void __pp_module_exit(void);

/*
 * The module's name as the program saw it when compiled: the -D value, or
 * the placeholder that means "the program's name". Recorded with
 * module_init()/module_exit() so that the runner prints its parameter
 * errors with the same name as the module's own pr_fmt() lines.
 */
#define __PP_MODULE_NAME_INFO	__MODULE_INFO(__pp_name, __pp_name, KBUILD_MODNAME)

/* @initfn: int (*)(void), returns 0 or -errno (the runner exits non-zero
 * and prints what insmod prints for it). Runs in process context. */
#define module_init(initfn)						\
	static inline initcall_t __maybe_unused __inittest(void)	\
	{ return initfn; }						\
	int __pp_module_init(void) __attribute__((__alias__(#initfn))); \
	__PP_MODULE_NAME_INFO

/* @exitfn: void (*)(void), called as rmmod would, in process context. */
#define module_exit(exitfn)						\
	static inline exitcall_t __maybe_unused __exittest(void)	\
	{ return exitfn; }						\
	void __pp_module_exit(void) __attribute__((__alias__(#exitfn))); \
	__PP_MODULE_NAME_INFO

#define MODULE_INFO(tag, info)		__MODULE_INFO(tag, tag, info)
#define MODULE_LICENSE(_license)	__MODULE_INFO(license, license, _license)
#define MODULE_AUTHOR(_author)		__MODULE_INFO(author, author, _author)
#define MODULE_DESCRIPTION(_desc)	__MODULE_INFO(description, description, _desc)
#define MODULE_VERSION(_version)	__MODULE_INFO(version, version, _version)
#define MODULE_ALIAS(_alias)		__MODULE_INFO(alias, alias, _alias)
#define MODULE_SOFTDEP(_softdep)	__MODULE_INFO(softdep, softdep, _softdep)
#define MODULE_FIRMWARE(_firmware)	__MODULE_INFO(firmware, firmware, _firmware)
#define MODULE_IMPORT_NS(ns)		__MODULE_INFO(import_ns, import_ns, __stringify(ns))
#define MODULE_DEVICE_TABLE(type, name)

#endif /* _PP_LINUX_MODULE_H */
