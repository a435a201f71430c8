// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep-sweep: a waker on one CPU wakes a blocked wakee on another after
 * each interval of a list, many times per interval, and reports the table
 * kernel developers post with cpuidle patches: the wakee CPU's counter
 * differences (usage, time, above, below) per interval, the measured sleep
 * interval, per-state usage and the wake latency.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/hist.h"
#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/workload.h"

extern const struct il_workload il_wl_sleep_sweep;

#define SS_MAX_INTERVALS 64

struct ss_cfg {
	int n;
	int64_t interval_ns[SS_MAX_INTERVALS];
	uint64_t loops;
	int waker, wakee;
	uint64_t waker_cycles, wakee_cycles;
};

struct ss_row {
	unsigned long long usage[IL_STATE_MAX], above, below;
	uint64_t time_ns;
	double slept_ns;         /* sum of measured wakee sleeps */
	uint64_t wakes;
	int64_t p50, p99, max;
};

struct ss_state {
	int waker_task, wakee_task;
	int phase;
	uint64_t count;
	bool started;
	int64_t waker_timer, wakee_blocked;
	struct il_state_usage snap[IL_STATE_MAX];
	struct ss_row rows[SS_MAX_INTERVALS];
	struct il_hist lat;
};

#define C struct ss_cfg
static const struct il_opt opts[] = {
	IL_OPT_DUR_LIST(C, interval_ns, n, "intervals", 1, SS_MAX_INTERVALS, 1, 1e12,
			"2,5,7,12,22,32..152 step 10,202..1002 step 100",
			"sleep intervals (bare numbers µs)"),
	IL_OPT_U64(C, loops, "loops", 1, 100000000, "500", "wake-ups per interval"),
	IL_OPT_INT(C, waker, "waker", 0, IL_CPUS_MAX - 1, "0", "waker CPU"),
	IL_OPT_INT(C, wakee, "wakee", 0, IL_CPUS_MAX - 1, "1", "wakee CPU"),
	IL_OPT_U64(C, waker_cycles, "waker_work", 0, 1ull << 40, "2000",
		   "cycles the waker runs per wake-up"),
	IL_OPT_U64(C, wakee_cycles, "wakee_work", 0, 1ull << 40, "2000",
		   "cycles the wakee runs per wake-up"),
	IL_OPT_END,
};
#undef C

static int check(const void *cfgp, struct il_err *err)
{
	const struct ss_cfg *c = cfgp;

	if (c->waker == c->wakee)
		return il_err_set(err, EINVAL, "sleep-sweep: waker and wakee must be different CPUs");
	return 0;
}

static void snapshot(struct ss_state *st, struct il_sim *s, const struct ss_cfg *c)
{
	memcpy(st->snap, il_sim_device(s, c->wakee)->states_usage, sizeof(st->snap));
	il_hist_init(&st->lat);
}

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct ss_cfg *c = cfgp;
	struct ss_state *st = stp;
	if (il_wl_check_cpus(&il_wl_sleep_sweep, s, c->waker, c->wakee, err))
		return -EINVAL;
	st->waker_task = il_sim_task_add(s, c->waker, NULL);
	st->wakee_task = il_sim_task_add(s, c->wakee, NULL);
	snapshot(st, s, c);
	il_sim_task_wake(s, -1, st->waker_task);
	return 0;
}

