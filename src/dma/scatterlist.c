/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Scatterlist tables and walks (<linux/scatterlist.h>): sg_next() and the
 * counting helpers, table allocation from kmalloc() and from page arrays,
 * and copies between a list and a flat buffer.
 *
 * The kernel builds long tables from page-sized chunks chained together,
 * because it cannot count on large contiguous kernel allocations; kmalloc()
 * here is malloc(), so a table is one array and only lists that callers
 * chain themselves have links. Walks still follow links everywhere.
 * Layer: dma.
 */
#include <errno.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

struct scatterlist *sg_next(struct scatterlist *sg)
{
	if (sg_is_last(sg))
		return NULL;
	sg++;
	if (unlikely(sg_is_chain(sg)))
		sg = sg_chain_ptr(sg);
	return sg;
}

int sg_nents(struct scatterlist *sg)
{
	int nents;

	for (nents = 0; sg; sg = sg_next(sg))
		nents++;
	return nents;
}

int sg_nents_for_len(struct scatterlist *sg, u64 len)
{
	u64 total = 0;
	int nents;

	if (!len)
		return 0;
	for (nents = 0; sg; sg = sg_next(sg)) {
		nents++;
		total += sg->length;
		if (total >= len)
			return nents;
	}
	return -EINVAL;
}

struct scatterlist *sg_last(struct scatterlist *s, unsigned int nents)
{
	struct scatterlist *sg, *ret = NULL;
	unsigned int i;

	for_each_sg(s, sg, nents, i)
		ret = sg;
	return ret;
}

void sg_init_table(struct scatterlist *sgl, unsigned int nents)
{
	memset(sgl, 0, sizeof(*sgl) * nents);
	sg_init_marker(sgl, nents);
}

void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen)
{
	sg_init_table(sg, 1);
	sg_set_buf(sg, buf, buflen);
}

int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp_mask)
{
	struct scatterlist *sgl;

	memset(table, 0, sizeof(*table));
	if (!nents)
		return -EINVAL;
	sgl = kmalloc_array(nents, sizeof(*sgl), gfp_mask);
	if (!sgl)
		return -ENOMEM;
	sg_init_table(sgl, nents);
	table->sgl = sgl;
	table->orig_nents = nents;
	table->nents = nents;
	return 0;
}

void sg_free_table(struct sg_table *table)
{
	kfree(table->sgl);
	memset(table, 0, sizeof(*table));
}

/* Pages that can share an entry: the next frame in physical memory. */
static bool sg_pages_consecutive(const struct page *prev, const struct page *next)
{
	return page_to_pfn(prev) + 1 == page_to_pfn(next);
}

/* The pages, from @first, that the entry starting there takes: a run of
 * consecutive frames of at most @max_pages. */
static unsigned int sg_run(struct page **pages, unsigned int n_pages,
			   unsigned int first, unsigned int max_pages)
{
	unsigned int j = first + 1;

	while (j < n_pages && j - first < max_pages &&
	       sg_pages_consecutive(pages[j - 1], pages[j]))
		j++;
	return j - first;
}

int sg_alloc_table_from_pages_segment(struct sg_table *sgt, struct page **pages,
				      unsigned int n_pages, unsigned int offset,
				      unsigned long size, unsigned int max_segment,
				      gfp_t gfp_mask)
{
	unsigned int max_pages, chunks, i, cur, run;
	struct scatterlist *s;
	int err;

	memset(sgt, 0, sizeof(*sgt));
	max_segment = ALIGN_DOWN(max_segment, (unsigned int)PAGE_SIZE);
	if (WARN_ON(max_segment < PAGE_SIZE))
		return -EINVAL;
	/* Trailing pages beyond the data would make entries of length 0. */
	if (!n_pages || !size || offset >= PAGE_SIZE ||
	    (u64)offset + size > (u64)n_pages * PAGE_SIZE)
		return -EINVAL;
	n_pages = (unsigned int)DIV_ROUND_UP((u64)offset + size, PAGE_SIZE);
	max_pages = max_segment >> PAGE_SHIFT;

	/* Count first, so the table is allocated once. */
	for (chunks = 0, cur = 0; cur < n_pages; cur += run, chunks++)
		run = sg_run(pages, n_pages, cur, max_pages);

	err = sg_alloc_table(sgt, chunks, gfp_mask);
	if (err)
		return err;
	for (i = 0, cur = 0, s = sgt->sgl; i < chunks; i++, cur += run, s = sg_next(s)) {
		unsigned long len;

		run = sg_run(pages, n_pages, cur, max_pages);
		len = ((unsigned long)run << PAGE_SHIFT) - offset;
		sg_set_page(s, pages[cur], (unsigned int)min(len, size), offset);
		size -= min(len, size);
		offset = 0;
	}
	return 0;
}

enum sg_copy_mode { SG_TO_BUFFER, SG_FROM_BUFFER, SG_ZERO };

static size_t sg_copy(struct scatterlist *sgl, unsigned int nents, void *buf,
		      size_t buflen, off_t skip, enum sg_copy_mode mode)
{
	struct scatterlist *s;
	size_t done = 0;
	unsigned int i;

	if (skip < 0)
		return 0;
	for_each_sg(sgl, s, nents, i) {
		size_t len = s->length, n;
		char *data;

		if (done == buflen)
			break;
		if ((size_t)skip >= len) {
			skip -= (off_t)len;
			continue;
		}
		/* An entry's pages are consecutive frames, and the arena maps
		 * frames linearly: its data is one run of CPU addresses. */
		data = (char *)sg_virt(s) + skip;
		n = min(len - (size_t)skip, buflen - done);
		if (mode == SG_TO_BUFFER)
			memcpy((char *)buf + done, data, n);
		else if (mode == SG_FROM_BUFFER)
			memcpy(data, (const char *)buf + done, n);
		else
			memset(data, 0, n);
		done += n;
		skip = 0;
	}
	return done;
}

size_t sg_copy_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
		      size_t buflen, off_t skip, bool to_buffer)
{
	return sg_copy(sgl, nents, buf, buflen, skip,
		       to_buffer ? SG_TO_BUFFER : SG_FROM_BUFFER);
}

size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			   const void *buf, size_t buflen)
{
	return sg_copy(sgl, nents, (void *)buf, buflen, 0, SG_FROM_BUFFER);
}

size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			 void *buf, size_t buflen)
{
	return sg_copy(sgl, nents, buf, buflen, 0, SG_TO_BUFFER);
}

size_t sg_pcopy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			    const void *buf, size_t buflen, off_t skip)
{
	return sg_copy(sgl, nents, (void *)buf, buflen, skip, SG_FROM_BUFFER);
}

size_t sg_pcopy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			  void *buf, size_t buflen, off_t skip)
{
	return sg_copy(sgl, nents, buf, buflen, skip, SG_TO_BUFFER);
}

size_t sg_zero_buffer(struct scatterlist *sgl, unsigned int nents,
		      size_t buflen, off_t skip)
{
	return sg_copy(sgl, nents, NULL, buflen, skip, SG_ZERO);
}
