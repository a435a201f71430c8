// SPDX-License-Identifier: GPL-2.0-only
/*
 * A batch of simulation runs printed (include/idlelab/sim_report.h): text
 * tables in the style of patch mails, or CSV of the metrics. JSON is
 * results_write.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_values.h"
#include "idlelab/report.h"
#include "idlelab/sim_report.h"

static void metric_label(const struct il_metric *m, char *buf, size_t size)
{
	if (m->row[0])
		snprintf(buf, size, "%s/%s", m->row, m->col);
	else
		snprintf(buf, size, "%s", m->col);
}

static int decimals_for(double v)
{
	double a = fabs(v);
	if (a == floor(a) && a < 1e15)
		return 0;
	if (a >= 1000)
		return 1;
	if (a >= 1)
		return 2;
	return 4;
}

static void print_cpu_table(const struct il_sim_batch *b, int c, enum il_format format, FILE *out)
{
	const struct il_sim_result *r = &b->results[c * b->runs];
	char title[200];

	snprintf(title, sizeof(title), "%s: per CPU and state, run 1 (seed %llu)%s", b->gov_names[c],
		 (unsigned long long)b->params.seed,
		 r->cpuidle ? "" : " [no cpuidle: the default idle routine's counts]");
	struct il_table *t = il_table_new(title);
	static const char *const cols[] = { "cpu", "state", "usage", "time_us", "above", "below",
					    "rejected", "above%", "below%", "idle_ms", "busy_ms" };
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		const struct il_sim_cpu_result *cr = &r->cpu[cpu];
		for (int k = 0; k < r->nstates; k++) {
			const struct il_state_usage *u = &cr->usage[k];
			il_table_row(t);
			il_table_i64(t, cpu);
			il_table_str(t, r->states[k].name);
			il_table_u64(t, u->usage);
			il_table_u64(t, (unsigned long long)(u->time_ns / 1000));
			il_table_u64(t, u->above);
			il_table_u64(t, u->below);
			il_table_u64(t, u->rejected);
			il_table_dbl(t, u->usage ? 100.0 * (double)u->above / (double)u->usage : 0, 2);
			il_table_dbl(t, u->usage ? 100.0 * (double)u->below / (double)u->usage : 0, 2);
			if (k == 0) {
				il_table_dbl(t, (double)cr->idle_ns / 1e6, 3);
				il_table_dbl(t, (double)cr->busy_ns / 1e6, 3);
			} else {
				il_table_str(t, "");
				il_table_str(t, "");
			}
		}
	}
	il_table_print(t, format, out);
	il_table_free(t);
}

static void print_grid(const struct il_sim_batch *b, int c, enum il_format format, FILE *out)
{
	const struct il_metrics *ms = &b->results[c * b->runs].metrics;
	int first = -1, ncols = 0;

	for (int i = 0; i < ms->n; i++)
		if (ms->m[i].grid) {
			first = i;
			break;
		}
	if (first < 0)
		return;
	for (int i = first; i < ms->n && ms->m[i].grid && !strcmp(ms->m[i].row, ms->m[first].row); i++)
		ncols++;
	char title[200];
	snprintf(title, sizeof(title), "%s: %s (AMean of %d run%s)", b->gov_names[c], b->wl->name,
		 b->runs, b->runs > 1 ? "s" : "");
	struct il_table *t = il_table_new(title);
	il_table_col(t, "row");
	for (int j = 0; j < ncols; j++)
		il_table_col(t, ms->m[first + j].col);
	for (int i = first; i + ncols <= ms->n && ms->m[i].grid; i += ncols) {
		il_table_row(t);
		il_table_str(t, ms->m[i].row);
		for (int j = 0; j < ncols; j++) {
			int nv;
			double *v = il_batch_metric_values(b, c, i + j, &nv);
			struct il_stats st;
			il_batch_stats_valid(v, b->runs, &st);
			il_table_dbl(t, st.amean, decimals_for(st.amean) > 2 ? 2 : decimals_for(st.amean));
			free(v);
		}
	}
	il_table_print(t, format, out);
	il_table_free(t);
}

static void print_stats_table(const struct il_sim_batch *b, int c, enum il_format format, FILE *out,
			      bool with_config)
{
	const struct il_metrics *ms = &b->results[c * b->runs].metrics;
	char title[200];

	snprintf(title, sizeof(title), "%s: metrics over %d run%s", b->gov_names[c], b->runs,
		 b->runs > 1 ? "s" : "");
	struct il_table *t = il_table_new(title);
	if (with_config)
		il_table_col(t, "config");
	il_table_col(t, "metric");
	il_table_col(t, "unit");
	if (b->runs > 1) {
		static const char *const cols[] = { "Min", "Max", "Median", "AMean", "Hmean",
						    "Stddev", "CoefVar%" };
		for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
			il_table_col(t, cols[i]);
	} else {
		il_table_col(t, "value");
	}
	for (int i = 0; i < ms->n; i++) {
		const struct il_metric *m = &ms->m[i];
		char label[100];
		if (m->grid && format == IL_FORMAT_TABLE)
			continue;
		metric_label(m, label, sizeof(label));
		int nv;
		double *v = il_batch_metric_values(b, c, i, &nv);
		struct il_stats st;
		il_batch_stats_valid(v, b->runs, &st);
		free(v);
		il_table_row(t);
		if (with_config)
			il_table_str(t, b->gov_names[c]);
		il_table_str(t, label);
		il_table_str(t, m->unit);
		int d = decimals_for(st.amean);
		if (b->runs > 1) {
			il_table_dbl(t, st.min, d);
			il_table_dbl(t, st.max, d);
			il_table_dbl(t, st.median, d);
			il_table_dbl(t, st.amean, d ? d : 1);
			if (m->throughput)
				il_table_dbl(t, st.hmean, d ? d : 1);
			else
				il_table_str(t, "");
			il_table_dbl(t, st.stddev, 2);
			il_table_dbl(t, st.coefvar, 2);
		} else {
			il_table_dbl(t, st.amean, d);
		}
	}
	il_table_print(t, format, out);
	il_table_free(t);
}

int il_sim_batch_print(const struct il_sim_batch *b, enum il_format format, const char *wl_opts_text,
		       FILE *out)
{
	if (format == IL_FORMAT_JSON)
		return il_results_write(b, wl_opts_text, out);
	if (format == IL_FORMAT_CSV) {
		for (int c = 0; c < b->nconfigs; c++)
			print_stats_table(b, c, format, out, true);
		return ferror(out) ? -EIO : 0;
	}
	const struct il_machine_idle *m0 = &b->machines[0];
	char pname[256], opts[1024], rel[64], drv[96];

	fprintf(out, "idlelab sim: platform %s (%d CPUs, HZ=%u), workload %s%s%s, %d run%s of %.3f s, seed %llu\n",
		il_text_esc(b->platform->name, pname, sizeof(pname)), il_platform_ncpus(b->platform),
		b->platform->hz, b->wl->name, wl_opts_text && *wl_opts_text ? " " : "",
		il_text_esc(wl_opts_text ? wl_opts_text : "", opts, sizeof(opts)), b->runs,
		b->runs > 1 ? "s" : "", (double)b->params.duration_ns / 1e9,
		(unsigned long long)b->params.seed);
	for (int c = 0; c < b->nconfigs; c++) {
		const struct il_machine_idle *m = &b->machines[c];
		if (c == 0 || strcmp(m->release, m0->release))
			fprintf(out, "kernel %s: %s%s%s\n", il_text_esc(m->release, rel, sizeof(rel)),
				m->cpuidle ? "cpuidle driver " : "no cpuidle driver, default idle ",
				il_text_esc(m->cpuidle ? m->drv.name : il_idle_routine_name(m->routine),
					    drv, sizeof(drv)),
				m->force_poll ? " (idle=poll)" : "");
		if (b->results[c * b->runs].duration_ns != b->params.duration_ns) {
			il_text_fputs(b->gov_names[c], out);
			fprintf(out, ": the workload finished at %.6f s (run 1)\n",
				(double)b->results[c * b->runs].duration_ns / 1e9);
		}
		fputc('\n', out);
		if (b->per_cpu_table || il_platform_ncpus(b->platform) <= 16) {
			print_cpu_table(b, c, format, out);
			fputc('\n', out);
		}
		print_grid(b, c, format, out);
		fputc('\n', out);
		print_stats_table(b, c, format, out, false);
	}
	if (!b->per_cpu_table && il_platform_ncpus(b->platform) > 16)
		fprintf(out, "\n(per-CPU counters left out for %d CPUs: --per-cpu prints them)",
			il_platform_ncpus(b->platform));
	fprintf(out, "\nDistributions: log-linear histograms, relative error <= %.2f %%.\n",
		100 * IL_HIST_REL_ERROR);
	return ferror(out) ? -EIO : 0;
}
