// SPDX-License-Identifier: GPL-2.0-only
/*
 * A batch of simulation runs printed (include/idlelab/sim_report.h): text
 * tables in the style of patch mails, or tidy CSV. JSON is results_write.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_values.h"
#include "idlelab/report.h"
#include "idlelab/sim_report.h"
#include "report_internal.h"

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

/* ---------------------------------------------------------------- text */

static void print_cpu_table(const struct il_sim_batch *b, int c, FILE *out)
{
	const struct il_sim_result *r = &b->results[c * b->runs];
	char title[320];

	snprintf(title, sizeof(title), "%s: per CPU and state, run 1 (seed %llu)%s", b->labels[c],
		 (unsigned long long)b->params.seed,
		 r->cpuidle ? "" : " [no cpuidle: the default idle routine's counts]");
	struct il_table *t = il_table_new(title);
	il_table_keys(t, 2);
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
	il_table_print(t, IL_FORMAT_TABLE, out);
	il_table_free(t);
}

static void print_grid(const struct il_sim_batch *b, int c, FILE *out)
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
	char title[320];
	snprintf(title, sizeof(title), "%s: %s (AMean of %d run%s)", b->labels[c], b->wl->name,
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
	il_table_print(t, IL_FORMAT_TABLE, out);
	il_table_free(t);
}

static void print_stats_table(const struct il_sim_batch *b, int c, FILE *out)
{
	const struct il_metrics *ms = &b->results[c * b->runs].metrics;
	char title[320];

	snprintf(title, sizeof(title), "%s: metrics over %d run%s", b->labels[c], b->runs,
		 b->runs > 1 ? "s" : "");
	struct il_table *t = il_table_new(title);
	il_table_keys(t, 2);
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
		if (m->grid)
			continue;
		metric_label(m, label, sizeof(label));
		int nv;
		double *v = il_batch_metric_values(b, c, i, &nv);
		struct il_stats st;
		il_batch_stats_valid(v, b->runs, &st);
		free(v);
		il_table_row(t);
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
	il_table_print(t, IL_FORMAT_TABLE, out);
	il_table_free(t);
}

static void print_text(const struct il_sim_batch *b, const char *wl_opts_text, FILE *out)
{
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
			il_text_fputs(b->labels[c], out);
			fprintf(out, ": the workload finished at %.6f s (run 1)\n",
				(double)b->results[c * b->runs].duration_ns / 1e9);
		}
		fputc('\n', out);
		if (b->per_cpu_table || il_platform_ncpus(b->platform) <= 16) {
			print_cpu_table(b, c, out);
			fputc('\n', out);
		}
		print_grid(b, c, out);
		fputc('\n', out);
		print_stats_table(b, c, out);
	}
	if (!b->per_cpu_table && il_platform_ncpus(b->platform) > 16)
		fprintf(out, "\n(per-CPU counters left out for %d CPUs: --per-cpu prints them)",
			il_platform_ncpus(b->platform));
	fprintf(out, "\nDistributions: log-linear histograms, relative error <= %.2f %%.\n",
		100 * IL_HIST_REL_ERROR);
}

/* ----------------------------------------------------------------- CSV */

static const char *const csv_cols[] = {
	"config", "platform", "kernel", "governor", "workload", "run", "group",
	"interval_us", "state", "cpu", "metric", "unit", "value",
};

/* The dimensions of one row of the tidy CSV besides its configuration and run. */
struct csv_dims {
	const char *group;
	const char *interval_us;  /* a number, or "" */
	const char *state;
	int cpu;                  /* -1: all CPUs */
};

/*
 * The shortest decimal text that reads back as v (whole numbers without an
 * exponent); "" for NaN or infinity.
 */
