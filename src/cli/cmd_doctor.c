// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab doctor [--root DIR]: the known idle pathologies of this machine
 * or of a capture of one (include/idlelab/doctor.h, docs/doctor.md).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "idlelab/doctor.h"
#include "idlelab/duration.h"
#include "idlelab/host.h"
#include "idlelab/json.h"
#include "idlelab/report.h"
#include "util.h"

/* Print s (escaped for the terminal) wrapped at width, each line indented by indent blanks. */
/* Fold text at width: the first line indented by first, the others by indent. */
static void wrap_hang(const char *text, int first, int indent, int width)
{
	char *esc = il_text_escape(text);
	const char *s = esc;
	int col = first;
	bool start = true;

	printf("%*s", first, "");
	while (*s) {
		size_t w = strcspn(s, " ");
		if (!start && col + 1 + (int)w > width) {
			printf("\n%*s", indent, "");
			col = indent;
			start = true;
		}
		if (!start) {
			putchar(' ');
			col++;
		}
		fwrite(s, 1, w, stdout);
		col += (int)w;
		start = false;
		s += w;
		while (*s == ' ')
			s++;
	}
	putchar('\n');
	free(esc);
}

static void wrap(const char *text, int indent, int width)
{
	wrap_hang(text, indent, indent, width);
}

/* The path a user can open: the root joined with the file below it. */
static void file_of(const struct il_host *h, const char *rel, char *buf, size_t size)
{
	if (!rel[0])
		buf[0] = '\0';
	else if (h->live)
		snprintf(buf, size, "%s", rel);
	else {
		/* one slash between them: a root given as "DIR/" gave "DIR//sys/..." */
		size_t l = strlen(h->root);

		while (l > 1 && h->root[l - 1] == '/')
			l--;
		snprintf(buf, size, "%.*s%s", (int)l, h->root, rel);
	}
}

static void header_facts(const struct il_host *h, char *buf, size_t size)
{
	snprintf(buf, size, "kernel %s, driver %s, governor %s, %d CPU%s",
		 h->release ? h->release : "n/a",
		 !h->sysfs_rc && h->sysfs.driver.status == IL_SYSFS_OK ? h->sysfs.driver.s : "none",
		 !h->sysfs_rc && h->sysfs.governor.status == IL_SYSFS_OK ? h->sysfs.governor.s : "n/a",
		 h->ncpus, h->ncpus == 1 ? "" : "s");
}

/*
 * Inputs a tree may lack (a hand-made or damaged capture) without which
 * some checks cannot judge anything: said, so that "no findings" is not
 * read as a healthy machine. A file that is there but bad is reported on
 * stderr by the reader.
 */
struct not_judged {
	const char *missing, *why, *checks;
};

static int not_judged(const struct il_host *h, const struct il_doctor *d,
		      struct not_judged *out)
{
	int n = 0;

	if (!h->has_cpuinfo)
		out[n++] = (struct not_judged){ "proc/cpuinfo", "vendor, model, flags",
			"acpi-dummy-wait, amd-hlt-default-idle, intel-idle-cst-table, "
			"intel-idle-table-values, unexpected-driver" };
	if (!d->release[0])
		out[n++] = (struct not_judged){ h->release ? NULL : "proc/sys/kernel/osrelease",
			h->release ? "not a mainline release" : "kernel release",
			"acpi-dummy-wait, amd-hlt-default-idle, intel-cst-states-off, "
			"intel-idle-cst-table, intel-idle-table-values, poll-escape" };
	return n;
}

