// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulation engine: CPUs running tasks and the kernel's idle loop.
 *
 * The idle loop follows kernel/sched/idle.c as of the 2026 commits
 * e5c9ffc6ae1b (single state: skip the governor), d557640e4ce5 (and skip
 * reflect) and f4c31b07b136 (tick rule of the two special cases), see
 * ../shared/spec/kernel-cpuidle/core.md §7; accounting is the core's
 * (il_account_enter, cpuidle_enter_state of drivers/cpuidle/cpuidle.c);
 * the poll state follows drivers/cpuidle/poll_state.c (00717eb8c955) with
 * the clock check treated as exact; the tick rules follow
 * kernel/time/tick-sched.c (tick_nohz_get_sleep_length, tick_nohz_next_event:
 * the tick is not stopped when the next timer is within one tick period).
 *
 * Events: each CPU owns one "slot" (its next internal event: end of a burst,
 * end of the idle entry, poll time limit, end of an exit) kept in a
 * tournament tree of CPUs; timers, IPIs, device interrupts and the global
 * tick go to a plain heap; the periodic turbo re-evaluation is a third
 * source compared in the main loop. Ties are broken by a global sequence
 * number, so runs are deterministic. Nothing is allocated
 * once the run has started, except that the plain heap doubles if a
 * workload keeps more events pending than it was sized for.
 *
 * Model simplifications (stated so the numbers can be judged):
 * - hrtimers only (no timer wheel): a stopped tick fires no sched_timer;
 * - an interrupt that arrives while the idle loop runs with interrupts off
 *   (between going idle and ->enter) is handled when the state is entered:
 *   the state is left at once, with its exit latency;
 * - IRQ handler time of housekeeping timers delays the next loop iteration
 *   but is not inside the measured residency (as in the kernel, where the
 *   handler runs after local_irq_enable()); it counts as idle-loop time;
 * - tick_nohz_idle_got_tick() is read-and-clear; governors that have a
 *   reflect hook are taken to consume it, as menu and teo do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sim.h"
#include "sim_internal.h"

/* ------------------------------------------------------------ params */

void il_sim_params_default(struct il_sim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->duration_ns = 1000000000;
	p->seed = 1;
	p->entry_ns = 300;
	p->switch_ns = -1; /* the platform's [kernel] switch_ns, else IL_SIM_SWITCH_NS */
	p->turbo_interval_ns = 100000;
	p->no_timer_ns = 1000000000;
	p->nocpuidle_tick = IL_TICK_GOT_TICK;
	p->single_state_tick = IL_TICK_GOT_TICK;
	p->nohz = true;
	p->qos_resume_latency_us = IL_QOS_DEFAULT_DEV_US;
	p->qos_cpu_latency_us = IL_QOS_DEFAULT_GLOBAL_US;
	p->default_mhz = 2000;
}

int64_t il_sim_switch_ns(const struct il_sim_params *params, const struct il_platform *p)
{
	if (params->switch_ns >= 0)
		return params->switch_ns;
	return p->switch_ns > 0 ? p->switch_ns : IL_SIM_SWITCH_NS;
}

double il_turbo_mhz(const struct il_platform *p, int active_cores, double fallback_mhz)
{
	if (p->nturbo > 0) {
		int n = active_cores < 1 ? 1 : active_cores;
		if (n > p->nturbo)
			n = p->nturbo;
		if (p->turbo_mhz[n - 1] > 0)
			return p->turbo_mhz[n - 1];
	}
	if (p->base_mhz > 0)
		return p->base_mhz;
	return fallback_mhz;
}

/* -------------------------------------------------------------- heaps */

static inline bool ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void ev_push(struct il_sim *s, int64_t t, int type, int cpu, int arg, uint64_t arg2)
{
	if (s->nev == s->cap_ev) {
		size_t cap = (size_t)s->cap_ev * 2;
		struct sim_ev *e = realloc(s->ev, cap * sizeof(*e));
		if (!e) {
			fputs("idlelab: out of memory\n", stderr);
			abort();
		}
		s->ev = e;
		s->cap_ev = (int)cap;
	}
	struct sim_ev x = { .t = t, .seq = s->seq++, .type = type, .cpu = cpu, .arg = arg,
			    .arg2 = arg2 };
	int i = s->nev++;
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!ev_before(&x, &s->ev[p]))
			break;
		s->ev[i] = s->ev[p];
		i = p;
	}
	s->ev[i] = x;
}

static struct sim_ev ev_pop(struct il_sim *s)
{
	struct sim_ev top = s->ev[0];
	struct sim_ev x = s->ev[--s->nev];
	int n = s->nev, i = 0;

	for (;;) {
		int l = 2 * i + 1, m;
		if (l >= n)
			break;
		m = (l + 1 < n && ev_before(&s->ev[l + 1], &s->ev[l])) ? l + 1 : l;
		if (!ev_before(&s->ev[m], &x))
			break;
		s->ev[i] = s->ev[m];
		i = m;
	}
	if (n)
		s->ev[i] = x;
	return top;
}

/*
 * The CPUs' internal events sit in a tournament tree indexed by CPU: leaf
 * tt[leaves + cpu] holds the CPU's time (INT64_MAX when it has none), every
 * inner node the earlier of its children's winners (time and CPU; the
 * sequence numbers that break ties are in tseq[cpu]), so tt[1] is the
 * earliest. An update walks one leaf-to-root path (8 levels on 256 CPUs),
 * carrying the winner so far, and stops where another CPU keeps winning.
 * Keys (t, seq) are unique: any correct structure pops the same order.
 */
static inline void tt_update(struct il_sim *s, int cpu, int64_t t, uint64_t seq)
{
	struct sim_tnode *n = s->tt;
	const uint64_t *q = s->tseq;
	int i = s->tt_leaves + cpu, w = cpu;

	s->tseq[cpu] = seq;
	n[i].t = t;
	if (s->tt_scan)
		return; /* few CPUs: the main loop scans the leaves */
	while (i > 1) {
		int64_t ot = n[i ^ 1].t;
		int oc = n[i ^ 1].cpu;
		bool take = ot < t;
		if (__builtin_expect(ot == t, 0))
			take = q[oc] < q[w];
		/* written for conditional moves: which side wins is unpredictable */
		t = take ? ot : t;
		w = take ? oc : w;
		i >>= 1;
		if (w != cpu && n[i].cpu == w)
			return; /* another CPU still wins here: nothing above changes */
		n[i].t = t;
		n[i].cpu = w;
	}
}

