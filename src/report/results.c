// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulation results read back (include/idlelab/results.h).
 *
 * A strict JSON reader (RFC 8259) of its own, reading the file in chunks:
 * what the results need (the file's kind, format, platform, workload and
 * runs, each configuration's governor, kernel and metrics) is decoded as it
 * is met, everything else is checked and skipped. Nothing else is kept, so
 * memory is the configurations returned, and the limit on their number is
 * checked at the configuration past it, before it is read. Every error is
 * placed where the reader stands: a syntax error at its character, a
 * missing member at the line of the element that lacks it.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/results.h"
#include "idlelab/results_keys.h"
#include "util.h"

#define CHUNK ((size_t)1 << 16)
#define DEPTH_MAX 64      /* nesting of arrays and objects */
#define NUMBER_MAX 400    /* characters in a number */

struct jr {
	const char *file;
	struct il_err *err;
	FILE *f;              /* NULL: all the input is in p..end */
	char *chunk;
	const char *p, *end;
	int line;
	bool eof;
	int read_errno;
};

static int jr_peek(struct jr *j)
{
	if (j->p == j->end) {
		if (!j->f || j->eof)
			return EOF;
		size_t got = fread(j->chunk, 1, CHUNK, j->f);
		j->p = j->chunk;
		j->end = j->chunk + got;
		if (got < CHUNK) {
			j->eof = true;
			if (ferror(j->f))
				j->read_errno = errno ? errno : EIO;
		}
		if (!got)
			return EOF;
	}
	return (unsigned char)*j->p;
}

static void jr_next(struct jr *j)
{
	if (*j->p == '\n')
		j->line++;
	j->p++;
}

static void jr_ws(struct jr *j)
{
	for (int c = jr_peek(j); c == ' ' || c == '\t' || c == '\n' || c == '\r'; c = jr_peek(j))
		jr_next(j);
}

/* Text that is not JSON, at the reader's position. */
static int jr_bad(struct jr *j, const char *what)
{
	int c = jr_peek(j);

	if (j->read_errno)
		return il_err_set_at(j->err, j->read_errno, j->file, 0, "read error: %s",
				     strerror(j->read_errno));
	if (c == EOF)
		return il_err_set_at(j->err, EINVAL, j->file, j->line,
				     "cannot read it as JSON (the text ends inside a value:"
				     " truncated?)");
	if (c >= 0x20 && c < 0x7f)
		return il_err_set_at(j->err, EINVAL, j->file, j->line,
				     "cannot read it as JSON (%s at '%c')", what, c);
	return il_err_set_at(j->err, EINVAL, j->file, j->line,
			     "cannot read it as JSON (%s at byte 0x%02x)", what, c);
}

/* Append byte c to out[0..cap) (dropped past the end, or after a NUL). */
static void put(char *out, size_t cap, size_t *n, bool *full, int c)
{
	if (!out || *full)
		return;
	if (c == 0 || *n + 1 >= cap) {
		*full = true;
		return;
	}
	out[(*n)++] = (char)c;
}

static void put_utf8(char *out, size_t cap, size_t *n, bool *full, unsigned cp)
{
	if (cp < 0x80) {
		put(out, cap, n, full, (int)cp);
	} else if (cp < 0x800) {
		put(out, cap, n, full, (int)(0xc0 | cp >> 6));
		put(out, cap, n, full, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		put(out, cap, n, full, (int)(0xe0 | cp >> 12));
		put(out, cap, n, full, (int)(0x80 | ((cp >> 6) & 0x3f)));
		put(out, cap, n, full, (int)(0x80 | (cp & 0x3f)));
	} else {
		put(out, cap, n, full, (int)(0xf0 | cp >> 18));
		put(out, cap, n, full, (int)(0x80 | ((cp >> 12) & 0x3f)));
		put(out, cap, n, full, (int)(0x80 | ((cp >> 6) & 0x3f)));
		put(out, cap, n, full, (int)(0x80 | (cp & 0x3f)));
	}
}

static int jr_hex4(struct jr *j, unsigned *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		int c = jr_peek(j), d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return jr_bad(j, "a bad \\u escape");
		*cp = *cp << 4 | (unsigned)d;
		jr_next(j);
	}
	return 0;
}

/* After a backslash: one escape, as a code point. */
static int jr_escape(struct jr *j, unsigned *cp)
{
	static const char esc[] = "\"\\/bfnrt", val[] = "\"\\/\b\f\n\r\t";
	int c = jr_peek(j);
	const char *e = c > 0 ? strchr(esc, c) : NULL;

	if (c == EOF)
		return jr_bad(j, "");
	if (e) {
		jr_next(j);
		*cp = (unsigned char)val[e - esc];
		return 0;
	}
	if (c != 'u')
		return jr_bad(j, "a bad escape in a string");
	jr_next(j);
	return jr_hex4(j, cp);
}

/*
 * At '"': a string, decoded into out (cap bytes, NUL-terminated; NULL to
 * skip it). A string that does not fit is cut at a character boundary and
 * *cut set (cut may be NULL).
 */
static int jr_string(struct jr *j, char *out, size_t cap, bool *cut)
{
	size_t n = 0;
	bool full = false;
	int r;

	jr_next(j);
	for (;;) {
		int c = jr_peek(j);
		if (c == EOF)
			return jr_bad(j, "");
		if (c == '"') {
			jr_next(j);
			break;
		}
		if (c < 0x20)
			return jr_bad(j, "a control character in a string");
		jr_next(j);
		if (c != '\\') {
			put(out, cap, &n, &full, c);
			continue;
		}
		unsigned cp, lo;
		if ((r = jr_escape(j, &cp)))
			return r;
		while (cp >= 0xd800 && cp < 0xdc00 && jr_peek(j) == '\\') {
			/* a high surrogate and another escape: a pair, or two characters */
			jr_next(j);
			if ((r = jr_escape(j, &lo)))
				return r;
			if (lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else {
				put_utf8(out, cap, &n, &full, 0xfffd);
				cp = lo;
			}
		}
		if (cp >= 0xd800 && cp < 0xe000)
			cp = 0xfffd; /* a lone surrogate */
		put_utf8(out, cap, &n, &full, cp);
	}
	if (out) {
		if (full && n) {
			/* do not leave half a UTF-8 sequence at the cut */
			size_t lead = n;
			while (lead > 0 && ((unsigned char)out[lead - 1] & 0xc0) == 0x80)
				lead--;
			if (lead > 0 && (unsigned char)out[lead - 1] >= 0xc0) {
				unsigned char b = (unsigned char)out[lead - 1];
				size_t len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
				if (n - (lead - 1) < len)
					n = lead - 1;
			}
		}
		out[n] = '\0';
	}
	if (cut)
		*cut = full;
	return 0;
}

static bool digit(int c)
{
	return c >= '0' && c <= '9';
}

/* At '-' or a digit: a number. */
static int jr_number(struct jr *j, double *v)
{
	char buf[NUMBER_MAX + 1];
	size_t n = 0;
	int c = jr_peek(j);

#define TAKE()                                                                          \
	do {                                                                            \
		if (n == NUMBER_MAX)                                                    \
			return il_err_set_at(j->err, EINVAL, j->file, j->line,          \
					     "a number longer than %d characters",      \
					     NUMBER_MAX);                               \
		buf[n++] = (char)c;                                                     \
		jr_next(j);                                                             \
		c = jr_peek(j);                                                         \
	} while (0)

	if (c == '-')
		TAKE();
	if (c == '0') {
		TAKE();
	} else if (digit(c)) {
		while (digit(c))
			TAKE();
	} else {
		return jr_bad(j, "a bad number");
	}
	if (c == '.') {
		TAKE();
		if (!digit(c))
			return jr_bad(j, "a bad number");
		while (digit(c))
			TAKE();
	}
	if (c == 'e' || c == 'E') {
		TAKE();
		if (c == '+' || c == '-')
			TAKE();
		if (!digit(c))
			return jr_bad(j, "a bad number");
		while (digit(c))
			TAKE();
	}
#undef TAKE
	buf[n] = '\0';
	*v = strtod(buf, NULL);
	return 0;
}

static int jr_literal(struct jr *j, const char *word)
{
	for (const char *w = word; *w; w++) {
		if (jr_peek(j) != *w)
			return jr_bad(j, "an unexpected character");
		jr_next(j);
	}
	return 0;
}

/* Callbacks for the members of an object and the elements of an array. */
typedef int (*member_fn)(struct jr *j, int depth, const char *key, void *ctx);
typedef int (*element_fn)(struct jr *j, int depth, size_t idx, int line, void *ctx);

static int jr_skip(struct jr *j, int depth);

/*
 * After a member or an element: ',' (consumed) gives 1, another follows;
 * close (consumed) gives 0, the end; anything else the error.
 */
static int jr_after(struct jr *j, int close)
{
	jr_ws(j);
	int c = jr_peek(j);
	if (c == ',' || c == close) {
		jr_next(j);
		return c == ',';
	}
	return jr_bad(j, close == '}' ? "',' or '}' expected" : "',' or ']' expected");
}

/* At '{': each member's value is read by fn (at the value, depth + 1). */
static int jr_object(struct jr *j, int depth, member_fn fn, void *ctx)
{
	int r;

	if (depth >= DEPTH_MAX)
		return jr_bad(j, "arrays and objects nested too deep");
	jr_next(j);
	jr_ws(j);
	if (jr_peek(j) == '}') {
		jr_next(j);
		return 0;
	}
	for (;;) {
		char key[32];
		bool cut;

		jr_ws(j);
		if (jr_peek(j) != '"')
			return jr_bad(j, "a member name expected");
		if ((r = jr_string(j, key, sizeof(key), &cut)))
			return r;
		jr_ws(j);
		if (jr_peek(j) != ':')
			return jr_bad(j, "':' expected");
		jr_next(j);
		jr_ws(j);
		r = cut || !fn ? jr_skip(j, depth + 1) : fn(j, depth + 1, key, ctx);
		if (r || (r = jr_after(j, '}')) <= 0)
			return r;
	}
}

/* At '[': each element is read by fn (at the element, with its line). */
static int jr_array(struct jr *j, int depth, element_fn fn, void *ctx)
{
	int r;

	if (depth >= DEPTH_MAX)
		return jr_bad(j, "arrays and objects nested too deep");
	jr_next(j);
	jr_ws(j);
	if (jr_peek(j) == ']') {
		jr_next(j);
		return 0;
	}
	for (size_t i = 0;; i++) {
		jr_ws(j);
		r = fn ? fn(j, depth + 1, i, j->line, ctx) : jr_skip(j, depth + 1);
		if (r || (r = jr_after(j, ']')) <= 0)
			return r;
	}
}

/* Any value, checked and skipped. */
static int jr_skip(struct jr *j, int depth)
{
	double v;

	jr_ws(j);
	switch (jr_peek(j)) {
	case '{':
		return jr_object(j, depth, NULL, NULL);
	case '[':
		return jr_array(j, depth, NULL, NULL);
	case '"':
		return jr_string(j, NULL, 0, NULL);
	case 't':
		return jr_literal(j, "true");
	case 'f':
		return jr_literal(j, "false");
	case 'n':
		return jr_literal(j, "null");
	case EOF:
		return jr_bad(j, "");
	default:
		if (jr_peek(j) == '-' || digit(jr_peek(j)))
			return jr_number(j, &v);
		return jr_bad(j, "an unexpected character");
	}
}

/*
 * Before a value just read is refused for what it means: a syntax error
 * right after it (no ',' or the closing bracket) is the first thing wrong,
 * and is said first.
 */
static int jr_then(struct jr *j, char close)
{
	jr_ws(j);
	int c = jr_peek(j);
	if (c == ',' || c == close)
		return 0;
	return jr_bad(j, close == ']' ? "',' or ']' expected" : "',' or '}' expected");
}

/* An array element of the wrong kind, skipped. */
static int jr_skip_element(struct jr *j, int depth)
{
	int r = jr_skip(j, depth);

	return r ? r : jr_then(j, ']');
}

/* A string member into out, or (not a string) skipped: *got says which. */
static int jr_opt_string(struct jr *j, int depth, char *out, size_t cap, bool *got)
{
	if (jr_peek(j) != '"') {
		if (got)
			*got = false;
		return jr_skip(j, depth);
	}
	if (got)
		*got = true;
	return jr_string(j, out, cap, NULL);
}

/*
 * A configuration's workload options: sim writes them whole, whatever their
 * length, but the field holds cap bytes. Longer ones keep their start and
 * end with their length and a hash of the whole (FNV-1a, 64 bits), so that
 * two runs whose options differ past the cut still compare as different
 * and say that they were cut.
 */
static int jr_opt_string_hashed(struct jr *j, int depth, char *out, size_t cap, bool *got)
{
	enum { WHOLE = 1 << 16 };
	char *whole;
	bool cut = false;
	int r;

	if (jr_peek(j) != '"') {
		*got = false;
		return jr_skip(j, depth);
	}
	*got = true;
	whole = il_xcalloc(1, WHOLE);
	if ((r = jr_string(j, whole, WHOLE, &cut))) {
		free(whole);
		return r;
	}
	size_t len = strlen(whole);
	if (len < cap && !cut) {
		memcpy(out, whole, len + 1);
		free(whole);
		return 0;
	}
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)whole[i]) * 0x100000001b3ULL;
	char tail[64];
	int tn = snprintf(tail, sizeof(tail), "... (%s%zu bytes, #%016llx)", cut ? "over " : "", len,
			  (unsigned long long)h);
	size_t keep = cap - 1 - (size_t)tn;
	/* cut at a character boundary, not inside a UTF-8 sequence */
	while (keep > 0 && ((unsigned char)whole[keep] & 0xc0) == 0x80)
		keep--;
	memcpy(out, whole, keep);
	memcpy(out + keep, tail, (size_t)tn + 1);
	free(whole);
	return 0;
}

