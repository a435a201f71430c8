// SPDX-License-Identifier: GPL-2.0-only
/*
 * Expressions of scenario files (docs/scenarios.md, Expressions): numbers,
 * + - * /, comparisons, && || !, and functions over the runs of the
 * configurations:
 *
 *   min max median amean mean hmean stddev coefvar n (CFG, METRIC)
 *   v(METRIC)                     the value in the current run (inside *if, at_*)
 *   countif(CFG, PRED)            runs of CFG where PRED holds
 *   minif maxif meanif (CFG, EXPR, PRED)
 *   at_min at_max (CFG, METRIC, EXPR)   EXPR in the run where METRIC is least/greatest
 *   gain(A, B) = (A/B - 1) x 100, pct(A, B) = 100 A/B, ratio(A, B), least, greatest, abs(X)
 *   maxdiff(TABLE[, COLUMN])      the largest |difference| of a table (checks only)
 *
 * A function over the runs may be in the per-run argument of another, not
 * deeper: an expression is evaluated at most runs x runs times a node.
 *
 * METRIC is "ROW/COL" as the results name them ("request-response/throughput_MBps",
 * "state C2/time_us", "/above_pct" for a run-level one), or the name of a
 * [define]; an identifier alone is a [define] holding an expression.
 * Parsed once (errors name the line); evaluated on any data.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "idlelab/scenario.h"
#include "scn_internal.h"
#include "util.h"

#define DEPTH_MAX 64
#define NODES_MAX 100000      /* primaries of one expression, defines expanded */

enum kind {
	N_NUM, N_NEG, N_NOT, N_ADD, N_SUB, N_MUL, N_DIV,
	N_LT, N_LE, N_GT, N_GE, N_EQ, N_NE, N_AND, N_OR,
	N_STAT, N_V, N_COUNTIF, N_MINIF, N_MAXIF, N_MEANIF, N_ATMIN, N_ATMAX,
	N_GAIN, N_PCT, N_RATIO, N_LEAST, N_GREATEST, N_ABS, N_MAXDIFF,
};

enum stat { S_MIN, S_MAX, S_MEDIAN, S_AMEAN, S_HMEAN, S_STDDEV, S_COEFVAR, S_N };

struct il_scn_expr {
	enum kind k;
	double num;
	enum stat stat;
	int cfg;
	int table, col;
	char row[40], mcol[40];
	struct il_scn_expr *a, *b, *c;
};

static const char *const cmp_text[] = { "<", "<=", ">", ">=", "==", "!=" };

/* ------------------------------------------------------------------ parsing */

struct pctx {
	const struct il_scn *s;
	const char *text, *pos;
	unsigned flags;
	int line;
	int depth;            /* primaries open, across define expansions (DEPTH_MAX) */
	int nodes;            /* primaries read, across define expansions (NODES_MAX) */
	int defines;          /* defines being expanded, one inside the other */
	int per_run;          /* inside a per-run argument */
	int run_base;         /* per_run of the whole (a define checked alone: 1, for v()) */
	const char *define;   /* the define being expanded, for messages */
	struct il_err *err;
	bool failed;
};

static int perr(struct pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct pctx *c, const char *fmt, ...)
{
	char msg[IL_ERR_MSG_MAX - 64];
	va_list ap;

	if (c->failed)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->failed = true;
	if (c->define)
		return il_err_set_at(c->err, EINVAL, c->s->file, c->line, "define %s: %s", c->define, msg);
	return il_err_set_at(c->err, EINVAL, c->s->file, c->line, "%s (in '%s')", msg, c->text);
}

static struct il_scn_expr *node(enum kind k)
{
	struct il_scn_expr *e = il_xcalloc(1, sizeof(*e));
	e->k = k;
	e->cfg = e->table = e->col = -1;
	return e;
}

static void skip(struct pctx *c)
{
	while (*c->pos == ' ' || *c->pos == '\t')
		c->pos++;
}

static bool eat(struct pctx *c, const char *tok)
{
	size_t n = strlen(tok);
	skip(c);
	if (strncmp(c->pos, tok, n))
		return false;
	c->pos += n;
	return true;
}

