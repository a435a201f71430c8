// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/drivers/machine.c: boot order (default routine first, then intel_idle,
 * acpi_idle, haltpoll; pseries on powerpc), cpuidle.off=1, and the governor
 * the kernel runs (ratings menu 20, teo 19, ladder 10/25, haltpoll 9 on
 * KVM; cpuidle.governor= before the driver's preference), and the platform's
 * [firmware] power.NAME / transition.NAME applied to the built table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/drivers.h"
#include "idlelab/platform.h"
#include "ini_join.h"

#define KVM_FORCE "[platform]\nname = t\n[cpu]\narch = x86\nvendor = amd\nhypervisor = kvm\n" \
	"[kernel]\nrelease = 6.18\noption = cpuidle_haltpoll.force=1\n"
#define LPAR "[platform]\nname = t\n[cpu]\narch = powerpc\nvendor = ibm\nhypervisor = powervm\n" \
	"model = 0x80\n"
#define TABLE "[platform]\nname = t\n[cpu]\nvendor = intel\nmwait = yes\n[driver]\nname = x\n" \
	"governor = teo\n[state.0]\nname = POLL\nlatency = 0\nresidency = 0\nflags = POLLING\n" \
	"[state.1]\nname = C1\nlatency = 2\nresidency = 2\n"

static void build(const char *text, const char *release, const char *const *options,
		  struct il_machine_idle *m)
{
	struct il_platform p;
	struct il_err e;
	char buf[4096];
	ini_join(buf, sizeof(buf), text);
	if (il_platform_load_string(&p, buf, strlen(buf), "test", &e))
		fail_msg("platform: %s", e.msg);
	for (int i = 0; options && options[i]; i++) {
		char k[64];
		snprintf(k, sizeof(k), "%s", options[i]);
		char *eq = strchr(k, '=');
		*eq = '\0';
		assert_int_equal(il_platform_set_option(&p, k, eq + 1, NULL), 0);
	}
	assert_int_equal(il_machine_idle_build(&p, release, m, &e), 0);
}

/* Index of the first note starting with prefix, or -1. */
static int note_at(const struct il_machine_idle *m, const char *prefix)
{
	for (int i = 0; i < m->nnotes; i++)
		if (!strncmp(m->notes[i], prefix, strlen(prefix)))
			return i;
	return -1;
}

static bool has_note(const struct il_machine_idle *m, const char *needle)
{
	for (int i = 0; i < m->nnotes; i++)
		if (strstr(m->notes[i], needle))
			return true;
	return false;
}

static void x86_driver_order(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build(KVM_FORCE, NULL, NULL, &m);
	int intel = note_at(&m, "intel_idle"), acpi = note_at(&m, "acpi_idle"),
	    hp = note_at(&m, "haltpoll: loaded");
	assert_true(intel >= 0);
	assert_true(acpi > intel);
	assert_true(hp > acpi);
	assert_true(m.cpuidle);
	assert_string_equal(m.drv.name, "haltpoll");
	/* the routine was chosen before any driver: haltpoll's state 1 uses it */
	assert_int_equal(m.routine, IL_IDLE_ROUTINE_HLT);
	assert_int_equal(m.drv.states[1].entry, IL_ENTRY_HLT);
	/* no pseries probe on x86 */
	assert_int_equal(note_at(&m, "pseries"), -1);
}

static void first_registered_wins(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* a KVM guest that sees a known Intel model with MWAIT: intel_idle registers first */
	build("[platform]\nname = g\n[cpu]\narch = x86\nvendor = intel\nfamily = 6\n"
	      "model = 0x55\nhypervisor = kvm\nmwait = yes\ncpuid5_ecx = 3\ncpuid5_edx = 0x2020\n"
	      "[kernel]\noption = cpuidle_haltpoll.force=1\n", "6.18", NULL, &m);
	if (!m.cpuidle || strcmp(m.drv.name, "intel_idle"))
		skip(); /* intel_idle (another file) does not bind this guest */
	assert_true(has_note(&m, "haltpoll: not registered: intel_idle is already the cpuidle "
			     "driver (-EBUSY)"));
	assert_false(has_note(&m, "haltpoll: loaded"));
	/* intel_idle prefers no governor: menu, although the haltpoll governor is registered */
	assert_string_equal(m.governor, "menu");
}

static void powerpc_only_pseries(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build(LPAR, NULL, NULL, &m);
	assert_true(m.cpuidle);
	assert_string_equal(m.drv.name, "pseries_idle");
	assert_int_equal(note_at(&m, "intel_idle"), -1);
	assert_int_equal(note_at(&m, "acpi_idle"), -1);
	assert_int_equal(note_at(&m, "haltpoll"), -1);
	assert_string_equal(m.release, "7.1"); /* neither argument nor platform names one */
}

static void cpuidle_off(void **state)
{
	static const char *const off[] = { "cpuidle.off=1", NULL };
	struct il_machine_idle m;
	(void)state;
	build(KVM_FORCE, NULL, off, &m);
	assert_false(m.cpuidle);
	assert_true(has_note(&m, "cpuidle.off=1"));
	assert_int_equal(note_at(&m, "haltpoll"), -1); /* no driver was even tried */
	assert_int_equal(m.routine, IL_IDLE_ROUTINE_HLT);
	/* no driver, so no preference: menu is the best rated (haltpoll is 9) */
	assert_string_equal(m.governor, "menu");
	assert_true(has_note(&m, "unused"));
	static const char *const on[] = { "cpuidle.off=0", NULL };
	build(KVM_FORCE, NULL, on, &m);
	assert_true(m.cpuidle);
	/* an int parameter: any non-zero value disables, a non-number is refused */
	static const char *const two[] = { "cpuidle.off=2", NULL };
	build(KVM_FORCE, NULL, two, &m);
	assert_false(m.cpuidle);
	assert_true(has_note(&m, "cpuidle.off=2: cpuidle is disabled"));
	static const char *const yes[] = { "cpuidle.off=y", NULL };
	build(KVM_FORCE, NULL, yes, &m);
	assert_true(m.cpuidle);
	assert_true(has_note(&m, "cpuidle.off=y: not an integer"));
	static const char *const bare[] = { "cpuidle.off=", NULL };
	build(KVM_FORCE, NULL, bare, &m);
	assert_true(m.cpuidle);
	/* the explicit table is not registered either */
	build(TABLE, NULL, off, &m);
	assert_false(m.cpuidle);
}

static void release_choice(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build(KVM_FORCE, NULL, NULL, &m);
	assert_string_equal(m.release, "6.18"); /* the platform's */
	build(KVM_FORCE, "5.15", NULL, &m);
	assert_string_equal(m.release, "5.15");
	build(KVM_FORCE, "", NULL, &m);
	assert_string_equal(m.release, "6.18");
}

/* Releases outside include/idlelab/release.h's range are refused, not followed. */
static void release_out_of_range(void **state)
{
	static const char *const bad[] = { "2.6", "99.0", "5.3", "7.2", "6.20", "banana",
					   "5.15.120", "" };
	struct il_platform p;
	struct il_machine_idle m;
	struct il_err e;

	(void)state;
	assert_int_equal(il_platform_load_string(&p, KVM_FORCE, strlen(KVM_FORCE), "test", &e), 0);
	for (size_t i = 0; i + 1 < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(il_machine_idle_build(&p, bad[i], &m, &e), -EINVAL);
		assert_non_null(strstr(e.msg, "5.4 to 7.1"));
	}
	/* "" is no release: the platform's own */
	assert_int_equal(il_machine_idle_build(&p, "", &m, &e), 0);
	assert_string_equal(m.release, "6.18");
}

static void governor_driver_preference(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build(KVM_FORCE, NULL, NULL, &m);
	assert_string_equal(m.governor, "haltpoll");
	assert_true(has_note(&m, "preferred by the haltpoll driver"));
	/* nohz=off raises ladder to 25, but the driver's preference still switches */
	static const char *const nohz[] = { "nohz=off", NULL };
	build(KVM_FORCE, NULL, nohz, &m);
	assert_string_equal(m.governor, "haltpoll");
	/* explicit table with a preferred governor */
	build(TABLE, NULL, NULL, &m);
	assert_string_equal(m.governor, "teo");
}

static void governor_param_beats_preference(void **state)
{
	struct il_machine_idle m;
	(void)state;
	static const char *const teo[] = { "cpuidle.governor=teo", NULL };
	build(KVM_FORCE, NULL, teo, &m);
	assert_string_equal(m.governor, "teo");
	assert_true(has_note(&m, "preferred haltpoll is ignored"));
	static const char *const upper[] = { "cpuidle.governor=LADDER", NULL };
	build(KVM_FORCE, NULL, upper, &m);
	assert_string_equal(m.governor, "ladder");
	/* an unknown name still blocks the preference: the best rated runs */
	static const char *const bogus[] = { "cpuidle.governor=foo", NULL };
	build(KVM_FORCE, NULL, bogus, &m);
	assert_string_equal(m.governor, "menu");
	assert_true(has_note(&m, "not a registered governor"));
	/* an empty value is no parameter */
	static const char *const empty[] = { "cpuidle.governor=", NULL };
	build(KVM_FORCE, NULL, empty, &m);
	assert_string_equal(m.governor, "haltpoll");
}

static void governor_haltpoll_only_on_kvm(void **state)
{
	struct il_machine_idle m;
	(void)state;
	static const char *const hp[] = { "cpuidle.governor=haltpoll", NULL };
	build(LPAR, NULL, hp, &m);
	assert_string_equal(m.governor, "menu"); /* not registered outside KVM */
	build(KVM_FORCE, NULL, hp, &m);
	assert_string_equal(m.governor, "haltpoll");
}

static void governor_ratings(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build(LPAR, NULL, NULL, &m);
	assert_string_equal(m.governor, "menu");
	static const char *const nohz[] = { "nohz=off", NULL };
	build(LPAR, NULL, nohz, &m);
	assert_string_equal(m.governor, "ladder");
	assert_true(has_note(&m, "nohz=off"));
	static const char *const nohz_on[] = { "nohz=on", NULL };
	build(LPAR, NULL, nohz_on, &m);
	assert_string_equal(m.governor, "menu");
	assert_false(m.nohz_off);
	/* kstrtobool(): the first character decides, "0", "n", "false" are off too */
	static const char *const offs[] = { "nohz=0", "nohz=n", "nohz=false", "nohz=OFF" };
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		const char *o[] = { offs[i], NULL };
		build(LPAR, NULL, o, &m);
		assert_true(m.nohz_off);
		assert_string_equal(m.governor, "ladder");
	}
	/* not a boolean: refused, the tick's stop kept, said */
	static const char *const bad[] = { "nohz=xyz", NULL };
	build(LPAR, NULL, bad, &m);
	assert_false(m.nohz_off);
	assert_string_equal(m.governor, "menu");
	assert_true(has_note(&m, "nohz=xyz: not a boolean"));
}

