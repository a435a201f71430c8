// SPDX-License-Identifier: GPL-2.0-only
/*
 * Oracle governors: model-only references that are told the true idle
 * duration (struct il_idle_inputs.true_idle_ns) and so bound what any real
 * governor could achieve. No kernel release or commit: release "1" is the
 * first idlelab definition.
 *
 * oracle        the deepest usable state whose target residency fits the
 *               true idle duration (what the core's "above"/"below"
 *               counters would call a right choice);
 * oracle-energy the usable state that spends the least energy over the
 *               true idle duration, from the model's power_w and
 *               transition_j; falls back to oracle's rule when a power is
 *               unknown.
 *
 * "Usable" means enabled (no disable bit) and exit_latency_ns <=
 * latency_req_ns, the PM QoS limit every kernel governor honours.
 *
 * Tick: with a known duration, stop the tick iff the CPU stays idle for at
 * least one tick period (in->tick_nsec); a shorter period ends before the
 * tick could matter, so keeping it costs nothing. With an unknown duration,
 * stop it iff the chosen state's target residency is at least a tick. With
 * tick_nsec <= 0 (HZ unknown) *stop_tick is left as the caller set it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/governor.h"

struct oracle_config {
	int unused;
};

static bool oracle_usable(const struct il_driver *drv, const struct il_device *dev, int i,
			  int64_t latency_req_ns)
{
	return !il_state_disabled(dev, i) && drv->states[i].exit_latency_ns <= latency_req_ns;
}

/*
 * The shallowest usable state, else the shallowest enabled one (every
 * state too slow for the limit), else 0 (everything disabled).
 */
static int oracle_shallowest(const struct il_driver *drv, const struct il_device *dev,
			     int64_t latency_req_ns)
{
	for (int i = 0; i < drv->state_count; i++)
		if (oracle_usable(drv, dev, i, latency_req_ns))
			return i;
	for (int i = 0; i < drv->state_count; i++)
		if (!il_state_disabled(dev, i))
			return i;
	return 0;
}

/* oracle's rule; -1 as true idle means unknown: then the shallowest usable state. */
static int oracle_pick(const struct il_driver *drv, const struct il_device *dev,
		       const struct il_idle_inputs *in)
{
	int idx = oracle_shallowest(drv, dev, in->latency_req_ns);

	if (in->true_idle_ns < 0)
		return idx;
	for (int i = drv->state_count - 1; i >= 0; i--)
		if (oracle_usable(drv, dev, i, in->latency_req_ns) &&
		    drv->states[i].target_residency_ns <= in->true_idle_ns)
			return i;
	return idx;
}

static void oracle_tick(const struct il_driver *drv, int idx, const struct il_idle_inputs *in,
			bool *stop_tick)
{
	if (in->tick_nsec <= 0 || idx < 0 || idx >= drv->state_count)
		return;
	if (in->true_idle_ns >= 0)
		*stop_tick = in->true_idle_ns >= in->tick_nsec;
	else
		*stop_tick = drv->states[idx].target_residency_ns >= in->tick_nsec;
}

static int oracle_select(const void *config, void *cpu_data, const struct il_driver *drv,
			 struct il_device *dev, const struct il_idle_inputs *in,
			 bool *stop_tick)
{
	(void)config; (void)cpu_data;
	int idx = oracle_pick(drv, dev, in);

	oracle_tick(drv, idx, in, stop_tick);
	return idx;
}

/*
 * Energy of spending t ns idle in state s: the state's power over the whole
 * period plus one entry and exit (transition_j; unknown counts as 0 J).
 * The exit latency only limits which states are usable.
 */
static double oracle_energy_j(const struct il_state *s, int64_t t_ns)
{
	double e = s->power_w * (double)t_ns * 1e-9;

	if (s->transition_j > 0)
		e += s->transition_j;
	return e;
}

static int oracle_energy_select(const void *config, void *cpu_data,
				const struct il_driver *drv, struct il_device *dev,
				const struct il_idle_inputs *in, bool *stop_tick)
{
	(void)config; (void)cpu_data;
	int idx = -1;
	double best = 0;

	if (in->true_idle_ns >= 0) {
		for (int i = 0; i < drv->state_count; i++) {
			if (!oracle_usable(drv, dev, i, in->latency_req_ns))
				continue;
			if (drv->states[i].power_w < 0) {
				idx = -1; /* unknown power: no energy ranking */
				break;
			}
			double e = oracle_energy_j(&drv->states[i], in->true_idle_ns);
			/* strict: on a tie the shallower state (lower latency) wins */
			if (idx < 0 || e < best) {
				idx = i;
				best = e;
			}
		}
	}
	if (idx < 0)
		idx = oracle_pick(drv, dev, in);
	oracle_tick(drv, idx, in, stop_tick);
	return idx;
}

static int oracle_configure(void *config, const struct il_gov_preset *preset,
			    const struct il_gov_patch *patches, int npatches,
			    struct il_err *err)
{
	(void)preset;
	memset(config, 0, sizeof(struct oracle_config));
	if (npatches > 0)
		return il_err_set(err, EINVAL, "oracle: takes no patches (got '%s')",
				  patches[0].name);
	return 0;
}

/* One definition each, "1", that no kernel release changes. */
static const struct il_gov_preset oracle_presets[] = {
	{ "1", 0, "model governor: the deepest usable state fitting the true idle time" },
};

static const struct il_gov_preset oracle_energy_presets[] = {
	{ "1", 0, "model governor: the least-energy usable state for the true idle time" },
};

const struct il_gov_ops il_gov_oracle = {
	.name = "oracle",
	.rating = 0,
	.flags = IL_GOV_NEEDS_TRUE_IDLE,
	.presets = oracle_presets,
	.npresets = 1,
	.config_size = sizeof(struct oracle_config),
	.cpu_data_size = 0,
	.configure = oracle_configure,
	.select = oracle_select,
};

const struct il_gov_ops il_gov_oracle_energy = {
	.name = "oracle-energy",
	.rating = 0,
	.flags = IL_GOV_NEEDS_TRUE_IDLE,
	.presets = oracle_energy_presets,
	.npresets = 1,
	.config_size = sizeof(struct oracle_config),
	.cpu_data_size = 0,
	.configure = oracle_configure,
	.select = oracle_energy_select,
};
