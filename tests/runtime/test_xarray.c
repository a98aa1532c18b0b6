/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * XArray (<linux/xarray.h>): loads and stores over the whole unsigned long
 * range, growth and shrink of the tree, reservations, the allocating
 * array's lowest-free choice (against a model, with random limits),
 * xa_alloc_cyclic()'s wrap, cmpxchg as page_pool's DMA tracking uses it,
 * xa_find / xa_for_each order, -ENOMEM at every node allocation leaving
 * the array unchanged, refusal of internal entries, and RCU readers
 * racing a writer that grows and shrinks the tree (run under ASan and
 * TSan by those suites: a node freed too early is a use after free).
 */
#include <pthread.h>
#include <stdlib.h>

#include <linux/errno.h>
#include <linux/gfp.h>
#include <linux/xarray.h>
#include <pagepool/runtime.h>

#include "test_common.h"

static void *val(unsigned long v)
{
	return xa_mk_value(v);
}

/* Every present entry, in order, as "index:value" pairs in @buf. */
static int dump(struct xarray *xa, unsigned long *idx, unsigned long *vals, int max)
{
	unsigned long index;
	void *entry;
	int n = 0;

	xa_for_each(xa, index, entry) {
		assert_true(n < max);
		idx[n] = index;
		vals[n] = xa_to_value(entry);
		n++;
	}
	return n;
}

static void test_store_load_erase(void **state)
{
	static const unsigned long where[] = {
		0, 1, 63, 64, 4095, 4096, 1UL << 30, (1UL << 36) + 5, 1UL << 60,
		ULONG_MAX - 1, ULONG_MAX,
	};
	DEFINE_XARRAY(xa);
	unsigned long idx[16], vals[16];
	unsigned int i;

	(void)state;
	assert_true(xa_empty(&xa));
	for (i = 0; i < ARRAY_SIZE(where); i++)
		assert_null(xa_store(&xa, where[i], val(i + 100), GFP_KERNEL));
	for (i = 0; i < ARRAY_SIZE(where); i++)
		assert_ptr_equal(xa_load(&xa, where[i]), val(i + 100));
	assert_null(xa_load(&xa, 2));
	assert_null(xa_load(&xa, ULONG_MAX - 2));

	/* for_each visits them in index order. */
	assert_int_equal(dump(&xa, idx, vals, 16), ARRAY_SIZE(where));
	for (i = 0; i < ARRAY_SIZE(where); i++) {
		assert_int_equal(idx[i], where[i]);
		assert_int_equal(vals[i], i + 100);
	}

	/* Replacing returns the old entry. */
	assert_ptr_equal(xa_store(&xa, 64, val(7), GFP_KERNEL), val(103));
	assert_ptr_equal(xa_load(&xa, 64), val(7));

	for (i = 0; i < ARRAY_SIZE(where); i++) {
		void *want = where[i] == 64 ? val(7) : val(i + 100);

		assert_ptr_equal(xa_erase(&xa, where[i]), want);
		assert_null(xa_load(&xa, where[i]));
		assert_null(xa_erase(&xa, where[i]));
	}
	/* Every node went with the last entry. */
	assert_true(xa_empty(&xa));
	xa_destroy(&xa);
}

static void test_find_ranges(void **state)
{
	DEFINE_XARRAY(xa);
	unsigned long index;
	void *entry;

	(void)state;
	xa_store(&xa, 10, val(10), GFP_KERNEL);
	xa_store(&xa, 200, val(200), GFP_KERNEL);
	xa_store(&xa, ULONG_MAX, val(1), GFP_KERNEL);

	index = 11;
	assert_ptr_equal(xa_find(&xa, &index, ULONG_MAX, XA_PRESENT), val(200));
	assert_int_equal(index, 200);
	index = 11;
	assert_null(xa_find(&xa, &index, 199, XA_PRESENT));
	assert_int_equal(index, 11);		/* unchanged when nothing found */
	index = 200;
	assert_ptr_equal(xa_find_after(&xa, &index, ULONG_MAX, XA_PRESENT), val(1));
	assert_int_equal(index, ULONG_MAX);
	assert_null(xa_find_after(&xa, &index, ULONG_MAX, XA_PRESENT));

	index = 0;
	xa_for_each_range(&xa, index, entry, 11, 300)
		assert_int_equal(index, 200);
	xa_destroy(&xa);
	assert_true(xa_empty(&xa));
	assert_null(xa_load(&xa, 10));
	/* Usable again after xa_destroy(). */
	assert_null(xa_store(&xa, 3, val(3), GFP_KERNEL));
	assert_ptr_equal(xa_load(&xa, 3), val(3));
	xa_destroy(&xa);
}

