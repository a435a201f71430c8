/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers of the benchmarks that measure this machine (bench_wakeup, bench_live_sweep). */
#ifndef IDLELAB_BENCH_UTIL_H
#define IDLELAB_BENCH_UTIL_H

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>

static inline int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Pin the calling thread to cpu; 0 or an errno. */
static inline int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static inline int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The q-th percentile of n sorted values (nearest rank). */
static inline int64_t pct(const int64_t *v, int n, double q)
{
	int i = (int)ceil(q / 100.0 * n) - 1;

	return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

static inline void sleep_ns(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

#endif
