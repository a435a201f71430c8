// SPDX-License-Identifier: GPL-2.0-only
/* idlelab: git-style command dispatcher. */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "../kgov/kgov.h"
#include "dist.h"
#include "idlelab/report.h"

#ifndef IDLELAB_VERSION
#define IDLELAB_VERSION "unknown"
#endif

static const struct il_command *const commands[] = {
	&cmd_info, &cmd_platforms, &cmd_platform, &cmd_governors, &cmd_governor, &cmd_replay, &cmd_sim,
	&cmd_compare, &cmd_plot, &cmd_doctor, &cmd_capture, &cmd_sweep, &cmd_latency, &cmd_scenario,
	&cmd_trace, &cmd_batch, NULL,
};

/*
 * A message on stderr with what a terminal would act on escaped: messages
 * quote names and values read from files (include/idlelab/report.h).
 */
/* A command said itself that standard output could not be written. */
static bool stdout_reported;

static void message(const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;

	if (msg) {
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		if (strstr(msg, "standard output: cannot write"))
			stdout_reported = true;
		il_text_fputs_lines(msg, stderr);
		free(msg);
	} else {
		fputs(fmt, stderr);
	}
}

int cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("idlelab: ", stderr);
	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

int cli_report(const struct il_err *err)
{
	char buf[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 32];
	return cli_error("%s", il_err_format(err, buf, sizeof(buf)));
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fputs("idlelab: ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'idlelab help%s%s'.\n", cmd ? " " : "", cmd ? cmd : "");
	return 2;
}

int cli_name_given(const char *cmd, const char *opt, const char *what, const char *name)
{
	if (!name || *name)
		return 0;
	return cli_usage_error(cmd, "%s: an empty %s name", opt, what);
}

int cli_option_once(const char *cmd, const char *opt, const char **slot, bool *given,
		    const char *value, const char *why)
{
	if (given ? *given : *slot != NULL)
		return cli_usage_error(cmd, "%s given twice ('%s', '%s')%s%s", opt, *slot, value,
				       why ? ": " : "", why ? why : "");
	*slot = value;
	if (given)
		*given = true;
	return 0;
}

bool cli_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!a || !b || !strcmp(a, "-") || !strcmp(b, "-"))
		return false;
	/* the same name, or the same file by another name or through a link */
	return !strcmp(a, b) || (!stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
				 sa.st_ino == sb.st_ino);
}

unsigned long long cli_share_bp(size_t part, size_t whole)
{
	unsigned long long bp = whole ? (unsigned long long)part * 10000 / whole : 0;

	return part && !bp ? 1 : bp;
}

int cli_output_not_input(const char *cmd, const char *opt, const char *out, const char *in)
{
	if (!cli_same_file(out, in))
		return 0;
	return cli_usage_error(cmd, "%s %s: the same file as the input %s (writing it would "
			       "replace what is read)", opt, out, in);
}

int cli_format_only(const char *cmd, int argc, char **argv, enum il_format *fmt)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' }, { NULL, 0, NULL, 0 },
	};
	int c;

	*fmt = IL_FORMAT_TABLE;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:f:", opts, NULL)) != -1) {
		if (c == 'f') {
			if (il_format_parse(optarg, fmt))
				return cli_usage_error(cmd, "unknown format '%s'", optarg);
		} else if (c == ':') {
			return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
		} else {
			return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	return 0;
}

static const struct il_command *find(const char *name)
{
	for (int i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void general_help(FILE *out)
{
	fprintf(out,
		"usage: idlelab [--version] [--help] <command> [<options>]\n\n"
		"idlelab models the Linux cpuidle subsystem: governors, idle drivers, the idle loop.\n\n"
		"Commands:\n");
	for (int i = 0; commands[i]; i++)
		fprintf(out, "   %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\nSee 'idlelab help <command>' for a command's options.\n");
}

static int help(int argc, char **argv)
{
	if (argc < 2) {
		general_help(stdout);
		return 0;
	}
	const struct il_command *c = find(argv[1]);
	if (!c)
		return cli_usage_error(NULL, "'%s' is not an idlelab command", argv[1]);
	if (argc > 2)
		return cli_usage_error(NULL, "help: unexpected argument '%s' (help COMMAND)", argv[2]);
	fputs(c->usage, stdout);
	return 0;
}

/*
 * What went to standard output must have arrived: a full disk or a closed
 * descriptor is an error (exit 1) with its reason, not a silent success
 * (the buffer is otherwise flushed after main returns, unchecked).
 */
int cli_finish_stdout(int rc)
{
	errno = 0;
	int flush = fflush(stdout);
	int e = errno;

	if (flush == 0 && !ferror(stdout))
		return rc;
	if (!stdout_reported) {
		if (flush != 0 && e)
			cli_error("standard output: cannot write: %s", strerror(e));
		else
			cli_error("standard output: cannot write");
	}
	return rc ? rc : 1;
}

int main(int argc, char **argv)
{
	/* under mpirun or srun: join the job (src/batch/mpi.c) */
	il_dist_init(&argc, &argv);
	if (argc < 2) {
		general_help(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("idlelab %s\n", IDLELAB_VERSION);
		return cli_finish_stdout(0);
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help"))
		return cli_finish_stdout(help(argc - 1, argv + 1));
	const struct il_command *c = find(cmd);
	if (!c)
		return cli_usage_error(NULL, "'%s' is not an idlelab command", cmd);
	/* --governor ./NAME.so and file:FILE.c (docs/own-governor.md) */
	il_kgov_install();
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(c->usage, stdout);
			return cli_finish_stdout(0);
		}
	return cli_finish_stdout(c->run(argc - 1, argv + 1));
}
