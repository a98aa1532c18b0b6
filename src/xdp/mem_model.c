/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XDP RX-queue info and memory-model registration (the registration half
 * of the kernel's net/core/xdp.c): queue states, mem ids for allocators,
 * the page_pool user reference that ties the pool's lifetime to the
 * registration, and the disconnect callback page_pool calls when it frees
 * the pool.
 *
 * Pool lifetime with a registration: the driver's page_pool_destroy() and
 * xdp_unreg_mem_model() each drop one user reference; the second one
 * starts the release, which waits for in-flight pages; when the last page
 * is home page_pool frees the pool and first calls
 * mem_allocator_disconnect(), which unpublishes the pool's ids. Returns
 * that still look the id up (the old generation) run under RCU, and the
 * entries are freed only after a grace period.
 */
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>

#include "xdp/xdp_internal.h"

#define REG_STATE_NEW		0x0
#define REG_STATE_REGISTERED	0x1
#define REG_STATE_UNREGISTERED	0x2
#define REG_STATE_UNUSED	0x3

void xdp_warn(const char *msg, const char *func, const int line)
{
	WARN(1, "XDP_WARN: %s(line:%d): %s\n", func, line, msg);
}

/* page_pool's disconnect callback: the pool is being freed. Process
 * context (page_pool_destroy() or its deferred-release work). */
static void mem_allocator_disconnect(void *allocator)
{
	mutex_lock(&ppxdp_mem_lock);
	ppxdp_mem_remove_allocator(allocator);
	mutex_unlock(&ppxdp_mem_lock);
}

void xdp_unreg_mem_model(struct xdp_mem_info *mem)
{
	struct xdp_mem_allocator *xa;
	struct page_pool *pool;
	u32 id = mem->id;

	/* Reset mem info to defaults */
	mem->id = 0;
	mem->type = 0;
	if (id == 0)
		return;

	mutex_lock(&ppxdp_mem_lock);
	xa = ppxdp_mem_find(id);
	if (!xa) {
		mutex_unlock(&ppxdp_mem_lock);
		WARN(1, "Request remove non-existing id(%u), driver bug?", id);
		return;
	}
	if (xa->mem.type != MEM_TYPE_PAGE_POOL) {
		/* Nothing else will ever remove it (no disconnect). */
		ppxdp_mem_remove(xa);
		mutex_unlock(&ppxdp_mem_lock);
		return;
	}
	/*
	 * A page_pool's entry outlives its unregistration until the pool is
	 * freed, so a second unregistration of the same id - a copy of the
	 * xdp_mem_info, such as an attached queue's that was not detached -
	 * finds it again. The kernel would page_pool_destroy() once more and
	 * drop a reference someone else holds (the driver's): the pool could
	 * then be freed under its driver. Refused instead.
	 */
	if (xa->unregistered) {
		mutex_unlock(&ppxdp_mem_lock);
		WARN(1, "Request remove already removed id(%u), driver bug?", id);
		return;
	}
	xa->unregistered = true;
	pool = xa->page_pool;
	mutex_unlock(&ppxdp_mem_lock);

	/*
	 * Outside the lock: the final destroy frees the pool at once when
	 * nothing is in flight, and the disconnect takes the lock. The
	 * entry and the pool stay valid until then: the reference this
	 * registration holds is only dropped here.
	 */
	page_pool_destroy(pool);
}

void xdp_rxq_info_unreg_mem_model(struct xdp_rxq_info *xdp_rxq)
{
	if (xdp_rxq->reg_state != REG_STATE_REGISTERED) {
		WARN(1, "Missing register, driver bug");
		return;
	}
	xdp_unreg_mem_model(&xdp_rxq->mem);
}

void xdp_rxq_info_unreg(struct xdp_rxq_info *xdp_rxq)
{
	/* Simplify driver cleanup code paths, allow unreg "unused" */
	if (xdp_rxq->reg_state == REG_STATE_UNUSED)
		return;

	xdp_rxq_info_unreg_mem_model(xdp_rxq);
	xdp_rxq->reg_state = REG_STATE_UNREGISTERED;
	xdp_rxq->dev = NULL;
}

int __xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev,
		       u32 queue_index, unsigned int napi_id, u32 frag_size)
{
	if (!dev) {
		WARN(1, "Missing net_device from driver");
		return -ENODEV;
	}
	if (xdp_rxq->reg_state == REG_STATE_UNUSED) {
		WARN(1, "Driver promised not to register this");
		return -EINVAL;
	}
	if (xdp_rxq->reg_state == REG_STATE_REGISTERED) {
		WARN(1, "Missing unregister, handled but fix driver");
		xdp_rxq_info_unreg(xdp_rxq);
	}

	/* State either UNREGISTERED or NEW */
	memset(xdp_rxq, 0, sizeof(*xdp_rxq));
	xdp_rxq->dev = dev;
	xdp_rxq->queue_index = queue_index;
	xdp_rxq->napi_id = napi_id;
	xdp_rxq->frag_size = frag_size;
	xdp_rxq->reg_state = REG_STATE_REGISTERED;
	return 0;
}

