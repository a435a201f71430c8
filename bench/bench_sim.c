// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_sim: how fast the simulator is.
 *  1. idle periods simulated per second (one core) for sleep-sweep with
 *     menu on kvm-haltpoll (goal: >= 20 million);
 *  2. simulated seconds per second for request-response on the 256-CPU
 *     amd-zen3-epyc with its kernel's governor;
 *  3. a batch of 4 runs with --jobs 2 against --jobs 1 (goal: >= 1.8x on 2 cores);
 *  4. peak RSS of a 60-simulated-second run against a 1-second one, each in
 *     its own process (getrusage via wait4; goal: within 2x).
 *  (part 1 also runs the same workload under ladder and teo, to show the
 *  engine's own share; not with --quick or --only)
 * Usage: bench_sim [--quick] [--only N]  (N = 1..4: one part, e.g. under callgrind)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "idlelab/batch.h"

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process (all threads), s. */
static double cpu_time(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const struct il_err *e)
{
	fprintf(stderr, "bench_sim: %s: %s\n", what, e->msg);
	exit(1);
}

/* Set up a batch of one config; returns the workload config to free. */
static void *batch(struct il_sim_batch *b, struct il_platform *p, struct il_sim_config *cfg,
		   const char *plat, const char *gov, const char *wl_name, const char *opt,
		   int64_t duration, int runs, int jobs)
{
	struct il_err e;
	const struct il_workload *wl = il_workload_find(wl_name);
	struct il_wl_opt o[4];
	char buf[128];
	int n = 0;

	if (il_platform_load(p, plat, &e))
		die(plat, &e);
	/* options separated by spaces */
	snprintf(buf, sizeof(buf), "%s", opt ? opt : "");
	for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && n < 4; t = strtok_r(NULL, " ", &save))
		il_wl_opt_parse(t, &o[n++], NULL);
	void *wcfg = calloc(1, wl->config_size);
	if (il_workload_configure(wl, wcfg, o, n, &e))
		die(wl_name, &e);
	memset(b, 0, sizeof(*b));
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->gov_spec, sizeof(cfg->gov_spec), "%s", gov);
	b->platform = p;
	b->wl = wl;
	b->wl_cfg = wcfg;
	il_sim_params_default(&b->params);
	b->params.duration_ns = duration;
	b->nconfigs = 1;
	b->configs = cfg;
	b->runs = runs;
	b->jobs = jobs;
	return wcfg;
}

static double run_batch(struct il_sim_batch *b)
{
	struct il_err e;
	double t0 = wall();
	if (il_sim_batch_run(b, &e))
		die("run", &e);
	return wall() - t0;
}

static uint64_t idle_periods(const struct il_sim_batch *b)
{
	uint64_t n = 0;
	for (int k = 0; k < b->runs; k++)
		for (int i = 0; i < b->results[k].ncpus; i++)
			n += b->results[k].cpu[i].idle_periods + b->results[k].cpu[i].aborted;
	return n;
}

