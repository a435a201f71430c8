// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 default idle routine (src/drivers/x86_idle.c): every branch of
 * select_idle_routine() / prefer_mwait_c1_over_halt() in the three release
 * forms (< 6.0 Intel-only, 6.0..6.8 CPUID-based, >= 6.9 after the 2024
 * rework). Expected routines are derived by hand from
 * arch/x86/kernel/process.c at 005f141e5d5e, aebef63cf7ff/8bcedb4ce047 and
 * cb81deefb59d/f3d7eab7be87.
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

/* An Intel CPU with MWAIT, extensions and 2 C1 sub-states, no _CST. */
#define INTEL_MWAIT "[platform]\nname = t\n[cpu]\narch = x86\nvendor = intel\nfamily = 6\n" \
	"model = 0x55\nmwait = yes\ncpuid5_ecx = 3\ncpuid5_edx = 0x2220\n" \
	"[firmware]\nhlt_exit = 2000\nmwait_exit = 1500\npoll_exit = 100\n"
/* An AMD Zen 3: MWAIT, extensions, 1 C1 sub-state. */
#define AMD_ZEN3 "[platform]\nname = t\n[cpu]\narch = x86\nvendor = amd\nfamily = 25\n" \
	"model = 1\nmwait = yes\ncpuid5_ecx = 3\ncpuid5_edx = 0x11\n" \
	"[firmware]\nhlt_exit = 2000\nmwait_exit = 1500\npoll_exit = 100\n"

static void load(struct il_platform *p, const char *text, const char *extra)
{
	char cat[2048], buf[2048];
	struct il_err e;

	snprintf(cat, sizeof(cat), "%s%s", text, extra ? extra : "");
	ini_join(buf, sizeof(buf), cat);
	int r = il_platform_load_string(p, buf, strlen(buf), "test", &e);
	if (r)
		fail_msg("platform: %s", e.msg);
}

/* The routine chosen for text+extra under release, with option idle=VALUE if given. */
static enum il_idle_routine routine(const char *text, const char *extra, const char *idle,
				    const char *release, struct il_machine_idle *m)
{
	struct il_platform p;

	load(&p, text, extra);
	if (idle)
		assert_int_equal(il_platform_set_option(&p, "idle", idle, NULL), 0);
	memset(m, 0, sizeof(*m));
	snprintf(m->release, sizeof(m->release), "%s", release);
	il_x86_select_idle_routine(&p, m);
	return m->routine;
}

static bool has_note(const struct il_machine_idle *m, const char *needle)
{
	for (int i = 0; i < m->nnotes; i++)
		if (strstr(m->notes[i], needle))
			return true;
	return false;
}

static void idle_poll_every_release(void **state)
{
	static const char *const rels[] = { "5.4", "6.1", "6.18" };
	struct il_machine_idle m;
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(routine(INTEL_MWAIT, NULL, "poll", rels[i], &m), IL_IDLE_ROUTINE_POLL);
		assert_true(m.force_poll);
		assert_int_equal(m.default_state.entry, IL_ENTRY_POLL);
		assert_true(m.default_state.flags & IL_FLAG_POLLING);
		assert_int_equal((int)m.default_state.exit_dist.a, 100); /* poll_exit */
		assert_false(has_note(&m, "HT enabled")); /* 1 thread per core */
	}
	routine(INTEL_MWAIT, "[topology]\nthreads_per_core = 2\n", "poll", "6.18", &m);
	assert_true(has_note(&m, "polling idle and HT enabled"));
}

static void idle_halt(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* current: any override rules MWAIT out -> HLT */
	assert_int_equal(routine(INTEL_MWAIT, NULL, "halt", "6.18", &m), IL_IDLE_ROUTINE_HLT);
	assert_false(m.force_poll);
	assert_int_equal(m.default_state.entry, IL_ENTRY_HLT);
	assert_int_equal((int)m.default_state.exit_dist.a, 2000);
	assert_non_null(strstr(m.routine_why, "idle=halt"));
	/* 6.0..6.8 and older: idle_setup() installs default_idle itself */
	assert_int_equal(routine(INTEL_MWAIT, NULL, "halt", "6.8", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "idle_setup"));
	assert_int_equal(routine(INTEL_MWAIT, NULL, "halt", "5.10", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "idle_setup"));
}

