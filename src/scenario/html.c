// SPDX-License-Identifier: GPL-2.0-only
/*
 * A scenario's report as one self-contained HTML page: the tables
 * (published, simulated, difference), the plots as inline SVG (drawn by
 * src/report/plot.c), the checks and the estimates. No script, no external
 * style sheet, font or image: the page shows the same offline.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "idlelab/plot.h"
#include "idlelab/scenario.h"
#include "scn_internal.h"
#include "util.h"

void scn_html_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static double metric_of(const struct il_metrics *ms, const char *row, const char *col)
{
	for (int i = 0; i < ms->n; i++)
		if (!strcmp(ms->m[i].col, col) && !strcmp(ms->m[i].row, row))
			return ms->m[i].value;
	return NAN;
}

/* Add the finite points of (x, y) as a series; 1 if it had any. */
static int add_points(struct il_plot *p, const char *name, const double *x, const double *y, int n,
		      enum il_plot_style style, struct il_err *err)
{
	double *fx = il_xcalloc((size_t)n + 1, sizeof(double)), *fy = il_xcalloc((size_t)n + 1, sizeof(double));
	int k = 0, r = 0;

	for (int i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			fx[k] = x[i];
			fy[k] = y[i];
			k++;
		}
	if (k) {
		r = il_plot_add_series(p, name, fx, fy, (size_t)k, err);
		if (!r)
			il_plot_set_style(p, style);
	}
	free(fx);
	free(fy);
	return r < 0 ? r : k > 0;
}

/* The plot of report r's plot i, or NULL when it has no point (then *why says so). */
static struct il_plot *build_plot(const struct il_scn_report *r, int i, int *npoints,
				  struct il_err *err)
{
	const struct il_scn *s = r->scn;
	const struct il_scn_plot *pl = &s->plots[i];
	struct il_plot *p = il_plot_new(pl->title, pl->xlabel ? pl->xlabel : "",
					pl->ylabel ? pl->ylabel : "");
	int any = 0, rr = 0;

