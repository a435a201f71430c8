// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running a scenario: every configuration (and every sensitivity rerun) is
 * one batch of the simulator's batch machinery (src/sim/run.c: runs on
 * threads, seeds S, S+1, ...), prepared all before the first runs, so a
 * wrong configuration stops the scenario before anything ran.
 *
 * Platform overrides ("pset = SECTION.KEY=VALUE") are applied to the
 * platform file's text before it is parsed, so they reach every key the
 * platform format has, and the platform parser checks them as it checks a
 * file.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "idlelab/platform.h"
#include "idlelab/scenario.h"
#include "idlelab/workload.h"
#include "scn_internal.h"
#include "util.h"

/* ------------------------------------------------------------------ platform text */

struct line_span {
	size_t start, end;        /* [start, end) without the newline */
};

/* Next line of text from *pos. */
static bool next_line(const char *text, size_t *pos, struct line_span *l)
{
	size_t n = strlen(text);
	if (*pos >= n)
		return false;
	l->start = *pos;
	const char *nl = strchr(text + *pos, '\n');
	l->end = nl ? (size_t)(nl - text) : n;
	*pos = nl ? l->end + 1 : n;
	return true;
}

/* The trimmed text of [a, b) into buf. */
static size_t span_text(const char *text, size_t a, size_t b, char *buf, size_t size)
{
	while (a < b && isspace((unsigned char)text[a]))
		a++;
	while (b > a && isspace((unsigned char)text[b - 1]))
		b--;
	size_t n = b - a < size - 1 ? b - a : size - 1;
	memcpy(buf, text + a, n);
	buf[n] = '\0';
	return b - a; /* the whole length, as snprintf() */
}

/* Is this line "[name]"? Its name into buf. */
static bool is_header(const char *text, const struct line_span *l, char *buf, size_t size)
{
	char t[256];
	span_text(text, l->start, l->end, t, sizeof(t));
	size_t n = strlen(t);
	if (n < 2 || t[0] != '[' || t[n - 1] != ']')
		return false;
	span_text(t, 1, n - 1, buf, size);
	return true;
}

/* "key = value" of a line: key into k, the value's span (inline "; comment" cut). */
static bool is_key(const char *text, const struct line_span *l, char *k, size_t ksize,
		   size_t *vstart, size_t *vend)
{
	size_t a = l->start;
	while (a < l->end && isspace((unsigned char)text[a]))
		a++;
	if (a == l->end || text[a] == ';' || text[a] == '#' || text[a] == '[')
		return false;
	const char *eq = memchr(text + a, '=', l->end - a);
	if (!eq)
		return false;
	span_text(text, a, (size_t)(eq - text), k, ksize);
	*vstart = (size_t)(eq - text) + 1;
	*vend = l->end;
	for (size_t i = *vstart; i < l->end; i++)
		if ((text[i] == ';' || text[i] == '#') && i > *vstart && isspace((unsigned char)text[i - 1])) {
			*vend = i;
			break;
		}
	return true;
}

static bool has_section(const char *text, const char *name)
{
	size_t pos = 0;
	struct line_span l;
	char h[128];

	while (next_line(text, &pos, &l))
		if (is_header(text, &l, h, sizeof(h)) && !strcmp(h, name))
			return true;
	return false;
}

static const struct il_plat_key *key_known(const char *sect, const char *key);

/*
 * SECTION.KEY split at the longest SECTION the text has; else where the
 * key table knows the pair ("state.0.latency" on a platform without a
 * [state.0]: the section state.0, not [state] with a key "0.latency");
 * else at the first dot.
 */
static int split_key(const char *text, const char *skey, char *sect, size_t ssize, char *key,
		     size_t ksize, struct il_err *err)
{
	const char *best = NULL;

	for (const char *d = strchr(skey, '.'); d; d = strchr(d + 1, '.')) {
		char s[128];
		if ((size_t)(d - skey) >= sizeof(s))
			break;
		snprintf(s, sizeof(s), "%.*s", (int)(d - skey), skey);
		if (has_section(text, s))
			best = d;
	}
	for (const char *d = strchr(skey, '.'); !best && d; d = strchr(d + 1, '.')) {
		char s[128];
		if ((size_t)(d - skey) >= sizeof(s))
			break;
		snprintf(s, sizeof(s), "%.*s", (int)(d - skey), skey);
		if (key_known(s, d + 1))
			best = d;
	}
	if (!best)
		best = strchr(skey, '.');
	if (!best || best == skey || !best[1] || (size_t)(best - skey) >= ssize ||
	    strlen(best + 1) >= ksize)
		return il_err_set(err, EINVAL, "'%s' is not SECTION.KEY", skey);
	snprintf(sect, ssize, "%.*s", (int)(best - skey), skey);
	snprintf(key, ksize, "%s", best + 1);
	return 0;
}

