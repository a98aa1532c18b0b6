/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * xdp_fwd: an AF_XDP forwarder between two interfaces. Frames of EtherType
 * 0x88B5 that arrive on --in leave on --out (XDP_REDIRECT into the other
 * socket's TX ring, both sockets on one UMEM, copy mode); every other frame
 * is dropped, and counted by reason. Two frame managers:
 *
 *   --frames pagepool  the UMEM is pagepool memory and every frame a
 *                      page_pool frame (drivers/xsk: a kernel-style driver,
 *                      an XDP verdict hook written in C, xdp_do_redirect(),
 *                      TX completion through xdp_return_frame*());
 *   --frames fixed     the baseline: a stack of free frame addresses, as
 *                      AF_XDP forwarders without an allocator do it.
 *
 * This file is the front end both share: the options, the pinning, the
 * status line once a second (pps in and out, drops by reason, the sockets'
 * XDP_STATISTICS deltas, the frame manager's pool state; overwritten with
 * \r on a terminal, one line each otherwise), SIGINT/SIGTERM (stop, then
 * tear down and print the totals), --duration, --teardown-after N (close
 * the sockets once N frames went out, with the traffic still flowing), the
 * check after teardown and --totals-json.
 *
 *   xdp_fwd --in IF --out IF [--frames pagepool|fixed] [--mode skb|drv]
 *           [--frame-size 2048|4096] [--nr-frames 4096] [--ring 2048]
 *           [--completion same|other] [--bulk] [--no-dma-debug] [--cpu C]
 *           [--duration S]
 *           [--teardown-after N] [--status|--quiet] [--totals-json FILE]
 *
 * Totals: "forwarded" counts the frames put into --out's TX ring,
 * "completed" those of them the kernel completed; they are equal after a
 * stop once the traffic ended, and differ by what was still in the kernel's
 * TX path when --teardown-after closed the sockets (the kernel may have
 * sent those: the far side can count them). "pps" is the rate at which
 * frames were handed to --out, between the first and the last one.
 * --teardown-after N counts those too.
 *
 * An interface that goes away while it runs (the status tick finds its
 * name no longer at the index it opened) stops it: "interface X went
 * away", teardown, the check, exit status 1.
 *
 * Exit status: 0 when the check after teardown is ok; 1 when it is not,
 * the run failed or an interface went away; 2 for a bad command line.
 *
 * Context: one forwarding thread (this one, pinned to --cpu), plus a
 * completion thread with --completion other (the frame manager's).
 * Layer: examples.
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xdp_fwd.h"

const char *const fwd_drop_name[FWD_DROP_MAX] = {
	[FWD_DROP_NOT_OURS] = "not_ours",
	[FWD_DROP_RUNT] = "runt",
	[FWD_DROP_TX_RING_FULL] = "tx_ring_full",
	[FWD_DROP_REDIRECT] = "redirect_error",
	[FWD_DROP_ABORTED] = "aborted",
	[FWD_DROP_OTHER] = "other",
	[FWD_DROP_TX_DEV_DROPPED] = "tx_dev_dropped",
	[FWD_DROP_NO_TAILROOM] = "no_tailroom",
};

static volatile sig_atomic_t stop_sig;
static const struct fwd_opts *opts;
static const struct fwd_ops *ops;
static cpu_set_t allowed;		/* the process's CPUs before pinning */

static struct {
	double start, last_status, end_by;
	struct fwd_snap prev;		/* at the last status line */
	uint64_t fwd_first;		/* fwd_tick()'s total when it first moved */
	double t_first, t_last;		/* first and last time it moved */
	uint64_t fwd_seen;
	bool teardown_due, tty;
	unsigned int ifindex_in, ifindex_out;	/* as they were when the sockets opened */
	const char *gone;		/* the interface that went away, if one did */
} T;

double fwd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

bool fwd_should_stop(void)
{
	return stop_sig != 0;
}

bool fwd_teardown_due(void)
{
	return T.teardown_due;
}

int fwd_other_cpu(int cpu)
{
	int n = CPU_SETSIZE, i, c;

	for (i = 1; i <= n; i++) {
		c = ((cpu < 0 ? 0 : cpu) + i) % n;
		if (c != cpu && CPU_ISSET(c, &allowed))
			return c;
	}
	return -1;
}

static void on_signal(int sig)
{
	stop_sig = sig;
}

static void print_status(const struct fwd_snap *s, double dt)
{
	const struct fwd_snap *p = &T.prev;
	char buf[768];
	int len, i;
	bool any = false;

	len = snprintf(buf, sizeof(buf), "[%6.1fs] in %8.0f pps  out %8.0f pps  drops",
		       fwd_now() - T.start, (s->rx - p->rx) / dt, (s->completed - p->completed) / dt);
	for (i = 0; i < FWD_DROP_MAX; i++) {
		if (s->drop[i] == p->drop[i])
			continue;
		len += snprintf(buf + len, sizeof(buf) - len, " %s +%llu", fwd_drop_name[i],
				(unsigned long long)(s->drop[i] - p->drop[i]));
		any = true;
	}
	if (!any)
		len += snprintf(buf + len, sizeof(buf) - len, " 0");
	len += snprintf(buf + len, sizeof(buf) - len,
			"  xs in: dropped +%llu ring_full +%llu fill_empty +%llu"
			"  out: tx_invalid +%llu",
			(unsigned long long)(s->xs_in.rx_dropped - p->xs_in.rx_dropped),
			(unsigned long long)(s->xs_in.rx_ring_full - p->xs_in.rx_ring_full),
			(unsigned long long)(s->xs_in.rx_fill_ring_empty_descs -
					     p->xs_in.rx_fill_ring_empty_descs),
			(unsigned long long)(s->xs_out.tx_invalid_descs - p->xs_out.tx_invalid_descs));
	if (s->has_pool)
		len += snprintf(buf + len, sizeof(buf) - len,
				"  pool: alloc fast +%llu slow +%llu recycled cached +%llu"
				" ring +%llu inflight %llu",
				(unsigned long long)(s->alloc_fast - p->alloc_fast),
				(unsigned long long)(s->alloc_slow - p->alloc_slow),
				(unsigned long long)(s->recycle_cached - p->recycle_cached),
				(unsigned long long)(s->recycle_ring - p->recycle_ring),
				(unsigned long long)s->inflight);
	else
		snprintf(buf + len, sizeof(buf) - len, "  frames: free %llu out %llu",
			 (unsigned long long)s->frames_free, (unsigned long long)s->inflight);
	if (T.tty)
		printf("\r%s\033[K", buf);
	else
		printf("%s\n", buf);
	fflush(stdout);
}

void fwd_tick(uint64_t sent)
{
	static unsigned int calls;
	double t;

	if (opts->teardown_after && sent >= opts->teardown_after)
		T.teardown_due = true;
	if (sent == T.fwd_seen && ++calls % FWD_TICK_EVERY)
		return;
	t = fwd_now();
	if (sent != T.fwd_seen) {
		if (!T.t_first) {
			T.t_first = t;
			T.fwd_first = T.fwd_seen;
		}
		T.t_last = t;
		T.fwd_seen = sent;
	}
	if (T.end_by && t >= T.end_by)
		stop_sig = -1;
	if (t - T.last_status >= 1.0) {
		struct fwd_snap s;

		/* An interface deleted under us (netns-setup down): its socket
		 * is unbound, nothing arrives or leaves any more. Stop. */
		if (!T.gone && if_nametoindex(opts->in) != T.ifindex_in)
			T.gone = opts->in;
		else if (!T.gone && if_nametoindex(opts->out) != T.ifindex_out)
			T.gone = opts->out;
		if (T.gone) {
			fprintf(stderr, "xdp_fwd: interface %s went away\n", T.gone);
			stop_sig = -1;
		}

		ops->snap(&s);
		if (opts->status)
			print_status(&s, t - T.last_status);
		T.prev = s;
		T.last_status = t;
	}
}

static void json_xs(FILE *f, const char *name, const struct fwd_xs *x, bool last)
{
	fprintf(f, "\"%s\":{\"rx_dropped\":%llu,\"rx_invalid_descs\":%llu,"
		"\"tx_invalid_descs\":%llu,\"rx_ring_full\":%llu,"
		"\"rx_fill_ring_empty_descs\":%llu,\"tx_ring_empty_descs\":%llu}%s",
		name, (unsigned long long)x->rx_dropped, (unsigned long long)x->rx_invalid_descs,
		(unsigned long long)x->tx_invalid_descs, (unsigned long long)x->rx_ring_full,
		(unsigned long long)x->rx_fill_ring_empty_descs,
		(unsigned long long)x->tx_ring_empty_descs, last ? "" : ",");
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static double active_s(void)
{
	return T.t_last > T.t_first ? T.t_last - T.t_first : 0;
}

/* Frames handed to --out per second while frames flowed. */
static double rate(void)
{
	double a = active_s();

	return a > 0 ? (T.fwd_seen - T.fwd_first) / a : 0;
}

static int write_totals(const char *path, const struct fwd_snap *s, const struct fwd_check *c,
			double elapsed)
{
	FILE *f = fopen(path, "w");
	int i;

	if (!f) {
		fprintf(stderr, "xdp_fwd: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "{\"frames\":\"%s\",\"mode\":\"%s\",\"frame_size\":%u,\"nr_frames\":%u,"
		"\"ring\":%u,\"completion\":\"%s\",\"bulk\":%s,\"dma_debug\":%s,",
		ops->name, opts->mode == FWD_MODE_DRV ? "drv" : "skb", opts->frame_size,
		opts->nr_frames, opts->ring, opts->completion_other ? "other" : "same",
		opts->bulk ? "true" : "false", opts->no_dma_debug ? "false" : "true");
	fprintf(f, "\"forwarded\":%llu,\"rx\":%llu,\"tx\":%llu,\"completed\":%llu,\"drops\":{",
		(unsigned long long)s->tx, (unsigned long long)s->rx,
		(unsigned long long)s->tx, (unsigned long long)s->completed);
	for (i = 0; i < FWD_DROP_MAX; i++)
		fprintf(f, "\"%s\":%llu%s", fwd_drop_name[i], (unsigned long long)s->drop[i],
			i + 1 < FWD_DROP_MAX ? "," : "");
	fprintf(f, "},\"xdp_statistics\":{");
	json_xs(f, "in", &s->xs_in, false);
	json_xs(f, "out", &s->xs_out, true);
	fprintf(f, "},");
	if (s->has_pool)
		fprintf(f, "\"pool\":{\"inflight\":%llu,\"alloc_fast\":%llu,\"alloc_slow\":%llu,"
			"\"recycle_cached\":%llu,\"recycle_ring\":%llu},",
			(unsigned long long)s->inflight, (unsigned long long)s->alloc_fast,
			(unsigned long long)s->alloc_slow, (unsigned long long)s->recycle_cached,
			(unsigned long long)s->recycle_ring);
	fprintf(f, "\"check\":{\"ok\":%s,\"why\":", c->ok ? "true" : "false");
	json_string(f, c->why);
	fprintf(f, ",\"frames_total\":%llu,\"frames_free\":%llu,\"dma_violations\":%llu},",
		(unsigned long long)c->frames_total, (unsigned long long)c->frames_free,
		(unsigned long long)c->dma_violations);
	fprintf(f, "\"teardown_after\":%llu,\"elapsed_s\":%.3f,\"active_s\":%.3f,\"pps\":%.0f}\n",
		(unsigned long long)opts->teardown_after, elapsed, active_s(), rate());
	if (fclose(f)) {
		fprintf(stderr, "xdp_fwd: %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

static void print_totals(const struct fwd_snap *s, const struct fwd_check *c, double elapsed,
			 bool started)
{
	int i;

	printf("xdp_fwd %s: forwarded %llu of %llu received (%llu completed) in %.2f s "
	       "(%.0f pps over %.2f s of traffic)\n", ops->name, (unsigned long long)s->tx,
	       (unsigned long long)s->rx, (unsigned long long)s->completed, elapsed, rate(),
	       active_s());
	printf("  drops:");
	for (i = 0; i < FWD_DROP_MAX; i++)
		printf(" %s %llu", fwd_drop_name[i], (unsigned long long)s->drop[i]);
	printf("\n  XDP_STATISTICS in: rx_dropped %llu rx_ring_full %llu "
	       "rx_fill_ring_empty_descs %llu rx_invalid_descs %llu\n",
	       (unsigned long long)s->xs_in.rx_dropped, (unsigned long long)s->xs_in.rx_ring_full,
	       (unsigned long long)s->xs_in.rx_fill_ring_empty_descs,
	       (unsigned long long)s->xs_in.rx_invalid_descs);
	printf("  XDP_STATISTICS out: tx_invalid_descs %llu tx_ring_empty_descs %llu\n",
	       (unsigned long long)s->xs_out.tx_invalid_descs,
	       (unsigned long long)s->xs_out.tx_ring_empty_descs);
	if (s->has_pool)
		printf("  pool: alloc fast %llu slow %llu, recycled cached %llu ring %llu\n",
		       (unsigned long long)s->alloc_fast, (unsigned long long)s->alloc_slow,
		       (unsigned long long)s->recycle_cached, (unsigned long long)s->recycle_ring);
	/* After a failed start-up there was no run to check: say what the
	 * check found about the frames, not that the run was fine. */
	printf("  check%s: %s%s%s (%llu of %llu frames back",
	       started ? "" : " (start-up failed, no run)",
	       c->ok ? (started ? "ok" : "no frame missing") : "FAILED",
	       c->why[0] ? ": " : "", c->why, (unsigned long long)c->frames_free,
	       (unsigned long long)c->frames_total);
	if (s->has_pool)
		printf(", %llu DMA-API violations", (unsigned long long)c->dma_violations);
	printf(")\n");
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xdp_fwd --in IF --out IF [--frames pagepool|fixed] [--mode skb|drv]\n"
		"               [--frame-size 2048|4096] [--nr-frames 4096] [--ring 2048]\n"
		"               [--completion same|other] [--bulk] [--no-dma-debug] [--cpu C]\n"
		"               [--duration S]\n"
		"               [--teardown-after N] [--status|--quiet] [--totals-json FILE]\n"
		"\n"
		"  --in IF, --out IF     frames of EtherType 0x88B5 that arrive on --in leave on\n"
		"                        --out (two interfaces; required)\n"
		"  --frames M            frame manager: pagepool (drivers/xsk) or fixed (the\n"
		"                        baseline); default pagepool\n"
		"  --mode M              XDP attach mode: skb or drv; default skb\n"
		"  --frame-size B        UMEM frame size: 2048 or 4096; default 2048\n"
		"  --nr-frames N         UMEM frames, --ring + 64 (fixed) or --ring + 192\n"
		"                        (pagepool) .. 1048576, even with 2048 B frames;\n"
		"                        default 4096 (pagepool: from the arena, 64 MiB\n"
		"                        unless PAGEPOOL_MEM_MB says more)\n"
		"  --ring N              every ring's size: a power of two, 64 .. 65536;\n"
		"                        default 2048\n"
		"  --completion W        TX completion on the forwarding thread (same) or a\n"
		"                        second one (other); default same\n"
		"  --bulk                pagepool: xdp_return_frame_bulk() on TX completion\n"
		"  --no-dma-debug        pagepool: the UMEM's DMA device without DMA-API debug\n"
		"                        checks (as a kernel without CONFIG_DMA_API_DEBUG; for\n"
		"                        timing: violations are then not caught); default:\n"
		"                        checked. fixed has no DMA layer: ignored\n"
		"  --cpu C               pin the forwarding thread to CPU C (0 .. %d);\n"
		"                        default: not pinned\n"
		"  --duration S          stop after S seconds (>= 0; 0: at SIGINT/SIGTERM);\n"
		"                        default 0\n"
		"  --teardown-after N    close the sockets once N frames went out, traffic\n"
		"                        still flowing (0 .. 2^64-1; 0: never); default 0\n"
		"  --status, --quiet     a status line once a second (default), or only the\n"
		"                        totals\n"
		"  --totals-json FILE    the totals as JSON into FILE at exit\n"
		"\n"
		"Exit status: 0 the check after teardown is ok; 1 it is not, the run failed\n"
		"or an interface went away; 2 a bad command line.\n", CPU_SETSIZE - 1);
}

/* What each option takes, for "bad value for --X". */
static const char *option_range(const char *name)
{
	static const struct { const char *name, *range; } r[] = {
		{ "frames", "pagepool or fixed" },
		{ "mode", "skb or drv" },
		{ "frame-size", "2048 or 4096" },
		{ "nr-frames", "--ring + 64 (fixed) or + 192 (pagepool) .. 1048576" },
		{ "ring", "a power of two, 64 .. 65536" },
		{ "completion", "same or other" },
		{ "cpu", "a CPU number, 0 .. 1023" },
		{ "duration", "seconds, >= 0" },
		{ "teardown-after", "a frame count, 0 .. 2^64-1" },
	};
	size_t i;

	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		if (!strcmp(r[i].name, name))
			return r[i].range;
	return "see --help";
}

#define STR_(x)		#x
#define STR(x)		STR_(x)
#define FWD_MAX_FRAMES	1048576U

/*
 * The fewest frames a frame manager forwards with: --in's fill ring full
 * (--ring frames the kernel holds until frames arrive), a TX batch on its
 * way out, and for pagepool the --in pool's alloc cache, which refills
 * from the UMEM ahead of the fill ring. --out holds none in either (its
 * socket is TX-only).
 */
static unsigned int fwd_min_frames(const struct fwd_opts *o)
{
	return o->ring + FWD_BATCH + (o->frames == FWD_FRAMES_FIXED ? 0 : FWD_PP_ALLOC_CACHE);
}

static int parse_uint(const char *name, const char *arg, unsigned long long max,
		      unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || *v > max) {
		fprintf(stderr, "xdp_fwd: bad value for --%s: '%s': not a number up to %llu (%s)\n",
			name, arg, max, option_range(name));
		return -EINVAL;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct fwd_opts *o)
{
	static const struct option lo[] = {
		{ "in", required_argument, NULL, 'i' },
		{ "out", required_argument, NULL, 'o' },
		{ "frames", required_argument, NULL, 'f' },
		{ "mode", required_argument, NULL, 'm' },
		{ "frame-size", required_argument, NULL, 's' },
		{ "nr-frames", required_argument, NULL, 'n' },
		{ "ring", required_argument, NULL, 'r' },
		{ "completion", required_argument, NULL, 'c' },
		{ "bulk", no_argument, NULL, 'b' },
		{ "no-dma-debug", no_argument, NULL, 'D' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "duration", required_argument, NULL, 'd' },
		{ "teardown-after", required_argument, NULL, 't' },
		{ "status", no_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "totals-json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long long v;
	char *end;
	int c, li;

	*o = (struct fwd_opts){ .frames = FWD_FRAMES_PAGEPOOL, .mode = FWD_MODE_SKB,
				.frame_size = 2048, .nr_frames = 4096, .ring = 2048, .cpu = -1,
				.status = true };
	while (li = -1, (c = getopt_long(argc, argv, "", lo, &li)) != -1) {
		switch (c) {
		case 'i': o->in = optarg; break;
		case 'o': o->out = optarg; break;
		case 'f':
			if (!strcmp(optarg, "pagepool"))
				o->frames = FWD_FRAMES_PAGEPOOL;
			else if (!strcmp(optarg, "fixed"))
				o->frames = FWD_FRAMES_FIXED;
			else
				goto bad_value;
			break;
		case 'm':
			if (!strcmp(optarg, "skb"))
				o->mode = FWD_MODE_SKB;
			else if (!strcmp(optarg, "drv"))
				o->mode = FWD_MODE_DRV;
			else
				goto bad_value;
			break;
		case 's':
			if (parse_uint("frame-size", optarg, 4096, &v))
				return -EINVAL;
			if (v != 2048 && v != 4096)
				goto bad_value;
			o->frame_size = (unsigned int)v;
			break;
		case 'n':
			if (parse_uint("nr-frames", optarg, FWD_MAX_FRAMES, &v))
				return -EINVAL;
			o->nr_frames = (unsigned int)v;
			break;
		case 'r':
			if (parse_uint("ring", optarg, 1U << 16, &v))
				return -EINVAL;
			if (v < FWD_BATCH || (v & (v - 1)))
				goto bad_value;	/* the kernel wants powers of two */
			o->ring = (unsigned int)v;
			break;
		case 'c':
			if (!strcmp(optarg, "same"))
				o->completion_other = false;
			else if (!strcmp(optarg, "other"))
				o->completion_other = true;
			else
				goto bad_value;
			break;
		case 'b': o->bulk = true; break;
		case 'D': o->no_dma_debug = true; break;
		case 'C':
			if (parse_uint("cpu", optarg, CPU_SETSIZE - 1, &v))
				return -EINVAL;
			o->cpu = (int)v;
			break;
		case 'd':
			errno = 0;
			o->duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->duration >= 0))
				goto bad_value;
			break;
		case 't':
			if (parse_uint("teardown-after", optarg, ~0ULL, &v))
				return -EINVAL;
			o->teardown_after = v;
			break;
		case 'S': o->status = true; o->quiet = false; break;
		case 'q': o->status = false; o->quiet = true; break;
		case 'j': o->totals_json = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -EINVAL;
		}
		continue;
bad_value:
		fprintf(stderr, "xdp_fwd: bad value for --%s: '%s' (%s)\n",
			li >= 0 ? lo[li].name : "?", optarg,
			li >= 0 ? option_range(lo[li].name) : "see --help");
		usage(stderr);
		return -EINVAL;
	}
	if (optind < argc) {
		fprintf(stderr, "xdp_fwd: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (!o->in || !o->out) {
		fprintf(stderr, "xdp_fwd: --in and --out are required\n");
		usage(stderr);
		return -EINVAL;
	}
	if (!strcmp(o->in, o->out)) {
		fprintf(stderr, "xdp_fwd: --in and --out must be two interfaces\n");
		return -EINVAL;
	}
	if (o->nr_frames < fwd_min_frames(o)) {
		fprintf(stderr, "xdp_fwd: bad value for --nr-frames: %u; with --frames %s and "
			"--ring %u it is %u .. %u (%s)\n", o->nr_frames,
			o->frames == FWD_FRAMES_FIXED ? "fixed" : "pagepool", o->ring,
			fwd_min_frames(o), FWD_MAX_FRAMES,
			o->frames == FWD_FRAMES_FIXED ?
			"--in's fill ring + a TX batch of " STR(FWD_BATCH) :
			"--in's fill ring + the pool's alloc cache of " STR(FWD_PP_ALLOC_CACHE)
			" + a TX batch of " STR(FWD_BATCH));
		return -EINVAL;
	}
	if ((uint64_t)o->nr_frames * o->frame_size % 4096) {
		fprintf(stderr, "xdp_fwd: bad value for --nr-frames: %u x %u B is not a whole "
			"number of 4 KiB pages (use an even number)\n", o->nr_frames, o->frame_size);
		return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct fwd_opts o;
	struct fwd_snap s;
	struct fwd_check c = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	double elapsed;
	int err, rc = 0;
	bool started;

	if (parse_args(argc, argv, &o))
		return 2;
	opts = &o;
	ops = o.frames == FWD_FRAMES_FIXED ? &fwd_fixed_ops : &fwd_pagepool_ops;
	T.tty = isatty(STDOUT_FILENO);

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	if (o.cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(o.cpu, &set);
		err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (err) {
			fprintf(stderr, "xdp_fwd: --cpu %d: %s\n", o.cpu, strerror(err));
			return 2;
		}
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	err = ops->setup(&o);
	started = !err;
	T.start = T.last_status = fwd_now();
	if (o.duration > 0)
		T.end_by = T.start + o.duration;
	T.ifindex_in = if_nametoindex(o.in);
	T.ifindex_out = if_nametoindex(o.out);
	if (!err) {
		/* Also with --quiet: scripts start their traffic on this line. */
		fprintf(stderr, "xdp_fwd: ready: %s frames, %s -> %s, %s mode, %u x %u B, "
				"rings %u, completion %s%s\n", ops->name, o.in, o.out,
				o.mode == FWD_MODE_DRV ? "drv" : "skb", o.nr_frames,
				o.frame_size, o.ring, o.completion_other ? "other" : "same",
				o.bulk ? ", bulk" : "");
		ops->snap(&T.prev);
		err = ops->run(&o);
		if (err)
			fprintf(stderr, "xdp_fwd: forwarding stopped: %s\n", strerror(-err));
	}
	elapsed = fwd_now() - T.start;
	if (T.tty && o.status)
		printf("\n");
	if (T.teardown_due && !o.quiet)
		fprintf(stderr, "xdp_fwd: %llu frames forwarded: closing the sockets mid-stream\n",
			(unsigned long long)T.fwd_seen);
	if (ops->teardown() && !err)
		err = -EIO;
	ops->snap(&s);
	ops->check(&c);
	print_totals(&s, &c, elapsed, started);
	if (o.totals_json && write_totals(o.totals_json, &s, &c, elapsed))
		rc = 1;
	if (err || !c.ok || T.gone)
		rc = 1;
	return rc;
}
