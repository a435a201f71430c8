// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine's ordering rules, with hand-derived expectations: tick retained
 * vs stopped (and not stopped when a timer is within one tick), wake-up
 * during entry (call_cpuidle -EBUSY), IPI send and delivery, poll time limit,
 * exit-path cost inside the residency, the soft-lockup watchdog's
 * per-CPU hrtimer, the single-state and no-cpuidle tick
 * rules (f4c31b07b136 and before), idle=poll, turbo bins, energy sums, PM
 * QoS, determinism, and idle + busy = simulated time on every CPU.
 *
 * Common setup: HZ=1000 (TICK_NSEC 1 ms), entry 300 ns, switch 0 ns, 1000 MHz
 * (one cycle = one ns) unless the platform has turbo bins.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sim.h"
#include "idlelab/workload.h"

/* ------------------------------------------------- a test governor */

struct tg_cfg {
	int idx;
	bool stop;
};

struct tg_cpu {
	int selects, reflects;
	int got_ticks, poll_limits;
	struct il_idle_inputs first_sel, last_sel;
	int64_t last_residency_at_reflect;
	int64_t first_residency_at_reflect;
	uint64_t first_reflect_clock;
	bool first_poll_limit;
};

static int tg_select(const void *c, void *d, const struct il_driver *drv, struct il_device *dev,
		     const struct il_idle_inputs *in, bool *stop_tick)
{
	const struct tg_cfg *cfg = c;
	struct tg_cpu *t = d;
	(void)drv;
	(void)dev;
	if (!t->selects)
		t->first_sel = *in;
	t->last_sel = *in;
	t->selects++;
	*stop_tick = cfg->stop;
	return cfg->idx;
}

static void tg_reflect(const void *c, void *d, const struct il_driver *drv, struct il_device *dev,
		       int index, const struct il_idle_inputs *in)
{
	struct tg_cpu *t = d;
	(void)c;
	(void)drv;
	(void)index;
	if (!t->reflects) {
		t->first_residency_at_reflect = dev->last_residency_ns;
		t->first_poll_limit = dev->poll_time_limit;
		t->first_reflect_clock = in->clock_ns;
	}
	t->reflects++;
	t->got_ticks += in->got_tick;
	t->poll_limits += dev->poll_time_limit;
	t->last_residency_at_reflect = dev->last_residency_ns;
}

static const struct il_gov_ops tg_ops = {
	.name = "test", .config_size = sizeof(struct tg_cfg),
	.cpu_data_size = sizeof(struct tg_cpu), .select = tg_select, .reflect = tg_reflect,
};

static struct tg_cfg tg_config;
static struct tg_cpu tg_data[4];
static struct il_gov tg_gov = { .ops = &tg_ops, .config = &tg_config,
				.cpu_data = (unsigned char *)tg_data, .ncpus = 4, .spec = "test" };

static void tg_reset(int idx, bool stop)
{
	tg_config.idx = idx;
	tg_config.stop = stop;
	memset(tg_data, 0, sizeof(tg_data));
}

/* -------------------------------------------------- test workloads */

/*
 * one-shot: task A on CPU 0 is runnable at 0, runs a_cycles, then (if
 * wake_b) wakes task B on CPU 1 and blocks; B runs 0 cycles and blocks.
 * If b_sleep_ns > 0, B instead starts runnable, sleeps until b_sleep_ns once.
 * hk_ns > 0: a housekeeping timer on CPU 0 at hk_ns. stall_ns > 0: the host
 * holds CPU stall_cpu from stall_at for stall_ns.
 */
struct os_cfg {
	uint64_t a_cycles;
	bool no_a, wake_b;
	int64_t b_sleep_ns;
	int64_t hk_ns, hk_cost_ns;
	int stall_cpu;
	int64_t stall_at, stall_ns;
};

struct os_state {
	int a, b;
	int64_t a_end;
	int64_t b_lat[4];
	int b_runs;
	bool b_slept;
};

static int os_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct os_cfg *c = cfgp;
	struct os_state *st = stp;
	(void)err;
	st->a = il_sim_task_add(s, 0, NULL);
	st->b = il_sim_task_add(s, 1, NULL);
	if (!c->no_a)
		il_sim_task_wake(s, -1, st->a);
	if (c->b_sleep_ns > 0)
		il_sim_task_wake(s, -1, st->b);
	if (c->hk_ns > 0)
		il_sim_hk_timer_at(s, 0, c->hk_ns, c->hk_cost_ns, 7);
	if (c->stall_ns > 0)
		il_sim_host_stall_at(s, c->stall_cpu, c->stall_at, c->stall_ns);
	st->a_end = -1;
	return 0;
}

static void os_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct os_cfg *c = cfgp;
	struct os_state *st = stp;
	if (task == st->a) {
		il_sim_task_run(s, task, c->a_cycles);
	} else {
		if (st->b_runs < 4)
			st->b_lat[st->b_runs] = lat;
		st->b_runs++;
		il_sim_task_run(s, task, 0);
	}
}

static void os_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct os_cfg *c = cfgp;
	struct os_state *st = stp;
	if (task == st->a) {
		st->a_end = il_sim_now(s);
		if (c->wake_b)
			il_sim_task_wake(s, 0, st->b);
		il_sim_task_block(s, task, -1);
		return;
	}
	if (c->b_sleep_ns > 0 && !st->b_slept) {
		st->b_slept = true;
		il_sim_task_sleep_until(s, task, c->b_sleep_ns);
		return;
	}
	il_sim_task_block(s, task, -1);
}

static struct os_state last_os;

static void os_cleanup(void *stp)
{
	last_os = *(struct os_state *)stp;
}

static const struct il_workload os_wl = {
	.name = "one-shot", .summary = "",
	.config_size = sizeof(struct os_cfg), .state_size = sizeof(struct os_state),
	.setup = os_setup, .task_ran = os_ran, .task_woke = os_woke, .cleanup = os_cleanup,
};

/*
 * migrate: A on CPU 0 runs 1000 cycles, then wakes B and C (both on CPU 1)
 * onto mv_to and blocks; B and C run 500 cycles each and block. Records
 * where and when they ran, and the CPU queries at the wake-up.
 */
static int mv_to;
static struct { int a, b, c; int64_t start[3]; int cpu[3]; bool idle0, idle1; int nr0_before,
		nr0_after; bool moved_sleeper; } mv;

static int mv_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	(void)cfgp;
	(void)stp;
	(void)err;
	memset(&mv, 0, sizeof(mv));
	mv.a = il_sim_task_add(s, 0, NULL);
	mv.b = il_sim_task_add(s, 1, NULL);
	mv.c = il_sim_task_add(s, 1, NULL);
	il_sim_task_wake(s, -1, mv.a);
	return 0;
}

static void mv_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	(void)cfgp;
	(void)stp;
	(void)lat;
	int k = task == mv.a ? 0 : task == mv.b ? 1 : 2;
	mv.start[k] = il_sim_now(s);
	mv.cpu[k] = il_sim_task_cpu(s, task);
	il_sim_task_run(s, task, k ? 500 : 1000);
}

static void mv_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	(void)cfgp;
	(void)stp;
	if (task == mv.a && !mv.nr0_before) {
		mv.idle0 = il_sim_cpu_idle(s, 0);
		mv.idle1 = il_sim_cpu_idle(s, 1);
		mv.nr0_before = il_sim_cpu_nr_running(s, 0);
		assert_true(il_sim_task_wake_on(s, 0, mv.b, mv_to));
		assert_true(il_sim_task_wake_on(s, 0, mv.c, mv_to));
		/* already runnable: not woken twice */
		assert_false(il_sim_task_wake_on(s, 0, mv.c, 1));
		mv.nr0_after = il_sim_cpu_nr_running(s, 0);
	}
	il_sim_task_block(s, task, -1);
}

static const struct il_workload mv_wl = {
	.name = "migrate", .summary = "", .config_size = 1, .state_size = 1,
	.setup = mv_setup, .task_ran = mv_ran, .task_woke = mv_woke,
};

/* ------------------------------------------------------- helpers */

#define PLAT_HEAD "[platform]\nname = t\n[topology]\ncores_per_package = 2\n[kernel]\nhz = 1000\n"
#define POLL_STATE "[state.0]\nname = POLL\nlatency = 0\nresidency = 0\nflags = polling\nentry = poll\n"
#define C1_STATE "[state.1]\nname = C1\nlatency = 1\nresidency = 20\nentry = hlt\n"

struct run {
	struct il_platform p;
	struct il_machine_idle m;
	struct il_sim_result r;
};

static void params(struct il_sim_params *prm, int64_t duration)
{
	il_sim_params_default(prm);
	prm->duration_ns = duration;
	prm->switch_ns = 0;
	prm->entry_ns = 300;
	prm->default_mhz = 1000;
}

static void load(struct run *x, const char *text)
{
	struct il_err e;
	int r = il_platform_load_string(&x->p, text, strlen(text), "t.ini", &e);
	if (r)
		print_error("%s\n", e.msg);
	assert_int_equal(r, 0);
	memset(&x->m, 0, sizeof(x->m));
	x->m.cpuidle = true;
	x->m.drv = x->p.table;
	snprintf(x->m.release, sizeof(x->m.release), "7.1");
}

/* Idle + busy = simulated time on every CPU. */
static void conserved(const struct il_sim_result *r)
{
	for (int i = 0; i < r->ncpus; i++)
		assert_int_equal(r->cpu[i].idle_ns + r->cpu[i].busy_ns, r->duration_ns);
}

static void simulate(struct run *x, struct il_gov *gov, const struct il_workload *wl,
		     const void *cfg, const struct il_sim_params *prm)
{
	struct il_err e;
	if (x->r.cpu)
		il_sim_result_free(&x->r);
	struct il_sim *s = il_sim_new(&x->p, &x->m, gov, wl, cfg, prm, &e);
	if (!s)
		print_error("%s\n", e.msg);
	assert_non_null(s);
	assert_int_equal(il_sim_run(s, &e), 0);
	assert_int_equal(il_sim_result(s, &x->r, &e), 0);
	il_sim_free(s);
	conserved(&x->r);
}

static const struct il_workload none_wl = {
	.name = "none", .summary = "",
	.config_size = sizeof(struct os_cfg), .state_size = sizeof(struct os_state),
	.setup = os_setup, .task_ran = os_ran, .task_woke = os_woke,
};

static const struct os_cfg nothing = { .no_a = true };

