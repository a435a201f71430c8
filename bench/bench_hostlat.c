// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_hostlat: what the host adds to a KVM guest's wake-ups, and the
 * guest's own path from blocking to idle entry, measured from inside the
 * guest: the figures platforms/kvm-haltpoll.ini cites for its exit-latency
 * tables and its idle entry path (docs/sim.md, "The model against this
 * machine").
 *
 *   timer  a thread pinned to --cpu sleeps each length of --lengths
 *          (clock_nanosleep, relative, timer slack 1 ns) --samples times
 *          and prints the over-sleep: clock after - clock before - length.
 *   ipi    a wakee pinned to --cpu blocks in FUTEX_WAIT; a waker pinned to
 *          --other wakes it each length after it blocked (the waker sleeps
 *          to the wakee's block stamp + length, then spins the last 30 us
 *          so its own timer wake-up does not add to the gap) and prints the
 *          wake-to-run latency: wakee's clock when it runs - waker's clock
 *          before FUTEX_WAKE. Samples where the wakee never slept are
 *          dropped and counted.
 *   entry  as ipi, with a tracefs instance recording sched:sched_switch,
 *          power:cpu_idle and syscalls:sys_enter_futex on --cpu (clock
 *          x86-tsc, the user-space stamps read the TSC too): per wake-up
 *          the path from the wakee's stamp before FUTEX_WAIT to the idle
 *          state's entry, split at the syscall's entry and the switch to
 *          the idle task, and the way back from the state's exit to the
 *          wakee running. A trace event's own cost (timed as getppid() with
 *          and without syscalls:sys_enter_getppid) is printed: each split
 *          holds one event.
 *   stall  a thread pinned to --cpu spins (SCHED_FIFO 50 when allowed, in
 *          slices of 500 ms with 100 ms asleep between them, under the
 *          guest's RT throttling) for --seconds of spinning, reading the
 *          clock, and records every gap between two reads of at least
 *          --min-gap us: the time the vCPU did not run the spinner. Gaps
 *          of a few us are the guest's own interrupts (the tick); the long
 *          ones are the host holding the vCPU (preemption by other host
 *          work). Prints how many gaps and how much time lie above each of
 *          20, 50, 100, 200, 500, 1000, 2000 us, the quantiles of the gaps
 *          of at least 100 us, and the steal ticks /proc/stat gave --cpu
 *          meanwhile (--quantiles: every gap of at least 100 us, in us).
 *
 * --idle says how --cpu idles while it runs:
 *   halt  the haltpoll governor with haltpoll.guest_halt_poll_ns=0: every
 *         idle period is a halt (HLT, a VM exit) from its start;
 *   poll  the menu governor with every state but POLL disabled on --cpu:
 *         the CPU polls (no VM exit while idle);
 *   haltpoll  the haltpoll governor with haltpoll.guest_halt_poll_ns=200000,
 *         as bench_live_sweep --param sets it: polls first, within a window
 *         the governor grows and shrinks;
 *   asis  nothing is changed.
 * Changes are written back at exit and on SIGHUP/SIGINT/SIGPIPE/SIGTERM (include/idlelab/
 * restore.h), and said on stderr; the tracefs instance is removed. Each
 * length's row gives the usage of each idle state on --cpu during it, so a
 * row that did not idle as asked shows it, and the 1-minute load average at
 * its start (other runnable tasks on these 2 CPUs show up as tails).
 * --raw FILE writes every sample in the order taken ("ROW LENGTH_US INDEX NS"
 * per line), to see whether the late ones come alone or in bursts.
 * --tail also prints, per row, how many samples lie past the row's median by
 * 10, 20, 30, 50, 100, 200 and 500 us (the heavy tail a log-normal lacks).
 * --quantiles also prints each row as one line of PERCENTILE=NS pairs with
 * --subtract NS taken off every value (the parts the simulator adds on its
 * own, such as the switch to the task), for a platform file's comments.
 *
 * usage: bench_hostlat --mode timer|ipi|entry|stall [--cpu B] [--other A] [--lengths LIST]
 *                      [--samples N] [--idle halt|poll|haltpoll|asis] [--quantiles]
 *                      [--tail] [--raw FILE] [--subtract NS] [--seconds S] [--min-gap US]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "idlelab/restore.h"
#include "idlelab/wakebench.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#define cpu_relax() __builtin_ia32_pause()
#else
#define HAVE_TSC 0
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif

#define MAX_LENGTHS 32
#define MAX_STATES 16
#define TRACEFS "/sys/kernel/tracing"

enum mode { M_TIMER, M_IPI, M_ENTRY, M_STALL };

static int cpu = 1, other = 0, samples = 5000;
static double stall_seconds = 20, min_gap_us = 20;
static bool quantiles, tails;
static FILE *raw; /* --raw: every sample in the order taken */
static int64_t subtract_ns;
static char instance[128];

/* ------------------------------------------------------------ helpers */

static void pin_or_die(int c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "bench_hostlat: cannot pin to CPU %d\n", c);
		exit(1);
	}
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

