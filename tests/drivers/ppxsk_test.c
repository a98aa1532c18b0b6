/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The ppxsk driver (drivers/xsk) on real veth pairs. The program moves
 * into a network namespace of its own (unshare(CLONE_NEWNET): the kernel
 * removes it when the program exits) with two veth pairs, a0<->a1 and
 * b0<->b1, one queue each, IPv6 off. Ports open on a0 and b0; frames are
 * sent with an AF_PACKET socket on a1, and what the ports send is counted
 * with AF_PACKET sockets on a1 (XDP_TX) and b1 (XDP_REDIRECT a0 -> b0).
 * Each case checks the driver's counters against what was sent, that
 * every loss is in the socket's XDP_STATISTICS, and after the ports
 * closed that every frame is back in the UMEM's provider with no DMA-API
 * violation (ppxsk_umem_check()).
 * Needs root, veth and AF_XDP: exits 77 (skipped) with the reason when
 * one cannot be had.
 * Layer: tests.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <net/xdp.h>
#include <pagepool.h>

#include "ppxsk.h"
#include "test_common.h"

#define ETH_P_PPXSK	0x88B5
#define FRAME_LEN	60
#define NR_FRAMES	1024		/* UMEM chunks in most cases */

struct t_env {
	int tx_a1;			/* AF_PACKET: sends into a0 */
	int rx_a1, rx_b1;		/* AF_PACKET: counts what a0 and b0 send */
};
static struct t_env env;

static int sh(const char *cmd)
{
	int rc = system(cmd);

	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

static int packet_socket(const char *ifname, bool rx)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(rx ? ETH_P_PPXSK : 0));

	if (fd < 0)
		return -1;
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	sll.sll_protocol = htons(rx ? ETH_P_PPXSK : 0);
	if (!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Count frames of ours the peer received (not the ones it sent). */
static unsigned int drain(int fd)
{
	unsigned char buf[2048];
	struct sockaddr_ll from;
	unsigned int n = 0;

	for (;;) {
		socklen_t fl = sizeof(from);
		ssize_t r = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&from,
				     &fl);

		if (r < 0)
			return n;
		if (from.sll_pkttype != PACKET_OUTGOING && r >= 14 &&
		    buf[12] == (ETH_P_PPXSK >> 8) && buf[13] == (ETH_P_PPXSK & 0xff))
			n++;
	}
}

static void send_frames(unsigned int n)
{
	unsigned char f[FRAME_LEN] = { 0x02, 0x70, 0x70, 0, 0, 0x02, 0x02, 0x70, 0x70, 0, 0, 0x01,
				       ETH_P_PPXSK >> 8, ETH_P_PPXSK & 0xff };
	unsigned int i;

	for (i = 0; i < n; i++) {
		memcpy(f + 20, &i, sizeof(i));
		while (send(env.tx_a1, f, sizeof(f), 0) < 0) {
			assert_true(errno == EAGAIN || errno == ENOBUFS);
			usleep(100);
		}
	}
}

static void skip_test(const char *why)
{
	fprintf(stderr, "test_ppxsk: skipped: %s\n", why);
	exit(77);
}

static void setup_net(void)
{
	int fd;

	if (geteuid() != 0)
		skip_test("needs root (network namespaces, AF_XDP)");
	if (unshare(CLONE_NEWNET))
		skip_test("cannot create a network namespace");
	if (sh("ip link set lo up && "
	       "ip link add a0 numtxqueues 1 numrxqueues 1 type veth peer name a1 numtxqueues 1 numrxqueues 1 && "
	       "ip link add b0 numtxqueues 1 numrxqueues 1 type veth peer name b1 numtxqueues 1 numrxqueues 1 && "
	       "sysctl -qw net.ipv6.conf.all.disable_ipv6=1 && sysctl -qw net.ipv6.conf.default.disable_ipv6=1 && "
	       "for i in a0 a1 b0 b1; do ip link set $i up || exit 1; done") != 0)
		skip_test("cannot create veth pairs (ip, veth)");
	fd = socket(AF_XDP, SOCK_RAW, 0);
	if (fd < 0)
		skip_test("no AF_XDP sockets (CONFIG_XDP_SOCKETS)");
	close(fd);
	env.tx_a1 = packet_socket("a1", false);
	env.rx_a1 = packet_socket("a1", true);
	env.rx_b1 = packet_socket("b1", true);
	if (env.tx_a1 < 0 || env.rx_a1 < 0 || env.rx_b1 < 0)
		skip_test("no AF_PACKET sockets");
}

