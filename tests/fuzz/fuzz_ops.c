/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page_pool fuzz harness: the operations' table (fz_run_op(): opcode ->
 * operation; enum fz_op in fuzz.h gives each one's arguments) and what the
 * operations share. Each operation does what a driver, the stack or a
 * careless caller would do, updates the model (fuzz_model.c), declares the
 * WARNs and misuse counts it causes on purpose, and is followed by the
 * invariant checks. They are grouped by concern:
 *   fuzz_ops_pool.c     pool life-cycle and devices: create, destroy,
 *                       unbind / rebind, NUMA node updates;
 *   fuzz_ops_page.c     allocation and the put calls: single puts, bulk,
 *                       NAPI-like bursts;
 *   fuzz_ops_refs.c     the extra references of the driver and the stack;
 *   fuzz_ops_context.c  the calling context: role (logical CPU), bh,
 *                       NAPI poll, deferred work, fault injection;
 *   fuzz_ops_misuse.c   the caller's mistakes page_pool has always caught:
 *                       double put, wrong pool, stray page, use after destroy;
 *   fuzz_misuse.c       the hostile and careless use the hardening checks
 *                       for, each kind switchable (fz_misuse_on());
 *   fuzz_xdp.c          the XDP memory model and frame returns.
 *
 * Operations a driver could not legally do at that point are skipped, not
 * attempted: allocation and direct recycling outside the pool's consumer
 * context (its role, softirq for direct recycling, never after destroy),
 * destroy or unbind in softirq context, creating a DMA-mapping pool on an
 * unbound device, and pool parameters the kernel accepts but that make the
 * pool itself sync outside its own mapping (offset + max_len > the
 * page size with PP_FLAG_DMA_SYNC_DEV: a driver bug no check in page_pool
 * can see). Everything else - invalid parameters, double puts, puts naming
 * the wrong pool, puts of pages no pool owns, allocation from and destroy
 * of a destroyed pool - is attempted, and must be reported and lose
 * nothing.
 */
#include <stdio.h>

#include <linux/device.h>
#include <net/page_pool/memory_provider.h>

#include "fuzz.h"

/* Why an allocation may come back empty (struct fz_cause): a fault
 * fired, the page allocator ran dry, a DMA map failed, or the provider is
 * empty. */
void fz_cause_snap(struct fz_cause *c, const struct fz_pool *r)
{
	struct pp_mem_counters mm;
	struct pp_dma_stats ds;

	c->faults = fz_faults_injected();
	pp_mem_get_counters(&mm);
	c->alloc_failed = mm.alloc_failed;
	c->map_errors = 0;
	if (r->dma_map && r->dev >= 0) {	/* (an orphan's device is gone) */
		pp_dma_get_stats(fz.devs[r->dev], &ds);
		c->map_errors = ds.map_errors;
	}
}

/* An allocation came back empty: it must have a cause. */
bool fz_had_cause(const struct fz_cause *before, const struct fz_pool *r)
{
	struct fz_cause now;

	fz_cause_snap(&now, r);
	return now.faults != before->faults || now.alloc_failed != before->alloc_failed ||
	       now.map_errors != before->map_errors ||
	       (r->mp && fz.rp && !pp_region_provider_free(fz.rp));
}

/* An allocation came back empty: counted, and a failure without a cause. */
void fz_null_needs_cause(const struct fz_cause *before, const struct fz_pool *r,
			 const char *what)
{
	fz.t.alloc_null++;
	if (!fz_had_cause(before, r))
		fz_fail(PPINV_API, "%s from pool %u returned nothing with memory available and no fault",
			what, r->id);
}

int fz_free_rec(void)
{
	int r;

	for (r = 0; r < FZ_MAX_POOLS; r++)
		if (fz.pools[r].state == REC_FREE)
			return r;
	return -1;
}

void fz_run_op(bool in_poll)
{
	size_t at = fz.pos;
	enum fz_op op = (enum fz_op)(fz_u8() % FZ_OP_NR);

	fz.nops++;
	fz.t.ops++;
	/* PP_FUZZ_VERBOSE=2: each operation as it runs, for a crash that
	 * stops the process before the model's state is printed. */
	if (fz_verbose >= 2)
		fprintf(stderr, "fuzz: op %lu: %d at byte %zu%s\n", fz.nops, op, at,
			in_poll ? " (in NAPI poll)" : "");
	switch (op) {
	case FZ_OP_CREATE:		fz_op_create(in_poll); break;
	case FZ_OP_ALLOC:		fz_op_alloc(); break;
	case FZ_OP_PUT:			fz_op_put(); break;
	case FZ_OP_BULK:		fz_op_bulk(); break;
	case FZ_OP_GET_PAGE:		fz_op_get_page(); break;
	case FZ_OP_PUT_PAGE:		fz_op_put_page(); break;
	case FZ_OP_PP_REF:		fz_op_pp_ref(); break;
	case FZ_OP_TO_STACK:		fz_op_to_stack(); break;
	case FZ_OP_STACK_RETURN:	fz_op_stack_return(); break;
	case FZ_OP_DESTROY:		fz_op_destroy(in_poll); break;
	case FZ_OP_UNBIND:		fz_op_unbind(in_poll); break;
	case FZ_OP_REBIND:		fz_op_rebind(); break;
	case FZ_OP_UPDATE_NID:		fz_op_update_nid(); break;
	case FZ_OP_FAULT:		fz_op_fault(); break;
	case FZ_OP_ROLE:		fz_op_role(in_poll); break;
	case FZ_OP_BH:			fz_op_bh(in_poll); break;
	case FZ_OP_NAPI_POLL:		fz_op_napi_poll(in_poll); break;
	case FZ_OP_BURST:		fz_op_burst(); break;
	case FZ_OP_RUN_WORK:		fz_op_run_work(in_poll); break;
	case FZ_OP_DOUBLE_PUT:		fz_op_double_put(); break;
	case FZ_OP_WRONG_POOL:		fz_op_wrong_pool(); break;
	case FZ_OP_STRAY_PUT:		fz_op_stray_put(); break;
	case FZ_OP_ALLOC_DESTROYED:	fz_op_alloc_destroyed(); break;
	case FZ_OP_DESTROY_AGAIN:	fz_op_destroy_again(); break;
	case FZ_OP_XDP:			fz_op_xdp(in_poll); break;
	case FZ_OP_BULK_DUP:		fz_op_bulk_dup(); break;
	case FZ_OP_ALLOC_ZERO:		fz_op_alloc_zero(); break;
	case FZ_OP_ABA:			fz_op_aba(in_poll); break;
	case FZ_OP_MP_PAGE_ALLOC:	fz_op_mp_page_alloc(); break;
	case FZ_OP_FRAG_OVERPUT:	fz_op_frag_overput(); break;
	case FZ_OP_DEV_GONE:		fz_op_dev_gone(in_poll); break;
	case FZ_OP_BAD_ARGS:		fz_op_bad_args(); break;
	case FZ_OP_NR:			break;
	}
	if (fz_verbose >= 3)
		fz_dump_state();
	fz_check_all();
}