static void idle_poll_with_driver(void **state)
{
	struct il_machine_idle m;
	(void)state;
	static const char *const poll[] = { "idle=poll", NULL };
	build(TABLE, NULL, poll, &m);
	assert_true(m.cpuidle);
	assert_true(m.force_poll);
	assert_true(has_note(&m, "never enters"));
	/* haltpoll refuses with idle=poll: no driver, the loop polls */
	build(KVM_FORCE, NULL, poll, &m);
	assert_false(m.cpuidle);
	assert_true(m.force_poll);
	assert_true(has_note(&m, "the idle loop polls"));
}

static void bad_idle_value_noted(void **state)
{
	struct il_machine_idle m;
	(void)state;
	static const char *const bad[] = { "idle=fast", NULL };
	build(KVM_FORCE, NULL, bad, &m);
	assert_true(has_note(&m, "malformed early option"));
	assert_true(m.cpuidle); /* no override: haltpoll loads */
}

static void other_arch(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build("[platform]\nname = t\n[cpu]\narch = arm64\n", NULL, NULL, &m);
	assert_false(m.cpuidle);
	assert_int_equal(m.routine, IL_IDLE_ROUTINE_NONE);
	assert_true(has_note(&m, "no idle driver is modelled"));
	assert_string_equal(il_idle_routine_name(IL_IDLE_ROUTINE_NONE), "none");
	assert_string_equal(il_idle_routine_name(IL_IDLE_ROUTINE_CEDE), "cede");
	assert_string_equal(il_idle_routine_name(IL_IDLE_ROUTINE_TDX_HALT), "tdx_halt");
}

