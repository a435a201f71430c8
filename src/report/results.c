// SPDX-License-Identifier: GPL-2.0-only
/* Simulation results read back (include/idlelab/results.h), with json-c. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/results.h"

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

static int read_metric(const char *name, size_t ci, size_t k, struct json_object *mo,
		       struct il_result_metric *m, struct il_err *err)
{
	struct json_object *vals, *tp;
	const char *row = jstr(mo, "row"), *col = jstr(mo, "col"), *unit = jstr(mo, "unit");
	const char *better = jstr(mo, "better");

	if (!row || !col || !json_object_object_get_ex(mo, "values", &vals) ||
	    !json_object_is_type(vals, json_type_array))
		return il_err_set_at(err, EINVAL, name, 0, "configuration %zu, metric %zu is malformed",
				     ci + 1, k + 1);
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
		if (x && (json_object_is_type(x, json_type_double) ||
			  json_object_is_type(x, json_type_int)))
			m->values[m->n++] = json_object_get_double(x);
	}
	return 0;
}

/* root is consumed. */
static int read_root(const char *name, struct json_object *root, struct il_result_config *out,
		     int room, struct il_err *err)
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
		if (added == room) {
			r = il_err_set_at(err, EINVAL, name, 0, "too many configurations in all");
			break;
		}
		const char *gov = jstr(c, "governor"), *rel = jstr(c, "kernel");
		if (!gov || !json_object_object_get_ex(c, "metrics", &metrics) ||
		    !json_object_is_type(metrics, json_type_array)) {
			r = il_err_set_at(err, EINVAL, name, 0,
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
			r = read_metric(name, i, k, json_object_array_get_idx(metrics, k),
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
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root;

	if (!tok)
		return il_err_set_at(err, ENOMEM, name, 0, "out of memory");
	if (len > (size_t)(1 << 30)) {
		json_tokener_free(tok);
		return il_err_set_at(err, EFBIG, name, 0, "file too large");
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error je = json_tokener_get_error(tok);
	json_tokener_free(tok);
	if (!root || je != json_tokener_success) {
		json_object_put(root);
		return il_err_set_at(err, EINVAL, name, 0, "cannot read it as JSON (%s)",
				     json_tokener_error_desc(je));
	}
	return read_root(name, root, out, room, err);
}

int il_results_load(const char *path, struct il_result_config *out, int room,
		    struct il_err *err)
{
	struct json_object *root = json_object_from_file(path);

	if (!root)
		return il_err_set_at(err, EINVAL, path, 0, "cannot read it as JSON (%s)",
				     json_util_get_last_err() ? json_util_get_last_err() : "?");
	return read_root(path, root, out, room, err);
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
