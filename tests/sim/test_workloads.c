// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workloads on a deterministic 2-CPU platform (POLL + C1 with a constant
 * 1 us exit, no IPI costs), a test governor that always picks C1 and stops
 * the tick, entry 300 ns, switch 0, 1000 MHz: every figure below is worked
 * out by hand from the event order. Plus option refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/batch.h"
#include "idlelab/sim.h"
#include "idlelab/workload.h"

struct tg_cpu {
	int selects;
	struct il_idle_inputs first_sel;
	unsigned int max_iowait;
};

static int tg_select(const void *c, void *d, const struct il_driver *drv, struct il_device *dev,
		     const struct il_idle_inputs *in, bool *stop_tick)
{
	struct tg_cpu *t = d;
	(void)c;
	(void)drv;
	(void)dev;
	if (!t->selects++)
		t->first_sel = *in;
	if (in->nr_iowait > t->max_iowait)
		t->max_iowait = in->nr_iowait;
	*stop_tick = true;
	return 1;
}

static const struct il_gov_ops tg_ops = {
	.name = "test", .config_size = 1, .cpu_data_size = sizeof(struct tg_cpu),
	.select = tg_select,
};
static char tg_config;
static struct tg_cpu tg_data[4]; /* the largest test platform has 4 CPUs */
static struct il_gov tg_gov = { .ops = &tg_ops, .config = &tg_config,
				.cpu_data = (unsigned char *)tg_data, .ncpus = 4, .spec = "test" };

#define PLAT "[platform]\nname = t\n[topology]\ncores_per_package = 2\n[kernel]\nhz = 1000\n" \
	     "[state.0]\nname = POLL\nlatency = 0\nresidency = 0\nflags = polling\nentry = poll\n" \
	     "[state.1]\nname = C1\nlatency = 1\nresidency = 20\nentry = hlt\n"

static struct il_platform plat;
static struct il_machine_idle mach;
static struct il_sim_result res;
static double run_mhz = 1000; /* the platform has no frequencies: default_mhz */
static const char *run_plat = PLAT;

/* A new configuration of wl from options "k=v k=v": il_workload_configure()'s result. */
static int configure(const struct il_workload *wl, const char *opts, void **cfg, struct il_err *e)
{
	struct il_wl_opt o[16];
	int n = 0;
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", opts);
	for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		assert_true(il_wl_opt_parse(t, &o[n++], NULL));
	*cfg = calloc(1, wl->config_size);
	return il_workload_configure(wl, *cfg, o, n, e);
}

/* Run workload name with options "k=v k=v" for duration; result in res. */
static void run(const char *name, const char *opts, int64_t duration)
{
	struct il_err e;
	const struct il_workload *wl = il_workload_find(name);
	void *cfg;

	assert_non_null(wl);
	assert_int_equal(il_platform_load_string(&plat, run_plat, strlen(run_plat), "t.ini", &e), 0);
	memset(&mach, 0, sizeof(mach));
	mach.cpuidle = true;
	mach.drv = plat.table;
	if (configure(wl, opts, &cfg, &e))
		print_error("%s\n", e.msg);
	struct il_sim_params prm;
	il_sim_params_default(&prm);
	prm.duration_ns = duration;
	prm.switch_ns = 0;
	prm.entry_ns = 300;
	prm.default_mhz = run_mhz;
	memset(tg_data, 0, sizeof(tg_data));
	if (res.cpu)
		il_sim_result_free(&res);
	struct il_sim *s = il_sim_new(&plat, &mach, &tg_gov, wl, cfg, &prm, &e);
	assert_non_null(s);
	assert_int_equal(il_sim_run(s, &e), 0);
	assert_int_equal(il_sim_result(s, &res, &e), 0);
	il_sim_free(s);
	free(cfg);
	for (int i = 0; i < res.ncpus; i++)
		assert_int_equal(res.cpu[i].idle_ns + res.cpu[i].busy_ns, res.duration_ns);
}

static double metric(const char *row, const char *col)
{
	for (int i = 0; i < res.metrics.n; i++)
		if (!strcmp(res.metrics.m[i].row, row) && !strcmp(res.metrics.m[i].col, col))
			return res.metrics.m[i].value;
	print_error("no metric %s/%s\n", row, col);
	fail();
	return NAN;
}

#define EQ(row, col, v) assert_true(fabs(metric(row, col) - (v)) < 1e-9 * fmax(1, fabs((double)(v))))

/*
 * mode=relative: waker timer at T, waker runs at T + 1 us (C1 exit), IPI,
 * wakee runs at T + 2 us; next timer 100 us after the waker ran: period 101 us.
 */
static void sleep_sweep(void **unused)
{
	(void)unused;
	run("sleep-sweep", "intervals=100 loops=10 waker_work=0 wakee_work=0 mode=relative", 1000000000);
	/* the sweep ends itself after its last wake-up: the 10th at 102 us + 9 * 101 us */
	assert_int_equal(res.duration_ns, 102000 + 9 * 101000);
	EQ("100us", "wakee_cpu", 1);
	EQ("100us", "waker_cpu", 0);
	EQ("100us", "sleep_us", (102000 + 9 * 101000) / 10 / 1000.0);
	EQ("100us", "wakeups", 10);
	EQ("100us", "usage_diff", 10);
	EQ("100us", "C1", 10);
	EQ("100us", "POLL", 0);
	EQ("100us", "time_diff_ns", 101700 + 9 * 100700);
	EQ("100us", "above_diff", 0);
	EQ("100us", "below_diff", 0);
	EQ("100us", "lat_p50_us", 1);
	EQ("100us", "lat_max_us", 1);
	assert_true(res.metrics.m[res.metrics.n - 1].grid);
}

