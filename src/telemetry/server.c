/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The telemetry server (<pagepool/telemetry.h>, docs/TELEMETRY.md): one
 * thread, a listening unix socket <dir>/<pid>.sock, and up to max_clients
 * connections, all non-blocking and driven by poll(). Each connection
 * reads newline-delimited requests (request.c parses them) and gets one
 * reply line per request; a subscriber also gets the registry's events.
 *
 * Never blocked by a client: a reply is appended to the connection's
 * output buffer and written as the socket takes it; while a connection has
 * more than PPTLM_OUT_MAX bytes waiting, its requests are not read (the
 * client that does not read its replies waits for itself), and a
 * subscriber whose events push it past that is dropped. A request line
 * longer than PP_TELEMETRY_MAX_REQUEST, or not complete within the request
 * timeout, gets its error and the connection is closed. A peer of another
 * uid (SO_PEERCRED) gets EACCES and is closed before anything is read.
 *
 * Locking, in this order: srv.lock (start/stop only; never held by the
 * server thread) -> page_pools_lock (the registry; taken by the server
 * thread through pp_page_pool_for_each()/get_info() with no lock of its
 * own held) -> ntf_lock (the event queue). The registry's notify hook
 * (registry_hooks.h) runs under page_pools_lock and only queues under
 * ntf_lock and writes a byte to the wake pipe (non-blocking).
 *
 * fork(): the child has no server thread; an atfork child handler closes
 * the child's copies of the server's descriptors and forgets the parent's
 * server (the socket file is the parent's and is left alone), so the
 * child may start its own (tlm_atfork_child()).
 * Layer: telemetry.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>
#include <pagepool/runtime.h>
#include <pagepool/telemetry.h>

#include "core/registry_hooks.h"
#include "runtime/runtime_internal.h"
#include "telemetry/telemetry_internal.h"

#define PPTLM_DEFAULT_CLIENTS	16
#define PPTLM_MAX_CLIENTS	65536	/* a larger max_clients is -EINVAL */
#define PPTLM_DEFAULT_TIMEOUT_MS 1000
#define PPTLM_OUT_MAX		(1u << 20)	/* bytes waiting per connection */
#define PPTLM_NTF_MAX		65536		/* events waiting for the thread */
#define PPTLM_IN_CAP		(PP_TELEMETRY_MAX_REQUEST + 1)	/* a line and its newline */

struct client {
	int fd;
	bool subscribed;
	bool closing;		/* an error was queued: flush, then close */
	bool eof;		/* the peer sends no more: answer what came, then close */
	char *in;		/* PPTLM_IN_CAP bytes */
	size_t in_len;
	u64 partial_since;	/* ns: the first byte of the unfinished line; 0 none */
	u64 close_by;		/* ns: closing gives up flushing then */
	u64 ntf_from;		/* events with a sequence number above this */
	char *out;
	size_t out_len, out_off, out_cap;
};

struct ntf {
	struct ntf *next;
	u64 seq;
	enum ppcore_pool_event ev;
	struct pp_page_pool_info info;
};

static struct {
	pthread_mutex_t lock;	/* start/stop and the fields below it */
	bool running;
	pthread_t thread;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	/* Read by the thread, written only while it does not run. */
	int listen_fd;
	int wake[2];		/* the pipe: events queued, or stop */
	unsigned int max_clients;
	unsigned int timeout_ms;
	pid_t pid;
	uid_t uid;
	char comm[32];
	/* The thread's own. */
	struct pollfd *pfd;	/* max_clients + 2 */
	struct client *clients;
	unsigned int nr_clients;
	unsigned int nr_subscribers;
	bool stop;		/* set with srv.lock held, read by the thread */
} srv = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.listen_fd = -1,
	.wake = { -1, -1 },
};

