/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The engine's internal state, shared by src/sim/engine.c (idle loop,
 * dispatch, workload calls), setup.c (create, free), power.c (turbo, depth,
 * energy), evq.c (event queues) and result.c.
 */
#ifndef IDLELAB_SIM_INTERNAL_H
#define IDLELAB_SIM_INTERNAL_H

#include <stddef.h>

#include "idlelab/cpufreq.h"
#include "idlelab/sim.h"
#include "evq.h"

/*
 * Nothing below is exported (the version script lists the public headers'
 * names only), but the compiler sees global functions of position-
 * independent objects as interposable and would not inline one into
 * another of the same file (cpufreq.c's PELT steps into its hooks): hidden
 * visibility says they bind locally.
 */
#pragma GCC visibility push(hidden)

/* What a CPU is doing. */
enum { M_RUN = 0,   /* a task burst or kernel work */
       M_LOOP,      /* idle loop outside ->enter (select, entry, IRQ handlers) */
       M_STATE };   /* inside ->enter of state idx (exiting: the HW woke) */

/* Its internal event. */
enum { SLOT_NONE = 0, SLOT_RUN_DONE, SLOT_ENTER, SLOT_POLL_LIMIT, SLOT_EXIT, SLOT_LOOP,
       SLOT_EXIT_HW };  /* the hardware is awake: the exit path's shared read begins */

/* Which branch of cpuidle_idle_call() the iteration took. */
enum { PATH_GOV = 0, PATH_SINGLE, PATH_DEFAULT, PATH_FORCE_POLL };

enum { EV_TICK = 0, EV_CPU_TICK, EV_TIMER, EV_IRQ, EV_HK_TIMER, EV_IPI, EV_END, EV_IRQ_WAKE,
       EV_WARMUP, EV_NOISE_IRQ, EV_TIMER_EXPIRY,
       EV_FREQ,     /* cpufreq: a CPU's frequency request takes effect (arg2: kHz) */
       EV_HOST_STALL,   /* the host holds a vCPU (arg2: 1 + its length, 0: drawn) */
       EV_ILB };        /* a nohz idle-balancer kick reaches its CPU */

enum { T_BLOCKED = 0, T_RUNNABLE, T_RUNNING };
enum { A_NONE = 0, A_RUN, A_SLEEP, A_BLOCK };

struct sim_task {
	int cpu;
	int state;           /* T_* */
	int action;          /* what task_ran asked for, A_* */
	uint64_t next_cycles;
	int64_t next_ns;     /* and the frequency-independent part of the next burst */
	int64_t timer_t;     /* hrtimer expiry when sleeping */
	int64_t wake_t;      /* when the wake-up was raised, ns */
	int64_t expect_t;    /* expected wake-up for oracles, -1 unknown */
	bool iowait;
	bool kthread;        /* the engine's own (the CPU's stopper): no workload, no PELT */
	void *data;
};

struct sim_hk {
	bool used, popped;
	int64_t cost_ns;
	uint64_t arg;
	int64_t due_ns;      /* expiry */
	int64_t period_ns;   /* > 0: the engine's own periodic timer (no workload callback) */
};

/*
 * One CPU. On 256 CPUs the CPUs' structs are far more than the L1 cache
 * holds, so each visit of a CPU misses once per cache line it touches: the
 * fields an idle period touches are packed into the first lines, in the
 * order the idle loop reads them, the array is cache-line aligned, and the
 * device sits so that each of its per-state usage records fills exactly
 * one line (a governor reads the `disable` of each state it considers and
 * the core's accounting writes the chosen state's record).
 */
struct sim_cpu {
	/* line 0: the internal event, what the CPU runs, the idle loop's flags */
	int64_t slot_t;
	uint64_t slot_seq;
	int slot_kind;
	int mode;            /* M_* */
	int cpu, core, pkg;
	int path;            /* PATH_* of the current iteration */
	int cur;             /* running task, -1 none */
	int rq_head, rq_len, rq_cap;
	bool in_idle;        /* between do_idle() entry and exit */
	bool tick_stopped;
	bool got_tick_latch; /* ts->got_idle_tick */
	bool stop_latch;     /* the tick was stopped at this iteration's choice */
	bool do_idle_got_tick;
	bool exiting;        /* the HW woke / need_resched seen, ->enter returns at slot_t */
	bool ipi_pending;
	bool by_limit;       /* the poll ended on its time limit */
	/* line 1: the residency and the idle and busy time */
	int req_idx, idx;
	int level;           /* depth: 0 active, i + 1 in physical state i */
	unsigned int nr_iowait;
	int *rq;             /* run queue (rq_cap tasks, a ring) */
	int64_t t_start;     /* ->enter called */
	int64_t post_ns;     /* IRQ handler time after the exit */
	int64_t prewarm_ns;  /* of the current residency, what was before the warm-up's end */
	int64_t idle_since, busy_since;
	/* line 2: the running burst, the hrtimers */
	int64_t cyc_start;   /* when the cycles of the burst start, ns */
	double cycles_left;
	int64_t extra_ns;    /* IPI send cost charged to the current burst */
	uint64_t memo_cycles; /* the last burst length converted to ns */
	double memo_mhz;
	int64_t memo_ns;
	struct sim_timerq th;
	/* line 3: counters, energy, utilisation */
	int64_t idle_ns, busy_ns;
	uint64_t periods, tick_stops;
	double power_w;
	int64_t energy_since;
	double energy_j;
	double util;
	/* line 4: what the governor's inputs are made of, the exit's halted time */
	int64_t latency_req_ns; /* il_latency_req_ns(&qos) */
	uint64_t idle_calls;  /* tick_nohz_idle_stop_tick() calls (schedutil's busy test) */
	int64_t up_t;        /* the hardware was up again after a wake-up, -1 not yet */
	int64_t halted_ns, shared_read_ns;
	uint64_t shared_reads;
	struct il_qos qos;
	int64_t util_busy_mark; /* the tick's utilisation (with schedutil's idle_calls) */
	/* line 5 */
	struct il_idle_inputs in __attribute__((aligned(64)));
	/* lines 6 and on: the device, its usage records one per line */
	char pad_dev[(64 - offsetof(struct il_device, states_usage) % 64) % 64];
	struct il_device dev;
	/* the rarer fields, after the device */
	uint64_t aborted;
	int64_t stall_end;   /* the host holds this vCPU until then ([noise] host_stall) */
	uint64_t stalls;     /* host stalls begun in the measured time */
	int64_t stall_ns;    /* and the time they held it */
	int64_t idle_entry_t; /* ts->idle_entrytime: do_idle()'s start or the last IRQ's end */
	int stopper;         /* the CPU's stopper thread (a kthread task), -1 not modelled */
	uint64_t stopper_idle, stopper_busy; /* its runs woken on an idle CPU / taking a busy one */
	int *tasks, ntasks;
} __attribute__((aligned(64)));
_Static_assert(offsetof(struct sim_cpu, dev.states_usage) % 64 == 0,
	       "sim_cpu: the usage records are not line aligned");
