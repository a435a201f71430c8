// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ladder governor: step one state deeper after PROMOTION_COUNT idle
 * periods that outlasted the current state's exit latency, one state
 * shallower after DEMOTION_COUNT that did not.
 *
 * Follows drivers/cpuidle/governors/ladder.c of mainline:
 *   v5.4   the µs text: u32 µs thresholds, int µs residency, latency limit
 *          and exit latencies (the thresholds still compare unsigned, now in
 *          32 bits);
 *   v5.5   blob 8e9058c4ea63: c1d51f684c72 "Use nanoseconds as the unit of
 *          time", s64 residency against u64 thresholds (also v6.1);
 *   v6.12, v6.18 and v7.1  blob 6617eb494a11 (adds one kernel-doc line,
 *          "cpuidle: ladder: fix ladder_do_selection() kernel-doc", v6.10).
 * From 5.5 on every preset makes the same decisions. The pre-ns text was
 * read at torvalds 04d9765bd22e and in c1d51f684c72's posted diff; the ns
 * text from the patch context of the mails below, which all apply to
 * 6617eb494a11.
 *
 * The Feb-2026 patch "cpuidle: ladder: Fix state index when only one idle
 * state is registered" (Aboorva Devarajan, 20260211053552) was NOT merged:
 * its v2 moved the fix into the core ("cpuidle: Skip governor when only one
 * idle state is available", e5c9ffc6ae1b, v7.0 cycle) and ladder.c was left
 * as it was. So in every preset a single polling state makes ladder answer
 * index 1 (out of range), as the kernel did before the core fix; the v1
 * ladder change is available as the opt-in patch "+single-state-fix".
 * Zhang Rui's 2022 RFC turning the u64 thresholds into s64 was not merged
 * either; it is the opt-in patch "+signed-thresholds".
 *
 * Rating: init_ladder() raises the rating from 10 to 25 when nohz is off
 * (tick_nohz_enabled false, as with nohz=off), so that ladder then wins
 * over menu (20). Both are in the ops table (rating, rating_nohz_off); the
 * governor the kernel would run is chosen from them in src/drivers/.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/governor.h"

#define PROMOTION_COUNT 4
#define DEMOTION_COUNT 1

struct ladder_config {
	bool usec;               /* v5.4: µs arithmetic (no LF_NS) */
	bool single_state_fix;   /* +single-state-fix (v1 patch, unmerged) */
	bool signed_thresholds;  /* +signed-thresholds (2022 RFC, unmerged) */
};

/* struct ladder_device_state */
struct ladder_state_data {
	uint32_t promotion_count_threshold;
	uint32_t demotion_count_threshold;
	uint64_t promotion_time_ns;  /* u64 in the kernel: see the unsigned compares */
	uint64_t demotion_time_ns;
	int promotion_count;         /* stats */
	int demotion_count;
};

/* struct ladder_device: per-CPU, kept across enables like the kernel's per-CPU data */
struct ladder_cpu {
	struct ladder_state_data states[IL_STATE_MAX];
};

/* Feature bits, one per change-history entry that changes a decision. */
enum {
	LF_NS = 1u << 0,  /* c1d51f684c72 (v5.5): nanoseconds; before, µs */
};

/* From 5.5 on no text changes a decision; the later rows are the ones specs name. */
static const struct il_gov_preset ladder_presets[] = {
	{ "5.4", 0, "µs text (c1d51f684c72's pre-image)" },
	{ "5.5", LF_NS, "c1d51f684c72 (nanoseconds); release blob 8e9058c4ea63" },
	{ "6.1", LF_NS, "release blob 8e9058c4ea63" },
	{ "6.12", LF_NS, "release blob 6617eb494a11 (one kernel-doc line more, v6.10)" },
	{ "6.18", LF_NS, "release blob 6617eb494a11" },
	{ "7.1", LF_NS, "release blob 6617eb494a11" },
};

/*
 * First state ladder may use: skip a polling state 0. With the v1 fix only
 * when there is another state to use.
 */
static int ladder_first_idx(const struct ladder_config *cfg, const struct il_driver *drv)
{
	if (cfg->single_state_fix && drv->state_count <= 1)
		return 0;
	return (drv->states[0].flags & IL_FLAG_POLLING) ? 1 : 0;
}

/*
 * Compare an s64 residency with a u64 threshold as C does in the kernel:
 * both as u64, so a negative residency is a huge value. The RFC patch makes
 * it a signed comparison.
 */
static int ladder_cmp(const struct ladder_config *cfg, int64_t residency, uint64_t threshold)
{
	if (cfg->usec) {
		/* v5.4: int against u32, so unsigned in 32 bits */
		if (cfg->signed_thresholds) {
			int32_t r = (int32_t)residency, t = (int32_t)(uint32_t)threshold;
			return r < t ? -1 : r > t;
		}
		uint32_t r = (uint32_t)(int32_t)residency, t = (uint32_t)threshold;
		return r < t ? -1 : r > t;
	}
	if (cfg->signed_thresholds) {
		int64_t t = (int64_t)threshold;
		return residency < t ? -1 : residency > t;
	}
	uint64_t r = (uint64_t)residency;
	return r < threshold ? -1 : r > threshold;
}

/* ladder_do_selection: leaving old_idx forgets its promotion/demotion streaks. */
static void ladder_do_selection(struct ladder_cpu *ldev, struct il_device *dev,
				int old_idx, int new_idx)
{
	ldev->states[old_idx].promotion_count = 0;
	ldev->states[old_idx].demotion_count = 0;
	dev->last_state_idx = new_idx;
}

static int ladder_select(const void *config, void *cpu_data, const struct il_driver *drv,
			 struct il_device *dev, const struct il_idle_inputs *in,
			 bool *stop_tick)
{
	const struct ladder_config *cfg = config;
	struct ladder_cpu *ldev = cpu_data;
	int last_idx = dev->last_state_idx;
	/* v5.4: cpuidle_governor_latency_req() is an int in µs */
	int64_t latency_req = cfg->usec ? il_latency_req_us(in->latency_req_ns)
				        : in->latency_req_ns;
	(void)stop_tick; /* ladder never retains the tick */

	/* a zero latency limit pins the CPU to state 0 (the v1 fix adds one-state drivers) */
	if (latency_req == 0 || (cfg->single_state_fix && drv->state_count <= 1)) {
		if (last_idx >= 0 && last_idx < IL_STATE_MAX)
			ladder_do_selection(ldev, dev, last_idx, 0);
		else
			dev->last_state_idx = 0;
		return 0;
	}

	int first_idx = ladder_first_idx(cfg, drv);
	/* not a kernel check: an index no driver can have would read past the tables */
	if (last_idx < 0 || last_idx >= IL_STATE_MAX)
		last_idx = first_idx;
	struct ladder_state_data *last = &ldev->states[last_idx];
	/* s64 arithmetic that wraps as the kernel's does */
	int64_t last_residency = (int64_t)((uint64_t)dev->last_residency_ns -
					   (uint64_t)drv->states[last_idx].exit_latency_ns);
	if (cfg->usec) {
		/* the core's int µs residency (capped at INT_MAX) less the int µs latency */
		last_residency = (int32_t)((uint32_t)il_device_last_residency_us(dev) -
					   il_state_el_us(&drv->states[last_idx]));
	}
	/* v5.4: the unsigned int latency against the int limit compares unsigned */
#define EL(i) (cfg->usec ? (int64_t)il_state_el_us(&drv->states[i]) \
			 : drv->states[i].exit_latency_ns)

	/* promotion: the next state must be enabled, so a disabled state is a ceiling */
	if (last_idx < drv->state_count - 1 && !il_state_disabled(dev, last_idx + 1) &&
	    ladder_cmp(cfg, last_residency, last->promotion_time_ns) > 0 &&
	    EL(last_idx + 1) <= latency_req) {
		last->promotion_count++;
		last->demotion_count = 0;
		if ((uint32_t)last->promotion_count >= last->promotion_count_threshold) {
			ladder_do_selection(ldev, dev, last_idx, last_idx + 1);
			return last_idx + 1;
		}
	}

	/*
	 * Forced demotion when the current state became unusable: the nearest
	 * shallower state within the latency limit, but never below first_idx
	 * and without checking whether that state is disabled.
	 */
	if (last_idx > first_idx &&
	    (il_state_disabled(dev, last_idx) ||
	     EL(last_idx) > latency_req)) {
		int i;

		for (i = last_idx - 1; i > first_idx; i--)
			if (EL(i) <= latency_req)
				break;
		ladder_do_selection(ldev, dev, last_idx, i);
		return i;
	}

	/* demotion: a negative residency is huge as u64 and never demotes */
	if (last_idx > first_idx &&
	    ladder_cmp(cfg, last_residency, last->demotion_time_ns) < 0) {
		last->demotion_count++;
		last->promotion_count = 0;
		if ((uint32_t)last->demotion_count >= last->demotion_count_threshold) {
			ladder_do_selection(ldev, dev, last_idx, last_idx - 1);
			return last_idx - 1;
		}
	}

	return last_idx;
#undef EL
}

