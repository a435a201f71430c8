// SPDX-License-Identifier: GPL-2.0-only
/* Simulation results read back (include/idlelab/results.h), with json-c. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/results.h"
#include "util.h"

/*
 * json-c keeps no positions, so an error in a well-formed file is placed
 * by walking the text again along the JSON path of the offending element:
 * a reader of already-validated JSON that only skips values.
 */
struct jtext {
	const char *t;
	size_t len;
};

/* One step of a path: a member name, or (key NULL) an array index. */
struct jstep {
	const char *key;
	size_t idx;
};

static size_t j_ws(const struct jtext *j, size_t p)
{
	while (p < j->len && (j->t[p] == ' ' || j->t[p] == '\t' || j->t[p] == '\n' ||
			      j->t[p] == '\r'))
		p++;
	return p;
}

/* p at an opening quote: past the closing one. */
static size_t j_string(const struct jtext *j, size_t p)
{
	for (p++; p < j->len && j->t[p] != '"'; p++)
		if (j->t[p] == '\\')
			p++;
	return p < j->len ? p + 1 : j->len;
}

/* p at a value: past it. */
static size_t j_value(const struct jtext *j, size_t p)
{
	if (p >= j->len)
		return p;
	if (j->t[p] == '"')
		return j_string(j, p);
	if (j->t[p] == '{' || j->t[p] == '[') {
		size_t depth = 0;
		while (p < j->len) {
			char c = j->t[p];
			if (c == '"') {
				p = j_string(j, p);
				continue;
			}
			if (c == '{' || c == '[')
				depth++;
			else if ((c == '}' || c == ']') && --depth == 0)
				return p + 1;
			p++;
		}
		return p;
	}
	while (p < j->len && !strchr(",]} \t\r\n", j->t[p]))
		p++;
	return p;
}

/* Offset of the element at path (as far as it can be followed). */
static size_t j_locate(const struct jtext *j, const struct jstep *path, int n)
{
	size_t p = j_ws(j, 0);

	for (int s = 0; s < n; s++) {
		const struct jstep *st = &path[s];
		size_t i = 0, klen = st->key ? strlen(st->key) : 0;
		bool found = false;

		if (p >= j->len || j->t[p] != (st->key ? '{' : '['))
			return p;
		p = j_ws(j, p + 1);
		while (p < j->len && j->t[p] != (st->key ? '}' : ']')) {
			if (st->key) {
				size_t k = p + 1, e = j_string(j, p);
				bool match = e - k == klen + 1 && !memcmp(j->t + k, st->key, klen);
				p = j_ws(j, e);
				if (p < j->len && j->t[p] == ':')
					p = j_ws(j, p + 1);
				if (match) {
					found = true;
					break;
				}
			} else if (i++ == st->idx) {
				found = true;
				break;
			}
			p = j_ws(j, j_value(j, p));
			if (p < j->len && j->t[p] == ',')
				p = j_ws(j, p + 1);
		}
		if (!found)
			return p;
	}
	return p;
}

static int j_line(const struct jtext *j, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off && i < j->len; i++)
		line += j->t[i] == '\n';
	return line;
}

static int j_line_of(const struct jtext *j, const struct jstep *path, int n)
{
	return j_line(j, j_locate(j, path, n));
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

void il_results_free(struct il_result_config *c, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < c[i].nmetrics; k++)
			free(c[i].m[k].values);
		free(c[i].m);
		memset(&c[i], 0, sizeof(c[i]));
	}
}

static int read_metric(const char *name, const struct jtext *j, size_t ci, size_t k,
		       struct json_object *mo, struct il_result_metric *m, struct il_err *err)
{
	struct json_object *vals, *tp;
	const char *row = jstr(mo, "row"), *col = jstr(mo, "col"), *unit = jstr(mo, "unit");
	const char *better = jstr(mo, "better");
	struct jstep path[5] = { { "configs", 0 }, { NULL, ci }, { "metrics", 0 }, { NULL, k },
				 { "values", 0 } };

	if (!json_object_is_type(mo, json_type_object) || !row || !col ||
	    !json_object_object_get_ex(mo, "values", &vals) ||
	    !json_object_is_type(vals, json_type_array))
		return il_err_set_at(err, EINVAL, name, j_line_of(j, path, 4),
				     "configuration %zu, metric %zu is malformed (it needs strings"
				     " \"row\" and \"col\" and an array \"values\")", ci + 1, k + 1);
	snprintf(m->row, sizeof(m->row), "%s", row);
	snprintf(m->col, sizeof(m->col), "%s", col);
	snprintf(m->unit, sizeof(m->unit), "%s", unit ? unit : "");
	m->better = better && !strcmp(better, "lower")    ? IL_BETTER_LOWER
		    : better && !strcmp(better, "higher") ? IL_BETTER_HIGHER
							  : IL_BETTER_NONE;
	m->throughput = json_object_object_get_ex(mo, "throughput", &tp) &&
			json_object_get_boolean(tp);
	size_t nv = json_object_array_length(vals);
	m->values = calloc(nv ? nv : 1, sizeof(double));
	if (!m->values)
		return il_err_set_at(err, ENOMEM, name, 0, "out of memory");
	for (size_t v = 0; v < nv; v++) {
		struct json_object *x = json_object_array_get_idx(vals, v);
		if (!x)
			continue; /* null: a value that was not finite (NaN) */
		if (!json_object_is_type(x, json_type_double) && !json_object_is_type(x, json_type_int))
			return il_err_set_at(err, EINVAL, name, j_line_of(j, path, 5),
					     "configuration %zu, metric %s/%s: value %zu is not a"
					     " number", ci + 1, m->row, m->col, v + 1);
		m->values[m->n++] = json_object_get_double(x);
	}
	return 0;
}

