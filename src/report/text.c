// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text as it leaves idlelab: UTF-8 validation (once, for JSON, CSV and the
 * terminal), escapes for text meant for a terminal, CSV fields.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/report.h"
#include "report_internal.h"
#include "util.h"

size_t il_utf8_len(const unsigned char *p, size_t n)
{
	size_t len;
	unsigned cp;

	if (n == 0 || p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	len = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	cp = p[0] & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* overlong 3- and 4-byte forms, beyond U+10FFFF, UTF-16 surrogates */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* The code point of a valid sequence of len bytes. */
static unsigned utf8_cp(const unsigned char *p, size_t len)
{
	unsigned cp = p[0] & (len == 1 ? 0x7fu : 0x7fu >> len);

	for (size_t i = 1; i < len; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	return cp;
}

/*
 * Escape s into out (size >= 1; always NUL-terminated). Returns the length
 * the whole escaped text has (as snprintf), so out was big enough if the
 * result is < size.
 */
static size_t escape(const char *s, bool keep_lines, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0;
	bool fits = true;

	for (size_t i = 0; i < n;) {
		char e[12];
		size_t elen, len = 1;
		unsigned char c = p[i];

		if (c == '\\') {
			elen = (size_t)snprintf(e, sizeof(e), "\\\\");
		} else if (c == 0x1b) {
			elen = (size_t)snprintf(e, sizeof(e), "\\e");
		} else if (c == '\n' && keep_lines) {
			e[0] = '\n';
			elen = 1;
		} else if (c == '\n') {
			elen = (size_t)snprintf(e, sizeof(e), "\\n");
		} else if (c == '\r') {
			elen = (size_t)snprintf(e, sizeof(e), "\\r");
		} else if (c == '\t') {
			elen = (size_t)snprintf(e, sizeof(e), "\\t");
		} else if (c < 0x20 || c == 0x7f) {
			elen = (size_t)snprintf(e, sizeof(e), "\\x%02x", c);
		} else if (c < 0x80) {
			e[0] = (char)c;
			elen = 1;
		} else if ((len = il_utf8_len(p + i, n - i))) {
			unsigned cp = utf8_cp(p + i, len);
			if (cp >= 0x80 && cp <= 0x9f) {
				elen = (size_t)snprintf(e, sizeof(e), "\\u%04x", cp); /* C1 */
			} else {
				memcpy(e, p + i, len);
				elen = len;
			}
		} else {
			len = 1;
			elen = (size_t)snprintf(e, sizeof(e), "\\x%02x", c); /* not UTF-8 */
		}
		if (fits && o + elen >= size) {
			out[o] = '\0'; /* stop at a whole escape; keep counting */
			fits = false;
		}
		if (fits)
			memcpy(out + o, e, elen);
		o += elen;
		i += len;
	}
	if (fits)
		out[o] = '\0';
	return o;
}

static char *escape_dup(const char *s, bool keep_lines)
{
	char one;
	size_t n = escape(s, keep_lines, &one, 1);
	char *buf = il_xrealloc(NULL, n + 1);

	escape(s, keep_lines, buf, n + 1);
	return buf;
}

char *il_text_escape(const char *s)
{
	return escape_dup(s, false);
}

const char *il_text_esc(const char *s, char *buf, size_t size)
{
	if (escape(s, false, buf, size) >= size && size >= 4) {
		size_t end = strlen(buf); /* cut at a whole escape or character */
		if (end > size - 4)
			end = size - 4;
		while (end > 0 && ((unsigned char)buf[end] & 0xc0) == 0x80)
			end--;
		memcpy(buf + end, "...", 4);
	}
	return buf;
}

static void escaped_fputs(const char *s, bool keep_lines, FILE *out)
{
	char *buf = escape_dup(s, keep_lines);

	fputs(buf, out);
	free(buf);
}

void il_text_fputs(const char *s, FILE *out)
{
	escaped_fputs(s, false, out);
}

void il_text_fputs_lines(const char *s, FILE *out)
{
	escaped_fputs(s, true, out);
}

size_t il_text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), w = 0;

	for (size_t i = 0; i < n; w++) {
		size_t len = p[i] < 0x80 ? 1 : il_utf8_len(p + i, n - i);
		i += len ? len : 1;
	}
	return w;
}

/* s as valid UTF-8 (U+FFFD for each byte that is not), '"' doubled if asked. */
static void utf8_write(const char *s, bool double_quotes, FILE *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		size_t len = p[i] < 0x80 ? 1 : il_utf8_len(p + i, n - i);
		if (!len) {
			fputs("\xef\xbf\xbd", out); /* U+FFFD */
			i++;
			continue;
		}
		if (double_quotes && p[i] == '"')
			fputc('"', out);
		fwrite(p + i, 1, len, out);
		i += len;
	}
}

void il_utf8_fputs(const char *s, FILE *out)
{
	utf8_write(s, false, out);
}

void il_csv_field(const char *s, FILE *out)
{
	bool quote = strpbrk(s, ",\"\r\n") != NULL;

	if (quote)
		fputc('"', out);
	utf8_write(s, quote, out);
	if (quote)
		fputc('"', out);
}

/* Width in characters of the first n bytes of s. */
int il_text_width_n(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	int w = 0;

	for (size_t i = 0; i < n; w++) {
		size_t len = p[i] < 0x80 ? 1 : il_utf8_len(p + i, n - i);
		i += len ? len : 1;
	}
	return w;
}

static void fold_line(const char *s, size_t n, int width, FILE *out)
{
	if (il_text_width_n(s, n) <= width) {
		fwrite(s, 1, n, out);
		fputc('\n', out);
		return;
	}
	size_t lead = strspn(s, " ");
	const char *colon = NULL;
	for (size_t k = 0; k + 1 < n && !colon; k++)
		if (s[k] == ':' && s[k + 1] == ' ')
			colon = s + k;
	int indent = colon ? il_text_width_n(s, (size_t)(colon - s) + 2) : 0;
	if (!colon || indent > width / 2)
		indent = (int)lead + 2;
	int col = 0;
	size_t i = 0;
	bool first = true;
	while (i < n) {
		/* the next word and the spaces before it */
		size_t sp = i;
		while (sp < n && s[sp] == ' ')
			sp++;
		size_t end = sp;
		while (end < n && s[end] != ' ')
			end++;
		if (end == sp)
			break; /* trailing spaces */
		int gap = il_text_width_n(s + i, sp - i), ww = il_text_width_n(s + sp, end - sp);
		if (!first && col > indent && col + gap + ww > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			gap = 0;
		}
		fprintf(out, "%*s", gap, "");
		fwrite(s + sp, 1, end - sp, out);
		col += gap + ww;
		first = false;
		i = end;
	}
	fputc('\n', out);
}

void il_text_fold(const char *text, int width, FILE *out)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		fold_line(text, n, width, out);
		text += n + (nl != NULL);
	}
}

FILE *il_fold_open(struct il_fold *fd)
{
	fd->buf = NULL;
	fd->len = 0;
	fd->f = open_memstream(&fd->buf, &fd->len);
	return fd->f;
}

int il_fold_close(struct il_fold *fd, int width, FILE *out)
{
	int r = fclose(fd->f) ? -ENOMEM : 0;

	if (!r)
		il_text_fold(fd->buf, width, out);
	free(fd->buf);
	fd->buf = NULL;
	fd->f = NULL;
	return r;
}