/*
 * mode=busy (the default, cpuidle_wakeup's pipe mode): the waker spins
 * 100 us from the end of each write and never idles, so its writes are at
 * 100k us and the wakee (out of C1 in 1 us) runs at 100k + 1: period 100 us.
 */
static void sleep_sweep_busy(void **unused)
{
	(void)unused;
	run("sleep-sweep", "intervals=100 loops=10 waker_work=0 wakee_work=0", 1000000000);
	assert_int_equal(res.duration_ns, 1001000);
	EQ("100us", "sleep_us", (101 + 9 * 100) / 10.0);
	EQ("100us", "wakeups", 10);
	EQ("100us", "usage_diff", 10);
	EQ("100us", "time_diff_ns", 100700 + 9 * 99700);
	EQ("100us", "lat_max_us", 1);
	/* the waker's CPU never idled */
	assert_int_equal(res.cpu[0].idle_ns, 0);
	assert_int_equal(res.cpu[0].usage[1].usage, 0);
	/*
	 * Bytes written while the wakee runs are read without sleeping: writes
	 * every 2 us, the wakee 2.7 us per read. Read 1 at 3 us (woken out of
	 * C1 at 2 + 1), read k at 3 + 2.7 (k - 1) with a byte always there;
	 * the 10th at 27.3 us ends the sweep. One sleep, one C1 entry; the
	 * measured sleep is the time from one read's return to the next.
	 */
	run("sleep-sweep", "intervals=2 loops=10 waker_work=0 wakee_work=2700", 1000000000);
	assert_int_equal(res.duration_ns, 27300);
	EQ("2us", "wakeups", 1);
	EQ("2us", "sleep_us", 27.3 / 10);
	EQ("2us", "usage_diff", 1);
	EQ("2us", "time_diff_ns", 2700);
}

/*
 * mode=absolute: deadlines 100 us apart from the end of the first burst
 * (t = 0); the waker's own C1 exit delays each write (100k + 1) but not
 * the next deadline: the wakee runs at 100k + 2, period 100 us.
 */
/*
 * The published sweep's list as given, and fractional intervals (the 2025
 * tables' rows are the measured sleeps 12.376, 22.4, 122.4, 132.4 us):
 * rows labelled by the interval as given.
 */
static void sleep_sweep_intervals(void **unused)
{
	(void)unused;
	const struct il_workload *wl = il_workload_find("sleep-sweep");
	const struct il_opt *o = il_opt_find(wl->opts, "intervals");
	struct il_err e;
	struct { int n; int64_t v[64]; } iv;
	void *cfg = calloc(1, wl->config_size);
	assert_int_equal(il_opts_defaults(wl->opts, cfg, &e), 0);
	memcpy(&iv.n, (char *)cfg + o->count_off, sizeof(int));
	memcpy(iv.v, (char *)cfg + o->off, sizeof(iv.v));
	static const int64_t want[] = { 2, 5, 7, 12, 22, 32, 42, 52, 62, 72, 82, 92, 102, 112, 122,
					132, 142, 152, 202, 302, 402, 502, 602, 702, 802, 902, 1002 };
	assert_int_equal(iv.n, 27);
	for (int i = 0; i < 27; i++)
		assert_int_equal(iv.v[i], want[i] * 1000);
	free(cfg);
	run("sleep-sweep", "intervals=12.376,22.4,122.4,132.4 loops=2 waker_work=0 wakee_work=0",
	    1000000000);
	EQ("12.376us", "wakeups", 2);
	EQ("22.4us", "wakeups", 2);
	EQ("122.4us", "wakeups", 2);
	EQ("132.4us", "wakeups", 2);
	/* busy waker, 1 us C1 exit: two reads 12.376 us apart, the first at 12.376 + 1 */
	EQ("12.376us", "sleep_us", (13.376 + 12.376) / 2);
}

/*
 * row_gap: after a row's last write the waker pauses before the next row's
 * first interval. Relative, 1 us C1 exits: writes at 101k and 202k (row
 * 100us), then a sleep of 50k + 500k: writes at 753k and 804k (row 50us);
 * the wakee runs 1 us after each. Its read at 754k slept since 203k, and
 * counts in the row it ends in, as a live sweep's first sample does.
 */
static void sleep_sweep_row_gap(void **unused)
{
	(void)unused;
	run("sleep-sweep", "intervals=100,50 loops=2 waker_work=0 wakee_work=0 mode=relative "
	    "row_gap=500us", 1000000000);
	assert_int_equal(res.duration_ns, 805000);
	EQ("100us", "sleep_us", (102 + 101) / 2.0);
	EQ("50us", "sleep_us", (551 + 51) / 2.0);
	EQ("50us", "usage_diff", 2);
	/* no gap after the last row; 0 (the default) is no gap */
	run("sleep-sweep", "intervals=100,50 loops=2 waker_work=0 wakee_work=0 mode=relative",
	    1000000000);
	assert_int_equal(res.duration_ns, 305000);
}

static void sleep_sweep_absolute(void **unused)
{
	(void)unused;
	run("sleep-sweep", "intervals=100 loops=10 waker_work=0 wakee_work=0 mode=absolute", 1000000000);
	assert_int_equal(res.duration_ns, 1002000);
	EQ("100us", "sleep_us", (102 + 9 * 100) / 10.0);
	EQ("100us", "usage_diff", 10);
	EQ("100us", "time_diff_ns", 101700 + 9 * 99700);
	assert_int_equal(res.cpu[0].usage[1].usage, 10);
}