static void nop_warmup(const void *cfg, void *st, struct il_sim *s)
{
	(void)cfg;
	(void)st;
	(void)s;
}

/* nothing runs, and a warm-up may be left out */
static const struct il_workload idle_wl = {
	.name = "idle-test", .summary = "",
	.config_size = sizeof(struct os_cfg), .state_size = sizeof(struct os_state),
	.setup = os_setup, .task_ran = os_ran, .task_woke = os_woke, .warmup = nop_warmup,
};

/* -------------------------------------------------------- tests */

/* Retained tick: every tick ends a C1 period; residency spans entry to exit. */
static void tick_retained(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 10500000);
	tg_reset(1, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	/* enter at 300, exit at 1 ms + 1 us; then enter at 1.0013 ms, exit at 2.001 ms, ... */
	assert_int_equal(x.r.cpu[0].usage[1].usage, 10);
	assert_int_equal(x.r.cpu[0].usage[1].time_ns, 1000700 + 9 * 999700);
	assert_int_equal(x.r.cpu[0].tick_stops, 0);
	assert_int_equal(tg_data[0].reflects, 10);
	assert_int_equal(tg_data[0].got_ticks, 10);
	assert_int_equal(tg_data[0].selects, 11);
	assert_int_equal(tg_data[0].first_sel.delta_tick_ns, 1000000);
	assert_int_equal(tg_data[0].first_sel.sleep_length_ns, prm.no_timer_ns);
	assert_false(tg_data[0].first_sel.tick_stopped);
	assert_int_equal(tg_data[0].last_sel.clock_ns, 10001000);
	assert_int_equal(tg_data[0].last_sel.delta_tick_ns, 999000);
	assert_int_equal(tg_data[0].first_sel.tick_nsec, 1000000);
	assert_int_equal(x.r.cpu[1].usage[1].usage, 10);
	assert_int_equal(x.r.cpu[0].idle_ns, 10500000);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* Stopped tick with no timer: the CPU is never woken. */
static void tick_stopped(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 10500000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[1].usage, 0);
	assert_int_equal(x.r.cpu[0].tick_stops, 1);
	assert_int_equal(tg_data[0].selects, 1);
	assert_int_equal(tg_data[0].reflects, 0);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* A timer within one tick period of the last tick keeps the tick (tick_nohz_next_event). */
static void tick_kept_for_near_timer(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .no_a = true, .hk_ns = 500000 };
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 10500000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &c, &prm);
	/* select at 0: timer at 0.5 ms <= 1 ms from basemono 0: retained; woken at 0.5 ms */
	assert_int_equal(tg_data[0].first_sel.sleep_length_ns, 500000);
	assert_int_equal(tg_data[0].first_sel.delta_tick_ns, 500000);
	assert_int_equal(x.r.cpu[0].usage[1].usage, 1);
	assert_int_equal(x.r.cpu[0].usage[1].time_ns, 500000 + 1000 - 300);
	/* then no timer: stopped, never woken again */
	assert_int_equal(x.r.cpu[0].tick_stops, 1);
	assert_int_equal(tg_data[0].selects, 2);
	assert_false(tg_data[0].last_sel.tick_stopped);

	/* a timer 1.5 ms away: stopped at 0, the tick at 1 ms does not come */
	c.hk_ns = 1500000;
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &c, &prm);
	assert_int_equal(x.r.cpu[0].usage[1].usage, 1);
	assert_int_equal(x.r.cpu[0].usage[1].time_ns, 1500000 + 1000 - 300);
	assert_int_equal(tg_data[0].got_ticks, 0);
	/* the tick stays stopped over a wake-up that needs no reschedule */
	assert_true(tg_data[0].last_sel.tick_stopped);
	assert_int_equal(x.r.cpu[0].tick_stops, 2);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * cpuidle_enter_state() enables interrupts after taking the exit time and
 * before the counters (every release 5.4 .. 7.1), so the handler of the
 * interrupt that ended the state runs before cpuidle_reflect(): the clock a
 * governor reads there (teo before 6.14, its local_clock()) is past the
 * handler. A housekeeping timer of 20 us at 0.5 ms wakes C1 (entered at
 * 300 ns, up 1 us later): reflect at 501 000 + 20 000 ns.
 */
static void reflect_after_handler(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .no_a = true, .hk_ns = 500000, .hk_cost_ns = 20000 };
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 10500000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &c, &prm);
	assert_int_equal(tg_data[0].first_residency_at_reflect, 500000 + 1000 - 300);
	assert_int_equal(tg_data[0].first_reflect_clock, 501000 + 20000);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * The boundary of that rule: tick_nohz_next_event() keeps the tick when the
 * next timer is at most one tick period after the last tick (`delta <=
 * TICK_NSEC`, kernel/time/tick-sched.c), so a timer exactly one tick after
 * it keeps the tick, one ns later does not.
 */
static void tick_kept_one_tick_after(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .no_a = true, .hk_ns = 1000000 };
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 10500000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &c, &prm);
	/* select at 0, last tick 0, timer at 1 ms = 0 + TICK_NSEC: retained */
	assert_int_equal(tg_data[0].first_sel.sleep_length_ns, 1000000);
	assert_int_equal(tg_data[0].selects, 2);
	assert_false(tg_data[0].last_sel.tick_stopped);
	assert_int_equal(tg_data[0].got_ticks, 1);   /* the tick at 1 ms came */
	assert_int_equal(x.r.cpu[0].tick_stops, 1);  /* only the second period, without a timer */

	c.hk_ns = 1000001; /* one ns past: stopped at 0, the tick at 1 ms does not come */
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &c, &prm);
	assert_int_equal(tg_data[0].selects, 2);
	assert_true(tg_data[0].last_sel.tick_stopped);
	assert_int_equal(tg_data[0].got_ticks, 0);
	assert_int_equal(x.r.cpu[0].tick_stops, 2);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * The true idle time goes to a governor by its capability flag
 * (IL_GOV_NEEDS_TRUE_IDLE), never by its name: the engine names no
 * governor. A flagged governor called "test" gets the time to the next
 * timer; an unflagged one called "oracle" gets -1 (unknown).
 */
static void true_idle_by_flag(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .no_a = true, .hk_ns = 500000 };
	struct il_gov_ops ops = tg_ops;
	struct il_gov g = tg_gov;

	g.ops = &ops;
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 2000000);
	ops.flags = IL_GOV_NEEDS_TRUE_IDLE;
	tg_reset(1, false);
	simulate(&x, &g, &none_wl, &c, &prm);
	assert_int_equal(tg_data[0].first_sel.true_idle_ns, 500000);

	ops.flags = 0;
	ops.name = "oracle";
	snprintf(g.spec, sizeof(g.spec), "oracle");
	tg_reset(1, false);
	simulate(&x, &g, &none_wl, &c, &prm);
	assert_int_equal(tg_data[0].first_sel.true_idle_ns, -1);
	assert_int_equal(tg_data[0].last_sel.true_idle_ns, -1);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* need_resched during the entry window: -EBUSY, no usage, no reflect. */
static void wake_during_entry(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .a_cycles = 100, .wake_b = true };
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 2000000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	assert_int_equal(last_os.a_end, 100);
	assert_int_equal(x.r.cpu[1].aborted, 1);
	assert_int_equal(tg_data[1].reflects, 0);
	assert_int_equal(x.r.cpu[1].usage[1].usage, 0);
	assert_int_equal(x.r.cpu[1].usage[1].rejected, 0);
	/* B runs when call_cpuidle returns, at 300: 200 ns after the wake-up */
	assert_int_equal(last_os.b_lat[0], 200);
	assert_int_equal(tg_data[1].selects, 2);
	assert_int_equal(x.r.wake_lat.count, 2);
	assert_int_equal(x.r.wake_lat.max, 200);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* A wake-up in C1 sends an IPI: send cost to the waker, delivery delay, exit latency. */
static void wake_by_ipi(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .a_cycles = 1000, .wake_b = true };
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 2000000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	/* no IPI costs: woken at 1000, exit 1 us, residency 2000 - 300 */
	assert_int_equal(last_os.b_lat[0], 1000);
	assert_int_equal(x.r.cpu[1].usage[1].usage, 1);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 1700);
	assert_int_equal(tg_data[1].last_residency_at_reflect, 1700);
	assert_int_equal(x.r.cpu[0].busy_ns, 1000);

	load(&x, PLAT_HEAD "[ipi]\nsend = 200\ndelivery = 500\n" POLL_STATE C1_STATE);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	/* arrives at 1000 + 200 + 500, exit at 2700 */
	assert_int_equal(last_os.b_lat[0], 1700);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 2400);
	/* the waker is busy 200 ns longer */
	assert_int_equal(x.r.cpu[0].busy_ns, 1200);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * A CPU in an MWAIT state polls its thread flags: the wake-up is the store,
 * no IPI (no send cost, no delivery), the monitor fires after monitor_wake,
 * then the exit latency. With X86_BUG_MONITOR the IPI is back.
 */
static void wake_by_monitor(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .a_cycles = 1000, .wake_b = true };
#define MW_IPI "[ipi]\nsend = 200\ndelivery = 500\nmonitor_wake = 80\n"
#define C1_MWAIT "[state.1]\nname = C1\nlatency = 1\nresidency = 20\nentry = mwait\n"
	load(&x, PLAT_HEAD MW_IPI POLL_STATE C1_MWAIT);
	params(&prm, 2000000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	/* woken at 1000: the monitor fires at 1080, exit 1 us: runs at 2080 */
	assert_int_equal(last_os.b_lat[0], 1080);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 2080 - 300);
	/* the waker pays no IPI */
	assert_int_equal(x.r.cpu[0].busy_ns, 1000);

	load(&x, PLAT_HEAD "[cpu]\nbug_monitor = yes\n" MW_IPI POLL_STATE C1_MWAIT);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	/* as HLT: 1000 + 200 + 500, exit at 2700; the waker busy 200 ns more */
	assert_int_equal(last_os.b_lat[0], 1700);
	assert_int_equal(x.r.cpu[0].busy_ns, 1200);
#undef MW_IPI
#undef C1_MWAIT
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * il_sim_task_wake_on moves a blocked task to the CPU given before waking it.
 * Onto the waker's CPU 0: both are queued behind A (CPU 0's queue, sized for
 * one task, grows) and run when A blocks, at 1000 and 1500 ns; CPU 1 never
 * runs anything. Onto CPU 1 (their own): the IPI wakes it out of C1 at 2000.
 */
