// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's random numbers: xoshiro256** (Blackman and Vigna, 2018)
 * seeded with splitmix64, and sampling of struct il_dist.
 *
 * Results must be bit-identical on every machine, so nothing here calls
 * libm: log and exp are computed from + - * / and frexp/ldexp (exact), and
 * sqrt is IEEE correctly rounded. Contraction into fused multiply-adds would
 * change the last bits on some CPUs, so it is switched off for this file.
 */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <math.h>
#include <stdint.h>

#include "idlelab/sim.h"

#define LN2 0.69314718055994530942
#define LN2_HI 6.93147180369123816490e-01 /* ln 2 split so that k * LN2_HI is exact */
#define LN2_LO 1.90821492927058770002e-10
#define SQRT_HALF 0.70710678118654752440
#define NS_MAX_SAMPLE 4611686018427387904.0 /* 2^62 ns: clamp for absurd draws */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void il_rng_seed(struct il_rng *r, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t il_rng_next(struct il_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double il_rng_uniform(struct il_rng *r)
{
	return (double)(il_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t il_rng_below(struct il_rng *r, uint64_t n)
{
	/* rejection of the partial top range keeps every value equally likely */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = il_rng_next(r);
	while (x >= lim);
	return x % n;
}

double il_sim_log(double x)
{
	int e;
	double m, t, t2, p;

	if (!(x > 0))
		return x == 0 ? -HUGE_VAL : NAN;
	if (isinf(x))
		return x;
	m = frexp(x, &e); /* x = m * 2^e, m in [0.5, 1) */
	if (m < SQRT_HALF) {
		m *= 2;
		e--;
	}
	/* ln m = 2 atanh(t), |t| <= 0.1716: odd series to t^25 (error < 1e-20) */
	t = (m - 1) / (m + 1);
	t2 = t * t;
	p = 1.0 / 25;
	p = p * t2 + 1.0 / 23;
	p = p * t2 + 1.0 / 21;
	p = p * t2 + 1.0 / 19;
	p = p * t2 + 1.0 / 17;
	p = p * t2 + 1.0 / 15;
	p = p * t2 + 1.0 / 13;
	p = p * t2 + 1.0 / 11;
	p = p * t2 + 1.0 / 9;
	p = p * t2 + 1.0 / 7;
	p = p * t2 + 1.0 / 5;
	p = p * t2 + 1.0 / 3;
	p = p * t2 + 1;
	return (double)e * LN2_HI + (2 * t * p + (double)e * LN2_LO);
}

double il_sim_exp(double x)
{
	double k, r, p;

	if (x > 709)
		return HUGE_VAL;
	if (x < -745)
		return 0;
	/* x = k ln2 + r with |r| <= ln2/2; exp(r) by Taylor to r^15 (error < 1e-17) */
	k = x / LN2;
	k = k < 0 ? (double)(int64_t)(k - 0.5) : (double)(int64_t)(k + 0.5);
	r = (x - k * LN2_HI) - k * LN2_LO;
	p = 1.0 / 1307674368000.0;
	p = p * r + 1.0 / 87178291200.0;
	p = p * r + 1.0 / 6227020800.0;
	p = p * r + 1.0 / 479001600.0;
	p = p * r + 1.0 / 39916800.0;
	p = p * r + 1.0 / 3628800.0;
	p = p * r + 1.0 / 362880.0;
	p = p * r + 1.0 / 40320.0;
	p = p * r + 1.0 / 5040.0;
	p = p * r + 1.0 / 720.0;
	p = p * r + 1.0 / 120.0;
	p = p * r + 1.0 / 24.0;
	p = p * r + 1.0 / 6.0;
	p = p * r + 0.5;
	p = p * r + 1;
	p = p * r + 1;
	return ldexp(p, (int)k);
}

double il_rng_normal(struct il_rng *r)
{
	double u, v, s;

	do {
		u = 2 * il_rng_uniform(r) - 1;
		v = 2 * il_rng_uniform(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * sqrt(-2 * il_sim_log(s) / s);
}

static int64_t to_ns(double x)
{
	if (!(x > 0))
		return 0;
	if (x > NS_MAX_SAMPLE)
		x = NS_MAX_SAMPLE;
	return (int64_t)(x + 0.5);
}

int64_t il_dist_sample(const struct il_dist *d, struct il_rng *r)
{
	switch (d->kind) {
	case IL_DIST_NONE:
		return 0;
	case IL_DIST_CONST:
		return to_ns(d->a);
	case IL_DIST_UNIFORM:
		return to_ns(d->a + (d->b - d->a) * il_rng_uniform(r));
	case IL_DIST_NORMAL:
		return to_ns(d->a + d->b * il_rng_normal(r));
	case IL_DIST_LOGNORMAL:
		return to_ns(d->a * il_sim_exp(d->b * il_rng_normal(r)));
	case IL_DIST_EXP:
		return to_ns(d->a - d->b * il_sim_log(1 - il_rng_uniform(r)));
	}
	return 0;
}
