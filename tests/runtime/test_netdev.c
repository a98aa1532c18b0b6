/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* net_device lifetime: names, ifindex, notifiers, lookup, misuse. */
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <pagepool/runtime.h>

#include "test_common.h"

static int events[8];
static struct net_device *last_dev;

static int notifier(struct notifier_block *nb, unsigned long cmd, void *ptr)
{
	(void)nb;
	if (cmd < 8)
		events[cmd]++;
	last_dev = netdev_notifier_info_to_dev(ptr);
	return NOTIFY_DONE;
}

static struct notifier_block nb = { .notifier_call = notifier };

static void test_register_lifecycle(void **state)
{
	struct net_device *a, *b;
	int lo_seen;

	(void)state;
	assert_non_null(init_net.loopback_dev);
	assert_int_equal(init_net.loopback_dev->ifindex, 1);
	assert_string_equal(init_net.loopback_dev->name, "lo");

	memset(events, 0, sizeof(events));
	assert_int_equal(register_netdevice_notifier(&nb), 0);
	lo_seen = events[NETDEV_REGISTER];	/* replay of existing devices */
	assert_true(lo_seen >= 1);

	a = alloc_etherdev(16);
	b = alloc_etherdev(0);
	assert_non_null(a);
	assert_int_equal(a->mtu, 1500);
	assert_int_equal(a->hard_header_len, ETH_HLEN);
	assert_true(is_valid_ether_addr(a->dev_addr));
	assert_true(((unsigned long)netdev_priv(a) & 63) == 0);
	assert_int_equal(register_netdev(a), 0);
	assert_int_equal(register_netdev(b), 0);
	assert_true(a->ifindex >= 2);
	assert_int_equal(b->ifindex, a->ifindex + 1);
	assert_string_not_equal(a->name, b->name);
	assert_int_equal(strncmp(a->name, "eth", 3), 0);
	assert_int_equal(events[NETDEV_REGISTER], lo_seen + 2);
	assert_ptr_equal(dev_get_by_index(&init_net, b->ifindex), b);

	unregister_netdev(a);
	assert_int_equal(events[NETDEV_UNREGISTER], 1);
	assert_ptr_equal(last_dev, a);
	assert_null(dev_get_by_index(&init_net, a->ifindex));
	free_netdev(a);

	/* Freeing a registered device is refused (and leaks it) with a WARN. */
	{
		unsigned long warns = pp_warn_count();

		free_netdev(b);
		assert_int_equal(pp_warn_count(), warns + 1);
	}
	unregister_netdev(b);
	free_netdev(b);
	assert_int_equal(unregister_netdevice_notifier(&nb), 0);
	assert_int_equal(unregister_netdevice_notifier(&nb), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register_lifecycle),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
