/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * CPU masks and iteration. "Possible" and "present" CPUs are all NR_CPUS
 * ids (nr_cpu_ids); "online" (and "active") ones are the ids that a live
 * thread owns right now, so cpu_online_mask changes as threads register
 * and leave: read it, like the kernel's, knowing it may change under you.
 *
 * struct cpumask is a bitmap of NR_CPUS bits, cpumask_var_t the kernel's
 * on-stack form (an array of one mask: alloc_cpumask_var() cannot fail).
 * The read side uses relaxed atomic loads, so iterating cpu_online_mask
 * while another thread registers is not a data race.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_CPUMASK_H
#define _PP_LINUX_CPUMASK_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/smp.h>
#include <linux/types.h>

#define nr_cpu_ids		NR_CPUS
#define nr_cpumask_bits		NR_CPUS
#define num_possible_cpus()	NR_CPUS
#define num_present_cpus()	NR_CPUS

#define __PP_CPUMASK_LONGS	((NR_CPUS + BITS_PER_LONG - 1) / BITS_PER_LONG)

typedef struct cpumask {
	unsigned long bits[__PP_CPUMASK_LONGS];
} cpumask_t;

typedef struct cpumask cpumask_var_t[1];

#define cpumask_bits(maskp)	((maskp)->bits)
#define to_cpumask(bitmap)	((struct cpumask *)(bitmap))

/* The bits of the last word that are CPU ids: NR_CPUS (meson -Dnr_cpus)
 * need not be a multiple of BITS_PER_LONG, and no bit past it is ever set
 * (so a full mask weighs NR_CPUS). */
#define __PP_CPUMASK_LAST_WORD						\
	((NR_CPUS % BITS_PER_LONG) ? (1UL << (NR_CPUS % BITS_PER_LONG)) - 1 : ~0UL)

#define CPU_BITS_NONE	{ [0 ... __PP_CPUMASK_LONGS - 1] = 0UL }
#if NR_CPUS <= BITS_PER_LONG
#define CPU_BITS_ALL	{ [0] = __PP_CPUMASK_LAST_WORD }
#else
#define CPU_BITS_ALL	{ [0 ... __PP_CPUMASK_LONGS - 2] = ~0UL,		\
			  [__PP_CPUMASK_LONGS - 1] = __PP_CPUMASK_LAST_WORD }
#endif
#define CPU_BITS_CPU0	{ [0] = 1UL }
#define CPU_MASK_NONE	((cpumask_t){ CPU_BITS_NONE })
#define CPU_MASK_ALL	((cpumask_t){ CPU_BITS_ALL })
#define CPU_MASK_CPU0	((cpumask_t){ CPU_BITS_CPU0 })

/* The ids owned by live threads (maintained by the runtime) and all ids. */
extern struct cpumask __pp_cpu_online_mask;
extern const struct cpumask __pp_cpu_possible_mask;
#define cpu_online_mask		((const struct cpumask *)&__pp_cpu_online_mask)
#define cpu_active_mask		cpu_online_mask
#define cpu_possible_mask	(&__pp_cpu_possible_mask)
#define cpu_present_mask	(&__pp_cpu_possible_mask)

/**
 * cpu_online() - whether a logical CPU is online
 * @cpu: the CPU id
 *
 * Online: owned by a thread (pp_thread_register(), or lazily).
 *
 * Context: any context.
 * Return: true if it is.
 */
bool cpu_online(int cpu);
/**
 * num_online_cpus() - number of online logical CPUs
 *
 * Context: any context.
 * Return: the count (pp_nr_registered_cpus()).
 */
unsigned int num_online_cpus(void);
#define cpu_active(cpu)		cpu_online(cpu)
#define cpu_possible(cpu)	((unsigned int)(cpu) < NR_CPUS)
#define cpu_present(cpu)	cpu_possible(cpu)

/* A mask with only @cpu set; the pointer stays valid for the program's
 * life. @cpu must be below nr_cpu_ids. */
/**
 * __pp_cpumask_of() - cpumask_of(): a mask with only one CPU set
 * @cpu: the CPU, below nr_cpu_ids
 *
 * Context: any context.
 * Return: the mask; the pointer stays valid for the program's life.
 */
const struct cpumask *__pp_cpumask_of(unsigned int cpu);
#define cpumask_of(cpu)		__pp_cpumask_of(cpu)

static inline unsigned long __pp_cpumask_word(const struct cpumask *m, unsigned int i)
{
	return __atomic_load_n(&m->bits[i], __ATOMIC_RELAXED);
}

/* The first set bit at or after @start, or nr_cpu_ids. */
static inline unsigned int __pp_cpumask_find(const struct cpumask *m, unsigned int start)
{
	unsigned int i = start / BITS_PER_LONG;
	unsigned long w;

	if (start >= NR_CPUS)
		return NR_CPUS;
	w = __pp_cpumask_word(m, i) & (~0UL << (start % BITS_PER_LONG));
	while (!w) {
		if (++i == __PP_CPUMASK_LONGS)
			return NR_CPUS;
		w = __pp_cpumask_word(m, i);
	}
	return i * BITS_PER_LONG + (unsigned int)__builtin_ctzl(w);
}

/* The first CPU in @m, or nr_cpu_ids if @m is empty. */
static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return __pp_cpumask_find(m, 0);
}

