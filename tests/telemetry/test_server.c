/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The telemetry server (<pagepool/telemetry.h>): replies equal the C
 * introspection API for pools with known inflight pages and counters
 * (dumps and by id, ENOENT), the notifications of a pool created, detached
 * with its device unregistered and released, in order; the peer check;
 * hostile clients (garbage, a 1 MiB line, a half-written request, a
 * subscriber that never reads) each get their error or are dropped while
 * another thread allocates and recycles and a second client is answered
 * promptly; stop leaves no thread, descriptor or socket; the socket
 * directory's permission checks.
 * Context: the test thread is CPU 0; helper threads register their own.
 * Layer: tests.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>
#include <pagepool/telemetry.h>

#include "tlm_test.h"

/* The sanitizers' runtimes do not support a thread started in the child
 * of a multi-threaded fork: ThreadSanitizer dies, and AddressSanitizer's
 * thread set-up was seen to hang on an allocator lock a parent thread
 * held at the fork. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define TLM_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define TLM_SANITIZED 1
#endif
#endif
#ifndef TLM_SANITIZED
#define TLM_SANITIZED 0
#endif

static char tdir[64];

static struct tlm_client *client_new(void)
{
	struct tlm_client *c = malloc(sizeof(*c));
	char path[128];

	assert_non_null(c);
	assert_true(pp_telemetry_socket_path(path, sizeof(path)) > 0);
	assert_int_equal(tlm_connect_path(c, path), 0);
	return c;
}

static void client_free(struct tlm_client *c)
{
	tlm_close(c);
	free(c);
}

static void start(unsigned int timeout_ms)
{
	struct pp_telemetry_config cfg = { .dir = tdir, .request_timeout_ms = timeout_ms };

	assert_int_equal(pp_telemetry_start(&cfg), 0);
}

static struct page_pool *pool_new(struct net_device *nd, struct napi_struct *napi)
{
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .netdev = nd, .napi = napi,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR(pool));
	return pool;
}

static void settle(struct page_pool *pool)
{
	page_pool_destroy(pool);
	pp_workqueue_run_all();
}

/* A POOL object equals pp_page_pool_get_info()'s view, attribute by
 * attribute; the optional ones are absent exactly when has_* is false. */
static void assert_pool_equals(const json_t *o, u32 id)
{
	struct pp_page_pool_info info;

	assert_int_equal(pp_page_pool_get_info(id, &info), 0);
	assert_int_equal(tlm_int(o, "id"), info.id);
	assert_int_equal(tlm_int(o, "inflight"), (long long)info.inflight);
	assert_int_equal(tlm_int(o, "inflight-mem"), (long long)info.inflight_mem);
	assert_int_equal(json_object_get(o, "ifindex") != NULL, info.has_ifindex);
	if (info.has_ifindex)
		assert_int_equal(tlm_int(o, "ifindex"), info.ifindex);
	assert_int_equal(json_object_get(o, "napi-id") != NULL, info.has_napi_id);
	if (info.has_napi_id)
		assert_int_equal(tlm_int(o, "napi-id"), info.napi_id);
	assert_int_equal(json_object_get(o, "detach-time") != NULL, info.has_detach_time);
	if (info.has_detach_time)
		assert_int_equal(tlm_int(o, "detach-time"), (long long)info.detach_time);
	assert_int_equal(json_object_size(o),
			 3 + info.has_ifindex + info.has_napi_id + info.has_detach_time);
}

static json_t *find_id(const json_t *arr, u32 id, bool stats)
{
	size_t i;
	json_t *o;

	json_array_foreach(arr, i, o) {
		const json_t *in = stats ? json_object_get(o, "info") : o;

		if (tlm_int(in, "id") == id)
			return o;
	}
	return NULL;
}

