// SPDX-License-Identifier: GPL-2.0-only
/*
 * request-response (tbench): client/server pairs over loopback TCP, one
 * server process per client connection (dbench 4.0's tbench_srv forks one
 * per connection). A client computes and sends a request (waking its
 * server), then blocks in recv(); the server computes, replies (waking the
 * client) and blocks. Reports throughput in MB/s as tbench counts it, and
 * the round-trip latency.
 *
 * Where a woken task runs (placement=):
 * - wake-affine (default): as the fair class decides a wake-up
 *   (kernel/sched/fair.c, select_task_rq_fair -> wake_affine ->
 *   select_idle_sibling; the structure of v5.12 .. v6.x, see docs/sim.md):
 *   a TCP loopback wake-up is synchronous (sock_def_readable ->
 *   wake_up_interruptible_sync_poll); wake_affine_idle() takes the waker's
 *   CPU when it runs only the waker, else the previous CPU if idle;
 *   select_idle_sibling() then keeps an idle target, else an idle previous
 *   CPU in the target's LLC, else scans the target's LLC for an idle core,
 *   then an idle CPU, else stays on the target. Tasks start where fork
 *   balancing would put them: the clients first, then the servers, each on
 *   the least loaded package, LLC, core and thread;
 * - fixed: client i on CPU 2i, server i on CPU 2i + 1 (mod the CPUs).
 *
 * Message sizes (mix=): payload (each request and reply `payload` bytes,
 * both counted) or tbench (the exchange classes of dbench's client.txt,
 * only ReadX/WriteX data counted, as tbench counts it).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/hist.h"
#include "idlelab/rng.h"
#include "idlelab/sim.h"
#include "idlelab/stats.h"
#include "idlelab/platform.h"
#include "idlelab/workload.h"
#include "wl_api.h"

extern const struct il_workload il_wl_request_response;

#define RR_MAX_PAIRS 4096
/* pairs=0 makes one per two CPUs: that many must fit */
_Static_assert(RR_MAX_PAIRS >= IL_CPUS_MAX / 2, "request-response: too few pairs for IL_CPUS_MAX CPUs");

enum rr_placement { RR_WAKE_AFFINE = 0, RR_FIXED };
static const char *const rr_placements[] = { "wake-affine", "fixed", NULL };
enum rr_mix { RR_PAYLOAD = 0, RR_TBENCH };
static const char *const rr_mixes[] = { "payload", "tbench", NULL };

/*
 * tbench's exchanges: one per operation of dbench 4.0's loadfile
 * (Debian dbench 4.0-2.1 /usr/share/dbench/client.txt, 458 342 operations
 * a pass) with the sizes dbench's sockio.c sends: request, reply, and the
 * bytes tbench counts (ReadX/WriteX data). Counts and the named sizes are
 * from that file; the ReadX/WriteX of other sizes (one class at the mean
 * their total leaves, 7521 B), FIND_FIRST's reply (39 + 90 x count, at the
 * mean the reply total leaves) and the other operations' request (the mean
 * the request total leaves) are derived from the totals: estimates. The
 * table gives the published means: 5428 B counted, 2309 B request,
 * 10720 B reply per exchange (docs/sim.md).
 */
static const struct rr_class {
	uint32_t count, req, resp, counted;
} tbench_classes[] = {
	{ 83172, 59, 59 + 4096, 4096 },        /* ReadX 4 KiB */
	{ 16641, 59, 59 + 61440, 61440 },      /* ReadX 60 KiB */
	{ 24386, 59, 59 + 7521, 7521 },        /* ReadX, other sizes */
	{ 12658, 59 + 65536, 55, 65536 },      /* WriteX 64 KiB */
	{ 9942, 59 + 4096, 55, 4096 },         /* WriteX 4 KiB */
	{ 7424, 59 + 1, 55, 1 },               /* WriteX 1 B */
	{ 9478, 59 + 7521, 55, 7521 },         /* WriteX, other sizes */
	{ 27765, 363, 120305, 0 },             /* FIND_FIRST */
	{ 266876, 363, 62, 0 },                /* NTCreateX, QUERY_PATH_INFORMATION, Close, ... */
};
#define RR_NCLASSES (sizeof(tbench_classes) / sizeof(tbench_classes[0]))

