/* SPDX-License-Identifier: GPL-2.0-only */
/* idlelab info over time (src/cli/info_live.c), for cmd_info.c. */
#ifndef IDLELAB_CLI_INFO_H
#define IDLELAB_CLI_INFO_H

#include <stdint.h>

#include "idlelab/err.h"
#include "idlelab/report.h"
#include "idlelab/sysfs.h"

/* --interval D [--count N] (count 0: until SIGINT/SIGTERM); returns the exit status. */
int info_interval(const char *root, const struct il_cpulist *only, enum il_format fmt,
		  int64_t interval_ns, long count);
/* --diff A B; returns the exit status. */
int info_diff(const char *a, const char *b, const struct il_cpulist *only, enum il_format fmt);
/* The metadata text --save writes beside a copy of root (malloc'ed), NULL on error. */
char *info_save_meta(const char *root, struct il_err *err);

#endif