/* A 1 us burst each side and a 1 us exit each way: a round trip every 4 us. */
static void pingpong(void **unused)
{
	(void)unused;
	run("pingpong", "work=1000 period=1ms", 10000000);
	EQ("pingpong", "round_trips", 2500);
	EQ("pingpong", "round_trips_per_s", 250000);
	EQ("pingpong per period", "p50", 250000);
	EQ("pingpong per period", "min", 250000);
	EQ("pingpong per period", "max", 250000);
	EQ("pingpong per period", "periods", 9);
	/* context_switch2 counts 2 per round trip */
	EQ("pingpong", "context_switches_per_s", 500000);
	EQ("context_switch2 per period", "p50", 500000);
	EQ("context_switch2 per period", "min", 500000);
	/* 1 us of ns each side instead of cycles: the same at 2000 MHz */
	run_mhz = 2000;
	run("pingpong", "work=0 work_ns=1us period=1ms", 10000000);
	EQ("pingpong", "round_trips", 2500);
	/* ... while 1000 cycles take 0.5 us: a round trip every 3 us, counted at 0, 3, ..., 9999 us */
	run("pingpong", "work=1000 period=1ms", 10000000);
	EQ("pingpong", "round_trips", 3334);
	run_mhz = 1000;
}

/* A constant 100 us gap: wakee runs at 102 us + k * 101 us, each 1 us late. */
static void wake_latency(void **unused)
{
	(void)unused;
	run("wake-latency", "min=100us mean=0 work=0", 10000000);
	EQ("wake-latency", "samples", 98);
	EQ("wake-latency", "p50_us", 1);
	EQ("wake-latency", "p99.99_us", 1);
	EQ("wake-latency", "min_us", 1);
	EQ("wake-latency", "max_us", 1);
	EQ("wake-latency", "missed", 0);
}

/* Client 1 us, wake 1 us, server 1 us, wake 1 us: trips every 4 us, 3 us after the send. */
static void request_response(void **unused)
{
	(void)unused;
	run("request-response", "pairs=1 client_work=1000 server_work=1000 send_copy=0 recv_copy_ns=0 "
	    "placement=fixed", 10000000);
	EQ("request-response", "round_trips", 2499);
	EQ("request-response", "throughput_MBps", 2499 * 2 * 4096 / 0.01 / 1e6);
	EQ("request-response", "rtt_mean_us", 3);
}

/*
 * start > 0: the client (CPU 0) and the server (CPU 1) are created at 0 and
 * each runs setup_work (100000 cycles, 100 us at 1000 MHz) before it waits;
 * the release at 1 ms is long after, so the exchanges are those of
 * setup_work=0 and each CPU is busy exactly 100 us longer.
 */
static void request_response_setup(void **unused)
{
	(void)unused;
	const char *base = "pairs=1 client_work=1000 server_work=1000 send_copy=0 recv_copy_ns=0 "
			   "placement=fixed start=1ms release_work=0";
	char opts[256];
	snprintf(opts, sizeof(opts), "%s setup_work=0", base);
	run("request-response", opts, 10000000);
	double trips = metric("request-response", "round_trips");
	int64_t busy0 = res.cpu[0].busy_ns, busy1 = res.cpu[1].busy_ns;
	assert_true(trips > 2000);
	snprintf(opts, sizeof(opts), "%s setup_work=100000", base);
	run("request-response", opts, 10000000);
	EQ("request-response", "round_trips", trips);
	assert_int_equal(res.cpu[0].busy_ns, busy0 + 100000);
	assert_int_equal(res.cpu[1].busy_ns, busy1 + 100000);
}

/*
 * placement=wake-affine. Two packages of one CPU (two LLCs): the client
 * starts on CPU 0, the server on CPU 1 (fork balancing spreads them); the
 * first request is a sync wake-up from a CPU running only the waker, so
 * wake_affine() targets CPU 0, nothing in its LLC is idle, and the server
 * stacks there: from then on each side runs as the other blocks, 1 us
 * each, no idle exit: a round trip every 2 us (counted at 2k us, 4999),
 * 1 us after the send. One migration in 9999 wake-ups.
 */
static void request_response_placement(void **unused)
{
	(void)unused;
	const char *opts = "pairs=1 client_work=1000 server_work=1000 send_copy=0 recv_copy_ns=0";
	run_plat = "[platform]\nname = t2\n[topology]\npackages = 2\n[kernel]\nhz = 1000\n"
		   "[state.0]\nname = POLL\nlatency = 0\nresidency = 0\nflags = polling\nentry = poll\n"
		   "[state.1]\nname = C1\nlatency = 1\nresidency = 20\nentry = hlt\n";
	run("request-response", opts, 10000000);
	EQ("request-response", "round_trips", 4999);
	EQ("request-response", "rtt_mean_us", 1);
	EQ("request-response", "migrations_pct", 100.0 / 9999);
	EQ("request-response", "pairs_same_core_pct", 100);
	assert_int_equal(res.cpu[1].busy_ns, 0); /* the server moved before it ever ran */
	/*
	 * One package, 2 cores x 2 threads, two pairs: clients on cores 0 and 1
	 * (CPUs 0, 2), servers on the idle siblings (1, 3); a wake-up finds the
	 * partner's previous CPU idle and cache-affine and keeps it: the fixed
	 * timing, a round trip every 4 us per pair, no migration.
	 */
	run_plat = "[platform]\nname = t4\n[topology]\ncores_per_package = 2\nthreads_per_core = 2\n"
		   "[kernel]\nhz = 1000\n"
		   "[state.0]\nname = POLL\nlatency = 0\nresidency = 0\nflags = polling\nentry = poll\n"
		   "[state.1]\nname = C1\nlatency = 1\nresidency = 20\nentry = hlt\n";
	run("request-response", "pairs=2 client_work=1000 server_work=1000 send_copy=0 recv_copy_ns=0",
	    10000000);
	EQ("request-response", "round_trips", 2 * 2499);
	EQ("request-response", "migrations_pct", 0);
	EQ("request-response", "pairs_same_core_pct", 100);
	EQ("request-response", "pairs_same_llc_pct", 100);
	run_plat = PLAT;
}

