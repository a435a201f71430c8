// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream (netperf UDP_STREAM over loopback): a sender that never blocks and
 * a receiver on another core, one phase per message size.
 *
 * What one message costs, following the kernel's paths (docs/sim.md,
 * "stream"; the evidence is in docs/scenarios.md):
 * - the sender's sendto(): the syscall, an skb, copy_from_user of S bytes
 *   from its own (L1/L2-resident) buffer, UDP/IP output, loopback_xmit
 *   queueing on the sending CPU's backlog, and the NET_RX softirq on the
 *   sending CPU (ip_rcv, udp_rcv, the receive queue, sk_data_ready waking
 *   the receiver): send_work cycles + S x send_copy cycles (+ S x
 *   send_copy_ns ns);
 * - the receiver's recvfrom(): the syscall, the dequeue, copy_to_user of
 *   S bytes that the sender's core wrote (served from L3 / the other
 *   core's cache, on the uncore clock), the skb freed: recv_work cycles +
 *   S x recv_copy cycles + S x recv_copy_ns ns.
 * Cycles follow the core clock; the ns parts do not. The copy defaults
 * are estimates derived from single-core cache bandwidths of a Haswell-EP
 * (see the option help). A message that finds the receive queue full is
 * dropped (counted as sent, not received).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/platform.h"
#include "idlelab/workload.h"
#include "wl_api.h"

extern const struct il_workload il_wl_stream;

#define ST_MAX_SIZES 32

struct st_cfg {
	int nsizes;
	uint64_t sizes[ST_MAX_SIZES];
	int64_t phase_ns;
	int sender, receiver;        /* receiver -1: the next core (il_wl_other_core) */
	uint64_t send_cycles, recv_cycles;
	double send_copy, send_copy_ns;  /* per byte: cycles, ns */
	double recv_copy, recv_copy_ns;
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
	IL_OPT_INT_KW(C, receiver, "receiver", 0, IL_CPUS_MAX - 1, "other-core", -1, "other-core",
		      "receiver CPU (other-core: the first thread of the sender's next core)"),
	IL_OPT_U64(C, send_cycles, "send_work", 0, 1ull << 40, "3000",
		   "cycles per message sent: syscall, skb, UDP/IP, loopback, softirq, wake-up "
		   "(estimate, no published figure)"),
	IL_OPT_DOUBLE(C, send_copy, "send_copy", 0, 1e6, "0.129",
		      "copy_from_user, cycles per byte (L2: 54 GiB/s / 3 streams = 0.0517 ns/B "
		      "at 2.5 GHz, estimate)"),
	IL_OPT_DOUBLE(C, send_copy_ns, "send_copy_ns", 0, 1e6, "0",
		      "copy_from_user, frequency-independent ns per byte"),
	IL_OPT_U64(C, recv_cycles, "recv_work", 0, 1ull << 40, "2000",
		   "cycles per message received: syscall, dequeue, skb free (estimate, no published "
		   "figure)"),
	IL_OPT_DOUBLE(C, recv_copy, "recv_copy", 0, 1e6, "0",
		      "copy_to_user, cycles per byte"),
	IL_OPT_DOUBLE(C, recv_copy_ns, "recv_copy_ns", 0, 1e6, "0.0873",
		      "copy_to_user of another core's data, ns per byte on the uncore clock (L3: "
		      "32 GiB/s / 3 streams, estimate)"),
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
	int rcv = c->receiver;

	if (il_wl_check_cpus(&il_wl_stream, s, c->sender, c->sender, err))
		return -EINVAL;
	if (rcv < 0)
		rcv = il_wl_other_core(s, c->sender);
	if (il_wl_check_cpus(&il_wl_stream, s, rcv, rcv, err))
		return -EINVAL;
	if (rcv == c->sender)
		return il_err_set(err, EINVAL, "stream: sender and receiver must be different CPUs");
	st->snd = il_sim_task_add(s, c->sender, NULL);
	st->rcv = il_sim_task_add(s, rcv, NULL);
	st->phase_end = c->phase_ns;
	il_sim_task_wake(s, -1, st->snd);
	return 0;
}

/* One message of size bytes on one side: work cycles + size x copy cycles, size x copy_ns ns. */
static void message(struct il_sim *s, int task, uint64_t work, double copy, double copy_ns,
		    uint64_t size)
{
	il_sim_task_work(s, task, work + (uint64_t)(copy * (double)size + 0.5),
			 (int64_t)(copy_ns * (double)size + 0.5));
}

/*
 * The sender never blocks: a message that would take it no time (no work,
 * or cycles that round to 0 ns at its clock) takes 1 ns, so that the
 * simulated time goes on rather than the run sending at one instant for
 * ever.
 */
