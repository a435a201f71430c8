// SPDX-License-Identifier: GPL-2.0-only
/* idlelab platforms, idlelab platform show NAME|FILE */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/device.h"
#include "idlelab/drivers.h"
#include "idlelab/governor.h"
#include "idlelab/json.h"
#include "idlelab/host.h"
#include "idlelab/platform.h"
#include "idlelab/release.h"
#include "idlelab/report.h"
#include "util.h"

static int platforms_run(int argc, char **argv)
{
	enum il_format fmt;
	int u = cli_format_only("platforms", argc, argv, &fmt);
	if (u)
		return u;

	struct il_table *t = il_table_new(NULL);
	il_table_col(t, "name");
	il_table_col(t, "cpus");
	il_table_col(t, "description");
	for (int i = 0; i < il_builtin_platform_count; i++) {
		struct il_platform p;
		struct il_err err;
		if (il_platform_load(&p, il_builtin_platforms[i].name, &err)) {
			il_table_free(t);
			return cli_report(&err);
		}
		il_table_row(t);
		il_table_str(t, p.name);
		il_table_i64(t, il_platform_ncpus(&p));
		il_table_str(t, p.description);
	}
	int r = il_table_print(t, fmt, stdout);
	il_table_free(t);
	return r ? 1 : 0;
}

/* A kernel release as "6.18": digits and dots, starting with a digit (then il_release_check). */
static bool release_ok(const char *r)
{
	if (!*r || !isdigit((unsigned char)r[0]) || strlen(r) >= 16)
		return false;
	for (const char *s = r; *s; s++)
		if (!isdigit((unsigned char)*s) && *s != '.')
			return false;
	return true;
}

/* Per state, the line kernel developers post from sysfs. */
static void print_lines(const struct il_driver *drv, const struct il_device *dev)
{
	for (int i = 0; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];
		il_text_fputs(s->name, stdout);
		printf(" latency:%lld disabled:%d default:%s\n", (long long)(s->exit_latency_ns / 1000),
		       (dev->states_usage[i].disable & IL_DISABLE_BY_USER) ? 1 : 0,
		       (s->flags & IL_FLAG_OFF) ? "disabled" : "enabled");
	}
}

/* The state table's columns; CSV puts the platform's dimensions first. */
static const char *const state_cols[] = { "state", "name", "desc", "latency_us", "residency_us",
					  "disable", "default_status", "flags", "entry",
					  "exit_dist_ns" };

static void state_row(struct il_table *t, int idx, const struct il_state *s,
		      unsigned long long disable)
{
	char flags[128], dist[IL_DIST_STR_LEN];

	il_table_i64(t, idx);
	il_table_str(t, s->name);
	il_table_str(t, s->desc);
	il_table_i64(t, s->exit_latency_ns / 1000);
	il_table_i64(t, s->target_residency_ns / 1000);
	il_table_i64(t, (disable & IL_DISABLE_BY_USER) ? 1 : 0);
	il_table_str(t, (s->flags & IL_FLAG_OFF) ? "disabled" : "enabled");
	il_state_flags_str(s->flags, flags, sizeof(flags));
	il_table_str(t, flags[0] ? flags : "-");
	if (s->entry == IL_ENTRY_MWAIT)
		il_table_strf(t, "mwait 0x%02x", s->mwait_hint);
	else if (s->entry == IL_ENTRY_IOPORT)
		il_table_strf(t, "ioport 0x%x", s->io_port);
	else
		il_table_str(t, il_entry_method_name(s->entry));
	il_table_str(t, il_dist_str(&s->exit_dist, dist, sizeof(dist)));
}

/* What platform show prints, in every format. */
struct shown {
	const struct il_platform *p;
	const struct il_machine_idle *m;
	const struct il_driver *drv;   /* NULL: no cpuidle driver */
	struct il_table *states;
	struct il_freq_max fm;         /* freq_max at the release shown */
	struct il_freq_max fm_new;     /* and at the newest release: where the rule starts */
	struct il_acpi_cpufreq acf;    /* acpi-cpufreq's cpuinfo.max_freq at the release shown */
	bool has_acf;                  /* an x86 host with base_mhz: acf is set */
};

/*
 * The turbo bins as ranges of active cores with one frequency each
 * ("1-2C 3900"): sep between ranges, with or without the C and MHz
 * (CSV: "1-2:3900 3-4:3700"). Returns buf.
 */
static const char *turbo_ranges(const struct il_platform *p, bool csv, char *buf, size_t n)
{
	size_t l = 0;

	buf[0] = '\0';
	for (int a = 1; a <= p->nturbo && l < n; ) {
		int b = a;
		while (b < p->nturbo && p->turbo_mhz[b] == p->turbo_mhz[a - 1])
			b++;
		if (a == b)
			l += (size_t)snprintf(buf + l, n - l, "%s%d%s%g", a > 1 ? (csv ? " " : ", ") : "",
					      a, csv ? ":" : "C ", p->turbo_mhz[a - 1]);
		else
			l += (size_t)snprintf(buf + l, n - l, "%s%d-%d%s%g",
					      a > 1 ? (csv ? " " : ", ") : "", a, b, csv ? ":" : "C ",
					      p->turbo_mhz[a - 1]);
		a = b + 1;
	}
	return buf;
}

/* "4C turbo", "none", "not modelled": what freq_max is at a release. */
static const char *freq_max_what(const struct il_freq_max *f)
{
	if (f->rule == IL_FMAX_UNMODELLED)
		return "not modelled";
	return f->invariant ? f->what : "none";
}

/* The freq_max line of the text: the value at the release shown and where the rule starts. */
static void print_freq_max(const struct shown *sh, FILE *out)
{
	const struct il_freq_max *f = &sh->fm, *nf = &sh->fm_new;

	fprintf(out, "freq_max: ");
	if (f->invariant) {
		if (sh->p->turbo_disabled && f->mhz != f->turbo_mhz)
			fprintf(out, "%g MHz (turbo off at boot: base; %g MHz, %s, with turbo)", f->mhz,
			       f->turbo_mhz, f->what);
		else
			fprintf(out, "%g MHz (%s)", f->mhz, f->what);
		fprintf(out, ", ratio %lu; ", f->ratio);
		il_text_fputs(f->why, out);
		if (f->first && strcmp(f->first, f->since))
			fprintf(out, "; this rule from %s, invariant from %s, none before\n", f->since,
				f->first);
		else
			fprintf(out, "; from %s, none before\n", f->since);
	} else if (nf->invariant) {
		fprintf(out, "none at ");
		il_text_fputs(sh->m->release, out);
		fprintf(out, " (");
		il_text_fputs(f->why, out);
		/* turbo off at boot: the turbo figure the rule gives; else freq_max itself */
		fprintf(out, "); %g MHz (%s) from %s", sh->p->turbo_disabled ? nf->turbo_mhz : nf->mhz,
			nf->what, nf->since);
		if (nf->first && strcmp(nf->first, nf->since))
			fprintf(out, ", invariant from %s", nf->first);
		fprintf(out, "\n");
	} else {
		fprintf(out, "%s (", f->rule == IL_FMAX_UNMODELLED ? "not modelled" : "none");
		il_text_fputs(f->why, out);
		fprintf(out, ")\n");
	}
}

