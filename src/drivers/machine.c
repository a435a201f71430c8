// SPDX-License-Identifier: GPL-2.0-only
/*
 * From a platform to the kernel's idle setup (include/idlelab/drivers.h).
 * Minimal first version: platforms with an explicit state table register
 * it as is. The driver probes (issue 4) extend this file.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "drivers_internal.h"

void il_machine_note(struct il_machine_idle *m, const char *fmt, ...)
{
	va_list ap;

	if (m->nnotes >= IL_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(m->notes[m->nnotes++], IL_NOTE_LEN, fmt, ap);
	va_end(ap);
}

const char *il_idle_routine_name(enum il_idle_routine r)
{
	switch (r) {
	case IL_IDLE_ROUTINE_POLL: return "poll";
	case IL_IDLE_ROUTINE_HLT: return "default_idle (hlt)";
	case IL_IDLE_ROUTINE_MWAIT_C1: return "mwait_idle (mwait C1)";
	case IL_IDLE_ROUTINE_TDX_HALT: return "tdx_halt";
	case IL_IDLE_ROUTINE_CEDE: return "cede";
	default: return "none";
	}
}

int il_machine_idle_build(const struct il_platform *p, const char *release,
			  struct il_machine_idle *out, struct il_err *err)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->release, sizeof(out->release), "%s",
		 release && *release ? release : (p->release[0] ? p->release : "7.1"));
	if (!p->has_table)
		return il_err_set_at(err, EINVAL, p->file, 0, "platform has no state table");
	out->cpuidle = true;
	out->drv = p->table;
	snprintf(out->governor, sizeof(out->governor), "%s",
		 p->table.governor[0] ? p->table.governor : "menu");
	il_machine_note(out, "explicit state table from the platform file");
	return 0;
}