static void print_text(const struct il_host *h, const struct il_doctor *d,
		       const struct il_sysfs_delta *w)
{
	struct not_judged nj[2];
	int nnj = not_judged(h, d, nj);
	char facts[256], path[512];
	int nwarn = 0;

	header_facts(h, facts, sizeof(facts));
	/* names and values come from files: escaped for the terminal */
	printf("doctor: ");
	il_text_fputs(h->root, stdout);
	printf(" (");
	il_text_fputs(facts, stdout);
	printf(")\n");
	if (w)
		printf("counters: over %.3f s\n", (double)w->elapsed_ns / 1e9);
	else
		printf("counters: since boot\n");
	for (int i = 0; i < nnj; i++) {
		char line[512];
		if (nj[i].missing)
			snprintf(line, sizeof(line), "not judged: no %s (%s): %s", nj[i].missing,
				 nj[i].why, nj[i].checks);
		else
			snprintf(line, sizeof(line), "not judged: the kernel release is %s: %s",
				 nj[i].why, nj[i].checks);
		wrap_hang(line, 0, 4, 100);
	}
	for (int i = 0; i < d->n; i++) {
		const struct il_finding *f = &d->findings[i];
		char head[512];

		nwarn += f->severity == IL_SEV_WARNING;
		snprintf(head, sizeof(head), "%s %s: %s", il_severity_name(f->severity), f->id,
			 f->title);
		/* the title and the evidence stay one line each: grep finds them */
		printf("\n");
		il_text_fputs(head, stdout);
		printf("\n");
		printf("  evidence:\n");
		for (int k = 0; k < f->nevidence; k++) {
			file_of(h, f->evidence[k].file, path, sizeof(path));
			printf("    ");
			if (path[0]) {
				il_text_fputs(path, stdout);
				printf(" = ");
			}
			il_text_fputs(f->evidence[k].value, stdout);
			printf("\n");
		}
		printf("  what to do:\n");
		wrap(f->action, 4, 100);
		printf("  see:\n");
		wrap(f->refs, 4, 100);
	}
	if (!d->n)
		printf("\nno findings%s\n", nnj ? " among the checks judged" : "");
	else
		printf("\n%d finding%s (%d warning%s)\n", d->n, d->n == 1 ? "" : "s", nwarn,
		       nwarn == 1 ? "" : "s");
}

static void print_json(const struct il_host *h, const struct il_doctor *d,
		       const struct il_sysfs_delta *w)
{
	char path[512];
	struct il_json j;

	il_json_init(&j, stdout);
	il_json_object(&j, IL_JSON_BLOCK);
	il_json_kstring(&j, "root", h->root);
	il_json_kstring(&j, "kernel_release", h->release);
	il_json_kstring(&j, "release_judged", d->release[0] ? d->release : NULL);
	il_json_kstring(&j, "driver", !h->sysfs_rc && h->sysfs.driver.status == IL_SYSFS_OK ?
				      h->sysfs.driver.s : "none");
	il_json_kstring(&j, "governor", !h->sysfs_rc && h->sysfs.governor.status == IL_SYSFS_OK ?
					h->sysfs.governor.s : NULL);
	if (w)
		il_json_kdouble(&j, "window_s", (double)w->elapsed_ns / 1e9);
	else
		il_json_knull(&j, "window_s");
	{
		struct not_judged nj[2];
		int nnj = not_judged(h, d, nj);

		il_json_key(&j, "not_judged");
		il_json_array(&j, IL_JSON_BLOCK);
		for (int i = 0; i < nnj; i++) {
			il_json_object(&j, IL_JSON_INLINE);
			il_json_kstring(&j, "missing", nj[i].missing);
			il_json_kstring(&j, "what", nj[i].why);
			il_json_key(&j, "checks");
			il_json_array(&j, IL_JSON_INLINE);
			for (const char *p = nj[i].checks; *p;) {
				size_t n = strcspn(p, ",");
				char id[64];
				snprintf(id, sizeof(id), "%.*s", (int)n, p);
				il_json_string(&j, id);
				p += n;
				while (*p == ',' || *p == ' ')
					p++;
			}
			il_json_end(&j);
			il_json_end(&j);
		}
		il_json_end(&j);
	}
	il_json_key(&j, "findings");
	il_json_array(&j, IL_JSON_BLOCK);
	for (int i = 0; i < d->n; i++) {
		const struct il_finding *f = &d->findings[i];

		il_json_object(&j, IL_JSON_BLOCK);
		il_json_kstring(&j, "id", f->id);
		il_json_kstring(&j, "severity", il_severity_name(f->severity));
		il_json_kstring(&j, "title", f->title);
		il_json_key(&j, "evidence");
		il_json_array(&j, IL_JSON_BLOCK);
		for (int k = 0; k < f->nevidence; k++) {
			file_of(h, f->evidence[k].file, path, sizeof(path));
			il_json_object(&j, IL_JSON_INLINE);
			il_json_kstring(&j, "file", path[0] ? path : NULL);
			il_json_kstring(&j, "value", f->evidence[k].value);
			il_json_end(&j);
		}
		il_json_end(&j);
		il_json_kstring(&j, "action", f->action);
		il_json_kstring(&j, "references", f->refs);
		il_json_end(&j);
	}
	il_json_end(&j);
	il_json_end(&j);
	il_json_finish(&j);
}

