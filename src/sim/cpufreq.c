// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's cpufreq layer (--cpufreq): per-CPU policies, the drivers'
 * frequency choices, the hardware's delivered frequency, APERF/MPERF, and
 * the scheduler's utilisation signal (PELT, util_est) that schedutil reads.
 * A run without --cpufreq never enters this file.
 *
 * Placed as the kernel places it (releases are mainline tags):
 * - PELT per task and per CFS run queue (kernel/sched/pelt.c, pelt.h of v5.7,
 *   3d77e6a8804a; il_pelt_update() in idlelab/cpufreq.h): each run queue has a PELT clock
 *   (update_rq_clock_pelt(), 23127296889f, v5.1) that runs at
 *   arch_scale_freq_capacity() x arch_scale_cpu_capacity() / 1024^2 of real
 *   time while a task runs and catches up with clock_task when the CPU goes
 *   idle, so utilisation is what the work would have been at freq_max;
 *   arch_scale_cpu_capacity() is 1024 (SMP x86 without ITMT).
 * - A task keeps its util_avg across sleeps (decayed by the sleep) and
 *   across migrations (migrate_task_rq_fair(): synced to the old run
 *   queue's last update, removed from it, attached to the new one,
 *   attach_entity_load_avg()); a new process starts from
 *   post_init_entity_util_avg(): half the capacity the run queue leaves
 *   (cap = (1024 - cfs util) / 2; the cfs_rq-proportional value is larger
 *   than cap for any non-zero run-queue util since se->load.weight is
 *   scaled by 1024 on 64-bit, so cap is taken).
 * - util_est (kernel/sched/fair.c util_est_enqueue()/util_est_dequeue()/
 *   util_est_update(), v4.17 on, 7f65ea42eb00) as each release has it
 *   (il_ue_update() in include/idlelab/cpufreq.h: the flag's bit 0 up to
 *   5.12, fast-up from 5.5, the ewma alone from 6.8, ...); the queue sums
 *   its tasks' estimates, cpu_util_cfs() = max(util_avg, that sum). Where
 *   the dequeue takes the task's estimate out (after the governor's call
 *   up to 5.11, before it from 5.12, 8c1f560c1ea3) and where the task's
 *   update reads its PELT (after the dequeue's step, before it from 6.12,
 *   b55945c500c5) follow the release. UTIL_AVG_UNCHANGED is a bool
 *   beside the values (ue_fresh: clear), set only where the kernel writes.
 * - Frequency invariance (arch/x86/kernel/smpboot.c of v5.7,
 *   1567c3e3467c "x86, sched: Add support for frequency invariance"):
 *   at each tick freq_scale = min(1024, dAPERF/dMPERF x base/freq_max x
 *   1024), freq_max and whether the release is invariant from the platform
 *   layer's rule per model and release (il_platform_freq_max(),
 *   src/platform/freqmax.c); +invariance= overrides (where the rule has
 *   none: the 4-core turbo bin, il_cf_freq_max_fallback()).
 * - schedutil (kernel/sched/cpufreq_schedutil.c, v5.7 .. v5.9 text, with
 *   the later releases' changes that apply here: the hold's cached raw
 *   frequency (5.10), where the 25 % headroom goes (5.14, 6.8:
 *   il_cf_raw_khz()), the rate limit per release (6.9, 6.12), runnable
 *   boosting (6.5: the run queue's runnable_avg, il_pelt_update_r()),
 *   sugov_update_single(), get_next_freq(), sugov_iowait_boost(),
 *   sugov_iowait_apply(), sugov_cpu_is_busy()): a per-CPU policy (intel_pstate
 *   and acpi-cpufreq on these parts: hardware coordination), called from
 *   the scheduler's cpufreq_update_util() hooks where PELT decayed
 *   (enqueue, dequeue, tick) and on an I/O waiter's enqueue, on the
 *   policy's own CPU only (a wake-up enqueued by another CPU: sim_cf_remote());
 *   rate limit =
 *   the driver's transition delay (cpufreq_policy_transition_delay_us() in
 *   drivers/cpufreq/cpufreq.c: transition_delay_us, else latency x 1000
 *   capped at 10 ms); next_f = 1.25 f util / max with f = cpuinfo.max_freq
 *   when invariant, else policy->cur; not lowered while the CPU has not
 *   idled since the last update; iowait boost from 1024/8, doubling per
 *   consecutive I/O wake-up, halved per update without one, reset after a
 *   tick without an update.
 * - intel_pstate (drivers/cpufreq/intel_pstate.c, v5.7): active mode
 *   without HWP samples every 10 ms (INTEL_PSTATE_SAMPLING_INTERVAL) from
 *   the same hooks: target = 1.25 x turbo_pstate x Busy% (dMPERF/dTSC,
 *   at least the iowait boost), plus half the excess of the average P-state
 *   (base x dAPERF/dMPERF) over it, clamped to the policy; performance asks
 *   for turbo_pstate. Passive mode (intel_cpufreq) takes the generic
 *   governor's frequency rounded up to a 100 MHz ratio; transition latency
 *   20 µs, transition delay 500 µs (INTEL_CPUFREQ_TRANSITION_*).
 * - acpi-cpufreq (drivers/cpufreq/acpi-cpufreq.c): _PSS P-states from the
 *   lowest to base in 100 MHz steps plus base + 1 MHz, the entry that lets
 *   the hardware turbo; the policy resolves to the lowest entry at or above
 *   the target; transition latency 10 µs (the usual _PSS value, an
 *   estimate), so a 10 ms rate limit. cpuinfo.max_freq is P0 before 5.11,
 *   from 5.11 P0 x the _CPC boost ratio where the firmware gives one
 *   (3c55e94c0ade as an extra table entry, 5.12 538b0188da46 directly,
 *   6.14 083466754596 from _CPC's nominal frequency), and without one
 *   freq_max is base (d11a1d08a082): il_acpi_cpufreq_max(),
 *   il_freq_max_acpi_cpufreq() in src/platform/freqmax.c.
 * - HWP: the hardware picks within [min, max] by itself; its algorithm is
 *   not public. Model (an estimate, labelled so): each CPU's C0 fraction
 *   over hwp_window_us (1 ms) sets its request, lowest + (highest - lowest)
 *   x min(1, busy / (EPP / 255)); EPP 128 (balance_performance) for
 *   powersave, 0 for performance.
 *
 * Delivered frequency: the hardware domain (a core, or the package on parts
 * without per-core P-states) runs at the highest request of its CPUs in C0
 * (all its CPUs when none is), capped by the turbo bin for the package's
 * active cores; re-evaluated when a request takes effect and every
 * turbo_interval. Work in cycles is re-timed at each change. Frequency
 * transitions take the transition latency before they act; their energy
 * is not modelled (no platform gives it yet).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/release.h"
#include "power.h"
#include "sim_internal.h"

#define CAP 1024u              /* SCHED_CAPACITY_SCALE */
#define IOWAIT_BOOST_MIN (CAP / 8)
#define PSTATE_SAMPLE_NS 10000000 /* INTEL_PSTATE_SAMPLING_INTERVAL */
#define FP_ONE 256u            /* intel_pstate's int_tofp(1), FRAC_BITS 8 */
#define CF(c) (&s->cf.cpu[(c)->cpu])

/* sim_cf.hook: the governor behind cpufreq_update_util() */
enum { SIM_CF_HOOK_NONE, SIM_CF_HOOK_SCHEDUTIL, SIM_CF_HOOK_ONDEMAND, SIM_CF_HOOK_PSTATE };

/* ------------------------------------------------------------ spec */

static const char *const drv_names[] = { "auto", "intel_pstate", "intel_cpufreq", "hwp",
					 "acpi-cpufreq" };
static const char *const gov_names[] = { "performance", "powersave", "schedutil", "ondemand" };

static int parse_onoff(const char *v, int *out)
{
	if (!strcmp(v, "on") || !strcmp(v, "1") || !strcmp(v, "yes"))
		*out = 1;
	else if (!strcmp(v, "off") || !strcmp(v, "0") || !strcmp(v, "no"))
		*out = 0;
	else if (!strcmp(v, "release"))
		*out = -1;
	else
		return -1;
	return 0;
}

static int parse_num(const char *v, double lo, double hi, double *out)
{
	char *end;
	double x = strtod(v, &end);
	if (end == v || *end || !(x >= lo && x <= hi))
		return -1;
	*out = x;
	return 0;
}

/* A whole number in lo..hi (microseconds, an EPP value): 1.5 is refused, not truncated. */
static int parse_int(const char *v, double lo, double hi, double *out)
{
	if (parse_num(v, lo, hi, out) || *out != floor(*out))
		return -1;
	return 0;
}

int il_cpufreq_parse(const char *spec, struct il_cpufreq_params *cf, struct il_err *err)
{
	char buf[160];
	memset(cf, 0, sizeof(*cf));
	cf->invariance = -1;
	cf->util_est = -1;
	cf->rate_limit_us = -1;
	cf->transition_us = -1;
	cf->epp = -1;
	cf->hwp_window_us = 1000;
	if (!spec || !spec[0] || strlen(spec) >= sizeof(buf))
		return il_err_set(err, EINVAL, "'%s' is not [DRIVER:]GOVERNOR[+KEY=VALUE]...",
				  spec ? spec : "");
	snprintf(buf, sizeof(buf), "%s", spec);
	char *keys = strchr(buf, '+');
	if (keys)
		*keys++ = 0;
	char *gov = strchr(buf, ':');
	const char *drv = NULL;
	if (gov) {
		*gov++ = 0;
		drv = buf;
	} else {
		gov = buf;
	}
	if (drv) {
		int i;
		for (i = 1; i < 5; i++)
			if (!strcmp(drv, drv_names[i]))
				break;
		if (i == 5)
			return il_err_set(err, EINVAL, "'%s': unknown driver '%s' (intel_pstate, "
					  "intel_cpufreq, hwp, acpi-cpufreq)", spec, drv);
		cf->driver = (enum il_cf_driver)i;
	}
	if (!drv && !strcmp(gov, "hwp")) {
		cf->driver = IL_CF_DRV_HWP;
		cf->gov = IL_CF_GOV_POWERSAVE;
	} else {
		int i;
		for (i = 0; i < 4; i++)
			if (!strcmp(gov, gov_names[i]))
				break;
		if (i == 4)
			return il_err_set(err, EINVAL, "'%s': unknown governor '%s' (performance, "
					  "powersave, schedutil, ondemand)", spec, gov);
		cf->gov = (enum il_cf_gov)i;
	}
	if ((cf->driver == IL_CF_DRV_INTEL_PSTATE || cf->driver == IL_CF_DRV_HWP) &&
	    (cf->gov == IL_CF_GOV_SCHEDUTIL || cf->gov == IL_CF_GOV_ONDEMAND))
		return il_err_set(err, EINVAL, "'%s': %s in active mode has only performance and "
				  "powersave (intel_cpufreq:%s is its passive mode)", spec,
				  drv_names[cf->driver], gov_names[cf->gov]);
	/* each key at most once: a second value would silently replace the first */
	const char *seen[16];
	int nseen = 0;
	while (keys) {
		char *next = strchr(keys, '+');
		if (next)
			*next++ = 0;
		char *eq = strchr(keys, '=');
		if (!eq)
			return il_err_set(err, EINVAL, "'%s': '%s' is not KEY=VALUE", spec, keys);
		*eq = 0;
		const char *k = keys, *v = eq + 1;
		double x = 0;
		int r = 0;
		for (int i = 0; i < nseen; i++)
			if (!strcmp(seen[i], k))
				return il_err_set(err, EINVAL, "'%s': %s given twice", spec, k);
		if (nseen < (int)(sizeof(seen) / sizeof(seen[0])))
			seen[nseen++] = k;
		if (!strcmp(k, "invariance"))
			r = parse_onoff(v, &cf->invariance);
		else if (!strcmp(k, "util_est"))
			r = parse_onoff(v, &cf->util_est);
		else if (!strcmp(k, "rate_limit_us"))
			r = parse_int(v, -1, 1e7, &x), cf->rate_limit_us = (int64_t)x;
		else if (!strcmp(k, "transition_us"))
			r = parse_int(v, -1, 1e6, &x), cf->transition_us = (int64_t)x;
		else if (!strcmp(k, "min_mhz"))
			r = parse_num(v, 0, 1e5, &cf->min_mhz);
		else if (!strcmp(k, "max_mhz"))
			r = parse_num(v, 0, 1e5, &cf->max_mhz);
		else if (!strcmp(k, "freq_max_mhz"))
			r = parse_num(v, 0, 1e5, &cf->freq_max_mhz);
		else if (!strcmp(k, "epp"))
			r = parse_int(v, -1, 255, &x), cf->epp = (int)x;
		else if (!strcmp(k, "hwp_window_us"))
			r = parse_int(v, 1, 1e6, &x), cf->hwp_window_us = (int64_t)x;
		else if (!strcmp(k, "domain")) {
			if (!strcmp(v, "core"))
				cf->domain = IL_CF_DOM_CORE;
			else if (!strcmp(v, "package"))
				cf->domain = IL_CF_DOM_PACKAGE;
			else if (!strcmp(v, "auto"))
				cf->domain = IL_CF_DOM_AUTO;
			else
				r = -1;
		} else
			return il_err_set(err, EINVAL, "'%s': unknown key '%s' (invariance, util_est, "
					  "rate_limit_us, transition_us, min_mhz, max_mhz, "
					  "freq_max_mhz, epp, hwp_window_us, domain)", spec, k);
		if (r)
			return il_err_set(err, EINVAL, "'%s': bad value '%s' for %s", spec, v, k);
		keys = next;
	}
	if (cf->min_mhz > 0 && cf->max_mhz > 0 && cf->min_mhz > cf->max_mhz)
		return il_err_set(err, EINVAL, "'%s': min_mhz above max_mhz", spec);
	cf->on = true;
	return 0;
}

void il_cpufreq_name(const struct il_cpufreq_params *cf, char *buf, size_t size)
{
	if (!cf->on) {
		snprintf(buf, size, "none");
		return;
	}
	static const char *const dom_names[] = { "auto", "core", "package" };
	size_t n = (size_t)snprintf(buf, size, "%s%s%s", cf->driver ? drv_names[cf->driver] : "",
				    cf->driver ? ":" : "", gov_names[cf->gov]);
	/* every key that differs from its default, in the parser's order: two specs
	 * that run differently never share a name (results are labelled by it) */
#define ADD(...)                                                                  \
	do {                                                                      \
		if (n < size)                                                     \
			n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__);    \
	} while (0)
	if (cf->invariance >= 0)
		ADD("+invariance=%s", cf->invariance ? "on" : "off");
	if (cf->util_est >= 0)
		ADD("+util_est=%s", cf->util_est ? "on" : "off");
	if (cf->rate_limit_us >= 0)
		ADD("+rate_limit_us=%lld", (long long)cf->rate_limit_us);
	if (cf->transition_us >= 0)
		ADD("+transition_us=%lld", (long long)cf->transition_us);
	if (cf->min_mhz > 0)
		ADD("+min_mhz=%g", cf->min_mhz);
	if (cf->max_mhz > 0)
		ADD("+max_mhz=%g", cf->max_mhz);
	if (cf->freq_max_mhz > 0)
		ADD("+freq_max_mhz=%g", cf->freq_max_mhz);
	if (cf->epp >= 0)
		ADD("+epp=%d", cf->epp);
	if (cf->hwp_window_us != 1000)
		ADD("+hwp_window_us=%lld", (long long)cf->hwp_window_us);
	if (cf->domain != IL_CF_DOM_AUTO)
		ADD("+domain=%s", dom_names[cf->domain]);
#undef ADD
}

