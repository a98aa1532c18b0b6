/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool-ctl: the page pools of running pagepool processes, seen from
 * outside through their telemetry sockets (the library's page-pool-get,
 * page-pool-stats-get, holders and notifications, as newline-delimited
 * JSON). Subcommands list, dump, show, stats, watch, holders, events;
 * docs/PAGEPOOL-CTL.md is the usage page. Exit codes: 0 ok, 1 an error
 * (its cause on stderr), 2 bad usage. Single-threaded.
 *
 * Layer: tools.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <getopt.h>
#include <sys/stat.h>

#include "ctl.h"

#define EXIT_USAGE	2

struct opts {
	char dir[PATH_MAX];
	pid_t pid;		/* -p; 0: the only process */
	bool all;		/* -a */
	bool json;		/* --json */
	double interval;	/* -i, seconds */
	long count;		/* -n; 0: no limit */
	bool has_interval, has_count;
};

static volatile sig_atomic_t interrupted;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("pagepool-ctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fputs("Usage: pagepool-ctl [OPTIONS] COMMAND [ARGS]\n"
	      "The page pools of running pagepool processes, through their telemetry sockets.\n"
	      "\n"
	      "Commands:\n"
	      "  list                 this user's pagepool processes: pid, comm, pools, inflight\n"
	      "  dump [--json] [-a]   every pool of the process (all processes with -a), with stats\n"
	      "  show POOL            one pool: ifindex, napi-id, inflight, detach time\n"
	      "  stats [POOL]         the statistics of one pool, or of every pool\n"
	      "  watch [-i S] [-n N]  a refreshing table of inflight pages and rates per second\n"
	      "  holders POOL         who holds the pool's inflight pages (holder tracking builds)\n"
	      "  events [-n N]        page pool notifications (add, change, del) as they come\n"
	      "\n"
	      "Options:\n"
	      "  -p, --pid PID        the process (default: the only one there is)\n"
	      "  -d, --dir DIR        the socket directory (default: $PAGEPOOL_TELEMETRY_DIR,\n"
	      "                       else $XDG_RUNTIME_DIR/pagepool, else /tmp/pagepool-UID)\n"
	      "  -a, --all            dump: every process\n"
	      "  -j, --json           print the JSON (list, dump, show, stats, holders, events)\n"
	      "  -i, --interval SECS  watch: seconds between refreshes (default 1; fractions ok)\n"
	      "  -n, --count N        watch: stop after N refreshes; events: after N notifications\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "Exit status: 0 ok, 1 error (the cause on stderr), 2 bad usage.\n", f);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("pagepool-ctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'pagepool-ctl --help'.\n", stderr);
	return EXIT_USAGE;
}

/* ---- values ------------------------------------------------------------- */

static bool get_ll(json_t *obj, const char *key, long long *v)
{
	json_t *j = json_object_get(obj, key);

	if (!json_is_integer(j))
		return false;
	*v = json_integer_value(j);
	return true;
}

static long long ll_or0(json_t *obj, const char *key)
{
	long long v = 0;

	get_ll(obj, key, &v);
	return v;
}

/* An integer attribute as a table cell; "-" when absent. */
static const char *cell(json_t *obj, const char *key, char *buf, size_t len)
{
	long long v;

	if (!get_ll(obj, key, &v))
		return "-";
	snprintf(buf, len, "%lld", v);
	return buf;
}

static long long pool_id(json_t *pool)
{
	return ll_or0(pool, "id");
}

/* The id of a STATS object: {"info":{"id":..}}. */
static long long stats_id(json_t *st)
{
	return ll_or0(json_object_get(st, "info"), "id");
}

static json_t *find_by_id(json_t *arr, long long id, long long (*idf)(json_t *))
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (idf(v) == id)
			return v;
	return NULL;
}

