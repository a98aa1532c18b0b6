/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* UAPI <linux/stddef.h> extended with the kernel's offsetofend(), sizeof_field() and struct_group*(). Layer: runtime. */
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

/* A group of members reachable both one by one and as a named struct
 * (the kernel's struct_group*(), over the UAPI header's __struct_group()). */
#ifndef struct_group
#define struct_group(NAME, MEMBERS...) __struct_group(/* no tag */, NAME, /* no attrs */, MEMBERS)
#define struct_group_attr(NAME, ATTRS, MEMBERS...) __struct_group(/* no tag */, NAME, ATTRS, MEMBERS)
#define struct_group_tagged(TAG, NAME, MEMBERS...) __struct_group(TAG, NAME, /* no attrs */, MEMBERS)
#endif

#endif
