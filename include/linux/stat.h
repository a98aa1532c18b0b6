/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The system's UAPI <linux/stat.h> (struct statx, STATX_*) and glibc's
 * <sys/stat.h>, plus the kernel's permission shorthands that module_param()
 * permissions are written with (S_IRUGO, 0444, ...). glibc's <sys/stat.h>
 * reads <linux/stat.h> itself (bits/statx.h); both orders compile.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_STAT_H
#define _PP_LINUX_STAT_H

#include_next <linux/stat.h>
#include <sys/stat.h>

#define S_IRWXUGO	(S_IRWXU | S_IRWXG | S_IRWXO)
#define S_IALLUGO	(S_ISUID | S_ISGID | S_ISVTX | S_IRWXUGO)
#define S_IRUGO		(S_IRUSR | S_IRGRP | S_IROTH)
#define S_IWUGO		(S_IWUSR | S_IWGRP | S_IWOTH)
#define S_IXUGO		(S_IXUSR | S_IXGRP | S_IXOTH)

#endif /* _PP_LINUX_STAT_H */