/* The event queue (ntf_lock). */
static pthread_mutex_t ntf_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ntf *ntf_head, **ntf_tail = &ntf_head;
static unsigned int ntf_len;
static u64 ntf_seq;		/* the last event's sequence number */
static bool ntf_lost;		/* the queue overflowed since the last drain */
static bool ntf_wanted;		/* a subscriber exists (written by the thread) */

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* The registry's hook: under page_pools_lock, queue only. */
static void tlm_pool_event(enum ppcore_pool_event ev, const struct pp_page_pool_info *info)
{
	struct ntf *n;
	char c = 'n';
	ssize_t r;

	if (!READ_ONCE(ntf_wanted))
		return;
	n = malloc(sizeof(*n));
	pthread_mutex_lock(&ntf_lock);
	if (!n || ntf_len >= PPTLM_NTF_MAX) {
		ntf_lost = true;
		pthread_mutex_unlock(&ntf_lock);
		free(n);
	} else {
		n->next = NULL;
		n->seq = ++ntf_seq;
		n->ev = ev;
		n->info = *info;
		*ntf_tail = n;
		ntf_tail = &n->next;
		ntf_len++;
		pthread_mutex_unlock(&ntf_lock);
	}
	/* A full pipe already holds a wake-up. */
	r = write(srv.wake[1], &c, 1);
	(void)r;
}

static struct ntf *ntf_take_all(bool *lost, u64 *seq)
{
	struct ntf *list;

	pthread_mutex_lock(&ntf_lock);
	list = ntf_head;
	ntf_head = NULL;
	ntf_tail = &ntf_head;
	ntf_len = 0;
	*lost = ntf_lost;
	ntf_lost = false;
	if (seq)
		*seq = ntf_seq;
	pthread_mutex_unlock(&ntf_lock);
	return list;
}

static void ntf_free(struct ntf *n)
{
	while (n) {
		struct ntf *next = n->next;

		free(n);
		n = next;
	}
}

/* Connections. */

/* What a closing connection sends is read and dropped: closed with
 * unread input, the socket would end the peer's reads with ECONNRESET
 * instead of its error line and end of file. Bounded per call. */
static void client_discard_input(struct client *c)
{
	char buf[16384];
	int i;

	for (i = 0; i < 64 && !c->eof; i++) {
		ssize_t n = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n == 0)
			c->eof = true;
		if (n <= 0)
			break;
	}
}

static void client_close(struct client *c)
{
	client_discard_input(c);
	if (c->subscribed)
		srv.nr_subscribers--;
	WRITE_ONCE(ntf_wanted, srv.nr_subscribers > 0);
	close(c->fd);
	free(c->in);
	free(c->out);
	*c = srv.clients[--srv.nr_clients];
}

/* Queue @len bytes. -ENOMEM when out of memory (the connection is then
 * dropped). */
static int client_append(struct client *c, const char *buf, size_t len)
{
	size_t pending = c->out_len - c->out_off;

	if (c->out_off && c->out_len + len > c->out_cap) {
		memmove(c->out, c->out + c->out_off, pending);
		c->out_len = pending;
		c->out_off = 0;
	}
	if (c->out_len + len > c->out_cap) {
		size_t cap = max_t(size_t, 4096, c->out_cap);
		char *p;

		while (cap < c->out_len + len)
			cap *= 2;
		p = realloc(c->out, cap);
		if (!p)
			return -ENOMEM;
		c->out = p;
		c->out_cap = cap;
	}
	memcpy(c->out + c->out_len, buf, len);
	c->out_len += len;
	return 0;
}

/* Queue @obj as one line and drop the reference. */
static int client_send(struct client *c, json_t *obj)
{
	size_t len;
	char *line;
	int err;

	if (!obj)
		return -ENOMEM;
	line = pptlm_dump_line(obj, &len);
	json_decref(obj);
	if (!line)
		return -ENOMEM;
	err = client_append(c, line, len);
	free(line);
	return err;
}

static int client_error(struct client *c, bool has_seq, u32 seq, int err, const char *msg)
{
	return client_send(c, pptlm_error_json(has_seq, seq, err, msg));
}

/* An error that ends the connection: sent, then closed once written (or
 * after the timeout, if the peer does not read it). */
