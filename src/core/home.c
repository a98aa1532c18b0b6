/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Reports of the home state (src/core/home.h; the rules are in
 * <net/page_pool/helpers.h>, "Home state").
 */

#include <linux/bug.h>
#include <net/netmem.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"
#include "core/home.h"

__cold void page_pool_home_dup(struct page_pool *pool, netmem_ref netmem, const char *where,
			       enum pp_home_dup why)
{
	if (why == PP_DUP_NOT_OURS) {
		/* Put into this pool's ring while the page was still its,
		 * found after the page left: two puts raced. */
		ppcore_count_misuse(PPCORE_MISUSE_FOREIGN_POOL);
		WARN(1, "page_pool %u: %s: %#lx in the ring is no longer this pool's page: a put after its release?",
		     pool->user.id, where, (unsigned long)netmem);
		return;
	}
	ppcore_count_misuse(PPCORE_MISUSE_DOUBLE_PUT);
	WARN(1, "page_pool %u: %s: %#lx put twice (%s); the second put is dropped",
	     pool->user.id, where, (unsigned long)netmem,
	     why == PP_DUP_HOME ? "it was back in the pool already" :
	     why == PP_DUP_IN_RING ? "a put of it is in the ring already" :
	     why == PP_DUP_RELEASED ? "it was let go already; its release waits for a duplicate in the ring" :
				     "a put of it was still in the ring when it went out again");
}