/*
 * A metric's row or column name: refused when longer than its field, as two
 * names cut to the same length would be one metric.
 */
static int jr_name(struct jr *j, int depth, char *out, size_t cap, bool *got, const char *what)
{
	bool cut = false;
	int line = j->line, r;

	if (jr_peek(j) != '"') {
		*got = false;
		return jr_skip(j, depth);
	}
	*got = true;
	if ((r = jr_string(j, out, cap, &cut)))
		return r;
	if (cut)
		return il_err_set_at(j->err, EINVAL, j->file, line, "a metric's %s is longer than %zu "
				     "bytes", what, cap - 1);
	return 0;
}

/* ---- the results ---- */

/* A metric's number of values, and where it is. */
struct values_count {
	size_t n, config;
	int line;
	char row[40], col[40];
};

struct file_ctx {
	const char *name;
	struct il_err *err;
	struct il_result_config *cfg;  /* the caller's array */
	int first, max;                /* this file's configurations go to cfg[first..max) */
	int added;
	bool kind, configs, format;
	char workload[40], workload_options[256], platform[64];
	int runs;
	/* the metrics with the fewest and the most values (nulls counted), to set against runs */
	struct values_count fewest, most;
	bool counted;
};

struct config_ctx {
	struct file_ctx *fc;
	struct il_result_config *cf;
	size_t idx;
	bool governor, metrics;
	size_t cap;
};