/*
 * acpi-cpufreq's cpuinfo.max_freq beside freq_max (the driver may be given with --cpufreq
 * whatever the file names), and what the driver does to freq_max where the file names another.
 */
static void print_acpi_max(const struct shown *sh, FILE *out)
{
	const struct il_acpi_cpufreq *a = &sh->acf;

	fprintf(out, "acpi-cpufreq cpuinfo.max_freq: ");
	if (!a->modelled) {
		fprintf(out, "not modelled (");
		il_text_fputs(a->why, out);
		fprintf(out, "); P0 %u kHz\n", a->p0_khz);
		return;
	}
	fprintf(out, "%u kHz (", a->max_khz);
	il_text_fputs(a->why, out);
	fprintf(out, ")");
	if (a->ratio_1024 && sh->fm.invariant && sh->p->cpufreq_driver != IL_CPUFREQ_ACPI &&
	    sh->fm.ratio != 1024)
		fprintf(out, "; with it freq_max is base, ratio 1024");
	fprintf(out, "\n");
}

static void print_cpufreq(const struct il_platform *p, FILE *out)
{
	double ps[IL_PLAT_PSTATES_MAX];
	int n = il_platform_pstates(p, ps, IL_PLAT_PSTATES_MAX);

	fprintf(out, "cpufreq: %s", il_cpufreq_driver_name(p->cpufreq_driver));
	if (p->cpufreq_driver == IL_CPUFREQ_INTEL_PSTATE)
		fprintf(out, " (mode %s)", il_pstate_mode_name(p->pstate_mode));
	fprintf(out, ", governor ");
	il_text_fputs(p->cpufreq_governor[0] ? p->cpufreq_governor : "(driver default)", out);
	fprintf(out, ", policy per %s; EFFIC %g MHz, base %g MHz", il_cpufreq_scope_name(p->cpufreq_scope),
	       p->efficient_mhz, p->base_mhz);
	if (p->turbo_disabled)
		fprintf(out, ", turbo off at boot");
	fprintf(out, "\n");
	if (p->hwp)
		fprintf(out, "hwp: lowest %g, efficient %g, guaranteed %g, highest %g MHz\n", p->hwp_lowest_mhz,
		       p->hwp_efficient_mhz, p->hwp_guaranteed_mhz, p->hwp_highest_mhz);
	else
		fprintf(out, "hwp: no\n");
	fprintf(out, "p-states (acpi-cpufreq):");
	for (int i = 0; i < n; i++)
		fprintf(out, " %g", ps[i]);
	fprintf(out, " MHz");
	if (p->transition_ns)
		fprintf(out, ", transition latency %lld ns", (long long)p->transition_ns);
	fprintf(out, "\n");
}


/* The preset of the kernel's governor in force at the release (NULL if not a known governor). */
static const struct il_gov_preset *governor_preset(const struct il_machine_idle *m)
{
	const struct il_gov_ops *ops = il_gov_find(m->governor);

	return ops ? il_gov_preset_for_release(ops, m->release) : NULL;
}

/* "platform: NAME (DESCRIPTION)", the first line of show's and history's text. */
static void platform_line(const struct il_platform *p, FILE *out)
{
	fprintf(out, "platform: ");
	il_text_fputs(p->name, out);
	if (p->description[0]) {
		fprintf(out, " (");
		il_text_fputs(p->description, out);
		fprintf(out, ")");
	}
	fprintf(out, "\n");
}

static void print_text(const struct shown *sh, FILE *out)
{
	const struct il_platform *p = sh->p;
	const struct il_machine_idle *m = sh->m;

	platform_line(p, out);
	fprintf(out, "cpus: %d (%d package%s x %d cores x %d threads), HZ=%u\n", il_platform_ncpus(p),
	       p->packages, p->packages > 1 ? "s" : "", p->cores_per_package, p->threads_per_core,
	       p->hz);
	fprintf(out, "kernel: ");
	il_text_fputs(m->release, out);
	fprintf(out, "\n");
	if (p->switch_cycles.kind != IL_DIST_NONE) {
		char d[IL_DIST_STR_LEN];
		fprintf(out, "wake-up path (switch_cycles): %s cycles at the package clock\n",
		       il_dist_str(&p->switch_cycles, d, sizeof(d)));
	} else if (p->switch_ns > 0) {
		fprintf(out, "wake-up path (switch_ns): %lld ns\n", (long long)p->switch_ns);
	}
	if (il_platform_watchdog_period_ns(p) > 0) {
		fprintf(out, "watchdog: soft-lockup hrtimer every %g s",
		       (double)il_platform_watchdog_period_ns(p) * 1e-9);
		if (il_platform_watchdog_stopper(p)) {
			char d[IL_DIST_STR_LEN];
			fprintf(out, ", waking the stopper thread (holds %s ns)",
			       il_dist_str(&p->watchdog_stopper, d, sizeof(d)));
		}
		fprintf(out, "\n");
	}
	if (p->noptions) {
		fprintf(out, "options:");
		for (int i = 0; i < p->noptions; i++) {
			fprintf(out, " ");
			il_text_fputs(p->options[i].key, out);
			fprintf(out, "%s", p->options[i].value[0] ? "=" : "");
			il_text_fputs(p->options[i].value, out);
		}
		fprintf(out, "\n");
	}
	if (sh->drv) {
		fprintf(out, "driver: ");
		il_text_fputs(sh->drv->name[0] ? sh->drv->name : "(unnamed)", out);
		if (sh->drv->governor[0]) {
			fprintf(out, " (preferred governor ");
			il_text_fputs(sh->drv->governor, out);
			fprintf(out, ")");
		}
		fprintf(out, "\n");
	} else {
		fprintf(out, "driver: none (no cpuidle driver registers)\n");
	}
	fprintf(out, "governor: ");
	il_text_fputs(m->governor, out);
	/* the governor's preset in force at the release: what --kernel runs */
	const struct il_gov_preset *gp = governor_preset(m);
	if (gp) {
		fprintf(out, "@%s (", gp->release);
		il_text_fputs(gp->text, out);
		fprintf(out, ")");
	}
	fprintf(out, "\n");
	if (p->arch == IL_ARCH_X86 || m->routine != IL_IDLE_ROUTINE_NONE) {
		fprintf(out, "default idle: %s: ", il_idle_routine_name(m->routine));
		il_text_fputs(m->routine_why, out);
		fprintf(out, "\n");
	}
	if (m->snooze_timeout_ns)
		fprintf(out, "snooze timeout: %llu ns\n", (unsigned long long)m->snooze_timeout_ns);
	if (p->nturbo) {
		char tb[1024];
		fprintf(out, "turbo: %s MHz by active cores", turbo_ranges(p, false, tb, sizeof(tb)));
		if (p->base_mhz > 0)
			fprintf(out, " (base %g MHz)", p->base_mhz);
		fprintf(out, "\n");
	}
	if (p->arch == IL_ARCH_X86)
		print_freq_max(sh, out);
	if (sh->has_acf)
		print_acpi_max(sh, out);
	if (p->has_cpufreq)
		print_cpufreq(p, out);
	fprintf(out, "\n");
	il_table_print(sh->states, IL_FORMAT_TABLE, out);
	if (m->nnotes) {
		fprintf(out, "\nnotes:\n");
		for (int i = 0; i < m->nnotes; i++) {
			fprintf(out, "  ");
			il_text_fputs(m->notes[i], out);
			fprintf(out, "\n");
		}
	}
}