_Static_assert(offsetof(struct sim_cpu, in) == 5 * 64, "sim_cpu: the hot fields outgrew 5 lines");
_Static_assert(offsetof(struct sim_cpu, util_busy_mark) / 64 == 4,
	       "sim_cpu: the tick's utilisation mark is not in line 4");

/* A task's state in the cpufreq layer: its PELT signal and util_est (kernel/sched/fair.c). */
struct sim_cf_task {
	struct il_pelt pelt;
	int pelt_cpu;        /* the run queue its PELT is attached to, -1: a new task */
	bool cf_queued;      /* on a run queue (enqueued for PELT) */
	bool ue_fresh;       /* util_est's UTIL_AVG_UNCHANGED is clear: util_avg moved since
			      * util_est was last written (or never written) */
	bool dead;           /* its process exited: the next dequeue only updates the queue */
	bool fresh;          /* a new process not yet enqueued (wake_up_new_task() comes next) */
	bool wl_wait;        /* runnable mode: woken onto an idle CPU, activated at its pick */
	struct il_util_est ue;
	unsigned long ue_added; /* what its enqueue added to the queue's util_est */
} __attribute__((aligned(64))); /* one line each (the array is line aligned) */

/*
 * A CPU's state in the cpufreq layer (allocated only with --cpufreq), laid
 * out by cache line for schedutil's hooks: the PELT clock, the run queue's
 * PELT and util_est (line 1: all that an enqueue, pick or dequeue without
 * a governor update touches), APERF/MPERF and their tick copies (line 2:
 * C0 changes and the tick), the governor's times, frequencies and flags
 * (line 3: schedutil's update), then the fields only intel_pstate, HWP,
 * ondemand and the warm-up read. The array is line aligned.
 */
struct sim_cf_cpu {
	int64_t clock_last;            /* rq clock_task of the last PELT clock update, ns */
	uint64_t clock_pelt;           /* rq->clock_pelt, ns */
	unsigned long freq_scale;      /* arch_scale_freq_capacity(), 0..1024 */
	struct il_pelt rq_pelt;        /* the CFS run queue's util */
	unsigned long ue_enqueued;     /* cfs_rq->avg.util_est.enqueued */
	/* line 2 */
	int64_t c0_since;    /* APERF/MPERF count from then (level 0: C0) */
	double aperf, mperf; /* cycles at the delivered and at the base frequency in C0 */
	uint64_t aperf_tick, mperf_tick; /* their whole cycles at the last tick (arch_scale_freq_tick) */
	int64_t smp_t;                 /* intel_pstate sample / HWP window / ondemand sample */
	int64_t busy_smp;              /* ondemand: busy time at the last sample */
	double aperf0;                 /* APERF at the warm-up's end */
	/* line 3 */
	uint64_t idle_calls_saved;
	int64_t last_freq_update, last_update;
	unsigned int cur_khz;          /* policy->cur */
	unsigned int next_khz, cached_raw_khz; /* sg_policy */
	unsigned int iowait_boost;     /* schedutil: capacity units; intel_pstate: 8-bit fixed point */
	bool iowait_pending;
	bool removed;                  /* util left the queue since its last update (cfs_rq->removed) */
	bool stopper_queued;           /* the CPU's stopper thread waits in its run queue */
	int stopper;                   /* the CPU's stopper thread (sim_cpu.stopper), -1 none */
	double aperf_smp, mperf_smp;   /* at the last intel_pstate sample / HWP window */
	double mperf0;                 /* MPERF at the warm-up's end */
	unsigned int od_prev_load;     /* ondemand: cpu_dbs_info.prev_load */
	unsigned long rm_util, rm_runnable; /* cfs_rq->removed: applied at the queue's next update */
	uint64_t lost_idle_ns;         /* rq->lost_idle_time: rq_clock_pelt() = clock_pelt - it */
} __attribute__((aligned(64)));
_Static_assert(__builtin_offsetof(struct sim_cf_cpu, c0_since) == 64 &&
	       __builtin_offsetof(struct sim_cf_cpu, idle_calls_saved) == 128 &&
	       __builtin_offsetof(struct sim_cf_cpu, iowait_pending) < 192,
	       "sim_cf_cpu: the hot fields are not laid out by line");

/*
 * il_sim.st_exit_path[]: the state's own exit path (nothing to add), its
 * exit_path_cost (not none), or a read of the shared register
 * (exit_path_shared); the tests of struct il_state resolved at setup
 */
