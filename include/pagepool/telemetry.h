/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The telemetry server: a thread of the process that answers the netdev
 * netlink family's page-pool requests (page-pool-get, page-pool-stats-get,
 * the page-pool notification group) on a unix socket, one JSON object per
 * line in ynl's shape, so that a pool can be looked at from outside the
 * process (tools/pagepool-ctl). The protocol, the limits and the security
 * model are in docs/TELEMETRY.md.
 *
 * Context: any thread, not from a page_pool callback or with the
 * registry's lock held (pp_page_pool_for_each()'s callback). Start and stop
 * are serialised internally. The server never blocks on a client.
 *
 * Built when jansson is available (meson -Dtelemetry=auto|enabled,
 * CONFIG_PAGEPOOL_TELEMETRY); without it the functions exist and return
 * -EOPNOTSUPP.
 *
 * Environment: PAGEPOOL_TELEMETRY=1 starts the server at the first
 * page_pool_create() of the process, PAGEPOOL_TELEMETRY_DIR overrides the
 * socket directory.
 * Layer: telemetry.
 */
#ifndef _PAGEPOOL_TELEMETRY_H
#define _PAGEPOOL_TELEMETRY_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest request line the server reads, without its newline. */
#define PP_TELEMETRY_MAX_REQUEST	65536

struct pp_telemetry_config {
	/* Socket directory; NULL: $PAGEPOOL_TELEMETRY_DIR, else
	 * $XDG_RUNTIME_DIR/pagepool, else /tmp/pagepool-<uid>. Created mode
	 * 0700; refused when it is not owned by this uid or is group or
	 * other accessible. */
	const char *dir;
	unsigned int max_clients;	/* 0: 16; at most 65536 */
	unsigned int request_timeout_ms;	/* 0: 1000 - a request must be complete within this */
};

/**
 * pp_telemetry_start() - start the telemetry server thread
 * @cfg: the socket directory and limits; NULL for the defaults
 *
 * Listens on <dir>/<pid>.sock (mode 0600) and answers the requests of
 * docs/TELEMETRY.md until pp_telemetry_stop() or the end of the process.
 *
 * Context: any thread, not under the registry's lock.
 * Return: 0; -EALREADY when it is running; -EPERM for a directory owned
 * by another uid or open to group or others; -ENAMETOOLONG for a socket
 * path longer than a sockaddr_un holds; -EADDRINUSE when a server of this
 * pid already answers there; -EEXIST when something other than a socket
 * is at that path (it is left alone); -EINVAL for max_clients above 65536; another
 * -errno of mkdir(), socket(), bind() or pthread_create(); -EOPNOTSUPP
 * without CONFIG_PAGEPOOL_TELEMETRY.
 */
int pp_telemetry_start(const struct pp_telemetry_config *cfg);
/**
 * pp_telemetry_stop() - stop the telemetry server
 *
 * Closes every connection, joins the thread and unlinks the socket.
 * Nothing when it is not running.
 *
 * Context: any thread but the server's, not under the registry's lock.
 */
void pp_telemetry_stop(void);
/**
 * pp_telemetry_socket_path() - the running server's socket path
 * @buf: receives the path, NUL-terminated
 * @len: size of @buf
 *
 * Context: any thread.
 * Return: the path's length; -ENOTCONN when the server is not running,
 * -EINVAL for a NULL @buf, -ERANGE when @len is too small, -EOPNOTSUPP
 * without CONFIG_PAGEPOOL_TELEMETRY.
 */
int pp_telemetry_socket_path(char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop
#endif /* _PAGEPOOL_TELEMETRY_H */