/* The text, its lines folded to the width of a table (IL_TABLE_WIDTH). */
static int print_folded(const struct shown *sh)
{
	struct il_fold fd;
	FILE *f = il_fold_open(&fd);

	if (!f)
		return -ENOMEM;
	print_text(sh, f);
	return il_fold_close(&fd, IL_TABLE_WIDTH, stdout);
}

/* Everything the text shows, as one object. */
static int print_json(const struct shown *sh)
{
	const struct il_platform *p = sh->p;
	const struct il_machine_idle *m = sh->m;
	struct il_json w;

	il_json_init(&w, stdout);
	il_json_object(&w, IL_JSON_BLOCK);
	il_json_kstring(&w, "platform", p->name);
	il_json_kstring(&w, "description", p->description);
	il_json_kint(&w, "cpus", il_platform_ncpus(p));
	il_json_kint(&w, "packages", p->packages);
	il_json_kint(&w, "cores_per_package", p->cores_per_package);
	il_json_kint(&w, "threads_per_core", p->threads_per_core);
	il_json_kuint(&w, "hz", p->hz);
	il_json_kstring(&w, "kernel", m->release);
	if (p->switch_ns > 0)
		il_json_kint(&w, "switch_ns", (long long)p->switch_ns);
	else
		il_json_knull(&w, "switch_ns");
	if (p->switch_cycles.kind != IL_DIST_NONE) {
		char d[IL_DIST_STR_LEN];
		il_json_kstring(&w, "switch_cycles", il_dist_str(&p->switch_cycles, d, sizeof(d)));
	} else {
		il_json_knull(&w, "switch_cycles");
	}
	/* the soft-lockup hrtimer's period (0: not modelled) and the stopper's hold */
	il_json_kint(&w, "watchdog_period_ns", (long long)il_platform_watchdog_period_ns(p));
	if (il_platform_watchdog_stopper(p)) {
		char d[IL_DIST_STR_LEN];
		il_json_kstring(&w, "watchdog_stopper", il_dist_str(&p->watchdog_stopper, d, sizeof(d)));
	} else {
		il_json_knull(&w, "watchdog_stopper");
	}
	il_json_key(&w, "options");
	il_json_object(&w, IL_JSON_INLINE);
	for (int i = 0; i < p->noptions; i++)
		il_json_kstring(&w, p->options[i].key, p->options[i].value);
	il_json_end(&w);
	il_json_kstring(&w, "driver", sh->drv ? sh->drv->name : NULL);
	il_json_kstring(&w, "preferred_governor",
			sh->drv && sh->drv->governor[0] ? sh->drv->governor : NULL);
	il_json_kstring(&w, "governor", m->governor);
	const struct il_gov_preset *gp = governor_preset(m);
	il_json_kstring(&w, "governor_preset", gp ? gp->release : NULL);
	il_json_key(&w, "default_idle");
	if (p->arch == IL_ARCH_X86 || m->routine != IL_IDLE_ROUTINE_NONE) {
		il_json_object(&w, IL_JSON_INLINE);
		il_json_kstring(&w, "routine", il_idle_routine_name(m->routine));
		il_json_kstring(&w, "why", m->routine_why);
		il_json_end(&w);
	} else {
		il_json_null(&w);
	}
	if (m->snooze_timeout_ns)
		il_json_kuint(&w, "snooze_timeout_ns", (unsigned long long)m->snooze_timeout_ns);
	else
		il_json_knull(&w, "snooze_timeout_ns");
	if (p->base_mhz > 0)
		il_json_kdouble(&w, "base_mhz", p->base_mhz);
	else
		il_json_knull(&w, "base_mhz");
	il_json_key(&w, "turbo");
	il_json_array(&w, IL_JSON_INLINE);
	for (int a = 1; a <= p->nturbo; ) {
		int b = a;
		while (b < p->nturbo && p->turbo_mhz[b] == p->turbo_mhz[a - 1])
			b++;
		il_json_object(&w, IL_JSON_INLINE);
		il_json_kint(&w, "cores_min", a);
		il_json_kint(&w, "cores_max", b);
		il_json_kdouble(&w, "mhz", p->turbo_mhz[a - 1]);
		il_json_end(&w);
		a = b + 1;
	}
	il_json_end(&w);
	il_json_key(&w, "freq_max");
	il_json_object(&w, IL_JSON_INLINE);
	il_json_kstring(&w, "kernel", m->release);
	il_json_kbool(&w, "invariant", sh->fm.invariant);
	il_json_kbool(&w, "modelled", sh->fm.rule != IL_FMAX_UNMODELLED);
	if (sh->fm.invariant) {
		il_json_kdouble(&w, "mhz", sh->fm.mhz);
		il_json_kuint(&w, "ratio", sh->fm.ratio);
		il_json_kdouble(&w, "turbo_mhz", sh->fm.turbo_mhz);
		il_json_kuint(&w, "turbo_ratio", sh->fm.turbo_ratio);
	} else {
		il_json_knull(&w, "mhz");
		il_json_knull(&w, "ratio");
		il_json_knull(&w, "turbo_mhz");
		il_json_knull(&w, "turbo_ratio");
	}
	il_json_kstring(&w, "rule", freq_max_what(&sh->fm));
	il_json_kstring(&w, "why", sh->fm.why);
	/*
	 * the rule's first release (the release's rule, else the newest release's), null where
	 * there is none
	 */
	il_json_kstring(&w, "since", sh->fm.invariant ? sh->fm.since :
			sh->fm_new.invariant ? sh->fm_new.since : NULL);
	/* acpi-cpufreq's cpuinfo.max_freq (kHz) at the release; null: not an x86 host, not modelled */
	if (sh->has_acf && sh->acf.modelled)
		il_json_kuint(&w, "acpi_cpufreq_max_khz", sh->acf.max_khz);
	else
		il_json_knull(&w, "acpi_cpufreq_max_khz");
	il_json_end(&w);
	il_json_key(&w, "cpufreq");
	if (p->has_cpufreq) {
		double ps[IL_PLAT_PSTATES_MAX];
		int n = il_platform_pstates(p, ps, IL_PLAT_PSTATES_MAX);

		il_json_object(&w, IL_JSON_INLINE);
		il_json_kstring(&w, "driver", il_cpufreq_driver_name(p->cpufreq_driver));
		il_json_kstring(&w, "governor", p->cpufreq_governor[0] ? p->cpufreq_governor : NULL);
		il_json_kstring(&w, "mode", il_pstate_mode_name(p->pstate_mode));
		il_json_kstring(&w, "policy", il_cpufreq_scope_name(p->cpufreq_scope));
		il_json_kdouble(&w, "efficient_mhz", p->efficient_mhz);
		il_json_kbool(&w, "turbo", !p->turbo_disabled);
		il_json_key(&w, "hwp");
		if (p->hwp) {
			il_json_object(&w, IL_JSON_INLINE);
			il_json_kdouble(&w, "lowest_mhz", p->hwp_lowest_mhz);
			il_json_kdouble(&w, "efficient_mhz", p->hwp_efficient_mhz);
			il_json_kdouble(&w, "guaranteed_mhz", p->hwp_guaranteed_mhz);
			il_json_kdouble(&w, "highest_mhz", p->hwp_highest_mhz);
			il_json_end(&w);
		} else {
			il_json_null(&w);
		}
		il_json_key(&w, "pstates_mhz");
		il_json_array(&w, IL_JSON_INLINE);
		for (int i = 0; i < n; i++)
			il_json_double(&w, ps[i]);
		il_json_end(&w);
		if (p->transition_ns)
			il_json_kint(&w, "transition_latency_ns", (long long)p->transition_ns);
		else
			il_json_knull(&w, "transition_latency_ns");
		il_json_end(&w);
	} else {
		il_json_null(&w);
	}
	il_json_key(&w, "states");
	il_table_json(sh->states, &w);
	il_json_key(&w, "notes");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int i = 0; i < m->nnotes; i++)
		il_json_string(&w, m->notes[i]);
	il_json_end(&w);
	il_json_end(&w);
	return il_json_finish(&w);
}