static long futex(_Atomic int *uaddr, int op, int val)
{
	return syscall(SYS_futex, (int *)uaddr, op, val, NULL, NULL, 0);
}

static int read_u64(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "r");
	unsigned long long x;
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &x) == 1;
	fclose(f);
	if (!ok)
		return -1;
	*v = x;
	return 0;
}

/* usage of each idle state of cpu; the number of states */
static int state_usage(int c, uint64_t *u)
{
	char p[128];
	int n = 0;

	for (; n < MAX_STATES; n++) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage", c, n);
		if (read_u64(p, &u[n]))
			break;
	}
	return n;
}

static void state_name(int c, int i, char *buf, size_t size)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", c, i);
	snprintf(buf, size, "state%d", i);
	f = fopen(p, "r");
	if (f) {
		if (fgets(buf, (int)size, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* the quantiles a row prints, and a quantile table gives */
static const double qs[] = { 0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100 };
#define NQ (int)(sizeof(qs) / sizeof(qs[0]))

/* One row: the samples' quantiles (ns), their mean, the states used. */
static void print_row(const char *what, int64_t len_ns, int64_t *v, int n, int dropped,
		      const uint64_t *u0, const uint64_t *u1, int nst, double load)
{
	double sum = 0;

	if (raw)
		for (int i = 0; i < n; i++)
			fprintf(raw, "%s %lld %d %lld\n", what, (long long)(len_ns / 1000), i,
				(long long)v[i]);
	qsort(v, (size_t)n, sizeof(*v), cmp64);
	for (int i = 0; i < n; i++)
		sum += (double)v[i];
	printf("%-10s %6lld us  n %5d (dropped %d)  load %.2f  ns:", what, (long long)(len_ns / 1000), n,
	       dropped, load);
	if (!n) {
		printf(" no samples\n");
		return;
	}
	for (int k = 0; k < NQ; k++)
		printf(" p%g %lld", qs[k], (long long)il_wake_percentile(v, n, qs[k]));
	printf("  mean %.0f  states:", sum / n);
	for (int i = 0; i < nst; i++) {
		char nm[40];
		state_name(cpu, i, nm, sizeof(nm));
		printf(" %s=%llu", nm, (unsigned long long)(u1[i] - u0[i]));
	}
	printf("\n");
	if (tails) {
		/* the heavy tail: how many samples lie past the median by each step */
		static const int steps_us[] = { 10, 20, 30, 50, 100, 200, 500 };
		int64_t med = il_wake_percentile(v, n, 50);
		printf("  tail %lldus: n %d, past p50 (%lld ns) by", (long long)(len_ns / 1000), n,
		       (long long)med);
		for (size_t k = 0; k < sizeof(steps_us) / sizeof(steps_us[0]); k++) {
			int cnt = 0;
			for (int i = n - 1; i >= 0 && v[i] > med + steps_us[k] * 1000LL; i--)
				cnt++;
			printf(" %dus %d (%.3f%%)", steps_us[k], cnt, 100.0 * cnt / n);
		}
		printf("\n");
	}
	if (quantiles) {
		/* the quantiles less the simulator's own parts, kept non-decreasing */
		printf("  quantile %lldus:", (long long)(len_ns / 1000));
		int64_t prev = 0;
		for (int k = 0; k < NQ; k++) {
			int64_t x = il_wake_percentile(v, n, qs[k]) - subtract_ns;
			if (x < prev)
				x = prev;
			prev = x;
			printf("%s%g=%lld", k ? "," : "", qs[k], (long long)x);
		}
		printf("\n");
	}
	fflush(stdout);
}

/* ------------------------------------------------------------- stall */

/* --cpu's steal ticks (USER_HZ) in /proc/stat, -1 if unreadable */
static long long steal_ticks(int c)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512], want[16];
	long long v[8], r = -1;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "cpu%d ", c);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want)) &&
		    sscanf(line + strlen(want), "%lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
			r = v[7];
			break;
		}
	fclose(f);
	return r;
}

