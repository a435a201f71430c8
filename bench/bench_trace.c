// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading speed of idlelab trace report's ftrace text reader.
 *
 * Generates two traces in the tracefs trace format (a fixed sequence, no
 * randomness) into a temporary file each, then reads each with
 * il_trace_read_file() RUNS times and prints the best run: MB/s, events/s
 * and cpu_idle events/s, and the reader's peak memory (the process's
 * maximum resident set, which must not grow with the trace):
 *
 *   mixed      the mix of a traced KVM guest: per idle period an entry,
 *              a wake-up (tick through local_timer_entry and
 *              hrtimer_expire_entry, an IPI with its ipi_send_cpu, a
 *              device interrupt, a timer), the exit, a sched_wakeup and
 *              two sched_switch lines
 *   idle-only  power:cpu_idle entries and exits only
 *
 *   bench_trace [--mb N] [--runs N] [--cpus N] [--keep DIR]
 *   bench_trace --idlelab PATH [--periods N] [--cpus N] [--runs N] [--keep DIR]
 *
 * --mb is the size of each trace (default 200), --keep writes them to DIR
 * and leaves them there (for other readers, e.g. idlestat).
 *
 * With --idlelab, a trace of --periods idle periods per CPU (default
 * 2000000, --cpus default 4; per period its entry and exit, and every
 * fourth the tick's hrtimer expiring and re-armed, so that the governor
 * inputs are known) is given to PATH's trace check --governor menu and
 * trace whatif --governor teo (--states intel-haswell-ep, output to
 * /dev/null), each run --runs times in a child: the best wall time,
 * periods/s, and the child's peak resident set (ru_maxrss of wait4), which
 * holding the periods makes grow with them (56 bytes each).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "idlelab/trace.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Write one trace of about mb megabytes; returns the cpu_idle events written. */
static unsigned long long generate(FILE *f, int mb, int ncpus, bool mixed)
{
	unsigned long long bytes = 0, idle = 0, limit = (unsigned long long)mb << 20;
	unsigned long long t_us = 1000000000ull; /* 1000 s after boot */
	unsigned long long maxts = t_us;
	unsigned long n = 0;

	bytes += (unsigned long long)fprintf(f, "# tracer: nop\n#\n#           TASK-PID     CPU#  "
					     "|||||  TIMESTAMP  FUNCTION\n");
	while (bytes < limit) {
		int cpu = (int)(n % (unsigned long)ncpus), other = (cpu + 1) % ncpus;
		unsigned long long ts = t_us, res = 20 + (n * 7919) % 4000;
		int w = (int)(n % 4);

		bytes += (unsigned long long)fprintf(f,
			"          <idle>-0       [%03d] d..1. %5llu.%06llu: cpu_idle: state=%d cpu_id=%d\n",
			cpu, ts / 1000000, ts % 1000000, n % 5 ? 1 : 0, cpu);
		ts += res;
		if (mixed) {
			if (w == 0) {
				bytes += (unsigned long long)fprintf(f,
					"          <idle>-0       [%03d] d.h1. %5llu.%06llu: local_timer_entry: vector=236\n"
					"          <idle>-0       [%03d] d.h1. %5llu.%06llu: hrtimer_expire_entry: hrtimer=000000004a7003d9 function=tick_nohz_handler now=%llu000\n",
					cpu, ts / 1000000, ts % 1000000, cpu, ts / 1000000, ts % 1000000, ts);
			} else if (w == 1) {
				bytes += (unsigned long long)fprintf(f,
					"    rec_trace.sh-30440   [%03d] d..2. %5llu.%06llu: ipi_send_cpu: cpu=%d callsite=ttwu_queue_wakelist+0x11d/0x150 callback=generic_smp_call_function_single_interrupt+0x0/0x10\n"
					"          <idle>-0       [%03d] d.h1. %5llu.%06llu: call_function_single_entry: vector=251\n",
					other, ts / 1000000, ts % 1000000, cpu, cpu, ts / 1000000, ts % 1000000);
			} else if (w == 2) {
				bytes += (unsigned long long)fprintf(f,
					"          <idle>-0       [%03d] d.h1. %5llu.%06llu: irq_handler_entry: irq=24 name=virtio3-tx\n",
					cpu, ts / 1000000, ts % 1000000);
			} else {
				bytes += (unsigned long long)fprintf(f,
					"          <idle>-0       [%03d] d.h1. %5llu.%06llu: hrtimer_expire_entry: hrtimer=0000000019c132e9 function=hrtimer_wakeup now=%llu000\n",
					cpu, ts / 1000000, ts % 1000000, ts);
			}
		}
		ts += 1;
		bytes += (unsigned long long)fprintf(f,
			"          <idle>-0       [%03d] d..1. %5llu.%06llu: cpu_idle: state=4294967295 cpu_id=%d\n",
			cpu, ts / 1000000, ts % 1000000, cpu);
		if (mixed) {
			bytes += (unsigned long long)fprintf(f,
				"          <idle>-0       [%03d] dNs4. %5llu.%06llu: sched_wakeup: comm=kworker/%d:1 pid=16538 prio=120 target_cpu=%03d\n"
				"          <idle>-0       [%03d] d..2. %5llu.%06llu: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/%d:1 next_pid=16538 next_prio=120\n"
				"     kworker/%d:1-16538   [%03d] d..2. %5llu.%06llu: sched_switch: prev_comm=kworker/%d:1 prev_pid=16538 prev_prio=120 prev_state=I ==> next_comm=swapper/%d next_pid=0 next_prio=120\n",
				cpu, ts / 1000000, ts % 1000000, cpu, cpu,
				cpu, (ts + 2) / 1000000, (ts + 2) % 1000000, cpu, cpu,
				cpu, cpu, (ts + 30) / 1000000, (ts + 30) % 1000000, cpu, cpu);
			ts += 30;
		}
		idle += 2;
		n++;
		if (ts > maxts)
			maxts = ts;
		if (cpu == ncpus - 1)
			t_us = maxts + 1;
	}
	return idle;
}

