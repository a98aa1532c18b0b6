/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The telemetry server's internals: the request parser (request.c: one
 * line in, a validated request out, no I/O, so the libFuzzer target
 * tests/fuzz/fuzz_telemetry.c calls it as the server does) and the reply
 * encoders (reply.c: jansson objects in ynl's shape from the core's
 * structures). The server (server.c) owns the sockets and the thread.
 *
 * Context: none of these functions keep state or take a lock; each caller
 * owns what it passes and what it is returned.
 * Layer: telemetry.
 */
#ifndef _PP_TELEMETRY_INTERNAL_H
#define _PP_TELEMETRY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include <linux/types.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

enum pptlm_op {
	PPTLM_OP_POOL_GET,		/* "page-pool-get" */
	PPTLM_OP_STATS_GET,		/* "page-pool-stats-get" */
	PPTLM_OP_SUBSCRIBE,		/* "subscribe", group "page-pool" */
	PPTLM_OP_PROCESS_GET,		/* "process-get" */
	PPTLM_OP_HOLDERS_GET,		/* "page-pool-holders-get" */
	PPTLM_OP_NR,
};

/* The only notification group (the netdev family's "page-pool"). */
#define PPTLM_GROUP		"page-pool"

struct pptlm_request {
	enum pptlm_op op;
	bool has_seq;
	u32 seq;		/* echoed back as "seq" */
	bool has_id;		/* a do request; without it, a dump */
	u32 id;			/* 1..U32_MAX, as netlink's checks */
};

/* Room for a parse error's message. */
#define PPTLM_MSG_LEN		160

/*
 * Parse one request line (@len bytes, no newline; need not be
 * NUL-terminated). 0 and @req filled; or -EINVAL (not JSON, not an object,
 * a missing, mistyped, out-of-range or unknown attribute) or -EOPNOTSUPP
 * (an op this server does not know, or a filter it does not support) with
 * @msg saying what, and @req->has_seq/seq set when the line had a valid
 * "seq" (so the error reply can echo it).
 */
int pptlm_parse_request(const char *line, size_t len, struct pptlm_request *req,
			char *msg, size_t msg_len);

/* The kernel's name of an errno ("EINVAL"); "E?" for one it does not list. */
const char *pptlm_errno_name(int err);

/* The reply objects (new references; NULL when out of memory). */
json_t *pptlm_pool_json(const struct pp_page_pool_info *info);
json_t *pptlm_stats_json(const struct pp_page_pool_info *info,
			 const struct page_pool_stats *st);
/* {"seq":S,"error":{"errno":N,"name":"E..","msg":@msg}}; @err positive;
 * no "seq" when !@has_seq. */
json_t *pptlm_error_json(bool has_seq, u32 seq, int err, const char *msg);
/* {"seq":S,"reply":@reply}; steals @reply. */
json_t *pptlm_reply_json(bool has_seq, u32 seq, json_t *reply);
/* @obj as one compact line with its newline, malloc()ed, *@len its length
 * (without the NUL); NULL when out of memory. Does not free @obj. */
char *pptlm_dump_line(const json_t *obj, size_t *len);

#endif /* _PP_TELEMETRY_INTERNAL_H */
