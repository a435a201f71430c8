// SPDX-License-Identifier: GPL-2.0-only
/*
 * Many runs: every configuration (governor spec, kernel release) times N
 * seeds, spread over worker threads. Run k of every configuration uses seed
 * + k, so configurations are compared on the same random streams.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "idlelab/batch.h"
#include "idlelab/release.h"
#include "util.h"

struct batch_ctx {
	struct il_sim_batch *const *bs;
	const struct il_sim_task *tasks;
	int ntasks;
	pthread_mutex_t lock;
	int next;
	int failed;
	int failed_batch;
	struct il_err err;
};

static const struct il_sim_dealer *dealer;

void il_sim_set_dealer(const struct il_sim_dealer *d)
{
	dealer = d;
}

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

/* Does the spec set parameter name itself ("+guest_halt_poll_ns=V")? Then that value wins. */
static bool spec_sets(const struct il_gov *gov, const char *name)
{
	char given[80];

	snprintf(given, sizeof(given), "+%s=", name);
	return strstr(gov->spec, given) != NULL;
}

/* Module parameters of the governor the platform's boot options set ("haltpoll.X=V"). */
static int platform_gov_params(const struct il_platform *p, struct il_gov *gov, struct il_err *err)
{
	size_t n = strlen(gov->ops->name);

	for (int i = 0; i < p->noptions; i++) {
		const struct il_plat_option *o = &p->options[i];
		if (strncmp(o->key, gov->ops->name, n) || o->key[n] != '.')
			continue;
		if (spec_sets(gov, o->key + n + 1))
			continue;
		int r = il_gov_set_param(gov, o->key + n + 1, o->value, err);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * The governor's parameters: the platform's boot options, then --gov-param,
 * neither over one the spec sets itself.
 */
static int gov_params(const struct il_sim_batch *b, struct il_gov *gov, struct il_err *err)
{
	int r = platform_gov_params(b->platform, gov, err);

	for (int i = 0; r == 0 && i < b->ngov_params; i++)
		if (!spec_sets(gov, b->gov_params[i].key))
			r = il_gov_set_param(gov, b->gov_params[i].key, b->gov_params[i].value, err);
	return r;
}

static int one_run(struct il_sim_batch *b, int c, int k, struct il_err *err)
{
	struct il_sim_params prm = b->params;
	struct il_gov *gov = NULL;
	struct il_sim *s = NULL;
	int r;

	prm.seed = b->params.seed + (uint64_t)k;
	prm.cpufreq = b->cpufreq[c];
	gov = il_gov_new(b->gov_names[c], il_platform_ncpus(b->platform), err);
	if (!gov)
		return -EINVAL;
	r = gov_params(b, gov, err);
	if (r < 0) {
		il_gov_free(gov);
		return r;
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

int il_sim_batch_run_one(struct il_sim_batch *b, int c, int k, struct il_err *err)
{
	return one_run(b, c, k, err);
}

double il_sim_task_cost(const struct il_sim_batch *b)
{
	const struct il_platform *p = b->platform;
	int64_t d = b->params.duration_ns > 0 ? b->params.duration_ns : 0;
	double ncpus = il_platform_ncpus(p), secs = (double)d * 1e-9;
	/* without the workload's estimate: a wake-up per CPU every 100 µs */
	double periods = b->wl && b->wl->est_idle_periods
				 ? b->wl->est_idle_periods(b->wl_cfg, p, d)
				 : ncpus * secs * 1e4;

	if (!(periods >= 0) || isinf(periods)) /* absurd options (an infinite mean) */
		periods = ncpus * secs * 1e4;

	/* a tick costs about a quarter of an idle period; half the CPUs busy, ticking */
	periods += ncpus / 2 * p->hz * secs / 4 + p->irq_rate * ncpus * secs;
	return periods / IL_SIM_EST_PERIODS_PER_S;
}

struct task_order {
	struct il_sim_task t;
	int seq;
};

static int task_cmp(const void *a, const void *b)
{
	const struct task_order *x = a, *y = b;

	if (x->t.cost != y->t.cost)
		return x->t.cost > y->t.cost ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct il_sim_task *il_sim_tasks(struct il_sim_batch *const *bs, int nb, int *n)
{
	int total = 0;

	*n = 0;
	for (int i = 0; i < nb; i++)
		total += bs[i]->nconfigs * bs[i]->runs;
	if (!total)
		return NULL;
	struct task_order *o = calloc((size_t)total, sizeof(*o));
	if (!o) {
		*n = -1;
		return NULL;
	}
	int m = 0;
	for (int i = 0; i < nb; i++) {
		const struct il_sim_batch *b = bs[i];
		double cost = il_sim_task_cost(b);
		for (int c = 0; c < b->nconfigs; c++)
			for (int k = 0; k < b->runs; k++) {
				if (b->contained[c] || (b->have && b->have[c * b->runs + k]))
					continue;
				o[m].t = (struct il_sim_task){ i, c, k, cost };
				o[m].seq = m;
				m++;
			}
	}
	qsort(o, (size_t)m, sizeof(*o), task_cmp);
	struct il_sim_task *t = calloc((size_t)(m ? m : 1), sizeof(*t));
	if (!t) {
		free(o);
		*n = -1;
		return NULL;
	}
	for (int i = 0; i < m; i++)
		t[i] = o[i].t;
	free(o);
	*n = m;
	return t;
}

static void *worker(void *arg)
{
	struct batch_ctx *x = arg;

	for (;;) {
		pthread_mutex_lock(&x->lock);
		int i = x->failed ? x->ntasks : x->next++;
		if (i < x->ntasks && x->bs[x->tasks[i].batch]->run_dealt) {
			struct il_sim_batch *d = x->bs[x->tasks[i].batch];
			d->run_dealt(d->result_done_arg, d, x->tasks[i].config, x->tasks[i].run, -1);
		}
		pthread_mutex_unlock(&x->lock);
		if (i >= x->ntasks)
			break;
		const struct il_sim_task *t = &x->tasks[i];
		struct il_sim_batch *b = x->bs[t->batch];
		struct il_err err;
		il_err_clear(&err);
		if (one_run(b, t->config, t->run, &err) < 0) {
			pthread_mutex_lock(&x->lock);
			if (!x->failed) {
				x->failed = 1;
				x->failed_batch = t->batch;
				x->err = err;
			}
			pthread_mutex_unlock(&x->lock);
			continue;
		}
		if (b->result_done) {
			pthread_mutex_lock(&x->lock);
			b->result_done(b->result_done_arg, b, t->config, t->run);
			pthread_mutex_unlock(&x->lock);
		}
		if (b->run_done)
			b->run_done(b->run_done_arg, il_sim_task_cost(b));
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
		/* at: room for "@REL", so that a name too long is refused by its loader */
		char spec[96], at[sizeof(spec) + 32];
		if (resolve_spec(cf->gov_spec, &b->machines[c], spec, sizeof(spec), err))
			return -EINVAL;
		/* a kernel file of the release the run follows: built for it */
		const char *built = il_spec_file_at(spec, cf->kernel, at, sizeof(at));
		if (!built)
			return il_err_set(err, ENAMETOOLONG, "governor '%s@%s': name too long",
					  spec, cf->kernel);
		struct il_gov *g = il_gov_new(built, il_platform_ncpus(b->platform), err);
		if (!g)
			return -EINVAL;
		snprintf(b->gov_names[c], sizeof(b->gov_names[c]), "%s", g->spec);
		snprintf(b->labels[c], sizeof(b->labels[c]), "%s", g->spec);
		memset(&b->cpufreq[c], 0, sizeof(b->cpufreq[c]));
		if (cf->cpufreq[0]) {
			if (il_cpufreq_parse(cf->cpufreq, &b->cpufreq[c], err) < 0) {
				il_gov_free(g);
				return -EINVAL;
			}
			char nm[176];
			il_cpufreq_name(&b->cpufreq[c], nm, sizeof(nm));
			if (snprintf(b->labels[c], sizeof(b->labels[c]), "%s cpufreq=%s", g->spec,
				     nm) >= (int)sizeof(b->labels[c])) {
				il_gov_free(g);
				return il_err_set(err, EINVAL, "--cpufreq %s: too long a name",
						  cf->cpufreq);
			}
		}
		b->contained[c] = il_gov_is_loaded(g);
		if (g->ops->cpu_data_size > gov_bytes)
			gov_bytes = g->ops->cpu_data_size;
		r = gov_params(b, g, err);
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

/* ------------------------------------------------ contained runs */

/* A child's pipe at EOF: reap it and take its result or say why it failed. */
static void child_done(struct il_sim_batch *b, struct il_child *ch)
{
	enum il_child_end end = il_child_reap(ch);
	struct il_sim_result *res = &b->results[ch->config * b->runs + ch->run];
	char *f = b->failed[ch->config];
	const char *bytes;
	size_t len;
	char name[96];

	snprintf(name, sizeof(name), "%s", b->gov_names[ch->config]);
	if (end == IL_CHILD_RESULT && (bytes = il_child_result(ch, &len)) &&
	    il_sim_result_unpack(bytes, len, res) == 0) {
		if (b->result_done)
			b->result_done(b->result_done_arg, b, ch->config, ch->run);
		if (b->run_done)
			b->run_done(b->run_done_arg, il_sim_task_cost(b));
	} else if (!f[0]) {
		char why[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 32];
		uint64_t seed = b->params.seed + (uint64_t)ch->run;
		il_child_why(ch, name, why, sizeof(why));
		if (end == IL_CHILD_SIGNAL)
			snprintf(f, sizeof(b->failed[0]), "%.200s (run %d, seed %llu)", why,
				 ch->run + 1, (unsigned long long)seed);
		else if (end == IL_CHILD_ERROR)
			snprintf(f, sizeof(b->failed[0]), "%.250s", why);
		else
			snprintf(f, sizeof(b->failed[0]), "governor %.96s: run %d's process %.64s",
				 name, ch->run + 1, why);
	}
}

/*
 * The runs of the contained configurations, each in a child process,
 * jobs_run at a time. Called with no other thread of the batch running, so
 * that the children are copies of a quiet process.
 */
static int run_contained(struct il_sim_batch *b, struct il_err *err)
{
	struct il_child ch[256];
	int nslots = b->jobs_run < 1 ? 1 : b->jobs_run, total = b->nconfigs * b->runs;
	int next = 0, live = 0, r = 0;

	memset(ch, 0, sizeof(ch));
	for (int i = 0; i < nslots; i++) {
		ch[i].run_one = one_run;
		if (!(ch[i].w = il_gov_watch_map())) {
			r = il_err_set(err, ENOMEM, "cannot map shared memory for a governor's watch");
			goto out;
		}
	}
	for (;;) {
		/* fill free slots with runs of configurations that have not failed */
		for (int i = 0; i < nslots && r == 0; i++) {
			if (ch[i].pid)
				continue;
			while (next < total && (!b->contained[next / b->runs] ||
						b->failed[next / b->runs][0] || (b->have && b->have[next])))
				next++;
			if (next == total)
				break;
			r = il_child_start(&ch[i], b, 0, next / b->runs, next % b->runs, err);
			if (r == 0) {
				next++;
				live++;
			}
		}
		if (!live)
			break;
		struct pollfd pf[256];
		int map[256], n = 0;
		for (int i = 0; i < nslots; i++)
			if (ch[i].pid) {
				pf[n] = (struct pollfd){ .fd = ch[i].fd, .events = POLLIN };
				map[n++] = i;
			}
		if (poll(pf, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = il_err_set(err, errno, "poll: %s", strerror(errno));
			break;
		}
		for (int j = 0; j < n; j++) {
			if (!pf[j].revents)
				continue;
			struct il_child *c = &ch[map[j]];
			int e = il_child_read(c);
			if (e < 0) {
				kill(c->pid, SIGKILL);
				r = il_err_set(err, ENOMEM, "out of memory");
				e = 1;
			}
			if (e) {
				child_done(b, c);
				live--;
			}
		}
		if (r)
			next = total;
	}
out:
	for (int i = 0; i < nslots; i++) {
		if (ch[i].pid) {
			kill(ch[i].pid, SIGKILL);
			child_done(b, &ch[i]);
		}
		il_child_free(&ch[i]);
		il_gov_watch_unmap(ch[i].w);
	}
	return r;
}

int il_sim_batches_run(struct il_sim_batch **bs, int nb, int *failed_batch, struct il_err *err)
{
	int r, ntasks, jobs = 1;

	if (failed_batch)
		*failed_batch = 0;
	for (int i = 0; i < nb; i++) {
		if ((r = il_sim_batch_prepare(bs[i], err)) < 0) {
			if (failed_batch)
				*failed_batch = i;
			return r;
		}
		if (bs[i]->jobs_run > jobs)
			jobs = bs[i]->jobs_run;
	}
	struct il_sim_task *tasks = il_sim_tasks(bs, nb, &ntasks);
	if (ntasks < 0)
		return il_err_set(err, ENOMEM, "out of memory");
	if (!ntasks) {
		free(tasks);
		tasks = NULL;
	}
	if (dealer && ntasks) {
		char (*fail)[256] = calloc((size_t)ntasks, sizeof(*fail));
		if (!fail) {
			free(tasks);
			return il_err_set(err, ENOMEM, "out of memory");
		}
		r = dealer->run(dealer->ctx, bs, nb, tasks, ntasks, fail, err);
		/* a failed run fails its configuration; the first one's message is kept */
		for (int i = 0; r == -ECHILD && i < ntasks; i++) {
			struct il_sim_batch *b = bs[tasks[i].batch];
			if (fail[i][0] && !b->failed[tasks[i].config][0])
				snprintf(b->failed[tasks[i].config], sizeof(b->failed[0]), "%s", fail[i]);
		}
		free(fail);
		free(tasks);
		if (r < 0 && r != -ECHILD)
			return r;
	} else if (ntasks) {
		struct batch_ctx x = { .bs = bs, .tasks = tasks, .ntasks = ntasks };
		pthread_mutex_init(&x.lock, NULL);
		pthread_t th[256];
		int started = 0;
		if (jobs > ntasks)
			jobs = ntasks;
		for (int j = 1; j < jobs; j++) {
			if (pthread_create(&th[started], NULL, worker, &x) != 0)
				break;
			started++;
		}
		worker(&x);
		for (int j = 0; j < started; j++)
			pthread_join(th[j], NULL);
		pthread_mutex_destroy(&x.lock);
		free(tasks);
		if (x.failed) {
			*err = x.err;
			if (failed_batch)
				*failed_batch = x.failed_batch;
			return -EINVAL;
		}
	}
	for (int i = 0; i < nb; i++) {
		if ((r = run_contained(bs[i], err)) < 0) {
			if (failed_batch)
				*failed_batch = i;
			return r;
		}
	}
	for (int i = 0; i < nb; i++)
		for (int c = 0; c < bs[i]->nconfigs; c++)
			if (bs[i]->failed[c][0]) {
				if (failed_batch)
					*failed_batch = i;
				return il_err_set(err, ECHILD, "%s", bs[i]->failed[c]);
			}
	return 0;
}

int il_sim_batch_run(struct il_sim_batch *b, struct il_err *err)
{
	return il_sim_batches_run(&b, 1, NULL, err);
}

int il_sim_batch_drop_failed(struct il_sim_batch *b)
{
	int n = 0;

	for (int c = 0; c < b->nconfigs; c++) {
		if (b->failed[c][0]) {
			for (int k = 0; k < b->runs; k++)
				il_sim_result_free(&b->results[c * b->runs + k]);
			continue;
		}
		if (n != c) {
			for (int k = 0; k < b->runs; k++) {
				b->results[n * b->runs + k] = b->results[c * b->runs + k];
				if (b->have)
					b->have[n * b->runs + k] = b->have[c * b->runs + k];
			}
			b->machines[n] = b->machines[c];
			b->configs[n] = b->configs[c];
			memcpy(b->gov_names[n], b->gov_names[c], sizeof(b->gov_names[n]));
			memcpy(b->labels[n], b->labels[c], sizeof(b->labels[n]));
			b->cpufreq[n] = b->cpufreq[c];
			b->contained[n] = b->contained[c];
		}
		n++;
	}
	for (int i = n * b->runs; i < b->nconfigs * b->runs; i++)
		memset(&b->results[i], 0, sizeof(b->results[i]));
	b->nconfigs = n;
	memset(b->failed, 0, sizeof(b->failed));
	return n;
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
