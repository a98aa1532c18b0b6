/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * xdp_fwd's shared part: the options, the counters both frame managers
 * keep, the classifier, and the interface between the program's front end
 * (xdp_fwd.c: options, signals, status line, totals) and the two frame
 * managers (fwd_pagepool.c: drivers/xsk; fwd_fixed.c: the fixed-frame
 * baseline on libxdp alone).
 *
 * Plain C with <stdint.h> types only, so that the baseline compiles without
 * pagepool's kernel headers and the pagepool path without libxdp's.
 *
 * Context: the counters are written by the forwarding threads only
 * (relaxed atomic stores of their own values) and read by the status line
 * on the main thread; everything else is set up before the threads start.
 * Layer: examples.
 */
#ifndef XDP_FWD_H
#define XDP_FWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FWD_ETHERTYPE	0x88B5		/* IEEE local experimental */
#define FWD_BATCH	64		/* descriptors per ring operation (NAPI budget) */
#define FWD_TICK_EVERY	16		/* fwd_tick() calls between two clock readings */
/* PP_ALLOC_CACHE_SIZE (fwd_pagepool.c asserts it): frames the --in pool's
 * alloc cache may hold beside its fill ring. */
#define FWD_PP_ALLOC_CACHE	128

enum fwd_frames { FWD_FRAMES_PAGEPOOL, FWD_FRAMES_FIXED };
enum fwd_mode { FWD_MODE_SKB, FWD_MODE_DRV };

struct fwd_opts {
	const char *in, *out;
	enum fwd_frames frames;
	enum fwd_mode mode;
	unsigned int frame_size;	/* 2048 or 4096 */
	unsigned int nr_frames;
	unsigned int ring;		/* every ring's size */
	bool completion_other;		/* TX completion on a second thread */
	bool bulk;			/* pagepool: xdp_return_frame_bulk() */
	bool no_dma_debug;		/* pagepool: the UMEM's device without DMA-API debug */
	int cpu;			/* host CPU of the forwarding thread; -1: any */
	double duration;		/* seconds; 0: until a signal */
	uint64_t teardown_after;	/* 0: off */
	bool status, quiet;
	const char *totals_json;
};

/* Why a frame was not forwarded. The JSON names are fwd_drop_name[]. */
enum fwd_drop {
	FWD_DROP_NOT_OURS,	/* not EtherType 0x88B5 */
	FWD_DROP_RUNT,		/* shorter than an Ethernet header */
	FWD_DROP_TX_RING_FULL,	/* the out socket's TX ring had no room */
	FWD_DROP_REDIRECT,	/* pagepool: xdp_do_redirect() refused it */
	FWD_DROP_ABORTED,	/* pagepool: the verdict hook returned XDP_ABORTED */
	FWD_DROP_OTHER,		/* pagepool: any other drop the driver counted */
	/* Put into --out's TX ring and completed, but dropped by the device
	 * (the kernel's NET_XMIT_DROP: the kick's sendto() said EBUSY). */
	FWD_DROP_TX_DEV_DROPPED,
	/* pagepool: longer than the frame's tailroom allows to send (1472 B
	 * in 2 KiB frames, 3520 B in 4 KiB): the driver's xdp_no_tailroom. */
	FWD_DROP_NO_TAILROOM,
	FWD_DROP_MAX
};
extern const char *const fwd_drop_name[FWD_DROP_MAX];

/* struct xdp_statistics, without <linux/if_xdp.h>. */
struct fwd_xs {
	uint64_t rx_dropped, rx_invalid_descs, tx_invalid_descs;
	uint64_t rx_ring_full, rx_fill_ring_empty_descs, tx_ring_empty_descs;
};

/* One reading of everything the status line and the totals show. */
struct fwd_snap {
	uint64_t rx;			/* frames received on --in */
	/* Frames put into --out's TX ring: the totals' "forwarded". At the end
	 * every one of them is completed, or (closed mid-stream) was still
	 * the kernel's and came back with the close: the kernel may have sent
	 * it, so it counts as forwarded. */
	uint64_t tx;
	uint64_t completed;		/* TX completions on --out */
	uint64_t drop[FWD_DROP_MAX];
	struct fwd_xs xs_in, xs_out;
	/* The frame manager's own state. pagepool: the RX pool's stats; fixed: the stack. */
	bool has_pool;
	uint64_t alloc_fast, alloc_slow, recycle_cached, recycle_ring, inflight;
	uint64_t frames_free;		/* fixed: addresses on the free stack */
};

/* The end-of-run check (contract: "check" in the totals JSON). */
struct fwd_check {
	bool ok;
	char why[256];
	uint64_t frames_total, frames_free, dma_violations;
};

/*
 * A frame manager. setup() opens both sockets (and whatever it needs) and
 * returns 0 or -errno with a message printed; run() forwards until
 * fwd_should_stop() and returns 0 or -errno; snap() may be called from the
 * forwarding thread between batches (run() calls fwd_tick() for that);
 * teardown() closes the sockets (safe with frames anywhere); check() runs
 * after teardown; final_snap() is the last reading, taken in teardown.
 */
struct fwd_ops {
	const char *name;
	int (*setup)(const struct fwd_opts *o);
	int (*run)(const struct fwd_opts *o);
	void (*snap)(struct fwd_snap *s);
	int (*teardown)(void);
	void (*check)(struct fwd_check *c);
};
extern const struct fwd_ops fwd_fixed_ops;
extern const struct fwd_ops fwd_pagepool_ops;

/* Is this one of ours? FWD_DROP_MAX if so, else the drop reason. */
static inline enum fwd_drop fwd_classify(const void *data, uint32_t len)
{
	const uint8_t *p = data;

	if (len < 14)
		return FWD_DROP_RUNT;
	if (((uint32_t)p[12] << 8 | p[13]) != FWD_ETHERTYPE)
		return FWD_DROP_NOT_OURS;
	return FWD_DROP_MAX;
}

/* The front end, for the frame managers' loops. */
/* The host CPU for a second thread: the next one after @cpu this process
 * may run on (any other one when @cpu is -1); -1 if there is none. */
int fwd_other_cpu(int cpu);
bool fwd_should_stop(void);
/* CLOCK_MONOTONIC, in seconds. */
double fwd_now(void);
/* Called by run() after every loop round: the --teardown-after limit, and
 * every FWD_TICK_EVERY calls the clock: the status line once a second,
 * --duration. @sent: the running
 * total of frames handed to --out (fixed: put into its TX ring; pagepool:
 * redirected to it by the verdict hook, a counter in memory, and once that
 * reaches --teardown-after the frames --out's TX ring took: the hook's
 * count includes the ones a full ring refused). */
void fwd_tick(uint64_t sent);
/* For the --teardown-after case: true once the limit was reached (run()
 * returns; the sockets are closed while the sender still sends). */
bool fwd_teardown_due(void);

/* A relaxed 64-bit counter written by one thread, read by another. */
static inline void fwd_cnt_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

static inline uint64_t fwd_cnt_read(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

#endif /* XDP_FWD_H */
