/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workloads (src/workloads/): what runs on the simulated machine. A workload
 * has a table of options (idlelab/opts.h: name, type, bounds, default,
 * help), parsed once into its configuration; in each run it creates tasks
 * and arms events through the engine's il_sim_task_* calls (idlelab/sim.h)
 * and adds its metrics at the end.
 */
#ifndef IDLELAB_WORKLOAD_H
#define IDLELAB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/err.h"
#include "idlelab/opts.h"
#include "idlelab/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

struct il_sim;
struct il_platform;

/* The longest option key, with its NUL (no option's name comes near it). */
#define IL_WL_KEY_MAX 32

/* A "key=value" option (of a workload, the engine, a governor, a platform). */
struct il_wl_opt {
	char key[IL_WL_KEY_MAX];
	const char *value;         /* points into the text parsed: any length, lives as long */
};

struct il_workload {
	const char *name;
	const char *summary;       /* one line */
	const struct il_opt *opts; /* its options over the configuration, IL_OPT_END-terminated */
	size_t config_size;        /* parsed options, shared read-only by runs */
	size_t state_size;         /* per-run state */
	int min_cpus;
	/* Checks across options once they are parsed (optional): 0 or -EINVAL with err. */
	int (*check)(const void *cfg, struct il_err *err);
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
	/*
	 * The warm-up is over (--warmup): forget what was counted, keep the
	 * tasks' state (optional; a workload without it refuses a warm-up).
	 * Rates divide by il_sim_measured_ns().
	 */
	void (*warmup)(const void *cfg, void *st, struct il_sim *s);
	/*
	 * The run is over: 0, or -EINVAL with err if it ended before the
	 * workload's work was done (a sweep's rows that did not fit in the
	 * duration), so that no row is dropped silently (optional).
	 */
	int (*finished)(const void *cfg, void *st, struct il_sim *s, struct il_err *err);
	/* Add the workload's metrics at the end of a run. */
	void (*report)(const void *cfg, void *st, struct il_sim *s, struct il_metrics *out);
	void (*cleanup)(void *st);
	/*
	 * How many idle periods a run of duration_ns would have on platform p
	 * at most, roughly (optional; without it, one per CPU every 100 µs):
	 * what a run costs to simulate, so that a batch deals its longest runs
	 * first and scenario list says how long a scenario takes. Never a
	 * result: from the options alone, before anything runs.
	 */
	double (*est_idle_periods)(const void *cfg, const struct il_platform *p,
				   int64_t duration_ns);
};

extern const struct il_workload *const il_workloads[]; /* NULL-terminated */
const struct il_workload *il_workload_find(const char *name);
/*
 * Split "k=v" into opt (opt->value points into text, which must outlive it).
 * False when there is no '=', the key is empty or longer than
 * IL_WL_KEY_MAX - 1; then err (unless NULL) says which.
 */
bool il_wl_opt_parse(const char *text, struct il_wl_opt *opt, struct il_err *err);
/*
 * Parse options into cfg (config_size bytes, zeroed): the table's defaults,
 * then each option in order (a key given twice: the last wins), then the
 * workload's check. Unknown keys and bad values fail with err naming them.
 */
int il_workload_configure(const struct il_workload *wl, void *cfg, const struct il_wl_opt *opts,
			  int nopts, struct il_err *err);
/* The options' help ("  key=default  what it is (bounds)" lines), as il_opts_help. */
size_t il_workload_help(const struct il_workload *wl, char *buf, size_t size);
/* Both CPUs a workload's tasks are pinned to exist on the platform? 0 or -EINVAL. */
int il_wl_check_cpus(const struct il_workload *wl, const struct il_sim *s, int a, int b,
		     struct il_err *err);
/*
 * A CPU on another core than cpu: the first thread of the next core of its
 * package (wrapping), else of the next package, else cpu's next SMT
 * sibling, else cpu itself (a one-CPU machine).
 */
int il_wl_other_core(const struct il_sim *s, int cpu);
/*
 * For est_idle_periods: the clock a platform's cycles run at (its base
 * frequency, else its top turbo bin, else 2 GHz), Hz; and what a wake-up
 * takes from the waker's send to the wakee running, ns (both only for
 * estimates of what a run costs).
 */
double il_wl_est_hz(const struct il_platform *p);
#define IL_WL_EST_WAKE_NS 3000.0

#ifdef __cplusplus
}
#endif

#endif
