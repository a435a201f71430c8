// SPDX-License-Identifier: GPL-2.0-only
/*
 * The menu governor: predict the idle duration from the time till the next
 * timer scaled by a per-magnitude correction factor, and from a detector of
 * repeating intervals over the last 8 wake-ups; take the deepest state whose
 * target residency fits the prediction and whose exit latency fits PM QoS.
 *
 * Follows drivers/cpuidle/governors/menu.c of mainline, one preset per
 * release tag whose text decides differently from the one before (see
 * docs/gov-menu.md for the full mapping, with blob ids):
 *   v5.4   blob e5a5d0c8d66b: everything in µs (timer, prediction,
 *          residencies, latency limit, ring), 12 buckets, iowait multiplier;
 *   v5.5   blob b0a7ad566081: c1d51f684c72 "Use nanoseconds as the unit of
 *          time"; a negative sleep length still goes into the u64 timer;
 *   v5.13  blob c3aa8d6ccee3: "Take negative sleep length values into
 *          account"; also v6.1 (blob c4922684f305, types and a comment);
 *   v6.6   blob b96e3da0fedd: 5484e31bbbff, pattern first, timers only above
 *          15 µs; also v6.12 (blob f3c9d49f0f2a, comments);
 *   v6.13  blob 28363bfa3e4c: 38f83090f515 "Remove iowait influence";
 *   v6.15  blob 39aa0aea61c6: the two-sided detector series, 85975daeaa4d;
 *   v6.17  blob b2e3d0b0a116: fa3fa55de0d6, 779b1a1cb13a;
 *   v6.18  blob 23239b0c04f9: 17224c1d2574 (no decision change),
 *          10fad4012234 (revert of 85975daeaa4d), db86f55bf81a;
 *   v6.19  blob 64d6f7a1c776: 07d815701274 (escape below 15 µs only);
 *   v7.0   80606f4eb8d7 (timers always checked with the tick stopped);
 *   v7.1   e57c2bf2e89d (SAFE_TIMER_RANGE_NS).
 * Texts read: the release texts rebuilt and hash-checked by the history
 * notes (kernel-texts/, outside the repository), torvalds 5484e31bbbff and
 * 17224c1d2574 in full; the 7.0 and 7.1 texts are rebuilt from postings.
 *
 * Each change-history entry is one feature bit; a preset is the set of
 * bits its text contains. Named patches change only the polling-state
 * escape: +no-poll-escape, +poll-escape-15us, +poll-escape=DURATION.
 *
 * Integer semantics are the kernel's: u64 wrap-around in the timer scaling
 * and in the sum of squares, u32 truncation of timer_us, of the stored
 * intervals and of the correction factors; the signed/unsigned flavour of
 * every comparison is noted where it matters.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/duration.h"
#include "idlelab/governor.h"

#if defined(__SSE2__) && !defined(MENU_NO_SIMD)
#include <emmintrin.h>
#endif

#define BUCKETS_MAX 12            /* 12 until 38f83090f515, then 6 */
#define INTERVAL_SHIFT 3
#define INTERVALS (1u << INTERVAL_SHIFT)
#define RESOLUTION 1024u
#define DECAY 8u
#define MAX_INTERESTING_NS 50000000ull        /* 50000 µs */
#define TICK_WAKEUP_MEASURED_NS (9 * MAX_INTERESTING_NS / 10)
#define UNITY_FACTOR (RESOLUTION * DECAY)
#define TIMER_SCALE (UNITY_FACTOR * 1000ull)  /* factor units × ns per µs */
#define NO_PREDICTION_US UINT32_MAX           /* get_typical_interval() gave up */
#define ONE_SIDED_THRESH_US 2147483647u       /* INT_MAX: first one-sided cut */

/* Feature bits: one per change-history entry (see docs/gov-menu.md). */
enum {
	F_PATTERN_FIRST     = 1u << 0,  /* 5484e31bbbff skip sleep length */
	F_NO_IOWAIT         = 1u << 1,  /* 38f83090f515 6 buckets, no multiplier */
	F_TWO_SIDED         = 1u << 2,  /* v6.15 get_typical_interval() rework */
	F_MAX_WHEN_DOUBT    = 1u << 3,  /* 85975daeaa4d return max if >= 4 left */
	F_REJECTED_UINT_MAX = 1u << 4,  /* fa3fa55de0d6 */
	F_LATENCY_FIRST     = 1u << 5,  /* 779b1a1cb13a */
	F_ESCAPE_EL_PRED    = 1u << 6,  /* db86f55bf81a */
	F_ESCAPE_RES_THRESH = 1u << 7,  /* 07d815701274 */
	F_REVERT_MAX        = 1u << 8,  /* 10fad4012234 reverts 85975daeaa4d */
	F_TIMERS_STOPPED    = 1u << 9,  /* 80606f4eb8d7 */
	F_SAFE_TIMER_RANGE  = 1u << 10, /* e57c2bf2e89d */
	F_NS                = 1u << 11, /* c1d51f684c72 nanoseconds (v5.5); else µs */
	F_NEG_SLEEP         = 1u << 12, /* v5.13 negative sleep length -> 0 */
	/* not a kernel change: run the kernel-shaped detector (set by tests only) */
	F_REFERENCE         = 1u << 31,
};

#define F_V5_5 (F_NS)
#define F_V5_13 (F_V5_5 | F_NEG_SLEEP)
#define F_V6_6 (F_V5_13 | F_PATTERN_FIRST)
#define F_V6_12 F_V6_6
#define F_V6_13 (F_V6_6 | F_NO_IOWAIT)
#define F_V6_15 (F_V6_13 | F_TWO_SIDED | F_MAX_WHEN_DOUBT)
#define F_V6_17 (F_V6_15 | F_REJECTED_UINT_MAX | F_LATENCY_FIRST)
#define F_V6_18 (F_V6_17 | F_ESCAPE_EL_PRED | F_REVERT_MAX)
#define F_V6_19 (F_V6_18 | F_ESCAPE_RES_THRESH)
#define F_V7_0 (F_V6_19 | F_TIMERS_STOPPED)
#define F_V7_1 (F_V7_0 | F_SAFE_TIMER_RANGE)

/*
 * The presets: which change-history entries each release's text contains.
 * 6.1 and 6.12 decide as 5.13 and 6.6 do (their texts changed types and
 * comments only); they stay rows of their own, as specs name them.
 */
