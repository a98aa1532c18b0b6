/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The kernel-API fuzz harness, part one: the arena and devices set up once,
 * the model of every reference the harness holds, the checks run after
 * every operation, and the per-input teardown that gives everything back
 * and proves it is all home. The operations are in fuzz_kapi_ops.c; the
 * input format in fuzz_kapi.h.
 *
 * After every operation (kz_check_all()):
 *   - the WARN count and the page allocator's bad-free counters did not
 *     move, and no DMA-API violation happened on any device
 *     (ppinv_check_step());
 *   - every pool the model knows to be alive: 0 <= hold - release, at
 *     least the pages the model holds, introspection agrees
 *     (ppinv_check_pool());
 *   - every netmem the model holds a page_pool reference on is still a
 *     page_pool netmem of its pool, with pp_ref_count > 0 and the page
 *     references the model took (ppinv_check_held()), and, in a DMA-mapping
 *     pool, a DMA address;
 *   - every alive pool's page_pool_get_stats() moved by what the model
 *     predicts (check_stats(); the rules are in fuzz_kapi.h);
 *   - a pool handed out a netmem the model still holds only as the next
 *     fragment of the pool's current fragment page (kz_take());
 *   - a destroyed pool whose last page came home is freed once the
 *     deferred release runs (ppinv_check_pool_gone()).
 * At the end of each input everything is returned and destroyed, devices
 * are bound again, and ppinv_check_idle() proves the arena whole, no page
 * marked page_pool, no pool listed, no mapping live.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/device.h>
#include <linux/mm.h>

#include "fuzz_kapi.h"

struct kz_state kz;

/* The library's messages: the last KZ_LOG_LINES kept for a failure report
 * (PP_FUZZ_VERBOSE=1 prints them as they come). The library prints from
 * its own threads too (the workqueue worker, the RCU callbacks). */
#define KZ_LOG_LINES	48
#define KZ_LOG_LEN	240
static char log_ring[KZ_LOG_LINES][KZ_LOG_LEN];
static unsigned int log_next;
static int verbose;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static int kz_print(int level, const char *fmt, va_list ap)
{
	char *line;

	(void)level;
	pthread_mutex_lock(&log_lock);
	line = log_ring[log_next++ % KZ_LOG_LINES];
	vsnprintf(line, KZ_LOG_LEN, fmt, ap);
	if (verbose)
		fputs(line, stderr);
	pthread_mutex_unlock(&log_lock);
	return 0;
}

static void dump_state(void)
{
	unsigned int i, start;
	int r;

	fprintf(stderr, "--- kapi fuzz model: role %d, bh %d, poll rec %d, %d netmem(s) held, faults armed %#x, op %lu at byte %zu of %zu\n",
		kz.role, kz.bh, kz.poll_rec, kz.nr_pages, kz.armed, kz.nops, kz.pos, kz.size);
	for (r = 0; r < KZ_MAX_POOLS; r++) {
		const struct kz_pool *p = &kz.pools[r];

		if (p->state == KZ_FREE)
			continue;
		fprintf(stderr, "  pool rec %d id %u %s owner %d dev %d dma %d sync %d napi %d percpu %d order %u held %ld frag %#lx\n",
			r, p->id, p->state == KZ_ACTIVE ? "active" : "destroyed", p->owner, p->dev,
			p->dma_map, p->sync, p->napi_on, p->percpu, p->order, p->held,
			(unsigned long)p->frag_nm);
	}
	for (r = 0; r < kz.nr_pages && r < 32; r++)
		fprintf(stderr, "  netmem %#lx rec %d refs %d page_refs %d frag %d\n",
			(unsigned long)kz.pages[r].nm, kz.pages[r].rec, kz.pages[r].refs,
			kz.pages[r].page_refs, kz.pages[r].frag);
	fprintf(stderr, "--- last library messages:\n");
	pthread_mutex_lock(&log_lock);
	start = log_next > KZ_LOG_LINES ? log_next - KZ_LOG_LINES : 0;
	for (i = start; i < log_next; i++)
		fprintf(stderr, "  %s", log_ring[i % KZ_LOG_LINES]);
	pthread_mutex_unlock(&log_lock);
}

