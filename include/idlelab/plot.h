/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Line plots as SVG 1.1, written by hand (no dependency).
 *
 * A plot holds series of (x, y) points, a title and axis labels. The axes
 * are laid out from the data (y from 0, or below when negative, to a "nice"
 * round value; x from the smallest to the largest x, or from decade to decade
 * with log-x). Output depends only on the input: no dates, no random ids.
 */
#ifndef IDLELAB_PLOT_H
#define IDLELAB_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "idlelab/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Geometry of the picture and of the plot area inside it, in px. */
#define IL_PLOT_WIDTH_PX 900
#define IL_PLOT_HEIGHT_PX 480
#define IL_PLOT_LEFT_PX 90
#define IL_PLOT_RIGHT_PX 660
#define IL_PLOT_TOP_PX 50
#define IL_PLOT_BOTTOM_PX 420

struct il_plot;

/* The data ranges the axes span, as il_plot_layout() chose them. */
struct il_plot_axes {
	double xlo, xhi, ylo, yhi;
	double ystep;       /* y tick spacing */
	bool log_x;
};

struct il_plot *il_plot_new(const char *title, const char *xlabel, const char *ylabel);
void il_plot_free(struct il_plot *p);
void il_plot_set_log_x(struct il_plot *p, bool log_x);
/*
 * Add a series (x and y are copied; points are drawn in the given order).
 * Refuses non-finite values: returns -EINVAL (or -ENOMEM) with err filled.
 */
int il_plot_add_series(struct il_plot *p, const char *name, const double *x, const double *y,
		       size_t n, struct il_err *err);

/*
 * How the last series added is drawn: a line through its points (the
 * default), a dashed line, or points alone (values that are not a curve,
 * such as one value per run). Returns -EINVAL when there is no series.
 */
enum il_plot_style { IL_PLOT_LINE = 0, IL_PLOT_DASHED, IL_PLOT_POINTS };
int il_plot_set_style(struct il_plot *p, enum il_plot_style style);
/* Draw the last series added in the colour of series k (0-based; a pair such as published/simulated). */
int il_plot_set_colour_of(struct il_plot *p, size_t k);

/*
 * The smallest of 1, 2, 5 times a power of ten that is >= raw (raw > 0);
 * the tick spacing for about raw per tick.
 */
double il_plot_nice_step(double raw);
/* Choose the axes; -EINVAL when there are no points or log-x meets x <= 0. */
int il_plot_layout(const struct il_plot *p, struct il_plot_axes *ax, struct il_err *err);
/* Data to px inside the plot area (y grows downwards in SVG). */
double il_plot_px_x(const struct il_plot_axes *ax, double x);
double il_plot_px_y(const struct il_plot_axes *ax, double y);

/* Write the SVG document; 0, or a negative code with err filled. */
int il_plot_write_svg(const struct il_plot *p, FILE *out, struct il_err *err);

#ifdef __cplusplus
}
#endif

#endif
