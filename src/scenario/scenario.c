// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario files (docs/scenarios.md): an INI-like text read line by line.
 *
 * Lines are "[section]", "key = value", blank, or comments starting with
 * ';' or '#'. A value is everything after the first '=' (trimmed): no
 * inline comments, so a ';' or '#' inside a value is kept, and lines may be
 * long (IL_SCN_LINE_MAX). The file is read into (section, key, value,
 * line) entries first; then every section kind takes its keys from one
 * table, so an unknown section or key, a key given twice where it may not
 * repeat, and a missing one are refused naming the line (both lines for
 * a repeat). Expressions are parsed last, when every configuration, table
 * and define is known, and name the line they are on.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "idlelab/batch.h"
#include "idlelab/governor.h"
#include "idlelab/platform.h"
#include "idlelab/release.h"
#include "idlelab/cpufreq.h"
#include "idlelab/scenario.h"
#include "scn_internal.h"
#include "util.h"
#include "../kgov/kgov.h"

#define KEY_REPEAT 0x1u
#define KEY_REQUIRED 0x2u

struct keydef {
	const char *name;
	unsigned flags;
};

enum sect_kind { SK_SCENARIO, SK_SOURCE, SK_CONFIG, SK_TABLE, SK_CHECKS, SK_SENS, SK_PLOT,
		 SK_DEFINE, SK_BATCH, SK_BCONFIG, SK_COUNT };

static const struct keydef scenario_keys[] = {
	{ "name", KEY_REQUIRED }, { "title", KEY_REQUIRED }, { "finding", KEY_REQUIRED },
	{ "platform", KEY_REQUIRED }, { "mechanisms", 0 }, { "status", 0 }, { NULL, 0 },
};
static const struct keydef source_keys[] = {
	{ "author", KEY_REQUIRED }, { "list", 0 }, { "date", KEY_REQUIRED },
	{ "subject", KEY_REQUIRED }, { "message_id", 0 }, { "commit", 0 }, { "url", 0 },
	{ "note", 0 }, { NULL, 0 },
};
static const struct keydef config_keys[] = {
	{ "label", 0 }, { "platform", 0 }, { "kernel", 0 }, { "governor", 0 },
	{ "cpufreq", 0 }, { "workload", KEY_REQUIRED }, { "wl", KEY_REPEAT }, { "pset", KEY_REPEAT },
	{ "set", KEY_REPEAT }, { "sim", KEY_REPEAT }, { "runs", KEY_REQUIRED },
	{ "duration", KEY_REQUIRED }, { "warmup", 0 }, { "quick.runs", 0 },
	{ "quick.duration", 0 }, { "quick.warmup", 0 }, { "quick.wl", KEY_REPEAT }, { NULL, 0 },
};
/* a batch file's configurations: those keys and a seed */
static const struct keydef bconfig_keys[] = {
	{ "label", 0 }, { "platform", 0 }, { "kernel", 0 }, { "governor", 0 }, { "cpufreq", 0 },
	{ "workload", KEY_REQUIRED }, { "wl", KEY_REPEAT }, { "pset", KEY_REPEAT },
	{ "set", KEY_REPEAT }, { "sim", KEY_REPEAT }, { "runs", KEY_REQUIRED },
	{ "duration", KEY_REQUIRED }, { "warmup", 0 }, { "quick.runs", 0 },
	{ "quick.duration", 0 }, { "quick.warmup", 0 }, { "quick.wl", KEY_REPEAT }, { "seed", 0 },
	{ NULL, 0 },
};
static const struct keydef batch_keys[] = {
	{ "title", 0 }, { "platform", 0 }, { "seed", 0 }, { NULL, 0 },
};
static const struct keydef table_keys[] = {
	{ "title", KEY_REQUIRED }, { "source", KEY_REQUIRED }, { "where", 0 }, { "unit", 0 },
	{ "note", 0 }, { "decimals", 0 }, { "diff", 0 }, { "points", 0 }, { "row_header", 0 },
	{ "columns", KEY_REQUIRED }, { "row", KEY_REPEAT | KEY_REQUIRED }, { "key", KEY_REPEAT },
	{ "sim", KEY_REPEAT }, { "cell", KEY_REPEAT }, { NULL, 0 },
};
static const struct keydef checks_keys[] = {
	{ "check", KEY_REPEAT | KEY_REQUIRED }, { NULL, 0 },
};
static const struct keydef sens_keys[] = {
	{ "estimate", KEY_REQUIRED }, { "basis", KEY_REQUIRED }, { "configs", KEY_REQUIRED },
	{ "factors", 0 }, { "figure", KEY_REPEAT | KEY_REQUIRED }, { "runs", 0 }, { "quick.runs", 0 },
	{ NULL, 0 },
};
static const struct keydef plot_keys[] = {
	{ "title", KEY_REQUIRED }, { "xlabel", 0 }, { "ylabel", 0 }, { "kind", KEY_REQUIRED },
	{ "table", 0 }, { "columns", 0 }, { "metric", 0 }, { "configs", 0 }, { "log_x", 0 },
	{ NULL, 0 },
};

static const struct {
	const char *prefix;       /* "source" for [source.ID]; whole name for single sections */
	bool has_id;
	const struct keydef *keys;
} kinds[SK_COUNT] = {
	[SK_SCENARIO] = { "scenario", false, scenario_keys },
	[SK_SOURCE] = { "source", true, source_keys },
	[SK_CONFIG] = { "config", true, config_keys },
	[SK_TABLE] = { "table", true, table_keys },
	[SK_CHECKS] = { "checks", false, checks_keys },
	[SK_SENS] = { "sensitivity", true, sens_keys },
	[SK_PLOT] = { "plot", true, plot_keys },
	[SK_DEFINE] = { "define", false, NULL },
	[SK_BATCH] = { "batch", false, batch_keys },
	[SK_BCONFIG] = { "config", true, bconfig_keys },
};

struct entry {
	int sect;                 /* index into sections */
	char *key, *value;
	int line;
};

struct section {
	enum sect_kind kind;
	char id[IL_SCN_ID_MAX];
	char name[80];
	int line;
	int e0, e1;               /* its entries: p->e[e0..e1), consecutive as in the file */
};

/* Bounds that keep the checks of a file (each key against its section's) fast. */
#define SECTIONS_MAX 4096
#define SECTION_KEYS_MAX 4096

/* The entries of section si. */
#define for_each_entry(p, si, i) for (int i = (p)->sect[si].e0; i < (p)->sect[si].e1; i++)

struct parser {
	const char *fname;
	struct il_err *err;
	struct entry *e;
	int ne, cap;
	struct section *sect;
	int nsect, sect_cap;
	struct il_scn *s;
	bool batch;               /* a batch file: [batch] and [config.ID] only */
};

