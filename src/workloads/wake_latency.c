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
#include "idlelab/workload.h"

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

static const char help[] =
	"  waker=0      waking CPU\n"
	"  wakee=1      woken CPU\n"
	"  min=20us     shortest gap between wake-ups\n"
	"  mean=500us   mean of the exponential part of the gap\n"
	"  work=1000    cycles each task runs per wake-up\n";

static int configure(void *cfgp, const struct il_wl_opt *opts, int nopts, struct il_err *err)
{
	struct wl_cfg *c = cfgp;
	uint64_t v;

	c->waker = 0;
	c->wakee = 1;
	c->min_ns = 20000;
	c->mean_ns = 500000;
	c->cycles = 1000;
	for (int i = 0; i < nopts; i++) {
		const char *k = opts[i].key, *val = opts[i].value;
		if (!strcmp(k, "waker") || !strcmp(k, "wakee")) {
			if (il_wl_parse_u64(k, val, 0, 65535, &v, err))
				return -EINVAL;
			*(k[4] == 'r' ? &c->waker : &c->wakee) = (int)v;
		} else if (!strcmp(k, "min")) {
			if (il_wl_parse_dur(k, val, &c->min_ns, err))
				return -EINVAL;
		} else if (!strcmp(k, "mean")) {
			if (il_wl_parse_dur(k, val, &c->mean_ns, err))
				return -EINVAL;
		} else if (!strcmp(k, "work")) {
			if (il_wl_parse_u64(k, val, 0, 1ull << 40, &c->cycles, err))
				return -EINVAL;
		} else {
			return il_wl_unknown_opt(&il_wl_wake_latency, k, err);
		}
	}
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

const struct il_workload il_wl_wake_latency = {
	.name = "wake-latency",
	.summary = "one CPU wakes an idle CPU at random times; time until the task runs",
	.options_help = help,
	.config_size = sizeof(struct wl_cfg),
	.state_size = sizeof(struct wl_state),
	.min_cpus = 2,
	.configure = configure,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.report = report,
};
