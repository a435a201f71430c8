/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulator's random numbers (src/sim/rng.c): one seeded generator per
 * run, own xoshiro256** and own sampling, no libm, so a seed gives the same
 * numbers on every machine, compiler optimisation level and C library.
 */
#ifndef IDLELAB_RNG_H
#define IDLELAB_RNG_H

#include <stdint.h>

#include "idlelab/state.h"

#ifdef __cplusplus
extern "C" {
#endif

/* xoshiro256** seeded through splitmix64: the same stream on every machine. */
struct il_rng {
	uint64_t s[4];
};

void il_rng_seed(struct il_rng *r, uint64_t seed);
uint64_t il_rng_next(struct il_rng *r);
/* Uniform double in [0, 1) with 53 random bits. */
double il_rng_uniform(struct il_rng *r);
/* Uniform integer in [0, n) (n > 0), without modulo bias. */
uint64_t il_rng_below(struct il_rng *r, uint64_t n);
/* Standard normal deviate (ziggurat, own log/exp). */
double il_rng_normal(struct il_rng *r);
/* Sample a duration distribution in ns (>= 0, rounded to the ns). */
int64_t il_dist_sample(const struct il_dist *d, struct il_rng *r);
/*
 * Natural log and exp built from + - * / only, so results do not depend on
 * the C library (relative error below 5e-16 over the ranges the simulator uses).
 */
double il_sim_log(double x);
double il_sim_exp(double x);

#ifdef __cplusplus
}
#endif

#endif
