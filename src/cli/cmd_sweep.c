// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab sweep: the live sleep sweep (include/idlelab/wakebench.h) on
 * this machine, the counterpart of `idlelab sim --workload sleep-sweep`
 * (docs/live.md).
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/opts.h"
#include "idlelab/report.h"
#include "idlelab/restore.h"
#include "idlelab/wakebench.h"
#include "idlelab/workload.h"
#include "live_opts.h"
#include "util.h"

#define SWEEP_INTERVALS_MAX 64

struct ivs {
	int n;
	int64_t ns[SWEEP_INTERVALS_MAX];
};

static const char *const cols[] = {
	"waker", "wakee", "interval_us", "loops", "sleep_us", "usage", "time_us", "above",
	"below", "above_pct", "below_pct", "states", "lat_p50_us", "lat_p90_us", "lat_p99_us",
	"lat_p999_us", "lat_max_us",
};

struct rows {
	struct il_table *t;
	int n, idle0;                /* rows, and rows whose wakee never entered a state */
	int idle0_cpu;
};

static int add_row(const struct il_sweep_row *r, void *ctx)
{
	struct rows *rs = ctx;
	struct il_table *t = rs->t;

	rs->n++;
	if (!r->no_cpuidle && !r->usage && r->loops > 0) {
		rs->idle0++;
		rs->idle0_cpu = r->wakee;
	}
	char states[512] = "";
	size_t o = 0;

	for (int i = 0; i < r->nstates && o + 48 < sizeof(states); i++)
		o += (size_t)snprintf(states + o, sizeof(states) - o, "%s%s=%llu", i ? ";" : "",
				      r->state_name[i], (unsigned long long)r->state_usage[i]);
	il_table_row(t);
	il_table_i64(t, r->waker);
	il_table_i64(t, r->wakee);
	il_table_dbl(t, (double)r->interval_ns / 1000.0, r->interval_ns % 1000 ? 3 : 0);
	il_table_i64(t, r->loops);
	if (r->slept.n)
		il_table_dbl(t, r->slept.mean / 1000.0, 2);
	else
		il_table_na(t);
	if (r->no_cpuidle) {
		/* no driver, no counters: usage .. states are not known */
		for (int i = 0; i < 7; i++)
			il_table_na(t);
		goto latency;
	}
	il_table_u64(t, (unsigned long long)r->usage);
	il_table_u64(t, (unsigned long long)r->time_us);
	if (r->no_above_below) {
		/* a kernel without the files: not known, not 0 */
		for (int i = 0; i < 4; i++)
			il_table_na(t);
	} else if (r->usage) {
		il_table_u64(t, (unsigned long long)r->above);
		il_table_u64(t, (unsigned long long)r->below);
		il_table_dbl(t, 100.0 * (double)r->above / (double)r->usage, 2);
		il_table_dbl(t, 100.0 * (double)r->below / (double)r->usage, 2);
	} else {
		il_table_u64(t, (unsigned long long)r->above);
		il_table_u64(t, (unsigned long long)r->below);
		il_table_na(t);
		il_table_na(t);
	}
	il_table_str(t, states);
latency:
	if (r->lat.n) {
		il_table_dbl(t, (double)r->lat.p50 / 1000.0, 2);
		il_table_dbl(t, (double)r->lat.p90 / 1000.0, 2);
		il_table_dbl(t, (double)r->lat.p99 / 1000.0, 2);
		il_table_dbl(t, (double)r->lat.p999 / 1000.0, 2);
		il_table_dbl(t, (double)r->lat.max / 1000.0, 2);
	} else {
		for (int i = 0; i < 5; i++)
			il_table_na(t);
	}
	return live_stop;
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "intervals", required_argument, NULL, 'i' },
		{ "loops", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		LIVE_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct live_opts lo = { 0 };
	enum il_format fmt = IL_FORMAT_TABLE;
	struct il_err err;
	struct ivs ivl;
	struct il_table *t;
	long loops = 500;
	int c, r = 0;

	/* the sim's sleep-sweep intervals: its option row, default and bounds */
	const struct il_opt *ss = il_opt_find(il_workload_find("sleep-sweep")->opts, "intervals");
	struct il_opt iv_opt = *ss;
	iv_opt.off = offsetof(struct ivs, ns);
	iv_opt.count_off = offsetof(struct ivs, n);
	iv_opt.max_n = SWEEP_INTERVALS_MAX;
	if (il_opt_set(&iv_opt, &ivl, iv_opt.def, &err))
		return cli_report(&err);

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:n:f:", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (il_opt_set(&iv_opt, &ivl, optarg, &err))
				return cli_usage_error("sweep", "--intervals: %s", err.msg);
			break;
		case 'n': {
			int64_t v;
			if (il_parse_i64(optarg, &v) || v < 1 || v > 10000000)
				return cli_usage_error("sweep", "--loops: '%s' is not 1..10000000",
						       optarg);
			loops = v;
			break;
		}
		case 'f':
			if (il_format_parse(optarg, &fmt))
				return cli_usage_error("sweep", "unknown format '%s'", optarg);
			break;
		case 'P': case 'G': case 'M': case 'D': case 'R':
			if ((r = live_opt(&lo, c, optarg, "sweep")))
				return r;
			break;
		case ':':
			return cli_usage_error("sweep", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("sweep", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("sweep", "unexpected argument '%s'", argv[optind]);
	if ((r = live_finish(&lo, "sweep")))
		return r;

	char *sysroot = live_sysfs_root(&lo);
	live_catch_sigint();
	if (live_apply(&lo)) {
		free(sysroot);
		return 1;
	}
	double load1 = il_wake_load1();
	struct rows rs = { 0 };
	bool no_cpuidle = il_sweep_no_cpuidle(sysroot);

	if (no_cpuidle)
		cli_error("sweep: %s/cpuidle: no cpuidle driver: the CPUs idle in the default "
			  "routine and have no idle-state counters; the rows give the sleep and the "
			  "wake-up latency only", sysroot);
	t = il_table_new(NULL);
	rs.t = t;
	/* a row is a pair and an interval: every slice of the text repeats them */
	il_table_keys(t, 3);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	for (int p = 0; p < lo.npairs && !live_stop; p++) {
		struct il_sweep_opts so = {
			.sysfs_root = sysroot, .waker = lo.pairs[p].waker, .wakee = lo.pairs[p].wakee,
			.loops = (int)loops, .nintervals = ivl.n, .intervals_ns = ivl.ns,
			.row = add_row, .ctx = &rs, .stop = &live_stop, .no_cpuidle = no_cpuidle,
		};
		if (il_sweep_run(&so, &err)) {
			r = cli_report(&err);
			break;
		}
	}
	/* what was changed goes back before the results are printed */
	if (il_change_restore())
		r = 1;
	if (il_table_rows(t) && il_table_print(t, fmt, stdout))
		r = 1;
	if (live_stop)
		cli_error("sweep: interrupted: the rows done so far");
	/* zeros are not a measurement of idle states: say why they may be there */
	if (rs.idle0) {
		char load[64] = "not known";
		if (load1 >= 0)
			snprintf(load, sizeof(load), "%.2f", load1);
		cli_error("warning: sweep: in %d of %d rows CPU %d entered no idle state (its "
			  "cpuidle usage did not move): another task kept it busy (load average at "
			  "start %s)%s", rs.idle0, rs.n, rs.idle0_cpu, load,
			  lo.root && strcmp(lo.root, "/") ? ", or the tree below --root does not "
			  "change" : "");
	}
	il_table_free(t);
	free(sysroot);
	if (fflush(stdout) != 0)
		r = 1;
	return r;
}

const struct il_command cmd_sweep = {
	.name = "sweep",
	.summary = "measure this machine's idle states over a sweep of sleep lengths",
	.usage =
	"usage: idlelab sweep [--intervals LIST] [--loops N] [--pair WAKER:WAKEE]...\n"
	"                     [--governor NAME] [--param MODULE.PARAM=VALUE]... [--disable STATE]...\n"
	"                     [--root DIR] [--format table|csv|json]\n\n"
	"The live counterpart of `idlelab sim --workload sleep-sweep`: a waker thread\n"
	"pinned to WAKER sleeps each interval (clock_nanosleep, 1 ns timer slack) and\n"
	"wakes a wakee pinned to WAKEE through a futex; the wakee blocks again at once.\n"
	"Per pair and interval: the wakee CPU's cpuidle counter differences (usage,\n"
	"time, above, below, per-state usage), the sleep the wakee measured, and the\n"
	"wake-to-run latency percentiles (p50, p90, p99, p99.9, max). A machine\n"
	"without a cpuidle driver has no counters: its rows give the sleep and the\n"
	"latency, the counters n/a.\n\n"
	"  --intervals LIST     sleep lengths, as sleep-sweep takes them (default its own)\n"
	"  --loops N            wake-ups per interval (default 500)\n"
	"  --pair A:B           waker CPU A, wakee CPU B (default 0:1; repeatable)\n"
	"  --governor NAME      switch the cpuidle governor for the run\n"
	"  --param M.P=V        set /sys/module/M/parameters/P for the run (repeatable),\n"
	"                       e.g. haltpoll.guest_halt_poll_ns=200000\n"
	"  --disable STATE      disable idle state STATE (index or name) on the pairs'\n"
	"                       CPUs for the run (repeatable)\n"
	"  --root DIR           the machine's files below DIR instead of / (a copy of\n"
	"                       /sys: the counters are read and the changes made there)\n"
	"  --format F           table (default), csv or json\n\n"
	"Every change is said on stderr and written back at the end, on an error, and\n"
	"on SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,\n"
	"SIGVTALRM, SIGXCPU, SIGPWR or SIGIO (SIGINT ends the sweep with the rows done\n"
	"so far).\n"
	"What a run killed with SIGKILL left changed (it is recorded in /run/idlelab/\n"
	"changes) is written back by the next sweep or latency; while one run's changes\n"
	"are in force, another run's are refused.\n"
	"Changes need root. The figures depend on the machine's load: run it on an\n"
	"otherwise idle machine.\n",
	.run = run,
};
