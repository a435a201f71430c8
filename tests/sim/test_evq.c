// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine's event queue (src/sim/evq.h): whatever its form (an array
 * sorted latest first up to EVQ_SORTED_MAX pending events, then a heap),
 * events come out in (time, sequence) order. Random pushes and pops,
 * with many equal times, are checked against a plain search for the
 * earliest pending event, across the change of form and the growth.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted),
		cmocka_unit_test(test_heap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