static int fail(struct parser *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct parser *p, int line, const char *fmt, ...)
{
	char msg[IL_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return il_err_set_at(p->err, EINVAL, p->fname, line, "%s", msg);
}

/* ------------------------------------------------------------------ helpers */

int scn_split(const char *text, char sep, char ***fields)
{
	int n = 1;
	for (const char *t = text; *t; t++)
		n += *t == sep;
	char **f = il_xcalloc((size_t)n, sizeof(*f));
	const char *start = text;
	for (int i = 0; i < n; i++) {
		const char *end = strchr(start, sep);
		size_t len = end ? (size_t)(end - start) : strlen(start);
		char *c = il_xcalloc(1, len + 1);
		memcpy(c, start, len);
		f[i] = il_xstrdup(il_strtrim(c));
		free(c);
		start = end ? end + 1 : start + len;
	}
	*fields = f;
	return n;
}

void scn_split_free(char **fields, int n)
{
	for (int i = 0; i < n; i++)
		free(fields[i]);
	free(fields);
}

int scn_pub_number(const char *text, double *v)
{
	char buf[64];
	size_t n = 0;
	const char *t = text;

	if (*t == '+')
		t++;
	for (; *t && n + 1 < sizeof(buf); t++) {
		if (*t == ',')
			continue; /* thousands separators as the source prints them */
		buf[n++] = *t;
	}
	if (*t)
		return -EINVAL;
	buf[n] = '\0';
	if (n && buf[n - 1] == '%')
		buf[--n] = '\0';
	if (!n || il_parse_double(buf, v) || !isfinite(*v))
		return -EINVAL;
	return 0;
}

static bool valid_id(const char *id)
{
	size_t n = strlen(id);

	if (n == 0 || n >= IL_SCN_ID_MAX || !(islower((unsigned char)id[0]) || isdigit((unsigned char)id[0])))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)id[i]) && !isdigit((unsigned char)id[i]) && id[i] != '-' &&
		    id[i] != '_')
			return false;
	return true;
}

/* Bytes that are not printable UTF-8 (controls other than tab, malformed sequences). */
static int check_text(struct parser *p, const char *text, size_t len)
{
	int line = 1;

	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\n') {
			line++;
			i++;
			continue;
		}
		if (c == '\0')
			return fail(p, line, "a NUL byte");
		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
			return fail(p, line, "a control character (0x%02x)", c);
		if (c < 0x80) {
			i++;
			continue;
		}
		int n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
		if (!n || i + (size_t)n > len)
			return fail(p, line, "text that is not UTF-8");
		for (int k = 1; k < n; k++)
			if (((unsigned char)text[i + k] & 0xc0) != 0x80)
				return fail(p, line, "text that is not UTF-8");
		/* overlong forms and surrogates */
		unsigned char c1 = (unsigned char)text[i + 1];
		if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) || (c == 0xf0 && c1 < 0x90) ||
		    (c == 0xf4 && c1 >= 0x90))
			return fail(p, line, "text that is not UTF-8");
		i += (size_t)n;
	}
	return 0;
}

/* ------------------------------------------------------------------ reading */

static int section_open(struct parser *p, const char *name, int line)
{
	enum sect_kind kind = SK_COUNT;
	const char *id = "";

	for (int k = 0; k < SK_COUNT; k++) {
		size_t n = strlen(kinds[k].prefix);
		/* a batch file has its own two kinds, a scenario the others */
		if (p->batch != (k == SK_BATCH || k == SK_BCONFIG))
			continue;
		if (strncmp(name, kinds[k].prefix, n))
			continue;
		if (kinds[k].has_id && name[n] == '.') {
			kind = (enum sect_kind)k;
			id = name + n + 1;
		} else if (!kinds[k].has_id && !name[n]) {
			kind = (enum sect_kind)k;
		} else if (kinds[k].has_id && !name[n]) {
			return fail(p, line, "section [%s] needs a name: [%s.NAME]", name, name);
		}
	}
	if (kind == SK_COUNT && p->batch)
		return fail(p, line, "unknown section [%s] (known in a batch file: batch, config.ID)",
			    name);
	if (kind == SK_COUNT)
		return fail(p, line, "unknown section [%s] (known: scenario, source.ID, config.ID, "
			    "table.ID, checks, sensitivity.ID, plot.ID, define)", name);
	if (kinds[kind].has_id && !valid_id(id))
		return fail(p, line, "[%s]: '%s' is not a name (lower-case letters, digits, '-', '_'; at "
			    "most %d)", name, id, IL_SCN_ID_MAX - 1);
	for (int i = 0; i < p->nsect; i++)
		if (!strcmp(p->sect[i].name, name))
			return fail(p, line, "duplicate section [%s] (first at line %d)", name,
				    p->sect[i].line);
	if (p->nsect == SECTIONS_MAX)
		return fail(p, line, "more than %d sections", SECTIONS_MAX);
	if (p->nsect == p->sect_cap) {
		p->sect_cap = p->sect_cap ? 2 * p->sect_cap : 16;
		p->sect = il_xrealloc(p->sect, (size_t)p->sect_cap * sizeof(*p->sect));
	}
	struct section *s = &p->sect[p->nsect++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->line = line;
	s->e0 = s->e1 = p->ne;
	snprintf(s->id, sizeof(s->id), "%s", id);
	snprintf(s->name, sizeof(s->name), "%s", name);
	return 0;
}

static int read_lines(struct parser *p, const char *text, size_t len)
{
	int line = 0;
	size_t pos = 0;
	char *buf = il_xcalloc(1, IL_SCN_LINE_MAX + 1);
	int r = 0;

	while (pos < len && !r) {
		size_t n = 0;
		line++;
		while (pos < len && text[pos] != '\n') {
			if (n < IL_SCN_LINE_MAX)
				buf[n] = text[pos];
			n++;
			pos++;
		}
		pos++; /* the newline */
		if (n >= IL_SCN_LINE_MAX) {
			r = fail(p, line, "line longer than %d characters", IL_SCN_LINE_MAX - 1);
			break;
		}
		buf[n] = '\0';
		char *t = il_strtrim(buf);
		if (!*t || *t == ';' || *t == '#')
			continue;
		if (*t == '[') {
			char *end = strchr(t, ']');
			if (!end || end[1])
				r = fail(p, line, "a section header is [NAME] alone on its line");
			else {
				*end = '\0';
				r = section_open(p, il_strtrim(t + 1), line);
			}
			continue;
		}
		char *eq = strchr(t, '=');
		if (!eq) {
			r = fail(p, line, "syntax error (expected [section] or key = value)");
			break;
		}
		if (!p->nsect) {
			r = fail(p, line, "key outside a section");
			break;
		}
		*eq = '\0';
		char *key = il_strtrim(t), *value = il_strtrim(eq + 1);
		if (!*key) {
			r = fail(p, line, "empty key");
			break;
		}
		struct section *sc = &p->sect[p->nsect - 1];
		if (sc->e1 - sc->e0 == SECTION_KEYS_MAX) {
			r = fail(p, line, "[%s]: more than %d keys", sc->name, SECTION_KEYS_MAX);
			break;
		}
		if (p->ne == p->cap) {
			p->cap = p->cap ? 2 * p->cap : 64;
			p->e = il_xrealloc(p->e, (size_t)p->cap * sizeof(*p->e));
		}
		p->e[p->ne++] = (struct entry){ p->nsect - 1, il_xstrdup(key), il_xstrdup(value), line };
		sc->e1 = p->ne;
	}
	free(buf);
	return r;
}

/* Unknown, repeated and missing keys of every section. */
static int check_keys(struct parser *p)
{
	for (int si = 0; si < p->nsect; si++) {
		const struct section *sc = &p->sect[si];
		const struct keydef *kd = kinds[sc->kind].keys;
		if (!kd) { /* [define]: any name, once */
			for_each_entry(p, si, i) {
				if (!valid_id(p->e[i].key) || strchr(p->e[i].key, '-'))
					return fail(p, p->e[i].line, "[define]: '%s' is not a name (lower-case "
						    "letters, digits, '_')", p->e[i].key);
				for (int j = sc->e0; j < i; j++)
					if (!strcmp(p->e[j].key, p->e[i].key))
						return fail(p, p->e[i].line, "duplicate key '%s' (first at line %d)",
							    p->e[i].key, p->e[j].line);
			}
			continue;
		}
		for_each_entry(p, si, i) {
			const struct keydef *k = NULL;
			for (const struct keydef *q = kd; q->name; q++)
				if (!strcmp(q->name, p->e[i].key))
					k = q;
			if (!k) {
				char known[512] = "";
				for (const struct keydef *q = kd; q->name; q++)
					snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
						 q == kd ? "" : ", ", q->name);
				return fail(p, p->e[i].line, "[%s]: unknown key '%s' (known: %s)", sc->name,
					    p->e[i].key, known);
			}
			if (k->flags & KEY_REPEAT)
				continue;
			for (int j = sc->e0; j < i; j++)
				if (!strcmp(p->e[j].key, p->e[i].key))
					return fail(p, p->e[i].line, "duplicate key '%s' (first at line %d)",
						    p->e[i].key, p->e[j].line);
		}
		for (const struct keydef *q = kd; q->name; q++) {
			if (!(q->flags & KEY_REQUIRED))
				continue;
			bool found = false;
			for_each_entry(p, si, i)
				found |= !strcmp(p->e[i].key, q->name);
			if (!found)
				return fail(p, sc->line, "[%s] has no '%s'", sc->name, q->name);
		}
	}
	return 0;
}

