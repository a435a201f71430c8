// SPDX-License-Identifier: GPL-2.0-only
/*
 * Many runs: every configuration (governor spec, kernel release) times N
 * seeds, spread over worker threads. Run k of every configuration uses seed
 * + k, so configurations are compared on the same random streams.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/batch.h"
#include "idlelab/release.h"

struct batch_ctx {
	struct il_sim_batch *b;
	pthread_mutex_t lock;
	int next;
	int failed;
	struct il_err err;
};

/*
 * The governor spec a configuration runs: the kernel's choice when none is
 * given, and the preset in force at the run's kernel release (the newest
 * one not newer) when the spec names no release; "NAME@REL" stays as given.
 */
static int resolve_spec(const char *spec, const struct il_machine_idle *m, char *out, size_t size,
			struct il_err *err)
{
	char name[40];
	const char *plus;

	if (m->release[0] && il_release_check(m->release, err))
		return -EINVAL;
	if (!spec[0])
		spec = m->governor[0] ? m->governor : "menu";
	plus = strchr(spec, '+');
	snprintf(name, sizeof(name), "%.*s", (int)(plus ? (size_t)(plus - spec) : strlen(spec)), spec);
	const struct il_gov_ops *ops = strchr(name, '@') ? NULL : il_gov_find(name);
	const struct il_gov_preset *pr = ops && m->release[0] ?
					 il_gov_preset_for_release(ops, m->release) : NULL;
	if (pr)
		snprintf(out, size, "%s@%s%s", name, pr->release, plus ? plus : "");
	else
		snprintf(out, size, "%s", spec);
	return 0;
}

/* Module parameters of the governor the platform's boot options set ("haltpoll.X=V"). */
static int platform_gov_params(const struct il_platform *p, struct il_gov *gov, struct il_err *err)
{
	size_t n = strlen(gov->ops->name);

	for (int i = 0; i < p->noptions; i++) {
		const struct il_plat_option *o = &p->options[i];
		if (strncmp(o->key, gov->ops->name, n) || o->key[n] != '.')
			continue;
		/* a parameter the spec sets itself ("+guest_halt_poll_ns=V") wins */
		char given[80];
		snprintf(given, sizeof(given), "+%s=", o->key + n + 1);
		if (strstr(gov->spec, given))
			continue;
		int r = il_gov_set_param(gov, o->key + n + 1, o->value, err);
		if (r < 0)
			return r;
	}
	return 0;
}

static int one_run(struct il_sim_batch *b, int c, int k, struct il_err *err)
{
	struct il_sim_params prm = b->params;
	struct il_gov *gov = NULL;
	struct il_sim *s = NULL;
	int r;

	prm.seed = b->params.seed + (uint64_t)k;
	gov = il_gov_new(b->gov_names[c], il_platform_ncpus(b->platform), err);
	if (!gov)
		return -EINVAL;
	r = platform_gov_params(b->platform, gov, err);
	if (r < 0) {
		il_gov_free(gov);
		return r;
	}
	for (int i = 0; i < b->ngov_params; i++) {
		r = il_gov_set_param(gov, b->gov_params[i].key, b->gov_params[i].value, err);
		if (r < 0) {
			il_gov_free(gov);
			return r;
		}
	}
	s = il_sim_new(b->platform, &b->machines[c], gov, b->wl, b->wl_cfg, &prm, err);
	if (!s) {
		il_gov_free(gov);
		return -EINVAL;
	}
	r = il_sim_run(s, err);
	if (r == 0)
		r = il_sim_result(s, &b->results[c * b->runs + k], err);
	il_sim_free(s);
	il_gov_free(gov);
	return r;
}

static void *worker(void *arg)
{
	struct batch_ctx *x = arg;
	struct il_sim_batch *b = x->b;
	int total = b->nconfigs * b->runs;

	for (;;) {
		pthread_mutex_lock(&x->lock);
		int i = x->failed ? total : x->next++;
		pthread_mutex_unlock(&x->lock);
		if (i >= total)
			break;
		struct il_err err;
		il_err_clear(&err);
		if (one_run(b, i / b->runs, i % b->runs, &err) < 0) {
			pthread_mutex_lock(&x->lock);
			if (!x->failed) {
				x->failed = 1;
				x->err = err;
			}
			pthread_mutex_unlock(&x->lock);
		} else if (b->run_done) {
			b->run_done(b->run_done_arg);
		}
	}
	return NULL;
}

