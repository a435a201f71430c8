/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Batches of runs (src/sim/run.c): every configuration (a --governor value)
 * times N seeds on worker threads. Their printing is in idlelab/sim_report.h.
 */
#ifndef IDLELAB_BATCH_H
#define IDLELAB_BATCH_H

#include <stdbool.h>

#include "idlelab/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The memory a batch may take, bytes: 4 GiB. A run on the largest platform
 * (IL_CPUS_MAX CPUs) takes ~15 MiB while it runs and keeps ~6 MiB of
 * results, so 4 GiB allows 8 configurations x 60 runs of it with 16 jobs.
 */
#define IL_SIM_MEM_MAX (4ull << 30)

/* One configuration (a --governor value) of a sim command. */
struct il_sim_config {
	char gov_spec[96];
	char kernel[16];           /* release for drivers ("" = platform's) */
	char cpufreq[96];          /* --cpufreq SPEC ("" = no cpufreq layer) */
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
	char labels[8][200];          /* what the output names a config: its governor, and
					 " cpufreq=SPEC" with the cpufreq layer */
	struct il_cpufreq_params cpufreq[8]; /* parsed per config */
	bool per_cpu_table;           /* print the per-CPU table even on many CPUs */
	/* called after each finished run by the thread that ran it (NULL: nothing) */
	void (*run_done)(void *arg);
	void *run_done_arg;
	uint64_t mem_max;             /* memory limit, bytes (0: IL_SIM_MEM_MAX) */
	/* set by il_sim_batch_prepare() */
	bool prepared;
	bool contained[8];            /* the config's governor is loaded: its runs go in child
					 processes (one per run), so that a crash or a loop in
					 it ends only that configuration */
	/* set by il_sim_batch_run(): why a contained configuration failed ("" if it did not) */
	char failed[8][256];
	int jobs_run;                 /* runs at a time: jobs (at most the runs, 256), fewer if
					 memory would pass mem_max */
	uint64_t mem_estimate;        /* bytes: jobs_run live runs and every run's result */
};

/*
 * Check the configurations (idle setup of each kernel release, governor
 * specs and parameters) and estimate the memory: jobs_run live runs
 * (il_sim_run_bytes) and the results of all runs (il_sim_result_bytes).
 * Past mem_max, jobs_run is lowered until it fits; if even one job does not,
 * -ENOMEM with err saying the estimate and the limit.
 */
int il_sim_batch_prepare(struct il_sim_batch *b, struct il_err *err);
/*
 * Run all configs x runs on jobs_run threads (preparing first if not done).
 * Returns 0 or a negative code with err. The runs of a configuration with a
 * loaded governor go in child processes, jobs_run at a time, after the
 * others; when such a run crashes or loops, the configuration's failed[]
 * says where and the others' results stand: -ECHILD, err naming the first.
 */
int il_sim_batch_run(struct il_sim_batch *b, struct il_err *err);
void il_sim_batch_free(struct il_sim_batch *b);
/* Leave out the configurations that failed (their results freed); returns how many remain. */
int il_sim_batch_drop_failed(struct il_sim_batch *b);

#ifdef __cplusplus
}
#endif

#endif
