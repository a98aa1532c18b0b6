/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A simnic device driven line by line from stdin, for the kernel's
 * page_pool_check sequence (netdevsim's debugfs pp_hold, watched through
 * netlink) replayed through pagepool-ctl by ctl_test.py: the test
 * moves the device, then looks at the process from outside.
 *
 * Commands, one per line, each answered "ok IFINDEX" or "err ERRNO":
 *   up, down       simnic_open() / simnic_stop()
 *   hold, release  simnic_pp_hold(nic, true / false); release also runs
 *                  the deferred release work at once
 *   quit           destroys the device and exits (0 when every page and
 *                  pool is gone)
 * Built as users build, against the installed headers with pkg-config,
 * with simnic's .c files (simnic is not installed), as tests/drivers does.
 *
 * Usage: ctl_pp_hold SOCKET_DIR
 */
#include <stdio.h>
#include <string.h>

#include <linux/err.h>
#include <linux/netdevice.h>
#include <pagepool.h>
#include <pagepool/telemetry.h>

#include "../../drivers/simnic/simnic.h"

int main(int argc, char **argv)
{
	struct pp_telemetry_config tcfg = { .dir = argc > 1 ? argv[1] : NULL };
	struct simnic_config cfg = { .dma = SIMNIC_DMA_IOMMU, .rx_mem = SIMNIC_RX_PAGE_POOL,
				     .rx_ring_size = 64 };
	struct pp_mem_stats ms;
	struct simnic *nic;
	char line[64];
	int ifindex, r;

	if (pp_thread_register(0))
		return 1;
	/* The deferred release retries every 10 ms instead of every second. */
	pp_page_pool_set_defer_times(10, 0);
	r = pp_telemetry_start(&tcfg);
	if (r) {
		fprintf(stderr, "pp_telemetry_start: %d\n", r);
		return 1;
	}
	nic = simnic_create(&cfg);
	if (IS_ERR(nic))
		return 1;
	ifindex = simnic_netdev(nic)->ifindex;
	printf("ready %d\n", ifindex);
	fflush(stdout);

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "quit"))
			break;
		if (!strcmp(line, "up")) {
			r = simnic_open(nic);
		} else if (!strcmp(line, "down")) {
			r = simnic_stop(nic);
		} else if (!strcmp(line, "hold")) {
			r = simnic_pp_hold(nic, true);
		} else if (!strcmp(line, "release")) {
			r = simnic_pp_hold(nic, false);
			pp_workqueue_run_all();
		} else {
			r = -EINVAL;
		}
		if (r)
			printf("err %d\n", -r);
		else
			printf("ok %d\n", ifindex);
		fflush(stdout);
	}
	simnic_destroy(nic);
	pp_workqueue_run_all();
	pp_telemetry_stop();
	pp_mem_get_stats(&ms);
	return ms.free_pages == ms.total_pages && ms.pp_pages == 0 ? 0 : 1;
}
