/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A finished batch of simulation runs (include/idlelab/batch.h) printed:
 * text tables in the style of patch mails, tidy CSV, or the results file
 * (JSON) that 'idlelab compare' and 'idlelab plot' read back
 * (include/idlelab/results.h; its names are in results_keys.h).
 */
#ifndef IDLELAB_SIM_REPORT_H
#define IDLELAB_SIM_REPORT_H

#include <stdio.h>

#include "idlelab/format.h"
#include "idlelab/batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * table: per-CPU counters of run 1 (up to 16 CPUs, or with per_cpu_table),
 * the grid, the metrics with their spread over runs. csv: one row per
 * configuration, run and metric with its dimensions (docs/sim.md). json:
 * il_results_write(). wl_opts_text: the --wl-opt values as given, or NULL.
 * 0, or a negative code when the output cannot be written.
 */
int il_sim_batch_print(const struct il_sim_batch *b, enum il_format f, const char *wl_opts_text,
		       FILE *out);
/* The results file of a batch: every run's values, their summaries, run 1's CPUs. */
int il_results_write(const struct il_sim_batch *b, const char *wl_opts_text, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
