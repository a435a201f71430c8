// SPDX-License-Identifier: GPL-2.0-only
/*
 * The menu governor, rule by rule and preset by preset, with expectations
 * worked out by hand from the kernel texts named in src/governors/menu.c.
 *
 * menu.c is included so its static helpers (which_bucket, the two interval
 * detectors, menu_update) can be tested directly; this object's definition
 * of il_gov_menu then satisfies the registry, so the library's copy is not
 * linked.
 *
 * Unless a test says otherwise: HZ=1000 (TICK_NSEC 1 000 000 ns) and the
 * table POLL 0/0, C1 2/2, C1E 10/20, C3 70/100, C6 85/200 (exit latency /
 * target residency, µs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "../../src/governors/menu.c"
#include "twin.h"

#define TICK 1000000
#define NO_QOS (2000000000LL * 1000)
#define U32MAX 4294967295u

struct fx {
	struct menu_config cfg;
	struct menu_cpu d;
	struct il_driver drv;
	struct il_device dev;
	struct il_idle_inputs in;
	bool stop_tick;
};

static void set_state(struct il_driver *drv, int i, const char *name, int64_t el_ns,
		      int64_t tr_ns, unsigned int flags)
{
	struct il_state *s = &drv->states[i];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->exit_latency_ns = el_ns;
	s->target_residency_ns = tr_ns;
	s->flags = flags;
}

static void skl(struct il_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	set_state(drv, 0, "POLL", 0, 0, IL_FLAG_POLLING);
	set_state(drv, 1, "C1", 2000, 2000, 0);
	set_state(drv, 2, "C1E", 10000, 20000, 0);
	set_state(drv, 3, "C3", 70000, 100000, IL_FLAG_TIMER_STOP);
	set_state(drv, 4, "C6", 85000, 200000, IL_FLAG_TIMER_STOP);
	drv->state_count = 5;
}

static void fx_setup(struct fx *x, const char *release, const char *patch, const char *value)
{
	struct il_gov_patch p;
	struct il_err err;

	memset(x, 0, sizeof(*x));
	if (patch) {
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "%s", patch);
		snprintf(p.value, sizeof(p.value), "%s", value ? value : "");
	}
	const struct il_gov_preset *preset = il_gov_preset_find(&il_gov_menu, release);
	assert_non_null(preset);
	assert_int_equal(menu_configure(&x->cfg, preset, patch ? &p : NULL, patch ? 1 : 0,
					&err), 0);
	skl(&x->drv);
	x->dev.last_residency_ns = 1;  /* not a rejected entry unless a test says so */
	menu_enable(&x->cfg, &x->d, &x->drv, &x->dev);
	x->in.tick_nsec = TICK;
	x->in.latency_req_ns = NO_QOS;
	x->in.true_idle_ns = -1;
}

static void fill(struct fx *x, uint32_t us)
{
	for (unsigned int i = 0; i < INTERVALS; i++)
		x->d.intervals[i] = us;
	resync_ring(&x->d);
}

static void set8(struct menu_cpu *d, const uint32_t v[8])
{
	memcpy(d->intervals, v, sizeof(d->intervals));
	resync_ring(d);
}

static int sel(struct fx *x)
{
	x->stop_tick = true;
	return menu_select(&x->cfg, &x->d, &x->drv, &x->dev, &x->in, &x->stop_tick);
}

/* ---- helpers ---------------------------------------------------------- */

static uint64_t rng(void);

static void bucket_edges(void **unused)
{
	(void)unused;
	assert_int_equal(which_bucket(0), 0);
	assert_int_equal(which_bucket(9999), 0);
	assert_int_equal(which_bucket(10000), 1);
	assert_int_equal(which_bucket(99999), 1);
	assert_int_equal(which_bucket(100000), 2);
	assert_int_equal(which_bucket(999999), 2);
	assert_int_equal(which_bucket(1000000), 3);
	assert_int_equal(which_bucket(9999999), 3);
	assert_int_equal(which_bucket(10000000), 4);
	assert_int_equal(which_bucket(99999999), 4);
	assert_int_equal(which_bucket(100000000), 5);
	assert_int_equal(which_bucket((uint64_t)IL_KTIME_MAX), 5);
	assert_int_equal(which_bucket(UINT64_MAX), 5);
}

static void intervals_ring(void **unused)
{
	(void)unused;
	struct menu_cpu d;

	memset(&d, 0, sizeof(d));
	for (uint32_t i = 1; i <= 9; i++)
		push_interval(&d, i);
	assert_int_equal(d.interval_ptr, 1);
	assert_int_equal(d.intervals[0], 9);   /* 9th value overwrote the 1st */
	assert_int_equal(d.intervals[1], 2);
	assert_int_equal(d.intervals[7], 8);
}

/* The sorted copy and the sums follow every push exactly. */
static void ring_cache(void **unused)
{
	(void)unused;
	struct menu_cpu d, e;

	memset(&d, 0, sizeof(d));
	for (int n = 0; n < 200000; n++) {
		uint32_t v;
		switch (rng() % 4) {
		case 0: v = (uint32_t)(rng() % 5); break;          /* duplicates */
		case 1: v = U32MAX; break;
		case 2: v = (uint32_t)rng(); break;
		default: v = d.sorted[rng() % INTERVALS]; break;   /* an existing value */
		}
		uint32_t ref[8], old = d.intervals[d.interval_ptr];
		memcpy(ref, d.sorted, sizeof(ref));
		sorted_replace_scalar(ref, old, v);
		push_interval(&d, v);
		assert_memory_equal(d.sorted, ref, sizeof(ref));
		e = d;
		resync_ring(&e);
		assert_memory_equal(d.sorted, e.sorted, sizeof(d.sorted));
		assert_true(d.ring_sum == e.ring_sum);
		assert_true(d.ring_sumsq == e.ring_sumsq);
		assert_int_equal(d.n_uint_max, e.n_uint_max);
		assert_int_equal(d.n_over_int_max, e.n_over_int_max);
	}
	/* by hand: {0×8} -> push 5, 3, 5 */
	memset(&d, 0, sizeof(d));
	push_interval(&d, 5);
	push_interval(&d, 3);
	push_interval(&d, 5);
	const uint32_t want[8] = { 0, 0, 0, 0, 0, 3, 5, 5 };
	assert_memory_equal(d.sorted, want, sizeof(want));
	assert_int_equal(d.ring_sum, 13);
	assert_int_equal(d.ring_sumsq, 59);
	push_interval(&d, U32MAX);
	push_interval(&d, 3000000000u);
	assert_int_equal(d.n_uint_max, 1);
	assert_int_equal(d.n_over_int_max, 2);
}

static void div_small_exact(void **unused)
{
	(void)unused;
	const uint64_t xs[] = { 0, 1, 7, 999999, UINT64_MAX, UINT64_MAX - 5, 1ull << 63 };

	for (size_t k = 0; k < sizeof(xs) / sizeof(xs[0]); k++)
		for (volatile unsigned int n = 1; n <= 8; n++)
			assert_true(div_small(xs[k], n) == xs[k] / n);
	/* multiples of n and their neighbours across the range, and random x */
	for (volatile unsigned int n = 1; n <= 8; n++) {
		for (int k = 0; k < 100000; k++) {
			uint64_t m = (rng() / n) * n;
			uint64_t x = rng();
			assert_true(div_small(m, n) == m / n);
			assert_true(div_small(m - 1, n) == (m - 1) / n);
			assert_true(div_small(m + 1, n) == (m + 1) / n);
			assert_true(div_small(x, n) == x / n);
			assert_true(div_small(x >> (k % 64), n) == (x >> (k % 64)) / n);
		}
		uint64_t top = (UINT64_MAX / n) * n;
		assert_true(div_small(top, n) == UINT64_MAX / n);
		assert_true(div_small(top - 1, n) == (top - 1) / n);
	}
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A value from a family that hits the edges: ties, 0, INT_MAX, UINT_MAX, wraps. */
static uint32_t edge_value(unsigned int family)
{
	static const uint32_t edges[] = { 0, 1, 2, 399, 400, 401, 2147483646u, 2147483647u,
					  2147483648u, 3000000000u, 4294967294u, 4294967295u };
	switch (family % 6) {
	case 0: return edges[rng() % (sizeof(edges) / sizeof(edges[0]))];
	case 1: return (uint32_t)(rng() % 4);             /* many ties */
	case 2: return (uint32_t)(50 + rng() % 30);       /* periodic-ish */
	case 3: return (uint32_t)(rng() % 100000);        /* spread */
	case 4: return rng() % 3 ? (uint32_t)(200 + rng() % 20) : (uint32_t)(rng() % 40000);
	default: return (uint32_t)rng();
	}
}

/*
 * The fast detectors against the kernel-shaped get_typical_interval() of
 * menu.c, on 400 000 random rings with edge values; half of the rings are
 * reached by pushes (the cache kept by push_interval), half rebuilt.
 */
static void typical_matches_reference(void **unused)
{
	(void)unused;
	struct menu_cpu d;
	const unsigned int fs[2] = { F_V6_18, F_V6_18 & ~F_REVERT_MAX };

	memset(&d, 0, sizeof(d));
	resync_ring(&d);
	for (int n = 0; n < 400000; n++) {
		unsigned int fam = (unsigned int)rng();
		if (n & 1) {
			for (unsigned int i = 0; i < INTERVALS; i++)
				d.intervals[i] = edge_value(fam + (rng() % 8 == 0 ? 1 : 0));
			resync_ring(&d);
		} else {
			push_interval(&d, edge_value(fam));
		}
		for (int k = 0; k < 2; k++)
			if (typical_two_sided(&d, fs[k]) != get_typical_interval(&d, fs[k]))
				fail_msg("two-sided differs at case %d", n);
		if (typical_one_sided(&d, true, 0) !=
		    get_typical_interval_pre_6_15(&d, F_V6_12, 0))
			fail_msg("one-sided (6.12) differs at case %d", n);
		uint32_t limit = (uint32_t)(rng() % 3 ? rng() % 200000 : rng());
		if (typical_one_sided(&d, false, limit) != get_typical_interval_pre_6_15(&d, 0, limit))
			fail_msg("one-sided (6.1) differs at case %d", n);
	}
}

/*
 * Whole decisions: every preset and patch with the fast detectors against
 * the same configuration running the kernel-shaped get_typical_interval(),
 * over the test logs and 20 000 random rows on each log's table.
 */
static void kernel_shape_on_logs(void **unused)
{
	(void)unused;
	static const char *const specs[] = {
		"menu@6.1", "menu@6.12", "menu@6.18", "menu@7.1", "menu@6.1+no-poll-escape",
		"menu@6.12+poll-escape-15us", "menu@7.1+poll-escape=20us",
		"menu@5.4", "menu@5.5", "menu@6.15", "menu@6.17",
	};
	size_t decisions = 0;

	for (size_t l = 0; l < TWIN_NLOGS; l++) {
		struct il_replay_log log;

		twin_load(&log, twin_logs[l]);
		for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
			struct il_err err;
			struct il_gov *fast = il_gov_new(specs[i], log.ncpus, &err);
			struct il_gov *ref = il_gov_new(specs[i], log.ncpus, &err);

			assert_non_null(fast);
			assert_non_null(ref);
			((struct menu_config *)ref->config)->features |= F_REFERENCE;
			decisions += twin_run(fast, ref, &log, 20000, 0x5eed0000 + l * 16 + i,
					      specs[i]);
			il_gov_free(fast);
			il_gov_free(ref);
		}
		il_replay_log_free(&log);
	}
	/* 10 logs of ~8 000 rows in all, and 20 000 random rows each, under 11 specs */
	assert_true(decisions > 11 * 10 * 20000);
}