/* ---- programs ---- */

static u32 prog_drop(struct xdp_buff *xdp, void *arg)
{
	(void)xdp; (void)arg;
	return XDP_DROP;
}

static u32 prog_tx(struct xdp_buff *xdp, void *arg)
{
	unsigned char *d = xdp->data, tmp[6];

	(void)arg;
	memcpy(tmp, d, 6);		/* swap the MACs, as a reflector does */
	memcpy(d, d + 6, 6);
	memcpy(d + 6, tmp, 6);
	return XDP_TX;
}

static u32 prog_redirect(struct xdp_buff *xdp, void *arg)
{
	(void)xdp;
	return (u32)bpf_redirect((u32)(uintptr_t)arg, 0);
}

/* ---- helpers ---- */

static struct ppxsk_umem *umem_new(unsigned int frame_size)
{
	struct ppxsk_umem_config uc = { .nr_frames = NR_FRAMES, .frame_size = frame_size };
	struct ppxsk_umem *umem = ppxsk_umem_create(&uc);

	assert_false(IS_ERR(umem));
	return umem;
}

static struct ppxsk_port *port_new(struct ppxsk_umem *umem, const char *ifname, bool bulk,
				   int txc_cpu)
{
	struct ppxsk_port_config pc = {
		.ifname = ifname, .mode = PPXSK_MODE_SKB, .fill_size = 256, .comp_size = 512,
		.rx_size = 512, .tx_size = 512, .bulk_return = bulk, .txc_cpu = txc_cpu,
	};
	struct ppxsk_port *p = ppxsk_port_open(umem, &pc);

	if (IS_ERR(p))
		fprintf(stderr, "ppxsk_port_open(%s): %ld\n", ifname, PTR_ERR(p));
	assert_false(IS_ERR(p));
	return p;
}

static void check_umem(struct ppxsk_umem *umem)
{
	char why[256];
	int err = ppxsk_umem_check(umem, why, sizeof(why));

	if (err)
		fprintf(stderr, "ppxsk_umem_check: %d: %s\n", err, why);
	assert_int_equal(err, 0);
	assert_int_equal(ppxsk_umem_destroy(umem), 0);
}

/* Every frame the socket did not deliver is in its XDP_STATISTICS. */
static void assert_rx_accounted(struct ppxsk_port *p, u64 sent)
{
	struct ppxsk_stats s;

	assert_int_equal(ppxsk_port_get_stats(p, &s), 0);
	if (s.rx_packets != sent)
		fprintf(stderr, "rx %llu of %llu: rx_dropped %llu rx_ring_full %llu fill_empty %llu\n",
			(unsigned long long)s.rx_packets, (unsigned long long)sent,
			(unsigned long long)s.xs.rx_dropped, (unsigned long long)s.xs.rx_ring_full,
			(unsigned long long)s.xs.rx_fill_ring_empty_descs);
	assert_true(s.rx_packets + s.xs.rx_dropped + s.xs.rx_ring_full >= sent);
	assert_int_equal(s.rx_bad_desc, 0);
}

/* Service on this CPU until @p received @n frames (or 2 s of nothing). */
static void service_until_rx(struct ppxsk_port *p, u64 n)
{
	u64 idle_since = ktime_get_ns();
	struct ppxsk_stats s;

	for (;;) {
		if (ppxsk_service())
			idle_since = ktime_get_ns();
		assert_int_equal(ppxsk_port_get_stats(p, &s), 0);
		if (s.rx_packets + s.xs.rx_dropped + s.xs.rx_ring_full >= n)
			break;
		if (ktime_get_ns() - idle_since > 2 * NSEC_PER_SEC)
			break;
	}
}