static void wake_on_cpu(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	char cfg = 0;
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 2000000);
	tg_reset(1, true);
	mv_to = 0;
	simulate(&x, &tg_gov, &mv_wl, &cfg, &prm);
	assert_false(mv.idle0);          /* A runs there */
	assert_true(mv.idle1);
	assert_int_equal(mv.nr0_before, 1);
	assert_int_equal(mv.nr0_after, 3);
	assert_int_equal(mv.cpu[1], 0);
	assert_int_equal(mv.cpu[2], 0);
	assert_int_equal(mv.start[1], 1000);
	assert_int_equal(mv.start[2], 1500);
	assert_int_equal(x.r.cpu[0].busy_ns, 2000);
	assert_int_equal(x.r.cpu[1].busy_ns, 0);
	mv_to = 1;
	tg_reset(1, true);
	simulate(&x, &tg_gov, &mv_wl, &cfg, &prm);
	assert_int_equal(mv.cpu[1], 1);
	assert_int_equal(mv.start[1], 2000);
	assert_int_equal(mv.start[2], 2500);
	assert_int_equal(x.r.cpu[1].busy_ns, 1000);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * The woken task runs switch_ns after its wake-up is seen: the platform's
 * [kernel] switch_ns when params leave it at -1, else the engine's 700 ns;
 * --sim-opt switch_ns (params) wins over both.
 */
