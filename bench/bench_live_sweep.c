// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_live_sweep: the sim's sleep-sweep workload run on this machine, to
 * hold `idlelab sim --workload sleep-sweep` against the real kernel's
 * counters (docs/sim.md, "The model against this machine").
 *
 * The measurement is the library's (il_sweep_run, include/idlelab/wakebench.h:
 * the same code as `idlelab sweep`), and so are the changes and their
 * restore (include/idlelab/restore.h); this program keeps the table form
 * docs/sim.md quotes. --governor NAME writes cpuidle/current_governor,
 * --param MODULE.PARAM=VALUE a /sys/module/.../parameters file
 * (haltpoll.guest_halt_poll_ns=200000 is
 * /sys/module/haltpoll/parameters/guest_halt_poll_ns); each old value is
 * written back at exit, on error and on SIGINT/SIGTERM, and both changes are
 * printed. Needs root for those; reading the counters does not.
 *
 * usage: bench_live_sweep [--intervals LIST] [--loops N] [--waker A] [--wakee B]
 *                         [--governor NAME] [--param MODULE.PARAM=VALUE]... [--csv]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/opts.h"
#include "idlelab/restore.h"
#include "idlelab/wakebench.h"
#include "idlelab/workload.h"

#define MAX_PARAMS 8
#define MAX_INTERVALS 64

static bool csv;

static int print_row(const struct il_sweep_row *r, void *ctx)
{
	char per[256] = "", row[32];
	double ap = r->usage ? 100.0 * (double)r->above / (double)r->usage : 0;
	double bp = r->usage ? 100.0 * (double)r->below / (double)r->usage : 0;
	int n = r->lat.n;

	(void)ctx;
	for (int i = 0; i < r->nstates; i++) {
		size_t l = strlen(per);
		snprintf(per + l, sizeof(per) - l, "%s%s=%llu", i ? (csv ? ";" : " ") : "",
			 r->state_name[i], (unsigned long long)r->state_usage[i]);
	}
	snprintf(row, sizeof(row), "%lldus", (long long)(r->interval_ns / 1000));
	if (csv)
		printf("%lld,%d,%d,%.2f,%llu,%llu,%llu,%llu,%.2f,%.2f,%s,%.2f,%.2f,%.2f\n",
		       (long long)(r->interval_ns / 1000), r->wakee, r->waker,
		       n ? r->slept.mean / 1000 : 0, (unsigned long long)r->usage,
		       (unsigned long long)r->time_us * 1000, (unsigned long long)r->above,
		       (unsigned long long)r->below, ap, bp, per,
		       n ? (double)r->lat.p50 / 1000 : 0, n ? (double)r->lat.p99 / 1000 : 0,
		       n ? (double)r->lat.max / 1000 : 0);
	else
		printf("%-7s %9d %9d %9.2f %10llu %14llu %10llu %10llu %9.2f %9.2f  %-24s %10.2f "
		       "%10.2f %10.2f\n",
		       row, r->wakee, r->waker, n ? r->slept.mean / 1000 : 0,
		       (unsigned long long)r->usage, (unsigned long long)r->time_us * 1000,
		       (unsigned long long)r->above, (unsigned long long)r->below, ap, bp, per,
		       n ? (double)r->lat.p50 / 1000 : 0, n ? (double)r->lat.p99 / 1000 : 0,
		       n ? (double)r->lat.max / 1000 : 0);
	fflush(stdout);
	return 0;
}

