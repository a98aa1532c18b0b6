/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XArray (<linux/xarray.h>): a 64-way radix tree.
 *
 * The head is NULL (empty) or the root node. A node's shift says which six
 * bits of the index pick its slot: 0 for a leaf, whose slots hold the
 * entries; a root of shift s covers indices 0 .. (64 << s) - 1, so storing
 * a larger index puts new roots above it (each with the old one in slot
 * 0), and removing entries takes them away again while the root has only
 * slot 0 in use. Shifts are multiples of 6 up to 60, whose node uses 16
 * slots: that covers every unsigned long.
 *
 * Readers follow rcu_dereference()d slot pointers and never look at
 * parent, count or full, which only writers (xa_lock held) use. A writer
 * builds a new part of the tree completely before it links it with one
 * release store (a new root is published last), and frees a node it
 * unlinks with kfree_rcu(), so a reader that still holds it reads stale
 * but valid memory.
 *
 * full: bit i is set when nothing below slot i is free (a leaf's slot
 * holds an entry or a reservation; an interior slot's child has every
 * bit set). xa_alloc() walks down the clear bits to the lowest free index.
 *
 * Every node a store needs is allocated before anything changes: an
 * -ENOMEM leaves the array exactly as it was.
 * Layer: runtime.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#define XA_SHIFT	6
#define XA_SLOTS	(1U << XA_SHIFT)
#define XA_SPAN(shift)	((unsigned long)XA_SLOTS << (shift))
#define XA_MASK		(XA_SLOTS - 1)
#define XA_TOP_SHIFT	60		/* the root shift that covers every index */
#define XA_MAX_LEVELS	(XA_TOP_SHIFT / XA_SHIFT + 1)
#define XA_ALL_FULL	(~0UL)

struct xa_node {
	unsigned char shift;
	unsigned char offset;		/* the slot in the parent */
	unsigned char count;		/* slots in use */
	struct xa_node *parent;
	unsigned long full;
	void __rcu *slots[XA_SLOTS];
	struct rcu_head rcu;
};

/* The last index a root of @shift covers. */
static unsigned long xa_node_max(unsigned int shift)
{
	if (shift + XA_SHIFT >= 64)
		return ULONG_MAX;
	return XA_SPAN(shift) - 1;
}

/* The slots a node of @shift has: 64, or 16 at the top. */
static unsigned int xa_node_slots(unsigned int shift)
{
	return shift + XA_SHIFT > 64 ? 1U << (64 - shift) : XA_SLOTS;
}

static unsigned int xa_digit(unsigned long index, unsigned int shift)
{
	return (index >> shift) & XA_MASK;
}

/* The smallest root shift that covers @index. */
static unsigned int xa_shift_for(unsigned long index)
{
	unsigned int shift = 0;

	while (index > xa_node_max(shift))
		shift += XA_SHIFT;
	return shift;
}

static struct xa_node *xa_head_node(struct xarray *xa)
{
	return rcu_dereference_protected(xa->xa_head, 1);
}

/* ---- nodes kept aside for one store ---- */

struct xa_stash {
	unsigned int n;
	struct xa_node *node[2 * XA_MAX_LEVELS];	/* new roots, then a new path */
};

static int xa_stash_fill(struct xa_stash *st, unsigned int need, gfp_t gfp)
{
	BUG_ON(need > ARRAY_SIZE(st->node));
	st->n = 0;
	while (st->n < need) {
		struct xa_node *node = kzalloc(sizeof(*node), gfp);

		if (!node) {
			while (st->n)
				kfree(st->node[--st->n]);
			return -ENOMEM;
		}
		st->node[st->n++] = node;
	}
	return 0;
}

static struct xa_node *xa_stash_take(struct xa_stash *st, unsigned int shift)
{
	struct xa_node *node;

	BUG_ON(!st->n);
	node = st->node[--st->n];
	node->shift = shift;
	return node;
}

/* How many nodes storing at @index adds: roots above the present one, then
 * the missing part of the path down to a leaf. */
static unsigned int xa_nodes_needed(struct xarray *xa, unsigned long index)
{
	struct xa_node *node = xa_head_node(xa);
	unsigned int top = xa_shift_for(index);

	if (!node)
		return top / XA_SHIFT + 1;
	/* Outside the present root, the index's digit at the new top is not
	 * 0: the whole path below is new. */
	if (top > node->shift)
		return (top - node->shift) / XA_SHIFT + top / XA_SHIFT;
	while (node->shift) {
		struct xa_node *child = node->slots[xa_digit(index, node->shift)];

		if (!child)
			return node->shift / XA_SHIFT;
		node = child;
	}
	return 0;
}

