/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool fragments, as the kernel's: a page carved into pieces for
 * several users. The pool's frag page holds a bias of BIAS_MAX references,
 * so each fragment's put is one atomic subtraction and the page is drained
 * (the bias taken back) once, when the next fragment does not fit; a
 * fully returned page is reused in place. The fragment state is the
 * consumer's, like the alloc cache.
 */

#include <linux/cache.h>
#include <linux/dma-mapping.h>
#include <linux/skbuff.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>

#include "core/core_internal.h"
#include "core/lifecycle.h"

/* Frag bias: a fresh frag page holds this many references, so that each
 * fragment's put is one atomic and the page is drained once at the end. */
#define BIAS_MAX	(LONG_MAX >> 1)

/*
 * Drop the frag bias of @netmem: the references page_pool_fragment_netmem()
 * gave it that no fragment took (BIAS_MAX - frag_users). Returns what is
 * left: > 0, users still hold fragments (the last one's put recycles the
 * page); 0, every fragment came back and the page is the pool's again (in
 * the "1 piece" state); < 0, the page was put more times than fragments were
 * handed out (a fragment over-put).
 *
 * An over-put before the drain is silent: each fragment put only takes one
 * from a count near BIAS_MAX. Here it shows. Which put was the extra one
 * cannot be told (a put names the page, not the fragment), so every
 * fragment's puts have come in - or an over-putter put more than once too
 * often while a fragment is still held. Either way the page must not be
 * recycled into the pool (a holder's page would be handed out twice), and
 * it must not be kept (the pool would wait for it forever): the caller
 * releases it to the page allocator. The count is left negative, so a
 * put racing with that release is an underflow too (reported, undone)
 * and never looks like a last reference.
 */
static long page_pool_frag_unbias(struct page_pool *pool, netmem_ref netmem)
{
	atomic_long_t *pp_ref_count = netmem_get_pp_ref_count_ref(netmem);
	long drain_count = BIAS_MAX - pool->frag_users;
	long ret;

	/* U1' (acquire), as in page_pool_unref_netmem(): the users' reads of
	 * the page happen before we recycle it. */
	if (atomic_long_read_acquire(pp_ref_count) == drain_count) {
		atomic_long_set(pp_ref_count, 1);
		return 0;
	}
	ret = atomic_long_sub_return(drain_count, pp_ref_count);	/* U1 */
	if (likely(ret > 0))
		return ret;
	if (ret == 0) {
		atomic_long_set(pp_ref_count, 1);
		return 0;
	}
	ppcore_count_misuse(PPCORE_MISUSE_REF_UNDERFLOW);
	WARN(1, "page_pool %u: fragmented page %#lx put %ld more times than its %ld fragments; released, not recycled",
	     pool->user.id, (unsigned long)netmem, -ret, pool->frag_users);
	return ret;
}

static netmem_ref page_pool_drain_frag(struct page_pool *pool, netmem_ref netmem)
{
	long ret = page_pool_frag_unbias(pool, netmem);

	/* Some user still holds a fragment. */
	if (likely(ret > 0))
		return 0;

	if (ret == 0 && __page_pool_page_can_be_recycled(netmem)) {
		page_pool_dma_sync_for_device(pool, netmem, -1);
		return netmem;
	}
	/* Extra page references, or an over-put (ret < 0): out of the pool. */
	page_pool_return_page(pool, netmem);
	return 0;
}

/* Destroy: the pool will carve no more fragments from its frag page. */
void page_pool_free_frag(struct page_pool *pool)
{
	netmem_ref netmem = pool->frag_page;

	pool->frag_page = 0;
	/* Users still hold fragments: the last one's put releases the page
	 * (the pool is destroyed). Otherwise every fragment is back - or it
	 * was over-put, which page_pool_frag_unbias() reported: release it
	 * either way; the pool must not wait for it. */
	if (!netmem || page_pool_frag_unbias(pool, netmem) > 0)
		return;
	page_pool_return_page(pool, netmem);
}

/*
 * The smallest fragment, and the unit fragments are rounded up to: the
 * larger of the DMA alignment (1 on x86-64, 128 on arm64) and
 * skb_shared_info's (8), as Linux 6.12.117 (Debian's linux-source-6.12) does,
 * so a fragment can end in a shared info that build_skb() puts there.
 * 100-byte fragments: 0, 104, 208, ...
 */
static inline unsigned int page_pool_frag_align(void)
{
	return max_t(unsigned int, dma_get_cache_alignment(),
		     __alignof__(struct skb_shared_info));
}

static netmem_ref __page_pool_alloc_frag_consumer(struct page_pool *pool, unsigned int *offset,
						  unsigned int size, gfp_t gfp, unsigned long ip);

/* The fragment state is the consumer's too (see ppcore_consumer_enter()).
 * @ip: the take site (lifecycle.h), the caller of the exported function. */
