/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Loader of the AF_XDP redirect program (xsk_bpf.h): opens the embedded
 * BPF object with libbpf (bpf_object__open_mem()), loads it, attaches it
 * with bpf_xdp_attach() in skb or drv mode without replacing anything
 * (XDP_FLAGS_UPDATE_IF_NOEXIST), fills the XSKMAP, and detaches only our
 * own program (XDP_FLAGS_REPLACE with its fd as the expected one).
 *
 * Built against the system's uapi, libbpf and libxdp headers only: the
 * pagepool include directory has kernel-internal headers of the same
 * names (<linux/bpf.h>, ...), which libbpf's would otherwise pick up.
 * Context: process context, one caller at a time per struct ppxsk_bpf.
 * Layer: drivers.
 */
#include <errno.h>
#include <net/if.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/xsk.h>

#include "xsk_bpf.h"
#include "xsk_redirect.bpf.h"	/* generated: ppxsk_redirect_bpf_obj[] */

#define PPXSK_BPF_MAX_QUEUES 64	/* xsks_map's max_entries */

struct ppxsk_bpf {
	struct bpf_object *obj;
	int prog_fd;
	int map_fd;
	int ifindex;
	unsigned int mode_flags;	/* XDP_FLAGS_SKB_MODE or XDP_FLAGS_DRV_MODE */
};

static void *err_ptr(int err)
{
	return (void *)(intptr_t)err;
}

struct ppxsk_bpf *ppxsk_bpf_attach(const char *ifname, bool drv_mode)
{
	LIBBPF_OPTS(bpf_object_open_opts, oopts, .object_name = "ppxsk_redirect");
	struct bpf_program *prog;
	struct bpf_map *map;
	struct ppxsk_bpf *b;
	int err;

	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE)
		return err_ptr(-EINVAL);
	b = calloc(1, sizeof(*b));
	if (!b)
		return err_ptr(-ENOMEM);
	b->ifindex = (int)if_nametoindex(ifname);
	if (!b->ifindex) {
		err = -ENODEV;
		goto out_free;
	}
	b->mode_flags = drv_mode ? XDP_FLAGS_DRV_MODE : XDP_FLAGS_SKB_MODE;

	b->obj = bpf_object__open_mem(ppxsk_redirect_bpf_obj, ppxsk_redirect_bpf_obj_len, &oopts);
	err = -errno;
	if (!b->obj)
		goto out_free;
	err = bpf_object__load(b->obj);
	if (err)
		goto out_close;
	prog = bpf_object__find_program_by_name(b->obj, "ppxsk_redirect");
	map = bpf_object__find_map_by_name(b->obj, "xsks_map");
	if (!prog || !map) {
		err = -ENOENT;
		goto out_close;
	}
	b->prog_fd = bpf_program__fd(prog);
	b->map_fd = bpf_map__fd(map);

	err = bpf_xdp_attach(b->ifindex, b->prog_fd, b->mode_flags | XDP_FLAGS_UPDATE_IF_NOEXIST,
			     NULL);
	if (err)
		goto out_close;
	return b;

out_close:
	bpf_object__close(b->obj);
out_free:
	free(b);
	return err_ptr(err < 0 ? err : -EINVAL);
}

int ppxsk_bpf_add_socket(struct ppxsk_bpf *b, unsigned int queue, struct xsk_socket *xsk)
{
	__u32 key = queue;
	int fd;

	if (!b || !xsk || queue >= PPXSK_BPF_MAX_QUEUES)
		return -EINVAL;
	fd = xsk_socket__fd(xsk);
	if (fd < 0)
		return -EINVAL;
	/* What xsk_socket__update_xskmap() does, for the queue given here
	 * rather than the one the socket was bound to (they are the same for
	 * every user in the tree). */
	if (bpf_map_update_elem(b->map_fd, &key, &fd, BPF_ANY))
		return -errno;
	return 0;
}

int ppxsk_bpf_del_socket(struct ppxsk_bpf *b, unsigned int queue)
{
	__u32 key = queue;

	if (!b || queue >= PPXSK_BPF_MAX_QUEUES)
		return -EINVAL;
	if (bpf_map_delete_elem(b->map_fd, &key))
		return -errno;
	return 0;
}

int ppxsk_bpf_map_fd(const struct ppxsk_bpf *b)
{
	return b ? b->map_fd : -EINVAL;
}

int ppxsk_bpf_ifindex(const struct ppxsk_bpf *b)
{
	return b ? b->ifindex : -EINVAL;
}

int ppxsk_bpf_detach(struct ppxsk_bpf *b)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, dopts);
	int err;

	if (!b)
		return -EINVAL;
	dopts.old_prog_fd = b->prog_fd;
	err = bpf_xdp_detach(b->ifindex, b->mode_flags | XDP_FLAGS_REPLACE, &dopts);
	/* The interface went away with our program on it: nothing to restore. */
	if (err == -ENODEV)
		err = 0;
	bpf_object__close(b->obj);
	free(b);
	return err;
}