struct metric_ctx {
	struct config_ctx *cc;
	struct il_result_metric *m;
	bool row, col, values;
	size_t cap;
	size_t bad;       /* first value that is not a number, from 1 (0: none) */
	int bad_line;
	size_t nelems;    /* the values array's length, nulls included */
};

static void metrics_free(struct il_result_config *c)
{
	for (int k = 0; k < c->nmetrics; k++)
		free(c->m[k].values);
	free(c->m);
	c->m = NULL;
	c->nmetrics = 0;
}

void il_results_free(struct il_result_config *c, int n)
{
	for (int i = 0; i < n; i++) {
		metrics_free(&c[i]);
		memset(&c[i], 0, sizeof(c[i]));
	}
}

static int not_results(const struct file_ctx *fc)
{
	return il_err_set_at(fc->err, EINVAL, fc->name, 0,
			     "not a result of 'idlelab sim --format json'");
}

static int oom(struct jr *j)
{
	return il_err_set_at(j->err, ENOMEM, j->file, 0, "out of memory");
}

static int value_elem(struct jr *j, int depth, size_t idx, int line, void *ctx)
{
	struct metric_ctx *mc = ctx;
	struct il_result_metric *m = mc->m;
	int c = jr_peek(j);
	double v;
	int r;

	mc->nelems++;
	if (c == 'n')
		return jr_literal(j, "null"); /* a value that was not finite (NaN) */
	if (c != '-' && !digit(c)) {
		if (!mc->bad) {
			mc->bad = idx + 1;
			mc->bad_line = line;
		}
		return jr_skip(j, depth);
	}
	if ((r = jr_number(j, &v)))
		return r;
	if (!isfinite(v)) {
		/* 1e999: the writer puts null for what is not finite */
		if (!mc->bad) {
			mc->bad = idx + 1;
			mc->bad_line = line;
		}
		return 0;
	}
	if ((size_t)m->n == mc->cap) {
		size_t cap = mc->cap ? 2 * mc->cap : 8;
		double *nv = cap <= (size_t)INT_MAX ? realloc(m->values, cap * sizeof(*nv)) : NULL;
		if (!nv)
			return oom(j);
		m->values = nv;
		mc->cap = cap;
	}
	m->values[m->n++] = v;
	return 0;
}

