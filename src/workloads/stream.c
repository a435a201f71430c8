// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream (netperf UDP_STREAM-like): a CPU-bound sender computes each message
 * (a fixed cost plus a cost per byte, in cycles, so its speed follows its
 * core's frequency) and queues it to a receiver on another CPU, waking it if
 * it sleeps; the receiver drains its queue and blocks when it is empty.
 * Messages beyond the receive buffer are dropped. One phase per message size.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/workload.h"

extern const struct il_workload il_wl_stream;

#define ST_MAX_SIZES 32
/* cycles per byte of a message, to send and to receive (on top of the *_work options) */
#define ST_CYCLES_PER_BYTE 0.5

struct st_cfg {
	int nsizes;
	uint64_t sizes[ST_MAX_SIZES];
	int64_t phase_ns;
	int sender, receiver;
	uint64_t send_cycles, recv_cycles;
	uint64_t rcvbuf;             /* messages */
};

struct st_row {
	uint64_t sent, received, dropped, wakeups;
};

struct st_state {
	int snd, rcv;
	int phase;
	int64_t phase_end;
	uint64_t queued;
	struct st_row rows[ST_MAX_SIZES];
};

#define C struct st_cfg
static const struct il_opt opts[] = {
	IL_OPT_U64_LIST(C, sizes, nsizes, "sizes", 1, ST_MAX_SIZES, 1, 1 << 24,
			"64,128,256,1024,4096,16384", "message sizes, bytes"),
	IL_OPT_DUR(C, phase_ns, "phase", 1, 1e12, "100ms", "simulated time per size"),
	IL_OPT_INT(C, sender, "sender", 0, IL_CPUS_MAX - 1, "0", "sender CPU"),
	IL_OPT_INT(C, receiver, "receiver", 0, IL_CPUS_MAX - 1, "1", "receiver CPU"),
	IL_OPT_U64(C, send_cycles, "send_work", 0, 1ull << 40, "3000",
		   "cycles per message sent (plus 0.5 per byte)"),
	IL_OPT_U64(C, recv_cycles, "recv_work", 0, 1ull << 40, "2000",
		   "cycles per message received (plus 0.5 per byte)"),
	IL_OPT_U64(C, rcvbuf, "rcvbuf", 1, 1ull << 30, "256", "receive queue length, messages"),
	IL_OPT_END,
};
#undef C

static int check(const void *cfgp, struct il_err *err)
{
	const struct st_cfg *c = cfgp;

	if (c->sender == c->receiver)
		return il_err_set(err, EINVAL, "stream: sender and receiver must be different CPUs");
	return 0;
}

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct st_cfg *c = cfgp;
	struct st_state *st = stp;
	if (il_wl_check_cpus(&il_wl_stream, s, c->sender, c->receiver, err))
		return -EINVAL;
	st->snd = il_sim_task_add(s, c->sender, NULL);
	st->rcv = il_sim_task_add(s, c->receiver, NULL);
	st->phase_end = c->phase_ns;
	il_sim_task_wake(s, -1, st->snd);
	return 0;
}

static uint64_t cost(uint64_t base, uint64_t size)
{
	return base + (uint64_t)(ST_CYCLES_PER_BYTE * (double)size + 0.5);
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct st_cfg *c = cfgp;
	struct st_state *st = stp;
	uint64_t size = c->sizes[st->phase < c->nsizes ? st->phase : c->nsizes - 1];

	(void)lat;
	if (task == st->snd) {
		il_sim_task_run(s, task, cost(c->send_cycles, size));
	} else {
		if (st->phase < c->nsizes)
			st->rows[st->phase].wakeups++;
		il_sim_task_run(s, task, cost(c->recv_cycles, size));
	}
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct st_cfg *c = cfgp;
	struct st_state *st = stp;
	int64_t now = il_sim_now(s);

	if (now >= st->phase_end && st->phase < c->nsizes) {
		st->phase++;
		st->phase_end += c->phase_ns;
		st->queued = 0;
		if (st->phase == c->nsizes) {
			il_sim_stop(s);
			il_sim_task_block(s, task, -1);
			return;
		}
	}
	if (st->phase >= c->nsizes) {
		il_sim_task_block(s, task, -1);
		return;
	}
	uint64_t size = c->sizes[st->phase];
	struct st_row *r = &st->rows[st->phase];
	if (task == st->snd) {
		r->sent++;
		if (st->queued >= c->rcvbuf) {
			r->dropped++;
		} else {
			st->queued++;
			il_sim_task_wake(s, c->sender, st->rcv);
		}
		il_sim_task_run(s, task, cost(c->send_cycles, size));
		return;
	}
	if (st->queued > 0) {
		st->queued--;
		r->received++;
	}
	if (st->queued > 0)
		il_sim_task_run(s, task, cost(c->recv_cycles, size));
	else
		il_sim_task_block(s, task, -1);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	const struct st_cfg *c = cfgp;
	struct st_state *st = stp;
	int from = out->n;

	(void)s;
	for (int k = 0; k < st->phase && k < c->nsizes; k++) {
		const struct st_row *r = &st->rows[k];
		char row[40];
		double secs = (double)c->phase_ns * 1e-9;
		snprintf(row, sizeof(row), "%lluB", (unsigned long long)c->sizes[k]);
		il_metric_add(out, row, "throughput_Mbps", "Mb/s", IL_BETTER_HIGHER, true,
			      (double)r->received * (double)c->sizes[k] * 8 / secs / 1e6);
		il_metric_add(out, row, "sent", "", IL_BETTER_NONE, false, (double)r->sent);
		il_metric_add(out, row, "received", "", IL_BETTER_HIGHER, false, (double)r->received);
		il_metric_add(out, row, "dropped", "", IL_BETTER_LOWER, false, (double)r->dropped);
		il_metric_add(out, row, "receiver_wakeups", "", IL_BETTER_NONE, false, (double)r->wakeups);
	}
	il_metrics_mark_grid(out, from);
}

const struct il_workload il_wl_stream = {
	.name = "stream",
	.summary = "netperf UDP_STREAM-like: CPU-bound sender, receiver woken per message",
	.opts = opts,
	.config_size = sizeof(struct st_cfg),
	.state_size = sizeof(struct st_state),
	.min_cpus = 2,
	.check = check,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.report = report,
};