struct rr_cfg {
	uint64_t pairs;           /* 0 = one per two CPUs */
	enum rr_placement placement;
	enum rr_mix mix;
	uint64_t payload;         /* mix=payload: bytes per request and per reply */
	uint64_t client_cycles, server_cycles;
	int64_t client_ns, server_ns;
	double send_copy;         /* cycles per byte sent (the sender's own buffer) */
	double recv_copy_ns;      /* ns per byte received (written by the other side's core) */
	int64_t start_ns;         /* the clients start then: the machine idles before */
	uint64_t release_cycles;  /* the releasing task's work per client woken */
	uint64_t setup_cycles;    /* start > 0: each task's work at creation (fork, connect) */
};

struct rr_state {
	int npairs;
	int client[RR_MAX_PAIRS], server[RR_MAX_PAIRS];
	int64_t sent[RR_MAX_PAIRS];
	uint32_t req[RR_MAX_PAIRS], resp[RR_MAX_PAIRS]; /* the exchange in flight */
	uint64_t counted[RR_MAX_PAIRS];                  /* and the bytes tbench counts for it */
	uint64_t trips, bytes, migrations, wakes;
	uint64_t class_total;
	struct il_hist rtt;
	int releaser, released;   /* start > 0: the task that releases the clients, and how many */
	/* start > 0: the clients and servers whose creation (setup run) is done */
	uint8_t ready_client[RR_MAX_PAIRS], ready_server[RR_MAX_PAIRS];
	/* each CPU's LLC (il_sim_llc_of(), kept: a wake-up asks it several times, each two divisions) */
	uint16_t llc[IL_CPUS_MAX];
	/* burst(): the last sizes' copy costs (the same each exchange with mix=payload) */
	uint32_t memo_sent, memo_received;
	uint64_t memo_send_cycles;
	int64_t memo_recv_ns;
};
_Static_assert(IL_CPUS_MAX <= 65536, "request-response: LLC numbers are 16 bits");

#define C struct rr_cfg
static const struct il_opt opts[] = {
	IL_OPT_U64(C, pairs, "pairs", 0, RR_MAX_PAIRS, "0", "client/server pairs (0: one per two CPUs)"),
	IL_OPT_ENUM(C, placement, enum rr_placement, "placement", rr_placements, "wake-affine",
		    "where a woken task runs: wake-affine (the fair class's choice), fixed (client "
		    "2i, server 2i+1)"),
	IL_OPT_ENUM(C, mix, enum rr_mix, "mix", rr_mixes, "payload",
		    "message sizes: payload (each way, both counted), tbench (dbench client.txt "
		    "exchanges, ReadX/WriteX data counted)"),
	IL_OPT_U64(C, payload, "payload", 1, 1ull << 30, "4096", "mix=payload: bytes per request and per reply"),
	IL_OPT_U64(C, client_cycles, "client_work", 0, 1ull << 40, "8000",
		   "cycles a client runs per exchange: send, receive, TCP (estimate)"),
	IL_OPT_DUR_NS(C, client_ns, "client_work_ns", 0, 1e12, "0",
		      "frequency-independent ns of the same"),
	IL_OPT_U64(C, server_cycles, "server_work", 0, 1ull << 40, "12000",
		   "cycles a server runs per exchange: receive, send, loopback, softirq (estimate)"),
	IL_OPT_DUR_NS(C, server_ns, "server_work_ns", 0, 1e12, "0",
		      "frequency-independent ns of the same"),
	IL_OPT_DOUBLE(C, send_copy, "send_copy", 0, 1e6, "0.129",
		      "cycles per byte sent, from the sender's own cache (estimate, as stream's)"),
	IL_OPT_DOUBLE(C, recv_copy_ns, "recv_copy_ns", 0, 1e6, "0.0873",
		      "ns per byte received, written by the other side's core (estimate, as stream's)"),
	IL_OPT_DUR(C, start_ns, "start", 0, 1e12, "0",
		   "when the clients start: the machine idles until then, as before a benchmark"),
	IL_OPT_U64(C, release_cycles, "release_work", 0, 1ull << 40, "2000",
		   "start > 0: cycles of the releasing task (CPU 0) per client it wakes (estimate)"),
	IL_OPT_U64(C, setup_cycles, "setup_work", 0, 1ull << 40, "200000",
		   "start > 0: cycles each client and server runs when created at time 0 (fork, "
		   "connect, accept) before it waits (estimate)"),
	IL_OPT_END,
};
#undef C

