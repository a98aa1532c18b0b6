/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Per-CPU data, laid out as the kernel's: one address range per CPU, all of
 * the same size (PCPU_UNIT_SIZE), so CPU n's copy of any per-CPU object is
 * at the same offset in unit n. That lets this_cpu_inc(p->field) work on any
 * lvalue inside a per-CPU object. Memory is reserved for every CPU id and
 * touched only for the copies that are used.
 *
 * Only the thread that owns a CPU id writes that CPU's copy, so the
 * this_cpu_*() operations are a relaxed load and store, no atomic RMW;
 * readers of other CPUs' copies (statistics) use READ_ONCE(). The shared
 * CPU's copy (<pagepool/runtime.h>) is the exception: the threads on it
 * may update it at the same time, so there this_cpu_add() and friends are
 * an atomic add. They reach it through the branch a thread without an id
 * took anyway (__pp_ctx.cpu < 0): a registered thread's operation is the
 * same load and store as before. this_cpu_ptr() gives the shared copy's
 * address like any other; code that writes through it must do so where
 * the kernel requires it, with bottom halves disabled (the shared CPU is
 * then held by one thread).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_PERCPU_H
#define _PP_LINUX_PERCPU_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <linux/types.h>

#define PCPU_UNIT_SHIFT		18
#define PCPU_UNIT_SIZE		(1UL << PCPU_UNIT_SHIFT)	/* 256 KiB per CPU */

/**
 * __alloc_percpu() - allocate per-CPU memory
 * @size: bytes per CPU
 * @align: their alignment
 *
 * Zeroed on every CPU.
 *
 * Context: process context.
 * Return: the per-CPU pointer, or NULL when the unit (PCPU_UNIT_SIZE per
 * CPU) is full or PP_FAULT_KMALLOC fires.
 */
void __percpu *__alloc_percpu(size_t size, size_t align);
/**
 * free_percpu() - free per-CPU memory
 * @ptr: what __alloc_percpu() returned; NULL is ignored
 *
 * Context: process context.
 */
void free_percpu(void __percpu *ptr);

#define alloc_percpu(type)						\
	((type __percpu *)__alloc_percpu(sizeof(type), __alignof__(type)))
#define alloc_percpu_gfp(type, gfp)	alloc_percpu(type)

#define per_cpu_ptr(ptr, cpu)						\
	((__typeof__(ptr))((char *)(ptr) + ((size_t)(cpu) << PCPU_UNIT_SHIFT)))
#define this_cpu_ptr(ptr)	per_cpu_ptr(ptr, smp_processor_id())
#define raw_cpu_ptr(ptr)	this_cpu_ptr(ptr)

#define this_cpu_read(pcp)	READ_ONCE(*this_cpu_ptr(&(pcp)))
#define this_cpu_write(pcp, val) WRITE_ONCE(*this_cpu_ptr(&(pcp)), (val))
/*
 * The shared CPU's copy gets an atomic add, and the plain add that follows
 * goes to a scratch variable: both paths then meet before the add, as
 * they did when the branch only registered the thread, so a registered
 * thread's code stays the same load, add and store.
 */
#define this_cpu_add(pcp, val)						\
do {									\
	int __pcp_cpu = __pp_ctx.cpu;					\
	__typeof__(pcp) __pcp_scratch;					\
	__typeof__(&(pcp)) __pcp_p;					\
									\
	if (unlikely(__pcp_cpu < 0)) {					\
		__pcp_cpu = __pp_cpu_lazy_register();			\
		__pcp_p = per_cpu_ptr(&(pcp), __pcp_cpu);		\
		if (__pcp_cpu == __PP_CPU_SHARED) {			\
			__atomic_fetch_add(__pcp_p, (val), __ATOMIC_RELAXED); \
			__pcp_scratch = 0;				\
			__pcp_p = &__pcp_scratch;			\
		}							\
	} else {							\
		__pcp_p = per_cpu_ptr(&(pcp), __pcp_cpu);		\
	}								\
	WRITE_ONCE(*__pcp_p, READ_ONCE(*__pcp_p) + (val));		\
} while (0)
#define this_cpu_sub(pcp, val)	this_cpu_add(pcp, -(val))
#define this_cpu_inc(pcp)	this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp)	this_cpu_add(pcp, -1)
#define __this_cpu_inc(pcp)	this_cpu_inc(pcp)
#define __this_cpu_add(pcp, v)	this_cpu_add(pcp, v)

/*
 * Static per-CPU variables (the kernel's DEFINE_PER_CPU()). The variable
 * is CPU 0's copy; CPU n's is PCPU_UNIT_SIZE * n bytes after it, the same
 * stride as __alloc_percpu() memory, so per_cpu_ptr() and the this_cpu_*()
 * operations work on both. The room for the other copies comes from the
 * linker: a program or library that defines one links with the linker
 * script configured from src/runtime/percpu.ld.in (@NR_CPUS@ set to
 * CONFIG_NR_CPUS; -Wl,-T,percpu.ld), which places section
 * .pp_percpu and reserves CONFIG_NR_CPUS units of untouched NOBITS memory
 * (64 MiB of address space for 256 CPU ids, no file space; pages are
 * faulted in only for the copies used), and defines the symbol below.
 * Each definition refers to it, so a link without the script fails (or,
 * for a shared object linked with undefined symbols allowed, its loading
 * does) rather than letting copy n overwrite whatever follows the
 * variable, and the undefined symbol's name says what is missing. The
 * installed script's path: pkg-config --variable=percpu_ldscript pagepool
 * (or pagepool-runtime, pagepool-kmod). At most PCPU_UNIT_SIZE bytes of
 * static per-CPU variables per linked object.
 */
extern char __pp_DEFINE_PER_CPU_needs_linker_script_percpu_ld[];
#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name
#define DEFINE_PER_CPU(type, name)						\
	__attribute__((section(".pp_percpu"))) __typeof__(type) name;		\
	static void *const __pp_percpu_guard_##name __attribute__((used)) =	\
		__pp_DEFINE_PER_CPU_needs_linker_script_percpu_ld
#define DEFINE_PER_CPU_ALIGNED(type, name)					\
	__attribute__((section(".pp_percpu"), aligned(SMP_CACHE_BYTES)))	\
	__typeof__(type) name;							\
	static void *const __pp_percpu_guard_##name __attribute__((used)) =	\
		__pp_DEFINE_PER_CPU_needs_linker_script_percpu_ld
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))

#pragma GCC visibility pop
#endif /* _PP_LINUX_PERCPU_H */
