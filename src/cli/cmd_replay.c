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
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/governor.h"
#include "idlelab/json.h"
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

/*
 * The per-row decisions, written directly as the log is replayed: logs
 * have millions of rows. Before, one row, after. JSON goes through w (its
 * document is begun by report_head); tidy CSV rows have the header that
 * report_head writes.
 */
static void decisions_begin(FILE *out, struct il_json *w, const struct il_replay_log *log,
			    enum il_format fmt)
{
	if (fmt == IL_FORMAT_JSON) {
		il_json_key(w, "decisions");
		il_json_array(w, IL_JSON_BLOCK);
	} else if (fmt == IL_FORMAT_TABLE) {
		int wr = digits(log->nrows ? log->nrows - 1 : 0), wc = digits((unsigned)log->ncpus);
		fprintf(out, "%-*s  %-*s  selected  stop_tick\n", wr < 3 ? 3 : wr, "row",
			wc < 3 ? 3 : wc, "cpu");
	}
}

static void decision_row(FILE *out, struct il_json *w, const struct il_replay_log *log,
			 enum il_format fmt, size_t i, int cpu, struct il_replay_decision d)
{
	if (fmt == IL_FORMAT_CSV) {
		fprintf(out, "decision,%zu,%d,,,selected,,%d\ndecision,%zu,%d,,,stop_tick,,%d\n", i,
			cpu, d.selected, i, cpu, d.stop_tick);
	} else if (fmt == IL_FORMAT_JSON) {
		il_json_object(w, IL_JSON_INLINE);
		il_json_kuint(w, "row", i);
		il_json_kint(w, "cpu", cpu);
		il_json_kint(w, "selected", d.selected);
		il_json_kint(w, "stop_tick", d.stop_tick);
		il_json_end(w);
	} else {
		int wr = digits(log->nrows ? log->nrows - 1 : 0), wc = digits((unsigned)log->ncpus);
		fprintf(out, "%*zu  %*d  %8d  %9d\n", wr < 3 ? 3 : wr, i, wc < 3 ? 3 : wc, cpu,
			d.selected, d.stop_tick);
	}
}

static void decisions_end(struct il_json *w, enum il_format fmt)
{
	if (fmt == IL_FORMAT_JSON)
		il_json_end(w);
}

