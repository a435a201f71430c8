/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Traces: each idle period of an ftrace text trace with the governor
 * inputs rebuilt from the events around it (docs/trace.md, "Governor
 * inputs"): the sleep length and the time to the next event from the
 * hrtimers pending on the CPU at the entry (hrtimer_start, hrtimer_cancel,
 * hrtimer_expire_entry), the tick state from timer:tick_stop and
 * sched_switch, the tick wake-up from the tick's hrtimer expiring.
 * And a run of a governor over the periods, through the core's accounting
 * (il_account_enter) and reflect, as replay does.
 */
#ifndef IDLELAB_TRACE_PERIODS_H
#define IDLELAB_TRACE_PERIODS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idlelab/device.h"
#include "idlelab/err.h"
#include "idlelab/governor.h"
#include "idlelab/state.h"

#define IL_TRACE_NO_QOS_NS 2000000000000ll /* PM_QOS_CPU_LATENCY_DEFAULT_VALUE in ns */
#define IL_TRACE_PARAM_MAX 16          /* idlelab-param lines kept */

struct il_trace_period {
	int cpu;
	int state;                /* what power:cpu_idle says the kernel entered */
	int line;                 /* the entry event's line */
	uint64_t entry_ns;        /* trace timestamps */
	int64_t residency_ns;     /* exit - entry */
	int64_t sleep_length_ns;  /* estimated: see docs/trace.md */
	int64_t delta_tick_ns;
	bool timers_known;        /* the CPU's clock offset was known: sleep length from its hrtimers */
	bool tick_stopped;        /* at select */
	bool got_tick;
	bool poll_time_limit;     /* set by a kernel run (il_trace_run with follow_kernel) */
	bool exit_flags;          /* the exit event had the flags column: exit_need_resched is known */
	bool exit_need_resched;   /* TIF_NEED_RESCHED was set at the exit event */
};

struct il_trace_periods {
	size_t n, cap;
	struct il_trace_period *p;  /* in the order they were complete (NULL when scanned) */
	int ncpus;                /* highest CPU with a period + 1 */
	uint64_t lines, events, partial_start, unfinished, dropped, hrtimer_events, tick_stops;
	bool sched_switch;        /* the trace has sched_switch events */
	int maxstate;             /* highest state entered */
	/*
	 * PM QoS from the "# idlelab-pmqos start|end" lines trace record
	 * writes: the CPU latency limit (cpu_dma_latency) and each CPU's
	 * resume latency request as sysfs shows it, read at the start of the
	 * window; qos_changed when the end lines differ.
	 */
	bool qos_global_known;
	int32_t qos_global_us;
	int qos_ncpus;            /* qos_dev_us[0..qos_ncpus) */
	int32_t *qos_dev_us;      /* the request; INT32_MAX no constraint, -1 not read */
	bool qos_changed;
	uint64_t qos_end_lines;   /* end lines seen (checked against the start) */
	unsigned int hz;          /* CONFIG_HZ from "# idlelab-kernel ... hz=N" (0: not given) */
	char release[16];         /* "MAJ.MIN" of "# idlelab-kernel release=R" ("": not given) */
	/*
	 * The poll window (dev->poll_limit_ns) each CPU had when the trace
	 * began: the old value of its first power:guest_halt_poll_ns event
	 * (the window holds still until that change). -1: no such event.
	 */
	int hp_ncpus;
	int64_t *hp_initial_ns;
	/*
	 * The governors' module parameters when the trace began, from the
	 * "# idlelab-param start MODULE.NAME=VALUE" lines trace record and
	 * trace snapshot write (haltpoll's: a guest booted with
	 * haltpoll.guest_halt_poll_ns=0 never polls), in their order.
	 */
	int cut_line;             /* the last line, left out: it has no newline (0: none) */
	/* "# idlelab-cpuidle start driver=D governor=G": what the kernel ran ("" not given) */
	char driver[32], governor[32];
	/* each state's name in the first "# idlelab-sysfs" line of it ("" none) */
	char sysfs_name[IL_STATE_MAX][32];
	int nparams;
	struct il_trace_param {
		int line;                 /* where it was read */
		char module[32], name[48], value[32];
	} params[IL_TRACE_PARAM_MAX];
};

/*
 * The latency limit the governor got on cpu at the start of the window, as
 * cpuidle_governor_latency_req() forms it (drivers/cpuidle/governor.c,
 * v5.7+: the smaller of the CPU's resume latency request and the CPU
 * latency limit, in ns), or IL_TRACE_NO_QOS_NS if the trace has no PM QoS
 * lines. *known (may be NULL) says whether the lines gave it.
 */
int64_t il_trace_periods_latency_req(const struct il_trace_periods *ps, int cpu, bool *known);

/* Read a whole ftrace text file; errors name FILE:LINE. Free with il_trace_periods_free. */
int il_trace_periods_read(struct il_trace_periods *ps, const char *path, struct il_err *err);

/*
 * A trace read more than once: a first pass for the facts that come before
 * the periods (counts, CPUs, states, PM QoS, HZ, the poll windows at the
 * start), a second that hands each period to a governor run, so that no
 * pass holds the periods. A regular file is read again from where it was
 * opened, up to the length the first pass read. Standard input ("-") and
 * anything else (a pipe, a FIFO, /dev/stdin) is copied by the first pass
 * to an unnamed temporary file (O_TMPFILE, else one unlinked at once) in
 * $TMPDIR, else /tmp, which the next passes read: nothing is left behind,
 * however the program ends.
 */
struct il_trace_source {
	const char *path;         /* as given; "-" is standard input */
	FILE *f;                  /* what the first pass reads */
	FILE *spool;              /* the copy the next passes read; NULL: f again */
	int64_t start;            /* f's offset when opened */
	uint64_t len;             /* bytes the first pass read */
	int passes;
};

/* again: it will be read more than once (a pipe gets its copy). */
int il_trace_source_open(struct il_trace_source *s, const char *path, bool again,
			 struct il_err *err);
void il_trace_source_close(struct il_trace_source *s);

/* Each period as it completes (in il_trace_periods' order); non-zero stops the pass. */
typedef int (*il_trace_period_fn)(void *arg, struct il_trace_period *p);

/*
 * One pass over s, as il_trace_periods_read. With fn, the periods are
 * handed to it and not kept (ps->p stays NULL, ps->n counts them); a
 * non-zero return of fn ends the pass and is returned. A later pass that
 * finds less than the first read is an error ("changed while read").
 */
int il_trace_periods_scan(struct il_trace_periods *ps, struct il_trace_source *s,
			  il_trace_period_fn fn, void *arg, struct il_err *err);
/* The same from memory (name for errors). */
int il_trace_periods_parse(struct il_trace_periods *ps, const char *text, size_t len,
			   const char *name, struct il_err *err);
void il_trace_periods_free(struct il_trace_periods *ps);

/* A governor (or none: the device only) run over the periods. */
struct il_trace_run {
	const struct il_driver *drv;
	struct il_gov *gov;       /* NULL: no governor (the kernel's state, cpuidle_poll_time) */
	bool follow_kernel;       /* enter the kernel's state (check), else the governor's (whatif) */
	int64_t tick_nsec;
	int ncpus;
	struct il_device *devs;
	uint64_t *clock_ns;
	bool *got_tick;
	int64_t exit_latency_ns;  /* sum of the entered states' exit latency */
};

int il_trace_run_init(struct il_trace_run *r, const struct il_driver *drv, unsigned int disabled,
		      struct il_gov *gov, bool follow_kernel, unsigned int hz, int ncpus,
		      struct il_err *err);
void il_trace_run_free(struct il_trace_run *r);
/* Give the run's devices the poll window the kernel's had at the start (hp_initial_ns). */
void il_trace_run_seed(struct il_trace_run *r, const struct il_trace_periods *ps);
/*
 * One period: select (unless no governor), the entered state's accounting,
 * reflect. A kernel run (follow_kernel) sets p->poll_time_limit for a
 * polling entry (residency beyond the poll limit); other runs read it.
 * Returns the state selected (the kernel's without a governor); *stop_tick.
 */
int il_trace_run_step(struct il_trace_run *r, struct il_trace_period *p, int64_t latency_req_ns,
		      bool *stop_tick);

#endif
