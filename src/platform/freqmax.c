// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_max of x86 frequency invariance: the frequency the scheduler takes
 * as the top of the range when it scales utilisation by APERF/MPERF.
 *
 * The kernel reads it at boot from model-specific registers; idlelab
 * reads the same figures from the platform's [turbo] bins and [cpu]
 * base_mhz. The rules, as mainline has them:
 *
 *   before 5.7   no frequency invariance on x86.
 *   5.7          Giovanni Gherdovich's series, arch/x86/kernel/smpboot.c:
 *                1567c3e3467c "x86, sched: Add support for frequency
 *                invariance": freq_max = the 4-active-core turbo bin
 *                (byte 3 of MSR_TURBO_RATIO_LIMIT), freq_base = the
 *                maximum non-turbo ratio of MSR_PLATFORM_INFO;
 *                2a0abc596998 "... on SKYLAKE_X": model 0x55 lists turbo
 *                groups (core counts in MSR_TURBO_RATIO_LIMIT1), and the
 *                first group of at least 4 cores gives freq_max;
 *                8bea0dfb4a82 "... on XEON_PHI_KNL/KNM": the ratio after
 *                the first non-zero delta, the second-highest bin;
 *                "... on ATOM_GOLDMONT*": the first group (size >= 1),
 *                the highest; 298c6f99bf30 "... on ATOM": Silvermont and
 *                Airmont read MSR_ATOM_CORE_RATIOS / _TURBO_RATIOS, the
 *                1-core turbo (tried first, on every Intel part: the MSR
 *                read faults on others);
 *                918229cdd5ab "x86/intel_pstate: Handle runtime turbo
 *                disablement/enablement": turbo off at boot (the
 *                MSR_IA32_MISC_ENABLE bit) or later (a _PPC change seen by
 *                intel_pstate) makes freq_max = freq_base, ratio 1024.
 *                Fixed for 5.7-rc3 (sched/urgent, April 2020): 23ccee22e834
 *                "Account for CPUs with less than 4 cores": the 4C read
 *                falls back to the 1C byte when byte 3 is 0; "Bail out of
 *                frequency invariance if base frequency is unknown";
 *                db441bd9f630 "Move check for CPU type to caller function".
 *   after 5.7    51beea8862a3 "x86, sched: Bail out of frequency invariance
 *                if turbo frequency is unknown" (2020-05-31): a zero turbo
 *                ratio leaves invariance off. idlelab reports a file
 *                without [turbo] bins or base_mhz as not modelled rather
 *                than guessing what the MSRs hold.
 *   5.11         AMD gains invariance from ACPI CPPC (41ea667227ba "x86, sched:
 *                Calculate frequency invariance for AMD systems", with
 *                976df7e5730e "... Use midpoint of max_boost and max_P for
 *                frequency invariance on AMD EPYC", both v5.11-rc1): once
 *                the CPPC library has probed CPU 0, ratio = (N x 1024 /
 *                nominal_perf + 1024) >> 1, integers throughout (the
 *                quotient truncated, then the midpoint with 1024), for every
 *                AMD part (not Hygon), with turbo always counted as on.
 *                N = CPU 0's highest_perf; a zero highest_perf or
 *                nominal_perf leaves invariance off.
 *   5.13         3743d55b289c "x86, sched: Fix the AMD CPPC maximum
 *                performance value on certain AMD Ryzen generations" (tip
 *                sched/urgent, v5.13-rc2): N = amd_get_highest_perf(), 166
 *                on family 0x17 models 0x30-0x3f, 0x70-0x7f and family 0x19
 *                models 0x20-0x2f, 0x40-0x6f, else 255; highest_perf is not
 *                read. 5.18 moves the code to arch/x86/kernel/acpi/cppc.c
 *                (82d89369141b), same numbers.
 *   6.12         Mario Limonciello's amd-pstate 6.12 series: N =
 *                amd_get_boost_ratio_numerator(), 279f838a61f9: without
 *                preferred cores (every CPU the same highest_perf) CPU 0's
 *                highest_perf, with them 166; ad4caad58d91: 196 for
 *                family 0x19 models 0x70-0x7f with preferred cores. (The
 *                detection failed on 6.12-rc1..rc6, fixed by b79276dcac91
 *                in -rc7.)
 *   6.13         3eef25ab0d89: on heterogeneous parts with preferred cores
 *                (not models 0x7x) CPU 0's core type: performance 196,
 *                efficiency its highest_perf. Unchanged to 7.1.
 *                With acpi-cpufreq as the cpufreq driver (5.11 on): the
 *                driver computes its boost ratio from the same numerator and,
 *                when that is 0 or below nominal_perf, asks for ratio 1024
 *                after the CPPC code set its own (d11a1d08a082 "cpufreq:
 *                ACPI: Update arch scale-invariance max perf ratio if CPPC
 *                is not there", 5.11-rc7); freq_max is then base.
 *                idlelab reads the CPPC values from [cpu] cppc_highest_perf,
 *                cppc_nominal_perf, cppc_preferred_cores, amd_core_type; a
 *                file without the ones a release reads is "not modelled", one
 *                whose [cpu] says acpi_cpc = no has none (without _CPC the
 *                CPPC code cannot read the capabilities).
 *   5.19         tglx's "x86/smp: Move APERF/MPERF code where it belongs":
 *                the same rules, now in arch/x86/kernel/cpu/aperfmperf.c
 *                (checked against the text that matches with
 *                X86_MATCH_VFM_FEATURE, 6.12 on: intel_set_max_freq_ratio
 *                unchanged). Hybrid parts get per-CPU ratios from
 *                intel_pstate's capacity scaling (6.12); not modelled.
 *                Gherdovich's 2022 "x86: fix platform info detection in
 *                frequency invariance" (a failed read after a model match
 *                should not fall through to the 4C rule) is not in that
 *                text: the fall-through is kept (Skylake-X with no group of
 *                4 cores takes the 1C byte).
 *
 * acpi-cpufreq's boost ratio and cpuinfo.max_freq (drivers/cpufreq/acpi-cpufreq.c,
 * il_acpi_cpufreq_max() below), every vendor:
 *
 *   5.11         3c55e94c0ade "cpufreq: ACPI: Extend frequency tables to cover
 *                boost frequencies" and d11a1d08a082 "cpufreq: ACPI: Update arch
 *                scale-invariance max perf ratio if CPPC is not there" (both
 *                5.11-rc7; in 5.10.17 too, not in the 5.10 tag):
 *                get_max_boost_ratio() = highest_perf x 1024 / nominal_perf,
 *                truncated, from CPU 0's _CPC (Intel and others: CPPC
 *                highest_perf; AMD: the numerator of AMD's invariance rule for
 *                the release, 3743d55b289c in 5.13 and the 6.12 series changing
 *                it in both places); 0 where _CPC cannot be read, a value is 0
 *                or highest is below nominal. Non-zero: the table gets an extra
 *                top entry, P0 x ratio >> 10 kHz, that writes P0's control, so
 *                cpuinfo.max_freq and the policy max are that frequency. Zero:
 *                arch_set_max_freq_ratio(true), freq_max = base (ratio 1024)
 *                for every vendor, turbo or not.
 *   5.12         538b0188da46 "cpufreq: ACPI: Set cpuinfo.max_freq directly if
 *                max boost is known": no extra entry; the driver sets
 *                cpuinfo.max_freq = P0 x ratio >> 10 itself and the core
 *                (cpufreq_frequency_table_cpuinfo()) keeps it when it is not
 *                below the table's top, which stays the policy max.
 *   6.14         083466754596 "cpufreq: ACPI: Fix max-frequency computation":
 *                the _CPC NominalFrequency (CPPC v3) in place of P0 where the
 *                firmware gives it; that value is in MHz, taken as kHz, so the
 *                product falls below the table's top and the core puts P0 back.
 *   6.16         cb6a85f38f45 "acpi-cpufreq: Fix nominal_freq units to KHz in
 *                get_max_boost_ratio()" (posted 2025-05-28, after 6.15; Cc 6.14+):
 *                NominalFrequency x 1000 kHz x ratio >> 10.
 *   7.1          16fb8d8a0e05 "cpufreq: acpi-cpufreq: use DMI max speed when
 *                CPPC is unavailable": its text was not found; 7.1 is taken as
 *                7.0 (docs/cpufreq.md).
 *
 *                Invariant schedutil scales its request by cpuinfo.max_freq
 *                (get_next_freq(), map_util_freq()), ondemand its range.
 *
 * Intel's ratio is computed as the kernel does, turbo x 1024 / base truncated;
 * with frequencies that are ratio x bus clock this equals the kernel's
 * integer arithmetic on the ratios. AMD's is the kernel's integer formula
 * on the CPPC values; freq_max in MHz is then base x ratio / 1024.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/platform.h"
