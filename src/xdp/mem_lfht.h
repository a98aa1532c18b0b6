/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The rculfhash table of mem ids (mem_lfht.c), in plain C types: included
 * both by mem_lfht.c (with liburcu's headers) and by the XDP layer (with
 * the kernel's). Callers hold the RCU read-side lock for add, del and
 * lookup, and ppxdp_mem_lock for add and del. Defined only in builds with
 * the rculfhash table (CONFIG_PAGEPOOL_XDP_TABLE_RCULFHASH); the others
 * never call them.
 */
#ifndef _PP_XDP_MEM_LFHT_H
#define _PP_XDP_MEM_LFHT_H

#include <stdint.h>

/* Embedded in struct xdp_mem_allocator; holds a cds_lfht_node first. */
struct ppxdp_lfht_node {
	void *opaque[2];
	uint32_t id;
};

int ppxdp_lfht_add(struct ppxdp_lfht_node *node, uint32_t id);	/* 0 or -1 */
void ppxdp_lfht_del(struct ppxdp_lfht_node *node);
struct ppxdp_lfht_node *ppxdp_lfht_lookup(uint32_t id);

#endif