/* The counters, in page_pool_stats' order. */
static const char *const stat_keys[] = {
	"alloc-fast", "alloc-slow", "alloc-slow-high-order", "alloc-empty", "alloc-refill",
	"alloc-waive", "recycle-cached", "recycle-cache-full", "recycle-ring",
	"recycle-ring-full", "recycle-released-refcnt",
};
#define NR_STATS	(sizeof(stat_keys) / sizeof(stat_keys[0]))
/* Their columns in dump's table. */
static const char *const stat_heads[NR_STATS] = {
	"FAST", "SLOW", "SLOW-HO", "EMPTY", "REFILL", "WAIVE",
	"CACHED", "CACHE-FULL", "RING", "RING-FULL", "RELEASED",
};

/* ---- tables -------------------------------------------------------------- */

/* Cells copied in, columns as wide as their widest cell; the first
 * @left columns are left-aligned, the rest (numbers) right-aligned. */
struct table {
	int ncols, left;
	char **cells;
	size_t n, cap;
};

static void table_init(struct table *t, int ncols, int left)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->left = left;
}

static int table_add(struct table *t, const char *s)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **nc = realloc(t->cells, cap * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		t->cells = nc;
		t->cap = cap;
	}
	t->cells[t->n] = strdup(s);
	if (!t->cells[t->n])
		return -ENOMEM;
	t->n++;
	return 0;
}

static void table_print(struct table *t)
{
	size_t w[64] = { 0 }, i;
	int c;

	for (i = 0; i < t->n; i++) {
		size_t l = strlen(t->cells[i]);

		c = (int)(i % (size_t)t->ncols);
		if (l > w[c])
			w[c] = l;
	}
	for (i = 0; i < t->n; i++) {
		c = (int)(i % (size_t)t->ncols);
		printf(c < t->left ? "%s%-*s" : "%s%*s", c ? "  " : "", (int)w[c], t->cells[i]);
		if (c == t->ncols - 1)
			putchar('\n');
	}
}

static void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
}

/* ---- connecting ---------------------------------------------------------- */

/* Only a socket is removed as stale: a file of another kind that happens
 * to be named <pid>.sock is someone's, not a dead server's. */
static bool is_socket(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISSOCK(st.st_mode);
}

static bool proc_alive(pid_t pid)
{
	char p[32];
	struct stat st;

	snprintf(p, sizeof(p), "/proc/%d", (int)pid);
	return stat(p, &st) == 0;
}

