/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two instances of one governor side by side: the fast path and the
 * kernel-shaped reference (a configuration switch of the governor under
 * test). Both decide the same rows, each through its own replay engine
 * (the core's accounting, reflect, per-CPU clocks), and every decision
 * must be equal: the rows of the test logs, then random rows on each log's
 * state table. Included by test_menu.c and test_teo.c.
 */
#ifndef TWIN_H
#define TWIN_H

#include <stdio.h>
#include <stdlib.h>

#include "idlelab/replay.h"

/* The test logs: the bench tables and the crosscheck reproducers. */
static const char *const twin_logs[] = {
	"tests/fixtures/replay/haswell.log",
	"tests/fixtures/replay/kvm.log",
	"tests/fixtures/replay/pseries.log",
	"tests/fixtures/replay/zen3.log",
	"tests/fixtures/crosscheck/huge-table.log",
	"tests/fixtures/crosscheck/menu-2el-overflow.log",
	"tests/fixtures/crosscheck/menu-iowait-wrap.log",
	"tests/fixtures/crosscheck/menu-ktime-poll-timeout.log",
	"tests/fixtures/crosscheck/teo-negative-sleep-wrap.log",
	"tests/fixtures/crosscheck/teo61-middle-of-bin-overflow.log",
};
#define TWIN_NLOGS (sizeof(twin_logs) / sizeof(twin_logs[0]))

static void twin_load(struct il_replay_log *log, const char *rel)
{
	char path[512];
	struct il_err err;

	snprintf(path, sizeof(path), "%s/%s", SRCDIR, rel);
	memset(log, 0, sizeof(*log));
	if (il_replay_log_load(log, path, &err))
		fail_msg("%s: %s", path, err.msg);
	assert_true(log->nrows > 0);
}

static uint64_t twin_rng_state;

static uint64_t twin_rng(void)
{
	twin_rng_state ^= twin_rng_state << 13;
	twin_rng_state ^= twin_rng_state >> 7;
	twin_rng_state ^= twin_rng_state << 17;
	return twin_rng_state;
}

/* v - 1, v or v + 1, wrapping like the kernel's s64 (tables may hold KTIME_MAX). */
static int64_t twin_near(int64_t v)
{
	return (int64_t)((uint64_t)v + twin_rng() % 3 - 1);
}

/* A duration near the table's and the tick's edges, or anywhere. */
static int64_t twin_duration(const struct il_driver *drv, int64_t tick)
{
	const struct il_state *s = &drv->states[twin_rng() % (uint64_t)drv->state_count];

	switch (twin_rng() % 8) {
	case 0: return twin_near(s->target_residency_ns);
	case 1: return twin_near(s->exit_latency_ns);
	case 2: return twin_near(tick * (int64_t)(1 + twin_rng() % 3));
	case 3: return (int64_t)(twin_rng() % 20000);                /* short */
	case 4: return (int64_t)(twin_rng() % 200000000);            /* up to 200 ms */
	case 5: return twin_rng() % 4 ? twin_near(IL_RESIDENCY_THRESHOLD_NS) : IL_KTIME_MAX;
	case 6: return (int64_t)(twin_rng() % 4000000);
	default: return (int64_t)(twin_rng() >> (twin_rng() % 64));  /* any magnitude */
	}
}

/* A random idle period for log's table: what select sees and what happened. */
static struct il_replay_row twin_row(const struct il_replay_log *log, int64_t tick)
{
	const struct il_driver *drv = &log->drv;
	struct il_replay_row r = { 0 };

	r.cpu = (uint16_t)(twin_rng() % (uint64_t)log->ncpus);
	r.sleep_length_ns = twin_rng() % 50 ? twin_duration(drv, tick) : -(int64_t)(twin_rng() % 1000);
	r.tick_stopped = twin_rng() % 3 == 0;
	r.delta_tick_ns = r.tick_stopped || twin_rng() % 2 ? r.sleep_length_ns
							    : (int64_t)(twin_rng() % (uint64_t)tick);
	if (r.delta_tick_ns > r.sleep_length_ns)
		r.delta_tick_ns = r.sleep_length_ns;
	switch (twin_rng() % 6) {
	case 0: r.latency_req_ns = 0; break;
	case 1: r.latency_req_ns = twin_duration(drv, tick); break;
	default: r.latency_req_ns = 2000000000000LL; break;
	}
	r.nr_iowait = twin_rng() % 4 ? 0 : (uint32_t)(twin_rng() % 3);
	r.cpu_utilized = twin_rng() % 2;
	if (twin_rng() % 20 == 0) {
		r.residency_ns = IL_REPLAY_REJECTED;
	} else if (twin_rng() % 2 && r.sleep_length_ns > 0) {
		/* woken by the timer, a little late */
		r.residency_ns = (int64_t)((uint64_t)r.sleep_length_ns + twin_rng() % 5000);
	} else {
		r.residency_ns = twin_duration(drv, tick);
		if (r.residency_ns < 0)
			r.residency_ns = 0;
	}
	if (r.residency_ns < 0 && r.residency_ns != IL_REPLAY_REJECTED)
		r.residency_ns = IL_KTIME_MAX;  /* a wrapped sum above */
	r.got_tick = twin_rng() % 4 == 0;
	r.poll_time_limit = twin_rng() % 3 == 0;
	return r;
}

/*
 * Decide every row of log, then nrandom random rows on its table, with
 * fast and ref (each needs log->ncpus CPUs); fail at the first decision
 * that differs. Returns the number of decisions compared.
 */
static size_t twin_run(struct il_gov *fast, struct il_gov *ref, const struct il_replay_log *log,
		       size_t nrandom, uint64_t seed, const char *what)
{
	struct il_replay_engine ef, er;
	struct il_err err;
	size_t n = 0;

	if (il_replay_engine_init(&ef, log, fast, &err) ||
	    il_replay_engine_init(&er, log, ref, &err))
		fail_msg("%s on %s: %s", what, log->file, err.msg);
	twin_rng_state = seed | 1;
	for (size_t i = 0; i < log->nrows + nrandom; i++) {
		struct il_replay_row r = i < log->nrows ? log->rows[i] : twin_row(log, ef.tick_nsec);
		struct il_replay_decision a = il_replay_step(&ef, &r);
		struct il_replay_decision b = il_replay_step(&er, &r);

		if (a.selected != b.selected || a.stop_tick != b.stop_tick)
			fail_msg("%s on %s, %s row %zu: fast %d/%d, kernel-shaped %d/%d", what,
				 log->file, i < log->nrows ? "log" : "random", i, a.selected,
				 a.stop_tick, b.selected, b.stop_tick);
		n++;
	}
	il_replay_engine_free(&ef);
	il_replay_engine_free(&er);
	return n;
}

#endif