	if (!p) {
		il_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	il_plot_set_log_x(p, pl->log_x);
	if (pl->kind == IL_SCN_PLOT_TABLE) {
		const struct il_scn_table *t = &s->tables[pl->table];
		double *x = il_xcalloc((size_t)t->nrows + 1, sizeof(double));
		double *y = il_xcalloc((size_t)t->nrows + 1, sizeof(double));
		for (int k = 0; k < t->nrows; k++) {
			char *end;
			x[k] = strtod(t->keys[k], &end);
			if (end == t->keys[k] || *end)
				x[k] = NAN; /* a row whose key is no number is not drawn */
		}
		for (int c = 0; c < pl->ncols && rr >= 0; c++) {
			int col = pl->cols[c];
			char name[160];
			for (int k = 0; k < t->nrows; k++)
				y[k] = r->cells[pl->table][k * t->ncols + col].pub;
			snprintf(name, sizeof(name), "%s, published", t->cols[col]);
			rr = add_points(p, name, x, y, t->nrows, IL_PLOT_DASHED, err);
			int pub = rr > 0 ? any++ : -1; /* the published series' index */
			for (int k = 0; k < t->nrows && rr >= 0; k++)
				y[k] = r->cells[pl->table][k * t->ncols + col].sim;
			snprintf(name, sizeof(name), "%s, simulated", t->cols[col]);
			if (rr >= 0)
				rr = add_points(p, name, x, y, t->nrows, IL_PLOT_LINE, err);
			if (rr > 0 && pub >= 0)
				il_plot_set_colour_of(p, (size_t)pub);
			any += rr > 0;
		}
		free(x);
		free(y);
	} else {
		const char *slash = strrchr(pl->metric, '/');
		char row[64];
		snprintf(row, sizeof(row), "%.*s", (int)(slash - pl->metric), pl->metric);
		for (int k = 0; k < pl->nconfigs && rr >= 0; k++) {
			int c = pl->configs[k];
			const struct il_scn_cfg_runs *cr = c < r->data->nconfigs ? &r->data->cfg[c] : NULL;
			int n = cr ? cr->nruns : 0;
			double *x = il_xcalloc((size_t)n + 1, sizeof(double));
			double *y = il_xcalloc((size_t)n + 1, sizeof(double));
			for (int q = 0; q < n; q++) {
				x[q] = q + 1;
				y[q] = metric_of(&cr->runs[q], row, slash + 1);
			}
			rr = add_points(p, s->configs[c].label, x, y, n, IL_PLOT_POINTS, err);
			any += rr > 0;
			free(x);
			free(y);
		}
	}
	*npoints = any;
	if (rr < 0) {
		il_plot_free(p);
		return NULL;
	}
	return p;
}

int il_scn_plot_svg(const struct il_scn_report *r, int i, FILE *out, struct il_err *err)
{
	int any = 0;
	struct il_plot *p = build_plot(r, i, &any, err);
	char *buf = NULL;
	size_t len = 0;

	if (!p)
		return -EINVAL;
	if (!any) {
		il_plot_free(p);
		return il_err_set(err, ENODATA, "plot %s: no values to draw", r->scn->plots[i].id);
	}
	FILE *m = open_memstream(&buf, &len);
	if (!m) {
		il_plot_free(p);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	int rr = il_plot_write_svg(p, m, err);
	fclose(m);
	il_plot_free(p);
	if (!rr) {
		/* inline SVG: no XML prolog or doctype */
		const char *svg = strstr(buf, "<svg");
		fputs(svg ? svg : buf, out);
	}
	free(buf);
	return rr;
}

static const char style[] =
	"body{font-family:sans-serif;margin:2em;max-width:1200px;color:#111}"
	"table{border-collapse:collapse;margin:0.5em 0 1.5em}"
	"th,td{border:1px solid #bbb;padding:2px 6px}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"th{background:#eee}"
	".pass{color:#060;font-weight:bold}.fail{color:#a00;font-weight:bold}.na{color:#666}"
	".cite{color:#444;font-size:90%}"
	"figure{margin:1em 0}svg{max-width:100%;height:auto;border:1px solid #ddd}";

static void num_cell(FILE *out, const char *text)
{
	fputs("<td class=\"n\">", out);
	scn_html_text(out, text);
	fputs("</td>", out);
}

int scn_html_report(const struct il_scn_report *r, FILE *out, struct il_err *err)
{
	const struct il_scn *s = r->scn;
	char buf[1024];

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
	scn_html_text(out, s->name);
	fputs(": ", out);
	scn_html_text(out, s->title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", style);
	scn_html_text(out, s->name);
	fputs(": ", out);
	scn_html_text(out, s->title);
	fputs("</h1>\n<p><b>Finding.</b> ", out);
	scn_html_text(out, s->finding);
	fputs("</p>\n", out);
	if (s->mechanisms) {
		fputs("<p><b>Mechanisms.</b> ", out);
		scn_html_text(out, s->mechanisms);
		fputs("</p>\n", out);
	}
	if (s->status) {
		fputs("<p><b>Status.</b> ", out);
		scn_html_text(out, s->status);
		fputs("</p>\n", out);
	}
	scn_run_facts(r, buf, sizeof(buf));
	fputs("<p>Platform <code>", out);
	scn_html_text(out, s->platform);
	fputs("</code>; ", out);
	scn_html_text(out, buf);
	fputs(". Published figures are the sources' own; simulated ones come from the model "
	      "alone.</p>\n", out);

	fputs("<h2>Configurations</h2>\n<table class=\"configs\">\n<tr><th>id</th><th>label</th>"
	      "<th>kernel</th><th>governor</th><th>workload</th><th>overrides</th><th>runs</th></tr>\n",
	      out);
	for (int c = 0; c < s->nconfigs; c++) {
		const struct il_scn_config *cf = &s->configs[c];
		const struct il_scn_batch *b = r->out ? il_scn_outcome_batch(r->out, c, -1, -1) : NULL;
		fputs("<tr><td>", out);
		scn_html_text(out, cf->id);
		fputs("</td><td>", out);
		scn_html_text(out, cf->label);
		fputs("</td><td>", out);
		scn_html_text(out, cf->kernel[0] ? cf->kernel : "platform's");
		fputs("</td><td>", out);
		scn_html_text(out, b ? b->b.labels[0] : cf->governor[0] ? cf->governor : "kernel's");
		fputs("</td><td>", out);
		scn_html_text(out, cf->workload);
		if (b && b->wl_text[0]) {
			fputc(' ', out);
			scn_html_text(out, b->wl_text);
		}
		fputs("</td><td>", out);
		for (int i = 0; i < cf->npset; i++) {
			scn_html_text(out, cf->pset[i].text);
			fputs("<br>", out);
		}
		for (int i = 0; i < cf->nset; i++) {
			scn_html_text(out, cf->set[i].text);
			fputs("<br>", out);
		}
		fprintf(out, "</td><td class=\"n\">%d</td></tr>\n",
			b ? b->b.runs : r->quick ? cf->quick_runs : cf->runs);
	}
	fputs("</table>\n", out);

	for (int ti = 0; ti < s->ntables; ti++) {
		const struct il_scn_table *t = &s->tables[ti];
		fprintf(out, "<h2 id=\"table-%s\">Table %d: ", t->id, ti + 1);
		scn_html_text(out, t->title);
		fputs("</h2>\n<p class=\"cite\">Published: ", out);
		scn_cite(s, t->source, buf, sizeof(buf));
		scn_html_text(out, buf);
		if (t->where) {
			fputs("; ", out);
			scn_html_text(out, t->where);
		}
		scn_diff_desc(t, buf, sizeof(buf));
		fputs(". Difference: ", out);
		scn_html_text(out, buf);
		fputc('.', out);
		if (t->unit) {
			fputs(" Unit: ", out);
			scn_html_text(out, t->unit);
			fputc('.', out);
		}
		if (t->note) {
			fputc(' ', out);
			scn_html_text(out, t->note);
		}
		fprintf(out, "</p>\n<table class=\"scenario\" data-table=\"%s\">\n<tr><th rowspan=\"2\">", t->id);
		scn_html_text(out, t->row_header ? t->row_header : "");
		fputs("</th>", out);
		for (int c = 0; c < t->ncols; c++) {
			fputs("<th colspan=\"3\">", out);
			scn_html_text(out, t->cols[c]);
			fputs("</th>", out);
		}
		fputs("</tr>\n<tr>", out);
		for (int c = 0; c < t->ncols; c++)
			fputs("<th>published</th><th>simulated</th><th>diff</th>", out);
		fputs("</tr>\n", out);
		for (int i = 0; i < t->nrows; i++) {
			fputs("<tr><th>", out);
			scn_html_text(out, t->rows[i]);
			fputs("</th>", out);
			for (int c = 0; c < t->ncols; c++) {
				const struct il_scn_cell *cell = &t->cells[i * t->ncols + c];
				const struct il_scn_rcell *rc = &r->cells[ti][i * t->ncols + c];
				char sim[64], diff[64];
				num_cell(out, cell->pub_text ? cell->pub_text : "-");
				num_cell(out, scn_sim_text(t, i, c, rc->sim, cell->sim, sim, sizeof(sim)));
				scn_diff_text(t, i, c, rc->diff, diff, sizeof(diff));
				num_cell(out, diff);
			}
			fputs("</tr>\n", out);
		}
		fputs("</table>\n", out);
	}

	if (s->nplots)
		fputs("<h2>Plots</h2>\n", out);
	for (int i = 0; i < s->nplots; i++) {
		struct il_err perr;
		fprintf(out, "<figure id=\"plot-%s\">\n", s->plots[i].id);
		if (il_scn_plot_svg(r, i, out, &perr)) {
			if (perr.msg[0] && strstr(perr.msg, "no values"))
				fputs("<p>", out), scn_html_text(out, perr.msg), fputs("</p>\n", out);
			else {
				*err = perr;
				return -EINVAL;
			}
		}
		fputs("</figure>\n", out);
	}

	if (s->nsens) {
		fputs("<h2>Estimates</h2>\n", out);
		for (int v = 0; v < s->nsens; v++) {
			const struct il_scn_sens *sv = &s->sens[v];
			int nf = sv->nfactors + 1;
			fputs("<p><code>", out);
			scn_html_text(out, sv->estimate);
			fputs("</code>: ", out);
			scn_html_text(out, sv->basis);
			fputs(" (reruns:", out);
			for (int k = 0; k < sv->nconfigs; k++) {
				fputc(' ', out);
				scn_html_text(out, s->configs[sv->configs[k]].id);
			}
			int vr = il_scn_sens_runs(s, v, r->quick);
			if (vr > 0)
				fprintf(out, ", %d run%s at each factor", vr, vr > 1 ? "s" : "");
			fputs(")</p>\n<table class=\"sensitivity\">\n<tr><th>figure</th>", out);
			for (int f = 0; f < nf; f++) {
				fprintf(out, "<th>x%g<br>", f ? sv->factors[f - 1] : 1.0);
				scn_html_text(out, r->sens[v].values[f]);
				fputs("</th>", out);
			}
			fputs("</tr>\n", out);
			for (int k = 0; k < sv->nfigures; k++) {
				fputs("<tr><th>", out);
				scn_html_text(out, sv->figures[k].label);
				fputs("</th>", out);
				for (int f = 0; f < nf; f++)
					num_cell(out, scn_num(r->sens[v].fig[k * nf + f], 2, buf, sizeof(buf)));
				fputs("</tr>\n", out);
			}
			fputs("</table>\n", out);
		}
	}

	if (s->nchecks) {
		fputs("<h2>Checks</h2>\n<table class=\"checks\">\n<tr><th>result</th><th>check</th>"
		      "<th>values</th></tr>\n", out);
		for (int i = 0; i < s->nchecks; i++) {
			enum il_scn_status st = r->checks[i].status;
			fprintf(out, "<tr><td class=\"%s\">%s</td><td>", st == IL_SCN_PASS ? "pass"
					 : st == IL_SCN_FAIL ? "fail" : "na",
				st == IL_SCN_PASS ? "PASS" : st == IL_SCN_FAIL ? "FAIL" : "n/a");
			scn_html_text(out, s->checks[i].label);
			fputs("</td><td>", out);
			scn_html_text(out, r->checks[i].explain);
			fputs("</td></tr>\n", out);
		}
		fprintf(out, "</table>\n<p>%d of %d pass, %d fail, %d n/a.</p>\n", r->npass, s->nchecks,
			r->nfail, r->nna);
	}

	fputs("<h2>Sources</h2>\n<ul>\n", out);
	for (int i = 0; i < s->nsources; i++) {
		const struct il_scn_source *src = &s->sources[i];
		fputs("<li>[", out);
		scn_html_text(out, src->id);
		fputs("] ", out);
		scn_cite(s, src->id, buf, sizeof(buf));
		scn_html_text(out, buf);
		if (src->commit) {
			fputs("; commit ", out);
			scn_html_text(out, src->commit);
		}
		/* a link only to the web: no javascript: or data: in a page without script */
		if (src->url && strncasecmp(src->url, "https://", 8) &&
		    strncasecmp(src->url, "http://", 7)) {
			fputs("; ", out);
			scn_html_text(out, src->url);
		} else if (src->url) {
			fputs("; <a href=\"", out);
			scn_html_text(out, src->url);
			fputs("\">", out);
			scn_html_text(out, src->url);
			fputs("</a>", out);
		}
		fputs("</li>\n", out);
	}
	fputs("</ul>\n</body>\n</html>\n", out);
	return ferror(out) ? il_err_set(err, EIO, "cannot write the report") : 0;
}
