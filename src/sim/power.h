/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Turbo, depth and energy (internal to src/sim/): what a thread's mode means
 * for its core's and package's depth, the count of turbo-active cores, the
 * package frequency and the energy drawn.
 *
 * - Core depth = its shallowest thread, package depth = its shallowest core.
 * - A core counts as active for turbo unless all its threads are in a state
 *   flagged TURBO_RELEASE; every turbo_interval each package takes the
 *   frequency of its bin for its number of active cores; a running burst is
 *   re-timed when its package changes frequency.
 * - A thread in a physical state draws the state's power, a polling or busy
 *   one the package's active power at its frequency; a package draws
 *   package_w while one of its cores is active.
 *
 * What runs at every mode change and the periodic turbo re-evaluation are
 * static inline here (they inline into the engine's main loop as they did
 * in engine.c); setup and the end-of-run sums are in power.c.
 */
#ifndef IDLELAB_SIM_POWER_H
#define IDLELAB_SIM_POWER_H

#include <string.h>

#include "sim_internal.h"

/* Per-state depth, turbo and power tables, packages at their first frequency; s->drv is set. */
void sim_power_init(struct il_sim *s);
/* Add up depth, frequency and energy time to end (the end of the run). */
void sim_power_finish(struct il_sim *s, int64_t end);
/* The platform or a state has a power model (energy is reported). */
bool sim_power_model_known(const struct il_sim *s);

/* Power of a thread in its current mode, W. */
static inline double thread_power(const struct il_sim *s, const struct sim_cpu *c)
{
	if (c->mode == M_STATE && !c->exiting && !s->st_active[c->idx])
		return s->st_power[c->idx];
	return s->cores[c->core].active_w;
}

static inline void energy_flush(struct il_sim *s, struct sim_cpu *c, int64_t now)
{
	if (!s->energy_on)
		return;
	c->energy_j += c->power_w * (double)(now - c->energy_since) * 1e-9;
	c->energy_since = now;
}

/*
 * A core of pk moved from level from to level to: the package's depth (its
 * shallowest core) is kept in pk->level; its time is added up when that
 * level changes (integer sums: adding per core change or per package
 * change gives the same totals), and at each core change while the
 * package is active and draws uncore power (energy sums are floating
 * point: their terms stay those of one flush per core change).
 */
static inline void pkg_core_moved(struct il_sim *s, struct sim_pkg *pk, int from, int to,
				  int64_t now)
{
	int old = pk->level, lvl = old;

	pk->ncores_at[from]--;
	pk->ncores_at[to]++;
	if (to < lvl) {
		lvl = to;
	} else if (from == lvl && !pk->ncores_at[from]) {
		while (lvl <= IL_STATE_MAX && !pk->ncores_at[lvl])
			lvl++;
		if (lvl > IL_STATE_MAX)
			lvl = 0;
	}
	bool energy = old == 0 && s->pkg_w_on;
	if (lvl == old && !energy)
		return;
	s->pkg_depth_ns[old] += now - pk->depth_since;
	if (energy)
		pk->energy_j += s->p->package_w * (double)(now - pk->depth_since) * 1e-9;
	pk->depth_since = now;
	pk->level = lvl;
}

/*
 * A thread's depth level changed (0 = active, i + 1 = in physical state i):
 * update its core's depth (shallowest thread), the package's (shallowest
 * core) and the count of turbo-active cores.
 */
static inline void depth_change(struct il_sim *s, struct sim_cpu *c, int lvl, int64_t now)
{
	struct sim_core *co = &s->cores[c->core];
	struct sim_pkg *pk = &s->pkgs[c->pkg];
	bool rel_old = s->lvl_rel[c->level], rel_new = s->lvl_rel[lvl];

	c->level = lvl;
	co->tlevel[c->cpu - co->first] = (uint8_t)lvl;
	if (rel_old != rel_new) {
		bool was_active = co->nrel < co->nthreads;
		co->nrel += rel_new ? 1 : -1;
		bool is_active = co->nrel < co->nthreads;
		if (was_active != is_active)
			pk->active += is_active ? 1 : -1;
	}
	int clvl = lvl;
	for (int i = 0; co->nthreads > 1 && i < co->nthreads; i++) {
		int l = co->tlevel[i];
		if (l < clvl)
			clvl = l;
	}
	if (clvl != co->level) {
		s->core_depth_ns[co->level] += now - co->since;
		co->since = now;
		pkg_core_moved(s, pk, co->level, clvl, now);
		co->level = clvl;
	}
}

