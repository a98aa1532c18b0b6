/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * NAPI: scheduling, polling and the state machine of the kernel's
 * net/core/dev.c, over threads-as-CPUs (see linux/netdevice.h for the
 * model). Each CPU's poll list is touched only by the thread owning that
 * CPU id: napi_schedule() adds to the caller's list, pp_net_rx_action()
 * runs the caller's list. The state word is shared and changed with
 * compare-and-exchange only. The shared CPU's list (<pagepool/runtime.h>)
 * is the exception: its members schedule onto it from any context while
 * the one holding the shared CPU polls it, so it is changed under
 * shared_poll_lock (a leaf lock, held for list operations only).
 *
 * A CPU going offline (its thread unregisters or exits) with NAPIs still
 * scheduled on it. In the kernel the dead CPU's pending softirqs are run
 * and dev_cpu_dead() moves its poll list to a live CPU; a NAPI is never
 * stranded. Here the offline path first runs the CPU's pending softirqs,
 * NAPI polls included, as the outermost local_bh_enable() would have
 * (pprt_softirq_cpu_offline(): the common case, a thread that scheduled a
 * NAPI and exited, is then simply polled, no report). What is still
 * scheduled after that (a poll that keeps using its whole weight) cannot
 * be handed to another live CPU's list - each is touched by its owner
 * only - so it goes to the orphan list (under shared_poll_lock, owner
 * NAPI_OWNER_ORPHAN), with a WARN, and is adopted onto a live CPU's own
 * list by the next thread that takes a CPU id, or by napi_disable() of
 * that NAPI, which then polls it itself: napi_disable() never waits for a
 * CPU that went away.
 */
#include <pthread.h>
#include <sched.h>

#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <pagepool/runtime.h>

#include "runtime/runtime_internal.h"

/* Budget of one pp_net_rx_action() pass (the kernel's netdev_budget). */
#define NETDEV_BUDGET	300
/* NAPI ids start above the CPU ids, as the kernel's MIN_NAPI_ID. */
#define MIN_NAPI_ID	(NR_CPUS + 1)

static struct list_head poll_lists[NR_CPUS];
static unsigned int napi_next_id = MIN_NAPI_ID;
static pthread_mutex_t shared_poll_lock = PTHREAD_MUTEX_INITIALIZER;
/* NAPIs left scheduled by a CPU that went offline (under shared_poll_lock). */
static LIST_HEAD(orphans);
#define NAPI_OWNER_ORPHAN	(-2)

static struct list_head *poll_list_of(int cpu)
{
	struct list_head *l = &poll_lists[cpu];

	if (unlikely(!l->next))
		INIT_LIST_HEAD(l);
	return l;
}

bool pprt_napi_shared_raised(void)
{
	bool ret;

	pthread_mutex_lock(&shared_poll_lock);
	ret = !list_empty(poll_list_of(__PP_CPU_SHARED));
	pthread_mutex_unlock(&shared_poll_lock);
	return ret;
}

void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight)
{
	if (WARN_ON(test_bit(NAPI_STATE_LISTED, &napi->state)))
		return;
	INIT_LIST_HEAD(&napi->poll_list);
	INIT_LIST_HEAD(&napi->dev_list);
	napi->weight = weight > 0 ? weight : NAPI_POLL_WEIGHT;
	napi->poll = poll;
	napi->dev = dev;
	napi->list_owner = -1;
	napi->napi_id = __atomic_fetch_add(&napi_next_id, 1, __ATOMIC_RELAXED);
	/* A new instance is disabled until napi_enable(). */
	__atomic_store_n(&napi->state, NAPIF_STATE_SCHED | NAPIF_STATE_NPSVC |
			 NAPIF_STATE_LISTED, __ATOMIC_RELEASE);
	if (dev) {
		list_add_tail(&napi->dev_list, &dev->napi_list);
	}
}

void __netif_napi_del_locked(struct napi_struct *napi)
{
	if (!test_and_clear_bit(NAPI_STATE_LISTED, &napi->state))
		return;
	if (napi->dev_list.next)
		list_del_init(&napi->dev_list);
}

