// SPDX-License-Identifier: GPL-2.0-only
/*
 * The governor registry and spec strings "NAME[@RELEASE][+PATCH[=VALUE]]...".
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/governor.h"
#include "idlelab/release.h"

extern const struct il_gov_ops il_gov_menu, il_gov_teo, il_gov_ladder, il_gov_haltpoll,
	il_gov_oracle, il_gov_oracle_energy;

const struct il_gov_ops *const il_governors[] = {
	&il_gov_menu, &il_gov_teo, &il_gov_ladder, &il_gov_haltpoll,
	&il_gov_oracle, &il_gov_oracle_energy, NULL,
};

const struct il_gov_ops *il_gov_find(const char *name)
{
	for (int i = 0; il_governors[i]; i++)
		if (!strcmp(il_governors[i]->name, name))
			return il_governors[i];
	return NULL;
}

/*
 * Presets. Each governor's table is oldest first with increasing releases
 * (tests/governors/test_registry.c checks every table), so the newest is
 * the last row and the one in force at a release is the last row not newer.
 */
const struct il_gov_preset *il_gov_preset_find(const struct il_gov_ops *ops, const char *rel)
{
	for (size_t i = 0; i < ops->npresets; i++)
		if (!strcmp(ops->presets[i].release, rel))
			return &ops->presets[i];
	return NULL;
}

bool il_gov_has_release(const struct il_gov_ops *ops, const char *rel)
{
	return il_gov_preset_find(ops, rel) != NULL;
}

const struct il_gov_preset *il_gov_preset_for_release(const struct il_gov_ops *ops,
							const char *rel)
{
	const struct il_gov_preset *in_force = NULL;

	for (size_t i = 0; i < ops->npresets; i++)
		if (il_release_cmp(ops->presets[i].release, rel) <= 0)
			in_force = &ops->presets[i];
	return in_force;
}

const struct il_gov_preset *il_gov_preset_newest(const struct il_gov_ops *ops)
{
	return &ops->presets[ops->npresets - 1];
}

void il_gov_preset_list(const struct il_gov_ops *ops, char *buf, size_t size)
{
	size_t off = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < ops->npresets && off < size; i++)
		off += (size_t)snprintf(buf + off, size - off, "%s%s", i ? " " : "",
					ops->presets[i].release);
}

void il_gov_describe(const struct il_gov *gov, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s@%s (%s)", gov->ops->name, gov->preset->release,
			 gov->preset->text);

	if (gov->ops->describe_extra && n >= 0 && (size_t)n < size)
		gov->ops->describe_extra(gov->config, buf + n, size - (size_t)n);
}

static il_gov_loader_fn *gov_loader;
static il_gov_is_file_fn *gov_is_file;

void il_gov_set_loader(il_gov_loader_fn *load, il_gov_is_file_fn *is_file)
{
	gov_loader = load;
	gov_is_file = is_file;
}

struct il_gov *il_gov_new(const char *spec, int ncpus, struct il_err *err)
{
	char buf[160], name[32], release[16] = "";
	struct il_gov_patch patches[IL_GOV_PATCH_MAX];
	int npatches = 0;

	if (gov_loader && gov_is_file(spec))
		return gov_loader(spec, ncpus, err);

