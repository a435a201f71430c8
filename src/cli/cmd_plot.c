// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab plot RUN.json...: one column of a grid metric (sleep-sweep's rows
 * "2us", "5us", ...) against the row's value, one curve per configuration,
 * as an SVG file. Where a curve says more than a table.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/plot.h"

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

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* Mean of the numbers in values[]; false when there are none. */
static bool mean_of(struct json_object *metric, double *mean)
{
	struct json_object *vals;
	double sum = 0;
	size_t n = 0;

	if (!json_object_object_get_ex(metric, "values", &vals) ||
	    !json_object_is_type(vals, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(vals); i++) {
		struct json_object *v = json_object_array_get_idx(vals, i);
		if (v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))) {
			sum += json_object_get_double(v);
			n++;
		}
	}
	if (!n)
		return false;
	*mean = sum / n;
	return isfinite(*mean);
}

/* The metric of a configuration at (row, col), or NULL. */
static struct json_object *find_metric(struct json_object *metrics, const char *row, const char *col)
{
	for (size_t k = 0; k < json_object_array_length(metrics); k++) {
		struct json_object *m = json_object_array_get_idx(metrics, k);
		const char *r = jstr(m, "row"), *c = jstr(m, "col");
		if (r && c && !strcmp(r, row) && !strcmp(c, col))
			return m;
	}
	return NULL;
}

static int by_x(const void *a, const void *b)
{
	const struct plot_point *pa = a, *pb = b;
	return (pa->x > pb->x) - (pa->x < pb->x);
}

/* The points of one configuration; 0, or 1 after printing why not. */
static int read_curve(const char *path, size_t ci, struct json_object *c, const char *wl,
		      const char *col, const char *prefix, struct plot_curve *cv, int number)
{
	struct json_object *metrics;
	const char *gov = jstr(c, "governor"), *rel = jstr(c, "kernel");
	size_t plen = strlen(prefix);

	if (!gov || !json_object_object_get_ex(c, "metrics", &metrics) ||
	    !json_object_is_type(metrics, json_type_array))
		return cli_error("%s: configuration %zu has no governor or metrics", path, ci + 1);
	/* "menu@6.18" already names its release */
	if (strchr(gov, '@'))
		rel = NULL;
	snprintf(cv->label, sizeof(cv->label), "%d: %s%s%s (%s)", number, gov, rel ? " k" : "",
		 rel ? rel : "", wl ? wl : "?");
	for (size_t k = 0; k < json_object_array_length(metrics); k++) {
		struct json_object *m = json_object_array_get_idx(metrics, k), *sm;
		const char *row = jstr(m, "row"), *mcol = jstr(m, "col"), *unit = jstr(m, "unit");
		double x, y;
		char *end;

		if (!row || !mcol)
			return cli_error("%s: configuration %zu, metric %zu is malformed", path,
					 ci + 1, k + 1);
		if (strcmp(mcol, col) || !row[0] || strncmp(row, prefix, plen))
			continue;
		if (!mean_of(m, &y))
			return cli_error("%s: configuration %zu, row '%s', column '%s': no values",
					 path, ci + 1, row, col);
		sm = strcmp(col, "sleep_us") ? find_metric(metrics, row, "sleep_us") : NULL;
		if (sm && mean_of(sm, &x)) {
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
			return cli_error("%s: configuration %zu: more than %d rows", path, ci + 1,
					 PLOT_MAX_POINTS);
		if (!cv->unit[0] && unit)
			snprintf(cv->unit, sizeof(cv->unit), "%s", unit);
		cv->pt[cv->n].x = x;
		cv->pt[cv->n].y = y;
		cv->n++;
	}
	if (!cv->n)
		return cli_error("%s: configuration %zu (%s) has no grid row with column '%s'%s%s%s",
				 path, ci + 1, gov, col, plen ? " and a row name starting '" : "",
				 prefix, plen ? "'" : "");
	qsort(cv->pt, cv->n, sizeof(cv->pt[0]), by_x);
	return 0;
}

/* Read the configurations of one file into curves[*n...]; 0 or 1. */
static int read_file(const char *path, const char *col, const char *prefix,
		     struct plot_curve **curves, int *n)
{
	struct json_object *root = json_object_from_file(path), *configs;
	int ret = 0;

	if (!root)
		return cli_error("%s: cannot read it as JSON (%s)", path,
				 json_util_get_last_err() ? json_util_get_last_err() : "?");
	const char *kind = jstr(root, "idlelab");
	if (!kind || strcmp(kind, "sim") || !json_object_object_get_ex(root, "configs", &configs) ||
	    !json_object_is_type(configs, json_type_array)) {
		json_object_put(root);
		return cli_error("%s: not a result of 'idlelab sim --format json'", path);
	}
	const char *wl = jstr(root, "workload");
	for (size_t i = 0; i < json_object_array_length(configs) && !ret; i++) {
		if (*n == PLOT_MAX_CONFIGS) {
			ret = cli_error("%s: more than %d configurations in all", path, PLOT_MAX_CONFIGS);
			break;
		}
		curves[*n] = calloc(1, sizeof(struct plot_curve));
		if (!curves[*n]) {
			ret = cli_error("out of memory");
			break;
		}
		(*n)++;
		ret = read_curve(path, i, json_object_array_get_idx(configs, i), wl, col, prefix,
				 curves[*n - 1], *n);
	}
	json_object_put(root);
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
		struct cli_out out;
		if (cli_out_open(&out, output)) {
			ret = 1;
		} else {
			bool ok = !il_plot_write_svg(p, out.f, &err);
			if (!ok)
				cli_report(&err);
			if (cli_out_close(&out, ok) || !ok)
				ret = 1;
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
