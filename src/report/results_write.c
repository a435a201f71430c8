// SPDX-License-Identifier: GPL-2.0-only
/*
 * The results file of a batch of simulation runs ('idlelab sim --format
 * json'): every run's value of every metric with the summaries over runs,
 * run 1's per-CPU counters, the engine settings. Read back by results.c;
 * the names of both are in include/idlelab/results_keys.h.
 */
#include <stdlib.h>

#include "batch_values.h"
#include "idlelab/json.h"
#include "idlelab/results_keys.h"
#include "idlelab/sim_report.h"

static void write_metric(struct il_json *w, const struct il_sim_batch *b, int c, int i)
{
	const struct il_metric *mt = &b->results[c * b->runs].metrics.m[i];
	struct il_stats st;
	int nv;
	double *v = il_batch_metric_values(b, c, i, &nv);

	il_batch_stats_valid(v, b->runs, &st);
	il_json_object(w, IL_JSON_INLINE);
	il_json_kstring(w, IL_RK_ROW, mt->row);
	il_json_kstring(w, IL_RK_COL, mt->col);
	il_json_kstring(w, IL_RK_UNIT, mt->unit);
	il_json_kstring(w, IL_RK_BETTER, il_results_better_name(mt->better));
	il_json_kbool(w, IL_RK_THROUGHPUT, mt->throughput);
	il_json_key(w, IL_RK_VALUES);
	il_json_array(w, IL_JSON_INLINE);
	for (int k = 0; k < b->runs; k++)
		il_json_double(w, v[k]);
	il_json_end(w);
	il_json_kdouble(w, IL_RK_MIN, st.min);
	il_json_kdouble(w, IL_RK_MAX, st.max);
	il_json_kdouble(w, IL_RK_MEDIAN, st.median);
	il_json_kdouble(w, IL_RK_AMEAN, st.amean);
	il_json_kdouble(w, IL_RK_HMEAN, st.hmean);
	il_json_kdouble(w, IL_RK_STDDEV, st.stddev);
	il_json_kdouble(w, IL_RK_COEFVAR, st.coefvar);
	il_json_end(w);
	free(v);
}

static void write_cpus(struct il_json *w, const struct il_sim_result *r0)
{
	il_json_array(w, IL_JSON_BLOCK);
	for (int cpu = 0; cpu < r0->ncpus; cpu++) {
		const struct il_sim_cpu_result *cr = &r0->cpu[cpu];
		il_json_object(w, IL_JSON_INLINE);
		il_json_kint(w, IL_RK_CPU, cpu);
		il_json_kint(w, IL_RK_IDLE_NS, (long long)cr->idle_ns);
		il_json_kint(w, IL_RK_BUSY_NS, (long long)cr->busy_ns);
		il_json_kuint(w, IL_RK_ABORTED, (unsigned long long)cr->aborted);
		/* no power model: no value, as CSV and the table leave it out (not 0 J) */
		if (r0->energy_known)
			il_json_kdouble(w, IL_RK_ENERGY_J, cr->energy_j);
		else
			il_json_knull(w, IL_RK_ENERGY_J);
		il_json_key(w, IL_RK_STATES);
		il_json_array(w, IL_JSON_INLINE);
		for (int k = 0; k < r0->nstates; k++) {
			const struct il_state_usage *u = &cr->usage[k];
			il_json_object(w, IL_JSON_INLINE);
			il_json_kuint(w, IL_RK_USAGE, u->usage);
			il_json_kuint(w, IL_RK_TIME_NS, (unsigned long long)u->time_ns);
			il_json_kuint(w, IL_RK_ABOVE, u->above);
			il_json_kuint(w, IL_RK_BELOW, u->below);
			il_json_kuint(w, IL_RK_REJECTED, u->rejected);
			il_json_end(w);
		}
		il_json_end(w);
		il_json_end(w);
	}
	il_json_end(w);
}