static const struct il_gov_preset menu_presets[] = {
	{ "5.4", 0, "release blob e5a5d0c8d66b (µs era)" },
	{ "5.5", F_V5_5, "c1d51f684c72 (nanoseconds); release blob b0a7ad566081" },
	{ "5.13", F_V5_13, "negative sleep length taken into account; release blob c3aa8d6ccee3" },
	{ "6.1", F_V5_13, "post-image of 14e6c7067185 (v5.17), the text before 5484e31bbbff; "
			  "release blob c4922684f305" },
	{ "6.6", F_V6_6, "5484e31bbbff; release blob b96e3da0fedd" },
	{ "6.12", F_V6_12, "5484e31bbbff + bf183113842b (comments); release blob f3c9d49f0f2a" },
	{ "6.13", F_V6_13, "38f83090f515; release blob 28363bfa3e4c" },
	{ "6.15", F_V6_15, "13982929fb08 + 60256e458e1c + 8de7606f0fe2 + 85975daeaa4d; "
			   "release blob 39aa0aea61c6" },
	{ "6.17", F_V6_17, "fa3fa55de0d6 + 779b1a1cb13a; release blob b2e3d0b0a116" },
	{ "6.18", F_V6_18, "17224c1d2574 + 10fad4012234 + db86f55bf81a; release blob 23239b0c04f9" },
	{ "6.19", F_V6_19, "6.18 + 07d815701274; release blob 64d6f7a1c776" },
	{ "7.0", F_V7_0, "6.19 + 80606f4eb8d7" },
	{ "7.1", F_V7_1, "7.0 + e57c2bf2e89d" },
};

/* How the polling-state escape in the state walk is gated. */
enum escape_mode {
	ESCAPE_NONE,       /* +no-poll-escape: never leave POLL for a residency miss */
	ESCAPE_ANY,        /* any residency (before 07d815701274) */
	ESCAPE_BELOW,      /* only states with target residency < escape_below_ns */
};

struct menu_config {
	unsigned int features;      /* F_* */
	enum escape_mode escape;
	int64_t escape_below_ns;    /* for ESCAPE_BELOW, compared signed */
	char patch[48];             /* normalised patch text for describe_extra */
};

/*
 * struct menu_device, plus a cache of the ring: its values in ascending
 * order, their sum and sum of squares (mod 2^64) and how many exceed
 * INT_MAX or equal UINT_MAX, kept up to date by push_interval() so the
 * detector never rescans or sorts. 144 bytes.
 */
struct menu_cpu {
	uint64_t next_timer_ns;               /* sleep length used by the last select */
	uint64_t ring_sum;                    /* Σ intervals, mod 2^64 */
	uint64_t ring_sumsq;                  /* Σ intervals², mod 2^64 */
	uint32_t intervals[INTERVALS];        /* recent idle durations, µs (kernel order) */
	uint32_t sorted[INTERVALS];           /* the same values, ascending */
	uint32_t correction_factor[BUCKETS_MAX];
	uint8_t bucket;                       /* bucket of the last select */
	uint8_t interval_ptr;
	uint8_t needs_update;
	uint8_t tick_wakeup;
	uint8_t n_uint_max;                   /* ring values == UINT_MAX */
	uint8_t n_over_int_max;               /* ring values > INT_MAX */
};

/* Bucket of a duration: its decimal magnitude from 10 µs to 100 ms. */
static inline unsigned int which_bucket(uint64_t duration_ns)
{
	/* the kernel's ladder of strict "<" tests, as a branch-free count */
	return (duration_ns >= 10000ull) + (duration_ns >= 100000ull) +
	       (duration_ns >= 1000000ull) + (duration_ns >= 10000000ull) +
	       (duration_ns >= 100000000ull);
}

/*
 * Replace one occurrence of old by new in the ascending array a[8],
 * keeping it sorted; branch-free.
 */
/* c ? x : y without a branch (the selects below are data-dependent). */
static inline uint32_t pick(bool c, uint32_t x, uint32_t y)
{
	return y ^ ((x ^ y) & (0u - (uint32_t)c));
}

static inline uint64_t pick64(bool c, uint64_t x, uint64_t y)
{
	return y ^ ((x ^ y) & (0ull - (uint64_t)c));
}

static inline __attribute__((unused)) void
sorted_replace_scalar(uint32_t a[INTERVALS], uint32_t old, uint32_t new)
{
	/* spelt out so that everything stays in registers */
	const uint32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5],
		       a6 = a[6], a7 = a[7];
	/* p: first position of old; b: the other seven */
	const unsigned int p = (a0 < old) + (a1 < old) + (a2 < old) + (a3 < old) +
			       (a4 < old) + (a5 < old) + (a6 < old) + (a7 < old);
	const uint32_t b0 = pick(p > 0, a0, a1), b1 = pick(p > 1, a1, a2),
		       b2 = pick(p > 2, a2, a3), b3 = pick(p > 3, a3, a4),
		       b4 = pick(p > 4, a4, a5), b5 = pick(p > 5, a5, a6),
		       b6 = pick(p > 6, a6, a7);
	/* q: where new goes among them */
	const unsigned int q = (b0 < new) + (b1 < new) + (b2 < new) + (b3 < new) +
			       (b4 < new) + (b5 < new) + (b6 < new);

	a[0] = pick(q > 0, b0, new);
	a[1] = pick(q > 1, b1, pick(q == 1, new, b0));
	a[2] = pick(q > 2, b2, pick(q == 2, new, b1));
	a[3] = pick(q > 3, b3, pick(q == 3, new, b2));
	a[4] = pick(q > 4, b4, pick(q == 4, new, b3));
	a[5] = pick(q > 5, b5, pick(q == 5, new, b4));
	a[6] = pick(q > 6, b6, pick(q == 6, new, b5));
	a[7] = pick(q == 7, new, b6);
}

#if defined(__SSE2__) && !defined(MENU_NO_SIMD)
/*
 * The same with SSE2, lane by lane, in the biased (signed) order of the
 * unsigned values. Without one old, lane i of the sorted array is a[i]
 * where a[i] < old, else a[i + 1] (b[7] = +inf); then new goes in by
 * lane i = max(b[i - 1], min(b[i], new)) with b[-1] = -inf: b[i - 1] where
 * new is not above it, new where it lies between the two, b[i] above.
 * Equal values are interchangeable, so ties need no care.
 */
static inline __m128i sel128(__m128i m, __m128i x, __m128i y)
{
	return _mm_or_si128(_mm_and_si128(m, x), _mm_andnot_si128(m, y));
}

static inline __m128i min_epi32(__m128i x, __m128i y)
{
	return sel128(_mm_cmpgt_epi32(x, y), y, x);
}

static inline __m128i max_epi32(__m128i x, __m128i y)
{
	return sel128(_mm_cmpgt_epi32(x, y), x, y);
}

