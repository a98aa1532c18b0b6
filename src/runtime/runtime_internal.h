/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Library-internal interface of the runtime layer: what the layers above
 * (mm, dma, core, ...) may call that is not public API. Names carry the
 * pprt_ prefix and are not exported from the shared library.
 */
#ifndef _PP_RUNTIME_INTERNAL_H
#define _PP_RUNTIME_INTERNAL_H

#include <stdbool.h>

#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/smp.h>

/* Called with the CPU id a thread is giving back (pp_thread_unregister()
 * or thread exit), on that thread, before the id is released. Upper layers
 * use it to drain per-CPU state (mm: the per-CPU page lists). At most
 * PPRT_MAX_CPU_HOOKS hooks; returns 0 or -ENOSPC. */
#define PPRT_MAX_CPU_HOOKS	8
int pprt_register_cpu_offline_hook(void (*fn)(int cpu));

/* Called on a library thread (the workqueue worker) that has nothing to
 * do and is about to sleep: upper layers give back what the thread keeps
 * per CPU (mm: its per-CPU page lists), so an idle worker strands
 * nothing. At most PPRT_MAX_CPU_HOOKS hooks; returns 0 or -ENOSPC. */
int pprt_register_cpu_idle_hook(void (*fn)(void));
void pprt_cpu_idle(void);

/* Marks the calling thread as one of the library's own (the work queue's
 * worker, the RCU callback thread, the telemetry server), before it runs
 * any library code: it never takes a CPU id, its smp_processor_id() is
 * __PP_CPU_SHARED (cpu.c). Ids stay the application's. */
void pprt_thread_mark_library(void);

/* A full memory barrier on every running thread of the process
 * (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)), for asymmetric fences:
 * the other side then needs none. False if the system has none. */
bool pprt_membarrier(void);

/* Make the calling thread CPU @cpu instead of its current id (as
 * unregister + register, but the thread never goes without an id). Returns
 * @cpu, -EBUSY if another thread owns @cpu, -EINVAL if out of range. Not
 * with bottom halves disabled. */
int pprt_thread_move_cpu(int cpu);

/* The shared CPU (<pagepool/runtime.h>, cpu.c). A softirq run or
 * bh-disabled region by a thread without an id starts with
 * pprt_cpu_softirq_run_begin(): it claims a free id, or takes the shared
 * CPU; pprt_cpu_softirq_run_end() gives the shared CPU back. Registered
 * threads pay one branch each, on a path that had it before. */
void pprt_cpu_enter_unregistered(void);
void pprt_cpu_shared_exit(void);

static inline void pprt_cpu_softirq_run_begin(void)
{
	if (unlikely(__pp_ctx.cpu < 0))
		pprt_cpu_enter_unregistered();
}

static inline void pprt_cpu_softirq_run_end(void)
{
	if (unlikely(__pp_ctx.softirq_pending & __PP_SOFTIRQ_SHARED))
		pprt_cpu_shared_exit();
}

/* The CPU id whose per-CPU data a softirq run of the calling thread uses:
 * its own, or the shared CPU's for a member (which holds it then). */
static inline int pprt_softirq_cpu(void)
{
	int cpu = __pp_ctx.cpu;

	return likely(cpu >= 0) ? cpu : __PP_CPU_SHARED;
}

/* softirq.c / napi.c: the softirqs the shared CPU has queued work for
 * (tasklets, NAPI polls), raised in the member that takes it. */
unsigned int pprt_softirq_shared_raised(void);
bool pprt_napi_shared_raised(void);

/* RCU read side for library code (a function call, the urcu-memb read
 * side inside). Same semantics as rcu_read_lock()/rcu_read_unlock(). */
void pprt_rcu_read_lock(void);
void pprt_rcu_read_unlock(void);
/* Nesting depth of RCU read-side sections (including bh-disabled regions)
 * of the calling thread. */
int pprt_rcu_nesting(void);

/* Per-thread RCU registration, tied to CPU registration. */
void pprt_rcu_thread_online(void);
void pprt_rcu_thread_offline(void);

/* Run this CPU's NAPI poll list once, already inside a softirq section
 * (preempt count has SOFTIRQ_OFFSET). Returns work done. */
int pprt_net_rx_action_locked(void);

/* A CPU is going away: any NAPI left on its list is reported. */
void pprt_napi_cpu_offline(int cpu);
/* fork.c: true (and a one-time WARN naming @what) in a fork() child,
 * where the worker and RCU threads are missing: the caller must not wait
 * for them. Slow paths only. */
bool pprt_fork_child(const char *what);

/* Take the NAPIs orphaned by offline CPUs onto the calling CPU's list. */
void pprt_napi_adopt_orphans(void);

/* One round of this CPU's raised softirqs (HI tasklets, NAPI, tasklets),
 * already inside a softirq section. Returns tasklets run plus NAPI work. */
int pprt_softirq_round_locked(void);

/* The calling thread gives up / takes CPU id @cpu: enabled tasklets
 * queued there run first / what a predecessor left queued is raised. */
void pprt_softirq_cpu_offline(int cpu);
void pprt_softirq_cpu_online(int cpu);

/* The run-time knobs (knobs.c): every environment variable the library
 * reads. pprt_knob() is the value, NULL when unset or empty;
 * pprt_knob_flag() is true for exactly "1". */
enum pprt_knob {
	PPRT_KNOB_DEBUG,
	PPRT_KNOB_WARN_BACKTRACE,
	PPRT_KNOB_WARN_ABORT,
	PPRT_KNOB_MEM_MB,
	PPRT_KNOB_DMA_ABORT,
	PPRT_KNOB_RING,
	PPRT_KNOB_DMA_TRACKING,
	PPRT_KNOB_XDP_RETURN,
	PPRT_KNOB_XDP_TABLE,
	PPRT_KNOB_NR,
};
const char *pprt_knob(enum pprt_knob knob);
const char *pprt_knob_name(enum pprt_knob knob);
bool pprt_knob_flag(enum pprt_knob knob);

#endif /* _PP_RUNTIME_INTERNAL_H */
