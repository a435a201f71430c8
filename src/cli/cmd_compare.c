// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab compare RUN.json RUN.json ...: the metrics of several simulation
 * results (idlelab sim --format json) side by side, each configuration with
 * its % difference from the first, differences that are significant across
 * runs marked (Welch's t-test, two-sided, 95 %).
 */
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/report.h"
#include "idlelab/sim.h"

#define CMP_MAX_CONFIGS 16

struct cmp_metric {
	char row[40], col[40], unit[12];
	enum il_better better;
	bool throughput;
	int n;
	double *values;
};

struct cmp_config {
	char label[160];
	int nmetrics;
	struct cmp_metric *m;
};

static const char usage[] =
	"usage: idlelab compare [--format table|csv|json] [--output FILE] [--metric TEXT]\n"
	"                       RUN.json RUN.json...\n"
	"\n"
	"Prints every metric of the first file's first configuration for each configuration\n"
	"in the files (as written by 'idlelab sim --format json'): its AMean over runs (Hmean\n"
	"for throughputs) and the % difference from the first configuration. A '*' marks a\n"
	"difference significant at the 95 % level (Welch's t-test over runs, needs 2+ runs\n"
	"on both sides). --metric keeps the metrics whose name contains TEXT.\n";

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static void free_configs(struct cmp_config *cfg, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < cfg[i].nmetrics; k++)
			free(cfg[i].m[k].values);
		free(cfg[i].m);
	}
}

/*
 * Read the configurations of one parsed file (root is consumed); returns the
 * number added or -1. Split from read_file() for the fuzz target.
 */
static int read_root(const char *path, struct json_object *root, struct cmp_config *out, int room)
{
	struct json_object *configs;
	int added = 0;

	const char *kind = jstr(root, "idlelab");
	if (!kind || strcmp(kind, "sim") ||
	    !json_object_object_get_ex(root, "configs", &configs) ||
	    !json_object_is_type(configs, json_type_array)) {
		json_object_put(root);
		return cli_error("%s: not a result of 'idlelab sim --format json'", path), -1;
	}
	const char *wl = jstr(root, "workload");
	size_t nc = json_object_array_length(configs);
	for (size_t i = 0; i < nc; i++) {
		struct json_object *c = json_object_array_get_idx(configs, i), *metrics;
		if (added == room) {
			json_object_put(root);
			return cli_error("%s: more than %d configurations in all", path, CMP_MAX_CONFIGS), -1;
		}
		const char *gov = jstr(c, "governor");
		const char *rel = jstr(c, "kernel");
		if (!gov || !json_object_object_get_ex(c, "metrics", &metrics) ||
		    !json_object_is_type(metrics, json_type_array)) {
			json_object_put(root);
			return cli_error("%s: configuration %zu has no governor or metrics", path, i + 1), -1;
		}
		struct cmp_config *cf = &out[added];
		snprintf(cf->label, sizeof(cf->label), "%d: %s%s%s (%s)", CMP_MAX_CONFIGS - room + added + 1,
			 gov, rel ? " k" : "", rel ? rel : "", wl ? wl : "?");
		size_t nm = json_object_array_length(metrics);
		cf->m = calloc(nm ? nm : 1, sizeof(*cf->m));
		if (!cf->m) {
			json_object_put(root);
			return cli_error("out of memory"), -1;
		}
		added++;
		for (size_t k = 0; k < nm; k++) {
			struct json_object *mo = json_object_array_get_idx(metrics, k), *vals;
			struct cmp_metric *m = &cf->m[cf->nmetrics];
			const char *row = jstr(mo, "row"), *col = jstr(mo, "col"), *unit = jstr(mo, "unit");
			const char *better = jstr(mo, "better");
			struct json_object *tp;
			if (!row || !col || !json_object_object_get_ex(mo, "values", &vals) ||
			    !json_object_is_type(vals, json_type_array)) {
				json_object_put(root);
				return cli_error("%s: configuration %zu, metric %zu is malformed", path,
						 i + 1, k + 1), -1;
			}
			snprintf(m->row, sizeof(m->row), "%s", row);
			snprintf(m->col, sizeof(m->col), "%s", col);
			snprintf(m->unit, sizeof(m->unit), "%s", unit ? unit : "");
			m->better = better && !strcmp(better, "lower") ? IL_BETTER_LOWER
				  : better && !strcmp(better, "higher") ? IL_BETTER_HIGHER : IL_BETTER_NONE;
			m->throughput = json_object_object_get_ex(mo, "throughput", &tp) &&
					json_object_get_boolean(tp);
			size_t nv = json_object_array_length(vals);
			m->values = calloc(nv ? nv : 1, sizeof(double));
			if (!m->values) {
				json_object_put(root);
				return cli_error("out of memory"), -1;
			}
			for (size_t v = 0; v < nv; v++) {
				struct json_object *x = json_object_array_get_idx(vals, v);
				if (x && (json_object_is_type(x, json_type_double) ||
					  json_object_is_type(x, json_type_int)))
					m->values[m->n++] = json_object_get_double(x);
			}
			cf->nmetrics++;
		}
	}
	json_object_put(root);
	return added;
}

