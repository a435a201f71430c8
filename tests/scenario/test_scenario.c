// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenarios (src/scenario/): the file parser and its refusals (FILE:LINE),
 * expressions and checks evaluated on hand-made results, the report's
 * contents from known inputs, platform overrides and scaled estimates, and
 * every built-in scenario prepared (platforms, workloads, governors) without
 * running.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/scenario.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

/* A small valid scenario the refusal tests change one line of. */
static const char base[] =
	"[scenario]\n"                                   /* 1 */
	"name = t\n"
	"title = a test\n"
	"finding = none\n"
	"platform = kvm-haltpoll\n"                      /* 5 */
	"[source.s]\n"
	"author = A\n"
	"date = 2020-01-01\n"
	"subject = S\n"
	"[config.a]\n"                                   /* 10 */
	"workload = sleep-sweep\n"
	"wl = loops=10\n"
	"runs = 2\n"
	"duration = 1s\n"
	"[config.b]\n"                                   /* 15 */
	"governor = teo\n"
	"workload = sleep-sweep\n"
	"runs = 2\n"
	"duration = 1s\n"
	"[define]\n"                                     /* 20 */
	"m = r/x\n"
	"big = v(m) > 10\n"
	"[table.t]\n"
	"title = T\n"
	"source = s\n"                                   /* 25 */
	"columns = A | B\n"
	"points = B\n"
	"row = 1 | 100 | 5.0\n"
	"row = 2 | 1,000 | -\n"
	"key = 2 | mean(b, r/y)\n"                       /* 30 */
	"sim = A | mean(a, m) * {row}\n"
	"sim = B | mean(b, m)\n"
	"cell = 2 | B | -\n"
	"[checks]\n"
	"check = c1 | maxdiff(t, B) <= 5\n"              /* 35 */
	"[sensitivity.e]\n"
	"estimate = wl.wakee_work\n"
	"basis = a guess\n"
	"configs = a\n"
	"figure = f | mean(a, m)\n"                      /* 40 */
	"[plot.p]\n"
	"title = P\n"
	"kind = table\n"
	"table = t\n"
	"columns = A\n";                                 /* 45 */

/* base with line n replaced by text ("" deletes it) */
static char *with_line(int n, const char *text)
{
	char *out = calloc(1, sizeof(base) + strlen(text) + 2);
	const char *p = base;
	for (int line = 1; *p; line++) {
		const char *nl = strchr(p, '\n');
		size_t len = (size_t)(nl - p) + 1;
		if (line == n) {
			if (*text) {
				strcat(out, text);
				strcat(out, "\n");
			}
		} else {
			strncat(out, p, len);
		}
		p += len;
	}
	return out;
}

static void parses_base(void **unused)
{
	(void)unused;
	struct il_scn s;
	struct il_err err;
	int r = il_scn_parse(&s, base, strlen(base), "t.ini", &err);
	if (r)
		fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
	assert_int_equal(r, 0);
	assert_string_equal(s.name, "t");
	assert_int_equal(s.nconfigs, 2);
	assert_string_equal(s.configs[1].governor, "teo");
	assert_string_equal(s.configs[0].label, "a");     /* the id when no label */
	assert_int_equal(s.configs[0].nwl, 1);
	assert_int_equal(s.configs[0].quick_runs, 2);     /* quick defaults to full */
	assert_int_equal(s.ntables, 1);
	const struct il_scn_table *t = &s.tables[0];
	assert_int_equal(t->nrows, 2);
	assert_string_equal(t->keys[0], "1");             /* the label */
	assert_string_equal(t->keys[1], "mean(b, r/y)");
	NEAR(t->cells[2].pub, 1000, 1e-9);                /* "1,000" */
	assert_string_equal(t->cells[2].pub_text, "1,000");
	assert_null(t->cells[3].pub_text);
	assert_null(t->cells[3].sim);                     /* cell = 2 | B | - */
	assert_non_null(t->cells[2].sim);                 /* the template with row 2's key */
	assert_int_equal(t->col_diff[0], IL_SCN_DIFF_RELATIVE);
	assert_int_equal(t->col_diff[1], IL_SCN_DIFF_POINTS);
	assert_int_equal(s.nsens, 1);
	assert_true(s.sens[0].workload);
	assert_int_equal(s.sens[0].nfactors, 2);
	NEAR(s.sens[0].factors[0], 0.5, 1e-12);
	NEAR(s.sens[0].factors[1], 2, 1e-12);
	assert_int_equal(s.sens[0].runs, 0);              /* the configurations' own */
	assert_int_equal(s.sens[0].quick_runs, 0);
	assert_int_equal(s.nplots, 1);
	il_scn_free(&s);
}

/*
 * A rerun's own run counts: config a has 2 runs; its reruns at 0.5 and 2
 * take 1 run each in full mode and 3 in quick (quick.runs), and the cost
 * counts them so.
 */
static void sens_runs(void **unused)
{
	(void)unused;
	char *text = with_line(39, "configs = a\nruns = 1\nquick.runs = 3");
	struct il_scn s;
	struct il_err err;
	struct il_scn_cost cost;
	assert_int_equal(il_scn_parse(&s, text, strlen(text), "t.ini", &err), 0);
	assert_int_equal(s.sens[0].runs, 1);
	assert_int_equal(s.sens[0].quick_runs, 3);
	for (int q = 0; q < 2; q++) {
		struct il_scn_outcome out;
		struct il_scn_run_opts o = { .quick = q, .jobs = 1, .seed = 1 };
		int per = q ? 3 : 1;
		if (il_scn_prepare(&s, &o, &out, &err))
			fail_msg("%s:%d: %s", err.file, err.line, err.msg);
		assert_int_equal(out.runs, 2 + 2 + 2 * per);
		const struct il_scn_batch *b = il_scn_outcome_batch(&out, 0, 0, 1);
		assert_non_null(b);
		assert_int_equal(b->b.runs, per);
		assert_int_equal(il_scn_outcome_batch(&out, 0, -1, -1)->b.runs, 2);
		il_scn_outcome_free(&out);
		assert_int_equal(il_scn_cost(&s, q, &cost, &err), 0);
		assert_int_equal(cost.runs, 2 + 2 + 2 * per);
	}
	il_scn_free(&s);
	free(text);
}