/*
 * With few CPUs a scan of the leaves is cheaper than keeping the inner
 * nodes: the earliest (time, sequence) leaf, INT64_MAX time if none.
 */
static inline const struct sim_tnode *tt_scan_min(const struct il_sim *s)
{
	const struct sim_tnode *l = &s->tt[s->tt_leaves], *k = l;

	for (int i = 1; i < s->ncpus; i++)
		if (l[i].t < k->t || (l[i].t == k->t && s->tseq[i] < s->tseq[k->cpu]))
			k = &l[i];
	return k;
}

/*
 * Set (or clear, t = INT64_MAX) a CPU's internal event. The CPU whose event
 * is being handled updates its leaf once, when the handler is done (the
 * main loop looks at the tree only between events).
 */
static void slot_set(struct il_sim *s, struct sim_cpu *c, int64_t t, int kind)
{
	c->slot_t = t;
	c->slot_kind = kind;
	c->slot_seq = s->seq++;
	if (c->cpu != s->slot_cpu)
		tt_update(s, c->cpu, t, c->slot_seq);
}

/* Per-CPU hrtimer queue: a small min-heap of expiry times. */
static void th_push(struct sim_cpu *c, int64_t t)
{
	if (c->nth == c->cap_th) {
		int cap = c->cap_th ? c->cap_th * 2 : 4;
		int64_t *n = realloc(c->th, (size_t)cap * sizeof(*n));
		if (!n)
			abort();
		c->th = n;
		c->cap_th = cap;
	}
	int i = c->nth++;
	while (i > 0 && c->th[(i - 1) / 2] > t) {
		c->th[i] = c->th[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	c->th[i] = t;
}

static void th_pop(struct sim_cpu *c)
{
	int64_t x = c->th[--c->nth];
	int n = c->nth, i = 0;

	for (;;) {
		int l = 2 * i + 1, m;
		if (l >= n)
			break;
		m = (l + 1 < n && c->th[l + 1] < c->th[l]) ? l + 1 : l;
		if (c->th[m] >= x)
			break;
		c->th[i] = c->th[m];
		i = m;
	}
	if (n)
		c->th[i] = x;
}

/* ------------------------------------------- turbo, depth and energy */

static double active_power(const struct il_sim *s, double mhz)
{
	return s->p->active_static_w + s->p->active_w_per_ghz * mhz / 1000;
}

/* Power of a thread in its current mode, W. */
static double thread_power(const struct il_sim *s, const struct sim_cpu *c)
{
	if (c->mode == M_STATE && !c->exiting && !s->st_active[c->idx])
		return s->st_power[c->idx];
	return s->pkgs[c->pkg].active_w;
}

static void energy_flush(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (!s->energy_on)
		return;
	c->energy_j += c->power_w * (double)(now - c->energy_since) * 1e-9;
	c->energy_since = now;
}

static int freq_index(struct il_sim *s, double mhz)
{
	for (int i = 0; i < s->nfreq; i++)
		if (s->freq_mhz[i] == mhz)
			return i;
	if (s->nfreq < 64) {
		s->freq_mhz[s->nfreq] = mhz;
		s->freq_ns[s->nfreq] = 0;
		return s->nfreq++;
	}
	return 63;
}

/*
 * A core of pk moved from level from to level to: the package's depth (its
 * shallowest core) is kept in pk->level; its time is added up when that
 * level changes (integer sums: adding per core change or per package
 * change gives the same totals), and at each core change while the
 * package is active and draws uncore power (energy sums are floating
 * point: their terms stay those of one flush per core change).
 */
static void pkg_core_moved(struct il_sim *s, struct sim_pkg *pk, int from, int to, int64_t now)
{
	int old = pk->level, lvl = old;

	pk->ncores_at[from]--;
	pk->ncores_at[to]++;
	if (to < lvl) {
		lvl = to;
	} else if (from == lvl && !pk->ncores_at[from]) {
		while (lvl <= IL_STATE_MAX && !pk->ncores_at[lvl])
			lvl++;
		if (lvl > IL_STATE_MAX)
			lvl = 0;
	}
	bool energy = old == 0 && s->p->package_w != 0;
	if (lvl == old && !energy)
		return;
	s->pkg_depth_ns[old] += now - pk->depth_since;
	if (energy)
		pk->energy_j += s->p->package_w * (double)(now - pk->depth_since) * 1e-9;
	pk->depth_since = now;
	pk->level = lvl;
}

/*
 * A thread's depth level changed (0 = active, i + 1 = in physical state i):
 * update its core's depth (shallowest thread), the package's (shallowest
 * core) and the count of turbo-active cores.
 */
static void depth_change(struct il_sim *s, struct sim_cpu *c, int lvl, int64_t now)
{
	struct sim_core *co = &s->cores[c->core];
	struct sim_pkg *pk = &s->pkgs[c->pkg];
	bool rel_old = s->lvl_rel[c->level], rel_new = s->lvl_rel[lvl];

	c->level = lvl;
	if (rel_old != rel_new) {
		bool was_active = co->nrel < co->nthreads;
		co->nrel += rel_new ? 1 : -1;
		bool is_active = co->nrel < co->nthreads;
		if (was_active != is_active)
			pk->active += is_active ? 1 : -1;
	}
	int clvl = lvl;
	for (int i = 0; co->nthreads > 1 && i < co->nthreads; i++) {
		int l = s->cpus[co->first + i].level;
		if (l < clvl)
			clvl = l;
	}
	if (clvl != co->level) {
		s->core_depth_ns[co->level] += now - co->since;
		co->since = now;
		pkg_core_moved(s, pk, co->level, clvl, now);
		co->level = clvl;
	}
}

/* Mode change of a thread: energy and depth bookkeeping. */
static inline void mode_set(struct il_sim *s, struct sim_cpu *c, int mode, int64_t now)
{
	int lvl = mode == M_STATE && !c->exiting ? s->st_lvl[c->idx] : 0;

	c->mode = mode;
	if (s->energy_on) {
		energy_flush(s, c, now);
		c->power_w = thread_power(s, c);
	}
	if (c->level != lvl)
		depth_change(s, c, lvl, now);
}

static int64_t cycles_ns(uint64_t cycles, double mhz)
{
	return (int64_t)((double)cycles * 1000.0 / mhz + 0.5);
}

/* Re-time a running burst after its package changed frequency. */
static void burst_retime(struct il_sim *s, struct sim_cpu *c, double old_mhz, double new_mhz,
			 int64_t now)
{
	if (c->mode != M_RUN || c->slot_kind != SLOT_RUN_DONE)
		return;
	if (now > c->cyc_start) {
		double done = (double)(now - c->cyc_start) * old_mhz / 1000.0;
		c->cycles_left = done >= c->cycles_left ? 0 : c->cycles_left - done;
		c->cyc_start = now;
	}
	int64_t base = c->cyc_start > now ? c->cyc_start : now;
	slot_set(s, c, base + (int64_t)(c->cycles_left * 1000.0 / new_mhz + 0.5), SLOT_RUN_DONE);
}

static void turbo_update(struct il_sim *s, int64_t now)
{
	for (int k = 0; k < s->npkgs; k++) {
		struct sim_pkg *pk = &s->pkgs[k];
		double mhz = il_turbo_mhz(s->p, pk->active, s->params.default_mhz);
		if (mhz == pk->mhz)
			continue;
		s->freq_ns[pk->freq_idx] += now - pk->freq_since;
		pk->freq_since = now;
		double old = pk->mhz;
		for (int i = pk->first_cpu; i < pk->first_cpu + pk->ncpus; i++)
			energy_flush(s, &s->cpus[i], now);
		pk->mhz = mhz;
		pk->active_w = active_power(s, mhz);
		pk->freq_idx = freq_index(s, mhz);
		for (int i = pk->first_cpu; i < pk->first_cpu + pk->ncpus; i++) {
			s->cpus[i].power_w = thread_power(s, &s->cpus[i]);
			burst_retime(s, &s->cpus[i], old, mhz, now);
		}
	}
}

/* ------------------------------------------------------------- tasks */

static void rq_push(struct sim_cpu *c, int task)
{
	int i = c->rq_head + c->rq_len;
	c->rq[i >= c->rq_cap ? i - c->rq_cap : i] = task;
	c->rq_len++;
}

static int rq_pop(struct sim_cpu *c)
{
	int t = c->rq[c->rq_head];
	c->rq_head = c->rq_head + 1 == c->rq_cap ? 0 : c->rq_head + 1;
	c->rq_len--;
	return t;
}

/* Start a burst on c: fixed_ns of kernel work, then cycles at the package's frequency. */
static void burst_start(struct il_sim *s, struct sim_cpu *c, int64_t fixed_ns, uint64_t cycles,
			int64_t now)
{
	double mhz = s->pkgs[c->pkg].mhz;
	c->cyc_start = now + fixed_ns;
	c->cycles_left = (double)cycles;
	/* workloads repeat the same bursts: keep the last conversion (a division) */
	if (cycles != c->memo_cycles || mhz != c->memo_mhz) {
		c->memo_cycles = cycles;
		c->memo_mhz = mhz;
		c->memo_ns = cycles_ns(cycles, mhz);
	}
	slot_set(s, c, c->cyc_start + c->memo_ns, SLOT_RUN_DONE);
}

static void idle_enter(struct il_sim *s, struct sim_cpu *c, int64_t now);
static void iowait_clear(struct il_sim *s, struct sim_task *t);

/* Run the next runnable task of c, or go idle. */
static void cpu_schedule(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (!c->rq_len) {
		c->cur = -1;
		idle_enter(s, c, now);
		return;
	}
	int id = rq_pop(c);
	struct sim_task *t = &s->tasks[id];
	int64_t lat = now + s->params.switch_ns - t->wake_t;

	t->state = T_RUNNING;
	c->cur = id;
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d runs task %d latency %lld\n", (long long)now,
			c->cpu, id, (long long)lat);
	il_hist_add(&s->wake_lat, lat);
	t->next_cycles = 0;
	t->action = A_NONE;
	c->extra_ns = 0;
	s->cur_cpu = c->cpu;
	if (s->wl->task_woke)
		s->wl->task_woke(s->wl_cfg, s->wl_st, s, id, lat);
	s->cur_cpu = -1;
	burst_start(s, c, s->params.switch_ns + c->extra_ns, t->next_cycles, now);
	c->extra_ns = 0;
}

/* The running burst of c ended. */
static void run_done(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (c->cur < 0) {
		/* the kernel tail after a block (IPI sends) is over */
		c->busy_ns += now - c->busy_since;
		c->busy_since = now;
		cpu_schedule(s, c, now);
		return;
	}
	int id = c->cur;
	struct sim_task *t = &s->tasks[id];

	t->action = A_NONE;
	c->extra_ns = 0;
	s->cur_cpu = c->cpu;
	s->wl->task_ran(s->wl_cfg, s->wl_st, s, id);
	s->cur_cpu = -1;
	if (t->action == A_RUN) {
		burst_start(s, c, c->extra_ns, t->next_cycles, now);
		c->extra_ns = 0;
		return;
	}
	/* blocked (on a timer, a message or I/O) */
	t->state = T_BLOCKED;
	if (t->action == A_SLEEP) {
		th_push(c, t->timer_t);
		ev_push(s, t->timer_t, EV_TIMER, c->cpu, id, 0);
	}
	c->cur = -1;
	if (c->extra_ns > 0) {
		burst_start(s, c, c->extra_ns, 0, now);
		c->extra_ns = 0;
		return;
	}
	c->busy_ns += now - c->busy_since;
	c->busy_since = now;
	cpu_schedule(s, c, now);
}

/* --------------------------------------------------------- idle loop */

static int64_t next_timer(const struct sim_cpu *c)
{
	return c->nth ? c->th[0] : INT64_MAX;
}

/* Fill the idle inputs the kernel computes at select (tick-sched.c). */
static void idle_inputs(struct il_sim *s, struct sim_cpu *c, int64_t now, struct il_idle_inputs *in)
{
	int64_t nt = next_timer(c);
	int64_t sleep = nt == INT64_MAX ? s->params.no_timer_ns : nt - now;
	int64_t to_tick = s->next_tick_t - now;

	if (sleep < 0)
		sleep = 0;
	memset(in, 0, sizeof(*in));
	if (c->tick_stopped)
		in->delta_tick_ns = sleep;
	else
		in->delta_tick_ns = to_tick < sleep ? to_tick : sleep;
	/* nohz=off: can_stop_idle_tick() fails and the sleep length is delta_next */
	in->sleep_length_ns = s->params.nohz ? sleep : in->delta_tick_ns;
	in->tick_stopped = c->tick_stopped;
	in->latency_req_ns = c->latency_req_ns;
	in->nr_iowait = c->nr_iowait;
	in->cpu_utilized = c->util > 16.0 / 1024; /* teo: util > capacity >> 6 */
	in->clock_ns = (uint64_t)now;
	in->tick_nsec = s->tick_nsec;
	in->true_idle_ns = -1;
	if (s->oracle) {
		int64_t e = nt;
		for (int i = 0; i < c->ntasks; i++) {
			struct sim_task *t = &s->tasks[c->tasks[i]];
			if (t->state == T_BLOCKED && t->expect_t >= 0 && t->expect_t < e)
				e = t->expect_t;
		}
		if (e != INT64_MAX)
			in->true_idle_ns = e > now ? e - now : 0;
	}
}

/*
 * tick_nohz_idle_stop_tick(): stop unless nohz is off or (the tick still
 * running) the next timer is within one tick period of the last tick.
 */
static void tick_stop(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (!s->params.nohz || c->tick_stopped)
		return;
	int64_t nt = next_timer(c);
	/* the last tick instant <= now (ticks are at multiples of tick_nsec) */
	int64_t basemono = s->next_tick_t - s->tick_nsec;
	while (basemono > now)
		basemono -= s->tick_nsec;
	while (basemono + s->tick_nsec <= now)
		basemono += s->tick_nsec;
	if (nt != INT64_MAX && nt - basemono <= s->tick_nsec)
		return;
	c->tick_stopped = true;
}

/* idle_call_stop_or_retain_tick() */
static void stop_or_retain(struct il_sim *s, struct sim_cpu *c, bool stop, int64_t now)
{
	if (stop || c->tick_stopped)
		tick_stop(s, c, now);
}

static bool tick_rule(enum il_tick_rule r, bool got_tick)
{
	switch (r) {
	case IL_TICK_ALWAYS_STOP: return true;
	case IL_TICK_ALWAYS_RETAIN: return false;
	default: return got_tick;
	}
}

/* One iteration of the do_idle() loop body: cpuidle_idle_call(). */
static void idle_iter(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (c->rq_len) {
		/* need_resched: leave the idle loop (tick_nohz_idle_exit restarts the tick) */
		c->in_idle = false;
		c->tick_stopped = false;
		c->idle_ns += now - c->idle_since;
		c->busy_since = now;
		mode_set(s, c, M_RUN, now);
		cpu_schedule(s, c, now);
		return;
	}
	c->got_tick_latch = false;
	if (s->force_poll) {
		/* cpu_idle_poll(): tick restarted, spin until need_resched */
		c->tick_stopped = false;
		c->idx = 0;
		c->path = PATH_FORCE_POLL;
		c->t_start = now;
		c->exiting = false;
		c->ipi_pending = false;
		mode_set(s, c, M_STATE, now);
		slot_set(s, c, INT64_MAX, SLOT_NONE);
		return;
	}
	if (!s->m->cpuidle) {
		stop_or_retain(s, c, tick_rule(s->params.nocpuidle_tick, c->do_idle_got_tick), now);
		c->path = PATH_DEFAULT;
		c->req_idx = 0;
	} else if (s->drv->state_count <= 1) {
		stop_or_retain(s, c, tick_rule(s->params.single_state_tick, c->do_idle_got_tick), now);
		c->path = PATH_SINGLE;
		c->req_idx = 0;
	} else {
		bool stop = true;
		idle_inputs(s, c, now, &c->in);
		c->req_idx = il_gov_select(s->gov, c->cpu, s->drv, &c->dev, &c->in, &stop);
		if (c->req_idx < 0 || c->req_idx >= s->drv->state_count)
			c->req_idx = 0;
		stop_or_retain(s, c, stop, now);
		c->path = PATH_GOV;
		if (s->params.trace)
			fprintf(s->params.trace,
				"%lld cpu%d select %d stop=%d sleep_length=%lld delta_tick=%lld tick_stopped=%d\n",
				(long long)now, c->cpu, c->req_idx, stop, (long long)c->in.sleep_length_ns,
				(long long)c->in.delta_tick_ns, c->tick_stopped);
	}
	if (c->tick_stopped)
		c->tick_stops++;
	mode_set(s, c, M_LOOP, now);
	slot_set(s, c, now + s->params.entry_ns, SLOT_ENTER);
}

static int64_t exit_sample(struct il_sim *s, const struct il_state *st)
{
	if (st->exit_dist.kind != IL_DIST_NONE)
		return il_dist_sample(&st->exit_dist, &s->rng);
	const struct il_dist *d = NULL;
	switch (st->entry) {
	case IL_ENTRY_POLL: d = &s->p->poll_exit; break;
	case IL_ENTRY_HLT:
	case IL_ENTRY_TDX_HALT: d = &s->p->hlt_exit; break;
	case IL_ENTRY_MWAIT: d = &s->p->mwait_exit; break;
	default: break;
	}
	if (d && d->kind != IL_DIST_NONE)
		return il_dist_sample(d, &s->rng);
	if (st->flags & IL_FLAG_POLLING)
		return 0;
	return st->exit_latency_ns;
}

/* The entry window is over: call_cpuidle(), then ->enter. */
static void idle_entry_done(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (c->rq_len) {
		/* need_resched seen while clearing the polling flag: -EBUSY */
		il_account_aborted(&c->dev);
		c->aborted++;
		c->do_idle_got_tick = c->got_tick_latch;
		c->got_tick_latch = false;
		idle_iter(s, c, now);
		return;
	}
	const struct il_state *st = &s->drv->states[c->req_idx];
	c->idx = c->req_idx;
	c->t_start = now;
	c->exiting = false;
	c->ipi_pending = false;
	c->by_limit = false;
	c->post_ns = 0;
	c->periods++;
	if (st->transition_j > 0)
		c->energy_j += st->transition_j;
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d enter state %d\n", (long long)now, c->cpu, c->idx);
	mode_set(s, c, M_STATE, now);
	if (st->flags & IL_FLAG_POLLING) {
		c->dev.poll_time_limit = false;
		uint64_t limit = il_poll_time(s->drv, &c->dev, s->tick_nsec);
		slot_set(s, c, now + (int64_t)limit, SLOT_POLL_LIMIT);
	} else {
		slot_set(s, c, INT64_MAX, SLOT_NONE);
	}
}

/* The hardware of c woke at now (physical state): exit latency, then the exit path. */
static void hw_wake(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	const struct il_state *st = &s->drv->states[c->idx];
	int64_t lat = exit_sample(s, st);
	int64_t path = st->exit_path_cost.kind == IL_DIST_NONE ? 0 :
		       il_dist_sample(&st->exit_path_cost, &s->rng);

	c->exiting = true;
	mode_set(s, c, M_STATE, now);
	slot_set(s, c, now + lat + path, SLOT_EXIT);
}

/* need_resched became visible to a polling CPU at now. */
static void poll_wake(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	const struct il_state *st = &s->drv->states[c->idx];
	int64_t t = now + exit_sample(s, st);

	c->exiting = true;
	if (c->slot_kind == SLOT_NONE || t < c->slot_t)
		slot_set(s, c, t, SLOT_EXIT);
}

static bool state_polls(const struct il_sim *s, const struct sim_cpu *c)
{
	return c->path == PATH_FORCE_POLL || s->st_lvl[c->idx] == 0;
}

/* ->enter returned at now: the core's accounting, reflect, next iteration. */
static void idle_exit(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	int64_t diff = now - c->t_start;

	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d exit state %d residency %lld%s got_tick=%d rq=%d\n",
			(long long)now, c->cpu, c->idx, (long long)diff, c->by_limit ? " (poll limit)" : "",
			c->got_tick_latch, c->rq_len);

	if (c->path == PATH_FORCE_POLL) {
		/* cpu_idle_poll: no cpuidle accounting; kept on the pseudo device */
		il_account_enter(s->drv, &c->dev, 0, 0, diff);
		c->do_idle_got_tick = c->got_tick_latch;
		c->got_tick_latch = false;
	} else {
		if (c->by_limit)
			c->dev.poll_time_limit = true;
		il_account_enter(s->drv, &c->dev, c->idx, c->idx, diff);
		if (c->path == PATH_GOV) {
			c->in.got_tick = c->got_tick_latch;
			c->in.clock_ns = (uint64_t)now;
			if (s->gov->ops->reflect)
				c->got_tick_latch = false;
			il_gov_reflect(s->gov, c->cpu, s->drv, &c->dev, c->idx, &c->in);
		}
		c->do_idle_got_tick = c->got_tick_latch;
		c->got_tick_latch = false;
	}
	c->exiting = false;
	mode_set(s, c, M_LOOP, now);
	slot_set(s, c, INT64_MAX, SLOT_NONE);
	if (c->post_ns > 0) {
		/* IRQ handlers (housekeeping timers) run before the loop goes on */
		int64_t t = now + c->post_ns;
		c->post_ns = 0;
		slot_set(s, c, t, SLOT_LOOP);
		return;
	}
	idle_iter(s, c, now);
}

