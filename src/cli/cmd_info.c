// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab info: the cpuidle driver, governors and every CPU's idle states
 * with their counters, read from /sys/devices/system/cpu (or a saved copy);
 * idlelab info --save DIR writes such a copy.
 *
 * It shows what `cpupower idle-info` shows plus the counters cpupower omits
 * (above, below, rejected, default_status, s2idle), with the attribute
 * semantics of drivers/cpuidle/sysfs.c (see include/idlelab/sysfs.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/duration.h"
#include "idlelab/report.h"
#include "idlelab/sysfs.h"
#include "info.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Cells */

static void cell_val(struct il_table *t, const struct il_sysfs_val *v)
{
	if (v->status == IL_SYSFS_OK)
		il_table_u64(t, (unsigned long long)v->v);
	else
		il_table_na(t);
}

static void cell_str(struct il_table *t, const struct il_sysfs_str *s)
{
	if (s->status == IL_SYSFS_OK)
		il_table_str(t, s->s);
	else
		il_table_na(t);
}

/*
 * The power field as the kernel means it: power_usage is an int (mW) that
 * sysfs prints unsigned, so 4294967295 is -1, which the polling state sets
 * for "not given" (drivers/cpuidle/poll_state.c). Text says so; CSV and
 * JSON carry the signed number.
 */
static void cell_power(struct il_table *t, const struct il_sysfs_val *v, bool text)
{
	long long p;

	if (v->status != IL_SYSFS_OK || v->v > 0xffffffffull) {
		il_table_na(t);
		return;
	}
	p = v->v > 0x7fffffffull ? (long long)v->v - 0x100000000ll : (long long)v->v;
	if (text && p == -1)
		il_table_str(t, "not given");
	else
		il_table_i64(t, p);
}

static const char *str_or_na(const struct il_sysfs_str *s)
{
	return s->status == IL_SYSFS_OK ? s->s : "n/a";
}

/* Does any selected state have an s2idle/ directory? */
static bool any_s2idle(const struct il_sysfs_info *info)
{
	for (int c = 0; c < info->ncpus; c++)
		for (int i = 0; i < info->cpus[c].nstates; i++) {
			const struct il_sysfs_state *st = &info->cpus[c].states[i];
			if (st->val[IL_SF_S2IDLE_USAGE].status != IL_SYSFS_MISSING ||
			    st->val[IL_SF_S2IDLE_TIME].status != IL_SYSFS_MISSING)
				return true;
		}
	return false;
}

static bool same_str(const struct il_sysfs_str *a, const struct il_sysfs_str *b)
{
	return a->status == b->status && !strcmp(a->s, b->s);
}

static bool same_val(const struct il_sysfs_val *a, const struct il_sysfs_val *b)
{
	return a->status == b->status && a->v == b->v;
}

/* Same state table (the driver's part, not the counters) on two CPUs? */
static bool same_table(const struct il_sysfs_cpu *a, const struct il_sysfs_cpu *b)
{
	static const enum il_sysfs_field fixed[] = { IL_SF_LATENCY, IL_SF_RESIDENCY, IL_SF_POWER };

	if (a->nstates != b->nstates || !same_str(&a->driver, &b->driver))
		return false;
	for (int i = 0; i < a->nstates; i++) {
		const struct il_sysfs_state *x = &a->states[i], *y = &b->states[i];
		if (x->index != y->index || !same_str(&x->name, &y->name) ||
		    !same_str(&x->desc, &y->desc) ||
		    !same_str(&x->default_status, &y->default_status))
			return false;
		for (size_t f = 0; f < sizeof(fixed) / sizeof(fixed[0]); f++)
			if (!same_val(&x->val[fixed[f]], &y->val[fixed[f]]))
				return false;
	}
	return true;
}

/* "0-3,7" for the CPUs shown. */
static void cpus_text(const struct il_sysfs_info *info, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int c = 0; c < info->ncpus && o < size; c++) {
		int lo = info->cpus[c].cpu, hi = lo;
		while (c + 1 < info->ncpus && info->cpus[c + 1].cpu == hi + 1)
			hi = info->cpus[++c].cpu;
		if (hi == lo)
			o += (size_t)snprintf(buf + o, size - o, "%s%d", o ? "," : "", lo);
		else
			o += (size_t)snprintf(buf + o, size - o, "%s%d-%d", o ? "," : "", lo, hi);
	}
}

