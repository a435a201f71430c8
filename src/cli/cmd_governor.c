// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab governor build|check: a governor from a kernel source file
 * (docs/own-governor.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/governor.h"
#include "idlelab/release.h"
#include "idlelab/replay.h"
#include "../kgov/kgov.h"
#include "util.h"

static size_t has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n > m && !strcmp(s + n - m, suf);
}

/* Build src (a .c file) and put the object's path in so. 0, or 1 after the message. */
static int build(const char *src, const char *rel, const char *out, char *so, size_t size)
{
	struct il_err err;
	char *log = NULL;

	il_err_clear(&err);
	int r = il_kgov_build(src, rel, out, so, size, &log, &err);
	if (log && log[0])
		fputs(log, stderr);
	free(log);
	return r < 0 ? cli_report(&err) : 0;
}

static int parse(int argc, char **argv, const char **rel, const char **out, const char **against)
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "against", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":k:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'k': {
			struct il_err err;
			if (il_release_check(optarg, &err))
				return cli_usage_error("governor", "--kernel: %s", err.msg);
			*rel = optarg;
			break;
		}
		case 'o':
			if (!out)
				return cli_usage_error("governor", "-o is an option of build");
			if (!*optarg)
				return cli_usage_error("governor", "-o: an empty file name");
			*out = optarg;
			break;
		case 'a':
			if (!against)
				return cli_usage_error("governor", "--against is an option of check");
			*against = optarg;
			break;
		case ':':
			return cli_usage_error("governor", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("governor", "unknown option '%s'", argv[optind - 1]);
		}
	}
	return 0;
}

static int gov_build(int argc, char **argv)
{
	const char *rel = NULL, *out = NULL;
	char so[4096];
	int r = parse(argc, argv, &rel, &out, NULL);

	if (r)
		return r;
	if (optind + 1 != argc)
		return cli_usage_error("governor", "build takes one FILE.c");
	if (!has_suffix(argv[optind], ".c"))
		return cli_usage_error("governor", "%s: not a C file (FILE.c)", argv[optind]);
	/* the object must not replace the governor file it is built from */
	if (out && (r = cli_output_not_input("governor", "-o", out, argv[optind])))
		return r;
	if ((r = build(argv[optind], rel, out, so, sizeof(so))))
		return r;
	printf("%s\n", so);
	return 0;
}

/* One log through both governors: 0 all agree, 3 some differ, 1 error. */
static int check_log(const char *path, const char *mine, const char *against, const char *label)
{
	struct il_replay_log log;
	struct il_replay_engine ea, eb;
	struct il_gov *ga = NULL, *gb = NULL;
	struct il_err err;
	size_t agree = 0, first = (size_t)-1;
	struct il_replay_decision fa = { 0 }, fb = { 0 };
	int rc = 1;

	memset(&log, 0, sizeof(log));
	memset(&ea, 0, sizeof(ea));
	memset(&eb, 0, sizeof(eb));
	il_err_clear(&err);
	if (il_replay_log_load(&log, path, &err)) {
		rc = cli_report(&err);
		goto done;
	}
	/* checking nothing must not pass, as replay --strict refuses no decisions */
	if (!log.nrows) {
		rc = cli_error("%s: no rows: nothing to check the governor on", path);
		goto done;
	}
	int ncpus = log.ncpus > 0 ? log.ncpus : 1;
	if (!(ga = il_gov_new(mine, ncpus, &err)) || !(gb = il_gov_new(against, ncpus, &err)) ||
	    il_replay_engine_init(&ea, &log, ga, &err) ||
	    il_replay_engine_init(&eb, &log, gb, &err)) {
		rc = cli_report(&err);
		goto done;
	}
	for (size_t i = 0; i < log.nrows; i++) {
		int line = log.row_line ? log.row_line[i] : 0;
		if (il_gov_watch)
			il_gov_watch->row = line;
		struct il_replay_decision a = il_replay_step(&ea, &log.rows[i]);
		struct il_replay_decision b = il_replay_step(&eb, &log.rows[i]);

		if (a.selected < 0) {
			rc = cli_error("%s:%d: governor %s returned an invalid state index", path,
				       line, label);
			goto done;
		}
		if (a.selected == b.selected && a.stop_tick == b.stop_tick)
			agree++;
		else if (first == (size_t)-1) {
			first = i;
			fa = a;
			fb = b;
		}
	}
	/* truncated: rounded, one row in 40000 differing printed "(100.00%)" */
	unsigned long long bp = cli_share_bp(agree, log.nrows);
	printf("%s: %zu rows, %zu agree (%llu.%02llu%%)\n", path, log.nrows, agree, bp / 100,
	       bp % 100);
	if (first != (size_t)-1)
		printf("  first difference: row %zu (line %d, cpu %d): %s selects %d stop_tick=%d, "
		       "%s selects %d stop_tick=%d\n", first,
		       log.row_line ? log.row_line[first] : 0, log.rows[first].cpu, label,
		       fa.selected, fa.stop_tick, gb->spec, fb.selected, fb.stop_tick);
	rc = agree == log.nrows ? 0 : 3;
done:
	il_replay_engine_free(&ea);
	il_replay_engine_free(&eb);
	il_gov_free(ga);
	il_gov_free(gb);
	il_replay_log_free(&log);
	return rc;
}