enum { SIM_EXIT_OWN, SIM_EXIT_COST, SIM_EXIT_SHARED };

/* Threads per core the engine keeps (the platform loader's limit). */
#define SIM_SMT_MAX 8

struct sim_core {
	int first, nthreads;
	double mhz;          /* its frequency (the package's without the cpufreq layer) */
	double active_w;     /* power of a busy or polling thread at mhz, W */
	int freq_idx;        /* cpufreq layer: time at each frequency is counted per core */
	int64_t freq_since;
	int dom;             /* its frequency domain */
	int nrel;            /* threads in a TURBO_RELEASE state */
	int level;
	int64_t since;
	/*
	 * Its threads' depth levels (copies of sim_cpu.level): the core's depth
	 * is found here, without touching the siblings' sim_cpu (on 256 CPUs
	 * those lines are out of the L1 cache).
	 */
	uint8_t tlevel[SIM_SMT_MAX];
};

struct sim_pkg {
	int first_cpu, ncpus;
	int active;          /* cores counting for turbo */
	int ncores_at[IL_STATE_MAX + 2];
	int level;           /* depth: its shallowest core's level */
	int64_t depth_since;
	double mhz;
	double active_w;     /* power of a busy or polling thread at mhz, W */
	int freq_idx;
	int64_t freq_since;
	double energy_j;     /* package (uncore) energy */
};

/*
 * The nohz idle balancer (--sim-opt ilb=on; docs/nohz-balance.md):
 * nohz.idle_cpus_mask, the kick flags and gates, per-CPU pending kicks.
 */
enum { ILB_STATS = 1, ILB_NEXT = 2 };
struct sim_ilb {
	bool on;
	bool next_kick;        /* NOHZ_NEXT_KICK: v5.16 on (7fd7a9e0caba) */
	bool poll_no_ipi;      /* a polling idle CPU gets no IPI: v5.8 on (b2a02fc43a1f) */
	bool poll_pass;        /* such a kick balances: before 5.8, and from 6.13 (ea9cffc0a154) */
	bool needs_update, has_blocked;
	int members;           /* nohz.nr_cpus */
	int64_t next_blocked;  /* in jiffies */
	struct sim_ilb_cpu {
		bool member;       /* rq->nohz_tick_stopped */
		uint8_t pending;   /* rq->nohz_flags */
		bool resched;      /* need_resched from a kick by the polling bit, no task */
		int64_t entered;   /* when it last entered the mask (its blocked load) */
	} *cpu;                /* ncpus */
	uint64_t kicks, ipis;
};

