// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab plot RUN.json...: one column of a grid metric (sleep-sweep's rows
 * "2us", "5us", ...) against the row's value, one curve per configuration,
 * as an SVG file. Where a curve says more than a table.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/plot.h"
#include "idlelab/results.h"

#define PLOT_MAX_CONFIGS 16
#define PLOT_MAX_POINTS 4096

static const char usage[] =
	"usage: idlelab plot --metric COL --output FILE.svg [--row-prefix TEXT] [--title T]\n"
	"                    [--log-x] RUN.json [RUN.json...]\n"
	"\n"
	"Draws column COL of the grid rows of results written by 'idlelab sim --format json'\n"
	"(sleep-sweep: above_pct, below_pct, lat_p50_us, ...), one curve per configuration:\n"
	"y is the mean over runs, x the row's sleep_us column when it has one, else the\n"
	"number the row name starts with (\"152us\" -> 152). --row-prefix keeps the rows\n"
	"whose name starts with TEXT and reads x after it (\"freq \" for \"freq 2000 MHz\").\n"
	"The output is SVG 1.1, the same bytes for the same input.\n";

struct plot_point {
	double x, y;
};

struct plot_curve {
	char label[160];
	char unit[16], xunit[16];
	bool x_from_sleep;
	size_t n;
	struct plot_point pt[PLOT_MAX_POINTS];
};

static int by_x(const void *a, const void *b)
{
	const struct plot_point *pa = a, *pb = b;
	return (pa->x > pb->x) - (pa->x < pb->x);
}

/* The points of one configuration; 0, or 1 after printing why not. */
static int read_curve(const char *path, int ci, const struct il_result_config *c,
		      const char *col, const char *prefix, struct plot_curve *cv, int number)
{
	size_t plen = strlen(prefix);
	/* "menu@6.18" already names its release */
	bool rel = c->kernel[0] && !strchr(c->governor, '@');

	snprintf(cv->label, sizeof(cv->label), "%d: %s%s%s (%s)", number, c->governor,
		 rel ? " k" : "", rel ? c->kernel : "", c->workload[0] ? c->workload : "?");
	for (int k = 0; k < c->nmetrics; k++) {
		const struct il_result_metric *m = &c->m[k], *sm;
		const char *row = m->row;
		double x, y;
		char *end;

		if (strcmp(m->col, col) || !row[0] || strncmp(row, prefix, plen))
			continue;
		y = il_result_mean(m);
		if (!m->n)
			return cli_error("%s: configuration %d, row '%s', column '%s': no values",
					 path, ci + 1, row, col);
		/* finite values whose sum overflows (1e308 twice) */
		if (!isfinite(y))
			return cli_error("%s: configuration %d, row '%s', column '%s': the mean of "
					 "its %d values is not a finite number", path, ci + 1, row,
					 col, m->n);
		sm = strcmp(col, "sleep_us") ? il_result_find(c, row, "sleep_us") : NULL;
		if (sm && isfinite(x = il_result_mean(sm))) {
			cv->x_from_sleep = true;
		} else {
			x = strtod(row + plen, &end);
			if (end == row + plen || !isfinite(x))
				continue; /* not a grid row: "state POLL", "wake latency" */
			while (*end == ' ')
				end++;
			if (!cv->xunit[0])
				snprintf(cv->xunit, sizeof(cv->xunit), "%s", end);
		}
		if (cv->n == PLOT_MAX_POINTS)
			return cli_error("%s: configuration %d: more than %d rows", path, ci + 1,
					 PLOT_MAX_POINTS);
		if (!cv->unit[0] && m->unit[0])
			snprintf(cv->unit, sizeof(cv->unit), "%s", m->unit);
		cv->pt[cv->n].x = x;
		cv->pt[cv->n].y = y;
		cv->n++;
	}
	if (!cv->n)
		return cli_error("%s: configuration %d (%s) has no grid row with column '%s'%s%s%s",
				 path, ci + 1, c->governor, col, plen ? " and a row name starting '" : "",
				 prefix, plen ? "'" : "");
	qsort(cv->pt, cv->n, sizeof(cv->pt[0]), by_x);
	return 0;
}

/* Read the configurations of one file into curves[*n...]; 0 or 1. */
static int read_file(const char *path, const char *col, const char *prefix,
		     struct plot_curve **curves, int *n)
{
	struct il_result_config cfg[PLOT_MAX_CONFIGS];
	struct il_err err;
	int ret = 0;
	int n0 = *n;
	int nc = il_results_load(path, cfg, n0, PLOT_MAX_CONFIGS, &err);

