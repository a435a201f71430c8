// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cpufreq layer: PELT's arithmetic derived by hand from the kernel's
 * definitions (periods of 1024 x 1024 ns, y^32 = 1/2, the y^n x 2^32 table,
 * LOAD_AVG_MAX = 47742), schedutil's two formulas, the local freq_max
 * fallback (the 4-core turbo bin), the --cpufreq spec, and whole runs:
 * performance through the layer delivers what the run without it does,
 * and invariant schedutil beats non-invariant on the serial gitsource chain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "idlelab/cpufreq.h"
#include "idlelab/sim.h"

#define PERIOD_NS (1024ull * 1024)

static void decay_load(void **state)
{
	(void)state;
	/* y^0: x (2^32 - 1) >> 32 loses one: 1024 -> 1023 */
	assert_int_equal(il_pelt_decay_load(1024, 0), 1023);
	/* y^1 = 0xfa83b2da / 2^32 = 0.978572...: 1024 y = 1002.06 -> 1002 */
	assert_int_equal(il_pelt_decay_load(1024, 1), 1002);
	/* 32 periods: a shift by one, then y^0: 512 x (2^32 - 1) >> 32 = 511 */
	assert_int_equal(il_pelt_decay_load(1024, 32), 511);
	/* LOAD_AVG_MAX y = 46718.3 -> 46718 */
	assert_int_equal(il_pelt_decay_load(IL_PELT_LOAD_AVG_MAX, 1), 46718);
	/* past 63 half-lives everything is gone */
	assert_int_equal(il_pelt_decay_load(UINT64_MAX, 32 * 63 + 1), 0);
}

static void pelt_one_period(void **state)
{
	(void)state;
	struct il_pelt sa = { 0 };
	/* half a period: no boundary crossed, no util_avg yet; 512 units of 1024 ns accrue */
	assert_false(il_pelt_update(&sa, PERIOD_NS / 2, true, true));
	assert_int_equal(sa.util_sum, 512u << 10);
	assert_int_equal(sa.period_contrib, 512);
	assert_int_equal(sa.util_avg, 0);

	memset(&sa, 0, sizeof(sa));
	/*
	 * One whole period running from 0: d1 = 1024 decayed once (1002),
	 * no full periods between (47742 - 46718 - 1024 = 0), d3 = 0:
	 * util_sum = 1002 << 10 = 1026048; util_avg = 1026048 / (47742 -
	 * 1024 + 0) = 21.96 -> 21.
	 */
	assert_true(il_pelt_update(&sa, PERIOD_NS, true, true));
	assert_int_equal(sa.util_sum, 1026048);
	assert_int_equal(sa.util_avg, 21);
}

static void pelt_half_life(void **state)
{
	(void)state;
	struct il_pelt sa = { 0 };
	/* 1000 periods running: saturated, util_avg = 1024 */
	il_pelt_update(&sa, 1000 * PERIOD_NS, true, true);
	assert_int_equal(sa.util_avg, 1024);
	uint64_t sum = sa.util_sum;
	assert_int_equal(sum, 47839232); /* 46718 x 1024 = 47839232: the divider times 1024 */
	/*
	 * 32 periods idle (blocked: no load): util_sum >> 1 then x (2^32-1) >> 32
	 * = 23919615; / 46718 = 511.99 -> 511: the 32 ms half-life
	 */
	il_pelt_update(&sa, 1032 * PERIOD_NS, false, false);
	assert_int_equal(sa.util_sum, 23919615);
	assert_int_equal(sa.util_avg, 511);
	/* 32 more: 47839232 >> 2 = 11959808, x (2^32-1) >> 32 = 11959807 -> 255 */
	struct il_pelt sb = { 0 };
	il_pelt_update(&sb, 1000 * PERIOD_NS, true, true);
	il_pelt_update(&sb, 1064 * PERIOD_NS, false, false);
	assert_int_equal(sb.util_avg, 255);
	/* a clock going back only resets the stamp */
	assert_false(il_pelt_update(&sb, 10, true, true));
	assert_int_equal(sb.last_update_time, 10);
	assert_int_equal(sb.util_avg, 255);
}

/* il_pelt_div(): the reciprocal gives the division's quotient on either side of each multiple */
/*
 * The runnable signal (6.5's boost reads it): n runnable tasks accrue n
 * times what one running task accrues in util_sum over the same step, so
 * from zero, one step of 3.5 periods gives runnable_sum = 2 x util_sum for
 * n = 2 exactly, and runnable_avg = that over the same divider. A step
 * within a period (no boundary) adds n x delta << 10 and leaves the avg.
 */
static void pelt_runnable(void **state)
{
	(void)state;
	struct il_pelt sa = { 0 };
	struct il_pelt_r r = { 0 };
	uint64_t now = 3 * PERIOD_NS + PERIOD_NS / 2;
	assert_true(il_pelt_update_r(&sa, &r, now, true, true, 2));
	assert_int_equal(r.runnable_sum, 2 * sa.util_sum);
	assert_int_equal(r.runnable_avg, 2 * sa.util_sum / il_pelt_divider(&sa));
	/* util alone, the same step: the same util_sum */
	struct il_pelt su = { 0 };
	assert_true(il_pelt_update(&su, now, true, true));
	assert_int_equal(su.util_sum, sa.util_sum);
	/* 100 x 1024 ns more, inside the same period: + 2 x 100 << 10, avg unchanged */
	uint64_t before = r.runnable_sum;
	unsigned long avg = r.runnable_avg;
	assert_false(il_pelt_update_r(&sa, &r, now + 100 * 1024, true, true, 2));
	assert_int_equal(r.runnable_sum, before + ((2ull * 100) << 10));
	assert_int_equal(r.runnable_avg, avg);
	/* queued but not running (n = 1): runnable grows, util only decays */
	struct il_pelt sb = sa;
	struct il_pelt_r q = r;
	assert_true(il_pelt_update_r(&sb, &q, now + 100 * 1024 + 2 * PERIOD_NS, true, false, 1));
	assert_true(sb.util_sum < sa.util_sum);
	/* without load nothing accrues, whatever n says */
	struct il_pelt sc = sa;
	struct il_pelt_r qc = r;
	assert_true(il_pelt_update_r(&sc, &qc, now + 100 * 1024 + 2 * PERIOD_NS, false, true, 3));
	assert_true(qc.runnable_sum < r.runnable_sum);
}

static void pelt_div_exact(void **state)
{
	(void)state;
	for (uint32_t pc = 0; pc < 1024; pc++) {
		uint64_t d = IL_PELT_LOAD_AVG_MAX - 1024 + pc;
		for (uint64_t q = 0; q * d < (1u << 27) + 2 * d; q++) {
			for (uint64_t n = q ? q * d - 1 : 0; n <= q * d + 1; n++)
				if (il_pelt_div(n, pc) != n / d)
					fail_msg("pc %u n %llu: %llu, not %llu", pc, (unsigned long long)n,
						 (unsigned long long)il_pelt_div(n, pc),
						 (unsigned long long)(n / d));
		}
		uint64_t top[] = { (1u << 27) - 1, 1u << 27, UINT64_MAX };
		for (int i = 0; i < 3; i++)
			assert_int_equal(il_pelt_div(top[i], pc), top[i] / d);
	}
}

static void schedutil_formulas(void **state)
{
	(void)state;
	/* invariant: 1.25 x freq_max x util / max; cpuinfo.max_freq 3900 MHz, util 512 */
	assert_int_equal(il_cf_map_util_freq(512, 3900000, 1024), (3900000ul + 975000) * 512 / 1024);
	assert_int_equal(il_cf_map_util_freq(512, 3900000, 1024), 2437500);
	/* not invariant: 1.25 x freq_curr x util / max; at 1000 MHz util 512 asks 625 MHz */
	assert_int_equal(il_cf_map_util_freq(512, 1000000, 1024), 625000);
	/* the tipping point: util / max = 0.8 keeps the current frequency */
	assert_int_equal(il_cf_map_util_freq(819, 1000000, 1024), 999755);
	assert_int_equal(il_cf_map_util_freq(820, 1000000, 1024), 1000976);
	/* integer arithmetic: f >> 2 truncates (1001 kHz: 1251, not 1251.25) */
	assert_int_equal(il_cf_map_util_freq(1024, 1001, 1024), 1251);

	/* by release: up to 5.13 as above */
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_FREQ, 512, 3900000, true, 1024), 2437500);
	/* 5.14: 3900000 x (512 + 128) / 1024, the same here */
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_UTIL, 512, 3900000, true, 1024), 2437500);
	/* but the truncation moves: util 3 -> 1250000 x 3 / 1024 = 3662 against 1000000 x 3 / 1024 */
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_FREQ, 3, 1000000, false, 1024), 3662);
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_UTIL, 3, 1000000, false, 1024), 2929);
	/* near full util: 1000 + 250 = 1250 over the capacity, 3900000 x 1250 / 1024 = 4760742 */
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_UTIL, 1000, 3900000, true, 1024), 4760742);
	/* 6.8: capped at 1024, so cpuinfo.max_freq itself */
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_CAPPED, 1000, 3900000, true, 1024), 3900000);
	/* 6.8 without invariance: (1000000 + 250000) x 640 / 1024 = 781250, not 625000 */
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_CAPPED, 512, 1000000, false, 1024), 781250);
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_UTIL, 512, 1000000, false, 1024), 625000);
	/* and the tipping point falls from util 0.8 to 0.64: 655 + 163 = 818 stays under 1000 MHz
	 * (1250000 x 818 / 1024 = 998535), 656 + 164 = 820 goes over (1000976) */
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_CAPPED, 655, 1000000, false, 1024), 998535);
	assert_int_equal(il_cf_raw_khz(IL_CF_HEADROOM_CAPPED, 656, 1000000, false, 1024), 1000976);
}

