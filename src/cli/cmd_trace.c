// SPDX-License-Identifier: GPL-2.0-only
/* idlelab trace report: per-CPU, per-state idle statistics of an ftrace text trace. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "idlelab/drivers.h"
#include "idlelab/json.h"
#include "idlelab/platform.h"
#include "idlelab/report.h"
#include "idlelab/sysfs.h"
#include "idlelab/trace.h"
#include "trace_dat.h"
#include "trace_record.h"
#include "trace_whatif.h"

static const char usage[] =
	"usage: idlelab trace report FILE [--cpu LIST] [--format table|csv|json]\n"
	"                            [--states DIR|PLATFORM] [--baseline FILE]\n"
	"                            [--table states|wakeups] [--window FROM,TO]\n"
	TRACE_RECORD_SYNOPSIS
	"       idlelab trace check --governor SPEC FILE [--states DIR|PLATFORM]\n"
	"                           [--cpu LIST] [--format table|csv|json] [--hz N]\n"
	"                           [--latency-req NS] [--param NAME=VALUE]...\n"
	"                           [--decisions FILE]\n"
	"       idlelab trace whatif --governor SPEC FILE [--platform P]\n"
	"                            [--cpu LIST] [--format table|csv|json] [--hz N]\n"
	"                            [--latency-req NS] [--param NAME=VALUE]...\n"
	"                            [--decisions FILE] [--kernel-governor SPEC]\n"
	"       idlelab trace to-replay FILE -o LOG [--states DIR|PLATFORM]\n"
	"                               [--cpu LIST] [--hz N] [--latency-req NS]\n"
	"                               [--param NAME=VALUE]... [--decisions FILE]\n"
	"                               [--kernel-governor SPEC]\n"
	"\n"
	"trace check rebuilds each idle period's governor inputs from the trace\n"
	"(hrtimer queue, tick_stop) and says how often SPEC picks the state the\n"
	"kernel picked; trace whatif re-decides the periods with SPEC and prints\n"
	"trace report's columns beside the kernel's; trace to-replay writes them\n"
	"as a replay log for idlelab replay. Their inputs the trace cannot show\n"
	"come from the lines trace record writes, unless given:\n"
	"  --hz N            CONFIG_HZ (the idlelab-kernel line, else 250)\n"
	"  --latency-req NS  the PM QoS limit (the idlelab-pmqos lines, else none)\n"
	"  --param N=V       a governor parameter (the idlelab-param lines: the\n"
	"                    module parameters, haltpoll.guest_halt_poll_ns, ...)\n"
	"\n"
	"Reads an ftrace text trace (the tracefs trace file, or trace-cmd report\n"
	"output; FILE - is standard input), or a trace-cmd .dat file when idlelab\n"
	"was built with libtracecmd, with power:cpu_idle events, and prints\n"
	"per CPU and idle state what the kernel's sysfs counters count: usage,\n"
	"time_us, above, below, with the residency's min/avg/max, and what woke\n"
	"each CPU (tick, timer by function, IPI by the sender's callsite, device\n"
	"interrupt by name) with the latency to the next sched_switch on it.\n"
	"Above and below come from power:cpu_idle_miss events when the trace has\n"
	"them, else by the kernel's rule from the state table of --states; the\n"
	"output says which. A trace recorded with no cpuidle driver (its\n"
	"idlelab-cpuidle line says driver=none) has none, --states or not: no\n"
	"governor chose its periods (state 1 \"default\", the default idle routine;\n"
	"state 0 \"poll\", idle=poll's loop), and check, whatif and to-replay\n"
	"refuse it. What is exact and what is estimated: docs/trace.md.\n"
	"\n"
	"  --cpu LIST      only these CPUs (\"0-3,8\")\n"
	"  --format F      table (default), csv or json\n"
	"  --states S      the state table for the rule and the state names: a\n"
	"                  sysfs tree (/sys/devices/system/cpu or a copy saved by\n"
	"                  idlelab info --save; its first CPU), one CPU's cpuidle\n"
	"                  directory (.../cpu3/cpuidle) or an idlelab platform\n"
	"                  (name or file; a cpu_idle event on a CPU it does not\n"
	"                  have is refused)\n"
	"  --baseline B    a second trace, printed beside FILE with the differences\n"
	"  --table T       with csv: the states table (default) or the wakeups table\n"
	"  --window W      FROM,TO in trace timestamps (seconds): count only the\n"
	"                  periods that end between them, as sysfs counters read at\n"
	"                  FROM and at TO would\n"
	TRACE_RECORD_USAGE;

/* -------------------------------------------------------------- the table */

