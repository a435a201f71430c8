// SPDX-License-Identifier: GPL-2.0-only
/* The reader of simulation results (include/idlelab/results.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "idlelab/results.h"

static int parse(const char *text, struct il_result_config *cfg, int room, struct il_err *err)
{
	return il_results_parse(text, strlen(text), "r.json", cfg, 0, room, err);
}

static void good(void **unused)
{
	(void)unused;
	struct il_result_config cfg[4];
	struct il_err err;
	const char *t = "{\"idlelab\": \"sim\", \"format\": 1, \"workload\": \"pingpong\", \"configs\": ["
			"{\"governor\": \"menu@7.1\", \"kernel\": \"6.18\", \"metrics\": ["
			"{\"row\": \"\", \"col\": \"usage\", \"unit\": \"\", \"values\": [10, null, 20]},"
			"{\"row\": \"pingpong\", \"col\": \"round_trips_per_s\", \"unit\": \"1/s\","
			" \"better\": \"higher\", \"throughput\": true, \"values\": [1.5, 2.5]}]},"
			"{\"governor\": \"teo\", \"metrics\": []}]}";

	assert_int_equal(parse(t, cfg, 4, &err), 2);
	assert_string_equal(cfg[0].governor, "menu@7.1");
	assert_string_equal(cfg[0].kernel, "6.18");
	assert_string_equal(cfg[0].workload, "pingpong");
	assert_int_equal(cfg[0].nmetrics, 2);
	assert_int_equal(cfg[0].m[0].n, 2); /* null (a NaN written out) is no value */
	assert_true(il_result_mean(&cfg[0].m[0]) == 15);
	const struct il_result_metric *m = il_result_find(&cfg[0], "pingpong", "round_trips_per_s");
	assert_non_null(m);
	assert_true(m->throughput);
	assert_int_equal(m->better, IL_BETTER_HIGHER);
	assert_string_equal(m->unit, "1/s");
	assert_null(il_result_find(&cfg[0], "pingpong", "nope"));
	assert_string_equal(cfg[1].kernel, "");
	assert_int_equal(cfg[1].nmetrics, 0);
	il_results_free(cfg, 2);
	assert_null(cfg[0].m);
}

static void bad(void **unused)
{
	(void)unused;
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "{\"idlelab\": \"sim\", \"configs\": [", "cannot read it as JSON" },
		{ "not json", "cannot read it as JSON" },
		{ "{\"idlelab\": \"replay\", \"configs\": []}", "not a result of 'idlelab sim" },
		{ "{\"idlelab\": \"sim\", \"configs\": {}}", "not a result of 'idlelab sim" },
		{ "[1, 2]", "not a result of 'idlelab sim" },
		{ "{\"idlelab\": \"sim\", \"configs\": [{\"metrics\": []}]}",
		  "configuration 1 has no governor or metrics" },
		{ "{\"idlelab\": \"sim\", \"configs\": [{\"governor\": \"g\", \"metrics\": ["
		  "{\"row\": \"\", \"col\": \"a\", \"values\": []}, {\"row\": \"\", \"values\": []}]}]}",
		  "configuration 1, metric 2 is malformed" },
		{ "{\"idlelab\": \"sim\", \"configs\": [{\"governor\": \"a\", \"metrics\": []},"
		  "{\"governor\": \"b\", \"metrics\": []}, {\"governor\": \"c\", \"metrics\": []}]}",
		  "too many configurations" },
		{ "{\"idlelab\": \"sim\", \"configs\": [{\"governor\": \"g\", \"metrics\": ["
		  "{\"row\": \"\", \"col\": \"a\", \"values\": [1, \"x\"]}]}]}",
		  "configuration 1, metric /a: value 2 is not a number" },
		{ "{\"idlelab\": \"sim\", \"configs\": []} trailing", "text after the end" },
		/* two names cut to the field's 39 bytes would be one metric */
		{ "{\"idlelab\": \"sim\", \"configs\": [{\"governor\": \"g\", \"metrics\": ["
		  "{\"row\": \"0123456789012345678901234567890123456789\", \"col\": \"a\", "
		  "\"values\": [1]}]}]}",
		  "a metric's row is longer than 39 bytes" },
		{ "{\"idlelab\": \"sim\", \"configs\": [{\"governor\": \"g\", \"metrics\": ["
		  "{\"row\": \"\", \"col\": \"0123456789012345678901234567890123456789x\", "
		  "\"values\": [1]}]}]}",
		  "a metric's column is longer than 39 bytes" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct il_result_config cfg[2];
		struct il_err err;
		memset(cfg, 0, sizeof(cfg));
		int r = parse(cases[i].text, cfg, 2, &err);
		if (r >= 0 || !strstr(err.msg, cases[i].msg)) {
			print_error("case %zu: r=%d msg='%s' (want '%s')\n", i, r, err.msg, cases[i].msg);
			fail();
		}
		assert_string_equal(err.file, "r.json");
		/* nothing left allocated on failure */
		assert_null(cfg[0].m);
		assert_null(cfg[1].m);
	}
	struct il_result_metric empty = { .n = 0 };
	assert_true(isnan(il_result_mean(&empty)));
}