static int metric_member(struct jr *j, int depth, const char *key, void *ctx)
{
	struct metric_ctx *mc = ctx;
	struct il_result_metric *m = mc->m;
	char better[16];
	bool got;
	int r;

	if (!strcmp(key, IL_RK_ROW))
		return jr_name(j, depth, m->row, sizeof(m->row), &mc->row, "row");
	if (!strcmp(key, IL_RK_COL))
		return jr_name(j, depth, m->col, sizeof(m->col), &mc->col, "column");
	if (!strcmp(key, IL_RK_UNIT))
		return jr_opt_string(j, depth, m->unit, sizeof(m->unit), NULL);
	if (!strcmp(key, IL_RK_BETTER)) {
		better[0] = '\0';
		r = jr_opt_string(j, depth, better, sizeof(better), &got);
		m->better = il_results_better_parse(better);
		return r;
	}
	if (!strcmp(key, IL_RK_THROUGHPUT)) {
		m->throughput = jr_peek(j) == 't';
		return jr_skip(j, depth);
	}
	if (!strcmp(key, IL_RK_VALUES)) {
		/* the last "values" counts */
		m->n = 0;
		mc->bad = 0;
		mc->nelems = 0;
		mc->values = jr_peek(j) == '[';
		return mc->values ? jr_array(j, depth, value_elem, mc) : jr_skip(j, depth);
	}
	return jr_skip(j, depth);
}