/* ---- get_typical_interval, two-sided (v6.15+) ------------------------- */

/* The hand-derived cases hold for the kernel-shaped detector and the fast one. */
static uint32_t two(const uint32_t v[8], unsigned int features)
{
	struct menu_cpu d;

	memset(&d, 0, sizeof(d));
	set8(&d, v);
	uint32_t r = get_typical_interval(&d, features);
	assert_int_equal(typical_two_sided(&d, features), r);
	return r;
}

static void typical_two_sided_cases(void **unused)
{
	(void)unused;
	const unsigned int f = F_V6_18;
	const uint32_t eq[8] = { 100, 100, 100, 100, 100, 100, 100, 100 };
	const uint32_t zeros[8] = { 0 };
	const uint32_t allmax[8] = { U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX };
	/* 4×0, 4×40: avg 20, E[x²] 800, variance 400 -> accepted by the 400 rule */
	const uint32_t v400[8] = { 0, 40, 0, 40, 0, 40, 0, 40 };
	/*
	 * 4×0, 4×42: avg 21, variance 441; avg−min == max−avg (tie) moves the
	 * max threshold, the next round keeps only zeros -> max 0 -> UINT_MAX.
	 */
	const uint32_t v441[8] = { 0, 42, 0, 42, 0, 42, 0, 42 };
	/* 7×100 + 1000: avg 212, far side is the max -> 100 next round */
	const uint32_t hi[8] = { 100, 100, 100, 1000, 100, 100, 100, 100 };
	/* 7×1000 + 10: avg 876, avg−min 866 > 124 -> min cut -> 1000 */
	const uint32_t lo[8] = { 1000, 1000, 10, 1000, 1000, 1000, 1000, 1000 };
	/* UINT_MAX samples (rejected entries) are never used */
	const uint32_t mix[8] = { U32MAX, 50, 52, U32MAX, 48, 50, 51, 49 };

	assert_int_equal(two(eq, f), 100);
	assert_int_equal(two(zeros, f), U32MAX);
	assert_int_equal(two(allmax, f), U32MAX);
	assert_int_equal(two(v400, f), 20);
	assert_int_equal(two(v441, f), U32MAX);
	assert_int_equal(two(hi, f), 100);
	assert_int_equal(two(lo, f), 1000);
	assert_int_equal(two(mix, f), 50);
}

static void typical_two_sided_divisor_rules(void **unused)
{
	(void)unused;
	/*
	 * 5 usable samples {1000×4, 1100}: avg 1020, variance 1600 (> 400),
	 * avg² 1040400 > 36×1600 but 4×5 < 24: not confident; 4×5 <= 24 stops.
	 */
	const uint32_t five[8] = { U32MAX, 1000, 1000, U32MAX, 1000, 1000, 1100, U32MAX };
	/* 6 usable {1000×5, 1100}: avg 6100/6 = 1016, variance 1035000−1032256 = 2744 */
	const uint32_t six[8] = { U32MAX, 1000, 1000, 1000, 1000, 1000, 1100, U32MAX };
	/*
	 * Spread: rounds 8 (avg 1637) -> 7 (avg 1014) -> 6 (avg 350, variance
	 * 29166, 350² < 36×29166): gives up with 6 samples left, max 600.
	 */
	const uint32_t spread[8] = { 100, 200, 300, 400, 500, 600, 5000, 6000 };

	assert_int_equal(two(five, F_V6_18), U32MAX);
	assert_int_equal(two(six, F_V6_18), 1016);
	assert_int_equal(two(spread, F_V6_18), U32MAX);
	/* 85975daeaa4d alone (May–Oct 2025) returns the max of >= 4 samples */
	assert_int_equal(two(five, F_V6_18 & ~F_REVERT_MAX), 1100);
	assert_int_equal(two(spread, F_V6_18 & ~F_REVERT_MAX), 600);
	assert_int_equal(two(six, F_V6_18 & ~F_REVERT_MAX), 1016);
}

static void typical_two_sided_wrap(void **unused)
{
	(void)unused;
	/*
	 * 8 × (2^32 − 2): the sum of squares wraps in u64: E[x²] reads
	 * 2^64 − 2^34·... giving variance 2^61 > U64_MAX/36, no estimate;
	 * avg−min == max−avg -> max cut -> nothing left -> UINT_MAX.
	 */
	const uint32_t big[8] = { U32MAX - 1, U32MAX - 1, U32MAX - 1, U32MAX - 1,
				  U32MAX - 1, U32MAX - 1, U32MAX - 1, U32MAX - 1 };
	/* 8 × 3e9: each square fits but the sum of 8 wraps: same fate */
	const uint32_t b3[8] = { 3000000000u, 3000000000u, 3000000000u, 3000000000u,
				 3000000000u, 3000000000u, 3000000000u, 3000000000u };
	/* 8 × 100000 µs: no wrap, variance 0 */
	const uint32_t ok[8] = { 100000, 100000, 100000, 100000, 100000, 100000, 100000, 100000 };

	assert_int_equal(two(big, F_V6_18), U32MAX);
	assert_int_equal(two(b3, F_V6_18), U32MAX);
	assert_int_equal(two(ok, F_V6_18), 100000);
	/* the wrap edge: 8·v² < 2^64 for v = 1518500249, not for v + 1 */
	const uint32_t e0[8] = { 1518500249u, 1518500249u, 1518500249u, 1518500249u,
				 1518500249u, 1518500249u, 1518500249u, 1518500249u };
	const uint32_t e1[8] = { 1518500250u, 1518500250u, 1518500250u, 1518500250u,
				 1518500250u, 1518500250u, 1518500250u, 1518500250u };
	assert_int_equal(two(e0, F_V6_18), 1518500249u);
	assert_int_equal(two(e1, F_V6_18), U32MAX);
}

/* ---- get_typical_interval, one-sided (v6.1 / v6.12) ------------------- */

static uint32_t one(const uint32_t v[8], bool pattern_first, uint32_t limit)
{
	struct menu_cpu d;

	memset(&d, 0, sizeof(d));
	set8(&d, v);
	uint32_t r = get_typical_interval_pre_6_15(&d, pattern_first ? F_PATTERN_FIRST : 0, limit);
	assert_int_equal(typical_one_sided(&d, pattern_first, limit), r);
	return r;
}

static void typical_one_sided_cases(void **unused)
{
	(void)unused;
	const uint32_t eq[8] = { 500, 500, 500, 500, 500, 500, 500, 500 };
	const uint32_t zeros[8] = { 0 };
	/* two-pass variance 708752/8 = 88594; top cut at 999 -> 7×100 */
	const uint32_t hi[8] = { 100, 100, 100, 1000, 100, 100, 100, 100 };
	/* only the top is ever cut: 1000s go, the lone 10 is the answer */
	const uint32_t lo[8] = { 1000, 1000, 10, 1000, 1000, 1000, 1000, 1000 };
	/* above INT_MAX is dropped in the first round already */
	const uint32_t above[8] = { 3000000000u, 3000000000u, 3000000000u, 3000000000u,
				    3000000000u, 3000000000u, 3000000000u, 3000000000u };
	const uint32_t mixed[8] = { 3000000000u, 50, 50, 50, 50, 50, 50, 50 };
	const uint32_t spread[8] = { 100, 200, 300, 400, 500, 600, 5000, 6000 };

	/* no wrap in the two-pass variance: eight 1518500250 µs are a pattern here */
	const uint32_t e1[8] = { 1518500250u, 1518500250u, 1518500250u, 1518500250u,
				 1518500250u, 1518500250u, 1518500250u, 1518500250u };
	assert_int_equal(one(e1, true, 0), 1518500250u);

	/* 5484e31bbbff form (v6.12) */
	assert_int_equal(one(eq, true, 0), 500);
	assert_int_equal(one(zeros, true, 0), U32MAX);
	assert_int_equal(one(hi, true, 0), 100);
	assert_int_equal(one(lo, true, 0), 10);
	assert_int_equal(one(above, true, 0), U32MAX);
	assert_int_equal(one(mixed, true, 0), 50);
	assert_int_equal(one(spread, true, 0), U32MAX);

	/* v6.1 form: give up when the smallest sample reaches the timer estimate */
	assert_int_equal(one(eq, false, 500), U32MAX);
	assert_int_equal(one(eq, false, 501), 500);
	assert_int_equal(one(zeros, false, 400), 0);
	assert_int_equal(one(zeros, false, 0), U32MAX);
	assert_int_equal(one(above, false, 1), U32MAX);  /* nothing kept: min UINT_MAX */
}