/* ------------------------------------------------------------------ */
/* Text */

static int print_states_table(const struct il_sysfs_cpu *cpu, const char *title)
{
	struct il_table *t = il_table_new(title);
	static const char *const cols[] = { "state", "name", "desc", "latency_us",
					    "residency_us", "power_mW", "default_status" };
	int r;

	il_table_keys(t, 2);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	for (int i = 0; i < cpu->nstates; i++) {
		const struct il_sysfs_state *st = &cpu->states[i];
		il_table_row(t);
		il_table_i64(t, st->index);
		cell_str(t, &st->name);
		cell_str(t, &st->desc);
		cell_val(t, &st->val[IL_SF_LATENCY]);
		cell_val(t, &st->val[IL_SF_RESIDENCY]);
		cell_power(t, &st->val[IL_SF_POWER], true);
		cell_str(t, &st->default_status);
	}
	r = il_table_print(t, IL_FORMAT_TABLE, stdout);
	il_table_free(t);
	return r;
}

static int print_text(const struct il_sysfs_info *info)
{
	bool s2idle = any_s2idle(info);
	bool shared = true;
	char title[128];
	int r = 0;

	/* names from sysfs are escaped for the terminal, as in the tables */
	printf("driver: ");
	il_text_fputs(str_or_na(&info->driver), stdout);
	printf("\ngovernor: ");
	il_text_fputs(str_or_na(&info->governor), stdout);
	printf("\navailable governors: ");
	if (info->governors.status != IL_SYSFS_OK || !info->ngovernors)
		printf("n/a");
	for (int i = 0; i < info->ngovernors; i++) {
		printf("%s", i ? " " : "");
		il_text_fputs(info->governor_list[i], stdout);
	}
	printf("\n");
	if (!info->ncpus) {
		printf("\nno CPU has a cpuidle directory\n");
		return 0;
	}

	for (int c = 1; c < info->ncpus; c++)
		if (!same_table(&info->cpus[0], &info->cpus[c]))
			shared = false;
	if (shared) {
		char list[96];
		cpus_text(info, list, sizeof(list));
		snprintf(title, sizeof(title), "idle states (cpu%s %s):",
			 info->ncpus > 1 ? "s" : "", list);
		printf("\n");
		r |= print_states_table(&info->cpus[0], title);
	} else {
		for (int c = 0; c < info->ncpus; c++) {
			const struct il_sysfs_cpu *cpu = &info->cpus[c];
			if (cpu->driver.status == IL_SYSFS_OK)
				snprintf(title, sizeof(title), "idle states of cpu%d (driver %s):",
					 cpu->cpu, cpu->driver.s);
			else
				snprintf(title, sizeof(title), "idle states of cpu%d:", cpu->cpu);
			printf("\n");
			r |= print_states_table(&info->cpus[c], title);
		}
	}

	for (int c = 0; c < info->ncpus; c++) {
		const struct il_sysfs_cpu *cpu = &info->cpus[c];
		struct il_table *t;

		snprintf(title, sizeof(title), "cpu%d:", cpu->cpu);
		t = il_table_new(title);
		il_table_keys(t, 2);
		il_table_col(t, "state");
		il_table_col(t, "name");
		il_table_col(t, "usage");
		il_table_col(t, "time_us");
		il_table_col(t, "above");
		il_table_col(t, "below");
		il_table_col(t, "rejected");
		il_table_col(t, "disable");
		if (s2idle) {
			il_table_col(t, "s2idle_usage");
			il_table_col(t, "s2idle_time_us");
		}
		for (int i = 0; i < cpu->nstates; i++) {
			const struct il_sysfs_state *st = &cpu->states[i];
			il_table_row(t);
			il_table_i64(t, st->index);
			cell_str(t, &st->name);
			cell_val(t, &st->val[IL_SF_USAGE]);
			cell_val(t, &st->val[IL_SF_TIME]);
			cell_val(t, &st->val[IL_SF_ABOVE]);
			cell_val(t, &st->val[IL_SF_BELOW]);
			cell_val(t, &st->val[IL_SF_REJECTED]);
			cell_val(t, &st->val[IL_SF_DISABLE]);
			if (s2idle) {
				cell_val(t, &st->val[IL_SF_S2IDLE_USAGE]);
				cell_val(t, &st->val[IL_SF_S2IDLE_TIME]);
			}
		}
		printf("\n");
		r |= il_table_print(t, IL_FORMAT_TABLE, stdout);
		il_table_free(t);
	}
	return r;
}