static void send_one(const struct st_cfg *c, struct il_sim *s, int task, uint64_t size)
{
	uint64_t cycles = c->send_cycles + (uint64_t)(c->send_copy * (double)size + 0.5);
	int64_t ns = (int64_t)(c->send_copy_ns * (double)size + 0.5);

	if (!ns && (double)cycles * 1000.0 / il_sim_cpu_mhz(s, c->sender) < 0.5)
		ns = 1;
	il_sim_task_work(s, task, cycles, ns);
}

static void recv_one(const struct st_cfg *c, struct il_sim *s, int task, uint64_t size)
{
	message(s, task, c->recv_cycles, c->recv_copy, c->recv_copy_ns, size);
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct st_cfg *c = cfgp;
	struct st_state *st = stp;
	uint64_t size = c->sizes[st->phase < c->nsizes ? st->phase : c->nsizes - 1];

	(void)lat;
	if (task == st->snd) {
		send_one(c, s, task, size);
	} else {
		if (st->phase < c->nsizes)
			st->rows[st->phase].wakeups++;
		recv_one(c, s, task, size);
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
		/* the softirq on the sending CPU queues it and wakes the receiver */
		r->sent++;
		if (st->queued >= c->rcvbuf) {
			r->dropped++;
		} else {
			st->queued++;
			il_sim_task_wake(s, c->sender, st->rcv);
		}
		send_one(c, s, task, size);
		return;
	}
	if (st->queued > 0) {
		st->queued--;
		r->received++;
	}
	if (st->queued > 0)
		recv_one(c, s, task, size);
	else
		il_sim_task_block(s, task, -1);
}

/* Every size's phase must fit in the run: never a row dropped silently. */
static int finished(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct st_cfg *c = cfgp;
	const struct st_state *st = stp;

	/* the last phase may end with the run itself */
	if (st->phase >= c->nsizes || (st->phase == c->nsizes - 1 && il_sim_now(s) >= st->phase_end))
		return 0;
	return il_err_set(err, EINVAL, "stream: %d of %d sizes completed in %.3f s; the phases need "
			  "%.3f s: give a longer --duration or a shorter phase", st->phase, c->nsizes,
			  (double)il_sim_now(s) * 1e-9, (double)c->phase_ns * c->nsizes * 1e-9);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	const struct st_cfg *c = cfgp;
	struct st_state *st = stp;
	int from = out->n, done = st->phase;

	/* a last phase that ends with the run is complete (finished()): its row too */
	if (done == c->nsizes - 1 && il_sim_now(s) >= st->phase_end)
		done++;
	for (int k = 0; k < done && k < c->nsizes; k++) {
		const struct st_row *r = &st->rows[k];
		char row[40];
		double secs = (double)c->phase_ns * 1e-9;
		double bits = (double)c->sizes[k] * 8;
		snprintf(row, sizeof(row), "%lluB", (unsigned long long)c->sizes[k]);
		il_metric_add(out, row, "throughput_Mbps", "Mb/s", IL_BETTER_HIGHER, true,
			      (double)r->received * bits / secs / 1e6);
		il_metric_add(out, row, "send_Mbps", "Mb/s", IL_BETTER_HIGHER, true,
			      (double)r->sent * bits / secs / 1e6);
		il_metric_add(out, row, "sent", "", IL_BETTER_NONE, false, (double)r->sent);
		il_metric_add(out, row, "received", "", IL_BETTER_HIGHER, false, (double)r->received);
		il_metric_add(out, row, "dropped", "", IL_BETTER_LOWER, false, (double)r->dropped);
		il_metric_add(out, row, "receiver_wakeups", "", IL_BETTER_NONE, false, (double)r->wakeups);
	}
	il_metrics_mark_grid(out, from);
}

/* At most one receiver idle period per message, each size for its phase. */
static double est_idle_periods(const void *cfgp, const struct il_platform *p, int64_t d)
{
	const struct st_cfg *c = cfgp;
	double hz = il_wl_est_hz(p), n = 0, left = (double)d;

	for (int i = 0; i < c->nsizes && left > 0; i++) {
		double sz = (double)c->sizes[i];
		double send = ((double)c->send_cycles + c->send_copy * sz) / hz * 1e9 + c->send_copy_ns * sz;
		double recv = ((double)c->recv_cycles + c->recv_copy * sz) / hz * 1e9 + c->recv_copy_ns * sz;
		double phase = (double)c->phase_ns < left ? (double)c->phase_ns : left;
		n += phase / ((send > recv ? send : recv) + 1);
		left -= phase;
	}
	return n;
}

const struct il_workload il_wl_stream = {
	.name = "stream",
	.summary = "netperf UDP_STREAM over loopback: a sender that never blocks, a receiver on "
		   "another core woken per message",
	.opts = opts,
	.config_size = sizeof(struct st_cfg),
	.state_size = sizeof(struct st_state),
	.min_cpus = 2,
	.check = check,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.finished = finished,
	.report = report,
	.est_idle_periods = est_idle_periods,
};