static void client_fatal(struct client *c, int err, const char *msg)
{
	client_error(c, false, 0, err, msg);
	c->closing = true;
	c->close_by = now_ns() + (u64)srv.timeout_ms * 1000000ull;
}

/* Write what the socket takes. -errno when the connection is gone. */
static int client_flush(struct client *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
		}
		c->out_off += (size_t)n;
	}
	c->out_off = c->out_len = 0;
	return 0;
}

static size_t client_pending(const struct client *c)
{
	return c->out_len - c->out_off;
}

/* The operations. */

struct dump {
	json_t *arr;
	struct pp_page_pool_info *infos;
	size_t nr, cap;
};

/* Under page_pools_lock: allocation only. */
static int dump_pool_cb(const struct pp_page_pool_info *info, void *arg)
{
	struct dump *d = arg;

	return json_array_append_new(d->arr, pptlm_pool_json(info)) ? -ENOMEM : 0;
}

static int collect_cb(const struct pp_page_pool_info *info, void *arg)
{
	struct dump *d = arg;

	if (d->nr == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		void *p = realloc(d->infos, cap * sizeof(*d->infos));

		if (!p)
			return -ENOMEM;
		d->infos = p;
		d->cap = cap;
	}
	d->infos[d->nr++] = *info;
	return 0;
}

static int op_pool_get(const struct pptlm_request *req, json_t **reply, char *msg, size_t len)
{
	struct pp_page_pool_info info;
	struct dump d = { 0 };
	int err;

	if (req->has_id) {
		err = pp_page_pool_get_info(req->id, &info);
		if (err) {
			snprintf(msg, len, "no pool with id %u", req->id);
			return err;
		}
		*reply = pptlm_pool_json(&info);
		return *reply ? 0 : -ENOMEM;
	}
	d.arr = json_array();
	if (!d.arr)
		return -ENOMEM;
	err = pp_page_pool_for_each(dump_pool_cb, &d);
	if (err) {
		json_decref(d.arr);
		return err;
	}
	*reply = d.arr;
	return 0;
}

static json_t *stats_of(const struct pp_page_pool_info *info, int *err)
{
	struct page_pool_stats st;

	memset(&st, 0, sizeof(st));
	*err = pp_page_pool_get_stats_by_id(info->id, &st);
	return *err ? NULL : pptlm_stats_json(info, &st);
}

static int op_stats_get(const struct pptlm_request *req, json_t **reply, char *msg, size_t len)
{
	struct pp_page_pool_info info;
	struct dump d = { 0 };
	json_t *arr, *o;
	size_t i;
	int err;

	if (!IS_ENABLED(CONFIG_PAGE_POOL_STATS)) {
		snprintf(msg, len, "the library was built without page_pool statistics");
		return -EOPNOTSUPP;
	}
	if (req->has_id) {
		err = pp_page_pool_get_info(req->id, &info);
		if (!err)
			*reply = stats_of(&info, &err);
		if (err == -ENOENT)
			snprintf(msg, len, "no pool with id %u", req->id);
		return err ? err : *reply ? 0 : -ENOMEM;
	}
	/* The ids first, the statistics after, outside the registry's lock
	 * (a pool that went in between is left out, as it would be from a
	 * dump that started later). */
	err = pp_page_pool_for_each(collect_cb, &d);
	arr = err ? NULL : json_array();
	for (i = 0; arr && i < d.nr; i++) {
		o = stats_of(&d.infos[i], &err);
		if (err == -ENOENT)
			continue;
		if (!o || json_array_append_new(arr, o)) {
			json_decref(arr);
			arr = NULL;
		}
	}
	free(d.infos);
	if (!arr)
		return err && err != -ENOENT ? err : -ENOMEM;
	*reply = arr;
	return 0;
}

static int op_process_get(json_t **reply)
{
	json_t *o = json_pack("{s:I,s:s,s:s,s:b,s:I}", "pid", (json_int_t)srv.pid,
			      "comm", srv.comm, "version", PAGEPOOL_VERSION,
			      "holders", IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS), "uid", (json_int_t)srv.uid);

	*reply = o;
	return o ? 0 : -ENOMEM;
}

