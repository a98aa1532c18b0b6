/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* An events header written as the kernel's are, for test_tracepoint.c. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM pp_test

#if !defined(_TRACE_PP_TEST_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_PP_TEST_H

#include <linux/tracepoint.h>

TRACE_EVENT(pp_test_event,

	TP_PROTO(int a, unsigned long b),

	TP_ARGS(a, b),

	TP_STRUCT__entry(
		__field(int,		a)
		__field(unsigned long,	b)
		__array(char,		tag, 4)
	),

	TP_fast_assign(
		__entry->a = a;
		__entry->b = b * 2;
		memcpy(__entry->tag, "tst", 4);
	),

	TP_printk("a=%d b=%lu tag=%s", __entry->a, __entry->b, __entry->tag)
);

DECLARE_EVENT_CLASS(pp_test_class,
	TP_PROTO(int v),
	TP_ARGS(v),
	TP_STRUCT__entry(__field(int, v)),
	TP_fast_assign(__entry->v = v;),
	TP_printk("v=%d", __entry->v)
);

DEFINE_EVENT(pp_test_class, pp_test_one, TP_PROTO(int v), TP_ARGS(v));
DEFINE_EVENT(pp_test_class, pp_test_two, TP_PROTO(int v), TP_ARGS(v));

#endif /* _TRACE_PP_TEST_H */

#include <trace/define_trace.h>
