// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulation engine: CPUs running tasks and the kernel's idle loop, the
 * dispatch of events and the calls workloads make. Setup is in setup.c, the
 * event queues in evq.h/evq.c, turbo, depth and energy in power.h/power.c.
 *
 * The idle loop follows kernel/sched/idle.c as of the 2026 commits
 * e5c9ffc6ae1b (single state: skip the governor), d557640e4ce5 (and skip
 * reflect) and f4c31b07b136 (tick rule of the two special cases);
 * accounting is the core's (il_account_enter, cpuidle_enter_state of
 * drivers/cpuidle/cpuidle.c); the poll state follows
 * drivers/cpuidle/poll_state.c (00717eb8c955) with the clock check treated
 * as exact; the tick rules follow kernel/time/tick-sched.c
 * (tick_nohz_get_sleep_length, tick_nohz_next_event: the tick is not
 * stopped when the next timer is within one tick period).
 *
 * Events: each CPU owns one "slot" (its next internal event: end of a burst,
 * end of the idle entry, poll time limit, end of an exit) kept in a
 * tournament tree of CPUs; timers, IPIs, device interrupts and the global
 * tick go to a plain heap; the periodic turbo re-evaluation is a third
 * source compared in the main loop. Ties are broken by a global sequence
 * number, so runs are deterministic. Nothing is allocated
 * once the run has started, except that the plain heap doubles if a
 * workload keeps more events pending than it was sized for, and a CPU's
 * task list and run queue double when wake-ups move more tasks onto it
 * than it started with (il_sim_task_wake_on).
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
#include "hist_add.h"
#include "power.h"
#include "sim_api.h"
#include "sim_internal.h"
#include "util.h"

/* ------------------------------------------------------------ events */

_Static_assert(IL_CPUS_MAX <= INT16_MAX, "struct sim_ev keeps its CPU in 16 bits");

static void ev_push(struct il_sim *s, int64_t t, int type, int cpu, int arg, uint64_t arg2)
{
	sim_evheap_push(&s->evq, (struct sim_ev){ .t = t, .seq = s->seq++, .type = type, .cpu = cpu,
						  .arg = arg, .arg2 = arg2 });
}

/* ------------------------------------------------------------- tasks */

static void rq_push(struct sim_cpu *c, int task)
{
	int i = c->rq_head + c->rq_len;
	c->rq[i >= c->rq_cap ? i - c->rq_cap : i] = task;
	c->rq_len++;
}

/* The stopper thread runs before any queued task (the stop class comes first). */
static void rq_push_front(struct sim_cpu *c, int task)
{
	c->rq_head = c->rq_head ? c->rq_head - 1 : c->rq_cap - 1;
	c->rq[c->rq_head] = task;
	c->rq_len++;
}

static int rq_pop(struct sim_cpu *c)
{
	int t = c->rq[c->rq_head];
	c->rq_head = c->rq_head + 1 == c->rq_cap ? 0 : c->rq_head + 1;
	c->rq_len--;
	return t;
}

/*
 * Start a burst on c: fixed_ns of frequency-independent time (kernel work
 * charged in ns, the task's own ns part), then cycles at the package's
 * frequency.
 */
static void burst_start(struct il_sim *s, struct sim_cpu *c, int64_t fixed_ns, uint64_t cycles,
			int64_t now)
{
	double mhz = s->cores[c->core].mhz;
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

/*
 * The wake-up's software path, from the wake-up being visible to the task
 * running (the rest of try_to_wake_up, schedule, the return to user): the
 * platform's switch_cycles drawn and timed at c's package clock, as code
 * measured at one clock runs at another; else the fixed switch_ns.
 */
static int64_t switch_cost(struct il_sim *s, struct sim_cpu *c)
{
	if (!s->switch_by_cycles)
		return s->params.switch_ns;
	int64_t cyc = il_dist_sample(&s->p->switch_cycles, &s->rng);
	return cycles_ns(cyc > 0 ? (uint64_t)cyc : 0, s->pkgs[c->pkg].mhz);
}

/* How long the stopper holds the CPU after the switch into it ([kernel] watchdog_stopper). */
static int64_t stopper_hold(struct il_sim *s)
{
	int64_t hold = il_dist_sample(&s->p->watchdog_stopper, &s->rng);
	return hold > 0 ? hold : 0;
}

/*
 * The CPU's stopper thread runs (stop class: nothing else runs before it).
 * It is not a fair task: no PELT, no cpufreq update (enqueue_task_stop()
 * calls none), no wake-up latency sample and nothing of the workload's. It
 * holds the CPU for the switch into it and the platform's
 * watchdog_stopper (softlockup_fn(), a completion, the switch back).
 */
static void stopper_run(struct il_sim *s, struct sim_cpu *c, int id, int64_t sw, int64_t now)
{
	struct sim_task *t = &s->tasks[id];
	int64_t hold = stopper_hold(s);

	t->state = T_RUNNING;
	c->cur = id;
	if (s->cf.on)
		s->cf.cpu[c->cpu].stopper_queued = false;
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d runs its stopper\n", (long long)now, c->cpu);
	c->extra_ns = 0;
	burst_start(s, c, sw + hold, 0, now);
}

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
	int64_t sw = switch_cost(s, c);
	int64_t lat = now + sw - t->wake_t;

	if (__builtin_expect(t->kthread, 0)) {
		stopper_run(s, c, id, sw, now);
		return;
	}

	if (__builtin_expect(s->cf.on, 0))
		sim_cf_pick(s, c, id, now);
	t->state = T_RUNNING;
	c->cur = id;
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d runs task %d latency %lld\n", (long long)now,
			c->cpu, id, (long long)lat);
	sim_hist_add(&s->wake_lat, lat);
	t->next_cycles = 0;
	t->next_ns = 0;
	t->action = A_NONE;
	c->extra_ns = 0;
	s->cur_cpu = c->cpu;
	if (s->wl->task_woke)
		s->wl->task_woke(s->wl_cfg, s->wl_st, s, id, lat);
	s->cur_cpu = -1;
	burst_start(s, c, sw + c->extra_ns + t->next_ns, t->next_cycles, now);
	c->extra_ns = 0;
}