/* The leaf that holds @index, for a writer; NULL if there is none. */
static struct xa_node *xa_leaf_locked(struct xarray *xa, unsigned long index)
{
	struct xa_node *node = xa_head_node(xa);

	if (!node || index > xa_node_max(node->shift))
		return NULL;
	while (node && node->shift)
		node = node->slots[xa_digit(index, node->shift)];
	return node;
}

/* ---- full bits ---- */

static void xa_mark_used(struct xa_node *node, unsigned int slot)
{
	node->full |= 1UL << slot;
	while (node->full == XA_ALL_FULL && node->parent) {
		node->parent->full |= 1UL << node->offset;
		node = node->parent;
	}
}

static void xa_mark_free(struct xa_node *node, unsigned int slot)
{
	node->full &= ~(1UL << slot);
	while (node->parent && (node->parent->full & (1UL << node->offset))) {
		node->parent->full &= ~(1UL << node->offset);
		node = node->parent;
	}
}

/* ---- the writer's two operations ---- */

/* A new chain of nodes from @shift down to a leaf holding @entry at
 * @index, taken from @st. Not linked anywhere yet. */
static struct xa_node *xa_build_chain(struct xa_stash *st, unsigned int shift,
				      unsigned long index, void *entry)
{
	struct xa_node *top = NULL, *above = NULL;

	for (;;) {
		struct xa_node *node = xa_stash_take(st, shift);

		if (above) {
			unsigned int d = xa_digit(index, above->shift);

			node->parent = above;
			node->offset = d;
			above->slots[d] = node;
			above->count = 1;
		} else {
			top = node;
		}
		if (!shift) {
			unsigned int d = xa_digit(index, 0);

			node->slots[d] = entry;
			node->count = 1;
			xa_mark_used(node, d);
			return top;
		}
		above = node;
		shift -= XA_SHIFT;
	}
}

/* Put a non-NULL @entry at @index, growing the tree as needed. Returns
 * the entry that was there (raw: XA_ZERO_ENTRY included), or an -ENOMEM
 * error entry with nothing changed. */
static void *xa_set(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	struct xa_node *head = xa_head_node(xa), *top, *node;
	unsigned int want = xa_shift_for(index);
	struct xa_stash st;
	void *old;

	if (xa_stash_fill(&st, xa_nodes_needed(xa, index), gfp))
		return XA_ERROR(-ENOMEM);

	if (!head) {
		rcu_assign_pointer(xa->xa_head, xa_build_chain(&st, want, index, entry));
		BUG_ON(st.n);
		return NULL;
	}

	/* Roots above the present one, unpublished until the end. */
	top = head;
	while (top->shift < want) {
		struct xa_node *root = xa_stash_take(&st, top->shift + XA_SHIFT);

		root->slots[0] = top;
		root->count = 1;
		if (top->full == XA_ALL_FULL)
			root->full = 1;
		top->parent = root;
		top->offset = 0;
		top = root;
	}

	old = NULL;
	node = top;
	for (;;) {
		unsigned int d = xa_digit(index, node->shift);
		struct xa_node *child;

		if (!node->shift) {
			old = node->slots[d];
			rcu_assign_pointer(node->slots[d], entry);
			if (!old) {
				node->count++;
				xa_mark_used(node, d);
			}
			break;
		}
		child = node->slots[d];
		if (!child) {
			child = xa_build_chain(&st, node->shift - XA_SHIFT, index, entry);
			child->parent = node;
			child->offset = d;
			node->count++;
			rcu_assign_pointer(node->slots[d], child);
			break;
		}
		node = child;
	}
	if (top != head)
		rcu_assign_pointer(xa->xa_head, top);
	BUG_ON(st.n);
	return old;
}

static void xa_node_free(struct xa_node *node)
{
	kfree_rcu(node, rcu);
}

/* Clear @index, freeing nodes left empty and roots left with only slot
 * 0 in use. Returns the entry that was there (raw). */