/* "func+0x40 (file.c:212)", or the bare address when nothing maps it. */
static json_t *site_json(unsigned long ip)
{
	char buf[256];

	if (pp_symbolize(ip, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "%#lx", ip);
	/* A symbol is bytes of a binary: kept only if it is valid UTF-8. */
	return json_string(buf) ?: json_sprintf("%#lx", ip);
}

/* One group, symbolised as it comes: pp_page_pool_for_each_holder()
 * gives the groups biggest first and calls back with no lock held. */
static int holder_json_cb(const struct pp_page_pool_holder *h, void *arg)
{
	json_t *o = json_pack("{s:I,s:o,s:o,s:i,s:I}", "pages", (json_int_t)h->pages,
			      "take-site", site_json(h->take_ip),
			      "take-ip", json_sprintf("%#lx", h->take_ip),
			      "cpu", h->cpu,
			      "held-for-ms", (json_int_t)(h->held_ns / 1000000));

	if (o && h->handoff_ip && json_object_set_new(o, "handoff-site", site_json(h->handoff_ip))) {
		json_decref(o);
		o = NULL;
	}
	return !o || json_array_append_new(arg, o) ? -ENOMEM : 0;
}

static int op_holders_get(const struct pptlm_request *req, json_t **reply, char *msg,
			  size_t len)
{
	json_t *arr = json_array();
	int err;

	if (!arr)
		return -ENOMEM;
	err = pp_page_pool_for_each_holder(req->id, holder_json_cb, arr);
	if (err == -EOPNOTSUPP)
		snprintf(msg, len, "holder tracking is not in this build (meson -Dholders=true)");
	else if (err == -ENOENT)
		snprintf(msg, len, "no pool with id %u", req->id);
	if (err) {
		json_decref(arr);
		return err;
	}
	*reply = arr;
	return 0;
}

static void op_subscribe(struct client *c)
{
	if (c->subscribed)
		return;
	/* Events queued from here on are this subscriber's: the ones
	 * before it subscribed are not. */
	if (!srv.nr_subscribers++)
		WRITE_ONCE(ntf_wanted, true);
	c->subscribed = true;
	pthread_mutex_lock(&ntf_lock);
	c->ntf_from = ntf_seq;
	pthread_mutex_unlock(&ntf_lock);
}

/* One request line. -ENOMEM: drop the connection. */
static int client_request(struct client *c, const char *line, size_t len)
{
	char msg[PPTLM_MSG_LEN] = "";
	struct pptlm_request req;
	json_t *reply = NULL;
	int err;

	err = pptlm_parse_request(line, len, &req, msg, sizeof(msg));
	if (err)
		return client_error(c, req.has_seq, req.seq, -err, msg);

	switch (req.op) {
	case PPTLM_OP_POOL_GET:
		err = op_pool_get(&req, &reply, msg, sizeof(msg));
		break;
	case PPTLM_OP_STATS_GET:
		err = op_stats_get(&req, &reply, msg, sizeof(msg));
		break;
	case PPTLM_OP_SUBSCRIBE:
		op_subscribe(c);
		reply = json_object();
		err = reply ? 0 : -ENOMEM;
		break;
	case PPTLM_OP_PROCESS_GET:
		err = op_process_get(&reply);
		break;
	case PPTLM_OP_HOLDERS_GET:
		err = op_holders_get(&req, &reply, msg, sizeof(msg));
		break;
	default:
		err = -EOPNOTSUPP;
		break;
	}
	if (err) {
		if (!msg[0])
			snprintf(msg, sizeof(msg), "%s", strerror(-err));
		return client_error(c, req.has_seq, req.seq, -err, msg);
	}
	return client_send(c, pptlm_reply_json(req.has_seq, req.seq, reply));
}

/* Answer the complete lines read so far, while the output has room.
 * -errno: drop the connection. */
static int client_lines(struct client *c)
{
	size_t off = 0;
	int err = 0;

	while (!c->closing && client_pending(c) <= PPTLM_OUT_MAX) {
		char *nl = memchr(c->in + off, '\n', c->in_len - off);
		size_t len;

		if (!nl)
			break;
		len = (size_t)(nl - (c->in + off));
		/* A CR before the newline and blank lines are forgiven. */
		if (len && c->in[off + len - 1] == '\r')
			len--;
		if (len)
			err = client_request(c, c->in + off, len);
		off = (size_t)(nl - c->in) + 1;
		if (err)
			break;
	}
	if (off) {
		memmove(c->in, c->in + off, c->in_len - off);
		c->in_len -= off;
		c->partial_since = c->in_len ? now_ns() : 0;
	}
	return err;
}

/* Read and answer; at most 16 reads a round, so that one busy client
 * does not starve the others. -errno: drop the connection. */
static int client_read(struct client *c)
{
	int rounds;

	for (rounds = 0; rounds < 16; rounds++) {
		ssize_t n;

		if (c->closing) {
			client_discard_input(c);
			return 0;
		}
		if (c->eof || client_pending(c) > PPTLM_OUT_MAX)
			return 0;
		if (c->in_len == PPTLM_IN_CAP) {
			if (memchr(c->in, '\n', c->in_len))
				return 0;	/* lines wait for the output */
			client_fatal(c, EMSGSIZE, "request line longer than 65536 bytes");
			return 0;
		}
		n = recv(c->fd, c->in + c->in_len, PPTLM_IN_CAP - c->in_len, MSG_DONTWAIT);
		if (n == 0) {
			/* The peer is done sending (shutdown(SHUT_WR), or
			 * closed): the lines it sent are still answered. */
			c->eof = true;
			return 0;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
		}
		if (!c->in_len)
			c->partial_since = now_ns();
		c->in_len += (size_t)n;
		if (client_lines(c))
			return -ENOMEM;
	}
	return 0;
}

static bool peer_allowed(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || len != sizeof(cred))
		return false;
	return cred.uid == srv.uid;
}

