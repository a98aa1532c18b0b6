/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Included at the end of every events header, outside its guard (as in the
 * kernel). With CREATE_TRACE_POINTS defined (one translation unit per
 * events header does that), it reads the events header once more, with
 * TRACE_EVENT() and DEFINE_EVENT() redefined to define each event's
 * struct pp_tracepoint and register it at program start
 * (<linux/tracepoint.h>). The header is found as the kernel finds it:
 * TRACE_INCLUDE_PATH / TRACE_INCLUDE_FILE if the events header sets them,
 * <trace/events/TRACE_SYSTEM.h> otherwise.
 * Layer: runtime.
 */
#ifdef CREATE_TRACE_POINTS

#undef CREATE_TRACE_POINTS	/* the second read must not come here again */

#undef TRACE_EVENT
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef DEFINE_EVENT_PRINT

/* The macro parameter is not called "name": .name is the field. */
#define __PP_TRACE_DEFINE(event)						\
	struct pp_tracepoint __tracepoint_##event = { .name = #event };		\
	static void __attribute__((constructor)) __pp_tracepoint_ctor_##event(void) \
	{									\
		__pp_tracepoint_register(&__tracepoint_##event);		\
	}
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, event, proto, args)	__PP_TRACE_DEFINE(event)
#define DEFINE_EVENT_PRINT(template, event, proto, args, print)		\
	__PP_TRACE_DEFINE(event)
#define TRACE_EVENT(event, proto, args, tstruct, assign, print)		\
	__PP_TRACE_DEFINE(event)

#ifndef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE TRACE_SYSTEM
#define __PP_UNDEF_TRACE_INCLUDE_FILE
#endif
#ifdef TRACE_INCLUDE_PATH
#define __PP_TRACE_INCLUDE(path, file)	__stringify(path/file.h)
#define __PP_TRACE_HEADER	__PP_TRACE_INCLUDE(TRACE_INCLUDE_PATH, TRACE_INCLUDE_FILE)
#else
#define __PP_TRACE_INCLUDE(file)	__stringify(trace/events/file.h)
#define __PP_TRACE_HEADER	__PP_TRACE_INCLUDE(TRACE_INCLUDE_FILE)
#endif

#define TRACE_HEADER_MULTI_READ
#include __PP_TRACE_HEADER
#undef TRACE_HEADER_MULTI_READ

#undef __PP_TRACE_HEADER
#undef __PP_TRACE_INCLUDE
#ifdef __PP_UNDEF_TRACE_INCLUDE_FILE
#undef TRACE_INCLUDE_FILE
#undef __PP_UNDEF_TRACE_INCLUDE_FILE
#endif

/* Back to the first-pass macros for any events header included later. */
#undef TRACE_EVENT
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef DEFINE_EVENT_PRINT
#undef __PP_TRACE_DEFINE
#undef TP_PROTO
#undef TP_ARGS
#undef TP_CONDITION
#undef PARAMS
#undef __field
#undef __field_struct
#undef __array
#undef TP_STRUCT__entry
#undef TP_fast_assign
#undef TP_printk
#undef __PP_TRACE_LINE_MAX
#undef __PP_TRACE_MACROS
#include <linux/tracepoint.h>

#endif /* CREATE_TRACE_POINTS */
