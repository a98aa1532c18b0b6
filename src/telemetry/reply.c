/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The telemetry replies as jansson objects, in ynl's shape for the netdev
 * family (attribute names as the family's spec spells them; optional
 * attributes absent, not null), and the errno names of error replies.
 *
 * Context: any thread; no state.
 * Layer: telemetry.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/telemetry_internal.h"

const char *pptlm_errno_name(int err)
{
	switch (err) {
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	case EMSGSIZE: return "EMSGSIZE";
	case ENOENT: return "ENOENT";
	case ENOMEM: return "ENOMEM";
	case ENOBUFS: return "ENOBUFS";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EPERM: return "EPERM";
	case EIO: return "EIO";
	default: return "E?";
	}
}

/* Add, or fail the whole object: set_new steals the value even on error. */
static int add(json_t *obj, const char *key, json_t *val)
{
	return val ? json_object_set_new(obj, key, val) : -1;
}

static int add_u64(json_t *obj, const char *key, u64 v)
{
	/* json_int_t is signed 64-bit: counters past 2^63 do not exist. */
	return add(obj, key, json_integer((json_int_t)v));
}

json_t *pptlm_pool_json(const struct pp_page_pool_info *info)
{
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= add_u64(o, "id", info->id);
	if (info->has_ifindex)
		err |= add(o, "ifindex", json_integer(info->ifindex));
	if (info->has_napi_id)
		err |= add_u64(o, "napi-id", info->napi_id);
	err |= add_u64(o, "inflight", info->inflight);
	err |= add_u64(o, "inflight-mem", info->inflight_mem);
	if (info->has_detach_time)
		err |= add_u64(o, "detach-time", info->detach_time);
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *pptlm_stats_json(const struct pp_page_pool_info *info,
			 const struct page_pool_stats *st)
{
	const struct page_pool_alloc_stats *a = &st->alloc_stats;
	const struct page_pool_recycle_stats *r = &st->recycle_stats;
	json_t *o = json_object(), *in = json_object();
	int err = 0;

	if (!o || !in) {
		json_decref(o);
		json_decref(in);
		return NULL;
	}
	err |= add_u64(in, "id", info->id);
	if (info->has_ifindex)
		err |= add(in, "ifindex", json_integer(info->ifindex));
	err |= add(o, "info", in);
	err |= add_u64(o, "alloc-fast", a->fast);
	err |= add_u64(o, "alloc-slow", a->slow);
	err |= add_u64(o, "alloc-slow-high-order", a->slow_high_order);
	err |= add_u64(o, "alloc-empty", a->empty);
	err |= add_u64(o, "alloc-refill", a->refill);
	err |= add_u64(o, "alloc-waive", a->waive);
	err |= add_u64(o, "recycle-cached", r->cached);
	err |= add_u64(o, "recycle-cache-full", r->cache_full);
	err |= add_u64(o, "recycle-ring", r->ring);
	err |= add_u64(o, "recycle-ring-full", r->ring_full);
	err |= add_u64(o, "recycle-released-refcnt", r->released_refcnt);
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *with_seq(bool has_seq, u32 seq)
{
	json_t *o = json_object();

	if (o && has_seq && add_u64(o, "seq", seq)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A message may quote the client's bytes, cut anywhere (in the middle of
 * a UTF-8 sequence too): printable ASCII is kept, the rest becomes '?'. */
static json_t *ascii_string(const char *msg)
{
	char buf[PPTLM_MSG_LEN];
	size_t i;

	for (i = 0; msg && msg[i] && i < sizeof(buf) - 1; i++)
		buf[i] = msg[i] >= 0x20 && msg[i] < 0x7f ? msg[i] : '?';
	buf[i] = '\0';
	return json_string(buf);
}

json_t *pptlm_error_json(bool has_seq, u32 seq, int err, const char *msg)
{
	json_t *o = with_seq(has_seq, seq), *e = json_object();
	int bad = 0;

	if (!o || !e) {
		json_decref(o);
		json_decref(e);
		return NULL;
	}
	bad |= add(e, "errno", json_integer(err));
	bad |= add(e, "name", json_string(pptlm_errno_name(err)));
	bad |= add(e, "msg", ascii_string(msg));
	bad |= add(o, "error", e);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *pptlm_reply_json(bool has_seq, u32 seq, json_t *reply)
{
	json_t *o = with_seq(has_seq, seq);

	if (!o || add(o, "reply", reply)) {
		if (!o)
			json_decref(reply);
		json_decref(o);
		return NULL;
	}
	return o;
}

char *pptlm_dump_line(const json_t *obj, size_t *len)
{
	char *s = json_dumps(obj, JSON_COMPACT | JSON_ENSURE_ASCII), *line;
	size_t n;

	if (!s)
		return NULL;
	n = strlen(s);
	line = realloc(s, n + 2);
	if (!line) {
		free(s);
		return NULL;
	}
	line[n] = '\n';
	line[n + 1] = '\0';
	*len = n + 1;
	return line;
}
