// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run options of idlelab sim, batch and scenario run (run_opts.h): one
 * parser, one set of messages, one way to open the partial results file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "dist.h"
#include "run_opts.h"
#include "util.h"
#include "../kgov/kgov.h"

void cli_run_opts_init(struct cli_run_opts *o, const char *cmd)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	*o = (struct cli_run_opts){
		.cmd = cmd,
		.jobs = cpus < 1 ? 1 : (int)cpus,
		.seed = 1,
	};
}

/* A file or directory name: not empty. */
static int name_arg(const struct cli_run_opts *o, const char *opt, const char *what,
		    const char *arg, const char **to)
{
	if (!*arg)
		return cli_usage_error(o->cmd, "--%s: an empty %s name", opt, what);
	*to = arg;
	return 0;
}

int cli_run_opt(struct cli_run_opts *o, int c, char **argv)
{
	switch (c) {
	case CLI_RO_JOBS:
		if (il_parse_int(optarg, &o->jobs) || o->jobs < 1 || o->jobs > 256)
			return cli_usage_error(o->cmd, "--jobs: '%s' is not a number 1..256",
					       optarg);
		return 0;
	case CLI_RO_SEED:
		if (il_parse_u64(optarg, &o->seed))
			return cli_usage_error(o->cmd, "--seed: '%s' is not an unsigned integer",
					       optarg);
		return 0;
	case CLI_RO_QUICK:
		o->quick = true;
		return 0;
	case CLI_RO_OUTPUT:
		return name_arg(o, "output", "file", optarg, &o->output);
	case CLI_RO_OUTPUT_DIR:
		return name_arg(o, "output", "directory", optarg, &o->output);
	case CLI_RO_QUIET:
		o->quiet = true;
		return 0;
	case CLI_RO_PROGRESS:
		o->progress = true;
		return 0;
	case CLI_RO_RESUME:
		return name_arg(o, "resume", "file", optarg, &o->resume);
	case ':':
		return cli_usage_error(o->cmd, "option '%s' needs a value", argv[optind - 1]);
	default:
		return cli_usage_error(o->cmd, "unknown option '%s'", argv[optind - 1]);
	}
}

int cli_run_opts_one_progress(const struct cli_run_opts *o)
{
	if (o->quiet && o->progress)
		return cli_usage_error(o->cmd, "--quiet and --progress exclude each other");
	return 0;
}

enum cli_progress_mode cli_run_progress(const struct cli_run_opts *o)
{
	return o->quiet ? CLI_PROGRESS_OFF : o->progress ? CLI_PROGRESS_FORCE : CLI_PROGRESS_AUTO;
}

uint64_t cli_run_args_fingerprint(int argc, char **argv, const char *const *more,
				  const bool *more_value)
{
	const char *skip[16] = { "--jobs", "--output", "--resume", "--quiet", "--progress" };
	bool value[16] = { true, true, true, false, false };
	int n = 5;

	for (int i = 0; more && more[i] && n < 15; i++, n++) {
		skip[n] = more[i];
		value[n] = more_value[i];
	}
	skip[n] = NULL;
	return il_partial_args(argc, argv, skip, value);
}

int cli_run_resume_open(const struct cli_run_opts *o, uint64_t fingerprint,
			struct il_sim_batch *const *bs, int nb, int runs, struct il_partial **pp,
			int *loaded)
{
	*pp = NULL;
	*loaded = 0;
	/* the ranks other than 0 neither read nor write it: rank 0 gathers the results */
	if (!o->resume || il_dist_rank() != 0)
		return 0;
	/* the output, written at the end, would replace the runs kept for a resume */
	struct stat so, sr;
	if (o->output && (!strcmp(o->output, o->resume) ||
			  (!stat(o->output, &so) && !stat(o->resume, &sr) && so.st_dev == sr.st_dev &&
			   so.st_ino == sr.st_ino)))
		return cli_error("%s: --output and --resume name the same file", o->resume);
	/* a platform file's text: the command line and a batch file name only its path */
	for (int i = 0; i < nb; i++) {
		const char *path = bs[i]->platform->file;
		struct il_err err;
		char *text;
		size_t len;
		if (!strncmp(path, "builtin:", 8))
			continue;
		if (il_read_file(path, (size_t)64 << 20, &text, &len, &err))
			return cli_report(&err);
		fingerprint = il_fnv64(fingerprint, text, len);
		free(text);
	}
	/*
	 * a loaded governor's object: its name (file:X.c, X.so) stays the same
	 * when the file is edited or the object rebuilt, and the runs of the old
	 * one must not be taken as the new one's
	 */
	for (int i = 0; i < nb; i++)
		for (int c = 0; c < bs[i]->nconfigs; c++) {
			/* as prepared: file:X.c@REL under a kernel release */
			const char *spec = bs[i]->gov_names[c][0] ? bs[i]->gov_names[c]
								   : bs[i]->configs[c].gov_spec;
			char path[4096];
			struct il_err err;
			char *text;
			size_t len;
			if (!il_kgov_is_file_spec(spec))
				continue;
			if (il_kgov_object(spec, path, sizeof(path), &err) ||
			    il_read_file(path, (size_t)256 << 20, &text, &len, &err))
				return cli_report(&err);
			fingerprint = il_fnv64(fingerprint, text, len);
			free(text);
		}
	if (il_partial_open(pp, o->resume, fingerprint, bs, nb, loaded))
		return 1;
	if (*loaded)
		fprintf(stderr, "idlelab: %s: %d of %d runs from %s, %d to run\n", o->cmd, *loaded,
			runs, o->resume, runs - *loaded);
	return 0;
}

void cli_run_resume_close(struct il_partial *p, struct il_sim_batch *const *bs, int nb)
{
	if (!p)
		return;
	il_partial_close(p);
	for (int i = 0; i < nb; i++) {
		bs[i]->have = NULL;
		bs[i]->result_done = NULL;
		bs[i]->run_dealt = NULL;
	}
}
