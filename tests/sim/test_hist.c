// SPDX-License-Identifier: GPL-2.0-only
/* Histograms: bucket layout, percentiles by rank, the stated relative error; the RNG. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "idlelab/hist.h"
#include "idlelab/rng.h"
#include "idlelab/state.h"

static void buckets(void **unused)
{
	(void)unused;
	int64_t lo, hi;
	/* exact below 256 */
	assert_int_equal(il_hist_bucket(0), 0);
	assert_int_equal(il_hist_bucket(255), 255);
	/* 256..511: width 2 */
	assert_int_equal(il_hist_bucket(256), 256);
	assert_int_equal(il_hist_bucket(257), 256);
	assert_int_equal(il_hist_bucket(258), 257);
	il_hist_bucket_range(257, &lo, &hi);
	assert_int_equal(lo, 258);
	assert_int_equal(hi, 259);
	/* 512..1023: width 4, starts at bucket 384 */
	assert_int_equal(il_hist_bucket(512), 384);
	assert_int_equal(il_hist_bucket(1023), 511);
	assert_int_equal(il_hist_bucket(IL_HIST_MAX_NS), IL_HIST_BUCKETS - 128);
	assert_int_equal(il_hist_bucket(IL_HIST_MAX_NS - 1), IL_HIST_BUCKETS - 129);
	assert_int_equal(il_hist_bucket(-5), 0);
	/* every bucket's range maps back to it, and ranges tile the line */
	int64_t next = 0;
	for (int b = 0; b < IL_HIST_BUCKETS - 128; b++) {
		il_hist_bucket_range(b, &lo, &hi);
		assert_int_equal(lo, next);
		assert_int_equal(il_hist_bucket(lo), b);
		assert_int_equal(il_hist_bucket(hi), b);
		next = hi + 1;
	}
}

static void percentiles(void **unused)
{
	(void)unused;
	static struct il_hist h;
	il_hist_init(&h);
	assert_int_equal(il_hist_percentile(&h, 50), -1);
	for (int v = 1; v <= 100; v++)
		il_hist_add(&h, v);
	/* rank ceil(p/100 * 100) */
	assert_int_equal(il_hist_percentile(&h, 50), 50);
	assert_int_equal(il_hist_percentile(&h, 50.5), 51);
	assert_int_equal(il_hist_percentile(&h, 99), 99);
	assert_int_equal(il_hist_percentile(&h, 0), 1);
	assert_int_equal(il_hist_percentile(&h, 100), 100);
	assert_int_equal(h.count, 100);
	assert_true(il_hist_mean(&h) == 50.5);
	/* merge keeps counts, min and max */
	static struct il_hist g;
	il_hist_init(&g);
	il_hist_add(&g, 1000000);
	il_hist_merge(&g, &h);
	assert_int_equal(g.count, 101);
	assert_int_equal(g.min, 1);
	assert_int_equal(g.max, 1000000);
	/* clamping */
	il_hist_add(&g, IL_HIST_MAX_NS * 4);
	assert_int_equal(g.clamped, 1);
	assert_int_equal(g.max, IL_HIST_MAX_NS);
}

/* Reported values are within IL_HIST_REL_ERROR of the true order statistic. */
static void relative_error(void **unused)
{
	(void)unused;
	static struct il_hist h;
	struct il_rng r;
	il_rng_seed(&r, 42);
	for (int n = 0; n < 2000; n++) {
		int64_t v = (int64_t)il_rng_below(&r, 1ull << 36);
		il_hist_init(&h);
		il_hist_add(&h, v);
		il_hist_add(&h, 0);
		int64_t got = il_hist_percentile(&h, 75); /* rank 2: v */
		assert_true(fabs((double)(got - v)) <= IL_HIST_REL_ERROR * (double)v + 0.5);
	}
}