/* Service until @p's TX side completed everything it took and the peer
 * counted @want frames on @fd (or 2 s without progress). */
static unsigned int service_until_tx(struct ppxsk_port *p, int fd, unsigned int want)
{
	u64 idle_since = ktime_get_ns();
	unsigned int got = 0;
	struct ppxsk_stats s;

	for (;;) {
		int w = ppxsk_service();
		unsigned int d = drain(fd);

		got += d;
		if (w || d)
			idle_since = ktime_get_ns();
		assert_int_equal(ppxsk_port_get_stats(p, &s), 0);
		if (s.tx_completed == s.tx_xmit && got >= want)
			break;
		if (ktime_get_ns() - idle_since > 2 * NSEC_PER_SEC)
			break;
	}
	return got;
}

/* Send @n frames into a0 in bursts the fill ring holds, servicing after
 * each (the kernel delivers in the sender's call: without the service
 * between bursts every frame past the fill ring would be dropped); what
 * the peer @fd (or -1) counts is returned. */
static unsigned int pump(struct ppxsk_port *a, unsigned int n, int fd, struct ppxsk_port *txp)
{
	unsigned int sent = 0, got = 0;

	while (sent < n) {
		unsigned int burst = min(n - sent, 64u);

		send_frames(burst);
		sent += burst;
		service_until_rx(a, sent);
		/* The frames the TX side holds come home before the next
		 * burst (its completion may run on another CPU). */
		for (int i = 0; txp && i < 1000; i++) {
			struct ppxsk_stats s;

			ppxsk_service();
			assert_int_equal(ppxsk_port_get_stats(txp, &s), 0);
			if (s.tx_completed == s.tx_xmit)
				break;
			usleep(100);
		}
		if (fd >= 0)
			got += drain(fd);
	}
	return got;
}

/* ---- cases ---- */

/* RX -> XDP_DROP: every frame received goes back to the pool. */
static void t_rx_drop(unsigned int frame_size)
{
	struct ppxsk_umem *umem = umem_new(frame_size);
	struct ppxsk_port *a = port_new(umem, "a0", false, -1);
	struct bpf_prog *prog = pp_xdp_prog_create(prog_drop, NULL, "drop");
	struct ppxsk_stats s;
	const unsigned int n = 3000;	/* more than the UMEM: chunks must recycle */

	assert_int_equal(ppxsk_port_set_xdp(a, prog), 0);
	pump(a, n, -1, NULL);
	assert_rx_accounted(a, n);
	assert_int_equal(ppxsk_port_get_stats(a, &s), 0);
	assert_true(s.rx_packets > NR_FRAMES);
	assert_int_equal(s.xdp_drop, s.rx_packets);
	assert_true(s.fill_posted >= s.rx_packets);
	/* ppxsk_service() reports the frames its polls took (0 means idle). */
	{
		u64 before = s.rx_packets, work = 0, deadline = ktime_get_ns() + NSEC_PER_SEC;

		send_frames(32);
		do {
			work += (u64)ppxsk_service();
			assert_int_equal(ppxsk_port_get_stats(a, &s), 0);
		} while (s.rx_packets + s.xs.rx_dropped < before + 32 && ktime_get_ns() < deadline);
		assert_int_equal(work, s.rx_packets - before);
		assert_true(work > 0);
	}
	assert_int_equal(ppxsk_port_close(a), 0);
	pp_xdp_prog_destroy(prog);
	check_umem(umem);
}

static void test_rx_drop_4k(void **state)
{
	(void)state;
	t_rx_drop(4096);
}

static void test_rx_drop_2k(void **state)
{
	(void)state;
	t_rx_drop(2048);
}