/* ------------------------------------------------- platform fallbacks */

/*
 * freq_max when +invariance=on asks for invariance where the platform
 * layer's rule has none: the 4-core turbo bin, as
 * core_set_max_freq_ratio() of v5.7 reads MSR_TURBO_RATIO_LIMIT's fourth
 * byte on most Core and Xeon parts; fewer bins: the last; none: base.
 */
double il_cf_freq_max_fallback(const struct il_platform *p)
{
	if (p->nturbo >= 4 && p->turbo_mhz[3] > 0)
		return p->turbo_mhz[3];
	if (p->nturbo > 0 && p->turbo_mhz[p->nturbo - 1] > 0)
		return p->turbo_mhz[p->nturbo - 1];
	return p->base_mhz;
}

/*
 * FALLBACK for a platform without [cpufreq] efficient_mhz: the lowest frequency (MSR_PLATFORM_INFO's maximum efficiency
 * ratio) of the parts idlelab has, from the published tables of the
 * frequency-invariance series; 800 MHz (ratio 8, the usual Core value,
 * an estimate) for the others.
 */
static double min_mhz_fallback(const struct il_platform *p)
{
	if (p->vendor == IL_VENDOR_INTEL && p->family == 6 && p->model == 0x55)
		return 1000;  /* Cascade Lake / Skylake-SP */
	if (p->vendor == IL_VENDOR_INTEL && p->family == 6 && p->model == 0x3f)
		return 1200;  /* Haswell-EP E5-2670 v3 (ARK: 1.2 GHz lowest P-state) */
	return 800;
}

/*
 * The hardware frequency domain (no platform key gives it yet). Xeons from Haswell-EP on have
 * per-core P-states (PCPS); client parts and older Xeons one per package.
 */
static bool per_core_pstates(const struct il_platform *p)
{
	if (p->vendor != IL_VENDOR_INTEL || p->family != 6)
		return false;
	switch (p->model) {
	case 0x3f: case 0x4f: case 0x56: case 0x55: case 0x6a: case 0x6c: case 0x8f:
		return true;
	default:
		return false;
	}
}

/* ------------------------------------------------------------ setup */

static void dom_eval_all(struct il_sim *s, int64_t now);

/* A target clamped to the policy's limits (clamp_val(target, policy->min, policy->max)), kHz. */
static inline unsigned int clamp_khz(const struct sim_cf *f, unsigned int khz)
{
	return khz < f->lo_khz ? f->lo_khz : khz > f->hi_khz ? f->hi_khz : khz;
}

/* An intel ratio within the limits' ratios (intel_pstate_prepare_request()). */
static inline unsigned int clamp_ratio(const struct sim_cf *f, unsigned int r)
{
	return r > f->max_ratio ? f->max_ratio : r < f->min_ratio ? f->min_ratio : r;
}