static struct il_scn_expr *parse_or(struct pctx *c);

/* Raw text up to the next ',' or ')' (a metric, a column name), trimmed. */
static int raw_arg(struct pctx *c, char *buf, size_t size, const char *what)
{
	skip(c);
	const char *start = c->pos;
	while (*c->pos && *c->pos != ',' && *c->pos != ')' && *c->pos != '(')
		c->pos++;
	size_t n = (size_t)(c->pos - start);
	while (n && (start[n - 1] == ' ' || start[n - 1] == '\t'))
		n--;
	if (!n)
		return perr(c, "%s missing", what);
	if (n >= size)
		return perr(c, "%s '%.*s' is too long", what, (int)n, start);
	memcpy(buf, start, n);
	buf[n] = '\0';
	return 0;
}

static const char *define_text(const struct il_scn *s, const char *name)
{
	for (int i = 0; i < s->ndefines; i++)
		if (!strcmp(s->defines[i].name, name))
			return s->defines[i].text;
	return NULL;
}

static int metric_arg(struct pctx *c, struct il_scn_expr *e)
{
	char buf[128];
	int r = raw_arg(c, buf, sizeof(buf), "a metric (ROW/COLUMN)");
	if (r)
		return r;
	const char *m = define_text(c->s, buf);
	if (!m)
		m = buf;
	const char *slash = strrchr(m, '/');
	if (!slash || !slash[1])
		return perr(c, "'%s' is not a metric ROW/COLUMN", m);
	if ((size_t)(slash - m) >= sizeof(e->row) || strlen(slash + 1) >= sizeof(e->mcol))
		return perr(c, "metric '%s' is too long", m);
	snprintf(e->row, sizeof(e->row), "%.*s", (int)(slash - m), m);
	snprintf(e->mcol, sizeof(e->mcol), "%s", slash + 1);
	return 0;
}

static int cfg_arg(struct pctx *c, struct il_scn_expr *e)
{
	char buf[IL_SCN_ID_MAX + 8];
	int r = raw_arg(c, buf, sizeof(buf), "a configuration");
	if (r)
		return r;
	e->cfg = il_scn_config_find(c->s, buf);
	if (e->cfg < 0)
		return perr(c, "no configuration '%s'", buf);
	return 0;
}

static int comma(struct pctx *c)
{
	return eat(c, ",") ? 0 : perr(c, "',' expected at '%s'", c->pos);
}

static struct il_scn_expr *expr_arg(struct pctx *c, bool per_run)
{
	c->per_run += per_run;
	struct il_scn_expr *e = parse_or(c);
	c->per_run -= per_run;
	return e;
}

static const struct {
	const char *name;
	enum kind k;
	enum stat stat;
} funcs[] = {
	{ "min", N_STAT, S_MIN }, { "max", N_STAT, S_MAX }, { "median", N_STAT, S_MEDIAN },
	{ "amean", N_STAT, S_AMEAN }, { "mean", N_STAT, S_AMEAN }, { "hmean", N_STAT, S_HMEAN },
	{ "stddev", N_STAT, S_STDDEV }, { "coefvar", N_STAT, S_COEFVAR }, { "n", N_STAT, S_N },
	{ "v", N_V, 0 }, { "countif", N_COUNTIF, 0 }, { "minif", N_MINIF, 0 },
	{ "maxif", N_MAXIF, 0 }, { "meanif", N_MEANIF, 0 }, { "at_min", N_ATMIN, 0 },
	{ "at_max", N_ATMAX, 0 }, { "gain", N_GAIN, 0 }, { "pct", N_PCT, 0 },
	{ "ratio", N_RATIO, 0 }, { "least", N_LEAST, 0 }, { "greatest", N_GREATEST, 0 },
	{ "abs", N_ABS, 0 }, { "maxdiff", N_MAXDIFF, 0 },
};