/* ---- menu_update ------------------------------------------------------- */

static void update_case(struct fx *x, uint64_t next_timer, unsigned int bucket, int last,
			int64_t residency, bool tick_wakeup, bool poll_limit)
{
	x->d.next_timer_ns = next_timer;
	x->d.bucket = (uint8_t)bucket;
	x->d.tick_wakeup = tick_wakeup;
	x->dev.last_state_idx = last;
	x->dev.last_residency_ns = residency;
	x->dev.poll_time_limit = poll_limit;
	x->d.interval_ptr = 0;
	menu_update(&x->d, &x->drv, &x->dev, TICK);
}

static void update_rules(void **unused)
{
	(void)unused;
	struct fx x;

	fx_setup(&x, "7.1", NULL, NULL);
	/* 500 µs in C1 (exit 2 µs > half): 498000; 7168 + 1024·498000/10^6 = 7168 + 509 */
	update_case(&x, 1000000, 3, 1, 500000, false, false);
	assert_int_equal(x.d.correction_factor[3], 7677);
	assert_int_equal(x.d.intervals[0], 498);
	assert_int_equal(x.d.interval_ptr, 1);

	/* 3 µs in C1: not more than 2×2 µs -> halved to 1500 ns -> 1 µs */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 1000000, 3, 1, 3000, false, false);
	assert_int_equal(x.d.intervals[0], 1);
	assert_int_equal(x.d.correction_factor[3], 7168 + 1);  /* 1024·1500/10^6 */

	/* 150 µs in C6 (exit 85 µs): not more than 170 µs -> halved, 75 µs (not 65) */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 1000000, 3, 4, 150000, false, false);
	assert_int_equal(x.d.intervals[0], 75);

	/* exactly 2× the exit latency is still halved: 4000 -> 2000 */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 1000000, 3, 1, 4000, false, false);
	assert_int_equal(x.d.intervals[0], 2);

	/* tick wakeup with a timer beyond the tick: 45 ms assumed */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 100000000, 5, 4, 300000, true, false);
	assert_int_equal(x.d.intervals[0], 45000);
	assert_int_equal(x.d.correction_factor[5], 7168 + 460);  /* 1024·45/100 */

	/* ... clamped to the timer when that is nearer: 30 ms -> +1024 */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 30000000, 4, 4, 300000, true, false);
	assert_int_equal(x.d.intervals[0], 30000);
	assert_int_equal(x.d.correction_factor[4], 8192);

	/* tick wakeup but the timer was within the tick: the measurement counts */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, TICK, 3, 4, 300000, true, false);
	assert_int_equal(x.d.intervals[0], 215);  /* 300000 − 85000 */

	/* poll time limit on the polling state: the timer is assumed */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 700000, 2, 0, 62500, false, true);
	assert_int_equal(x.d.intervals[0], 700);
	assert_int_equal(x.d.correction_factor[2], 8192);
	/* ... but not for a non-polling state */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 700000, 2, 1, 62500, false, true);
	assert_int_equal(x.d.intervals[0], 60);   /* 62500 − 2000 */
	assert_int_equal(x.d.correction_factor[2], 7168 + 88);  /* 1024·60500/700000 */

	/* KTIME_MAX timer (no query) and a timed-out poll: u32 truncation */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, (uint64_t)IL_KTIME_MAX, 5, 0, 62500, false, true);
	assert_int_equal(x.d.intervals[0], 2783138807u);  /* 9223372036854775 mod 2^32 */
	assert_int_equal(x.d.correction_factor[5], 8192);  /* >= 50 ms: +1024 */

	/* measured above the timer is clamped to it: ratio 1 */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 1000000, 3, 1, 5000000, false, false);
	assert_int_equal(x.d.intervals[0], 1000);
	assert_int_equal(x.d.correction_factor[3], 8192);

	/* 60 ms measured against a 200 ms timer: >= MAX_INTERESTING -> +1024 */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 200000000, 5, 1, 60002000, false, false);
	assert_int_equal(x.d.intervals[0], 60000);
	assert_int_equal(x.d.correction_factor[5], 8192);
	/* exactly 50 ms is not below MAX_INTERESTING: +1024, not +256 */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 200000000, 5, 1, 50002000, false, false);
	assert_int_equal(x.d.correction_factor[5], 8192);
	/* 49.99 ms: the ratio is used, 1024·49990000/200000000 = 255 */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 200000000, 5, 1, 49992000, false, false);
	assert_int_equal(x.d.correction_factor[5], 7168 + 255);

	/* zero timer: +1024, measured clamped to 0 */
	fx_setup(&x, "7.1", NULL, NULL);
	update_case(&x, 0, 0, 1, 5000, false, false);
	assert_int_equal(x.d.intervals[0], 0);
	assert_int_equal(x.d.correction_factor[0], 8192);

	/* decay of a factor: 1000 -> 1000 − 125 = 875, + 0 for a 0 measurement */
	fx_setup(&x, "7.1", NULL, NULL);
	x.d.correction_factor[3] = 1000;
	update_case(&x, 1000000, 3, 1, 0, false, false);
	assert_int_equal(x.d.correction_factor[3], 875);
}

/* ---- select: trivial exits --------------------------------------------- */

static void trivial_exits(void **unused)
{
	(void)unused;
	struct fx x;

	/* one state: 0, and the tick may stop unless it is a polling state */
	fx_setup(&x, "7.1", NULL, NULL);
	x.drv.state_count = 1;
	fill(&x, 500);
	x.in.sleep_length_ns = 600000;
	x.in.delta_tick_ns = 600000;
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);
	x.drv.states[0].flags = 0;
	assert_int_equal(sel(&x), 0);
	assert_true(x.stop_tick);

	/* latency_req == 0 */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 500);
	x.in.sleep_length_ns = 600000;
	x.in.delta_tick_ns = 600000;
	x.in.latency_req_ns = 0;
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);

	/* latency_req == 0 returns 0 even with state 0 disabled */
	x.dev.states_usage[0].disable = IL_DISABLE_BY_USER;
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);

	/* next timer closer than state 1's residency */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 500);
	x.in.sleep_length_ns = 1999;
	x.in.delta_tick_ns = 1999;
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);
	/* ... unless state 0 is disabled: the walk picks C1 (first enabled) */
	x.dev.states_usage[0].disable = IL_DISABLE_BY_USER;
	assert_int_equal(sel(&x), 1);
	assert_false(x.stop_tick);  /* predicted 2 µs < tick */

	/* QoS below state 1's exit latency */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 500);
	x.in.sleep_length_ns = 600000;
	x.in.delta_tick_ns = 600000;
	x.in.latency_req_ns = 1999;
	assert_int_equal(sel(&x), 0);
	x.in.latency_req_ns = 2000;
	assert_int_equal(sel(&x), 1);  /* C1E's 10 µs latency breaks the walk */

	/* negative sleep length: delta and delta_tick are 0 -> trivial */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 500);
	x.in.sleep_length_ns = -5;
	x.in.delta_tick_ns = 77;
	assert_int_equal(sel(&x), 0);
	assert_int_equal(x.d.next_timer_ns, 0);
	assert_int_equal(x.d.bucket, 0);
}

/* ---- select: the walk --------------------------------------------------- */

static void walk_residency_and_latency(void **unused)
{
	(void)unused;
	struct fx x;

	/*
	 * 7.1, pattern 150 µs, timer 400 µs: timer_us = (4096000 +
	 * 400000·8192)/8192000 = 400, predicted min(400000, 150000) = 150000.
	 * C3 (100 µs) fits, C6 (200 µs) not; predicted < tick -> keep C3,
	 * tick retained, C3 fits delta_tick 400 µs.
	 */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 150);
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	assert_int_equal(sel(&x), 3);
	assert_false(x.stop_tick);
	assert_int_equal(x.d.bucket, 2);
	assert_int_equal(x.d.next_timer_ns, 400000);

	/* QoS 80 µs: C6 (85 µs) would fit by residency at 300 µs, latency stops it */
	fill(&x, 300);
	assert_int_equal(sel(&x), 4);
	x.in.latency_req_ns = 80000;
	assert_int_equal(sel(&x), 3);
	x.in.latency_req_ns = 69999;
	assert_int_equal(sel(&x), 2);

	/* disabled states are skipped: C3 off -> C1E */
	x.in.latency_req_ns = NO_QOS;
	fill(&x, 150);
	x.dev.states_usage[3].disable = IL_DISABLE_BY_DRIVER;
	assert_int_equal(sel(&x), 2);

	/* nothing enabled: 0 */
	for (int i = 0; i < 5; i++)
		x.dev.states_usage[i].disable = IL_DISABLE_BY_USER;
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);  /* predicted 150 µs < tick */

	/* state 0 disabled, only C6 enabled: first enabled state */
	for (int i = 0; i < 4; i++)
		x.dev.states_usage[i].disable = IL_DISABLE_BY_USER;
	x.dev.states_usage[4].disable = 0;
	fill(&x, 150);
	x.in.delta_tick_ns = 100000;
	assert_int_equal(sel(&x), 4);  /* refinement finds nothing enabled below */
}

