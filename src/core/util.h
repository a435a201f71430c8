/* SPDX-License-Identifier: GPL-2.0-only */
/* Small string and number helpers shared inside libidlelab. */
#ifndef IDLELAB_UTIL_H
#define IDLELAB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/duration.h"
#include "idlelab/err.h"

/*
 * Allocation that cannot fail: on out-of-memory print "idlelab: out of
 * memory" and abort (for tables and trees whose every step would otherwise
 * need an error path). Zero sizes allocate one byte.
 */
void *il_xcalloc(size_t n, size_t size);
void *il_xrealloc(void *p, size_t n);
char *il_xstrdup(const char *s);

/* Trim leading and trailing white space in place; returns the start. */
char *il_strtrim(char *s);
/*
 * Whole-string integer parsing, decimal or 0x hex (a leading 0 is not
 * octal); 0 on success, -EINVAL/-ERANGE otherwise.
 */
int il_parse_i64(const char *s, int64_t *v);
int il_parse_u64(const char *s, uint64_t *v);
int il_parse_int(const char *s, int *v);
int il_parse_double(const char *s, double *v);
int il_parse_bool(const char *s, bool *v);
/* il_parse_duration_ns(): include/idlelab/duration.h */

/*
 * Read a whole file into a NUL-terminated buffer (*text, to free; *len
 * without the NUL). Errors name the file: cannot open, more than max
 * bytes, out of memory, read error.
 */
int il_read_file(const char *path, size_t max, char **text, size_t *len, struct il_err *err);

/* Write all n bytes to fd, again after EINTR and short writes; 0, or -1 with errno. */
int il_write_all(int fd, const void *p, size_t n);

/*
 * A governor file spec that names the kernel release to build for,
 * "file:X.c@5.4": the length of the spec without "@REL", and *rel pointing
 * to REL (NULL when there is none: any other spec, or an '@' not after ".c").
 */
size_t il_spec_file_release(const char *spec, const char **rel);
/*
 * spec as a run under kernel release rel builds it: "file:X.c" becomes
 * "file:X.c@REL" in buf; spec itself when it names its release already, is
 * not file:X.c, or rel is NULL or ""; NULL when "file:X.c@REL" does not
 * fit in size.
 */
const char *il_spec_file_at(const char *spec, const char *rel, char *buf, size_t size);

#endif
