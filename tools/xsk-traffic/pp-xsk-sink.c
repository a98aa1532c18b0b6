/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pp-xsk-sink: the far side of the AF_XDP forwarder's tests and benchmark.
 * Counts the frames of EtherType 0x88B5 (xsk_traffic.h) that arrive on
 * --ifname through an AF_PACKET TPACKET_V3 ring (64 MiB: it holds a few
 * hundred thousand small frames, so a slow sink loses nothing), and checks
 * them: a frame without the magic, or of another run than the first one
 * seen (or --run-id), is "foreign"; a sequence number seen before is a
 * duplicate. "received" counts each sequence number of the run once.
 * "drops" is what the socket lost (PACKET_STATISTICS tp_drops).
 *
 * Stops after --expect N frames, --idle S seconds without a frame once the
 * first came (default 2), --timeout S in all, or SIGINT/SIGTERM. Prints
 * "pp-xsk-sink: listening on IF" on stderr once bound (a test starts the
 * sender after it), and at the end, with --json,
 * {"received":N,"duplicates":D,"foreign":F,"drops":K,"first_ts":..,"last_ts":..,"pps":R}
 * (the timestamps are the kernel's receive times, CLOCK_REALTIME seconds;
 * pps = (received - 1) / (last_ts - first_ts)).
 * Exit 0; 3 if --expect was not reached; 1 on a setup error; 2: usage.
 * Single-threaded. Layer: tools.
 */
#include "xsk_traffic.h"

#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#define BLOCK_SIZE	(1u << 20)
#define BLOCK_NR	64u
#define FRAME_SIZE	2048u
/* Sequence numbers past this are not ours (a bitmap of 256 MiB). */
#define MAX_SEQ		(1ull << 31)

struct sink {
	bool have_run;
	uint32_t run_id;
	uint8_t *seen;		/* bitmap of sequence numbers */
	uint64_t seen_bits;
	uint64_t received, duplicates, foreign, drops;
	double first_ts, last_ts;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int mark_seen(struct sink *s, uint64_t seq)
{
	if (seq >= s->seen_bits) {
		uint64_t bits = s->seen_bits ? s->seen_bits : 1u << 20;
		uint8_t *n;

		while (bits <= seq)
			bits *= 2;
		n = realloc(s->seen, bits / 8);
		if (!n)
			return -ENOMEM;
		memset(n + s->seen_bits / 8, 0, (bits - s->seen_bits) / 8);
		s->seen = n;
		s->seen_bits = bits;
	}
	if (s->seen[seq / 8] & (1u << (seq % 8)))
		return 1;
	s->seen[seq / 8] |= 1u << (seq % 8);
	return 0;
}

static void frame(struct sink *s, const uint8_t *data, unsigned int len, double ts)
{
	struct ppxt_payload p;
	uint64_t seq;
	int dup;

	if (len < PPXT_HDR_LEN + sizeof(p)) {
		s->foreign++;
		return;
	}
	memcpy(&p, data + PPXT_HDR_LEN, sizeof(p));
	seq = be64toh(p.seq);
	if (be32toh(p.magic) != PPXT_MAGIC || seq >= MAX_SEQ ||
	    (s->have_run && be32toh(p.run_id) != s->run_id)) {
		s->foreign++;
		return;
	}
	if (!s->have_run) {
		s->have_run = true;
		s->run_id = be32toh(p.run_id);
	}
	dup = mark_seen(s, seq);
	if (dup < 0) {
		s->foreign++;
		return;
	}
	if (dup) {
		s->duplicates++;
		return;
	}
	if (!s->received)
		s->first_ts = ts;
	s->last_ts = ts;
	s->received++;
}

static void read_drops(int fd, struct sink *s)
{
	struct tpacket_stats_v3 st;
	socklen_t len = sizeof(st);

	/* Reading the statistics resets them: add up. */
	if (!getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &len))
		s->drops += st.tp_drops;
}