#include "idlelab/release.h"

#define FI_RELEASE "5.7"   /* frequency invariance on x86 */
#define AMD_FI_RELEASE "5.11"        /* 41ea667227ba, 976df7e5730e */
#define AMD_MODEL_RELEASE "5.13"     /* 3743d55b289c: amd_get_highest_perf() */
#define AMD_NUMERATOR_RELEASE "6.12" /* 279f838a61f9: amd_get_boost_ratio_numerator() */
#define AMD_HETERO_RELEASE "6.13"    /* 3eef25ab0d89: heterogeneous core types */
#define ACPI_BOOST_RELEASE "5.11"    /* 3c55e94c0ade, d11a1d08a082: acpi-cpufreq's boost ratio */
#define ACPI_MAXFREQ_RELEASE "5.12"  /* 538b0188da46: cpuinfo.max_freq set directly */
#define ACPI_NOMFREQ_RELEASE "6.14"  /* 083466754596: _CPC NominalFrequency, in MHz */
#define ACPI_NOMKHZ_RELEASE "6.16"   /* cb6a85f38f45: ... x 1000, kHz */

/* CPUID family 6 models the rules name (arch/x86/include/asm/intel-family.h). */
#define M_ATOM_SILVERMONT 0x37
#define M_ATOM_AIRMONT 0x4c
#define M_ATOM_SILVERMONT_MID 0x4a
#define M_ATOM_SILVERMONT_D 0x4d
#define M_ATOM_AIRMONT_MID 0x5a
#define M_ATOM_AIRMONT_NP 0x75
#define M_ATOM_GOLDMONT 0x5c
#define M_ATOM_GOLDMONT_D 0x5f
#define M_ATOM_GOLDMONT_PLUS 0x7a
#define M_XEON_PHI_KNL 0x57
#define M_XEON_PHI_KNM 0x85
#define M_SKYLAKE_X 0x55