static const struct {
	int line;
	const char *text;
	int want_line;
	const char *want;
} bad[] = {
	{ 2, "name = T!", 2, "is not a name" },
	{ 2, "", 1, "has no 'name'" },
	{ 3, "titel = x", 3, "unknown key 'titel'" },
	{ 4, "finding = one\nfinding = two", 5, "duplicate key 'finding' (first at line 4)" },
	{ 6, "[sauce.s]", 6, "unknown section [sauce.s]" },
	{ 6, "[source]", 6, "needs a name" },
	{ 10, "[source.s]", 10, "duplicate section [source.s] (first at line 6)" },
	{ 12, "wl = loops", 12, "is not KEY=VALUE" },
	{ 13, "runs = 0", 13, "not a number of runs" },
	{ 14, "duration = 1", 14, "needs a unit" },
	{ 14, "duration = 2x", 14, "is not a duration" },
	{ 14, "duration = 1s\nwarmup = 2s", 15, "not shorter than the duration" },
	{ 16, "kernel = 9.9", 16, "kernel:" },
	/* a spec the registry refuses, at its line (it was the section's, from the set-up) */
	{ 16, "governor = nosuch", 16, "governor nosuch: unknown governor 'nosuch'" },
	{ 16, "governor = menu@7.2", 16, "governor menu@7.2: governor menu has no preset" },
	{ 11, "", 10, "has no 'workload'" },
	{ 21, "m = r/x\nm = r/y", 22, "duplicate key 'm'" },
	{ 21, "m-x = r/x", 21, "'m-x' is not a name" },
	{ 25, "source = nobody", 25, "no [source.nobody]" },
	{ 27, "points = C", 27, "points: no column or row 'C'" },
	{ 28, "row = one | 100", 28, "1 values for 2 columns" },
	{ 28, "row = one | abc | 1", 28, "'abc' is not a number" },
	{ 29, "row = 1 | 1 | 2", 29, "row: '1' twice" },
	{ 30, "key = three | 3", 30, "no row 'three'" },
	{ 31, "sim = C | 1", 31, "no column 'C'" },
	{ 31, "sim = A | mean(c, m)", 31, "no configuration 'c'" },
	{ 31, "sim = A | mean(a, m", 31, "')' expected" },
	{ 31, "sim = A | nosuch(a, m)", 31, "unknown function 'nosuch'" },
	{ 31, "sim = A | mean(a, nometric)", 31, "is not a metric ROW/COLUMN" },
	{ 31, "sim = A | v(m)", 31, "v() is for the per-run arguments" },
	{ 31, "sim = A | maxdiff(t)", 31, "maxdiff() is for checks" },
	{ 31, "sim = A | 1 +", 31, "ends early" },
	{ 31, "sim = A | 1 2", 31, "unexpected '2'" },
	{ 31, "sim = A | undefined_name", 31, "neither a function nor a define" },
	{ 22, "big = v(m) > ", 22, "define big: the expression ends early" },
	{ 22, "big = nosuchfn(1)", 22, "define big: unknown function" },
	{ 33, "cell = 2 | B | 1\ncell = 2 | B | 2", 34, "given twice" },
	{ 35, "check = no bar here", 35, "'LABEL | EXPRESSION'" },
	{ 35, "check = c1 | maxdiff(u) <= 5", 35, "no table 'u'" },
	{ 35, "check = c1 | maxdiff(t, Z) <= 5", 35, "has no column 'Z'" },
	{ 35, "check = c1 | countif(a, big) >= 1 && countif(a, big", 35, "')' expected" },
	/* runs over runs over runs (2^40 evaluations for 40 of 2 runs), not runs over runs */
	{ 35, "check = c1 | countif(a, countif(b, countif(a, v(m) > 0) > 0) > 0) > 0", 35,
	  "countif() inside a per-run argument of a function that is itself in one" },
	{ 35, "check = c1 | countif(a, meanif(b, mean(a, m), v(m) > 0) > 0) > 0", 35,
	  "mean() inside a per-run argument" },
	{ 35, "check = c1 | countif(a, maxdiff(t) > v(m)) > 0", 35, "maxdiff() in a per-run" },
	{ 22, "big = countif(a, countif(b, countif(a, v(m) > 0) > 0) > 0)", 22,
	  "define big: countif() inside a per-run argument" },
	{ 37, "estimate = nodot", 37, "is not SECTION.KEY" },
	{ 39, "configs = a, zz", 39, "no configuration 'zz'" },
	{ 39, "configs = a\nfactors = 0.5, 1", 40, "other than 1" },
	{ 39, "configs = a, a", 39, "configs: 'a' twice" },
	{ 39, "configs = a\nfactors = 0.5, 2, 0.50", 40, "'0.5' and '0.50' are both x0.5" },
	{ 39, "configs = a\nfactors = 0.1234567, 0.1234568", 40, "are both x0.123457" },
	{ 39, "configs = a\nruns = 0", 40, "not a number of runs" },
	{ 39, "configs = a\nquick.runs = many", 40, "not a number of runs" },
	{ 43, "kind = pie", 43, "'pie' is not table or runs" },
	{ 44, "table = none", 44, "no [table.none]" },
	{ 45, "columns = Q", 45, "table t has no column 'Q'" },
	{ 45, "", 41, "needs table and columns" },
	{ 7, "author = A\x01", 7, "control character" },
	{ 7, "author = \xc3\x28", 7, "not UTF-8" },
	{ 7, "author = \xed\xa0\x80", 7, "not UTF-8" },
	{ 7, "junk line", 7, "syntax error" },
	{ 7, "[source.x", 7, "alone on its line" },
};

/* points = a row: that row's differences in points, the others as their column says */
static void points_by_row(void **unused)
{
	struct il_scn s;
	struct il_err err;
	char *text = with_line(27, "points = 2");
	(void)unused;
	il_err_clear(&err);
	assert_int_equal(il_scn_parse(&s, text, strlen(text), "t.ini", &err), 0);
	const struct il_scn_table *t = &s.tables[0];
	assert_true(t->row_points[1] && !t->row_points[0]);
	assert_int_equal(t->col_diff[1], IL_SCN_DIFF_RELATIVE);
	NEAR(il_scn_cell_diff(t, 1, 0, 40, 50), 10, 1e-12);     /* row 2: points */
	NEAR(il_scn_cell_diff(t, 0, 0, 40, 50), 25, 1e-12);     /* row 1: relative, % */
	NEAR(il_scn_cell_diff(t, 0, 1, 40, 50), 25, 1e-12);
	assert_true(isnan(il_scn_cell_diff(t, 0, 0, 0, 50)));   /* relative to 0: none */
	NEAR(il_scn_cell_diff(t, 1, 0, 0, 50), 50, 1e-12);      /* in points it has one */
	il_scn_free(&s);
	free(text);
}

