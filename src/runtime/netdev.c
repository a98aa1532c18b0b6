/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * struct net_device lifetime: allocation, registration (ifindex, "%d"
 * names), the netdevice notifier chain, lookup, and the RTNL lock.
 * The loopback device "lo" (ifindex 1) is registered at load time, so
 * init_net.loopback_dev is always valid (page_pool re-parents the pools of
 * unregistered devices to it, as the kernel's netlink code does).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <linux/bug.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/list.h>
#include <linux/numa.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

struct net init_net;

static pthread_mutex_t rtnl_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_t rtnl_owner;
static bool rtnl_held;
static LIST_HEAD(dev_base);			/* registered devices, under RTNL */
static struct notifier_block *netdev_chain;	/* under RTNL */
static int next_ifindex = 1;

void rtnl_lock(void)
{
	pthread_mutex_lock(&rtnl_mutex);
	rtnl_owner = pthread_self();
	WRITE_ONCE(rtnl_held, true);
}

void rtnl_unlock(void)
{
	WRITE_ONCE(rtnl_held, false);
	pthread_mutex_unlock(&rtnl_mutex);
}

bool rtnl_is_locked(void)
{
	return READ_ONCE(rtnl_held);
}

static void call_netdevice_notifiers(unsigned long cmd, struct net_device *dev)
{
	struct netdev_notifier_info info = { .dev = dev };
	struct notifier_block *nb;

	for (nb = netdev_chain; nb; nb = nb->next)
		if (nb->notifier_call(nb, cmd, &info) & NOTIFY_STOP_MASK)
			break;
}

int register_netdevice_notifier(struct notifier_block *nb)
{
	struct notifier_block **pp;
	struct net_device *dev;

	rtnl_lock();
	for (pp = &netdev_chain; *pp; pp = &(*pp)->next) {
		if (*pp == nb) {
			rtnl_unlock();
			return -EEXIST;
		}
		if (nb->priority > (*pp)->priority)
			break;
	}
	nb->next = *pp;
	*pp = nb;
	/* Replay the devices that already exist, as the kernel does. */
	list_for_each_entry(dev, &dev_base, dev_list)
		nb->notifier_call(nb, NETDEV_REGISTER,
				  &(struct netdev_notifier_info){ .dev = dev });
	rtnl_unlock();
	return 0;
}

int unregister_netdevice_notifier(struct notifier_block *nb)
{
	struct notifier_block **pp;
	int ret = -ENOENT;

	rtnl_lock();
	for (pp = &netdev_chain; *pp; pp = &(*pp)->next) {
		if (*pp == nb) {
			*pp = nb->next;
			ret = 0;
			break;
		}
	}
	rtnl_unlock();
	return ret;
}

struct net_device *alloc_netdev_mqs(int sizeof_priv, const char *name,
				    unsigned char name_assign_type,
				    void (*setup)(struct net_device *),
				    unsigned int txqs, unsigned int rxqs)
{
	struct net_device *dev;
	unsigned int i;

	(void)name_assign_type;
	if (sizeof_priv < 0 || !txqs || !rxqs)
		return NULL;
	dev = kzalloc(sizeof(*dev) + (size_t)sizeof_priv, GFP_KERNEL);
	if (!dev)
		return NULL;
	dev->_rx = kcalloc(rxqs, sizeof(*dev->_rx), GFP_KERNEL);
	if (!dev->_rx) {
		kfree(dev);
		return NULL;
	}
	for (i = 0; i < rxqs; i++)
		dev->_rx[i].dev = dev;
	dev->num_rx_queues = dev->real_num_rx_queues = rxqs;
	dev->num_tx_queues = dev->real_num_tx_queues = txqs;
	dev->priv_len = (size_t)sizeof_priv;
	dev->dev_addr = dev->dev_addr_storage;
	dev->reg_state = NETREG_UNINITIALIZED;
	snprintf(dev->name, sizeof(dev->name), "%s", name ? name : "dev%d");
	/* dev_name(&ndev->dev) is the interface's name, as in the kernel
	 * (register_netdev() expands a %d in place). */
	dev->dev.init_name = dev->name;
	dev->dev.numa_node = NUMA_NO_NODE;
	INIT_LIST_HEAD(&dev->napi_list);
	INIT_LIST_HEAD(&dev->dev_list);
	INIT_HLIST_HEAD(&dev->page_pools);
	/* The kernel's defaults (alloc_netdev_mqs()). */
	dev->gso_max_size = dev->gso_ipv4_max_size = GSO_LEGACY_MAX_SIZE;
	dev->gro_max_size = dev->gro_ipv4_max_size = GRO_LEGACY_MAX_SIZE;
	dev->gso_max_segs = GSO_MAX_SEGS;
	if (setup)
		setup(dev);
	return dev;
}

void ether_setup(struct net_device *dev)
{
	dev->type = ARPHRD_ETHER;
	dev->hard_header_len = ETH_HLEN;
	dev->mtu = ETH_DATA_LEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_DATA_LEN;
	dev->addr_len = ETH_ALEN;
	memset(dev->broadcast, 0xff, ETH_ALEN);
	eth_hw_addr_random(dev);
	memcpy(dev->perm_addr, dev->dev_addr_storage, ETH_ALEN);
}

void eth_random_addr(u8 *addr)
{
	if (getrandom(addr, ETH_ALEN, 0) != ETH_ALEN) {
		static unsigned int seq;
		unsigned int v = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);

		memcpy(addr, "\x02\x50\x50\x00", 4);
		addr[4] = (u8)(v >> 8);
		addr[5] = (u8)v;
	}
	addr[0] &= 0xfe;	/* unicast */
	addr[0] |= 0x02;	/* locally administered */
}

