// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TEO ("timer events oriented") cpuidle governor,
 * drivers/cpuidle/governors/teo.c, one preset per mainline release whose
 * text decides differently from the one before (docs/gov-teo.md has the
 * commits, blob ids and how each text was checked):
 *
 *   teo@5.4   the 2019 TEO in µs: per-state hits, misses and early hits,
 *             an 8-value ring of idle durations (whose index runs to 8, so
 *             every ninth value is written past the ring), time_span_ns;
 *   teo@5.5   the v5.5 series and c1d51f684c72: ns, disabled states' metrics,
 *             last_residency_ns, prev_max_early_idx, the ring fix (blob
 *             6deaaf5f05b5);
 *   teo@5.13  very short idles and negative sleep lengths (v5.13);
 *   teo@5.14  c410a9a142f1 + 77577558f25d + c2ec772b8740: bins of hits and
 *             intercepts, NR_RECENT ring (blob d9262db79cae, also 6.1);
 *   teo@6.3   9ce0f7c4bc64 util-awareness (blob 2a2be4f45b70);
 *   teo@6.6   the v6.6 series: pattern first, timers only when needed,
 *             tick_hits (blob 7244f71c59c5);
 *   teo@6.11  0a2998fa48f0 + 449914398083 + 4b20b07ce72f (blob
 *             f2992f92d8db, also 6.12);
 *   teo@6.14  the v6.14 series: short_idles, tick_intercepts counted for
 *             TICK_NSEC <= measured as shipped, artificial_wakeup (blob
 *             8fe5e1b47ef9; 6.16 .. 6.18 bfa55c1eab5b, comments);
 *   teo@6.19  the v6.19 series: teo_decay to 0, s64, tick_wakeup and
 *             total_tick, min_idx with the tick stopped (blob 81ac5fd58a1c);
 *   teo@7.0   4bd2221f231d, 60836533b4c7, 475ca3470b37, f36de72673ad,
 *             a971f984b845 (text rebuilt from postings);
 *   teo@7.1   106a2662e655 "Rearrange stopped tick handling" (rebuilt).
 *
 * The eras differ in nearly every step of the update and of the decision,
 * so each has its own update, decision and reflect; teo_select() from 6.12
 * on is one function (select_new: the shared prologue, the era's decision,
 * the shared end, which 6.1 uses too), and the bin helpers, the candidate
 * lookup and the shallower-state search are shared. Written from the
 * kernel's behaviour; its code and comments are not reproduced. Metric
 * arithmetic is 32-bit unsigned as in the kernel; time arithmetic is 64-bit
 * and wraps (the kernel builds with -fno-strict-overflow). docs/gov-teo.md
 * maps each preset to the change history it contains.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/governor.h"

#if defined(__SSE2__) && !defined(TEO_NO_SIMD)
#include <emmintrin.h>
#endif

#define TEO_PULSE 1024                 /* added to a metric on an event */
#define TEO_DECAY_SHIFT 3              /* each update removes value >> 3 */
#define TEO_NR_RECENT 9                /* 6.1: ring of recent intercepts */
#define TEO_INTERVALS 8                /* 5.4 .. 5.13: ring of idle durations */
#define TEO_LATENCY_THRESHOLD_NS (IL_RESIDENCY_THRESHOLD_NS / 2)
#define TEO_SAFE_TIMER_RANGE_TICKS 2   /* gov.h SAFE_TIMER_RANGE_NS = 2 * TICK_NSEC (7.1) */

/*
 * Feature bits, one per entry of the change history (docs/gov-teo.md) that
 * the code tells apart. Some entries rewrote update, select and reflect
 * together (an era: the newest era bit a preset has picks the bodies);
 * the others change one rule inside an era and are tested where that rule
 * is. A later bit may undo an earlier one's rule (TF_STOPPED_SAFE drops
 * the min_idx walk that TF_ZERO_BINS refines), as the texts did.
 */
enum {
	TF_NO_RECENT = 1u << 0,  /* era 6.11: 0a2998fa48f0 + 449914398083 + 4b20b07ce72f */
	TF_JAN_2025 = 1u << 1,   /* era 6.14: the v6.14 series (65e18e654475, d619b5cc6780 ...) */
	TF_NOV_2025 = 1u << 2,   /* era 6.19: the v6.19 series (teo_decay, 083654ded547 ...) */
	TF_NS55 = 1u << 3,       /* era 5.5: the v5.5 series + c1d51f684c72 (ns) */
	TF_SHORT513 = 1u << 4,   /* 5.13: very short idle times, negative sleep length */
	TF_BINS514 = 1u << 5,    /* era 5.14: c410a9a142f1 + 77577558f25d + c2ec772b8740 */
	TF_UTIL = 1u << 6,       /* 9ce0f7c4bc64 util-awareness (6.3, reverted in 6.11) */
	TF_LAZY66 = 1u << 7,     /* era 6.6: 21d28cd2fa5f, 6da8f9ba5a87, 2662342079f5,
				    3f0b0966b309, 04bae4e2267d */
	TF_FAKE_TICK = 1u << 8,  /* 60836533b4c7 "Avoid fake intercepts produced by tick" */
	TF_HIT_LAT = 1u << 9,    /* f36de72673ad hit needs sleep_length - measured < lat/2 */
	TF_TICK_2_3 = 1u << 10,  /* 475ca3470b37 keep the tick if 3 * ti >= 2 * total */
	TF_INTERCEPT_MAX = 1u << 11, /* a971f984b845 intercept_max_idx */
	TF_ZERO_BINS = 1u << 12, /* 4bd2221f231d skip states with zero-size bins */
	TF_STOPPED_SAFE = 1u << 13, /* 106a2662e655 stopped tick: SAFE_TIMER_RANGE_NS */
	/* not a kernel change: the kernel-shaped state loop (teo_state_loop; tests only) */
	TF_REFERENCE = 1u << 31,
};

#define TF_V5_5 TF_NS55
#define TF_V5_13 (TF_V5_5 | TF_SHORT513)
#define TF_V5_14 (TF_V5_13 | TF_BINS514)
#define TF_V6_1 TF_V5_14
#define TF_V6_3 (TF_V5_14 | TF_UTIL)
#define TF_V6_6 (TF_V6_3 | TF_LAZY66)
#define TF_V6_11 ((TF_V6_6 & ~TF_UTIL) | TF_NO_RECENT)
#define TF_V6_12 TF_V6_11
#define TF_V6_14 (TF_V6_11 | TF_JAN_2025)
#define TF_V6_18 TF_V6_14
#define TF_V6_19 (TF_V6_14 | TF_NOV_2025)
#define TF_V7_0 (TF_V6_19 | TF_FAKE_TICK | TF_HIT_LAT | TF_TICK_2_3 | TF_INTERCEPT_MAX | \
		 TF_ZERO_BINS)
#define TF_V7_1 (TF_V7_0 | TF_STOPPED_SAFE)

/*
 * Rows for releases that decide as the row before (6.1, 6.12, 6.18) stay, as
 * specs name them.
 */
static const struct il_gov_preset teo_presets[] = {
	{ "5.4", 0, "2019 TEO in µs (text rebuilt: 6deaaf5f05b5 less the v5.5 series)" },
	{ "5.5", TF_V5_5, "v5.5 series + c1d51f684c72; release blob 6deaaf5f05b5" },
	{ "5.13", TF_V5_13, "short idle times, negative sleep length; text ac4bb27d69b0" },
	{ "5.14", TF_V5_14, "c410a9a142f1 + 77577558f25d + c2ec772b8740; release blob d9262db79cae" },
	{ "6.1", TF_V6_1, "c2ec772b8740 + 4adae7dd10db; release blob d9262db79cae" },
	{ "6.3", TF_V6_3, "9ce0f7c4bc64 (util-awareness); text of release blob 2a2be4f45b70" },
	{ "6.6", TF_V6_6, "21d28cd2fa5f + 6da8f9ba5a87 + 2662342079f5 + 3f0b0966b309 + "
			  "04bae4e2267d; release blob 7244f71c59c5" },
	{ "6.11", TF_V6_11, "0a2998fa48f0 + 449914398083 + 4b20b07ce72f; release blob f2992f92d8db" },
	{ "6.12", TF_V6_12, "449914398083 + 4b20b07ce72f; release blob f2992f92d8db" },
	{ "6.14", TF_V6_14, "v6.14 series (d619b5cc6780, 13ed5c4a6d9c, 65e18e654475 ...); "
			    "release blob 8fe5e1b47ef9" },
	{ "6.18", TF_V6_18, "a7bee4e7f780 (comments); release blob bfa55c1eab5b" },
	{ "6.19", TF_V6_19, "v6.19 series (083654ded547, 50db438231dc, a03b2011808a ...); "
			    "release blob 81ac5fd58a1c" },
	{ "7.0", TF_V7_0, "4bd2221f231d + 60836533b4c7 + 475ca3470b37 + f36de72673ad + "
			  "a971f984b845" },
	{ "7.1", TF_V7_1, "7.0 + 106a2662e655" },
};

/* Which bodies of update, select and reflect a set of features runs. */
enum teo_era { TEO_5_4, TEO_5_5, TEO_6_1, TEO_6_6, TEO_6_12, TEO_6_18, TEO_7_1 };

static enum teo_era teo_era_of(unsigned int features)
{
	if (features & TF_NOV_2025)
		return TEO_7_1;
	if (features & TF_JAN_2025)
		return TEO_6_18;
	if (features & TF_NO_RECENT)
		return TEO_6_12;
	if (features & TF_LAZY66)
		return TEO_6_6;
	if (features & TF_BINS514)
		return TEO_6_1;
	if (features & TF_NS55)
		return TEO_5_5;
	return TEO_5_4;
}

/*
 * Which select runs: the era's, or with TF_REFERENCE its kernel-shaped scan.
 * 7.1, the default, is last so that the dispatch reaches it with one test.
 */
