/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XDP_REDIRECT: the helpers' redirect info, xdp_do_redirect(), the per-CPU
 * bulk queues and flush lists, xdp_do_flush(), the ifindex -> device
 * index the redirect reads, and the netdevice notifier that makes and
 * frees a device's queues (the kernel's net/core/filter.c and the
 * bulking half of kernel/bpf/devmap.c; the devmap itself is devmap.c).
 *
 * Where the state lives, and why:
 *   - the redirect info (the target the helper chose) is per thread, as
 *     the kernel's since v6.11 (struct bpf_net_context, per task): the
 *     helper and xdp_do_redirect() run in one program run on one thread;
 *   - the bulk queues are per CPU and per device (dev->xdp_bulkq), and the
 *     flush list per CPU, as the kernel's up to v6.10. Both are touched
 *     only with bottom halves off, where a CPU - the shared one included
 *     (<pagepool/runtime.h>: its lock is held for the whole section) - has
 *     one thread. A per-CPU list (rather than 6.11's per-task one) means a
 *     queue a careless driver left unflushed is sent by the next
 *     xdp_do_flush() on that CPU, whoever calls it, instead of hanging on
 *     a thread that may never flush again;
 *   - the counters are per CPU, written by their CPU with bottom halves
 *     off (a relaxed load and store, no atomic), read racily by
 *     pp_xdp_get_redirect_stats().
 *
 * Why a device index of our own: the runtime's device list is walked and
 * changed under RTNL only, and a NAPI poll cannot take RTNL. The kernel's
 * dev_get_by_index_rcu() reads an RCU hash; this is the same for the
 * ifindexes the runtime hands out (1, 2, 3, ..., never reused): an array
 * indexed by ifindex, published with RCU, grown by copying.
 *
 * Device lifetime. The notifier runs under RTNL. At NETDEV_REGISTER a
 * device with ndo_xdp_xmit gets its bulk queues, then is published in the
 * index. At NETDEV_UNREGISTER it is unpublished from the index and from
 * every devmap; then synchronize_net() waits for every CPU to leave the
 * bottom-half-disabled section it is in. A CPU that queued frames for the
 * device did so in such a section, and sends them with its xdp_do_flush()
 * before leaving it (through ndo_xdp_xmit, which for an unregistering
 * device may refuse them; they are then given back): after the grace
 * period no queue holds a frame, and none can get one, so the queues are
 * freed. A queue still holding frames then is a driver that did not call
 * xdp_do_flush() (WARN): on the calling thread's own CPU the frames are
 * given back at once; on another CPU, whose flush list only that CPU may
 * touch, the queue is marked dead and leaked, and that CPU's next
 * xdp_do_flush() gives the frames back without touching the device.
 *
 * Memory orders:
 *   X0w  rcu_assign_pointer(dev_index)          index_set()        release
 *   X0r  rcu_dereference(dev_index)             index_lookup()     acquire
 *   X1w  rcu_assign_pointer(idx->dev[ifindex])  index_set()        release
 *   X1r  rcu_dereference(idx->dev[ifindex])     index_lookup()     acquire
 * X0: a reader that sees a new array sees its size and every slot copied
 * into it. X1: a reader that sees a device sees it registered with its
 * xdp_bulkq set (written before the publication). The devmap's entries
 * pair the same way (devmap.c, M1).
 *   D0w  WRITE_ONCE(bq->dead)   netdev_unregister(), after the grace period
 *                               (or without one, inside a section: a WARN)
 *   D0r  READ_ONCE(bq->dead)    bq_xmit_all() on the queue's CPU
 * D0: a flag, no ordering: the frames and count it guards were written by
 * the reading CPU itself; only the device pointer must not be followed
 * once it is set, and the leaked queue stays valid for ever.
 *   S0   per-CPU counters: WRITE_ONCE by their CPU, READ_ONCE by the sum.
 */
#include <stdio.h>

#include <linux/bottom_half.h>
#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/prefetch.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <pagepool/xdp.h>

#include "xdp/xdp_internal.h"

#define VLAN_HLEN	4	/* the kernel's <linux/if_vlan.h> */

/*
 * The redirect info: what bpf_redirect() or bpf_redirect_map() chose. A
 * target is an ifindex for both helpers, looked up by xdp_do_redirect(),
 * never a device pointer: the info is per thread and outlives the
 * bottom-half section of the helper call when no xdp_do_redirect()
 * consumes it (a program that looked a devmap entry up and then returned
 * another verdict), and a later XDP_REDIRECT without a helper call would
 * follow a pointer to a device unregistered and freed meanwhile. An
 * ifindex is never reused, so a stale one finds no device (-EINVAL).
 */
struct ppxdp_redirect_info {
	u32 kind;			/* PPXDP_RI_* */
	u32 tgt_index;			/* the target's ifindex */
};

static __thread struct ppxdp_redirect_info redirect_info
	__attribute__((tls_model("initial-exec")));

/* One CPU's flush list and counters: one cache line, written by its CPU. */
struct ppxdp_redirect_cpu {
	struct list_head flush_list;
	unsigned long redirects, redirect_errors;
	unsigned long xmit_frames, xmit_drops, xmit_errors, flushes;
} ____cacheline_aligned;

static struct ppxdp_redirect_cpu redirect_cpu[NR_CPUS];

/* Errors of calls made outside a bottom-half-disabled section, where no
 * CPU's counters can be written without a race (the shared CPU's, or a
 * thread's that has none yet): rare, so an atomic. */
static atomic_long_t redirect_errors_unlocked;

#define PCPU_ADD(field, n)						\
	WRITE_ONCE(rc->field, READ_ONCE(rc->field) + (n))	/* S0 */

/* The ifindex -> device index (see the top of the file). */
struct ppxdp_dev_index {
	unsigned int size;
	struct rcu_head rcu;
	struct net_device *dev[];
};

static struct ppxdp_dev_index *dev_index;	/* __rcu; written under RTNL */

void ppxdp_set_redirect_target(u32 kind, u32 ifindex)
{
	struct ppxdp_redirect_info *ri = &redirect_info;

	ri->kind = kind;
	ri->tgt_index = ifindex;
}

bool ppxdp_helper_context_ok(const char *helper)
{
	if (likely(in_softirq()))
		return true;
	WARN_ONCE(1, "%s() outside a NAPI poll or bottom-half-disabled section", helper);
	return false;
}

long bpf_redirect(u32 ifindex, u64 flags)
{
	if (unlikely(flags) || unlikely(!ppxdp_helper_context_ok("bpf_redirect")))
		return XDP_ABORTED;
	ppxdp_set_redirect_target(PPXDP_RI_IFINDEX, ifindex);
	return XDP_REDIRECT;
}

static struct net_device *index_lookup(u32 ifindex)
{
	struct ppxdp_dev_index *idx = rcu_dereference(dev_index);	/* X0r */

	if (unlikely(!idx || ifindex >= idx->size))
		return NULL;
	return rcu_dereference(idx->dev[ifindex]);			/* X1r */
}

/* Under RTNL: publish @dev at @ifindex (or clear it with NULL), growing the
 * array first when needed. -ENOMEM leaves the index as it was. */
static int index_set(int ifindex, struct net_device *dev)
{
	struct ppxdp_dev_index *idx = rcu_dereference_protected(dev_index, true), *nidx;
	unsigned int size;

	if (ifindex <= 0)
		return -EINVAL;
	if (!idx || (unsigned int)ifindex >= idx->size) {
		if (!dev)
			return 0;
		size = idx ? idx->size : 16;
		while (size <= (unsigned int)ifindex)
			size *= 2;
		nidx = kzalloc(sizeof(*nidx) + size * sizeof(nidx->dev[0]), GFP_KERNEL);
		if (!nidx)
			return -ENOMEM;
		nidx->size = size;
		if (idx)
			memcpy(nidx->dev, idx->dev, idx->size * sizeof(idx->dev[0]));
		rcu_assign_pointer(dev_index, nidx);			/* X0w */
		if (idx)
			kfree_rcu(idx, rcu);
		idx = nidx;
	}
	rcu_assign_pointer(idx->dev[ifindex], dev);			/* X1w */
	return 0;
}

/*
 * Send @bq's frames with one ndo_xdp_xmit() (the kernel's bq_xmit_all()).
 * @napi: the caller is the RX NAPI poll that queued them, so the frames
 * not taken go back to their pool's NAPI cache; otherwise (a device's
 * unregistration) through xdp_return_frame().
 */
static void bq_xmit_all(struct ppxdp_redirect_cpu *rc, struct xdp_dev_bulk_queue *bq,
			u32 flags, bool napi)
{
	unsigned int cnt = bq->count, i;
	int sent = 0;

	if (unlikely(!cnt))
		return;
	if (unlikely(READ_ONCE(bq->dead))) {				/* D0r */
		/* The device is gone (see the top of the file). */
		sent = 0;
		goto give_back;
	}

	for (i = 0; i < cnt; i++)
		prefetch(bq->q[i]);
	sent = bq->dev->netdev_ops->ndo_xdp_xmit(bq->dev, (int)cnt, bq->q, flags);
	PCPU_ADD(flushes, 1);
	if (unlikely(sent < 0)) {
		/* An errno: no frame was taken. */
		PCPU_ADD(xmit_errors, 1);
		sent = 0;
	} else if (WARN_ONCE((unsigned int)sent > cnt,
			     "%s: ndo_xdp_xmit() took %d of %u frames",
			     bq->dev->name, sent, cnt)) {
		/* It holds some of them at least; giving any back could
		 * free a frame it sends. Believe it took them all. */
		sent = (int)cnt;
	}
	PCPU_ADD(xmit_frames, (unsigned int)sent);

give_back:
	/* The frames it did not take are ours to give back. */
	for (i = (unsigned int)sent; unlikely(i < cnt); i++) {
		if (napi)
			xdp_return_frame_rx_napi(bq->q[i]);
		else
			xdp_return_frame(bq->q[i]);
	}
	PCPU_ADD(xmit_drops, cnt - (unsigned int)sent);
	bq->count = 0;
}

/* The kernel's bq_enqueue(): a full queue is sent (without the flush
 * doorbell) before the frame is added; the first frame of a poll puts
 * the queue on this CPU's flush list. */
static void bq_enqueue(struct ppxdp_redirect_cpu *rc, struct net_device *dev,
		       struct xdp_frame *xdpf, struct net_device *dev_rx)
{
	struct xdp_dev_bulk_queue *bq = this_cpu_ptr(dev->xdp_bulkq);

	if (unlikely(bq->count == DEV_MAP_BULK_SIZE))
		bq_xmit_all(rc, bq, 0, true);

	/* A queue is on the list exactly when dev_rx is set: all its frames
	 * come from one poll, which flushes before it ends. */
	if (!bq->dev_rx) {
		bq->dev_rx = dev_rx;
		list_add(&bq->flush_node, &rc->flush_list);
	}
	bq->q[bq->count++] = xdpf;
}

/* The kernel's __xdp_enqueue() with xdp_ok_fwd_dev(). */
static int xdp_enqueue(struct ppxdp_redirect_cpu *rc, struct net_device *dev,
		       struct xdp_frame *xdpf, struct net_device *dev_rx)
{
	if (unlikely(!dev->netdev_ops || !dev->netdev_ops->ndo_xdp_xmit))
		return -EOPNOTSUPP;
	if (unlikely(!dev->xdp_bulkq))
		return -ENOMEM;
	if (unlikely(!(READ_ONCE(dev->flags) & IFF_UP)))
		return -ENETDOWN;
	if (unlikely(xdp_get_frame_len(xdpf) >
		     READ_ONCE(dev->mtu) + dev->hard_header_len + VLAN_HLEN))
		return -EMSGSIZE;
	bq_enqueue(rc, dev, xdpf, dev_rx);
	return 0;
}

int xdp_do_redirect(struct net_device *dev, struct xdp_buff *xdp, struct bpf_prog *prog)
{
	struct ppxdp_redirect_info *ri = &redirect_info;
	struct ppxdp_redirect_cpu *rc;
	struct net_device *fwd = NULL;
	struct xdp_frame *xdpf;
	u32 kind = ri->kind;
	int err;

	(void)prog;
	/* The target is consumed whatever happens next. */
	ri->kind = PPXDP_RI_NONE;

	if (unlikely(!in_softirq())) {
		WARN_ONCE(1, "xdp_do_redirect() outside a NAPI poll or bottom-half-disabled section");
		atomic_long_inc(&redirect_errors_unlocked);
		return -EINVAL;
	}
	rc = &redirect_cpu[smp_processor_id()];
	/* A driver bug, refused before anything is queued: a queue is on the
	 * flush list exactly when its dev_rx is set (bq_enqueue()), so a
	 * NULL one would list it twice and corrupt the list. */
	if (unlikely(!dev || !xdp)) {
		WARN_ONCE(1, "xdp_do_redirect() with no %s", dev ? "buffer" : "RX device");
		err = -EINVAL;
		goto err;
	}

	/* As the kernel: the frame first (it lives in the buffer's headroom,
	 * so the buffer stays the caller's if anything below fails). */
	xdpf = xdp_convert_buff_to_frame(xdp);
	if (unlikely(!xdpf)) {
		err = -EOVERFLOW;
		goto err;
	}

	/* Both kinds: the device the helper saw, if it is still registered
	 * (see struct ppxdp_redirect_info). A devmap slot updated since
	 * then does not change where the frame goes, as in the kernel. */
	if (likely(kind != PPXDP_RI_NONE))
		fwd = index_lookup(ri->tgt_index);
	if (unlikely(!fwd)) {
		/* No helper call, or an ifindex naming no device (any
		 * more). (The kernel says -EBADRQC for the first; the
		 * interface here has one code for "nothing to send to".) */
		err = -EINVAL;
		goto err;
	}
	err = xdp_enqueue(rc, fwd, xdpf, dev);
	if (unlikely(err))
		goto err;
	PCPU_ADD(redirects, 1);
	return 0;
err:
	PCPU_ADD(redirect_errors, 1);
	return err;
}

void xdp_do_flush(void)
{
	struct xdp_dev_bulk_queue *bq, *tmp;
	struct ppxdp_redirect_cpu *rc;

	if (unlikely(!in_softirq())) {
		WARN_ONCE(1, "xdp_do_flush() outside a NAPI poll or bottom-half-disabled section");
		return;
	}
	rc = &redirect_cpu[smp_processor_id()];
	list_for_each_entry_safe(bq, tmp, &rc->flush_list, flush_node) {
		bq_xmit_all(rc, bq, XDP_XMIT_FLUSH, true);
		bq->dev_rx = NULL;
		list_del_init(&bq->flush_node);
	}
}

void bpf_warn_invalid_xdp_action(struct net_device *dev, struct bpf_prog *prog, u32 act)
{
	const u32 act_max = XDP_REDIRECT;

	pr_warn_once("%s XDP return value %u on prog %s dev %s, expect packet loss!\n",
		     act > act_max ? "Illegal" : "Driver unsupported", act,
		     prog && !IS_ERR(prog) ? prog->name : "N/A", dev ? dev->name : "N/A");
}

int pp_xdp_get_redirect_stats(struct pp_xdp_redirect_stats *st)
{
	int cpu;

	if (!st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		const struct ppxdp_redirect_cpu *rc = &redirect_cpu[cpu];

		st->redirects += READ_ONCE(rc->redirects);		/* S0 */
		st->redirect_errors += READ_ONCE(rc->redirect_errors);
		st->xmit_frames += READ_ONCE(rc->xmit_frames);
		st->xmit_drops += READ_ONCE(rc->xmit_drops);
		st->xmit_errors += READ_ONCE(rc->xmit_errors);
		st->flushes += READ_ONCE(rc->flushes);
	}
	st->redirect_errors += (unsigned long)atomic_long_read(&redirect_errors_unlocked);
	return 0;
}

/* Programs. */

struct bpf_prog *pp_xdp_prog_create(u32 (*fn)(struct xdp_buff *xdp, void *arg), void *arg,
				    const char *name)
{
	struct bpf_prog *prog;

	if (!fn)
		return ERR_PTR(-EINVAL);
	prog = kzalloc(sizeof(*prog), GFP_KERNEL);
	if (!prog)
		return ERR_PTR(-ENOMEM);
	prog->bpf_func = fn;
	prog->arg = arg;
	snprintf(prog->name, sizeof(prog->name), "%s", name ? name : "");
	return prog;
}

void pp_xdp_prog_destroy(struct bpf_prog *prog)
{
	if (IS_ERR_OR_NULL(prog))
		return;
	kfree_rcu(prog, rcu);
}

/* Device registration and unregistration (see the top of the file). */

static int netdev_register(struct net_device *dev)
{
	struct xdp_dev_bulk_queue __percpu *bulkq;
	int cpu, err;

	if (dev->netdev_ops && dev->netdev_ops->ndo_xdp_xmit && !dev->xdp_bulkq) {
		bulkq = alloc_percpu(struct xdp_dev_bulk_queue);
		if (!bulkq) {
			/* Not a redirect target then: -ENOMEM at every
			 * redirect to it, as the notifier cannot fail the
			 * registration here. */
			pr_warn("%s: no memory for XDP bulk queues\n", dev->name);
		} else {
			for_each_possible_cpu(cpu) {
				struct xdp_dev_bulk_queue *bq = per_cpu_ptr(bulkq, cpu);

				bq->dev = dev;
				INIT_LIST_HEAD(&bq->flush_node);
			}
			dev->xdp_bulkq = bulkq;
		}
	}
	err = index_set(dev->ifindex, dev);
	if (err)
		pr_warn("%s: no memory for the XDP device index: XDP_REDIRECT cannot reach it\n",
			dev->name);
	return NOTIFY_OK;
}

static void netdev_unregister(struct net_device *dev)
{
	struct xdp_dev_bulk_queue __percpu *bulkq = dev->xdp_bulkq;
	int self = __pp_ctx.cpu, cpu;
	bool leak = false;

	index_set(dev->ifindex, NULL);
	ppxdp_devmap_unregister_dev(dev);
	if (!bulkq)
		return;

	if (WARN(in_softirq() || rcu_read_lock_held(),
		 "%s unregistered inside a bottom-half-disabled or RCU section: its XDP bulk queues are leaked",
		 dev->name)) {
		/* No grace period can be waited for here, so the queues
		 * stay, and may hold frames - this very section's among
		 * them - whose flush would call into the device after its
		 * free_netdev(): each queue is marked dead, and its CPU's
		 * next xdp_do_flush() gives its frames back without the
		 * device. (A CPU inside bq_xmit_all() for the device at this
		 * moment is beyond help: the driver's bug.) */
		for_each_possible_cpu(cpu)
			WRITE_ONCE(per_cpu_ptr(bulkq, cpu)->dead, true);	/* D0w */
		dev->xdp_bulkq = NULL;
		return;
	}
	synchronize_net();

	for_each_possible_cpu(cpu) {
		struct xdp_dev_bulk_queue *bq = per_cpu_ptr(bulkq, cpu);

		if (likely(!bq->count && list_empty(&bq->flush_node)))
			continue;
		WARN_ONCE(1, "%s unregistered with %u XDP frames queued on CPU %d: a driver did not call xdp_do_flush()",
			  dev->name, bq->count, cpu);
		if (cpu == self && self != __PP_CPU_SHARED) {
			/* Our own CPU, outside any section: ours to send. */
			local_bh_disable();
			bq_xmit_all(&redirect_cpu[cpu], bq, XDP_XMIT_FLUSH, false);
			bq->dev_rx = NULL;
			list_del_init(&bq->flush_node);
			local_bh_enable();
		} else {
			WRITE_ONCE(bq->dead, true);			/* D0w */
			leak = true;
		}
	}
	dev->xdp_bulkq = NULL;
	if (!leak)
		free_percpu(bulkq);
}

static int redirect_netdev_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	(void)nb;
	switch (event) {
	case NETDEV_REGISTER:
		return netdev_register(dev);
	case NETDEV_UNREGISTER:
		netdev_unregister(dev);
		return NOTIFY_OK;
	default:
		return NOTIFY_DONE;
	}
}

static struct notifier_block redirect_netdev_nb = {
	.notifier_call = redirect_netdev_event,
};

__attribute__((constructor)) static void redirect_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(&redirect_cpu[cpu].flush_list);
	/* Replays the devices registered already (loopback). */
	register_netdevice_notifier(&redirect_netdev_nb);
}