/*
 * intel_pstate's target P-state by hand: turbo 32, so 32 + 8 = 40; half
 * busy (mperf 1000 of tsc 2000: busy_frac 128) -> 40 x 128 >> 8 = 20;
 * aperf / mperf 1.5 at base 24 -> (24 x 24576) >> 14 = 36 > 20, so
 * 20 + 16 / 2 = 28. busy 0.39 (mperf 781 of 2000: (781 << 8) / 2000 = 99)
 * -> 40 x 99 >> 8 = 15 (15.47 truncated); aperf 1171: (1171 << 14) / 781 =
 * 24565, 24 x 24565 >> 14 = 35 (35.98 truncated): 15 + 20 / 2 = 25.
 * Below min: min. The I/O-wait boost is a floor under busy_frac.
 */
static void pstate_target(void **state)
{
	(void)state;
	assert_int_equal(il_cf_pstate_target(32, 8, 24, 1500, 1000, 2000, 0), 28);
	assert_int_equal(il_cf_pstate_target(32, 8, 24, 1171, 781, 2000, 0), 25);
	/* aperf = mperf (at base): avg 24; 15 + 9 / 2 = 19 */
	assert_int_equal(il_cf_pstate_target(32, 8, 24, 781, 781, 2000, 0), 19);
	/* nearly idle: 40 x 1 >> 8 = 0 -> min 8, avg 24 -> 8 + 8 = 16 */
	assert_int_equal(il_cf_pstate_target(32, 8, 24, 10, 10, 2000, 0), 16);
	/* the boost (256 / 8 = 32) as busy_frac: 40 x 32 >> 8 = 5 -> min 8 -> 16 */
	assert_int_equal(il_cf_pstate_target(32, 8, 24, 10, 10, 2000, 32), 16);
	/* fully busy at turbo (aperf / mperf 2666 / 2000): 40; avg (24 x 21839) >> 14 = 31 < 40 */
	assert_int_equal(il_cf_pstate_target(32, 8, 24, 2666, 2000, 2000, 0), 40);
}

static void freq_max_rule(void **state)
{
	(void)state;
	struct il_platform p;
	memset(&p, 0, sizeof(p));
	p.base_mhz = 2400;
	/* Cascade Lake 8260L bins: 1C..4C = 3900 3900 3700 3700 -> 4C */
	p.nturbo = 4;
	p.turbo_mhz[0] = 3900;
	p.turbo_mhz[1] = 3900;
	p.turbo_mhz[2] = 3700;
	p.turbo_mhz[3] = 3700;
	assert_true(il_cf_freq_max_fallback(&p) == 3700);
	/* two bins only: the last */
	p.nturbo = 2;
	assert_true(il_cf_freq_max_fallback(&p) == 3900);
	/* none: base */
	p.nturbo = 0;
	assert_true(il_cf_freq_max_fallback(&p) == 2400);
}

static void spec_parse(void **state)
{
	(void)state;
	struct il_cpufreq_params cf;
	struct il_err e;
	char name[96];

	assert_int_equal(il_cpufreq_parse("schedutil", &cf, &e), 0);
	assert_true(cf.on);
	assert_int_equal(cf.gov, IL_CF_GOV_SCHEDUTIL);
	assert_int_equal(cf.invariance, -1);
	assert_int_equal(il_cpufreq_parse("acpi-cpufreq:schedutil+invariance=off+rate_limit_us=2000",
					  &cf, &e), 0);
	assert_int_equal(cf.driver, IL_CF_DRV_ACPI);
	assert_int_equal(cf.invariance, 0);
	assert_int_equal(cf.rate_limit_us, 2000);
	il_cpufreq_name(&cf, name, sizeof(name));
	assert_string_equal(name, "acpi-cpufreq:schedutil+invariance=off+rate_limit_us=2000");
	assert_int_equal(il_cpufreq_parse("hwp", &cf, &e), 0);
	assert_int_equal(cf.driver, IL_CF_DRV_HWP);
	assert_int_equal(cf.gov, IL_CF_GOV_POWERSAVE);
	/* bad input names the part */
	assert_int_equal(il_cpufreq_parse("ondemandx", &cf, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "unknown governor 'ondemandx'"));
	assert_int_equal(il_cpufreq_parse("foo:schedutil", &cf, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "unknown driver 'foo'"));
	assert_int_equal(il_cpufreq_parse("hwp:schedutil", &cf, &e), -EINVAL);
	assert_int_equal(il_cpufreq_parse("schedutil+epp=300", &cf, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "bad value '300' for epp"));
	assert_int_equal(il_cpufreq_parse("schedutil+colour=red", &cf, &e), -EINVAL);
	assert_int_equal(il_cpufreq_parse("schedutil+invariance", &cf, &e), -EINVAL);
	assert_int_equal(il_cpufreq_parse("", &cf, &e), -EINVAL);
	/* a trailing '+', a key twice, a fraction where a whole number goes */
	assert_int_equal(il_cpufreq_parse("schedutil+", &cf, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "'' is not KEY=VALUE"));
	assert_int_equal(il_cpufreq_parse("schedutil+invariance=on+", &cf, &e), -EINVAL);
	assert_int_equal(il_cpufreq_parse("hwp+epp=255+epp=0", &cf, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "epp given twice"));
	assert_int_equal(il_cpufreq_parse("schedutil+rate_limit_us=1.5", &cf, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "bad value '1.5' for rate_limit_us"));
	assert_int_equal(il_cpufreq_parse("hwp+epp=127.5", &cf, &e), -EINVAL);
	assert_int_equal(il_cpufreq_parse("schedutil+rate_limit_us=1e3", &cf, &e), 0);
	assert_int_equal(cf.rate_limit_us, 1000);
}

/* One run of workload wl on a built-in platform; returns metric row/col. */
static const char *run_release; /* the run's kernel release (NULL: the platform's default) */

static double run_metric_nohz(const char *plat, const char *wl_name, const char *cpufreq,
			      const char *row, const char *col, int64_t dur_ns, bool nohz)
{
	struct il_platform *p = calloc(1, sizeof(*p));
	struct il_machine_idle m;
	struct il_err e;
	assert_non_null(p);
	assert_int_equal(il_platform_load(p, plat, &e), 0);
	assert_int_equal(il_machine_idle_build(p, NULL, &m, &e), 0);
	if (run_release)
		snprintf(m.release, sizeof(m.release), "%s", run_release);
	struct il_gov *g = il_gov_new("menu", il_platform_ncpus(p), &e);
	assert_non_null(g);
	const struct il_workload *wl = il_workload_find(wl_name);
	assert_non_null(wl);
	void *cfg = calloc(1, wl->config_size);
	assert_int_equal(il_workload_configure(wl, cfg, NULL, 0, &e), 0);
	struct il_sim_params prm;
	il_sim_params_default(&prm);
	prm.duration_ns = dur_ns;
	prm.nohz = nohz;
	if (cpufreq)
		assert_int_equal(il_cpufreq_parse(cpufreq, &prm.cpufreq, &e), 0);
	struct il_sim *s = il_sim_new(p, &m, g, wl, cfg, &prm, &e);
	assert_non_null(s);
	assert_int_equal(il_sim_run(s, &e), 0);
	struct il_sim_result r;
	assert_int_equal(il_sim_result(s, &r, &e), 0);
	double v = NAN;
	for (int i = 0; i < r.metrics.n; i++)
		if (!strcmp(r.metrics.m[i].row, row) && !strcmp(r.metrics.m[i].col, col))
			v = r.metrics.m[i].value;
	il_sim_result_free(&r);
	il_sim_free(s);
	il_gov_free(g);
	free(cfg);
	free(p);
	assert_false(isnan(v));
	return v;
}

