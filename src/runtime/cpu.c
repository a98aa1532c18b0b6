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
 *
 * The shared CPU (__PP_CPU_SHARED, the last id; the design is in
 * <pagepool/runtime.h>): a thread that needs an id when all others are
 * taken becomes a member of it instead of aborting. Members keep
 * __pp_ctx.cpu at -1, so every use of their CPU id goes through the slow
 * branch that lazy registration always had (smp_processor_id() answers
 * __PP_CPU_SHARED there), and registered threads run exactly the code they
 * ran before. A member holds shared_lock from the outermost
 * local_bh_disable() (or the start of a softirq run) to its end: the
 * __PP_SOFTIRQ_SHARED bit in its pending mask sends local_bh_enable() to
 * the slow path that gives the lock back. The last member to leave runs
 * the shared CPU's offline work (its tasklets, the offline hooks).
 *
 * Library threads (the work queue's worker, the RCU callback thread, the
 * telemetry server: pprt_thread_mark_library()) never take an id: the ids
 * are the application's to number its threads with, and a helper thread
 * that took the lowest free one for good would make the application's
 * pp_thread_register() of it fail. Their lazy registration joins the
 * shared CPU at once, quietly (the WARN is about the application's
 * threads outnumbering the ids). Threads the application creates through
 * the runtime (kthread_run() and the rest) are the application's.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* <linux/membarrier.h>'s commands, restated: the tree's include/linux
 * directory comes first on the include path. */
#define PP_MEMBARRIER_CMD_PRIVATE_EXPEDITED		(1 << 3)
#define PP_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED	(1 << 4)

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

/* The shared CPU: its members (under cpu_lock), the lock a member holds
 * while it has bottom halves disabled, and the calling thread's state. */
static unsigned int shared_members;
static bool shared_warned;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread bool shared_member __attribute__((tls_model("initial-exec")));
static __thread bool shared_held __attribute__((tls_model("initial-exec")));
/* Set once by a library thread for itself (pprt_thread_mark_library()). */
static __thread bool library_thread __attribute__((tls_model("initial-exec")));

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;

static void (*offline_hooks[PPRT_MAX_CPU_HOOKS])(int cpu);
static int nr_offline_hooks;
static void (*idle_hooks[PPRT_MAX_CPU_HOOKS])(void);
static int nr_idle_hooks;	/* written under cpu_lock, read with acquire */

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

static void shared_leave(void);
static void shared_exit(void);

int pprt_register_cpu_idle_hook(void (*fn)(void))
{
	int i, n, ret = 0;

	pthread_mutex_lock(&cpu_lock);
	n = nr_idle_hooks;
	for (i = 0; i < n; i++)
		if (idle_hooks[i] == fn)
			goto out;
	if (n == PPRT_MAX_CPU_HOOKS) {
		ret = -ENOSPC;
	} else {
		idle_hooks[n] = fn;
		__atomic_store_n(&nr_idle_hooks, n + 1, __ATOMIC_RELEASE);
	}
out:
	pthread_mutex_unlock(&cpu_lock);
	return ret;
}

void pprt_cpu_idle(void)
{
	int i, n = __atomic_load_n(&nr_idle_hooks, __ATOMIC_ACQUIRE);

	/* Hooks are only ever added: the first n are written. */
	for (i = 0; i < n; i++)
		idle_hooks[i]();
}

/* 0: not tried yet, 1: registered, -1: not available. */
static int membarrier_state;

