/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Section markers for init and exit code and data (__init, __exit,
 * __initdata, __initconst, ...). The kernel frees .init.* after boot or
 * module load; a program keeps everything, so they only keep kernel code
 * compiling. module_init()/module_exit() are in <linux/module.h>, where the
 * kernel has them for modules too. Layer: runtime.
 */
#ifndef _PP_LINUX_INIT_H
#define _PP_LINUX_INIT_H

#include <linux/compiler.h>
#include <linux/stringify.h>
#include <linux/types.h>

/* __init, __exit and __initdata are in <linux/compiler.h> already. */
#ifndef __init
#define __init
#endif
#ifndef __exit
#define __exit
#endif
#ifndef __initdata
#define __initdata
#endif
#define __initconst
#define __exitdata
#define __exit_call
#define __ref
#define __refdata
#define __refconst
#define __meminit
#define __meminitdata
#define __meminitconst
#define __init_or_module
#define __initdata_or_module

typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

#endif /* _PP_LINUX_INIT_H */