static void proc_comm(pid_t pid, char *buf, size_t len)
{
	char p[64];
	FILE *f;

	snprintf(buf, len, "?");
	snprintf(p, sizeof(p), "/proc/%d/comm", (int)pid);
	f = fopen(p, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Why connecting to @pid failed, on stderr. */
static void connect_failed(const struct opts *o, struct ctl_conn *c, int r)
{
	switch (r) {
	case -ENOENT:
		fail("no pagepool process %d: no socket %s", (int)c->pid, c->path);
		break;
	case -ECONNREFUSED:
		if (proc_alive(c->pid))
			fail("process %d does not serve telemetry (nobody listens on %s)",
			     (int)c->pid, c->path);
		else
			fail("no pagepool process %d: it is not running (stale socket %s; "
			     "'pagepool-ctl list' removes it)", (int)c->pid, c->path);
		break;
	case -EACCES:
		fail("permission denied: cannot connect to %s (EACCES)", c->path);
		break;
	default:
		fail("cannot reach process %d in %s: %s (%s)", (int)c->pid, o->dir,
		     c->error.msg, ctl_errname(-r));
	}
}

/* A failed request, on stderr. @pool: the pool asked about, 0 for none. */
static int request_failed(struct ctl_conn *c, const char *op, long long pool)
{
	struct ctl_error *e = &c->error;

	if (!e->from_server) {
		fail("%s: %s (%s)", op, e->msg, e->name);
		return 1;
	}
	if (e->err == EACCES)
		fail("permission denied by process %d: %s (EACCES)", (int)c->pid, e->msg);
	else if (e->err == ENOENT && pool)
		fail("no such pool %lld in process %d (ENOENT)", pool, (int)c->pid);
	else
		fail("%s: process %d: server error %s: %s", op, (int)c->pid, e->name, e->msg);
	return 1;
}

/*
 * The live processes: every socket of the directory that accepts a
 * connection, connected, into @conns (at most @max). With @clean, the
 * sockets of dead processes (connect refused, no /proc/PID) are removed.
 * Returns their number; a directory that cannot be read is an error (-1).
 */
static int open_all(const struct opts *o, struct ctl_conn *conns, int max, bool clean,
		    int *failures)
{
	pid_t *pids;
	int n, i, live = 0;

	n = ctl_scan_dir(o->dir, &pids);
	if (n < 0) {
		fail("cannot read the socket directory %s: %s (%s)", o->dir, strerror(-n),
		     ctl_errname(-n));
		return -1;
	}
	for (i = 0; i < n && live < max; i++) {
		struct ctl_conn *c = &conns[live];
		int r = ctl_connect(c, o->dir, pids[i]);

		if (!r) {
			live++;
			continue;
		}
		if (r == -ECONNREFUSED && !proc_alive(pids[i])) {
			if (clean && is_socket(c->path) && unlink(c->path) == 0)
				fprintf(stderr, "pagepool-ctl: removed the stale socket %s "
					"(process %d is gone)\n", c->path, (int)pids[i]);
			continue;
		}
		if (r == -ECONNREFUSED)
			continue;	/* a live pid that is not (or no longer) serving */
		connect_failed(o, c, r);
		(*failures)++;
	}
	free(pids);
	return live;
}

#define MAX_PROCS	256

/* The process -p names, or the only one there is. 0, or 1 (said why). */
static int open_target(const struct opts *o, struct ctl_conn *c)
{
	static struct ctl_conn conns[MAX_PROCS];
	int n, i, failures = 0, r;

	if (o->pid) {
		r = ctl_connect(c, o->dir, o->pid);
		if (r) {
			connect_failed(o, c, r);
			return 1;
		}
		return 0;
	}
	n = open_all(o, conns, MAX_PROCS, false, &failures);
	if (n < 0)
		return 1;
	if (n == 1) {
		*c = conns[0];
		return 0;
	}
	if (n == 0) {
		if (!failures)
			fail("no pagepool process of this user (no live socket in %s; a program "
			     "serves one after pp_telemetry_start() or with PAGEPOOL_TELEMETRY=1)",
			     o->dir);
		return 1;
	}
	fail("%d pagepool processes; pick one with -p PID:", n);
	for (i = 0; i < n; i++) {
		char comm[64];

		proc_comm(conns[i].pid, comm, sizeof(comm));
		fprintf(stderr, "  %d  %s\n", (int)conns[i].pid, comm);
		ctl_close(&conns[i]);
	}
	return 1;
}

/* ---- fetching ------------------------------------------------------------- */

/* process-get's comm, or /proc's when the request fails. */
static void conn_comm(struct ctl_conn *c, json_t *proc, char *buf, size_t len)
{
	const char *comm = json_string_value(json_object_get(proc, "comm"));

	if (comm)
		snprintf(buf, len, "%s", comm);
	else
		proc_comm(c->pid, buf, len);
}

/* The page-pool-get dump, or NULL (said why). */
static json_t *get_pools(struct ctl_conn *c)
{
	json_t *r = ctl_op(c, "page-pool-get", NULL, 0);

	if (!r)
		request_failed(c, "page-pool-get", 0);
	else if (!json_is_array(r)) {
		fail("page-pool-get: process %d sent a reply that is not a list", (int)c->pid);
		json_decref(r);
		r = NULL;
	}
	return r;
}

/* The page-pool-stats-get dump; an empty list when the library has no
 * stats (*nostats set); NULL on any other failure (said why). */
static json_t *get_all_stats(struct ctl_conn *c, bool *nostats)
{
	json_t *r = ctl_op(c, "page-pool-stats-get", NULL, 0);

	*nostats = false;
	if (!r && c->error.from_server && c->error.err == EOPNOTSUPP) {
		*nostats = true;
		return json_array();
	}
	if (!r)
		request_failed(c, "page-pool-stats-get", 0);
	else if (!json_is_array(r)) {
		fail("page-pool-stats-get: process %d sent a reply that is not a list",
		     (int)c->pid);
		json_decref(r);
		r = NULL;
	}
	return r;
}

static void no_stats(struct ctl_conn *c)
{
	fail("process %d: the library was built without page_pool_stats "
	     "(meson -Dpage_pool_stats=false): no statistics (EOPNOTSUPP)", (int)c->pid);
}

/* Each POOL with its STATS' counters merged in: dump --json's objects. */
static json_t *merge_pools(json_t *pools, json_t *stats)
{
	json_t *out = json_array(), *p;
	size_t i;

	json_array_foreach(pools, i, p) {
		json_t *m = json_deep_copy(p);
		json_t *st = find_by_id(stats, pool_id(p), stats_id);
		const char *k;
		json_t *v;

		json_object_foreach(st, k, v)
			if (strcmp(k, "info"))
				json_object_set(m, k, v);
		json_array_append_new(out, m);
	}
	return out;
}

static void print_json(json_t *j)
{
	char *s = json_dumps(j, JSON_INDENT(2) | JSON_ENCODE_ANY);

	if (s)
		puts(s);
	free(s);
}

/* ---- list ----------------------------------------------------------------- */

static int cmd_list(const struct opts *o)
{
	static struct ctl_conn conns[MAX_PROCS];
	int n, i, failures = 0, errors = 0;
	json_t *out = json_array();
	struct table t;

	n = open_all(o, conns, MAX_PROCS, true, &failures);
	if (n < 0) {
		json_decref(out);
		return 1;
	}
	table_init(&t, 5, 2);
	table_add(&t, "PID");
	table_add(&t, "COMM");
	table_add(&t, "POOLS");
	table_add(&t, "INFLIGHT");
	table_add(&t, "INFLIGHT-MEM");
	for (i = 0; i < n; i++) {
		struct ctl_conn *c = &conns[i];
		long long inflight = 0, mem = 0;
		json_t *proc, *pools, *p, *row;
		char buf[64], comm[64];
		size_t k;

		proc = ctl_op(c, "process-get", NULL, 0);
		if (!proc) {
			errors += request_failed(c, "process-get", 0);
			ctl_close(c);
			continue;
		}
		pools = get_pools(c);
		if (!pools) {
			errors++;
			json_decref(proc);
			ctl_close(c);
			continue;
		}
		json_array_foreach(pools, k, p) {
			inflight += ll_or0(p, "inflight");
			mem += ll_or0(p, "inflight-mem");
		}
		conn_comm(c, proc, comm, sizeof(comm));
		snprintf(buf, sizeof(buf), "%d", (int)c->pid);
		table_add(&t, buf);
		table_add(&t, comm);
		snprintf(buf, sizeof(buf), "%zu", json_array_size(pools));
		table_add(&t, buf);
		snprintf(buf, sizeof(buf), "%lld", inflight);
		table_add(&t, buf);
		snprintf(buf, sizeof(buf), "%lld", mem);
		table_add(&t, buf);
		row = json_deep_copy(proc);
		json_object_set_new(row, "pools", json_integer((json_int_t)json_array_size(pools)));
		json_object_set_new(row, "inflight", json_integer(inflight));
		json_object_set_new(row, "inflight-mem", json_integer(mem));
		json_array_append_new(out, row);
		json_decref(pools);
		json_decref(proc);
		ctl_close(c);
	}
	if (o->json)
		print_json(out);
	else if (json_array_size(out))
		table_print(&t);
	else if (!failures && !errors)
		printf("no pagepool processes of this user (%s)\n", o->dir);
	table_free(&t);
	json_decref(out);
	return failures || errors ? 1 : 0;
}

/* ---- dump ----------------------------------------------------------------- */

static void dump_table(struct ctl_conn *c, const char *comm, json_t *merged, bool nostats)
{
	static const char *const heads[] = {
		"ID", "IFINDEX", "NAPI-ID", "INFLIGHT", "INFLIGHT-MEM", "DETACH-TIME",
	};
	size_t nh = sizeof(heads) / sizeof(heads[0]), i, k;
	struct table t;
	json_t *p;
	char buf[32];

	printf("pid %d (%s): %zu pools%s\n", (int)c->pid, comm, json_array_size(merged),
	       nostats ? " (library without page_pool_stats)" : "");
	if (!json_array_size(merged))
		return;
	table_init(&t, (int)(nh + (nostats ? 0 : NR_STATS)), 0);
	for (i = 0; i < nh; i++)
		table_add(&t, heads[i]);
	for (i = 0; !nostats && i < NR_STATS; i++)
		table_add(&t, stat_heads[i]);
	json_array_foreach(merged, k, p) {
		for (i = 0; i < nh; i++) {
			char key[32];
			size_t j;

			for (j = 0; heads[i][j] && j < sizeof(key) - 1; j++)
				key[j] = (char)(heads[i][j] | 0x20);	/* "NAPI-ID": "napi-id" */
			key[j] = '\0';
			table_add(&t, cell(p, key, buf, sizeof(buf)));
		}
		for (i = 0; !nostats && i < NR_STATS; i++)
			table_add(&t, cell(p, stat_keys[i], buf, sizeof(buf)));
	}
	table_print(&t);
	table_free(&t);
}

/* dump of one connected process: into @out (--json) or printed. */
static int dump_one(struct ctl_conn *c, bool json, bool with_pid, json_t *out)
{
	json_t *proc, *pools, *stats, *merged, *p;
	bool nostats;
	char comm[64];
	size_t i;

	proc = ctl_op(c, "process-get", NULL, 0);
	if (!proc)
		return request_failed(c, "process-get", 0);
	conn_comm(c, proc, comm, sizeof(comm));
	json_decref(proc);
	pools = get_pools(c);
	if (!pools)
		return 1;
	stats = get_all_stats(c, &nostats);
	if (!stats) {
		json_decref(pools);
		return 1;
	}
	merged = merge_pools(pools, stats);
	if (json) {
		json_array_foreach(merged, i, p) {
			if (with_pid)
				json_object_set_new(p, "pid", json_integer(c->pid));
			json_array_append(out, p);
		}
	} else {
		dump_table(c, comm, merged, nostats);
	}
	json_decref(merged);
	json_decref(stats);
	json_decref(pools);
	return 0;
}

static int cmd_dump(const struct opts *o)
{
	static struct ctl_conn conns[MAX_PROCS];
	json_t *out = json_array();
	int n, i, failures = 0, rc = 0;
	struct ctl_conn c;

	if (!o->all) {
		if (open_target(o, &c)) {
			json_decref(out);
			return 1;
		}
		rc = dump_one(&c, o->json, false, out);
		ctl_close(&c);
	} else {
		n = open_all(o, conns, MAX_PROCS, false, &failures);
		if (n < 0) {
			json_decref(out);
			return 1;
		}
		for (i = 0; i < n; i++) {
			if (!o->json && i)
				putchar('\n');
			rc |= dump_one(&conns[i], o->json, true, out);
			ctl_close(&conns[i]);
		}
		rc |= failures ? 1 : 0;
	}
	if (o->json && (!rc || o->all))
		print_json(out);
	json_decref(out);
	return rc;
}

/* ---- show, stats ---------------------------------------------------------- */

static double boottime_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void show_pool(json_t *p, pid_t pid)
{
	long long v;

	printf("pool %lld of pid %d\n", pool_id(p), (int)pid);
	if (get_ll(p, "ifindex", &v))
		printf("  %-14s %lld\n", "ifindex", v);
	else
		printf("  %-14s - (no netdev)\n", "ifindex");
	if (get_ll(p, "napi-id", &v))
		printf("  %-14s %lld\n", "napi-id", v);
	else
		printf("  %-14s -\n", "napi-id");
	printf("  %-14s %lld\n", "inflight", ll_or0(p, "inflight"));
	printf("  %-14s %lld\n", "inflight-mem", ll_or0(p, "inflight-mem"));
	if (get_ll(p, "detach-time", &v))
		printf("  %-14s %lld (detached %.0f s ago)\n", "detach-time", v,
		       boottime_now() - (double)v < 0 ? 0 : boottime_now() - (double)v);
	else
		printf("  %-14s - (attached)\n", "detach-time");
}

static int cmd_show(const struct opts *o, long long id)
{
	struct ctl_conn c;
	json_t *p;

	if (open_target(o, &c))
		return 1;
	p = ctl_op(&c, "page-pool-get", "id", id);
	if (!p) {
		request_failed(&c, "page-pool-get", id);
		ctl_close(&c);
		return 1;
	}
	if (o->json)
		print_json(p);
	else
		show_pool(p, c.pid);
	json_decref(p);
	ctl_close(&c);
	return 0;
}

static void show_stats(json_t *st, pid_t pid)
{
	size_t i;

	printf("pool %lld of pid %d\n", stats_id(st), (int)pid);
	for (i = 0; i < NR_STATS; i++)
		printf("  %-24s %lld\n", stat_keys[i], ll_or0(st, stat_keys[i]));
}

static int cmd_stats(const struct opts *o, long long id)
{
	struct ctl_conn c;
	json_t *st, *v;
	bool nostats;
	int rc = 0;
	size_t i;

	if (open_target(o, &c))
		return 1;
	if (id) {
		json_t *req = json_pack("{s:s,s:{s:I}}", "op", "page-pool-stats-get",
					"info", "id", (json_int_t)id);

		st = ctl_request(&c, req);
		if (!st && c.error.from_server && c.error.err == EOPNOTSUPP)
			no_stats(&c);
		else if (!st)
			request_failed(&c, "page-pool-stats-get", id);
		else if (o->json)
			print_json(st);
		else
			show_stats(st, c.pid);
		rc = st ? 0 : 1;
	} else {
		st = get_all_stats(&c, &nostats);
		if (st && nostats) {
			no_stats(&c);
			rc = 1;
		} else if (!st) {
			rc = 1;
		} else if (o->json) {
			print_json(st);
		} else {
			json_array_foreach(st, i, v) {
				if (i)
					putchar('\n');
				show_stats(v, c.pid);
			}
			if (!json_array_size(st))
				printf("pid %d has no pools\n", (int)c.pid);
		}
	}
	json_decref(st);
	ctl_close(&c);
	return rc;
}

/* ---- watch ---------------------------------------------------------------- */

static const char *const watch_keys[] = {
	"alloc-fast", "alloc-slow", "recycle-cached", "recycle-ring", "recycle-released-refcnt",
};
#define NR_WATCH	(sizeof(watch_keys) / sizeof(watch_keys[0]))

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One sample: the pools merged with their stats. NULL (said why). */
static json_t *watch_sample(struct ctl_conn *c, bool *nostats)
{
	json_t *pools = get_pools(c), *stats, *m;

	if (!pools)
		return NULL;
	stats = get_all_stats(c, nostats);
	if (!stats) {
		json_decref(pools);
		return NULL;
	}
	m = merge_pools(pools, stats);
	json_decref(stats);
	json_decref(pools);
	return m;
}

static void watch_print(const struct opts *o, struct ctl_conn *c, const char *comm, json_t *prev,
			json_t *cur, double secs, bool nostats)
{
	static const char *const heads[] = {
		"ID", "IFINDEX", "INFLIGHT", "INFLIGHT-MEM", "ALLOC-FAST/s", "ALLOC-SLOW/s",
		"RECYCLE-CACHED/s", "RECYCLE-RING/s", "RELEASED/s",
	};
	size_t nh = sizeof(heads) / sizeof(heads[0]), i, k;
	char buf[32], when[32];
	time_t now = time(NULL);
	struct table t;
	json_t *p;

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	printf("pid %d (%s)  %zu pools  every %g s  %s%s\n", (int)c->pid, comm,
	       json_array_size(cur), o->interval, when,
	       nostats ? "  (library without page_pool_stats: no rates)" : "");
	table_init(&t, (int)nh, 0);
	for (i = 0; i < nh; i++)
		table_add(&t, heads[i]);
	json_array_foreach(cur, k, p) {
		json_t *old = find_by_id(prev, pool_id(p), pool_id);

		table_add(&t, cell(p, "id", buf, sizeof(buf)));
		table_add(&t, cell(p, "ifindex", buf, sizeof(buf)));
		table_add(&t, cell(p, "inflight", buf, sizeof(buf)));
		table_add(&t, cell(p, "inflight-mem", buf, sizeof(buf)));
		for (i = 0; i < NR_WATCH; i++) {
			long long a, b;

			/* A pool new since the last sample has no rate yet. */
			if (nostats || !old || !get_ll(p, watch_keys[i], &b) ||
			    !get_ll(old, watch_keys[i], &a)) {
				table_add(&t, "-");
				continue;
			}
			snprintf(buf, sizeof(buf), "%.0f", (double)(b - a) / secs);
			table_add(&t, buf);
		}
	}
	table_print(&t);
	table_free(&t);
	if (!isatty(STDOUT_FILENO))
		putchar('\n');
	fflush(stdout);
}

static int cmd_watch(const struct opts *o)
{
	json_t *prev, *cur, *proc;
	struct ctl_conn c;
	double t0, t1;
	bool nostats;
	char comm[64];
	long n;

	if (open_target(o, &c))
		return 1;
	proc = ctl_op(&c, "process-get", NULL, 0);
	if (!proc) {
		request_failed(&c, "process-get", 0);
		ctl_close(&c);
		return 1;
	}
	conn_comm(&c, proc, comm, sizeof(comm));
	json_decref(proc);
	prev = watch_sample(&c, &nostats);
	t0 = mono_now();
	for (n = 0; prev && !interrupted && (!o->count || n < o->count); n++) {
		struct timespec ts = { .tv_sec = (time_t)o->interval,
				       .tv_nsec = (long)((o->interval - (time_t)o->interval) * 1e9) };

		if (nanosleep(&ts, NULL) && interrupted)
			break;
		cur = watch_sample(&c, &nostats);
		if (!cur)
			break;
		t1 = mono_now();
		watch_print(o, &c, comm, prev, cur, t1 - t0 > 0 ? t1 - t0 : 1e-9, nostats);
		json_decref(prev);
		prev = cur;
		t0 = t1;
	}
	ctl_close(&c);
	if (!prev)
		return 1;
	json_decref(prev);
	return interrupted || (o->count && n == o->count) ? 0 : 1;
}

/* ---- holders -------------------------------------------------------------- */

static int cmd_holders(const struct opts *o, long long id)
{
	struct ctl_conn c;
	char line[1024];
	json_t *r, *h;
	size_t i;

	if (open_target(o, &c))
		return 1;
	r = ctl_op(&c, "page-pool-holders-get", "id", id);
	if (!r) {
		if (c.error.from_server && c.error.err == EOPNOTSUPP)
			fail("process %d: the library was built without holder tracking "
			     "(meson -Dholders=true records who holds the pages) (EOPNOTSUPP)",
			     (int)c.pid);
		else
			request_failed(&c, "page-pool-holders-get", id);
		ctl_close(&c);
		return 1;
	}
	if (o->json) {
		print_json(r);
	} else {
		json_array_foreach(r, i, h) {
			ctl_fmt_holder(h, line, sizeof(line));
			puts(line);
		}
		if (!json_array_size(r))
			printf("pool %lld of pid %d: no pages held\n", id, (int)c.pid);
	}
	json_decref(r);
	ctl_close(&c);
	return 0;
}

/* ---- events --------------------------------------------------------------- */

static int cmd_events(const struct opts *o)
{
	struct ctl_conn c;
	json_t *r, *ev;
	char raw[4096];
	long n = 0;
	int err;

	if (open_target(o, &c))
		return 1;
	r = ctl_request(&c, json_pack("{s:s,s:s}", "op", "subscribe", "group", "page-pool"));
	if (!r) {
		request_failed(&c, "subscribe", 0);
		ctl_close(&c);
		return 1;
	}
	json_decref(r);
	/* On stderr, so that stdout is only the notifications: from here on
	 * none is missed (a script may wait for this line). */
	fprintf(stderr, "pagepool-ctl: subscribed to the page pool notifications of process %d\n",
		(int)c.pid);
	while (!o->count || n < o->count) {
		err = ctl_read_msg(&c, &ev, -1, raw, sizeof(raw));
		if (err == -EINTR && interrupted)
			break;
		if (err) {
			fail("events: %s (%s)", c.error.msg, c.error.name);
			ctl_close(&c);
			return 1;
		}
		if (json_object_get(ev, "name")) {
			if (o->json)
				puts(raw);
			else if (!ctl_fmt_event(ev, raw, sizeof(raw)))
				puts(raw);
			fflush(stdout);
			n++;
		}
		json_decref(ev);
	}
	ctl_close(&c);
	return 0;
}

/* ---- main ----------------------------------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "dir", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .interval = 1.0 };
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	const char *dir = NULL, *cmd;
	long long id = 0;
	char *end;
	int opt, nargs;
	long v;

	while ((opt = getopt_long(argc, argv, ":p:d:aji:n:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (*end || errno || v <= 0 || v > INT_MAX)
				return usage_error("bad pid '%s'", optarg);
			o.pid = (pid_t)v;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'a':
			o.all = true;
			break;
		case 'j':
			o.json = true;
			break;
		case 'i':
			o.interval = strtod(optarg, &end);
			if (*end || end == optarg || !(o.interval > 0) || o.interval > 86400)
				return usage_error("bad interval '%s' (seconds, > 0)", optarg);
			o.has_interval = true;
			break;
		case 'n':
			errno = 0;
			o.count = strtol(optarg, &end, 10);
			if (*end || errno || end == optarg || o.count <= 0)
				return usage_error("bad count '%s' (a number > 0)", optarg);
			o.has_count = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("no command");
	cmd = argv[optind];
	nargs = argc - optind - 1;
	if (ctl_socket_dir(dir, o.dir, sizeof(o.dir)))
		return usage_error("socket directory name too long");
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (o.all && strcmp(cmd, "dump"))
		return usage_error("-a is for dump");
	if (o.all && o.pid)
		return usage_error("-a and -p exclude each other");
	if (o.has_interval && strcmp(cmd, "watch"))
		return usage_error("-i is for watch");
	if (o.has_count && strcmp(cmd, "watch") && strcmp(cmd, "events"))
		return usage_error("-n is for watch and events");
	if (o.json && !strcmp(cmd, "watch"))
		return usage_error("watch has no --json (use dump --json)");

	if (!strcmp(cmd, "show") || !strcmp(cmd, "holders") ||
	    (!strcmp(cmd, "stats") && nargs == 1)) {
		if (nargs > 1)
			return usage_error("%s takes one POOL id", cmd);
		if (nargs != 1)
			return usage_error("%s needs a POOL id", cmd);
		if (ctl_parse_pool(argv[optind + 1], &id))
			return usage_error("bad pool id '%s' (a number from 1)", argv[optind + 1]);
	} else if (!strcmp(cmd, "stats") && nargs > 1) {
		return usage_error("stats takes one POOL id at most");
	} else if (nargs) {
		return usage_error("%s takes no argument '%s'", cmd, argv[optind + 1]);
	}

	if (!strcmp(cmd, "list"))
		return o.pid ? usage_error("list shows every process: no -p") : cmd_list(&o);
	if (!strcmp(cmd, "dump"))
		return cmd_dump(&o);
	if (!strcmp(cmd, "show"))
		return cmd_show(&o, id);
	if (!strcmp(cmd, "stats"))
		return cmd_stats(&o, id);
	if (!strcmp(cmd, "watch"))
		return cmd_watch(&o);
	if (!strcmp(cmd, "holders"))
		return cmd_holders(&o, id);
	if (!strcmp(cmd, "events"))
		return cmd_events(&o);
	return usage_error("unknown command '%s'", cmd);
}
