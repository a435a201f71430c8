// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab replay --governor SPEC [--expect FILE] [--format F] [--quiet] [--strict]
 *                [--output FILE] LOG
 *
 * Re-decides a replay log (docs/replay.md) with a governor and prints each
 * decision and the per-CPU, per-state counters the core would show in sysfs,
 * plus the agreement with a decisions file. Everything is computed before
 * the output is opened, so a bad input never leaves a partial file.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/governor.h"
#include "idlelab/replay.h"
#include "idlelab/report.h"

struct replay_opts {
	const char *governor;
	const char *expect;
	const char *output;
	const char *log;
	enum il_format fmt;
	bool quiet;
	bool strict;           /* exit 3 when a decision differs from --expect */
};

static int digits(unsigned long long v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* The per-row decisions, written directly: logs have millions of rows. */
static void print_decisions(FILE *out, const struct il_replay_log *log,
			    const struct il_replay_decision *d, enum il_format fmt)
{
	if (fmt == IL_FORMAT_CSV) {
		/* tidy: the header is print_report's */
		for (size_t i = 0; i < log->nrows; i++)
			fprintf(out, "decision,%zu,%d,,,selected,,%d\ndecision,%zu,%d,,,stop_tick,,%d\n",
				i, log->rows[i].cpu, d[i].selected, i, log->rows[i].cpu,
				d[i].stop_tick);
		return;
	}
	int wr = digits(log->nrows ? log->nrows - 1 : 0), wc = digits((unsigned)log->ncpus);
	if (wr < 3)
		wr = 3;
	if (wc < 3)
		wc = 3;
	fprintf(out, "%-*s  %-*s  selected  stop_tick\n", wr, "row", wc, "cpu");
	for (size_t i = 0; i < log->nrows; i++)
		fprintf(out, "%*zu  %*d  %8d  %9d\n", wr, i, wc, log->rows[i].cpu,
			d[i].selected, d[i].stop_tick);
}

static void json_decisions(struct il_json *w, const struct il_replay_log *log,
			   const struct il_replay_decision *d)
{
	il_json_key(w, "decisions");
	il_json_array(w, IL_JSON_BLOCK);
	for (size_t i = 0; i < log->nrows; i++) {
		il_json_object(w, IL_JSON_INLINE);
		il_json_kuint(w, "row", i);
		il_json_kint(w, "cpu", log->rows[i].cpu);
		il_json_kint(w, "selected", d[i].selected);
		il_json_kint(w, "stop_tick", d[i].stop_tick);
		il_json_end(w);
	}
	il_json_end(w);
}

static struct il_table *state_table(const struct il_replay_log *log,
				    const struct il_replay_engine *eng)
{
	struct il_table *t = il_table_new(NULL);
	static const char *const cols[] = { "cpu",   "state", "name",  "usage",
					    "time_ns", "above", "below", "rejected" };
	bool *seen = calloc((size_t)(log->ncpus ? log->ncpus : 1), sizeof(*seen));

	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	if (!seen)
		return t;
	for (size_t i = 0; i < log->nrows; i++)
		seen[log->rows[i].cpu] = true;
	for (int cpu = 0; cpu < log->ncpus; cpu++) {
		if (!seen[cpu])
			continue;
		for (int s = 0; s < log->drv.state_count; s++) {
			const struct il_state_usage *u = &eng->devs[cpu].states_usage[s];
			il_table_row(t);
			il_table_i64(t, cpu);
			il_table_i64(t, s);
			il_table_str(t, log->drv.states[s].name);
			il_table_u64(t, u->usage);
			il_table_u64(t, u->time_ns);
			il_table_u64(t, u->above);
			il_table_u64(t, u->below);
			il_table_u64(t, u->rejected);
		}
	}
	free(seen);
	return t;
}

static struct il_table *agreement_table(const struct il_replay_agreement *ag)
{
	struct il_table *t = il_table_new(NULL);
	static const char *const cols[] = {
		"rows_compared",     "rows_equal",     "first_differing_row", "expected_selected",
		"expected_stop_tick", "got_selected", "got_stop_tick",
	};

	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	il_table_row(t);
	il_table_u64(t, ag->compared);
	il_table_u64(t, ag->equal);
	if (ag->differs) {
		il_table_u64(t, ag->first_row);
		il_table_i64(t, ag->first_expected.selected);
		il_table_i64(t, ag->first_expected.stop_tick);
		il_table_i64(t, ag->first_got.selected);
		il_table_i64(t, ag->first_got.stop_tick);
	} else {
		for (int i = 0; i < 5; i++)
			il_table_na(t);
	}
	return t;
}

/*
 * Tidy CSV: one header, one number per row with its dimensions. The
 * decisions (group "decision", metrics selected and stop_tick), the
 * counters per CPU and state (group "state") and the agreement with
 * --expect (group "agreement"; values of what did not happen are empty).
 */
static void csv_states(FILE *out, const struct il_replay_log *log,
		       const struct il_replay_engine *eng)
{
	static const char *const m[] = { "usage", "time_ns", "above", "below", "rejected" };
	bool *seen = calloc((size_t)(log->ncpus ? log->ncpus : 1), sizeof(*seen));

	if (!seen)
		return;
	for (size_t i = 0; i < log->nrows; i++)
		seen[log->rows[i].cpu] = true;
	for (int cpu = 0; cpu < log->ncpus; cpu++) {
		if (!seen[cpu])
			continue;
		for (int s = 0; s < log->drv.state_count; s++) {
			const struct il_state_usage *u = &eng->devs[cpu].states_usage[s];
			const unsigned long long v[] = { u->usage, u->time_ns, u->above, u->below,
							 u->rejected };
			for (int k = 0; k < 5; k++) {
				fprintf(out, "state,,%d,%d,", cpu, s);
				il_csv_field(log->drv.states[s].name, out);
				fprintf(out, ",%s,%s,%llu\n", m[k], k == 1 ? "ns" : "", v[k]);
			}
		}
	}
	free(seen);
}

static void csv_agreement(FILE *out, const struct il_replay_agreement *ag)
{
	fprintf(out, "agreement,,,,,rows_compared,,%zu\nagreement,,,,,rows_equal,,%zu\n",
		ag->compared, ag->equal);
	if (ag->differs)
		fprintf(out, "agreement,,,,,first_differing_row,,%llu\n"
			"agreement,,,,,expected_selected,,%d\nagreement,,,,,expected_stop_tick,,%d\n"
			"agreement,,,,,got_selected,,%d\nagreement,,,,,got_stop_tick,,%d\n",
			(unsigned long long)ag->first_row, ag->first_expected.selected,
			ag->first_expected.stop_tick, ag->first_got.selected, ag->first_got.stop_tick);
	else
		fputs("agreement,,,,,first_differing_row,,\nagreement,,,,,expected_selected,,\n"
		      "agreement,,,,,expected_stop_tick,,\nagreement,,,,,got_selected,,\n"
		      "agreement,,,,,got_stop_tick,,\n", out);
}

static void print_report(FILE *out, const struct replay_opts *o, const struct il_replay_log *log,
			 const struct il_gov *gov, const struct il_replay_engine *eng,
			 const struct il_replay_decision *d, const struct il_replay_agreement *ag)
{
	char desc[256] = "";
	struct il_table *st = state_table(log, eng);
	struct il_table *at = ag ? agreement_table(ag) : NULL;

	il_gov_describe(gov, desc, sizeof(desc));
	if (o->fmt == IL_FORMAT_JSON) {
		struct il_json w;
		il_json_init(&w, out);
		il_json_object(&w, IL_JSON_BLOCK);
		il_json_kstring(&w, "log", o->log);
		il_json_kstring(&w, "governor", gov->spec);
		il_json_kstring(&w, "description", desc);
		il_json_kuint(&w, "hz", log->hz);
		il_json_kuint(&w, "rows", log->nrows);
		il_json_kint(&w, "cpus", log->ncpus);
		if (o->expect)
			il_json_kstring(&w, "expect", o->expect);
		if (!o->quiet)
			json_decisions(&w, log, d);
		il_json_key(&w, "states");
		il_table_json(st, &w);
		if (at) {
			il_json_key(&w, "agreement");
			il_table_json(at, &w);
		}
		il_json_end(&w);
		il_json_finish(&w);
	} else if (o->fmt == IL_FORMAT_CSV) {
		fputs("group,row,cpu,state,name,metric,unit,value\n", out);
		if (!o->quiet)
			print_decisions(out, log, d, o->fmt);
		csv_states(out, log, eng);
		if (ag)
			csv_agreement(out, ag);
	} else {
		fprintf(out, "log: %s (%zu rows, %d CPU%s, HZ=%u)\n", o->log, log->nrows,
			log->ncpus, log->ncpus == 1 ? "" : "s", log->hz);
		fprintf(out, "governor: %s%s%s\n\n", gov->spec, desc[0] ? " - " : "", desc);
		if (!o->quiet) {
			print_decisions(out, log, d, o->fmt);
			fputc('\n', out);
		}
		il_table_print(st, IL_FORMAT_TABLE, out);
		if (at) {
			fprintf(out, "\nexpect: %s\n", o->expect);
			fprintf(out, "rows compared: %zu\nrows equal: %zu\n", ag->compared, ag->equal);
			if (ag->differs)
				fprintf(out,
					"first differing row: %llu (expected %d,%d, got %d,%d)\n",
					(unsigned long long)ag->first_row, ag->first_expected.selected,
					ag->first_expected.stop_tick, ag->first_got.selected,
					ag->first_got.stop_tick);
			else
				fputs("first differing row: none\n", out);
		}
	}
	il_table_free(st);
	il_table_free(at);
}

static int replay(const struct replay_opts *o)
{
	struct il_replay_log log;
	struct il_replay_expect ex;
	struct il_replay_engine eng;
	struct il_replay_agreement ag;
	struct il_replay_decision *d = NULL;
	struct il_gov *gov = NULL;
	struct il_err err;
	struct il_out out;
	int rc = 1;

	memset(&ex, 0, sizeof(ex));
	memset(&eng, 0, sizeof(eng));
	il_err_clear(&err);
	if (il_replay_log_load(&log, o->log, &err))
		return cli_report(&err);
	if (o->expect && il_replay_expect_load(&ex, o->expect, &err)) {
		rc = cli_report(&err);
		goto done;
	}
	gov = il_gov_new(o->governor, log.ncpus > 0 ? log.ncpus : 1, &err);
	if (!gov) {
		rc = cli_report(&err);
		goto done;
	}
	if (il_replay_engine_init(&eng, &log, gov, &err)) {
		rc = cli_report(&err);
		goto done;
	}
	d = malloc((log.nrows ? log.nrows : 1) * sizeof(*d));
	if (!d) {
		rc = cli_error("out of memory");
		goto done;
	}
	for (size_t i = 0; i < log.nrows; i++)
		d[i] = il_replay_step(&eng, &log.rows[i]);
	for (size_t i = 0; i < log.nrows; i++)
		if (d[i].selected < 0) {
			rc = cli_error("%s:%d: governor %s returned an invalid state index",
				       o->log, log.row_line[i], gov->spec);
			goto done;
		}
	if (o->expect && il_replay_compare(&log, d, &ex, &ag, &err)) {
		rc = cli_report(&err);
		goto done;
	}
	if (il_out_open(&out, o->output, &err)) {
		rc = cli_report(&err);
		goto done;
	}
	print_report(out.f, o, &log, gov, &eng, d, o->expect ? &ag : NULL);
	rc = il_out_close(&out, true, &err) ? cli_report(&err) : 0;
	if (rc == 0 && o->strict && o->expect && ag.differs)
		rc = 3;
done:
	free(d);
	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_expect_free(&ex);
	il_replay_log_free(&log);
	return rc;
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "governor", required_argument, NULL, 'g' },
		{ "expect", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "strict", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct replay_opts o = { .fmt = IL_FORMAT_TABLE };
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":g:e:f:o:qs", opts, NULL)) != -1) {
		switch (c) {
		case 'g': o.governor = optarg; break;
		case 'e': o.expect = optarg; break;
		case 'o': o.output = optarg; break;
		case 'q': o.quiet = true; break;
		case 's': o.strict = true; break;
		case 'f':
			if (il_format_parse(optarg, &o.fmt))
				return cli_usage_error("replay", "unknown format '%s'", optarg);
			break;
		case ':':
			return cli_usage_error("replay", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("replay", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!o.governor)
		return cli_usage_error("replay", "--governor SPEC is required");
	/* a bad spec is bad usage (parameters the log sets are checked with the log) */
	struct il_err err;
	struct il_gov *g = il_gov_new(o.governor, 1, &err);
	if (!g)
		return cli_usage_error("replay", "--governor %s: %s", o.governor, err.msg);
	il_gov_free(g);
	if (optind >= argc)
		return cli_usage_error("replay", "missing replay log");
	if (optind + 1 < argc)
		return cli_usage_error("replay", "unexpected argument '%s'", argv[optind + 1]);
	o.log = argv[optind];
	return replay(&o);
}

const struct il_command cmd_replay = {
	.name = "replay",
	.summary = "re-decide a recorded replay log with a governor",
	.usage =
		"usage: idlelab replay --governor SPEC [--expect FILE] [--format table|csv|json]\n"
		"                      [--quiet] [--strict] [--output FILE] LOG\n\n"
		"Feeds every row of a replay log (docs/replay.md) through the governor's\n"
		"select, the cpuidle core's accounting and reflect, one device per CPU, and\n"
		"prints for every row the selected state and stop_tick, then per CPU and\n"
		"state: usage, time_ns, above, below, rejected.\n\n"
		"  -g, --governor SPEC  NAME[@RELEASE][+PATCH[=VALUE]]..., e.g. menu@6.12\n"
		"  -e, --expect FILE    decisions file (row,selected,stop_tick): report rows\n"
		"                       compared, rows equal and the first differing row\n"
		"  -f, --format F       table (default), csv or json\n"
		"  -q, --quiet          summary only, no per-row decisions\n"
		"  -s, --strict         with --expect: exit 3 if any decision differs\n"
		"  -o, --output FILE    write to FILE (created only when complete)\n\n"
		"Exit status: 0 done, 1 bad input (message names file and line), 2 bad usage,\n"
		"3 decisions differ from --expect (with --strict).\n",
	.run = run,
};
