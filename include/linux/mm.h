/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * struct page helpers: address <-> page, reference counts, compound pages,
 * and the page_pool signature checks. Everything here is O(1) arithmetic on
 * the arena (<pagepool/mm.h>); the pointers passed in must be arena memory.
 *
 * Bad input on the reference-count paths (get_page() on a free page,
 * put_page() underflow, a freed page still marked as a page_pool page) is
 * reported with a WARN and a counter (pp_mem_get_counters()) and never
 * reaches the free lists.
 * Layer: mm.
 */
#ifndef _PP_LINUX_MM_H
#define _PP_LINUX_MM_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/gfp.h>
#include <linux/jump_label.h>	/* as the kernel's, which <net/netmem.h> relies on */
#include <linux/kernel.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/poison.h>
#include <linux/string.h>	/* memcpy()/memset(), as the kernel's chain brings them */

/* The build's page size (meson -Dpage_size; <generated/autoconf.h>), as
 * the kernel's asm-generic and arm64 headers define it since v6.7. */
#define PAGE_SHIFT	CONFIG_PAGE_SHIFT
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr)	ALIGN(addr, PAGE_SIZE)
#define PAGE_ALIGNED(addr)	IS_ALIGNED((unsigned long)(addr), PAGE_SIZE)
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)

/* The smallest order whose block holds @size bytes: 0 up to a page. The
 * kernel leaves get_order(0) undefined; here it is 0. */
static inline int get_order(unsigned long size)
{
	if (size <= PAGE_SIZE)
		return 0;
	return BITS_PER_LONG - __builtin_clzl((size - 1) >> PAGE_SHIFT);
}

/* The arena, set up by pp_mem_init() or on first allocation. */
struct pp_mem_map {
	unsigned long base;	/* arena start (aligned to the largest block) */
	unsigned long end;
	struct page *map;	/* struct page array */
	/* 8 bytes per page for the page's current owner to write without
	 * touching the page's struct page cache line (page_pool's home
	 * state, <net/page_pool/helpers.h>); zero at start, never written
	 * by the page allocator. home_bias + (address of the struct page
	 * >> 3) is the page's (struct pages are 64 bytes). */
	void *home;
	unsigned long home_bias;
	unsigned long nr_pages;
};
extern struct pp_mem_map pp_mem_map;

/* Bus-visible page frame numbers start here, so no valid physical (and
 * thus direct-mapped DMA) address is 0. */
#define PP_PFN_OFFSET	0x100UL

static inline bool virt_addr_valid(const void *addr)
{
	return (unsigned long)addr >= pp_mem_map.base &&
	       (unsigned long)addr < pp_mem_map.end;
}

static inline struct page *virt_to_page(const void *addr)
{
	return pp_mem_map.map +
	       (((unsigned long)addr - pp_mem_map.base) >> PAGE_SHIFT);
}

static inline void *page_address(const struct page *page)
{
	return (void *)(pp_mem_map.base +
			((unsigned long)(page - pp_mem_map.map) << PAGE_SHIFT));
}
#define lowmem_page_address(page)	page_address(page)

static inline unsigned long page_to_pfn(const struct page *page)
{
	return PP_PFN_OFFSET + (unsigned long)(page - pp_mem_map.map);
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return pp_mem_map.map + (pfn - PP_PFN_OFFSET);
}

static inline bool pfn_valid(unsigned long pfn)
{
	return pfn >= PP_PFN_OFFSET && pfn - PP_PFN_OFFSET < pp_mem_map.nr_pages;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}

static inline int page_to_nid(const struct page *page)
{
	return page->nid;
}

static inline unsigned int compound_order(const struct page *page)
{
	return PageHead(page) ? page->order : 0;
}

static inline unsigned long page_size(const struct page *page)
{
	return PAGE_SIZE << compound_order(page);
}

static inline struct page *virt_to_head_page(const void *addr)
{
	return compound_head(virt_to_page(addr));
}

/* Reference counts. */
static inline int page_ref_count(const struct page *page)
{
	return atomic_read(&page->_refcount);
}

static inline int page_count(const struct page *page)
{
	return page_ref_count(compound_head(page));
}

static inline void set_page_count(struct page *page, int v)
{
	atomic_set(&page->_refcount, v);
}

static inline void init_page_count(struct page *page)
{
	set_page_count(page, 1);
}

static inline void page_ref_inc(struct page *page)
{
	atomic_inc(&page->_refcount);
}

static inline void page_ref_add(struct page *page, int nr)
{
	atomic_add(nr, &page->_refcount);
}