/*
 * Why latency or residency of a state cannot be used, naming its file: the
 * reader's note for it ("not a number: 'x'"), else missing or too large.
 */
static int bad_field(const struct il_sysfs_info *info, const char *root, int cpu, int state,
		     enum il_sysfs_field f, const struct il_sysfs_val *v, struct il_err *err)
{
	char path[4400];
	int rl = (int)strlen(root);

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	snprintf(path, sizeof(path), "%.*s/cpu%d/cpuidle/state%d/%s", rl, root, cpu, state,
		 il_sysfs_field_file(f));
	if (v->status == IL_SYSFS_OK)
		return il_err_set(err, ERANGE, "%s: %llu us is over %u", path,
				  (unsigned long long)v->v, UINT32_MAX);
	for (int i = 0; i < info->notes.n; i++) {
		const struct il_err *n = &info->notes.items[i];
		size_t fl = strlen(n->file), pl = strlen(path) - (size_t)rl;
		/* the note's path ends with ours below the root */
		if (fl >= pl && !strcmp(n->file + fl - pl, path + rl))
			return il_err_set(err, EINVAL, "%s: %s", path, n->msg);
	}
	return il_err_set(err, EINVAL, "%s: %s", path,
			  v->status == IL_SYSFS_MISSING ? "missing" : "not readable");
}

/*
 * The state table of a sysfs tree (ROOT: its first CPU's states) or of one
 * CPU's ROOT/cpuN/cpuidle directory.
 */