static void idle_enter(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	/* do_idle(): got_tick starts false; tick_nohz_idle_enter() */
	c->in_idle = true;
	c->idle_since = now;
	c->do_idle_got_tick = false;
	idle_iter(s, c, now);
}

/*
 * An interrupt for c at now. wake_task >= 0: its handler wakes that task
 * (timer expiry or I/O completion), orig_t: when it was raised. Returns
 * false if it must be handled later (interrupts are off in the entry window).
 */
static bool cpu_interrupt(struct il_sim *s, struct sim_cpu *c, int64_t now, bool tick,
			  int wake_task, int64_t orig_t, int64_t cost_ns)
{
	if (c->mode == M_LOOP && c->in_idle && c->slot_kind == SLOT_ENTER)
		return false;
	if (wake_task >= 0) {
		struct sim_task *t = &s->tasks[wake_task];
		if (t->state == T_BLOCKED) {
			t->state = T_RUNNABLE;
			t->wake_t = orig_t;
			iowait_clear(s, t);
			rq_push(c, wake_task);
		}
	}
	if (!c->in_idle) {
		if (cost_ns > 0 && c->mode == M_RUN && c->slot_kind == SLOT_RUN_DONE) {
			/* the handler steals time from the running burst */
			slot_set(s, c, c->slot_t + cost_ns, SLOT_RUN_DONE);
			c->cyc_start += cost_ns;
		}
		return true;
	}
	if (tick)
		c->got_tick_latch = true;
	if (c->mode == M_STATE) {
		if (state_polls(s, c)) {
			if (c->rq_len && !c->exiting)
				poll_wake(s, c, now);
		} else if (!c->exiting) {
			hw_wake(s, c, now);
		}
		c->post_ns += cost_ns;
	} else if (c->mode == M_LOOP && c->slot_kind == SLOT_LOOP) {
		slot_set(s, c, c->slot_t + cost_ns, SLOT_LOOP);
	}
	return true;
}