static void refusals(void **unused)
{
	(void)unused;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *text = with_line(bad[i].line, bad[i].text);
		struct il_scn s;
		struct il_err err;
		int r = il_scn_parse(&s, text, strlen(text), "t.ini", &err);
		if (r == 0 || err.line != bad[i].want_line || !strstr(err.msg, bad[i].want) ||
		    strcmp(err.file, "t.ini"))
			fail_msg("case %zu (line %d '%s'): got %d, %s:%d: %s", i, bad[i].line, bad[i].text, r,
				 err.file, err.line, err.msg);
		assert_int_equal(s.nconfigs, 0); /* nothing left allocated */
		free(text);
	}
}

static void long_line_and_nul(void **unused)
{
	(void)unused;
	struct il_scn s;
	struct il_err err;
	size_t n = IL_SCN_LINE_MAX + 100;
	char *text = malloc(n + 32);
	strcpy(text, "[scenario]\nname = ");
	memset(text + strlen(text), 'x', n);
	text[n + 18] = '\0';
	assert_int_not_equal(il_scn_parse(&s, text, strlen(text), "l.ini", &err), 0);
	assert_int_equal(err.line, 2);
	assert_non_null(strstr(err.msg, "longer than"));
	free(text);
	static const char nul[] = "[scenario]\nname = a\0b\n";
	assert_int_not_equal(il_scn_parse(&s, nul, sizeof(nul) - 1, "n.ini", &err), 0);
	assert_int_equal(err.line, 2);
	assert_non_null(strstr(err.msg, "NUL"));
	assert_int_not_equal(il_scn_parse(&s, "", 0, "e.ini", &err), 0);
	assert_non_null(strstr(err.msg, "no [scenario]"));
}

/*
 * Defines that use defines: each of ten is ten times the one before, so
 * the last expands to 10^10 terms. Refused at the first too large (d4,
 * line 26), not expanded until memory runs out.
 */
static void define_blowup(void **unused)
{
	(void)unused;
	struct il_scn s;
	struct il_err err;
	char defs[1024] = "m = r/x\nd0 = 1+1+1+1+1+1+1+1+1+1";

	for (int i = 1; i < 10; i++) {
		char d[4], line[64] = "";
		snprintf(d, sizeof(d), "d%d", i - 1);
		for (int k = 0; k < 10; k++)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", k ? "+" : "", d);
		snprintf(defs + strlen(defs), sizeof(defs) - strlen(defs), "\nd%d = %s", i, line);
	}
	char *text = with_line(21, defs);
	assert_int_not_equal(il_scn_parse(&s, text, strlen(text), "t.ini", &err), 0);
	assert_int_equal(err.line, 26);
	assert_non_null(strstr(err.msg, "define d4: "));
	assert_non_null(strstr(err.msg, "too large"));
	assert_int_equal(s.nconfigs, 0);
	free(text);
}

/*
 * A file of 200 000 defines or sections took minutes (each key checked
 * against every key before it): a section holds at most 4096 keys, a file
 * 4096 sections, and keys are looked up in their own section only.
 */
static void many_keys(void **unused)
{
	(void)unused;
	struct il_scn s;
	struct il_err err;
	size_t size = sizeof(base) + 4097 * 40;
	char *defs = malloc(size), *text;

	/* [define] at line 20 holds m (21), these, and big: 4096 keys, then 4097 */
	snprintf(defs, size, "m = r/x");
	for (int i = 0; i < 4094; i++)
		snprintf(defs + strlen(defs), size - strlen(defs), "\nd%d = 1", i);
	text = with_line(21, defs);
	assert_int_equal(il_scn_parse(&s, text, strlen(text), "k.ini", &err), 0);
	il_scn_free(&s);
	free(text);
	snprintf(defs + strlen(defs), size - strlen(defs), "\nd4094 = 1");
	text = with_line(21, defs);
	assert_int_not_equal(il_scn_parse(&s, text, strlen(text), "k.ini", &err), 0);
	assert_int_equal(err.line, 21 + 4096);
	assert_non_null(strstr(err.msg, "[define]: more than 4096 keys"));
	free(text);

	/* base has 9 sections: 4087 more are 4096 */
	snprintf(defs, size, "%s", base);
	for (int i = 0; i < 4088; i++)
		snprintf(defs + strlen(defs), size - strlen(defs), "[plot.q%d]\n", i);
	assert_int_not_equal(il_scn_parse(&s, defs, strlen(defs), "k.ini", &err), 0);
	assert_int_equal(err.line, 45 + 4088);
	assert_non_null(strstr(err.msg, "more than 4096 sections"));
	free(defs);
}

/* ------------------------------------------------------------------ hand-made results */

struct fake {
	struct il_metrics runs[IL_SCN_CONFIGS_MAX][16];
	struct il_scn_cfg_runs cfg[IL_SCN_CONFIGS_MAX];
	struct il_scn_data d;
};

static void fake_init(struct fake *f, int nconfigs)
{
	memset(f, 0, sizeof(*f));
	f->d.nconfigs = nconfigs;
	f->d.cfg = f->cfg;
	for (int c = 0; c < nconfigs; c++)
		f->cfg[c].runs = f->runs[c];
}

static struct il_metrics *fake_run(struct fake *f, int c)
{
	struct il_metrics *m = &f->runs[c][f->cfg[c].nruns++];
	il_metrics_init(m);
	return m;
}

static void fake_free(struct fake *f)
{
	for (int c = 0; c < IL_SCN_CONFIGS_MAX; c++)
		for (int k = 0; k < f->cfg[c].nruns; k++)
			il_metrics_free(&f->runs[c][k]);
}

