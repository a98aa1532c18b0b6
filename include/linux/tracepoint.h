/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Tracepoints: the kernel's TRACE_EVENT() headers (include/trace/events/)
 * compile unchanged, and each event is a real, countable tracepoint.
 *
 * TRACE_EVENT(name, TP_PROTO(...), TP_ARGS(...), TP_STRUCT__entry(...),
 * TP_fast_assign(...), TP_printk(...)) declares, as in the kernel, an
 * inline trace_<name>(proto) and the event's record, struct
 * trace_event_raw_<name>. While the tracepoint is off, trace_<name>() is
 * one load and a predicted branch, the kernel's static-key cost in
 * spirit. Once enabled (pp_tracepoint_enable()), each call counts a hit,
 * fills the record with the event's own TP_fast_assign() code, and, if a
 * probe is attached, formats the event's TP_printk() line (what
 * /sys/kernel/tracing/trace_pipe would show) and hands record and line to
 * the probe. Tests count events and read their fields that way.
 *
 * Where the tracepoint objects live: exactly one translation unit defines
 * CREATE_TRACE_POINTS before including an events header, as in the
 * kernel. <trace/define_trace.h>, which the events header includes at its
 * end, then reads the header again to define each event's struct
 * pp_tracepoint, registered by name at program start (so a lookup works
 * across the shared objects of a program). That second read is an
 * #include "trace/events/<system>.h" from this library's header directory,
 * so an events header of the program's own must be on the program's
 * include path (-I for the directory holding trace/events/, as a kernel
 * module's Makefile adds -I$(src)), or set TRACE_INCLUDE_PATH.
 *
 * Supported inside TP_STRUCT__entry(): __field(), __field_struct() and
 * __array(); __string() and the dynamic arrays are not (no page_pool or
 * runtime event uses them), and using one is a compile error.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_TRACEPOINT_H
#define _PP_LINUX_TRACEPOINT_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/compiler.h>
#include <linux/stringify.h>
#include <linux/types.h>
#include <stdio.h>	/* snprintf() of the line formatter */

struct pp_tracepoint;

/**
 * typedef pp_trace_probe_t - a probe attached to an enabled tracepoint
 * @data: what pp_tracepoint_enable() was given
 * @name: the event's name ("page_pool_release")
 * @record: the event's struct trace_event_raw_<name>, filled
 * @line: the event's TP_printk() line, NUL-terminated
 *
 * Context: the traced code's; it must not sleep, and may run on any
 * thread that hits the event.
 */
typedef void (*pp_trace_probe_t)(void *data, const char *name, const void *record,
				 const char *line);

struct pp_tracepoint {
	const char *name;
	int enabled;			/* read on every trace_<name>() */
	unsigned long hits;		/* calls while enabled */
	pp_trace_probe_t probe;
	void *probe_data;
	struct pp_tracepoint *next;	/* the registry (src/runtime/tracepoint.c) */
};

/**
 * pp_tracepoint_enable() - turn a tracepoint on, count its hits from 0
 * @name: the event's name
 * @probe: called for every hit while it is on, or NULL to count only
 * @data: passed to @probe
 *
 * Context: any thread; a hit running on another thread while this is
 * called sees either the old or the new probe.
 * Return: 0, -EINVAL for a NULL @name, or -ENOENT if no tracepoint of that
 * name is in the program.
 */
int pp_tracepoint_enable(const char *name, pp_trace_probe_t probe, void *data);

/**
 * pp_tracepoint_disable() - turn a tracepoint off; its count is kept
 * @name: the event's name
 *
 * Context: any thread.
 * Return: 0, -EINVAL for a NULL @name, or -ENOENT.
 */
int pp_tracepoint_disable(const char *name);

/**
 * pp_tracepoint_hits() - hits since the tracepoint was last enabled
 * @name: the event's name
 *
 * Context: any thread.
 * Return: the count (0 when it was never enabled), -EINVAL for a NULL
 * @name, or -ENOENT.
 */
long pp_tracepoint_hits(const char *name);

/**
 * __pp_tracepoint_register() - add a tracepoint to the registry
 * @tp: the tracepoint, defined by <trace/define_trace.h>; it must live as
 *	long as the program
 *
 * Called at program start for each defined event; not for direct use.
 *
 * Context: any thread.
 */
void __pp_tracepoint_register(struct pp_tracepoint *tp);

/**
 * __pp_tracepoint_emit() - the slow path of a hit of an enabled tracepoint
 * @tp: the tracepoint
 * @record: the event's filled record
 * @line: its formatted line ("" when no probe was attached at the hit)
 *
 * Counts the hit and calls the probe; trace_<name>() calls it.
 *
 * Context: the traced code's.
 */
void __pp_tracepoint_emit(struct pp_tracepoint *tp, const void *record, const char *line);

#pragma GCC visibility pop
#endif /* _PP_LINUX_TRACEPOINT_H */

/* The macros of the first read of an events header, outside the guard:
 * <trace/define_trace.h> redefines them for its second read, then comes
 * back here for them (clearing __PP_TRACE_MACROS). */
#ifndef __PP_TRACE_MACROS
#define __PP_TRACE_MACROS

#define TP_PROTO(args...)	args
#define TP_ARGS(args...)	args
#define TP_CONDITION(args...)	args
#define PARAMS(args...)		args

/* The first pass: record layout, the inline hook, the line formatter. */
#define __field(type, item)		type item;
#define __field_struct(type, item)	type item;
#define __array(type, item, len)	type item[len];
#define TP_STRUCT__entry(args...)	args
#define TP_fast_assign(args...)		args
#define TP_printk(fmt, args...)		fmt, ##args

#define __PP_TRACE_LINE_MAX	256

#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)		\
	struct trace_event_raw_##call { tstruct };				\
	static inline void __pp_trace_fill_##call(struct trace_event_raw_##call *__entry, proto) \
	{ assign }								\
	static inline void __pp_trace_show_##call(char *__buf, const struct trace_event_raw_##call *__entry) \
	{ snprintf(__buf, __PP_TRACE_LINE_MAX, print); }

#define DEFINE_EVENT(template, name, proto, args)				\
	extern struct pp_tracepoint __tracepoint_##name;			\
	static inline void trace_##name(proto)					\
	{									\
		if (unlikely(READ_ONCE(__tracepoint_##name.enabled))) {		\
			struct trace_event_raw_##template __rec;		\
			char __line[__PP_TRACE_LINE_MAX];			\
										\
			__pp_trace_fill_##template(&__rec, args);		\
			__line[0] = '\0';					\
			if (READ_ONCE(__tracepoint_##name.probe))		\
				__pp_trace_show_##template(__line, &__rec);	\
			__pp_tracepoint_emit(&__tracepoint_##name, &__rec, __line); \
		}								\
	}									\
	static inline bool trace_##name##_enabled(void)				\
	{									\
		return READ_ONCE(__tracepoint_##name.enabled);			\
	}

#define DEFINE_EVENT_PRINT(template, name, proto, args, print)			\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)			\
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
			    PARAMS(assign), PARAMS(print))			\
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))

#endif /* __PP_TRACE_MACROS */
