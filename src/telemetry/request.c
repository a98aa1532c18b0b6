/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The telemetry request parser: one line of JSON to a validated struct
 * pptlm_request (telemetry_internal.h). jansson parses; this file checks
 * the shape as the netdev family's policy does (strict: an attribute the
 * op does not take is an error, ids are 1..U32_MAX) and names the first
 * thing wrong in the message. No I/O, no state: the fuzz target
 * tests/fuzz/fuzz_telemetry.c calls it directly.
 *
 * Context: any thread; re-entrant.
 * Layer: telemetry.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "telemetry/telemetry_internal.h"

/* Which attributes each op takes. */
#define ATTR_ID		0x1	/* top-level "id" */
#define ATTR_INFO	0x2	/* "info": {"id": N} (page-pool-stats-get) */
#define ATTR_GROUP	0x4	/* "group": "page-pool" (subscribe) */

static const struct {
	const char *name;
	unsigned int attrs;
	unsigned int required;
} ops[PPTLM_OP_NR] = {
	[PPTLM_OP_POOL_GET] = { "page-pool-get", ATTR_ID, 0 },
	[PPTLM_OP_STATS_GET] = { "page-pool-stats-get", ATTR_ID | ATTR_INFO, 0 },
	[PPTLM_OP_SUBSCRIBE] = { "subscribe", ATTR_GROUP, ATTR_GROUP },
	[PPTLM_OP_PROCESS_GET] = { "process-get", 0, 0 },
	[PPTLM_OP_HOLDERS_GET] = { "page-pool-holders-get", ATTR_ID, ATTR_ID },
};

static int fail(char *msg, size_t msg_len, int err, const char *fmt, ...)
{
	va_list ap;

	if (msg && msg_len) {
		va_start(ap, fmt);
		vsnprintf(msg, msg_len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* An unsigned 32-bit attribute in [min, U32_MAX]. */
static int get_u32(const json_t *v, const char *what, u32 min, u32 *out, char *msg,
		   size_t msg_len)
{
	json_int_t n;

	if (!json_is_integer(v))
		return fail(msg, msg_len, -EINVAL, "\"%s\" must be an integer", what);
	n = json_integer_value(v);
	if (n < (json_int_t)min || n > (json_int_t)U32_MAX)
		return fail(msg, msg_len, -EINVAL, "\"%s\" out of range (%u..%u)", what, min,
			    U32_MAX);
	*out = (u32)n;
	return 0;
}

static int parse_info(const json_t *info, struct pptlm_request *req, char *msg, size_t msg_len)
{
	const char *key;
	json_t *v;
	u32 id;
	int err;

	if (!json_is_object(info))
		return fail(msg, msg_len, -EINVAL, "\"info\" must be an object");
	json_object_foreach((json_t *)info, key, v) {
		if (!strcmp(key, "id")) {
			err = get_u32(v, "info.id", 1, &id, msg, msg_len);
			if (err)
				return err;
			if (req->has_id && req->id != id)
				return fail(msg, msg_len, -EINVAL,
					    "\"id\" and \"info.id\" name different pools");
			req->has_id = true;
			req->id = id;
		} else if (!strcmp(key, "ifindex")) {
			/* As the kernel's page-pool-stats-get. */
			return fail(msg, msg_len, -EOPNOTSUPP,
				    "ifindex filtering is not supported");
		} else {
			return fail(msg, msg_len, -EINVAL, "unknown attribute \"info.%.60s\"", key);
		}
	}
	if (!req->has_id)
		return fail(msg, msg_len, -EINVAL, "\"info\" without \"id\"");
	return 0;
}

int pptlm_parse_request(const char *line, size_t len, struct pptlm_request *req,
			char *msg, size_t msg_len)
{
	unsigned int seen = 0, attrs;
	json_t *root, *v, *info = NULL;
	const char *key, *op;
	json_error_t jerr;
	int err = 0, i;

	if (msg && msg_len)
		msg[0] = '\0';
	if (!req || (!line && len))
		return fail(msg, msg_len, -EINVAL, "no request");
	memset(req, 0, sizeof(*req));

	root = json_loadb(line ? line : "", len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return fail(msg, msg_len, -EINVAL, "bad JSON at column %d: %.80s", jerr.column,
			    jerr.text);
	if (!json_is_object(root)) {
		err = fail(msg, msg_len, -EINVAL, "a request is a JSON object");
		goto out;
	}

	/* "seq" first, so that every later error can echo it. */
	v = json_object_get(root, "seq");
	if (v) {
		err = get_u32(v, "seq", 0, &req->seq, msg, msg_len);
		if (err)
			goto out;
		req->has_seq = true;
	}

	v = json_object_get(root, "op");
	if (!v) {
		err = fail(msg, msg_len, -EINVAL, "no \"op\"");
		goto out;
	}
	if (!json_is_string(v)) {
		err = fail(msg, msg_len, -EINVAL, "\"op\" must be a string");
		goto out;
	}
	op = json_string_value(v);
	for (i = 0; i < PPTLM_OP_NR; i++)
		if (strlen(ops[i].name) == json_string_length(v) && !strcmp(op, ops[i].name))
			break;
	if (i == PPTLM_OP_NR) {
		err = fail(msg, msg_len, -EOPNOTSUPP, "unknown op \"%.60s\"", op);
		goto out;
	}
	req->op = i;
	attrs = ops[i].attrs;

	json_object_foreach(root, key, v) {
		if (!strcmp(key, "seq") || !strcmp(key, "op"))
			continue;
		if (!strcmp(key, "id") && (attrs & ATTR_ID)) {
			err = get_u32(v, "id", 1, &req->id, msg, msg_len);
			if (err)
				goto out;
			req->has_id = true;
			seen |= ATTR_ID;
		} else if (!strcmp(key, "info") && (attrs & ATTR_INFO)) {
			info = v;	/* after "id", whichever order the keys came in */
			seen |= ATTR_INFO;
		} else if (!strcmp(key, "group") && (attrs & ATTR_GROUP)) {
			if (!json_is_string(v) || json_string_length(v) != strlen(PPTLM_GROUP) ||
			    strcmp(json_string_value(v), PPTLM_GROUP)) {
				err = fail(msg, msg_len, -EINVAL,
					   "unknown group (the only one is \"" PPTLM_GROUP "\")");
				goto out;
			}
			seen |= ATTR_GROUP;
		} else {
			err = fail(msg, msg_len, -EINVAL, "unknown attribute \"%.60s\" for %s", key,
				   ops[i].name);
			goto out;
		}
	}
	if (info) {
		err = parse_info(info, req, msg, msg_len);
		if (err)
			goto out;
	}
	if ((seen & ops[i].required) != ops[i].required)
		err = fail(msg, msg_len, -EINVAL, "%s needs \"%s\"", ops[i].name,
			   ops[i].required & ATTR_ID ? "id" : "group");
out:
	json_decref(root);
	return err;
}