struct il_sim {
	const struct il_platform *p;
	const struct il_machine_idle *m;
	const struct il_driver *drv;
	struct il_driver own_drv;   /* no cpuidle / idle=poll: the single state */
	struct il_gov *gov;
	const struct il_workload *wl;
	const void *wl_cfg;
	void *wl_st;
	struct il_sim_params params;
	struct il_rng rng;
	int64_t tick_nsec;
	enum il_poll_rule poll_rule;   /* cpuidle_poll_time() of the run's release */
	bool force_poll, oracle, energy_on;
	bool switch_by_cycles;      /* the platform's switch_cycles, not switch_ns, times a switch */
	int64_t now, end_t, next_tick_t;
	int64_t measure_t;          /* counting started (the warm-up's end, else 0) */
	bool stopped, workload_stopped, setup_done;
	uint64_t seq, events, ipis, monitor_wakes;
	struct sim_ilb ilb;
	int cur_cpu;
	int ncpus, ncores, npkgs;
	struct sim_cpu *cpus;
	struct sim_core *cores;
	struct sim_pkg *pkgs;
	struct sim_ttree tt;        /* CPUs by their slot */
	int slot_cpu;               /* CPU whose slot is being handled, -1 none */
	int64_t turbo_t;            /* next turbo re-evaluation and its tie key */
	uint64_t turbo_seq;
	bool turbo_fixed;           /* the frequency can never change */
	uint8_t st_lvl[IL_STATE_MAX];      /* depth level in state i: i + 1, 0 if it polls */
	bool lvl_rel[IL_STATE_MAX + 2];    /* depth level l is a TURBO_RELEASE state */
	bool st_active[IL_STATE_MAX];      /* a thread in state i draws active power (polling) */
	bool st_monitor[IL_STATE_MAX];     /* state i waits in MWAIT with the polling bit set */
	uint8_t st_exit_path[IL_STATE_MAX]; /* state i's exit path: SIM_EXIT_* */
	bool st_halt_jitter[IL_STATE_MAX]; /* a timer finds state i halted: timer_jitter_halted */
	bool timer_at_expiry;              /* a timer's delivery is drawn at its expiry */
	bool pkg_w_on;                     /* the platform's package_w is not 0 */
	bool gov_path;                     /* every idle iteration asks the governor */
	bool gov_reflects;                 /* the governor has a reflect */
	int64_t pmt_free_t;                /* the PM timer serves no read before then */
	double st_power[IL_STATE_MAX];     /* else its power, W */
	/*
	 * The exit latency of state i (exit_sample()) and the monitor's
	 * wake-up when their distribution is fixed (none, a constant), in ns;
	 * SIM_DRAWS when each needs a draw (sim_draw_consts()), state i's
	 * from st_exit_dist[i].
	 */
	int64_t st_exit_ns[IL_STATE_MAX];
	const struct il_dist *st_exit_dist[IL_STATE_MAX];
	int64_t monitor_wake_ns;
	/* the same for the IPI's send and delivery and the timers' jitter */
	int64_t ipi_send_ns, ipi_delivery_ns, jitter_ns, jitter_halted_ns;
	struct sim_evheap evq;      /* timers, IPIs, interrupts, the tick, the end */
	struct sim_task *tasks;
	int ntasks, cap_tasks;
	struct sim_hk *hk;
	int nhk, cap_hk;
	struct il_hist wake_lat;
	int64_t core_depth_ns[IL_STATE_MAX + 2];
	int64_t pkg_depth_ns[IL_STATE_MAX + 2];
	int nfreq;
	double freq_mhz[64];
	int64_t freq_ns[64];
	uint8_t freq_slot[128];     /* freq_index()'s table: index + 1 by hash, 0 free */
	/* the cpufreq layer (cf.on false: none, the packages at their turbo bin) */
	struct sim_cf {
		struct il_cpufreq_params prm;
		bool on, invariant, util_est, hwp, intel_table;
		bool pelt;                 /* PELT and util_est are tracked (schedutil reads them) */
		bool votes;                /* requests differ between CPUs: C0 changes move a domain */
		bool tick_hook;            /* the tick has governor work (PELT, intel_pstate's sample) */
		uint8_t hook;              /* what cpufreq_update_util() calls (SIM_CF_HOOK_*, cpufreq.c) */
		/* schedutil's text by release (sim_cf_init(), docs/cpufreq.md) */
		bool su_restore_cached;    /* 5.10: the hold restores cached_raw_freq (was reset) */
		enum il_cf_headroom su_headroom; /* where the 1.25 goes: 5.14, 6.8 */
		enum il_ue_text ue_text;   /* util_est's text (il_ue_text_of()) */
		bool ue_rm_late;           /* up to 5.11: a dequeue's governor call still sees the
					    * task in the queue's util_est (8c1f560c1ea3, v5.12) */
		bool ue_update_early;      /* from 6.12: the task's util_est update reads its PELT
					    * before the dequeue's step (b55945c500c5) */
		bool idle_wakelist;        /* ttwu_queue_cond(): an idle CPU activates its own
					    * wake-ups, v6.0 on (f3dd3f674555) */
		int *llc;                  /* ncpus: each CPU's last-level cache */
		double base_mhz, min_mhz, max_mhz, freq_max_mhz, top_mhz;
		double step_mhz;           /* intel_pstate's ratio unit (pstate.scaling) */
		double hwp_lo, hwp_hi;     /* HWP's lowest and highest performance, MHz */
		double pst[IL_PLAT_PSTATES_MAX]; /* acpi-cpufreq's _PSS table, descending */
		int npst;
		unsigned int cpuinfo_max_khz;
		int64_t rate_ns, transition_ns, window_ns;
		int epp;
		uint64_t max_freq_ratio;   /* arch_max_freq_ratio: freq_max / base << 10 */
		int ndom, dom_cores;       /* domains of dom_cores consecutive cores */
		double *dom_mhz;
		int *dom_pkg;              /* each domain's package */
		int *dirty, ndirty;        /* domains to re-evaluate at the next periodic pass */
		bool *is_dirty;
		double *pkg_bin;           /* each package's turbo bin at the last pass */
		int *pkg_active;           /* and its active cores then (-1: none yet) */
		int dom_per_pkg;           /* ndom / npkgs */
		double *bin;               /* il_turbo_mhz() by active cores, 0 .. cores_per_package */
		unsigned int lo_khz, hi_khz, step_khz, base_khz; /* min, max, step, base in kHz */
		unsigned int min_ratio, max_ratio; /* intel_pstate: the limits' ratios (truncated) */
		uint64_t step_m;           /* resolve(): n / step_khz = (n step_m) >> step_sh, */
		int step_sh;               /* exact for every n resolve() divides (0: divide) */
		struct sim_cf_cpu *cpu;    /* ncpus */
		double *req;               /* ncpus: each CPU's request in effect, MHz (a core's threads
					    * are adjacent: dom_eval() reads them in one line) */
		struct sim_cf_task *task;  /* cap_task */
		/* runnable boosting (v6.5, 7d0583cf9ec7): util = max(util_avg, runnable_avg, util_est) */
		bool runnable;
		enum il_pelt_rm rm_rule;   /* what a removal does to a sum, by release */
		bool pelt_lag;             /* 6.0: a task woken off an idle CPU decays to the wake-up
					    * (migrate_se_pelt_lag(), e2f3e35f1f5a) */
		bool fork_attach_early;    /* up to 6.0: post_init_entity_util_avg() attaches the new
					    * task, with two governor calls (6.1 defers it to the
					    * enqueue) */
		struct il_pelt_r *rq_r;    /* ncpus, with runnable */
		struct il_pelt_r *task_r;  /* cap_task, with runnable */
		int *rq_wl;                /* ncpus: queued tasks not yet activated (wl_wait) */
		int cap_task;
		uint64_t transitions;
	} cf;
};

/*
 * t + d for a time that grows by draws (d >= 0, each at most 10^15 ns):
 * saturated at SIM_T_FAR, past any run's end, so that work a CPU piles up
 * (interrupt handlers, host stalls, PM-timer reads queued behind one
 * another) cannot overflow, however long the platform's distributions.
 */
#define SIM_T_FAR ((int64_t)1 << 62)
static inline int64_t sim_t_add(int64_t t, int64_t d)
{
	return t >= SIM_T_FAR - d ? (t > SIM_T_FAR ? t : SIM_T_FAR) : t + d;
}

/* A CPU's last-level cache: its package's LLCs numbered after the earlier packages' (il_sim_llc_of()). */
static inline int sim_llc_of(const struct il_sim *s, int cpu)
{
	int cpp = s->p->cores_per_package, llc = il_platform_llc_cores(s->p);
	const struct sim_cpu *c = &s->cpus[cpu];
	return c->pkg * ((cpp + llc - 1) / llc) + (c->core - c->pkg * cpp) / llc;
}