/*
 * [firmware] power.NAME / transition.NAME reach the state the driver names
 * NAME (exact, case-sensitive match) and the default routine's state; an
 * explicit [state.N] table keeps its own figures; bad keys are refused.
 */
static void firmware_power_keys(void **state)
{
	struct il_machine_idle m;
	struct il_platform p;
	struct il_err e;
	(void)state;
	/* pseries dedicated: snooze + CEDE; the default routine's state is "cede" */
	build(LPAR "[firmware]\npower.CEDE = 0.25\ntransition.CEDE = 2e-6\npower.snooze = 3\n"
	      "power.cede = 0.5\n", NULL, NULL, &m);
	assert_true(m.cpuidle);
	assert_string_equal(m.drv.states[0].name, "snooze");
	assert_string_equal(m.drv.states[1].name, "CEDE");
	assert_true(m.drv.states[0].power_w == 3.0);
	assert_true(m.drv.states[0].transition_j == -1); /* only power given */
	assert_true(m.drv.states[1].power_w == 0.25);
	assert_true(m.drv.states[1].transition_j == 2e-6);
	assert_string_equal(m.default_state.name, "cede");
	assert_true(m.default_state.power_w == 0.5);
	assert_true(m.default_state.transition_j == -1);
	/* without the keys every figure stays unknown */
	build(LPAR, NULL, NULL, &m);
	assert_true(m.drv.states[1].power_w == -1);
	assert_true(m.default_state.power_w == -1);
	/* a key repeated for the same state is refused with both lines (issue 9, D11) */
	static const char rep[] = LPAR "[firmware]\npower.CEDE = 1\npower.CEDE = 2\n";
	assert_int_equal(il_platform_load_string(&p, rep, strlen(rep), "t.ini", &e), -EINVAL);
	assert_int_equal(e.line, 10);
	assert_non_null(strstr(e.msg, "duplicate key 'power.CEDE' (first at line 9)"));
	/* an explicit table keeps its own figures */
	build(TABLE "power_w = 0.75\n", NULL, NULL, &m);
	assert_true(m.drv.states[1].power_w == 0.75);
	/*
	 * a key for a state the platform cannot have, or one that takes its
	 * figures elsewhere, would be ignored: refused with its line (issue 9)
	 */
	static const struct { const char *text; int line; const char *why; } unused[] = {
		{ LPAR "[firmware]\npower.C6 = 0.1\n", 9,
		  "power.C6: no state of this platform is named 'C6'" },
		{ TABLE "power_w = 0.75\n[firmware]\npower.C1 = 9\n", 20,
		  "power.C1: the explicit [state.N] table's state C1 takes its power from "
		  "power_w and transition_j of its [state.N]" },
	};
	for (size_t i = 0; i < sizeof(unused) / sizeof(unused[0]); i++) {
		assert_int_equal(il_platform_load_string(&p, unused[i].text, strlen(unused[i].text),
							 "t.ini", &e), 0);
		assert_int_equal(il_machine_idle_build(&p, NULL, &m, &e), -EINVAL);
		if (!strstr(e.msg, unused[i].why) || e.line != unused[i].line ||
		    strcmp(e.file, "t.ini"))
			fail_msg("case %zu: %s:%d: '%s'", i, e.file, e.line, e.msg);
	}
	/* refusals name the line */
	static const char *const bad[] = {
		"[platform]\nname = t\n[firmware]\npower. = 1\n",
		"[platform]\nname = t\n[firmware]\ntransition. = 1\n",
		"[platform]\nname = t\n[firmware]\npower.C6 = -1\n",
		"[platform]\nname = t\n[firmware]\ntransition.C6 = lots\n",
		"[platform]\nname = t\n[firmware]\npower.ABCDEFGHIJKLMNOP = 1\n",
	};
	static const char *const why[] = { "missing state name", "missing state name",
					   "negative value", "is not a number", "longer than" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_not_equal(il_platform_load_string(&p, bad[i], strlen(bad[i]), "t.ini",
							     &e), 0);
		if (!strstr(e.msg, why[i]) || e.line != 4 || strcmp(e.file, "t.ini"))
			fail_msg("case %zu: '%s'", i, e.msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(x86_driver_order),
		cmocka_unit_test(first_registered_wins),
		cmocka_unit_test(powerpc_only_pseries),
		cmocka_unit_test(cpuidle_off),
		cmocka_unit_test(release_choice),
		cmocka_unit_test(release_out_of_range),
		cmocka_unit_test(governor_driver_preference),
		cmocka_unit_test(governor_param_beats_preference),
		cmocka_unit_test(governor_haltpoll_only_on_kvm),
		cmocka_unit_test(governor_ratings),
		cmocka_unit_test(idle_poll_with_driver),
		cmocka_unit_test(bad_idle_value_noted),
		cmocka_unit_test(other_arch),
		cmocka_unit_test(firmware_power_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