/* The running burst of c ended. */
static void run_done(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (c->cur >= 0 && __builtin_expect(s->tasks[c->cur].kthread, 0)) {
		/* the stopper's work is done: it sleeps, and the CPU picks again below */
		s->tasks[c->cur].state = T_BLOCKED;
		c->cur = -1;
	}
	if (c->cur < 0) {
		/* the kernel tail after a block (IPI sends), or the stopper, is over */
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
		burst_start(s, c, c->extra_ns + t->next_ns, t->next_cycles, now);
		c->extra_ns = 0;
		return;
	}
	/* blocked (on a timer, a message or I/O) */
	t->state = T_BLOCKED;
	if (t->action == A_SLEEP) {
		/* the interrupt comes timer_jitter after the expiry the governors see */
		sim_timerq_push(&c->th, t->timer_t);
		if (s->timer_at_expiry)
			/* the delivery depends on how the expiry finds the CPU: drawn then */
			ev_push(s, t->timer_t, EV_TIMER_EXPIRY, c->cpu, id, 0);
		else
			ev_push(s, t->timer_t + sim_fixed_or_draw(s, s->jitter_ns, &s->p->timer_jitter),
				EV_TIMER, c->cpu, id, 0);
	}
	if (__builtin_expect(s->cf.on, 0))
		sim_cf_dequeue(s, c, id, now);
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

/*
 * Fill the idle inputs the kernel computes at select (tick-sched.c).
 * tick_nohz_get_sleep_length() measures from ts->idle_entrytime, not from
 * now (kernel/time/tick-sched.c, every release 5.4 .. 7.1): do_idle()'s
 * start (tick_nohz_idle_enter()) or the end of the last interrupt taken
 * while idle (tick_nohz_irq_exit()). A period that ended without one (a
 * poll on its time limit) leaves it where it was, so the next selection
 * sees the sleep length and the tick's distance from then.
 */
static void idle_inputs(struct il_sim *s, struct sim_cpu *c, int64_t now, struct il_idle_inputs *in)
{
	int64_t nt = sim_timerq_next(&c->th);
	int64_t base = c->idle_entry_t;
	int64_t sleep = nt == INT64_MAX ? s->params.no_timer_ns : nt - base;
	int64_t to_tick = s->next_tick_t - base;

	if (sleep < 0)
		sleep = 0;
	in->got_tick = false;
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

/* ------------------------------------------------ nohz idle balancer */

static bool cpu_interrupt(struct il_sim *s, struct sim_cpu *c, int64_t now, bool tick,
			  int wake_task, int64_t orig_t, int64_t cost_ns);
static bool state_polls(const struct il_sim *s, const struct sim_cpu *c);
static void poll_wake(struct il_sim *s, struct sim_cpu *c, int64_t now);
static void hw_wake(struct il_sim *s, struct sim_cpu *c, int64_t now, int64_t t);
static int64_t monitor_wake(struct il_sim *s);

/*
 * The nohz idle load balancer as it wakes idle CPUs (--sim-opt ilb=on;
 * kernel/sched/fair.c, per release in docs/nohz-balance.md). Modelled:
 * nohz.idle_cpus_mask (a CPU enters it when its tick is newly stopped and
 * leaves it at its next busy tick), the blocked-load kick (NOHZ_STATS_KICK,
 * at most every LOAD_AVG_PERIOD = 32 ms while some idle CPU has blocked
 * load) and, from v5.16 (7fd7a9e0caba), the next-balance kick
 * (NOHZ_NEXT_KICK, untimed: after any CPU entered the mask), sent by a busy
 * CPU's tick to the lowest-numbered idle CPU of the mask, one at a time
 * (its pending flags), by IPI or, from v5.8, by the polling bit to a CPU
 * that polls or waits in MWAIT. Kicked by IPI, the CPU runs SCHED_SOFTIRQ
 * (ilb_cost, an estimate) in the interrupt and, no task being enqueued,
 * goes on idling with its tick stopped. Kicked by the polling bit
 * (set_nr_if_polling()), it has need_resched without a task: the poll or
 * MWAIT ends, do_idle() ends (tick_nohz_idle_exit() restarts the tick),
 * the kick's nohz_csd_func() runs, which raised SCHED_SOFTIRQ only without
 * need_resched until 6.13 (ea9cffc0a154), so from 5.8 to 6.12 such a kick
 * balances nothing and leaves its gates open; schedule_idle() finds nothing
 * and do_idle() starts again (no cost charged for the way round: none is
 * published). Not modelled: the balancing kick (NOHZ_BALANCE_KICK) and the
 * tasks it moves.
 */
static void ilb_enter_idle(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	struct sim_ilb *b = &s->ilb;
	struct sim_ilb_cpu *ic = &b->cpu[c->cpu];

	/* nohz_balance_enter_idle(): called for a newly stopped tick */
	ic->entered = now;
	if (!ic->member) {
		ic->member = true;
		b->members++;
		b->needs_update = true;
	}
	b->has_blocked = true;
}

static int64_t jiffies_at(const struct il_sim *s, int64_t t)
{
	return t / s->tick_nsec;
}

/* kick_ilb(): the first idle CPU of the mask, unless a kick is pending there */
static void ilb_kick(struct il_sim *s, struct sim_cpu *from, unsigned int flags, int64_t now)
{
	struct sim_ilb *b = &s->ilb;
	int ilb = -1;

	for (int i = 0; i < s->ncpus; i++)
		if (b->cpu[i].member && i != from->cpu && il_sim_cpu_idle(s, i)) {
			ilb = i;
			break;
		}
	if (ilb < 0)
		return;
	unsigned int old = b->cpu[ilb].pending;
	b->cpu[ilb].pending = (uint8_t)(old | flags);
	if (old)
		return;
	struct sim_cpu *c = &s->cpus[ilb];
	b->kicks++;
	/*
	 * From v5.8 a CPU with the polling bit set takes no IPI: in the idle
	 * loop between states, in a polling state (it sees need_resched at
	 * once) and waiting in MWAIT (when its monitor fires). A HLT or
	 * I/O-port state, or any state on its way out, has cleared the bit.
	 * Before v5.8 always an IPI.
	 */
	bool in_state = c->in_idle && c->mode == M_STATE;
	bool polls = in_state && state_polls(s, c);
	bool monitor = in_state && !polls && !c->exiting && s->st_monitor[c->idx];
	if (b->poll_no_ipi && c->in_idle && (!in_state || polls || monitor)) {
		int64_t at = monitor ? now + monitor_wake(s) : now;
		ev_push(s, at, EV_ILB, ilb, -1, 1);
		return;
	}
	int64_t send = sim_fixed_or_draw(s, s->ipi_send_ns, &s->p->ipi_send);
	int64_t delivery = sim_fixed_or_draw(s, s->ipi_delivery_ns, &s->p->ipi_delivery);
	/* the sender is in its tick: the send is taken from its running burst */
	cpu_interrupt(s, from, now, false, -1, now, send);
	b->ipis++;
	ev_push(s, now + send + delivery, EV_ILB, ilb, -1, 0);
}

/*
 * A kick by the polling bit reached c: need_resched with no task. A
 * poll or MWAIT ends; in the idle loop the next check sees it (idle_iter(),
 * or the entry's call_cpuidle() -EBUSY). A CPU that has a task by now runs
 * it, and the kick's csd finds it busy: no pass.
 */
static void ilb_flag_wake(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	struct sim_ilb_cpu *ic = &s->ilb.cpu[c->cpu];

	if (!c->in_idle || c->rq_len) {
		ic->pending = 0;
		return;
	}
	ic->resched = true;
	if (c->mode == M_STATE && !c->exiting) {
		if (state_polls(s, c))
			poll_wake(s, c, now);
		else
			hw_wake(s, c, now, now);
	}
}

/* A busy CPU's tick: nohz_balance_exit_idle(), then nohz_balancer_kick(). */
static void ilb_busy_tick(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	struct sim_ilb *b = &s->ilb;
	unsigned int flags = 0;

	if (b->cpu[c->cpu].member) {
		b->cpu[c->cpu].member = false;
		b->members--;
	}
	if (!b->members)
		return;
	if (b->has_blocked && jiffies_at(s, now) > b->next_blocked)
		flags |= ILB_STATS;
	if (b->next_kick && b->needs_update)
		flags |= ILB_NEXT;
	if (flags)
		ilb_kick(s, c, flags, now);
}

/*
 * The kicked CPU's _nohz_idle_balance(): the flags are taken, the
 * blocked-load pass sets the next one LOAD_AVG_PERIOD (32 ms) on, and
 * idle CPUs keep blocked load until it has decayed to nothing, taken as
 * 320 PELT periods (1024 x y^320 < 1, an estimate of when
 * update_blocked_averages() finds it all gone).
 */
static void ilb_pass(struct il_sim *s, int cpu, int64_t now)
{
	struct sim_ilb *b = &s->ilb;
	unsigned int f = b->cpu[cpu].pending;

	b->cpu[cpu].pending = 0;
	if (f & ILB_NEXT)
		b->needs_update = false;
	if (f & ILB_STATS) {
		int64_t ms32 = (32000000 + s->tick_nsec - 1) / s->tick_nsec;
		b->next_blocked = jiffies_at(s, now) + ms32;
		b->has_blocked = false;
		for (int i = 0; i < s->ncpus; i++)
			if (b->cpu[i].member && now - b->cpu[i].entered < 320ll * 1024 * 1024) {
				b->has_blocked = true;
				break;
			}
	}
}

/*
 * tick_nohz_idle_stop_tick(): stop unless nohz is off or (the tick still
 * running) the next timer is at most one tick period after the last tick
 * (tick_nohz_next_event: delta <= TICK_NSEC keeps it).
 */
static void tick_stop(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (!s->params.nohz || c->tick_stopped)
		return;
	int64_t nt = sim_timerq_next(&c->th);
	/* the last tick instant <= now (ticks are at multiples of tick_nsec) */
	int64_t basemono = s->next_tick_t - s->tick_nsec;
	while (basemono > now)
		basemono -= s->tick_nsec;
	while (basemono + s->tick_nsec <= now)
		basemono += s->tick_nsec;
	if (nt != INT64_MAX && nt - basemono <= s->tick_nsec)
		return;
	c->tick_stopped = true;
	if (__builtin_expect(s->ilb.on, 0))
		ilb_enter_idle(s, c, now);
}

/*
 * idle_call_stop_or_retain_tick(). tick_nohz_idle_stop_tick() counts the
 * call in ts->idle_calls (kernel/time/tick-sched.c, from v4.17, 554c8aa8ecad;
 * still so in 7.1) when the tick may be stopped at all (nohz active): that
 * count, not every idle entry, is what schedutil's "has the CPU idled since
 * the last update" test reads (tick_nohz_get_idle_calls_cpu()). An idle
 * period that keeps the tick running leaves it unchanged.
 */
static void stop_or_retain(struct il_sim *s, struct sim_cpu *c, bool stop, int64_t now)
{
	if (stop || c->tick_stopped) {
		if (s->params.nohz)
			c->idle_calls++;
		tick_stop(s, c, now);
	}
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
	if (__builtin_expect(s->ilb.on, 0) && s->ilb.cpu[c->cpu].resched) {
		/*
		 * need_resched from a polling kick: do_idle() ends, restarting
		 * the tick; the csd balances from 6.13 only (ilb_flag_wake());
		 * schedule_idle() comes back and do_idle() begins again.
		 */
		s->ilb.cpu[c->cpu].resched = false;
		c->tick_stopped = false;
		c->do_idle_got_tick = false;
		if (s->ilb.poll_pass) {
			ilb_pass(s, c->cpu, now);
			if (s->params.ilb_cost_ns > 0) {
				mode_set(s, c, M_LOOP, now);
				slot_set(s, c, now + s->params.ilb_cost_ns, SLOT_LOOP);
				return;
			}
		} else {
			s->ilb.cpu[c->cpu].pending = 0;
		}
	}
	c->got_tick_latch = false;
	bool tick_was_stopped = c->tick_stopped;
	if (__builtin_expect(!s->gov_path, 0) && s->force_poll) {
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
	if (__builtin_expect(!s->gov_path, 0) && !s->m->cpuidle) {
		stop_or_retain(s, c, tick_rule(s->params.nocpuidle_tick, c->do_idle_got_tick), now);
		c->path = PATH_DEFAULT;
		c->req_idx = 0;
	} else if (__builtin_expect(!s->gov_path, 0) && s->drv->state_count <= 1 &&
		   s->params.single_state_tick != IL_TICK_GOVERNOR) {
		stop_or_retain(s, c, tick_rule(s->params.single_state_tick, c->do_idle_got_tick), now);
		c->path = PATH_SINGLE;
		c->req_idx = 0;
	} else {
		bool stop = true;
		if (!c->by_limit)
			c->idle_entry_t = now; /* after do_idle()'s start or an interrupt */
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
	/* counted with the period it begins (its entry or abort), not before */
	c->stop_latch = c->tick_stopped;
	mode_set(s, c, M_LOOP, now);
	int64_t entry = s->params.entry_ns;
	/* tick_nohz_stop_tick() programs the clock event device for the next timer */
	if (!tick_was_stopped && c->tick_stopped && s->p->tick_stop_cost.kind != IL_DIST_NONE)
		entry += il_dist_sample(&s->p->tick_stop_cost, &s->rng);
	slot_set(s, c, now + entry, SLOT_ENTER);
}

/*
 * The distribution of state st's exit latency: its own, else the
 * platform's for its entry method; NULL when neither draws, with the
 * latency in *fixed_ns (0 for a polling state, else the table's).
 */
static const struct il_dist *exit_dist_of(const struct il_sim *s, const struct il_state *st,
					  int64_t *fixed_ns)
{
	if (st->exit_dist.kind != IL_DIST_NONE)
		return &st->exit_dist;
	const struct il_dist *d = NULL;
	switch (st->entry) {
	case IL_ENTRY_POLL: d = &s->p->poll_exit; break;
	case IL_ENTRY_HLT:
	case IL_ENTRY_TDX_HALT: d = &s->p->hlt_exit; break;
	case IL_ENTRY_MWAIT: d = &s->p->mwait_exit; break;
	default: break;
	}
	if (d && d->kind != IL_DIST_NONE)
		return d;
	*fixed_ns = il_state_spins(st) ? 0 : st->exit_latency_ns;
	return NULL;
}

/* A value of d when it draws nothing (none or a constant), else SIM_DRAWS. */
static int64_t dist_fixed(const struct il_dist *d, struct il_rng *rng)
{
	if (il_dist_draws(d))
		return SIM_DRAWS;
	return il_dist_sample(d, rng); /* takes no random number */
}

void sim_draw_consts(struct il_sim *s)
{
	sim_rng_setup();
	for (int i = 0; i < s->drv->state_count; i++) {
		int64_t fixed = 0;
		const struct il_dist *d = exit_dist_of(s, &s->drv->states[i], &fixed);
		s->st_exit_ns[i] = d ? dist_fixed(d, &s->rng) : fixed;
		s->st_exit_dist[i] = d;
	}
	s->monitor_wake_ns = dist_fixed(&s->p->monitor_wake, &s->rng);
	s->ipi_send_ns = dist_fixed(&s->p->ipi_send, &s->rng);
	s->ipi_delivery_ns = dist_fixed(&s->p->ipi_delivery, &s->rng);
	s->jitter_ns = dist_fixed(&s->p->timer_jitter, &s->rng);
	s->jitter_halted_ns = dist_fixed(&s->p->timer_jitter_halted, &s->rng);
}

/*
 * The exit latency of state idx: fixed on many platforms (zen3's MWAIT
 * states, a table's latency), found in st_exit_ns[] without a call; else
 * drawn from the distribution found at setup.
 */
static int64_t exit_sample(struct il_sim *s, int idx)
{
	return sim_fixed_or_draw(s, s->st_exit_ns[idx], s->st_exit_dist[idx]);
}

/* The monitor's wake-up (the store to a CPU's flags reaching its MWAIT), likewise. */
static int64_t monitor_wake(struct il_sim *s)
{
	return sim_fixed_or_draw(s, s->monitor_wake_ns, &s->p->monitor_wake);
}

/* The entry window is over: call_cpuidle(), then ->enter. */
static void idle_entry_done(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (c->rq_len || (__builtin_expect(s->ilb.on, 0) && s->ilb.cpu[c->cpu].resched)) {
		/* need_resched seen while clearing the polling flag: -EBUSY */
		il_account_aborted(&c->dev);
		c->aborted++;
		c->tick_stops += c->stop_latch;
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
	c->up_t = -1;
	c->periods++;
	c->tick_stops += c->stop_latch;
	if (st->transition_j > 0)
		c->energy_j += st->transition_j;
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d enter state %d\n", (long long)now, c->cpu, c->idx);
	mode_set(s, c, M_STATE, now);
	if (il_state_spins(st)) {
		/* only a CPUIDLE_FLAG_POLLING loop reports its time limit */
		if (st->flags & IL_FLAG_POLLING)
			c->dev.poll_time_limit = false;
		/*
		 * poll_idle() asks cpuidle_poll_time(); the pseries snooze loop
		 * has its own limit, snooze_timeout (CEDE's target residency,
		 * fixed at probe, whatever is disabled later and whatever HZ).
		 */
		uint64_t limit = s->m->snooze_timeout_ns ? s->m->snooze_timeout_ns :
				 il_poll_time_rule(s->drv, &c->dev, s->tick_nsec, s->poll_rule);
		slot_set(s, c, now + (int64_t)limit, SLOT_POLL_LIMIT);
	} else {
		slot_set(s, c, INT64_MAX, SLOT_NONE);
	}
}

/*
 * The wake-up of c (physical state) reached its hardware at t (>= now): the
 * exit latency, then the exit path. A path that reads the machine's one
 * PM-timer register (exit_path_shared: acpi_idle's dummy wait) waits for it
 * once the CPU is up (exit_path_read()); any other path is the CPU's own.
 */
static void hw_wake(struct il_sim *s, struct sim_cpu *c, int64_t now, int64_t t)
{
	int64_t up;

	/* a vCPU its host holds leaves the halt when it runs again */
	if (t < c->stall_end)
		t = c->stall_end;
	up = t + exit_sample(s, c->idx);
	c->up_t = up;
	c->exiting = true;
	mode_set(s, c, M_STATE, now);
	if (__builtin_expect(s->st_exit_path[c->idx] != SIM_EXIT_OWN, 0)) {
		if (s->st_exit_path[c->idx] == SIM_EXIT_SHARED) {
			slot_set(s, c, up, SLOT_EXIT_HW);
			return;
		}
		up += il_dist_sample(&s->drv->states[c->idx].exit_path_cost, &s->rng);
	}
	slot_set(s, c, up, SLOT_EXIT);
}

/*
 * c is up and reads the PM timer (inl of PM_TMR_BLK): one register in the
 * chipset for the whole machine, which serves one read at a time in the
 * order the reads arrive (a single-server queue). ->enter returns when the
 * read completes; the wait is inside the state's measured residency.
 *
 * A read is its round trip R (exit_path_cost) once the register is free.
 * Of R, the register is held for H (exit_path_hold, at most R); the rest
 * of the round trip (the path to the chipset and back) is the CPU's own and
 * overlaps the next read's service. Without exit_path_hold, H = R.
 */
static void exit_path_read(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	const struct il_state *st = &s->drv->states[c->idx];
	int64_t start = s->pmt_free_t > now ? s->pmt_free_t : now;
	int64_t rt = il_dist_sample(&st->exit_path_cost, &s->rng);
	int64_t hold = rt;

	if (st->exit_path_hold.kind != IL_DIST_NONE) {
		hold = il_dist_sample(&st->exit_path_hold, &s->rng);
		if (hold > rt)
			hold = rt;
		if (hold < 0)
			hold = 0;
	}
	s->pmt_free_t = sim_t_add(start, hold);
	slot_set(s, c, sim_t_add(start, rt), SLOT_EXIT);
}

/* need_resched became visible to a polling CPU at now. */
static void poll_wake(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	/* a vCPU its host holds sees need_resched when its poll loop runs again */
	int64_t t = (now < c->stall_end ? c->stall_end : now) + exit_sample(s, c->idx);

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
		if (c->by_limit && (s->drv->states[c->idx].flags & IL_FLAG_POLLING))
			c->dev.poll_time_limit = true;
		il_account_enter(s->drv, &c->dev, c->idx, c->idx, diff);
		if (c->path == PATH_GOV) {
			c->in.got_tick = c->got_tick_latch;
			/*
			 * cpuidle_enter_state() enables interrupts before its
			 * counters: the pending handlers (post_ns) have run when
			 * the governor's reflect reads the clock (teo < 6.14)
			 */
			c->in.clock_ns = (uint64_t)(now + c->post_ns);
			if (s->gov_reflects)
				c->got_tick_latch = false;
			il_gov_reflect(s->gov, c->cpu, s->drv, &c->dev, c->idx, &c->in);
		}
		c->do_idle_got_tick = c->got_tick_latch;
		c->got_tick_latch = false;
	}
	int64_t halted, read;
	sim_halt_span(s, c, now, &halted, &read);
	c->halted_ns += halted;
	c->shared_read_ns += read;
	if (c->up_t >= 0 && s->st_exit_path[c->idx] == SIM_EXIT_SHARED && now > s->measure_t)
		c->shared_reads++;
	c->up_t = -1;
	if (c->prewarm_ns) {
		/* the governor saw it all; the counters only what followed the warm-up */
		c->dev.states_usage[c->path == PATH_FORCE_POLL ? 0 : c->idx].time_ns -=
			(uint64_t)c->prewarm_ns;
		c->prewarm_ns = 0;
	}
	c->exiting = false;
	/*
	 * On the governor's path idle_iter() below sets the mode at now
	 * (M_LOOP, or M_RUN for a task) before anything reads it: M_LOOP here
	 * would only add a zero-length energy term (+0.0) and leave the level
	 * where the next change finds it (a physical state's exit is at level
	 * 0 already). Set when handlers run first, or the balancer may look.
	 */
	if (c->post_ns > 0 || __builtin_expect(!s->gov_path || s->ilb.on, 0))
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
	c->by_limit = false;
	c->idle_entry_t = now;
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
			bool iow = t->iowait;
			t->state = T_RUNNABLE;
			t->wake_t = orig_t;
			iowait_clear(s, t);
			if (__builtin_expect(t->kthread, 0)) {
				rq_push_front(c, wake_task);
				/*
				 * ttwu's update_rq_clock() with the idle task
				 * current: the PELT clock catches up as idle
				 */
				if (s->cf.on) {
					sim_cf_rq_clock(s, c, now);
					s->cf.cpu[c->cpu].stopper_queued = true;
				}
			} else {
				rq_push(c, wake_task);
				if (__builtin_expect(s->cf.on, 0))
					sim_cf_enqueue(s, c, wake_task, iow, now, -1);
			}
		}
	}
	if (!c->in_idle) {
		if (cost_ns > 0 && c->mode == M_RUN && c->slot_kind == SLOT_RUN_DONE) {
			/* the handler steals time from the running burst */
			slot_set(s, c, sim_t_add(c->slot_t, cost_ns), SLOT_RUN_DONE);
			c->cyc_start = sim_t_add(c->cyc_start, cost_ns);
		}
		return true;
	}
	if (tick)
		c->got_tick_latch = true;
	/* tick_nohz_irq_exit(): where the handler ends (a poll it does not end goes on) */
	c->idle_entry_t = now + cost_ns;
	if (c->mode == M_STATE) {
		if (state_polls(s, c)) {
			if (c->rq_len && !c->exiting)
				poll_wake(s, c, now);
		} else if (!c->exiting) {
			hw_wake(s, c, now, now);
		}
		c->post_ns = sim_t_add(c->post_ns, cost_ns);
	} else if (c->mode == M_LOOP && c->slot_kind == SLOT_LOOP) {
		slot_set(s, c, sim_t_add(c->slot_t, cost_ns), SLOT_LOOP);
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
		if (s->cf.on && !c->tick_stopped)
			sim_cf_tick(s, c, now);
		if (__builtin_expect(s->ilb.on, 0) && !c->in_idle && now >= c->stall_end)
			ilb_busy_tick(s, c, now);
		if (c->tick_stopped || !c->in_idle)
			continue;
		if (now < c->stall_end) {
			/* injected when the host runs the vCPU again */
			ev_push(s, c->stall_end, EV_CPU_TICK, i, -1, 0);
			continue;
		}
		if (!cpu_interrupt(s, c, now, true, -1, now, 0))
			ev_push(s, c->slot_t, EV_CPU_TICK, i, -1, 0);
	}
	s->next_tick_t = now + s->tick_nsec;
	ev_push(s, s->next_tick_t, EV_TICK, -1, -1, 0);
}

/*
 * The warm-up is over: what was counted so far is forgotten; the
 * governors' and the workload's state, the tasks and the queues stay.
 */
static void warmup_end(struct il_sim *s, int64_t now)
{
	sim_flush_accounting(s, now);
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		for (int k = 0; k < IL_STATE_MAX; k++) {
			struct il_state_usage *u = &c->dev.states_usage[k];
			u->usage = u->above = u->below = u->rejected = 0;
			u->time_ns = 0;
		}
		/* a residency under way counts from now on only (its exit adds it whole) */
		c->prewarm_ns = c->in_idle && c->mode == M_STATE ? now - c->t_start : 0;
		c->util_busy_mark -= c->busy_ns;   /* the utilisation goes on */
		c->idle_ns = c->busy_ns = 0;
		c->aborted = c->periods = c->tick_stops = 0;
		c->halted_ns = c->shared_read_ns = 0;
		c->shared_reads = 0;
		c->stalls = 0;
		c->stall_ns = 0;
		c->stopper_idle = c->stopper_busy = 0;
		c->energy_j = 0;
	}
	for (int k = 0; k < s->npkgs; k++)
		s->pkgs[k].energy_j = 0;
	memset(s->core_depth_ns, 0, sizeof(s->core_depth_ns));
	memset(s->pkg_depth_ns, 0, sizeof(s->pkg_depth_ns));
	memset(s->freq_ns, 0, sizeof(s->freq_ns));
	if (s->cf.on)
		sim_cf_warmup(s, now);
	il_hist_init(&s->wake_lat);
	s->ipis = s->monitor_wakes = 0;
	s->ilb.kicks = s->ilb.ipis = 0;
	s->measure_t = now;
	s->wl->warmup(s->wl_cfg, s->wl_st, s);
}

/* A Poisson gap from here on is after the end of any run (at most 10^6 s). */
#define GAP_NEVER_NS 1e18

/*
 * The next device interrupt of cpu after t ([noise] irq_rate: a Poisson
 * stream per CPU, so the gaps are exponential), if the rate is not 0.
 */
static void noise_irq_next(struct il_sim *s, int cpu, int64_t t)
{
	if (s->p->irq_rate <= 0)
		return;
	double gap = -il_sim_log(1 - il_rng_uniform(&s->rng)) * 1e9 / s->p->irq_rate;
	if (!(gap < GAP_NEVER_NS))
		return; /* a rate near 0: after the end of any run */
	ev_push(s, t + (int64_t)gap + 1, EV_NOISE_IRQ, cpu, -1, 0);
}

/*
 * The next host stall of cpu after t ([noise] host_stall_rate: a Poisson
 * stream per vCPU, exponential gaps), if the rate is not 0.
 */
static void host_stall_next(struct il_sim *s, int cpu, int64_t t)
{
	if (s->p->host_stall_rate <= 0)
		return;
	double gap = -il_sim_log(1 - il_rng_uniform(&s->rng)) * 1e9 / s->p->host_stall_rate;
	if (!(gap < GAP_NEVER_NS))
		return; /* a rate near 0: after the end of any run */
	ev_push(s, t + (int64_t)gap + 1, EV_HOST_STALL, cpu, -1, 0);
}

/*
 * The host holds c's vCPU from now for d: its thread is preempted on the
 * host (or not woken), so the guest executes nothing on it until then.
 * Work under way (a burst, the idle entry window, interrupt handlers, the
 * exit from a state) resumes where it stopped, later by the stall; a poll
 * reads the clock when it runs again, so a time limit that passed during
 * the stall ends the poll at the stall's end. A halted vCPU stays halted:
 * a wake-up that comes meanwhile is taken when the stall ends (hw_wake),
 * as is a polling vCPU's (poll_wake); interrupts for it wait (on_event).
 * A stall that begins inside another extends it.
 */
static void host_stall(struct il_sim *s, struct sim_cpu *c, int64_t now, int64_t d)
{
	int64_t from = now > c->stall_end ? now : c->stall_end;
	int64_t end = now + d, ext = end - from;

	if (ext <= 0)
		return;
	c->stall_end = end;
	if (now >= s->measure_t) {
		c->stalls++;
		c->stall_ns += ext;
	}
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d host stall until %lld\n", (long long)now, c->cpu,
			(long long)end);
	switch (c->slot_kind) {
	case SLOT_NONE:
		break;
	case SLOT_POLL_LIMIT:
		if (c->slot_t < end)
			slot_set(s, c, end, SLOT_POLL_LIMIT);
		break;
	default:
		if (c->slot_t < from)
			break;
		if (c->slot_kind == SLOT_RUN_DONE)
			c->cyc_start = sim_t_add(c->cyc_start, ext);
		slot_set(s, c, sim_t_add(c->slot_t, ext), c->slot_kind);
		break;
	}
}

