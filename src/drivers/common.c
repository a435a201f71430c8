// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers every idle driver uses (src/drivers/common.h): notes, options
 * parsed as the kernel parses them, release comparison (core's
 * include/idlelab/release.h), wake-up latency distributions, and the set
 * of state names a platform can have.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "idlelab/release.h"

void il_machine_note(struct il_machine_idle *m, const char *fmt, ...)
{
	va_list ap;

	if (m->nnotes >= IL_NOTES_MAX) {
		/* the last kept note says so, not silence (the outcome may be among those left out) */
		snprintf(m->notes[IL_NOTES_MAX - 1], IL_NOTE_LEN, "(more notes than idlelab keeps, %d: "
			 "the rest are left out)", IL_NOTES_MAX - 1);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(m->notes[m->nnotes++], IL_NOTE_LEN, fmt, ap);
	va_end(ap);
}

bool il_release_at_least(const struct il_machine_idle *m, const char *rel)
{
	return il_release_cmp(m->release, rel) >= 0;
}

enum il_idle_override il_boot_idle_override(const struct il_platform *p)
{
	const char *v = il_platform_option(p, "idle");

	if (!v)
		return IL_IDLE_NO_OVERRIDE;
	if (!strcmp(v, "poll"))
		return IL_IDLE_POLL;
	if (!strcmp(v, "halt"))
		return IL_IDLE_HALT;
	if (!strcmp(v, "nomwait"))
		return IL_IDLE_NOMWAIT;
	return IL_IDLE_NO_OVERRIDE;
}

/* kstrtobool(): the first character of YyTt1 / NnFf0 decides, "on"/"of" need the second. */
static int parse_kbool(const char *s, bool *out)
{
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*out = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*out = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N') {
			*out = true;
			return 0;
		}
		if (s[1] == 'f' || s[1] == 'F') {
			*out = false;
			return 0;
		}
		return -EINVAL;
	default:
		return -EINVAL;
	}
}

bool il_option_bool(const struct il_platform *p, const char *key, bool def)
{
	const char *v = il_platform_option(p, key);
	bool b;

	if (!v)
		return def;
	if (!*v)
		return true; /* a bare bool parameter ("foo.force") sets it */
	return parse_kbool(v, &b) ? def : b;
}

int il_kstrtoll(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

int il_kstrtouint(const char *s, unsigned int *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT_MAX)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

const struct il_dist *il_platform_state_exit(const struct il_platform *p, const char *name)
{
	for (int i = 0; i < p->nstate_exit; i++)
		if (!strcmp(p->state_exit[i].name, name))
			return &p->state_exit[i].dist;
	return NULL;
}

struct il_dist il_driver_exit_dist(const struct il_platform *p, const struct il_state *s)
{
	const struct il_dist *d = il_platform_state_exit(p, s->name);
	struct il_dist c = { IL_DIST_CONST, (double)s->exit_latency * 1000.0, 0 };

	if (d)
		return *d;
	if (s->entry == IL_ENTRY_HLT && p->hlt_exit.kind != IL_DIST_NONE)
		return p->hlt_exit;
	if (s->entry == IL_ENTRY_MWAIT && !il_mwait_cstate(s->mwait_hint) &&
	    p->mwait_exit.kind != IL_DIST_NONE)
		return p->mwait_exit;
	if (!s->exit_latency)
		c.kind = IL_DIST_NONE;
	return c;
}

void il_state_names_add2(struct il_state_names *s, const char *name, const char *who,
			 const char *exit_from, const char *power_from)
{
	struct il_state_name *e;

	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name)) {
			/* the same name from two drivers: either source counts */
			if (!exit_from) {
				s->v[i].exit_from = NULL;
				s->v[i].who = who;
			}
			if (!power_from)
				s->v[i].power_from = NULL;
			return;
		}
	if (s->n == IL_STATE_NAMES_MAX)
		return;
	e = &s->v[s->n++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->who = who;
	e->exit_from = exit_from;
	e->power_from = power_from;
}

void il_state_names_add(struct il_state_names *s, const char *name, const char *who,
			const char *exit_from)
{
	il_state_names_add2(s, name, who, exit_from, NULL);
}

const struct il_state_name *il_state_names_find(const struct il_state_names *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}
