/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Kernel basic types. The system's UAPI <linux/types.h> (the __u8 family) is
 * pulled in first with #include_next and kept visible, so UAPI and libbpf
 * headers still compile next to ours; we add what kernel code expects.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_TYPES_H
#define _PP_LINUX_TYPES_H

#include_next <linux/types.h>
#include <linux/kconfig.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef __u8  u8;
typedef __s8  s8;
typedef __u16 u16;
typedef __s16 s16;
typedef __u32 u32;
typedef __s32 s32;
typedef __u64 u64;
typedef __s64 s64;

/* Bus address as the device sees it (after the IOMMU, if any). */
typedef u64 dma_addr_t;
typedef u64 phys_addr_t;
typedef unsigned int gfp_t;
typedef unsigned int slab_flags_t;
typedef unsigned long pgoff_t;
typedef long long ktime_t;

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	long counter;
} atomic_long_t;

typedef struct {
	s64 counter;
} atomic64_t;

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

/*
 * The kernel's callback_head. call_rcu() and the delayed-release paths
 * queue these; the layout is ours (see src/runtime/rcu.c).
 */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#define rcu_head callback_head

typedef void (*rcu_callback_t)(struct rcu_head *head);

#endif /* _PP_LINUX_TYPES_H */