bool pprt_membarrier(void)
{
	int st = __atomic_load_n(&membarrier_state, __ATOMIC_ACQUIRE);

	if (unlikely(!st)) {
		st = syscall(SYS_membarrier, PP_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) ?
		     -1 : 1;
		__atomic_store_n(&membarrier_state, st, __ATOMIC_RELEASE);
	}
	return st > 0 && !syscall(SYS_membarrier, PP_MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

int pp_thread_register(int cpu)
{
	int cur = __pp_ctx.cpu;

	/* The shared CPU's id is no thread's to own. */
	if (cpu < -1 || cpu >= __PP_CPU_SHARED)
		return -EINVAL;
	if (cur >= 0)
		return (cpu == -1 || cpu == cur) ? cur : -EEXIST;
	/* A member cannot leave the shared CPU while it holds it. */
	if (unlikely(shared_held))
		return -EBUSY;

	pthread_once(&key_once, key_init);
	pthread_mutex_lock(&cpu_lock);
	if (cpu == -1) {
		for (cpu = 0; cpu < __PP_CPU_SHARED; cpu++)
			if (!test_bit(cpu, cpu_owned))
				break;
		if (cpu == __PP_CPU_SHARED) {
			pthread_mutex_unlock(&cpu_lock);
			return -ENOSPC;
		}
	} else if (test_bit(cpu, cpu_owned)) {
		pthread_mutex_unlock(&cpu_lock);
		return -EBUSY;
	}
	cpu_own(cpu);
	pthread_mutex_unlock(&cpu_lock);

	/* An id became free for a member: it leaves the shared CPU. */
	if (unlikely(shared_member))
		shared_leave();
	__pp_ctx.cpu = cpu;
	pthread_setspecific(exit_key, (void *)1);
	pprt_rcu_thread_online();
	pprt_softirq_cpu_online(cpu);
	return cpu;
}

/* A thread gives its CPU up (or exits) inside a bottom-half-disabled
 * region or a softirq run: reported, and the region ends here as the
 * outermost local_bh_enable() would end it (the RCU read-side section it
 * entered is left, the shared CPU given back), so the offline path can
 * still run the pending softirqs and nothing waits for this thread's RCU
 * reader or its shared-CPU turn forever. */
static void bh_region_force_end(const char *what)
{
	if (!(__pp_ctx.preempt_count & SOFTIRQ_MASK))
		return;
	WARN(1, "%s with bottom halves disabled", what);
	__pp_ctx.preempt_count &= ~SOFTIRQ_MASK;
	/* The outermost bh-disable or softirq entry took one reader. */
	pprt_rcu_read_unlock();
	if (shared_held)
		shared_exit();
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

	if (cpu < 0) {
		if (shared_member)
			shared_leave();
		return;
	}
	bh_region_force_end("pp_thread_unregister() (or thread exit)");
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

	if (cpu < 0 || cpu >= __PP_CPU_SHARED)
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

/* The shared CPU. */

/* The calling thread, which has no id and found none free, runs on the
 * shared CPU from now on. */
static noinline void shared_join(void)
{
	bool first;

	pthread_once(&key_once, key_init);
	pthread_mutex_lock(&cpu_lock);
	first = !shared_members++;
	if (first)
		cpu_own(__PP_CPU_SHARED);
	pthread_mutex_unlock(&cpu_lock);
	shared_member = true;
	/* Left at thread exit, as an id is given back. */
	pthread_setspecific(exit_key, (void *)1);
	pprt_rcu_thread_online();
	/* Once per process, counted once (WARN_ONCE() counts every hit); a
	 * library thread is there by design, not for want of an id. */
	WARN(!library_thread && !__atomic_exchange_n(&shared_warned, true, __ATOMIC_RELAXED),
	     "pagepool: more than %d threads use the library: the threads past that share CPU %d (correct, slower: their bottom-half sections take turns; meson -Dnr_cpus raises the limit)",
	     __PP_CPU_SHARED, __PP_CPU_SHARED);
}

/* Become "the CPU" of the shared CPU: one member at a time, from the
 * outermost bh-disable or the start of a softirq run to its end. What
 * other members queued on it meanwhile (tasklets, NAPI) is raised here. */
static void shared_enter(void)
{
	pthread_mutex_lock(&shared_lock);
	shared_held = true;
	__pp_ctx.softirq_pending |= __PP_SOFTIRQ_SHARED | pprt_softirq_shared_raised();
}

static void shared_exit(void)
{
	/* The raised bits stay: this thread's next softirq point runs what it
	 * raised, as a registered thread's would (another member may have run
	 * it first; then that finds the lists empty). */
	__pp_ctx.softirq_pending &= ~__PP_SOFTIRQ_SHARED;
	shared_held = false;
	pthread_mutex_unlock(&shared_lock);
}

/* The calling member stops being one (unregister, exit, or an id became
 * free). The last one runs the shared CPU's offline work, holding it. */
static void shared_leave(void)
{
	bool last;

	bh_region_force_end("thread leaves the shared CPU");
	pthread_mutex_lock(&cpu_lock);
	last = shared_members == 1;
	pthread_mutex_unlock(&cpu_lock);
	if (last) {
		/* Tasklets run in a softirq section (which holds the shared
		 * CPU), then the upper layers drain. A member joining
		 * meanwhile only finds the lists drained. */
		cpu_going_offline(__PP_CPU_SHARED);
	}
	pprt_rcu_thread_offline();
	pthread_mutex_lock(&cpu_lock);
	if (!--shared_members)
		cpu_disown(__PP_CPU_SHARED);
	pthread_mutex_unlock(&cpu_lock);
	shared_member = false;
	__pp_ctx.softirq_pending = 0;	/* nothing raised there is ours now */
	pthread_setspecific(exit_key, NULL);
}

void pprt_thread_mark_library(void)
{
	library_thread = true;
}

/*
 * smp_processor_id() of a thread without an id: claim a free one, or run
 * on the shared CPU (never abort: a library must not); a library thread
 * always runs there. For a member the answer is __PP_CPU_SHARED, stable
 * while it holds the shared CPU.
 */
int __pp_cpu_lazy_register(void)
{
	int cpu;

	if (shared_member)
		return __PP_CPU_SHARED;
	if (unlikely(library_thread)) {
		shared_join();
		return __PP_CPU_SHARED;
	}
	cpu = pp_thread_register(-1);
	if (likely(cpu >= 0))
		return cpu;
	shared_join();
	return __PP_CPU_SHARED;
}

/* Entering a bh-disabled region or a softirq run without an id: as above,
 * and a member takes the shared CPU for the region. */
void pprt_cpu_enter_unregistered(void)
{
	if (__pp_cpu_lazy_register() == __PP_CPU_SHARED)
		shared_enter();
}

void pprt_cpu_shared_exit(void)
{
	shared_exit();
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
	/* Registering on the way in keeps smp_processor_id() cheap inside;
	 * a member takes the shared CPU here. */
	if (unlikely(__pp_ctx.cpu < 0))
		pprt_cpu_enter_unregistered();
	pprt_rcu_read_lock();
	__pp_ctx.preempt_count += SOFTIRQ_DISABLE_OFFSET;
}

/* local_bh_enable() with something pending: softirqs to run, or the
 * shared CPU to give back. */
static noinline void bh_enable_pending(void)
{
	if ((__pp_ctx.softirq_pending & __PP_SOFTIRQ_ALL) && !in_hardirq()) {
		/* Turn the disable into "serving softirq" and run the polls. */
		__pp_ctx.preempt_count -= SOFTIRQ_DISABLE_OFFSET - SOFTIRQ_OFFSET;
		pprt_softirq_round_locked();
		__pp_ctx.preempt_count -= SOFTIRQ_OFFSET;
	} else {
		__pp_ctx.preempt_count -= SOFTIRQ_DISABLE_OFFSET;
	}
	pprt_rcu_read_unlock();
	pprt_cpu_softirq_run_end();
}

void __pp_local_bh_enable_outer(void)
{
	unsigned int sc = __pp_ctx.preempt_count & SOFTIRQ_MASK;

	if (WARN_ONCE(sc != SOFTIRQ_DISABLE_OFFSET,
		      "local_bh_enable() without matching local_bh_disable() (count %#x)",
		      __pp_ctx.preempt_count))
		return;
	if (unlikely(__pp_ctx.softirq_pending)) {
		bh_enable_pending();
		return;
	}
	__pp_ctx.preempt_count -= SOFTIRQ_DISABLE_OFFSET;
	pprt_rcu_read_unlock();
}

int pp_net_rx_action(void)
{
	int work;

	if (in_softirq())	/* softirqs do not run inside a bh-disabled region */
		return 0;
	pprt_cpu_softirq_run_begin();
	pprt_rcu_read_lock();
	__pp_ctx.preempt_count += SOFTIRQ_OFFSET;
	work = pprt_net_rx_action_locked();
	__pp_ctx.preempt_count -= SOFTIRQ_OFFSET;
	pprt_rcu_read_unlock();
	pprt_cpu_softirq_run_end();
	return work;
}

bool pp_softirq_pending(void)
{
	return (__pp_ctx.softirq_pending & __PP_SOFTIRQ_ALL) != 0;
}
