/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulator: a discrete-event model of a machine running the kernel's
 * idle loop (kernel/sched/idle.c, see ../shared/spec/kernel-cpuidle/core.md
 * §5-§7) under a workload.
 *
 * Time is int64 ns. One seeded random generator per run (struct il_rng, own
 * xoshiro256** and own sampling, no libm in the hot path), so a run prints
 * the same numbers on every machine. Memory does not grow with the simulated
 * duration: events live in a fixed-size heap, distributions in bounded
 * log-linear histograms (struct il_hist).
 *
 * A run: il_sim_new() with a platform's machine idle setup, a governor and a
 * workload; il_sim_run(); il_sim_result() gathers counters and metrics.
 * Workloads (src/workloads/) drive tasks through the il_sim_task_* calls.
 */
#ifndef IDLELAB_SIM_H
#define IDLELAB_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idlelab/device.h"
#include "idlelab/drivers.h"
#include "idlelab/err.h"
#include "idlelab/governor.h"
#include "idlelab/platform.h"
#include "idlelab/state.h"

/* ---------------------------------------------------------------- RNG */

/* xoshiro256** seeded through splitmix64: the same stream on every machine. */
struct il_rng {
	uint64_t s[4];
};

void il_rng_seed(struct il_rng *r, uint64_t seed);
uint64_t il_rng_next(struct il_rng *r);
/* Uniform double in [0, 1) with 53 random bits. */
double il_rng_uniform(struct il_rng *r);
/* Uniform integer in [0, n) (n > 0), without modulo bias. */
uint64_t il_rng_below(struct il_rng *r, uint64_t n);
/* Standard normal deviate (ziggurat, own log/exp). */
double il_rng_normal(struct il_rng *r);
/* Sample a duration distribution in ns (>= 0, rounded to the ns). */
int64_t il_dist_sample(const struct il_dist *d, struct il_rng *r);
/*
 * Natural log and exp built from + - * / only, so results do not depend on
 * the C library (relative error below 5e-16 over the ranges the simulator uses).
 */
double il_sim_log(double x);
double il_sim_exp(double x);

/* ---------------------------------------------------------- histogram */

/*
 * Log-linear histogram of non-negative int64 values (ns), HdrHistogram
 * style: exact below 2^IL_HIST_SUB_BITS, then 2^(IL_HIST_SUB_BITS-1) buckets
 * per power of two. A reported value is the middle of its bucket, so its
 * relative error is at most 2^-IL_HIST_SUB_BITS (0.39 %). Values above
 * IL_HIST_MAX_NS are clamped (and counted in 'clamped').
 */
#define IL_HIST_SUB_BITS 8
#define IL_HIST_MAX_NS (1ll << 40)
#define IL_HIST_BUCKETS ((1 << IL_HIST_SUB_BITS) + (40 - IL_HIST_SUB_BITS + 1) * (1 << (IL_HIST_SUB_BITS - 1)))
#define IL_HIST_REL_ERROR (1.0 / (1 << IL_HIST_SUB_BITS))

struct il_hist {
	uint64_t count;
	uint64_t clamped;
	int64_t min, max;
	double sum;
	uint64_t buckets[IL_HIST_BUCKETS];
};

void il_hist_init(struct il_hist *h);
void il_hist_add(struct il_hist *h, int64_t v);
/* Add all of src into dst. */
void il_hist_merge(struct il_hist *dst, const struct il_hist *src);
/*
 * Percentile p (0..100): the smallest recorded value v with at least
 * ceil(p/100 * count) values <= v (the bucket's middle; exact min at p=0 and
 * exact max at p=100). -1 if empty.
 */
int64_t il_hist_percentile(const struct il_hist *h, double p);
double il_hist_mean(const struct il_hist *h);
/* Bucket index of a value and the value range [lo, hi] of a bucket. */
int il_hist_bucket(int64_t v);
void il_hist_bucket_range(int b, int64_t *lo, int64_t *hi);

/* ------------------------------------------------------------ metrics */

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

/* ------------------------------------------------------------- engine */

enum il_tick_rule {
	IL_TICK_GOT_TICK = 0, /* f4c31b07b136: stop only if the last iteration got the tick */
	IL_TICK_ALWAYS_STOP,  /* no-cpuidle path before f4c31b07b136 (and the proposed fix) */
	IL_TICK_ALWAYS_RETAIN,/* single-state path of e5c9ffc6ae1b, before f4c31b07b136 */
};