static void test_reserve_and_insert(void **state)
{
	DEFINE_XARRAY(xa);
	unsigned long index = 0;

	(void)state;
	assert_int_equal(xa_reserve(&xa, 5, GFP_KERNEL), 0);
	assert_false(xa_empty(&xa));
	assert_null(xa_load(&xa, 5));
	assert_null(xa_find(&xa, &index, ULONG_MAX, XA_PRESENT));
	assert_int_equal(xa_insert(&xa, 5, val(1), GFP_KERNEL), -EBUSY);
	xa_release(&xa, 5);
	assert_true(xa_empty(&xa));
	assert_int_equal(xa_insert(&xa, 5, val(1), GFP_KERNEL), 0);
	assert_int_equal(xa_insert(&xa, 5, val(2), GFP_KERNEL), -EBUSY);
	assert_ptr_equal(xa_load(&xa, 5), val(1));
	/* xa_release() leaves a real entry alone. */
	xa_release(&xa, 5);
	assert_ptr_equal(xa_load(&xa, 5), val(1));
	xa_destroy(&xa);
}

static void test_internal_entries_refused(void **state)
{
	DEFINE_XARRAY_ALLOC(xa);
	unsigned long warns = pp_warn_count();
	u32 id = 77;

	(void)state;
	assert_int_equal(xa_err(xa_store(&xa, 1, xa_mk_internal(3), GFP_KERNEL)), -EINVAL);
	assert_int_equal(xa_insert(&xa, 1, xa_mk_internal(3), GFP_KERNEL), -EINVAL);
	assert_int_equal(xa_alloc(&xa, &id, xa_mk_internal(3), xa_limit_32b, GFP_KERNEL),
			 -EINVAL);
	assert_int_equal(id, 77);
	assert_true(xa_empty(&xa));
	assert_true(pp_warn_count() > warns);

	/* xa_alloc() on an array that does not allocate is refused too. */
	{
		DEFINE_XARRAY(plain);

		assert_int_equal(xa_alloc(&plain, &id, val(1), xa_limit_32b, GFP_KERNEL),
				 -EINVAL);
		assert_true(xa_empty(&plain));
	}
}

/* The allocating array against a model: random allocs with random
 * limits, erases, cmpxchg releases; each alloc must give the model's
 * lowest free index in its limit (or -EBUSY exactly when there is none). */
#define MODEL_N 700
static void test_alloc_lowest(void **state)
{
	static bool used[MODEL_N], reserved[MODEL_N];
	DEFINE_XARRAY_ALLOC1(xa);
	unsigned int seed = 12345, op;
	unsigned long index;
	void *entry;
	int count = 0, n;

	(void)state;
	/* Fill 1..300 in order first: whole leaves become full. */
	for (n = 1; n <= 300; n++) {
		u32 id;

		assert_int_equal(xa_alloc(&xa, &id, val(n), XA_LIMIT(0, MODEL_N - 1), GFP_KERNEL),
				 0);
		assert_int_equal(id, n);	/* index 0 is busy under ALLOC1 */
		used[id] = true;
	}
	/* A hole inside a full leaf is found again. */
	assert_ptr_equal(xa_erase(&xa, 70), val(70));
	used[70] = false;
	{
		u32 id;

		assert_int_equal(xa_alloc(&xa, &id, val(70), XA_LIMIT(1, MODEL_N - 1),
					  GFP_KERNEL), 0);
		assert_int_equal(id, 70);
		used[70] = true;
	}

	for (op = 0; op < 40000; op++) {
		unsigned int r = rand_r(&seed);
		unsigned int k = rand_r(&seed) % MODEL_N;

		if (r % 3 == 0) {
			unsigned int lo = rand_r(&seed) % MODEL_N, hi = rand_r(&seed) % MODEL_N;
			unsigned int want, i;
			u32 id = 0xdead;
			int err;

			if (lo > hi) {
				unsigned int t = lo;

				lo = hi;
				hi = t;
			}
			for (want = 0, i = lo < 1 ? 1 : lo; i <= hi; i++)
				if (!used[i]) {
					want = i;
					break;
				}
			err = xa_alloc(&xa, &id, (r & 8) ? NULL : val(op), XA_LIMIT(lo, hi),
				       GFP_KERNEL);
			if (!want) {
				assert_int_equal(err, -EBUSY);
				assert_int_equal(id, 0xdead);
			} else {
				assert_int_equal(err, 0);
				assert_int_equal(id, want);
				used[id] = true;
				reserved[id] = r & 8;
				if (r & 8)	/* reserved: busy, but loads NULL */
					assert_null(xa_load(&xa, id));
			}
		} else if (r % 3 == 1) {
			void *old = xa_load(&xa, k);

			/* A cmpxchg release, as page_pool's unmap does. */
			if (old) {
				assert_ptr_equal(xa_cmpxchg(&xa, k, val(1u << 30), NULL, 0), old);
				assert_ptr_equal(xa_load(&xa, k), old);	/* wrong old: kept */
				assert_ptr_equal(xa_cmpxchg(&xa, k, old, NULL, 0), old);
			} else if (reserved[k]) {
				xa_release(&xa, k);
			}
			used[k] = reserved[k] = false;
		} else {
			xa_erase(&xa, k);
			used[k] = reserved[k] = false;
		}
	}
	/* What is left is what the model has. */
	n = 0;
	xa_for_each(&xa, index, entry) {
		assert_true(index < MODEL_N && used[index] && !reserved[index]);
		n++;
	}
	for (count = 0, op = 0; op < MODEL_N; op++)
		count += used[op] && !reserved[op];
	assert_int_equal(n, count);
	xa_destroy(&xa);
}

