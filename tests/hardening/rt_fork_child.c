/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * After fork() the child hung in pp_workqueue_run_all()
 * (waiting for a worker thread the child does not have) or crashed in its
 * first page_pool_destroy() (synchronize_rcu()). The library is not
 * supported in a fork child (<pagepool/runtime.h>), but the child is now
 * told once (a WARN through the print callback) and does not hang: the
 * calls that would wait for a missing thread return.
 *
 * The parent's state is untouched: it tears down normally afterwards, with
 * every page home and no DMA-API violation. The child reports through its
 * exit status: 0 all good, 2 a wrong WARN count, 3 no message; a hang is
 * caught by alarm() (SIGALRM).
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/dma-mapping.h>
#include <linux/rcupdate.h>

#include "hard.h"

static struct device *dma_dev;

static int child_main(struct page_pool *pool, struct page *page)
{
	unsigned long w0 = pp_warn_count();

	alarm(10);
	/* Each of these waited for a thread the child does not have. */
	pp_workqueue_run_all();
	synchronize_rcu();
	rcu_barrier();
	page_pool_put_full_page(pool, page, false);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	if (pp_warn_count() - w0 != 1)
		return 2;	/* one report for the child, not one per call */
	if (!kapi_logged("fork() child"))
		return 3;
	return 0;
}

static void test_fork_child(void **state)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP,
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
		.dev = dma_dev,
		.dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *pool;
	struct page *page;
	int status;
	pid_t pid;

	(void)state;
	pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(pool));
	page = page_pool_dev_alloc_pages(pool);
	assert_non_null(page);
	/* The worker and the call_rcu thread exist in the parent. */
	pp_workqueue_run_all();
	synchronize_rcu();
	rcu_barrier();
	hard_warns();

	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(child_main(pool, page));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		fail_msg("the child died of signal %d (%s)", WTERMSIG(status),
			 WTERMSIG(status) == SIGALRM ? "hung" : "crashed");
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);

	/* The parent is not affected: no WARN, a normal teardown. */
	assert_int_equal(hard_warns(), 0);
	page_pool_put_full_page(pool, page, false);
	page_pool_destroy(pool);
	synchronize_rcu();
	rcu_barrier();
	kapi_assert_all_pages_home();
	assert_int_equal(pp_dma_violations(dma_dev), 0);
	assert_int_equal(hard_warns(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_child),
	};
	int rc;

	kapi_setup();
	dma_dev = pp_device_create("rt_fork_child", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR(dma_dev))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pp_device_destroy(dma_dev);
	return rc;
}