static double run_metric(const char *plat, const char *wl_name, const char *cpufreq,
			 const char *row, const char *col, int64_t dur_ns)
{
	return run_metric_nohz(plat, wl_name, cpufreq, row, col, dur_ns, true);
}

static void performance_is_the_default(void **state)
{
	(void)state;
	/* performance through the layer asks for the top; the hardware gives the bin: same work */
	double a = run_metric("intel-cascadelake-sp", "request-response", NULL, "request-response",
			      "throughput_MBps", 200000000);
	double b = run_metric("intel-cascadelake-sp", "request-response", "performance",
			      "request-response", "throughput_MBps", 200000000);
	assert_true(a == b);
	double mhz = run_metric("intel-cascadelake-sp", "request-response", "performance", "cpufreq",
				"mean_mhz", 200000000);
	assert_true(fabs(mhz - 3100) < 1e-6); /* 48 pairs keep all 24 cores of a package active: the 24C bin */
}

static void invariance_helps_gitsource(void **state)
{
	(void)state;
	double off = run_metric("intel-skylake-client", "gitsource", "schedutil+invariance=off",
				"gitsource", "procs_per_s", 1000000000);
	double on = run_metric("intel-skylake-client", "gitsource", "schedutil+invariance=on",
			       "gitsource", "procs_per_s", 1000000000);
	double perf = run_metric("intel-skylake-client", "gitsource", "performance", "gitsource",
				 "procs_per_s", 1000000000);
	/* non-invariant schedutil stays near the lowest P-state: utilisation never reaches 80 % */
	double mhz = run_metric("intel-skylake-client", "gitsource", "schedutil+invariance=off",
				"cpufreq", "mean_mhz", 1000000000);
	assert_true(mhz < 1200);
	assert_true(on > off * 1.25);
	assert_true(perf >= on);
}

/*
 * schedutil's "busy" rule (a single-CPU policy keeps its frequency when the
 * CPU has not idled since the last update) reads the count of
 * tick_nohz_idle_stop_tick() calls, which nohz=off never makes: every
 * update then counts as busy, and a CPU's frequency, once raised by its
 * first run, is never lowered. Skylake's 4 CPUs start at 800 MHz and the
 * gitsource chain runs on each within its first milliseconds: with nohz=off
 * 800 MHz can only be held for those; with nohz the idle CPUs come back down
 * to it. (Counting every idle entry instead, nohz=off held 800 MHz 31.7 %
 * of the time.)
 */
static void busy_rule_reads_tick_stops(void **state)
{
	(void)state;
	const char *cf = "intel_cpufreq:schedutil+invariance=on";
	double nohz = run_metric_nohz("intel-skylake-client", "gitsource", cf, "freq 800 MHz",
				      "time_pct", 500000000, true);
	double periodic = run_metric_nohz("intel-skylake-client", "gitsource", cf, "freq 800 MHz",
					  "time_pct", 500000000, false);
	assert_true(periodic < 1.0);
	assert_true(nohz > 10.0);
}

/*
 * Run wl on plat at release rel with cpufreq spec cf for dur_ns and return
 * the step-by-step trace (free() it).
 */
static bool traced_nohz = true; /* traced_run()'s nohz (false: nohz=off) */

static char *traced_run(const char *plat, const char *rel, const struct il_workload *wl,
			const char *cf, int64_t dur_ns)
{
	struct il_platform *p = calloc(1, sizeof(*p));
	struct il_machine_idle m;
	struct il_err e;
	assert_int_equal(il_platform_load(p, plat, &e), 0);
	assert_int_equal(il_machine_idle_build(p, NULL, &m, &e), 0);
	snprintf(m.release, sizeof(m.release), "%s", rel);
	struct il_gov *g = il_gov_new("menu", il_platform_ncpus(p), &e);
	char cfg = 0;
	struct il_sim_params prm;
	il_sim_params_default(&prm);
	prm.duration_ns = dur_ns;
	prm.nohz = traced_nohz;
	char *buf = NULL;
	size_t len = 0;
	prm.trace = open_memstream(&buf, &len);
	assert_non_null(prm.trace);
	assert_int_equal(il_cpufreq_parse(cf, &prm.cpufreq, &e), 0);
	struct il_sim *s = il_sim_new(p, &m, g, wl, &cfg, &prm, &e);
	assert_non_null(s);
	assert_int_equal(il_sim_run(s, &e), 0);
	fclose(prm.trace);
	il_sim_free(s);
	il_gov_free(g);
	free(p);
	return buf;
}

/* The instant of the trace line that contains what (it must be there). */
static long long trace_time(const char *buf, const char *what)
{
	const char *w = strstr(buf, what);
	assert_non_null(w);
	while (w > buf && w[-1] != '\n')
		w--;
	return atoll(w);
}

/*
 * Who runs a wake-up's cpufreq_update_util(): A (CPU 0) wakes B at 100 ms,
 * B having run 1 ms at the start on CPU `to` and idled since. The enqueue
 * runs on the waker's CPU unless ttwu_queue() hands it to the wakee's
 * wakelist: across LLCs always, on the same LLC only from v6.0 and only
 * to a CPU that runs nothing. schedutil refuses an update from another
 * CPU than its policy's (intel_cpufreq: one CPU each). So on 5.7 CPU 2's
 * schedutil runs at the wake only if CPU 2 is in another LLC (the other
 * package: CPU 48); on 6.0 it does for both (CPU 2 is idle). PELT has
 * decayed over the 99 ms idle and the rate limit (500 us) is long past,
 * so a local update evaluates.
 */
struct rw_st { int a, b; int64_t woke_at; };
static int rw_to;

static int rw_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct rw_st *st = stp;
	(void)cfgp;
	(void)err;
	st->a = il_sim_task_add(s, 0, NULL);
	st->b = il_sim_task_add(s, rw_to, NULL);
	st->woke_at = -1;
	il_sim_task_wake(s, -1, st->a);
	il_sim_task_wake(s, -1, st->b);
	return 0;
}

static void rw_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct rw_st *st = stp;
	(void)cfgp;
	(void)lat;
	il_sim_task_work(s, task, 0, task == st->a ? 100000000 : 1000000);
}

static void rw_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	struct rw_st *st = stp;
	(void)cfgp;
	if (task == st->a) {
		if (st->woke_at < 0) {
			st->woke_at = il_sim_now(s);
			il_sim_task_wake(s, 0, st->b);
		}
		il_sim_task_work(s, task, 0, 100000000);
	} else {
		il_sim_task_block(s, task, -1);
	}
}

static const struct il_workload rw_wl = {
	.name = "remote-wake", .summary = "", .config_size = 1, .state_size = sizeof(struct rw_st),
	.setup = rw_setup, .task_ran = rw_ran, .task_woke = rw_woke,
};

/*
 * Whether CPU to's schedutil ran at the instant A woke B (release rel, on
 * plat); *first_after: when it ran next after that, *ran_at: when B ran.
 */
static bool wake_updates_on(const char *plat, const char *rel, int to, long long *first_after,
			    long long *ran_at)
{
	rw_to = to;
	char *buf = traced_run(plat, rel, &rw_wl, "intel_cpufreq:schedutil", 150000000);
	/* the wake-up's line gives its instant; then look for CPU to's schedutil then */
	char wake[64], upd[64];
	snprintf(wake, sizeof(wake), "cpu0 wakes task 1 on cpu%d", to);
	long long t = trace_time(buf, wake);
	assert_true(t >= 100000000);
	snprintf(upd, sizeof(upd), "\n%lld cpu%d schedutil ", t, to);
	bool found = strstr(buf, upd) != NULL;
	/* the first schedutil line of CPU to after the wake-up's, and B's run */
	*first_after = *ran_at = -1;
	char su[32], run[32];
	snprintf(su, sizeof(su), " cpu%d schedutil ", to);
	snprintf(run, sizeof(run), " cpu%d runs task 1 ", to);
	for (const char *l = strstr(buf, wake); *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		const char *sp = strchr(l, ' ');
		if (!sp)
			break;
		if (*ran_at < 0 && !strncmp(sp, run, strlen(run)))
			*ran_at = atoll(l);
		if (*first_after < 0 && atoll(l) > t && !strncmp(sp, su, strlen(su)))
			*first_after = atoll(l);
	}
	free(buf);
	return found;
}

static bool wake_updates(const char *rel, int to)
{
	long long first, ran;
	return wake_updates_on("intel-cascadelake-sp", rel, to, &first, &ran);
}

