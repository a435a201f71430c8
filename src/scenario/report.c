// SPDX-License-Identifier: GPL-2.0-only
/*
 * A scenario's report: every table cell (published, simulated, their
 * difference), every check (pass, fail, or n/a when a value it needs is
 * missing), every sensitivity figure at each factor; written as text (fits
 * 100 columns: a table too wide is printed in groups of columns), markdown,
 * JSON (numbers as numbers) or one HTML page (html.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/json.h"
#include "idlelab/scenario.h"
#include "scn_internal.h"
#include "util.h"

#define TEXT_WIDTH 100
#define LABEL_MAX 36

/* ------------------------------------------------------------------ building */

/* The data with the configurations of sensitivity v replaced by their runs at factor f. */
static void sens_data(const struct il_scn_report *r, int v, int f, struct il_scn_data *d,
		      struct il_scn_cfg_runs *cfg)
{
	const struct il_scn *s = r->scn;

	for (int c = 0; c < s->nconfigs; c++)
		cfg[c] = c < r->data->nconfigs ? r->data->cfg[c] : (struct il_scn_cfg_runs){ 0, NULL };
	for (int k = 0; k < s->sens[v].nconfigs; k++) {
		int c = s->sens[v].configs[k];
		const struct il_scn_batch *b = r->out ? il_scn_outcome_batch(r->out, c, v, f) : NULL;
		cfg[c] = b ? b->data : (struct il_scn_cfg_runs){ 0, NULL };
	}
	d->nconfigs = s->nconfigs;
	d->cfg = cfg;
}

int il_scn_report_build(struct il_scn_report *r, const struct il_scn *s,
			const struct il_scn_data *data, const struct il_scn_outcome *out,
			struct il_err *err)
{
	(void)err;
	memset(r, 0, sizeof(*r));
	r->scn = s;
	r->data = data;
	r->out = out;
	r->quick = out ? out->quick : false;
	r->seed = out ? out->seed : 0;
	r->cells = il_xcalloc((size_t)s->ntables + 1, sizeof(*r->cells));
	for (int t = 0; t < s->ntables; t++) {
		const struct il_scn_table *tb = &s->tables[t];
		r->cells[t] = il_xcalloc((size_t)(tb->nrows * tb->ncols) + 1, sizeof(**r->cells));
		for (int k = 0; k < tb->nrows * tb->ncols; k++) {
			const struct il_scn_cell *c = &tb->cells[k];
			struct il_scn_rcell *rc = &r->cells[t][k];
			rc->pub = c->pub_text ? c->pub : NAN;
			rc->sim = c->sim ? il_scn_expr_eval(c->sim, s, data) : NAN;
			rc->diff = il_scn_cell_diff(tb, k / tb->ncols, k % tb->ncols, rc->pub, rc->sim);
		}
	}
	r->checks = il_xcalloc((size_t)s->nchecks + 1, sizeof(*r->checks));
	for (int i = 0; i < s->nchecks; i++) {
		double v = il_scn_expr_eval(s->checks[i].e, s, data);
		r->checks[i].status = isnan(v) ? IL_SCN_NA : v != 0 ? IL_SCN_PASS : IL_SCN_FAIL;
		il_scn_expr_explain(s->checks[i].e, s, data, r->checks[i].explain,
				    sizeof(r->checks[i].explain));
		r->npass += r->checks[i].status == IL_SCN_PASS;
		r->nfail += r->checks[i].status == IL_SCN_FAIL;
		r->nna += r->checks[i].status == IL_SCN_NA;
	}
	r->sens = il_xcalloc((size_t)s->nsens + 1, sizeof(*r->sens));
	for (int v = 0; v < s->nsens; v++) {
		const struct il_scn_sens *sv = &s->sens[v];
		int nf = sv->nfactors + 1;
		struct il_scn_rsens *rs = &r->sens[v];
		rs->fig = il_xcalloc((size_t)(sv->nfigures * nf) + 1, sizeof(*rs->fig));
		rs->values = il_xcalloc((size_t)nf, sizeof(*rs->values));
		snprintf(rs->values[0], sizeof(rs->values[0]), "n/a");
		for (int f = -1; f < sv->nfactors; f++) {
			struct il_scn_cfg_runs cfg[IL_SCN_CONFIGS_MAX];
			struct il_scn_data d;
			if (f < 0) {
				d = *data;
			} else {
				sens_data(r, v, f, &d, cfg);
				const struct il_scn_batch *b =
					out ? il_scn_outcome_batch(out, sv->configs[0], v, f) : NULL;
				snprintf(rs->values[f + 1], sizeof(rs->values[0]), "%s", b ? b->value : "n/a");
				if (b && f == 0)
					snprintf(rs->values[0], sizeof(rs->values[0]), "%s", b->base_value);
			}
			for (int k = 0; k < sv->nfigures; k++)
				rs->fig[k * nf + f + 1] = il_scn_expr_eval(sv->figures[k].e, s, &d);
		}
	}
	return 0;
}