/* Engine parameters that are not in the platform file. */
struct il_sim_params {
	int64_t duration_ns;       /* simulated time */
	uint64_t seed;
	int64_t entry_ns;          /* idle loop from going idle to ->enter (select, tick stop) */
	int64_t switch_ns;         /* wake-up to the task running (schedule, context switch);
				      -1: the platform's [kernel] switch_ns, else IL_SIM_SWITCH_NS */
	int64_t turbo_interval_ns; /* how often the package re-evaluates its turbo bin */
	int64_t no_timer_ns;       /* sleep length when no timer is queued */
	enum il_tick_rule nocpuidle_tick;   /* tick rule of the no-cpuidle path */
	enum il_tick_rule single_state_tick;/* tick rule of the state_count <= 1 path */
	bool nohz;                 /* false = nohz=off: tick stop requests are no-ops */
	int32_t qos_resume_latency_us; /* per-CPU PM QoS (IL_QOS_DEFAULT_DEV_US = none) */
	int32_t qos_cpu_latency_us;    /* global PM QoS (IL_QOS_DEFAULT_GLOBAL_US = none) */
	double default_mhz;        /* frequency when the platform gives none */
	FILE *trace;               /* if set: one line per idle-loop step and wake-up */
};

/* The wake-up software path of a platform that does not give its own, ns. */
#define IL_SIM_SWITCH_NS 700

/*
 * Defaults: 1 s, seed 1, entry 300 ns, switch_ns -1 (the platform's, else
 * IL_SIM_SWITCH_NS), turbo 100 µs, rules of f4c31b07b136.
 */
void il_sim_params_default(struct il_sim_params *p);
/* The switch_ns a run on platform p uses: params', else p's [kernel] switch_ns, else 700. */
int64_t il_sim_switch_ns(const struct il_sim_params *params, const struct il_platform *p);

struct il_sim;
struct il_workload;

/*
 * Create a run: platform p, its idle setup m (from il_machine_idle_build),
 * governor gov (used only when m->cpuidle and more than one state; may be
 * NULL then), workload wl with its parsed configuration wl_cfg.
 */
struct il_sim *il_sim_new(const struct il_platform *p, const struct il_machine_idle *m,
			  struct il_gov *gov, const struct il_workload *wl,
			  const void *wl_cfg, const struct il_sim_params *params,
			  struct il_err *err);
void il_sim_free(struct il_sim *s);
/* Run to params->duration_ns. Returns 0 or a negative code with err. */
int il_sim_run(struct il_sim *s, struct il_err *err);

/* ---- what workloads call ---- */
int64_t il_sim_now(const struct il_sim *s);
int il_sim_ncpus(const struct il_sim *s);
struct il_rng *il_sim_rng(struct il_sim *s);
const struct il_platform *il_sim_platform(const struct il_sim *s);
/* Current frequency of the CPU's package in MHz. */
double il_sim_cpu_mhz(const struct il_sim *s, int cpu);
/* Core / package of a CPU (CPUs are numbered package, core, thread). */
int il_sim_core_of(const struct il_sim *s, int cpu);
int il_sim_package_of(const struct il_sim *s, int cpu);

/* The cpuidle device of a CPU and the state table the idle loop uses. */
const struct il_device *il_sim_device(const struct il_sim *s, int cpu);
const struct il_driver *il_sim_driver(const struct il_sim *s);

/* End the run now (the workload has what it measures). */
void il_sim_stop(struct il_sim *s);

/* Add a task pinned to cpu; it starts blocked. Returns its id (>= 0). */
int il_sim_task_add(struct il_sim *s, int cpu, void *data);
void *il_sim_task_data(struct il_sim *s, int task);
int il_sim_task_cpu(const struct il_sim *s, int task);
/*
 * From the workload's task_ran callback (the task's CPU is running it):
 * il_sim_task_run: run another burst of cycles (instead of blocking);
 * il_sim_task_sleep_until: block until an hrtimer at abs_ns on the task's CPU;
 * il_sim_task_block: block until another task or an IRQ wakes it.
 * expect_ns (or -1) tells the oracle governors when the wake-up will come.
 */
void il_sim_task_run(struct il_sim *s, int task, uint64_t cycles);
void il_sim_task_sleep_until(struct il_sim *s, int task, int64_t abs_ns);
void il_sim_task_block(struct il_sim *s, int task, int64_t expect_ns);
/*
 * Wake a blocked task from the running task on the caller's CPU (from_cpu):
 * a remote wake-up sends an IPI if the target CPU is in a physical state
 * (send cost charged to from_cpu's current burst), sets need_resched only if
 * it polls. Returns false if the task was not blocked.
 */
bool il_sim_task_wake(struct il_sim *s, int from_cpu, int task);
/* A device interrupt on cpu at abs_ns whose handler wakes task (or -1: none). */
void il_sim_irq_at(struct il_sim *s, int cpu, int64_t abs_ns, int task);
/* Mark task as an I/O waiter on its CPU while blocked (nr_iowait). */
void il_sim_task_set_iowait(struct il_sim *s, int task, bool iowait);
/*
 * A housekeeping hrtimer on cpu at abs_ns: its handler runs in IRQ context for
 * cost_ns and calls the workload's timer callback with arg; it wakes nobody.
 */
void il_sim_hk_timer_at(struct il_sim *s, int cpu, int64_t abs_ns, int64_t cost_ns,
			uint64_t arg);