static void on_failure(struct ppinv *c, enum ppinv_kind kind, const char *msg)
{
	(void)c;
	(void)kind;
	(void)msg;
	dump_state();
	abort();	/* libFuzzer saves the input as crash-<sha1> */
}

void kz_fail(enum ppinv_kind kind, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ppinv_fail(&kz.inv, kind, "%s", msg);
}

unsigned long kz_faults_injected(void)
{
	unsigned long n = 0;
	int p;

	for (p = 0; p < PP_FAULT_NR; p++)
		n += pp_fault_count((enum pp_fault_point)p);
	return n;
}

/* Model. */

bool kz_in_softirq(void)
{
	return kz.bh > 0 || kz.poll_rec >= 0;
}

/* Direct recycling (allow_direct) is the consumer's privilege: its role,
 * in softirq context, and never once the pool is destroyed. */
bool kz_can_direct(const struct kz_pool *r)
{
	return r->state == KZ_ACTIVE && r->owner == kz.role && kz_in_softirq();
}

/* What the pool itself counts as direct without being told: a put in
 * softirq on the CPU whose poll list holds the pool's NAPI - here, inside
 * that NAPI's poll (the only NAPI ever scheduled) - or, for a per-CPU
 * pool, on its CPU, while the pool is alive (destroy disables direct
 * recycling). */
bool kz_napi_local(int ri)
{
	const struct kz_pool *r = &kz.pools[ri];

	if (r->state != KZ_ACTIVE || !kz_in_softirq())
		return false;
	return (kz.poll_rec == ri && r->napi_on) || (r->percpu && kz.role == r->owner);
}

struct kz_pool *kz_slot_rec(uint8_t b, int *ri)
{
	int s = kz.slot[b % KZ_SLOTS];

	if (s < 0)
		return NULL;
	if (ri)
		*ri = s;
	return &kz.pools[s];
}

static struct kz_page *find(netmem_ref nm)
{
	int i;

	for (i = 0; i < kz.nr_pages; i++)
		if (kz.pages[i].nm == nm)
			return &kz.pages[i];
	return NULL;
}

/* The @b-th held netmem (cyclically) with a page_pool reference. */
struct kz_page *kz_pick(uint8_t b)
{
	int i, n = kz.nr_pages;

	for (i = 0; i < n; i++) {
		struct kz_page *e = &kz.pages[(b + i) % n];

		if (e->refs)
			return e;
	}
	return NULL;
}

/* The pool's current fragment page is no longer current: the pool
 * dropped its own references on it (at the next fragment that did not
 * fit, or at destroy). A fragment the model still holds there is now a
 * plain reference whose last put goes back to the pool. */
void kz_frag_retire(int ri)
{
	kz.pools[ri].frag_nm = 0;
	kz.pools[ri].frag_end = 0;
}

static void forget(struct kz_page *e)
{
	*e = kz.pages[--kz.nr_pages];
}

/* The pool handed @nm out to the model: a whole page, or a fragment at
 * @offset. A netmem the model holds may come out again only as the next
 * fragment of the pool's current fragment page. */
