// SPDX-License-Identifier: GPL-2.0-only
/*
 * State tables: the normalisation cpuidle_register_driver() applies
 * (drivers/cpuidle/driver.c, __cpuidle_driver_init, mainline v7.1) and the
 * poll state of drivers/cpuidle/poll_state.c; plus flag, entry-method and
 * distribution parsing for platform files and logs.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "idlelab/state.h"
#include "util.h"

void il_driver_init(struct il_driver *drv)
{
	drv->bctimer = false;
	for (int i = 0; i < drv->state_count; i++) {
		struct il_state *s = &drv->states[i];

		if (s->flags & IL_FLAG_TIMER_STOP)
			drv->bctimer = true;
		/* µs given wins; otherwise derive µs from ns, clamping negatives. */
		if (s->target_residency > 0)
			s->target_residency_ns = (int64_t)s->target_residency * 1000;
		else if (s->target_residency_ns < 0)
			s->target_residency_ns = 0;
		else
			s->target_residency = (unsigned int)((uint64_t)s->target_residency_ns / 1000);
		if (s->exit_latency > 0)
			s->exit_latency_ns = (int64_t)s->exit_latency * 1000;
		else if (s->exit_latency_ns < 0)
			s->exit_latency_ns = 0;
		else
			s->exit_latency = (unsigned int)((uint64_t)s->exit_latency_ns / 1000);
	}
}

void il_poll_state_init(struct il_state *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "POLL");
	snprintf(s->desc, sizeof(s->desc), "CPUIDLE CORE POLL IDLE");
	s->exit_latency_ns = 0;
	s->target_residency_ns = 0;
	s->power_usage = -1;
	s->flags = IL_FLAG_POLLING;
	s->entry = IL_ENTRY_POLL;
	s->power_w = -1;
	s->transition_j = -1;
}

bool il_state_sysfs_polling(int index, const char *name, const char *desc)
{
	name = name ? name : "";
	desc = desc ? desc : "";
	return (index == 0 && (!strcmp(name, "POLL") || !strcmp(desc, "CPUIDLE CORE POLL IDLE"))) ||
	       !strcmp(name, "snooze");
}

static const struct {
	const char *name;
	unsigned int bit;
} flag_names[] = {
	{ "POLLING", IL_FLAG_POLLING },
	{ "COUPLED", IL_FLAG_COUPLED },
	{ "TIMER_STOP", IL_FLAG_TIMER_STOP },
	{ "UNUSABLE", IL_FLAG_UNUSABLE },
	{ "OFF", IL_FLAG_OFF },
	{ "TLB_FLUSHED", IL_FLAG_TLB_FLUSHED },
	{ "RCU_IDLE", IL_FLAG_RCU_IDLE },
	{ "TURBO_RELEASE", IL_FLAG_TURBO_RELEASE },
};

int il_state_flags_parse(const char *text, unsigned int *flags, struct il_err *err)
{
	char tok[32];
	const char *p = text;

	*flags = 0;
	while (*p) {
		size_t n = 0;

		while (*p == ' ' || *p == '\t' || *p == '|' || *p == ',')
			p++;
		if (!*p)
			break;
		while (*p && *p != '|' && *p != ',' && *p != ' ' && *p != '\t') {
			if (n + 1 >= sizeof(tok))
				return il_err_set(err, EINVAL, "flag name too long in '%s'", text);
			/* accept "timer-stop" for "TIMER_STOP" */
			tok[n++] = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
			p++;
		}
		tok[n] = '\0';
		size_t k;
		for (k = 0; k < sizeof(flag_names) / sizeof(flag_names[0]); k++)
			if (!strcmp(tok, flag_names[k].name))
				break;
		if (k == sizeof(flag_names) / sizeof(flag_names[0]))
			return il_err_set(err, EINVAL, "unknown state flag '%s'", tok);
		*flags |= flag_names[k].bit;
	}
	return 0;
}

const char *il_state_flags_str(unsigned int flags, char *buf, unsigned size)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(flag_names) / sizeof(flag_names[0]); k++) {
		if (!(flags & flag_names[k].bit))
			continue;
		int n = snprintf(buf + off, size > off ? size - off : 0, "%s%s",
				 off ? "|" : "", flag_names[k].name);
		if (n < 0)
			break;
		off += (size_t)n;
	}
	return buf;
}

static const char *const entry_names[] = {
	[IL_ENTRY_NONE] = "none",   [IL_ENTRY_POLL] = "poll",
	[IL_ENTRY_HLT] = "hlt",     [IL_ENTRY_MWAIT] = "mwait",
	[IL_ENTRY_IOPORT] = "ioport", [IL_ENTRY_CEDE] = "cede",
	[IL_ENTRY_TDX_HALT] = "tdx-halt",
};

