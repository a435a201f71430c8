// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab trace check | whatif | to-replay: the idle periods of a trace with
 * their governor inputs rebuilt (include/idlelab/trace_periods.h), decided
 * again by a governor, compared with the kernel's picks, or written as a
 * replay log (docs/replay.md) for idlelab replay.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "idlelab/device.h"
#include "idlelab/drivers.h"
#include "idlelab/format.h"
#include "idlelab/json.h"
#include "idlelab/outfile.h"
#include "idlelab/replay.h"
#include "idlelab/report.h"
#include "idlelab/sysfs.h"
#include "idlelab/trace_periods.h"
#include "trace_record.h"
#include "trace_whatif.h"
#include "util.h"

#define PARAM_MAX 8

struct opts {
	const char *sub, *file, *governor, *kgov, *states, *output, *decisions;
	const char *param[PARAM_MAX];
	int nparam;
	enum il_format fmt;
	unsigned int hz;
	bool hz_given;
	int64_t latency_req_ns;
	bool latency_given;
	struct il_cpulist only;
	bool have_only;
	bool platform;            /* --platform: state power from it */
};

/*
 * The trace is read twice (docs/design.md, "Traces in two passes"): the
 * first pass gathers ps (counts, CPUs, states, PM QoS, HZ, poll windows)
 * and keeps no period; the second hands each period to the runs. The rows
 * of --decisions and -o go to unnamed temporary files meanwhile and are
 * copied into their outputs where they used to be written, after the last
 * period, so that a refusal or a governor's crash leaves no output.
 */
struct ctx {
	struct opts o;
	struct il_trace_table tab;
	struct il_trace_periods ps;  /* the first pass's facts */
	struct il_gov *gov, *kgov;
	struct il_trace_run run, krun;
	struct il_trace_source src;
	int bad_cpu, bad_line;       /* the first period on a CPU past the table's */
	bool check;
	struct rows *dec, *log;      /* the rows of --decisions and -o until written */
	uint64_t *conf;
	char params_used[IL_TRACE_PARAM_MAX * 128]; /* "haltpoll.X=V ..." taken from the trace */
	int nparams_used;
	bool param_used[IL_TRACE_PARAM_MAX];
	size_t total, equal, known, row;
	int err;                     /* what stopped the second pass */
};

/*
 * The NAME of --param NAME=VALUE, or of MODULE.NAME=VALUE (the form the
 * idlelab-param lines, the output and replay logs name a module parameter
 * in) when MODULE is gov; NULL for another module's. *n is NAME's length.
 */
static const char *param_name(const char *param, const char *gov, size_t *n)
{
	const char *eq = strchr(param, '=');
	const char *dot = eq ? memchr(param, '.', (size_t)(eq - param)) : NULL;

	if (!eq)
		return NULL;
	if (!dot) {
		*n = (size_t)(eq - param);
		return param;
	}
	if (!gov || strlen(gov) != (size_t)(dot - param) || strncmp(gov, param, (size_t)(dot - param)))
		return NULL;
	*n = (size_t)(eq - dot - 1);
	return dot + 1;
}

/* Does --param set the trace's MODULE.NAME (as NAME= or MODULE.NAME=)? */
static bool param_given(const struct opts *o, const struct il_trace_param *tp)
{
	for (int k = 0; k < o->nparam; k++) {
		size_t n;
		const char *nm = param_name(o->param[k], tp->module, &n);
		if (nm && n == strlen(tp->name) && !strncmp(nm, tp->name, n))
			return true;
	}
	return false;
}

/*
 * The value g's spec gives NAME (n bytes) itself, as haltpoll+
 * guest_halt_poll_ns=5 does, into val; false when it gives none.
 */
static bool spec_sets(const struct il_gov *g, const char *name, size_t n, char *val, size_t size)
{
	for (const char *p = strchr(g->spec, '+'); p; p = strchr(p + 1, '+'))
		if (!strncmp(p + 1, name, n) && p[1 + n] == '=') {
			const char *v = p + 2 + n;
			snprintf(val, size, "%.*s", (int)strcspn(v, "+"), v);
			return true;
		}
	return false;
}

/*
 * --param to the governors: each goes to every one that has it (whatif's
 * and the kernel's; a MODULE.NAME only to the governor named MODULE), and
 * one that none of them has is bad usage. A governor whose spec sets the
 * parameter keeps the spec's value, as sim's --gov-param and replay's log
 * lines leave it. Without a governor (to-replay without --kernel-governor)
 * they are written to the log unjudged.
 */
static int set_params(struct il_gov *const *govs, int ngov, const struct opts *o)
{
	for (int i = 0; i < o->nparam; i++) {
		const char *eq = strchr(o->param[i], '=');
		struct il_err err, first;
		bool taken = false;

		if (!eq || eq == o->param[i] || eq[-1] == '.' || o->param[i][0] == '.')
			return cli_usage_error("trace", "--param: '%s' is not NAME=VALUE or "
					       "MODULE.NAME=VALUE", o->param[i]);
		il_err_clear(&first);
		for (int k = 0; k < ngov; k++) {
			char name[64];
			size_t n;
			const char *nm = param_name(o->param[i], govs[k]->ops->name, &n);

			if (!nm) {
				if (!first.msg[0])
					il_err_set(&first, ENOENT, "not a parameter of %s",
						   govs[k]->ops->name);
				continue;
			}
			if (n >= sizeof(name))
				return cli_usage_error("trace", "--param %s: a name too long",
						       o->param[i]);
			char keep[64];
			bool spec = spec_sets(govs[k], nm, n, keep, sizeof(keep));

			memcpy(name, nm, n);
			name[n] = '\0';
			il_err_clear(&err);
			int x = il_gov_set_param(govs[k], name, eq + 1, &err);
			/* judged all the same, then the spec's value put back */
			if (x == 0 && spec)
				x = il_gov_set_param(govs[k], name, keep, &err);
			if (x == -ENOENT) {
				if (!first.msg[0])
					first = err;
				continue;
			}
			if (x < 0)
				return cli_usage_error("trace", "--param %s: %s", o->param[i],
						       err.msg[0] ? err.msg : "refused by the governor");
			taken = true;
		}
		if (ngov && !taken)
			return cli_usage_error("trace", "--param %s: %s", o->param[i],
					       first.msg[0] ? first.msg : "refused by the governor");
	}
	return 0;
}

