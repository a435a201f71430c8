// SPDX-License-Identifier: GPL-2.0-only
/* The SVG line-plot writer: tick spacing, axis ranges, data-to-px scaling, output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/plot.h"

#define EPS 1e-9

static void test_nice_step(void **state)
{
	(void)state;
	assert_float_equal(il_plot_nice_step(1), 1, EPS);
	assert_float_equal(il_plot_nice_step(1.2), 2, EPS);
	assert_float_equal(il_plot_nice_step(2), 2, EPS);
	assert_float_equal(il_plot_nice_step(2.5), 5, EPS);
	assert_float_equal(il_plot_nice_step(5), 5, EPS);
	assert_float_equal(il_plot_nice_step(7), 10, EPS);
	assert_float_equal(il_plot_nice_step(0.37), 0.5, EPS);
	assert_float_equal(il_plot_nice_step(0.2), 0.2, EPS);
	assert_float_equal(il_plot_nice_step(30), 50, EPS);
	assert_float_equal(il_plot_nice_step(100), 100, EPS);
}

static struct il_plot *one_series(const double *x, const double *y, size_t n, bool log_x)
{
	struct il_plot *p = il_plot_new("t", "x", "y");
	struct il_err err;
	assert_non_null(p);
	il_plot_set_log_x(p, log_x);
	assert_int_equal(il_plot_add_series(p, "s", x, y, n, &err), 0);
	return p;
}

/* linear x spans the data exactly; y from 0 up to the next whole tick */
static void test_linear(void **state)
{
	const double x[] = { 2, 5, 10 }, y[] = { 0.3, 1.7, 4.6 };
	struct il_plot *p = one_series(x, y, 3, false);
	struct il_plot_axes ax;
	(void)state;
	assert_int_equal(il_plot_layout(p, &ax, NULL), 0);
	assert_float_equal(ax.xlo, 2, EPS);
	assert_float_equal(ax.xhi, 10, EPS);
	assert_float_equal(ax.ylo, 0, EPS);     /* 0 shown although ymin = 0.3 */
	assert_float_equal(ax.ystep, 1, EPS);   /* 4.6 / 5 = 0.92 -> 1 */
	assert_float_equal(ax.yhi, 5, EPS);
	assert_float_equal(il_plot_px_x(&ax, 2), IL_PLOT_LEFT_PX, EPS);
	assert_float_equal(il_plot_px_x(&ax, 10), IL_PLOT_RIGHT_PX, EPS);
	assert_float_equal(il_plot_px_x(&ax, 6), (IL_PLOT_LEFT_PX + IL_PLOT_RIGHT_PX) / 2.0, EPS);
	assert_float_equal(il_plot_px_y(&ax, 0), IL_PLOT_BOTTOM_PX, EPS);
	assert_float_equal(il_plot_px_y(&ax, 5), IL_PLOT_TOP_PX, EPS);
	assert_float_equal(il_plot_px_y(&ax, 2.5), (IL_PLOT_TOP_PX + IL_PLOT_BOTTOM_PX) / 2.0, EPS);
	il_plot_free(p);
}

/* negative y: the range reaches down to a whole tick below the minimum */
static void test_negative_y(void **state)
{
	const double x[] = { 1, 2 }, y[] = { -3, 7 };
	struct il_plot *p = one_series(x, y, 2, false);
	struct il_plot_axes ax;
	(void)state;
	assert_int_equal(il_plot_layout(p, &ax, NULL), 0);
	assert_float_equal(ax.ystep, 2, EPS);   /* 10 / 5 */
	assert_float_equal(ax.ylo, -4, EPS);
	assert_float_equal(ax.yhi, 8, EPS);
	assert_float_equal(il_plot_px_y(&ax, -4), IL_PLOT_BOTTOM_PX, EPS);
	assert_float_equal(il_plot_px_y(&ax, 8), IL_PLOT_TOP_PX, EPS);
	assert_float_equal(il_plot_px_y(&ax, 0),
			   IL_PLOT_BOTTOM_PX - 4.0 / 12 * (IL_PLOT_BOTTOM_PX - IL_PLOT_TOP_PX), EPS);
	il_plot_free(p);
}

