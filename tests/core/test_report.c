// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output as it leaves idlelab: the JSON writer (layout, escapes, valid UTF-8,
 * numbers, misuse), text escaped for terminals, CSV fields, and tables in
 * their three formats (include/idlelab/json.h, report.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/json.h"
#include "idlelab/report.h"

/* A memory stream and what was written to it. */
struct mem {
	FILE *f;
	char *buf;
	size_t len;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
}

static const char *mem_text(struct mem *m)
{
	fflush(m->f);
	return m->buf;
}

static void mem_close(struct mem *m)
{
	fclose(m->f);
	free(m->buf);
}

/* The layouts every JSON output of idlelab uses (sim, info, replay, tables). */
static void json_layout(void **unused)
{
	(void)unused;
	struct mem m;
	struct il_json w;

	mem_open(&m);
	il_json_init(&w, m.f);
	il_json_object(&w, IL_JSON_BLOCK);
	il_json_kstring(&w, "a", "x");
	il_json_key(&w, "e");
	il_json_object(&w, IL_JSON_INLINE);
	il_json_kint(&w, "n", -3);
	il_json_kbool(&w, "b", true);
	il_json_end(&w);
	il_json_key(&w, "list");
	il_json_array(&w, IL_JSON_BLOCK);
	il_json_object(&w, IL_JSON_INLINE);
	il_json_kuint(&w, "u", 18446744073709551615ull);
	il_json_key(&w, "inner");
	il_json_array(&w, IL_JSON_BLOCK);
	il_json_null(&w);
	il_json_end(&w);
	il_json_end(&w);
	il_json_array(&w, IL_JSON_INLINE);
	il_json_double(&w, 0.5);
	il_json_double(&w, 1.0 / 256);
	il_json_end(&w);
	il_json_end(&w);
	il_json_key(&w, "empty");
	il_json_array(&w, IL_JSON_BLOCK);
	il_json_end(&w);
	il_json_key(&w, "none");
	il_json_object(&w, IL_JSON_INLINE);
	il_json_end(&w);
	il_json_end(&w);
	assert_int_equal(il_json_finish(&w), 0);
	assert_string_equal(mem_text(&m),
			    "{\n"
			    "  \"a\": \"x\",\n"
			    "  \"e\": {\"n\": -3, \"b\": true},\n"
			    "  \"list\": [\n"
			    "    {\"u\": 18446744073709551615, \"inner\": [\n"
			    "      null\n"
			    "    ]},\n"
			    "    [0.5, 0.00390625]\n"
			    "  ],\n"
			    "  \"empty\": [],\n"
			    "  \"none\": {}\n"
			    "}\n");
	mem_close(&m);
}

static void json_string_of(const char *in, const char *want)
{
	struct mem m;

	mem_open(&m);
	il_json_write_string(m.f, in);
	if (strcmp(mem_text(&m), want)) {
		print_error("'%s' gave '%s', want '%s'\n", in, m.buf, want);
		fail();
	}
	mem_close(&m);
}

/* D10: every string is valid UTF-8, whatever bytes a name holds. */
static void json_strings(void **unused)
{
	(void)unused;
	json_string_of("plain", "\"plain\"");
	json_string_of("q\"b\\s", "\"q\\\"b\\\\s\"");
	json_string_of("\n\t\r\x01\x1b\x7f", "\"\\n\\t\\r\\u0001\\u001b\x7f\"");
	json_string_of("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* not UTF-8: one U+FFFD per byte */
	json_string_of("C\xff\xfe" "1", "\"C\\ufffd\\ufffd1\"");
	json_string_of("\xc3", "\"\\ufffd\"");                    /* cut short */
	json_string_of("\xc0\xaf", "\"\\ufffd\\ufffd\"");         /* overlong */
	json_string_of("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""); /* overlong */
	json_string_of("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* surrogate */
	json_string_of("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
	json_string_of("\x80x", "\"\\ufffdx\"");                  /* lone continuation */
	json_string_of("\xe2\x82", "\"\\ufffd\\ufffd\"");
	json_string_of("", "\"\"");
}

static void json_numbers(void **unused)
{
	(void)unused;
	struct mem m;
	struct il_json w;

	mem_open(&m);
	il_json_init(&w, m.f);
	il_json_array(&w, IL_JSON_INLINE);
	il_json_double(&w, NAN);
	il_json_double(&w, INFINITY);
	il_json_double(&w, -INFINITY);
	il_json_double(&w, 0.1);
	il_json_double(&w, 1e300);
	il_json_number_text(&w, "12.50");
	il_json_number_text(&w, "-0");
	il_json_number_text(&w, "inf");
	il_json_number_text(&w, "nan");
	il_json_number_text(&w, "1.");
	il_json_number_text(&w, "01");
	il_json_number_text(&w, "2e-3");
	il_json_string(&w, NULL);
	il_json_end(&w);
	assert_int_equal(il_json_finish(&w), 0);
	assert_string_equal(mem_text(&m), "[null, null, null, 0.10000000000000001, 1.0000000000000001e+300, "
					  "12.50, -0, null, null, null, null, 2e-3, null]\n");
	mem_close(&m);

	static const struct {
		const char *t;
		bool ok;
	} nums[] = {
		{ "0", true }, { "-1", true }, { "1.5e+10", true }, { "1E5", true },
		{ "", false }, { "-", false }, { "+1", false }, { ".5", false }, { "1e", false },
		{ "0x10", false }, { "1 ", false }, { "NaN", false },
	};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (il_json_is_number(nums[i].t) != nums[i].ok) {
			print_error("'%s'\n", nums[i].t);
			fail();
		}
}

/* Misuse writes nothing more and makes finish fail. */
static void json_misuse(void **unused)
{
	(void)unused;
	struct mem m;
	struct il_json w;

	mem_open(&m);
	il_json_init(&w, m.f);
	il_json_object(&w, IL_JSON_INLINE);
	il_json_int(&w, 1); /* a value without a key */
	assert_int_equal(il_json_finish(&w), -EINVAL);
	mem_close(&m);

	mem_open(&m);
	il_json_init(&w, m.f);
	il_json_array(&w, IL_JSON_INLINE);
	il_json_key(&w, "k"); /* a key in an array */
	il_json_end(&w);
	assert_int_equal(il_json_finish(&w), -EINVAL);
	assert_string_equal(mem_text(&m), "[");
	mem_close(&m);

	mem_open(&m);
	il_json_init(&w, m.f);
	il_json_array(&w, IL_JSON_INLINE); /* still open */
	assert_int_equal(il_json_finish(&w), -EINVAL);
	mem_close(&m);

	mem_open(&m);
	il_json_init(&w, m.f);
	il_json_null(&w);
	il_json_null(&w); /* a second document */
	il_json_end(&w);  /* nothing open */
	assert_int_equal(il_json_finish(&w), -EINVAL);
	mem_close(&m);

	mem_open(&m);
	il_json_init(&w, m.f);
	for (int i = 0; i <= IL_JSON_DEPTH_MAX; i++)
		il_json_array(&w, IL_JSON_INLINE);
	assert_int_equal(il_json_finish(&w), -EINVAL);
	mem_close(&m);

	mem_open(&m);
	il_json_init(&w, m.f);
	assert_int_equal(il_json_finish(&w), -EINVAL); /* nothing written */
	mem_close(&m);
}

static void text_of(const char *in, const char *want)
{
	char *e = il_text_escape(in);
	if (strcmp(e, want)) {
		print_error("'%s' gave '%s', want '%s'\n", in, e, want);
		fail();
	}
	free(e);
}

/* D15: what a terminal acts on is escaped; printable UTF-8 is kept. */
static void text_escapes(void **unused)
{
	(void)unused;
	text_of("C1E", "C1E");
	text_of("\x1b[31mred\x1b[0m", "\\e[31mred\\e[0m");
	text_of("a\nb\rc\td", "a\\nb\\rc\\td");
	text_of("\x01\x07\x08\x7f", "\\x01\\x07\\x08\\x7f");
	text_of("back\\slash", "back\\\\slash");
	text_of("\xc2\x9b" "2J", "\\u009b2J");        /* C1 CSI as UTF-8 */
	text_of("\xc2\x85", "\\u0085");               /* NEL */
	text_of("\x9b" "2J", "\\x9b2J");              /* C1 CSI as a raw byte: not UTF-8 */
	text_of("caf\xc3\xa9 \xc2\xa0", "caf\xc3\xa9 \xc2\xa0"); /* é, no-break space */
	text_of("C\xff\xfe", "C\\xff\\xfe");
	text_of("\xed\xa0\x80", "\\xed\\xa0\\x80");
	text_of("", "");

	char buf[12];
	assert_string_equal(il_text_esc("short", buf, sizeof(buf)), "short");
	assert_string_equal(il_text_esc("0123456789ab", buf, sizeof(buf)), "01234567...");
	/* cut at a whole escape, never inside one */
	assert_string_equal(il_text_esc("012345\x1b\x1b\x1b", buf, sizeof(buf)), "012345\\e...");
	/* and never inside a character */
	assert_string_equal(il_text_esc("0123456\xc3\xa9xyz", buf, sizeof(buf)), "0123456...");

	struct mem m;
	mem_open(&m);
	il_text_fputs_lines("line 1\nline\x1b 2\n", m.f);
	assert_string_equal(mem_text(&m), "line 1\nline\\e 2\n");
	mem_close(&m);
}

static void csv_of(const char *in, const char *want)
{
	struct mem m;

	mem_open(&m);
	il_csv_field(in, m.f);
	if (strcmp(mem_text(&m), want)) {
		print_error("'%s' gave '%s', want '%s'\n", in, m.buf, want);
		fail();
	}
	mem_close(&m);
}

static void csv_fields(void **unused)
{
	(void)unused;
	csv_of("plain", "plain");
	csv_of("a,b", "\"a,b\"");
	csv_of("say \"hi\"", "\"say \"\"hi\"\"\"");
	csv_of("two\nlines", "\"two\nlines\"");
	csv_of("cr\r", "\"cr\r\"");
	csv_of("C\xff", "C\xef\xbf\xbd");              /* valid UTF-8 for pandas */
	csv_of("\"\xff\"", "\"\"\"\xef\xbf\xbd\"\"\"");
	csv_of("", "");
}

static struct il_table *sample(void)
{
	struct il_table *t = il_table_new("t\x1b[2J");
	il_table_col(t, "name");
	il_table_col(t, "n");
	il_table_col(t, "x");
	il_table_row(t);
	il_table_str(t, "P\x1bOLL");
	il_table_i64(t, 1);
	il_table_dbl(t, 1.5, 2);
	il_table_row(t);
	il_table_str(t, "caf\xc3\xa9,\xff");
	il_table_u64(t, 22);
	il_table_dbl(t, INFINITY, 2);
	il_table_row(t);
	il_table_na(t);
	il_table_na(t);
	il_table_dbl(t, NAN, 2);
	return t;
}

static void table_formats(void **unused)
{
	(void)unused;
	struct il_table *t = sample();
	struct mem m;

	mem_open(&m);
	assert_int_equal(il_table_print(t, IL_FORMAT_TABLE, m.f), 0);
	/* escaped, aligned by characters: "café" is 4 columns, "\\e" 2 */
	assert_string_equal(mem_text(&m), "t\\e[2J\n"
					  "name       n    x\n"
					  "P\\eOLL       1  1.50\n"
					  "caf\xc3\xa9,\\xff   22  n/a\n"
					  "n/a        n/a  n/a\n");
	mem_close(&m);

	mem_open(&m);
	assert_int_equal(il_table_print(t, IL_FORMAT_CSV, m.f), 0);
	assert_string_equal(mem_text(&m), "name,n,x\n"
					  "P\x1bOLL,1,1.50\n"
					  "\"caf\xc3\xa9,\xef\xbf\xbd\",22,\n"
					  ",,\n");
	mem_close(&m);

	mem_open(&m);
	assert_int_equal(il_table_print(t, IL_FORMAT_JSON, m.f), 0);
	assert_string_equal(mem_text(&m), "[\n"
					  "  {\"name\": \"P\\u001bOLL\", \"n\": 1, \"x\": 1.50},\n"
					  "  {\"name\": \"caf\xc3\xa9,\\ufffd\", \"n\": 22, \"x\": null},\n"
					  "  {\"name\": null, \"n\": null, \"x\": null}\n"
					  "]\n");
	mem_close(&m);
	il_table_free(t);

	t = il_table_new(NULL);
	il_table_col(t, "a");
	mem_open(&m);
	assert_int_equal(il_table_print(t, IL_FORMAT_JSON, m.f), 0);
	assert_string_equal(mem_text(&m), "[]\n");
	mem_close(&m);
	il_table_free(t);
}

/* A text table wider than IL_TABLE_WIDTH: even slices, each with the keys. */
static void table_slices(void **unused)
{
	(void)unused;
	struct il_table *t = il_table_new("wide");
	char cell[32];
	struct mem m;

	/* keys 3 + 2 and 5 + 2 columns, six of 18 + 2: 130 columns in all; four fit
	 * in 100, so two slices, and three in each fit in 70 */
	il_table_keys(t, 2);
	il_table_col(t, "cpu");
	il_table_col(t, "state");
	for (int i = 1; i <= 6; i++) {
		snprintf(cell, sizeof(cell), "c%d", i);
		il_table_col(t, cell);
	}
	il_table_row(t);
	il_table_i64(t, 0);
	il_table_str(t, "C1");
	for (int i = 0; i < 6; i++) {
		memset(cell, 'a' + i, 17);
		snprintf(cell + 17, sizeof(cell) - 17, "%d", i + 1);
		il_table_str(t, cell);
	}
	mem_open(&m);
	assert_int_equal(il_table_print(t, IL_FORMAT_TABLE, m.f), 0);
	assert_string_equal(mem_text(&m), "wide\n"
		"cpu  state  c1                  c2                  c3\n"
		"  0  C1     aaaaaaaaaaaaaaaaa1  bbbbbbbbbbbbbbbbb2  ccccccccccccccccc3\n\n"
		"cpu  state  c4                  c5                  c6\n"
		"  0  C1     ddddddddddddddddd4  eeeeeeeeeeeeeeeee5  fffffffffffffffff6\n");
	mem_close(&m);
	/* CSV is one table whatever its width */
	mem_open(&m);
	assert_int_equal(il_table_print(t, IL_FORMAT_CSV, m.f), 0);
	assert_int_equal(strncmp(mem_text(&m), "cpu,state,c1,c2,c3,c4,c5,c6\n0,C1,", 33), 0);
	mem_close(&m);
	il_table_free(t);

	/* 100 columns exactly: one table; one column wider than the limit: a slice of
	 * its own; no keys: nothing repeated */
	t = il_table_new(NULL);
	il_table_keys(t, 0);
	il_table_col(t, "a");
	il_table_col(t, "b");
	il_table_row(t);
	char wide[120];
	memset(wide, 'x', 97);
	wide[97] = 0;
	il_table_str(t, "y");
	il_table_str(t, wide);
	mem_open(&m);
	assert_int_equal(il_table_print(t, IL_FORMAT_TABLE, m.f), 0);
	assert_int_equal(strlen(mem_text(&m)), 5 + 101); /* "a  b", "y  xx...x": 100 wide */
	mem_close(&m);
	memset(wide, 'x', 110);
	wide[110] = 0;
	il_table_row(t);
	il_table_str(t, "z");
	il_table_str(t, wide);
	mem_open(&m);
	assert_int_equal(il_table_print(t, IL_FORMAT_TABLE, m.f), 0);
	assert_non_null(strstr(mem_text(&m), "a\ny\nz\n\nb"));
	mem_close(&m);
	il_table_free(t);
}

static void fold_of(const char *in, int width, const char *want)
{
	struct mem m;

	mem_open(&m);
	il_text_fold(in, width, m.f);
	assert_string_equal(mem_text(&m), want);
	mem_close(&m);
}

/* Lines past the width folded at spaces, under the value of "key: value". */
static void text_fold(void **unused)
{
	(void)unused;
	fold_of("short\nkey: one two\n", 20, "short\nkey: one two\n");
	/* 20 columns: "key: one two three" is 18, "four" would make 23 */
	fold_of("key: one two three four five", 20, "key: one two three\n     four five\n");
	/* no ": ", or past half the width: the line's indent plus two */
	fold_of("  aaaa bbbb cccc dddd", 12, "  aaaa bbbb\n    cccc\n    dddd\n");
	fold_of("a long key here: x y z w", 12, "a long key\n  here: x y\n  z w\n");
	/* a word longer than a line stays whole; spaces inside a line are kept */
	fold_of("k: xxxxxxxxxxxxxxx y", 10, "k: xxxxxxxxxxxxxxx\n   y\n");
	fold_of("a  b", 10, "a  b\n");
	/* characters, not bytes: "é" is one column */
	fold_of("k: \xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9", 9,
		"k: \xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9\n");
	fold_of("\n\n", 5, "\n\n");
}

static void formats(void **unused)
{
	(void)unused;
	enum il_format f;
	assert_int_equal(il_format_parse("TABLE", &f), 0);
	assert_int_equal(f, IL_FORMAT_TABLE);
	assert_int_equal(il_format_parse("text", &f), 0);
	assert_int_equal(f, IL_FORMAT_TABLE);
	assert_int_equal(il_format_parse("csv", &f), 0);
	assert_int_equal(f, IL_FORMAT_CSV);
	assert_int_equal(il_format_parse("Json", &f), 0);
	assert_int_equal(f, IL_FORMAT_JSON);
	assert_int_equal(il_format_parse("xml", &f), -EINVAL);
	assert_string_equal(il_format_name(IL_FORMAT_CSV), "csv");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_layout),  cmocka_unit_test(json_strings),
		cmocka_unit_test(json_numbers), cmocka_unit_test(json_misuse),
		cmocka_unit_test(text_escapes), cmocka_unit_test(csv_fields),
		cmocka_unit_test(table_formats), cmocka_unit_test(table_slices),
		cmocka_unit_test(text_fold),
		cmocka_unit_test(formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