	if (strlen(spec) >= sizeof(buf)) {
		il_err_set(err, EINVAL, "governor spec too long");
		return NULL;
	}
	if (ncpus < 1) {
		il_err_set(err, EINVAL, "governor needs at least one CPU");
		return NULL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	char *plus = strchr(buf, '+');
	if (plus)
		*plus++ = '\0';
	char *at = strchr(buf, '@');
	if (at) {
		*at++ = '\0';
		if (!*at || strlen(at) >= sizeof(release)) {
			il_err_set(err, EINVAL, "bad kernel release in governor spec '%s'", spec);
			return NULL;
		}
		memcpy(release, at, strlen(at) + 1); /* length checked above */
	}
	if (strlen(buf) >= sizeof(name) || !buf[0]) {
		il_err_set(err, EINVAL, "bad governor spec '%s'", spec);
		return NULL;
	}
	memcpy(name, buf, strlen(buf) + 1);
	const struct il_gov_ops *ops = il_gov_find(name);
	if (!ops) {
		char list[256] = "";
		for (int i = 0; il_governors[i]; i++) {
			strncat(list, il_governors[i]->name, sizeof(list) - strlen(list) - 2);
			if (il_governors[i + 1])
				strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		}
		il_err_set(err, ENOENT, "unknown governor '%s' (known: %s)", name, list);
		return NULL;
	}
	const struct il_gov_preset *preset = release[0] ? il_gov_preset_find(ops, release)
						       : il_gov_preset_newest(ops);
	if (!preset) {
		char list[128];

		il_gov_preset_list(ops, list, sizeof(list));
		il_err_set(err, EINVAL, "governor %s has no preset for kernel %s (presets: %s)",
			   name, release, list);
		return NULL;
	}
	while (plus) {
		char *next = strchr(plus, '+');
		if (next)
			*next++ = '\0';
		if (npatches == IL_GOV_PATCH_MAX) {
			il_err_set(err, EINVAL, "too many patches in governor spec '%s'", spec);
			return NULL;
		}
		char *eq = strchr(plus, '=');
		if (eq)
			*eq++ = '\0';
		if (!*plus || strlen(plus) >= sizeof(patches[0].name) ||
		    (eq && strlen(eq) >= sizeof(patches[0].value))) {
			il_err_set(err, EINVAL, "bad patch #%d in governor spec '%s' (empty, or name over 31 / value over 31 chars)", npatches + 1, spec);
			return NULL;
		}
		memcpy(patches[npatches].name, plus, strlen(plus) + 1);
		if (!eq)
			eq = plus + strlen(plus); /* "" */
		memcpy(patches[npatches].value, eq, strlen(eq) + 1);
		npatches++;
		plus = next;
	}

	struct il_gov *gov = calloc(1, sizeof(*gov));
	if (!gov) {
		il_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	gov->ops = ops;
	gov->preset = preset;
	gov->ncpus = ncpus;
	gov->config = calloc(1, ops->config_size ? ops->config_size : 1);
	gov->cpu_data = calloc((size_t)ncpus, ops->cpu_data_size ? ops->cpu_data_size : 1);
	if (!gov->config || !gov->cpu_data) {
		il_gov_free(gov);
		il_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	if (ops->configure(gov->config, preset, patches, npatches, err) < 0) {
		il_gov_free(gov);
		return NULL;
	}
	size_t off = (size_t)snprintf(gov->spec, sizeof(gov->spec), "%s@%s", name,
				      preset->release);
	for (int i = 0; i < npatches && off < sizeof(gov->spec); i++)
		off += (size_t)snprintf(gov->spec + off, sizeof(gov->spec) - off, "+%s%s%s",
					patches[i].name, patches[i].value[0] ? "=" : "",
					patches[i].value);
	if (off >= sizeof(gov->spec)) {
		/* a truncated normalised spec would name a different governor */
		il_gov_free(gov);
		il_err_set(err, EINVAL, "governor spec '%s' too long (normalised form over %zu chars)",
			   spec, sizeof(gov->spec) - 1);
		return NULL;
	}
	return gov;
}

void il_gov_free(struct il_gov *gov)
{
	if (!gov)
		return;
	if (gov->ops && gov->ops->release)
		gov->ops->release(gov->config);
	free(gov->config);
	free(gov->cpu_data);
	free(gov);
}

int il_gov_set_param(struct il_gov *gov, const char *name, const char *value,
		     struct il_err *err)
{
	if (!gov->ops->set_param)
		return il_err_set(err, ENOENT, "governor %s has no parameter '%s'",
				  gov->ops->name, name);
	return gov->ops->set_param(gov->config, name, value, err);
}
