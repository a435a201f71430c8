// SPDX-License-Identifier: GPL-2.0-only
/*
 * A scenario report's numbers as text, for every writer of the report
 * (report.c's text, markdown and JSON, html.c's page): a value at a fixed
 * precision, a simulated cell at the precision its column is published
 * with, a difference in the table's mode and the line that says what the
 * difference is. Below both writers, so neither calls the other for them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/scenario.h"
#include "scn_internal.h"

const char *scn_num(double v, int decimals, char *buf, size_t size)
{
	if (isnan(v))
		snprintf(buf, size, "n/a");
	else if (isinf(v))
		snprintf(buf, size, "%s", v > 0 ? "inf" : "-inf");
	else if (fabs(v) >= 1e15) /* all its digits would not fit a cell (nor buf): cut, not shown */
		snprintf(buf, size, "%.6g", v);
	else {
		snprintf(buf, size, "%.*f", decimals, v);
		if (!strcmp(buf, "-0") || (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1)))
			memmove(buf, buf + 1, strlen(buf)); /* no "-0.00" */
	}
	return buf;
}

/* Decimals of a published number as printed ("33072.10" -> 2, "494,834" -> 0). */
static int pub_decimals(const char *text, int dflt)
{
	if (!text)
		return dflt;
	const char *dot = strchr(text, '.');
	if (!dot)
		return 0;
	int n = 0;
	for (const char *p = dot + 1; *p >= '0' && *p <= '9'; p++)
		n++;
	return n;
}

static int cell_decimals(const struct il_scn_table *t, int row, int col)
{
	const struct il_scn_cell *c = &t->cells[row * t->ncols + col];
	if (c->pub_text)
		return pub_decimals(c->pub_text, t->decimals);
	/* the column's published precision in another row, else the table's */
	for (int r = 0; r < t->nrows; r++)
		if (t->cells[r * t->ncols + col].pub_text)
			return pub_decimals(t->cells[r * t->ncols + col].pub_text, t->decimals);
	return t->decimals;
}

const char *scn_diff_text(const struct il_scn_table *t, int row, int col, double d, char *buf,
			  size_t size)
{
	if (isnan(d)) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (fabs(d) >= 1e15)
		snprintf(buf, size, il_scn_cell_in_points(t, row, col) ? "%+.3g" : "%+.3g%%", d);
	else if (il_scn_cell_in_points(t, row, col))
		snprintf(buf, size, "%+.2f", d);
	else
		snprintf(buf, size, "%+.1f%%", d);
	if (!strcmp(buf, "-0.00") || !strcmp(buf, "-0.0%"))
		buf[0] = '+';
	return buf;
}

const char *scn_sim_text(const struct il_scn_table *t, int row, int col, double v, bool has_sim,
			    char *buf, size_t size)
{
	if (!has_sim) {
		snprintf(buf, size, "-");
		return buf;
	}
	return scn_num(v, cell_decimals(t, row, col), buf, size);
}

void scn_diff_desc(const struct il_scn_table *t, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s", t->diff == IL_SCN_DIFF_POINTS
						? "simulated - published (points)"
						: "simulated / published - 1 (%)");
	bool first = true;
	for (int c = 0; c < t->ncols && n < size; c++)
		if (t->col_diff[c] != t->diff) {
			n += (size_t)snprintf(buf + n, size - n, "%s%s", first ? "; in points: " : ", ",
					      t->cols[c]);
			first = false;
		}
	for (int r = 0; t->row_points && r < t->nrows && n < size; r++)
		if (t->row_points[r]) {
			n += (size_t)snprintf(buf + n, size - n, "%s%s", first ? "; in points: " : ", ",
					      t->rows[r]);
			first = false;
		}
}

void scn_run_facts(const struct il_scn_report *r, char *buf, size_t size)
{
	if (!r->out) {
		snprintf(buf, size, "from given results");
		return;
	}
	char resumed[96] = "";
	if (r->out->resumed > 0)
		snprintf(resumed, sizeof(resumed), " (%d read from the partial results file, not in the "
			 "times)", r->out->resumed);
	snprintf(buf, size, "%s, seed %llu, %d runs%s, %.1f simulated s in %.1f s (CPU %.1f s)",
		 r->quick ? "quick" : "full", (unsigned long long)r->seed, r->out->runs, resumed,
		 r->out->sim_s, r->out->wall_s, r->out->cpu_s);
}