/* ------------------------------------------------------------------ */
/* CSV: one row per CPU and state */

static const char *const csv_cols[] = {
	"cpu", "state", "name", "desc", "latency_us", "residency_us", "usage", "time_us",
	"above", "below", "rejected", "disable", "default_status", "power_mW",
	"s2idle_usage", "s2idle_time_us",
};

static int print_csv(const struct il_sysfs_info *info)
{
	struct il_table *t = il_table_new(NULL);
	static const enum il_sysfs_field counters[] = {
		IL_SF_USAGE, IL_SF_TIME, IL_SF_ABOVE, IL_SF_BELOW, IL_SF_REJECTED, IL_SF_DISABLE,
	};
	int r;

	for (size_t i = 0; i < sizeof(csv_cols) / sizeof(csv_cols[0]); i++)
		il_table_col(t, csv_cols[i]);
	for (int c = 0; c < info->ncpus; c++)
		for (int i = 0; i < info->cpus[c].nstates; i++) {
			const struct il_sysfs_state *st = &info->cpus[c].states[i];
			il_table_row(t);
			il_table_i64(t, info->cpus[c].cpu);
			il_table_i64(t, st->index);
			cell_str(t, &st->name);
			cell_str(t, &st->desc);
			cell_val(t, &st->val[IL_SF_LATENCY]);
			cell_val(t, &st->val[IL_SF_RESIDENCY]);
			for (size_t k = 0; k < sizeof(counters) / sizeof(counters[0]); k++)
				cell_val(t, &st->val[counters[k]]);
			cell_str(t, &st->default_status);
			cell_power(t, &st->val[IL_SF_POWER], false);
			cell_val(t, &st->val[IL_SF_S2IDLE_USAGE]);
			cell_val(t, &st->val[IL_SF_S2IDLE_TIME]);
		}
	r = il_table_print(t, IL_FORMAT_CSV, stdout);
	il_table_free(t);
	return r;
}

/* ------------------------------------------------------------------ */
/* JSON: driver, governors, cpus -> states */

static void json_strval(struct il_json *w, const char *key, const struct il_sysfs_str *s)
{
	il_json_key(w, key);
	if (s->status == IL_SYSFS_OK)
		il_json_string(w, s->s);
	else
		il_json_null(w);
}

static void json_val(struct il_json *w, const char *key, const struct il_sysfs_val *v)
{
	il_json_key(w, key);
	if (v->status == IL_SYSFS_OK)
		il_json_uint(w, (unsigned long long)v->v);
	else
		il_json_null(w);
}