/* ---- the cpufreq layer (cpufreq.c) ---- */
/* Set it up from params.cpufreq (after sim_power_init): 0 or -EINVAL with err. */
int sim_cf_init(struct il_sim *s, struct il_err *err);
void sim_cf_free(struct il_sim *s);
/* the scheduler tick on c (its tick runs) */
void sim_cf_tick(struct il_sim *s, struct sim_cpu *c, int64_t now);
/* the periodic re-evaluation of every domain (turbo bins, HWP) */
void sim_cf_periodic(struct il_sim *s, int64_t now);
/* a request of cpu takes effect */
void sim_cf_freq_event(struct il_sim *s, int cpu, uint64_t khz, int64_t now);
/* the running task's process exits: its util leaves the queue now */
void sim_cf_task_exit(struct il_sim *s, int task);
/* a task of the workload was forked anew: no utilisation history */
void sim_cf_task_new(struct il_sim *s, int task);
/* the warm-up's end: the counters that reports read start over */
void sim_cf_warmup(struct il_sim *s, int64_t now);

/* APERF/MPERF of c counted up to now (C0 time at its core's frequency and at base). */
static inline void sim_c0_flush(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	struct sim_cf_cpu *f = &s->cf.cpu[c->cpu];

	if (c->level == 0) {
		double dt = (double)(now - f->c0_since);
		f->aperf += dt * s->cores[c->core].mhz * 1e-3;
		f->mperf += dt * s->cf.base_mhz * 1e-3;
	}
	f->c0_since = now;
}
/*
 * The fair class's view of c: the CPU's stopper thread (stop class) is
 * neither its running task nor one of its queued tasks (cfs_rq->curr is
 * NULL while it runs; h_nr_running leaves it out).
 */
static inline bool sim_cf_cfs_running(const struct sim_cf_cpu *fc, const struct sim_cpu *c)
{
	return c->cur >= 0 && c->cur != fc->stopper;
}

static inline int sim_cf_cfs_queued(const struct sim_cf_cpu *fc, const struct sim_cpu *c)
{
	return c->rq_len - fc->stopper_queued;
}

/* update_rq_clock_pelt(): the PELT clock of c up to now (inline: every PELT step starts here). */
static inline void sim_cf_rq_clock(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	struct sim_cf_cpu *fc = &s->cf.cpu[c->cpu];
	int64_t delta = now - fc->clock_last;
	fc->clock_last = now;
	if (c->cur < 0) {
		/*
		 * The idle task runs: the PELT clock catches up with clock_task;
		 * clock_pelt here is rq_clock_pelt(), less the lost idle time.
		 */
		fc->clock_pelt = (uint64_t)now - fc->lost_idle_ns;
		return;
	}
	if (delta <= 0)
		return;
	/* cap_scale(delta, cpu capacity 1024), then cap_scale(delta, freq_scale) */
	fc->clock_pelt += ((uint64_t)delta * fc->freq_scale) >> 10;
}

/* the runnable steps (runnable boosting, 6.5 on), out of line: the engine's hot paths stay small */
bool sim_cf_rq_pelt_r(struct il_sim *s, struct sim_cpu *c, int adj);
bool sim_cf_task_pelt_r(struct il_sim *s, int task, uint64_t now, bool load, bool running);
void sim_cf_pick_runnable(struct il_sim *s, struct sim_cpu *c, int task, int64_t now);

/*
 * A removal (a task migrated away or exited: remove_entity_load_avg()) is
 * applied at the queue's next update, which then counts as decayed
 * (update_cfs_rq_load_avg()): the governor is called even within a period.
 */
void sim_cf_rq_apply_removed(struct il_sim *s, struct sim_cpu *c);

static inline bool sim_cf_rq_removed(struct il_sim *s, struct sim_cpu *c)
{
	if (__builtin_expect(!s->cf.cpu[c->cpu].removed, 1))
		return false;
	sim_cf_rq_apply_removed(s, c);
	return true;
}

/*
 * update_cfs_rq_load_avg() of c's run queue to its PELT clock: true when
 * util_avg decayed or a removal was pending. adj: the fair tasks runnable
 * since the last update are the queued and running ones + adj (-1 at an
 * enqueue, whose task is queued already; +1 at a pick, whose task has left
 * the queue).
 */
static inline bool sim_cf_rq_pelt_adj(struct il_sim *s, struct sim_cpu *c, int adj)
{
	struct sim_cf_cpu *fc = &s->cf.cpu[c->cpu];
	bool removed = sim_cf_rq_removed(s, c);
	if (__builtin_expect(s->cf.runnable, 0))
		return sim_cf_rq_pelt_r(s, c, adj) || removed;
	bool running = sim_cf_cfs_running(fc, c);
	return il_pelt_update(&fc->rq_pelt, fc->clock_pelt, running || sim_cf_cfs_queued(fc, c) > 0,
			      running) || removed;
}

/* sim_cf_rq_pelt() without runnable boosting (the engine's inline hooks: runnable mode is out of line) */
static inline bool sim_cf_rq_pelt_util(struct il_sim *s, struct sim_cpu *c)
{
	struct sim_cf_cpu *fc = &s->cf.cpu[c->cpu];
	bool removed = sim_cf_rq_removed(s, c);
	bool running = sim_cf_cfs_running(fc, c);
	return il_pelt_update(&fc->rq_pelt, fc->clock_pelt, running || sim_cf_cfs_queued(fc, c) > 0,
			      running) || removed;
}

static inline bool sim_cf_rq_pelt(struct il_sim *s, struct sim_cpu *c)
{
	return sim_cf_rq_pelt_adj(s, c, 0);
}

