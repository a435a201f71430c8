// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cpuidle-haltpoll driver (drivers/cpuidle/cpuidle-haltpoll.c) for KVM
 * guests: state 0 the core's POLL state, state 1 "haltpoll idle" 1/1 µs,
 * preferred governor "haltpoll".
 *
 * Follows torvalds 20693782766d (loads only with no idle= override, KVM
 * paravirt available and KVM_HINTS_REALTIME or the force=1 module
 * parameter; the idle= test is "cpuidle: haltpoll: Take 'idle=' override
 * into account", Zhenzhong Duan, in the pm-5.4-rc5 pull, so in v5.4 and
 * every release idlelab knows; force came with "cpuidle-haltpoll: allow force loading on
 * hosts without the REALTIME hint", Maciej S. Szmigiero, in the
 * pm-5.7-rc1 pull, so before v5.7 only the hint loads the driver) plus
 * 716ff71ae234 ("cpuidle-haltpoll: Replace
 * default_idle() with arch_cpu_idle()", v6.3): from v6.3 state 1 enters
 * the x86 default routine, MWAIT C1 where select_idle_routine() chose it,
 * HLT before. The 2024 rework that moved the load test into
 * arch_haltpoll_want(force) keeps the same conditions on x86.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "drivers_internal.h"

#define HALTPOLL_IDLE_LATENCY_US 1    /* state 1 exit_latency */
#define HALTPOLL_IDLE_RESIDENCY_US 1  /* state 1 target_residency */
#define REL_ARCH_CPU_IDLE "6.3"       /* 716ff71ae234 */
#define REL_FORCE "5.7"               /* the force parameter, pm-5.7-rc1 */

/*
 * The entry method of state 1: arch_cpu_idle() from v6.3, so whatever the
 * default routine is; default_idle() (HLT) before.
 */
static void haltpoll_idle_entry(const struct il_platform *p, const struct il_machine_idle *m,
				struct il_state *s)
{
	if (!il_release_at_least(m, REL_ARCH_CPU_IDLE) || m->routine == IL_IDLE_ROUTINE_HLT ||
	    m->routine == IL_IDLE_ROUTINE_NONE) {
		s->entry = IL_ENTRY_HLT;
		s->exit_dist = p->hlt_exit;
	} else if (m->routine == IL_IDLE_ROUTINE_MWAIT_C1) {
		s->entry = IL_ENTRY_MWAIT;
		s->mwait_hint = 0;
		s->exit_dist = p->mwait_exit;
	} else {
		s->entry = IL_ENTRY_TDX_HALT;
		s->exit_dist = p->hlt_exit;
	}
}

int il_haltpoll_probe(const struct il_platform *p, struct il_machine_idle *m,
		      struct il_err *err)
{
	struct il_driver *drv = &m->drv;
	bool force = il_option_bool(p, "cpuidle_haltpoll.force", false);
	const char *fv = il_platform_option(p, "cpuidle_haltpoll.force");

	(void)err;
	if (p->arch != IL_ARCH_X86) {
		il_machine_note(m, "haltpoll: modelled for x86 KVM guests only");
		return 1;
	}
	if (il_boot_idle_override(p) != IL_IDLE_NO_OVERRIDE) {
		il_machine_note(m, "haltpoll: not loaded: idle=%s is given",
				il_platform_option(p, "idle"));
		return 1;
	}
	if (!p->hypervisor || strcasecmp(p->hypervisor_name, "kvm")) {
		il_machine_note(m, "haltpoll: not loaded: not a KVM guest (kvm_para_available() false)");
		return 1;
	}
	if (fv && *fv && !il_release_at_least(m, REL_FORCE)) {
		il_machine_note(m, "haltpoll: cpuidle_haltpoll.force=%s ignored: the driver has "
				"no force parameter before 5.7", fv);
		force = false;
	} else if (fv && *fv && !force && il_option_bool(p, "cpuidle_haltpoll.force", true)) {
		il_machine_note(m, "haltpoll: cpuidle_haltpoll.force=%s is not a boolean; "
				"the kernel refuses it and keeps force=N", fv);
	}
	if (!p->kvm_hints_realtime && !force) {
		il_machine_note(m, "haltpoll: not loaded: no KVM_HINTS_REALTIME and "
				"cpuidle_haltpoll.force is not set");
		return 1;
	}

	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "haltpoll");
	snprintf(drv->governor, sizeof(drv->governor), "haltpoll");
	il_poll_state_init(&drv->states[0]);
	drv->states[0].exit_dist = p->poll_exit;

	struct il_state *s = &drv->states[1];
	snprintf(s->name, sizeof(s->name), "haltpoll idle");
	snprintf(s->desc, sizeof(s->desc), "default architecture idle");
	s->exit_latency = HALTPOLL_IDLE_LATENCY_US;
	s->target_residency = HALTPOLL_IDLE_RESIDENCY_US;
	s->power_usage = -1;
	s->power_w = -1;
	s->transition_j = -1;
	haltpoll_idle_entry(p, m, s);

	drv->state_count = 2;
	drv->safe_state_index = 0;
	il_driver_init(drv);
	m->cpuidle = true;
	il_machine_note(m, "haltpoll: loaded (%s)", p->kvm_hints_realtime
			? "KVM_HINTS_REALTIME" : "cpuidle_haltpoll.force=1");
	il_machine_note(m, "haltpoll: state 1 enters %s", il_release_at_least(m, REL_ARCH_CPU_IDLE)
			? "arch_cpu_idle(), the default routine (716ff71ae234, v6.3)"
			: "default_idle() (HLT) before 716ff71ae234 (v6.3)");
	return 0;
}

void il_haltpoll_state_names(const struct il_platform *p, struct il_state_names *s)
{
	if (p->arch != IL_ARCH_X86 || !p->hypervisor || strcasecmp(p->hypervisor_name, "kvm"))
		return;
	il_state_names_add(s, "POLL", "haltpoll", "poll_exit");
	il_state_names_add(s, "haltpoll idle", "haltpoll", "hlt_exit or mwait_exit");
}