static void *xa_clear(struct xarray *xa, unsigned long index)
{
	struct xa_node *node = xa_leaf_locked(xa, index), *head;
	unsigned int d;
	void *old;

	if (!node)
		return NULL;
	d = xa_digit(index, 0);
	old = node->slots[d];
	if (!old)
		return NULL;
	rcu_assign_pointer(node->slots[d], NULL);
	node->count--;
	xa_mark_free(node, d);

	while (!node->count) {
		struct xa_node *parent = node->parent;

		if (!parent) {
			rcu_assign_pointer(xa->xa_head, NULL);
			xa_node_free(node);
			return old;
		}
		rcu_assign_pointer(parent->slots[node->offset], NULL);
		parent->count--;
		xa_node_free(node);
		node = parent;
	}

	head = xa_head_node(xa);
	while (head->shift && head->count == 1 && head->slots[0]) {
		struct xa_node *child = head->slots[0];

		child->parent = NULL;
		rcu_assign_pointer(xa->xa_head, child);
		xa_node_free(head);
		head = child;
	}
	return old;
}

static bool xa_tracks_free(const struct xarray *xa)
{
	return xa->xa_flags & XA_FLAGS_TRACK_FREE;
}

/* The raw entry at @index, for a writer. */
static void *xa_get_locked(struct xarray *xa, unsigned long index)
{
	struct xa_node *leaf = xa_leaf_locked(xa, index);

	return leaf ? leaf->slots[xa_digit(index, 0)] : NULL;
}

/* ---- the API ---- */

void *xa_load(struct xarray *xa, unsigned long index)
{
	struct xa_node *node;
	void *entry = NULL;

	rcu_read_lock();
	node = rcu_dereference(xa->xa_head);
	if (node && index <= xa_node_max(node->shift)) {
		for (;;) {
			void *p = rcu_dereference(node->slots[xa_digit(index, node->shift)]);

			if (!node->shift) {
				entry = p;
				break;
			}
			if (!p)
				break;
			node = p;
		}
	}
	rcu_read_unlock();
	return xa_zero_to_null(entry);
}

void *__xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	if (WARN_ON_ONCE(xa_is_advanced(entry)))
		return XA_ERROR(-EINVAL);
	if (xa_tracks_free(xa) && !entry)
		entry = XA_ZERO_ENTRY;
	return xa_zero_to_null(entry ? xa_set(xa, index, entry, gfp) : xa_clear(xa, index));
}

void *__xa_erase(struct xarray *xa, unsigned long index)
{
	return xa_zero_to_null(xa_clear(xa, index));
}

void *__xa_cmpxchg(struct xarray *xa, unsigned long index, void *old,
		   void *entry, gfp_t gfp)
{
	void *curr;

	if (WARN_ON_ONCE(xa_is_advanced(entry)))
		return XA_ERROR(-EINVAL);
	curr = xa_get_locked(xa, index);
	if (curr == old && curr != entry) {
		void *r = entry ? xa_set(xa, index, entry, gfp) : xa_clear(xa, index);

		if (xa_is_err(r))
			return r;
	}
	return xa_zero_to_null(curr);
}

int __xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	if (WARN_ON_ONCE(xa_is_advanced(entry)))
		return -EINVAL;
	if (!entry)
		entry = XA_ZERO_ENTRY;
	if (xa_get_locked(xa, index))
		return -EBUSY;
	return xa_err(xa_set(xa, index, entry, gfp));
}

/* The lowest index in [@min, @max] with nothing at or below slot's
 * subtree in @node (covering from @base). */
static bool xa_free_below(struct xa_node *node, unsigned long base, unsigned long min,
			  unsigned long max, unsigned long *out)
{
	unsigned int shift = node->shift, nslots = xa_node_slots(shift);
	unsigned int i = min > base ? (min - base) >> shift : 0;

	for (; i < nslots; i++) {
		unsigned long lo = base + ((unsigned long)i << shift);
		unsigned long start = lo < min ? min : lo;
		struct xa_node *child;

		if (lo > max)
			return false;
		if (node->full & (1UL << i))
			continue;
		child = shift ? node->slots[i] : NULL;
		if (!child) {
			*out = start;
			return true;
		}
		if (xa_free_below(child, lo, start, max, out))
			return true;
	}
	return false;
}

static bool xa_find_free(struct xarray *xa, unsigned long min, unsigned long max,
			 unsigned long *out)
{
	struct xa_node *root = xa_head_node(xa);
	unsigned long covered;

	if (min > max)
		return false;
	if (!root || min > xa_node_max(root->shift)) {
		*out = min;
		return true;
	}
	if (xa_free_below(root, 0, min, max, out))
		return true;
	covered = xa_node_max(root->shift);
	if (covered < max) {
		*out = covered + 1;
		return true;
	}
	return false;
}

