// SPDX-License-Identifier: GPL-2.0-only
/*
 * One parser for option tables (include/idlelab/opts.h): defaults, values
 * from text, bounds checks of a filled-in structure, and the help text, all
 * from the same rows.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/opts.h"
#include "util.h"

/* An element of a list (one number) is at most this long. */
#define ELEM_MAX 64

static void *field(void *cfg, size_t off)
{
	return (char *)cfg + off;
}

static const void *cfield(const void *cfg, size_t off)
{
	return (const char *)cfg + off;
}

static bool is_dur(const struct il_opt *o)
{
	return o->type == IL_OPT_T_DUR || o->type == IL_OPT_T_DUR_NS || o->type == IL_OPT_T_DUR_LIST;
}

/* A duration in the largest unit that divides it: "0", "300ns", "20us", "4ms", "1000s". */
static void dur_text(int64_t ns, char *buf, size_t size)
{
	static const struct { int64_t div; const char *unit; } u[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};

	if (ns == 0) {
		snprintf(buf, size, "0");
		return;
	}
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (ns % u[i].div == 0) {
			snprintf(buf, size, "%lld%s", (long long)(ns / u[i].div), u[i].unit);
			return;
		}
}

static void bound_text(const struct il_opt *o, double v, char *buf, size_t size)
{
	int e;

	if (is_dur(o))
		dur_text((int64_t)v, buf, size);
	else if (v >= (1 << 20) && frexp(v, &e) == 0.5)
		snprintf(buf, size, "2^%d", e - 1); /* a power of two: 2^40 */
	else if (v == floor(v) && fabs(v) < 1e18)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%g", v);
}

/* "LO..HI" of o. */
static const char *range_text(const struct il_opt *o, char *buf, size_t size)
{
	char lo[32], hi[32];

	bound_text(o, o->min, lo, sizeof(lo));
	bound_text(o, o->max, hi, sizeof(hi));
	snprintf(buf, size, "%s..%s", lo, hi);
	return buf;
}

static int bad_value(const struct il_opt *o, const char *text, const char *what, struct il_err *err)
{
	char r[80];

	range_text(o, r, sizeof(r));
	if (o->kw)
		return il_err_set(err, EINVAL, "%s: '%s' is not %s in %s or '%s'", o->name, text, what,
				  r, o->kw);
	return il_err_set(err, EINVAL, "%s: '%s' is not %s in %s", o->name, text, what, r);
}

static bool kw_match(const struct il_opt *o, const char *text)
{
	return o->kw && !strcmp(text, o->kw);
}

static int parse_u64(const struct il_opt *o, const char *text, uint64_t *v, struct il_err *err)
{
	if (il_parse_u64(text, v) || (double)*v < o->min || (double)*v > o->max)
		return bad_value(o, text, "a whole number", err);
	return 0;
}

static int parse_int(const struct il_opt *o, const char *text, int *v, struct il_err *err)
{
	if (kw_match(o, text)) {
		*v = (int)o->kw_value;
		return 0;
	}
	if (il_parse_int(text, v) || *v < o->min || *v > o->max)
		return bad_value(o, text, "a whole number", err);
	return 0;
}

static int parse_double(const struct il_opt *o, const char *text, double *v, struct il_err *err)
{
	if (il_parse_double(text, v) || !(*v >= o->min && *v <= o->max))
		return bad_value(o, text, "a number", err);
	return 0;
}

/*
 * A duration: with a unit (ns, us, µs, ms, s) or bare, bare numbers in µs
 * (bare_us) or ns.
 */
static int parse_dur(const struct il_opt *o, const char *text, bool bare_us, int64_t *ns,
		     struct il_err *err)
{
	if (kw_match(o, text)) {
		*ns = o->kw_value;
		return 0;
	}
	if (il_parse_duration(text, bare_us, ns) || (double)*ns < o->min || (double)*ns > o->max) {
		char r[80];
		return il_err_set(err, EINVAL, "%s: '%s' is not a duration in %s%s%s%s (bare numbers %s, "
				  "or with ns/us/ms/s)", o->name, text, range_text(o, r, sizeof(r)),
				  o->kw ? " or '" : "", o->kw ? o->kw : "", o->kw ? "'" : "",
				  bare_us ? "µs" : "ns");
	}
	return 0;
}

