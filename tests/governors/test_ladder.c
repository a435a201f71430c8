// SPDX-License-Identifier: GPL-2.0-only
/*
 * ladder governor: every rule with hand-derived expectations.
 *
 * Table P (polling state 0, so first_idx = 1):
 *   0 POLL  el 0        1 C1 el 2 000   2 C2 el 10 000   3 C3 el 100 000 (ns)
 * enable gives thresholds promotion_time/demotion_time:
 *   1: 2 000 / 0 (i == first_idx)   2: 10 000 / 10 000   3: 0 (last) / 100 000
 *   0: never written, stays 0 (and promotion_count threshold 0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/governor.h"

#define BIG_LAT_NS (2000000000LL * 1000) /* no QoS constraint */

struct fx {
	struct il_driver drv;
	struct il_device dev;
	struct il_gov *gov;
	struct il_idle_inputs in;
};

static void add_state(struct il_driver *drv, const char *name, unsigned flags, int64_t el,
		      int64_t tr)
{
	struct il_state *s = &drv->states[drv->state_count++];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->flags = flags;
	s->exit_latency_ns = el;
	s->target_residency_ns = tr;
	s->power_usage = -1;
}

static void table_p(struct il_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	add_state(drv, "POLL", IL_FLAG_POLLING, 0, 0);
	add_state(drv, "C1", 0, 2000, 2000);
	add_state(drv, "C2", 0, 10000, 20000);
	add_state(drv, "C3", 0, 100000, 300000);
}

/* Table N: no polling state, so first_idx = 0. */
static void table_n(struct il_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	add_state(drv, "C1", 0, 1000, 1000);
	add_state(drv, "C2", 0, 5000, 10000);
	add_state(drv, "C3", 0, 50000, 100000);
}

static void fx_start(struct fx *f, const char *spec, void (*table)(struct il_driver *))
{
	struct il_err err;

	memset(f, 0, sizeof(*f));
	table(&f->drv);
	il_device_init(&f->dev, &f->drv, 0);
	f->gov = il_gov_new(spec, 1, &err);
	if (!f->gov)
		fail_msg("il_gov_new(%s): %s", spec, err.msg);
	f->in.latency_req_ns = BIG_LAT_NS;
	f->in.tick_nsec = 1000000;
	f->in.true_idle_ns = -1;
	il_gov_enable(f->gov, 0, &f->drv, &f->dev);
}

/* One idle period: the previous period lasted residency_ns; select, then reflect. */
static int step(struct fx *f, int64_t residency_ns)
{
	bool stop = true;

	f->dev.last_residency_ns = residency_ns;
	int idx = il_gov_select(f->gov, 0, &f->drv, &f->dev, &f->in, &stop);
	assert_true(stop); /* ladder never writes stop_tick */
	il_gov_reflect(f->gov, 0, &f->drv, &f->dev, idx, &f->in);
	return idx;
}

/*
 * c1d51f684c72 (v5.5): ns. The v5.4 ladder compares int µs: C1 exits in
 * 1 µs; a residency of 2999 ns is 2 µs, less 1 µs = 1, not above the 1 µs
 * promotion threshold: 5.4 stays in C1, 5.5 (1999 ns > 1000 ns) promotes
 * to C2 on the 4th such period. A 999 ns latency limit is 0 µs in 5.4:
 * state 0 (POLL); 5.5 keeps C1.
 */
static void usec_era(void **s)
{
	(void)s;
	struct fx f;

	for (int k = 0; k < 2; k++) {
		fx_start(&f, k ? "ladder@5.5" : "ladder@5.4", table_n);
		for (int i = 0; i < 3; i++)
			assert_int_equal(step(&f, 2999), 0);
		assert_int_equal(step(&f, 2999), k ? 1 : 0);
		il_gov_free(f.gov);

		fx_start(&f, k ? "ladder@5.5" : "ladder@5.4", table_p);
		f.in.latency_req_ns = 999;
		assert_int_equal(step(&f, 50000), k ? 1 : 0);
		il_gov_free(f.gov);
	}
}

static void ops_table(void **s)
{
	(void)s;
	const struct il_gov_ops *ops = il_gov_find("ladder");

	assert_non_null(ops);
	assert_int_equal(ops->rating, 10);
	char list[64];
	il_gov_preset_list(ops, list, sizeof(list));
	assert_string_equal(list, "5.4 5.5 6.1 6.12 6.18 7.1");
	assert_non_null(ops->reflect);
	assert_null(ops->set_param);
}

