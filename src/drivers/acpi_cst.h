/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ACPI _CST as drivers/acpi/acpi_processor.c acpi_processor_evaluate_cst()
 * hands it to acpi_idle and intel_idle, both of which use this file
 * (src/drivers/acpi_cst.c); it uses only src/drivers/common.h.
 */
#ifndef IDLELAB_DRIVERS_ACPI_CST_H
#define IDLELAB_DRIVERS_ACPI_CST_H

#include <stdbool.h>

#include "common.h"

#define IL_ACPI_MAX_POWER 8            /* ACPI_PROCESSOR_MAX_POWER: slot 0 unused */

/* ACPI C-state types (include/acpi/actypes.h ACPI_STATE_C1..C3) */
#define IL_ACPI_STATE_C1 1
#define IL_ACPI_STATE_C2 2
#define IL_ACPI_STATE_C3 3

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
 * The highest slot il_acpi_evaluate_cst() can fill from the platform's
 * _CST under any options (0: no usable _CST), for the state names a
 * _CST-built table can have.
 */
int il_acpi_cst_max_slot(const struct il_platform *p);

#endif