static int parse_enum(const struct il_opt *o, const char *text, int *v, struct il_err *err)
{
	char list[160] = "";
	int n = 0;

	for (n = 0; o->choices[n]; n++)
		if (!strcmp(text, o->choices[n])) {
			*v = n;
			return 0;
		}
	for (int i = 0; i < n; i++) {
		size_t l = strlen(list);
		snprintf(list + l, sizeof(list) - l, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
			 o->choices[i]);
	}
	return il_err_set(err, EINVAL, "%s: '%s' is not %s", o->name, text, list);
}

/* One number of a list into v[0] (as int64_t, uint64_t or int by the list's type). */
static int parse_elem(const struct il_opt *o, const char *text, int64_t *v, struct il_err *err)
{
	if (o->type == IL_OPT_T_DUR_LIST)
		return parse_dur(o, text, true, v, err);
	if (o->type == IL_OPT_T_U64_LIST) {
		uint64_t u;
		if (parse_u64(o, text, &u, err))
			return -EINVAL;
		*v = (int64_t)u;
		return 0;
	}
	int i;
	if (parse_int(o, text, &i, err))
		return -EINVAL;
	*v = i;
	return 0;
}

/* Copy [a, b) trimmed into buf; false if it does not fit. */
static bool copy_trim(const char *a, const char *b, char *buf, size_t size)
{
	while (a < b && isspace((unsigned char)*a))
		a++;
	while (b > a && isspace((unsigned char)b[-1]))
		b--;
	if ((size_t)(b - a) >= size)
		return false;
	memcpy(buf, a, (size_t)(b - a));
	buf[b - a] = '\0';
	return true;
}

static int too_long(const struct il_opt *o, const char *a, struct il_err *err)
{
	return il_err_set(err, EINVAL, "%s: '%.20s...' is longer than a value can be (%d characters)",
			  o->name, a, ELEM_MAX - 1);
}

/*
 * One element of a list, [a, b): a value, or a range "A..B step S" of the
 * values A, A+S, ... up to B; appended to out[*n] (at most o->max_n).
 */
static int parse_list_elem(const struct il_opt *o, const char *a, const char *b, int64_t *out,
			   int *n, struct il_err *err)
{
	char buf[ELEM_MAX];
	const char *dots = NULL;

	for (const char *p = a; p + 1 < b; p++)
		if (p[0] == '.' && p[1] == '.') {
			dots = p;
			break;
		}
	if (!dots) {
		if (!copy_trim(a, b, buf, sizeof(buf)))
			return too_long(o, a, err);
		if (!buf[0])
			return il_err_set(err, EINVAL, "%s: empty value in the list", o->name);
		if (*n == o->max_n)
			return il_err_set(err, EINVAL, "%s: more than %d values (the most it takes)",
					  o->name, o->max_n);
		return parse_elem(o, buf, &out[(*n)++], err);
	}
	/* A..B step S */
	char lo_t[ELEM_MAX], rest[2 * ELEM_MAX], hi_t[ELEM_MAX], step_t[ELEM_MAX];
	int64_t lo, hi, step;
	if (!copy_trim(a, dots, lo_t, sizeof(lo_t)) || !copy_trim(dots + 2, b, rest, sizeof(rest)))
		return too_long(o, a, err);
	char *sp = strstr(rest, " step ");
	if (!lo_t[0] || !sp || !copy_trim(rest, sp, hi_t, sizeof(hi_t)) ||
	    !copy_trim(sp + 6, rest + strlen(rest), step_t, sizeof(step_t)) || !hi_t[0] || !step_t[0])
		return il_err_set(err, EINVAL, "%s: '%.*s' is not a value or a range 'A..B step S'",
				  o->name, (int)(b - a), a);
	if (parse_elem(o, lo_t, &lo, err) || parse_elem(o, hi_t, &hi, err))
		return -EINVAL;
	/* the step is a difference: any positive value up to the option's largest */
	struct il_opt so = *o;
	so.min = 1;
	so.kw = NULL;
	if (parse_elem(&so, step_t, &step, err))
		return -EINVAL;
	if (step <= 0)
		return il_err_set(err, EINVAL, "%s: the step of '%.*s' must be positive", o->name,
				  (int)(b - a), a);
	if (hi < lo)
		return il_err_set(err, EINVAL, "%s: '%.*s' ends below its start", o->name, (int)(b - a), a);
	for (int64_t v = lo; v <= hi; v += step) {
		if (*n == o->max_n)
			return il_err_set(err, EINVAL, "%s: more than %d values (the most it takes)",
					  o->name, o->max_n);
		out[(*n)++] = v;
	}
	return 0;
}

