// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab scenario: published findings rerun from the model
 * (src/scenario/, docs/scenarios.md). list shows the built-in scenarios,
 * show prints one's file, run runs its configurations through the batch
 * machinery and writes the report (the source's tables with published,
 * simulated and difference side by side, checks, estimates, plots).
 * Nothing is written before every run finished: --output DIR appears whole
 * or not at all.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dist.h"
#include "progress.h"
#include "run_opts.h"
#include "idlelab/json.h"
#include "idlelab/report.h"
#include "idlelab/outfile.h"
#include "idlelab/sim_report.h"
#include "idlelab/scenario.h"
#include "util.h"

static const char usage[] =
	"usage: idlelab scenario list [--format table|json]\n"
	"       idlelab scenario show NAME|FILE\n"
	"       idlelab scenario run NAME|FILE [--quick] [--jobs N] [--seed S] [--output DIR]\n"
	"                            [--format table|markdown|json|html] [--quiet | --progress]\n"
	"                            [--resume PARTIAL]\n"
	"\n"
	"Reruns a published finding on the model: the source's machine, kernels,\n"
	"workloads, run counts and lengths (docs/scenarios.md). NAME is a built-in\n"
	"scenario (idlelab scenario list) or a scenario file.\n"
	"\n"
	"  --quick         the scenario's shorter variant (fewer or shorter runs)\n"
	"  --jobs N        runs at a time (default: online CPUs)\n"
	"  --seed S        seed of run 1 (run k uses S+k-1; default 1)\n"
	"  --output DIR    also write DIR (must not exist): report.txt, report.md,\n"
	"                  report.json, report.html (tables and SVG plots, one page) and\n"
	"                  sim-CONFIG.json per configuration (what idlelab compare reads)\n"
	"  --format F      the report on standard output: table (default, 100 columns),\n"
	"                  markdown, json or html\n"
	"  --quiet         no progress on stderr (shown by default when stderr is a\n"
	"                  terminal and the runs take more than 2 s)\n"
	"  --progress      progress on stderr from the start, one line per change, also\n"
	"                  when stderr is not a terminal\n"
	"  --resume PARTIAL  keep each finished run in PARTIAL; when PARTIAL exists (the\n"
	"                  same command line and scenario), its runs are not run again\n"
	"\n"
	"Under 'mpirun -np N' or 'srun --mpi=pmix' the runs are dealt to the N ranks, and\n"
	"rank 0 writes the report (docs/batch.md).\n";

/* ------------------------------------------------------------------ list */

static void duration_text(double s, char *buf, size_t size)
{
	if (s < 90)
		snprintf(buf, size, "%.0f s", s);
	else if (s < 5400)
		snprintf(buf, size, "%.0f min", s / 60);
	else
		snprintf(buf, size, "%.1f h", s / 3600);
}