static const struct entry *get(const struct parser *p, int si, const char *key)
{
	for_each_entry(p, si, i)
		if (!strcmp(p->e[i].key, key))
			return &p->e[i];
	return NULL;
}

static char *dup_opt(const struct parser *p, int si, const char *key)
{
	const struct entry *e = get(p, si, key);
	return e ? il_xstrdup(e->value) : NULL;
}

/* The line of key in section si, 0 when it is not there. */
static int key_line(const struct parser *p, int si, const char *key)
{
	const struct entry *e = get(p, si, key);
	return e ? e->line : 0;
}

static int count_key(const struct parser *p, int si, const char *key)
{
	int n = 0;
	for_each_entry(p, si, i)
		n += !strcmp(p->e[i].key, key);
	return n;
}

/* All values of a repeatable key as KEY=VALUE texts (each must have '='). */
static int get_kvs(struct parser *p, int si, const char *key, bool need_eq, struct il_scn_kv **out,
		   int *n)
{
	int cnt = count_key(p, si, key), k = 0;

	*out = il_xcalloc((size_t)(cnt ? cnt : 1), sizeof(**out));
	*n = 0;
	for_each_entry(p, si, i) {
		if (p->e[i].sect != si || strcmp(p->e[i].key, key))
			continue;
		const char *v = p->e[i].value;
		if (need_eq && (!strchr(v, '=') || v[0] == '='))
			return fail(p, p->e[i].line, "%s: '%s' is not KEY=VALUE", key, v);
		(*out)[k].text = il_xstrdup(v);
		(*out)[k].line = p->e[i].line;
		k++;
		*n = k;
	}
	return 0;
}

static int get_duration(struct parser *p, const struct entry *e, int64_t *ns, bool zero_ok)
{
	size_t n = strlen(e->value);

	/* a unit is required: "80s", "500ms" */
	if (!n || isdigit((unsigned char)e->value[n - 1]) || e->value[n - 1] == '.')
		return fail(p, e->line, "%s: '%s' needs a unit (ns, us, ms, s)", e->key, e->value);
	if (il_parse_duration_ns(e->value, ns) || *ns < 0 || (*ns == 0 && !zero_ok) ||
	    *ns > IL_SIM_DURATION_MAX_NS)
		return fail(p, e->line, "%s: '%s' is not a duration in (0, 10^6 s]", e->key, e->value);
	return 0;
}

static int get_runs(struct parser *p, const struct entry *e, int *runs)
{
	if (il_parse_int(e->value, runs) || *runs < 1 || *runs > 1000)
		return fail(p, e->line, "%s: '%s' is not a number of runs 1..1000", e->key, e->value);
	return 0;
}

/* A list "a, b, c" of configuration ids into idx[]. */
static int get_config_list(struct parser *p, const struct entry *e, int *idx, int *n)
{
	char **f;
	int nf = scn_split(e->value, ',', &f), r = 0;

	*n = 0;
	for (int i = 0; i < nf && !r; i++) {
		int c = il_scn_config_find(p->s, f[i]);
		bool twice = false;
		for (int k = 0; k < *n; k++)
			twice |= idx[k] == c;
		if (c < 0)
			r = fail(p, e->line, "%s: no configuration '%s'", e->key, f[i]);
		else if (twice)
			r = fail(p, e->line, "%s: '%s' twice", e->key, f[i]);
		else if (*n == IL_SCN_CONFIGS_MAX)
			r = fail(p, e->line, "%s: at most %d configurations", e->key, IL_SCN_CONFIGS_MAX);
		else
			idx[(*n)++] = c;
	}
	scn_split_free(f, nf);
	return r;
}

/* ------------------------------------------------------------------ sections */

static int do_scenario(struct parser *p, int si)
{
	struct il_scn *s = p->s;
	const struct entry *e = get(p, si, "name");

	if (!valid_id(e->value) || strlen(e->value) >= sizeof(s->name))
		return fail(p, e->line, "name: '%s' is not a name (lower-case letters, digits, '-', '_')",
			    e->value);
	snprintf(s->name, sizeof(s->name), "%s", e->value);
	s->title = dup_opt(p, si, "title");
	s->finding = dup_opt(p, si, "finding");
	s->platform = dup_opt(p, si, "platform");
	s->platform_line = key_line(p, si, "platform");
	s->mechanisms = dup_opt(p, si, "mechanisms");
	s->status = dup_opt(p, si, "status");
	return 0;
}

