/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a run measures and how runs are summarised (src/sim/stats.c): the
 * metrics of a run, their statistics over runs (Min ... CoefVar, as kernel
 * performance reports print them) and Welch's t-test between configurations.
 */
#ifndef IDLELAB_STATS_H
#define IDLELAB_STATS_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

enum il_better { IL_BETTER_NONE = 0, IL_BETTER_LOWER, IL_BETTER_HIGHER };

/* One number a run produces, placed in a table at (row, col). */
struct il_metric {
	char row[40];      /* "" for a run-level figure, "12us" for a sweep row */
	char col[40];      /* what it is: "usage_diff", "p99_us", ... */
	char unit[12];     /* "us", "ns", "%", "J", "W", "1/s", "MB/s", "" */
	enum il_better better;
	bool throughput;   /* a rate: summarised across runs with Hmean too */
	bool grid;         /* printed as a row of a table (sleep-sweep rows) */
	double value;
};

struct il_metrics {
	int n, cap;
	struct il_metric *m;
};

void il_metrics_init(struct il_metrics *ms);
void il_metrics_free(struct il_metrics *ms);
void il_metric_add(struct il_metrics *ms, const char *row, const char *col,
		   const char *unit, enum il_better better, bool throughput, double value);

/* Mark metrics [from, n) as rows of a grid table. */
void il_metrics_mark_grid(struct il_metrics *ms, int from);

/* Summary of one metric over runs, as kernel performance reports print it. */
struct il_stats {
	int n;
	double min, max, median, amean, hmean, stddev, coefvar; /* coefvar in % */
};

/* Summarise n values (hmean is 0 when some value is <= 0). */
void il_stats_compute(const double *v, int n, struct il_stats *st);
/*
 * Welch's unequal-variance t-test, two-sided. Returns true when the means
 * differ at the 95 % level; *t and *df receive the statistic and the
 * Welch-Satterthwaite degrees of freedom. False when either side has < 2 runs
 * or both have zero variance and equal means.
 */
bool il_welch_significant(const double *a, int na, const double *b, int nb,
			  double *t, double *df);
/* Two-sided 97.5 % quantile of Student's t with df degrees of freedom. */
double il_t_crit_975(double df);

#ifdef __cplusplus
}
#endif

#endif
