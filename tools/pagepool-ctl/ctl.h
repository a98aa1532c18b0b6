/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool-ctl's pieces shared between its files: finding the telemetry
 * sockets of this user's pagepool processes, one connection to one of
 * them, and a request/reply over it (newline-delimited JSON, parsed and
 * built with jansson). The program is single-threaded; nothing here
 * locks. It talks to the socket only: it does not link libpagepool.
 *
 * Layer: tools.
 */
#ifndef PAGEPOOL_CTL_H
#define PAGEPOOL_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

/* How long a reply may take. The server answers from its own thread at
 * once; a dump of thousands of pools is still far below this. */
#define CTL_REPLY_TIMEOUT_MS	5000
/* The longest reply line read; a longer one is an error (EMSGSIZE). */
#define CTL_MAX_REPLY		(64 << 20)

/* The server's error object, or a local failure dressed the same way. */
struct ctl_error {
	int err;		/* positive errno */
	char name[32];		/* "ENOENT" */
	char msg[256];		/* the server's text, or ours */
	bool from_server;	/* an error reply, not a local failure */
};

struct ctl_conn {
	int fd;
	pid_t pid;
	char path[108];		/* sizeof(sun_path) */
	char *buf;		/* bytes read, not yet consumed */
	size_t len, cap;
	unsigned int seq;
	struct ctl_error error;	/* the last failure */
};

/* The socket directory: @opt (--dir), else $PAGEPOOL_TELEMETRY_DIR, else
 * $XDG_RUNTIME_DIR/pagepool, else /tmp/pagepool-<uid>. 0 or -ENAMETOOLONG. */
int ctl_socket_dir(const char *opt, char *buf, size_t len);

/* The pids that have a "<pid>.sock" in @dir, ascending; *pids malloc()ed.
 * Returns their number (0 when @dir does not exist) or -errno. */
int ctl_scan_dir(const char *dir, pid_t **pids);

/* Connect to @pid's socket in @dir. 0, or -errno with c->error set:
 * -ENOENT no socket, -ECONNREFUSED nobody listens (a stale socket),
 * -EACCES not ours. */
int ctl_connect(struct ctl_conn *c, const char *dir, pid_t pid);
void ctl_close(struct ctl_conn *c);

/* Send @req (stolen; "seq" is added) and wait for its reply. Returns the
 * reply's "reply" member (a new reference) or NULL with c->error set: an
 * error reply, a timeout, a closed connection or bad JSON from the server.
 * Lines that are notifications are skipped. */
json_t *ctl_request(struct ctl_conn *c, json_t *req);

/* ctl_request() of {"op": @op} with an optional integer attribute. */
json_t *ctl_op(struct ctl_conn *c, const char *op, const char *attr, long long val);

/* Send @req (stolen) without waiting. 0 or -errno. */
int ctl_send(struct ctl_conn *c, json_t *req);

/* The next line from the server, parsed, into *msg (a new reference), and
 * its raw text into @raw (NUL-terminated, truncated at @rawlen) when
 * non-NULL. @timeout_ms < 0 waits for ever. 0, -ETIMEDOUT, -EINTR (a
 * signal), -ECONNRESET (the server closed), -EBADMSG (not JSON). */
int ctl_read_msg(struct ctl_conn *c, json_t **msg, int timeout_ms, char *raw, size_t rawlen);

/* format.c. A holder group of page-pool-holders-get as one line, "1389
 * pages held since SITE on cpu 1, for 61 s[, last handed on at SITE]";
 * a notification as "page-pool-add-ntf id 5 ifindex 2 ..." (the attributes
 * it has, in page-pool-get's order). 0, -EINVAL (not a holder object / no
 * notification name), -ERANGE (truncated to @len). */
int ctl_fmt_holder(json_t *h, char *buf, size_t len);
int ctl_fmt_event(json_t *ev, char *buf, size_t len);
/* A pool id argument, 1 .. U32_MAX in decimal. 0 or -EINVAL. */
int ctl_parse_pool(const char *s, long long *id);

/* The errno's name ("ENOENT"), "E?" when unknown. */
const char *ctl_errname(int err);

#endif /* PAGEPOOL_CTL_H */