static void switch_cost_source(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .a_cycles = 1000, .wake_b = true };
	static const struct {
		const char *kernel;
		int64_t param, lat;
	} cases[] = {
		{ "", -1, 1000 + IL_SIM_SWITCH_NS },        /* engine default */
		{ "switch_ns = 2500\n", -1, 1000 + 2500 },  /* the platform's */
		{ "switch_ns = 2500\n", 40, 1000 + 40 },    /* --sim-opt wins */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512];
		snprintf(text, sizeof(text), "%s%s%s%s", PLAT_HEAD, cases[i].kernel, POLL_STATE,
			 C1_STATE);
		load(&x, text);
		params(&prm, 2000000);
		prm.switch_ns = cases[i].param;
		tg_reset(1, true);
		simulate(&x, &tg_gov, &os_wl, &c, &prm);
		/* woken at 1000 in C1: exit 1 us, then the switch */
		assert_int_equal(last_os.b_lat[0], cases[i].lat);
		assert_int_equal(x.r.wake_lat.max, cases[i].lat);
		conserved(&x.r);
	}
	/*
	 * switch_cycles: cycles at the package clock (the tests' default_mhz
	 * 1000: 3000 cycles = 3000 ns; base_mhz 3000: 1000 ns); it replaces the
	 * platform's switch_ns, and --sim-opt switch_ns still wins.
	 */
	static const struct {
		const char *cpu, *kernel;
		int64_t param, lat;
	} cyc[] = {
		{ "", "switch_cycles = 3000\n", -1, 1000 + 3000 },
		{ "[cpu]\nbase_mhz = 3000\n", "switch_cycles = 3000\n", -1, 1000 + 1000 },
		{ "", "switch_ns = 2500\nswitch_cycles = 3000\n", -1, 1000 + 3000 },
		{ "", "switch_cycles = 3000\n", 40, 1000 + 40 },
	};
	for (size_t i = 0; i < sizeof(cyc) / sizeof(cyc[0]); i++) {
		char text[512];
		snprintf(text, sizeof(text), "%s%s%s%s%s", PLAT_HEAD, cyc[i].kernel, cyc[i].cpu,
			 POLL_STATE, C1_STATE);
		load(&x, text);
		params(&prm, 2000000);
		prm.switch_ns = cyc[i].param;
		tg_reset(1, true);
		simulate(&x, &tg_gov, &os_wl, &c, &prm);
		assert_int_equal(last_os.b_lat[0], cyc[i].lat);
		/* the switch is the wakee's whole burst (it runs no cycles) */
		assert_int_equal(x.r.cpu[1].busy_ns, cyc[i].lat - 1000);
		conserved(&x.r);
	}
	/* drawn per wake-up: uniform 2000..4000 cycles = 2000..4000 ns at 1000 MHz */
	load(&x, PLAT_HEAD "switch_cycles = uniform:2000:4000\n" POLL_STATE C1_STATE);
	params(&prm, 2000000);
	prm.switch_ns = -1;
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	assert_in_range(last_os.b_lat[0], 1000 + 2000, 1000 + 4000);
	assert_int_not_equal(last_os.b_lat[0], 1000 + 3000);
	conserved(&x.r);
	prm.switch_ns = -2;
	struct il_err e;
	assert_null(il_sim_new(&x.p, &x.m, &tg_gov, &os_wl, &c, &prm, &e));
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* POLL ends on its time limit (il_poll_time: min(TICK_NSEC/16, 20 us)) and says so. */
static void poll_time_limit(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 10500000);
	tg_reset(0, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	/* each iteration: 300 ns entry + 20 us poll; 517 * 20300 <= 10.5 ms */
	assert_int_equal(x.r.cpu[0].usage[0].usage, 517);
	assert_int_equal(x.r.cpu[0].usage[0].time_ns, 517 * 20000);
	assert_int_equal(tg_data[0].poll_limits, 517);
	/* 20 us >= C1's target residency: every poll counts as below */
	assert_int_equal(x.r.cpu[0].usage[0].below, 517);
	/* a tick in a poll runs its handler, the poll goes on: 10 ticks seen */
	assert_int_equal(tg_data[0].got_ticks, 10);

	/*
	 * a driver with its own polling limit (pseries' snooze_timeout) uses
	 * it instead of cpuidle_poll_time(): 50 us here, where the rule gives
	 * C1's 20 us; 208 * 50300 <= 10.5 ms < 209 * 50300
	 */
	x.m.snooze_timeout_ns = 50000;
	tg_reset(0, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 208);
	assert_int_equal(x.r.cpu[0].usage[0].time_ns, 208 * 50000);
	assert_int_equal(tg_data[0].poll_limits, 208);
	x.m.snooze_timeout_ns = 0;

	/*
	 * pseries' snooze before 6.2 (5ddcc03a07ae): the same spin loop and
	 * time limit, but no CPUIDLE_FLAG_POLLING, so the loop never sets
	 * dev->poll_time_limit; physically it still polls
	 */
	{
		struct run y = { 0 };
		load(&y, PLAT_HEAD "[state.0]\nname = snooze\nlatency = 0\nresidency = 0\n"
			 "entry = poll\n" C1_STATE);
		y.m.snooze_timeout_ns = 50000;
		tg_reset(0, false);
		simulate(&y, &tg_gov, &none_wl, &nothing, &prm);
		assert_int_equal(y.r.cpu[0].usage[0].usage, 208);
		assert_int_equal(y.r.cpu[0].usage[0].time_ns, 208 * 50000);
		assert_int_equal(tg_data[0].poll_limits, 0);
		assert_int_equal(y.r.halted_ns, 0);
		/* a remote wake-up needs no IPI: TIF_POLLING_NRFLAG is set */
		struct os_cfg c0 = { .a_cycles = 1000, .wake_b = true };
		tg_reset(0, false);
		simulate(&y, &tg_gov, &os_wl, &c0, &prm);
		assert_int_equal(last_os.b_lat[0], 0);
		assert_int_equal(y.r.halted_ns, 0);
		if (y.r.cpu)
			il_sim_result_free(&y.r);
	}

	/* a wake-up ends the poll without the limit flag */
	struct os_cfg c = { .a_cycles = 1000, .wake_b = true };
	tg_reset(0, false);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	assert_int_equal(last_os.b_lat[0], 0);
	assert_false(tg_data[1].first_poll_limit);
	assert_int_equal(tg_data[1].first_residency_at_reflect, 700);
	/* after B: 300 ns entry, limit at 1000 + 300 + 20000, ... */
	assert_int_equal(x.r.cpu[1].usage[0].usage, 1 + (10500000 - 1000) / 20300);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* The exit-path cost is spent after the HW woke, inside the residency, and delays the task. */
static void exit_path_cost(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	load(&x, PLAT_HEAD POLL_STATE C1_STATE "exit_latency_dist = 2000\nexit_path_cost = 5000\n");
	params(&prm, 1500000);
	tg_reset(1, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[1].usage, 1);
	assert_int_equal(x.r.cpu[0].usage[1].time_ns, 1000000 + 2000 + 5000 - 300);
	assert_int_equal(tg_data[0].last_sel.clock_ns, 1007000);

	struct os_cfg c = { .no_a = true, .b_sleep_ns = 500000 };
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	assert_int_equal(last_os.b_runs, 2);
	assert_int_equal(last_os.b_lat[1], 7000);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 500000 + 7000 - 300);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * A shared exit path (the PM timer): one read at a time, in the order the
 * CPUs are up. Both CPUs sit in C1 (exit 2 us, read 5 us) until the tick at
 * 1 ms wakes them together: CPU 0's read is done at 1007000 and CPU 1's,
 * queued behind it, at 1012000. Unshared, both end at 1007000.
 *
 * Halted and read time, by hand (run of 1.5 ms, entry 300 ns): each CPU is
 * halted from 300 to 1002000 (1001700), then again from its second entry
 * (300 after its exit) to the end: CPU 0 from 1007300 (492700), CPU 1 from
 * 1012300 (487700); reads 5000 and 10000 ns. Awake: 300 + 5300 and 300 +
 * 10300 = 16200 ns, of which the reads are 15000: 92.59 %, two reads of
 * 7.5 us on average. Unshared, the 5 us path is the CPU's own: halted as
 * CPU 0 above on both, no shared read, and no "shared read" metrics.
 */
static double metric(const struct il_sim_result *r, const char *row, const char *col);

static void exit_path_shared(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	static const char *const text[2] = {
		PLAT_HEAD POLL_STATE C1_STATE "exit_latency_dist = 2000\nexit_path_cost = 5000\n",
		PLAT_HEAD POLL_STATE C1_STATE "exit_latency_dist = 2000\nexit_path_cost = 5000\n"
		"exit_path_shared = yes\n",
	};
	for (int shared = 0; shared < 2; shared++) {
		load(&x, text[shared]);
		params(&prm, 1500000);
		tg_reset(1, false);
		simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
		assert_int_equal(x.r.cpu[0].usage[1].time_ns, 1007000 - 300);
		assert_int_equal(x.r.cpu[1].usage[1].time_ns, (shared ? 1012000 : 1007000) - 300);
		assert_int_equal(tg_data[1].last_sel.clock_ns, shared ? 1012000 : 1007000);
		assert_int_equal(x.r.halted_ns, 2 * 1001700 + 492700 + (shared ? 487700 : 492700));
		assert_int_equal(x.r.shared_read_ns, shared ? 5000 + 10000 : 0);
		assert_int_equal(x.r.shared_reads, shared ? 2 : 0);
		if (shared) {
			assert_true(metric(&x.r, "shared read", "reads") == 2);
			assert_true(fabs(metric(&x.r, "shared read", "mean_us") - 7.5) < 1e-12);
			assert_true(fabs(metric(&x.r, "shared read", "awake_pct") - 1500000.0 / 16200) < 1e-9);
		} else {
			assert_true(metric(&x.r, "shared read", "reads") == -1);
		}
	}
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * The read split into the register's hold and the CPU's own round trip
 * (exit_path_hold): the same two CPUs, read R = 5 us of which the register
 * is held H = 1 us. Both are up at 1002000: CPU 0 holds the register from
 * 1002000 to 1003000 and has its value at 1002000 + 5000 = 1007000; CPU 1
 * waits for the register until 1003000 and has its value at 1008000 (with
 * H = R it was 1012000). Halted: CPU 1 from 1008300 to the end (491700);
 * reads 5000 + 6000 ns, 5.5 us on average; awake 5600 + 6600 = 12200 ns.
 * A hold longer than the round trip is cut to it: H = 9 us gives the
 * shared test's 1012000.
 */
static void exit_path_hold(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	static const char *const text[2] = {
		PLAT_HEAD POLL_STATE C1_STATE "exit_latency_dist = 2000\nexit_path_cost = 5000\n"
		"exit_path_shared = yes\nexit_path_hold = 1000\n",
		PLAT_HEAD POLL_STATE C1_STATE "exit_latency_dist = 2000\nexit_path_cost = 5000\n"
		"exit_path_shared = yes\nexit_path_hold = 9000\n",
	};
	load(&x, text[0]);
	params(&prm, 1500000);
	tg_reset(1, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[1].time_ns, 1007000 - 300);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 1008000 - 300);
	assert_int_equal(tg_data[1].last_sel.clock_ns, 1008000);
	assert_int_equal(x.r.halted_ns, 2 * 1001700 + 492700 + 491700);
	assert_int_equal(x.r.shared_read_ns, 5000 + 6000);
	assert_int_equal(x.r.shared_reads, 2);
	assert_true(fabs(metric(&x.r, "shared read", "mean_us") - 5.5) < 1e-12);
	assert_true(fabs(metric(&x.r, "shared read", "awake_pct") - 1100000.0 / 12200) < 1e-9);

	load(&x, text[1]);
	params(&prm, 1500000);
	tg_reset(1, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 1012000 - 300);
	assert_int_equal(x.r.shared_read_ns, 5000 + 10000);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * Draws as long as a platform may write (2^63 - 1 ns), each clamped to the
 * longest run: the two CPUs' PM-timer reads at 1 ms queued one behind the
 * other; interrupt handlers piling up on a CPU 10^5 times a second, with
 * host stalls and the stopper's hold. Times that add them do not overflow,
 * and nothing is counted past the run's end.
 */
static void absurd_draws(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct il_rng r;
	struct il_dist d = { IL_DIST_CONST, 9.3e18, 0 };

	il_rng_seed(&r, 1);
	assert_int_equal(il_dist_sample(&d, &r), IL_SIM_DURATION_MAX_NS);
	load(&x, PLAT_HEAD POLL_STATE C1_STATE "exit_latency_dist = 2000\n"
	     "exit_path_cost = 9223372036854775807\nexit_path_shared = yes\n");
	params(&prm, 1500000);
	tg_reset(1, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_true(x.r.shared_read_ns >= 0 && x.r.shared_read_ns <= 2 * x.r.duration_ns);
	assert_true(x.r.halted_ns >= 0 && x.r.halted_ns <= 2 * x.r.duration_ns);

	load(&x, PLAT_HEAD "watchdog_thresh = 1\nwatchdog_stopper = 9223372036854775807\n"
	     "[noise]\nirq_rate = 100000\nirq_cost = 9223372036854775807\nhost_stall_rate = 10\n"
	     "host_stall = 9223372036854775807\n" POLL_STATE C1_STATE);
	params(&prm, 1000000000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_true(x.r.host_stall_ns >= 0 && x.r.host_stall_ns <= 2 * x.r.duration_ns);
	for (int i = 0; i < 2; i++)
		assert_true(x.r.cpu[i].busy_ns >= 0 && x.r.cpu[i].busy_ns <= x.r.duration_ns);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * kernel.watchdog_thresh = 1: every CPU's soft-lockup hrtimer fires each
 * 2/5 s (400 ms), first at a drawn F in (0, 400 ms], then forwarded by the
 * period. With the tick stopped and C1 (exit 1 us) the CPU is woken only by
 * it: the first select sees F; every later one runs 1 us after an expiry and
 * sees 400 ms - 1 us; C1 is entered once per expiry whose exit completes by
 * the end of the run.
 */
static void watchdog_hrtimer(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	const int64_t period = 400000000, dur = 1300000000;
	load(&x, PLAT_HEAD "watchdog_thresh = 1\n" POLL_STATE C1_STATE);
	assert_int_equal(x.p.watchdog_thresh, 1);
	params(&prm, dur);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	for (int cpu = 0; cpu < 2; cpu++) {
		int64_t f = tg_data[cpu].first_sel.sleep_length_ns;
		assert_true(f > 0 && f <= period);
		int64_t n = (dur - 1000 - f) / period + 1;
		assert_int_equal(x.r.cpu[cpu].usage[1].usage, n);
		assert_int_equal(tg_data[cpu].selects, n + 1);
		assert_int_equal(tg_data[cpu].last_sel.sleep_length_ns, period - 1000);
		assert_int_equal(tg_data[cpu].last_sel.clock_ns, f + (n - 1) * period + 1000);
		assert_int_equal(tg_data[cpu].got_ticks, 0);
	}
	/* the two CPUs' timers started at different times */
	assert_true(tg_data[0].first_sel.sleep_length_ns != tg_data[1].first_sel.sleep_length_ns);

	/* the key absent: no timer, no wake-up */
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(tg_data[0].first_sel.sleep_length_ns, prm.no_timer_ns);
	assert_int_equal(x.r.cpu[0].usage[1].usage, 0);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * [kernel] watchdog_stopper = 3us, switch path 500 ns: each expiry of the
 * soft-lockup hrtimer (watchdog_thresh = 1: every 400 ms, first at a drawn
 * F) wakes the CPU's stopper thread. On an idle CPU in C1 (exit 1 us) it
 * runs once the exit is over, for the switch and its hold: the next select
 * comes 1 + 0.5 + 3 = 4.5 us after the expiry and sees 400 ms - 4.5 us;
 * every stopper run is busy time and no wake-up of a task. On a busy CPU it
 * takes 3.5 us from the running burst: A's 1e9 cycles at 1000 MHz (started
 * after the 500 ns switch) end 3.5 us later for each expiry during them (2
 * or 3, as F falls).
 */
static void watchdog_stopper(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	const int64_t period = 400000000, dur = 1300000000, after = 1000 + 500 + 3000;
	load(&x, PLAT_HEAD "watchdog_thresh = 1\nwatchdog_stopper = 3us\n" POLL_STATE C1_STATE);
	params(&prm, dur);
	prm.switch_ns = 500;
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	int64_t runs = 0;
	for (int cpu = 0; cpu < 2; cpu++) {
		int64_t f = tg_data[cpu].first_sel.sleep_length_ns;
		assert_true(f > 0 && f <= period);
		int64_t n = (dur - 1000 - f) / period + 1;   /* C1 periods ended */
		int64_t m = (dur - after - f) / period + 1;  /* stopper runs over */
		assert_int_equal(x.r.cpu[cpu].usage[1].usage, n);
		assert_int_equal(tg_data[cpu].selects, m + 1);
		assert_int_equal(tg_data[cpu].last_sel.sleep_length_ns, period - after);
		assert_int_equal(tg_data[cpu].last_sel.clock_ns, f + (m - 1) * period + after);
		assert_int_equal(x.r.cpu[cpu].busy_ns, m * 3500);
		runs += n;
	}
	assert_true(metric(&x.r, "stopper", "from_idle") == (double)runs);
	assert_true(metric(&x.r, "stopper", "preempting") == 0);
	assert_true(metric(&x.r, "wake latency", "count") == 0);
	il_sim_result_free(&x.r);

	/* a busy CPU: the stopper takes its time from the burst */
	static const struct os_cfg busy = { .a_cycles = 1000000000 };
	load(&x, PLAT_HEAD "watchdog_thresh = 1\nwatchdog_stopper = 3us\n" POLL_STATE C1_STATE);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &busy, &prm);
	double k = metric(&x.r, "stopper", "preempting");
	assert_true(k == 2 || k == 3);
	assert_int_equal(last_os.a_end, 500 + 1000000000 + (int64_t)k * 3500);
	assert_true(metric(&x.r, "wake latency", "count") == 1);
	il_sim_result_free(&x.r);

	/* without the key the timer wakes no thread */
	load(&x, PLAT_HEAD "watchdog_thresh = 1\n" POLL_STATE C1_STATE);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].busy_ns, 0);
	assert_true(metric(&x.r, "stopper", "from_idle") < 0);
	il_sim_result_free(&x.r);
}

/*
 * The stopper runs before a task queued ahead of it: B (CPU 1) sleeps
 * until 500 ns before CPU 1's first watchdog expiry F (the same draw in
 * every run with the seed: taken from an idle run). B's timer starts C1's
 * 1 us exit; the expiry comes during it and wakes the stopper, which the
 * stop class runs first. The exit ends at F + 0.5 us, the stopper runs
 * 0.5 + 3 us, then B's switch of 0.5 us: B's wake-up latency is 5 us
 * (1.5 us had B run first).
 */
static void watchdog_stopper_first(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	const char *plat = PLAT_HEAD "watchdog_thresh = 1\nwatchdog_stopper = 3us\n" POLL_STATE
			   C1_STATE;
	load(&x, plat);
	params(&prm, 500000000);
	prm.switch_ns = 500;
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	int64_t f = tg_data[1].first_sel.sleep_length_ns;
	il_sim_result_free(&x.r);

	struct os_cfg cfg = { .no_a = true, .b_sleep_ns = f - 500 };
	load(&x, plat);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &cfg, &prm);
	assert_true(last_os.b_runs >= 2);
	assert_int_equal(last_os.b_lat[1], 5000);
	il_sim_result_free(&x.r);
}

/*
 * --sim-opt ilb=on: A keeps CPU 0 busy; CPU 1 idles (tick stopped: in
 * nohz.idle_cpus_mask from the start, the lowest idle CPU of it, so the
 * balancer); B on CPU 2 runs 1.5 ms (over a tick: it leaves the mask) and
 * sleeps 20 ms (tick stopped: it enters the mask again), over and over.
 */
struct ilb_st { int a, b; };

static int ilb_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct ilb_st *st = stp;
	(void)cfgp;
	(void)err;
	st->a = il_sim_task_add(s, 0, NULL);
	st->b = il_sim_task_add(s, 2, NULL);
	il_sim_task_wake(s, -1, st->a);
	il_sim_task_wake(s, -1, st->b);
	return 0;
}

