// SPDX-License-Identifier: GPL-2.0-only
/*
 * Short-lived processes, the workloads of the x86 frequency-invariance
 * series (v5.7) where a utilisation signal that starts from nothing decides
 * the frequency:
 *
 * - gitsource: git's test suite, a shell that runs one short command after
 *   another. A parent (the shell) runs, forks a child and waits for it
 *   (wait4); the child is a new process (no PELT history: it starts from
 *   post_init_entity_util_avg() with the cpufreq layer), runs `bursts`
 *   bursts of `burst` cycles with `wait` between them (short sleeps:
 *   pipes, page-cache reads), exits and wakes the parent, which forks the
 *   next. Serial: one CPU busy at a time, but not always the same one.
 * - kernbench: `make -j jobs`: `jobs` chains at once, each a job of
 *   `short_procs` short processes (the gcc driver, as, sh; `short_work`
 *   cycles each) and one compiler process (`work` cycles), all in bursts
 *   of `burst` cycles with `wait` between them; a chain's next process is
 *   forked when one exits.
 *
 * Where a new process runs (fork balancing, select_task_rq_fair() with
 * SD_BALANCE_FORK -> find_idlest_cpu(), kernel/sched/fair.c of v5.7): in the
 * parent's package, the first core after the parent's (in CPU order,
 * wrapping) with the most idle threads, the parent's own core only when no
 * other has more (find_idlest_group() stays local on a tie); within it the
 * idle thread in the shallowest state, the most recently idled on a tie
 * (find_idlest_group_cpu()); no idle CPU: the parent's. A simplification:
 * the group statistics are idle-thread counts, not the load and
 * utilisation sums the kernel also compares, and exec balancing is not
 * modelled.
 *
 * The work sizes are estimates (labelled so in the options): the scenario
 * reruns them at half and double.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/platform.h"
#include "idlelab/workload.h"
#include "wl_api.h"

extern const struct il_workload il_wl_gitsource, il_wl_kernbench;

#define PC_MAX_CHAINS 1024

struct pc_cfg {
	int jobs;                 /* chains at once (0: half the CPUs) */
	bool parent;              /* a parent forks each process and waits for it */
	uint64_t parent_cycles;   /* the parent's work per process (fork, wait, the script) */
	int short_procs;          /* short processes per job */
	uint64_t short_cycles;
	uint64_t long_cycles;     /* the job's long process (0: none) */
	uint64_t burst_cycles;
	int64_t wait_ns;
};

struct pc_task {
	int chain;
	bool is_parent;
	uint64_t left;            /* cycles this process still has to run */
};

struct pc_chain {
	int parent;               /* task id, -1 none */
	int child[2], cur;        /* two process slots, used in turn */
	int step;                 /* index of the running process within the job */
};

struct pc_state {
	const struct pc_cfg *cfg;
	int nchains;
	struct pc_chain ch[PC_MAX_CHAINS];
	struct pc_task tk[3 * PC_MAX_CHAINS];
	uint64_t procs, jobs_done, forks, migrations; /* migrations: forks placed off the forking CPU */
	int64_t start_t;
};

/* ---------------------------------------------------------- placement */

/* Idle threads of a core. */
static int idle_threads(struct il_sim *s, int core, int tpc)
{
	int idle = 0;
	for (int t = core * tpc; t < (core + 1) * tpc; t++) {
		int64_t lat, stamp;
		idle += il_sim_cpu_idle_info(s, t, &lat, &stamp);
	}
	return idle;
}

/* find_idlest_cpu() for a fork from cpu (the simplification in the header). */
static int fork_cpu(struct il_sim *s, int cpu)
{
	const struct il_platform *p = il_sim_platform(s);
	int tpc = p->threads_per_core, cpp = p->cores_per_package;
	int core0 = cpu / tpc, first = core0 / cpp * cpp;
	int local = idle_threads(s, core0, tpc), best = core0, best_idle = -1;

	for (int k = 1; k < cpp; k++) {
		int core = first + (core0 - first + k) % cpp;
		int idle = idle_threads(s, core, tpc);
		if (idle > best_idle) {
			best_idle = idle;
			best = core;
		}
	}
	int core = best_idle > local ? best : core0;
	int pick = -1;
	int64_t min_lat = INT64_MAX, latest = INT64_MIN;
	for (int t = core * tpc; t < (core + 1) * tpc; t++) {
		int64_t lat, stamp;
		if (!il_sim_cpu_idle_info(s, t, &lat, &stamp))
			continue;
		if (lat < min_lat || (lat == min_lat && stamp > latest)) {
			min_lat = lat;
			latest = stamp;
			pick = t;
		}
	}
	return pick >= 0 ? pick : cpu;
}

/* ------------------------------------------------------------ chains */

static uint64_t proc_cycles(const struct pc_cfg *c, int step)
{
	return step < c->short_procs ? c->short_cycles : c->long_cycles;
}