static struct il_scn_expr *call(struct pctx *c, const char *name)
{
	int fi = -1;
	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
		if (!strcasecmp(funcs[i].name, name))
			fi = (int)i;
	if (fi < 0) {
		perr(c, "unknown function '%s'", name);
		return NULL;
	}
	/*
	 * A function over the runs inside the per-run argument of one inside
	 * another's: evaluated runs x runs x runs times (2^40 for 40 nested
	 * countif of 2 runs), so refused; one over runs in another's per-run
	 * argument (a median in countif's predicate) is runs x runs.
	 */
	enum kind k = funcs[fi].k;
	if (c->per_run - c->run_base >= 2 && k >= N_STAT && k <= N_ATMAX && k != N_V) {
		perr(c, "%s() inside a per-run argument of a function that is itself in one: runs "
		     "over runs over runs", name);
		return NULL;
	}
	/* a table's cells are over the runs already, and the same in every run */
	if (c->per_run > c->run_base && k == N_MAXDIFF) {
		perr(c, "maxdiff() in a per-run argument (it is the same in every run)");
		return NULL;
	}
	struct il_scn_expr *e = node(k);
	int r = 0;
	e->stat = funcs[fi].stat;
	switch (e->k) {
	case N_STAT:
		r = cfg_arg(c, e);
		if (!r)
			r = comma(c);
		if (!r)
			r = metric_arg(c, e);
		break;
	case N_V:
		if (!c->per_run)
			r = perr(c, "v() is for the per-run arguments of countif, minif, maxif, meanif, "
				 "at_min and at_max");
		else
			r = metric_arg(c, e);
		break;
	case N_COUNTIF:
		r = cfg_arg(c, e);
		if (!r)
			r = comma(c);
		if (!r && !(e->a = expr_arg(c, true)))
			r = -EINVAL;
		break;
	case N_MINIF: case N_MAXIF: case N_MEANIF:
		r = cfg_arg(c, e);
		if (!r)
			r = comma(c);
		if (!r && !(e->a = expr_arg(c, true)))
			r = -EINVAL;
		if (!r)
			r = comma(c);
		if (!r && !(e->b = expr_arg(c, true)))
			r = -EINVAL;
		break;
	case N_ATMIN: case N_ATMAX:
		r = cfg_arg(c, e);
		if (!r)
			r = comma(c);
		if (!r)
			r = metric_arg(c, e);
		if (!r)
			r = comma(c);
		if (!r && !(e->a = expr_arg(c, true)))
			r = -EINVAL;
		break;
	case N_GAIN: case N_PCT: case N_RATIO: case N_LEAST: case N_GREATEST:
		if (!(e->a = expr_arg(c, false)))
			r = -EINVAL;
		if (!r)
			r = comma(c);
		if (!r && !(e->b = expr_arg(c, false)))
			r = -EINVAL;
		break;
	case N_ABS:
		if (!(e->a = expr_arg(c, false)))
			r = -EINVAL;
		break;
	case N_MAXDIFF: {
		char buf[256];
		if (!(c->flags & IL_SCN_EXPR_CHECK)) {
			r = perr(c, "maxdiff() is for checks and sensitivity figures");
			break;
		}
		r = raw_arg(c, buf, sizeof(buf), "a table");
		if (!r && (e->table = il_scn_table_find(c->s, buf)) < 0)
			r = perr(c, "no table '%s'", buf);
		if (!r && eat(c, ",")) {
			const struct il_scn_table *t = &c->s->tables[e->table];
			r = raw_arg(c, buf, sizeof(buf), "a column");
			for (int i = 0; !r && i < t->ncols && e->col < 0; i++)
				if (!strcmp(t->cols[i], buf))
					e->col = i;
			if (!r && e->col < 0)
				r = perr(c, "table %s has no column '%s'", t->id, buf);
		}
		break;
	}
	default:
		break;
	}
	if (!r && !eat(c, ")"))
		r = perr(c, "')' expected at '%s'", c->pos);
	if (r) {
		il_scn_expr_free(e);
		return NULL;
	}
	return e;
}

static struct il_scn_expr *parse_define(struct pctx *c, const char *name, const char *text)
{
	struct pctx sub = *c;

