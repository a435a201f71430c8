/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulator's engine: a discrete-event model of a machine running the
 * kernel's idle loop (kernel/sched/idle.c) under a workload.
 *
 * Time is int64 ns. One seeded random generator per run (idlelab/rng.h), so
 * a run prints the same numbers on every machine. Memory does not grow with
 * the simulated duration: events live in bounded heaps, distributions in
 * log-linear histograms (idlelab/hist.h).
 *
 * A run: il_sim_new() with a platform's machine idle setup, a governor and a
 * workload (idlelab/workload.h); il_sim_run(); il_sim_result() gathers
 * counters and metrics (idlelab/stats.h). Batches of runs on threads are in
 * idlelab/batch.h. This header includes the rng, hist, stats and workload
 * headers, which the engine's interface uses.
 */
#ifndef IDLELAB_SIM_H
#define IDLELAB_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idlelab/cpufreq.h"
#include "idlelab/device.h"
#include "idlelab/drivers.h"
#include "idlelab/err.h"
#include "idlelab/governor.h"
#include "idlelab/hist.h"
#include "idlelab/opts.h"
#include "idlelab/platform.h"
#include "idlelab/rng.h"
#include "idlelab/state.h"
#include "idlelab/stats.h"
#include "idlelab/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- engine */

enum il_tick_rule {
	IL_TICK_GOT_TICK = 0, /* f4c31b07b136: stop only if the last iteration got the tick */
	IL_TICK_ALWAYS_STOP,  /* no-cpuidle path before f4c31b07b136 (and the proposed fix) */
	IL_TICK_ALWAYS_RETAIN,/* single-state path of e5c9ffc6ae1b, before f4c31b07b136 */
	IL_TICK_GOVERNOR,     /* single-state path before e5c9ffc6ae1b: the governor decides */
	IL_TICK_BY_RELEASE,   /* the default: as the run's kernel release does it (v7.0 and
				 later got-tick on both paths; before, stop on the
				 no-cpuidle path and ask the governor with one state) */
};

/* Engine parameters that are not in the platform file. */
struct il_sim_params {
	int64_t duration_ns;       /* simulated time */
	int64_t warmup_ns;         /* the first warmup_ns of it left out of every counter and
				      metric (governor and workload state kept); < duration */
	uint64_t seed;
	int64_t entry_ns;          /* idle loop from going idle to ->enter (select, tick stop) */
	int64_t switch_ns;         /* wake-up to the task running (schedule, context switch);
				      -1: the platform's [kernel] switch_ns, else IL_SIM_SWITCH_NS */
	int64_t turbo_interval_ns; /* how often the package re-evaluates its turbo bin */
	int64_t no_timer_ns;       /* sleep length when no timer is queued */
	enum il_tick_rule nocpuidle_tick;   /* tick rule of the no-cpuidle path (not GOVERNOR) */
	enum il_tick_rule single_state_tick;/* tick rule of the state_count <= 1 path */
	bool nohz;                 /* false = nohz=off: tick stop requests are no-ops */
	bool ilb;                  /* the nohz idle balancer's kicks (docs/nohz-balance.md) */
	int64_t ilb_cost_ns;       /* one kick's SCHED_SOFTIRQ on the balancer (an estimate) */
	int32_t qos_resume_latency_us; /* per-CPU PM QoS (IL_QOS_DEFAULT_DEV_US = none) */
	int32_t qos_cpu_latency_us;    /* global PM QoS (IL_QOS_DEFAULT_GLOBAL_US = none) */
	double default_mhz;        /* frequency when the platform gives none */
	struct il_cpufreq_params cpufreq; /* the cpufreq layer (--cpufreq; zeroed: none) */
	FILE *trace;               /* if set: one line per idle-loop step and wake-up */
};

/* The wake-up software path of a platform that does not give its own, ns. */
#define IL_SIM_SWITCH_NS 700
/* The longest simulated time, ns (10^6 s): no sum of times can overflow. */
#define IL_SIM_DURATION_MAX_NS 1000000000000000ll

/*
 * The engine's options (--sim-opt KEY=VALUE) as a table over struct
 * il_sim_params: their defaults, bounds and help. il_sim_new() refuses
 * parameters outside the bounds.
 */
extern const struct il_opt il_sim_opts[];

/*
 * Defaults: 1 s, seed 1, no trace, and the table's defaults (entry 300 ns,
 * switch_ns -1 = the platform's, else IL_SIM_SWITCH_NS, turbo 100 µs,
 * tick rules of the run's kernel release, no PM QoS limit, 2000 MHz).
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
/*
 * Memory, in bytes, a run on platform p with workload wl and a governor of
 * gov_cpu_data_size bytes per CPU allocates while it runs (~1.5 KiB per CPU
 * plus the governor's), and what its result keeps (~0.7 KiB per CPU plus the
 * metrics). Estimates from the structures' sizes, a little above the peak
 * RSS measured.
 */
uint64_t il_sim_run_bytes(const struct il_platform *p, const struct il_workload *wl,
			  size_t gov_cpu_data_size);
uint64_t il_sim_result_bytes(const struct il_platform *p);
/* Run to params->duration_ns. Returns 0 or a negative code with err. */
int il_sim_run(struct il_sim *s, struct il_err *err);

/* ---- what workloads call ---- */
int64_t il_sim_now(const struct il_sim *s);
/* Simulated time measured so far: now, less the warm-up once it is over. */
int64_t il_sim_measured_ns(const struct il_sim *s);
int il_sim_ncpus(const struct il_sim *s);
struct il_rng *il_sim_rng(struct il_sim *s);
const struct il_platform *il_sim_platform(const struct il_sim *s);
/* Current frequency of the CPU's package in MHz. */
double il_sim_cpu_mhz(const struct il_sim *s, int cpu);
/*
 * Energy drawn since the measurement started, J (-1 without a power model),
 * and whether the run has the cpufreq layer (--cpufreq).
 */
