// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_wakeup: cross-CPU wake-up latency of this machine, the figures
 * platforms/kvm-haltpoll.ini cites as hlt_exit and poll_exit.
 *
 * A wakee thread pinned to one CPU waits; a waker pinned to another reads
 * CLOCK_MONOTONIC, publishes the time and wakes it; the wakee reads the
 * clock as soon as it runs again. The difference is the wake-to-run
 * latency:
 *   halt  the wakee blocks in futex(FUTEX_WAIT); its CPU goes idle (on a
 *         haltpoll guest with guest_halt_poll_ns=0 that is HLT, a VM exit)
 *         and the waker's FUTEX_WAKE sends the reschedule IPI. A gap of
 *         --gap-us between samples lets the CPU settle into idle; samples
 *         where the wakee found the word already set (it never slept) are
 *         dropped and counted.
 *   poll  the wakee spins on the word in user space (PAUSE loop), as a
 *         polling CPU does; the latency is the cache-line hand-over.
 *   pingpong
 *         two threads pass a token through two futex words, as the sim's
 *         pingpong workload (context_switch2) does: each wakes the other
 *         and blocks until woken back. Prints round trips per second and the
 *         one-way wake-to-run latency of each direction (stamp before the
 *         FUTEX_WAKE, clock read when the woken side runs): the figures to
 *         hold `idlelab sim --workload pingpong` against (docs/sim.md).
 * The clock-read cost (two back-to-back reads) is printed for reference;
 * it is inside every sample once. Run it on an otherwise idle machine: other
 * runnable tasks preempt the wakee and show up as millisecond tails (the
 * load average at start is printed to tell such runs apart).
 *
 * The halt fit line leaves out what the simulator adds to the exit latency
 * itself on --platform (default kvm-haltpoll): its switch_ns and IPI.
 * usage: bench_wakeup [--mode halt|poll|both|pingpong] [--samples N] [--gap-us G]
 *                     [--waker-cpu A] [--wakee-cpu B] [--platform P]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "idlelab/sim.h"

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif

#define Z90 1.2815515655446004 /* 90th percentile of the standard normal */

enum mode { MODE_HALT, MODE_POLL };

struct shared {
	_Alignas(64) _Atomic int go;   /* futex word: 1 = wake up */
	_Alignas(64) _Atomic int ack;  /* wakee done with the sample */
	_Atomic int64_t t0;            /* waker's clock at the wake */
	_Atomic int stop;
	enum mode mode;
	int wakee_cpu;
	int64_t *lat;                  /* samples, ns */
	int nlat;
	int never_slept;
};

static long futex(_Atomic int *uaddr, int op, int val)
{
	return syscall(SYS_futex, (int *)uaddr, op, val, NULL, NULL, 0);
}

static void *wakee(void *arg)
{
	struct shared *sh = arg;

	if (pin(sh->wakee_cpu)) {
		fprintf(stderr, "bench_wakeup: cannot pin the wakee to CPU %d\n", sh->wakee_cpu);
		exit(1);
	}
	for (;;) {
		bool slept = false;

		if (sh->mode == MODE_HALT) {
			while (!atomic_load_explicit(&sh->go, memory_order_acquire)) {
				if (futex(&sh->go, FUTEX_WAIT_PRIVATE, 0) == 0)
					slept = true;
			}
		} else {
			while (!atomic_load_explicit(&sh->go, memory_order_acquire))
				cpu_relax();
			slept = true;
		}
		int64_t t1 = now_ns();
		if (atomic_load(&sh->stop))
			return NULL;
		if (slept)
			sh->lat[sh->nlat++] = t1 - atomic_load(&sh->t0);
		else
			sh->never_slept++;
		atomic_store(&sh->go, 0);
		atomic_store_explicit(&sh->ack, 1, memory_order_release);
	}
}

/* ------------------------------------------------------------ pingpong */

struct pp_side {
	_Alignas(64) _Atomic int word;  /* futex word: bumped to wake this side */
	_Atomic int64_t t0;             /* the other side's clock at the wake */
	int cpu;
	int64_t *lat;
	int nlat, never_slept;
	struct pp_side *other;
	int rounds;
	bool starts;                    /* hands over the first token */
	_Atomic int *stop;
};

static void *pp_run(void *arg)
{
	struct pp_side *me = arg;
	int seen = 0;

	if (pin(me->cpu)) {
		fprintf(stderr, "bench_wakeup: cannot pin to CPU %d\n", me->cpu);
		exit(1);
	}
	for (int i = 0; i < me->rounds; i++) {
		if (i > 0 || me->starts) {
			/* hand the token over */
			atomic_store(&me->other->t0, now_ns());
			atomic_fetch_add_explicit(&me->other->word, 1, memory_order_release);
			futex(&me->other->word, FUTEX_WAKE_PRIVATE, 1);
		}
		bool slept = false;
		while (atomic_load_explicit(&me->word, memory_order_acquire) == seen) {
			if (atomic_load(me->stop))
				return NULL;
			if (futex(&me->word, FUTEX_WAIT_PRIVATE, seen) == 0)
				slept = true;
		}
		int64_t t1 = now_ns();
		seen = atomic_load(&me->word);
		if (slept)
			me->lat[me->nlat++] = t1 - atomic_load(&me->t0);
		else
			me->never_slept++;
	}
	atomic_store(me->stop, 1);
	atomic_fetch_add(&me->other->word, 1);
	futex(&me->other->word, FUTEX_WAKE_PRIVATE, 1);
	return NULL;
}