static void add(struct il_metrics *m, const char *row, const char *col, double v)
{
	il_metric_add(m, row, col, "", IL_BETTER_NONE, false, v);
}

static double eval_text(const struct il_scn *s, const struct il_scn_data *d, const char *text,
			unsigned flags)
{
	struct il_err err;
	struct il_scn_expr *e = il_scn_expr_parse(s, text, flags, 1, &err);
	if (!e)
		fail_msg("'%s': %s", text, err.msg);
	double v = il_scn_expr_eval(e, s, d);
	il_scn_expr_free(e);
	return v;
}

static void expressions(void **unused)
{
	(void)unused;
	struct il_scn s;
	struct il_err err;
	struct fake f;

	assert_int_equal(il_scn_parse(&s, base, strlen(base), "t.ini", &err), 0);
	fake_init(&f, 2);
	/* a: r/x = 4, 1, 3, 2 (mean 2.5, median 2.5); b: r/x = 10, 20 */
	const double xa[] = { 4, 1, 3, 2 };
	for (int k = 0; k < 4; k++) {
		struct il_metrics *m = fake_run(&f, 0);
		add(m, "r", "x", xa[k]);
		add(m, "r", "y", 10 * xa[k]);
		add(m, "", "top", k);
	}
	add(fake_run(&f, 1), "r", "x", 10);
	add(fake_run(&f, 1), "r", "x", 20);

	NEAR(eval_text(&s, &f.d, "mean(a, r/x)", 0), 2.5, 1e-12);
	NEAR(eval_text(&s, &f.d, "AMean(a, m)", 0), 2.5, 1e-12);       /* case, a define */
	NEAR(eval_text(&s, &f.d, "median(a, r/x)", 0), 2.5, 1e-12);
	NEAR(eval_text(&s, &f.d, "min(a, r/x) + max(a, r/x)", 0), 5, 1e-12);
	NEAR(eval_text(&s, &f.d, "stddev(a, r/x)", 0), sqrt(5.0 / 3), 1e-12);
	NEAR(eval_text(&s, &f.d, "coefvar(a, r/x)", 0), 100 * sqrt(5.0 / 3) / 2.5, 1e-9);
	NEAR(eval_text(&s, &f.d, "hmean(b, r/x)", 0), 2 / (0.1 + 0.05), 1e-9);
	NEAR(eval_text(&s, &f.d, "n(a, r/x)", 0), 4, 1e-12);
	NEAR(eval_text(&s, &f.d, "n(b, r/y)", 0), 0, 1e-12);               /* missing: counted as 0 */
	NEAR(eval_text(&s, &f.d, "mean(a, /top)", 0), 1.5, 1e-12);     /* a run-level metric */
	NEAR(eval_text(&s, &f.d, "2 * (1 + 3) / 4 - -1", 0), 3, 1e-12);
	NEAR(eval_text(&s, &f.d, "gain(mean(b, m), mean(a, m))", 0), 15 / 2.5 * 100 - 100, 1e-9);
	NEAR(eval_text(&s, &f.d, "pct(1, 4)", 0), 25, 1e-12);
	NEAR(eval_text(&s, &f.d, "ratio(3, 4) + least(1, 2) + greatest(1, 2) + abs(-1)", 0), 4.75, 1e-12);
	NEAR(eval_text(&s, &f.d, "countif(a, v(r/x) >= 2)", 0), 3, 1e-12);
	NEAR(eval_text(&s, &f.d, "countif(b, big)", 0), 1, 1e-12);          /* a define with v() */
	/* a define deep in parentheses is not a define that uses itself */
	NEAR(eval_text(&s, &f.d, "countif(b, ((((((((((((((((big)))))))))))))))))", 0), 1, 1e-12);
	NEAR(eval_text(&s, &f.d, "minif(a, v(r/y), v(r/x) > 1)", 0), 20, 1e-12);
	/* a function over runs in another's per-run argument: runs x runs, allowed */
	NEAR(eval_text(&s, &f.d, "countif(a, v(r/x) < median(b, r/x) / 6)", 0), 2, 1e-12);
	NEAR(eval_text(&s, &f.d, "countif(a, countif(b, v(r/x) > 15) == 1)", 0), 4, 1e-12);
	NEAR(eval_text(&s, &f.d, "maxif(a, v(r/y), v(r/x) < 4)", 0), 30, 1e-12);
	NEAR(eval_text(&s, &f.d, "meanif(a, v(r/x), v(r/x) != 4)", 0), 2, 1e-12);
	NEAR(eval_text(&s, &f.d, "at_min(a, r/x, v(/top))", 0), 1, 1e-12);  /* run 2 has x = 1 */
	NEAR(eval_text(&s, &f.d, "at_max(a, r/x, v(/top))", 0), 0, 1e-12);
	NEAR(eval_text(&s, &f.d, "1 < 2 && 2 <= 2 && !(3 > 4) && (0 || 1) && 1 == 1", 0), 1, 1e-12);
	NEAR(eval_text(&s, &f.d, "1 > 2 || 0", 0), 0, 1e-12);
	/* missing values: NAN, and so is everything that needs them */
	assert_true(isnan(eval_text(&s, &f.d, "mean(b, r/y)", 0)));
	assert_true(isnan(eval_text(&s, &f.d, "mean(b, r/y) > 0 || 1", 0)));
	assert_true(isnan(eval_text(&s, &f.d, "minif(a, v(r/x), v(r/x) > 100)", 0))); /* no run */
	assert_true(isnan(eval_text(&s, &f.d, "1 / 0", 0)));
	assert_true(isnan(eval_text(&s, &f.d, "gain(1, 0)", 0)));
	assert_true(isnan(eval_text(&s, &f.d, "coefvar(b, r/y) + 1", 0)));
	/* one run: no spread */
	struct fake g;
	fake_init(&g, 2);
	add(fake_run(&g, 0), "r", "x", 5);
	assert_true(isnan(eval_text(&s, &g.d, "coefvar(a, r/x)", 0)));
	NEAR(eval_text(&s, &g.d, "median(a, r/x)", 0), 5, 1e-12);
	fake_free(&g);

	/* the table: A = mean(a) x key (row 2's key has no value) and B = mean(b) in points */
	NEAR(il_scn_expr_eval(s.tables[0].cells[0].sim, &s, &f.d), 2.5, 1e-12);
	NEAR(il_scn_expr_eval(s.tables[0].cells[1].sim, &s, &f.d), 15, 1e-12);
	NEAR(il_scn_diff(&s.tables[0], 0, 100, 2.5), -97.5, 1e-9);
	NEAR(il_scn_diff(&s.tables[0], 1, 5, 15), 10, 1e-12);
	/* a cell: its column's rule, or points where its row is named by points */
	NEAR(il_scn_cell_diff(&s.tables[0], 0, 0, 100, 2.5), -97.5, 1e-9);
	NEAR(il_scn_cell_diff(&s.tables[0], 0, 1, 5, 15), 10, 1e-12);
	assert_false(s.tables[0].row_points[0]);
	NEAR(il_scn_table_maxdiff(&s, &s.tables[0], 1, &f.d), 10, 1e-12);
	NEAR(eval_text(&s, &f.d, "maxdiff(t, B)", IL_SCN_EXPR_CHECK), 10, 1e-12);
	/* column A's row 2 has no value: the table's largest difference is unknown */
	assert_true(isnan(eval_text(&s, &f.d, "maxdiff(t)", IL_SCN_EXPR_CHECK)));

	char buf[256];
	struct il_scn_expr *e = il_scn_expr_parse(&s, "mean(a, m) > 2 && n(a, m) >= 10", 0, 1, &err);
	il_scn_expr_explain(e, &s, &f.d, buf, sizeof(buf));
	assert_string_equal(buf, "2.50 > 2.00 and 4.00 >= 10.00");
	il_scn_expr_free(e);
	fake_free(&f);
	il_scn_free(&s);
}