/* ------------------------------------------------ topology and placement */

static bool share_llc(const struct rr_state *st, int a, int b)
{
	return st->llc[a] == st->llc[b];
}

/* The cores of cpu's LLC: the first and the count (CPUs are numbered package, core, thread). */
static void llc_cores(const struct il_sim *s, int cpu, int *first, int *n)
{
	const struct il_platform *p = il_sim_platform(s);
	int cpp = p->cores_per_package, llc = il_platform_llc_cores(p);
	int core = il_sim_core_of(s, cpu), pkg = il_sim_package_of(s, cpu);
	int in_pkg = core - pkg * cpp;
	*first = pkg * cpp + in_pkg / llc * llc;
	*n = in_pkg / llc * llc + llc <= cpp ? llc : cpp - in_pkg / llc * llc;
}

static bool core_idle(const struct il_sim *s, int core)
{
	int tpc = il_sim_platform(s)->threads_per_core;
	for (int t = 0; t < tpc; t++)
		if (!il_sim_cpu_idle(s, core * tpc + t))
			return false;
	return true;
}

/*
 * select_idle_sibling(p, prev, target), at the model's level: the target
 * if idle; prev if idle and cache-affine to it; in target's LLC an idle
 * core, else (prev cache-affine) an idle SMT sibling of prev, else an idle
 * CPU; else the target. Scans start after the target and wrap, as
 * for_each_cpu_wrap(.., target + 1) does, here in the model's CPU order.
 * The kernel's has_idle_cores hint is taken as exact and its scan limits
 * (SIS_PROP, SIS_UTIL) are not modelled.
 */
static int select_idle_sibling(const struct il_sim *s, const struct rr_state *st, int prev,
			       int target)
{
	int tpc = il_sim_platform(s)->threads_per_core;
	int first, n;

	if (il_sim_cpu_idle(s, target))
		return target;
	if (prev != target && share_llc(st, prev, target) && il_sim_cpu_idle(s, prev))
		return prev;
	llc_cores(s, target, &first, &n);
	int tcore = il_sim_core_of(s, target);
	for (int k = 1; k <= n; k++) {
		/* (tcore - first + k) % n: the sum is in 1 .. 2n - 1, no division needed */
		int core = tcore - first + k;
		core = first + (core >= n ? core - n : core);
		if (tpc > 1 && core_idle(s, core))
			return core * tpc;
	}
	if (share_llc(st, prev, target)) {
		int pcore = il_sim_core_of(s, prev);
		for (int t = 0; t < tpc; t++)
			if (il_sim_cpu_idle(s, pcore * tpc + t))
				return pcore * tpc + t;
	}
	int ncpu = n * tpc, base = first * tpc;
	for (int k = 1; k <= ncpu; k++) {
		int cpu = target - base + k; /* % ncpu, as above */
		cpu = base + (cpu >= ncpu ? cpu - ncpu : cpu);
		if (il_sim_cpu_idle(s, cpu))
			return cpu;
	}
	return target;
}