static void rng(void **unused)
{
	(void)unused;
	/* xoshiro256** reference outputs for the state {1, 2, 3, 4} */
	struct il_rng r = { .s = { 1, 2, 3, 4 } };
	assert_true(il_rng_next(&r) == 11520);
	assert_true(il_rng_next(&r) == 0);
	assert_true(il_rng_next(&r) == 1509978240);
	assert_true(il_rng_next(&r) == 1215971899390074240ull);
	/* splitmix64 seeding: first state word of seed 0 */
	il_rng_seed(&r, 0);
	assert_true(r.s[0] == 0xe220a8397b1dcdafull);
	/* own log/exp agree with libm to 5e-16 relative */
	for (double x = 1e-9; x < 1e12; x *= 1.37) {
		assert_true(fabs(il_sim_log(x) - log(x)) <= 5e-16 * fmax(1, fabs(log(x))));
	}
	for (double x = -40; x < 40; x += 0.173)
		assert_true(fabs(il_sim_exp(x) - exp(x)) <= 5e-16 * exp(x));
	for (double x = -745; x < 709; x += 3.7)
		assert_true(fabs(il_sim_exp(x) - exp(x)) <= 5e-16 * exp(x) + 1e-320);
	/* standard normal (ziggurat): moments and the tail beyond its base layer */
	double s1 = 0, s2 = 0, s4 = 0;
	int tail = 0, n = 1000000;
	il_rng_seed(&r, 11);
	for (int i = 0; i < n; i++) {
		double z = il_rng_normal(&r);
		s1 += z;
		s2 += z * z;
		s4 += z * z * z * z;
		tail += fabs(z) > 3.442619855899;
	}
	assert_true(fabs(s1 / n) < 0.005);
	assert_true(fabs(s2 / n - 1) < 0.005);
	assert_true(fabs(s4 / n - 3) < 0.05);
	/* P(|z| > 3.4426) = 5.76e-4: 576 expected, sd 24 */
	assert_true(tail > 576 - 120 && tail < 576 + 120);
	/* distributions: bounds and means */
	struct il_dist u = { IL_DIST_UNIFORM, 800, 1200 }, e = { IL_DIST_EXP, 100, 1000 },
		       c = { IL_DIST_CONST, 5, 0 }, nn = { IL_DIST_NORMAL, 10, 100 },
		       ln = { IL_DIST_LOGNORMAL, 1000, 0.5 };
	double su = 0, se = 0, sl = 0;
	il_rng_seed(&r, 7);
	for (int i = 0; i < 200000; i++) {
		int64_t x = il_dist_sample(&u, &r);
		assert_true(x >= 800 && x <= 1200);
		su += (double)x;
		x = il_dist_sample(&e, &r);
		assert_true(x >= 100);
		se += (double)x;
		assert_int_equal(il_dist_sample(&c, &r), 5);
		assert_true(il_dist_sample(&nn, &r) >= 0);
		sl += (double)il_dist_sample(&ln, &r);
	}
	assert_true(fabs(su / 200000 - 1000) < 2);
	assert_true(fabs(se / 200000 - 1100) < 10);
	assert_true(fabs(sl / 200000 - 1000 * exp(0.125)) < 10);
	/* below() stays below */
	for (int i = 0; i < 1000; i++)
		assert_true(il_rng_below(&r, 3) < 3);
}

/*
 * A distribution's tail ("BODY+P%:DIST"): each draw takes the body, and in
 * P of the draws adds one from DIST. Expected values by hand.
 */