struct key_where {
	bool section;             /* the section exists */
	int count;                /* lines with the key in it */
	struct line_span line;    /* the (first) key line */
	size_t vstart, vend;
	size_t insert;            /* where a new key line goes: after the section's last key */
};

static void find_key(const char *text, const char *sect, const char *key, struct key_where *w)
{
	size_t pos = 0;
	struct line_span l;
	char h[128], k[128];
	bool in = false;

	memset(w, 0, sizeof(*w));
	while (next_line(text, &pos, &l)) {
		if (is_header(text, &l, h, sizeof(h))) {
			in = !strcmp(h, sect);
			if (in) {
				w->section = true;
				w->insert = pos;
			}
			continue;
		}
		size_t vs, ve;
		if (!in || !is_key(text, &l, k, sizeof(k), &vs, &ve))
			continue;
		w->insert = pos;
		if (strcmp(k, key))
			continue;
		if (!w->count++) {
			w->line = l;
			w->vstart = vs;
			w->vend = ve;
		}
	}
}

char *il_scn_platform_override(const char *text, const char *assignment, struct il_err *err)
{
	char skey[160], sect[128], key[128];
	const char *eq = strchr(assignment, '=');
	struct key_where w;

	if (!eq || (size_t)(eq - assignment) >= sizeof(skey)) {
		il_err_set(err, EINVAL, "'%s' is not SECTION.KEY=VALUE", assignment);
		return NULL;
	}
	span_text(assignment, 0, (size_t)(eq - assignment), skey, sizeof(skey));
	const char *value = eq + 1;
	while (isspace((unsigned char)*value))
		value++;
	if (!*value || strchr(value, '\n')) {
		il_err_set(err, EINVAL, "'%s': the value is empty", assignment);
		return NULL;
	}
	if (split_key(text, skey, sect, sizeof(sect), key, sizeof(key), err))
		return NULL;
	find_key(text, sect, key, &w);
	if (w.count > 1) {
		il_err_set(err, EINVAL, "'%s': [%s] has %s %d times; only a key given once can be "
			   "replaced", assignment, sect, key, w.count);
		return NULL;
	}
	size_t n = strlen(text);
	size_t need = n + strlen(sect) + strlen(key) + strlen(value) + 16;
	char *out = il_xcalloc(1, need);
	if (w.count == 1) {
		snprintf(out, need, "%.*s%s = %s%s", (int)w.line.start, text, key, value,
			 text + w.line.end);
	} else if (w.section) {
		bool nl = w.insert > 0 && text[w.insert - 1] != '\n';
		snprintf(out, need, "%.*s%s%s = %s\n%s", (int)w.insert, text, nl ? "\n" : "", key, value,
			 text + w.insert);
	} else {
		bool nl = n > 0 && text[n - 1] != '\n';
		snprintf(out, need, "%s%s[%s]\n%s = %s\n", text, nl ? "\n" : "", sect, key, value);
	}
	return out;
}

/* The key table's entry for SECTION.KEY ("cst.2" matches "cst.N"), or NULL. */
static const struct il_plat_key *key_known(const char *sect, const char *key)
{
	for (int i = 0; i < il_platform_key_count(); i++) {
		const struct il_plat_key *k = il_platform_key(i);
		size_t sl = strlen(k->section);
		size_t nl = strlen(k->name);
		bool sect_ok = !strcmp(k->section, sect) ||
			       (sl > 2 && !strcmp(k->section + sl - 2, ".N") &&
				!strncmp(k->section, sect, sl - 1) && isdigit((unsigned char)sect[sl - 1]));
		/* "exit.NAME" stands for exit.<a state's name>; [turbo]'s "N" for every count */
		bool name_ok = !strcmp(k->name, key) ||
			       (!strcmp(k->name, "N") && *key && !key[strspn(key, "0123456789")]) ||
			       (nl > 5 && !strcmp(k->name + nl - 5, ".NAME") &&
				!strncmp(key, k->name, nl - 4) && key[nl - 4]);
		if (sect_ok && name_ok)
			return k;
	}
	return NULL;
}

/* The key table's default for SECTION.KEY, or NULL. */
static const char *key_default(const char *sect, const char *key)
{
	const struct il_plat_key *k = key_known(sect, key);
	return k ? k->def : NULL;
}