static void ilb_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct ilb_st *st = stp;
	(void)cfgp;
	(void)lat;
	il_sim_task_run(s, task, task == st->a ? 1000000000ull : 1500000);
}

static void ilb_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct ilb_st *st = stp;
	(void)cfgp;
	if (task == st->a)
		il_sim_task_block(s, task, -1);
	else
		il_sim_task_sleep_until(s, task, il_sim_now(s) + 20000000);
}

static const struct il_workload ilb_wl = {
	.name = "ilb", .summary = "",
	.config_size = 1, .state_size = sizeof(struct ilb_st),
	.setup = ilb_setup, .task_ran = ilb_ran, .task_woke = ilb_woke,
};

/* ilb_wl on release rel with the balancer on: every kick is an IPI ending one C1 residency of CPU 1. */
static void ilb_kicks(struct run *x, struct il_sim_params *prm, const char *rel,
		      uint64_t kicks)
{
	const char one = 0;
	snprintf(x->m.release, sizeof(x->m.release), "%s", rel);
	prm->ilb = true;
	tg_reset(1, true);
	simulate(x, &tg_gov, &ilb_wl, &one, prm);
	assert_int_equal(x->r.ilb_kicks, kicks);
	assert_int_equal(x->r.ilb_ipis, kicks);
	assert_int_equal(x->r.cpu[1].usage[1].usage, kicks);
}

static void nohz_balancer(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	const char one = 0;
	load(&x, "[platform]\nname = t\n[topology]\ncores_per_package = 3\n[kernel]\nhz = 1000\n"
		 POLL_STATE C1_STATE);
	params(&prm, 300000000);
	/* off (the default): no kicks, no row */
	tg_reset(1, true);
	simulate(&x, &tg_gov, &ilb_wl, &one, &prm);
	assert_int_equal(x.r.ilb_kicks, 0);
	/* CPU 1 is in C1 from the start to the end: no entry ends, none counted */
	assert_int_equal(x.r.cpu[1].usage[1].usage, 0);

	/*
	 * 5.15: only the blocked-load kick. CPU 0's tick at 1 ms finds blocked
	 * load and jiffies 1 > next_blocked 0; CPU 1's pass sets next_blocked
	 * to 1 + 32, so the next kick is at 34 ms: 1, 34, ..., 298 ms: 10
	 * kicks, each an IPI (C1 is entered with HLT), each ending one C1
	 * residency of CPU 1 (which goes back to C1, its tick still stopped).
	 */
	ilb_kicks(&x, &prm, "5.15", 10);
	assert_true(metric(&x.r, "nohz balancer", "kicks_per_s") > 33.3 - 1e-9);

	/*
	 * 7.1: also the untimed kick after each of B's returns to the mask.
	 * B sleeps from 1.5 + 21.5 k ms (its 1 µs C1 exit and 1.5 ms run after
	 * each 20 ms sleep), k = 0 .. 13, so CPU 0's next ticks kick: 2, 24,
	 * 45, 67, 88, 110, 131, 153, 174, 196, 217, 239, 260 and 282 ms; at
	 * 67 the blocked-load kick is due too (next_blocked 66 since the pass
	 * at 34), and the two go as one: 10 + 14 - 1 = 23 kicks.
	 */
	ilb_kicks(&x, &prm, "7.1", 23);

	/*
	 * C1 entered with MWAIT: from 5.8 the kick sets need_resched on the
	 * polling CPU instead of an IPI (monitor_wake absent: at once). The C1
	 * residency ends after C1's 1 us exit, do_idle() ends (the tick is
	 * restarted) and begins again. On 5.15 and 6.12 the kick's csd then
	 * balances nothing (need_resched), so the blocked-load gate never
	 * closes: every busy tick of CPU 0, 1 .. 299 ms, kicks (299; the one
	 * at 300 ms comes after the run's end), and each ends one C1 residency
	 * of CPU 1. From 6.13 the pass runs and the counts are the IPI case's:
	 * 23 kicks on 7.1. Before 5.8 an IPI: 10.
	 */
	load(&x, "[platform]\nname = t\n[topology]\ncores_per_package = 3\n[kernel]\nhz = 1000\n"
		 POLL_STATE "[state.1]\nname = C1\nlatency = 1\nresidency = 20\nentry = mwait\n");
	const struct { const char *rel; uint64_t kicks, ipis; } mw[] = {
		{ "5.4", 10, 10 }, { "5.15", 299, 0 }, { "6.12", 299, 0 }, { "7.1", 23, 0 },
	};
	for (size_t i = 0; i < sizeof(mw) / sizeof(mw[0]); i++) {
		snprintf(x.m.release, sizeof(x.m.release), "%s", mw[i].rel);
		prm.ilb = true;
		tg_reset(1, true);
		simulate(&x, &tg_gov, &ilb_wl, &one, &prm);
		assert_int_equal(x.r.ilb_kicks, mw[i].kicks);
		assert_int_equal(x.r.ilb_ipis, mw[i].ipis);
		assert_int_equal(x.r.cpu[1].usage[1].usage, mw[i].kicks);
	}
	/*
	 * 5.15, CPU 1's C1 time: the first residency from the entry window's
	 * end (300 ns) to 1 ms + the 1 us exit; each of the other 298 from the
	 * previous exit + 300 ns to the next kick + 1 us: 1 ms - 300 ns. With
	 * tick_stop_cost 5 us every entry stops a running tick (the first, and
	 * each after a kick restarted it), 5 us more each: 299 x 5 us less.
	 */
	snprintf(x.m.release, sizeof(x.m.release), "5.15");
	tg_reset(1, true);
	simulate(&x, &tg_gov, &ilb_wl, &one, &prm);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 1000700 + 298 * 999700);
	load(&x, "[platform]\nname = t\n[topology]\ncores_per_package = 3\n[kernel]\nhz = 1000\n"
		 "tick_stop_cost = 5000\n"
		 POLL_STATE "[state.1]\nname = C1\nlatency = 1\nresidency = 20\nentry = mwait\n");
	snprintf(x.m.release, sizeof(x.m.release), "5.15");
	tg_reset(1, true);
	simulate(&x, &tg_gov, &ilb_wl, &one, &prm);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 995700 + 298 * 994700);
	/*
	 * CPU 1 in POLL (ended by its 20 us limit, then entered again): a kick
	 * finds it polling, or in the entry window, where call_cpuidle() sees
	 * need_resched (-EBUSY). On 5.15 still every busy tick kicks, none by
	 * IPI; on 5.4 every kick is an IPI, which a polling CPU takes without
	 * leaving its poll, and the pass closes the gate: 10.
	 */
	snprintf(x.m.release, sizeof(x.m.release), "5.15");
	tg_reset(0, true);
	simulate(&x, &tg_gov, &ilb_wl, &one, &prm);
	assert_int_equal(x.r.ilb_kicks, 299);
	assert_int_equal(x.r.ilb_ipis, 0);
	snprintf(x.m.release, sizeof(x.m.release), "5.4");
	tg_reset(0, true);
	simulate(&x, &tg_gov, &ilb_wl, &one, &prm);
	assert_int_equal(x.r.ilb_kicks, 10);
	assert_int_equal(x.r.ilb_ipis, 10);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * [noise]: timer_slack moves a sleep's hard expiry (the governor sees it);
 * timer_jitter delays its interrupt, the wake-up latency counting from the
 * expiry; irq_rate wakes idle CPUs at random, differently for each seed.
 */
