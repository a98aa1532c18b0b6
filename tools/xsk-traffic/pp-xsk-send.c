/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pp-xsk-send: a traffic source for the AF_XDP forwarder's tests and
 * benchmark. Sends --count frames (xsk_traffic.h's format) out of --ifname,
 * as fast as the kernel takes them, or for --duration seconds:
 *
 *   --mode packet  AF_PACKET, sendmmsg() of --batch frames, with
 *                  PACKET_QDISC_BYPASS (the driver's xmit is called
 *                  directly: a frame the device refuses comes back as an
 *                  error instead of vanishing in a qdisc);
 *   --mode xdp     AF_XDP TX in copy mode with its own small UMEM (4096
 *                  frames of 2 KiB), one sendto() kick per batch.
 *
 * "sent" is what the kernel really took: a frame it refused (ENOBUFS,
 * EAGAIN: retried; for AF_XDP a frame the device dropped after taking it,
 * sendto()'s EBUSY, and the socket's tx_invalid_descs) is counted in
 * "errors", never in "sent"; the run goes on until --count frames are sent.
 * Prints {"sent":N,"errors":E,"elapsed_s":T,"pps":R,...} with --json.
 * Exit 0, 1 on a setup or fatal send error, 2 on a bad command line.
 * Single-threaded; SIGINT/SIGTERM stop it cleanly (what was sent is printed).
 * Layer: tools.
 */
#include "xsk_traffic.h"

#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/if_xdp.h>
#include <xdp/xsk.h>

#ifndef SOL_XDP
#define SOL_XDP 283
#endif

#define XDP_NR_FRAMES	4096u
#define XDP_FRAME_SIZE	2048u

struct opts {
	const char *ifname;
	uint64_t count;		/* 0: until --duration or a signal */
	double duration;	/* 0: until --count */
	bool xdp;
	unsigned int batch;
	unsigned int len;
	uint8_t src[6], dst[6];
	int cpu;
	bool json;
	uint32_t run_id;
};

struct result {
	uint64_t sent, errors;
	double elapsed;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static bool more(const struct opts *o, uint64_t sent, double t0)
{
	if (stop)
		return false;
	if (o->count && sent >= o->count)
		return false;
	if (o->duration > 0 && ppxt_now() - t0 >= o->duration)
		return false;
	return true;
}

static int send_packet(const struct opts *o, int ifindex, struct result *r)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET, .sll_ifindex = ifindex, .sll_protocol = 0,
	};
	struct mmsghdr *msgs;
	struct iovec *iov;
	uint8_t *bufs;
	uint64_t seq = 0;
	int one = 1, fd, ret = 0;
	double t0;

	/* Protocol 0: this socket receives nothing. */
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("pp-xsk-send: socket(AF_PACKET)");
		return 1;
	}
	if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		perror("pp-xsk-send: PACKET_QDISC_BYPASS (going through the qdisc)");
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("pp-xsk-send: bind");
		close(fd);
		return 1;
	}
	msgs = calloc(o->batch, sizeof(*msgs));
	iov = calloc(o->batch, sizeof(*iov));
	bufs = calloc(o->batch, o->len);
	if (!msgs || !iov || !bufs) {
		fprintf(stderr, "pp-xsk-send: out of memory\n");
		ret = 1;
		goto out;
	}
	for (unsigned int i = 0; i < o->batch; i++) {
		ppxt_build_frame(bufs + (size_t)i * o->len, o->len, o->dst, o->src, o->run_id, 0);
		iov[i].iov_base = bufs + (size_t)i * o->len;
		iov[i].iov_len = o->len;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}

	t0 = ppxt_now();
	while (more(o, r->sent, t0)) {
		unsigned int n = o->batch;
		int k;

		if (o->count && o->count - r->sent < n)
			n = (unsigned int)(o->count - r->sent);
		for (unsigned int i = 0; i < n; i++)
			ppxt_set_seq(bufs + (size_t)i * o->len, seq + i);
		k = sendmmsg(fd, msgs, n, 0);
		if (k > 0) {
			r->sent += k;
			seq += k;
			continue;
		}
		if (k < 0 && (errno == ENOBUFS || errno == EAGAIN || errno == EINTR)) {
			/* The device refused the first frame of the batch; again. */
			if (errno != EINTR)
				r->errors++;
			continue;
		}
		perror("pp-xsk-send: sendmmsg");
		ret = 1;
		break;
	}
	r->elapsed = ppxt_now() - t0;
out:
	free(msgs);
	free(iov);
	free(bufs);
	close(fd);
	return ret;
}

