// SPDX-License-Identifier: GPL-2.0-only
/*
 * From a platform to the kernel's idle setup (include/idlelab/drivers.h).
 *
 * Boot order as the kernel runs it: the arch default idle routine is chosen
 * first (x86 select_idle_routine() at arch_cpu_finalize_init(); pseries:
 * H_CEDE), then the cpuidle drivers try to register in initcall order:
 * intel_idle, acpi_idle (ACPI processor driver), cpuidle-haltpoll, and on
 * powerpc pseries_idle. The first that registers wins; later ones would get
 * -EBUSY from cpuidle_register_driver() and are not tried. cpuidle.off=1
 * makes every registration fail with -ENODEV (drivers/cpuidle/driver.c
 * __cpuidle_register_driver, cpuidle_disabled()); the idle loop then calls
 * default_idle_call() (kernel/sched/idle.c), i.e. the arch routine.
 *
 * Governor, as drivers/cpuidle/governor.c and driver.c decide it (mainline
 * v6.18, unchanged since "cpuidle: Allow the driver to specify a default
 * governor" of v5.4): the highest-rated registered governor (ratings from
 * the governors' ops tables; haltpoll registers only in KVM guests) unless
 * cpuidle.governor= names a registered one; a driver's preferred governor
 * is switched to at registration only when cpuidle.governor= is empty.
 *
 * Dependencies point one way: machine.c calls the drivers' probes through
 * the table below; the drivers use common.c and acpi_cst.c, never this file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "drivers_internal.h"
#include "idlelab/governor.h"
#include "idlelab/release.h"

const char *il_idle_routine_name(enum il_idle_routine r)
{
	switch (r) {
	case IL_IDLE_ROUTINE_POLL: return "poll";
	case IL_IDLE_ROUTINE_HLT: return "default_idle (hlt)";
	case IL_IDLE_ROUTINE_MWAIT_C1: return "mwait_idle (mwait C1)";
	case IL_IDLE_ROUTINE_TDX_HALT: return "tdx_halt";
	case IL_IDLE_ROUTINE_CEDE: return "cede";
	default: return "none";
	}
}

/*
 * cpuidle.off= is an int core parameter (drivers/cpuidle/cpuidle.c): any
 * non-zero value disables cpuidle; a value kstrtoint() refuses, or none,
 * leaves it enabled.
 */
static bool cpuidle_off(const struct il_platform *p, struct il_machine_idle *m)
{
	const char *v = il_platform_option(p, "cpuidle.off");
	char *end;
	long x;

	if (!v)
		return false;
	errno = 0;
	x = strtol(v, &end, 0);
	if (!*v || *end || errno || x < -2147483648L || x > 2147483647L) {
		il_machine_note(m, "cpuidle.off=%s: not an integer; the kernel refuses it and "
				"keeps cpuidle enabled", v);
		return false;
	}
	return x != 0;
}

/*
 * The governors a kernel registers, in the link order of
 * drivers/cpuidle/governors/Makefile (each a postcore_initcall): ladder,
 * menu, teo, haltpoll. Their ratings are the ops tables' (ladder's when
 * NO_HZ is off is init_ladder()'s, rating_nohz_off); haltpoll registers
 * only with KVM paravirt (init_haltpoll(): kvm_para_available()).
 */
static const char *const kernel_governors[] = { "ladder", "menu", "teo", "haltpoll" };
#define NGOVS (int)(sizeof(kernel_governors) / sizeof(kernel_governors[0]))

struct gov_rating {
	const char *name;
	unsigned int rating;
};

/* The registered governors and their ratings; returns how many. */
static int registered_governors(const struct il_platform *p, bool nohz_off,
				struct gov_rating govs[NGOVS])
{
	bool kvm = p->arch == IL_ARCH_X86 && p->hypervisor &&
		   !strcasecmp(p->hypervisor_name, "kvm");
	int n = 0;

	for (int i = 0; i < NGOVS; i++) {
		const struct il_gov_ops *ops = il_gov_find(kernel_governors[i]);

		if (!ops || (!strcmp(ops->name, "haltpoll") && !kvm))
			continue;
		govs[n].name = ops->name;
		govs[n].rating = nohz_off && ops->rating_nohz_off ? ops->rating_nohz_off
								  : ops->rating;
		n++;
	}
	return n;
}