/*
 * tbench's message mix: an exchange class drawn per request by its count in
 * client.txt; only ReadX/WriteX data is counted. With no work and no copy
 * cost the timing is the fixed one (4 us a round trip), so the MB/s is the
 * counted bytes of the 2499 exchanges over 10 ms: their mean is near 5428.
 */
static void request_response_mix(void **unused)
{
	(void)unused;
	run("request-response", "pairs=1 client_work=1000 server_work=1000 send_copy=0 recv_copy_ns=0 "
	    "placement=fixed mix=tbench", 10000000);
	EQ("request-response", "round_trips", 2499);
	double mean = metric("request-response", "throughput_MBps") * 1e6 * 0.01 / 2499;
	/* 2499 draws: the mean's sd is ~ 16000 / sqrt(2499) = 320 B */
	assert_true(mean > 5428 - 1300 && mean < 5428 + 1300);
	/* the copies follow the sizes: a longer round trip than with no copy cost */
	run("request-response", "pairs=1 client_work=1000 server_work=1000 placement=fixed mix=tbench",
	    10000000);
	assert_true(metric("request-response", "round_trips") < 2499);
}

/*
 * pgbench -S, one connection, one thread: the thread (CPU 1) sends at 1 us,
 * the backend (CPU 0) runs at 2 (C1 exit) for 2 us, replies at 4, the thread
 * runs at 5 and is done at 6, sending the next query: 5 us a transaction.
 */
static void transactions(void **unused)
{
	(void)unused;
	run("transactions", "clients=1 threads=1 client_work=1000 backend_work=2000", 10000000);
	EQ("transactions", "clients", 1);
	EQ("transactions", "threads", 1);
	/* done at 6 + 5 (k - 1) us <= 10 ms */
	EQ("transactions", "done", 1999);
	EQ("transactions", "tps", 199900);
	EQ("transactions", "latency_mean_us", 5);
	EQ("transactions", "latency_avg_ms", 1000.0 * 0.01 / 1999);
	/*
	 * the latency split: query sent at 1, reply written at 4 (3 us), the
	 * next query sent at 6 (2 us); the thread waits in poll() from each
	 * send until it runs again, 4 us of every 5, the last wait (9996 on)
	 * counted up to the end: 80 %
	 */
	EQ("transactions", "backend_us", 3);
	EQ("transactions", "thread_us", 2);
	EQ("transactions", "thread_wait_pct", 80);
	/* socket waits: no I/O waiter anywhere */
	assert_int_equal(tg_data[0].max_iowait, 0);
	assert_int_equal(tg_data[1].max_iowait, 0);
	assert_int_equal(res.cpu[0].usage[1].usage, 1999 + 1);
	/* iowait=yes: the same timing, each side's wait counted on its CPU */
	run("transactions", "clients=1 threads=1 client_work=1000 backend_work=2000 iowait=yes",
	    10000000);
	EQ("transactions", "done", 1999);
	assert_int_equal(tg_data[0].max_iowait, 1);
	assert_int_equal(tg_data[1].max_iowait, 1);
	/*
	 * one block I/O of 10 us in the backend, its work split in two: 1 us,
	 * I/O, C1 exit, 1 us, reply: 1 + 1 + 1 + 10 + 1 + 1 + 1 = 16 us a
	 * transaction, done at 17 + 16 (k - 1) us; the I/O wait counts on CPU 0
	 */
	run("transactions", "clients=1 threads=1 client_work=1000 backend_work=2000 ios=1 io=10us",
	    10000000);
	EQ("transactions", "done", 624); /* 17 + 16 x 623 <= 10000 */
	EQ("transactions", "latency_mean_us", 16);
	assert_int_equal(tg_data[0].max_iowait, 1);
	assert_int_equal(tg_data[1].max_iowait, 0);
	/* a distribution's bare numbers are µs, as every --wl-opt duration's: io=10 is io=10us */
	run("transactions", "clients=1 threads=1 client_work=1000 backend_work=2000 ios=1 io=10",
	    10000000);
	EQ("transactions", "done", 624);
	EQ("transactions", "latency_mean_us", 16);
	run("transactions", "clients=1 threads=1 client_work=1000 backend_work=2000 ios=1 "
	    "io=const:10", 10000000);
	EQ("transactions", "latency_mean_us", 16);
	/* completions on CPU 1: its handler wakes the backend remotely, after CPU 1's own exit: +1 us */
	run("transactions", "clients=1 threads=1 client_work=1000 backend_work=2000 ios=1 io=10us "
	    "irq_cpu=1", 10000000);
	EQ("transactions", "latency_mean_us", 17);
	/*
	 * two connections on one thread, clients dealt in blocks: backends on
	 * CPUs 0 and 1, the thread on CPU 1; the thread handles its ready
	 * connections one burst each before it waits. More than one
	 * connection alone, at most 2 per 4 us (each backend needs 2 us of
	 * work and 1 us of the thread plus a wake-up per transaction)
	 */
	run("transactions", "clients=2 threads=1 client_work=1000 backend_work=2000", 10000000);
	EQ("transactions", "threads", 1);
	assert_true(metric("transactions", "done") > 1999);
	assert_true(metric("transactions", "done") <= 5000);
	/* the two sides always add up to the latency */
	assert_float_equal(metric("transactions", "backend_us") + metric("transactions", "thread_us"),
			   metric("transactions", "latency_mean_us"), 1e-6);
	/* more threads than connections: one per connection */
	run("transactions", "clients=2 threads=20", 1000000);
	EQ("transactions", "threads", 2);
}

