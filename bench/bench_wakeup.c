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
 * The measurements are the library's (il_wake_run,
 * include/idlelab/wakebench.h: the same code as `idlelab latency`); this
 * program adds the platform fit lines.
 * usage: bench_wakeup [--mode halt|poll|both|pingpong] [--samples N] [--gap-us G]
 *                     [--waker-cpu A] [--wakee-cpu B] [--platform P]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sim.h"
#include "idlelab/wakebench.h"

#define Z90 1.2815515655446004 /* 90th percentile of the standard normal */

static void pp_print(const struct il_wake_pct *p, int dropped, int to_cpu, int from_cpu)
{
	printf("  to CPU %d (from CPU %d): %d wake-ups (%d found the token already there)\n", to_cpu,
	       from_cpu, p->n, dropped);
	if (p->n)
		printf("    min %lld  p25 %lld  p50 %lld  p75 %lld  p90 %lld  p99 %lld  max %lld ns\n",
		       (long long)p->min, (long long)p->p25, (long long)p->p50, (long long)p->p75,
		       (long long)p->p90, (long long)p->p99, (long long)p->max);
}

static int run_pingpong(int rounds, int cpu_a, int cpu_b)
{
	struct il_wake_opts o = { .mode = IL_WAKE_PINGPONG, .samples = rounds, .waker = cpu_a,
				  .wakee = cpu_b };
	struct il_wake_result r;
	struct il_err err;

	if (il_wake_run(&o, &r, &err)) {
		fprintf(stderr, "bench_wakeup: %s\n", err.msg);
		return 1;
	}
	int done = r.round_trips;
	printf("mode pingpong: CPUs %d and %d, %d round trips in %.3f s: %.0f round trips/s "
	       "(%.1f us each)\n", cpu_a, cpu_b, done, (double)r.elapsed_ns * 1e-9,
	       r.round_trips_per_s, (double)r.elapsed_ns / 1000.0 / (done ? done : 1));
	pp_print(&r.lat, r.dropped, cpu_b, cpu_a);
	pp_print(&r.back, r.back_dropped, cpu_a, cpu_b);
	return 0;
}

static int run(enum il_wake_mode mode, int samples, long gap_us, int waker_cpu, int wakee_cpu,
	       int64_t soft_ns)
{
	struct il_wake_opts o = { .mode = mode, .samples = samples, .gap_ns = gap_us * 1000,
				  .waker = waker_cpu, .wakee = wakee_cpu };
	struct il_wake_result res;
	struct il_err err;

	if (il_wake_run(&o, &res, &err)) {
		fprintf(stderr, "bench_wakeup: %s\n", err.msg);
		return 1;
	}
	const struct il_wake_pct *p = &res.lat;
	int64_t p50 = p->p50, p90 = p->p90;
	double sigma = p50 > 0 && p90 > p50 ? log((double)p90 / (double)p50) / Z90 : 0;

	printf("mode %s: wakee CPU %d, waker CPU %d, %d samples (%d dropped: wakee never slept), "
	       "gap %ld-%ld us\n", mode == IL_WAKE_HALT ? "halt" : "poll", wakee_cpu, waker_cpu,
	       p->n, res.dropped, gap_us, gap_us + gap_us / 2);
	printf("  min %lld  p25 %lld  p50 %lld  p75 %lld  p90 %lld  p99 %lld  p99.9 %lld  max %lld  "
	       "mean %.0f ns\n", (long long)p->min, (long long)p->p25, (long long)p50,
	       (long long)p->p75, (long long)p90, (long long)p->p99, (long long)p->p999,
	       (long long)p->max, p->mean);
	if (mode == IL_WAKE_HALT) {
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
	printf("clock read (CLOCK_MONOTONIC, back-to-back, min of 1000): %lld ns\n",
	       (long long)il_wake_clock_cost_ns());
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
		r |= run(IL_WAKE_HALT, samples, gap, waker, wakee_cpu, soft_ns);
	if (!r && strcmp(mode, "halt"))
		r |= run(IL_WAKE_POLL, samples, gap, waker, wakee_cpu, soft_ns);
	return r;
}
