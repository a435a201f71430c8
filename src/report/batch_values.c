// SPDX-License-Identifier: GPL-2.0-only
/* The values of a batch's metrics over its runs (batch_values.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch_values.h"
#include "util.h"

double *il_batch_metric_values(const struct il_sim_batch *b, int c, int i, int *nvalid)
{
	const struct il_metric *ref = &b->results[c * b->runs].metrics.m[i];
	double *v = il_xcalloc((size_t)b->runs, sizeof(*v));

	*nvalid = 0;
	for (int k = 0; k < b->runs; k++) {
		const struct il_metrics *ms = &b->results[c * b->runs + k].metrics;
		v[k] = NAN;
		if (i < ms->n && !strcmp(ms->m[i].row, ref->row) && !strcmp(ms->m[i].col, ref->col)) {
			v[k] = ms->m[i].value;
		} else {
			for (int j = 0; j < ms->n; j++)
				if (!strcmp(ms->m[j].row, ref->row) && !strcmp(ms->m[j].col, ref->col)) {
					v[k] = ms->m[j].value;
					break;
				}
		}
		if (!isnan(v[k]))
			(*nvalid)++;
	}
	return v;
}

void il_batch_stats_valid(const double *v, int n, struct il_stats *st)
{
	double *w = il_xcalloc((size_t)(n ? n : 1), sizeof(*w));
	int m = 0;

	for (int k = 0; k < n; k++)
		if (!isnan(v[k]))
			w[m++] = v[k];
	il_stats_compute(w, m, st);
	free(w);
}
