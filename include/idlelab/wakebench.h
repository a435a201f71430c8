/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Measurements of this machine's idle behaviour: the live sleep sweep and
 * the wake-up latency tests behind `idlelab sweep` and `idlelab latency`
 * (and bench/bench_live_sweep, bench/bench_wakeup, which print them in
 * their own form). They run threads pinned to given CPUs and read the
 * cpuidle counters; they change nothing on the machine (a caller that
 * changes the governor or a state does so with include/idlelab/restore.h).
 *
 * The figures depend on how busy the machine is: run them on an otherwise
 * idle machine, and never in a test that must be deterministic.
 */
#ifndef IDLELAB_WAKEBENCH_H
#define IDLELAB_WAKEBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "idlelab/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_SWEEP_STATES_MAX 16

/* Percentiles of a set of samples, ns (nearest rank). */
struct il_wake_pct {
	int n;
	int64_t min, p25, p50, p75, p90, p99, p999, max;
	double mean;
};

/* The q-th percentile (nearest rank) of n sorted values. */
int64_t il_wake_percentile(const int64_t *sorted, int n, double q);
/* Sort v in place and fill p. */
void il_wake_pct_of(int64_t *v, int n, struct il_wake_pct *p);

/* CLOCK_MONOTONIC, ns. */
int64_t il_wake_now_ns(void);
/* The cost of one clock read: the least of 1000 back-to-back pairs, ns. */
int64_t il_wake_clock_cost_ns(void);
/* Can a thread be pinned to cpu? 0 or an errno. */
int il_wake_cpu_ok(int cpu);
/* The 1-minute load average of /proc/loadavg, -1 if unreadable. */
double il_wake_load1(void);

/*
 * The sleep sweep, as the simulator's sleep-sweep workload: a waker
 * thread pinned to waker sleeps each interval (clock_nanosleep, timer
 * slack 1 ns) and wakes a wakee pinned to wakee through a futex; the
 * wakee blocks again at once. Per interval, the wakee CPU's cpuidle
 * counter differences (read from sysfs_root before and after the
 * interval's loops), the sleep the wakee measured and the wake-to-run
 * latency.
 */
struct il_sweep_row {
	int64_t interval_ns;
	int waker, wakee;
	int loops;
	struct il_wake_pct lat;      /* wake-to-run latency */
	struct il_wake_pct slept;    /* the wakee's measured block time */
	uint64_t usage, time_us, above, below;   /* differences, summed over states */
	int nstates;
	char state_name[IL_SWEEP_STATES_MAX][32];
	uint64_t state_usage[IL_SWEEP_STATES_MAX];
	bool no_above_below;         /* the kernel has no above/below files: above, below 0 */
	bool no_cpuidle;             /* no cpuidle driver: no counters (usage .. states 0) */
};

struct il_sweep_opts {
	const char *sysfs_root;      /* NULL: /sys/devices/system/cpu */
	int waker, wakee;
	int loops;                   /* wake-ups per interval */
	int nintervals;
	const int64_t *intervals_ns;
	/* each row as it is done; a non-zero return stops the sweep */
	int (*row)(const struct il_sweep_row *row, void *ctx);
	void *ctx;
	volatile int *stop;          /* set (by a signal handler) to stop early; may be NULL */
	/*
	 * The machine has no cpuidle driver (il_sweep_no_cpuidle()): the CPUs idle
	 * in the default routine and have no counters; the rows carry the sleep
	 * and the latency only, with no_cpuidle set.
	 */
	bool no_cpuidle;
};

/*
 * Whether the machine below sysfs_root (NULL: /sys/devices/system/cpu) has
 * no cpuidle driver: cpuidle/current_driver reads "none", or there is no
 * cpuidle directory (CONFIG_CPU_IDLE off). A driver, or a file that cannot
 * be read for another reason, gives false: the counters' own reads report.
 */
bool il_sweep_no_cpuidle(const char *sysfs_root);

/* Run the sweep; 0, or a negative errno with err (a pin or a read failed). */
int il_sweep_run(const struct il_sweep_opts *o, struct il_err *err);

/*
 * Wake-up latency between two pinned threads:
 *   HALT      the wakee blocks in FUTEX_WAIT (its CPU idles: the IPI path)
 *             and is woken --gap later; samples where it never slept are
 *             dropped and counted;
 *   POLL      the wakee spins on the word (the floor of a polling CPU);
 *   PINGPONG  two threads hand a token through two futex words, as the
 *             simulator's pingpong workload (context_switch2) does: round
 *             trips per second, and the one-way latency of each direction.
 */
enum il_wake_mode { IL_WAKE_HALT = 0, IL_WAKE_POLL, IL_WAKE_PINGPONG };

struct il_wake_opts {
	enum il_wake_mode mode;
	int samples;                 /* wake-ups (PINGPONG: round trips) */
	int64_t gap_ns;              /* HALT/POLL: pause between wake-ups (jittered +0..50%) */
	int waker, wakee;            /* PINGPONG: the two sides */
	volatile int *stop;
};

struct il_wake_result {
	struct il_wake_pct lat;      /* HALT/POLL: waker -> wakee; PINGPONG: waker -> wakee */
	int dropped;                 /* wake-ups that found the wakee not asleep */
	struct il_wake_pct back;     /* PINGPONG: wakee -> waker */
	int back_dropped;
	int64_t elapsed_ns;          /* PINGPONG: the whole run */
	int round_trips;
	double round_trips_per_s;
	double switches_per_s;       /* two context switches per round trip */
	double load1;                /* /proc/loadavg at start (-1: unknown) */
};

int il_wake_run(const struct il_wake_opts *o, struct il_wake_result *r, struct il_err *err);

#ifdef __cplusplus
}
#endif

#endif
