// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decision cost of a governor loaded from a kernel source file beside the
 * built-in it is checked against: ns per select+reflect (with the core's
 * accounting in between, as bench_governors times it).
 *
 *   bench_kgov [--runs N] [--passes P] GOVERNOR SPEC [LOG...]
 *
 * GOVERNOR is a file spec as --governor takes it (file:menu.c, ./menu.so),
 * SPEC the built-in (menu@6.12). Each LOG (default: the replay fixtures
 * haswell, kvm, pseries, zen3) is read into memory and its rows replayed P
 * times through il_replay_step() per timed run (CLOCK_MONOTONIC); the
 * figure is the median of N runs, the two governors alternating run by run
 * so that both see the same machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idlelab/governor.h"
#include "idlelab/replay.h"
#include "../src/kgov/kgov.h"

#define RUNS_MAX 101

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double run_once(struct il_replay_engine *eng, const struct il_replay_log *log, int passes)
{
	volatile int sink = 0;

	il_replay_engine_reset(eng);
	double t0 = now_ns();
	for (int p = 0; p < passes; p++)
		for (size_t i = 0; i < log->nrows; i++)
			sink += il_replay_step(eng, &log->rows[i]).selected;
	double t = now_ns() - t0;
	(void)sink;
	return t / ((double)log->nrows * passes);
}

int main(int argc, char **argv)
{
	int runs = 21, passes = 5, a = 1;
	static const char *const fixtures[] = { "haswell", "kvm", "pseries", "zen3" };

	while (a < argc && !strncmp(argv[a], "--", 2)) {
		if (!strcmp(argv[a], "--runs") && a + 1 < argc)
			runs = atoi(argv[a + 1]);
		else if (!strcmp(argv[a], "--passes") && a + 1 < argc)
			passes = atoi(argv[a + 1]);
		else
			break;
		a += 2;
	}
	if (argc - a < 2 || runs < 1 || runs > RUNS_MAX || passes < 1) {
		fprintf(stderr, "usage: bench_kgov [--runs N (1..%d)] [--passes P] GOVERNOR SPEC "
			"[LOG...]\n", RUNS_MAX);
		return 2;
	}
	il_kgov_install();
	const char *mine = argv[a], *spec = argv[a + 1];
	int nlogs = argc - a - 2;
	printf("%-12s %-28s %10s\n", "log", "governor", "ns/decision");
	for (int l = 0; l < (nlogs ? nlogs : 4); l++) {
		char path[4096];
		struct il_replay_log log;
		struct il_err err;
		struct il_gov *g[2];
		struct il_replay_engine eng[2];
		double t[2][RUNS_MAX];

		if (nlogs)
			snprintf(path, sizeof(path), "%s", argv[a + 2 + l]);
		else
			snprintf(path, sizeof(path), "%s/tests/fixtures/replay/%s.log", SRCDIR,
				 fixtures[l]);
		memset(&log, 0, sizeof(log));
		il_err_clear(&err);
		if (il_replay_log_load(&log, path, &err)) {
			fprintf(stderr, "bench_kgov: %s:%d: %s\n", err.file, err.line, err.msg);
			return 1;
		}
		int ncpus = log.ncpus > 0 ? log.ncpus : 1;
		for (int k = 0; k < 2; k++) {
			g[k] = il_gov_new(k ? spec : mine, ncpus, &err);
			if (!g[k] || il_replay_engine_init(&eng[k], &log, g[k], &err)) {
				fprintf(stderr, "bench_kgov: %s\n", err.msg);
				return 1;
			}
			run_once(&eng[k], &log, 1); /* warm up */
		}
		for (int r = 0; r < runs; r++)
			for (int k = 0; k < 2; k++)
				t[k][r] = run_once(&eng[k], &log, passes);
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		for (int k = 0; k < 2; k++) {
			qsort(t[k], (size_t)runs, sizeof(double), cmp_double);
			printf("%-12.12s %-28.28s %10.1f\n", base, g[k]->spec, t[k][runs / 2]);
			il_replay_engine_free(&eng[k]);
			il_gov_free(g[k]);
		}
		il_replay_log_free(&log);
	}
	return 0;
}