static int metric_elem(struct jr *j, int depth, size_t k, int line, void *ctx)
{
	struct config_ctx *cc = ctx;
	struct il_result_config *cf = cc->cf;
	size_t ci = cc->idx;
	int r;

	if (jr_peek(j) != '{') {
		if ((r = jr_skip_element(j, depth)))
			return r;
		goto malformed;
	}
	if ((size_t)cf->nmetrics == cc->cap) {
		size_t cap = cc->cap ? 2 * cc->cap : 16;
		struct il_result_metric *nm =
			cap <= (size_t)INT_MAX ? realloc(cf->m, cap * sizeof(*nm)) : NULL;
		if (!nm)
			return oom(j);
		cf->m = nm;
		cc->cap = cap;
	}
	struct il_result_metric *m = &cf->m[cf->nmetrics];
	struct metric_ctx mc = { .cc = cc, .m = m };
	memset(m, 0, sizeof(*m));
	r = jr_object(j, depth, metric_member, &mc);
	if (!r && (!mc.row || !mc.col || !mc.values || mc.bad))
		r = jr_then(j, ']');
	if (!r && (!mc.row || !mc.col || !mc.values)) {
		free(m->values);
		goto malformed;
	}
	if (!r && mc.bad)
		r = il_err_set_at(j->err, EINVAL, j->file, mc.bad_line,
				  "configuration %zu, metric %s/%s: value %zu is not a number", ci + 1,
				  m->row, m->col, mc.bad);
	if (r) {
		free(m->values);
		return r;
	}
	struct file_ctx *fc = cc->fc;
	struct values_count here = { .n = mc.nelems, .config = ci + 1, .line = line };
	memcpy(here.row, m->row, sizeof(here.row));
	memcpy(here.col, m->col, sizeof(here.col));
	if (!fc->counted || here.n < fc->fewest.n)
		fc->fewest = here;
	if (!fc->counted || here.n > fc->most.n)
		fc->most = here;
	fc->counted = true;
	cf->nmetrics++;
	return 0;
malformed:
	return il_err_set_at(j->err, EINVAL, j->file, line,
			     "configuration %zu, metric %zu is malformed (it needs strings"
			     " \"row\" and \"col\" and an array \"values\")", ci + 1, k + 1);
}