static void iowait_clear(struct il_sim *s, struct sim_task *t)
{
	if (t->iowait) {
		t->iowait = false;
		s->cpus[t->cpu].nr_iowait--;
	}
}

/* ----------------------------------------------------------- events */

static void on_tick(struct il_sim *s, int64_t now)
{
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		/* PELT-like utilisation, half-life 32 ticks (model only) */
		int64_t busy = c->busy_ns + (c->in_idle ? 0 : now - c->busy_since);
		double frac = (double)(busy - c->util_busy_mark) / (double)s->tick_nsec;
		c->util_busy_mark = busy;
		c->util = c->util * 0.978572062087700 + frac * (1 - 0.978572062087700);
		if (c->tick_stopped || !c->in_idle)
			continue;
		if (!cpu_interrupt(s, c, now, true, -1, now, 0))
			ev_push(s, c->slot_t, EV_CPU_TICK, i, -1, 0);
	}
	s->next_tick_t = now + s->tick_nsec;
	ev_push(s, s->next_tick_t, EV_TICK, -1, -1, 0);
}

static void on_event(struct il_sim *s, const struct sim_ev *e)
{
	int64_t now = e->t;
	struct sim_cpu *c = e->cpu >= 0 ? &s->cpus[e->cpu] : NULL;

	switch (e->type) {
	case EV_TICK:
		on_tick(s, now);
		break;
	case EV_CPU_TICK:
		if (!c->tick_stopped && !cpu_interrupt(s, c, now, true, -1, now, 0))
			ev_push(s, c->slot_t, EV_CPU_TICK, e->cpu, -1, 0);
		break;
	case EV_TIMER:
	case EV_IRQ: {
		/* arg2 = 1 + the time it was raised, for an interrupt handled late */
		int64_t orig = e->arg2 ? (int64_t)(e->arg2 - 1) : now;
		if (e->type == EV_TIMER && !e->arg2)
			th_pop(c);
		if (e->type == EV_IRQ && e->arg < 0 && !e->arg2 && s->wl->irq)
			s->wl->irq(s->wl_cfg, s->wl_st, s, e->cpu);
		bool remote = e->arg >= 0 && s->tasks[e->arg].cpu != e->cpu;
		if (!cpu_interrupt(s, c, now, false, remote ? -1 : e->arg, orig, 0)) {
			ev_push(s, c->slot_t, e->type, e->cpu, e->arg, (uint64_t)orig + 1);
			break;
		}
		/* the handler on this CPU wakes a task of another one, once it runs */
		if (remote && c->in_idle && c->mode == M_STATE && c->exiting)
			ev_push(s, c->slot_t, EV_IRQ_WAKE, e->cpu, e->arg, 0);
		else if (remote)
			il_sim_task_wake(s, e->cpu, e->arg);
		break;
	}
	case EV_IRQ_WAKE:
		il_sim_task_wake(s, e->cpu, e->arg);
		break;
	case EV_HK_TIMER: {
		struct sim_hk *hk = &s->hk[e->arg];
		if (!hk->popped) {
			th_pop(c);
			hk->popped = true;
			if (s->wl->hk_timer)
				s->wl->hk_timer(s->wl_cfg, s->wl_st, s, e->cpu, hk->arg);
			hk = &s->hk[e->arg]; /* the callback may have grown the array */
		}
		if (!cpu_interrupt(s, c, now, false, -1, now, hk->cost_ns)) {
			ev_push(s, c->slot_t, EV_HK_TIMER, e->cpu, e->arg, 0);
			break;
		}
		hk->used = false;
		break;
	}
	case EV_IPI:
		c->ipi_pending = false;
		if (c->in_idle && c->mode == M_STATE && !c->exiting && !state_polls(s, c))
			hw_wake(s, c, now);
		break;
	case EV_END:
		s->stopped = true;
		break;
	}
}

