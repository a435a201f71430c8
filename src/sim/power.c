// SPDX-License-Identifier: GPL-2.0-only
/*
 * Turbo, frequency, depth and energy of the simulated machine: the tables
 * and packages set up for a run, the frequency a package runs at, and the
 * end-of-run sums. What runs while the simulation runs is in power.h.
 */
#include <stdbool.h>

#include "power.h"

double il_turbo_mhz(const struct il_platform *p, int active_cores, double fallback_mhz)
{
	if (p->nturbo > 0) {
		int n = active_cores < 1 ? 1 : active_cores;
		if (n > p->nturbo)
			n = p->nturbo;
		if (p->turbo_mhz[n - 1] > 0)
			return p->turbo_mhz[n - 1];
	}
	if (p->base_mhz > 0)
		return p->base_mhz;
	return fallback_mhz;
}

void sim_power_init(struct il_sim *s)
{
	const struct il_platform *p = s->p;
	const struct il_machine_idle *m = s->m;
	int tpc = p->threads_per_core, cpp = p->cores_per_package;

	s->energy_on = p->active_w_per_ghz > 0 || p->active_static_w > 0 || p->package_w > 0;
	for (int i = 0; i < m->drv.state_count; i++)
		if (m->drv.states[i].power_w > 0 || m->drv.states[i].transition_j > 0)
			s->energy_on = true;
	/* per state: the depth level a thread in it has (0 = polling) and its turbo flag */
	for (int i = 0; i < s->drv->state_count; i++) {
		bool polls = il_state_spins(&s->drv->states[i]);
		s->st_lvl[i] = polls ? 0 : (uint8_t)(i + 1);
		s->lvl_rel[i + 1] = s->drv->states[i].flags & IL_FLAG_TURBO_RELEASE;
		/* power in it: its own, else a polling thread draws active power, else none */
		s->st_active[i] = !(s->drv->states[i].power_w >= 0) && polls;
		s->st_power[i] = s->drv->states[i].power_w >= 0 ? s->drv->states[i].power_w : 0;
	}
	for (int k = 0; k < s->npkgs; k++) {
		struct sim_pkg *pk = &s->pkgs[k];
		pk->first_cpu = k * cpp * tpc;
		pk->ncpus = cpp * tpc;
		pk->active = cpp;
		pk->ncores_at[0] = cpp;
		pk->mhz = il_turbo_mhz(p, cpp, s->params.default_mhz);
		pk->active_w = active_power(s, pk->mhz);
		pk->freq_idx = freq_index(s, pk->mhz);
		for (int i = 0; i < cpp; i++) {
			s->cores[k * cpp + i].mhz = pk->mhz;
			s->cores[k * cpp + i].active_w = pk->active_w;
		}
	}
	/* no package ever changes frequency when every active-core count maps to the same one */
	s->turbo_fixed = true;
	for (int n = 0; n <= cpp; n++)
		if (il_turbo_mhz(p, n, s->params.default_mhz) != s->pkgs[0].mhz)
			s->turbo_fixed = false;
}

void sim_power_finish(struct il_sim *s, int64_t end)
{
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		c->energy_j += c->power_w * (double)(end - c->energy_since) * 1e-9;
		c->energy_since = end;
	}
	for (int k = 0; k < s->ncores; k++) {
		s->core_depth_ns[s->cores[k].level] += end - s->cores[k].since;
		s->cores[k].since = end;
	}
	for (int k = 0; k < s->npkgs; k++) {
		struct sim_pkg *pk = &s->pkgs[k];
		int lvl = pk->level; /* kept by the engine as its shallowest core's */
		s->pkg_depth_ns[lvl] += end - pk->depth_since;
		if (lvl == 0)
			pk->energy_j += s->p->package_w * (double)(end - pk->depth_since) * 1e-9;
		pk->depth_since = end;
		if (!s->cf.on) {
			s->freq_ns[pk->freq_idx] += end - pk->freq_since;
			pk->freq_since = end;
		}
	}
	for (int k = 0; s->cf.on && k < s->ncores; k++) {
		s->freq_ns[s->cores[k].freq_idx] += end - s->cores[k].freq_since;
		s->cores[k].freq_since = end;
	}
}

bool sim_power_model_known(const struct il_sim *s)
{
	if (s->p->active_w_per_ghz > 0 || s->p->active_static_w > 0 || s->p->package_w > 0)
		return true;
	for (int i = 0; i < s->drv->state_count; i++)
		if (s->drv->states[i].power_w >= 0)
			return true;
	return false;
}
