/* SPDX-License-Identifier: GPL-2.0-only */
/* The values of a batch's metrics over its runs (shared by the sim's printers). */
#ifndef IDLELAB_BATCH_VALUES_H
#define IDLELAB_BATCH_VALUES_H

#include "idlelab/batch.h"

/*
 * Values of metric i of config c (as run 1 lists it) over the runs, matched
 * by row and column (runs may list different frequencies or sweep rows);
 * a run without it gives NAN. *nvalid counts the others. Caller frees.
 */
double *il_batch_metric_values(const struct il_sim_batch *b, int c, int i, int *nvalid);
/* Statistics of the values that are not NAN. */
void il_batch_stats_valid(const double *v, int n, struct il_stats *st);

#endif