static void pp_print(const struct pp_side *s, int from_cpu)
{
	int n = s->nlat;

	qsort(s->lat, (size_t)n, sizeof(int64_t), cmp64);
	printf("  to CPU %d (from CPU %d): %d wake-ups (%d found the token already there)\n", s->cpu,
	       from_cpu, n, s->never_slept);
	if (n)
		printf("    min %lld  p25 %lld  p50 %lld  p75 %lld  p90 %lld  p99 %lld  max %lld ns\n",
		       (long long)s->lat[0], (long long)pct(s->lat, n, 25),
		       (long long)pct(s->lat, n, 50), (long long)pct(s->lat, n, 75),
		       (long long)pct(s->lat, n, 90), (long long)pct(s->lat, n, 99),
		       (long long)s->lat[n - 1]);
}

static int run_pingpong(int rounds, int cpu_a, int cpu_b)
{
	struct pp_side *a = aligned_alloc(64, sizeof(*a)), *b = aligned_alloc(64, sizeof(*b));
	_Atomic int stop = 0;
	pthread_t th;

	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	a->cpu = cpu_a;
	b->cpu = cpu_b;
	a->other = b;
	b->other = a;
	a->rounds = b->rounds = rounds;
	a->starts = true;
	a->stop = b->stop = &stop;
	a->lat = calloc((size_t)rounds, sizeof(int64_t));
	b->lat = calloc((size_t)rounds, sizeof(int64_t));
	/* b starts blocked, a hands it the first token */
	pthread_create(&th, NULL, pp_run, b);
	sleep_ns(10000000);
	int64_t t0 = now_ns();
	pp_run(a);
	int64_t el = now_ns() - t0;
	pthread_join(th, NULL);
	int done = a->nlat + a->never_slept;
	printf("mode pingpong: CPUs %d and %d, %d round trips in %.3f s: %.0f round trips/s "
	       "(%.1f us each)\n", cpu_a, cpu_b, done, (double)el * 1e-9,
	       (double)done / ((double)el * 1e-9), (double)el / 1000.0 / (done ? done : 1));
	pp_print(b, cpu_a);
	pp_print(a, cpu_b);
	free(a->lat);
	free(b->lat);
	free(a);
	free(b);
	return 0;
}