static __always_inline netmem_ref page_pool_alloc_frag_netmem_ip(struct page_pool *pool,
								  unsigned int *offset,
								  unsigned int size, gfp_t gfp,
								  unsigned long ip)
{
	netmem_ref netmem;

	if (!ppcore_consumer_enter(pool, "fragment allocation"))
		return 0;
	netmem = __page_pool_alloc_frag_consumer(pool, offset, size, gfp, ip);
	ppcore_consumer_exit(pool);
	return netmem;
}

__ppcore_take_site netmem_ref page_pool_alloc_frag_netmem(struct page_pool *pool,
							unsigned int *offset, unsigned int size,
							gfp_t gfp)
{
	return page_pool_alloc_frag_netmem_ip(pool, offset, size, gfp, PPCORE_RET_IP);
}

/* Every fragment handed out is a take of its page (lifecycle.h): the page
 * is attributed to the last fragment taken. */
static netmem_ref __page_pool_alloc_frag_consumer(struct page_pool *pool, unsigned int *offset,
						  unsigned int size, gfp_t gfp, unsigned long ip)
{
	unsigned int max_size = PAGE_SIZE << pool->p.order;
	netmem_ref netmem = pool->frag_page;

	/*
	 * A fragment never starts at or past its page's end. The kernel's
	 * code lets a size-0 fragment start at frag_offset == max_size when
	 * the page was filled exactly: page_address() + offset is then the
	 * next page, and page_pool_free_va() of it puts a page someone else
	 * holds. Size 0 gets the smallest fragment instead (helpers.h):
	 * inside a page, its own address, one reference like any other.
	 * One compare catches both size 0 (it wraps) and a size above the
	 * page, as the kernel's WARN_ON(size > max_size) alone did.
	 */
	if (unlikely(size - 1 >= max_size)) {
		if (WARN_ON(size > max_size))
			return 0;
		size = 1;
	}
	/* max_size is a multiple of the unit: never more than the page. */
	size = ALIGN(size, page_pool_frag_align());
	*offset = pool->frag_offset;

	/*
	 * CONFIG_DEBUG_NET: a fragment over-put shows before the drain. The
	 * current page's count is BIAS_MAX minus the puts plus the extra
	 * references users took (page_pool_ref_netmem(), which precede their
	 * puts); below BIAS_MAX - frag_users, more came back than was handed
	 * out. Stop carving from the page: drain it now, which reports it and
	 * releases it (page_pool_frag_unbias()). One load of a word the
	 * release build does not touch here, so it is a debug check.
	 */
	if (IS_ENABLED(CONFIG_DEBUG_NET) && netmem &&
	    unlikely(atomic_long_read(netmem_get_pp_ref_count_ref(netmem)) <
		     BIAS_MAX - pool->frag_users)) {
		netmem = page_pool_drain_frag(pool, netmem);
		if (netmem) {
			/* Defensive: the drain hands back a page only when no
			 * underflow was seen after all (a racing
			 * page_pool_ref_netmem()). */
			alloc_stat_inc(pool, fast);
			goto frag_reset;
		}
	} else if (netmem && *offset + size > max_size) {
		netmem = page_pool_drain_frag(pool, netmem);
		if (netmem) {
			/* The last user gave it back: reuse it in place. */
			alloc_stat_inc(pool, fast);
			goto frag_reset;
		}
	}

	if (!netmem) {
		if (__PP_FASTPATH_IN_LIBRARY)
			netmem = ppcore_alloc_netmems_ip(pool, gfp, ip);
		else
			netmem = page_pool_alloc_netmems(pool, gfp);
		if (unlikely(!netmem)) {
			pool->frag_page = 0;
			return 0;
		}
		pool->frag_page = netmem;
frag_reset:
		pool->frag_users = 1;
		*offset = 0;
		pool->frag_offset = size;
		page_pool_fragment_netmem(netmem, BIAS_MAX);
		ppcore_netmem_out(pool, netmem, ip);
		return netmem;
	}

	pool->frag_users++;
	pool->frag_offset = *offset + size;
	/* 6.12 counts every fragment carved from the current page as a
	 * fast allocation (newer kernels count only the page). */
	alloc_stat_inc(pool, fast);
	ppcore_netmem_out(pool, netmem, ip);
	return netmem;
}

__ppcore_take_site struct page *page_pool_alloc_frag(struct page_pool *pool, unsigned int *offset,
						     unsigned int size, gfp_t gfp)
{
	netmem_ref netmem = page_pool_alloc_frag_netmem_ip(pool, offset, size, gfp,
							   PPCORE_RET_IP);

	if (unlikely(netmem_is_net_iov(netmem)))
		return __page_pool_alloc_unreadable(pool, netmem);
	return __netmem_to_page(netmem);
}