static void test_pool_get(void **state)
{
	struct net_device *nd = alloc_etherdev(0);
	struct napi_struct napi;
	struct page_pool *a, *b;
	struct page *pa[5], *pb;
	struct tlm_client *c;
	json_t *r, *arr;
	char req[128];
	size_t i;
	long long prev = 0;
	json_t *o;

	(void)state;
	memset(&napi, 0, sizeof(napi));
	assert_int_equal(register_netdev(nd), 0);
	netif_napi_add(nd, &napi, NULL);
	a = pool_new(nd, &napi);
	b = pool_new(NULL, NULL);	/* no netdev: listed without ifindex */
	for (i = 0; i < 5; i++)
		pa[i] = page_pool_alloc_pages(a, GFP_ATOMIC);
	pb = page_pool_alloc_pages(b, GFP_ATOMIC);
	page_pool_put_full_page(b, pb, false);

	start(0);
	c = client_new();
	r = tlm_call(c, "{\"op\":\"page-pool-get\",\"seq\":11}");
	assert_int_equal(tlm_int(r, "seq"), 11);
	arr = json_object_get(r, "reply");
	assert_true(json_is_array(arr));
	assert_int_equal(json_array_size(arr), 2);
	assert_pool_equals(find_id(arr, pp_page_pool_id(a), false), pp_page_pool_id(a));
	assert_pool_equals(find_id(arr, pp_page_pool_id(b), false), pp_page_pool_id(b));
	assert_null(json_object_get(find_id(arr, pp_page_pool_id(b), false), "ifindex"));
	json_array_foreach(arr, i, o) {		/* id order */
		assert_true(tlm_int(o, "id") > prev);
		prev = tlm_int(o, "id");
	}
	json_decref(r);

	snprintf(req, sizeof(req), "{\"op\":\"page-pool-get\",\"id\":%u}", pp_page_pool_id(a));
	r = tlm_call(c, req);
	assert_null(json_object_get(r, "seq"));
	assert_pool_equals(json_object_get(r, "reply"), pp_page_pool_id(a));
	assert_int_equal(tlm_int(json_object_get(r, "reply"), "ifindex"), nd->ifindex);
	assert_int_equal(tlm_int(json_object_get(r, "reply"), "napi-id"), napi.napi_id);
	json_decref(r);

	snprintf(req, sizeof(req), "{\"seq\":3,\"op\":\"page-pool-get\",\"id\":%u}",
		 pp_page_pool_id(b) + 100);
	r = tlm_call(c, req);
	assert_int_equal(tlm_int(r, "seq"), 3);
	assert_int_equal(tlm_errno(r), ENOENT);
	assert_string_equal(json_string_value(json_object_get(json_object_get(r, "error"),
							      "name")), "ENOENT");
	json_decref(r);

	/* Destroyed with pages out: still listed, with its detach time. */
	page_pool_destroy(a);
	snprintf(req, sizeof(req), "{\"op\":\"page-pool-get\",\"id\":%u}", pp_page_pool_id(a));
	r = tlm_call(c, req);
	assert_pool_equals(json_object_get(r, "reply"), pp_page_pool_id(a));
	assert_non_null(json_object_get(json_object_get(r, "reply"), "detach-time"));
	json_decref(r);

	client_free(c);
	pp_telemetry_stop();
	for (i = 0; i < 5; i++)
		page_pool_put_full_page(a, pa[i], false);
	pp_workqueue_run_all();
	settle(b);
	netif_napi_del(&napi);
	unregister_netdev(nd);
	free_netdev(nd);
}

static void assert_stats_equal(const json_t *o, u32 id)
{
	struct page_pool_stats st;

	memset(&st, 0, sizeof(st));
	assert_int_equal(pp_page_pool_get_stats_by_id(id, &st), 0);
	assert_int_equal(tlm_int(json_object_get(o, "info"), "id"), id);
	assert_int_equal(tlm_int(o, "alloc-fast"), st.alloc_stats.fast);
	assert_int_equal(tlm_int(o, "alloc-slow"), st.alloc_stats.slow);
	assert_int_equal(tlm_int(o, "alloc-slow-high-order"), st.alloc_stats.slow_high_order);
	assert_int_equal(tlm_int(o, "alloc-empty"), st.alloc_stats.empty);
	assert_int_equal(tlm_int(o, "alloc-refill"), st.alloc_stats.refill);
	assert_int_equal(tlm_int(o, "alloc-waive"), st.alloc_stats.waive);
	assert_int_equal(tlm_int(o, "recycle-cached"), st.recycle_stats.cached);
	assert_int_equal(tlm_int(o, "recycle-cache-full"), st.recycle_stats.cache_full);
	assert_int_equal(tlm_int(o, "recycle-ring"), st.recycle_stats.ring);
	assert_int_equal(tlm_int(o, "recycle-ring-full"), st.recycle_stats.ring_full);
	assert_int_equal(tlm_int(o, "recycle-released-refcnt"), st.recycle_stats.released_refcnt);
	assert_int_equal(json_object_size(o), 12);
}