static uint64_t tx_invalid(int fd)
{
	struct xdp_statistics st;
	socklen_t len = sizeof(st);

	if (getsockopt(fd, SOL_XDP, XDP_STATISTICS, &st, &len))
		return 0;
	return st.tx_invalid_descs;
}

static int send_xdp(const struct opts *o, struct result *r)
{
	struct xsk_umem_config ucfg = {
		.fill_size = XSK_RING_PROD__DEFAULT_NUM_DESCS,
		.comp_size = XDP_NR_FRAMES,
		.frame_size = XDP_FRAME_SIZE,
		.frame_headroom = 0,
	};
	struct xsk_socket_config scfg = {
		.rx_size = 0,
		.tx_size = 2048,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.bind_flags = XDP_COPY,
	};
	size_t size = (size_t)XDP_NR_FRAMES * XDP_FRAME_SIZE;
	/* Zeroed: xsk_umem__create() leaves the completion ring's cached
	 * indices as it finds them. */
	struct xsk_ring_prod fq = {}, tx = {};
	struct xsk_ring_cons cq = {};
	struct xsk_umem *umem = NULL;
	struct xsk_socket *xsk = NULL;
	uint64_t *free_addrs, posted = 0, completed = 0, busy = 0, invalid = 0, seq = 0;
	unsigned int nfree = 0;
	double t0, last_progress;
	uint8_t *area;
	int fd, err, ret = 0;

	area = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	free_addrs = calloc(XDP_NR_FRAMES, sizeof(*free_addrs));
	if (area == MAP_FAILED || !free_addrs) {
		fprintf(stderr, "pp-xsk-send: out of memory\n");
		return 1;
	}
	err = xsk_umem__create(&umem, area, size, &fq, &cq, &ucfg);
	if (err) {
		fprintf(stderr, "pp-xsk-send: xsk_umem__create: %s\n", strerror(-err));
		ret = 1;
		goto out;
	}
	/* EBUSY: the queue still has the socket of a program that just
	 * exited (the kernel lets go of it a little later); wait for it. */
	for (int tries = 0;; tries++) {
		err = xsk_socket__create(&xsk, o->ifname, 0, umem, NULL, &tx, &scfg);
		if (err != -EBUSY || tries == 50)
			break;
		usleep(100 * 1000);
	}
	if (err) {
		fprintf(stderr, "pp-xsk-send: AF_XDP socket on %s queue 0: %s\n", o->ifname,
			strerror(-err));
		ret = 1;
		goto out;
	}
	fd = xsk_socket__fd(xsk);
	for (unsigned int i = 0; i < XDP_NR_FRAMES; i++) {
		free_addrs[nfree++] = (uint64_t)i * XDP_FRAME_SIZE;
		ppxt_build_frame(area + (size_t)i * XDP_FRAME_SIZE, o->len, o->dst, o->src,
				 o->run_id, 0);
	}

	t0 = last_progress = ppxt_now();
	for (;;) {
		uint64_t outstanding;
		uint32_t idx = 0;
		unsigned int n;

		n = xsk_ring_cons__peek(&cq, XDP_NR_FRAMES, &idx);
		for (unsigned int i = 0; i < n; i++)
			free_addrs[nfree++] = *xsk_ring_cons__comp_addr(&cq, idx + i);
		if (n) {
			xsk_ring_cons__release(&cq, n);
			completed += n;
			last_progress = ppxt_now();
		}

		/* Frames that will count as sent if nothing more goes wrong. */
		r->sent = posted - busy - invalid;
		if (more(o, r->sent, t0) && nfree) {
			n = o->batch < nfree ? o->batch : nfree;
			if (o->count && o->count - r->sent < n)
				n = (unsigned int)(o->count - r->sent);
			n = xsk_ring_prod__reserve(&tx, n, &idx);
			for (unsigned int i = 0; i < n; i++) {
				struct xdp_desc *d = xsk_ring_prod__tx_desc(&tx, idx + i);

				d->addr = free_addrs[--nfree];
				d->len = o->len;
				d->options = 0;
				ppxt_set_seq(area + d->addr, seq++);
			}
			xsk_ring_prod__submit(&tx, n);
			posted += n;
		}

		outstanding = posted - completed - invalid;
		if (!outstanding) {
			if (!more(o, r->sent, t0))
				break;
			continue;
		}
		if (sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0) {
			if (errno == EBUSY) {
				/* Taken from the ring, dropped by the device. */
				busy++;
			} else if (errno != EAGAIN && errno != ENOBUFS && errno != EINTR) {
				perror("pp-xsk-send: sendto (AF_XDP kick)");
				ret = 1;
				break;
			}
		}
		if (ppxt_now() - last_progress > 0.1) {
			/* No completion for a while: descriptors the kernel
			 * found invalid never complete. */
			invalid = tx_invalid(fd);
			if (ppxt_now() - last_progress > 5.0) {
				fprintf(stderr, "pp-xsk-send: %" PRIu64 " frames never completed\n",
					outstanding);
				ret = 1;
				break;
			}
		}
	}
	r->elapsed = ppxt_now() - t0;
	invalid = tx_invalid(fd);
	r->sent = posted - busy - invalid;
	r->errors = busy + invalid;
out:
	if (xsk)
		xsk_socket__delete(xsk);
	if (umem)
		xsk_umem__delete(umem);
	munmap(area, size);
	free(free_addrs);
	return ret;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pp-xsk-send --ifname IF [--count N] [--duration S] [--mode packet|xdp]\n"
		"                   [--batch 64] [--len 60] [--src MAC] [--dst MAC] [--cpu C]\n"
		"                   [--run-id ID] [--json]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "ifname", required_argument, NULL, 'i' }, { "count", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' }, { "mode", required_argument, NULL, 'm' },
		{ "batch", required_argument, NULL, 'b' }, { "len", required_argument, NULL, 'l' },
		{ "src", required_argument, NULL, 's' }, { "dst", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, 'c' }, { "run-id", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, {},
	};
	struct opts o = {
		.batch = 64, .len = 60, .cpu = -1,
		.src = { 0x02, 0x70, 0x70, 0, 0, 0x01 }, .dst = { 0x02, 0x70, 0x70, 0, 0, 0x02 },
		.run_id = (uint32_t)getpid() ^ (uint32_t)time(NULL),
	};
	struct result r = {};
	struct sigaction sa = { .sa_handler = on_signal };
	char *end;
	int c, ifindex, ret;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		errno = 0;
		switch (c) {
		case 'i': o.ifname = optarg; break;
		case 'n': o.count = strtoull(optarg, &end, 0); if (*end || errno) usage(); break;
		case 'd': o.duration = strtod(optarg, &end); if (*end || o.duration < 0) usage(); break;
		case 'm':
			if (!strcmp(optarg, "xdp"))
				o.xdp = true;
			else if (strcmp(optarg, "packet"))
				usage();
			break;
		case 'b': o.batch = strtoul(optarg, &end, 0); if (*end || !o.batch || o.batch > 1024) usage(); break;
		case 'l': o.len = strtoul(optarg, &end, 0); if (*end) usage(); break;
		case 's': if (ppxt_parse_mac(optarg, o.src)) usage(); break;
		case 't': if (ppxt_parse_mac(optarg, o.dst)) usage(); break;
		case 'c': o.cpu = (int)strtol(optarg, &end, 0); if (*end) usage(); break;
		case 'r': o.run_id = strtoul(optarg, &end, 0); if (*end) usage(); break;
		case 'j': o.json = true; break;
		default: usage();
		}
	}
	if (!o.ifname || optind != argc || (!o.count && !o.duration))
		usage();
	if (o.len < PPXT_MIN_LEN || o.len > PPXT_MAX_LEN) {
		fprintf(stderr, "pp-xsk-send: --len %u: %u..%u\n", o.len, PPXT_MIN_LEN, PPXT_MAX_LEN);
		return 2;
	}
	ifindex = (int)if_nametoindex(o.ifname);
	if (!ifindex) {
		fprintf(stderr, "pp-xsk-send: no interface %s\n", o.ifname);
		return 1;
	}
	if (ppxt_pin_cpu(o.cpu)) {
		fprintf(stderr, "pp-xsk-send: cannot run on CPU %d\n", o.cpu);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	ret = o.xdp ? send_xdp(&o, &r) : send_packet(&o, ifindex, &r);
	if (o.json)
		printf("{\"sent\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"elapsed_s\":%.6f,\"pps\":%.0f,"
		       "\"mode\":\"%s\",\"run_id\":%" PRIu32 "}\n",
		       r.sent, r.errors, r.elapsed, r.elapsed > 0 ? r.sent / r.elapsed : 0.0,
		       o.xdp ? "xdp" : "packet", o.run_id);
	else
		printf("pp-xsk-send: %" PRIu64 " frames sent (%s), %" PRIu64 " errors, %.3f s, %.0f pps\n",
		       r.sent, o.xdp ? "AF_XDP" : "AF_PACKET", r.errors, r.elapsed,
		       r.elapsed > 0 ? r.sent / r.elapsed : 0.0);
	return ret;
}