static inline void sorted_replace(uint32_t a[INTERVALS], uint32_t old, uint32_t new)
{
	const __m128i bias = _mm_set1_epi32(INT32_MIN);  /* unsigned order as signed */
	const __m128i lane0_min = _mm_setr_epi32(INT32_MIN, 0, 0, 0);
	const __m128i lane3_max = _mm_setr_epi32(0, 0, 0, INT32_MAX);
	__m128i lo = _mm_xor_si128(_mm_loadu_si128((const __m128i *)a), bias);
	__m128i hi = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(a + 4)), bias);
	__m128i o = _mm_set1_epi32((int)(old ^ 0x80000000u));
	__m128i n = _mm_set1_epi32((int)(new ^ 0x80000000u));
	/* b[i] = a[i] < old ? a[i] : a[i + 1] */
	__m128i next_lo = _mm_or_si128(_mm_srli_si128(lo, 4), _mm_slli_si128(hi, 12));
	__m128i next_hi = _mm_or_si128(_mm_srli_si128(hi, 4), lane3_max);
	__m128i b_lo = sel128(_mm_cmpgt_epi32(o, lo), lo, next_lo);
	__m128i b_hi = sel128(_mm_cmpgt_epi32(o, hi), hi, next_hi);
	/* prev[i] = b[i - 1] */
	__m128i prev_lo = _mm_or_si128(_mm_slli_si128(b_lo, 4), lane0_min);
	__m128i prev_hi = _mm_or_si128(_mm_slli_si128(b_hi, 4), _mm_srli_si128(b_lo, 12));

	lo = max_epi32(prev_lo, min_epi32(b_lo, n));
	hi = max_epi32(prev_hi, min_epi32(b_hi, n));
	_mm_storeu_si128((__m128i *)a, _mm_xor_si128(lo, bias));
	_mm_storeu_si128((__m128i *)(a + 4), _mm_xor_si128(hi, bias));
}
#elif defined(__GNUC__) && !defined(__clang__)
/*
 * The same with GCC's generic vectors (two 4-lane halves): a handful of
 * compares, selects and lane shifts instead of ~200 scalar instructions.
 */
typedef uint32_t v4u __attribute__((vector_size(16)));
typedef int32_t v4s __attribute__((vector_size(16)));

static inline uint32_t lanes_sum(v4u x)
{
	return x[0] + x[1] + x[2] + x[3];
}

static inline void sorted_replace(uint32_t a[INTERVALS], uint32_t old, uint32_t new)
{
	const v4u i_lo = { 0, 1, 2, 3 }, i_hi = { 4, 5, 6, 7 };
	v4u lo, hi;

	memcpy(&lo, a, sizeof(lo));
	memcpy(&hi, a + 4, sizeof(hi));
	/* p: first position of old (masks are all-ones, so subtract) */
	uint32_t p = 0u - lanes_sum((v4u)(lo < old) + (v4u)(hi < old));
	/* drop position p: lanes >= p take their right neighbour */
	v4u sl = __builtin_shuffle(lo, hi, (v4u){ 1, 2, 3, 4 });
	v4u sh = __builtin_shuffle(hi, (v4u){ 1, 2, 3, 3 });
	v4u keep_lo = (v4u)(i_lo < p), keep_hi = (v4u)(i_hi < p);
	v4u b_lo = (lo & keep_lo) | (sl & ~keep_lo);
	v4u b_hi = (hi & keep_hi) | (sh & ~keep_hi);
	/* q: where new goes among the 7 left (lane 7 is a duplicate: masked) */
	const v4u seven = { ~0u, ~0u, ~0u, 0 };
	uint32_t q = 0u - lanes_sum((v4u)(b_lo < new) + ((v4u)(b_hi < new) & seven));
	/* open position q: lanes > q take their left neighbour */
	v4u rl = __builtin_shuffle(b_lo, (v4u){ 0, 0, 1, 2 });
	v4u rh = __builtin_shuffle(b_lo, b_hi, (v4u){ 3, 4, 5, 6 });
	v4u nv = { new, new, new, new };
	v4u lt_lo = (v4u)(i_lo < q), lt_hi = (v4u)(i_hi < q);
	v4u eq_lo = (v4u)(i_lo == q), eq_hi = (v4u)(i_hi == q);
	lo = (b_lo & lt_lo) | (nv & eq_lo) | (rl & ~(lt_lo | eq_lo));
	hi = (b_hi & lt_hi) | (nv & eq_hi) | (rh & ~(lt_hi | eq_hi));
	memcpy(a, &lo, sizeof(lo));
	memcpy(a + 4, &hi, sizeof(hi));
}
#else
#define sorted_replace sorted_replace_scalar
#endif

/* menu_update_intervals(): the ring, and its cache. */
static inline void push_interval(struct menu_cpu *d, uint32_t value_us)
{
	uint32_t old = d->intervals[d->interval_ptr];

	d->intervals[d->interval_ptr] = value_us;
	d->interval_ptr = (uint8_t)((d->interval_ptr + 1) & (INTERVALS - 1));
	d->n_uint_max = (uint8_t)(d->n_uint_max + (value_us == UINT32_MAX) - (old == UINT32_MAX));
	d->n_over_int_max = (uint8_t)(d->n_over_int_max + (value_us > ONE_SIDED_THRESH_US) -
				      (old > ONE_SIDED_THRESH_US));
	d->ring_sum += (uint64_t)value_us - old;
	d->ring_sumsq += (uint64_t)value_us * value_us - (uint64_t)old * old;
	sorted_replace(d->sorted, old, value_us);
}

/* Rebuild the cache from intervals[] (after enable, or a direct write). */
static void resync_ring(struct menu_cpu *d)
{
	d->ring_sum = 0;
	d->ring_sumsq = 0;
	d->n_uint_max = 0;
	d->n_over_int_max = 0;
	for (unsigned int k = 0; k < INTERVALS; k++) {
		uint32_t v = d->intervals[k];
		unsigned int j = k;

		d->n_uint_max += v == UINT32_MAX;
		d->n_over_int_max += v > ONE_SIDED_THRESH_US;
		d->ring_sum += v;
		d->ring_sumsq += (uint64_t)v * v;
		while (j && d->sorted[j - 1] > v) {
			d->sorted[j] = d->sorted[j - 1];
			j--;
		}
		d->sorted[j] = v;
	}
}

/*
 * get_typical_interval(), the repeating-interval detector, shaped as the
 * kernel writes it: each round one pass over the ring in its own order,
 * the thresholds, the divisions and the tests in the kernel's order. These
 * two are the reference: menu_select() runs the fast forms further down
 * (typical_two_sided(), typical_one_sided(), which work on a sorted copy
 * of the ring), and tests/governors/test_menu.c checks that both give the
 * same on random rings and on every decision of the test logs, where a
 * configuration with F_REFERENCE set runs these instead.
 *
 * Since the v6.15 rework (13982929fb08, 60256e458e1c, 8de7606f0fe2): one
 * pass per round for the mean and E[x^2], samples kept strictly between a
 * lower and an upper threshold (starting at -1 and UINT_MAX), and an
 * outlier round moves whichever threshold is on the side farther from the
 * mean (the upper one on a tie). With fewer than 6 samples left it gives
 * up, or (85975daeaa4d, until its revert 10fad4012234) returns the maximum
 * while 4 or more are left.
 */