/*
 * The trace's "# idlelab-param start MODULE.NAME=VALUE" lines (trace record
 * reads the governors' module parameters at the start): each one of g's
 * module goes to g, unless --param names it or g's spec sets it
 * (haltpoll+guest_halt_poll_ns=200000). A value g refuses is bad input.
 */
static int trace_params(struct ctx *c, struct il_gov *g)
{
	struct il_err err;

	for (int i = 0; g && i < c->ps.nparams; i++) {
		const struct il_trace_param *tp = &c->ps.params[i];
		char patch[64];

		if (strcmp(tp->module, g->ops->name))
			continue;
		snprintf(patch, sizeof(patch), "+%s=", tp->name);
		if (param_given(&c->o, tp) || strstr(g->spec, patch))
			continue;
		il_err_clear(&err);
		if (il_gov_set_param(g, tp->name, tp->value, &err) < 0)
			return cli_error("%s:%d: idlelab-param %s.%s=%s: %s", c->o.file, tp->line,
					 tp->module, tp->name, tp->value,
					 err.msg[0] ? err.msg : "refused by the governor");
		if (!c->param_used[i]) {
			size_t l = strlen(c->params_used);
			c->param_used[i] = true;
			c->nparams_used++;
			snprintf(c->params_used + l, sizeof(c->params_used) - l, "%s%s.%s=%s",
				 l ? " " : "", tp->module, tp->name, tp->value);
		}
	}
	return 0;
}

/* The parameters taken from the trace, for the text and JSON outputs. */
static void params_text(const struct ctx *c, FILE *f)
{
	if (!c->nparams_used)
		return;
	fputs("parameters: ", f);
	il_text_fputs(c->params_used, f);
	fputs(" (the trace's idlelab-param lines)\n", f);
}

static void params_json(const struct ctx *c, struct il_json *w)
{
	il_json_key(w, "trace_params");
	il_json_array(w, IL_JSON_INLINE);
	for (int i = 0; i < c->ps.nparams; i++)
		if (c->param_used[i]) {
			char buf[128];
			const struct il_trace_param *tp = &c->ps.params[i];
			snprintf(buf, sizeof(buf), "%s.%s=%s", tp->module, tp->name, tp->value);
			il_json_string(w, buf);
		}
	il_json_end(w);
}

static bool want(const struct opts *o, int cpu)
{
	return !o->have_only || il_cpulist_has(&o->only, cpu);
}

static void state_name(const struct ctx *c, int i, char *buf, size_t n)
{
	snprintf(buf, n, "%s", i >= 0 && i < c->tab.drv.state_count ? c->tab.drv.states[i].name : "?");
}

/* The latency limit of a period on cpu: --latency-req, else the trace's PM QoS lines. */
static int64_t latency_req(const struct ctx *c, int cpu)
{
	return c->o.latency_given ? c->o.latency_req_ns
				  : il_trace_periods_latency_req(&c->ps, cpu, NULL);
}

static void latency_text(const struct ctx *c, char *buf, size_t n)
{
	const struct il_trace_periods *ps = &c->ps;

	if (c->o.latency_given)
		snprintf(buf, n, "from --latency-req");
	else if (ps->qos_global_known || ps->qos_ncpus)
		snprintf(buf, n, "from the PM QoS lines at the window's start (%s)",
			 ps->qos_changed ? "changed by the end: estimated" :
			 ps->qos_end_lines ? "the same at the end" : "no end lines");
	else
		snprintf(buf, n, "none (no PM QoS input)");
}

/* ---------------------------------------------------------------- check */