/* The checks: CSV as documented, or the --format given (table or json). */
static int list_checks(enum il_format fmt)
{
	struct il_table *t = il_table_new(NULL);

	il_table_col(t, "id");
	il_table_col(t, "severity");
	il_table_col(t, "finds");
	for (int i = 0; i < il_doctor_check_count; i++) {
		il_table_row(t);
		il_table_str(t, il_doctor_checks[i].id);
		il_table_str(t, il_severity_name(il_doctor_checks[i].severity));
		il_table_str(t, il_doctor_checks[i].what);
	}
	int r = il_table_print(t, fmt, stdout);
	il_table_free(t);
	return r ? 1 : 0;
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "interval", required_argument, NULL, 'i' },
		{ "miss-threshold", required_argument, NULL, 'm' },
		{ "list", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = NULL;
	enum il_format fmt = IL_FORMAT_TABLE;
	bool fmt_set = false, list = false;
	struct il_doctor_opts o;
	int64_t interval_ns = -1;
	struct il_host h;
	struct il_doctor d;
	struct il_sysfs_delta win = { 0 };
	bool have_win = false;
	struct il_err err;
	int c, r;

	il_doctor_opts_default(&o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:f:i:m:l", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			/* "" would be this machine's / */
			if (!*optarg)
				return cli_usage_error("doctor", "--root: an empty directory name");
			root = optarg;
			break;
		case 'f':
			if (il_format_parse(optarg, &fmt) || fmt == IL_FORMAT_CSV)
				return cli_usage_error("doctor", "unknown format '%s' (table or json)",
						       optarg);
			fmt_set = true;
			break;
		case 'i': {
			double sec;
			if (il_parse_double(optarg, &sec) == 0)
				interval_ns = sec >= 0 && sec <= 86400 ? (int64_t)(sec * 1e9) : -2;
			else if (il_parse_duration_ns(optarg, &interval_ns))
				interval_ns = -2;
			if (interval_ns < 0 || interval_ns > 86400000000000LL)
				return cli_usage_error("doctor", "--interval: '%s' is not a duration "
						       "from 0 to 86400s (24 hours; 0: counters since boot)", optarg);
			break;
		}
		case 'm': {
			double v;
			if (il_parse_double(optarg, &v) || !(v > 0 && v <= 100))
				return cli_usage_error("doctor", "--miss-threshold: '%s' is not a "
						       "percentage above 0 and at most 100", optarg);
			o.miss_pct = v;
			break;
		}
		case 'l': list = true; break;
		case ':':
			return cli_usage_error("doctor", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("doctor", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("doctor", "unexpected argument '%s'", argv[optind]);
	/* after every option is read: --list --bogus is refused, --list --format json kept */
	if (list)
		return list_checks(fmt_set ? fmt : IL_FORMAT_CSV);
	if (root && interval_ns > 0)
		return cli_usage_error("doctor", "--interval samples the live machine; a tree given "
				       "with --root is judged by its counters since boot");
	if (il_host_read(root, false, &h, &err))
		return cli_report(&err);
	for (int i = 0; i < h.notes.n; i++)
		cli_report(&h.notes.items[i]);
	for (int i = 0; i < h.sysfs.notes.n; i++)
		cli_report(&h.sysfs.notes.items[i]);
	/* the live machine: the counters over an interval (1 s unless told) */
	if (h.live && interval_ns != 0 && !h.sysfs_rc) {
		struct il_sysfs_info now;
		struct timespec ts;
		int64_t ns = interval_ns < 0 ? 1000000000 : interval_ns;

		ts.tv_sec = (time_t)(ns / 1000000000);
		ts.tv_nsec = (long)(ns % 1000000000);
		while (nanosleep(&ts, &ts) != 0)
			;
		if (il_sysfs_read(IL_SYSFS_DEFAULT_ROOT, NULL, &now, &err) == 0) {
			if (il_sysfs_delta(&h.sysfs, &now, ns, &win, &err) == 0) {
				have_win = true;
				o.window = &win;
			} else {
				cli_error("the counters over the interval: %s (judged since boot)",
					  err.msg);
			}
			/* the later read is the state of the machine the checks see */
			il_sysfs_info_free(&h.sysfs);
			h.sysfs = now;
		}
	}
	il_doctor_run(&h, &o, &d);
	if (fmt == IL_FORMAT_JSON)
		print_json(&h, &d, have_win ? &win : NULL);
	else
		print_text(&h, &d, have_win ? &win : NULL);
	r = fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
	il_doctor_free(&d);
	/* the window's rows name states of the later read, now h.sysfs: free it first */
	if (have_win)
		il_sysfs_delta_free(&win);
	il_host_free(&h);
	return r;
}

const struct il_command cmd_doctor = {
	.name = "doctor",
	.summary = "find known idle pathologies on this machine or in a capture",
	.usage =
	"usage: idlelab doctor [--root DIR] [--format table|json] [--interval D]\n"
	"                      [--miss-threshold PCT]\n"
	"       idlelab doctor --list\n\n"
	"Reads the machine (or a tree written by `idlelab capture DIR`) and reports\n"
	"what is known to go wrong with CPU idle on it: each finding with an id, a\n"
	"severity (warning, info), the evidence (files and their values), what to do\n"
	"and the kernel changes it rests on. The checks (--list; docs/doctor.md):\n"
	"acpi-dummy-wait, amd-hlt-default-idle, intel-cst-states-off,\n"
	"intel-idle-cst-table, intel-idle-table-values, poll-escape,\n"
	"haltpoll-no-poll, haltpoll-not-registered, states-disabled, high-miss-rate,\n"
	"pm-qos-limit, unexpected-driver, unexpected-governor. Kernel releases are\n"
	"compared as mainline tags; a distribution kernel may carry a fix, which each\n"
	"finding says.\n\n"
	"  --root DIR           judge a captured tree instead of this machine\n"
	"  --format F           table (default) or json\n"
	"  --interval D         on the live machine, judge the counters over D (1, 0.5,\n"
	"                       500ms; default 1 s); 0 judges them since boot, as for\n"
	"                       --root\n"
	"  --miss-threshold PCT high-miss-rate when above or below reach PCT % of a\n"
	"                       state's entries (default 20; states with fewer than 100\n"
	"                       entries are not judged)\n"
	"  --list               the checks as CSV: id, severity, what each finds (as a\n"
	"                       table or JSON with --format)\n\n"
	"Files are read by the rules of `idlelab info` (no link below the root\n"
	"followed, regular files only); one that cannot be read is reported on\n"
	"stderr and not judged. The exit status is 0 whether or not something was\n"
	"found, 1 if the root cannot be read, 2 for bad usage.\n",
	.run = run,
};