static void enable_starts_at_first_idx(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	assert_int_equal(f.dev.last_state_idx, 1);
	il_gov_free(f.gov);
	fx_start(&f, "ladder", table_n);
	assert_int_equal(f.dev.last_state_idx, 0);
	il_gov_free(f.gov);
}

/* From C1: residency 5 000 - el 2 000 = 3 000 > 2 000 counts; the 4th count promotes. */
static void promotion_needs_four(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	assert_int_equal(step(&f, 5000), 1);
	assert_int_equal(step(&f, 5000), 1);
	assert_int_equal(step(&f, 5000), 1);
	assert_int_equal(step(&f, 5000), 2);
	assert_int_equal(f.dev.last_state_idx, 2);
	/* C2: 25 000 - 10 000 = 15 000 > 10 000: four more to reach C3 */
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 25000), 3);
	/* C3 is the last state: no promotion threshold, nothing deeper */
	for (int i = 0; i < 6; i++)
		assert_int_equal(step(&f, 10000000), 3);
	il_gov_free(f.gov);
}

/* Exactly at the threshold: neither > nor <, the streak is kept. */
static void equal_residency_keeps_streak(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	for (int i = 0; i < 4; i++)
		step(&f, 5000);
	assert_int_equal(f.dev.last_state_idx, 2);
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 20000), 2); /* 20 000 - 10 000 == 10 000 */
	assert_int_equal(step(&f, 25000), 3); /* 4th count */
	il_gov_free(f.gov);
}

/* C1 residency 4 000 - 2 000 = 2 000 is not > 2 000: no count. */
static void promotion_is_strict(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	for (int i = 0; i < 8; i++)
		assert_int_equal(step(&f, 4000), 1);
	assert_int_equal(step(&f, 4001), 1);
	assert_int_equal(step(&f, 4001), 1);
	assert_int_equal(step(&f, 4001), 1);
	assert_int_equal(step(&f, 4001), 2);
	il_gov_free(f.gov);
}

/* DEMOTION_COUNT 1: one short period in C2 (15 000 - 10 000 < 10 000) demotes. */
static void demotion_after_one(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	for (int i = 0; i < 4; i++)
		step(&f, 5000);
	assert_int_equal(step(&f, 15000), 1);
	assert_int_equal(f.dev.last_state_idx, 1);
	/* at first_idx there is no demotion, however short (2 000 - 2 000 = 0) */
	assert_int_equal(step(&f, 2000), 1);
	assert_int_equal(step(&f, 3000), 1);
	/* leaving C1 cleared its streak: four counts again */
	assert_int_equal(step(&f, 5000), 1);
	assert_int_equal(step(&f, 5000), 1);
	assert_int_equal(step(&f, 5000), 1);
	assert_int_equal(step(&f, 5000), 2);
	il_gov_free(f.gov);
}

/* A demotion wipes the partial promotion streak of the state it leaves. */
static void demotion_resets_streak(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	for (int i = 0; i < 4; i++)
		step(&f, 5000);                     /* now C2 */
	assert_int_equal(step(&f, 25000), 2); /* C2 count 1 */
	assert_int_equal(step(&f, 25000), 2); /* C2 count 2 */
	assert_int_equal(step(&f, 15000), 1); /* demote */
	for (int i = 0; i < 4; i++)
		step(&f, 5000);                     /* back in C2 */
	assert_int_equal(f.dev.last_state_idx, 2);
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 25000), 2); /* would be 5 if the streak survived */
	assert_int_equal(step(&f, 25000), 3);
	il_gov_free(f.gov);
}

/*
 * C2, residency 5 000 < el 10 000: last_residency = -5 000, as u64 huge:
 * it counts toward promotion and never demotes.
 */
