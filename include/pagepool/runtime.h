/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool's own runtime calls: the userspace stand-ins for what the kernel
 * gets from its environment (CPUs, softirq context, printk, WARN counters,
 * fault injection). Kernel-named APIs live at their kernel header paths;
 * everything here carries the pp_ prefix and returns 0 / a value or -errno.
 * Layer: runtime.
 */
#ifndef _PAGEPOOL_RUNTIME_H
#define _PAGEPOOL_RUNTIME_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <generated/autoconf.h>
#include <linux/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Logical CPUs. A "CPU" is a registered thread; at most one live thread owns
 * a CPU id at a time, so per-CPU data is touched by one thread only (as in
 * the kernel, where a CPU runs one context at a time). Threads that use the
 * library without registering are registered lazily with a free id.
 * The ids are the application's: the library's own threads (the work
 * queue's worker that runs deferred releases after page_pool_destroy(),
 * the call_rcu() callback thread, the telemetry server) never take one,
 * they run on the shared CPU below (smp_processor_id() answers
 * PP_CPU_SHARED there), so pp_thread_register(N) of an id the application
 * did not use never fails because of them. Threads the application creates
 * through the runtime (kthread_run() and the rest) are the application's
 * and are given ids as any other thread.
 *
 * PP_NR_CPUS ids (meson -Dnr_cpus, CONFIG_NR_CPUS; default 256). Ids 0 ..
 * PP_NR_CPUS - 2 are owned by one thread each. The last, PP_CPU_SHARED, is
 * the shared CPU: threads that use the library when every other id is
 * taken run on it together, correctly but slower, and the first one that
 * does gets a one-time WARN ("more than N threads use the library"). No
 * abort: the library keeps working with any number of threads.
 *
 * How the shared CPU stays correct - per-CPU data assumes one thread per
 * id, so the threads on it must never use its data at the same time:
 *   - Where the kernel disables bottom halves (local_bh_disable(), softirq:
 *     NAPI polls, tasklets; pp_net_rx_action(), pp_do_softirq()), a thread
 *     on the shared CPU first takes the shared CPU's lock and gives it back
 *     at the outermost local_bh_enable(): one of them at a time is "on the
 *     CPU" with bottom halves off, so napi-local recycling, per-CPU pools
 *     and everything else bh-protected see one context, as the kernel's CPU
 *     runs one. Such a region must not wait for another thread's
 *     bh-disabled work (the kernel forbids sleeping there anyway).
 *   - Outside those regions the library's per-CPU fast paths never touch
 *     the shared CPU's data: the page allocator takes and gives pages in
 *     the zone under its lock instead of a per-CPU list; page_pool puts
 *     go to the pool's shared ring (locked) instead of a per-CPU lane;
 *     this_cpu_*() on the shared CPU's copy is an atomic operation;
 *     tasklet_schedule() and napi_schedule() append to its lists under a
 *     lock of their own.
 *   - Registered threads pay nothing: they never have a negative id, and
 *     every one of these cases is reached through the branch that already
 *     handled a thread without one (lazy registration), or a slow path.
 * The library's threads are members from their first use of a CPU id on,
 * without the WARN; pp_nr_registered_cpus() counts the shared CPU as one
 * then. They serialise their bottom-half regions with the other members'.
 * A thread on the shared CPU keeps it until it exits or unregisters;
 * pp_thread_register() may move it to an id that has become free.
 */
#define PP_NR_CPUS	CONFIG_NR_CPUS
#define PP_CPU_SHARED	(PP_NR_CPUS - 1)

/**
 * pp_thread_register() - make the calling thread a logical CPU
 * @cpu: the CPU id to claim, or -1 for the lowest free one
 *
 * Registering the same id twice is a no-op. A thread that uses the library
 * without registering is registered lazily with a free id.
 *
 * Context: any thread.
 * Return: the CPU id; -EBUSY if @cpu is owned by another thread (or the
 * caller is on the shared CPU inside a bottom-half-disabled region);
 * -EINVAL if out of range (PP_CPU_SHARED included: no thread owns it);
 * -EEXIST if this thread already owns a different CPU; -ENOSPC if every id
 * is taken (the library still works for the thread: it runs on the shared
 * CPU, see above).
 */
