// SPDX-License-Identifier: GPL-2.0-only
/*
 * Line plots as hand-written SVG 1.1: one polyline per series, axes with
 * ticks and labels, a legend. Numbers are printed with fixed formats so the
 * same data gives the same bytes on every run and machine.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/plot.h"

/* About this many tick intervals per axis. */
#define PLOT_TICKS_X 6
#define PLOT_TICKS_Y 5
/* Slack for tick arithmetic: 0.3 / 0.1 must give 3, not 3.0000000000000004. */
#define PLOT_EPS 1e-9
#define PLOT_LEGEND_X_PX (IL_PLOT_RIGHT_PX + 15)
#define PLOT_LEGEND_LINE_PX 18

struct plot_series {
	char *name;
	double *x, *y;
	size_t n;
	enum il_plot_style style;
	size_t colour;             /* palette index */
};

struct il_plot {
	char *title, *xlabel, *ylabel;
	bool log_x;
	struct plot_series *s;
	size_t ns;
};

/* Distinguishable colours; past them the same colours come back dashed. */
static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
};
#define PLOT_NCOLOURS (sizeof(palette) / sizeof(palette[0]))

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

struct il_plot *il_plot_new(const char *title, const char *xlabel, const char *ylabel)
{
	struct il_plot *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->title = dup_or_empty(title);
	p->xlabel = dup_or_empty(xlabel);
	p->ylabel = dup_or_empty(ylabel);
	if (!p->title || !p->xlabel || !p->ylabel) {
		il_plot_free(p);
		return NULL;
	}
	return p;
}

void il_plot_free(struct il_plot *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ns; i++) {
		free(p->s[i].name);
		free(p->s[i].x);
		free(p->s[i].y);
	}
	free(p->s);
	free(p->title);
	free(p->xlabel);
	free(p->ylabel);
	free(p);
}

void il_plot_set_log_x(struct il_plot *p, bool log_x)
{
	p->log_x = log_x;
}

int il_plot_add_series(struct il_plot *p, const char *name, const double *x, const double *y,
		       size_t n, struct il_err *err)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]) || !isfinite(y[i]))
			return il_err_set(err, EINVAL, "series '%s': point %zu is not a finite number",
					  name ? name : "", i + 1);
	struct plot_series *ns = realloc(p->s, (p->ns + 1) * sizeof(*ns));
	if (!ns)
		return il_err_set(err, ENOMEM, "out of memory");
	p->s = ns;
	struct plot_series *s = &p->s[p->ns];
	memset(s, 0, sizeof(*s));
	s->name = dup_or_empty(name);
	s->x = malloc((n ? n : 1) * sizeof(double));
	s->y = malloc((n ? n : 1) * sizeof(double));
	if (!s->name || !s->x || !s->y) {
		free(s->name);
		free(s->x);
		free(s->y);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	if (n) {
		memcpy(s->x, x, n * sizeof(double));
		memcpy(s->y, y, n * sizeof(double));
	}
	s->n = n;
	s->colour = p->ns;
	p->ns++;
	return 0;
}

int il_plot_set_style(struct il_plot *p, enum il_plot_style style)
{
	if (!p->ns)
		return -EINVAL;
	p->s[p->ns - 1].style = style;
	return 0;
}

int il_plot_set_colour_of(struct il_plot *p, size_t k)
{
	if (!p->ns || k >= p->ns)
		return -EINVAL;
	p->s[p->ns - 1].colour = p->s[k].colour;
	return 0;
}

double il_plot_nice_step(double raw)
{
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;

	if (f <= 1 + PLOT_EPS)
		return mag;
	if (f <= 2 + PLOT_EPS)
		return 2 * mag;
	if (f <= 5 + PLOT_EPS)
		return 5 * mag;
	return 10 * mag;
}

