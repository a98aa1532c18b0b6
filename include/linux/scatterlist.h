/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Scatterlists: struct scatterlist and struct sg_table with the kernel's
 * layout on x86-64 (32 bytes an entry, with the DMA length and flags of
 * CONFIG_NEED_SG_DMA_LENGTH and CONFIG_NEED_SG_DMA_FLAGS), the inline
 * helpers that build and walk them (sg_set_page(), sg_next(), for_each_sg()
 * ...), table allocation, and copies between a list and a flat buffer.
 * dma_map_sg() and friends are in <linux/dma-mapping.h>.
 *
 * Entries point at struct pages of the arena; a list may be chained
 * (sg_chain()) and ends at the entry marked with sg_mark_end(). Tables
 * from sg_alloc_table() are one flat array (never chained), which the
 * kernel's callers cannot tell from its chained chunks. A list is not
 * thread-safe: one owner at a time.
 *
 * This header is in the dma layer (lib/scatterlist.c in the kernel): the
 * DMA fields are its reason to exist, and it reads struct page through
 * <linux/mm.h> as the rest of the dma layer does.
 * Layer: dma.
 */
#ifndef _PP_LINUX_SCATTERLIST_H
#define _PP_LINUX_SCATTERLIST_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/bug.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/types.h>

struct scatterlist {
	unsigned long	page_link;	/* struct page * | SG_CHAIN | SG_END */
	unsigned int	offset;
	unsigned int	length;
	dma_addr_t	dma_address;
	unsigned int	dma_length;
	unsigned int	dma_flags;
};

/* After dma_map_sg(): the bus address and length of each DMA segment. Use
 * only as many entries as dma_map_sg() returned, or stop at the first
 * whose sg_dma_len() is 0. */
#define sg_dma_address(sg)	((sg)->dma_address)
#define sg_dma_len(sg)		((sg)->dma_length)

struct sg_table {
	struct scatterlist *sgl;	/* the list */
	unsigned int nents;		/* DMA segments once mapped */
	unsigned int orig_nents;	/* entries of the list */
};

/* Low bits of page_link: bit 0, a link to the next array; bit 1, the
 * list's last entry. struct page is 8-byte aligned, so both are free. */
#define SG_CHAIN		0x01UL
#define SG_END			0x02UL
#define SG_PAGE_LINK_MASK	(SG_CHAIN | SG_END)

static inline unsigned int __sg_flags(struct scatterlist *sg)
{
	return (unsigned int)(sg->page_link & SG_PAGE_LINK_MASK);
}

