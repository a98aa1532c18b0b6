/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool-ctl's side of the telemetry protocol: where the sockets are,
 * connecting to one, and one request and its reply as newline-delimited
 * JSON lines (jansson parses and builds them; nothing here reads JSON by
 * hand). Blocking sockets with poll() for the reply's deadline: the tool
 * has one conversation at a time. Single-threaded.
 *
 * Layer: tools.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* strerrorname_np() */
#endif
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ctl.h"

const char *ctl_errname(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "E?";
}

static void set_error(struct ctl_conn *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_error(struct ctl_conn *c, int err, const char *fmt, ...)
{
	va_list ap;

	c->error.err = err;
	c->error.from_server = false;
	snprintf(c->error.name, sizeof(c->error.name), "%s", ctl_errname(err));
	va_start(ap, fmt);
	vsnprintf(c->error.msg, sizeof(c->error.msg), fmt, ap);
	va_end(ap);
}

int ctl_socket_dir(const char *opt, char *buf, size_t len)
{
	const char *env = getenv("PAGEPOOL_TELEMETRY_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (opt && *opt)
		n = snprintf(buf, len, "%s", opt);
	else if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/pagepool", xdg);
	else
		n = snprintf(buf, len, "/tmp/pagepool-%u", (unsigned int)getuid());
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int ctl_scan_dir(const char *dir, pid_t **pids)
{
	size_t n = 0, cap = 0;
	struct dirent *de;
	pid_t *v = NULL;
	DIR *d;

	*pids = NULL;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		char *end;
		long pid;

		errno = 0;
		pid = strtol(de->d_name, &end, 10);
		if (end == de->d_name || strcmp(end, ".sock") || pid <= 0 || errno)
			continue;
		if (n == cap) {
			pid_t *nv = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n++] = (pid_t)pid;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_pid);
	*pids = v;
	return (int)n;
}

int ctl_connect(struct ctl_conn *c, const char *dir, pid_t pid)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int n, err;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->pid = pid;
	n = snprintf(c->path, sizeof(c->path), "%s/%d.sock", dir, (int)pid);
	if (n < 0 || (size_t)n >= sizeof(sa.sun_path)) {
		set_error(c, ENAMETOOLONG, "socket path %s/%d.sock is too long", dir, (int)pid);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, c->path, (size_t)n + 1);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		err = errno;
		set_error(c, err, "socket: %s", strerror(err));
		return -err;
	}
	if (connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = errno;
		set_error(c, err, "connect %s: %s", c->path, strerror(err));
		close(c->fd);
		c->fd = -1;
		return -err;
	}
	return 0;
}

void ctl_close(struct ctl_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->buf);
	c->buf = NULL;
	c->len = c->cap = 0;
}