enum teo_select_fn { SEL_54, SEL_55, SEL_61, SEL_66, SEL_612, SEL_618, SEL_66_REF, SEL_612_REF,
		     SEL_618_REF, SEL_71_REF, SEL_71 };

struct teo_config {
	enum teo_era era;
	enum teo_select_fn select;
	unsigned int features;         /* TF_* */
};

/*
 * Per-CPU data, the union of all eras' struct teo_cpu. Bin i covers idle
 * durations in [tr(i), tr(i+1)), the last one up to infinity. Its two
 * metrics are packed in one 64-bit word, intercepts in the low and hits in
 * the high half, so that decaying and summing bins works on both at once.
 * That is exact because no metric can come near 2^32: each update adds at
 * most one PULSE and removes an eighth, so a metric stays below 8 * PULSE +
 * PULSE, and ten bins' worth below 2^17; no carry crosses the halves.
 */
#define TEO_HIT_SHIFT 32

struct teo_cpu {
	uint64_t bins[IL_STATE_MAX] __attribute__((aligned(16))); /* intercepts | hits << 32 */
	uint32_t recent[IL_STATE_MAX]; /* 6.1: intercepts of each bin in the ring */
	int64_t sleep_length_ns;       /* at the last select, KTIME_MAX if not queried */
	int64_t time_span_ns;          /* 6.1/6.12: select clock, then span to reflect */
	uint32_t total;                /* grand total of the metrics */
	uint32_t total_tick;           /* 7.1: tick wakeups */
	uint32_t tick_intercepts;      /* 6.18/7.1: intercepts versus TICK_NSEC */
	uint32_t short_idles;          /* 6.18/7.1: wakeups after short idle */
	uint32_t tick_hits;            /* 6.12: hits beyond a sub-tick deepest state */
	bool tick_wakeup;              /* 7.1: last wakeup was by the tick */
	bool artificial_wakeup;        /* 6.18: last wakeup came from a safety net */
	int next_recent_idx;           /* 6.1: next ring slot */
	int recent_idx[TEO_NR_RECENT]; /* 6.1: bin of each recent intercept, -1 none */
	/* 5.4 .. 5.13: struct teo_idle_state of each state, the ring of durations */
	uint32_t early_hits[IL_STATE_MAX];
	uint32_t hits[IL_STATE_MAX];
	uint32_t misses[IL_STATE_MAX];
	uint64_t intervals[TEO_INTERVALS + 1]; /* 5.4 writes one past the ring */
	int interval_idx;
};

/* total .. short_idles are decayed together as one 4-lane vector. */
_Static_assert(offsetof(struct teo_cpu, short_idles) == offsetof(struct teo_cpu, total) + 12,
	       "teo_cpu counts must be contiguous");

static inline uint32_t lo32(uint64_t v)
{
	return (uint32_t)v;
}

static inline uint32_t hi32(uint64_t v)
{
	return (uint32_t)(v >> TEO_HIT_SHIFT);
}

static inline uint32_t bin_intercepts(const struct teo_cpu *cpu, int i)
{
	return lo32(cpu->bins[i]);
}

/* Sums of the bins below the candidate state, for the candidate scan. */
struct teo_sums {
	uint32_t hits;
	uint32_t intercepts;
	uint32_t all_intercepts;       /* of all bins, not only those below (6.12) */
};

/*
 * Decay the hits and intercepts of bins 0..n-1; return the sum of all the
 * decayed values (u32) and put the sums over the bins below "below" into
 * *sums. floor selects teo_decay() of 7.1 (a value below 8 drops to 0) over
 * the older "m -= m >> 3".
 */
#if defined(__SSE2__) && !defined(TEO_NO_SIMD)
/*
 * SSE2: two bins per vector. With an odd n the vector also holds bin n,
 * which is 0 and stays 0: bins from state_count up are never credited, and
 * the governor is re-enabled (zeroed) whenever a driver's table changes.
 * The sums below "below" are the sums of all bins less those from "below"
 * up (usually just the deepest state's); in each half the total covers the
 * part taken away, so the 64-bit subtraction cannot borrow across halves.
 */
static inline __attribute__((always_inline)) uint32_t
decay_bins(struct teo_cpu *cpu, int n, bool floor, int below, struct teo_sums *sums)
{
	__m128i all = _mm_setzero_si128(), zero = all;
	uint64_t pair, under;

	for (int i = 0; i < n; i += 2) {
		__m128i v = _mm_loadu_si128((const __m128i *)&cpu->bins[i]);
		__m128i delta = _mm_srli_epi32(v, TEO_DECAY_SHIFT);

		v = _mm_sub_epi32(v, delta);
		if (floor)
			v = _mm_andnot_si128(_mm_cmpeq_epi32(delta, zero), v);
		_mm_storeu_si128((__m128i *)&cpu->bins[i], v);
		all = _mm_add_epi32(all, v);
	}
	/* lanes: intercepts, hits, intercepts, hits -> one (intercepts, hits) pair */
	all = _mm_add_epi32(all, _mm_unpackhi_epi64(all, all));
	pair = (uint64_t)_mm_cvtsi128_si64(all);
	under = pair;
	for (int i = below > 0 ? below : 0; i < n; i++)
		under -= cpu->bins[i];
	sums->hits = hi32(under);
	sums->intercepts = lo32(under);
	sums->all_intercepts = lo32(pair);
	return lo32(pair) + hi32(pair);
}
#else
#define TEO_LANE_LOW3 0x1fffffff1fffffffull   /* v >> 3 without the crossing bits */
#define TEO_LANE_BIAS 0x7fffffff7fffffffull   /* sets bit 31 of a non-zero half */
#define TEO_LANE_BIT0 0x0000000100000001ull

/* Portable: both metrics of a bin in one 64-bit operation. */
static inline __attribute__((always_inline)) uint32_t
decay_bins(struct teo_cpu *cpu, int n, bool floor, int below, struct teo_sums *sums)
{
	uint64_t all = 0, under = 0;

	for (int i = 0; i < n; i++) {
		uint64_t v = cpu->bins[i];
		uint64_t delta = (v >> TEO_DECAY_SHIFT) & TEO_LANE_LOW3;

		v -= delta;
		if (floor) {
			/* all-ones in each half whose eighth was non-zero */
			uint64_t nonzero = ((delta + TEO_LANE_BIAS) >> 31) & TEO_LANE_BIT0;

			v &= nonzero * 0xffffffffull;
		}
		cpu->bins[i] = v;
		all += v;
		under += i < below ? v : 0;
	}
	sums->hits = hi32(under);
	sums->intercepts = lo32(under);
	sums->all_intercepts = lo32(all);
	return lo32(all) + hi32(all);
}
#endif

/* The sums of bins 0..n-1 and of those below "below" when no update ran. */
static inline void sum_bins(const struct teo_cpu *cpu, int n, int below, struct teo_sums *sums)
{
	uint64_t all = 0, under = 0;

	for (int i = 0; i < n; i++) {
		if (i == below)
			under = all;
		all += cpu->bins[i];
	}
	if (below >= n)
		under = all;
	sums->hits = hi32(under);
	sums->intercepts = lo32(under);
	sums->all_intercepts = lo32(all);
}

/* Credit a PULSE to hits or intercepts of bin i, keeping the sums below in step. */
static inline void add_hit(struct teo_cpu *cpu, int i, int below, struct teo_sums *sums)
{
	cpu->bins[i] += (uint64_t)TEO_PULSE << TEO_HIT_SHIFT;
	if (i < below)
		sums->hits += TEO_PULSE;
}

static inline void add_intercept(struct teo_cpu *cpu, int i, int below, struct teo_sums *sums)
{
	cpu->bins[i] += TEO_PULSE;
	sums->all_intercepts += TEO_PULSE;
	if (i < below)
		sums->intercepts += TEO_PULSE;
}

/* Without the sums (6.1). */
static inline void add_hit_only(struct teo_cpu *cpu, int i)
{
	cpu->bins[i] += (uint64_t)TEO_PULSE << TEO_HIT_SHIFT;
}

static inline void add_intercept_only(struct teo_cpu *cpu, int i)
{
	cpu->bins[i] += TEO_PULSE;
}

static inline int64_t tr_ns(const struct il_driver *drv, int i)
{
	return drv->states[i].target_residency_ns;
}

static inline int64_t el_ns(const struct il_driver *drv, int i)
{
	return drv->states[i].exit_latency_ns;
}

static inline bool polling(const struct il_driver *drv, int i)
{
	return drv->states[i].flags & IL_FLAG_POLLING;
}

