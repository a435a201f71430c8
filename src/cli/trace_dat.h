/* SPDX-License-Identifier: GPL-2.0-only */
/* trace-cmd .dat files for idlelab trace report (trace_dat.c). */
#ifndef IDLELAB_CLI_TRACE_DAT_H
#define IDLELAB_CLI_TRACE_DAT_H

#include <stdbool.h>

#include "idlelab/err.h"
#include "idlelab/trace.h"

/* Whether this idlelab was built with libtracecmd. */
bool cli_trace_have_dat(void);
/*
 * Read a .dat file into t: each record is fed to the text reader as the
 * line trace-cmd report prints for it, then il_trace_finish(). Without
 * libtracecmd, an error that says how to convert the file.
 */
int cli_trace_read_dat(struct il_trace *t, const char *path, struct il_err *err);

#endif
