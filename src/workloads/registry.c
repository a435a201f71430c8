// SPDX-License-Identifier: GPL-2.0-only
/* The workload registry and the option helpers workloads share. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sim.h"
#include "idlelab/workload.h"
#include "util.h"

extern const struct il_workload il_wl_sleep_sweep, il_wl_pingpong, il_wl_wake_latency,
	il_wl_request_response, il_wl_stream, il_wl_transactions, il_wl_idle;

const struct il_workload *const il_workloads[] = {
	&il_wl_sleep_sweep, &il_wl_pingpong, &il_wl_wake_latency, &il_wl_request_response,
	&il_wl_stream, &il_wl_transactions, &il_wl_idle, NULL,
};

const struct il_workload *il_workload_find(const char *name)
{
	for (int i = 0; il_workloads[i]; i++)
		if (!strcmp(il_workloads[i]->name, name))
			return il_workloads[i];
	return NULL;
}

bool il_wl_opt_parse(const char *text, struct il_wl_opt *opt)
{
	const char *eq = strchr(text, '=');
	size_t kl = eq ? (size_t)(eq - text) : 0;

	if (!eq || kl == 0 || kl >= sizeof(opt->key) || strlen(eq + 1) >= sizeof(opt->value))
		return false;
	memcpy(opt->key, text, kl);
	opt->key[kl] = '\0';
	snprintf(opt->value, sizeof(opt->value), "%s", eq + 1);
	return true;
}

int il_wl_parse_dur(const char *key, const char *text, int64_t *ns, struct il_err *err)
{
	double us;
	bool bare = *text != '\0';

	for (const char *p = text; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			bare = false;
	if (bare && !il_parse_double(text, &us) && us >= 0 && us < 1e12) {
		*ns = (int64_t)(us * 1000 + 0.5);
		return 0;
	}
	if (!bare && !il_parse_duration_ns(text, ns) && *ns >= 0)
		return 0;
	return il_err_set(err, EINVAL, "%s: bad duration '%s' (µs, or with ns/us/ms/s)", key, text);
}

int il_wl_parse_u64(const char *key, const char *text, uint64_t min, uint64_t max,
		    uint64_t *v, struct il_err *err)
{
	if (il_parse_u64(text, v) || *v < min || *v > max)
		return il_err_set(err, EINVAL, "%s: '%s' is not a whole number in %llu..%llu", key,
				  text, (unsigned long long)min, (unsigned long long)max);
	return 0;
}

int il_wl_parse_us_list(const char *text, int64_t *out, int max, int *n, struct il_err *err)
{
	char buf[160];
	char *save = NULL;

	snprintf(buf, sizeof(buf), "%s", text);
	*n = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int64_t ns;
		if (*n == max)
			return il_err_set(err, EINVAL, "intervals: more than %d values", max);
		if (il_wl_parse_dur("intervals", il_strtrim(tok), &ns, err))
			return -EINVAL;
		if (ns <= 0)
			return il_err_set(err, EINVAL, "intervals: '%s' must be positive", tok);
		out[(*n)++] = ns;
	}
	if (!*n)
		return il_err_set(err, EINVAL, "intervals: empty list");
	return 0;
}

int il_wl_unknown_opt(const struct il_workload *wl, const char *key, struct il_err *err)
{
	return il_err_set(err, EINVAL, "workload %s has no option '%s' (options:\n%s)", wl->name,
			  key, wl->options_help);
}

int il_wl_check_cpus(const struct il_workload *wl, const struct il_sim *s, int a, int b,
		     struct il_err *err)
{
	int n = il_sim_ncpus(s);

	if (a >= n || b >= n)
		return il_err_set(err, EINVAL, "%s: CPU %d does not exist (platform has %d)",
				  wl->name, a >= n ? a : b, n);
	return 0;
}