static void server_accept(void)
{
	for (;;) {
		int fd = accept4(srv.listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct client *c;

		if (fd < 0)
			return;		/* EAGAIN, or a connection that went away */
		if (srv.nr_clients == srv.max_clients) {
			static const char busy[] =
				"{\"error\":{\"errno\":16,\"name\":\"EBUSY\",\"msg\":\"too many clients\"}}\n";
			ssize_t r = send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);

			(void)r;
			close(fd);
			continue;
		}
		c = &srv.clients[srv.nr_clients];
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->in = malloc(PPTLM_IN_CAP);
		if (!c->in) {
			close(fd);
			continue;
		}
		srv.nr_clients++;
		if (!peer_allowed(fd))
			client_fatal(c, EACCES, "peer is not of the server's uid");
	}
}

static const char *const ntf_names[] = {
	[PPCORE_POOL_ADD] = "page-pool-add-ntf",
	[PPCORE_POOL_CHANGE] = "page-pool-change-ntf",
	[PPCORE_POOL_DEL] = "page-pool-del-ntf",
};

/* Hand the queued events to the subscribers. */
static void server_notify(void)
{
	struct ntf *list, *n;
	unsigned int i;
	bool lost;

	list = ntf_take_all(&lost, NULL);
	for (n = list; n; n = n->next) {
		json_t *o = json_pack("{s:s,s:o}", "name", ntf_names[n->ev],
				      "msg", pptlm_pool_json(&n->info));
		size_t len;
		char *line = o ? pptlm_dump_line(o, &len) : NULL;

		json_decref(o);
		for (i = 0; line && i < srv.nr_clients; i++) {
			struct client *c = &srv.clients[i];

			if (!c->subscribed || c->closing || n->seq <= c->ntf_from)
				continue;
			if (client_append(c, line, len) || client_pending(c) > PPTLM_OUT_MAX) {
				/* It does not read: drop it, not the others. */
				client_close(c);
				i--;
			}
		}
		if (!line)
			lost = true;
		free(line);
	}
	ntf_free(list);
	if (!lost)
		return;
	for (i = 0; i < srv.nr_clients; i++)
		if (srv.clients[i].subscribed && !srv.clients[i].closing)
			client_error(&srv.clients[i], false, 0, ENOBUFS,
				     "notifications were lost (the queue was full)");
}