static void run_stall(void)
{
	static const int thr_us[] = { 20, 50, 100, 200, 500, 1000, 2000 };
	enum { NTHR = (int)(sizeof(thr_us) / sizeof(thr_us[0])) };
	int cap = 1 << 20, n = 0, nlong = 0;
	int64_t *gap = calloc((size_t)cap, sizeof(*gap));
	int64_t min_gap = (int64_t)(min_gap_us * 1000), spun = 0;
	int64_t want = (int64_t)(stall_seconds * 1e9);
	struct sched_param sp = { .sched_priority = 50 };
	bool fifo;

	if (!gap)
		exit(1);
	pin_or_die(cpu);
	fifo = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
	long long st0 = steal_ticks(cpu);
	double load = il_wake_load1();
	while (spun < want) {
		int64_t slice = want - spun < 500000000 ? want - spun : 500000000;
		int64_t t0 = il_wake_now_ns(), prev = t0, t = t0;
		while (t - t0 < slice) {
			t = il_wake_now_ns();
			if (t - prev >= min_gap && n < cap)
				gap[n++] = t - prev;
			prev = t;
		}
		spun += t - t0;
		sleep_ns(100000000);
	}
	long long st1 = steal_ticks(cpu);
	qsort(gap, (size_t)n, sizeof(*gap), cmp64);
	printf("stall: CPU %d, %s, spun %.3f s, load %.2f, gaps >= %g us: %d, steal %lld ticks "
	       "of 1/%ld s\n", cpu, fifo ? "SCHED_FIFO 50" : "SCHED_OTHER (no FIFO)", spun * 1e-9,
	       load, min_gap_us, n, st0 >= 0 && st1 >= 0 ? st1 - st0 : -1, sysconf(_SC_CLK_TCK));
	for (int k = 0; k < NTHR; k++) {
		int cnt = 0;
		double sum = 0;
		if (thr_us[k] * 1000 < min_gap)
			continue;
		for (int i = 0; i < n; i++)
			if (gap[i] >= thr_us[k] * 1000) {
				cnt++;
				sum += (double)gap[i];
			}
		printf("  gaps >= %4d us: %6d  %8.3f /s  total %10.1f us  %.5f %% of the spin\n",
		       thr_us[k], cnt, cnt / (spun * 1e-9), sum * 1e-3, 100 * sum / (double)spun);
	}
	for (int i = 0; i < n; i++)
		if (gap[i] >= 100000)
			gap[nlong++] = gap[i];
	if (nlong) {
		printf("  gaps >= 100 us, us:");
		for (int k = 0; k < NQ; k++)
			printf(" p%g %.1f", qs[k], il_wake_percentile(gap, nlong, qs[k]) * 1e-3);
		printf("\n");
	}
	if (quantiles && nlong) {
		printf("  every gap >= 100 us, us:");
		for (int i = 0; i < nlong; i++)
			printf(" %.1f", gap[i] * 1e-3);
		printf("\n");
	}
	free(gap);
}

/* ------------------------------------------------------------- timer */

static void run_timer(const int64_t *len, int nlen)
{
	int64_t *v = calloc((size_t)samples, sizeof(*v));

	if (!v)
		exit(1);
	pin_or_die(cpu);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (int k = 0; k < nlen; k++) {
		uint64_t u0[MAX_STATES], u1[MAX_STATES];
		double load = il_wake_load1();
		int nst = state_usage(cpu, u0);

		sleep_ns(1000000);
		for (int i = 0; i < samples; i++) {
			int64_t t0 = il_wake_now_ns();
			sleep_ns(len[k]);
			v[i] = il_wake_now_ns() - t0 - len[k];
		}
		state_usage(cpu, u1);
		print_row("timer", len[k], v, samples, 0, u0, u1, nst, load);
	}
	free(v);
}

/* --------------------------------------------------------- ipi, entry */

struct shared {
	_Alignas(64) _Atomic int word;   /* futex word: bumped to wake the wakee */
	_Alignas(64) _Atomic int64_t t_block; /* wakee: before FUTEX_WAIT (0: running) */
	_Atomic int64_t t_wake;          /* waker: before FUTEX_WAKE */
	_Atomic uint64_t tsc_block, tsc_wake;
	_Atomic int done;                /* wake-ups the wakee has taken */
	_Atomic int stop;
	_Atomic pid_t tid;
	int64_t *lat;                    /* per wake-up that slept */
	int64_t *wcall;                  /* the waker's FUTEX_WAKE call, per wake-up */
	int nw;
	uint64_t *tsc_b, *tsc_r, *tsc_w; /* entry: block, run and wake stamps */
	int n, cap, dropped;
};