static __attribute__((noinline)) unsigned int
get_typical_interval(const struct menu_cpu *data, unsigned int features)
{
	int64_t value, min_thresh = -1, max_thresh = UINT32_MAX;
	unsigned int max, min, divisor;
	uint64_t avg, variance, avg_sq;

again:
	max = 0;
	min = UINT32_MAX;
	avg = 0;
	variance = 0;
	divisor = 0;
	for (unsigned int i = 0; i < INTERVALS; i++) {
		value = data->intervals[i];
		if (value <= min_thresh || value >= max_thresh)
			continue;   /* outside this round's window */
		divisor++;
		avg += (uint64_t)value;
		/* the kernel squares an s64 that may reach 2^64: it wraps */
		variance += (uint64_t)value * (uint64_t)value;
		if (value > max)
			max = (unsigned int)value;
		if (value < min)
			min = (unsigned int)value;
	}
	if (!max)
		return UINT32_MAX;  /* nothing in the window, or only zeros */

	if (divisor == INTERVALS) {
		avg >>= INTERVAL_SHIFT;
		variance >>= INTERVAL_SHIFT;
	} else {
		avg /= divisor;
		variance /= divisor;
	}
	avg_sq = avg * avg;
	variance -= avg_sq;

	/* accept a small spread: 6 standard deviations within the mean, or 20 us */
	if (variance <= UINT64_MAX / 36) {
		if ((avg_sq > variance * 36 && divisor * 4 >= INTERVALS * 3) ||
		    variance <= 400)
			return (unsigned int)avg;
	}

	if (divisor * 4 <= INTERVALS * 3) {
		if ((features & (F_MAX_WHEN_DOUBT | F_REVERT_MAX)) == F_MAX_WHEN_DOUBT &&
		    divisor >= INTERVALS / 2)
			return max;
		return UINT32_MAX;
	}

	if (avg - min > max - avg)
		min_thresh = min;
	else
		max_thresh = max;
	goto again;
}

/*
 * get_typical_interval() before v6.15 (the text of v6.1 and v6.12): a first
 * pass for the mean over the samples at or below one inclusive threshold
 * (INT_MAX at first), a second for the variance as a sum of squared s64
 * differences; an outlier round lowers the threshold to one below the
 * maximum. v6.1 gives up at once when even the smallest sample reaches the
 * timer-based prediction predicted_us; from 5484e31bbbff (F_PATTERN_FIRST,
 * where the detector runs before the timers are read) when all samples are
 * 0.
 */
static __attribute__((noinline)) unsigned int
get_typical_interval_pre_6_15(const struct menu_cpu *data, unsigned int features,
			      unsigned int predicted_us)
{
	unsigned int min, max, thresh = ONE_SIDED_THRESH_US, avg;
	uint64_t sum, variance;
	int divisor;

again:
	min = UINT32_MAX;
	max = 0;
	sum = 0;
	divisor = 0;
	for (unsigned int i = 0; i < INTERVALS; i++) {
		unsigned int value = data->intervals[i];

		if (value <= thresh) {
			sum += value;
			divisor++;
			if (value > max)
				max = value;
			if (value < min)
				min = value;
		}
	}
	if (features & F_PATTERN_FIRST) {
		if (!max)
			return UINT32_MAX;
	} else if (min >= predicted_us) {
		return UINT32_MAX;  /* the result could not beat the timer */
	}

	if (divisor == INTERVALS)
		avg = (unsigned int)(sum >> INTERVAL_SHIFT);
	else
		avg = (unsigned int)(sum / (unsigned int)divisor);

	variance = 0;
	for (unsigned int i = 0; i < INTERVALS; i++) {
		unsigned int value = data->intervals[i];

		if (value <= thresh) {
			int64_t diff = (int64_t)value - avg;

			/* s64 square, summed as the kernel's u64 */
			variance += (uint64_t)diff * (uint64_t)diff;
		}
	}
	if (divisor == INTERVALS)
		variance >>= INTERVAL_SHIFT;
	else
		variance /= (unsigned int)divisor;

	if (variance <= UINT64_MAX / 36) {
		if (((uint64_t)avg * avg > variance * 36 && divisor * 4 >= (int)INTERVALS * 3) ||
		    variance <= 400)
			return avg;
	}

	if (divisor * 4 <= (int)INTERVALS * 3)
		return UINT32_MAX;

	thresh = max - 1;
	goto again;
}

/*
 * x / n for n in 1..8 by a constant per case, so the compiler uses a
 * multiply instead of a 64-bit divide; results are those of x / n.
 */
static inline uint64_t div_small(uint64_t x, unsigned int n)
{
	switch (n) {
	case 1: return x;
	case 2: return x / 2;
	case 3: return x / 3;
	case 4: return x / 4;
	case 5: return x / 5;
	case 6: return x / 6;
	case 7: return x / 7;
	default: return x / 8;
	}
}

/*
 * Repeating-interval detector since the v6.15 rework: mean and variance in
 * one pass (E[x²] − avg²), exclusive thresholds starting at −1 and UINT_MAX,
 * outliers dropped from whichever end is farther from the mean (ties: the
 * top), until 6 samples are left.
 *
 * Each round keeps the samples strictly between the thresholds, which is a
 * window [lo, hi) of the sorted values; its sums are the ring's sums less
 * the values outside it. Sums taken in another order agree modulo 2^64, so
 * the kernel's wrap-arounds come out the same.
 */
static inline __attribute__((always_inline)) uint32_t
typical_two_sided(const struct menu_cpu *d, unsigned int features)
{
	const uint32_t *a = d->sorted;
	unsigned int lo = 0, hi = INTERVALS - d->n_uint_max;
	uint64_t nmax = d->n_uint_max;
	uint64_t sum = d->ring_sum - nmax * UINT32_MAX;
	uint64_t sumsq = d->ring_sumsq - nmax * ((uint64_t)UINT32_MAX * UINT32_MAX);

	for (;;) {
		if (hi <= lo || !a[hi - 1])
			return NO_PREDICTION_US;  /* nothing left, or all zero */

		unsigned int divisor = hi - lo;
		uint32_t min = a[lo], max = a[hi - 1];
		uint64_t avg = div_small(sum, divisor);
		uint64_t avg_sq = avg * avg;
		uint64_t variance = div_small(sumsq, divisor) - avg_sq;

		if (variance <= UINT64_MAX / 36 &&
		    ((avg_sq > variance * 36 && divisor * 4 >= INTERVALS * 3) ||
		     variance <= 400))
			return (uint32_t)avg;

		if (divisor * 4 <= INTERVALS * 3) {
			if ((features & (F_MAX_WHEN_DOUBT | F_REVERT_MAX)) == F_MAX_WHEN_DOUBT &&
			    divisor >= INTERVALS / 2)
				return max;
			return NO_PREDICTION_US;
		}
		if (avg - min > max - avg) {
			do {                             /* min_thresh = min */
				sum -= min;
				sumsq -= (uint64_t)min * min;
				lo++;
			} while (lo < hi && a[lo] == min);
		} else {
			do {                             /* max_thresh = max */
				sum -= max;
				sumsq -= (uint64_t)max * max;
				hi--;
			} while (hi > lo && a[hi - 1] == max);
		}
	}
}

