// SPDX-License-Identifier: GPL-2.0-only
/*
 * A simulation run's setup: the engine parameters' defaults, and creating
 * and freeing a run (the state table the idle loop uses, CPUs, cores and
 * packages, event queues, devices, governor data).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/release.h"
#include "idlelab/sim.h"
#include "power.h"
#include "sim_internal.h"

/* in the order of enum il_tick_rule */
static const char *const tick_rules[] = { "got-tick", "stop", "retain", "governor", "release",
					  NULL };

/*
 * The engine's options (--sim-opt): durations bounded so that no sum of
 * times can overflow (switch_ns as the platform file's [kernel] switch_ns,
 * 1 s; 0 is allowed here: no software cost), the PM QoS limits as the
 * kernel's s32 requests.
 */
#define P struct il_sim_params
const struct il_opt il_sim_opts[] = {
	IL_OPT_DUR_NS(P, warmup_ns, "warmup", 0, 1e15, "0",
		      "simulated time at the start left out of every counter and metric"),
	IL_OPT_DUR_NS(P, entry_ns, "entry_ns", 0, 1e9, "300",
		      "from going idle to ->enter (select, tick handling, entry)"),
	IL_OPT_DUR_NS_KW(P, switch_ns, "switch_ns", 0, 1e9, "platform", -1, "platform",
			 "wake-up seen to the task running (platform: its [kernel] switch_ns, else 700ns)"),
	IL_OPT_DUR_NS(P, turbo_interval_ns, "turbo_interval", 1000, 1e12, "100us",
		      "how often a package re-evaluates its turbo bin"),
	IL_OPT_DUR_NS(P, no_timer_ns, "no_timer", 1, 1e12, "1s",
		      "the sleep length governors see when no timer is queued"),
	IL_OPT_ENUM(P, nocpuidle_tick, enum il_tick_rule, "nocpuidle_tick", tick_rules, "release",
		    "tick rule without cpuidle (release: as the run's kernel release; got-tick: "
		    "f4c31b07b136, v7.0; stop: before it)"),
	IL_OPT_ENUM(P, single_state_tick, enum il_tick_rule, "single_state_tick", tick_rules,
		    "release", "tick rule with one state (release: as the run's kernel release; "
		    "got-tick: v7.0; governor: asked, before v7.0; retain: e5c9ffc6ae1b alone)"),
	IL_OPT_BOOL(P, nohz, "nohz", "on", "off: requests to stop the tick are no-ops (nohz=off)"),
	IL_OPT_BOOL(P, ilb, "ilb", "off",
		    "on: busy ticks kick the nohz idle balancer (its blocked-load and, from 5.16, "
		    "next-balance kicks; not its balancing kicks; docs/nohz-balance.md)"),
	IL_OPT_DUR_NS(P, ilb_cost_ns, "ilb_cost", 0, 1e9, "2us",
		      "with ilb=on: the balancer's SCHED_SOFTIRQ per kick (an estimate)"),
	IL_OPT_INT_KW(P, qos_resume_latency_us, "resume_latency_us", 0, IL_S32_MAX, "none",
		      IL_QOS_DEFAULT_DEV_US, "none", "per-CPU PM QoS resume latency limit, µs"),
	IL_OPT_INT_KW(P, qos_cpu_latency_us, "cpu_latency_us", 0, IL_S32_MAX, "none",
		      IL_QOS_DEFAULT_GLOBAL_US, "none", "global PM QoS latency limit (cpu_dma_latency), µs"),
	IL_OPT_DOUBLE(P, default_mhz, "default_mhz", 1, 100000, "2000",
		      "frequency when the platform gives none, MHz"),
	IL_OPT_END,
};
#undef P

void il_sim_params_default(struct il_sim_params *p)
{
	struct il_err e;
	int r;

	memset(p, 0, sizeof(*p));
	p->duration_ns = 1000000000;
	p->seed = 1;
	r = il_opts_defaults(il_sim_opts, p, &e);
	assert(r == 0); /* the table's own defaults */
	(void)r;
}

int64_t il_sim_switch_ns(const struct il_sim_params *params, const struct il_platform *p)
{
	if (params->switch_ns >= 0)
		return params->switch_ns;
	return p->switch_ns > 0 ? p->switch_ns : IL_SIM_SWITCH_NS;
}

/* What malloc adds to each block, about. */
#define MALLOC_OVERHEAD 16