void kz_take(int ri, netmem_ref nm, bool frag, unsigned int offset, unsigned int len)
{
	struct kz_pool *r = &kz.pools[ri];
	struct kz_page *e = find(nm);

	kz.t.allocs++;
	r->exp.alloc_ok++;
	if (frag) {
		bool cont = nm == r->frag_nm && offset != 0;

		if (e && e->refs && !cont)
			kz_fail(PPINV_HELD_PAGE,
				"pool %u handed out netmem %#lx as a new fragment page (offset %u) while the model holds %d reference(s) on it (rec %d)",
				r->id, (unsigned long)nm, offset, e->refs, e->rec);
		/* Fragments of one page never overlap: each starts where
		 * the one before it ended, or later (alignment). */
		if (cont && offset < r->frag_end)
			kz_fail(PPINV_HELD_PAGE,
				"pool %u: fragment [%u, +%u) of netmem %#lx overlaps the one before, which ends at %u",
				r->id, offset, len, (unsigned long)nm, r->frag_end);
		r->frag_nm = nm;
		r->frag_end = offset + len;
	} else if ((e && e->refs) || nm == r->frag_nm) {
		kz_fail(PPINV_HELD_PAGE,
			"pool %u handed out netmem %#lx whole while the model holds %d reference(s) on it%s",
			r->id, (unsigned long)nm, e ? e->refs : 0,
			nm == r->frag_nm ? " (the pool's current fragment page)" : "");
	}
	if (!e) {
		if (kz.nr_pages == KZ_MAX_PAGES) {
			/* Cannot track more: straight back (never with
			 * KZ_MAX_OPS operations, kept for safety). */
			kz_fail(PPINV_API, "model full");
			return;
		}
		e = &kz.pages[kz.nr_pages++];
		memset(e, 0, sizeof(*e));
		e->nm = nm;
	}
	if (!e->refs) {
		e->rec = ri;
		r->held++;
		e->dma = page_pool_get_dma_addr_netmem(nm);
	}
	e->refs++;
	e->frag = frag;
	e->offset = offset;
	e->len = len;
	/* A whole page is the holder's alone: a tag at its start must
	 * still be there whenever it is looked at (kz_check_all()). */
	if (!frag) {
		e->tag = (u64)nm ^ 0x6b617069667a7a00ull ^ kz.t.allocs;
		memcpy(page_address(netmem_to_page(nm)), &e->tag, sizeof(e->tag));
	}
}

/* The model gave one page_pool reference of @e back with a put call that
 * recycled directly when @direct (allow_direct, or napi-local); @bulk: in
 * page_pool_put_page_bulk(). Whether it was the last reference - the pool
 * then takes the page back, and its stats say how - follows from the
 * model: one reference left, and not on the pool's current fragment page
 * (the pool still holds that one). */
static void put_ref(struct kz_page *e, bool direct, bool bulk)
{
	struct kz_pool *r = &kz.pools[e->rec];

	kz.t.returns++;
	if (r->state == KZ_ZOMBIE)
		kz.t.late_returns++;
	if (e->refs == 1 && e->nm != r->frag_nm) {
		if (e->page_refs) {
			r->exp.released++;
			kz.t.released_refcnt++;
		} else if (direct) {
			r->exp.direct++;
			kz.t.direct_returns++;
		} else if (bulk) {
			r->exp.bulk_to_ring++;
		} else {
			r->exp.to_ring++;
		}
	}
	if (r->owner != kz.role)
		kz.t.cross_cpu_returns++;
	if (--e->refs == 0)
		r->held--;
	if (!e->refs && !e->page_refs)
		forget(e);
}

void kz_put_ref(struct kz_page *e, bool direct)
{
	put_ref(e, direct, false);
}

void kz_put_ref_bulk(struct kz_page *e, bool direct)
{
	put_ref(e, direct, true);
}

void kz_drop_page_ref(struct kz_page *e)
{
	put_page(netmem_to_page(e->nm));
	e->page_refs--;
	if (!e->refs && !e->page_refs)
		forget(e);
}

static bool dev_in_use(int d)
{
	int r;

	for (r = 0; r < KZ_MAX_POOLS; r++)
		if (kz.pools[r].state != KZ_FREE && kz.pools[r].dma_map && kz.pools[r].dev == d)
			return true;
	return false;
}

/* A record's pool is gone: it must not be listed any more; a device that
 * was unbound with live mappings is settled once no pool of its is left. */
static void rec_gone(int ri)
{
	struct kz_pool *r = &kz.pools[ri];
	int d = r->dma_map ? r->dev : -1;

	ppinv_check_pool_gone(&kz.inv, r->id);
	r->state = KZ_FREE;
	r->pool = NULL;
	if (d >= 0 && !dev_in_use(d) && ppinv_device_tainted(&kz.inv, kz.devs[d]))
		ppinv_device_settled(&kz.inv, kz.devs[d]);
}