static void usage(void)
{
	fprintf(stderr, "usage: pp-xsk-sink --ifname IF [--expect N] [--timeout S] [--idle S]\n"
			"                   [--cpu C] [--run-id ID] [--json]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "ifname", required_argument, NULL, 'i' }, { "expect", required_argument, NULL, 'e' },
		{ "timeout", required_argument, NULL, 't' }, { "idle", required_argument, NULL, 'd' },
		{ "cpu", required_argument, NULL, 'c' }, { "run-id", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, {},
	};
	struct tpacket_req3 req = {
		.tp_block_size = BLOCK_SIZE, .tp_block_nr = BLOCK_NR, .tp_frame_size = FRAME_SIZE,
		.tp_frame_nr = BLOCK_SIZE / FRAME_SIZE * BLOCK_NR, .tp_retire_blk_tov = 10,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	const char *ifname = NULL;
	double timeout = 0, idle = 2, t0, last_frame = 0;
	uint64_t expect = 0;
	struct sink s = {};
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	unsigned int block = 0;
	int c, fd, cpu = -1, ver = TPACKET_V3, ret = 0;
	bool json = false;
	uint8_t *ring;
	char *end;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		errno = 0;
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'e': expect = strtoull(optarg, &end, 0); if (*end || errno) usage(); break;
		case 't': timeout = strtod(optarg, &end); if (*end || timeout < 0) usage(); break;
		case 'd': idle = strtod(optarg, &end); if (*end || idle <= 0) usage(); break;
		case 'c': cpu = (int)strtol(optarg, &end, 0); if (*end) usage(); break;
		case 'r':
			s.run_id = strtoul(optarg, &end, 0);
			if (*end)
				usage();
			s.have_run = true;
			break;
		case 'j': json = true; break;
		default: usage();
		}
	}
	if (!ifname || optind != argc)
		usage();
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "pp-xsk-sink: no interface %s\n", ifname);
		return 1;
	}
	if (ppxt_pin_cpu(cpu)) {
		fprintf(stderr, "pp-xsk-sink: cannot run on CPU %d\n", cpu);
		return 1;
	}
	/* Protocol 0 until the ring is there: nothing is queued before. */
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("pp-xsk-sink: socket(AF_PACKET)");
		return 1;
	}
	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &ver, sizeof(ver)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req))) {
		perror("pp-xsk-sink: TPACKET_V3 ring");
		return 1;
	}
	ring = mmap(NULL, (size_t)BLOCK_SIZE * BLOCK_NR, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_LOCKED, fd, 0);
	if (ring == MAP_FAILED)
		ring = mmap(NULL, (size_t)BLOCK_SIZE * BLOCK_NR, PROT_READ | PROT_WRITE, MAP_SHARED,
			    fd, 0);
	if (ring == MAP_FAILED) {
		perror("pp-xsk-sink: mmap");
		return 1;
	}
	sll.sll_protocol = htons(PPXT_ETHERTYPE);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("pp-xsk-sink: bind");
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fprintf(stderr, "pp-xsk-sink: listening on %s\n", ifname);
	fflush(stderr);

	t0 = ppxt_now();
	while (!stop) {
		struct tpacket_block_desc *bd =
			(void *)(ring + (size_t)block * BLOCK_SIZE);
		struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLERR };
		double now;

		if (!(__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
		      TP_STATUS_USER)) {
			now = ppxt_now();
			if (expect && s.received >= expect)
				break;
			if (timeout > 0 && now - t0 >= timeout)
				break;
			if (s.received && now - last_frame >= idle)
				break;
			poll(&pfd, 1, 50);
			continue;
		}
		struct tpacket3_hdr *h = (void *)((uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt);

		for (unsigned int i = 0; i < bd->hdr.bh1.num_pkts; i++) {
			frame(&s, (uint8_t *)h + h->tp_mac, h->tp_snaplen,
			      h->tp_sec + h->tp_nsec * 1e-9);
			h = (void *)((uint8_t *)h + h->tp_next_offset);
		}
		last_frame = ppxt_now();
		__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
		block = (block + 1) % BLOCK_NR;
	}
	read_drops(fd, &s);
	if (expect && s.received < expect)
		ret = 3;

	double span = s.last_ts - s.first_ts;
	double pps = s.received > 1 && span > 0 ? (s.received - 1) / span : 0;

	if (json)
		printf("{\"received\":%" PRIu64 ",\"duplicates\":%" PRIu64 ",\"foreign\":%" PRIu64
		       ",\"drops\":%" PRIu64 ",\"first_ts\":%.6f,\"last_ts\":%.6f,\"pps\":%.0f}\n",
		       s.received, s.duplicates, s.foreign, s.drops, s.first_ts, s.last_ts, pps);
	else
		printf("pp-xsk-sink: %" PRIu64 " received, %" PRIu64 " duplicates, %" PRIu64
		       " foreign, %" PRIu64 " dropped by the socket, %.0f pps\n",
		       s.received, s.duplicates, s.foreign, s.drops, pps);
	free(s.seen);
	return ret;
}
