/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Softirq dispatch and tasklets (semantics in <linux/interrupt.h>).
 *
 * Each CPU id has a HI and a normal tasklet list, touched only by the
 * thread that owns the id (so no lock, as the kernel's per-CPU lists need
 * only interrupts off). The raised softirqs are bits in the owner's
 * __pp_ctx.softirq_pending; the bits are thread-local, the lists belong to
 * the CPU id, so a thread taking over an id re-raises what its predecessor
 * left queued (pprt_softirq_cpu_online()).
 *
 * A round runs the raised vectors in the kernel's order: HI tasklets, NET_RX
 * (NAPI), normal tasklets. pp_do_softirq() repeats rounds while handlers
 * raise more, up to the kernel's MAX_SOFTIRQ_RESTART; the outermost
 * local_bh_enable() does too for tasklets, but polls NAPI once, which is
 * what it always did, so a repolling NAPI keeps the timing the benchmarks
 * were measured with (pprt_softirq_round_locked()).
 *
 * The shared CPU's lists (<pagepool/runtime.h>) are the exception: its
 * members append to them from process context while another member runs
 * them, so they are changed under shared_vec_lock (a leaf lock: nothing is
 * called with it held); running them needs the shared CPU, as for any CPU.
 *
 * tasklet state bits are shared between CPUs (tasklet_kill() and
 * tasklet_disable() from elsewhere): the RUN bit is cleared with release
 * order and waiters read it with acquire order, so what the tasklet wrote
 * is visible to whoever saw it finish.
 */
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <linux/bug.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/processor.h>
#include <linux/smp.h>
#include <pagepool/runtime.h>

#include "runtime/runtime_internal.h"

static_assert(__PP_SOFTIRQ_HI == 1U << HI_SOFTIRQ, "HI bit");
static_assert(__PP_SOFTIRQ_NET_RX == 1U << NET_RX_SOFTIRQ, "NET_RX bit");
static_assert(__PP_SOFTIRQ_TASKLET == 1U << TASKLET_SOFTIRQ, "TASKLET bit");

/* The kernel's bound on handler rounds per do_softirq(). */
#define MAX_SOFTIRQ_RESTART	10
/* tasklet_kill() warns after waiting this long for a disabled tasklet. */
#define KILL_WARN_NS		(5ULL * 1000000000ULL)

struct tasklet_head {
	struct tasklet_struct *head;
	struct tasklet_struct **tail;	/* NULL until first use: &head */
};

static struct tasklet_head tasklet_vec[NR_CPUS];
static struct tasklet_head tasklet_hi_vec[NR_CPUS];
static pthread_mutex_t shared_vec_lock = PTHREAD_MUTEX_INITIALIZER;

static void vec_append(struct tasklet_head *h, struct tasklet_struct *t)
{
	if (!h->tail)
		h->tail = &h->head;
	t->next = NULL;
	*h->tail = t;
	h->tail = &t->next;
}

void tasklet_setup(struct tasklet_struct *t, void (*callback)(struct tasklet_struct *))
{
	t->next = NULL;
	t->state = 0;
	atomic_set(&t->count, 0);
	t->callback = callback;
	t->use_callback = true;
	t->data = 0;
}

void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long), unsigned long data)
{
	t->next = NULL;
	t->state = 0;
	atomic_set(&t->count, 0);
	t->func = func;
	t->use_callback = false;
	t->data = data;
}

/* Onto the shared CPU's list: any member, in any context. */
static noinline void shared_append(struct tasklet_head *vec, struct tasklet_struct *t,
				   unsigned int bit)
{
	pthread_mutex_lock(&shared_vec_lock);
	vec_append(&vec[__PP_CPU_SHARED], t);
	pthread_mutex_unlock(&shared_vec_lock);
	__pp_ctx.softirq_pending |= bit;
}

/* The caller's list. A thread without an id (the branch smp_processor_id()
 * has anyway) may be on the shared CPU. */
static inline void schedule_on(struct tasklet_head *vec, struct tasklet_struct *t,
			       unsigned int bit)
{
	int cpu = __pp_ctx.cpu;

	if (unlikely(cpu < 0)) {
		cpu = __pp_cpu_lazy_register();
		if (cpu == __PP_CPU_SHARED) {
			shared_append(vec, t, bit);
			return;
		}
	}
	vec_append(&vec[cpu], t);
	__pp_ctx.softirq_pending |= bit;
}

void __tasklet_schedule(struct tasklet_struct *t)
{
	schedule_on(tasklet_vec, t, __PP_SOFTIRQ_TASKLET);
}

void __tasklet_hi_schedule(struct tasklet_struct *t)
{
	schedule_on(tasklet_hi_vec, t, __PP_SOFTIRQ_HI);
}

