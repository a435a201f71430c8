// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: replay logs and decisions files.
 *
 * Parses the input as a replay log and, when it parses and has few CPUs,
 * replays it through the engine with a governor defined here whose choice
 * depends on the row (so every state and the core's accounting see extreme
 * values); then parses the same input as a decisions file and, if both
 * parsed, compares them. Real governors have their own tests.
 *
 * Each is also read the streaming way (il_replay_log_open/next,
 * il_replay_expect_open, il_replay_check_*), over two passes, and must give
 * the same rows, the same refusal at the same line and the same agreement
 * as the in-memory readers: the fuzzer traps on any difference.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "idlelab/replay.h"

#define FUZZ_CPU_MAX 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int f_select(const void *c, void *d, const struct il_driver *drv, struct il_device *dev,
		    const struct il_idle_inputs *in, bool *stop_tick)
{
	(void)c; (void)d; (void)dev;
	*stop_tick = !in->tick_stopped;
	return (int)((uint64_t)in->sleep_length_ns % (uint64_t)drv->state_count);
}

static void f_reflect(const void *c, void *d, const struct il_driver *drv, struct il_device *dev,
		      int index, const struct il_idle_inputs *in)
{
	(void)c; (void)d; (void)drv; (void)in;
	dev->last_state_idx = index;
}

static int f_param(void *config, const char *name, const char *value, struct il_err *err)
{
	(void)config; (void)value;
	if (strcmp(name, "knob"))
		return il_err_set(err, 2, "no parameter '%s'", name);
	return 0;
}

static const struct il_gov_ops fuzz_ops = {
	.name = "fuzz", .config_size = 1, .cpu_data_size = 1,
	.set_param = f_param, .select = f_select, .reflect = f_reflect,
};

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static bool same_err(const struct il_err *a, const struct il_err *b)
{
	return a->line == b->line && !strcmp(a->msg, b->msg) && !strcmp(a->file, b->file);
}

static bool same_row(const struct il_replay_row *a, const struct il_replay_row *b)
{
	return a->cpu == b->cpu && a->sleep_length_ns == b->sleep_length_ns &&
	       a->delta_tick_ns == b->delta_tick_ns && a->latency_req_ns == b->latency_req_ns &&
	       a->residency_ns == b->residency_ns && a->nr_iowait == b->nr_iowait &&
	       a->tick_stopped == b->tick_stopped && a->cpu_utilized == b->cpu_utilized &&
	       a->got_tick == b->got_tick && a->poll_time_limit == b->poll_time_limit;
}

/* The streaming log reader against the in-memory one (log, or ok == false with perr). */
static void stream_log(const uint8_t *data, size_t size, bool ok, const struct il_replay_log *log,
		       const struct il_err *perr)
{
	struct il_replay_reader rd;
	struct il_replay_log sl;
	struct il_replay_row row;
	struct il_err err;
	int line, r;

	il_replay_reader_mem(&rd, (const char *)data, size, "fuzz.log");
	r = il_replay_log_open(&sl, &rd, &err);
	CHECK((r == 0) == ok);
	if (!ok) {
		CHECK(same_err(&err, perr));
	} else {
		CHECK(sl.nrows == log->nrows && sl.ncpus == log->ncpus);
		CHECK(!memcmp(sl.cpu_seen, log->cpu_seen, sizeof(sl.cpu_seen)));
		for (int pass = 0; pass < 2; pass++) {
			size_t i = 0;
			while ((r = il_replay_log_next(&sl, &rd, &row, &line, &err)) > 0) {
				CHECK(i < log->nrows && same_row(&row, &log->rows[i]) &&
				      line == log->row_line[i]);
				i++;
			}
			CHECK(r == 0 && i == log->nrows);
			CHECK(il_replay_log_rewind(&sl, &rd, &err) == 0);
		}
	}
	il_replay_reader_close(&rd);
	il_replay_log_free(&sl);
}

/* The streaming decisions reader and check against il_replay_compare(). */
static void stream_expect(const uint8_t *data, size_t size, bool ok,
			  const struct il_replay_expect *ex, const struct il_err *perr,
			  const struct il_replay_log *log, const struct il_replay_decision *d)
{
	struct il_replay_reader rd;
	struct il_replay_expect_stream es;
	struct il_replay_check ck;
	struct il_replay_agreement ag;
	struct il_err err, cerr;
	int r;

	il_replay_reader_mem(&rd, (const char *)data, size, "fuzz.csv");
	r = il_replay_expect_open(&es, &rd, &err);
	CHECK((r == 0) == ok);
	if (!ok) {
		CHECK(same_err(&err, perr));
	} else if (es.n != ex->n) {
		CHECK(0);
	} else if (d) {
		il_err_clear(&err);
		il_err_clear(&cerr);
		int r1 = il_replay_compare(log, d, ex, &ag, &err);
		int r2 = il_replay_check_begin(&ck, &es, &cerr);
		for (size_t i = 0; i < log->nrows && !r2; i++)
			r2 = il_replay_check_row(&ck, i, log->rows[i].cpu, d[i], &cerr);
		if (!r2)
			r2 = il_replay_check_end(&ck, log->nrows, &cerr);
		CHECK((r1 < 0) == (r2 < 0));
		if (r1 < 0)
			CHECK(err.line == cerr.line && !strcmp(err.msg, cerr.msg));
		else
			CHECK(!memcmp(&ag, &ck.ag, sizeof(ag)));
	}
	il_replay_reader_close(&rd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct il_replay_log log;
	struct il_replay_expect ex;
	struct il_replay_decision *d = NULL;
	struct il_err err;
	int log_ok = il_replay_log_parse(&log, (const char *)data, size, "fuzz.log", &err) == 0;

	stream_log(data, size, log_ok, &log, &err);
	if (log_ok && log.ncpus <= FUZZ_CPU_MAX) {
		unsigned char cfg[1], cpu_data[FUZZ_CPU_MAX];
		struct il_gov gov = { .ops = &fuzz_ops, .config = cfg, .cpu_data = cpu_data,
				      .ncpus = FUZZ_CPU_MAX };
		struct il_replay_engine eng;

		if (il_replay_engine_init(&eng, &log, &gov, &err) == 0) {
			d = calloc(log.nrows + 1, sizeof(*d));
			for (size_t i = 0; d && i < log.nrows; i++)
				d[i] = il_replay_step(&eng, &log.rows[i]);
			il_replay_engine_free(&eng);
		}
	}
	int ex_ok = il_replay_expect_parse(&ex, (const char *)data, size, "fuzz.csv", &err) == 0;
	stream_expect(data, size, ex_ok, &ex, &err, &log, d);
	if (ex_ok)
		il_replay_expect_free(&ex);
	free(d);
	il_replay_log_free(&log);
	return 0;
}
