// SPDX-License-Identifier: GPL-2.0-only
/* The reader of simulation results (include/idlelab/results.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "idlelab/results.h"

static int parse(const char *text, struct il_result_config *cfg, int room, struct il_err *err)
{
	return il_results_parse(text, strlen(text), "r.json", cfg, room, err);
}

static void good(void **unused)
{
	(void)unused;
	struct il_result_config cfg[4];
	struct il_err err;
	const char *t = "{\"idlelab\": \"sim\", \"workload\": \"pingpong\", \"configs\": ["
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

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(good), cmocka_unit_test(bad),
					    cmocka_unit_test(lines) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