static int table_from_sysfs(const char *dir, struct il_trace_table *tab, struct il_err *err)
{
	struct il_sysfs_info info;
	struct il_cpulist one = { 0 };
	char root[4096], probe[4200];
	struct stat sb;
	int cpu, r;

	snprintf(root, sizeof(root), "%s", dir);
	snprintf(probe, sizeof(probe), "%s/state0", dir);
	if (stat(probe, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		/* ROOT/cpuN/cpuidle */
		size_t n = strlen(root);
		char *slash;

		while (n > 1 && root[n - 1] == '/')
			root[--n] = '\0';
		slash = strrchr(root, '/');
		if (!slash || strcmp(slash, "/cpuidle"))
			return il_err_set(err, EINVAL, "%s: a cpuidle directory is cpuN/cpuidle", dir);
		*slash = '\0';
		slash = strrchr(root, '/');
		if (!slash || sscanf(slash + 1, "cpu%d", &cpu) != 1 || cpu < 0)
			return il_err_set(err, EINVAL, "%s: a cpuidle directory is cpuN/cpuidle", dir);
		*slash = '\0';
		if (!*root)
			snprintf(root, sizeof(root), "/");
		snprintf(probe, sizeof(probe), "%d", cpu);
		if ((r = il_cpulist_parse(probe, &one, err)))
			return r;
	}
	r = il_sysfs_read(root, one.n ? &one : NULL, &info, err);
	il_cpulist_free(&one);

	if (r)
		return r;
	if (info.ncpus == 0 || info.cpus[0].nstates == 0) {
		il_sysfs_info_free(&info);
		return il_err_set(err, EINVAL, "%s: no CPU with cpuidle states", dir);
	}
	const struct il_sysfs_cpu *c = &info.cpus[0];
	memset(tab, 0, sizeof(*tab));
	for (int i = 0; i < c->nstates && r == 0; i++) {
		const struct il_sysfs_state *s = &c->states[i];
		struct il_state *st = &tab->drv.states[i];

		if (i >= IL_STATE_MAX) {
			r = il_err_set(err, EINVAL, "%s: cpu%d: more than %d states", dir, c->cpu,
				       IL_STATE_MAX);
			break;
		}
		if (s->index != i) {
			r = il_err_set(err, EINVAL, "%s: cpu%d: no state%d (state%d follows state%d)",
				       dir, c->cpu, i, s->index, i - 1);
			break;
		}
		for (enum il_sysfs_field f = IL_SF_LATENCY; f <= IL_SF_RESIDENCY && !r; f++)
			if (s->val[f].status != IL_SYSFS_OK || s->val[f].v > UINT32_MAX)
				r = bad_field(&info, root, c->cpu, i, f, &s->val[f], err);
		if (r)
			break;
		snprintf(st->name, sizeof(st->name), "%s", s->name.s ? s->name.s : "");
		st->exit_latency = (unsigned int)s->val[IL_SF_LATENCY].v;
		st->target_residency = (unsigned int)s->val[IL_SF_RESIDENCY].v;
		/*
		 * sysfs shows no flags: without POLLING the poll limit and the
		 * poll's timeout (dev->poll_time_limit, which haltpoll and
		 * menu read) would never be set for the poll state.
		 */
		if (il_state_sysfs_polling(i, st->name,
					   s->desc.status == IL_SYSFS_OK ? s->desc.s : NULL)) {
			st->flags |= IL_FLAG_POLLING;
			st->entry = IL_ENTRY_POLL;
		}
		if (s->val[IL_SF_DISABLE].status == IL_SYSFS_OK && s->val[IL_SF_DISABLE].v)
			tab->disabled |= 1u << i;
		tab->drv.state_count = i + 1;
	}
	if (!r) {
		il_driver_init(&tab->drv);
		tab->sysfs = true;
		snprintf(tab->origin, sizeof(tab->origin), "%s (cpu%d, latency and residency in us)",
			 dir, c->cpu);
	}
	il_sysfs_info_free(&info);
	return r;
}

static int table_from_platform(const char *what, struct il_trace_table *tab, struct il_err *err)
{
	struct il_platform p;
	struct il_machine_idle m;
	int r;

	if ((r = il_platform_load(&p, what, err)) || (r = il_machine_idle_build(&p, NULL, &m, err)))
		return r;
	if (!m.cpuidle)
		return il_err_set(err, EINVAL, "platform %s: no cpuidle driver registers (the default "
				  "idle routine has no state table)", p.name);
	memset(tab, 0, sizeof(*tab));
	tab->drv = m.drv;
	tab->ncpus = il_platform_ncpus(&p);
	for (int i = 0; i < m.drv.state_count; i++)
		if (m.drv.states[i].flags & IL_FLAG_OFF)
			tab->disabled |= 1u << i;
	snprintf(tab->origin, sizeof(tab->origin), "platform %s (%s, kernel %s)", p.name, m.drv.name,
		 m.release);
	return 0;
}

int load_table(const char *what, struct il_trace_table *tab, struct il_err *err)
{
	struct stat st;

	if (stat(what, &st) == 0 && S_ISDIR(st.st_mode))
		return table_from_sysfs(what, tab, err);
	return table_from_platform(what, tab, err);
}

/* ---------------------------------------------------------------- output */

struct side {
	struct il_trace t;
	const char *path;
};

enum ab_from { AB_EVENTS, AB_RULE, AB_NONE, AB_NODRIVER };

/*
 * The trace was recorded with no cpuidle driver: the default routine's
 * periods only (and idle=poll's), which no governor chose, whatever table
 * --states gives.
 */
static bool no_driver(const struct il_trace *t)
{
	return !strcmp(t->driver, "none");
}

static enum ab_from ab_from(const struct il_trace *t)
{
	if (no_driver(t))
		return AB_NODRIVER;
	return il_trace_has_miss(t) ? AB_EVENTS : t->table ? AB_RULE : AB_NONE;
}

static void ab_text(const struct il_trace *t, char *buf, size_t n)
{
	switch (ab_from(t)) {
	case AB_EVENTS:
		snprintf(buf, n, "from power:cpu_idle_miss events (exact%s)", t->miss_events ? "" :
			 ": the event was recorded, none in the trace");
		break;
	case AB_RULE:
		snprintf(buf, n, "by the kernel's rule on the state table of %s (estimated from "
			 "trace timestamps)", t->table->origin);
		break;
	case AB_NODRIVER:
		snprintf(buf, n, "none: no cpuidle driver was registered, so no governor chose a "
			 "state; every period is the default idle routine's (default_idle_call(), "
			 "traced as state 1) or, with idle=poll, the polling loop's (state 0)");
		break;
	default:
		snprintf(buf, n, "not known (no power:cpu_idle_miss events; give --states)");
	}
}

static const struct il_trace_cpu *cpu_of(const struct il_trace *t, int cpu)
{
	return cpu < t->ncpus ? t->cpus[cpu] : NULL;
}

static int nstates_of(const struct il_trace *t, int cpu)
{
	const struct il_trace_cpu *c = cpu_of(t, cpu);
	int n = c ? c->nstates : 0;

	if (c && t->table && !no_driver(t) && t->table->drv.state_count > n)
		n = t->table->drv.state_count;
	return n;
}

static void state_name(const struct il_trace *t, int i, char *buf, size_t n)
{
	if (t->table && i < t->table->drv.state_count)
		snprintf(buf, n, "%s", t->table->drv.states[i].name);
	else if (i >= 0 && i < IL_STATE_MAX && t->sysfs_name[i][0])
		snprintf(buf, n, "%s", t->sysfs_name[i]);   /* as trace record wrote it */
	else
		snprintf(buf, n, "state%d", i);
}

/*
 * A row's name. Without a driver state 1 is default_idle_call()'s and state 0
 * idle=poll's loop: named so only where both sides are driverless, else by
 * the side with a driver (its table, or its sysfs names).
 */
static void row_name(const struct il_trace *t, const struct il_trace *base, int i, char *buf,
		     size_t n)
{
	if (no_driver(t) && (!base || no_driver(base))) {
		if (i <= 1)
			snprintf(buf, n, "%s", i ? "default" : "poll");
		else
			snprintf(buf, n, "state%d", i);
		return;
	}
	if (t->table && !no_driver(t))
		state_name(t, i, buf, n);
	else if (base && !no_driver(base))
		state_name(base, i, buf, n);
	else
		state_name(t, i, buf, n);
}

static void ab_cells(struct il_table *tb, const struct il_trace *t, const struct il_trace_state *s)
{
	switch (ab_from(t)) {
	case AB_EVENTS:
		il_table_u64(tb, s ? s->above_ev : 0);
		il_table_u64(tb, s ? s->below_ev : 0);
		break;
	case AB_RULE:
		il_table_u64(tb, s ? s->above_rule : 0);
		il_table_u64(tb, s ? s->below_rule : 0);
		break;
	default:
		il_table_na(tb);
		il_table_na(tb);
	}
}

static long long ab_val(const struct il_trace *t, const struct il_trace_state *s, bool below)
{
	switch (ab_from(t)) {
	case AB_EVENTS:
		return (long long)(below ? s->below_ev : s->above_ev);
	case AB_RULE:
		return (long long)(below ? s->below_rule : s->above_rule);
	default:
		return -1;
	}
}

static const struct il_trace_state zero_state;

static bool want(const struct il_cpulist *only, int cpu)
{
	return !only || il_cpulist_has(only, cpu);
}

static struct il_table *states_table(const struct il_trace *t, const struct il_trace *base,
				     const struct il_cpulist *only)
{
	struct il_table *tb = il_table_new("idle states");
	il_table_keys(tb, 3);
	int ncpus = base && base->ncpus > t->ncpus ? base->ncpus : t->ncpus;

	il_table_col(tb, "cpu");
	il_table_col(tb, "state");
	il_table_col(tb, "name");
	il_table_col(tb, "usage");
	il_table_col(tb, "time_us");
	il_table_col(tb, "above");
	il_table_col(tb, "below");
	if (base) {
		il_table_col(tb, "base_usage");
		il_table_col(tb, "base_time_us");
		il_table_col(tb, "base_above");
		il_table_col(tb, "base_below");
		il_table_col(tb, "usage_diff");
		il_table_col(tb, "time_us_diff");
		il_table_col(tb, "above_diff");
		il_table_col(tb, "below_diff");
	} else {
		il_table_col(tb, "min_us");
		il_table_col(tb, "avg_us");
		il_table_col(tb, "max_us");
		il_table_col(tb, "unfinished");
		trace_sysfs_cols(tb, t);
	}
	if (only && only->n && only->cpus[only->n - 1] + 1 > ncpus)
		ncpus = only->cpus[only->n - 1] + 1;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		const struct il_trace_cpu *c = cpu_of(t, cpu), *b = base ? cpu_of(base, cpu) : NULL;
		int n = nstates_of(t, cpu);

		/* a CPU asked for by --cpu without events shows zeros for the table's states */
		if ((!c && !b && !only) || !want(only, cpu))
			continue;
		if (base && nstates_of(base, cpu) > n)
			n = nstates_of(base, cpu);
		if (!c && !b && t->table && !no_driver(t))
			n = t->table->drv.state_count;
		for (int i = 0; i < n; i++) {
			const struct il_trace_state *s = c ? &c->st[i] : &zero_state;
			const struct il_trace_state *bs = b ? &b->st[i] : &zero_state;
			char name[IL_NAME_LEN + 8];

			/*
			 * without a driver state 1 is traced, state 0 only under
			 * idle=poll: no empty state 0 row
			 */
			if (!i && no_driver(t) && (!base || no_driver(base)) && !s->usage &&
			    !s->unfinished && !bs->usage && !bs->unfinished)
				continue;
			row_name(t, base, i, name, sizeof(name));
			il_table_row(tb);
			il_table_u64(tb, (unsigned)cpu);
			il_table_u64(tb, (unsigned)i);
			il_table_str(tb, name);
			il_table_u64(tb, s->usage);
			il_table_u64(tb, s->time_ns / 1000);
			ab_cells(tb, t, s);
			if (base) {
				il_table_u64(tb, bs->usage);
				il_table_u64(tb, bs->time_ns / 1000);
				ab_cells(tb, base, bs);
				il_table_i64(tb, (long long)s->usage - (long long)bs->usage);
				il_table_i64(tb, (long long)(s->time_ns / 1000) - (long long)(bs->time_ns / 1000));
				for (int k = 0; k < 2; k++) {
					long long x = ab_val(t, s, k), y = ab_val(base, bs, k);
					if (x < 0 || y < 0)
						il_table_na(tb);
					else
						il_table_i64(tb, x - y);
				}
			} else if (s->usage) {
				il_table_dbl(tb, (double)s->min_ns / 1000, 3);
				il_table_dbl(tb, (double)s->time_ns / (double)s->usage / 1000, 3);
				il_table_dbl(tb, (double)s->max_ns / 1000, 3);
				il_table_u64(tb, s->unfinished);
			} else {
				il_table_na(tb);
				il_table_na(tb);
				il_table_na(tb);
				il_table_u64(tb, s->unfinished);
			}
			if (!base)
				trace_sysfs_cells(tb, t, s);
		}
	}
	return tb;
}

