/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Concurrency primitives: ptr_ring (full/empty, wrap-around, many producers
 * under the producer lock against one lock-free consumer), llist (many
 * adders, with and without a consumer popping at the same time), per-CPU
 * data, spinlock mutual exclusion, refcount_t saturation, printk levels and
 * WARN counting, error pointers.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <linux/err.h>
#include <linux/llist.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/ptr_ring.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <pagepool/runtime.h>

#include "test_common.h"

static void test_ptr_ring_basic(void **state)
{
	struct ptr_ring r;
	long i, round;

	(void)state;
	assert_int_equal(ptr_ring_init(&r, 8, GFP_KERNEL), 0);
	assert_true(__ptr_ring_empty(&r));
	for (round = 0; round < 5; round++) {	/* wraps around several times */
		for (i = 1; i <= 8; i++)
			assert_int_equal(__ptr_ring_produce(&r, (void *)(round * 100 + i)), 0);
		assert_true(__ptr_ring_full(&r));
		assert_int_equal(__ptr_ring_produce(&r, (void *)1), -ENOSPC);
		for (i = 1; i <= 8; i++)
			assert_ptr_equal(__ptr_ring_consume(&r), (void *)(round * 100 + i));
		assert_null(__ptr_ring_consume(&r));
	}
	ptr_ring_cleanup(&r, NULL);

	/* Consumed slots are released in batches (16 slots for a ring of 64):
	 * until a batch completes the producer still sees them as taken. */
	assert_int_equal(ptr_ring_init(&r, 64, GFP_KERNEL), 0);
	assert_int_equal(r.batch, 16);
	for (i = 1; i <= 64; i++)
		assert_int_equal(__ptr_ring_produce(&r, (void *)i), 0);
	for (i = 1; i <= 15; i++)
		assert_ptr_equal(__ptr_ring_consume(&r), (void *)i);
	assert_int_equal(__ptr_ring_produce(&r, (void *)99), -ENOSPC);
	assert_ptr_equal(__ptr_ring_consume(&r), (void *)16);
	for (i = 0; i < 16; i++)
		assert_int_equal(__ptr_ring_produce(&r, (void *)(100 + i)), 0);
	assert_int_equal(__ptr_ring_produce(&r, (void *)99), -ENOSPC);
	for (i = 17; i <= 64; i++)
		assert_ptr_equal(__ptr_ring_consume(&r), (void *)i);
	for (i = 0; i < 16; i++)
		assert_ptr_equal(__ptr_ring_consume(&r), (void *)(100 + i));
	assert_true(__ptr_ring_empty(&r));
	ptr_ring_cleanup(&r, NULL);
}

#define PRODUCERS	3
#define PER_PRODUCER	200000

/*
 * A batched consume leaves the ring exactly as the same number of single
 * consumes would: same indexes, same slots still set (consumed ones are
 * cleared a batch at a time), so producers meet the same free slots. Random
 * produce/consume sequences on two rings, one consumed each way, over ring
 * sizes with batch 1, 2 and 16.
 */
static void test_ptr_ring_batched_consume_matches_single(void **state)
{
	static const int sizes[] = { 3, 4, 16, 64, 100 };
	unsigned int seed = 12345;
	size_t k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct ptr_ring a, b;
		unsigned long v = 1;
		int step, i;

		assert_int_equal(ptr_ring_init(&a, sizes[k], GFP_KERNEL), 0);
		assert_int_equal(ptr_ring_init(&b, sizes[k], GFP_KERNEL), 0);
		for (step = 0; step < 5000; step++) {
			int n = (int)(rand_r(&seed) % (unsigned int)(sizes[k] + 2));
			void *got[128], *one;

			if (rand_r(&seed) & 1) {
				for (i = 0; i < n; i++, v++) {
					int ra = __ptr_ring_produce(&a, (void *)v);

					assert_int_equal(__ptr_ring_produce(&b, (void *)v), ra);
				}
				continue;
			}
			n = __ptr_ring_consume_batched(&a, got, n);
			for (i = 0; i < n; i++) {
				one = __ptr_ring_consume(&b);
				assert_ptr_equal(one, got[i]);
			}
			assert_int_equal(a.consumer_head, b.consumer_head);
			assert_int_equal(a.consumer_tail, b.consumer_tail);
			assert_memory_equal(a.queue, b.queue, sizeof(void *) * (size_t)sizes[k]);
		}
		ptr_ring_cleanup(&a, NULL);
		ptr_ring_cleanup(&b, NULL);
	}
}

static struct ptr_ring mpsc;

static void *producer_fn(void *arg)
{
	long id = (long)arg, i;

	for (i = 0; i < PER_PRODUCER; i++) {
		void *v = (void *)((id << 32) | (i + 1));

		while (ptr_ring_produce(&mpsc, v))
			;
	}
	return NULL;
}

