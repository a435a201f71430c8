// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TEO governor, rule by rule and preset by preset, with hand-derived
 * expectations. White-box: the governor's file is included so the per-CPU
 * metrics can be set and read directly (its ops table is renamed so the
 * library's copy still links for the registry test).
 *
 * Table used unless said otherwise (ns):
 *   state   0 POLL   1 C1    2 C1E    3 C3      4 C6
 *   tr      0        2000    20000    200000    800000
 *   el      0        2000    10000    80000     200000
 * TICK_NSEC = 4 000 000 (HZ=250), so SAFE_TIMER_RANGE_NS = 8 000 000.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#define il_gov_teo il_gov_teo_under_test
#include "../../src/governors/teo.c"
#undef il_gov_teo

#include "idlelab/device.h"
#include "idlelab/governor.h"
#include "idlelab/state.h"
#include "twin.h"

#define TICK 4000000
#define NO_QOS (2000000000LL * 1000)
#define P TEO_PULSE

static const int64_t tab_tr[] = { 0, 2000, 20000, 200000, 800000 };
static const int64_t tab_el[] = { 0, 2000, 10000, 80000, 200000 };

struct fx {
	struct il_driver drv;
	struct il_device dev;
	struct teo_config cfg;
	struct teo_cpu cpu;
	struct il_idle_inputs in;
	bool stop;
};

static struct fx F;

static void table(struct il_driver *drv, int n, const int64_t *tr, const int64_t *el,
		  bool poll0)
{
	memset(drv, 0, sizeof(*drv));
	for (int i = 0; i < n; i++) {
		snprintf(drv->states[i].name, IL_NAME_LEN, "S%d", i);
		drv->states[i].target_residency_ns = tr[i];
		drv->states[i].exit_latency_ns = el[i];
	}
	if (poll0)
		drv->states[0].flags = IL_FLAG_POLLING;
	drv->state_count = n;
	il_driver_init(drv);
}

/* Fresh governor for release rel on the standard table, metrics zero. */
static void fx(const char *rel)
{
	memset(&F, 0, sizeof(F));
	table(&F.drv, 5, tab_tr, tab_el, true);
	il_device_init(&F.dev, &F.drv, 0);
	assert_int_equal(teo_configure(&F.cfg, il_gov_preset_find(&il_gov_teo_under_test, rel),
				       NULL, 0, NULL), 0);
	teo_enable(&F.cfg, &F.cpu, &F.drv, &F.dev);
	F.dev.last_state_idx = -1;      /* no update unless a test asks */
	F.in.latency_req_ns = NO_QOS;
	F.in.tick_nsec = TICK;
	F.in.sleep_length_ns = 10000000;
	F.in.delta_tick_ns = TICK;
}

static void set_bin(int i, uint32_t hits, uint32_t intercepts)
{
	F.cpu.bins[i] = intercepts | (uint64_t)hits << TEO_HIT_SHIFT;
}

static uint32_t hits(int i)
{
	return hi32(F.cpu.bins[i]);
}

static uint32_t icpt(int i)
{
	return lo32(F.cpu.bins[i]);
}

static int sel(void)
{
	F.stop = true;
	return il_gov_teo_under_test.select(&F.cfg, &F.cpu, &F.drv, &F.dev, &F.in, &F.stop);
}

static void refl(int idx)
{
	il_gov_teo_under_test.reflect(&F.cfg, &F.cpu, &F.drv, &F.dev, idx, &F.in);
}

/*
 * Run one teo_update of the configured era: the previous idle period was
 * in state last for residency_ns, with the sleep length cpu->sleep_length_ns
 * as the last select left it.
 */
static void update_after(int last, int64_t residency_ns)
{
	struct teo_scan s = { .idx = F.drv.state_count - 1 };

	F.dev.last_state_idx = last;
	F.dev.last_residency_ns = residency_ns;
	switch (F.cfg.era) {
	case TEO_5_4:
		update_54(&F.cpu, &F.drv, &F.dev);
		break;
	case TEO_5_5:
		update_55(&F.cpu, &F.drv, &F.dev, F.cfg.features & TF_SHORT513);
		break;
	case TEO_6_1:
		update_61(&F.cpu, &F.drv, &F.dev);
		break;
	case TEO_6_6:
	case TEO_6_12:
		update_612(&F.cpu, &F.drv, &F.dev, TICK, &s, F.cfg.era == TEO_6_6);
		break;
	case TEO_6_18:
		update_618(&F.cpu, &F.drv, &F.dev, TICK, &s);
		break;
	case TEO_7_1:
		update_71(&F.cpu, &F.drv, &F.dev, TICK, &s, F.cfg.features);
		break;
	}
	F.dev.last_state_idx = -1;
}

static uint32_t all_metrics(void)
{
	uint32_t sum = 0;

	for (int i = 0; i < IL_STATE_MAX; i++)
		sum += hits(i) + icpt(i);
	return sum;
}

/* ----------------------------------------------------------- ops ----- */

static void ops_table(void **unused)
{
	(void)unused;
	assert_string_equal(il_gov_teo_under_test.name, "teo");
	assert_int_equal(il_gov_teo_under_test.rating, 19);
	char list[64];
	il_gov_preset_list(&il_gov_teo_under_test, list, sizeof(list));
	assert_string_equal(list, "5.4 5.5 5.13 5.14 6.1 6.3 6.6 6.11 6.12 6.14 6.18 6.19 7.0 7.1");
	assert_true(il_gov_teo_under_test.cpu_data_size == sizeof(struct teo_cpu));
	assert_non_null(il_gov_teo_under_test.enable);
	assert_non_null(il_gov_teo_under_test.reflect);
	assert_null(il_gov_teo_under_test.describe_extra);  /* no patches, no parameters */
}

static void configure_errors(void **unused)
{
	struct teo_config cfg;
	struct il_gov_patch p = { "no-such-patch", "" };
	struct il_err err;

	(void)unused;
	assert_null(il_gov_preset_find(&il_gov_teo_under_test, "6.13"));
	il_err_clear(&err);
	assert_int_equal(teo_configure(&cfg, il_gov_preset_find(&il_gov_teo_under_test, "7.1"),
				       &p, 1, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no-such-patch"));
	/* each preset runs its era's bodies */
	static const struct { const char *rel; enum teo_era era; } era[] = {
		{ "5.4", TEO_5_4 }, { "5.5", TEO_5_5 }, { "5.13", TEO_5_5 }, { "5.14", TEO_6_1 },
		{ "6.1", TEO_6_1 }, { "6.3", TEO_6_1 }, { "6.6", TEO_6_6 }, { "6.11", TEO_6_12 },
		{ "6.12", TEO_6_12 }, { "6.14", TEO_6_18 }, { "6.18", TEO_6_18 },
		{ "6.19", TEO_7_1 }, { "7.0", TEO_7_1 }, { "7.1", TEO_7_1 },
	};
	_Static_assert(sizeof(era) / sizeof(era[0]) ==
		       sizeof(teo_presets) / sizeof(teo_presets[0]),
		       "an era for every teo preset");
	for (size_t i = 0; i < sizeof(era) / sizeof(era[0]); i++) {
		const struct il_gov_preset *pr = il_gov_preset_find(&il_gov_teo_under_test, era[i].rel);

		assert_non_null(pr);
		assert_int_equal(teo_configure(&cfg, pr, NULL, 0, &err), 0);
		assert_int_equal(cfg.era, era[i].era);
	}
}

/* each later preset contains the earlier entries (util-awareness reverted in 6.11) */
_Static_assert((TF_V5_5 & ~TF_V5_13) == 0 && (TF_V5_13 & ~TF_V5_14) == 0 &&
	       (TF_V5_14 & ~TF_V6_3) == 0 && (TF_V6_3 & ~TF_V6_6) == 0 &&
	       ((TF_V6_6 & ~TF_UTIL) & ~TF_V6_11) == 0 && (TF_V6_11 & TF_UTIL) == 0 &&
	       (TF_V6_11 & ~TF_V6_14) == 0 && (TF_V6_14 & ~TF_V6_19) == 0 &&
	       (TF_V6_19 & ~TF_V7_0) == 0 && (TF_V7_0 & ~TF_V7_1) == 0,
	       "teo presets are history sets");
/* a971f984b845 and the rest of the v7.0 pull are 7.0, 106a2662e655 is 7.1 */
_Static_assert((TF_V7_0 & ~TF_V6_19) == (TF_FAKE_TICK | TF_HIT_LAT | TF_TICK_2_3 |
					  TF_INTERCEPT_MAX | TF_ZERO_BINS) &&
	       (TF_V7_1 & ~TF_V7_0) == TF_STOPPED_SAFE, "teo 7.0 and 7.1");
_Static_assert(((TF_V6_12 | TF_V6_18 | TF_V7_1) & TF_REFERENCE) == 0,
	       "the reference switch is no kernel change");

static void describe_names_commits(void **unused)
{
	char buf[160];
	static const char *const want[][2] = {
		{ "teo@6.1 (", "c2ec772b8740" }, { "teo@6.12 (", "4b20b07ce72f" },
		{ "teo@6.18 (", "a7bee4e7f780" }, { "teo@7.1 (", "106a2662e655" },
	};

	(void)unused;
	static const char *const rel[] = { "6.1", "6.12", "6.18", "7.1" };
	for (int i = 0; i < 4; i++) {
		struct il_gov g = { .ops = &il_gov_teo_under_test,
				    .preset = il_gov_preset_find(&il_gov_teo_under_test, rel[i]),
				    .config = &F.cfg };

		il_gov_describe(&g, buf, sizeof(buf));
		assert_non_null(strstr(buf, want[i][0]));
		assert_non_null(strstr(buf, want[i][1]));
	}
}

/* Through the registry: default preset, named preset, unknown patch. */
static void registry_specs(void **unused)
{
	struct il_err err;
	struct il_gov *g;

	(void)unused;
	g = il_gov_new("teo", 2, &err);
	assert_non_null(g);
	assert_string_equal(g->spec, "teo@7.1");
	il_gov_free(g);
	g = il_gov_new("teo@6.1", 1, &err);
	assert_non_null(g);
	il_gov_free(g);
	assert_null(il_gov_new("teo@7.1+bogus", 1, &err));
	assert_null(il_gov_new("teo@6.7", 1, &err));
}

static void enable_resets(void **unused)
{
	(void)unused;
	fx("6.1");
	set_bin(2, 5, 6);
	F.cpu.total = 77;
	F.cpu.recent_idx[3] = 2;
	teo_enable(&F.cfg, &F.cpu, &F.drv, &F.dev);
	assert_int_equal(all_metrics(), 0);
	assert_int_equal(F.cpu.total, 0);
	for (int i = 0; i < TEO_NR_RECENT; i++)
		assert_int_equal(F.cpu.recent_idx[i], -1);
}

/* --------------------------------------------------------- decay ----- */

static void decay_floor_rule(void **unused)
{
	static const uint32_t in[] = { 0, 1, 7, 8, 9, 15, 16, 1000 };
	static const uint32_t floor_out[] = { 0, 0, 0, 7, 8, 14, 14, 875 };
	static const uint32_t old_out[] = { 0, 1, 7, 7, 8, 14, 14, 875 };

	(void)unused;
	for (unsigned i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		uint32_t a = in[i], b = in[i];

		decay_floor(&a);
		decay_old(&b);
		assert_int_equal(a, floor_out[i]);
		assert_int_equal(b, old_out[i]);
	}
}

/* Both metrics of a bin decay independently; bins from n up are untouched. */
static void decay_bins_pairs(void **unused)
{
	struct teo_sums s;

	(void)unused;
	fx("7.1");
	set_bin(0, 9, 7);
	set_bin(1, 8, 100);
	set_bin(2, 4000, 4000);
	assert_int_equal(decay_bins(&F.cpu, 2, true, 2, &s), 8 + 0 + 7 + 88);
	assert_int_equal(hits(0), 8);
	assert_int_equal(icpt(0), 0);
	assert_int_equal(hits(1), 7);
	assert_int_equal(icpt(1), 88);
	assert_int_equal(s.hits, 15);
	assert_int_equal(s.intercepts, 88);
	assert_int_equal(hits(2), 4000);

	set_bin(0, 9, 7);
	set_bin(1, 8, 100);
	assert_int_equal(decay_bins(&F.cpu, 2, false, 1, &s), 8 + 7 + 7 + 88);
	assert_int_equal(icpt(0), 7);
	assert_int_equal(s.hits, 8);
	assert_int_equal(s.intercepts, 7);

	/* odd n: the third bin decays, the fourth stays 0 */
	set_bin(0, 0, 0);
	set_bin(1, 0, 0);
	set_bin(2, 16, 1000);
	assert_int_equal(decay_bins(&F.cpu, 3, true, 0, &s), 14 + 875);
	assert_int_equal(s.hits + s.intercepts, 0);
	assert_int_equal(F.cpu.bins[3], 0);
}

/* 7.1 decays to zero: a bin holding 7 loses it; 6.18 keeps it. */
static void update_decays_all_bins(void **unused)
{
	(void)unused;
	fx("7.1");
	set_bin(1, 7, 7);
	set_bin(3, 80, 16);
	F.cpu.short_idles = 7;
	F.cpu.sleep_length_ns = 1000000;
	/* m = 900000, bin 4 like the timer, but 100000 early = lat/2: intercept */
	update_after(4, 1000000);
	assert_int_equal(hits(1), 0);
	assert_int_equal(icpt(1), 0);
	assert_int_equal(hits(3), 70);
	assert_int_equal(icpt(3), 14);
	assert_int_equal(hits(4), 0);
	assert_int_equal(icpt(4), P);
	assert_int_equal(F.cpu.short_idles, 0);
	assert_int_equal(F.cpu.total, 70 + 14 + P);

	fx("6.18");
	set_bin(1, 7, 7);
	F.cpu.short_idles = 7;
	F.cpu.total = 1000;
	F.cpu.sleep_length_ns = 1000000;
	update_after(4, 1000000);     /* no lat/2 rule in 6.18: a hit */
	assert_int_equal(hits(4), P);
	assert_int_equal(hits(1), 7);
	assert_int_equal(icpt(1), 7);
	assert_int_equal(F.cpu.short_idles, 7);
	assert_int_equal(F.cpu.total, 875 + P);   /* 6.18 decays the total itself */
}

/* ------------------------------------------------ 7.1 classification ----- */

/* Same bin and woken less than lat/2 before the timer: hit; at lat/2: intercept. */
static void v71_hit_needs_half_latency(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.sleep_length_ns = 305000;
	update_after(2, 305001);      /* m = 300001, 305000 - m = 4999 < 5000 */
	assert_int_equal(hits(3), P);
	assert_int_equal(icpt(3), 0);
	assert_int_equal(F.cpu.tick_intercepts, 0);

	fx("7.1");
	F.cpu.sleep_length_ns = 305000;
	update_after(2, 305000);      /* m = 300000, difference 5000 */
	assert_int_equal(hits(3), 0);
	assert_int_equal(icpt(3), P);
	assert_int_equal(F.cpu.tick_intercepts, P);   /* m <= TICK_NSEC */
	assert_int_equal(F.cpu.total, P);

	/* woke after the timer: negative difference, hit */
	fx("7.1");
	F.cpu.sleep_length_ns = 305000;
	update_after(2, 400000);
	assert_int_equal(hits(3), P);

	/* a sleep length equal to a target residency falls into that bin */
	fx("7.1");
	F.cpu.sleep_length_ns = 200000;
	update_after(2, 205001);           /* m = 200001 */
	assert_int_equal(hits(3), P);
	assert_int_equal(hits(2), 0);
}

/* A polling state has lat 0: only a wakeup after the timer is a hit. */
static void v71_polling_state_lat_zero(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.sleep_length_ns = 1500;
	update_after(0, 1500);
	assert_int_equal(icpt(0), P);
	assert_int_equal(hits(0), 0);
	assert_int_equal(F.cpu.short_idles, P);

	fx("7.1");
	F.cpu.sleep_length_ns = 1500;
	update_after(0, 1501);
	assert_int_equal(hits(0), P);
}

/* Different bins: intercept in the measured bin; tick_intercepts only up to a tick. */
static void v71_intercept_bins_and_tick(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.sleep_length_ns = 1000000;   /* timer bin 4 */
	update_after(2, 50000);            /* m = 45000: bin 2 */
	assert_int_equal(icpt(2), P);
	assert_int_equal(F.cpu.tick_intercepts, P);

	fx("7.1");
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	update_after(4, 5000000);          /* m = 4 900 000 > TICK_NSEC, bin 4 */
	assert_int_equal(icpt(4), P);
	assert_int_equal(F.cpu.tick_intercepts, 0);

	fx("7.1");
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	update_after(1, TICK + 1000);      /* m = TICK_NSEC exactly: counted */
	assert_int_equal(icpt(4), P);
	assert_int_equal(F.cpu.tick_intercepts, P);
}

/* A disabled state's bin still receives events and still decays. */
static void v71_disabled_state_bins(void **unused)
{
	(void)unused;
	fx("7.1");
	il_device_set_user_disable(&F.dev, 2, true);
	set_bin(2, 800, 800);
	F.cpu.sleep_length_ns = 1000000;
	update_after(1, 50000);            /* m = 49000: bin 2 although disabled */
	assert_int_equal(icpt(2), 700 + P);
	assert_int_equal(hits(2), 700);
}

/* poll_time_limit: cleared, measured = S64_MAX. */
static void v71_poll_time_limit(void **unused)
{
	(void)unused;
	fx("7.1");
	F.dev.poll_time_limit = true;
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	update_after(0, 3000);
	assert_false(F.dev.poll_time_limit);
	/* KTIME_MAX - S64_MAX = 0, not below lat/2 = 0: intercept in the last bin */
	assert_int_equal(icpt(4), P);
	assert_int_equal(F.cpu.tick_intercepts, 0);
	assert_int_equal(F.cpu.short_idles, 0);

	fx("7.1");
	F.dev.poll_time_limit = true;
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	update_after(1, 3000);             /* lat/2 = 1000 > 0: hit */
	assert_int_equal(hits(4), P);

	fx("7.1");
	F.dev.poll_time_limit = true;
	F.cpu.sleep_length_ns = 1000000;   /* timer known: S64_MAX is past it */
	update_after(0, 3000);
	assert_int_equal(hits(4), P);
}

static void v71_short_idles(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	update_after(1, 16000);            /* m = 15000: not short */
	assert_int_equal(F.cpu.short_idles, 0);
	update_after(1, 15999);            /* m = 14999 */
	assert_int_equal(F.cpu.short_idles, P);

	fx("7.1");
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	update_after(3, 50000);            /* below lat 80000: m = 25000, short anyway */
	assert_int_equal(F.cpu.short_idles, P);
	assert_int_equal(icpt(2), P);      /* 25000 is in bin 2 */
}

/* Tick wakeups dominate: credit the deepest state, classify nothing else. */
static void v71_total_tick_dominance(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.total_tick = 2000;
	F.cpu.tick_wakeup = true;
	F.cpu.sleep_length_ns = 300000;
	update_after(2, 50000);
	/* total = 0 + P; total_tick = 1750 + P = 2774; 3 * 2774 > 2 * 1024 */
	assert_int_equal(F.cpu.total_tick, 2774);
	assert_int_equal(hits(4), P);
	assert_int_equal(icpt(2), 0);
	assert_int_equal(F.cpu.tick_intercepts, 0);
}

/* Tick wakeup, not dominant, few sub-tick intercepts: a hit in the timer bin. */
static void v71_fake_intercept_rule(void **unused)
{
	(void)unused;
	fx("7.1");
	set_bin(2, 8000, 0);
	F.cpu.tick_wakeup = true;
	F.cpu.sleep_length_ns = 300000;    /* timer bin 3 */
	update_after(2, 50000);
	/* total 7000 + P; total_tick P: 3072 > 16048 no; 3 * 0 < 14000: hit */
	assert_int_equal(hits(3), P);
	assert_int_equal(hits(4), 0);
	assert_int_equal(icpt(2), 0);
	assert_int_equal(hits(2), 7000);

	/* frequent sub-tick intercepts: 3 * 7875 >= 14000, classified normally */
	fx("7.1");
	set_bin(2, 8000, 0);
	F.cpu.tick_intercepts = 9000;
	F.cpu.tick_wakeup = true;
	F.cpu.sleep_length_ns = 1000000;
	update_after(2, 50000);
	assert_int_equal(hits(4), 0);
	assert_int_equal(icpt(2), P);
	assert_int_equal(F.cpu.tick_intercepts, 7875 + P);

	/*
	 * The comparison uses the sum without the PULSE: ti 5714 decays to
	 * 5000; 15000 < 2 * 7000 fails (with the PULSE, 15000 < 16048 would
	 * have made it a hit).
	 */
	fx("7.1");
	set_bin(2, 8000, 0);
	F.cpu.tick_intercepts = 5714;
	F.cpu.tick_wakeup = true;
	F.cpu.sleep_length_ns = 1000000;
	update_after(2, 50000);
	assert_int_equal(hits(4), 0);
	assert_int_equal(icpt(2), P);
	assert_int_equal(F.cpu.tick_intercepts, 5000 + P);

	/* dominance is checked against the total including the PULSE */
	fx("7.1");
	set_bin(2, 1756, 0);               /* decays to 1537: total 1537 + P = 2561 */
	F.cpu.total_tick = 803;            /* decays to 703 (803 - 100), + P = 1727 */
	F.cpu.tick_wakeup = true;
	F.cpu.sleep_length_ns = 300000;    /* timer bin 3 */
	update_after(2, 50000);
	/* 3 * 1727 = 5181 > 5122: dominant, the deepest state gets the hit */
	assert_int_equal(F.cpu.total, 2561);
	assert_int_equal(F.cpu.total_tick, 1727);
	assert_int_equal(hits(4), P);
	assert_int_equal(hits(3), 0);
	fx("7.1");
	set_bin(2, 1756, 0);
	F.cpu.total_tick = 780;            /* 780 - 97 = 683 + P = 1707: 5121 <= 5122 */
	F.cpu.tick_wakeup = true;
	F.cpu.sleep_length_ns = 300000;
	update_after(2, 50000);
	assert_int_equal(F.cpu.total_tick, 1707);
	assert_int_equal(hits(4), 0);      /* not dominant; ti 0: hit in the timer bin */
	assert_int_equal(hits(3), P);
	assert_int_equal(icpt(2), 0);
}

/* ------------------------------------------- the presets before 6.12 ----- */

/*
 * c1d51f684c72 (v5.5): ns. POLL and C1 (1 / 2.5 µs), timer 2200 ns: 5.4
 * truncates both to µs, 2 <= 2: C1 (tick kept: 2 µs < TICK_USEC); 5.5:
 * 2500 > 2200 ns: POLL.
 */
static void v54_usec_candidate(void **unused)
{
	(void)unused;
	static const int64_t tr[] = { 0, 2500 }, el[] = { 0, 1000 };

	for (int k = 0; k < 2; k++) {
		fx(k ? "5.5" : "5.4");
		table(&F.drv, 2, tr, el, true);
		F.in.sleep_length_ns = 2200;
		assert_int_equal(sel(), k ? 0 : 1);
		assert_false(F.stop);
	}
}

/*
 * v5.5 "Consider hits and misses metrics of disabled states". C3 disabled,
 * timer 300 µs (C3's range), C2 hits 5000 / misses 0, C3 hits 0 / misses
 * 2000, early hits of C1 3000. 5.5: C3's metrics decide: misses win, the
 * early-hits state C1 with its 2 µs residency, tick kept. 5.4 reads the
 * candidate C2's own metrics: C2, tick kept (300 µs < TICK_USEC).
 */
static void v55_disabled_state_metrics(void **unused)
{
	(void)unused;
	for (int k = 0; k < 2; k++) {
		fx(k ? "5.5" : "5.4");
		il_device_set_user_disable(&F.dev, 3, true);
		F.cpu.hits[2] = 5000;
		F.cpu.misses[3] = 2000;
		F.cpu.early_hits[1] = 3000;
		F.in.sleep_length_ns = 300000;
		assert_int_equal(sel(), k ? 1 : 2);
		assert_false(F.stop);
	}
}

/*
 * v5.13 "Adjust handling of very short idle times". No polling state,
 * residencies 1 and 5 µs; sleep length 2 µs (bin 0), measured 300 ns, below
 * state 0's residency. 5.5: no state matches the duration: a miss of bin 0.
 * 5.13: the duration bin starts at 0: a hit.
 */
static void v513_short_idle(void **unused)
{
	(void)unused;
	static const int64_t tr[] = { 1000, 5000 }, el[] = { 0, 0 };

	for (int k = 0; k < 2; k++) {
		fx(k ? "5.13" : "5.5");
		table(&F.drv, 2, tr, el, false);
		F.cpu.sleep_length_ns = 2000;
		update_after(0, 300);
		assert_int_equal(F.cpu.hits[0], k ? P : 0);
		assert_int_equal(F.cpu.misses[0], k ? 0 : P);
		assert_int_equal(F.cpu.intervals[0], 300);
	}
	/* a sleep length below state 0's residency: 5.5 credits nothing at all */
	fx("5.5");
	table(&F.drv, 2, tr, el, false);
	F.cpu.sleep_length_ns = 500;
	update_after(0, 300);
	assert_int_equal(F.cpu.hits[0] + F.cpu.misses[0], 0);
}

/*
 * The v5.4 ring index runs to 8: the ninth update writes past the ring, and
 * the tenth starts again at slot 0. v5.4 measures the select-to-reflect
 * span (in µs, less half of C1's 2 µs exit latency); v5.5 the residency,
 * and wraps at 8.
 */
static void v54_ring_index(void **unused)
{
	(void)unused;
	fx("5.4");
	F.cpu.sleep_length_ns = 10000000;
	for (int i = 0; i < 9; i++) {
		F.cpu.time_span_ns = 100000 + i * 1000;
		update_after(1, 5);   /* the residency is not read */
	}
	assert_int_equal(F.cpu.intervals[7], 106);
	assert_int_equal(F.cpu.intervals[8], 107);  /* one past the ring */
	assert_int_equal(F.cpu.interval_idx, 0);
	F.cpu.time_span_ns = 200000;
	update_after(1, 5);
	assert_int_equal(F.cpu.intervals[0], 199);
	fx("5.5");
	F.cpu.sleep_length_ns = 10000000;
	for (int i = 0; i < 9; i++)
		update_after(1, 100000 + i * 1000);
	assert_int_equal(F.cpu.intervals[0], 107000);  /* the ninth wrapped to slot 0 */
	assert_int_equal(F.cpu.interval_idx, 1);
}

/*
 * 9ce0f7c4bc64 (v6.3) util-awareness and its v6.6 form. Utilized, timer
 * 10 ms. Five states: 5.14 takes C4, 6.3 the next shallower non-polling
 * state C3. Two states (S0 non-polling): 5.14 S1; 6.3 the first non-polling
 * state S0 with the tick stopped (duration = the sleep length); 6.6
 * (04bae4e2267d) S0 with the tick kept.
 */
static void v63_util_awareness(void **unused)
{
	(void)unused;
	static const int64_t tr[] = { 0, 2000 }, el[] = { 0, 2000 };

	for (int k = 0; k < 2; k++) {
		fx(k ? "6.3" : "5.14");
		F.in.cpu_utilized = true;
		assert_int_equal(sel(), k ? 3 : 4);
		assert_true(F.stop);
	}
	static const char *const rel[] = { "5.14", "6.3", "6.6", "6.11" };
	static const int want[] = { 1, 0, 0, 1 };
	static const bool stop[] = { true, true, false, true };
	for (int k = 0; k < 4; k++) {
		fx(rel[k]);
		table(&F.drv, 2, tr, el, false);
		F.in.cpu_utilized = true;
		assert_int_equal(sel(), want[k]);
		assert_int_equal(F.stop, stop[k]);
	}
}

/*
 * 449914398083 (v6.11) removed the recent-intercepts ring that 6.6 still
 * has. Hits dominate (C4's bin 8000, bin 1 intercepts 100: no majority),
 * but 5 of the last 9 wakeups were intercepts in bin 1: 6.6 walks down to
 * C1 (2 µs, below 15 µs with a polling state 0: no timer query, tick kept);
 * 6.11 keeps C4.
 */
static void v66_recent_intercepts(void **unused)
{
	(void)unused;
	for (int k = 0; k < 2; k++) {
		fx(k ? "6.11" : "6.6");
		set_bin(4, 8000, 0);
		set_bin(1, 0, 100);
		F.cpu.total = 8100;
		F.cpu.recent[1] = 5;
		assert_int_equal(sel(), k ? 4 : 1);
		assert_int_equal(F.stop, k ? true : false);
	}
}

/* ------------------------------------------------ 6.19, 7.0 and 7.1 ----- */

/*
 * f36de72673ad (v7.0): a hit also needs the wakeup less than lat/2 before
 * the timer. C2 (exit 10 µs), timer 305 µs, residency 305 µs: measured
 * 300 µs, 5 µs before the timer: 6.19 a hit, 7.0 an intercept.
 */
static void v619_hit_without_half_latency(void **unused)
{
	(void)unused;
	for (int k = 0; k < 2; k++) {
		fx(k ? "7.0" : "6.19");
		F.cpu.sleep_length_ns = 305000;
		update_after(2, 305000);
		assert_int_equal(hits(3), k ? 0 : P);
		assert_int_equal(icpt(3), k ? P : 0);
	}
}

/*
 * 60836533b4c7 (v7.0): a tick wakeup with rare sub-tick intercepts is a hit
 * of the timer's bin. The first case of v71_fake_intercept_rule: 7.0 a hit
 * in bin 3; 6.19 classifies it: an intercept in bin 2 (measured 45 µs),
 * counted in tick_intercepts (45 µs <= TICK_NSEC, 50db438231dc).
 */
static void v619_tick_wakeup_classified(void **unused)
{
	(void)unused;
	for (int k = 0; k < 2; k++) {
		fx(k ? "7.0" : "6.19");
		set_bin(2, 8000, 0);
		F.cpu.tick_wakeup = true;
		F.cpu.sleep_length_ns = 300000;
		update_after(2, 50000);
		assert_int_equal(hits(3), k ? P : 0);
		assert_int_equal(icpt(2), k ? 0 : P);
		assert_int_equal(F.cpu.tick_intercepts, k ? 0 : P);
	}
}

/*
 * 475ca3470b37 (v7.0): keep the tick when 3 * tick_intercepts >= 2 * total;
 * before, when tick_intercepts > total/2 + total/8. total 8192,
 * tick_intercepts 5200: 6.19 keeps the tick (5200 > 5120), 7.0 does not
 * (15600 < 16384). C4 (800 µs) below TICK_NSEC either way.
 */
static void v70_tick_intercepts_two_thirds(void **unused)
{
	(void)unused;
	for (int k = 0; k < 2; k++) {
		fx(k ? "7.0" : "6.19");
		F.cpu.total = 8192;
		F.cpu.tick_intercepts = 5200;
		assert_int_equal(sel(), 4);
		assert_int_equal(F.stop, k ? true : false);
	}
}

/*
 * a971f984b845 (v7.0): the walk stops only at or below the bin with the
 * most intercepts. Intercepts: bin 3 3000, bin 2 1000, bin 1 3500 (the
 * most); total 8000. Half of 7500 is passed at C2: 6.19 takes C2; 7.0 and
 * 7.1 go on to C1.
 */
static void v70_intercept_max(void **unused)
{
	(void)unused;
	static const char *const rel[] = { "6.19", "7.0", "7.1" };
	static const int want[] = { 2, 1, 1 };

	for (int k = 0; k < 3; k++) {
		fx(rel[k]);
		set_bin(3, 0, 3000);
		set_bin(2, 0, 1000);
		set_bin(1, 0, 3500);
		F.cpu.total = 8000;
		assert_int_equal(sel(), want[k]);
		assert_true(F.stop);
	}
}

/*
 * The stopped-tick walk. Residencies 0, 2 µs, 20 µs, 5 ms, 5 ms; bin 1 holds
 * all intercepts (3000, total 1000), timer 6 ms, tick stopped. 6.19: the
 * walk stops at min_idx, C3, the first state of a tick or more. 7.0
 * (4bd2221f231d): C3 has C4's residency: no walk, C4. 7.1 (106a2662e655):
 * no min_idx, the walk reaches C1; 6 ms is not beyond SAFE_TIMER_RANGE_NS
 * (8 ms): C1 stays. At 10 ms 7.1 deepens to C4.
 */
static void v70_stopped_tick_walk(void **unused)
{
	(void)unused;
	static const int64_t tr[] = { 0, 2000, 20000, 5000000, 5000000 };
	static const char *const rel[] = { "6.19", "7.0", "7.1" };
	static const int want[] = { 3, 4, 1 };

	for (int k = 0; k < 3; k++) {
		fx(rel[k]);
		table(&F.drv, 5, tr, tab_el, true);
		set_bin(1, 0, 3000);
		F.cpu.total = 1000;
		F.in.tick_stopped = true;
		F.in.sleep_length_ns = 6000000;
		assert_int_equal(sel(), want[k]);
		assert_true(F.stop);
	}
	fx("7.1");
	table(&F.drv, 5, tr, tab_el, true);
	set_bin(1, 0, 3000);
	F.cpu.total = 1000;
	F.in.tick_stopped = true;
	F.in.sleep_length_ns = 10000000;
	assert_int_equal(sel(), 4);
}

/* Rows of releases whose texts changed no decision decide as their neighbour. */
static void same_decisions_rows(void **unused)
{
	(void)unused;
	const struct il_gov_ops *o = &il_gov_teo_under_test;

	assert_int_equal(il_gov_preset_find(o, "6.1")->features,
			 il_gov_preset_find(o, "5.14")->features);
	assert_int_equal(il_gov_preset_find(o, "6.12")->features,
			 il_gov_preset_find(o, "6.11")->features);
	assert_int_equal(il_gov_preset_find(o, "6.18")->features,
			 il_gov_preset_find(o, "6.14")->features);
	/* 6.13 and 6.16 changed comments only */
	assert_string_equal(il_gov_preset_for_release(o, "6.13")->release, "6.12");
	assert_string_equal(il_gov_preset_for_release(o, "6.16")->release, "6.14");
}

/* --------------------------------------------------- 6.18 / 6.12 / 6.1 ----- */

static void v618_update_rules(void **unused)
{
	static const int64_t tr[] = { 0, 2000, 20000, 200000, 6000000 };

	(void)unused;
	/* same bin is a hit however early (no lat/2 rule) */
	fx("6.18");
	F.cpu.sleep_length_ns = 305000;
	update_after(2, 250000);
	assert_int_equal(hits(3), P);

	/* intercepts at or beyond a tick feed tick_intercepts (as shipped) */
	fx("6.18");
	table(&F.drv, 5, tr, tab_el, true);
	F.cpu.sleep_length_ns = 10000000;
	update_after(1, 5000000);          /* m = 4 999 000: bin 3, timer bin 4 */
	assert_int_equal(icpt(3), P);
	assert_int_equal(F.cpu.tick_intercepts, P);
	update_after(1, 50000);            /* m = 49000: intercept, not counted */
	assert_int_equal(icpt(2), P);
	assert_int_equal(F.cpu.tick_intercepts, 896);

	/* artificial wakeup: measured U64_MAX lands in the timer bin */
	fx("6.18");
	F.cpu.artificial_wakeup = true;
	F.cpu.sleep_length_ns = 300000;
	update_after(2, 1000);
	assert_int_equal(hits(3), P);
	assert_int_equal(F.cpu.short_idles, 0);

	/* a sleep length equal to a target residency falls into that bin */
	fx("6.18");
	F.cpu.sleep_length_ns = 200000;
	update_after(2, 205001);
	assert_int_equal(hits(3), P);
	assert_int_equal(hits(2), 0);

	/* short idles as in 7.1 */
	fx("6.18");
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	update_after(3, 50000);
	assert_int_equal(F.cpu.short_idles, P);
}

static void v618_reflect_artificial(void **unused)
{
	(void)unused;
	fx("6.18");
	F.dev.poll_time_limit = true;
	refl(0);
	assert_true(F.cpu.artificial_wakeup);
	assert_false(F.dev.poll_time_limit);
	assert_int_equal(F.dev.last_state_idx, 0);

	F.cpu.sleep_length_ns = TICK + 1;
	F.in.got_tick = true;
	refl(3);
	assert_true(F.cpu.artificial_wakeup);
	F.cpu.sleep_length_ns = TICK;
	refl(3);
	assert_false(F.cpu.artificial_wakeup);
	F.in.got_tick = false;
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	refl(3);
	assert_false(F.cpu.artificial_wakeup);
}

/* 6.12: the extra tick_hits bin when even the deepest state is below a tick. */
static void v612_tick_hits_bin(void **unused)
{
	static const int64_t tr[] = { 0, 2000, 20000, 200000, 6000000 };

	(void)unused;
	fx("6.12");
	F.cpu.time_span_ns = 0;
	F.cpu.sleep_length_ns = 5000000;
	F.cpu.tick_hits = 800;
	update_after(2, 4500000);          /* m = 4 495 000 >= tick: tick hit */
	assert_int_equal(F.cpu.tick_hits, 700 + P);
	assert_int_equal(all_metrics(), 0);
	assert_int_equal(F.cpu.total, 700 + P);

	fx("6.12");
	F.cpu.sleep_length_ns = 5000000;
	update_after(2, 1000000);          /* timer in the tick bin, m in bin 4 */
	assert_int_equal(icpt(4), P);
	assert_int_equal(F.cpu.tick_hits, 0);

	fx("6.12");
	F.cpu.sleep_length_ns = 1000000;   /* timer below a tick: normal hit */
	update_after(2, 900000);
	assert_int_equal(hits(4), P);

	/* deepest state >= tick: no tick bin, tick_hits untouched */
	fx("6.12");
	table(&F.drv, 5, tr, tab_el, true);
	F.cpu.tick_hits = 800;
	F.cpu.sleep_length_ns = 7000000;
	update_after(2, 6500000);
	assert_int_equal(hits(4), P);
	assert_int_equal(F.cpu.tick_hits, 800);
}

/* 6.1/6.12: a span from select to reflect reaching the sleep length means U64_MAX. */
static void v612_time_span_safety_net(void **unused)
{
	(void)unused;
	fx("6.12");
	F.cpu.sleep_length_ns = 300000;
	F.cpu.time_span_ns = 300000;
	update_after(2, 1000);             /* residency ignored */
	assert_int_equal(hits(3), P);

	fx("6.12");
	F.cpu.sleep_length_ns = 300000;
	F.cpu.time_span_ns = 299999;
	update_after(2, 1000);             /* m = 500, bin 0 */
	assert_int_equal(icpt(0), P);
}

static void v61_reflect_time_span(void **unused)
{
	(void)unused;
	fx("6.1");
	F.in.clock_ns = 1000000;
	F.in.sleep_length_ns = 300000;
	F.in.delta_tick_ns = 300000;
	sel();
	assert_int_equal(F.cpu.time_span_ns, 1000000);
	F.in.clock_ns = 1250000;
	refl(3);
	assert_int_equal(F.cpu.time_span_ns, 250000);
	assert_int_equal(F.dev.last_state_idx, 3);

	/* tick wakeup with the timer beyond a tick: the whole sleep length */
	F.cpu.time_span_ns = 5;
	F.cpu.sleep_length_ns = TICK + 1;
	F.in.got_tick = true;
	refl(3);
	assert_int_equal(F.cpu.time_span_ns, TICK + 1);
	/* ... but not with the timer within a tick */
	F.cpu.time_span_ns = 1000000;
	F.cpu.sleep_length_ns = TICK;
	F.in.clock_ns = 1500000;
	refl(3);
	assert_int_equal(F.cpu.time_span_ns, 500000);
	/* polling time limit: flag cleared, whole sleep length */
	F.in.got_tick = false;
	F.dev.poll_time_limit = true;
	refl(0);
	assert_false(F.dev.poll_time_limit);
	assert_int_equal(F.cpu.time_span_ns, TICK);
}

/* The whole select/reflect/select loop measures the span from the inputs' clock. */
static void v61_time_span_end_to_end(void **unused)
{
	(void)unused;
	fx("6.1");
	F.in.clock_ns = 10000000;
	F.in.sleep_length_ns = 300000;
	F.in.delta_tick_ns = 300000;
	assert_int_equal(sel(), 3);
	F.dev.last_residency_ns = 100000;
	F.in.clock_ns = 10300000;          /* span 300000 >= sleep length */
	refl(3);
	sel();
	assert_int_equal(hits(3), P);      /* U64_MAX: hit in the timer bin */
	assert_int_equal(icpt(2), 0);
}

static void v61_recent_ring(void **unused)
{
	(void)unused;
	fx("6.1");
	F.cpu.sleep_length_ns = 1000000;
	for (int k = 0; k < 9; k++)
		update_after(1, 3000);     /* m = 3000 - 1000 = 2000: bin 1 */
	assert_int_equal(F.cpu.recent[1], 9);
	assert_int_equal(F.cpu.next_recent_idx, 0);
	update_after(4, 1000000);          /* m = 900000, bin 4: a hit evicts slot 0 */
	assert_int_equal(F.cpu.recent[1], 8);
	assert_int_equal(F.cpu.recent_idx[0], -1);
	assert_int_equal(F.cpu.next_recent_idx, 1);
	update_after(2, 30000);            /* m = 25000: bin 2 replaces slot 1 */
	assert_int_equal(F.cpu.recent[1], 7);
	assert_int_equal(F.cpu.recent[2], 1);
	assert_int_equal(F.cpu.recent_idx[1], 2);
	/* total is rebuilt: sum of decayed metrics + PULSE */
	assert_int_equal(F.cpu.total, all_metrics());
}

/* ---------------------------------------------------- 7.1 select ----- */

static void v71_select_basic_paths(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.total = 1000;
	F.in.sleep_length_ns = 10000000;
	assert_int_equal(sel(), 4);
	assert_true(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, 10000000);

	/* timer within a tick: keep it; the deepest still fits the delta */
	F.in.sleep_length_ns = 1000000;
	F.in.delta_tick_ns = 1000000;
	assert_int_equal(sel(), 4);
	assert_false(F.stop);

	/* with nothing recorded 3 * 0 >= 2 * 0 holds: tick kept */
	fx("7.1");
	F.in.sleep_length_ns = 10000000;
	F.in.delta_tick_ns = 500000;
	assert_int_equal(sel(), 3);        /* 800000 > delta: shallower, 200000 */
	assert_false(F.stop);
}

/* The select runs the update first and then forgets the last state. */
static void v71_select_runs_update(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.sleep_length_ns = 1000000;
	F.dev.last_state_idx = 2;
	F.dev.last_residency_ns = 50000;
	sel();
	assert_int_equal(F.dev.last_state_idx, -1);
	assert_int_equal(icpt(2), P);
	/* the very first select after registration runs an update (idx 0, 0 ns) */
	fx("7.1");
	il_device_init(&F.dev, &F.drv, 0);
	sel();
	assert_int_equal(F.cpu.total, P);
	assert_int_equal(F.cpu.short_idles, P);
}

static void v71_demotion_walk(void **unused)
{
	(void)unused;
	fx("7.1");
	set_bin(1, 0, 3000);
	set_bin(2, 0, 1000);
	set_bin(3, 0, 500);
	F.cpu.total = 5000;
	assert_int_equal(sel(), 1);        /* 2 * 4500 > 5000, stops at max bin 1 */
	assert_true(F.stop);

	/* not enough intercepts: 2 * 2500 > 5000 fails */
	fx("7.1");
	set_bin(1, 0, 2500);
	F.cpu.total = 5000;
	assert_int_equal(sel(), 4);
	/* hits below the candidate count against the total */
	fx("7.1");
	set_bin(1, 1000, 2600);
	F.cpu.total = 5000;                /* 5200 > 5000 - 1000 */
	assert_int_equal(sel(), 1);
}

/* a971f984: the walk goes on to the bin with the most intercepts. */
static void v71_intercept_max(void **unused)
{
	(void)unused;
	fx("7.1");
	set_bin(0, 0, 400);
	set_bin(1, 0, 250);
	set_bin(2, 0, 251);
	F.cpu.total = 1000;
	F.in.sleep_length_ns = 10000000;
	assert_int_equal(sel(), 0);
	assert_false(F.stop);

	/* same metrics in 6.18: stops at state 1 */
	fx("6.18");
	set_bin(0, 0, 400);
	set_bin(1, 0, 250);
	set_bin(2, 0, 251);
	F.cpu.total = 1000;
	assert_int_equal(sel(), 1);
}

/* Ties for the maximum go to the deeper bin. */
static void v71_intercept_max_ties(void **unused)
{
	(void)unused;
	fx("7.1");
	set_bin(0, 0, 300);
	set_bin(1, 0, 300);
	set_bin(2, 0, 200);
	F.cpu.total = 800;
	assert_int_equal(sel(), 1);        /* lower-index ties would give 0 */
}

/* Disabled states: their bins count, but they are never chosen. */
static void v71_demotion_disabled(void **unused)
{
	(void)unused;
	fx("7.1");
	set_bin(0, 0, 100);
	set_bin(1, 0, 900);
	il_device_set_user_disable(&F.dev, 1, true);
	F.cpu.total = 1000;
	assert_int_equal(sel(), 0);        /* max bin 1 is disabled: on to 0 */

	/* state 0 disabled: idx0 = 1 bounds the walk, bin 0 is not summed */
	fx("7.1");
	set_bin(0, 0, 5000);
	il_device_set_user_disable(&F.dev, 0, true);
	F.cpu.total = 5000;
	assert_int_equal(sel(), 1);
	assert_true(F.stop);
}

static void v71_latency_cap(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.total = 1000;
	F.in.latency_req_ns = 50000;       /* C1E 10000 fits, C3 80000 not */
	assert_int_equal(sel(), 2);
	assert_true(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, 10000000);

	/* C1E disabled: C3 within 100 us, else C1 */
	il_device_set_user_disable(&F.dev, 2, true);
	F.in.latency_req_ns = 100000;
	assert_int_equal(sel(), 3);
	F.in.latency_req_ns = 50000;
	assert_int_equal(sel(), 1);
	assert_true(F.stop);
	/* the limit is not below 7500 ns, so the timer is read: 7 ns, POLL */
	F.in.sleep_length_ns = 7;
	assert_int_equal(sel(), 0);
	assert_false(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, 7);
}

/* The skip-the-timer rule: shallow candidate and short idles or tight latency. */
static void v71_skip_timer_query(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.total = 1000;
	F.in.latency_req_ns = 5000;        /* C1 only, and < LATENCY_THRESHOLD_NS */
	F.in.sleep_length_ns = 123;        /* poison: must not be read */
	assert_int_equal(sel(), 1);
	assert_false(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, IL_KTIME_MAX);

	F.in.latency_req_ns = 7500;        /* not below the threshold: query */
	F.in.sleep_length_ns = 10000000;
	assert_int_equal(sel(), 1);
	assert_true(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, 10000000);

	/* state 0 by the latency limit */
	F.in.latency_req_ns = 1000;
	F.in.sleep_length_ns = 123;
	assert_int_equal(sel(), 0);
	assert_false(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, IL_KTIME_MAX);

	/* short idles dominate: 2 * 500 >= 1000 */
	fx("7.1");
	set_bin(1, 0, 3000);
	F.cpu.total = 1000;
	F.cpu.short_idles = 500;
	F.in.sleep_length_ns = 123;
	assert_int_equal(sel(), 1);
	assert_false(F.stop);
	F.cpu.short_idles = 499;           /* 998 < 1000: query */
	F.in.sleep_length_ns = 10000000;
	assert_int_equal(sel(), 1);
	assert_true(F.stop);
}

/* v7.1 with the tick stopped: always query; deepen beyond SAFE_TIMER_RANGE_NS. */
static void v71_stopped_tick(void **unused)
{
	(void)unused;
	fx("7.1");
	set_bin(1, 0, 3000);
	F.cpu.total = 1000;
	F.cpu.short_idles = 1000;
	F.in.tick_stopped = true;
	F.in.sleep_length_ns = 8000001;
	assert_int_equal(sel(), 4);
	assert_true(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, 8000001);

	F.in.sleep_length_ns = 8000000;    /* within the safe range: keep C1 */
	assert_int_equal(sel(), 1);
	assert_true(F.stop);

	/* only up to the latency limit, skipping disabled states */
	F.in.sleep_length_ns = 10000000;
	F.in.latency_req_ns = 100000;      /* constraint C3 */
	assert_int_equal(sel(), 3);
	il_device_set_user_disable(&F.dev, 3, true);
	assert_int_equal(sel(), 2);

	/* deeper states must fit the sleep length */
	fx("7.1");
	set_bin(1, 0, 3000);
	F.cpu.total = 1000;
	F.in.tick_stopped = true;
	F.in.sleep_length_ns = 9000000;
	{
		static const int64_t tr[] = { 0, 2000, 20000, 9000001, 9500000 };

		table(&F.drv, 5, tr, tab_el, true);
	}
	assert_int_equal(sel(), 2);
}

/* With the tick stopped the older presets filter by teo_state_ok. */
static void v618_stopped_tick_state_ok(void **unused)
{
	(void)unused;
	fx("6.18");
	set_bin(1, 0, 3000);
	set_bin(2, 0, 1000);
	set_bin(3, 0, 500);
	F.cpu.total = 5000;
	F.in.tick_stopped = true;
	assert_int_equal(sel(), 4);        /* C3 is shallower than a tick: walk ends */
	assert_true(F.stop);

	/* a deep-enough state below the candidate is taken */
	fx("6.18");
	{
		static const int64_t tr[] = { 0, 2000, 5000000, 6000000, 7000000 };

		table(&F.drv, 5, tr, tab_el, true);
	}
	set_bin(0, 0, 5000);
	F.cpu.total = 5000;
	F.in.tick_stopped = true;
	/* crosses half at state 0 (too shallow): first suitable found, state 2 */
	assert_int_equal(sel(), 2);
	assert_true(F.stop);

	/* find_shallower result too shallow: keep the candidate */
	fx("6.12");
	F.cpu.total = 1000;
	F.in.tick_stopped = true;
	F.in.sleep_length_ns = 300000;
	assert_int_equal(sel(), 4);
	assert_true(F.stop);
	/* 7.1 takes it */
	fx("7.1");
	F.cpu.total = 1000;
	F.in.tick_stopped = true;
	F.in.sleep_length_ns = 300000;
	assert_int_equal(sel(), 3);
	assert_true(F.stop);
}

static void v71_shallower_search(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.total = 1000;
	F.in.sleep_length_ns = 300000;
	F.in.delta_tick_ns = 300000;
	assert_int_equal(sel(), 3);
	assert_false(F.stop);
	il_device_set_user_disable(&F.dev, 3, true);
	assert_int_equal(sel(), 2);

	/* nothing fits: the shallowest enabled state tried */
	il_device_set_user_disable(&F.dev, 0, true);
	F.in.sleep_length_ns = 1000;
	F.in.delta_tick_ns = 1000;
	assert_int_equal(sel(), 1);
	assert_false(F.stop);
}

/* Retain the tick for a sub-tick state when sub-tick intercepts dominate. */
static void v71_tick_retain(void **unused)
{
	(void)unused;
	fx("7.1");
	F.cpu.total = 3000;
	F.cpu.tick_intercepts = 2000;      /* 6000 >= 6000 */
	F.in.sleep_length_ns = 10000000;
	F.in.delta_tick_ns = 500000;
	assert_int_equal(sel(), 3);        /* C6 800000 > delta: C3 */
	assert_false(F.stop);
	F.cpu.tick_intercepts = 1999;
	assert_int_equal(sel(), 4);
	assert_true(F.stop);

	/* 6.18: more than total/2 + total/8 */
	fx("6.18");
	F.cpu.total = 3000;
	F.cpu.tick_intercepts = 1876;
	F.in.delta_tick_ns = 500000;
	assert_int_equal(sel(), 3);
	assert_false(F.stop);
	F.cpu.tick_intercepts = 1875;
	assert_int_equal(sel(), 4);
	assert_true(F.stop);
}

/* The end rule: polling state or sub-tick duration keeps the tick, unless stopped. */
static void v71_end_rule(void **unused)
{
	(void)unused;
	/* one enabled state: no query, duration = its residency */
	fx("7.1");
	for (int i = 0; i < 5; i++)
		il_device_set_user_disable(&F.dev, i, i != 2);
	F.in.sleep_length_ns = 123;
	assert_int_equal(sel(), 2);
	assert_false(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, IL_KTIME_MAX);
	F.in.tick_stopped = true;
	assert_int_equal(sel(), 2);
	assert_true(F.stop);

	/* one enabled state of a tick or more: stop the tick */
	fx("7.1");
	{
		static const int64_t tr[] = { 0, 2000, 20000, 200000, TICK };

		table(&F.drv, 5, tr, tab_el, true);
	}
	for (int i = 0; i < 4; i++)
		il_device_set_user_disable(&F.dev, i, true);
	assert_int_equal(sel(), 4);
	assert_true(F.stop);

	/* only POLL enabled */
	fx("7.1");
	for (int i = 1; i < 5; i++)
		il_device_set_user_disable(&F.dev, i, true);
	assert_int_equal(sel(), 0);
	assert_false(F.stop);

	/* nothing enabled: state 0, tick kept even if already stopped */
	il_device_set_user_disable(&F.dev, 0, true);
	assert_int_equal(sel(), 0);
	assert_false(F.stop);
	F.in.tick_stopped = true;
	assert_int_equal(sel(), 0);
	assert_false(F.stop);

	/* a single state */
	fx("7.1");
	table(&F.drv, 1, tab_tr, tab_el, true);
	assert_int_equal(sel(), 0);
	assert_false(F.stop);
}

/* ---------------------------------------------------- 6.12 select ----- */

/* 4b20b07ce72f: the walk reached state 0, so query the timer anyway. */
static void v612_state0_query(void **unused)
{
	(void)unused;
	fx("6.12");
	set_bin(0, 0, 5000);
	F.cpu.total = 5000;
	F.in.sleep_length_ns = 777777;
	assert_int_equal(sel(), 0);
	assert_false(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, 777777);

	/* state 0 by the latency limit only: no query */
	fx("6.12");
	F.cpu.total = 1000;
	F.in.latency_req_ns = 1000;
	assert_int_equal(sel(), 0);
	assert_false(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, IL_KTIME_MAX);
}

/* 6.12 skips the query for a shallow candidate only after a polling state 0. */
static void v612_polling_skip(void **unused)
{
	static const int64_t tr[] = { 1000, 2000, 20000, 200000, 800000 };
	static const int64_t el[] = { 1000, 2000, 10000, 80000, 200000 };

	(void)unused;
	fx("6.12");
	set_bin(1, 0, 3000);
	F.cpu.total = 5000;
	F.in.sleep_length_ns = 123;
	assert_int_equal(sel(), 1);
	assert_false(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, IL_KTIME_MAX);

	fx("6.12");
	table(&F.drv, 5, tr, el, false);
	set_bin(1, 0, 3000);
	F.cpu.total = 5000;
	F.in.sleep_length_ns = 10000000;
	assert_int_equal(sel(), 1);
	assert_true(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, 10000000);

	/* short idles do not matter in 6.12 */
	fx("6.12");
	F.cpu.total = 1000;
	F.cpu.short_idles = 100000;
	assert_int_equal(sel(), 4);
	assert_true(F.stop);
}

/* 6.12 keeps the tick on all intercepts, the deepest bin included. */
static void v612_tick_intercept_sum(void **unused)
{
	(void)unused;
	fx("6.12");
	set_bin(4, 0, 1876);
	F.cpu.total = 3000;
	F.in.delta_tick_ns = 500000;
	assert_int_equal(sel(), 3);
	assert_false(F.stop);
	set_bin(4, 0, 1875);
	assert_int_equal(sel(), 4);
	assert_true(F.stop);

	/* the intercept just recorded by the update counts too */
	fx("6.12");
	F.dev.last_state_idx = 2;
	F.dev.last_residency_ns = 50000;   /* m = 45000: intercept in bin 2 */
	F.cpu.sleep_length_ns = 1000000;
	/* total P; demoted to C1E (2P > P); P > P/2 + P/8 keeps the tick */
	assert_int_equal(sel(), 2);
	assert_false(F.stop);
}

/* 6.18: the skip rule ignores a stopped tick; 7.1 does not. */
static void v618_skip_rule(void **unused)
{
	(void)unused;
	fx("6.18");
	F.cpu.total = 1000;
	F.in.latency_req_ns = 5000;
	F.in.tick_stopped = true;
	F.in.sleep_length_ns = 123;
	assert_int_equal(sel(), 1);
	assert_false(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, IL_KTIME_MAX);

	fx("7.1");
	F.cpu.total = 1000;
	F.in.latency_req_ns = 5000;
	F.in.tick_stopped = true;
	F.in.sleep_length_ns = 9000000;
	assert_int_equal(sel(), 1);        /* constraint C1: nothing deeper allowed */
	assert_true(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, 9000000);
}

/* ----------------------------------------------------- 6.1 select ----- */

static void v61_candidate_by_sleep_length(void **unused)
{
	(void)unused;
	fx("6.1");
	F.in.sleep_length_ns = 300000;
	F.in.delta_tick_ns = 300000;
	assert_int_equal(sel(), 3);
	assert_false(F.stop);
	assert_int_equal(F.cpu.sleep_length_ns, 300000);

	F.in.sleep_length_ns = 1000;       /* below C1: POLL right away */
	F.in.delta_tick_ns = 1000;
	assert_int_equal(sel(), 0);
	assert_false(F.stop);

	F.in.sleep_length_ns = 10000000;
	F.in.delta_tick_ns = TICK;
	assert_int_equal(sel(), 4);
	assert_true(F.stop);

	/* the latency limit applies within the sleep length */
	F.in.latency_req_ns = 50000;
	assert_int_equal(sel(), 2);
	assert_true(F.stop);

	/* first enabled state beyond the sleep length is still used */
	fx("6.1");
	il_device_set_user_disable(&F.dev, 0, true);
	F.in.latency_req_ns = 1000;
	F.in.sleep_length_ns = 1000;
	F.in.delta_tick_ns = 1000;
	assert_int_equal(sel(), 1);
	assert_false(F.stop);
}

/* alt_recent: most of the last 9 events were intercepts below the candidate. */
static void v61_recent_alternative(void **unused)
{
	(void)unused;
	fx("6.1");
	set_bin(4, 50000, 0);
	F.cpu.total = 100000;
	F.cpu.recent[1] = 5;
	assert_int_equal(sel(), 1);
	assert_false(F.stop);              /* duration = middle of bin 1, 11000 */

	F.cpu.recent[1] = 4;               /* 4 > 9 / 2 fails */
	assert_int_equal(sel(), 4);
	assert_true(F.stop);

	/* with the tick stopped, bins whose middle is below a tick are refused */
	F.cpu.recent[1] = 5;
	F.in.tick_stopped = true;
	assert_int_equal(sel(), 4);
	assert_true(F.stop);
}

/* alt_intercepts walk, the middle of the bin as duration. */
static void v61_intercept_alternative(void **unused)
{
	static const int64_t tr[] = { 0, 2000, 20000, 9000000, 20000000 };

	(void)unused;
	fx("6.1");
	set_bin(2, 0, 3000);
	F.cpu.total = 4000;
	assert_int_equal(sel(), 2);        /* 6000 > 4000: bin 2 holds over half */
	assert_false(F.stop);              /* middle (20000 + 200000) / 2 < tick */

	/* a bin whose middle exceeds a tick: the tick may be stopped */
	fx("6.1");
	table(&F.drv, 5, tr, tab_el, true);
	set_bin(2, 0, 3000);
	F.cpu.total = 4000;
	F.in.sleep_length_ns = 30000000;
	assert_int_equal(sel(), 2);        /* middle 4 510 000 >= tick */
	assert_true(F.stop);

	/* the middle of the bin is the expected duration: 3 999 999 < tick */
	fx("6.1");
	{
		static const int64_t tr2[] = { 0, 2000, 20000, 7979998, 20000000 };

		table(&F.drv, 5, tr2, tab_el, true);
	}
	set_bin(2, 0, 3000);
	F.cpu.total = 4000;
	F.in.sleep_length_ns = 30000000;
	assert_int_equal(sel(), 2);
	assert_false(F.stop);

	/* disabled target: the last enabled state with a good span */
	fx("6.1");
	set_bin(2, 0, 3000);
	F.cpu.total = 4000;
	il_device_set_user_disable(&F.dev, 2, true);
	assert_int_equal(sel(), 3);
	assert_false(F.stop);              /* middle of bin 3: 500000 */
}

/* ------------------------------------------------------ boundaries ----- */

/* Exactly at a rule's threshold, for the comparisons whose direction matters. */
static void v71_dominance_equal(void **unused)
{
	(void)unused;
	fx("7.1");
	set_bin(2, 2340, 0);               /* decays to 2048: total 2048 + P = 3072 */
	F.cpu.total_tick = 1170;           /* decays to 1024, + P = 2048 */
	F.cpu.tick_wakeup = true;
	F.cpu.sleep_length_ns = 300000;
	update_after(2, 50000);
	/* 3 * 2048 == 2 * 3072: not dominant; fake-intercept hit in bin 3 */
	assert_int_equal(hits(3), P);
	assert_int_equal(hits(4), 0);
}

/* A residency equal to the exit latency takes the "subtract half" branch. */
static void residency_equal_latency(void **unused)
{
	static const int64_t tr[] = { 0, 1001, 20000, 200000, 800000 };
	static const int64_t el[] = { 0, 2001, 10000, 80000, 200000 };
	static const char *const rels[] = { "6.1", "6.12" };

	(void)unused;
	fx("7.1");
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	update_after(3, 80000);            /* m = 40000: not short; below lat it would be */
	assert_int_equal(F.cpu.short_idles, 0);
	assert_int_equal(icpt(2), P);
	fx("6.18");
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	update_after(3, 80000);
	assert_int_equal(F.cpu.short_idles, 0);

	for (int r = 0; r < 2; r++) {
		fx(rels[r]);
		table(&F.drv, 5, tr, el, true);
		F.cpu.sleep_length_ns = 1000000;
		update_after(1, 2001);     /* m = 2001 - 1000 = 1001: bin 1 (1000 would be bin 0) */
		assert_int_equal(icpt(1), P);
		assert_int_equal(icpt(0), 0);
	}
}

static void v618_tick_intercepts_at_tick(void **unused)
{
	static const int64_t tr[] = { 0, 2000, 20000, 200000, 6000000 };

	(void)unused;
	fx("6.18");
	table(&F.drv, 5, tr, tab_el, true);
	F.cpu.sleep_length_ns = 10000000;
	update_after(1, TICK + 1000);      /* m = TICK_NSEC: counted (TICK_NSEC <= m) */
	assert_int_equal(icpt(3), P);
	assert_int_equal(F.cpu.tick_intercepts, P);
}

static void v612_tick_bin_boundaries(void **unused)
{
	static const int64_t tr[] = { 0, 2000, 20000, 200000, TICK };

	(void)unused;
	/* sleep length and measured exactly one tick: a tick hit */
	fx("6.12");
	F.cpu.sleep_length_ns = TICK;
	update_after(1, TICK + 1000);
	assert_int_equal(F.cpu.tick_hits, P);
	assert_int_equal(all_metrics(), 0);

	/* deepest state at exactly a tick: no tick bin, a plain hit */
	fx("6.12");
	table(&F.drv, 5, tr, tab_el, true);
	F.cpu.sleep_length_ns = 5000000;
	update_after(1, 4500000);
	assert_int_equal(F.cpu.tick_hits, 0);
	assert_int_equal(hits(4), P);
}

/* The select's sums include the PULSE of the update only for bins below the candidate. */
static void v71_select_sums_after_update(void **unused)
{
	(void)unused;
	/* a hit in the candidate's own bin does not count as a hit below it */
	fx("7.1");
	set_bin(1, 0, 1142);               /* decays to 1000 */
	F.dev.last_state_idx = 4;
	F.dev.last_residency_ns = 1050000; /* m = 950000, 50000 early: hit in bin 4 */
	F.cpu.sleep_length_ns = 1000000;
	assert_int_equal(sel(), 4);        /* 2000 > 2024 - 0 fails */
	assert_int_equal(hits(4), P);

	/* an intercept in the candidate's bin is not below it either */
	fx("7.1");
	set_bin(1, 0, 1142);
	F.dev.last_state_idx = 4;
	F.dev.last_residency_ns = 1050000;
	F.cpu.sleep_length_ns = IL_KTIME_MAX;
	assert_int_equal(sel(), 4);
	assert_int_equal(icpt(4), P);

	/* an intercept below the candidate counts at once */
	fx("7.1");
	F.dev.last_state_idx = 1;
	F.dev.last_residency_ns = 3000;    /* m = 2000: bin 1 */
	F.cpu.sleep_length_ns = 1000000;
	assert_int_equal(sel(), 1);        /* 2 * P > P */
	assert_int_equal(icpt(1), P);

	/* 6.18 and 6.12 use the same sums */
	fx("6.18");
	F.dev.last_state_idx = 1;
	F.dev.last_residency_ns = 3000;
	F.cpu.sleep_length_ns = 1000000;
	assert_int_equal(sel(), 1);
	fx("6.12");
	F.dev.last_state_idx = 1;
	F.dev.last_residency_ns = 3000;
	F.cpu.sleep_length_ns = 1000000;
	assert_int_equal(sel(), 1);
}

/* 6.18: a too-shallow state met before any suitable one ends the walk. */
static void v618_walk_gives_up(void **unused)
{
	static const int64_t tr[] = { 0, 2000, 5000000, 200000, 7000000 };

	(void)unused;
	fx("6.18");
	table(&F.drv, 5, tr, tab_el, true);  /* state 3 shallower than state 2 */
	set_bin(0, 0, 5000);
	F.cpu.total = 5000;
	F.in.tick_stopped = true;
	assert_int_equal(sel(), 4);        /* stops at state 3; state 2 never seen */
}

/*
 * 6.12 and 6.18 walk down from the candidate until the intercepts passed
 * are more than half of those below it: 2 * sum > idx_intercept_sum,
 * strictly (teo.c of 6.12 and 6.18 alike). Bins 2 and 3 hold 1000
 * intercepts each, bin 4 1500 hits; total 3500 (no update runs: the
 * select sees these values). Below the candidate 4: 2000 intercepts, no
 * hits, and 2 * 2000 > 3500 - 0 starts the walk. At state 3 the sum is
 * 1000, exactly half: 2000 > 2000 fails, state 3 becomes the last
 * suitable one and the walk goes on; at state 2 the sum is 2000 and
 * 4000 > 2000 picks state 2. (A ">=" would stop at state 3.)
 * The rest: no QoS cap; tr(2) = 20 us is not below 15 us, so the timer is
 * queried (10 ms) and 20 us fits it. 6.12's tick rule needs all 2000
 * intercepts above 3500/2 + 3500/8 = 2187: no. 6.18's tick_intercepts are
 * 0. End rule: C1E is not polling and 10 ms >= a tick: state 2, tick
 * stopped. 7.1's walk (a971f984b845) has the same strict test and also
 * needs the state no deeper than the busiest bin among 0..3, here bin 3
 * (1000 ties bin 2; the deeper wins), which both stops allow; its
 * skip-timer and tick rules see no short idles and no tick intercepts.
 */
static void demotion_half_boundary(void **unused)
{
	static const char *const rel[] = { "6.12", "6.18", "7.1" };

	(void)unused;
	for (int r = 0; r < 3; r++) {
		fx(rel[r]);
		set_bin(2, 0, 1000);
		set_bin(3, 0, 1000);
		set_bin(4, 1500, 0);
		F.cpu.total = 3500;
		assert_int_equal(sel(), 2);
		assert_true(F.stop);
		/* one intercept more in bin 3 and it holds over half: 2 * 1001 > 2001 */
		fx(rel[r]);
		set_bin(2, 0, 1000);
		set_bin(3, 0, 1001);
		set_bin(4, 1500, 0);
		F.cpu.total = 3501;
		assert_int_equal(sel(), 3);
		assert_true(F.stop);
	}
}

static void v71_boundaries(void **unused)
{
	(void)unused;
	/* tr(idx) == delta_tick is within it: no correction */
	fx("7.1");
	F.cpu.total = 1000;
	F.in.sleep_length_ns = 1000000;
	F.in.delta_tick_ns = 800000;
	assert_int_equal(sel(), 4);
	assert_false(F.stop);

	/* exit latency equal to the limit is allowed */
	fx("7.1");
	F.cpu.total = 1000;
	F.in.latency_req_ns = 10000;
	assert_int_equal(sel(), 2);
}

static void v61_boundaries(void **unused)
{
	static const int64_t tr[] = { 0, 2000, 20000, 5000000, 20000000 };

	(void)unused;
	fx("6.1");
	F.in.sleep_length_ns = 2000;       /* == tr(1): not POLL right away */
	F.in.delta_tick_ns = 2000;
	assert_int_equal(sel(), 1);
	F.in.sleep_length_ns = 200000;     /* == tr(3): C3 fits */
	F.in.delta_tick_ns = 200000;
	assert_int_equal(sel(), 3);        /* tr(3) == delta: kept */
	assert_false(F.stop);
	F.in.sleep_length_ns = TICK;       /* a tick exactly: the tick may stop */
	F.in.delta_tick_ns = TICK;
	assert_int_equal(sel(), 4);
	assert_true(F.stop);
	F.in.latency_req_ns = 10000;
	assert_int_equal(sel(), 2);

	/* with the tick stopped, a too-shallow state after a good one: walk on */
	fx("6.1");
	table(&F.drv, 5, tr, tab_el, true);
	set_bin(0, 0, 5000);
	F.cpu.total = 5000;
	F.in.tick_stopped = true;
	F.in.sleep_length_ns = 30000000;
	assert_int_equal(sel(), 3);        /* bin 0 too shallow: back to state 3 */
	assert_true(F.stop);
}

/* ---------------------------------- the kernel-shaped state loop ----- */

static uint64_t krng_state = 0x243f6a8885a308d3ull;

static uint64_t krng(void)
{
	krng_state ^= krng_state << 13;
	krng_state ^= krng_state >> 7;
	krng_state ^= krng_state << 17;
	return krng_state;
}

/* A metric a bin can hold (below 9 PULSE), with ties and zeros common. */
static uint32_t some_metric(void)
{
	switch (krng() % 4) {
	case 0: return 0;
	case 1: return (uint32_t)(krng() % 4) * P;
	default: return (uint32_t)(krng() % (9 * P));
	}
}

/* A random table (residencies in any order), bins, disables and QoS limit. */
static int64_t random_case(void)
{
	int n = 1 + (int)(krng() % 10);
	int64_t tr[10], el[10];

	for (int i = 0; i < n; i++) {
		tr[i] = krng() % 4 ? (int64_t)(krng() % 3000000) : tab_tr[krng() % 5];
		el[i] = krng() % 4 ? (int64_t)(krng() % 300000) : tab_el[krng() % 5];
	}
	table(&F.drv, n, tr, el, krng() % 2);
	il_device_init(&F.dev, &F.drv, 0);
	for (int i = 0; i < n; i++)
		if (krng() % 5 == 0)
			F.dev.states_usage[i].disable = 1;
	memset(F.cpu.bins, 0, sizeof(F.cpu.bins));
	for (int i = 0; i < n; i++)
		set_bin(i, some_metric(), some_metric());
	switch (krng() % 4) {
	case 0: return el[krng() % (uint64_t)n];
	case 1: return (int64_t)(krng() % 300000);
	default: return NO_QOS;
	}
}

static void same_scan(const struct teo_scan *fast, const struct teo_scan *k, int n, int c)
{
	if (fast->idx != k->idx || fast->idx0 != k->idx0 ||
	    fast->constraint_idx != k->constraint_idx ||
	    fast->below.intercepts != k->below.intercepts || fast->below.hits != k->below.hits ||
	    fast->below.all_intercepts != k->below.all_intercepts)
		fail_msg("case %d (%d states): fast idx %d idx0 %d c %d sums %u/%u/%u, kernel-shaped "
			 "%d %d %d %u/%u/%u", c, n, fast->idx, fast->idx0, fast->constraint_idx,
			 fast->below.intercepts, fast->below.hits, fast->below.all_intercepts, k->idx,
			 k->idx0, k->constraint_idx, k->below.intercepts, k->below.hits,
			 k->below.all_intercepts);
}

/*
 * find_candidates() + the sums of sum_bins() or of the update's pass
 * against teo_state_loop() over the same bins, on 300 000 random tables
 * (1 to 10 states, residencies in any order, disabled states, QoS limits),
 * half of them after an update of a random era.
 */
static void state_loop_matches_fast(void **unused)
{
	(void)unused;
	fx("7.1");
	for (int c = 0; c < 300000; c++) {
		int64_t latency_req = random_case();
		int n = F.drv.state_count;
		struct teo_scan fast, k;

		find_candidates(&F.drv, &F.dev, latency_req, &fast);
		if (c & 1) {
			static const char *const rel[] = { "6.12", "6.18", "7.1" };
			int last = (int)(krng() % (uint64_t)n);

			teo_configure(&F.cfg, il_gov_preset_find(&il_gov_teo_under_test,
								 rel[krng() % 3]), NULL, 0, NULL);
			F.cpu.sleep_length_ns = krng() % 8 ? (int64_t)(krng() % 5000000) : IL_KTIME_MAX;
			F.cpu.time_span_ns = (int64_t)(krng() % 5000000);
			F.cpu.tick_wakeup = krng() % 2;
			F.dev.last_state_idx = last;
			F.dev.last_residency_ns = (int64_t)(krng() % 5000000);
			if (F.cfg.era == TEO_6_12)
				update_612(&F.cpu, &F.drv, &F.dev, TICK, &fast, false);
			else if (F.cfg.era == TEO_6_18)
				update_618(&F.cpu, &F.drv, &F.dev, TICK, &fast);
			else
				update_71(&F.cpu, &F.drv, &F.dev, TICK, &fast, F.cfg.features);
		} else {
			sum_bins(&F.cpu, n, fast.idx, &fast.below);
		}
		teo_state_loop(&F.cpu, &F.drv, &F.dev, latency_req, &k);
		same_scan(&fast, &k, n, c);
		if (n >= 2 && intercept_max_bin(&F.cpu, &F.drv) != k.intercept_max_idx)
			fail_msg("case %d: busiest bin %d, kernel-shaped %d", c,
				 intercept_max_bin(&F.cpu, &F.drv), k.intercept_max_idx);
	}
}

/* A governor instance of the teo under test, fast or kernel-shaped. */
static struct il_gov *teo_instance(const char *rel, int ncpus, bool reference)
{
	struct il_gov *g = calloc(1, sizeof(*g));

	assert_non_null(g);
	g->ops = &il_gov_teo_under_test;
	g->preset = il_gov_preset_find(g->ops, rel);
	assert_non_null(g->preset);
	g->ncpus = ncpus;
	g->config = calloc(1, sizeof(struct teo_config));
	g->cpu_data = calloc((size_t)ncpus, sizeof(struct teo_cpu));
	assert_non_null(g->config);
	assert_non_null(g->cpu_data);
	assert_int_equal(teo_configure(g->config, g->preset, NULL, 0, NULL), 0);
	if (reference)
		teo_use_reference(g->config);
	snprintf(g->spec, sizeof(g->spec), "teo@%s%s", rel, reference ? " (kernel-shaped)" : "");
	return g;
}

/*
 * Whole decisions: teo@6.12, 6.18 and 7.1 with the fast scan against the
 * kernel-shaped state loop, over the test logs and 20 000 random rows on
 * each log's table.
 */
static void kernel_shape_on_logs(void **unused)
{
	(void)unused;
	static const char *const rel[] = { "6.6", "6.12", "6.18", "6.19", "7.0", "7.1" };
	size_t decisions = 0;

	for (size_t l = 0; l < TWIN_NLOGS; l++) {
		struct il_replay_log log;

		twin_load(&log, twin_logs[l]);
		for (size_t i = 0; i < 6; i++) {
			struct il_gov *fast = teo_instance(rel[i], log.ncpus, false);
			struct il_gov *ref = teo_instance(rel[i], log.ncpus, true);

			decisions += twin_run(fast, ref, &log, 20000, 0x7e0000 + l * 16 + i, ref->spec);
			il_gov_free(fast);
			il_gov_free(ref);
		}
		il_replay_log_free(&log);
	}
	assert_true(decisions > 6 * 10 * 20000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ops_table),
		cmocka_unit_test(configure_errors),
		cmocka_unit_test(describe_names_commits),
		cmocka_unit_test(registry_specs),
		cmocka_unit_test(enable_resets),
		cmocka_unit_test(decay_floor_rule),
		cmocka_unit_test(decay_bins_pairs),
		cmocka_unit_test(update_decays_all_bins),
		cmocka_unit_test(v54_usec_candidate),
		cmocka_unit_test(v55_disabled_state_metrics),
		cmocka_unit_test(v513_short_idle),
		cmocka_unit_test(v54_ring_index),
		cmocka_unit_test(v63_util_awareness),
		cmocka_unit_test(v66_recent_intercepts),
		cmocka_unit_test(v619_hit_without_half_latency),
		cmocka_unit_test(v619_tick_wakeup_classified),
		cmocka_unit_test(v70_tick_intercepts_two_thirds),
		cmocka_unit_test(v70_intercept_max),
		cmocka_unit_test(v70_stopped_tick_walk),
		cmocka_unit_test(same_decisions_rows),
		cmocka_unit_test(v71_hit_needs_half_latency),
		cmocka_unit_test(v71_polling_state_lat_zero),
		cmocka_unit_test(v71_intercept_bins_and_tick),
		cmocka_unit_test(v71_disabled_state_bins),
		cmocka_unit_test(v71_poll_time_limit),
		cmocka_unit_test(v71_short_idles),
		cmocka_unit_test(v71_total_tick_dominance),
		cmocka_unit_test(v71_fake_intercept_rule),
		cmocka_unit_test(v618_update_rules),
		cmocka_unit_test(v618_reflect_artificial),
		cmocka_unit_test(v612_tick_hits_bin),
		cmocka_unit_test(v612_time_span_safety_net),
		cmocka_unit_test(v61_reflect_time_span),
		cmocka_unit_test(v61_time_span_end_to_end),
		cmocka_unit_test(v61_recent_ring),
		cmocka_unit_test(v71_select_basic_paths),
		cmocka_unit_test(v71_select_runs_update),
		cmocka_unit_test(v71_demotion_walk),
		cmocka_unit_test(v71_intercept_max),
		cmocka_unit_test(v71_intercept_max_ties),
		cmocka_unit_test(v71_demotion_disabled),
		cmocka_unit_test(v71_latency_cap),
		cmocka_unit_test(v71_skip_timer_query),
		cmocka_unit_test(v71_stopped_tick),
		cmocka_unit_test(v618_stopped_tick_state_ok),
		cmocka_unit_test(v71_shallower_search),
		cmocka_unit_test(v71_tick_retain),
		cmocka_unit_test(v71_end_rule),
		cmocka_unit_test(v612_state0_query),
		cmocka_unit_test(v612_polling_skip),
		cmocka_unit_test(v612_tick_intercept_sum),
		cmocka_unit_test(v618_skip_rule),
		cmocka_unit_test(v61_candidate_by_sleep_length),
		cmocka_unit_test(v61_recent_alternative),
		cmocka_unit_test(v61_intercept_alternative),
		cmocka_unit_test(v71_dominance_equal),
		cmocka_unit_test(residency_equal_latency),
		cmocka_unit_test(v618_tick_intercepts_at_tick),
		cmocka_unit_test(v612_tick_bin_boundaries),
		cmocka_unit_test(v71_select_sums_after_update),
		cmocka_unit_test(v618_walk_gives_up),
		cmocka_unit_test(demotion_half_boundary),
		cmocka_unit_test(v71_boundaries),
		cmocka_unit_test(v61_boundaries),
		cmocka_unit_test(state_loop_matches_fast),
		cmocka_unit_test(kernel_shape_on_logs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
