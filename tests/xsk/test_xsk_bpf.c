/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * drivers/xsk/xsk_bpf.{c,h}, the AF_XDP redirect program and its loader, on
 * a veth pair in a network namespace of the test's own (unshare()d at
 * start, gone when the process exits): attach in skb and drv mode, frames
 * of queue 0 reach the AF_XDP socket in the XSKMAP and none when it is
 * not there, a second program is refused without touching the first,
 * detach leaves the interface without a program, bad arguments are
 * -errno; a process SIGKILLed with the program attached leaves nothing
 * behind (BPF link), and a netlink-attached program is named with the
 * command that removes it. Root; skipped (77) where a network namespace or an AF_XDP socket
 * cannot be made. System headers and libxdp only.
 * Layer: tests.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <xdp/xsk.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xsk_bpf.h"

#define NFRAMES	1024u
#define FSIZE	2048u

static bool is_err(const void *p)
{
	return (uintptr_t)p >= (uintptr_t)-4095;
}

static long ptr_err(const void *p)
{
	return (long)(intptr_t)p;
}

/* 1 if `ip link show DEV` lists an XDP program (generic or native). */
static int has_xdp(const char *dev)
{
	char cmd[128], line[512];
	FILE *f;
	int found = 0;

	snprintf(cmd, sizeof(cmd), "ip link show %s", dev);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " xdp") || strstr(line, "prog/xdp"))
			found = 1;
	pclose(f);
	return found;
}

/* Send n frames of EtherType 0x88B5 from dev (AF_PACKET). */
static void send_frames(const char *dev, unsigned int n)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = (int)if_nametoindex(dev) };
	uint8_t f[60] = { 0x02, 0x70, 0x70, 0, 0, 0x02, 0x02, 0x70, 0x70, 0, 0, 0x01, 0x88, 0xb5 };
	int fd = socket(AF_PACKET, SOCK_RAW, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sll, sizeof(sll)), 0);
	for (unsigned int i = 0; i < n; i++) {
		f[20] = (uint8_t)i;
		assert_int_equal(send(fd, f, sizeof(f), 0), (ssize_t)sizeof(f));
	}
	close(fd);
}

struct xsk_rx {
	void *area;
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	struct xsk_ring_prod fq, tx;
	struct xsk_ring_cons cq, rx;
};

