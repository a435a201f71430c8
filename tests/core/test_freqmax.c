// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_max of x86 frequency invariance, per model and release, each value
 * worked out by hand from the bins below (src/platform/freqmax.c has the
 * kernel's rules and where they come from).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/platform.h"

static void load(struct il_platform *p, const char *cpu, const char *turbo, const char *extra)
{
	char text[2048];
	struct il_err e;

	snprintf(text, sizeof(text), "[platform]\nname = t\n[cpu]\n%s\n[turbo]\n%s\n%s", cpu, turbo,
		 extra ? extra : "");
	if (il_platform_load_string(p, text, strlen(text), "t.ini", &e))
		fail_msg("%s:%d: %s\n%s", e.file, e.line, e.msg, text);
}

static struct il_freq_max fm(const struct il_platform *p, const char *rel)
{
	struct il_freq_max o;
	struct il_err e;

	assert_int_equal(il_platform_freq_max(p, rel, &o, &e), 0);
	return o;
}

#define INTEL(model, base) "vendor = intel\nfamily = 6\nmodel = " model "\nbase_mhz = " base

/* Cascade Lake 8260L: groups 1 2 4 8 12 16 20 24; the first of >= 4 cores is 4: 3700 MHz. */
static void skylake_x_group(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_freq_max o;

	load(&p, INTEL("0x55", "2400"), "24 = 3100\n20 = 3300\n16 = 3600\n12 = 3600\n8 = 3600\n"
	     "4 = 3700\n2 = 3900\n1 = 3900", NULL);
	o = fm(&p, "5.7");
	assert_int_equal(o.rule, IL_FMAX_SKX_GROUP4);
	assert_true(o.invariant);
	assert_true(o.mhz == 3700 && o.turbo_mhz == 3700 && o.base_mhz == 2400);
	assert_int_equal(o.ratio, 1578); /* 3700 x 1024 / 2400 = 1578.67 */
	assert_string_equal(o.since, "5.7");
	assert_true(il_platform_freq_max_mhz(&p, "7.1") == 3700);
	/* before the series: none */
	o = fm(&p, "5.6");
	assert_int_equal(o.rule, IL_FMAX_NONE);
	assert_false(o.invariant);
	assert_true(o.mhz == 0);
	assert_null(o.since);
	assert_non_null(strstr(o.why, "before 5.7"));
	assert_true(il_platform_freq_max_mhz(&p, "5.4") == 0);

	/* groups 2, 8, 16: the first of >= 4 cores is 8, whose bin covers 3..8 cores */
	load(&p, INTEL("0x55", "2000"), "2 = 3500\n8 = 3000\n16 = 2600", NULL);
	o = fm(&p, "6.1");
	assert_int_equal(o.rule, IL_FMAX_SKX_GROUP4);
	assert_true(o.mhz == 3000);
	assert_int_equal(o.ratio, 1536);
	assert_non_null(strstr(o.why, "(8,"));
	/* fewer than 4 cores on 0x55: no group of 4, the 4C byte is 0: 1C */
	load(&p, INTEL("0x55", "3000"), "1 = 3600\n2 = 3400", NULL);
	o = fm(&p, "6.1");
	assert_int_equal(o.rule, IL_FMAX_CORE_1C);
	assert_true(o.mhz == 3600);
}

/* E3-1240 v5 (model 0x5e): 4C 3700 over base 3500; a 2-core part: the 1C bin. */
static void core_4c(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_freq_max o;

	load(&p, INTEL("0x5e", "3500"), "4 = 3700\n3 = 3800\n2 = 3900\n1 = 3900", NULL);
	o = fm(&p, NULL); /* no release in the file: the newest */
	assert_int_equal(o.rule, IL_FMAX_CORE_4C);
	assert_true(o.mhz == 3700);
	assert_int_equal(o.ratio, 1082); /* 3700 x 1024 / 3500 = 1082.5 */
	assert_string_equal(o.what, "4C turbo");
	/* Haswell-EP E5-2670 v3: 4 active cores 2800 MHz, 6..11 from the 12 count */
	load(&p, INTEL("0x3f", "2300"), "12 = 2600\n5 = 2700\n4 = 2800\n3 = 2900\n2 = 3100\n1 = 3100",
	     NULL);
	assert_true(il_platform_freq_max_mhz(&p, "5.10") == 2800);
	/* a gap at 4: the nearest listed count above gives it */
	load(&p, INTEL("0x4f", "2200"), "8 = 3000\n2 = 3500\n1 = 3600", NULL);
	assert_true(il_platform_freq_max_mhz(&p, "5.10") == 3000);
	/* 2 cores: byte 3 of MSR_TURBO_RATIO_LIMIT is 0, the kernel takes byte 0 */
	load(&p, INTEL("0x4e", "2400"), "2 = 2800\n1 = 3000", NULL);
	o = fm(&p, "5.15");
	assert_int_equal(o.rule, IL_FMAX_CORE_1C);
	assert_true(o.mhz == 3000);
	assert_int_equal(o.ratio, 1280);
}

/* Xeon Phi 7255: 30 cores 1200, 68 cores 1100, base 1100: the second-highest, 1100. */
static void xeon_phi(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_freq_max o;

	load(&p, INTEL("0x57", "1100"), "30 = 1200\n68 = 1100", NULL);
	o = fm(&p, "5.7");
	assert_int_equal(o.rule, IL_FMAX_KNL);
	assert_true(o.invariant);
	assert_true(o.mhz == 1100);
	assert_int_equal(o.ratio, 1024);
	/* equal bins are skipped (delta 0): 1..4 1500, 8 1500, 16 1400 gives 1400 */
	load(&p, INTEL("0x85", "1300"), "4 = 1500\n8 = 1500\n16 = 1400\n72 = 1300", NULL);
	assert_true(il_platform_freq_max_mhz(&p, "6.6") == 1400);
	/* the first lower bin in group 5 (the 6th listed count) is still read */
	load(&p, INTEL("0x57", "1000"), "1 = 1500\n2 = 1500\n3 = 1500\n4 = 1500\n5 = 1500\n6 = 1400",
	     NULL);
	assert_true(il_platform_freq_max_mhz(&p, "6.6") == 1400);
	/* in group 6 the loop ends first: the kernel leaves the ratio unset */
	load(&p, INTEL("0x57", "1000"), "1 = 1500\n2 = 1500\n3 = 1500\n4 = 1500\n5 = 1500\n"
	     "6 = 1500\n7 = 1400", NULL);
	o = fm(&p, "6.6");
	assert_int_equal(o.rule, IL_FMAX_KNL);
	assert_false(o.invariant);
	assert_non_null(strstr(o.why, "unset"));
	/* one bin only: likewise */
	load(&p, INTEL("0x57", "1000"), "64 = 1300", NULL);
	assert_false(fm(&p, "6.6").invariant);
}

/* Atoms: Goldmont the highest group, Airmont the 1-core turbo. */
static void atoms(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_freq_max o;

	load(&p, INTEL("0x5c", "1100"), "4 = 2200\n2 = 2400\n1 = 2500", NULL);
	o = fm(&p, "5.7");
	assert_int_equal(o.rule, IL_FMAX_GOLDMONT);
	assert_true(o.mhz == 2500);
	/* x5-Z8350 (Airmont): base 1440, 4C 1680, 1C 1920: ratios 18 and 24 of 80 MHz */
	load(&p, INTEL("0x4c", "1440"), "4 = 1680\n3 = 1680\n2 = 1920\n1 = 1920", NULL);
	o = fm(&p, "5.7");
	assert_int_equal(o.rule, IL_FMAX_ATOM_1C);
	assert_true(o.mhz == 1920);
	assert_int_equal(o.ratio, 1365); /* 24 x 1024 / 18 = 1365.3 */
	/* an Atom whose MSRs idlelab does not know */
	load(&p, INTEL("0x5a", "1330"), "1 = 2330", NULL);
	assert_int_equal(fm(&p, "6.1").rule, IL_FMAX_UNMODELLED);
}

/* Turbo off at boot: freq_max = base (ratio 1024); the turbo figures stay for when it returns. */
static void turbo_off(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_freq_max o;

	load(&p, INTEL("0x5e", "3500"), "4 = 3700\n1 = 3900",
	     "[cpufreq]\nefficient_mhz = 800\nturbo = no\n");
	o = fm(&p, "6.1");
	assert_true(o.invariant);
	assert_true(o.mhz == 3500);
	assert_int_equal(o.ratio, 1024);
	assert_true(o.turbo_mhz == 3700);
	assert_int_equal(o.turbo_ratio, 1082);
}

/* Where the kernel has none, or idlelab cannot say. */
static void no_invariance(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_freq_max o;
	struct il_err e;

	load(&p, "vendor = amd\nfamily = 0x19\nmodel = 1\nbase_mhz = 2450", "1 = 3500", NULL);
	assert_int_equal(fm(&p, "5.10").rule, IL_FMAX_NONE);
	assert_int_equal(fm(&p, "5.11").rule, IL_FMAX_UNMODELLED);
	load(&p, INTEL("0x55", "2400") "\nhypervisor = kvm", "4 = 3700", NULL);
	assert_int_equal(fm(&p, "6.1").rule, IL_FMAX_NONE);
	load(&p, "arch = powerpc\nvendor = ibm\nbase_mhz = 3000", "1 = 3500", NULL);
	assert_int_equal(fm(&p, "6.1").rule, IL_FMAX_NONE);
	load(&p, INTEL("0x55", "2400"), "", NULL);
	o = fm(&p, "6.1");
	assert_int_equal(o.rule, IL_FMAX_UNMODELLED);
	assert_non_null(strstr(o.why, "[turbo]"));
	load(&p, INTEL("0x97", "2400"), "1 = 4700", NULL); /* Alder Lake: hybrid */
	assert_int_equal(fm(&p, "6.12").rule, IL_FMAX_UNMODELLED);
	/* a release outside the range */
	assert_int_equal(il_platform_freq_max(&p, "4.19", &o, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "5.4"));
	assert_true(il_platform_freq_max_mhz(&p, "9.0") == 0);
}

#define AMD(fam, model) "vendor = amd\nfamily = " fam "\nmodel = " model "\nbase_mhz = 2450"

static struct il_freq_max amd(const char *cpu, const char *rel)
{
	struct il_platform p;

	load(&p, cpu, "", NULL);
	return fm(&p, rel);
}

/*
 * AMD: ratio = (N x 1024 / nominal_perf + 1024) >> 1 in integers, by hand:
 *   N 228, nominal 177: 233472 / 177 = 1319 (.05), (1319 + 1024) >> 1 = 1171
 *   N 255:              261120 / 177 = 1475 (.25), 2499 >> 1 = 1249
 *   N 166:              169984 / 177 =  960 (.36), 1984 >> 1 =  992
 *   N 196:              200704 / 177 = 1133 (.92), 2157 >> 1 = 1078
 *   N 150:              153600 / 177 =  867 (.80), 1891 >> 1 =  945
 */
#define CPPC(h, n, pc) "\ncppc_highest_perf = " h "\ncppc_nominal_perf = " n \
	"\ncppc_preferred_cores = " pc
static void amd_cppc(void **unused)
{
	(void)unused;
	struct il_freq_max o;

	/* Zen 3 Milan (family 0x19 model 1), no preferred cores */
	o = amd(AMD("0x19", "1") CPPC("228", "177", "no"), "5.10");
	assert_int_equal(o.rule, IL_FMAX_NONE);
	assert_non_null(strstr(o.why, "Intel-only before 5.11"));
	o = amd(AMD("0x19", "1") CPPC("228", "177", "no"), "5.11");
	assert_int_equal(o.rule, IL_FMAX_AMD_CPPC);
	assert_true(o.invariant);
	assert_int_equal(o.ratio, 1171);
	assert_int_equal(o.turbo_ratio, 1171);
	assert_int_equal(o.numerator, 228);
	assert_string_equal(o.since, "5.11");
	assert_true(o.mhz > 2801.70 && o.mhz < 2801.72); /* 2450 x 1171 / 1024 = 2801.709 */
	assert_true(o.base_mhz == 2450);
	assert_int_equal(amd(AMD("0x19", "1") CPPC("228", "177", "no"), "5.12").ratio, 1171);
	/* 5.13: 255 for this model, highest_perf not read */
	o = amd(AMD("0x19", "1") CPPC("228", "177", "no"), "5.13");
	assert_int_equal(o.rule, IL_FMAX_AMD_MODEL);
	assert_int_equal(o.numerator, 255);
	assert_int_equal(o.ratio, 1249);
	assert_string_equal(o.since, "5.13");
	assert_int_equal(amd(AMD("0x19", "1") CPPC("228", "177", "no"), "6.11").ratio, 1249);
	/* 6.12: CPU 0's highest_perf again without preferred cores */
	o = amd(AMD("0x19", "1") CPPC("228", "177", "no"), "6.12");
	assert_int_equal(o.rule, IL_FMAX_AMD_NUMERATOR);
	assert_int_equal(o.numerator, 228);
	assert_int_equal(o.ratio, 1171);
	assert_string_equal(o.since, "6.12");
	assert_int_equal(amd(AMD("0x19", "1") CPPC("228", "177", "no"), "7.1").ratio, 1171);
	/* with preferred cores: 166 */
	o = amd(AMD("0x19", "1") CPPC("228", "177", "yes"), "6.12");
	assert_int_equal(o.numerator, 166);
	assert_int_equal(o.ratio, 992);
	/* the 166 models of 5.13 .. 6.11, each edge of each range */
	static const char *const m166[][2] = { { "0x17", "0x30" }, { "0x17", "0x3f" },
					       { "0x17", "0x70" }, { "0x17", "0x7f" },
					       { "0x19", "0x20" }, { "0x19", "0x2f" },
					       { "0x19", "0x40" }, { "0x19", "0x6f" } };
	static const char *const m255[][2] = { { "0x17", "0x2f" }, { "0x17", "0x40" },
					       { "0x17", "0x6f" }, { "0x17", "0x80" },
					       { "0x19", "0x1f" }, { "0x19", "0x30" },
					       { "0x19", "0x70" }, { "0x1a", "0x44" } };
	for (size_t i = 0; i < 8; i++) {
		char cpu[256];

		snprintf(cpu, sizeof(cpu), "vendor = amd\nfamily = %s\nmodel = %s\nbase_mhz = 2450"
			 "\ncppc_nominal_perf = 177", m166[i][0], m166[i][1]);
		o = amd(cpu, "5.13");
		if (o.numerator != 166 || o.ratio != 992)
			fail_msg("%s/%s: %lu, %lu", m166[i][0], m166[i][1], o.numerator, o.ratio);
		snprintf(cpu, sizeof(cpu), "vendor = amd\nfamily = %s\nmodel = %s\nbase_mhz = 2450"
			 "\ncppc_nominal_perf = 177", m255[i][0], m255[i][1]);
		o = amd(cpu, "6.11");
		if (o.numerator != 255 || o.ratio != 1249)
			fail_msg("%s/%s: %lu, %lu", m255[i][0], m255[i][1], o.numerator, o.ratio);
	}
	/* 5.12 on a 166 model: still the register */
	assert_int_equal(amd(AMD("0x17", "0x31") CPPC("228", "177", "no"), "5.12").numerator, 228);
	/* family 0x19 models 0x70..0x7f with preferred cores: 196 from 6.12 */
	o = amd(AMD("0x19", "0x74") CPPC("228", "177", "yes"), "6.12");
	assert_int_equal(o.numerator, 196);
	assert_int_equal(o.ratio, 1078);
	assert_int_equal(amd(AMD("0x19", "0x74") CPPC("228", "177", "no"), "6.12").numerator, 228);
	assert_int_equal(amd(AMD("0x19", "0x74") CPPC("228", "177", "yes"), "6.11").numerator, 255);
	/* heterogeneous parts: the core type counts from 6.13 */
	o = amd(AMD("0x1a", "0x24") CPPC("150", "177", "yes") "\namd_core_type = performance", "6.12");
	assert_int_equal(o.numerator, 166);
	o = amd(AMD("0x1a", "0x24") CPPC("150", "177", "yes") "\namd_core_type = performance", "6.13");
	assert_int_equal(o.numerator, 196);
	assert_int_equal(o.ratio, 1078);
	o = amd(AMD("0x1a", "0x24") CPPC("150", "177", "yes") "\namd_core_type = efficiency", "6.13");
	assert_int_equal(o.numerator, 150);
	assert_int_equal(o.ratio, 945);
	o = amd(AMD("0x1a", "0x24") CPPC("150", "177", "no") "\namd_core_type = performance", "6.13");
	assert_int_equal(o.numerator, 150); /* no preferred cores: the register */
	/* turbo off at boot changes nothing on AMD: the kernel always passes turbo on */
	struct il_platform p;

	load(&p, AMD("0x19", "1") CPPC("228", "177", "no"), "", "[cpufreq]\nefficient_mhz = 1500\nturbo = no\n");
	assert_true(p.turbo_disabled);
	o = fm(&p, "6.18");
	assert_int_equal(o.ratio, 1171);
	assert_true(o.mhz == o.turbo_mhz);
}

/*
 * AMD with acpi-cpufreq: the driver's boost ratio for a policy is 0 when
 * its numerator (the same N the invariance code takes) is 0 or below
 * nominal_perf, and the driver then asks for freq_max = base, ratio 1024
 * (d11a1d08a082, 5.11-rc7), after the CPPC code has set its own ratio.
 */
#define ACF "[cpufreq]\nefficient_mhz = 1500\ndriver = acpi-cpufreq\n"
static void amd_acpi_cpufreq(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_freq_max o;

	/* 6.12, preferred cores: 166 below nominal 177 */
	load(&p, AMD("0x19", "1") CPPC("228", "177", "yes"), "", ACF);
	o = fm(&p, "6.12");
	assert_true(o.invariant);
	assert_int_equal(o.numerator, 166);
	assert_int_equal(o.turbo_ratio, 992);
	assert_int_equal(o.ratio, 1024);
	assert_true(o.mhz == 2450);
	assert_non_null(strstr(o.why, "acpi-cpufreq"));
	/* 5.13 .. 6.11 take 255 on model 1: at or above nominal, no change */
	assert_int_equal(fm(&p, "6.11").ratio, 1249);
	/* without acpi-cpufreq the CPPC ratio stands */
	load(&p, AMD("0x19", "1") CPPC("228", "177", "yes"), "", NULL);
	o = fm(&p, "6.12");
	assert_int_equal(o.ratio, 992);
	assert_true(o.mhz == o.turbo_mhz);
	/* 5.11: CPU 0's highest_perf 150 below nominal 177 */
	load(&p, AMD("0x19", "1") CPPC("150", "177", "no"), "", ACF);
	o = fm(&p, "5.11");
	assert_int_equal(o.turbo_ratio, 945);
	assert_int_equal(o.ratio, 1024);
	/* 6.12 on, a zero highest_perf: 512 from the CPPC code, 1024 after the driver */
	load(&p, AMD("0x19", "1") CPPC("0", "177", "no"), "", ACF);
	o = fm(&p, "7.1");
	assert_int_equal(o.turbo_ratio, 512);
	assert_int_equal(o.ratio, 1024);
	/* 5.13: a 166 model with nominal_perf 200; equal values keep the ratio */
	load(&p, AMD("0x19", "0x21") "\ncppc_nominal_perf = 200", "", ACF);
	assert_int_equal(fm(&p, "5.13").ratio, 1024);
	assert_int_equal(fm(&p, "5.13").turbo_ratio, (166 * 1024 / 200 + 1024) >> 1);
	load(&p, AMD("0x19", "1") CPPC("177", "177", "no"), "", ACF);
	o = fm(&p, "5.12");
	assert_int_equal(o.ratio, 1024);
	assert_true(strstr(o.why, "acpi-cpufreq") == NULL);
}

/* AMD where the file lacks what a release reads, or the kernel has none. */
static void amd_missing(void **unused)
{
	(void)unused;
	struct il_freq_max o;
	struct il_platform p;
	struct il_err e;
	char text[256];

	/* no nominal_perf: every release from 5.11 */
	o = amd(AMD("0x19", "1") "\ncppc_highest_perf = 228", "5.11");
	assert_int_equal(o.rule, IL_FMAX_UNMODELLED);
	assert_false(o.invariant);
	assert_non_null(strstr(o.why, "cppc_nominal_perf not given"));
	assert_int_equal(amd(AMD("0x19", "1") "\ncppc_highest_perf = 228", "7.1").rule,
			 IL_FMAX_UNMODELLED);
	/* 5.11 and 5.12 read highest_perf; 5.13 .. 6.11 do not */
	o = amd(AMD("0x19", "1") "\ncppc_nominal_perf = 177", "5.12");
	assert_int_equal(o.rule, IL_FMAX_UNMODELLED);
	assert_non_null(strstr(o.why, "cppc_highest_perf not given"));
	assert_int_equal(amd(AMD("0x19", "1") "\ncppc_nominal_perf = 177", "5.13").ratio, 1249);
	/* 6.12: the preferred-core fact, and highest_perf without preferred cores */
	o = amd(AMD("0x19", "1") "\ncppc_nominal_perf = 177", "6.12");
	assert_int_equal(o.rule, IL_FMAX_UNMODELLED);
	assert_non_null(strstr(o.why, "cppc_preferred_cores not given"));
	o = amd(AMD("0x19", "1") "\ncppc_nominal_perf = 177\ncppc_preferred_cores = no", "6.12");
	assert_int_equal(o.rule, IL_FMAX_UNMODELLED);
	assert_non_null(strstr(o.why, "cppc_highest_perf not given"));
	o = amd(AMD("0x19", "1") "\ncppc_nominal_perf = 177\ncppc_preferred_cores = yes", "6.12");
	assert_int_equal(o.ratio, 992);
	/* zeros: the kernel leaves invariance off */
	o = amd(AMD("0x19", "1") CPPC("0", "177", "no"), "5.11");
	assert_int_equal(o.rule, IL_FMAX_NONE);
	assert_non_null(strstr(o.why, "highest_perf is 0"));
	o = amd(AMD("0x19", "1") CPPC("228", "0", "no"), "5.13");
	assert_int_equal(o.rule, IL_FMAX_NONE);
	assert_non_null(strstr(o.why, "nominal_perf is 0"));
	/* 6.12 without the non-zero check: highest_perf 0 gives (0 + 1024) >> 1 = 512 */
	o = amd(AMD("0x19", "1") CPPC("0", "177", "no"), "6.12");
	assert_true(o.invariant);
	assert_int_equal(o.ratio, 512);
	/* no base_mhz: no MHz to give */
	o = amd("vendor = amd\nfamily = 0x19\nmodel = 1" CPPC("228", "177", "no"), "6.18");
	assert_int_equal(o.rule, IL_FMAX_UNMODELLED);
	/* Hygon: the kernel's test is X86_VENDOR_AMD */
	o = amd("vendor = hygon\nfamily = 0x18\nmodel = 0\nbase_mhz = 2000" CPPC("228", "177", "no"),
		"6.18");
	assert_int_equal(o.rule, IL_FMAX_NONE);
	/* guests: none, as on Intel */
	o = amd(AMD("0x19", "1") CPPC("228", "177", "no") "\nhypervisor = kvm", "6.18");
	assert_int_equal(o.rule, IL_FMAX_NONE);
	/* the keys' checks */
	snprintf(text, sizeof(text), "[platform]\nname = t\n[cpu]\ncppc_highest_perf = -1\n");
	assert_int_equal(il_platform_load_string(&p, text, strlen(text), "t.ini", &e), -EINVAL);
	assert_non_null(strstr(e.msg, "cppc_highest_perf"));
	snprintf(text, sizeof(text), "[platform]\nname = t\n[cpu]\ncppc_nominal_perf = 0x100000000\n");
	assert_int_equal(il_platform_load_string(&p, text, strlen(text), "t.ini", &e), -EINVAL);
	snprintf(text, sizeof(text), "[platform]\nname = t\n[cpu]\ncppc_preferred_cores = maybe\n");
	assert_int_equal(il_platform_load_string(&p, text, strlen(text), "t.ini", &e), -EINVAL);
	snprintf(text, sizeof(text), "[platform]\nname = t\n[cpu]\namd_core_type = big\n");
	assert_int_equal(il_platform_load_string(&p, text, strlen(text), "t.ini", &e), -EINVAL);
	assert_non_null(strstr(e.msg, "performance or efficiency"));
	/* not given: -1 */
	snprintf(text, sizeof(text), "[platform]\nname = t\n[cpu]\nvendor = amd\n");
	assert_int_equal(il_platform_load_string(&p, text, strlen(text), "t.ini", &e), 0);
	assert_true(p.cppc_highest_perf == -1 && p.cppc_nominal_perf == -1);
	assert_int_equal(p.cppc_preferred_cores, -1);
	assert_int_equal(p.amd_core_type, IL_AMD_CORE_NONE);
}

/* The built-in platforms of the series: each freq_max by its rule, as the files' comments say. */
static void builtin_platforms(void **unused)
{
	(void)unused;
	static const struct {
		const char *name;
		enum il_freq_max_rule rule;
		double mhz;
		unsigned long ratio;
	} want[] = {
		{ "intel-cascadelake-sp", IL_FMAX_SKX_GROUP4, 3700, 1578 },  /* 3700 / 2400 */
		{ "intel-skylake-client", IL_FMAX_CORE_4C, 3700, 1082 },     /* 3700 / 3500 */
		{ "intel-haswell-ep", IL_FMAX_CORE_4C, 2800, 1246 },         /* 2800 / 2300 */
		{ "intel-atom-z8350", IL_FMAX_ATOM_1C, 1920, 1365 },         /* 24 / 18 */
		{ "intel-xeon-phi-7255", IL_FMAX_KNL, 1100, 1024 },          /* 68C bin = base */
		{ "intel-broadwell-ep", IL_FMAX_UNMODELLED, 0, 0 },          /* no [turbo] */
		{ "amd-zen3-epyc", IL_FMAX_NONE, 0, 0 },                     /* acpi_cpc = no */
		{ "kvm-haltpoll", IL_FMAX_NONE, 0, 0 },
		{ "ibm-power10-shared", IL_FMAX_NONE, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct il_platform p;
		struct il_freq_max o;
		struct il_err e;

		assert_int_equal(il_platform_load(&p, want[i].name, &e), 0);
		o = fm(&p, "6.18");
		if (o.rule != want[i].rule || o.mhz != want[i].mhz || o.ratio != want[i].ratio)
			fail_msg("%s: rule %d %g MHz ratio %lu (%s)", want[i].name, o.rule, o.mhz,
				 o.ratio, o.why);
		assert_int_equal(fm(&p, "5.6").rule, IL_FMAX_NONE); /* none anywhere before 5.7 */
		/* each built-in file says whether it has _CPC; none cites one that does */
		assert_int_equal(p.acpi_cpc, 0);
	}
}

/*
 * acpi-cpufreq's cpuinfo.max_freq and freq_max (il_acpi_cpufreq_max(),
 * il_freq_max_acpi_cpufreq()), by hand. A made-up Intel part: base 2100, 4C
 * turbo 3000 (MSR freq_max: 3000 x 1024 / 2100 = 1462.86, ratio 1462), the
 * _PSS table topped by base + 1 MHz, P0 = 2101000 kHz; _CPC highest 255 over
 * nominal 177: boost ratio 261120 / 177 = 1475 (.25).
 *   P0 x ratio:          2101000 x 1475 = 3098975000, >> 10 = 3026342 (.77)
 *   nominal_freq 2100 kHz-wise (6.16): 2100000 x 1475 >> 10 = 3024902 (.34)
 *   the same in MHz (6.14, 6.15): 2100 x 1475 >> 10 = 3024, below P0: P0
 */
#define ACPI_CF "[cpufreq]\nefficient_mhz = 800\ndriver = acpi-cpufreq\n"
#define INTEL_2100 INTEL("0x5e", "2100")
#define TURBO_2100 "4 = 3000\n3 = 3000\n2 = 3200\n1 = 3400"

static struct il_acpi_cpufreq acf(const struct il_platform *p, const char *rel)
{
	struct il_acpi_cpufreq a;
	double ps[IL_PLAT_PSTATES_MAX];

	assert_true(il_platform_pstates(p, ps, IL_PLAT_PSTATES_MAX) > 0);
	assert_int_equal(il_acpi_cpufreq_max(p, rel, ps[0], &a), 0);
	return a;
}

static void acpi_cpufreq_intel_cpc(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_acpi_cpufreq a;
	struct il_freq_max o;

	load(&p, INTEL_2100 "\ncppc_highest_perf = 255\ncppc_nominal_perf = 177", TURBO_2100,
	     ACPI_CF);
	assert_int_equal(p.acpi_cpc, 1); /* implied by the values */
	/* 5.10: no boost ratio; cpuinfo.max_freq is P0, freq_max the MSR's */
	a = acf(&p, "5.10");
	assert_int_equal(a.boost_ratio, 0);
	assert_false(a.ratio_1024);
	assert_int_equal(a.max_khz, 2101000);
	o = fm(&p, "5.10");
	assert_true(o.mhz == 3000);
	assert_int_equal(o.ratio, 1462);
	/* 5.11: the extra table entry (3c55e94c0ade); freq_max stays the MSR's */
	a = acf(&p, "5.11");
	assert_int_equal(a.boost_ratio, 1475);
	assert_true(a.boost_entry);
	assert_false(a.ratio_1024);
	assert_int_equal(a.max_khz, 3026342);
	o = fm(&p, "5.11");
	assert_true(o.mhz == 3000);
	assert_int_equal(o.ratio, 1462);
	/* 5.12 (538b0188da46) and 6.18: set directly, no extra entry */
	a = acf(&p, "5.12");
	assert_false(a.boost_entry);
	assert_int_equal(a.max_khz, 3026342);
	a = acf(&p, "6.18");
	assert_int_equal(a.max_khz, 3026342);
	assert_int_equal(fm(&p, "6.18").ratio, 1462);
	/* _CPC nominal_freq: 6.14 takes its MHz as kHz (P0 back), 6.16 scales it */
	load(&p, INTEL_2100 "\ncppc_highest_perf = 255\ncppc_nominal_perf = 177\n"
	     "cppc_nominal_freq = 2100", TURBO_2100, ACPI_CF);
	assert_int_equal(acf(&p, "6.13").max_khz, 3026342);
	assert_int_equal(acf(&p, "6.14").max_khz, 2101000);
	assert_int_equal(acf(&p, "6.15").max_khz, 2101000);
	assert_int_equal(acf(&p, "6.16").max_khz, 3024902);
	assert_int_equal(acf(&p, "6.18").max_khz, 3024902);
	/* highest below nominal: no boost ratio, ratio 1024 from 5.11 */
	load(&p, INTEL_2100 "\ncppc_highest_perf = 150\ncppc_nominal_perf = 177", TURBO_2100,
	     ACPI_CF);
	a = acf(&p, "6.18");
	assert_int_equal(a.boost_ratio, 0);
	assert_true(a.ratio_1024);
	assert_int_equal(a.max_khz, 2101000);
	o = fm(&p, "6.18");
	assert_true(o.invariant && o.mhz == 2100);
	assert_int_equal(o.ratio, 1024);
	assert_true(o.turbo_mhz == 3000);
}

/* Without _CPC (said, or not given on Intel): P0, and from 5.11 freq_max base (d11a1d08a082). */
static void acpi_cpufreq_intel_no_cpc(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_acpi_cpufreq a;
	struct il_freq_max o;
	struct il_err e;
	const char *t;

	for (int given = 0; given < 2; given++) {
		load(&p, given ? INTEL_2100 "\nacpi_cpc = no" : INTEL_2100, TURBO_2100, ACPI_CF);
		a = acf(&p, "5.10");
		assert_int_equal(a.max_khz, 2101000);
		assert_false(a.ratio_1024);
		o = fm(&p, "5.10");
		assert_true(o.mhz == 3000);
		assert_int_equal(o.ratio, 1462);
		a = acf(&p, "5.11");
		assert_int_equal(a.max_khz, 2101000);
		assert_true(a.ratio_1024);
		assert_false(a.boost_entry);
		o = fm(&p, "5.11");
		assert_true(o.invariant && o.mhz == 2100);
		assert_int_equal(o.ratio, 1024);
		assert_non_null(strstr(o.why, "d11a1d08a082"));
		assert_int_equal(fm(&p, "6.18").ratio, 1024);
		assert_int_equal(acf(&p, "6.18").max_khz, 2101000);
	}
	/* intel_pstate named: the MSR freq_max at every release */
	load(&p, INTEL_2100 "\nacpi_cpc = no", TURBO_2100, "[cpufreq]\nefficient_mhz = 800\n");
	assert_int_equal(fm(&p, "6.18").ratio, 1462);
	/* contradictions are refused */
	t = "[platform]\nname = t\n[cpu]\nvendor = intel\nbase_mhz = 2100\nacpi_cpc = no\n"
	    "cppc_nominal_perf = 177\n";
	assert_int_not_equal(il_platform_load_string(&p, t, strlen(t), "t.ini", &e), 0);
	assert_non_null(strstr(e.msg, "acpi_cpc"));
	t = "[platform]\nname = t\n[cpu]\nvendor = intel\nbase_mhz = 2100\nacpi_cpc = yes\n";
	assert_int_not_equal(il_platform_load_string(&p, t, strlen(t), "t.ini", &e), 0);
	assert_non_null(strstr(e.msg, "acpi_cpc"));
}

/*
 * AMD with CPPC values (Milan, highest 255, nominal 177, no preferred cores):
 * P0 is base (no [turbo] bins: the table starts at base), 2450000 kHz, x 1475
 * = 3613750000, >> 10 = 3529052 (.7) from 5.11 on; freq_max the midpoint
 * 1249 (amd_cppc above). A Zen 3 Ryzen (family 0x19 model 0x21) from 5.13:
 * numerator 166, below nominal 177: no boost ratio, ratio 1024, P0.
 */
static void acpi_cpufreq_amd(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_acpi_cpufreq a;

	load(&p, AMD("0x19", "1") CPPC("255", "177", "no"), "", ACPI_CF);
	assert_int_equal(acf(&p, "5.10").max_khz, 2450000);
	a = acf(&p, "5.11");
	assert_int_equal(a.boost_ratio, 1475);
	assert_true(a.boost_entry);
	assert_int_equal(a.max_khz, 3529052);
	assert_int_equal(fm(&p, "5.11").ratio, 1249);
	assert_int_equal(acf(&p, "5.12").max_khz, 3529052);
	assert_int_equal(acf(&p, "5.13").max_khz, 3529052); /* model constant 255 */
	assert_int_equal(acf(&p, "6.18").max_khz, 3529052); /* CPU 0's highest_perf */
	assert_int_equal(fm(&p, "6.18").ratio, 1249);
	load(&p, AMD("0x19", "0x21") CPPC("255", "177", "no"), "", ACPI_CF);
	assert_int_equal(acf(&p, "5.12").max_khz, 3529052);
	a = acf(&p, "5.13");
	assert_int_equal(a.boost_ratio, 0);
	assert_true(a.ratio_1024);
	assert_int_equal(a.max_khz, 2450000);
	assert_int_equal(fm(&p, "5.13").ratio, 1024);
	/* acpi_cpc = no: no AMD invariance at all; not given, no values: not modelled */
	load(&p, AMD("0x19", "1") "\nacpi_cpc = no", "", ACPI_CF);
	assert_int_equal(fm(&p, "6.18").rule, IL_FMAX_NONE);
	assert_non_null(strstr(fm(&p, "6.18").why, "_CPC"));
	assert_int_equal(acf(&p, "6.18").max_khz, 2450000);
	load(&p, AMD("0x19", "1"), "", ACPI_CF);
	assert_int_equal(fm(&p, "6.18").rule, IL_FMAX_UNMODELLED);
	assert_false(acf(&p, "6.18").modelled);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(acpi_cpufreq_intel_cpc),
		cmocka_unit_test(acpi_cpufreq_intel_no_cpc),
		cmocka_unit_test(acpi_cpufreq_amd),
		cmocka_unit_test(skylake_x_group), cmocka_unit_test(core_4c),
		cmocka_unit_test(xeon_phi),        cmocka_unit_test(atoms),
		cmocka_unit_test(turbo_off),       cmocka_unit_test(no_invariance),
		cmocka_unit_test(builtin_platforms), cmocka_unit_test(amd_cppc),
		cmocka_unit_test(amd_missing), cmocka_unit_test(amd_acpi_cpufreq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