uint64_t il_sim_run_bytes(const struct il_platform *p, const struct il_workload *wl,
			  size_t gov_cpu_data_size)
{
	uint64_t n = (uint64_t)il_platform_ncpus(p), leaves = 1;

	while (leaves < n)
		leaves *= 2;
	/* per CPU: its state, a task, run queue and task list, a few hrtimers, governor data */
	uint64_t per_cpu = sizeof(struct sim_cpu) + sizeof(struct sim_task) + 2 * sizeof(int) +
			   4 * sizeof(int64_t) + 3 * MALLOC_OVERHEAD + gov_cpu_data_size;
	return sizeof(struct il_sim) + n * per_cpu +
	       (uint64_t)p->packages * p->cores_per_package * sizeof(struct sim_core) +
	       (uint64_t)p->packages * sizeof(struct sim_pkg) +
	       2 * leaves * (sizeof(int64_t) + sizeof(uint64_t) + sizeof(int)) +
	       (64 + 8 * n) * sizeof(struct sim_ev) + (wl ? wl->state_size : 0) +
	       16 * MALLOC_OVERHEAD;
}

uint64_t il_sim_result_bytes(const struct il_platform *p)
{
	/* the per-CPU counters and the metrics (a sleep-sweep grid of 64 rows is ~90 KiB) */
	return sizeof(struct il_sim_result) +
	       (uint64_t)il_platform_ncpus(p) * sizeof(struct il_sim_cpu_result) + (128 << 10);
}

struct il_sim *il_sim_new(const struct il_platform *p, const struct il_machine_idle *m,
			  struct il_gov *gov, const struct il_workload *wl,
			  const void *wl_cfg, const struct il_sim_params *params,
			  struct il_err *err)
{
	int ncpus = il_platform_ncpus(p);

	if (ncpus < 1) {
		il_err_set(err, EINVAL, "platform %s has no CPUs", p->name);
		return NULL;
	}
	if (ncpus > IL_CPUS_MAX) {
		/* the platform loader refuses these; a platform built in memory may not */
		il_err_set(err, EINVAL, "platform %s has %d CPUs, more than IL_CPUS_MAX (%d)", p->name,
			   ncpus, IL_CPUS_MAX);
		return NULL;
	}
	if (ncpus < wl->min_cpus) {
		il_err_set(err, EINVAL, "workload %s needs %d CPUs, platform %s has %d",
			   wl->name, wl->min_cpus, p->name, ncpus);
		return NULL;
	}
	/* the idle loop's rules of the run's release (IL_TICK_BY_RELEASE, cpuidle_poll_time) */
	const char *rel = m->release[0] ? m->release : IL_RELEASE_NEWEST;
	bool v7_0 = il_release_cmp(rel, "7.0") >= 0;
	enum il_tick_rule nocpuidle_tick = params->nocpuidle_tick, single_tick = params->single_state_tick;

