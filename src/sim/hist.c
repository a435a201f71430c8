// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bounded-memory log-linear histograms (HdrHistogram's layout, simplified):
 * values below 2^IL_HIST_SUB_BITS have a bucket each; above, every power of
 * two is split into 2^(IL_HIST_SUB_BITS-1) equal buckets, so a bucket is
 * never wider than 2^-(IL_HIST_SUB_BITS-1) of its lower bound and its middle
 * is within IL_HIST_REL_ERROR of any value in it.
 */
#include <string.h>

#include "idlelab/hist.h"
#include "hist_add.h"

#define SUB_COUNT SIM_HIST_SUB_COUNT
#define HALF_COUNT SIM_HIST_HALF_COUNT

void il_hist_init(struct il_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = INT64_MAX;
	h->max = -1;
}

int il_hist_bucket(int64_t v)
{
	return sim_hist_bucket_of(v);
}

void il_hist_bucket_range(int b, int64_t *lo, int64_t *hi)
{
	if (b < SUB_COUNT) {
		*lo = *hi = b;
		return;
	}
	int shift = (b - SUB_COUNT) / HALF_COUNT + 1;
	int64_t sub = (b - SUB_COUNT) % HALF_COUNT + HALF_COUNT;

	*lo = sub << shift;
	*hi = *lo + ((int64_t)1 << shift) - 1;
}

void il_hist_add(struct il_hist *h, int64_t v)
{
	sim_hist_add(h, v);
}

void il_hist_merge(struct il_hist *dst, const struct il_hist *src)
{
	for (int i = 0; i < IL_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->clamped += src->clamped;
	dst->sum += src->sum;
	if (src->count && src->min < dst->min)
		dst->min = src->min;
	if (src->count && src->max > dst->max)
		dst->max = src->max;
}

int64_t il_hist_percentile(const struct il_hist *h, double p)
{
	if (!h->count)
		return -1;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	/* rank = ceil(p/100 * count), computed without rounding surprises */
	double want = p / 100 * (double)h->count;
	uint64_t rank = (uint64_t)want;
	if ((double)rank < want)
		rank++;
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (int b = 0; b < IL_HIST_BUCKETS; b++) {
		seen += h->buckets[b];
		if (seen >= rank) {
			int64_t lo, hi;
			il_hist_bucket_range(b, &lo, &hi);
			int64_t mid = lo + (hi - lo) / 2;
			/* never outside what was seen */
			if (mid < h->min)
				mid = h->min;
			if (mid > h->max)
				mid = h->max;
			return mid;
		}
	}
	return h->max;
}

double il_hist_mean(const struct il_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}
