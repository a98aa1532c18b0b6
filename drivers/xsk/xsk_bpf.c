/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Loader of the AF_XDP redirect program (xsk_bpf.h): opens the embedded
 * BPF object with libbpf (bpf_object__open_mem()), loads it, attaches it
 * in skb or drv mode through a BPF link (bpf_link_create(), BPF_XDP), fills
 * the XSKMAP, and detaches by destroying the link. A link never replaces a
 * program (the kernel refuses one on an interface that has any), and it
 * goes away with the last fd on it: a process killed by SIGKILL leaves no
 * program behind, unlike a netlink attachment. When the interface is busy,
 * one line on stderr says what holds it (ppxsk_bpf_holder()).
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
#include <stdio.h>
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
	int link_fd;	/* the BPF link that holds the program on the interface */
	int ifindex;
	unsigned int mode_flags;	/* XDP_FLAGS_SKB_MODE or XDP_FLAGS_DRV_MODE */
};

static void *err_ptr(int err)
{
	return (void *)(intptr_t)err;
}

/* The id of the BPF link that attaches XDP program prog_id to ifindex, 0
 * if none (the program was attached by netlink) or the links cannot be read. */
static __u32 xdp_link_id(int ifindex, __u32 prog_id)
{
	__u32 id = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info info;
		__u32 len = sizeof(info);
		int fd = bpf_link_get_fd_by_id(id);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.type == BPF_LINK_TYPE_XDP &&
		    (int)info.xdp.ifindex == ifindex && info.prog_id == prog_id) {
			close(fd);
			return id;
		}
		close(fd);
	}
	return 0;
}

int ppxsk_bpf_holder(const char *ifname, char *buf, size_t len)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct bpf_prog_info info;
	__u32 info_len = sizeof(info), prog_id, link_id;
	const char *mode, *off;
	int ifindex, fd;

	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE || (!buf && len))
		return -EINVAL;
	ifindex = (int)if_nametoindex(ifname);
	if (!ifindex)
		return -ENODEV;
	if (bpf_xdp_query(ifindex, 0, &q))
		return -errno;
	if (q.skb_prog_id) {
		prog_id = q.skb_prog_id;
		mode = "generic (skb)";
		off = "xdpgeneric off";
	} else if (q.drv_prog_id) {
		prog_id = q.drv_prog_id;
		mode = "native (drv)";
		off = "xdp off";
	} else if (q.hw_prog_id) {
		prog_id = q.hw_prog_id;
		mode = "offloaded (hw)";
		off = "xdpoffload off";
	} else {
		return 0;
	}
	memset(&info, 0, sizeof(info));
	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &info_len))
		info.name[0] = '\0';
	if (fd >= 0)
		close(fd);
	link_id = xdp_link_id(ifindex, prog_id);
	if (link_id)
		snprintf(buf, len, "%s has XDP program id %u '%s' in %s mode, held by BPF link id "
			 "%u of a running process (it goes when that process exits)",
			 ifname, prog_id, info.name, mode, link_id);
	else
		snprintf(buf, len, "%s has XDP program id %u '%s' in %s mode, attached by netlink "
			 "(it stays after its process is gone); if it is a stale one, remove it with "
			 "'ip link set dev %s %s'", ifname, prog_id, info.name, mode, ifname, off);
	return (int)prog_id;
}

struct ppxsk_bpf *ppxsk_bpf_attach(const char *ifname, bool drv_mode)
{
	LIBBPF_OPTS(bpf_object_open_opts, oopts, .object_name = "ppxsk_redirect");
	LIBBPF_OPTS(bpf_link_create_opts, lopts);
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

	/* The kernel refuses a link where any program is attached: -EBUSY
	 * in the same mode, -EEXIST in the other one. */
	lopts.flags = b->mode_flags;
	b->link_fd = bpf_link_create(b->prog_fd, b->ifindex, BPF_XDP, &lopts);
	if (b->link_fd < 0) {
		char why[384];

		err = b->link_fd;
		if ((err == -EBUSY || err == -EEXIST) && ppxsk_bpf_holder(ifname, why, sizeof(why)) > 0)
			fprintf(stderr, "ppxsk_bpf: cannot attach to %s: %s: %s\n", ifname,
				strerror(-err), why);
		goto out_close;
	}
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
	int err = 0;

	if (!b)
		return -EINVAL;
	/* Detach now, even if a child holds a copy of the link's fd; the
	 * close then frees the link. An interface that went away took the
	 * attachment with it (-ENOLINK or -ENODEV): nothing to undo. */
	if (bpf_link_detach(b->link_fd)) {
		err = -errno;
		if (err == -ENOLINK || err == -ENODEV)
			err = 0;
	}
	close(b->link_fd);
	bpf_object__close(b->obj);
	free(b);
	return err;
}
