// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab sim: run a workload on a platform with one or more governors, N
 * times each, in parallel threads, and print what the kernel's counters,
 * the benchmark and the power meter would say (src/sim/, src/workloads/).
 * Everything is computed before the output is opened, so a bad input never
 * leaves a partial file.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "run_opts.h"
#include "idlelab/platform.h"
#include "idlelab/release.h"
#include "idlelab/report.h"
#include "idlelab/batch.h"
#include "idlelab/sim_report.h"
#include "idlelab/workload.h"
#include "util.h"

#define MAX_WL_OPTS 32

static const char usage_head[] =
	"usage: idlelab sim [--platform P] [--governor G[@REL][+PATCH]]... [--kernel REL]\n"
	"                   [--cpufreq [DRIVER:]GOV[+KEY=VALUE]]...\n"
	"                   [--workload W] [--wl-opt KEY=VALUE]... [--duration D] [--warmup D]\n"
	"                   [--runs N] [--seed S] [--jobs J] [--format table|csv|json] [--output FILE]\n"
	"                   [--gov-param NAME=VALUE]... [--set KEY=VALUE]... [--sim-opt KEY=VALUE]...\n"
	"                   [--per-cpu] [--quiet | --progress] [--resume PARTIAL] [--list-workloads]\n"
	"\n"
	"Simulates the kernel's idle loop on platform P (default " IL_DEFAULT_PLATFORM ") under\n"
	"workload W (default sleep-sweep) for each governor (default: the one the kernel\n"
	"would run), N runs each (seeds S, S+1, ...), J runs at a time (default: online CPUs).\n"
	"Without options: a short sleep-sweep (100 wake-ups per interval) on kvm-haltpoll.\n"
	"\n"
	"  --kernel REL       the kernel release the drivers and presets follow, a mainline\n"
	"                     tag 5.4 .. 7.1 (default: the platform's, else 7.1)\n"
	"  --cpufreq SPEC     a cpufreq layer, [DRIVER:]GOVERNOR[+KEY=VALUE]...: DRIVER\n"
	"                     intel_pstate, intel_cpufreq, hwp or acpi-cpufreq; GOVERNOR\n"
	"                     performance, powersave, schedutil or ondemand; keys in\n"
	"                     docs/cpufreq.md. Each value is a configuration (times each\n"
	"                     --governor, 8 at most). Without it: no cpufreq layer, every\n"
	"                     package at its turbo bin\n"
	"  --duration D       simulated time per run (default 1s; a sleep-sweep without\n"
	"                     --wl-opt loops= runs 100 loops for 2s; with a unit: ns/us/ms/s)\n"
	"  --warmup D         the first D of each run left out of every counter and metric\n"
	"                     (the governors' history is kept; --sim-opt warmup=D)\n"
	"  --wl-opt K=V       a workload option (below, and --list-workloads)\n"
	"  --gov-param N=V    a governor module parameter (guest_halt_poll_ns=200000)\n"
	"  --set KEY=VALUE    override a platform boot/module option (idle=poll, ...; the\n"
	"                     names idlelab models: docs/platform-format.md)\n"
	"  --per-cpu          print per-CPU counters (table and CSV) also on more than 16 CPUs\n"
	"  --format F         table (default), csv (tidy: one row per configuration, run\n"
	"                     and metric) or json (every run, what compare and plot read)\n"
	"  --quiet            no progress on stderr (shown by default when stderr is a\n"
	"                     terminal and the runs take more than 2 s)\n"
	"  --progress         progress on stderr from the start, one line per change,\n"
	"                     also when stderr is not a terminal\n"
	"  --resume PARTIAL   keep each finished run in PARTIAL; when PARTIAL exists (the\n"
	"                     same command line), its runs are not run again\n"
	"Under 'mpirun -np N' or 'srun --mpi=pmix' the runs are dealt to the N ranks and rank\n"
	"0 writes what --jobs 1 writes (docs/batch.md).\n"
	"  --sim-opt K=V      an engine option (KEY=DEFAULT; bare numbers of durations are ns):\n";

/* The usage text: the fixed part, then the tables' options (built before main). */
static char usage[16384];

