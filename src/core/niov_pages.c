/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * net_iov areas backed by host memory (pagepool's extension of
 * <net/page_pool/memory_provider.h>): a provider whose net_iovs are
 * ordinary arena pages binds its area to them, and a data pointer into one
 * of those pages leads back to its net_iov in O(1).
 *
 * The mark. A bound page carries PG_net_iov in page->flags and the address
 * of its net_iov in page->private. Neither collides with another user of
 * the page:
 *   - the page allocator writes flags and private only on a free page and
 *     when it hands a page out (prep_new_page() clears both); a bound page
 *     is allocated, the provider's, for as long as it is bound (bind
 *     refuses free pages, unbind comes before the free);
 *   - page_pool never owns a bound page: a provider pool holds the
 *     net_iov, never the struct page behind it, so the page's pp fields
 *     stay zero (netmem_is_pp() is false for it, which is how the return
 *     paths know to look here) and its private word is not a list design's
 *     link (those use it only for page_pool pages);
 *   - bind refuses compound pages (a tail's first word is its head, and
 *     virt_to_head_page() of data in a tail would name the head's
 *     net_iov), page_pool pages and pages bound already.
 * The lookup trusts the flag only as far as the back pointer agrees: the
 * net_iov's area must be bound and name this page for that net_iov.
 *
 * The resolution. Only the paths that find a page is not a page_pool page
 * call here (recycle.c's refusal of a put and its bulk put, the holders'
 * hand-on note, the XDP return's "no page_pool owns it" branch), so an
 * ordinary page's put never reads these fields.
 *
 * Context and locking: bind and unbind are set-up calls of the provider,
 * made while none of the area's net_iovs is handed out, so no lookup runs
 * concurrently with them (a frame naming the area's memory exists only
 * between the two, and reached its user through whatever ordering handed
 * the net_iov out). Lookups take no lock and write nothing.
 * Layer: core.
 */
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <net/netmem.h>
#include <net/page_pool/memory_provider.h>

#include "core/core_internal.h"

/* Is @page one that bind may mark? */
static bool page_bindable(const struct page *page)
{
	unsigned long bad = BIT(PG_buddy) | BIT(PG_pcp) | BIT(PG_reserved) | BIT(PG_net_iov);

	return !PageCompound(page) && !page_pool_page_is_pp(page) &&
	       !(READ_ONCE(page->flags) & bad);
}

int pp_net_iov_area_bind_pages(struct net_iov_area *area, struct page *first)
{
	size_t i, n;

	if (!area || !area->niovs || !area->num_niovs || !first || area->pp_pages)
		return -EINVAL;
	n = area->num_niovs;
	if (!pfn_valid(page_to_pfn(first)) || !pfn_valid(page_to_pfn(first) + n - 1) ||
	    page_to_pfn(first) + n - 1 < page_to_pfn(first))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (area->niovs[i].owner != area || !page_bindable(first + i))
			return -EINVAL;
	for (i = 0; i < n; i++) {
		WRITE_ONCE(first[i].private, (unsigned long)&area->niovs[i]);
		set_bit(PG_net_iov, &first[i].flags);
	}
	WRITE_ONCE(area->pp_pages, first);
	return 0;
}

void pp_net_iov_area_unbind_pages(struct net_iov_area *area)
{
	struct page *first;
	size_t i;

	if (!area || !(first = area->pp_pages))
		return;
	WRITE_ONCE(area->pp_pages, NULL);
	for (i = 0; i < area->num_niovs; i++) {
		clear_bit(PG_net_iov, &first[i].flags);
		WRITE_ONCE(first[i].private, 0UL);
	}
}

struct page *ppcore_net_iov_page(const struct net_iov *niov)
{
	const struct net_iov_area *area;
	struct page *pages;
	unsigned long idx;

	if (!niov || !(area = READ_ONCE(niov->owner)) || !(pages = READ_ONCE(area->pp_pages)))
		return NULL;
	idx = ((unsigned long)niov - (unsigned long)area->niovs) / sizeof(*niov);
	if ((unsigned long)niov < (unsigned long)area->niovs || idx >= area->num_niovs)
		return NULL;
	return pages + idx;
}

void *pp_net_iov_address(const struct net_iov *niov)
{
	struct page *page = ppcore_net_iov_page(niov);

	return page ? page_address(page) : NULL;
}

struct net_iov *ppcore_page_net_iov(const struct page *page)
{
	struct net_iov *niov;

	if (!pfn_valid(page_to_pfn(page)) || !(READ_ONCE(page->flags) & BIT(PG_net_iov)))
		return NULL;
	niov = (struct net_iov *)READ_ONCE(page->private);
	/* The flag alone is not trusted: the area must say the same. */
	if (!niov || ppcore_net_iov_page(niov) != page)
		return NULL;
	return niov;
}

struct net_iov *pp_virt_to_net_iov(const void *addr)
{
	if (!virt_addr_valid(addr))
		return NULL;
	return ppcore_page_net_iov(virt_to_page(addr));
}

netmem_ref ppcore_bound_netmem(netmem_ref netmem)
{
	struct net_iov *niov;

	if (!netmem || netmem_is_net_iov(netmem))
		return 0;
	niov = ppcore_page_net_iov(__netmem_to_page(netmem));
	return niov ? net_iov_to_netmem(niov) : 0;
}