static int cmd_list(int argc, char **argv)
{
	bool json = false;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			if (!strcmp(argv[i + 1], "json"))
				json = true;
			else if (strcmp(argv[i + 1], "table"))
				return cli_usage_error("scenario", "--format: '%s' is not table or json",
						       argv[i + 1]);
			i++;
		} else {
			return cli_usage_error("scenario", "list: unexpected '%s'", argv[i]);
		}
	}
	struct il_json w;
	if (json) {
		il_json_init(&w, stdout);
		il_json_array(&w, IL_JSON_BLOCK);
	}
	for (int i = 0; i < il_builtin_scenario_count; i++) {
		struct il_scn s;
		struct il_scn_cost full, quick;
		struct il_err err;
		char a[32], b[32];
		if (il_scn_load(&s, il_builtin_scenarios[i].name, &err) ||
		    il_scn_cost(&s, false, &full, &err) || il_scn_cost(&s, true, &quick, &err)) {
			il_scn_free(&s);
			return cli_report(&err);
		}
		const struct il_scn_source *src = s.nsources ? &s.sources[0] : NULL;
		if (json) {
			il_json_object(&w, IL_JSON_INLINE);
			il_json_kstring(&w, "name", s.name);
			il_json_kstring(&w, "title", s.title);
			il_json_kstring(&w, "platform", s.platform);
			il_json_kstring(&w, "source", src ? src->author : NULL);
			il_json_kstring(&w, "date", src ? src->date : NULL);
			il_json_key(&w, "configurations");
			il_json_array(&w, IL_JSON_INLINE);
			for (int c = 0; c < s.nconfigs; c++)
				il_json_string(&w, s.configs[c].id);
			il_json_end(&w);
			il_json_kint(&w, "runs", full.runs);
			il_json_kdouble(&w, "simulated_s", full.sim_s);
			il_json_kdouble(&w, "estimated_s", full.est_wall_s);
			il_json_kint(&w, "quick_runs", quick.runs);
			il_json_kdouble(&w, "quick_simulated_s", quick.sim_s);
			il_json_kdouble(&w, "quick_estimated_s", quick.est_wall_s);
			il_json_end(&w);
		} else {
			/* lines folded to the tables' width (a long list of configurations) */
			struct il_fold fd;
			FILE *f = il_fold_open(&fd);
			if (!f) {
				il_scn_free(&s);
				return cli_error("out of memory");
			}
			fprintf(f, "%s%s\n  %s\n", i ? "\n" : "", s.name, s.title);
			if (src)
				fprintf(f, "  source: %s, %s%s%s\n", src->author, src->list ? src->list : "",
					src->list ? " " : "", src->date);
			fprintf(f, "  platform: %s\n  configurations:", s.platform);
			for (int c = 0; c < s.nconfigs; c++)
				fprintf(f, " %s", s.configs[c].id);
			if (s.nsens)
				fprintf(f, "; %d estimate%s rerun at other values", s.nsens,
					s.nsens > 1 ? "s" : "");
			duration_text(full.est_wall_s, a, sizeof(a));
			duration_text(quick.est_wall_s, b, sizeof(b));
			fprintf(f, "\n  runs: %d full (%.0f simulated s, about %s), %d quick (%.0f s, about %s)\n",
				full.runs, full.sim_s, a, quick.runs, quick.sim_s, b);
			if (il_fold_close(&fd, IL_TABLE_WIDTH, stdout)) {
				il_scn_free(&s);
				return cli_error("out of memory");
			}
		}
		il_scn_free(&s);
	}
	if (json) {
		il_json_end(&w);
		if (il_json_finish(&w))
			return cli_error("standard output: cannot write");
	} else {
		printf("\n(times: a rough estimate on one core, from each workload's options at %.0f M\n"
		       "idle periods simulated per second; a bound where runs collapse or end early;\n"
		       "--jobs divides them)\n", IL_SIM_EST_PERIODS_PER_S / 1e6);
	}
	return 0;
}

/* ------------------------------------------------------------------ show */

static int cmd_show(int argc, char **argv)
{
	if (argc != 3)
		return cli_usage_error("scenario", "show takes one NAME or FILE");
	struct il_scn s;
	struct il_err err;
	if (il_scn_load(&s, argv[2], &err))
		return cli_report(&err);
	il_scn_free(&s);
	for (int i = 0; i < il_builtin_scenario_count; i++)
		if (!strcmp(il_builtin_scenarios[i].name, argv[2])) {
			fwrite(il_builtin_scenarios[i].text, 1, il_builtin_scenarios[i].len, stdout);
			return 0;
		}
	char *text;
	size_t len;
	if (il_read_file(argv[2], (size_t)16 << 20, &text, &len, &err))
		return cli_report(&err);
	fwrite(text, 1, len, stdout);
	free(text);
	return 0;
}

/* ------------------------------------------------------------------ run */

