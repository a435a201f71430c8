/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workloads (src/workloads/): what runs on the simulated machine. A workload
 * parses its options once, then in each run creates tasks and arms events
 * through the engine's il_sim_task_* calls (idlelab/sim.h) and adds its
 * metrics at the end.
 */
#ifndef IDLELAB_WORKLOAD_H
#define IDLELAB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/err.h"
#include "idlelab/stats.h"

struct il_sim;

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

#endif
