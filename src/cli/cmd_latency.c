// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab latency: wake-up latency percentiles and the context-switch rate
 * of this machine (include/idlelab/wakebench.h; docs/live.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/duration.h"
#include "idlelab/report.h"
#include "idlelab/restore.h"
#include "idlelab/wakebench.h"
#include "live_opts.h"
#include "util.h"

static const char *const cols[] = {
	"mode", "from_cpu", "to_cpu", "samples", "dropped", "min_us", "p25_us", "p50_us",
	"p75_us", "p90_us", "p99_us", "p999_us", "max_us", "mean_us", "switches_per_s",
};

static const char *const mode_names[] = { "halt", "poll", "pingpong" };

static void pct_row(struct il_table *t, const char *mode, int from, int to,
		    const struct il_wake_pct *p, int dropped, double rate)
{
	il_table_row(t);
	il_table_str(t, mode);
	il_table_i64(t, from);
	il_table_i64(t, to);
	il_table_i64(t, p->n);
	il_table_i64(t, dropped);
	if (p->n) {
		const int64_t v[] = { p->min, p->p25, p->p50, p->p75, p->p90, p->p99, p->p999, p->max };
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			il_table_dbl(t, (double)v[i] / 1000.0, 3);
		il_table_dbl(t, p->mean / 1000.0, 3);
	} else {
		for (int i = 0; i < 9; i++)
			il_table_na(t);
	}
	if (rate > 0)
		il_table_dbl(t, rate, 0);
	else
		il_table_na(t);
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "samples", required_argument, NULL, 'n' },
		{ "gap", required_argument, NULL, 'g' },
		{ "format", required_argument, NULL, 'f' },
		LIVE_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct live_opts lo = { 0 };
	enum il_format fmt = IL_FORMAT_TABLE;
	bool modes[3] = { true, true, true };
	int64_t gap_ns = 500000;
	long samples = 10000;
	struct il_err err;
	struct il_table *t;
	double load = -1;
	int c, r = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:n:g:f:", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (!strcmp(optarg, "all")) {
				modes[0] = modes[1] = modes[2] = true;
			} else {
				int k;
				for (k = 0; k < 3 && strcmp(optarg, mode_names[k]); k++)
					;
				if (k == 3)
					return cli_usage_error("latency", "--mode: '%s' is not halt, poll, "
							       "pingpong or all", optarg);
				modes[0] = modes[1] = modes[2] = false;
				modes[k] = true;
			}
			break;
		case 'n': {
			int64_t v;
			if (il_parse_i64(optarg, &v) || v < 1 || v > 10000000)
				return cli_usage_error("latency", "--samples: '%s' is not 1..10000000",
						       optarg);
			samples = v;
			break;
		}
		case 'g':
			/* a bare number is us, as sweep's --intervals and the default say */
			if (il_parse_duration(optarg, true, &gap_ns) || gap_ns < 1000 ||
			    gap_ns > 1000000000)
				return cli_usage_error("latency", "--gap: '%s' is not a duration of "
						       "1us..1s (bare numbers: us; 500us)", optarg);
			break;
		case 'f':
			if (il_format_parse(optarg, &fmt))
				return cli_usage_error("latency", "unknown format '%s'", optarg);
			break;
		case 'P': case 'G': case 'M': case 'D': case 'R':
			if ((r = live_opt(&lo, c, optarg, "latency")))
				return r;
			break;
		case ':':
			return cli_usage_error("latency", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("latency", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("latency", "unexpected argument '%s'", argv[optind]);
	if ((r = live_finish(&lo, "latency")))
		return r;

	live_catch_sigint();
	if (live_apply(&lo))
		return 1;
	t = il_table_new(NULL);
	/* a row is a mode and a direction (pingpong has two): every slice repeats them */
	il_table_keys(t, 3);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	int64_t clock_ns = il_wake_clock_cost_ns();
	for (int p = 0; p < lo.npairs && !live_stop && !r; p++)
		for (int m = 0; m < 3 && !live_stop && !r; m++) {
			struct il_wake_opts wo = {
				.mode = (enum il_wake_mode)m, .samples = (int)samples, .gap_ns = gap_ns,
				.waker = lo.pairs[p].waker, .wakee = lo.pairs[p].wakee,
				.stop = &live_stop,
			};
			struct il_wake_result res;

			if (!modes[m])
				continue;
			if (il_wake_run(&wo, &res, &err)) {
				r = cli_report(&err);
				break;
			}
			if (load < 0)
				load = res.load1;
			if (m == IL_WAKE_PINGPONG) {
				pct_row(t, "pingpong", wo.waker, wo.wakee, &res.lat, res.dropped,
					res.switches_per_s);
				pct_row(t, "pingpong", wo.wakee, wo.waker, &res.back, res.back_dropped,
					res.switches_per_s);
			} else {
				pct_row(t, mode_names[m], wo.waker, wo.wakee, &res.lat, res.dropped, 0);
			}
		}
	if (il_change_restore())
		r = 1;
	if (fmt == IL_FORMAT_TABLE) {
		printf("clock read (CLOCK_MONOTONIC, back-to-back, least of 1000): %lld ns\n",
		       (long long)clock_ns);
		if (load >= 0)
			printf("load average at start: %.2f\n", load);
		printf("\n");
	}
	if (il_table_rows(t) && il_table_print(t, fmt, stdout))
		r = 1;
	if (live_stop)
		cli_error("latency: interrupted: the rows done so far");
	il_table_free(t);
	if (fflush(stdout) != 0)
		r = 1;
	return r;
}

const struct il_command cmd_latency = {
	.name = "latency",
	.summary = "measure this machine's wake-up latency and context-switch rate",
	.usage =
	"usage: idlelab latency [--mode halt|poll|pingpong|all] [--samples N] [--gap D]\n"
	"                       [--pair WAKER:WAKEE]... [--governor NAME]\n"
	"                       [--param MODULE.PARAM=VALUE]... [--disable STATE]...\n"
	"                       [--root DIR] [--format table|csv|json]\n\n"
	"Cross-CPU wake-up latency between two pinned threads (the stamp before the\n"
	"wake to the clock read when the woken thread runs), in microseconds:\n"
	"  halt      the wakee blocks in FUTEX_WAIT, its CPU goes idle, the wake is an\n"
	"            IPI; samples where the wakee never slept are dropped and counted\n"
	"  poll      the wakee spins on the word: the floor a polling CPU gives\n"
	"  pingpong  two threads hand a token through two futex words, as the\n"
	"            simulator's pingpong workload (context_switch2): both directions'\n"
	"            latency, and the context switches per second (two per round trip);\n"
	"            hand-overs that found the other side awake are dropped and counted\n"
	"The clock-read cost printed first is inside every sample once.\n\n"
	"  --mode M             halt, poll, pingpong or all (default)\n"
	"  --samples N          wake-ups per mode (pingpong: round trips; default 10000)\n"
	"  --gap D              pause between halt/poll wake-ups, +0..50% jitter (500us;\n"
	"                       a bare number is us)\n"
	"  --pair A:B           waker CPU A, wakee CPU B (default 0:1; repeatable)\n"
	"  --governor NAME      switch the cpuidle governor for the run\n"
	"  --param M.P=V        set /sys/module/M/parameters/P for the run (repeatable)\n"
	"  --disable STATE      disable idle state STATE (index or name) on the pairs'\n"
	"                       CPUs for the run (repeatable)\n"
	"  --root DIR           the machine's files below DIR instead of /\n"
	"  --format F           table (default), csv or json\n\n"
	"Every change is said on stderr and written back at the end, on an error, and\n"
	"on SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,\n"
	"SIGVTALRM, SIGXCPU, SIGPWR or SIGIO (SIGINT ends the run with the rows done\n"
	"so far).\n"
	"What a run killed with SIGKILL left changed (it is recorded in /run/idlelab/\n"
	"changes) is written back by the next sweep or latency; while one run's changes\n"
	"are in force, another run's are refused.\n"
	"Other runnable tasks on these CPUs show up as millisecond tails: run it on an\n"
	"otherwise idle machine (the load average at start is printed).\n",
	.run = run,
};
