// SPDX-License-Identifier: GPL-2.0-only
/*
 * Metrics of a run and their summary over runs, in the form kernel
 * performance reports (mmtests) print them: Min, Max, Median, AMean, Hmean,
 * Stddev, CoefVar; and Welch's t-test for comparisons of configurations.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/stats.h"
#include "util.h"

void il_metrics_init(struct il_metrics *ms)
{
	memset(ms, 0, sizeof(*ms));
}

void il_metrics_free(struct il_metrics *ms)
{
	free(ms->m);
	memset(ms, 0, sizeof(*ms));
}

void il_metric_add(struct il_metrics *ms, const char *row, const char *col,
		   const char *unit, enum il_better better, bool throughput, double value)
{
	if (ms->n == ms->cap) {
		int cap = ms->cap ? ms->cap * 2 : 64;
		struct il_metric *m = il_xrealloc(ms->m, (size_t)cap * sizeof(*m));
		ms->m = m;
		ms->cap = cap;
	}
	struct il_metric *m = &ms->m[ms->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->row, sizeof(m->row), "%s", row ? row : "");
	snprintf(m->col, sizeof(m->col), "%s", col);
	snprintf(m->unit, sizeof(m->unit), "%s", unit ? unit : "");
	m->better = better;
	m->throughput = throughput;
	m->value = value;
}

void il_metrics_mark_grid(struct il_metrics *ms, int from)
{
	for (int i = from; i < ms->n; i++)
		ms->m[i].grid = true;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void il_stats_compute(const double *v, int n, struct il_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->n = n;
	if (n <= 0)
		return;
	double *s = il_xcalloc((size_t)n, sizeof(*s));
	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_dbl);
	st->min = s[0];
	st->max = s[n - 1];
	st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (!isfinite(st->median) && isfinite(s[0]) && isfinite(s[n - 1]))
		st->median = s[n / 2 - 1] / 2 + s[n / 2] / 2; /* two finite values near DBL_MAX */
	double sum = 0, inv = 0;
	bool pos = true;
	for (int i = 0; i < n; i++) {
		sum += s[i];
		if (s[i] > 0)
			inv += 1 / s[i];
		else
			pos = false;
	}
	st->amean = sum / n;
	/*
	 * Finite values whose sum or squares overflow (near DBL_MAX): the same
	 * sums over values scaled down, only then, so that every other result
	 * keeps its bits.
	 */
	bool finite = isfinite(s[0]) && isfinite(s[n - 1]);
	double scale = fmax(fabs(s[0]), fabs(s[n - 1]));
	if (!isfinite(st->amean) && finite) {
		sum = 0;
		for (int i = 0; i < n; i++)
			sum += s[i] / scale;
		st->amean = sum / n * scale;
	}
	st->hmean = pos ? n / inv : 0;
	if (n > 1) {
		double ss = 0;
		for (int i = 0; i < n; i++)
			ss += (s[i] - st->amean) * (s[i] - st->amean);
		st->stddev = sqrt(ss / (n - 1));
		if (!isfinite(st->stddev) && finite && isfinite(st->amean)) {
			ss = 0;
			for (int i = 0; i < n; i++)
				ss += (s[i] / scale - st->amean / scale) * (s[i] / scale - st->amean / scale);
			st->stddev = sqrt(ss / (n - 1)) * scale;
		}
	}
	st->coefvar = st->amean != 0 ? 100 * st->stddev / fabs(st->amean) : 0;
	free(s);
}

/* t(0.975, df) for df = 1..30, then 40, 60, 120, infinity. */
static const double t975[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double il_t_crit_975(double df)
{
	static const double big_df[] = { 30, 40, 60, 120, 1e300 };
	static const double big_t[] = { 2.042, 2.021, 2.000, 1.980, 1.960 };

	if (df < 1)
		df = 1;
	if (df <= 30) {
		/* interpolate linearly in 1/df between integer entries */
		int lo = (int)df;
		if (lo >= 30)
			return t975[29];
		double a = 1.0 / lo, b = 1.0 / (lo + 1), x = 1.0 / df;
		return t975[lo - 1] + (t975[lo] - t975[lo - 1]) * (a - x) / (a - b);
	}
	for (int i = 0; i < 4; i++) {
		if (df <= big_df[i + 1]) {
			double a = 1.0 / big_df[i], b = i + 1 < 4 ? 1.0 / big_df[i + 1] : 0,
			       x = 1.0 / df;
			return big_t[i] + (big_t[i + 1] - big_t[i]) * (a - x) / (a - b);
		}
	}
	return 1.960;
}

bool il_welch_significant(const double *a, int na, const double *b, int nb,
			  double *t, double *df)
{
	struct il_stats sa, sb;

	*t = 0;
	*df = 0;
	if (na < 2 || nb < 2)
		return false;
	il_stats_compute(a, na, &sa);
	il_stats_compute(b, nb, &sb);
	double va = sa.stddev * sa.stddev / na, vb = sb.stddev * sb.stddev / nb;
	double diff = sb.amean - sa.amean;
	if (va + vb == 0) {
		/* no spread at all: any difference is certain, none is not */
		*t = diff == 0 ? 0 : (diff > 0 ? INFINITY : -INFINITY);
		*df = na + nb - 2;
		return diff != 0;
	}
	*t = diff / sqrt(va + vb);
	*df = (va + vb) * (va + vb) /
	      (va * va / (na - 1) + vb * vb / (nb - 1));
	return fabs(*t) > il_t_crit_975(*df);
}
