/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What the simnic test programs share: XDP programs made of C functions,
 * a second logical CPU that services interrupts, and the end-of-test
 * checks (accounting, DMA-API, pools, pages). Built as users build
 * (run.sh: installed headers, pkg-config only), with simnic's .c files.
 */
#ifndef SIMNIC_TEST_H
#define SIMNIC_TEST_H

#include <pthread.h>

#include "../kernel-api/kapi.h"

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/ktime.h>
#include <linux/netdevice.h>

#include "../../drivers/simnic/simnic.h"

/* ---- XDP programs ---- */

struct st_prog_arg {
	u32 act;		/* the verdict, or XDP_REDIRECT by... */
	int ifindex;		/* ...bpf_redirect(ifindex) when > 0 */
	struct bpf_map *map;	/* ...bpf_redirect_map(map, 0) otherwise */
	unsigned long runs;
};

static inline u32 st_prog_fn(struct xdp_buff *xdp, void *arg)
{
	struct st_prog_arg *a = arg;
	const u8 *d = xdp->data;

	a->runs++;
	/* The device's frame, synced for the CPU: its EtherType. */
	if (d[12] != 0x08 || d[13] != 0x00)
		return XDP_ABORTED;
	if (a->act != XDP_REDIRECT)
		return a->act;
	if (a->ifindex > 0)
		return (u32)bpf_redirect((u32)a->ifindex, 0);
	return (u32)bpf_redirect_map(a->map, 0, 0);
}

/* ---- A second logical CPU ---- */

struct st_cpu {
	pthread_t thread;
	int cpu;		/* its logical CPU: published once registered */
	int stop;		/* READ_ONCE/WRITE_ONCE */
	int idle;		/* its last service found nothing */
	unsigned long work;
};

static void *st_cpu_main(void *arg)
{
	struct st_cpu *c = arg;

	/* The lowest free id: the library's own threads (the workqueue)
	 * may hold some. */
	int cpu = pp_thread_register(-1);

	if (cpu < 0)
		abort();
	smp_store_release(&c->cpu, cpu);
	for (;;) {
		int w = simnic_service();

		c->work += (unsigned long)w;
		if (!w && READ_ONCE(c->stop))
			break;
		if (!w)
			sched_yield();
	}
	pp_thread_unregister();
	return NULL;
}

/* Start a thread on another logical CPU; returns its id. */
static inline int st_cpu_start(struct st_cpu *c)
{
	memset(c, 0, sizeof(*c));
	c->cpu = -1;
	assert_int_equal(pthread_create(&c->thread, NULL, st_cpu_main, c), 0);
	while (smp_load_acquire(&c->cpu) < 0)
		sched_yield();
	return c->cpu;
}

/* Returns once the CPU's last service found nothing to do. */
static inline void st_cpu_stop(struct st_cpu *c)
{
	WRITE_ONCE(c->stop, 1);
	assert_int_equal(pthread_join(c->thread, NULL), 0);
}

/* ---- End-of-test checks ---- */

static int st_count_pool(const struct pp_page_pool_info *info, void *arg)
{
	(void)info;
	(*(int *)arg)++;
	return 0;
}

static inline int st_nr_pools(void)
{
	int n = 0;

	assert_int_equal(pp_page_pool_for_each(st_count_pool, &n), 0);
	return n;
}

static inline void st_assert_accounting(struct simnic *rx, struct simnic *tx)
{
	char why[256];
	int err = simnic_check_accounting(rx, tx, why, sizeof(why));

	if (err)
		fail_msg("accounting: %s", why);
}

/* After every device is destroyed: every pool gone (the deferred
 * release has run), every page home, no new DMA-API violation. */
static inline void st_assert_clean(unsigned long violations_before)
{
	pp_workqueue_run_all();
	assert_int_equal(st_nr_pools(), 0);
	kapi_assert_all_pages_home();
	assert_int_equal(pp_dma_violations(NULL), violations_before);
}

#endif /* SIMNIC_TEST_H */