void tasklet_unlock(struct tasklet_struct *t)
{
	__atomic_fetch_and(&t->state, ~(1UL << TASKLET_STATE_RUN), __ATOMIC_RELEASE);
}

static bool tasklet_running(const struct tasklet_struct *t)
{
	return __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) & (1UL << TASKLET_STATE_RUN);
}

void tasklet_unlock_spin_wait(struct tasklet_struct *t)
{
	while (tasklet_running(t))
		cpu_relax();
}

void tasklet_unlock_wait(struct tasklet_struct *t)
{
	/* The kernel sleeps on the state word; a yield loop is enough here
	 * (tasklets are short, and this is not a hot path). */
	while (tasklet_running(t))
		sched_yield();
}

/*
 * Run the tasklets of one list (the kernel's tasklet_action_common()): take
 * the whole list, run each enabled tasklet whose RUN bit we get, and put
 * the others (disabled, or running on another CPU) back, raising the
 * softirq again. Returns the number of callbacks run.
 */
static int tasklet_run(struct tasklet_struct *list, struct tasklet_head *h, unsigned int bit)
{
	int ran = 0;

	while (list) {
		struct tasklet_struct *t = list;

		list = list->next;
		if (tasklet_trylock(t)) {
			if (!atomic_read_acquire(&t->count)) {
				if (test_and_clear_bit(TASKLET_STATE_SCHED, &t->state)) {
					if (t->use_callback)
						t->callback(t);
					else
						t->func(t->data);
					ran++;
				} else {
					WARN_ONCE(1, "tasklet SCHED state not set: %s %p",
						  t->use_callback ? "callback" : "func",
						  t->use_callback ? (void *)t->callback
								  : (void *)t->func);
				}
				tasklet_unlock(t);
				continue;
			}
			tasklet_unlock(t);
		}
		vec_append(h, t);
		__pp_ctx.softirq_pending |= bit;
	}
	return ran;
}

static int tasklet_action(struct tasklet_head *h, unsigned int bit)
{
	struct tasklet_struct *list = h->head;

	h->head = NULL;
	h->tail = &h->head;
	return tasklet_run(list, h, bit);
}

/* The shared CPU's list, run by the member that holds it: taken under the
 * lock, run without it; the ones put back join what was appended
 * meanwhile. */
static noinline int tasklet_action_shared(struct tasklet_head *vec, unsigned int bit)
{
	struct tasklet_head *h = &vec[__PP_CPU_SHARED], back = { NULL, NULL };
	struct tasklet_struct *list;
	int ran;

	pthread_mutex_lock(&shared_vec_lock);
	list = h->head;
	h->head = NULL;
	h->tail = &h->head;
	pthread_mutex_unlock(&shared_vec_lock);
	ran = tasklet_run(list, &back, bit);
	if (back.head) {
		pthread_mutex_lock(&shared_vec_lock);
		if (!h->tail)
			h->tail = &h->head;
		*h->tail = back.head;
		h->tail = back.tail;
		pthread_mutex_unlock(&shared_vec_lock);
	}
	return ran;
}

unsigned int pprt_softirq_shared_raised(void)
{
	unsigned int bits = 0;

	pthread_mutex_lock(&shared_vec_lock);
	if (tasklet_hi_vec[__PP_CPU_SHARED].head)
		bits |= __PP_SOFTIRQ_HI;
	if (tasklet_vec[__PP_CPU_SHARED].head)
		bits |= __PP_SOFTIRQ_TASKLET;
	pthread_mutex_unlock(&shared_vec_lock);
	if (pprt_napi_shared_raised())
		bits |= __PP_SOFTIRQ_NET_RX;
	return bits;
}

/* One pass over the raised vectors, @mask selecting which may run. Called
 * in a softirq section (SOFTIRQ_OFFSET held, RCU read-side). */
static int softirq_round(unsigned int mask)
{
	unsigned int pending = __pp_ctx.softirq_pending & mask & __PP_SOFTIRQ_ALL;
	int cpu = __pp_ctx.cpu, n = 0;

	__pp_ctx.softirq_pending &= ~pending;
	if (unlikely(cpu < 0)) {
		/* A member: it holds the shared CPU (softirq sections take it). */
		if (pending & __PP_SOFTIRQ_HI)
			n += tasklet_action_shared(tasklet_hi_vec, __PP_SOFTIRQ_HI);
		if (pending & __PP_SOFTIRQ_NET_RX)
			n += pprt_net_rx_action_locked();
		if (pending & __PP_SOFTIRQ_TASKLET)
			n += tasklet_action_shared(tasklet_vec, __PP_SOFTIRQ_TASKLET);
		return n;
	}
	if (pending & __PP_SOFTIRQ_HI)
		n += tasklet_action(&tasklet_hi_vec[cpu], __PP_SOFTIRQ_HI);
	if (pending & __PP_SOFTIRQ_NET_RX)
		n += pprt_net_rx_action_locked();
	if (pending & __PP_SOFTIRQ_TASKLET)
		n += tasklet_action(&tasklet_vec[cpu], __PP_SOFTIRQ_TASKLET);
	return n;
}

