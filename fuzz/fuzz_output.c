// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: what leaves idlelab. The input's bytes, split at NUL
 * into strings, go through the JSON string escape, the terminal escape, a
 * CSV field and a table in all three formats; the first byte of each
 * string also drives the JSON writer (open, key, value, close, in any
 * order). Checks: JSON the writer says is complete parses (json-c) and
 * gives valid UTF-8 strings back, equal to the input where that was valid
 * UTF-8; escaped text holds no control character and is valid UTF-8; CSV
 * is valid UTF-8.
 */
#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/json.h"
#include "idlelab/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Is s (n bytes) valid UTF-8 (RFC 3629)? */
static bool utf8_ok(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i], cp, len;
		if (c < 0x80) {
			i++;
			continue;
		}
		len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
		if (c < 0xc2 || c > 0xf4 || i + len > n)
			return false;
		cp = c & (0x7fu >> len);
		for (unsigned k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += len;
	}
	return true;
}

/* Escaped text: UTF-8 without C0 (but line feeds where allowed), DEL or C1. */
static void check_text(const char *t, bool lines)
{
	const unsigned char *p = (const unsigned char *)t;
	size_t n = strlen(t);

	if (!utf8_ok(p, n))
		abort();
	for (size_t i = 0; i < n; i++) {
		if ((p[i] < 0x20 && !(lines && p[i] == '\n')) || p[i] == 0x7f)
			abort();
		if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
			abort();
	}
}

static void check_json_string(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	il_json_write_string(f, s);
	fclose(f);
	if (!utf8_ok((const unsigned char *)buf, len))
		abort();
	struct json_object *o = json_tokener_parse(buf);
	if (!o || !json_object_is_type(o, json_type_string))
		abort();
	if (utf8_ok((const unsigned char *)s, strlen(s)) && strcmp(json_object_get_string(o), s))
		abort();
	json_object_put(o);
	free(buf);
}

/* Drive the writer with the strings; if it says the document is complete, it parses. */
static void check_writer(char **strs, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct il_json w;

	if (!f)
		return;
	il_json_init(&w, f);
	for (int i = 0; i < n; i++) {
		unsigned op = (unsigned char)strs[i][0];
		const char *arg = strs[i][0] ? strs[i] + 1 : "";
		switch (op % 10) {
		case 0: il_json_object(&w, op & 16 ? IL_JSON_BLOCK : IL_JSON_INLINE); break;
		case 1: il_json_array(&w, op & 16 ? IL_JSON_BLOCK : IL_JSON_INLINE); break;
		case 2: il_json_end(&w); break;
		case 3: il_json_key(&w, arg); break;
		case 4: il_json_string(&w, arg); break;
		case 5: il_json_int(&w, (long long)strlen(arg) - 3); break;
		case 6: il_json_double(&w, strtod(arg, NULL)); break;
		case 7: il_json_number_text(&w, arg); break;
		case 8: il_json_bool(&w, op & 16); break;
		default: il_json_null(&w); break;
		}
	}
	int r = il_json_finish(&w);
	fclose(f);
	if (r == 0) {
		struct json_tokener *tok = json_tokener_new_ex(IL_JSON_DEPTH_MAX + 2);
		struct json_object *o = json_tokener_parse_ex(tok, buf, (int)len);
		size_t end = json_tokener_get_parse_end(tok);
		/* one value, then the line feed (a number's end is where json-c saw it) */
		if (json_tokener_get_error(tok) != json_tokener_success || buf[len - 1] != '\n' ||
		    end + 1 < len)
			abort();
		json_object_put(o);
		json_tokener_free(tok);
		if (!utf8_ok((const unsigned char *)buf, len))
			abort();
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy, *strs[64];
	int n = 0;

	if (size > 1 << 16)
		return 0;
	copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (char *p = copy; n < 64 && p <= copy + size; p += strlen(p) + 1)
		strs[n++] = p;

	struct il_table *t = il_table_new(strs[0]);
	il_table_col(t, strs[0]);
	il_table_col(t, "n");
	for (int i = 0; i < n; i++) {
		char *e = il_text_escape(strs[i]);
		check_text(e, false);
		free(e);
		char small[16];
		check_text(il_text_esc(strs[i], small, sizeof(small)), false);
		check_json_string(strs[i]);
		il_table_row(t);
		il_table_str(t, strs[i]);
		il_table_dbl(t, strtod(strs[i], NULL), 2);
	}
	for (int f = IL_FORMAT_TABLE; f <= IL_FORMAT_JSON + 1; f++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		if (!out)
			continue;
		if (f <= IL_FORMAT_JSON && il_table_print(t, (enum il_format)f, out))
			abort();
		if (f > IL_FORMAT_JSON)
			il_text_fputs_lines(strs[0], out);
		fclose(out);
		if (f == IL_FORMAT_TABLE || f > IL_FORMAT_JSON)
			check_text(buf, true);
		else if (!utf8_ok((const unsigned char *)buf, len))
			abort();
		if (f == IL_FORMAT_JSON) {
			struct json_tokener *tok = json_tokener_new_ex(IL_JSON_DEPTH_MAX + 2);
			struct json_object *o = json_tokener_parse_ex(tok, buf, (int)len);
			if (!o || !json_object_is_type(o, json_type_array))
				abort();
			json_object_put(o);
			json_tokener_free(tok);
		}
		free(buf);
	}
	for (int i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		if (!out)
			continue;
		il_csv_field(strs[i], out);
		fclose(out);
		if (!utf8_ok((const unsigned char *)buf, len))
			abort();
		free(buf);
	}
	il_table_free(t);
	check_writer(strs, n);
	free(copy);
	return 0;
}