/*
 * select_task_rq_fair() for a wake-up of a task last on prev by a task
 * running on this_cpu. wake_wide() is false (each task of a 1:1 pair wakes
 * only its partner, so wakee_flips stays 0) and every domain up to the
 * machine has SD_WAKE_AFFINE (the two-node distance, 21, is within
 * RECLAIM_DISTANCE), so wake_affine() picks the target:
 * wake_affine_idle(), then wake_affine_weight() taken as a comparison of
 * runnable tasks (the waker discounted on a sync wake-up).
 */
static int place_wakee(const struct il_sim *s, const struct rr_state *st, int this_cpu, int prev,
		       bool sync)
{
	int target = prev;

	if (this_cpu != prev) {
		if (il_sim_cpu_idle(s, this_cpu) && share_llc(st, this_cpu, prev))
			target = il_sim_cpu_idle(s, prev) ? prev : this_cpu;
		else if (sync && il_sim_cpu_nr_running(s, this_cpu) == 1)
			target = this_cpu;
		else if (il_sim_cpu_idle(s, prev))
			target = prev;
		else if (il_sim_cpu_nr_running(s, this_cpu) - (sync ? 1 : 0) <
			 il_sim_cpu_nr_running(s, prev))
			target = this_cpu;
	}
	return select_idle_sibling(s, st, prev, target);
}

/*
 * Where fork balancing would start the next task: the least loaded package,
 * then LLC, then core, then thread (lowest on ties); load = tasks placed.
 */
static int spread(const struct il_sim *s, const uint16_t *placed)
{
	const struct il_platform *p = il_sim_platform(s);
	int tpc = p->threads_per_core, cpp = p->cores_per_package;
	int llc = il_platform_llc_cores(p);
	int best_pkg = 0, best_core = 0, best_cpu = 0;
	long lo = -1;

	for (int k = 0; k < p->packages; k++) {
		long sum = 0;
		for (int c = 0; c < cpp * tpc; c++)
			sum += placed[k * cpp * tpc + c];
		if (lo < 0 || sum < lo) {
			lo = sum;
			best_pkg = k;
		}
	}
	lo = -1;
	int best_llc = 0;
	for (int g = 0; g * llc < cpp; g++) {
		long sum = 0;
		for (int c = g * llc; c < cpp && c < (g + 1) * llc; c++)
			for (int t = 0; t < tpc; t++)
				sum += placed[(best_pkg * cpp + c) * tpc + t];
		if (lo < 0 || sum < lo) {
			lo = sum;
			best_llc = g;
		}
	}
	lo = -1;
	for (int c = best_llc * llc; c < cpp && c < (best_llc + 1) * llc; c++) {
		long sum = 0;
		for (int t = 0; t < tpc; t++)
			sum += placed[(best_pkg * cpp + c) * tpc + t];
		if (lo < 0 || sum < lo) {
			lo = sum;
			best_core = best_pkg * cpp + c;
		}
	}
	lo = -1;
	for (int t = 0; t < tpc; t++)
		if (lo < 0 || placed[best_core * tpc + t] < lo) {
			lo = placed[best_core * tpc + t];
			best_cpu = best_core * tpc + t;
		}
	return best_cpu;
}

/* The copy of sent bytes in cycles (core clock), of received bytes in ns (uncore). */
static uint64_t send_copy_cycles(const struct rr_cfg *c, uint32_t sent)
{
	return (uint64_t)(c->send_copy * sent + 0.5);
}

static int64_t recv_copy_ns(const struct rr_cfg *c, uint32_t received)
{
	return (int64_t)(c->recv_copy_ns * received + 0.5);
}

/* ------------------------------------------------------------ the workload */