static int job_len(const struct pc_cfg *c)
{
	return c->short_procs + (c->long_cycles > 0);
}

/* Fork the chain's next process from cpu. */
static void fork_next(struct il_sim *s, struct pc_state *st, struct pc_chain *ch, int cpu)
{
	const struct pc_cfg *c = st->cfg;
	ch->cur ^= 1;
	int id = ch->child[ch->cur];
	struct pc_task *t = il_sim_task_data(s, id);
	t->left = proc_cycles(c, ch->step);
	int to = fork_cpu(s, cpu);
	st->forks++;
	if (to != cpu)
		st->migrations++;
	il_sim_task_fork(s, id);
	il_sim_task_wake_on(s, cpu, id, to);
}

static void run_burst(const struct pc_cfg *c, struct il_sim *s, int task, struct pc_task *t)
{
	uint64_t b = t->left < c->burst_cycles ? t->left : c->burst_cycles;
	t->left -= b;
	il_sim_task_run(s, task, b ? b : 1);
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct pc_cfg *c = cfgp;
	struct pc_task *t = il_sim_task_data(s, task);
	(void)stp;
	(void)lat;
	if (t->is_parent)
		il_sim_task_run(s, task, c->parent_cycles ? c->parent_cycles : 1);
	else
		run_burst(c, s, task, t);
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct pc_cfg *c = cfgp;
	struct pc_state *st = stp;
	struct pc_task *t = il_sim_task_data(s, task);
	struct pc_chain *ch = &st->ch[t->chain];
	int cpu = il_sim_task_cpu(s, task);

	if (t->is_parent) {
		fork_next(s, st, ch, cpu);
		il_sim_task_block(s, task, -1);
		return;
	}
	if (t->left > 0) {
		if (c->wait_ns > 0)
			il_sim_task_sleep_until(s, task, il_sim_now(s) + c->wait_ns);
		else
			run_burst(c, s, task, t);
		return;
	}
	/* the process exits */
	st->procs++;
	if (++ch->step >= job_len(c)) {
		ch->step = 0;
		st->jobs_done++;
	}
	il_sim_task_exit(s, task);
	if (ch->parent >= 0)
		il_sim_task_wake(s, cpu, ch->parent);
	else
		fork_next(s, st, ch, cpu);
	il_sim_task_block(s, task, -1);
}

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct pc_cfg *c = cfgp;
	struct pc_state *st = stp;
	int n = il_sim_ncpus(s);

	st->cfg = c;
	st->nchains = c->jobs ? c->jobs : (n / 2 > 0 ? n / 2 : 1);
	if (st->nchains > PC_MAX_CHAINS)
		return il_err_set(err, EINVAL, "%s: at most %d jobs", c->parent ? "gitsource" : "kernbench",
				  PC_MAX_CHAINS);
	int nt = 0;
	for (int i = 0; i < st->nchains; i++) {
		struct pc_chain *ch = &st->ch[i];
		/* the chains start spread over the CPUs, as the first forks would place them */
		int cpu = (int)((int64_t)i * n / st->nchains);
		ch->parent = -1;
		if (c->parent) {
			st->tk[nt] = (struct pc_task){ .chain = i, .is_parent = true };
			ch->parent = il_sim_task_add(s, cpu, &st->tk[nt++]);
		}
		for (int k = 0; k < 2; k++) {
			st->tk[nt] = (struct pc_task){ .chain = i };
			ch->child[k] = il_sim_task_add(s, cpu, &st->tk[nt++]);
		}
		ch->cur = 1;
		if (c->parent) {
			il_sim_task_wake(s, -1, ch->parent);
		} else {
			ch->cur = 0;
			struct pc_task *t = il_sim_task_data(s, ch->child[0]);
			t->left = proc_cycles(c, 0);
			il_sim_task_wake(s, -1, ch->child[0]);
		}
	}
	return 0;
}

static void warmup(const void *cfgp, void *stp, struct il_sim *s)
{
	struct pc_state *st = stp;
	(void)cfgp;
	st->procs = st->jobs_done = st->forks = st->migrations = 0;
	st->start_t = il_sim_now(s);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	const struct pc_cfg *c = cfgp;
	struct pc_state *st = stp;
	const char *row = c->parent ? "gitsource" : "kernbench";
	double sec = (double)il_sim_measured_ns(s) * 1e-9;
	double e = il_sim_energy_j(s);

	il_metric_add(out, row, "jobs", "", IL_BETTER_NONE, false, (double)st->nchains);
	il_metric_add(out, row, "procs", "", IL_BETTER_HIGHER, false, (double)st->procs);
	il_metric_add(out, row, "procs_per_s", "1/s", IL_BETTER_HIGHER, true,
		      sec > 0 ? (double)st->procs / sec : 0);
	if (!c->parent)
		il_metric_add(out, row, "jobs_per_s", "1/s", IL_BETTER_HIGHER, true,
			      sec > 0 ? (double)st->jobs_done / sec : 0);
	il_metric_add(out, row, "forked_away_pct", "%", IL_BETTER_NONE, false,
		      st->forks ? 100.0 * (double)st->migrations / (double)st->forks : 0);
	/* performance per watt: processes per joule */
	if (e > 0)
		il_metric_add(out, row, "procs_per_j", "1/J", IL_BETTER_HIGHER, true,
			      (double)st->procs / e);
}

