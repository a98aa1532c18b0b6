/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Which XDP designs run: the return generation (direct, or mem id lookup)
 * and the table the lookup generation reads (the id table, or rculfhash).
 * The axes and what a build compiles of them are described in
 * xdp_internal.h.
 *
 * In a build with one design per axis there is nothing to choose: the
 * setters accept the design the build has and refuse the other with
 * -EOPNOTSUPP. In an all-designs build they switch the static keys that
 * ppxdp_return_lookup_on() and ppxdp_table_lfht_on() read, which start
 * at the build's default (meson -Dxdp_return, -Dxdp_table).
 *
 * The environment (PAGEPOOL_XDP_RETURN=direct|lookup,
 * PAGEPOOL_XDP_TABLE=id|rculfhash, read through pprt_knob()) gives the
 * initial choice. It is applied by ppxdp_designs_init_locked(), not by a
 * constructor: at the first registration of a memory model (before which
 * no frame can name a page_pool's model, so no return can run in the
 * wrong generation) or at the first call of a setter or getter, whichever
 * comes first; an explicit choice made then wins over it. A knob naming a
 * design the build does not have is reported once (pr_warn, naming the
 * build option) and otherwise ignored.
 *
 * The return mode is switched without ppxdp_mem_lock, as a static key is
 * (and as pp_xdp_set_return_mode() may be called from a softirq, which
 * may have interrupted a holder of the lock); only the one-time knob
 * reading takes it, on the first call.
 *
 * Memory orders:
 *   D0w  smp_store_release(&designs_ready)  ppxdp_designs_init_locked()
 *   D0r  smp_load_acquire(&designs_ready)   designs_init()
 *   K0w  ppxdp_lfht_start(), then synchronize_rcu(), then the table key
 *        set (relaxed)                      set_lookup_table_locked()
 *   K0r  rcu_read_lock(), the table key read (relaxed), the rculfhash
 *        lookup                             ppxdp_mem_lookup()
 * D0: a caller that finds the knobs applied sees the keys as they left
 * them. The return key is otherwise a relaxed flag: a return reads it
 * once, and either generation gives the page back correctly. K0: the
 * grace period is a full barrier on every reader thread (liburcu-memb's
 * membarrier), so a reader that sees the table key set sees the filled
 * rculfhash table; one that does not reads the id table, which is always
 * filled.
 */
#include <string.h>

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <pagepool/xdp.h>

#include "runtime/runtime_internal.h"
#include "xdp/xdp_internal.h"

#ifdef CONFIG_PAGEPOOL_ALL_DESIGNS
/* At the build's default from the start (written only under ppxdp_mem_lock). */
struct static_key_false ppxdp_return_lookup = {
	{ CONFIG_PAGEPOOL_XDP_RETURN_DEFAULT == PP_XDP_RETURN_LOOKUP }
};
struct static_key_false ppxdp_lookup_lfht = {
	{ CONFIG_PAGEPOOL_XDP_TABLE_DEFAULT == PP_XDP_TABLE_RCULFHASH }
};
#endif

/* One axis, for the knobs and the setters' checks; designs by enum value. */
struct ppxdp_axis {
	enum pprt_knob knob;
	const char *option;	/* the meson option */
	const char *what;
	const char *names[2];
	bool built[2];
};

static const struct ppxdp_axis return_axis = {
	.knob = PPRT_KNOB_XDP_RETURN,
	.option = "xdp_return",
	.what = "XDP return generation",
	.names = { [PP_XDP_RETURN_DIRECT] = "direct", [PP_XDP_RETURN_LOOKUP] = "lookup" },
	.built = {
		[PP_XDP_RETURN_DIRECT] = IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_DIRECT),
		[PP_XDP_RETURN_LOOKUP] = IS_ENABLED(CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP),
	},
};

static const struct ppxdp_axis table_axis = {
	.knob = PPRT_KNOB_XDP_TABLE,
	.option = "xdp_table",
	.what = "XDP mem id table",
	.names = { [PP_XDP_TABLE_ID] = "id", [PP_XDP_TABLE_RCULFHASH] = "rculfhash" },
	.built = {
		[PP_XDP_TABLE_ID] = IS_ENABLED(CONFIG_PAGEPOOL_XDP_TABLE_ID),
		[PP_XDP_TABLE_RCULFHASH] = IS_ENABLED(CONFIG_PAGEPOOL_XDP_TABLE_RCULFHASH),
	},
};