static int do_source(struct parser *p, int si, struct il_scn_source *src)
{
	snprintf(src->id, sizeof(src->id), "%s", p->sect[si].id);
	src->line = p->sect[si].line;
	src->author = dup_opt(p, si, "author");
	src->list = dup_opt(p, si, "list");
	src->date = dup_opt(p, si, "date");
	src->subject = dup_opt(p, si, "subject");
	src->message_id = dup_opt(p, si, "message_id");
	src->commit = dup_opt(p, si, "commit");
	src->url = dup_opt(p, si, "url");
	src->note = dup_opt(p, si, "note");
	return 0;
}

static int do_config(struct parser *p, int si, struct il_scn_config *c)
{
	const struct entry *e;
	int r;

	snprintf(c->id, sizeof(c->id), "%s", p->sect[si].id);
	c->line = p->sect[si].line;
	c->label = dup_opt(p, si, "label");
	if (!c->label)
		c->label = il_xstrdup(c->id);
	c->platform = dup_opt(p, si, "platform");
	c->platform_line = key_line(p, si, "platform");
	/* a spec a run's configuration (struct il_sim_config) cannot hold is refused, not cut */
	if ((e = get(p, si, "governor")) && strlen(e->value) >= IL_SIM_SPEC_MAX)
		return fail(p, e->line, "governor: longer than %d characters", IL_SIM_SPEC_MAX - 1);
	c->governor = dup_opt(p, si, "governor");
	if (!c->governor)
		c->governor = il_xstrdup("");
	/*
	 * a spec the registry refuses, said at its line (it came at the
	 * section's, from the set-up); a file spec is built when it runs
	 */
	if (e && c->governor[0] && !il_kgov_is_file_spec(c->governor)) {
		struct il_err gerr;
		il_err_clear(&gerr);
		struct il_gov *g = il_gov_new(c->governor, 1, &gerr);
		if (!g)
			return fail(p, e->line, "governor %s: %s", c->governor, gerr.msg);
		il_gov_free(g);
	}
	if ((e = get(p, si, "cpufreq"))) {
		struct il_cpufreq_params cp;
		struct il_err cerr;
		if (strlen(e->value) >= IL_SIM_SPEC_MAX)
			return fail(p, e->line, "cpufreq: longer than %d characters",
				    IL_SIM_SPEC_MAX - 1);
		if (il_cpufreq_parse(e->value, &cp, &cerr))
			return fail(p, e->line, "cpufreq: %s", cerr.msg);
	}
	c->cpufreq = dup_opt(p, si, "cpufreq");
	if (!c->cpufreq)
		c->cpufreq = il_xstrdup("");
	c->workload = dup_opt(p, si, "workload");
	if ((e = get(p, si, "kernel"))) {
		struct il_err rerr;
		if (il_release_check(e->value, &rerr))
			return fail(p, e->line, "kernel: %s", rerr.msg);
		snprintf(c->kernel, sizeof(c->kernel), "%s", e->value);
	}
	if ((r = get_kvs(p, si, "wl", true, &c->wl, &c->nwl)) ||
	    (r = get_kvs(p, si, "pset", true, &c->pset, &c->npset)) ||
	    (r = get_kvs(p, si, "set", false, &c->set, &c->nset)) ||
	    (r = get_kvs(p, si, "sim", true, &c->sim, &c->nsim)) ||
	    (r = get_kvs(p, si, "quick.wl", true, &c->quick_wl, &c->nquick_wl)))
		return r;
	if ((r = get_runs(p, get(p, si, "runs"), &c->runs)) ||
	    (r = get_duration(p, get(p, si, "duration"), &c->duration_ns, false)))
		return r;
	c->warmup_ns = c->quick_warmup_ns = -1;
	if ((e = get(p, si, "warmup")) && (r = get_duration(p, e, &c->warmup_ns, true)))
		return r;
	c->quick_runs = c->runs;
	c->quick_duration_ns = c->duration_ns;
	if ((e = get(p, si, "quick.runs")) && (r = get_runs(p, e, &c->quick_runs)))
		return r;
	if ((e = get(p, si, "quick.duration")) && (r = get_duration(p, e, &c->quick_duration_ns, false)))
		return r;
	c->quick_warmup_ns = c->warmup_ns;
	if ((e = get(p, si, "quick.warmup")) && (r = get_duration(p, e, &c->quick_warmup_ns, true)))
		return r;
	if ((e = get(p, si, "seed"))) {
		if (il_parse_u64(e->value, &c->seed))
			return fail(p, e->line, "seed: '%s' is not an unsigned integer", e->value);
		c->has_seed = true;
	}
	if (c->warmup_ns >= c->duration_ns)
		return fail(p, get(p, si, "warmup")->line, "warmup: not shorter than the duration");
	if (c->quick_warmup_ns >= c->quick_duration_ns)
		return fail(p, (e = get(p, si, "quick.warmup")) ? e->line : c->line,
			    "quick.warmup: not shorter than quick.duration");
	return 0;
}

static int col_find(const struct il_scn_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	return -1;
}

static int row_find(const struct il_scn_table *t, const char *name)
{
	for (int i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i], name))
			return i;
	return -1;
}