/* The --set KEY=VALUE options on p: 0, or the usage error's exit code. */
static int set_options(struct il_platform *p, char **options, const char **optnames, int n)
{
	struct il_err err;

	for (int i = 0; i < n; i++) {
		/* the option whole: a cut value would be another option (il_platform_set_option) */
		char buf[sizeof(p->options[0].key) + sizeof(p->options[0].value) + 1];
		char *eq;

		if (snprintf(buf, sizeof(buf), "%s", options[i]) >= (int)sizeof(buf)) {
			eq = strchr(options[i], '=');
			return cli_usage_error("platform", "--%s %.*s=...: option too long", optnames[i],
					       eq ? (int)(eq - options[i]) : 40, options[i]);
		}
		eq = strchr(buf, '=');
		if (eq)
			*eq++ = '\0';
		if (il_platform_set_option(p, buf, eq ? eq : "", &err))
			return cli_usage_error("platform", "--%s %s: %s", optnames[i], options[i],
					       err.msg);
	}
	return 0;
}

static int show(const char *what, const char *release, char **options, const char **optnames,
		int noptions, bool lines, enum il_format fmt)
{
	struct il_platform p;
	struct il_machine_idle m;
	struct il_err err;
	int r;

	if (il_platform_load(&p, what, &err))
		return cli_report(&err);
	if ((r = set_options(&p, options, optnames, noptions)))
		return r;
	if (il_machine_idle_build(&p, release, &m, &err))
		return cli_report(&err);

	const struct il_driver *drv = m.cpuidle ? &m.drv : NULL;
	struct il_device dev;
	if (drv)
		il_device_init(&dev, drv, 0);

	if (lines) {
		if (drv) {
			print_lines(drv, &dev);
		} else {
			struct il_driver one = { .state_count = 1 };
			one.states[0] = m.default_state;
			il_device_init(&dev, &one, 0);
			print_lines(&one, &dev);
		}
		return 0;
	}

	struct shown sh = { .p = &p, .m = &m, .drv = drv, .states = il_table_new(NULL) };
	if (il_platform_freq_max(&p, m.release, &sh.fm, &err) ||
	    il_platform_freq_max(&p, IL_RELEASE_NEWEST, &sh.fm_new, &err)) {
		il_table_free(sh.states);
		return cli_report(&err);
	}
	if (p.arch == IL_ARCH_X86 && p.base_mhz > 0 && !p.hypervisor) {
		/* P0 as the simulator's layer takes it: the table's top, else base + 1 MHz */
		double ps[IL_PLAT_PSTATES_MAX];
		double p0 = il_platform_pstates(&p, ps, IL_PLAT_PSTATES_MAX) > 0 ? ps[0] :
			    p.base_mhz + 1;

		sh.has_acf = il_acpi_cpufreq_max(&p, m.release, p0, &sh.acf) == 0;
	}
	il_table_keys(sh.states, 2);
	struct il_table *csv = il_table_new(NULL);
	static const char *const dims[] = { "platform", "kernel", "driver", "governor" };
	for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
		il_table_col(csv, dims[i]);
	for (size_t i = 0; i < sizeof(state_cols) / sizeof(state_cols[0]); i++) {
		il_table_col(sh.states, state_cols[i]);
		il_table_col(csv, state_cols[i]);
	}
	/* the platform's frequency facts, after the state's columns (NA where there are none) */
	static const char *const freq_cols[] = { "base_mhz", "turbo_bins", "freq_max_mhz",
						 "freq_max_ratio", "freq_max_rule", "freq_max_since",
						 "cpufreq_driver", "cpufreq_governor", "cpufreq_mode",
						 "efficient_mhz", "hwp" };
	for (size_t i = 0; i < sizeof(freq_cols) / sizeof(freq_cols[0]); i++)
		il_table_col(csv, freq_cols[i]);
	char tb[1024];
	turbo_ranges(&p, true, tb, sizeof(tb));
	for (int i = 0; i < (drv ? drv->state_count : 1); i++) {
		const struct il_state *s = drv ? &drv->states[i] : &m.default_state;
		unsigned long long disable = drv ? dev.states_usage[i].disable : 0;
		il_table_row(sh.states);
		state_row(sh.states, i, s, disable);
		il_table_row(csv);
		il_table_str(csv, p.name);
		il_table_str(csv, m.release);
		if (drv)
			il_table_str(csv, drv->name);
		else
			il_table_na(csv);
		il_table_str(csv, m.governor);
		state_row(csv, i, s, disable);
		if (p.base_mhz > 0)
			il_table_strf(csv, "%g", p.base_mhz);
		else
			il_table_na(csv);
		if (tb[0])
			il_table_str(csv, tb);
		else
			il_table_na(csv);
		if (sh.fm.invariant) {
			il_table_strf(csv, "%g", sh.fm.mhz);
			il_table_u64(csv, sh.fm.ratio);
		} else {
			il_table_na(csv);
			il_table_na(csv);
		}
		il_table_str(csv, freq_max_what(&sh.fm));
		if (sh.fm.invariant)
			il_table_str(csv, sh.fm.since);
		else if (sh.fm_new.invariant)
			il_table_str(csv, sh.fm_new.since);
		else
			il_table_na(csv);
		if (p.has_cpufreq) {
			il_table_str(csv, il_cpufreq_driver_name(p.cpufreq_driver));
			if (p.cpufreq_governor[0])
				il_table_str(csv, p.cpufreq_governor);
			else
				il_table_na(csv);
			il_table_str(csv, il_pstate_mode_name(p.pstate_mode));
			il_table_strf(csv, "%g", p.efficient_mhz);
			il_table_str(csv, p.hwp ? "yes" : "no");
		} else {
			for (int k = 0; k < 5; k++)
				il_table_na(csv);
		}
	}
	r = 0;
	if (fmt == IL_FORMAT_JSON)
		r = print_json(&sh);
	else if (fmt == IL_FORMAT_CSV)
		r = il_table_print(csv, IL_FORMAT_CSV, stdout);
	else
		r = print_folded(&sh);
	il_table_free(sh.states);
	il_table_free(csv);
	if (fflush(stdout) || ferror(stdout))
		r = -EIO;
	return r ? 1 : 0;
}