/* Errors name the line: of the syntax error, or of the offending element. */
static void lines(void **unused)
{
	(void)unused;
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} cases[] = {
		{ "{\n\"idlelab\": \"sim\",\n\"configs\": [\n", 4, "truncated" },
		{ "{\n\"idlelab\": \"sim\",\n\"configs\": [ }\n", 3, "cannot read it as JSON" },
		{ "{\"idlelab\": \"sim\", \"configs\": [\n"
		  " {\"governor\": \"g\", \"metrics\": []},\n"
		  " {\"governor\": \"h\", \"metrics\": [\n"
		  "  {\"row\": \"\", \"col\": \"a\", \"values\": [1]},\n"
		  "  {\"row\": \"\", \"col\": \"b\", \"values\": [1]},\n"
		  "  {\"row\": \"\", \"values\": [1]}]}]}\n", 6, "configuration 2, metric 3 is malformed" },
		{ "{\"idlelab\": \"sim\", \"configs\": [\n"
		  " {\"governor\": \"g\", \"x\": \"{[\\\"]\", \"metrics\": [\n"
		  "  {\"row\": \"\", \"col\": \"a\",\n"
		  "   \"values\": [1, 2, {}]}]}]}\n", 4, "value 3 is not a number" },
		{ "{\"idlelab\": \"sim\", \"configs\": [\n {\"metrics\": []}]}", 2,
		  "configuration 1 has no governor" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct il_result_config cfg[2];
		struct il_err err;
		memset(cfg, 0, sizeof(cfg));
		int r = parse(cases[i].text, cfg, 2, &err);
		if (r >= 0 || err.line != cases[i].line || !strstr(err.msg, cases[i].msg)) {
			print_error("case %zu: r=%d line %d msg='%s' (want line %d, '%s')\n", i, r,
				    err.line, err.msg, cases[i].line, cases[i].msg);
			fail();
		}
	}
}


/* The results format: the number 1, required (D13). */
static void format(void **unused)
{
	(void)unused;
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} cases[] = {
		{ "{\"idlelab\": \"sim\",\n\"format\": 2,\n\"configs\": []}", 2,
		  "results of format 2 (this idlelab reads format 1)" },
		{ "{\"idlelab\": \"sim\",\n\"format\": \"1\",\n\"configs\": []}", 2,
		  "the results format is not a number (this idlelab reads format 1)" },
		{ "{\"idlelab\": \"sim\",\n\"format\": 1.5,\n\"configs\": []}", 2, "results of format 1.5" },
		{ "\n{\"idlelab\": \"sim\",\n\"configs\": []}", 2,
		  "no results format (this idlelab reads format 1)" },
		/* a format that is not this one is said before its configurations are read */
		{ "{\"idlelab\": \"sim\", \"format\": 0, \"configs\": [{}, ", 1, "results of format 0" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct il_result_config cfg[2];
		struct il_err err;
		memset(cfg, 0, sizeof(cfg));
		int r = parse(cases[i].text, cfg, 2, &err);
		if (r >= 0 || err.line != cases[i].line || !strstr(err.msg, cases[i].msg)) {
			print_error("case %zu: r=%d line %d msg='%s' (want line %d, '%s')\n", i, r,
				    err.line, err.msg, cases[i].line, cases[i].msg);
			fail();
		}
	}
}

