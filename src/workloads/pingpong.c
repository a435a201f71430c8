// SPDX-License-Identifier: GPL-2.0-only
/*
 * pingpong: two tasks pinned to two CPUs pass a token, as Anton Blanchard's
 * context_switch2 does with its default pipe test (the kernel carries it as
 * tools/testing/selftests/powerpc/benchmarks/context_switch.c): thread 1
 * loops read(pipe1, 1 byte); write(pipe2, 1 byte); iterations += 2, thread
 * 2 the mirror, and once a second it prints the iterations of that second.
 * Each side here runs a burst (the read's return, the write, the next read
 * up to blocking), wakes the other and blocks. Reports round trips per
 * second, and the figure context_switch2 prints, context switches per
 * second (2 per round trip), as percentiles over the per-period counts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/hist.h"
#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/platform.h"
#include "idlelab/workload.h"
#include "wl_api.h"

extern const struct il_workload il_wl_pingpong;

struct pp_cfg {
	int cpu[2], ncpu;
	uint64_t cycles;
	int64_t work_ns;
	int64_t period_ns;
};

struct pp_state {
	int a, b;
	uint64_t trips, in_period;
	int64_t period_end;
	struct il_hist rate;      /* round trips per second of each period */
};

#define C struct pp_cfg
static const struct il_opt opts[] = {
	IL_OPT_INT_LIST(C, cpu, ncpu, "cpus", 2, 2, 0, IL_CPUS_MAX - 1, "0,1", "the two CPUs"),
	IL_OPT_U64(C, cycles, "work", 0, 1ull << 40, "1000",
		   "cycles each side runs per hand-over (estimate)"),
	IL_OPT_DUR_NS(C, work_ns, "work_ns", 0, 1e12, "0",
		      "frequency-independent ns each side runs per hand-over"),
	IL_OPT_DUR(C, period_ns, "period", 1000, 1e12, "1s",
		   "counting period for the per-second percentiles (context_switch2: alarm(1))"),
	IL_OPT_END,
};
#undef C

static int check(const void *cfgp, struct il_err *err)
{
	const struct pp_cfg *c = cfgp;

	if (c->cpu[0] == c->cpu[1])
		return il_err_set(err, EINVAL, "pingpong: cpus must be two different CPUs");
	return 0;
}

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct pp_cfg *c = cfgp;
	struct pp_state *st = stp;
	if (il_wl_check_cpus(&il_wl_pingpong, s, c->cpu[0], c->cpu[1], err))
		return -EINVAL;
	st->a = il_sim_task_add(s, c->cpu[0], NULL);
	st->b = il_sim_task_add(s, c->cpu[1], NULL);
	st->period_end = c->period_ns;
	il_hist_init(&st->rate);
	il_sim_task_wake(s, -1, st->a);
	return 0;
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct pp_cfg *c = cfgp;
	struct pp_state *st = stp;
	int64_t now = il_sim_now(s);

	(void)lat;
	if (task == st->a) {
		while (now >= st->period_end) {
			il_hist_add(&st->rate, (int64_t)((double)st->in_period * 1e9 / (double)c->period_ns + 0.5));
			st->in_period = 0;
			st->period_end += c->period_ns;
		}
		st->trips++;
		st->in_period++;
	}
	il_sim_task_work(s, task, c->cycles, c->work_ns);
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct pp_cfg *c = cfgp;
	struct pp_state *st = stp;
	int other = task == st->a ? st->b : st->a;

	il_sim_task_wake(s, task == st->a ? c->cpu[0] : c->cpu[1], other);
	il_sim_task_block(s, task, -1);
}

/* The warm-up is over: counts and periods start again from now. */
static void warmup(const void *cfgp, void *stp, struct il_sim *s)
{
	const struct pp_cfg *c = cfgp;
	struct pp_state *st = stp;

	st->trips = st->in_period = 0;
	st->period_end = il_sim_now(s) + c->period_ns;
	il_hist_init(&st->rate);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	const struct pp_cfg *c = cfgp;
	struct pp_state *st = stp;
	int64_t now = il_sim_measured_ns(s);
	static const double ps[] = { 50, 75, 90, 95, 99 };
	static const char *const pn[] = { "p50", "p75", "p90", "p95", "p99" };

	(void)c;
	il_metric_add(out, "pingpong", "round_trips", "", IL_BETTER_HIGHER, false, (double)st->trips);
	il_metric_add(out, "pingpong", "round_trips_per_s", "1/s", IL_BETTER_HIGHER, true,
		      now > 0 ? (double)st->trips * 1e9 / (double)now : 0);
	il_metric_add(out, "pingpong", "context_switches_per_s", "1/s", IL_BETTER_HIGHER, true,
		      now > 0 ? 2.0 * (double)st->trips * 1e9 / (double)now : 0);
	if (!st->rate.count)
		return;
	for (int i = 0; i < 5; i++)
		il_metric_add(out, "pingpong per period", pn[i], "1/s", IL_BETTER_HIGHER, true,
			      (double)il_hist_percentile(&st->rate, ps[i]));
	il_metric_add(out, "pingpong per period", "min", "1/s", IL_BETTER_HIGHER, true,
		      (double)st->rate.min);
	il_metric_add(out, "pingpong per period", "max", "1/s", IL_BETTER_HIGHER, true,
		      (double)st->rate.max);
	il_metric_add(out, "pingpong per period", "periods", "", IL_BETTER_NONE, false,
		      (double)st->rate.count);
	/* what context_switch2 prints each second: iterations += 2 per round trip */
	for (int i = 0; i < 5; i++)
		il_metric_add(out, "context_switch2 per period", pn[i], "1/s", IL_BETTER_HIGHER, true,
			      2.0 * (double)il_hist_percentile(&st->rate, ps[i]));
	il_metric_add(out, "context_switch2 per period", "min", "1/s", IL_BETTER_HIGHER, true,
		      2.0 * (double)st->rate.min);
	il_metric_add(out, "context_switch2 per period", "max", "1/s", IL_BETTER_HIGHER, true,
		      2.0 * (double)st->rate.max);
}

/* One idle period per hand-over: a side's work and the other's wake-up. */
static double est_idle_periods(const void *cfgp, const struct il_platform *p, int64_t d)
{
	const struct pp_cfg *c = cfgp;
	double t = (double)c->cycles / il_wl_est_hz(p) * 1e9 + (double)c->work_ns + IL_WL_EST_WAKE_NS;

	return (double)d / t;
}

const struct il_workload il_wl_pingpong = {
	.name = "pingpong",
	.summary = "two tasks on two CPUs pass a token through pipes (context_switch2)",
	.opts = opts,
	.config_size = sizeof(struct pp_cfg),
	.state_size = sizeof(struct pp_state),
	.min_cpus = 2,
	.check = check,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.warmup = warmup,
	.report = report,
	.est_idle_periods = est_idle_periods,
};