static uint64_t tsc(void)
{
#if HAVE_TSC
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
#else
	return 0;
#endif
}

static void *wakee_main(void *arg)
{
	struct shared *sh = arg;
	int seen = 0;

	pin_or_die(cpu);
	atomic_store(&sh->tid, (pid_t)syscall(SYS_gettid));
	for (;;) {
		bool slept = false;
		atomic_store(&sh->tsc_block, tsc());
		atomic_store(&sh->t_block, il_wake_now_ns());
		while (atomic_load_explicit(&sh->word, memory_order_acquire) == seen)
			if (futex(&sh->word, FUTEX_WAIT_PRIVATE, seen) == 0)
				slept = true;
		int64_t t = il_wake_now_ns();
		uint64_t tr = tsc();
		seen = atomic_load(&sh->word);
		if (atomic_load(&sh->stop))
			return NULL;
		if (sh->n < sh->cap && slept) {
			sh->lat[sh->n] = t - atomic_load(&sh->t_wake);
			if (sh->tsc_b) {
				sh->tsc_b[sh->n] = atomic_load(&sh->tsc_block);
				sh->tsc_w[sh->n] = atomic_load(&sh->tsc_wake);
				sh->tsc_r[sh->n] = tr;
			}
			sh->n++;
		} else if (!slept) {
			sh->dropped++;
		}
		atomic_store(&sh->t_block, 0);
		atomic_fetch_add_explicit(&sh->done, 1, memory_order_release);
	}
}

/* The waker: each wake-up len after the wakee blocked (+0..10 % so it never aligns with the tick). */
static void wake_loop(struct shared *sh, int64_t len)
{
	unsigned seed = 4321;

	for (int i = 0; i < samples && sh->n < sh->cap; i++) {
		int64_t tb;
		/* wait until the wakee has stamped its block */
		while (!(tb = atomic_load_explicit(&sh->t_block, memory_order_acquire)))
			cpu_relax();
		int64_t due = tb + len + (int64_t)(rand_r(&seed) % (unsigned)(len / 10 + 1));
		int64_t now = il_wake_now_ns();
		if (due - now > 60000)
			sleep_ns(due - now - 30000);
		while (il_wake_now_ns() < due)
			cpu_relax();
		int before = atomic_load(&sh->done);
		atomic_store(&sh->tsc_wake, tsc());
		atomic_store(&sh->t_wake, il_wake_now_ns());
		atomic_fetch_add_explicit(&sh->word, 1, memory_order_release);
		futex(&sh->word, FUTEX_WAKE_PRIVATE, 1);
		sh->wcall[sh->nw++] = il_wake_now_ns() - atomic_load(&sh->t_wake);
		while (atomic_load_explicit(&sh->done, memory_order_acquire) == before)
			cpu_relax();
	}
}

/* ---------------------------------------------------------- tracefs */