/* The limit on configurations is met while reading, and counts earlier files (D8, D13). */
static void limit(void **unused)
{
	(void)unused;
	char text[8192];
	struct il_result_config cfg[16];
	struct il_err err;
	int off = snprintf(text, sizeof(text), "{\"idlelab\": \"sim\", \"format\": 1, \"configs\": [\n");

	for (int i = 0; i < 16; i++)
		off += snprintf(text + off, sizeof(text) - (size_t)off,
				"{\"governor\": \"g%d\", \"metrics\": []},\n", i);
	/* the 17th is refused at its line, whatever follows (here: the end of the text) */
	snprintf(text + off, sizeof(text) - (size_t)off, "{\"governor\": \"x\", \"metr");
	memset(cfg, 0, sizeof(cfg));
	assert_true(il_results_parse(text, strlen(text), "r.json", cfg, 0, 16, &err) < 0);
	assert_int_equal(err.line, 18);
	assert_string_equal(err.msg, "too many configurations in all (at most 16)");
	assert_null(cfg[0].m);

	/* with 10 from earlier files, the 7th of this one is one too many */
	assert_true(il_results_parse(text, strlen(text), "r.json", cfg, 10, 16, &err) < 0);
	assert_int_equal(err.line, 8);
	assert_string_equal(err.msg, "too many configurations in all (at most 16)");

	/* a 17th file: its first configuration, with the right count */
	const char *one = "{\"idlelab\": \"sim\", \"format\": 1, \"configs\": [\n"
			  "{\"governor\": \"g\", \"metrics\": []}]}";
	assert_true(il_results_parse(one, strlen(one), "17.json", cfg, 16, 16, &err) < 0);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "too many configurations in all (at most 16)");
	assert_int_equal(il_results_parse(one, strlen(one), "16.json", cfg, 15, 16, &err), 1);
	assert_string_equal(cfg[15].governor, "g");
	assert_string_equal(cfg[15].file, "16.json");
	assert_int_equal(cfg[15].index, 1);
	il_results_free(cfg + 15, 1);
}