static const struct il_trace_src *find_src(const struct il_trace_cpu *c,
					   const struct il_trace_src *s)
{
	for (int i = 0; c && i <= IL_TRACE_SRC_MAX; i++)
		if (c->src[i].count && c->src[i].kind == s->kind && !strcmp(c->src[i].name, s->name))
			return &c->src[i];
	return NULL;
}

static void src_row(struct il_table *tb, int cpu, const struct il_trace_src *s,
		    const struct il_trace_src *b, bool base)
{
	il_table_row(tb);
	il_table_u64(tb, (unsigned)cpu);
	il_table_str(tb, il_trace_src_kind_name(s->kind));
	il_table_str(tb, s->name);
	il_table_u64(tb, s == b ? 0 : s->count);
	il_table_u64(tb, s == b ? 0 : s->switched);
	if (s != b && s->switched) {
		il_table_dbl(tb, (double)s->lat_sum_ns / (double)s->switched / 1000, 3);
		il_table_dbl(tb, (double)s->lat_max_ns / 1000, 3);
	} else {
		il_table_na(tb);
		il_table_na(tb);
	}
	if (base) {
		unsigned long long bc = b ? b->count : 0, sc = s == b ? 0 : s->count;
		il_table_u64(tb, bc);
		il_table_i64(tb, (long long)sc - (long long)bc);
	}
}

