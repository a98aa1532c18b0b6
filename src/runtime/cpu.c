/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Threads as CPUs, and the softirq context.
 *
 * A logical CPU id is owned by at most one live thread (a bitmap under
 * cpu_lock), so per-CPU data is single-writer exactly as in the kernel.
 * Ownership ends with pp_thread_unregister() or, automatically, at thread
 * exit (a pthread key destructor; static TLS is still valid there).
 * Giving an id back runs the registered offline hooks first (the mm layer
 * drains its per-CPU page lists).
 *
 * Softirq: the outermost local_bh_disable() enters an RCU read-side
 * section (bh-disabled regions are RCU readers, as in the kernel); the
 * outermost local_bh_enable() runs one round of the raised softirqs (NAPI
 * polls, tasklets: softirq.c), then leaves it.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/bug.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <pagepool/runtime.h>

#include "runtime/runtime_internal.h"

__thread struct pp_thread_ctx __pp_ctx __attribute__((tls_model("initial-exec"))) = {
	.cpu = -1,
};

int __pp_nr_nodes = 1;

static pthread_mutex_t cpu_lock = PTHREAD_MUTEX_INITIALIZER;
/* Changed under cpu_lock (atomic bit ops), read locklessly. */
struct cpumask __pp_cpu_online_mask;
#define cpu_owned	(__pp_cpu_online_mask.bits)
/* Bits set in cpu_owned, kept beside it under cpu_lock: page_pool asks
 * for it on paths that run every few dozen puts (ring credits). */
static unsigned int nr_owned;

static void cpu_own(int cpu)
{
	set_bit(cpu, cpu_owned);
	WRITE_ONCE(nr_owned, nr_owned + 1);
}

static void cpu_disown(int cpu)
{
	clear_bit(cpu, cpu_owned);
	WRITE_ONCE(nr_owned, nr_owned - 1);
}
const struct cpumask __pp_cpu_possible_mask = { CPU_BITS_ALL };

/* cpumask_of(): one single-bit mask per id, built once at load. */
static struct cpumask cpu_bit_masks[NR_CPUS];

__attribute__((constructor)) static void cpu_bit_masks_init(void)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		__cpumask_set_cpu(cpu, &cpu_bit_masks[cpu]);
}

const struct cpumask *__pp_cpumask_of(unsigned int cpu)
{
	return &cpu_bit_masks[cpu < NR_CPUS ? cpu : 0];
}

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;

static void (*offline_hooks[PPRT_MAX_CPU_HOOKS])(int cpu);
static int nr_offline_hooks;

static void thread_exit_cb(void *arg)
{
	(void)arg;
	pp_thread_unregister();
}

static void key_init(void)
{
	if (pthread_key_create(&exit_key, thread_exit_cb))
		abort();
}

int pprt_register_cpu_offline_hook(void (*fn)(int cpu))
{
	int i, ret = 0;

	pthread_mutex_lock(&cpu_lock);
	for (i = 0; i < nr_offline_hooks; i++)
		if (offline_hooks[i] == fn)
			goto out;
	if (nr_offline_hooks == PPRT_MAX_CPU_HOOKS)
		ret = -ENOSPC;
	else
		offline_hooks[nr_offline_hooks++] = fn;
out:
	pthread_mutex_unlock(&cpu_lock);
	return ret;
}

int pp_thread_register(int cpu)
{
	int cur = __pp_ctx.cpu;

	if (cpu < -1 || cpu >= NR_CPUS)
		return -EINVAL;
	if (cur >= 0)
		return (cpu == -1 || cpu == cur) ? cur : -EEXIST;

	pthread_once(&key_once, key_init);
	pthread_mutex_lock(&cpu_lock);
	if (cpu == -1) {
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			if (!test_bit(cpu, cpu_owned))
				break;
		if (cpu == NR_CPUS) {
			pthread_mutex_unlock(&cpu_lock);
			return -ENOSPC;
		}
	} else if (test_bit(cpu, cpu_owned)) {
		pthread_mutex_unlock(&cpu_lock);
		return -EBUSY;
	}
	cpu_own(cpu);
	pthread_mutex_unlock(&cpu_lock);

	__pp_ctx.cpu = cpu;
	pthread_setspecific(exit_key, (void *)1);
	pprt_rcu_thread_online();
	pprt_softirq_cpu_online(cpu);
	return cpu;
}

/* The calling thread stops being @cpu: its tasklets run, the upper
 * layers drain their per-CPU state, NAPIs left behind are reported. */