int il_plot_layout(const struct il_plot *p, struct il_plot_axes *ax, struct il_err *err)
{
	double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
	size_t npoints = 0;

	for (size_t i = 0; i < p->ns; i++)
		for (size_t k = 0; k < p->s[i].n; k++) {
			double x = p->s[i].x[k], y = p->s[i].y[k];
			if (p->log_x && x <= 0)
				return il_err_set(err, EINVAL, "series '%s': x = %g cannot be on a log "
						  "axis", p->s[i].name, x);
			xmin = fmin(xmin, x);
			xmax = fmax(xmax, x);
			ymin = fmin(ymin, y);
			ymax = fmax(ymax, y);
			npoints++;
		}
	if (!npoints)
		return il_err_set(err, EINVAL, "nothing to plot: no points");

	memset(ax, 0, sizeof(*ax));
	ax->log_x = p->log_x;
	if (p->log_x) {
		/* whole decades, so every tick is a power of ten */
		ax->xlo = pow(10, floor(log10(xmin) + PLOT_EPS));
		ax->xhi = pow(10, ceil(log10(xmax) - PLOT_EPS));
		if (ax->xhi <= ax->xlo)
			ax->xhi = ax->xlo * 10;
	} else {
		ax->xlo = xmin;
		ax->xhi = xmax;
		if (ax->xhi == ax->xlo) {
			ax->xlo -= 1;
			ax->xhi += 1;
		}
	}
	/* y always includes 0: a curve's height reads as its size, not its offset */
	double lo = fmin(ymin, 0), hi = fmax(ymax, 0);
	if (hi == lo)
		hi = lo + 1;
	ax->ystep = il_plot_nice_step((hi - lo) / PLOT_TICKS_Y);
	ax->ylo = floor(lo / ax->ystep + PLOT_EPS) * ax->ystep;
	ax->yhi = ceil(hi / ax->ystep - PLOT_EPS) * ax->ystep;
	return 0;
}

double il_plot_px_x(const struct il_plot_axes *ax, double x)
{
	double f = ax->log_x ? (log10(x) - log10(ax->xlo)) / (log10(ax->xhi) - log10(ax->xlo))
			     : (x - ax->xlo) / (ax->xhi - ax->xlo);
	return IL_PLOT_LEFT_PX + f * (IL_PLOT_RIGHT_PX - IL_PLOT_LEFT_PX);
}

double il_plot_px_y(const struct il_plot_axes *ax, double y)
{
	double f = (y - ax->ylo) / (ax->yhi - ax->ylo);
	return IL_PLOT_BOTTOM_PX - f * (IL_PLOT_BOTTOM_PX - IL_PLOT_TOP_PX);
}

/* Text for XML character data and attribute values. */
static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			/* control characters are not allowed in XML 1.0 */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
				fputc('?', out);
			else
				fputc(*s, out);
		}
	}
}

/* A tick value without "-0" or 0.30000000000000004. */
static void tick_label(char *buf, size_t size, double v)
{
	if (fabs(v) < PLOT_EPS)
		v = 0;
	snprintf(buf, size, "%.6g", v);
}

static void x_tick(FILE *out, const struct il_plot_axes *ax, double v)
{
	char lbl[32];
	double px = il_plot_px_x(ax, v);

	tick_label(lbl, sizeof(lbl), v);
	fprintf(out, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#000\"/>\n",
		px, IL_PLOT_BOTTOM_PX, px, IL_PLOT_BOTTOM_PX + 5);
	fprintf(out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		px, IL_PLOT_BOTTOM_PX + 19, lbl);
}

static void axes_svg(const struct il_plot *p, const struct il_plot_axes *ax, FILE *out)
{
	char lbl[32];

	fputs("<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#000\">\n", out);
	/* horizontal grid and y ticks */
	long k0 = lround(ax->ylo / ax->ystep), k1 = lround(ax->yhi / ax->ystep);
	for (long k = k0; k <= k1; k++) {
		double v = k * ax->ystep, py = il_plot_px_y(ax, v);
		tick_label(lbl, sizeof(lbl), v);
		fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#ddd\"/>\n",
			IL_PLOT_LEFT_PX, py, IL_PLOT_RIGHT_PX, py);
		fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#000\"/>\n",
			IL_PLOT_LEFT_PX - 5, py, IL_PLOT_LEFT_PX, py);
		fprintf(out, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n",
			IL_PLOT_LEFT_PX - 8, py + 4, lbl);
	}
	if (ax->log_x) {
		long d0 = lround(log10(ax->xlo)), d1 = lround(log10(ax->xhi));
		for (long d = d0; d <= d1; d++)
			x_tick(out, ax, pow(10, (double)d));
	} else {
		double step = il_plot_nice_step((ax->xhi - ax->xlo) / PLOT_TICKS_X);
		long j0 = (long)ceil(ax->xlo / step - PLOT_EPS), j1 = (long)floor(ax->xhi / step + PLOT_EPS);
		for (long j = j0; j <= j1; j++)
			x_tick(out, ax, j * step);
	}
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		"stroke=\"#000\"/>\n", IL_PLOT_LEFT_PX, IL_PLOT_TOP_PX,
		IL_PLOT_RIGHT_PX - IL_PLOT_LEFT_PX, IL_PLOT_BOTTOM_PX - IL_PLOT_TOP_PX);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		(IL_PLOT_LEFT_PX + IL_PLOT_RIGHT_PX) / 2, IL_PLOT_BOTTOM_PX + 42);
	xml_text(out, p->xlabel);
	fputs("</text>\n", out);
	fprintf(out, "<text x=\"20\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\">",
		(IL_PLOT_TOP_PX + IL_PLOT_BOTTOM_PX) / 2, (IL_PLOT_TOP_PX + IL_PLOT_BOTTOM_PX) / 2);
	xml_text(out, p->ylabel);
	fputs("</text>\n", out);
	fprintf(out, "<text x=\"%d\" y=\"28\" text-anchor=\"middle\" font-size=\"15\">",
		IL_PLOT_WIDTH_PX / 2);
	xml_text(out, p->title);
	fputs("</text>\n</g>\n", out);
}