static inline struct scatterlist *sg_chain_ptr(struct scatterlist *sg)
{
	return (struct scatterlist *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

static inline bool sg_is_chain(struct scatterlist *sg)
{
	return __sg_flags(sg) & SG_CHAIN;
}

static inline bool sg_is_last(struct scatterlist *sg)
{
	return __sg_flags(sg) & SG_END;
}

/* Point @sg at @page, keeping its end marker. */
static inline void sg_assign_page(struct scatterlist *sg, struct page *page)
{
	unsigned long page_link = sg->page_link & SG_PAGE_LINK_MASK;

	BUG_ON((unsigned long)page & SG_PAGE_LINK_MASK);
	sg->page_link = page_link | (unsigned long)page;
}

/* @len bytes at @offset into @page (the offset may run past the first
 * page, into the rest of its block). */
static inline void sg_set_page(struct scatterlist *sg, struct page *page,
			       unsigned int len, unsigned int offset)
{
	sg_assign_page(sg, page);
	sg->offset = offset;
	sg->length = len;
}

static inline struct page *sg_page(struct scatterlist *sg)
{
	return (struct page *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

/* @buf must be arena memory. */
static inline void sg_set_buf(struct scatterlist *sg, const void *buf,
			      unsigned int buflen)
{
	sg_set_page(sg, virt_to_page(buf), buflen,
		    (unsigned int)offset_in_page(buf));
}

/* Each of the first @nr entries, following chain links. */
#define for_each_sg(sglist, sg, nr, __i)	\
	for (__i = 0, sg = (sglist); __i < (nr); __i++, sg = sg_next(sg))

/* Each entry of @sgt's list ... */
#define for_each_sgtable_sg(sgt, sg, i)		\
	for_each_sg((sgt)->sgl, sg, (sgt)->orig_nents, i)

/* ... and each of its DMA segments once mapped (dma_map_sgtable()). */
#define for_each_sgtable_dma_sg(sgt, sg, i)	\
	for_each_sg((sgt)->sgl, sg, (sgt)->nents, i)

/* Make @chain_sg a link to @sgl (it carries no data any more). */
static inline void __sg_chain(struct scatterlist *chain_sg,
			      struct scatterlist *sgl)
{
	chain_sg->offset = 0;
	chain_sg->length = 0;
	chain_sg->page_link = ((unsigned long)sgl | SG_CHAIN) & ~SG_END;
}

/* Link the last of @prv's @prv_nents entries to @sgl. */
static inline void sg_chain(struct scatterlist *prv, unsigned int prv_nents,
			    struct scatterlist *sgl)
{
	__sg_chain(&prv[prv_nents - 1], sgl);
}

/* @sg is the last entry: sg_next() returns NULL after it. */
static inline void sg_mark_end(struct scatterlist *sg)
{
	sg->page_link |= SG_END;
	sg->page_link &= ~SG_CHAIN;
}

static inline void sg_unmark_end(struct scatterlist *sg)
{
	sg->page_link &= ~SG_END;
}

/* sg->dma_flags, as the kernel's: a segment mapped as a PCI bus address
 * (P2PDMA; never set here) or bounced through swiotlb (never: there is
 * none). Kept so that code testing them compiles. */
#define SG_DMA_BUS_ADDRESS	(1 << 0)
#define SG_DMA_SWIOTLB		(1 << 1)

static inline bool sg_dma_is_bus_address(struct scatterlist *sg)
{
	return sg->dma_flags & SG_DMA_BUS_ADDRESS;
}

static inline void sg_dma_mark_bus_address(struct scatterlist *sg)
{
	sg->dma_flags |= SG_DMA_BUS_ADDRESS;
}

static inline void sg_dma_unmark_bus_address(struct scatterlist *sg)
{
	sg->dma_flags &= ~SG_DMA_BUS_ADDRESS;
}

static inline bool sg_dma_is_swiotlb(struct scatterlist *sg)
{
	return sg->dma_flags & SG_DMA_SWIOTLB;
}

static inline void sg_dma_mark_swiotlb(struct scatterlist *sg)
{
	sg->dma_flags |= SG_DMA_SWIOTLB;
}

/* The physical address of the entry's data. */
static inline dma_addr_t sg_phys(struct scatterlist *sg)
{
	return page_to_phys(sg_page(sg)) + sg->offset;
}

/* The CPU address of the entry's data. */
static inline void *sg_virt(struct scatterlist *sg)
{
	return (char *)page_address(sg_page(sg)) + sg->offset;
}

static inline void sg_init_marker(struct scatterlist *sgl, unsigned int nents)
{
	sg_mark_end(&sgl[nents - 1]);
}

/**
 * sg_nents() - entries of a scatterlist
 * @sg: the list
 *
 * Context: any context.
 * Return: the entries up to the end marker (chain links not counted).
 */
int sg_nents(struct scatterlist *sg);
/**
 * sg_nents_for_len() - entries needed to cover a length
 * @sg: the list
 * @len: the bytes
 *
 * Context: any context.
 * Return: the count; 0 for @len 0; -EINVAL if the list holds fewer bytes.
 */
int sg_nents_for_len(struct scatterlist *sg, u64 len);
/**
 * sg_next() - the next entry of a scatterlist
 * @sg: the entry
 *
 * Follows a chain link.
 *
 * Context: any context.
 * Return: the entry after @sg; NULL after the last.
 */
struct scatterlist *sg_next(struct scatterlist *sg);
/**
 * sg_last() - the last of a scatterlist's first entries
 * @s: the list
 * @nents: how many entries count
 *
 * Context: any context.
 * Return: the last of the first @nents entries.
 */
struct scatterlist *sg_last(struct scatterlist *s, unsigned int nents);
/**
 * sg_init_table() - initialise a scatterlist array
 * @sgl: the array
 * @nents: its entries: zeroed, the last marked as the end
 *
 * Context: any context.
 */
void sg_init_table(struct scatterlist *sgl, unsigned int nents);
/**
 * sg_init_one() - a one-entry scatterlist for a buffer
 * @sg: the entry
 * @buf: the buffer (arena memory)
 * @buflen: its length
 *
 * Context: any context.
 */
void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen);

/* The largest table held in one page, as the kernel's chunk size. */
#define SG_MAX_SINGLE_ALLOC	(PAGE_SIZE / sizeof(struct scatterlist))

/**
 * sg_alloc_table() - allocate a scatterlist table
 * @table: filled in: a zeroed list of @nents entries, the last marked as the end
 * @nents: the entries
 * @gfp_mask: allocation flags
 *
 * Context: process context, or softirq with GFP_ATOMIC.
 * Return: 0; -EINVAL for @nents 0; -ENOMEM.
 */
int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp_mask);
/**
 * sg_free_table() - free a scatterlist table
 * @table: what sg_alloc_table() (or a _from_pages variant) allocated;
 *	zeroed after. A zeroed or already freed table is fine.
 *
 * The pages are not freed.
 *
 * Context: any context.
 */
void sg_free_table(struct sg_table *table);

/**
 * sg_alloc_table_from_pages_segment() - a scatterlist table for an array of pages
 * @sgt: filled in
 * @pages: the pages
 * @n_pages: how many
 * @offset: where the data starts in the first page
 * @size: the bytes of data
 * @max_segment: the largest entry, rounded down to pages
 * @gfp_mask: allocation flags
 *
 * Runs of physically consecutive pages become one entry.
 *
 * Context: process context, or softirq with GFP_ATOMIC.
 * Return: 0; -EINVAL (@max_segment below a page, no pages, or @offset +
 * @size beyond them); -ENOMEM.
 */
int sg_alloc_table_from_pages_segment(struct sg_table *sgt, struct page **pages,
				      unsigned int n_pages, unsigned int offset,
				      unsigned long size, unsigned int max_segment,
				      gfp_t gfp_mask);

static inline int sg_alloc_table_from_pages(struct sg_table *sgt,
					    struct page **pages,
					    unsigned int n_pages,
					    unsigned int offset,
					    unsigned long size, gfp_t gfp_mask)
{
	return sg_alloc_table_from_pages_segment(sgt, pages, n_pages, offset,
						 size, UINT_MAX, gfp_mask);
}

/*
 * Copies between the data of the first @nents entries and @buf, skipping
 * the first @skip bytes of the list. The bytes copied: at most @buflen,
 * fewer if the list ends first.
 */
/**
 * sg_copy_buffer() - copy between a scatterlist and a buffer
 * @sgl: the list
 * @nents: its entries
 * @buf: the buffer
 * @buflen: its length
 * @skip: bytes of the list skipped first
 * @to_buffer: true: from the list to @buf; false: the other way
 *
 * Context: any context.
 * Return: the bytes copied.
 */
size_t sg_copy_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
		      size_t buflen, off_t skip, bool to_buffer);
/**
 * sg_copy_from_buffer() - copy a buffer into a scatterlist
 * @sgl: the list
 * @nents: its entries
 * @buf: the buffer
 * @buflen: its length
 *
 * Context: any context.
 * Return: the bytes copied.
 */
size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			   const void *buf, size_t buflen);
/**
 * sg_copy_to_buffer() - copy a scatterlist into a buffer
 * @sgl: the list
 * @nents: its entries
 * @buf: the buffer
 * @buflen: its length
 *
 * Context: any context.
 * Return: the bytes copied.
 */