int sim_cf_init(struct il_sim *s, struct il_err *err)
{
	struct sim_cf *f = &s->cf;
	const struct il_platform *p = s->p;
	struct il_cpufreq_params *prm = &s->params.cpufreq;

	if (!prm->on)
		return 0;
	f->prm = *prm;
	const char *rel = s->m->release[0] ? s->m->release : IL_RELEASE_NEWEST;
	bool intel = p->arch == IL_ARCH_X86 && p->vendor == IL_VENDOR_INTEL;
	if (f->prm.driver == IL_CF_DRV_AUTO)
		f->prm.driver = intel ? IL_CF_DRV_INTEL_CPUFREQ : IL_CF_DRV_ACPI;
	if (f->prm.driver == IL_CF_DRV_HWP && p->has_cpufreq && !p->hwp)
		return il_err_set(err, EINVAL, "--cpufreq hwp: platform %s has no HWP ([cpufreq] hwp)",
				  p->name);
	if ((f->prm.driver == IL_CF_DRV_INTEL_PSTATE || f->prm.driver == IL_CF_DRV_HWP ||
	     f->prm.driver == IL_CF_DRV_INTEL_CPUFREQ) && !intel)
		return il_err_set(err, EINVAL, "--cpufreq %s: platform %s is not an Intel x86 part",
				  drv_names[f->prm.driver], p->name);
	/* energy_performance_preference exists only with HWP; the window is HWP's estimate */
	if ((prm->epp >= 0 || prm->hwp_window_us != 1000) && f->prm.driver != IL_CF_DRV_HWP)
		return il_err_set(err, EINVAL, "--cpufreq %s:%s: %s is for the hwp driver only",
				  drv_names[f->prm.driver], gov_names[f->prm.gov],
				  prm->epp >= 0 ? "epp" : "hwp_window_us");
	f->base_mhz = p->base_mhz > 0 ? p->base_mhz : s->params.default_mhz;
	f->top_mhz = p->nturbo > 0 && p->turbo_mhz[0] > 0 ? p->turbo_mhz[0] : f->base_mhz;
	/* EFFIC from the platform's [cpufreq], else the local fallback */
	double lowest = p->efficient_mhz > 0 ? p->efficient_mhz : min_mhz_fallback(p);
	if (lowest > f->base_mhz)
		lowest = f->base_mhz;
	/*
	 * Policy limits below cpuinfo.min_freq: the kernel would raise them to
	 * it (cpufreq_verify_within_cpu_limits()); the layer would run the
	 * CPUs below their lowest P-state. A freq_max below base makes no
	 * turbo ratio. Both are mistakes in the spec, refused.
	 */
	if ((prm->min_mhz > 0 && prm->min_mhz < lowest) || (prm->max_mhz > 0 && prm->max_mhz < lowest))
		return il_err_set(err, EINVAL, "--cpufreq: %s=%g is below the lowest frequency of "
				  "platform %s, %g MHz", prm->min_mhz > 0 && prm->min_mhz < lowest ?
				  "min_mhz" : "max_mhz", prm->min_mhz > 0 && prm->min_mhz < lowest ?
				  prm->min_mhz : prm->max_mhz, p->name, lowest);
	if (prm->freq_max_mhz > 0 && prm->freq_max_mhz < f->base_mhz)
		return il_err_set(err, EINVAL, "--cpufreq: freq_max_mhz=%g is below the base frequency "
				  "of platform %s, %g MHz", prm->freq_max_mhz, p->name, f->base_mhz);
	/* a floor above base is the user's to set, up to the policy's max (below) */
	f->min_mhz = prm->min_mhz > 0 ? prm->min_mhz : lowest;
	f->step_mhz = p->pstate_step_mhz > 0 ? p->pstate_step_mhz : 100;
	/*
	 * freq_max and whether the kernel is invariant: the platform layer's
	 * rule per model and release (il_platform_freq_max(), src/platform/
	 * freqmax.c); +invariance=on where the rule has none: the 4C bin.
	 */
	struct il_freq_max fm;
	bool fm_ok = il_platform_freq_max(p, rel, &fm, NULL) == 0;
	bool by_rule = fm_ok && fm.invariant;
	f->invariant = prm->invariance >= 0 ? prm->invariance == 1 : by_rule;
	if (prm->freq_max_mhz > 0) {
		f->freq_max_mhz = prm->freq_max_mhz;
		f->max_freq_ratio = (uint64_t)(f->freq_max_mhz * CAP / f->base_mhz);
	} else if (by_rule) {
		/* AMD runs this layer as acpi-cpufreq, whatever driver the file names */
		if (f->prm.driver == IL_CF_DRV_ACPI)
			il_freq_max_acpi_cpufreq(p, rel, &fm);
		f->freq_max_mhz = fm.mhz;
		f->max_freq_ratio = fm.ratio;
	} else {
		f->freq_max_mhz = il_cf_freq_max_fallback(p);
		if (!(f->freq_max_mhz > 0))
			f->freq_max_mhz = f->base_mhz;
		f->max_freq_ratio = (uint64_t)(f->freq_max_mhz * CAP / f->base_mhz);
	}
	if (f->max_freq_ratio < CAP)
		f->max_freq_ratio = CAP;
	f->util_est = prm->util_est >= 0 ? prm->util_est == 1 : true;
	f->hwp = f->prm.driver == IL_CF_DRV_HWP;
	/*
	 * schedutil reads PELT; intel_pstate's and ondemand's hooks read none
	 * of it, but the scheduler calls every hook only where PELT decayed
	 * (cfs_rq_util_change()), so they need its steps too. performance,
	 * a generic powersave and HWP have no hook work.
	 */
	f->pelt = f->prm.gov == IL_CF_GOV_SCHEDUTIL || f->prm.gov == IL_CF_GOV_ONDEMAND ||
		  (f->prm.driver == IL_CF_DRV_INTEL_PSTATE && f->prm.gov == IL_CF_GOV_POWERSAVE);
	/*
	 * performance and powersave on a generic driver ask for one fixed
	 * frequency on every CPU: which CPUs are in C0 cannot change a
	 * domain's highest request, and the tick has nothing to do
	 */
	f->tick_hook = f->pelt || f->prm.driver == IL_CF_DRV_INTEL_PSTATE ||
		       f->prm.gov == IL_CF_GOV_ONDEMAND;
	f->votes = f->tick_hook || f->hwp;
	f->hook = f->hwp || f->prm.gov == IL_CF_GOV_PERFORMANCE ? SIM_CF_HOOK_NONE :
		  f->prm.gov == IL_CF_GOV_SCHEDUTIL		  ? SIM_CF_HOOK_SCHEDUTIL :
		  f->prm.gov == IL_CF_GOV_ONDEMAND		  ? SIM_CF_HOOK_ONDEMAND :
		  f->prm.driver == IL_CF_DRV_INTEL_PSTATE	  ? SIM_CF_HOOK_PSTATE :
								    SIM_CF_HOOK_NONE;
	int64_t lat_ns;   /* cpuinfo.transition_latency */
	int64_t delay_us; /* policy->transition_delay_us */
	struct il_acpi_cpufreq ac;
	unsigned int acpi_max_khz = 0; /* acpi-cpufreq's cpuinfo.max_freq; 0: the policy max */
	switch (f->prm.driver) {
	case IL_CF_DRV_ACPI:
		/* the _PSS table (the platform's, else base down to EFFIC by 100 MHz), topped by base + 1 MHz */
		f->npst = il_platform_pstates(p, f->pst, IL_PLAT_PSTATES_MAX);
		f->max_mhz = f->npst > 0 ? f->pst[0] : f->base_mhz + 1;
		/*
		 * cpuinfo.max_freq per release (il_acpi_cpufreq_max(), src/platform/
		 * freqmax.c): P0 before 5.11; with a boost ratio P0 x it, in 5.11 as
		 * an extra table entry above P0 that writes P0's control (3c55e94c0ade,
		 * so it is the policy max too), from 5.12 set directly with P0 the
		 * policy max (538b0188da46), from 6.14 from _CPC's nominal frequency
		 * (083466754596, cb6a85f38f45). Invariant schedutil scales by it.
		 */
		if (il_acpi_cpufreq_max(p, rel, f->max_mhz, &ac) == 0) {
			acpi_max_khz = ac.max_khz;
			if (ac.boost_entry && f->npst > 0) {
				/* a full table keeps the kernel's top entries: the lowest goes */
				int n = f->npst < IL_PLAT_PSTATES_MAX ? f->npst : IL_PLAT_PSTATES_MAX - 1;
				memmove(&f->pst[1], &f->pst[0], (size_t)n * sizeof(f->pst[0]));
				f->pst[0] = ac.max_khz / 1000.0;
				f->npst = n + 1;
				f->max_mhz = f->pst[0];
			}
		}
		/* the _PSS latency the platform gives, else 10 µs (the usual value, an estimate) */
		lat_ns = p->transition_ns > 0 ? p->transition_ns : 10000;
		delay_us = 0;
		break;
	default:
		f->max_mhz = f->top_mhz;
		f->intel_table = true;
		lat_ns = 20000;   /* INTEL_CPUFREQ_TRANSITION_LATENCY */
		delay_us = 500;   /* INTEL_CPUFREQ_TRANSITION_DELAY */
		break;
	}
	/* HWP's range: IA32_HWP_CAPABILITIES lowest .. highest, else EFFIC .. the top bin */
	f->hwp_lo = p->hwp_lowest_mhz > 0 ? p->hwp_lowest_mhz : f->min_mhz;
	f->hwp_hi = p->hwp_highest_mhz > 0 ? p->hwp_highest_mhz : f->top_mhz;
	f->cpuinfo_max_khz = acpi_max_khz ? acpi_max_khz : (unsigned int)(f->max_mhz * 1000 + 0.5);
	if (prm->max_mhz > 0 && prm->max_mhz < f->max_mhz)
		f->max_mhz = prm->max_mhz;
	if (f->min_mhz > f->max_mhz)
		f->min_mhz = f->max_mhz;
	if (prm->rate_limit_us >= 0)
		f->rate_ns = prm->rate_limit_us * 1000;
	else if (delay_us)
		f->rate_ns = delay_us * 1000;
	else if (lat_ns / 1000 && il_release_cmp(rel, "6.12") >= 0)
		/* 37c6dccd6837 (v6.12): the latency and half as much again */
		f->rate_ns = (lat_ns / 1000 + (lat_ns / 1000 >> 1)) * 1000;
	else if (lat_ns / 1000 && il_release_cmp(rel, "6.9") >= 0)
		/* e13aa799c2a6, a755d0e2d41b (v6.9): a latency above 2 ms as it is, else x 1000 capped at 2 ms */
		f->rate_ns = (lat_ns / 1000 > 2000 ? lat_ns / 1000 :
			      lat_ns / 1000 * 1000 < 2000 ? lat_ns / 1000 * 1000 : 2000) * 1000;
	else if (lat_ns / 1000)
		/* LATENCY_MULTIPLIER x the latency in µs, at most 10 ms */
		f->rate_ns = (lat_ns / 1000 * 1000 < 10000 ? lat_ns / 1000 * 1000 : 10000) * 1000;
	else
		f->rate_ns = 1000 * 1000;
	/* schedutil's text per release (docs/cpufreq.md "schedutil by release") */
	f->su_restore_cached = il_release_cmp(rel, "5.10") >= 0;
	f->runnable = f->prm.gov == IL_CF_GOV_SCHEDUTIL && il_release_cmp(rel, "6.5") >= 0;
	f->rm_rule = il_release_cmp(rel, "5.17") >= 0 ? IL_PELT_RM_CLAMP :
		     il_release_cmp(rel, "5.14") >= 0 ? IL_PELT_RM_REBUILD : IL_PELT_RM_SUB;
	f->pelt_lag = il_release_cmp(rel, "6.0") >= 0;
	f->fork_attach_early = il_release_cmp(rel, "6.1") < 0;
	if (f->runnable) {
		f->rq_r = calloc((size_t)s->ncpus, sizeof(*f->rq_r));
		f->rq_wl = calloc((size_t)s->ncpus, sizeof(*f->rq_wl));
		if (!f->rq_r || !f->rq_wl)
			return il_err_set(err, ENOMEM, "out of memory");
	}
	f->su_headroom = il_release_cmp(rel, "6.8") >= 0  ? IL_CF_HEADROOM_CAPPED :
			 il_release_cmp(rel, "5.14") >= 0 ? IL_CF_HEADROOM_UTIL : IL_CF_HEADROOM_FREQ;
	f->transition_ns = prm->transition_us >= 0 ? prm->transition_us * 1000 : lat_ns;
	f->window_ns = prm->hwp_window_us * 1000;
	f->epp = prm->epp >= 0 ? prm->epp : f->prm.gov == IL_CF_GOV_PERFORMANCE ? 0 : 128;
	bool core_dom = prm->domain == IL_CF_DOM_CORE ||
			(prm->domain == IL_CF_DOM_AUTO && per_core_pstates(p));
	f->dom_cores = core_dom ? 1 : p->cores_per_package;
	f->ndom = s->ncores / f->dom_cores;
	f->dom_mhz = calloc((size_t)f->ndom, sizeof(double));
	f->cpu = aligned_alloc(_Alignof(struct sim_cf_cpu), (size_t)s->ncpus * sizeof(*f->cpu));
	if (f->cpu)
		memset(f->cpu, 0, (size_t)s->ncpus * sizeof(*f->cpu));
	f->req = calloc((size_t)s->ncpus, sizeof(double));
	f->dom_pkg = calloc((size_t)f->ndom, sizeof(int));
	f->dirty = calloc((size_t)f->ndom, sizeof(int));
	f->is_dirty = calloc((size_t)f->ndom, sizeof(bool));
	f->pkg_bin = calloc((size_t)s->npkgs, sizeof(double));
	f->pkg_active = malloc((size_t)s->npkgs * sizeof(int));
	f->bin = calloc((size_t)p->cores_per_package + 1, sizeof(double));
	f->llc = malloc((size_t)s->ncpus * sizeof(int));
	if (!f->dom_mhz || !f->cpu || !f->req || !f->dom_pkg || !f->dirty || !f->is_dirty ||
	    !f->pkg_bin || !f->pkg_active || !f->bin || !f->llc)
		return il_err_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < s->ncpus; i++) {
		f->llc[i] = sim_llc_of(s, i);
		f->cpu[i].stopper = -1; /* the engine names it when it makes the thread */
	}
	f->idle_wakelist = il_release_cmp(rel, "6.0") >= 0;
	f->ue_text = il_ue_text_of(rel);
	f->ue_rm_late = il_release_cmp(rel, "5.12") < 0;
	f->ue_update_early = il_release_cmp(rel, "6.12") >= 0;
	/* no active-core count seen yet: the first pass looks every package's bin up */
	for (int k = 0; k < s->npkgs; k++)
		f->pkg_active[k] = -1;
	f->dom_per_pkg = f->ndom / s->npkgs;
	/* the turbo bin of each active-core count, looked up at every evaluation */
	for (int n = 0; n <= p->cores_per_package; n++)
		f->bin[n] = il_turbo_mhz(p, n, s->params.default_mhz);
	/* resolve()'s bounds, converted once */
	f->lo_khz = (unsigned int)(f->min_mhz * 1000 + 0.5);
	f->hi_khz = (unsigned int)(f->max_mhz * 1000 + 0.5);
	f->step_khz = (unsigned int)(f->step_mhz * 1000 + 0.5);
	f->base_khz = (unsigned int)(f->base_mhz * 1000 + 0.5);
	/*
	 * intel_pstate_update_perf_limits(): the policy's limits as ratios,
	 * truncated; the lower never below the lowest P-state, the upper never
	 * below the lower (intel_pstate_prepare_request())
	 */
	if (f->step_khz > 0) {
		unsigned int low_ratio = (unsigned int)(lowest * 1000 + 0.5) / f->step_khz;
		f->min_ratio = f->lo_khz / f->step_khz;
		if (f->min_ratio < low_ratio)
			f->min_ratio = low_ratio;
		f->max_ratio = f->hi_khz / f->step_khz;
		if (f->max_ratio < f->min_ratio)
			f->max_ratio = f->min_ratio;
	}
	/*
	 * resolve()'s DIV_ROUND_UP by the step as a multiply: n < hi_khz +
	 * step_khz <= 2^27 there; with l = ceil(log2 step), m = floor(2^(27 + l)
	 * / step) + 1 < 2^28 gives (n m) >> (27 + l) = n / step for every
	 * n < 2^27 (Granlund and Montgomery 1994, theorem 4.2); else divide.
	 */
	f->step_sh = 0;
	if (f->step_khz > 0 && (uint64_t)f->hi_khz + f->step_khz <= (1u << 27)) {
		int l = 0;
		while ((1ull << l) < f->step_khz)
			l++;
		f->step_sh = 27 + l;
		f->step_m = (1ull << f->step_sh) / f->step_khz + 1;
	}
	f->on = true;
	/*
	 * The first request: the governor's static one (performance: max,
	 * generic powersave: min). Otherwise intel_pstate leaves every CPU at
	 * its minimum P-state at init (intel_pstate_get_cpu_pstates() ends with
	 * intel_pstate_set_min_pstate(); intel_cpufreq_cpu_init() sets
	 * policy->cur = cpuinfo.min_freq to match, drivers/cpufreq/intel_pstate.c
	 * v5.7), and a CPU that never runs keeps it; acpi-cpufreq starts where
	 * the firmware left the CPU, taken as the policy max.
	 */
	double first = f->max_mhz;
	if (f->prm.gov != IL_CF_GOV_PERFORMANCE && !f->hwp &&
	    (f->prm.gov == IL_CF_GOV_POWERSAVE || f->prm.driver == IL_CF_DRV_INTEL_PSTATE ||
	     f->prm.driver == IL_CF_DRV_INTEL_CPUFREQ))
		first = f->min_mhz;
	if (f->prm.driver == IL_CF_DRV_ACPI && first > f->base_mhz)
		first = f->base_mhz + 1;
	if (f->intel_table && f->step_khz > 0) {
		/*
		 * intel_cpufreq_target(): the policy max with CPUFREQ_RELATION_H
		 * (performance) takes the ratio below, the min with RELATION_L
		 * the ratio above, each within the limits' ratios: an off-grid
		 * max_mhz = 1000 on an 80 MHz part runs at 960 MHz
		 */
		unsigned int r = first == f->max_mhz ? f->hi_khz / f->step_khz
						     : (f->lo_khz + f->step_khz - 1) / f->step_khz;
		first = (double)(clamp_ratio(f, r) * f->step_khz) / 1000.0;
	}
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		CF(c)->freq_scale = CAP;
		s->cf.req[c->cpu] = first;
		CF(c)->cur_khz = (unsigned int)(first * 1000 + 0.5);
		CF(c)->next_khz = CF(c)->cur_khz;
		/*
		 * A run starts on a machine that has idled under the governor:
		 * no limits change is pending (need_freq_update never sets in
		 * a run: the policy's limits are fixed) and each CPU has idled
		 * since its last update, so its first update is not "busy"
		 */
		CF(c)->idle_calls_saved = UINT64_MAX;
		CF(c)->last_freq_update = INT64_MIN / 2;
	}
	for (int k = 0; k < s->ncores; k++) {
		s->cores[k].dom = k / f->dom_cores;
		s->cores[k].freq_since = 0;
	}
	/* time at each frequency is counted per core from here */
	s->nfreq = 0;
	memset(s->freq_slot, 0, sizeof(s->freq_slot));
	for (int d = 0; d < f->ndom; d++) {
		f->dom_mhz[d] = -1;
		f->dom_pkg[d] = s->cpus[s->cores[d * f->dom_cores].first].pkg;
	}
	for (int k = 0; k < s->ncores; k++)
		s->cores[k].freq_idx = freq_index(s, s->cores[k].mhz);
	s->turbo_fixed = false;
	dom_eval_all(s, 0);
	return 0;
}