static struct il_table *wakeups_table(const struct il_trace *t, const struct il_trace *base,
				      const struct il_cpulist *only)
{
	struct il_table *tb = il_table_new("wake-ups");
	il_table_keys(tb, 3);
	int ncpus = base && base->ncpus > t->ncpus ? base->ncpus : t->ncpus;

	il_table_col(tb, "cpu");
	il_table_col(tb, "kind");
	il_table_col(tb, "source");
	il_table_col(tb, "count");
	il_table_col(tb, "switched");
	il_table_col(tb, "avg_to_switch_us");
	il_table_col(tb, "max_to_switch_us");
	if (base) {
		il_table_col(tb, "base_count");
		il_table_col(tb, "count_diff");
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		const struct il_trace_cpu *c = cpu_of(t, cpu), *b = base ? cpu_of(base, cpu) : NULL;

		if (!want(only, cpu))
			continue;
		for (int i = 0; c && i <= IL_TRACE_SRC_MAX; i++)
			if (c->src[i].count)
				src_row(tb, cpu, &c->src[i], find_src(b, &c->src[i]), base != NULL);
		/* sources only the baseline has */
		for (int i = 0; b && i <= IL_TRACE_SRC_MAX; i++)
			if (b->src[i].count && !find_src(c, &b->src[i]))
				src_row(tb, cpu, &b->src[i], &b->src[i], true);
	}
	return tb;
}

static bool has_window(const struct il_trace *t)
{
	return t->win_from != 0 || t->win_to != UINT64_MAX;
}