static void *server_thread(void *arg)
{
	const u64 timeout_ns = (u64)srv.timeout_ms * 1000000ull;
	struct pollfd *pfd = srv.pfd;
	unsigned int i;

	(void)arg;
	pprt_thread_mark_library();	/* runs on the shared CPU, takes no id */
	while (!READ_ONCE(srv.stop)) {
		u64 now = now_ns(), next = 0;
		int timeout = -1;

		pfd[0] = (struct pollfd){ .fd = srv.wake[0], .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = srv.listen_fd, .events = POLLIN };
		for (i = 0; i < srv.nr_clients; i++) {
			struct client *c = &srv.clients[i];
			u64 due = 0;

			pfd[i + 2] = (struct pollfd){ .fd = c->fd };
			if (!c->eof && (c->closing || client_pending(c) <= PPTLM_OUT_MAX))
				pfd[i + 2].events |= POLLIN;
			if (client_pending(c))
				pfd[i + 2].events |= POLLOUT;
			if (c->closing)
				due = c->close_by;
			else if (c->partial_since && !memchr(c->in, '\n', c->in_len))
				due = c->partial_since + timeout_ns;
			if (due && (!next || due < next))
				next = due;
		}
		if (next)
			timeout = next <= now ? 0 :
				  (int)min_t(u64, (next - now + 999999) / 1000000, INT_MAX);
		if (poll(pfd, srv.nr_clients + 2, timeout) < 0 && errno != EINTR)
			break;
		if (READ_ONCE(srv.stop))
			break;

		if (pfd[0].revents) {
			char buf[256];

			while (read(srv.wake[0], buf, sizeof(buf)) > 0)
				;
			server_notify();
		}
		/* The clients polled, from the last: closing one moves the
		 * last into its slot. Accepted ones wait for the next round. */
		now = now_ns();
		for (i = srv.nr_clients; i-- > 0;) {
			struct client *c = &srv.clients[i];
			short re = pfd[i + 2].fd == c->fd ? pfd[i + 2].revents : 0;
			int err = 0;

			if (re & (POLLIN | POLLHUP | POLLERR))
				err = client_read(c);
			if (!err && client_pending(c))
				err = client_flush(c);
			/* Lines that waited for output room. */
			if (!err && !c->closing && memchr(c->in, '\n', c->in_len) &&
			    client_pending(c) <= PPTLM_OUT_MAX) {
				err = client_lines(c);
				if (!err)
					err = client_flush(c);
			}
			if (!err && !c->closing && c->partial_since &&
			    !memchr(c->in, '\n', c->in_len) && now >= c->partial_since + timeout_ns) {
				client_fatal(c, ETIMEDOUT, "request not complete within the timeout");
				err = client_flush(c);
			}
			/* After end of file, done once every whole line is
			 * answered and written (an unfinished one is dropped);
			 * a subscriber stays until the peer is gone. */
			if (!err && c->eof && !c->closing && !c->subscribed &&
			    !client_pending(c) && !memchr(c->in, '\n', c->in_len))
				err = -ECONNRESET;
			if (!err && c->eof && (re & (POLLHUP | POLLERR)))
				err = -ECONNRESET;	/* gone both ways */
			if (err || (c->closing && (!client_pending(c) || now >= c->close_by)))
				client_close(c);
		}
		if (pfd[1].revents)
			server_accept();
		/* A refused peer's error goes out at once. */
		for (i = srv.nr_clients; i-- > 0;) {
			struct client *c = &srv.clients[i];

			if (c->closing && client_pending(c) && client_flush(c) == 0 &&
			    !client_pending(c))
				client_close(c);
		}
	}
	while (srv.nr_clients)
		client_close(&srv.clients[0]);
	return NULL;
}

/* Start and stop. */

