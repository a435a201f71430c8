/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output formats of the commands that print data: aligned text tables (for
 * patch mails and terminals), CSV (one header, one observation per row) and
 * JSON. Kept apart from the table API so that code which only passes a
 * format along needs nothing else.
 */
#ifndef IDLELAB_FORMAT_H
#define IDLELAB_FORMAT_H

#ifdef __cplusplus
extern "C" {
#endif

enum il_format { IL_FORMAT_TABLE = 0, IL_FORMAT_CSV, IL_FORMAT_JSON };

/* Parse "table" (or "text"), "csv", "json", any case: 0, or -EINVAL. */
int il_format_parse(const char *s, enum il_format *f);
/* "table", "csv" or "json". */
const char *il_format_name(enum il_format f);

#ifdef __cplusplus
}
#endif

#endif