static void on_slot(struct il_sim *s, struct sim_cpu *c)
{
	int64_t now = c->slot_t;
	int kind = c->slot_kind;

	/*
	 * The slot keeps its old key in the tree (nothing is due earlier)
	 * while the handler runs; cleared after if nobody re-armed it.
	 */
	c->slot_kind = SLOT_NONE;
	s->slot_cpu = c->cpu;
	switch (kind) {
	case SLOT_RUN_DONE:
		run_done(s, c, now);
		break;
	case SLOT_ENTER:
		idle_entry_done(s, c, now);
		break;
	case SLOT_POLL_LIMIT:
		c->by_limit = true;
		idle_exit(s, c, now);
		break;
	case SLOT_EXIT:
		idle_exit(s, c, now);
		break;
	case SLOT_LOOP:
		idle_iter(s, c, now);
		break;
	}
	s->slot_cpu = -1;
	if (c->slot_kind == SLOT_NONE && c->slot_t != INT64_MAX)
		slot_set(s, c, INT64_MAX, SLOT_NONE);
	else
		tt_update(s, c->cpu, c->slot_t, c->slot_seq);
}

/* ----------------------------------------------------- workload API */

int64_t il_sim_now(const struct il_sim *s) { return s->now; }
int il_sim_ncpus(const struct il_sim *s) { return s->ncpus; }
struct il_rng *il_sim_rng(struct il_sim *s) { return &s->rng; }
const struct il_platform *il_sim_platform(const struct il_sim *s) { return s->p; }
double il_sim_cpu_mhz(const struct il_sim *s, int cpu) { return s->pkgs[s->cpus[cpu].pkg].mhz; }
int il_sim_core_of(const struct il_sim *s, int cpu) { return s->cpus[cpu].core; }
int il_sim_package_of(const struct il_sim *s, int cpu) { return s->cpus[cpu].pkg; }
const struct il_device *il_sim_device(const struct il_sim *s, int cpu) { return &s->cpus[cpu].dev; }
const struct il_driver *il_sim_driver(const struct il_sim *s) { return s->drv; }