static void shortest(double v, char *buf, size_t size)
{
	if (!isfinite(v)) {
		buf[0] = '\0';
		return;
	}
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(buf, size, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static void csv_row(FILE *out, const struct il_sim_batch *b, int c, int k,
		    const struct csv_dims *d, const char *metric, const char *unit, double value)
{
	char num[40];

	fprintf(out, "%d,", c + 1);
	il_csv_field(b->platform->name, out);
	fputc(',', out);
	il_csv_field(b->machines[c].release, out);
	fputc(',', out);
	il_csv_field(b->labels[c], out);
	fputc(',', out);
	il_csv_field(b->wl->name, out);
	fprintf(out, ",%d,", k + 1);
	il_csv_field(d->group, out);
	fputc(',', out);
	il_csv_field(d->interval_us, out);
	fputc(',', out);
	il_csv_field(d->state, out);
	fputc(',', out);
	if (d->cpu >= 0)
		fprintf(out, "%d", d->cpu);
	fputc(',', out);
	il_csv_field(metric, out);
	fputc(',', out);
	il_csv_field(unit, out);
	shortest(value, num, sizeof(num));
	fprintf(out, ",%s\n", num);
}

/* "152us" or "2.585us": the number, else NULL. */
static const char *interval_of(const char *row, char *buf, size_t size)
{
	size_t n = strlen(row), digits = 0, dots = 0;

	if (n < 3 || n - 2 >= size || strcmp(row + n - 2, "us"))
		return NULL;
	for (size_t i = 0; i + 2 < n; i++) {
		if (row[i] >= '0' && row[i] <= '9')
			digits++;
		else if (row[i] == '.' && i > 0 && i + 3 < n)
			dots++;
		else
			return NULL;
	}
	if (!digits || dots > 1)
		return NULL;
	memcpy(buf, row, n - 2);
	buf[n - 2] = '\0';
	return buf;
}

static void csv_metric(FILE *out, const struct il_sim_batch *b, int c, int k,
		       const struct il_metric *m)
{
	struct csv_dims d = { .group = m->row, .interval_us = "", .state = "", .cpu = -1 };
	char iv[40];
	const char *n;

	if (!m->row[0]) {
		d.group = "total";
	} else if (!strncmp(m->row, "state ", 6)) {
		d.group = "state";
		d.state = m->row + 6;
	} else if (m->grid && (n = interval_of(m->row, iv, sizeof(iv)))) {
		const struct il_sim_result *r = &b->results[c * b->runs + k];
		d.group = "interval";
		d.interval_us = n;
		/* the interval's entries of one state: a column named by the state */
		for (int s = 0; s < r->nstates; s++)
			if (!strcmp(m->col, r->states[s].name)) {
				d.state = r->states[s].name;
				csv_row(out, b, c, k, &d, "usage_diff", m->unit, m->value);
				return;
			}
	}
	csv_row(out, b, c, k, &d, m->col, m->unit, m->value);
}

static void csv_cpus(FILE *out, const struct il_sim_batch *b, int c, int k)
{
	const struct il_sim_result *r = &b->results[c * b->runs + k];

	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		const struct il_sim_cpu_result *cr = &r->cpu[cpu];
		struct csv_dims d = { .group = "cpu", .interval_us = "", .state = "", .cpu = cpu };
		csv_row(out, b, c, k, &d, "idle_ns", "ns", (double)cr->idle_ns);
		csv_row(out, b, c, k, &d, "busy_ns", "ns", (double)cr->busy_ns);
		csv_row(out, b, c, k, &d, "aborted", "", (double)cr->aborted);
		if (r->energy_known)
			csv_row(out, b, c, k, &d, "energy_j", "J", cr->energy_j);
		for (int s = 0; s < r->nstates; s++) {
			const struct il_state_usage *u = &cr->usage[s];
			d.state = r->states[s].name;
			csv_row(out, b, c, k, &d, "usage", "", (double)u->usage);
			csv_row(out, b, c, k, &d, "time_ns", "ns", (double)u->time_ns);
			csv_row(out, b, c, k, &d, "above", "", (double)u->above);
			csv_row(out, b, c, k, &d, "below", "", (double)u->below);
			csv_row(out, b, c, k, &d, "rejected", "", (double)u->rejected);
		}
	}
}

static void print_csv(const struct il_sim_batch *b, FILE *out)
{
	bool cpus = b->per_cpu_table || il_platform_ncpus(b->platform) <= 16;

	for (size_t i = 0; i < sizeof(csv_cols) / sizeof(csv_cols[0]); i++)
		fprintf(out, "%s%s", i ? "," : "", csv_cols[i]);
	fputc('\n', out);
	for (int c = 0; c < b->nconfigs; c++)
		for (int k = 0; k < b->runs; k++) {
			const struct il_metrics *ms = &b->results[c * b->runs + k].metrics;
			for (int i = 0; i < ms->n; i++)
				csv_metric(out, b, c, k, &ms->m[i]);
			if (cpus)
				csv_cpus(out, b, c, k);
		}
}

/* The text, its lines folded to the tables' width (the header with long options). */
static int print_folded(const struct il_sim_batch *b, const char *wl_opts_text, FILE *out)
{
	struct il_fold fd;
	FILE *f = il_fold_open(&fd);

	if (!f)
		return -ENOMEM;
	print_text(b, wl_opts_text, f);
	return il_fold_close(&fd, IL_TABLE_WIDTH, out);
}

int il_sim_batch_print(const struct il_sim_batch *b, enum il_format f, const char *wl_opts_text,
		       FILE *out)
{
	if (f == IL_FORMAT_JSON)
		return il_results_write(b, wl_opts_text, out);
	if (f == IL_FORMAT_CSV)
		print_csv(b, out);
	else if (print_folded(b, wl_opts_text, out))
		return -ENOMEM;
	return ferror(out) ? -EIO : 0;
}