void napi_enable(struct napi_struct *n)
{
	unsigned long val = READ_ONCE(n->state), new;

	do {
		WARN_ON(!(val & NAPIF_STATE_SCHED));
		new = val & ~(NAPIF_STATE_SCHED | NAPIF_STATE_NPSVC);
	} while (!__atomic_compare_exchange_n(&n->state, &val, new, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
}

/* Move the orphans onto the calling CPU's list and raise NET_RX; the
 * caller's next softirq point polls them. Slow paths only. */
void pprt_napi_adopt_orphans(void)
{
	int cpu = smp_processor_id();	/* registers a thread without an id */
	struct napi_struct *n;
	bool any;

	pthread_mutex_lock(&shared_poll_lock);
	any = !list_empty(&orphans);
	list_for_each_entry(n, &orphans, poll_list)
		WRITE_ONCE(n->list_owner, cpu);
	/* The shared CPU's list is changed under this lock anyway; another
	 * CPU's is its owner's, the caller. */
	list_splice_tail_init(&orphans, poll_list_of(cpu));
	pthread_mutex_unlock(&shared_poll_lock);
	if (any)
		__pp_ctx.softirq_pending |= __PP_SOFTIRQ_NET_RX;
}

void napi_disable(struct napi_struct *n)
{
	unsigned long val, new;

	set_bit(NAPI_STATE_DISABLE, &n->state);
	val = READ_ONCE(n->state);
	do {
		while (val & (NAPIF_STATE_SCHED | NAPIF_STATE_NPSVC)) {
			/* Left behind by a CPU that went offline: take it (and
			 * the other orphans) onto our own list, and poll. */
			if (unlikely(READ_ONCE(n->list_owner) == NAPI_OWNER_ORPHAN) &&
			    !in_softirq())
				pprt_napi_adopt_orphans();
			/* Scheduled on our own list: it can only finish if we
			 * poll it (the kernel's softirq would run it). */
			if (READ_ONCE(n->list_owner) == smp_processor_id() && !in_softirq())
				pp_net_rx_action();
			else
				sched_yield();
			val = READ_ONCE(n->state);
		}
		new = val | NAPIF_STATE_SCHED | NAPIF_STATE_NPSVC;
		new &= ~(NAPIF_STATE_THREADED | NAPIF_STATE_PREFER_BUSY_POLL);
	} while (!__atomic_compare_exchange_n(&n->state, &val, new, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	clear_bit(NAPI_STATE_DISABLE, &n->state);
}

bool napi_schedule_prep(struct napi_struct *n)
{
	unsigned long val = READ_ONCE(n->state), new;

	do {
		if (unlikely(val & NAPIF_STATE_DISABLE))
			return false;
		new = val | NAPIF_STATE_SCHED;
		/* Already scheduled: make the current poll run once more. */
		if (val & NAPIF_STATE_SCHED)
			new |= NAPIF_STATE_MISSED;
	} while (!__atomic_compare_exchange_n(&n->state, &val, new, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return !(val & NAPIF_STATE_SCHED);
}

/* Onto the shared CPU's list: any member, in any context. */
static noinline void napi_schedule_shared(struct napi_struct *n)
{
	pthread_mutex_lock(&shared_poll_lock);
	list_add_tail(&n->poll_list, poll_list_of(__PP_CPU_SHARED));
	WRITE_ONCE(n->list_owner, __PP_CPU_SHARED);
	pthread_mutex_unlock(&shared_poll_lock);
	__pp_ctx.softirq_pending |= __PP_SOFTIRQ_NET_RX;
}

void __napi_schedule(struct napi_struct *n)
{
	int cpu = __pp_ctx.cpu;

	/* A thread without an id (the branch smp_processor_id() has
	 * anyway) may be on the shared CPU. */
	if (unlikely(cpu < 0)) {
		cpu = __pp_cpu_lazy_register();
		if (cpu == __PP_CPU_SHARED) {
			napi_schedule_shared(n);
			return;
		}
	}
	list_add_tail(&n->poll_list, poll_list_of(cpu));
	WRITE_ONCE(n->list_owner, cpu);
	__pp_ctx.softirq_pending |= __PP_SOFTIRQ_NET_RX;
}

bool napi_complete_done(struct napi_struct *n, int work_done)
{
	unsigned long val, new;

	(void)work_done;
	if (unlikely(READ_ONCE(n->state) & (NAPIF_STATE_NPSVC | NAPIF_STATE_IN_BUSY_POLL)))
		return false;
	/* On a repoll list: take it off (net_rx_action already unlinked it
	 * before polling, so this is usually a no-op). */
	if (!list_empty(&n->poll_list))
		list_del_init(&n->poll_list);
	WRITE_ONCE(n->list_owner, -1);

	val = READ_ONCE(n->state);
	do {
		WARN_ON_ONCE(!(val & NAPIF_STATE_SCHED));
		new = val & ~(NAPIF_STATE_MISSED | NAPIF_STATE_SCHED |
			      NAPIF_STATE_SCHED_THREADED | NAPIF_STATE_PREFER_BUSY_POLL);
		/* Scheduled again while we polled: keep SCHED and re-queue. */
		if (val & NAPIF_STATE_MISSED)
			new |= NAPIF_STATE_SCHED;
	} while (!__atomic_compare_exchange_n(&n->state, &val, new, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	if (unlikely(val & NAPIF_STATE_MISSED)) {
		__napi_schedule(n);
		return false;
	}
	return true;
}

int pprt_net_rx_action_locked(void)
{
	int cpu = pprt_softirq_cpu();
	struct list_head *poll_list = poll_list_of(cpu);
	bool shared = cpu == __PP_CPU_SHARED;
	LIST_HEAD(list);
	LIST_HEAD(repoll);
	int budget = NETDEV_BUDGET, total = 0;

	__pp_ctx.softirq_pending &= ~__PP_SOFTIRQ_NET_RX;
	/* The shared CPU's list: taken under its lock; the member running it
	 * holds the shared CPU, so its polls are the only ones. */
	if (unlikely(shared))
		pthread_mutex_lock(&shared_poll_lock);
	list_splice_init(poll_list, &list);
	if (unlikely(shared))
		pthread_mutex_unlock(&shared_poll_lock);
	while (!list_empty(&list)) {
		struct napi_struct *n = list_first_entry(&list, struct napi_struct, poll_list);
		int weight = n->weight, work = 0;

		list_del_init(&n->poll_list);
		if (budget <= 0) {	/* out of budget: next pass */
			list_add_tail(&n->poll_list, &repoll);
			continue;
		}
		if (test_bit(NAPI_STATE_SCHED, &n->state))
			work = n->poll(n, weight);
		WARN_ONCE(work > weight, "NAPI poll returned %d, more than its weight %d",
			  work, weight);
		total += work;
		budget -= work;
		if (work < weight)
			continue;	/* the driver completed (or must have) */
		if (unlikely(napi_disable_pending(n))) {
			napi_complete(n);
			continue;
		}
		/* Whole weight used: poll again, after the others. */
		list_add_tail(&n->poll_list, &repoll);
	}
	if (unlikely(shared))
		pthread_mutex_lock(&shared_poll_lock);
	list_splice_tail_init(&repoll, poll_list);
	if (!list_empty(poll_list))
		__pp_ctx.softirq_pending |= __PP_SOFTIRQ_NET_RX;
	if (unlikely(shared))
		pthread_mutex_unlock(&shared_poll_lock);
	return total;
}

/* After the offline path ran @cpu's softirqs: what is still scheduled
 * goes to the orphans (see the top of this file). */
void pprt_napi_cpu_offline(int cpu)
{
	struct list_head *l = &poll_lists[cpu];
	struct napi_struct *n;
	int nr = 0;

	pthread_mutex_lock(&shared_poll_lock);
	if (l->next) {
		list_for_each_entry(n, l, poll_list) {
			WRITE_ONCE(n->list_owner, NAPI_OWNER_ORPHAN);
			nr++;
		}
		list_splice_tail_init(l, &orphans);
	}
	pthread_mutex_unlock(&shared_poll_lock);
	WARN(nr, "CPU %d goes offline with %d NAPI instances still scheduled after its softirqs ran: the next CPU to come online or their napi_disable() polls them",
	     cpu, nr);
}

void napi_assert_will_not_race(const struct napi_struct *napi)
{
	/* Never passed to netif_napi_add(): cannot be polled at all. */
	if (!napi->poll_list.next)
		return;
	/* SCHED is held by disabled instances. */
	WARN_ON(!test_bit(NAPI_STATE_SCHED, &napi->state));
	WARN_ON(READ_ONCE(napi->list_owner) != -1);
}
