// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep-sweep: a waker on one CPU wakes a wakee blocked on another after
 * each interval of a list, `loops` times per interval, and reports the table
 * kernel developers post with cpuidle patches: the wakee CPU's counter
 * differences (usage, time, above, below) per interval, the measured sleep
 * interval, per-state usage and the wake latency.
 *
 * The waker (mode=):
 * - busy (default): as cpuidle_wakeup's pipe mode (AboorvaDevarajan/
 *   linux-utils, cpuidle/cpuidle_wakeup/cpuidle_wakeup.c, a34b62ed10f5)
 *   does it: it spins on the clock for `interval` from the end of its
 *   previous write, then writes one byte into the pipe; it never idles, so
 *   its own wake-up never lengthens the next period (interval + the write);
 * - relative: it sleeps `interval` (an hrtimer) after each write, so its
 *   own wake-up and write add to every period;
 * - absolute: it sleeps to deadlines `interval` apart on a fixed grid.
 * The wakee blocks in read() on the pipe (cpuidle_wakeup runs it SCHED_FIFO;
 * it uses no timer, so no slack applies to it); a byte written while it is
 * still running is read at once, without sleeping, as a pipe does.
 * waker_work / wakee_work (+ _ns) are the non-idle work per wake-up: the
 * write, and the read's return, the loop and the next read up to blocking.
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

extern const struct il_workload il_wl_sleep_sweep;

#define SS_MAX_INTERVALS 64

enum ss_mode { SS_BUSY = 0, SS_RELATIVE, SS_ABSOLUTE };
static const char *const ss_modes[] = { "busy", "relative", "absolute", NULL };

struct ss_cfg {
	int n;
	int64_t interval_ns[SS_MAX_INTERVALS];
	uint64_t loops;
	int waker, wakee;
	enum ss_mode mode;
	uint64_t waker_cycles, wakee_cycles;
	int64_t waker_ns, wakee_ns;
	int64_t row_gap_ns;
};

struct ss_row {
	unsigned long long usage[IL_STATE_MAX], above, below;
	uint64_t time_ns;
	double slept_ns;         /* sum of measured wakee sleeps (reads) */
	uint64_t wakes;          /* reads that slept */
	uint64_t reads;          /* all reads: one per byte written */
	int64_t p50, p99, max;
};