static int check_out(struct ctx *c, const uint64_t *conf, int ncpus, size_t total, size_t equal,
		     size_t known)
{
	int ns = c->tab.drv.state_count;
	struct il_table *tb = il_table_new("agreement (rows: the kernel's state; picked_N: the governor's)");
	char name[IL_NAME_LEN + 8], col[32];
	int r;

	il_table_keys(tb, 3);
	il_table_col(tb, "cpu");
	il_table_col(tb, "state");
	il_table_col(tb, "name");
	il_table_col(tb, "periods");
	il_table_col(tb, "agree");
	for (int j = 0; j < ns; j++) {
		snprintf(col, sizeof(col), "picked_%d", j);
		il_table_col(tb, col);
	}
	for (int cpu = -1; cpu < ncpus; cpu++) {
		for (int i = 0; i < ns; i++) {
			uint64_t per = 0, sum[IL_STATE_MAX] = { 0 };
			for (int k = cpu < 0 ? 0 : cpu; k < (cpu < 0 ? ncpus : cpu + 1); k++)
				for (int j = 0; j < ns; j++)
					sum[j] += conf[((size_t)k * IL_STATE_MAX + (size_t)i) * IL_STATE_MAX + (size_t)j];
			for (int j = 0; j < ns; j++)
				per += sum[j];
			if (cpu >= 0 && !per)
				continue;
			il_table_row(tb);
			if (cpu < 0)
				il_table_str(tb, "all");
			else
				il_table_u64(tb, (unsigned)cpu);
			il_table_u64(tb, (unsigned)i);
			state_name(c, i, name, sizeof(name));
			il_table_str(tb, name);
			il_table_u64(tb, per);
			il_table_u64(tb, sum[i]);
			for (int j = 0; j < ns; j++)
				il_table_u64(tb, sum[j]);
		}
	}
	char desc[256];
	il_gov_describe(c->gov, desc, sizeof(desc));
	double pct = total ? 100.0 * (double)equal / (double)total : 0;
	if (c->o.fmt == IL_FORMAT_CSV) {
		r = il_table_print(tb, c->o.fmt, stdout);
	} else if (c->o.fmt == IL_FORMAT_JSON) {
		struct il_json w;
		il_json_init(&w, stdout);
		il_json_object(&w, IL_JSON_BLOCK);
		il_json_kstring(&w, "file", c->o.file);
		il_json_kstring(&w, "governor", desc);
		il_json_kstring(&w, "states_from", c->tab.origin);
		il_json_kuint(&w, "hz", c->o.hz);
		params_json(c, &w);
		il_json_kuint(&w, "periods", total);
		il_json_kuint(&w, "agree", equal);
		il_json_kdouble(&w, "agree_pct", pct);
		il_json_kuint(&w, "periods_with_timers", known);
		il_json_kuint(&w, "partial_start", c->ps.partial_start);
		il_json_kuint(&w, "unfinished", c->ps.unfinished);
		il_json_kuint(&w, "dropped", c->ps.dropped);
		il_json_key(&w, "agreement");
		il_table_json(tb, &w);
		il_json_end(&w);
		r = il_json_finish(&w);
	} else {
		/* the facts folded to the table's width */
		struct il_fold fd;
		FILE *f = il_fold_open(&fd);
		if (f) {
			il_text_fputs(c->o.file, f);
			fprintf(f, ": %zu idle periods, %s\n", total, desc);
			fputs("states: ", f);
			il_text_fputs(c->tab.origin, f);
			fputc('\n', f);
			params_text(c, f);
			/* truncated, as governor check's: rounded, one in 40000 said 100.00 */
			unsigned long long bp = cli_share_bp(equal, total);
			fprintf(f, "agreement: %zu of %zu periods (%llu.%02llu %%) the governor picks "
				"the kernel's state\n", equal, total, bp / 100, bp % 100);
			fprintf(f, "inputs: sleep length and next event from the hrtimer queue in %zu of "
				"%zu periods (estimated; the rest before the CPU's first hrtimer expiry: "
				"none known)\n", known, total);
			char lim[160];
			latency_text(c, lim, sizeof(lim));
			fprintf(f, "inputs: tick stopped from %s; latency limit %s; HZ %u (%s)\n",
				c->ps.tick_stops ? (c->ps.sched_switch ? "tick_stop and sched_switch"
					: "tick_stop (no sched_switch events: never restarted)")
					: "nothing (no tick_stop events: running)",
				lim, c->o.hz,
				c->o.hz_given ? "--hz" : c->ps.hz ? "the trace's idlelab-kernel line" :
				"the default: give --hz");
			fprintf(f, "edges: %llu exit(s) without entry, %llu unfinished, %llu dropped\n",
				(unsigned long long)c->ps.partial_start,
				(unsigned long long)c->ps.unfinished, (unsigned long long)c->ps.dropped);
		}
		r = f ? il_fold_close(&fd, IL_TABLE_WIDTH, stdout) : -ENOMEM;
		putchar('\n');
		if (!r)
			r = il_table_print(tb, c->o.fmt, stdout);
	}
	il_table_free(tb);
	return r;
}

/* ---------------------------------------------------------------- whatif */

static void energy_cell(struct il_table *tb, const struct il_state *s, uint64_t time_ns,
			bool platform)
{
	if (!platform || s->power_w < 0)
		il_table_na(tb);
	else
		il_table_dbl(tb, s->power_w * (double)time_ns / 1e9, 6);
}