static void negative_residency_unsigned(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	for (int i = 0; i < 4; i++)
		step(&f, 5000);
	assert_int_equal(step(&f, 5000), 2);
	assert_int_equal(step(&f, 5000), 2);
	assert_int_equal(step(&f, 5000), 2);
	assert_int_equal(step(&f, 5000), 3);
	/* C3: 0 - 100 000 < 0, huge: no demotion either */
	assert_int_equal(step(&f, 0), 3);
	il_gov_free(f.gov);

	/* even aborted entries (residency 0) climb: C1 0 - 2 000 counts */
	fx_start(&f, "ladder", table_p);
	assert_int_equal(step(&f, 0), 1);
	assert_int_equal(step(&f, 0), 1);
	assert_int_equal(step(&f, 0), 1);
	assert_int_equal(step(&f, 0), 2);
	il_gov_free(f.gov);

	/* the unmerged RFC compares signed: -5 000 < 10 000 demotes at once */
	fx_start(&f, "ladder+signed-thresholds", table_p);
	for (int i = 0; i < 4; i++)
		step(&f, 5000);
	assert_int_equal(step(&f, 5000), 1);
	/* and C1's -1 000 is not > 2 000: no count */
	for (int i = 0; i < 5; i++)
		assert_int_equal(step(&f, 1000), 1);
	il_gov_free(f.gov);
}

/* Promotion also needs el(next) <= latency_req. */
static void promotion_respects_latency(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	f.in.latency_req_ns = 9999; /* el(C2) = 10 000 */
	for (int i = 0; i < 8; i++)
		assert_int_equal(step(&f, 50000), 1);
	f.in.latency_req_ns = 10000; /* <= : allowed */
	assert_int_equal(step(&f, 50000), 1);
	assert_int_equal(step(&f, 50000), 1);
	assert_int_equal(step(&f, 50000), 1);
	assert_int_equal(step(&f, 50000), 2);
	il_gov_free(f.gov);
}

static void go_to_c3(struct fx *f)
{
	for (int i = 0; i < 4; i++)
		step(f, 5000);
	for (int i = 0; i < 4; i++)
		step(f, 25000);
	assert_int_equal(f->dev.last_state_idx, 3);
}

/*
 * Forced demotion from C3 when el(C3) > latency_req: the nearest shallower
 * state within the limit, the loop stopping at first_idx unchecked.
 */
static void forced_demotion_latency(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	go_to_c3(&f);
	f.in.latency_req_ns = 50000; /* C2 (10 000) fits */
	assert_int_equal(step(&f, 10000000), 2);
	il_gov_free(f.gov);

	fx_start(&f, "ladder", table_p);
	go_to_c3(&f);
	f.in.latency_req_ns = 5000; /* C2 too slow: loop ends at first_idx 1 */
	assert_int_equal(step(&f, 10000000), 1);
	il_gov_free(f.gov);

	fx_start(&f, "ladder", table_p);
	go_to_c3(&f);
	f.in.latency_req_ns = 1000; /* even C1 (2 000) too slow: still 1, never 0 */
	assert_int_equal(step(&f, 10000000), 1);
	/* at first_idx nothing more happens */
	assert_int_equal(step(&f, 10000000), 1);
	il_gov_free(f.gov);

	/* no polling state: the loop may end at 0 */
	fx_start(&f, "ladder", table_n);
	for (int i = 0; i < 4; i++)
		step(&f, 10000); /* 10 000 - 1 000 > 1 000 */
	for (int i = 0; i < 4; i++)
		step(&f, 20000); /* 20 000 - 5 000 > 5 000 */
	assert_int_equal(f.dev.last_state_idx, 2);
	f.in.latency_req_ns = 2000;
	assert_int_equal(step(&f, 1000000), 0);
	il_gov_free(f.gov);
}

/* Forced demotion when the current state got disabled; the target's own disable is ignored. */
static void forced_demotion_disabled(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	go_to_c3(&f);
	il_device_set_user_disable(&f.dev, 3, true);
	il_device_set_user_disable(&f.dev, 2, true);
	assert_int_equal(step(&f, 10000000), 2);
	/* in disabled C2 (promotion to disabled C3 blocked): forced again, to 1 */
	assert_int_equal(step(&f, 10000000), 1);
	il_gov_free(f.gov);
}

/*
 * Promotion is tried before forced demotion: in disabled C2 with C3
 * enabled, a long period that completes the streak still promotes; one
 * that does not is followed by the forced demotion to 1.
 */