static void remote_wake_updates(void **state)
{
	(void)state;
	assert_false(wake_updates("5.7", 2));
	assert_true(wake_updates("5.7", 48));
	assert_true(wake_updates("6.0", 2));
	assert_true(wake_updates("6.0", 48));
	/*
	 * set_next_entity()'s update when PELT decayed: on Atom, CPU 2 waits
	 * in C7S (10 ms exit) after 99 ms idle, so B runs more than a PELT
	 * period (1.048576 ms) after its (remote) enqueue: its pick decays the
	 * queue and CPU 2's first schedutil after the wake-up is at that pick.
	 */
	long long first, ran;
	assert_false(wake_updates_on("intel-atom-z8350", "5.7", 2, &first, &ran));
	assert_true(ran > 0);
	assert_int_equal(first, ran);
}

/*
 * schedutil's rate limit, cpufreq_policy_transition_delay_us(): intel_cpufreq
 * sets transition_delay_us 500 in every release; acpi-cpufreq sets none, so
 * its 10 us _PSS latency (the layer's default) gives 10 us x 1000 capped at
 * 10 ms up to 6.8, capped at 2 ms in 6.9 .. 6.11, 10 + 10/2 = 15 us from 6.12.
 */
static void rate_limit_by_release(void **state)
{
	(void)state;
	const struct { const char *rel, *cf; double us; } t[] = {
		{ "5.7", "acpi-cpufreq:schedutil", 10000 }, { "6.8", "acpi-cpufreq:schedutil", 10000 },
		{ "6.9", "acpi-cpufreq:schedutil", 2000 }, { "6.11", "acpi-cpufreq:schedutil", 2000 },
		{ "6.12", "acpi-cpufreq:schedutil", 15 }, { "7.1", "acpi-cpufreq:schedutil", 15 },
		{ "5.7", "intel_cpufreq:schedutil", 500 }, { "7.1", "intel_cpufreq:schedutil", 500 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		run_release = t[i].rel;
		double us = run_metric("intel-cascadelake-sp", "request-response", t[i].cf, "cpufreq",
				       "rate_limit_us", 10000000);
		assert_true(us == t[i].us);
	}
	run_release = NULL;
}

/*
 * A removal counts as a decay: B then C run on CPU 2 from the start (1 ms,
 * then 1 us) and block; at 1.01 ms A (CPU 0) wakes B onto CPU 3 (its util
 * leaves CPU 2's queue: removed) and wakes C on CPU 2 again (6.1: CPU 2 is
 * idle, so it enqueues C itself). CPU 2's queue was last stepped at C's
 * block, microseconds before, within the same PELT period, so only the
 * pending removal makes that enqueue call schedutil
 * (update_cfs_rq_load_avg() returns decayed for it). No rate limit
 * (rate_limit_us=0) to hide it.
 */
struct rm_st { int a, b, c; bool done; };

static int rm_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct rm_st *st = stp;
	(void)cfgp;
	(void)err;
	st->a = il_sim_task_add(s, 0, NULL);
	st->b = il_sim_task_add(s, 2, NULL);
	st->c = il_sim_task_add(s, 2, NULL);
	st->done = false;
	il_sim_task_wake(s, -1, st->a);
	il_sim_task_wake(s, -1, st->b);
	il_sim_task_wake(s, -1, st->c);
	return 0;
}

static void rm_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct rm_st *st = stp;
	(void)cfgp;
	(void)lat;
	il_sim_task_work(s, task, 0, task == st->a ? 1010000 : task == st->b ? 1000000 : 1000);
}

static void rm_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	struct rm_st *st = stp;
	(void)cfgp;
	if (task == st->a && !st->done) {
		st->done = true;
		il_sim_task_wake_on(s, 0, st->b, 3);
		il_sim_task_wake(s, 0, st->c);
		il_sim_task_work(s, task, 0, 1000000);
		return;
	}
	il_sim_task_block(s, task, -1);
}

static const struct il_workload rm_wl = {
	.name = "removal", .summary = "", .config_size = 1, .state_size = sizeof(struct rm_st),
	.setup = rm_setup, .task_ran = rm_ran, .task_woke = rm_woke,
};

static void removal_updates(void **state)
{
	(void)state;
	char *buf = traced_run("intel-cascadelake-sp", "6.1", &rm_wl,
			       "intel_cpufreq:schedutil+rate_limit_us=0", 5000000);
	long long t = trace_time(buf, "cpu0 wakes task 2 on cpu2");
	/* C's block on CPU 2, microseconds before: CPU 2's last queue step */
	assert_true(t >= 1000000 && t < 1100000);
	char upd[64];
	snprintf(upd, sizeof(upd), "\n%lld cpu2 schedutil ", t);
	assert_non_null(strstr(buf, upd));
	free(buf);
}

/*
 * An exiting process's last dequeue is an ordinary one: its util is still
 * on the queue when schedutil reads it (task_dead_fair() removes it after
 * the switch, at the queue's next update). X, new on idle CPU 2 (half the
 * capacity, 512, from post_init_entity_util_avg()), runs 3 ms and exits:
 * the schedutil at its block reads at least X's util, which has grown
 * from 512 while running; X's next process on CPU 2 starts afresh.
 */
struct ex_st { int x, parent; };

static int ex_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct ex_st *st = stp;
	(void)cfgp;
	(void)err;
	st->x = il_sim_task_add(s, 2, NULL);
	il_sim_task_wake(s, -1, st->x);
	return 0;
}

static void ex_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	(void)cfgp;
	(void)stp;
	(void)lat;
	il_sim_task_work(s, task, 0, 3000000);
}

static void ex_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	(void)cfgp;
	(void)stp;
	il_sim_task_exit(s, task);
	il_sim_task_block(s, task, -1);
}

static const struct il_workload ex_wl = {
	.name = "exit", .summary = "", .config_size = 1, .state_size = sizeof(struct ex_st),
	.setup = ex_setup, .task_ran = ex_ran, .task_woke = ex_woke,
};

static void exit_dequeue_reads_util(void **state)
{
	(void)state;
	char *buf = traced_run("intel-cascadelake-sp", "5.7", &ex_wl,
			       "intel_cpufreq:schedutil+rate_limit_us=0", 10000000);
	/* the last schedutil line of CPU 2: at X's block (nothing runs there after it) */
	const char *last = NULL;
	for (const char *l = strstr(buf, " cpu2 schedutil util "); l; l = strstr(l + 1, " cpu2 schedutil util "))
		last = l;
	assert_non_null(last);
	unsigned long util = strtoul(last + strlen(" cpu2 schedutil util "), NULL, 10);
	assert_true(util >= 512);
	free(buf);
}

/*
 * util_est by release (docs/cpufreq.md "util_est by release"), each value
 * worked by hand from the release's text. ue = {enqueued, ewma}.
 */