int pp_thread_register(int cpu);

/**
 * pp_thread_unregister() - give the calling thread's CPU id back
 *
 * Leaves the shared CPU for a thread on it, and drains the CPU's per-CPU
 * page lists. Runs automatically when a registered thread exits. The
 * softirqs still raised on the CPU run first, NAPI polls included (as the
 * kernel runs a dying CPU's); a NAPI that is still scheduled after that is
 * handed over to the next thread that takes a CPU id, or polled by its
 * napi_disable() (a WARN says so): napi_disable() never waits for a CPU
 * that went away.
 *
 * Context: process context, bottom halves enabled. If they are not (or the
 * thread exits so): a WARN, and the region is ended as by local_bh_enable()
 * before the softirqs run.
 */
void pp_thread_unregister(void);

/**
 * pp_thread_pin() - pin the calling thread to a host CPU
 * @host_cpu: the host CPU (sched_setaffinity()); independent of the
 *	logical CPU id
 *
 * Context: any thread.
 * Return: 0 or -errno.
 */
int pp_thread_pin(int host_cpu);

/**
 * pp_nr_registered_cpus() - logical CPU ids owned by threads now
 *
 * The shared CPU counts as one while any thread runs on it.
 *
 * Context: any thread.
 * Return: the number of ids.
 */
int pp_nr_registered_cpus(void);

/*
 * Softirq / NAPI. napi_schedule() puts a NAPI on the calling CPU's poll
 * list; the list runs when the outermost local_bh_enable() finds work
 * pending, or when the thread calls pp_net_rx_action(). Returns the total
 * work done by the polls that ran (NAPI only: tasklets wait for the next
 * softirq point, see <linux/interrupt.h>).
 */
/**
 * pp_net_rx_action() - run the calling CPU's NAPI poll list now
 *
 * The list also runs when the outermost local_bh_enable() finds work
 * pending. Tasklets wait for the next softirq point (<linux/interrupt.h>).
 *
 * Context: a registered thread, process context.
 * Return: the total work done by the polls that ran.
 */
int pp_net_rx_action(void);

/**
 * pp_do_softirq() - run the softirqs raised on the calling CPU
 *
 * HI tasklets, NAPI polls and tasklets, in a softirq section, again while
 * handlers raise more, up to the kernel's 10 rounds.
 *
 * Context: process context; nothing runs when called with bottom halves
 * disabled or in softirq.
 * Return: tasklets run plus NAPI work done; 0 when nothing ran.
 */
int pp_do_softirq(void);

/**
 * pp_softirq_pending() - whether the calling CPU has softirqs raised
 *
 * Context: any thread.
 * Return: true if NAPI polls are scheduled or tasklets queued on it.
 */
bool pp_softirq_pending(void);

/**
 * pp_kthreads_running() - kthreads still running
 *
 * Context: any thread.
 * Return: the number of kthreads (<linux/kthread.h>) whose function has
 * not returned yet.
 */
unsigned int pp_kthreads_running(void);

/**
 * pp_printk_set_modname() - the module name printk() formats show
 * @name: what the default KBUILD_MODNAME (<linux/kconfig.h>) stands for;
 *	must stay valid; NULL restores the default, the program's name
 *	(program_invocation_short_name)
 *
 * The module runner sets it (<pagepool/kmod.h>).
 *
 * Context: any thread.
 */
void pp_printk_set_modname(const char *name);

/*
 * Logging, in the style of libbpf_set_print(): the library never writes to
 * stderr by itself, it calls the print callback. The default callback
 * prints levels up to LOGLEVEL_INFO to stderr (LOGLEVEL_DEBUG too when the
 * environment has PAGEPOOL_DEBUG=1). NULL silences everything.
 * @level is the kernel log level (LOGLEVEL_EMERG 0 .. LOGLEVEL_DEBUG 7).
 * Returns the previous callback.
 */