/* Read the configurations of one file; returns the number added or -1. */
static int read_file(const char *path, struct cmp_config *out, int room)
{
	struct json_object *root = json_object_from_file(path);

	if (!root)
		return cli_error("%s: cannot read it as JSON (%s)", path, json_util_get_last_err()
								       ? json_util_get_last_err() : "?"), -1;
	return read_root(path, root, out, room);
}

static const struct cmp_metric *find_metric(const struct cmp_config *c, const struct cmp_metric *m)
{
	for (int i = 0; i < c->nmetrics; i++)
		if (!strcmp(c->m[i].row, m->row) && !strcmp(c->m[i].col, m->col))
			return &c->m[i];
	return NULL;
}

static double summary(const struct cmp_metric *m)
{
	struct il_stats st;
	il_stats_compute(m->values, m->n, &st);
	return m->throughput && st.hmean > 0 ? st.hmean : st.amean;
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "metric", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	enum il_format fmt = IL_FMT_TABLE;
	const char *output = NULL, *filter = NULL;
	struct cmp_config cfg[CMP_MAX_CONFIGS];
	int ncfg = 0, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (il_format_parse(optarg, &fmt))
				return cli_error("compare: --format: '%s' is not table, csv or json", optarg);
			break;
		case 'o': output = optarg; break;
		case 'm': filter = optarg; break;
		case ':':
			return cli_usage_error("compare", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("compare", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind < 1)
		return cli_usage_error("compare", "give at least one RUN.json");
	memset(cfg, 0, sizeof(cfg));
	for (int i = optind; i < argc; i++) {
		int n = read_file(argv[i], cfg + ncfg, CMP_MAX_CONFIGS - ncfg);
		if (n < 0) {
			free_configs(cfg, CMP_MAX_CONFIGS); /* zeroed: frees what the failed read added */
			return 1;
		}
		ncfg += n;
	}
	if (ncfg < 1)
		return cli_error("compare: no configurations in the files");

	struct il_table *t = il_table_new("idlelab compare: AMean over runs (Hmean for throughputs), "
					  "% vs the first; * = significant at 95 % (Welch's t-test)");
	il_table_col(t, "metric");
	il_table_col(t, "unit");
	for (int k = 0; k < ncfg; k++) {
		il_table_col(t, cfg[k].label);
		if (k > 0) {
			char h[180];
			snprintf(h, sizeof(h), "%%diff %d", k + 1);
			il_table_col(t, h);
		}
	}
	const struct cmp_config *base = &cfg[0];
	for (int i = 0; i < base->nmetrics; i++) {
		const struct cmp_metric *m0 = &base->m[i];
		char label[100];
		if (m0->row[0])
			snprintf(label, sizeof(label), "%s/%s", m0->row, m0->col);
		else
			snprintf(label, sizeof(label), "%s", m0->col);
		if (filter && !strstr(label, filter))
			continue;
		double v0 = summary(m0);
		il_table_row(t);
		il_table_str(t, label);
		il_table_str(t, m0->unit);
		il_table_dbl(t, v0, fabs(v0) >= 1000 ? 1 : 3);
		for (int k = 1; k < ncfg; k++) {
			const struct cmp_metric *mk = find_metric(&cfg[k], m0);
			if (!mk) {
				il_table_na(t);
				il_table_na(t);
				continue;
			}
			double vk = summary(mk), tt, df;
			il_table_dbl(t, vk, fabs(vk) >= 1000 ? 1 : 3);
			bool sig = il_welch_significant(m0->values, m0->n, mk->values, mk->n, &tt, &df);
			if (v0 == 0 && vk == 0)
				il_table_strf(t, "0.00%%%s", sig ? " *" : "");
			else if (v0 == 0)
				il_table_strf(t, "n/a%s", sig ? " *" : "");
			else
				il_table_strf(t, "%+.2f%%%s", 100 * (vk - v0) / fabs(v0), sig ? " *" : "");
		}
	}
	struct cli_out out;
	int ret = 0;
	if (cli_out_open(&out, output)) {
		ret = 1;
	} else {
		il_table_print(t, fmt, out.f);
		if (fmt == IL_FMT_TABLE)
			fputs("\n* = the difference from the first configuration is significant at the 95 % "
			      "level\n    (Welch's unequal-variance t-test, two-sided, over the runs).\n",
			      out.f);
		if (cli_out_close(&out, true))
			ret = 1;
	}
	il_table_free(t);
	free_configs(cfg, ncfg);
	return ret;
}

const struct il_command cmd_compare = {
	.name = "compare",
	.summary = "compare simulation results (idlelab sim --format json) with significance",
	.usage = usage,
	.run = run,
};
