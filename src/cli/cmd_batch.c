// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab batch FILE: many sim configurations (platform, kernel, governor,
 * workload and its options, runs, seed, duration, warm-up) from a file in
 * the format of a scenario's configurations (docs/batch.md), run as one
 * set of tasks: on --jobs threads, or over MPI ranks under mpirun or srun
 * (src/batch/). Each configuration's output is what 'idlelab sim' writes
 * for it. With --resume FILE every finished run is kept in FILE, and a
 * rerun with the same FILE runs only the ones it lacks.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dist.h"
#include "progress.h"
#include "run_opts.h"
#include "idlelab/batch.h"
#include "idlelab/scenario.h"
#include "idlelab/sim_report.h"
#include "util.h"

static const char usage[] =
	"usage: idlelab batch FILE [--jobs J] [--seed S] [--quick] [--format table|csv|json]\n"
	"                     [--output OUT] [--resume PARTIAL] [--quiet | --progress]\n"
	"\n"
	"Runs the configurations FILE lists ([config.ID] sections with the keys of a\n"
	"scenario's configurations: platform, kernel, governor, workload, wl, set, pset,\n"
	"sim, runs, duration, warmup, seed; [batch] gives the default platform and seed;\n"
	"docs/batch.md), every run of every configuration one task, longest first.\n"
	"Each configuration's output is what 'idlelab sim' writes for it: tables one\n"
	"after another under '== ID: LABEL ==', one CSV (the header once), or a JSON\n"
	"array of results files, in the order of FILE.\n"
	"\n"
	"  --jobs J           runs at a time on this machine (default: online CPUs)\n"
	"  --seed S           the seed of configurations that give none (default 1)\n"
	"  --quick            the quick.* values of the configurations\n"
	"  --format F         table (default), csv or json\n"
	"  --output OUT       write there instead of standard output (whole or not at all)\n"
	"  --resume PARTIAL   keep each finished run in PARTIAL; when PARTIAL exists, its\n"
	"                     runs are not run again (an interrupted batch goes on)\n"
	"  --quiet            no progress on stderr\n"
	"  --progress         progress on stderr from the start\n"
	"\n"
	"Under 'mpirun -np N idlelab batch FILE' (or srun --mpi=pmix) the runs are dealt\n"
	"to the N ranks as they ask for them; rank 0 writes the same bytes as --jobs 1.\n"
	"A run that fails is named by configuration and seed; the other configurations\n"
	"are written and the exit status is 1.\n";

/* Each configuration's output in memory, then joined: the output is whole or absent. */
static int render(const struct il_sim_batch *b, enum il_format fmt, const char *wl_text, char **text,
		  size_t *len)
{
	FILE *m = open_memstream(text, len);
	if (!m)
		return -ENOMEM;
	int r = il_sim_batch_print(b, fmt, wl_text, m);
	if (fclose(m) && !r)
		r = -EIO;
	return r;
}