void il_sim_stop(struct il_sim *s)
{
	s->stopped = true;
	s->workload_stopped = true;
}

int il_sim_task_add(struct il_sim *s, int cpu, void *data)
{
	if (s->ntasks == s->cap_tasks) {
		int cap = s->cap_tasks ? s->cap_tasks * 2 : 16;
		struct sim_task *t = realloc(s->tasks, (size_t)cap * sizeof(*t));
		if (!t)
			abort();
		s->tasks = t;
		s->cap_tasks = cap;
	}
	struct sim_task *t = &s->tasks[s->ntasks];
	memset(t, 0, sizeof(*t));
	t->cpu = cpu;
	t->data = data;
	t->state = T_BLOCKED;
	t->expect_t = -1;
	s->cpus[cpu].ntasks++;
	return s->ntasks++;
}

void *il_sim_task_data(struct il_sim *s, int task) { return s->tasks[task].data; }
int il_sim_task_cpu(const struct il_sim *s, int task) { return s->tasks[task].cpu; }

void il_sim_task_run(struct il_sim *s, int task, uint64_t cycles)
{
	s->tasks[task].next_cycles = cycles;
	s->tasks[task].action = A_RUN;
}

void il_sim_task_sleep_until(struct il_sim *s, int task, int64_t abs_ns)
{
	struct sim_task *t = &s->tasks[task];
	t->timer_t = abs_ns < s->now ? s->now : abs_ns;
	t->expect_t = t->timer_t;
	t->action = A_SLEEP;
}