	if (c->defines >= 16) {
		perr(c, "defines nest too deep (a define that uses itself?)");
		return NULL;
	}
	sub.text = sub.pos = text;
	sub.depth = c->depth + 1;
	sub.defines = c->defines + 1;
	if (!sub.define)
		sub.define = name;
	struct il_scn_expr *e = parse_or(&sub);
	skip(&sub);
	if (e && *sub.pos) {
		perr(&sub, "unexpected '%s'", sub.pos);
		il_scn_expr_free(e);
		e = NULL;
	}
	c->failed = sub.failed;
	c->nodes = sub.nodes;
	return e;
}

static struct il_scn_expr *primary(struct pctx *c)
{
	skip(c);
	if (++c->depth > DEPTH_MAX) {
		perr(c, "expression nested too deep");
		return NULL;
	}
	if (++c->nodes > NODES_MAX) {
		perr(c, "expression too large (more than %d terms with its defines expanded)",
		     NODES_MAX);
		return NULL;
	}
	struct il_scn_expr *e = NULL;
	const char *p = c->pos;
	if (*p == '(') {
		c->pos++;
		e = parse_or(c);
		if (e && !eat(c, ")")) {
			perr(c, "')' expected at '%s'", c->pos);
			il_scn_expr_free(e);
			e = NULL;
		}
	} else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
		char *end;
		double v = strtod(p, &end);
		if (end == p || !isfinite(v))
			perr(c, "bad number at '%s'", p);
		else {
			e = node(N_NUM);
			e->num = v;
			c->pos = end;
		}
	} else if (isalpha((unsigned char)*p) || *p == '_') {
		char name[IL_SCN_ID_MAX];
		size_t n = 0;
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (n >= sizeof(name))
			perr(c, "name too long at '%s'", p);
		else {
			snprintf(name, sizeof(name), "%.*s", (int)n, p);
			c->pos = p + n;
			skip(c);
			if (*c->pos == '(') {
				c->pos++;
				e = call(c, name);
			} else {
				const char *d = define_text(c->s, name);
				if (!d)
					perr(c, "'%s' is neither a function nor a define", name);
				else
					e = parse_define(c, name, d);
			}
		}
	} else if (!*p) {
		perr(c, "the expression ends early");
	} else {
		perr(c, "unexpected '%s'", p);
	}
	c->depth--;
	return e;
}

static struct il_scn_expr *unary(struct pctx *c)
{
	if (eat(c, "-")) {
		struct il_scn_expr *a = unary(c);
		if (!a)
			return NULL;
		struct il_scn_expr *e = node(N_NEG);
		e->a = a;
		return e;
	}
	skip(c);
	if (c->pos[0] == '!' && c->pos[1] != '=') {
		c->pos++;
		struct il_scn_expr *a = unary(c);
		if (!a)
			return NULL;
		struct il_scn_expr *e = node(N_NOT);
		e->a = a;
		return e;
	}
	return primary(c);
}

static struct il_scn_expr *binary(enum kind k, struct il_scn_expr *a, struct il_scn_expr *b)
{
	if (!b) {
		il_scn_expr_free(a);
		return NULL;
	}
	struct il_scn_expr *e = node(k);
	e->a = a;
	e->b = b;
	return e;
}

static struct il_scn_expr *mul(struct pctx *c)
{
	struct il_scn_expr *e = unary(c);
	while (e) {
		if (eat(c, "*"))
			e = binary(N_MUL, e, unary(c));
		else if (eat(c, "/"))
			e = binary(N_DIV, e, unary(c));
		else
			break;
	}
	return e;
}

static struct il_scn_expr *add(struct pctx *c)
{
	struct il_scn_expr *e = mul(c);
	while (e) {
		if (eat(c, "+"))
			e = binary(N_ADD, e, mul(c));
		else if (eat(c, "-"))
			e = binary(N_SUB, e, mul(c));
		else
			break;
	}
	return e;
}