static void series_svg(const struct il_plot *p, const struct il_plot_axes *ax, FILE *out)
{
	for (size_t i = 0; i < p->ns; i++) {
		const struct plot_series *s = &p->s[i];
		const char *colour = palette[s->colour % PLOT_NCOLOURS];
		const char *dash = s->colour >= PLOT_NCOLOURS || s->style == IL_PLOT_DASHED
					   ? " stroke-dasharray=\"6,3\"" : "";
		bool points = s->style == IL_PLOT_POINTS;

		if (!points) {
			fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s "
				"points=\"", colour, dash);
			for (size_t k = 0; k < s->n; k++)
				fprintf(out, "%s%.2f,%.2f", k ? " " : "", il_plot_px_x(ax, s->x[k]),
					il_plot_px_y(ax, s->y[k]));
			fputs("\"/>\n", out);
		}
		/* a mark on each point: a lone point has no line to show it */
		for (size_t k = 0; k < s->n; k++)
			fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%s\" fill=\"%s\"/>\n",
				il_plot_px_x(ax, s->x[k]), il_plot_px_y(ax, s->y[k]), points ? "4" : "2",
				colour);
		int ly = IL_PLOT_TOP_PX + 10 + (int)i * PLOT_LEGEND_LINE_PX;
		if (points)
			fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/>\n",
				PLOT_LEGEND_X_PX + 10, ly, colour);
		else
			fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
				"stroke-width=\"1.5\"%s/>\n", PLOT_LEGEND_X_PX, ly, PLOT_LEGEND_X_PX + 20,
				ly, colour, dash);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-family=\"sans-serif\" font-size=\"11\">",
			PLOT_LEGEND_X_PX + 26, ly + 4);
		xml_text(out, s->name);
		fputs("</text>\n", out);
	}
}

/*
 * Canvas width: the standard width, or wider when the legend's longest name
 * would run past it (11 px sans-serif: about 7 px a character at most).
 */
static int canvas_width(const struct il_plot *p)
{
	size_t longest = 0;

	for (size_t i = 0; i < p->ns; i++) {
		size_t l = strlen(p->s[i].name);
		if (l > longest)
			longest = l;
	}
	int need = PLOT_LEGEND_X_PX + 26 + 7 * (int)longest + 10;
	return need > IL_PLOT_WIDTH_PX ? need : IL_PLOT_WIDTH_PX;
}

int il_plot_write_svg(const struct il_plot *p, FILE *out, struct il_err *err)
{
	struct il_plot_axes ax;
	int r = il_plot_layout(p, &ax, err);
	int width;

	if (r)
		return r;
	width = canvas_width(p);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
	      "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	      "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\">\n", width, IL_PLOT_HEIGHT_PX,
		width, IL_PLOT_HEIGHT_PX);
	fputs("<title>", out);
	xml_text(out, p->title);
	fputs("</title>\n", out);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width,
		IL_PLOT_HEIGHT_PX);
	axes_svg(p, &ax, out);
	series_svg(p, &ax, out);
	fputs("</svg>\n", out);
	if (ferror(out))
		return il_err_set(err, EIO, "cannot write the plot");
	return 0;
}