static void usage_add(size_t *n, const char *text)
{
	*n += (size_t)snprintf(usage + *n, *n < sizeof(usage) ? sizeof(usage) - *n : 0, "%s", text);
}

/* --sim-opt trace: where the engine's trace goes (a FILE *, set after parsing) */
struct trace_opt {
	int to;
};
static const char *const trace_to[] = { "off", "stderr", NULL };
static const struct il_opt trace_opts[] = {
	IL_OPT_ENUM(struct trace_opt, to, int, "trace", trace_to, "off",
		    "one line per select, entry, exit, wake-up and task start (use with --jobs 1)"),
	IL_OPT_END,
};

/*
 * "NAME: SUMMARY" folded to the width of the option rows below it (a
 * summary is one line of any length), the folded part under the summary.
 */
static void workload_line(const char *indent, const struct il_workload *wl, FILE *out)
{
	char line[512];

	snprintf(line, sizeof(line), "%s%s: %s", indent, wl->name, wl->summary);
	il_text_fold(line, IL_TABLE_WIDTH, out);
}

static void usage_opts(size_t *n, const struct il_opt *tbl, const char *indent)
{
	*n += il_opts_help(tbl, indent, usage + *n, *n < sizeof(usage) ? sizeof(usage) - *n : 0);
}

__attribute__((constructor)) static void usage_build(void)
{
	size_t n = 0;

	usage_add(&n, usage_head);
	usage_opts(&n, il_sim_opts, "      ");
	usage_opts(&n, trace_opts, "      ");
	usage_add(&n, "\nWorkloads (--workload W) and their options (--wl-opt KEY=VALUE, KEY=DEFAULT;\n"
		      "bare numbers of durations are µs; lists take A..B step S ranges):\n");
	for (int i = 0; il_workloads[i]; i++) {
		struct il_fold fd;

		if (!il_fold_open(&fd))
			abort();
		workload_line("  ", il_workloads[i], fd.f);
		if (fclose(fd.f))
			abort();
		usage_add(&n, fd.buf);
		free(fd.buf);
		usage_opts(&n, il_workloads[i]->opts, "      ");
	}
	if (n >= sizeof(usage))
		abort(); /* the buffer is made for the tables: a test runs 'help sim' */
}

static int sim_opt(struct il_sim_params *p, const char *text)
{
	struct il_wl_opt o;
	struct il_err err;

	il_err_clear(&err);
	if (!il_wl_opt_parse(text, &o, &err))
		return cli_usage_error("sim", "--sim-opt: %s", err.msg);
	const struct il_opt *opt = il_opt_find(trace_opts, o.key);
	if (opt) {
		struct trace_opt t = { 0 };
		if (il_opt_set(opt, &t, o.value, &err))
			return cli_usage_error("sim", "--sim-opt %s", err.msg);
		p->trace = t.to ? stderr : NULL;
		return 0;
	}
	opt = il_opt_find(il_sim_opts, o.key);
	if (!opt)
		return cli_usage_error("sim", "--sim-opt: unknown key '%s'", o.key);
	if (il_opt_set(opt, p, o.value, &err))
		return cli_usage_error("sim", "--sim-opt %s", err.msg);
	return 0;
}

/*
 * "5", "0.5": a duration without its unit. --duration and --warmup take one,
 * as a batch or scenario file's duration and warmup do (5 was 5 ns);
 * --sim-opt warmup=D keeps its bare ns.
 */
static bool bare_number(const char *v)
{
	size_t n = strlen(v);

	return n && (isdigit((unsigned char)v[n - 1]) || v[n - 1] == '.');
}

/*
 * The governor spec (NULL: the one the kernel would run on p) and the
 * --gov-param values: 0, or 2 after a usage message.
 */