/* flat data: all-zero y gets [0, 1]; one x value gets x - 1 .. x + 1 */
static void test_degenerate(void **state)
{
	const double x[] = { 3, 3 }, y[] = { 0, 0 };
	struct il_plot *p = one_series(x, y, 2, false);
	struct il_plot_axes ax;
	(void)state;
	assert_int_equal(il_plot_layout(p, &ax, NULL), 0);
	assert_float_equal(ax.xlo, 2, EPS);
	assert_float_equal(ax.xhi, 4, EPS);
	assert_float_equal(ax.ylo, 0, EPS);
	assert_float_equal(ax.ystep, 0.2, EPS);
	assert_float_equal(ax.yhi, 1, EPS);
	assert_float_equal(il_plot_px_x(&ax, 3), (IL_PLOT_LEFT_PX + IL_PLOT_RIGHT_PX) / 2.0, EPS);
	il_plot_free(p);
}

/* log x: whole decades around the data; exact decades stay put */
static void test_log_x(void **state)
{
	const double x[] = { 2, 152, 1002 }, y[] = { 1, 2, 3 };
	const double xd[] = { 10, 100 }, x1[] = { 10 };
	struct il_plot *p = one_series(x, y, 3, true);
	struct il_plot_axes ax;
	(void)state;
	assert_int_equal(il_plot_layout(p, &ax, NULL), 0);
	assert_true(ax.log_x);
	assert_float_equal(ax.xlo, 1, EPS);
	assert_float_equal(ax.xhi, 10000, EPS);
	assert_float_equal(il_plot_px_x(&ax, 1), IL_PLOT_LEFT_PX, EPS);
	assert_float_equal(il_plot_px_x(&ax, 100), (IL_PLOT_LEFT_PX + IL_PLOT_RIGHT_PX) / 2.0, EPS);
	assert_float_equal(il_plot_px_x(&ax, 10000), IL_PLOT_RIGHT_PX, EPS);
	assert_float_equal(il_plot_px_x(&ax, 10),
			   IL_PLOT_LEFT_PX + 0.25 * (IL_PLOT_RIGHT_PX - IL_PLOT_LEFT_PX), EPS);
	il_plot_free(p);

	p = one_series(xd, y, 2, true);
	assert_int_equal(il_plot_layout(p, &ax, NULL), 0);
	assert_float_equal(ax.xlo, 10, EPS);
	assert_float_equal(ax.xhi, 100, EPS);
	il_plot_free(p);

	p = one_series(x1, y, 1, true);
	assert_int_equal(il_plot_layout(p, &ax, NULL), 0);
	assert_float_equal(ax.xlo, 10, EPS);
	assert_float_equal(ax.xhi, 100, EPS);
	il_plot_free(p);
}

/* a scale spans every series, not just the first */
static void test_two_series_range(void **state)
{
	const double xa[] = { 1, 2 }, ya[] = { 1, 2 }, xb[] = { 0, 4 }, yb[] = { 3, 9 };
	struct il_plot *p = one_series(xa, ya, 2, false);
	struct il_plot_axes ax;
	(void)state;
	assert_int_equal(il_plot_add_series(p, "b", xb, yb, 2, NULL), 0);
	assert_int_equal(il_plot_layout(p, &ax, NULL), 0);
	assert_float_equal(ax.xlo, 0, EPS);
	assert_float_equal(ax.xhi, 4, EPS);
	assert_float_equal(ax.ystep, 2, EPS);   /* 9 / 5 = 1.8 -> 2 */
	assert_float_equal(ax.yhi, 10, EPS);
	il_plot_free(p);
}

