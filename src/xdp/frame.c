/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Frames that need memory of their own: xdpf_clone(), which copies a frame
 * - its headroom, metadata, data and, for a multi-buffer frame, every
 * fragment - into freshly allocated MEM_TYPE_PAGE_ORDER0 pages (what devmap
 * broadcast does to send one frame to several devices).
 * Layer: xdp.
 */
#include <string.h>

#include <linux/mm.h>
#include <linux/skbuff.h>
#include <net/xdp.h>

/* Copy every fragment of @from into a page of its own, listed in @to
 * (the clone's skb_shared_info). 0, or -1 with nothing left allocated. */
static int xdpf_clone_frags(struct skb_shared_info *to, const struct skb_shared_info *from)
{
	u32 i, nr_frags = from->nr_frags;

	for (i = 0; i < nr_frags; i++) {
		const skb_frag_t *frag = &from->frags[i];
		const void *src = skb_frag_address(frag);
		struct page *page;

		/* A net_iov has no CPU address: it cannot be copied. */
		if (!src || skb_frag_size(frag) > PAGE_SIZE)
			goto undo;
		page = dev_alloc_page();
		if (!page)
			goto undo;
		memcpy(page_address(page), src, skb_frag_size(frag));
		__skb_fill_page_desc_noacc(to, (int)i, page, 0, (int)skb_frag_size(frag));
	}
	to->nr_frags = (u8)nr_frags;
	to->xdp_frags_size = from->xdp_frags_size;
	/* What the copies occupy, not what the originals did. */
	to->xdp_frags_truesize = nr_frags * (u32)PAGE_SIZE;
	return 0;
undo:
	while (i--)
		put_page(skb_frag_page(&to->frags[i]));
	return -1;
}

struct xdp_frame *xdpf_clone(struct xdp_frame *xdpf)
{
	unsigned int headroom = xdpf->headroom + sizeof(*xdpf);
	unsigned int totalsize = headroom + xdpf->len;
	struct xdp_frame *nxdpf;
	struct page *page;
	char *addr;

	/* The clone's own skb_shared_info goes at the end of its page. */
	if (unlikely(totalsize > SKB_WITH_OVERHEAD(PAGE_SIZE)))
		return NULL;
	page = dev_alloc_page();
	if (!page)
		return NULL;
	addr = page_address(page);

	/* The frame struct, the headroom (metadata) and the data, in place:
	 * the clone's offsets are the original's. */
	memcpy(addr, xdpf, totalsize);
	nxdpf = (struct xdp_frame *)addr;
	nxdpf->data = addr + headroom;
	nxdpf->frame_sz = PAGE_SIZE;
	nxdpf->mem.type = MEM_TYPE_PAGE_ORDER0;
	nxdpf->mem.id = 0;

	if (unlikely(xdp_frame_has_frags(xdpf)) &&
	    xdpf_clone_frags(xdp_get_shared_info_from_frame(nxdpf),
			     xdp_get_shared_info_from_frame(xdpf))) {
		put_page(page);
		return NULL;
	}
	return nxdpf;
}