/* The table's layout and published values; expressions come later (parse_table_exprs). */
static int do_table(struct parser *p, int si, struct il_scn_table *t)
{
	const struct entry *e;

	snprintf(t->id, sizeof(t->id), "%s", p->sect[si].id);
	t->line = p->sect[si].line;
	t->title = dup_opt(p, si, "title");
	t->source = dup_opt(p, si, "source");
	t->where = dup_opt(p, si, "where");
	t->unit = dup_opt(p, si, "unit");
	t->note = dup_opt(p, si, "note");
	t->row_header = dup_opt(p, si, "row_header");
	t->decimals = 2;
	if ((e = get(p, si, "decimals")) &&
	    (il_parse_int(e->value, &t->decimals) || t->decimals < 0 || t->decimals > 6))
		return fail(p, e->line, "decimals: '%s' is not 0..6", e->value);
	if ((e = get(p, si, "diff"))) {
		if (!strcmp(e->value, "relative"))
			t->diff = IL_SCN_DIFF_RELATIVE;
		else if (!strcmp(e->value, "points"))
			t->diff = IL_SCN_DIFF_POINTS;
		else
			return fail(p, e->line, "diff: '%s' is not relative or points", e->value);
	}
	if (!il_scn_source_find(p->s, t->source))
		return fail(p, get(p, si, "source")->line, "source: no [source.%s]", t->source);
	e = get(p, si, "columns");
	t->ncols = scn_split(e->value, '|', &t->cols);
	if (t->ncols > 16)
		return fail(p, e->line, "columns: at most 16");
	for (int i = 0; i < t->ncols; i++) {
		if (!t->cols[i][0])
			return fail(p, e->line, "columns: an empty column name");
		for (int j = 0; j < i; j++)
			if (!strcmp(t->cols[i], t->cols[j]))
				return fail(p, e->line, "columns: '%s' twice", t->cols[i]);
	}
	for (int c = 0; c < t->ncols; c++)
		t->col_diff[c] = t->diff;
	int nrows = count_key(p, si, "row");
	t->rows = il_xcalloc((size_t)nrows, sizeof(*t->rows));
	t->keys = il_xcalloc((size_t)nrows, sizeof(*t->keys));
	t->cells = il_xcalloc((size_t)nrows * (size_t)t->ncols, sizeof(*t->cells));
	for_each_entry(p, si, i) {
		const struct entry *x = &p->e[i];
		if (x->sect != si || strcmp(x->key, "row"))
			continue;
		char **f;
		int nf = scn_split(x->value, '|', &f);
		int r = 0;
		if (nf != t->ncols + 1)
			r = fail(p, x->line, "row: %d values for %d columns (LABEL | one value per column, "
				 "'-' for none)", nf - 1, t->ncols);
		else if (!f[0][0])
			r = fail(p, x->line, "row: an empty label");
		else if (row_find(t, f[0]) >= 0)
			r = fail(p, x->line, "row: '%s' twice", f[0]);
		for (int c = 0; !r && c < t->ncols; c++) {
			struct il_scn_cell *cell = &t->cells[t->nrows * t->ncols + c];
			cell->line = x->line;
			if (!strcmp(f[c + 1], "-"))
				continue;
			if (scn_pub_number(f[c + 1], &cell->pub))
				r = fail(p, x->line, "row %s: '%s' is not a number (or '-')", f[0], f[c + 1]);
			else
				cell->pub_text = il_xstrdup(f[c + 1]);
		}
		if (r)
			for (int c = 0; c < t->ncols; c++) {
				free(t->cells[t->nrows * t->ncols + c].pub_text);
				t->cells[t->nrows * t->ncols + c].pub_text = NULL;
			}
		if (!r) {
			t->rows[t->nrows] = il_xstrdup(f[0]);
			t->keys[t->nrows] = il_xstrdup(f[0]);
			t->nrows++;
		}
		scn_split_free(f, nf);
		if (r)
			return r;
	}
	/* points = a column or a row (a gain, a share): its differences in points */
	t->row_points = il_xcalloc((size_t)nrows + 1, sizeof(*t->row_points));
	if ((e = get(p, si, "points"))) {
		char **f;
		int nf = scn_split(e->value, '|', &f), r = 0;
		for (int i = 0; i < nf && !r; i++) {
			int c = col_find(t, f[i]), row = c < 0 ? row_find(t, f[i]) : -1;
			if (c >= 0)
				t->col_diff[c] = IL_SCN_DIFF_POINTS;
			else if (row >= 0)
				t->row_points[row] = true;
			else
				r = fail(p, e->line, "points: no column or row '%s'", f[i]);
		}
		scn_split_free(f, nf);
		if (r)
			return r;
	}
	for_each_entry(p, si, i) {
		const struct entry *x = &p->e[i];
		if (x->sect != si || strcmp(x->key, "key"))
			continue;
		char **f;
		int nf = scn_split(x->value, '|', &f), r = 0, ri;
		if (nf != 2 || !f[1][0])
			r = fail(p, x->line, "key: 'ROW | TEXT' (what {row} stands for in that row)");
		else if ((ri = row_find(t, f[0])) < 0)
			r = fail(p, x->line, "key: no row '%s'", f[0]);
		else {
			free(t->keys[ri]);
			t->keys[ri] = il_xstrdup(f[1]);
		}
		scn_split_free(f, nf);
		if (r)
			return r;
	}
	return 0;
}

/* "{row}" replaced by key. */
static char *subst_row(const char *tmpl, const char *key)
{
	size_t n = 1, kl = strlen(key);
	for (const char *t = tmpl; *t; t++)
		n += strncmp(t, "{row}", 5) ? 1 : kl;
	char *out = il_xcalloc(1, n), *o = out;
	for (const char *t = tmpl; *t;) {
		if (!strncmp(t, "{row}", 5)) {
			memcpy(o, key, kl);
			o += kl;
			t += 5;
		} else {
			*o++ = *t++;
		}
	}
	return out;
}

static int set_cell_expr(struct parser *p, struct il_scn_table *t, int row, int col, const char *tmpl,
			 int line)
{
	struct il_scn_cell *cell = &t->cells[row * t->ncols + col];
	const char *brace = strchr(tmpl, '{');

	/* a misspelt placeholder ({rows}) would be a metric that never exists: n/a */
	for (; brace; brace = strchr(brace + 1, '{'))
		if (strncmp(brace, "{row}", 5)) {
			const char *end = strchr(brace, '}');
			int n = end && end - brace < 32 ? (int)(end - brace) + 1 : 1;
			return fail(p, line, "unknown placeholder '%.*s' (a template has only {row})",
				    n, brace);
		}
	char *text = subst_row(tmpl, t->keys[row]);

	il_scn_expr_free(cell->sim);
	cell->sim = NULL;
	cell->line = line;
	if (!strcmp(il_strtrim(text), "-")) { /* no simulated value */
		free(text);
		return 0;
	}
	cell->sim = il_scn_expr_parse(p->s, text, 0, line, p->err);
	free(text);
	return cell->sim ? 0 : -EINVAL;
}

/* The leading fields of "A | B | EXPRESSION" (the expression may hold "||"). */
static int lead_fields(struct parser *p, const struct entry *x, int need, char field[2][256],
		       const char **rest)
{
	*rest = x->value;
	for (int k = 0; k < need; k++) {
		const char *bar = strchr(*rest, '|');
		while (bar && bar[1] == '|')
			bar = strchr(bar + 2, '|');
		if (!bar || (size_t)(bar - *rest) >= sizeof(field[k]))
			return fail(p, x->line, need == 1 ? "sim: 'COLUMN | EXPRESSION'"
							  : "cell: 'ROW | COLUMN | EXPRESSION'");
		snprintf(field[k], sizeof(field[k]), "%.*s", (int)(bar - *rest), *rest);
		char *tr = il_strtrim(field[k]);
		memmove(field[k], tr, strlen(tr) + 1);
		*rest = bar + 1;
	}
	return 0;
}

/*
 * sim = COLUMN | TEMPLATE for every row of a column ({row}: the row's key),
 * cell = ROW | COLUMN | EXPRESSION (or '-') for one cell, which a template
 * does not touch.
 */
