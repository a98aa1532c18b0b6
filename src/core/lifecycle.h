/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page-lifecycle hooks: one call at every transition of a page_pool
 * netmem, for the introspection builds - holder tracking
 * (CONFIG_PAGEPOOL_HOLDERS, src/core/holders.c) and use-after-recycle
 * poisoning (CONFIG_PAGEPOOL_POISON, src/core/poison.h). With neither set
 * every hook is an empty inline function and the build's code is what it
 * was without them. With either set, <net/page_pool/helpers.h> sends its
 * inline fast paths (the alloc-cache pop, the direct recycle) to the
 * library (__PP_FASTPATH_IN_LIBRARY), so no transition happens where no
 * hook sees it.
 *
 *   ppcore_netmem_out(pool, netmem, ip)
 *	the netmem leaves the pool to a user: an alloc-cache pop, the slow
 *	path or a refill handing one out, a fragment carved from the frag
 *	page (each fragment: the page is attributed to the last one taken).
 *	@ip is the code that asked for it: the library's entry points pass
 *	their __builtin_return_address(0), which is the driver's call site
 *	when the inline header code made the call. The pool's consumer.
 *   ppcore_netmem_in(pool, netmem)
 *	it comes home: recycled into the alloc cache (direct put), or put
 *	into the ring, a lane, a magazine or the llist by any CPU - called
 *	before the store that publishes it there, while the putter still
 *	owns it. A put that finds no room then releases it (below).
 *   ppcore_netmem_handoff(netmem, ip)
 *	a hand-on: the holder gives the netmem to another context without
 *	putting it. Recorded at XDP frame conversion
 *	(xdp_convert_buff_to_frame(), through pp_page_pool_note_handoff())
 *	and at XDP_REDIRECT's enqueue (src/xdp/redirect.c). Not recorded:
 *	the non-last put of a fragment, which is inline header code that
 *	only decrements a count (a site per fragment would be the last
 *	fragment's anyway). The netmem's current holder.
 *   ppcore_netmem_release(pool, netmem)
 *	it goes back to the page allocator (or its memory provider) for
 *	good: page_pool_return_page(), before anything there touches it.
 *
 * A hook may run twice for one transition (a put into a full ring is an
 * in, then a release): every hook is idempotent. net_iovs (memory
 * providers) have no struct page in the arena: holder tracking skips
 * them; poisoning has no CPU address to poison.
 * Layer: core.
 */
#ifndef _PP_CORE_LIFECYCLE_H
#define _PP_CORE_LIFECYCLE_H

#include <linux/kconfig.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>

/* The take site a library entry point records: its caller's code. */
#define PPCORE_RET_IP	((unsigned long)__builtin_return_address(0))

/*
 * On every entry point that records PPCORE_RET_IP in the builds with
 * hooks: gcc's identical code folding otherwise merges two such entry
 * points with equal bodies (__page_pool_alloc_netmems_slow() and the
 * exported page_pool_alloc_netmems()) and may make one call the other
 * (it does when TSan instruments both), which records the first as the
 * take site. Nothing in the builds without hooks.
 */
#if (IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS) || IS_ENABLED(CONFIG_PAGEPOOL_POISON)) && \
	defined(__has_attribute)
#if __has_attribute(__no_icf__)
#define __ppcore_take_site	__attribute__((__no_icf__))
#endif
#endif
#ifndef __ppcore_take_site
#define __ppcore_take_site
#endif

#if IS_ENABLED(CONFIG_PAGEPOOL_POISON)
#include "core/poison.h"
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)
#include "core/holders.h"
#endif

static __always_inline void ppcore_netmem_out(struct page_pool *pool, netmem_ref netmem,
					      unsigned long ip)
{
#if IS_ENABLED(CONFIG_PAGEPOOL_POISON)
	ppcore_unpoison_netmem(pool, netmem);
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)
	ppcore_holder_out(pool, netmem, ip);
#endif
	(void)pool;
	(void)netmem;
	(void)ip;
}

static __always_inline void ppcore_netmem_in(struct page_pool *pool, netmem_ref netmem)
{
#if IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)
	ppcore_holder_clear(netmem);
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_POISON)
	ppcore_poison_netmem(pool, netmem);
#endif
	(void)pool;
	(void)netmem;
}

static __always_inline void ppcore_netmem_handoff(netmem_ref netmem, unsigned long ip)
{
#if IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)
	ppcore_holder_handoff(netmem, ip);
#endif
	(void)netmem;
	(void)ip;
}

static __always_inline void ppcore_netmem_release(struct page_pool *pool, netmem_ref netmem)
{
#if IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)
	ppcore_holder_clear(netmem);
#endif
#if IS_ENABLED(CONFIG_PAGEPOOL_POISON)
	ppcore_unpoison_netmem(pool, netmem);
#endif
	(void)pool;
	(void)netmem;
}

#endif /* _PP_CORE_LIFECYCLE_H */