typedef int (*pp_print_fn)(int level, const char *fmt, va_list ap);
/**
 * pp_set_print() - set the library's print callback
 * @fn: called with the kernel log level (LOGLEVEL_EMERG 0 .. LOGLEVEL_DEBUG 7),
 *	a printf format and its arguments; NULL silences everything
 *
 * In the style of libbpf_set_print(): the library never writes to stderr
 * by itself. The default callback prints levels up to LOGLEVEL_INFO to
 * stderr (LOGLEVEL_DEBUG too when the environment has PAGEPOOL_DEBUG=1).
 *
 * Context: any thread.
 * Return: the previous callback.
 */
pp_print_fn pp_set_print(pp_print_fn fn);

/**
 * pp_log_debug() - whether debug-level messages are wanted
 *
 * For a print callback of the application's own that keeps the default's
 * filter.
 *
 * Context: any thread.
 * Return: true when the environment has PAGEPOOL_DEBUG=1 (read once).
 */
bool pp_log_debug(void);

/**
 * pp_warn_count() - warnings since start-up
 *
 * Context: any thread.
 * Return: the number of WARN_ON(), WARN_ON_ONCE() and WARN() that fired.
 */
unsigned long pp_warn_count(void);

/*
 * Fault injection (the kernel's fail_page_alloc / failslab /
 * ALLOW_ERROR_INJECTION). Each point is armed independently; the checks
 * cost one predicted branch when nothing is armed.
 */
enum pp_fault_point {
	PP_FAULT_PAGE_ALLOC,	/* every page taken from the page allocator */
	PP_FAULT_DMA_MAP,	/* dma_map_page_attrs() and friends */
	PP_FAULT_MP_ALLOC,	/* memory provider alloc_netmems() */
	PP_FAULT_TRACKING,	/* page_pool's internal DMA tracking records */
	PP_FAULT_KMALLOC,	/* kmalloc()/kzalloc() family */
	PP_FAULT_NR,
};

struct pp_fault_config {
	unsigned long every_nth;	/* fail calls N, 2N, 3N ... (0: off) */
	double probability;		/* fail each call with this probability (0: off) */
	unsigned long next_n;		/* fail the next N calls, then stop (0: off) */
	unsigned long skip;		/* let this many calls pass before any rule applies */
	unsigned long long seed;	/* PRNG seed for @probability (0: fixed default) */
};

/**
 * pp_fault_inject() - arm or disarm a fault injection point
 * @point: the point (enum pp_fault_point)
 * @cfg: its rules, or NULL (or an all-zero @cfg) to disarm it
 *
 * Resets the point's call counter but not its injected-fault count.
 *
 * Context: any thread.
 * Return: 0, or -EINVAL (and the point keeps its previous rules) for a
 * @point out of range or a @cfg with a field out of range: probability not
 * a number in [0, 1] (NaN, infinite, negative, above 1), a count
 * (every_nth, next_n, skip) above LONG_MAX (a negative number converted),
 * or skip / seed given without any rule.
 */
int pp_fault_inject(enum pp_fault_point point, const struct pp_fault_config *cfg);

/**
 * pp_fault_count() - faults injected at a point since start-up
 * @point: the point (enum pp_fault_point)
 *
 * Context: any thread.
 * Return: the count; 0 for a @point out of range.
 */
unsigned long pp_fault_count(enum pp_fault_point point);

/**
 * pp_fail_function_inject() - arm or disarm an injectable function (fail_function)
 * @name: a function the library marks ALLOW_ERROR_INJECTION()
 *	(<linux/error-injection.h>; pp_fail_function_name() lists them)
 * @cfg: its rules, as for pp_fault_inject(); NULL (or an all-zero @cfg)
 *	disarms it
 *
 * The kernel's fail_function (debugfs fail_function/inject): while the
 * rules say so, a call of the function returns its error value without
 * running it (NULL for EI_ETYPE_NULL), as the kernel's kprobe override
 * does. Every call counts, whichever of the library's copies serves it
 * (for page_pool_alloc_pages() the inline fast path too). Until it is
 * disarmed, calls go through the check even when the rules will fail
 * nothing more (a spent next_n), as the kernel's kprobe stays until the
 * function leaves fail_function/inject: the inline fast path then pays a
 * call.
 *
 * Context: any thread.
 * Return: 0; -ENOENT if @name is NULL or no function of that name is
 * injectable in this library; -EINVAL (and the function keeps its rules)
 * for a @cfg that pp_fault_inject() refuses; -ENOSPC past the 64th mark.
 */
