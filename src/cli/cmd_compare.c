// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab compare RUN.json RUN.json ...: the metrics of several simulation
 * results (idlelab sim --format json) side by side, each configuration with
 * its % difference from the first, differences that are significant across
 * runs marked (Welch's t-test, two-sided, 95 %) and "no variance" said
 * where both sides gave the same value in every run (docs/compare.md).
 *
 * The table names platform, kernel, governor and workload once, in a
 * legend, and keys the columns by the configuration's number; it shows
 * every metric of every configuration, in the order the files give them.
 * CSV is tidy (one row per configuration and metric, dimension columns,
 * numbers as numbers) and JSON gives the numbers (mean, stddev, n, diff %,
 * t, df, p).
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/json.h"
#include "idlelab/report.h"
#include "idlelab/results.h"
#include "idlelab/results_keys.h"
#include "idlelab/stats.h"
#include "util.h"

#define CMP_MAX_CONFIGS 16

static const char usage[] =
	"usage: idlelab compare [--format table|csv|json] [--output FILE] [--metric TEXT]\n"
	"                       RUN.json RUN.json...\n"
	"\n"
	"Prints every metric of the configurations in the files (as written by 'idlelab sim\n"
	"--format json', at most 16 in all): its mean over runs (harmonic mean for\n"
	"throughputs) and the % difference from the first configuration. A legend names each\n"
	"configuration's platform, kernel, governor and workload; columns are keyed by its\n"
	"number. '*' marks a difference significant at the 95 % level (Welch's t-test over\n"
	"runs, needs 2+ runs on both sides); 'nv' says there is no variance: every run gave\n"
	"the same value on both sides. --metric keeps the metrics whose name (ROW/COL)\n"
	"contains TEXT. CSV has one row per configuration and metric; JSON the numbers\n"
	"(mean, stddev, n, diff_pct, t, df, p_value).\n";

/* A metric of the union of all configurations' metrics. */
struct key {
	const char *row, *col, *unit;
	enum il_better better;
	bool throughput;
	/* each configuration's metric of this name (its first), or NULL */
	const struct il_result_metric *m[CMP_MAX_CONFIGS];
};

struct compare {
	struct il_result_config cfg[CMP_MAX_CONFIGS];
	int ncfg;
	struct key *keys;
	int nkeys;
	bool many_files;
};

static uint64_t key_hash(const char *row, const char *col)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 over "row\0col" */

	for (const char *p = row;; p++) {
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
		if (!*p)
			break;
	}
	for (const char *p = col; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return h;
}

/*
 * The metrics of every configuration, each once: the first configuration's
 * in its order, and a metric only later ones have right after the metric
 * that precedes it there (ladder's "freq 2700 MHz" after "freq 2600 MHz"
 * when menu, first, never left 2600 MHz). Names are found through a hash
 * table and the order kept as a list, so a file of many metrics takes
 * linear time (a search and an insertion into an array per metric made
 * 60000 metrics take minutes).
 */
static int build_keys(struct compare *c)
{
	size_t total = 0, nslots = 64, n = 0;
	struct key *k = NULL;
	int *slot = NULL, *next = NULL, head = -1, r = -1;

	for (int i = 0; i < c->ncfg; i++)
		total += (size_t)c->cfg[i].nmetrics;
	while (nslots < 2 * total)
		nslots *= 2;
	k = calloc(total + 1, sizeof(*k));
	next = malloc((total + 1) * sizeof(*next));
	slot = malloc(nslots * sizeof(*slot));
	if (!k || !next || !slot)
		goto out;
	for (size_t i = 0; i < nslots; i++)
		slot[i] = -1;
	for (int ci = 0; ci < c->ncfg; ci++) {
		int prev = -1;
		for (int j = 0; j < c->cfg[ci].nmetrics; j++) {
			const struct il_result_metric *m = &c->cfg[ci].m[j];
			size_t h = (size_t)key_hash(m->row, m->col) & (nslots - 1);
			int pos;

			while ((pos = slot[h]) >= 0 &&
			       (strcmp(k[pos].row, m->row) || strcmp(k[pos].col, m->col)))
				h = (h + 1) & (nslots - 1);
			if (pos < 0) {
				pos = (int)n++;
				slot[h] = pos;
				k[pos] = (struct key){ m->row, m->col, m->unit, m->better,
						       m->throughput, { NULL } };
				/* right after the previous metric of this configuration */
				if (prev < 0) {
					next[pos] = head;
					head = pos;
				} else {
					next[pos] = next[prev];
					next[prev] = pos;
				}
			}
			if (!k[pos].m[ci])
				k[pos].m[ci] = m;
			prev = pos;
		}
	}
	c->keys = malloc((n + 1) * sizeof(*c->keys));
	if (!c->keys)
		goto out;
	c->nkeys = 0;
	for (int i = head; i >= 0; i = next[i])
		c->keys[c->nkeys++] = k[i];
	r = 0;
out:
	free(k);
	free(next);
	free(slot);
	return r;
}

static void label(const struct key *k, char *buf, size_t size)
{
	if (k->row[0])
		snprintf(buf, size, "%s/%s", k->row, k->col);
	else
		snprintf(buf, size, "%s", k->col);
}

/* ---- text ---- */

/* Columns a UTF-8 string takes (continuation bytes take none). */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void fmt_value(char *buf, size_t size, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, size, "n/a");
	else if (a >= 1e15) /* its digits would not fit a column: 1e+308, inf */
		snprintf(buf, size, "%.6g", v);
	else
		snprintf(buf, size, "%.*f", a >= 1e5 ? 0 : a >= 1000 ? 1 : 3, v);
}

