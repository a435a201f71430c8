// SPDX-License-Identifier: GPL-2.0-only
/* Error reports (see include/idlelab/err.h). */
#include <stdio.h>
#include <string.h>

#include "idlelab/err.h"

void il_err_clear(struct il_err *err)
{
	if (!err)
		return;
	err->file[0] = '\0';
	err->line = 0;
	err->msg[0] = '\0';
}

static int vset(struct il_err *err, int code, const char *file, int line,
		const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
static int vset(struct il_err *err, int code, const char *file, int line,
		const char *fmt, va_list ap)
{
	if (err) {
		snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
		err->line = line;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return code > 0 ? -code : code;
}

int il_err_set(struct il_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vset(err, code, NULL, 0, fmt, ap);
	va_end(ap);
	return r;
}

int il_err_set_at(struct il_err *err, int code, const char *file, int line,
		  const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vset(err, code, file, line, fmt, ap);
	va_end(ap);
	return r;
}

const char *il_err_format(const struct il_err *err, char *buf, unsigned size)
{
	if (err->file[0] && err->line > 0)
		snprintf(buf, size, "%s:%d: %s", err->file, err->line, err->msg);
	else if (err->file[0])
		snprintf(buf, size, "%s: %s", err->file, err->msg);
	else
		snprintf(buf, size, "%s", err->msg);
	return buf;
}