/* power_mW as the signed int the kernel holds (-1: not given), see cell_power */
static void json_power(struct il_json *w, const struct il_sysfs_val *v)
{
	il_json_key(w, "power_mW");
	if (v->status != IL_SYSFS_OK || v->v > 0xffffffffull)
		il_json_null(w);
	else
		il_json_int(w, v->v > 0x7fffffffull ? (long long)v->v - 0x100000000ll
						    : (long long)v->v);
}

static int print_json(const struct il_sysfs_info *info, const char *root)
{
	struct il_json w;

	il_json_init(&w, stdout);
	il_json_object(&w, IL_JSON_BLOCK);
	il_json_kstring(&w, "sysfs_root", root);
	json_strval(&w, "driver", &info->driver);
	json_strval(&w, "governor", &info->governor);
	il_json_key(&w, "available_governors");
	if (info->governors.status != IL_SYSFS_OK) {
		il_json_null(&w);
	} else {
		il_json_array(&w, IL_JSON_INLINE);
		for (int i = 0; i < info->ngovernors; i++)
			il_json_string(&w, info->governor_list[i]);
		il_json_end(&w);
	}
	il_json_key(&w, "cpus");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int c = 0; c < info->ncpus; c++) {
		const struct il_sysfs_cpu *cpu = &info->cpus[c];
		il_json_object(&w, IL_JSON_INLINE);
		il_json_kint(&w, "cpu", cpu->cpu);
		if (cpu->driver.status == IL_SYSFS_OK)
			json_strval(&w, "driver", &cpu->driver);
		il_json_key(&w, "states");
		il_json_array(&w, IL_JSON_BLOCK);
		for (int i = 0; i < cpu->nstates; i++) {
			const struct il_sysfs_state *st = &cpu->states[i];
			il_json_object(&w, IL_JSON_INLINE);
			il_json_kint(&w, "state", st->index);
			json_strval(&w, "name", &st->name);
			json_strval(&w, "desc", &st->desc);
			json_val(&w, "latency_us", &st->val[IL_SF_LATENCY]);
			json_val(&w, "residency_us", &st->val[IL_SF_RESIDENCY]);
			json_val(&w, "usage", &st->val[IL_SF_USAGE]);
			json_val(&w, "time_us", &st->val[IL_SF_TIME]);
			json_val(&w, "above", &st->val[IL_SF_ABOVE]);
			json_val(&w, "below", &st->val[IL_SF_BELOW]);
			json_val(&w, "rejected", &st->val[IL_SF_REJECTED]);
			json_val(&w, "disable", &st->val[IL_SF_DISABLE]);
			json_strval(&w, "default_status", &st->default_status);
			json_power(&w, &st->val[IL_SF_POWER]);
			json_val(&w, "s2idle_usage", &st->val[IL_SF_S2IDLE_USAGE]);
			json_val(&w, "s2idle_time_us", &st->val[IL_SF_S2IDLE_TIME]);
			il_json_end(&w);
		}
		il_json_end(&w);
		il_json_end(&w);
	}
	il_json_end(&w);
	il_json_end(&w);
	return il_json_finish(&w) ? 1 : 0;
}

/* ------------------------------------------------------------------ */