void sim_cf_free(struct il_sim *s)
{
	free(s->cf.dom_mhz);
	free(s->cf.dirty);
	free(s->cf.is_dirty);
	free(s->cf.pkg_bin);
	free(s->cf.pkg_active);
	s->cf.pkg_active = NULL;
	free(s->cf.bin);
	s->cf.bin = NULL;
	free(s->cf.cpu);
	free(s->cf.req);
	s->cf.req = NULL;
	free(s->cf.dom_pkg);
	s->cf.dom_pkg = NULL;
	free(s->cf.task);
	free(s->cf.llc);
	s->cf.llc = NULL;
	free(s->cf.rq_r);
	s->cf.rq_r = NULL;
	free(s->cf.rq_wl);
	s->cf.rq_wl = NULL;
	free(s->cf.task_r);
	s->cf.task_r = NULL;
	s->cf.dom_mhz = NULL;
	s->cf.cpu = NULL;
	s->cf.task = NULL;
}

void sim_cf_task_added(struct il_sim *s, int task)
{
	struct sim_cf *f = &s->cf;
	if (task >= f->cap_task) {
		int cap = f->cap_task ? f->cap_task * 2 : 16;
		while (cap <= task)
			cap *= 2;
		struct sim_cf_task *n = aligned_alloc(_Alignof(struct sim_cf_task), (size_t)cap * sizeof(*n));
		if (!n)
			abort(); /* as the engine's own task array (il_xrealloc) */
		if (f->cap_task)
			memcpy(n, f->task, (size_t)f->cap_task * sizeof(*n));
		free(f->task);
		memset(n + f->cap_task, 0, (size_t)(cap - f->cap_task) * sizeof(*n));
		if (f->runnable) {
			struct il_pelt_r *r = realloc(f->task_r, (size_t)cap * sizeof(*r));
			if (!r)
				abort();
			memset(r + f->cap_task, 0, (size_t)(cap - f->cap_task) * sizeof(*r));
			f->task_r = r;
		}
		f->task = n;
		f->cap_task = cap;
	}
	memset(&f->task[task], 0, sizeof(f->task[task]));
	if (f->runnable)
		memset(&f->task_r[task], 0, sizeof(f->task_r[task]));
	f->task[task].pelt_cpu = -1;
	f->task[task].fresh = true;
	f->task[task].ue_fresh = true; /* util_est zeroed, its flag clear, as a new task's */
}

/* The run queue's PELT step with its runnable part; adj as sim_cf_rq_pelt_adj()'s, tasks not yet activated left out. */
bool sim_cf_rq_pelt_r(struct il_sim *s, struct sim_cpu *c, int adj)
{
	bool running = sim_cf_cfs_running(CF(c), c);
	int queued = sim_cf_cfs_queued(CF(c), c);
	int n = queued + running + adj - s->cf.rq_wl[c->cpu];
	return il_pelt_update_r(&CF(c)->rq_pelt, &s->cf.rq_r[c->cpu], CF(c)->clock_pelt,
				running || queued > 0, running, n > 0 ? (unsigned int)n : 0);
}

/* A task's PELT step with its runnable part: runnable while on a run queue (load). */
bool sim_cf_task_pelt_r(struct il_sim *s, int task, uint64_t now, bool load, bool running)
{
	return il_pelt_update_r(&s->cf.task[task].pelt, &s->cf.task_r[task], now, load, running, load);
}

/*
 * A step of sa to now that stays within its current period (no decay, so
 * no new averages and no governor call): *units, the 1024 ns units it
 * adds. False when it would cross a period boundary (or now is behind).
 */
static inline bool pelt_within(const struct il_pelt *sa, uint64_t now, uint64_t *units)
{
	if (now < sa->last_update_time)
		return false;
	*units = (now - sa->last_update_time) >> 10;
	return *units + sa->period_contrib < 1024;
}

/*
 * il_pelt_update_r() of such a step, with load already folded in (running
 * and n zero when not loaded): what it does when no period ends.
 */
static inline void pelt_accrue(struct il_pelt *sa, struct il_pelt_r *r, uint64_t units,
			       bool running, unsigned int n)
{
	if (!units)
		return;
	sa->last_update_time += units << 10;
	sa->period_contrib += (uint32_t)units;
	if (running)
		sa->util_sum += units << 10;
	if (n)
		r->runnable_sum += ((uint64_t)n * units) << 10;
}

/*
 * The lean path of a runnable-mode enqueue or pick: the PELT clock to now;
 * when neither the queue's step nor the task's ends a period and no
 * removal is pending, the queue's step as il_pelt_update_r() does it then
 * (sim_cf_rq_pelt_r()'s counts with adj), *ut the task's units, true;
 * an enqueue (ue) adds the task's util_est first, as enqueue_r_steps().
 * False, with nothing stepped: the general steps must run.
 */
static inline __attribute__((always_inline)) bool
rq_step_within(struct il_sim *s, struct sim_cpu *c, struct sim_cf_task *t, int64_t now,
	       int adj, bool ue, uint64_t *ut)
{
	struct sim_cf_cpu *fc = CF(c);
	uint64_t uq;

	sim_cf_rq_clock(s, c, now);
	uint64_t pnow = fc->clock_pelt;
	if (fc->removed || !pelt_within(&fc->rq_pelt, pnow, &uq) || !pelt_within(&t->pelt, pnow, ut))
		return false;
	if (ue)
		sim_cf_ue_add(s, fc, t);
	bool running = sim_cf_cfs_running(fc, c);
	int queued = sim_cf_cfs_queued(fc, c);
	bool load = running || queued > 0;
	int n = queued + running + adj - s->cf.rq_wl[c->cpu];
	pelt_accrue(&fc->rq_pelt, &s->cf.rq_r[c->cpu], uq, load && running,
		    load && n > 0 ? (unsigned int)n : 0);
	return true;
}

static __attribute__((noinline)) void pick_r_steps(struct il_sim *s, struct sim_cpu *c, int task,
						   int64_t now);

static inline __attribute__((always_inline)) void update_util(struct il_sim *s, struct sim_cpu *c,
								 int64_t now, bool iowait, bool remote);

/*
 * The PELT of task and of c's queue stand at the same point (the same
 * last_update_time and period_contrib, as the pair step of the task's
 * block left them) and no removal is pending: a step of each to the same
 * clock then has the same units, periods and period_contrib, and is
 * computed once (il_pelt_update_r()'s arithmetic, each sum by itself).
 */
static inline bool pelt_aligned(const struct sim_cf_cpu *fc, const struct sim_cf_task *t)
{
	return !fc->removed && t->pelt.last_update_time == fc->rq_pelt.last_update_time &&
	       t->pelt.period_contrib == fc->rq_pelt.period_contrib;
}

/*
 * A step of an idle CPU's queue and of an aligned task (pelt_aligned())
 * that ends no period, as rq_step_within() and pelt_accrue() take it:
 * c->cur < 0, so sim_cf_rq_clock() would set the PELT clock to now less
 * the lost idle time; *units, the 1024 ns units both steps add. False
 * when a removal is pending, the two are not aligned, the clock is behind
 * or a period would end: nothing is written then, and the general steps
 * (which take the clock themselves) run.
 */
static inline __attribute__((always_inline)) bool idle_within(struct sim_cf_cpu *fc,
							      const struct sim_cf_task *t,
							      int64_t now, uint64_t *units)
{
	uint64_t lut = fc->rq_pelt.last_update_time;
	uint32_t pc = fc->rq_pelt.period_contrib;
	if (fc->removed || t->pelt.last_update_time != lut || t->pelt.period_contrib != pc)
		return false;
	uint64_t pnow = (uint64_t)now - fc->lost_idle_ns;
	if (pnow < lut)
		return false;
	*units = (pnow - lut) >> 10;
	if (*units + pc >= 1024)
		return false;
	fc->clock_last = now;
	fc->clock_pelt = pnow;
	return true;
}

/* Both clocks of idle_within() moved by units (nothing decays). */
static inline void idle_move(struct sim_cf_cpu *fc, struct sim_cf_task *t, uint64_t units)
{
	uint64_t lut = fc->rq_pelt.last_update_time + (units << 10);
	uint32_t pc = fc->rq_pelt.period_contrib + (uint32_t)units;
	fc->rq_pelt.last_update_time = t->pelt.last_update_time = lut;
	fc->rq_pelt.period_contrib = t->pelt.period_contrib = pc;
}