static void latency_order_6_12_vs_6_18(void **unused)
{
	(void)unused;
	struct fx x;
	/*
	 * The 779b1a1cb13a example: states 0 (poll 0/0), 1 (5/5 µs), 2 (200 µs
	 * exit, 2 ms residency); tick stopped, predicted >= TICK, QoS 20 µs,
	 * delta_tick beyond 2 ms. Before: state 2 returned despite QoS.
	 */
	const char *rel[2] = { "6.12", "6.18" };
	const int want[2] = { 2, 1 };

	for (int k = 0; k < 2; k++) {
		fx_setup(&x, rel[k], NULL, NULL);
		x.drv.state_count = 3;
		set_state(&x.drv, 1, "S1", 5000, 5000, 0);
		set_state(&x.drv, 2, "S2", 200000, 2000000, 0);
		fill(&x, 1000);  /* predicted 1 ms = TICK */
		x.in.sleep_length_ns = 50000000;
		x.in.delta_tick_ns = 50000000;
		x.in.tick_stopped = true;
		x.in.latency_req_ns = 20000;
		assert_int_equal(sel(&x), want[k]);
		assert_true(x.stop_tick);
	}
}

/* ---- the polling-state escape ----------------------------------------- */

static void escape_setup(struct fx *x, const char *rel, const char *patch, const char *val,
			 int64_t c1_el, int64_t c1_tr)
{
	fx_setup(x, rel, patch, val);
	set_state(&x->drv, 1, "C1", c1_el, c1_tr, 0);
	fill(x, 1);   /* pattern 1 µs: no timer query (<= 15 µs) from 6.12 on */
	x->in.sleep_length_ns = 123456789;  /* must not matter where not queried */
	x->in.delta_tick_ns = 123456789;
}

static void poll_escape_presets(void **unused)
{
	(void)unused;
	struct fx x;

	/*
	 * Pattern 1 µs, C1 2/2 µs: POLL is first; C1's residency exceeds the
	 * prediction. 6.12 caps latency_req to predicted (1 µs) before the walk
	 * and its escape needs exit latency <= latency_req; 6.18/7.1 need exit
	 * latency <= predicted (db86f55bf81a). 2 µs > 1 µs: all stay in POLL.
	 */
	escape_setup(&x, "6.12", NULL, NULL, 2000, 2000);
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);
	escape_setup(&x, "6.18", NULL, NULL, 2000, 2000);
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);
	escape_setup(&x, "7.1", NULL, NULL, 2000, 2000);
	assert_int_equal(sel(&x), 0);

	/* C1 exit 1 µs <= predicted 1 µs: escapes in 6.18 too */
	escape_setup(&x, "6.18", NULL, NULL, 1000, 2000);
	assert_int_equal(sel(&x), 1);
	assert_false(x.stop_tick);

	/*
	 * residency 20 µs (pseries CEDE-like): 6.12 and 6.18 escape, 6.19 not
	 * (07d815701274, "Applied as 6.19 material", in the v6.19-rc1 pull; the
	 * v6.18 text 23239b0c04f9 has no threshold)
	 */
	escape_setup(&x, "6.12", NULL, NULL, 1000, 20000);
	assert_int_equal(sel(&x), 1);
	escape_setup(&x, "6.18", NULL, NULL, 1000, 20000);
	assert_int_equal(sel(&x), 1);
	escape_setup(&x, "6.19", NULL, NULL, 1000, 20000);
	assert_int_equal(sel(&x), 0);
	escape_setup(&x, "7.0", NULL, NULL, 1000, 20000);
	assert_int_equal(sel(&x), 0);
	/* 14.999 µs is below the threshold */
	escape_setup(&x, "6.19", NULL, NULL, 1000, 14999);
	assert_int_equal(sel(&x), 1);
	escape_setup(&x, "6.19", NULL, NULL, 1000, 15000);
	assert_int_equal(sel(&x), 0);

	/*
	 * 6.12 gates the escape by latency_req, capped to predicted / (1 + 10 ×
	 * nr_iowait): with one iowaiter the cap is 1000 / 11 = 90 ns, so C1
	 * (exit 1 µs) no longer qualifies; 6.18 ignores iowait.
	 */
	escape_setup(&x, "6.12", NULL, NULL, 1000, 2000);
	x.in.nr_iowait = 1;
	assert_int_equal(sel(&x), 0);
	assert_int_equal(x.d.bucket, 11);   /* KTIME_MAX bucket of the iowait half */
	escape_setup(&x, "6.18", NULL, NULL, 1000, 2000);
	x.in.nr_iowait = 1;
	assert_int_equal(sel(&x), 1);
	assert_int_equal(x.d.bucket, 5);

	/*
	 * v6.17 between 779b1a1cb13a and db86f55bf81a: no cap, no exit-latency
	 * test: C1 2/2 µs is taken over POLL at a 1 µs prediction.
	 */
	escape_setup(&x, "6.18", NULL, NULL, 2000, 2000);
	x.cfg.features &= ~(F_ESCAPE_EL_PRED | F_ESCAPE_RES_THRESH);
	x.cfg.escape = ESCAPE_ANY;
	assert_int_equal(sel(&x), 1);
}

static void poll_escape_timer_gate(void **unused)
{
	(void)unused;
	struct fx x;

	/*
	 * 6.1 always knows the timer. C1 disabled (state 1 still gates the
	 * trivial exit), pattern 12 µs, timer 15 µs: predicted_us =
	 * (15000·8192 + 4096000)/8192000 = 15, predicted 12 µs, latency cap
	 * 12 µs >= C1E's 10 µs exit, but C1E's 20 µs residency is beyond the
	 * 15 µs timer: no escape, POLL kept.
	 */
	fx_setup(&x, "6.1", NULL, NULL);
	x.dev.states_usage[1].disable = IL_DISABLE_BY_USER;
	fill(&x, 12);
	x.in.sleep_length_ns = 15000;
	x.in.delta_tick_ns = 15000;
	assert_int_equal(sel(&x), 0);
	/* timer 30 µs: C1E fits it: escape */
	x.in.sleep_length_ns = 30000;
	x.in.delta_tick_ns = 30000;
	assert_int_equal(sel(&x), 2);
	assert_false(x.stop_tick);
	/* timer exactly 20 µs = C1E's residency: still fits (<=) */
	x.in.sleep_length_ns = 20000;
	x.in.delta_tick_ns = 20000;
	assert_int_equal(sel(&x), 2);
	/* pattern 5 µs: cap 5 µs < C1E's 10 µs exit: POLL again */
	x.in.sleep_length_ns = 30000;
	x.in.delta_tick_ns = 30000;
	fill(&x, 5);
	assert_int_equal(sel(&x), 0);

	/*
	 * 6.18 with +poll-escape=50us, C1 disabled, pattern 16 µs (timers are
	 * queried): timer 18 µs -> predicted min(18, 16) µs; C1E (20 µs) is
	 * beyond the timer: POLL; timer 25 µs: C1E (exit 10 <= 16 µs).
	 */
	fx_setup(&x, "6.18", "poll-escape", "50us");
	x.dev.states_usage[1].disable = IL_DISABLE_BY_USER;
	fill(&x, 16);
	x.in.sleep_length_ns = 18000;
	x.in.delta_tick_ns = 18000;
	assert_int_equal(sel(&x), 0);
	x.in.sleep_length_ns = 25000;
	x.in.delta_tick_ns = 25000;
	assert_int_equal(sel(&x), 2);
	/* without the patch 6.19's 15 µs threshold keeps C1E out; 6.18 has none */
	fx_setup(&x, "6.19", NULL, NULL);
	x.dev.states_usage[1].disable = IL_DISABLE_BY_USER;
	fill(&x, 16);
	x.in.sleep_length_ns = 25000;
	x.in.delta_tick_ns = 25000;
	assert_int_equal(sel(&x), 0);
	fx_setup(&x, "6.18", NULL, NULL);
	x.dev.states_usage[1].disable = IL_DISABLE_BY_USER;
	fill(&x, 16);
	x.in.sleep_length_ns = 25000;
	x.in.delta_tick_ns = 25000;
	assert_int_equal(sel(&x), 2);
}

static void poll_escape_patches(void **unused)
{
	(void)unused;
	struct fx x;

	/* +no-poll-escape: every preset stays in POLL */
	escape_setup(&x, "6.12", "no-poll-escape", NULL, 1000, 2000);
	assert_int_equal(sel(&x), 0);
	escape_setup(&x, "6.18", "no-poll-escape", NULL, 1000, 2000);
	assert_int_equal(sel(&x), 0);
	escape_setup(&x, "7.1", "no-poll-escape", NULL, 1000, 2000);
	assert_int_equal(sel(&x), 0);
	escape_setup(&x, "6.1", "no-poll-escape", NULL, 1000, 2000);
	x.in.sleep_length_ns = 500000;
	x.in.delta_tick_ns = 500000;
	assert_int_equal(sel(&x), 0);
	/* ... while 6.1 without it escapes (cap = predicted 1 µs >= exit 1 µs) */
	escape_setup(&x, "6.1", NULL, NULL, 1000, 2000);
	x.in.sleep_length_ns = 500000;
	x.in.delta_tick_ns = 500000;
	assert_int_equal(sel(&x), 1);

	/* +poll-escape-15us on 6.12: 20 µs no more, 2 µs still */
	escape_setup(&x, "6.12", "poll-escape-15us", NULL, 1000, 20000);
	assert_int_equal(sel(&x), 0);
	escape_setup(&x, "6.12", "poll-escape-15us", NULL, 1000, 2000);
	assert_int_equal(sel(&x), 1);
	/* on 6.18 it is what the preset does already */
	escape_setup(&x, "6.18", "poll-escape-15us", NULL, 1000, 14999);
	assert_int_equal(sel(&x), 1);

	/* +poll-escape=25us on 6.18: the 20 µs state qualifies again */
	escape_setup(&x, "6.18", "poll-escape", "25us", 1000, 20000);
	assert_int_equal(x.cfg.escape_below_ns, 25000);
	assert_int_equal(sel(&x), 1);
	escape_setup(&x, "6.18", "poll-escape", "20us", 1000, 20000);
	assert_int_equal(sel(&x), 0);  /* strictly below */
	escape_setup(&x, "6.18", "poll-escape", "0", 1000, 2000);
	assert_int_equal(sel(&x), 0);  /* =0: nothing is below 0 */
}

