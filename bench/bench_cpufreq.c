// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_cpufreq: what the cpufreq layer costs the simulator. Events handled
 * per CPU second of one run (one thread), without the layer and with it
 * (performance, schedutil): a governor that lowers the frequency makes
 * fewer events per simulated second, so events, not simulated time, are
 * the measure; on intel-cascadelake-sp (96 CPUs) for
 * request-response (48 pairs: every CPU wakes and sleeps), kernbench and
 * gitsource. Goal: with the layer at most 10 % slower. The best of 3.
 * Usage: bench_cpufreq [--quick]
 *        bench_cpufreq --one WORKLOAD CPUFREQ|none DURATION_MS
 * --one runs once and prints the events handled, for an instruction count
 * per event under valgrind --tool=callgrind (repeatable on a loaded machine;
 * subtract a run of 1 ms, the setup, from both counts: gitsource's 1 s
 * has ~20 000 events, and its setup is some 15 % of its instructions).
 * The table's rates leave the setup out the same way, timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idlelab/batch.h"

static double cpu_time(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Events per CPU second of one run of wl with cpufreq spec cf ("" = none),
 * less setup_s of CPU time (the run's setup: building the driver, the
 * model and the workload, paid once per run whatever its length).
 */
static double one(const struct il_platform *p, const char *wl_name, const char *cf, int64_t dur,
		  double *events, double setup_s, double *cpu_s)
{
	struct il_err e;
	struct il_sim_batch b;
	struct il_sim_config cfg;
	const struct il_workload *wl = il_workload_find(wl_name);
	void *wcfg = calloc(1, wl->config_size);
	if (!wcfg || il_workload_configure(wl, wcfg, NULL, 0, &e)) {
		fprintf(stderr, "bench_cpufreq: %s\n", wl_name);
		exit(1);
	}
	memset(&b, 0, sizeof(b));
	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.cpufreq, sizeof(cfg.cpufreq), "%s", cf);
	b.platform = p;
	b.wl = wl;
	b.wl_cfg = wcfg;
	il_sim_params_default(&b.params);
	b.params.duration_ns = dur;
	b.nconfigs = 1;
	b.configs = &cfg;
	b.runs = 1;
	b.jobs = 1;
	double t0 = cpu_time();
	if (il_sim_batch_run(&b, &e)) {
		fprintf(stderr, "bench_cpufreq: %s %s: %s\n", wl_name, cf, e.msg);
		exit(1);
	}
	double t = cpu_time() - t0;
	double ev = (double)b.results[0].events;
	if (events)
		*events = ev;
	if (cpu_s)
		*cpu_s = t;
	il_sim_batch_free(&b);
	free(wcfg);
	t -= setup_s;
	return ev / (t > 1e-6 ? t : 1e-6);
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");
	struct il_platform *p = calloc(1, sizeof(*p));
	struct il_err e;
	if (!p || il_platform_load(p, "intel-cascadelake-sp", &e)) {
		fprintf(stderr, "bench_cpufreq: intel-cascadelake-sp: %s\n", p ? e.msg : "no memory");
		return 1;
	}
	if (argc == 5 && !strcmp(argv[1], "--one")) {
		double ev = 0;
		const char *cf = strcmp(argv[3], "none") ? argv[3] : "";
		if (!il_workload_find(argv[2])) {
			fprintf(stderr, "bench_cpufreq: unknown workload '%s'\n", argv[2]);
			return 2;
		}
		one(p, argv[2], cf, (int64_t)(atof(argv[4]) * 1e6), &ev, 0, NULL);
		printf("%s %s: %.0f events\n", argv[2], argv[3], ev);
		free(p);
		return 0;
	}
	static const char *const wls[] = { "request-response", "kernbench", "gitsource" };
	static const char *const cfs[] = { "", "performance", "schedutil" };
	int64_t dur = quick ? 200000000 : 1000000000;
	int reps = quick ? 1 : 3;
	bool ok = true;

	printf("bench_cpufreq: intel-cascadelake-sp, %.1f simulated s per run, best of %d\n",
	       (double)dur * 1e-9, reps);
	printf("(the rate leaves out each run's setup, timed by a run of 1 simulated ms)\n");
	printf("%-18s %-12s %16s %10s %9s\n", "workload", "cpufreq", "Mevents / cpu s", "vs none",
	       "setup ms");
	for (int w = 0; w < 3; w++) {
		double base = 0;
		for (int c = 0; c < 3; c++) {
			double rate = 0, setup = 1e9;
			for (int r = 0; r < reps; r++) {
				double t;
				one(p, wls[w], cfs[c], 1000000, NULL, 0, &t);
				if (t < setup)
					setup = t;
			}
			for (int r = 0; r < reps; r++) {
				double x = one(p, wls[w], cfs[c], dur, NULL, setup, NULL);
				if (x > rate)
					rate = x;
			}
			if (c == 0)
				base = rate;
			double rel = rate / base;
			printf("%-18s %-12s %16.2f %9.1f%% %9.2f\n", wls[w], cfs[c][0] ? cfs[c] : "none",
			       rate * 1e-6, 100 * (rel - 1), setup * 1e3);
			if (c > 0 && rel < 0.9)
				ok = false;
		}
	}
	printf("goal (at most 10 %% slower with the layer): %s\n", ok ? "met" : "NOT met");
	free(p);
	return 0;
}