void il_sim_task_block(struct il_sim *s, int task, int64_t expect_ns)
{
	s->tasks[task].expect_t = expect_ns;
	s->tasks[task].action = A_BLOCK;
}

void il_sim_task_set_iowait(struct il_sim *s, int task, bool iowait)
{
	struct sim_task *t = &s->tasks[task];
	if (t->iowait == iowait)
		return;
	t->iowait = iowait;
	s->cpus[t->cpu].nr_iowait += iowait ? 1 : -1;
}

bool il_sim_task_wake(struct il_sim *s, int from_cpu, int task)
{
	struct sim_task *t = &s->tasks[task];
	struct sim_cpu *c = &s->cpus[t->cpu];
	int64_t now = s->now;

	if (t->state != T_BLOCKED || t->action == A_SLEEP)
		return false;
	t->state = T_RUNNABLE;
	t->wake_t = now;
	iowait_clear(s, t);
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d wakes task %d on cpu%d (mode %d exiting %d)\n",
			(long long)now, from_cpu, task, t->cpu, c->mode, c->exiting);
	if (!s->setup_done)
		return true; /* queued when the run starts */
	rq_push(c, task);
	if (from_cpu == t->cpu || !c->in_idle)
		return true;
	if (c->mode == M_STATE && !c->exiting) {
		if (state_polls(s, c)) {
			/* TIF_POLLING_NRFLAG: setting need_resched is enough */
			poll_wake(s, c, now);
		} else if (!c->ipi_pending) {
			int64_t send = il_dist_sample(&s->p->ipi_send, &s->rng);
			int64_t delivery = il_dist_sample(&s->p->ipi_delivery, &s->rng);
			if (from_cpu >= 0)
				s->cpus[from_cpu].extra_ns += send;
			c->ipi_pending = true;
			s->ipis++;
			ev_push(s, now + send + delivery, EV_IPI, t->cpu, -1, 0);
		}
	}
	return true;
}

void il_sim_irq_at(struct il_sim *s, int cpu, int64_t abs_ns, int task)
{
	ev_push(s, abs_ns < s->now ? s->now : abs_ns, EV_IRQ, cpu, task, 0);
}

void il_sim_hk_timer_at(struct il_sim *s, int cpu, int64_t abs_ns, int64_t cost_ns, uint64_t arg)
{
	int slot = -1;
	for (int i = 0; i < s->nhk; i++)
		if (!s->hk[i].used) {
			slot = i;
			break;
		}
	if (slot < 0) {
		if (s->nhk == s->cap_hk) {
			int cap = s->cap_hk ? s->cap_hk * 2 : 16;
			struct sim_hk *n = realloc(s->hk, (size_t)cap * sizeof(*n));
			if (!n)
				abort();
			s->hk = n;
			s->cap_hk = cap;
		}
		slot = s->nhk++;
	}
	if (abs_ns < s->now)
		abs_ns = s->now;
	s->hk[slot] = (struct sim_hk){ .used = true, .popped = false, .cost_ns = cost_ns, .arg = arg };
	th_push(&s->cpus[cpu], abs_ns);
	ev_push(s, abs_ns, EV_HK_TIMER, cpu, slot, 0);
}

