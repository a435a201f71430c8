// SPDX-License-Identifier: GPL-2.0-only
/*
 * transactions (pgbench -S -c C -j J): C connections, each served by its
 * own backend process, driven by J pgbench threads that each own a block of
 * the connections and wait in poll() on their sockets. A transaction of the
 * select-only script: the thread sends the query over the connection's
 * Unix socket (waking the backend), the backend receives, parses, plans and
 * executes it against cached data and sends the row back (waking the
 * thread if it waits), the thread reads the result and sends the next
 * query. Nobody waits for block I/O: pgbench -S over a Unix socket waits
 * on sockets only, so nr_iowait stays 0 (only io_schedule() waits count;
 * iowait=yes counts the socket waits as I/O waits, as this workload did
 * before). ios > 0 adds block-I/O waits (device interrupts, always I/O
 * waits) to each backend's work.
 *
 * Placement is fixed. placement=shared (the default): backend i on CPU
 * i mod n, pgbench thread t on CPU n - 1 - (t n / J) mod n, so on a
 * machine with one backend per CPU each thread shares a CPU with a
 * backend. placement=spare: the backends on CPUs 0 .. C - 1 and the
 * threads spread over the CPUs left, thread t on C + t (n - C) / J, as
 * the scheduler keeps each busy task on an idle CPU of its own when the
 * machine has more CPUs than tasks (it needs C + J <= n). Reports TPS, the latency of each transaction
 * (send to result read) and the latency average pgbench prints when it
 * does not measure one (clients x time / transactions). The latency is
 * split where the loop spends it: backend_us from the query sent to the
 * reply written (the backend's wake-up, its work, its CPU's queue) and
 * thread_us from the reply to the next query sent (the thread's wake-up
 * if it waited in poll(), the other connections ahead of it, its work);
 * thread_wait_pct is the share of time the threads waited in poll(). A
 * thread that never waits bounds the TPS: a faster backend wake-up then
 * only makes its replies wait longer.
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
#include "idlelab/platform.h"
#include "idlelab/workload.h"
#include "wl_api.h"

extern const struct il_workload il_wl_transactions;

/* clients=0 makes one per CPU: the engine has at most IL_CPUS_MAX */
#define TX_MAX_CLIENTS IL_CPUS_MAX

enum tx_placement { TX_SHARED = 0, TX_SPARE };
static const char *const tx_placements[] = { "shared", "spare", NULL };

struct tx_cfg {
	uint64_t clients;        /* connections = backends; 0 = one per CPU */
	uint64_t threads;        /* pgbench threads (at most one per connection) */
	enum tx_placement placement;
	uint64_t client_cycles;  /* a thread per transaction: read the result, send the query */
	int64_t client_ns;
	uint64_t backend_cycles; /* a backend per transaction: receive, parse, plan, execute, reply */
	int64_t backend_ns;
	bool iowait;             /* count the socket waits in nr_iowait */
	uint64_t ios;            /* block-I/O waits per transaction in the backend */
	struct il_dist io;       /* I/O latency, ns */
	int irq_cpu;             /* -1 = the backend's CPU */
};

struct tx_conn {
	int backend;             /* task */
	int thread;              /* index */
	int next;                /* in its thread's ready list, -1 none */
	int64_t start;           /* query sent */
	int64_t replied;         /* reply written */
	uint64_t io_left;
	bool started;            /* a query was sent (the first handling sends only) */
};

struct tx_thread {
	int task;
	int head, tail;          /* connections with a result to read (or a first query to send) */
	int64_t blocked;         /* began waiting in poll(), -1 running */
};

struct tx_state {
	int n, nthreads;
	struct tx_conn c[TX_MAX_CLIENTS];
	struct tx_thread t[TX_MAX_CLIENTS];
	uint64_t done;
	struct il_hist lat;
	double backend_sum, thread_sum; /* ns, over the transactions done */
	int64_t wait_ns;                /* the threads' time in poll(), summed */
};

