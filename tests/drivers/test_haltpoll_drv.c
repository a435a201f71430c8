// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cpuidle-haltpoll driver (src/drivers/haltpoll.c): load conditions of
 * haltpoll_init() (no idle= override, kvm_para_available(), and
 * KVM_HINTS_REALTIME or force), the table, and the state-1 entry method
 * before and after 716ff71ae234 (v6.3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/drivers.h"
#include "idlelab/platform.h"
#include "ini_join.h"
#include "../../src/drivers/drivers_internal.h"

/* A KVM guest without MWAIT and without the realtime hint. */
#define KVM "[platform]\nname = t\n[topology]\ncores_per_package = 2\n[cpu]\narch = x86\n" \
	"vendor = amd\nhypervisor = kvm\nmwait = no\n" \
	"[firmware]\nhlt_exit = 27000\nmwait_exit = 9000\npoll_exit = 94\n"

static void load(struct il_platform *p, const char *text)
{
	struct il_err e;
	char buf[4096];
	ini_join(buf, sizeof(buf), text);
	int r = il_platform_load_string(p, buf, strlen(buf), "test", &e);
	if (r)
		fail_msg("platform: %s", e.msg);
}

static void opt(struct il_platform *p, const char *k, const char *v)
{
	assert_int_equal(il_platform_set_option(p, k, v, NULL), 0);
}

/* il_haltpoll_probe() after the boot-time routine choice, as machine.c runs it. */
static int probe(const struct il_platform *p, const char *release, struct il_machine_idle *m)
{
	struct il_err e;
	memset(m, 0, sizeof(*m));
	snprintf(m->release, sizeof(m->release), "%s", release);
	if (p->arch == IL_ARCH_X86)
		il_x86_select_idle_routine(p, m);
	return il_haltpoll_probe(p, m, &e);
}

static bool has_note(const struct il_machine_idle *m, const char *needle)
{
	for (int i = 0; i < m->nnotes; i++)
		if (strstr(m->notes[i], needle))
			return true;
	return false;
}

static void loads_with_force(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	(void)state;
	load(&p, KVM);
	opt(&p, "cpuidle_haltpoll.force", "1");
	assert_int_equal(probe(&p, "6.18", &m), 0);
	assert_true(m.cpuidle);
	assert_string_equal(m.drv.name, "haltpoll");
	assert_string_equal(m.drv.governor, "haltpoll");
	assert_int_equal(m.drv.state_count, 2);
	assert_int_equal(m.drv.safe_state_index, 0);
	const struct il_state *s0 = &m.drv.states[0], *s1 = &m.drv.states[1];
	assert_string_equal(s0->name, "POLL");
	assert_string_equal(s0->desc, "CPUIDLE CORE POLL IDLE");
	assert_int_equal(s0->flags, IL_FLAG_POLLING);
	assert_int_equal(s0->exit_latency_ns, 0);
	assert_int_equal(s0->target_residency_ns, 0);
	assert_int_equal(s0->power_usage, -1);
	assert_int_equal(s0->entry, IL_ENTRY_POLL);
	assert_int_equal((int)s0->exit_dist.a, 94);
	assert_string_equal(s1->name, "haltpoll idle");
	assert_string_equal(s1->desc, "default architecture idle");
	assert_int_equal(s1->flags, 0);
	assert_int_equal(s1->exit_latency, 1);
	assert_int_equal(s1->target_residency, 1);
	assert_int_equal(s1->exit_latency_ns, 1000);
	assert_int_equal(s1->target_residency_ns, 1000);
	assert_int_equal(s1->power_usage, -1);
	assert_int_equal(s1->entry, IL_ENTRY_HLT); /* the guest has no MWAIT */
	assert_int_equal((int)s1->exit_dist.a, 27000);
	assert_false(m.drv.bctimer);
	assert_true(has_note(&m, "cpuidle_haltpoll.force=1"));
}

/*
 * The force parameter came with "cpuidle-haltpoll: allow force loading on
 * hosts without the REALTIME hint" (Maciej S. Szmigiero, pm-5.7-rc1
 * pull): haltpoll_want() = KVM_HINTS_REALTIME || force. Before v5.7 the
 * driver has no such parameter (the kernel ignores an unknown
 * cpuidle_haltpoll.force=) and loads only with the hint.
 */
static void force_from_5_7(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	(void)state;
	load(&p, KVM);
	opt(&p, "cpuidle_haltpoll.force", "1");
	assert_int_equal(probe(&p, "5.4", &m), 1);
	assert_true(has_note(&m, "no force parameter before 5.7"));
	assert_int_equal(probe(&p, "5.6", &m), 1);
	assert_int_equal(probe(&p, "5.7", &m), 0);
	assert_true(has_note(&m, "cpuidle_haltpoll.force=1"));
	/* the hint alone loads it in every release */
	load(&p, KVM "[cpu]\nkvm_hints_realtime = yes\n");
	assert_int_equal(probe(&p, "5.4", &m), 0);
	assert_true(has_note(&m, "KVM_HINTS_REALTIME"));
}

static void loads_with_realtime_hint(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	(void)state;
	load(&p, KVM "[cpu]\nkvm_hints_realtime = yes\n");
	assert_int_equal(probe(&p, "6.18", &m), 0);
	assert_true(has_note(&m, "KVM_HINTS_REALTIME"));
	/* force=0 does not matter when the hint is there */
	opt(&p, "cpuidle_haltpoll.force", "0");
	assert_int_equal(probe(&p, "6.18", &m), 0);
}

static void refused_without_hint_or_force(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	(void)state;
	load(&p, KVM);
	assert_int_equal(probe(&p, "6.18", &m), 1);
	assert_false(m.cpuidle);
	assert_true(has_note(&m, "no KVM_HINTS_REALTIME"));
	opt(&p, "cpuidle_haltpoll.force", "N");
	assert_int_equal(probe(&p, "6.18", &m), 1);
	opt(&p, "cpuidle_haltpoll.force", "off");
	assert_int_equal(probe(&p, "6.18", &m), 1);
}

static void force_values_as_kstrtobool(void **state)
{
	static const char *const yes[] = { "1", "y", "Y", "yes", "t", "True", "on", "ON", "" };
	struct il_platform p;
	struct il_machine_idle m;
	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		load(&p, KVM);
		opt(&p, "cpuidle_haltpoll.force", yes[i]);
		assert_int_equal(probe(&p, "6.18", &m), 0);
	}
	/* a value kstrtobool refuses leaves force=N and is said */
	load(&p, KVM);
	opt(&p, "cpuidle_haltpoll.force", "maybe");
	assert_int_equal(probe(&p, "6.18", &m), 1);
	assert_true(has_note(&m, "not a boolean"));
	load(&p, KVM);
	opt(&p, "cpuidle_haltpoll.force", "o");
	assert_int_equal(probe(&p, "6.18", &m), 1);
	load(&p, KVM);
	opt(&p, "cpuidle_haltpoll.force", "false");
	assert_int_equal(probe(&p, "6.18", &m), 1);
	assert_false(has_note(&m, "not a boolean"));
}

