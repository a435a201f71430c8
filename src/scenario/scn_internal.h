/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared inside src/scenario/. */
#ifndef IDLELAB_SCN_INTERNAL_H
#define IDLELAB_SCN_INTERNAL_H

#include <stdio.h>

#include "idlelab/scenario.h"

/* Split "a | b | c" into trimmed fields (copies, caller frees each and the array). */
int scn_split(const char *text, char sep, char ***fields);
void scn_split_free(char **fields, int n);

/* A published number as the source prints it: "494,834", "+8.85%", "-8.02%", "0.162". */
int scn_pub_number(const char *text, double *v);

/* The report's numbers as text (numbers.c, below report.c and html.c). */

/* A number for text output: fixed decimals, "n/a" for NAN. */
const char *scn_num(double v, int decimals, char *buf, size_t size);

/* A cell's simulated value at the published precision ("-" when the cell has none). */
const char *scn_sim_text(const struct il_scn_table *t, int row, int col, double v, bool has_sim,
			 char *buf, size_t size);
/* A difference in the table's mode ("+12.3%", "-0.41"; "-" for none). */
const char *scn_diff_text(const struct il_scn_table *t, int row, int col, double d, char *buf,
			  size_t size);

/* How the report's runs were made: "full, seed 1, 85 runs (17 read from the
 * partial results file, not in the times), ... simulated s in ... s (CPU ... s)". */
void scn_run_facts(const struct il_scn_report *r, char *buf, size_t size);

/* "simulated / published - 1 (%); in points: gain" */
void scn_diff_desc(const struct il_scn_table *t, char *buf, size_t size);

/* Output helpers of the report writers (report.c, html.c). */
void scn_html_text(FILE *out, const char *s);

/* The HTML page of a report (html.c). */
int scn_html_report(const struct il_scn_report *r, FILE *out, struct il_err *err);

/* The source line of a table: "author, list date, "subject", <id>". */
void scn_cite(const struct il_scn *s, const char *source_id, char *buf, size_t size);

#endif