static void util_est_by_release(void **state)
{
	(void)state;
	struct il_util_est ue;

	assert_int_equal(il_ue_text_of("5.4"), IL_UE_4_17);
	assert_int_equal(il_ue_text_of("5.5"), IL_UE_5_5);
	assert_int_equal(il_ue_text_of("5.12"), IL_UE_5_5);
	assert_int_equal(il_ue_text_of("5.13"), IL_UE_5_13);
	assert_int_equal(il_ue_text_of("6.7"), IL_UE_5_13);
	assert_int_equal(il_ue_text_of("6.8"), IL_UE_6_8);
	assert_int_equal(il_ue_text_of("6.15"), IL_UE_6_8);
	assert_int_equal(il_ue_text_of("6.16"), IL_UE_6_16);
	assert_int_equal(il_ue_text_of("7.1"), IL_UE_6_16);

	/*
	 * 4.17 .. 5.4: the sample is util | 1 (the flag's bit), no fast-up.
	 * {0,0}, util 512: 513 - 0 = 513 outside the margin, ewma = 513 >> 2.
	 */
	ue = (struct il_util_est){ 0, 0 };
	assert_true(il_ue_update(&ue, IL_UE_4_17, 512, 0, 1024));
	assert_int_equal(ue.enqueued, 513);
	assert_int_equal(ue.ewma, 128);
	assert_int_equal(il_ue_task(&ue, IL_UE_4_17), 513); /* max(128, 513) | 1 */
	/* util 500: 501 - 128 = 373; (512 + 373) >> 2 = 221 */
	assert_true(il_ue_update(&ue, IL_UE_4_17, 500, 0, 1024));
	assert_int_equal(ue.ewma, 221);
	assert_int_equal(ue.enqueued, 501);
	/* within 1 % (305 - 300 = 5): nothing written */
	ue = (struct il_util_est){ 300, 300 };
	assert_false(il_ue_update(&ue, IL_UE_4_17, 304, 0, 1024));
	assert_int_equal(ue.enqueued, 300);
	assert_int_equal(ue.ewma, 300);
	assert_int_equal(il_ue_task(&ue, IL_UE_4_17), 301); /* every task adds its | 1 */
	/* util above the capacity: nothing written */
	ue = (struct il_util_est){ 0, 0 };
	assert_false(il_ue_update(&ue, IL_UE_4_17, 1025, 0, 1024));
	assert_int_equal(ue.ewma, 0);

	/* 5.5 .. 5.12: fast-up to util | 1 */
	ue = (struct il_util_est){ 0, 0 };
	assert_true(il_ue_update(&ue, IL_UE_5_5, 512, 0, 1024));
	assert_int_equal(ue.enqueued, 513);
	assert_int_equal(ue.ewma, 513);
	/* 401 - 513 = -112 as an unsigned int, added: (2052 - 112) >> 2 = 485 */
	assert_true(il_ue_update(&ue, IL_UE_5_5, 400, 0, 1024));
	assert_int_equal(ue.ewma, 485);
	assert_int_equal(ue.enqueued, 401);
	assert_int_equal(il_ue_task(&ue, IL_UE_5_5), 485); /* 485 | 1 */
	/* 479 - 485 = -6: within the margin */
	assert_false(il_ue_update(&ue, IL_UE_5_5, 478, 0, 1024));
	assert_int_equal(ue.enqueued, 401);

	/* 5.13 .. 6.7: exact values, fast-up to util */
	ue = (struct il_util_est){ 0, 0 };
	assert_true(il_ue_update(&ue, IL_UE_5_13, 512, 0, 1024));
	assert_int_equal(ue.ewma, 512);
	assert_int_equal(il_ue_task(&ue, IL_UE_5_13), 512);
	/* (2048 - 112) >> 2 = 484 */
	assert_true(il_ue_update(&ue, IL_UE_5_13, 400, 0, 1024));
	assert_int_equal(ue.ewma, 484);
	assert_int_equal(ue.enqueued, 400);
	/* the ewma within 4, but enqueued moved by 80: enqueued alone is written */
	assert_true(il_ue_update(&ue, IL_UE_5_13, 480, 0, 1024));
	assert_int_equal(ue.enqueued, 480);
	assert_int_equal(ue.ewma, 484);
	/* both within: nothing */
	ue = (struct il_util_est){ 478, 484 };
	assert_false(il_ue_update(&ue, IL_UE_5_13, 480, 0, 1024));
	assert_int_equal(ue.enqueued, 478);

	/* 6.8 on: the ewma alone; equal counts as fast-up */
	ue = (struct il_util_est){ 0, 0 };
	assert_true(il_ue_update(&ue, IL_UE_6_8, 512, 0, 1024));
	assert_int_equal(ue.ewma, 512);
	assert_int_equal(il_ue_task(&ue, IL_UE_6_8), 512);
	/* 512 - 400 = 112: (2048 - 112) >> 2 = 484 */
	assert_true(il_ue_update(&ue, IL_UE_6_8, 400, 400, 1024));
	assert_int_equal(ue.ewma, 484);
	/* 4 below: written unchanged (the flag is set) */
	assert_true(il_ue_update(&ue, IL_UE_6_8, 480, 480, 1024));
	assert_int_equal(ue.ewma, 484);
	/* waited to run (util + 10 < runnable): no decrease */
	assert_true(il_ue_update(&ue, IL_UE_6_8, 300, 400, 1024));
	assert_int_equal(ue.ewma, 484);
	/* above the capacity: 6.8 writes nothing, 6.16 decays ((4400 - 75) >> 2) */
	ue = (struct il_util_est){ 0, 1100 };
	assert_false(il_ue_update(&ue, IL_UE_6_8, 1025, 0, 1024));
	assert_int_equal(ue.ewma, 1100);
	assert_true(il_ue_update(&ue, IL_UE_6_16, 1025, 0, 1024));
	assert_int_equal(ue.ewma, 1081);
}

/*
 * Who sees a blocking task's util_est: X runs 2.5 ms on CPU 2, sleeps
 * 200 ms (its util_avg decays by 2^(-200/32), to under 10), runs 3.9 ms
 * and blocks (without invariance, so PELT's clock is the task clock). Its util_est keeps the first activation's util (above 512: a new
 * task starts from half the capacity and ran). Up to 5.11 the dequeue's
 * governor call still finds the estimate in the queue's sum
 * (util_est_dequeue() after dequeue_entity()); from 5.12 (8c1f560c1ea3)
 * it was taken out first, and the queue's decayed util_avg is what is left.
 */
struct uo_st { int x, runs; };

static int uo_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct uo_st *st = stp;
	(void)cfgp;
	(void)err;
	st->x = il_sim_task_add(s, 2, NULL);
	il_sim_task_wake(s, -1, st->x);
	return 0;
}

static void uo_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct uo_st *st = stp;
	(void)cfgp;
	(void)lat;
	/* the second run outlasts its last tick by over 2 ms: the dequeue decays the queue */
	il_sim_task_work(s, task, 0, st->runs ? 3900000 : 2500000);
}

static void uo_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	struct uo_st *st = stp;
	(void)cfgp;
	if (st->runs++ == 0)
		il_sim_task_sleep_until(s, task, il_sim_now(s) + 200000000);
	else
		il_sim_task_block(s, task, -1);
}

static const struct il_workload uo_wl = {
	.name = "util-est-order", .summary = "", .config_size = 1, .state_size = sizeof(struct uo_st),
	.setup = uo_setup, .task_ran = uo_ran, .task_woke = uo_woke,
};

/* The util schedutil read at CPU 2's last update (X's second block). */
static unsigned long last_block_util(const char *rel)
{
	char *buf = traced_run("intel-cascadelake-sp", rel, &uo_wl,
			       "intel_cpufreq:schedutil+invariance=off+rate_limit_us=0", 400000000);
	/* the block: CPU 2's idle entry after X's second run */
	long long blk = -1;
	for (const char *l = strstr(buf, " cpu2 enter state "); l; l = strstr(l + 1, " cpu2 enter state ")) {
		const char *b = l;
		while (b > buf && b[-1] != '\n')
			b--;
		blk = atoll(b);
	}
	const char *last = NULL;
	for (const char *l = strstr(buf, " cpu2 schedutil util "); l; l = strstr(l + 1, " cpu2 schedutil util "))
		last = l;
	assert_non_null(last);
	const char *b = last;
	while (b > buf && b[-1] != '\n')
		b--;
	/* that update is the dequeue's (a few hundred ns before the idle entry) */
	assert_true(atoll(b) <= blk && atoll(b) > blk - 1000);
	unsigned long util = strtoul(last + strlen(" cpu2 schedutil util "), NULL, 10);
	free(buf);
	return util;
}

static void util_est_dequeue_order(void **state)
{
	(void)state;
	assert_true(last_block_util("5.7") > 512);
	assert_true(last_block_util("5.11") > 512);
	assert_true(last_block_util("5.12") < 256);
	assert_true(last_block_util("6.1") < 256);
}

/* A removal per release (update_cfs_rq_load_avg()), each value by hand. */
static void pelt_remove_by_release(void **state)
{
	(void)state;
	unsigned long avg;
	uint64_t sum;

	/* 300 (sum 300 x 47000 + 5000) less 100 at divider 47000 */
	avg = 300, sum = 14105000;
	il_pelt_remove(IL_PELT_RM_SUB, &avg, &sum, 100, 47000);
	assert_int_equal(avg, 200);
	assert_int_equal(sum, 9405000);
	avg = 300, sum = 14105000;
	il_pelt_remove(IL_PELT_RM_REBUILD, &avg, &sum, 100, 47000);
	assert_int_equal(sum, 9400000); /* 200 x 47000: the period's part is lost */
	avg = 300, sum = 14105000;
	il_pelt_remove(IL_PELT_RM_CLAMP, &avg, &sum, 100, 47000);
	assert_int_equal(sum, 9405000); /* above 200 x 46718 */
	/* at the floor: 300 x 46718 less 100 x 47500 = 9265400 < 200 x 46718 = 9343600 */
	avg = 300, sum = 14015400;
	il_pelt_remove(IL_PELT_RM_CLAMP, &avg, &sum, 100, 47500);
	assert_int_equal(sum, 9343600);
	avg = 300, sum = 14015400;
	il_pelt_remove(IL_PELT_RM_SUB, &avg, &sum, 100, 47500);
	assert_int_equal(sum, 9265400);
	/* more than there is: both to 0 */
	avg = 50, sum = 2000000;
	il_pelt_remove(IL_PELT_RM_SUB, &avg, &sum, 100, 47000);
	assert_int_equal(avg, 0);
	assert_int_equal(sum, 0);
}

/*
 * migrate_se_pelt_lag() (6.0, e2f3e35f1f5a): X runs 20 ms on CPU 2 and
 * blocks; W, asleep on CPU 5 since the start, wakes 100 ms later and wakes
 * X onto CPU 5. CPU 2 idled all along, so its queue was last updated at X's
 * block: up to 5.19 X arrives with its util of then (above 512: it started
 * at 512 and ran); from 6.0 it arrives decayed over the 100 ms, by
 * 2^(-100/32), to under a tenth. Read at CPU 5's governor call of X's
 * enqueue (W's own util, blocked for 120 ms, is under 40 by then).
 */
