/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * xdp_fwd --frames pagepool in a build without the AF_XDP driver
 * (drivers/xsk's ppxsk): refused at setup with a message, nothing else.
 * Context: the main thread.
 * Layer: examples.
 */
#include <errno.h>
#include <stdio.h>

#include "xdp_fwd.h"

static int absent_setup(const struct fwd_opts *o)
{
	(void)o;
	fprintf(stderr, "xdp_fwd: --frames pagepool: this build has no AF_XDP driver "
		"(drivers/xsk); use --frames fixed\n");
	return -EOPNOTSUPP;
}

static int absent_run(const struct fwd_opts *o)
{
	(void)o;
	return -EOPNOTSUPP;
}

static void absent_snap(struct fwd_snap *s)
{
	*s = (struct fwd_snap){ 0 };
}

static int absent_teardown(void)
{
	return 0;
}

static void absent_check(struct fwd_check *c)
{
	*c = (struct fwd_check){ .ok = false, .why = "no AF_XDP driver in this build" };
}

const struct fwd_ops fwd_pagepool_ops = {
	.name = "pagepool",
	.setup = absent_setup,
	.run = absent_run,
	.snap = absent_snap,
	.teardown = absent_teardown,
	.check = absent_check,
};