/*
 * The detector before v6.15: two passes, an inclusive upper threshold that
 * starts at INT_MAX and drops below the current maximum each round. In v6.1
 * it gave up early when even the smallest sample reached the timer-based
 * prediction (limit_us); from 5484e31bbbff it gives up when all are 0.
 * The kernel's second pass sums (v − avg)² as s64 products; for values
 * <= INT_MAX that sum stays below 2^64, so it equals Σv² − 2·avg·Σv +
 * n·avg² taken modulo 2^64.
 */
static uint32_t typical_one_sided(const struct menu_cpu *d, bool pattern_first,
				  uint32_t limit_us)
{
	const uint32_t *a = d->sorted;
	unsigned int hi = INTERVALS - d->n_over_int_max;
	uint64_t sum = d->ring_sum, sumsq = d->ring_sumsq;

	for (unsigned int k = hi; k < INTERVALS; k++) {
		sum -= a[k];
		sumsq -= (uint64_t)a[k] * a[k];
	}
	for (;;) {
		uint32_t min = hi ? a[0] : UINT32_MAX, max = hi ? a[hi - 1] : 0;

		if (pattern_first ? !max : min >= limit_us)
			return NO_PREDICTION_US;

		unsigned int divisor = hi;
		uint32_t avg = (uint32_t)div_small(sum, divisor);
		uint64_t variance = sumsq - 2 * (uint64_t)avg * sum +
				    (uint64_t)divisor * avg * avg;

		variance = div_small(variance, divisor);
		if (variance <= UINT64_MAX / 36 &&
		    (((uint64_t)avg * avg > variance * 36 && divisor * 4 >= INTERVALS * 3) ||
		     variance <= 400))
			return avg;
		if (divisor * 4 <= INTERVALS * 3)
			return NO_PREDICTION_US;
		do {                                     /* thresh = max − 1 */
			sum -= max;
			sumsq -= (uint64_t)max * max;
			hi--;
		} while (hi && a[hi - 1] == max);
	}
}

/*
 * The detector menu_select() runs when it reads the pattern first: the fast
 * forms, or with F_REFERENCE (set by tests only; a bit of the features,
 * which are in a register anyway) the kernel-shaped get_typical_interval()
 * they are tested against.
 */
static inline __attribute__((always_inline)) uint32_t
typical_interval(const struct menu_cpu *d, unsigned int features)
{
	if (__builtin_expect(features & F_REFERENCE, 0))
		return features & F_TWO_SIDED ? get_typical_interval(d, features)
					      : get_typical_interval_pre_6_15(d, features, 0);
	if (features & F_TWO_SIDED)
		return typical_two_sided(d, features);
	return typical_one_sided(d, true, 0);
}

/*
 * target residency <= delta_tick. From v5.13 the state fields are s64 and a
 * negative delta_tick fits nothing; v5.5 .. v5.12 compared the u64 field
 * with the s64 delta_next as unsigned, so a negative one fits every state
 * (residencies are never negative).
 */
static inline bool fits_delta_tick(int64_t residency_ns, int64_t delta_tick, unsigned int f)
{
	return residency_ns <= delta_tick || (!(f & F_NEG_SLEEP) && delta_tick < 0);
}

/*
 * menu_update(): turn the last idle period into a correction-factor sample
 * and an interval sample, as seen by the next select.
 */
static inline __attribute__((always_inline)) void
menu_update(struct menu_cpu *d, const struct il_driver *drv, const struct il_device *dev,
	    int64_t tick_nsec)
{
	const struct il_state *target = &drv->states[dev->last_state_idx];
	const uint64_t next_ns = d->next_timer_ns;
	const uint64_t residency_ns = (uint64_t)dev->last_residency_ns;
	const uint64_t exit_ns = (uint64_t)target->exit_latency_ns;

	/*
	 * All three candidates are computed and one is picked without a branch
	 * (conditions joined with &, not &&, so that they do not branch either):
	 * which rule applies changes from one idle period to the next.
	 *  - a tick the prediction expected to be stopped woke us: assume long;
	 *  - the poll timed out: the timer would have woken a better choice;
	 *  - else the residency less the exit latency, or half of it when it
	 *    is not more than twice that latency.
	 */
	uint64_t measured_ns = pick64(residency_ns > 2 * exit_ns, /* s64 2*el wraps in the kernel */
				      residency_ns - exit_ns, residency_ns / 2);
	measured_ns = pick64(((target->flags & IL_FLAG_POLLING) != 0) & dev->poll_time_limit,
			     next_ns, measured_ns);
	measured_ns = pick64(d->tick_wakeup & (next_ns > (uint64_t)tick_nsec),
			     TICK_WAKEUP_MEASURED_NS, measured_ns);
	measured_ns = pick64(measured_ns > next_ns, next_ns, measured_ns);

	/* measured <= next, so the ratio is at most RESOLUTION (next 0: unused) */
	uint32_t ratio = (uint32_t)((RESOLUTION * measured_ns) / (next_ns | (next_ns == 0)));
	uint32_t factor = d->correction_factor[d->bucket];
	factor -= factor / DECAY;
	factor += pick((next_ns > 0) & (measured_ns < MAX_INTERESTING_NS), ratio, RESOLUTION);
	d->correction_factor[d->bucket] = factor;

	/*
	 * ktime_to_us(): an s64 division, stored as unsigned int. measured_ns
	 * exceeds KTIME_MAX only in v5.5 .. v5.12, where a negative sleep length
	 * reached the u64 timer: as s64 it is negative and truncates towards 0.
	 */
	push_interval(d, (uint32_t)((int64_t)measured_ns / 1000));
}

/* ------------------------------------------------ v5.4: microseconds -- */

/*
 * Before c1d51f684c72 (v5.5) menu computed in µs: the timer is
 * ktime_to_us() of the sleep length, truncated to unsigned int, the state
 * parameters are the drivers' int µs values, the latency limit is the int
 * µs of cpuidle_governor_latency_req() and the residency the core's int µs
 * (ktime_us_delta(), capped at INT_MAX). The per-CPU data is shared with
 * the ns code: next_timer_ns holds next_timer_us, and the ring and the
 * factors are the same u32 values.
 */
#define MAX_INTERESTING_US 50000u