static bool model_in(int model, const int *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == model)
			return true;
	return false;
}

/* Hybrid (P- and E-core) client parts: per-CPU capacity, not modelled. */
static bool hybrid_model(int model)
{
	static const int m[] = { 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0xaa, 0xac, 0xbd, 0xc5, 0xc6,
				 0xb5, 0xcc };
	return model_in(model, m, sizeof(m) / sizeof(m[0]));
}

/*
 * The turbo groups as the MSRs list them: the active-core counts the
 * [turbo] section gives, ascending (group i covers counts up to grp[i]).
 */
static int turbo_groups(const struct il_platform *p, int *grp, int max)
{
	int n = 0;

	for (int i = 0; i < p->nturbo && n < max; i++)
		if (p->turbo_listed[i])
			grp[n++] = i + 1;
	return n;
}

/* turbo x 1024 / base, truncated; integers when both are whole MHz */
static unsigned long ratio_of(double turbo, double base)
{
	if (turbo == floor(turbo) && base == floor(base) && base >= 1)
		return (unsigned long)(((unsigned long long)turbo * 1024ull) /
				       (unsigned long long)base);
	return (unsigned long)floor(turbo * 1024.0 / base);
}

static void none(struct il_freq_max *o, enum il_freq_max_rule rule, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void none(struct il_freq_max *o, enum il_freq_max_rule rule, const char *fmt, ...)
{
	va_list ap;

	o->rule = rule;
	o->since = NULL;
	o->first = NULL;
	o->invariant = false;
	o->mhz = 0;
	o->turbo_mhz = 0;
	o->ratio = o->turbo_ratio = 0;
	o->what = "none";
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
}

/* Zen 2 and Zen 3 models whose highest_perf register is not the boost ceiling (3743d55b289c). */
static bool amd_model_166(const struct il_platform *p)
{
	int m = p->model;

	if (p->family == 0x17)
		return (m >= 0x30 && m <= 0x3f) || (m >= 0x70 && m <= 0x7f);
	if (p->family == 0x19)
		return (m >= 0x20 && m <= 0x2f) || (m >= 0x40 && m <= 0x6f);
	return false;
}

/*
 * AMD, 5.11 on: ratio = (numerator x 1024 / nominal_perf + 1024) / 2 with
 * integer division and a right shift, freq_max = base x ratio / 1024. What
 * the numerator is and which CPPC capabilities are read change by release
 * (the header comment).
 */
static void amd_rule(const struct il_platform *p, const char *rel, struct il_freq_max *o)
{
	long num;
	const char *src;
	bool need_highest;

	if (p->acpi_cpc == 0) {
		none(o, IL_FMAX_NONE, "no _CPC ([cpu] acpi_cpc = no): AMD's invariance reads the "
		     "CPPC capabilities, so the kernel leaves it off");
		return;
	}
	if (il_release_cmp(rel, AMD_MODEL_RELEASE) < 0) {
		o->rule = IL_FMAX_AMD_CPPC;
		o->since = AMD_FI_RELEASE;
		need_highest = true;
	} else if (il_release_cmp(rel, AMD_NUMERATOR_RELEASE) < 0) {
		o->rule = IL_FMAX_AMD_MODEL;
		o->since = AMD_MODEL_RELEASE;
		need_highest = false;
	} else {
		o->rule = IL_FMAX_AMD_NUMERATOR;
		o->since = AMD_NUMERATOR_RELEASE;
		if (p->cppc_nominal_perf >= 0 && p->cppc_preferred_cores < 0) {
			none(o, IL_FMAX_UNMODELLED, "[cpu] cppc_preferred_cores not given: the "
			     "boost numerator (%s+) depends on it", AMD_NUMERATOR_RELEASE);
			return;
		}
		need_highest = p->cppc_preferred_cores == 0 ||
			       (il_release_cmp(rel, AMD_HETERO_RELEASE) >= 0 &&
				p->amd_core_type == IL_AMD_CORE_EFFICIENCY &&
				!(p->family == 0x19 && p->model >= 0x70 && p->model <= 0x7f));
	}
	if (p->cppc_nominal_perf < 0 || (need_highest && p->cppc_highest_perf < 0)) {
		none(o, IL_FMAX_UNMODELLED, "[cpu] %s not given: AMD's freq_max (%s+) is "
		     "computed from ACPI CPPC", p->cppc_nominal_perf < 0 ? "cppc_nominal_perf" :
		     "cppc_highest_perf", AMD_FI_RELEASE);
		return;
	}
	if (!(p->base_mhz > 0)) {
		none(o, IL_FMAX_UNMODELLED, "[cpu] base_mhz not given: idlelab cannot give "
		     "freq_max in MHz");
		return;
	}
	switch (o->rule) {
	case IL_FMAX_AMD_CPPC:
		/* 41ea667227ba, 976df7e5730e: CPU 0's registers, both non-zero */
		num = p->cppc_highest_perf;
		src = "CPPC highest_perf";
		if (!num || !p->cppc_nominal_perf) {
			none(o, IL_FMAX_NONE, "CPPC %s_perf is 0: the kernel leaves invariance off",
			     !num ? "highest" : "nominal");
			return;
		}
		o->what = "CPPC highest_perf midpoint";
		break;
	case IL_FMAX_AMD_MODEL:
		/* 3743d55b289c: a constant by family and model */
		num = amd_model_166(p) ? 166 : 255;
		src = num == 166 ? "this Zen 2/3 model's constant" : "the constant for other models";
		if (!p->cppc_nominal_perf) {
			none(o, IL_FMAX_NONE, "CPPC nominal_perf is 0: the kernel leaves invariance off");
			return;
		}
		o->what = "model perf midpoint";
		break;
	default:
		/* 279f838a61f9, ad4caad58d91 (6.12), 3eef25ab0d89 (6.13) */
		if (!p->cppc_preferred_cores) {
			num = p->cppc_highest_perf;
			src = "CPPC highest_perf, no preferred cores";
		} else if (p->family == 0x19 && p->model >= 0x70 && p->model <= 0x7f) {
			num = 196;
			src = "preferred cores on family 0x19 model 0x7x";
		} else if (il_release_cmp(rel, AMD_HETERO_RELEASE) >= 0 &&
			   p->amd_core_type == IL_AMD_CORE_PERFORMANCE) {
			num = 196;
			src = "a performance core of a heterogeneous part";
		} else if (il_release_cmp(rel, AMD_HETERO_RELEASE) >= 0 &&
			   p->amd_core_type == IL_AMD_CORE_EFFICIENCY) {
			num = p->cppc_highest_perf;
			src = "CPPC highest_perf of an efficiency core";
		} else {
			num = 166;
			src = "preferred cores";
		}
		if (!p->cppc_nominal_perf) {
			none(o, IL_FMAX_NONE, "CPPC nominal_perf is 0: the kernel leaves invariance off");
			return;
		}
		o->what = "boost numerator midpoint";
		break;
	}
	o->invariant = true;
	o->first = AMD_FI_RELEASE;
	o->numerator = (unsigned long)num;
	/* div_u64(num << 10, nominal), then the midpoint with 1024: a right shift */
	o->turbo_ratio = (unsigned long)(((((unsigned long long)num * 1024ull) /
					  (unsigned long long)p->cppc_nominal_perf) + 1024ull) >> 1);
	o->ratio = o->turbo_ratio;  /* always set with turbo counted as enabled */
	o->turbo_mhz = o->mhz = p->base_mhz * (double)o->ratio / 1024.0;
	snprintf(o->why, sizeof(o->why), "AMD: (%ld x 1024 / nominal_perf %ld + 1024) >> 1, "
		 "the midpoint; %ld: %s", num, p->cppc_nominal_perf, num, src);
}

static void amd_freq_max(const struct il_platform *p, const char *rel, struct il_freq_max *o)
{
	amd_rule(p, rel, o);
	if (p->cpufreq_driver == IL_CPUFREQ_ACPI)
		il_freq_max_acpi_cpufreq(p, rel, o);
}

/*
 * acpi-cpufreq's get_max_boost_ratio() at rel (5.11 on): highest x 1024 /
 * nominal_perf, truncated, from CPU 0's _CPC; "highest" is CPPC highest_perf
 * except on AMD, where it is the numerator of AMD's invariance rule for the
 * release (3743d55b289c changed both in 5.13, the 6.12 series likewise).
 * 0: no _CPC, a zero value, or highest below nominal. -1: idlelab cannot say
 * (a key an AMD rule reads is missing; *why says which).
 */
static long acpi_boost_ratio(const struct il_platform *p, const char *rel, long *num_out,
			     char *why, size_t len)
{
	long num, nom = p->cppc_nominal_perf;

	*num_out = 0;
	if (p->acpi_cpc != 1)
		return 0;
	if (p->vendor == IL_VENDOR_AMD) {
		struct il_freq_max t;

		memset(&t, 0, sizeof(t));
		amd_rule(p, rel, &t);
		if (t.rule == IL_FMAX_UNMODELLED) {
			snprintf(why, len, "%s", t.why);
			return -1;
		}
		num = t.invariant ? (long)t.numerator : 0;
	} else {
		num = p->cppc_highest_perf;
	}
	*num_out = num;
	if (num <= 0 || nom <= 0 || num < nom)
		return 0;
	return (long)(((unsigned long long)num << 10) / (unsigned long long)nom);
}

int il_acpi_cpufreq_max(const struct il_platform *p, const char *rel, double p0_mhz,
			struct il_acpi_cpufreq *o)
{
	unsigned long long freq;
	long num;

	memset(o, 0, sizeof(*o));
	if (!rel || !*rel)
		rel = p->release[0] ? p->release : IL_RELEASE_NEWEST;
	if (il_release_check(rel, NULL))
		return -EINVAL;
	o->modelled = true;
	o->cpc = p->acpi_cpc == 1;
	o->p0_khz = o->max_khz = (unsigned int)(p0_mhz * 1000 + 0.5);
	if (il_release_cmp(rel, ACPI_BOOST_RELEASE) < 0) {
		snprintf(o->why, sizeof(o->why), "P0, the table's top: no boost ratio before %s",
			 ACPI_BOOST_RELEASE);
		return 0;
	}
	if (p->acpi_cpc < 0 && p->vendor == IL_VENDOR_AMD) {
		/* AMD's CPPC rules call a file without the values unknown: likewise */
		o->modelled = false;
		snprintf(o->why, sizeof(o->why), "whether the firmware gives _CPC is not given "
			 "([cpu] acpi_cpc, the CPPC values)");
		return 0;
	}
	long r = acpi_boost_ratio(p, rel, &num, o->why, sizeof(o->why));
	if (r < 0) {
		o->modelled = false;
		return 0;
	}
	if (r == 0) {
		/* d11a1d08a082: the boost frequency is unknown, freq_max is base */
		o->ratio_1024 = true;
		if (!o->cpc)
			snprintf(o->why, sizeof(o->why), "P0: no _CPC%s, no boost ratio; "
				 "arch ratio 1024 (d11a1d08a082)",
				 p->acpi_cpc < 0 ? " given ([cpu] acpi_cpc)" : "");
		else
			snprintf(o->why, sizeof(o->why), "P0: CPPC %ld over nominal_perf %ld gives "
				 "no boost ratio; arch ratio 1024 (d11a1d08a082)", num,
				 p->cppc_nominal_perf);
		return 0;
	}
	o->boost_ratio = (unsigned long)r;
	if (il_release_cmp(rel, ACPI_MAXFREQ_RELEASE) < 0) {
		/* 3c55e94c0ade: the extra table entry above P0 */
		o->boost_entry = true;
		o->max_khz = (unsigned int)(((unsigned long long)o->p0_khz * o->boost_ratio) >> 10);
		snprintf(o->why, sizeof(o->why), "P0 x %ld / nominal_perf %ld (ratio %lu): the "
			 "table's extra boost entry (3c55e94c0ade)", num, p->cppc_nominal_perf,
			 o->boost_ratio);
		return 0;
	}
	freq = o->p0_khz;
	const char *src = "P0";
	if (il_release_cmp(rel, ACPI_NOMFREQ_RELEASE) >= 0 && p->cppc_nominal_freq) {
		/* 083466754596 takes the MHz value as kHz; cb6a85f38f45 (6.16) scales it */
		bool khz = il_release_cmp(rel, ACPI_NOMKHZ_RELEASE) >= 0;
		freq = (unsigned long long)p->cppc_nominal_freq * (khz ? 1000u : 1u);
		src = khz ? "_CPC nominal_freq (cb6a85f38f45)" :
			    "_CPC nominal_freq in MHz as kHz (083466754596)";
	}
	unsigned int m = (unsigned int)((freq * o->boost_ratio) >> 10);
	/* cpufreq_frequency_table_cpuinfo(): never below the table's top */
	o->max_khz = m > o->p0_khz ? m : o->p0_khz;
	snprintf(o->why, sizeof(o->why), "%s x %ld / nominal_perf %ld (ratio %lu)%s (538b0188da46)",
		 src, num, p->cppc_nominal_perf, o->boost_ratio,
		 m < o->p0_khz ? ", below P0: P0" : "");
	return 0;
}

void il_freq_max_acpi_cpufreq(const struct il_platform *p, const char *rel, struct il_freq_max *o)
{
	char why[200];
	long num;

	if (!rel || !*rel)
		rel = p->release[0] ? p->release : IL_RELEASE_NEWEST;
	/*
	 * d11a1d08a082: without a boost ratio the driver, probing after the
	 * arch code (and on AMD after the CPPC code), sets ratio 1024
	 */
	if (!o->invariant || il_release_cmp(rel, ACPI_BOOST_RELEASE) < 0 ||
	    acpi_boost_ratio(p, rel, &num, why, sizeof(why)) != 0)
		return;
	const char *was = o->what;
	o->ratio = 1024;
	o->mhz = p->base_mhz;
	o->what = "base, acpi-cpufreq";
	if (p->vendor == IL_VENDOR_AMD)
		snprintf(o->why, sizeof(o->why), "AMD: (%lu x 1024 / nominal_perf %ld + 1024) >> 1 "
			 "= %lu, then acpi-cpufreq (numerator below nominal_perf: boost ratio "
			 "unknown) sets 1024 (d11a1d08a082)", o->numerator, p->cppc_nominal_perf,
			 o->turbo_ratio);
	else
		snprintf(o->why, sizeof(o->why), "%s %g MHz, then acpi-cpufreq (%s) sets 1024 "
			 "(d11a1d08a082)", was, o->turbo_mhz,
			 p->acpi_cpc == 1 ? "CPPC highest_perf below nominal_perf" : "no _CPC");
}

int il_platform_freq_max(const struct il_platform *p, const char *rel, struct il_freq_max *o,
			 struct il_err *err)
{
	static const int slv[] = { M_ATOM_SILVERMONT, M_ATOM_AIRMONT };
	static const int slv_unknown[] = { M_ATOM_SILVERMONT_MID, M_ATOM_SILVERMONT_D,
					   M_ATOM_AIRMONT_MID, M_ATOM_AIRMONT_NP };
	static const int glm[] = { M_ATOM_GOLDMONT, M_ATOM_GOLDMONT_D, M_ATOM_GOLDMONT_PLUS };
	static const int knl[] = { M_XEON_PHI_KNL, M_XEON_PHI_KNM };
	int grp[IL_PLAT_TURBO_MAX];
	int ngrp;
	double turbo = 0;

	memset(o, 0, sizeof(*o));
	if (!rel || !*rel)
		rel = p->release[0] ? p->release : IL_RELEASE_NEWEST;
	if (il_release_check(rel, err))
		return -EINVAL;
	o->base_mhz = p->base_mhz;

	if (p->arch != IL_ARCH_X86) {
		if (p->arch == IL_ARCH_ARM64)
			none(o, IL_FMAX_UNMODELLED, "arm64: activity monitors or cpufreq give the "
			     "scale; not modelled");
		else
			none(o, IL_FMAX_NONE, "no frequency invariance on this architecture");
		return 0;
	}
	/* guests first, of any vendor: KVM does not offer APERF/MPERF by default */
	if (p->hypervisor) {
		none(o, IL_FMAX_NONE, "guest: X86_FEATURE_APERFMPERF is not offered");
		return 0;
	}
	if (p->vendor == IL_VENDOR_AMD) {
		if (il_release_cmp(rel, AMD_FI_RELEASE) < 0)
			none(o, IL_FMAX_NONE, "x86 frequency invariance is Intel-only before %s",
			     AMD_FI_RELEASE);
		else
			amd_freq_max(p, rel, o);
		return 0;
	}
	if (p->vendor != IL_VENDOR_INTEL) {
		none(o, IL_FMAX_NONE, "x86 frequency invariance covers Intel%s",
		     il_release_cmp(rel, AMD_FI_RELEASE) >= 0 ? " and AMD" : "");
		return 0;
	}
	if (il_release_cmp(rel, FI_RELEASE) < 0) {
		none(o, IL_FMAX_NONE, "no frequency invariance on x86 before %s", FI_RELEASE);
		return 0;
	}
	if (p->family == 6 && hybrid_model(p->model)) {
		none(o, IL_FMAX_UNMODELLED, "hybrid part: per-CPU ratios; not modelled");
		return 0;
	}
	if (p->family == 6 && model_in(p->model, slv_unknown, 4)) {
		none(o, IL_FMAX_UNMODELLED, "Atom model: whether MSR_ATOM_CORE_RATIOS reads "
		     "(the 1C rule) is not known to idlelab");
		return 0;
	}
	if (!(p->base_mhz > 0) || !p->nturbo) {
		none(o, IL_FMAX_UNMODELLED, "%s not given: idlelab cannot derive freq_max",
		     !(p->base_mhz > 0) ? "[cpu] base_mhz" : "[turbo] bins");
		return 0;
	}

	ngrp = turbo_groups(p, grp, IL_PLAT_TURBO_MAX);
	o->since = o->first = FI_RELEASE;
	if (p->family == 6 && model_in(p->model, slv, 2)) {
		/* slv_set_max_freq_ratio(): MSR_ATOM_CORE_TURBO_RATIOS bits 5:0, 1C */
		o->rule = IL_FMAX_ATOM_1C;
		o->what = "1C turbo";
		turbo = p->turbo_mhz[0];
		snprintf(o->why, sizeof(o->why),
			 "Atom before Goldmont: the 1-core turbo (298c6f99bf30)");
	} else if (p->family == 6 && model_in(p->model, glm, 3)) {
		/* skx_set_max_freq_ratio(size 1): the first group */
		o->rule = IL_FMAX_GOLDMONT;
		o->what = "highest turbo";
		turbo = p->turbo_mhz[grp[0] - 1];
		snprintf(o->why, sizeof(o->why), "Goldmont: the first turbo group, the highest");
	} else if (p->family == 6 && model_in(p->model, knl, 2)) {
		/*
		 * knl_set_max_freq_ratio(1): group 0's ratio less the first
		 * non-zero delta of groups 1..6, taken at the top of the next
		 * loop pass: a first delta in group 6 ends the loop with the
		 * ratio unset, as does no delta at all.
		 */
		int g = 1;
		o->rule = IL_FMAX_KNL;
		while (g < ngrp && g <= 6 && p->turbo_mhz[grp[g] - 1] >= p->turbo_mhz[grp[0] - 1])
			g++;
		if (g >= ngrp || g > 5) {
			none(o, IL_FMAX_NONE, "Xeon Phi with no second turbo bin the kernel reads: "
			     "it leaves the ratio unset (undefined)");
			o->rule = IL_FMAX_KNL;
			return 0;
		}
		o->what = "second-highest turbo";
		turbo = p->turbo_mhz[grp[g] - 1];
		snprintf(o->why, sizeof(o->why), "Xeon Phi: the second-highest turbo bin "
			 "(8bea0dfb4a82), %d cores", grp[g]);
	} else {
		int g = -1;

		if (p->family == 6 && p->model == M_SKYLAKE_X) {
			/* skx_set_max_freq_ratio(size 4): 8 groups in MSR_TURBO_RATIO_LIMIT1 */
			for (int i = 0; i < ngrp && i < 8; i++)
				if (grp[i] >= 4) {
					g = i;
					break;
				}
		}
		if (g >= 0) {
			o->rule = IL_FMAX_SKX_GROUP4;
			o->what = "4C turbo";
			turbo = p->turbo_mhz[grp[g] - 1];
			snprintf(o->why, sizeof(o->why), "Skylake-X: the first turbo group of >= 4 "
				 "cores (%d, 2a0abc596998)", grp[g]);
		} else if (p->nturbo >= 4) {
			/* core_set_max_freq_ratio(): byte 3, the 4-core bin */
			o->rule = IL_FMAX_CORE_4C;
			o->what = "4C turbo";
			turbo = p->turbo_mhz[3];
			snprintf(o->why, sizeof(o->why),
				 "the 4-active-core turbo bin (1567c3e3467c)");
		} else {
			o->rule = IL_FMAX_CORE_1C;
			o->what = "1C turbo";
			turbo = p->turbo_mhz[0];
			snprintf(o->why, sizeof(o->why),
				 "fewer than 4 cores: byte 3 is 0, the 1-core bin");
		}
	}
	o->invariant = true;
	o->turbo_mhz = turbo;
	o->turbo_ratio = ratio_of(turbo, p->base_mhz);
	if (!o->turbo_ratio) {
		none(o, IL_FMAX_NONE, "a zero turbo ratio: the kernel leaves invariance off");
		return 0;
	}
	if (p->turbo_disabled) {
		o->mhz = p->base_mhz;
		o->ratio = 1024;
	} else {
		o->mhz = turbo;
		o->ratio = o->turbo_ratio;
	}
	if (p->cpufreq_driver == IL_CPUFREQ_ACPI)
		il_freq_max_acpi_cpufreq(p, rel, o);
	return 0;
}

double il_platform_freq_max_mhz(const struct il_platform *p, const char *rel)
{
	struct il_freq_max o;
	struct il_err e;

	if (il_platform_freq_max(p, rel, &o, &e))
		return 0;
	return o.invariant ? o.mhz : 0;
}