/* ------------------------------------------------------ create, run */

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
	if (ncpus < wl->min_cpus) {
		il_err_set(err, EINVAL, "workload %s needs %d CPUs, platform %s has %d",
			   wl->name, wl->min_cpus, p->name, ncpus);
		return NULL;
	}
	if (m->cpuidle && !m->force_poll && m->drv.state_count > 1 && !gov) {
		il_err_set(err, EINVAL, "a governor is needed for driver %s", m->drv.name);
		return NULL;
	}
	if (params->duration_ns <= 0 || params->entry_ns < 0 || params->switch_ns < -1 ||
	    params->turbo_interval_ns <= 0 || params->no_timer_ns <= 0) {
		il_err_set(err, EINVAL, "bad simulation parameters (durations must be positive)");
		return NULL;
	}
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
	s->ncpus = ncpus;
	s->tick_nsec = il_tick_nsec(p->hz ? p->hz : 1000);
	s->force_poll = m->force_poll;
	s->oracle = gov && (gov->ops->flags & IL_GOV_NEEDS_TRUE_IDLE);
	s->energy_on = p->active_w_per_ghz > 0 || p->active_static_w > 0 || p->package_w > 0;
	for (int i = 0; i < m->drv.state_count; i++)
		if (m->drv.states[i].power_w > 0 || m->drv.states[i].transition_j > 0)
			s->energy_on = true;
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

	/* per state: the depth level a thread in it has (0 = polling) and its turbo flag */
	for (int i = 0; i < s->drv->state_count; i++) {
		bool polls = s->drv->states[i].flags & IL_FLAG_POLLING;
		s->st_lvl[i] = polls ? 0 : (uint8_t)(i + 1);
		s->lvl_rel[i + 1] = s->drv->states[i].flags & IL_FLAG_TURBO_RELEASE;
		/* power in it: its own, else a polling thread draws active power, else none */
		s->st_active[i] = !(s->drv->states[i].power_w >= 0) && polls;
		s->st_power[i] = s->drv->states[i].power_w >= 0 ? s->drv->states[i].power_w : 0;
	}
	int tpc = p->threads_per_core, cpp = p->cores_per_package;
	s->ncores = p->packages * cpp;
	s->npkgs = p->packages;
	s->cpus = calloc((size_t)ncpus, sizeof(*s->cpus));
	s->cores = calloc((size_t)s->ncores, sizeof(*s->cores));
	s->pkgs = calloc((size_t)s->npkgs, sizeof(*s->pkgs));
	s->tt_leaves = 1;
	while (s->tt_leaves < ncpus)
		s->tt_leaves *= 2;
	s->tt_scan = ncpus <= TT_SCAN_MAX;
	s->tt = malloc(2 * (size_t)s->tt_leaves * sizeof(*s->tt));
	s->tseq = malloc((size_t)s->tt_leaves * sizeof(*s->tseq));
	s->cap_ev = 64 + 8 * ncpus;
	s->ev = malloc((size_t)s->cap_ev * sizeof(*s->ev));
	s->wl_st = calloc(1, wl->state_size ? wl->state_size : 1);
	if (!s->cpus || !s->cores || !s->pkgs || !s->tt || !s->tseq || !s->ev || !s->wl_st) {
		il_err_set(err, ENOMEM, "out of memory");
		il_sim_free(s);
		return NULL;
	}
	for (int k = 0; k < s->npkgs; k++) {
		struct sim_pkg *pk = &s->pkgs[k];
		pk->first_cpu = k * cpp * tpc;
		pk->ncpus = cpp * tpc;
		pk->active = cpp;
		pk->ncores_at[0] = cpp;
		pk->mhz = il_turbo_mhz(p, cpp, params->default_mhz);
		pk->active_w = active_power(s, pk->mhz);
		pk->freq_idx = freq_index(s, pk->mhz);
	}
	/* no package ever changes frequency when every active-core count maps to the same one */
	s->turbo_fixed = true;
	for (int n = 0; n <= cpp; n++)
		if (il_turbo_mhz(p, n, params->default_mhz) != s->pkgs[0].mhz)
			s->turbo_fixed = false;
	for (int i = 2 * s->tt_leaves - 1; i >= 1; i--) {
		if (i >= s->tt_leaves) {
			s->tt[i] = (struct sim_tnode){ .t = INT64_MAX, .cpu = i - s->tt_leaves };
			s->tseq[i - s->tt_leaves] = UINT64_MAX;
			continue;
		}
		s->tt[i] = s->tt[2 * i]; /* all equal: the lower CPU */
	}
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
			free(s->cpus[i].th);
			free(s->cpus[i].rq);
			free(s->cpus[i].tasks);
		}
	free(s->cpus);
	free(s->cores);
	free(s->pkgs);
	free(s->tt);
	free(s->tseq);
	free(s->ev);
	free(s->tasks);
	free(s->hk);
	free(s->wl_st);
	free(s);
}

__attribute__((flatten)) int il_sim_run(struct il_sim *s, struct il_err *err)
{
	int r;

	s->now = 0;
	r = s->wl->setup(s->wl_cfg, s->wl_st, s, err);
	if (r < 0)
		return r;
	/* per-CPU run queues and task lists, sized by the tasks the workload made */
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		c->rq_cap = c->ntasks > 0 ? c->ntasks : 1;
		c->rq = calloc((size_t)c->rq_cap, sizeof(int));
		c->tasks = calloc((size_t)c->rq_cap, sizeof(int));
		if (!c->rq || !c->tasks)
			return il_err_set(err, ENOMEM, "out of memory");
		c->ntasks = 0;
	}
	for (int k = 0; k < s->ntasks; k++) {
		struct sim_cpu *c = &s->cpus[s->tasks[k].cpu];
		c->tasks[c->ntasks++] = k;
	}
	/* tasks the setup woke are queued now */
	for (int k = 0; k < s->ntasks; k++)
		if (s->tasks[k].state == T_RUNNABLE)
			rq_push(&s->cpus[s->tasks[k].cpu], k);
	s->setup_done = true;
	s->next_tick_t = s->tick_nsec;
	ev_push(s, s->tick_nsec, EV_TICK, -1, -1, 0);
	/*
	 * The turbo re-evaluation is periodic: kept out of the heap, its key
	 * taken in turn; none at all when the frequency cannot change.
	 */
	s->turbo_t = s->turbo_fixed ? INT64_MAX : s->params.turbo_interval_ns;
	s->turbo_seq = s->seq++;
	ev_push(s, s->params.duration_ns, EV_END, -1, -1, 0);
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		c->busy_since = 0;
		c->energy_since = 0;
		mode_set(s, c, M_RUN, 0);
		cpu_schedule(s, c, 0);
	}
	while (!s->stopped) {
		/* the earliest of: a CPU's internal event, the heap, the turbo re-evaluation */
		const struct sim_tnode *k = &s->tt[1];
		if (s->tt_scan)
			k = tt_scan_min(s);
		int64_t t = s->turbo_t;
		uint64_t seq = s->turbo_seq;
		int src = 2;
		if (s->nev && (s->ev[0].t < t || (s->ev[0].t == t && s->ev[0].seq < seq))) {
			t = s->ev[0].t;
			seq = s->ev[0].seq;
			src = 1;
		}
		if (k->t != INT64_MAX && (k->t < t || (k->t == t && s->tseq[k->cpu] < seq))) {
			t = k->t;
			src = 0;
		}
		if (t > s->params.duration_ns)
			break;
		s->now = t;
		if (src == 0) {
			on_slot(s, &s->cpus[k->cpu]);
		} else if (src == 1) {
			struct sim_ev e = ev_pop(s);
			on_event(s, &e);
		} else {
			if (!s->turbo_fixed)
				turbo_update(s, t);
			s->turbo_t = t + s->params.turbo_interval_ns;
			s->turbo_seq = s->seq++;
		}
		s->events++;
	}
	s->end_t = s->workload_stopped ? s->now : s->params.duration_ns;
	return 0;
}