static void fmt_diff(char *buf, size_t size, const struct il_result_diff *d)
{
	double a = fabs(d->diff_pct);
	const char *mark = d->sig == IL_SIG_SIGNIFICANT ? " *" : d->sig == IL_SIG_NO_VARIANCE ? " nv" : "";

	if (isnan(d->diff_pct))
		snprintf(buf, size, "n/a%s", mark);
	else if (a >= 1e9)
		snprintf(buf, size, "%+.3g%%%s", d->diff_pct, mark);
	else
		snprintf(buf, size, "%+.*f%%%s", a >= 1000 ? 0 : a >= 100 ? 1 : 2, d->diff_pct, mark);
}

/*
 * A configuration's legend line, "%3d  TEXT", folded at spaces to
 * IL_TABLE_WIDTH with the folded part under TEXT (one that names its
 * platform, kernel, workload options and file passed column 100).
 */
static void legend_line(FILE *out, int num, const char *text)
{
	int col = fprintf(out, "%3d  ", num);
	const int indent = col;
	bool first = true;

	while (*text) {
		size_t sp = strspn(text, " ");
		size_t len = strcspn(text + sp, " ");
		if (!len)
			break;
		char word[1200];
		snprintf(word, sizeof(word), "%.*s", (int)len, text + sp);
		int ww = width(word);
		int gap = first ? 0 : (int)sp;
		if (!first && col + gap + ww > IL_TABLE_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			gap = 0;
		}
		fprintf(out, "%*s%s", gap, "", word);
		col += gap + ww;
		first = false;
		text += sp + len;
	}
	fputc('\n', out);
}