int ctl_send(struct ctl_conn *c, json_t *req)
{
	char *line;
	size_t len, off = 0;
	int err = 0;

	if (!req) {
		set_error(c, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	line = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (!line) {
		set_error(c, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	len = strlen(line);
	line[len++] = '\n';	/* json_dumps()'s NUL: the line's end */
	while (off < len) {
		ssize_t w = send(c->fd, line + off, len - off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			err = errno;
			set_error(c, err, "send to %s: %s", c->path, strerror(err));
			break;
		}
		off += (size_t)w;
	}
	free(line);
	return -err;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int ctl_read_msg(struct ctl_conn *c, json_t **msg, int timeout_ms, char *raw, size_t rawlen)
{
	long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	json_error_t jerr;
	char *nl;

	*msg = NULL;
	while (!(nl = c->len ? memchr(c->buf, '\n', c->len) : NULL)) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		int wait = -1;
		ssize_t r;

		if (deadline >= 0) {
			long long left = deadline - now_ms();

			if (left <= 0) {
				set_error(c, ETIMEDOUT, "no reply from process %d within %d ms",
					  (int)c->pid, timeout_ms);
				return -ETIMEDOUT;
			}
			wait = (int)left;
		}
		r = poll(&pfd, 1, wait);
		if (r < 0 && errno == EINTR) {
			set_error(c, EINTR, "interrupted");
			return -EINTR;
		}
		if (r <= 0)
			continue;
		if (c->cap - c->len < 4096) {
			size_t cap = c->cap ? 2 * c->cap : 65536;

			/* A reply line longer than any server sends (a dump of
			 * 4096 pools is about 1 MiB): a broken or hostile peer,
			 * not something to hold in memory. */
			if (cap > CTL_MAX_REPLY) {
				set_error(c, EMSGSIZE, "process %d sent a line longer than %d MiB",
					  (int)c->pid, CTL_MAX_REPLY >> 20);
				return -EMSGSIZE;
			}
			char *nb = realloc(c->buf, cap);

			if (!nb) {
				set_error(c, ENOMEM, "out of memory");
				return -ENOMEM;
			}
			c->buf = nb;
			c->cap = cap;
		}
		r = read(c->fd, c->buf + c->len, c->cap - c->len);
		if (r < 0 && errno == EINTR) {
			set_error(c, EINTR, "interrupted");
			return -EINTR;
		}
		if (r < 0 && errno != ECONNRESET) {
			int err = errno;

			set_error(c, err, "read from %s: %s", c->path, strerror(err));
			return -err;
		}
		if (r <= 0) {
			set_error(c, ECONNRESET, "process %d closed the connection",
				  (int)c->pid);
			return -ECONNRESET;
		}
		c->len += (size_t)r;
	}
	*nl = '\0';
	if (raw)
		snprintf(raw, rawlen, "%s", c->buf);
	*msg = json_loadb(c->buf, (size_t)(nl - c->buf), 0, &jerr);
	c->len -= (size_t)(nl + 1 - c->buf);
	memmove(c->buf, nl + 1, c->len);
	if (!*msg || !json_is_object(*msg)) {
		json_decref(*msg);
		*msg = NULL;
		set_error(c, EBADMSG, "process %d sent a line that is not a JSON object: %s",
			  (int)c->pid, jerr.text);
		return -EBADMSG;
	}
	return 0;
}

/* An error reply's object into c->error. */
static void take_server_error(struct ctl_conn *c, json_t *error)
{
	json_t *no = json_object_get(error, "errno");
	const char *name = json_string_value(json_object_get(error, "name"));
	const char *msg = json_string_value(json_object_get(error, "msg"));

	c->error.err = json_is_integer(no) ? (int)json_integer_value(no) : EPROTO;
	c->error.from_server = true;
	snprintf(c->error.name, sizeof(c->error.name), "%s",
		 name ? name : ctl_errname(c->error.err));
	snprintf(c->error.msg, sizeof(c->error.msg), "%s", msg ? msg : "");
}

json_t *ctl_request(struct ctl_conn *c, json_t *req)
{
	unsigned int seq = ++c->seq;
	json_t *msg, *reply, *error, *s;
	int err;

	if (!req || json_object_set_new(req, "seq", json_integer(seq))) {
		json_decref(req);
		set_error(c, ENOMEM, "out of memory");
		return NULL;
	}
	err = ctl_send(c, req);
	/* A server that refuses us writes its error line and closes, maybe
	 * before our request got there: read that line before giving up. */
	if (err && err != -EPIPE && err != -ECONNRESET)
		return NULL;
	for (;;) {
		if (ctl_read_msg(c, &msg, CTL_REPLY_TIMEOUT_MS, NULL, 0)) {
			if (err)
				set_error(c, -err, "send to %s: %s", c->path, strerror(-err));
			return NULL;
		}
		s = json_object_get(msg, "seq");
		error = json_object_get(msg, "error");
		/* The peer check's refusal comes before any request is read:
		 * it has no seq. Notifications have a name and no seq. */
		if (error && (!s || json_integer_value(s) == seq)) {
			take_server_error(c, error);
			json_decref(msg);
			return NULL;
		}
		if (s && json_integer_value(s) == seq)
			break;
		json_decref(msg);
	}
	reply = json_object_get(msg, "reply");
	if (!reply) {
		json_decref(msg);
		set_error(c, EBADMSG, "process %d sent a reply without \"reply\"", (int)c->pid);
		return NULL;
	}
	json_incref(reply);
	json_decref(msg);
	return reply;
}

json_t *ctl_op(struct ctl_conn *c, const char *op, const char *attr, long long val)
{
	json_t *req = json_pack("{s:s}", "op", op);

	if (req && attr && json_object_set_new(req, attr, json_integer(val))) {
		json_decref(req);
		req = NULL;
	}
	return ctl_request(c, req);
}