static void dist_tail(void **unused)
{
	(void)unused;
	struct il_dist d, d2;
	struct il_err e;
	struct il_rng r;
	char buf[IL_DIST_STR_LEN];

	/* 100 ns, plus 1000 ns in a quarter of the draws: 100 or 1100, mean 350 */
	assert_int_equal(il_dist_parse("const:100+25%:const:1us", &d, &e), 0);
	assert_int_equal(d.kind, IL_DIST_CONST);
	assert_true(d.a == 100 && d.tail_p == 0.25 && d.tail_kind == IL_DIST_CONST &&
		    d.tail_a == 1000);
	assert_true(il_dist_draws(&d));
	assert_true(il_dist_mean(&d) == 350);
	assert_string_equal(il_dist_str(&d, buf, sizeof(buf)), "100+25%:1000");
	il_rng_seed(&r, 11);
	int n = 100000, tails = 0;
	for (int i = 0; i < n; i++) {
		int64_t x = il_dist_sample(&d, &r);
		assert_true(x == 100 || x == 1100);
		tails += x == 1100;
	}
	/* binomial: 25000 expected, sd sqrt(100000 * 0.25 * 0.75) = 137 */
	assert_true(tails > 25000 - 700 && tails < 25000 + 700);

	/* a body of 0 with a tail is not "no cost": it draws */
	assert_int_equal(il_dist_parse("0+10%:lognormal:20us:1", &d, &e), 0);
	assert_int_equal(d.kind, IL_DIST_CONST);
	assert_true(il_dist_draws(&d));
	/* mean 0.1 * 20000 * exp(1/2) = 3297.4 */
	assert_true(fabs(il_dist_mean(&d) - 0.1 * 20000 * exp(0.5)) < 1e-6);
	assert_string_equal(il_dist_str(&d, buf, sizeof(buf)), "0+10%:lognormal:20000:1");

	/* the body's own draw is taken first, so a log-normal body keeps its median */
	assert_int_equal(il_dist_parse("lognormal:12410:0.33 + 6%:lognormal:20us:1.1", &d, &e), 0);
	assert_true(d.kind == IL_DIST_LOGNORMAL && d.a == 12410 && d.tail_p == 0.06 &&
		    d.tail_kind == IL_DIST_LOGNORMAL && d.tail_a == 20000 && d.tail_b == 1.1);
	il_rng_seed(&r, 5);
	int over = 0;
	for (int i = 0; i < n; i++)
		over += il_dist_sample(&d, &r) > 12410 + 100000;
	/* past the body by 100 us: 6 % x P(z > ln(5) / 1.1 = 1.4631) = 6 % x 0.07172 = 0.430 %
	 * (the body adds ~0.4 us there): 430 expected, sd 21 */
	assert_true(over > 430 - 110 && over < 430 + 110);

	/* the share prints as it was read, in a form that reads back */
	assert_int_equal(il_dist_parse("1200+12.3456789%:const:5", &d, &e), 0);
	assert_string_equal(il_dist_str(&d, buf, sizeof(buf)), "1200+12.3456789%:5");
	assert_int_equal(il_dist_parse("1200+0.00005%:const:5", &d, &e), 0);
	assert_int_equal(il_dist_parse(il_dist_str(&d, buf, sizeof(buf)), &d2, &e), 0);
	assert_true(d2.tail_p == d.tail_p && d2.tail_kind == IL_DIST_CONST && d2.tail_a == 5);

	/* a draw is at most the longest run (10^6 s), with its tail too */
	assert_int_equal(il_dist_parse("1000000s+100%:1000000s", &d, &e), 0);
	assert_true(il_dist_sample(&d, &r) == 1000000 * INT64_C(1000000000));
	assert_int_equal(il_dist_parse("uniform:1000000s:1000000s+100%:exp:1us:1000s", &d, &e), 0);
	assert_true(il_dist_sample(&d, &r) == 1000000 * INT64_C(1000000000));

	/* no tail: nothing changes, no draw for a constant */
	assert_int_equal(il_dist_parse("1200", &d, &e), 0);
	assert_true(d.tail_p == 0 && !il_dist_draws(&d));
	assert_int_equal(il_dist_parse("0", &d, &e), 0);
	assert_int_equal(d.kind, IL_DIST_NONE);

	/* bare numbers in µs where the caller reads them so (--wl-opt), units as written */
	assert_int_equal(il_dist_parse_bare("80", true, &d, &e), 0);
	assert_true(d.kind == IL_DIST_CONST && d.a == 80000);
	assert_int_equal(il_dist_parse_bare("lognormal:80:0.5+2.5%:uniform:1.5:3ms", true, &d, &e), 0);
	assert_true(d.a == 80000 && d.b == 0.5 && d.tail_p == 0.025 && d.tail_a == 1500 &&
		    d.tail_b == 3000000);
	assert_int_equal(il_dist_parse_bare("80ns", true, &d, &e), 0);
	assert_true(d.a == 80);
	assert_int_equal(il_dist_parse_bare("80", false, &d, &e), 0);
	assert_true(d.a == 80);

	/* malformed tails */
	assert_int_equal(il_dist_parse("1200+0%:const:5", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("1200+101%:const:5", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("1200+5%", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("1200+5%const:5", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("1200+5%:0", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("1200+5%:uniform:0:0", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("1200+5%:lognormal:0:1", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("1200+5%:exp:0:0", &d, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "adds nothing"));
	assert_int_equal(il_dist_parse("1200+5%:exp:0:1us", &d, &e), 0);
	assert_int_equal(il_dist_parse("1200+5%:normal:0:1us", &d, &e), 0);
	assert_int_equal(il_dist_parse("1200+5%:gamma:1:2", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("1200+5%:uniform:9:1", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("1200+5%:const:5+5%:const:5", &d, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "more than one tail"));
	assert_int_equal(il_dist_parse("+5%:const:5", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("80+nan%:100", &d, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "P a number"));
	assert_int_equal(il_dist_parse("80+x%:lognormal:1us:1", &d, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "P a number"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets),
		cmocka_unit_test(percentiles),
		cmocka_unit_test(relative_error),
		cmocka_unit_test(rng),
		cmocka_unit_test(dist_tail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
