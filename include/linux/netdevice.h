/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A minimal struct net_device and the NAPI machinery, over the system's UAPI
 * <linux/netdevice.h> (kept visible with #include_next).
 *
 * NAPI model (the kernel's, with "CPU" = registered thread):
 *   - netif_napi_add() initialises the instance disabled (SCHED set);
 *     napi_enable() clears SCHED;
 *   - napi_schedule() claims SCHED and puts the NAPI on the calling CPU's
 *     poll list: list_owner = that CPU. The list runs from the outermost
 *     local_bh_enable() or pp_net_rx_action(), inside a softirq section;
 *   - a poll that used less than its weight calls napi_complete_done(),
 *     which sets list_owner = -1 and releases SCHED; a poll that used its
 *     whole weight stays on the list and runs again;
 *   - napi_disable() waits until the instance is idle, then holds SCHED,
 *     so a disabled NAPI has SCHED set and list_owner == -1.
 * A napi_struct that was never passed to netif_napi_add() has
 * poll_list.next == NULL: "uninitialised", and napi_assert_will_not_race()
 * accepts it (the kernel's tasklet_page_pool04_napi_aware relies on that).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_NETDEVICE_H
#define _PP_LINUX_NETDEVICE_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include_next <linux/netdevice.h>

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/poison.h>
#include <linux/prefetch.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <net/netdev_rx_queue.h>

#define NAPI_POLL_WEIGHT	64

enum {
	NAPI_STATE_SCHED,		/* poll is scheduled, or instance disabled */
	NAPI_STATE_MISSED,		/* reschedule after the current poll */
	NAPI_STATE_DISABLE,		/* napi_disable() pending */
	NAPI_STATE_NPSVC,		/* netpoll: do not dequeue */
	NAPI_STATE_LISTED,		/* on the device's napi_list */
	NAPI_STATE_NO_BUSY_POLL,
	NAPI_STATE_IN_BUSY_POLL,
	NAPI_STATE_PREFER_BUSY_POLL,
	NAPI_STATE_THREADED,
	NAPI_STATE_SCHED_THREADED,
};

enum {
	NAPIF_STATE_SCHED		= BIT(NAPI_STATE_SCHED),
	NAPIF_STATE_MISSED		= BIT(NAPI_STATE_MISSED),
	NAPIF_STATE_DISABLE		= BIT(NAPI_STATE_DISABLE),
	NAPIF_STATE_NPSVC		= BIT(NAPI_STATE_NPSVC),
	NAPIF_STATE_LISTED		= BIT(NAPI_STATE_LISTED),
	NAPIF_STATE_NO_BUSY_POLL	= BIT(NAPI_STATE_NO_BUSY_POLL),
	NAPIF_STATE_IN_BUSY_POLL	= BIT(NAPI_STATE_IN_BUSY_POLL),
	NAPIF_STATE_PREFER_BUSY_POLL	= BIT(NAPI_STATE_PREFER_BUSY_POLL),
	NAPIF_STATE_THREADED		= BIT(NAPI_STATE_THREADED),
	NAPIF_STATE_SCHED_THREADED	= BIT(NAPI_STATE_SCHED_THREADED),
};

struct net_device;
struct xdp_frame;
struct xdp_dev_bulk_queue;
/* Declared for the kernel's net/core/dev.h, whose prototypes name them
 * (kernel core mode compiles it); nothing here defines them. */
struct netdev_phys_item_id;
struct netdev_bpf;
struct softnet_data;
struct kernel_hwtstamp_config;

struct napi_struct {
	struct list_head poll_list;	/* on the polling CPU's list */
	unsigned long state;
	int weight;
	u32 defer_hard_irqs_count;
	int (*poll)(struct napi_struct *napi, int budget);
	int list_owner;			/* CPU whose list holds it, or -1 */
	struct net_device *dev;
	struct list_head dev_list;	/* on dev->napi_list */
	unsigned int napi_id;
	int irq;
	int index;
};

enum netdev_reg_state {
	NETREG_UNINITIALIZED = 0,
	NETREG_REGISTERED,
	NETREG_UNREGISTERING,
	NETREG_UNREGISTERED,
	NETREG_RELEASED,
	NETREG_DUMMY,
};

#define NET_NAME_UNKNOWN	0
#define NET_NAME_ENUM		1
#define NET_NAME_USER		3

struct net_device_ops {
	int (*ndo_open)(struct net_device *dev);
	int (*ndo_stop)(struct net_device *dev);
	/* Queue @n frames for transmission; returns how many were taken. */
	int (*ndo_xdp_xmit)(struct net_device *dev, int n,
			    struct xdp_frame **xdp, u32 flags);
};

/*
 * The interface's legacy counters (ndev->stats.rx_packets++ in netsec,
 * cpsw and most older drivers), with the kernel's field names and order.
 * Each is also reachable as an atomic_long_t, __<name>, for the
 * DEV_STATS_*() helpers that lockless paths use. Nothing here reads them.
 */
#define __PP_NET_DEV_STAT(name)		\
	union {				\
		unsigned long name;	\
		atomic_long_t __##name;	\
	}

struct net_device_stats {
	__PP_NET_DEV_STAT(rx_packets);
	__PP_NET_DEV_STAT(tx_packets);
	__PP_NET_DEV_STAT(rx_bytes);
	__PP_NET_DEV_STAT(tx_bytes);
	__PP_NET_DEV_STAT(rx_errors);
	__PP_NET_DEV_STAT(tx_errors);
	__PP_NET_DEV_STAT(rx_dropped);
	__PP_NET_DEV_STAT(tx_dropped);
	__PP_NET_DEV_STAT(multicast);
	__PP_NET_DEV_STAT(collisions);
	__PP_NET_DEV_STAT(rx_length_errors);
	__PP_NET_DEV_STAT(rx_over_errors);
	__PP_NET_DEV_STAT(rx_crc_errors);
	__PP_NET_DEV_STAT(rx_frame_errors);
	__PP_NET_DEV_STAT(rx_fifo_errors);
	__PP_NET_DEV_STAT(rx_missed_errors);
	__PP_NET_DEV_STAT(tx_aborted_errors);
	__PP_NET_DEV_STAT(tx_carrier_errors);
	__PP_NET_DEV_STAT(tx_fifo_errors);
	__PP_NET_DEV_STAT(tx_heartbeat_errors);
	__PP_NET_DEV_STAT(tx_window_errors);
	__PP_NET_DEV_STAT(rx_compressed);
	__PP_NET_DEV_STAT(tx_compressed);
};
#undef __PP_NET_DEV_STAT

#define DEV_STATS_INC(dev, field)	atomic_long_inc(&(dev)->stats.__##field)
#define DEV_STATS_ADD(dev, field, val)	atomic_long_add((val), &(dev)->stats.__##field)
#define DEV_STATS_READ(dev, field)	atomic_long_read(&(dev)->stats.__##field)

struct net_device {
	char name[IFNAMSIZ];
	int ifindex;
	unsigned int flags;
	unsigned int mtu, min_mtu, max_mtu;
	unsigned short type;
	unsigned short hard_header_len;	/* link header bytes: ETH_HLEN for Ethernet */
	unsigned char addr_len;
	enum netdev_reg_state reg_state;
	unsigned char perm_addr[MAX_ADDR_LEN];
	unsigned char broadcast[MAX_ADDR_LEN];
	const unsigned char *dev_addr;
	unsigned char dev_addr_storage[MAX_ADDR_LEN];
	const struct net_device_ops *netdev_ops;
	struct net_device_stats stats;	/* legacy counters (see above) */
	struct list_head napi_list;
	struct list_head dev_list;		/* all registered devices */
	struct netdev_rx_queue *_rx;
	unsigned int num_rx_queues, real_num_rx_queues;
	unsigned int num_tx_queues, real_num_tx_queues;
	struct hlist_head page_pools;		/* maintained by page_pool (core) */
	/* Offload limits, as the kernel's (net/core/dev.h sets them): kept
	 * so that kernel code touching them compiles; nothing here
	 * segments or aggregates packets. */
	unsigned int gso_max_size, gso_ipv4_max_size;
	unsigned int gro_max_size, gro_ipv4_max_size;
	u16 gso_max_segs;
	/* XDP_REDIRECT's per-CPU bulk queues (<linux/filter.h>): made at
	 * registration for a device with ndo_xdp_xmit, freed at
	 * unregistration, by the xdp layer's netdevice notifier. */
	struct xdp_dev_bulk_queue __percpu *xdp_bulkq;
	/* The device model's view of the interface, as the kernel's: its
	 * name is the interface's, its parent the bus device
	 * (SET_NETDEV_DEV()); no DMA backend of its own, so DMA through it
	 * is the kernel's dma-direct for a coherent device. */
	struct device dev;
	void *ml_priv;
	size_t priv_len;
	unsigned long priv[] __aligned(64);	/* netdev_priv() */
};

#define GSO_MAX_SEGS		65535u
#define GSO_LEGACY_MAX_SIZE	65536u
#define GRO_LEGACY_MAX_SIZE	65536u

/* Marks a pointer to a net_device that is gone for good (the kernel's). */
#define NET_PTR_POISON		((void *)(0x801 + POISON_POINTER_DELTA))

#define SET_NETDEV_DEV(net, pdev)	((net)->dev.parent = (pdev))

static inline void *netdev_priv(const struct net_device *dev)
{
	return (void *)dev->priv;
}

static inline struct netdev_rx_queue *
__netif_get_rx_queue(struct net_device *dev, unsigned int rxq)
{
	return dev->_rx + rxq;
}

/* Network namespaces: there is one, init_net; its loopback device "lo"
 * (ifindex 1) exists from start-up. */
struct net {
	struct net_device *loopback_dev;
};
extern struct net init_net;

static inline struct net *dev_net(const struct net_device *dev)
{
	(void)dev;
	return &init_net;
}

/**
 * alloc_netdev_mqs() - allocate a net_device with private data and queues
 * @sizeof_priv: bytes of driver data (netdev_priv())
 * @name: the name; a "%d" in it is expanded at registration
 * @name_assign_type: NET_NAME_* (kept, not used)
 * @setup: called on the new device (ether_setup(), or the driver's)
 * @txqs: TX queues
 * @rxqs: RX queues
 *
 * Context: process context.
 * Return: the device, or NULL on allocation failure.
 */
struct net_device *alloc_netdev_mqs(int sizeof_priv, const char *name,
				    unsigned char name_assign_type,
				    void (*setup)(struct net_device *),
				    unsigned int txqs, unsigned int rxqs);
#define alloc_netdev(sizeof_priv, name, name_assign_type, setup)	\
	alloc_netdev_mqs(sizeof_priv, name, name_assign_type, setup, 1, 1)
/**
 * register_netdev() - register a net_device
 * @dev: the device
 *
 * Assigns the next ifindex (from 2), expands a "%d" in the name, and tells
 * the netdevice notifiers NETDEV_REGISTER. Takes the rtnl lock.
 *
 * Context: process context, rtnl not held.
 * Return: 0, -EINVAL or -EEXIST (the name is taken).
 */
int register_netdev(struct net_device *dev);
/**
 * register_netdevice() - register_netdev() for a caller that holds the rtnl lock
 * @dev: the device
 *
 * Context: process context, rtnl held.
 * Return: as register_netdev().
 */
int register_netdevice(struct net_device *dev);
/**
 * unregister_netdev() - unregister a net_device
 * @dev: the device
 *
 * Tells the notifiers NETDEV_UNREGISTER, then unlinks the device; the
 * driver disables its NAPIs before. Takes the rtnl lock.
 *
 * Context: process context, rtnl not held.
 */
void unregister_netdev(struct net_device *dev);
/**
 * unregister_netdevice() - unregister_netdev() for a caller that holds the rtnl lock
 * @dev: the device
 *
 * Context: process context, rtnl held.
 */
void unregister_netdevice(struct net_device *dev);
/**
 * free_netdev() - free a net_device
 * @dev: the device, unregistered
 *
 * WARNs (and leaks) if the device is still registered.
 *
 * Context: process context.
 */
void free_netdev(struct net_device *dev);
/**
 * __dev_get_by_index() - find a device by ifindex
 * @net: the namespace (init_net)
 * @ifindex: the index
 *
 * Context: rtnl held.
 * Return: the device, or NULL.
 */
struct net_device *__dev_get_by_index(struct net *net, int ifindex);
/**
 * dev_get_by_index() - find a device by ifindex, taking the rtnl lock
 * @net: the namespace (init_net)
 * @ifindex: the index
 *
 * Unlike the kernel's, takes no reference (see dev_hold()).
 *
 * Context: process context, rtnl not held.
 * Return: the device, or NULL.
 */
struct net_device *dev_get_by_index(struct net *net, int ifindex);
/**
 * dev_put() - drop a device reference
 * @dev: the device
 *
 * Device references are not counted here (unregistration does not wait
 * for users): it only documents intent in driver code.
 *
 * Context: any context.
 */
void dev_put(struct net_device *dev);
/**
 * dev_hold() - take a device reference
 * @dev: the device
 *
 * Not counted, as dev_put().
 *
 * Context: any context.
 */
void dev_hold(struct net_device *dev);

/* Netdevice notifier chain (enum netdev_cmd values as the kernel's). */
enum netdev_cmd {
	NETDEV_UP = 1,
	NETDEV_DOWN,
	NETDEV_REBOOT,
	NETDEV_CHANGE,
	NETDEV_REGISTER,
	NETDEV_UNREGISTER,
};

struct netdev_notifier_info {
	struct net_device *dev;
	void *extack;
};

static inline struct net_device *
netdev_notifier_info_to_dev(const struct netdev_notifier_info *info)
{
	return info->dev;
}

/**
 * register_netdevice_notifier() - add a netdevice notifier
 * @nb: the notifier (enum netdev_cmd events); called at once with
 *	NETDEV_REGISTER for every existing device, as the kernel does
 *
 * Context: process context; takes the rtnl lock.
 * Return: 0, or -EEXIST if @nb is registered.
 */
int register_netdevice_notifier(struct notifier_block *nb);
/**
 * unregister_netdevice_notifier() - remove a netdevice notifier
 * @nb: the notifier
 *
 * Context: process context; takes the rtnl lock.
 * Return: 0, or -ENOENT if @nb is not registered.
 */
int unregister_netdevice_notifier(struct notifier_block *nb);

/**
 * synchronize_net() - wait for every CPU to leave its current RCU and softirq sections
 *
 * RCU read-side sections and softirq (NAPI) sections both.
 *
 * Context: process context; may sleep.
 */
void synchronize_net(void);

/*
 * Queue types, from UAPI <linux/netdev.h> where the system's headers are
 * Linux 6.8's or newer; older ones (Debian 12 ships 6.1's) lack them and
 * get the kernel's values here.
 */
#if __has_include(<linux/netdev.h>)
#include <linux/netdev.h>
#endif
#include <linux/version.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
enum netdev_queue_type {
	NETDEV_QUEUE_TYPE_RX,
	NETDEV_QUEUE_TYPE_TX,
};
#endif

/* Tie queue @queue_index of @dev to @napi (NULL: untie), as drivers do
 * when they enable a NAPI. RX queues keep it (netdev_rx_queue::napi);
 * there are no TX queue objects here, so a TX tie is accepted and kept
 * nowhere. The kernel's WARN for a NAPI without a device is kept. */
static inline void netif_queue_set_napi(struct net_device *dev, unsigned int queue_index,
					enum netdev_queue_type type, struct napi_struct *napi)
{
	if (WARN_ON_ONCE(napi && !napi->dev))
		return;
	if (type == NETDEV_QUEUE_TYPE_RX && queue_index < dev->num_rx_queues)
		__netif_get_rx_queue(dev, queue_index)->napi = napi;
}

/* NAPI. */
/**
 * netif_napi_add_weight() - add a NAPI to a device
 * @dev: the device
 * @napi: the NAPI, disabled until napi_enable()
 * @poll: its poll function
 * @weight: its budget per poll
 *
 * Context: process context.
 */
void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight);

static inline void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
				  int (*poll)(struct napi_struct *, int))
{
	netif_napi_add_weight(dev, napi, poll, NAPI_POLL_WEIGHT);
}

/* Unlink @napi from its device; a NAPI never added or already deleted is
 * left alone. Process context. The _locked forms are upstream's (v6.13+)
 * for callers that hold the device's instance lock; there is no such lock
 * here, so they are the same calls. */
/**
 * __netif_napi_del_locked() - unlink a NAPI from its device
 * @napi: the NAPI
 *
 * Context: process context.
 */
void __netif_napi_del_locked(struct napi_struct *napi);
static inline void __netif_napi_del(struct napi_struct *napi)
{
	__netif_napi_del_locked(napi);
}

/* ... and wait until no CPU can still be polling it (synchronize_net()),
 * so the caller may free it. Process context. */
static inline void netif_napi_del_locked(struct napi_struct *napi)
{
	__netif_napi_del_locked(napi);
	synchronize_net();
}

static inline void netif_napi_del(struct napi_struct *napi)
{
	netif_napi_del_locked(napi);
}

/**
 * napi_enable() - allow a NAPI to be scheduled
 * @n: the NAPI
 *
 * Context: process context.
 */
void napi_enable(struct napi_struct *n);
/**
 * napi_disable() - stop a NAPI and wait for its poll to end
 * @n: the NAPI
 *
 * A NAPI still scheduled on a CPU that went away is polled here (see
 * pp_thread_unregister()).
 *
 * Context: process context; may sleep.
 */
void napi_disable(struct napi_struct *n);
/**
 * napi_schedule_prep() - claim a NAPI's SCHED state
 * @n: the NAPI
 *
 * Context: any context.
 * Return: true if claimed; false if already scheduled (MISSED is set) or
 * being disabled.
 */
bool napi_schedule_prep(struct napi_struct *n);
/**
 * __napi_schedule() - put a NAPI on this CPU's poll list
 * @n: the NAPI, whose SCHED the caller holds (napi_schedule_prep())
 *
 * Context: any context.
 */
void __napi_schedule(struct napi_struct *n);
/**
 * napi_complete_done() - a poll is done with a NAPI
 * @n: the NAPI
 * @work_done: the work the poll did
 *
 * Context: the NAPI's poll.
 * Return: false if the NAPI was scheduled again while it polled (it stays
 * scheduled and is queued again), else true.
 */
bool napi_complete_done(struct napi_struct *n, int work_done);

static inline bool napi_schedule(struct napi_struct *n)
{
	if (napi_schedule_prep(n)) {
		__napi_schedule(n);
		return true;
	}
	return false;
}

static inline bool napi_complete(struct napi_struct *n)
{
	return napi_complete_done(n, 0);
}

static inline bool napi_disable_pending(struct napi_struct *n)
{
	return test_bit(NAPI_STATE_DISABLE, &n->state);
}

static inline bool napi_is_scheduled(struct napi_struct *n)
{
	return test_bit(NAPI_STATE_SCHED, &n->state);
}

/* The kernel has this check as a static inline of its private
 * net/core/dev.h. Kernel core mode (CONFIG_PAGEPOOL_KERNEL_CORE) compiles
 * that header from the tested kernel tree, so there the check is the
 * kernel's own and this declaration would clash with it. */
#ifndef CONFIG_PAGEPOOL_KERNEL_CORE
/**
 * napi_assert_will_not_race() - WARN unless a NAPI cannot run
 * @napi: the NAPI, disabled or never initialised
 *
 * The contract that a pool's NAPI cannot run concurrently with
 * page_pool_destroy().
 *
 * Context: any context.
 */
void napi_assert_will_not_race(const struct napi_struct *napi);
#endif


#pragma GCC visibility pop
#endif /* _PP_LINUX_NETDEVICE_H */