/* The legend: what all configurations share on one line, then each one's own. */
static void legend(FILE *out, const struct compare *c)
{
	const struct il_result_config *a = &c->cfg[0];
	bool same_plat = true, same_kern = true, same_wl = true, same_runs = true;
	char s1[300], s2[300], line[1200];
	size_t n = 0;

	for (int k = 1; k < c->ncfg; k++) {
		const struct il_result_config *b = &c->cfg[k];
		same_plat &= !strcmp(a->platform, b->platform);
		same_kern &= !strcmp(a->kernel, b->kernel);
		same_wl &= !strcmp(a->workload, b->workload) &&
			   !strcmp(a->workload_options, b->workload_options);
		same_runs &= a->runs == b->runs;
	}
	line[0] = '\0';
#define ADD(...) (n += (size_t)snprintf(line + n, n < sizeof(line) ? sizeof(line) - n : 0, __VA_ARGS__))
	if (same_plat && a->platform[0]) {
		il_text_esc(a->platform, s1, sizeof(s1));
		ADD("platform %s", s1);
	}
	if (same_kern && a->kernel[0]) {
		il_text_esc(a->kernel, s1, sizeof(s1));
		ADD("%skernel %s", n ? ", " : "", s1);
	}
	if (same_wl && a->workload[0]) {
		il_text_esc(a->workload, s1, sizeof(s1));
		il_text_esc(a->workload_options, s2, sizeof(s2));
		ADD("%sworkload %s%s%s", n ? ", " : "", s1, s2[0] ? " " : "", s2);
	}
	if (same_runs && a->runs)
		ADD("%s%d run%s each", n ? ", " : "", a->runs, a->runs == 1 ? "" : "s");
	if (n)
		il_text_fold(line, IL_TABLE_WIDTH, out);
	for (int k = 0; k < c->ncfg; k++) {
		const struct il_result_config *b = &c->cfg[k];
		n = 0;
		line[0] = '\0';
		il_text_esc(b->governor, s1, sizeof(s1));
		ADD("%s", s1);
		if (!same_plat) {
			il_text_esc(b->platform[0] ? b->platform : "?", s1, sizeof(s1));
			ADD(", platform %s", s1);
		}
		if (!same_kern) {
			il_text_esc(b->kernel[0] ? b->kernel : "?", s1, sizeof(s1));
			ADD(", kernel %s", s1);
		}
		if (!same_wl) {
			il_text_esc(b->workload[0] ? b->workload : "?", s1, sizeof(s1));
			il_text_esc(b->workload_options, s2, sizeof(s2));
			ADD(", workload %s%s%s", s1, s2[0] ? " " : "", s2);
		}
		if (!same_runs)
			ADD(", %d run%s", b->runs, b->runs == 1 ? "" : "s");
		if (c->many_files) {
			il_text_esc(b->file, s1, sizeof(s1));
			ADD(" (%s #%d)", s1, b->index);
		}
		legend_line(out, k + 1, line);
	}
#undef ADD
}

/* One row of text cells: the metric, then value and diff per configuration. */
struct text_row {
	char *cell[1 + 2 * CMP_MAX_CONFIGS];
	bool group;             /* a row name alone, over the metrics below it */
};

/* The metric, the first configuration and configurations [from, to). */
static void print_slice(FILE *out, const struct text_row *rows, int nrows, const int *w, int from,
			int to)
{
	fprintf(out, "%-*s  %*d", w[0], "metric", w[1], 1);
	for (int j = from; j < to; j++)
		fprintf(out, "  %*d  %*s", w[2 * j], j + 1, w[2 * j + 1], "diff");
	fputc('\n', out);
	for (int r = 0; r < nrows; r++) {
		if (rows[r].group) {
			fprintf(out, "%s\n", rows[r].cell[0]);
			continue;
		}
		/* the metric left-aligned, the numbers right-aligned */
		int pad = w[0] - width(rows[r].cell[0]);
		fputs(rows[r].cell[0], out);
		for (int i = 1; i < 2 * to; i = i == 1 ? 2 * from : i + 1) {
			const char *s = rows[r].cell[i] ? rows[r].cell[i] : "";
			pad += 2 + w[i] - width(s);
			fprintf(out, "%*s%s", pad, "", s);
			pad = 0;
		}
		fputc('\n', out);
	}
}

