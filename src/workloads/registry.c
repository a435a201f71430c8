// SPDX-License-Identifier: GPL-2.0-only
/* The workload registry: lookup, options and help of a workload by its table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sim.h"
#include "idlelab/workload.h"

extern const struct il_workload il_wl_sleep_sweep, il_wl_pingpong, il_wl_wake_latency,
	il_wl_request_response, il_wl_stream, il_wl_transactions, il_wl_idle, il_wl_gitsource,
	il_wl_kernbench;

const struct il_workload *const il_workloads[] = {
	&il_wl_sleep_sweep, &il_wl_pingpong, &il_wl_wake_latency, &il_wl_request_response,
	&il_wl_stream, &il_wl_transactions, &il_wl_idle, &il_wl_gitsource, &il_wl_kernbench, NULL,
};

const struct il_workload *il_workload_find(const char *name)
{
	for (int i = 0; il_workloads[i]; i++)
		if (!strcmp(il_workloads[i]->name, name))
			return il_workloads[i];
	return NULL;
}

bool il_wl_opt_parse(const char *text, struct il_wl_opt *opt, struct il_err *err)
{
	const char *eq = strchr(text, '=');
	size_t kl = eq ? (size_t)(eq - text) : 0;

	if (!eq || kl == 0) {
		if (err)
			il_err_set(err, EINVAL, "'%s' is not KEY=VALUE", text);
		return false;
	}
	if (kl >= sizeof(opt->key)) {
		if (err)
			il_err_set(err, EINVAL, "key '%.20s...' is longer than %zu characters", text,
				   sizeof(opt->key) - 1);
		return false;
	}
	memcpy(opt->key, text, kl);
	opt->key[kl] = '\0';
	opt->value = eq + 1;
	return true;
}

int il_workload_configure(const struct il_workload *wl, void *cfg, const struct il_wl_opt *opts,
			  int nopts, struct il_err *err)
{
	int r = il_opts_defaults(wl->opts, cfg, err);

	for (int i = 0; r == 0 && i < nopts; i++) {
		const struct il_opt *o = il_opt_find(wl->opts, opts[i].key);
		if (!o) {
			char names[400] = "";
			for (const struct il_opt *k = wl->opts; k && k->name; k++) {
				size_t l = strlen(names);
				snprintf(names + l, sizeof(names) - l, "%s%s", l ? ", " : "", k->name);
			}
			return il_err_set(err, EINVAL, "workload %s has no option '%s' (options: %s)",
					  wl->name, opts[i].key, names);
		}
		r = il_opt_set(o, cfg, opts[i].value, err);
	}
	if (r == 0 && wl->check)
		r = wl->check(cfg, err);
	return r;
}

size_t il_workload_help(const struct il_workload *wl, char *buf, size_t size)
{
	return il_opts_help(wl->opts, "  ", buf, size);
}