void il_scn_report_free(struct il_scn_report *r)
{
	if (!r->scn)
		return;
	for (int t = 0; t < r->scn->ntables; t++)
		free(r->cells[t]);
	free(r->cells);
	free(r->checks);
	for (int v = 0; v < r->scn->nsens; v++) {
		free(r->sens[v].fig);
		free(r->sens[v].values);
	}
	free(r->sens);
	memset(r, 0, sizeof(*r));
}

int il_scn_format_parse(const char *text, enum il_scn_format *f)
{
	if (!strcmp(text, "table") || !strcmp(text, "text"))
		*f = IL_SCN_TEXT;
	else if (!strcmp(text, "markdown") || !strcmp(text, "md"))
		*f = IL_SCN_MARKDOWN;
	else if (!strcmp(text, "json"))
		*f = IL_SCN_JSON;
	else if (!strcmp(text, "html"))
		*f = IL_SCN_HTML;
	else
		return -EINVAL;
	return 0;
}

static const char *status_text(enum il_scn_status s)
{
	return s == IL_SCN_PASS ? "PASS" : s == IL_SCN_FAIL ? "FAIL" : "n/a";
}

/* ------------------------------------------------------------------ text */

static void rule(FILE *out, int n, char ch)
{
	for (int i = 0; i < n; i++)
		fputc(ch, out);
	fputc('\n', out);
}

