// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine's event queue (src/sim/evq.h): whatever its form (an array
 * sorted latest first up to EVQ_SORTED_MAX pending events, then a heap),
 * events come out in (time, sequence) order. Random pushes and pops,
 * with many equal times, are checked against a plain search for the
 * earliest pending event, across the change of form and the growth.
 * The tournament tree of CPUs likewise: its root (or, on few CPUs, the
 * scan of its leaves) against a plain search over the CPUs' keys, through
 * the updates of other CPUs and of the winner (the main loop's walk to the
 * root), with many equal times and CPUs without an event.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>

#include "evq.h"

#define MAXP 600

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* the reference: the pending events in no order */
static struct sim_ev ref[MAXP];
static int nref;

static struct sim_ev ref_pop(void)
{
	int k = 0;

	for (int i = 1; i < nref; i++)
		if (ev_before(&ref[i], &ref[k]))
			k = i;
	struct sim_ev e = ref[k];
	ref[k] = ref[--nref];
	return e;
}

/* pushes with probability push_pct %, up to limit pending; then drain */
static void run(int steps, int push_pct, int limit, int64_t spread)
{
	struct sim_evheap h;
	uint64_t seq = 0;
	int64_t now = 0;

	assert_int_equal(sim_evheap_init(&h, 8), 0);
	nref = 0;
	assert_true(h.top->t == INT64_MAX); /* the sentinel of an empty array */
	for (int s = 0; s < steps || nref; s++) {
		bool push = s < steps && nref < limit &&
			    (nref == 0 || (int)(next_rand() % 100) < push_pct);
		if (push) {
			struct sim_ev e = { .t = now + (int64_t)(next_rand() % (uint64_t)spread),
					    .seq = seq++, .arg = s, .cpu = 0, .type = 1 };
			sim_evheap_push(&h, e);
			ref[nref++] = e;
		} else {
			struct sim_ev want = ref_pop();
			assert_int_equal(h.top->t, want.t);
			assert_int_equal(h.top->seq, want.seq);
			struct sim_ev got = sim_evheap_pop(&h);
			assert_int_equal(got.t, want.t);
			assert_int_equal(got.seq, want.seq);
			assert_int_equal(got.arg, want.arg);
			now = got.t;
		}
		assert_int_equal(h.n, nref);
	}
	sim_evheap_free(&h);
}

/* few pending: the sorted array only */
static void test_sorted(void **state)
{
	(void)state;
	run(20000, 50, EVQ_SORTED_MAX, 1000);
	run(20000, 50, EVQ_SORTED_MAX, 3); /* mostly equal times: the sequence decides */
}

/* many pending: the array turns into a heap, which grows past its first room */
static void test_heap(void **state)
{
	(void)state;
	run(50000, 55, MAXP, 100000);
	run(50000, 60, MAXP, 4);
}

/* the tree's reference: each CPU's (time, seq), INT64_MAX for none */
static int64_t cpu_t[8192];
static uint64_t cpu_seq[8192];

/* the earliest CPU with an event, -1 if none */
static int ref_min(int ncpus)
{
	int k = -1;

	for (int i = 0; i < ncpus; i++)
		if (cpu_t[i] != INT64_MAX &&
		    (k < 0 || cpu_t[i] < cpu_t[k] || (cpu_t[i] == cpu_t[k] && cpu_seq[i] < cpu_seq[k])))
			k = i;
	return k;
}

/* the tree's earliest: its CPU and time (INT64_MAX and more: none), as the main loop reads it */
static int tree_min(const struct sim_ttree *tt, int ncpus, int64_t *t)
{
	uint64_t key;

	if (!tt->scan) {
		*t = tt->t[1];
		return sim_ttree_key_cpu(tt->key[1]);
	}
	if (tt->two)
		return sim_ttree_scan_min2(tt, t, &key);
	return sim_ttree_scan_min(tt, ncpus, t, &key);
}

static int64_t draw_t(int64_t now, int64_t spread)
{
	return next_rand() % 5 == 0 ? INT64_MAX : now + (int64_t)(next_rand() % (uint64_t)spread);
}

static void run_tree(int ncpus, int steps, int64_t spread)
{
	struct sim_ttree tt;
	uint64_t seq = 0;
	int64_t now = 0;

	assert_int_equal(sim_ttree_init(&tt, ncpus), 0);
	for (int i = 0; i < ncpus; i++) {
		cpu_t[i] = INT64_MAX;
		cpu_seq[i] = TT_SEQ_MAX;
	}
	for (int s = 0; s < steps; s++) {
		int want = ref_min(ncpus);
		int64_t t;
		int got = tree_min(&tt, ncpus, &t);

		if (want < 0) {
			assert_true(t >= INT64_MAX - 8192);
			/* nothing due: some CPU gets an event */
			int c = (int)(next_rand() % (uint64_t)ncpus);
			cpu_t[c] = now + (int64_t)(next_rand() % (uint64_t)spread);
			cpu_seq[c] = seq++;
			sim_ttree_update(&tt, c, cpu_t[c], cpu_seq[c]);
			continue;
		}
		assert_int_equal(got, want);
		assert_int_equal(t, cpu_t[want]);
		now = t;
		/* the winner's handler: other CPUs' events set, then its own */
		for (int n = (int)(next_rand() % 3); n > 0; n--) {
			int c = (int)(next_rand() % (uint64_t)ncpus);
			if (c == want)
				continue;
			cpu_t[c] = draw_t(now, spread);
			cpu_seq[c] = seq++;
			sim_ttree_update(&tt, c, cpu_t[c], cpu_seq[c]);
		}
		cpu_t[want] = draw_t(now, spread);
		cpu_seq[want] = seq++;
		sim_ttree_update_top(&tt, want, cpu_t[want], cpu_seq[want]);
	}
	sim_ttree_free(&tt);
}

/* the tree on every depth the engine uses, and the scans of few CPUs */
static void test_ttree(void **state)
{
	static const int ncpus[] = { 1, 2, 3, 8, 9, 16, 100, 256, 257, 1000, 8192 };

	(void)state;
	for (size_t k = 0; k < sizeof(ncpus) / sizeof(ncpus[0]); k++) {
		run_tree(ncpus[k], ncpus[k] > 1000 ? 20000 : 50000, 1000);
		run_tree(ncpus[k], 20000, 3); /* mostly equal times: the sequence decides */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted),
		cmocka_unit_test(test_heap),
		cmocka_unit_test(test_ttree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