/* Events that run on their CPU wait while its host holds it: true if e was put off. */
static bool stall_defer(struct il_sim *s, const struct sim_ev *e, struct sim_cpu *c)
{
	if (!c || e->t >= c->stall_end)
		return false;
	uint64_t arg2 = e->arg2;
	switch (e->type) {
	case EV_IRQ:
		/* a wake-up counts from when it was raised (the workload's hook has run then) */
		if (!arg2 && e->arg >= 0)
			arg2 = (uint64_t)e->t + 1;
		break;
	case EV_NOISE_IRQ:
		if (!arg2)
			arg2 = (uint64_t)e->t + 1;
		break;
	case EV_CPU_TICK:
	case EV_TIMER:
	case EV_IPI:
	case EV_HK_TIMER:
	case EV_IRQ_WAKE:
	case EV_ILB:
		break;
	default:
		return false;
	}
	ev_push(s, c->stall_end, e->type, e->cpu, e->arg, arg2);
	return true;
}

__attribute__((flatten, noinline)) static void on_event(struct il_sim *s, const struct sim_ev *e)
{
	int64_t now = e->t;
	struct sim_cpu *c = e->cpu >= 0 ? &s->cpus[e->cpu] : NULL;

	if (c && now < c->stall_end && stall_defer(s, e, c))
		return;
	switch (e->type) {
	case EV_TICK:
		on_tick(s, now);
		break;
	case EV_FREQ:
		sim_cf_freq_event(s, e->cpu, e->arg2, now);
		break;
	case EV_CPU_TICK:
		if (!c->tick_stopped && !cpu_interrupt(s, c, now, true, -1, now, 0))
			ev_push(s, c->slot_t, EV_CPU_TICK, e->cpu, -1, 0);
		break;
	case EV_TIMER:
	case EV_IRQ: {
		/*
		 * arg2 = 1 + the time it was raised, for an interrupt handled late;
		 * a timer's wake-up counts from its expiry (before any jitter)
		 */
		int64_t orig = e->arg2 ? (int64_t)(e->arg2 - 1) : now;
		if (e->type == EV_TIMER)
			orig = s->tasks[e->arg].timer_t;
		if (e->type == EV_TIMER && !e->arg2)
			sim_timerq_pop(&c->th);
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
	case EV_TIMER_EXPIRY: {
		/* a vCPU halted in HLT is woken by its host, a running one interrupted */
		bool halted = c->in_idle && c->mode == M_STATE && !c->exiting &&
			      s->st_halt_jitter[c->idx];
		int64_t at = now + (halted ? sim_fixed_or_draw(s, s->jitter_halted_ns,
							       &s->p->timer_jitter_halted)
					   : sim_fixed_or_draw(s, s->jitter_ns, &s->p->timer_jitter));
		/*
		 * A vCPU polling for its own task's timer is held by its host
		 * until the interrupt is injected: its poll loop does not run,
		 * so the poll's time limit cannot end it first; the interrupt's
		 * wake-up does.
		 */
		if (s->p->timer_delivery_stops && c->in_idle && c->mode == M_STATE && !c->exiting &&
		    c->slot_kind == SLOT_POLL_LIMIT && c->slot_t > now && c->slot_t <= at &&
		    s->tasks[e->arg].cpu == e->cpu)
			slot_set(s, c, INT64_MAX, SLOT_NONE);
		ev_push(s, at, EV_TIMER, e->cpu, e->arg, 0);
		break;
	}
	case EV_HK_TIMER: {
		struct sim_hk *hk = &s->hk[e->arg];
		if (!hk->popped) {
			sim_timerq_pop(&c->th);
			hk->popped = true;
			if (!hk->period_ns && s->wl->hk_timer)
				s->wl->hk_timer(s->wl_cfg, s->wl_st, s, e->cpu, hk->arg);
			hk = &s->hk[e->arg]; /* the callback may have grown the array */
		}
		int wake = -1;
		int64_t cost = hk->cost_ns;
		if (hk->period_ns && c->stopper >= 0 && s->tasks[c->stopper].state == T_BLOCKED) {
			/*
			 * watchdog_timer_fn() wakes the CPU's stopper
			 * (stop_one_cpu_nowait(), kernel/watchdog.c, once the
			 * last one completed): a CPU without a running task
			 * runs it first, a busy one loses the time to it
			 */
			if (c->cur < 0) {
				wake = c->stopper;
				c->stopper_idle++;
			} else {
				/* the switch into it, its work and the switch back */
				int64_t sw = switch_cost(s, c);
				cost += sw + stopper_hold(s);
				c->stopper_busy++;
			}
		}
		if (!cpu_interrupt(s, c, now, false, wake, now, cost)) {
			ev_push(s, c->slot_t, EV_HK_TIMER, e->cpu, e->arg, 0);
			break;
		}
		if (hk->period_ns) {
			/* hrtimer_forward_now(): the next multiple of the period after now */
			do
				hk->due_ns += hk->period_ns;
			while (hk->due_ns <= now);
			hk->popped = false;
			sim_timerq_push(&c->th, hk->due_ns);
			ev_push(s, hk->due_ns, EV_HK_TIMER, e->cpu, e->arg, 0);
			break;
		}
		hk->used = false;
		break;
	}
	case EV_IPI:
		c->ipi_pending = false;
		if (c->in_idle && c->mode == M_STATE && !c->exiting && !state_polls(s, c))
			hw_wake(s, c, now, now);
		break;
	case EV_END:
		s->stopped = true;
		break;
	case EV_WARMUP:
		warmup_end(s, now);
		break;
	case EV_HOST_STALL:
		host_stall(s, c, now, e->arg2 ? (int64_t)(e->arg2 - 1) :
			   il_dist_sample(&s->p->host_stall, &s->rng));
		if (!e->arg2)
			host_stall_next(s, e->cpu, now);
		break;
	case EV_ILB:
		if (e->arg2) {
			ilb_flag_wake(s, c, now);
			break;
		}
		/* the kick's SCHED_SOFTIRQ; held over the entry window as an interrupt is */
		if (!cpu_interrupt(s, c, now, false, -1, now, s->params.ilb_cost_ns)) {
			ev_push(s, c->slot_t, EV_ILB, e->cpu, -1, 0);
			break;
		}
		ilb_pass(s, e->cpu, now);
		break;
	case EV_NOISE_IRQ: {
		/* arg2 = 1 + when it was raised, for an interrupt held over the entry window */
		int64_t orig = e->arg2 ? (int64_t)(e->arg2 - 1) : now;
		if (!cpu_interrupt(s, c, now, false, -1, orig,
				   il_dist_sample(&s->p->irq_cost, &s->rng))) {
			ev_push(s, c->slot_t, EV_NOISE_IRQ, e->cpu, -1, (uint64_t)orig + 1);
			break;
		}
		noise_irq_next(s, e->cpu, orig);
		break;
	}
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
	case SLOT_EXIT_HW:
		exit_path_read(s, c, now);
		break;
	case SLOT_EXIT:
		idle_exit(s, c, now);
		break;
	case SLOT_LOOP:
		idle_iter(s, c, now);
		break;
	}
	s->slot_cpu = -1;
	if (c->slot_kind == SLOT_NONE && c->slot_t != INT64_MAX) {
		/* slot_set(s, c, INT64_MAX, SLOT_NONE), with the walk below */
		c->slot_t = INT64_MAX;
		c->slot_seq = s->seq++;
	}
	/* c's leaf still holds the key that won at the root */
	sim_ttree_update_top(&s->tt, c->cpu, c->slot_t, c->slot_seq);
}

/* ----------------------------------------------------- workload API */

/* Room for one more task on c (a wake-up moves one there): double the queue and the list. */
static void cpu_grow(struct sim_cpu *c)
{
	int cap = c->rq_cap * 2;
	int *rq = il_xcalloc((size_t)cap, sizeof(int));
	int *tasks = il_xrealloc(c->tasks, (size_t)cap * sizeof(int));
	for (int i = 0; i < c->rq_len; i++) {
		int k = c->rq_head + i;
		rq[i] = c->rq[k >= c->rq_cap ? k - c->rq_cap : k];
	}
	free(c->rq);
	c->rq = rq;
	c->rq_head = 0;
	c->tasks = tasks;
	c->rq_cap = cap;
}

/* Move blocked task id to cpu: its CPU's task lists and its I/O-wait count go with it. */
static void task_move(struct il_sim *s, int id, int cpu)
{
	struct sim_task *t = &s->tasks[id];
	struct sim_cpu *from = &s->cpus[t->cpu], *to = &s->cpus[cpu];

	if (s->params.trace)
		fprintf(s->params.trace, "%lld task %d moves cpu%d -> cpu%d\n", (long long)s->now, id,
			t->cpu, cpu);
	iowait_clear(s, t);
	if (s->setup_done) {
		for (int i = 0; i < from->ntasks; i++)
			if (from->tasks[i] == id) {
				from->tasks[i] = from->tasks[--from->ntasks];
				break;
			}
		if (to->ntasks == to->rq_cap)
			cpu_grow(to);
		to->tasks[to->ntasks++] = id;
	} else {
		/* the lists are built when the run starts */
		from->ntasks--;
		to->ntasks++;
	}
	t->cpu = cpu;
}

int64_t il_sim_now(const struct il_sim *s) { return sim_api_now(s); }
int64_t il_sim_measured_ns(const struct il_sim *s) { return sim_api_measured_ns(s); }
int il_sim_ncpus(const struct il_sim *s) { return sim_api_ncpus(s); }
struct il_rng *il_sim_rng(struct il_sim *s) { return sim_api_rng(s); }
const struct il_platform *il_sim_platform(const struct il_sim *s) { return sim_api_platform(s); }
double il_sim_cpu_mhz(const struct il_sim *s, int cpu) { return s->cores[s->cpus[cpu].core].mhz; }
bool il_sim_cpufreq_on(const struct il_sim *s) { return s->cf.on; }

double il_sim_energy_j(struct il_sim *s)
{
	if (!sim_power_model_known(s))
		return -1;
	double e = 0;
	for (int i = 0; i < s->ncpus; i++) {
		energy_flush(s, &s->cpus[i], s->now);
		e += s->cpus[i].energy_j;
	}
	for (int k = 0; k < s->npkgs; k++) {
		const struct sim_pkg *pk = &s->pkgs[k];
		e += pk->energy_j;
		if (pk->level == 0)
			e += s->p->package_w * (double)(s->now - pk->depth_since) * 1e-9;
	}
	return e;
}

void il_sim_task_exit(struct il_sim *s, int task)
{
	if (s->cf.on)
		sim_cf_task_exit(s, task);
}

void il_sim_task_fork(struct il_sim *s, int task)
{
	if (s->cf.on)
		sim_cf_task_new(s, task);
}
int il_sim_core_of(const struct il_sim *s, int cpu) { return sim_api_core_of(s, cpu); }
int il_sim_package_of(const struct il_sim *s, int cpu) { return sim_api_package_of(s, cpu); }

int il_sim_llc_of(const struct il_sim *s, int cpu) { return sim_llc_of(s, cpu); }
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
		struct sim_task *t = il_xrealloc(s->tasks, (size_t)cap * sizeof(*t));
		s->tasks = t;
		s->cap_tasks = cap;
	}
	struct sim_task *t = &s->tasks[s->ntasks];
	memset(t, 0, sizeof(*t));
	t->cpu = cpu;
	t->data = data;
	t->state = T_BLOCKED;
	t->expect_t = -1;
	if (s->cf.on)
		sim_cf_task_added(s, s->ntasks);
	s->cpus[cpu].ntasks++;
	return s->ntasks++;
}

