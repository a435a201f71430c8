// SPDX-License-Identifier: GPL-2.0-only
/* Tables as text, CSV or JSON (include/idlelab/report.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "idlelab/report.h"
#include "report_internal.h"
#include "util.h"

enum cell_kind { CELL_STR, CELL_NUM, CELL_NA };

struct cell {
	enum cell_kind kind;
	char *text;
};

struct il_table {
	char *title;
	int ncols, nrows, cap;
	int nkeys;          /* leading columns repeated in every slice of a wide text table */
	char **cols;
	struct cell *cells; /* nrows * ncols */
	int cur;            /* next cell index in current row */
};

int il_format_parse(const char *s, enum il_format *f)
{
	if (!strcasecmp(s, "table") || !strcasecmp(s, "text"))
		*f = IL_FORMAT_TABLE;
	else if (!strcasecmp(s, "csv"))
		*f = IL_FORMAT_CSV;
	else if (!strcasecmp(s, "json"))
		*f = IL_FORMAT_JSON;
	else
		return -EINVAL;
	return 0;
}

const char *il_format_name(enum il_format f)
{
	return f == IL_FORMAT_CSV ? "csv" : f == IL_FORMAT_JSON ? "json" : "table";
}

struct il_table *il_table_new(const char *title)
{
	struct il_table *t = il_xrealloc(NULL, sizeof(*t));
	memset(t, 0, sizeof(*t));
	t->title = il_xstrdup(title ? title : "");
	t->nkeys = 1;
	return t;
}

void il_table_keys(struct il_table *t, int n)
{
	t->nkeys = n < 0 ? 0 : n;
}

void il_table_free(struct il_table *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	for (int i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].text);
	free(t->cols);
	free(t->cells);
	free(t->title);
	free(t);
}

void il_table_col(struct il_table *t, const char *name)
{
	t->cols = il_xrealloc(t->cols, sizeof(char *) * (size_t)(t->ncols + 1));
	t->cols[t->ncols++] = il_xstrdup(name);
}

void il_table_row(struct il_table *t)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->cells = il_xrealloc(t->cells, sizeof(struct cell) * (size_t)t->cap * (size_t)t->ncols);
	}
	for (int i = 0; i < t->ncols; i++) {
		t->cells[t->nrows * t->ncols + i].kind = CELL_NA;
		t->cells[t->nrows * t->ncols + i].text = NULL;
	}
	t->nrows++;
	t->cur = 0;
}

static void put(struct il_table *t, enum cell_kind k, const char *s)
{
	if (!t->nrows || t->cur >= t->ncols)
		return;
	struct cell *c = &t->cells[(t->nrows - 1) * t->ncols + t->cur++];
	c->kind = k;
	c->text = s ? il_xstrdup(s) : NULL;
}

void il_table_str(struct il_table *t, const char *s) { put(t, CELL_STR, s); }

void il_table_strf(struct il_table *t, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(t, CELL_STR, buf);
}

void il_table_u64(struct il_table *t, unsigned long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%llu", v);
	put(t, CELL_NUM, buf);
}

void il_table_i64(struct il_table *t, long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", v);
	put(t, CELL_NUM, buf);
}