struct ss_state {
	int waker_task, wakee_task;
	int phase;               /* of the wakee's reads */
	uint64_t count;          /* reads in the phase */
	uint64_t writes;         /* bytes the waker wrote (write j is of phase j / loops) */
	uint64_t pending;        /* bytes in the pipe */
	bool started;
	int64_t next_write;      /* when the waker's next write is due (oracle, absolute grid) */
	int64_t last_read;       /* when the wakee's previous read returned */
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
	IL_OPT_ENUM(C, mode, enum ss_mode, "mode", ss_modes, "busy",
		    "the waker: busy (spins interval after each write, cpuidle_wakeup's pipe mode), "
		    "relative (sleeps interval after each write), absolute (sleeps to deadlines "
		    "interval apart)"),
	IL_OPT_U64(C, waker_cycles, "waker_work", 0, 1ull << 40, "2000",
		   "cycles of the waker's write per wake-up (estimate)"),
	IL_OPT_DUR_NS(C, waker_ns, "waker_work_ns", 0, 1e12, "0",
		      "frequency-independent ns of the waker's write"),
	IL_OPT_U64(C, wakee_cycles, "wakee_work", 0, 1ull << 40, "2000",
		   "cycles the wakee runs per read: return, loop, next read to blocking (estimate)"),
	IL_OPT_DUR_NS(C, wakee_ns, "wakee_work_ns", 0, 1e12, "0",
		      "frequency-independent ns the wakee runs per read"),
	IL_OPT_DUR_NS(C, row_gap_ns, "row_gap", 0, 1e12, "0",
		      "the waker's pause between two intervals' loops (a live tool reads the "
		      "wakee CPU's counters and prints the row there); the wakee idles through it"),
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

/*
 * The wakee's read() returned one byte (slept: it had blocked). Its sleep
 * is measured as cpuidle_wakeup does, from before read() to after it: here
 * from the previous read's return (the two clock_gettime calls between are
 * not separated from the wakee's work), the first from the start.
 */
static void wakee_read(const struct ss_cfg *c, struct ss_state *st, struct il_sim *s, int task,
		       bool slept, int64_t lat)
{
	struct ss_row *r = &st->rows[st->phase];
	int64_t now = il_sim_now(s);

	st->pending--;
	r->reads++;
	r->slept_ns += (double)(now - st->last_read);
	st->last_read = now;
	if (slept) {
		r->wakes++;
		il_hist_add(&st->lat, lat);
	}
	il_sim_task_work(s, task, c->wakee_cycles, c->wakee_ns);
	if (++st->count == c->loops)
		end_phase(c, st, s);
}

/* The interval before write number j (of phase j / loops). */
static int64_t interval_of(const struct ss_cfg *c, uint64_t j)
{
	uint64_t ph = j / c->loops;
	return c->interval_ns[ph < (uint64_t)c->n ? ph : (uint64_t)c->n - 1];
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct ss_cfg *c = cfgp;
	struct ss_state *st = stp;
	int64_t now = il_sim_now(s);

	if (task == st->waker_task) {
		if (c->mode == SS_BUSY) {
			/* spin interval from now (the run's start), then write */
			st->next_write = now + interval_of(c, st->writes);
			il_sim_task_work(s, task, c->waker_cycles, interval_of(c, st->writes) + c->waker_ns);
		} else {
			il_sim_task_work(s, task, c->waker_cycles, c->waker_ns);
		}
		return;
	}
	wakee_read(c, st, s, task, true, lat);
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct ss_cfg *c = cfgp;
	struct ss_state *st = stp;
	int64_t now = il_sim_now(s);

	if (task == st->waker_task) {
		if (st->writes >= (uint64_t)c->n * c->loops) {
			il_sim_task_block(s, task, -1);
			return;
		}
		/* relative/absolute: the first burst precedes the first sleep and writes nothing */
		if (c->mode == SS_BUSY || st->started) {
			/* write(): a byte into the pipe, waking the wakee if it is blocked */
			st->writes++;
			st->pending++;
			il_sim_task_wake(s, c->waker, st->wakee_task);
		}
		if (c->mode == SS_ABSOLUTE && !st->started)
			st->next_write = now;
		st->started = true;
		int64_t iv = interval_of(c, st->writes);
		/* a row's last write: the pause before the next row's first interval */
		if (st->writes && st->writes % c->loops == 0)
			iv += c->row_gap_ns;
		switch (c->mode) {
		case SS_BUSY:
			st->next_write = now + iv;
			il_sim_task_work(s, task, c->waker_cycles, iv + c->waker_ns);
			break;
		case SS_RELATIVE:
			st->next_write = now + iv;
			il_sim_task_sleep_until(s, task, st->next_write);
			break;
		case SS_ABSOLUTE:
			st->next_write += iv;
			il_sim_task_sleep_until(s, task, st->next_write);
			break;
		}
		return;
	}
	if (st->phase >= c->n) {
		il_sim_task_block(s, task, -1);
		return;
	}
	if (st->pending > 0) {
		/* the next byte is already there: read() returns at once */
		wakee_read(c, st, s, task, false, 0);
		return;
	}
	il_sim_task_block(s, task, st->next_write);
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

/* Every interval's loops must fit in the run: never a row dropped silently. */
static int finished(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct ss_cfg *c = cfgp;
	const struct ss_state *st = stp;
	double done = 0, all = 0;

	if (st->phase >= c->n)
		return 0;
	/* the time the loops take, from those done: the rest at the same pace */
	for (int k = 0; k < c->n; k++) {
		double loop = (double)c->loops * (double)c->interval_ns[k];
		all += loop;
		if (k < st->phase)
			done += loop;
		else if (k == st->phase)
			done += loop * (double)st->count / (double)c->loops;
	}
	double need = done > 0 ? (double)il_sim_now(s) * all / done : (double)all;
	return il_err_set(err, EINVAL, "sleep-sweep: %d of %d intervals completed in %.3f s; the "
			  "loops need about %.3f s: give a longer --duration or fewer loops",
			  st->phase, c->n, (double)il_sim_now(s) * 1e-9, need * 1e-9);
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
			      r->reads ? r->slept_ns / (double)r->reads / 1000 : 0);
		il_metric_add(out, row, "wakeups", "", IL_BETTER_NONE, false, (double)r->wakes);
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

/*
 * The wakee idles once per wake-up, the waker too unless it spins; the
 * sweep ends itself after loops x intervals.
 */
static double est_idle_periods(const void *cfgp, const struct il_platform *p, int64_t d)
{
	const struct ss_cfg *c = cfgp;
	double hz = il_wl_est_hz(p), sweep = 0;
	double work = (double)(c->waker_cycles + c->wakee_cycles) / hz * 1e9 +
		      (double)(c->waker_ns + c->wakee_ns);

	for (int i = 0; i < c->n; i++)
		sweep += (double)c->loops * ((double)c->interval_ns[i] + work) + (double)c->row_gap_ns;
	double n = (double)c->loops * c->n * (c->mode == SS_BUSY ? 1 : 2);
	return sweep > (double)d ? n * (double)d / sweep : n;
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
	.finished = finished,
	.report = report,
	.est_idle_periods = est_idle_periods,
};