/* XDP_TX back out of a0: counted on a1, every completion back. */
static void t_xdp_tx(bool bulk, unsigned int frame_size)
{
	struct ppxsk_umem *umem = umem_new(frame_size);
	struct ppxsk_port *a = port_new(umem, "a0", bulk, -1);
	struct bpf_prog *prog = pp_xdp_prog_create(prog_tx, NULL, "tx");
	const unsigned int n = 2000;
	struct ppxsk_stats s;
	unsigned int got;

	drain(env.rx_a1);
	assert_int_equal(ppxsk_port_set_xdp(a, prog), 0);
	got = pump(a, n, env.rx_a1, a);
	got += service_until_tx(a, env.rx_a1, n - got);
	assert_rx_accounted(a, n);
	assert_int_equal(ppxsk_port_get_stats(a, &s), 0);
	assert_int_equal(s.xdp_tx, s.rx_packets);
	assert_int_equal(s.tx_xmit + s.tx_refused, s.xdp_tx);
	assert_int_equal(s.tx_completed, s.tx_xmit);
	assert_true(s.tx_xmit > NR_FRAMES);
	/* What the socket took went out, or the socket says why not. */
	assert_true(got + s.xs.tx_invalid_descs >= s.tx_xmit);
	assert_int_equal(s.comp_bad_desc, 0);
	assert_int_equal(ppxsk_port_close(a), 0);
	pp_xdp_prog_destroy(prog);
	check_umem(umem);
}

static void test_xdp_tx_single(void **state)
{
	(void)state;
	t_xdp_tx(false, 2048);
}

static void test_xdp_tx_bulk(void **state)
{
	(void)state;
	t_xdp_tx(true, 4096);
}

/* The TX completion CPU's thread (logical CPU 1). */
struct txc_thread {
	pthread_t t;
	int stop;
};

static void *txc_main(void *arg)
{
	struct txc_thread *tt = arg;

	int err = pp_thread_register(1);

	if (err != 1) {
		fprintf(stderr, "pp_thread_register(1): %d\n", err);
		abort();
	}
	while (!READ_ONCE(tt->stop))
		if (!ppxsk_service())
			usleep(50);
	pp_thread_unregister();
	return NULL;
}

/* a0 -> XDP_REDIRECT -> b0's TX (ndo_xdp_xmit) -> b1; completions on the
 * RX CPU or on CPU 1, one by one or in bulk. */
static void t_redirect(bool bulk, bool remote, unsigned int frame_size)
{
	struct ppxsk_umem *umem = umem_new(frame_size);
	struct ppxsk_port *a = port_new(umem, "a0", bulk, -1);
	struct ppxsk_port *b = port_new(umem, "b0", bulk, remote ? 1 : -1);
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect,
			(void *)(uintptr_t)ppxsk_port_netdev(b)->ifindex, "redirect");
	struct txc_thread tt = { 0 };
	const unsigned int n = 3000;
	struct ppxsk_stats sa, sb;
	unsigned int got;

	if (remote)
		assert_int_equal(pthread_create(&tt.t, NULL, txc_main, &tt), 0);
	drain(env.rx_b1);
	assert_int_equal(ppxsk_port_set_xdp(a, prog), 0);
	got = pump(a, n, env.rx_b1, b);
	got += service_until_tx(b, env.rx_b1, n - got);
	if (remote) {
		WRITE_ONCE(tt.stop, 1);
		pthread_join(tt.t, NULL);
	}
	assert_rx_accounted(a, n);
	assert_int_equal(ppxsk_port_get_stats(a, &sa), 0);
	assert_int_equal(ppxsk_port_get_stats(b, &sb), 0);
	fprintf(stderr, "redirect%s%s: sent %u, a rx %llu redirected %llu, b xmit %llu refused %llu "
		"completed %llu, b1 got %u\n", bulk ? " bulk" : "", remote ? " remote" : "", n,
		(unsigned long long)sa.rx_packets, (unsigned long long)sa.xdp_redirect,
		(unsigned long long)sb.tx_xmit, (unsigned long long)sb.tx_refused,
		(unsigned long long)sb.tx_completed, got);
	assert_int_equal(sa.xdp_redirect + sa.redirect_errors, sa.rx_packets);
	assert_int_equal(sa.redirect_errors, 0);
	assert_int_equal(sb.tx_xmit + sb.tx_refused, sa.xdp_redirect);
	assert_int_equal(sb.tx_completed, sb.tx_xmit);
	assert_true(sb.tx_xmit > NR_FRAMES);
	assert_true(got + sb.xs.tx_invalid_descs >= sb.tx_xmit);
	assert_int_equal(sb.comp_bad_desc, 0);
	assert_int_equal(ppxsk_port_close(a), 0);
	assert_int_equal(ppxsk_port_close(b), 0);
	pp_xdp_prog_destroy(prog);
	check_umem(umem);
}