/* Peak RSS in KiB of a child process running one simulation of duration. */
static long child_rss(int64_t duration)
{
	pid_t pid = fork();
	if (pid == 0) {
		static struct il_platform p;
		struct il_sim_batch b;
		struct il_sim_config cfg;
		void *w = batch(&b, &p, &cfg, "kvm-haltpoll", "menu", "request-response", NULL,
				duration, 1, 1);
		run_batch(&b);
		il_sim_batch_free(&b);
		free(w);
		_exit(0);
	}
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_sim: child failed\n");
		exit(1);
	}
	return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
	bool quick = false;
	int only = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: bench_sim [--quick] [--only 1|2|3|4]\n");
			return 2;
		}
	}
	static struct il_platform p;
	struct il_sim_batch b;
	struct il_sim_config cfg;
	void *w;
	double t, c;

	/* 1. sleep-sweep, menu, kvm-haltpoll, one thread */
	if (only && only != 1)
		goto part2;
	w = batch(&b, &p, &cfg, "kvm-haltpoll", "menu", "sleep-sweep",
		  quick ? "loops=2000 mode=relative" : "loops=20000 mode=relative", 1000000000000ll, 1, 1);
	c = cpu_time();
	t = run_batch(&b);
	c = cpu_time() - c;
	uint64_t periods = idle_periods(&b);
	printf("sleep-sweep menu kvm-haltpoll: %llu idle periods in %.3f s: %.2f million/s per core"
	       " (CPU time %.3f s: %.2f million/s; %.1f simulated s, %.2f events per idle period)\n",
	       (unsigned long long)periods, t, (double)periods / t / 1e6, c, (double)periods / c / 1e6,
	       (double)b.results[0].duration_ns * 1e-9,
	       (double)b.results[0].events / (double)periods);
	il_sim_batch_free(&b);
	free(w);
	if (quick || only)
		goto part2;
	/*
	 * The same run under cheaper governors, to split the figure into the
	 * engine's share and menu's: ladder costs a few ns per decision.
	 */
	for (int g = 0; g < 2; g++) {
		const char *gov = g ? "teo" : "ladder";
		w = batch(&b, &p, &cfg, "kvm-haltpoll", gov, "sleep-sweep", "loops=20000 mode=relative",
			  1000000000000ll, 1, 1);
		t = run_batch(&b);
		periods = idle_periods(&b);
		printf("  same under %s: %.2f million/s per core\n", gov, (double)periods / t / 1e6);
		il_sim_batch_free(&b);
		free(w);
	}

part2:
	/* 2. request-response on the 256-CPU platform */
	if (only && only != 2)
		goto part3;
	int64_t d = quick ? 50000000 : 500000000;
	w = batch(&b, &p, &cfg, "amd-zen3-epyc", "", "request-response", NULL, d, 1, 1);
	c = cpu_time();
	t = run_batch(&b);
	c = cpu_time() - c;
	periods = idle_periods(&b);
	printf("request-response %s (%d CPUs, %s): %.3f simulated s per s (%llu idle periods in"
	       " %.3f s: %.2f million/s per core; CPU time %.3f s: %.2f million/s; %.2f events per"
	       " idle period)\n",
	       p.name, il_platform_ncpus(&p), b.gov_names[0], (double)d * 1e-9 / t,
	       (unsigned long long)periods, t, (double)periods / t / 1e6, c, (double)periods / c / 1e6,
	       (double)b.results[0].events / (double)periods);
	il_sim_batch_free(&b);
	free(w);

part3:
	/* 3. jobs scaling: 4 runs of sleep-sweep */
	if (only && only != 3)
		goto part4;
	const char *loops = quick ? "loops=500" : "loops=20000";
	w = batch(&b, &p, &cfg, "kvm-haltpoll", "menu", "sleep-sweep", loops, 1000000000000ll, 4, 1);
	double c0 = cpu_time();
	double t1 = run_batch(&b);
	double c1 = cpu_time();
	il_sim_batch_free(&b);
	b.jobs = 2;
	double t2 = run_batch(&b);
	double c2 = cpu_time();
	il_sim_batch_free(&b);
	free(w);
	printf("4 runs, --jobs 1: %.3f s, --jobs 2: %.3f s: %.2fx (online CPUs: %ld; CPU time"
	       " %.3f s and %.3f s: the runs got %.2f and %.2f cores)\n",
	       t1, t2, t1 / t2, sysconf(_SC_NPROCESSORS_ONLN), c1 - c0, c2 - c1, (c1 - c0) / t1,
	       (c2 - c1) / t2);

part4:
	/* 4. memory against simulated duration */
	if (only && only != 4)
		return 0;
	long r1 = child_rss(1000000000), r60 = child_rss(quick ? 10000000000ll : 60000000000ll);
	printf("peak RSS request-response kvm-haltpoll: 1 s: %ld KiB, %s s: %ld KiB: %.2fx\n", r1,
	       quick ? "10" : "60", r60, (double)r60 / (double)r1);
	return 0;
}