static int table_exprs(struct parser *p, int si, struct il_scn_table *t)
{
	bool *own = il_xcalloc((size_t)(t->nrows * t->ncols) + 1, sizeof(*own));
	int r = 0;

	for (int pass = 0; pass < 2 && !r; pass++)
		for (int i = p->sect[si].e0; i < p->sect[si].e1 && !r; i++) {
			const struct entry *x = &p->e[i];
			const char *want = pass ? "sim" : "cell", *rest;
			char field[2][256];
			if (x->sect != si || strcmp(x->key, want))
				continue;
			if ((r = lead_fields(p, x, pass ? 1 : 2, field, &rest)))
				break;
			const char *colname = pass ? field[0] : field[1];
			int col = col_find(t, colname);
			if (col < 0) {
				r = fail(p, x->line, "%s: no column '%s'", x->key, colname);
				break;
			}
			if (pass) {
				for (int row = 0; row < t->nrows && !r; row++)
					if (!own[row * t->ncols + col])
						r = set_cell_expr(p, t, row, col, rest, x->line);
			} else {
				int row = row_find(t, field[0]);
				if (row < 0)
					r = fail(p, x->line, "cell: no row '%s'", field[0]);
				else if (own[row * t->ncols + col])
					r = fail(p, x->line, "cell: %s | %s given twice", field[0], colname);
				else {
					own[row * t->ncols + col] = true;
					r = set_cell_expr(p, t, row, col, rest, x->line);
				}
			}
		}
	free(own);
	return r;
}

/* "LABEL | EXPRESSION" (the label is up to the first '|' that is not "||"). */
static int label_expr(struct parser *p, const struct entry *x, unsigned flags, char **label,
		      char **text, struct il_scn_expr **e)
{
	const char *bar = strchr(x->value, '|');
	while (bar && bar[1] == '|')
		bar = strchr(bar + 2, '|');
	if (!bar)
		return fail(p, x->line, "%s: 'LABEL | EXPRESSION'", x->key);
	char *l = il_xcalloc(1, (size_t)(bar - x->value) + 1);
	memcpy(l, x->value, (size_t)(bar - x->value));
	*label = il_xstrdup(il_strtrim(l));
	free(l);
	char *t = il_xstrdup(bar + 1);
	*text = il_xstrdup(il_strtrim(t));
	free(t);
	if (!**label)
		return fail(p, x->line, "%s: an empty label", x->key);
	*e = il_scn_expr_parse(p->s, *text, flags, x->line, p->err);
	return *e ? 0 : -EINVAL;
}

static int do_checks(struct parser *p, int si)
{
	struct il_scn *s = p->s;
	int n = count_key(p, si, "check");

	s->checks = il_xcalloc((size_t)n, sizeof(*s->checks));
	for_each_entry(p, si, i) {
		const struct entry *x = &p->e[i];
		if (x->sect != si)
			continue;
		struct il_scn_check *c = &s->checks[s->nchecks++];
		c->line = x->line;
		int r = label_expr(p, x, IL_SCN_EXPR_CHECK, &c->label, &c->text, &c->e);
		if (r)
			return r;
	}
	return 0;
}

static int do_sens(struct parser *p, int si, struct il_scn_sens *v)
{
	const struct entry *e;
	int r;

	snprintf(v->id, sizeof(v->id), "%s", p->sect[si].id);
	v->line = p->sect[si].line;
	v->estimate = dup_opt(p, si, "estimate");
	v->basis = dup_opt(p, si, "basis");
	e = get(p, si, "estimate");
	const char *dot = strchr(v->estimate, '.');
	if (!dot || dot == v->estimate || !dot[1] || strchr(v->estimate, '=') ||
	    strchr(v->estimate, ' '))
		return fail(p, e->line, "estimate: '%s' is not SECTION.KEY (a platform key) or wl.KEY "
			    "(a workload option)", v->estimate);
	v->workload = !strncmp(v->estimate, "wl.", 3);
	if ((r = get_config_list(p, get(p, si, "configs"), v->configs, &v->nconfigs)))
		return r;
	if (!v->nconfigs)
		return fail(p, get(p, si, "configs")->line, "configs: none given");
	v->nfactors = 2;
	v->factors[0] = 0.5;
	v->factors[1] = 2;
	if ((e = get(p, si, "factors"))) {
		char **f;
		int nf = scn_split(e->value, ',', &f);
		r = 0;
		if (nf > IL_SCN_FACTORS_MAX)
			r = fail(p, e->line, "factors: at most %d", IL_SCN_FACTORS_MAX);
		for (int i = 0; i < nf && !r; i++) {
			if (il_parse_double(f[i], &v->factors[i]) || !(v->factors[i] > 0) ||
			    v->factors[i] > 1000 || v->factors[i] == 1)
				r = fail(p, e->line, "factors: '%s' is not a factor in (0, 1000] other than 1",
					 f[i]);
			/* a rerun is named by its factor as %g prints it (sim-ID@SENS-x0.5.json) */
			for (int k = 0; k < i && !r; k++) {
				char a[32], b[32];
				snprintf(a, sizeof(a), "%g", v->factors[k]);
				snprintf(b, sizeof(b), "%g", v->factors[i]);
				if (!strcmp(a, b))
					r = fail(p, e->line, "factors: '%s' and '%s' are both x%s", f[k], f[i],
						 a);
			}
		}
		v->nfactors = nf;
		scn_split_free(f, nf);
		if (r)
			return r;
	}
	/* the reruns' run counts: the configurations' own unless given */
	if ((e = get(p, si, "runs")) && (r = get_runs(p, e, &v->runs)))
		return r;
	v->quick_runs = v->runs;
	if ((e = get(p, si, "quick.runs")) && (r = get_runs(p, e, &v->quick_runs)))
		return r;
	int n = count_key(p, si, "figure");
	v->figures = il_xcalloc((size_t)n, sizeof(*v->figures));
	for_each_entry(p, si, i) {
		const struct entry *x = &p->e[i];
		if (x->sect != si || strcmp(x->key, "figure"))
			continue;
		struct il_scn_figure *f = &v->figures[v->nfigures++];
		f->line = x->line;
		if ((r = label_expr(p, x, IL_SCN_EXPR_CHECK, &f->label, &f->text, &f->e)))
			return r;
	}
	return 0;
}