static int config_member(struct jr *j, int depth, const char *key, void *ctx)
{
	struct config_ctx *cc = ctx;
	struct il_result_config *cf = cc->cf;

	if (!strcmp(key, IL_RK_GOVERNOR))
		return jr_opt_string(j, depth, cf->governor, sizeof(cf->governor), &cc->governor);
	if (!strcmp(key, IL_RK_KERNEL))
		return jr_opt_string(j, depth, cf->kernel, sizeof(cf->kernel), NULL);
	if (!strcmp(key, IL_RK_METRICS)) {
		/* the last "metrics" counts */
		metrics_free(cf);
		cc->cap = 0;
		cc->metrics = jr_peek(j) == '[';
		return cc->metrics ? jr_array(j, depth, metric_elem, cc) : jr_skip(j, depth);
	}
	return jr_skip(j, depth);
}

static int config_elem(struct jr *j, int depth, size_t idx, int line, void *ctx)
{
	struct file_ctx *fc = ctx;
	int r;

	/* the limit, before anything of this configuration is read */
	if (fc->first + fc->added >= fc->max)
		return il_err_set_at(j->err, EINVAL, j->file, line,
				     "too many configurations in all (at most %d)", fc->max);
	if (jr_peek(j) != '{') {
		if ((r = jr_skip_element(j, depth)))
			return r;
		goto incomplete;
	}
	struct il_result_config *cf = &fc->cfg[fc->first + fc->added++];
	struct config_ctx cc = { .fc = fc, .cf = cf, .idx = idx };
	memset(cf, 0, sizeof(*cf));
	if ((r = jr_object(j, depth, config_member, &cc)))
		return r;
	if (!(cc.governor && cc.metrics) && (r = jr_then(j, ']')))
		return r;
	if (cc.governor && cc.metrics) {
		cf->index = (int)idx + 1;
		return 0;
	}
incomplete:
	return il_err_set_at(j->err, EINVAL, j->file, line,
			     "configuration %zu has no governor or metrics", idx + 1);
}

static int root_member(struct jr *j, int depth, const char *key, void *ctx)
{
	struct file_ctx *fc = ctx;
	char kind[8];
	bool got, cut;
	double v;
	int r;

	if (!strcmp(key, IL_RK_KIND)) {
		if (jr_peek(j) != '"')
			return jr_skip(j, depth) || jr_then(j, '}') ? -EINVAL : not_results(fc);
		if ((r = jr_string(j, kind, sizeof(kind), &cut)))
			return r;
		if (cut || strcmp(kind, IL_RESULTS_KIND))
			return jr_then(j, '}') ? -EINVAL : not_results(fc);
		fc->kind = true;
		return 0;
	}
	if (!strcmp(key, IL_RK_FORMAT)) {
		int line = j->line;
		fc->format = true;
		if (jr_peek(j) != '-' && !digit(jr_peek(j)))
			return jr_skip(j, depth) || jr_then(j, '}') ? -EINVAL
			       : il_err_set_at(j->err, EINVAL, j->file, line,
					     "the results format is not a number (this idlelab"
					     " reads format %d)", IL_RESULTS_FORMAT);
		if ((r = jr_number(j, &v)))
			return r;
		if (v != IL_RESULTS_FORMAT && (r = jr_then(j, '}')))
			return r;
		if (v != IL_RESULTS_FORMAT)
			return il_err_set_at(j->err, EINVAL, j->file, line,
					     "results of format %g (this idlelab reads format %d)",
					     v, IL_RESULTS_FORMAT);
		return 0;
	}
	if (!strcmp(key, IL_RK_WORKLOAD))
		return jr_opt_string(j, depth, fc->workload, sizeof(fc->workload), &got);
	if (!strcmp(key, IL_RK_WORKLOAD_OPTIONS))
		return jr_opt_string_hashed(j, depth, fc->workload_options,
					    sizeof(fc->workload_options), &got);
	if (!strcmp(key, IL_RK_PLATFORM))
		return jr_opt_string(j, depth, fc->platform, sizeof(fc->platform), &got);
	if (!strcmp(key, IL_RK_RUNS)) {
		/* sim writes a count: anything else would pass every metric's count unchecked */
		int line = j->line;
		bool num = jr_peek(j) == '-' || digit(jr_peek(j));
		if ((r = num ? jr_number(j, &v) : jr_skip(j, depth)))
			return r;
		if (!num || !(v >= 1 && v <= 1e9 && v == floor(v)))
			return jr_then(j, '}') ? -EINVAL
			       : il_err_set_at(j->err, EINVAL, j->file, line,
					     "\"runs\" is not a number of runs (1 to 1000000000)");
		fc->runs = (int)v;
		return 0;
	}
	if (!strcmp(key, IL_RK_CONFIGS)) {
		if (jr_peek(j) != '[')
			return jr_skip(j, depth) || jr_then(j, '}') ? -EINVAL : not_results(fc);
		fc->configs = true;
		return jr_array(j, depth, config_elem, fc);
	}
	return jr_skip(j, depth);
}