static void promotion_before_forced_demotion(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	for (int i = 0; i < 4; i++)
		step(&f, 5000);
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 25000), 2);
	assert_int_equal(step(&f, 25000), 2);
	il_device_set_user_disable(&f.dev, 2, true);
	assert_int_equal(step(&f, 25000), 3);
	il_gov_free(f.gov);

	fx_start(&f, "ladder", table_p);
	for (int i = 0; i < 4; i++)
		step(&f, 5000);
	il_device_set_user_disable(&f.dev, 2, true);
	assert_int_equal(step(&f, 25000), 1);
	il_gov_free(f.gov);
}

/* A disabled next state is a ceiling: no promotion past it, whatever the residency. */
static void disabled_next_state_blocks(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	il_device_set_user_disable(&f.dev, 2, true);
	for (int i = 0; i < 20; i++)
		assert_int_equal(step(&f, 100000000), 1);
	/* re-enabled: the counter restarts from 0 (no counts were made) */
	il_device_set_user_disable(&f.dev, 2, false);
	assert_int_equal(step(&f, 100000000), 1);
	assert_int_equal(step(&f, 100000000), 1);
	assert_int_equal(step(&f, 100000000), 1);
	assert_int_equal(step(&f, 100000000), 2);
	il_gov_free(f.gov);
}

/*
 * latency_req 0 selects 0 and records it. From state 0, whose thresholds
 * enable never set (0 and 0), any non-zero residency promotes at once.
 */
static void latency_zero(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	go_to_c3(&f);
	f.in.latency_req_ns = 0;
	assert_int_equal(step(&f, 10000000), 0);
	assert_int_equal(f.dev.last_state_idx, 0);
	assert_int_equal(step(&f, 10000000), 0);
	f.in.latency_req_ns = BIG_LAT_NS;
	/* residency 0 from state 0: 0 > 0 false, stays at 0 */
	assert_int_equal(step(&f, 0), 0);
	/* 1 ns: 1 > 0 and count 1 >= threshold 0: up to 1 */
	assert_int_equal(step(&f, 1), 1);
	/* C1's own streak starts from 0: one count does not promote */
	assert_int_equal(step(&f, 5000), 1);
	il_gov_free(f.gov);
}

/* reflect(0) is not recorded; reflect(k > 0) is. */
static void reflect_rules(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "ladder", table_p);
	il_gov_reflect(f.gov, 0, &f.drv, &f.dev, 0, &f.in);
	assert_int_equal(f.dev.last_state_idx, 1);
	il_gov_reflect(f.gov, 0, &f.drv, &f.dev, 3, &f.in);
	assert_int_equal(f.dev.last_state_idx, 3);
	il_gov_reflect(f.gov, 0, &f.drv, &f.dev, -16, &f.in); /* core skips negative */
	assert_int_equal(f.dev.last_state_idx, 3);
	/* the driver entered a different state: ladder continues from there */
	f.dev.last_residency_ns = 15000;
	il_gov_reflect(f.gov, 0, &f.drv, &f.dev, 2, &f.in);
	bool stop = false;
	f.dev.last_residency_ns = 15000; /* 5 000 < 10 000: demote from 2 */
	assert_int_equal(il_gov_select(f.gov, 0, &f.drv, &f.dev, &f.in, &stop), 1);
	assert_false(stop); /* untouched when false too */
	il_gov_free(f.gov);
}

static void one_poll_state(struct il_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	add_state(drv, "POLL", IL_FLAG_POLLING, 0, 0);
}

static void one_c1_state(struct il_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	add_state(drv, "C1", 0, 1000, 1000);
}

/*
 * A driver with only a polling state. The v1 ladder fix never merged (the
 * core skips governors for such drivers since v7.0), so every preset
 * answers index 1 like the kernel's ladder; +single-state-fix answers 0.
 */