/* Print s wrapped at width with an indent for the lines after the first. */
static void wrapped(FILE *out, const char *head, const char *s, int width)
{
	int col = fprintf(out, "%s", head);
	int indent = (int)strlen(head);
	const char *p = s;

	while (*p) {
		const char *sp = p;
		while (*sp && *sp != ' ')
			sp++;
		int wl = (int)(sp - p);
		int room = width - indent > 8 ? width - indent : 8;
		/* a word longer than a line (at least 8 columns, past a long head) is cut */
		if (wl > room)
			sp = p + (wl = room);
		if (col > indent && col + 1 + wl > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", wl, p);
		col += wl;
		p = *sp == ' ' ? sp + 1 : sp;
	}
	fputc('\n', out);
}

static int u8len(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s padded to width (UTF-8 aware), left or right aligned; cut when longer. */
static void pad(FILE *out, const char *s, int width, bool right)
{
	int n = u8len(s);
	if (n > width) {
		/* cut at a character boundary */
		int k = 0;
		const char *p = s;
		while (*p && k < width) {
			p++;
			while (((unsigned char)*p & 0xc0) == 0x80)
				p++;
			k++;
		}
		fprintf(out, "%.*s", (int)(p - s), s);
		return;
	}
	if (right)
		fprintf(out, "%*s%s", width - n, "", s);
	else
		fprintf(out, "%s%*s", s, width - n, "");
}

static void text_table(const struct il_scn_report *r, int ti, FILE *out)
{
	const struct il_scn *s = r->scn;
	const struct il_scn_table *t = &s->tables[ti];
	char cite[1024], buf[64];
	int lw = t->row_header ? u8len(t->row_header) : 0;

	fprintf(out, "\n");
	snprintf(buf, sizeof(buf), "Table %d (%s): ", ti + 1, t->id);
	wrapped(out, buf, t->title, TEXT_WIDTH);
	scn_cite(s, t->source, cite, sizeof(cite));
	if (t->where)
		snprintf(cite + strlen(cite), sizeof(cite) - strlen(cite), "; %s", t->where);
	wrapped(out, "  published: ", cite, TEXT_WIDTH);
	if (t->note)
		wrapped(out, "  note: ", t->note, TEXT_WIDTH);
	scn_diff_desc(t, cite, sizeof(cite));
	wrapped(out, "  difference: ", cite, TEXT_WIDTH);
	for (int i = 0; i < t->nrows; i++)
		lw = u8len(t->rows[i]) > lw ? u8len(t->rows[i]) : lw;
	if (lw > LABEL_MAX)
		lw = LABEL_MAX;
	/* widths of each column's published, simulated and difference */
	int pw[16], sw[16], dw[16], bw[16];
	for (int c = 0; c < t->ncols; c++) {
		pw[c] = 9; /* "published" */
		sw[c] = 9;
		dw[c] = 6;
		for (int i = 0; i < t->nrows; i++) {
			const struct il_scn_cell *cell = &t->cells[i * t->ncols + c];
			const struct il_scn_rcell *rc = &r->cells[ti][i * t->ncols + c];
			int n = cell->pub_text ? u8len(cell->pub_text) : 1;
			pw[c] = n > pw[c] ? n : pw[c];
			n = (int)strlen(scn_sim_text(t, i, c, rc->sim, cell->sim, buf, sizeof(buf)));
			sw[c] = n > sw[c] ? n : sw[c];
			n = (int)strlen(scn_diff_text(t, i, c, rc->diff, buf, sizeof(buf)));
			dw[c] = n > dw[c] ? n : dw[c];
		}
		bw[c] = 2 + pw[c] + 1 + sw[c] + 1 + dw[c];
	}
	for (int c0 = 0; c0 < t->ncols;) {
		int c1 = c0, width = 2 + lw;
		while (c1 < t->ncols && (c1 == c0 || width + bw[c1] <= TEXT_WIDTH))
			width += bw[c1++];
		fputs("  ", out);
		pad(out, "", lw, false);
		for (int c = c0; c < c1; c++) {
			fputs("  ", out);
			pad(out, t->cols[c], bw[c] - 2, false);
		}
		fputc('\n', out);
		fputs("  ", out);
		pad(out, t->row_header ? t->row_header : "", lw, false);
		for (int c = c0; c < c1; c++) {
			fputs("  ", out);
			pad(out, "published", pw[c], true);
			fputc(' ', out);
			pad(out, "simulated", sw[c], true);
			fputc(' ', out);
			pad(out, "diff", dw[c], true);
		}
		fputc('\n', out);
		for (int i = 0; i < t->nrows; i++) {
			fputs("  ", out);
			pad(out, t->rows[i], lw, false);
			for (int c = c0; c < c1; c++) {
				const struct il_scn_cell *cell = &t->cells[i * t->ncols + c];
				const struct il_scn_rcell *rc = &r->cells[ti][i * t->ncols + c];
				fputs("  ", out);
				pad(out, cell->pub_text ? cell->pub_text : "-", pw[c], true);
				fputc(' ', out);
				pad(out, scn_sim_text(t, i, c, rc->sim, cell->sim, buf, sizeof(buf)), sw[c], true);
				fputc(' ', out);
				pad(out, scn_diff_text(t, i, c, rc->diff, buf, sizeof(buf)), dw[c], true);
			}
			fputc('\n', out);
		}
		c0 = c1;
		if (c0 < t->ncols)
			fputc('\n', out);
	}
	if (t->unit)
		fprintf(out, "  unit: %s\n", t->unit);
}

static void sens_value_text(const struct il_scn_report *r, int v, int f, char *buf, size_t size)
{
	const struct il_scn_sens *sv = &r->scn->sens[v];
	snprintf(buf, size, "x%g: %s", f ? sv->factors[f - 1] : 1.0, r->sens[v].values[f]);
}

static void text_sens(const struct il_scn_report *r, FILE *out)
{
	const struct il_scn *s = r->scn;
	char buf[160], head[160];

	if (!s->nsens)
		return;
	fprintf(out, "\nEstimates (each figure at x1 and at the factors; reruns of the named "
		"configurations)\n");
	for (int v = 0; v < s->nsens; v++) {
		const struct il_scn_sens *sv = &s->sens[v];
		int nf = sv->nfactors + 1;
		snprintf(head, sizeof(head), "  %s: ", sv->estimate);
		wrapped(out, head, sv->basis, TEXT_WIDTH);
		fprintf(out, "    rerun:");
		for (int k = 0; k < sv->nconfigs; k++)
			fprintf(out, " %s", s->configs[sv->configs[k]].id);
		int vr = il_scn_sens_runs(s, v, r->quick);
		if (vr > 0)
			fprintf(out, " (%d run%s at each factor)", vr, vr > 1 ? "s" : "");
		fprintf(out, "\n    values:");
		for (int f = 0; f < nf; f++) {
			sens_value_text(r, v, f, buf, sizeof(buf));
			fprintf(out, "%s %s", f ? ";" : "", buf);
		}
		fputc('\n', out);
		int lw = 10;
		for (int k = 0; k < sv->nfigures; k++)
			lw = u8len(sv->figures[k].label) > lw ? u8len(sv->figures[k].label) : lw;
		if (lw > 50)
			lw = 50;
		fprintf(out, "    ");
		pad(out, "", lw, false);
		for (int f = 0; f < nf; f++) {
			snprintf(buf, sizeof(buf), "x%g", f ? sv->factors[f - 1] : 1.0);
			fputs("  ", out);
			pad(out, buf, 12, true);
		}
		fputc('\n', out);
		for (int k = 0; k < sv->nfigures; k++) {
			fprintf(out, "    ");
			pad(out, sv->figures[k].label, lw, false);
			for (int f = 0; f < nf; f++) {
				fputs("  ", out);
				pad(out, scn_num(r->sens[v].fig[k * nf + f], 2, buf, sizeof(buf)), 12, true);
			}
			fputc('\n', out);
		}
	}
}

static void text_checks(const struct il_scn_report *r, FILE *out)
{
	const struct il_scn *s = r->scn;

	if (!s->nchecks)
		return;
	fprintf(out, "\nChecks\n");
	for (int i = 0; i < s->nchecks; i++) {
		char head[16];
		snprintf(head, sizeof(head), "  %-4s  ", status_text(r->checks[i].status));
		wrapped(out, head, s->checks[i].label, TEXT_WIDTH);
		wrapped(out, "        ", r->checks[i].explain, TEXT_WIDTH);
	}
	fprintf(out, "  %d of %d pass, %d fail, %d n/a\n", r->npass, s->nchecks, r->nfail, r->nna);
}

static void text_report(const struct il_scn_report *r, FILE *out)
{
	const struct il_scn *s = r->scn;
	char buf[512], head[80];

	snprintf(head, sizeof(head), "%s: ", s->name);
	wrapped(out, head, s->title, TEXT_WIDTH);
	int n = u8len(s->name) + 2 + u8len(s->title);
	rule(out, n > TEXT_WIDTH ? TEXT_WIDTH : n, '=');
	wrapped(out, "Finding: ", s->finding, TEXT_WIDTH);
	if (s->mechanisms)
		wrapped(out, "Mechanisms: ", s->mechanisms, TEXT_WIDTH);
	if (s->status)
		wrapped(out, "Status: ", s->status, TEXT_WIDTH);
	scn_run_facts(r, buf, sizeof(buf));
	fprintf(out, "Platform: %s; %s\n", s->platform, buf);
	fprintf(out, "Published figures are the sources' own; simulated ones come from the model "
		"alone.\n\nConfigurations\n");
	for (int c = 0; c < s->nconfigs; c++) {
		const struct il_scn_config *cf = &s->configs[c];
		const struct il_scn_batch *b = r->out ? il_scn_outcome_batch(r->out, c, -1, -1) : NULL;
		snprintf(head, sizeof(head), "  %s: ", cf->id);
		snprintf(buf, sizeof(buf), "%s; kernel %s, governor %s, %s%s%s, %d runs", cf->label,
			 cf->kernel[0] ? cf->kernel : "(platform's)",
			 b ? b->b.labels[0] : cf->governor[0] ? cf->governor : "(kernel's)",
			 cf->workload, b && b->wl_text[0] ? " " : "", b ? b->wl_text : "",
			 b ? b->b.runs : r->quick ? cf->quick_runs : cf->runs);
		for (int i = 0; i < cf->npset; i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "; %s", cf->pset[i].text);
		for (int i = 0; i < cf->nset; i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "; %s", cf->set[i].text);
		wrapped(out, head, buf, TEXT_WIDTH);
	}
	for (int t = 0; t < s->ntables; t++)
		text_table(r, t, out);
	text_sens(r, out);
	text_checks(r, out);
	fprintf(out, "\nSources\n");
	for (int i = 0; i < s->nsources; i++) {
		const struct il_scn_source *src = &s->sources[i];
		snprintf(head, sizeof(head), "  [%s] ", src->id);
		scn_cite(s, src->id, buf, sizeof(buf));
		if (src->commit)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "; commit %s", src->commit);
		if (src->url)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "; %s", src->url);
		wrapped(out, head, buf, TEXT_WIDTH);
	}
}