static void print_table(FILE *out, const struct compare *c, const bool *shown)
{
	int ncols = 2 * c->ncfg; /* metric, value 1, (value k, diff k)... */
	struct text_row *rows = il_xcalloc((size_t)c->nkeys * 2 + 1, sizeof(*rows));
	int nrows = 0, w[1 + 2 * CMP_MAX_CONFIGS] = { 0 };
	const char *group = NULL;
	char buf[240], name[200];

	for (int i = 0; i < c->nkeys; i++) {
		const struct key *k = &c->keys[i];
		if (!shown[i])
			continue;
		if (k->row[0] && (!group || strcmp(group, k->row))) {
			il_text_esc(k->row, name, sizeof(name));
			rows[nrows].group = true;
			rows[nrows++].cell[0] = il_xstrdup(name);
		}
		group = k->row;
		struct text_row *r = &rows[nrows++];
		il_text_esc(k->col, name, sizeof(name));
		snprintf(buf, sizeof(buf), "%s%s", k->row[0] ? "  " : "", name);
		r->cell[0] = il_xstrdup(buf);
		const struct il_result_metric *m0 = k->m[0];
		for (int j = 0; j < c->ncfg; j++) {
			const struct il_result_metric *mj = k->m[j];
			struct il_result_diff d;
			int col = j == 0 ? 1 : 2 * j;
			if (!mj) {
				r->cell[col] = il_xstrdup("-");
				if (j)
					r->cell[col + 1] = il_xstrdup("");
				continue;
			}
			fmt_value(buf, sizeof(buf), il_result_summary(mj));
			r->cell[col] = il_xstrdup(buf);
			if (!j)
				continue;
			if (m0) {
				il_result_diff(m0, mj, &d);
				fmt_diff(buf, sizeof(buf), &d);
			} else {
				snprintf(buf, sizeof(buf), "n/a");
			}
			r->cell[col + 1] = il_xstrdup(buf);
		}
	}
	/* widths: the header, then the cells (a group name stands alone) */
	w[0] = 6; /* "metric" */
	for (int j = 0; j < c->ncfg; j++) {
		snprintf(buf, sizeof(buf), "%d", j + 1);
		w[j == 0 ? 1 : 2 * j] = width(buf);
		if (j)
			w[2 * j + 1] = 4; /* "diff" */
	}
	for (int r = 0; r < nrows; r++)
		for (int i = 0; i < ncols && !rows[r].group; i++)
			if (rows[r].cell[i] && width(rows[r].cell[i]) > w[i])
				w[i] = width(rows[r].cell[i]);
	/*
	 * Wider than IL_TABLE_WIDTH: slices of the configurations after the
	 * first (each unit its value and diff columns), each with the metric
	 * and the first's column, cut as il_table_print() cuts its columns.
	 */
	size_t unit[CMP_MAX_CONFIGS];
	int ends[CMP_MAX_CONFIGS];
	for (int j = 1; j < c->ncfg; j++)
		unit[j - 1] = (size_t)(w[2 * j] + 2 + w[2 * j + 1]);
	int nslices = il_text_slices(unit, c->ncfg - 1, (size_t)(w[0] + 2 + w[1] + 2), 2,
				     IL_TABLE_WIDTH, ends);
	for (int k = 0, from = 1; k < nslices; from = 1 + ends[k++]) {
		if (k)
			fputc('\n', out);
		print_slice(out, rows, nrows, w, from, 1 + ends[k]);
	}
	for (int r = 0; r < nrows; r++)
		for (int i = 0; i < ncols; i++)
			free(rows[r].cell[i]);
	free(rows);
}

/* ---- CSV and JSON ---- */

static const char *sig_name(enum il_result_sig s)
{
	switch (s) {
	case IL_SIG_SIGNIFICANT: return "significant";
	case IL_SIG_NOT_SIGNIFICANT: return "not significant";
	case IL_SIG_NO_VARIANCE: return "no variance";
	default: return "not tested";
	}
}

static void csv_num(struct il_table *t, double v)
{
	if (isfinite(v))
		il_table_strf(t, "%.17g", v);
	else
		il_table_na(t);
}

static void print_csv(FILE *out, const struct compare *c, const bool *shown)
{
	static const char *const cols[] = {
		"config", "file",    "platform", "kernel", "governor", "workload", "workload_options",
		"runs",   "row",     "metric",   "unit",   "summary",  "n",        "mean",
		"stddev", "diff_pct", "t",       "df",     "p_value",  "significance",
	};
	struct il_table *t = il_table_new(NULL);

	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	for (int i = 0; i < c->nkeys; i++) {
		const struct key *k = &c->keys[i];
		const struct il_result_metric *m0 = k->m[0];
		if (!shown[i])
			continue;
		for (int j = 0; j < c->ncfg; j++) {
			const struct il_result_config *cf = &c->cfg[j];
			const struct il_result_metric *mj = k->m[j];
			struct il_stats st;
			struct il_result_diff d;
			if (!mj)
				continue;
			il_table_row(t);
			il_table_i64(t, j + 1);
			il_table_str(t, cf->file);
			il_table_str(t, cf->platform);
			il_table_str(t, cf->kernel);
			il_table_str(t, cf->governor);
			il_table_str(t, cf->workload);
			il_table_str(t, cf->workload_options);
			il_table_i64(t, cf->runs);
			il_table_str(t, mj->row);
			il_table_str(t, mj->col);
			il_table_str(t, mj->unit);
			il_table_str(t, mj->throughput ? "hmean" : "amean");
			il_table_i64(t, mj->n);
			il_stats_compute(mj->values, mj->n, &st);
			csv_num(t, il_result_summary(mj));
			csv_num(t, mj->n > 1 ? st.stddev : NAN);
			if (j && m0) {
				il_result_diff(m0, mj, &d);
				csv_num(t, d.diff_pct);
				csv_num(t, d.t);
				csv_num(t, d.df);
				csv_num(t, d.p);
				il_table_str(t, sig_name(d.sig));
			} else {
				for (int x = 0; x < 5; x++)
					il_table_na(t);
			}
		}
	}
	il_table_print(t, IL_FORMAT_CSV, out);
	il_table_free(t);
}

