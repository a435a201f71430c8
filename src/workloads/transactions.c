// SPDX-License-Identifier: GPL-2.0-only
/*
 * transactions (pgbench-like): clients whose transactions compute and wait
 * on I/O completions. Each I/O is a device interrupt after a latency drawn
 * from a distribution, on the client's CPU or on a fixed IRQ CPU (then the
 * handler wakes the client remotely); the waiting client counts in
 * nr_iowait, which menu of 6.1/6.12 reads. Reports TPS and latency.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/hist.h"
#include "idlelab/rng.h"
#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/workload.h"

extern const struct il_workload il_wl_transactions;

/* clients=0 makes one per CPU: the engine has at most IL_CPUS_MAX */
#define TX_MAX_CLIENTS IL_CPUS_MAX

struct tx_cfg {
	uint64_t clients;        /* 0 = one per CPU */
	uint64_t ios;            /* I/O waits per transaction */
	uint64_t cycles;         /* compute before each I/O and at the end */
	struct il_dist io;       /* I/O latency, ns */
	int irq_cpu;             /* -1 = the client's CPU */
	int64_t think_ns;        /* sleep between transactions */
};

struct tx_client {
	int64_t start;
	uint64_t io_left;
	bool started, thinking;
};

struct tx_state {
	int n;
	struct tx_client c[TX_MAX_CLIENTS];
	uint64_t done;
	struct il_hist lat;
};

#define C struct tx_cfg
static const struct il_opt opts[] = {
	IL_OPT_U64(C, clients, "clients", 0, TX_MAX_CLIENTS, "0", "clients (0: one per CPU)"),
	IL_OPT_U64(C, ios, "ios", 0, 1000, "4", "I/O waits per transaction"),
	IL_OPT_U64(C, cycles, "work", 0, 1ull << 40, "20000",
		   "cycles computed before each I/O and at the end"),
	IL_OPT_DIST(C, io, "io", "lognormal:80us:0.5", "I/O latency distribution"),
	IL_OPT_INT_KW(C, irq_cpu, "irq_cpu", 0, IL_CPUS_MAX - 1, "same", -1, "same",
		      "CPU taking the completion interrupts (same: the client's)"),
	IL_OPT_DUR(C, think_ns, "think", 0, 1e12, "0", "sleep between transactions"),
	IL_OPT_END,
};
#undef C

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct tx_cfg *c = cfgp;
	struct tx_state *st = stp;
	int n = il_sim_ncpus(s);

	if (c->irq_cpu >= n)
		return il_err_set(err, EINVAL, "transactions: irq_cpu %d does not exist (platform has %d)",
				  c->irq_cpu, n);
	st->n = c->clients ? (int)c->clients : n;
	assert(st->n <= TX_MAX_CLIENTS); /* options are bounded by it, the engine's CPUs too */
	for (int i = 0; i < st->n; i++) {
		int t = il_sim_task_add(s, i % n, (void *)(intptr_t)i);
		il_sim_task_wake(s, -1, t);
	}
	il_hist_init(&st->lat);
	return 0;
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct tx_cfg *c = cfgp;
	struct tx_state *st = stp;
	struct tx_client *cl = &st->c[(intptr_t)il_sim_task_data(s, task)];

	(void)lat;
	il_sim_task_set_iowait(s, task, false);
	if (cl->thinking || !cl->started) {
		cl->thinking = false;
		cl->started = true;
		cl->start = il_sim_now(s);
		cl->io_left = c->ios;
	}
	il_sim_task_run(s, task, c->cycles);
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct tx_cfg *c = cfgp;
	struct tx_state *st = stp;
	struct tx_client *cl = &st->c[(intptr_t)il_sim_task_data(s, task)];
	int64_t now = il_sim_now(s);

	if (cl->io_left > 0) {
		cl->io_left--;
		int cpu = c->irq_cpu >= 0 ? c->irq_cpu : il_sim_task_cpu(s, task);
		il_sim_irq_at(s, cpu, now + il_dist_sample(&c->io, il_sim_rng(s)), task);
		il_sim_task_set_iowait(s, task, true);
		il_sim_task_block(s, task, -1);
		return;
	}
	st->done++;
	il_hist_add(&st->lat, now - cl->start);
	if (c->think_ns > 0) {
		cl->thinking = true;
		il_sim_task_sleep_until(s, task, now + c->think_ns);
		return;
	}
	/* no think time: the next transaction starts at once */
	cl->start = now;
	cl->io_left = c->ios;
	il_sim_task_run(s, task, c->cycles);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	struct tx_state *st = stp;
	double secs = (double)il_sim_now(s) * 1e-9;

	(void)cfgp;
	il_metric_add(out, "transactions", "clients", "", IL_BETTER_NONE, false, st->n);
	il_metric_add(out, "transactions", "done", "", IL_BETTER_HIGHER, false, (double)st->done);
	il_metric_add(out, "transactions", "tps", "1/s", IL_BETTER_HIGHER, true,
		      secs > 0 ? (double)st->done / secs : 0);
	il_metric_add(out, "transactions", "latency_mean_us", "us", IL_BETTER_LOWER, false,
		      il_hist_mean(&st->lat) / 1000);
	il_metric_add(out, "transactions", "latency_p99_us", "us", IL_BETTER_LOWER, false,
		      st->lat.count ? (double)il_hist_percentile(&st->lat, 99) / 1000 : 0);
}

const struct il_workload il_wl_transactions = {
	.name = "transactions",
	.summary = "pgbench-like clients computing and waiting on I/O completions: TPS, latency",
	.opts = opts,
	.config_size = sizeof(struct tx_cfg),
	.state_size = sizeof(struct tx_state),
	.min_cpus = 1,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.report = report,
};