/* ---- platform history: the setup of every modelled release ---- */

struct hist_entry {
	char rel[8];
	struct il_machine_idle m;
	struct il_freq_max fm;     /* x86 frequency invariance's freq_max at the release */
	char gov[48];              /* "menu@6.1" (the preset in force) */
	char sig[4096];            /* what the text shows, to merge equal releases */
};

/* The mainline tags from IL_RELEASE_OLDEST to IL_RELEASE_NEWEST, in order. */
static int history_releases(char rels[][8], int max)
{
	int n = 0, first = atoi(IL_RELEASE_OLDEST), last = atoi(IL_RELEASE_NEWEST);
	struct il_err e;

	for (int major = first; major <= last; major++)
		for (int minor = 0; minor < 100 && n < max; minor++) {
			char r[8];

			snprintf(r, sizeof(r), "%d.%d", major, minor);
			if (!il_release_check(r, &e))
				snprintf(rels[n++], sizeof(rels[0]), "%s", r);
		}
	return n;
}

/* The states a release gives: the driver's, else the default routine as one. */
static int hist_states(const struct il_machine_idle *m, const struct il_state **st)
{
	if (!m->cpuidle) {
		st[0] = &m->default_state;
		return 1;
	}
	for (int i = 0; i < m->drv.state_count; i++)
		st[i] = &m->drv.states[i];
	return m->drv.state_count;
}

/* A state whose exit does work inside its residency (acpi_idle's PM-timer dummy wait). */
static const char *exit_wait(const struct il_state *s)
{
	return s->exit_path_cost.kind == IL_DIST_NONE ? "" :
	       s->exit_path_shared ? " +exit read" : " +exit wait";
}

static void hist_sign(struct hist_entry *h)
{
	const struct il_gov_preset *gp = governor_preset(&h->m);
	const struct il_state *st[IL_STATE_MAX];
	int n = hist_states(&h->m, st);
	size_t l;

	/* without a cpuidle driver no governor runs */
	snprintf(h->gov, sizeof(h->gov), "%s%s%s", h->m.cpuidle ? h->m.governor : "-",
		 gp && h->m.cpuidle ? "@" : "", gp && h->m.cpuidle ? gp->release : "");
	l = (size_t)snprintf(h->sig, sizeof(h->sig), "%s|%s|%s|%d %g %s|",
			     h->m.cpuidle ? h->m.drv.name : "-", h->gov,
			     il_idle_routine_name(h->m.routine), h->fm.invariant, h->fm.mhz,
			     freq_max_what(&h->fm));
	for (int i = 0; i < n && l < sizeof(h->sig); i++)
		l += (size_t)snprintf(h->sig + l, sizeof(h->sig) - l, "%s %u/%u%s%s,", st[i]->name,
				      st[i]->exit_latency, st[i]->target_residency,
				      (st[i]->flags & IL_FLAG_OFF) ? "-" : "", exit_wait(st[i]));
}

/* The last release of the range that starts at i (consecutive equal setups). */
static int hist_range_end(const struct hist_entry *h, int n, int i)
{
	int j = i;

	while (j + 1 < n && !strcmp(h[j + 1].sig, h[i].sig))
		j++;
	return j;
}

