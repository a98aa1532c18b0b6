/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page->flags bits and the compound-page tests (PageHead(), PageTail(),
 * compound_head()), at the kernel's header path; <linux/mm.h> includes it.
 * Layer: mm.
 */
#ifndef _PP_LINUX_PAGE_FLAGS_H
#define _PP_LINUX_PAGE_FLAGS_H

#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/mm_types.h>

/* page->flags bits. */
enum pageflags {
	PG_head,		/* first page of a compound page */
	PG_buddy,		/* free, in a buddy list */
	PG_pcp,			/* free, on a per-CPU list */
	PG_reserved,		/* taken out of circulation (bad page) */
	PG_pfmemalloc,		/* allocated from the emergency reserves */
	/* Backs a net_iov of a memory provider's area (pagepool, core:
	 * pp_net_iov_area_bind_pages()); page->private is that net_iov.
	 * Set and cleared by the page's owner, the provider, between its
	 * allocation and its free; never on a free or page_pool page. */
	PG_net_iov,
};

/* Compound pages. */
static inline bool PageTail(const struct page *page)
{
	return READ_ONCE(page->compound_head) & 1;
}

static inline bool PageHead(const struct page *page)
{
	return test_bit(PG_head, &page->flags);
}

static inline bool PageCompound(const struct page *page)
{
	return PageHead(page) || PageTail(page);
}

static inline struct page *compound_head(const struct page *page)
{
	unsigned long head = READ_ONCE(page->compound_head);

	if (unlikely(head & 1))
		return (struct page *)(head - 1);
	return (struct page *)page;
}

#endif /* _PP_LINUX_PAGE_FLAGS_H */
