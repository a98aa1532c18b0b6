/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Lock-less singly linked list (the kernel's llist): any number of threads
 * may llist_add() concurrently; llist_del_all() takes the whole list in one
 * exchange and may run concurrently with adders; llist_del_first() needs a
 * single consumer. Entries come back newest first.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_LLIST_H
#define _PP_LINUX_LLIST_H

#include <linux/kernel.h>

struct llist_head {
	struct llist_node *first;
};

struct llist_node {
	struct llist_node *next;
};

#define LLIST_HEAD_INIT(name)	{ NULL }
#define LLIST_HEAD(name)	struct llist_head name = LLIST_HEAD_INIT(name)

static inline void init_llist_head(struct llist_head *list)
{
	__atomic_store_n(&list->first, NULL, __ATOMIC_RELAXED);
}

static inline bool llist_empty(const struct llist_head *head)
{
	return __atomic_load_n(&head->first, __ATOMIC_RELAXED) == NULL;
}

/* Add the chain new_first..new_last; returns true if the list was empty.
 * The release pairs with the acquire in llist_del_all()/llist_del_first(). */
static inline bool llist_add_batch(struct llist_node *new_first,
				   struct llist_node *new_last,
				   struct llist_head *head)
{
	struct llist_node *first = __atomic_load_n(&head->first, __ATOMIC_RELAXED);

	do {
		/* A release store (a plain mov on x86): a node's word may be
		 * read concurrently by a user that reuses it while the node is
		 * listed, and that user orders its own earlier stores before
		 * the link (the DMA item tracking's unmap-all). */
		__atomic_store_n(&new_last->next, first, __ATOMIC_RELEASE);
	} while (!__atomic_compare_exchange_n(&head->first, &first, new_first,
					      true, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	return first == NULL;
}

static inline bool llist_add(struct llist_node *new, struct llist_head *head)
{
	return llist_add_batch(new, new, head);
}

/* Single-threaded add: the caller owns @head exclusively. */
static inline bool __llist_add(struct llist_node *new, struct llist_head *head)
{
	new->next = head->first;
	head->first = new;
	return new->next == NULL;
}

static inline struct llist_node *llist_del_all(struct llist_head *head)
{
	return __atomic_exchange_n(&head->first, NULL, __ATOMIC_ACQUIRE);
}

static inline struct llist_node *__llist_del_all(struct llist_head *head)
{
	struct llist_node *first = head->first;

	head->first = NULL;
	return first;
}

/* Single consumer only (concurrent adders are fine). */
static inline struct llist_node *llist_del_first(struct llist_head *head)
{
	struct llist_node *entry = __atomic_load_n(&head->first, __ATOMIC_ACQUIRE);
	struct llist_node *next;

	do {
		if (!entry)
			return NULL;
		next = READ_ONCE(entry->next);
	} while (!__atomic_compare_exchange_n(&head->first, &entry, next, true,
					      __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE));
	return entry;
}

static inline struct llist_node *llist_reverse_order(struct llist_node *head)
{
	struct llist_node *new_head = NULL;

	while (head) {
		struct llist_node *tmp = head;

		head = head->next;
		tmp->next = new_head;
		new_head = tmp;
	}
	return new_head;
}

#define llist_entry(ptr, type, member)	container_of(ptr, type, member)
#define member_address_is_nonnull(ptr, member) \
	((uintptr_t)(ptr) + offsetof(__typeof__(*(ptr)), member) != 0)
#define llist_for_each(pos, node)	for ((pos) = (node); pos; (pos) = (pos)->next)
#define llist_for_each_safe(pos, n, node)				\
	for ((pos) = (node); (pos) && ((n) = (pos)->next, true); (pos) = (n))
#define llist_for_each_entry(pos, node, member)				\
	for ((pos) = llist_entry((node), __typeof__(*(pos)), member);	\
	     member_address_is_nonnull(pos, member);			\
	     (pos) = llist_entry((pos)->member.next, __typeof__(*(pos)), member))
#define llist_for_each_entry_safe(pos, n, node, member)			\
	for (pos = llist_entry((node), __typeof__(*pos), member);	\
	     member_address_is_nonnull(pos, member) &&			\
		(n = llist_entry(pos->member.next, __typeof__(*n), member), true); \
	     pos = n)

#endif /* _PP_LINUX_LLIST_H */