/* What the reader decodes, and what strict JSON it refuses. */
static void json(void **unused)
{
	(void)unused;
	struct il_result_config cfg[2];
	struct il_err err;
	const char *t = "{\"runs\": 3, \"platform\": \"p\\u00e9\", \"workload_options\": \"mean=1us\","
			" \"configs\": [{\"metrics\": [{\"values\": [1], \"row\": \"a\\\"b\\\\\\/\","
			" \"col\": \"\\ud83d\\ude00\\ud800\", \"throughput\": true, \"values\": [2e1, -0.5E-1, null]}],"
			" \"governor\": \"first\", \"governor\": \"last\", \"x\": [[[{}]]]}],"
			" \"idlelab\": \"sim\", \"format\": 1, \"workload\": \"w\"}\n";

	assert_int_equal(parse(t, cfg, 2, &err), 1);
	assert_string_equal(cfg[0].governor, "last");     /* the last of a repeated member */
	assert_string_equal(cfg[0].platform, "p\xc3\xa9");
	assert_string_equal(cfg[0].workload, "w");        /* members after the configurations */
	assert_string_equal(cfg[0].workload_options, "mean=1us");
	assert_int_equal(cfg[0].runs, 3);
	assert_string_equal(cfg[0].m[0].row, "a\"b\\/");
	assert_string_equal(cfg[0].m[0].col, "\xf0\x9f\x98\x80\xef\xbf\xbd"); /* pair, lone surrogate */
	assert_true(cfg[0].m[0].throughput);
	assert_int_equal(cfg[0].m[0].n, 2);
	assert_true(cfg[0].m[0].values[0] == 20 && cfg[0].m[0].values[1] == -0.05);
	il_results_free(cfg, 1);

	/* a high surrogate followed by another escape that is not its pair */
	const char *sur = "{\"idlelab\": \"sim\", \"format\": 1, \"configs\": [{\"governor\":"
			  " \"\\ud800\\u0041\\ud800\\n\\ud83d\", \"metrics\": []}]}";
	assert_int_equal(parse(sur, cfg, 2, &err), 1);
	assert_string_equal(cfg[0].governor, "\xef\xbf\xbd" "A" "\xef\xbf\xbd\n\xef\xbf\xbd");
	il_results_free(cfg, 1);

	/* a long name is cut at a character boundary */
	char longname[200];
	memset(longname, 0, sizeof(longname));
	strcpy(longname, "{\"idlelab\": \"sim\", \"format\": 1, \"configs\": [{\"governor\": \"");
	for (int i = 0; i < 40; i++)
		strcat(longname, "\xc3\xa9"); /* 80 bytes */
	strcat(longname, "\", \"metrics\": [{\"row\": \"");
	char text[400];
	snprintf(text, sizeof(text), "%s%s\", \"col\": \"\", \"values\": []}]}]}", longname,
		 "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
		 "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
		 "\xe2\x82\xac\xe2\x82\xac"); /* 14 euro signs, 42 bytes, into 40 */
	/* a metric's name is not cut: two names alike in 39 bytes would be one metric */
	assert_true(parse(text, cfg, 2, &err) < 0);
	assert_non_null(strstr(err.msg, "a metric's row is longer than 39 bytes"));
	/* other text is cut, at a character boundary (platform: 63 bytes, as a name's most) */
	snprintf(text, sizeof(text), "{\"idlelab\": \"sim\", \"format\": 1, \"platform\": \"%s%s\", "
		 "\"configs\": [{\"governor\": \"g\", \"metrics\": []}]}",
		 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
		 "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
		 "\xe2\x82\xac\xe2\x82\xac"); /* 40 + 24 bytes */
	assert_int_equal(parse(text, cfg, 2, &err), 1);
	assert_int_equal(strlen(cfg[0].platform), 61);  /* the euro sign that did not fit whole */
	il_results_free(cfg, 1);

#define C1 "{\"governor\": \"g\", \"metrics\": []}"
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} bad[] = {
		{ "{\"idlelab\": \"sim\", \"format\": 01}", 1, "cannot read it as JSON" },
		{ "{\"idlelab\": \"sim\", \"format\": 1.}", 1, "a bad number" },
		{ "{\"idlelab\": \"sim\", \"format\": -}", 1, "a bad number" },
		{ "{\"idlelab\": \"sim\", \"format\": 1, \"x\": \"a\nb\"}", 1, "a control character" },
		{ "{\"idlelab\": \"sim\", \"format\": 1, \"x\": \"\\q\"}", 1, "a bad escape" },
		{ "{\"idlelab\": \"sim\", \"format\": 1, \"x\": \"\\u12g4\"}", 1, "a bad \\u escape" },
		{ "{\"idlelab\": \"sim\", \"format\": 1, \"x\": tru}", 1, "an unexpected character" },
		{ "{\"idlelab\": \"sim\", \"format\": 1, \"x\": [1,]}", 1, "an unexpected character" },
		{ "{\"idlelab\": \"sim\", \"format\": 1,}", 1, "a member name expected" },
		{ "{\"idlelab\": \"sim\",\n\"format\" 1}", 2, "':' expected" },
		{ "{\"idlelab\": \"sim\", \"format\": 1 \"x\": 2}", 1, "',' or '}' expected" },
		{ "{\"idlelab\": \"sim\", \"format\": 1, \"configs\": [\n{\"governor\": \"g\","
		  " \"metrics\": [0 {}]}]}", 2, "',' or ']' expected" },
		{ "{\"idlelab\": \"sim\", \"format\": 1, \"x\": 1e99999, \"configs\": [" C1 "]}",
		  0, NULL },
		{ "{\"idlelab\": \"sim\", \"format\": 1, \"configs\": [" C1 "]}\0", 0, NULL },
		{ "{\"idlelab\": \"sim\", \"format\": 1, \"configs\": []}\n\n}", 3,
		  "text after the end of the value" },
		/* idlelab sim writes one configuration at least (plot took the first of none) */
		{ "{\"idlelab\": \"sim\",\n\"format\": 1, \"configs\": []}", 1, "no configurations" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i].text) + (i == 13); /* a trailing NUL is allowed */
		memset(cfg, 0, sizeof(cfg));
		int r = il_results_parse(bad[i].text, len, "r.json", cfg, 0, 2, &err);
		bool want_ok = !bad[i].msg;
		if (want_ok ? r < 0 : r >= 0 || err.line != bad[i].line ||
					 !strstr(err.msg, bad[i].msg)) {
			print_error("case %zu: r=%d line %d msg='%s' (want line %d, '%s')\n", i, r,
				    err.line, err.msg, bad[i].line, bad[i].msg ? bad[i].msg : "ok");
			fail();
		}
		if (r > 0)
			il_results_free(cfg, r);
	}

	/* nesting is bounded (64), not the stack */
	char deep[400];
	int off = snprintf(deep, sizeof(deep), "{\"idlelab\": \"sim\", \"format\": 1, \"x\": ");
	for (int i = 0; i < 100; i++)
		deep[off++] = '[';
	deep[off] = '\0';
	assert_true(parse(deep, cfg, 2, &err) < 0);
	assert_non_null(strstr(err.msg, "nested too deep"));
}