static int read_file(struct jr *j, struct file_ctx *fc)
{
	int r, open_line;

	jr_ws(j);
	open_line = j->line;
	if (jr_peek(j) == '{')
		r = jr_object(j, 0, root_member, fc);
	else
		r = jr_skip(j, 0); /* valid JSON, but not results */
	if (r)
		return r;
	jr_ws(j);
	int c = jr_peek(j);
	if (j->read_errno)
		return jr_bad(j, "");
	if (c != EOF && c != '\0')
		return il_err_set_at(j->err, EINVAL, j->file, j->line,
				     "cannot read it as JSON (text after the end of the value)");
	if (!fc->kind || !fc->configs)
		return not_results(fc);
	if (!fc->format)
		return il_err_set_at(j->err, EINVAL, j->file, open_line,
				     "no results format (this idlelab reads format %d)",
				     IL_RESULTS_FORMAT);
	/* idlelab sim writes one configuration at least: an empty list is not its results */
	if (!fc->added)
		return il_err_set_at(j->err, EINVAL, j->file, open_line,
				     "no configurations (its \"configs\" list is empty)");
	/* and one value (or null) per run for every metric */
	if (fc->runs > 0 && fc->counted &&
	    (fc->most.n != (size_t)fc->runs || fc->fewest.n != (size_t)fc->runs)) {
		const struct values_count *vc =
			fc->most.n != (size_t)fc->runs ? &fc->most : &fc->fewest;
		return il_err_set_at(j->err, EINVAL, j->file, vc->line,
				     "configuration %zu, metric %s/%s: %zu values for %d runs",
				     vc->config, vc->row, vc->col, vc->n, fc->runs);
	}
	return 0;
}

static int read_results(struct jr *j, const char *name, struct il_result_config *cfg, int n,
			int max, struct il_err *err)
{
	struct file_ctx fc = { .name = name, .err = err, .cfg = cfg, .first = n, .max = max };
	int r = n < 0 || n > max ? il_err_set(err, EINVAL, "bad configuration count")
				 : read_file(j, &fc);

	if (r) {
		il_results_free(cfg + n, fc.added);
		return r;
	}
	for (int i = n; i < n + fc.added; i++) {
		struct il_result_config *c = &cfg[i];
		snprintf(c->workload, sizeof(c->workload), "%s", fc.workload);
		snprintf(c->workload_options, sizeof(c->workload_options), "%s",
			 fc.workload_options);
		snprintf(c->platform, sizeof(c->platform), "%s", fc.platform);
		snprintf(c->file, sizeof(c->file), "%s", name);
		c->runs = fc.runs;
	}
	return fc.added;
}

int il_results_parse(const char *text, size_t len, const char *name,
		     struct il_result_config *cfg, int n, int max, struct il_err *err)
{
	struct jr j = { .file = name, .err = err, .p = text, .end = text + len, .line = 1 };