/* A trace timestamp as ftrace prints it: seconds with 6 decimals. */
static void ts_text(uint64_t ns, char *buf, size_t n)
{
	snprintf(buf, n, "%llu.%06llu", (unsigned long long)(ns / 1000000000ull),
		 (unsigned long long)(ns % 1000000000ull / 1000));
}

static void json_side(struct il_json *w, const struct side *sd, const struct il_cpulist *only)
{
	const struct il_trace *t = &sd->t;
	char ab[512];

	ab_text(t, ab, sizeof(ab));
	il_json_object(w, IL_JSON_BLOCK);
	il_json_kstring(w, "file", sd->path);
	il_json_kuint(w, "lines", t->lines);
	il_json_kuint(w, "events", t->events);
	il_json_kuint(w, "idle_events", t->idle_events);
	il_json_kuint(w, "cpu_idle_miss_events", t->miss_events);
	il_json_kdouble(w, "duration_s", t->have_ts ? (double)(t->last_ts - t->first_ts) / 1e9 : 0);
	/* --window, in the trace's seconds (null without) */
	il_json_key(w, "window_from_s");
	if (has_window(t))
		il_json_double(w, (double)t->win_from / 1e9);
	else
		il_json_null(w);
	il_json_key(w, "window_to_s");
	if (has_window(t))
		il_json_double(w, (double)t->win_to / 1e9);
	else
		il_json_null(w);
	il_json_kstring(w, "above_below", ab_from(t) == AB_EVENTS ? "cpu_idle_miss"
				: ab_from(t) == AB_RULE ? "rule"
				: ab_from(t) == AB_NODRIVER ? "no_driver" : NULL);
	il_json_kstring(w, "above_below_text", ab);
	il_json_kstring(w, "states_from", t->table ? t->table->origin : NULL);
	il_json_key(w, "cpus");
	il_json_array(w, IL_JSON_BLOCK);
	for (int cpu = 0; cpu < t->ncpus; cpu++) {
		const struct il_trace_cpu *c = t->cpus[cpu];
		if (!c || !want(only, cpu))
			continue;
		il_json_object(w, IL_JSON_INLINE);
		il_json_kint(w, "cpu", cpu);
		il_json_kuint(w, "partial_start", c->partial_start);
		il_json_kuint(w, "lost_events", c->lost_events);
		il_json_kuint(w, "dropped", c->dropped);
		il_json_kuint(w, "unpaired", c->unpaired);
		il_json_end(w);
	}
	il_json_end(w);
	il_json_key(w, "warnings");
	il_json_array(w, IL_JSON_BLOCK);
	for (int i = 0; i < t->nwarn && i < IL_TRACE_WARN_MAX; i++) {
		char buf[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 32];
		il_json_string(w, il_err_format(&t->warn[i], buf, sizeof(buf)));
	}
	il_json_end(w);
	il_json_kuint(w, "warnings_total", (unsigned)t->nwarn);
	il_json_end(w);
}

/* The trace's facts, folded to the tables' width by the caller. */
static void text_notes(const struct side *sd, const struct il_cpulist *only, const char *label,
		       FILE *out)
{
	const struct il_trace *t = &sd->t;
	char ab[512];

	ab_text(t, ab, sizeof(ab));
	fputs(label, out);
	il_text_fputs(sd->path, out);
	fprintf(out, ": %llu lines, %llu events (%llu cpu_idle, %llu cpu_idle_miss), %.6f s\n",
		(unsigned long long)t->lines, (unsigned long long)t->events,
		(unsigned long long)t->idle_events, (unsigned long long)t->miss_events,
		t->have_ts ? (double)(t->last_ts - t->first_ts) / 1e9 : 0.0);
	if (has_window(t)) {
		char a[32], b[32];
		ts_text(t->win_from, a, sizeof(a));
		ts_text(t->win_to, b, sizeof(b));
		fprintf(out, "%swindow: %s..%s s (--window): only the periods that ended in it are "
			"counted%s\n", label, a, b, trace_sysfs_present(t) ?
			"; sysfs_* stay the recording's reads" : "");
	}
	fprintf(out, "%sabove/below: %s\n", label, ab);
	trace_sysfs_note(t, label, out);
	for (int cpu = 0; cpu < t->ncpus; cpu++) {
		const struct il_trace_cpu *c = t->cpus[cpu];
		if (!c || !want(only, cpu))
			continue;
		if (c->partial_start || c->lost_events || c->lost_markers || c->dropped || c->unpaired)
			fprintf(out, "%scpu %d: %llu exit(s) without an entry (idle when the trace "
				"began, or the entry lost: not counted), %llu lost events, %llu "
				"period(s) dropped around them, %llu entries without exit\n", label,
				cpu, (unsigned long long)c->partial_start,
				(unsigned long long)c->lost_events, (unsigned long long)c->dropped,
				(unsigned long long)c->unpaired);
	}
}