int pp_fail_function_inject(const char *name, const struct pp_fault_config *cfg);

/**
 * pp_fail_function_count() - failures injected into a function since start-up
 * @name: as for pp_fail_function_inject()
 *
 * Context: any thread.
 * Return: the count; 0 for a @name that is not injectable.
 */
unsigned long pp_fail_function_count(const char *name);

/**
 * pp_fail_function_name() - the injectable functions (fail_function/injectable)
 * @i: 0, 1, ...
 *
 * Context: any thread.
 * Return: the name of the @i-th function the library marks
 * ALLOW_ERROR_INJECTION(); NULL past the last.
 */
const char *pp_fail_function_name(unsigned int i);

/* Decide whether the current call at @point fails. Called by the layers
 * that own each point; usable by memory providers outside the tree. When no
 * point is armed this is one load and a predicted branch. */
extern int __pp_fault_armed;	/* bit per armed point, and the one below */
/* In __pp_fault_armed: some injectable function is armed. */
#define __PP_FAULT_ARMED_FUNCTION	(1 << PP_FAULT_NR)
/**
 * __pp_should_fail_slow() - pp_should_fail() past its "nothing armed" test
 * @point: the point (enum pp_fault_point)
 *
 * Context: any context.
 * Return: true if the current call at @point is to fail.
 */
bool __pp_should_fail_slow(enum pp_fault_point point);

static inline bool pp_should_fail(enum pp_fault_point point)
{
	if (__builtin_expect(!READ_ONCE(__pp_fault_armed), 1))
		return false;
	return __pp_should_fail_slow(point);
}

/*
 * fork(). As with DPDK, the library is not supported in the child of a
 * process that used it: the child has none of the library's threads (the
 * workqueue worker, the call_rcu thread), and locks they held at the fork
 * stay held. A pthread_atfork() handler records the fork; in the child,
 * the first call that would wait for one of those threads
 * (pp_workqueue_run_all(), cancel_*_sync()/flush_*(), synchronize_rcu(),
 * rcu_barrier(), call_rcu()) WARNs once, through the print callback, and
 * each of them returns without waiting: synchronize_rcu() at once (the
 * caller is the only thread: a correct grace period), call_rcu() runs the
 * callback at once outside a read-side section, deferred work does not
 * run. Use the library from the forking thread only, to exec() or exit.
 */

/*
 * Time. jiffies run at HZ (1000) from CLOCK_MONOTONIC. Tests that want to
 * drive deferred work may flush it instead of sleeping.
 */
/**
 * pp_workqueue_run_all() - run every delayed work item queued now
 *
 * Whatever its expiry; waits for each to finish. For tests that drive
 * deferred work instead of sleeping.
 *
 * Context: process context.
 */
void pp_workqueue_run_all(void);

#ifdef __cplusplus
}
#endif

/**
 * pp_symbolize() - a code address of this process as "func+0x40 (file.c:212)"
 * @ip: the address (a return address, as holder tracking records them)
 * @buf: where the string goes, NUL-terminated, truncated to @len
 * @len: the size of @buf
 *
 * "func+0x40 (libx.so)" without line information, "0x7f.. (libx.so+0x123)"
 * without a symbol. Built with libdw when the build found it: the file and
 * line come from the DWARF of the module holding @ip (loaded once, and
 * reloaded on a miss, for modules loaded later), the line of the function
 * the symbol names (for inlined code, its outermost call site); else
 * dladdr(): exported symbols only, no line. The offset is @ip's, as given;
 * symbol and line are those of @ip - 1, since a return address may be the
 * first instruction of the next line (or of the next function, after a
 * call that does not return).
 *
 * Context: any thread (a mutex); slow, for reports.
 * Return: the string's length (what it would be untruncated); -EINVAL for
 * a zero @ip, a NULL @buf or a zero @len, -ENOENT when nothing maps @ip.
 */
int pp_symbolize(unsigned long ip, char *buf, size_t len);

#pragma GCC visibility pop
#endif /* _PAGEPOOL_RUNTIME_H */
