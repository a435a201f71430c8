/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The names in a results file ('idlelab sim --format json'), written by
 * src/report/results_write.c and read by src/report/results.c: both take
 * them from here, so the writer and the reader cannot disagree.
 *
 *   {"idlelab": "sim", "format": 1, "platform", "ncpus", "workload",
 *    "workload_options", "duration_ns", "runs", "seed",
 *    "engine": {"entry_ns", "switch_ns", "switch_cycles", "turbo_interval_ns", "no_timer_ns",
 *               "nohz"},
 *    "histogram_relative_error",
 *    "configs": [{"governor", "kernel", "driver", "cpuidle", "states",
 *                 "run_duration_ns",
 *                 "metrics": [{"row", "col", "unit", "better", "throughput", "values",
 *                              "min", "max", "median", "amean", "hmean", "stddev",
 *                              "coefvar"}],
 *                 "cpus_run1": [{"cpu", "idle_ns", "busy_ns", "aborted", "energy_j",
 *                                "states": [{"usage", "time_ns", "above", "below",
 *                                            "rejected"}]}]}]}
 */
#ifndef IDLELAB_RESULTS_KEYS_H
#define IDLELAB_RESULTS_KEYS_H

#include <string.h>

#include "idlelab/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The value of IL_RK_KIND and IL_RK_FORMAT in a results file. */
#define IL_RESULTS_KIND "sim"
#define IL_RESULTS_FORMAT 1

/* top level */
#define IL_RK_KIND "idlelab"
#define IL_RK_FORMAT "format"
#define IL_RK_PLATFORM "platform"
#define IL_RK_NCPUS "ncpus"
#define IL_RK_WORKLOAD "workload"
#define IL_RK_WORKLOAD_OPTIONS "workload_options"
#define IL_RK_DURATION_NS "duration_ns"
#define IL_RK_RUNS "runs"
#define IL_RK_SEED "seed"
#define IL_RK_ENGINE "engine"
#define IL_RK_ENTRY_NS "entry_ns"
#define IL_RK_SWITCH_NS "switch_ns"
#define IL_RK_SWITCH_CYCLES "switch_cycles"
#define IL_RK_WARMUP_NS "warmup_ns"
#define IL_RK_TURBO_INTERVAL_NS "turbo_interval_ns"
#define IL_RK_NO_TIMER_NS "no_timer_ns"
#define IL_RK_NOHZ "nohz"
#define IL_RK_HIST_REL_ERROR "histogram_relative_error"
#define IL_RK_CONFIGS "configs"
/* a configuration */
#define IL_RK_GOVERNOR "governor"
#define IL_RK_KERNEL "kernel"
#define IL_RK_DRIVER "driver"
#define IL_RK_CPUIDLE "cpuidle"
#define IL_RK_STATES "states"
#define IL_RK_RUN_DURATION_NS "run_duration_ns"
#define IL_RK_METRICS "metrics"
#define IL_RK_CPUS_RUN1 "cpus_run1"
/* a metric */
#define IL_RK_ROW "row"
#define IL_RK_COL "col"
#define IL_RK_UNIT "unit"
#define IL_RK_BETTER "better"
#define IL_RK_THROUGHPUT "throughput"
#define IL_RK_VALUES "values"
#define IL_RK_MIN "min"
#define IL_RK_MAX "max"
#define IL_RK_MEDIAN "median"
#define IL_RK_AMEAN "amean"
#define IL_RK_HMEAN "hmean"
#define IL_RK_STDDEV "stddev"
#define IL_RK_COEFVAR "coefvar"
/* a CPU of run 1, and its states */
#define IL_RK_CPU "cpu"
#define IL_RK_IDLE_NS "idle_ns"
#define IL_RK_BUSY_NS "busy_ns"
#define IL_RK_ABORTED "aborted"
#define IL_RK_ENERGY_J "energy_j"
#define IL_RK_USAGE "usage"
#define IL_RK_TIME_NS "time_ns"
#define IL_RK_ABOVE "above"
#define IL_RK_BELOW "below"
#define IL_RK_REJECTED "rejected"

/* The value of IL_RK_BETTER. */
static inline const char *il_results_better_name(enum il_better b)
{
	return b == IL_BETTER_LOWER ? "lower" : b == IL_BETTER_HIGHER ? "higher" : "none";
}

/* IL_RK_BETTER's value back (NULL or anything else: none). */
static inline enum il_better il_results_better_parse(const char *s)
{
	return s && !strcmp(s, "lower")    ? IL_BETTER_LOWER
	       : s && !strcmp(s, "higher") ? IL_BETTER_HIGHER
					   : IL_BETTER_NONE;
}

#ifdef __cplusplus
}
#endif

#endif