static int run(enum mode mode, int samples, long gap_us, int waker_cpu, int wakee_cpu,
	       int64_t soft_ns)
{
	struct shared *sh = aligned_alloc(64, sizeof(*sh));
	pthread_t th;

	memset(sh, 0, sizeof(*sh));
	sh->mode = mode;
	sh->wakee_cpu = wakee_cpu;
	sh->lat = calloc((size_t)samples, sizeof(int64_t));
	if (pin(waker_cpu)) {
		fprintf(stderr, "bench_wakeup: cannot pin the waker to CPU %d\n", waker_cpu);
		return 1;
	}
	pthread_create(&th, NULL, wakee, sh);
	unsigned seed = 12345;
	for (int i = 0; i < samples; i++) {
		/* a gap with jitter so the wake never aligns with the tick */
		sleep_ns(1000 * (gap_us + rand_r(&seed) % (gap_us / 2 + 1)));
		atomic_store(&sh->t0, now_ns());
		atomic_store_explicit(&sh->go, 1, memory_order_release);
		if (mode == MODE_HALT)
			futex(&sh->go, FUTEX_WAKE_PRIVATE, 1);
		while (!atomic_load_explicit(&sh->ack, memory_order_acquire))
			cpu_relax();
		atomic_store(&sh->ack, 0);
	}
	atomic_store(&sh->stop, 1);
	atomic_store(&sh->go, 1);
	futex(&sh->go, FUTEX_WAKE_PRIVATE, 1);
	pthread_join(th, NULL);

	int n = sh->nlat;
	if (n == 0) {
		fprintf(stderr, "bench_wakeup: no samples\n");
		return 1;
	}
	qsort(sh->lat, (size_t)n, sizeof(int64_t), cmp64);
	double mean = 0;
	for (int i = 0; i < n; i++)
		mean += (double)sh->lat[i];
	mean /= n;
	int64_t p50 = pct(sh->lat, n, 50), p90 = pct(sh->lat, n, 90);
	double sigma = p50 > 0 && p90 > p50 ? log((double)p90 / (double)p50) / Z90 : 0;

	printf("mode %s: wakee CPU %d, waker CPU %d, %d samples (%d dropped: wakee never slept), "
	       "gap %ld-%ld us\n", mode == MODE_HALT ? "halt" : "poll", wakee_cpu, waker_cpu, n,
	       sh->never_slept, gap_us, gap_us + gap_us / 2);
	printf("  min %lld  p25 %lld  p50 %lld  p75 %lld  p90 %lld  p99 %lld  p99.9 %lld  max %lld  "
	       "mean %.0f ns\n", (long long)sh->lat[0], (long long)pct(sh->lat, n, 25),
	       (long long)p50, (long long)pct(sh->lat, n, 75), (long long)p90,
	       (long long)pct(sh->lat, n, 99), (long long)pct(sh->lat, n, 99.9),
	       (long long)sh->lat[n - 1], mean);
	if (mode == MODE_HALT) {
		/*
		 * A halted wakee's sample is end to end: it includes the IPI and
		 * the woken task's context switch, which the engine adds on its
		 * own (soft_ns): the platform's exit latency is the rest.
		 */
		int64_t m = p50 - soft_ns, m90 = p90 - soft_ns;
		double sg = m > 0 && m90 > m ? log((double)m90 / (double)m) / Z90 : 0;
		printf("  platform: hlt_exit = lognormal:%lld:%.3f (p50 and p90 less the platform's "
		       "switch_ns and IPI, %lld ns)\n", (long long)m, sg, (long long)soft_ns);
	} else {
		printf("  platform: poll_exit = lognormal:%lld:%.3f\n", (long long)p50, sigma);
	}
	free(sh->lat);
	free(sh);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "samples", required_argument, NULL, 'n' },
		{ "gap-us", required_argument, NULL, 'g' },
		{ "waker-cpu", required_argument, NULL, 'a' },
		{ "wakee-cpu", required_argument, NULL, 'b' },
		{ "platform", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mode = "both", *platform = "kvm-haltpoll";
	int samples = 10000, waker = 0, wakee_cpu = 1;
	long gap = 500;
	int c;

	while ((c = getopt_long(argc, argv, "m:n:g:a:b:p:", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mode = optarg; break;
		case 'n': samples = atoi(optarg); break;
		case 'g': gap = atol(optarg); break;
		case 'a': waker = atoi(optarg); break;
		case 'b': wakee_cpu = atoi(optarg); break;
		case 'p': platform = optarg; break;
		default:
			fprintf(stderr, "usage: bench_wakeup [--mode halt|poll|both|pingpong] [--samples N] "
				"[--gap-us G] [--waker-cpu A] [--wakee-cpu B] [--platform P]\n");
			return 2;
		}
	}
	if (samples < 1 || gap < 1 || (strcmp(mode, "halt") && strcmp(mode, "poll") &&
				       strcmp(mode, "both") && strcmp(mode, "pingpong"))) {
		fprintf(stderr, "bench_wakeup: bad --mode, --samples or --gap-us\n");
		return 2;
	}
	/* the platform whose switch_ns a halted sample's fit leaves out */
	static struct il_platform plat;
	struct il_err err;
	if (il_platform_load(&plat, platform, &err)) {
		fprintf(stderr, "bench_wakeup: %s\n", err.msg);
		return 2;
	}
	/*
	 * What the engine adds to a halted wakee's exit latency on its own: the
	 * woken task's switch and the IPI (send + delivery, their means).
	 */
	struct il_sim_params sp;
	il_sim_params_default(&sp);
	int64_t soft_ns = il_sim_switch_ns(&sp, &plat) +
			  (int64_t)(il_dist_mean(&plat.ipi_send) + il_dist_mean(&plat.ipi_delivery));
	int64_t a = now_ns(), b = now_ns();
	int64_t best = b - a;
	for (int i = 0; i < 1000; i++) {
		a = now_ns();
		b = now_ns();
		if (b - a < best)
			best = b - a;
	}
	printf("clock read (CLOCK_MONOTONIC, back-to-back, min of 1000): %lld ns\n", (long long)best);
	/* other runnable tasks on these CPUs preempt the spinning wakee: say how busy it was */
	FILE *la = fopen("/proc/loadavg", "r");
	char load[64];
	if (la && fgets(load, sizeof(load), la))
		printf("load average at start: %s", load);
	if (la)
		fclose(la);
	int r = 0;
	if (!strcmp(mode, "pingpong"))
		return run_pingpong(samples, waker, wakee_cpu);
	if (strcmp(mode, "poll"))
		r |= run(MODE_HALT, samples, gap, waker, wakee_cpu, soft_ns);
	if (!r && strcmp(mode, "halt"))
		r |= run(MODE_POLL, samples, gap, waker, wakee_cpu, soft_ns);
	return r;
}