static int set_list(const struct il_opt *o, void *cfg, const char *text, struct il_err *err)
{
	int64_t *v = malloc((size_t)(o->max_n > 0 ? o->max_n : 1) * sizeof(*v));
	int n = 0, r = 0;
	const char *a = text;

	if (!v)
		return il_err_set(err, ENOMEM, "out of memory");
	for (;;) {
		const char *b = strchr(a, ',');
		if (!b)
			b = a + strlen(a);
		r = parse_list_elem(o, a, b, v, &n, err);
		if (r || !*b)
			break;
		a = b + 1;
	}
	if (!r && n < o->min_n)
		r = il_err_set(err, EINVAL, "%s: %d value%s, it takes %s%d", o->name, n,
			       n == 1 ? "" : "s", o->min_n == o->max_n ? "" : "at least ", o->min_n);
	if (!r) {
		*(int *)field(cfg, o->count_off) = n;
		for (int i = 0; i < n; i++) {
			if (o->type == IL_OPT_T_DUR_LIST)
				((int64_t *)field(cfg, o->off))[i] = v[i];
			else if (o->type == IL_OPT_T_U64_LIST)
				((uint64_t *)field(cfg, o->off))[i] = (uint64_t)v[i];
			else
				((int *)field(cfg, o->off))[i] = (int)v[i];
		}
	}
	free(v);
	return r;
}

const struct il_opt *il_opt_find(const struct il_opt *tbl, const char *key)
{
	for (const struct il_opt *o = tbl; o && o->name; o++)
		if (!strcmp(o->name, key))
			return o;
	return NULL;
}

int il_opt_set(const struct il_opt *o, void *cfg, const char *text, struct il_err *err)
{
	void *f = field(cfg, o->off);

	/* values are parsed into locals: a refused value leaves the field as it was */
	switch (o->type) {
	case IL_OPT_T_U64: {
		uint64_t v;
		if (parse_u64(o, text, &v, err))
			return -EINVAL;
		*(uint64_t *)f = v;
		return 0;
	}
	case IL_OPT_T_INT: {
		int v;
		if (parse_int(o, text, &v, err))
			return -EINVAL;
		*(int *)f = v;
		return 0;
	}
	case IL_OPT_T_DOUBLE: {
		double v;
		if (parse_double(o, text, &v, err))
			return -EINVAL;
		*(double *)f = v;
		return 0;
	}
	case IL_OPT_T_DUR:
	case IL_OPT_T_DUR_NS: {
		int64_t v;
		if (parse_dur(o, text, o->type == IL_OPT_T_DUR, &v, err))
			return -EINVAL;
		*(int64_t *)f = v;
		return 0;
	}
	case IL_OPT_T_BOOL: {
		bool v;
		if (il_parse_bool(text, &v))
			return il_err_set(err, EINVAL, "%s: '%s' is not on or off", o->name, text);
		*(bool *)f = v;
		return 0;
	}
	case IL_OPT_T_ENUM: {
		int v = 0;
		if (parse_enum(o, text, &v, err))
			return -EINVAL;
		memcpy(f, &v, sizeof(v));
		return 0;
	}
	case IL_OPT_T_DIST: {
		struct il_err e;
		struct il_dist d;
		il_err_clear(&e);
		/* bare numbers as the option table's durations read them: µs */
		if (il_dist_parse_bare(text, true, &d, &e))
			return il_err_set(err, EINVAL, "%s: %s", o->name, e.msg);
		*(struct il_dist *)f = d;
		return 0;
	}
	case IL_OPT_T_DUR_LIST:
	case IL_OPT_T_U64_LIST:
	case IL_OPT_T_INT_LIST:
		return set_list(o, cfg, text, err);
	}
	return il_err_set(err, EINVAL, "%s: unknown option type", o->name);
}

