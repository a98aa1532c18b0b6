/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool-ctl's lines that are more than a table cell: a holder group, a
 * notification, and the pool id argument. Pure functions over jansson
 * values and strings (no I/O), so tests/telemetry/test_ctl_format.c checks
 * them without a server.
 *
 * Layer: tools.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

/* snprintf() that keeps a running offset and stops at the end. */
static void add(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	*off = n < 0 ? len : *off + (size_t)n;
}

static long long ll_or0(json_t *obj, const char *key)
{
	json_t *j = json_object_get(obj, key);

	return json_is_integer(j) ? json_integer_value(j) : 0;
}

int ctl_fmt_holder(json_t *h, char *buf, size_t len)
{
	const char *take = json_string_value(json_object_get(h, "take-site"));
	const char *hand = json_string_value(json_object_get(h, "handoff-site"));
	long long ms = ll_or0(h, "held-for-ms");
	size_t off = 0;

	if (!json_is_object(h) || !len)
		return -EINVAL;
	if (!take)
		take = json_string_value(json_object_get(h, "take-ip"));
	add(buf, len, &off, "%lld page%s held since %s on cpu %lld, for ", ll_or0(h, "pages"),
	    ll_or0(h, "pages") == 1 ? "" : "s", take ? take : "?", ll_or0(h, "cpu"));
	/* Whole seconds as the stalled-destroy warning prints them; under
	 * 10 s a tenth tells a fresh page from one just taken. */
	if (ms >= 10000)
		add(buf, len, &off, "%lld s", ms / 1000);
	else
		add(buf, len, &off, "%.1f s", (double)ms / 1000.0);
	if (hand)
		add(buf, len, &off, ", last handed on at %s", hand);
	return off < len ? 0 : -ERANGE;
}

int ctl_fmt_event(json_t *ev, char *buf, size_t len)
{
	static const char *const keys[] = {
		"id", "ifindex", "napi-id", "inflight", "inflight-mem", "detach-time",
	};
	const char *name = json_string_value(json_object_get(ev, "name"));
	json_t *msg = json_object_get(ev, "msg");
	size_t off = 0, i;

	if (!name || !len)
		return -EINVAL;
	add(buf, len, &off, "%s", name);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(msg, keys[i]);

		if (json_is_integer(v))
			add(buf, len, &off, " %s %lld", keys[i], (long long)json_integer_value(v));
	}
	return off < len ? 0 : -ERANGE;
}

int ctl_parse_pool(const char *s, long long *id)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno || !v || v > 0xffffffffULL)
		return -EINVAL;
	*id = (long long)v;
	return 0;
}