/* TICK_USEC = (USEC_PER_SEC + HZ/2) / HZ, HZ recovered from TICK_NSEC. */
static int64_t tick_usec_of(int64_t tick_nsec)
{
	int64_t hz = tick_nsec > 0 ? (1000000000 + tick_nsec / 2) / tick_nsec : 0;

	if (hz > 0 && (1000000000 + hz / 2) / hz == tick_nsec)
		return (1000000 + hz / 2) / hz;
	return tick_nsec / 1000;
}

/* which_bucket() of v5.4: the same magnitudes in µs. */
static inline unsigned int which_bucket_us(uint32_t duration_us)
{
	return (duration_us >= 10u) + (duration_us >= 100u) + (duration_us >= 1000u) +
	       (duration_us >= 10000u) + (duration_us >= 100000u);
}

static void menu_update_usec(struct menu_cpu *d, const struct il_driver *drv,
			     const struct il_device *dev, int64_t tick_usec)
{
	const struct il_state *target = &drv->states[dev->last_state_idx];
	const uint32_t next_us = (uint32_t)d->next_timer_ns;
	uint32_t measured_us;

	if (d->tick_wakeup && (int64_t)next_us > tick_usec) {
		measured_us = 9 * MAX_INTERESTING_US / 10;
	} else if ((target->flags & IL_FLAG_POLLING) && dev->poll_time_limit) {
		measured_us = next_us;
	} else {
		uint32_t el = il_state_el_us(target);

		/* the core's int last_residency; the comparison is unsigned */
		measured_us = (uint32_t)il_device_last_residency_us(dev);
		if (measured_us > 2u * el)
			measured_us -= el;
		else
			measured_us /= 2;
	}
	if (measured_us > next_us)
		measured_us = next_us;

	uint32_t factor = d->correction_factor[d->bucket];
	factor -= factor / DECAY;
	if (next_us > 0 && measured_us < MAX_INTERESTING_US)
		factor += RESOLUTION * measured_us / next_us;
	else
		factor += RESOLUTION;
	d->correction_factor[d->bucket] = factor;
	push_interval(d, measured_us);
}

static __attribute__((noinline)) int
menu_select_usec(const struct menu_config *cfg, struct menu_cpu *d, const struct il_driver *drv,
		 struct il_device *dev, const struct il_idle_inputs *in, bool *stop_tick)
{
	const unsigned int f = cfg->features;
	const struct il_state *s = drv->states;
	const int64_t tick_usec = tick_usec_of(in->tick_nsec);
	const bool stopped = in->tick_stopped;
	/* cpuidle_governor_latency_req() of v5.4 is an int in µs */
	int32_t latency_req = il_latency_req_us(in->latency_req_ns);
	const unsigned int nr_iowait = in->nr_iowait;
	uint32_t next_us, predicted_us, typical_us;
	int i, idx;

	if (d->needs_update) {
		menu_update_usec(d, drv, dev, tick_usec);
		d->needs_update = 0;
	}
	/* ktime_to_us() truncates towards 0; the int64 goes into an unsigned int */
	next_us = (uint32_t)(in->sleep_length_ns / 1000);
	d->next_timer_ns = next_us;
	d->bucket = (uint8_t)(which_bucket_us(next_us) + (nr_iowait ? BUCKETS_MAX / 2 : 0));

	if (drv->state_count <= 1 || latency_req == 0 ||
	    ((next_us < il_state_tr_us(&s[1]) || (uint32_t)latency_req < il_state_el_us(&s[1])) &&
	     !dev->states_usage[0].disable)) {
		*stop_tick = !(s[0].flags & IL_FLAG_POLLING);
		return 0;
	}

	/* DIV_ROUND_CLOSEST_ULL(next_us * factor, RESOLUTION * DECAY) */
	predicted_us = (uint32_t)(((uint64_t)next_us * d->correction_factor[d->bucket] +
				   UNITY_FACTOR / 2) / UNITY_FACTOR);
	typical_us = __builtin_expect(f & F_REFERENCE, 0)
		     ? get_typical_interval_pre_6_15(d, f, predicted_us)
		     : typical_one_sided(d, false, predicted_us);
	if (typical_us < predicted_us)
		predicted_us = typical_us;

	if (stopped) {
		if ((int64_t)predicted_us < tick_usec)
			predicted_us = (uint32_t)(in->delta_tick_ns / 1000);
	} else {
		/* performance_multiplier() returns an int; the division is unsigned */
		uint32_t mult = (uint32_t)(1ul + 10ul * nr_iowait);
		uint32_t interactivity_req = predicted_us / mult;

		if ((uint32_t)latency_req > interactivity_req)
			latency_req = (int32_t)interactivity_req;
	}

	idx = -1;
	for (i = 0; i < drv->state_count; i++) {
		/* unsigned int fields: the int latency limit compares unsigned */
		uint32_t tr = il_state_tr_us(&s[i]), el = il_state_el_us(&s[i]);

		if (dev->states_usage[i].disable)
			continue;
		if (idx == -1)
			idx = i;
		if (tr > predicted_us) {
			if ((s[idx].flags & IL_FLAG_POLLING) && cfg->escape != ESCAPE_NONE &&
			    (cfg->escape == ESCAPE_ANY ||
			     s[i].target_residency_ns < cfg->escape_below_ns) &&
			    el <= (uint32_t)latency_req && tr <= next_us) {
				predicted_us = tr;
				idx = i;
				break;
			}
			if ((int64_t)predicted_us < tick_usec)
				break;
			if (!stopped) {
				predicted_us = il_state_tr_us(&s[idx]);
				break;
			}
			/* compared with the s64 ktime_to_us(delta_next) */
			if ((int64_t)il_state_tr_us(&s[idx]) < tick_usec &&
			    (int64_t)tr <= in->delta_tick_ns / 1000)
				idx = i;
			return idx;
		}
		if (el > (uint32_t)latency_req)
			break;
		idx = i;
	}
	if (idx == -1)
		idx = 0;

	if (((s[idx].flags & IL_FLAG_POLLING) || (int64_t)predicted_us < tick_usec) && !stopped) {
		uint32_t delta_next_us = (uint32_t)(in->delta_tick_ns / 1000);

		*stop_tick = false;
		if (idx > 0 && il_state_tr_us(&s[idx]) > delta_next_us) {
			for (i = idx - 1; i >= 0; i--) {
				if (dev->states_usage[i].disable)
					continue;
				idx = i;
				if (il_state_tr_us(&s[i]) <= delta_next_us)
					break;
			}
		}
	}
	return idx;
}

/*
 * menu_select() for the features f and the polling escape's mode escape
 * (cfg's, passed as arguments: menu_select() below calls it with the
 * default presets' values as constants, so that their copies test no
 * feature bit at run time; the text and so every decision is the same).
 */