/*
 * placement=spare: the backends on CPUs 0 .. C-1, thread t on C + t (n - C) / J.
 * On 4 CPUs one connection and one thread: the backend on CPU 0, the thread
 * on CPU 1 (shared: CPU 3), the timing that of the 2-CPU case above (5 us a
 * transaction, 1999 in 10 ms). Two connections and two threads: backends on
 * 0 and 1, threads on 2 and 3, two independent 5 us loops (shared puts
 * thread 1 on CPU 3 - 2 = 1, beside backend 1). More tasks than CPUs: refused.
 */
static void transactions_placement(void **unused)
{
	(void)unused;
	const char *opts = "clients=1 threads=1 client_work=1000 backend_work=2000";
	char buf[160];

	run_plat = "[platform]\nname = t4c\n[topology]\ncores_per_package = 4\n[kernel]\nhz = 1000\n"
		   "[state.0]\nname = POLL\nlatency = 0\nresidency = 0\nflags = polling\nentry = poll\n"
		   "[state.1]\nname = C1\nlatency = 1\nresidency = 20\nentry = hlt\n";
	snprintf(buf, sizeof(buf), "%s placement=spare", opts);
	run("transactions", buf, 10000000);
	EQ("transactions", "done", 1999);
	assert_true(res.cpu[0].busy_ns > 0 && res.cpu[1].busy_ns > 0);
	assert_int_equal(res.cpu[2].busy_ns, 0);
	assert_int_equal(res.cpu[3].busy_ns, 0);
	run("transactions", opts, 10000000); /* shared */
	EQ("transactions", "done", 1999);
	assert_int_equal(res.cpu[1].busy_ns, 0);
	assert_true(res.cpu[3].busy_ns > 0);
	run("transactions", "clients=2 threads=2 client_work=1000 backend_work=2000 placement=spare",
	    10000000);
	EQ("transactions", "done", 2 * 1999);
	EQ("transactions", "latency_mean_us", 5);
	for (int i = 0; i < 4; i++)
		assert_true(res.cpu[i].busy_ns > 0);
	run_plat = PLAT;

	/* 2 CPUs, two backends and a thread */
	struct il_err e;
	const struct il_workload *wl = il_workload_find("transactions");
	struct il_wl_opt o[3];
	assert_int_equal(il_platform_load_string(&plat, run_plat, strlen(run_plat), "t.ini", &e), 0);
	memset(&mach, 0, sizeof(mach));
	mach.cpuidle = true;
	mach.drv = plat.table;
	assert_true(il_wl_opt_parse("clients=2", &o[0], NULL));
	assert_true(il_wl_opt_parse("threads=1", &o[1], NULL));
	assert_true(il_wl_opt_parse("placement=spare", &o[2], NULL));
	void *cfg = calloc(1, wl->config_size);
	assert_int_equal(il_workload_configure(wl, cfg, o, 3, &e), 0);
	struct il_sim_params prm;
	il_sim_params_default(&prm);
	prm.duration_ns = 1000000;
	il_err_clear(&e);
	/* the workload's setup runs with the run */
	struct il_sim *s = il_sim_new(&plat, &mach, &tg_gov, wl, cfg, &prm, &e);
	if (s) {
		assert_int_not_equal(il_sim_run(s, &e), 0);
		il_sim_free(s);
	}
	assert_non_null(strstr(e.msg, "2 clients + 1 threads > 2 CPUs"));
	free(cfg);
}

/* Timers every 1.5 ms, 2 us handler: the tick stays stopped, 6 wake-ups per CPU in 10 ms. */
static void idle(void **unused)
{
	(void)unused;
	run("idle", "period=1.5ms jitter=0 cost=2us", 10000000);
	EQ("idle", "timer_wakeups", 12);
	assert_int_equal(res.cpu[0].usage[1].usage, 6);
	assert_int_equal(res.cpu[0].usage[1].time_ns, 1500700 + 5 * 1497700);
	assert_int_equal(res.cpu[0].busy_ns, 0);
	assert_int_equal(res.cpu[0].tick_stops, 7);
}

/* Device interrupts (Poisson, 1000/s per CPU) wake C1 each time; the timer queue stays empty. */
static void idle_irqs(void **unused)
{
	(void)unused;
	run("idle", "period=10s irq_rate=1000", 1000000000);
	double irqs = metric("idle", "device_irqs");
	/* 2 CPUs x 1000 expected, sd ~45 */
	assert_true(irqs > 1850 && irqs < 2150);
	double usage = (double)(res.cpu[0].usage[1].usage + res.cpu[1].usage[1].usage);
	/* one C1 exit per interrupt, except those that land in an entry window or an exit */
	assert_true(usage <= irqs && usage >= irqs - 10);
	EQ("idle", "timer_wakeups", 0);
	/* all on CPU 1 */
	run("idle", "period=10s irq_rate=1000 irq_cpu=1", 1000000000);
	assert_int_equal(res.cpu[0].usage[1].usage, 0);
	assert_true(res.cpu[1].usage[1].usage > 900);
}

/* Messages are conserved: every one sent was received, dropped or is still queued. */
static void stream(void **unused)
{
	(void)unused;
	run("stream", "sizes=64,4096 phase=1ms rcvbuf=4", 1000000000);
	assert_int_equal(res.duration_ns > 1999000 && res.duration_ns <= 2100000, 1);
	for (int k = 0; k < 2; k++) {
		const char *row = k ? "4096B" : "64B";
		double sent = metric(row, "sent"), got = metric(row, "received"),
		       drop = metric(row, "dropped");
		assert_true(got > 0);
		assert_true(got + drop <= sent && sent - got - drop <= 4);
		EQ(row, "throughput_Mbps", got * (k ? 4096 : 64) * 8 / 1e-3 / 1e6);
		EQ(row, "send_Mbps", sent * (k ? 4096 : 64) * 8 / 1e-3 / 1e6);
	}
}

