// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's random numbers: xoshiro256** (Blackman and Vigna, 2018)
 * seeded with splitmix64, and sampling of struct il_dist.
 *
 * Results must be bit-identical on every machine, so nothing here calls
 * libm: log and exp are computed from + - * /, frexp/ldexp (exact) and a
 * table of constants, and sqrt is IEEE correctly rounded. Contraction into fused multiply-adds would
 * change the last bits on some CPUs, so it is switched off for this file.
 */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "idlelab/rng.h"

#define LN2 0.69314718055994530942
#define LN2_HI 6.93147180369123816490e-01 /* ln 2 split so that k * LN2_HI is exact */
#define LN2_LO 1.90821492927058770002e-10
#define SQRT_HALF 0.70710678118654752440
/*
 * Clamp for absurd draws: the longest run (IL_SIM_DURATION_MAX_NS, 10^6 s),
 * so that a time plus several draws stays far from what an int64 holds
 */
#define NS_MAX_SAMPLE 1e15

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

/*
 * The library's objects are position-independent and its functions
 * exported, so a call from one of them to another is not inlined (the
 * name could be interposed): the draws below share these steps as static
 * inline functions, and the exported names wrap them.
 */
/*
 * One step of the generator on its four state words, which sim_dist_draw()
 * keeps in variables (registers) over its one or two steps.
 */
static inline uint64_t xoshiro_step4(uint64_t *s0, uint64_t *s1, uint64_t *s2, uint64_t *s3)
{
	uint64_t result = rotl(*s1 * 5, 7) * 9;
	uint64_t t = *s1 << 17;

	*s2 ^= *s0;
	*s3 ^= *s1;
	*s1 ^= *s2;
	*s0 ^= *s3;
	*s2 ^= t;
	*s3 = rotl(*s3, 45);
	return result;
}

static inline uint64_t xoshiro_next(struct il_rng *r)
{
	return xoshiro_step4(&r->s[0], &r->s[1], &r->s[2], &r->s[3]);
}

uint64_t il_rng_next(struct il_rng *r)
{
	return xoshiro_next(r);
}

