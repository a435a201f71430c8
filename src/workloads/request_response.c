// SPDX-License-Identifier: GPL-2.0-only
/*
 * request-response (tbench-like): client/server pairs spread over the CPUs.
 * A client computes, sends a request (a message that wakes its server),
 * blocks; the server computes, replies (waking the client) and blocks.
 * Busy and idle phases of tens of µs alternate on every CPU. Reports
 * throughput in MB/s for the payload size and the round-trip latency.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/hist.h"
#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/workload.h"

extern const struct il_workload il_wl_request_response;

#define RR_MAX_PAIRS 4096
/* pairs=0 makes one per two CPUs: that many must fit */
_Static_assert(RR_MAX_PAIRS >= IL_CPUS_MAX / 2, "request-response: too few pairs for IL_CPUS_MAX CPUs");

struct rr_cfg {
	uint64_t pairs;           /* 0 = one per two CPUs */
	uint64_t payload;         /* bytes per request and per reply */
	uint64_t client_cycles, server_cycles;
	double cycles_per_byte;   /* copy cost */
};

struct rr_state {
	int npairs;
	int client[RR_MAX_PAIRS], server[RR_MAX_PAIRS];
	int64_t sent[RR_MAX_PAIRS];
	uint64_t trips;
	struct il_hist rtt;
};

#define C struct rr_cfg
static const struct il_opt opts[] = {
	IL_OPT_U64(C, pairs, "pairs", 0, RR_MAX_PAIRS, "0", "client/server pairs (0: one per two CPUs)"),
	IL_OPT_U64(C, payload, "payload", 1, 1ull << 30, "4096", "bytes per request and per reply"),
	IL_OPT_U64(C, client_cycles, "client_work", 0, 1ull << 40, "8000",
		   "cycles a client computes per request"),
	IL_OPT_U64(C, server_cycles, "server_work", 0, 1ull << 40, "12000",
		   "cycles a server computes per request"),
	IL_OPT_DOUBLE(C, cycles_per_byte, "copy", 0, 1e6, "0.25", "cycles per byte to send or receive"),
	IL_OPT_END,
};
#undef C

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct rr_cfg *c = cfgp;
	struct rr_state *st = stp;
	int n = il_sim_ncpus(s);

	st->npairs = c->pairs ? (int)c->pairs : (n / 2 > 0 ? n / 2 : 1);
	if (st->npairs > RR_MAX_PAIRS)
		return il_err_set(err, EINVAL, "request-response: at most %d pairs", RR_MAX_PAIRS);
	for (int i = 0; i < st->npairs; i++) {
		/* task data: pair index + 1, negative for servers */
		st->client[i] = il_sim_task_add(s, (2 * i) % n, (void *)(intptr_t)(i + 1));
		st->server[i] = il_sim_task_add(s, (2 * i + 1) % n, (void *)(intptr_t)-(i + 1));
		il_sim_task_wake(s, -1, st->client[i]);
	}
	il_hist_init(&st->rtt);
	return 0;
}

static uint64_t burst(const struct rr_cfg *c, uint64_t work)
{
	return work + (uint64_t)(c->cycles_per_byte * (double)c->payload + 0.5);
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct rr_cfg *c = cfgp;
	struct rr_state *st = stp;
	intptr_t id = (intptr_t)il_sim_task_data(s, task);

	(void)lat;
	if (id > 0) {
		int i = (int)id - 1;
		if (st->sent[i] > 0) {
			il_hist_add(&st->rtt, il_sim_now(s) - st->sent[i]);
			st->trips++;
		}
		il_sim_task_run(s, task, burst(c, c->client_cycles));
	} else {
		il_sim_task_run(s, task, burst(c, c->server_cycles));
	}
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	struct rr_state *st = stp;
	intptr_t id = (intptr_t)il_sim_task_data(s, task);
	int cpu = il_sim_task_cpu(s, task);

	(void)cfgp;
	if (id > 0) {
		int i = (int)id - 1;
		st->sent[i] = il_sim_now(s);
		il_sim_task_wake(s, cpu, st->server[i]);
	} else {
		il_sim_task_wake(s, cpu, st->client[-id - 1]);
	}
	il_sim_task_block(s, task, -1);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	const struct rr_cfg *c = cfgp;
	struct rr_state *st = stp;
	double secs = (double)il_sim_now(s) * 1e-9;

	il_metric_add(out, "request-response", "pairs", "", IL_BETTER_NONE, false, st->npairs);
	il_metric_add(out, "request-response", "round_trips", "", IL_BETTER_HIGHER, false, (double)st->trips);
	il_metric_add(out, "request-response", "throughput_MBps", "MB/s", IL_BETTER_HIGHER, true,
		      secs > 0 ? (double)st->trips * 2.0 * (double)c->payload / secs / 1e6 : 0);
	il_metric_add(out, "request-response", "rtt_mean_us", "us", IL_BETTER_LOWER, false,
		      il_hist_mean(&st->rtt) / 1000);
	il_metric_add(out, "request-response", "rtt_p50_us", "us", IL_BETTER_LOWER, false,
		      st->rtt.count ? (double)il_hist_percentile(&st->rtt, 50) / 1000 : 0);
	il_metric_add(out, "request-response", "rtt_p99_us", "us", IL_BETTER_LOWER, false,
		      st->rtt.count ? (double)il_hist_percentile(&st->rtt, 99) / 1000 : 0);
}

const struct il_workload il_wl_request_response = {
	.name = "request-response",
	.summary = "tbench-like client/server pairs: MB/s and round-trip latency",
	.opts = opts,
	.config_size = sizeof(struct rr_cfg),
	.state_size = sizeof(struct rr_state),
	.min_cpus = 1,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.report = report,
};