/* Mode change of a thread: energy and depth bookkeeping. */
static inline void mode_set(struct il_sim *s, struct sim_cpu *c, int mode, int64_t now)
{
	/* in a state's own mode (not its exit): what thread_power() tests first */
	bool in_state = mode == M_STATE && !c->exiting;
	int idx = c->idx;
	int lvl = in_state ? s->st_lvl[idx] : 0;

	c->mode = mode;
	if (s->cf.on && (c->level == 0) != (lvl == 0)) {
		sim_c0_flush(s, c, now);
		if (s->cf.votes)
			sim_cf_mark(s, s->cores[c->core].dom);
	}
	if (s->energy_on) {
		energy_flush(s, c, now);
		/* thread_power(s, c), its mode and exit flag known */
		c->power_w = in_state && !s->st_active[idx] ? s->st_power[idx] :
			     s->cores[c->core].active_w;
	}
	if (c->level != lvl)
		depth_change(s, c, lvl, now);
}

/* Cycles at mhz as ns, rounded. */
static inline int64_t cycles_ns(uint64_t cycles, double mhz)
{
	return (int64_t)((double)cycles * 1000.0 / mhz + 0.5);
}

/* Power of a busy or polling thread at mhz, W. */
static inline double active_power(const struct il_sim *s, double mhz)
{
	return s->p->active_static_w + s->p->active_w_per_ghz * mhz / 1000;
}

/*
 * The index of frequency mhz in the run's list of frequencies (added if
 * new, 64 at most; 63 when the list is full). Found by its slot in a
 * 128-entry open-addressed table on the value's bits (freq_slot[] holds
 * index + 1, 0 = free) instead of a search of the list: the same index
 * in the same order of first use. Equality is the double's (-0 hashed as
 * 0; a NaN, equal to nothing, is added each time as the search did).
 */
static inline int freq_index(struct il_sim *s, double mhz)
{
	uint64_t bits;
	double key = mhz == 0 ? 0.0 : mhz;

	memcpy(&bits, &key, sizeof(bits));
	unsigned int h = (unsigned int)((bits * 0x9e3779b97f4a7c15ull) >> 57);
	for (;; h = (h + 1) & 127) {
		int i = s->freq_slot[h];
		if (!i)
			break;
		if (s->freq_mhz[i - 1] == mhz)
			return i - 1;
	}
	if (s->nfreq < 64) {
		s->freq_mhz[s->nfreq] = mhz;
		s->freq_ns[s->nfreq] = 0;
		s->freq_slot[h] = (uint8_t)(s->nfreq + 1);
		return s->nfreq++;
	}
	return 63;
}

/* Re-time a running burst after its package changed frequency. */
static inline void burst_retime(struct il_sim *s, struct sim_cpu *c, double old_mhz, double new_mhz,
			 int64_t now)
{
	if (c->mode != M_RUN || c->slot_kind != SLOT_RUN_DONE)
		return;
	if (now > c->cyc_start) {
		double done = (double)(now - c->cyc_start) * old_mhz / 1000.0;
		c->cycles_left = done >= c->cycles_left ? 0 : c->cycles_left - done;
		c->cyc_start = now;
	}
	int64_t base = c->cyc_start > now ? c->cyc_start : now;
	slot_set(s, c, base + (int64_t)(c->cycles_left * 1000.0 / new_mhz + 0.5), SLOT_RUN_DONE);
}

/* The periodic turbo re-evaluation of every package at now. */
static inline void sim_turbo_update(struct il_sim *s, int64_t now)
{
	for (int k = 0; k < s->npkgs; k++) {
		struct sim_pkg *pk = &s->pkgs[k];
		double mhz = il_turbo_mhz(s->p, pk->active, s->params.default_mhz);
		if (mhz == pk->mhz)
			continue;
		s->freq_ns[pk->freq_idx] += now - pk->freq_since;
		pk->freq_since = now;
		double old = pk->mhz;
		for (int i = pk->first_cpu; i < pk->first_cpu + pk->ncpus; i++)
			energy_flush(s, &s->cpus[i], now);
		pk->mhz = mhz;
		pk->active_w = active_power(s, mhz);
		pk->freq_idx = freq_index(s, mhz);
		for (int i = pk->first_cpu; i < pk->first_cpu + pk->ncpus; i += s->p->threads_per_core) {
			s->cores[s->cpus[i].core].mhz = mhz;
			s->cores[s->cpus[i].core].active_w = pk->active_w;
		}
		for (int i = pk->first_cpu; i < pk->first_cpu + pk->ncpus; i++) {
			s->cpus[i].power_w = thread_power(s, &s->cpus[i]);
			burst_retime(s, &s->cpus[i], old, mhz, now);
		}
	}
}

#endif
