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

struct st_cfg {
	int nsizes;
	uint64_t sizes[ST_MAX_SIZES];
	int64_t phase_ns;
	int sender, receiver;
	uint64_t send_cycles, recv_cycles;
	double send_cpb, recv_cpb;   /* cycles per byte */
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

static const char help[] =
	"  sizes=64,128,256,1024,4096,16384  message sizes, bytes\n"
	"  phase=100ms      simulated time per size\n"
	"  sender=0         sender CPU\n"
	"  receiver=1       receiver CPU\n"
	"  send_work=3000   cycles per message sent (plus 0.5 per byte)\n"
	"  recv_work=2000   cycles per message received (plus 0.5 per byte)\n"
	"  rcvbuf=256       receive queue length, messages\n";

static int configure(void *cfgp, const struct il_wl_opt *opts, int nopts, struct il_err *err)
{
	struct st_cfg *c = cfgp;
	static const uint64_t def[] = { 64, 128, 256, 1024, 4096, 16384 };
	uint64_t v;

	c->nsizes = 6;
	memcpy(c->sizes, def, sizeof(def));
	c->phase_ns = 100000000;
	c->sender = 0;
	c->receiver = 1;
	c->send_cycles = 3000;
	c->recv_cycles = 2000;
	c->send_cpb = c->recv_cpb = 0.5;
	c->rcvbuf = 256;
	for (int i = 0; i < nopts; i++) {
		const char *k = opts[i].key, *val = opts[i].value;
		if (!strcmp(k, "sizes")) {
			char buf[160], *save = NULL;
			snprintf(buf, sizeof(buf), "%s", val);
			c->nsizes = 0;
			for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				if (c->nsizes == ST_MAX_SIZES)
					return il_err_set(err, EINVAL, "sizes: at most %d", ST_MAX_SIZES);
				if (il_wl_parse_u64(k, t, 1, 1 << 24, &c->sizes[c->nsizes], err))
					return -EINVAL;
				c->nsizes++;
			}
			if (!c->nsizes)
				return il_err_set(err, EINVAL, "sizes: empty list");
		} else if (!strcmp(k, "phase")) {
			if (il_wl_parse_dur(k, val, &c->phase_ns, err))
				return -EINVAL;
			if (c->phase_ns <= 0)
				return il_err_set(err, EINVAL, "phase: must be positive");
		} else if (!strcmp(k, "sender") || !strcmp(k, "receiver")) {
			if (il_wl_parse_u64(k, val, 0, 65535, &v, err))
				return -EINVAL;
			*(k[0] == 's' ? &c->sender : &c->receiver) = (int)v;
		} else if (!strcmp(k, "send_work")) {
			if (il_wl_parse_u64(k, val, 0, 1ull << 40, &c->send_cycles, err))
				return -EINVAL;
		} else if (!strcmp(k, "recv_work")) {
			if (il_wl_parse_u64(k, val, 0, 1ull << 40, &c->recv_cycles, err))
				return -EINVAL;
		} else if (!strcmp(k, "rcvbuf")) {
			if (il_wl_parse_u64(k, val, 1, 1ull << 30, &c->rcvbuf, err))
				return -EINVAL;
		} else {
			return il_wl_unknown_opt(&il_wl_stream, k, err);
		}
	}
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

static uint64_t cost(uint64_t base, double cpb, uint64_t size)
{
	return base + (uint64_t)(cpb * (double)size + 0.5);
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct st_cfg *c = cfgp;
	struct st_state *st = stp;
	uint64_t size = c->sizes[st->phase < c->nsizes ? st->phase : c->nsizes - 1];

	(void)lat;
	if (task == st->snd) {
		il_sim_task_run(s, task, cost(c->send_cycles, c->send_cpb, size));
	} else {
		if (st->phase < c->nsizes)
			st->rows[st->phase].wakeups++;
		il_sim_task_run(s, task, cost(c->recv_cycles, c->recv_cpb, size));
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
		il_sim_task_run(s, task, cost(c->send_cycles, c->send_cpb, size));
		return;
	}
	if (st->queued > 0) {
		st->queued--;
		r->received++;
	}
	if (st->queued > 0)
		il_sim_task_run(s, task, cost(c->recv_cycles, c->recv_cpb, size));
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
	.options_help = help,
	.config_size = sizeof(struct st_cfg),
	.state_size = sizeof(struct st_state),
	.min_cpus = 2,
	.configure = configure,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.report = report,
};