int il_scn_platform_value(const char *text, const char *skey, char *buf, size_t size,
			  struct il_err *err)
{
	char sect[128], key[128];
	struct key_where w;

	if (split_key(text, skey, sect, sizeof(sect), key, sizeof(key), err))
		return -EINVAL;
	find_key(text, sect, key, &w);
	if (w.count > 1)
		return il_err_set(err, EINVAL, "[%s] has %s %d times", sect, key, w.count);
	if (w.count == 1) {
		/* cut, it would be scaled and run as another value */
		if (span_text(text, w.vstart, w.vend, buf, size) >= size)
			return il_err_set(err, EINVAL, "the value of %s is longer than %zu characters",
					  skey, size - 1);
		return 0;
	}
	if (!key_known(sect, key))
		return il_err_set(err, EINVAL, "'%s' is not a key of the platform format ([%s] has "
				  "no '%s')", skey, sect, key);
	const char *def = key_default(sect, key);
	if (!def)
		return il_err_set(err, ENOENT, "%s is not given and has no default", skey);
	snprintf(buf, size, "%s", def);
	return 0;
}

/* One number with an optional unit suffix ("1500", "1.5us", "80us"), scaled. */
static int scale_number(const char *t, double factor, char *buf, size_t size)
{
	char *end;
	double v = strtod(t, &end);
	if (end == t || !isfinite(v))
		return -EINVAL;
	const char *unit = end;
	for (const char *u = unit; *u; u++)
		if (!isalpha((unsigned char)*u) && (unsigned char)*u < 0x80)
			return -EINVAL;
	/* a whole number stays whole (cycles, counts), rounded */
	size_t len = (size_t)(end - t);
	bool whole = !memchr(t, '.', len) && !memchr(t, 'e', len) && !memchr(t, 'E', len);
	double s = v * factor;
	if (whole)
		snprintf(buf, size, "%.0f%s", round(s), unit);
	else
		snprintf(buf, size, "%.6g%s", s, unit);
	return 0;
}

int il_scn_scale_value(const char *value, double factor, char *buf, size_t size,
		       struct il_err *err)
{
	char tmp[128];

	if (strlen(value) >= sizeof(tmp))
		return il_err_set(err, EINVAL, "'%s' is too long to scale", value);
	if (!strchr(value, ':')) {
		if (scale_number(value, factor, buf, size))
			return il_err_set(err, EINVAL, "'%s' is not a number that can be scaled", value);
		return 0;
	}
	/*
	 * a tail, "BODY+P%:DIST", where il_dist_parse() sees one (blanks
	 * around P too): the body and the tail's distribution scale, P does not
	 */
	const char *t = il_dist_tail_start(value);
	if (t) {
		const char *p = t + 1 + strspn(t + 1, " \t"), *pct = strchr(p, '%');
		size_t np = (size_t)(pct - p);
		while (np && isspace((unsigned char)p[np - 1]))
			np--;
		char body[128], tail[128];
		if (pct[1] != ':')
			return il_err_set(err, EINVAL, "'%s' is not a distribution that can be scaled",
					  value);
		snprintf(body, sizeof(body), "%.*s", (int)(t - value), value);
		if (il_scn_scale_value(il_strtrim(body), factor, tmp, sizeof(tmp), err) ||
		    il_scn_scale_value(pct + 2, factor, tail, sizeof(tail), err))
			return -EINVAL;
		if ((size_t)snprintf(buf, size, "%s+%.*s%%:%s", tmp, (int)np, p, tail) >= size)
			return il_err_set(err, EINVAL, "'%s' scaled is too long", value);
		return 0;
	}
	char **f;
	int nf = scn_split(value, ':', &f), r = 0;
	/* which fields are times: lognormal's sigma is not */
	int first = 1, last = nf - 1;
	if (!strcmp(f[0], "lognormal"))
		last = 1;
	else if (strcmp(f[0], "const") && strcmp(f[0], "uniform") && strcmp(f[0], "normal") &&
		 strcmp(f[0], "exp"))
		r = il_err_set(err, EINVAL, "'%s' is not a distribution that can be scaled", value);
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < nf && !r; i++) {
		if (i >= first && i <= last) {
			if (scale_number(f[i], factor, tmp, sizeof(tmp)))
				r = il_err_set(err, EINVAL, "'%s': '%s' is not a number", value, f[i]);
		} else {
			snprintf(tmp, sizeof(tmp), "%s", f[i]);
		}
		n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s", i ? ":" : "", tmp);
	}
	scn_split_free(f, nf);
	if (!r && n >= size)
		r = il_err_set(err, EINVAL, "'%s' scaled is too long", value);
	return r;
}