/* __update_load_avg_se() of a task: on its queue (load) and running; runnable = on the queue. */
static inline bool sim_cf_task_pelt(struct il_sim *s, int task, uint64_t now, bool load,
				    bool running)
{
	struct sim_cf_task *t = &s->cf.task[task];
	if (__builtin_expect(s->cf.runnable, 0))
		return sim_cf_task_pelt_r(s, task, now, load, running);
	return il_pelt_update(&t->pelt, now, load, running);
}

void sim_cf_update_util(struct il_sim *s, struct sim_cpu *c, int64_t now);

/*
 * c is about to run task (it was queued) instead of what it ran:
 * put_prev/set_next_entity()'s updates of the queue and of the task
 * (inline into the engine's schedule). set_next_entity()'s
 * update_load_avg() calls cpufreq_update_util() when the queue's PELT
 * decayed (cfs_rq_util_change()), on c itself.
 */
static inline void sim_cf_pick(struct il_sim *s, struct sim_cpu *c, int task, int64_t now)
{
	struct sim_cf_task *t = &s->cf.task[task];

	if (!s->cf.pelt)
		return;
	if (__builtin_expect(s->cf.runnable, 0)) {
		sim_cf_pick_runnable(s, c, task, now);
		return;
	}
	sim_cf_rq_clock(s, c, now);
	bool decayed = sim_cf_rq_pelt(s, c);
	if (il_pelt_update(&t->pelt, s->cf.cpu[c->cpu].clock_pelt, true, false))
		t->ue_fresh = true;
	if (decayed)
		sim_cf_update_util(s, c, now);
}

/*
 * The two updates of the tick and of a block (dequeue), the running task's
 * and its run queue's (both loaded and running, to the same PELT clock,
 * the task's first): when they are at the same point of the same period,
 * as a CPU with one task keeps them, the step's periods and contribution
 * are the same for both and are computed once. With ser and rqr (runnable
 * boosting, 6.5 on) their runnable sums too: the task runnable (1), its
 * queue n; NULL: util alone. Each sum still decays by itself: the result is
 * il_pelt_update_r()'s on each, bit for bit. Returns the run queue's
 * "decayed"; *task_decayed the task's.
 */
static inline bool sim_cf_pelt_pair(struct il_pelt *se, struct il_pelt_r *ser, struct il_pelt *rq,
				    struct il_pelt_r *rqr, uint64_t now, unsigned int n,
				    bool *task_decayed)
{
	if (se->last_update_time != rq->last_update_time ||
	    se->period_contrib != rq->period_contrib || now < rq->last_update_time) {
		*task_decayed = il_pelt_update_r(se, ser, now, true, true, 1);
		return il_pelt_update_r(rq, rqr, now, true, true, n);
	}
	uint64_t delta = (now - rq->last_update_time) >> 10;
	*task_decayed = false;
	if (!delta)
		return false;
	uint64_t lut = rq->last_update_time + (delta << 10);
	se->last_update_time = rq->last_update_time = lut;
	uint32_t contrib = (uint32_t)delta;
	delta += rq->period_contrib;
	uint64_t periods = delta / 1024;
	if (periods) {
		delta %= 1024;
		contrib = il_pelt_segments(periods, 1024 - rq->period_contrib, (uint32_t)delta);
		se->util_sum = il_pelt_decay_load(se->util_sum, periods);
		rq->util_sum = il_pelt_decay_load(rq->util_sum, periods);
		if (ser) {
			ser->runnable_sum = il_pelt_decay_load(ser->runnable_sum, periods);
			rqr->runnable_sum = il_pelt_decay_load(rqr->runnable_sum, periods);
		}
	}
	se->period_contrib = rq->period_contrib = (uint32_t)delta;
	uint64_t c10 = (uint64_t)contrib << 10;
	se->util_sum += c10;
	rq->util_sum += c10;
	if (ser) {
		ser->runnable_sum += c10;
		rqr->runnable_sum += n * c10;
	}
	if (!periods)
		return false;
	uint32_t pc = rq->period_contrib;
	uint64_t m = il_pelt_div_m[pc & 1023];
	se->util_avg = (unsigned long)il_pelt_div_by(se->util_sum, m, pc);
	rq->util_avg = (unsigned long)il_pelt_div_by(rq->util_sum, m, pc);
	if (ser) {
		ser->runnable_avg = (unsigned long)il_pelt_div_by(ser->runnable_sum, m, pc);
		rqr->runnable_avg = (unsigned long)il_pelt_div_by(rqr->runnable_sum, m, pc);
	}
	*task_decayed = true;
	return true;
}

/*
 * The tick's and a block's step of the running task and its queue to
 * c's PELT clock (the task's first); the queue's "decayed" (with a pending
 * removal), the task's in *task_decayed.
 */
static inline bool sim_cf_pelt_running(struct il_sim *s, struct sim_cpu *c, int task,
				       bool *task_decayed)
{
	struct sim_cf_cpu *fc = &s->cf.cpu[c->cpu];
	bool removed = sim_cf_rq_removed(s, c);
	if (__builtin_expect(s->cf.runnable, 0)) {
		int n = sim_cf_cfs_queued(fc, c) + 1 - s->cf.rq_wl[c->cpu];
		return sim_cf_pelt_pair(&s->cf.task[task].pelt, &s->cf.task_r[task], &fc->rq_pelt,
					&s->cf.rq_r[c->cpu], fc->clock_pelt,
					n > 0 ? (unsigned int)n : 0, task_decayed) ||
		       removed;
	}
	return sim_cf_pelt_pair(&s->cf.task[task].pelt, NULL, &fc->rq_pelt, NULL, fc->clock_pelt, 1,
				task_decayed) ||
	       removed;
}

