// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab compare RUN.json RUN.json ...: the metrics of several simulation
 * results (idlelab sim --format json) side by side, each configuration with
 * its % difference from the first, differences that are significant across
 * runs marked (Welch's t-test, two-sided, 95 %).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/report.h"
#include "idlelab/results.h"
#include "idlelab/stats.h"

#define CMP_MAX_CONFIGS 16

static const char usage[] =
	"usage: idlelab compare [--format table|csv|json] [--output FILE] [--metric TEXT]\n"
	"                       RUN.json RUN.json...\n"
	"\n"
	"Prints every metric of the first file's first configuration for each configuration\n"
	"in the files (as written by 'idlelab sim --format json'): its AMean over runs (Hmean\n"
	"for throughputs) and the % difference from the first configuration. A '*' marks a\n"
	"difference significant at the 95 % level (Welch's t-test over runs, needs 2+ runs\n"
	"on both sides). --metric keeps the metrics whose name contains TEXT.\n";

static double summary(const struct il_result_metric *m)
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
	enum il_format fmt = IL_FORMAT_TABLE;
	const char *output = NULL, *filter = NULL;
	struct il_result_config cfg[CMP_MAX_CONFIGS];
	char labels[CMP_MAX_CONFIGS][200];
	int ncfg = 0, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (il_format_parse(optarg, &fmt))
				return cli_usage_error("compare", "--format: '%s' is not table, csv or json",
						       optarg);
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
		struct il_err err;
		int n = il_results_load(argv[i], cfg, ncfg, CMP_MAX_CONFIGS, &err);
		if (n < 0) {
			il_results_free(cfg, ncfg);
			return cli_report(&err);
		}
		ncfg += n;
	}
	for (int k = 0; k < ncfg; k++)
		snprintf(labels[k], sizeof(labels[k]), "%d: %s%s%s (%s)", k + 1, cfg[k].governor,
			 cfg[k].kernel[0] ? " k" : "", cfg[k].kernel,
			 cfg[k].workload[0] ? cfg[k].workload : "?");
	if (ncfg < 1)
		return cli_error("compare: no configurations in the files");

	struct il_table *t = il_table_new("idlelab compare: AMean over runs (Hmean for throughputs), "
					  "% vs the first; * = significant at 95 % (Welch's t-test)");
	il_table_col(t, "metric");
	il_table_col(t, "unit");
	for (int k = 0; k < ncfg; k++) {
		il_table_col(t, labels[k]);
		if (k > 0) {
			char h[180];
			snprintf(h, sizeof(h), "%%diff %d", k + 1);
			il_table_col(t, h);
		}
	}
	const struct il_result_config *base = &cfg[0];
	for (int i = 0; i < base->nmetrics; i++) {
		const struct il_result_metric *m0 = &base->m[i];
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
			const struct il_result_metric *mk = il_result_find(&cfg[k], m0->row, m0->col);
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
	struct il_out out;
	struct il_err err;
	int ret = 0;
	if (il_out_open(&out, output, &err)) {
		ret = cli_report(&err);
	} else {
		il_table_print(t, fmt, out.f);
		if (fmt == IL_FORMAT_TABLE)
			fputs("\n* = the difference from the first configuration is significant at the 95 % "
			      "level\n    (Welch's unequal-variance t-test, two-sided, over the runs).\n",
			      out.f);
		if (il_out_close(&out, true, &err))
			ret = cli_report(&err);
	}
	il_table_free(t);
	il_results_free(cfg, ncfg);
	return ret;
}

const struct il_command cmd_compare = {
	.name = "compare",
	.summary = "compare simulation results (idlelab sim --format json) with significance",
	.usage = usage,
	.run = run,
};