size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			 void *buf, size_t buflen);
/**
 * sg_pcopy_from_buffer() - copy a buffer into a scatterlist at an offset
 * @sgl: the list
 * @nents: its entries
 * @buf: the buffer
 * @buflen: its length
 * @skip: bytes of the list skipped first
 *
 * Context: any context.
 * Return: the bytes copied.
 */
size_t sg_pcopy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			    const void *buf, size_t buflen, off_t skip);
/**
 * sg_pcopy_to_buffer() - copy a scatterlist from an offset into a buffer
 * @sgl: the list
 * @nents: its entries
 * @buf: the buffer
 * @buflen: its length
 * @skip: bytes of the list skipped first
 *
 * Context: any context.
 * Return: the bytes copied.
 */
size_t sg_pcopy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			  void *buf, size_t buflen, off_t skip);
/**
 * sg_zero_buffer() - zero part of a scatterlist's data
 * @sgl: the list
 * @nents: its entries
 * @buflen: the bytes to zero
 * @skip: bytes of the list skipped first
 *
 * Context: any context.
 * Return: the bytes zeroed.
 */
size_t sg_zero_buffer(struct scatterlist *sgl, unsigned int nents,
		      size_t buflen, off_t skip);

#pragma GCC visibility pop
#endif /* _PP_LINUX_SCATTERLIST_H */
