/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Static keys, as a counter read with one relaxed load (no code patching in
 * userspace). static_branch_unlikely() is a predicted-not-taken branch.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_JUMP_LABEL_H
#define _PP_LINUX_JUMP_LABEL_H

#include <linux/compiler.h>

struct static_key {
	int enabled;
};
struct static_key_false {
	struct static_key key;
};
struct static_key_true {
	struct static_key key;
};

#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { { 0 } }
#define DEFINE_STATIC_KEY_TRUE(name)	struct static_key_true name = { { 1 } }
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name

#define static_key_enabled(x)	(__atomic_load_n(&(x)->key.enabled, __ATOMIC_RELAXED) > 0)
#define static_branch_unlikely(x)	unlikely(static_key_enabled(x))
#define static_branch_likely(x)		likely(static_key_enabled(x))
#define static_branch_inc(x)	__atomic_fetch_add(&(x)->key.enabled, 1, __ATOMIC_RELAXED)
#define static_branch_dec(x)	__atomic_fetch_sub(&(x)->key.enabled, 1, __ATOMIC_RELAXED)
#define static_branch_enable(x)	__atomic_store_n(&(x)->key.enabled, 1, __ATOMIC_RELAXED)
#define static_branch_disable(x) __atomic_store_n(&(x)->key.enabled, 0, __ATOMIC_RELAXED)

#endif