/*
 * The zen3-dummy-wait checks on made-up runs: baseline run 1 collapses
 * (2000 MB/s, 98 % of the idle time in C2, 90 % of the entries through the
 * I/O port), the nine others run at 32000 with C1 ahead of C2; C2 disabled
 * and patched runs are steady.
 */
static void zen3_runs(struct fake *f, const struct il_scn *s, double c2_share_collapsed,
		      bool collapse)
{
	int bl = il_scn_config_find(s, "baseline"), off = il_scn_config_find(s, "c2off"),
	    pat = il_scn_config_find(s, "patched");
	fake_init(f, s->nconfigs);
	for (int k = 0; k < 10; k++) {
		struct il_metrics *m = fake_run(f, bl);
		bool bad_run = collapse && k == 0;
		add(m, "request-response", "throughput_MBps", bad_run ? 2000 : 32000);
		add(m, "state POLL", "time_us", bad_run ? 0 : 100);
		add(m, "state C1", "time_us", bad_run ? 100 - c2_share_collapsed : 6900);
		add(m, "state C2", "time_us", bad_run ? c2_share_collapsed : 3000);
		add(m, "entry poll", "entries", 0);
		add(m, "entry mwait", "entries", bad_run ? 10 : 900);
		add(m, "entry ioport", "entries", bad_run ? 90 : 100);
		m = fake_run(f, off);
		add(m, "request-response", "throughput_MBps", 33000 + 10 * k);
		m = fake_run(f, pat);
		add(m, "request-response", "throughput_MBps", 33500 - 10 * k);
	}
}

static void zen3_checks(void **unused)
{
	(void)unused;
	struct il_scn s;
	struct il_err err;
	struct fake f;
	struct il_scn_report r;

	assert_int_equal(il_scn_load(&s, "zen3-dummy-wait", &err), 0);
	assert_int_equal(s.nchecks, 8);
	zen3_runs(&f, &s, 98, true);
	assert_int_equal(il_scn_report_build(&r, &s, &f.d, NULL, &err), 0);
	for (int i = 0; i < s.nchecks; i++)
		if (r.checks[i].status != IL_SCN_PASS)
			fail_msg("check '%s' is not PASS: %s", s.checks[i].label, r.checks[i].explain);
	assert_int_equal(r.npass, 8);
	/* CoefVar of 2000 + 9 x 32000: sd = sqrt((27000^2 + 9 x 3000^2) / 9) = 9486.8, mean 29000 */
	assert_non_null(strstr(r.checks[1].explain, "32.71 > 20.00"));
	/* the tbench table: Min of the baseline, its difference from 2215.06 */
	const struct il_scn_table *t = &s.tables[il_scn_table_find(&s, "tbench")];
	NEAR(r.cells[0][0].sim, 2000, 1e-9);
	NEAR(r.cells[0][0].diff, (2000 / 2215.06 - 1) * 100, 1e-9);
	assert_true(isnan(r.cells[0][1 * t->ncols + 0].sim)); /* "Min vs baseline" of baseline: none */
	NEAR(r.cells[0][1 * t->ncols + 1].sim, (33000.0 / 2000 - 1) * 100, 1e-9);
	il_scn_report_free(&r);
	fake_free(&f);

	/* 70 % of the collapsed run's idle time in C2: that check fails, the others hold */
	zen3_runs(&f, &s, 70, true);
	assert_int_equal(il_scn_report_build(&r, &s, &f.d, NULL, &err), 0);
	assert_int_equal(r.checks[3].status, IL_SCN_FAIL);
	assert_int_equal(r.npass, 7);
	il_scn_report_free(&r);
	fake_free(&f);

	/* no run collapses: CoefVar and the count fail; the collapsed-run checks have no run: n/a */
	zen3_runs(&f, &s, 98, false);
	assert_int_equal(il_scn_report_build(&r, &s, &f.d, NULL, &err), 0);
	assert_int_equal(r.checks[0].status, IL_SCN_PASS);
	assert_int_equal(r.checks[1].status, IL_SCN_FAIL);
	assert_int_equal(r.checks[2].status, IL_SCN_FAIL);
	assert_int_equal(r.checks[3].status, IL_SCN_NA);
	assert_int_equal(r.checks[4].status, IL_SCN_NA);
	assert_int_equal(r.checks[5].status, IL_SCN_PASS);
	assert_int_equal(r.nna, 2);
	il_scn_report_free(&r);
	fake_free(&f);
	il_scn_free(&s);
}

/* ------------------------------------------------------------------ the report */