/* ------------------------------------------------------------------ batches */

static int platform_text(const char *name, char **text, char *label, size_t lsize,
			 struct il_err *err)
{
	for (int i = 0; i < il_builtin_platform_count; i++)
		if (!strcmp(il_builtin_platforms[i].name, name)) {
			*text = il_xstrdup(il_builtin_platforms[i].text);
			snprintf(label, lsize, "builtin:%s", name);
			return 0;
		}
	if (!strchr(name, '/') && !strchr(name, '.'))
		return il_err_set(err, ENOENT, "no built-in platform '%s'", name);
	size_t len;
	snprintf(label, lsize, "%s", name);
	return il_read_file(name, (size_t)64 << 20, text, &len, err);
}

/* Wrap err as "SCENARIO:LINE: what: <err>". */
static int wrap(const struct il_scn *s, int line, struct il_err *err, const char *what)
{
	char inner[IL_ERR_MSG_MAX];
	il_err_format(err, inner, sizeof(inner));
	return il_err_set_at(err, EINVAL, s->file, line, "%s: %s", what, inner);
}

static int opt_value(const char *kv, char *key, size_t ksize)
{
	const char *eq = strchr(kv, '=');
	if (!eq || (size_t)(eq - kv) >= ksize)
		return -EINVAL;
	span_text(kv, 0, (size_t)(eq - kv), key, ksize);
	return 0;
}

/*
 * Workload options in the order given, each KEY=VALUE left out when a later
 * one sets the same key (a quick run's, an estimate's value): the run takes
 * the last anyway, and the report prints what the run used. Returns the count.
 */
static int drop_overridden(const char **texts, int n)
{
	int kept = 0;
	for (int i = 0; i < n; i++) {
		char ki[64], kj[64];
		bool later = false;
		if (!opt_value(texts[i], ki, sizeof(ki)))
			for (int j = i + 1; j < n && !later; j++)
				later = !opt_value(texts[j], kj, sizeof(kj)) && !strcmp(ki, kj);
		if (!later)
			texts[kept++] = texts[i];
	}
	return kept;
}

/*
 * Each workload option of a configuration on its own: a key the workload
 * has and a value it takes, so that a bad one is named by its own line.
 * The quick.wl ones are checked in a full run too, as quick.duration and
 * quick.warmup are: the file is checked whole, whichever variant runs.
 * What the options say together (the workload's check) is left to
 * il_workload_configure() on the set the run uses.
 */
static int check_wl_opts(const struct il_scn *s, const struct il_scn_config *c,
			 const struct il_workload *wl, const struct il_scn_kv *kv, int n,
			 const char *what, struct il_err *err)
{
	void *scratch = il_xcalloc(1, wl->config_size ? wl->config_size : 1);
	int r = il_opts_defaults(wl->opts, scratch, err);

	for (int i = 0; r == 0 && i < n; i++) {
		struct il_wl_opt opt;
		char w[160];
		snprintf(w, sizeof(w), "configuration %s: %s", c->id, what);
		if (!il_wl_opt_parse(kv[i].text, &opt, err)) {
			r = wrap(s, kv[i].line, err, w);
			break;
		}
		const struct il_opt *od = il_opt_find(wl->opts, opt.key);
		/* an unknown key: configure's message lists the workload's options */
		r = od ? il_opt_set(od, scratch, opt.value, err)
		       : il_workload_configure(wl, scratch, &opt, 1, err);
		if (r)
			r = wrap(s, kv[i].line, err, w);
	}
	free(scratch);
	return r;
}

/*
 * Whether line (1-based) of text is the key line the override assignment
 * ("SECTION.KEY=VALUE") set, or the section header it added for it.
 */
static bool pset_wrote_line(const char *text, const char *assignment, int line)
{
	char skey[160], sect[128], key[128];
	const char *eq = strchr(assignment, '=');
	struct key_where w;
	struct il_err e;

	if (!eq || (size_t)(eq - assignment) >= sizeof(skey))
		return false;
	span_text(assignment, 0, (size_t)(eq - assignment), skey, sizeof(skey));
	if (split_key(text, skey, sect, sizeof(sect), key, sizeof(key), &e))
		return false;
	find_key(text, sect, key, &w);
	if (w.count != 1)
		return false;
	int at = 1;
	for (size_t i = 0; i < w.line.start; i++)
		at += text[i] == '\n';
	return line == at || line == at - 1;
}