/*
 * The cycles of a message follow the clock, its ns part does not. 1000-byte
 * messages, phase 1 ms (it ends at the first task_ran at or after 1 ms,
 * which is not counted); C1 entered 300 ns after blocking, left 1 us after
 * a wake-up; a wake-up in the entry window aborts it.
 */
static void stream_ns(void **unused)
{
	(void)unused;
	/*
	 * Receiver-bound: 1000 cycles to send, 2.5 us (ns part) to receive,
	 * queue of 4. The first message (sent at 1 us at 1000 MHz, 0.5 us at
	 * 2000) wakes the receiver out of C1 1 us later; from then its queue
	 * never empties: messages done at 2 + 2.5 j us (1.5 + 2.5 j at 2000
	 * MHz), 399 before 1 ms at either clock. Sent: one per 1 us (999) or
	 * 0.5 us (1999).
	 */
	const char *rb = "sizes=1000 phase=1ms rcvbuf=4 send_work=0 send_copy=1 recv_work=0 "
			 "recv_copy_ns=2.5";
	run_mhz = 1000;
	run("stream", rb, 1000000000);
	EQ("1000B", "received", 399);
	EQ("1000B", "sent", 999);
	assert_true(metric("1000B", "dropped") >= 999 - 399 - 4);
	EQ("1000B", "receiver_wakeups", 1);
	run_mhz = 2000;
	run("stream", rb, 1000000000);
	EQ("1000B", "received", 399);
	EQ("1000B", "sent", 1999);
	/*
	 * Sender-bound: 3000 cycles to send, 0.4 us to receive. At 1000 MHz
	 * message k leaves at 3k us, the receiver runs at 3k + 1 (C1 exit) to
	 * 3k + 1.4: 333 sent, the 333rd received at 1000.4 us is the one that
	 * ends the phase: 332. At 2000 MHz (1.5 us per message) odd messages
	 * find the receiver in C1 (done at 1.5k + 1.4), even ones in its entry
	 * window (done at 1.5k + 0.6): 666 sent by 999 us, all received.
	 */
	const char *sb = "sizes=1000 phase=1ms send_work=0 send_copy=3 recv_work=0 recv_copy_ns=0.4";
	run_mhz = 1000;
	run("stream", sb, 1000000000);
	EQ("1000B", "sent", 333);
	EQ("1000B", "received", 332);
	EQ("1000B", "receiver_wakeups", 333);
	run_mhz = 2000;
	run("stream", sb, 1000000000);
	EQ("1000B", "sent", 666);
	EQ("1000B", "received", 666);
	EQ("1000B", "dropped", 0);
	run_mhz = 1000;
}