static void hist_text(const struct il_platform *p, const struct hist_entry *h, int n, FILE *out)
{
	platform_line(p, out);
	fprintf(out, "kernels: %s .. %s, releases that set it up alike merged\n", h[0].rel,
		h[n - 1].rel);
	fprintf(out, "states: NAME latency/residency in us, a '-' after it: off by default; +exit "
		"read: each exit reads a shared device, as acpi_idle's PM-timer dummy wait\n");
	for (int i = 0; i < n;) {
		const struct il_state *st[IL_STATE_MAX];
		int j = hist_range_end(h, n, i), ns;

		fprintf(out, "\n%s", h[i].rel);
		if (j > i)
			fprintf(out, " .. %s", h[j].rel);
		fprintf(out, ": ");
		if (h[i].m.cpuidle) {
			il_text_fputs(h[i].m.drv.name, out);
			fprintf(out, ", governor ");
			il_text_fputs(h[i].gov, out);
		} else {
			fprintf(out, "no cpuidle driver");
		}
		if (p->arch == IL_ARCH_X86 || h[i].m.routine != IL_IDLE_ROUTINE_NONE)
			fprintf(out, ", default idle %s", il_idle_routine_name(h[i].m.routine));
		if (h[i].fm.invariant)
			fprintf(out, ", freq_max %g MHz (%s)", h[i].fm.mhz, h[i].fm.what);
		else if (p->arch == IL_ARCH_X86 && h[i].fm.rule == IL_FMAX_UNMODELLED)
			fprintf(out, ", freq_max not modelled");
		else if (p->arch == IL_ARCH_X86)
			fprintf(out, ", no frequency invariance");
		fprintf(out, "\n  ");
		ns = hist_states(&h[i].m, st);
		for (int k = 0; k < ns; k++) {
			fprintf(out, "%s", k ? ", " : "");
			il_text_fputs(st[k]->name, out);
			fprintf(out, " %u/%u%s%s", st[k]->exit_latency, st[k]->target_residency,
				(st[k]->flags & IL_FLAG_OFF) ? "-" : "", exit_wait(st[k]));
		}
		fprintf(out, "\n");
		i = j + 1;
	}
	fprintf(out, "\n(a release's notes: idlelab platform show NAME --kernel RELEASE)\n");
}

static int hist_json(const struct il_platform *p, const struct hist_entry *h, int n)
{
	struct il_json w;

	il_json_init(&w, stdout);
	il_json_object(&w, IL_JSON_BLOCK);
	il_json_kstring(&w, "platform", p->name);
	il_json_kstring(&w, "from", h[0].rel);
	il_json_kstring(&w, "to", h[n - 1].rel);
	il_json_key(&w, "ranges");
	il_json_array(&w, IL_JSON_BLOCK);
	for (int i = 0; i < n;) {
		const struct il_gov_preset *gp = governor_preset(&h[i].m);
		const struct il_state *st[IL_STATE_MAX];
		int j = hist_range_end(h, n, i), ns;

		il_json_object(&w, IL_JSON_BLOCK);
		il_json_kstring(&w, "from", h[i].rel);
		il_json_kstring(&w, "to", h[j].rel);
		il_json_key(&w, "releases");
		il_json_array(&w, IL_JSON_INLINE);
		for (int k = i; k <= j; k++)
			il_json_string(&w, h[k].rel);
		il_json_end(&w);
		il_json_kstring(&w, "driver", h[i].m.cpuidle ? h[i].m.drv.name : NULL);
		il_json_kstring(&w, "governor", h[i].m.cpuidle ? h[i].m.governor : NULL);
		il_json_kstring(&w, "governor_preset", gp && h[i].m.cpuidle ? gp->release : NULL);
		il_json_kstring(&w, "default_idle", il_idle_routine_name(h[i].m.routine));
		if (h[i].fm.invariant)
			il_json_kdouble(&w, "freq_max_mhz", h[i].fm.mhz);
		else
			il_json_knull(&w, "freq_max_mhz");
		il_json_key(&w, "states");
		il_json_array(&w, IL_JSON_BLOCK);
		ns = hist_states(&h[i].m, st);
		for (int k = 0; k < ns; k++) {
			il_json_object(&w, IL_JSON_INLINE);
			il_json_kint(&w, "state", k);
			il_json_kstring(&w, "name", st[k]->name);
			il_json_kuint(&w, "latency_us", st[k]->exit_latency);
			il_json_kuint(&w, "residency_us", st[k]->target_residency);
			il_json_kstring(&w, "default_status",
					(st[k]->flags & IL_FLAG_OFF) ? "disabled" : "enabled");
			il_json_kbool(&w, "exit_wait", st[k]->exit_path_cost.kind != IL_DIST_NONE);
			il_json_end(&w);
		}
		il_json_end(&w);
		il_json_end(&w);
		i = j + 1;
	}
	il_json_end(&w);
	il_json_end(&w);
	return il_json_finish(&w);
}

/* Tidy CSV: one row per release and state. */
static int hist_csv(const struct hist_entry *h, int n)
{
	static const char *const cols[] = { "kernel", "driver", "governor", "default_idle",
					    "freq_max_mhz", "state", "name", "latency_us",
					    "residency_us", "default_status" };
	struct il_table *t = il_table_new(NULL);
	int r;

	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	for (int i = 0; i < n; i++) {
		const struct il_state *st[IL_STATE_MAX];
		int ns = hist_states(&h[i].m, st);

		for (int k = 0; k < ns; k++) {
			il_table_row(t);
			il_table_str(t, h[i].rel);
			if (h[i].m.cpuidle)
				il_table_str(t, h[i].m.drv.name);
			else
				il_table_na(t);
			if (h[i].m.cpuidle)
				il_table_str(t, h[i].gov);
			else
				il_table_na(t);
			il_table_str(t, il_idle_routine_name(h[i].m.routine));
			if (h[i].fm.invariant)
				il_table_strf(t, "%g", h[i].fm.mhz);
			else
				il_table_na(t);
			il_table_u64(t, (uint64_t)k);
			il_table_str(t, st[k]->name);
			il_table_u64(t, st[k]->exit_latency);
			il_table_u64(t, st[k]->target_residency);
			il_table_str(t, (st[k]->flags & IL_FLAG_OFF) ? "disabled" : "enabled");
		}
	}
	r = il_table_print(t, IL_FORMAT_CSV, stdout);
	il_table_free(t);
	return r;
}

