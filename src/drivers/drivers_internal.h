/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interface between the idle drivers and src/drivers/machine.c,
 * which decides, in the kernel's initcall order, which driver registers.
 *
 * Each probe looks at the platform (and m->release, the kernel release the
 * decisions follow) and either registers its driver into m (fills m->drv,
 * sets m->cpuidle = true, returns 0), or refuses to load (returns 1 and says
 * why with il_machine_note), or fails on impossible input (negative + err).
 */
#ifndef IDLELAB_DRIVERS_INTERNAL_H
#define IDLELAB_DRIVERS_INTERNAL_H

#include "idlelab/drivers.h"

void il_machine_note(struct il_machine_idle *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int il_intel_idle_probe(const struct il_platform *p, struct il_machine_idle *m,
			struct il_err *err);
int il_acpi_idle_probe(const struct il_platform *p, struct il_machine_idle *m,
		       struct il_err *err);
int il_pseries_idle_probe(const struct il_platform *p, struct il_machine_idle *m,
			  struct il_err *err);
int il_haltpoll_probe(const struct il_platform *p, struct il_machine_idle *m,
		      struct il_err *err);
/* x86 select_idle_routine(): fills m->routine, m->routine_why, m->default_state. */
void il_x86_select_idle_routine(const struct il_platform *p, struct il_machine_idle *m);

/* boot_option_idle_override (x86 "idle=" early parameter). */
enum il_idle_override {
	IL_IDLE_NO_OVERRIDE = 0,
	IL_IDLE_HALT,
	IL_IDLE_NOMWAIT,
	IL_IDLE_POLL,
};

/*
 * "idle=" as idle_setup() parses it: poll, halt, nomwait; anything else is
 * refused by the kernel ("Malformed early option") and leaves no override.
 */
enum il_idle_override il_boot_idle_override(const struct il_platform *p);

/*
 * A boolean kernel or module parameter as kstrtobool() reads it (1/y/Y/on,
 * 0/n/N/off); def when the option is absent or its value is refused.
 */
bool il_option_bool(const struct il_platform *p, const char *key, bool def);

/* Release comparison against m->release: true if m follows release >= rel. */
bool il_release_at_least(const struct il_machine_idle *m, const char *rel);

#endif