/*
 * sim_cf_pick_runnable() on an idle CPU (the queue does not run) whose
 * step with the task's is idle_within(): rq_step_within()'s and
 * pelt_accrue()'s updates with running false and one units count.
 */
static inline __attribute__((always_inline)) bool pick_idle(struct il_sim *s, struct sim_cpu *c,
							    int task, int64_t now)
{
	struct sim_cf_cpu *fc = CF(c);
	struct sim_cf_task *t = &s->cf.task[task];
	uint64_t units;

	if (!idle_within(fc, t, now, &units))
		return false;
	int cpu = c->cpu;
	bool wl = t->wl_wait;
	if (units) {
		/* the queue: loaded while a fair task is queued, n of them runnable (the picked one too) */
		int queued = sim_cf_cfs_queued(fc, c);
		int n = queued + 1 - s->cf.rq_wl[cpu];
		idle_move(fc, t, units);
		if (queued > 0 && n > 0)
			s->cf.rq_r[cpu].runnable_sum += ((uint64_t)n * units) << 10;
		/* the task: runnable on the queue unless it waited on the wakelist */
		if (!wl)
			s->cf.task_r[task].runnable_sum += units << 10;
	}
	if (wl) {
		t->wl_wait = false;
		s->cf.rq_wl[cpu]--;
	}
	return true;
}

/*
 * sim_cf_enqueue_r() onto an idle CPU whose step with the task's is
 * idle_within(): enqueue_r_steps()'s updates with running false, the task
 * not on a queue before (its step only moves its clock) and one units
 * count.
 */
static inline __attribute__((always_inline)) bool enqueue_idle_within(struct il_sim *s,
								      struct sim_cpu *c, int task,
								      int64_t now)
{
	struct sim_cf_cpu *fc = CF(c);
	struct sim_cf_task *t = &s->cf.task[task];
	uint64_t units;

	if (!idle_within(fc, t, now, &units))
		return false;
	int cpu = c->cpu;
	sim_cf_ue_add(s, fc, t);
	if (units) {
		/* the queue: n runnable besides the task, not yet counted */
		int queued = sim_cf_cfs_queued(fc, c);
		int n = queued - 1 - s->cf.rq_wl[cpu];
		idle_move(fc, t, units);
		if (queued > 0 && n > 0)
			s->cf.rq_r[cpu].runnable_sum += ((uint64_t)n * units) << 10;
	}
	if (c->rq_len == 1 && !t->wl_wait) {
		t->wl_wait = true;
		s->cf.rq_wl[cpu]++;
	}
	t->cf_queued = true;
	return true;
}

/*
 * sim_cf_enqueue_r() onto an idle CPU whose queue and task are aligned
 * (pelt_aligned()): within a period the lean path's steps with one units
 * count; across a period end, when nothing accrues on the queue (n = 0
 * runnable besides the task, which is not yet counted: the queue's step
 * and the task's, which is not on a queue, only decay), one pair of
 * decays for both with one reciprocal (the kernel's steps, each sum
 * decayed and divided as il_pelt_update_r() does), then the governor. False,
 * with only the PELT clock taken: the general steps run.
 */
static inline __attribute__((always_inline)) bool enqueue_idle(struct il_sim *s, struct sim_cpu *c,
							       int task, int64_t now, int from_cpu,
							       bool cross)
{
	struct sim_cf_cpu *fc = CF(c);
	struct sim_cf_task *t = &s->cf.task[task];
	struct il_pelt *q = &fc->rq_pelt, *p = &t->pelt;
	int cpu = c->cpu;

	if (!pelt_aligned(fc, t))
		return false;
	sim_cf_rq_clock(s, c, now);
	uint64_t pnow = fc->clock_pelt, lut = q->last_update_time;
	if (pnow < lut)
		return false;
	uint64_t units = (pnow - lut) >> 10;
	uint32_t pc = q->period_contrib;
	int queued = sim_cf_cfs_queued(fc, c);
	int n = queued - 1 - s->cf.rq_wl[cpu];
	bool accrue = queued > 0 && n > 0;
	bool decayed = false;
	if (units + pc < 1024) {
		sim_cf_ue_add(s, fc, t);
		if (units) {
			lut += units << 10;
			q->last_update_time = p->last_update_time = lut;
			q->period_contrib = p->period_contrib = pc + (uint32_t)units;
			if (accrue)
				s->cf.rq_r[cpu].runnable_sum += ((uint64_t)n * units) << 10;
		}
	} else {
		if (!cross || accrue)
			return false;
		sim_cf_ue_add(s, fc, t);
		struct il_pelt_r *qr = &s->cf.rq_r[cpu], *pr = &s->cf.task_r[task];
		uint64_t periods = (units + pc) / 1024;
		pc = (uint32_t)((units + pc) % 1024);
		q->last_update_time = p->last_update_time = lut + (units << 10);
		q->period_contrib = p->period_contrib = pc;
		q->util_sum = il_pelt_decay_load(q->util_sum, periods);
		qr->runnable_sum = il_pelt_decay_load(qr->runnable_sum, periods);
		p->util_sum = il_pelt_decay_load(p->util_sum, periods);
		pr->runnable_sum = il_pelt_decay_load(pr->runnable_sum, periods);
		uint64_t m = il_pelt_div_m[pc & 1023];
		q->util_avg = (unsigned long)il_pelt_div_by(q->util_sum, m, pc);
		qr->runnable_avg = (unsigned long)il_pelt_div_by(qr->runnable_sum, m, pc);
		p->util_avg = (unsigned long)il_pelt_div_by(p->util_sum, m, pc);
		pr->runnable_avg = (unsigned long)il_pelt_div_by(pr->runnable_sum, m, pc);
		t->ue_fresh = true;
		decayed = true;
	}
	if (c->rq_len == 1 && !t->wl_wait) {
		t->wl_wait = true;
		s->cf.rq_wl[cpu]++;
	}
	t->cf_queued = true;
	if (decayed)
		update_util(s, c, now, false, sim_cf_remote(s, from_cpu, task, c));
	return true;
}

/*
 * sim_cf_pick() in runnable mode: a task woken onto the idle CPU joins its
 * queue only now (its wakelist, as it woke), so it was not runnable before.
 * When neither the queue's step nor the task's ends a period (and no
 * removal is pending), nothing decays and no governor is called: those
 * steps are done here, with what il_pelt_update_r() does then; the rest
 * in pick_r_steps(). Either way the same updates.
 */
static __attribute__((noinline)) void pick_r_lean(struct il_sim *s, struct sim_cpu *c, int task,
						  int64_t now);

/*
 * The idle CPU's within-period pick in a function of its own (a small
 * frame: the general steps' registers are not saved for it); the rest by a
 * tail call.
 */
void sim_cf_pick_runnable(struct il_sim *s, struct sim_cpu *c, int task, int64_t now)
{
	if (c->cur < 0 && pick_idle(s, c, task, now))
		return;
	pick_r_lean(s, c, task, now);
}

static __attribute__((noinline)) void pick_r_lean(struct il_sim *s, struct sim_cpu *c, int task,
						  int64_t now)
{
	struct sim_cf_task *t = &s->cf.task[task];
	uint64_t ut;

	if (!rq_step_within(s, c, t, now, 1, false, &ut)) {
		pick_r_steps(s, c, task, now);
		return;
	}
	bool wl = t->wl_wait;
	pelt_accrue(&t->pelt, &s->cf.task_r[task], ut, false, !wl);
	if (wl) {
		t->wl_wait = false;
		s->cf.rq_wl[c->cpu]--;
	}
}

/* sim_cf_pick_runnable()'s steps in general (sim_cf_rq_clock() again: it is idempotent at the same now) */
static __attribute__((noinline)) void pick_r_steps(struct il_sim *s, struct sim_cpu *c, int task,
						   int64_t now)
{
	struct sim_cf_task *t = &s->cf.task[task];
	sim_cf_rq_clock(s, c, now);
	bool decayed = sim_cf_rq_pelt_adj(s, c, 1);
	bool wl = t->wl_wait;
	if (sim_cf_task_pelt(s, task, CF(c)->clock_pelt, !wl, false))
		t->ue_fresh = true;
	if (wl) {
		t->wl_wait = false;
		s->cf.rq_wl[c->cpu]--;
	}
	if (decayed)
		sim_cf_update_util(s, c, now);
}

/*
 * update_cfs_rq_load_avg()'s removed part: what left the queue since its
 * last update, in one step, with the divider of that update (before the
 * queue's own step).
 */
void sim_cf_rq_apply_removed(struct il_sim *s, struct sim_cpu *c)
{
	struct sim_cf_cpu *fc = CF(c);
	struct il_pelt *q = &fc->rq_pelt;
	uint32_t div = il_pelt_divider(q);
	il_pelt_remove(s->cf.rm_rule, &q->util_avg, &q->util_sum, fc->rm_util, div);
	if (s->cf.runnable) {
		struct il_pelt_r *qr = &s->cf.rq_r[c->cpu];
		il_pelt_remove(s->cf.rm_rule, &qr->runnable_avg, &qr->runnable_sum, fc->rm_runnable, div);
	}
	fc->rm_util = fc->rm_runnable = 0;
	fc->removed = false;
}

/* remove_entity_load_avg(): the task's averages join the queue's removed ones. */
static void remove_util(struct il_sim *s, struct sim_cpu *o, int task)
{
	CF(o)->rm_util += s->cf.task[task].pelt.util_avg;
	if (s->cf.runnable)
		CF(o)->rm_runnable += s->cf.task_r[task].runnable_avg;
	CF(o)->removed = true;
}

void sim_cf_task_new(struct il_sim *s, int task)
{
	struct sim_cf_task *t = &s->cf.task[task];
	if (t->cf_queued) {
		/* a running task execs: its history stays (only a new process starts afresh) */
		return;
	}
	if (t->pelt_cpu >= 0) {
		/* the old process exited: its util leaves the run queue (detach) */
		remove_util(s, &s->cpus[t->pelt_cpu], task);
	}
	memset(&t->pelt, 0, sizeof(t->pelt));
	if (s->cf.runnable)
		memset(&s->cf.task_r[task], 0, sizeof(s->cf.task_r[task]));
	t->pelt_cpu = -1;
	/* init_entity_runnable_average(): util_est zeroed, its flag clear */
	memset(&t->ue, 0, sizeof(t->ue));
	t->ue_added = 0;
	t->ue_fresh = true;
	t->fresh = true;
}

/* ------------------------------------------------- delivered frequency */

/* Set domain d's cores to mhz: counters, energy and running bursts at the old one first. */
static __attribute__((noinline)) void dom_set(struct il_sim *s, int d, double mhz, int64_t now)
{
	struct sim_cf *f = &s->cf;
	int c0 = d * f->dom_cores;
	double aw = active_power(s, mhz);
	int fi = freq_index(s, mhz);

	f->dom_mhz[d] = mhz;
	for (int k = c0; k < c0 + f->dom_cores; k++) {
		struct sim_core *co = &s->cores[k];
		double old = co->mhz;
		if (old == mhz)
			continue;
		f->transitions++;
		s->freq_ns[co->freq_idx] += now - co->freq_since;
		co->freq_since = now;
		for (int i = co->first; i < co->first + co->nthreads; i++) {
			sim_c0_flush(s, &s->cpus[i], now);
			energy_flush(s, &s->cpus[i], now);
		}
		co->mhz = mhz;
		co->active_w = aw;
		co->freq_idx = fi;
		for (int i = co->first; i < co->first + co->nthreads; i++) {
			s->cpus[i].power_w = thread_power(s, &s->cpus[i]);
			burst_retime(s, &s->cpus[i], old, mhz, now);
		}
	}
}