int il_opts_defaults(const struct il_opt *tbl, void *cfg, struct il_err *err)
{
	for (const struct il_opt *o = tbl; o && o->name; o++) {
		if (!o->def)
			continue;
		if (il_opt_set(o, cfg, o->def, err)) {
			char msg[IL_ERR_MSG_MAX];
			snprintf(msg, sizeof(msg), "%s", err->msg);
			return il_err_set(err, EINVAL, "the default of %s is wrong: %s", o->name, msg);
		}
	}
	return 0;
}

static bool in_range(const struct il_opt *o, double v)
{
	return v >= o->min && v <= o->max;
}

/* valtext: the value as the structure holds it ("123", "4000ns") */
static int out_of_range(const struct il_opt *o, const char *valtext, struct il_err *err)
{
	char r[80];

	return il_err_set(err, EINVAL, "%s: %s is out of range %s", o->name, valtext,
			  range_text(o, r, sizeof(r)));
}

static int i64_out_of_range(const struct il_opt *o, int64_t v, const char *unit, struct il_err *err)
{
	char t[40];

	snprintf(t, sizeof(t), "%lld%s", (long long)v, unit);
	return out_of_range(o, t, err);
}

int il_opts_check(const struct il_opt *tbl, const void *cfg, struct il_err *err)
{
	for (const struct il_opt *o = tbl; o && o->name; o++) {
		const void *f = cfield(cfg, o->off);
		switch (o->type) {
		case IL_OPT_T_U64: {
			uint64_t v = *(const uint64_t *)f;
			if (!in_range(o, (double)v)) {
				char t[40];
				snprintf(t, sizeof(t), "%llu", (unsigned long long)v);
				return out_of_range(o, t, err);
			}
			break;
		}
		case IL_OPT_T_INT: {
			int v = *(const int *)f;
			if (!(o->kw && v == o->kw_value) && !in_range(o, v))
				return i64_out_of_range(o, v, "", err);
			break;
		}
		case IL_OPT_T_DOUBLE: {
			double v = *(const double *)f;
			if (!in_range(o, v)) {
				char t[40];
				snprintf(t, sizeof(t), "%g", v);
				return out_of_range(o, t, err);
			}
			break;
		}
		case IL_OPT_T_DUR:
		case IL_OPT_T_DUR_NS: {
			int64_t v = *(const int64_t *)f;
			if (!(o->kw && v == o->kw_value) && !in_range(o, (double)v))
				return i64_out_of_range(o, v, "ns", err);
			break;
		}
		case IL_OPT_T_ENUM: {
			int v, n = 0;
			memcpy(&v, f, sizeof(v));
			while (o->choices[n])
				n++;
			if (v < 0 || v >= n)
				return il_err_set(err, EINVAL, "%s: %d is not one of its %d values",
						  o->name, v, n);
			break;
		}
		case IL_OPT_T_DUR_LIST:
		case IL_OPT_T_U64_LIST:
		case IL_OPT_T_INT_LIST: {
			int n = *(const int *)cfield(cfg, o->count_off);
			if (n < o->min_n || n > o->max_n)
				return il_err_set(err, EINVAL, "%s: %d values, not %d..%d", o->name, n,
						  o->min_n, o->max_n);
			for (int i = 0; i < n; i++) {
				int64_t v = o->type == IL_OPT_T_DUR_LIST ? ((const int64_t *)f)[i]
					  : o->type == IL_OPT_T_U64_LIST ? (int64_t)((const uint64_t *)f)[i]
					  : ((const int *)f)[i];
				if (!in_range(o, (double)v))
					return i64_out_of_range(o, v, o->type == IL_OPT_T_DUR_LIST ? "ns" : "",
								err);
			}
			break;
		}
		case IL_OPT_T_BOOL:
		case IL_OPT_T_DIST:
			break;
		}
	}
	return 0;
}

