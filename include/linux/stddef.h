/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* UAPI <linux/stddef.h> extended with the kernel's offsetofend(). Layer: runtime. */
#ifndef _PP_LINUX_STDDEF_H
#define _PP_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

#ifndef offsetofend
#define offsetofend(TYPE, MEMBER) \
	(offsetof(TYPE, MEMBER) + sizeof(((TYPE *)0)->MEMBER))
#endif
#ifndef sizeof_field
#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#endif

#endif
