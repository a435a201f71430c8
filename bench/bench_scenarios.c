// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_scenarios: how long each built-in scenario takes (idlelab scenario
 * run), full and --quick: wall time, CPU time (all threads), runs,
 * simulated seconds and simulated seconds per wall second, and the checks'
 * outcome, one line each. The full scenarios take hours on a small machine
 * (idlelab scenario list estimates them): run them on a quiet one.
 *
 * Usage: bench_scenarios [--quick-only | --full-only] [--jobs N] [NAME|FILE ...]
 *        (default: every built-in scenario, quick then full, --jobs = online CPUs)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "idlelab/scenario.h"

static int usage(void)
{
	fprintf(stderr, "usage: bench_scenarios [--quick-only | --full-only] [--jobs N] [NAME|FILE ...]\n");
	return 2;
}

/* One scenario in one mode: 0, or 1 after a message. */
static int bench_one(const char *name, bool quick, int jobs)
{
	struct il_scn s;
	struct il_err err;
	struct il_scn_outcome out;
	struct il_scn_run_opts o = { .quick = quick, .jobs = jobs, .seed = 1 };
	char msg[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 16];

	if (il_scn_load(&s, name, &err) || il_scn_prepare(&s, &o, &out, &err)) {
		fprintf(stderr, "bench_scenarios: %s\n", il_err_format(&err, msg, sizeof(msg)));
		il_scn_free(&s);
		return 1;
	}
	if (il_scn_execute(&out, &o, &err)) {
		fprintf(stderr, "bench_scenarios: %s\n", il_err_format(&err, msg, sizeof(msg)));
		il_scn_outcome_free(&out);
		il_scn_free(&s);
		return 1;
	}
	struct il_scn_cfg_runs cfg[IL_SCN_CONFIGS_MAX];
	struct il_scn_data d;
	struct il_scn_report r;
	il_scn_outcome_data(&out, &d, cfg);
	il_scn_report_build(&r, &s, &d, &out, &err);
	/* what scenario list said it would take on one core, against the CPU time it took */
	struct il_scn_cost cost;
	double est = il_scn_cost(&s, quick, &cost, &err) ? NAN : cost.est_wall_s;
	printf("%-22s %-5s %4d %10.1f %10.1f %10.1f %10.1f %10.3f %5d/%d\n", s.name,
	       quick ? "quick" : "full", out.runs, out.wall_s, out.cpu_s, est, out.sim_s,
	       out.wall_s > 0 ? out.sim_s / out.wall_s : 0, r.npass, s.nchecks);
	fflush(stdout);
	il_scn_report_free(&r);
	il_scn_outcome_free(&out);
	il_scn_free(&s);
	return 0;
}

int main(int argc, char **argv)
{
	bool quick = true, full = true;
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), ret = 0;
	const char **names = calloc((size_t)argc + (size_t)il_builtin_scenario_count + 1, sizeof(*names));
	int n = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick-only"))
			full = false;
		else if (!strcmp(argv[i], "--full-only"))
			quick = false;
		else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
			jobs = atoi(argv[++i]);
		else if (argv[i][0] == '-')
			return usage();
		else
			names[n++] = argv[i];
	}
	if ((!quick && !full) || jobs < 1 || jobs > 256)
		return usage();
	if (!n)
		for (int i = 0; i < il_builtin_scenario_count; i++)
			names[n++] = il_builtin_scenarios[i].name;
	printf("bench_scenarios: --jobs %d on %ld online CPUs, seed 1\n", jobs,
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("%-22s %-5s %4s %10s %10s %10s %10s %10s %7s\n", "scenario", "mode", "runs", "wall s",
	       "CPU s", "est. s", "sim s", "sim s/s", "checks");
	/* every quick one first: they say in minutes whether the full ones are worth starting */
	for (int pass = 0; pass < 2; pass++) {
		if ((pass == 0 && !quick) || (pass == 1 && !full))
			continue;
		for (int i = 0; i < n; i++)
			ret |= bench_one(names[i], pass == 0, jobs);
	}
	free(names);
	return ret;
}