#define C struct pc_cfg
static const struct il_opt git_opts[] = {
	IL_OPT_U64(C, parent_cycles, "parent_work", 0, 1ull << 40, "400000",
		   "cycles the shell runs per command: fork, wait, the script (estimate)"),
	IL_OPT_U64(C, short_cycles, "work", 1, 1ull << 40, "3000000",
		   "cycles a command runs in all (estimate)"),
	IL_OPT_U64(C, burst_cycles, "burst", 1, 1ull << 40, "1000000",
		   "cycles between two waits of a command (estimate)"),
	IL_OPT_DUR_NS(C, wait_ns, "wait", 0, 1e12, "50us",
		      "a command's short sleep between bursts: pipes, page cache (estimate)"),
	IL_OPT_END,
};
static const struct il_opt kb_opts[] = {
	IL_OPT_INT(C, jobs, "jobs", 0, PC_MAX_CHAINS, "0", "make -j: chains at once (0: half the CPUs)"),
	IL_OPT_INT(C, short_procs, "short_procs", 0, 64, "2",
		   "short processes per job: the gcc driver and as (estimate)"),
	IL_OPT_U64(C, short_cycles, "short_work", 1, 1ull << 40, "10000000",
		   "cycles of each short process (estimate)"),
	IL_OPT_U64(C, long_cycles, "work", 0, 1ull << 40, "600000000",
		   "cycles of the job's compiler process, cc1: a defconfig build's ~10 CPU "
		   "minutes over ~2500 objects at ~2.5 GHz (estimate)"),
	IL_OPT_U64(C, burst_cycles, "burst", 1, 1ull << 40, "10000000",
		   "cycles between two waits (estimate)"),
	IL_OPT_DUR_NS(C, wait_ns, "wait", 0, 1e12, "20us",
		      "a short wait between bursts: page-cache reads, pipes (estimate)"),
	IL_OPT_END,
};
#undef C

static int git_check(const void *cfgp, struct il_err *err)
{
	struct pc_cfg *c = (struct pc_cfg *)cfgp;
	(void)err;
	/* one chain, a parent, one short command per job */
	c->jobs = 1;
	c->parent = true;
	c->short_procs = 1;
	c->long_cycles = 0;
	return 0;
}

static int kb_check(const void *cfgp, struct il_err *err)
{
	const struct pc_cfg *c = cfgp;
	if (c->short_procs == 0 && c->long_cycles == 0)
		return il_err_set(err, EINVAL, "kernbench: a job needs short_procs > 0 or work > 0");
	return 0;
}

/*
 * Each chain idles once per burst (its wait) and once per process (the
 * fork and exit); gitsource's shell once more per command.
 */
static double est_idle_periods(const void *cfgp, const struct il_platform *p, int64_t d)
{
	const struct pc_cfg *c = cfgp;
	double hz = il_wl_est_hz(p);
	double jobs = c->jobs ? c->jobs : il_platform_ncpus(p) / 2 > 0 ? il_platform_ncpus(p) / 2 : 1;
	double cycles = (double)c->short_procs * (double)c->short_cycles + (double)c->long_cycles +
			(c->parent ? (double)c->parent_cycles : 0);
	double procs = c->short_procs + (c->long_cycles ? 1 : 0);
	double bursts = cycles / (double)c->burst_cycles + procs;
	double t = cycles / hz * 1e9 + bursts * ((double)c->wait_ns + IL_WL_EST_WAKE_NS);
	double periods = bursts + procs * (c->parent ? 2 : 1);

	return jobs * periods * (double)d / t;
}

const struct il_workload il_wl_gitsource = {
	.name = "gitsource",
	.summary = "git's test suite: a shell forks one short-lived command after another",
	.opts = git_opts,
	.config_size = sizeof(struct pc_cfg),
	.state_size = sizeof(struct pc_state),
	.min_cpus = 1,
	.check = git_check,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.warmup = warmup,
	.report = report,
	.est_idle_periods = est_idle_periods,
};

const struct il_workload il_wl_kernbench = {
	.name = "kernbench",
	.summary = "make -j N: parallel jobs of short-lived processes in CPU bursts with short waits",
	.opts = kb_opts,
	.config_size = sizeof(struct pc_cfg),
	.state_size = sizeof(struct pc_state),
	.min_cpus = 1,
	.check = kb_check,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.warmup = warmup,
	.report = report,
	.est_idle_periods = est_idle_periods,
};