/*
 * ladder_enable_device: thresholds from the exit latencies. States below
 * first_idx keep whatever they held (zero on a fresh CPU), as in the kernel.
 */
static void ladder_enable(const void *config, void *cpu_data, const struct il_driver *drv,
			  struct il_device *dev)
{
	const struct ladder_config *cfg = config;
	struct ladder_cpu *ldev = cpu_data;
	int first_idx = ladder_first_idx(cfg, drv);

	dev->last_state_idx = first_idx;
	for (int i = first_idx; i < drv->state_count; i++) {
		struct ladder_state_data *s = &ldev->states[i];
		/* v5.4: the u32 µs thresholds take the int µs latency */
		uint64_t el = cfg->usec ? il_state_el_us(&drv->states[i])
					: (uint64_t)drv->states[i].exit_latency_ns;

		s->promotion_count = 0;
		s->demotion_count = 0;
		s->promotion_count_threshold = PROMOTION_COUNT;
		s->demotion_count_threshold = DEMOTION_COUNT;
		if (i < drv->state_count - 1)
			s->promotion_time_ns = el;
		if (i > first_idx)
			s->demotion_time_ns = el;
	}
}

/* ladder_reflect: state 0 is not remembered, so ladder climbs back from where it was. */
static void ladder_reflect(const void *config, void *cpu_data, const struct il_driver *drv,
			   struct il_device *dev, int index, const struct il_idle_inputs *in)
{
	(void)config; (void)cpu_data; (void)drv; (void)in;
	if (index > 0)
		dev->last_state_idx = index;
}

