// SPDX-License-Identifier: GPL-2.0-only
/*
 * The x86 default idle routine: select_idle_routine() and
 * prefer_mwait_c1_over_halt() of arch/x86/kernel/process.c, the routine
 * the idle loop calls through arch_cpu_idle() when no cpuidle driver runs
 * (and that the haltpoll driver's second state calls since v6.3).
 *
 * Three forms, chosen by kernel release:
 *  - before v6.0 (as at torvalds 005f141e5d5e, v5.9): MWAIT C1 only on
 *    Intel CPUs with MWAIT and no MONITOR bug; every other vendor uses HLT
 *    whatever MWAIT offers; idle=nomwait does not reach this choice;
 *    idle=halt installs default_idle straight from idle_setup(); the AMD
 *    E400 routine is tried first.
 *  - v6.0 .. v6.8: Wyes Karny's 2022 change aebef63cf7ff ("x86: Remove
 *    vendor checks from prefer_mwait_c1_over_halt") makes the test
 *    vendor-neutral on CPUID leaf 5, and 8bcedb4ce047 ("x86: Handle
 *    idle=nomwait cmdline properly for x86_idle") makes idle=nomwait fall
 *    back to HLT.
 *  - v6.9 on: Thomas Gleixner's 2024 series, cb81deefb59d ("x86/idle:
 *    Sanitize X86_BUG_AMD_E400 handling": no E400 routine, the APIC-C1E bug
 *    just rules MWAIT out and the core brackets HLT with tick broadcast),
 *    f3d7eab7be87 ("x86/idle: Cleanup idle_setup()": every idle= override
 *    falls back to HALT here, none installs a routine itself) and
 *    5f75916ec6ec (bool return, no functional change); these are the
 *    mainline ids (the 6.9 merge window), the tip x86/core branch carried
 *    the series earlier as 3b9b8e89c8e1, 695f90619cf7 and 71f3a783a758.
 * The TDX-aware HLT (tdx_safe_halt) is chosen after MWAIT from v5.19, when
 * TDX guest support landed.
 */
#include <stdio.h>
#include <string.h>

#include "drivers_internal.h"

/* CPUID.5:ECX bit 0: MONITOR/MWAIT extensions enumerated (CPUID5_ECX_EXTENSIONS_SUPPORTED). */
#define CPUID5_ECX_EXTENSIONS_SUPPORTED 0x1u
/* CPUID.5:EDX bits 7:4: number of C1 sub-states MWAIT supports (MWAIT_C1_SUBSTATE_MASK). */
#define MWAIT_C1_SUBSTATE_MASK 0xf0u

/* Releases at which the decision changed (see the header comment). */
#define REL_VENDOR_NEUTRAL "6.0"
#define REL_IDLE_REWORK "6.9"
#define REL_TDX_GUEST "5.19"

/*
 * prefer_mwait_c1_over_halt(): may the boot default be MONITOR/MWAIT with
 * hint 0? why receives the reason either way.
 */
static bool prefer_mwait_c1(const struct il_platform *p, const struct il_machine_idle *m,
			    enum il_idle_override ov, char *why, size_t n)
{
	bool rework = il_release_at_least(m, REL_IDLE_REWORK);

	if (!il_release_at_least(m, REL_VENDOR_NEUTRAL)) {
		/* the Intel-only form of v5.x */
		if (p->vendor != IL_VENDOR_INTEL) {
			snprintf(why, n, "%s CPU: kernels before 6.0 use MWAIT C1 only on Intel "
				 "(vendor check removed by aebef63cf7ff)", il_vendor_name(p->vendor));
			return false;
		}
		if (!p->mwait) {
			snprintf(why, n, "no MWAIT (X86_FEATURE_MWAIT clear)");
			return false;
		}
		if (p->bug_monitor) {
			snprintf(why, n, "X86_BUG_MONITOR: MONITOR is unreliable");
			return false;
		}
		snprintf(why, n, "Intel CPU with MWAIT: using mwait in idle threads%s",
			 ov == IL_IDLE_NOMWAIT ? " (idle=nomwait is not honoured here before "
						 "8bcedb4ce047, v6.0)" : "");
		return true;
	}
	if (rework ? ov != IL_IDLE_NO_OVERRIDE : ov == IL_IDLE_NOMWAIT) {
		snprintf(why, n, "%s on the command line: fall back to HALT",
			 ov == IL_IDLE_NOMWAIT ? "idle=nomwait" :
			 ov == IL_IDLE_HALT ? "idle=halt" : "idle=poll");
		return false;
	}
	if (!p->mwait) {
		snprintf(why, n, "no MWAIT (X86_FEATURE_MWAIT clear)");
		return false;
	}
	if (p->bug_monitor) {
		snprintf(why, n, "X86_BUG_MONITOR: MONITOR is unreliable");
		return false;
	}
	if (rework && p->bug_amd_apic_c1e) {
		snprintf(why, n, "X86_BUG_AMD_APIC_C1E: the APIC timer stops in C1E, "
			 "HLT with tick broadcast (cb81deefb59d)");
		return false;
	}
	if (!(p->cpuid5_ecx & CPUID5_ECX_EXTENSIONS_SUPPORTED)) {
		snprintf(why, n, "MWAIT without CPUID.5 extensions (ECX bit 0 clear): "
			 "MWAIT with EAX=0, ECX=0 is safe");
		return true;
	}
	if (p->cpuid5_edx & MWAIT_C1_SUBSTATE_MASK) {
		snprintf(why, n, "MWAIT with %u C1 sub-state(s) (CPUID.5:EDX[7:4])",
			 (p->cpuid5_edx & MWAIT_C1_SUBSTATE_MASK) >> 4);
		return true;
	}
	snprintf(why, n, "MWAIT extensions present but no C1 sub-state (CPUID.5:EDX[7:4] = 0)");
	return false;
}