static int report(struct side *a, struct side *b, const struct il_cpulist *only,
		  enum il_format fmt, bool wakeups_csv)
{
	struct il_trace *base = b ? &b->t : NULL;
	struct il_table *st = states_table(&a->t, base, only);
	struct il_table *wk = wakeups_table(&a->t, base, only);
	int r = 0;

	if (fmt == IL_FORMAT_CSV) {
		r = il_table_print(wakeups_csv ? wk : st, fmt, stdout);
	} else if (fmt == IL_FORMAT_JSON) {
		struct il_json w;

		il_json_init(&w, stdout);
		il_json_object(&w, IL_JSON_BLOCK);
		il_json_key(&w, "trace");
		json_side(&w, a, only);
		if (b) {
			il_json_key(&w, "baseline");
			json_side(&w, b, only);
		}
		il_json_key(&w, "states");
		il_table_json(st, &w);
		il_json_key(&w, "wakeups");
		il_table_json(wk, &w);
		il_json_end(&w);
		r = il_json_finish(&w);
	} else {
		struct il_fold fd;
		FILE *f = il_fold_open(&fd);
		if (f) {
			text_notes(a, only, "", f);
			if (b)
				text_notes(b, only, "baseline ", f);
		}
		r = f ? il_fold_close(&fd, IL_TABLE_WIDTH, stdout) : -ENOMEM;
		putchar('\n');
		if (!r)
			r = il_table_print(st, fmt, stdout);
		putchar('\n');
		if (!r)
			r = il_table_print(wk, fmt, stdout);
	}
	il_table_free(st);
	il_table_free(wk);
	if (r || fflush(stdout) || ferror(stdout))
		return cli_error("standard output: cannot write: %s", strerror(errno));
	return 0;
}

/* A named file that starts with trace-cmd's magic (standard input is text). */
static bool is_dat(const char *path)
{
	char buf[10];
	size_t n = 0;
	FILE *f;

	if (!strcmp(path, "-") || !(f = fopen(path, "rb")))
		return false;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return il_trace_is_dat(buf, n);
}