static int setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct rr_cfg *c = cfgp;
	struct rr_state *st = stp;
	int n = il_sim_ncpus(s);

	for (int i = 0; i < n; i++)
		st->llc[i] = (uint16_t)il_sim_llc_of(s, i);
	st->memo_sent = st->memo_received = 0;
	st->memo_send_cycles = send_copy_cycles(c, 0);
	st->memo_recv_ns = recv_copy_ns(c, 0);
	st->npairs = c->pairs ? (int)c->pairs : (n / 2 > 0 ? n / 2 : 1);
	if (st->npairs > RR_MAX_PAIRS)
		return il_err_set(err, EINVAL, "request-response: at most %d pairs", RR_MAX_PAIRS);
	uint16_t *placed = NULL;
	if (c->placement == RR_WAKE_AFFINE) {
		placed = calloc((size_t)n, sizeof(*placed));
		if (!placed)
			return il_err_set(err, ENOMEM, "out of memory");
	}
	/* task data: pair index + 1, negative for servers */
	for (int i = 0; i < st->npairs; i++) {
		int cpu = (2 * i) % n;
		if (placed) {
			cpu = spread(s, placed);
			placed[cpu]++;
		}
		st->client[i] = il_sim_task_add(s, cpu, (void *)(intptr_t)(i + 1));
	}
	for (int i = 0; i < st->npairs; i++) {
		int cpu = (2 * i + 1) % n;
		if (placed) {
			cpu = spread(s, placed);
			placed[cpu]++;
		}
		st->server[i] = il_sim_task_add(s, cpu, (void *)(intptr_t)-(i + 1));
	}
	free(placed);
	if (c->start_ns > 0) {
		/*
		 * dbench forks its clients, each connects and the server forks a
		 * child for it (tbench_srv); both run their setup, then the
		 * client waits on a barrier and the server in recv(). A task on
		 * CPU 0 releases the clients at start. The setup run is each
		 * task's creation: its utilisation starts there (fork) and decays
		 * through the wait, as the kernel's does.
		 */
		for (int i = 0; i < st->npairs; i++) {
			il_sim_task_wake(s, -1, st->client[i]);
			il_sim_task_wake(s, -1, st->server[i]);
		}
		st->releaser = il_sim_task_add(s, 0, (void *)(intptr_t)0);
		il_sim_task_wake(s, -1, st->releaser);
	} else {
		for (int i = 0; i < st->npairs; i++)
			il_sim_task_wake(s, -1, st->client[i]);
	}
	for (size_t k = 0; k < RR_NCLASSES; k++)
		st->class_total += tbench_classes[k].count;
	il_hist_init(&st->rtt);
	return 0;
}

/* The next exchange of pair i: its request and reply sizes; returns the bytes tbench counts. */
static uint64_t next_exchange(const struct rr_cfg *c, struct rr_state *st, struct il_sim *s, int i)
{
	if (c->mix == RR_PAYLOAD) {
		st->req[i] = st->resp[i] = (uint32_t)c->payload;
		return 2 * c->payload;
	}
	uint64_t r = il_rng_below(il_sim_rng(s), st->class_total);
	size_t k = 0;
	while (r >= tbench_classes[k].count)
		r -= tbench_classes[k++].count;
	st->req[i] = tbench_classes[k].req;
	st->resp[i] = tbench_classes[k].resp;
	return tbench_classes[k].counted;
}

/* A burst: work, the copy of sent bytes, the copy of received bytes (kept for the same sizes). */
static void burst(const struct rr_cfg *c, struct rr_state *st, struct il_sim *s, int task,
		  uint64_t cycles, int64_t ns, uint32_t sent, uint32_t received)
{
	if (sent != st->memo_sent) {
		st->memo_sent = sent;
		st->memo_send_cycles = send_copy_cycles(c, sent);
	}
	if (received != st->memo_received) {
		st->memo_received = received;
		st->memo_recv_ns = recv_copy_ns(c, received);
	}
	il_sim_task_work(s, task, cycles + st->memo_send_cycles, ns + st->memo_recv_ns);
}

