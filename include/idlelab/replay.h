/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Replay: re-deciding a recorded sequence of idle periods with a governor.
 *
 * A replay log (docs/replay.md) gives a state table and one row per idle
 * period: what select saw (sleep length, time to the tick, tick stopped,
 * PM QoS limit, iowaiters, utilisation) and what happened after it (the
 * measured residency or a rejected entry, the tick wake-up flag, the
 * poll-time-limit flag). The engine feeds each row through the same waist as
 * the kernel's cpuidle_idle_call(): select, enter (the core's accounting),
 * reflect, one governor instance and one device per CPU. The governor's own
 * choice is taken as the entered state, so the outcome columns are reused
 * whatever it picks; a decisions file (--expect) says what the kernel picked.
 */
#ifndef IDLELAB_REPLAY_H
#define IDLELAB_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/device.h"
#include "idlelab/err.h"
#include "idlelab/governor.h"
#include "idlelab/state.h"

#define IL_REPLAY_MAGIC "# idlelab-replay v1"
#define IL_REPLAY_COLUMNS                                                             \
	"cpu,sleep_length_ns,delta_tick_ns,tick_stopped,latency_req_ns,nr_iowait,"   \
	"cpu_utilized,residency_ns,got_tick,poll_time_limit"
#define IL_REPLAY_NCOLS 10
#define IL_REPLAY_CPU_MAX 8192    /* NR_CPUS of an x86 MAXSMP kernel */
#define IL_REPLAY_PARAM_MAX 16
#define IL_REPLAY_HZ_MAX 100000
#define IL_REPLAY_REJECTED (-1)   /* residency_ns of an entry ->enter refused */

/* One idle period of a replay log. */
struct il_replay_row {
	int64_t sleep_length_ns;  /* tick_nohz_get_sleep_length() */
	int64_t delta_tick_ns;    /* its out-parameter */
	int64_t latency_req_ns;   /* cpuidle_governor_latency_req() */
	int64_t residency_ns;     /* last_residency_ns on exit, -1 = rejected */
	uint32_t nr_iowait;       /* nr_iowait_cpu() */
	uint16_t cpu;             /* < IL_REPLAY_CPU_MAX */
	bool tick_stopped;        /* tick_nohz_tick_stopped() at select */
	bool cpu_utilized;        /* teo_cpu_is_utilized() */
	bool got_tick;            /* tick_nohz_idle_got_tick() at reflect */
	bool poll_time_limit;     /* a polling entry ended on its time limit */
};

/* A "# param,NAME,VALUE" header line, applied with il_gov_set_param(). */
struct il_replay_param {
	char name[48];
	char value[64];
	int line;                 /* where it was given, for error reports */
};

struct il_replay_log {
	char file[IL_ERR_FILE_MAX];  /* name used in error reports */
	char governor[32];        /* informational "governor=" ("" if absent) */
	char kernel[32];          /* informational "kernel=" ("" if absent) */
	unsigned int hz;          /* CONFIG_HZ of the recorded kernel */
	struct il_driver drv;     /* state table, normalised by il_driver_init() */
	unsigned int user_disabled; /* bit i: "# disable,i" */
	int nparams;
	struct il_replay_param params[IL_REPLAY_PARAM_MAX];
	int ncpus;                /* highest cpu in the rows + 1 (0 if no rows) */
	size_t nrows;
	size_t cap;
	struct il_replay_row *rows;
	int *row_line;            /* line of each row in the file (may be NULL) */
};

/*
 * Parse a replay log from memory (len bytes, need not be NUL-terminated).
 * name is used in error reports. On error returns a negative code with
 * err naming the line; log is left empty (free it anyway).
 */
int il_replay_log_parse(struct il_replay_log *log, const char *text, size_t len,
			const char *name, struct il_err *err);
/* Read and parse a replay log file. */
int il_replay_log_load(struct il_replay_log *log, const char *path, struct il_err *err);
void il_replay_log_free(struct il_replay_log *log);

/* What the governor decided for one row. */
struct il_replay_decision {
	int8_t selected;          /* state index select returned */
	bool stop_tick;           /* *stop_tick after select */
};

/* A decisions file: "row,selected,stop_tick" (or "row,cpu,selected,stop_tick"). */
struct il_replay_expect {
	char file[IL_ERR_FILE_MAX];
	size_t n;
	size_t cap;
	uint64_t *row;            /* strictly increasing */
	int *line;
	int *cpu;                 /* -1 when the file has no cpu column */
	struct il_replay_decision *d;
};

int il_replay_expect_parse(struct il_replay_expect *ex, const char *text, size_t len,
			   const char *name, struct il_err *err);
int il_replay_expect_load(struct il_replay_expect *ex, const char *path, struct il_err *err);
void il_replay_expect_free(struct il_replay_expect *ex);

/*
 * The replay engine: one device and one governor data block per CPU, the
 * per-CPU replay clocks and the log's state table.
 */
struct il_replay_engine {
	const struct il_replay_log *log;
	struct il_gov *gov;           /* not owned */
	struct il_device *devs;       /* log->ncpus devices */
	uint64_t *clock_ns;           /* per-CPU replay clock (local_clock) */
	bool *got_tick;               /* per-CPU got_tick of the last idle period */
	int64_t tick_nsec;            /* TICK_NSEC of log->hz */
};

/*
 * Set up an engine: apply the log's "# param" lines to gov (which needs
 * ncpus >= log->ncpus), initialise each CPU's device for the log's table,
 * enable the governor on it, then apply the "# disable" lines as sysfs
 * writes would. Returns 0 or a negative code with err (FILE:LINE of a
 * rejected param).
 */
int il_replay_engine_init(struct il_replay_engine *eng, const struct il_replay_log *log,
			  struct il_gov *gov, struct il_err *err);
/* Reset devices, clocks and governor data to the state after init. */
void il_replay_engine_reset(struct il_replay_engine *eng);
void il_replay_engine_free(struct il_replay_engine *eng);

/*
 * Replay one row: select, the core's accounting of the entry (rejected when
 * residency_ns == -1, else poll-limit caching and the poll-time-limit flag
 * for a polling state, usage/time/above/below), the replay clock advanced
 * by the residency, reflect. Returns the decision.
 *
 * A table of one state is not shown to the governor, as in
 * cpuidle_idle_call() since e5c9ffc6ae1b and f4c31b07b136: state 0 is
 * entered, the tick is stopped only if the CPU's previous idle period ended
 * with the tick, and reflect is skipped.
 */
struct il_replay_decision il_replay_step(struct il_replay_engine *eng,
					 const struct il_replay_row *row);

/* Agreement of a replay with a decisions file. */
struct il_replay_agreement {
	size_t compared;          /* rows in the decisions file */
	size_t equal;             /* rows where selected and stop_tick both agree */
	bool differs;             /* some row differs */
	uint64_t first_row;       /* first differing row (if differs) */
	int first_line;           /* its line in the decisions file */
	struct il_replay_decision first_expected, first_got;
};

/*
 * Compare decisions (one per log row) with a decisions file. Rows beyond
 * the log or a cpu column that disagrees with the log are errors.
 */
int il_replay_compare(const struct il_replay_log *log,
		      const struct il_replay_decision *got,
		      const struct il_replay_expect *ex, struct il_replay_agreement *ag,
		      struct il_err *err);

#endif