/* Run the deferred release now (process context only): every destroyed
 * pool whose pages the model no longer holds must be freed by it. The
 * release frees a pool whose last page is home on its first run; a few
 * rounds cover work the runtime requeues. */
void kz_run_release(void)
{
	int r, round;

	for (round = 0; round < 3; round++)
		pp_workqueue_run_all();
	for (r = 0; r < KZ_MAX_POOLS; r++)
		if (kz.pools[r].state == KZ_ZOMBIE && !kz.pools[r].held)
			rec_gone(r);
}

void kz_settle_zombies(void)
{
	int r;

	if (kz_in_softirq())
		return;
	for (r = 0; r < KZ_MAX_POOLS; r++)
		if (kz.pools[r].state == KZ_ZOMBIE && !kz.pools[r].held) {
			kz_run_release();
			return;
		}
}

static void stats_read(const struct kz_pool *r, struct page_pool_stats *st)
{
	memset(st, 0, sizeof(*st));
#ifdef CONFIG_PAGE_POOL_STATS
	if (!page_pool_get_stats(r->pool, st))
		kz_fail(PPINV_API, "page_pool_get_stats(pool %u) failed", r->id);
#endif
}

/* The driver's teardown of one pool: stop NAPI, destroy. Pages the model
 * holds stay in flight. Caller MUST NOT be in softirq context (the
 * kernel's destroy may wait for a grace period). The stats are checked
 * first: once destroyed with nothing held, the pool is freed at once. */
void kz_destroy_rec(int ri)
{
	struct kz_pool *r = &kz.pools[ri];
	int s;

	kz_check_all();
	for (s = 0; s < KZ_SLOTS; s++)
		if (kz.slot[s] == ri)
			kz.slot[s] = -1;
	if (r->napi_on)
		napi_disable(&r->napi);
	page_pool_destroy(r->pool);
	if (r->napi_on) {
		netif_napi_del(&r->napi);
		r->napi_on = false;
	}
	kz.t.destroys++;
	r->state = KZ_ZOMBIE;
	kz_frag_retire(ri);
	if (!r->held) {
		/* Nothing in flight: the destroy itself frees it. */
		rec_gone(ri);
		return;
	}
	/* The destroy emptied the cache and the ring: the stats of what
	 * comes back start from here. */
	stats_read(r, &r->base);
	memset(&r->exp, 0, sizeof(r->exp));
	kz.t.destroyed_inflight++;
}

/*
 * The stats, counter by counter. Beyond the rules check_stats() enforces,
 * every reading can be written out (PP_FUZZ_KAPI_STATS=FILE) and compared
 * with readings written before (kz_stats_expect()): one line per pool and
 * operation, "input op rec: fast slow slow_high_order empty refill waive
 * / cached cache_full ring ring_full released_refcnt". The committed
 * tests/fuzz/kapi/corpus-kapi.stats is the kernel core's (Linux
 * 6.12.118) for the corpus's seeds, so the replay on pagepool's core
 * checks that every counter after every operation is the kernel's (the
 * found-* inputs are checked by the rules alone). Readings after a
 * fault was armed in the input are neither written nor compared: the
 * cores allocate differently inside (kmalloc for their DMA tracking,
 * pages one by one or in bulk), so a fault hits different calls.
 *
 * A seed whose counts are declared to differ on the core under test
 * (kz_stats_declare(): pagepool's lanes, corpus-kapi.stats-lanes) is
 * compared with the declared readings instead, and those must still
 * differ from the kernel's: the day they do not, the replay says so.
 */
struct kz_lines {
	char **line;
	size_t n, next;
};

static FILE *stats_log;
static struct kz_lines stats_kernel, stats_declared;
static char **stats_cur;	/* the running input's expected readings */
static size_t stats_ncur, stats_icur;
static bool stats_on;
static const char *input_name = "";