static void single_state_per_preset(void **s)
{
	(void)s;
	static const char *const presets[] = { "ladder@6.1", "ladder@6.12", "ladder@6.18",
					       "ladder@7.1", "ladder" };
	struct fx f;

	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		fx_start(&f, presets[i], one_poll_state);
		assert_int_equal(f.dev.last_state_idx, 1);
		assert_int_equal(step(&f, 5000), 1);
		assert_int_equal(step(&f, 5000), 1);
		f.in.latency_req_ns = 0;
		assert_int_equal(step(&f, 5000), 0);
		il_gov_free(f.gov);

		char spec[64];
		snprintf(spec, sizeof(spec), "%s+single-state-fix", presets[i]);
		fx_start(&f, spec, one_poll_state);
		assert_int_equal(f.dev.last_state_idx, 0);
		assert_int_equal(step(&f, 5000), 0);
		assert_int_equal(step(&f, 0), 0);
		il_gov_free(f.gov);
	}
	/* a lone non-polling state: 0 with or without the fix */
	fx_start(&f, "ladder", one_c1_state);
	assert_int_equal(f.dev.last_state_idx, 0);
	assert_int_equal(step(&f, 50000), 0);
	il_gov_free(f.gov);
	fx_start(&f, "ladder+single-state-fix", one_c1_state);
	assert_int_equal(step(&f, 50000), 0);
	il_gov_free(f.gov);
	/* with two states the fix changes nothing: first_idx stays 1 */
	fx_start(&f, "ladder+single-state-fix", table_p);
	assert_int_equal(f.dev.last_state_idx, 1);
	assert_int_equal(step(&f, 5000), 1);
	il_gov_free(f.gov);
}

/* Two CPUs keep separate streaks. */
static void per_cpu_data(void **s)
{
	(void)s;
	struct il_driver drv;
	struct il_device d0, d1;
	struct il_err err;
	struct il_idle_inputs in = { .latency_req_ns = BIG_LAT_NS };
	bool stop = true;

	table_p(&drv);
	il_device_init(&d0, &drv, 0);
	il_device_init(&d1, &drv, 1);
	struct il_gov *g = il_gov_new("ladder@6.1", 2, &err);
	assert_non_null(g);
	il_gov_enable(g, 0, &drv, &d0);
	il_gov_enable(g, 1, &drv, &d1);
	d0.last_residency_ns = d1.last_residency_ns = 5000;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(il_gov_select(g, 0, &drv, &d0, &in, &stop), 1);
		assert_int_equal(il_gov_select(g, 1, &drv, &d1, &in, &stop), 1);
	}
	assert_int_equal(il_gov_select(g, 0, &drv, &d0, &in, &stop), 2);
	d1.last_residency_ns = 2000; /* 2 000 - 2 000 = 0: no count on CPU 1 */
	assert_int_equal(il_gov_select(g, 1, &drv, &d1, &in, &stop), 1);
	d1.last_residency_ns = 5000;
	assert_int_equal(il_gov_select(g, 1, &drv, &d1, &in, &stop), 2);
	il_gov_free(g);
}

static void configure_errors(void **s)
{
	(void)s;
	struct il_err err;

	il_err_clear(&err);
	assert_null(il_gov_new("ladder+no-such-patch", 1, &err));
	assert_non_null(strstr(err.msg, "no-such-patch"));
	assert_null(il_gov_new("ladder+single-state-fix=1", 1, &err));
	assert_non_null(strstr(err.msg, "takes no value"));
	assert_null(il_gov_new("ladder@6.6", 1, &err));

	struct il_gov *g = il_gov_new("ladder@6.18+single-state-fix", 1, &err);
	char buf[160];
	il_gov_describe(g, buf, sizeof(buf));
	assert_string_equal(buf, "ladder@6.18 (release blob 6617eb494a11) "
			    "+single-state-fix (unmerged v1)");
	assert_int_equal(il_gov_set_param(g, "x", "1", &err), -ENOENT);
	il_gov_free(g);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(ops_table),
		cmocka_unit_test(usec_era),
		cmocka_unit_test(enable_starts_at_first_idx),
		cmocka_unit_test(promotion_needs_four),
		cmocka_unit_test(equal_residency_keeps_streak),
		cmocka_unit_test(promotion_is_strict),
		cmocka_unit_test(demotion_after_one),
		cmocka_unit_test(demotion_resets_streak),
		cmocka_unit_test(negative_residency_unsigned),
		cmocka_unit_test(promotion_respects_latency),
		cmocka_unit_test(forced_demotion_latency),
		cmocka_unit_test(forced_demotion_disabled),
		cmocka_unit_test(promotion_before_forced_demotion),
		cmocka_unit_test(disabled_next_state_blocks),
		cmocka_unit_test(latency_zero),
		cmocka_unit_test(reflect_rules),
		cmocka_unit_test(single_state_per_preset),
		cmocka_unit_test(per_cpu_data),
		cmocka_unit_test(configure_errors),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