static int tfs_write(const char *rel, const char *val)
{
	char p[256];
	int fd, r = 0;

	snprintf(p, sizeof(p), "%s/%s", instance, rel);
	fd = open(p, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		r = -1;
	if (close(fd))
		r = -1;
	return r;
}

static void instance_remove(void)
{
	if (instance[0]) {
		tfs_write("tracing_on", "0");
		rmdir(instance);
		instance[0] = '\0';
	}
}

/* the signals that end the run, and their handlers before ours (the restore's, or the default) */
static const int end_sigs[] = { SIGHUP, SIGINT, SIGPIPE, SIGTERM };
static struct sigaction old_sa[4];
/* the instance's trace while read_trace() has it open: an open file keeps rmdir from working */
static volatile sig_atomic_t trace_fd = -1;

/* Remove the instance, then hand the signal to the handler before ours. */
static void on_signal(int sig)
{
	if (trace_fd >= 0)
		close(trace_fd);
	if (instance[0])
		rmdir(instance);
	for (int i = 0; i < 4; i++)
		if (end_sigs[i] == sig)
			sigaction(sig, &old_sa[i], NULL);
	raise(sig);
}

static void instance_create(void)
{
	char mask[32];

	snprintf(instance, sizeof(instance), TRACEFS "/instances/bench_hostlat.%d", (int)getpid());
	if (mkdir(instance, 0700)) {
		fprintf(stderr, "bench_hostlat: cannot create %s: %s (is tracefs mounted? "
			"mount -t tracefs nodev " TRACEFS ")\n", instance, strerror(errno));
		instance[0] = '\0';
		exit(1);
	}
	atexit(instance_remove);
	snprintf(mask, sizeof(mask), "%x", 1u << cpu);
	if (tfs_write("trace_clock", "x86-tsc") || tfs_write("tracing_cpumask", mask) ||
	    tfs_write("buffer_size_kb", "32768")) {
		fprintf(stderr, "bench_hostlat: cannot set up %s\n", instance);
		exit(1);
	}
}

/* TSC ticks per ns, against CLOCK_MONOTONIC over 200 ms */
static double tsc_per_ns(void)
{
	int64_t t0 = il_wake_now_ns();
	uint64_t c0 = tsc();
	sleep_ns(200000000);
	int64_t t1 = il_wake_now_ns();
	uint64_t c1 = tsc();
	return (double)(c1 - c0) / (double)(t1 - t0);
}

/* The cost of one trace event: getppid() with and without its sys_enter event, ns. */
static double event_cost(double tpn)
{
	double best[2] = { 1e18, 1e18 };

	pin_or_die(cpu);
	for (int on = 0; on < 2; on++) {
		tfs_write("events/syscalls/sys_enter_getppid/enable", on ? "1" : "0");
		tfs_write("tracing_on", on ? "1" : "0");
		for (int rep = 0; rep < 20; rep++) {
			uint64_t c0 = tsc();
			for (int i = 0; i < 1000; i++)
				syscall(SYS_getppid);
			double ns = (double)(tsc() - c0) / tpn / 1000;
			if (ns < best[on])
				best[on] = ns;
		}
	}
	tfs_write("tracing_on", "0");
	tfs_write("events/syscalls/sys_enter_getppid/enable", "0");
	tfs_write("trace", "");
	return best[1] - best[0];
}

struct ev {
	uint64_t ts;
	int kind;       /* 0 switch out of the wakee, 1 switch to it, 2 idle enter, 3 idle exit, 4 futex */
	int state;
};

static int ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* The trace of one length: its events on cpu, by time. */
static struct ev *read_trace(pid_t tid, int *nev)
{
	char p[256], line[512];
	int cap = 1 << 16, n = 0;
	struct ev *e = malloc((size_t)cap * sizeof(*e));
	FILE *f;

	snprintf(p, sizeof(p), "%s/trace", instance);
	f = fopen(p, "r");
	if (!f || !e) {
		fprintf(stderr, "bench_hostlat: cannot read %s\n", p);
		exit(1);
	}
	trace_fd = fileno(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long ts;
		char *c;
		struct ev x = { 0, -1, 0 };
		if (line[0] == '#')
			continue;
		/* "  task-PID  [CPU] flags  TS: event: fields" */
		c = strstr(line, "] ");
		if (!c)
			continue;
		c += 2;
		while (*c == ' ')
			c++;
		while (*c && *c != ' ')
			c++; /* the irq/preempt flags */
		if (sscanf(c, " %llu:", &ts) != 1)
			continue;
		x.ts = ts;
		if ((c = strstr(line, "sched_switch:"))) {
			char *pp = strstr(c, "prev_pid="), *np = strstr(c, "next_pid=");
			if (pp && atoi(pp + 9) == tid)
				x.kind = 0;
			else if (np && atoi(np + 9) == tid)
				x.kind = 1;
		} else if ((c = strstr(line, "cpu_idle:"))) {
			char *s = strstr(c, "state=");
			if (s) {
				long st = strtol(s + 6, NULL, 10);
				x.kind = st == 4294967295L || st == -1 ? 3 : 2;
				x.state = (int)st;
			}
		} else if (strstr(line, "sys_futex(")) {
			x.kind = 4;
		}
		if (x.kind < 0)
			continue;
		if (n == cap) {
			cap *= 2;
			e = realloc(e, (size_t)cap * sizeof(*e));
			if (!e)
				exit(1);
		}
		e[n++] = x;
	}
	trace_fd = -1;
	fclose(f);
	qsort(e, (size_t)n, sizeof(*e), ev_cmp);
	*nev = n;
	return e;
}

/* First event of kind after t (and before limit), or NULL. */
static const struct ev *ev_after(const struct ev *e, int n, int *from, uint64_t t, uint64_t limit,
				 int kind)
{
	while (*from < n && e[*from].ts < t)
		(*from)++;
	for (int i = *from; i < n && e[i].ts <= limit; i++)
		if (e[i].kind == kind)
			return &e[i];
	return NULL;
}

/*
 * Per wake-up, from the trace: the stamp before FUTEX_WAIT (b), the futex
 * syscall's entry, the switch to the idle task, the state's entry and exit,
 * the switch back and the wakee's stamp when it runs (r); the waker's stamp
 * before FUTEX_WAKE (w). Rows per state entered.
 */
static void entry_rows(struct shared *sh, int64_t len, double tpn, const uint64_t *u0,
		       const uint64_t *u1, int nst, double load)
{
	int nev, from = 0, m[MAX_STATES] = { 0 };
	struct ev *e = read_trace(atomic_load(&sh->tid), &nev);
	int64_t *a[MAX_STATES][6];
	const char *names[6] = { "to-sys", "to-sw", "to-idle", "block", "wake", "run" };

	int64_t *halted = calloc((size_t)sh->n + 1, sizeof(int64_t));
	for (int s = 0; s < nst; s++)
		for (int k = 0; k < 6; k++)
			a[s][k] = calloc((size_t)sh->n + 1, sizeof(int64_t));
	for (int i = 0; i < sh->n; i++) {
		uint64_t b = sh->tsc_b[i], w = sh->tsc_w[i], r = sh->tsc_r[i];
		const struct ev *fx = ev_after(e, nev, &from, b, w, 4);
		const struct ev *so = ev_after(e, nev, &from, b, w, 0);
		const struct ev *in = so ? ev_after(e, nev, &from, so->ts, w, 2) : NULL;
		int f2 = from;
		/* the last state entered before the wake-up counts (a poll that timed out halts next) */
		while (in) {
			int f3 = from;
			const struct ev *nx = ev_after(e, nev, &f3, in->ts + 1, w, 2);
			if (!nx)
				break;
			in = nx;
		}
		const struct ev *out = in ? ev_after(e, nev, &f2, in->ts, r, 3) : NULL;
		const struct ev *si = out ? ev_after(e, nev, &f2, out->ts, r, 1) : NULL;
		if (!fx || !so || !in || !out || !si || in->state < 0 || in->state >= nst)
			continue;
		int s = in->state, j = m[s]++;
		a[s][0][j] = (int64_t)((double)(fx->ts - b) / tpn);     /* stamp -> futex entry */
		a[s][1][j] = (int64_t)((double)(so->ts - fx->ts) / tpn); /* -> switch to idle */
		a[s][2][j] = (int64_t)((double)(in->ts - so->ts) / tpn); /* -> state entered */
		a[s][3][j] = (int64_t)((double)(in->ts - b) / tpn);      /* stamp -> state entered */
		a[s][4][j] = (int64_t)((double)(out->ts > w ? out->ts - w : 0) / tpn); /* wake -> exit */
		a[s][5][j] = (int64_t)((double)(r - out->ts) / tpn);     /* exit -> wakee runs */
		if (s == 1)
			halted[j] = w > in->ts ? (int64_t)((double)(w - in->ts) / tpn) : 0;
	}
	printf("entry  %6lld us: of %d wake-ups, matched in the trace by the state last entered:",
	       (long long)(len / 1000), sh->n);
	for (int s = 0; s < nst; s++)
		printf(" state%d=%d", s, m[s]);
	printf("\n");
	/* a halt's wake -> exit by how long it had been halted at the wake (w - entry) */
	static const int64_t edge_us[] = { 0, 10, 30, 100, 300, 1000, 3000, 1000000 };
	enum { NB = sizeof(edge_us) / sizeof(edge_us[0]) - 1 };
	if (nst > 1 && m[1]) {
		int64_t *bv = calloc((size_t)m[1], sizeof(int64_t));
		for (int b = 0; b < NB; b++) {
			int nb = 0;
			for (int j = 0; j < m[1]; j++) {
				int64_t h = a[1][3][j] >= 0 ? halted[j] : -1;
				if (h >= edge_us[b] * 1000 && h < edge_us[b + 1] * 1000)
					bv[nb++] = a[1][4][j];
			}
			if (nb) {
				char what[40];
				snprintf(what, sizeof(what), "s1:wake@%lld-%lldus", (long long)edge_us[b],
					 (long long)edge_us[b + 1]);
				print_row(what, len, bv, nb, 0, u0, u1, nst, load);
			}
		}
		free(bv);
	}
	for (int s = 0; s < nst; s++) {
		for (int k = 0; k < 6; k++) {
			char what[24];
			snprintf(what, sizeof(what), "s%d:%s", s, names[k]);
			if (m[s])
				print_row(what, len, a[s][k], m[s], 0, u0, u1, nst, load);
			free(a[s][k]);
		}
	}
	free(halted);
	free(e);
}

static void run_wake(enum mode mode, const int64_t *len, int nlen)
{
	struct shared *sh = aligned_alloc(64, sizeof(*sh));
	pthread_t th;
	double tpn = 0, cost = 0;

	if (!sh)
		exit(1);
	memset(sh, 0, sizeof(*sh));
	sh->cap = samples;
	sh->lat = calloc((size_t)samples, sizeof(int64_t));
	sh->wcall = calloc((size_t)samples, sizeof(int64_t));
	if (mode == M_ENTRY) {
		if (!HAVE_TSC) {
			fprintf(stderr, "bench_hostlat: --mode entry needs x86 (trace clock x86-tsc)\n");
			exit(2);
		}
		instance_create();
		tpn = tsc_per_ns();
		cost = event_cost(tpn);
		printf("TSC %.4f ticks/ns; one trace event costs %.0f ns (getppid() with and without "
		       "its event)\n", tpn, cost);
		sh->tsc_b = calloc((size_t)samples, sizeof(uint64_t));
		sh->tsc_w = calloc((size_t)samples, sizeof(uint64_t));
		sh->tsc_r = calloc((size_t)samples, sizeof(uint64_t));
		if (tfs_write("events/sched/sched_switch/enable", "1") ||
		    tfs_write("events/power/cpu_idle/enable", "1") ||
		    tfs_write("events/syscalls/sys_enter_futex/enable", "1")) {
			fprintf(stderr, "bench_hostlat: cannot enable sched_switch, cpu_idle and "
				"sys_enter_futex in %s\n", instance);
			exit(1);
		}
	}
	pin_or_die(other);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	pthread_create(&th, NULL, wakee_main, sh);
	for (int k = 0; k < nlen; k++) {
		uint64_t u0[MAX_STATES], u1[MAX_STATES];
		double load = il_wake_load1();
		int nst = state_usage(cpu, u0);

		sh->n = 0;
		sh->nw = 0;
		sh->dropped = 0;
		if (mode == M_ENTRY) {
			tfs_write("trace", "");
			tfs_write("tracing_on", "1");
		}
		wake_loop(sh, len[k]);
		if (mode == M_ENTRY)
			tfs_write("tracing_on", "0");
		state_usage(cpu, u1);
		if (mode == M_ENTRY)
			entry_rows(sh, len[k], tpn, u0, u1, nst, load);
		else
			print_row("ipi", len[k], sh->lat, sh->n, sh->dropped, u0, u1, nst, load);
		bool q = quantiles;
		quantiles = false;
		print_row("futex_wake", len[k], sh->wcall, sh->nw, 0, u0, u1, nst, load);
		quantiles = q;
	}
	atomic_store(&sh->stop, 1);
	while (!atomic_load(&sh->t_block))
		cpu_relax();
	atomic_fetch_add(&sh->word, 1);
	futex(&sh->word, FUTEX_WAKE_PRIVATE, 1);
	pthread_join(th, NULL);
}

/* ------------------------------------------------------------- main */

static int parse_lengths(const char *s, int64_t *out)
{
	int n = 0;
	char *end;

	for (;;) {
		double v = strtod(s, &end);
		if (end == s || v <= 0 || v > 1e6 || n == MAX_LENGTHS)
			return -1;
		out[n++] = (int64_t)(v * 1000 + 0.5);
		if (!*end)
			return n;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_hostlat --mode timer|ipi|entry|stall [--cpu B] [--other A] "
		"[--lengths LIST] [--samples N] [--idle halt|poll|haltpoll|asis] [--quantiles] [--tail] "
		"[--raw FILE] [--subtract NS] [--seconds S] [--min-gap US]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "other", required_argument, NULL, 'o' },
		{ "lengths", required_argument, NULL, 'l' },
		{ "samples", required_argument, NULL, 'n' },
		{ "idle", required_argument, NULL, 'i' },
		{ "quantiles", no_argument, NULL, 'q' },
		{ "tail", no_argument, NULL, 't' },
		{ "raw", required_argument, NULL, 'r' },
		{ "subtract", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "min-gap", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ms = NULL, *idle = "halt";
	int64_t len[MAX_LENGTHS];
	int nlen = parse_lengths("2,5,10,20,50,100,200,500,1000", len), c;
	enum mode mode;
	struct il_err err;

	while ((c = getopt_long(argc, argv, "m:c:o:l:n:i:qtr:s:S:g:", opts, NULL)) != -1) {
		switch (c) {
		case 'm': ms = optarg; break;
		case 'c': cpu = atoi(optarg); break;
		case 'o': other = atoi(optarg); break;
		case 'l':
			if ((nlen = parse_lengths(optarg, len)) < 0) {
				fprintf(stderr, "bench_hostlat: --lengths %s: want up to %d lengths in "
					"us, comma-separated\n", optarg, MAX_LENGTHS);
				return 2;
			}
			break;
		case 'n': samples = atoi(optarg); break;
		case 'i': idle = optarg; break;
		case 'q': quantiles = true; break;
		case 't': tails = true; break;
		case 'r':
			if (!(raw = fopen(optarg, "w"))) {
				fprintf(stderr, "bench_hostlat: --raw %s: %s\n", optarg, strerror(errno));
				return 2;
			}
			break;
		case 's': subtract_ns = atoll(optarg); break;
		case 'S': stall_seconds = atof(optarg); break;
		case 'g': min_gap_us = atof(optarg); break;
		default: usage();
		}
	}
	if (!ms)
		usage();
	if (!strcmp(ms, "timer"))
		mode = M_TIMER;
	else if (!strcmp(ms, "ipi"))
		mode = M_IPI;
	else if (!strcmp(ms, "entry"))
		mode = M_ENTRY;
	else if (!strcmp(ms, "stall"))
		mode = M_STALL;
	else
		usage();
	if (!(stall_seconds > 0 && stall_seconds <= 600) || !(min_gap_us >= 1 && min_gap_us <= 1e6)) {
		fprintf(stderr, "bench_hostlat: --seconds wants 0..600, --min-gap 1..1000000 us\n");
		return 2;
	}
	if (samples < 1 || samples > 10000000 || cpu == other || cpu < 0 || other < 0 ||
	    cpu >= 32 || (strcmp(idle, "halt") && strcmp(idle, "poll") && strcmp(idle, "asis") &&
			  strcmp(idle, "haltpoll"))) {
		fprintf(stderr, "bench_hostlat: bad --samples, --cpu, --other or --idle\n");
		return 2;
	}
	if (il_wake_cpu_ok(cpu) || il_wake_cpu_ok(other)) {
		fprintf(stderr, "bench_hostlat: CPU %d or %d: not one this process may run on\n",
			cpu, other);
		return 1;
	}
	if (!strcmp(idle, "halt")) {
		if (il_change_governor("/", "haltpoll", &err) ||
		    il_change_param("/", "haltpoll.guest_halt_poll_ns=0", &err)) {
			fprintf(stderr, "bench_hostlat: %s\n", err.msg);
			return 1;
		}
	} else if (!strcmp(idle, "haltpoll")) {
		if (il_change_governor("/", "haltpoll", &err) ||
		    il_change_param("/", "haltpoll.guest_halt_poll_ns=200000", &err)) {
			fprintf(stderr, "bench_hostlat: %s\n", err.msg);
			return 1;
		}
	} else if (!strcmp(idle, "poll")) {
		uint64_t u[MAX_STATES];
		int nst = state_usage(cpu, u);
		if (il_change_governor("/", "menu", &err)) {
			fprintf(stderr, "bench_hostlat: %s\n", err.msg);
			return 1;
		}
		for (int i = 1; i < nst; i++)
			if (il_change_state_disable("/", cpu, i, 1, &err)) {
				fprintf(stderr, "bench_hostlat: %s\n", err.msg);
				return 1;
			}
	}
	/* after the changes: their restore handler is the one chained to */
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 4; i++)
		sigaction(end_sigs[i], &sa, &old_sa[i]);
	printf("bench_hostlat --mode %s: CPU %d (other CPU %d), idle %s, %d samples per length, "
	       "clock read %lld ns\n", ms, cpu, other, idle, samples,
	       (long long)il_wake_clock_cost_ns());
	if (mode == M_STALL)
		run_stall();
	else if (mode == M_TIMER)
		run_timer(len, nlen);
	else
		run_wake(mode, len, nlen);
	return 0;
}