static void test_alloc_busy_and_growth(void **state)
{
	DEFINE_XARRAY_ALLOC(xa);
	u32 id;
	int i;

	(void)state;
	for (i = 10; i <= 12; i++) {
		assert_int_equal(xa_alloc(&xa, &id, val(i), XA_LIMIT(10, 12), GFP_KERNEL), 0);
		assert_int_equal(id, i);
	}
	id = 99;
	assert_int_equal(xa_alloc(&xa, &id, val(0), XA_LIMIT(10, 12), GFP_KERNEL), -EBUSY);
	assert_int_equal(id, 99);
	/* ALLOC (not ALLOC1): index 0 can be given out. */
	assert_int_equal(xa_alloc(&xa, &id, val(0), xa_limit_32b, GFP_KERNEL), 0);
	assert_int_equal(id, 0);
	/* An index above the whole tree: the tree grows to hold it. */
	assert_int_equal(xa_alloc(&xa, &id, val(1), XA_LIMIT(1u << 31, U32_MAX), GFP_KERNEL), 0);
	assert_int_equal(id, 1u << 31);
	assert_int_equal(xa_alloc(&xa, &id, val(1), XA_LIMIT(U32_MAX, U32_MAX), GFP_KERNEL), 0);
	assert_int_equal(id, U32_MAX);
	assert_int_equal(xa_alloc(&xa, &id, val(1), XA_LIMIT(U32_MAX, U32_MAX), GFP_KERNEL),
			 -EBUSY);
	/* In an allocating array, storing NULL reserves. */
	assert_null(xa_store(&xa, 20, NULL, GFP_KERNEL));
	assert_int_equal(xa_alloc(&xa, &id, val(1), XA_LIMIT(20, 21), GFP_KERNEL), 0);
	assert_int_equal(id, 21);
	xa_destroy(&xa);
}

static void test_alloc_cyclic(void **state)
{
	DEFINE_XARRAY_ALLOC1(xa);
	u32 id, next = 0;

	(void)state;
	assert_int_equal(xa_alloc_cyclic(&xa, &id, val(1), XA_LIMIT(1, 3), &next, GFP_KERNEL), 0);
	assert_int_equal(id, 1);
	assert_int_equal(xa_alloc_cyclic(&xa, &id, val(2), XA_LIMIT(1, 3), &next, GFP_KERNEL), 0);
	assert_int_equal(id, 2);
	xa_erase(&xa, 1);
	/* Cyclic: 3 next, though 1 is free. */
	assert_int_equal(xa_alloc_cyclic(&xa, &id, val(3), XA_LIMIT(1, 3), &next, GFP_KERNEL), 0);
	assert_int_equal(id, 3);
	/* Past the end: wraps to 1, and says so. */
	assert_int_equal(xa_alloc_cyclic(&xa, &id, val(4), XA_LIMIT(1, 3), &next, GFP_KERNEL), 1);
	assert_int_equal(id, 1);
	assert_int_equal(next, 2);
	assert_int_equal(xa_alloc_cyclic(&xa, &id, val(5), XA_LIMIT(1, 3), &next, GFP_KERNEL),
			 -EBUSY);
	xa_destroy(&xa);

	/* The counter itself wrapping past U32_MAX: the next success says 1. */
	{
		DEFINE_XARRAY_ALLOC(big);

		next = U32_MAX;
		assert_int_equal(xa_alloc_cyclic(&big, &id, val(1), xa_limit_32b, &next,
						 GFP_KERNEL), 0);
		assert_int_equal(id, U32_MAX);
		assert_int_equal(next, 0);
		assert_int_equal(xa_alloc_cyclic(&big, &id, val(1), xa_limit_32b, &next,
						 GFP_KERNEL), 1);
		assert_int_equal(id, 0);
		xa_destroy(&big);
	}
}

/* -ENOMEM at each node allocation a store needs leaves the array as it
 * was; then the store succeeds. */