static void noise(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .no_a = true, .b_sleep_ns = 500000 };

	load(&x, PLAT_HEAD "[noise]\ntimer_slack = 50us\n" POLL_STATE C1_STATE);
	params(&prm, 1500000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	/* B sleeps from 0 (select at 0, entry at 300), expiry at 550000, exit 1 us */
	assert_int_equal(tg_data[1].first_sel.sleep_length_ns, 550000);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 550000 + 1000 - 300);
	assert_int_equal(last_os.b_lat[1], 1000);

	load(&x, PLAT_HEAD "[noise]\ntimer_jitter = 2000\n" POLL_STATE C1_STATE);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	assert_int_equal(tg_data[1].first_sel.sleep_length_ns, 500000);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 502000 + 1000 - 300);
	assert_int_equal(last_os.b_lat[1], 3000);

	/*
	 * tick_stop_cost: B's select at 0 stops the tick (its timer is 1.5 ms
	 * away, more than a tick), which lengthens the entry window from 300 ns
	 * to 5.3 us: C1 from 5300 to the exit at 1501000. Without the key, from
	 * 300. A timer within a tick keeps the tick, and costs nothing.
	 */
	struct os_cfg c2 = { .no_a = true, .b_sleep_ns = 1500000 };
	params(&prm, 2000000);
	for (int cost = 0; cost < 2; cost++) {
		load(&x, cost ? PLAT_HEAD "tick_stop_cost = 5000\n" POLL_STATE C1_STATE :
			 PLAT_HEAD POLL_STATE C1_STATE);
		tg_reset(1, true);
		simulate(&x, &tg_gov, &os_wl, &c2, &prm);
		assert_int_equal(x.r.cpu[1].usage[1].time_ns, 1501000 - (cost ? 5300 : 300));
		assert_int_equal(last_os.b_lat[1], 1000);
	}
	params(&prm, 1500000);
	load(&x, PLAT_HEAD "tick_stop_cost = 5000\n" POLL_STATE C1_STATE);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 500000 + 1000 - 300);

	/* timer_jitter_halted: the expiry finds B halted in C1 (HLT): 5 us, then the exit */
	load(&x, PLAT_HEAD "[noise]\ntimer_jitter = 2000\ntimer_jitter_halted = 5000\n" POLL_STATE
	     C1_STATE);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	assert_int_equal(tg_data[1].first_sel.sleep_length_ns, 500000);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 505000 + 1000 - 300);
	assert_int_equal(last_os.b_lat[1], 6000);
	/* not halted (C1 entered with MWAIT): timer_jitter */
	load(&x, PLAT_HEAD "[noise]\ntimer_jitter = 2000\ntimer_jitter_halted = 5000\n" POLL_STATE
	     "[state.1]\nname = C1\nlatency = 1\nresidency = 20\nentry = mwait\n");
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 502000 + 1000 - 300);
	assert_int_equal(last_os.b_lat[1], 3000);

	/*
	 * timer_delivery_stops: B polls (20 us limit: C1's residency) from 300,
	 * a poll every 20.3 us; the expiry at 500000 falls in the poll begun at
	 * 300 + 24 * 20300 = 487500. Its limit (507500) is inside the 30 us
	 * delivery: held by its host, the vCPU does not time out, and the
	 * interrupt at 530000 ends that poll, the 25th. Without the key the
	 * limit ends it and two more polls begin (507800, 528100): 27.
	 */
	for (int stops = 0; stops < 2; stops++) {
		char text[512];
		snprintf(text, sizeof(text), PLAT_HEAD "[noise]\ntimer_jitter = 30000\n"
			 "timer_delivery_stops = %s\n" POLL_STATE C1_STATE, stops ? "yes" : "no");
		load(&x, text);
		params(&prm, 531000);
		tg_reset(0, false);
		simulate(&x, &tg_gov, &os_wl, &c, &prm);
		assert_int_equal(last_os.b_lat[1], 30000);
		assert_int_equal(x.r.cpu[1].usage[0].usage, stops ? 25 : 27);
	}
	params(&prm, 1500000);

	/* 2000 interrupts a second on each CPU for 1 s: about 2000 C1 periods each */
	load(&x, PLAT_HEAD "[noise]\nirq_rate = 2000\nirq_cost = 500\n" POLL_STATE C1_STATE);
	params(&prm, 1000000000);
	unsigned long long n[2][2];
	for (int seed = 0; seed < 2; seed++) {
		prm.seed = 1 + (uint64_t)seed;
		tg_reset(1, true);
		simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
		for (int cpu = 0; cpu < 2; cpu++) {
			n[seed][cpu] = x.r.cpu[cpu].usage[1].usage;
			/* Poisson: sd = sqrt(2000) = 45 */
			assert_true(n[seed][cpu] > 1800 && n[seed][cpu] < 2200);
			/* the handlers run outside the residency: idle loop time */
			assert_int_equal(x.r.cpu[cpu].busy_ns, 0);
		}
	}
	assert_true(n[0][0] != n[1][0] || n[0][1] != n[1][1]);

	/* a rate near 0: the gap is more ns than an s64 holds, and no interrupt comes */
	load(&x, PLAT_HEAD "[noise]\nirq_rate = 1e-300\n" POLL_STATE C1_STATE);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[1].usage + x.r.cpu[1].usage[1].usage, 0);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* The value of metric row/col of a result (-1 if absent). */
static double metric(const struct il_sim_result *r, const char *row, const char *col)
{
	for (int i = 0; i < r->metrics.n; i++)
		if (!strcmp(r->metrics.m[i].row, row) && !strcmp(r->metrics.m[i].col, col))
			return r->metrics.m[i].value;
	return -1;
}

/*
 * [noise] host stalls: the host holds a vCPU from an instant for a time,
 * whatever it does.
 */