void *il_sim_task_data(struct il_sim *s, int task) { return sim_api_task_data(s, task); }
int il_sim_task_cpu(const struct il_sim *s, int task) { return sim_api_task_cpu(s, task); }

void il_sim_task_run(struct il_sim *s, int task, uint64_t cycles)
{
	sim_api_task_work(s, task, cycles, 0);
}

void il_sim_task_work(struct il_sim *s, int task, uint64_t cycles, int64_t ns)
{
	sim_api_task_work(s, task, cycles, ns);
}

void il_sim_task_sleep_until(struct il_sim *s, int task, int64_t abs_ns)
{
	sim_api_task_sleep_until(s, task, abs_ns);
}

void il_sim_task_block(struct il_sim *s, int task, int64_t expect_ns)
{
	sim_api_task_block(s, task, expect_ns);
}

void il_sim_task_set_iowait(struct il_sim *s, int task, bool iowait)
{
	struct sim_task *t = &s->tasks[task];
	if (t->iowait == iowait)
		return;
	t->iowait = iowait;
	s->cpus[t->cpu].nr_iowait += iowait ? 1 : -1;
}

/*
 * il_sim_task_wake(); il_sim_task_wake_on() inlines it (a call from one
 * exported function to another is not inlined: the name is interposable).
 */