static void test_refusals(void **state)
{
	const double x[] = { 0, 1 }, y[] = { 1, 2 }, bad[] = { 1, NAN };
	struct il_plot *p = il_plot_new("t", "x", "y");
	struct il_plot_axes ax;
	struct il_err err;
	(void)state;
	il_err_clear(&err);
	assert_int_equal(il_plot_layout(p, &ax, &err), -EINVAL);   /* no series */
	assert_non_null(strstr(err.msg, "no points"));
	assert_int_equal(il_plot_add_series(p, "empty", x, y, 0, &err), 0);
	assert_int_equal(il_plot_layout(p, &ax, &err), -EINVAL);   /* series without points */
	assert_int_equal(il_plot_add_series(p, "nan", x, bad, 2, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'nan': point 2"));
	assert_int_equal(il_plot_add_series(p, "s", x, y, 2, &err), 0);
	assert_int_equal(il_plot_layout(p, &ax, &err), 0);
	il_plot_set_log_x(p, true);                                 /* x = 0 on a log axis */
	assert_int_equal(il_plot_layout(p, &ax, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "log"));
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(il_plot_write_svg(p, f, &err), -EINVAL);
	assert_int_equal(ftell(f), 0);                              /* nothing written */
	fclose(f);
	il_plot_free(p);
}

static char *render(const struct il_plot *p)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(il_plot_write_svg(p, f, NULL), 0);
	long n = ftell(f);
	char *buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void test_svg(void **state)
{
	const double x[] = { 2, 10 }, y[] = { 0, 5 };
	struct il_plot *p = il_plot_new("a<b", "x & y", "\"q\"");
	(void)state;
	assert_int_equal(il_plot_add_series(p, "gov<1>&", x, y, 2, NULL), 0);
	char *a = render(p), *b = render(p);
	assert_string_equal(a, b);                                  /* deterministic */
	assert_non_null(strstr(a, "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" "
				  "points=\"90.00,420.00 660.00,50.00\"/>"));
	assert_non_null(strstr(a, ">gov&lt;1&gt;&amp;</text>"));    /* legend, escaped */
	assert_non_null(strstr(a, "<title>a&lt;b</title>"));
	assert_non_null(strstr(a, ">x &amp; y</text>"));
	assert_non_null(strstr(a, ">&quot;q&quot;</text>"));
	assert_non_null(strstr(a, "text-anchor=\"end\">5</text>")); /* top y tick */
	assert_null(strstr(a, "<b"));
	assert_int_equal(strncmp(a, "<?xml version=\"1.0\"", 19), 0);
	assert_non_null(strstr(a, "version=\"1.1\""));
	free(a);
	free(b);
	il_plot_free(p);
}

/* past the eight colours, series are dashed */
static void test_dashed(void **state)
{
	const double x[] = { 1, 2 }, y[] = { 1, 2 };
	struct il_plot *p = il_plot_new("t", "x", "y");
	(void)state;
	for (int i = 0; i < 9; i++)
		assert_int_equal(il_plot_add_series(p, "s", x, y, 2, NULL), 0);
	char *a = render(p);
	const char *d = strstr(a, "stroke-dasharray");
	assert_non_null(d);
	/* only the ninth: one polyline and its legend line */
	d = strstr(d + 1, "stroke-dasharray");
	assert_non_null(d);
	assert_null(strstr(d + 1, "stroke-dasharray"));
	free(a);
	il_plot_free(p);
}

/* a long legend name widens the canvas, not the plot area */
static void test_wide_legend(void **state)
{
	const double x[] = { 2, 10 }, y[] = { 0, 5 };
	char name[81];
	(void)state;
	struct il_plot *p = il_plot_new("t", "x", "y");
	assert_int_equal(il_plot_add_series(p, "short", x, y, 2, NULL), 0);
	char *a = render(p);
	assert_non_null(strstr(a, "width=\"900\" height="));
	free(a);
	il_plot_free(p);

	memset(name, 'n', 80);
	name[80] = '\0';
	p = il_plot_new("t", "x", "y");
	assert_int_equal(il_plot_add_series(p, name, x, y, 2, NULL), 0);
	a = render(p);
	/* legend text at 675 + 26, 7 px a character, 10 px margin: 701 + 560 + 10 */
	assert_non_null(strstr(a, "width=\"1271\" height="));
	assert_non_null(strstr(a, "points=\"90.00,420.00 660.00,50.00\""));
	free(a);
	il_plot_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_step),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_negative_y),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_log_x),
		cmocka_unit_test(test_two_series_range),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_wide_legend),
		cmocka_unit_test(test_dashed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