/* The frequency domain d delivers now: its C0 CPUs' highest request, capped by the turbo bin. */
static inline __attribute__((always_inline)) void dom_eval(struct il_sim *s, int d,
							      int64_t now)
{
	struct sim_cf *f = &s->cf;
	int k0 = d * f->dom_cores;
	double want = 0, any = 0;
	const struct sim_core *c0 = &s->cores[k0];
	if (f->dom_cores == 1 && c0->nthreads == 2) {
		/* a core of two threads (per-core P-states with SMT): the loop below, unrolled */
		const double *req = &f->req[c0->first];
		double r0 = req[0], r1 = req[1];
		any = r0 > 0 ? r0 : 0;
		any = r1 > any ? r1 : any;
		want = c0->tlevel[0] == 0 && r0 > 0 ? r0 : 0;
		want = c0->tlevel[1] == 0 && r1 > want ? r1 : want;
	} else {
		/* the threads' requests and levels from the cores' copies (no sim_cpu line) */
		for (int k = k0; k < k0 + f->dom_cores; k++) {
			const struct sim_core *co = &s->cores[k];
			const double *req = &f->req[co->first];
			for (int i = 0; i < co->nthreads; i++) {
				if (req[i] > any)
					any = req[i];
				if (co->tlevel[i] == 0 && req[i] > want)
					want = req[i];
			}
		}
	}
	if (want == 0)
		want = any;
	const struct sim_pkg *pk = &s->pkgs[f->dom_pkg[d]];
	double bin = f->bin[pk->active];
	/* acpi-cpufreq's base + 1 MHz entry and any ratio above base: turbo as the bin allows */
	double mhz = want > f->base_mhz ? (want < bin ? want : bin) : want;
	if (f->prm.driver == IL_CF_DRV_ACPI && want > f->base_mhz)
		mhz = bin;
	if (mhz != f->dom_mhz[d])
		dom_set(s, d, mhz, now);
}

/* Every domain, at setup. */
static void dom_eval_all(struct il_sim *s, int64_t now)
{
	for (int d = 0; d < s->cf.ndom; d++)
		dom_eval(s, d, now);
}

/* cpu asks for mhz: in effect after the transition latency. */
static void request(struct il_sim *s, struct sim_cpu *c, double mhz, int64_t now)
{
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d cpufreq request %.0f MHz\n", (long long)now, c->cpu,
			mhz);
	if (s->cf.transition_ns <= 0) {
		s->cf.req[c->cpu] = mhz;
		dom_eval(s, s->cores[c->core].dom, now);
		return;
	}
	sim_evheap_push(&s->evq, (struct sim_ev){ .t = now + s->cf.transition_ns, .seq = s->seq++,
						  .type = EV_FREQ, .cpu = c->cpu, .arg = -1,
						  .arg2 = (uint64_t)(mhz * 1000 + 0.5) });
}

void sim_cf_freq_event(struct il_sim *s, int cpu, uint64_t khz, int64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	s->cf.req[c->cpu] = (double)khz / 1000;
	dom_eval(s, s->cores[c->core].dom, now);
}

/* HWP (an estimate, see the header): each CPU's request from its C0 share over the window. */
static void hwp_window(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	struct sim_cf *f = &s->cf;
	sim_c0_flush(s, c, now);
	double span = (double)(now - CF(c)->smp_t) * f->base_mhz * 1e-3;
	double busy = span > 0 ? (CF(c)->mperf - CF(c)->mperf_smp) / span : 0;
	CF(c)->mperf_smp = CF(c)->mperf;
	CF(c)->smp_t = now;
	double thr = f->epp > 0 ? f->epp / 255.0 : 1.0 / 255;
	double x = busy / thr;
	if (x > 1)
		x = 1;
	double mhz = f->hwp_lo + (f->hwp_hi - f->hwp_lo) * x;
	mhz = (double)(int64_t)(mhz / f->step_mhz + 0.5) * f->step_mhz; /* whole ratios */
	if (mhz < f->hwp_lo)
		mhz = f->hwp_lo;
	if (mhz != s->cf.req[c->cpu]) {
		s->cf.req[c->cpu] = mhz;
		sim_cf_mark(s, s->cores[c->core].dom);
	}
}

/*
 * Every turbo_interval: the domains whose inputs changed since the last
 * pass (a CPU entered or left C0, an HWP request moved, the package's
 * turbo bin moved) are evaluated again; the others would give the same.
 */
void sim_cf_periodic(struct il_sim *s, int64_t now)
{
	struct sim_cf *f = &s->cf;
	if (f->hwp)
		for (int i = 0; i < s->ncpus; i++)
			if (now - f->cpu[i].smp_t >= f->window_ns)
				hwp_window(s, &s->cpus[i], now);
	for (int k = 0; k < s->npkgs; k++) {
		/* the bin is looked up only when the active-core count moved */
		int active = s->pkgs[k].active;
		if (active == f->pkg_active[k])
			continue;
		f->pkg_active[k] = active;
		double bin = f->bin[active];
		if (bin == f->pkg_bin[k])
			continue;
		f->pkg_bin[k] = bin;
		int per_pkg = f->dom_per_pkg;
		for (int d = k * per_pkg; d < (k + 1) * per_pkg; d++)
			sim_cf_mark(s, d);
	}
	for (int i = 0; i < f->ndirty; i++) {
		int d = f->dirty[i];
		f->is_dirty[d] = false;
		dom_eval(s, d, now);
	}
	f->ndirty = 0;
}

/* ------------------------------------------------------------ PELT */

/* attach_entity_load_avg(): t's util (and runnable) joins c's run queue, aligned to its periods. */
static void attach(struct il_sim *s, struct sim_cpu *c, struct sim_cf_task *t)
{
	uint32_t div = il_pelt_divider(&CF(c)->rq_pelt);
	t->pelt.last_update_time = CF(c)->rq_pelt.last_update_time;
	t->pelt.period_contrib = CF(c)->rq_pelt.period_contrib;
	t->pelt.util_sum = (uint64_t)t->pelt.util_avg * div;
	CF(c)->rq_pelt.util_avg += t->pelt.util_avg;
	CF(c)->rq_pelt.util_sum += t->pelt.util_sum;
	if (s->cf.runnable) {
		struct il_pelt_r *r = &s->cf.task_r[t - s->cf.task], *q = &s->cf.rq_r[c->cpu];
		r->runnable_sum = (uint64_t)r->runnable_avg * div;
		q->runnable_avg += r->runnable_avg;
		q->runnable_sum += r->runnable_sum;
	}
	t->pelt_cpu = c->cpu;
}

enum il_ue_text il_ue_text_of(const char *rel)
{
	if (il_release_cmp(rel, "5.5") < 0)
		return IL_UE_4_17;
	if (il_release_cmp(rel, "5.13") < 0)
		return IL_UE_5_5;
	if (il_release_cmp(rel, "6.8") < 0)
		return IL_UE_5_13;
	if (il_release_cmp(rel, "6.16") < 0)
		return IL_UE_6_8;
	return IL_UE_6_16;
}

/* ------------------------------------------------------------ governors */

/* cpu_util_cfs() with util_est, capped at the capacity (schedutil_cpu_util()). */
static unsigned long cpu_util(const struct il_sim *s, const struct sim_cpu *c)
{
	unsigned long u = CF(c)->rq_pelt.util_avg;
	/* cpu_util_cfs_boost() from 6.5: the queue's runnable_avg counts too */
	if (s->cf.runnable && s->cf.rq_r[c->cpu].runnable_avg > u)
		u = s->cf.rq_r[c->cpu].runnable_avg;
	if (s->cf.util_est && CF(c)->ue_enqueued > u)
		u = CF(c)->ue_enqueued;
	return u < CAP ? u : CAP;
}


/* resolve()'s table drivers: the platform's _PSS table, else acpi-cpufreq's steps below base. */
static unsigned int resolve_table(const struct sim_cf *f, unsigned int khz)
{
	if (f->npst > 0) {
		/* the platform's _PSS table, descending: the lowest entry at or above */
		unsigned int best = (unsigned int)(f->pst[0] * 1000 + 0.5);
		for (int i = 0; i < f->npst; i++) {
			unsigned int e = (unsigned int)(f->pst[i] * 1000 + 0.5);
			if (e >= khz && e < best)
				best = e;
		}
		return best;
	}
	/* acpi-cpufreq: the lowest _PSS entry at or above (CPUFREQ_RELATION_L) */
	unsigned int base = f->base_khz;
	if (khz > base)
		return base + 1000;
	unsigned int steps = (base - khz) / 100000;
	return base - steps * 100000;
}

/*
 * The driver's frequency for a target (cpufreq_driver_resolve_freq()), kHz;
 * inline into schedutil's update: intel_cpufreq's rounding is a multiply and a compare.
 */
static inline __attribute__((always_inline)) unsigned int resolve(const struct sim_cf *f,
								  unsigned int khz)
{
	khz = clamp_khz(f, khz);
	if (f->intel_table) {
		/*
		 * intel_cpufreq: DIV_ROUND_UP(target, scaling), ratios of the
		 * part's bus clock, then intel_pstate_prepare_request()'s clamp
		 * to the limits' ratios (each truncated: an off-grid max_mhz
		 * gives the ratio below it)
		 */
		unsigned int sc = f->step_khz;
		unsigned int n = khz + sc - 1;
		unsigned int r = f->step_sh ? (unsigned int)((n * f->step_m) >> f->step_sh)
					     : n / sc;
		return clamp_ratio(f, r) * sc;
	}
	return resolve_table(f, khz);
}

/*
 * __cpufreq_driver_target(CPUFREQ_RELATION_C) of ondemand: the closest
 * ratio (intel_cpufreq rounds to the nearest) or table entry.
 */
static unsigned int resolve_closest(const struct sim_cf *f, unsigned int khz)
{
	unsigned int up = resolve(f, khz);
	if (f->intel_table) {
		unsigned int sc = (unsigned int)(f->step_mhz * 1000 + 0.5);
		unsigned int down = up >= sc ? up - sc : up;
		unsigned int lo = (unsigned int)(f->min_mhz * 1000 + 0.5);
		if (down >= lo && khz - down < up - khz)
			return down;
		return up;
	}
	/* the next entry below the one at or above */
	unsigned int down = 0;
	for (int i = 0; i < f->npst; i++) {
		unsigned int e = (unsigned int)(f->pst[i] * 1000 + 0.5);
		if (e < up && e > down)
			down = e;
	}
	if (down && khz >= down && khz - down < up - khz)
		return down;
	return up;
}

static void sugov_iowait_boost(struct il_sim *s, struct sim_cpu *c, int64_t now, bool iowait)
{
	struct sim_cf_cpu *fc = CF(c);
	if (fc->iowait_boost && now - fc->last_update > s->tick_nsec) {
		/* sugov_iowait_reset() */
		fc->iowait_boost = iowait ? IOWAIT_BOOST_MIN : 0;
		fc->iowait_pending = iowait;
		return;
	}
	if (!iowait || fc->iowait_pending)
		return;
	fc->iowait_pending = true;
	if (fc->iowait_boost) {
		fc->iowait_boost = fc->iowait_boost << 1 < CAP ? fc->iowait_boost << 1 : CAP;
		return;
	}
	fc->iowait_boost = IOWAIT_BOOST_MIN;
}

static unsigned long sugov_iowait_apply(struct il_sim *s, struct sim_cpu *c, int64_t now,
					unsigned long util)
{
	struct sim_cf_cpu *fc = CF(c);
	if (!fc->iowait_boost)
		return util;
	if (now - fc->last_update > s->tick_nsec) {
		fc->iowait_boost = 0;
		fc->iowait_pending = false;
		return util;
	}
	if (!fc->iowait_pending) {
		fc->iowait_boost >>= 1;
		if (fc->iowait_boost < IOWAIT_BOOST_MIN) {
			fc->iowait_boost = 0;
			return util;
		}
	}
	fc->iowait_pending = false;
	unsigned long boost = ((unsigned long)fc->iowait_boost * CAP) >> 10;
	return boost > util ? boost : util;
}