	return read_results(&j, name, cfg, n, max, err);
}

int il_results_load(const char *path, struct il_result_config *cfg, int n, int max,
		    struct il_err *err)
{
	struct jr j = { .file = path, .err = err, .line = 1 };
	int r;

	j.f = fopen(path, "rb");
	if (!j.f)
		return il_err_set_at(err, errno, path, 0, "cannot open: %s", strerror(errno));
	j.chunk = malloc(CHUNK);
	if (!j.chunk) {
		fclose(j.f);
		return il_err_set_at(err, ENOMEM, path, 0, "out of memory");
	}
	j.p = j.end = j.chunk;
	r = read_results(&j, path, cfg, n, max, err);
	free(j.chunk);
	fclose(j.f);
	return r;
}

double il_result_mean(const struct il_result_metric *m)
{
	double sum = 0;

	if (m->n == 0)
		return NAN;
	for (int i = 0; i < m->n; i++)
		sum += m->values[i];
	return sum / m->n;
}

double il_result_summary(const struct il_result_metric *m)
{
	struct il_stats st;

	if (m->n == 0)
		return NAN;
	il_stats_compute(m->values, m->n, &st);
	return m->throughput && st.hmean > 0 ? st.hmean : st.amean;
}

const struct il_result_metric *il_result_find(const struct il_result_config *c,
					      const char *row, const char *col)
{
	for (int k = 0; k < c->nmetrics; k++)
		if (!strcmp(c->m[k].row, row) && !strcmp(c->m[k].col, col))
			return &c->m[k];
	return NULL;
}

/*
 * The regularised incomplete beta function I_x(a, b), by its continued
 * fraction evaluated with the modified Lentz method; the fraction
 * converges fast for x < (a + 1) / (a + b + 2), and I_x(a, b) =
 * 1 - I_(1-x)(b, a) gives the other side.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double beta_inc(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * beta_cf(a, b, x) / a;
	return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

double il_student_t_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| > |t|) = I_(df / (df + t^2))(df / 2, 1 / 2) */
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

void il_result_diff(const struct il_result_metric *base, const struct il_result_metric *m,
		    struct il_result_diff *d)
{
	struct il_stats sa, sb;

	d->base = il_result_summary(base);
	d->value = il_result_summary(m);
	d->t = d->df = d->p = NAN;
	d->sig = IL_SIG_NONE;
	if (isnan(d->base) || isnan(d->value))
		d->diff_pct = NAN;
	else if (d->base == 0)
		d->diff_pct = d->value == 0 ? 0 : NAN;
	else
		d->diff_pct = 100 * (d->value - d->base) / fabs(d->base);
	if (isinf(d->diff_pct) && isfinite(d->base) && isfinite(d->value))
		/* values near DBL_MAX: the same, divided first (only then: other bits kept) */
		d->diff_pct = (d->value / fabs(d->base) - d->base / fabs(d->base)) * 100;
	if (base->n < 2 || m->n < 2)
		return;
	il_stats_compute(base->values, base->n, &sa);
	il_stats_compute(m->values, m->n, &sb);
	double va = sa.stddev * sa.stddev / base->n, vb = sb.stddev * sb.stddev / m->n;
	double dm = sb.amean - sa.amean;
	if (isinf(va + vb) && isfinite(sa.stddev) && isfinite(sb.stddev)) {
		/* deviations near DBL_MAX: t and df in units of the larger (both scale-free) */
		double k = fmax(sa.stddev, sb.stddev);
		va = (sa.stddev / k) * (sa.stddev / k) / base->n;
		vb = (sb.stddev / k) * (sb.stddev / k) / m->n;
		dm = sb.amean / k - sa.amean / k;
	}
	if (va + vb == 0) {
		/* identical runs on both sides: a difference is not a finding of the test */
		d->sig = IL_SIG_NO_VARIANCE;
		return;
	}
	d->t = dm / sqrt(va + vb);
	d->df = (va + vb) * (va + vb) / (va * va / (base->n - 1) + vb * vb / (m->n - 1));
	d->p = il_student_t_p(d->t, d->df);
	d->sig = d->p < 0.05 ? IL_SIG_SIGNIFICANT : IL_SIG_NOT_SIGNIFICANT;
}
