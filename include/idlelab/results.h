/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulation results read back.
 *
 * 'idlelab sim --format json' writes each configuration's metrics with the
 * value of every run; 'idlelab compare' and 'idlelab plot' read them here.
 * The reader is a strict JSON reader of its own that reads the file in
 * chunks and keeps only what it returns: the configurations up to the
 * caller's limit (refused at the first one past it, before it is read),
 * their metrics and values. Memory is what it returns plus a 64 KiB
 * buffer, not a tree of the whole file.
 */
#ifndef IDLELAB_RESULTS_H
#define IDLELAB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "idlelab/err.h"
#include "idlelab/stats.h"
/* IL_RESULTS_FORMAT, the "format" of results this reader reads (and sim writes), is there. */
#include "idlelab/results_keys.h"

#ifdef __cplusplus
extern "C" {
#endif

struct il_result_metric {
	char row[40];           /* "usage", "state C6", "152us" (grid rows) ... */
	char col[40];           /* "", "usage", "above_pct" ... */
	char unit[12];          /* "us", "%", "" */
	enum il_better better;  /* which direction is better */
	bool throughput;        /* summarise with the harmonic mean */
	int n;                  /* number of runs with a value (null is no value) */
	double *values;         /* one per run */
};

struct il_result_config {
	char governor[96];      /* the governor spec the runs used */
	char kernel[16];        /* kernel release of the idle drivers, "" if not given */
	char workload[40];      /* the file's workload, "" if not given */
	char workload_options[256]; /* the file's workload options, "" if none; longer ones
				       end "... (N bytes, #HASH)", a hash of the whole */
	char platform[64];      /* the file's platform (a name of up to 63 characters), "" if not given */
	char file[IL_ERR_FILE_MAX]; /* the file it was read from */
	int index;              /* its position in that file, from 1 */
	int runs;               /* the file's "runs", 0 if not given */
	int nmetrics;
	struct il_result_metric *m;
};

/*
 * Read the configurations of one results file into cfg[n..max), n being
 * how many earlier files gave. Returns how many it added, or a negative
 * code with err naming FILE:LINE (a file with more configurations than
 * fit is refused at the first that does not: "at most MAX in all"); on
 * failure nothing read from this file stays allocated.
 */
int il_results_load(const char *path, struct il_result_config *cfg, int n, int max,
		    struct il_err *err);
/* The same from memory; name is used in messages. */
int il_results_parse(const char *text, size_t len, const char *name,
		     struct il_result_config *cfg, int n, int max, struct il_err *err);
/* Free n configurations (zeroed entries are fine). */
void il_results_free(struct il_result_config *c, int n);

/* Mean of a metric's values over runs (NAN when it has none). */
double il_result_mean(const struct il_result_metric *m);
/* The summary compare shows: the mean, or for throughputs the harmonic mean (NAN without values). */
double il_result_summary(const struct il_result_metric *m);
/* A configuration's metric by row and column, or NULL. */
const struct il_result_metric *il_result_find(const struct il_result_config *c,
					      const char *row, const char *col);

/* What Welch's t-test says of a difference. */
enum il_result_sig {
	IL_SIG_NONE = 0,        /* not tested: fewer than 2 runs with a value on a side */
	IL_SIG_NO_VARIANCE,     /* every run gave the same value on both sides: nothing to test */
	IL_SIG_NOT_SIGNIFICANT, /* p >= 0.05 */
	IL_SIG_SIGNIFICANT,     /* p < 0.05 (95 %, two-sided) */
};

struct il_result_diff {
	double base, value;     /* the summaries (NAN without values) */
	double diff_pct;        /* 100 (value - base) / |base|; 0 when both are 0; NAN when base is 0 */
	double t, df, p;        /* Welch's t, its degrees of freedom, two-sided p (NAN when not tested) */
	enum il_result_sig sig;
};

/* The difference of m from base, with Welch's unequal-variance t-test over runs. */
void il_result_diff(const struct il_result_metric *base, const struct il_result_metric *m,
		    struct il_result_diff *d);
/* Two-sided p-value of Student's t with df (> 0, need not be whole) degrees of freedom. */
double il_student_t_p(double t, double df);

#ifdef __cplusplus
}
#endif

#endif