/*
 * "cpuidle: haltpoll: Take 'idle=' override into account" (Zhenzhong Duan)
 * came in the pm-5.4-rc5 pull (24 Oct 2019), so v5.4 has it: every release
 * idlelab knows refuses the driver with an idle= override.
 */
static void refused_with_any_idle_override(void **state)
{
	static const char *const ov[] = { "halt", "poll", "nomwait" };
	static const char *const rel[] = { "5.4", "6.18" };
	struct il_platform p;
	struct il_machine_idle m;
	(void)state;
	for (size_t i = 0; i < 3; i++)
		for (size_t r = 0; r < 2; r++) {
			load(&p, KVM "[cpu]\nkvm_hints_realtime = yes\n");
			opt(&p, "idle", ov[i]);
			assert_int_equal(probe(&p, rel[r], &m), 1);
			assert_true(has_note(&m, "idle="));
		}
	/* an idle= value the kernel refuses is no override: the driver loads */
	load(&p, KVM "[cpu]\nkvm_hints_realtime = yes\n");
	opt(&p, "idle", "mwait");
	assert_int_equal(probe(&p, "6.18", &m), 0);
}

static void refused_outside_kvm(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	(void)state;
	load(&p, "[platform]\nname = t\n[cpu]\nvendor = intel\nhypervisor = no\n");
	opt(&p, "cpuidle_haltpoll.force", "1");
	assert_int_equal(probe(&p, "6.18", &m), 1);
	assert_true(has_note(&m, "not a KVM guest"));
	load(&p, "[platform]\nname = t\n[cpu]\nvendor = intel\nhypervisor = xen\n");
	opt(&p, "cpuidle_haltpoll.force", "1");
	assert_int_equal(probe(&p, "6.18", &m), 1);
	load(&p, "[platform]\nname = t\n[cpu]\narch = powerpc\nhypervisor = kvm\n");
	opt(&p, "cpuidle_haltpoll.force", "1");
	assert_int_equal(probe(&p, "6.18", &m), 1);
	assert_true(has_note(&m, "x86"));
}