static inline bool task_wake(struct il_sim *s, int from_cpu, int task)
{
	struct sim_task *t = &s->tasks[task];
	struct sim_cpu *c = &s->cpus[t->cpu];
	int64_t now = s->now;

	if (t->state != T_BLOCKED || t->action == A_SLEEP)
		return false;
	bool iow = t->iowait;
	t->state = T_RUNNABLE;
	t->wake_t = now;
	iowait_clear(s, t);
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d wakes task %d on cpu%d (mode %d exiting %d)\n",
			(long long)now, from_cpu, task, t->cpu, c->mode, c->exiting);
	if (!s->setup_done)
		return true; /* queued when the run starts */
	if (__builtin_expect(s->cf.on, 0)) {
		rq_push(c, task);
		sim_cf_enqueue(s, c, task, iow, now, from_cpu);
	} else {
		rq_push(c, task);
	}
	if (from_cpu == t->cpu || !c->in_idle)
		return true;
	if (c->mode == M_STATE && !c->exiting) {
		if (state_polls(s, c)) {
			/* TIF_POLLING_NRFLAG: setting need_resched is enough */
			poll_wake(s, c, now);
		} else if (s->st_monitor[c->idx]) {
			/* polling in MWAIT: the store to its flags fires the monitor, no IPI */
			s->monitor_wakes++;
			hw_wake(s, c, now, now + monitor_wake(s));
		} else if (!c->ipi_pending) {
			int64_t send = sim_fixed_or_draw(s, s->ipi_send_ns, &s->p->ipi_send);
			int64_t delivery = sim_fixed_or_draw(s, s->ipi_delivery_ns, &s->p->ipi_delivery);
			if (from_cpu >= 0)
				s->cpus[from_cpu].extra_ns += send;
			c->ipi_pending = true;
			s->ipis++;
			ev_push(s, now + send + delivery, EV_IPI, t->cpu, -1, 0);
		}
	}
	return true;
}