static int read_side(struct side *sd, const char *path, const struct il_trace_table *tab,
		     const uint64_t *win, const char *states)
{
	struct il_err err;

	sd->path = path;
	il_trace_init(&sd->t, path, tab);
	il_trace_window(&sd->t, win[0], win[1]);
	if (is_dat(path) ? cli_trace_read_dat(&sd->t, path, &err)
			 : il_trace_read_file(&sd->t, path, &err))
		return cli_report(&err);
	for (int i = 0; i < sd->t.nwarn && i < IL_TRACE_WARN_MAX; i++) {
		char buf[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 32];
		cli_error("warning: %s", il_err_format(&sd->t.warn[i], buf, sizeof(buf)));
	}
	if (sd->t.nwarn > IL_TRACE_WARN_MAX)
		cli_error("warning: %s: %d more warnings", path, sd->t.nwarn - IL_TRACE_WARN_MAX);
	if (sd->t.idle_events == 0)
		cli_error("warning: %s: no power:cpu_idle events (was the event enabled?)", path);
	if (tab)
		trace_names_check(path, (const char (*)[32])sd->t.sysfs_name, &tab->drv, states);
	/* a window outside the trace's time (a baseline of another time) counts nothing */
	if (has_window(&sd->t) && sd->t.have_ts &&
	    (sd->t.win_to < sd->t.first_ts || sd->t.win_from > sd->t.last_ts)) {
		char a[32], b[32], f[32], l[32];
		ts_text(sd->t.win_from, a, sizeof(a));
		ts_text(sd->t.win_to, b, sizeof(b));
		ts_text(sd->t.first_ts, f, sizeof(f));
		ts_text(sd->t.last_ts, l, sizeof(l));
		cli_error("warning: %s: --window %s..%s lies outside the trace (%s..%s): nothing "
			  "counted", path, a, b, f, l);
	}
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },   { "format", required_argument, NULL, 'f' },
		{ "states", required_argument, NULL, 's' }, { "baseline", required_argument, NULL, 'b' },
		{ "table", required_argument, NULL, 't' }, { "window", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	enum il_format fmt = IL_FORMAT_TABLE;
	const char *cpus = NULL, *states = NULL, *baseline = NULL, *window = NULL;
	bool wakeups_csv = false;
	struct il_cpulist only = { 0 };
	struct il_trace_table *tab = NULL;
	struct side *a = NULL, *b = NULL;
	struct il_err err;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cpus = optarg;
			break;
		case 'f':
			if (il_format_parse(optarg, &fmt))
				return cli_usage_error("trace", "unknown format '%s'", optarg);
			break;
		case 's':
			states = optarg;
			break;
		case 'b':
			if ((ret = cli_option_once("trace", "--baseline", &baseline, NULL, optarg,
						   "report compares FILE with one baseline")))
				return ret;
			break;
		case 't':
			if (strcmp(optarg, "states") && strcmp(optarg, "wakeups"))
				return cli_usage_error("trace", "--table: '%s' is not states or wakeups",
						       optarg);
			wakeups_csv = !strcmp(optarg, "wakeups");
			break;
		case 'w':
			window = optarg;
			break;
		case ':':
			return cli_usage_error("trace", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("trace", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage_error("trace", "report needs a trace FILE");
	if (optind + 1 < argc)
		return cli_usage_error("trace", "unexpected argument '%s'", argv[optind + 1]);
	if (cli_name_given("trace", "FILE", "file", argv[optind]) ||
	    cli_name_given("trace", "--baseline", "file", baseline))
		return 2;
	/* standard input can be read once: the second side would be empty */
	if (baseline && !strcmp(baseline, "-") && !strcmp(argv[optind], "-"))
		return cli_usage_error("trace", "--baseline -: FILE is standard input already; "
				       "give one of the two as a file");
	uint64_t win[2] = { 0, UINT64_MAX };
	if (window) {
		char buf[64];
		const char *comma = strchr(window, ',');
		size_t n = comma ? (size_t)(comma - window) : 0;

		if (!comma || n >= sizeof(buf))
			return cli_usage_error("trace", "--window: '%s' is not FROM,TO", window);
		memcpy(buf, window, n);
		buf[n] = '\0';
		if (il_trace_parse_ts(buf, &win[0]) || il_trace_parse_ts(comma + 1, &win[1]) ||
		    win[1] < win[0])
			return cli_usage_error("trace", "--window: '%s' is not FROM,TO (seconds, "
					       "FROM <= TO)", window);
	}
	if (cpus && il_cpulist_parse(cpus, &only, &err))
		return cli_usage_error("trace", "--cpu: %s", err.msg);
	if (states) {
		tab = calloc(1, sizeof(*tab));
		if (!tab) {
			ret = cli_error("out of memory");
			goto out;
		}
		if (load_table(states, tab, &err)) {
			ret = cli_error("--states %s: %s", states, err.msg);
			goto out;
		}
	}
	a = calloc(1, sizeof(*a));
	b = baseline ? calloc(1, sizeof(*b)) : NULL;
	if (!a || (baseline && !b)) {
		ret = cli_error("out of memory");
		goto out;
	}
	if ((ret = read_side(a, argv[optind], tab, win, states)))
		goto out;
	if (baseline && (ret = read_side(b, baseline, tab, win, states)))
		goto out;
	ret = report(a, b, cpus ? &only : NULL, fmt, wakeups_csv);
out:
	if (a)
		il_trace_free(&a->t);
	if (b)
		il_trace_free(&b->t);
	free(a);
	free(b);
	free(tab);
	il_cpulist_free(&only);
	return ret;
}

static int run(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("trace", "a subcommand is needed: report, record, snapshot, check, "
				       "whatif, to-replay");
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check") || !strcmp(argv[1], "whatif") || !strcmp(argv[1], "to-replay"))
		return cli_trace_whatif(argc - 1, argv + 1);
	if (!strcmp(argv[1], "record") || !strcmp(argv[1], "snapshot"))
		return (argv[1][1] == 'e' ? cmd_trace_record : cmd_trace_snapshot)(argc - 1, argv + 1);
	return cli_usage_error("trace", "unknown subcommand '%s' (report, record, snapshot, check, "
			       "whatif, to-replay)", argv[1]);
}

const struct il_command cmd_trace = {
	.name = "trace",
	.summary = "record and read traces: idle states and wake-ups per CPU, as sysfs counts them",
	.usage = usage,
	.run = run,
};