/* The periods trace: returns the idle periods written. */
static unsigned long long generate_periods(FILE *f, long periods, int ncpus)
{
	unsigned long long t_us = 100000000ull, n = 0;

	fprintf(f, "# tracer: nop\n#\n");
	for (long i = 0; i < periods; i++) {
		for (int cpu = 0; cpu < ncpus; cpu++, n++) {
			unsigned long long ts = t_us + (unsigned long long)cpu;
			unsigned long long res = 20 + (n * 7919) % 4000;
			if (i % 4 == 0) {
				fprintf(f, "          <idle>-0       [%03d] d.h1. %5llu.%06llu: hrtimer_expire_entry: "
					"hrtimer=ffff00000000%04x function=tick_nohz_handler now=%llu000\n"
					"          <idle>-0       [%03d] d.h1. %5llu.%06llu: hrtimer_start: "
					"hrtimer=ffff00000000%04x function=tick_nohz_handler expires=%llu000 "
					"softexpires=%llu000 mode=ABS|PINNED_HARD\n",
					cpu, ts / 1000000, ts % 1000000, cpu, ts + 7000000000ull,
					cpu, ts / 1000000, ts % 1000000, cpu, ts + 7000004000ull,
					ts + 7000004000ull);
			}
			fprintf(f, "          <idle>-0       [%03d] d..1. %5llu.%06llu: cpu_idle: state=%d cpu_id=%d\n",
				cpu, ts / 1000000, ts % 1000000, (int)(n % 5) % 4 + ((n % 3) ? 1 : 0), cpu);
			ts += res;
			fprintf(f, "          <idle>-0       [%03d] %s %5llu.%06llu: cpu_idle: state=4294967295 cpu_id=%d\n",
				cpu, n % 3 ? "dN.1." : "d..1.", ts / 1000000, ts % 1000000, cpu);
		}
		t_us += 4100;
	}
	return n;
}

static double run_child(char *const argv[], long *maxrss_kb)
{
	struct rusage ru;
	int status;
	double t0 = now_s();
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	*maxrss_kb = ru.ru_maxrss;
	return now_s() - t0;
}