static void test_redirect(void **state)
{
	(void)state;
	t_redirect(false, false, 2048);
}

static void test_redirect_bulk_4k(void **state)
{
	(void)state;
	t_redirect(true, false, 4096);
}

static void test_redirect_remote_completion(void **state)
{
	(void)state;
	t_redirect(true, true, 2048);
}

/* A TX-only egress (PPXSK_PORT_TX_ONLY) on a UMEM no bigger than the RX
 * port's fill ring and pool cache: opened first, it takes no frame (no
 * fill posting, no pool), so a0 gets all 128 and a0 -> b0 forwards. A port
 * that posted its fill ring would take the whole UMEM here: nothing left
 * for a0, nothing forwarded. */
#define TXO_FLAGS	PPXSK_PORT_TX_ONLY
static void test_redirect_tx_only(void **state)
{
	struct ppxsk_umem_config uc = { .nr_frames = 128, .frame_size = 2048 };
	struct ppxsk_umem *umem = ppxsk_umem_create(&uc);
	struct ppxsk_port_config pc = {
		.ifname = "b0", .mode = PPXSK_MODE_SKB, .fill_size = 64, .comp_size = 64,
		.rx_size = 64, .tx_size = 64, .txc_cpu = -1, .flags = TXO_FLAGS,
	};
	struct ppxsk_port *a, *b;
	struct bpf_prog *prog;
	struct ppxsk_stats sa, sb;
	const unsigned int n = 2000;
	unsigned int got;

	(void)state;
	assert_false(IS_ERR(umem));
	b = ppxsk_port_open(umem, &pc);
	assert_false(IS_ERR(b));
	pc.ifname = "a0";
	pc.flags = 0;
	a = ppxsk_port_open(umem, &pc);
	assert_false(IS_ERR(a));
	prog = pp_xdp_prog_create(prog_redirect, (void *)(uintptr_t)ppxsk_port_netdev(b)->ifindex,
				  "redirect");
	drain(env.rx_b1);
	assert_int_equal(ppxsk_port_set_xdp(a, prog), 0);
	got = pump(a, n, env.rx_b1, b);
	got += service_until_tx(b, env.rx_b1, n - got);
	assert_int_equal(ppxsk_port_get_stats(a, &sa), 0);
	assert_int_equal(ppxsk_port_get_stats(b, &sb), 0);
	fprintf(stderr, "tx-only egress: sent %u, a posted %llu rx %llu redirected %llu, "
		"b posted %llu xmit %llu completed %llu, b1 got %u\n", n,
		(unsigned long long)sa.fill_posted, (unsigned long long)sa.rx_packets,
		(unsigned long long)sa.xdp_redirect, (unsigned long long)sb.fill_posted,
		(unsigned long long)sb.tx_xmit, (unsigned long long)sb.tx_completed, got);
	assert_int_equal(sb.fill_posted, 0);
	assert_int_equal(sb.rx_packets, 0);
	assert_int_equal(ppxsk_port_pool_id(b), 0);
	assert_int_equal(ppxsk_port_set_xdp(b, prog), -EINVAL);
	assert_true(sb.tx_xmit > 4 * uc.nr_frames);	/* the 128 frames went round */
	assert_int_equal(sb.tx_completed, sb.tx_xmit);
	assert_true(got + sb.xs.tx_invalid_descs >= sb.tx_xmit);
	assert_int_equal(ppxsk_port_close(a), 0);
	assert_int_equal(ppxsk_port_close(b), 0);
	pp_xdp_prog_destroy(prog);
	check_umem(umem);
}

/* Close with chunks in the fill ring, the RX ring (frames received, not
 * polled) and the TX ring (sent, completions not reaped). */