/* The chosen routine as the single state the simulator runs. */
static void fill_default_state(const struct il_platform *p, struct il_machine_idle *m,
			       bool tick_broadcast)
{
	struct il_state *s = &m->default_state;

	memset(s, 0, sizeof(*s));
	s->power_usage = -1;
	s->power_w = -1;
	s->transition_j = -1;
	switch (m->routine) {
	case IL_IDLE_ROUTINE_POLL:
		snprintf(s->name, sizeof(s->name), "poll");
		snprintf(s->desc, sizeof(s->desc), "idle=poll: cpu_idle_poll");
		s->flags = IL_FLAG_POLLING;
		s->entry = IL_ENTRY_POLL;
		s->exit_dist = p->poll_exit;
		break;
	case IL_IDLE_ROUTINE_MWAIT_C1:
		snprintf(s->name, sizeof(s->name), "mwait-c1");
		snprintf(s->desc, sizeof(s->desc), "mwait_idle: MWAIT hint 0");
		s->entry = IL_ENTRY_MWAIT;
		s->mwait_hint = 0;
		s->exit_dist = p->mwait_exit;
		break;
	case IL_IDLE_ROUTINE_TDX_HALT:
		snprintf(s->name, sizeof(s->name), "tdx-halt");
		snprintf(s->desc, sizeof(s->desc), "tdx_safe_halt: HLT via TDCALL");
		s->entry = IL_ENTRY_TDX_HALT;
		s->exit_dist = p->hlt_exit;
		break;
	default:
		snprintf(s->name, sizeof(s->name), "hlt");
		snprintf(s->desc, sizeof(s->desc), "default_idle: STI;HLT");
		s->entry = IL_ENTRY_HLT;
		s->exit_dist = p->hlt_exit;
		break;
	}
	if (tick_broadcast)
		s->flags |= IL_FLAG_TIMER_STOP; /* local APIC timer stops: broadcast */
}

void il_x86_select_idle_routine(const struct il_platform *p, struct il_machine_idle *m)
{
	enum il_idle_override ov = il_boot_idle_override(p);
	bool rework = il_release_at_least(m, REL_IDLE_REWORK);
	char why[IL_NOTE_LEN - 64];

	if (ov == IL_IDLE_POLL) {
		m->routine = IL_IDLE_ROUTINE_POLL;
		m->force_poll = true;
		snprintf(m->routine_why, sizeof(m->routine_why),
			 "idle=poll: cpu_idle_poll_ctrl(true), the idle loop spins");
		if (p->threads_per_core > 1)
			il_machine_note(m, "x86: WARNING: polling idle and HT enabled, "
				        "performance may degrade");
		fill_default_state(p, m, false);
		return;
	}
	if (!rework && ov == IL_IDLE_HALT) {
		/* idle_setup() set x86_idle itself; select_idle_routine() saw it set */
		m->routine = IL_IDLE_ROUTINE_HLT;
		snprintf(m->routine_why, sizeof(m->routine_why),
			 "idle=halt: idle_setup() installs default_idle itself (before f3d7eab7be87, v6.9)");
		fill_default_state(p, m, false);
		return;
	}
	if (!rework && p->bug_amd_apic_c1e) {
		/* X86_BUG_AMD_E400 with C1E active: amd_e400_idle, HLT in broadcast mode */
		m->routine = IL_IDLE_ROUTINE_HLT;
		snprintf(m->routine_why, sizeof(m->routine_why),
			 "AMD E400 erratum with C1E active: amd_e400_idle (HLT with tick broadcast)");
		fill_default_state(p, m, true);
		return;
	}
	if (prefer_mwait_c1(p, m, ov, why, sizeof(why))) {
		m->routine = IL_IDLE_ROUTINE_MWAIT_C1;
		snprintf(m->routine_why, sizeof(m->routine_why), "%s", why);
	} else if (p->tdx_guest && il_release_at_least(m, REL_TDX_GUEST)) {
		m->routine = IL_IDLE_ROUTINE_TDX_HALT;
		snprintf(m->routine_why, sizeof(m->routine_why),
			 "no MWAIT C1 (%s); TDX guest: TDX-aware HLT", why);
	} else {
		m->routine = IL_IDLE_ROUTINE_HLT;
		snprintf(m->routine_why, sizeof(m->routine_why), "%s", why);
	}
	fill_default_state(p, m, rework && p->bug_amd_apic_c1e);
}

void il_x86_idle_state_names(const struct il_platform *p, struct il_state_names *s)
{
	if (p->arch != IL_ARCH_X86)
		return;
	il_state_names_add(s, "poll", "default idle", "poll_exit");
	il_state_names_add(s, "hlt", "default idle", "hlt_exit");
	if (p->mwait)
		il_state_names_add(s, "mwait-c1", "default idle", "mwait_exit");
	if (p->tdx_guest)
		il_state_names_add(s, "tdx-halt", "default idle", "hlt_exit");
}
