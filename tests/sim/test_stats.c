// SPDX-License-Identifier: GPL-2.0-only
/* Run statistics and the Welch t-test, against values worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>

#include "idlelab/stats.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

static void summary(void **unused)
{
	(void)unused;
	struct il_stats st;
	const double v[] = { 4, 1, 3, 2 };
	il_stats_compute(v, 4, &st);
	NEAR(st.min, 1, 1e-12);
	NEAR(st.max, 4, 1e-12);
	NEAR(st.median, 2.5, 1e-12);
	NEAR(st.amean, 2.5, 1e-12);
	NEAR(st.hmean, 4 / (1 + 0.5 + 1.0 / 3 + 0.25), 1e-12);
	NEAR(st.stddev, sqrt(5.0 / 3), 1e-12);          /* sample stddev */
	NEAR(st.coefvar, 100 * sqrt(5.0 / 3) / 2.5, 1e-9);
	const double w[] = { 5, -1, 3 };
	il_stats_compute(w, 3, &st);
	NEAR(st.median, 3, 1e-12);
	NEAR(st.hmean, 0, 1e-12);                        /* undefined with a value <= 0 */
	const double one[] = { 7 };
	il_stats_compute(one, 1, &st);
	NEAR(st.stddev, 0, 1e-12);
	NEAR(st.median, 7, 1e-12);
	/* finite values whose sum and squares overflow: scaled, not inf (1.4e308 and a
	 * sample stddev of sqrt(0.13) x 1e308 = 3.606e307) */
	const double big[] = { 1e308, 1.5e308, 1.7e308 };
	il_stats_compute(big, 3, &st);
	assert_true(isfinite(st.amean) && isfinite(st.stddev) && isfinite(st.median));
	NEAR(st.amean / 1e308, 1.4, 1e-12);
	NEAR(st.median / 1e308, 1.5, 1e-12);
	NEAR(st.stddev / 1e307, sqrt(0.13) * 10, 1e-9);
	const double two[] = { 1.6e308, 1.7e308 };
	il_stats_compute(two, 2, &st);
	NEAR(st.median / 1e308, 1.65, 1e-12);
}

static void welch(void **unused)
{
	(void)unused;
	double t, df;
	/* a: mean 2, var 1; b: mean 5, var 1; n = 3 each: t = 3 / sqrt(2/3), df = 4 */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	assert_true(il_welch_significant(a, 3, b, 3, &t, &df));
	NEAR(t, 3 / sqrt(2.0 / 3), 1e-12);
	NEAR(df, 4, 1e-12);
	/* t = 3.674 > t(0.975, 4) = 2.776; shift b down to mean 3: t = 1.2247 < 2.776 */
	const double c[] = { 2, 3, 4 };
	assert_false(il_welch_significant(a, 3, c, 3, &t, &df));
	NEAR(t, 1 / sqrt(2.0 / 3), 1e-12);
	/* fewer than two runs: never significant */
	assert_false(il_welch_significant(a, 1, b, 3, &t, &df));
	/* no spread: significant iff means differ */
	const double z1[] = { 1, 1 }, z2[] = { 2, 2 };
	assert_true(il_welch_significant(z1, 2, z2, 2, &t, &df));
	assert_false(il_welch_significant(z1, 2, z1, 2, &t, &df));
	/* the t table */
	NEAR(il_t_crit_975(1), 12.706, 1e-9);
	NEAR(il_t_crit_975(4), 2.776, 1e-9);
	NEAR(il_t_crit_975(30), 2.042, 1e-9);
	NEAR(il_t_crit_975(120), 1.980, 1e-9);
	NEAR(il_t_crit_975(1e9), 1.960, 1e-6);
	assert_true(il_t_crit_975(4.5) < 2.776 && il_t_crit_975(4.5) > 2.571);
}

static void metrics(void **unused)
{
	(void)unused;
	struct il_metrics ms;
	il_metrics_init(&ms);
	for (int i = 0; i < 200; i++)
		il_metric_add(&ms, "r", "c", "us", IL_BETTER_LOWER, false, i);
	assert_int_equal(ms.n, 200);
	assert_true(ms.m[199].value == 199);
	il_metrics_mark_grid(&ms, 150);
	assert_false(ms.m[149].grid);
	assert_true(ms.m[150].grid);
	il_metrics_free(&ms);
	assert_int_equal(ms.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(summary),
		cmocka_unit_test(welch),
		cmocka_unit_test(metrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