/* root is consumed. */
static int read_root(const char *name, const struct jtext *j, struct json_object *root,
		     struct il_result_config *out, int room, struct il_err *err)
{
	struct json_object *configs;
	int added = 0, r = 0;

	const char *kind = jstr(root, "idlelab");
	if (!kind || strcmp(kind, "sim") || !json_object_object_get_ex(root, "configs", &configs) ||
	    !json_object_is_type(configs, json_type_array)) {
		json_object_put(root);
		return il_err_set_at(err, EINVAL, name, 0,
				     "not a result of 'idlelab sim --format json'");
	}
	const char *wl = jstr(root, "workload");
	size_t nc = json_object_array_length(configs);
	for (size_t i = 0; i < nc && !r; i++) {
		struct json_object *c = json_object_array_get_idx(configs, i), *metrics;
		struct jstep path[2] = { { "configs", 0 }, { NULL, i } };
		if (added == room) {
			r = il_err_set_at(err, EINVAL, name, j_line_of(j, path, 2),
					  "too many configurations in all (at most %d)", room);
			break;
		}
		const char *gov = jstr(c, "governor"), *rel = jstr(c, "kernel");
		if (!gov || !json_object_object_get_ex(c, "metrics", &metrics) ||
		    !json_object_is_type(metrics, json_type_array)) {
			r = il_err_set_at(err, EINVAL, name, j_line_of(j, path, 2),
					  "configuration %zu has no governor or metrics", i + 1);
			break;
		}
		struct il_result_config *cf = &out[added++];
		memset(cf, 0, sizeof(*cf));
		snprintf(cf->governor, sizeof(cf->governor), "%s", gov);
		snprintf(cf->kernel, sizeof(cf->kernel), "%s", rel ? rel : "");
		snprintf(cf->workload, sizeof(cf->workload), "%s", wl ? wl : "");
		size_t nm = json_object_array_length(metrics);
		cf->m = calloc(nm ? nm : 1, sizeof(*cf->m));
		if (!cf->m) {
			r = il_err_set_at(err, ENOMEM, name, 0, "out of memory");
			break;
		}
		for (size_t k = 0; k < nm && !r; k++) {
			r = read_metric(name, j, i, k, json_object_array_get_idx(metrics, k),
					&cf->m[cf->nmetrics], err);
			if (!r)
				cf->nmetrics++;
			else
				free(cf->m[cf->nmetrics].values);
		}
	}
	json_object_put(root);
	if (r) {
		il_results_free(out, added);
		return r;
	}
	return added;
}

int il_results_parse(const char *text, size_t len, const char *name,
		     struct il_result_config *out, int room, struct il_err *err)
{
	const struct jtext j = { text, len };
	struct json_tokener *tok;
	struct json_object *root;

	if (len > (size_t)(1 << 30))
		return il_err_set_at(err, EFBIG, name, 0, "file too large (more than 1 GiB)");
	tok = json_tokener_new();
	if (!tok)
		return il_err_set_at(err, ENOMEM, name, 0, "out of memory");
	root = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error je = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (je == json_tokener_continue) {
		json_object_put(root);
		return il_err_set_at(err, EINVAL, name, j_line(&j, len),
				     "cannot read it as JSON (the text ends inside a value:"
				     " truncated?)");
	}
	if (!root || je != json_tokener_success) {
		json_object_put(root);
		return il_err_set_at(err, EINVAL, name, j_line(&j, end), "cannot read it as JSON (%s)",
				     json_tokener_error_desc(je));
	}
	size_t rest = j_ws(&j, end);
	if (rest < len && text[rest] != '\0') {
		json_object_put(root);
		return il_err_set_at(err, EINVAL, name, j_line(&j, rest),
				     "cannot read it as JSON (text after the end of the value)");
	}
	return read_root(name, &j, root, out, room, err);
}

int il_results_load(const char *path, struct il_result_config *out, int room,
		    struct il_err *err)
{
	char *text;
	size_t len;
	int r = il_read_file(path, (size_t)1 << 30, &text, &len, err);

	if (r)
		return r;
	r = il_results_parse(text, len, path, out, room, err);
	free(text);
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

const struct il_result_metric *il_result_find(const struct il_result_config *c,
					      const char *row, const char *col)
{
	for (int k = 0; k < c->nmetrics; k++)
		if (!strcmp(c->m[k].row, row) && !strcmp(c->m[k].col, col))
			return &c->m[k];
	return NULL;
}