static void test_close_with_rings_full(void **state)
{
	struct ppxsk_umem *umem = umem_new(2048);
	struct ppxsk_port *a = port_new(umem, "a0", false, -1);
	struct ppxsk_port *b = port_new(umem, "b0", false, 1);	/* no one services CPU 1 */
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect,
			(void *)(uintptr_t)ppxsk_port_netdev(b)->ifindex, "redirect");
	struct ppxsk_stats sa, sb;

	(void)state;
	assert_int_equal(ppxsk_port_set_xdp(a, prog), 0);
	send_frames(100);
	service_until_rx(a, 100);	/* into b's TX ring; its completion never runs */
	send_frames(50);		/* into a's RX ring; never polled */
	usleep(20000);
	assert_int_equal(ppxsk_port_get_stats(a, &sa), 0);
	assert_int_equal(ppxsk_port_get_stats(b, &sb), 0);
	assert_int_equal(sa.rx_packets, 100);
	assert_true(sb.tx_xmit > 0);
	assert_int_equal(sb.tx_completed, 0);
	/* TX and completion ring: each frame b took is completed by the close. */
	assert_int_equal(ppxsk_port_close_stats(b, &sb), 0);
	assert_int_equal(sb.tx_completed, sb.tx_xmit);
	assert_int_equal(sb.comp_bad_desc, 0);
	assert_int_equal(ppxsk_port_close(a), 0);	/* fill and RX ring */
	pp_xdp_prog_destroy(prog);
	check_umem(umem);
}

/* a's frames sit in b's TX ring when a closes: a's pool waits for them
 * (deferred destroy), and is freed when b's completion gives them back. */
static void test_close_deferred_pool(void **state)
{
	struct ppxsk_umem *umem = umem_new(4096);
	struct ppxsk_port *a = port_new(umem, "a0", true, -1);
	struct ppxsk_port *b = port_new(umem, "b0", true, 1);	/* serviced later */
	struct bpf_prog *prog = pp_xdp_prog_create(prog_redirect,
			(void *)(uintptr_t)ppxsk_port_netdev(b)->ifindex, "redirect");
	struct pp_page_pool_info info;
	struct txc_thread tt = { 0 };
	struct ppxsk_stats sb;
	u32 a_pool = ppxsk_port_pool_id(a);

	(void)state;
	assert_int_equal(ppxsk_port_set_xdp(a, prog), 0);
	send_frames(200);
	service_until_rx(a, 200);
	assert_int_equal(ppxsk_port_get_stats(b, &sb), 0);
	assert_true(sb.tx_xmit > 0);
	assert_int_equal(sb.tx_completed, 0);
	assert_int_equal(ppxsk_port_close(a), 0);
	/* a's pool lives on, holding the frames b has. inflight counts
	 * net_iovs, one per PAGE_SIZE of UMEM: with 4 KiB pages a 4096-byte
	 * frame is a net_iov; with larger pages PAGE_SIZE / 4096 frames are
	 * fragments of one net_iov. The frames are the first ones a's
	 * refill handed out (the kernel takes the fill ring in order), so
	 * when every received frame went to b they fill whole net_iovs but
	 * for the last; when some were dropped instead, the held ones may
	 * spread over more net_iovs, at most one per frame. */
	assert_int_equal(pp_page_pool_get_info(a_pool, &info), 0);
	assert_true(info.has_detach_time);
	if (sb.tx_xmit == 200)
		assert_int_equal(info.inflight, DIV_ROUND_UP(200, PAGE_SIZE / 4096));
	else
		assert_in_range(info.inflight, DIV_ROUND_UP(sb.tx_xmit, PAGE_SIZE / 4096),
				sb.tx_xmit);
	assert_int_equal(ppxsk_umem_destroy(umem), -EBUSY);	/* b is open */
	/* b's completion, on CPU 1, gives them back. */
	assert_int_equal(pthread_create(&tt.t, NULL, txc_main, &tt), 0);
	for (int i = 0; i < 2000; i++) {
		assert_int_equal(ppxsk_port_get_stats(b, &sb), 0);
		if (sb.tx_completed == sb.tx_xmit)
			break;
		usleep(1000);
	}
	WRITE_ONCE(tt.stop, 1);
	pthread_join(tt.t, NULL);
	assert_int_equal(sb.tx_completed, sb.tx_xmit);
	for (int i = 0; i < 2000 && !pp_page_pool_get_info(a_pool, &info); i++)
		usleep(1000);
	assert_int_equal(pp_page_pool_get_info(a_pool, &info), -ENOENT);
	assert_int_equal(ppxsk_port_close(b), 0);
	pp_xdp_prog_destroy(prog);
	check_umem(umem);
}