/*
 * The governor the kernel runs: cpuidle_register_governor() keeps the best
 * rated unless cpuidle.governor= names one; cpuidle_register_driver()
 * switches to the driver's preference only with cpuidle.governor= empty.
 */
static void choose_governor(const struct il_platform *p, struct il_machine_idle *m)
{
	struct gov_rating govs[NGOVS];
	int ngovs = registered_governors(p, m->nohz_off, govs);
	const char *param = il_platform_option(p, "cpuidle.governor");
	const char *chosen = NULL;
	unsigned int best = 0;

	for (int i = 0; i < ngovs; i++)
		if (govs[i].rating > best) {
			best = govs[i].rating;
			chosen = govs[i].name;
		}
	if (param && *param) {
		int i;
		for (i = 0; i < ngovs; i++)
			if (!strncasecmp(param, govs[i].name, IL_NAME_LEN))
				break;
		if (i < ngovs) {
			chosen = govs[i].name;
			il_machine_note(m, "governor: cpuidle.governor=%s", param);
		} else {
			il_machine_note(m, "governor: cpuidle.governor=%s is not a registered "
					"governor: the highest rated (%s) runs", param, chosen);
		}
		if (m->cpuidle && m->drv.governor[0])
			il_machine_note(m, "governor: the driver's preferred %s is ignored "
					"because cpuidle.governor= is set", m->drv.governor);
	} else if (m->cpuidle && m->drv.governor[0]) {
		int i;
		for (i = 0; i < ngovs; i++)
			if (!strncasecmp(m->drv.governor, govs[i].name, IL_NAME_LEN))
				break;
		if (i < ngovs) {
			chosen = govs[i].name;
			il_machine_note(m, "governor: %s, preferred by the %s driver", chosen,
					m->drv.name);
		} else {
			il_machine_note(m, "governor: the driver prefers %s, which is not "
					"registered here: %s stays", m->drv.governor, chosen);
		}
	} else if (m->nohz_off && !strcmp(chosen, "ladder")) {
		il_machine_note(m, "governor: nohz=off rates ladder %u, above menu", best);
	}
	snprintf(m->governor, sizeof(m->governor), "%s", chosen);
	if (!m->cpuidle)
		il_machine_note(m, "governor: %s is current but unused: no cpuidle driver, the "
				"idle loop calls the default routine", m->governor);
}

/* Probe one driver; 0 registered, 1 refused, negative error. */
typedef int (*probe_fn)(const struct il_platform *, struct il_machine_idle *, struct il_err *);

/*
 * The cpuidle drivers in initcall order (all device_initcall; the link
 * order puts drivers/idle/ before drivers/acpi/ and drivers/cpuidle/), with
 * the names their states can have.
 */
static const struct idle_driver {
	const char *name;
	enum il_arch arch;
	probe_fn probe;
	void (*state_names)(const struct il_platform *p, struct il_state_names *s);
} idle_drivers[] = {
	{ "intel_idle", IL_ARCH_X86, il_intel_idle_probe, il_intel_idle_state_names },
	{ "acpi_idle", IL_ARCH_X86, il_acpi_idle_probe, il_acpi_idle_state_names },
	{ "haltpoll", IL_ARCH_X86, il_haltpoll_probe, il_haltpoll_state_names },
	{ "pseries_idle", IL_ARCH_POWERPC, il_pseries_idle_probe, il_pseries_idle_state_names },
};
#define NDRIVERS (sizeof(idle_drivers) / sizeof(idle_drivers[0]))

/* "A, B, C" of the names in s, all of them or those taking the key kind (exit / power). */
static void names_list(const struct il_state_names *s, int kind, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < s->n; i++) {
		if ((kind == 'e' && s->v[i].exit_from) || (kind == 'p' && s->v[i].power_from))
			continue;
		o += (size_t)snprintf(buf + o, o < n ? n - o : 0, "%s%s", o ? ", " : "", s->v[i].name);
	}
	if (!o)
		snprintf(buf, n, "none");
}