const char *il_entry_method_name(enum il_entry_method m)
{
	if ((unsigned)m < sizeof(entry_names) / sizeof(entry_names[0]) && entry_names[m])
		return entry_names[m];
	return "?";
}

int il_entry_method_parse(const char *text, enum il_entry_method *m)
{
	for (size_t i = 0; i < sizeof(entry_names) / sizeof(entry_names[0]); i++) {
		if (entry_names[i] && !strcasecmp(text, entry_names[i])) {
			*m = (enum il_entry_method)i;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * One distribution without a tail, s (trimmed, writable): its kind and
 * values; text is the whole input, for messages.
 */
static int dist_parse_one(char *s, const char *text, bool bare_us, enum il_dist_kind *kindp,
			  double v[2], struct il_err *err)
{
	static const struct {
		const char *name;
		enum il_dist_kind kind;
		int nargs;
	} kinds[] = {
		{ "const", IL_DIST_CONST, 1 },   { "uniform", IL_DIST_UNIFORM, 2 },
		{ "normal", IL_DIST_NORMAL, 2 }, { "lognormal", IL_DIST_LOGNORMAL, 2 },
		{ "exp", IL_DIST_EXP, 2 },
	};
	char *args[3];
	int nargs = 0;
	char *colon = strchr(s, ':');
	enum il_dist_kind kind = IL_DIST_CONST;
	int want = 1;
	char *rest = s;

	if (colon) {
		*colon = '\0';
		size_t k;
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strcmp(s, kinds[k].name))
				break;
		if (k == sizeof(kinds) / sizeof(kinds[0]))
			return il_err_set(err, EINVAL,
					  "unknown distribution '%s' (const, uniform, normal, lognormal, exp)",
					  s);
		kind = kinds[k].kind;
		want = kinds[k].nargs;
		rest = colon + 1;
	}
	for (char *tok = rest; tok && nargs < 3;) {
		char *next = strchr(tok, ':');
		if (next)
			*next++ = '\0';
		args[nargs++] = il_strtrim(tok);
		tok = next;
	}
	if (nargs != want)
		return il_err_set(err, EINVAL, "distribution '%s' needs %d value%s", text, want,
				  want > 1 ? "s" : "");
	v[0] = v[1] = 0;
	for (int i = 0; i < nargs; i++) {
		int64_t ns;
		/* sigma of a lognormal is unitless */
		if (kind == IL_DIST_LOGNORMAL && i == 1) {
			if (il_parse_double(args[i], &v[i]) || v[i] < 0)
				return il_err_set(err, EINVAL, "bad sigma '%s' in '%s'", args[i], text);
			continue;
		}
		/* a bare number ("80", "1.5") is in the unit the caller reads them in */
		if (il_parse_duration(args[i], bare_us, &ns) || ns < 0)
			return il_err_set(err, EINVAL, "bad duration '%s' in '%s'", args[i], text);
		v[i] = (double)ns;
	}
	if (kind == IL_DIST_UNIFORM && v[1] < v[0])
		return il_err_set(err, EINVAL, "uniform range '%s' is reversed", text);
	*kindp = kind;
	return 0;
}

/*
 * Where the tail of s begins: the '+' of "+P%:" (blanks allowed around P),
 * else NULL. No number of a distribution has "+digits%", so the first such
 * '+' is the tail's. P may have an exponent, as il_dist_str() prints a
 * small one ("5e-05").
 */
const char *il_dist_tail_start(const char *s)
{
	for (const char *t = strchr(s, '+'); t; t = strchr(t + 1, '+')) {
		const char *p = t + 1 + strspn(t + 1, " \t");
		size_t n = strspn(p, "0123456789.eE-");
		if (n && p[n + strspn(p + n, " \t")] == '%')
			return t;
	}
	return NULL;
}

/* Does a distribution draw nothing but 0 (a tail of it would add nothing)? */
static bool dist_always_zero(enum il_dist_kind kind, double a, double b)
{
	switch (kind) {
	case IL_DIST_NONE: return true;
	case IL_DIST_CONST: return a == 0;
	case IL_DIST_UNIFORM: return b == 0;
	case IL_DIST_NORMAL: return a <= 0 && b == 0;
	case IL_DIST_LOGNORMAL: return a == 0;
	case IL_DIST_EXP: return a == 0 && b == 0;
	}
	return false;
}

int il_dist_parse(const char *text, struct il_dist *d, struct il_err *err)
{
	return il_dist_parse_bare(text, false, d, err);
}

int il_dist_parse_bare(const char *text, bool bare_us, struct il_dist *d, struct il_err *err)
{
	char buf[128];
	double v[2], tv[2] = { 0, 0 };
	enum il_dist_kind kind, tkind = IL_DIST_NONE;
	double p = 0;

	if (strlen(text) >= sizeof(buf))
		return il_err_set(err, EINVAL, "distribution '%.40s...' too long", text);
	snprintf(buf, sizeof(buf), "%s", text);
	const char *t = il_dist_tail_start(buf);
	char *tail = t ? buf + (t - buf) : NULL;
	/* "+nan%:", "+x%:": meant as a tail, but its share is no number */
	if (!tail && strchr(buf, '+') && strstr(buf, "%:"))
		return il_err_set(err, EINVAL, "a tail in '%s' is +P%%:DISTRIBUTION, P a number "
				  "in (0, 100]", text);
	if (tail) {
		*tail++ = '\0';
		char *pct = strchr(tail, '%');
		*pct = '\0';
		tail = il_strtrim(tail);
		if (il_parse_double(tail, &p) || !(p > 0 && p <= 100))
			return il_err_set(err, EINVAL, "tail share '%s%%' in '%s' is not in (0, 100]",
					  tail, text);
		if (pct[1] != ':')
			return il_err_set(err, EINVAL, "tail in '%s' wants P%%:DISTRIBUTION", text);
		char *ts = il_strtrim(pct + 2);
		if (il_dist_tail_start(ts))
			return il_err_set(err, EINVAL, "'%s' has more than one tail", text);
		if (dist_parse_one(ts, text, bare_us, &tkind, tv, err))
			return -EINVAL;
		if (dist_always_zero(tkind, tv[0], tv[1]))
			return il_err_set(err, EINVAL, "the tail of '%s' adds nothing", text);
	}
	if (dist_parse_one(il_strtrim(buf), text, bare_us, &kind, v, err))
		return -EINVAL;
	/* "0" is no cost; with a tail it is a constant 0 that draws the tail */
	d->kind = (kind == IL_DIST_CONST && v[0] == 0 && !tail) ? IL_DIST_NONE : kind;
	d->a = v[0];
	d->b = v[1];
	d->tail_p = p / 100;
	d->tail_kind = tkind;
	d->tail_a = tv[0];
	d->tail_b = tv[1];
	return 0;
}

static int dist_str_one(enum il_dist_kind kind, double a, double b, char *buf, unsigned size)
{
	switch (kind) {
	case IL_DIST_NONE: return snprintf(buf, size, "0");
	case IL_DIST_CONST: return snprintf(buf, size, "%.0f", a);
	case IL_DIST_UNIFORM: return snprintf(buf, size, "uniform:%.0f:%.0f", a, b);
	case IL_DIST_NORMAL: return snprintf(buf, size, "normal:%.0f:%.0f", a, b);
	case IL_DIST_LOGNORMAL: return snprintf(buf, size, "lognormal:%.0f:%g", a, b);
	case IL_DIST_EXP: return snprintf(buf, size, "exp:%.0f:%.0f", a, b);
	}
	return snprintf(buf, size, "?");
}

const char *il_dist_str(const struct il_dist *d, char *buf, unsigned size)
{
	int n = dist_str_one(d->kind, d->a, d->b, buf, size);

	if (d->tail_p > 0 && n >= 0 && (unsigned)n < size) {
		/* P as it was read: up to 15 digits come back as they were */
		int m = snprintf(buf + n, size - (unsigned)n, "+%.15g%%:", d->tail_p * 100);
		if (m >= 0 && (unsigned)(n + m) < size)
			dist_str_one(d->tail_kind, d->tail_a, d->tail_b, buf + n + m,
				     size - (unsigned)(n + m));
	}
	return buf;
}

static double dist_mean_one(enum il_dist_kind kind, double a, double b)
{
	switch (kind) {
	case IL_DIST_NONE: return 0;
	case IL_DIST_CONST: return a;
	case IL_DIST_UNIFORM: return (a + b) / 2;
	case IL_DIST_NORMAL: return a;
	case IL_DIST_LOGNORMAL: return a * exp(b * b / 2);
	case IL_DIST_EXP: return a + b;
	}
	return 0;
}

double il_dist_mean(const struct il_dist *d)
{
	return dist_mean_one(d->kind, d->a, d->b) +
	       d->tail_p * dist_mean_one(d->tail_kind, d->tail_a, d->tail_b);
}