/* The numbers through the one JSON writer: a value that is not finite is null. */
static int print_json(FILE *out, const struct compare *c, const bool *shown, char **warnings,
		      int nwarn)
{
	struct il_json w;

	il_json_init(&w, out);
	il_json_object(&w, IL_JSON_BLOCK);
	il_json_kstring(&w, "idlelab", "compare");
	il_json_kstring(&w, "summary", "mean over runs: amean, or hmean for throughputs");
	il_json_kstring(&w, "test", "Welch's unequal-variance t-test, two-sided, against config 1;"
			" significant when p_value < 0.05");
	il_json_key(&w, "configs");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int j = 0; j < c->ncfg; j++) {
		const struct il_result_config *cf = &c->cfg[j];
		il_json_object(&w, IL_JSON_INLINE);
		il_json_kint(&w, "config", j + 1);
		il_json_kstring(&w, "file", cf->file);
		il_json_kint(&w, "index", cf->index);
		il_json_kstring(&w, "platform", cf->platform);
		il_json_kstring(&w, "kernel", cf->kernel);
		il_json_kstring(&w, "governor", cf->governor);
		il_json_kstring(&w, "workload", cf->workload);
		il_json_kstring(&w, "workload_options", cf->workload_options);
		il_json_kint(&w, "runs", cf->runs);
		il_json_end(&w);
	}
	il_json_end(&w);
	il_json_key(&w, "warnings");
	il_json_array(&w, IL_JSON_INLINE);
	for (int i = 0; i < nwarn; i++)
		il_json_string(&w, warnings[i]);
	il_json_end(&w);
	il_json_key(&w, "metrics");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int i = 0; i < c->nkeys; i++) {
		const struct key *k = &c->keys[i];
		const struct il_result_metric *m0 = k->m[0];
		if (!shown[i])
			continue;
		il_json_object(&w, IL_JSON_INLINE);
		il_json_kstring(&w, "row", k->row);
		il_json_kstring(&w, "metric", k->col);
		il_json_kstring(&w, "unit", k->unit);
		il_json_kstring(&w, "better", il_results_better_name(k->better));
		il_json_kstring(&w, "summary", k->throughput ? "hmean" : "amean");
		il_json_key(&w, "configs");
		il_json_array(&w, IL_JSON_BLOCK);
		for (int j = 0; j < c->ncfg; j++) {
			const struct il_result_metric *mj = k->m[j];
			struct il_stats st;
			struct il_result_diff d;
			if (!mj)
				continue; /* not in this configuration */
			il_stats_compute(mj->values, mj->n, &st);
			il_json_object(&w, IL_JSON_INLINE);
			il_json_kint(&w, "config", j + 1);
			il_json_kint(&w, "n", mj->n);
			il_json_kdouble(&w, "mean", il_result_summary(mj));
			il_json_kdouble(&w, "stddev", mj->n > 1 ? st.stddev : NAN);
			if (j && m0) {
				il_result_diff(m0, mj, &d);
				il_json_kdouble(&w, "diff_pct", d.diff_pct);
				il_json_kdouble(&w, "t", d.t);
				il_json_kdouble(&w, "df", d.df);
				il_json_kdouble(&w, "p_value", d.p);
				il_json_kstring(&w, "significance", sig_name(d.sig));
			}
			il_json_end(&w);
		}
		il_json_end(&w);
		il_json_end(&w);
	}
	il_json_end(&w);
	il_json_end(&w);
	return il_json_finish(&w);
}

/* ---- the command ---- */

