/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the idle drivers present to src/drivers/machine.c, which decides,
 * in the kernel's initcall order, which driver registers. The drivers
 * themselves use only common.h (and acpi_cst.h); none calls machine.c.
 *
 * Each probe looks at the platform (and m->release, the kernel release the
 * decisions follow) and either registers its driver into m (fills m->drv,
 * sets m->cpuidle = true, returns 0), or refuses to load (returns 1 and says
 * why with il_machine_note), or fails on impossible input (negative + err).
 *
 * Each *_state_names() adds the names the driver's states can have on the
 * platform under any release and options (common.h), so that machine.c can
 * refuse a platform key naming a state that cannot exist.
 */
#ifndef IDLELAB_DRIVERS_INTERNAL_H
#define IDLELAB_DRIVERS_INTERNAL_H

#include "common.h"

int il_intel_idle_probe(const struct il_platform *p, struct il_machine_idle *m,
			struct il_err *err);
int il_acpi_idle_probe(const struct il_platform *p, struct il_machine_idle *m,
		       struct il_err *err);
int il_pseries_idle_probe(const struct il_platform *p, struct il_machine_idle *m,
			  struct il_err *err);
int il_haltpoll_probe(const struct il_platform *p, struct il_machine_idle *m,
		      struct il_err *err);

void il_intel_idle_state_names(const struct il_platform *p, struct il_state_names *s);
void il_acpi_idle_state_names(const struct il_platform *p, struct il_state_names *s);
void il_pseries_idle_state_names(const struct il_platform *p, struct il_state_names *s);
void il_haltpoll_state_names(const struct il_platform *p, struct il_state_names *s);

/* x86 select_idle_routine(): fills m->routine, m->routine_why, m->default_state. */
void il_x86_select_idle_routine(const struct il_platform *p, struct il_machine_idle *m);
/* The names x86 default-idle states can have (m->default_state.name). */
void il_x86_idle_state_names(const struct il_platform *p, struct il_state_names *s);

/*
 * The intel_idle built-in table that matches the platform's CPU under
 * m->release ("Haswell-X", "Skylake-X", ...), or NULL (unknown model: the
 * driver would need _CST). Implemented in intel_idle.c.
 */
const char *il_intel_idle_table_name(const struct il_platform *p, const struct il_machine_idle *m);

#endif
