/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulation results read back.
 *
 * 'idlelab sim --format json' writes each configuration's metrics with the
 * value of every run; 'idlelab compare' and 'idlelab plot' read them here.
 */
#ifndef IDLELAB_RESULTS_H
#define IDLELAB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "idlelab/err.h"
#include "idlelab/stats.h"

struct il_result_metric {
	char row[40];           /* "usage", "state C6", "152us" (grid rows) ... */
	char col[40];           /* "", "usage", "above_pct" ... */
	char unit[12];          /* "us", "%", "" */
	enum il_better better;  /* which direction is better */
	bool throughput;        /* summarise with the harmonic mean */
	int n;                  /* number of runs with a value */
	double *values;         /* one per run */
};

struct il_result_config {
	char governor[96];      /* the governor spec the runs used */
	char kernel[16];        /* kernel release of the idle drivers, "" if not given */
	char workload[40];      /* the file's workload, "" if not given */
	int nmetrics;
	struct il_result_metric *m;
};

/*
 * Read the configurations of one results file into out[0..room). Returns
 * how many were read, or a negative code with err naming the file; on
 * failure nothing read from this file stays allocated.
 */
int il_results_load(const char *path, struct il_result_config *out, int room,
		    struct il_err *err);
/* The same from memory; name is used in messages. */
int il_results_parse(const char *text, size_t len, const char *name,
		     struct il_result_config *out, int room, struct il_err *err);
/* Free n configurations (zeroed entries are fine). */
void il_results_free(struct il_result_config *c, int n);

/* Mean of a metric's values over runs (NAN when it has none). */
double il_result_mean(const struct il_result_metric *m);
/* A configuration's metric by row and column, or NULL. */
const struct il_result_metric *il_result_find(const struct il_result_config *c,
					      const char *row, const char *col);

#endif