static void test_ptr_ring_mpsc(void **state)
{
	pthread_t t[PRODUCERS];
	long next[PRODUCERS] = { 0 }, got = 0, i;

	(void)state;
	assert_int_equal(ptr_ring_init(&mpsc, 256, GFP_KERNEL), 0);
	for (i = 0; i < PRODUCERS; i++)
		pthread_create(&t[i], NULL, producer_fn, (void *)i);
	while (got < PRODUCERS * PER_PRODUCER) {
		unsigned long v = (unsigned long)__ptr_ring_consume(&mpsc);
		long id, seq;

		if (!v)
			continue;
		id = (long)(v >> 32);
		seq = (long)(v & 0xffffffff);
		assert_in_range(id, 0, PRODUCERS - 1);
		assert_int_equal(seq, next[id] + 1);	/* per-producer FIFO, no loss */
		next[id] = seq;
		got++;
	}
	for (i = 0; i < PRODUCERS; i++)
		pthread_join(t[i], NULL);
	assert_true(__ptr_ring_empty(&mpsc));
	ptr_ring_cleanup(&mpsc, NULL);
}

struct lnode {
	struct llist_node node;
	int v;
};

static LLIST_HEAD(lhead);
static struct lnode lnodes[4][10000];

static void *llist_adder(void *arg)
{
	long id = (long)arg;
	int i;

	for (i = 0; i < 10000; i++) {
		lnodes[id][i].v = 1;
		llist_add(&lnodes[id][i].node, &lhead);
	}
	return NULL;
}

static void test_llist_concurrent(void **state)
{
	pthread_t t[4];
	struct llist_node *list;
	struct lnode *pos;
	long i, sum = 0;

	(void)state;
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, llist_adder, (void *)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	list = llist_del_all(&lhead);
	llist_for_each_entry(pos, list, node)
		sum += pos->v;
	assert_int_equal(sum, 40000);
	assert_true(llist_empty(&lhead));
}

/*
 * llist with its consumer running: 4 producers add 20000 nodes each
 * (llist_add() and llist_add_batch() of 4 nodes linked by hand) while one
 * consumer pops with llist_del_first() and now and then takes the rest
 * with llist_del_all(): every node comes out exactly once, each
 * producer's nodes newest first within a take, and the value written
 * before the add is seen (the add's release, the consumer's acquire -
 * what ThreadSanitizer checks here).
 */
#define LPROD	4
#define LNODES	20000

struct lsnode {
	struct llist_node node;
	long id, seq;
	int seen;
};

static LLIST_HEAD(lshead);
static struct lsnode lsnodes[LPROD][LNODES];
static int lsdone;

static void *llist_stress_adder(void *arg)
{
	long id = (long)arg;
	int i;

	for (i = 0; i < LNODES; i++) {
		struct lsnode *n = &lsnodes[id][i];

		n->id = id;
		n->seq = i;
		if (i % 8 == 4 && i + 4 <= LNODES) {
			int k;

			/* A chain of 4, first the newest, as a list takes it. */
			for (k = 1; k < 4; k++) {
				lsnodes[id][i + k].id = id;
				lsnodes[id][i + k].seq = i + k;
				lsnodes[id][i + k].node.next = &lsnodes[id][i + k - 1].node;
			}
			llist_add_batch(&lsnodes[id][i + 3].node, &n->node, &lshead);
			i += 3;
		} else {
			llist_add(&n->node, &lshead);
		}
	}
	__atomic_add_fetch(&lsdone, 1, __ATOMIC_RELEASE);
	return NULL;
}

static long llist_stress_take(struct llist_node *list)
{
	long last[LPROD], n = 0;
	struct llist_node *pos, *tmp;
	int i;

	for (i = 0; i < LPROD; i++)
		last[i] = LNODES;
	llist_for_each_safe(pos, tmp, list) {
		struct lsnode *e = llist_entry(pos, struct lsnode, node);

		assert_in_range(e->id, 0, LPROD - 1);
		assert_true(e->seq < last[e->id]);	/* newest first */
		last[e->id] = e->seq;
		assert_int_equal(e->seen++, 0);
		n++;
	}
	return n;
}

static void test_llist_concurrent_consumer(void **state)
{
	pthread_t t[LPROD];
	long got = 0, pops = 0, i, j;

	(void)state;
	for (i = 0; i < LPROD; i++)
		pthread_create(&t[i], NULL, llist_stress_adder, (void *)i);
	while (got < LPROD * LNODES) {
		struct llist_node *n = llist_del_first(&lshead);

		if (n) {
			n->next = NULL;		/* the consumer's own now */
			got += llist_stress_take(n);
			pops++;
		} else if (__atomic_load_n(&lsdone, __ATOMIC_ACQUIRE) == LPROD &&
			   llist_empty(&lshead)) {
			break;
		}
		if (pops % 64 == 63)
			got += llist_stress_take(llist_del_all(&lshead));
	}
	for (i = 0; i < LPROD; i++)
		pthread_join(t[i], NULL);
	got += llist_stress_take(llist_del_all(&lshead));
	assert_int_equal(got, LPROD * LNODES);
	assert_true(pops > 0);
	for (i = 0; i < LPROD; i++)
		for (j = 0; j < LNODES; j++)
			assert_int_equal(lsnodes[i][j].seen, 1);
	/* llist_reverse_order(): oldest first. */
	for (i = 0; i < 3; i++)
		llist_add(&lsnodes[0][i].node, &lshead);
	{
		struct llist_node *r = llist_reverse_order(llist_del_all(&lshead));

		for (i = 0; i < 3; i++, r = r->next)
			assert_ptr_equal(r, &lsnodes[0][i].node);
		assert_null(r);
	}
}