/* ---------------------------------------------------------- workloads */

/* "key=value" options of a workload. */
struct il_wl_opt {
	char key[32];
	char value[160];
};

struct il_workload {
	const char *name;
	const char *summary;       /* one line */
	const char *options_help;  /* "key=default  what it is" lines */
	size_t config_size;        /* parsed options, shared read-only by runs */
	size_t state_size;         /* per-run state */
	int min_cpus;
	/* Parse options into cfg (zeroed); unknown keys and bad values fail with err. */
	int (*configure)(void *cfg, const struct il_wl_opt *opts, int nopts,
			 struct il_err *err);
	/* Create tasks and arm first events; st is zeroed. */
	int (*setup)(const void *cfg, void *st, struct il_sim *s, struct il_err *err);
	/* A task's burst finished: wake others, then run, sleep or block it. */
	void (*task_ran)(const void *cfg, void *st, struct il_sim *s, int task);
	/* A woken task starts running after lat_ns (from the wake event). */
	void (*task_woke)(const void *cfg, void *st, struct il_sim *s, int task,
			  int64_t lat_ns);
	/* A housekeeping timer fired (optional). */
	void (*hk_timer)(const void *cfg, void *st, struct il_sim *s, int cpu, uint64_t arg);
	/* A device interrupt that wakes no task arrived on cpu (optional). */
	void (*irq)(const void *cfg, void *st, struct il_sim *s, int cpu);
	/* Add the workload's metrics at the end of a run. */
	void (*report)(const void *cfg, void *st, struct il_sim *s, struct il_metrics *out);
	void (*cleanup)(void *st);
};

extern const struct il_workload *const il_workloads[]; /* NULL-terminated */
const struct il_workload *il_workload_find(const char *name);
/* Split "k=v" into opt; false if malformed. */
bool il_wl_opt_parse(const char *text, struct il_wl_opt *opt);
/* Parse a list "2,5,7us,1ms" of durations (bare numbers in µs) into ns. */
int il_wl_parse_us_list(const char *text, int64_t *out, int max, int *n, struct il_err *err);
/* A duration option: bare numbers are µs, else "500ns", "20us", "1ms". */
int il_wl_parse_dur(const char *key, const char *text, int64_t *ns, struct il_err *err);
int il_wl_parse_u64(const char *key, const char *text, uint64_t min, uint64_t max,
		    uint64_t *v, struct il_err *err);
/* Error for an unknown option key of workload wl. */
int il_wl_unknown_opt(const struct il_workload *wl, const char *key, struct il_err *err);
/* Both CPUs a workload's tasks are pinned to exist on the platform? 0 or -EINVAL. */
int il_wl_check_cpus(const struct il_workload *wl, const struct il_sim *s, int a, int b,
		     struct il_err *err);

/* ------------------------------------------------------------ results */

/* Counters of one CPU at the end of a run. */
struct il_sim_cpu_result {
	struct il_state_usage usage[IL_STATE_MAX];
	int64_t idle_ns;           /* in the idle loop (from going idle to a task running) */
	int64_t busy_ns;           /* running tasks, IRQ handlers, IPI sends */
	uint64_t aborted;          /* call_cpuidle found need_resched */
	uint64_t idle_periods;     /* iterations of the idle loop that entered a state */
	uint64_t tick_stops;       /* idle periods with the tick stopped */
	double energy_j;
};

/* Everything a run reports. */
struct il_sim_result {
	int ncpus;
	int nstates;
	bool cpuidle;              /* counters are cpuidle's (else the default idle routine) */
	struct il_state states[IL_STATE_MAX];
	struct il_sim_cpu_result *cpu;     /* ncpus */
	int64_t duration_ns;
	uint64_t events;                   /* handled (diagnostic; not reported): turbo re-evaluations
	                                      count only on platforms whose frequency can change */
	struct il_hist wake_lat;           /* wake event to the task running, ns */
	/* core and package depth: time with the shallowest thread/core in state i (index IL_STATE_MAX = active) */
	int64_t core_depth_ns[IL_STATE_MAX + 1];
	int64_t pkg_depth_ns[IL_STATE_MAX + 1];
	int nfreq;
	double freq_mhz[64];
	int64_t freq_ns[64];               /* package-time at each frequency, summed over packages */
	double energy_j;
	bool energy_known;                 /* platform has a power model */
	struct il_metrics metrics;         /* engine and workload metrics */
};

/* Gather the result of a finished run (caller frees with il_sim_result_free). */
int il_sim_result(struct il_sim *s, struct il_sim_result *r, struct il_err *err);
void il_sim_result_free(struct il_sim_result *r);

/* Frequency of a package with n active cores (turbo bins, else base, else fallback). */
double il_turbo_mhz(const struct il_platform *p, int active_cores, double fallback_mhz);

/* ------------------------------------------------------- many runs */

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
