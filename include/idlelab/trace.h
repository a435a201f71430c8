/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Traces: the idle periods of a real machine read from ftrace text.
 *
 * Reads the text the tracefs "trace" file prints and the text "trace-cmd
 * report" prints, one line at a time, and accounts each idle period
 * between a power:cpu_idle entry (state=N) and its exit (state=4294967295,
 * PWR_EVENT_EXIT) the way cpuidle_enter_state() accounts it in
 * drivers/cpuidle/cpuidle.c (mainline v6.18; the events are emitted around
 * the ->enter call whose local_clock() span is the residency): usage counts
 * completed periods, time the sum of their residencies. Above and below
 * come from power:cpu_idle_miss (added by 6ab4b1990097, v6.0) where the
 * trace has them, and by the kernel's rule (il_account_enter()) from a
 * state table otherwise. Each period's wake-up source (timer, tick, IPI,
 * device interrupt) is the first interrupt-side event on that CPU after
 * the idle entry; its latency is to the next sched_switch on that CPU.
 * What is exact and what is estimated: docs/trace.md.
 *
 * Memory is bounded by CPUs x states (plus a bounded table of wake-up
 * sources per CPU), never by the length of the trace: the text is fed in
 * chunks of any size (il_trace_feed) and no event is kept.
 */
#ifndef IDLELAB_TRACE_H
#define IDLELAB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/device.h"
#include "idlelab/err.h"
#include "idlelab/state.h"

#define IL_TRACE_CPU_MAX 8192     /* NR_CPUS of an x86 MAXSMP kernel */
#define IL_TRACE_LINE_MAX 8192    /* bytes in a line, without its newline */
#define IL_TRACE_SRC_MAX 32       /* wake-up sources kept per CPU; the rest is "other" */
#define IL_TRACE_SRC_NAME 64
#define IL_TRACE_WARN_MAX 8       /* warnings kept (all are counted) */
#define IL_TRACE_PWR_EVENT_EXIT 4294967295ull /* (u32)-1, the exit of power:cpu_idle */

/* What woke a CPU from an idle period. */
enum il_trace_src_kind {
	IL_TRACE_SRC_TICK = 0,  /* hrtimer_expire_entry of the tick's handler */
	IL_TRACE_SRC_TIMER,     /* another hrtimer (named by its function), or a bare local timer */
	IL_TRACE_SRC_IPI,       /* reschedule / call-function vector, named by the sender's callsite */
	IL_TRACE_SRC_IRQ,       /* irq_handler_entry, named by the handler's name */
	IL_TRACE_SRC_VECTOR,    /* another irq_vectors entry (irq_work, thermal, ...) */
	IL_TRACE_SRC_WAKEUP,    /* no interrupt, a sched_wakeup aimed at the CPU (a polling wake-up) */
	IL_TRACE_SRC_UNKNOWN,   /* nothing traced explains it */
	IL_TRACE_SRC_OTHER,     /* sources beyond IL_TRACE_SRC_MAX, pooled */
	IL_TRACE_SRC_KINDS
};

struct il_trace_src {
	enum il_trace_src_kind kind;
	char name[IL_TRACE_SRC_NAME];
	uint64_t count;          /* idle periods it ended */
	uint64_t switched;       /* of which a sched_switch followed before the next idle entry */
	uint64_t lat_sum_ns;     /* wake-up to that sched_switch */
	uint64_t lat_max_ns;
};

/* One state of one CPU, as the kernel's sysfs counters count it. */
struct il_trace_state {
	uint64_t usage;          /* completed idle periods */
	uint64_t time_ns;        /* sum of their residencies */
	uint64_t min_ns, max_ns; /* residency range (min valid if usage) */
	uint64_t above_ev, below_ev;     /* power:cpu_idle_miss events */
	uint64_t above_rule, below_rule; /* the kernel's rule on the state table */
	uint64_t unfinished;     /* entered, not exited when the trace ended */
	/*
	 * The kernel's own counters as idlelab trace record read them, from
	 * the '# idlelab-sysfs start|end' comment lines: [0] start, [1] end;
	 * usage, time (us), above, below (IL_TRACE_SYSFS_*).
	 */
	uint64_t sysfs[2][4];
	unsigned int sysfs_have; /* bit 0: the start line, bit 1: the end line (all four read) */
};

enum { IL_TRACE_SYSFS_USAGE, IL_TRACE_SYSFS_TIME, IL_TRACE_SYSFS_ABOVE, IL_TRACE_SYSFS_BELOW };