/* The seeds' readings only: inputs a fuzzing run found (found-*) are
 * long and many, and the rules of check_stats() hold for them. */
static bool stats_this_input = true;

static int load_lines(struct kz_lines *l, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		l->line = realloc(l->line, (l->n + 1) * sizeof(*l->line));
		if (!l->line || !(l->line[l->n++] = strdup(line)))
			abort();
	}
	fclose(f);
	stats_on = true;
	return 0;
}

int kz_stats_expect(const char *path)
{
	return load_lines(&stats_kernel, path);
}

int kz_stats_declare(const char *path)
{
	return load_lines(&stats_declared, path);
}

static bool of_input(const char *line, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(line, name, n) && line[n] == ' ';
}

/* The readings of @name in @l (one run of lines, wherever it is: the
 * replay may run any inputs of the corpus): where they start, how many. */
static char **take_input(struct kz_lines *l, const char *name, size_t *n)
{
	size_t from, to;

	*n = 0;
	if (!l->n)
		return NULL;
	if (l->next >= l->n || !of_input(l->line[l->next], name))
		for (l->next = 0; l->next < l->n && !of_input(l->line[l->next], name); l->next++)
			;
	for (from = to = l->next; to < l->n && of_input(l->line[to], name); to++)
		;
	l->next = to;
	*n = to - from;
	return l->line + from;
}

/* The running input saw all its expected readings. */
static void stats_input_done(void)
{
	if (stats_icur != stats_ncur)
		kz_fail(PPINV_API, "input %s: %zu stats reading(s) expected, %zu seen; the next: %s",
			input_name, stats_ncur, stats_icur, stats_cur[stats_icur]);
	stats_cur = NULL;
	stats_ncur = stats_icur = 0;
}

void kz_set_input_name(const char *name)
{
	char **kern, **decl;
	size_t nk, nd, i;

	if (stats_on)
		stats_input_done();
	input_name = name;
	stats_this_input = strncmp(name, "found-", 6) != 0;
	if (!stats_on || !stats_this_input)
		return;
	kern = take_input(&stats_kernel, name, &nk);
	decl = take_input(&stats_declared, name, &nd);
	stats_cur = kern;
	stats_ncur = nk;
	if (!nd)
		return;
	for (i = 0; i < nd && i < nk && !strcmp(kern[i], decl[i]); i++)
		;
	if (i == nd && nd == nk)
		kz_fail(PPINV_API, "input %s: declared to differ from the kernel's stats, and it does not any more: remove the declaration",
			name);
	stats_cur = decl;
	stats_ncur = nd;
}

/* The last input saw all its expected readings (at the end of the
 * replay). */
void kz_stats_expect_done(void)
{
	if (stats_on)
		stats_input_done();
}

static void stats_record(const struct kz_pool *r, const struct page_pool_stats *st)
{
	char line[512];

	if (kz.faulted || !stats_this_input || (!stats_log && !stats_on))
		return;
	snprintf(line, sizeof(line), "%s %lu %d: %llu %llu %llu %llu %llu %llu / %llu %llu %llu %llu %llu\n",
		 input_name, kz.nops, (int)(r - kz.pools),
		 (unsigned long long)st->alloc_stats.fast, (unsigned long long)st->alloc_stats.slow,
		 (unsigned long long)st->alloc_stats.slow_high_order,
		 (unsigned long long)st->alloc_stats.empty, (unsigned long long)st->alloc_stats.refill,
		 (unsigned long long)st->alloc_stats.waive,
		 (unsigned long long)st->recycle_stats.cached,
		 (unsigned long long)st->recycle_stats.cache_full,
		 (unsigned long long)st->recycle_stats.ring,
		 (unsigned long long)st->recycle_stats.ring_full,
		 (unsigned long long)st->recycle_stats.released_refcnt);
	if (stats_log)
		fputs(line, stats_log);
	if (!stats_on)
		return;
	if (stats_icur == stats_ncur || strcmp(line, stats_cur[stats_icur]))
		kz_fail(PPINV_API, "pool %u: stats after operation %lu are not the recorded ones:\n  got:  %s  want: %s",
			r->id, kz.nops, line,
			stats_icur < stats_ncur ? stats_cur[stats_icur] : "(no more readings)\n");
	stats_icur++;
}