static char *write_report(const struct il_scn_report *r, enum il_scn_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	struct il_err err;
	FILE *m = open_memstream(&buf, &len);
	assert_int_equal(il_scn_report_write(r, fmt, m, &err), 0);
	fclose(m);
	return buf;
}

static void report_contents(void **unused)
{
	(void)unused;
	struct il_scn s;
	struct il_err err;
	struct fake f;
	struct il_scn_report r;

	assert_int_equal(il_scn_parse(&s, base, strlen(base), "t.ini", &err), 0);
	fake_init(&f, 2);
	add(fake_run(&f, 0), "r", "x", 120);
	add(fake_run(&f, 0), "r", "x", 80);
	add(fake_run(&f, 1), "r", "x", 7.25);
	add(fake_run(&f, 1), "r", "x", 7.25);
	assert_int_equal(il_scn_report_build(&r, &s, &f.d, NULL, &err), 0);
	/* A one: mean 100 x 1 against 100 (+0.0%); B one: 7.25 against 5.0, +2.25 points */
	NEAR(r.cells[0][0].sim, 100, 1e-12);
	NEAR(r.cells[0][0].diff, 0, 1e-12);
	NEAR(r.cells[0][1].diff, 2.25, 1e-12);
	assert_int_equal(r.checks[0].status, IL_SCN_PASS);  /* maxdiff(t, B) = 2.25 <= 5 */

	char *text = write_report(&r, IL_SCN_TEXT);
	/* the published text as cited, the simulated at its precision, the difference */
	assert_non_null(strstr(text, "100       100  +0.0%"));
	assert_non_null(strstr(text, "5.0       7.2  +2.25"));  /* 7.25 at one decimal: 7.2 */
	assert_non_null(strstr(text, "1,000"));
	assert_non_null(strstr(text, "PASS  c1"));
	assert_non_null(strstr(text, "2.25 <= 5.00"));
	assert_non_null(strstr(text, "A, 2020-01-01, \"S\""));
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t chars = 0;
		for (size_t i = 0; i < len; i++)
			chars += ((unsigned char)p[i] & 0xc0) != 0x80;
		if (chars > 100 || (len && p[len - 1] == ' '))
			fail_msg("line too long or with trailing blanks: '%.*s'", (int)len, p);
		p = nl ? nl + 1 : p + len;
	}
	free(text);

	char *md = write_report(&r, IL_SCN_MARKDOWN);
	assert_non_null(strstr(md, "| 1 | 100 | 100 | +0.0% | 5.0 | 7.2 | +2.25 |"));
	free(md);

	/* JSON: numbers as numbers, NAN as null */
	char *js = write_report(&r, IL_SCN_JSON);
	struct json_object *o = json_tokener_parse(js);
	assert_non_null(o);
	struct json_object *tables, *t0, *rows, *row0, *cells, *c1, *v;
	assert_true(json_object_object_get_ex(o, "tables", &tables));
	t0 = json_object_array_get_idx(tables, 0);
	assert_true(json_object_object_get_ex(t0, "rows", &rows));
	row0 = json_object_array_get_idx(rows, 0);
	assert_true(json_object_object_get_ex(row0, "cells", &cells));
	c1 = json_object_array_get_idx(cells, 1);
	assert_true(json_object_object_get_ex(c1, "simulated", &v));
	assert_true(json_object_is_type(v, json_type_double));
	NEAR(json_object_get_double(v), 7.25, 1e-12);
	assert_true(json_object_object_get_ex(c1, "diff", &v));
	NEAR(json_object_get_double(v), 2.25, 1e-12);
	struct json_object *row1 = json_object_array_get_idx(rows, 1), *c11;
	json_object_object_get_ex(row1, "cells", &cells);
	c11 = json_object_array_get_idx(cells, 1);
	assert_true(json_object_object_get_ex(c11, "published", &v));
	assert_null(v);                                 /* not published */
	struct json_object *checks, *ch;
	assert_true(json_object_object_get_ex(o, "checks", &checks));
	ch = json_object_array_get_idx(checks, 0);
	assert_true(json_object_object_get_ex(ch, "result", &v));
	assert_string_equal(json_object_get_string(v), "pass");
	json_object_put(o);
	free(js);

	/* HTML: the table and the plot (x from the row keys that are numbers: row 1) */
	char *html = write_report(&r, IL_SCN_HTML);
	assert_non_null(strstr(html, "<!DOCTYPE html>"));
	assert_non_null(strstr(html, "<table class=\"scenario\" data-table=\"t\">"));
	assert_non_null(strstr(html, "<svg xmlns"));
	assert_null(strstr(html, "<?xml"));
	assert_non_null(strstr(html, "A, published"));
	assert_non_null(strstr(html, "A, simulated"));
	free(html);
	il_scn_report_free(&r);
	fake_free(&f);
	il_scn_free(&s);
}

/*
 * A head wider than the text (a long estimate name) leaves no room on the
 * line: each word goes on a line of its own. wrapped() cut every word to 8
 * columns instead, also the shorter ones: it printed "made up " as one
 * word and read past the end of the text (heap-buffer-overflow under ASan,
 * found by fuzz_scenario).
 */
static void text_wrap_long_head(void **unused)
{
	(void)unused;
	char name[160], text[sizeof(base) + 300], *buf;
	struct il_scn s;
	struct il_err err;
	struct fake f;
	struct il_scn_report r;
	const char *at = strstr(base, "estimate = wl.wakee_work\n");

	assert_non_null(at);
	memset(name, 'k', 120);
	snprintf(name + 120, sizeof(name) - 120, ".wakee_work");
	snprintf(text, sizeof(text), "%.*sestimate = %s\nbasis = made up for the test\n%s",
		 (int)(at - base), base, name,
		 strstr(at, "basis = a guess\n") + strlen("basis = a guess\n"));
	assert_int_equal(il_scn_parse(&s, text, strlen(text), "t.ini", &err), 0);
	fake_init(&f, s.nconfigs);
	assert_int_equal(il_scn_report_build(&r, &s, &f.d, NULL, &err), 0);
	buf = write_report(&r, IL_SCN_TEXT);
	char want[200];
	snprintf(want, sizeof(want), "  %s: made\n", name);
	assert_non_null(strstr(buf, want));
	snprintf(want, sizeof(want), "\n%*stest\n    rerun:", (int)strlen(name) + 4, "");
	assert_non_null(strstr(buf, want));
	free(buf);
	il_scn_report_free(&r);
	fake_free(&f);
	il_scn_free(&s);
}

