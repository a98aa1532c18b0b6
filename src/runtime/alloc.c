/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * kmalloc() on the C heap, and the per-CPU allocator.
 *
 * Per-CPU memory: one reservation of NR_CPUS units of PCPU_UNIT_SIZE bytes
 * (MAP_NORESERVE, so only the pages used are ever backed). An allocation
 * is an offset range inside the unit, the same for every CPU; the offset
 * ranges are managed first-fit under a mutex (allocation is rare: pool
 * create/destroy), free ranges coalesced.
 */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <pagepool/runtime.h>

void *__pp_kmalloc(size_t size, gfp_t flags)
{
	void *p;

	if (pp_should_fail(PP_FAULT_KMALLOC))
		return NULL;
	if (!size)
		size = 1;
	if (size >= L1_CACHE_BYTES) {
		if (posix_memalign(&p, L1_CACHE_BYTES, ALIGN(size, L1_CACHE_BYTES)))
			return NULL;
	} else {
		p = malloc(size);
		if (!p)
			return NULL;
	}
	if (flags & __GFP_ZERO)
		memset(p, 0, size);
	return p;
}

void kfree(const void *objp)
{
	free((void *)objp);
}

void *krealloc(const void *objp, size_t new_size, gfp_t flags)
{
	size_t old;
	void *p;

	if (!objp)
		return kmalloc(new_size, flags);
	old = malloc_usable_size((void *)objp);
	p = kmalloc(new_size, flags & ~__GFP_ZERO);
	if (!p)
		return NULL;
	memcpy(p, objp, min(old, new_size));
	if ((flags & __GFP_ZERO) && new_size > old)
		memset((char *)p + old, 0, new_size - old);
	kfree(objp);
	return p;
}

/* Per-CPU allocator. */

struct pcpu_range {
	size_t off, size;
};

#define PCPU_MAX_RANGES	4096

static pthread_mutex_t pcpu_lock = PTHREAD_MUTEX_INITIALIZER;
static char *pcpu_base;
static struct pcpu_range pcpu_free[PCPU_MAX_RANGES];	/* sorted by offset */
static int pcpu_nr_free;
static struct pcpu_range pcpu_used[PCPU_MAX_RANGES];
static int pcpu_nr_used;

static int pcpu_init_locked(void)
{
	void *p;

	if (pcpu_base)
		return 0;
	p = mmap(NULL, (size_t)NR_CPUS << PCPU_UNIT_SHIFT, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	pcpu_base = p;
	pcpu_free[0] = (struct pcpu_range){ 0, PCPU_UNIT_SIZE };
	pcpu_nr_free = 1;
	return 0;
}

void __percpu *__alloc_percpu(size_t size, size_t align)
{
	size_t off = 0;
	int i, cpu;
	bool found = false;

	if (pp_should_fail(PP_FAULT_KMALLOC))
		return NULL;
	if (!size)
		size = 1;
	size = ALIGN(size, sizeof(long));
	if (align < sizeof(long))
		align = sizeof(long);

	pthread_mutex_lock(&pcpu_lock);
	if (pcpu_init_locked() || pcpu_nr_used == PCPU_MAX_RANGES)
		goto fail;
	for (i = 0; i < pcpu_nr_free; i++) {
		struct pcpu_range *r = &pcpu_free[i];
		size_t start = ALIGN(r->off, align);

		if (start + size > r->off + r->size)
			continue;
		off = start;
		if (start > r->off) {	/* keep the alignment gap as a free range */
			if (pcpu_nr_free == PCPU_MAX_RANGES)
				goto fail;
			memmove(&pcpu_free[i + 1], &pcpu_free[i],
				(size_t)(pcpu_nr_free - i) * sizeof(*r));
			pcpu_nr_free++;
			pcpu_free[i].size = start - r->off;
			r = &pcpu_free[++i];
			r->size -= start - r->off;
			r->off = start;
		}
		r->off += size;
		r->size -= size;
		if (!r->size) {
			memmove(&pcpu_free[i], &pcpu_free[i + 1],
				(size_t)(pcpu_nr_free - i - 1) * sizeof(*r));
			pcpu_nr_free--;
		}
		found = true;
		break;
	}
	if (!found)
		goto fail;
	pcpu_used[pcpu_nr_used++] = (struct pcpu_range){ off, size };
	pthread_mutex_unlock(&pcpu_lock);

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		memset(pcpu_base + ((size_t)cpu << PCPU_UNIT_SHIFT) + off, 0, size);
	return pcpu_base + off;
fail:
	pthread_mutex_unlock(&pcpu_lock);
	return NULL;
}

void free_percpu(void __percpu *ptr)
{
	size_t off, size;
	int i;

	if (!ptr)
		return;
	pthread_mutex_lock(&pcpu_lock);
	off = (size_t)((char *)ptr - pcpu_base);
	for (i = 0; i < pcpu_nr_used; i++)
		if (pcpu_used[i].off == off)
			break;
	if (WARN(i == pcpu_nr_used, "free_percpu(%p): not a per-CPU allocation", ptr)) {
		pthread_mutex_unlock(&pcpu_lock);
		return;
	}
	size = pcpu_used[i].size;
	pcpu_used[i] = pcpu_used[--pcpu_nr_used];

	/* Insert sorted, then merge with the neighbours. */
	for (i = 0; i < pcpu_nr_free && pcpu_free[i].off < off; i++)
		;
	memmove(&pcpu_free[i + 1], &pcpu_free[i],
		(size_t)(pcpu_nr_free - i) * sizeof(pcpu_free[0]));
	pcpu_free[i] = (struct pcpu_range){ off, size };
	pcpu_nr_free++;
	if (i + 1 < pcpu_nr_free && pcpu_free[i].off + pcpu_free[i].size == pcpu_free[i + 1].off) {
		pcpu_free[i].size += pcpu_free[i + 1].size;
		memmove(&pcpu_free[i + 1], &pcpu_free[i + 2],
			(size_t)(pcpu_nr_free - i - 2) * sizeof(pcpu_free[0]));
		pcpu_nr_free--;
	}
	if (i > 0 && pcpu_free[i - 1].off + pcpu_free[i - 1].size == pcpu_free[i].off) {
		pcpu_free[i - 1].size += pcpu_free[i].size;
		memmove(&pcpu_free[i], &pcpu_free[i + 1],
			(size_t)(pcpu_nr_free - i - 1) * sizeof(pcpu_free[0]));
		pcpu_nr_free--;
	}
	pthread_mutex_unlock(&pcpu_lock);
}