static int socket_dir(const struct pp_telemetry_config *cfg, char *dir, size_t len)
{
	const char *d = cfg && cfg->dir ? cfg->dir : getenv("PAGEPOOL_TELEMETRY_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	int n;

	if (d && *d)
		n = snprintf(dir, len, "%s", d);
	else if (xdg && *xdg)
		n = snprintf(dir, len, "%s/pagepool", xdg);
	else
		n = snprintf(dir, len, "/tmp/pagepool-%u", (unsigned int)geteuid());
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	/* Not a symbolic link: lstat(). */
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

static void read_comm(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/comm", "re");

	snprintf(buf, len, "?");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static void server_close_fds(void)
{
	if (srv.listen_fd >= 0)
		close(srv.listen_fd);
	if (srv.wake[0] >= 0)
		close(srv.wake[0]);
	if (srv.wake[1] >= 0)
		close(srv.wake[1]);
	srv.listen_fd = srv.wake[0] = srv.wake[1] = -1;
}

static int server_listen(const char *dir)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, n, err;

	n = snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%d.sock", dir, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	/* Something at the path that is not a socket is not ours to remove
	 * (a socket there is an earlier server's: checked below). */
	if (!lstat(sa.sun_path, &st) && !S_ISSOCK(st.st_mode))
		return -EEXIST;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* A socket of this pid left by an earlier process of the same pid:
	 * stale unless something answers there. */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		close(fd);
		return -EADDRINUSE;
	}
	close(fd);
	if (!lstat(sa.sun_path, &st) && S_ISSOCK(st.st_mode))
		unlink(sa.sun_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* The directory is 0700 already; the file is 0600 from the start.
	 * Only a socket this call bound is unlinked on failure. */
	if (fchmod(fd, 0600) || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	if (chmod(sa.sun_path, 0600) || listen(fd, 64)) {
		err = -errno;
		close(fd);
		unlink(sa.sun_path);
		return err;
	}
	srv.listen_fd = fd;
	memcpy(srv.path, sa.sun_path, sizeof(srv.path));
	return 0;
}

int pp_telemetry_start(const struct pp_telemetry_config *cfg)
{
	char dir[PATH_MAX];
	sigset_t all, old;
	int err;

	pthread_mutex_lock(&srv.lock);
	if (srv.running) {
		err = -EALREADY;
		goto out;
	}
	err = socket_dir(cfg, dir, sizeof(dir));
	if (err)
		goto out;
	srv.max_clients = cfg && cfg->max_clients ? cfg->max_clients : PPTLM_DEFAULT_CLIENTS;
	if (srv.max_clients > PPTLM_MAX_CLIENTS) {
		err = -EINVAL;
		goto out;
	}
	srv.timeout_ms = cfg && cfg->request_timeout_ms ? cfg->request_timeout_ms :
							  PPTLM_DEFAULT_TIMEOUT_MS;
	srv.clients = calloc(srv.max_clients, sizeof(*srv.clients));
	srv.pfd = calloc(srv.max_clients + 2, sizeof(*srv.pfd));
	if (!srv.clients || !srv.pfd) {
		err = -ENOMEM;
		goto out;
	}
	srv.nr_clients = srv.nr_subscribers = 0;
	srv.pid = getpid();
	srv.uid = geteuid();
	read_comm(srv.comm, sizeof(srv.comm));
	if (pipe2(srv.wake, O_NONBLOCK | O_CLOEXEC)) {
		err = -errno;
		goto err_free;
	}
	err = server_listen(dir);
	if (err)
		goto err_fds;
	WRITE_ONCE(srv.stop, false);
	WRITE_ONCE(ntf_wanted, false);
	ppcore_set_pool_notify(tlm_pool_event);
	/* The thread takes no signal of the program's. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = -pthread_create(&srv.thread, NULL, server_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		ppcore_set_pool_notify(NULL);
		unlink(srv.path);
		goto err_fds;
	}
	pthread_setname_np(srv.thread, "pp-telemetry");
	srv.running = true;
	goto out;

err_fds:
	server_close_fds();
err_free:
	free(srv.clients);
	free(srv.pfd);
	srv.clients = NULL;
	srv.pfd = NULL;
out:
	pthread_mutex_unlock(&srv.lock);
	return err;
}

void pp_telemetry_stop(void)
{
	bool lost;
	char c = 's';
	ssize_t r;

	pthread_mutex_lock(&srv.lock);
	if (!srv.running) {
		pthread_mutex_unlock(&srv.lock);
		return;
	}
	/* No event is queued after this returns. */
	ppcore_set_pool_notify(NULL);
	WRITE_ONCE(srv.stop, true);
	r = write(srv.wake[1], &c, 1);
	(void)r;
	pthread_join(srv.thread, NULL);
	unlink(srv.path);
	server_close_fds();
	free(srv.clients);
	free(srv.pfd);
	srv.clients = NULL;
	srv.pfd = NULL;
	ntf_free(ntf_take_all(&lost, NULL));
	WRITE_ONCE(ntf_wanted, false);
	srv.path[0] = '\0';
	srv.running = false;
	pthread_mutex_unlock(&srv.lock);
}

int pp_telemetry_socket_path(char *buf, size_t len)
{
	int err;

	if (!buf)
		return -EINVAL;
	pthread_mutex_lock(&srv.lock);
	if (!srv.running)
		err = -ENOTCONN;
	else if (strlen(srv.path) >= len)
		err = -ERANGE;
	else
		err = snprintf(buf, len, "%s", srv.path);
	pthread_mutex_unlock(&srv.lock);
	return err;
}

/* PAGEPOOL_TELEMETRY=1: start at the first page_pool_create(). */
static void tlm_env_start(void)
{
	int err = pp_telemetry_start(NULL);

	if (err && err != -EALREADY)
		pr_warn("pagepool: PAGEPOOL_TELEMETRY=1 but the telemetry server did not start: %s\n",
			strerror(-err));
}

/*
 * The child of a fork(): only the forking thread lives on, so no server
 * runs here. Forget the parent's: close the child's copies of its
 * descriptors, drop its state (without touching its socket file, which
 * the parent still serves) and reset the locks another thread of the
 * parent may have held at the fork. Then the child is a process without
 * a server: pp_telemetry_socket_path() says -ENOTCONN, pp_telemetry_stop()
 * does nothing, and pp_telemetry_start() starts the child's own, on
 * <dir>/<child pid>.sock. What the parent's queue held is left allocated:
 * freeing it would walk a list another thread may have been changing.
 */
static void tlm_atfork_child(void)
{
	unsigned int i;

	pthread_mutex_init(&srv.lock, NULL);
	pthread_mutex_init(&ntf_lock, NULL);
	WRITE_ONCE(ntf_wanted, false);
	ntf_head = NULL;
	ntf_tail = &ntf_head;
	ntf_len = 0;
	ntf_lost = false;
	if (!srv.running)
		return;
	for (i = 0; srv.clients && i < srv.nr_clients; i++)
		close(srv.clients[i].fd);
	server_close_fds();
	free(srv.clients);
	free(srv.pfd);
	srv.clients = NULL;
	srv.pfd = NULL;
	srv.nr_clients = srv.nr_subscribers = 0;
	srv.path[0] = '\0';
	srv.running = false;
}

__attribute__((constructor)) static void tlm_init(void)
{
	const char *env = getenv("PAGEPOOL_TELEMETRY");

	pthread_atfork(NULL, NULL, tlm_atfork_child);
	if (env && !strcmp(env, "1"))
		ppcore_set_create_hook(tlm_env_start);
	else if (env && *env && strcmp(env, "0"))
		pr_warn("pagepool: PAGEPOOL_TELEMETRY=%s is neither 1 (start the telemetry server) nor 0; not started\n",
			env);
}

/* A process that exits without pp_telemetry_stop() leaves no socket
 * behind (the thread ends with the process). */
__attribute__((destructor)) static void tlm_fini(void)
{
	if (READ_ONCE(srv.running) && srv.pid == getpid())
		unlink(srv.path);
}
