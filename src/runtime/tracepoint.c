/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The tracepoint registry (<linux/tracepoint.h>): every struct
 * pp_tracepoint that a program defines (CREATE_TRACE_POINTS) registers
 * itself here at start-up, before main(); lookups by name walk the list.
 * Registration only prepends under the lock, and entries are never
 * removed (they live in the program's data), so a walk needs the lock only
 * against a concurrent registration (a shared object loaded later).
 * Layer: runtime.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <linux/compiler.h>
#include <linux/tracepoint.h>

static pthread_mutex_t tp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pp_tracepoint *tp_list;

void __pp_tracepoint_register(struct pp_tracepoint *tp)
{
	pthread_mutex_lock(&tp_lock);
	tp->next = tp_list;
	tp_list = tp;
	pthread_mutex_unlock(&tp_lock);
}

/* The tracepoint called @name, or NULL with *@err set (-EINVAL for a
 * NULL @name, -ENOENT for none of that name). */
static struct pp_tracepoint *tp_find(const char *name, int *err)
{
	struct pp_tracepoint *tp;

	*err = -EINVAL;
	if (!name)
		return NULL;
	pthread_mutex_lock(&tp_lock);
	for (tp = tp_list; tp; tp = tp->next)
		if (!strcmp(tp->name, name))
			break;
	pthread_mutex_unlock(&tp_lock);
	*err = tp ? 0 : -ENOENT;
	return tp;
}

int pp_tracepoint_enable(const char *name, pp_trace_probe_t probe, void *data)
{
	int err;
	struct pp_tracepoint *tp = tp_find(name, &err);

	if (!tp)
		return err;
	/* Off while the probe changes, so that a hit sees a probe and its
	 * data that belong together (a hit already past the enabled test
	 * may still see the old pair: the caller's probe must stay valid
	 * until the tracepoint is quiet). */
	__atomic_store_n(&tp->enabled, 0, __ATOMIC_RELEASE);
	WRITE_ONCE(tp->probe_data, data);
	WRITE_ONCE(tp->probe, probe);
	__atomic_store_n(&tp->hits, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&tp->enabled, 1, __ATOMIC_RELEASE);
	return 0;
}

int pp_tracepoint_disable(const char *name)
{
	int err;
	struct pp_tracepoint *tp = tp_find(name, &err);

	if (!tp)
		return err;
	__atomic_store_n(&tp->enabled, 0, __ATOMIC_RELEASE);
	return 0;
}

long pp_tracepoint_hits(const char *name)
{
	int err;
	struct pp_tracepoint *tp = tp_find(name, &err);

	if (!tp)
		return err;
	return (long)__atomic_load_n(&tp->hits, __ATOMIC_RELAXED);
}

void __pp_tracepoint_emit(struct pp_tracepoint *tp, const void *record, const char *line)
{
	pp_trace_probe_t probe = READ_ONCE(tp->probe);

	__atomic_fetch_add(&tp->hits, 1, __ATOMIC_RELAXED);
	if (probe)
		probe(READ_ONCE(tp->probe_data), tp->name, record, line);
}
