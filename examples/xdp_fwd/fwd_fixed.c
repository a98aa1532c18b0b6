/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * xdp_fwd --frames fixed: the fixed-frame baseline, the way AF_XDP
 * forwarders without a buffer allocator are written (the kernel's xdpsock
 * l2fwd sample, the xdp-tutorial's AF_XDP lessons): one UMEM of
 * nr_frames x frame_size bytes, a stack of free frame addresses, and the
 * frames moved between rings by address.
 *
 *   free stack -> --in's fill ring -> (kernel copies a frame in) -> --in's
 *   RX ring -> fwd_classify() -> ours: the same address into --out's TX
 *   ring (shared UMEM, no copy), kick; not ours: back on the stack ->
 *   (kernel sends it) -> --out's completion ring -> back on the stack.
 *
 * The memory is mmap()ed like pagepool's arena: aligned to 2 MiB,
 * MADV_HUGEPAGE, then faulted in (MADV_POPULATE_WRITE and a touch loop).
 * The kernel side is the pagepool path's: the same XDP program and XSKMAP
 * (drivers/xsk/xsk_bpf.h), the same copy-mode bind flags, ring sizes and
 * batch size (FWD_BATCH), the same kicks (kick_tx()), the same busy-poll loop
 * on one thread (fwd_tick() between iterations).
 *
 * --completion other: a second thread, pinned to the next allowed host
 * CPU, is the only reader of --out's completion ring; it hands the
 * addresses back to the forwarding thread through a single-producer
 * single-consumer ring (a power of two >= nr_frames entries, so it can
 * never be full: no frame is in it twice). The forwarding thread stays the
 * only owner of the stack, as xsk_fwd.c's per-thread buffer caches keep
 * their stacks thread-local. That is the pagepool path's shape too: TX
 * completion on another CPU, frames back to the RX side's pool through a
 * ring, the RX side the only one to allocate.
 *
 * Ownership: one byte per frame (free, in a fill ring, in the TX path). An
 * RX descriptor for a frame not in a fill ring, or a completion for one
 * not in the TX path, is counted (bad_desc) and ignored, never a second
 * push. teardown() deletes both sockets (the kernel then holds nothing:
 * what was in the fill ring, in the kernel pool's free list or in the TX
 * path is the application's again) and puts every frame still marked as
 * the kernel's back on the stack, once. check() then walks the stack with
 * a bitmap: every frame on it exactly once, every address a frame's, none
 * missing, no bad descriptor.
 *
 * Context: setup/teardown/check on the main thread; run() on it too, the
 * completion thread only between setup and teardown.
 * Layer: examples.
 */
#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <xdp/xsk.h>

#include "xsk_bpf.h"

#include "xdp_fwd.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif
#define HUGE_ALIGN	(2UL << 20)

enum frame_state { F_FREE, F_FILL, F_TX };

/* The -errno of an ERR_PTR() (contract D's convention), -EINVAL for NULL, else 0. */
static inline int ptr_err(const void *p)
{
	if (!p)
		return -EINVAL;
	if ((uintptr_t)p >= (uintptr_t)-4095)
		return (int)(intptr_t)p;
	return 0;
}

struct spsc {
	uint64_t *slot;
	uint32_t mask;
	uint32_t head __attribute__((aligned(64)));	/* producer: the completion thread */
	uint32_t tail __attribute__((aligned(64)));	/* consumer: the forwarding thread */
};

static struct {
	const struct fwd_opts *o;
	/* log2(frame size): addresses become frame numbers by a shift, as in
	 * the pagepool driver (a division by a size read from memory costs
	 * tens of cycles a frame). */
	unsigned int frame_shift;
	void *mem;			/* the UMEM */
	size_t mem_len, map_len;
	void *map;			/* the mmap() it sits in */
	struct xsk_umem *umem;
	struct xsk_socket *xin, *xout;
	struct xsk_ring_prod fill_in, fill_out, tx;
	struct xsk_ring_cons comp_in, comp_out, rx;
	struct ppxsk_bpf *bpf;
	int fd_in, fd_out;

	uint64_t *stack;		/* free frame addresses */
	uint32_t nr_free;
	uint8_t *state;			/* enum frame_state per frame */

	struct spsc ret;		/* --completion other */
	pthread_t comp_thread;
	bool comp_running;
	int comp_stop;

	/* counters (fwd_cnt_*) */
	uint64_t rx_cnt, tx_cnt, fwd_cnt, drop[FWD_DROP_MAX], bad_desc;
	struct fwd_snap last;		/* taken before the sockets went */
	bool closed;
} F;

static inline uint64_t frame_base(uint64_t addr)
{
	return addr & ~(uint64_t)(F.o->frame_size - 1);
}

static inline bool frame_index(uint64_t addr, uint32_t *idx)
{
	uint64_t i = addr >> F.frame_shift;

	if (addr >= F.mem_len)
		return false;
	*idx = (uint32_t)i;
	return true;
}

/* A frame comes back to the application: from @from to the stack. */
static inline void frame_put(uint64_t addr, enum frame_state from)
{
	uint32_t i;

	addr = frame_base(addr);
	if (!frame_index(addr, &i) || F.state[i] != from) {
		F.bad_desc++;
		return;
	}
	F.state[i] = F_FREE;
	F.stack[F.nr_free++] = addr;
}

static void *umem_map(size_t len)
{
	size_t map_len = len + HUGE_ALIGN;
	volatile char *touch;
	uintptr_t start;
	char *p;
	size_t off;

	p = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = ((uintptr_t)p + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
	F.map = p;
	F.map_len = map_len;
	(void)madvise((void *)start, len, MADV_HUGEPAGE);
	(void)madvise((void *)start, len, MADV_POPULATE_WRITE);
	touch = (volatile char *)start;
	for (off = 0; off < len; off += 4096)
		touch[off] = 0;
	return (void *)start;
}

static int fill_from_stack(struct xsk_ring_prod *fill, uint32_t max)
{
	uint32_t n, idx, i;

	n = F.nr_free < max ? F.nr_free : max;
	if (!n)
		return 0;
	n = xsk_ring_prod__reserve(fill, n, &idx);
	for (i = 0; i < n; i++) {
		uint64_t addr = F.stack[--F.nr_free];

		F.state[addr >> F.frame_shift] = F_FILL;
		*xsk_ring_prod__fill_addr(fill, idx + i) = addr;
	}
	if (n)
		xsk_ring_prod__submit(fill, n);
	return (int)n;
}

static int fixed_setup(const struct fwd_opts *o)
{
	struct xsk_umem_config ucfg = {
		.fill_size = o->ring, .comp_size = o->ring, .frame_size = o->frame_size,
		.frame_headroom = 0, .flags = 0,
	};
	struct xsk_socket_config scfg = {
		.rx_size = o->ring, .tx_size = o->ring,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.xdp_flags = o->mode == FWD_MODE_DRV ? XDP_FLAGS_DRV_MODE : XDP_FLAGS_SKB_MODE,
		.bind_flags = XDP_COPY | XDP_USE_NEED_WAKEUP,
	};
	uint32_t i, sz;
	int err;

	F.o = o;
	F.frame_shift = (unsigned int)__builtin_ctz(o->frame_size);
	F.mem_len = (size_t)o->nr_frames * o->frame_size;
	F.mem = umem_map(F.mem_len);
	F.stack = calloc(o->nr_frames, sizeof(*F.stack));
	F.state = calloc(o->nr_frames, 1);
	for (sz = 1; sz < o->nr_frames; sz <<= 1)
		;
	F.ret.slot = calloc(sz, sizeof(*F.ret.slot));
	F.ret.mask = sz - 1;
	if (!F.mem || !F.stack || !F.state || !F.ret.slot) {
		fprintf(stderr, "xdp_fwd: out of memory for %u frames\n", o->nr_frames);
		return -ENOMEM;
	}
	for (i = 0; i < o->nr_frames; i++)
		F.stack[F.nr_free++] = (uint64_t)(o->nr_frames - 1 - i) * o->frame_size;

	err = xsk_umem__create(&F.umem, F.mem, F.mem_len, &F.fill_in, &F.comp_in, &ucfg);
	if (err) {
		fprintf(stderr, "xdp_fwd: xsk_umem__create: %s\n", strerror(-err));
		F.umem = NULL;
		return err;
	}
	/* --in: RX only, the UMEM's own fill/completion pair. */
	err = xsk_socket__create_shared(&F.xin, o->in, 0, F.umem, &F.rx, NULL, &F.fill_in,
					&F.comp_in, &scfg);
	if (err) {
		fprintf(stderr, "xdp_fwd: AF_XDP socket on %s: %s\n", o->in, strerror(-err));
		F.xin = NULL;
		return err;
	}
	/* --out: TX only, on the same UMEM with a fill/completion pair of its own. */
	err = xsk_socket__create_shared(&F.xout, o->out, 0, F.umem, NULL, &F.tx, &F.fill_out,
					&F.comp_out, &scfg);
	if (err) {
		fprintf(stderr, "xdp_fwd: AF_XDP socket on %s: %s\n", o->out, strerror(-err));
		F.xout = NULL;
		return err;
	}
	F.fd_in = xsk_socket__fd(F.xin);
	F.fd_out = xsk_socket__fd(F.xout);

	fill_from_stack(&F.fill_in, o->ring);

	F.bpf = ppxsk_bpf_attach(o->in, o->mode == FWD_MODE_DRV);
	err = ptr_err(F.bpf);
	if (err) {
		F.bpf = NULL;
		fprintf(stderr, "xdp_fwd: XDP program on %s: %s\n", o->in, strerror(-err));
		return err;
	}
	err = ppxsk_bpf_add_socket(F.bpf, 0, F.xin);
	if (err) {
		fprintf(stderr, "xdp_fwd: XSKMAP entry for %s: %s\n", o->in, strerror(-err));
		return err;
	}
	return 0;
}

/* The completion ring: addresses back (to the stack, or to the SPSC ring). */
static uint32_t reap_completions(bool to_ring)
{
	uint32_t n, idx, i, head = 0, room, max = F.o->ring;

	if (to_ring) {
		/* The slots the forwarding thread has taken back: the acquire
		 * orders its reads of them before our writes. The ring holds
		 * every frame, so this bounds nothing in practice. */
		head = F.ret.head;
		room = F.ret.mask + 1 - (head - __atomic_load_n(&F.ret.tail, __ATOMIC_ACQUIRE));
		if (room < max)
			max = room;
	}
	n = max ? xsk_ring_cons__peek(&F.comp_out, max, &idx) : 0;
	if (!n)
		return 0;
	if (to_ring) {
		for (i = 0; i < n; i++)
			F.ret.slot[(head + i) & F.ret.mask] =
				*xsk_ring_cons__comp_addr(&F.comp_out, idx + i);
		__atomic_store_n(&F.ret.head, head + n, __ATOMIC_RELEASE);
	} else {
		for (i = 0; i < n; i++)
			frame_put(*xsk_ring_cons__comp_addr(&F.comp_out, idx + i), F_TX);
	}
	xsk_ring_cons__release(&F.comp_out, n);
	fwd_cnt_add(&F.fwd_cnt, n);
	return n;
}

/* The forwarding thread takes back what the completion thread handed over. */
static void drain_ret_ring(void)
{
	uint32_t head = __atomic_load_n(&F.ret.head, __ATOMIC_ACQUIRE);
	uint32_t tail = F.ret.tail;

	if (head == tail)
		return;
	for (; tail != head; tail++)
		frame_put(F.ret.slot[tail & F.ret.mask], F_TX);
	__atomic_store_n(&F.ret.tail, tail, __ATOMIC_RELEASE);
}

static void *comp_main(void *arg)
{
	int cpu = (int)(intptr_t)arg;

	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	while (!__atomic_load_n(&F.comp_stop, __ATOMIC_ACQUIRE))
		if (!reap_completions(true))
			__builtin_ia32_pause();
	return NULL;
}

/* TX descriptors the kernel has not consumed yet: kick while there are any. */
static inline bool tx_pending(void)
{
	return __atomic_load_n(F.tx.consumer, __ATOMIC_ACQUIRE) != F.tx.cached_prod;
}

/*
 * Copy mode sends in the sendto() call, at most 32 descriptors per call
 * (the kernel's TX budget; it returns EAGAIN when it stopped there, or when
 * the completion ring is full; EBUSY when the device dropped a frame). So:
 * kick while descriptors are pending and the kernel says EAGAIN or EBUSY,
 * a batch's worth of calls at most.
 */
static inline void kick_tx(void)
{
	int i;

	for (i = 0; i < FWD_BATCH / 32 + 1 && tx_pending(); i++) {
		if (sendto(F.fd_out, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0)
			break;
		/* EBUSY: the device dropped one frame (NET_XMIT_DROP); the
		 * kernel completed its descriptor and stopped there. */
		if (errno == EBUSY)
			fwd_cnt_add(&F.drop[FWD_DROP_TX_DEV_DROPPED], 1);
		else if (errno != EAGAIN)
			break;
	}
}

static int fixed_run(const struct fwd_opts *o)
{
	uint32_t n, idx_rx, idx_tx, i, ours, ntx;
	const struct xdp_desc *d;
	enum fwd_drop why;
	uint64_t addrs[FWD_BATCH];
	uint32_t lens[FWD_BATCH];

	if (o->completion_other) {
		int err = pthread_create(&F.comp_thread, NULL, comp_main,
					 (void *)(intptr_t)fwd_other_cpu(o->cpu));

		if (err) {
			fprintf(stderr, "xdp_fwd: completion thread: %s\n", strerror(err));
			return -err;
		}
		F.comp_running = true;
	}
	while (!fwd_should_stop() && !fwd_teardown_due()) {
		if (o->completion_other)
			drain_ret_ring();
		else
			reap_completions(false);

		n = xsk_ring_cons__peek(&F.rx, FWD_BATCH, &idx_rx);
		if (n) {
			ours = 0;
			for (i = 0; i < n; i++) {
				uint32_t fi;

				d = xsk_ring_cons__rx_desc(&F.rx, idx_rx + i);
				if (!frame_index(frame_base(d->addr), &fi) ||
				    F.state[fi] != F_FILL) {
					F.bad_desc++;
					continue;
				}
				why = fwd_classify(xsk_umem__get_data(F.mem, d->addr), d->len);
				if (why != FWD_DROP_MAX) {
					fwd_cnt_add(&F.drop[why], 1);
					frame_put(d->addr, F_FILL);
					continue;
				}
				addrs[ours] = d->addr;
				lens[ours++] = d->len;
			}
			xsk_ring_cons__release(&F.rx, n);
			fwd_cnt_add(&F.rx_cnt, n);

			ntx = ours ? xsk_ring_prod__reserve(&F.tx, ours, &idx_tx) : 0;
			for (i = 0; i < ntx; i++) {
				struct xdp_desc *t = xsk_ring_prod__tx_desc(&F.tx, idx_tx + i);

				t->addr = addrs[i];
				t->len = lens[i];
				t->options = 0;
				F.state[addrs[i] >> F.frame_shift] = F_TX;
			}
			if (ntx) {
				xsk_ring_prod__submit(&F.tx, ntx);
				fwd_cnt_add(&F.tx_cnt, ntx);
			}
			for (i = ntx; i < ours; i++) {
				fwd_cnt_add(&F.drop[FWD_DROP_TX_RING_FULL], 1);
				frame_put(addrs[i], F_FILL);
			}
		}
		kick_tx();
		/* Refill whatever the fill ring takes, a batch at a time. */
		while (F.nr_free >= FWD_BATCH &&
		       xsk_prod_nb_free(&F.fill_in, FWD_BATCH) >= FWD_BATCH)
			fill_from_stack(&F.fill_in, FWD_BATCH);
		fwd_tick(fwd_cnt_read(&F.tx_cnt));
	}
	return 0;
}

static void read_xs(int fd, struct fwd_xs *xs)
{
	struct xdp_statistics s;
	socklen_t len = sizeof(s);

	memset(xs, 0, sizeof(*xs));
	if (fd < 0 || getsockopt(fd, SOL_XDP, XDP_STATISTICS, &s, &len))
		return;
	xs->rx_dropped = s.rx_dropped;
	xs->rx_invalid_descs = s.rx_invalid_descs;
	xs->tx_invalid_descs = s.tx_invalid_descs;
	xs->rx_ring_full = s.rx_ring_full;
	xs->rx_fill_ring_empty_descs = s.rx_fill_ring_empty_descs;
	xs->tx_ring_empty_descs = s.tx_ring_empty_descs;
}

static void fixed_snap(struct fwd_snap *s)
{
	int i;

	if (F.closed) {
		*s = F.last;
		s->frames_free = F.nr_free;
		s->inflight = F.o->nr_frames - F.nr_free;
		return;
	}
	memset(s, 0, sizeof(*s));
	s->rx = fwd_cnt_read(&F.rx_cnt);
	s->tx = fwd_cnt_read(&F.tx_cnt);
	s->completed = fwd_cnt_read(&F.fwd_cnt);
	for (i = 0; i < FWD_DROP_MAX; i++)
		s->drop[i] = fwd_cnt_read(&F.drop[i]);
	read_xs(F.xin ? F.fd_in : -1, &s->xs_in);
	read_xs(F.xout ? F.fd_out : -1, &s->xs_out);
	s->frames_free = F.nr_free;
	s->inflight = F.o ? F.o->nr_frames - F.nr_free : 0;
}

static int fixed_teardown(void)
{
	uint32_t i;
	int err = 0;

	if (F.comp_running) {
		__atomic_store_n(&F.comp_stop, 1, __ATOMIC_RELEASE);
		pthread_join(F.comp_thread, NULL);
		F.comp_running = false;
	}
	/* What the completion thread handed over, then what it left in the ring. */
	drain_ret_ring();
	if (F.xout)
		reap_completions(false);
	fixed_snap(&F.last);
	F.closed = true;

	if (F.bpf)
		err = ppxsk_bpf_detach(F.bpf);
	F.bpf = NULL;
	if (F.xin)
		xsk_socket__delete(F.xin);
	if (F.xout)
		xsk_socket__delete(F.xout);
	F.xin = F.xout = NULL;
	if (F.umem) {
		int e = xsk_umem__delete(F.umem);

		if (e && !err)
			err = e;
	}
	F.umem = NULL;
	/* The kernel holds nothing now: what it had is ours again. */
	for (i = 0; F.state && i < F.o->nr_frames; i++) {
		if (F.state[i] == F_FILL || F.state[i] == F_TX) {
			F.state[i] = F_FREE;
			F.stack[F.nr_free++] = (uint64_t)i * F.o->frame_size;
		}
	}
	return err;
}

static void fixed_check(struct fwd_check *c)
{
	uint32_t n = F.o->nr_frames, i, fi, dup = 0, bad = 0, missing = 0;
	uint64_t *seen = F.stack ? calloc((n + 63) / 64, sizeof(uint64_t)) : NULL;

	memset(c, 0, sizeof(*c));
	c->frames_total = n;
	c->frames_free = F.nr_free;
	if (!seen) {
		snprintf(c->why, sizeof(c->why), "out of memory for the frame tables");
		goto out;
	}
	for (i = 0; i < F.nr_free && i < n; i++) {
		uint64_t a = F.stack[i];

		if (a % F.o->frame_size || !frame_index(a, &fi)) {
			bad++;
			continue;
		}
		if (seen[fi / 64] & (1ULL << (fi % 64)))
			dup++;
		seen[fi / 64] |= 1ULL << (fi % 64);
	}
	for (i = 0; i < n; i++)
		if (!(seen[i / 64] & (1ULL << (i % 64))))
			missing++;
	free(seen);
	c->ok = !dup && !bad && !missing && F.nr_free == n && !F.bad_desc;
	if (!c->ok)
		snprintf(c->why, sizeof(c->why),
			 "%u of %u frames on the free stack: %u missing, %u twice, %u bad addresses, "
			 "%llu descriptors for frames not the kernel's",
			 F.nr_free, n, missing, dup, bad, (unsigned long long)F.bad_desc);
out:
	if (F.map)
		munmap(F.map, F.map_len);
	F.map = F.mem = NULL;
	free(F.stack);
	free(F.state);
	free(F.ret.slot);
	F.stack = F.ret.slot = NULL;
	F.state = NULL;
}

const struct fwd_ops fwd_fixed_ops = {
	.name = "fixed",
	.setup = fixed_setup,
	.run = fixed_run,
	.snap = fixed_snap,
	.teardown = fixed_teardown,
	.check = fixed_check,
};