int __xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit, gfp_t gfp)
{
	unsigned long min = limit.min, index;
	void *r;

	if (WARN_ON_ONCE(xa_is_advanced(entry)))
		return -EINVAL;
	if (WARN_ON_ONCE(!xa_tracks_free(xa)))
		return -EINVAL;
	if (!entry)
		entry = XA_ZERO_ENTRY;
	if ((xa->xa_flags & XA_FLAGS_ZERO_BUSY) && min == 0)
		min = 1;
	if (!xa_find_free(xa, min, limit.max, &index))
		return -EBUSY;
	r = xa_set(xa, index, entry, gfp);
	if (xa_is_err(r))
		return xa_err(r);
	*id = index;
	return 0;
}

int __xa_alloc_cyclic(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
		      u32 *next, gfp_t gfp)
{
	u32 min = limit.min;
	int ret;

	limit.min = *next > min ? *next : min;
	ret = __xa_alloc(xa, id, entry, limit, gfp);
	if ((xa->xa_flags & XA_FLAGS_ALLOC_WRAPPED) && ret == 0) {
		xa->xa_flags &= ~XA_FLAGS_ALLOC_WRAPPED;
		ret = 1;
	}
	if (ret < 0 && limit.min > min) {
		limit.min = min;
		ret = __xa_alloc(xa, id, entry, limit, gfp);
		if (ret == 0)
			ret = 1;
	}
	if (ret >= 0) {
		*next = *id + 1;
		if (*next == 0)
			xa->xa_flags |= XA_FLAGS_ALLOC_WRAPPED;
	}
	return ret;
}

/* The first present entry in [@min, @max] below @node (covering from
 * @base), under RCU. */
static void *xa_present_below(struct xa_node *node, unsigned long base, unsigned long min,
			      unsigned long max, unsigned long *out)
{
	unsigned int shift = node->shift, nslots = xa_node_slots(shift);
	unsigned int i = min > base ? (min - base) >> shift : 0;

	for (; i < nslots; i++) {
		unsigned long lo = base + ((unsigned long)i << shift);
		void *p;

		if (lo > max)
			return NULL;
		p = rcu_dereference(node->slots[i]);
		if (!p)
			continue;
		if (!shift) {
			if (xa_is_zero(p))
				continue;
			*out = lo;
			return p;
		}
		p = xa_present_below(p, lo, lo < min ? min : lo, max, out);
		if (p)
			return p;
	}
	return NULL;
}

void *xa_find(struct xarray *xa, unsigned long *indexp, unsigned long max, xa_mark_t filter)
{
	struct xa_node *root;
	unsigned long index;
	void *entry = NULL;

	if (WARN_ON_ONCE(filter != XA_PRESENT))
		return NULL;
	rcu_read_lock();
	root = rcu_dereference(xa->xa_head);
	if (root && *indexp <= max && *indexp <= xa_node_max(root->shift))
		entry = xa_present_below(root, 0, *indexp, max, &index);
	rcu_read_unlock();
	if (entry)
		*indexp = index;
	return entry;
}

void *xa_find_after(struct xarray *xa, unsigned long *indexp, unsigned long max,
		    xa_mark_t filter)
{
	unsigned long index = *indexp + 1;
	void *entry;

	if (!index)
		return NULL;
	entry = xa_find(xa, &index, max, filter);
	if (entry)
		*indexp = index;
	return entry;
}

static void xa_free_tree(struct xa_node *node)
{
	unsigned int i;

	if (node->shift)
		for (i = 0; i < XA_SLOTS; i++)
			if (node->slots[i])
				xa_free_tree(node->slots[i]);
	xa_node_free(node);
}

void xa_destroy(struct xarray *xa)
{
	struct xa_node *root;

	if (xa->xa_flags & XA_FLAGS_LOCK_BH)
		xa_lock_bh(xa);
	else
		xa_lock(xa);
	root = xa_head_node(xa);
	rcu_assign_pointer(xa->xa_head, NULL);
	if (xa->xa_flags & XA_FLAGS_LOCK_BH)
		xa_unlock_bh(xa);
	else
		xa_unlock(xa);
	if (root)
		xa_free_tree(root);
}