bool il_sim_task_wake(struct il_sim *s, int from_cpu, int task)
{
	return task_wake(s, from_cpu, task);
}

bool il_sim_task_wake_on(struct il_sim *s, int from_cpu, int task, int cpu)
{
	struct sim_task *t = &s->tasks[task];

	if (t->state != T_BLOCKED || t->action == A_SLEEP)
		return false;
	if (cpu != t->cpu)
		task_move(s, task, cpu);
	return task_wake(s, from_cpu, task);
}

bool il_sim_cpu_idle(const struct il_sim *s, int cpu)
{
	return sim_api_cpu_idle(s, cpu);
}

bool il_sim_cpu_idle_info(const struct il_sim *s, int cpu, int64_t *exit_latency_ns,
			  int64_t *idle_stamp)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	if (c->cur >= 0 || c->rq_len || !c->in_idle)
		return false;
	*exit_latency_ns = c->mode == M_STATE && !c->exiting ? s->drv->states[c->idx].exit_latency_ns : 0;
	*idle_stamp = c->idle_since;
	return true;
}

int il_sim_cpu_nr_running(const struct il_sim *s, int cpu)
{
	return sim_api_cpu_nr_running(s, cpu);
}

void il_sim_irq_at(struct il_sim *s, int cpu, int64_t abs_ns, int task)
{
	ev_push(s, abs_ns < s->now ? s->now : abs_ns, EV_IRQ, cpu, task, 0);
}

