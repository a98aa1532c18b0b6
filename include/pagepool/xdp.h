/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool's own XDP knobs: which generation of the kernel's XDP return
 * path xdp_return_frame*() and xdp_return_buff() run, so one program can
 * measure both (bench_xdp_return) and tests can check they agree; and the
 * XDP_REDIRECT counters that stand in for the kernel's tracepoints.
 * Layer: xdp.
 */
#ifndef _PAGEPOOL_XDP_H
#define _PAGEPOOL_XDP_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * PP_XDP_RETURN_DIRECT - the kernel since v6.1 (commit fb33ec016b87, "xdp:
 *	improve page_pool xdp_return performance"): the pool is read from the
 *	page (netmem_get_pp()); no lookup, no RCU section. Safe because a
 *	pool with pages in flight is never freed.
 * PP_XDP_RETURN_LOOKUP - the kernel up to v6.0: under rcu_read_lock(), the
 *	frame's mem id is looked up in the id -> allocator hash table and the
 *	page is put to that allocator's pool. The id travels in
 *	xdp_frame.mem_id (see <net/xdp.h>) or, for xdp_return_buff(), in
 *	rxq->mem.id. Bulk returns cache the allocator and flush when the id
 *	changes (v5.11-v6.13); they need one RCU read-side section around the
 *	whole bulk, as those kernels did.
 * Both give every page back to the pool that owns it; only the cost
 * differs. __xdp_return() has no id and reads the pool from the page in
 * every build.
 *
 * Which generations a library has is a build option: meson
 * -Dxdp_return=direct (the default) or lookup compiles that one alone -
 * the return calls then contain no test for the other - and -Ddesigns=all
 * compiles both, chosen at run time here (starting with the one
 * -Dxdp_return names). Switching at run time is allowed, also with frames
 * in flight, but not in the middle of a bulk (flush first).
 */
enum pp_xdp_return_mode {
	PP_XDP_RETURN_DIRECT = 0,
	PP_XDP_RETURN_LOOKUP = 1,
};

/**
 * pp_xdp_set_return_mode() - the XDP return generation, for every thread
 * @mode: PP_XDP_RETURN_DIRECT or PP_XDP_RETURN_LOOKUP
 *
 * The environment variable PAGEPOOL_XDP_RETURN=direct|lookup gives the
 * initial mode, applied at the first memory model registration or the
 * first call of these functions, whichever is first; one naming a
 * generation the build lacks is reported (a warning naming the build
 * option) and ignored.
 *
 * Context: any thread; not in the middle of a bulk return (flush first).
 * Return: the previous mode; -EINVAL for a value that is no mode,
 * -EOPNOTSUPP for a generation this library was built without (a
 * one-design build accepts only its own, and changes nothing).
 */
int pp_xdp_set_return_mode(int mode);
/**
 * pp_xdp_get_return_mode() - the XDP return generation in effect
 *
 * Context: any thread.
 * Return: PP_XDP_RETURN_DIRECT or PP_XDP_RETURN_LOOKUP.
 */
int pp_xdp_get_return_mode(void);

/*
 * Which id -> allocator table the LOOKUP generation reads:
 * PP_XDP_TABLE_ID - pagepool's RCU table indexed by the id (open
 *	addressing, a few dependent loads, inlined);
 * PP_XDP_TABLE_RCULFHASH - liburcu's rculfhash, a general-purpose RCU hash
 *	table like the kernel's rhashtable that v6.0 looked the id up in (a
 *	function call, a hash, a split-ordered bucket walk).
 * A build option as the return mode is: meson -Dxdp_table=id (the
 * default) or rculfhash, or both with -Ddesigns=all. With both, both are
 * kept up to date and only the lookups change. The environment variable
 * PAGEPOOL_XDP_TABLE=id|rculfhash gives the initial choice, as
 * PAGEPOOL_XDP_RETURN does. Returns the previous table; -EINVAL for a
 * value that is no table, -EOPNOTSUPP for a table the build lacks, -ENOMEM
 * (nothing changed). Any thread.
 */
enum pp_xdp_lookup_table {
	PP_XDP_TABLE_ID = 0,
	PP_XDP_TABLE_RCULFHASH = 1,
};
/**
 * pp_xdp_set_lookup_table() - the id -> allocator table the LOOKUP generation reads
 * @table: PP_XDP_TABLE_ID or PP_XDP_TABLE_RCULFHASH
 *
 * Context: any thread.
 * Return: the previous table; -EINVAL for a value that is no table,
 * -EOPNOTSUPP for a table the build lacks, -ENOMEM (nothing changed).
 */
int pp_xdp_set_lookup_table(int table);

/**
 * pp_xdp_mem_id_count() - memory models registered now
 *
 * Ids in use, including those whose removal waits for an RCU grace period.
 *
 * Context: any thread.
 * Return: the count.
 */
unsigned int pp_xdp_mem_id_count(void);

/*
 * XDP_REDIRECT counters (<linux/filter.h>), summed over every CPU since
 * the library was loaded. The kernel has tracepoints where these count:
 *   redirects        xdp_do_redirect() queued a frame (xdp_redirect,
 *                    xdp_redirect_map)
 *   redirect_errors  xdp_do_redirect() failed: the buffer stayed the
 *                    driver's (xdp_redirect_err, xdp_redirect_map_err)
 *   xmit_frames      frames an ndo_xdp_xmit() took    (xdp_devmap_xmit
 *   xmit_drops       frames it did not take, given     sent, drops and
 *                    back to their memory              err; one event
 *   xmit_errors      ndo_xdp_xmit() calls that         per call here
 *                    returned -errno                   too: see flushes)
 *   flushes          ndo_xdp_xmit() calls (a bulk queue sent: full, by
 *                    xdp_do_flush(), or at a device's unregistration)
 * Each counter is per CPU and read without stopping the writers: a sum
 * taken while frames move is a moment's snapshot, not a consistent cut.
 * 0, -EINVAL for a NULL @st. Any thread.
 */
struct pp_xdp_redirect_stats {
	unsigned long redirects;
	unsigned long redirect_errors;
	unsigned long xmit_frames;
	unsigned long xmit_drops;
	unsigned long xmit_errors;
	unsigned long flushes;
};
/**
 * pp_xdp_get_redirect_stats() - the XDP_REDIRECT counters, summed over every CPU
 * @st: filled in (struct pp_xdp_redirect_stats, see above)
 *
 * Context: any thread.
 * Return: 0, or -EINVAL for a NULL @st.
 */
int pp_xdp_get_redirect_stats(struct pp_xdp_redirect_stats *st);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop
#endif /* _PAGEPOOL_XDP_H */