/* Different workloads (or options) measure different things: say so. */
static int workload_warnings(const struct compare *c, char **warnings)
{
	char buf[1200], s1[300], s2[300];
	size_t n = 0;
	bool names = false, opts = false;

	for (int k = 1; k < c->ncfg; k++) {
		names |= strcmp(c->cfg[k].workload, c->cfg[0].workload) != 0;
		opts |= strcmp(c->cfg[k].workload_options, c->cfg[0].workload_options) != 0;
	}
	if (!names && !opts)
		return 0;
	il_text_esc(c->cfg[0].workload[0] ? c->cfg[0].workload : "?", s1, sizeof(s1));
	if (names)
		n = (size_t)snprintf(buf, sizeof(buf), "the configurations ran different workloads (");
	else
		n = (size_t)snprintf(buf, sizeof(buf), "the configurations ran %s with different"
				     " options (", s1);
	for (int k = 0; k < c->ncfg && n < sizeof(buf); k++) {
		il_text_esc(c->cfg[k].workload[0] ? c->cfg[k].workload : "?", s1, sizeof(s1));
		il_text_esc(c->cfg[k].workload_options, s2, sizeof(s2));
		if (names)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d: %s%s%s", k ? ", " : "",
					      k + 1, s1, s2[0] ? " " : "", s2);
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d: %s", k ? ", " : "",
					      k + 1, s2[0] ? s2 : "defaults");
	}
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, "): %s",
			 names ? "their metrics measure different things"
			       : "part of each difference is the workload's");
	warnings[0] = il_xstrdup(buf);
	return 1;
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
	struct compare c;
	char *warnings[1];
	int nwarn = 0, ret = 0, opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (opt) {
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
	if (cli_name_given("compare", "--output", "file", output))
		return 2;
	for (int i = optind; i < argc; i++) {
		int r = cli_name_given("compare", "RUN.json", "file", argv[i]);
		if (r || (r = cli_output_not_input("compare", "--output", output, argv[i])))
			return r;
	}
	memset(&c, 0, sizeof(c));
	for (int i = optind; i < argc; i++) {
		struct il_err err;
		int n = il_results_load(argv[i], c.cfg, c.ncfg, CMP_MAX_CONFIGS, &err);
		if (n < 0) {
			il_results_free(c.cfg, c.ncfg);
			return cli_report(&err);
		}
		c.ncfg += n;
	}
	c.many_files = argc - optind > 1;
	if (c.ncfg < 1)
		return cli_error("compare: no configurations in the files");
	if (build_keys(&c)) {
		il_results_free(c.cfg, c.ncfg);
		return cli_error("out of memory");
	}
	bool *shown = il_xcalloc((size_t)c.nkeys + 1, sizeof(*shown));
	int nshown = 0;
	for (int i = 0; i < c.nkeys; i++) {
		char name[100];
		label(&c.keys[i], name, sizeof(name));
		shown[i] = !filter || strstr(name, filter);
		nshown += shown[i];
	}
	if (filter && !nshown) {
		/* an empty table would read as "nothing differs" */
		free(shown);
		il_results_free(c.cfg, c.ncfg);
		free(c.keys);
		return cli_usage_error("compare", "--metric: no metric's name contains '%s'", filter);
	}
	nwarn = workload_warnings(&c, warnings);
	for (int i = 0; i < nwarn; i++)
		fprintf(stderr, "idlelab: compare: warning: %s\n", warnings[i]);

	struct il_out out;
	struct il_err err;
	if (il_out_open(&out, output, &err)) {
		ret = cli_report(&err);
	} else {
		int pr = 0;
		if (fmt == IL_FORMAT_JSON) {
			pr = print_json(out.f, &c, shown, warnings, nwarn);
		} else if (fmt == IL_FORMAT_CSV) {
			print_csv(out.f, &c, shown);
		} else {
			fputs("idlelab compare: mean over runs (harmonic mean for throughputs), "
			      "difference from 1\n", out.f);
			legend(out.f, &c);
			fputc('\n', out.f);
			print_table(out.f, &c, shown);
			fputs("\n*  the difference from 1 is significant at the 95 % level (Welch's t-test,\n"
			      "   two-sided, over the runs; p < 0.05)\n"
			      "nv no variance: every run gave the same value on both sides, nothing to test\n"
			      "-  not in that configuration; n/a: no value\n", out.f);
		}
		if (il_out_close(&out, pr == 0, &err))
			ret = cli_report(&err);
		else if (pr)
			ret = cli_error("compare: the output was not written: %s", strerror(-pr));
	}
	for (int i = 0; i < nwarn; i++)
		free(warnings[i]);
	free(shown);
	free(c.keys);
	il_results_free(c.cfg, c.ncfg);
	return ret;
}

const struct il_command cmd_compare = {
	.name = "compare",
	.summary = "compare simulation results (idlelab sim --format json) with significance",
	.usage = usage,
	.run = run,
};