static int check_governor(const char *spec, const struct il_platform *p, const char *kernel,
			  const struct il_sim_batch *b)
{
	struct il_machine_idle *m = NULL;
	struct il_err err;
	struct il_gov *g;
	int r = 0;

	if (!spec) {
		m = calloc(1, sizeof(*m));
		if (!m || il_machine_idle_build(p, kernel[0] ? kernel : NULL, m, &err) < 0) {
			free(m);
			return 0; /* the run reports what is wrong with the platform */
		}
		spec = m->governor[0] ? m->governor : "menu";
	}
	/* room for "@REL": a name too long with it is refused, not built for no release */
	char at[4096];
	const char *built = il_spec_file_at(spec, kernel, at, sizeof(at));
	g = built ? il_gov_new(built, 1, &err) : NULL;
	if (!g)
		r = cli_usage_error("sim", "--governor %s: %s", spec,
				    built ? err.msg : "name too long");
	for (int i = 0; g && !r && i < b->ngov_params; i++)
		if (il_gov_set_param(g, b->gov_params[i].key, b->gov_params[i].value, &err) < 0)
			r = cli_usage_error("sim", "--gov-param %s=%s: %s", b->gov_params[i].key,
					    b->gov_params[i].value, err.msg);
	il_gov_free(g);
	free(m);
	return r;
}