static int build_batch(const struct il_scn *s, const struct il_scn_run_opts *o, int ci, int vi,
		       int fi, struct il_scn_batch *bt, struct il_err *err)
{
	const struct il_scn_config *c = &s->configs[ci];
	const struct il_scn_sens *v = vi >= 0 ? &s->sens[vi] : NULL;
	const char *pname = c->platform ? c->platform : s->platform;
	char label[300], what[600], assign[256] = "";
	char *text = NULL;
	int r;

	memset(bt, 0, sizeof(*bt));
	bt->config = ci;
	bt->sens = vi;
	bt->factor = fi;
	if (v)
		snprintf(bt->id, sizeof(bt->id), "%s@%s*%g", c->id, v->id, v->factors[fi]);
	else
		snprintf(bt->id, sizeof(bt->id), "%s", c->id);
	/* the line of the platform key that named it, else the configuration's */
	int pline = c->platform ? c->platform_line : s->platform_line;
	if ((r = platform_text(pname, &text, label, sizeof(label), err)))
		return wrap(s, pline ? pline : c->line, err, "platform");
	for (int i = 0; i < c->npset; i++) {
		char *t = il_scn_platform_override(text, c->pset[i].text, err);
		free(text);
		if (!t)
			return wrap(s, c->pset[i].line, err, "pset");
		text = t;
	}
	/* a platform estimate at this factor */
	if (v && !v->workload) {
		r = il_scn_platform_value(text, v->estimate, bt->base_value, sizeof(bt->base_value), err);
		if (r == -ENOENT) {
			snprintf(bt->base_value, sizeof(bt->base_value), "not given");
			snprintf(bt->value, sizeof(bt->value), "not given");
		} else if (r) {
			free(text);
			return wrap(s, v->line, err, "estimate");
		} else {
			if ((r = il_scn_scale_value(bt->base_value, v->factors[fi], bt->value,
						    sizeof(bt->value), err))) {
				free(text);
				return wrap(s, v->line, err, "estimate");
			}
			snprintf(assign, sizeof(assign), "%s=%s", v->estimate, bt->value);
			char *t = il_scn_platform_override(text, assign, err);
			free(text);
			if (!t)
				return wrap(s, v->line, err, "estimate");
			text = t;
		}
	}
	bt->platform = il_xcalloc(1, sizeof(*bt->platform));
	r = il_platform_load_string(bt->platform, text, strlen(text), label, err);
	if (r) {
		/* a line a pset wrote: that pset's line, not the configuration's */
		int at = c->line;
		for (int i = c->npset - 1; i >= 0 && err->line > 0; i--)
			if (pset_wrote_line(text, c->pset[i].text, err->line)) {
				at = c->pset[i].line;
				break;
			}
		/* the estimate's line, where the value it was scaled to is refused */
		bool scaled = *assign && err->line > 0 && pset_wrote_line(text, assign, err->line);
		if (scaled)
			at = v->line;
		free(text);
		if (scaled)
			snprintf(what, sizeof(what), "configuration %s: platform %s with %s", c->id, pname,
				 assign);
		else
			snprintf(what, sizeof(what), "configuration %s: platform %s%s", c->id, pname,
				 c->npset || v ? " with the overrides" : "");
		return wrap(s, at, err, what);
	}
	free(text);
	for (int i = 0; i < c->nset; i++) {
		char key[64];
		const char *eq = strchr(c->set[i].text, '=');
		if (eq) {
			if (opt_value(c->set[i].text, key, sizeof(key)))
				return il_err_set_at(err, EINVAL, s->file, c->set[i].line,
						     "set: '%s' is not KEY=VALUE", c->set[i].text);
			r = il_platform_set_option(bt->platform, key, eq + 1, err);
		} else {
			r = il_platform_set_option(bt->platform, c->set[i].text, "", err);
		}
		if (r)
			return wrap(s, c->set[i].line, err, "set");
	}

	/* the workload and its options (quick ones after, a workload estimate last) */
	const struct il_workload *wl = il_workload_find(c->workload);
	if (!wl)
		return il_err_set_at(err, EINVAL, s->file, c->line, "configuration %s: unknown workload "
				     "'%s'", c->id, c->workload);
	if ((r = check_wl_opts(s, c, wl, c->wl, c->nwl, "wl", err)) ||
	    (r = check_wl_opts(s, c, wl, c->quick_wl, c->nquick_wl, "quick.wl", err)))
		return r;
	int nopts = c->nwl + (o->quick ? c->nquick_wl : 0) + 1;
	struct il_wl_opt *opts = il_xcalloc((size_t)nopts, sizeof(*opts));
	const char **texts = il_xcalloc((size_t)nopts, sizeof(*texts));
	int n = 0;
	for (int i = 0; i < c->nwl; i++)
		texts[n++] = c->wl[i].text;
	for (int i = 0; o->quick && i < c->nquick_wl; i++)
		texts[n++] = c->quick_wl[i].text;
	n = drop_overridden(texts, n);
	char sens_opt[160];
	if (v && v->workload) {
		const char *key = v->estimate + 3, *base = NULL;
		for (int i = 0; i < n; i++) {
			char k[64];
			if (!opt_value(texts[i], k, sizeof(k)) && !strcmp(k, key))
				base = strchr(texts[i], '=') + 1;
		}
		const struct il_opt *od = il_opt_find(wl->opts, key);
		if (!od) {
			free(opts);
			free(texts);
			return il_err_set_at(err, EINVAL, s->file, v->line, "estimate: workload %s has no "
					     "option '%s'", wl->name, key);
		}
		if (!base)
			base = od->def;
		if (strlen(base) >= sizeof(bt->base_value)) {
			free(opts);
			free(texts);
			return il_err_set_at(err, EINVAL, s->file, v->line, "estimate: the value of "
					     "%s is longer than %zu characters", v->estimate,
					     sizeof(bt->base_value) - 1);
		}
		snprintf(bt->base_value, sizeof(bt->base_value), "%s", base);
		if ((r = il_scn_scale_value(base, v->factors[fi], bt->value, sizeof(bt->value), err))) {
			free(opts);
			free(texts);
			return wrap(s, v->line, err, "estimate");
		}
		snprintf(sens_opt, sizeof(sens_opt), "%s=%s", key, bt->value);
		texts[n++] = sens_opt;
		n = drop_overridden(texts, n);
	}
	size_t tl = 1;
	for (int i = 0; i < n; i++)
		tl += strlen(texts[i]) + 1;
	bt->wl_text = il_xcalloc(1, tl);
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(bt->wl_text, " ");
		strcat(bt->wl_text, texts[i]);
	}
	/* the options point into bt->wl_text's copy, which lives as long as the batch */
	char *copy = il_xstrdup(bt->wl_text);
	size_t off = 0;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(texts[i]);
		copy[off + len] = '\0';
		if (!il_wl_opt_parse(copy + off, &opts[i], err)) {
			r = il_err_set_at(err, EINVAL, s->file, c->line, "configuration %s: workload "
					  "option '%s' is not KEY=VALUE", c->id, texts[i]);
			free(opts);
			free(texts);
			free(copy);
			return r;
		}
		off += len + 1;
	}
	bt->wl_cfg = il_xcalloc(1, wl->config_size ? wl->config_size : 1);
	r = il_workload_configure(wl, bt->wl_cfg, opts, n, err);
	free(opts);
	free(texts);
	/* configure copies what it keeps? lists and numbers: yes; the text is not needed later */
	free(copy);
	if (r && v && v->workload) {
		/* the configuration's own options passed in its own batch, prepared before */
		snprintf(what, sizeof(what), "configuration %s: workload %s with %s", c->id, wl->name,
			 sens_opt);
		return wrap(s, v->line, err, what);
	}
	if (r) {
		snprintf(what, sizeof(what), "configuration %s: workload %s", c->id, wl->name);
		return wrap(s, c->line, err, what);
	}

	/* the engine */
	struct il_sim_batch *b = &bt->b;
	il_sim_params_default(&b->params);
	b->params.duration_ns = o->quick ? c->quick_duration_ns : c->duration_ns;
	b->params.seed = c->has_seed ? c->seed : o->seed;
	for (int i = 0; i < c->nsim; i++) {
		char key[64];
		opt_value(c->sim[i].text, key, sizeof(key));
		const struct il_opt *so = il_opt_find(il_sim_opts, key);
		if (!so || !strcmp(key, "trace"))
			return il_err_set_at(err, EINVAL, s->file, c->sim[i].line, "sim: unknown engine "
					     "option '%s' (idlelab help sim lists them)", key);
		if ((r = il_opt_set(so, &b->params, strchr(c->sim[i].text, '=') + 1, err)))
			return wrap(s, c->sim[i].line, err, "sim");
	}
	int64_t warmup = o->quick ? c->quick_warmup_ns : c->warmup_ns;
	if (warmup >= 0) {
		const struct il_opt *so = il_opt_find(il_sim_opts, "warmup");
		char t[32];
		if (!so)
			return il_err_set_at(err, EINVAL, s->file, c->line, "configuration %s: warmup: "
					     "this engine has no 'warmup' option", c->id);
		snprintf(t, sizeof(t), "%lldns", (long long)warmup);
		if ((r = il_opt_set(so, &b->params, t, err)))
			return wrap(s, c->line, err, "warmup");
	}
	struct il_sim_config *sc = il_xcalloc(1, sizeof(*sc));
	snprintf(sc->gov_spec, sizeof(sc->gov_spec), "%s", c->governor);
	snprintf(sc->kernel, sizeof(sc->kernel), "%s", c->kernel);
	snprintf(sc->cpufreq, sizeof(sc->cpufreq), "%s", c->cpufreq);
	b->platform = bt->platform;
	b->wl = wl;
	b->wl_cfg = bt->wl_cfg;
	b->nconfigs = 1;
	b->configs = sc;
	b->runs = o->quick ? c->quick_runs : c->runs;
	if (v && il_scn_sens_runs(s, vi, o->quick) > 0)
		b->runs = il_scn_sens_runs(s, vi, o->quick);
	b->jobs = o->jobs < 1 ? 1 : o->jobs;
	b->label = bt->id;
	if ((r = il_sim_batch_prepare(b, err))) {
		snprintf(what, sizeof(what), "configuration %s", c->id);
		return wrap(s, c->line, err, what);
	}
	return 0;
}