static void xsk_open(struct xsk_rx *x, const char *dev, bool drv)
{
	struct xsk_socket_config cfg = {
		.rx_size = 1024, .tx_size = 1024,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.xdp_flags = drv ? XDP_FLAGS_DRV_MODE : XDP_FLAGS_SKB_MODE, .bind_flags = XDP_COPY,
	};
	uint32_t idx = 0;

	memset(x, 0, sizeof(*x));
	x->area = mmap(NULL, NFRAMES * FSIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(x->area != MAP_FAILED);
	assert_int_equal(xsk_umem__create(&x->umem, x->area, NFRAMES * FSIZE, &x->fq, &x->cq, NULL),
			 0);
	/* The queue is busy until the kernel's deferred release of the
	 * previous test's socket has run. */
	for (int tries = 0;; tries++) {
		int err = xsk_socket__create(&x->xsk, dev, 0, x->umem, &x->rx, &x->tx, &cfg);

		if (err != -EBUSY || tries == 100) {
			assert_int_equal(err, 0);
			break;
		}
		usleep(20 * 1000);
	}
	assert_int_equal(xsk_ring_prod__reserve(&x->fq, 1024, &idx), 1024);
	for (unsigned int i = 0; i < 1024; i++)
		*xsk_ring_prod__fill_addr(&x->fq, idx + i) = (uint64_t)i * FSIZE;
	xsk_ring_prod__submit(&x->fq, 1024);
}

/* Frames on the socket's RX ring within ms milliseconds of quiet. */
static unsigned int xsk_count(struct xsk_rx *x, int ms)
{
	struct pollfd p = { .fd = xsk_socket__fd(x->xsk), .events = POLLIN };
	unsigned int got = 0, n;
	uint32_t idx = 0;

	while (poll(&p, 1, ms) > 0) {
		n = xsk_ring_cons__peek(&x->rx, 64, &idx);
		for (unsigned int i = 0; i < n; i++) {
			const struct xdp_desc *d = xsk_ring_cons__rx_desc(&x->rx, idx + i);
			const uint8_t *data = xsk_umem__get_data(x->area, d->addr);

			assert_int_equal(d->len, 60);
			assert_int_equal(data[12], 0x88);
			assert_int_equal(data[13], 0xb5);
		}
		xsk_ring_cons__release(&x->rx, n);
		got += n;
	}
	return got;
}

static void xsk_close(struct xsk_rx *x)
{
	xsk_socket__delete(x->xsk);
	xsk_umem__delete(x->umem);
	munmap(x->area, NFRAMES * FSIZE);
}

static void redirect_mode(bool drv)
{
	struct ppxsk_bpf *b, *b2;
	struct xsk_rx x;

	assert_int_equal(has_xdp("va"), 0);
	b = ppxsk_bpf_attach("va", drv);
	assert_false(is_err(b));
	assert_int_equal(has_xdp("va"), 1);
	assert_int_equal(ppxsk_bpf_ifindex(b), (int)if_nametoindex("va"));
	assert_true(ppxsk_bpf_map_fd(b) >= 0);

	/* A second program, in either mode, is refused; ours stays. */
	b2 = ppxsk_bpf_attach("va", drv);
	assert_true(is_err(b2));
	assert_int_equal(ptr_err(b2), -EBUSY);
	b2 = ppxsk_bpf_attach("va", !drv);
	assert_int_equal(ptr_err(b2), -EEXIST);
	assert_int_equal(has_xdp("va"), 1);

	xsk_open(&x, "va", drv);
	/* Not in the map yet: the frames go to the stack. */
	send_frames("vb", 50);
	assert_int_equal(xsk_count(&x, 200), 0);

	assert_int_equal(ppxsk_bpf_add_socket(b, 0, x.xsk), 0);
	send_frames("vb", 300);
	assert_int_equal(xsk_count(&x, 300), 300);

	assert_int_equal(ppxsk_bpf_del_socket(b, 0), 0);
	assert_int_equal(ppxsk_bpf_del_socket(b, 0), 0);	/* nothing there: still 0 */
	send_frames("vb", 50);
	assert_int_equal(xsk_count(&x, 200), 0);

	assert_int_equal(ppxsk_bpf_detach(b), 0);
	assert_int_equal(has_xdp("va"), 0);
	xsk_close(&x);
}

static void test_redirect_skb(void **state)
{
	(void)state;
	redirect_mode(false);
}

static void test_redirect_drv(void **state)
{
	(void)state;
	redirect_mode(true);
}

static void test_bad_input(void **state)
{
	struct ppxsk_bpf *b;
	struct xsk_rx x;

	(void)state;
	assert_int_equal(ptr_err(ppxsk_bpf_attach("no-such-if", false)), -ENODEV);
	assert_int_equal(ptr_err(ppxsk_bpf_attach(NULL, false)), -EINVAL);
	assert_int_equal(ptr_err(ppxsk_bpf_attach("", true)), -EINVAL);
	assert_int_equal(ptr_err(ppxsk_bpf_attach("a-name-longer-than-ifnamsiz", true)), -EINVAL);
	assert_int_equal(ppxsk_bpf_detach(NULL), -EINVAL);
	assert_int_equal(ppxsk_bpf_map_fd(NULL), -EINVAL);

	b = ppxsk_bpf_attach("va", false);
	assert_false(is_err(b));
	xsk_open(&x, "va", false);
	assert_int_equal(ppxsk_bpf_add_socket(b, 64, x.xsk), -EINVAL);
	assert_int_equal(ppxsk_bpf_add_socket(b, 0, NULL), -EINVAL);
	assert_int_equal(ppxsk_bpf_add_socket(NULL, 0, x.xsk), -EINVAL);
	assert_int_equal(ppxsk_bpf_del_socket(b, 64), -EINVAL);
	assert_int_equal(ppxsk_bpf_add_socket(b, 0, x.xsk), 0);
	xsk_close(&x);
	assert_int_equal(ppxsk_bpf_detach(b), 0);
	assert_int_equal(has_xdp("va"), 0);
}

/* A child attaches and is SIGKILLed before it can detach: the program
 * must go with it, so that the next attach works (a netlink attachment
 * would stay: -EBUSY for ever). */
static void killed_holder(bool drv)
{
	struct ppxsk_bpf *b;
	int p[2], status, tries;
	pid_t pid;
	char c;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		b = ppxsk_bpf_attach("va", drv);
		c = is_err(b) ? 'E' : 'A';
		if (write(p[1], &c, 1) != 1)
			_exit(2);
		for (;;)
			pause();
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	assert_int_equal(c, 'A');
	assert_int_equal(has_xdp("va"), 1);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	/* The link goes when the dead child's files are closed; allow the
	 * kernel a moment for that, then the interface must be free. */
	for (tries = 0; has_xdp("va") && tries < 50; tries++)
		usleep(20 * 1000);
	b = ppxsk_bpf_attach("va", drv);
	assert_false(is_err(b));
	assert_int_equal(ppxsk_bpf_detach(b), 0);
	assert_int_equal(has_xdp("va"), 0);
}

static void test_killed_holder_skb(void **state)
{
	(void)state;
	killed_holder(false);
}

static void test_killed_holder_drv(void **state)
{
	(void)state;
	killed_holder(true);
}

/* A program attached by netlink (as `ip link set ... xdpgeneric obj` does)
 * on vb: our attach is refused and the holder is named, with the command
 * that removes it; ours on va is named as a link of a live process. */
static void test_holder(void **state)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct ppxsk_bpf *b, *b2;
	char why[384] = "";
	int fd, id;

	(void)state;
	assert_int_equal(ppxsk_bpf_holder("vb", why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(ppxsk_bpf_holder("no-such-if", why, sizeof(why)), -ENODEV);
	assert_int_equal(ppxsk_bpf_holder(NULL, why, sizeof(why)), -EINVAL);

	b = ppxsk_bpf_attach("va", false);
	assert_false(is_err(b));
	assert_int_equal(bpf_xdp_query(ppxsk_bpf_ifindex(b), 0, &q), 0);
	assert_true(q.skb_prog_id > 0);
	id = ppxsk_bpf_holder("va", why, sizeof(why));
	assert_int_equal(id, (int)q.skb_prog_id);
	assert_non_null(strstr(why, "BPF link id"));
	assert_non_null(strstr(why, "ppxsk_redirect"));

	fd = bpf_prog_get_fd_by_id(q.skb_prog_id);
	assert_true(fd >= 0);
	assert_int_equal(bpf_xdp_attach((int)if_nametoindex("vb"), fd, XDP_FLAGS_SKB_MODE, NULL), 0);
	close(fd);
	b2 = ppxsk_bpf_attach("vb", false);
	assert_int_equal(ptr_err(b2), -EBUSY);
	b2 = ppxsk_bpf_attach("vb", true);
	assert_int_equal(ptr_err(b2), -EEXIST);
	assert_int_equal(ppxsk_bpf_holder("vb", why, sizeof(why)), id);
	assert_non_null(strstr(why, "attached by netlink"));
	assert_non_null(strstr(why, "'ip link set dev vb xdpgeneric off'"));

	assert_int_equal(bpf_xdp_detach((int)if_nametoindex("vb"), XDP_FLAGS_SKB_MODE, NULL), 0);
	assert_int_equal(ppxsk_bpf_holder("vb", why, sizeof(why)), 0);
	assert_int_equal(ppxsk_bpf_detach(b), 0);
	assert_int_equal(has_xdp("va"), 0);
}

/* A failed test leaves its program on va: the next starts without one. */
static int clean_va(void **state)
{
	(void)state;
	return system("ip link set va xdpgeneric off; ip link set va xdpdrv off; "
		      "ip link set vb xdpgeneric off") ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_redirect_skb, clean_va),
		cmocka_unit_test_setup(test_redirect_drv, clean_va),
		cmocka_unit_test_setup(test_bad_input, clean_va),
		cmocka_unit_test_setup(test_killed_holder_skb, clean_va),
		cmocka_unit_test_setup(test_killed_holder_drv, clean_va),
		cmocka_unit_test_setup(test_holder, clean_va),
	};
	int fd;

	if (geteuid() != 0) {
		printf("SKIP: needs root (a network namespace, AF_XDP)\n");
		return 77;
	}
	if (unshare(CLONE_NEWNET)) {
		printf("SKIP: cannot make a network namespace: %s\n", strerror(errno));
		return 77;
	}
	fd = socket(AF_XDP, SOCK_RAW, 0);
	if (fd < 0) {
		printf("SKIP: cannot create an AF_XDP socket: %s\n", strerror(errno));
		return 77;
	}
	close(fd);
	/* The children of system() share this namespace. */
	if (system("ip link add va numtxqueues 1 numrxqueues 1 type veth peer name vb "
		   "numtxqueues 1 numrxqueues 1 && ip link set va up && ip link set vb up && "
		   "sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null; ip link show va >/dev/null")) {
		printf("FAIL: cannot make the veth pair\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