static void idle_halt_tdx(void **state)
{
	struct il_machine_idle m;
	(void)state;
	const char *tdx = "[platform]\nname = t\n[cpu]\nvendor = intel\nmwait = yes\n"
			  "cpuid5_ecx = 3\ncpuid5_edx = 0x20\ntdx_guest = yes\n";
	assert_int_equal(routine(tdx, NULL, "halt", "6.9", &m), IL_IDLE_ROUTINE_TDX_HALT);
	assert_int_equal(m.default_state.entry, IL_ENTRY_TDX_HALT);
	assert_int_equal(routine(tdx, NULL, "halt", "6.8", &m), IL_IDLE_ROUTINE_HLT);
	/* no override: MWAIT wins over TDX */
	assert_int_equal(routine(tdx, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_MWAIT_C1);
}

static void idle_nomwait(void **state)
{
	struct il_machine_idle m;
	(void)state;
	assert_int_equal(routine(INTEL_MWAIT, NULL, "nomwait", "6.18", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "idle=nomwait"));
	assert_int_equal(routine(INTEL_MWAIT, NULL, "nomwait", "6.0", &m), IL_IDLE_ROUTINE_HLT);
	/* before 8bcedb4ce047 the Intel-only test ignored idle=nomwait */
	assert_int_equal(routine(INTEL_MWAIT, NULL, "nomwait", "5.19", &m),
			 IL_IDLE_ROUTINE_MWAIT_C1);
	assert_non_null(strstr(m.routine_why, "not honoured"));
}

static void idle_bogus_is_no_override(void **state)
{
	struct il_machine_idle m;
	(void)state;
	assert_int_equal(routine(INTEL_MWAIT, NULL, "mwait", "6.18", &m), IL_IDLE_ROUTINE_MWAIT_C1);
	assert_false(m.force_poll);
}

static void no_mwait(void **state)
{
	struct il_machine_idle m;
	(void)state;
	const char *nm = "[platform]\nname = t\n[cpu]\nvendor = intel\nmwait = no\n"
			 "cpuid5_ecx = 3\ncpuid5_edx = 0x20\n";
	assert_int_equal(routine(nm, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "no MWAIT"));
	assert_int_equal(routine(nm, NULL, NULL, "6.5", &m), IL_IDLE_ROUTINE_HLT);
	assert_int_equal(routine(nm, NULL, NULL, "5.15", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "no MWAIT"));
}

static void bug_monitor(void **state)
{
	struct il_machine_idle m;
	(void)state;
	const char *bm = "[platform]\nname = t\n[cpu]\nvendor = intel\nmwait = yes\n"
			 "cpuid5_ecx = 3\ncpuid5_edx = 0x20\nbug_monitor = yes\n";
	assert_int_equal(routine(bm, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "X86_BUG_MONITOR"));
	assert_int_equal(routine(bm, NULL, NULL, "6.3", &m), IL_IDLE_ROUTINE_HLT);
	assert_int_equal(routine(bm, NULL, NULL, "5.15", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "X86_BUG_MONITOR"));
}

static void amd_c1e_bug(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* an MWAIT-capable CPU with the APIC-C1E erratum: HLT with broadcast in every form */
	const char *e4 = "[platform]\nname = t\n[cpu]\nvendor = amd\nfamily = 16\nmwait = yes\n"
			 "cpuid5_ecx = 3\ncpuid5_edx = 0x11\nbug_amd_apic_c1e = yes\n";
	assert_int_equal(routine(e4, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "X86_BUG_AMD_APIC_C1E"));
	assert_true(m.default_state.flags & IL_FLAG_TIMER_STOP);
	assert_int_equal(routine(e4, NULL, NULL, "6.8", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "E400"));
	assert_true(m.default_state.flags & IL_FLAG_TIMER_STOP);
	assert_int_equal(routine(e4, NULL, NULL, "5.4", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "E400"));
	/* without the bug the same CPU gets MWAIT on 6.0+ and no broadcast */
	assert_int_equal(routine(AMD_ZEN3, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_MWAIT_C1);
	assert_false(m.default_state.flags & IL_FLAG_TIMER_STOP);
}

static void ecx_extensions_clear(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* no extensions enumerated: MWAIT(0,0) is safe whatever EDX says */
	const char *ne = "[platform]\nname = t\n[cpu]\nvendor = amd\nmwait = yes\n"
			 "cpuid5_ecx = 2\ncpuid5_edx = 0\n";
	assert_int_equal(routine(ne, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_MWAIT_C1);
	assert_non_null(strstr(m.routine_why, "ECX bit 0 clear"));
	assert_int_equal(m.default_state.entry, IL_ENTRY_MWAIT);
	assert_int_equal((int)m.default_state.exit_dist.a, 0); /* no mwait_exit given */
	assert_int_equal(routine(ne, NULL, NULL, "6.1", &m), IL_IDLE_ROUTINE_MWAIT_C1);
	/* the old form is Intel-only */
	assert_int_equal(routine(ne, NULL, NULL, "5.18", &m), IL_IDLE_ROUTINE_HLT);
}

static void c1_substates_zero(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* extensions present, C0 sub-states only (EDX[7:4] = 0): HLT */
	const char *z = "[platform]\nname = t\n[cpu]\nvendor = intel\nmwait = yes\n"
			"cpuid5_ecx = 1\ncpuid5_edx = 0x0f01\n";
	assert_int_equal(routine(z, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "no C1 sub-state"));
	assert_int_equal(routine(z, NULL, NULL, "6.2", &m), IL_IDLE_ROUTINE_HLT);
	/* the old Intel-only form did not look at CPUID leaf 5 */
	assert_int_equal(routine(z, NULL, NULL, "5.15", &m), IL_IDLE_ROUTINE_MWAIT_C1);
	/* one C1 sub-state is enough */
	assert_int_equal(routine(INTEL_MWAIT, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_MWAIT_C1);
	assert_non_null(strstr(m.routine_why, "2 C1 sub-state"));
	assert_int_equal((int)m.default_state.exit_dist.a, 1500); /* mwait_exit */
}

static void tdx_guest(void **state)
{
	struct il_machine_idle m;
	(void)state;
	const char *tdx = "[platform]\nname = t\n[cpu]\nvendor = intel\nhypervisor = kvm\n"
			  "mwait = no\ntdx_guest = yes\n";
	assert_int_equal(routine(tdx, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_TDX_HALT);
	assert_non_null(strstr(m.routine_why, "TDX"));
	assert_int_equal(routine(tdx, NULL, NULL, "5.19", &m), IL_IDLE_ROUTINE_TDX_HALT);
	/* TDX guest support landed in 5.19 */
	assert_int_equal(routine(tdx, NULL, NULL, "5.18", &m), IL_IDLE_ROUTINE_HLT);
	/* idle=nomwait on 6.0..6.8 rules MWAIT out, then TDX */
	assert_int_equal(routine(tdx, NULL, "nomwait", "6.5", &m), IL_IDLE_ROUTINE_TDX_HALT);
}

static void old_preset_amd_hlt(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* Zen 3: HLT whatever MWAIT offers before aebef63cf7ff, MWAIT C1 from 6.0 */
	assert_int_equal(routine(AMD_ZEN3, NULL, NULL, "5.15", &m), IL_IDLE_ROUTINE_HLT);
	assert_non_null(strstr(m.routine_why, "only on Intel"));
	assert_int_equal(m.default_state.entry, IL_ENTRY_HLT);
	assert_int_equal((int)m.default_state.exit_dist.a, 2000);
	assert_int_equal(routine(AMD_ZEN3, NULL, NULL, "5.19.17", &m), IL_IDLE_ROUTINE_HLT);
	assert_int_equal(routine(AMD_ZEN3, NULL, NULL, "6.0", &m), IL_IDLE_ROUTINE_MWAIT_C1);
	assert_int_equal(routine(AMD_ZEN3, NULL, NULL, "6.18", &m), IL_IDLE_ROUTINE_MWAIT_C1);
	/* Hygon is not Intel either */
	const char *hy = "[platform]\nname = t\n[cpu]\nvendor = hygon\nmwait = yes\n"
			 "cpuid5_ecx = 3\ncpuid5_edx = 0x11\n";
	assert_int_equal(routine(hy, NULL, NULL, "5.10", &m), IL_IDLE_ROUTINE_HLT);
	/* Intel with MWAIT: mwait_idle in the old form too */
	assert_int_equal(routine(INTEL_MWAIT, NULL, NULL, "5.4", &m), IL_IDLE_ROUTINE_MWAIT_C1);
}

static void machine_uses_routine_without_driver(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	struct il_err e;
	(void)state;
	load(&p, AMD_ZEN3, "c_states_disabled = yes\n");
	assert_int_equal(il_machine_idle_build(&p, "6.18", &m, &e), 0);
	assert_false(m.cpuidle);
	assert_int_equal(m.routine, IL_IDLE_ROUTINE_MWAIT_C1);
	assert_string_equal(m.default_state.name, "mwait-c1");
	assert_int_equal(il_machine_idle_build(&p, "5.15", &m, &e), 0);
	assert_int_equal(m.routine, IL_IDLE_ROUTINE_HLT);
	assert_string_equal(m.default_state.name, "hlt");
	assert_string_equal(il_idle_routine_name(m.routine), "default_idle (hlt)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(idle_poll_every_release),
		cmocka_unit_test(idle_halt),
		cmocka_unit_test(idle_halt_tdx),
		cmocka_unit_test(idle_nomwait),
		cmocka_unit_test(idle_bogus_is_no_override),
		cmocka_unit_test(no_mwait),
		cmocka_unit_test(bug_monitor),
		cmocka_unit_test(amd_c1e_bug),
		cmocka_unit_test(ecx_extensions_clear),
		cmocka_unit_test(c1_substates_zero),
		cmocka_unit_test(tdx_guest),
		cmocka_unit_test(old_preset_amd_hlt),
		cmocka_unit_test(machine_uses_routine_without_driver),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
