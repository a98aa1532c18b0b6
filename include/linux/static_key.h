/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Static keys live in jump_label.h. Layer: runtime. */
#ifndef _PP_LINUX_STATIC_KEY_H
#define _PP_LINUX_STATIC_KEY_H
#include <linux/jump_label.h>
#endif