/* Write one report file of DIR's temporary (0 or 1 after the message). */
static int write_file(const struct il_outdir *d, const char *name, const struct il_scn_report *r,
		      enum il_scn_format f, const struct il_sim_batch *b, const char *wl_text)
{
	struct il_out o;
	struct il_err err;
	char *path = il_xcalloc(1, strlen(d->tmp) + strlen(name) + 2);
	int ret = 0;

	sprintf(path, "%s/%s", d->tmp, name);
	if (il_out_open(&o, path, &err)) {
		free(path);
		return cli_report(&err);
	}
	int w = b ? il_results_write(b, wl_text, o.f) : il_scn_report_write(r, f, o.f, &err);
	if (w < 0) {
		il_out_close(&o, false, NULL);
		ret = b ? cli_error("%s/%s: cannot write", d->name, name) : cli_report(&err);
	} else if (il_out_close(&o, true, &err)) {
		/* name the file as the user will see it */
		ret = cli_error("%s/%s: %s", d->name, name, err.msg);
	}
	free(path);
	return ret;
}

/* sim-ID.json; a sensitivity batch's "baseline@pm-timer*0.5" as "baseline@pm-timer-x0.5" */
static void result_name(const struct il_scn_batch *b, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "sim-");
	for (const char *p = b->id; *p && n + 8 < size; p++) {
		if (*p == '*') {
			buf[n++] = '-';
			buf[n++] = 'x';
		} else {
			buf[n++] = *p;
		}
	}
	snprintf(buf + n, size - n, ".json");
}

