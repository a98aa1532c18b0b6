/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Use after recycle, caught at the faulting instruction (meson -Dpoison,
 * CONFIG_PAGEPOOL_POISON_ASAN in an ASan build): a page the pool owns -
 * in its alloc cache, in its return ring from another thread - or that
 * went back to the page allocator is poisoned, so a driver's write or
 * read through a stale pointer is an ASan use-after-poison report naming
 * the function that made the access, not a silent corruption of the next
 * user's packet.
 *
 * Each case runs in a child process (fork(), then exec() of this program,
 * so that the child has the library's worker and RCU threads, which a
 * fork() child does not) whose stderr comes back through a pipe: the access after the page went home must be reported as
 * use-after-poison with the child's function in the stack, the same access
 * while the page is still the caller's must not be reported at all.
 * Without ASan poisoning (-Dpoison=none, or a build without ASan) the
 * cases skip: there is nothing that could report them. In an ASan build
 * without poisoning, PP_POISON_TEST_FORCE=1 runs them anyway, to show that
 * they fail there.
 */
#include <errno.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hard.h"

#define NEEDS_ASAN_POISON()						\
	do {								\
		if (!IS_ENABLED(CONFIG_PAGEPOOL_POISON_ASAN) && !forced()) {	\
			print_message("needs ASan poisoning (meson -Db_sanitize=address, -Dpoison=auto or asan)\n"); \
			skip();						\
		}							\
	} while (0)

/* PP_POISON_TEST_FORCE=1 in an ASan build (this program is built with
 * -fsanitize=address there). */
static bool forced(void)
{
#if defined(__SANITIZE_ADDRESS__)
	const char *e = getenv("PP_POISON_TEST_FORCE");

	return e && *e == '1';
#else
	return false;
#endif
}

/* What a child said on stderr, and how it ended. */
struct child {
	char err[65536];
	size_t len;
	int status;
};

/* Run case @name in a child with its stderr on a pipe: this program again,
 * "child NAME 0|1" (main()); the child exits 0 when the case returns. */
static void run_child(const char *name, bool after, struct child *c)
{
	int fds[2];
	ssize_t n;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		execl("/proc/self/exe", "use_after_recycle", "child", name, after ? "1" : "0",
		      (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], c->err + c->len, sizeof(c->err) - 1 - c->len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		assert_true(n > 0);
		c->len += (size_t)n;
		if (c->len == sizeof(c->err) - 1) {
			char sink[4096];

			while (read(fds[0], sink, sizeof(sink)) > 0)	/* keep the head */
				;
			break;
		}
	}
	close(fds[0]);
	assert_int_equal(waitpid(pid, &c->status, 0), pid);
}

/* The access after recycling: reported as use-after-poison, in @func. */
static void assert_reported(struct child *c, const char *func)
{
	const char *frame_line;
	char frame[128];

	if (WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0)
		print_message("child exited 0; its stderr:\n%s\n", c->err);
	assert_false(WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0);
	if (!strstr(c->err, "use-after-poison"))
		print_message("no use-after-poison report; the child's stderr:\n%s\n", c->err);
	assert_non_null(strstr(c->err, "ERROR: AddressSanitizer: use-after-poison"));
	snprintf(frame, sizeof(frame), " in %s ", func);
	if (!strstr(c->err, frame))
		print_message("%s not in the report:\n%s\n", func, c->err);
	assert_non_null(strstr(c->err, frame));
	/* The faulting frame, for the log. */
	frame_line = strstr(c->err, "#0 ");
	if (frame_line)
		print_message("reported: %.*s\n", (int)strcspn(frame_line, "\n"), frame_line);
}

/* The same access while the page was the caller's: nothing reported. */
static void assert_clean(struct child *c)
{
	if (!WIFEXITED(c->status) || WEXITSTATUS(c->status) != 0 || c->len)
		print_message("child status %#x; its stderr:\n%s\n", c->status, c->err);
	assert_true(WIFEXITED(c->status));
	assert_int_equal(WEXITSTATUS(c->status), 0);
	assert_null(strstr(c->err, "AddressSanitizer"));
}

/* The child's set-up: this thread is CPU 0, a pool on a DMA device. */
static struct page_pool *child_pool(unsigned int pool_size)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = pool_size, .nid = NUMA_NO_NODE,
		.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE,
	};
	struct page_pool *pool;

	kapi_setup();
	pp.dev = pp_device_create("uar0", PP_DMA_DIRECT, PP_DMA_DEBUG);
	if (IS_ERR_OR_NULL(pp.dev))
		_exit(10);
	pool = page_pool_create(&pp);
	if (IS_ERR_OR_NULL(pool))
		_exit(11);
	return pool;
}

static struct page *child_alloc(struct page_pool *pool)
{
	struct page *page = page_pool_dev_alloc_pages(pool);

	if (!page)
		_exit(12);
	return page;
}