static void end_phase(const struct ss_cfg *c, struct ss_state *st, struct il_sim *s)
{
	const struct il_device *dev = il_sim_device(s, c->wakee);
	const struct il_driver *drv = il_sim_driver(s);
	struct ss_row *r = &st->rows[st->phase];

	for (int i = 0; i < drv->state_count; i++) {
		const struct il_state_usage *u = &dev->states_usage[i], *o = &st->snap[i];
		r->usage[i] = u->usage - o->usage;
		r->above += u->above - o->above;
		r->below += u->below - o->below;
		r->time_ns += u->time_ns - o->time_ns;
	}
	r->p50 = il_hist_percentile(&st->lat, 50);
	r->p99 = il_hist_percentile(&st->lat, 99);
	r->max = st->lat.max;
	st->phase++;
	st->count = 0;
	snapshot(st, s, c);
	if (st->phase == c->n)
		il_sim_stop(s);
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct ss_cfg *c = cfgp;
	struct ss_state *st = stp;

	if (task == st->waker_task) {
		il_sim_task_run(s, task, c->waker_cycles);
		return;
	}
	struct ss_row *r = &st->rows[st->phase];
	r->slept_ns += (double)(il_sim_now(s) + 0 - st->wakee_blocked);
	r->wakes++;
	il_hist_add(&st->lat, lat);
	il_sim_task_run(s, task, c->wakee_cycles);
	if (++st->count == c->loops)
		end_phase(c, st, s);
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct ss_cfg *c = cfgp;
	struct ss_state *st = stp;
	int64_t now = il_sim_now(s);

	if (task == st->waker_task) {
		if (st->phase >= c->n) {
			il_sim_task_block(s, task, -1);
			return;
		}
		if (st->started)
			il_sim_task_wake(s, c->waker, st->wakee_task);
		st->started = true;
		st->waker_timer = now + c->interval_ns[st->phase];
		il_sim_task_sleep_until(s, task, st->waker_timer);
		return;
	}
	st->wakee_blocked = now;
	il_sim_task_block(s, task, st->waker_timer);
}

/*
 * A row's label: the interval in µs as given, "152us" for whole µs,
 * "2.585us" (up to the ns, trailing zeros dropped) else.
 */
static void interval_label(int64_t ns, char *buf, size_t size)
{
	if (ns % 1000 == 0) {
		snprintf(buf, size, "%lldus", (long long)(ns / 1000));
		return;
	}
	int frac = (int)(ns % 1000), digits = 3;
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, size, "%lld.%0*dus", (long long)(ns / 1000), digits, frac);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	const struct ss_cfg *c = cfgp;
	struct ss_state *st = stp;
	const struct il_driver *drv = il_sim_driver(s);
	int from = out->n;

	for (int k = 0; k < st->phase; k++) {
		const struct ss_row *r = &st->rows[k];
		char row[40];
		unsigned long long usage = 0;
		for (int i = 0; i < drv->state_count; i++)
			usage += r->usage[i];
		interval_label(c->interval_ns[k], row, sizeof(row));
		il_metric_add(out, row, "wakee_cpu", "", IL_BETTER_NONE, false, c->wakee);
		il_metric_add(out, row, "waker_cpu", "", IL_BETTER_NONE, false, c->waker);
		il_metric_add(out, row, "sleep_us", "us", IL_BETTER_NONE, false,
			      r->wakes ? r->slept_ns / (double)r->wakes / 1000 : 0);
		il_metric_add(out, row, "usage_diff", "", IL_BETTER_NONE, false, (double)usage);
		il_metric_add(out, row, "time_diff_ns", "ns", IL_BETTER_NONE, false, (double)r->time_ns);
		il_metric_add(out, row, "above_diff", "", IL_BETTER_LOWER, false, (double)r->above);
		il_metric_add(out, row, "below_diff", "", IL_BETTER_LOWER, false, (double)r->below);
		il_metric_add(out, row, "above_pct", "%", IL_BETTER_LOWER, false,
			      usage ? 100.0 * (double)r->above / (double)usage : 0);
		il_metric_add(out, row, "below_pct", "%", IL_BETTER_LOWER, false,
			      usage ? 100.0 * (double)r->below / (double)usage : 0);
		for (int i = 0; i < drv->state_count; i++) {
			char col[40];
			snprintf(col, sizeof(col), "%s", drv->states[i].name);
			il_metric_add(out, row, col, "", IL_BETTER_NONE, false, (double)r->usage[i]);
		}
		il_metric_add(out, row, "lat_p50_us", "us", IL_BETTER_LOWER, false, (double)r->p50 / 1000);
		il_metric_add(out, row, "lat_p99_us", "us", IL_BETTER_LOWER, false, (double)r->p99 / 1000);
		il_metric_add(out, row, "lat_max_us", "us", IL_BETTER_LOWER, false, (double)r->max / 1000);
	}
	il_metrics_mark_grid(out, from);
}

const struct il_workload il_wl_sleep_sweep = {
	.name = "sleep-sweep",
	.summary = "a waker wakes a blocked wakee after each interval of a list",
	.opts = opts,
	.config_size = sizeof(struct ss_cfg),
	.state_size = sizeof(struct ss_state),
	.min_cpus = 2,
	.check = check,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.report = report,
};
