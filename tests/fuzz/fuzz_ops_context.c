/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The fuzz harness's context operations: fault injection armed and
 * disarmed, the calling thread's role (logical CPU), softirq context
 * (local_bh_disable()), operations run inside a real NAPI poll, and the
 * deferred-release work run now.
 */
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/netdevice.h>
#include <net/page_pool/helpers.h>

#include "fuzz.h"

void fz_op_fault(void)
{
	uint8_t p = fz_u8(), mode = fz_u8(), arg = fz_u8();
	enum pp_fault_point point = (enum pp_fault_point)(p % PP_FAULT_NR);
	struct pp_fault_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	switch (mode % 5) {
	case 0:
		pp_fault_inject(point, NULL);
		fz.armed &= ~(1u << point);
		return;
	case 1:
		cfg.every_nth = 2 + arg % 15;
		break;
	case 2:
		cfg.probability = (1 + arg) / 512.0;
		cfg.seed = 1 + arg;
		break;
	case 3:
		cfg.next_n = 1 + arg % 16;
		break;
	case 4:
		cfg.every_nth = 1 + arg % 4;
		cfg.skip = arg % 32;
		break;
	}
	if (pp_fault_inject(point, &cfg))
		fz_fail(PPINV_API, "pp_fault_inject(%d) refused a valid rule", point);
	fz.armed |= 1u << point;
	fz.t.faults_armed++;
}

void fz_op_role(bool in_poll)
{
	int r = fz_u8() % fz.nr_roles, cpu;

	if (in_poll || fz_in_softirq() || r == fz.role) {
		fz.t.skipped++;
		return;
	}
	pp_thread_unregister();
	cpu = pp_thread_register(FZ_CPU_BASE + r);
	if (cpu != FZ_CPU_BASE + r)
		fz_fail(PPINV_API, "pp_thread_register(%d) = %d", FZ_CPU_BASE + r, cpu);
	fz.role = r;
	fz.t.role_switches++;
}

void fz_op_bh(bool in_poll)
{
	uint8_t on = fz_u8() & 1;

	if (in_poll) {
		fz.t.skipped++;
	} else if (on && fz.bh < 2) {
		local_bh_disable();
		fz.bh++;
	} else if (!on && fz.bh > 0) {
		local_bh_enable();
		fz.bh--;
	}
}

static bool poll_ran;

int fz_napi_poll(struct napi_struct *napi, int budget)
{
	(void)budget;
	poll_ran = true;
	fz.in_poll = true;
	while (fz.poll_left > 0 && fz_more() && fz.nops < FZ_MAX_OPS) {
		fz.poll_left--;
		fz_run_op(true);
	}
	fz.in_poll = false;
	napi_complete_done(napi, 0);
	return 0;
}

void fz_op_napi_poll(bool in_poll)
{
	uint8_t s = fz_u8(), n = fz_u8();
	struct fz_pool *r = fz_slot_rec(s, NULL);

	if (in_poll || fz_in_softirq() || !r || !r->napi_on || r->owner != fz.role) {
		fz.t.skipped++;
		return;
	}
	fz.poll_left = 1 + n % 8;
	poll_ran = false;
	if (!napi_schedule(&r->napi))
		fz_fail(PPINV_API, "napi_schedule() of an idle NAPI failed");
	pp_net_rx_action();
	if (!poll_ran)
		fz_fail(PPINV_API, "the scheduled NAPI poll did not run");
	fz.t.polls++;
	fz_settle_zombies();
}

void fz_op_run_work(bool in_poll)
{
	int r;

	if (in_poll || fz_in_softirq()) {
		fz.t.skipped++;
		return;
	}
	pp_workqueue_run_all();
	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state == REC_ZOMBIE)
			fz.pools[r].exact = true;
	fz_settle_zombies();
}