/* A write through a stale pointer after page_pool_recycle_direct(): the
 * page is in the pool's alloc cache. */
static noinline void child_write_after_recycle_direct(bool after)
{
	struct page_pool *pool = child_pool(256);
	struct page *page = child_alloc(pool);
	volatile char *data = page_address(page);

	data[100] = 1;
	if (!after)
		data[PAGE_SIZE - 1] = 2;
	page_pool_recycle_direct(pool, page);
	if (after)
		data[PAGE_SIZE - 1] = 2;	/* the use after recycle */
}

/* A read of a recycled page: the driver looks at a packet it gave back. */
static noinline void child_read_after_recycle(bool after)
{
	struct page_pool *pool = child_pool(256);
	struct page *page = child_alloc(pool);
	volatile char *data = page_address(page);
	char c = 0;

	data[0] = 42;
	if (!after)
		c = data[64];
	page_pool_put_full_page(pool, page, true);
	if (after)
		c = data[64];			/* the use after recycle */
	if (c != 0 && c != 42)
		_exit(13);
}

static struct page_pool *other_pool;
static struct page *other_page;

/* Another CPU gives the page back: it goes to the return ring (or lane,
 * llist, magazine: whichever this build's ring is). */
static void *other_cpu_put(void *arg)
{
	(void)arg;
	if (pp_thread_register(1) != 1)
		_exit(14);
	page_pool_put_full_page(other_pool, other_page, false);
	return NULL;
}

/* A write after the page was put into the ring from another thread. */
static noinline void child_write_after_ring_put(bool after)
{
	struct page_pool *pool = child_pool(256);
	struct page *page = child_alloc(pool);
	volatile char *data = page_address(page);
	pthread_t t;

	other_pool = pool;
	other_page = page;
	if (!after)
		data[2048] = 3;
	if (pthread_create(&t, NULL, other_cpu_put, NULL) || pthread_join(t, NULL))
		_exit(15);
	if (after)
		data[2048] = 3;			/* the use after recycle */
}

/* A write after page_pool_destroy() gave the page (recycled first, so
 * sitting in the alloc cache) back to the page allocator. */
static noinline void child_write_after_destroy(bool after)
{
	struct page_pool *pool = child_pool(256);
	struct page *page = child_alloc(pool);
	volatile char *data = page_address(page);

	if (!after)
		data[8] = 4;
	page_pool_recycle_direct(pool, page);
	page_pool_destroy(pool);
	if (after)
		data[8] = 4;			/* the use after free */
}

/* A write after the put of a page that was inflight at destroy: the
 * pool is gone, the put releases the page to the page allocator. */
static noinline void child_write_after_put_to_allocator(bool after)
{
	struct page_pool *pool = child_pool(256);
	struct page *page = child_alloc(pool);
	volatile char *data = page_address(page);

	page_pool_destroy(pool);	/* deferred: one page inflight */
	if (!after)
		data[16] = 5;
	page_pool_put_full_page(pool, page, false);
	pp_workqueue_run_all();		/* the deferred release frees it */
	if (after)
		data[16] = 5;			/* the use after free */
}

#define UAR_CASE(fn)							\
static void test_##fn(void **state)					\
{									\
	static struct child c;						\
									\
	(void)state;							\
	NEEDS_ASAN_POISON();						\
	run_child(#fn, false, &c);					\
	assert_clean(&c);						\
	run_child(#fn, true, &c);					\
	assert_reported(&c, #fn);					\
}

UAR_CASE(child_write_after_recycle_direct)
UAR_CASE(child_read_after_recycle)
UAR_CASE(child_write_after_ring_put)
UAR_CASE(child_write_after_destroy)
UAR_CASE(child_write_after_put_to_allocator)

static const struct {
	const char *name;
	void (*fn)(bool after);
} cases[] = {
	{ "child_write_after_recycle_direct", child_write_after_recycle_direct },
	{ "child_read_after_recycle", child_read_after_recycle },
	{ "child_write_after_ring_put", child_write_after_ring_put },
	{ "child_write_after_destroy", child_write_after_destroy },
	{ "child_write_after_put_to_allocator", child_write_after_put_to_allocator },
};

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_child_write_after_recycle_direct),
		cmocka_unit_test(test_child_read_after_recycle),
		cmocka_unit_test(test_child_write_after_ring_put),
		cmocka_unit_test(test_child_write_after_destroy),
		cmocka_unit_test(test_child_write_after_put_to_allocator),
	};

	size_t i;

	if (argc == 4 && !strcmp(argv[1], "child")) {
		alarm(60);
		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			if (!strcmp(argv[2], cases[i].name)) {
				cases[i].fn(argv[3][0] == '1');
				/* No teardown: the pools and devices are left
				 * for exit, not for the leak checker. */
				fflush(NULL);
				_exit(0);
			}
		}
		return 126;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
