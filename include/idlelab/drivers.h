/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Idle drivers: from a platform to the idle setup the kernel would make.
 *
 * Given a platform (firmware tables, CPUID facts, boot options) and a
 * kernel release, decide which cpuidle driver loads (intel_idle, acpi_idle,
 * pseries_idle, haltpoll, or none), build its state table as that driver
 * does, and choose the x86 default idle routine used when no driver loads.
 */
#ifndef IDLELAB_DRIVERS_H
#define IDLELAB_DRIVERS_H

#include <stdbool.h>
#include <stdint.h>

#include "idlelab/err.h"
#include "idlelab/platform.h"
#include "idlelab/state.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_NOTES_MAX 24
#define IL_NOTE_LEN 200

enum il_idle_routine {
	IL_IDLE_ROUTINE_NONE = 0,
	IL_IDLE_ROUTINE_POLL,      /* idle=poll: the generic loop spins */
	IL_IDLE_ROUTINE_HLT,       /* default_idle */
	IL_IDLE_ROUTINE_MWAIT_C1,  /* mwait_idle */
	IL_IDLE_ROUTINE_TDX_HALT,  /* tdx_halt */
	IL_IDLE_ROUTINE_CEDE,      /* non-x86 arch default (pseries: H_CEDE) */
};

/* What the kernel makes of a platform's idle hardware. */
struct il_machine_idle {
	char release[16];            /* kernel release the decisions follow */
	bool cpuidle;                /* a cpuidle driver is registered */
	struct il_driver drv;        /* its table (valid if cpuidle) */
	uint64_t snooze_timeout_ns;  /* pseries snooze loop time limit, 0 = none */
	bool force_poll;             /* idle=poll / nohlt: cpu_idle_force_poll */
	bool nohz_off;               /* nohz=off (any false kstrtobool): tick_nohz_enabled false */
	enum il_idle_routine routine;/* arch default idle (x86 select_idle_routine) */
	char routine_why[IL_NOTE_LEN];
	struct il_state default_state; /* the routine as a single state for the simulator */
	char governor[16];           /* governor the kernel would run */
	int nnotes;
	char notes[IL_NOTES_MAX][IL_NOTE_LEN]; /* what the drivers decided, and why */
};

/*
 * Build the idle setup for platform p under kernel release (NULL = the
 * platform's own, else newest). Inconsistent firmware is handled the way the
 * kernel handles it and said in out->notes; only impossible input fails.
 */
int il_machine_idle_build(const struct il_platform *p, const char *release,
			  struct il_machine_idle *out, struct il_err *err);

const char *il_idle_routine_name(enum il_idle_routine r);

/*
 * Does release (MAJOR.MINOR) register pseries' snooze with
 * CPUIDLE_FLAG_POLLING? From v6.2 (5ddcc03a07ae); before it the same spin
 * loop has no flag. The driver's table, a capture's and a trace's sysfs
 * table all follow this one rule.
 */
bool il_pseries_snooze_polling(const char *release);

/*
 * intel_idle's built-in table for an Intel CPU of this family and model
 * in kernel release (a mainline tag such as "5.15"; NULL: the newest):
 * the table's label ("Alder Lake"), or NULL when that release has none
 * (it builds the states from _CST, as for Tremont, or does not load).
 * *first (may be NULL) gets the first modelled release whose intel_idle
 * has a table for the model: NULL if none has, "" if every one has.
 */
const char *il_intel_idle_model_table(int family, int model, const char *release,
				      const char **first);

/*
 * What intel_idle's built-in table of release (NULL: the newest) gives the
 * state NAME of an Intel CPU of this family and model: the table's exit
 * latency and target residency in µs, and the other values the driver's
 * fix-ups can give it on some machines, each with its cause. Returns
 * false when the release has no table for the model or the table has no
 * such state. any_value: a fix-up takes the values from the machine
 * (Goldmont's IRTL MSRs), so any value can be right.
 */
#define IL_INTEL_IDLE_ALTS 4
struct il_intel_idle_expect {
	unsigned int exit_latency, target_residency;
	int nalt;
	struct {
		unsigned int exit_latency, target_residency;
		const char *cause;
	} alt[IL_INTEL_IDLE_ALTS];
	const char *any_value;       /* NULL, or the cause that allows any value */
};

bool il_intel_idle_expect_state(int family, int model, const char *release, const char *name,
				struct il_intel_idle_expect *out);

#ifdef __cplusplus
}
#endif

#endif