static void report(const struct il_err *err)
{
	fprintf(stderr, "bench_live_sweep: %s%s%s\n", err->file, err->file[0] ? ": " : "", err->msg);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "intervals", required_argument, NULL, 'i' },
		{ "loops", required_argument, NULL, 'n' },
		{ "waker", required_argument, NULL, 'a' },
		{ "wakee", required_argument, NULL, 'b' },
		{ "governor", required_argument, NULL, 'g' },
		{ "param", required_argument, NULL, 'p' },
		{ "csv", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	int loops = 500, waker = 0, wakee_cpu = 1, c, nparams = 0;
	const char *governor = NULL, *params[MAX_PARAMS];
	struct il_err err;

	/* the sim's sleep-sweep intervals: its option row, default and bounds */
	struct ivs {
		int n;
		int64_t ns[MAX_INTERVALS];
	} ivl;
	const struct il_opt *ss = il_opt_find(il_workload_find("sleep-sweep")->opts, "intervals");
	struct il_opt iv_opt = *ss;
	iv_opt.off = offsetof(struct ivs, ns);
	iv_opt.count_off = offsetof(struct ivs, n);
	iv_opt.max_n = MAX_INTERVALS;
	if (il_opt_set(&iv_opt, &ivl, iv_opt.def, &err)) {
		fprintf(stderr, "bench_live_sweep: %s\n", err.msg);
		return 1;
	}
	while ((c = getopt_long(argc, argv, "i:n:a:b:g:p:c", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (il_opt_set(&iv_opt, &ivl, optarg, &err)) {
				fprintf(stderr, "bench_live_sweep: --intervals: %s\n", err.msg);
				return 2;
			}
			break;
		case 'n': loops = atoi(optarg); break;
		case 'a': waker = atoi(optarg); break;
		case 'b': wakee_cpu = atoi(optarg); break;
		case 'g': governor = optarg; break;
		case 'p': {
			const char *dot = strchr(optarg, '.'), *eq = strchr(optarg, '=');
			if (!dot || !eq || dot > eq) {
				fprintf(stderr, "bench_live_sweep: --param %s: want MODULE.PARAM=VALUE\n",
					optarg);
				return 2;
			}
			if (nparams == MAX_PARAMS) {
				fprintf(stderr, "bench_live_sweep: too many --param\n");
				return 2;
			}
			params[nparams++] = optarg;
			break;
		}
		case 'c': csv = true; break;
		default:
			fprintf(stderr, "usage: bench_live_sweep [--intervals LIST] [--loops N] [--waker A]"
				" [--wakee B] [--governor NAME] [--param MODULE.PARAM=VALUE]... [--csv]\n");
			return 2;
		}
	}
	if (loops < 1 || loops > 10000000 || waker == wakee_cpu || waker < 0 || wakee_cpu < 0) {
		fprintf(stderr, "bench_live_sweep: bad --loops, --waker or --wakee\n");
		return 2;
	}
	/* a machine without readable counters is refused before anything is changed */
	struct il_sweep_opts so = {
		.sysfs_root = NULL, .waker = waker, .wakee = wakee_cpu, .loops = loops,
		.nintervals = 0, .intervals_ns = ivl.ns, .row = print_row,
	};
	if (il_wake_cpu_ok(waker) || il_wake_cpu_ok(wakee_cpu)) {
		fprintf(stderr, "bench_live_sweep: CPU %d or %d: not one this process may run on\n",
			waker, wakee_cpu);
		return 1;
	}
	if (governor && il_change_governor("/", governor, &err)) {
		report(&err);
		return 1;
	}
	for (int i = 0; i < nparams; i++)
		if (il_change_param("/", params[i], &err)) {
			report(&err);
			return 1;   /* the restore runs at exit */
		}
	if (csv)
		printf("interval_us,wakee_cpu,waker_cpu,sleep_us,usage_diff,time_diff_ns,above_diff,"
		       "below_diff,above_pct,below_pct,states,lat_p50_us,lat_p99_us,lat_max_us\n");
	else
		printf("%-7s %9s %9s %9s %10s %14s %10s %10s %9s %9s  %-24s %10s %10s %10s\n",
		       "row", "wakee_cpu", "waker_cpu", "sleep_us", "usage_diff", "time_diff_ns",
		       "above_diff", "below_diff", "above_pct", "below_pct", "usage per state",
		       "lat_p50_us", "lat_p99_us", "lat_max_us");
	so.nintervals = ivl.n;
	if (il_sweep_run(&so, &err)) {
		report(&err);
		return 1;
	}
	return 0;
}
