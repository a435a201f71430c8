/* SPDX-License-Identifier: GPL-2.0-only */
/* The idlelab command: subcommands and shared helpers. */
#ifndef IDLELAB_CLI_H
#define IDLELAB_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "idlelab/err.h"
#include "idlelab/outfile.h"

struct il_command {
	const char *name;
	const char *summary;                  /* one line for "idlelab help" */
	const char *usage;                    /* full text for "idlelab help NAME" */
	int (*run)(int argc, char **argv);    /* argv[0] is the command name */
};

extern const struct il_command cmd_info, cmd_platforms, cmd_platform, cmd_governors, cmd_governor, cmd_replay,
	cmd_sim, cmd_compare, cmd_plot, cmd_capture, cmd_doctor, cmd_sweep, cmd_latency,
	cmd_scenario, cmd_trace, cmd_batch;

/* Print "idlelab: MSG" to stderr; returns 1 (the exit code for bad input). */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print an il_err as "idlelab: FILE:LINE: msg"; returns 1. */
int cli_report(const struct il_err *err);
/* "unknown option" / "missing value" messages with a pointer to help; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A file or directory name (what: "file", "directory") given with opt (an
 * option, or the argument's name such as LOG for an argument) must not be
 * empty: "--output: an empty file name", cli_usage_error()'s 2. NULL (not
 * given) is 0.
 */
int cli_name_given(const char *cmd, const char *opt, const char *what, const char *name);
/*
 * An option that names one thing (where others repeat into configurations):
 * *slot takes value, or a second value, which would silently replace the
 * first, is refused as "OPT given twice ('A', 'B')[: WHY]". given says
 * whether one came already, for a slot that holds a default; NULL: *slot
 * being set says it. 0, or cli_usage_error()'s 2.
 */
int cli_option_once(const char *cmd, const char *opt, const char **slot, bool *given,
		    const char *value, const char *why);
/*
 * Are a and b the same file: the same name, or the same file by another
 * name or through a symbolic link? "-" and NULL are never the same.
 */
bool cli_same_file(const char *a, const char *b);
/*
 * Refuse an output file (of option opt) that is the input in (cli_same_file):
 * writing it would replace what is read. Returns 0, or cli_usage_error()'s 2
 * naming the option and both paths.
 */
/*
 * part of whole in hundredths of a per cent, for "NN.NN %": truncated, so a
 * share short of all (one differing row in 40000) is never 100.00, and at
 * least 1 when part is not 0, so some is never 0.00; 0 when whole is 0.
 */
unsigned long long cli_share_bp(size_t part, size_t whole);

int cli_output_not_input(const char *cmd, const char *opt, const char *out, const char *in);
/*
 * The options of a command whose only option is --format (governors,
 * platforms): 0 with *fmt set, or cli_usage_error()'s 2 for an unknown
 * option, a missing or unknown format, or an argument.
 */
enum il_format;
int cli_format_only(const char *cmd, int argc, char **argv, enum il_format *fmt);
/*
 * Run fn(arg), which uses the loaded governor name, in a child process
 * (src/cli/contain.c): its exit status, or 1 after printing "[FILE:ROW: ]
 * governor NAME crashed (SIGSEGV) in select ..." (ROW: the replay row the
 * child was at, il_gov_watch->row) when the governor crashed or looped.
 */
int cli_contained(const char *name, const char *file, int (*fn)(void *), void *arg);
/*
 * Flush standard output and check it: rc when everything arrived, else
 * "standard output: cannot write: REASON" (unless already said) and rc,
 * or 1 when rc is 0. main() ends with it, and so does a contained child.
 */
int cli_finish_stdout(int rc);

#endif