static void overrides(void **unused)
{
	(void)unused;
	static const char plat[] = "[platform]\nname = x\n\n[firmware]\ncst = yes ; inline\n"
				   "pm_timer_read = lognormal:1500:0.35\n\n[cst.2]\nlatency = 350\n";
	struct il_err err;
	char *t, buf[96];

	t = il_scn_platform_override(plat, "firmware.pm_timer_read=const:700", &err);
	assert_non_null(strstr(t, "pm_timer_read = const:700\n"));
	assert_null(strstr(t, "1500"));
	free(t);
	t = il_scn_platform_override(plat, "cst.2.latency = 30", &err);   /* the section has a dot */
	assert_non_null(strstr(t, "[cst.2]\nlatency = 30\n"));
	free(t);
	t = il_scn_platform_override(plat, "firmware.hlt_exit=const:2000", &err); /* added */
	assert_non_null(strstr(t, "pm_timer_read = lognormal:1500:0.35\nhlt_exit = const:2000\n"));
	free(t);
	t = il_scn_platform_override(plat, "ipi.send=const:200", &err);   /* a new section */
	assert_non_null(strstr(t, "latency = 350\n[ipi]\nsend = const:200\n"));
	free(t);
	assert_null(il_scn_platform_override(plat, "nodot=1", &err));
	assert_null(il_scn_platform_override(plat, "firmware.cst", &err));
	assert_null(il_scn_platform_override(plat, "firmware.cst=", &err));

	assert_int_equal(il_scn_platform_value(plat, "firmware.cst", buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "yes");                                  /* no inline comment */
	assert_int_equal(il_scn_platform_value(plat, "cst.2.latency", buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "350");
	assert_int_equal(il_scn_platform_value(plat, "ipi.send", buf, sizeof(buf), &err), -ENOENT);
	/* keys the format has that the file leaves out, and keys it does not have */
	assert_int_equal(il_scn_platform_value(plat, "firmware.exit.C2", buf, sizeof(buf), &err),
			 -ENOENT);
	assert_int_equal(il_scn_platform_value(plat, "turbo.4", buf, sizeof(buf), &err), -ENOENT);
	assert_int_equal(il_scn_platform_value(plat, "ipi.sned", buf, sizeof(buf), &err), -EINVAL);
	/* a value that does not fit is refused, not cut into another value */
	assert_int_equal(il_scn_platform_value(plat, "firmware.pm_timer_read", buf, 12, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "longer than 11 characters"));
	assert_int_equal(il_scn_platform_value(plat, "turbo.x", buf, sizeof(buf), &err), -EINVAL);
	assert_int_equal(il_scn_platform_value(plat, "firmware.exit.", buf, sizeof(buf), &err),
			 -EINVAL);

	assert_int_equal(il_scn_scale_value("lognormal:1500:0.35", 0.5, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "lognormal:750:0.35");                   /* sigma kept */
	assert_int_equal(il_scn_scale_value("lognormal:80us:0.5", 2, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "lognormal:160us:0.5");
	assert_int_equal(il_scn_scale_value("uniform:100:300", 2, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "uniform:200:600");
	assert_int_equal(il_scn_scale_value("3001", 0.5, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "1501");                                 /* whole stays whole */
	assert_int_equal(il_scn_scale_value("1.5us", 0.5, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "0.75us");
	assert_int_equal(il_scn_scale_value("0.25", 2, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "0.5");
	assert_int_not_equal(il_scn_scale_value("same", 2, buf, sizeof(buf), &err), 0);
	assert_int_not_equal(il_scn_scale_value("weird:1:2", 2, buf, sizeof(buf), &err), 0);
	/* a tail: the body and the tail's times scale, its share and sigma do not */
	assert_int_equal(il_scn_scale_value("lognormal:12410:0.33+6%:lognormal:20us:1.1", 2, buf,
					    sizeof(buf), &err), 0);
	assert_string_equal(buf, "lognormal:24820:0.33+6%:lognormal:40us:1.1");
	assert_int_equal(il_scn_scale_value("100+2.5%:const:10us", 0.5, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "50+2.5%:const:5us");
	assert_int_not_equal(il_scn_scale_value("100+2%:weird:1", 2, buf, sizeof(buf), &err), 0);
	/* blanks around P, as il_dist_parse() takes them: the tail scales too */
	assert_int_equal(il_scn_scale_value("lognormal:12410:0.33 + 6 %:lognormal:20us:1.1", 2,
					    buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "lognormal:24820:0.33+6%:lognormal:40us:1.1");
	assert_int_equal(il_scn_scale_value("uniform:10us:12us +2.5%:const:40us", 0.5, buf,
					    sizeof(buf), &err), 0);
	assert_string_equal(buf, "uniform:5us:6us+2.5%:const:20us");
	/* a share with an exponent, as il_dist_str() prints a small one */
	assert_int_equal(il_scn_scale_value("100+5e-05%:const:10us", 2, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "200+5e-05%:const:20us");
}

/* Every built-in scenario parses and every configuration prepares (quick and full). */
static void builtins_prepare(void **unused)
{
	(void)unused;
	static const char *const names[] = { "zen3-dummy-wait", "amd-default-idle", "intel-cst-claim",
					      "power10-poll-escape", "freq-invariance" };
	assert_int_equal(il_builtin_scenario_count, 5);
	for (size_t i = 0; i < 5; i++) {
		struct il_scn s;
		struct il_err err;
		struct il_scn_outcome out;
		struct il_scn_cost cost;
		if (il_scn_load(&s, names[i], &err))
			fail_msg("%s: %s:%d: %s", names[i], err.file, err.line, err.msg);
		assert_true(s.nchecks > 0);
		assert_true(s.nsens > 0);
		assert_true(s.nplots > 0);
		for (int q = 0; q < 2; q++) {
			struct il_scn_run_opts o = { .quick = q, .jobs = 1, .seed = 1 };
			if (il_scn_prepare(&s, &o, &out, &err))
				fail_msg("%s: %s:%d: %s", names[i], err.file, err.line, err.msg);
			assert_true(out.nbatches > s.nconfigs);
			il_scn_outcome_free(&out);
		}
		assert_int_equal(il_scn_cost(&s, false, &cost, &err), 0);
		assert_true(cost.runs > 0 && cost.est_wall_s > 0);
		/* from the workloads' options: freq-invariance's 96-CPU runs keep few CPUs busy
		 * (326 s of CPU measured; CPUs x simulated s / 70 said 4.4 h), zen3's 256 are
		 * all busy (about 8 h measured) */
		if (!strcmp(names[i], "freq-invariance"))
			assert_true(cost.est_wall_s > 60 && cost.est_wall_s < 3600);
		if (!strcmp(names[i], "zen3-dummy-wait"))
			assert_true(cost.est_wall_s > 4 * 3600.0);
		il_scn_free(&s);
	}
	struct il_scn s;
	struct il_err err;
	assert_int_not_equal(il_scn_load(&s, "no-such-scenario", &err), 0);
	assert_non_null(strstr(err.msg, "zen3-dummy-wait"));
}

/* A configuration the drivers or workloads refuse stops the scenario before it runs. */
static void prepare_refusals(void **unused)
{
	(void)unused;
	static const struct {
		int line;
		const char *text;
		const char *want;
	} cases[] = {
		{ 12, "wl = loops=0", "loops" },
		{ 12, "wl = nosuch=1", "nosuch" },
		{ 12, "pset = firmware.bogus_key=1", "bogus_key" },
		{ 12, "set = nosuch.option=1", "nosuch.option" },
		{ 12, "sim = nosuch=1", "unknown engine option" },
		{ 12, "wl = loops=10\nwarmup = 10ms", "warmup" },
		{ 11, "workload = nosuch", "unknown workload" },
		{ 5, "platform = nosuch", "no built-in platform" },
		{ 37, "estimate = wl.nosuch", "no option 'nosuch'" },
		{ 37, "estimate = firmware.cst", "not a number" },
		/* a misspelt key is not one a platform leaves out */
		{ 37, "estimate = firmware.pm_timer_raed", "not a key of the platform format" },
		{ 37, "estimate = nosuch.key", "([nosuch] has no 'key')" },
		{ 37, "estimate = turbo.x", "not a key of the platform format" },
		/* a value scaled out of range: the estimate named, with what it wrote */
		{ 37, "estimate = kernel.hz\nfactors = 1000", "with kernel.hz=250000: " },
		{ 37, "estimate = wl.loops\nfactors = 0.01", "workload sleep-sweep with loops=0: " },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = with_line(cases[i].line, cases[i].text);
		struct il_scn s;
		struct il_err err;
		struct il_scn_outcome out;
		struct il_scn_run_opts o = { .quick = false, .jobs = 1, .seed = 1 };
		int r = il_scn_parse(&s, text, strlen(text), "t.ini", &err);
		if (r)
			fail_msg("case %zu parses: %s", i, err.msg);
		r = il_scn_prepare(&s, &o, &out, &err);
		/* a warm-up is refused only where the engine has none */
		if (strstr(cases[i].text, "warmup") && il_opt_find(il_sim_opts, "warmup")) {
			assert_int_equal(r, 0);
			il_scn_outcome_free(&out);
			il_scn_free(&s);
			free(text);
			continue;
		}
		if (r == 0 || !strstr(err.msg, cases[i].want) || strcmp(err.file, "t.ini") || err.line < 1 ||
		    (strstr(cases[i].want, " with ") && err.line != 36) ||
		    /* a platform is named at its key, not at its section */
		    (!strncmp(cases[i].text, "platform", 8) && err.line != cases[i].line))
			fail_msg("case %zu: got %d, %s:%d: %s", i, r, err.file, err.line, err.msg);
		if (r == 0)
			il_scn_outcome_free(&out);
		il_scn_free(&s);
		free(text);
	}
}

/* A run of the test scenario: seeds S, S+1 ...; the same seed gives the same numbers. */
static void runs_tiny(void **unused)
{
	(void)unused;
	double first = NAN;
	for (int rep = 0; rep < 2; rep++) {
		struct il_scn s;
		struct il_err err;
		struct il_scn_outcome out;
		struct il_scn_run_opts o = { .quick = true, .jobs = 2, .seed = 7 };
		struct il_scn_cfg_runs cfg[IL_SCN_CONFIGS_MAX];
		struct il_scn_data d;
		assert_int_equal(il_scn_load(&s, SRCDIR "/tests/fixtures/scenario/tiny.ini", &err), 0);
		assert_int_equal(il_scn_prepare(&s, &o, &out, &err), 0);
		assert_int_equal(out.runs, 2 + 2 + 2 * 2);       /* 2 configs, 1 config at 2 factors */
		assert_int_equal(il_scn_execute(&out, &o, &err), 0);
		il_scn_outcome_data(&out, &d, cfg);
		assert_int_equal(d.cfg[0].nruns, 2);
		const struct il_scn_batch *b = il_scn_outcome_batch(&out, 0, 0, 1);
		assert_non_null(b);
		assert_string_equal(b->base_value, "2000");
		assert_string_equal(b->value, "4000");
		assert_non_null(strstr(b->wl_text, "wakee_work=4000"));
		assert_int_equal(b->b.params.seed, 7);
		/* cpu0 rows were added to every run */
		double v = eval_text(&s, &d, "mean(menu, cpu0 entry poll/entries) + "
					     "mean(menu, 12us/usage_diff)", 0);
		assert_false(isnan(v));
		if (rep == 0)
			first = v;
		else
			assert_true(v == first);
		il_scn_outcome_free(&out);
		il_scn_free(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_base),
		cmocka_unit_test(sens_runs),
		cmocka_unit_test(points_by_row),
		cmocka_unit_test(refusals),
		cmocka_unit_test(long_line_and_nul),
		cmocka_unit_test(define_blowup),
		cmocka_unit_test(many_keys),
		cmocka_unit_test(expressions),
		cmocka_unit_test(zen3_checks),
		cmocka_unit_test(report_contents),
		cmocka_unit_test(text_wrap_long_head),
		cmocka_unit_test(overrides),
		cmocka_unit_test(builtins_prepare),
		cmocka_unit_test(prepare_refusals),
		cmocka_unit_test(runs_tiny),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
