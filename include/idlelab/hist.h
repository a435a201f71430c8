/* SPDX-License-Identifier: GPL-2.0-only */
/* Bounded-memory histograms of ns values (src/sim/hist.c). */
#ifndef IDLELAB_HIST_H
#define IDLELAB_HIST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Log-linear histogram of non-negative int64 values (ns), HdrHistogram
 * style: exact below 2^IL_HIST_SUB_BITS, then 2^(IL_HIST_SUB_BITS-1) buckets
 * per power of two. A reported value is the middle of its bucket, so its
 * relative error is at most 2^-IL_HIST_SUB_BITS (0.39 %). Values above
 * IL_HIST_MAX_NS are clamped (and counted in 'clamped').
 */
#define IL_HIST_SUB_BITS 8
#define IL_HIST_MAX_NS (1ll << 40)
#define IL_HIST_BUCKETS ((1 << IL_HIST_SUB_BITS) + (40 - IL_HIST_SUB_BITS + 1) * (1 << (IL_HIST_SUB_BITS - 1)))
#define IL_HIST_REL_ERROR (1.0 / (1 << IL_HIST_SUB_BITS))

struct il_hist {
	uint64_t count;
	uint64_t clamped;
	int64_t min, max;
	double sum;
	uint64_t buckets[IL_HIST_BUCKETS];
};

void il_hist_init(struct il_hist *h);
void il_hist_add(struct il_hist *h, int64_t v);
/* Add all of src into dst. */
void il_hist_merge(struct il_hist *dst, const struct il_hist *src);
/*
 * Percentile p (0..100): the smallest recorded value v with at least
 * ceil(p/100 * count) values <= v (the bucket's middle; exact min at p=0 and
 * exact max at p=100). -1 if empty.
 */
int64_t il_hist_percentile(const struct il_hist *h, double p);
double il_hist_mean(const struct il_hist *h);
/* Bucket index of a value and the value range [lo, hi] of a bucket. */
int il_hist_bucket(int64_t v);
void il_hist_bucket_range(int b, int64_t *lo, int64_t *hi);

#ifdef __cplusplus
}
#endif

#endif