static void test_stats_get(void **state)
{
	struct net_device *nd = alloc_etherdev(0);
	struct page_pool *pool;
	struct page *p[80];
	struct tlm_client *c;
	char req[160];
	json_t *r, *o;
	size_t i;

	(void)state;
	assert_int_equal(register_netdev(nd), 0);
	pool = pool_new(nd, NULL);
	/* Known counters: 80 allocations (a slow one per 64, fast ones
	 * from the cache), 40 ring recycles, 40 direct ones. */
	for (i = 0; i < 80; i++)
		p[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	for (i = 0; i < 40; i++)
		page_pool_put_full_page(pool, p[i], false);
	local_bh_disable();
	for (i = 40; i < 80; i++)
		page_pool_put_full_page(pool, p[i], true);
	local_bh_enable();

	start(0);
	c = client_new();
	r = tlm_call(c, "{\"op\":\"page-pool-stats-get\",\"seq\":1}");
	if (!IS_ENABLED(CONFIG_PAGE_POOL_STATS)) {
		assert_int_equal(tlm_errno(r), EOPNOTSUPP);
		goto out;
	}
	o = find_id(json_object_get(r, "reply"), pp_page_pool_id(pool), true);
	assert_non_null(o);
	assert_stats_equal(o, pp_page_pool_id(pool));
	assert_int_equal(tlm_int(json_object_get(o, "info"), "ifindex"), nd->ifindex);
	assert_true(tlm_int(o, "recycle-cached") + tlm_int(o, "recycle-ring") > 0);
	assert_true(tlm_int(o, "alloc-fast") > 0);
	json_decref(r);

	snprintf(req, sizeof(req), "{\"op\":\"page-pool-stats-get\",\"info\":{\"id\":%u}}",
		 pp_page_pool_id(pool));
	r = tlm_call(c, req);
	assert_stats_equal(json_object_get(r, "reply"), pp_page_pool_id(pool));
	json_decref(r);
	snprintf(req, sizeof(req), "{\"op\":\"page-pool-stats-get\",\"id\":%u}",
		 pp_page_pool_id(pool));
	r = tlm_call(c, req);
	assert_stats_equal(json_object_get(r, "reply"), pp_page_pool_id(pool));
	json_decref(r);
	r = tlm_call(c, "{\"op\":\"page-pool-stats-get\",\"info\":{\"id\":999999}}");
	assert_int_equal(tlm_errno(r), ENOENT);
	json_decref(r);
	r = tlm_call(c, "{\"op\":\"page-pool-stats-get\",\"info\":{\"ifindex\":2}}");
	assert_int_equal(tlm_errno(r), EOPNOTSUPP);
out:
	json_decref(r);
	client_free(c);
	pp_telemetry_stop();
	settle(pool);
	unregister_netdev(nd);
	free_netdev(nd);
}

static void test_process_get(void **state)
{
	struct tlm_client *c;
	json_t *r, *o;
	char comm[32];
	FILE *f;

	(void)state;
	start(0);
	c = client_new();
	r = tlm_call(c, "{\"op\":\"process-get\",\"seq\":4294967295}");
	assert_int_equal(tlm_int(r, "seq"), 4294967295ll);
	o = json_object_get(r, "reply");
	assert_int_equal(tlm_int(o, "pid"), getpid());
	assert_int_equal(tlm_int(o, "uid"), geteuid());
	assert_string_equal(json_string_value(json_object_get(o, "version")), PAGEPOOL_VERSION);
	assert_true(json_is_boolean(json_object_get(o, "holders")));
	f = fopen("/proc/self/comm", "r");
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	assert_string_equal(json_string_value(json_object_get(o, "comm")), comm);
	json_decref(r);
	client_free(c);
	pp_telemetry_stop();
}

static void assert_ntf(json_t *j, const char *name, u32 id)
{
	assert_string_equal(json_string_value(json_object_get(j, "name")), name);
	assert_int_equal(tlm_int(json_object_get(j, "msg"), "id"), id);
	json_decref(j);
}

static void test_notifications(void **state)
{
	struct net_device *nd = alloc_etherdev(0);
	struct page_pool *pool;
	struct tlm_client *c;
	struct page *p;
	json_t *r, *j, *msg;
	u32 id;

	(void)state;
	assert_int_equal(register_netdev(nd), 0);
	start(0);
	c = client_new();
	r = tlm_call(c, "{\"op\":\"subscribe\",\"group\":\"page-pool\",\"seq\":9}");
	assert_int_equal(tlm_int(r, "seq"), 9);
	assert_true(json_is_object(json_object_get(r, "reply")));
	assert_int_equal(json_object_size(json_object_get(r, "reply")), 0);
	json_decref(r);

	pool = pool_new(nd, NULL);
	id = pp_page_pool_id(pool);
	p = page_pool_alloc_pages(pool, GFP_ATOMIC);
	j = tlm_read_json(c, 2000);
	msg = json_object_get(j, "msg");
	assert_int_equal(tlm_int(msg, "ifindex"), nd->ifindex);
	assert_ntf(j, "page-pool-add-ntf", id);

	/* The device goes with a page out: re-parented to lo. */
	unregister_netdev(nd);
	j = tlm_read_json(c, 2000);
	assert_int_equal(tlm_int(json_object_get(j, "msg"), "ifindex"), 1);
	assert_ntf(j, "page-pool-change-ntf", id);

	/* Destroyed with the page out: detached. */
	page_pool_destroy(pool);
	j = tlm_read_json(c, 2000);
	assert_non_null(json_object_get(json_object_get(j, "msg"), "detach-time"));
	assert_int_equal(tlm_int(json_object_get(j, "msg"), "inflight"), 1);
	assert_ntf(j, "page-pool-change-ntf", id);

	/* The last page comes home: released, unlisted. */
	page_pool_put_full_page(pool, p, false);
	pp_workqueue_run_all();
	j = tlm_read_json(c, 2000);
	assert_int_equal(tlm_int(json_object_get(j, "msg"), "inflight"), 0);
	assert_ntf(j, "page-pool-del-ntf", id);

	/* Nothing else was sent, and the connection still answers. */
	r = tlm_call(c, "{\"op\":\"process-get\"}");
	assert_non_null(json_object_get(r, "reply"));
	json_decref(r);
	client_free(c);
	pp_telemetry_stop();
	free_netdev(nd);
}

/* Another uid's connection gets EACCES and is closed. The directory and
 * the socket are opened to everyone for the test, so that nothing but
 * the server's own check stands in the way. */
static void test_other_uid_refused(void **state)
{
	struct tlm_client *c;
	char path[128];
	int status, fd[2];
	pid_t pid;
	json_t *r;

	(void)state;
	if (geteuid() != 0)
		skip();
	start(0);
	assert_true(pp_telemetry_socket_path(path, sizeof(path)) > 0);
	assert_int_equal(chmod(tdir, 0711), 0);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct tlm_client cc;
		char *line;
		int st, ok;

		close(fd[0]);
		if (setgid(65534) || setuid(65534) || tlm_connect_path(&cc, path))
			_exit(2);
		tlm_send(&cc, "{\"op\":\"page-pool-get\"}");
		line = tlm_read_line(&cc, 3000, &st);
		ok = line && strstr(line, "\"errno\":13") && strstr(line, "\"EACCES\"") &&
		     !strstr(line, "reply");
		if (line)
			st = write(fd[1], line, strlen(line));
		free(line);
		/* Then end of file: the server closed it. */
		line = tlm_read_line(&cc, 3000, &st);
		_exit(ok && !line && st == 0 ? 0 : 1);
	}
	close(fd[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	{
		char buf[512] = "";
		ssize_t n = read(fd[0], buf, sizeof(buf) - 1);

		print_message("other uid got: %s\n", n > 0 ? buf : "(nothing)");
	}
	close(fd[0]);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);

	/* This uid is still served. */
	c = client_new();
	r = tlm_call(c, "{\"op\":\"process-get\"}");
	assert_int_equal(tlm_errno(r), 0);
	json_decref(r);
	client_free(c);
	pp_telemetry_stop();
	assert_int_equal(chmod(tdir, 0700), 0);
}

/* The busy pool: a thread allocates and recycles until told to stop. */
struct busy {
	struct page_pool *pool;
	bool stop;
	unsigned long rounds;
};

static void *busy_thread(void *arg)
{
	struct busy *b = arg;

	pp_thread_register(1);
	while (!READ_ONCE(b->stop)) {
		struct page *p[16];
		int i;

		local_bh_disable();
		for (i = 0; i < 16; i++)
			p[i] = page_pool_alloc_pages(b->pool, GFP_ATOMIC);
		for (i = 0; i < 16; i++)
			if (p[i])
				page_pool_put_full_page(b->pool, p[i], i & 1);
		local_bh_enable();
		b->rounds++;
	}
	pp_thread_unregister();
	return NULL;
}

/* A second client's page-pool-get: right, and within 2 s. */
static void assert_prompt_answer(struct tlm_client *c, u32 busy_id, u32 quiet_id)
{
	long long t0 = tlm_now_ms(), dt;
	json_t *r = tlm_call(c, "{\"op\":\"page-pool-get\"}"), *arr;

	dt = tlm_now_ms() - t0;
	print_message("page-pool-get answered in %lld ms\n", dt);
	assert_true(dt < 2000);
	arr = json_object_get(r, "reply");
	assert_non_null(find_id(arr, busy_id, false));
	assert_pool_equals(find_id(arr, quiet_id, false), quiet_id);
	json_decref(r);
}

static void test_hostile_clients(void **state)
{
	struct busy b = { 0 };
	struct page_pool *quiet;
	struct tlm_client *good, *bad, *sub;
	struct page *qp[3];
	pthread_t th;
	long long t0, dt;
	char *big, *line;
	int i, status;
	json_t *r;

	(void)state;
	b.pool = pool_new(NULL, NULL);
	quiet = pool_new(NULL, NULL);
	for (i = 0; i < 3; i++)
		qp[i] = page_pool_alloc_pages(quiet, GFP_ATOMIC);
	start(300);
	assert_int_equal(pthread_create(&th, NULL, busy_thread, &b), 0);
	good = client_new();
	assert_prompt_answer(good, pp_page_pool_id(b.pool), pp_page_pool_id(quiet));

	/* Garbage: EINVAL, and the connection stays. */
	bad = client_new();
	r = tlm_call(bad, "this is not json");
	assert_int_equal(tlm_errno(r), EINVAL);
	json_decref(r);
	r = tlm_call(bad, "[1,2,3]");
	assert_int_equal(tlm_errno(r), EINVAL);
	json_decref(r);
	r = tlm_call(bad, "{\"op\":\"page-pool-get\",\"id\":\"5\",\"seq\":2}");
	assert_int_equal(tlm_errno(r), EINVAL);
	assert_int_equal(tlm_int(r, "seq"), 2);
	json_decref(r);
	r = tlm_call(bad, "{\"op\":\"page-pool-get\",\"bogus\":1}");
	assert_int_equal(tlm_errno(r), EINVAL);
	json_decref(r);
	r = tlm_call(bad, "{\"op\":\"page-pool-get\",\"id\":0}");
	assert_int_equal(tlm_errno(r), EINVAL);
	json_decref(r);
	r = tlm_call(bad, "{\"op\":\"page-pool-set\"}");
	assert_int_equal(tlm_errno(r), EOPNOTSUPP);
	json_decref(r);
	r = tlm_call(bad, "{\"op\":\"subscribe\",\"group\":\"mgmt\"}");
	assert_int_equal(tlm_errno(r), EINVAL);
	json_decref(r);
	r = tlm_call(bad, "{\"op\":\"process-get\"}");
	assert_int_equal(tlm_errno(r), 0);
	json_decref(r);
	client_free(bad);

	/* A 1 MiB line: EMSGSIZE, then closed (the rest is not read). */
	bad = client_new();
	big = malloc(1 << 20);
	memset(big, 'x', 1 << 20);
	big[0] = '{';
	tlm_write(bad, big, 1 << 20);	/* may fail once the server closed */
	free(big);
	r = tlm_read_json(bad, 3000);
	assert_int_equal(tlm_errno(r), EMSGSIZE);
	json_decref(r);
	assert_true(tlm_wait_eof(bad, 3000));
	client_free(bad);
	assert_prompt_answer(good, pp_page_pool_id(b.pool), pp_page_pool_id(quiet));

	/* Half a request: ETIMEDOUT after the 300 ms, then closed. */
	bad = client_new();
	t0 = tlm_now_ms();
	assert_int_equal(tlm_write(bad, "{\"op\":\"page-po", 14), 0);
	r = tlm_read_json(bad, 3000);
	dt = tlm_now_ms() - t0;
	print_message("half-written request timed out after %lld ms\n", dt);
	assert_int_equal(tlm_errno(r), ETIMEDOUT);
	assert_true(dt >= 250 && dt < 2000);
	json_decref(r);
	assert_true(tlm_wait_eof(bad, 3000));
	client_free(bad);
	assert_prompt_answer(good, pp_page_pool_id(b.pool), pp_page_pool_id(quiet));

	/* A subscriber that never reads: dropped once more than 1 MiB of
	 * events wait for it; the others are served meanwhile. */
	sub = client_new();
	r = tlm_call(sub, "{\"op\":\"subscribe\",\"group\":\"page-pool\"}");
	assert_int_equal(tlm_errno(r), 0);
	json_decref(r);
	{
		int n;

		for (n = 0; n < 40000; n++) {
			struct page_pool_params pp = { .pool_size = 16, .nid = NUMA_NO_NODE };
			struct page_pool *p = page_pool_create(&pp);

			assert_false(IS_ERR(p));
			page_pool_destroy(p);
			if (n % 1000 == 999)
				rcu_barrier();	/* the pools' RCU-deferred frees */
			if (n % 4000 == 3999) {
				pp_workqueue_run_all();
				assert_prompt_answer(good, pp_page_pool_id(b.pool),
						     pp_page_pool_id(quiet));
			}
		}
	}
	/* What it did get ends in end of file, not in a live stream. */
	{
		int lines = 0;

		t0 = tlm_now_ms();
		while ((line = tlm_read_line(sub, 3000, &status))) {
			lines++;
			free(line);
		}
		print_message("dropped subscriber read %d lines before end of file\n", lines);
		assert_int_equal(status, 0);
		assert_true(lines > 0);
		assert_true(lines < 2 * 40000);
	}
	client_free(sub);
	assert_prompt_answer(good, pp_page_pool_id(b.pool), pp_page_pool_id(quiet));

	WRITE_ONCE(b.stop, true);
	pthread_join(th, NULL);
	print_message("busy thread: %lu rounds of 16 pages\n", b.rounds);
	assert_true(b.rounds > 0);
	client_free(good);
	pp_telemetry_stop();
	for (i = 0; i < 3; i++)
		page_pool_put_full_page(quiet, qp[i], false);
	settle(quiet);
	settle(b.pool);
}

/* A peer that shuts its sending side down after its requests gets every
 * reply, then end of file; a subscriber that does the same stays
 * subscribed. */
static void test_half_close(void **state)
{
	struct tlm_client *c, *sub;
	struct page_pool *pool;
	int status;
	char *line;
	json_t *r;

	(void)state;
	start(0);
	c = client_new();
	assert_int_equal(tlm_send(c, "{\"op\":\"process-get\",\"seq\":1}"), 0);
	assert_int_equal(tlm_send(c, "{\"op\":\"page-pool-get\",\"seq\":2}"), 0);
	assert_int_equal(tlm_write(c, "{\"op\":\"proc", 12), 0);	/* dropped */
	assert_int_equal(shutdown(c->fd, SHUT_WR), 0);
	r = tlm_read_json(c, 2000);
	assert_int_equal(tlm_int(r, "seq"), 1);
	json_decref(r);
	r = tlm_read_json(c, 2000);
	assert_int_equal(tlm_int(r, "seq"), 2);
	assert_true(json_is_array(json_object_get(r, "reply")));
	json_decref(r);
	line = tlm_read_line(c, 2000, &status);
	assert_null(line);
	assert_int_equal(status, 0);
	client_free(c);

	sub = client_new();
	assert_int_equal(tlm_send(sub, "{\"op\":\"subscribe\",\"group\":\"page-pool\"}"), 0);
	assert_int_equal(shutdown(sub->fd, SHUT_WR), 0);
	r = tlm_read_json(sub, 2000);
	assert_int_equal(tlm_errno(r), 0);
	json_decref(r);
	usleep(100 * 1000);
	pool = pool_new(NULL, NULL);
	r = tlm_read_json(sub, 2000);
	assert_ntf(r, "page-pool-add-ntf", pp_page_pool_id(pool));
	client_free(sub);
	pp_telemetry_stop();
	settle(pool);
}

/* max_clients: one more connection gets EBUSY and end of file, the
 * others are served; a value past the limit is refused. */
static void test_max_clients(void **state)
{
	struct pp_telemetry_config cfg = { .dir = tdir, .max_clients = 2 };
	struct tlm_client *a, *b, *c;
	json_t *r;

	(void)state;
	cfg.max_clients = 65537;
	assert_int_equal(pp_telemetry_start(&cfg), -EINVAL);
	cfg.max_clients = 2;
	assert_int_equal(pp_telemetry_start(&cfg), 0);
	a = client_new();
	b = client_new();
	r = tlm_call(a, "{\"op\":\"process-get\"}");	/* both accepted by now */
	json_decref(r);
	r = tlm_call(b, "{\"op\":\"process-get\"}");
	json_decref(r);
	c = client_new();
	r = tlm_read_json(c, 2000);
	assert_int_equal(tlm_errno(r), EBUSY);
	json_decref(r);
	assert_true(tlm_wait_eof(c, 2000));
	client_free(c);
	r = tlm_call(b, "{\"op\":\"page-pool-get\"}");
	assert_int_equal(tlm_errno(r), 0);
	json_decref(r);
	client_free(a);
	usleep(100 * 1000);	/* the server sees it go */
	c = client_new();
	r = tlm_call(c, "{\"op\":\"process-get\"}");
	assert_int_equal(tlm_errno(r), 0);
	json_decref(r);
	client_free(c);
	client_free(b);
	pp_telemetry_stop();
}

/* The holders op: in a build without holder tracking EOPNOTSUPP; with
 * it (meson -Dholders=true) the groups of pp_page_pool_for_each_holder(),
 * biggest first, the take sites named by pp_symbolize(). */
static noinline __attribute__((noipa)) struct page *fill_a(struct page_pool *pool)
{
	struct page *page = page_pool_dev_alloc_pages(pool);

	__asm__ volatile("" ::: "memory");	/* a call, not a tail jump */
	return page;
}

static noinline __attribute__((noipa)) struct page *fill_b(struct page_pool *pool)
{
	struct page *page = page_pool_dev_alloc_pages(pool);

	__asm__ volatile("" ::: "memory");
	return page;
}

static int holder_cb(const struct pp_page_pool_holder *h, void *arg)
{
	struct pp_page_pool_holder *v = arg;
	int i;

	for (i = 0; v[i].pages; i++)
		;
	if (i < 7)
		v[i] = *h;
	return 0;
}

static void test_holders_get(void **state)
{
	struct page_pool *pool = pool_new(NULL, NULL);
	struct pp_page_pool_holder want[8];
	struct tlm_client *c;
	struct page *p[4];
	char req[128], ip[32];
	json_t *r, *arr, *o;
	size_t i;

	(void)state;
	p[0] = fill_a(pool);
	p[1] = fill_a(pool);
	p[2] = fill_a(pool);
	p[3] = fill_b(pool);
	start(0);
	c = client_new();
	r = tlm_call(c, "{\"op\":\"process-get\"}");
	assert_int_equal(json_is_true(json_object_get(json_object_get(r, "reply"), "holders")),
			 IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS));
	json_decref(r);
	r = tlm_call(c, "{\"op\":\"page-pool-holders-get\"}");
	assert_int_equal(tlm_errno(r), EINVAL);		/* the id is required */
	json_decref(r);

	snprintf(req, sizeof(req), "{\"op\":\"page-pool-holders-get\",\"id\":%u,\"seq\":5}",
		 pp_page_pool_id(pool));
	r = tlm_call(c, req);
	assert_int_equal(tlm_int(r, "seq"), 5);
	if (!IS_ENABLED(CONFIG_PAGEPOOL_HOLDERS)) {
		assert_int_equal(tlm_errno(r), EOPNOTSUPP);
		goto out;
	}
	memset(want, 0, sizeof(want));
	assert_int_equal(pp_page_pool_for_each_holder(pp_page_pool_id(pool), holder_cb, want), 0);
	arr = json_object_get(r, "reply");
	assert_true(json_is_array(arr));
	assert_int_equal(json_array_size(arr), 2);
	json_array_foreach(arr, i, o) {
		const char *site = json_string_value(json_object_get(o, "take-site"));
		char *text = json_dumps(o, JSON_COMPACT);

		print_message("holder: %s\n", text);
		free(text);
		assert_int_equal(tlm_int(o, "pages"), want[i].pages);
		assert_int_equal(tlm_int(o, "cpu"), want[i].cpu);
		snprintf(ip, sizeof(ip), "%#lx", want[i].take_ip);
		assert_string_equal(json_string_value(json_object_get(o, "take-ip")), ip);
		assert_true(tlm_int(o, "held-for-ms") >= 0);
		assert_true(tlm_int(o, "held-for-ms") <= (long long)(want[i].held_ns / 1000000) + 5000);
		assert_null(json_object_get(o, "handoff-site"));
		assert_non_null(site);
		assert_non_null(strstr(site, i == 0 ? "fill_a+0x" : "fill_b+0x"));
		assert_non_null(strstr(site, "test_server.c:"));
	}
	assert_int_equal(tlm_int(json_array_get(arr, 0), "pages"), 3);	/* biggest first */
	assert_int_equal(tlm_int(json_array_get(arr, 1), "pages"), 1);
	json_decref(r);
	r = tlm_call(c, "{\"op\":\"page-pool-holders-get\",\"id\":999999}");
	assert_int_equal(tlm_errno(r), ENOENT);
out:
	json_decref(r);
	client_free(c);
	pp_telemetry_stop();
	for (i = 0; i < 4; i++)
		page_pool_put_full_page(pool, p[i], false);
	settle(pool);
}