#define C struct tx_cfg
static const struct il_opt opts[] = {
	IL_OPT_U64(C, clients, "clients", 0, TX_MAX_CLIENTS, "0",
		   "connections, one backend each (pgbench -c; 0: one per CPU)"),
	IL_OPT_U64(C, threads, "threads", 1, TX_MAX_CLIENTS, "20",
		   "pgbench threads (-j), at most one per connection"),
	IL_OPT_ENUM(C, placement, enum tx_placement, "placement", tx_placements, "shared",
		    "the threads' CPUs: shared (thread t on CPU n-1-(t n/J), among the backends), "
		    "spare (on the CPUs after the backends', one each; clients + threads <= CPUs)"),
	IL_OPT_U64(C, client_cycles, "client_work", 0, 1ull << 40, "10000",
		   "cycles a pgbench thread runs per transaction: read the result, send the next "
		   "query (estimate)"),
	IL_OPT_DUR_NS(C, client_ns, "client_work_ns", 0, 1e12, "0",
		      "frequency-independent ns of the same"),
	IL_OPT_U64(C, backend_cycles, "backend_work", 0, 1ull << 40, "40000",
		   "cycles a backend runs per transaction: receive, parse, plan, execute, reply "
		   "(estimate)"),
	IL_OPT_DUR_NS(C, backend_ns, "backend_work_ns", 0, 1e12, "0",
		      "frequency-independent ns of the same"),
	IL_OPT_BOOL(C, iowait, "iowait", "no",
		    "count the socket waits as I/O waits (nr_iowait), as this workload did before"),
	IL_OPT_U64(C, ios, "ios", 0, 1000, "0",
		   "block-I/O waits per transaction in the backend (select-only on cached data: 0)"),
	IL_OPT_DIST(C, io, "io", "lognormal:80us:0.5", "block-I/O latency distribution"),
	IL_OPT_INT_KW(C, irq_cpu, "irq_cpu", 0, IL_CPUS_MAX - 1, "same", -1, "same",
		      "CPU taking the I/O completion interrupts (same: the backend's)"),
	IL_OPT_END,
};
#undef C

/* task data: connection i + 1 for a backend, -(t + 1) for pgbench thread t */
static intptr_t id_of(struct il_sim *s, int task)
{
	return (intptr_t)il_sim_task_data(s, task);
}

static void ready_push(struct tx_state *st, int conn)
{
	struct tx_thread *t = &st->t[st->c[conn].thread];
	st->c[conn].next = -1;
	if (t->tail >= 0)
		st->c[t->tail].next = conn;
	else
		t->head = conn;
	t->tail = conn;
}

static int ready_pop(struct tx_state *st, int thread)
{
	struct tx_thread *t = &st->t[thread];
	int conn = t->head;
	if (conn >= 0) {
		t->head = st->c[conn].next;
		if (t->head < 0)
			t->tail = -1;
	}
	return conn;
}

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
	st->nthreads = (int)c->threads < st->n ? (int)c->threads : st->n;
	if (c->placement == TX_SPARE && st->n + st->nthreads > n)
		return il_err_set(err, EINVAL,
				  "transactions: placement=spare needs a CPU for each backend and each "
				  "thread: %d clients + %d threads > %d CPUs",
				  st->n, st->nthreads, n);
	for (int t = 0; t < st->nthreads; t++) {
		int cpu = c->placement == TX_SPARE
				  ? st->n + (int)((int64_t)t * (n - st->n) / st->nthreads)
				  : n - 1 - (int)((int64_t)t * n / st->nthreads % n);
		st->t[t].task = il_sim_task_add(s, cpu, (void *)(intptr_t)-(t + 1));
		st->t[t].head = st->t[t].tail = -1;
		st->t[t].blocked = -1;
	}
	for (int i = 0; i < st->n; i++) {
		struct tx_conn *cn = &st->c[i];
		cn->backend = il_sim_task_add(s, i % n, (void *)(intptr_t)(i + 1));
		/* pgbench deals the clients to its threads in blocks */
		cn->thread = (int)((int64_t)i * st->nthreads / st->n);
		ready_push(st, i);
	}
	for (int t = 0; t < st->nthreads; t++)
		il_sim_task_wake(s, -1, st->t[t].task);
	il_hist_init(&st->lat);
	return 0;
}