struct lag_st { int x, w, xruns; };

static int lag_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct lag_st *st = stp;
	(void)cfgp;
	(void)err;
	st->x = il_sim_task_add(s, 2, NULL);
	st->w = il_sim_task_add(s, 5, NULL);
	il_sim_task_wake(s, -1, st->x);
	il_sim_task_wake(s, -1, st->w);
	return 0;
}

static void lag_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	struct lag_st *st = stp;
	(void)cfgp;
	(void)lat;
	il_sim_task_work(s, task, 0, task == st->x && st->xruns == 0 ? 20000000 : 10000);
}

static void lag_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	struct lag_st *st = stp;
	(void)cfgp;
	if (task == st->x) {
		st->xruns++;
		il_sim_task_block(s, task, -1);
		return;
	}
	if (il_sim_now(s) < 100000000) {
		il_sim_task_sleep_until(s, task, 120000000);
		return;
	}
	il_sim_task_wake_on(s, 5, st->x, 5);
	il_sim_task_block(s, task, -1);
}

static const struct il_workload lag_wl = {
	.name = "pelt-lag", .summary = "", .config_size = 1, .state_size = sizeof(struct lag_st),
	.setup = lag_setup, .task_ran = lag_ran, .task_woke = lag_woke,
};

/* The util of CPU 5's governor call at X's enqueue (the line at X's wake-up). */
static unsigned long lag_util(const char *rel)
{
	char *buf = traced_run("intel-cascadelake-sp", rel, &lag_wl,
			       "intel_cpufreq:schedutil+util_est=off+rate_limit_us=0", 200000000);
	long long t = trace_time(buf, "cpu5 wakes task 0 on cpu5");
	char upd[64];
	snprintf(upd, sizeof(upd), "\n%lld cpu5 schedutil util ", t);
	const char *l = strstr(buf, upd);
	assert_non_null(l);
	unsigned long util = strtoul(l + strlen(upd), NULL, 10);
	free(buf);
	return util;
}

static void pelt_lag_on_migration(void **state)
{
	(void)state;
	assert_true(lag_util("5.19") > 512);
	assert_true(lag_util("6.0") < 120);
}

/*
 * update_idle_rq_clock_pelt(): X runs 600 ms on CPU 2 capped at 1800 MHz
 * (freq_scale 1800 / 3700 x 1024 = 498), so the PELT clock advances about
 * 292 ms and the queue's util_sum reaches the maximum; X sleeps 10 ms. At
 * the idle switch the queue lost its idle time: its clock does not catch up
 * the ~308 ms, so at X's wake-up its util has decayed over 10 ms only
 * (about 1022 x 2^(-10/32) = 823); caught up, it would have decayed over
 * ~318 ms, to about 1. util_est off: the queue's util_avg is what is read.
 */
struct li_st { int x, runs; };

static int li_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct li_st *st = stp;
	(void)cfgp;
	(void)err;
	st->x = il_sim_task_add(s, 2, NULL);
	il_sim_task_wake(s, -1, st->x);
	return 0;
}

static void li_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	const struct li_st *st = stp;
	(void)cfgp;
	(void)lat;
	il_sim_task_work(s, task, 0, st->runs ? 100000 : 600000000);
}

static void li_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	struct li_st *st = stp;
	(void)cfgp;
	if (st->runs++ == 0)
		il_sim_task_sleep_until(s, task, il_sim_now(s) + 10000000);
	else
		il_sim_task_block(s, task, -1);
}

static const struct il_workload li_wl = {
	.name = "lost-idle", .summary = "", .config_size = 1, .state_size = sizeof(struct li_st),
	.setup = li_setup, .task_ran = li_ran, .task_woke = li_woke,
};

static void lost_idle_time(void **state)
{
	(void)state;
	char *buf = traced_run("intel-cascadelake-sp", "5.7", &li_wl,
			       "intel_cpufreq:schedutil+util_est=off+rate_limit_us=0+max_mhz=1800",
			       700000000);
	/* the first governor call on CPU 2 after its first idle entry: X's wake-up */
	const char *idle = strstr(buf, " cpu2 enter state ");
	assert_non_null(idle);
	const char *l = strstr(idle, " cpu2 schedutil util ");
	assert_non_null(l);
	unsigned long util = strtoul(l + strlen(" cpu2 schedutil util "), NULL, 10);
	free(buf);
	assert_true(util > 700 && util < 900);
}

/*
 * The stopper thread is no fair task (intel-cascadelake-sp runs the
 * watchdog and its stopper): X on CPU 0 runs ~1 ms at the start and
 * blocks; an interrupt wakes it at T, long after. Its enqueue's governor
 * call reads the queue's utilisation, which decayed over the idle time.
 * A wake-up while the stopper runs (T = its start + 442 ns) or while it
 * is queued behind C6's exit (T = its start - 50 us; 6.6's runnable
 * boosting counts queued tasks) must read the same as one just after it
 * ran (T = its start + 5 us): neither the stopper's run nor its place in
 * the queue is CFS time (cfs_rq->curr is NULL, h_nr_running leaves it out).
 */
struct sf_st { int x, runs; };
static int64_t sf_at;

static int sf_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct sf_st *st = stp;
	(void)cfgp;
	(void)err;
	st->x = il_sim_task_add(s, 0, NULL);
	il_sim_task_wake(s, -1, st->x);
	il_sim_irq_at(s, 0, sf_at, st->x);
	return 0;
}

static void sf_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	struct sf_st *st = stp;
	(void)cfgp;
	(void)lat;
	il_sim_task_run(s, task, st->runs++ ? 1000 : 2000000);
}

static void sf_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	(void)cfgp;
	(void)stp;
	il_sim_task_block(s, task, -1);
}

static const struct il_workload sf_wl = {
	.name = "stopper-fair", .summary = "", .config_size = 1, .state_size = sizeof(struct sf_st),
	.setup = sf_setup, .task_ran = sf_ran, .task_woke = sf_woke,
};

/* the utilisation of CPU 0's first governor call at or after the wake-up at sf_at */
static unsigned long sf_util(const char *rel, int64_t at)
{
	sf_at = at;
	char *buf = traced_run("intel-cascadelake-sp", rel, &sf_wl,
			       "intel_cpufreq:schedutil+invariance=on", at + 1000000);
	const char *l = buf;
	unsigned long util = 0;
	while ((l = strstr(l, " cpu0 schedutil util ")) != NULL) {
		const char *b = l;
		while (b > buf && b[-1] != '\n')
			b--;
		if (atoll(b) >= at) {
			util = strtoul(l + strlen(" cpu0 schedutil util "), NULL, 10);
			break;
		}
		l++;
	}
	free(buf);
	assert_true(util > 0);
	return util;
}

static void stopper_not_fair(void **state)
{
	(void)state;
	sf_at = 150000000;
	char *buf = traced_run("intel-cascadelake-sp", "5.7", &sf_wl,
			       "intel_cpufreq:schedutil+invariance=on", 150000000);
	long long st = trace_time(buf, " cpu0 runs its stopper");
	free(buf);
	assert_true(st > 2000000 && st < 149000000);
	unsigned long after = sf_util("5.7", st + 5000);
	assert_int_equal(sf_util("5.7", st + 442), after);
	assert_int_equal(sf_util("6.6", st - 50000), sf_util("6.6", st + 5000));
}

/*
 * schedutil on intel_cpufreq keeps its target unrounded (the driver has no
 * frequency table and no ->resolve_freq: cpufreq_driver_resolve_freq() only
 * clamps), and a new target restarts the 500 us rate limit even where the
 * driver stays at the same P-state. X on CPU 2 runs 2.5 ms and sleeps
 * 0.3 ms over and over under invariant schedutil: its util moves at every
 * PELT period, the 100 MHz P-state less often. So there are more new
 * targets than P-state requests, and no evaluation comes within 500 us
 * after a new target.
 */
struct rt_st { int x; };

static int rt_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct rt_st *st = stp;
	(void)cfgp;
	(void)err;
	st->x = il_sim_task_add(s, 2, NULL);
	il_sim_task_wake(s, -1, st->x);
	return 0;
}

static void rt_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	(void)cfgp;
	(void)stp;
	(void)lat;
	il_sim_task_work(s, task, 0, 2500000);
}

static void rt_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	(void)cfgp;
	(void)stp;
	il_sim_task_sleep_until(s, task, il_sim_now(s) + 300000);
}

static const struct il_workload rt_wl = {
	.name = "raw-target", .summary = "", .config_size = 1, .state_size = sizeof(struct rt_st),
	.setup = rt_setup, .task_ran = rt_ran, .task_woke = rt_woke,
};