static void hk_arm(struct il_sim *s, int cpu, int64_t abs_ns, int64_t cost_ns, uint64_t arg,
		   int64_t period_ns)
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
			struct sim_hk *n = il_xrealloc(s->hk, (size_t)cap * sizeof(*n));
			s->hk = n;
			s->cap_hk = cap;
		}
		slot = s->nhk++;
	}
	if (abs_ns < s->now)
		abs_ns = s->now;
	s->hk[slot] = (struct sim_hk){ .used = true, .popped = false, .cost_ns = cost_ns, .arg = arg,
				       .due_ns = abs_ns, .period_ns = period_ns };
	sim_timerq_push(&s->cpus[cpu].th, abs_ns);
	ev_push(s, abs_ns, EV_HK_TIMER, cpu, slot, 0);
}

void il_sim_hk_timer_at(struct il_sim *s, int cpu, int64_t abs_ns, int64_t cost_ns, uint64_t arg)
{
	hk_arm(s, cpu, abs_ns, cost_ns, arg, 0);
}

void il_sim_host_stall_at(struct il_sim *s, int cpu, int64_t abs_ns, int64_t dur_ns)
{
	if (dur_ns <= 0)
		return;
	ev_push(s, abs_ns < s->now ? s->now : abs_ns, EV_HOST_STALL, cpu, -1, (uint64_t)dur_ns + 1);
}

