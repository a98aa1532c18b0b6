/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * fork(). The child of a process that used the library has one thread:
 * the library's worker (workqueue) and call_rcu threads are not there, and
 * locks they held at the fork stay held. As DPDK, pagepool does not
 * support using the library in a fork child (<pagepool/runtime.h>); what
 * it guarantees is that the child is told, once, and does not hang: a
 * pthread_atfork() child handler records the fork, and the calls that
 * would wait for one of the missing threads (pp_workqueue_run_all(),
 * cancel_*_sync()/flush_*(), rcu_barrier(), synchronize_rcu(), call_rcu())
 * check it on their slow path before taking any lock. The first of them
 * in the child WARNs (through the print callback); then they return
 * without waiting. synchronize_rcu() returning at once is a correct grace
 * period there, as is running an RCU callback at once outside a read-side
 * section: the caller is the child's only thread. Deferred work is not
 * run: the child's copy of the pools is left as it is, for exec() or exit.
 * Restarting the threads in the child was not chosen: the worker may have
 * been inside an item (or holding its lock) at the fork, and liburcu's
 * reader registry still lists the parent's threads.
 */
#include <pthread.h>

#include <linux/bug.h>
#include <linux/compiler.h>

#include "runtime/runtime_internal.h"

static bool forked;
static bool fork_warned;

static void atfork_child(void)
{
	forked = true;
}

static void __attribute__((constructor)) fork_init(void)
{
	pthread_atfork(NULL, NULL, atfork_child);
}

bool pprt_fork_child(const char *what)
{
	if (likely(!READ_ONCE(forked)))
		return false;
	WARN(!__atomic_exchange_n(&fork_warned, true, __ATOMIC_RELAXED),
	     "pagepool: %s in a fork() child: the library's worker and RCU threads do not exist after fork(); deferred work and RCU callbacks are not waited for (the library is not supported in a fork child: exec() or exit)",
	     what);
	return true;
}