/* Signed 64-bit subtraction with the kernel's wrap-around semantics. */
static inline int64_t sub_wrap(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

/* Decay of a single metric before Nov 2025: a remainder below 8 stays. */
static inline void decay_old(uint32_t *m)
{
	*m -= *m >> TEO_DECAY_SHIFT;
}

/* teo_decay() of 7.1: a value whose eighth is 0 drops to 0 (SIMD builds use decay_counts). */
static inline __attribute__((unused)) void decay_floor(uint32_t *m)
{
	uint32_t delta = *m >> TEO_DECAY_SHIFT;

	*m = delta ? *m - delta : 0;
}

/*
 * Decay total, total_tick, tick_intercepts and short_idles in one go, each
 * as decay_floor (7.1) or decay_old (6.18) would. Each is used only after its
 * decay in teo_update, so doing all four first changes nothing.
 */
static inline void decay_counts(struct teo_cpu *cpu, bool floor)
{
#if defined(__SSE2__) && !defined(TEO_NO_SIMD)
	__m128i v = _mm_loadu_si128((const __m128i *)&cpu->total);
	__m128i delta = _mm_srli_epi32(v, TEO_DECAY_SHIFT);

	v = _mm_sub_epi32(v, delta);
	if (floor)
		v = _mm_andnot_si128(_mm_cmpeq_epi32(delta, _mm_setzero_si128()), v);
	_mm_storeu_si128((__m128i *)&cpu->total, v);
#else
	uint32_t *m[] = { &cpu->total, &cpu->total_tick, &cpu->tick_intercepts,
			  &cpu->short_idles };

	for (int i = 0; i < 4; i++) {
		if (floor)
			decay_floor(m[i]);
		else
			decay_old(m[i]);
	}
#endif
}

/*
 * The bins the sleep length (idx_timer) and the measured idle duration
 * (idx_duration) fall into: the last state whose target residency is within
 * the sleep length, and among those the last one also within the measured
 * duration (0 if none). The last match is the first one met from the top,
 * whatever the order of the residencies. measured is s64 in 7.1 and u64
 * before (the residency is then compared as unsigned).
 */
static inline void timer_bins_s64(const struct il_driver *drv, int n, int64_t sleep_length,
				  int64_t measured, int *idx_timer, int *idx_duration)
{
	int t = n - 1, d;

	while (t > 0 && tr_ns(drv, t) > sleep_length)
		t--;
	for (d = t; d > 0 && tr_ns(drv, d) > measured; d--)
		;
	*idx_timer = t;
	*idx_duration = d;
}

static inline void timer_bins_u64(const struct il_driver *drv, int n, int64_t sleep_length,
				  uint64_t measured, int *idx_timer, int *idx_duration)
{
	int t = n - 1, d;

	while (t > 0 && tr_ns(drv, t) > sleep_length)
		t--;
	for (d = t; d > 0 && (uint64_t)tr_ns(drv, d) > measured; d--)
		;
	*idx_timer = t;
	*idx_duration = d;
}

/*
 * teo_find_shallower_state(): walk down from idx to the first enabled state
 * whose target residency fits duration_ns; the last enabled one tried if
 * none fits; idx itself if nothing shallower is enabled.
 */
static int find_shallower(const struct il_driver *drv, const struct il_device *dev,
			  int idx, int64_t duration_ns)
{
	for (int i = idx - 1; i >= 0; i--) {
		if (il_state_disabled(dev, i))
			continue;
		idx = i;
		if (tr_ns(drv, i) <= duration_ns)
			break;
	}
	return idx;
}

/* teo_find_shallower_state(..., no_poll) of 6.3 .. 6.10: polling states skipped too. */
static int find_shallower_nopoll(const struct il_driver *drv, const struct il_device *dev,
				 int idx, int64_t duration_ns)
{
	for (int i = idx - 1; i >= 0; i--) {
		if (il_state_disabled(dev, i) || polling(drv, i))
			continue;
		idx = i;
		if (tr_ns(drv, i) <= duration_ns)
			break;
	}
	return idx;
}

/* teo_state_ok() of 6.12/6.18: with the tick stopped only states >= a tick. */
static inline bool state_ok(const struct il_driver *drv, int i,
			    const struct il_idle_inputs *in)
{
	return !in->tick_stopped || tr_ns(drv, i) >= in->tick_nsec;
}

/* What the candidate scan of 6.12 and later yields. */
struct teo_scan {
	int idx;                       /* deepest enabled state, -1 if none */
	int idx0;                      /* shallowest enabled state */
	int constraint_idx;            /* deepest enabled state >= 1 within the latency limit, else 0 */
	int intercept_max_idx;         /* 7.1, kernel-shaped loop only: bin with most intercepts */
	struct teo_sums below;         /* hits and intercepts of all bins below idx */
};

/*
 * The loop over the states in the kernel's teo_select() from 6.12 on, in
 * its shape: from state 1 up, add the previous bin's intercepts and hits
 * to the running sums (and, from a971f984b845, remember the bin with the
 * most intercepts, the deeper one on a tie); at each enabled state make it
 * the candidate (the first one also idx0), make it constraint_idx if its
 * exit latency is within the limit, and save the sums as those below it.
 * State 0 is the candidate before the loop if it is enabled.
 *
 * This is the reference. select_begin() gets the same results faster
 * (find_candidates() looks the indices up directly; the sums come from the
 * update's pass over the bins, or sum_bins()), and runs this instead when
 * the configuration has TF_REFERENCE (tests/governors/test_teo.c compares
 * the two on random data and on every decision of the test logs).
 * intercept_sum is the kernel's sum over bins 0..count-2; the intercepts
 * of all bins (6.12's tick_intercept_sum) add the last one.
 */
static void teo_state_loop(const struct teo_cpu *cpu_data, const struct il_driver *drv,
			   const struct il_device *dev, int64_t latency_req, struct teo_scan *out)
{
	uint32_t idx_intercept_sum = 0, intercept_sum = 0, intercept_max = 0;
	uint32_t idx_hit_sum = 0, hit_sum = 0;
	int intercept_max_idx = -1, constraint_idx = 0, idx0 = 0, idx = -1;

	if (!il_state_disabled(dev, 0))
		idx = 0;
	for (int i = 1; i < drv->state_count; i++) {
		uint64_t prev_bin = cpu_data->bins[i - 1];

		intercept_sum += lo32(prev_bin);
		hit_sum += hi32(prev_bin);
		if (lo32(prev_bin) >= intercept_max) {
			intercept_max = lo32(prev_bin);
			intercept_max_idx = i - 1;
		}
		if (il_state_disabled(dev, i))
			continue;
		if (idx < 0)
			idx0 = i;  /* the first enabled state */
		idx = i;
		if (el_ns(drv, i) <= latency_req)
			constraint_idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}
	out->idx = idx;
	out->idx0 = idx0;
	out->constraint_idx = constraint_idx;
	out->intercept_max_idx = intercept_max_idx;
	out->below.intercepts = idx_intercept_sum;
	out->below.hits = idx_hit_sum;
	out->below.all_intercepts = drv->state_count > 0 ?
		intercept_sum + bin_intercepts(cpu_data, drv->state_count - 1) : 0;
}

/*
 * The candidate scan of 6.12 and later. The kernel walks all states keeping
 * running sums of the bins below each state and saving them at every enabled
 * one. The result equals looking up the deepest and shallowest enabled
 * states directly and summing the bins below the deepest, disabled states'
 * bins included; the sums come from teo_update's pass over the bins (see
 * decay_bins), or from sum_bins when no update ran. The disable bits are
 * not touched by the update, so the lookup may come first.
 */
static inline __attribute__((always_inline)) void
find_candidates(const struct il_driver *drv, const struct il_device *dev,
		int64_t latency_req, struct teo_scan *s)
{
	int idx = drv->state_count - 1, idx0 = 0, c = 0;

	/* the usual case: first and last state enabled, the last within the limit */
	if (idx > 0 && !il_state_disabled(dev, idx) && !il_state_disabled(dev, 0) &&
	    el_ns(drv, idx) <= latency_req) {
		s->idx = idx;
		s->idx0 = 0;
		s->constraint_idx = idx;
		return;
	}
	while (idx >= 0 && il_state_disabled(dev, idx))
		idx--;
	if (idx > 0) {
		while (il_state_disabled(dev, idx0))
			idx0++;
		for (c = idx; c > 0; c--)
			if (!il_state_disabled(dev, c) && el_ns(drv, c) <= latency_req)
				break;
	}
	s->idx = idx;
	s->idx0 = idx0;
	s->constraint_idx = c;
}

/*
 * Intercept-driven demotion of 6.6 .. 6.18: from idx down, accumulate the
 * intercepts of the bins passed (and, in 6.6, the 6.1 ring's recent
 * intercepts); at the first state where each test that voted for a
 * shallower state (alt_intercepts, alt_recent) finds them over half of its
 * sum, take it if enabled and acceptable with the tick state, else the last
 * acceptable enabled state seen. A too-shallow (tick stopped) enabled state
 * ends the walk unless an acceptable one was already found. 6.12 and 6.18
 * have only the intercepts test (alt_intercepts true, alt_recent false).
 */
static inline __attribute__((always_inline)) int
demote_state_ok(const struct teo_cpu *cpu, const struct il_driver *drv,
		const struct il_device *dev, const struct il_idle_inputs *in, int idx,
		uint32_t idx_intercept_sum, bool alt_intercepts, uint32_t idx_recent_sum,
		bool alt_recent)
{
	int first_suitable = idx;
	uint32_t sum = 0, rsum = 0;

	for (int i = idx - 1; i >= 0; i--) {
		sum += bin_intercepts(cpu, i);
		if (alt_recent)
			rsum += cpu->recent[i];
		if ((!alt_recent || 2 * rsum > idx_recent_sum) &&
		    (!alt_intercepts || 2 * sum > idx_intercept_sum)) {
			if (state_ok(drv, i, in) && !il_state_disabled(dev, i))
				return i;
			return first_suitable;
		}
		if (il_state_disabled(dev, i))
			continue;
		if (state_ok(drv, i, in)) {
			first_suitable = i;
			continue;
		}
		if (first_suitable == idx)
			break;
	}
	return idx;
}

/*
 * A selection in progress, as the shared steps hand it to an era's body
 * and back: the candidate scan, the chosen index, and the duration and
 * delta_tick the end rule judges it by.
 */
struct teo_sel {
	struct teo_scan s;
	int64_t duration_ns;
	int64_t delta_tick;
	int idx;
};

/* How a selection ends (the kernel's labels and returns). */
enum teo_step {
	TEO_DECIDE,      /* the shared prologue is done: the era's body decides */
	TEO_END,         /* "end": keep the tick for a polling or sub-tick choice */
	TEO_OUT_TICK,    /* "out_tick": keep the tick */
	TEO_RETURN,      /* return idx; the idle loop stops the tick if it can */
};

/*
 * The end of teo_select(), shared by every era: with the tick kept (a
 * polling state, or a duration below a tick, while the tick runs) look for
 * a shallower state that fits delta_tick, which the retained tick bounds.
 */
static inline __attribute__((always_inline)) int
select_finish(const struct il_driver *drv, const struct il_device *dev,
	      const struct il_idle_inputs *in, const struct teo_sel *t, enum teo_step step,
	      bool *stop_tick)
{
	int idx = t->idx;

	if (step == TEO_RETURN)
		return idx;
	if (step == TEO_END) {
		if ((!polling(drv, idx) && t->duration_ns >= in->tick_nsec) || in->tick_stopped)
			return idx;
		if (idx > t->s.idx0 && tr_ns(drv, idx) > t->delta_tick)
			idx = find_shallower(drv, dev, idx, t->delta_tick);
	}
	*stop_tick = false;
	return idx;
}

/* ------------------------------------------------------- 5.4 .. 5.13 -- */

static inline uint64_t measured_u64(const struct il_driver *drv, const struct il_device *dev);

/*
 * The 2019 TEO. Each state has "hits" and "misses" (decayed only when the
 * sleep length falls into it) and "early hits" (decayed for all states at
 * every update). The candidate is the deepest enabled state within the
 * sleep length; if its misses reach its hits, the state with the most early
 * hits (not too shallow with the tick stopped) is taken instead. Then, when
 * most of the last 8 idle durations are below the expected duration, their
 * average is the expected duration and a shallower state is found for it.
 *
 * v5.4 computes in µs: the sleep length and the time span as ktime_to_us()
 * into unsigned int, the drivers' int µs residencies and latencies, an int
 * µs latency limit; the ring index runs to 8 before wrapping, so every
 * ninth value goes one past the ring and is never read. v5.5 is ns (u64:
 * a negative sleep length compares as huge), counts disabled states' hits,
 * misses and early hits, measures the residency instead of the time span,
 * skips the candidate itself as the early-hits alternative, and wraps the
 * ring at 8. v5.13 makes times s64 and changes the update for very short
 * idle periods (hit or miss always recorded, in bin 0 if nothing fits).
 */

/* TICK_USEC = (USEC_PER_SEC + HZ/2) / HZ, HZ recovered from TICK_NSEC. */
static int64_t teo_tick_usec(int64_t tick_nsec)
{
	int64_t hz = tick_nsec > 0 ? (1000000000 + tick_nsec / 2) / tick_nsec : 0;

	if (hz > 0 && (1000000000 + hz / 2) / hz == tick_nsec)
		return (1000000 + hz / 2) / hz;
	return tick_nsec / 1000;
}

/* teo_find_shallower_state() of v5.4 (unsigned int µs) and v5.5 (u64 ns). */
static int find_shallower_us(const struct il_driver *drv, const struct il_device *dev,
			     int idx, uint32_t duration_us)
{
	for (int i = idx - 1; i >= 0; i--) {
		if (il_state_disabled(dev, i))
			continue;
		idx = i;
		if (il_state_tr_us(&drv->states[i]) <= duration_us)
			break;
	}
	return idx;
}

static int find_shallower_u64(const struct il_driver *drv, const struct il_device *dev,
			      int idx, uint64_t duration_ns)
{
	for (int i = idx - 1; i >= 0; i--) {
		if (il_state_disabled(dev, i))
			continue;
		idx = i;
		if ((uint64_t)tr_ns(drv, i) <= duration_ns)
			break;
	}
	return idx;
}

/* The hits/misses/early-hits credit of v5.4 .. v5.12 (idx_* -1 if none). */
static void credit_2019(struct teo_cpu *cpu, int idx_timer, int idx_hit)
{
	uint32_t hits, misses;

	if (idx_timer < 0)
		return;
	hits = cpu->hits[idx_timer];
	misses = cpu->misses[idx_timer];
	hits -= hits >> TEO_DECAY_SHIFT;
	misses -= misses >> TEO_DECAY_SHIFT;
	if (idx_timer > idx_hit) {
		misses += TEO_PULSE;
		if (idx_hit >= 0)
			cpu->early_hits[idx_hit] += TEO_PULSE;
	} else {
		hits += TEO_PULSE;
	}
	cpu->misses[idx_timer] = misses;
	cpu->hits[idx_timer] = hits;
}

static void update_54(struct teo_cpu *cpu, const struct il_driver *drv, const struct il_device *dev)
{
	/* ktime_to_us() of the u64 fields read back as ktime_t */
	uint32_t sleep_us = (uint32_t)(cpu->sleep_length_ns / 1000);
	int idx_hit = -1, idx_timer = -1;
	uint32_t measured_us;

	if ((uint64_t)cpu->time_span_ns >= (uint64_t)cpu->sleep_length_ns) {
		measured_us = UINT32_MAX;
	} else {
		uint32_t lat = il_state_el_us(&drv->states[dev->last_state_idx]);

		measured_us = (uint32_t)(cpu->time_span_ns / 1000);
		measured_us = measured_us >= lat ? measured_us - lat / 2 : measured_us / 2;
	}
	for (int i = 0; i < drv->state_count; i++) {
		uint32_t tr = il_state_tr_us(&drv->states[i]);

		cpu->early_hits[i] -= cpu->early_hits[i] >> TEO_DECAY_SHIFT;
		if (tr <= sleep_us) {
			idx_timer = i;
			if (tr <= measured_us)
				idx_hit = i;
		}
	}
	credit_2019(cpu, idx_timer, idx_hit);
	cpu->intervals[cpu->interval_idx++] = measured_us;
	if (cpu->interval_idx > TEO_INTERVALS)
		cpu->interval_idx = 0;
}

static __attribute__((noinline)) int select_54(struct teo_cpu *cpu, const struct il_driver *drv,
					       struct il_device *dev,
					       const struct il_idle_inputs *in, bool *stop_tick)
{
	const int64_t tick_usec = teo_tick_usec(in->tick_nsec);
	const bool stopped = in->tick_stopped;
	int32_t latency_req = il_latency_req_us(in->latency_req_ns);
	int max_early_idx = -1, constraint_idx = drv->state_count, idx = -1, i;
	uint32_t duration_us, count = 0;

	if (dev->last_state_idx >= 0) {
		update_54(cpu, drv, dev);
		dev->last_state_idx = -1;
	}
	cpu->time_span_ns = (int64_t)in->clock_ns;
	cpu->sleep_length_ns = in->sleep_length_ns;
	duration_us = (uint32_t)(in->sleep_length_ns / 1000);

	for (i = 0; i < drv->state_count; i++) {
		uint32_t tr = il_state_tr_us(&drv->states[i]);

		if (il_state_disabled(dev, i)) {
			if (max_early_idx >= 0 && count < cpu->early_hits[i])
				count = cpu->early_hits[i];
			continue;
		}
		if (idx < 0)
			idx = i;
		if (tr > duration_us)
			break;
		/* unsigned int against the int limit: unsigned */
		if (il_state_el_us(&drv->states[i]) > (uint32_t)latency_req && constraint_idx > i)
			constraint_idx = i;
		idx = i;
		if (count < cpu->early_hits[i] && !(stopped && (int64_t)tr < tick_usec)) {
			count = cpu->early_hits[i];
			max_early_idx = i;
		}
	}
	/* idx is -1 only with nothing enabled, and then max_early_idx is too */
	if (max_early_idx >= 0 && cpu->hits[idx] <= cpu->misses[idx]) {
		idx = max_early_idx;
		duration_us = il_state_tr_us(&drv->states[idx]);
	}
	if (constraint_idx < idx)
		idx = constraint_idx;

	if (idx < 0) {
		idx = 0;
	} else if (idx > 0) {
		uint64_t sum = 0;

		count = 0;
		for (i = 0; i < TEO_INTERVALS; i++) {
			uint32_t val = (uint32_t)cpu->intervals[i];

			if (val >= duration_us)
				continue;
			count++;
			sum += val;
		}
		if (count > TEO_INTERVALS / 2) {
			uint32_t avg_us = (uint32_t)(sum / count);

			if (!(stopped && avg_us < tick_usec)) {
				duration_us = avg_us;
				if (il_state_tr_us(&drv->states[idx]) > avg_us)
					idx = find_shallower_us(drv, dev, idx, avg_us);
			}
		}
	}
	if ((polling(drv, idx) || duration_us < tick_usec) && !stopped) {
		uint32_t delta_tick_us = (uint32_t)(in->delta_tick_ns / 1000);

		*stop_tick = false;
		if (idx > 0 && il_state_tr_us(&drv->states[idx]) > delta_tick_us)
			idx = find_shallower_us(drv, dev, idx, delta_tick_us);
	}
	return idx;
}

/* teo_update() of v5.5 .. v5.13 (s64: the v5.13 signed comparisons). */
static void update_55(struct teo_cpu *cpu, const struct il_driver *drv, const struct il_device *dev,
		      bool s64)
{
	const int64_t sleep_length = cpu->sleep_length_ns;
	int idx_hit = s64 ? 0 : -1, idx_timer = s64 ? 0 : -1;
	bool safety_net = s64 ? cpu->time_span_ns >= sleep_length
			      : (uint64_t)cpu->time_span_ns >= (uint64_t)sleep_length;
	uint64_t measured = UINT64_MAX;

	if (!safety_net)
		measured = measured_u64(drv, dev);
	for (int i = 0; i < drv->state_count; i++) {
		int64_t tr = tr_ns(drv, i);

		cpu->early_hits[i] -= cpu->early_hits[i] >> TEO_DECAY_SHIFT;
		if (s64 ? tr <= sleep_length : (uint64_t)tr <= (uint64_t)sleep_length) {
			idx_timer = i;
			if ((uint64_t)tr <= measured)
				idx_hit = i;
		}
	}
	if (!s64) {
		credit_2019(cpu, idx_timer, idx_hit);
	} else {
		/* v5.13: always a hit or a miss of the timer's bin (bin 0 at least) */
		uint32_t hits = cpu->hits[idx_timer], misses = cpu->misses[idx_timer];

		hits -= hits >> TEO_DECAY_SHIFT;
		misses -= misses >> TEO_DECAY_SHIFT;
		if (idx_timer == idx_hit) {
			hits += TEO_PULSE;
		} else {
			misses += TEO_PULSE;
			cpu->early_hits[idx_hit] += TEO_PULSE;
		}
		cpu->misses[idx_timer] = misses;
		cpu->hits[idx_timer] = hits;
	}
	cpu->intervals[cpu->interval_idx++] = measured;
	if (cpu->interval_idx >= TEO_INTERVALS)
		cpu->interval_idx = 0;
}

/* teo_select() of v5.5 .. v5.13. */
static __attribute__((noinline)) int select_55(struct teo_cpu *cpu, const struct il_driver *drv,
					       struct il_device *dev,
					       const struct il_idle_inputs *in, bool *stop_tick,
					       unsigned int f)
{
	const bool s64 = f & TF_SHORT513;
	const int64_t tick = in->tick_nsec, latency_req = in->latency_req_ns;
	const bool stopped = in->tick_stopped;
	int max_early_idx = -1, prev_max_early_idx = -1, constraint_idx = drv->state_count;
	int idx = -1, idx0 = -1, i;
	uint32_t hits = 0, misses = 0, early_hits = 0;
	int64_t duration_ns;

	if (dev->last_state_idx >= 0) {
		update_55(cpu, drv, dev, s64);
		dev->last_state_idx = -1;
	}
	cpu->time_span_ns = (int64_t)in->clock_ns;
	duration_ns = in->sleep_length_ns;
	cpu->sleep_length_ns = duration_ns;

	for (i = 0; i < drv->state_count; i++) {
		int64_t tr = tr_ns(drv, i);
		bool beyond = s64 ? tr > duration_ns : (uint64_t)tr > (uint64_t)duration_ns;

		if (il_state_disabled(dev, i)) {
			if (beyond)
				continue;
			/* the enabled candidate covers this range: its metrics decide */
			hits = cpu->hits[i];
			misses = cpu->misses[i];
			if (early_hits >= cpu->early_hits[i] || idx < 0)
				continue;
			if (max_early_idx == idx) {
				early_hits = cpu->early_hits[i];
				continue;
			}
			if (!stopped || (uint64_t)tr_ns(drv, idx) >= (uint64_t)tick) {
				prev_max_early_idx = max_early_idx;
				early_hits = cpu->early_hits[i];
				max_early_idx = idx;
			}
			continue;
		}
		if (idx < 0) {
			idx = i;
			hits = cpu->hits[i];
			misses = cpu->misses[i];
			idx0 = i;
		}
		if (beyond)
			break;
		if ((uint64_t)el_ns(drv, i) > (uint64_t)latency_req && constraint_idx > i)
			constraint_idx = i;
		idx = i;
		hits = cpu->hits[i];
		misses = cpu->misses[i];
		if (early_hits < cpu->early_hits[i] && (!stopped || (uint64_t)tr >= (uint64_t)tick)) {
			prev_max_early_idx = max_early_idx;
			early_hits = cpu->early_hits[i];
			max_early_idx = i;
		}
	}
	if (hits <= misses) {
		/* the candidate itself cannot be its own alternative */
		if (idx == max_early_idx)
			max_early_idx = prev_max_early_idx;
		if (max_early_idx >= 0) {
			idx = max_early_idx;
			duration_ns = tr_ns(drv, idx);
		}
	}
	if (constraint_idx < idx)
		idx = constraint_idx;

	if (idx < 0) {
		idx = 0;
	} else if (idx > (s64 ? idx0 : 0)) {
		unsigned int count = 0;
		uint64_t sum = 0;

		for (i = 0; i < TEO_INTERVALS; i++) {
			uint64_t val = cpu->intervals[i];

			if (val >= (uint64_t)duration_ns)
				continue;
			count++;
			sum += val;
		}
		if (count > TEO_INTERVALS / 2) {
			uint64_t avg = sum / count;

			if (!stopped || avg >= (uint64_t)tick) {
				duration_ns = (int64_t)avg;
				if ((uint64_t)tr_ns(drv, idx) > avg)
					idx = s64 ? find_shallower(drv, dev, idx, (int64_t)avg)
						  : find_shallower_u64(drv, dev, idx, avg);
			}
		}
	}
	if ((polling(drv, idx) ||
	     (s64 ? duration_ns < tick : (uint64_t)duration_ns < (uint64_t)tick)) && !stopped) {
		int64_t dt = in->delta_tick_ns;

		*stop_tick = false;
		if (s64) {
			if (idx > idx0 && tr_ns(drv, idx) > dt)
				idx = find_shallower(drv, dev, idx, dt);
		} else if (idx > 0 && (uint64_t)tr_ns(drv, idx) > (uint64_t)dt) {
			idx = find_shallower_u64(drv, dev, idx, (uint64_t)dt);
		}
	}
	return idx;
}

/* ---------------------------------------------------------------- 6.1 -- */

/* The measured idle duration of 6.1/6.12/6.18: residency less half the exit latency. */
static inline uint64_t measured_u64(const struct il_driver *drv, const struct il_device *dev)
{
	uint64_t lat = (uint64_t)el_ns(drv, dev->last_state_idx);
	uint64_t measured = (uint64_t)dev->last_residency_ns;

	return measured >= lat ? measured - lat / 2 : measured / 2;
}

/*
 * teo_update() of 6.1: a wakeup whose select-to-reflect span reached the
 * sleep length (or a safety net) counts as infinitely long. Hit if the
 * measured duration lands in the sleep length's bin, else an intercept,
 * which also enters the ring of the last NR_RECENT events.
 */
static void update_61(struct teo_cpu *cpu, const struct il_driver *drv,
		      const struct il_device *dev)
{
	int n = drv->state_count, idx_timer, idx_duration, slot;
	uint64_t measured = UINT64_MAX;
	struct teo_sums unused;

	if (cpu->time_span_ns < cpu->sleep_length_ns)
		measured = measured_u64(drv, dev);
	cpu->total = decay_bins(cpu, n, false, n, &unused);
	timer_bins_u64(drv, n, cpu->sleep_length_ns, measured, &idx_timer, &idx_duration);

	slot = cpu->next_recent_idx++;
	if (cpu->next_recent_idx >= TEO_NR_RECENT)
		cpu->next_recent_idx = 0;
	if (cpu->recent_idx[slot] >= 0)
		cpu->recent[cpu->recent_idx[slot]]--;
	if (idx_timer == idx_duration) {
		add_hit_only(cpu, idx_timer);
		cpu->recent_idx[slot] = -1;
	} else {
		add_intercept_only(cpu, idx_duration);
		cpu->recent[idx_duration]++;
		cpu->recent_idx[slot] = idx_duration;
	}
	cpu->total += TEO_PULSE;
}

/*
 * teo_select() of 6.1: the sleep length is always queried; the candidate is
 * the deepest enabled state fitting it. If intercepts (overall, or in the
 * recent ring) dominate below it, walk down to a state covering over half of
 * them, using the middle of its bin as the expected duration.
 */
static __attribute__((noinline)) int select_61(struct teo_cpu *cpu, const struct il_driver *drv,
		     struct il_device *dev, const struct il_idle_inputs *in,
		     bool *stop_tick, unsigned int f)
{
	uint32_t idx_intercept_sum, intercept_sum;
	uint32_t idx_recent_sum = 0, recent_sum = 0;
	uint64_t idx_bin_sum = 0, bin_sum = 0;   /* packed (intercepts, hits) */
	int constraint_idx = 0, idx0 = 0, idx = -1;
	int64_t tick = in->tick_nsec;
	bool alt_intercepts, alt_recent;
	int64_t duration_ns, delta_tick;

	if (dev->last_state_idx >= 0) {
		update_61(cpu, drv, dev);
		dev->last_state_idx = -1;
	}
	cpu->time_span_ns = (int64_t)in->clock_ns;
	duration_ns = in->sleep_length_ns;
	delta_tick = in->delta_tick_ns;
	cpu->sleep_length_ns = duration_ns;

	if (drv->state_count < 2) {
		idx = 0;
		goto end;
	}
	if (!il_state_disabled(dev, 0)) {
		idx = 0;
		if (tr_ns(drv, 1) > duration_ns)
			goto end;
	}
	if ((f & TF_UTIL) && drv->state_count < 3 && in->cpu_utilized) {
		/* 9ce0f7c4bc64: utilized with two states: the first enabled non-polling one */
		for (int i = 0; i < drv->state_count; i++) {
			if (!il_state_disabled(dev, i) && !polling(drv, i)) {
				idx = i;
				goto end;
			}
		}
	}

	for (int i = 1; i < drv->state_count; i++) {
		bin_sum += cpu->bins[i - 1];
		recent_sum += cpu->recent[i - 1];
		if (il_state_disabled(dev, i))
			continue;
		if (idx < 0) {
			idx = i;
			idx0 = i;
		}
		if (tr_ns(drv, i) > duration_ns)
			break;
		idx = i;
		if (el_ns(drv, i) <= in->latency_req_ns)
			constraint_idx = i;
		idx_bin_sum = bin_sum;
		idx_recent_sum = recent_sum;
	}

	if (idx < 0) {
		idx = 0;
		goto end;
	}
	if (idx == idx0)
		goto end;

	idx_intercept_sum = lo32(idx_bin_sum);
	alt_intercepts = 2 * idx_intercept_sum > cpu->total - hi32(idx_bin_sum);
	alt_recent = idx_recent_sum > TEO_NR_RECENT / 2;
	if (alt_recent || alt_intercepts) {
		int64_t last_span = duration_ns;
		int last_idx = idx;

		intercept_sum = 0;
		recent_sum = 0;
		for (int i = idx - 1; i >= 0; i--) {
			/* teo_middle_of_bin() */
			/* the kernel's s64 sum wraps (-fno-strict-overflow): add unsigned */
			int64_t span = (int64_t)((uint64_t)tr_ns(drv, i) + (uint64_t)tr_ns(drv, i + 1)) / 2;
			bool span_ok = !in->tick_stopped || (uint64_t)span >= (uint64_t)tick;

			intercept_sum += bin_intercepts(cpu, i);
			recent_sum += cpu->recent[i];
			if ((!alt_recent || 2 * recent_sum > idx_recent_sum) &&
			    (!alt_intercepts || 2 * intercept_sum > idx_intercept_sum)) {
				if (span_ok && !il_state_disabled(dev, i)) {
					idx = i;
					duration_ns = span;
				} else {
					idx = last_idx;
					duration_ns = last_span;
				}
				break;
			}
			if (il_state_disabled(dev, i))
				continue;
			if (!span_ok) {
				if (last_idx != idx)
					continue;
				break;
			}
			last_span = span;
			last_idx = i;
		}
	}

	if (idx > constraint_idx)
		idx = constraint_idx;
	/* 9ce0f7c4bc64: utilized: a shallower non-polling state within the sleep length */
	if ((f & TF_UTIL) && in->cpu_utilized)
		idx = find_shallower_nopoll(drv, dev, idx, duration_ns);

end:
	{
		struct teo_sel t = { .s.idx0 = idx0, .duration_ns = duration_ns,
				     .delta_tick = delta_tick, .idx = idx };

		return select_finish(drv, dev, in, &t, TEO_END, stop_tick);
	}
}

/*
 * teo_reflect() of 6.1 and 6.12: a polling time-out, or a tick wakeup when
 * the sleep length was beyond a tick, is a safety net: pretend the whole
 * sleep length elapsed. Otherwise record the span since select.
 */
static void reflect_61(struct teo_cpu *cpu, struct il_device *dev, int state,
		       const struct il_idle_inputs *in, bool u64_times)
{
	dev->last_state_idx = state;
	/* v5.4 and v5.5 keep the sleep length in a u64: a negative one is beyond a tick */
	if (dev->poll_time_limit ||
	    (in->got_tick && (u64_times ? (uint64_t)cpu->sleep_length_ns > (uint64_t)in->tick_nsec
					: cpu->sleep_length_ns > in->tick_nsec))) {
		dev->poll_time_limit = false;
		cpu->time_span_ns = cpu->sleep_length_ns;
	} else {
		cpu->time_span_ns = (int64_t)(in->clock_ns - (uint64_t)cpu->time_span_ns);
	}
}

/* --------------------------------------------------------------- 6.12 -- */

/*
 * teo_update() of 6.6 .. 6.12: as 6.1, plus (when even the deepest state is
 * below a tick) an extra hits-only bin for wakeups after a tick when the
 * timer was at least a tick away. 6.6 still has the 6.1 ring of recent
 * intercepts; a tick hit leaves the ring slot as it was after its old bin's
 * count went down, so that bin's count goes down again when the slot comes
 * round (the underflow 449914398083 removed with the ring).
 */
static inline __attribute__((always_inline)) void
update_612(struct teo_cpu *cpu, const struct il_driver *drv,
		       const struct il_device *dev, int64_t tick, struct teo_scan *s,
		       bool recent)
{
	int n = drv->state_count, idx_timer, idx_duration, slot = 0;
	uint64_t measured = UINT64_MAX;

	if (cpu->time_span_ns < cpu->sleep_length_ns)
		measured = measured_u64(drv, dev);
	cpu->total = decay_bins(cpu, n, false, s->idx, &s->below);
	timer_bins_u64(drv, n, cpu->sleep_length_ns, measured, &idx_timer, &idx_duration);
	if (recent) {
		slot = cpu->next_recent_idx++;
		if (cpu->next_recent_idx >= TEO_NR_RECENT)
			cpu->next_recent_idx = 0;
		if (cpu->recent_idx[slot] >= 0)
			cpu->recent[cpu->recent_idx[slot]]--;
	}

	if (tr_ns(drv, n - 1) < tick) {
		decay_old(&cpu->tick_hits);
		cpu->total += cpu->tick_hits;
		if (tick <= cpu->sleep_length_ns) {
			idx_timer = n;
			if ((uint64_t)tick <= measured) {
				cpu->tick_hits += TEO_PULSE;
				goto out;
			}
		}
	}
	if (idx_timer == idx_duration) {
		add_hit(cpu, idx_timer, s->idx, &s->below);
		if (recent)
			cpu->recent_idx[slot] = -1;
	} else {
		add_intercept(cpu, idx_duration, s->idx, &s->below);
		if (recent) {
			cpu->recent[idx_duration]++;
			cpu->recent_idx[slot] = idx_duration;
		}
	}
out:
	cpu->total += TEO_PULSE;
}

/*
 * The decision of teo_select() in 6.12: the candidate, demoted by
 * intercepts; the sleep length is queried only when needed (including when
 * the demotion alone reached state 0, so that wakeup can be classified).
 */
static inline __attribute__((always_inline)) enum teo_step
decide_612(struct teo_cpu *cpu, const struct il_driver *drv, const struct il_device *dev,
	   const struct il_idle_inputs *in, struct teo_sel *t, unsigned int f)
{
	const int64_t tick = in->tick_nsec;
	/* intercepts of all bins, for the keep-the-tick test */
	uint32_t tick_intercept_sum = t->s.below.all_intercepts;
	int prev_intercept_idx = t->idx;
	int idx = t->idx;

	if (!(f & TF_NO_RECENT)) {
		/* 6.6: the recent-intercepts test too, and no query for a demotion to 0 */
		uint32_t idx_recent_sum = 0;
		bool alt_intercepts = 2 * t->s.below.intercepts > cpu->total - t->s.below.hits;
		bool alt_recent;

		for (int i = 0; i < idx; i++)
			idx_recent_sum += cpu->recent[i];
		alt_recent = idx_recent_sum > TEO_NR_RECENT / 2;
		if (alt_recent || alt_intercepts)
			idx = demote_state_ok(cpu, drv, dev, in, idx, t->s.below.intercepts,
					      alt_intercepts, idx_recent_sum, alt_recent);
		prev_intercept_idx = 0;
	} else if (2 * t->s.below.intercepts > cpu->total - t->s.below.hits) {
		idx = demote_state_ok(cpu, drv, dev, in, idx, t->s.below.intercepts,
				      true, 0, false);
	}

	t->idx = idx;
	if (!idx && prev_intercept_idx) {
		/* 4b20b07ce72f: learn whether this guess of state 0 was right */
		cpu->sleep_length_ns = in->sleep_length_ns;
		return TEO_OUT_TICK;
	}
	if (idx > t->s.constraint_idx)
		idx = t->s.constraint_idx;
	if ((f & TF_UTIL) && in->cpu_utilized) {
		/* 6.6 (3f0b0966b309): the next shallower non-polling state, if tick-ok */
		int i = find_shallower_nopoll(drv, dev, idx, IL_KTIME_MAX);

		if (state_ok(drv, i, in))
			idx = i;
	}
	t->idx = idx;
	if (!idx)
		return TEO_OUT_TICK;
	if (polling(drv, 0) && tr_ns(drv, idx) < IL_RESIDENCY_THRESHOLD_NS)
		return TEO_OUT_TICK;

	t->duration_ns = in->sleep_length_ns;
	t->delta_tick = in->delta_tick_ns;
	cpu->sleep_length_ns = t->duration_ns;

	if (tr_ns(drv, idx) > t->duration_ns) {
		int i = find_shallower(drv, dev, idx, t->duration_ns);

		if (state_ok(drv, i, in))
			idx = i;
	}
	if (tr_ns(drv, idx) < tick &&
	    tick_intercept_sum > cpu->total / 2 + cpu->total / 8)
		t->duration_ns = tick / 2;
	t->idx = idx;
	return TEO_END;
}

/* --------------------------------------------------------------- 6.18 -- */

/*
 * teo_update() of 6.18: a safety-net wakeup counts as infinitely long;
 * short idles (below 15 us after the latency correction) are counted;
 * intercepts at or beyond a tick feed tick_intercepts.
 */
static inline __attribute__((always_inline)) void
update_618(struct teo_cpu *cpu, const struct il_driver *drv,
		       const struct il_device *dev, int64_t tick, struct teo_scan *s)
{
	int n = drv->state_count, idx_timer, idx_duration;
	uint64_t measured;

	decay_counts(cpu, false);
	if (cpu->artificial_wakeup) {
		measured = UINT64_MAX;
	} else {
		uint64_t lat = (uint64_t)el_ns(drv, dev->last_state_idx);

		measured = (uint64_t)dev->last_residency_ns;
		if (measured >= lat) {
			measured -= lat / 2;
			if (measured < IL_RESIDENCY_THRESHOLD_NS)
				cpu->short_idles += TEO_PULSE;
		} else {
			measured /= 2;
			cpu->short_idles += TEO_PULSE;
		}
	}
	decay_bins(cpu, n, false, s->idx, &s->below);
	timer_bins_u64(drv, n, cpu->sleep_length_ns, measured, &idx_timer, &idx_duration);

	if (idx_timer == idx_duration) {
		add_hit(cpu, idx_timer, s->idx, &s->below);
	} else {
		add_intercept(cpu, idx_duration, s->idx, &s->below);
		if ((uint64_t)tick <= measured)
			cpu->tick_intercepts += TEO_PULSE;
	}
	cpu->total += TEO_PULSE;
}

/*
 * The decision of teo_select() in 6.18: like 6.12, but the timer query is
 * skipped for a shallow candidate only when short idles dominate or the
 * latency limit is tight, and state 0 from the walk needs no special query.
 */
static inline __attribute__((always_inline)) enum teo_step
decide_618(struct teo_cpu *cpu, const struct il_driver *drv, const struct il_device *dev,
	   const struct il_idle_inputs *in, struct teo_sel *t)
{
	const int64_t tick = in->tick_nsec;
	int idx = t->idx;

	if (2 * t->s.below.intercepts > cpu->total - t->s.below.hits)
		idx = demote_state_ok(cpu, drv, dev, in, idx, t->s.below.intercepts,
				      true, 0, false);
	if (idx > t->s.constraint_idx)
		idx = t->s.constraint_idx;
	t->idx = idx;

	if ((!idx || tr_ns(drv, idx) < IL_RESIDENCY_THRESHOLD_NS) &&
	    (2 * cpu->short_idles >= cpu->total ||
	     in->latency_req_ns < TEO_LATENCY_THRESHOLD_NS))
		return TEO_OUT_TICK;

	t->duration_ns = in->sleep_length_ns;
	t->delta_tick = in->delta_tick_ns;
	cpu->sleep_length_ns = t->duration_ns;
	if (!idx)
		return TEO_OUT_TICK;

	if (tr_ns(drv, idx) > t->duration_ns) {
		int i = find_shallower(drv, dev, idx, t->duration_ns);

		if (state_ok(drv, i, in))
			idx = i;
	}
	if (tr_ns(drv, idx) < tick &&
	    cpu->tick_intercepts > cpu->total / 2 + cpu->total / 8)
		t->duration_ns = tick / 2;
	t->idx = idx;
	return TEO_END;
}

/* teo_reflect() of 6.18: note whether a safety net ended the idle period. */
static void reflect_618(struct teo_cpu *cpu, struct il_device *dev, int state,
			const struct il_idle_inputs *in)
{
	/* without a branch (an optimisation): poll_time_limit is already false otherwise */
	cpu->artificial_wakeup = dev->poll_time_limit |
				 (in->got_tick & (cpu->sleep_length_ns > in->tick_nsec));
	dev->last_state_idx = state;
	dev->poll_time_limit = false;
}

/* ---------------------------------------------------------------- 7.1 -- */

/*
 * teo_update() of 7.1. Besides the 6.18 rules: metrics decay to 0, the total
 * is rebuilt from the bins; a tick wakeup is credited to the deepest state
 * when tick wakeups dominate, or as a hit when sub-tick intercepts are rare;
 * a hit also needs the wakeup no earlier than half the exit latency before
 * the timer; intercepts up to a tick feed tick_intercepts.
 */
static inline __attribute__((always_inline)) void
update_71(struct teo_cpu *cpu, const struct il_driver *drv,
		      struct il_device *dev, int64_t tick, struct teo_scan *s, unsigned int f)
{
	int64_t lat = el_ns(drv, dev->last_state_idx);
	int n = drv->state_count, idx_timer, idx_duration;
	uint32_t total;
	int64_t measured;

	decay_counts(cpu, true);
	if (dev->poll_time_limit) {
		dev->poll_time_limit = false;
		measured = INT64_MAX;
	} else {
		measured = dev->last_residency_ns;
		if (measured >= lat) {
			measured -= lat / 2;
			if (measured < IL_RESIDENCY_THRESHOLD_NS)
				cpu->short_idles += TEO_PULSE;
		} else {
			measured /= 2;
			cpu->short_idles += TEO_PULSE;
		}
	}
	total = decay_bins(cpu, n, true, s->idx, &s->below);
	timer_bins_s64(drv, n, cpu->sleep_length_ns, measured, &idx_timer, &idx_duration);
	cpu->total = total + TEO_PULSE;

	if (cpu->tick_wakeup) {
		cpu->total_tick += TEO_PULSE;
		if (3 * cpu->total_tick > 2 * cpu->total) {
			add_hit(cpu, n - 1, s->idx, &s->below);
			return;
		}
		/* 60836533b4c7: with rare sub-tick intercepts the tick stood for a hit */
		if ((f & TF_FAKE_TICK) && 3 * cpu->tick_intercepts < 2 * total) {
			add_hit(cpu, idx_timer, s->idx, &s->below);
			return;
		}
	}

	/* f36de72673ad: a hit also needs the wakeup after the timer less lat/2 */
	if (idx_timer == idx_duration &&
	    (!(f & TF_HIT_LAT) || sub_wrap(cpu->sleep_length_ns, measured) < lat / 2)) {
		add_hit(cpu, idx_timer, s->idx, &s->below);
	} else {
		add_intercept(cpu, idx_duration, s->idx, &s->below);
		if (measured <= tick)
			cpu->tick_intercepts += TEO_PULSE;
	}
}

/*
 * The 7.1 demotion walk (a971f984b845, with 106a2662e655 dropping the
 * stopped-tick special cases): from the candidate down to idx0, take each
 * enabled state and stop once the intercepts passed exceed half of those
 * below the candidate and the state is no deeper than the bin with the most
 * intercepts among bins 0..count-2 (ties: the deeper bin).
 */
/* The bin with the most intercepts among 0..count-2, the deeper on a tie. */
static inline int intercept_max_bin(const struct teo_cpu *cpu, const struct il_driver *drv)
{
	uint32_t max = 0;
	int max_idx = 0;

	for (int i = 0; i < drv->state_count - 1; i++) {
		if (bin_intercepts(cpu, i) >= max) {
			max = bin_intercepts(cpu, i);
			max_idx = i;
		}
	}
	return max_idx;
}

static int demote_71(const struct teo_cpu *cpu, const struct il_device *dev,
		     const struct teo_scan *s, int max_idx)
{
	uint32_t sum = 0;
	int idx = s->idx;

	for (int i = idx - 1; i >= s->idx0; i--) {
		sum += bin_intercepts(cpu, i);
		if (il_state_disabled(dev, i))
			continue;
		idx = i;
		if (2 * sum > s->below.intercepts && i <= max_idx)
			break;
	}
	return idx;
}

/*
 * The demotion walk of 6.19 and 7.0: with the tick stopped it goes down
 * only to min_idx, the shallowest state from idx0 up with a target residency
 * of at least a tick. 7.0 adds 4bd2221f231d (no walk when min_idx has the
 * candidate's residency) and a971f984b845 (min_idx at once when it is
 * enabled and not below the busiest bin; the walk stops only at or below the
 * busiest bin). max_idx is that bin, or the deepest state without
 * a971f984b845.
 */
static int demote_619(const struct teo_cpu *cpu, const struct il_driver *drv,
		      const struct il_device *dev, const struct il_idle_inputs *in,
		      const struct teo_scan *s, unsigned int f, int max_idx)
{
	int idx = s->idx, min_idx = s->idx0;
	uint32_t sum = 0;

	if (in->tick_stopped) {
		while (min_idx < idx && tr_ns(drv, min_idx) < in->tick_nsec)
			min_idx++;
		if ((f & TF_ZERO_BINS) && tr_ns(drv, min_idx) == tr_ns(drv, idx))
			return idx;
	}
	if ((f & TF_INTERCEPT_MAX) && min_idx >= max_idx && !il_state_disabled(dev, min_idx))
		return min_idx;
	for (int i = idx - 1; i >= min_idx; i--) {
		sum += bin_intercepts(cpu, i);
		if (il_state_disabled(dev, i))
			continue;
		idx = i;
		if (2 * sum > s->below.intercepts && i <= max_idx)
			break;
	}
	return idx;
}

/*
 * The decision of teo_select() in 7.1: the candidate, demoted by
 * intercepts; with the tick stopped the sleep length is always queried, and
 * a sub-tick choice is deepened when the next timer is beyond
 * SAFE_TIMER_RANGE_NS (2 ticks).
 */
static inline __attribute__((always_inline)) enum teo_step
decide_71(struct teo_cpu *cpu, const struct il_driver *drv, const struct il_device *dev,
	  const struct il_idle_inputs *in, struct teo_sel *t, bool ref, unsigned int f)
{
	const int64_t tick = in->tick_nsec;
	const bool safe_range = f & TF_STOPPED_SAFE;
	int idx = t->idx;

	/* the fast path looks for the busiest bin only when it demotes */
	if (2 * t->s.below.intercepts > cpu->total - t->s.below.hits) {
		int max_idx = !(f & TF_INTERCEPT_MAX) ? IL_STATE_MAX
			      : ref ? t->s.intercept_max_idx : intercept_max_bin(cpu, drv);

		idx = safe_range ? demote_71(cpu, dev, &t->s, max_idx)
				 : demote_619(cpu, drv, dev, in, &t->s, f, max_idx);
	}
	if (idx > t->s.constraint_idx)
		idx = t->s.constraint_idx;
	t->idx = idx;

	/* 106a2662e655: with the tick stopped the timers are always checked */
	if ((!safe_range || !in->tick_stopped) &&
	    (!idx || tr_ns(drv, idx) < IL_RESIDENCY_THRESHOLD_NS) &&
	    (2 * cpu->short_idles >= cpu->total ||
	     in->latency_req_ns < TEO_LATENCY_THRESHOLD_NS))
		return TEO_OUT_TICK;

	t->duration_ns = in->sleep_length_ns;
	t->delta_tick = in->delta_tick_ns;
	cpu->sleep_length_ns = t->duration_ns;

	if (safe_range && in->tick_stopped &&
	    t->duration_ns > TEO_SAFE_TIMER_RANGE_TICKS * tick && tr_ns(drv, idx) < tick) {
		/* deepest enabled state within the latency limit that fits */
		for (int i = t->s.constraint_idx; i > idx; i--) {
			if (il_state_disabled(dev, i))
				continue;
			if (tr_ns(drv, i) <= t->duration_ns) {
				t->idx = i;
				break;
			}
		}
		return TEO_RETURN;
	}
	if (!idx)
		return TEO_OUT_TICK;

	if (tr_ns(drv, idx) > t->duration_ns)
		idx = find_shallower(drv, dev, idx, t->duration_ns);
	/* 475ca3470b37: 3 * ti >= 2 * total; before it ti > total / 2 + total / 8 */
	if (tr_ns(drv, idx) < tick &&
	    ((f & TF_TICK_2_3) ? 3 * cpu->tick_intercepts >= 2 * cpu->total
			       : cpu->tick_intercepts > cpu->total / 2 + cpu->total / 8))
		t->duration_ns = tick / 2;
	t->idx = idx;
	return TEO_END;
}

/* ------------------------------------------- teo_select(), 6.12 on ---- */

/*
 * The start of teo_select() from 6.12 on, the same in every era but for
 * the update it runs: the candidate scan, the update of the metrics after
 * the last wakeup, no sleep length yet, and the cases with no choice (one
 * state, nothing enabled, only one state enabled).
 */
static inline __attribute__((always_inline)) enum teo_step
select_begin(struct teo_cpu *cpu, const struct il_driver *drv, struct il_device *dev,
	     const struct il_idle_inputs *in, enum teo_era era, bool ref, unsigned int f,
	     struct teo_sel *t)
{
	const int64_t tick = in->tick_nsec;

	t->delta_tick = tick / 2;
	if (!ref)
		find_candidates(drv, dev, in->latency_req_ns, &t->s);
	else
		t->s.idx = drv->state_count;  /* the update's sums go unused */
	if (dev->last_state_idx >= 0) {
		if (era == TEO_6_6 || era == TEO_6_12)
			update_612(cpu, drv, dev, tick, &t->s, era == TEO_6_6);
		else if (era == TEO_6_18)
			update_618(cpu, drv, dev, tick, &t->s);
		else
			update_71(cpu, drv, dev, tick, &t->s, f);
		dev->last_state_idx = -1;
	} else if (!ref) {
		sum_bins(cpu, drv->state_count, t->s.idx, &t->s.below);
	}
	if (ref)
		teo_state_loop(cpu, drv, dev, in->latency_req_ns, &t->s);
	if (era == TEO_6_6 || era == TEO_6_12)
		cpu->time_span_ns = (int64_t)in->clock_ns;
	cpu->sleep_length_ns = IL_KTIME_MAX;

	if (era == TEO_6_6 && (f & TF_UTIL) && drv->state_count == 2 && in->cpu_utilized) {
		/* 04bae4e2267d: utilized with two states; keep the tick for state 0 */
		if ((!il_state_disabled(dev, 0) && !polling(drv, 0) && state_ok(drv, 0, in)) ||
		    il_state_disabled(dev, 1)) {
			t->idx = 0;
			return TEO_OUT_TICK;
		}
		t->idx = 1;
		t->s.idx0 = 0;
		t->duration_ns = tr_ns(drv, 1);
		return TEO_END;
	}
	if (drv->state_count < 2 || t->s.idx < 0) {
		t->idx = 0;
		return TEO_OUT_TICK;
	}
	t->idx = t->s.idx;
	if (t->idx == t->s.idx0) {
		t->duration_ns = tr_ns(drv, t->idx);
		return TEO_END;
	}
	return TEO_DECIDE;
}

/*
 * teo_select() from 6.12 on: the shared prologue, the era's decision, the
 * shared end. ref: the candidate scan by the kernel-shaped teo_state_loop().
 */
static inline __attribute__((always_inline)) int
select_new(struct teo_cpu *cpu, const struct il_driver *drv, struct il_device *dev,
	   const struct il_idle_inputs *in, bool *stop_tick, enum teo_era era, bool ref,
	   unsigned int f)
{
	struct teo_sel t;
	enum teo_step step = select_begin(cpu, drv, dev, in, era, ref, f, &t);

	if (step == TEO_DECIDE) {
		if (era == TEO_6_6 || era == TEO_6_12)
			step = decide_612(cpu, drv, dev, in, &t, f);
		else if (era == TEO_6_18)
			step = decide_618(cpu, drv, dev, in, &t);
		else
			step = decide_71(cpu, drv, dev, in, &t, ref, f);
	}
	return select_finish(drv, dev, in, &t, step, stop_tick);
}

/* One copy per era and path, out of line, so that each keeps its own register use. */
#define TEO_SELECT_FN(fn, era, ref)                                                        \
	static __attribute__((noinline)) int fn(struct teo_cpu *cpu,                       \
						const struct il_driver *drv,               \
						struct il_device *dev,                     \
						const struct il_idle_inputs *in,           \
						bool *stop_tick, unsigned int f)           \
	{                                                                                  \
		return select_new(cpu, drv, dev, in, stop_tick, era, ref, f);              \
	}
TEO_SELECT_FN(select_66, TEO_6_6, false)
TEO_SELECT_FN(select_66_ref, TEO_6_6, true)
TEO_SELECT_FN(select_612, TEO_6_12, false)
TEO_SELECT_FN(select_618, TEO_6_18, false)
TEO_SELECT_FN(select_71, TEO_7_1, false)
TEO_SELECT_FN(select_612_ref, TEO_6_12, true)
TEO_SELECT_FN(select_618_ref, TEO_6_18, true)
TEO_SELECT_FN(select_71_ref, TEO_7_1, true)

/* ------------------------------------------------------------ ops ----- */

static int teo_configure(void *config, const struct il_gov_preset *preset,
			 const struct il_gov_patch *patches, int npatches,
			 struct il_err *err)
{
	struct teo_config *cfg = config;

	if (npatches > 0)
		return il_err_set(err, EINVAL, "teo: unknown patch '%s' (teo@%s has no patches)",
				  patches[0].name, preset->release);
	cfg->features = preset->features;
	cfg->era = teo_era_of(preset->features);
	cfg->select = (const enum teo_select_fn[]){ SEL_54, SEL_55, SEL_61, SEL_66, SEL_612, SEL_618,
						    SEL_71 }[cfg->era];
	return 0;
}

/* Switch to the kernel-shaped state loop (tests); 6.1's loop has that shape already. */
static __attribute__((unused)) void teo_use_reference(struct teo_config *cfg)
{
	/* the eras before 6.6 have no separate candidate scan */
	static const enum teo_select_fn ref[] = { SEL_54, SEL_55, SEL_61, SEL_66_REF, SEL_612_REF,
						  SEL_618_REF, SEL_71_REF };

	cfg->features |= TF_REFERENCE;
	cfg->select = ref[cfg->era];
}

/*
 * teo_enable_device(): zeroed data; the 5.14 .. 6.10 ring of recent
 * intercepts starts empty, the 5.4 .. 5.13 ring of durations with
 * UINT_MAX (5.4) or U64_MAX values.
 */
static void teo_enable(const void *config, void *cpu_data,
		       const struct il_driver *drv, struct il_device *dev)
{
	const struct teo_config *cfg = config;
	struct teo_cpu *cpu = cpu_data;

	(void)drv;
	(void)dev;
	memset(cpu, 0, sizeof(*cpu));
	for (int i = 0; i < TEO_NR_RECENT; i++)
		cpu->recent_idx[i] = -1;
	for (int i = 0; i < TEO_INTERVALS; i++)
		cpu->intervals[i] = cfg->era == TEO_5_4 ? UINT32_MAX : UINT64_MAX;
}

/* Dispatch to the era's teo_select(), each out of line. */
static int teo_select(const void *config, void *cpu_data, const struct il_driver *drv,
		      struct il_device *dev, const struct il_idle_inputs *in,
		      bool *stop_tick)
{
	const struct teo_config *cfg = config;

	const unsigned int f = cfg->features;

	switch (cfg->select) {
	case SEL_54:
		return select_54(cpu_data, drv, dev, in, stop_tick);
	case SEL_55:
		return select_55(cpu_data, drv, dev, in, stop_tick, f);
	case SEL_61:
		return select_61(cpu_data, drv, dev, in, stop_tick, f);
	case SEL_66:
		return select_66(cpu_data, drv, dev, in, stop_tick, f);
	case SEL_612:
		return select_612(cpu_data, drv, dev, in, stop_tick, f);
	case SEL_618:
		return select_618(cpu_data, drv, dev, in, stop_tick, f);
	case SEL_66_REF:
		return select_66_ref(cpu_data, drv, dev, in, stop_tick, f);
	case SEL_612_REF:
		return select_612_ref(cpu_data, drv, dev, in, stop_tick, f);
	case SEL_618_REF:
		return select_618_ref(cpu_data, drv, dev, in, stop_tick, f);
	case SEL_71_REF:
		return select_71_ref(cpu_data, drv, dev, in, stop_tick, f);
	case SEL_71:
	default:
		return select_71(cpu_data, drv, dev, in, stop_tick, f);
	}
}

static void teo_reflect(const void *config, void *cpu_data, const struct il_driver *drv,
			struct il_device *dev, int index, const struct il_idle_inputs *in)
{
	const struct teo_config *cfg = config;
	struct teo_cpu *cpu = cpu_data;

	(void)drv;
	switch (cfg->era) {
	case TEO_5_4:
	case TEO_5_5:
		/* u64 times until the v5.13 s64 change */
		reflect_61(cpu, dev, index, in, !(cfg->features & TF_SHORT513));
		break;
	case TEO_6_1:
	case TEO_6_6:
	case TEO_6_12:
		reflect_61(cpu, dev, index, in, false);
		break;
	case TEO_6_18:
		reflect_618(cpu, dev, index, in);
		break;
	case TEO_7_1:
	default:
		cpu->tick_wakeup = in->got_tick;
		dev->last_state_idx = index;
		break;
	}
}

const struct il_gov_ops il_gov_teo = {
	.name = "teo",
	.rating = 19,
	.presets = teo_presets,
	.npresets = sizeof(teo_presets) / sizeof(teo_presets[0]),
	.config_size = sizeof(struct teo_config),
	.cpu_data_size = sizeof(struct teo_cpu),
	.configure = teo_configure,
	.enable = teo_enable,
	.select = teo_select,
	.reflect = teo_reflect,
};
