// SPDX-License-Identifier: GPL-2.0-only
/*
 * pingpong: two tasks on two CPUs pass a token, as will-it-scale's
 * context_switch2 (or perf bench sched pipe) does: each runs a short burst,
 * wakes the other and blocks. Reports round trips per second as
 * percentiles of the per-period counts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/hist.h"
#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/workload.h"

extern const struct il_workload il_wl_pingpong;

struct pp_cfg {
	int cpu_a, cpu_b;
	uint64_t cycles;
	int64_t period_ns;
};

struct pp_state {
	int a, b;
	uint64_t trips, in_period;
	int64_t period_end;
	struct il_hist rate;      /* round trips per second of each period */
};

static const char help[] =
	"  cpus=0,1     the two CPUs\n"
	"  work=1000    cycles each side runs per hand-over\n"
	"  period=1s    counting period for the per-second percentiles\n";

static int configure(void *cfgp, const struct il_wl_opt *opts, int nopts, struct il_err *err)
{
	struct pp_cfg *c = cfgp;

	c->cpu_a = 0;
	c->cpu_b = 1;
	c->cycles = 1000;
	c->period_ns = 1000000000;
	for (int i = 0; i < nopts; i++) {
		const char *k = opts[i].key, *v = opts[i].value;
		if (!strcmp(k, "cpus")) {
			int a, b;
			char extra;
			if (sscanf(v, "%d,%d%c", &a, &b, &extra) != 2 || a < 0 || b < 0 || a == b)
				return il_err_set(err, EINVAL, "cpus: '%s' is not two different CPUs 'A,B'", v);
			c->cpu_a = a;
			c->cpu_b = b;
		} else if (!strcmp(k, "work")) {
			if (il_wl_parse_u64(k, v, 0, 1ull << 40, &c->cycles, err))
				return -EINVAL;
		} else if (!strcmp(k, "period")) {
			if (il_wl_parse_dur(k, v, &c->period_ns, err))
				return -EINVAL;
			if (c->period_ns < 1000)
				return il_err_set(err, EINVAL, "period: at least 1us");
		} else {
			return il_wl_unknown_opt(&il_wl_pingpong, k, err);
		}
	}
	return 0;
}

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct pp_cfg *c = cfgp;
	struct pp_state *st = stp;
	if (il_wl_check_cpus(&il_wl_pingpong, s, c->cpu_a, c->cpu_b, err))
		return -EINVAL;
	st->a = il_sim_task_add(s, c->cpu_a, NULL);
	st->b = il_sim_task_add(s, c->cpu_b, NULL);
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
	il_sim_task_run(s, task, c->cycles);
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct pp_cfg *c = cfgp;
	struct pp_state *st = stp;
	int other = task == st->a ? st->b : st->a;

	il_sim_task_wake(s, task == st->a ? c->cpu_a : c->cpu_b, other);
	il_sim_task_block(s, task, -1);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	const struct pp_cfg *c = cfgp;
	struct pp_state *st = stp;
	int64_t now = il_sim_now(s);
	static const double ps[] = { 50, 75, 90, 95, 99 };
	static const char *const pn[] = { "p50", "p75", "p90", "p95", "p99" };

	(void)c;
	il_metric_add(out, "pingpong", "round_trips", "", IL_BETTER_HIGHER, false, (double)st->trips);
	il_metric_add(out, "pingpong", "round_trips_per_s", "1/s", IL_BETTER_HIGHER, true,
		      now > 0 ? (double)st->trips * 1e9 / (double)now : 0);
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
}

const struct il_workload il_wl_pingpong = {
	.name = "pingpong",
	.summary = "two tasks on two CPUs pass a token (context_switch2)",
	.options_help = help,
	.config_size = sizeof(struct pp_cfg),
	.state_size = sizeof(struct pp_state),
	.min_cpus = 2,
	.configure = configure,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.report = report,
};