/* update_idle_rq_clock_pelt()'s bound: ((LOAD_AVG_MAX - 1024) << 10) - LOAD_AVG_MAX */
#define SIM_CF_LOST_IDLE_SUM (((uint64_t)IL_PELT_MIN_DIVIDER << 10) - IL_PELT_LOAD_AVG_MAX)

/*
 * The CPU switches to idle after a block (pick_next_task_fair()'s idle
 * path, update_idle_rq_clock_pelt()): a queue whose util_sum reached the
 * maximum ran without idle time to give back, so its PELT clock does not
 * catch up with clock_task: the gap is lost idle time, subtracted from then
 * on (rq_clock_pelt()). Without invariance the clock never fell behind.
 */
static inline void sim_cf_idle_switch(struct sim_cf_cpu *fc, int64_t now)
{
	if (__builtin_expect(fc->rq_pelt.util_sum >= SIM_CF_LOST_IDLE_SUM, 0))
		fc->lost_idle_ns = (uint64_t)now - fc->clock_pelt;
}

/* util_est_dequeue(): the task's estimate leaves its queue's sum. */
static inline void sim_cf_ue_remove(struct sim_cf_cpu *fc, struct sim_cf_task *t)
{
	fc->ue_enqueued -= t->ue_added < fc->ue_enqueued ? t->ue_added : fc->ue_enqueued;
	t->ue_added = 0;
}

/*
 * The task's own update at its sleep (util_est_update(), task_sleep), if
 * its flag is clear: it reads the task's util_avg (and from 6.8 its
 * runnable_avg) as they are now.
 */
static inline void sim_cf_ue_update(struct il_sim *s, int task)
{
	struct sim_cf_task *t = &s->cf.task[task];
	if (!t->ue_fresh)
		return;
	uint32_t r = s->cf.ue_text >= IL_UE_6_8 && s->cf.runnable
			     ? (uint32_t)s->cf.task_r[task].runnable_avg : 0;
	if (il_ue_update(&t->ue, s->cf.ue_text, (uint32_t)t->pelt.util_avg, r, 1024))
		t->ue_fresh = false;
}

/* util_est of a task: _task_util_est() */
static inline unsigned long sim_cf_task_util_est(const struct il_sim *s, const struct sim_cf_task *t)
{
	return il_ue_task(&t->ue, s->cf.ue_text);
}

/* util_est_enqueue(): the task's estimate joins its queue's sum. */
static inline void sim_cf_ue_add(struct il_sim *s, struct sim_cf_cpu *fc, struct sim_cf_task *t)
{
	if (!s->cf.util_est)
		return;
	t->ue_added = sim_cf_task_util_est(s, t);
	fc->ue_enqueued += t->ue_added;
}

/*
 * A block's util_est steps, in the release's order around the dequeue's
 * PELT step and governor call: util_est_dequeue() before them from 5.12,
 * after them before; util_est_update() after them, before them from 6.12.
 */
static inline void sim_cf_ue_block_before(struct il_sim *s, struct sim_cf_cpu *fc, int task)
{
	if (!s->cf.util_est || s->cf.ue_rm_late)
		return;
	sim_cf_ue_remove(fc, &s->cf.task[task]);
	if (s->cf.ue_update_early)
		sim_cf_ue_update(s, task);
}

static inline void sim_cf_ue_block_after(struct il_sim *s, struct sim_cf_cpu *fc, int task)
{
	if (!s->cf.util_est)
		return;
	if (s->cf.ue_rm_late)
		sim_cf_ue_remove(fc, &s->cf.task[task]);
	if (!s->cf.ue_update_early)
		sim_cf_ue_update(s, task);
}

void sim_cf_enqueue_slow(struct il_sim *s, struct sim_cpu *c, int task, bool iowait, int64_t now,
			 int from_cpu);
/* sim_cf_enqueue()'s common path in runnable mode (6.5 on), out of line: the engine's hooks stay small */
void sim_cf_enqueue_r(struct il_sim *s, struct sim_cpu *c, int task, int64_t now, int from_cpu);
void sim_cf_dequeue_slow(struct il_sim *s, struct sim_cpu *c, int task, int64_t now);
void sim_cf_update_util(struct il_sim *s, struct sim_cpu *c, int64_t now);
void sim_cf_update_util_remote(struct il_sim *s, struct sim_cpu *c, int64_t now);

/*
 * A wake-up of task onto c by from_cpu (-1: none): is the task activated,
 * and so cpufreq_update_util() called, on another CPU than c?
 * try_to_wake_up() activates it on the waker's CPU unless ttwu_queue()
 * puts it on c's wakelist, where c activates it itself: always across
 * LLCs (TTWU_QUEUE), and from v6.0 also when c runs nothing
 * (ttwu_queue_cond(), f3dd3f674555). A new process is activated by its
 * parent's CPU (wake_up_new_task()). Asked after the task is queued (c's
 * queue was empty if it now holds one task), and only when a governor
 * call needs it: the enqueue hooks take from_cpu.
 */
static inline bool sim_cf_remote(const struct il_sim *s, int from_cpu, int task,
				 const struct sim_cpu *c)
{
	const struct sim_cf *f = &s->cf;

	if (from_cpu < 0 || from_cpu == c->cpu)
		return false;
	if (f->task[task].fresh)
		return true;
	if (f->llc[from_cpu] != f->llc[c->cpu])
		return false;
	return !(f->idle_wakelist && c->cur < 0 && c->rq_len == 1);
}

/*
 * task has been put on c's run queue (a wake-up by from_cpu, -1: none or
 * c itself); iowait: it waited for I/O. Inline into the engine's wake-ups:
 * a task waking on the queue it left (enqueue_entity() ->
 * update_load_avg(), util_est_enqueue()); the rest in
 * sim_cf_enqueue_slow(), the same steps in the same order.
 */