static int write_outputs(const char *dir, const struct il_scn_report *r,
			 const struct il_scn_outcome *out)
{
	static const struct {
		const char *name;
		enum il_scn_format f;
	} files[] = {
		{ "report.txt", IL_SCN_TEXT }, { "report.md", IL_SCN_MARKDOWN },
		{ "report.json", IL_SCN_JSON }, { "report.html", IL_SCN_HTML },
	};
	struct il_outdir d;
	struct il_err err;
	int ret = 0;

	if (il_outdir_open(&d, dir, &err))
		return cli_report(&err);
	for (size_t i = 0; !ret && i < sizeof(files) / sizeof(files[0]); i++)
		ret = write_file(&d, files[i].name, r, files[i].f, NULL, NULL);
	for (int i = 0; !ret && i < out->nbatches; i++) {
		char name[128];
		result_name(&out->batches[i], name, sizeof(name));
		ret = write_file(&d, name, r, IL_SCN_JSON, &out->batches[i].b, out->batches[i].wl_text);
	}
	if (il_outdir_close(&d, ret == 0, &err) && !ret)
		ret = cli_report(&err);
	return ret;
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_RUN_OPT_QUICK,
		CLI_RUN_OPT_JOBS,
		CLI_RUN_OPT_SEED,
		CLI_RUN_OPT_OUTPUT_DIR,
		{ "format", required_argument, NULL, 'f' },
		CLI_RUN_OPT_QUIET,
		CLI_RUN_OPT_PROGRESS,
		CLI_RUN_OPT_RESUME,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_run_opts o;
	enum il_scn_format fmt = IL_SCN_TEXT;
	int c, r;

	cli_run_opts_init(&o, "scenario");
	optind = 1;
	opterr = 0;
	/* argv[0] is "run" here; options may follow the name */
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (c == 'f') {
			if (il_scn_format_parse(optarg, &fmt))
				return cli_usage_error("scenario", "--format: '%s' is not table, markdown, json "
						       "or html", optarg);
		} else if ((r = cli_run_opt(&o, c, argv))) {
			return r;
		}
	}
	if (optind == argc)
		return cli_usage_error("scenario", "run needs a NAME or FILE");
	if (optind + 1 != argc)
		return cli_usage_error("scenario", "run takes one NAME or FILE, not also '%s'",
				       argv[optind + 1]);
	if ((r = cli_run_opts_one_progress(&o)))
		return r;
	struct il_scn_run_opts ro = { .quick = o.quick, .jobs = o.jobs, .seed = o.seed };

	struct il_scn s;
	struct il_err err;
	if (il_scn_load(&s, argv[optind], &err))
		return cli_report(&err);
	/* refuse an existing output before anything runs */
	if (o.output && il_outdir_check_new(o.output, &err)) {
		il_scn_free(&s);
		return cli_report(&err);
	}
	char what[96];
	snprintf(what, sizeof(what), "scenario %s", s.name);
	struct il_scn_outcome out;
	if (il_scn_prepare(&s, &ro, &out, &err)) {
		il_scn_free(&s);
		return cli_report(&err);
	}
	/* the partial results file: the runs depend on the scenario's text and the options */
	struct il_partial *partial = NULL;
	int loaded = 0;
	struct il_sim_batch **bs = il_xcalloc((size_t)out.nbatches, sizeof(*bs));
	for (int i = 0; i < out.nbatches; i++)
		bs[i] = &out.batches[i].b;
	if (o.resume && il_dist_rank() == 0) {
		static const char *const skip[] = { "--format", NULL };
		static const bool has_value[] = { true };
		uint64_t fp = cli_run_args_fingerprint(argc, argv, skip, has_value);
		char *text = NULL;
		size_t len = 0;
		for (int i = 0; i < il_builtin_scenario_count; i++)
			if (!strcmp(il_builtin_scenarios[i].name, argv[optind]))
				fp = il_fnv64(fp, il_builtin_scenarios[i].text, il_builtin_scenarios[i].len);
		if (!strncmp(s.file, "builtin:", 8) || !il_read_file(argv[optind], (size_t)16 << 20, &text,
								     &len, &err))
			fp = il_fnv64(fp, text ? text : "", len);
		free(text);
		if (cli_run_resume_open(&o, fp, bs, out.nbatches, out.runs, &partial, &loaded)) {
			free(bs);
			il_scn_outcome_free(&out);
			il_scn_free(&s);
			return 1;
		}
	}
	out.resumed = loaded;
	struct cli_progress *pg = cli_progress_start(what, "runs", out.runs - loaded,
						     cli_progress_cost(bs, out.nbatches),
						     cli_run_progress(&o));
	il_scn_outcome_hook(&out, cli_progress_step, pg);
	int ret = 0;
	int er = il_scn_execute(&out, &ro, &err);
	cli_progress_stop(pg);
	cli_run_resume_close(partial, bs, out.nbatches);
	free(bs);
	if (er) {
		ret = cli_report(&err);
		goto done;
	}
	struct il_scn_cfg_runs cfg[IL_SCN_CONFIGS_MAX];
	struct il_scn_data data;
	struct il_scn_report rep;
	il_scn_outcome_data(&out, &data, cfg);
	if (il_scn_report_build(&rep, &s, &data, &out, &err)) {
		ret = cli_report(&err);
		goto done;
	}
	if (o.output)
		ret = write_outputs(o.output, &rep, &out);
	if (!ret) {
		if (il_scn_report_write(&rep, fmt, stdout, &err))
			ret = cli_report(&err);
		else if (fflush(stdout) || ferror(stdout))
			ret = cli_error("standard output: cannot write: %s", strerror(errno));
	}
	il_scn_report_free(&rep);
done:
	il_scn_outcome_free(&out);
	il_scn_free(&s);
	return ret;
}

static int run(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("scenario", "a subcommand is needed: list, show or run");
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc, argv);
	if (!strcmp(argv[1], "show"))
		return cmd_show(argc, argv);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	return cli_usage_error("scenario", "unknown subcommand '%s' (list, show, run)", argv[1]);
}

const struct il_command cmd_scenario = {
	.name = "scenario",
	.summary = "rerun a published finding on the model; published and simulated side by side",
	.usage = usage,
	.run = run,
};
