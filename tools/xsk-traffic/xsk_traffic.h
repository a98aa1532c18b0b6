/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What pp-xsk-send writes and pp-xsk-sink counts: raw Ethernet frames of
 * EtherType 0x88B5 (IEEE 802 local experimental) whose payload starts
 * with, in network byte order,
 *
 *	u32 magic 0x70707873 | u32 run id | u64 sequence number
 *
 * then zero padding up to the frame length (60 bytes by default, without
 * FCS). A sink tells its own run's frames from others' by the run id.
 * Helpers for both programs: MAC parsing, the clock, CPU pinning.
 * Built against system headers only. Context: single-threaded programs.
 * Layer: tools.
 */
#ifndef PP_XSK_TRAFFIC_H
#define PP_XSK_TRAFFIC_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <endian.h>
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define PPXT_ETHERTYPE	0x88B5
#define PPXT_MAGIC	0x70707873u
#define PPXT_HDR_LEN	14
#define PPXT_MIN_LEN	(PPXT_HDR_LEN + 16)
#define PPXT_MAX_LEN	1514

struct ppxt_payload {
	uint32_t magic;
	uint32_t run_id;
	uint64_t seq;
} __attribute__((packed));

static inline int ppxt_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &end) != 6)
		return -EINVAL;
	for (int i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -EINVAL;
		mac[i] = (uint8_t)b[i];
	}
	return 0;
}

/* The Ethernet header and payload of frame `seq` of run `run_id` into buf
 * (len bytes, padding zeroed). */
static inline void ppxt_build_frame(uint8_t *buf, unsigned int len, const uint8_t dst[6],
				    const uint8_t src[6], uint32_t run_id, uint64_t seq)
{
	struct ppxt_payload p = {
		.magic = htobe32(PPXT_MAGIC), .run_id = htobe32(run_id), .seq = htobe64(seq),
	};

	memcpy(buf, dst, 6);
	memcpy(buf + 6, src, 6);
	buf[12] = PPXT_ETHERTYPE >> 8;
	buf[13] = PPXT_ETHERTYPE & 0xff;
	memcpy(buf + PPXT_HDR_LEN, &p, sizeof(p));
	memset(buf + PPXT_HDR_LEN + sizeof(p), 0, len - PPXT_HDR_LEN - sizeof(p));
}

/* Only the sequence number changes between frames of a run. */
static inline void ppxt_set_seq(uint8_t *buf, uint64_t seq)
{
	uint64_t be = htobe64(seq);

	memcpy(buf + PPXT_HDR_LEN + 8, &be, sizeof(be));
}

static inline double ppxt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int ppxt_pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

#endif /* PP_XSK_TRAFFIC_H */