static void schedutil_keeps_raw_target(void **state)
{
	(void)state;
	char *buf = traced_run("intel-cascadelake-sp", "5.7", &rt_wl, "intel_cpufreq:schedutil",
			       300000000);
	int targets = 0, requests = 0, evals = 0;
	long long last_target = -1;
	for (const char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		long long t = atoll(l);
		const char *sp = strchr(l, ' ');
		if (!sp)
			break;
		if (!strncmp(sp, " cpu2 schedutil next ", 21)) {
			targets++;
			last_target = t;
		} else if (!strncmp(sp, " cpu2 cpufreq request ", 22)) {
			requests++;
		} else if (!strncmp(sp, " cpu2 schedutil util ", 21)) {
			evals++;
			/* sugov_should_update_freq(): 500 us since the last new target */
			assert_true(last_target < 0 || t - last_target >= 500000);
		}
	}
	free(buf);
	assert_true(evals > 50);
	assert_true(requests > 2);
	assert_true(targets > requests);
}

/*
 * Limits off the ratio grid (intel_pstate_update_perf_limits()): truncated
 * to ratios. max_mhz = 1000 on the Atom's 80 MHz bus clock is ratio 12,
 * 960 MHz, for intel_cpufreq (schedutil's requests at the max) and for
 * intel_pstate's active mode alike; never 1000 (no P-state) nor 1040.
 */
static void limits_off_grid(void **state)
{
	(void)state;
	const char *specs[] = { "intel_cpufreq:schedutil+max_mhz=1000", "intel_pstate:powersave+max_mhz=1000" };
	for (int i = 0; i < 2; i++) {
		char *buf = traced_run("intel-atom-z8350", "5.7", &rt_wl, specs[i], 100000000);
		assert_non_null(strstr(buf, " cpu2 cpufreq request 960 MHz"));
		assert_null(strstr(buf, " cpufreq request 1000 MHz"));
		assert_null(strstr(buf, " cpufreq request 1040 MHz"));
		free(buf);
	}
}

/*
 * ondemand's prev_load (dbs_update()): X on CPU 1 runs 50 ms (load 100 at
 * every 8 ms sample: the policy max), sleeps 200 ms, wakes. The sample at
 * its wake-up spans about 200 ms of idle, more than two sampling periods,
 * so the previous window's load (100) is used once: the request is the
 * max again instead of a frequency for a ~0 % load.
 */
struct od_st { int x; int runs; };

static int od_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct od_st *st = stp;
	(void)cfgp;
	(void)err;
	st->x = il_sim_task_add(s, 1, NULL);
	st->runs = 0;
	il_sim_task_wake(s, -1, st->x);
	return 0;
}

static void od_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	struct od_st *st = stp;
	(void)cfgp;
	(void)lat;
	il_sim_task_work(s, task, 0, st->runs++ ? 5000000 : 50000000);
}

static void od_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	(void)cfgp;
	(void)stp;
	il_sim_task_sleep_until(s, task, il_sim_now(s) + 200000000);
}

static const struct il_workload od_wl = {
	.name = "od", .summary = "", .config_size = 1, .state_size = sizeof(struct od_st),
	.setup = od_setup, .task_ran = od_ran, .task_woke = od_woke,
};

static void ondemand_prev_load(void **state)
{
	(void)state;
	char *buf = traced_run("intel-cascadelake-sp", "5.7", &od_wl, "acpi-cpufreq:ondemand",
			       260000000);
	/* the second run: the last "runs task 0" line */
	const char *last = NULL;
	for (const char *l = strstr(buf, " cpu1 runs task 0 "); l; l = strstr(l + 1, " cpu1 runs task 0 "))
		last = l;
	assert_non_null(last);
	const char *ls = last;
	while (ls > buf && ls[-1] != '\n')
		ls--;
	long long woke = atoll(ls);
	assert_true(woke > 240000000);
	/*
	 * acpi-cpufreq starts at the policy max and the busy samples keep it
	 * there; the sample at the wake-up keeps it too (no request below the
	 * max from then on). Counting that window's own load (about 1 %) would
	 * ask for nearly the lowest P-state.
	 */
	for (const char *l = strstr(buf, " cpu1 cpufreq request "); l;
	     l = strstr(l + 1, " cpu1 cpufreq request ")) {
		const char *b = l;
		while (b > buf && b[-1] != '\n')
			b--;
		/* from the sleep on (the wake-up's sample is at its enqueue, before the exit) */
		if (atoll(b) >= 100000000)
			assert_true(atof(l + strlen(" cpu1 cpufreq request ")) >= 2400);
	}
	assert_true(strstr(last, "cpu1 runs task 0") != NULL);
	free(buf);
}

/*
 * acpi-cpufreq's cpuinfo.max_freq is schedutil's reference with invariance
 * (get_next_freq()). The Skylake client (base 3500, P0 3501 MHz, the table
 * P0, 3500, 3400, ... 800) given _CPC highest 255 over nominal 177: boost
 * ratio 261120 / 177 = 1475 (.25); from 5.12 cpuinfo.max_freq = 3501000 x
 * 1475 >> 10 = 5163975000 / 1024 = 5042944 (.3) kHz (538b0188da46), 5.10
 * P0, 3501000. X (od_wl) runs 50 ms: every request schedutil makes (its
 * "next" right after its "util") is the lowest entry at or above 1.25 x
 * util x the reference / 1024 (5.12: the headroom on the frequency),
 * clamped to the table; some of them differ between the two references.
 * The first, util 512 (a new task's): 5.12 1.25 x 512 x 5042944 / 1024 =
 * 3151840, 3200 MHz; with P0 2188125, 2200 MHz. 5.11 has the same
 * reference and an extra entry at it above P0: util 610 asks for 1.25 x
 * 610 x 5042944 / 1024 = 3755 MHz, above P0: that entry, 5042944.
 */
static char *cppc_platform(bool cpc)
{
	const char *t = NULL;
	size_t len = 0;
	for (int i = 0; i < il_builtin_platform_count; i++)
		if (!strcmp(il_builtin_platforms[i].name, "intel-skylake-client")) {
			t = il_builtin_platforms[i].text;
			len = il_builtin_platforms[i].len;
		}
	assert_non_null(t);
	char *path = strdup("/tmp/idlelab-test-cppc-XXXXXX.ini");
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	const char *b = strstr(t, "base_mhz = 3500\n");
	assert_non_null(b);
	b += strlen("base_mhz = 3500\n");
	/* the text without its acpi_cpc line, the CPPC values after base_mhz */
	for (const char *l = t; l < t + len;) {
		const char *e = memchr(l, '\n', (size_t)(t + len - l));
		e = e ? e + 1 : t + len;
		if (strncmp(l, "acpi_cpc", 8))
			fwrite(l, 1, (size_t)(e - l), f);
		if (e == b && cpc)
			fputs("cppc_highest_perf = 255\ncppc_nominal_perf = 177\n", f);
		l = e;
	}
	fclose(f);
	return path;
}

static unsigned int table_khz(const double *ps, int n, unsigned long raw)
{
	unsigned int best = (unsigned int)(ps[0] * 1000 + 0.5);
	if (raw < (unsigned long)(ps[n - 1] * 1000 + 0.5))
		raw = (unsigned long)(ps[n - 1] * 1000 + 0.5);
	for (int i = 0; i < n; i++) {
		unsigned int e = (unsigned int)(ps[i] * 1000 + 0.5);
		if (e >= raw && e < best)
			best = e;
	}
	return best;
}

/* The requests of a trace checked against ref_khz; returns how many differ with other_khz. */
static int check_requests(const char *buf, const double *ps, int n, unsigned long ref_khz,
			  unsigned long other_khz, int *checked)
{
	long long ut = -1;
	int ucpu = -1, differ = 0;
	unsigned long util = 0;
	*checked = 0;
	for (const char *l = buf; *l;) {
		long long t;
		int cpu;
		unsigned long v;
		if (sscanf(l, "%lld cpu%d schedutil util %lu", &t, &cpu, &v) == 3) {
			ut = t;
			ucpu = cpu;
			util = v;
		} else if (sscanf(l, "%lld cpu%d schedutil next %lu", &t, &cpu, &v) == 3 && t == ut &&
			   cpu == ucpu) {
			unsigned int want = table_khz(ps, n, il_cf_raw_khz(IL_CF_HEADROOM_FREQ, util,
									  ref_khz, true, 1024));
			assert_int_equal(v, want);
			differ += want != table_khz(ps, n, il_cf_raw_khz(IL_CF_HEADROOM_FREQ, util,
									 other_khz, true, 1024));
			(*checked)++;
		}
		const char *e = strchr(l, '\n');
		l = e ? e + 1 : l + strlen(l);
	}
	return differ;
}

