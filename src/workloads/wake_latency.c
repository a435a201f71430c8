// SPDX-License-Identifier: GPL-2.0-only
/*
 * wake-latency: one CPU wakes a task on an idle CPU at random times (an
 * exponential gap after a minimum); the time from the wake-up call until
 * the woken task runs, as the percentiles latency tests (cyclictest,
 * schbench) print.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/hist.h"
#include "idlelab/rng.h"
#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/platform.h"
#include "idlelab/workload.h"
#include "wl_api.h"

extern const struct il_workload il_wl_wake_latency;

struct wl_cfg {
	int waker, wakee;
	int64_t min_ns, mean_ns;
	uint64_t cycles;
};

struct wl_state {
	int waker_task, wakee_task;
	bool started;
	int64_t next;
	uint64_t missed;
	struct il_hist lat;
};

#define C struct wl_cfg
static const struct il_opt opts[] = {
	IL_OPT_INT(C, waker, "waker", 0, IL_CPUS_MAX - 1, "0", "waking CPU"),
	IL_OPT_INT(C, wakee, "wakee", 0, IL_CPUS_MAX - 1, "1", "woken CPU"),
	IL_OPT_DUR(C, min_ns, "min", 0, 1e12, "20us", "shortest gap between wake-ups"),
	IL_OPT_DUR(C, mean_ns, "mean", 0, 1e12, "500us", "mean of the exponential part of the gap"),
	IL_OPT_U64(C, cycles, "work", 0, 1ull << 40, "1000", "cycles each task runs per wake-up"),
	IL_OPT_END,
};
#undef C

static int check(const void *cfgp, struct il_err *err)
{
	const struct wl_cfg *c = cfgp;

	if (c->waker == c->wakee)
		return il_err_set(err, EINVAL, "wake-latency: waker and wakee must be different CPUs");
	if (c->min_ns + c->mean_ns <= 0)
		return il_err_set(err, EINVAL, "wake-latency: min + mean must be positive");
	return 0;
}

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct wl_cfg *c = cfgp;
	struct wl_state *st = stp;
	if (il_wl_check_cpus(&il_wl_wake_latency, s, c->waker, c->wakee, err))
		return -EINVAL;
	st->waker_task = il_sim_task_add(s, c->waker, NULL);
	st->wakee_task = il_sim_task_add(s, c->wakee, NULL);
	il_hist_init(&st->lat);
	il_sim_task_wake(s, -1, st->waker_task);
	return 0;
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct wl_cfg *c = cfgp;
	struct wl_state *st = stp;

	if (task == st->wakee_task)
		il_hist_add(&st->lat, lat);
	il_sim_task_run(s, task, c->cycles);
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct wl_cfg *c = cfgp;
	struct wl_state *st = stp;

	if (task == st->wakee_task) {
		il_sim_task_block(s, task, st->next);
		return;
	}
	if (st->started && !il_sim_task_wake(s, c->waker, st->wakee_task))
		st->missed++;
	st->started = true;
	struct il_dist gap = { .kind = IL_DIST_EXP, .a = (double)c->min_ns, .b = (double)c->mean_ns };
	st->next = il_sim_now(s) + il_dist_sample(&gap, il_sim_rng(s));
	il_sim_task_sleep_until(s, task, st->next);
}

/* The warm-up is over: the wake-ups from now on. */
static void warmup(const void *cfgp, void *stp, struct il_sim *s)
{
	struct wl_state *st = stp;

	(void)cfgp;
	(void)s;
	st->missed = 0;
	il_hist_init(&st->lat);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	struct wl_state *st = stp;
	static const double ps[] = { 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
	static const char *const pn[] = { "p25_us", "p50_us", "p75_us", "p90_us", "p95_us",
					  "p99_us", "p99.5_us", "p99.9_us", "p99.95_us", "p99.99_us" };

	(void)cfgp;
	(void)s;
	il_metric_add(out, "wake-latency", "samples", "", IL_BETTER_NONE, false, (double)st->lat.count);
	il_metric_add(out, "wake-latency", "missed", "", IL_BETTER_LOWER, false, (double)st->missed);
	if (!st->lat.count)
		return;
	il_metric_add(out, "wake-latency", "min_us", "us", IL_BETTER_LOWER, false,
		      (double)st->lat.min / 1000);
	for (int i = 0; i < 10; i++)
		il_metric_add(out, "wake-latency", pn[i], "us", IL_BETTER_LOWER, false,
			      (double)il_hist_percentile(&st->lat, ps[i]) / 1000);
	il_metric_add(out, "wake-latency", "max_us", "us", IL_BETTER_LOWER, false,
		      (double)st->lat.max / 1000);
	il_metric_add(out, "wake-latency", "mean_us", "us", IL_BETTER_LOWER, false,
		      il_hist_mean(&st->lat) / 1000);
}

/* One idle period per wake-up, a gap of min + mean apart. */
static double est_idle_periods(const void *cfgp, const struct il_platform *p, int64_t d)
{
	const struct wl_cfg *c = cfgp;
	double t = (double)(c->min_ns + c->mean_ns) + (double)c->cycles / il_wl_est_hz(p) * 1e9 +
		   IL_WL_EST_WAKE_NS;

	return (double)d / t;
}

const struct il_workload il_wl_wake_latency = {
	.name = "wake-latency",
	.summary = "one CPU wakes an idle CPU at random times; time until the task runs",
	.opts = opts,
	.config_size = sizeof(struct wl_cfg),
	.state_size = sizeof(struct wl_state),
	.min_cpus = 2,
	.check = check,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.warmup = warmup,
	.report = report,
	.est_idle_periods = est_idle_periods,
};