/* get_next_freq()'s raw frequency in kHz as the run's release computes it (il_cf_raw_khz()) */
static unsigned int sugov_raw_khz(const struct sim_cf *f, const struct sim_cf_cpu *fc,
				  unsigned long util)
{
	unsigned long ref = f->invariant ? f->cpuinfo_max_khz : fc->cur_khz;
	return (unsigned int)il_cf_raw_khz(f->su_headroom, util, ref, f->invariant, CAP);
}

/* sugov_update_single(); inline into the hooks' governor calls (sim_cf_update_util(), the tick) */
static inline __attribute__((always_inline)) void schedutil(struct il_sim *s, struct sim_cpu *c, int64_t now, bool iowait, bool remote)
{
	struct sim_cf_cpu *fc = CF(c);
	struct sim_cf *f = &s->cf;
	sugov_iowait_boost(s, c, now, iowait);
	fc->last_update = now;
	/*
	 * sugov_should_update_freq(): not from another CPU than the policy's
	 * (cpufreq_this_cpu_can_update(); no driver here sets
	 * dvfs_possible_from_any_cpu), then the rate limit
	 */
	if (remote)
		return;
	if (now - fc->last_freq_update < f->rate_ns)
		return;
	unsigned int cached_in = fc->cached_raw_khz;
	/*
	 * sugov_cpu_is_busy() (sugov_hold_freq() from 6.12, the same rule).
	 * need_freq_update, which each release treats its own way around the
	 * hold, never sets in a run (the policy's limits are fixed).
	 */
	bool busy = c->idle_calls == fc->idle_calls_saved;
	fc->idle_calls_saved = c->idle_calls;
	unsigned long util = cpu_util(s, c);
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d schedutil util %lu busy %d\n", (long long)now,
			c->cpu, util, busy);
	util = sugov_iowait_apply(s, c, now, util);
	/* get_next_freq() */
	unsigned int raw = sugov_raw_khz(f, fc, util);
	unsigned int next;
	if (raw == fc->cached_raw_khz) {
		next = fc->next_khz;
	} else {
		fc->cached_raw_khz = raw;
		/*
		 * cpufreq_driver_resolve_freq(): intel_cpufreq has neither a
		 * frequency table nor ->resolve_freq, so the governor keeps the
		 * target only clamped to the policy; its driver rounds it when
		 * it switches. acpi-cpufreq's table rounds it here.
		 */
		next = f->intel_table ? clamp_khz(f, raw) : resolve(f, raw);
	}
	/* the hold: the cached raw frequency reset up to 5.9, restored from 5.10 (0070ea296239) */
	if (busy && next < fc->next_khz) {
		next = fc->next_khz;
		fc->cached_raw_khz = f->su_restore_cached ? cached_in : 0;
	}
	/*
	 * sugov_update_next_freq(): a new target restarts the rate limit even
	 * where the driver ends at the same P-state; then the fast switch
	 * (intel_cpufreq_fast_switch(): DIV_ROUND_UP to a ratio, written only
	 * when it changed; policy->cur what it set).
	 */
	if (fc->next_khz == next)
		return;
	fc->next_khz = next;
	fc->last_freq_update = now;
	if (s->params.trace)
		fprintf(s->params.trace, "%lld cpu%d schedutil next %u\n", (long long)now, c->cpu, next);
	unsigned int drv = f->intel_table ? resolve(f, next) : next;
	if (drv == fc->cur_khz)
		return;
	fc->cur_khz = drv;
	request(s, c, drv / 1000.0, now);
}

/* The TSC at now: base-frequency cycles since the run's start, whole (rdtsc()). */
static inline uint64_t sim_cf_tsc(const struct sim_cf *f, int64_t now)
{
	return (uint64_t)((unsigned __int128)(uint64_t)now * f->base_khz / 1000000u);
}

/* intel_pstate_update_util() and get_target_pstate() (active mode, no HWP) */
static void pstate_powersave(struct il_sim *s, struct sim_cpu *c, int64_t now, bool iowait)
{
	struct sim_cf *f = &s->cf;
	int64_t delta = now - CF(c)->last_update;
	if (iowait) {
		if (delta > s->tick_nsec)
			CF(c)->iowait_boost = FP_ONE / 8;
		else if (CF(c)->iowait_boost >= FP_ONE / 8)
			CF(c)->iowait_boost = CF(c)->iowait_boost << 1 > FP_ONE ? FP_ONE : CF(c)->iowait_boost << 1;
		else
			CF(c)->iowait_boost = FP_ONE / 8;
	} else if (CF(c)->iowait_boost) {
		if (delta > s->tick_nsec)
			CF(c)->iowait_boost = 0;
		else
			CF(c)->iowait_boost >>= 1;
	}
	CF(c)->last_update = now;
	if (now - CF(c)->smp_t < PSTATE_SAMPLE_NS)
		return;
	sim_c0_flush(s, c, now);
	/*
	 * intel_pstate_sample(): the counters' deltas as the MSRs and the TSC
	 * give them, whole cycles; get_target_pstate() in its fixed point
	 * (FRAC_BITS 8, EXT_FRAC_BITS 14), each step truncating as the kernel's
	 */
	/* rdtsc() differences: the TSC counts base-frequency cycles from the start */
	uint64_t tsc = sim_cf_tsc(f, now) - sim_cf_tsc(f, CF(c)->smp_t);
	uint64_t aperf = (uint64_t)CF(c)->aperf - (uint64_t)CF(c)->aperf_smp;
	uint64_t mperf = (uint64_t)CF(c)->mperf - (uint64_t)CF(c)->mperf_smp;
	/* MPERF or the TSC did not move: no sample, and the next update tries again */
	if (!tsc || !mperf)
		return;
	CF(c)->aperf_smp = CF(c)->aperf;
	CF(c)->mperf_smp = CF(c)->mperf;
	CF(c)->smp_t = now;
	double sc = f->step_mhz;                                 /* pstate.scaling */
	int minp = (int)f->min_ratio, maxp = (int)f->max_ratio;
	int64_t target = il_cf_pstate_target((int64_t)(f->top_mhz / sc + 0.5), minp,
					     (int64_t)(f->base_mhz / sc + 0.5), aperf, mperf, tsc,
					     (int64_t)CF(c)->iowait_boost);
	int ratio = (int)(target > maxp ? maxp : target < minp ? minp : target);
	double mhz = ratio * sc;
	if (mhz != s->cf.req[c->cpu])
		request(s, c, mhz, now);
}

/* cpufreq_update_util(): the hook the scheduler calls. */
/*
 * ondemand (drivers/cpufreq/cpufreq_ondemand.c od_update(), and
 * cpufreq_governor.c dbs_update() of v5.7): sampled from the scheduler's
 * hooks every sampling_rate = max(2 ticks, the transition delay); load =
 * the busy share of the CPU's time since the last sample (busy: not in the
 * idle loop; iowait time, which io_is_busy counts as busy on these parts,
 * is idle time here); above up_threshold the policy max, else
 * min + load x (max - min) / 100 of cpuinfo's range, the closest
 * frequency. sampling_down_factor 1, powersave_bias 0 (the defaults).
 * up_threshold is od_init()'s: MICRO_FREQUENCY_UP_THRESHOLD (95) when idle
 * time has microsecond accounting (NO_HZ active; 7.0 tests
 * tick_nohz_enabled instead, "cpufreq: ondemand: Simplify idle cputime
 * granularity test", same result here), DEF_FREQUENCY_UP_THRESHOLD (80)
 * with nohz=off; 80 for every run before 2026-12-08.
 */
static void ondemand(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	struct sim_cf *f = &s->cf;
	int64_t rate = 2 * s->tick_nsec > f->rate_ns ? 2 * s->tick_nsec : f->rate_ns;
	if (now - CF(c)->smp_t < rate)
		return;
	/*
	 * dbs_update(): wall and idle time in whole microseconds (the idle
	 * loop counts as idle), the load over the window; a window that was
	 * mostly idle (more than two sampling periods of idle) takes the
	 * previous load once (prev_load), so a task waking on an idle CPU
	 * does not start at the bottom
	 */
	int64_t busy = c->busy_ns + (c->in_idle ? 0 : now - c->busy_since);
	unsigned int elapsed = (unsigned int)(now / 1000 - CF(c)->smp_t / 1000);
	unsigned int idle = (unsigned int)((now - busy) / 1000 - (CF(c)->smp_t - CF(c)->busy_smp) / 1000);
	unsigned int rate_us = (unsigned int)(rate / 1000);
	CF(c)->smp_t = now;
	CF(c)->busy_smp = busy;
	unsigned int load;
	if (!elapsed) {
		load = CF(c)->od_prev_load;
	} else if ((int)idle > 2 * (int)rate_us && CF(c)->od_prev_load) {
		load = CF(c)->od_prev_load;
		CF(c)->od_prev_load = 0;
	} else {
		load = elapsed >= idle ? 100 * (elapsed - idle) / elapsed : (int)idle < 0 ? 100 : 0;
		CF(c)->od_prev_load = load;
	}
	unsigned int next;
	if (load > (s->params.nohz ? 95u : 80u)) {
		/* policy->max, CPUFREQ_RELATION_H: on intel_cpufreq the ratio at or below it */
		next = f->intel_table && f->step_khz ? f->max_ratio * f->step_khz
						     : (unsigned int)(f->max_mhz * 1000 + 0.5);
	} else {
		unsigned int lo = (unsigned int)(f->min_mhz * 1000 + 0.5);
		next = resolve_closest(f, lo + load * (f->cpuinfo_max_khz - lo) / 100);
	}
	if (next != CF(c)->cur_khz) {
		CF(c)->cur_khz = next;
		request(s, c, next / 1000.0, now);
	}
}

/*
 * remote: called on another CPU than c's. intel_pstate_update_util() and
 * dbs_update_util_handler() return at once then; schedutil first takes
 * the I/O-wait boost.
 */
static inline __attribute__((always_inline)) void update_util(struct il_sim *s, struct sim_cpu *c,
								 int64_t now, bool iowait, bool remote)
{
	/* the choice made once at setup (sim_cf.hook): HWP and performance have no hook */
	uint8_t hook = s->cf.hook;
	if (hook == SIM_CF_HOOK_SCHEDUTIL)
		schedutil(s, c, now, iowait, remote);
	else if (hook == SIM_CF_HOOK_NONE || remote)
		return;
	else if (hook == SIM_CF_HOOK_ONDEMAND)
		ondemand(s, c, now);
	else
		pstate_powersave(s, c, now, iowait);
}

/* update_util() out of line, for the rare paths (the hot ones inline it, and schedutil with it) */
static __attribute__((noinline)) void update_util_cold(struct il_sim *s, struct sim_cpu *c, int64_t now,
						       bool iowait, bool remote)
{
	update_util(s, c, now, iowait, remote);
}

/* The governor's hook after a PELT step of the inline hooks (sim_internal.h) that decayed. */
void sim_cf_update_util(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	update_util(s, c, now, false, false);
}

/* the same, called on another CPU (a wake-up's enqueue, sim_cf_remote()) */
void sim_cf_update_util_remote(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	update_util(s, c, now, false, true);
}

/* ------------------------------------------------------ scheduler hooks */

/*
 * A new task's PELT (post_init_entity_util_avg(): half what c's queue
 * leaves, runnable_avg = util_avg), attached to c.
 */