#define D(f)	(now.f - r->base.f)

/* @r's stats moved by what the model predicts (fuzz_kapi.h). */
static void check_stats(struct kz_pool *r)
{
	struct page_pool_stats now;
	const struct kz_expect *x = &r->exp;
	unsigned long alloc, ring, cand;

#ifndef CONFIG_PAGE_POOL_STATS
	return;
#endif
	stats_read(r, &now);
	kz.t.stats_checks++;
	alloc = D(alloc_stats.fast) + D(alloc_stats.refill) + D(alloc_stats.slow) +
		D(alloc_stats.slow_high_order);
	if (alloc != x->alloc_ok)
		kz_fail(PPINV_API,
			"pool %u: %lu successful allocation(s), stats count %lu (fast %llu refill %llu slow %llu slow_high_order %llu)",
			r->id, x->alloc_ok, alloc, (unsigned long long)D(alloc_stats.fast),
			(unsigned long long)D(alloc_stats.refill),
			(unsigned long long)D(alloc_stats.slow),
			(unsigned long long)D(alloc_stats.slow_high_order));
	if (r->order ? D(alloc_stats.slow) : D(alloc_stats.slow_high_order))
		kz_fail(PPINV_API, "pool %u of order %u: slow %llu, slow_high_order %llu",
			r->id, r->order, (unsigned long long)D(alloc_stats.slow),
			(unsigned long long)D(alloc_stats.slow_high_order));
	if (D(recycle_stats.cached) + D(recycle_stats.cache_full) != x->direct)
		kz_fail(PPINV_API, "pool %u: %lu direct recycle(s), stats count cached %llu + cache_full %llu",
			r->id, x->direct, (unsigned long long)D(recycle_stats.cached),
			(unsigned long long)D(recycle_stats.cache_full));
	if (D(recycle_stats.released_refcnt) != x->released)
		kz_fail(PPINV_API, "pool %u: %lu put(s) of pages with extra references, released_refcnt %llu",
			r->id, x->released, (unsigned long long)D(recycle_stats.released_refcnt));
	ring = D(recycle_stats.ring) + D(recycle_stats.ring_full);
	cand = x->to_ring + x->bulk_to_ring + D(recycle_stats.cache_full);
	/* A bulk that finds the ring full counts ring_full once and frees
	 * the rest (the kernel's page_pool_put_page_bulk()). */
	if (x->bulks ? ring > cand || (ring < cand && !D(recycle_stats.ring_full)) : ring != cand)
		kz_fail(PPINV_API,
			"pool %u: %lu page(s) for the ring (%lu put, %lu in %lu bulk(s), %llu past a full cache), stats count ring %llu + ring_full %llu",
			r->id, cand, x->to_ring, x->bulk_to_ring, x->bulks,
			(unsigned long long)D(recycle_stats.cache_full),
			(unsigned long long)D(recycle_stats.ring),
			(unsigned long long)D(recycle_stats.ring_full));
	stats_record(r, &now);
	r->base = now;
	memset(&r->exp, 0, sizeof(r->exp));
}

#undef D