/* A metric with no values is not 0: its summary and differences are n/a (D13). */
static void no_values(void **unused)
{
	(void)unused;
	double v[] = { 1, 2 };
	struct il_result_metric none = { .n = 0 }, some = { .n = 2, .values = v };
	struct il_result_diff d;

	assert_true(isnan(il_result_summary(&none)));
	il_result_diff(&some, &none, &d);
	assert_true(isnan(d.value) && isnan(d.diff_pct) && isnan(d.p));
	assert_int_equal(d.sig, IL_SIG_NONE);
	il_result_diff(&none, &some, &d);
	assert_true(isnan(d.base) && isnan(d.diff_pct));
}

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

/* Two-sided p-values of Student's t, against closed forms (df 1 and 2). */
static void student_t(void **unused)
{
	(void)unused;
	/* df = 1 (Cauchy): p = 1 - 2 atan(|t|) / pi */
	NEAR(il_student_t_p(1, 1), 0.5, 1e-12);
	NEAR(il_student_t_p(-4, 1), 1 - 2 * atan(4) / M_PI, 1e-12);
	/* df = 2: p = 1 - |t| / sqrt(t^2 + 2) */
	NEAR(il_student_t_p(3 / sqrt(2), 2), 1 - (3 / sqrt(2)) / sqrt(4.5 + 2), 1e-12);
	NEAR(il_student_t_p(0.1, 2), 1 - 0.1 / sqrt(2.01), 1e-12);
	/* the 97.5 % quantiles of the usual tables give p = 0.05 */
	NEAR(il_student_t_p(12.706, 1), 0.05, 1e-4);
	NEAR(il_student_t_p(2.776, 4), 0.05, 1e-4);
	NEAR(il_student_t_p(2.042, 30), 0.05, 1e-4);
	NEAR(il_student_t_p(1.960, 1e7), 0.05, 1e-4);
	NEAR(il_student_t_p(0, 3), 1, 1e-12);
	assert_true(il_student_t_p(INFINITY, 3) == 0);
	assert_true(isnan(il_student_t_p(1, 0)));
}

/* Welch's test: a hand-computed case, too few runs, and no variance on either side. */
static void welch(void **unused)
{
	(void)unused;
	double a[] = { 0, 2 }, b[] = { 3, 5 }, c[] = { 5, 5 }, e[] = { 7, 7, 7 }, one[] = { 9 };
	struct il_result_metric ma = { .n = 2, .values = a }, mb = { .n = 2, .values = b },
				mc = { .n = 2, .values = c }, me = { .n = 3, .values = e },
				m1 = { .n = 1, .values = one };
	struct il_result_diff d;

	/* variances 2 and 2 over 2 runs: t = 3 / sqrt(1 + 1), df = 2 */
	il_result_diff(&ma, &mb, &d);
	NEAR(d.t, 3 / sqrt(2), 1e-12);
	NEAR(d.df, 2, 1e-12);
	NEAR(d.p, 1 - (3 / sqrt(2)) / sqrt(6.5), 1e-12);
	NEAR(d.diff_pct, 300, 1e-12);
	assert_int_equal(d.sig, IL_SIG_NOT_SIGNIFICANT);
	/* one side without spread: df = 1, t = (5 - 1) / 1 */
	il_result_diff(&ma, &mc, &d);
	NEAR(d.df, 1, 1e-12);
	NEAR(d.p, 1 - 2 * atan(4) / M_PI, 1e-12);
	/* both without spread: identical runs, a difference but no test */
	il_result_diff(&mc, &me, &d);
	assert_int_equal(d.sig, IL_SIG_NO_VARIANCE);
	NEAR(d.diff_pct, 40, 1e-12);
	assert_true(isnan(d.p));
	il_result_diff(&mc, &mc, &d);
	assert_int_equal(d.sig, IL_SIG_NO_VARIANCE);
	assert_true(d.diff_pct == 0);
	/* fewer than 2 runs on a side */
	il_result_diff(&ma, &m1, &d);
	assert_int_equal(d.sig, IL_SIG_NONE);
	NEAR(d.diff_pct, 800, 1e-12);
	/* far apart with spread: significant */
	double f[] = { 100, 101, 102 }, g[] = { 200, 201, 199 };
	struct il_result_metric mf = { .n = 3, .values = f }, mg = { .n = 3, .values = g };
	il_result_diff(&mf, &mg, &d);
	assert_int_equal(d.sig, IL_SIG_SIGNIFICANT);
	assert_true(d.p < 1e-4);
}