/*
 * platform history NAME|FILE: the driver, governor, default routine and
 * states of every modelled release, consecutive releases that give the
 * same merged into a range.
 */
static int history(const char *what, char **options, const char **optnames, int noptions,
		   const char *from, const char *to, enum il_format fmt)
{
	char rels[64][8];
	struct hist_entry *h;
	struct il_platform p;
	struct il_err err;
	int n = history_releases(rels, 64), r = 0, k = 0;

	/* --from and --to keep the releases between them, both included */
	for (int i = 0; i < n; i++)
		if ((!from || il_release_cmp(rels[i], from) >= 0) &&
		    (!to || il_release_cmp(rels[i], to) <= 0))
			memmove(rels[k++], rels[i], sizeof(rels[0]));
	n = k;
	if (!n)
		return cli_usage_error("platform", "--from %s is after --to %s", from, to);

	if (il_platform_load(&p, what, &err))
		return cli_report(&err);
	if ((r = set_options(&p, options, optnames, noptions)))
		return r;
	h = il_xcalloc((size_t)n, sizeof(*h));
	for (int i = 0; i < n; i++) {
		memcpy(h[i].rel, rels[i], sizeof(h[i].rel));
		if (il_machine_idle_build(&p, h[i].rel, &h[i].m, &err) ||
		    il_platform_freq_max(&p, h[i].rel, &h[i].fm, &err)) {
			free(h);
			return cli_report(&err);
		}
		hist_sign(&h[i]);
	}
	if (fmt == IL_FORMAT_JSON) {
		r = hist_json(&p, h, n);
	} else if (fmt == IL_FORMAT_CSV) {
		r = hist_csv(h, n);
	} else {
		struct il_fold fd;
		FILE *f = il_fold_open(&fd);

		if (!f) {
			r = -ENOMEM;
		} else {
			hist_text(&p, h, n, f);
			r = il_fold_close(&fd, IL_TABLE_WIDTH, stdout);
		}
	}
	free(h);
	if (fflush(stdout) || ferror(stdout))
		r = -EIO;
	return r ? 1 : 0;
}

#define MAX_CLI_OPTIONS 32

/*
 * -o names an existing file of the part of --root that is read (sys/,
 * proc/, dev/, boot/, idlelab-meta.txt): writing it would replace an input.
 */
static bool out_in_tree(const char *root, const char *out)
{
	static const char *const read[] = { "sys/", "proc/", "dev/", "boot/", "idlelab-meta.txt" };
	char *r, *o;
	bool in = false;

	if (!root || !out || !strcmp(out, "-"))
		return false;
	r = realpath(root, NULL);
	o = realpath(out, NULL);
	if (r && o) {
		size_t n = strcmp(r, "/") ? strlen(r) : 0;

		if (!strncmp(o, r, n) && o[n] == '/')
			for (size_t i = 0; i < sizeof(read) / sizeof(read[0]); i++)
				in |= !strncmp(o + n + 1, read[i], strlen(read[i]));
	}
	free(r);
	free(o);
	return in;
}

