// SPDX-License-Identifier: GPL-2.0-only
/*
 * The boot and module parameters idlelab models (include/idlelab/platform.h
 * il_boot_options): every name src/drivers/ reads with il_platform_option()
 * or il_option_bool(), and the haltpoll governor's module parameters that
 * src/sim/run.c hands to il_gov_set_param(). A platform file's option key,
 * platform show --option and sim --set are refused for any other name, so
 * that a misspelt option cannot be ignored silently.
 * tests/cli/test_platform_checks.sh checks this list against the sources.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/platform.h"

const struct il_boot_option il_boot_options[] = {
	{ "idle", "poll|halt|nomwait",
	  "x86 boot_option_idle_override (idle_setup()): select_idle_routine(), intel_idle, "
	  "acpi_idle and haltpoll read it" },
	{ "nohz", "on|off",
	  "nohz=off (kstrtobool: 0, n, false too): tick_nohz_enabled false, no idle path stops "
	  "the tick, ladder registers with rating 25 (init_ladder())" },
	{ "cpuidle.off", "N",
	  "cpuidle core parameter: any non-zero integer makes every driver registration fail" },
	{ "cpuidle.governor", "NAME",
	  "the governor to switch to when it registers (cpuidle_register_governor())" },
	{ "cpuidle_haltpoll.force", "bool",
	  "cpuidle-haltpoll loads without KVM_HINTS_REALTIME (kstrtobool)" },
	{ "haltpoll.guest_halt_poll_ns", "N", "haltpoll governor: the poll limit ceiling, ns" },
	{ "haltpoll.guest_halt_poll_shrink", "N", "haltpoll governor: shrink divisor" },
	{ "haltpoll.guest_halt_poll_grow", "N", "haltpoll governor: grow factor" },
	{ "haltpoll.guest_halt_poll_grow_start", "N", "haltpoll governor: first non-zero limit, ns" },
	{ "haltpoll.guest_halt_poll_allow_shrink", "bool", "haltpoll governor: shrink at all" },
	{ "intel_idle.max_cstate", "N", "intel_idle: states beyond it are not used; 0 disables it" },
	{ "intel_idle.states_off", "MASK",
	  "intel_idle (v5.6+): states whose index bit is set are off by default" },
	{ "intel_idle.no_acpi", "bool", "intel_idle (v5.6+): never use _CST" },
	{ "intel_idle.use_acpi", "bool", "intel_idle (v5.6+): cross-check with _CST on any model" },
	{ "intel_idle.preferred_cstates", "MASK",
	  "intel_idle (v5.18..6.19): Alder Lake: bit 1 without bit 2 registers C1 instead of C1E; "
	  "Sapphire Rapids (5.18, 5.19): bit 2 without bit 1 registers C1E instead of C1" },
	{ "intel_idle.no_native", "bool",
	  "intel_idle (v6.15+): ignore the built-in table, build the states from _CST" },
	{ "intel_idle.table", "NAME:LAT:RES,...",
	  "intel_idle (v7.0+): set states' exit latency and target residency, us (empty: keep)" },
	{ "processor.max_cstate", "N", "acpi_idle: deepest _CST/FADT slot used (0 acts as 1)" },
	{ "processor.latency_factor", "N", "acpi_idle: target residency = latency x this (2)" },
	{ "processor.nocst", "bool", "acpi_idle: ignore _CST, use the FADT" },
	{ "processor.bm_check_disable", "bool", "acpi_idle: no bus-master check before C3" },
	{ "lapic_timer_c2_ok", "",
	  "x86 boot flag: the local APIC timer keeps running in C2 (acpi_idle TIMER_STOP)" },
	{ "powersave", "off", "pseries: powersave=off, no cpuidle driver (cpuidle_disable)" },
	{ "firmware.cst_claim", "yes|no",
	  "idlelab: overrides [firmware] cst_claim, whether acpi_processor_claim_cst_control() "
	  "succeeds" },
};

const int il_boot_option_count = (int)(sizeof(il_boot_options) / sizeof(il_boot_options[0]));

const struct il_boot_option *il_boot_option_find(const char *name)
{
	for (int i = 0; i < il_boot_option_count; i++)
		if (!strcmp(il_boot_options[i].name, name))
			return &il_boot_options[i];
	return NULL;
}

/* Optimal string alignment distance (edits, transpositions counted as one). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[3][64];
	size_t *prev2 = d[0], *prev = d[1], *cur = d[2];

	if (la >= 63 || lb >= 63)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

int il_boot_option_check(const char *name, struct il_err *err)
{
	const char *dot = strchr(name, '.');
	const char *best = NULL;
	size_t best_d = 3; /* suggest within two edits */
	char known[320] = "";
	size_t n = 0;

	if (il_boot_option_find(name))
		return 0;
	for (int i = 0; i < il_boot_option_count; i++) {
		const char *o = il_boot_options[i].name;
		size_t d = edit_distance(name, o);
		/* a name cut short ("haltpoll.guest_halt_poll") counts as near */
		if (d >= best_d && dot && !strncmp(o, name, strlen(name)))
			d = 2;
		if (d < best_d) {
			best_d = d;
			best = il_boot_options[i].name;
		}
	}
	/* the parameters of the same module, else every name */
	for (int i = 0; dot && i < il_boot_option_count; i++) {
		const char *o = il_boot_options[i].name;
		if (strncmp(o, name, (size_t)(dot - name) + 1))
			continue;
		n += (size_t)snprintf(known + n, n < sizeof(known) ? sizeof(known) - n : 0, "%s%s",
				      n ? ", " : "", o);
	}
	if (!n) {
		/* no such module: the bare names and the modules (prefix.*) */
		for (int i = 0; i < il_boot_option_count; i++) {
			const char *o = il_boot_options[i].name, *od = strchr(o, '.');
			int len = od ? (int)(od - o) : (int)strlen(o);
			bool seen = false;
			for (int j = 0; od && j < i; j++)
				seen |= !strncmp(il_boot_options[j].name, o, (size_t)len + 1);
			if (seen)
				continue;
			n += (size_t)snprintf(known + n, n < sizeof(known) ? sizeof(known) - n : 0,
					      "%s%.*s%s", n ? ", " : "", len, o, od ? ".*" : "");
		}
	}
	if (best)
		return il_err_set(err, EINVAL, "unknown boot/module option '%s' (did you mean '%s'? "
				  "known: %s)", name, best, known);
	return il_err_set(err, EINVAL, "unknown boot/module option '%s' (known: %s)", name, known);
}