/* Task id > 0 is client id - 1, id < 0 server -id - 1: its "created" flag. */
static uint8_t *ready_flag(struct rr_state *st, intptr_t id)
{
	return id > 0 ? &st->ready_client[id - 1] : &st->ready_server[-id - 1];
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct rr_cfg *c = cfgp;
	struct rr_state *st = stp;
	intptr_t id = (intptr_t)il_sim_task_data(s, task);

	(void)lat;
	if (id == 0) {
		/* the releaser: to sleep until the start, then one client at a time */
		il_sim_task_run(s, task, st->released ? c->release_cycles : 0);
		return;
	}
	if (c->start_ns > 0 && !*ready_flag(st, id)) {
		il_sim_task_run(s, task, c->setup_cycles);
		return;
	}
	if (id > 0) {
		int i = (int)id - 1;
		uint32_t got = 0;
		if (st->sent[i] > 0) {
			il_hist_add(&st->rtt, il_sim_now(s) - st->sent[i]);
			st->trips++;
			st->bytes += st->counted[i]; /* tbench adds them when the operation is done */
			got = st->resp[i];
		}
		/* receive the reply, then send the next request */
		st->counted[i] = next_exchange(c, st, s, i);
		burst(c, st, s, task, c->client_cycles, c->client_ns, st->req[i], got);
	} else {
		int i = (int)-id - 1;
		burst(c, st, s, task, c->server_cycles, c->server_ns, st->resp[i], st->req[i]);
	}
}

/* Wake the partner: where it runs is the placement's choice (a TCP wake-up is synchronous). */
static void wake_partner(const struct rr_cfg *c, struct rr_state *st, struct il_sim *s, int cpu,
			 int task)
{
	if (c->placement == RR_FIXED) {
		il_sim_task_wake(s, cpu, task);
		return;
	}
	int prev = il_sim_task_cpu(s, task);
	int to = place_wakee(s, st, cpu, prev, true);
	if (il_sim_task_wake_on(s, cpu, task, to)) {
		st->wakes++;
		st->migrations += to != prev;
	}
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct rr_cfg *c = cfgp;
	struct rr_state *st = stp;
	intptr_t id = (intptr_t)il_sim_task_data(s, task);
	int cpu = il_sim_task_cpu(s, task);

	if (id == 0) {
		/*
		 * dbench's create_procs(): the children connect, then wait on a
		 * semaphore that the parent releases once all are ready; the
		 * release wakes them one after the other.
		 */
		if (il_sim_now(s) < c->start_ns) {
			il_sim_task_sleep_until(s, task, c->start_ns);
			return;
		}
		if (st->released < st->npairs) {
			il_sim_task_wake(s, cpu, st->client[st->released++]);
			if (st->released < st->npairs) {
				il_sim_task_run(s, task, c->release_cycles);
				return;
			}
		}
		il_sim_task_block(s, task, -1);
		return;
	}
	if (c->start_ns > 0 && !*ready_flag(st, id)) {
		/* created: the client waits for the release, the server for the first request */
		*ready_flag(st, id) = 1;
		il_sim_task_block(s, task, -1);
		return;
	}
	if (id > 0) {
		int i = (int)id - 1;
		st->sent[i] = il_sim_now(s);
		wake_partner(c, st, s, cpu, st->server[i]);
	} else {
		wake_partner(c, st, s, cpu, st->client[-id - 1]);
	}
	il_sim_task_block(s, task, -1);
}

/* The warm-up is over: exchanges in flight count when they complete. */
static void warmup(const void *cfgp, void *stp, struct il_sim *s)
{
	struct rr_state *st = stp;

	(void)cfgp;
	(void)s;
	st->trips = st->bytes = st->migrations = st->wakes = 0;
	il_hist_init(&st->rtt);
}

/*
 * Some round trip must complete in the measured time: with none, the
 * throughput and every round-trip time would be 0, printed as figures
 * (a start at or past the run's end, or an exchange longer than it).
 */