static inline void sim_cf_enqueue(struct il_sim *s, struct sim_cpu *c, int task, bool iowait,
				  int64_t now, int from_cpu)
{
	struct sim_cf_task *t = &s->cf.task[task];
	struct sim_cf_cpu *fc = &s->cf.cpu[c->cpu];

	if (!s->cf.pelt || iowait || t->pelt_cpu != c->cpu) {
		sim_cf_enqueue_slow(s, c, task, iowait, now, from_cpu);
		return;
	}
	if (s->cf.runnable) {
		sim_cf_enqueue_r(s, c, task, now, from_cpu);
		return;
	}
	sim_cf_ue_add(s, fc, t);
	sim_cf_rq_clock(s, c, now);
	bool decayed = sim_cf_rq_pelt_util(s, c);
	if (il_pelt_update(&t->pelt, fc->clock_pelt, false, false))
		t->ue_fresh = true;
	t->cf_queued = true;
	if (decayed) {
		if (sim_cf_remote(s, from_cpu, task, c))
			sim_cf_update_util_remote(s, c, now);
		else
			sim_cf_update_util(s, c, now);
	}
}

/*
 * c's running task blocks (dequeue_entity(): update_load_avg() of the
 * task, then of its queue, both running to the same PELT clock;
 * util_est_dequeue()). Inline into the engine; an exited process's
 * queue and runs without PELT in sim_cf_dequeue_slow().
 */
static inline void sim_cf_dequeue(struct il_sim *s, struct sim_cpu *c, int task, int64_t now)
{
	struct sim_cf_task *t = &s->cf.task[task];
	struct sim_cf_cpu *fc = &s->cf.cpu[c->cpu];

	if (!s->cf.pelt || t->dead || c->cur < 0) {
		sim_cf_dequeue_slow(s, c, task, now);
		return;
	}
	sim_cf_ue_block_before(s, fc, task);
	sim_cf_rq_clock(s, c, now);
	bool task_decayed;
	bool decayed = sim_cf_pelt_running(s, c, task, &task_decayed);
	if (task_decayed)
		t->ue_fresh = true;
	t->cf_queued = false;
	if (c->rq_len == 0)
		sim_cf_idle_switch(fc, now);
	if (decayed)
		sim_cf_update_util(s, c, now);
	sim_cf_ue_block_after(s, fc, task);
}

/* A CPU of domain d entered or left C0: its vote changes at the next periodic pass. */
static inline void sim_cf_mark(struct il_sim *s, int d)
{
	if (!s->cf.is_dirty[d]) {
		s->cf.is_dirty[d] = true;
		s->cf.dirty[s->cf.ndirty++] = d;
	}
}
/* The cpufreq layer's state of a task added to the run (grown with the tasks). */
void sim_cf_task_added(struct il_sim *s, int task);

/* The part of [a, b) after the warm-up's end. */
static inline int64_t span_measured(const struct il_sim *s, int64_t a, int64_t b)
{
	if (a < s->measure_t)
		a = s->measure_t;
	return b > a ? b - a : 0;
}

/*
 * c's residency in a physical state, from ->enter to now:
 * halted until its hardware was up again, then its exit path; a shared
 * exit path (the PM-timer read) is counted apart, waiting and served, as
 * a profiler that samples cycles sees it: on the read's instruction.
 * Only what followed the warm-up counts. Inline: every idle exit asks.
 */
static inline void sim_halt_span(const struct il_sim *s, const struct sim_cpu *c, int64_t now,
				 int64_t *halted, int64_t *read)
{
	*halted = *read = 0;
	/* a polling state (or idle=poll) is not halted: the CPU spins */
	if (!c->in_idle || c->mode != M_STATE || c->path == PATH_FORCE_POLL ||
	    s->st_lvl[c->idx] == 0)
		return;
	int64_t up = c->up_t >= 0 && c->up_t < now ? c->up_t : now;
	*halted = span_measured(s, c->t_start, up);
	if (c->up_t >= 0 && s->st_exit_path[c->idx] == SIM_EXIT_SHARED)
		*read = span_measured(s, up, now);
}

/* il_sim.st_exit_ns[] and monitor_wake_ns: a draw it is */
#define SIM_DRAWS INT64_MIN

/* il_dist_sample() of a distribution that draws (neither none nor a constant; rng.c) */
int64_t sim_dist_draw(const struct il_dist *d, struct il_rng *r);
/* Build what sim_dist_draw() needs before its first call (rng.c). */
void sim_rng_setup(void);

/* v, one of il_sim's resolved values, else a draw from d */
static inline int64_t sim_fixed_or_draw(struct il_sim *s, int64_t v, const struct il_dist *d)
{
	return v != SIM_DRAWS ? v : sim_dist_draw(d, &s->rng);
}

/* Fill il_sim.st_exit_ns[] and monitor_wake_ns (s->drv and s->p are set; engine.c). */
void sim_draw_consts(struct il_sim *s);

/* Bring idle/busy time, energy, depth and frequency time up to end (result.c). */
void sim_flush_accounting(struct il_sim *s, int64_t end);

/*
 * Set (or clear, t = INT64_MAX) a CPU's internal event. The CPU whose event
 * is being handled updates its leaf once, when the handler is done (the
 * main loop looks at the tree only between events).
 */
static inline void slot_set(struct il_sim *s, struct sim_cpu *c, int64_t t, int kind)
{
	c->slot_t = t;
	c->slot_kind = kind;
	c->slot_seq = s->seq++;
	if (c->cpu != s->slot_cpu)
		sim_ttree_update(&s->tt, c->cpu, t, c->slot_seq);
}

#pragma GCC visibility pop

#endif