static int bench_commands(const char *idlelab, long periods, int ncpus, int runs, const char *keep)
{
	char path[4096];
	FILE *f;

	if (keep)
		snprintf(path, sizeof(path), "%s/periods.trace", keep);
	else
		snprintf(path, sizeof(path), "%s/bench_trace.%d.periods", getenv("TMPDIR") ?
			 getenv("TMPDIR") : "/tmp", (int)getpid());
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "bench_trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	unsigned long long n = generate_periods(f, periods, ncpus);
	long size = ftell(f);
	if (fclose(f)) {
		fprintf(stderr, "bench_trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	printf("%s: %d CPUs x %ld periods (%llu), %.1f MB\n", idlelab, ncpus, periods, n,
	       (double)size / 1e6);
	printf("%-28s %10s %14s %12s\n", "command", "best_s", "periods/s", "maxrss_MB");
	static const char *const cmds[][2] = { { "check", "menu" }, { "whatif", "teo" } };
	for (int k = 0; k < 2; k++) {
		char *argv[] = { (char *)idlelab, "trace", (char *)cmds[k][0], "--governor",
				 (char *)cmds[k][1], "--states", "intel-haswell-ep", path, NULL };
		double best = 1e30;
		long rss = 0;
		for (int r = 0; r < runs; r++) {
			long kb = 0;
			double dt = run_child(argv, &kb);
			if (dt < 0) {
				fprintf(stderr, "bench_trace: %s trace %s failed\n", idlelab, cmds[k][0]);
				return 1;
			}
			if (dt < best)
				best = dt;
			if (kb > rss)
				rss = kb;
		}
		char name[64];
		snprintf(name, sizeof(name), "trace %s --governor %s", cmds[k][0], cmds[k][1]);
		printf("%-28s %10.3f %14.0f %12.1f\n", name, best, (double)n / best,
		       (double)rss / 1024);
	}
	if (!keep)
		unlink(path);
	return 0;
}

int main(int argc, char **argv)
{
	int mb = 200, runs = 3, ncpus = 2;
	long periods = 2000000;
	const char *keep = NULL, *idlelab = NULL;
	bool cpus_given = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mb") && i + 1 < argc)
			mb = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--idlelab") && i + 1 < argc)
			idlelab = argv[++i];
		else if (!strcmp(argv[i], "--periods") && i + 1 < argc)
			periods = atol(argv[++i]);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--cpus") && i + 1 < argc)
			ncpus = atoi(argv[++i]), cpus_given = true;
		else if (!strcmp(argv[i], "--keep") && i + 1 < argc)
			keep = argv[++i];
		else {
			fprintf(stderr, "usage: bench_trace [--mb N] [--runs N] [--cpus N] [--keep DIR]\n"
				"       bench_trace --idlelab PATH [--periods N] [--cpus N] [--runs N] "
				"[--keep DIR]\n");
			return 2;
		}
	}
	if (idlelab) {
		if (!cpus_given)
			ncpus = 4;
		if (periods < 1 || runs < 1 || ncpus < 1 || ncpus > 1000) {
			fprintf(stderr, "bench_trace: --periods, --runs and --cpus (1..1000) must be positive\n");
			return 2;
		}
		return bench_commands(idlelab, periods, ncpus, runs, keep);
	}
	if (mb < 1 || runs < 1 || ncpus < 1 || ncpus > 1000) {
		fprintf(stderr, "bench_trace: --mb, --runs and --cpus (1..1000) must be positive\n");
		return 2;
	}
	printf("%-10s %8s %10s %12s %14s %12s %10s\n", "trace", "MB", "best_s", "MB/s", "events/s",
	       "cpu_idle/s", "maxrss_MB");
	for (int kind = 0; kind < 2; kind++) {
		const char *name = kind ? "idle-only" : "mixed";
		char path[4096];
		FILE *f;

		if (keep)
			snprintf(path, sizeof(path), "%s/%s.trace", keep, name);
		else
			snprintf(path, sizeof(path), "%s/bench_trace.%d.%s", getenv("TMPDIR") ?
				 getenv("TMPDIR") : "/tmp", (int)getpid(), name);
		f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "bench_trace: %s: %s\n", path, strerror(errno));
			return 1;
		}
		unsigned long long idle = generate(f, mb, ncpus, !kind);
		if (fclose(f)) {
			fprintf(stderr, "bench_trace: %s: %s\n", path, strerror(errno));
			return 1;
		}
		double best = 1e30;
		struct il_trace t;
		unsigned long long bytes = 0, events = 0;
		for (int r = 0; r < runs; r++) {
			struct il_err err;
			double t0 = now_s();

			il_trace_init(&t, path, NULL);
			if (il_trace_read_file(&t, path, &err)) {
				fprintf(stderr, "bench_trace: %s\n", err.msg);
				return 1;
			}
			double dt = now_s() - t0;
			if (dt < best)
				best = dt;
			bytes = t.bytes;
			events = t.events;
			if (t.idle_events != idle) {
				fprintf(stderr, "bench_trace: %llu cpu_idle events read, %llu written\n",
					(unsigned long long)t.idle_events, idle);
				return 1;
			}
			il_trace_free(&t);
		}
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf("%-10s %8.1f %10.3f %12.1f %14.0f %12.0f %10.1f\n", name, (double)bytes / 1e6,
		       best, (double)bytes / 1e6 / best, (double)events / best, (double)idle / best,
		       (double)ru.ru_maxrss / 1024);
		if (!keep)
			unlink(path);
	}
	return 0;
}
