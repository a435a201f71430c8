/* SPDX-License-Identifier: GPL-2.0-only */
/* idlelab trace check, whatif, to-replay (cmd_trace_whatif.c). */
#ifndef IDLELAB_CLI_TRACE_WHATIF_H
#define IDLELAB_CLI_TRACE_WHATIF_H

#include "idlelab/err.h"
#include "idlelab/trace.h"

/* --states DIR|PLATFORM of trace report (cmd_trace.c). */
int load_table(const char *what, struct il_trace_table *tab, struct il_err *err);
/* argv[0] is the subcommand: "check", "whatif" or "to-replay". */
int cli_trace_whatif(int argc, char **argv);

#endif