struct il_trace_cpu {
	int cpu;
	int nstates;             /* highest state index seen + 1 */
	struct il_trace_state st[IL_STATE_MAX];
	uint64_t partial_start;  /* exits without an entry: began before the trace (state unknown) */
	uint64_t lost_events;    /* from "[LOST N EVENTS]" markers */
	uint64_t lost_markers;
	uint64_t dropped;        /* periods left out because events were lost inside them */
	uint64_t unpaired;       /* an entry followed by another entry (the first left out) */
	int nsrc;
	struct il_trace_src src[IL_TRACE_SRC_MAX + 1]; /* + "other" */
	/* private: the state of the reader on this CPU */
	struct il_device *dev;   /* for the rule (only with a state table) */
	bool in_idle, pending, have_src, src_after_exit, provisional, woken, ipi_pending;
	int cur;                 /* state of the open period */
	uint64_t entry_ts, exit_ts, src_ts, last_ts, ipi_ts;
	enum il_trace_src_kind src_kind;
	char src_name[IL_TRACE_SRC_NAME];
	char ipi_callsite[IL_TRACE_SRC_NAME];
};

/* The state table for the rule (optional). */
struct il_trace_table {
	struct il_driver drv;     /* normalised with il_driver_init() */
	unsigned int disabled;    /* bit i: state i disabled */
	int ncpus;                /* the platform's CPUs; 0: not known (a sysfs tree) */
	bool sysfs;               /* read from a sysfs tree: flags inferred from the names */
	char origin[300];         /* what it was read from, for the report */
};

struct il_trace {
	char file[IL_ERR_FILE_MAX];
	const struct il_trace_table *table; /* NULL: no rule */
	int ncpus;                /* highest CPU seen + 1 */
	struct il_trace_cpu **cpus; /* [ncpus], NULL for CPUs without events */
	uint64_t lines, events, idle_events, miss_events, unknown_events, bytes;
	uint64_t first_ts, last_ts; /* ns, of the first and last event */
	bool have_ts;
	bool trace_cmd;           /* the text has trace-cmd report's header */
	int nwarn;                /* warnings given (the first IL_TRACE_WARN_MAX are kept) */
	struct il_err warn[IL_TRACE_WARN_MAX];
	bool failed, finished;
	uint64_t win_from, win_to;  /* ns: count periods whose exit is in [from, to] (il_trace_window) */
	/*
	 * Timestamps of idlelab trace record's trace_marker lines around its
	 * sysfs reads: idlelab-sysfs-start-begin, -start-end, -end-begin,
	 * -end-end; bit i of sysfs_marks set when mark i was seen.
	 */
	uint64_t sysfs_mark[4];
	unsigned int sysfs_marks;
	bool miss_recorded;       /* "# idlelab-events" names power:cpu_idle_miss */
	/* each state's name in the first "# idlelab-sysfs" line of it ("" none) */
	char sysfs_name[IL_STATE_MAX][32];
	/*
	 * The driver of "# idlelab-cpuidle start driver=D governor=G" ("" not
	 * given). "none": no cpuidle driver, so every idle period is the default
	 * routine's, which default_idle_call() traces as state 1.
	 */
	char driver[32];
	/* private: a line split across chunks */
	size_t carry_len;
	char carry[IL_TRACE_LINE_MAX + 1];
};

/* Start reading; table may be NULL (above/below only from cpu_idle_miss). */
void il_trace_init(struct il_trace *t, const char *name, const struct il_trace_table *table);
/*
 * Feed the next len bytes of the text. Returns 0 or a negative code with err
 * naming FILE:LINE; after an error the trace is unusable (free it).
 */
int il_trace_feed(struct il_trace *t, const char *buf, size_t len, struct il_err *err);
/*
 * The end of the text: a last line without its newline is left out with a
 * warning (it may have been cut anywhere, even inside a number); idle
 * periods still open count as unfinished.
 */
int il_trace_finish(struct il_trace *t, struct il_err *err);
/*
 * Count only the periods whose exit falls in [from_ns, to_ns] (trace
 * timestamps), as the kernel's counters read at from and at to would: a
 * period that began before from counts whole, as the kernel adds its whole
 * residency at the exit; one still open at to is unfinished. Call before
 * the first feed.
 */
void il_trace_window(struct il_trace *t, uint64_t from_ns, uint64_t to_ns);
/* A timestamp as ftrace prints it ("21444.500267", up to 9 decimals) in ns; 0 or -EINVAL. */
int il_trace_parse_ts(const char *s, uint64_t *ns);
/* Read a whole file (path "-": standard input) with feed and finish. */
int il_trace_read_file(struct il_trace *t, const char *path, struct il_err *err);
void il_trace_free(struct il_trace *t);
/*
 * True if buf (the first len bytes of a file) starts with the magic of a
 * trace-cmd .dat file. The library reads text only: il_trace_read_file()
 * refuses such a file; idlelab trace report reads it through libtracecmd
 * when built with it (src/cli/trace_dat.c).
 */
bool il_trace_is_dat(const char *buf, size_t len);

/*
 * True if above/below come from power:cpu_idle_miss events: the trace has
 * some, or trace record's "# idlelab-events" line says the event was
 * recorded (each above/below increment emits it, since v6.0: none means
 * 0, exactly).
 */
static inline bool il_trace_has_miss(const struct il_trace *t)
{
	return t->miss_events > 0 || t->miss_recorded;
}

const char *il_trace_src_kind_name(enum il_trace_src_kind k);

#endif