static int whatif_out(struct ctx *c)
{
	struct il_table *tb = il_table_new("idle states: the governor (usage...) and the kernel (kernel_...)");
	const struct il_driver *drv = &c->tab.drv;
	char name[IL_NAME_LEN + 8];
	int r;
	static const char *const cols[] = {
		"cpu", "state", "name", "usage", "time_us", "above", "below", "energy_j",
		"exit_latency_us", "kernel_usage", "kernel_time_us", "kernel_above", "kernel_below",
		"kernel_energy_j", "kernel_exit_latency_us",
	};

	il_table_keys(tb, 3);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(tb, cols[i]);
	for (int cpu = 0; cpu < c->ps.ncpus; cpu++) {
		if (!want(&c->o, cpu))
			continue;
		for (int i = 0; i < drv->state_count; i++) {
			const struct il_state_usage *g = &c->run.devs[cpu].states_usage[i];
			const struct il_state_usage *k = &c->krun.devs[cpu].states_usage[i];
			const struct il_state *s = &drv->states[i];

			il_table_row(tb);
			il_table_u64(tb, (unsigned)cpu);
			il_table_u64(tb, (unsigned)i);
			state_name(c, i, name, sizeof(name));
			il_table_str(tb, name);
			il_table_u64(tb, g->usage);
			il_table_u64(tb, g->time_ns / 1000);
			il_table_u64(tb, g->above);
			il_table_u64(tb, g->below);
			energy_cell(tb, s, g->time_ns, c->o.platform);
			il_table_dbl(tb, (double)g->usage * (double)s->exit_latency_ns / 1000, 3);
			il_table_u64(tb, k->usage);
			il_table_u64(tb, k->time_ns / 1000);
			il_table_u64(tb, k->above);
			il_table_u64(tb, k->below);
			energy_cell(tb, s, k->time_ns, c->o.platform);
			il_table_dbl(tb, (double)k->usage * (double)s->exit_latency_ns / 1000, 3);
		}
	}
	if (c->o.fmt == IL_FORMAT_JSON) {
		struct il_json w;
		char desc[256];
		il_gov_describe(c->gov, desc, sizeof(desc));
		il_json_init(&w, stdout);
		il_json_object(&w, IL_JSON_BLOCK);
		il_json_kstring(&w, "file", c->o.file);
		il_json_kstring(&w, "governor", desc);
		il_json_kstring(&w, "states_from", c->tab.origin);
		params_json(c, &w);
		il_json_kuint(&w, "periods", c->ps.n);
		il_json_key(&w, "states");
		il_table_json(tb, &w);
		il_json_end(&w);
		r = il_json_finish(&w);
	} else {
		if (c->o.fmt == IL_FORMAT_TABLE) {
			char desc[256];
			il_gov_describe(c->gov, desc, sizeof(desc));
			struct il_fold fd;
			FILE *f = il_fold_open(&fd);
			if (!f) {
				il_table_free(tb);
				return -ENOMEM;
			}
			il_text_fputs(c->o.file, f);
			fprintf(f, ": %zu idle periods re-decided by %s\nstates: ", c->ps.n, desc);
			il_text_fputs(c->tab.origin, f);
			fputc('\n', f);
			params_text(c, f);
			fputs("energy: state power x residency (n/a without --platform or its "
			      "power.NAME); exit_latency_us: the states' exit latency summed over their "
			      "entries\n", f);
			if (il_fold_close(&fd, IL_TABLE_WIDTH, stdout)) {
				il_table_free(tb);
				return -ENOMEM;
			}
			putchar('\n');
		}
		r = il_table_print(tb, c->o.fmt, stdout);
	}
	il_table_free(tb);
	return r;
}

/* ------------------------------------------------------- rows until written */

struct rows {
	FILE *f;
	char dir[4200];           /* where f is */
	bool beside;              /* in the output's directory: its file system */
	int werr;                 /* errno of the first failed write */
};

/*
 * The rows of output path, until they are copied there: beside it when it
 * is a file (the same file system it will be written to), else (standard
 * output, a device, a FIFO, a directory that cannot take it) in $TMPDIR.
 */
static int rows_open(struct rows **rp, const char *path)
{
	struct rows *r = calloc(1, sizeof(*r));
	struct stat st;

	if (!(*rp = r))
		return cli_error("out of memory");
	if (strcmp(path, "-") && (stat(path, &st) ? errno == ENOENT : S_ISREG(st.st_mode))) {
		const char *slash = strrchr(path, '/');
		if (!slash)
			snprintf(r->dir, sizeof(r->dir), ".");
		else
			snprintf(r->dir, sizeof(r->dir), "%.*s", slash == path ? 1 : (int)(slash - path),
				 path);
		if ((r->f = il_unnamed_file(r->dir, ".idlelab-rows"))) {
			r->beside = true;
			return 0;
		}
	}
	snprintf(r->dir, sizeof(r->dir), "%s", il_tmp_dir());
	if (!(r->f = il_unnamed_file(r->dir, ".idlelab-rows")))
		return cli_error("%s: cannot make a temporary file: %s", r->dir, strerror(errno));
	return 0;
}

static void rows_free(struct rows *r)
{
	if (r && r->f)
		fclose(r->f);
	free(r);
}

/*
 * Whether all rows for output path were written, before it is opened (a
 * direct output gets nothing then). A failed write beside the output is
 * the output's, said as il_out says it.
 */
static int rows_check(struct rows *r, const char *path)
{
	if (!r->werr && fflush(r->f))
		r->werr = errno;
	if (!r->werr && ferror(r->f))
		r->werr = EIO;
	if (!r->werr)
		return 0;
	return r->beside ? cli_error("%s: cannot write: %s", path, strerror(r->werr))
			 : cli_error("%s: cannot write a temporary file: %s", r->dir,
				     strerror(r->werr));
}

/* Copy the rows to an output (whose own write errors il_out_close reports). */
static int copy_rows(struct rows *r, struct il_out *out)
{
	char buf[1 << 16];
	size_t k;

	if (fseeko(r->f, 0, SEEK_SET))
		return cli_error("%s: cannot read a temporary file back: %s", r->dir, strerror(errno));
	while ((k = fread(buf, 1, sizeof(buf), r->f)) > 0)
		if (fwrite(buf, 1, k, out->f) != k)
			break;
	if (ferror(r->f))
		return cli_error("%s: cannot read a temporary file back: %s", r->dir, strerror(errno));
	return 0;
}

/* ------------------------------------------------------------- to-replay */