static int ladder_configure(void *config, const struct il_gov_preset *preset,
			    const struct il_gov_patch *patches, int npatches,
			    struct il_err *err)
{
	struct ladder_config *cfg = config;

	memset(cfg, 0, sizeof(*cfg));
	cfg->usec = !(preset->features & LF_NS);
	for (int i = 0; i < npatches; i++) {
		bool *flag = NULL;

		if (!strcmp(patches[i].name, "single-state-fix"))
			flag = &cfg->single_state_fix;
		else if (!strcmp(patches[i].name, "signed-thresholds"))
			flag = &cfg->signed_thresholds;
		if (!flag)
			return il_err_set(err, EINVAL,
					  "ladder: unknown patch '%s' (known: single-state-fix, "
					  "signed-thresholds)", patches[i].name);
		if (patches[i].value[0])
			return il_err_set(err, EINVAL, "ladder: patch '%s' takes no value",
					  patches[i].name);
		*flag = true;
	}
	return 0;
}

static void ladder_describe_extra(const void *config, char *buf, size_t size)
{
	const struct ladder_config *cfg = config;

	snprintf(buf, size, "%s%s",
		 cfg->single_state_fix ? " +single-state-fix (unmerged v1)" : "",
		 cfg->signed_thresholds ? " +signed-thresholds (unmerged RFC)" : "");
}

const struct il_gov_ops il_gov_ladder = {
	.name = "ladder",
	.rating = 10,
	.rating_nohz_off = 25,
	.presets = ladder_presets,
	.npresets = sizeof(ladder_presets) / sizeof(ladder_presets[0]),
	.config_size = sizeof(struct ladder_config),
	.cpu_data_size = sizeof(struct ladder_cpu),
	.configure = ladder_configure,
	.enable = ladder_enable,
	.select = ladder_select,
	.reflect = ladder_reflect,
	.describe_extra = ladder_describe_extra,
};
