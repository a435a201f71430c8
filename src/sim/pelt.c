// SPDX-License-Identifier: GPL-2.0-only
/*
 * PELT (per-entity load tracking), the utilisation part, as
 * kernel/sched/pelt.c of v5.7 (3d77e6a8804a) computes it: time is cut into
 * periods of 1024 x 1024 ns; a period's contribution is worth y^n after n
 * more periods, y^32 = 1/2 (a 32 ms half-life); util_sum holds the decayed
 * running time in 1024ns units shifted by SCHED_CAPACITY_SHIFT, util_avg =
 * util_sum / (LOAD_AVG_MAX - 1024 + period_contrib).
 *
 * The decay table is y^n x 2^32 for n = 0..31 (the values of
 * kernel/sched/sched-pelt.h, generated there by
 * Documentation/scheduler/sched-pelt.c); LOAD_AVG_MAX = 47742 is the sum
 * of 1024 y^n the same integer arithmetic converges to.
 */
#include "idlelab/cpufreq.h"

static const uint32_t yn_inv[IL_PELT_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

uint64_t il_pelt_decay_load(uint64_t val, uint64_t n)
{
	if (n > IL_PELT_PERIOD * 63)
		return 0;
	if (n >= IL_PELT_PERIOD) {
		val >>= n / IL_PELT_PERIOD;
		n %= IL_PELT_PERIOD;
	}
	/* mul_u64_u32_shr(val, yn_inv[n], 32) */
	return (uint64_t)(((unsigned __int128)val * yn_inv[n]) >> 32);
}

/* The three segments of a step over periods: the rest of the first, full ones, the start of the last. */
static uint32_t accumulate_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
	uint32_t c1 = (uint32_t)il_pelt_decay_load(d1, periods);
	uint32_t c2 = IL_PELT_LOAD_AVG_MAX - (uint32_t)il_pelt_decay_load(IL_PELT_LOAD_AVG_MAX, periods)
		      - 1024;
	return c1 + c2 + d3;
}

bool il_pelt_update(struct il_pelt *sa, uint64_t now, bool load, bool running)
{
	if (now < sa->last_update_time) {
		sa->last_update_time = now;
		return false;
	}
	uint64_t delta = (now - sa->last_update_time) >> 10;
	if (!delta)
		return false;
	sa->last_update_time += delta << 10;
	if (!load)
		running = false;
	/* accumulate_sum() */
	uint32_t contrib = (uint32_t)delta;
	delta += sa->period_contrib;
	uint64_t periods = delta / 1024;
	if (periods) {
		sa->util_sum = il_pelt_decay_load(sa->util_sum, periods);
		delta %= 1024;
		if (load)
			contrib = accumulate_segments(periods, 1024 - sa->period_contrib, (uint32_t)delta);
	}
	sa->period_contrib = (uint32_t)delta;
	if (running)
		sa->util_sum += (uint64_t)contrib << 10;
	if (!periods)
		return false;
	/* ___update_load_avg() */
	sa->util_avg = (unsigned long)(sa->util_sum / il_pelt_divider(sa));
	return true;
}