/* ---- stopped tick ------------------------------------------------------- */

static void stopped_tick_presets(void **unused)
{
	(void)unused;
	struct fx x;

	/*
	 * Tick stopped, pattern 5 µs (<= 15 µs). 6.18 does not query timers:
	 * next timer KTIME_MAX, predicted 5 µs < tick -> replaced by KTIME_MAX:
	 * the deepest state, whatever the real timer (3 µs here).
	 */
	fx_setup(&x, "6.18", NULL, NULL);
	fill(&x, 5);
	x.in.tick_stopped = true;
	x.in.sleep_length_ns = 3000;
	x.in.delta_tick_ns = 3000;
	assert_int_equal(sel(&x), 4);
	assert_true(x.stop_tick);
	assert_true(x.d.next_timer_ns == (uint64_t)IL_KTIME_MAX);

	/*
	 * 7.1 (80606f4eb8d7) queries: timer 3 µs, timer_us = 3 (3.5 rounds
	 * down), predicted 3 µs; next timer not beyond 2 ticks: kept. C1 fits,
	 * C1E not; predicted < tick -> C1; stopped tick untouched.
	 */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 5);
	x.in.tick_stopped = true;
	x.in.sleep_length_ns = 3000;
	x.in.delta_tick_ns = 3000;
	assert_int_equal(sel(&x), 1);
	assert_true(x.stop_tick);
	assert_int_equal(x.d.next_timer_ns, 3000);

	/*
	 * Timer 1.5 ms (<= SAFE_TIMER_RANGE_NS = 2 ms): 7.1 keeps the 5 µs
	 * prediction (C1); 80606f4eb8d7 without e57c2bf2e89d replaces it by the
	 * timer: C6.
	 */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 5);
	x.in.tick_stopped = true;
	x.in.sleep_length_ns = 1500000;
	x.in.delta_tick_ns = 1500000;
	assert_int_equal(sel(&x), 1);
	x.cfg.features &= ~F_SAFE_TIMER_RANGE;
	assert_int_equal(sel(&x), 4);
	/* 2 ms exactly is still in the safe range, 2 ms + 1 ns is not */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 5);
	x.in.tick_stopped = true;
	x.in.sleep_length_ns = 2000000;
	x.in.delta_tick_ns = 2000000;
	assert_int_equal(sel(&x), 1);
	x.in.sleep_length_ns = 2000001;
	assert_int_equal(sel(&x), 4);

	/* tick running, same pattern: 7.1 does not query timers either */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 5);
	x.in.sleep_length_ns = 3000;
	assert_int_equal(sel(&x), 1);
	assert_true(x.d.next_timer_ns == (uint64_t)IL_KTIME_MAX);
	assert_false(x.stop_tick);

	/* 6.12 and 6.1 stopped: predicted below tick becomes the timer */
	fx_setup(&x, "6.12", NULL, NULL);
	fill(&x, 5);
	x.in.tick_stopped = true;
	x.in.sleep_length_ns = 3000;
	assert_int_equal(sel(&x), 4);   /* KTIME_MAX: no query */
	fx_setup(&x, "6.1", NULL, NULL);
	fill(&x, 5);
	x.in.tick_stopped = true;
	x.in.sleep_length_ns = 150000;
	x.in.delta_tick_ns = 150000;
	assert_int_equal(sel(&x), 3);   /* 150 µs timer: C3 (100 µs) */
}

/* A table with a state deeper than the tick for the in-walk tick rules. */
static void deep_table(struct fx *x)
{
	set_state(&x->drv, 5, "C10", 890000, 5000000, IL_FLAG_TIMER_STOP);
	x->drv.state_count = 6;
}

static void stopped_tick_in_walk(void **unused)
{
	(void)unused;
	struct fx x;

	/*
	 * Tick stopped, pattern 2 ms, timer 100 ms: timer_us 100000, predicted
	 * 2 ms >= tick. C10 (5 ms) exceeds it: C6 (200 µs) is below the tick and
	 * C10 fits delta_tick (100 ms): C10 returned directly.
	 */
	fx_setup(&x, "7.1", NULL, NULL);
	deep_table(&x);
	fill(&x, 2000);
	x.in.tick_stopped = true;
	x.in.sleep_length_ns = 100000000;
	x.in.delta_tick_ns = 100000000;
	assert_int_equal(sel(&x), 5);
	assert_true(x.stop_tick);
	/* delta_tick 4 ms < 5 ms: C6 stays */
	x.in.delta_tick_ns = 4000000;
	assert_int_equal(sel(&x), 4);
	/* C6 disabled, C3 is idx; C3 (100 µs) also below tick -> C10 when it fits */
	x.in.delta_tick_ns = 5000000;
	x.dev.states_usage[4].disable = IL_DISABLE_BY_USER;
	assert_int_equal(sel(&x), 5);

	/* C6 with a residency of exactly one tick is not "below the tick" */
	x.dev.states_usage[4].disable = 0;
	x.drv.states[4].target_residency_ns = TICK;
	x.in.delta_tick_ns = 100000000;
	fill(&x, 2000);
	assert_int_equal(sel(&x), 4);
	x.drv.states[4].target_residency_ns = TICK - 1;
	assert_int_equal(sel(&x), 5);

	/* same on 6.12 and 6.1 */
	fx_setup(&x, "6.12", NULL, NULL);
	deep_table(&x);
	fill(&x, 2000);
	x.in.tick_stopped = true;
	x.in.sleep_length_ns = 100000000;
	x.in.delta_tick_ns = 100000000;
	assert_int_equal(sel(&x), 5);
	x.in.delta_tick_ns = 4000000;
	assert_int_equal(sel(&x), 4);

	/*
	 * Tick running, prediction >= tick: the walk stops at C10 with
	 * predicted = C6's residency (200 µs) < tick -> tick retained, and C6
	 * fits delta_tick (1 ms).
	 */
	fx_setup(&x, "7.1", NULL, NULL);
	deep_table(&x);
	fill(&x, 2000);
	x.in.sleep_length_ns = 100000000;
	x.in.delta_tick_ns = 1000000;
	assert_int_equal(sel(&x), 4);
	assert_false(x.stop_tick);
	/* pattern 6 ms: C10 fits, predicted 6 ms >= tick: stop the tick */
	fill(&x, 6000);
	assert_int_equal(sel(&x), 5);
	assert_true(x.stop_tick);
}

static void tick_retain_refine(void **unused)
{
	(void)unused;
	struct fx x;

	/* pattern 300 µs, timer 400 µs: C6; tick kept; delta_tick 150 µs -> C3 */
	fx_setup(&x, "6.18", NULL, NULL);
	fill(&x, 300);
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 150000;
	assert_int_equal(sel(&x), 3);
	assert_false(x.stop_tick);
	/* delta_tick exactly C3's residency: C3 */
	x.in.delta_tick_ns = 100000;
	assert_int_equal(sel(&x), 3);
	x.in.delta_tick_ns = 99999;
	assert_int_equal(sel(&x), 2);
	x.in.delta_tick_ns = 150000;
	/* C3 disabled -> C1E (20 µs <= 150 µs) */
	x.dev.states_usage[3].disable = IL_DISABLE_BY_USER;
	assert_int_equal(sel(&x), 2);
	/* delta_tick 1 µs: down to POLL (0 <= 1 µs), skipping disabled C3 */
	x.in.delta_tick_ns = 1000;
	assert_int_equal(sel(&x), 0);
	/* POLL disabled too: the shallowest enabled one, C1, even if too long */
	x.dev.states_usage[0].disable = IL_DISABLE_BY_USER;
	assert_int_equal(sel(&x), 1);
	/* C6 fits delta_tick exactly: unchanged */
	fx_setup(&x, "6.18", NULL, NULL);
	fill(&x, 300);
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 200000;
	assert_int_equal(sel(&x), 4);
	assert_false(x.stop_tick);

	/* else branch (no query): delta_tick = TICK/2 = 500 µs */
	fx_setup(&x, "6.18", NULL, NULL);
	fill(&x, 14);        /* 14 µs: C1 fits, C1E (20) not */
	x.in.delta_tick_ns = 1;  /* not read */
	assert_int_equal(sel(&x), 1);
	assert_false(x.stop_tick);

	/* exactly 15 µs predicted does not query the timer, 16 µs does */
	fx_setup(&x, "7.1", NULL, NULL);
	fill(&x, 15);
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	assert_int_equal(sel(&x), 1);
	assert_true(x.d.next_timer_ns == (uint64_t)IL_KTIME_MAX);
	assert_int_equal(x.d.bucket, 5);
	fill(&x, 16);
	assert_int_equal(sel(&x), 1);
	assert_int_equal(x.d.next_timer_ns, 400000);
	assert_int_equal(x.d.bucket, 2);

	/*
	 * The assumed delta_tick of the no-query branch is TICK_NSEC / 2. With
	 * an artificial 10 µs tick and C1 at 2/8 µs: pattern 14 µs >= tick,
	 * C1 fits, C1E not, tick running -> predicted = 8 µs < tick: retained;
	 * 8 µs > 5 µs (half the tick) -> refined down to POLL.
	 */
	fx_setup(&x, "7.1", NULL, NULL);
	set_state(&x.drv, 1, "C1", 2000, 8000, 0);
	x.in.tick_nsec = 10000;
	fill(&x, 14);
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);
	set_state(&x.drv, 1, "C1", 2000, 5000, 0);
	assert_int_equal(sel(&x), 1);   /* 5 µs fits half the tick */

	/* HZ=100 (TICK_NSEC 10 ms): 3 ms is below the tick, tick kept */
	fx_setup(&x, "7.1", NULL, NULL);
	x.in.tick_nsec = il_tick_nsec(100);
	fill(&x, 3000);  /* 3 ms, timer 50 ms */
	x.in.sleep_length_ns = 50000000;
	x.in.delta_tick_ns = 10000000;
	assert_int_equal(sel(&x), 4);
	assert_false(x.stop_tick);   /* 3 ms < 10 ms tick */
}