/* Another core than a CPU's: the next core of its package, else the next package, else the sibling. */
static void other_core(void **unused)
{
	(void)unused;
	static const struct { const char *topo; int cpu, want; } cases[] = {
		{ "packages = 2\ncores_per_package = 2\nthreads_per_core = 2\n", 0, 2 },
		{ "packages = 2\ncores_per_package = 2\nthreads_per_core = 2\n", 1, 2 },
		{ "packages = 2\ncores_per_package = 2\nthreads_per_core = 2\n", 3, 0 },
		{ "packages = 2\ncores_per_package = 2\nthreads_per_core = 2\n", 4, 6 },
		{ "packages = 2\ncores_per_package = 2\nthreads_per_core = 2\n", 7, 4 },
		{ "packages = 2\ncores_per_package = 1\nthreads_per_core = 2\n", 1, 2 },
		{ "packages = 2\ncores_per_package = 1\nthreads_per_core = 2\n", 2, 0 },
		{ "packages = 1\ncores_per_package = 1\nthreads_per_core = 4\n", 1, 2 },
		{ "packages = 1\ncores_per_package = 1\nthreads_per_core = 4\n", 3, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct il_platform p;
		struct il_machine_idle m;
		struct il_err e;
		char text[400];
		const struct il_workload *wl = il_workload_find("idle");
		void *cfg = calloc(1, wl->config_size);
		struct il_sim_params prm;
		snprintf(text, sizeof(text), "[platform]\nname = t\n[topology]\n%s"
			 "[state.0]\nname = POLL\nlatency = 0\nresidency = 0\nflags = polling\n",
			 cases[i].topo);
		assert_int_equal(il_platform_load_string(&p, text, strlen(text), "t.ini", &e), 0);
		memset(&m, 0, sizeof(m));
		m.cpuidle = true;
		m.drv = p.table;
		assert_int_equal(il_workload_configure(wl, cfg, NULL, 0, &e), 0);
		il_sim_params_default(&prm);
		struct il_sim *s = il_sim_new(&p, &m, NULL, wl, cfg, &prm, &e); /* one state: no governor */
		assert_non_null(s);
		assert_int_equal(il_wl_other_core(s, cases[i].cpu), cases[i].want);
		il_sim_free(s);
		free(cfg);
	}
}

static void refusals(void **unused)
{
	(void)unused;
	static const struct { const char *wl, *opt, *msg; } bad[] = {
		{ "sleep-sweep", "intervals=5,x", "intervals" },
		{ "sleep-sweep", "loops=0", "loops" },
		{ "sleep-sweep", "waker=1", "different CPUs" },
		{ "sleep-sweep", "colour=red", "no option 'colour'" },
		{ "pingpong", "cpus=1,1", "two different CPUs" },
		{ "pingpong", "period=0", "period: '0' is not a duration in 1us..1000s" },
		{ "wake-latency", "mean=-3", "mean: '-3' is not a duration in 0..1000s" },
		{ "request-response", "send_copy=lots", "send_copy: 'lots' is not a number in 0..1000000" },
		{ "request-response", "placement=random", "placement" },
		{ "request-response", "mix=dbench", "mix" },
		{ "stream", "sizes=", "sizes: empty value in the list" },
		{ "transactions", "io=weird:1", "unknown distribution" },
		{ "idle", "period=0", "period: '0' is not a duration in 1ns..1000s" },
		{ "idle", "irq_rate=fast", "irq_rate: 'fast' is not a number in 0..100000000" },
		{ "sleep-sweep", "wakee=8192", "wakee: '8192' is not a whole number in 0..8191" },
		{ "transactions", "irq_cpu=any", "irq_cpu: 'any' is not a whole number in 0..8191 or 'same'" },
		{ "transactions", "iowait=maybe", "iowait" },
		{ "transactions", "placement=pinned", "placement" },
		{ "transactions", "threads=0", "threads: '0' is not a whole number in 1..8192" },
		{ "transactions", "clients=8193", "clients: '8193' is not a whole number in 0..8192" },
		{ "pingpong", "cpus=1", "cpus: 1 value, it takes 2" },
		{ "stream", "sizes=1,2..4 stride 1", "sizes: '2..4 stride 1' is not a value or a range 'A..B step S'" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct il_workload *wl = il_workload_find(bad[i].wl);
		struct il_wl_opt o;
		struct il_err e;
		assert_true(il_wl_opt_parse(bad[i].opt, &o, NULL));
		void *cfg = calloc(1, wl->config_size);
		il_err_clear(&e);
		int r = il_workload_configure(wl, cfg, &o, 1, &e);
		if (r == 0 || !strstr(e.msg, bad[i].msg)) {
			print_error("%s %s: r=%d '%s'\n", bad[i].wl, bad[i].opt, r, e.msg);
			fail();
		}
		free(cfg);
	}
	struct il_wl_opt o;
	assert_false(il_wl_opt_parse("novalue", &o, NULL));
	assert_false(il_wl_opt_parse("=x", &o, NULL));
	assert_null(il_workload_find("nope"));
}

static int teardown(void **unused)
{
	(void)unused;
	if (res.cpu)
		il_sim_result_free(&res);
	return 0;
}

/*
 * A batch's memory is estimated before it runs: past its limit the jobs are
 * lowered until jobs x run + all results fit; if one job does not, refused.
 */
static void batch_memory(void **unused)
{
	(void)unused;
	struct il_err e;
	static struct il_platform p;
	const struct il_workload *wl = il_workload_find("idle");
	struct il_sim_config cfg = { .gov_spec = "menu" };
	struct il_sim_batch b;

	assert_int_equal(il_platform_load_string(&p, PLAT, strlen(PLAT), "t.ini", &e), 0);
	void *wcfg = calloc(1, wl->config_size);
	assert_int_equal(il_workload_configure(wl, wcfg, NULL, 0, &e), 0);
	uint64_t run = il_sim_run_bytes(&p, wl, il_gov_find("menu")->cpu_data_size);
	uint64_t result = il_sim_result_bytes(&p);
	struct { uint64_t max; int jobs_run; int ret; } cases[] = {
		{ 0, 8, 0 },                        /* IL_SIM_MEM_MAX: all 8 */
		{ 8 * result + 3 * run, 3, 0 },     /* exactly 3 jobs fit */
		{ 8 * result + 3 * run - 1, 2, 0 },
		{ 8 * result + run, 1, 0 },
		{ 8 * result + run - 1, 0, -ENOMEM },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&b, 0, sizeof(b));
		il_sim_params_default(&b.params);
		b.params.duration_ns = 1000000;
		b.platform = &p;
		b.wl = wl;
		b.wl_cfg = wcfg;
		b.nconfigs = 1;
		b.configs = &cfg;
		b.runs = 8;
		b.jobs = 8;
		b.mem_max = cases[i].max;
		il_err_clear(&e);
		assert_int_equal(il_sim_batch_prepare(&b, &e), cases[i].ret);
		if (cases[i].ret == 0) {
			assert_int_equal(b.jobs_run, cases[i].jobs_run);
			assert_int_equal(b.mem_estimate, 8 * result + (uint64_t)cases[i].jobs_run * run);
			assert_int_equal(il_sim_batch_run(&b, &e), 0);
			assert_int_equal(b.results[7].ncpus, 2);
		} else {
			assert_non_null(strstr(e.msg, "1 configuration x 8 runs on 2 CPUs would take about"));
			assert_non_null(strstr(e.msg, "more than the limit of"));
			assert_null(b.results); /* refused before the results are allocated */
		}
		il_sim_batch_free(&b);
	}
	free(wcfg);
	/* the largest platform: what docs/sim.md says a run takes */
	p.packages = 8;
	p.cores_per_package = 1024;
	run = il_sim_run_bytes(&p, wl, il_gov_find("menu")->cpu_data_size);
	assert_true(run > (10u << 20) && run < (16u << 20));
	result = il_sim_result_bytes(&p);
	assert_true(result > (5u << 20) && result < (6u << 20));
}

/* A workload's estimate of its idle periods (what a run costs), by hand. */
static double est(const char *name, const char *opts, int64_t d)
{
	struct il_err e;
	const struct il_workload *wl = il_workload_find(name);
	void *cfg;

	assert_non_null(wl);
	assert_non_null(wl->est_idle_periods);
	assert_int_equal(configure(wl, opts, &cfg, &e), 0);
	double v = wl->est_idle_periods(cfg, &plat, d);
	free(cfg);
	return v;
}

static void est_costs(void **unused)
{
	(void)unused;
	struct il_err e;
	assert_int_equal(il_platform_load_string(&plat, PLAT, strlen(PLAT), "t.ini", &e), 0);
	/* no base or turbo frequency: 2 GHz */
	assert_float_equal(il_wl_est_hz(&plat), 2e9, 0);
	/* a hand-over: 1000 cycles (500 ns) and a 3 µs wake-up */
	assert_float_equal(est("pingpong", "work=1000", 1000000000), 1e9 / 3500, 1e-6);
	/* ten wake-ups 100 µs apart, the waker spinning: 10; half the sweep in the run: 5;
	 * the waker sleeping too: twice as many */
	const char *sw = "intervals=100 loops=10 waker_work=0 wakee_work=0";
	assert_float_equal(est("sleep-sweep", sw, 1000000000), 10, 1e-9);
	assert_float_equal(est("sleep-sweep", sw, 500000), 5, 1e-9);
	assert_float_equal(est("sleep-sweep", "intervals=100 loops=10 waker_work=0 wakee_work=0 "
			       "mode=relative", 1000000000), 20, 1e-9);
	/* one pair: 4000 cycles (2 µs), 1000 bytes copied twice (0.1 cycle, 1 ns a byte:
	 * 2 x 1.05 µs) and two wake-ups (6 µs), 10.1 µs an exchange, two idle periods
	 * each; the clients start at 0.5 s of 1 s */
	const char *rr = "pairs=1 client_work=2000 server_work=2000 payload=1000 send_copy=0.1 "
			 "recv_copy_ns=1";
	assert_float_equal(est("request-response", rr, 1000000000), 2e9 / 10100, 1e-6);
	char rr2[256];
	snprintf(rr2, sizeof(rr2), "%s start=500ms", rr);
	assert_float_equal(est("request-response", rr2, 1000000000), 1e9 / 10100, 1e-6);
	/* every CPU's timer each 4 ms + 0.5 ms / 2, and 100 interrupts a second on each */
	double ncpus = il_platform_ncpus(&plat);
	assert_float_equal(est("idle", "period=4ms jitter=500us irq_rate=100", 1000000000),
			   ncpus * 1e9 / 4250000 + 100 * ncpus, 1e-6);
	/* kernbench, one chain of one 20 M-cycle process in 10 M-cycle bursts with 20 µs
	 * waits: 3 bursts' waits (2 + the process's own), 10 ms + 3 x 23 µs; 4 idle periods */
	assert_float_equal(est("kernbench", "jobs=1 short_procs=0 work=20000000 burst=10000000 "
			       "wait=20us", 1000000000), 4 * 1e9 / (10e6 + 3 * 23000), 1e-6);
}

/* Tasks are dealt longest first by that estimate, whatever the batches' order. */
static void task_order(void **unused)
{
	(void)unused;
	struct il_err e;
	static struct il_platform p;
	struct il_sim_config cfg = { .gov_spec = "menu" };
	struct il_sim_batch b[2], *bs[2] = { &b[0], &b[1] };
	const char *wls[2] = { "idle", "pingpong" };
	void *wcfg[2];

	assert_int_equal(il_platform_load_string(&p, PLAT, strlen(PLAT), "t.ini", &e), 0);
	for (int i = 0; i < 2; i++) {
		const struct il_workload *wl = il_workload_find(wls[i]);
		wcfg[i] = calloc(1, wl->config_size);
		assert_int_equal(il_workload_configure(wl, wcfg[i], NULL, 0, &e), 0);
		memset(&b[i], 0, sizeof(b[i]));
		il_sim_params_default(&b[i].params);
		b[i].params.duration_ns = 1000000;
		b[i].platform = &p;
		b[i].wl = wl;
		b[i].wl_cfg = wcfg[i];
		b[i].nconfigs = 1;
		b[i].configs = &cfg;
		b[i].runs = 2;
		b[i].jobs = 1;
		assert_int_equal(il_sim_batch_prepare(&b[i], &e), 0);
	}
	/* pingpong for 1 ms: 10^6 / 3500 hand-overs (1000 cycles at 2 GHz and a wake-up),
	 * one of the 2 CPUs ticking at 1000 Hz a quarter each */
	assert_float_equal(il_sim_task_cost(&b[1]), (1e6 / 3500 + 0.25) / IL_SIM_EST_PERIODS_PER_S,
			   1e-12);
	assert_true(il_sim_task_cost(&b[0]) < il_sim_task_cost(&b[1]));
	int n;
	struct il_sim_task *t = il_sim_tasks(bs, 2, &n);
	assert_int_equal(n, 4);
	int want[4][2] = { { 1, 0 }, { 1, 1 }, { 0, 0 }, { 0, 1 } }; /* (batch, run) */
	for (int i = 0; i < 4; i++) {
		assert_int_equal(t[i].batch, want[i][0]);
		assert_int_equal(t[i].run, want[i][1]);
	}
	free(t);
	for (int i = 0; i < 2; i++) {
		il_sim_batch_free(&b[i]);
		free(wcfg[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sleep_sweep),
		cmocka_unit_test(sleep_sweep_busy),
		cmocka_unit_test(sleep_sweep_absolute),
		cmocka_unit_test(sleep_sweep_row_gap),
		cmocka_unit_test(sleep_sweep_intervals),
		cmocka_unit_test(pingpong),
		cmocka_unit_test(wake_latency),
		cmocka_unit_test(request_response),
		cmocka_unit_test(request_response_setup),
		cmocka_unit_test(request_response_placement),
		cmocka_unit_test(request_response_mix),
		cmocka_unit_test(transactions),
		cmocka_unit_test(transactions_placement),
		cmocka_unit_test(idle),
		cmocka_unit_test(idle_irqs),
		cmocka_unit_test(stream),
		cmocka_unit_test(stream_ns),
		cmocka_unit_test(other_core),
		cmocka_unit_test(refusals),
		cmocka_unit_test(batch_memory),
		cmocka_unit_test(est_costs),
		cmocka_unit_test(task_order),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