static void test_nomem_leaves_array_unchanged(void **state)
{
	static const unsigned long before[] = { 3, 70, 5000 };
	DEFINE_XARRAY_ALLOC1(xa);
	unsigned long idx[8], vals[8];
	unsigned long far = (1UL << 42) + 9;
	unsigned int i, skip, failed = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(before); i++)
		xa_store(&xa, before[i], val(before[i]), GFP_KERNEL);

	for (skip = 0;; skip++) {
		void *r;

		pp_fault_inject(PP_FAULT_KMALLOC,
				&(struct pp_fault_config){ .skip = skip, .next_n = 1 });
		r = xa_store(&xa, far, val(1), GFP_KERNEL);
		pp_fault_inject(PP_FAULT_KMALLOC, NULL);
		if (!xa_is_err(r))
			break;
		assert_int_equal(xa_err(r), -ENOMEM);
		failed++;
		assert_int_equal(dump(&xa, idx, vals, 8), ARRAY_SIZE(before));
		for (i = 0; i < ARRAY_SIZE(before); i++) {
			assert_int_equal(idx[i], before[i]);
			assert_int_equal(vals[i], before[i]);
		}
		assert_null(xa_load(&xa, far));
	}
	/* From a 3-level tree to one that holds 2^42: new roots and a path. */
	assert_true(failed >= 4);
	assert_ptr_equal(xa_load(&xa, far), val(1));

	/* xa_alloc's -ENOMEM leaves *id alone and takes no index. */
	{
		u32 id = 1234;

		pp_fault_inject(PP_FAULT_KMALLOC, &(struct pp_fault_config){ .next_n = 1 });
		assert_int_equal(xa_alloc(&xa, &id, val(2), XA_LIMIT(100000, 200000), GFP_KERNEL),
				 -ENOMEM);
		pp_fault_inject(PP_FAULT_KMALLOC, NULL);
		assert_int_equal(id, 1234);
		assert_int_equal(xa_alloc(&xa, &id, val(2), XA_LIMIT(100000, 200000), GFP_KERNEL),
				 0);
		assert_int_equal(id, 100000);
	}
	xa_destroy(&xa);
}

/* Readers race a writer that keeps growing the tree to a far index and
 * shrinking it back, and churns a leaf next to the readers' entries. */
struct race {
	struct xarray xa;
	int stop;
	unsigned long reads;
	unsigned long wrong;	/* loads or walks that saw something else */
};

#define RACE_STABLE	40

static void *race_reader(void *arg)
{
	struct race *r = arg;
	unsigned long n = 0, wrong = 0;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		unsigned long index = 0, seen = 0;
		void *entry;

		for (unsigned long i = 0; i < RACE_STABLE; i++)
			wrong += xa_load(&r->xa, i * 64) != val(i);
		xa_for_each_range(&r->xa, index, entry, 0, RACE_STABLE * 64)
			if (index % 64 == 0)
				seen++;
		wrong += seen != RACE_STABLE;
		n++;
	}
	__atomic_store_n(&r->wrong, wrong, __ATOMIC_RELEASE);
	__atomic_store_n(&r->reads, n, __ATOMIC_RELEASE);
	return NULL;
}

static void test_rcu_readers_race_writer(void **state)
{
	struct race r = { .xa = XARRAY_INIT(r.xa, 0) };
	pthread_t t;
	unsigned long i, rounds;

	(void)state;
	for (i = 0; i < RACE_STABLE; i++)
		xa_store(&r.xa, i * 64, val(i), GFP_KERNEL);
	pthread_create(&t, NULL, race_reader, &r);
	for (rounds = 0; rounds < 3000; rounds++) {
		unsigned long far = (1UL << (20 + rounds % 40)) + rounds;

		xa_lock(&r.xa);
		assert_null(__xa_store(&r.xa, far, val(7), GFP_KERNEL));
		for (i = 1; i < 16; i++)
			__xa_store(&r.xa, i, val(i), GFP_KERNEL);
		for (i = 1; i < 16; i++)
			__xa_erase(&r.xa, i);
		assert_ptr_equal(__xa_erase(&r.xa, far), val(7));
		xa_unlock(&r.xa);
	}
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	assert_true(r.reads > 0);
	assert_int_equal(r.wrong, 0);
	xa_destroy(&r.xa);
	rcu_barrier();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_load_erase),
		cmocka_unit_test(test_find_ranges),
		cmocka_unit_test(test_reserve_and_insert),
		cmocka_unit_test(test_internal_entries_refused),
		cmocka_unit_test(test_alloc_lowest),
		cmocka_unit_test(test_alloc_busy_and_growth),
		cmocka_unit_test(test_alloc_cyclic),
		cmocka_unit_test(test_nomem_leaves_array_unchanged),
		cmocka_unit_test(test_rcu_readers_race_writer),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