/* ---- iowait (6.1, 6.12) ------------------------------------------------ */

static void iowait_multiplier(void **unused)
{
	(void)unused;
	struct fx x;

	/*
	 * 6.12, pattern 300 µs, timer 400 µs, one iowaiter: bucket 6 + 2 = 8;
	 * latency cap 300000 / 11 = 27272 ns: C3 (70 µs) breaks -> C1E.
	 */
	fx_setup(&x, "6.12", NULL, NULL);
	fill(&x, 300);
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	x.in.nr_iowait = 1;
	assert_int_equal(sel(&x), 2);
	assert_int_equal(x.d.bucket, 8);
	/* no iowaiter: cap is the prediction itself (300 µs): C6 */
	x.in.nr_iowait = 0;
	assert_int_equal(sel(&x), 4);
	assert_int_equal(x.d.bucket, 2);
	/* 3 iowaiters: cap 300000 / 31 = 9677 ns < C1E's 10 µs -> C1 */
	x.in.nr_iowait = 3;
	assert_int_equal(sel(&x), 1);
	/* the bucket used is what the next update trains */
	x.dev.last_state_idx = 1;
	menu_reflect(&x.cfg, &x.d, &x.drv, &x.dev, 1, &x.in);
	x.dev.last_residency_ns = 202000;   /* −2 µs exit -> 200 µs of 400 */
	sel(&x);
	assert_int_equal(x.d.correction_factor[8], 7168 + 512);
	assert_int_equal(x.d.correction_factor[2], 8192);

	/* 6.1: same cap, and bucket */
	fx_setup(&x, "6.1", NULL, NULL);
	fill(&x, 300);
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	x.in.nr_iowait = 1;
	assert_int_equal(sel(&x), 2);
	assert_int_equal(x.d.bucket, 8);

	/* 6.18: ignored */
	fx_setup(&x, "6.18", NULL, NULL);
	fill(&x, 300);
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	x.in.nr_iowait = 3;
	assert_int_equal(sel(&x), 4);
	assert_int_equal(x.d.bucket, 2);

	/* 38f83090f515 alone (v6.13..v6.16): cap = predicted, no multiplier */
	fx_setup(&x, "6.12", NULL, NULL);
	x.cfg.features |= F_NO_IOWAIT;
	fill(&x, 300);
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	x.in.nr_iowait = 3;
	assert_int_equal(sel(&x), 4);
	/* ... and the cap still stops C6 when predicted < its exit latency */
	fill(&x, 80);     /* predicted 80 µs: C1E fits by residency */
	x.dev.states_usage[2].disable = IL_DISABLE_BY_USER;
	assert_int_equal(sel(&x), 1);
}

/* ---- the whole cycle --------------------------------------------------- */

static void first_select_and_rejected(void **unused)
{
	(void)unused;
	struct fx x;

	/* 7.1 after enable: last residency 0 -> UINT_MAX pushed first */
	fx_setup(&x, "7.1", NULL, NULL);
	x.dev.last_residency_ns = 0;
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	assert_int_equal(sel(&x), 4);   /* no pattern: timer 400 µs -> C6 */
	assert_int_equal(x.d.intervals[0], U32MAX);
	assert_int_equal(x.d.interval_ptr, 1);
	/* 6.12: nothing pushed; intervals all 0 -> no pattern either */
	fx_setup(&x, "6.12", NULL, NULL);
	x.dev.last_residency_ns = 0;
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	assert_int_equal(sel(&x), 4);
	assert_int_equal(x.d.intervals[0], 0);
	assert_int_equal(x.d.interval_ptr, 0);
	/*
	 * 6.1 fresh: pattern of eight 0 µs counts (min 0 < 400): predicted 0,
	 * latency cap 0: POLL, no escape (C1 exit 2 µs > 0).
	 */
	fx_setup(&x, "6.1", NULL, NULL);
	x.dev.last_residency_ns = 0;
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);
	assert_int_equal(x.d.bucket, 2);
	/* 6.1 with the tick stopped: the timer is used -> C6 */
	x.in.tick_stopped = true;
	assert_int_equal(sel(&x), 4);
}

static void cycle(void **unused)
{
	(void)unused;
	struct fx x;

	fx_setup(&x, "7.1", NULL, NULL);
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	assert_int_equal(sel(&x), 4);
	assert_int_equal(x.d.bucket, 2);
	x.in.got_tick = false;
	menu_reflect(&x.cfg, &x.d, &x.drv, &x.dev, 3, &x.in);  /* driver entered C3 */
	assert_int_equal(x.dev.last_state_idx, 3);
	assert_int_equal(x.d.needs_update, 1);
	assert_int_equal(x.d.tick_wakeup, 0);
	/* 170 µs measured in C3 (exit 70): 100 µs of 400 -> 7168 + 256 */
	x.dev.last_residency_ns = 170000;
	x.in.sleep_length_ns = 1000000;
	x.in.delta_tick_ns = 1000000;
	sel(&x);
	assert_int_equal(x.d.needs_update, 0);
	assert_int_equal(x.d.correction_factor[2], 7424);
	assert_int_equal(x.d.intervals[0], 100);
	assert_int_equal(x.d.interval_ptr, 1);
	/* a second select without reflect and with residency 0 pushes UINT_MAX */
	x.dev.last_residency_ns = 0;
	sel(&x);
	assert_int_equal(x.d.intervals[1], U32MAX);
	/* ... with a non-zero residency nothing */
	x.dev.last_residency_ns = 5;
	sel(&x);
	assert_int_equal(x.d.interval_ptr, 2);

	/* reflect samples got_tick */
	x.in.got_tick = true;
	menu_reflect(&x.cfg, &x.d, &x.drv, &x.dev, 1, &x.in);
	assert_int_equal(x.d.tick_wakeup, 1);

	/* enable resets everything */
	menu_enable(&x.cfg, &x.d, &x.drv, &x.dev);
	assert_int_equal(x.d.needs_update, 0);
	assert_int_equal(x.d.interval_ptr, 0);
	for (int i = 0; i < BUCKETS_MAX; i++)
		assert_int_equal(x.d.correction_factor[i], 8192);
	for (unsigned int i = 0; i < INTERVALS; i++)
		assert_int_equal(x.d.intervals[i], 0);
}

static void timer_scaling(void **unused)
{
	(void)unused;
	struct fx x;

	/*
	 * Factor 4096 (half) in bucket 2, timer 400 µs: (4096000 +
	 * 400000·4096)/8192000 = 200.5 -> 200 µs: C6 (200 µs) just fits.
	 */
	fx_setup(&x, "7.1", NULL, NULL);
	x.d.correction_factor[2] = 4096;
	x.in.sleep_length_ns = 400000;
	x.in.delta_tick_ns = 400000;
	assert_int_equal(sel(&x), 4);
	x.d.correction_factor[2] = 4095;  /* 199.95 + 0.5 -> 200 */
	assert_int_equal(sel(&x), 4);
	x.d.correction_factor[2] = 4075;  /* (4096000 + 1630000000)/8192000 = 199.47 -> 199 */
	assert_int_equal(sel(&x), 3);

	/*
	 * u64 wrap and u32 truncation: timer 2^62 ns, factor 8192:
	 * 2^62·8192 = 2^75 wraps to 0 -> timer_us = 4096000/8192000 = 0, so the
	 * prediction is 0: POLL, and no escape since C1's exit latency 2 µs > 0.
	 */
	fx_setup(&x, "7.1", NULL, NULL);
	x.in.sleep_length_ns = (int64_t)1 << 62;
	x.in.delta_tick_ns = TICK;
	assert_int_equal(sel(&x), 0);
	assert_int_equal(x.d.bucket, 5);
	/*
	 * timer 2^45 ns (≈ 9.8 h), factor 8192: (2^58 + 4096000)/8192000 =
	 * 35184372089, truncated to u32: 824633721 µs -> still a long
	 * prediction: C6 and the tick stops.
	 */
	fx_setup(&x, "7.1", NULL, NULL);
	x.in.sleep_length_ns = (int64_t)1 << 45;
	x.in.delta_tick_ns = TICK;
	assert_int_equal(sel(&x), 4);
	assert_true(x.stop_tick);
}

/* ---- per-release presets: each decision-changing commit ----------------- */

/* A three-state table POLL, C1, C2 for the µs/ns and detector cases. */
static void three(struct fx *x, int64_t c1_el, int64_t c1_tr, int64_t c2_el, int64_t c2_tr)
{
	set_state(&x->drv, 1, "C1", c1_el, c1_tr, 0);
	set_state(&x->drv, 2, "C2", c2_el, c2_tr, 0);
	x->drv.state_count = 3;
}

/*
 * c1d51f684c72 (v5.5): ns instead of µs. POLL, C1 1/2 µs, C2 1/3 µs, ring of
 * 1000 µs (no pattern below the timer), timer 2999 ns, tick running.
 * 5.5: predicted_us = (2999·8192 + 4096000)/8192000 = 3, so 3000 ns; C2's
 * 3000 fits: C2, tick kept (< TICK). 5.4: timer_us = 2 (truncated),
 * predicted_us = (2·8192 + 4096)/8192 = 2: C2's 3 µs is a miss: C1.
 */
