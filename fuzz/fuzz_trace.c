// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: ftrace text (idlelab trace report).
 *
 * Reads the input in one piece and again in chunks whose sizes come from
 * the input itself, with and without a three-state table for the rule:
 * the two reads must agree on success or on the refusal and its line, and
 * on every counter, or the fuzzer traps. The per-period reconstruction
 * (trace check, whatif) reads it too: its periods must be consistent and
 * a governor run over them must not crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/governor.h"
#include "idlelab/trace.h"
#include "idlelab/trace_periods.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static int read_trace(struct il_trace *t, const uint8_t *data, size_t size, size_t chunk,
		      const struct il_trace_table *tab, struct il_err *err)
{
	int r = 0;

	il_trace_init(t, "fuzz.trace", tab);
	for (size_t off = 0; off < size && !r; off += chunk)
		r = il_trace_feed(t, (const char *)data + off, size - off < chunk ? size - off : chunk,
				  err);
	return r ? r : il_trace_finish(t, err);
}

static void same(const struct il_trace *a, const struct il_trace *b)
{
	CHECK(a->ncpus == b->ncpus && a->events == b->events && a->lines == b->lines);
	CHECK(a->nwarn == b->nwarn && a->miss_events == b->miss_events);
	for (int i = 0; i < a->ncpus; i++) {
		const struct il_trace_cpu *x = a->cpus[i], *y = b->cpus[i];
		CHECK(!x == !y);
		if (!x)
			continue;
		CHECK(!memcmp(x->st, y->st, sizeof(x->st)));
		CHECK(x->partial_start == y->partial_start && x->dropped == y->dropped);
		CHECK(x->nsrc == y->nsrc);
		for (int k = 0; k <= IL_TRACE_SRC_MAX; k++)
			CHECK(x->src[k].count == y->src[k].count &&
			      x->src[k].lat_sum_ns == y->src[k].lat_sum_ns &&
			      !strcmp(x->src[k].name, y->src[k].name));
		for (int s = 0; s < IL_STATE_MAX; s++)
			CHECK(x->st[s].usage == 0 || x->st[s].min_ns <= x->st[s].max_ns);
	}
}

static void periods(const uint8_t *data, size_t size, const struct il_driver *drv)
{
	struct il_trace_periods ps;
	struct il_trace_run run;
	struct il_err err;
	struct il_gov *gov;

	if (il_trace_periods_parse(&ps, (const char *)data, size, "fuzz.trace", &err)) {
		CHECK(err.line >= 1);
		return;
	}
	for (size_t i = 0; i < ps.n; i++)
		CHECK(ps.p[i].cpu < ps.ncpus && ps.p[i].state >= 0 && ps.p[i].state < IL_STATE_MAX &&
		      ps.p[i].residency_ns >= 0 && ps.p[i].sleep_length_ns >= 0 &&
		      ps.p[i].delta_tick_ns >= 0);
	if (ps.n && ps.maxstate < drv->state_count && (gov = il_gov_new("menu", ps.ncpus, &err))) {
		if (!il_trace_run_init(&run, drv, 0, gov, false, 250, ps.ncpus, &err)) {
			for (size_t i = 0; i < ps.n; i++) {
				bool st;
				int k = il_trace_run_step(&run, &ps.p[i], IL_TRACE_NO_QOS_NS, &st);
				CHECK(k >= 0 && k < drv->state_count);
			}
			il_trace_run_free(&run);
		}
		il_gov_free(gov);
	}
	il_trace_periods_free(&ps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct il_trace a, b;   /* large: not on the stack */
	static struct il_trace_table tab;
	struct il_err ea, eb;
	size_t chunk = size ? (size_t)data[0] % 97 + 1 : 1;

	if (!tab.drv.state_count) {
		static const unsigned lat[] = { 0, 2, 10 }, res[] = { 0, 2, 50 };
		tab.drv.state_count = 3;
		for (int i = 0; i < 3; i++) {
			tab.drv.states[i].exit_latency = lat[i];
			tab.drv.states[i].target_residency = res[i];
		}
		il_driver_init(&tab.drv);
		tab.disabled = 2;
	}
	for (int with_table = 0; with_table < 2; with_table++) {
		const struct il_trace_table *tp = with_table ? &tab : NULL;
		int ra = read_trace(&a, data, size, size ? size : 1, tp, &ea);
		int rb = read_trace(&b, data, size, chunk, tp, &eb);

		CHECK((ra == 0) == (rb == 0));
		if (ra)
			CHECK(ea.line == eb.line && !strcmp(ea.msg, eb.msg));
		else
			same(&a, &b);
		il_trace_free(&a);
		il_trace_free(&b);
	}
	periods(data, size, &tab.drv);
	return 0;
}