static int do_plot(struct parser *p, int si, struct il_scn_plot *pl)
{
	const struct entry *e;
	int r;

	snprintf(pl->id, sizeof(pl->id), "%s", p->sect[si].id);
	pl->line = p->sect[si].line;
	pl->title = dup_opt(p, si, "title");
	pl->xlabel = dup_opt(p, si, "xlabel");
	pl->ylabel = dup_opt(p, si, "ylabel");
	if ((e = get(p, si, "log_x")) && il_parse_bool(e->value, &pl->log_x))
		return fail(p, e->line, "log_x: '%s' is not yes or no", e->value);
	e = get(p, si, "kind");
	if (!strcmp(e->value, "table")) {
		pl->kind = IL_SCN_PLOT_TABLE;
		const struct entry *te = get(p, si, "table"), *ce = get(p, si, "columns");
		if (!te || !ce)
			return fail(p, pl->line, "[plot.%s]: a table plot needs table and columns", pl->id);
		if (get(p, si, "metric") || get(p, si, "configs"))
			return fail(p, pl->line, "[plot.%s]: metric and configs are for kind = runs",
				    pl->id);
		pl->table = il_scn_table_find(p->s, te->value);
		if (pl->table < 0)
			return fail(p, te->line, "table: no [table.%s]", te->value);
		const struct il_scn_table *t = &p->s->tables[pl->table];
		char **f;
		int nf = scn_split(ce->value, '|', &f);
		r = 0;
		if (nf > 16)
			r = fail(p, ce->line, "columns: at most 16");
		for (int i = 0; i < nf && !r; i++) {
			int c = col_find(t, f[i]);
			if (c < 0)
				r = fail(p, ce->line, "columns: table %s has no column '%s'", t->id, f[i]);
			else
				pl->cols[pl->ncols++] = c;
		}
		scn_split_free(f, nf);
		if (r)
			return r;
		/* x: the rows whose key is a number (the others are not drawn) */
		int nx = 0;
		for (int i = 0; i < t->nrows; i++) {
			double x;
			if (il_parse_double(t->keys[i], &x) || !isfinite(x))
				continue;
			if (pl->log_x && x <= 0)
				return fail(p, pl->line, "[plot.%s]: row key '%s' of table %s cannot be on a "
					    "log axis", pl->id, t->keys[i], t->id);
			nx++;
		}
		if (!nx)
			return fail(p, pl->line, "[plot.%s]: no row of table %s has a number as its key "
				    "(the x axis; give it with key = ROW | NUMBER)", pl->id, t->id);
	} else if (!strcmp(e->value, "runs")) {
		pl->kind = IL_SCN_PLOT_RUNS;
		const struct entry *me = get(p, si, "metric"), *ce = get(p, si, "configs");
		if (!me || !ce)
			return fail(p, pl->line, "[plot.%s]: a runs plot needs metric and configs", pl->id);
		if (get(p, si, "table") || get(p, si, "columns"))
			return fail(p, pl->line, "[plot.%s]: table and columns are for kind = table",
				    pl->id);
		if (pl->log_x)
			return fail(p, pl->line, "[plot.%s]: log_x is for kind = table", pl->id);
		/* a define may name the metric */
		const char *m = me->value;
		for (int i = 0; i < p->s->ndefines; i++)
			if (!strcmp(p->s->defines[i].name, m))
				m = p->s->defines[i].text;
		if (!strchr(m, '/'))
			return fail(p, me->line, "metric: '%s' is not ROW/COLUMN", me->value);
		pl->metric = il_xstrdup(m);
		if ((r = get_config_list(p, ce, pl->configs, &pl->nconfigs)))
			return r;
	} else {
		return fail(p, e->line, "kind: '%s' is not table or runs", e->value);
	}
	return 0;
}

/* ------------------------------------------------------------------ the whole file */

static int build(struct parser *p)
{
	struct il_scn *s = p->s;
	int counts[SK_COUNT] = { 0 }, r;

	for (int i = 0; i < p->nsect; i++)
		counts[p->sect[i].kind]++;
	if (!counts[SK_SCENARIO])
		return fail(p, 1, "no [scenario] section");
	if (!counts[SK_CONFIG])
		return fail(p, 1, "no [config.ID] section");
	if (counts[SK_CONFIG] > IL_SCN_CONFIGS_MAX)
		return fail(p, 1, "more than %d configurations", IL_SCN_CONFIGS_MAX);
	if ((r = check_keys(p)))
		return r;
	s->sources = il_xcalloc((size_t)counts[SK_SOURCE] + 1, sizeof(*s->sources));
	s->configs = il_xcalloc((size_t)counts[SK_CONFIG], sizeof(*s->configs));
	s->tables = il_xcalloc((size_t)counts[SK_TABLE] + 1, sizeof(*s->tables));
	s->sens = il_xcalloc((size_t)counts[SK_SENS] + 1, sizeof(*s->sens));
	s->plots = il_xcalloc((size_t)counts[SK_PLOT] + 1, sizeof(*s->plots));
	int ndef = 0;
	for (int i = 0; i < p->ne; i++)
		ndef += p->sect[p->e[i].sect].kind == SK_DEFINE;
	s->defines = il_xcalloc((size_t)ndef + 1, sizeof(*s->defines));
	/* names first: everything below may refer to them */
	for (int si = 0; si < p->nsect && !r; si++) {
		switch (p->sect[si].kind) {
		case SK_SCENARIO: r = do_scenario(p, si); break;
		case SK_SOURCE: r = do_source(p, si, &s->sources[s->nsources++]); break;
		case SK_CONFIG: r = do_config(p, si, &s->configs[s->nconfigs++]); break;
		case SK_DEFINE:
			for_each_entry(p, si, i) {
				if (p->e[i].sect != si)
					continue;
				struct il_scn_define *d = &s->defines[s->ndefines++];
				snprintf(d->name, sizeof(d->name), "%s", p->e[i].key);
				d->text = il_xstrdup(p->e[i].value);
				d->line = p->e[i].line;
				if (!*d->text)
					r = fail(p, d->line, "[define]: %s is empty", d->name);
			}
			break;
		default: break;
		}
	}
	/* a define that is an expression (not a bare ROW/COLUMN) must parse on its own */
	for (int i = 0; i < s->ndefines && !r; i++) {
		const struct il_scn_define *d = &s->defines[i];
		if (strchr(d->text, '/') && !strchr(d->text, '('))
			continue;
		struct il_scn_expr *e = il_scn_expr_parse(s, d->text, IL_SCN_EXPR_CHECK | IL_SCN_EXPR_RUN,
							  d->line, p->err);
		if (!e) {
			char msg[IL_ERR_MSG_MAX];
			snprintf(msg, sizeof(msg), "%s", p->err->msg);
			r = fail(p, d->line, "define %s: %s", d->name, msg);
		}
		il_scn_expr_free(e);
	}
	for (int si = 0; si < p->nsect && !r; si++)
		if (p->sect[si].kind == SK_TABLE)
			r = do_table(p, si, &s->tables[s->ntables++]);
	for (int si = 0, t = 0; si < p->nsect && !r; si++)
		if (p->sect[si].kind == SK_TABLE)
			r = table_exprs(p, si, &s->tables[t++]);
	for (int si = 0; si < p->nsect && !r; si++) {
		switch (p->sect[si].kind) {
		case SK_CHECKS: r = do_checks(p, si); break;
		case SK_SENS: r = do_sens(p, si, &s->sens[s->nsens++]); break;
		case SK_PLOT: r = do_plot(p, si, &s->plots[s->nplots++]); break;
		default: break;
		}
	}
	return r;
}