/* A file is read in chunks: the same configurations as from memory, errors at the same lines. */
static void load_chunks(void **unused)
{
	(void)unused;
	size_t cap = 1 << 20, n = 0;
	char *t = malloc(cap), path[64];
	struct il_result_config a[16], b[16];
	struct il_err ea, eb;

	n += (size_t)snprintf(t + n, cap - n, "{\"idlelab\": \"sim\", \"format\": 1, \"configs\": [\n");
	for (int c = 0; c < 4; c++) {
		n += (size_t)snprintf(t + n, cap - n, "%s{\"governor\": \"g%d\", \"metrics\": [\n",
				      c ? "," : "", c);
		for (int k = 0; k < 1500; k++)
			n += (size_t)snprintf(t + n, cap - n,
					      "%s{\"row\": \"r%d\", \"col\": \"c\", \"unit\": \"us\","
					      " \"values\": [%d.25, %d, 1e-3]}\n", k ? "," : "", k, k, c);
		n += (size_t)snprintf(t + n, cap - n, "]}\n");
	}
	n += (size_t)snprintf(t + n, cap - n, "]}\n");
	assert_true(n > 3 * 65536);
	for (int pass = 0; pass < 2; pass++) {
		snprintf(path, sizeof(path), "/tmp/idlelab-test-results-XXXXXX");
		int fd = mkstemp(path);
		assert_true(fd >= 0);
		FILE *f = fdopen(fd, "w");
		assert_int_equal(fwrite(t, 1, n, f), n);
		fclose(f);
		int ra = il_results_parse(t, n, path, a, 0, 16, &ea);
		int rb = il_results_load(path, b, 0, 16, &eb);
		unlink(path);
		assert_int_equal(ra, rb);
		if (pass == 0) {
			assert_int_equal(ra, 4);
			for (int c = 0; c < 4; c++) {
				assert_string_equal(a[c].governor, b[c].governor);
				assert_int_equal(a[c].nmetrics, 1500);
				assert_int_equal(b[c].nmetrics, 1500);
				for (int k = 0; k < 1500; k++) {
					assert_string_equal(a[c].m[k].row, b[c].m[k].row);
					assert_int_equal(b[c].m[k].n, 3);
					assert_memory_equal(a[c].m[k].values, b[c].m[k].values,
							    3 * sizeof(double));
				}
			}
			il_results_free(a, 4);
			il_results_free(b, 4);
			/* break it near the end: the line is counted across the chunks */
			memcpy(t + n - 40, "{{", 2);
		} else {
			assert_true(ra < 0);
			assert_int_equal(ea.line, eb.line);
			assert_string_equal(ea.msg, eb.msg);
			assert_true(ea.line > 2000);
		}
	}
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good),     cmocka_unit_test(bad),       cmocka_unit_test(lines),
		cmocka_unit_test(format),   cmocka_unit_test(limit),     cmocka_unit_test(json),
		cmocka_unit_test(no_values), cmocka_unit_test(student_t), cmocka_unit_test(welch),   cmocka_unit_test(load_chunks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