static void acpi_cpufreq_cpuinfo_max(void **state)
{
	(void)state;
	double ps[IL_PLAT_PSTATES_MAX];
	struct il_platform *p = calloc(1, sizeof(*p));
	struct il_err e;
	assert_int_equal(il_platform_load(p, "intel-skylake-client", &e), 0);
	int n = il_platform_pstates(p, ps, IL_PLAT_PSTATES_MAX);
	free(p);
	assert_true(n > 2 && ps[0] == 3501);
	char *path = cppc_platform(true);
	int checked;
	char *buf = traced_run(path, "5.12", &od_wl, "acpi-cpufreq:schedutil", 60000000);
	assert_true(check_requests(buf, ps, n, 5042944, 3501000, &checked) > 0);
	assert_true(checked >= 2);
	free(buf);
	/* 5.11: the same reference, and the extra table entry at it above P0 (3c55e94c0ade) */
	double ps11[IL_PLAT_PSTATES_MAX + 1];
	ps11[0] = 5042.944;
	memcpy(&ps11[1], ps, (size_t)n * sizeof(ps[0]));
	buf = traced_run(path, "5.11", &od_wl, "acpi-cpufreq:schedutil", 60000000);
	assert_true(check_requests(buf, ps11, n + 1, 5042944, 3501000, &checked) > 0);
	assert_non_null(strstr(buf, "schedutil next 5042944\n"));
	free(buf);
	buf = traced_run(path, "5.10", &od_wl, "acpi-cpufreq:schedutil", 60000000);
	assert_true(check_requests(buf, ps, n, 3501000, 5042944, &checked) > 0);
	assert_true(checked >= 2);
	free(buf);
	unlink(path);
	free(path);
	/* without _CPC: P0 from 5.11 on too */
	path = cppc_platform(false);
	buf = traced_run(path, "5.12", &od_wl, "acpi-cpufreq:schedutil", 60000000);
	assert_true(check_requests(buf, ps, n, 3501000, 5042944, &checked) > 0);
	free(buf);
	unlink(path);
	free(path);
}

/*
 * ondemand's up_threshold (od_init(), drivers/cpufreq/cpufreq_ondemand.c,
 * every release): MICRO_FREQUENCY_UP_THRESHOLD, 95, when idle time is
 * accounted in microseconds (NO_HZ active: get_cpu_idle_time_us() is not
 * -1; from 7.0 the test is tick_nohz_enabled, "cpufreq: ondemand:
 * Simplify idle cputime granularity test", Frederic Weisbecker, pm-6.20-rc1
 * pull), DEF_FREQUENCY_UP_THRESHOLD, 80, with nohz=off. X on CPU 1 is
 * busy 900 us of every 1 ms (time that does not scale): each 10 ms sample
 * (acpi-cpufreq's 10 us latency on 5.7) reads a load of about 90. With
 * NO_HZ that is below 95: od_update() asks for min + 90 x (max - min) /
 * 100 of cpuinfo's range (1000 .. 2401 MHz), about 2261 MHz, the closest
 * _PSS entry 2300 (RELATION_C); with nohz=off it is above 80: the policy
 * max, where acpi-cpufreq started, so no request at all.
 */
static void ut_woke(const void *cfgp, void *stp, struct il_sim *s, int task, int64_t lat)
{
	(void)cfgp;
	(void)stp;
	(void)lat;
	il_sim_task_work(s, task, 0, 900000);
}

static void ut_ran(const void *cfgp, void *stp, struct il_sim *s, int task)
{
	(void)cfgp;
	(void)stp;
	il_sim_task_sleep_until(s, task, il_sim_now(s) + 100000);
}

static int ut_setup(const void *cfgp, void *stp, struct il_sim *s, struct il_err *err)
{
	struct od_st *st = stp;
	(void)cfgp;
	(void)err;
	st->x = il_sim_task_add(s, 1, NULL);
	il_sim_task_wake(s, -1, st->x);
	return 0;
}

static const struct il_workload ut_wl = {
	.name = "ut", .summary = "", .config_size = 1, .state_size = sizeof(struct od_st),
	.setup = ut_setup, .task_ran = ut_ran, .task_woke = ut_woke,
};

static void ondemand_up_threshold_nohz(void **state)
{
	(void)state;
	char *buf = traced_run("intel-cascadelake-sp", "5.7", &ut_wl, "acpi-cpufreq:ondemand",
			       100000000);
	const char *l = strstr(buf, " cpu1 cpufreq request ");
	assert_non_null(l);
	double mhz = atof(l + strlen(" cpu1 cpufreq request "));
	assert_true(mhz >= 2200 && mhz <= 2300);
	free(buf);
	traced_nohz = false;
	buf = traced_run("intel-cascadelake-sp", "5.7", &ut_wl, "acpi-cpufreq:ondemand", 100000000);
	traced_nohz = true;
	assert_null(strstr(buf, " cpu1 cpufreq request "));
	free(buf);
}

static void ondemand_load(void **state)
{
	(void)state;
	/* every CPU busy: load 100 > up_threshold (95 under NO_HZ), the policy max; the 24C bin delivers */
	struct il_wl_opt o[3];
	il_wl_opt_parse("jobs=96", &o[0], NULL);
	il_wl_opt_parse("wait=0", &o[1], NULL);
	il_wl_opt_parse("short_procs=0", &o[2], NULL);
	struct il_platform *p = calloc(1, sizeof(*p));
	struct il_machine_idle m;
	struct il_err e;
	assert_int_equal(il_platform_load(p, "intel-cascadelake-sp", &e), 0);
	assert_int_equal(il_machine_idle_build(p, NULL, &m, &e), 0);
	struct il_gov *g = il_gov_new("menu", il_platform_ncpus(p), &e);
	const struct il_workload *wl = il_workload_find("kernbench");
	void *cfg = calloc(1, wl->config_size);
	assert_int_equal(il_workload_configure(wl, cfg, o, 3, &e), 0);
	struct il_sim_params prm;
	il_sim_params_default(&prm);
	prm.duration_ns = 300000000;
	/* intel_cpufreq starts every CPU at its lowest P-state: ondemand's first samples raise it */
	prm.warmup_ns = 50000000;
	assert_int_equal(il_cpufreq_parse("ondemand", &prm.cpufreq, &e), 0);
	struct il_sim *s = il_sim_new(p, &m, g, wl, cfg, &prm, &e);
	assert_non_null(s);
	assert_int_equal(il_sim_run(s, &e), 0);
	struct il_sim_result r;
	assert_int_equal(il_sim_result(s, &r, &e), 0);
	double mhz = 0;
	for (int i = 0; i < r.metrics.n; i++)
		if (!strcmp(r.metrics.m[i].row, "cpufreq") && !strcmp(r.metrics.m[i].col, "mean_mhz"))
			mhz = r.metrics.m[i].value;
	assert_true(fabs(mhz - 3100) < 1e-6);
	il_sim_result_free(&r);
	il_sim_free(s);
	il_gov_free(g);
	free(cfg);
	free(p);
	/* a serial chain: load well below up_threshold on each CPU, between EFFIC and the top */
	double git = run_metric("intel-cascadelake-sp", "gitsource", "ondemand", "cpufreq", "mean_mhz",
				500000000);
	assert_true(git > 1000 && git < 3900);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decay_load),
		cmocka_unit_test(pelt_one_period),
		cmocka_unit_test(pelt_half_life),
		cmocka_unit_test(pelt_div_exact),
		cmocka_unit_test(pelt_runnable),
		cmocka_unit_test(schedutil_formulas),
		cmocka_unit_test(pstate_target),
		cmocka_unit_test(freq_max_rule),
		cmocka_unit_test(spec_parse),
		cmocka_unit_test(performance_is_the_default),
		cmocka_unit_test(invariance_helps_gitsource),
		cmocka_unit_test(busy_rule_reads_tick_stops),
		cmocka_unit_test(ondemand_load),
		cmocka_unit_test(remote_wake_updates),
		cmocka_unit_test(rate_limit_by_release),
		cmocka_unit_test(removal_updates),
		cmocka_unit_test(exit_dequeue_reads_util),
		cmocka_unit_test(util_est_by_release),
		cmocka_unit_test(util_est_dequeue_order),
		cmocka_unit_test(pelt_remove_by_release),
		cmocka_unit_test(pelt_lag_on_migration),
		cmocka_unit_test(lost_idle_time),
		cmocka_unit_test(stopper_not_fair),
		cmocka_unit_test(schedutil_keeps_raw_target),
		cmocka_unit_test(limits_off_grid),
		cmocka_unit_test(ondemand_prev_load),
		cmocka_unit_test(acpi_cpufreq_cpuinfo_max),
		cmocka_unit_test(ondemand_up_threshold_nohz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