static void write_config(struct il_json *w, const struct il_sim_batch *b, int c)
{
	const struct il_machine_idle *m = &b->machines[c];
	const struct il_sim_result *r0 = &b->results[c * b->runs];

	il_json_object(w, IL_JSON_BLOCK);
	il_json_kstring(w, IL_RK_GOVERNOR, b->labels[c]);
	il_json_kstring(w, IL_RK_KERNEL, m->release);
	il_json_kstring(w, IL_RK_DRIVER, m->cpuidle ? m->drv.name : "none");
	il_json_kbool(w, IL_RK_CPUIDLE, m->cpuidle);
	il_json_key(w, IL_RK_STATES);
	il_json_array(w, IL_JSON_INLINE);
	for (int k = 0; k < r0->nstates; k++)
		il_json_string(w, r0->states[k].name);
	il_json_end(w);
	il_json_key(w, IL_RK_RUN_DURATION_NS);
	il_json_array(w, IL_JSON_INLINE);
	for (int k = 0; k < b->runs; k++)
		il_json_int(w, (long long)b->results[c * b->runs + k].duration_ns);
	il_json_end(w);
	il_json_key(w, IL_RK_METRICS);
	il_json_array(w, IL_JSON_BLOCK);
	for (int i = 0; i < r0->metrics.n; i++)
		write_metric(w, b, c, i);
	il_json_end(w);
	il_json_key(w, IL_RK_CPUS_RUN1);
	write_cpus(w, r0);
	il_json_end(w);
}

int il_results_write(const struct il_sim_batch *b, const char *wl_opts_text, FILE *out)
{
	const struct il_sim_params *sp = &b->params;
	struct il_json w;

	il_json_init(&w, out);
	il_json_object(&w, IL_JSON_BLOCK);
	il_json_kstring(&w, IL_RK_KIND, IL_RESULTS_KIND);
	il_json_kint(&w, IL_RK_FORMAT, IL_RESULTS_FORMAT);
	il_json_kstring(&w, IL_RK_PLATFORM, b->platform->name);
	il_json_kint(&w, IL_RK_NCPUS, il_platform_ncpus(b->platform));
	il_json_kstring(&w, IL_RK_WORKLOAD, b->wl->name);
	il_json_kstring(&w, IL_RK_WORKLOAD_OPTIONS, wl_opts_text ? wl_opts_text : "");
	il_json_kint(&w, IL_RK_DURATION_NS, (long long)sp->duration_ns);
	il_json_kint(&w, IL_RK_WARMUP_NS, (long long)sp->warmup_ns);
	il_json_kint(&w, IL_RK_RUNS, b->runs);
	il_json_kuint(&w, IL_RK_SEED, (unsigned long long)sp->seed);
	/* the engine's settings as the runs used them */
	il_json_key(&w, IL_RK_ENGINE);
	il_json_object(&w, IL_JSON_INLINE);
	il_json_kint(&w, IL_RK_ENTRY_NS, (long long)sp->entry_ns);
	il_json_kint(&w, IL_RK_SWITCH_NS, (long long)il_sim_switch_ns(sp, b->platform));
	/* the platform's path in cycles, when it times the switches instead */
	if (sp->switch_ns < 0 && b->platform->switch_cycles.kind != IL_DIST_NONE) {
		char d[IL_DIST_STR_LEN];
		il_json_kstring(&w, IL_RK_SWITCH_CYCLES,
				il_dist_str(&b->platform->switch_cycles, d, sizeof(d)));
	} else {
		il_json_knull(&w, IL_RK_SWITCH_CYCLES);
	}
	il_json_kint(&w, IL_RK_TURBO_INTERVAL_NS, (long long)sp->turbo_interval_ns);
	il_json_kint(&w, IL_RK_NO_TIMER_NS, (long long)sp->no_timer_ns);
	il_json_kbool(&w, IL_RK_NOHZ, sp->nohz);
	il_json_end(&w);
	il_json_kdouble(&w, IL_RK_HIST_REL_ERROR, IL_HIST_REL_ERROR);
	il_json_key(&w, IL_RK_CONFIGS);
	il_json_array(&w, IL_JSON_BLOCK);
	for (int c = 0; c < b->nconfigs; c++)
		write_config(&w, b, c);
	il_json_end(&w);
	il_json_end(&w);
	return il_json_finish(&w);
}
