/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run options: what the commands that run batches (idlelab sim, batch,
 * scenario run) share: --jobs, --seed, --quick, --output, --quiet,
 * --progress and --resume, parsed in one place with one set of messages,
 * and the partial results file of --resume opened and closed the same way.
 * A command lists the ones it takes in its getopt_long table (CLI_RUN_OPT_*
 * entries) and hands every code it does not handle itself to cli_run_opt.
 */
#ifndef IDLELAB_CLI_RUN_OPTS_H
#define IDLELAB_CLI_RUN_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "progress.h"
#include "idlelab/batch.h"

struct il_partial;

/* getopt_long values of the run options, above every character a command uses */
enum {
	CLI_RO_JOBS = 0x100,
	CLI_RO_SEED,
	CLI_RO_QUICK,
	CLI_RO_OUTPUT,                /* --output FILE */
	CLI_RO_OUTPUT_DIR,            /* --output DIR */
	CLI_RO_QUIET,
	CLI_RO_PROGRESS,
	CLI_RO_RESUME,
};

#define CLI_RUN_OPT_JOBS       { "jobs", required_argument, NULL, CLI_RO_JOBS }
#define CLI_RUN_OPT_SEED       { "seed", required_argument, NULL, CLI_RO_SEED }
#define CLI_RUN_OPT_QUICK      { "quick", no_argument, NULL, CLI_RO_QUICK }
#define CLI_RUN_OPT_OUTPUT     { "output", required_argument, NULL, CLI_RO_OUTPUT }
#define CLI_RUN_OPT_OUTPUT_DIR { "output", required_argument, NULL, CLI_RO_OUTPUT_DIR }
#define CLI_RUN_OPT_QUIET      { "quiet", no_argument, NULL, CLI_RO_QUIET }
#define CLI_RUN_OPT_PROGRESS   { "progress", no_argument, NULL, CLI_RO_PROGRESS }
#define CLI_RUN_OPT_RESUME     { "resume", required_argument, NULL, CLI_RO_RESUME }

struct cli_run_opts {
	const char *cmd;              /* the command, as the messages name it */
	int jobs;                     /* runs at a time: --jobs 1..256, else online CPUs */
	uint64_t seed;                /* the seed of run 1 (default 1) */
	bool quick;                   /* the quick.* values */
	bool quiet, progress;         /* progress on stderr never, or from the start */
	const char *output;           /* --output, or NULL */
	const char *resume;           /* --resume: the partial results file, or NULL */
};

/* The defaults, for command cmd ("sim", "batch", "scenario"). */
void cli_run_opts_init(struct cli_run_opts *o, const char *cmd);
/*
 * One code getopt_long returned (optarg and optind as it left them): 0 when
 * it was a run option, its value taken; else 2 after the usage message: a
 * value that is not one (naming the option), a value missing (':'), an
 * option the command does not take.
 */
int cli_run_opt(struct cli_run_opts *o, int c, char **argv);
/* For a command that refuses --quiet with --progress: 0, or 2 after the message. */
int cli_run_opts_one_progress(const struct cli_run_opts *o);
/* The progress mode they ask for (--quiet wins). */
enum cli_progress_mode cli_run_progress(const struct cli_run_opts *o);
/*
 * A fingerprint of the command line for the partial results file: every
 * argument but the run options that do not change the runs' results
 * (--jobs, --output, --resume, --quiet, --progress) and the command's own
 * such options (more: NULL-terminated, more_value: whether each takes a
 * value).
 */
uint64_t cli_run_args_fingerprint(int argc, char **argv, const char *const *more,
				  const bool *more_value);
/*
 * With --resume, on rank 0: open the partial results file for the nb
 * batches (prepared) of runs runs in all, and say how many runs it had
 * ("idlelab: CMD: L of N runs from FILE, M to run"). 0, with *pp (NULL
 * without --resume) and *loaded set; or 1 after the message.
 */
int cli_run_resume_open(const struct cli_run_opts *o, uint64_t fingerprint,
			struct il_sim_batch *const *bs, int nb, int runs, struct il_partial **pp,
			int *loaded);
/* Close it (NULL: nothing): the batches keep their results, and no longer point to it. */
void cli_run_resume_close(struct il_partial *p, struct il_sim_batch *const *bs, int nb);

#endif
