/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * il_hist_add() as a static inline function (internal to the library):
 * hist.c exports it, and the engine and the built-in workloads
 * (src/workloads/wl_api.h) call this form, one to three times per idle
 * period, without the call (an exported function is not inlined across
 * files of the position-independent library).
 */
#ifndef IDLELAB_SIM_HIST_ADD_H
#define IDLELAB_SIM_HIST_ADD_H

#include <stdint.h>

#include "idlelab/hist.h"

#define SIM_HIST_SUB_COUNT (1 << IL_HIST_SUB_BITS)
#define SIM_HIST_HALF_COUNT (1 << (IL_HIST_SUB_BITS - 1))

/* The bucket of a value (clamped to 0 .. IL_HIST_MAX_NS). */
static inline int sim_hist_bucket_of(int64_t v)
{
	if (v < 0)
		v = 0;
	if (v >= IL_HIST_MAX_NS)
		v = IL_HIST_MAX_NS;
	if (v < SIM_HIST_SUB_COUNT)
		return (int)v;
	int msb = 63 - __builtin_clzll((unsigned long long)v);
	int shift = msb - (IL_HIST_SUB_BITS - 1);

	return SIM_HIST_SUB_COUNT + (shift - 1) * SIM_HIST_HALF_COUNT +
	       (int)((v >> shift) - SIM_HIST_HALF_COUNT);
}

static inline void sim_hist_add(struct il_hist *h, int64_t v)
{
	if (v < 0)
		v = 0;
	if (v > IL_HIST_MAX_NS) {
		h->clamped++;
		v = IL_HIST_MAX_NS;
	}
	h->buckets[sim_hist_bucket_of(v)]++;
	h->count++;
	h->sum += (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

#endif