static void v5_4_usec_timer(void **unused)
{
	(void)unused;
	struct fx x;
	const char *rel[] = { "5.4", "5.5" };
	const int want[] = { 1, 2 };

	for (int k = 0; k < 2; k++) {
		fx_setup(&x, rel[k], NULL, NULL);
		three(&x, 1000, 2000, 1000, 3000);
		fill(&x, 1000);
		x.in.sleep_length_ns = 2999;
		x.in.delta_tick_ns = TICK;
		assert_int_equal(sel(&x), want[k]);
		assert_false(x.stop_tick);
		assert_int_equal(x.d.next_timer_ns, k ? 2999 : 2);  /* 5.4 keeps µs */
	}
}

/*
 * The v5.4 latency limit is the int µs of cpuidle_governor_latency_req():
 * 999 ns is 0, the trivial exit (state 0, tick kept for POLL). 5.5: 999 ns
 * >= C1's 500 ns; pattern 3000 µs (timer 5 ms): predicted 3 ms, C1, tick
 * stopped.
 */
static void v5_4_usec_latency(void **unused)
{
	(void)unused;
	struct fx x;

	for (int k = 0; k < 2; k++) {
		fx_setup(&x, k ? "5.5" : "5.4", NULL, NULL);
		set_state(&x.drv, 1, "C1", 500, 2000, 0);
		x.drv.state_count = 2;
		fill(&x, 3000);
		x.in.sleep_length_ns = 5000000;
		x.in.delta_tick_ns = TICK;
		x.in.latency_req_ns = 999;
		assert_int_equal(sel(&x), k ? 1 : 0);
		assert_int_equal(x.stop_tick, k ? true : false);
	}
}

/*
 * The v5.4 update in µs: residency 2999 ns of C1 (exit 1 µs) is 2 µs, not
 * above 2 × 1: halved to 1 µs; timer 2 µs: factor 8192 − 1024 + 1024·1/2 =
 * 7680. 5.5: 2999 > 2000 ns: 1999 ns, ratio 1024·1999/2999 = 682: factor
 * 8192 − 1024 + 682 = 7850; the ring gets 1 µs either way.
 */
static void v5_4_usec_update(void **unused)
{
	(void)unused;
	struct fx x;

	for (int k = 0; k < 2; k++) {
		fx_setup(&x, k ? "5.5" : "5.4", NULL, NULL);
		three(&x, 1000, 2000, 1000, 3000);
		fill(&x, 1000);
		x.in.sleep_length_ns = 2999;
		x.in.delta_tick_ns = TICK;
		sel(&x);
		menu_reflect(&x.cfg, &x.d, &x.drv, &x.dev, 1, &x.in);
		x.dev.last_residency_ns = 2999;
		sel(&x);
		assert_int_equal(x.d.correction_factor[0], k ? 7850 : 7680);
		assert_int_equal(x.d.intervals[0], 1);
	}
}

/*
 * v5.13 "Take negative sleep length values into account". Timer −1000 ns,
 * delta_tick −1000 ns, pattern 10 µs, tick running. 5.13: both become 0:
 * the timer is below C1's residency: POLL, tick kept. 5.5: the timer is the
 * u64 2^64 − 1000: prediction min(1236950580 (the u32 of the wrapped
 * scaling), 10) µs = 10 µs, C1 (2 µs); a negative delta_tick fits every
 * state as u64, so the retained-tick refinement keeps C1.
 */
static void v5_13_negative_sleep(void **unused)
{
	(void)unused;
	struct fx x;

	fx_setup(&x, "5.13", NULL, NULL);
	fill(&x, 10);
	x.in.sleep_length_ns = -1000;
	x.in.delta_tick_ns = -1000;
	assert_int_equal(sel(&x), 0);
	assert_false(x.stop_tick);
	fx_setup(&x, "5.5", NULL, NULL);
	fill(&x, 10);
	x.in.sleep_length_ns = -1000;
	x.in.delta_tick_ns = -1000;
	assert_int_equal(sel(&x), 1);
	assert_false(x.stop_tick);
	assert_int_equal(x.d.bucket, 5);
	/*
	 * timer 10 µs, delta_tick −1000: 5.13 compares signed, C1 does not fit,
	 * the refinement goes down to POLL; 5.5 (unsigned) keeps C1.
	 */
	const char *rel[] = { "5.5", "5.13", "6.1" };
	const int want[] = { 1, 0, 0 };
	for (int k = 0; k < 3; k++) {
		fx_setup(&x, rel[k], NULL, NULL);
		fill(&x, 10);
		x.in.sleep_length_ns = 10000;
		x.in.delta_tick_ns = -1000;
		assert_int_equal(sel(&x), want[k]);
		assert_false(x.stop_tick);
	}
}

/*
 * The stopped-tick override before v5.13 uses delta_next (the out-param),
 * from v5.13 the sleep length. Pattern 10 µs, timer 5 ms, delta 150 µs:
 * 5.13 predicts 5 ms: C6; 5.5 predicts 150 µs: C3 (C6's 200 µs misses).
 */
static void v5_13_stopped_override(void **unused)
{
	(void)unused;
	struct fx x;

	for (int k = 0; k < 2; k++) {
		fx_setup(&x, k ? "5.13" : "5.5", NULL, NULL);
		fill(&x, 10);
		x.in.tick_stopped = true;
		x.in.sleep_length_ns = 5000000;
		x.in.delta_tick_ns = 150000;
		assert_int_equal(sel(&x), k ? 4 : 3);
	}
}

/*
 * 38f83090f515 (v6.13): no iowait. The 1 µs pattern (no timer query), C1
 * 1/2 µs, one iowaiter: 6.12 caps the latency at 1000/11 ns and keeps POLL
 * in bucket 11; 6.13 escapes to C1 (cap = prediction, 1 µs) in bucket 5.
 */
static void v6_13_no_iowait(void **unused)
{
	(void)unused;
	struct fx x;

	escape_setup(&x, "6.12", NULL, NULL, 1000, 2000);
	x.in.nr_iowait = 1;
	assert_int_equal(sel(&x), 0);
	assert_int_equal(x.d.bucket, 11);
	escape_setup(&x, "6.13", NULL, NULL, 1000, 2000);
	x.in.nr_iowait = 1;
	assert_int_equal(sel(&x), 1);
	assert_int_equal(x.d.bucket, 5);
}

/*
 * The v6.15 detector and 85975daeaa4d, until its revert in v6.18. Ring
 * {1000 ×4, 1100, UINT_MAX ×3}, timer 10 ms, tick running, POLL, C1 2/2 µs,
 * C2 10 µs / 1.2 ms. 6.13 (one-sided, the UINT_MAX samples beyond INT_MAX
 * left out): 5 samples, variance 1600 > 400, 5·4 <= 24: no pattern, the
 * timer: C2, tick stopped. 6.15 and 6.17: max of >= 4 samples, 1100 µs:
 * C2 misses, the tick runs: C1's 2 µs is the prediction: C1, tick kept.
 * 6.18: the revert: as 6.13.
 */
static void v6_15_max_when_in_doubt(void **unused)
{
	(void)unused;
	const uint32_t five[8] = { U32MAX, 1000, 1000, U32MAX, 1000, 1000, 1100, U32MAX };
	const char *rel[] = { "6.13", "6.15", "6.17", "6.18" };
	const int want[] = { 2, 1, 1, 2 };
	struct fx x;

	for (int k = 0; k < 4; k++) {
		fx_setup(&x, rel[k], NULL, NULL);
		three(&x, 2000, 2000, 10000, 1200000);
		set8(&x.d, five);
		x.in.sleep_length_ns = 10000000;
		x.in.delta_tick_ns = 10000000;
		assert_int_equal(sel(&x), want[k]);
		assert_int_equal(x.stop_tick, want[k] == 2);
	}
}

/*
 * v6.17: 779b1a1cb13a (the exit-latency break first) and fa3fa55de0d6
 * (UINT_MAX for a rejected entry). The 779b1a1cb13a example of
 * latency_order_6_12_vs_6_18: 6.15 still returns state 2 despite QoS 20 µs,
 * 6.17 returns 1. A fresh select with last residency 0: 6.17 pushes
 * UINT_MAX, 6.15 pushes nothing.
 */
static void v6_17_latency_first_rejected(void **unused)
{
	(void)unused;
	struct fx x;

	for (int k = 0; k < 2; k++) {
		fx_setup(&x, k ? "6.17" : "6.15", NULL, NULL);
		x.drv.state_count = 3;
		set_state(&x.drv, 1, "S1", 5000, 5000, 0);
		set_state(&x.drv, 2, "S2", 200000, 2000000, 0);
		fill(&x, 1000);
		x.in.sleep_length_ns = 50000000;
		x.in.delta_tick_ns = 50000000;
		x.in.tick_stopped = true;
		x.in.latency_req_ns = 20000;
		assert_int_equal(sel(&x), k ? 1 : 2);

		fx_setup(&x, k ? "6.17" : "6.15", NULL, NULL);
		x.dev.last_residency_ns = 0;
		x.in.sleep_length_ns = 400000;
		x.in.delta_tick_ns = 400000;
		sel(&x);
		assert_int_equal(x.d.intervals[0], k ? U32MAX : 0);
		assert_int_equal(x.d.interval_ptr, k ? 1 : 0);
	}
}

/*
 * db86f55bf81a (v6.18): the escape also needs exit latency <= prediction.
 * 1 µs pattern, C1 2/2 µs: 6.17 escapes to C1, 6.18 stays in POLL.
 */
static void v6_18_escape_exit_latency(void **unused)
{
	(void)unused;
	struct fx x;

	escape_setup(&x, "6.17", NULL, NULL, 2000, 2000);
	assert_int_equal(sel(&x), 1);
	escape_setup(&x, "6.18", NULL, NULL, 2000, 2000);
	assert_int_equal(sel(&x), 0);
}

