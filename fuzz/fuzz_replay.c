// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: replay logs and decisions files.
 *
 * Parses the input as a replay log and, when it parses and has few CPUs,
 * replays it through the engine with a governor defined here whose choice
 * depends on the row (so every state and the core's accounting see extreme
 * values); then parses the same input as a decisions file and, if both
 * parsed, compares them. Real governors have their own tests.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct il_replay_log log;
	struct il_replay_expect ex;
	struct il_replay_decision *d = NULL;
	struct il_err err;
	int log_ok = il_replay_log_parse(&log, (const char *)data, size, "fuzz.log", &err) == 0;

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
	if (il_replay_expect_parse(&ex, (const char *)data, size, "fuzz.csv", &err) == 0) {
		struct il_replay_agreement ag;
		if (d)
			(void)il_replay_compare(&log, d, &ex, &ag, &err);
		il_replay_expect_free(&ex);
	}
	free(d);
	il_replay_log_free(&log);
	return 0;
}