static int write_all(struct il_scn_outcome *out, const bool *skip, enum il_format fmt, FILE *f)
{
	bool first = true;

	if (fmt == IL_FORMAT_JSON)
		fputs("[\n", f);
	for (int i = 0; i < out->nbatches; i++) {
		struct il_scn_batch *bt = &out->batches[i];
		char *text = NULL;
		size_t len = 0;
		if (skip[i])
			continue;
		int r = render(&bt->b, fmt, bt->wl_text, &text, &len);
		if (r) {
			free(text);
			return r;
		}
		const char *t = text;
		switch (fmt) {
		case IL_FORMAT_JSON:
			while (len && text[len - 1] == '\n')
				len--;
			if (!first)
				fputs(",\n", f);
			break;
		case IL_FORMAT_CSV:
			/* the header once */
			if (!first) {
				const char *nl = memchr(text, '\n', len);
				t = nl ? nl + 1 : text + len;
				len -= (size_t)(t - text);
			}
			break;
		default:
			fprintf(f, "%s== %s: %s ==\n\n", first ? "" : "\n", bt->id,
				out->scn->configs[bt->config].label);
			break;
		}
		fwrite(t, 1, len, f);
		free(text);
		first = false;
	}
	if (fmt == IL_FORMAT_JSON)
		fputs(first ? "]\n" : "\n]\n", f);
	return ferror(f) ? -EIO : 0;
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_RUN_OPT_JOBS,
		CLI_RUN_OPT_SEED,
		CLI_RUN_OPT_QUICK,
		{ "format", required_argument, NULL, 'f' },
		CLI_RUN_OPT_OUTPUT,
		CLI_RUN_OPT_RESUME,
		CLI_RUN_OPT_QUIET,
		CLI_RUN_OPT_PROGRESS,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_run_opts o;
	enum il_format fmt = IL_FORMAT_TABLE;
	int c, r;

	cli_run_opts_init(&o, "batch");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (c == 'f') {
			if (il_format_parse(optarg, &fmt))
				return cli_usage_error("batch", "--format: '%s' is not table, csv "
						       "or json", optarg);
		} else if ((r = cli_run_opt(&o, c, argv))) {
			return r;
		}
	}
	if (optind == argc)
		return cli_usage_error("batch", "a batch FILE is needed");
	if (optind + 1 != argc)
		return cli_usage_error("batch", "one FILE, not also '%s'", argv[optind + 1]);
	if ((r = cli_run_opts_one_progress(&o)) ||
	    (r = cli_name_given("batch", "FILE", "file", argv[optind])) ||
	    (r = cli_output_not_input("batch", "--output", o.output, argv[optind])))
		return r;
	struct il_scn_run_opts ro = { .quick = o.quick, .jobs = o.jobs, .seed = o.seed };

	const char *path = argv[optind];
	struct il_err err;
	char *text;
	size_t len;
	il_err_clear(&err);
	if (il_read_file(path, (size_t)16 << 20, &text, &len, &err))
		return cli_report(&err);
	struct il_scn s;
	if (il_scn_parse_batch(&s, text, len, path, &err)) {
		free(text);
		return cli_report(&err);
	}
	/* what the runs depend on: the file and the options that change them */
	uint64_t fp = il_fnv64(IL_FNV_START, text, len);
	fp = il_fnv64(fp, &ro.seed, sizeof(ro.seed));
	fp = il_fnv64(fp, &ro.quick, sizeof(ro.quick));
	free(text);

	struct il_scn_outcome out;
	if (il_scn_prepare(&s, &ro, &out, &err)) {
		il_scn_free(&s);
		return cli_report(&err);
	}
	int nb = out.nbatches, ret = 0;
	struct il_sim_batch **bs = calloc((size_t)nb, sizeof(*bs));
	bool *skip = calloc((size_t)nb, sizeof(*skip));
	struct il_partial *partial = NULL;
	if (!bs || !skip) {
		ret = cli_error("out of memory");
		goto done;
	}
	for (int i = 0; i < nb; i++)
		bs[i] = &out.batches[i].b;
	int loaded = 0;
	if (cli_run_resume_open(&o, fp, bs, nb, out.runs, &partial, &loaded)) {
		ret = 1;
		goto done;
	}
	struct cli_progress *pg = cli_progress_start("batch", "runs", out.runs - loaded,
						     cli_progress_cost(bs, nb), cli_run_progress(&o));
	il_scn_outcome_hook(&out, cli_progress_step, pg);
	int fb = 0, failed = 0;
	r = il_sim_batches_run(bs, nb, &fb, &err);
	cli_progress_stop(pg);
	if (r == -ECHILD) {
		/* the runs that failed, by configuration and seed; the others are written */
		for (int i = 0; i < nb; i++) {
			for (int k = 0; k < bs[i]->nconfigs; k++)
				if (bs[i]->failed[k][0]) {
					cli_error("batch: %s", bs[i]->failed[k]);
					failed++;
				}
			if (il_sim_batch_drop_failed(bs[i]) == 0)
				skip[i] = true;
		}
		r = 0;
	}
	if (r) {
		char inner[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 32];
		il_err_format(&err, inner, sizeof(inner));
		ret = cli_error("%s:%d: configuration %s: %s", path, s.configs[out.batches[fb].config].line,
				out.batches[fb].id, inner);
		goto done;
	}
	struct il_out of;
	if (il_out_open(&of, o.output, &err)) {
		ret = cli_report(&err);
		goto done;
	}
	int w = write_all(&out, skip, fmt, of.f);
	if (il_out_close(&of, w == 0, &err))
		ret = cli_report(&err);
	else if (w)
		ret = cli_error("batch: the output was not written: %s", strerror(-w));
	if (!ret && failed)
		ret = cli_error("batch: %d configuration%s left out: %s", failed, failed > 1 ? "s" : "",
				o.resume ? "the partial results file keeps the runs that finished" :
				"rerun with --resume FILE to keep the runs that finish");
done:
	cli_run_resume_close(partial, bs, nb);
	free(bs);
	free(skip);
	il_scn_outcome_free(&out);
	il_scn_free(&s);
	return ret;
}

const struct il_command cmd_batch = {
	.name = "batch",
	.summary = "run a file of sim configurations (threads, or MPI ranks under mpirun/srun)",
	.usage = usage,
	.run = run,
};
