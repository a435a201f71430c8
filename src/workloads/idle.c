// SPDX-License-Identifier: GPL-2.0-only
/*
 * idle: an almost idle machine. Every CPU runs periodic housekeeping timers
 * (vmstat, RCU, watchdog-like: a short handler in IRQ context, waking no
 * task) with some jitter, for idle power and the states an idle machine
 * reaches; optionally device interrupts (a Poisson arrival process per
 * CPU, or all on one CPU) that the timer queue does not know about.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/rng.h"
#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/platform.h"
#include "idlelab/workload.h"
#include "wl_api.h"

extern const struct il_workload il_wl_idle;

struct id_cfg {
	int64_t period_ns, jitter_ns, cost_ns;
	double irq_rate;     /* device interrupts per second per receiving CPU */
	int irq_cpu;         /* -1: every CPU receives its own */
};

struct id_state {
	uint64_t fired, irqs;
};

#define C struct id_cfg
static const struct il_opt opts[] = {
	IL_OPT_DUR(C, period_ns, "period", 1, 1e12, "4ms", "housekeeping timer period per CPU"),
	IL_OPT_DUR(C, jitter_ns, "jitter", 0, 1e12, "500us", "uniform jitter added to each period"),
	IL_OPT_DUR(C, cost_ns, "cost", 0, 1e9, "3us", "handler time per timer"),
	IL_OPT_DOUBLE(C, irq_rate, "irq_rate", 0, 1e8, "0",
		      "device interrupts per second (Poisson) per receiving CPU"),
	IL_OPT_INT_KW(C, irq_cpu, "irq_cpu", 0, IL_CPUS_MAX - 1, "all", -1, "all",
		      "CPU receiving them (all: each CPU its own stream)"),
	IL_OPT_END,
};
#undef C

static int64_t next_gap(const struct id_cfg *c, struct il_sim *s)
{
	if (c->jitter_ns <= 0)
		return c->period_ns;
	return c->period_ns + (int64_t)il_rng_below(il_sim_rng(s), (uint64_t)c->jitter_ns + 1);
}

/* Exponential gap of the interrupt arrival process, ns. */
static int64_t irq_gap(const struct id_cfg *c, struct il_sim *s)
{
	struct il_dist d = { IL_DIST_EXP, 0, 1e9 / c->irq_rate };
	return il_dist_sample(&d, il_sim_rng(s));
}

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct id_cfg *c = cfgp;

	(void)stp;
	if (c->irq_cpu >= il_sim_ncpus(s))
		return il_err_set(err, EINVAL, "idle: irq_cpu %d does not exist (platform has %d)",
				  c->irq_cpu, il_sim_ncpus(s));
	for (int cpu = 0; cpu < il_sim_ncpus(s); cpu++) {
		il_sim_hk_timer_at(s, cpu, next_gap(c, s), c->cost_ns, 0);
		if (c->irq_rate > 0 && (c->irq_cpu < 0 || c->irq_cpu == cpu))
			il_sim_irq_at(s, cpu, irq_gap(c, s), -1);
	}
	return 0;
}

static void irq(const void *cfgp, void *stp, struct il_sim *s, int cpu)
{
	const struct id_cfg *c = cfgp;
	struct id_state *st = stp;

	st->irqs++;
	il_sim_irq_at(s, cpu, il_sim_now(s) + irq_gap(c, s), -1);
}

static void hk_timer(const void *cfgp, void *stp, struct il_sim *s, int cpu, uint64_t arg)
{
	const struct id_cfg *c = cfgp;
	struct id_state *st = stp;

	(void)arg;
	st->fired++;
	il_sim_hk_timer_at(s, cpu, il_sim_now(s) + next_gap(c, s), c->cost_ns, 0);
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	(void)cfgp;
	(void)stp;
	il_sim_task_block(s, task, -1);
}

/* The warm-up is over: count the timers and interrupts from now. */
static void warmup(const void *cfgp, void *stp, struct il_sim *s)
{
	struct id_state *st = stp;

	(void)cfgp;
	(void)s;
	st->fired = st->irqs = 0;
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	struct id_state *st = stp;
	double secs = (double)il_sim_measured_ns(s) * 1e-9;

	(void)cfgp;
	il_metric_add(out, "idle", "timer_wakeups", "", IL_BETTER_NONE, false, (double)st->fired);
	il_metric_add(out, "idle", "device_irqs", "", IL_BETTER_NONE, false, (double)st->irqs);
	il_metric_add(out, "idle", "wakeups_per_cpu_per_s", "1/s", IL_BETTER_NONE, false,
		      secs > 0 ? (double)st->fired / secs / il_sim_ncpus(s) : 0);
}

/* Every CPU's housekeeping timer, and the device interrupts. */
static double est_idle_periods(const void *cfgp, const struct il_platform *p, int64_t d)
{
	const struct id_cfg *c = cfgp;
	double ncpus = il_platform_ncpus(p);
	double timers = ncpus * (double)d / ((double)c->period_ns + (double)c->jitter_ns / 2);

	return timers + c->irq_rate * (c->irq_cpu < 0 ? ncpus : 1) * (double)d * 1e-9;
}

const struct il_workload il_wl_idle = {
	.name = "idle",
	.summary = "an almost idle machine with periodic housekeeping timers (idle power)",
	.opts = opts,
	.config_size = sizeof(struct id_cfg),
	.state_size = sizeof(struct id_state),
	.min_cpus = 1,
	.setup = setup,
	.task_ran = task_ran,
	.hk_timer = hk_timer,
	.irq = irq,
	.warmup = warmup,
	.report = report,
	.est_idle_periods = est_idle_periods,
};