static void host_stalls(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;

	/*
	 * A halt: B sleeps to 500 us in C1 (HLT, exit 1 us) from 300 ns. Held
	 * from 400 to 600 us, its timer's interrupt waits for the vCPU: the
	 * exit starts at 600 us, B runs at 601 us (latency 101 us from the
	 * expiry), C1's residency is 601000 - 300. Held from 100 to 300 us,
	 * nothing happens to a halted vCPU: 501000 - 300, latency 1 us.
	 */
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 1500000);
	struct os_cfg h = { .no_a = true, .b_sleep_ns = 500000, .stall_cpu = 1, .stall_at = 400000,
			    .stall_ns = 200000 };
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &h, &prm);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 601000 - 300);
	assert_int_equal(last_os.b_lat[1], 101000);
	assert_int_equal(x.r.host_stalls, 1);
	assert_int_equal(x.r.host_stall_ns, 200000);
	assert_true(fabs(metric(&x.r, "host stalls", "held_pct") - 100 * 200e3 / (2 * 1.5e6)) < 1e-9);
	h.stall_at = 100000;
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &h, &prm);
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 501000 - 300);
	assert_int_equal(last_os.b_lat[1], 1000);

	/* A burst: A's 1 ms (10^6 cycles at 1000 MHz) held 300 us from 500 us ends at 1.3 ms */
	struct os_cfg r = { .a_cycles = 1000000, .stall_cpu = 0, .stall_at = 500000,
			    .stall_ns = 300000 };
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &r, &prm);
	assert_int_equal(last_os.a_end, 1300000);
	assert_int_equal(x.r.cpu[0].busy_ns, 1300000);

	/*
	 * A poll: CPU 1 polls from 300 ns with a 20 us limit (C1's residency),
	 * a poll every 20.3 us: by 70 us three have ended (20300, 40600,
	 * 60900). Held from 10 to 60 us, the first poll's limit passes while
	 * the loop does not run: it ends when the vCPU runs again, at 60 us
	 * (59.7 us), and the next one (from 60.3 us) is still under way at
	 * 70 us: one.
	 */
	params(&prm, 70000);
	struct os_cfg p = { .no_a = true, .stall_cpu = 1, .stall_at = 10000, .stall_ns = 50000 };
	for (int held = 0; held < 2; held++) {
		p.stall_ns = held ? 50000 : 0;
		tg_reset(0, false);
		simulate(&x, &tg_gov, &idle_wl, &p, &prm);
		assert_int_equal(x.r.cpu[1].usage[0].usage, held ? 1 : 3);
		if (held)
			assert_int_equal(x.r.cpu[1].usage[0].time_ns, 59700);
	}

	/*
	 * A wake-up of a polling vCPU that its host holds: A runs 1 us and
	 * wakes B at 1000; CPU 1 polls from 300 and is held from 500 to 10500:
	 * need_resched is seen when the loop runs again, B runs at 10500,
	 * 9.5 us after the wake-up (0 without the stall).
	 */
	params(&prm, 100000);
	struct os_cfg w = { .a_cycles = 1000, .wake_b = true, .stall_cpu = 1, .stall_at = 500,
			    .stall_ns = 10000 };
	tg_reset(0, false);
	simulate(&x, &tg_gov, &os_wl, &w, &prm);
	assert_int_equal(last_os.b_runs, 1);
	assert_int_equal(last_os.b_lat[0], 9500);
	w.stall_ns = 0;
	tg_reset(0, false);
	simulate(&x, &tg_gov, &os_wl, &w, &prm);
	assert_int_equal(last_os.b_lat[0], 0);

	/*
	 * A stall that begins inside another extends it: held 400-600 us and
	 * 550-700 us is one stall to 700 us (300 us held); B's timer at 500 us
	 * runs at 700 us, its exit ends at 701 us.
	 */
	params(&prm, 1500000);
	h.stall_at = 400000;
	h.stall_ns = 200000;
	tg_reset(1, true);
	{
		/* the second stall comes from a workload-less hook: armed by the first run's setup */
		struct os_cfg h2 = h;
		h2.stall_at = 550000;
		h2.stall_ns = 150000;
		struct il_err e;
		if (x.r.cpu)
			il_sim_result_free(&x.r);
		struct il_sim *s = il_sim_new(&x.p, &x.m, &tg_gov, &os_wl, &h, &prm, &e);
		assert_non_null(s);
		il_sim_host_stall_at(s, 1, h2.stall_at, h2.stall_ns);
		assert_int_equal(il_sim_run(s, &e), 0);
		assert_int_equal(il_sim_result(s, &x.r, &e), 0);
		il_sim_free(s);
		conserved(&x.r);
	}
	assert_int_equal(x.r.cpu[1].usage[1].time_ns, 701000 - 300);
	assert_int_equal(last_os.b_lat[1], 201000);
	assert_int_equal(x.r.host_stalls, 2);
	assert_int_equal(x.r.host_stall_ns, 300000);

	/*
	 * The platform's stream: 100 stalls of 10 us a second on each vCPU for
	 * 10 s: 1000 expected per CPU, Poisson sd 31.6; each holds 10 us unless
	 * it began inside another (0.1 % of them). Another seed draws others;
	 * without the key there are none and no "host stalls" row.
	 */
	load(&x, PLAT_HEAD "[noise]\nhost_stall_rate = 100\nhost_stall = 10us\n" POLL_STATE C1_STATE);
	assert_true(x.p.host_stall_rate == 100);
	params(&prm, 10000000000);
	uint64_t n[2];
	for (int seed = 0; seed < 2; seed++) {
		prm.seed = 1 + (uint64_t)seed;
		tg_reset(1, true);
		simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
		n[seed] = x.r.host_stalls;
		assert_true(n[seed] > 2000 - 180 && n[seed] < 2000 + 180);
		assert_true(x.r.host_stall_ns <= (int64_t)n[seed] * 10000);
		assert_true(x.r.host_stall_ns >= (int64_t)n[seed] * 9900);
		assert_true(fabs(metric(&x.r, "host stalls", "per_cpu_s") - n[seed] / 20.0) < 1e-9);
		/* a halted vCPU that nothing wakes: no period ends */
		assert_int_equal(x.r.cpu[0].usage[1].usage + x.r.cpu[1].usage[1].usage, 0);
	}
	assert_true(n[0] != n[1]);
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 1000000000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.host_stalls, 0);
	assert_true(metric(&x.r, "host stalls", "count") == -1);
	/* a rate near 0: the gap is more ns than an s64 holds, and no stall comes */
	load(&x, PLAT_HEAD "[noise]\nhost_stall_rate = 1e-300\nhost_stall = 10us\n" POLL_STATE
	     C1_STATE);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.host_stalls, 0);
	/*
	 * Stalls as long as a duration may be (2^63 - 1 ns): each vCPU is held
	 * for what is left of the run, no more; the sum over the CPUs does not
	 * overflow, and the share is at most 100 %.
	 */
	load(&x, PLAT_HEAD "[noise]\nhost_stall_rate = 1000\nhost_stall = 9223372036854775807\n"
	     POLL_STATE C1_STATE);
	params(&prm, 10000000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_true(x.r.host_stalls > 0);
	assert_true(x.r.host_stall_ns > 0 && x.r.host_stall_ns <= 2 * x.r.duration_ns);
	assert_true(metric(&x.r, "host stalls", "held_pct") <= 100);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * --warmup W: the counters of a run of D with a warm-up are those of the
 * run of D less those of the run of W (the same events: the warm-up draws
 * nothing and changes no order); rates divide by D - W. A workload without
 * a warm-up hook is refused, and so is W >= D.
 */
static void warmup(void **unused)
{
	(void)unused;
	struct run full = { 0 }, head = { 0 }, tail = { 0 };
	struct il_sim_params prm;
	const struct il_workload *pp = il_workload_find("pingpong");
	char cfg[256] = { 0 };
	struct il_err e;
	const int64_t D = 20000000, W = 7000000;

	assert_true(pp->config_size <= sizeof(cfg));
	assert_int_equal(il_workload_configure(pp, cfg, NULL, 0, &e), 0);
	load(&full, PLAT_HEAD POLL_STATE C1_STATE);
	load(&head, PLAT_HEAD POLL_STATE C1_STATE);
	load(&tail, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, D);
	tg_reset(1, true);
	simulate(&full, &tg_gov, pp, cfg, &prm);
	params(&prm, W);
	tg_reset(1, true);
	simulate(&head, &tg_gov, pp, cfg, &prm);
	params(&prm, D);
	prm.warmup_ns = W;
	tg_reset(1, true);
	simulate(&tail, &tg_gov, pp, cfg, &prm);
	assert_int_equal(tail.r.duration_ns, D - W);
	assert_int_equal(tail.r.warmup_ns, W);
	for (int i = 0; i < 2; i++) {
		for (int k = 0; k < 2; k++) {
			const struct il_state_usage *f = &full.r.cpu[i].usage[k],
						    *h = &head.r.cpu[i].usage[k],
						    *t = &tail.r.cpu[i].usage[k];
			if (k == 1) /* the test governor picks C1 */
				assert_true(f->usage > h->usage);
			assert_int_equal(t->usage, f->usage - h->usage);
			/* a residency across W counts only its part after W */
			assert_true(t->time_ns <= f->time_ns - h->time_ns);
			assert_int_equal(t->above, f->above - h->above);
			assert_int_equal(t->below, f->below - h->below);
		}
		assert_int_equal(tail.r.cpu[i].idle_ns, full.r.cpu[i].idle_ns - head.r.cpu[i].idle_ns);
		assert_int_equal(tail.r.cpu[i].busy_ns, full.r.cpu[i].busy_ns - head.r.cpu[i].busy_ns);
		uint64_t in_states = 0;
		for (int k = 0; k < 2; k++)
			in_states += tail.r.cpu[i].usage[k].time_ns;
		assert_true(in_states <= (uint64_t)tail.r.cpu[i].idle_ns);
	}
	double trips_f = metric(&full.r, "pingpong", "round_trips"),
	       trips_h = metric(&head.r, "pingpong", "round_trips"),
	       trips_t = metric(&tail.r, "pingpong", "round_trips");
	assert_true(trips_h > 0);
	assert_true(trips_t == trips_f - trips_h);
	assert_true(metric(&tail.r, "pingpong", "round_trips_per_s") == trips_t * 1e9 / (double)(D - W));
	assert_int_equal(tail.r.wake_lat.count, full.r.wake_lat.count - head.r.wake_lat.count);

	prm.warmup_ns = D;
	assert_null(il_sim_new(&tail.p, &tail.m, &tg_gov, pp, cfg, &prm, &e));
	assert_non_null(strstr(e.msg, "not shorter"));
	prm.warmup_ns = W;
	assert_null(il_sim_new(&tail.p, &tail.m, &tg_gov, &none_wl, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "warm-up"));
	/*
	 * Idle CPUs in C1 woken by the tick each 1 ms, W = 1.5 ms: the residency
	 * from 1 ms to 2 ms counts from W on, so the measured 1.5 ms hold at most
	 * 1.5 ms of C1 (without that, 2 ms less the entries).
	 */
	params(&prm, 3000000);
	prm.warmup_ns = 1500000;
	tg_reset(1, false);
	simulate(&tail, &tg_gov, &idle_wl, &nothing, &prm);
	for (int i = 0; i < 2; i++) {
		assert_true(tail.r.cpu[i].usage[1].usage >= 1);
		assert_true(tail.r.cpu[i].usage[1].time_ns <= 1500000);
		assert_int_equal(tail.r.cpu[i].idle_ns, 1500000);
	}
	il_sim_result_free(&full.r);
	il_sim_result_free(&head.r);
	il_sim_result_free(&tail.r);
}

/* state_count <= 1: no governor; the tick rule of f4c31b07b136 and the older ones. */
static void single_state_tick_rule(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	load(&x, PLAT_HEAD "[state.0]\nname = C1\nlatency = 1\nresidency = 1\nentry = hlt\n");
	params(&prm, 10500000);
	simulate(&x, NULL, &none_wl, &nothing, &prm);
	/* first iteration: got_tick false -> retained; woken by the tick -> stopped after */
	assert_int_equal(x.r.cpu[0].usage[0].usage, 1);
	assert_int_equal(x.r.cpu[0].usage[0].time_ns, 1000700);
	prm.single_state_tick = IL_TICK_ALWAYS_RETAIN;
	simulate(&x, NULL, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 10);
	prm.single_state_tick = IL_TICK_ALWAYS_STOP;
	simulate(&x, NULL, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 0);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* No cpuidle driver: the default idle routine as the single state. */
static void no_cpuidle_tick_rule(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	x.m.cpuidle = false;
	memset(&x.m.default_state, 0, sizeof(x.m.default_state));
	snprintf(x.m.default_state.name, IL_NAME_LEN, "HLT");
	x.m.default_state.entry = IL_ENTRY_HLT;
	x.m.default_state.exit_latency_ns = 2000;
	x.m.default_state.power_w = -1;
	params(&prm, 10500000);
	simulate(&x, NULL, &none_wl, &nothing, &prm);
	assert_false(x.r.cpuidle);
	assert_int_equal(x.r.nstates, 1);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 1);
	assert_int_equal(x.r.cpu[0].usage[0].time_ns, 1000000 + 2000 - 300);
	prm.nocpuidle_tick = IL_TICK_ALWAYS_STOP;
	simulate(&x, NULL, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 0);
	prm.nocpuidle_tick = IL_TICK_ALWAYS_RETAIN;
	simulate(&x, NULL, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 10);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * The idle loop's rules follow the run's release (IL_TICK_BY_RELEASE, the
 * default). Before v7.0 (e5c9ffc6ae1b, d557640e4ce5, f4c31b07b136) a
 * single-state driver's governor is asked (and reflected) and decides the
 * tick; with no cpuidle driver the tick is always stopped. 10.5 ms, HZ 1000.
 */
static void tick_rules_by_release(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct il_err e;

	load(&x, PLAT_HEAD "[state.0]\nname = C1\nlatency = 1\nresidency = 1\nentry = hlt\n");
	params(&prm, 10500000);
	snprintf(x.m.release, sizeof(x.m.release), "6.18");
	/* the governor keeps the tick: woken by every tick, 10 exits, 11 selects */
	tg_reset(0, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 10);
	assert_int_equal(tg_data[0].selects, 11);
	assert_int_equal(tg_data[0].reflects, 10);
	/* the governor stops it: one entry that lasts the run */
	tg_reset(0, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 0);
	assert_int_equal(tg_data[0].selects, 1);
	/* no governor to ask: refused */
	assert_null(il_sim_new(&x.p, &x.m, NULL, &none_wl, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "governor"));
	/* 7.0: not asked, got-tick rule (one exit, as single_state_tick_rule) */
	snprintf(x.m.release, sizeof(x.m.release), "7.0");
	tg_reset(0, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(tg_data[0].selects, 0);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 1);
	/* an explicit rule still wins over the release */
	prm.single_state_tick = IL_TICK_GOVERNOR;
	tg_reset(0, false);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(tg_data[0].selects, 11);

	/* no cpuidle driver: 6.19 always stops the tick, 7.0 follows got_tick */
	params(&prm, 10500000);
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	x.m.cpuidle = false;
	memset(&x.m.default_state, 0, sizeof(x.m.default_state));
	snprintf(x.m.default_state.name, IL_NAME_LEN, "HLT");
	x.m.default_state.entry = IL_ENTRY_HLT;
	x.m.default_state.exit_latency_ns = 2000;
	x.m.default_state.power_w = -1;
	snprintf(x.m.release, sizeof(x.m.release), "6.19");
	simulate(&x, NULL, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 0);
	snprintf(x.m.release, sizeof(x.m.release), "7.0");
	simulate(&x, NULL, &none_wl, &nothing, &prm);
	assert_int_equal(x.r.cpu[0].usage[0].usage, 1);
	prm.nocpuidle_tick = IL_TICK_GOVERNOR;
	assert_null(il_sim_new(&x.p, &x.m, NULL, &none_wl, &nothing, &prm, &e));
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/*
 * cpuidle_poll_time() of the run's release: POLL picked with the tick kept,
 * C1 20 µs, C2 300 µs; the first poll ends on its limit: 20 µs (v5.5 .. v7.1)
 * or, in v5.4, C2's 300 µs (the last enabled state).
 */
static void poll_limit_by_release(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	static const char *const rel[] = { "5.4", "5.5", "5.10", "5.11", "7.1" };
	static const int64_t want[] = { 300000, 20000, 20000, 20000, 20000 };

	load(&x, PLAT_HEAD POLL_STATE C1_STATE
	     "[state.2]\nname = C2\nlatency = 10\nresidency = 300\nentry = hlt\n");
	params(&prm, 900000);
	for (int k = 0; k < 5; k++) {
		snprintf(x.m.release, sizeof(x.m.release), "%s", rel[k]);
		tg_reset(0, false);
		simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
		assert_true(tg_data[0].first_poll_limit);
		assert_int_equal(tg_data[0].first_residency_at_reflect, want[k]);
	}
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* idle=poll: the loop spins until need_resched, no entry window, no cpuidle counters. */
static void force_poll(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .a_cycles = 1000, .wake_b = true };
	load(&x, PLAT_HEAD "[firmware]\npoll_exit = 100\n" POLL_STATE C1_STATE);
	x.m.force_poll = true;
	params(&prm, 2000000);
	simulate(&x, NULL, &os_wl, &c, &prm);
	assert_false(x.r.cpuidle);
	assert_int_equal(last_os.b_lat[0], 100);
	assert_int_equal(x.r.cpu[1].usage[0].usage, 1);
	assert_int_equal(x.r.cpu[1].usage[0].time_ns, 1100);
	assert_int_equal(x.r.cpu[1].aborted, 0);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

#define TURBO_PLAT PLAT_HEAD "[cpu]\nbase_mhz = 1500\n[turbo]\n1 = 3000\n2 = 2000\n" POLL_STATE

/* Turbo: with the other core in a TURBO_RELEASE state the package goes to the 1-core bin. */
static void turbo_bins(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct os_cfg c = { .a_cycles = 3000000 };
	load(&x, TURBO_PLAT "[state.1]\nname = C6\nlatency = 1\nresidency = 20\nflags = TURBO_RELEASE\n");
	params(&prm, 2000000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	/* 100 us at 2000 MHz (200000 cycles), then 2.8e6 cycles at 3000 MHz */
	assert_int_equal(last_os.a_end, 100000 + 933333);
	assert_int_equal(x.r.nfreq, 2);
	assert_true(x.r.freq_mhz[0] == 2000 && x.r.freq_mhz[1] == 3000);
	assert_int_equal(x.r.freq_ns[0], 100000);
	assert_int_equal(x.r.freq_ns[1], 1900000);

	/* a state that keeps the core counted (C1-like): stays at the 2-core bin */
	load(&x, TURBO_PLAT "[state.1]\nname = C1\nlatency = 1\nresidency = 20\n");
	tg_reset(1, true);
	simulate(&x, &tg_gov, &os_wl, &c, &prm);
	assert_int_equal(last_os.a_end, 1500000);
	assert_int_equal(x.r.nfreq, 1);
	assert_true(il_turbo_mhz(&x.p, 1, 1) == 3000);
	assert_true(il_turbo_mhz(&x.p, 5, 1) == 2000);
	assert_true(il_turbo_mhz(&x.p, 0, 1) == 3000);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* Energy: per-thread state and active power, transitions, package power while a core is active. */
static void energy_sums(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	load(&x, TURBO_PLAT "[power]\nactive_static_w = 1\nactive_w_per_ghz = 0.5\npackage_w = 2\n"
		 "[state.1]\nname = C6\nlatency = 1\nresidency = 20\nflags = TURBO_RELEASE\n"
		 "power_w = 0.1\ntransition_j = 0.000001\n");
	params(&prm, 2000000);
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	/* per CPU: 300 ns at 2 W (2000 MHz), then 0.1 W, one entry of 1 uJ; package 300 ns at 2 W */
	double cpu = 2 * 300e-9 + 0.1 * (2e-3 - 300e-9) + 1e-6;
	assert_true(fabs(x.r.cpu[0].energy_j - cpu) < 1e-15);
	assert_true(fabs(x.r.cpu[1].energy_j - cpu) < 1e-15);
	assert_true(fabs(x.r.energy_j - (2 * cpu + 2 * 300e-9)) < 1e-15);
	assert_true(x.r.energy_known);
	assert_int_equal(x.r.pkg_depth_ns[0], 300);
	assert_int_equal(x.r.pkg_depth_ns[2], 2000000 - 300);
	assert_int_equal(x.r.core_depth_ns[2], 2 * (2000000 - 300));
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* PM QoS and iowait reach the governor's inputs. */
static void qos_inputs(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 100000);
	prm.qos_resume_latency_us = 5;
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(tg_data[0].first_sel.latency_req_ns, 5000);
	prm.qos_resume_latency_us = IL_QOS_DEFAULT_DEV_US;
	prm.qos_cpu_latency_us = 0;
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(tg_data[0].first_sel.latency_req_ns, 0);
	/* nohz=off: the tick cannot stop and the sleep length is the time to the tick */
	prm.qos_cpu_latency_us = IL_QOS_DEFAULT_GLOBAL_US;
	prm.nohz = false;
	tg_reset(1, true);
	simulate(&x, &tg_gov, &none_wl, &nothing, &prm);
	assert_int_equal(tg_data[0].first_sel.sleep_length_ns, 1000000);
	assert_int_equal(x.r.cpu[0].tick_stops, 0);
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

/* Same seed, same numbers; another seed, others. The real workloads conserve time. */
static void determinism_and_conservation(void **unused)
{
	(void)unused;
	static const char *const wls[] = { "sleep-sweep", "pingpong", "wake-latency" };
	struct il_err e;

	for (size_t w = 0; w < 3; w++) {
		const struct il_workload *wl = il_workload_find(wls[w]);
		assert_non_null(wl);
		void *cfg = calloc(1, wl->config_size);
		struct il_wl_opt o[1];
		int n = 0;
		if (w == 0)
			il_wl_opt_parse("loops=20", &o[n++], NULL);
		assert_int_equal(il_workload_configure(wl, cfg, o, n, &e), 0);
		struct run x = { 0 }, y = { 0 };
		struct il_sim_params prm;
		load(&x, PLAT_HEAD "[firmware]\nhlt_exit = lognormal:20000:0.4\n" POLL_STATE C1_STATE);
		load(&y, PLAT_HEAD "[firmware]\nhlt_exit = lognormal:20000:0.4\n" POLL_STATE C1_STATE);
		il_sim_params_default(&prm);
		prm.duration_ns = 200000000;
		prm.seed = 5;
		tg_reset(1, true);
		simulate(&x, &tg_gov, wl, cfg, &prm);
		tg_reset(1, true);
		simulate(&y, &tg_gov, wl, cfg, &prm);
		assert_int_equal(x.r.metrics.n, y.r.metrics.n);
		assert_true(x.r.metrics.n > 10);
		for (int i = 0; i < x.r.metrics.n; i++)
			assert_memory_equal(&x.r.metrics.m[i].value, &y.r.metrics.m[i].value, sizeof(double));
		il_sim_result_free(&y.r);
		prm.seed = 6;
		tg_reset(1, true);
		simulate(&y, &tg_gov, wl, cfg, &prm);
		assert_true(x.r.wake_lat.sum != y.r.wake_lat.sum);
		il_sim_result_free(&x.r);
		il_sim_result_free(&y.r);
		free(cfg);
	}
}

/* Bad engine input is refused with a message. */
static void refusals(void **unused)
{
	(void)unused;
	struct run x = { 0 };
	struct il_sim_params prm;
	struct il_err e;
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	params(&prm, 0);
	assert_null(il_sim_new(&x.p, &x.m, &tg_gov, &none_wl, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "positive"));
	params(&prm, 1000);
	assert_null(il_sim_new(&x.p, &x.m, NULL, &none_wl, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "governor"));
	const struct il_workload *pp = il_workload_find("pingpong");
	load(&x, "[platform]\nname = one\n" POLL_STATE C1_STATE);
	assert_null(il_sim_new(&x.p, &x.m, &tg_gov, pp, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "needs 2 CPUs"));
	/* parameters set by code are held to the --sim-opt bounds (no overflow of time sums) */
	params(&prm, 1000);
	prm.switch_ns = INT64_MAX;
	assert_null(il_sim_new(&x.p, &x.m, &tg_gov, &none_wl, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "switch_ns: 9223372036854775807ns is out of range 0..1s"));
	params(&prm, 1000);
	prm.entry_ns = INT64_MAX;
	assert_null(il_sim_new(&x.p, &x.m, &tg_gov, &none_wl, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "entry_ns"));
	params(&prm, 1000);
	prm.default_mhz = 1e-300;
	assert_null(il_sim_new(&x.p, &x.m, &tg_gov, &none_wl, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "default_mhz"));
	params(&prm, INT64_MAX);
	assert_null(il_sim_new(&x.p, &x.m, &tg_gov, &none_wl, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "duration"));
	params(&prm, 1000);
	/* a platform made in memory with more CPUs than the loader allows */
	load(&x, PLAT_HEAD POLL_STATE C1_STATE);
	x.p.packages = 64;
	x.p.cores_per_package = 1024;
	x.p.threads_per_core = 8;
	assert_null(il_sim_new(&x.p, &x.m, &tg_gov, &none_wl, &nothing, &prm, &e));
	assert_non_null(strstr(e.msg, "524288 CPUs, more than IL_CPUS_MAX (8192)"));
	if (x.r.cpu)
		il_sim_result_free(&x.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tick_retained),
		cmocka_unit_test(tick_stopped),
		cmocka_unit_test(tick_kept_for_near_timer),
		cmocka_unit_test(reflect_after_handler),
		cmocka_unit_test(tick_kept_one_tick_after),
		cmocka_unit_test(true_idle_by_flag),
		cmocka_unit_test(wake_during_entry),
		cmocka_unit_test(wake_by_ipi),
		cmocka_unit_test(wake_by_monitor),
		cmocka_unit_test(wake_on_cpu),
		cmocka_unit_test(switch_cost_source),
		cmocka_unit_test(poll_time_limit),
		cmocka_unit_test(exit_path_cost),
		cmocka_unit_test(exit_path_shared),
		cmocka_unit_test(exit_path_hold),
		cmocka_unit_test(warmup),
		cmocka_unit_test(noise),
		cmocka_unit_test(host_stalls),
		cmocka_unit_test(absurd_draws),
		cmocka_unit_test(watchdog_hrtimer),
		cmocka_unit_test(watchdog_stopper),
		cmocka_unit_test(watchdog_stopper_first),
		cmocka_unit_test(nohz_balancer),
		cmocka_unit_test(single_state_tick_rule),
		cmocka_unit_test(no_cpuidle_tick_rule),
		cmocka_unit_test(tick_rules_by_release),
		cmocka_unit_test(poll_limit_by_release),
		cmocka_unit_test(force_poll),
		cmocka_unit_test(turbo_bins),
		cmocka_unit_test(energy_sums),
		cmocka_unit_test(qos_inputs),
		cmocka_unit_test(determinism_and_conservation),
		cmocka_unit_test(refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