void kz_check_all(void)
{
	int r, i;

	ppinv_check_step(&kz.inv);
	for (r = 0; r < KZ_MAX_POOLS; r++) {
		struct kz_pool *p = &kz.pools[r];

		/* A destroyed pool the model holds nothing of may be freed
		 * by the release work at any time: not touched. */
		if (p->state == KZ_FREE || (p->state == KZ_ZOMBIE && !p->held))
			continue;
		ppinv_check_pool(&kz.inv, p->pool, p->held, false);
		check_stats(p);
	}
	for (i = 0; i < kz.nr_pages; i++) {
		const struct kz_page *e = &kz.pages[i];
		const struct kz_pool *p = &kz.pools[e->rec];

		if (!e->refs) {
			if (netmem_ref_count(e->nm) < e->page_refs)
				kz_fail(PPINV_HELD_PAGE, "page %#lx: refcount %d below the %d the model holds",
					(unsigned long)e->nm, netmem_ref_count(e->nm), e->page_refs);
			continue;
		}
		ppinv_check_held(&kz.inv, e->nm, p->pool, e->page_refs);
		if (p->dma_map && !page_pool_get_dma_addr_netmem(e->nm))
			kz_fail(PPINV_HELD_PAGE, "netmem %#lx of DMA-mapping pool %u has no DMA address",
				(unsigned long)e->nm, p->id);
		else if (p->dma_map && page_pool_get_dma_addr_netmem(e->nm) != e->dma)
			kz_fail(PPINV_HELD_PAGE, "netmem %#lx of pool %u: DMA address %#llx while held, was %#llx",
				(unsigned long)e->nm, p->id,
				(unsigned long long)page_pool_get_dma_addr_netmem(e->nm),
				(unsigned long long)e->dma);
		if (!e->frag && memcmp(page_address(netmem_to_page(e->nm)), &e->tag, sizeof(e->tag)))
			kz_fail(PPINV_HELD_PAGE, "whole page %#lx of pool %u: written while held (tag %#llx gone)",
				(unsigned long)e->nm, p->id, (unsigned long long)e->tag);
	}
}

/* Set-up, once. */

static struct device *make_dev(const char *name, enum pp_dma_backend be)
{
	struct device *dev = pp_device_create(name, be, PP_DMA_DEBUG);

	if (IS_ERR_OR_NULL(dev)) {
		fprintf(stderr, "fuzz-kapi: cannot create device %s\n", name);
		abort();
	}
	ppinv_track_device(&kz.inv, dev);
	return dev;
}

static const char *summary_label = "fuzz-kapi";

static void print_at_exit(void)
{
	if (kz.ready)
		kz_print_summary(summary_label);
}

void kz_set_summary_label(const char *label)
{
	summary_label = label;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct pp_mem_config cfg = { .size = (size_t)KZ_ARENA_MB << 20, .nr_nodes = KZ_NR_NODES };
	const char *v = getenv("PP_FUZZ_VERBOSE");

	(void)argc;
	(void)argv;
	if (kz.ready)
		return 0;
	verbose = v ? atoi(v) : 0;
	pp_set_print(kz_print);
	if (pp_mem_init(&cfg)) {
		fprintf(stderr, "fuzz-kapi: pp_mem_init failed\n");
		abort();
	}
	if (pp_thread_register(KZ_CPU_BASE) != KZ_CPU_BASE)
		abort();
	ppinv_init(&kz.inv);
	kz.inv.on_failure = on_failure;
	kz.devs[0] = make_dev("kz-iommu", PP_DMA_IOMMU);
	kz.devs[1] = make_dev("kz-direct", PP_DMA_DIRECT);
	ppinv_rebase(&kz.inv);
	v = getenv("PP_FUZZ_KAPI_STATS");
	if (v && *v && !(stats_log = fopen(v, "w")))
		perror(v);
	kz.poll_rec = -1;
	kz.ready = true;
	atexit(print_at_exit);
	return 0;
}

/* Per input. */

static void begin_input(const uint8_t *data, size_t size)
{
	uint8_t cfg;
	int r, s;

	kz.data = data;
	kz.size = size;
	kz.pos = 0;
	kz.nops = 0;
	kz.role = 0;
	kz.bh = 0;
	kz.poll_rec = -1;
	kz.armed = 0;
	kz.faulted = false;
	kz.nr_pages = 0;
	for (r = 0; r < KZ_MAX_POOLS; r++)
		kz.pools[r].state = KZ_FREE;
	for (s = 0; s < KZ_SLOTS; s++)
		kz.slot[s] = -1;
	for (r = 0; r < KZ_MAX_DEVS; r++)
		kz.bound[r] = true;
	cfg = kz_u8();
	kz.nr_devs = 1 + (cfg & 1);
	kz.nr_roles = 1 + ((cfg >> 1) & 3) % 3;
	ppinv_rebase(&kz.inv);
}