void il_table_dbl(struct il_table *t, double v, int decimals)
{
	char buf[64];
	if (!isfinite(v)) {
		put(t, CELL_NA, NULL);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	put(t, CELL_NUM, buf);
}

void il_table_na(struct il_table *t) { put(t, CELL_NA, NULL); }

int il_table_rows(const struct il_table *t) { return t->nrows; }

static const char *cell_text(const struct cell *c)
{
	return c->kind == CELL_NA ? "n/a" : c->text;
}

void il_table_json(const struct il_table *t, struct il_json *w)
{
	il_json_array(w, IL_JSON_BLOCK);
	for (int r = 0; r < t->nrows; r++) {
		il_json_object(w, IL_JSON_INLINE);
		for (int i = 0; i < t->ncols; i++) {
			const struct cell *c = &t->cells[r * t->ncols + i];
			il_json_key(w, t->cols[i]);
			if (c->kind == CELL_NA)
				il_json_null(w);
			else if (c->kind == CELL_NUM)
				il_json_number_text(w, c->text);
			else
				il_json_string(w, c->text);
		}
		il_json_end(w);
	}
	il_json_end(w);
}

static void print_csv(const struct il_table *t, FILE *out)
{
	for (int i = 0; i < t->ncols; i++) {
		if (i)
			fputc(',', out);
		il_csv_field(t->cols[i], out);
	}
	fputc('\n', out);
	for (int r = 0; r < t->nrows; r++) {
		for (int i = 0; i < t->ncols; i++) {
			const struct cell *c = &t->cells[r * t->ncols + i];
			if (i)
				fputc(',', out);
			if (c->kind != CELL_NA)
				il_csv_field(c->text, out);
		}
		fputc('\n', out);
	}
}

/*
 * Text s, which starts at column col, folded at spaces to end by column
 * limit: the folded part indented to col. A word longer than the room stays
 * whole.
 */
static void put_folded(const char *s, size_t col, size_t limit, FILE *out)
{
	size_t at = col;
	bool first = true;

	for (;;) {
		s += strspn(s, " ");
		size_t n = strcspn(s, " ");
		if (!n)
			break;
		size_t ww = (size_t)il_text_width_n(s, n);
		if (!first && at + 1 + ww > limit) {
			fprintf(out, "\n%*s", (int)col, "");
			at = col;
		} else if (!first) {
			fputc(' ', out);
			at++;
		}
		fwrite(s, 1, n, out);
		at += ww;
		first = false;
		s += n;
	}
}

/* Aligned text; every header and cell escaped for the terminal. */
/*
 * The key columns and columns [from, to), one block of the text table. A
 * text column last in a block wider than IL_TABLE_WIDTH (a description) is
 * folded under itself, so that the block fits.
 */
static void print_slice(const struct il_table *t, char **text, char **head, const size_t *w,
			int nkeys, int from, int to, FILE *out)
{
	int n = nkeys + to - from;
	size_t start = 0; /* where the last column starts */
	bool fold = true;

	for (int j = 0; j + 1 < n; j++)
		start += w[j < nkeys ? j : from + j - nkeys] + 2;
	for (int r = 0; r < t->nrows && fold; r++)
		fold = t->cells[r * t->ncols + from + n - nkeys - 1].kind != CELL_NUM;
	/* only with room for a few words: a narrower column is left whole */
	fold = fold && start + w[from + n - nkeys - 1] > IL_TABLE_WIDTH &&
	       start + 20 <= IL_TABLE_WIDTH;
	for (int r = -1; r < t->nrows; r++) {
		for (int j = 0; j < n; j++) {
			int i = j < nkeys ? j : from + j - nkeys;
			const char *s = r < 0 ? head[i] : text[r * t->ncols + i];
			int pad = (int)(w[i] - il_text_width(s));
			bool last = j + 1 == n;
			if (r >= 0 && t->cells[r * t->ncols + i].kind == CELL_NUM) {
				fprintf(out, "%*s%s", pad, "", s);
			} else if (last && fold) {
				put_folded(s, start, IL_TABLE_WIDTH, out);
			} else {
				fputs(s, out);
				if (!last)
					fprintf(out, "%*s", pad, "");
			}
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
	}
}

/* Units [from, n) cut greedily at limit: the slices, their ends in ends (if not NULL). */
static int cut(const size_t *w, int n, size_t keyw, size_t sep, size_t limit, int *ends)
{
	int k = 0, from = 0;

	do {
		int to = from;
		size_t width = keyw;
		while (to < n && (to == from || width + w[to] <= limit))
			width += w[to++] + sep;
		if (ends)
			ends[k] = to;
		k++;
		from = to;
	} while (from < n);
	return k;
}

int il_text_slices(const size_t *w, int n, size_t keyw, size_t sep, size_t limit, int *ends)
{
	int k = cut(w, n, keyw, sep, limit, NULL);

	if (k > 1)
		while (limit > keyw && cut(w, n, keyw, sep, limit - 1, NULL) == k)
			limit--;
	return cut(w, n, keyw, sep, limit, ends);
}

static int print_text(const struct il_table *t, FILE *out)
{
	size_t ncells = (size_t)t->nrows * (size_t)t->ncols;
	char **text = calloc(ncells + (size_t)t->ncols, sizeof(*text));
	size_t *w = calloc((size_t)t->ncols + 1, sizeof(size_t));
	char **head = text + ncells;

	if (!text || !w) {
		free(text);
		free(w);
		return -ENOMEM;
	}
	for (int i = 0; i < t->ncols; i++) {
		head[i] = il_text_escape(t->cols[i]);
		w[i] = il_text_width(head[i]);
	}
	for (size_t k = 0; k < ncells; k++) {
		size_t l;
		text[k] = il_text_escape(cell_text(&t->cells[k]));
		l = il_text_width(text[k]);
		if (l > w[k % (size_t)t->ncols])
			w[k % (size_t)t->ncols] = l;
	}
	if (t->title[0]) {
		il_text_fputs(t->title, out);
		fputc('\n', out);
	}
	/* slices of the columns after the keys, each with the keys (il_text_slices()) */
	int nkeys = t->nkeys < t->ncols ? t->nkeys : t->ncols;
	size_t keyw = 0;
	for (int i = 0; i < nkeys; i++)
		keyw += w[i] + 2;
	int *ends = il_xcalloc((size_t)(t->ncols - nkeys) + 1, sizeof(*ends));
	int nslices = il_text_slices(w + nkeys, t->ncols - nkeys, keyw, 2, IL_TABLE_WIDTH, ends);
	for (int k = 0, from = nkeys; k < nslices; from = nkeys + ends[k++]) {
		if (k)
			fputc('\n', out);
		print_slice(t, text, head, w, nkeys, from, nkeys + ends[k], out);
	}
	free(ends);
	for (size_t k = 0; k < ncells + (size_t)t->ncols; k++)
		free(text[k]);
	free(text);
	free(w);
	return 0;
}

int il_table_print(const struct il_table *t, enum il_format f, FILE *out)
{
	if (f == IL_FORMAT_CSV) {
		print_csv(t, out);
	} else if (f == IL_FORMAT_JSON) {
		struct il_json w;
		il_json_init(&w, out);
		il_table_json(t, &w);
		if (il_json_finish(&w) == -EINVAL)
			return -EINVAL;
	} else {
		int r = print_text(t, out);
		if (r)
			return r;
	}
	return ferror(out) ? -EIO : 0;
}