/*
 * 80606f4eb8d7 (v7.0) and e57c2bf2e89d (v7.1) with the tick stopped.
 * Pattern 5 µs, timer 150 µs. 6.19: no timer query below 15 µs, the
 * override takes the KTIME_MAX "timer": C6. 7.0: the timer is queried and
 * the override takes it, 150 µs: C3 (C6's 200 µs misses). 7.1: 150 µs is
 * not beyond 2 ticks: the 5 µs prediction stays: C1.
 */
static void v7_0_timers_with_tick_stopped(void **unused)
{
	(void)unused;
	const char *rel[] = { "6.19", "7.0", "7.1" };
	const int want[] = { 4, 3, 1 };
	struct fx x;

	for (int k = 0; k < 3; k++) {
		fx_setup(&x, rel[k], NULL, NULL);
		fill(&x, 5);
		x.in.tick_stopped = true;
		x.in.sleep_length_ns = 150000;
		x.in.delta_tick_ns = 150000;
		assert_int_equal(sel(&x), want[k]);
		assert_int_equal(x.d.next_timer_ns, k ? 150000 : (uint64_t)IL_KTIME_MAX);
	}
}

/* Rows of releases whose texts changed no decision decide as their neighbour. */
static void same_decisions_rows(void **unused)
{
	(void)unused;
	assert_int_equal(il_gov_preset_find(&il_gov_menu, "6.1")->features,
			 il_gov_preset_find(&il_gov_menu, "5.13")->features);
	assert_int_equal(il_gov_preset_find(&il_gov_menu, "6.12")->features,
			 il_gov_preset_find(&il_gov_menu, "6.6")->features);
	/* 5.14 (types), 5.17 (comment), 6.11 (comments), 6.16 (no change) */
	assert_string_equal(il_gov_preset_for_release(&il_gov_menu, "5.14")->release, "5.13");
	assert_string_equal(il_gov_preset_for_release(&il_gov_menu, "5.17")->release, "5.13");
	assert_string_equal(il_gov_preset_for_release(&il_gov_menu, "6.11")->release, "6.6");
	assert_string_equal(il_gov_preset_for_release(&il_gov_menu, "6.16")->release, "6.15");
}

/* ---- configuration and spec strings ------------------------------------ */

static void configure_and_specs(void **unused)
{
	(void)unused;
	struct il_err err;
	char buf[256];
	struct il_gov *g;

	assert_string_equal(il_gov_menu.name, "menu");
	assert_int_equal(il_gov_menu.rating, 20);
	il_gov_preset_list(&il_gov_menu, buf, sizeof(buf));
	assert_string_equal(buf, "5.4 5.5 5.13 6.1 6.6 6.12 6.13 6.15 6.17 6.18 6.19 7.0 7.1");
	assert_int_equal(il_gov_menu.cpu_data_size, 144);

	g = il_gov_new("menu", 2, &err);
	assert_non_null(g);
	assert_string_equal(g->spec, "menu@7.1");
	assert_int_equal(((struct menu_config *)g->config)->features, F_V7_1);
	il_gov_describe(g, buf, sizeof(buf));
	assert_string_equal(buf, "menu@7.1 (7.0 + e57c2bf2e89d)");
	assert_int_equal(il_gov_set_param(g, "latency", "1", &err), -ENOENT);
	assert_non_null(strstr(err.msg, "latency"));
	il_gov_free(g);

	g = il_gov_new("menu@6.12+no-poll-escape", 1, &err);
	assert_non_null(g);
	assert_int_equal(((struct menu_config *)g->config)->features, F_V6_12);
	assert_int_equal(((struct menu_config *)g->config)->escape, ESCAPE_NONE);
	il_gov_describe(g, buf, sizeof(buf));
	assert_non_null(strstr(buf, "menu@6.12 (5484e31bbbff"));
	assert_non_null(strstr(buf, "f3c9d49f0f2a) +no-poll-escape"));
	il_gov_free(g);

	g = il_gov_new("menu@6.1", 1, &err);
	assert_non_null(g);
	assert_int_equal(((struct menu_config *)g->config)->features, F_V5_13);
	assert_int_equal(((struct menu_config *)g->config)->escape, ESCAPE_ANY);
	il_gov_free(g);

	g = il_gov_new("menu@6.18+poll-escape=20us", 1, &err);
	assert_non_null(g);
	assert_int_equal(((struct menu_config *)g->config)->escape, ESCAPE_BELOW);
	assert_int_equal(((struct menu_config *)g->config)->escape_below_ns, 20000);
	il_gov_free(g);

	g = il_gov_new("menu@6.12+poll-escape-15us", 1, &err);
	assert_non_null(g);
	assert_int_equal(((struct menu_config *)g->config)->escape_below_ns, 15000);
	il_gov_free(g);

	const char *bad[] = { "menu+bogus", "menu@6.14", "menu+poll-escape",
			      "menu+poll-escape=abc", "menu+poll-escape=-3us",
			      "menu+no-poll-escape=1", "menu+poll-escape-15us=2",
			      "menu+no-poll-escape+poll-escape-15us" };
	const char *named[] = { "bogus", "6.14", "poll-escape", "abc", "-3us",
				"no-poll-escape", "poll-escape-15us", "poll-escape-15us" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		il_err_clear(&err);
		assert_null(il_gov_new(bad[i], 1, &err));
		assert_non_null(strstr(err.msg, named[i]));
	}

	/* no preset for a release the table does not have */
	assert_null(il_gov_preset_find(&il_gov_menu, "5.10"));
	assert_null(il_gov_new("menu@5.10", 1, &err));
	assert_non_null(strstr(err.msg, "5.10"));
}

static void presets_are_history_sets(void **unused)
{
	(void)unused;
	/* the reference switch is no kernel change: no preset has it */
	for (size_t i = 0; i < sizeof(menu_presets) / sizeof(menu_presets[0]); i++)
		assert_int_equal(menu_presets[i].features & F_REFERENCE, 0);
}

/* each later preset contains the earlier one's entries */
_Static_assert((F_V5_5 & ~F_V5_13) == 0 && (F_V5_13 & ~F_V6_6) == 0 && (F_V6_6 & ~F_V6_13) == 0 &&
	       (F_V6_13 & ~F_V6_15) == 0 && (F_V6_15 & ~F_V6_17) == 0 && (F_V6_17 & ~F_V6_18) == 0 &&
	       (F_V6_18 & ~F_V6_19) == 0 && (F_V6_19 & ~F_V7_0) == 0 && (F_V7_0 & ~F_V7_1) == 0,
	       "presets are history sets");
/* 07d815701274 is v6.19 material (linux-pm "Applied as 6.19 material", 6.19-rc1 pull) */
_Static_assert((F_V6_18 & F_ESCAPE_RES_THRESH) == 0 && (F_V6_19 & ~F_V6_18) == F_ESCAPE_RES_THRESH,
	       "6.19 is 6.18 + 07d815701274");
/* 80606f4eb8d7 is in the v7.0 pull, e57c2bf2e89d in v7.1 */
_Static_assert((F_V7_0 & ~F_V6_19) == F_TIMERS_STOPPED && (F_V7_1 & ~F_V7_0) == F_SAFE_TIMER_RANGE,
	       "7.0 is 6.19 + 80606f4eb8d7, 7.1 is 7.0 + e57c2bf2e89d");
/* 85975daeaa4d is v6.15 (merge window), its revert 10fad4012234 v6.18-rc3 */
_Static_assert((F_V6_15 & F_MAX_WHEN_DOUBT) && !(F_V6_17 & F_REVERT_MAX) && (F_V6_18 & F_REVERT_MAX),
	       "6.15 .. 6.17 return max when in doubt");
_Static_assert((F_V6_18 & F_MAX_WHEN_DOUBT) && (F_V6_18 & F_REVERT_MAX),
	       "6.18 has 85975daeaa4d and its revert");
_Static_assert(sizeof(struct menu_cpu) == 144, "menu_cpu is 144 bytes");

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bucket_edges),
		cmocka_unit_test(intervals_ring),
		cmocka_unit_test(ring_cache),
		cmocka_unit_test(div_small_exact),
		cmocka_unit_test(typical_two_sided_cases),
		cmocka_unit_test(typical_two_sided_divisor_rules),
		cmocka_unit_test(typical_two_sided_wrap),
		cmocka_unit_test(typical_one_sided_cases),
		cmocka_unit_test(typical_matches_reference),
		cmocka_unit_test(kernel_shape_on_logs),
		cmocka_unit_test(update_rules),
		cmocka_unit_test(trivial_exits),
		cmocka_unit_test(walk_residency_and_latency),
		cmocka_unit_test(latency_order_6_12_vs_6_18),
		cmocka_unit_test(poll_escape_presets),
		cmocka_unit_test(poll_escape_timer_gate),
		cmocka_unit_test(poll_escape_patches),
		cmocka_unit_test(stopped_tick_presets),
		cmocka_unit_test(stopped_tick_in_walk),
		cmocka_unit_test(tick_retain_refine),
		cmocka_unit_test(iowait_multiplier),
		cmocka_unit_test(first_select_and_rejected),
		cmocka_unit_test(cycle),
		cmocka_unit_test(timer_scaling),
		cmocka_unit_test(v5_4_usec_timer),
		cmocka_unit_test(v5_4_usec_latency),
		cmocka_unit_test(v5_4_usec_update),
		cmocka_unit_test(v5_13_negative_sleep),
		cmocka_unit_test(v5_13_stopped_override),
		cmocka_unit_test(v6_13_no_iowait),
		cmocka_unit_test(v6_15_max_when_in_doubt),
		cmocka_unit_test(v6_17_latency_first_rejected),
		cmocka_unit_test(v6_18_escape_exit_latency),
		cmocka_unit_test(v7_0_timers_with_tick_stopped),
		cmocka_unit_test(same_decisions_rows),
		cmocka_unit_test(configure_and_specs),
		cmocka_unit_test(presets_are_history_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