/*
 * The "# param,NAME,VALUE" lines write_log() writes must be ones replay
 * reads back (replay_log.c): at most IL_REPLAY_PARAM_MAX, a name without a
 * comma and shorter than its 48 bytes, a value shorter than 64. Said
 * before the trace is read again, so that no log is written.
 */
static int log_params_check(const struct ctx *c)
{
	struct il_replay_param rp;
	int n = c->o.nparam;

	for (int i = 0; i < c->o.nparam; i++) {
		const char *p = c->o.param[i], *eq = strchr(p, '=');
		if (memchr(p, ',', (size_t)(eq - p)))
			return cli_usage_error("trace", "--param %s: a replay log's param name has "
					       "no comma", p);
		if ((size_t)(eq - p) >= sizeof(rp.name) || strlen(eq + 1) >= sizeof(rp.value))
			return cli_usage_error("trace", "--param %s: a replay log's param name is at "
					       "most %zu bytes, its value %zu", p, sizeof(rp.name) - 1,
					       sizeof(rp.value) - 1);
	}
	for (int i = 0; i < c->ps.nparams; i++) {
		const struct il_trace_param *tp = &c->ps.params[i];
		if (param_given(&c->o, tp))
			continue;
		n++;
		if (strlen(tp->module) + 1 + strlen(tp->name) >= sizeof(rp.name))
			return cli_error("%s:%d: idlelab-param %s.%s: a replay log's param name is at "
					 "most %zu bytes", c->o.file, tp->line, tp->module, tp->name,
					 sizeof(rp.name) - 1);
	}
	if (n > IL_REPLAY_PARAM_MAX)
		return cli_error("%s: a replay log holds at most %d params: %d from --param and %d "
				 "from the trace's idlelab-param lines", c->o.file, IL_REPLAY_PARAM_MAX,
				 c->o.nparam, n - c->o.nparam);
	return 0;
}

static int write_log(struct ctx *c, struct il_out *out)
{
	FILE *f = out->f;
	const struct il_driver *drv = &c->tab.drv;
	char flags[128];

	fprintf(f, "%s\n# generator=idlelab-trace-to-replay\n# hz=%u\n", IL_REPLAY_MAGIC, c->o.hz);
	for (int i = 0; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];
		unsigned int fl = s->flags & (IL_FLAG_POLLING | IL_FLAG_COUPLED | IL_FLAG_TIMER_STOP |
					      IL_FLAG_TLB_FLUSHED | IL_FLAG_RCU_IDLE);
		il_state_flags_str(fl, flags, sizeof(flags));
		if (!strcmp(flags, "none") || !strcmp(flags, "-"))
			flags[0] = '\0';
		for (char *q = flags; *q; q++)
			if (*q == ',' || *q == ' ')
				*q = '|';
		if (strchr(s->name, ','))
			return cli_error("state %d: its name '%s' has a comma, which a replay log "
					 "cannot hold", i, s->name);
		fprintf(f, "# state,%d,%s,%" PRId64 ",%" PRId64 ",%s\n", i, s->name,
			s->exit_latency_ns, s->target_residency_ns, flags);
	}
	for (int i = 0; i < drv->state_count; i++)
		if (c->tab.disabled & (1u << i))
			fprintf(f, "# disable,%d\n", i);
	for (int i = 0; i < c->o.nparam; i++) {
		const char *eq = strchr(c->o.param[i], '=');
		fprintf(f, "# param,%.*s,%s\n", (int)(eq - c->o.param[i]), c->o.param[i], eq + 1);
	}
	/*
	 * The trace's idlelab-param lines, named by module: replay gives each
	 * to the governor of that name, as whatif does, and no other.
	 */
	for (int i = 0; i < c->ps.nparams; i++) {
		const struct il_trace_param *tp = &c->ps.params[i];

		if (!param_given(&c->o, tp))
			fprintf(f, "# param,%s.%s,%s\n", tp->module, tp->name, tp->value);
	}
	fprintf(f, "%s\n", IL_REPLAY_COLUMNS);
	return copy_rows(c->log, out);
}

/* ------------------------------------------------------------------ main */