/* Misuse: a completion for a chunk that is in the fill ring, one outside
 * the UMEM, and the same completion twice: counted, refused, no put. */
static void test_forged_completion(void **state)
{
	struct ppxsk_umem *umem = umem_new(2048);
	struct ppxsk_port *a = port_new(umem, "a0", false, -1);
	struct ppxsk_stats s;

	(void)state;
	/* Chunk 0 went into the fill ring at open. */
	assert_int_equal(ppxsk_port_test_complete(a, 0), -EBADMSG);
	assert_int_equal(ppxsk_port_test_complete(a, 256), -EBADMSG);
	assert_int_equal(ppxsk_port_test_complete(a, (u64)NR_FRAMES * 2048), -EBADMSG);
	assert_int_equal(ppxsk_port_test_complete(a, ~0ull), -EBADMSG);
	assert_int_equal(ppxsk_port_get_stats(a, &s), 0);
	assert_int_equal(s.comp_bad_desc, 4);
	assert_int_equal(s.tx_completed, 0);
	assert_int_equal(ppxsk_port_close(a), 0);
	check_umem(umem);
}

/* Bad configurations: clear errors, nothing left behind. */
static void test_bad_config(void **state)
{
	struct ppxsk_umem_config bad_fs = { .nr_frames = 64, .frame_size = 1024 };
	struct ppxsk_umem_config odd = { .nr_frames = 3, .frame_size = 2048 };
	struct ppxsk_umem *umem = umem_new(2048);
	struct ppxsk_port_config pc = { .ifname = "nosuchif0", .txc_cpu = -1 };
	struct ppxsk_port *a;

	(void)state;
	assert_int_equal(PTR_ERR(ppxsk_umem_create(NULL)), -EINVAL);
	assert_int_equal(PTR_ERR(ppxsk_umem_create(&bad_fs)), -EINVAL);
	assert_int_equal(PTR_ERR(ppxsk_umem_create(&odd)), -EINVAL);
	assert_true(IS_ERR(ppxsk_port_open(umem, &pc)));
	pc.ifname = "a0";
	pc.rx_size = 100;
	assert_int_equal(PTR_ERR(ppxsk_port_open(umem, &pc)), -EINVAL);
	pc.rx_size = 0;
	pc.queue = 1;
	assert_int_equal(PTR_ERR(ppxsk_port_open(umem, &pc)), -EINVAL);
	pc.queue = 0;
	a = ppxsk_port_open(umem, &pc);
	assert_false(IS_ERR(a));
	assert_int_equal(ppxsk_umem_destroy(umem), -EBUSY);
	assert_int_equal(ppxsk_port_close(a), 0);
	assert_int_equal(ppxsk_port_close(NULL), -EINVAL);
	check_umem(umem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_rx_drop_4k),
		cmocka_unit_test(test_rx_drop_2k),
		cmocka_unit_test(test_xdp_tx_single),
		cmocka_unit_test(test_xdp_tx_bulk),
		cmocka_unit_test(test_redirect),
		cmocka_unit_test(test_redirect_bulk_4k),
		cmocka_unit_test(test_redirect_remote_completion),
		cmocka_unit_test(test_redirect_tx_only),
		cmocka_unit_test(test_close_with_rings_full),
		cmocka_unit_test(test_close_deferred_pool),
		cmocka_unit_test(test_forged_completion),
	};

	if (getenv("PPXSK_TEST"))
		cmocka_set_test_filter(getenv("PPXSK_TEST"));
	setup_net();
	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