struct pcpu_counter {
	long hits;
	long pad[3];
};

static struct pcpu_counter __percpu *pcpu;

static void *pcpu_fn(void *arg)
{
	int i;

	assert_int_equal(pp_thread_register((int)(long)arg), (int)(long)arg);
	for (i = 0; i < 1000; i++)
		this_cpu_inc(pcpu->hits);
	return NULL;
}

static void test_percpu(void **state)
{
	void __percpu *other;
	long total = 0;
	int cpu;

	(void)state;
	pcpu = alloc_percpu(struct pcpu_counter);
	assert_non_null(pcpu);
	other = __alloc_percpu(100, 64);
	assert_non_null(other);
	assert_true(((unsigned long)other & 63) == 0);
	pp_test_run_thread(pcpu_fn, (void *)7L);
	pp_test_run_thread(pcpu_fn, (void *)9L);
	for_each_possible_cpu(cpu)
		total += READ_ONCE(per_cpu_ptr(pcpu, cpu)->hits);
	assert_int_equal(total, 2000);
	assert_int_equal(per_cpu_ptr(pcpu, 7)->hits, 1000);
	assert_int_equal(per_cpu_ptr(pcpu, 9)->hits, 1000);
	free_percpu(pcpu);
	free_percpu(other);
	/* Freed ranges are reused, and come back zeroed. */
	pcpu = alloc_percpu(struct pcpu_counter);
	assert_int_equal(per_cpu_ptr(pcpu, 7)->hits, 0);
	free_percpu(pcpu);
}

static DEFINE_SPINLOCK(lock);
static long shared_counter;

static void *locker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 200000; i++) {
		spin_lock(&lock);
		shared_counter++;
		spin_unlock(&lock);
	}
	return NULL;
}

static void test_spinlock(void **state)
{
	pthread_t t[3];
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, locker, NULL);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(shared_counter, 600000);
	assert_true(spin_trylock(&lock));
	assert_false(spin_trylock(&lock));
	spin_unlock(&lock);
}

static void test_refcount(void **state)
{
	refcount_t r;
	unsigned long warns = pp_warn_count();

	(void)state;
	refcount_set(&r, 1);
	refcount_inc(&r);
	assert_false(refcount_dec_and_test(&r));
	assert_true(refcount_dec_and_test(&r));
	refcount_inc(&r);		/* increment from zero: use after free */
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal((int)refcount_read(&r), REFCOUNT_SATURATED);
	assert_false(refcount_inc_not_zero(&(refcount_t)REFCOUNT_INIT(0)));
}

static int seen_level;
static char seen_text[128];

static int level_print(int level, const char *fmt, va_list ap)
{
	seen_level = level;
	vsnprintf(seen_text, sizeof(seen_text), fmt, ap);
	return 0;
}

static void test_printk_and_warn(void **state)
{
	pp_print_fn old;
	unsigned long warns;
	int i;

	(void)state;
	old = pp_set_print(level_print);
	pr_warn("disk %d\n", 7);
	assert_int_equal(seen_level, LOGLEVEL_WARNING);
	assert_string_equal(seen_text, "disk 7\n");
	pr_info("x");
	assert_int_equal(seen_level, LOGLEVEL_INFO);
	pr_debug("y");
	assert_int_equal(seen_level, LOGLEVEL_DEBUG);

	warns = pp_warn_count();
	for (i = 0; i < 3; i++)
		WARN_ON_ONCE(i >= 0);	/* prints once, counts three times */
	assert_int_equal(pp_warn_count(), warns + 3);
	assert_false(WARN_ON(0));
	assert_true(WARN(1, "value %d", 5));
	assert_non_null(strstr(seen_text, "value 5"));
	pp_set_print(old);
}

static void test_err_ptr(void **state)
{
	void *p = ERR_PTR(-EINVAL);

	(void)state;
	assert_true(IS_ERR(p));
	assert_int_equal(PTR_ERR(p), -EINVAL);
	assert_false(IS_ERR(&p));
	assert_true(IS_ERR_OR_NULL(NULL));
	assert_int_equal(PTR_ERR_OR_ZERO(&p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ptr_ring_basic),
		cmocka_unit_test(test_ptr_ring_mpsc),
		cmocka_unit_test(test_ptr_ring_batched_consume_matches_single),
		cmocka_unit_test(test_llist_concurrent),
		cmocka_unit_test(test_llist_concurrent_consumer),
		cmocka_unit_test(test_percpu),
		cmocka_unit_test(test_spinlock),
		cmocka_unit_test(test_refcount),
		cmocka_unit_test(test_printk_and_warn),
		cmocka_unit_test(test_err_ptr),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