static const char usage[] =
	"usage: idlelab trace check --governor SPEC FILE [options]\n"
	"       idlelab trace whatif --governor SPEC FILE [options]\n"
	"       idlelab trace to-replay FILE -o LOG [options]\n"
	"options: --states DIR|PLATFORM (default /sys/devices/system/cpu), --platform P (the\n"
	"  same as --states P), --cpu LIST, --format table|csv|json, --hz N (default: the\n"
	"  trace's idlelab-kernel line, else 250, the Kconfig default),\n"
	"  --latency-req NS (default: the trace's idlelab-pmqos lines, else none),\n"
	"  --param [MODULE.]NAME=VALUE (default: the trace's idlelab-param lines; MODULE.NAME\n"
	"  for the governor named MODULE only), --kernel-governor SPEC (the kernel's governor,\n"
	"  for the poll limit of whatif and to-replay; check uses --governor),\n"
	"  --decisions FILE (the governor's row,cpu,selected,stop_tick: a decisions file)\n";

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "governor", required_argument, NULL, 'g' }, { "states", required_argument, NULL, 's' },
		{ "platform", required_argument, NULL, 'P' }, { "cpu", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },   { "hz", required_argument, NULL, 'z' },
		{ "latency-req", required_argument, NULL, 'l' }, { "param", required_argument, NULL, 'p' },
		{ "kernel-governor", required_argument, NULL, 'k' },
		{ "decisions", required_argument, NULL, 'd' }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct il_err err;
	int ch, once;

	o->sub = argv[0];
	o->hz = IL_HZ_DEFAULT;
	o->latency_req_ns = IL_TRACE_NO_QOS_NS;
	o->states = "/sys/devices/system/cpu";
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":g:o:", lo, NULL)) != -1) {
		switch (ch) {
		case 'g': {
			char why[64];
			snprintf(why, sizeof(why), "%s decides with one governor", o->sub);
			if ((once = cli_option_once("trace", "--governor", &o->governor, NULL, optarg,
						    why)))
				return once;
			break;
		}
		case 's': o->states = optarg; break;
		case 'P': o->states = optarg; o->platform = true; break;
		case 'k':
			if ((once = cli_option_once("trace", "--kernel-governor", &o->kgov, NULL,
						    optarg, NULL)))
				return once;
			break;
		case 'd': o->decisions = optarg; break;
		case 'o': o->output = optarg; break;
		case 'c':
			if (il_cpulist_parse(optarg, &o->only, &err))
				return cli_usage_error("trace", "--cpu: %s", err.msg);
			o->have_only = true;
			break;
		case 'f':
			if (il_format_parse(optarg, &o->fmt))
				return cli_usage_error("trace", "unknown format '%s'", optarg);
			break;
		case 'z': {
			uint64_t v;
			/* strtoul() would take "-18446744073709551615" for 1 */
			if (il_parse_u64(optarg, &v) || v < 1 || v > IL_REPLAY_HZ_MAX)
				return cli_usage_error("trace", "--hz: '%s' is not 1..%d", optarg,
						       IL_REPLAY_HZ_MAX);
			o->hz = (unsigned)v;
			o->hz_given = true;
			break;
		}
		case 'l': {
			int64_t v;
			if (il_parse_i64(optarg, &v) || v < 0)
				return cli_usage_error("trace", "--latency-req: '%s' is not ns >= 0", optarg);
			o->latency_req_ns = v;
			o->latency_given = true;
			break;
		}
		case 'p':
			if (o->nparam == PARAM_MAX || !strchr(optarg, '='))
				return cli_usage_error("trace", "--param: '%s': NAME=VALUE, at most %d",
						       optarg, PARAM_MAX);
			o->param[o->nparam++] = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		case ':':
			return cli_usage_error("trace", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("trace", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage_error("trace", "%s needs a trace FILE", o->sub);
	if (optind + 1 < argc)
		return cli_usage_error("trace", "unexpected argument '%s'", argv[optind + 1]);
	o->file = argv[optind];
	if (strcmp(o->sub, "to-replay") && !o->governor)
		return cli_usage_error("trace", "%s needs --governor SPEC", o->sub);
	if (!strcmp(o->sub, "to-replay") && !o->output)
		return cli_usage_error("trace", "to-replay needs -o LOG");
	/* an option a subcommand does not read is refused, not ignored */
	if (strcmp(o->sub, "to-replay") && o->output)
		return cli_usage_error("trace", "%s takes no -o (it prints on standard output; "
				       "-o is to-replay's LOG)", o->sub);
	if (!strcmp(o->sub, "check") && o->kgov)
		return cli_usage_error("trace", "check takes no --kernel-governor (its --governor "
				       "runs with the kernel's history)");
	int r;
	if ((r = cli_name_given("trace", "FILE", "file", o->file)) ||
	    (r = cli_name_given("trace", "-o", "file", o->output)) ||
	    (r = cli_name_given("trace", "--decisions", "file", o->decisions)) ||
	    (r = cli_output_not_input("trace", "-o", o->output, o->file)) ||
	    (r = cli_output_not_input("trace", "--decisions", o->decisions, o->file)))
		return r;
	if (cli_same_file(o->decisions, o->output))
		return cli_usage_error("trace", "--decisions %s: the same file as -o %s",
				       o->decisions, o->output);
	return 0;
}

static int write_decisions(struct ctx *c)
{
	struct il_out out;
	struct il_err err;
	int r;

	if ((r = rows_check(c->dec, c->o.decisions)))
		return r;
	if (il_out_open(&out, c->o.decisions, &err))
		return cli_report(&err);
	fprintf(out.f, "row,cpu,selected,stop_tick\n");
	if ((r = copy_rows(c->dec, &out))) {
		il_out_close(&out, false, &err);
		return r;
	}
	if ((r = il_out_close(&out, true, &err)))
		return cli_report(&err);
	return 0;
}

/* The first pass: the first period on a CPU the state table's platform lacks. */
static int first_pass(void *arg, struct il_trace_period *p)
{
	struct ctx *c = arg;

	if (c->tab.ncpus && p->cpu >= c->tab.ncpus && !c->bad_line) {
		c->bad_line = p->line;
		c->bad_cpu = p->cpu;
	}
	return 0;
}

/* The second pass: a period decided by the runs, counted, its rows spooled. */
static int second_pass(void *arg, struct il_trace_period *p)
{
	struct ctx *c = arg;
	struct opts *o = &c->o;
	bool st, stop;
	int64_t lat = latency_req(c, p->cpu);

	if (il_gov_watch)
		il_gov_watch->row = p->line;
	int k = il_trace_run_step(&c->krun, p, lat, &st);
	int sel = k;

	stop = st;
	if (c->run.devs)
		sel = il_trace_run_step(&c->run, p, lat, &stop);
	/* as replay: a state that is not in the table is the governor's error */
	const struct il_gov *bad = c->kgov && (k < 0 || k >= c->tab.drv.state_count) ? c->kgov
		: c->run.devs && (sel < 0 || sel >= c->tab.drv.state_count) ? c->gov
		: NULL;
	if (bad) {
		c->err = cli_error("%s:%d: governor %s returned an invalid state index %d (%d states)",
				   o->file, p->line, bad->spec, bad == c->kgov ? k : sel,
				   c->tab.drv.state_count);
		return c->err;
	}
	if (!want(o, p->cpu))
		return 0;
	c->total++;
	c->known += p->timers_known;
	if (c->check && k >= 0 && k < IL_STATE_MAX) {
		c->equal += k == p->state;
		c->conf[((size_t)p->cpu * IL_STATE_MAX + (size_t)p->state) * IL_STATE_MAX + (size_t)k]++;
	}
	if (c->dec && fprintf(c->dec->f, "%zu,%d,%d,%d\n", c->row++, p->cpu, sel, stop) < 0 &&
	    !c->dec->werr)
		c->dec->werr = errno ? errno : EIO;
	if (c->log && fprintf(c->log->f, "%d,%" PRId64 ",%" PRId64 ",%d,%" PRId64 ",0,0,%" PRId64
			      ",%d,%d\n", p->cpu, p->sleep_length_ns, p->delta_tick_ns,
			      p->tick_stopped, lat, p->residency_ns, p->got_tick,
			      p->poll_time_limit) < 0 && !c->log->werr)
		c->log->werr = errno ? errno : EIO;
	return 0;
}

/*
 * The trace was recorded with no cpuidle driver ("# idlelab-cpuidle start
 * driver=none"): every idle period is default_idle_call()'s, which no
 * governor chose, so there is no kernel's decision to check, re-decide
 * beside or log.
 */
static int no_driver(struct ctx *c)
{
	return cli_error("%s: recorded with no cpuidle driver (idlelab-cpuidle driver=none): its "
			 "idle periods are the default idle routine's, which no governor chose; "
			 "trace %s has no kernel's decisions to work from (trace report shows the "
			 "periods; sim --platform P with --set options models a driver on the machine)",
			 c->o.file, c->o.sub);
}

static int go(struct ctx *c)
{
	struct opts *o = &c->o;
	struct il_trace_periods again = { 0 };
	struct il_err err;
	int r;

	if (load_table(o->states, &c->tab, &err)) {
		/* a trace of a machine without a driver: that, not its missing table, is why */
		struct il_err e2;

		if (!il_trace_source_open(&c->src, o->file, true, &e2) &&
		    !il_trace_periods_scan(&c->ps, &c->src, NULL, NULL, &e2) &&
		    !strcmp(c->ps.driver, "none"))
			return no_driver(c);
		return cli_error("--states %s: %s", o->states ? o->states :
				 "/sys/devices/system/cpu", err.msg);
	}
	if (il_trace_source_open(&c->src, o->file, true, &err) ||
	    il_trace_periods_scan(&c->ps, &c->src, first_pass, c, &err))
		return cli_report(&err);
	if (!strcmp(c->ps.driver, "none"))
		return no_driver(c);
	trace_names_check(o->file, (const char (*)[32])c->ps.sysfs_name, &c->tab.drv,
			  o->states ? o->states : "/sys/devices/system/cpu");
	/* as trace report says it */
	if (c->ps.cut_line)
		cli_error("warning: %s:%d: the last line has no newline (a trace cut short?): left out",
			  o->file, c->ps.cut_line);
	/* a period on a CPU the platform does not have: the trace is not of it */
	if (c->bad_line)
		return cli_error("%s:%d: cpu_idle: cpu_id %d is past the %d CPUs of %s", o->file,
				 c->bad_line, c->bad_cpu, c->tab.ncpus, c->tab.origin);
	if (c->ps.n && c->ps.maxstate >= c->tab.drv.state_count)
		return cli_error("%s: state %d entered, not in the state table of %s (%d states)",
				 o->file, c->ps.maxstate, c->tab.origin, c->tab.drv.state_count);
	/*
	 * sysfs shows no flags, and pseries' snooze is a CPUIDLE_FLAG_POLLING
	 * state from v6.2 only (5ddcc03a07ae): in a trace of an older kernel
	 * it spins without the flag, which the governors and the poll time
	 * limit see (a platform's table follows its release already)
	 */
	if (c->tab.sysfs && c->ps.release[0] && !il_pseries_snooze_polling(c->ps.release))
		for (int i = 0; i < c->tab.drv.state_count; i++) {
			struct il_state *st = &c->tab.drv.states[i];
			size_t l = strlen(c->tab.origin);

			if (strcmp(st->name, "snooze") || !(st->flags & IL_FLAG_POLLING))
				continue;
			st->flags &= ~IL_FLAG_POLLING;
			snprintf(c->tab.origin + l, sizeof(c->tab.origin) - l, "; snooze without "
				 "CPUIDLE_FLAG_POLLING: kernel %s (before 6.2, 5ddcc03a07ae)",
				 c->ps.release);
		}
	int ncpus = c->ps.ncpus ? c->ps.ncpus : 1;
	/* the kernel's CONFIG_HZ from trace record's kernel line, unless --hz says */
	if (!o->hz_given && c->ps.hz)
		o->hz = c->ps.hz;
	bool check = c->check = !strcmp(o->sub, "check");
	const char *kspec = check ? o->governor : o->kgov;
	if (kspec && !(c->kgov = il_gov_new(kspec, ncpus, &err)))
		return cli_usage_error("trace", "--%sgovernor %s: %s", check ? "" : "kernel-", kspec,
				       err.msg);
	if (o->governor && !check && !(c->gov = il_gov_new(o->governor, ncpus, &err)))
		return cli_usage_error("trace", "--governor %s: %s", o->governor, err.msg);
	if (check)
		c->gov = c->kgov;
	if ((r = trace_params(c, c->kgov)) || (!check && (r = trace_params(c, c->gov))))
		return r;
	{
		struct il_gov *govs[2];
		int ngov = 0;

		if (c->kgov)
			govs[ngov++] = c->kgov;
		if (c->gov && c->gov != c->kgov)
			govs[ngov++] = c->gov;
		if ((r = set_params(govs, ngov, o)))
			return r;
	}
	if (!strcmp(o->sub, "to-replay") && (r = log_params_check(c)))
		return r;
	/* check judges picks against the kernel's: say when its governor was another */
	if (c->kgov && c->ps.governor[0] && strcmp(c->ps.governor, "-") &&
	    strcmp(c->ps.governor, c->kgov->ops->name)) {
		if (check)
			cli_error("warning: %s: recorded under the governor %s: check compares %s's "
				  "picks with %s's, not a run of %s with itself", o->file,
				  c->ps.governor, c->kgov->ops->name, c->ps.governor, c->kgov->ops->name);
		else
			cli_error("warning: %s: recorded under the governor %s: --kernel-governor %s "
				  "is not the kernel's", o->file, c->ps.governor, c->kgov->ops->name);
	}
	/* the kernel's run: its state entered, the governor (if known) deciding alongside */
	if ((r = il_trace_run_init(&c->krun, &c->tab.drv, c->tab.disabled, c->kgov, true, o->hz,
				   ncpus, &err)))
		return cli_report(&err);
	/* the kernel's device: its poll window at the start, where the trace shows it */
	il_trace_run_seed(&c->krun, &c->ps);
	if (!check && c->gov && (r = il_trace_run_init(&c->run, &c->tab.drv, c->tab.disabled,
						       c->gov, false, o->hz, ncpus, &err)))
		return cli_report(&err);
	c->conf = calloc((size_t)ncpus * IL_STATE_MAX * IL_STATE_MAX, sizeof(*c->conf));
	if (!c->conf)
		return cli_error("out of memory");
	bool to_replay = !strcmp(o->sub, "to-replay");
	if ((o->decisions && (r = rows_open(&c->dec, o->decisions))) ||
	    (to_replay && (r = rows_open(&c->log, o->output))))
		return r;
	/* the second pass: the periods, in the order of the first */
	if (il_trace_periods_scan(&again, &c->src, second_pass, c, &err)) {
		r = c->err ? c->err : cli_report(&err);
		goto out;
	}
	if (again.n != c->ps.n) {
		r = cli_error("%s: changed while read (%zu idle periods, then %zu)", o->file, c->ps.n,
			      again.n);
		goto out;
	}
	if (o->decisions && (r = write_decisions(c)))
		goto out;
	if (to_replay) {
		struct il_out out;
		/* a log without a row replays nothing: say so rather than write it */
		if (!c->total) {
			r = cli_error("%s: no idle period (a power:cpu_idle entry and its exit)%s; "
				      "no log written", o->file, o->have_only ? " on the CPUs of --cpu" : "");
			goto out;
		}
		if ((r = rows_check(c->log, o->output)))
			goto out;
		if (il_out_open(&out, o->output, &err)) {
			r = cli_report(&err);
			goto out;
		}
		r = write_log(c, &out);
		if (il_out_close(&out, r == 0, &err) && !r)
			r = cli_report(&err);
		goto out;
	}
	r = check ? check_out(c, c->conf, ncpus, c->total, c->equal, c->known) : whatif_out(c);
	if (r || fflush(stdout) || ferror(stdout))
		r = cli_error("standard output: cannot write: %s", strerror(errno));
out:
	il_trace_periods_free(&again);
	return r;
}

static int go_child(void *arg)
{
	return go(arg);
}

/* Is spec a governor loaded from an object (or a file built into one)? */
static bool loaded(const char *spec)
{
	struct il_err err;
	struct il_gov *g = spec ? il_gov_new(spec, 1, &err) : NULL;
	bool l = g && il_gov_is_loaded(g);

	il_gov_free(g);
	return l;
}

int cli_trace_whatif(int argc, char **argv)
{
	struct ctx *c = calloc(1, sizeof(*c));
	char name[512] = "";
	int r;

	if (!c)
		return cli_error("out of memory");
	r = parse(argc, argv, &c->o);
	/*
	 * A loaded governor runs in a child: its crash or loop is reported
	 * with the trace line of the period being decided.
	 */
	if (r == 0) {
		bool lg = loaded(c->o.governor), lk = loaded(c->o.kgov);
		if (lg && lk)
			snprintf(name, sizeof(name), "%s or %s", c->o.governor, c->o.kgov);
		else if (lg || lk)
			snprintf(name, sizeof(name), "%s", lg ? c->o.governor : c->o.kgov);
		r = *name ? cli_contained(name, c->o.file, go_child, c) : go(c);
	}
	else if (r < 0)
		r = 0;
	il_trace_run_free(&c->run);
	il_trace_run_free(&c->krun);
	if (c->kgov != c->gov)
		il_gov_free(c->gov);
	il_gov_free(c->kgov);
	il_trace_periods_free(&c->ps);
	il_trace_source_close(&c->src);
	rows_free(c->dec);
	rows_free(c->log);
	free(c->conf);
	il_cpulist_free(&c->o.only);
	free(c);
	return r;
}
