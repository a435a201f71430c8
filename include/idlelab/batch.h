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

/* The room of a configuration's governor and cpufreq specs, their NUL included. */
#define IL_SIM_SPEC_MAX 96

/* One configuration (a --governor value) of a sim command. */
struct il_sim_config {
	char gov_spec[IL_SIM_SPEC_MAX];
	char kernel[16];           /* release for drivers ("" = platform's) */
	char cpufreq[IL_SIM_SPEC_MAX]; /* --cpufreq SPEC ("" = no cpufreq layer) */
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
	void (*run_done)(void *arg, double cost); /* cost: il_sim_task_cost() of the run */
	void *run_done_arg;
	/* called once per run whose result is in results[], c * runs + k, by one thread at a
	   time (the process that gathers the results); NULL: nothing */
	void (*result_done)(void *arg, struct il_sim_batch *b, int c, int k);
	void *result_done_arg;
	/* called when run k of configuration c is handed to a worker, by one thread at a time:
	   where: the dealer's worker (process) number, or -1 for a thread of this process
	   (result_done_arg; NULL: nothing) */
	void (*run_dealt)(void *arg, struct il_sim_batch *b, int c, int k, int where);
	/* runs whose result is already in results[] (from a partial results file): not run;
	   nconfigs * runs flags, or NULL */
	bool *have;
	/* what names the batch in messages (a batch file's configuration id), or NULL */
	const char *label;
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

/*
 * Several batches dealt as one: every run of every batch is a task, and the
 * tasks are taken longest first (il_sim_task_cost) by jobs_run threads (the
 * largest of the batches'), or by the dealer when one is set. On error
 * *failed_batch (if not NULL) is the batch the error is about.
 */
int il_sim_batches_run(struct il_sim_batch **bs, int nb, int *failed_batch, struct il_err *err);

/* One run of one configuration of one batch: the unit the batch layer deals. */
struct il_sim_task {
	int batch, config, run;
	double cost;                  /* estimate: il_sim_task_cost() */
};
/*
 * What one run of a configuration of b takes, roughly, in seconds on one
 * core: the idle periods its workload would have (est_idle_periods, over
 * the whole run with the warm-up), the busy CPUs' ticks and the platform's
 * device interrupts, at IL_SIM_EST_PERIODS_PER_S. For the order tasks are
 * dealt in (longest first) and scenario list's times; never a result.
 */
double il_sim_task_cost(const struct il_sim_batch *b);
/* Idle periods simulated per second on one core, for that estimate (measured: 3-8 M). */
#define IL_SIM_EST_PERIODS_PER_S 4e6
/*
 * The tasks of the batches that are left to run (not have[], not in a
 * contained configuration), longest first; equal costs keep the batches'
 * order. *n set; NULL with *n = 0 when there are none (or out of memory: -1).
 */
struct il_sim_task *il_sim_tasks(struct il_sim_batch *const *bs, int nb, int *n);
/* Run one task into its place in results[] (the batch prepared). */
int il_sim_batch_run_one(struct il_sim_batch *b, int c, int k, struct il_err *err);

/*
 * Something other than local threads that runs tasks (other processes, other
 * ranks: src/batch/). run() puts each task's result in its batch's
 * results[], calls the batch's result_done and run_done for it, and returns
 * 0, or a negative code with err. A task that failed without ending the
 * others is marked in fail[] (one per task, its message; "" when it did
 * not), and run() returns -ECHILD.
 */
struct il_sim_dealer {
	int (*run)(void *ctx, struct il_sim_batch *const *bs, int nb, const struct il_sim_task *tasks,
		   int n, char (*fail)[256], struct il_err *err);
	void *ctx;
};
/* The dealer il_sim_batches_run uses (NULL: local threads). */
void il_sim_set_dealer(const struct il_sim_dealer *d);

/*
 * A run's result as bytes (src/sim/child.c; the same program reads them
 * back: the layout is this build's): malloc'd into *buf, its length
 * returned, 0 out of memory.
 */
size_t il_sim_result_pack(const struct il_sim_result *r, void **buf);
/* Bytes from il_sim_result_pack back into *r: 0, or -1 when they are not one. */
int il_sim_result_unpack(const void *buf, size_t len, struct il_sim_result *r);
void il_sim_batch_free(struct il_sim_batch *b);
/* Leave out the configurations that failed (their results freed); returns how many remain. */
int il_sim_batch_drop_failed(struct il_sim_batch *b);

#ifdef __cplusplus
}
#endif

#endif