/*
 * The platform's keys that name a state ([firmware] exit.NAME, power.NAME,
 * transition.NAME) must name one the platform can have under some kernel
 * release and some options, and one that takes that key: the drivers say
 * which names their states can have (each driver's *_state_names()), an
 * explicit [state.N] table has its own. Anything else would be ignored
 * silently (exit.CEDE on pseries, whose CEDE wakes with hlt_exit), so it
 * is refused with the key's line.
 */
static int check_state_keys(const struct il_platform *p, struct il_err *err)
{
	static const char table_who[] = "the explicit [state.N] table";
	struct il_state_names names;
	char list[IL_NOTE_LEN], all[IL_NOTE_LEN];

	names.n = 0;
	if (p->has_table) {
		for (int i = 0; i < p->table.state_count; i++)
			il_state_names_add2(&names, p->table.states[i].name, table_who,
					    "exit_latency_dist of its [state.N]",
					    "power_w and transition_j of its [state.N]");
	} else {
		for (size_t i = 0; i < NDRIVERS; i++)
			if (idle_drivers[i].arch == p->arch)
				idle_drivers[i].state_names(p, &names);
	}
	/* the default routine as a state (cpuidle.off=1 or no driver) */
	il_x86_idle_state_names(p, &names);
	if (p->arch == IL_ARCH_POWERPC)
		il_state_names_add(&names, "cede", "default idle", "hlt_exit");

	names_list(&names, 0, all, sizeof(all));
	for (int i = 0; i < p->nstate_exit; i++) {
		const struct il_plat_state_exit *x = &p->state_exit[i];
		const struct il_state_name *s = il_state_names_find(&names, x->name);

		names_list(&names, 'e', list, sizeof(list));
		if (!s)
			return il_err_set_at(err, EINVAL, p->file, x->line,
					     "exit.%s: no state of this platform is named '%s' under "
					     "any kernel release or option (its states: %s; exit.NAME "
					     "applies to: %s)", x->name, x->name, all, list);
		if (s->exit_from)
			return il_err_set_at(err, EINVAL, p->file, x->line,
					     "exit.%s: %s's state %s takes its wake-up latency from "
					     "%s, not from exit.NAME", x->name, s->who, x->name,
					     s->exit_from);
	}
	for (int i = 0; i < p->nstate_power; i++) {
		const struct il_plat_state_power *x = &p->state_power[i];
		const struct il_state_name *s = il_state_names_find(&names, x->name);
		const char *key = x->line_is_power ? "power" : "transition";

		names_list(&names, 'p', list, sizeof(list));
		if (!s)
			return il_err_set_at(err, EINVAL, p->file, x->line,
					     "%s.%s: no state of this platform is named '%s' under "
					     "any kernel release or option (power.NAME and "
					     "transition.NAME apply to: %s)", key, x->name, x->name, list);
		if (s->power_from)
			return il_err_set_at(err, EINVAL, p->file, x->line,
					     "%s.%s: %s's state %s takes its power from %s, not from "
					     "power.NAME / transition.NAME", key, x->name, s->who,
					     x->name, s->power_from);
	}
	return 0;
}

int il_machine_idle_build(const struct il_platform *p, const char *release,
			  struct il_machine_idle *out, struct il_err *err)
{
	const char *idle = il_platform_option(p, "idle");

	const char *rel = release && *release ? release
					      : (p->release[0] ? p->release : IL_RELEASE_NEWEST);
	int r;

	memset(out, 0, sizeof(*out));
	/* the drivers know the releases of include/idlelab/release.h only */
	r = il_release_check(rel, err);
	if (!r)
		r = check_state_keys(p, err);
	if (r)
		return r;
	snprintf(out->release, sizeof(out->release), "%s", rel);