static void state1_entry_follows_release(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	(void)state;
	/* a guest that sees MWAIT with a C1 sub-state: the default routine is MWAIT C1 */
	load(&p, KVM "[cpu]\nmwait = yes\ncpuid5_ecx = 3\ncpuid5_edx = 0x11\n");
	opt(&p, "cpuidle_haltpoll.force", "1");
	assert_int_equal(probe(&p, "6.3", &m), 0);
	assert_int_equal(m.routine, IL_IDLE_ROUTINE_MWAIT_C1);
	assert_int_equal(m.drv.states[1].entry, IL_ENTRY_MWAIT);
	assert_int_equal((int)m.drv.states[1].exit_dist.a, 9000);
	/* before 716ff71ae234 the driver called default_idle(): HLT */
	assert_int_equal(probe(&p, "6.2", &m), 0);
	assert_int_equal(m.drv.states[1].entry, IL_ENTRY_HLT);
	assert_int_equal((int)m.drv.states[1].exit_dist.a, 27000);
	/* a TDX guest enters tdx_safe_halt through arch_cpu_idle() */
	load(&p, KVM "[cpu]\ntdx_guest = yes\n");
	opt(&p, "cpuidle_haltpoll.force", "1");
	assert_int_equal(probe(&p, "6.18", &m), 0);
	assert_int_equal(m.drv.states[1].entry, IL_ENTRY_TDX_HALT);
}

static void builtin_kvm_haltpoll(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	struct il_err e;
	(void)state;
	assert_int_equal(il_platform_load(&p, "kvm-haltpoll", &e), 0);
	assert_false(p.has_table); /* derived, not typed in */
	assert_int_equal(il_machine_idle_build(&p, NULL, &m, &e), 0);
	assert_true(m.cpuidle);
	assert_string_equal(m.release, "6.18");
	assert_string_equal(m.drv.name, "haltpoll");
	assert_string_equal(m.governor, "haltpoll");
	assert_string_equal(m.drv.states[1].name, "haltpoll idle");
	/* the same guest booted with idle=halt: no driver, HLT */
	assert_int_equal(il_platform_set_option(&p, "idle", "halt", &e), 0);
	assert_int_equal(il_machine_idle_build(&p, NULL, &m, &e), 0);
	assert_false(m.cpuidle);
	assert_int_equal(m.routine, IL_IDLE_ROUTINE_HLT);
	assert_string_equal(m.default_state.name, "hlt");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads_with_force),
		cmocka_unit_test(loads_with_realtime_hint),
		cmocka_unit_test(force_from_5_7),
		cmocka_unit_test(refused_without_hint_or_force),
		cmocka_unit_test(force_values_as_kstrtobool),
		cmocka_unit_test(refused_with_any_idle_override),
		cmocka_unit_test(refused_outside_kvm),
		cmocka_unit_test(state1_entry_follows_release),
		cmocka_unit_test(builtin_kvm_haltpoll),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
