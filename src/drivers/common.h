/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every idle driver of src/drivers/ uses: the notes a build collects,
 * boot and module options read the way the kernel parses them, the release
 * a build follows, MWAIT hint fields, and a state's wake-up latency
 * distribution. Below every driver and machine.c; calls none of them.
 */
#ifndef IDLELAB_DRIVERS_COMMON_H
#define IDLELAB_DRIVERS_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "idlelab/drivers.h"

/* CPUID leaf 5 ECX bits and the MWAIT hint / EDX sub-state fields (asm/mwait.h). */
#define IL_CPUID5_ECX_EXTENSIONS_SUPPORTED 0x1u
#define IL_CPUID5_ECX_INTERRUPT_BREAK 0x2u
#define IL_MWAIT_SUBSTATE_SIZE 4
#define IL_MWAIT_SUBSTATE_MASK 0xfu
#define IL_MWAIT_CSTATE_MASK 0xfu

/* The C-state field of an MWAIT hint (0 = C1-class). */
static inline unsigned int il_mwait_cstate(unsigned int hint)
{
	return (hint >> IL_MWAIT_SUBSTATE_SIZE) & IL_MWAIT_CSTATE_MASK;
}

/* Add a note to m (dropped past IL_NOTES_MAX). */
void il_machine_note(struct il_machine_idle *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Release comparison against m->release: true if m follows release >= rel. */
bool il_release_at_least(const struct il_machine_idle *m, const char *rel);

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

/*
 * kstrtoint()/kstrtouint() with base 0 (decimal, 0x hex, 0 octal), the
 * value within [lo, hi]: 0, or -EINVAL when the kernel would refuse it.
 */
int il_kstrtoll(const char *s, long long lo, long long hi, long long *out);
int il_kstrtouint(const char *s, unsigned int *out);

/* The platform's "exit.NAME" wake-up latency for a state, or NULL. */
const struct il_dist *il_platform_state_exit(const struct il_platform *p, const char *name);

/*
 * A state's real wake-up latency distribution: the platform's exit.NAME,
 * else hlt_exit for HLT and mwait_exit for MWAIT C1-class hints when given,
 * else the driver's exit latency as a constant.
 */
struct il_dist il_driver_exit_dist(const struct il_platform *p, const struct il_state *s);

/*
 * The names a platform's states can have under some kernel release and
 * some options, as each driver names them, for checking the keys of a
 * platform file that name a state (exit.NAME, power.NAME, transition.NAME).
 * exit_from is NULL where the state's wake-up latency is the platform's
 * exit.NAME (il_driver_exit_dist), else the key it comes from instead;
 * power_from likewise for power.NAME / transition.NAME.
 */
#define IL_STATE_NAMES_MAX 64
struct il_state_names {
	int n;
	struct il_state_name {
		char name[IL_NAME_LEN];
		const char *who;         /* the driver or routine that builds it */
		const char *exit_from;   /* NULL: exit.NAME; else "hlt_exit", ... */
		const char *power_from;  /* NULL: power.NAME / transition.NAME */
	} v[IL_STATE_NAMES_MAX];
};

/* Add a driver state whose power data is power.NAME / transition.NAME. */
void il_state_names_add(struct il_state_names *s, const char *name, const char *who,
			const char *exit_from);
/* Add one with both sources given. */
void il_state_names_add2(struct il_state_names *s, const char *name, const char *who,
			 const char *exit_from, const char *power_from);
const struct il_state_name *il_state_names_find(const struct il_state_names *s, const char *name);

#endif
