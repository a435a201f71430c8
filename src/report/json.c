// SPDX-License-Identifier: GPL-2.0-only
/* The JSON writer (include/idlelab/json.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/json.h"
#include "report_internal.h"

void il_json_init(struct il_json *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

void il_json_write_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	fputc('"', out);
	for (size_t i = 0; i < n;) {
		size_t len = 1;

		switch (p[i]) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (p[i] < 0x20) {
				fprintf(out, "\\u%04x", p[i]);
			} else if (p[i] < 0x80) {
				fputc(p[i], out);
			} else if ((len = il_utf8_len(p + i, n - i))) {
				fwrite(p + i, 1, len, out);
			} else {
				fputs("\\ufffd", out); /* not UTF-8 */
				len = 1;
			}
		}
		i += len;
	}
	fputc('"', out);
}

bool il_json_is_number(const char *t)
{
	if (*t == '-')
		t++;
	if (*t == '0')
		t++;
	else if (*t >= '1' && *t <= '9')
		while (isdigit((unsigned char)*t))
			t++;
	else
		return false;
	if (*t == '.') {
		if (!isdigit((unsigned char)*++t))
			return false;
		while (isdigit((unsigned char)*t))
			t++;
	}
	if (*t == 'e' || *t == 'E') {
		t++;
		if (*t == '+' || *t == '-')
			t++;
		if (!isdigit((unsigned char)*t))
			return false;
		while (isdigit((unsigned char)*t))
			t++;
	}
	return *t == '\0';
}

static void indent(struct il_json *w, int blocks)
{
	fputc('\n', w->out);
	for (int i = 0; i < blocks; i++)
		fputs("  ", w->out);
}

/*
 * Before a value or a key: the separator and line break the enclosing
 * container wants. is_key: a member's key (only in objects); otherwise a
 * value, which in an object must follow its key. False on misuse.
 */
static bool before(struct il_json *w, bool is_key)
{
	if (w->bad)
		return false;
	if (w->depth == 0) {
		if (is_key || w->done) {
			w->bad = true;
			return false;
		}
		return true;
	}
	struct il_json_level *l = &w->level[w->depth - 1];
	if (!is_key && w->after_key) {
		w->after_key = false;
		return true;
	}
	if (is_key != l->object || w->after_key) {
		w->bad = true;
		return false;
	}
	if (l->nonempty)
		fputc(',', w->out);
	if (l->block)
		indent(w, w->blocks);
	else if (l->nonempty)
		fputc(' ', w->out);
	l->nonempty = true;
	return true;
}

/* After a value: at depth 0 the document is complete. */
static void after(struct il_json *w)
{
	if (w->depth == 0)
		w->done = true;
}

static void open_container(struct il_json *w, bool object, enum il_json_layout layout)
{
	if (!before(w, false))
		return;
	if (w->depth == IL_JSON_DEPTH_MAX) {
		w->bad = true;
		return;
	}
	fputc(object ? '{' : '[', w->out);
	w->level[w->depth].object = object;
	w->level[w->depth].block = layout == IL_JSON_BLOCK;
	w->level[w->depth].nonempty = false;
	w->depth++;
	if (layout == IL_JSON_BLOCK)
		w->blocks++;
}

void il_json_object(struct il_json *w, enum il_json_layout layout)
{
	open_container(w, true, layout);
}

void il_json_array(struct il_json *w, enum il_json_layout layout)
{
	open_container(w, false, layout);
}

void il_json_end(struct il_json *w)
{
	if (w->bad)
		return;
	if (w->depth == 0 || w->after_key) {
		w->bad = true;
		return;
	}
	struct il_json_level *l = &w->level[--w->depth];
	if (l->block) {
		w->blocks--;
		if (l->nonempty)
			indent(w, w->blocks);
	}
	fputc(l->object ? '}' : ']', w->out);
	after(w);
}

void il_json_key(struct il_json *w, const char *key)
{
	if (!before(w, true))
		return;
	il_json_write_string(w->out, key);
	fputs(": ", w->out);
	w->after_key = true;
}

void il_json_string(struct il_json *w, const char *s)
{
	if (!s) {
		il_json_null(w);
		return;
	}
	if (!before(w, false))
		return;
	il_json_write_string(w->out, s);
	after(w);
}

void il_json_int(struct il_json *w, long long v)
{
	if (!before(w, false))
		return;
	fprintf(w->out, "%lld", v);
	after(w);
}

void il_json_uint(struct il_json *w, unsigned long long v)
{
	if (!before(w, false))
		return;
	fprintf(w->out, "%llu", v);
	after(w);
}

void il_json_double(struct il_json *w, double v)
{
	if (!isfinite(v)) {
		il_json_null(w);
		return;
	}
	if (!before(w, false))
		return;
	fprintf(w->out, "%.17g", v);
	after(w);
}

void il_json_number_text(struct il_json *w, const char *text)
{
	if (!text || !il_json_is_number(text)) {
		il_json_null(w);
		return;
	}
	if (!before(w, false))
		return;
	fputs(text, w->out);
	after(w);
}

void il_json_bool(struct il_json *w, bool v)
{
	if (!before(w, false))
		return;
	fputs(v ? "true" : "false", w->out);
	after(w);
}

void il_json_null(struct il_json *w)
{
	if (!before(w, false))
		return;
	fputs("null", w->out);
	after(w);
}

void il_json_kstring(struct il_json *w, const char *key, const char *s)
{
	il_json_key(w, key);
	il_json_string(w, s);
}

void il_json_kint(struct il_json *w, const char *key, long long v)
{
	il_json_key(w, key);
	il_json_int(w, v);
}

void il_json_kuint(struct il_json *w, const char *key, unsigned long long v)
{
	il_json_key(w, key);
	il_json_uint(w, v);
}

void il_json_kdouble(struct il_json *w, const char *key, double v)
{
	il_json_key(w, key);
	il_json_double(w, v);
}

void il_json_kbool(struct il_json *w, const char *key, bool v)
{
	il_json_key(w, key);
	il_json_bool(w, v);
}

void il_json_knull(struct il_json *w, const char *key)
{
	il_json_key(w, key);
	il_json_null(w);
}

int il_json_finish(struct il_json *w)
{
	if (w->bad || w->depth || !w->done)
		return -EINVAL;
	fputc('\n', w->out);
	return ferror(w->out) ? -EIO : 0;
}