void xdp_rxq_info_unused(struct xdp_rxq_info *xdp_rxq)
{
	xdp_rxq->reg_state = REG_STATE_UNUSED;
}

bool xdp_rxq_info_is_reg(struct xdp_rxq_info *xdp_rxq)
{
	return xdp_rxq->reg_state == REG_STATE_REGISTERED;
}

static bool is_supported_mem_type(enum xdp_mem_type type)
{
	if (type == MEM_TYPE_PAGE_POOL)
		return is_page_pool_compiled_in();
	/* Unsigned: a negative enum value is out of range too. */
	return (u32)type < MEM_TYPE_MAX;
}

static struct xdp_mem_allocator *__xdp_reg_mem_model(struct xdp_mem_info *mem,
						     enum xdp_mem_type type,
						     void *allocator)
{
	struct xdp_mem_allocator *xa;
	int err;

	if (!is_supported_mem_type(type))
		return ERR_PTR(-EOPNOTSUPP);

	mem->type = type;
	if (!allocator) {
		if (type == MEM_TYPE_PAGE_POOL)
			return ERR_PTR(-EINVAL); /* Setup time check page_pool req */
		return NULL;
	}

	xa = kzalloc(sizeof(*xa), GFP_KERNEL);
	if (!xa)
		return ERR_PTR(-ENOMEM);
	xa->mem.type = type;
	xa->allocator = allocator;

	mutex_lock(&ppxdp_mem_lock);
	err = ppxdp_mem_insert(xa);
	if (err) {
		mutex_unlock(&ppxdp_mem_lock);
		kfree(xa);
		return ERR_PTR(err);
	}
	mem->id = xa->mem.id;
	/* Under the lock, so a disconnect cannot run before the pool knows
	 * about us (it could not anyway: the pool is not being freed). */
	if (type == MEM_TYPE_PAGE_POOL)
		page_pool_use_xdp_mem(allocator, mem_allocator_disconnect, mem);
	mutex_unlock(&ppxdp_mem_lock);
	return xa;
}

int xdp_reg_mem_model(struct xdp_mem_info *mem, enum xdp_mem_type type, void *allocator)
{
	struct xdp_mem_allocator *xa = __xdp_reg_mem_model(mem, type, allocator);

	return IS_ERR(xa) ? (int)PTR_ERR(xa) : 0;
}

int xdp_rxq_info_reg_mem_model(struct xdp_rxq_info *xdp_rxq,
			       enum xdp_mem_type type, void *allocator)
{
	struct xdp_mem_allocator *xa;

	if (xdp_rxq->reg_state != REG_STATE_REGISTERED) {
		WARN(1, "Missing register, driver bug");
		return -EFAULT;
	}
	/*
	 * The queue already has a memory model with an id (registered here,
	 * or attached). The kernel overwrites it: the first registration's
	 * id and pool reference are then held for ever - the pool can never
	 * be freed - and an attached model would be unregistered by the
	 * wrong owner later. Refused as a busy object, nothing changes: the
	 * first model stays until xdp_rxq_info_unreg_mem_model() (or
	 * detach). A model without an id (MEM_TYPE_PAGE_SHARED/ORDER0 with
	 * no allocator) holds nothing and may be replaced, as drivers that
	 * reconfigure a queue do.
	 */
	if (unlikely(xdp_rxq->mem.id)) {
		WARN(1, "Memory model already registered (mem id %u), unregister first; driver bug",
		     xdp_rxq->mem.id);
		return -EBUSY;
	}

	xa = __xdp_reg_mem_model(&xdp_rxq->mem, type, allocator);
	return IS_ERR(xa) ? (int)PTR_ERR(xa) : 0;
}

int xdp_reg_page_pool(struct page_pool *pool)
{
	struct xdp_mem_info mem = { 0, 0 };

	return xdp_reg_mem_model(&mem, MEM_TYPE_PAGE_POOL, pool);
}

void xdp_unreg_page_pool(const struct page_pool *pool)
{
	struct xdp_mem_info mem = {
		.type	= MEM_TYPE_PAGE_POOL,
		.id	= pool->xdp_mem_id,
	};

	xdp_unreg_mem_model(&mem);
}

void xdp_rxq_info_attach_page_pool(struct xdp_rxq_info *xdp_rxq,
				   const struct page_pool *pool)
{
	struct xdp_mem_info mem = {
		.type	= MEM_TYPE_PAGE_POOL,
		.id	= pool->xdp_mem_id,
	};

	xdp_rxq_info_attach_mem_model(xdp_rxq, &mem);
}