	if (nc < 0)
		return cli_report(&err);
	for (int i = 0; i < nc && !ret; i++) {
		curves[*n] = calloc(1, sizeof(struct plot_curve));
		if (!curves[*n]) {
			ret = cli_error("out of memory");
			break;
		}
		(*n)++;
		ret = read_curve(path, i, &cfg[n0 + i], col, prefix, curves[*n - 1], *n);
	}
	il_results_free(cfg + n0, nc);
	return ret;
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "row-prefix", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "log-x", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	const char *col = NULL, *prefix = "", *output = NULL, *title = NULL;
	bool log_x = false;
	struct plot_curve *curves[PLOT_MAX_CONFIGS] = { 0 };
	int ncurves = 0, c, ret = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'm': col = optarg; break;
		case 'p': prefix = optarg; break;
		case 'o': output = optarg; break;
		case 't': title = optarg; break;
		case 'l': log_x = true; break;
		case ':':
			return cli_usage_error("plot", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("plot", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!col)
		return cli_usage_error("plot", "give the column to plot with --metric COL");
	if (!output)
		return cli_usage_error("plot", "give the SVG file to write with --output FILE.svg");
	if (argc - optind < 1)
		return cli_usage_error("plot", "give at least one RUN.json");
	if ((ret = cli_name_given("plot", "--output", "file", output)))
		return ret;
	for (int i = optind; i < argc; i++)
		if ((ret = cli_name_given("plot", "RUN.json", "file", argv[i])) ||
		    (ret = cli_output_not_input("plot", "--output", output, argv[i])))
			return ret;
	for (int i = optind; i < argc && !ret; i++)
		ret = read_file(argv[i], col, prefix, curves, &ncurves);

	struct il_plot *p = NULL;
	struct il_err err;
	il_err_clear(&err);
	if (!ret) {
		char xl[80], yl[80], tl[200];
		const struct plot_curve *c0 = curves[0];
		int plen = (int)strlen(prefix);
		while (plen && prefix[plen - 1] == ' ')
			plen--; /* "freq " labels the axis "freq (MHz)" */
		if (c0->x_from_sleep)
			snprintf(xl, sizeof(xl), "sleep (us)%s", log_x ? ", log scale" : "");
		else
			snprintf(xl, sizeof(xl), "%.*s%s%s%s%s", plen ? plen : 3, plen ? prefix : "row",
				 c0->xunit[0] ? " (" : "", c0->xunit, c0->xunit[0] ? ")" : "",
				 log_x ? ", log scale" : "");
		snprintf(yl, sizeof(yl), "%s%s%s%s", col, c0->unit[0] ? " (" : "", c0->unit,
			 c0->unit[0] ? ")" : "");
		snprintf(tl, sizeof(tl), "idlelab: %s, mean over runs", col);
		p = il_plot_new(title ? title : tl, xl, yl);
		if (!p)
			ret = cli_error("out of memory");
	}
	if (p)
		il_plot_set_log_x(p, log_x);
	for (int i = 0; i < ncurves && !ret; i++) {
		double x[PLOT_MAX_POINTS], y[PLOT_MAX_POINTS];
		for (size_t k = 0; k < curves[i]->n; k++) {
			x[k] = curves[i]->pt[k].x;
			y[k] = curves[i]->pt[k].y;
		}
		if (il_plot_add_series(p, curves[i]->label, x, y, curves[i]->n, &err))
			ret = cli_report(&err);
	}
	if (!ret) {
		struct il_plot_axes ax;
		/* refuse before creating the file, so a bad plot leaves nothing behind */
		if (il_plot_layout(p, &ax, &err))
			ret = cli_report(&err);
	}
	if (!ret) {
		struct il_out out;
		if (il_out_open(&out, output, &err)) {
			ret = cli_report(&err);
		} else {
			struct il_err werr;
			bool ok = !il_plot_write_svg(p, out.f, &err);
			/* a failed write says what failed; else the plot's own error */
			if (il_out_close(&out, ok, &werr))
				ret = cli_report(&werr);
			else if (!ok)
				ret = cli_report(&err);
		}
	}
	il_plot_free(p);
	for (int i = 0; i < ncurves; i++)
		free(curves[i]);
	return ret;
}

const struct il_command cmd_plot = {
	.name = "plot",
	.summary = "draw a grid metric of simulation results as an SVG line plot",
	.usage = usage,
	.run = run,
};