/* The backend's work before each of its I/O waits and after the last: an equal share. */
static void backend_part(const struct tx_cfg *c, struct il_sim *s, int task)
{
	uint64_t parts = c->ios + 1;
	il_sim_task_work(s, task, c->backend_cycles / parts, c->backend_ns / (int64_t)parts);
}

static void task_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct tx_cfg *c = cfgp;
	intptr_t id = id_of(s, task);

	struct tx_state *st = stp;

	(void)lat;
	il_sim_task_set_iowait(s, task, false);
	if (id < 0) {
		struct tx_thread *th = &st->t[-id - 1];
		if (th->blocked >= 0) {
			st->wait_ns += il_sim_now(s) - th->blocked;
			th->blocked = -1;
		}
		/* the pgbench thread handles the first connection of its ready list */
		il_sim_task_work(s, task, c->client_cycles, c->client_ns);
		return;
	}
	backend_part(c, s, task);
}

/* Wait on a socket (or, with iowait=yes, as if on I/O). */
static void socket_wait(const struct tx_cfg *c, struct il_sim *s, int task)
{
	if (c->iowait)
		il_sim_task_set_iowait(s, task, true);
	il_sim_task_block(s, task, -1);
}

static void task_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	const struct tx_cfg *c = cfgp;
	struct tx_state *st = stp;
	intptr_t id = id_of(s, task);
	int cpu = il_sim_task_cpu(s, task);
	int64_t now = il_sim_now(s);

	if (id < 0) {
		int t = (int)-id - 1;
		int conn = ready_pop(st, t);
		assert(conn >= 0); /* woken only by a reply it has yet to read */
		struct tx_conn *cn = &st->c[conn];
		if (cn->started) {
			st->done++;
			il_hist_add(&st->lat, now - cn->start);
			st->backend_sum += (double)(cn->replied - cn->start);
			st->thread_sum += (double)(now - cn->replied);
		}
		/* the next query of this connection */
		cn->started = true;
		cn->start = now;
		cn->io_left = c->ios;
		il_sim_task_wake(s, cpu, cn->backend);
		if (st->t[t].head >= 0) {
			il_sim_task_work(s, task, c->client_cycles, c->client_ns);
		} else {
			st->t[t].blocked = now;
			socket_wait(c, s, task); /* poll() on its connections */
		}
		return;
	}
	struct tx_conn *cn = &st->c[id - 1];
	if (cn->io_left > 0) {
		cn->io_left--;
		int icpu = c->irq_cpu >= 0 ? c->irq_cpu : cpu;
		il_sim_irq_at(s, icpu, now + il_dist_sample(&c->io, il_sim_rng(s)), task);
		il_sim_task_set_iowait(s, task, true);
		il_sim_task_block(s, task, -1);
		return;
	}
	/* the reply: the thread reads it when it gets to it */
	cn->replied = now;
	ready_push(st, (int)id - 1);
	il_sim_task_wake(s, cpu, st->t[cn->thread].task);
	socket_wait(c, s, task); /* recv() for the next query */
}

/* The warm-up is over: transactions in flight count when they complete. */
static void warmup(const void *cfgp, void *stp, struct il_sim *s)
{
	struct tx_state *st = stp;

	(void)cfgp;
	st->done = 0;
	il_hist_init(&st->lat);
	st->backend_sum = st->thread_sum = 0;
	st->wait_ns = 0;
	for (int t = 0; t < st->nthreads; t++)
		if (st->t[t].blocked >= 0)
			st->t[t].blocked = il_sim_now(s);
}

