/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulator's cpufreq layer (src/sim/cpufreq.c, src/sim/pelt_div.c): which
 * frequency each CPU asks for, what the hardware delivers, and the
 * scheduler's utilisation signal (PELT) that schedutil reads.
 *
 * A run without --cpufreq has no cpufreq layer at all: every package runs
 * at the turbo bin of its active cores, as before (the performance
 * governor's result). With --cpufreq SPEC:
 *
 *   SPEC = [DRIVER:]GOVERNOR[+KEY=VALUE]...
 *   DRIVER   = intel_pstate (active: powersave or performance, no HWP),
 *              intel_cpufreq (intel_pstate passive, a generic governor),
 *              hwp (intel_pstate active with HWP),
 *              acpi-cpufreq
 *   GOVERNOR = performance | powersave | schedutil | ondemand
 *
 * The default driver: intel_cpufreq for schedutil and for the generic
 * governors on x86 Intel platforms, acpi-cpufreq on the others; "hwp"
 * alone means hwp:powersave (the kernel's default on HWP machines).
 *
 * Keys (KEY=DEFAULT):
 *   invariance=release  x86 frequency invariance as the platform layer's rule
 *                       says for the release and model (v5.7 on: 1567c3e3467c
 *                       "x86, sched: Add support for frequency invariance");
 *                       on / off override
 *   util_est=release    util_est (kernel v4.17 on, so every release idlelab
 *                       knows); on / off
 *   rate_limit_us=-1    schedutil's rate limit (-1: the driver's transition
 *                       delay as cpufreq_policy_transition_delay_us() gives it)
 *   min_mhz=0, max_mhz=0  policy limits (0: the driver's range)
 *   freq_max_mhz=0      the frequency invariance's reference (0: the rule)
 *   transition_us=-1    a request takes effect after this (-1: the driver's)
 *   epp=-1              HWP energy-performance preference 0..255 (-1: 128
 *                       for powersave, 0 for performance)
 *   hwp_window_us=1000  HWP: the window its busy estimate averages (estimate)
 *   domain=auto         the hardware's frequency domain: core or package
 */
#ifndef IDLELAB_CPUFREQ_H
#define IDLELAB_CPUFREQ_H

#include <stdbool.h>
#include <stdint.h>

#include "idlelab/err.h"
#include "idlelab/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

enum il_cf_driver { IL_CF_DRV_AUTO = 0, IL_CF_DRV_INTEL_PSTATE, IL_CF_DRV_INTEL_CPUFREQ,
		    IL_CF_DRV_HWP, IL_CF_DRV_ACPI };
enum il_cf_gov { IL_CF_GOV_PERFORMANCE = 0, IL_CF_GOV_POWERSAVE, IL_CF_GOV_SCHEDUTIL,
		 IL_CF_GOV_ONDEMAND };
enum il_cf_domain { IL_CF_DOM_AUTO = 0, IL_CF_DOM_CORE, IL_CF_DOM_PACKAGE };

/* A parsed --cpufreq SPEC (zeroed: no cpufreq layer). */
struct il_cpufreq_params {
	bool on;                   /* false: no layer, the top turbo bin (the default) */
	enum il_cf_driver driver;
	enum il_cf_gov gov;
	int invariance;            /* -1: by release, 0 off, 1 on */
	int util_est;              /* -1: by release, 0 off, 1 on */
	int64_t rate_limit_us;     /* -1: the driver's transition delay */
	double min_mhz, max_mhz;   /* 0: the driver's range */
	double freq_max_mhz;       /* 0: the rule per model and release */
	int64_t transition_us;     /* -1: the driver's */
	int epp;                   /* -1: by governor */
	int64_t hwp_window_us;
	enum il_cf_domain domain;
};

/* Parse SPEC into out (zeroed first). 0, or -EINVAL with err naming the part. */
int il_cpufreq_parse(const char *spec, struct il_cpufreq_params *out, struct il_err *err);
/* The canonical spelling of a parsed spec ("intel_cpufreq:schedutil+invariance=off"). */
void il_cpufreq_name(const struct il_cpufreq_params *cf, char *buf, size_t size);

/*
 * freq_max for +invariance=on where the platform layer's rule
 * (il_platform_freq_max()) gives none: the 4-core turbo bin (the rule of
 * most Core and Xeon parts: arch/x86/kernel/smpboot.c,
 * core_set_max_freq_ratio() of v5.7), else the last bin, else base_mhz.
 */
double il_cf_freq_max_fallback(const struct il_platform *p);

/*
 * schedutil's get_next_freq() before the driver rounds it
 * (kernel/sched/cpufreq_schedutil.c, map_util_freq() in
 * include/linux/sched/cpufreq.h): (f + f/4) * util / max in kHz with
 * integer arithmetic, f = cpuinfo.max_freq with frequency invariance,
 * else the policy's current frequency.
 */
static inline unsigned long il_cf_map_util_freq(unsigned long util, unsigned long freq_khz,
						 unsigned long max)
{
	return (freq_khz + (freq_khz >> 2)) * util / max;
}

/*
 * intel_pstate's get_target_pstate() without HWP (drivers/cpufreq/
 * intel_pstate.c, v5.7) in its fixed point: busy_frac = (mperf << 8) / tsc
 * (at least the I/O-wait boost, 8-bit fixed point), target = turbo + turbo/4
 * times busy_frac >> 8, at least min; if the average P-state (base x
 * aperf / mperf in 14-bit fixed point) is above it, half the excess is
 * added; every step truncates. The caller clamps to the policy.
 */
static inline int64_t il_cf_pstate_target(int64_t turbo, int64_t min, int64_t base, uint64_t aperf,
					  uint64_t mperf, uint64_t tsc, int64_t iowait_boost)
{
	int64_t busy_frac = (int64_t)((mperf << 8) / tsc);
	if (busy_frac < iowait_boost)
		busy_frac = iowait_boost;
	int64_t target = turbo + (turbo >> 2);
	target = (target * busy_frac) >> 8;
	if (target < min)
		target = min;
	int64_t avg = (int64_t)(((uint64_t)base * ((aperf << 14) / mperf)) >> 14);
	if (avg > target)
		target += (avg - target) >> 1;
	return target;
}

/* Where each release puts schedutil's 25 % headroom (il_cf_raw_khz()). */
enum il_cf_headroom {
	IL_CF_HEADROOM_FREQ = 0, /* up to 5.13: on the frequency, map_util_freq() above */
	IL_CF_HEADROOM_UTIL,     /* 5.14 (8f1b971b4750): on util, map_util_perf() */
	IL_CF_HEADROOM_CAPPED,   /* 6.8 (9c0b4bb7f630, e37617c8e53a): on util, capped at max */
};

/*
 * get_next_freq()'s raw frequency (kHz) for util (0..max, after the I/O-wait
 * boost) as the release computes it. ref_khz is cpuinfo.max_freq with
 * frequency invariance, else policy->cur; from 6.8 a non-invariant
 * reference is cur + cur/4 (get_capacity_ref_freq()) and the util's
 * headroom is capped at max (sugov_effective_cpu_perf()), so without
 * invariance the 25 % counts twice below the cap.
 */
static inline unsigned long il_cf_raw_khz(enum il_cf_headroom h, unsigned long util,
					  unsigned long ref_khz, bool invariant, unsigned long max)
{
	if (h == IL_CF_HEADROOM_FREQ)
		return il_cf_map_util_freq(util, ref_khz, max);
	util += util >> 2;
	if (h == IL_CF_HEADROOM_CAPPED) {
		if (util > max)
			util = max;
		if (!invariant)
			ref_khz += ref_khz >> 2;
	}
	return ref_khz * util / max;
}

/*
 * PELT, the utilisation signal of one scheduling entity or run queue, as
 * kernel/sched/pelt.c of v5.7 (3d77e6a8804a) computes it: accumulate_sum(),
 * ___update_load_sum(), ___update_load_avg(). Time is cut into periods of
 * 1024 x 1024 ns; a period's contribution is worth y^n after n more
 * periods, y^32 = 1/2 (a 32 ms half-life); util_sum holds the decayed
 * running time in 1024 ns units shifted by SCHED_CAPACITY_SHIFT, util_avg =
 * util_sum / (LOAD_AVG_MAX - 1024 + period_contrib). LOAD_AVG_MAX = 47742
 * is the sum of 1024 y^n the same integer arithmetic converges to.
 */
#define IL_PELT_LOAD_AVG_MAX 47742u
#define IL_PELT_PERIOD 32u
#define IL_PELT_MIN_DIVIDER (IL_PELT_LOAD_AVG_MAX - 1024) /* PELT_MIN_DIVIDER, the smallest divider */

struct il_pelt {
	uint64_t last_update_time;  /* ns, a multiple of 1024 past the first update */
	uint64_t util_sum;
	uint32_t period_contrib;
	unsigned long util_avg;     /* 0 .. 1024 */
};

/* The divider of util_avg: LOAD_AVG_MAX - 1024 + period_contrib. */
static inline uint32_t il_pelt_divider(const struct il_pelt *sa)
{
	return IL_PELT_MIN_DIVIDER + sa->period_contrib;
}

/* floor(2^43 / il_pelt_divider()) + 1 for each period_contrib (src/sim/pelt_div.c) */
extern const uint32_t il_pelt_div_m[1024];

/*
 * sum / il_pelt_divider(sa), the quotient ___update_load_avg() takes: by
 * the divider's precomputed reciprocal below 2^27 (exact there, see
 * src/sim/pelt_div.c; a PELT sum stays below LOAD_AVG_MAX << 10 < 2^26),
 * by the division above.
 */
static inline uint64_t il_pelt_div(uint64_t sum, uint32_t period_contrib)
{
	if (sum < (1u << 27))
		return (sum * il_pelt_div_m[period_contrib & 1023]) >> 43;
	return sum / (IL_PELT_MIN_DIVIDER + period_contrib);
}

/*
 * il_pelt_div() with the reciprocal m = il_pelt_div_m[period_contrib]
 * looked up by the caller: a step divides two to four sums by the same
 * divider.
 */
static inline uint64_t il_pelt_div_by(uint64_t sum, uint64_t m, uint32_t period_contrib)
{
	if (sum < (1u << 27))
		return (sum * m) >> 43;
	return sum / (IL_PELT_MIN_DIVIDER + period_contrib);
}

/* y^n x 2^32, n = 0..31: the values of kernel/sched/sched-pelt.h */
static const uint32_t il_pelt_yn_inv[IL_PELT_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

/* val * y^n as the kernel computes it (shift and 32-bit fixed-point multiply). */
static inline uint64_t il_pelt_decay_load(uint64_t val, uint64_t n)
{
	if (n > IL_PELT_PERIOD * 63)
		return 0;
	if (n >= IL_PELT_PERIOD) {
		val >>= n / IL_PELT_PERIOD;
		n %= IL_PELT_PERIOD;
	}
	/*
	 * mul_u64_u32_shr(val, il_pelt_yn_inv[n], 32): the 96-bit product's
	 * bits 32.., truncated to 64 (one 64 x 64 -> 128 multiply, as the
	 * kernel's x86-64 version; the same value as its two 32-bit halves)
	 */
#ifdef __SIZEOF_INT128__
	__extension__ typedef unsigned __int128 il_u128; /* a GNU type: -pedantic users too */
	return (uint64_t)(((il_u128)val * il_pelt_yn_inv[n]) >> 32);
#else
	uint64_t lo = (val & 0xffffffffu) * il_pelt_yn_inv[n];
	return (lo >> 32) + (val >> 32) * il_pelt_yn_inv[n];
#endif
}

/* The three segments of a step over periods: the rest of the first, full ones, the start of the last. */
static inline uint32_t il_pelt_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
	uint32_t c1 = (uint32_t)il_pelt_decay_load(d1, periods);
	uint32_t c2 = IL_PELT_LOAD_AVG_MAX - (uint32_t)il_pelt_decay_load(IL_PELT_LOAD_AVG_MAX, periods)
		      - 1024;
	return c1 + c2 + d3;
}

/*
 * The runnable signal of the same entity or queue (kernel/sched/pelt.c from
 * v5.7, 9f68395333ad): runnable_sum accrues n x the period contribution
 * while n tasks are runnable (a task: 1 while on a run queue; a queue: its
 * h_nr_running), runnable_avg = runnable_sum / the divider. It shares
 * last_update_time and period_contrib with util, so it is kept beside an
 * il_pelt and stepped with it (il_pelt_update_r()).
 */
struct il_pelt_r {
	uint64_t runnable_sum;
	unsigned long runnable_avg;
};

/*
 * Bring sa to now: running says whether it ran (load: whether it was
 * enqueued; without load nothing accrues). With r, the runnable part too:
 * n runnable (0 without load) accrue n x the contribution util accrues
 * while running, sharing the time and the period segments; r NULL: util
 * alone (il_pelt_update()). Returns true when the averages were recomputed
 * (at least one period boundary crossed). Inline: the engine calls it at
 * every tick of a busy CPU, and a constant NULL r folds the runnable part away.
 */
static inline bool il_pelt_update_r(struct il_pelt *sa, struct il_pelt_r *r, uint64_t now,
				    bool load, bool running, unsigned int n)
{
	if (now < sa->last_update_time) {
		sa->last_update_time = now;
		return false;
	}
	uint64_t delta = (now - sa->last_update_time) >> 10;
	if (!delta)
		return false;
	sa->last_update_time += delta << 10;
	if (!r || !load)
		n = 0;
	if (!load)
		running = false;
	/* accumulate_sum() */
	uint32_t contrib = (uint32_t)delta;
	delta += sa->period_contrib;
	uint64_t periods = delta / 1024;
	if (periods) {
		sa->util_sum = il_pelt_decay_load(sa->util_sum, periods);
		if (r)
			r->runnable_sum = il_pelt_decay_load(r->runnable_sum, periods);
		delta %= 1024;
		/* the contribution only counts where something accrues it */
		if (running || n)
			contrib = il_pelt_segments(periods, 1024 - sa->period_contrib, (uint32_t)delta);
	}
	sa->period_contrib = (uint32_t)delta;
	if (running)
		sa->util_sum += (uint64_t)contrib << 10;
	if (n)
		r->runnable_sum += ((uint64_t)n * contrib) << 10;
	if (!periods)
		return false;
	/* ___update_load_avg() */
	uint32_t pc = sa->period_contrib;
	uint64_t m = il_pelt_div_m[pc & 1023];
	sa->util_avg = (unsigned long)il_pelt_div_by(sa->util_sum, m, pc);
	if (r)
		r->runnable_avg = (unsigned long)il_pelt_div_by(r->runnable_sum, m, pc);
	return true;
}

/*
 * What update_cfs_rq_load_avg() does with the averages removed from a
 * queue since its last update (tasks that migrated away or exited): a is
 * subtracted from avg and a x div from sum (sub_positive(), div the
 * queue's divider then), and the release's rule for the sum.
 */
enum il_pelt_rm {
	IL_PELT_RM_SUB,     /* up to v5.13 */
	IL_PELT_RM_REBUILD, /* v5.14 .. v5.16: sum = avg x div (1c35b07e6d39) */
	IL_PELT_RM_CLAMP,   /* v5.17 on: sum >= avg x PELT_MIN_DIVIDER (98b0d890220d, 7ceb77103001) */
};

static inline void il_pelt_remove(enum il_pelt_rm rule, unsigned long *avg, uint64_t *sum,
				  unsigned long a, uint32_t div)
{
	uint64_t as = (uint64_t)a * div;
	*avg -= a < *avg ? a : *avg;
	if (rule == IL_PELT_RM_REBUILD) {
		*sum = (uint64_t)*avg * div;
		return;
	}
	*sum -= as < *sum ? as : *sum;
	uint64_t floor = (uint64_t)*avg * IL_PELT_MIN_DIVIDER;
	if (rule == IL_PELT_RM_CLAMP && *sum < floor)
		*sum = floor;
}

/* il_pelt_update_r() of util alone. */
static inline bool il_pelt_update(struct il_pelt *sa, uint64_t now, bool load, bool running)
{
	return il_pelt_update_r(sa, NULL, now, load, running, 0);
}

/*
 * util_est (kernel/sched/fair.c): a task's utilisation at its last sleep
 * (enqueued) and their moving average (ewma), as each release stores and
 * updates them; docs/cpufreq.md "util_est by release" gives the texts read.
 * The UTIL_AVG_UNCHANGED flag (the task's util_avg did not move since the
 * last update: skip it) is kept beside these values by the caller; where a
 * release keeps it in bit 0 of the values, the bit's arithmetic is here.
 */
enum il_ue_text {
	IL_UE_4_17, /* 7f65ea42eb00 (v4.17) .. v5.4: flag in bit 0, the queue sums max(ewma, enqueued) | 1 */
	IL_UE_5_5,  /* v5.5 .. v5.12: + UTIL_EST_FASTUP (b8c96361402a): a larger sample resets the ewma */
	IL_UE_5_13, /* v5.13 .. v6.7: flag in bit 31 (68d7a190682a), enqueued kept when it moved
		     * alone (b89997aa88f0) */
	IL_UE_6_8,  /* v6.8 .. v6.15: the ewma alone (11137d384996), fast-up always (7736ae5572eb),
		     * no decrease while the task waited to run (50181c0cff31) */
	IL_UE_6_16, /* v6.16 ..: decreases also above the capacity (f2d650618bc7) */
};

#define IL_UE_MARGIN 10 /* SCHED_CAPACITY_SCALE / 100 */

struct il_util_est {
	uint32_t enqueued; /* up to v6.7; bit 0 as stored (always set here) up to v5.12 */
	uint32_t ewma;
};

/* The release's util_est text (IL_UE_*) for a mainline tag. */
enum il_ue_text il_ue_text_of(const char *release);

/* _task_util_est(): what a task adds to (and removes from) its queue's sum. */
static inline uint32_t il_ue_task(const struct il_util_est *ue, enum il_ue_text x)
{
	if (x >= IL_UE_6_8)
		return ue->ewma;
	uint32_t m = ue->ewma > ue->enqueued ? ue->ewma : ue->enqueued;
	return x < IL_UE_5_13 ? m | 1 : m;
}

/* within_margin(): -MARGIN < v < MARGIN for the int the kernel passes. */
static inline bool il_ue_within(int32_t v)
{
	return (uint32_t)v + (IL_UE_MARGIN - 1) < 2 * IL_UE_MARGIN - 1; /* unsigned: no overflow */
}

/*
 * The update at a sleep whose flag was clear (util_est_dequeue()'s, later
 * util_est_update()'s, tail): tu is the task's util_avg as the release reads
 * it there, runnable its runnable_avg (read from v6.8), cap the CPU's
 * capacity. Returns whether the kernel writes util_est back, which sets the
 * flag; where it returns without writing, ue stays as it was and the flag
 * stays clear.
 */
static inline bool il_ue_update(struct il_util_est *ue, enum il_ue_text x, uint32_t tu,
				uint32_t runnable, uint32_t cap)
{
	if (x >= IL_UE_6_8) {
		uint32_t ewma = ue->ewma;
		if (ewma <= tu) {
			ue->ewma = tu;
			return true;
		}
		uint32_t diff = ewma - tu;
		if (diff < IL_UE_MARGIN)
			return true;
		if (x < IL_UE_6_16 && tu > cap)
			return false;
		if (tu + IL_UE_MARGIN < runnable)
			return true;
		ue->ewma = ((ewma << 2) - diff) >> 2;
		return true;
	}
	/* up to v5.12 the new sample carries the flag's bit 0 into the arithmetic */
	uint32_t enq = x < IL_UE_5_13 ? tu | 1 : tu;
	int64_t enq_diff = (int64_t)ue->enqueued - (int64_t)enq;
	if (x >= IL_UE_5_5 && ue->ewma < enq) {
		ue->enqueued = ue->ewma = enq;
		return true;
	}
	/* unsigned int difference; within_margin() takes it as an int */
	uint32_t diff = enq - ue->ewma;
	if (il_ue_within((int32_t)diff)) {
		if (x == IL_UE_5_13 && !il_ue_within((int32_t)enq_diff)) {
			ue->enqueued = enq;
			return true;
		}
		return false;
	}
	if (tu > cap)
		return false;
	ue->ewma = ((ue->ewma << 2) + diff) >> 2;
	ue->enqueued = enq;
	return true;
}

#ifdef __cplusplus
}
#endif

#endif