/*
 * From the outermost local_bh_enable(): one round of everything, then,
 * as the kernel's __do_softirq() restarts while handlers raise more, more
 * rounds for tasklets raised meanwhile (up to MAX_SOFTIRQ_RESTART rounds
 * in all). A NAPI raised again (one that used its whole budget) waits for
 * the next local_bh_enable() or pp_net_rx_action() instead of being
 * repolled here: the NAPI benchmarks and drivers were measured with one
 * poll round per bh-enable, and the kernel hands such a NAPI to ksoftirqd
 * soon anyway.
 */
int pprt_softirq_round_locked(void)
{
	const unsigned int tasklets = __PP_SOFTIRQ_HI | __PP_SOFTIRQ_TASKLET;
	int n = softirq_round(~0U), rounds = MAX_SOFTIRQ_RESTART - 1;

	while (unlikely(__pp_ctx.softirq_pending & tasklets) && rounds--)
		n += softirq_round(tasklets);
	return n;
}

/* Enter a softirq section from task context and run rounds of @mask. */
static int run_softirqs(unsigned int mask)
{
	int n = 0, rounds = MAX_SOFTIRQ_RESTART;

	if (in_interrupt())	/* bh disabled or in softirq: not from here */
		return 0;
	mask &= __PP_SOFTIRQ_ALL;
	pprt_cpu_softirq_run_begin();
	pprt_rcu_read_lock();
	__pp_ctx.preempt_count += SOFTIRQ_OFFSET;
	while ((__pp_ctx.softirq_pending & mask) && rounds--)
		n += softirq_round(mask);
	__pp_ctx.preempt_count -= SOFTIRQ_OFFSET;
	pprt_rcu_read_unlock();
	pprt_cpu_softirq_run_end();
	return n;
}

int pp_do_softirq(void)
{
	return run_softirqs(~0U);
}

void __pp_softirq_before_sleep(void)
{
	run_softirqs(~0U);
}

void pprt_softirq_cpu_offline(int cpu)
{
	(void)cpu;
	/* Everything raised runs here, on its CPU, NAPI polls included, as
	 * the kernel runs a dying CPU's pending softirqs: a NAPI scheduled by
	 * a thread that then exits is polled, not stranded (napi.c). Up to
	 * the kernel's restart limit: a NAPI still scheduled after that is
	 * handed over by pprt_napi_cpu_offline(). */
	run_softirqs(~0U);
}

void pprt_softirq_cpu_online(int cpu)
{
	/* NAPIs a CPU left scheduled when it went offline: a live CPU takes
	 * them (the kernel's dev_cpu_dead()). */
	pprt_napi_adopt_orphans();
	if (cpu == __PP_CPU_SHARED) {	/* members raise it as they take it */
		__pp_ctx.softirq_pending |= pprt_softirq_shared_raised();
		return;
	}
	if (tasklet_hi_vec[cpu].head)
		__pp_ctx.softirq_pending |= __PP_SOFTIRQ_HI;
	if (tasklet_vec[cpu].head)
		__pp_ctx.softirq_pending |= __PP_SOFTIRQ_TASKLET;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

void tasklet_kill(struct tasklet_struct *t)
{
	unsigned long long start = 0;
	bool warned = false;

	if (in_interrupt())
		pr_notice("Attempt to kill tasklet from interrupt\n");
	/* Owning SCHED ourselves keeps it from being scheduled meanwhile. */
	while (test_and_set_bit(TASKLET_STATE_SCHED, &t->state)) {
		/* Queued, maybe on this CPU, where only we can run it. */
		if (!in_interrupt() && (__pp_ctx.softirq_pending & __PP_SOFTIRQ_ALL))
			pp_do_softirq();
		else
			sched_yield();
		if (!warned && atomic_read(&t->count)) {
			if (!start)
				start = now_ns();
			else if (now_ns() - start > KILL_WARN_NS)
				warned = WARN(1, "tasklet_kill() waits for a tasklet that is scheduled but disabled");
		}
	}
	tasklet_unlock_wait(t);
	clear_bit(TASKLET_STATE_SCHED, &t->state);
}
