// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_live_sweep: the sim's sleep-sweep workload run on this machine, to
 * hold `idlelab sim --workload sleep-sweep` against the real kernel's
 * counters (docs/sim.md, "The model against this machine").
 *
 * A waker thread pinned to --waker sleeps each interval of the list
 * (clock_nanosleep with 1 ns timer slack) and wakes a wakee pinned to
 * --wakee through a futex; the wakee blocks again at once. Per interval it
 * prints the wakee CPU's cpuidle counter differences (usage, time, above,
 * below, per state usage), read from /sys before and after the interval's
 * wake-ups, the measured sleep and the wake-to-run latency: the columns of
 * the sim's sleep-sweep table.
 *
 * --governor NAME writes cpuidle/current_governor, --param FILE=VALUE any
 * /sys/module/.../parameters file (haltpoll.guest_halt_poll_ns=200000 is
 * /sys/module/haltpoll/parameters/guest_halt_poll_ns); each old value is
 * written back at exit, on error and on SIGINT/SIGTERM, and both changes are
 * printed. Needs root for those; reading the counters does not.
 *
 * usage: bench_live_sweep [--intervals LIST] [--loops N] [--waker A] [--wakee B]
 *                         [--governor NAME] [--param MODULE.PARAM=VALUE]... [--csv]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "idlelab/workload.h"
#include "idlelab/sysfs.h"

#define MAX_CHANGES 9
#define MAX_INTERVALS 64
#define MAX_STATES 16

/* ------------------------------------------------- changes to restore */

static struct change {
	char path[512];
	char old[128];
} changes[MAX_CHANGES];
static volatile sig_atomic_t nchanges;

static void restore(void)
{
	for (int i = nchanges - 1; i >= 0; i--) {
		FILE *f = fopen(changes[i].path, "w");
		bool bad = !f || fputs(changes[i].old, f) < 0;
		if (f && fclose(f) != 0)
			bad = true;
		if (bad) {
			fprintf(stderr, "bench_live_sweep: could not restore %s to '%s'\n",
				changes[i].path, changes[i].old);
			continue;
		}
		fprintf(stderr, "restored %s to '%s'\n", changes[i].path, changes[i].old);
	}
	nchanges = 0;
}