	if (idle && p->arch == IL_ARCH_X86 && il_boot_idle_override(p) == IL_IDLE_NO_OVERRIDE)
		il_machine_note(out, "idle=%s: not poll, halt or nomwait; the kernel refuses it "
				"(malformed early option) and keeps no override", idle);
	/* setup_tick_nohz(): kstrtobool() into tick_nohz_enabled, kept when it fails */
	const char *nohz = il_platform_option(p, "nohz");
	out->nohz_off = !il_option_bool(p, "nohz", true);
	if (nohz && *nohz && il_option_bool(p, "nohz", true) && !il_option_bool(p, "nohz", false))
		il_machine_note(out, "nohz=%s: not a boolean; the kernel refuses it and keeps the "
				"tick's stop (nohz on)", nohz);

	/* 1. the arch default idle routine, chosen at boot before any initcall */
	if (p->arch == IL_ARCH_X86) {
		il_x86_select_idle_routine(p, out);
	} else if (p->arch == IL_ARCH_POWERPC) {
		struct il_state *s = &out->default_state;
		out->routine = IL_IDLE_ROUTINE_CEDE;
		snprintf(out->routine_why, sizeof(out->routine_why),
			 "pseries: ppc_md.power_save = pseries_lpar_idle (H_CEDE)");
		snprintf(s->name, sizeof(s->name), "cede");
		snprintf(s->desc, sizeof(s->desc), "pseries_lpar_idle: H_CEDE");
		s->entry = IL_ENTRY_CEDE;
		s->exit_dist = p->hlt_exit;
		s->power_usage = -1;
		s->power_w = -1;
		s->transition_j = -1;
	}

	/* 2. cpuidle drivers, in initcall order */
	if (cpuidle_off(p, out)) {
		il_machine_note(out, "cpuidle.off=%s: cpuidle is disabled, no driver can register",
				il_platform_option(p, "cpuidle.off"));
	} else if (p->has_table) {
		out->cpuidle = true;
		out->drv = p->table;
		il_machine_note(out, "explicit state table from the platform file");
	} else {
		int n = 0;

		for (size_t i = 0; i < NDRIVERS; i++) {
			const struct idle_driver *d = &idle_drivers[i];

			if (d->arch != p->arch)
				continue;
			n++;
			if (out->cpuidle) {
				/* a later initcall finds the driver slot taken */
				il_machine_note(out, "%s: not registered: %s is already the "
						"cpuidle driver (-EBUSY)", d->name, out->drv.name);
				continue;
			}
			r = d->probe(p, out, err);
			if (r < 0)
				return r;
			if (r == 0 && !out->cpuidle)
				return il_err_set_at(err, EINVAL, p->file, 0,
						     "internal: a driver probe succeeded without a table");
		}
		if (!n)
			il_machine_note(out, "no idle driver is modelled for this architecture");
	}
	/*
	 * The platform's power model for the states a driver derived
	 * ([firmware] power.NAME / transition.NAME): drivers know no power
	 * figures, so they leave -1 and the data is matched here by state name.
	 * An explicit [state.N] table carries its own power_w / transition_j.
	 */
	for (int k = 0; k < p->nstate_power; k++) {
		const struct il_plat_state_power *sp = &p->state_power[k];
		int n = out->cpuidle && !p->has_table ? out->drv.state_count : 0;
		for (int i = 0; i < n; i++)
			if (!strcmp(out->drv.states[i].name, sp->name)) {
				if (sp->power_w >= 0)
					out->drv.states[i].power_w = sp->power_w;
				if (sp->transition_j >= 0)
					out->drv.states[i].transition_j = sp->transition_j;
			}
		if (!strcmp(out->default_state.name, sp->name)) {
			if (sp->power_w >= 0)
				out->default_state.power_w = sp->power_w;
			if (sp->transition_j >= 0)
				out->default_state.transition_j = sp->transition_j;
		}
	}
	if (out->cpuidle && out->force_poll)
		il_machine_note(out, "idle=poll: the idle loop polls and never enters the %s states",
				out->drv.name[0] ? out->drv.name : "driver's");
	if (!out->cpuidle) {
		if (out->force_poll)
			il_machine_note(out, "no cpuidle driver: the idle loop polls (idle=poll)");
		else if (out->routine != IL_IDLE_ROUTINE_NONE)
			il_machine_note(out, "no cpuidle driver: default idle routine %s",
					il_idle_routine_name(out->routine));
	}

	/* 3. the governor */
	choose_governor(p, out);
	return 0;
}
