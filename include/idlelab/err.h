/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Error reports.
 *
 * Library functions return a negative errno-style code (or NULL) and leave a
 * message in a caller-owned struct il_err. The CLI prints it as
 * "idlelab: FILE:LINE: what is wrong" (or without FILE:LINE when unknown).
 */
#ifndef IDLELAB_ERR_H
#define IDLELAB_ERR_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IL_ERR_MSG_MAX 512
#define IL_ERR_FILE_MAX 256

struct il_err {
	char file[IL_ERR_FILE_MAX]; /* file the error is about, "" if none */
	int line;                   /* 1-based line in file, 0 if none */
	char msg[IL_ERR_MSG_MAX];   /* what is wrong, no trailing newline */
};

/* Clear an error report. */
void il_err_clear(struct il_err *err);

/*
 * Fill an error report (err may be NULL). Returns -code if code > 0, else
 * code, so callers can write "return il_err_set(err, EINVAL, ...)".
 */
int il_err_set(struct il_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like il_err_set with the file name and line the error is about. */
int il_err_set_at(struct il_err *err, int code, const char *file, int line,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Format "FILE:LINE: msg", "FILE: msg" or "msg" into buf. */
const char *il_err_format(const struct il_err *err, char *buf, unsigned size);

#ifdef __cplusplus
}
#endif

#endif