static struct net_device *dev_by_name_locked(const char *name)
{
	struct net_device *dev;

	list_for_each_entry(dev, &dev_base, dev_list)
		if (!strncmp(dev->name, name, IFNAMSIZ))
			return dev;
	return NULL;
}

/* Expand a "%d" template to the lowest free unit number. */
static int dev_alloc_name_locked(struct net_device *dev)
{
	char tmpl[IFNAMSIZ], buf[IFNAMSIZ];
	int i;

	if (!strchr(dev->name, '%'))
		return dev_by_name_locked(dev->name) ? -EEXIST : 0;
	if (!strstr(dev->name, "%d") || strchr(strchr(dev->name, '%') + 1, '%'))
		return -EINVAL;
	memcpy(tmpl, dev->name, IFNAMSIZ);
	for (i = 0; i < 32768; i++) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(buf, sizeof(buf), tmpl, i);
#pragma GCC diagnostic pop
		if (!dev_by_name_locked(buf)) {
			memcpy(dev->name, buf, IFNAMSIZ);
			return 0;
		}
	}
	return -ENFILE;
}

int register_netdevice(struct net_device *dev)
{
	int ret;

	if (WARN_ON(dev->reg_state != NETREG_UNINITIALIZED))
		return -EINVAL;
	ret = dev_alloc_name_locked(dev);
	if (ret)
		return ret;
	dev->ifindex = next_ifindex++;
	list_add_tail(&dev->dev_list, &dev_base);
	dev->reg_state = NETREG_REGISTERED;
	call_netdevice_notifiers(NETDEV_REGISTER, dev);
	return 0;
}

int register_netdev(struct net_device *dev)
{
	int ret;

	rtnl_lock();
	ret = register_netdevice(dev);
	rtnl_unlock();
	return ret;
}

void unregister_netdevice(struct net_device *dev)
{
	if (WARN(dev->reg_state != NETREG_REGISTERED,
		 "unregister_netdevice(%s): device not registered", dev->name))
		return;
	WARN(dev == init_net.loopback_dev, "unregistering the loopback device");
	dev->reg_state = NETREG_UNREGISTERING;
	call_netdevice_notifiers(NETDEV_UNREGISTER, dev);
	list_del_init(&dev->dev_list);
	dev->reg_state = NETREG_UNREGISTERED;
}

void unregister_netdev(struct net_device *dev)
{
	rtnl_lock();
	unregister_netdevice(dev);
	rtnl_unlock();
}

void free_netdev(struct net_device *dev)
{
	struct napi_struct *n, *tmp;

	if (!dev)
		return;
	if (WARN(dev->reg_state == NETREG_REGISTERED ||
		 dev->reg_state == NETREG_UNREGISTERING,
		 "free_netdev(%s) while registered: leaking it", dev->name))
		return;
	list_for_each_entry_safe(n, tmp, &dev->napi_list, dev_list)
		netif_napi_del(n);
	WARN(!hlist_empty(&dev->page_pools),
	     "free_netdev(%s) with page pools still attached", dev->name);
	kfree(dev->_rx);
	kfree(dev);
}

struct net_device *__dev_get_by_index(struct net *net, int ifindex)
{
	struct net_device *dev;

	(void)net;
	list_for_each_entry(dev, &dev_base, dev_list)
		if (dev->ifindex == ifindex)
			return dev;
	return NULL;
}

struct net_device *dev_get_by_index(struct net *net, int ifindex)
{
	struct net_device *dev;

	rtnl_lock();
	dev = __dev_get_by_index(net, ifindex);
	rtnl_unlock();
	return dev;
}

/* Device references are not counted here: unregistration does not wait
 * for users, so these only document intent in driver code. */
void dev_hold(struct net_device *dev)
{
	(void)dev;
}

void dev_put(struct net_device *dev)
{
	(void)dev;
}

static void loopback_setup(struct net_device *dev)
{
	dev->mtu = 65536;
	dev->type = ARPHRD_LOOPBACK;
}

__attribute__((constructor)) static void loopback_init(void)
{
	struct net_device *lo = alloc_netdev(0, "lo", NET_NAME_ENUM, loopback_setup);

	if (!lo || register_netdev(lo))
		abort();
	init_net.loopback_dev = lo;
}