static void batch_free(struct il_scn_batch *bt)
{
	if (bt->runs)
		for (int k = 0; k < bt->b.runs; k++)
			il_metrics_free(&bt->runs[k]);
	free(bt->runs);
	free(bt->b.configs);
	il_sim_batch_free(&bt->b);
	free(bt->platform);
	free(bt->wl_cfg);
	free(bt->wl_text);
	memset(bt, 0, sizeof(*bt));
}

int il_scn_prepare(const struct il_scn *s, const struct il_scn_run_opts *o,
		   struct il_scn_outcome *out, struct il_err *err)
{
	int total = s->nconfigs;

	memset(out, 0, sizeof(*out));
	out->scn = s;
	out->quick = o->quick;
	out->seed = o->seed;
	for (int v = 0; v < s->nsens; v++)
		total += s->sens[v].nconfigs * s->sens[v].nfactors;
	out->batches = il_xcalloc((size_t)total, sizeof(*out->batches));
	for (int c = 0; c < s->nconfigs; c++) {
		int r = build_batch(s, o, c, -1, -1, &out->batches[out->nbatches++], err);
		if (r) {
			il_scn_outcome_free(out);
			return r;
		}
	}
	for (int v = 0; v < s->nsens; v++)
		for (int f = 0; f < s->sens[v].nfactors; f++)
			for (int k = 0; k < s->sens[v].nconfigs; k++) {
				int r = build_batch(s, o, s->sens[v].configs[k], v, f,
						    &out->batches[out->nbatches++], err);
				if (r) {
					il_scn_outcome_free(out);
					return r;
				}
			}
	for (int i = 0; i < out->nbatches; i++)
		out->runs += out->batches[i].b.runs;
	return 0;
}