static int build_batch(struct parser *p)
{
	struct il_scn *s = p->s;
	int counts[SK_COUNT] = { 0 }, r;

	for (int i = 0; i < p->nsect; i++)
		counts[p->sect[i].kind]++;
	if (!counts[SK_BCONFIG])
		return fail(p, 1, "no [config.ID] section");
	if (counts[SK_BCONFIG] > IL_BATCH_CONFIGS_MAX)
		return fail(p, 1, "more than %d configurations", IL_BATCH_CONFIGS_MAX);
	if ((r = check_keys(p)))
		return r;
	s->configs = il_xcalloc((size_t)counts[SK_BCONFIG], sizeof(*s->configs));
	snprintf(s->name, sizeof(s->name), "batch");
	bool has_seed = false;
	uint64_t seed = 0;
	for (int si = 0; si < p->nsect && !r; si++) {
		if (p->sect[si].kind != SK_BATCH)
			continue;
		const struct entry *e;
		s->title = dup_opt(p, si, "title");
		s->platform = dup_opt(p, si, "platform");
		s->platform_line = key_line(p, si, "platform");
		if ((e = get(p, si, "seed"))) {
			if (il_parse_u64(e->value, &seed))
				r = fail(p, e->line, "seed: '%s' is not an unsigned integer", e->value);
			has_seed = true;
		}
	}
	if (!s->platform)
		s->platform = il_xstrdup(IL_DEFAULT_PLATFORM);
	for (int si = 0; si < p->nsect && !r; si++)
		if (p->sect[si].kind == SK_BCONFIG) {
			struct il_scn_config *c = &s->configs[s->nconfigs++];
			r = do_config(p, si, c);
			/* [batch]'s seed for the configurations that give none */
			if (!r && !c->has_seed && has_seed) {
				c->has_seed = true;
				c->seed = seed;
			}
		}
	return r;
}

static int parse(struct il_scn *s, const char *text, size_t len, const char *name, bool batch,
		 struct il_err *err)
{
	struct parser p;
	int r;

	memset(s, 0, sizeof(*s));
	memset(&p, 0, sizeof(p));
	il_err_clear(err);
	p.fname = name;
	p.err = err;
	p.s = s;
	p.batch = batch;
	snprintf(s->file, sizeof(s->file), "%s", name);
	/* a UTF-8 byte order mark, as editors write one: skipped, as inih skips it */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	r = check_text(&p, text, len);
	if (!r)
		r = read_lines(&p, text, len);
	if (!r)
		r = batch ? build_batch(&p) : build(&p);
	for (int i = 0; i < p.ne; i++) {
		free(p.e[i].key);
		free(p.e[i].value);
	}
	free(p.e);
	free(p.sect);
	if (r) {
		il_scn_free(s);
		snprintf(s->file, sizeof(s->file), "%s", name);
	}
	return r;
}

int il_scn_parse(struct il_scn *s, const char *text, size_t len, const char *name,
		 struct il_err *err)
{
	return parse(s, text, len, name, false, err);
}

int il_scn_parse_batch(struct il_scn *s, const char *text, size_t len, const char *name,
		       struct il_err *err)
{
	return parse(s, text, len, name, true, err);
}

int il_scn_load(struct il_scn *s, const char *name_or_path, struct il_err *err)
{
	for (int i = 0; i < il_builtin_scenario_count; i++) {
		const struct il_builtin_scenario *b = &il_builtin_scenarios[i];
		if (!strcmp(b->name, name_or_path)) {
			char nm[96];
			snprintf(nm, sizeof(nm), "builtin:%s", b->name);
			return il_scn_parse(s, b->text, b->len, nm, err);
		}
	}
	if (!strchr(name_or_path, '/') && !strchr(name_or_path, '.')) {
		char list[512] = "";
		for (int i = 0; i < il_builtin_scenario_count; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
				 il_builtin_scenarios[i].name);
		return il_err_set(err, ENOENT, "no scenario '%s' (built in: %s; or a file path)",
				  name_or_path, list);
	}
	char *buf;
	size_t len;
	int r = il_read_file(name_or_path, (size_t)16 << 20, &buf, &len, err);
	if (r)
		return r;
	r = il_scn_parse(s, buf, len, name_or_path, err);
	free(buf);
	return r;
}

static void kvs_free(struct il_scn_kv *kv, int n)
{
	for (int i = 0; i < n; i++)
		free(kv[i].text);
	free(kv);
}

void il_scn_free(struct il_scn *s)
{
	free(s->title);
	free(s->finding);
	free(s->platform);
	free(s->mechanisms);
	free(s->status);
	for (int i = 0; i < s->nsources; i++) {
		struct il_scn_source *x = &s->sources[i];
		free(x->author);
		free(x->list);
		free(x->date);
		free(x->subject);
		free(x->message_id);
		free(x->commit);
		free(x->url);
		free(x->note);
	}
	free(s->sources);
	for (int i = 0; i < s->nconfigs; i++) {
		struct il_scn_config *c = &s->configs[i];
		free(c->label);
		free(c->platform);
		free(c->governor);
		free(c->cpufreq);
		free(c->workload);
		kvs_free(c->wl, c->nwl);
		kvs_free(c->pset, c->npset);
		kvs_free(c->set, c->nset);
		kvs_free(c->sim, c->nsim);
		kvs_free(c->quick_wl, c->nquick_wl);
	}
	free(s->configs);
	for (int i = 0; i < s->ntables; i++) {
		struct il_scn_table *t = &s->tables[i];
		free(t->title);
		free(t->source);
		free(t->where);
		free(t->unit);
		free(t->note);
		free(t->row_header);
		for (int r = 0; r < t->nrows; r++) {
			free(t->rows[r]);
			free(t->keys[r]);
		}
		for (int k = 0; t->cells && k < t->nrows * t->ncols; k++) {
			free(t->cells[k].pub_text);
			il_scn_expr_free(t->cells[k].sim);
		}
		free(t->rows);
		free(t->keys);
		free(t->cells);
		free(t->row_points);
		if (t->cols)
			scn_split_free(t->cols, t->ncols);
	}
	free(s->tables);
	for (int i = 0; i < s->nchecks; i++) {
		free(s->checks[i].label);
		free(s->checks[i].text);
		il_scn_expr_free(s->checks[i].e);
	}
	free(s->checks);
	for (int i = 0; i < s->nsens; i++) {
		struct il_scn_sens *v = &s->sens[i];
		free(v->estimate);
		free(v->basis);
		for (int k = 0; k < v->nfigures; k++) {
			free(v->figures[k].label);
			free(v->figures[k].text);
			il_scn_expr_free(v->figures[k].e);
		}
		free(v->figures);
	}
	free(s->sens);
	for (int i = 0; i < s->nplots; i++) {
		free(s->plots[i].title);
		free(s->plots[i].xlabel);
		free(s->plots[i].ylabel);
		free(s->plots[i].metric);
	}
	free(s->plots);
	for (int i = 0; i < s->ndefines; i++)
		free(s->defines[i].text);
	free(s->defines);
	memset(s, 0, sizeof(*s));
}

void scn_cite(const struct il_scn *s, const char *source_id, char *buf, size_t size)
{
	const struct il_scn_source *src = il_scn_source_find(s, source_id);

	if (!src) {
		snprintf(buf, size, "%s", source_id);
		return;
	}
	snprintf(buf, size, "%s, %s%s%s, \"%s\"%s%s", src->author, src->list ? src->list : "",
		 src->list ? " " : "", src->date, src->subject, src->message_id ? ", " : "",
		 src->message_id ? src->message_id : "");
}