static struct il_scn_expr *cmp(struct pctx *c)
{
	static const struct { const char *tok; enum kind k; } ops[] = {
		{ "<=", N_LE }, { ">=", N_GE }, { "==", N_EQ }, { "!=", N_NE }, { "<", N_LT }, { ">", N_GT },
	};
	struct il_scn_expr *e = add(c);
	if (!e)
		return NULL;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (eat(c, ops[i].tok))
			return binary(ops[i].k, e, add(c));
	return e;
}

static struct il_scn_expr *parse_and(struct pctx *c)
{
	struct il_scn_expr *e = cmp(c);
	while (e && eat(c, "&&"))
		e = binary(N_AND, e, cmp(c));
	return e;
}

static struct il_scn_expr *parse_or(struct pctx *c)
{
	struct il_scn_expr *e = parse_and(c);
	while (e && eat(c, "||"))
		e = binary(N_OR, e, parse_and(c));
	return e;
}

struct il_scn_expr *il_scn_expr_parse(const struct il_scn *s, const char *text, unsigned flags,
				      int line, struct il_err *err)
{
	struct pctx c = { .s = s, .text = text, .pos = text, .flags = flags, .line = line, .err = err,
			  .per_run = (flags & IL_SCN_EXPR_RUN) ? 1 : 0,
			  .run_base = (flags & IL_SCN_EXPR_RUN) ? 1 : 0 };
	struct il_scn_expr *e = parse_or(&c);

	skip(&c);
	if (e && *c.pos) {
		perr(&c, "unexpected '%s'", c.pos);
		il_scn_expr_free(e);
		return NULL;
	}
	if (!e && !c.failed)
		perr(&c, "not an expression");
	return e;
}

void il_scn_expr_free(struct il_scn_expr *e)
{
	if (!e)
		return;
	il_scn_expr_free(e->a);
	il_scn_expr_free(e->b);
	il_scn_expr_free(e->c);
	free(e);
}

/* ------------------------------------------------------------------ evaluation */

struct ectx {
	const struct il_scn *s;
	const struct il_scn_data *d;
	const struct il_metrics *run;   /* the current run (per-run arguments) */
};

static double metric_of(const struct il_metrics *ms, const char *row, const char *col)
{
	for (int i = 0; i < ms->n; i++)
		if (!strcmp(ms->m[i].col, col) && !strcmp(ms->m[i].row, row))
			return ms->m[i].value;
	return NAN;
}

static const struct il_scn_cfg_runs *cfg_runs(const struct ectx *x, int cfg)
{
	if (!x->d || cfg < 0 || cfg >= x->d->nconfigs)
		return NULL;
	return &x->d->cfg[cfg];
}

static double eval(const struct il_scn_expr *e, const struct ectx *x);

static double stat_of(const struct il_scn_expr *e, const struct ectx *x)
{
	const struct il_scn_cfg_runs *cr = cfg_runs(x, e->cfg);
	if (!cr || cr->nruns < 1)
		return e->stat == S_N ? 0 : NAN;
	double *v = il_xcalloc((size_t)cr->nruns, sizeof(*v));
	int n = 0;
	for (int k = 0; k < cr->nruns; k++) {
		double m = metric_of(&cr->runs[k], e->row, e->mcol);
		if (!isnan(m))
			v[n++] = m;
	}
	double out = NAN;
	if (e->stat == S_N)
		out = n;
	else if (n == cr->nruns) {
		struct il_stats st;
		il_stats_compute(v, n, &st);
		switch (e->stat) {
		case S_MIN: out = st.min; break;
		case S_MAX: out = st.max; break;
		case S_MEDIAN: out = st.median; break;
		case S_AMEAN: out = st.amean; break;
		case S_HMEAN: out = st.hmean > 0 ? st.hmean : NAN; break;
		case S_STDDEV: out = n > 1 ? st.stddev : NAN; break;
		case S_COEFVAR: out = n > 1 && st.amean != 0 ? st.coefvar : NAN; break;
		default: break;
		}
	}
	free(v);
	return out;
}

