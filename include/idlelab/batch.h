/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Batches of runs (src/sim/run.c, src/sim/output.c): every configuration (a
 * --governor value) times N seeds on worker threads, and their printing.
 */
#ifndef IDLELAB_BATCH_H
#define IDLELAB_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "idlelab/sim.h"

/* One configuration (a --governor value) of a sim command. */
struct il_sim_config {
	char gov_spec[96];
	char kernel[16];           /* release for drivers ("" = platform's) */
};

struct il_sim_batch {
	const struct il_platform *platform;
	const struct il_workload *wl;
	const void *wl_cfg;
	struct il_sim_params params;   /* seed = seed of run 0; run k uses seed + k */
	int nconfigs;
	struct il_sim_config *configs;
	int runs;
	int jobs;
	/* per-config governor parameters "name=value" */
	int ngov_params;
	struct il_wl_opt gov_params[16];
	/* outputs: results[c * runs + k] */
	struct il_sim_result *results;
	struct il_machine_idle *machines; /* nconfigs */
	char gov_names[8][96];        /* normalised governor spec per config */
	bool per_cpu_table;           /* print the per-CPU table even on many CPUs */
};

/*
 * Print a finished batch: table (per-CPU counters of run 1 on up to 16 CPUs
 * or with per_cpu_table, metrics with their spread over runs, grids), csv (the metrics) or json (everything
 * 'idlelab compare' reads).
 */
int il_sim_batch_print(const struct il_sim_batch *b, int format, const char *wl_opts_text,
		       FILE *out);

/* Run all configs x runs on jobs threads. Returns 0 or a negative code with err. */
int il_sim_batch_run(struct il_sim_batch *b, struct il_err *err);
void il_sim_batch_free(struct il_sim_batch *b);

#endif