static struct il_table *state_table(const struct il_replay_log *log,
				    const struct il_replay_engine *eng)
{
	struct il_table *t = il_table_new(NULL);
	static const char *const cols[] = { "cpu",   "state", "name",  "usage",
					    "time_ns", "above", "below", "rejected" };

	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	for (int cpu = 0; cpu < log->ncpus; cpu++) {
		if (!(log->cpu_seen[cpu / 64] & ((uint64_t)1 << (cpu % 64))))
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
	for (int cpu = 0; cpu < log->ncpus; cpu++) {
		if (!(log->cpu_seen[cpu / 64] & ((uint64_t)1 << (cpu % 64))))
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

/* What comes before the decisions; JSON begins its document in w. */
static void report_head(FILE *out, struct il_json *w, const struct replay_opts *o,
			const struct il_replay_log *log, const struct il_gov *gov)
{
	char desc[256] = "";

	il_gov_describe(gov, desc, sizeof(desc));
	if (o->fmt == IL_FORMAT_JSON) {
		il_json_init(w, out);
		il_json_object(w, IL_JSON_BLOCK);
		il_json_kstring(w, "log", o->log);
		il_json_kstring(w, "governor", gov->spec);
		il_json_kstring(w, "description", desc);
		il_json_kuint(w, "hz", log->hz);
		il_json_kuint(w, "rows", log->nrows);
		il_json_kint(w, "cpus", log->ncpus);
		if (o->expect)
			il_json_kstring(w, "expect", o->expect);
	} else if (o->fmt == IL_FORMAT_CSV) {
		fputs("group,row,cpu,state,name,metric,unit,value\n", out);
	} else {
		/* folded to the tables' width: a governor's description runs long */
		struct il_fold fd;
		FILE *f = il_fold_open(&fd);
		FILE *h = f ? f : out;
		fputs("log: ", h);
		il_text_fputs(o->log, h);
		fprintf(h, " (%zu rows, %d CPU%s, HZ=%u)\ngovernor: ", log->nrows, log->ncpus,
			log->ncpus == 1 ? "" : "s", log->hz);
		il_text_fputs(gov->spec, h);
		fputs(desc[0] ? " - " : "", h);
		il_text_fputs(desc, h);
		fputc('\n', h);
		if (f)
			il_fold_close(&fd, IL_TABLE_WIDTH, out);
		fputc('\n', out);
	}
}

/* What comes after them: the per-state counters and the agreement. */
static void report_tail(FILE *out, struct il_json *w, const struct replay_opts *o,
			const struct il_replay_log *log, const struct il_replay_engine *eng,
			const struct il_replay_agreement *ag)
{
	if (o->fmt == IL_FORMAT_CSV) {
		csv_states(out, log, eng);
		if (ag)
			csv_agreement(out, ag);
		return;
	}

	struct il_table *st = state_table(log, eng);
	struct il_table *at = ag ? agreement_table(ag) : NULL;

	if (o->fmt == IL_FORMAT_JSON) {
		il_json_key(w, "states");
		il_table_json(st, w);
		if (at) {
			il_json_key(w, "agreement");
			il_table_json(at, w);
		}
		il_json_end(w);
		il_json_finish(w);
	} else {
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

/*
 * One pass over the log's rows through the engine: each decision checked
 * against the decisions file (ck, may be NULL) and printed (out, may be
 * NULL). Returns 0, or 1 after printing the error. A governor returning no
 * valid state is reported before any disagreement with the decisions file.
 */
static int replay_pass(const struct replay_opts *o, struct il_replay_log *log,
		       struct il_replay_reader *rd, struct il_replay_engine *eng,
		       const struct il_gov *gov, struct il_replay_check *ck, FILE *out,
		       struct il_json *w)
{
	struct il_replay_row row;
	struct il_err err, cerr;
	bool cfail = false;
	size_t i = 0;
	int line, r;

	il_err_clear(&err);
	il_err_clear(&cerr);
	while ((r = il_replay_log_next(log, rd, &row, &line, &err)) > 0) {
		if (il_gov_watch)
			il_gov_watch->row = line;
		struct il_replay_decision d = il_replay_step(eng, &row);

		if (d.selected < 0)
			return cli_error("%s:%d: governor %s returned an invalid state index", o->log,
					 line, gov->spec);
		if (ck && !cfail && il_replay_check_row(ck, i, row.cpu, d, &cerr))
			cfail = true;
		if (out)
			decision_row(out, w, log, o->fmt, i, row.cpu, d);
		i++;
	}
	if (r < 0)
		return cli_report(&err);
	if (ck && !cfail && il_replay_check_end(ck, log->nrows, &cerr))
		cfail = true;
	return cfail ? cli_report(&cerr) : 0;
}

/*
 * The log is read in passes, so that memory does not grow with it: one to
 * check it and count its rows and CPUs (the governor and the devices are
 * sized by them), one to replay it and check the decisions file, and,
 * only once all of that passed, one to replay it again while the decisions
 * are printed. Nothing is printed for a log or decisions file refused at
 * any line.
 */
static int replay(const struct replay_opts *o)
{
	struct il_replay_reader rd, erd;
	struct il_replay_log log;
	struct il_replay_expect_stream es;
	struct il_replay_check ck;
	struct il_replay_engine eng;
	struct il_gov *gov = NULL;
	struct il_err err;
	struct il_out out;
	struct il_json w;
	int rc = 1;

	memset(&w, 0, sizeof(w));
	memset(&rd, 0, sizeof(rd));
	memset(&erd, 0, sizeof(erd));
	memset(&log, 0, sizeof(log));
	memset(&eng, 0, sizeof(eng));
	il_err_clear(&err);
	if (il_replay_reader_open(&rd, o->log, &err) || il_replay_log_open(&log, &rd, &err)) {
		rc = cli_report(&err);
		goto done;
	}
	if (o->expect) {
		if (il_replay_reader_open(&erd, o->expect, &err) ||
		    il_replay_expect_open(&es, &erd, &err)) {
			rc = cli_report(&err);
			goto done;
		}
		if (o->strict && es.n == 0) {
			/* nothing compared must not pass as "no decision differs" */
			rc = cli_error("%s: no decisions to compare (--strict needs at least one row)",
				       o->expect);
			goto done;
		}
		/* an expected state must be one of the log's table: bad input at its line */
		struct il_replay_expect_entry e;
		int n;
		while ((n = il_replay_expect_next(&es, &e, &err)) > 0)
			if (e.d.selected >= log.drv.state_count) {
				il_err_set_at(&err, EINVAL, o->expect, e.line,
					      "selected %d: the log's table has %d states (0..%d)",
					      e.d.selected, log.drv.state_count,
					      log.drv.state_count - 1);
				n = -1;
				break;
			}
		if (n < 0 || il_replay_expect_rewind(&es, &err)) {
			rc = cli_report(&err);
			goto done;
		}
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
	if (o->expect && il_replay_check_begin(&ck, &es, &err)) {
		rc = cli_report(&err);
		goto done;
	}
	if (replay_pass(o, &log, &rd, &eng, gov, o->expect ? &ck : NULL, NULL, NULL))
		goto done;
	if (il_out_open(&out, o->output, &err)) {
		rc = cli_report(&err);
		goto done;
	}
	report_head(out.f, &w, o, &log, gov);
	if (!o->quiet) {
		struct il_err werr;

		il_replay_engine_reset(&eng);
		if (il_replay_log_rewind(&log, &rd, &err)) {
			cli_report(&err);
			il_out_close(&out, false, &werr);
			goto done;
		}
		decisions_begin(out.f, &w, &log, o->fmt);
		if (replay_pass(o, &log, &rd, &eng, gov, NULL, out.f, &w)) {
			il_out_close(&out, false, &werr);
			goto done;
		}
		decisions_end(&w, o->fmt);
		if (o->fmt == IL_FORMAT_TABLE)
			fputc('\n', out.f);
	}
	report_tail(out.f, &w, o, &log, &eng, o->expect ? &ck.ag : NULL);
	rc = il_out_close(&out, true, &err) ? cli_report(&err) : 0;
	if (rc == 0 && o->strict && o->expect && ck.ag.differs)
		rc = 3;
done:
	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_reader_close(&erd);
	il_replay_reader_close(&rd);
	il_replay_log_free(&log);
	return rc;
}

static int replay_child(void *arg)
{
	return replay(arg);
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
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":g:e:f:o:qs", opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			if ((r = cli_option_once("replay", "--governor", &o.governor, NULL, optarg,
						 "replay decides with one governor")))
				return r;
			break;
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
	/* comparing nothing must not pass, as with a decisions file of no rows */
	if (o.strict && !o.expect)
		return cli_usage_error("replay", "--strict needs --expect FILE (there is nothing to "
				       "compare)");
	/* a bad spec is bad usage (parameters the log sets are checked with the log) */
	struct il_err err;
	struct il_gov *g = il_gov_new(o.governor, 1, &err);
	if (!g)
		return cli_usage_error("replay", "--governor %s: %s", o.governor, err.msg);
	bool loaded = il_gov_is_loaded(g);
	il_gov_free(g);
	if (optind >= argc)
		return cli_usage_error("replay", "missing replay log");
	if (optind + 1 < argc)
		return cli_usage_error("replay", "unexpected argument '%s'", argv[optind + 1]);
	o.log = argv[optind];
	if ((r = cli_name_given("replay", "LOG", "file", o.log)) ||
	    (r = cli_name_given("replay", "--output", "file", o.output)) ||
	    (r = cli_name_given("replay", "--expect", "file", o.expect)) ||
	    (r = cli_output_not_input("replay", "--output", o.output, o.log)) ||
	    (r = cli_output_not_input("replay", "--output", o.output, o.expect)))
		return r;
	/* a loaded governor runs in a child: its crash or loop is reported with the row */
	return loaded ? cli_contained(o.governor, o.log, replay_child, &o) : replay(&o);
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
		"  -s, --strict         with --expect: exit 3 if any decision differs (a\n"
		"                       decisions file with no rows is refused)\n"
		"  -o, --output FILE    write to FILE (created only when complete)\n\n"
		"Exit status: 0 done, 1 bad input (message names file and line), 2 bad usage,\n"
		"3 decisions differ from --expect (with --strict).\n",
	.run = run,
};