static void list_workloads(void)
{
	for (int i = 0; il_workloads[i]; i++) {
		char help[4096];
		il_workload_help(il_workloads[i], help, sizeof(help));
		workload_line("", il_workloads[i], stdout);
		printf("%s\n", help);
	}
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "platform", required_argument, NULL, 'p' },
		{ "governor", required_argument, NULL, 'g' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "cpufreq", required_argument, NULL, 'F' },
		{ "workload", required_argument, NULL, 'w' },
		{ "wl-opt", required_argument, NULL, 'W' },
		{ "duration", required_argument, NULL, 'd' },
		{ "warmup", required_argument, NULL, 'U' },
		{ "runs", required_argument, NULL, 'n' },
		CLI_RUN_OPT_SEED,
		CLI_RUN_OPT_JOBS,
		{ "format", required_argument, NULL, 'f' },
		CLI_RUN_OPT_OUTPUT,
		{ "gov-param", required_argument, NULL, 'G' },
		{ "sim-opt", required_argument, NULL, 'S' },
		{ "set", required_argument, NULL, 'O' },
		{ "list-workloads", no_argument, NULL, 'L' },
		{ "per-cpu", no_argument, NULL, 'P' },
		CLI_RUN_OPT_QUIET,
		CLI_RUN_OPT_PROGRESS,
		CLI_RUN_OPT_RESUME,
		{ NULL, 0, NULL, 0 },
	};
	const char *platform = IL_DEFAULT_PLATFORM, *kernel = "", *wl_name = "sleep-sweep";
	bool platform_set = false, kernel_set = false, wl_set = false;
	struct cli_run_opts ro;
	struct il_partial *partial = NULL;
	const char *govs[8];
	const char *cfs[8];
	const char *sets[16];
	int ncfs = 0;
	int ngovs = 0, nsets = 0, nwl = 0, runs = 1, c, once;
	enum il_format fmt = IL_FORMAT_TABLE;
	struct il_wl_opt wl_opts[MAX_WL_OPTS];
	const char *wl_args[MAX_WL_OPTS]; /* the --wl-opt values as given, for the output */
	int nwl_args = 0;
	struct il_sim_batch b;
	struct il_err err;
	bool user_loops = false, user_duration = false, list_wl = false;
	const char *warmup_arg = NULL; /* what set the warm-up: --warmup D or --sim-opt warmup=D */

	memset(&b, 0, sizeof(b));
	il_sim_params_default(&b.params);
	cli_run_opts_init(&ro, "sim");
	il_err_clear(&err);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			/* --governor and --cpufreq repeat into configurations; these do not */
			if ((once = cli_option_once("sim", "--platform", &platform, &platform_set, optarg,
						 "sim runs one platform (idlelab batch runs several)")))
				return once;
			break;
		case 'g':
			if (ngovs == 8)
				return cli_usage_error("sim", "at most 8 --governor values");
			if (strlen(optarg) >= IL_SIM_SPEC_MAX)
				return cli_usage_error("sim", "--governor: '%s' is longer than %d "
						       "characters", optarg, IL_SIM_SPEC_MAX - 1);
			govs[ngovs++] = optarg;
			break;
		case 'F': {
			struct il_cpufreq_params cp;
			if (ncfs == 8)
				return cli_usage_error("sim", "at most 8 --cpufreq values");
			if (il_cpufreq_parse(optarg, &cp, &err) < 0)
				return cli_usage_error("sim", "--cpufreq: %s", err.msg);
			if (strlen(optarg) >= IL_SIM_SPEC_MAX)
				return cli_usage_error("sim", "--cpufreq: '%s' is longer than %d "
						       "characters", optarg, IL_SIM_SPEC_MAX - 1);
			cfs[ncfs++] = optarg;
			break;
		}
		case 'k':
			if ((once = cli_option_once("sim", "--kernel", &kernel, &kernel_set, optarg,
						 "sim runs one release (governor@REL picks one per "
						 "governor)")))
				return once;
			if (il_release_check(optarg, &err))
				return cli_usage_error("sim", "--kernel: %s", err.msg);
			break;
		case 'w':
			if ((once = cli_option_once("sim", "--workload", &wl_name, &wl_set, optarg,
						 "sim runs one workload (idlelab batch runs several)")))
				return once;
			break;
		case 'W':
			if (nwl == MAX_WL_OPTS)
				return cli_usage_error("sim", "at most %d --wl-opt values", MAX_WL_OPTS);
			if (!il_wl_opt_parse(optarg, &wl_opts[nwl], &err))
				return cli_usage_error("sim", "--wl-opt: %s", err.msg);
			if (!strcmp(wl_opts[nwl].key, "loops"))
				user_loops = true;
			wl_args[nwl_args++] = optarg;
			nwl++;
			break;
		case 'd':
			if (il_parse_duration_ns(optarg, &b.params.duration_ns) || b.params.duration_ns <= 0)
				return cli_usage_error("sim", "--duration: bad duration '%s' (e.g. 500ms, 2s)",
						       optarg);
			if (bare_number(optarg))
				return cli_usage_error("sim", "--duration: '%s' needs a unit (ns, us, ms, s)",
						       optarg);
			user_duration = true;
			break;
		case 'n':
			if (il_parse_int(optarg, &runs) || runs < 1 || runs > 1000)
				return cli_usage_error("sim", "--runs: '%s' is not a number of runs 1..1000",
						       optarg);
			break;
		case 'f':
			if (il_format_parse(optarg, &fmt))
				return cli_usage_error("sim", "--format: '%s' is not table, csv or json", optarg);
			break;
		case 'G':
			if (b.ngov_params == 16)
				return cli_usage_error("sim", "at most 16 --gov-param values");
			if (!il_wl_opt_parse(optarg, &b.gov_params[b.ngov_params], NULL))
				return cli_usage_error("sim", "--gov-param: '%s' is not NAME=VALUE", optarg);
			b.ngov_params++;
			break;
		case 'U': {
			/* the engine's warmup option under its own name, which errors name */
			struct il_err werr;
			il_err_clear(&werr);
			if (il_opt_set(il_opt_find(il_sim_opts, "warmup"), &b.params, optarg, &werr)) {
				const char *m = werr.msg;
				if (!strncmp(m, "warmup: ", 8))
					m += 8;
				/* the engine option's bare ns are not --warmup's: it needs a unit */
				const char *bare = strstr(m, " (bare numbers ns, or with ns/us/ms/s)");
				if (bare)
					return cli_usage_error("sim", "--warmup: %.*s (with a unit: ns, us, "
							       "ms, s)", (int)(bare - m), m);
				return cli_usage_error("sim", "--warmup: %s", m);
			}
			/* 0 is none in any unit */
			if (bare_number(optarg) && strspn(optarg, "0.") != strlen(optarg))
				return cli_usage_error("sim", "--warmup: '%s' needs a unit (ns, us, ms, s)",
						       optarg);
			warmup_arg = optarg;
			break;
		}
		case 'S': {
			int r = sim_opt(&b.params, optarg);
			if (!strncmp(optarg, "warmup=", 7))
				warmup_arg = optarg;
			if (r)
				return r;
			break;
		}
		case 'O':
			if (nsets == 16)
				return cli_usage_error("sim", "at most 16 --set values");
			sets[nsets++] = optarg;
			break;
		case 'L':
			list_wl = true;
			break;
		case 'P':
			b.per_cpu_table = true;
			break;
		default: {
			int r = cli_run_opt(&ro, c, argv);
			if (r)
				return r;
			break;
		}
		}
	}
	b.params.seed = ro.seed;
	if (optind < argc)
		return cli_usage_error("sim", "unexpected argument '%s'", argv[optind]);
	/* after the whole command line: an option after it is checked too */
	if (list_wl) {
		list_workloads();
		return 0;
	}

	const struct il_workload *wl = il_workload_find(wl_name);
	if (!wl) {
		char list[256] = "";
		for (int i = 0; il_workloads[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", il_workloads[i]->name);
		return cli_usage_error("sim", "unknown workload '%s' (known: %s)", wl_name, list);
	}
	/* the no-option default: a sweep short enough to take a moment */
	if (!strcmp(wl->name, "sleep-sweep") && !user_loops && nwl < MAX_WL_OPTS) {
		il_wl_opt_parse("loops=100", &wl_opts[nwl++], NULL);
		if (!user_duration)
			b.params.duration_ns = 2000000000;
	}
	/* a warm-up that leaves nothing to measure: said with the options, before the set-up */
	if (warmup_arg && b.params.warmup_ns >= b.params.duration_ns)
		return cli_usage_error("sim", "%s%s is not shorter than --duration (%.3f s)",
				       strncmp(warmup_arg, "warmup=", 7) ? "--warmup " : "--sim-opt ",
				       warmup_arg, (double)b.params.duration_ns / 1e9);
	void *wl_cfg = calloc(1, wl->config_size ? wl->config_size : 1);
	if (!wl_cfg)
		return cli_error("out of memory");
	if (il_workload_configure(wl, wl_cfg, wl_opts, nwl, &err) < 0) {
		free(wl_cfg);
		return cli_usage_error("sim", "--wl-opt: %s", err.msg);
	}

	struct il_platform *p = calloc(1, sizeof(*p));
	if (!p) {
		free(wl_cfg);
		return cli_error("out of memory");
	}
	int r = il_platform_load(p, platform, &err);
	if (r < 0) {
		free(wl_cfg);
		free(p);
		return cli_report(&err);
	}
	for (int i = 0; r == 0 && i < nsets; i++) {
		struct il_wl_opt o;
		if (!il_wl_opt_parse(sets[i], &o, NULL))
			r = cli_usage_error("sim", "--set: '%s' is not KEY=VALUE", sets[i]);
		else if (il_platform_set_option(p, o.key, o.value, &err) < 0)
			r = cli_usage_error("sim", "--set %s: %s", sets[i], err.msg);
	}
	/* a platform file is an input: the output must not replace it */
	if (r == 0 && strncmp(p->file, "builtin:", 8))
		r = cli_output_not_input("sim", "--output", ro.output, p->file);
	/* a bad governor spec or parameter is bad usage, found before any run */
	for (int i = 0; r == 0 && i < (ngovs ? ngovs : 1); i++)
		r = check_governor(ngovs ? govs[i] : NULL, p, kernel, &b);
	if (r) {
		free(wl_cfg);
		free(p);
		return r;
	}

	struct il_sim_config cfgs[8];
	memset(cfgs, 0, sizeof(cfgs));
	if (!ngovs)
		govs[ngovs++] = "";
	if (ngovs * (ncfs ? ncfs : 1) > 8) {
		free(wl_cfg);
		free(p);
		return cli_usage_error("sim", "%d --governor x %d --cpufreq values: at most 8 "
				       "configurations", ngovs, ncfs);
	}
	int ncfg = 0;
	for (int i = 0; i < ngovs; i++)
		for (int j = 0; j < (ncfs ? ncfs : 1); j++, ncfg++) {
			snprintf(cfgs[ncfg].gov_spec, sizeof(cfgs[ncfg].gov_spec), "%s", govs[i]);
			snprintf(cfgs[ncfg].kernel, sizeof(cfgs[ncfg].kernel), "%s", kernel);
			if (ncfs)
				snprintf(cfgs[ncfg].cpufreq, sizeof(cfgs[ncfg].cpufreq), "%s", cfs[j]);
		}
	ngovs = ncfg;
	b.platform = p;
	b.wl = wl;
	b.wl_cfg = wl_cfg;
	b.nconfigs = ngovs;
	b.configs = cfgs;
	b.runs = runs;
	b.jobs = ro.jobs;
	r = il_sim_batch_prepare(&b, &err);
	int asked = b.jobs < ngovs * runs ? b.jobs : ngovs * runs;
	if (r == 0 && b.jobs_run < asked && b.jobs_run < 256)
		fprintf(stderr, "idlelab: sim: %d runs at a time instead of %d: the memory of %d runs on "
			"%d CPUs stays below the limit of %llu MiB (about %llu MiB)\n", b.jobs_run, asked,
			ngovs * runs, il_platform_ncpus(p), (unsigned long long)(IL_SIM_MEM_MAX >> 20),
			(unsigned long long)(b.mem_estimate >> 20));
	int loaded = 0;
	struct il_sim_batch *bp = &b;
	if (r == 0 && ro.resume) {
		/* the runs depend on every argument but these */
		static const char *const skip[] = { "--format", "--per-cpu", NULL };
		static const bool has_value[] = { true, false };
		uint64_t fp = cli_run_args_fingerprint(argc, argv, skip, has_value);
		if (cli_run_resume_open(&ro, fp, &bp, 1, ngovs * runs, &partial, &loaded)) {
			il_sim_batch_free(&b);
			free(wl_cfg);
			free(p);
			return 1;
		}
	}
	if (r == 0) {
		/* never while the trace writes to stderr */
		enum cli_progress_mode pm = b.params.trace == stderr ? CLI_PROGRESS_OFF
								     : cli_run_progress(&ro);
		struct il_sim_batch *one = &b;
		struct cli_progress *pg = cli_progress_start("sim", "runs", ngovs * runs - loaded,
							     cli_progress_cost(&one, 1), pm);
		b.run_done = cli_progress_step;
		b.run_done_arg = pg;
		r = il_sim_batch_run(&b, &err);
		cli_progress_stop(pg);
	}
	/* every gathered run is in the file; the batch keeps its results */
	cli_run_resume_close(partial, &bp, 1);
	/* a loaded governor that crashed or looped: the other configurations are printed */
	int failed = 0;
	if (r == -ECHILD) {
		for (int i = 0; i < b.nconfigs; i++)
			if (b.failed[i][0]) {
				cli_error("sim: %s", b.failed[i]);
				failed++;
			}
		r = 0;
		if (il_sim_batch_drop_failed(&b) == 0) {
			il_sim_batch_free(&b);
			free(wl_cfg);
			free(p);
			return 1;
		}
	}
	if (r < 0) {
		il_sim_batch_free(&b);
		free(wl_cfg);
		free(p);
		/* a platform key the drivers refuse names its FILE:LINE */
		return err.file[0] ? cli_report(&err) : cli_error("sim: %s", err.msg);
	}

	/* the options as given, joined by spaces (any length) */
	size_t len = 1;
	for (int i = 0; i < nwl_args; i++)
		len += strlen(wl_args[i]) + 1;
	char *wl_text = calloc(1, len);
	if (!wl_text) {
		il_sim_batch_free(&b);
		free(wl_cfg);
		free(p);
		return cli_error("out of memory");
	}
	for (int i = 0; i < nwl_args; i++) {
		if (i)
			strcat(wl_text, " ");
		strcat(wl_text, wl_args[i]);
	}
	struct il_out out;
	int ret = 0;
	if (il_out_open(&out, ro.output, &err)) {
		ret = cli_report(&err);
	} else {
		int pr = il_sim_batch_print(&b, fmt, wl_text, out.f);
		if (il_out_close(&out, pr == 0, &err))
			ret = cli_report(&err);
		else if (pr)
			ret = cli_error("sim: the output was not written: %s", strerror(-pr));
	}
	free(wl_text);
	il_sim_batch_free(&b);
	free(wl_cfg);
	free(p);
	return ret ? ret : failed ? 1 : 0;
}

const struct il_command cmd_sim = {
	.name = "sim",
	.summary = "simulate a workload on a platform with governors (counters, latency, energy)",
	.usage = usage,
	.run = run,
};
