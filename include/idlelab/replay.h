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
#include <stdio.h>

#include "idlelab/device.h"
#include "idlelab/err.h"
#include "idlelab/governor.h"
#include "idlelab/state.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#define IL_REPLAY_LINE_MAX 4096  /* bytes in a line, not counting its \n or \r\n */

/*
 * A replay log or decisions file read line by line, in bounded memory: a
 * 64 KiB buffer and one line of at most IL_REPLAY_LINE_MAX bytes. A NUL
 * byte or a longer line is refused at its line as soon as it is read.
 * After the end of the input, il_replay_reader_rewind() goes back to the
 * mark set by il_replay_reader_mark(), for another pass: a regular file is
 * read again; any other input (a pipe, a character device) is copied to an
 * unnamed temporary file while it is read the first time, and that copy is
 * read again.
 */
struct il_replay_reader {
	char file[IL_ERR_FILE_MAX];  /* name used in error reports */
	int line;                    /* lines read so far */
	char *text;                  /* the current line, NUL-terminated, no end of line */
	size_t len;                  /* its length */
	/* private */
	FILE *f, *orig, *spool;
	const char *mem;             /* memory input (f == NULL) */
	char *chunk;
	const char *p, *end;         /* unread bytes of mem or chunk */
	uint64_t base;               /* input offset of chunk (or 0 for memory) */
	uint64_t mark_off;
	int mark_line;
	bool eof;
	char buf[IL_REPLAY_LINE_MAX + 2];
};

/* Read the file at path ("cannot open" errors name it). */
int il_replay_reader_open(struct il_replay_reader *rd, const char *path, struct il_err *err);
/* Read len bytes of memory (need not be NUL-terminated); name is for errors. */
void il_replay_reader_mem(struct il_replay_reader *rd, const char *text, size_t len,
			  const char *name);
/* The next line into rd->text: 1, 0 at the end, or a negative code with err. */
int il_replay_reader_line(struct il_replay_reader *rd, struct il_err *err);
/* Remember the position after the last line read, and go back to it. */
void il_replay_reader_mark(struct il_replay_reader *rd);
int il_replay_reader_rewind(struct il_replay_reader *rd, struct il_err *err);
void il_replay_reader_close(struct il_replay_reader *rd);

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
	uint64_t cpu_seen[IL_REPLAY_CPU_MAX / 64]; /* bit cpu: the CPU has rows */
	/* rows in memory: only il_replay_log_parse() and il_replay_log_load() */
	size_t cap;
	struct il_replay_row *rows;
	int *row_line;            /* line of each row in the file (may be NULL) */
	/* streaming (il_replay_log_open): rows read in this pass */
	size_t pos;
	bool streaming;
};

/*
 * Parse a replay log from memory (len bytes, need not be NUL-terminated)
 * into log->rows. name is used in error reports. On error returns a
 * negative code with err naming the line; log is left empty (free it
 * anyway).
 */
int il_replay_log_parse(struct il_replay_log *log, const char *text, size_t len,
			const char *name, struct il_err *err);
/*
 * Read and parse a replay log file into log->rows: memory grows with the
 * rows (56 bytes each). Streaming (below) keeps it bounded.
 */
int il_replay_log_load(struct il_replay_log *log, const char *path, struct il_err *err);
void il_replay_log_free(struct il_replay_log *log);

/*
 * Streaming: read the header from rd, then every row once, checking it
 * and counting rows and CPUs (nrows, ncpus, cpu_seen), and go back to the
 * first row. log->rows stays NULL. Memory does not grow with the file.
 */
int il_replay_log_open(struct il_replay_log *log, struct il_replay_reader *rd,
		       struct il_err *err);
/*
 * The next row of a log opened with il_replay_log_open(): 1 with *row and
 * *line (its line in the file), 0 after the last row, or a negative code
 * (also when the file no longer has the rows the first pass counted).
 */
int il_replay_log_next(struct il_replay_log *log, struct il_replay_reader *rd,
		       struct il_replay_row *row, int *line, struct il_err *err);
/* Back to the first row, for another pass. */
int il_replay_log_rewind(struct il_replay_log *log, struct il_replay_reader *rd,
			 struct il_err *err);

/* What the governor decided for one row. */
struct il_replay_decision {
	int8_t selected;          /* state index select returned */
	bool stop_tick;           /* *stop_tick after select */
};

/* One line of a decisions file. */
struct il_replay_expect_entry {
	uint64_t row;
	int cpu;                  /* -1 when the file has no cpu column */
	struct il_replay_decision d;
	int line;
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

/* A decisions file read line by line. */
struct il_replay_expect_stream {
	struct il_replay_reader *rd;
	size_t n;                 /* entries, counted by il_replay_expect_open() */
	/* private */
	size_t pos;
	int ncols;
	bool any, have_last;
	uint64_t last;
};

/*
 * Read every line of a decisions file from rd once (checking it, counting
 * the entries into es->n), then go back to its start.
 */
int il_replay_expect_open(struct il_replay_expect_stream *es, struct il_replay_reader *rd,
			  struct il_err *err);
/* The next entry: 1, 0 after the last, or a negative code. */
int il_replay_expect_next(struct il_replay_expect_stream *es, struct il_replay_expect_entry *e,
			  struct il_err *err);
int il_replay_expect_rewind(struct il_replay_expect_stream *es, struct il_err *err);

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
 * the log or a cpu column that disagrees with the log are errors. Needs
 * the rows in memory (il_replay_log_parse or _load).
 */
int il_replay_compare(const struct il_replay_log *log,
		      const struct il_replay_decision *got,
		      const struct il_replay_expect *ex, struct il_replay_agreement *ag,
		      struct il_err *err);

/*
 * The same comparison while the log is streamed: il_replay_check_row() for
 * every row in order, then il_replay_check_end() with the number of rows.
 * The first error (in the order of the decisions file) is returned once;
 * later calls do nothing and return it again.
 */
struct il_replay_check {
	struct il_replay_expect_stream *es;
	struct il_replay_agreement ag;
	/* private */
	struct il_replay_expect_entry next;
	bool have_next;
	int error;
};

int il_replay_check_begin(struct il_replay_check *ck, struct il_replay_expect_stream *es,
			  struct il_err *err);
int il_replay_check_row(struct il_replay_check *ck, uint64_t row, int cpu,
			struct il_replay_decision got, struct il_err *err);
int il_replay_check_end(struct il_replay_check *ck, size_t nrows, struct il_err *err);

#ifdef __cplusplus
}
#endif

#endif