static double now_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static void metrics_copy(struct il_metrics *dst, const struct il_metrics *src)
{
	il_metrics_init(dst);
	for (int i = 0; i < src->n; i++) {
		const struct il_metric *m = &src->m[i];
		il_metric_add(dst, m->row, m->col, m->unit, m->better, m->throughput, m->value);
	}
}

void il_scn_add_run_metrics(const struct il_sim_result *r, struct il_metrics *ms)
{
	if (r->ncpus < 1 || !r->cpu)
		return;
	const struct il_sim_cpu_result *c = &r->cpu[0];
	for (int k = 0; k < r->nstates; k++) {
		char row[40];
		snprintf(row, sizeof(row), "cpu0 state %s", r->states[k].name);
		il_metric_add(ms, row, "usage", "", IL_BETTER_NONE, false, (double)c->usage[k].usage);
		il_metric_add(ms, row, "time_us", "us", IL_BETTER_NONE, false,
			      (double)(c->usage[k].time_ns / 1000));
		il_metric_add(ms, row, "above", "", IL_BETTER_LOWER, false, (double)c->usage[k].above);
		il_metric_add(ms, row, "below", "", IL_BETTER_LOWER, false, (double)c->usage[k].below);
	}
	for (int m = IL_ENTRY_POLL; m <= IL_ENTRY_TDX_HALT; m++) {
		unsigned long long n = 0;
		for (int k = 0; k < r->nstates; k++)
			if ((int)r->states[k].entry == m)
				n += c->usage[k].usage;
		char row[40];
		snprintf(row, sizeof(row), "cpu0 entry %s", il_entry_method_name((enum il_entry_method)m));
		il_metric_add(ms, row, "entries", "", IL_BETTER_NONE, false, (double)n);
	}
}