/* platform capture [--root DIR] [--name NAME] [-o FILE]: a platform file of this machine */
static int capture_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "name", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = NULL, *name = "captured", *out = "-";
	struct il_host h;
	struct il_out o;
	struct il_err err;
	char *text;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:n:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			/* "" would be this machine's / */
			if (!*optarg)
				return cli_usage_error("platform", "capture: --root: an empty "
						       "directory name");
			root = optarg;
			break;
		case 'n': name = optarg; break;
		case 'o': out = optarg; break;
		case ':':
			return cli_usage_error("platform", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("platform", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("platform", "capture: unexpected argument '%s'", argv[optind]);
	if (cli_name_given("platform", "capture: -o", "file", out))
		return 2;
	if (out_in_tree(root, out))
		return cli_usage_error("platform", "capture: -o %s: a file of the tree read (--root %s):"
				       " writing it would replace what is read", out, root);
	if (il_host_read(root, false, &h, &err))
		return cli_report(&err);
	for (int i = 0; i < h.notes.n; i++)
		cli_report(&h.notes.items[i]);
	for (int i = 0; i < h.sysfs.notes.n; i++)
		cli_report(&h.sysfs.notes.items[i]);
	text = il_host_platform_text(&h, name, &err);
	il_host_free(&h);
	if (!text)
		return err.file[0] ? cli_report(&err) :
				     cli_usage_error("platform", "--name: %s", err.msg);
	{
		/* what sim --platform will read: a file that does not load is not written */
		struct il_platform *p = il_xcalloc(1, sizeof(*p));
		struct il_err lerr;
		char msg[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 32];

		r = il_platform_load_string(p, text, strlen(text), "the captured platform", &lerr);
		free(p);
		if (r) {
			free(text);
			return cli_error("%s: cannot make a platform of it: %s", root ? root : "/",
					 il_err_format(&lerr, msg, sizeof(msg)));
		}
	}
	if (il_out_open(&o, out, &err)) {
		free(text);
		return cli_report(&err);
	}
	fputs(text, o.f);
	free(text);
	r = il_out_close(&o, true, &err);
	return r ? cli_report(&err) : 0;
}

static int platform_run(int argc, char **argv)
{
	enum il_format fmt = IL_FORMAT_TABLE;
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "set", required_argument, NULL, 'o' },
		{ "option", required_argument, NULL, 'o' }, /* deprecated: --set */
		{ "lines", no_argument, NULL, 'l' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "output", required_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	const char *release = NULL, *from = NULL, *to = NULL;
	struct il_err err;
	char *options[MAX_CLI_OPTIONS];
	const char *optnames[MAX_CLI_OPTIONS];
	int noptions = 0;
	bool lines = false;
	int c;

	bool hist;

	if (argc < 2)
		return cli_usage_error("platform", "missing subcommand (show, history, capture)");
	if (!strcmp(argv[1], "capture"))
		return capture_run(argc - 1, argv + 1);
	hist = !strcmp(argv[1], "history");
	if (strcmp(argv[1], "show") && !hist)
		return cli_usage_error("platform", "unknown subcommand '%s' (show, history, "
				       "capture)", argv[1]);
	argc--;
	argv++;
	optind = 1;
	opterr = 0;
	int li = -1;
	/* no -o for --set: -o is capture's output, and a file name is no KEY=VALUE */
	while ((c = getopt_long(argc, argv, "f:k:lF:T:", opts, &li)) != -1) {
		/* the name as typed: --set, or the deprecated --option */
		const char *name = li >= 0 ? opts[li].name : "set";
		li = -1;
		switch (c) {
		case 'f':
			if (il_format_parse(optarg, &fmt))
				return cli_usage_error("platform", "unknown format '%s'", optarg);
			break;
		case 'k':
			if (!release_ok(optarg))
				return cli_usage_error("platform", "--kernel: '%s' is not a kernel "
						       "release such as 6.18", optarg);
			if (il_release_check(optarg, &err))
				return cli_usage_error("platform", "--kernel: %s", err.msg);
			release = optarg;
			break;
		case 'o':
			if (!optarg[0] || optarg[0] == '=')
				return cli_usage_error("platform", "--%s: want KEY=VALUE, not '%s'",
						       name, optarg);
			if (noptions == MAX_CLI_OPTIONS)
				return cli_usage_error("platform", "more than %d --%s",
						       MAX_CLI_OPTIONS, name);
			optnames[noptions] = name;
			options[noptions++] = optarg;
			break;
		case 'l':
			lines = true;
			break;
		case 'O':
			return cli_usage_error("platform", "%s prints to standard output: "
					       "-o FILE is capture's", hist ? "history" : "show");
		case 'F':
		case 'T':
			if (!release_ok(optarg) || il_release_check(optarg, &err))
				return cli_usage_error("platform", "--%s: '%s' is not a kernel release "
						       "idlelab models (%s .. %s)", c == 'F' ? "from" : "to",
						       optarg, IL_RELEASE_OLDEST, IL_RELEASE_NEWEST);
			if (c == 'F')
				from = optarg;
			else
				to = optarg;
			break;
		case ':':
			return cli_usage_error("platform", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			/* -o, or --output without its file: the output asked for */
			if (optopt == 'o' || optopt == 'O')
				return cli_usage_error("platform", "%s prints to standard "
						       "output: -o FILE is capture's",
						       hist ? "history" : "show");
			if (optopt && strchr("fkFT", optopt))
				return cli_usage_error("platform", "option '%s' needs a value",
						       argv[optind - 1]);
			return cli_usage_error("platform", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("platform", "%s takes one platform name or file",
				       hist ? "history" : "show");
	if (hist && (release || lines))
		return cli_usage_error("platform", "history shows every release: %s is show's",
				       release ? "--kernel" : "--lines");
	if (!hist && (from || to))
		return cli_usage_error("platform", "%s is history's: show takes --kernel",
				       from ? "--from" : "--to");
	if (hist)
		return history(argv[optind], options, optnames, noptions, from, to, fmt);
	return show(argv[optind], release, options, optnames, noptions, lines, fmt);
}

const struct il_command cmd_platforms = {
	.name = "platforms",
	.summary = "list the built-in platforms",
	.usage = "usage: idlelab platforms [--format table|csv|json]\n\n"
		 "Lists the built-in platforms with their CPU count and a description.\n",
	.run = platforms_run,
};

const struct il_command cmd_platform = {
	.name = "platform",
	.summary = "show the idle states the kernel derives for a platform; capture this machine's",
	.usage = "usage: idlelab platform show NAME|FILE [--kernel RELEASE] [--set KEY=VALUE]...\n"
		 "                              [--lines] [--format table|csv|json]\n"
		 "       idlelab platform history NAME|FILE [--from RELEASE] [--to RELEASE]\n"
		 "                              [--set KEY=VALUE]... [--format table|csv|json]\n"
		 "       idlelab platform capture [--root DIR] [--name NAME] [-o FILE]\n\n"
		 "Derives the idle setup the kernel would make for a built-in platform or a\n"
		 "platform file: which cpuidle driver registers and its states (state, name,\n"
		 "desc, latency_us and residency_us, disable, default_status as sysfs shows\n"
		 "them, then flags, entry method and the exit-latency distribution in ns the\n"
		 "simulator samples), the governor, and on x86 the\n"
		 "default idle routine and why it was chosen, the turbo bins, the freq_max\n"
		 "of x86 frequency invariance at the release (the rule and the release it\n"
		 "starts from), the [cpufreq] facts (driver, governor, EFFIC, HWP, the\n"
		 "P-state table), then the drivers' notes. CSV adds them as columns after\n"
		 "the state's (NA where there are none), JSON as base_mhz, turbo, freq_max\n"
		 "and cpufreq.\n"
		 "With no driver the table holds the default routine as one state.\n\n"
		 "  --kernel RELEASE     follow kernel RELEASE, a mainline tag 5.4 .. 7.1 (e.g.\n"
		 "                       5.15, 6.18; default: the platform's own, else 7.1)\n"
		 "  --set KEY=VALUE      add or override a boot/module option, e.g. idle=halt,\n"
		 "                       cpuidle.off=1, cpuidle_haltpoll.force=1 (repeatable;\n"
		 "                       the names idlelab models: docs/platform-format.md;\n"
		 "                       --option is the old, deprecated name)\n"
		 "  --lines              print per state 'NAME latency:L disabled:D\n"
		 "                       default:enabled|disabled' as developers post it\n"
		 "  --format F           table (default), csv (the state table, each row with\n"
		 "                       platform, kernel, driver, governor) or json (all of it)\n\n"
		 "history shows, for every kernel release idlelab models (5.4 .. 7.1), the\n"
		 "driver, the governor's text, the default idle routine and the states with\n"
		 "their latency and residency, consecutive releases that set the platform up\n"
		 "alike merged into one range: which release changes what on this machine.\n"
		 "CSV has a row per release and state, JSON the ranges.\n"
		 "  --from RELEASE, --to RELEASE\n"
		 "                       history of the releases between them only (both kept)\n\n"
		 "capture writes a platform file of this machine (or of a tree written by\n"
		 "`idlelab capture`), so that `idlelab sim --platform FILE` simulates it:\n"
		 "topology, the CPUID facts of /proc/cpuinfo, HZ from the kernel configuration,\n"
		 "the release, the boot options idlelab models, and the running driver's idle\n"
		 "states as an explicit [driver]/[state.N] table (flags and entry methods are\n"
		 "inferred from the state names and descs, and said in comments).\n"
		 "  --root DIR           read a captured tree instead of this machine\n"
		 "  --name NAME          the platform's name (default: captured)\n"
		 "  -o, --output FILE    write FILE (default: standard output); it appears\n"
		 "                       complete or not at all\n",
	.run = platform_run,
};
