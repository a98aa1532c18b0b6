/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Lock-dependency assertions. There is no lockdep here; the context
 * assertions that are cheap to check are checked. Layer: runtime. */
#ifndef _PP_LINUX_LOCKDEP_H
#define _PP_LINUX_LOCKDEP_H

#include <linux/bug.h>
#include <linux/preempt.h>

#define lockdep_assert_held(l)		do { (void)(l); } while (0)
#define lockdep_assert_held_once(l)	do { (void)(l); } while (0)
#define lockdep_is_held(l)		1
#define lockdep_assert_no_hardirq()	((void)WARN_ON_ONCE(in_hardirq()))
#define lockdep_assert_in_softirq()	((void)WARN_ON_ONCE(!in_softirq()))
#define lockdep_assert_irqs_enabled()	do { } while (0)

#endif