	if (nocpuidle_tick == IL_TICK_BY_RELEASE)
		nocpuidle_tick = v7_0 ? IL_TICK_GOT_TICK : IL_TICK_ALWAYS_STOP;   /* f4c31b07b136 */
	if (single_tick == IL_TICK_BY_RELEASE)
		single_tick = v7_0 ? IL_TICK_GOT_TICK : IL_TICK_GOVERNOR; /* e5c9ffc6ae1b, d557640e4ce5 */
	if (nocpuidle_tick == IL_TICK_GOVERNOR) {
		il_err_set(err, EINVAL, "nocpuidle_tick: the no-cpuidle path has no governor to ask");
		return NULL;
	}
	if (m->cpuidle && !m->force_poll && !gov &&
	    (m->drv.state_count > 1 || single_tick == IL_TICK_GOVERNOR)) {
		il_err_set(err, EINVAL, "a governor is needed for driver %s", m->drv.name);
		return NULL;
	}
	if (params->duration_ns <= 0 || params->duration_ns > IL_SIM_DURATION_MAX_NS) {
		il_err_set(err, EINVAL, "duration: %lld ns is not in (0, %lld s] (durations must be positive)",
			   (long long)params->duration_ns, (long long)(IL_SIM_DURATION_MAX_NS / 1000000000));
		return NULL;
	}
	if (il_opts_check(il_sim_opts, params, err))
		return NULL;
	if (params->warmup_ns >= params->duration_ns) {
		il_err_set(err, EINVAL, "warmup: %lld ns is not shorter than the duration (%lld ns)",
			   (long long)params->warmup_ns, (long long)params->duration_ns);
		return NULL;
	}
	if (params->warmup_ns > 0 && !wl->warmup) {
		il_err_set(err, EINVAL, "warmup: workload %s cannot leave out a warm-up", wl->name);
		return NULL;
	}
	if (il_opts_check(wl->opts, wl_cfg, err))
		return NULL; /* a configuration filled in by code, held to the option bounds */
	struct il_sim *s = calloc(1, sizeof(*s));
	if (!s) {
		il_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	s->p = p;
	s->m = m;
	s->gov = gov;
	s->wl = wl;
	s->wl_cfg = wl_cfg;
	s->params = *params;
	s->params.switch_ns = il_sim_switch_ns(params, p);
	/* --sim-opt switch_ns wins over both of the platform's */
	s->switch_by_cycles = params->switch_ns < 0 && p->switch_cycles.kind != IL_DIST_NONE;
	/* nohz=off at boot: no idle path stops the tick, whatever --sim-opt nohz says */
	s->params.nohz = params->nohz && !m->nohz_off;
	s->params.nocpuidle_tick = nocpuidle_tick;
	s->params.single_state_tick = single_tick;
	s->poll_rule = il_poll_rule_for_release(rel);
	s->ncpus = ncpus;
	s->tick_nsec = il_tick_nsec(p->hz ? p->hz : IL_HZ_DEFAULT);
	s->force_poll = m->force_poll;
	s->oracle = gov && (gov->ops->flags & IL_GOV_NEEDS_TRUE_IDLE);
	s->cur_cpu = -1;
	s->slot_cpu = -1;
	il_rng_seed(&s->rng, params->seed);
	il_hist_init(&s->wake_lat);

	/* the state table the loop uses */
	if (m->force_poll) {
		memset(&s->own_drv, 0, sizeof(s->own_drv));
		snprintf(s->own_drv.name, sizeof(s->own_drv.name), "idle=poll");
		il_poll_state_init(&s->own_drv.states[0]);
		snprintf(s->own_drv.states[0].name, IL_NAME_LEN, "poll");
		s->own_drv.state_count = 1;
		s->drv = &s->own_drv;
	} else if (!m->cpuidle) {
		memset(&s->own_drv, 0, sizeof(s->own_drv));
		snprintf(s->own_drv.name, sizeof(s->own_drv.name), "default idle");
		s->own_drv.states[0] = m->default_state;
		if (!s->own_drv.states[0].name[0])
			snprintf(s->own_drv.states[0].name, IL_NAME_LEN, "%s",
				 m->routine == IL_IDLE_ROUTINE_NONE ? "HLT" : il_idle_routine_name(m->routine));
		if (s->own_drv.states[0].entry == IL_ENTRY_NONE)
			s->own_drv.states[0].entry = IL_ENTRY_HLT;
		s->own_drv.state_count = 1;
		s->drv = &s->own_drv;
	} else {
		s->drv = &m->drv;
	}
	if (s->drv->state_count < 1) {
		il_err_set(err, EINVAL, "driver %s has no states", s->drv->name);
		free(s);
		return NULL;
	}

	int tpc = p->threads_per_core, cpp = p->cores_per_package;
	if (tpc < 1 || tpc > SIM_SMT_MAX) {
		/* the platform loader refuses these; a platform built in memory may not */
		il_err_set(err, EINVAL, "platform %s has %d threads per core, not in 1..%d", p->name,
			   tpc, SIM_SMT_MAX);
		free(s);
		return NULL;
	}
	s->ncores = p->packages * cpp;
	s->npkgs = p->packages;
	/* cache-line aligned (struct sim_cpu): its hot fields are laid out by line */
	s->cpus = aligned_alloc(_Alignof(struct sim_cpu), (size_t)ncpus * sizeof(*s->cpus));
	if (s->cpus)
		memset(s->cpus, 0, (size_t)ncpus * sizeof(*s->cpus));
	s->cores = calloc((size_t)s->ncores, sizeof(*s->cores));
	s->pkgs = calloc((size_t)s->npkgs, sizeof(*s->pkgs));
	s->wl_st = calloc(1, wl->state_size ? wl->state_size : 1);
	if (!s->cpus || !s->cores || !s->pkgs || !s->wl_st || sim_ttree_init(&s->tt, ncpus) ||
	    sim_evheap_init(&s->evq, 64 + 8 * ncpus)) {
		il_err_set(err, ENOMEM, "out of memory");
		il_sim_free(s);
		return NULL;
	}
	if (params->ilb) {
		s->ilb.on = true;
		s->ilb.cpu = calloc((size_t)ncpus, sizeof(*s->ilb.cpu));
		if (!s->ilb.cpu) {
			il_err_set(err, ENOMEM, "out of memory");
			il_sim_free(s);
			return NULL;
		}
		s->ilb.next_kick = il_release_cmp(rel, "5.16") >= 0;
		s->ilb.poll_no_ipi = il_release_cmp(rel, "5.8") >= 0;
		s->ilb.poll_pass = !s->ilb.poll_no_ipi || il_release_cmp(rel, "6.13") >= 0;
	}
	sim_power_init(s);
	/*
	 * A CPU waiting in MWAIT has set TIF_POLLING_NRFLAG and monitors its
	 * thread flags (mwait_idle_with_hints() in arch/x86/include/asm/mwait.h,
	 * mwait_idle() in arch/x86/kernel/process.c, every release 5.4 .. 7.1;
	 * not with X86_BUG_MONITOR): a remote wake-up is the need_resched store
	 * alone, whether it takes resched_curr()'s set_nr_and_not_polling() or
	 * the wake list's set_nr_if_polling() (kernel/sched/core.c; the wake
	 * list on the call-function queue from v5.8, b2a02fc43a1f).
	 */
	for (int i = 0; i < s->drv->state_count; i++)
		s->st_monitor[i] = s->drv->states[i].entry == IL_ENTRY_MWAIT && !p->bug_monitor;
	/* what the idle exit and a timer's expiry ask of a state and the platform, found once */
	for (int i = 0; i < s->drv->state_count; i++) {
		const struct il_state *st = &s->drv->states[i];
		s->st_exit_path[i] = st->exit_path_shared ? SIM_EXIT_SHARED :
				     st->exit_path_cost.kind != IL_DIST_NONE ? SIM_EXIT_COST :
				     SIM_EXIT_OWN;
		s->st_halt_jitter[i] = (st->entry == IL_ENTRY_HLT || st->entry == IL_ENTRY_TDX_HALT) &&
				       p->timer_jitter_halted.kind != IL_DIST_NONE;
	}
	s->timer_at_expiry = p->timer_jitter_halted.kind != IL_DIST_NONE || p->timer_delivery_stops;
	s->pkg_w_on = p->package_w != 0;
	/* idle_iter()'s tests that send it elsewhere than to the governor, all false */
	s->gov_path = !s->force_poll && s->m->cpuidle &&
		      !(s->drv->state_count <= 1 && s->params.single_state_tick != IL_TICK_GOVERNOR);
	s->gov_reflects = s->gov && s->gov->ops->reflect;
	sim_draw_consts(s);
	for (int k = 0; k < s->ncores; k++) {
		s->cores[k].first = k * tpc;
		s->cores[k].nthreads = tpc;
	}
	for (int i = 0; i < ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		c->cpu = i;
		c->core = i / tpc;
		c->pkg = i / (tpc * cpp);
		c->cur = -1;
		c->stopper = -1;
		c->slot_t = INT64_MAX;
		c->memo_mhz = -1;
		il_device_init(&c->dev, s->drv, i);
		il_qos_init(&c->qos);
		c->qos.resume_latency_us = params->qos_resume_latency_us;
		c->qos.cpu_latency_us = params->qos_cpu_latency_us;
		c->latency_req_ns = il_latency_req_ns(&c->qos); /* the requests never change in a run */
		c->mode = M_RUN;
		c->power_w = thread_power(s, c);
		if (gov && s->drv == &m->drv)
			il_gov_enable(gov, i, s->drv, &c->dev);
	}
	if (sim_cf_init(s, err) < 0) {
		il_sim_free(s);
		return NULL;
	}
	return s;
}

void il_sim_free(struct il_sim *s)
{
	if (!s)
		return;
	if (s->wl && s->wl->cleanup && s->wl_st)
		s->wl->cleanup(s->wl_st);
	if (s->cpus)
		for (int i = 0; i < s->ncpus; i++) {
			sim_timerq_free(&s->cpus[i].th);
			free(s->cpus[i].rq);
			free(s->cpus[i].tasks);
		}
	sim_cf_free(s);
	free(s->ilb.cpu);
	free(s->cpus);
	free(s->cores);
	free(s->pkgs);
	sim_ttree_free(&s->tt);
	sim_evheap_free(&s->evq);
	free(s->tasks);
	free(s->hk);
	free(s->wl_st);
	free(s);
}