static double runs_agg(const struct il_scn_expr *e, const struct ectx *x)
{
	const struct il_scn_cfg_runs *cr = cfg_runs(x, e->cfg);
	if (!cr || cr->nruns < 1)
		return NAN;
	struct ectx sub = *x;
	double acc = e->k == N_MINIF ? INFINITY : e->k == N_MAXIF ? -INFINITY : 0;
	int n = 0;
	for (int k = 0; k < cr->nruns; k++) {
		sub.run = &cr->runs[k];
		double pred = eval(e->k == N_COUNTIF ? e->a : e->b, &sub);
		if (isnan(pred))
			return NAN;
		if (pred == 0)
			continue;
		if (e->k == N_COUNTIF) {
			n++;
			continue;
		}
		double v = eval(e->a, &sub);
		if (isnan(v))
			return NAN;
		n++;
		if (e->k == N_MINIF)
			acc = fmin(acc, v);
		else if (e->k == N_MAXIF)
			acc = fmax(acc, v);
		else
			acc += v;
	}
	if (e->k == N_COUNTIF)
		return n;
	if (!n)
		return NAN;
	return e->k == N_MEANIF ? acc / n : acc;
}

static double at_extreme(const struct il_scn_expr *e, const struct ectx *x)
{
	const struct il_scn_cfg_runs *cr = cfg_runs(x, e->cfg);
	if (!cr || cr->nruns < 1)
		return NAN;
	int best = -1;
	double bv = 0;
	for (int k = 0; k < cr->nruns; k++) {
		double m = metric_of(&cr->runs[k], e->row, e->mcol);
		if (isnan(m))
			return NAN;
		if (best < 0 || (e->k == N_ATMIN ? m < bv : m > bv)) {
			best = k;
			bv = m;
		}
	}
	struct ectx sub = *x;
	sub.run = &cr->runs[best];
	return eval(e->a, &sub);
}

static double truth(double v)
{
	return isnan(v) ? NAN : v != 0;
}

static double eval(const struct il_scn_expr *e, const struct ectx *x)
{
	double a, b;

	switch (e->k) {
	case N_NUM: return e->num;
	case N_NEG: return -eval(e->a, x);
	case N_NOT: a = truth(eval(e->a, x)); return isnan(a) ? a : !a;
	case N_ADD: return eval(e->a, x) + eval(e->b, x);
	case N_SUB: return eval(e->a, x) - eval(e->b, x);
	case N_MUL: return eval(e->a, x) * eval(e->b, x);
	case N_DIV:
		b = eval(e->b, x);
		return b == 0 ? NAN : eval(e->a, x) / b;
	case N_LT: case N_LE: case N_GT: case N_GE: case N_EQ: case N_NE:
		a = eval(e->a, x);
		b = eval(e->b, x);
		if (isnan(a) || isnan(b))
			return NAN;
		switch (e->k) {
		case N_LT: return a < b;
		case N_LE: return a <= b;
		case N_GT: return a > b;
		case N_GE: return a >= b;
		case N_EQ: return a == b;
		default: return a != b;
		}
	case N_AND:
		a = truth(eval(e->a, x));
		b = truth(eval(e->b, x));
		return isnan(a) || isnan(b) ? NAN : a && b;
	case N_OR:
		a = truth(eval(e->a, x));
		b = truth(eval(e->b, x));
		return isnan(a) || isnan(b) ? NAN : a || b;
	case N_STAT: return stat_of(e, x);
	case N_V: return x->run ? metric_of(x->run, e->row, e->mcol) : NAN;
	case N_COUNTIF: case N_MINIF: case N_MAXIF: case N_MEANIF: return runs_agg(e, x);
	case N_ATMIN: case N_ATMAX: return at_extreme(e, x);
	case N_GAIN:
		a = eval(e->a, x);
		b = eval(e->b, x);
		return b == 0 ? NAN : (a / b - 1) * 100;
	case N_PCT:
		a = eval(e->a, x);
		b = eval(e->b, x);
		return b == 0 ? NAN : 100 * a / b;
	case N_RATIO:
		a = eval(e->a, x);
		b = eval(e->b, x);
		return b == 0 ? NAN : a / b;
	case N_LEAST:
		a = eval(e->a, x);
		b = eval(e->b, x);
		return isnan(a) || isnan(b) ? NAN : fmin(a, b);
	case N_GREATEST:
		a = eval(e->a, x);
		b = eval(e->b, x);
		return isnan(a) || isnan(b) ? NAN : fmax(a, b);
	case N_ABS: return fabs(eval(e->a, x));
	case N_MAXDIFF:
		return il_scn_table_maxdiff(x->s, &x->s->tables[e->table], e->col, x->d);
	}
	return NAN;
}