/* ------------------------------------------------------------------ markdown */

static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '*' || *s == '_' || *s == '`' || *s == '\\' || *s == '<' ||
		    *s == '&' || *s == '[' || *s == ']')
			fputc('\\', out);
		fputc(*s, out);
	}
}

static void md_report(const struct il_scn_report *r, FILE *out)
{
	const struct il_scn *s = r->scn;
	char buf[512];

	fprintf(out, "# %s: ", s->name);
	md_text(out, s->title);
	fprintf(out, "\n\n**Finding.** ");
	md_text(out, s->finding);
	fputs("\n\n", out);
	if (s->mechanisms) {
		fputs("**Mechanisms.** ", out);
		md_text(out, s->mechanisms);
		fputs("\n\n", out);
	}
	if (s->status) {
		fputs("**Status.** ", out);
		md_text(out, s->status);
		fputs("\n\n", out);
	}
	scn_run_facts(r, buf, sizeof(buf));
	fprintf(out, "Platform `%s`; %s. Published figures are the sources' own; simulated ones "
		"come from the model alone.\n\n", s->platform, buf);
	fputs("| configuration | label | kernel | governor | workload | runs |\n"
	      "|---|---|---|---|---|---|\n", out);
	for (int c = 0; c < s->nconfigs; c++) {
		const struct il_scn_config *cf = &s->configs[c];
		const struct il_scn_batch *b = r->out ? il_scn_outcome_batch(r->out, c, -1, -1) : NULL;
		fprintf(out, "| %s | ", cf->id);
		md_text(out, cf->label);
		fprintf(out, " | %s | ", cf->kernel[0] ? cf->kernel : "platform's");
		md_text(out, b ? b->b.labels[0] : cf->governor[0] ? cf->governor : "kernel's");
		fputs(" | ", out);
		md_text(out, cf->workload);
		if (b && b->wl_text[0]) {
			fputc(' ', out);
			md_text(out, b->wl_text);
		}
		for (int i = 0; i < cf->npset; i++) {
			fputs("; ", out);
			md_text(out, cf->pset[i].text);
		}
		for (int i = 0; i < cf->nset; i++) {
			fputs("; ", out);
			md_text(out, cf->set[i].text);
		}
		fprintf(out, " | %d |\n", b ? b->b.runs : r->quick ? cf->quick_runs : cf->runs);
	}
	for (int ti = 0; ti < s->ntables; ti++) {
		const struct il_scn_table *t = &s->tables[ti];
		char cite[1024];
		fprintf(out, "\n## Table %d (%s): ", ti + 1, t->id);
		md_text(out, t->title);
		scn_cite(s, t->source, cite, sizeof(cite));
		fputs("\n\nPublished: ", out);
		md_text(out, cite);
		if (t->where) {
			fputs("; ", out);
			md_text(out, t->where);
		}
		scn_diff_desc(t, cite, sizeof(cite));
		fputs(". Difference: ", out);
		md_text(out, cite);
		fputc('.', out);
		if (t->unit) {
			fputs(" Unit: ", out);
			md_text(out, t->unit);
			fputc('.', out);
		}
		if (t->note) {
			fputc(' ', out);
			md_text(out, t->note);
		}
		fputs("\n\n| ", out);
		md_text(out, t->row_header ? t->row_header : "");
		for (int c = 0; c < t->ncols; c++) {
			fputs(" | ", out);
			md_text(out, t->cols[c]);
			fputs(" published | simulated | diff", out);
		}
		fputs(" |\n|---", out);
		for (int c = 0; c < t->ncols; c++)
			fputs("|---:|---:|---:", out);
		fputs("|\n", out);
		for (int i = 0; i < t->nrows; i++) {
			fputs("| ", out);
			md_text(out, t->rows[i]);
			for (int c = 0; c < t->ncols; c++) {
				const struct il_scn_cell *cell = &t->cells[i * t->ncols + c];
				const struct il_scn_rcell *rc = &r->cells[ti][i * t->ncols + c];
				fputs(" | ", out);
				md_text(out, cell->pub_text ? cell->pub_text : "-");
				fprintf(out, " | %s", scn_sim_text(t, i, c, rc->sim, cell->sim, buf, sizeof(buf)));
				fprintf(out, " | %s", scn_diff_text(t, i, c, rc->diff, buf, sizeof(buf)));
			}
			fputs(" |\n", out);
		}
	}
	if (s->nsens) {
		fputs("\n## Estimates\n", out);
		for (int v = 0; v < s->nsens; v++) {
			const struct il_scn_sens *sv = &s->sens[v];
			int nf = sv->nfactors + 1;
			fprintf(out, "\n`%s` (reruns:", sv->estimate);
			for (int k = 0; k < sv->nconfigs; k++)
				fprintf(out, " %s", s->configs[sv->configs[k]].id);
			int vr = il_scn_sens_runs(s, v, r->quick);
			if (vr > 0)
				fprintf(out, ", %d run%s at each factor", vr, vr > 1 ? "s" : "");
			fputs("): ", out);
			md_text(out, sv->basis);
			fputs("\n\n| figure", out);
			for (int f = 0; f < nf; f++) {
				sens_value_text(r, v, f, buf, sizeof(buf));
				fputs(" | ", out);
				md_text(out, buf);
			}
			fputs(" |\n|---", out);
			for (int f = 0; f < nf; f++)
				fputs("|---:", out);
			fputs("|\n", out);
			for (int k = 0; k < sv->nfigures; k++) {
				fputs("| ", out);
				md_text(out, sv->figures[k].label);
				for (int f = 0; f < nf; f++)
					fprintf(out, " | %s", scn_num(r->sens[v].fig[k * nf + f], 2, buf, sizeof(buf)));
				fputs(" |\n", out);
			}
		}
	}
	if (s->nchecks) {
		fputs("\n## Checks\n\n| result | check | values |\n|---|---|---|\n", out);
		for (int i = 0; i < s->nchecks; i++) {
			fprintf(out, "| %s | ", status_text(r->checks[i].status));
			md_text(out, s->checks[i].label);
			fputs(" | ", out);
			md_text(out, r->checks[i].explain);
			fputs(" |\n", out);
		}
		fprintf(out, "\n%d of %d pass, %d fail, %d n/a.\n", r->npass, s->nchecks, r->nfail, r->nna);
	}
	fputs("\n## Sources\n\n", out);
	for (int i = 0; i < s->nsources; i++) {
		const struct il_scn_source *src = &s->sources[i];
		scn_cite(s, src->id, buf, sizeof(buf));
		fprintf(out, "- [%s] ", src->id);
		md_text(out, buf);
		if (src->commit) {
			fputs("; commit ", out);
			md_text(out, src->commit);
		}
		if (src->url)
			fprintf(out, "; <%s>", src->url);
		fputc('\n', out);
	}
}

