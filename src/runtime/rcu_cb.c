/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * call_rcu() and kfree_rcu() with the kernel's types: thin adapters onto the
 * callback queue in rcu.c, which cannot include the kernel headers.
 */
#include <stddef.h>

#include <linux/build_bug.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

struct pprt_cb {
	struct pprt_cb *next;
	void (*func)(struct pprt_cb *head);
};

void pprt_call_rcu(struct pprt_cb *head, void (*func)(struct pprt_cb *));

_Static_assert(offsetof(struct callback_head, next) == offsetof(struct pprt_cb, next) &&
	       offsetof(struct callback_head, func) == offsetof(struct pprt_cb, func) &&
	       sizeof(struct callback_head) == sizeof(struct pprt_cb),
	       "callback_head and the call_rcu queue node must share a layout");

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	pprt_call_rcu((struct pprt_cb *)head, (void (*)(struct pprt_cb *))func);
}

void __pp_kfree_rcu(struct rcu_head *head, unsigned long offset)
{
	BUILD_BUG_ON(sizeof(void *) != sizeof(unsigned long));
	pprt_call_rcu((struct pprt_cb *)head, (void (*)(struct pprt_cb *))offset);
}
