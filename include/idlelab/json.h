/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one JSON writer of idlelab: every command's JSON output goes through
 * it, so every document is valid JSON whatever the data holds.
 *
 * - Strings are escaped (quote, backslash, control characters) and are
 *   always valid UTF-8: a byte that does not start a well-formed UTF-8
 *   sequence (overlong forms, surrogates and code points above U+10FFFF
 *   included) is written as U+FFFD, one per byte.
 * - Numbers are numbers; a double that is NaN or infinite is null.
 * - Layout: a container is opened inline ("[1, 2]", {"a": 1, "b": 2}) or as
 *   a block (each element on its own line, indented two spaces per
 *   enclosing block; the closing bracket on a line of its own). An empty
 *   container is "[]" or "{}" either way.
 *
 * Misuse (a value in an object without a key, a key in an array, closing
 * more than was opened, nesting deeper than IL_JSON_DEPTH_MAX) writes
 * nothing more and makes il_json_finish() fail.
 */
#ifndef IDLELAB_JSON_H
#define IDLELAB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IL_JSON_DEPTH_MAX 32

enum il_json_layout { IL_JSON_INLINE = 0, IL_JSON_BLOCK };

struct il_json_level {
	bool object, block, nonempty;
};

struct il_json {
	FILE *out;
	int depth;              /* open containers */
	int blocks;             /* of which block containers */
	bool after_key;         /* a key was written, its value is next */
	bool done;              /* the top-level value is complete */
	bool bad;               /* misused: see above */
	struct il_json_level level[IL_JSON_DEPTH_MAX];
};

void il_json_init(struct il_json *w, FILE *out);
/* Open an object or array (as a value: after a key in an object). */
void il_json_object(struct il_json *w, enum il_json_layout layout);
void il_json_array(struct il_json *w, enum il_json_layout layout);
/* Close the innermost open container. */
void il_json_end(struct il_json *w);
/* The next member's key (inside an object). */
void il_json_key(struct il_json *w, const char *key);

void il_json_string(struct il_json *w, const char *s);   /* NULL is null */
void il_json_int(struct il_json *w, long long v);
void il_json_uint(struct il_json *w, unsigned long long v);
void il_json_double(struct il_json *w, double v);        /* %.17g; not finite: null */
/* A number already formatted ("12.50"); null if text is not a JSON number. */
void il_json_number_text(struct il_json *w, const char *text);
void il_json_bool(struct il_json *w, bool v);
void il_json_null(struct il_json *w);

/* Key and value in one call. */
void il_json_kstring(struct il_json *w, const char *key, const char *s);
void il_json_kint(struct il_json *w, const char *key, long long v);
void il_json_kuint(struct il_json *w, const char *key, unsigned long long v);
void il_json_kdouble(struct il_json *w, const char *key, double v);
void il_json_kbool(struct il_json *w, const char *key, bool v);
void il_json_knull(struct il_json *w, const char *key);

/*
 * End the document with a newline. 0, -EINVAL if the writer was misused or
 * a container is still open, -EIO if the stream has an error.
 */
int il_json_finish(struct il_json *w);

/* A JSON string literal of s (quotes included) on out, as the writer does. */
void il_json_write_string(FILE *out, const char *s);
/* Is text one JSON number (RFC 8259 grammar, whole string)? */
bool il_json_is_number(const char *text);

#ifdef __cplusplus
}
#endif

#endif