int il_scn_execute(struct il_scn_outcome *out, const struct il_scn_run_opts *o,
		   struct il_err *err)
{
	(void)o;
	double w0 = now_s(CLOCK_MONOTONIC), c0 = cpu_s();

	/* all batches dealt as one (longest runs first, over threads or a dealer's processes) */
	struct il_sim_batch **bs = il_xcalloc((size_t)(out->nbatches ? out->nbatches : 1), sizeof(*bs));
	for (int i = 0; i < out->nbatches; i++)
		bs[i] = &out->batches[i].b;
	int fb = 0, r = il_sim_batches_run(bs, out->nbatches, &fb, err);
	free(bs);
	if (r) {
		struct il_scn_batch *bt = &out->batches[fb];
		char what[120];
		snprintf(what, sizeof(what), "configuration %s", bt->id);
		return wrap(out->scn, out->scn->configs[bt->config].line, err, what);
	}
	for (int i = 0; i < out->nbatches; i++) {
		struct il_scn_batch *bt = &out->batches[i];
		bt->runs = il_xcalloc((size_t)bt->b.runs, sizeof(*bt->runs));
		for (int k = 0; k < bt->b.runs; k++) {
			const struct il_sim_result *res = &bt->b.results[k];
			metrics_copy(&bt->runs[k], &res->metrics);
			il_scn_add_run_metrics(res, &bt->runs[k]);
			out->sim_s += (double)res->duration_ns * 1e-9;
		}
		bt->data.nruns = bt->b.runs;
		bt->data.runs = bt->runs;
	}
	out->wall_s = now_s(CLOCK_MONOTONIC) - w0;
	out->cpu_s = cpu_s() - c0;
	return 0;
}

void il_scn_outcome_hook(struct il_scn_outcome *out, void (*run_done)(void *arg, double cost),
			 void *arg)
{
	for (int i = 0; i < out->nbatches; i++) {
		out->batches[i].b.run_done = run_done;
		out->batches[i].b.run_done_arg = arg;
	}
}

void il_scn_outcome_free(struct il_scn_outcome *out)
{
	for (int i = 0; i < out->nbatches; i++)
		batch_free(&out->batches[i]);
	free(out->batches);
	out->batches = NULL;
	out->nbatches = 0;
}

void il_scn_outcome_data(const struct il_scn_outcome *out, struct il_scn_data *d,
			 struct il_scn_cfg_runs *cfg)
{
	d->nconfigs = out->scn->nconfigs;
	d->cfg = cfg;
	for (int c = 0; c < out->scn->nconfigs; c++) {
		const struct il_scn_batch *b = il_scn_outcome_batch(out, c, -1, -1);
		cfg[c] = b ? b->data : (struct il_scn_cfg_runs){ 0, NULL };
	}
}

const struct il_scn_batch *il_scn_outcome_batch(const struct il_scn_outcome *out, int c, int sens,
						int f)
{
	for (int i = 0; i < out->nbatches; i++) {
		const struct il_scn_batch *b = &out->batches[i];
		if (b->config == c && b->sens == sens && b->factor == f)
			return b;
	}
	return NULL;
}

int il_scn_cost(const struct il_scn *s, bool quick, struct il_scn_cost *cost, struct il_err *err)
{
	struct il_scn_run_opts o = { .quick = quick, .jobs = 1, .seed = 1 };
	struct il_scn_outcome out;
	int r = il_scn_prepare(s, &o, &out, err);

	memset(cost, 0, sizeof(*cost));
	if (r)
		return r;
	for (int i = 0; i < out.nbatches; i++) {
		const struct il_sim_batch *b = &out.batches[i].b;
		double secs = (double)b->params.duration_ns * 1e-9;
		int n = b->runs * b->nconfigs;
		cost->runs += n;
		cost->sim_s += n * secs;
		cost->cpu_sim_s += n * secs * il_platform_ncpus(b->platform);
		cost->est_wall_s += n * il_sim_task_cost(b);
	}
	il_scn_outcome_free(&out);
	return 0;
}