static void cpu_going_offline(int cpu)
{
	void (*hooks[PPRT_MAX_CPU_HOOKS])(int);
	int i, n;

	pprt_softirq_cpu_offline(cpu);
	pthread_mutex_lock(&cpu_lock);
	n = nr_offline_hooks;
	for (i = 0; i < n; i++)
		hooks[i] = offline_hooks[i];
	pthread_mutex_unlock(&cpu_lock);
	for (i = n - 1; i >= 0; i--)
		hooks[i](cpu);
	pprt_napi_cpu_offline(cpu);
}

void pp_thread_unregister(void)
{
	int cpu = __pp_ctx.cpu;

	if (cpu < 0)
		return;
	WARN(__pp_ctx.preempt_count & SOFTIRQ_MASK,
	     "pp_thread_unregister() with bottom halves disabled");
	cpu_going_offline(cpu);
	pprt_rcu_thread_offline();

	pthread_mutex_lock(&cpu_lock);
	cpu_disown(cpu);
	pthread_mutex_unlock(&cpu_lock);
	__pp_ctx.cpu = -1;
	pthread_once(&key_once, key_init);
	pthread_setspecific(exit_key, NULL);
}

int pprt_thread_move_cpu(int cpu)
{
	int old = __pp_ctx.cpu;

	if (cpu < 0 || cpu >= NR_CPUS)
		return -EINVAL;
	if (old == cpu)
		return cpu;
	if (old < 0)
		return pp_thread_register(cpu);
	/* Claim the new id before giving up the old one, so a failed move
	 * leaves the thread where it was. */
	pthread_mutex_lock(&cpu_lock);
	if (test_bit(cpu, cpu_owned)) {
		pthread_mutex_unlock(&cpu_lock);
		return -EBUSY;
	}
	cpu_own(cpu);
	pthread_mutex_unlock(&cpu_lock);

	cpu_going_offline(old);
	pthread_mutex_lock(&cpu_lock);
	cpu_disown(old);
	pthread_mutex_unlock(&cpu_lock);
	__pp_ctx.cpu = cpu;
	pprt_softirq_cpu_online(cpu);
	return cpu;
}

/* More threads than CPU ids use the library at once: nothing sensible can
 * continue (per-CPU data would be shared), so say so and stop. */
int __pp_cpu_lazy_register(void)
{
	int cpu = pp_thread_register(-1);

	if (cpu < 0) {
		pr_crit("pagepool: cannot give this thread a CPU id (%d): more than %d threads use the library\n",
			cpu, NR_CPUS);
		abort();
	}
	return cpu;
}

int pp_thread_pin(int host_cpu)
{
	cpu_set_t set;
	int rc;

	if (host_cpu < 0 || host_cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(host_cpu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	return -rc;
}

bool cpu_online(int cpu)
{
	return cpu >= 0 && cpu < NR_CPUS && test_bit(cpu, cpu_owned);
}

unsigned int num_online_cpus(void)
{
	return READ_ONCE(nr_owned);
}

int pp_nr_registered_cpus(void)
{
	return (int)num_online_cpus();
}

/* Softirq sections. */

void __pp_local_bh_disable_outer(void)
{
	/* Registering on the way in keeps smp_processor_id() cheap inside. */
	if (unlikely(__pp_ctx.cpu < 0))
		__pp_cpu_lazy_register();
	pprt_rcu_read_lock();
	__pp_ctx.preempt_count += SOFTIRQ_DISABLE_OFFSET;
}

void __pp_local_bh_enable_outer(void)
{
	unsigned int sc = __pp_ctx.preempt_count & SOFTIRQ_MASK;

	if (WARN_ONCE(sc != SOFTIRQ_DISABLE_OFFSET,
		      "local_bh_enable() without matching local_bh_disable() (count %#x)",
		      __pp_ctx.preempt_count))
		return;
	if (__pp_ctx.softirq_pending && !in_hardirq()) {
		/* Turn the disable into "serving softirq" and run the polls. */
		__pp_ctx.preempt_count -= SOFTIRQ_DISABLE_OFFSET - SOFTIRQ_OFFSET;
		pprt_softirq_round_locked();
		__pp_ctx.preempt_count -= SOFTIRQ_OFFSET;
	} else {
		__pp_ctx.preempt_count -= SOFTIRQ_DISABLE_OFFSET;
	}
	pprt_rcu_read_unlock();
}

int pp_net_rx_action(void)
{
	int work;

	if (in_softirq())	/* softirqs do not run inside a bh-disabled region */
		return 0;
	if (unlikely(__pp_ctx.cpu < 0))
		__pp_cpu_lazy_register();
	pprt_rcu_read_lock();
	__pp_ctx.preempt_count += SOFTIRQ_OFFSET;
	work = pprt_net_rx_action_locked();
	__pp_ctx.preempt_count -= SOFTIRQ_OFFSET;
	pprt_rcu_read_unlock();
	return work;
}

bool pp_softirq_pending(void)
{
	return __pp_ctx.softirq_pending != 0;
}