static inline double uniform(struct il_rng *r)
{
	return (double)(xoshiro_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

double il_rng_uniform(struct il_rng *r)
{
	return uniform(r);
}

uint64_t il_rng_below(struct il_rng *r, uint64_t n)
{
	/* rejection of the partial top range keeps every value equally likely */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = xoshiro_next(r);
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

/* 2^(j/64), j = 0..63, as exact constants (within an ulp of the true values). */
static const double exp2_64[64] = {
	0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0, 0x1.0874518759bc8p+0,
	0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0, 0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0,
	0x1.172b83c7d517bp+0, 0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
	0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0, 0x1.2d285a6e4030bp+0,
	0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0, 0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0,
	0x1.3dea64c123422p+0, 0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
	0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0, 0x1.56f4736b527dap+0,
	0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0, 0x1.6247eb03a5585p+0, 0x1.6623882552225p+0,
	0x1.6a09e667f3bcdp+0, 0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
	0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0, 0x1.868d99b4492edp+0,
	0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0, 0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0,
	0x1.9c49182a3f090p+0, 0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
	0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0, 0x1.bcc1e904bc1d2p+0,
	0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0, 0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0,
	0x1.d5818dcfba487p+0, 0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
	0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0, 0x1.fa7c1819e90d8p+0,
};

/* exp(x) for -708 <= x <= 709 (sim_exp() tests the range) */
static inline double sim_exp_in_range(double x)
{
	double kf, r, p, q, r2, r4, two_m;
	int64_t n;
	int m;

	/* x = (64 m + j) ln2/64 + r, |r| <= ln2/128: exp(r) by Taylor to r^6 (error < 1e-17) */
	kf = x * (64 / LN2);
	/*
	 * n = kf rounded to nearest (ties to even): adding 1.5 * 2^52 leaves
	 * the rounded value in the low mantissa bits, subtracting it again
	 * gives (double)n, both without an integer conversion on the chain.
	 */
	const double shifter = 0x1.8p52;
	double nf_s = kf + shifter, nf = nf_s - shifter;
	uint64_t nbits;
	memcpy(&nbits, &nf_s, sizeof(nbits));
	n = (int64_t)(int32_t)(uint32_t)nbits; /* |kf| < 2^16: the low 32 bits, signed */
	r = (x - nf * (LN2_HI / 64)) - nf * (LN2_LO / 64);
	/*
	 * exp(r) - 1 = r q(r), q = 1 + r/2 + r^2/6 + r^3/24 + r^4/120 + r^5/720,
	 * by Estrin's scheme: three independent pairs joined by r^2 and r^4, a
	 * chain of about half the latency of Horner's (the draws are on the
	 * simulator's critical path). The terms are fixed: the same bits on
	 * every machine.
	 */
	r2 = r * r;
	r4 = r2 * r2;
	q = (1 + r * 0.5) + r2 * (1.0 / 6 + r * (1.0 / 24)) + r4 * (1.0 / 120 + r * (1.0 / 720));
	p = r * q;
	m = (int)(n >> 6);          /* floor division: n >> 6 rounds toward -inf */
	p = exp2_64[n & 63] + exp2_64[n & 63] * p;
	/* 2^m built from its bits: m is within the normal range here */
	uint64_t bits = (uint64_t)(m + 1023) << 52;
	memcpy(&two_m, &bits, sizeof(two_m));
	return p * two_m;
}

static inline double sim_exp(double x)
{
	if (x > 709)
		return HUGE_VAL;
	if (__builtin_expect(x < -708, 0))
		return x < -745 ? 0 : ldexp(il_sim_exp(x + 64 * LN2), -64);
	return sim_exp_in_range(x);
}

double il_sim_exp(double x)
{
	return sim_exp(x);
}

/*
 * Standard normal deviates by the ziggurat method of Marsaglia and Tsang
 * (2000), 128 layers. The layer tables are computed once with the own
 * log/exp above (so they are the same everywhere).
 */
#define ZIG_R 3.442619855899
#define ZIG_V 9.91256303526217e-3
#define ZIG_M 2147483648.0

static struct {
	uint32_t kn[128];
	double wn[128], fn[128];
} zig;
static pthread_once_t zig_once = PTHREAD_ONCE_INIT;
static bool zig_ready; /* set (release) once the tables are built: skips pthread_once per draw */

static void zig_init(void)
{
	double dn = ZIG_R, tn = dn;
	double q = ZIG_V / il_sim_exp(-0.5 * dn * dn);

	zig.kn[0] = (uint32_t)((dn / q) * ZIG_M);
	zig.kn[1] = 0;
	zig.wn[0] = q / ZIG_M;
	zig.wn[127] = dn / ZIG_M;
	zig.fn[0] = 1.0;
	zig.fn[127] = il_sim_exp(-0.5 * dn * dn);
	for (int i = 126; i >= 1; i--) {
		dn = sqrt(-2 * il_sim_log(ZIG_V / dn + il_sim_exp(-0.5 * dn * dn)));
		zig.kn[i + 1] = (uint32_t)((dn / tn) * ZIG_M);
		tn = dn;
		zig.fn[i] = il_sim_exp(-0.5 * dn * dn);
		zig.wn[i] = dn / ZIG_M;
	}
	__atomic_store_n(&zig_ready, true, __ATOMIC_RELEASE);
}

/* The ziggurat's tables exist (before the first draw that skips normal()'s test). */
static inline void zig_ensure(void)
{
	if (__builtin_expect(!__atomic_load_n(&zig_ready, __ATOMIC_ACQUIRE), 0))
		pthread_once(&zig_once, zig_init);
}

/*
 * The rest of a draw whose first layer test failed (about 1 in 40): the
 * tail or the wedge for hz, then new draws until one is accepted. Out of
 * line, so that the usual draw saves no registers.
 */
static __attribute__((noinline)) double normal_rejected(struct il_rng *r, int32_t hz)
{
	for (;;) {
		int iz = hz & 127;
		uint32_t ahz = hz < 0 ? (uint32_t)(-(int64_t)hz) : (uint32_t)hz;
		double x = (double)hz * zig.wn[iz];

		if (ahz < zig.kn[iz])
			return x;
		if (iz == 0) {
			/* the tail beyond ZIG_R */
			double y;
			do {
				x = -il_sim_log(1 - uniform(r)) / ZIG_R;
				y = -il_sim_log(1 - uniform(r));
			} while (y + y < x * x);
			return hz > 0 ? ZIG_R + x : -ZIG_R - x;
		}
		/* the wedge: accept under the density */
		if (zig.fn[iz] + uniform(r) * (zig.fn[iz - 1] - zig.fn[iz]) < sim_exp(-0.5 * x * x))
			return x;
		hz = (int32_t)(uint32_t)(xoshiro_next(r) >> 32);
	}
}

/* A standard normal deviate, the tables built. */
static inline double normal_built(struct il_rng *r)
{
	int32_t hz = (int32_t)(uint32_t)(xoshiro_next(r) >> 32);
	int iz = hz & 127;
	uint32_t ahz = hz < 0 ? (uint32_t)(-(int64_t)hz) : (uint32_t)hz;

	/* the layer's rectangle: accepted at once */
	if (__builtin_expect(ahz < zig.kn[iz], 1))
		return (double)hz * zig.wn[iz];
	return normal_rejected(r, hz);
}

static inline double normal(struct il_rng *r)
{
	zig_ensure();
	return normal_built(r);
}

double il_rng_normal(struct il_rng *r)
{
	return normal(r);
}

static int64_t to_ns(double x)
{
	if (!(x > 0))
		return 0;
	if (x > NS_MAX_SAMPLE)
		x = NS_MAX_SAMPLE;
	return (int64_t)(x + 0.5);
}

static double draw_one(enum il_dist_kind kind, double a, double b, struct il_rng *r)
{
	switch (kind) {
	case IL_DIST_CONST:
		return a;
	case IL_DIST_UNIFORM:
		return a + (b - a) * uniform(r);
	case IL_DIST_NORMAL:
		return a + b * normal(r);
	case IL_DIST_LOGNORMAL:
		return a * sim_exp(b * normal(r));
	case IL_DIST_EXP:
		return a - b * il_sim_log(1 - uniform(r));
	default:
		return 0;
	}
}

/* A tail's draw added to v (the tail's uniform fell under tail_p). */
static __attribute__((noinline)) int64_t tail_add(int64_t v, const struct il_dist *d,
						  struct il_rng *r)
{
	v += to_ns(draw_one(d->tail_kind, d->tail_a, d->tail_b, r));
	/* the sum, too, is at most the clamp: a time plus draws stays far from overflow */
	if (v > (int64_t)NS_MAX_SAMPLE)
		v = (int64_t)NS_MAX_SAMPLE;
	return v;
}

/* The body's value and, with a tail, its uniform and draw: any kind. */
static __attribute__((noinline)) int64_t draw_other(const struct il_dist *d, struct il_rng *r)
{
	/* the body first, then (with a tail) one uniform, then the tail's draw */
	int64_t v = to_ns(draw_one(d->kind, d->a, d->b, r));
	if (d->tail_p > 0 && uniform(r) < d->tail_p)
		v = tail_add(v, d, r);
	return v;
}

/*
 * A log-normal draw from its exponent x = b z on: the rare cases of
 * sim_dist_draw() (a rejected layer, x outside exp's usual range), out of
 * line and reached by a tail call, so that the usual draw makes no call and
 * reserves no stack space for one.
 */
static __attribute__((noinline)) int64_t lognormal_rest(const struct il_dist *d,
							struct il_rng *r, double x)
{
	double a = d->a, p = d->tail_p;
	int64_t v = to_ns(a * sim_exp(x));
	if (p > 0 && uniform(r) < p)
		return tail_add(v, d, r);
	return v;
}

/* The same for a draw whose first layer test failed (about 1 in 40). */
static __attribute__((noinline)) int64_t lognormal_rejected(const struct il_dist *d,
							    struct il_rng *r, int32_t hz)
{
	double b = d->b;
	return lognormal_rest(d, r, b * normal_rejected(r, hz));
}

__attribute__((visibility("hidden"))) void sim_rng_setup(void);
__attribute__((visibility("hidden"))) void sim_rng_setup(void)
{
	zig_ensure();
}

/*
 * The kinds that draw: out of line, so that a constant needs no stack
 * frame. The engine calls it directly (sim_internal.h) for the
 * distributions it found at setup to draw, without il_dist_sample()'s
 * test of the kind; its setup built the ziggurat's tables
 * (sim_rng_setup()). A tail takes one uniform after the body's draw, and
 * its own draw when it falls in the tail.
 *
 * The platforms' drawn times are log-normals (with or without a tail):
 * that kind is tested first, its parameters read before the generator's
 * state is written (they could alias it), and the normal deviate is drawn
 * without the tables' test: the same operations in the same order as
 * draw_other(), so the same bits and the same numbers taken. The usual
 * draw (the layer's rectangle accepted, exp's argument in its usual range)
 * calls nothing, the rare cases being reached by tail calls, so it reserves
 * no stack space; it keeps the generator's state in registers over its
 * normal deviate and the tail's uniform and stores it once.
 */
__attribute__((noinline, visibility("hidden"))) int64_t sim_dist_draw(const struct il_dist *d,
								      struct il_rng *r);
__attribute__((noinline, visibility("hidden"))) int64_t sim_dist_draw(const struct il_dist *d,
								      struct il_rng *r)
{
	if (__builtin_expect(d->kind != IL_DIST_LOGNORMAL, 0))
		return draw_other(d, r);
	double a = d->a, b = d->b, p = d->tail_p;
	/*
	 * The generator's state in registers for the draw's one or two
	 * numbers, stored before any call and at the end.
	 */
	uint64_t s0 = r->s[0], s1 = r->s[1], s2 = r->s[2], s3 = r->s[3];
#define STATE_BACK() (r->s[0] = s0, r->s[1] = s1, r->s[2] = s2, r->s[3] = s3)
	/* normal_built(), its rare rejection left to lognormal_rejected() */
	int32_t hz = (int32_t)(uint32_t)(xoshiro_step4(&s0, &s1, &s2, &s3) >> 32);
	int iz = hz & 127;
	uint32_t ahz = hz < 0 ? (uint32_t)(-(int64_t)hz) : (uint32_t)hz;
	if (__builtin_expect(!(ahz < zig.kn[iz]), 0)) {
		STATE_BACK();
		return lognormal_rejected(d, r, hz);
	}
	double x = b * ((double)hz * zig.wn[iz]);
	/* sim_exp()'s range tests, their cases left to lognormal_rest() */
	if (__builtin_expect(!(x <= 709 && x >= -708), 0)) {
		STATE_BACK();
		return lognormal_rest(d, r, x);
	}
	int64_t v = to_ns(a * sim_exp_in_range(x));
	if (p > 0) {
		/* uniform() */
		double u = (double)(xoshiro_step4(&s0, &s1, &s2, &s3) >> 11) * (1.0 / 9007199254740992.0);
		STATE_BACK();
		if (u < p)
			return tail_add(v, d, r);
		return v;
	}
	STATE_BACK();
#undef STATE_BACK
	return v;
}

int64_t il_dist_sample(const struct il_dist *d, struct il_rng *r)
{
	if (!(d->tail_p > 0)) {
		switch (d->kind) {
		case IL_DIST_NONE:
			return 0;
		case IL_DIST_CONST:
			return to_ns(d->a);
		default:
			break;
		}
	}
	zig_ensure();
	return sim_dist_draw(d, r);
}