static inline bool page_ref_dec_and_test(struct page *page)
{
	return atomic_dec_and_test(&page->_refcount);
}

/**
 * __pp_get_page_bad() - report get_page() on a free page
 * @page: the page (a use after free: reported, not taken)
 *
 * Context: any context.
 */
void __pp_get_page_bad(struct page *page);
/**
 * __pp_put_page_last() - put_page() dropped the last reference: free the page
 * @page: the page (the whole compound page)
 *
 * Context: any context.
 */
void __pp_put_page_last(struct page *page);
/**
 * __pp_put_page_bad() - report a put of a free page
 * @page: the page; the underflow is undone
 *
 * Context: any context.
 */
void __pp_put_page_bad(struct page *page);

/* Take a reference on @page (on the head, for a compound page). Taking one
 * on a free page is a use after free: reported, not taken. */
static inline void get_page(struct page *page)
{
	page = compound_head(page);
	if (unlikely(atomic_fetch_add_relaxed(1, &page->_refcount) <= 0))
		__pp_get_page_bad(page);
}

/* Drop 1; true if it was the last reference. An underflow (put of a free
 * page) is reported and undone. */
static inline bool put_page_testzero(struct page *page)
{
	int v = atomic_dec_return(&page->_refcount);

	if (likely(v > 0))
		return false;
	if (unlikely(v < 0)) {
		__pp_put_page_bad(page);
		return false;
	}
	return true;
}

/* Drop a reference; the last one frees the page (the whole compound page). */
static inline void put_page(struct page *page)
{
	page = compound_head(page);
	if (put_page_testzero(page))
		__pp_put_page_last(page);
}

static inline bool page_is_pfmemalloc(const struct page *page)
{
	return test_bit(PG_pfmemalloc, &page->flags);
}

static inline void set_page_pfmemalloc(struct page *page)
{
	set_bit(PG_pfmemalloc, &page->flags);
}

static inline void clear_page_pfmemalloc(struct page *page)
{
	clear_bit(PG_pfmemalloc, &page->flags);
}

/*
 * page_pool pages: pp_magic holds PP_SIGNATURE in bits outside the DMA index
 * field [PP_DMA_INDEX_SHIFT, +PP_DMA_INDEX_BITS) and bits 0-1 (tail marker,
 * reserved), as upstream v6.15+. The field is derived as the kernel's
 * mm.h derives it: it starts above PP_SIGNATURE's own bits (the
 * signature without the delta, 0x40: shift 7) and ends below the lowest
 * bit of POISON_POINTER_DELTA, at most 32 bits wide. Both targets have the
 * 0xdead000000000000 delta (<asm/poison.h>): min(32, 48 - 7) = 32. Without
 * a delta the kernel takes the bits below PAGE_OFFSET when that is a known
 * constant, else none; a program has no PAGE_OFFSET, so: none (0), and
 * the DMA index cannot be kept in pp_magic.
 */
#define PP_DMA_INDEX_SHIFT						\
	(1 + (BITS_PER_LONG - 1 -					\
	      __builtin_clzl(PP_SIGNATURE - POISON_POINTER_DELTA)))	/* 7 */
#if POISON_POINTER_DELTA > 0
#define PP_DMA_INDEX_BITS						\
	(__builtin_ctzl(POISON_POINTER_DELTA) - PP_DMA_INDEX_SHIFT < 32 ? \
	 __builtin_ctzl(POISON_POINTER_DELTA) - PP_DMA_INDEX_SHIFT : 32)
#else
#define PP_DMA_INDEX_BITS	0
#endif
#define PP_DMA_INDEX_MASK	GENMASK(PP_DMA_INDEX_BITS + PP_DMA_INDEX_SHIFT - 1, \
					PP_DMA_INDEX_SHIFT)
#define PP_MAGIC_MASK		(~(PP_DMA_INDEX_MASK | 0x3UL))
/* The field overlaps neither the signature nor the delta, and a DMA index
 * stored in it keeps page_pool_page_is_pp() true. */
static_assert(PP_DMA_INDEX_BITS >= 0 && PP_DMA_INDEX_BITS <= 32);
static_assert(!(PP_DMA_INDEX_MASK & (PP_SIGNATURE | 0x3UL)));
static_assert((PP_SIGNATURE & PP_MAGIC_MASK) == PP_SIGNATURE);

static inline bool page_pool_page_is_pp(const struct page *page)
{
	return (READ_ONCE(page->pp_magic) & PP_MAGIC_MASK) == PP_SIGNATURE;
}

#pragma GCC visibility pop
#endif /* _PP_LINUX_MM_H */
