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

/*
 * ACPI _CST as drivers/acpi/acpi_processor.c acpi_processor_evaluate_cst()
 * hands it to acpi_idle and intel_idle (shared by acpi_idle.c and
 * intel_idle.c; implemented in acpi_idle.c).
 */
#define IL_ACPI_MAX_POWER 8            /* ACPI_PROCESSOR_MAX_POWER: slot 0 unused */

/* entry_method of struct acpi_processor_cx (include/acpi/processor.h values) */
enum il_acpi_cx_method { IL_ACPI_CX_SYSTEMIO = 0, IL_ACPI_CX_FFH = 1, IL_ACPI_CX_HALT = 2 };

/* struct acpi_processor_cx: one slot of the ACPI power table. */
struct il_acpi_cx {
	bool valid;
	int type;                          /* ACPI_STATE_C1..C3 (0: empty slot) */
	unsigned int latency;              /* µs */
	unsigned int address;              /* MWAIT hint (FFH) or I/O port */
	enum il_acpi_cx_method method;
	char desc[32];                     /* ACPI_CX_DESC_LEN */
	int line;                          /* platform file line of its [cst.N], 0 if none */
};

struct il_acpi_power {
	int count;                         /* last filled slot */
	struct il_acpi_cx states[IL_ACPI_MAX_POWER];
};

/*
 * acpi_processor_evaluate_cst(): the platform's [cst.N] entries into
 * power->states[1..], FIXED_HARDWARE entries checked by the x86 FFH probe
 * (arch/x86/kernel/acpi/cstate.c). Returns 0, -ENODEV (no _CST) or -EFAULT
 * (inconsistent _CST); what it drops is said with il_machine_note, each
 * note prefixed with who.
 */
int il_acpi_evaluate_cst(const struct il_platform *p, struct il_machine_idle *m,
			 struct il_acpi_power *power, const char *who);

/*
 * acpi_processor_claim_cst_control(): does the firmware hand _CST control
 * to the OS? The platform's cst_claim, overridable with the option
 * firmware.cst_claim=yes|no.
 */
bool il_acpi_claim_cst_control(const struct il_platform *p);

/*
 * The intel_idle built-in table that matches the platform's CPU under
 * m->release ("Haswell-X", "Skylake-X", ...), or NULL (unknown model: the
 * driver would need _CST). Implemented in intel_idle.c.
 */
const char *il_intel_idle_table_name(const struct il_platform *p, const struct il_machine_idle *m);

/* The platform's "exit.NAME" wake-up latency for a state, or NULL. */
const struct il_dist *il_platform_state_exit(const struct il_platform *p, const char *name);

/*
 * A state's real wake-up latency distribution: the platform's exit.NAME,
 * else hlt_exit for HLT and mwait_exit for MWAIT C1-class hints when given,
 * else the driver's exit latency as a constant.
 */
struct il_dist il_driver_exit_dist(const struct il_platform *p, const struct il_state *s);

#endif