/*
 * Some transaction must complete in the measured time: with none, the
 * latencies and the time split would be 0, printed as figures (work or
 * block I/O longer than the run).
 */
static int finished(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	const struct tx_state *st = stp;

	(void)cfgp;
	if (st->done)
		return 0;
	return il_err_set(err, EINVAL, "transactions: no transaction completed in the measured "
			  "%.3f s: give a longer --duration, less work or shorter I/O per "
			  "transaction", (double)il_sim_measured_ns(s) * 1e-9);
}

static void report(const void *cfgp, void *stp, struct il_sim *s, struct il_metrics *out)
{
	struct tx_state *st = stp;
	double secs = (double)il_sim_measured_ns(s) * 1e-9;

	(void)cfgp;
	il_metric_add(out, "transactions", "clients", "", IL_BETTER_NONE, false, st->n);
	il_metric_add(out, "transactions", "threads", "", IL_BETTER_NONE, false, st->nthreads);
	il_metric_add(out, "transactions", "done", "", IL_BETTER_HIGHER, false, (double)st->done);
	il_metric_add(out, "transactions", "tps", "1/s", IL_BETTER_HIGHER, true,
		      secs > 0 ? (double)st->done / secs : 0);
	il_metric_add(out, "transactions", "latency_mean_us", "us", IL_BETTER_LOWER, false,
		      il_hist_mean(&st->lat) / 1000);
	il_metric_add(out, "transactions", "latency_p99_us", "us", IL_BETTER_LOWER, false,
		      st->lat.count ? (double)il_hist_percentile(&st->lat, 99) / 1000 : 0);
	/* where the latency goes (they add up to latency_mean_us) */
	il_metric_add(out, "transactions", "backend_us", "us", IL_BETTER_LOWER, false,
		      st->done ? st->backend_sum / (double)st->done / 1000 : 0);
	il_metric_add(out, "transactions", "thread_us", "us", IL_BETTER_LOWER, false,
		      st->done ? st->thread_sum / (double)st->done / 1000 : 0);
	/* waits still open at the end count up to it */
	int64_t wait = st->wait_ns, now = il_sim_now(s);
	for (int t = 0; t < st->nthreads; t++)
		if (st->t[t].blocked >= 0)
			wait += now - st->t[t].blocked;
	il_metric_add(out, "transactions", "thread_wait_pct", "%", IL_BETTER_NONE, false,
		      secs > 0 && st->nthreads ? 100.0 * (double)wait * 1e-9 / secs / st->nthreads
					       : 0);
	/* pgbench without -L/-R/-P: "latency average" = 1000 x duration x clients / transactions ms */
	il_metric_add(out, "transactions", "latency_avg_ms", "ms", IL_BETTER_LOWER, false,
		      st->done ? 1000.0 * secs * st->n / (double)st->done : 0);
}

/* Each connection's backend and its thread idle once per transaction. */
static double est_idle_periods(const void *cfgp, const struct il_platform *p, int64_t d)
{
	const struct tx_cfg *c = cfgp;
	double clients = c->clients ? (double)c->clients : (double)il_platform_ncpus(p);
	double t = (double)(c->client_cycles + c->backend_cycles) / il_wl_est_hz(p) * 1e9 +
		   (double)(c->client_ns + c->backend_ns) + 2 * IL_WL_EST_WAKE_NS +
		   (double)c->ios * il_dist_mean(&c->io);

	return clients * (2 + (double)c->ios) * (double)d / t;
}

const struct il_workload il_wl_transactions = {
	.name = "transactions",
	.summary = "pgbench -S: pgbench threads and one backend per connection over Unix sockets: "
		   "TPS, latency",
	.opts = opts,
	.config_size = sizeof(struct tx_cfg),
	.state_size = sizeof(struct tx_state),
	.min_cpus = 1,
	.setup = setup,
	.task_ran = task_ran,
	.task_woke = task_woke,
	.warmup = warmup,
	.finished = finished,
	.report = report,
	.est_idle_periods = est_idle_periods,
};