double il_sim_energy_j(struct il_sim *s);
bool il_sim_cpufreq_on(const struct il_sim *s);
/*
 * A task becomes a new process (fork + exec of a short-lived command): with
 * the cpufreq layer its PELT history is dropped and the next wake-up
 * starts it as wake_up_new_task() does (post_init_entity_util_avg()).
 */
void il_sim_task_fork(struct il_sim *s, int task);
/*
 * The running task's process exits (call before blocking it from
 * task_ran): with the cpufreq layer its utilisation leaves the run queue
 * when it blocks (task_dead_fair() -> remove_entity_load_avg()).
 */
void il_sim_task_exit(struct il_sim *s, int task);
/* Core / package of a CPU (CPUs are numbered package, core, thread). */
int il_sim_core_of(const struct il_sim *s, int cpu);
int il_sim_package_of(const struct il_sim *s, int cpu);
/* The last-level cache of a CPU: its package's LLCs numbered after the earlier packages'. */
int il_sim_llc_of(const struct il_sim *s, int cpu);

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
 * il_sim_task_work: a burst of cycles plus ns of time that does not scale
 * with the core clock (copies served by L3/uncore/memory, device and
 * loopback latency, a spin on the clock); the ns part runs first, a
 * frequency change re-times only the cycles (negative ns count as 0);
 * il_sim_task_sleep_until: block until an hrtimer at abs_ns on the task's CPU;
 * il_sim_task_block: block until another task or an IRQ wakes it.
 * expect_ns (or -1) tells the oracle governors when the wake-up will come.
 */
void il_sim_task_run(struct il_sim *s, int task, uint64_t cycles);
void il_sim_task_work(struct il_sim *s, int task, uint64_t cycles, int64_t ns);
void il_sim_task_sleep_until(struct il_sim *s, int task, int64_t abs_ns);
void il_sim_task_block(struct il_sim *s, int task, int64_t expect_ns);
/*
 * Wake a blocked task from the running task on the caller's CPU (from_cpu):
 * a remote wake-up sends an IPI if the target CPU is in a physical state
 * (send cost charged to from_cpu's current burst), sets need_resched only if
 * it polls. Returns false if the task was not blocked.
 */
bool il_sim_task_wake(struct il_sim *s, int from_cpu, int task);
/*
 * The same, the task first moved to cpu (the scheduler's choice of CPU for
 * a wake-up, select_task_rq(), made by the workload): it stays there until
 * moved again. Tasks sleeping on a timer are not moved (false).
 */
bool il_sim_task_wake_on(struct il_sim *s, int from_cpu, int task, int cpu);
/*
 * From the workload's callbacks: no task runs or waits on cpu
 * (available_idle_cpu()), and the tasks running or runnable on it
 * (rq->nr_running; the task whose callback runs counts on its CPU).
 */
bool il_sim_cpu_idle(const struct il_sim *s, int cpu);
int il_sim_cpu_nr_running(const struct il_sim *s, int cpu);
/*
 * For a workload's choice of an idle CPU (find_idlest_group_cpu() in
 * kernel/sched/fair.c): false if cpu runs or has a queued task; else the
 * exit latency of the state it is in (0 when polling or between states)
 * and when it went idle (rq->idle_stamp), ns.
 */
bool il_sim_cpu_idle_info(const struct il_sim *s, int cpu, int64_t *exit_latency_ns,
			  int64_t *idle_stamp);
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
/*
 * The host holds cpu (a vCPU) from abs_ns for dur_ns, as the platform's
 * [noise] host_stall_rate does at random instants: whatever the vCPU does
 * waits until the stall is over.
 */
void il_sim_host_stall_at(struct il_sim *s, int cpu, int64_t abs_ns, int64_t dur_ns);

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
	double aperf, mperf;       /* cpufreq layer: cycles in C0 at the delivered and at the base
				      frequency (IA32_APERF / IA32_MPERF), 0 without it */
};

/* Everything a run reports. */
struct il_sim_result {
	int ncpus;
	int nstates;
	bool cpuidle;              /* counters are cpuidle's (else the default idle routine) */
	struct il_state states[IL_STATE_MAX];
	struct il_sim_cpu_result *cpu;     /* ncpus */
	int64_t duration_ns;               /* measured: after the warm-up */
	int64_t warmup_ns;                 /* left out before it */
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
	/* summed over the CPUs: */
	int64_t halted_ns;                 /* in a non-polling state until the hardware is up again */
	int64_t shared_read_ns;            /* in exit-path reads of a shared device (waits included) */
	uint64_t shared_reads;             /* such reads completed */
	uint64_t host_stalls;              /* [noise] host stalls that began in the measured time */
	int64_t host_stall_ns;             /* the time they held a vCPU (overlaps merged) */
	uint64_t stopper_idle, stopper_busy; /* [kernel] watchdog_stopper: runs woken on an idle
					      * CPU, and runs that took a busy one */
	uint64_t ilb_kicks, ilb_ipis;      /* --sim-opt ilb=on: kicks sent, and those by IPI */
	struct il_metrics metrics;         /* engine and workload metrics */
};

/* Gather the result of a finished run (caller frees with il_sim_result_free). */
int il_sim_result(struct il_sim *s, struct il_sim_result *r, struct il_err *err);
void il_sim_result_free(struct il_sim_result *r);

/* Frequency of a package with n active cores (turbo bins, else base, else fallback). */
double il_turbo_mhz(const struct il_platform *p, int active_cores, double fallback_mhz);

#ifdef __cplusplus
}
#endif

#endif
