/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A telemetry client for the tests: connect to the server's socket, send
 * lines, read reply lines with a deadline, parse them with jansson.
 * Context: one thread per client. Layer: tests.
 */
#ifndef PP_TLM_TEST_H
#define PP_TLM_TEST_H

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <jansson.h>

#include "test_common.h"

struct tlm_client {
	int fd;
	char buf[1 << 16];
	size_t len;
};

static inline long long tlm_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

/* 0 or -errno of connect(). */
static inline int tlm_connect_path(struct tlm_client *c, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(c, 0, sizeof(*c));
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	if (connect(c->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(c->fd);
		c->fd = -1;
		return err;
	}
	return 0;
}

static inline void tlm_close(struct tlm_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Send all of @s (no newline added). 0 or -errno. */
static inline int tlm_write(struct tlm_client *c, const char *s, size_t len)
{
	while (len) {
		ssize_t n = send(c->fd, s, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static inline int tlm_send(struct tlm_client *c, const char *line)
{
	int err = tlm_write(c, line, strlen(line));

	return err ? err : tlm_write(c, "\n", 1);
}

/*
 * The next line (without its newline), malloc()ed; NULL at end of file
 * (*@status 0), after @timeout_ms (-ETIMEDOUT) or on an error (-errno).
 */
static inline char *tlm_read_line(struct tlm_client *c, int timeout_ms, int *status)
{
	long long end = tlm_now_ms() + timeout_ms;
	int dummy;

	if (!status)
		status = &dummy;
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len), *line;
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		long long left;
		ssize_t n;

		if (nl) {
			size_t l = (size_t)(nl - c->buf);

			line = malloc(l + 1);
			memcpy(line, c->buf, l);
			line[l] = '\0';
			memmove(c->buf, nl + 1, c->len - l - 1);
			c->len -= l + 1;
			*status = 0;
			return line;
		}
		left = end - tlm_now_ms();
		if (left <= 0 || poll(&pfd, 1, (int)left) == 0) {
			*status = -ETIMEDOUT;
			return NULL;
		}
		if (c->len == sizeof(c->buf)) {
			*status = -EMSGSIZE;
			return NULL;
		}
		n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, 0);
		if (n <= 0) {
			*status = n == 0 ? 0 : -errno;
			return NULL;
		}
		c->len += (size_t)n;
	}
}

/* The next line as JSON; fails the test on a timeout, EOF or bad JSON. */
static inline json_t *tlm_read_json(struct tlm_client *c, int timeout_ms)
{
	json_error_t jerr;
	int status;
	char *line = tlm_read_line(c, timeout_ms, &status);
	json_t *j;

	if (!line)
		fail_msg("no reply line (status %d)", status);
	j = json_loads(line, 0, &jerr);
	if (!j)
		fail_msg("reply is not JSON: %s (%s)", line, jerr.text);
	free(line);
	return j;
}

/* Send @req and return the next line as JSON. */
static inline json_t *tlm_call(struct tlm_client *c, const char *req)
{
	assert_int_equal(tlm_send(c, req), 0);
	return tlm_read_json(c, 5000);
}

/* The reply's error number, 0 for a reply. */
static inline int tlm_errno(const json_t *j)
{
	json_t *e = json_object_get(j, "error");

	if (!e)
		return 0;
	return (int)json_integer_value(json_object_get(e, "errno"));
}

/* An integer member, -1 when absent. */
static inline long long tlm_int(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return v ? json_integer_value(v) : -1;
}

/* End of file comes within @timeout_ms (unread lines are skipped); true
 * if so. */
static inline bool tlm_wait_eof(struct tlm_client *c, int timeout_ms)
{
	long long end = tlm_now_ms() + timeout_ms;

	for (;;) {
		int status;
		char *line = tlm_read_line(c, (int)(end - tlm_now_ms()), &status);

		if (!line)
			return status == 0 || status == -ECONNRESET;
		free(line);
		if (tlm_now_ms() >= end)
			return false;
	}
}

#endif