/* "1.5 GiB", "20 MiB" */
static const char *bytes_text(uint64_t n, char *buf, size_t size)
{
	if (n >= (1ull << 30))
		snprintf(buf, size, "%.1f GiB", (double)n / (1ull << 30));
	else
		snprintf(buf, size, "%.0f MiB", (double)n / (1ull << 20) + 0.5);
	return buf;
}

int il_sim_batch_prepare(struct il_sim_batch *b, struct il_err *err)
{
	size_t gov_bytes = 0;

	if (b->prepared)
		return 0;
	if (b->nconfigs < 1 || b->nconfigs > 8)
		return il_err_set(err, EINVAL, "between 1 and 8 configurations, not %d", b->nconfigs);
	if (b->runs < 1)
		return il_err_set(err, EINVAL, "runs must be at least 1");
	b->machines = calloc((size_t)b->nconfigs, sizeof(*b->machines));
	if (!b->machines)
		return il_err_set(err, ENOMEM, "out of memory");
	for (int c = 0; c < b->nconfigs; c++) {
		struct il_sim_config *cf = &b->configs[c];
		int r = il_machine_idle_build(b->platform, cf->kernel[0] ? cf->kernel : NULL,
					      &b->machines[c], err);
		if (r < 0)
			return r;
		char spec[96];
		if (resolve_spec(cf->gov_spec, &b->machines[c], spec, sizeof(spec), err))
			return -EINVAL;
		struct il_gov *g = il_gov_new(spec, il_platform_ncpus(b->platform), err);
		if (!g)
			return -EINVAL;
		snprintf(b->gov_names[c], sizeof(b->gov_names[c]), "%s", g->spec);
		if (g->ops->cpu_data_size > gov_bytes)
			gov_bytes = g->ops->cpu_data_size;
		r = platform_gov_params(b->platform, g, err);
		for (int i = 0; r == 0 && i < b->ngov_params; i++)
			r = il_gov_set_param(g, b->gov_params[i].key, b->gov_params[i].value, err);
		il_gov_free(g);
		if (r < 0)
			return r;
	}
	int total = b->nconfigs * b->runs;
	int jobs = b->jobs < 1 ? 1 : b->jobs;
	if (jobs > total)
		jobs = total;
	if (jobs > 256)
		jobs = 256;
	/* memory: the live runs (and their governors) plus every run's result, kept for the output */
	uint64_t limit = b->mem_max ? b->mem_max : IL_SIM_MEM_MAX;
	uint64_t run = il_sim_run_bytes(b->platform, b->wl, gov_bytes);
	uint64_t results = (uint64_t)total * il_sim_result_bytes(b->platform);
	while (jobs > 1 && results + (uint64_t)jobs * run > limit)
		jobs--;
	b->jobs_run = jobs;
	b->mem_estimate = results + (uint64_t)jobs * run;
	if (b->mem_estimate > limit) {
		char need[32], max[32];
		return il_err_set(err, ENOMEM,
				  "%d configuration%s x %d runs on %d CPUs would take about %s, more than "
				  "the limit of %s (fewer runs or configurations, or a smaller platform)",
				  b->nconfigs, b->nconfigs > 1 ? "s" : "", b->runs,
				  il_platform_ncpus(b->platform), bytes_text(b->mem_estimate, need, sizeof(need)),
				  bytes_text(limit, max, sizeof(max)));
	}
	b->results = calloc((size_t)total, sizeof(*b->results));
	if (!b->results)
		return il_err_set(err, ENOMEM, "out of memory");
	b->prepared = true;
	return 0;
}

int il_sim_batch_run(struct il_sim_batch *b, struct il_err *err)
{
	int r = il_sim_batch_prepare(b, err);

	if (r < 0)
		return r;
	struct batch_ctx x = { .b = b, .next = 0, .failed = 0 };
	pthread_mutex_init(&x.lock, NULL);
	pthread_t th[256];
	int started = 0;
	for (int j = 1; j < b->jobs_run; j++) {
		if (pthread_create(&th[started], NULL, worker, &x) != 0)
			break;
		started++;
	}
	worker(&x);
	for (int j = 0; j < started; j++)
		pthread_join(th[j], NULL);
	pthread_mutex_destroy(&x.lock);
	if (x.failed) {
		*err = x.err;
		return -EINVAL;
	}
	return 0;
}

void il_sim_batch_free(struct il_sim_batch *b)
{
	if (b->results)
		for (int i = 0; i < b->nconfigs * b->runs; i++)
			il_sim_result_free(&b->results[i]);
	free(b->results);
	free(b->machines);
	b->results = NULL;
	b->machines = NULL;
	b->prepared = false;
}