/* 0 when @design is one of @axis compiled in, else -EINVAL / -EOPNOTSUPP. */
static int axis_check(const struct ppxdp_axis *axis, int design)
{
	if (design < 0 || design >= (int)ARRAY_SIZE(axis->names))
		return -EINVAL;
	return axis->built[design] ? 0 : -EOPNOTSUPP;
}

/* The design @axis's knob names, if the build has it; else -1 (reported). */
static int axis_knob(const struct ppxdp_axis *axis)
{
	const char *v = pprt_knob(axis->knob);
	int d;

	if (!v)
		return -1;
	for (d = 0; d < (int)ARRAY_SIZE(axis->names); d++) {
		if (strcmp(v, axis->names[d]))
			continue;
		if (axis->built[d])
			return d;
		pr_warn("xdp: %s=%s ignored: this build has only the %s %s "
			"(build with meson -D%s=%s, or -Ddesigns=all)\n",
			pprt_knob_name(axis->knob), v, axis->names[!d], axis->what,
			axis->option, v);
		return -1;
	}
	pr_warn("xdp: %s=%s ignored: not %s or %s\n", pprt_knob_name(axis->knob), v,
		axis->names[0], axis->names[1]);
	return -1;
}

static int return_mode(void)
{
	return ppxdp_return_lookup_on() ? PP_XDP_RETURN_LOOKUP : PP_XDP_RETURN_DIRECT;
}

static int lookup_table_locked(void)
{
	return ppxdp_table_lfht_on() ? PP_XDP_TABLE_RCULFHASH : PP_XDP_TABLE_ID;
}

/* Switch to @mode, which the build has. */
static void set_return_mode(int mode)
{
#ifdef CONFIG_PAGEPOOL_ALL_DESIGNS
	if (mode == PP_XDP_RETURN_LOOKUP)
		static_branch_enable(&ppxdp_return_lookup);
	else
		static_branch_disable(&ppxdp_return_lookup);
#endif
	(void)mode;
}

/* Switch to @table, which the build has: 0, or -ENOMEM (nothing changed). */
static int set_lookup_table_locked(int table)
{
#ifdef CONFIG_PAGEPOOL_ALL_DESIGNS
	if (table == PP_XDP_TABLE_RCULFHASH) {
		int err = ppxdp_lfht_start();

		if (err)
			return err;
		/* K0w: the filled table before the key (see the top). */
		synchronize_rcu();
		static_branch_enable(&ppxdp_lookup_lfht);
	} else {
		static_branch_disable(&ppxdp_lookup_lfht);
	}
#endif
	(void)table;
	return 0;
}

/* The knobs have been applied (ppxdp_designs_init_locked()). */
static bool designs_ready;

void ppxdp_designs_init_locked(void)
{
	int d;

	if (designs_ready)
		return;
	d = axis_knob(&return_axis);
	if (d >= 0)
		set_return_mode(d);
	d = axis_knob(&table_axis);
	if (d >= 0 && set_lookup_table_locked(d))
		pr_warn("xdp: %s=%s ignored: out of memory\n", pprt_knob_name(table_axis.knob),
			table_axis.names[d]);
	/* D0w: the keys as the knobs set them, before the flag. */
	smp_store_release(&designs_ready, true);
}

static void designs_init(void)
{
	/* D0r: pairs with D0w. */
	if (smp_load_acquire(&designs_ready))
		return;
	mutex_lock(&ppxdp_mem_lock);
	ppxdp_designs_init_locked();
	mutex_unlock(&ppxdp_mem_lock);
}

int pp_xdp_set_return_mode(int mode)
{
	int old, err = axis_check(&return_axis, mode);

	if (err)
		return err;
	designs_init();
	old = return_mode();
	set_return_mode(mode);
	return old;
}

int pp_xdp_get_return_mode(void)
{
	designs_init();
	return return_mode();
}

int pp_xdp_set_lookup_table(int table)
{
	int old, err = axis_check(&table_axis, table);

	if (err)
		return err;
	mutex_lock(&ppxdp_mem_lock);
	ppxdp_designs_init_locked();
	old = lookup_table_locked();
	err = set_lookup_table_locked(table);
	mutex_unlock(&ppxdp_mem_lock);
	return err ? err : old;
}