/*
 * The soft-lockup detector (kernel/watchdog.c): every CPU has an hrtimer
 * (watchdog_timer_fn) every sample period, watchdog_thresh x 2 / 5 s (4 s
 * for the default 10), forwarded past now at each expiry. Its handler is
 * not timed (it wakes the CPU's stopper every period, not modelled). The
 * timers were started as each CPU came up at boot: the first expiry is
 * drawn from the run's generator, uniform over one period.
 */
static void watchdog_arm(struct il_sim *s)
{
	int64_t period = il_platform_watchdog_period_ns(s->p);
	if (period <= 0)
		return;
	for (int i = 0; i < s->ncpus; i++)
		hk_arm(s, i, 1 + (int64_t)il_rng_below(&s->rng, (uint64_t)period), 0, 0, period);
}

/* --------------------------------------------------------------- run */

__attribute__((flatten)) int il_sim_run(struct il_sim *s, struct il_err *err)
{
	int r;

	s->now = 0;
	r = s->wl->setup(s->wl_cfg, s->wl_st, s, err);
	if (r < 0)
		return r;
	/* each CPU's stopper thread, which the watchdog's timer wakes */
	if (il_platform_watchdog_stopper(s->p))
		for (int i = 0; i < s->ncpus; i++) {
			int id = il_sim_task_add(s, i, NULL);
			s->tasks[id].kthread = true;
			s->cpus[i].stopper = id;
			if (s->cf.on)
				s->cf.cpu[i].stopper = id;
		}
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
		if (s->tasks[k].state == T_RUNNABLE) {
			rq_push(&s->cpus[s->tasks[k].cpu], k);
			if (s->cf.on)
				sim_cf_enqueue(s, &s->cpus[s->tasks[k].cpu], k, false, 0, -1);
		}
	s->setup_done = true;
	watchdog_arm(s);
	for (int i = 0; i < s->ncpus; i++)
		noise_irq_next(s, i, 0);
	for (int i = 0; i < s->ncpus; i++)
		host_stall_next(s, i, 0);
	s->next_tick_t = s->tick_nsec;
	ev_push(s, s->tick_nsec, EV_TICK, -1, -1, 0);
	/*
	 * The turbo re-evaluation is periodic: kept out of the heap, its key
	 * taken in turn; none at all when the frequency cannot change.
	 */
	s->turbo_t = s->turbo_fixed ? INT64_MAX : s->params.turbo_interval_ns;
	s->turbo_seq = s->seq++;
	ev_push(s, s->params.duration_ns, EV_END, -1, -1, 0);
	if (s->params.warmup_ns > 0)
		ev_push(s, s->params.warmup_ns, EV_WARMUP, -1, -1, 0);
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		c->busy_since = 0;
		c->energy_since = 0;
		mode_set(s, c, M_RUN, 0);
		cpu_schedule(s, c, 0);
	}
	while (!s->stopped) {
		/* the earliest of: a CPU's internal event, the heap, the turbo re-evaluation */
		int64_t kt;
		uint64_t kk;
		int kc;
		if (!s->tt.scan) {
			kt = s->tt.t[1];
			kk = s->tt.key[1];
			kc = sim_ttree_key_cpu(kk);
		} else if (s->tt.two) {
			kc = sim_ttree_scan_min2(&s->tt, &kt, &kk);
		} else {
			kc = sim_ttree_scan_min(&s->tt, s->ncpus, &kt, &kk);
		}
		uint64_t ks = sim_ttree_key_seq(kk);
		int64_t t = s->turbo_t;
		uint64_t seq = s->turbo_seq;
		int src = 2;
		/*
		 * EV_END (at the run's duration, at most IL_SIM_DURATION_MAX_NS)
		 * leaves the queue only to stop the run: the queue is never empty
		 * here and t is finite, so a CPU without an event (kt INT64_MAX)
		 * never wins, and nothing later than the duration is chosen.
		 */
		const struct sim_ev *top = s->evq.top;
		if (top->t < t || (top->t == t && top->seq < seq)) {
			t = top->t;
			seq = top->seq;
			src = 1;
		}
		if (kt < t || (kt == t && ks < seq)) {
			t = kt;
			src = 0;
		}
		s->now = t;
		if (src == 0) {
			on_slot(s, &s->cpus[kc]);
		} else if (src == 1) {
			struct sim_ev e = sim_evheap_pop(&s->evq);
			on_event(s, &e);
		} else {
			if (s->cf.on)
				sim_cf_periodic(s, t);
			else if (!s->turbo_fixed)
				sim_turbo_update(s, t);
			s->turbo_t = t + s->params.turbo_interval_ns;
			s->turbo_seq = s->seq++;
		}
		s->events++;
	}
	s->end_t = s->workload_stopped ? s->now : s->params.duration_ns;
	s->now = s->end_t;   /* the run's clock ends with it: rates cover all of it */
	if (s->wl->finished)
		return s->wl->finished(s->wl_cfg, s->wl_st, s, err);
	return 0;
}