static void on_signal(int sig)
{
	/* restore() uses stdio: acceptable here, the main work is abandoned */
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int change(const char *path, const char *value)
{
	struct change *c = &changes[nchanges];
	int r;

	if (nchanges == MAX_CHANGES) {
		fprintf(stderr, "bench_live_sweep: too many changes\n");
		return -1;
	}
	if ((r = read_line(path, c->old, sizeof(c->old))) < 0) {
		fprintf(stderr, "bench_live_sweep: %s: %s\n", path, strerror(-r));
		return -1;
	}
	snprintf(c->path, sizeof(c->path), "%s", path);
	FILE *f = fopen(path, "w");
	bool bad = !f || fputs(value, f) < 0;
	int e = errno;
	if (f && fclose(f) != 0) {  /* sysfs refuses a value at the flush */
		bad = true;
		e = errno;
	}
	if (bad) {
		fprintf(stderr, "bench_live_sweep: %s: cannot write '%s': %s\n", path, value,
			strerror(e));
		return -1;
	}
	nchanges++;
	fprintf(stderr, "changed %s from '%s' to '%s' (restored at exit)\n", path, c->old, value);
	return 0;
}

/* ------------------------------------------------------- the workload */

struct shared {
	_Alignas(64) _Atomic int word;  /* futex word: bumped to wake the wakee */
	_Atomic int64_t t_wake;         /* waker's clock at the wake */
	_Atomic int64_t t_block;        /* wakee's clock when it went to block */
	_Atomic int taken;              /* the last word value the wakee ran for */
	_Atomic int stop;
	int wakee_cpu;
	int64_t *lat, *slept;
	int n, cap;
};

static void *wakee(void *arg)
{
	struct shared *sh = arg;
	int seen = 0;

	if (pin(sh->wakee_cpu)) {
		fprintf(stderr, "bench_live_sweep: cannot pin the wakee to CPU %d\n", sh->wakee_cpu);
		atomic_store(&sh->stop, 1);
		return NULL;
	}
	for (;;) {
		atomic_store(&sh->t_block, now_ns());
		while (atomic_load_explicit(&sh->word, memory_order_acquire) == seen)
			syscall(SYS_futex, &sh->word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
		int64_t t = now_ns();
		seen = atomic_load(&sh->word);
		if (atomic_load(&sh->stop))
			return NULL;
		if (sh->n < sh->cap) {
			sh->lat[sh->n] = t - atomic_load(&sh->t_wake);
			sh->slept[sh->n] = t - atomic_load(&sh->t_block);
			sh->n++;
		}
		atomic_store_explicit(&sh->taken, seen, memory_order_release);
	}
}

struct snap {
	int n;
	char name[MAX_STATES][32];
	uint64_t usage[MAX_STATES], time_us[MAX_STATES], above[MAX_STATES], below[MAX_STATES];
};

static int snapshot(int cpu, struct snap *s)
{
	struct il_cpulist only = { 1, &cpu };
	struct il_sysfs_info info;
	struct il_err err;

	if (il_sysfs_read("/sys/devices/system/cpu", &only, &info, &err)) {
		fprintf(stderr, "bench_live_sweep: %s%s%s\n", err.file, err.file[0] ? ": " : "",
			err.msg);
		return -1;
	}
	if (info.ncpus != 1 || info.cpus[0].nstates < 1) {
		fprintf(stderr, "bench_live_sweep: /sys/devices/system/cpu/cpu%d/cpuidle: no states\n",
			cpu);
		il_sysfs_info_free(&info);
		return -1;
	}
	const struct il_sysfs_cpu *c = &info.cpus[0];
	s->n = c->nstates < MAX_STATES ? c->nstates : MAX_STATES;
	for (int i = 0; i < s->n; i++) {
		const struct il_sysfs_state *st = &c->states[i];
		snprintf(s->name[i], sizeof(s->name[i]), "%s", st->name.s ? st->name.s : "?");
		s->usage[i] = st->val[IL_SF_USAGE].v;
		s->time_us[i] = st->val[IL_SF_TIME].v;
		s->above[i] = st->val[IL_SF_ABOVE].v;
		s->below[i] = st->val[IL_SF_BELOW].v;
	}
	il_sysfs_info_free(&info);
	return 0;
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
	int loops = 500, waker = 0, wakee_cpu = 1, c;
	const char *governor = NULL, *params[MAX_CHANGES];
	int nparams = 0;
	bool csv = false;
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
		case 'p':
			if (nparams == MAX_CHANGES - 1) {
				fprintf(stderr, "bench_live_sweep: too many --param\n");
				return 2;
			}
			params[nparams++] = optarg;
			break;
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
	struct snap before, after;
	/* a machine without readable counters is refused before anything is changed */
	if (snapshot(wakee_cpu, &before))
		return 1;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	atexit(restore);
	if (governor && change("/sys/devices/system/cpu/cpuidle/current_governor", governor))
		return 1;
	for (int i = 0; i < nparams; i++) {
		char path[512], buf[256];
		snprintf(buf, sizeof(buf), "%s", params[i]);
		char *eq = strchr(buf, '='), *dot = strchr(buf, '.');
		if (!eq || !dot || dot > eq) {
			fprintf(stderr, "bench_live_sweep: --param %s: want MODULE.PARAM=VALUE\n",
				params[i]);
			return 2;
		}
		*eq = *dot = '\0';
		snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", buf, dot + 1);
		if (change(path, eq + 1))
			return 1;
	}
	/* the waker's sleeps end when asked, not up to 50 us later */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (pin(waker)) {
		fprintf(stderr, "bench_live_sweep: cannot pin the waker to CPU %d\n", waker);
		return 1;
	}
	struct shared *sh = aligned_alloc(64, sizeof(*sh));
	memset(sh, 0, sizeof(*sh));
	sh->wakee_cpu = wakee_cpu;
	sh->lat = calloc((size_t)loops, sizeof(int64_t));
	sh->slept = calloc((size_t)loops, sizeof(int64_t));
	sh->cap = loops;
	pthread_t th;
	pthread_create(&th, NULL, wakee, sh);
	sleep_ns(10000000);

	if (csv)
		printf("interval_us,wakee_cpu,waker_cpu,sleep_us,usage_diff,time_diff_ns,above_diff,"
		       "below_diff,above_pct,below_pct,states,lat_p50_us,lat_p99_us,lat_max_us\n");
	else
		printf("%-7s %9s %9s %9s %10s %14s %10s %10s %9s %9s  %-24s %10s %10s %10s\n",
		       "row", "wakee_cpu", "waker_cpu", "sleep_us", "usage_diff", "time_diff_ns",
		       "above_diff", "below_diff", "above_pct", "below_pct", "usage per state",
		       "lat_p50_us", "lat_p99_us", "lat_max_us");
	for (int k = 0; k < ivl.n && !atomic_load(&sh->stop); k++) {
		if (snapshot(wakee_cpu, &before))
			return 1;
		sh->n = 0;
		/* as the sim's waker: wake, then sleep the interval at once */
		for (int i = 0; i < loops; i++) {
			sleep_ns(ivl.ns[k]);
			atomic_store(&sh->t_wake, now_ns());
			atomic_fetch_add_explicit(&sh->word, 1, memory_order_release);
			syscall(SYS_futex, &sh->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		}
		/* the last wake-up taken before the counters are read */
		while (atomic_load_explicit(&sh->taken, memory_order_acquire) != atomic_load(&sh->word))
			sleep_ns(10000);
		if (snapshot(wakee_cpu, &after))
			return 1;
		uint64_t usage = 0, time_us = 0, above = 0, below = 0;
		char per[256] = "";
		for (int i = 0; i < after.n; i++) {
			uint64_t u = after.usage[i] - before.usage[i];
			usage += u;
			time_us += after.time_us[i] - before.time_us[i];
			above += after.above[i] - before.above[i];
			below += after.below[i] - before.below[i];
			size_t l = strlen(per);
			snprintf(per + l, sizeof(per) - l, "%s%s=%llu", i ? (csv ? ";" : " ") : "",
				 after.name[i], (unsigned long long)u);
		}
		int n = sh->n;
		double slept = 0;
		for (int i = 0; i < n; i++)
			slept += (double)sh->slept[i];
		qsort(sh->lat, (size_t)n, sizeof(int64_t), cmp64);
		double ap = usage ? 100.0 * (double)above / (double)usage : 0;
		double bp = usage ? 100.0 * (double)below / (double)usage : 0;
		char row[32];
		snprintf(row, sizeof(row), "%lldus", (long long)(ivl.ns[k] / 1000));
		if (csv)
			printf("%lld,%d,%d,%.2f,%llu,%llu,%llu,%llu,%.2f,%.2f,%s,%.2f,%.2f,%.2f\n",
			       (long long)(ivl.ns[k] / 1000), wakee_cpu, waker, n ? slept / n / 1000 : 0,
			       (unsigned long long)usage, (unsigned long long)time_us * 1000,
			       (unsigned long long)above, (unsigned long long)below, ap, bp, per,
			       n ? (double)pct(sh->lat, n, 50) / 1000 : 0,
			       n ? (double)pct(sh->lat, n, 99) / 1000 : 0,
			       n ? (double)sh->lat[n - 1] / 1000 : 0);
		else
			printf("%-7s %9d %9d %9.2f %10llu %14llu %10llu %10llu %9.2f %9.2f  %-24s %10.2f "
			       "%10.2f %10.2f\n",
			       row, wakee_cpu, waker, n ? slept / n / 1000 : 0, (unsigned long long)usage,
			       (unsigned long long)time_us * 1000, (unsigned long long)above,
			       (unsigned long long)below, ap, bp, per,
			       n ? (double)pct(sh->lat, n, 50) / 1000 : 0,
			       n ? (double)pct(sh->lat, n, 99) / 1000 : 0,
			       n ? (double)sh->lat[n - 1] / 1000 : 0);
		fflush(stdout);
	}
	atomic_store(&sh->stop, 1);
	atomic_fetch_add(&sh->word, 1);
	syscall(SYS_futex, &sh->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	pthread_join(th, NULL);
	free(sh->lat);
	free(sh->slept);
	free(sh);
	return 0;
}
