/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reports: tables printed as aligned text (for patch mails), CSV or JSON.
 *
 * A table is built row by row from cells; a cell is text or a number, and
 * numbers stay numbers in JSON. The text form right-aligns numbers and
 * escapes what a terminal would act on (il_text_escape); CSV and JSON are
 * valid UTF-8 whatever the cells hold.
 */
#ifndef IDLELAB_REPORT_H
#define IDLELAB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idlelab/format.h"
#include "idlelab/json.h"

#ifdef __cplusplus
extern "C" {
#endif

struct il_table;

struct il_table *il_table_new(const char *title);
void il_table_free(struct il_table *t);
/* Add a column; call before the first row. */
void il_table_col(struct il_table *t, const char *name);
/*
 * The first n columns name a row (cpu, state, ...; 1 unless set): a text
 * table wider than IL_TABLE_WIDTH is printed in slices of its columns that
 * each fit, and every slice repeats these.
 */
void il_table_keys(struct il_table *t, int n);
/* Columns a text table fits in, as a terminal and a patch mail do. */
#define IL_TABLE_WIDTH 100
/*
 * How a text table wider than limit is cut: n units (a column, or a group
 * of them) of widths w[] after the key columns, keyw wide with their
 * separators, sep between two units. Each slice takes, in order, the units
 * that fit (at least one, however wide); the fewest slices that fit are
 * made as even as they can be (the narrowest limit that needs no more).
 * ends[k] (room for n, at least 1) is where slice k ends; returns the slices.
 */
int il_text_slices(const size_t *w, int n, size_t keyw, size_t sep, size_t limit, int *ends);
/* Start a new row; then add one cell per column in order. */
void il_table_row(struct il_table *t);
void il_table_str(struct il_table *t, const char *s);
void il_table_strf(struct il_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void il_table_u64(struct il_table *t, unsigned long long v);
void il_table_i64(struct il_table *t, long long v);
void il_table_dbl(struct il_table *t, double v, int decimals);
/* A cell with no value: "n/a" in text, an empty field in CSV, null in JSON. */
void il_table_na(struct il_table *t);
int il_table_rows(const struct il_table *t);

/*
 * Print in a format: text (title, header, aligned rows; wider than
 * IL_TABLE_WIDTH, in slices of the columns one under the other, a blank line
 * between, the key columns in each, and a text column that ends a slice
 * still too wide folded at spaces under itself), CSV (header and rows; no title) or JSON
 * (an array of objects keyed by column name). CSV and JSON are never sliced.
 */
int il_table_print(const struct il_table *t, enum il_format f, FILE *out);
/* The table's JSON array as the next value of w (rows as inline objects). */
void il_table_json(const struct il_table *t, struct il_json *w);

/*
 * Text for a terminal: every control character a terminal acts on escaped,
 * so a name read from a file cannot move the cursor or change colours:
 * ESC as \e, LF \n, CR \r, TAB \t, other C0 bytes and DEL as \xHH, C1
 * controls (U+0080..U+009F) as \u00HH, bytes that are not UTF-8 as \xHH,
 * and the backslash itself as \\. Printable UTF-8 is kept.
 */
char *il_text_escape(const char *s);                    /* caller frees */
/* The same into buf (cut with "..." when it does not fit); returns buf. */
const char *il_text_esc(const char *s, char *buf, size_t size);
void il_text_fputs(const char *s, FILE *out);
/* The same, keeping line feeds (messages of several lines). */
void il_text_fputs_lines(const char *s, FILE *out);

/*
 * Text already escaped for the terminal, its lines longer than width (in
 * characters) folded at spaces: the folded part indented to the column after
 * the line's first ": " (a "key: value" line), or its own indent plus two
 * when that is past half the width. A word longer than a line stays whole.
 */
void il_text_fold(const char *text, int width, FILE *out);
/*
 * Text written to a memory stream, then folded: il_fold_open() gives the
 * stream (NULL when out of memory), il_fold_close() folds what was written
 * to it into out and frees it (0, or -ENOMEM).
 */
struct il_fold {
	char *buf;
	size_t len;
	FILE *f;
};
FILE *il_fold_open(struct il_fold *fd);
int il_fold_close(struct il_fold *fd, int width, FILE *out);

/* One CSV field (RFC 4180): quoted when it holds , " CR or LF; always valid UTF-8. */
void il_csv_field(const char *s, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