/* What values o takes, for the help: "(1..100)", "(got-tick|stop|retain)". */
static void takes_text(const struct il_opt *o, char *buf, size_t size)
{
	char r[80];

	switch (o->type) {
	case IL_OPT_T_BOOL:
		snprintf(buf, size, " (on|off)");
		break;
	case IL_OPT_T_ENUM: {
		size_t l = (size_t)snprintf(buf, size, " (");
		for (int i = 0; o->choices[i] && l < size; i++)
			l += (size_t)snprintf(buf + l, size - l, "%s%s", i ? "|" : "", o->choices[i]);
		if (l < size)
			snprintf(buf + l, size - l, ")");
		break;
	}
	case IL_OPT_T_DIST:
		buf[0] = '\0';
		break;
	case IL_OPT_T_DUR_LIST:
	case IL_OPT_T_U64_LIST:
	case IL_OPT_T_INT_LIST:
		if (o->min_n == o->max_n)
			snprintf(buf, size, " (%d values in %s)", o->max_n, range_text(o, r, sizeof(r)));
		else
			snprintf(buf, size, " (up to %d values in %s; A..B step S)", o->max_n,
				 range_text(o, r, sizeof(r)));
		break;
	default:
		if (o->kw)
			snprintf(buf, size, " (%s, or %s)", range_text(o, r, sizeof(r)), o->kw);
		else
			snprintf(buf, size, " (%s)", range_text(o, r, sizeof(r)));
		break;
	}
}

/* Append text to buf at *need (snprintf-style: *need counts what would be written). */
static void put(char *buf, size_t size, size_t *need, const char *text, size_t len)
{
	if (*need < size) {
		size_t room = size - *need - 1, n = len < room ? len : room;
		memcpy(buf + *need, text, n);
		buf[*need + n] = '\0';
	}
	*need += len;
}

size_t il_opts_help(const struct il_opt *tbl, const char *indent, char *buf, size_t size)
{
	enum { COLUMNS = 99, KV_MAX = 24 };
	size_t need = 0, width = 0, ind = strlen(indent);

	for (const struct il_opt *o = tbl; o && o->name; o++) {
		size_t w = strlen(o->name) + 1 + (o->def ? strlen(o->def) : 0);
		if (w <= KV_MAX && w > width)
			width = w;
	}
	if (size)
		buf[0] = '\0';
	for (const struct il_opt *o = tbl; o && o->name; o++) {
		char takes[200], text[600], kv[400];
		int kvl = snprintf(kv, sizeof(kv), "%s=%s", o->name, o->def ? o->def : "");
		size_t col = ind + width + 2;

		takes_text(o, takes, sizeof(takes));
		snprintf(text, sizeof(text), "%s%s", o->help, takes);
		put(buf, size, &need, indent, ind);
		put(buf, size, &need, kv, (size_t)kvl);
		if ((size_t)kvl > width) {
			/* a long default: the help goes on the next line, in the column */
			put(buf, size, &need, "\n", 1);
			for (size_t i = 0; i < col; i++)
				put(buf, size, &need, " ", 1);
		} else {
			for (size_t i = (size_t)kvl; i < width + 2; i++)
				put(buf, size, &need, " ", 1);
		}
		/* the help, wrapped at COLUMNS under its first word */
		size_t at = col;
		const char *w = text;
		while (*w) {
			const char *e = strchr(w, ' ');
			size_t len = e ? (size_t)(e - w) : strlen(w);
			if (at > col && at + 1 + len > COLUMNS) {
				put(buf, size, &need, "\n", 1);
				for (size_t i = 0; i < col; i++)
					put(buf, size, &need, " ", 1);
				at = col;
			} else if (at > col) {
				put(buf, size, &need, " ", 1);
				at++;
			}
			put(buf, size, &need, w, len);
			at += len;
			w += len;
			while (*w == ' ')
				w++;
		}
		put(buf, size, &need, "\n", 1);
	}
	return need;
}