struct check_arg {
	const char *path, *mine, *against, *label;
};

static int check_child(void *arg)
{
	const struct check_arg *a = arg;

	return check_log(a->path, a->mine, a->against, a->label);
}

static int gov_check(int argc, char **argv)
{
	const char *rel = NULL, *against = NULL;
	char so[4096], spec[96];
	int r = parse(argc, argv, &rel, NULL, &against);

	if (r)
		return r;
	if (!against)
		return cli_usage_error("governor", "check needs --against SPEC");
	if (argc - optind < 2)
		return cli_usage_error("governor", "check takes FILE.c (or OBJ.so) and at least one LOG");
	const char *file = argv[optind];
	for (int i = optind + 1; i < argc; i++)
		if ((r = cli_name_given("governor", "LOG", "file", argv[i])))
			return r;
	struct il_err err;
	il_err_clear(&err);
	/* a file: SPEC that names no release is built for --kernel, as FILE.c is */
	char against_at[4096];
	const char *built = il_spec_file_at(against, rel, against_at, sizeof(against_at));
	if (!built)
		return cli_usage_error("governor", "--against %s@%s: name too long", against, rel);
	against = built;
	struct il_gov *g = il_gov_new(against, 1, &err);
	if (!g)
		return cli_usage_error("governor", "--against %s: %s", against, err.msg);
	/* a loaded SPEC runs in the same child: a crash there may be either's */
	char name[512];
	snprintf(name, sizeof(name), "%s%s%s", file, il_gov_is_loaded(g) ? " or " : "",
		 il_gov_is_loaded(g) ? against : "");
	il_gov_free(g);
	if (has_suffix(file, ".c")) {
		if ((r = build(file, rel, NULL, so, sizeof(so))))
			return r;
	} else if (has_suffix(file, ".so")) {
		if (rel)
			return cli_usage_error("governor", "--kernel %s: %s is built already (--kernel "
					       "is the release a FILE.c is built for)", rel, file);
		snprintf(so, sizeof(so), "%s%s", strchr(file, '/') ? "" : "./", file);
	} else {
		return cli_usage_error("governor", "%s: neither FILE.c nor OBJ.so", file);
	}
	if ((size_t)snprintf(spec, sizeof(spec), "%s", so) >= sizeof(spec))
		return cli_error("%s: path over %zu characters", so, sizeof(spec) - 1);
	/*
	 * Each log in a child process: a crash or a loop of the file's governor
	 * is reported at its row, and the other logs are still checked.
	 */
	int worst = 0, failed = 0;
	for (int i = optind + 1; i < argc; i++) {
		struct check_arg a = { argv[i], spec, against, file };
		r = cli_contained(name, argv[i], check_child, &a);
		if (r == 1)
			failed = 1;
		else if (r > worst)
			worst = r;
	}
	return failed ? 1 : worst;
}

static int governor_run(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("governor", "build or check?");
	if (!strcmp(argv[1], "build"))
		return gov_build(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return gov_check(argc - 1, argv + 1);
	return cli_usage_error("governor", "unknown subcommand '%s' (build, check)", argv[1]);
}

const struct il_command cmd_governor = {
	.name = "governor",
	.summary = "build a governor from a kernel source file, check it against a preset",
	.usage = "usage: idlelab governor build FILE.c [--kernel REL] [-o NAME.so]\n"
		 "       idlelab governor check FILE.c|OBJ.so --against SPEC [--kernel REL] LOG...\n\n"
		 "build compiles a cpuidle governor file of the kernel\n"
		 "(drivers/cpuidle/governors/menu.c, or your own in its style), unmodified,\n"
		 "with the system compiler ($CC, else cc) against idlelab's kernel-API layer\n"
		 "into a shared object and prints its path. Without -o the object goes to the\n"
		 "cache ($XDG_CACHE_HOME/idlelab, else ~/.cache/idlelab), named by a hash of\n"
		 "the preprocessed source. sim and replay load it with --governor ./NAME.so or\n"
		 "--governor file:FILE.c (built on the way). Loading an object runs its code\n"
		 "with your rights: load only what you built from sources you trust.\n\n"
		 "check replays each LOG through the file's governor and the preset SPEC\n"
		 "(menu@6.12) and prints, per log, the rows on which both make the same\n"
		 "decision (state and stop_tick) and the first row on which they differ. It\n"
		 "exits 0 when every row agrees, 3 when some differ.\n\n"
		 "  --kernel REL    the release the file is from (sets LINUX_VERSION_CODE)\n"
		 "  -o, --output F  build: write the object to F instead of the cache\n"
		 "  --against SPEC  check: the governor to compare with (a file:FILE.c that\n"
		 "                  names no @REL is built for --kernel REL too)\n\n"
		 "A file that uses what the layer lacks fails with the compiler's messages\n"
		 "and the list of missing names. docs/own-governor.md has the mapping of\n"
		 "the kernel API onto idlelab's inputs.\n",
	.run = governor_run,
};