static int finished(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct rr_cfg *c = cfgp;
	const struct rr_state *st = stp;

	if (st->trips)
		return 0;
	if (c->start_ns > 0 && il_sim_now(s) <= c->start_ns)
		return il_err_set(err, EINVAL, "request-response: the clients start at %.3f s, not "
				  "before the run's end (%.3f s): give a longer --duration or an "
				  "earlier start", (double)c->start_ns * 1e-9,
				  (double)il_sim_now(s) * 1e-9);
	return il_err_set(err, EINVAL, "request-response: no round trip completed in the measured "
			  "%.3f s: give a longer --duration or less work per exchange",
			  (double)il_sim_measured_ns(s) * 1e-9);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	const struct rr_cfg *c = cfgp;
	struct rr_state *st = stp;
	double secs = (double)il_sim_measured_ns(s) * 1e-9;
	int same_llc = 0, same_core = 0;

	for (int i = 0; i < st->npairs; i++) {
		int a = il_sim_task_cpu(s, st->client[i]), b = il_sim_task_cpu(s, st->server[i]);
		same_llc += share_llc(st, a, b);
		same_core += il_sim_core_of(s, a) == il_sim_core_of(s, b);
	}
	il_metric_add(out, "request-response", "pairs", "", IL_BETTER_NONE, false, st->npairs);
	il_metric_add(out, "request-response", "round_trips", "", IL_BETTER_HIGHER, false, (double)st->trips);
	il_metric_add(out, "request-response", "throughput_MBps", "MB/s", IL_BETTER_HIGHER, true,
		      secs > 0 ? (double)st->bytes / secs / 1e6 : 0);
	il_metric_add(out, "request-response", "rtt_mean_us", "us", IL_BETTER_LOWER, false,
		      il_hist_mean(&st->rtt) / 1000);
	il_metric_add(out, "request-response", "rtt_p50_us", "us", IL_BETTER_LOWER, false,
		      st->rtt.count ? (double)il_hist_percentile(&st->rtt, 50) / 1000 : 0);
	il_metric_add(out, "request-response", "rtt_p99_us", "us", IL_BETTER_LOWER, false,
		      st->rtt.count ? (double)il_hist_percentile(&st->rtt, 99) / 1000 : 0);
	if (c->placement == RR_WAKE_AFFINE) {
		il_metric_add(out, "request-response", "migrations_pct", "%", IL_BETTER_NONE, false,
			      st->wakes ? 100.0 * (double)st->migrations / (double)st->wakes : 0);
		il_metric_add(out, "request-response", "pairs_same_llc_pct", "%", IL_BETTER_NONE, false,
			      100.0 * same_llc / st->npairs);
		il_metric_add(out, "request-response", "pairs_same_core_pct", "%", IL_BETTER_NONE, false,
			      100.0 * same_core / st->npairs);
	}
}

/*
 * Each pair's client and server idle once per exchange: both works, the
 * request's and the reply's copies (of the payload) and two wake-ups.
 */
static double est_idle_periods(const void *cfgp, const struct il_platform *p, int64_t d)
{
	const struct rr_cfg *c = cfgp;
	double hz = il_wl_est_hz(p), bytes = (double)c->payload;
	double pairs = c->pairs ? (double)c->pairs : (double)(il_platform_ncpus(p) / 2);
	double t = (double)(c->client_cycles + c->server_cycles) / hz * 1e9 +
		   (double)(c->client_ns + c->server_ns) +
		   2 * (c->send_copy * bytes / hz * 1e9 + c->recv_copy_ns * bytes) +
		   2 * IL_WL_EST_WAKE_NS;
	double busy = (double)(d > c->start_ns ? d - c->start_ns : 0);

	return pairs * 2 * busy / t;
}

const struct il_workload il_wl_request_response = {
	.name = "request-response",
	.summary = "tbench-like client/server pairs over loopback: MB/s and round-trip latency",
	.opts = opts,
	.config_size = sizeof(struct rr_cfg),
	.state_size = sizeof(struct rr_state),
	.min_cpus = 1,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.warmup = warmup,
	.finished = finished,
	.report = report,
	.est_idle_periods = est_idle_periods,
};