/* The next CPU in @m after @n (-1 for the first), or nr_cpu_ids. */
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	return __pp_cpumask_find(m, (unsigned int)(n + 1));
}

#define cpumask_any(m)		cpumask_first(m)

#define for_each_cpu(cpu, mask)						\
	for ((cpu) = -1; (cpu) = cpumask_next((cpu), (mask)), (cpu) < nr_cpu_ids;)

#define for_each_cpu_and(cpu, mask1, mask2)				\
	for_each_cpu(cpu, mask1)					\
		if (!cpumask_test_cpu((cpu), (mask2))) {} else

#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#define for_each_present_cpu(cpu)	for_each_possible_cpu(cpu)
#define for_each_online_cpu(cpu)					\
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)			\
		if (!cpu_online(cpu)) {} else

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	set_bit(cpu, m->bits);
}

static inline void __cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	__set_bit(cpu, m->bits);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	clear_bit(cpu, m->bits);
}

static inline void __cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	__clear_bit(cpu, m->bits);
}

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return (unsigned int)cpu < NR_CPUS && test_bit(cpu, m->bits);
}

static inline bool cpumask_test_and_set_cpu(int cpu, struct cpumask *m)
{
	return test_and_set_bit(cpu, m->bits);
}

static inline bool cpumask_test_and_clear_cpu(int cpu, struct cpumask *m)
{
	return test_and_clear_bit(cpu, m->bits);
}

static inline void cpumask_clear(struct cpumask *m)
{
	unsigned int i;

	for (i = 0; i < __PP_CPUMASK_LONGS; i++)
		m->bits[i] = 0;
}

static inline void cpumask_setall(struct cpumask *m)
{
	int i;	/* signed: with one word the loop below is empty */

	for (i = 0; i < (int)__PP_CPUMASK_LONGS - 1; i++)
		m->bits[i] = ~0UL;
	m->bits[i] = __PP_CPUMASK_LAST_WORD;
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	unsigned int i;

	for (i = 0; i < __PP_CPUMASK_LONGS; i++)
		dst->bits[i] = __pp_cpumask_word(src, i);
}

/* dst = a & b; returns true if the result is not empty. */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a,
			       const struct cpumask *b)
{
	unsigned long any = 0;
	unsigned int i;

	for (i = 0; i < __PP_CPUMASK_LONGS; i++)
		any |= dst->bits[i] = __pp_cpumask_word(a, i) & __pp_cpumask_word(b, i);
	return any != 0;
}

static inline void cpumask_or(struct cpumask *dst, const struct cpumask *a,
			      const struct cpumask *b)
{
	unsigned int i;

	for (i = 0; i < __PP_CPUMASK_LONGS; i++)
		dst->bits[i] = __pp_cpumask_word(a, i) | __pp_cpumask_word(b, i);
}

/* dst = a & ~b; returns true if the result is not empty. */
static inline bool cpumask_andnot(struct cpumask *dst, const struct cpumask *a,
				  const struct cpumask *b)
{
	unsigned long any = 0;
	unsigned int i;

	for (i = 0; i < __PP_CPUMASK_LONGS; i++)
		any |= dst->bits[i] = __pp_cpumask_word(a, i) & ~__pp_cpumask_word(b, i);
	return any != 0;
}

static inline bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	unsigned int i;

	for (i = 0; i < __PP_CPUMASK_LONGS; i++)
		if (__pp_cpumask_word(a, i) != __pp_cpumask_word(b, i))
			return false;
	return true;
}

static inline bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{
	unsigned int i;

	for (i = 0; i < __PP_CPUMASK_LONGS; i++)
		if (__pp_cpumask_word(a, i) & __pp_cpumask_word(b, i))
			return true;
	return false;
}

/* Every CPU of @a is in @b. */
static inline bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
	unsigned int i;

	for (i = 0; i < __PP_CPUMASK_LONGS; i++)
		if (__pp_cpumask_word(a, i) & ~__pp_cpumask_word(b, i))
			return false;
	return true;
}

static inline bool cpumask_empty(const struct cpumask *m)
{
	return cpumask_first(m) >= NR_CPUS;
}

static inline bool cpumask_full(const struct cpumask *m)
{
	int i;

	for (i = 0; i < (int)__PP_CPUMASK_LONGS - 1; i++)
		if (~__pp_cpumask_word(m, (unsigned int)i))
			return false;
	return __pp_cpumask_word(m, (unsigned int)i) == __PP_CPUMASK_LAST_WORD;
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < __PP_CPUMASK_LONGS; i++)
		n += (unsigned int)__builtin_popcountl(__pp_cpumask_word(m, i));
	return n;
}

/* On-stack cpumask_var_t: nothing to allocate, so these cannot fail. */
static inline bool alloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	(void)mask;
	(void)flags;
	return true;
}

static inline bool zalloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	(void)flags;
	cpumask_clear(*mask);
	return true;
}

#define alloc_cpumask_var_node(mask, flags, node)	alloc_cpumask_var(mask, flags)
#define zalloc_cpumask_var_node(mask, flags, node)	zalloc_cpumask_var(mask, flags)

static inline void free_cpumask_var(cpumask_var_t mask)
{
	(void)mask;
}

#pragma GCC visibility pop
#endif /* _PP_LINUX_CPUMASK_H */