static inline __attribute__((always_inline)) int
menu_select_f(const struct menu_config *cfg, struct menu_cpu *d, const struct il_driver *drv,
	      struct il_device *dev, const struct il_idle_inputs *in, bool *stop_tick,
	      const unsigned int f, const enum escape_mode escape)
{
	const struct il_state *s = drv->states;
	const int64_t tick_nsec = in->tick_nsec;
	const bool stopped = in->tick_stopped;
	int64_t latency_req = in->latency_req_ns;
	unsigned int nr_iowait = 0, bucket_base = 0;
	uint64_t predicted_ns = 0;
	int64_t delta_tick = 0;
	int i, idx;

	if (__builtin_expect(!(f & F_NS), 0))
		return menu_select_usec(cfg, d, drv, dev, in, stop_tick);
	if (d->needs_update) {
		menu_update(d, drv, dev, tick_nsec);
		d->needs_update = 0;
	} else if ((f & F_REJECTED_UINT_MAX) && !dev->last_residency_ns) {
		/* the last entry was refused or aborted: its interval is unknown */
		push_interval(d, UINT32_MAX);
	}
	if (!(f & F_NO_IOWAIT)) {
		nr_iowait = in->nr_iowait;
		bucket_base = nr_iowait ? BUCKETS_MAX / 2 : 0;
	}

	if (!(f & F_PATTERN_FIRST)) {
		/* v6.1: timers first, always */
		int64_t delta = in->sleep_length_ns;

		delta_tick = in->delta_tick_ns;
		/* before v5.13 a negative sleep length went into the u64 timer */
		if ((f & F_NEG_SLEEP) && delta < 0)
			delta = delta_tick = 0;
		d->next_timer_ns = (uint64_t)delta;
		d->bucket = (uint8_t)(which_bucket(d->next_timer_ns) + bucket_base);
	} else {
		predicted_ns = (uint64_t)typical_interval(d, f) * 1000;
		if (predicted_ns > IL_RESIDENCY_THRESHOLD_NS ||
		    ((f & F_TIMERS_STOPPED) && stopped)) {
			int64_t delta = in->sleep_length_ns;

			delta_tick = in->delta_tick_ns;
			if (delta < 0)
				delta = delta_tick = 0;
			d->next_timer_ns = (uint64_t)delta;
			d->bucket = (uint8_t)(which_bucket(d->next_timer_ns) + bucket_base);

			uint32_t timer_us = (uint32_t)((TIMER_SCALE / 2 + d->next_timer_ns *
					    d->correction_factor[d->bucket]) / TIMER_SCALE);
			if ((uint64_t)timer_us * 1000 < predicted_ns)
				predicted_ns = (uint64_t)timer_us * 1000;
			/* one branch for the three tests (an optimisation) */
			if ((f & F_TIMERS_STOPPED) &&
			    (stopped & (predicted_ns < (uint64_t)tick_nsec) &
			     (!(f & F_SAFE_TIMER_RANGE) ||
			      d->next_timer_ns > (uint64_t)(2 * tick_nsec))))
				predicted_ns = d->next_timer_ns;
		} else {
			/* no timer query: assume a far timer and the tick half away */
			d->next_timer_ns = (uint64_t)IL_KTIME_MAX;
			delta_tick = tick_nsec / 2;
			d->bucket = (uint8_t)(BUCKETS_MAX / 2 - 1 + bucket_base);
		}
	}

	if (drv->state_count <= 1 || latency_req == 0 ||
	    ((d->next_timer_ns < (uint64_t)s[1].target_residency_ns ||
	      latency_req < s[1].exit_latency_ns) &&
	     !dev->states_usage[0].disable)) {
		/* state 0 is the answer whatever the prediction */
		*stop_tick = !(s[0].flags & IL_FLAG_POLLING);
		return 0;
	}

	if (!(f & F_PATTERN_FIRST)) {
		uint32_t predicted_us = (uint32_t)((d->next_timer_ns *
				d->correction_factor[d->bucket] + TIMER_SCALE / 2) / TIMER_SCALE);
		uint32_t typical_us = __builtin_expect(f & F_REFERENCE, 0)
				      ? get_typical_interval_pre_6_15(d, f, predicted_us)
				      : typical_one_sided(d, false, predicted_us);

		predicted_ns = (uint64_t)(predicted_us < typical_us ? predicted_us : typical_us) * 1000;
	}

	if (!(f & F_TIMERS_STOPPED)) {
		if (stopped) {
			/*
			 * a shallow misprediction would last long: trust the timer
			 * (before v5.13 the tick-inclusive delta_next, as a u64)
			 */
			if (predicted_ns < (uint64_t)tick_nsec)
				predicted_ns = (f & F_NEG_SLEEP) ? d->next_timer_ns
								 : (uint64_t)delta_tick;
		} else if (!(f & F_LATENCY_FIRST)) {
			/* the predicted duration caps the exit latency */
			uint64_t cap = predicted_ns;

			if (!(f & F_NO_IOWAIT))
				cap /= (uint64_t)(int64_t)(int)(1u + 10u * nr_iowait);
			if ((uint64_t)latency_req > cap)
				latency_req = (int64_t)cap;
		}
	}

	idx = -1;
	for (i = 0; i < drv->state_count; i++) {
		if (dev->states_usage[i].disable)
			continue;
		if (idx == -1)
			idx = i;  /* first enabled state */

		if ((f & F_LATENCY_FIRST) && s[i].exit_latency_ns > latency_req)
			break;
		if ((uint64_t)s[i].target_residency_ns <= predicted_ns) {
			if (!(f & F_LATENCY_FIRST) && s[i].exit_latency_ns > latency_req)
				break;
			idx = i;
			continue;
		}

		/* prefer a physical state to busy polling when it is cheap enough */
		if ((s[idx].flags & IL_FLAG_POLLING) && escape != ESCAPE_NONE &&
		    (escape == ESCAPE_ANY ||
		     s[i].target_residency_ns < cfg->escape_below_ns) &&
		    (uint64_t)s[i].target_residency_ns <= d->next_timer_ns &&
		    ((f & F_LATENCY_FIRST) || s[i].exit_latency_ns <= latency_req) &&
		    (!(f & F_ESCAPE_EL_PRED) ||
		     (uint64_t)s[i].exit_latency_ns <= predicted_ns)) {
			predicted_ns = (uint64_t)s[i].target_residency_ns;
			idx = i;
			break;
		}
		if (predicted_ns < (uint64_t)tick_nsec)
			break;
		if (!stopped) {
			/* shallow is fine: the retained tick will re-run the governor */
			predicted_ns = (uint64_t)s[idx].target_residency_ns;
			break;
		}
		/* tick stopped: do not get stuck shallow if this state fits the timer */
		if (s[idx].target_residency_ns < tick_nsec &&
		    fits_delta_tick(s[i].target_residency_ns, delta_tick, f))
			idx = i;
		return idx;
	}
	if (idx == -1)
		idx = 0;  /* nothing enabled: state 0 it must be */

	if (((s[idx].flags & IL_FLAG_POLLING) || predicted_ns < (uint64_t)tick_nsec) &&
	    !stopped) {
		*stop_tick = false;
		if (idx > 0 && !fits_delta_tick(s[idx].target_residency_ns, delta_tick, f)) {
			/* the retained tick comes first: pick a state that fits it */
			for (i = idx - 1; i >= 0; i--) {
				if (dev->states_usage[i].disable)
					continue;
				idx = i;
				if (fits_delta_tick(s[i].target_residency_ns, delta_tick, f))
					break;
			}
		}
	}
	return idx;
}