static int count_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - (!strcmp(path, "/proc/self/fd"));	/* the DIR's own fd */
}

/*
 * The runtime's helper threads start on first use and stay: the work
 * item worker and the RCU callback thread. Started before a count of this
 * process's threads, so that only the server's own can move it (one of
 * them starting inside the window made the count one more, under
 * qemu-user's timing).
 */
static struct rcu_head warm_rcu;

static void warm_rcu_cb(struct rcu_head *head)
{
	(void)head;
}

static void start_runtime_threads(void)
{
	pp_workqueue_run_all();
	call_rcu(&warm_rcu, warm_rcu_cb);
	rcu_barrier();
}

static void test_stop_leaves_nothing(void **state)
{
	int fds, tasks;
	struct tlm_client *c, *sub;
	char path[128];
	struct stat st;
	json_t *r;

	(void)state;
	start_runtime_threads();
	fds = count_dir("/proc/self/fd");
	tasks = count_dir("/proc/self/task");
	assert_int_equal(pp_telemetry_socket_path(path, sizeof(path)), -ENOTCONN);
	start(0);
	{
		struct pp_telemetry_config cfg = { .dir = tdir };

		assert_int_equal(pp_telemetry_start(&cfg), -EALREADY);
	}
	assert_true(pp_telemetry_socket_path(path, sizeof(path)) > 0);
	assert_int_equal(pp_telemetry_socket_path(path, 4), -ERANGE);
	assert_true(pp_telemetry_socket_path(path, sizeof(path)) > 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(count_dir("/proc/self/task"), tasks + 1);
	c = client_new();
	sub = client_new();
	r = tlm_call(sub, "{\"op\":\"subscribe\",\"group\":\"page-pool\"}");
	json_decref(r);
	r = tlm_call(c, "{\"op\":\"page-pool-get\"}");
	json_decref(r);
	assert_int_equal(tlm_write(c, "{\"op\"", 5), 0);	/* half a line */
	pp_telemetry_stop();
	assert_true(tlm_wait_eof(c, 2000));
	assert_true(tlm_wait_eof(sub, 2000));
	client_free(c);
	client_free(sub);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(count_dir("/proc/self/fd"), fds);
	assert_int_equal(count_dir("/proc/self/task"), tasks);
	assert_int_equal(pp_telemetry_socket_path(path, sizeof(path)), -ENOTCONN);
	pp_telemetry_stop();	/* twice: nothing */

	/* And it starts again. */
	start(0);
	c = client_new();
	r = tlm_call(c, "{\"op\":\"process-get\"}");
	assert_int_equal(tlm_errno(r), 0);
	json_decref(r);
	client_free(c);
	pp_telemetry_stop();
	assert_int_equal(count_dir("/proc/self/fd"), fds);
}

/*
 * fork() after the start: the child has no server (only the forking
 * thread lives on), so it must not act as if it had the parent's: its
 * stop must leave the parent's socket alone, and it may start its own.
 */
static void test_fork_child(void **state)
{
	struct tlm_client *c;
	char path[128];
	int status;
	pid_t pid;
	json_t *r;

	(void)state;
	start(0);
	assert_true(pp_telemetry_socket_path(path, sizeof(path)) > 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct pp_telemetry_config cfg = { .dir = tdir };
		char own[128];

		if (pp_telemetry_socket_path(own, sizeof(own)) != -ENOTCONN)
			_exit(3);
		pp_telemetry_stop();
		if (access(path, F_OK))
			_exit(4);	/* the parent's socket was unlinked */
		/* No thread in a sanitized build's child (TLM_SANITIZED):
		 * the child's own server is checked in the other builds. */
		if (TLM_SANITIZED)
			_exit(0);
		if (pp_telemetry_start(&cfg))
			_exit(5);
		if (pp_telemetry_socket_path(own, sizeof(own)) <= 0 || !strcmp(own, path))
			_exit(6);
		pp_telemetry_stop();
		_exit(access(own, F_OK) == 0 || access(path, F_OK) ? 7 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);

	/* The parent is still served, at the same path. */
	c = client_new();
	r = tlm_call(c, "{\"op\":\"process-get\"}");
	assert_int_equal(tlm_errno(r), 0);
	assert_int_equal(tlm_int(json_object_get(r, "reply"), "pid"), getpid());
	json_decref(r);
	client_free(c);
	pp_telemetry_stop();
}

/* Something other than a socket at <dir>/<pid>.sock is someone's file:
 * the start refuses (-EEXIST) and leaves it, a regular file or a
 * directory alike. */
static void test_not_a_socket_left_alone(void **state)
{
	struct pp_telemetry_config cfg = { .dir = tdir };
	char path[128];
	struct stat st;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/%d.sock", tdir, (int)getpid());
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pp_telemetry_start(&cfg), -EEXIST);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(pp_telemetry_start(&cfg), -EEXIST);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(rmdir(path), 0);
	/* With the path free it starts. */
	start(0);
	pp_telemetry_stop();
}

static void test_dir_permissions(void **state)
{
	struct pp_telemetry_config cfg = { 0 };
	char d[96];
	int fds = count_dir("/proc/self/fd");

	(void)state;
	snprintf(d, sizeof(d), "%s/open", tdir);
	cfg.dir = d;
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(chmod(d, 0755), 0);
	assert_int_equal(pp_telemetry_start(&cfg), -EPERM);	/* others may look in */
	assert_int_equal(chmod(d, 0730), 0);
	assert_int_equal(pp_telemetry_start(&cfg), -EPERM);	/* group may write */
	assert_int_equal(chmod(d, 0700), 0);
	if (geteuid() == 0) {
		assert_int_equal(chown(d, 65534, 65534), 0);
		assert_int_equal(pp_telemetry_start(&cfg), -EPERM);	/* not ours */
		assert_int_equal(chown(d, 0, 0), 0);
	}
	assert_int_equal(pp_telemetry_start(&cfg), 0);
	pp_telemetry_stop();
	assert_int_equal(rmdir(d), 0);

	/* Created when missing, mode 0700. */
	snprintf(d, sizeof(d), "%s/new", tdir);
	assert_int_equal(pp_telemetry_start(&cfg), 0);
	{
		struct stat st;

		assert_int_equal(stat(d, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0700);
	}
	pp_telemetry_stop();
	assert_int_equal(rmdir(d), 0);

	/* A file in the way, a symbolic link, a path too long. */
	snprintf(d, sizeof(d), "%s/link", tdir);
	assert_int_equal(symlink(tdir, d), 0);
	assert_int_equal(pp_telemetry_start(&cfg), -ENOTDIR);
	unlink(d);
	{
		char longdir[200];

		memset(longdir, 'a', sizeof(longdir));
		memcpy(longdir, "/tmp/", 5);
		longdir[sizeof(longdir) - 1] = '\0';
		cfg.dir = longdir;
		assert_true(pp_telemetry_start(&cfg) < 0);
		cfg.dir = d;
	}
	assert_int_equal(count_dir("/proc/self/fd"), fds);
}

/* A failed test leaves no server running for the next. */
static int test_teardown(void **state)
{
	(void)state;
	pp_telemetry_stop();
	chmod(tdir, 0700);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	snprintf(tdir, sizeof(tdir), "/tmp/pp-tlm-test-XXXXXX");
	if (!mkdtemp(tdir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(tdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pool_get, test_teardown),
		cmocka_unit_test_teardown(test_stats_get, test_teardown),
		cmocka_unit_test_teardown(test_process_get, test_teardown),
		cmocka_unit_test_teardown(test_notifications, test_teardown),
		cmocka_unit_test_teardown(test_other_uid_refused, test_teardown),
		cmocka_unit_test_teardown(test_hostile_clients, test_teardown),
		cmocka_unit_test_teardown(test_half_close, test_teardown),
		cmocka_unit_test_teardown(test_max_clients, test_teardown),
		cmocka_unit_test_teardown(test_holders_get, test_teardown),
		cmocka_unit_test_teardown(test_stop_leaves_nothing, test_teardown),
		cmocka_unit_test_teardown(test_fork_child, test_teardown),
		cmocka_unit_test_teardown(test_not_a_socket_left_alone, test_teardown),
		cmocka_unit_test_teardown(test_dir_permissions, test_teardown),
	};
	struct pp_mem_config cfg = { .size = 64 << 20, .nr_nodes = 1 };

	signal(SIGPIPE, SIG_IGN);
	pp_test_capture_log();
	if (pp_mem_init(&cfg))
		abort();
	pp_thread_register(0);
	return cmocka_run_group_tests(tests, setup, teardown);
}