double il_scn_expr_eval(const struct il_scn_expr *e, const struct il_scn *s,
			const struct il_scn_data *d)
{
	struct ectx x = { .s = s, .d = d, .run = NULL };
	return eval(e, &x);
}

/* sim against pub: in points, or relative in % (none against a published 0) */
static double diff_of(bool points, double pub, double sim)
{
	if (isnan(pub) || isnan(sim))
		return NAN;
	if (points)
		return sim - pub;
	return pub == 0 ? NAN : (sim / pub - 1) * 100;
}

double il_scn_diff(const struct il_scn_table *t, int col, double pub, double sim)
{
	return diff_of(t->col_diff[col] == IL_SCN_DIFF_POINTS, pub, sim);
}

bool il_scn_cell_in_points(const struct il_scn_table *t, int row, int col)
{
	return t->col_diff[col] == IL_SCN_DIFF_POINTS || (t->row_points && t->row_points[row]);
}

double il_scn_cell_diff(const struct il_scn_table *t, int row, int col, double pub, double sim)
{
	return diff_of(il_scn_cell_in_points(t, row, col), pub, sim);
}

double il_scn_table_maxdiff(const struct il_scn *s, const struct il_scn_table *t, int col,
			    const struct il_scn_data *d)
{
	double worst = NAN;
	int cells = 0;

	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			const struct il_scn_cell *cell = &t->cells[r * t->ncols + c];
			if ((col >= 0 && c != col) || !cell->pub_text || !cell->sim)
				continue;
			double diff = il_scn_cell_diff(t, r, c, cell->pub, il_scn_expr_eval(cell->sim, s, d));
			if (isnan(diff))
				return NAN; /* a cell that cannot be compared: nothing to assert */
			worst = cells++ ? fmax(worst, fabs(diff)) : fabs(diff);
		}
	return worst;
}

/* ------------------------------------------------------------------ explanation */

static void num_text(double v, char *buf, size_t size)
{
	if (isnan(v))
		snprintf(buf, size, "n/a");
	else if (fabs(v) >= 100)
		snprintf(buf, size, "%.1f", v);
	else if (fabs(v) >= 1 || v == 0)
		snprintf(buf, size, "%.2f", v);
	else
		snprintf(buf, size, "%.3g", v);
}

static void explain(const struct il_scn_expr *e, const struct ectx *x, char *buf, size_t size)
{
	size_t n = strlen(buf);
	char a[32], b[32];

	if (n + 1 >= size)
		return;
	switch (e->k) {
	case N_AND: case N_OR:
		explain(e->a, x, buf, size);
		n = strlen(buf);
		snprintf(buf + n, size - n, e->k == N_AND ? " and " : " or ");
		explain(e->b, x, buf, size);
		break;
	case N_LT: case N_LE: case N_GT: case N_GE: case N_EQ: case N_NE:
		num_text(eval(e->a, x), a, sizeof(a));
		num_text(eval(e->b, x), b, sizeof(b));
		snprintf(buf + n, size - n, "%s %s %s", a, cmp_text[e->k - N_LT], b);
		break;
	default:
		num_text(eval(e, x), a, sizeof(a));
		snprintf(buf + n, size - n, "%s", a);
		break;
	}
}

void il_scn_expr_explain(const struct il_scn_expr *e, const struct il_scn *s,
			 const struct il_scn_data *d, char *buf, size_t size)
{
	struct ectx x = { .s = s, .d = d, .run = NULL };

	if (!size)
		return;
	buf[0] = '\0';
	explain(e, &x, buf, size);
}