/*
 * The three copies are functions of their own, which menu_select() reaches
 * by tail calls: in one body, the copies' common prologue saved what the
 * generic copy needs on every select.
 */
static __attribute__((noinline)) int
menu_select_v6_18(const struct menu_config *cfg, struct menu_cpu *d, const struct il_driver *drv,
		  struct il_device *dev, const struct il_idle_inputs *in, bool *stop_tick)
{
	return menu_select_f(cfg, d, drv, dev, in, stop_tick, F_V6_18, ESCAPE_ANY);
}

static __attribute__((noinline)) int
menu_select_v7_1(const struct menu_config *cfg, struct menu_cpu *d, const struct il_driver *drv,
		 struct il_device *dev, const struct il_idle_inputs *in, bool *stop_tick)
{
	return menu_select_f(cfg, d, drv, dev, in, stop_tick, F_V7_1, ESCAPE_BELOW);
}

static __attribute__((noinline)) int
menu_select_any(const struct menu_config *cfg, struct menu_cpu *d, const struct il_driver *drv,
		struct il_device *dev, const struct il_idle_inputs *in, bool *stop_tick)
{
	return menu_select_f(cfg, d, drv, dev, in, stop_tick, cfg->features, cfg->escape);
}

static int menu_select(const void *config, void *cpu_data, const struct il_driver *drv,
		       struct il_device *dev, const struct il_idle_inputs *in,
		       bool *stop_tick)
{
	const struct menu_config *cfg = config;
	struct menu_cpu *d = cpu_data;
	const unsigned int f = cfg->features;

	/* the platforms' default release (6.18) and the latest, unpatched */
	if (f == F_V6_18 && cfg->escape == ESCAPE_ANY)
		return menu_select_v6_18(cfg, d, drv, dev, in, stop_tick);
	if (f == F_V7_1 && cfg->escape == ESCAPE_BELOW)
		return menu_select_v7_1(cfg, d, drv, dev, in, stop_tick);
	return menu_select_any(cfg, d, drv, dev, in, stop_tick);
}

/* menu_reflect(): note the entered state; the update runs at the next select. */
static void menu_reflect(const void *config, void *cpu_data, const struct il_driver *drv,
			 struct il_device *dev, int index, const struct il_idle_inputs *in)
{
	struct menu_cpu *d = cpu_data;

	(void)config;
	(void)drv;
	dev->last_state_idx = index;
	d->needs_update = 1;
	d->tick_wakeup = in->got_tick;
}

/* menu_enable_device(): forget everything, factors back to unity. */
static void menu_enable(const void *config, void *cpu_data, const struct il_driver *drv,
			struct il_device *dev)
{
	struct menu_cpu *d = cpu_data;

	(void)config;
	(void)drv;
	(void)dev;
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < BUCKETS_MAX; i++)
		d->correction_factor[i] = UNITY_FACTOR;
	resync_ring(d);  /* eight 0 µs intervals */
}

static int menu_configure(void *config, const struct il_gov_preset *preset,
			  const struct il_gov_patch *patches, int npatches,
			  struct il_err *err)
{
	struct menu_config *cfg = config;

	memset(cfg, 0, sizeof(*cfg));
	cfg->features = preset->features;
	if (cfg->features & F_ESCAPE_RES_THRESH) {
		cfg->escape = ESCAPE_BELOW;
		cfg->escape_below_ns = IL_RESIDENCY_THRESHOLD_NS;
	} else {
		cfg->escape = ESCAPE_ANY;
	}

	const char *escape_patch = NULL;
	for (int i = 0; i < npatches; i++) {
		const struct il_gov_patch *p = &patches[i];
		bool is_escape = !strcmp(p->name, "no-poll-escape") ||
				 !strcmp(p->name, "poll-escape-15us") ||
				 !strcmp(p->name, "poll-escape");

		if (!is_escape)
			return il_err_set(err, EINVAL,
					  "menu: unknown patch '%s' (known: no-poll-escape, "
					  "poll-escape-15us, poll-escape=DURATION)", p->name);
		if (escape_patch)
			return il_err_set(err, EINVAL, "menu: patches '%s' and '%s' both set "
					  "the polling escape", escape_patch, p->name);
		escape_patch = p->name;
		if (!strcmp(p->name, "poll-escape")) {
			int64_t ns;

			if (!p->value[0])
				return il_err_set(err, EINVAL, "menu: patch 'poll-escape' needs "
						  "a duration, e.g. poll-escape=20us");
			if (il_parse_duration_ns(p->value, &ns) || ns < 0)
				return il_err_set(err, EINVAL, "menu: bad duration '%s' in patch "
						  "'poll-escape'", p->value);
			cfg->escape = ESCAPE_BELOW;
			cfg->escape_below_ns = ns;
			snprintf(cfg->patch, sizeof(cfg->patch), "+poll-escape=%lldns",
				 (long long)ns);
			continue;
		}
		if (p->value[0])
			return il_err_set(err, EINVAL, "menu: patch '%s' takes no value", p->name);
		if (!strcmp(p->name, "no-poll-escape")) {
			cfg->escape = ESCAPE_NONE;
		} else {
			cfg->escape = ESCAPE_BELOW;
			cfg->escape_below_ns = IL_RESIDENCY_THRESHOLD_NS;
		}
		snprintf(cfg->patch, sizeof(cfg->patch), "+%s", p->name);
	}
	return 0;
}

static int menu_set_param(void *config, const char *name, const char *value,
			  struct il_err *err)
{
	(void)config;
	(void)value;
	return il_err_set(err, ENOENT, "governor menu has no parameter '%s'", name);
}

static void menu_describe_extra(const void *config, char *buf, size_t size)
{
	const struct menu_config *cfg = config;

	snprintf(buf, size, "%s%s", cfg->patch[0] ? " " : "", cfg->patch);
}

const struct il_gov_ops il_gov_menu = {
	.name = "menu",
	.rating = 20,
	.presets = menu_presets,
	.npresets = sizeof(menu_presets) / sizeof(menu_presets[0]),
	.config_size = sizeof(struct menu_config),
	.cpu_data_size = sizeof(struct menu_cpu),
	.configure = menu_configure,
	.set_param = menu_set_param,
	.enable = menu_enable,
	.select = menu_select,
	.reflect = menu_reflect,
	.describe_extra = menu_describe_extra,
};
