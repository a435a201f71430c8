// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi_idle: the ACPI processor idle driver (drivers/acpi/processor_idle.c),
 * building its table from the platform's _CST (or FADT P_LVLx) as the
 * kernel does, with each state's entry method and exit-path costs.
 *
 * Follows, read in the torvalds/linux tree:
 *  - drivers/acpi/processor_idle.c at 002c6ca75289 (v6.3..v6.5 era) and
 *    fb0cece721e4 (v6.0/v6.1 era): state list, verification, C3 rules,
 *    cpuidle table, entry paths, wait_for_freeze();
 *  - arch/x86/kernel/acpi/cstate.c (v6.18 text, blob 11293143 in the index):
 *    acpi_processor_power_init_bm_check().
 * The _CST itself is read by acpi_cst.c (shared with intel_idle).
 * Release-dependent behaviour (mainline tags, m->release):
 *  - the PM-timer "dummy wait" after a P_LVLx read (wait_for_freeze) is
 *    always done before v5.5; fa583f71a99c ("ACPI: processor_idle: Skip
 *    dummy wait if kernel is in guest", v5.5) skips it under a hypervisor;
 *    e400ad8b7e6a ("ACPI: processor idle: Practically limit "Dummy wait"
 *    workaround to old Intel systems", Dave Hansen, 2022-09-23, merged for
 *    v6.0 final) also skips it on every non-Intel CPU. So acpi_idle@5.19
 *    performs it on AMD Zen, acpi_idle@6.0 and later do not.
 *  - latencies out of order: none handled before v5.14; 65ea8f2c6e23
 *    ("ACPI: processor idle: Fix up C-state latency if not ordered", v5.14)
 *    sorts them with lib/sort.c heapsort and a comparator that calls any
 *    pair with an invalid slot equal; 233323f9b9f8 ("Fix invalid comparison
 *    with insertion sort for latency", v6.10) sorts the valid ones only.
 *  - AMD Zen (family >= 0x17) gets bm_check = 1, bm_control = 0 from
 *    a8fb40966f19 ("x86: ACPI: cstate: Optimize C3 entry on AMD CPUs",
 *    Deepak Sharma): in linux-pm's bleeding-edge and linux-next in October
 *    2021 beside 5.16 material (intel_pstate's HWP Guaranteed notification),
 *    so v5.16; stable took it into 5.15.91 and 5.10.y in 2023.
 * Not modelled: _LPI (arm64), DMI max_cstate quirks, PIIX4 errata; the
 * per-entry run-time paths (BM_STS demotion of C3 to the safe state, C2->C1
 * demotion without _CST) are said in notes, not simulated.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "acpi_cst.h"
#include "drivers_internal.h"

#define ACPI_IDLE_STATE_START 1          /* x86 has cpu_relax polling: POLL is state 0 */
#define ACPI_MAX_C2_LATENCY_US 100       /* ACPI_PROCESSOR_MAX_C2_LATENCY */
#define ACPI_MAX_C3_LATENCY_US 1000      /* ACPI_PROCESSOR_MAX_C3_LATENCY */
#define LATENCY_FACTOR_DEFAULT 2         /* processor.latency_factor */
#define SORT_SLOTS_MAX 64                /* model bound on max_cstate for the latency sort */

/* Releases at which a decision changed (see the header comment). */
#define REL_GUEST_NO_DUMMY_WAIT "5.5"
#define REL_INTEL_ONLY_DUMMY_WAIT "6.0"
#define REL_LATENCY_SORT "5.14"
#define REL_INSERTION_SORT "6.10"
#define REL_ZEN_BM_CHECK "5.16"
#define REL_BOOL_PARAMS "5.19" /* 27263b3428f5: nocst, bm_check_disable uint -> bool */

/* Module parameters of the ACPI processor driver. */
struct acpi_idle_params {
	unsigned int max_cstate;     /* processor.max_cstate, default ACPI_PROCESSOR_MAX_POWER */
	bool nocst;                  /* processor.nocst */
	bool bm_check_disable;       /* processor.bm_check_disable */
	unsigned int latency_factor; /* processor.latency_factor */
	bool lapic_timer_c2_ok;      /* lapic_timer_c2_ok (x86 boot flag) */
};

/* What the processor driver learns about one CPU (struct acpi_processor). */
struct acpi_pr {
	struct il_acpi_power power;
	bool has_cst;
	bool bm_check, bm_control;
	int timer_broadcast_on_state;
};

static void read_uint_param(const struct il_platform *p, struct il_machine_idle *m,
			    const char *key, unsigned int *val)
{
	const char *v = il_platform_option(p, key);

	if (v && il_kstrtouint(v, val))
		il_machine_note(m, "acpi_idle: %s=%s is not an unsigned integer; the kernel "
				"refuses it and keeps %u", key, v, *val);
}

/*
 * processor.nocst and processor.bm_check_disable: uint parameters before
 * 5.19 (any non-zero number sets them; "y" is refused), bools from 5.19
 * (kstrtobool(); "2" is refused). A refused value keeps them off.
 */
static bool read_flag_param(const struct il_platform *p, struct il_machine_idle *m,
			    const char *key)
{
	const char *v = il_platform_option(p, key);
	unsigned int x = 0;
	bool b;

	if (!il_release_at_least(m, REL_BOOL_PARAMS)) {
		read_uint_param(p, m, key, &x);
		return x != 0;
	}
	b = il_option_bool(p, key, false);
	if (v && *v && !b && il_option_bool(p, key, true))
		il_machine_note(m, "acpi_idle: %s=%s is not a boolean; the kernel refuses it and "
				"keeps N", key, v);
	return b;
}

static void read_params(const struct il_platform *p, struct il_machine_idle *m,
			struct acpi_idle_params *o)
{
	o->max_cstate = IL_ACPI_MAX_POWER;
	o->latency_factor = LATENCY_FACTOR_DEFAULT;
	read_uint_param(p, m, "processor.max_cstate", &o->max_cstate);
	read_uint_param(p, m, "processor.latency_factor", &o->latency_factor);
	o->nocst = read_flag_param(p, m, "processor.nocst");
	o->bm_check_disable = read_flag_param(p, m, "processor.bm_check_disable");
	o->lapic_timer_c2_ok = il_platform_option(p, "lapic_timer_c2_ok") != NULL;
}

/*
 * acpi_processor_cstate_check() (arch/x86/kernel/acpi/cstate.c users): early
 * AMD K8 Opterons and CPUs with the AMD C1E (E400) bug are held to C1.
 */
static unsigned int cstate_check(const struct il_platform *p, unsigned int max_cstate)
{
	if (p->vendor == IL_VENDOR_AMD && p->family == 0x0f && p->model <= 0x05 &&
	    p->stepping < 0x0a)
		return 1;
	if (p->bug_amd_apic_c1e)
		return 1;
	return max_cstate;
}

/* acpi_processor_get_power_info_fadt(): C2/C3 from the processor's P_BLK. */
static int power_info_fadt(const struct il_platform *p, struct il_machine_idle *m,
			   struct acpi_pr *pr)
{
	struct il_acpi_cx *c2 = &pr->power.states[IL_ACPI_STATE_C2];
	struct il_acpi_cx *c3 = &pr->power.states[IL_ACPI_STATE_C3];

	if (!p->pblk || p->c_states_disabled)
		return -ENODEV;
	c2->type = IL_ACPI_STATE_C2;
	c3->type = IL_ACPI_STATE_C3;
	c2->method = c3->method = IL_ACPI_CX_SYSTEMIO;
	c2->address = p->pblk + 4;
	c3->address = p->pblk + 5;
	c2->latency = p->fadt_c2_latency;
	c3->latency = p->fadt_c3_latency;
	if (p->fadt_c2_latency > ACPI_MAX_C2_LATENCY_US) {
		il_machine_note(m, "acpi_idle: FADT C2 latency %u us > %d: C2 invalidated",
				p->fadt_c2_latency, ACPI_MAX_C2_LATENCY_US);
		c2->address = 0;
	}
	if (p->fadt_c3_latency > ACPI_MAX_C3_LATENCY_US) {
		il_machine_note(m, "acpi_idle: FADT C3 latency %u us > %d: C3 invalidated",
				p->fadt_c3_latency, ACPI_MAX_C3_LATENCY_US);
		c3->address = 0;
	}
	snprintf(c2->desc, sizeof(c2->desc), "ACPI P_LVL2 IOPORT 0x%x", c2->address);
	snprintf(c3->desc, sizeof(c3->desc), "ACPI P_LVL3 IOPORT 0x%x", c3->address);
	return 0;
}

/*
 * acpi_processor_power_init_bm_check(): whether C3 needs bus-master
 * checking (bm_check) and may use ARB_DIS (bm_control, from the FADT PM2
 * block, cleared where ARB_DIS is a no-op).
 */
static void init_bm_check(const struct il_platform *p, const struct il_machine_idle *m,
			  struct acpi_pr *pr)
{
	pr->bm_control = p->pm2_control;
	pr->bm_check = false;
	if (il_platform_ncpus(p) == 1)
		pr->bm_check = true;
	else if (p->vendor == IL_VENDOR_INTEL)
		pr->bm_check = true;
	if (p->vendor == IL_VENDOR_INTEL &&
	    (p->family > 0xf || (p->family == 6 && p->model >= 0x0f)))
		pr->bm_control = false;
	if (p->vendor == IL_VENDOR_AMD && p->family >= 0x17 &&
	    il_release_at_least(m, REL_ZEN_BM_CHECK)) {
		pr->bm_check = true;
		pr->bm_control = false;
	}
}

/* acpi_processor_power_verify_c3() */
static void verify_c3(const struct il_platform *p, struct il_machine_idle *m, struct acpi_pr *pr,
		      struct il_acpi_cx *cx, bool *bm_done)
{
	if (!cx->address) {
		il_machine_note(m, "acpi_idle: C3 without an address: dropped");
		return;
	}
	if (!*bm_done) {
		init_bm_check(p, m, pr);
		*bm_done = true;
	}
	if (pr->bm_check) {
		if (!pr->bm_control) {
			if (!pr->has_cst) {
				il_machine_note(m, "acpi_idle: C3 support requires BM control "
						"(bus-master check needed, no PM2 block, no _CST): C3 dropped");
				return;
			}
			il_machine_note(m, "acpi_idle: C3 support without BM control (ARB_DIS not used)");
		}
	} else if (!p->fadt_wbinvd) {
		il_machine_note(m, "acpi_idle: C3 needs cache flushing but the FADT lacks the WBINVD "
				"flag: C3 dropped");
		return;
	}
	cx->valid = true;
}

/* lapic_timer_check_state(): from which slot on the local APIC timer stops. */
static void lapic_timer_check_state(const struct il_platform *p, const struct acpi_idle_params *o,
				    int state, struct acpi_pr *pr, const struct il_acpi_cx *cx)
{
	int type = o->lapic_timer_c2_ok ? IL_ACPI_STATE_C3 : IL_ACPI_STATE_C2;

	if (p->arat)
		return;
	if (p->bug_amd_apic_c1e)
		type = IL_ACPI_STATE_C1;
	if (pr->timer_broadcast_on_state < state)
		return;
	if (cx->type >= type)
		pr->timer_broadcast_on_state = state;
}

static int cst_latency_cmp(const struct il_acpi_cx *x, const struct il_acpi_cx *y)
{
	if (!(x->valid && y->valid))
		return 0;
	if (x->latency > y->latency)
		return 1;
	if (x->latency < y->latency)
		return -1;
	return 0;
}

static void cst_latency_swap(struct il_acpi_cx *x, struct il_acpi_cx *y)
{
	unsigned int t;

	if (!(x->valid && y->valid))
		return;
	t = x->latency;
	x->latency = y->latency;
	y->latency = t;
}

/*
 * lib/sort.c sort() as of v5.14..v6.9 (bottom-up heapsort, 2019 form) with
 * the driver's comparator and latency-only swap. Indices are elements.
 */
static void kernel_heapsort(struct il_acpi_cx *base, size_t num)
{
	size_t n = num, a = num / 2;

	if (!a)
		return;
	for (;;) {
		size_t b, c, d;

		if (a)
			a--;
		else if (--n)
			cst_latency_swap(&base[0], &base[n]);
		else
			break;
		for (b = a; c = 2 * b + 1, (d = c + 1) < n;)
			b = cst_latency_cmp(&base[c], &base[d]) >= 0 ? c : d;
		if (d == n)
			b = c;
		while (b != a && cst_latency_cmp(&base[a], &base[b]) >= 0)
			b = (b - 1) / 2;
		c = b;
		while (b != a) {
			b = (b - 1) / 2;
			cst_latency_swap(&base[b], &base[c]);
		}
	}
}

/* acpi_cst_latency_sort() of v6.10: insertion sort over the valid slots only. */
static void insertion_sort(struct il_acpi_cx *states, size_t length)
{
	for (size_t i = 1; i < length; i++) {
		if (!states[i].valid)
			continue;
		for (long j = (long)i - 1, k = (long)i; j >= 0; j--) {
			if (!states[j].valid)
				continue;
			if (states[j].latency > states[k].latency) {
				unsigned int t = states[j].latency;
				states[j].latency = states[k].latency;
				states[k].latency = t;
			}
			k = j;
		}
	}
}

/*
 * Sort the latencies of slots 1..max_cstate. The kernel passes max_cstate
 * elements from slot 1, which reaches past the 8-slot array when
 * max_cstate is 8 or more; those slots read as zeroed (invalid) memory here.
 */
static void sort_latencies(struct il_machine_idle *m, struct acpi_pr *pr, unsigned int max_cstate)
{
	struct il_acpi_cx arr[SORT_SLOTS_MAX];
	size_t n = max_cstate;

	if (n > SORT_SLOTS_MAX) {
		il_machine_note(m, "acpi_idle: processor.max_cstate=%u: the latency sort is modelled "
				"over %d slots", max_cstate, SORT_SLOTS_MAX);
		n = SORT_SLOTS_MAX;
	}
	memset(arr, 0, sizeof(arr));
	for (size_t i = 0; i < n && i + 1 < IL_ACPI_MAX_POWER; i++)
		arr[i] = pr->power.states[i + 1];
	if (il_release_at_least(m, REL_INSERTION_SORT))
		insertion_sort(arr, n);
	else
		kernel_heapsort(arr, n);
	for (size_t i = 0; i < n && i + 1 < IL_ACPI_MAX_POWER; i++)
		pr->power.states[i + 1].latency = arr[i].latency;
}

/* tsc_check_state(): deeper than C1 without a non-stop TSC marks it unstable. */
static bool tsc_halts(const struct il_platform *p, int type)
{
	bool known = p->vendor == IL_VENDOR_INTEL || p->vendor == IL_VENDOR_AMD ||
		     p->vendor == IL_VENDOR_HYGON;

	if (known && p->nonstop_tsc)
		return false;
	return type > IL_ACPI_STATE_C1;
}

/* acpi_processor_power_verify(): which slots are usable; fixes buggy latencies. */
static void power_verify(const struct il_platform *p, struct il_machine_idle *m,
			 const struct acpi_idle_params *o, struct acpi_pr *pr)
{
	unsigned int last_latency = 0;
	int last_type = 0;
	bool buggy_latency = false, bm_done = false, tsc_noted = false;

	pr->timer_broadcast_on_state = INT_MAX;
	for (unsigned int i = 1; i < IL_ACPI_MAX_POWER && i <= o->max_cstate; i++) {
		struct il_acpi_cx *cx = &pr->power.states[i];

		switch (cx->type) {
		case IL_ACPI_STATE_C1:
			cx->valid = true;
			break;
		case IL_ACPI_STATE_C2:
			if (!cx->address) {
				if (cx->line)
					il_machine_note(m, "acpi_idle: %s:%d: C2 without an address: dropped",
							p->file, cx->line);
				break;
			}
			cx->valid = true;
			break;
		case IL_ACPI_STATE_C3:
			verify_c3(p, m, pr, cx, &bm_done);
			break;
		}
		if (!cx->valid)
			continue;
		if (cx->type >= last_type && cx->latency < last_latency)
			buggy_latency = true;
		last_latency = cx->latency;
		last_type = cx->type;
		lapic_timer_check_state(p, o, (int)i, pr, cx);
		if (!tsc_noted && tsc_halts(p, cx->type)) {
			il_machine_note(m, "acpi_idle: TSC halts in idle (marked unstable)");
			tsc_noted = true;
		}
	}
	if (!buggy_latency)
		return;
	if (!il_release_at_least(m, REL_LATENCY_SORT)) {
		il_machine_note(m, "acpi_idle: C-state latencies out of order; kernels before 5.14 "
				"keep them (the fix-up is 65ea8f2c6e23)");
		return;
	}
	il_machine_note(m, "acpi_idle: FW issue: working around C-state latencies out of order "
			"(%s)", il_release_at_least(m, REL_INSERTION_SORT)
				? "insertion sort of the valid slots, 233323f9b9f8"
				: "lib/sort heapsort, 65ea8f2c6e23");
	sort_latencies(m, pr, o->max_cstate);
}

/*
 * acpi_processor_get_power_info(): _CST (unless processor.nocst), else the
 * FADT; then the default C1 and verification. Nonzero: no power management.
 */
static int get_power_info(const struct il_platform *p, struct il_machine_idle *m,
			  const struct acpi_idle_params *o, struct acpi_pr *pr)
{
	int r = -ENODEV;

	memset(pr, 0, sizeof(*pr));
	if (o->nocst)
		il_machine_note(m, "acpi_idle: processor.nocst: _CST ignored");
	else
		r = il_acpi_evaluate_cst(p, m, &pr->power, "acpi_idle");
	if (!r && !pr->power.count) {
		il_machine_note(m, "acpi_idle: %s: _CST lists no usable C-state", p->file);
		r = -EFAULT;
	}
	if (!r)
		pr->has_cst = true;
	if (r == -ENODEV) {
		memset(&pr->power, 0, sizeof(pr->power));
		r = power_info_fadt(p, m, pr);
		if (r == -ENODEV) {
			il_machine_note(m, "acpi_idle: not loaded: no _CST and no FADT C-states "
					"(no P_BLK)%s", p->c_states_disabled ? ", C-states disabled in "
					"firmware" : "");
			return r;
		}
	}
	if (r) {
		il_machine_note(m, "acpi_idle: not loaded: the _CST is unusable and the kernel does "
				"not fall back to the FADT");
		return r;
	}
	/* every processor has C1: synthesise an HLT one if the table has none */
	if (!pr->power.states[IL_ACPI_STATE_C1].valid) {
		struct il_acpi_cx *c1 = &pr->power.states[IL_ACPI_STATE_C1];

		memset(c1, 0, sizeof(*c1));
		c1->type = IL_ACPI_STATE_C1;
		c1->valid = true;
		c1->method = IL_ACPI_CX_HALT;
		snprintf(c1->desc, sizeof(c1->desc), "ACPI HLT");
		il_machine_note(m, "acpi_idle: no C1 in %s: C1 synthesised as ACPI HLT, latency 0",
				pr->has_cst ? "_CST" : "the FADT");
	}
	power_verify(p, m, o, pr);
	return 0;
}

/* wait_for_freeze(): is the PM-timer read after a P_LVLx read performed? */
static bool dummy_wait_performed(const struct il_platform *p, const struct il_machine_idle *m,
				 char *why, size_t n)
{
	if (!il_release_at_least(m, REL_GUEST_NO_DUMMY_WAIT)) {
		snprintf(why, n, "kernels before 5.5 always do it");
		return true;
	}
	if (p->hypervisor) {
		snprintf(why, n, "skipped in a guest (fa583f71a99c)");
		return false;
	}
	if (il_release_at_least(m, REL_INTEL_ONLY_DUMMY_WAIT) && p->vendor != IL_VENDOR_INTEL) {
		snprintf(why, n, "skipped on non-Intel CPUs since 6.0 (e400ad8b7e6a)");
		return false;
	}
	snprintf(why, n, "%s", p->vendor == IL_VENDOR_INTEL ? "done on Intel bare metal"
			  : "done on non-Intel bare metal before 6.0");
	return true;
}

/*
 * acpi_processor_setup_cstates() + acpi_processor_setup_cpuidle_cx(): the
 * cpuidle table, POLL first, then each valid slot up to max_cstate.
 */
static void setup_cstates(const struct il_platform *p, struct il_machine_idle *m,
			  const struct acpi_idle_params *o, const struct acpi_pr *pr)
{
	struct il_driver *drv = &m->drv;
	unsigned int max_cstate = o->max_cstate ? o->max_cstate : 1;
	bool fallback_to_c1 = !pr->has_cst && !p->fadt_c2_mp; /* CONFIG_HOTPLUG_CPU=y */
	char why[IL_NOTE_LEN];
	bool dummy = dummy_wait_performed(p, m, why, sizeof(why));
	bool any_io = false;
	int count = ACPI_IDLE_STATE_START;

	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "acpi_idle");
	il_poll_state_init(&drv->states[0]);
	drv->states[0].exit_dist = p->poll_exit;
	for (unsigned int i = 1; i < IL_ACPI_MAX_POWER && i <= max_cstate; i++) {
		const struct il_acpi_cx *cx = &pr->power.states[i];
		struct il_state *s;

		if (!cx->valid)
			continue;
		s = &drv->states[count];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "C%u", i);
		snprintf(s->desc, sizeof(s->desc), "%s", cx->desc);
		s->exit_latency = cx->latency;
		s->target_residency = cx->latency * o->latency_factor; /* u32 product */
		s->power_usage = 0;
		s->power_w = -1;
		s->transition_j = -1;
		if (cx->type != IL_ACPI_STATE_C3)
			drv->safe_state_index = count;
		s->has_s2idle = cx->type != IL_ACPI_STATE_C1 && !fallback_to_c1;
		if ((int)i >= pr->timer_broadcast_on_state)
			s->flags |= IL_FLAG_TIMER_STOP;
		if (cx->type == IL_ACPI_STATE_C3) {
			s->flags |= IL_FLAG_TLB_FLUSHED;
			if (pr->bm_check)
				s->flags |= IL_FLAG_RCU_IDLE;
		}
		/* idlelab: C2/C3-type states stop the core clock and free turbo headroom */
		if (cx->type >= IL_ACPI_STATE_C2)
			s->flags |= IL_FLAG_TURBO_RELEASE;
		switch (cx->method) {
		case IL_ACPI_CX_FFH:
			s->entry = IL_ENTRY_MWAIT;
			s->mwait_hint = cx->address;
			break;
		case IL_ACPI_CX_HALT:
			s->entry = IL_ENTRY_HLT;
			break;
		case IL_ACPI_CX_SYSTEMIO:
			s->entry = IL_ENTRY_IOPORT;
			s->io_port = cx->address;
			if (dummy) {
				/* one PM_TMR_BLK register for the whole machine */
				s->exit_path_cost = p->pm_timer_read;
				s->exit_path_hold = p->pm_timer_hold;
				s->exit_path_shared = true;
			}
			any_io = true;
			break;
		}
		s->exit_dist = il_driver_exit_dist(p, s);
		if (cx->type == IL_ACPI_STATE_C3 && !pr->bm_check)
			il_machine_note(m, "acpi_idle: %s: caches are flushed (WBINVD) before entry",
					s->name);
		if (cx->type == IL_ACPI_STATE_C3 && pr->bm_check && !o->bm_check_disable)
			il_machine_note(m, "acpi_idle: %s: entered only while BM_STS shows no bus-master "
					"activity, else demoted to state %d", s->name,
					drv->safe_state_index);
		if (fallback_to_c1 && il_platform_ncpus(p) > 1 && cx->type != IL_ACPI_STATE_C1 &&
		    !(cx->type == IL_ACPI_STATE_C3 && pr->bm_check))
			il_machine_note(m, "acpi_idle: %s: no _CST and no FADT C2_MP flag: the kernel "
					"demotes every %s entry to C1 with more than one CPU online",
					s->name, s->name);
		count++;
		if (count == IL_STATE_MAX)
			break;
	}
	drv->state_count = count;
	if (any_io)
		il_machine_note(m, "acpi_idle: I/O-port states: PM-timer dummy wait %s (%s)",
				dummy ? "performed" : "skipped", why);
	il_driver_init(drv);
}

int il_acpi_idle_probe(const struct il_platform *p, struct il_machine_idle *m,
		       struct il_err *err)
{
	struct acpi_idle_params o;
	struct acpi_pr pr;
	enum il_idle_override ov;
	unsigned int limit;

	(void)err;
	if (p->arch != IL_ARCH_X86) {
		il_machine_note(m, "acpi_idle: only the x86 _CST path is modelled (no _LPI)");
		return 1;
	}
	ov = il_boot_idle_override(p);
	if (ov == IL_IDLE_POLL || ov == IL_IDLE_HALT) {
		il_machine_note(m, "acpi_idle: not used with idle=%s", ov == IL_IDLE_POLL ? "poll" : "halt");
		return 1;
	}
	read_params(p, m, &o);
	limit = cstate_check(p, o.max_cstate);
	if (limit != o.max_cstate)
		il_machine_note(m, "acpi_idle: %s: processor limited to max C-state %u",
				p->bug_amd_apic_c1e ? "AMD C1E bug" : "early AMD Opteron", limit);
	else if (o.max_cstate < IL_ACPI_MAX_POWER)
		il_machine_note(m, "acpi_idle: processor limited to max C-state %u", o.max_cstate);
	o.max_cstate = limit;
	if (!o.nocst && p->has_cst && !il_acpi_claim_cst_control(p))
		il_machine_note(m, "acpi_idle: Failed to claim processor _CST control (the driver "
				"uses _CST anyway)");
	if (get_power_info(p, m, &o, &pr))
		return 1;
	setup_cstates(p, m, &o, &pr);
	m->cpuidle = true;
	il_machine_note(m, "acpi_idle: %d states from %s", m->drv.state_count,
			pr.has_cst ? "_CST" : "the FADT");
	return 0;
}

void il_acpi_idle_state_names(const struct il_platform *p, struct il_state_names *s)
{
	int slots = il_acpi_cst_max_slot(p);
	char name[32];

	if (p->arch != IL_ARCH_X86)
		return;
	/* the FADT's C2 and C3 (with processor.nocst, or without _CST) */
	if (p->pblk && !p->c_states_disabled && slots < IL_ACPI_STATE_C3)
		slots = IL_ACPI_STATE_C3;
	if (!slots)
		return;
	il_state_names_add(s, "POLL", "acpi_idle", "poll_exit");
	for (int i = 1; i <= slots; i++) {
		snprintf(name, sizeof(name), "C%d", i);
		il_state_names_add(s, name, "acpi_idle", NULL);
	}
}