/* ------------------------------------------------------------------ JSON */

/* The shared JSON writer (include/idlelab/json.h): numbers as numbers, NAN as null. */
static void jkvs(struct il_json *w, const char *k, const struct il_scn_kv *kv, int n)
{
	il_json_key(w, k);
	il_json_array(w, IL_JSON_INLINE);
	for (int i = 0; i < n; i++)
		il_json_string(w, kv[i].text);
	il_json_end(w);
}

static const char *result_text(enum il_scn_status st)
{
	return st == IL_SCN_PASS ? "pass" : st == IL_SCN_FAIL ? "fail" : "n/a";
}

static int json_report(const struct il_scn_report *r, FILE *out)
{
	const struct il_scn *s = r->scn;
	struct il_json w;

	il_json_init(&w, out);
	il_json_object(&w, IL_JSON_BLOCK);
	il_json_kstring(&w, "scenario", s->name);
	il_json_kstring(&w, "title", s->title);
	il_json_kstring(&w, "finding", s->finding);
	il_json_kstring(&w, "mechanisms", s->mechanisms);
	il_json_kstring(&w, "status", s->status);
	il_json_kstring(&w, "platform", s->platform);
	il_json_kstring(&w, "file", s->file);
	il_json_kbool(&w, "quick", r->quick);
	il_json_kuint(&w, "seed", (unsigned long long)r->seed);
	il_json_kdouble(&w, "runs", r->out ? r->out->runs : NAN);
	il_json_kdouble(&w, "simulated_s", r->out ? r->out->sim_s : NAN);
	il_json_kdouble(&w, "wall_s", r->out ? r->out->wall_s : NAN);
	il_json_kdouble(&w, "cpu_s", r->out ? r->out->cpu_s : NAN);
	il_json_kdouble(&w, "resumed_runs", r->out ? r->out->resumed : NAN);

	il_json_key(&w, "sources");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int i = 0; i < s->nsources; i++) {
		const struct il_scn_source *src = &s->sources[i];
		il_json_object(&w, IL_JSON_INLINE);
		il_json_kstring(&w, "id", src->id);
		il_json_kstring(&w, "author", src->author);
		il_json_kstring(&w, "list", src->list);
		il_json_kstring(&w, "date", src->date);
		il_json_kstring(&w, "subject", src->subject);
		il_json_kstring(&w, "message_id", src->message_id);
		il_json_kstring(&w, "commit", src->commit);
		il_json_kstring(&w, "url", src->url);
		il_json_end(&w);
	}
	il_json_end(&w);

	il_json_key(&w, "configurations");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int c = 0; c < s->nconfigs; c++) {
		const struct il_scn_config *cf = &s->configs[c];
		const struct il_scn_batch *b = r->out ? il_scn_outcome_batch(r->out, c, -1, -1) : NULL;
		il_json_object(&w, IL_JSON_INLINE);
		il_json_kstring(&w, "id", cf->id);
		il_json_kstring(&w, "label", cf->label);
		il_json_kstring(&w, "kernel", cf->kernel);
		il_json_kstring(&w, "governor", b ? b->b.labels[0] : cf->governor);
		il_json_kstring(&w, "workload", cf->workload);
		il_json_kstring(&w, "workload_options", b ? b->wl_text : NULL);
		jkvs(&w, "pset", cf->pset, cf->npset);
		jkvs(&w, "set", cf->set, cf->nset);
		jkvs(&w, "sim", cf->sim, cf->nsim);
		il_json_kint(&w, "runs", b ? b->b.runs : r->quick ? cf->quick_runs : cf->runs);
		il_json_kdouble(&w, "duration_s",
				(double)(r->quick ? cf->quick_duration_ns : cf->duration_ns) * 1e-9);
		il_json_end(&w);
	}
	il_json_end(&w);

	il_json_key(&w, "tables");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int ti = 0; ti < s->ntables; ti++) {
		const struct il_scn_table *t = &s->tables[ti];
		il_json_object(&w, IL_JSON_BLOCK);
		il_json_kstring(&w, "id", t->id);
		il_json_kstring(&w, "title", t->title);
		il_json_kstring(&w, "source", t->source);
		il_json_kstring(&w, "where", t->where);
		il_json_kstring(&w, "unit", t->unit);
		il_json_kstring(&w, "note", t->note);
		il_json_key(&w, "columns");
		il_json_array(&w, IL_JSON_INLINE);
		for (int c = 0; c < t->ncols; c++)
			il_json_string(&w, t->cols[c]);
		il_json_end(&w);
		il_json_key(&w, "diff");
		il_json_array(&w, IL_JSON_INLINE);
		for (int c = 0; c < t->ncols; c++)
			il_json_string(&w, t->col_diff[c] == IL_SCN_DIFF_POINTS ? "points" : "relative");
		il_json_end(&w);
		il_json_key(&w, "rows");
		il_json_array(&w, IL_JSON_BLOCK);
		for (int i = 0; i < t->nrows; i++) {
			il_json_object(&w, IL_JSON_INLINE);
			il_json_kstring(&w, "label", t->rows[i]);
			il_json_kstring(&w, "key", t->keys[i]);
			il_json_kbool(&w, "diff_in_points", t->row_points && t->row_points[i]);
			il_json_key(&w, "cells");
			il_json_array(&w, IL_JSON_INLINE);
			for (int c = 0; c < t->ncols; c++) {
				const struct il_scn_cell *cell = &t->cells[i * t->ncols + c];
				const struct il_scn_rcell *rc = &r->cells[ti][i * t->ncols + c];
				il_json_object(&w, IL_JSON_INLINE);
				il_json_kstring(&w, "column", t->cols[c]);
				il_json_kstring(&w, "published_text", cell->pub_text);
				il_json_kdouble(&w, "published", rc->pub);
				il_json_kdouble(&w, "simulated", rc->sim);
				il_json_kdouble(&w, "diff", rc->diff);
				il_json_end(&w);
			}
			il_json_end(&w);
			il_json_end(&w);
		}
		il_json_end(&w);
		il_json_end(&w);
	}
	il_json_end(&w);

	il_json_key(&w, "sensitivity");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int v = 0; v < s->nsens; v++) {
		const struct il_scn_sens *sv = &s->sens[v];
		int nf = sv->nfactors + 1;
		il_json_object(&w, IL_JSON_BLOCK);
		il_json_kstring(&w, "id", sv->id);
		il_json_kstring(&w, "estimate", sv->estimate);
		il_json_kstring(&w, "basis", sv->basis);
		il_json_key(&w, "configurations");
		il_json_array(&w, IL_JSON_INLINE);
		for (int k = 0; k < sv->nconfigs; k++)
			il_json_string(&w, s->configs[sv->configs[k]].id);
		il_json_end(&w);
		if (il_scn_sens_runs(s, v, r->quick) > 0)
			il_json_kint(&w, "runs", il_scn_sens_runs(s, v, r->quick));
		il_json_key(&w, "factors");
		il_json_array(&w, IL_JSON_INLINE);
		il_json_int(&w, 1);
		for (int k = 0; k < sv->nfactors; k++)
			il_json_double(&w, sv->factors[k]);
		il_json_end(&w);
		il_json_key(&w, "values");
		il_json_array(&w, IL_JSON_INLINE);
		for (int k = 0; k < nf; k++)
			il_json_string(&w, r->sens[v].values[k]);
		il_json_end(&w);
		il_json_key(&w, "figures");
		il_json_array(&w, IL_JSON_BLOCK);
		for (int k = 0; k < sv->nfigures; k++) {
			il_json_object(&w, IL_JSON_INLINE);
			il_json_kstring(&w, "label", sv->figures[k].label);
			il_json_kstring(&w, "expression", sv->figures[k].text);
			il_json_key(&w, "values");
			il_json_array(&w, IL_JSON_INLINE);
			for (int q = 0; q < nf; q++)
				il_json_double(&w, r->sens[v].fig[k * nf + q]);
			il_json_end(&w);
			il_json_end(&w);
		}
		il_json_end(&w);
		il_json_end(&w);
	}
	il_json_end(&w);

	il_json_key(&w, "checks");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int i = 0; i < s->nchecks; i++) {
		il_json_object(&w, IL_JSON_INLINE);
		il_json_kstring(&w, "label", s->checks[i].label);
		il_json_kstring(&w, "expression", s->checks[i].text);
		il_json_kstring(&w, "result", result_text(r->checks[i].status));
		il_json_kstring(&w, "values", r->checks[i].explain);
		il_json_end(&w);
	}
	il_json_end(&w);
	il_json_key(&w, "summary");
	il_json_object(&w, IL_JSON_INLINE);
	il_json_kint(&w, "pass", r->npass);
	il_json_kint(&w, "fail", r->nfail);
	il_json_kint(&w, "n/a", r->nna);
	il_json_end(&w);
	il_json_end(&w);
	return il_json_finish(&w);
}

int il_scn_report_write(const struct il_scn_report *r, enum il_scn_format f, FILE *out,
			struct il_err *err)
{
	switch (f) {
	case IL_SCN_TEXT: {
		/* laid out in memory, then written without trailing blanks */
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m)
			return il_err_set(err, ENOMEM, "out of memory");
		text_report(r, m);
		fclose(m);
		for (size_t i = 0, start = 0; i <= len; i++) {
			if (i < len && buf[i] != '\n')
				continue;
			size_t end = i;
			while (end > start && buf[end - 1] == ' ')
				end--;
			fwrite(buf + start, 1, end - start, out);
			if (i < len)
				fputc('\n', out);
			start = i + 1;
		}
		free(buf);
		break;
	}
	case IL_SCN_MARKDOWN: md_report(r, out); break;
	case IL_SCN_JSON:
		if (json_report(r, out) == -EINVAL)
			return il_err_set(err, EINVAL, "the report's JSON is malformed (a writer bug)");
		break;
	case IL_SCN_HTML: return scn_html_report(r, out, err);
	}
	return ferror(out) ? il_err_set(err, EIO, "cannot write the report") : 0;
}