static void fork_init(struct il_sim *s, struct sim_cpu *c, int task)
{
	struct sim_cf_task *t = &s->cf.task[task];
	long cap = ((long)CAP - (long)CF(c)->rq_pelt.util_avg) / 2;
	memset(&t->pelt, 0, sizeof(t->pelt));
	if (cap > 0)
		t->pelt.util_avg = (unsigned long)cap;
	if (s->cf.runnable)
		s->cf.task_r[task].runnable_avg = t->pelt.util_avg;
	attach(s, c, t);
}

/* The enqueue hook's rare paths: no PELT, an I/O waiter, a new or moved task (sim_cf_enqueue()). */
void sim_cf_enqueue_slow(struct il_sim *s, struct sim_cpu *c, int task, bool iowait, int64_t now,
			 int from_cpu)
{
	struct sim_cf_task *t = &s->cf.task[task];
	bool decayed;
	bool remote = sim_cf_remote(s, from_cpu, task, c); /* before fresh clears */

	t->fresh = false;
	if (!s->cf.pelt) {
		if (iowait)
			update_util_cold(s, c, now, true, remote);
		update_util_cold(s, c, now, false, remote);
		return;
	}
	bool newt = t->pelt_cpu < 0;
	if (newt) {
		/*
		 * post_init_entity_util_avg() (fork_init()): the kernel reads the
		 * queue as its last update left it. For an
		 * idle CPU that is its last blocked-load update (the nohz idle
		 * balancer's stats pass, every ~32 ms: not modelled); the model's
		 * idle queues are not updated until they run again, so it reads
		 * the value decayed to now, the nearer of the two (the read of
		 * the CPU's last block instead moved the freq-invariance
		 * scenario's Cascade Lake gitsource ratio from 0.48 to 0.61).
		 */
		if (s->cf.fork_attach_early) {
			/*
			 * Up to 6.0 post_init attaches the task itself
			 * (attach_entity_cfs_rq()): the queue's update calls the
			 * governor if it decayed, the attach calls it again, and
			 * only then does the enqueue add the task's util_est (its
			 * own update finds nothing to step: no third call).
			 */
			sim_cf_rq_clock(s, c, now);
			if (sim_cf_rq_pelt_adj(s, c, -1))
				update_util_cold(s, c, now, false, remote);
			fork_init(s, c, task);
			update_util_cold(s, c, now, false, remote);
			sim_cf_ue_add(s, CF(c), t);
			t->cf_queued = true;
			return;
		}
	}
	/* util_est_enqueue(), then the I/O waiter's cpufreq_update_util() */
	sim_cf_ue_add(s, CF(c), t);
	if (iowait)
		update_util_cold(s, c, now, true, remote);
	sim_cf_rq_clock(s, c, now);
	decayed = sim_cf_rq_pelt_adj(s, c, -1);
	/*
	 * Runnable mode (6.5 on, so 6.0 on): a wake-up onto an idle CPU goes
	 * to its wakelist, and the CPU enqueues the task when it is up (the
	 * IPI or the idle loop's flush, or a timer's interrupt): until its
	 * pick it is not runnable there.
	 */
	if (s->cf.runnable && c->cur < 0 && c->rq_len == 1 && !t->wl_wait) {
		t->wl_wait = true;
		s->cf.rq_wl[c->cpu]++;
	}
	if (newt) {
		/* 6.1 on (the attach deferred to enqueue_entity(), DO_ATTACH) */
		fork_init(s, c, task);
		decayed = true;
	} else if (t->pelt_cpu != c->cpu) {
		/* migrate_task_rq_fair(): synced to the old queue's last update, removed */
		struct sim_cpu *o = &s->cpus[t->pelt_cpu];
		uint64_t lut = CF(o)->rq_pelt.last_update_time;
		sim_cf_task_pelt(s, task, lut, false, false);
		remove_util(s, o, task);
		if (s->cf.pelt_lag && o->cur < 0) {
			/*
			 * 6.0 on, migrate_se_pelt_lag(): the old CPU idles, so its
			 * PELT clock has run with time since its idle entry; the
			 * task decays to the wake-up on that clock
			 * (rq_clock_pelt(): less the CPU's lost idle time).
			 */
			uint64_t now_o = (uint64_t)now - CF(o)->lost_idle_ns;
			if (now_o > lut)
				sim_cf_task_pelt(s, task, now_o, false, false);
		}
		attach(s, c, t);
		decayed = true;
	} else {
		if (sim_cf_task_pelt(s, task, CF(c)->clock_pelt, false, false))
			t->ue_fresh = true;
	}
	t->cf_queued = true;
	if (decayed)
		update_util_cold(s, c, now, false, remote);
}

/*
 * sim_cf_enqueue() of a task waking on the queue it left, in runnable
 * mode: the same steps in the same order, the task's step constant-folded
 * (not on a queue: its sums only decay).
 */
static __attribute__((noinline)) void enqueue_r_steps(struct il_sim *s, struct sim_cpu *c, int task,
						      int64_t now, int from_cpu);

static __attribute__((noinline)) void enqueue_r_lean(struct il_sim *s, struct sim_cpu *c, int task,
						     int64_t now, int from_cpu);

/*
 * The idle CPU's within-period enqueue in a function of its own (a small
 * frame: the general steps' registers are not saved for it); the rest by a
 * tail call.
 */
void sim_cf_enqueue_r(struct il_sim *s, struct sim_cpu *c, int task, int64_t now, int from_cpu)
{
	if (c->cur < 0 && enqueue_idle_within(s, c, task, now))
		return;
	enqueue_r_lean(s, c, task, now, from_cpu);
}

static __attribute__((noinline)) void enqueue_r_lean(struct il_sim *s, struct sim_cpu *c, int task,
						     int64_t now, int from_cpu)
{
	struct sim_cf_task *t = &s->cf.task[task];
	uint64_t ut;

	if (c->cur < 0 && enqueue_idle(s, c, task, now, from_cpu, true))
		return;
	/*
	 * Neither step ends a period and no removal is pending: nothing
	 * decays, no governor call (the PELT clock is taken first:
	 * idempotent, enqueue_r_steps() may take it again).
	 */
	if (!rq_step_within(s, c, t, now, -1, true, &ut)) {
		enqueue_r_steps(s, c, task, now, from_cpu);
		return;
	}
	if (c->cur < 0 && c->rq_len == 1 && !t->wl_wait) {
		t->wl_wait = true;
		s->cf.rq_wl[c->cpu]++;
	}
	/* the task is not on a queue before: its step only moves its clock */
	pelt_accrue(&t->pelt, NULL, ut, false, 0);
	t->cf_queued = true;
}

/* sim_cf_enqueue_r()'s steps in general */
static __attribute__((noinline)) void enqueue_r_steps(struct il_sim *s, struct sim_cpu *c, int task,
						      int64_t now, int from_cpu)
{
	struct sim_cf_task *t = &s->cf.task[task];
	struct sim_cf_cpu *fc = CF(c);

	sim_cf_ue_add(s, fc, t);
	sim_cf_rq_clock(s, c, now);
	bool decayed = sim_cf_rq_pelt_adj(s, c, -1);
	/* onto an idle CPU, by its wakelist (sim_cf_enqueue_slow()) */
	if (c->cur < 0 && c->rq_len == 1 && !t->wl_wait) {
		t->wl_wait = true;
		s->cf.rq_wl[c->cpu]++;
	}
	if (il_pelt_update_r(&t->pelt, &s->cf.task_r[task], fc->clock_pelt, false, false, 0))
		t->ue_fresh = true;
	t->cf_queued = true;
	if (decayed)
		update_util(s, c, now, false, sim_cf_remote(s, from_cpu, task, c));
}

/* The dequeue hook's rare paths: no PELT, an exited process (see sim_cf_dequeue()). */
void sim_cf_dequeue_slow(struct il_sim *s, struct sim_cpu *c, int task, int64_t now)
{
	struct sim_cf_task *t = &s->cf.task[task];
	if (!s->cf.pelt) {
		t->dead = false;
		update_util_cold(s, c, now, false, false);
		return;
	}
	sim_cf_ue_block_before(s, CF(c), task);
	sim_cf_rq_clock(s, c, now);
	if (sim_cf_task_pelt(s, task, CF(c)->clock_pelt, true, true))
		t->ue_fresh = true;
	bool decayed = sim_cf_rq_pelt(s, c);
	t->cf_queued = false;
	if (c->rq_len == 0)
		sim_cf_idle_switch(CF(c), now);
	if (decayed)
		update_util_cold(s, c, now, false, false);
	sim_cf_ue_block_after(s, CF(c), task);
	if (t->dead) {
		/*
		 * The exited process's last dequeue (do_task_dead()'s schedule)
		 * was an ordinary one; then task_dead_fair() ->
		 * remove_entity_load_avg(): its util leaves the queue at the
		 * queue's next update, and it starts afresh as a new process.
		 */
		t->dead = false;
		sim_cf_task_new(s, task);
	}
}

/* The running task's process exits: its last dequeue comes when it blocks (sim_cf_dequeue_slow()). */
void sim_cf_task_exit(struct il_sim *s, int task)
{
	s->cf.task[task].dead = true;
}

void sim_cf_tick(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	struct sim_cf_cpu *fc = CF(c);
	struct sim_cf *f = &s->cf;

	if (!f->tick_hook)
		return;
	/* arch_scale_freq_tick() */
	sim_c0_flush(s, c, now);
	/* the MSRs count whole cycles: differences of the running counts' floors */
	uint64_t aperf = (uint64_t)fc->aperf, mperf = (uint64_t)fc->mperf;
	uint64_t acnt = aperf - fc->aperf_tick;
	uint64_t mcnt = mperf - fc->mperf_tick;
	fc->aperf_tick = aperf;
	fc->mperf_tick = mperf;
	if (f->invariant && mcnt > 0) {
		/*
		 * (acnt << 2 x SCHED_CAPACITY_SHIFT) / (mcnt x arch_max_freq_ratio),
		 * at most 1024. A shift or product past 64 bits, or a quotient of
		 * 0, is the kernel's "went wobbly" path (e2b0d619b400, 5.7): this
		 * CPU's scale is not written and invariance is off from then on.
		 * An AMD CPPC ratio (up to 2^41 from 32-bit registers) gets there;
		 * the wrapped product could be 0, a division by zero.
		 */
		uint64_t prod, fs = 0;

		if (acnt >> (64 - 20) || __builtin_mul_overflow(mcnt, f->max_freq_ratio, &prod) ||
		    !prod || !(fs = (acnt << 20) / prod))
			f->invariant = false;
		else
			fc->freq_scale = fs >= CAP ? CAP : (unsigned long)fs;
	}
	/* the idle task's and the stopper's ticks update no utilisation (task_tick_stop()) */
	if (!sim_cf_cfs_running(fc, c))
		return;
	if (!f->pelt) {
		update_util(s, c, now, false, false);
		return;
	}
	/* task_tick_fair() -> update_load_avg() of the running task and its queue */
	sim_cf_rq_clock(s, c, now);
	struct sim_cf_task *t = &s->cf.task[c->cur];
	bool task_decayed;
	bool decayed = sim_cf_pelt_running(s, c, c->cur, &task_decayed);
	if (task_decayed)
		t->ue_fresh = true;
	if (decayed)
		update_util(s, c, now, false, false);
}

void sim_cf_warmup(struct il_sim *s, int64_t now)
{
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		sim_c0_flush(s, c, now);
		CF(c)->aperf0 = CF(c)->aperf;
		CF(c)->mperf0 = CF(c)->mperf;
	}
	for (int k = 0; k < s->ncores; k++)
		s->cores[k].freq_since = now;
	for (int i = 0; i < s->ncpus; i++)
		s->cf.cpu[i].busy_smp = 0; /* busy time counts from the warm-up's end */
	s->cf.transitions = 0;
}