static void print_notes(const struct il_sysfs_notes *notes)
{
	for (int i = 0; i < notes->n; i++)
		cli_report(&notes->items[i]);
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "csv", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "format", required_argument, NULL, 'f' },
		{ "save", required_argument, NULL, 's' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "diff", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	enum il_format fmt = IL_FORMAT_TABLE;
	const char *root = IL_SYSFS_DEFAULT_ROOT, *save = NULL, *cpus = NULL, *diff = NULL;
	bool fmt_set = false, root_set = false;
	int64_t interval_ns = 0;
	long count = 0;
	struct il_cpulist list = { 0 };
	struct il_err err;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:c:f:s:i:n:d:", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (!*optarg)
				return cli_usage_error("info", "--sysfs-root: an empty directory name");
			root = optarg;
			root_set = true;
			break;
		case 'd': diff = optarg; break;
		case 'i': {
			/* a bare number is seconds, as turbostat -i and cpupower monitor -i take it */
			double sec;
			if (il_parse_double(optarg, &sec) == 0) {
				interval_ns = sec * 1e9 < 9.2e18 ? (int64_t)(sec * 1e9) : -1;
			} else if (il_parse_duration_ns(optarg, &interval_ns)) {
				return cli_usage_error("info", "--interval: '%s' is not a duration "
						       "(1, 0.5, 500ms, 2s)", optarg);
			}
			if (interval_ns < 1000000 || interval_ns > 86400000000000LL)
				return cli_usage_error("info", "--interval: '%s' is outside 1ms..86400s",
						       optarg);
			break;
		}
		case 'n': {
			int64_t v;
			if (il_parse_i64(optarg, &v) || v < 1 || v > 1000000000)
				return cli_usage_error("info", "--count: '%s' is not a number of "
						       "intervals (1 or more)", optarg);
			count = v;
			break;
		}
		case 'c': cpus = optarg; break;
		case 's': save = optarg; break;
		case 'C':
		case 'J':
		case 'f': {
			enum il_format f = c == 'C' ? IL_FORMAT_CSV : IL_FORMAT_JSON;
			if (c == 'f' && il_format_parse(optarg, &f))
				return cli_usage_error("info", "unknown format '%s'", optarg);
			/* --csv, --json and --format name one format, not the last of several */
			if (fmt_set && f != fmt)
				return cli_usage_error("info", "%s: a second format ('%s' after '%s')",
						       c == 'C' ? "--csv" : c == 'J' ? "--json" : "--format",
						       il_format_name(f),
						       il_format_name(fmt));
			fmt = f;
			fmt_set = true;
			break;
		}
		case ':':
			return cli_usage_error("info", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("info", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (diff) {
		if (optind != argc - 1)
			return cli_usage_error("info", "--diff takes two snapshots: --diff A B");
		if (!*diff || !*argv[optind])
			return cli_usage_error("info", "--diff: an empty directory name");
		if (save || interval_ns || count || root_set)
			return cli_usage_error("info", "--diff reads two snapshots; it takes no "
					       "--save, --interval, --count or --sysfs-root");
	} else if (optind < argc) {
		return cli_usage_error("info", "unexpected argument '%s'", argv[optind]);
	}
	if (cli_name_given("info", "--save", "directory", save))
		return 2;
	if (count && !interval_ns)
		return cli_usage_error("info", "--count needs --interval");
	if (save && interval_ns)
		return cli_usage_error("info", "--save writes one snapshot; it takes no --interval");
	if (save && fmt_set)
		return cli_usage_error("info", "--save writes a tree; it takes no output format");
	if (cpus && il_cpulist_parse(cpus, &list, &err))
		return cli_usage_error("info", "%s", err.msg);

	if (diff) {
		r = info_diff(diff, argv[optind], cpus ? &list : NULL, fmt);
		il_cpulist_free(&list);
		return r;
	}
	if (interval_ns) {
		r = info_interval(root, cpus ? &list : NULL, fmt, interval_ns, count);
		il_cpulist_free(&list);
		return r;
	}
	if (save) {
		struct il_sysfs_notes notes = { 0 };
		int nfiles = 0;
		char *meta = info_save_meta(root, &err);

		if (!meta) {
			il_cpulist_free(&list);
			return cli_report(&err);
		}
		r = il_sysfs_save(root, cpus ? &list : NULL, save, meta, &notes, &nfiles, &err);
		free(meta);
		print_notes(&notes);
		il_cpulist_free(&list);
		if (r) {
			il_sysfs_notes_free(&notes);
			return cli_report(&err);
		}
		printf("saved %d files of %s to %s\n", nfiles, root, save);
		/* files left out (unreadable, links, not sysfs text): saved, but said */
		r = notes.n ? 1 : 0;
		il_sysfs_notes_free(&notes);
		if (fflush(stdout) != 0)
			r = 1;
		return r;
	}

	struct il_sysfs_info info;
	r = il_sysfs_read(root, cpus ? &list : NULL, &info, &err);
	il_cpulist_free(&list);
	if (r)
		return cli_report(&err);
	print_notes(&info.notes);
	if (fmt == IL_FORMAT_JSON)
		r = print_json(&info, root);
	else if (fmt == IL_FORMAT_CSV)
		r = print_csv(&info);
	else
		r = print_text(&info);
	if (fflush(stdout) != 0)
		r = 1;
	/* garbage or unreadable files: output is complete, exit status says so */
	if (info.notes.n)
		r = 1;
	il_sysfs_info_free(&info);
	return r ? 1 : 0;
}

const struct il_command cmd_info = {
	.name = "info",
	.summary = "show the cpuidle driver, governors and idle-state counters",
	.usage =
	"usage: idlelab info [--sysfs-root DIR] [--cpu LIST] [--csv | --json | --format table|csv|json]\n"
	"       idlelab info --interval D [--count N] [--sysfs-root DIR] [--cpu LIST]\n"
	"                    [--format table|csv|json]\n"
	"       idlelab info --save DIR [--sysfs-root DIR] [--cpu LIST]\n"
	"       idlelab info --diff A B [--cpu LIST] [--format table|csv|json]\n\n"
	"Shows the cpuidle driver, the current and available governors and, for\n"
	"every CPU, its idle states: name, desc, latency, residency, power,\n"
	"default_status and the counters usage, time, above, below, rejected,\n"
	"disable and s2idle usage/time (what `cpupower idle-info` shows plus the\n"
	"counters it omits). Times and latencies are in microseconds, as sysfs has\n"
	"them. Files that older kernels lack show as n/a. power is the kernel's int:\n"
	"-1 (sysfs prints 4294967295) is 'not given' in text.\n\n"
	"  --sysfs-root DIR  read DIR instead of /sys/devices/system/cpu (a copy\n"
	"                    written by --save, or a hand-made fixture)\n"
	"  --cpu LIST        only these CPUs, e.g. 0-3,7\n"
	"  --format F        table (default: text tables), csv (one row per CPU and\n"
	"                    state, n/a as an empty field) or json\n"
	"  --csv, --json     the same as --format csv, --format json\n"
	"  --interval D      every D (1, 0.5 seconds; 500ms), per CPU and state the\n"
	"                    differences of usage, time, above and below, residency %,\n"
	"                    usage/s, above % and below % over the interval, one table\n"
	"                    per interval (as turbostat and `cpupower monitor`); CSV and\n"
	"                    JSON as rows with a timestamp; SIGINT ends it\n"
	"  --count N         stop after N intervals (default: until SIGINT/SIGTERM)\n"
	"  --save DIR        copy the cpuidle files (read in one pass) to DIR, which\n"
	"                    must not exist, with idlelab-meta.txt (time, boot id,\n"
	"                    uptime, kernel, cmdline, the cpuidle and cpufreq module\n"
	"                    parameters, PM QoS); --sysfs-root DIR reads it back\n"
	"  --diff A B        the differences from snapshot A to B (--save copies or\n"
	"                    `idlelab capture` trees), rates from their boot times,\n"
	"                    and what else changed (governor, parameters, disable)\n\n"
	"A garbage or unreadable file is reported on stderr as\n"
	"'idlelab: PATH: what is wrong', shows as n/a and makes the exit status 1\n"
	"(with --diff, where the trees are saved input, it is an error and nothing\n"
	"is printed); a missing cpuidle directory is an error. Symbolic links below the root\n"
	"are never followed (sysfs has none where info reads), only regular files\n"
	"of at most a page are read; --save writes only the known file names, as\n"
	"text, with the kernel's modes (0444, 0644 for disable and current_governor).\n",
	.run = run,
};