/* Give everything back, destroy everything, and prove it is all home. */
static void end_input(void)
{
	int p, r, d;

	while (kz.bh > 0) {
		local_bh_enable();
		kz.bh--;
	}
	for (p = 0; p < PP_FAULT_NR; p++)
		pp_fault_inject((enum pp_fault_point)p, NULL);
	kz.armed = 0;
	if (kz.role != 0) {
		pp_thread_unregister();
		if (pp_thread_register(KZ_CPU_BASE) != KZ_CPU_BASE)
			kz_fail(PPINV_API, "cannot take CPU %d back", KZ_CPU_BASE);
		kz.role = 0;
	}
	/* Always the last entry, so forgetting one moves nothing. */
	while (kz.nr_pages) {
		struct kz_page *e = &kz.pages[kz.nr_pages - 1];

		if (e->refs) {
			page_pool_put_full_netmem(kz.pools[e->rec].pool, e->nm, false);
			kz_put_ref(e, false);
		} else {
			kz_drop_page_ref(e);
		}
	}
	kz_check_all();
	for (r = 0; r < KZ_MAX_POOLS; r++)
		if (kz.pools[r].state == KZ_ACTIVE)
			kz_destroy_rec(r);
	kz_check_all();
	kz_settle_zombies();
	for (r = 0; r < KZ_MAX_POOLS; r++)
		if (kz.pools[r].state != KZ_FREE)
			kz_fail(PPINV_POOL_LEAKED, "pool %u (rec %d) alive at the end of the input",
				kz.pools[r].id, r);
	for (d = 0; d < KZ_MAX_DEVS; d++) {
		if (!kz.bound[d]) {
			if (pp_device_bind(kz.devs[d]))
				kz_fail(PPINV_API, "pp_device_bind(%s) failed", dev_name(kz.devs[d]));
			kz.bound[d] = true;
		}
		ppinv_device_settled(&kz.inv, kz.devs[d]);
	}
	ppinv_check_idle(&kz.inv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!kz.ready)
		LLVMFuzzerInitialize(NULL, NULL);
	kz.t.inputs++;
	begin_input(data, size);
	while (kz_more() && kz.nops < KZ_MAX_OPS)
		kz_run_op(false);
	end_input();
	return 0;
}

void kz_print_summary(const char *label)
{
	char inv_label[64];

	fprintf(stderr,
		"%s: inputs=%lu ops=%lu allocs=%lu alloc_null=%lu returns=%lu direct_returns=%lu cross_cpu_returns=%lu bulk_returns=%lu released_refcnt=%lu splits=%lu creates=%lu create_errors=%lu bad_creates=%lu destroys=%lu destroyed_with_inflight=%lu late_returns=%lu unbinds=%lu rebinds=%lu napi_polls=%lu role_switches=%lu syncs=%lu stats_checks=%lu faults_armed=%lu faults_injected=%lu skipped=%lu\n",
		label, kz.t.inputs, kz.t.ops, kz.t.allocs, kz.t.alloc_null, kz.t.returns,
		kz.t.direct_returns, kz.t.cross_cpu_returns, kz.t.bulk_returns,
		kz.t.released_refcnt, kz.t.splits, kz.t.creates, kz.t.create_errors, kz.t.bad_creates,
		kz.t.destroys, kz.t.destroyed_inflight, kz.t.late_returns, kz.t.unbinds,
		kz.t.rebinds, kz.t.polls, kz.t.role_switches, kz.t.syncs, kz.t.stats_checks,
		kz.t.faults_armed, kz_faults_injected(), kz.t.skipped);
	snprintf(inv_label, sizeof(inv_label), "%s invariants", label);
	ppinv_print_summary(&kz.inv, stderr, inv_label);
}
