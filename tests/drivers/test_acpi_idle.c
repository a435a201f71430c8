// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi_idle (src/drivers/acpi_idle.c): the table built from _CST / FADT,
 * the FFH probe, C1 synthesis, C3 bus-master rules, the latency fix-up in
 * its three release forms, TIMER_STOP, the module parameters, the
 * conditions that keep the driver from loading, and the PM-timer dummy
 * wait in all its release/vendor/guest combinations. Expected tables are
 * derived by hand from drivers/acpi/processor_idle.c (002c6ca75289,
 * fb0cece721e4), acpi_processor.c (03c11eb3b16d) and the x86 cstate.c.
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
#include "../../src/drivers/acpi_cst.h"
#include "../../src/drivers/drivers_internal.h"

/* Zen 3 with the amd-zen3-epyc firmware: C1 FFH 0x0, C2 SYSTEMIO 0x814. */
#define ZEN3 "[platform]\nname = t\n[topology]\npackages = 2\ncores_per_package = 64\n" \
	"threads_per_core = 2\n[cpu]\narch = x86\nvendor = amd\nfamily = 25\nmodel = 1\n" \
	"mwait = yes\ncpuid5_ecx = 3\ncpuid5_edx = 0x11\n" \
	"[firmware]\ncst = yes\npm_timer_read = lognormal:1500:0.35\nhlt_exit = 2000\n" \
	"mwait_exit = lognormal:1500:0.142\npoll_exit = 100\n"
#define ZEN3_CST "[cst.1]\ntype = C1\nlatency = 1\nmethod = ffh\naddress = 0\n" \
	"[cst.2]\ntype = C2\nlatency = 350\nmethod = systemio\naddress = 0x814\n"

/* A 2-CPU Intel Haswell-EP-like CPU (family 6 model 0x3f) with MWAIT. */
#define INTEL "[platform]\nname = t\n[topology]\ncores_per_package = 2\n[cpu]\narch = x86\n" \
	"vendor = intel\nfamily = 6\nmodel = 0x3f\nmwait = yes\ncpuid5_ecx = 3\n" \
	"cpuid5_edx = 0x2120\n[firmware]\npm_timer_read = 1200\nhlt_exit = 2000\n"

static void load(struct il_platform *p, const char *a, const char *b, const char *c)
{
	char cat[4096], buf[4096];
	struct il_err e;

	snprintf(cat, sizeof(cat), "%s%s%s", a, b ? b : "", c ? c : "");
	ini_join(buf, sizeof(buf), cat);
	if (il_platform_load_string(p, buf, strlen(buf), "t.ini", &e))
		fail_msg("platform: %s", e.msg);
}

static int probe(const struct il_platform *p, const char *release, struct il_machine_idle *m)
{
	struct il_err e;

	memset(m, 0, sizeof(*m));
	snprintf(m->release, sizeof(m->release), "%s", release);
	return il_acpi_idle_probe(p, m, &e);
}

static bool has_note(const struct il_machine_idle *m, const char *needle)
{
	for (int i = 0; i < m->nnotes; i++)
		if (strstr(m->notes[i], needle))
			return true;
	return false;
}

/* Load a+b+c, set option key=value if key, probe under release; expect a table. */
static void build(struct il_machine_idle *m, const char *release, const char *a, const char *b,
		  const char *c, const char *key, const char *value)
{
	struct il_platform p;

	load(&p, a, b, c);
	if (key)
		assert_int_equal(il_platform_set_option(&p, key, value, NULL), 0);
	if (probe(&p, release, m)) {
		for (int i = 0; i < m->nnotes; i++)
			print_message("note: %s\n", m->notes[i]);
		fail_msg("acpi_idle did not load");
	}
	assert_true(m->cpuidle);
	assert_string_equal(m->drv.name, "acpi_idle");
}

static void refuse(struct il_machine_idle *m, const char *release, const char *a, const char *b,
		   const char *c, const char *key, const char *value)
{
	struct il_platform p;

	load(&p, a, b, c);
	if (key)
		assert_int_equal(il_platform_set_option(&p, key, value, NULL), 0);
	assert_int_equal(probe(&p, release, m), 1);
	assert_false(m->cpuidle);
}

static void zen3_table(void **state)
{
	struct il_machine_idle m;
	const struct il_driver *d = &m.drv;
	struct il_platform p;
	(void)state;

	/* the claim helper (also makes the linker take acpi_idle.o over weak stand-ins) */
	load(&p, ZEN3, ZEN3_CST, NULL);
	assert_true(il_acpi_claim_cst_control(&p));
	assert_int_equal(il_platform_set_option(&p, "firmware.cst_claim", "no", NULL), 0);
	assert_false(il_acpi_claim_cst_control(&p));

	build(&m, "6.18", ZEN3, ZEN3_CST, NULL, NULL, NULL);
	assert_int_equal(d->state_count, 3);
	assert_string_equal(d->states[0].name, "POLL");
	assert_int_equal(d->states[0].entry, IL_ENTRY_POLL);
	assert_int_equal((int)d->states[0].exit_dist.a, 100);
	assert_string_equal(d->states[1].name, "C1");
	assert_string_equal(d->states[1].desc, "ACPI FFH MWAIT 0x0");
	assert_int_equal(d->states[1].exit_latency, 1);
	assert_int_equal(d->states[1].target_residency, 2);
	assert_int_equal(d->states[1].exit_latency_ns, 1000);
	assert_int_equal(d->states[1].target_residency_ns, 2000);
	assert_int_equal(d->states[1].entry, IL_ENTRY_MWAIT);
	assert_int_equal(d->states[1].mwait_hint, 0);
	assert_int_equal(d->states[1].exit_dist.kind, IL_DIST_LOGNORMAL); /* mwait_exit */
	assert_false(d->states[1].has_s2idle);
	assert_int_equal(d->states[1].flags, 0);
	assert_string_equal(d->states[2].name, "C2");
	assert_string_equal(d->states[2].desc, "ACPI IOPORT 0x814");
	assert_int_equal(d->states[2].exit_latency, 350);
	assert_int_equal(d->states[2].target_residency, 700);
	assert_int_equal(d->states[2].entry, IL_ENTRY_IOPORT);
	assert_int_equal(d->states[2].io_port, 0x814);
	assert_true(d->states[2].has_s2idle);
	assert_int_equal(d->states[2].flags, IL_FLAG_TURBO_RELEASE);
	assert_int_equal(d->states[2].exit_dist.kind, IL_DIST_CONST); /* no data: the latency */
	assert_int_equal((int)d->states[2].exit_dist.a, 350000);
	assert_int_equal(d->safe_state_index, 2);
	assert_false(d->bctimer);
}

/* The dummy wait: release x vendor x guest. */
static void dummy_wait_amd(void **state)
{
	struct il_machine_idle m;
	(void)state;

	build(&m, "5.19", ZEN3, ZEN3_CST, NULL, NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_path_cost.kind, IL_DIST_LOGNORMAL);
	assert_int_equal((int)m.drv.states[2].exit_path_cost.a, 1500);
	assert_true(has_note(&m, "dummy wait performed"));
	assert_int_equal(m.drv.states[1].exit_path_cost.kind, IL_DIST_NONE); /* FFH: none */
	assert_true(m.drv.states[2].exit_path_shared);
	assert_int_equal(m.drv.states[2].exit_path_hold.kind, IL_DIST_NONE); /* held for all of it */
	build(&m, "5.19", ZEN3, ZEN3_CST, "[firmware]\npm_timer_hold = 52\n", NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_path_hold.kind, IL_DIST_CONST);
	assert_int_equal((int)m.drv.states[2].exit_path_hold.a, 52);
	assert_int_equal(m.drv.states[1].exit_path_hold.kind, IL_DIST_NONE);
	build(&m, "6.0", ZEN3, ZEN3_CST, NULL, NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_path_cost.kind, IL_DIST_NONE);
	assert_true(has_note(&m, "e400ad8b7e6a"));
	build(&m, "6.1", ZEN3, ZEN3_CST, NULL, NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_path_cost.kind, IL_DIST_NONE);
}

static void dummy_wait_guest(void **state)
{
	struct il_machine_idle m;
	(void)state;

	build(&m, "5.19", ZEN3, ZEN3_CST, "[cpu]\nhypervisor = kvm\n", NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_path_cost.kind, IL_DIST_NONE);
	assert_true(has_note(&m, "fa583f71a99c"));
	/* before 5.5 even a guest does it */
	build(&m, "5.4", ZEN3, ZEN3_CST, "[cpu]\nhypervisor = kvm\n", NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_path_cost.kind, IL_DIST_LOGNORMAL);
	build(&m, "6.18", INTEL, ZEN3_CST, "[firmware]\ncst = yes\n[cpu]\nhypervisor = yes\n",
	      NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_path_cost.kind, IL_DIST_NONE);
}

static void dummy_wait_intel(void **state)
{
	struct il_machine_idle m;
	(void)state;

	/* Intel bare metal keeps it in every release */
	build(&m, "6.18", INTEL, ZEN3_CST, NULL, NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_path_cost.kind, IL_DIST_CONST);
	assert_int_equal((int)m.drv.states[2].exit_path_cost.a, 1200);
	build(&m, "5.4", INTEL, ZEN3_CST, NULL, NULL, NULL);
	assert_int_equal((int)m.drv.states[2].exit_path_cost.a, 1200);
}

static void params(void **state)
{
	struct il_machine_idle m;
	(void)state;

	build(&m, "6.18", ZEN3, ZEN3_CST, NULL, "processor.latency_factor", "3");
	assert_int_equal(m.drv.states[1].target_residency, 3);
	assert_int_equal(m.drv.states[2].target_residency, 1050);
	build(&m, "6.18", ZEN3, ZEN3_CST, NULL, "processor.max_cstate", "1");
	assert_int_equal(m.drv.state_count, 2);
	assert_true(has_note(&m, "limited to max C-state 1"));
	/* 0 behaves as 1 */
	build(&m, "6.18", ZEN3, ZEN3_CST, NULL, "processor.max_cstate", "0");
	assert_int_equal(m.drv.state_count, 2);
	assert_string_equal(m.drv.states[1].name, "C1");
	/* refused values keep the default */
	build(&m, "6.18", ZEN3, ZEN3_CST, NULL, "processor.max_cstate", "two");
	assert_int_equal(m.drv.state_count, 3);
	assert_true(has_note(&m, "refuses it and keeps 8"));
	build(&m, "6.18", ZEN3, ZEN3_CST, NULL, "processor.max_cstate", "-1");
	assert_int_equal(m.drv.state_count, 3);
	/* the AMD C1E bug holds the driver to C1 */
	build(&m, "6.18", ZEN3, ZEN3_CST, "[cpu]\nbug_amd_apic_c1e = yes\n", NULL, NULL);
	assert_int_equal(m.drv.state_count, 2);
	assert_true(has_note(&m, "AMD C1E bug"));
	/* per-state exit data from the platform */
	build(&m, "6.18", ZEN3, ZEN3_CST, "[firmware]\nexit.C2 = const:40000\n", NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_dist.kind, IL_DIST_CONST);
	assert_int_equal((int)m.drv.states[2].exit_dist.a, 40000);
}

static void refusals(void **state)
{
	struct il_machine_idle m;
	(void)state;

	refuse(&m, "6.18", ZEN3, ZEN3_CST, NULL, "idle", "poll");
	assert_true(has_note(&m, "idle=poll"));
	refuse(&m, "6.18", ZEN3, ZEN3_CST, NULL, "idle", "halt");
	assert_true(has_note(&m, "idle=halt"));
	/* _CST with no entries: -EFAULT, and no fall-back to the FADT */
	refuse(&m, "6.18", ZEN3, "[firmware]\npblk = 0x410\nfadt_c2_latency = 50\n", NULL, NULL, NULL);
	assert_true(has_note(&m, "inconsistent _CST"));
	/* no _CST and no P_BLK */
	refuse(&m, "6.18", INTEL, NULL, NULL, NULL, NULL);
	assert_true(has_note(&m, "no _CST and no FADT C-states"));
	/* C-states disabled in firmware */
	refuse(&m, "6.18", ZEN3, "[firmware]\ncst = no\nc_states_disabled = yes\npblk = 0x410\n",
	       NULL, NULL, NULL);
	/*
	 * the only entry, a deep FFH state without MWAIT, is dropped, but it
	 * had already reserved slot 1 for C1 (count 1): the driver loads with
	 * a synthesised C1
	 */
	build(&m, "6.18", ZEN3, "[cpu]\nmwait = no\n[cst.1]\ntype = C2\nlatency = 100\n"
	      "method = ffh\naddress = 0x10\n", NULL, NULL, NULL);
	assert_true(has_note(&m, "not supported in hardware"));
	assert_int_equal(m.drv.state_count, 2);
	assert_string_equal(m.drv.states[1].desc, "ACPI HLT");
	refuse(&m, "6.18", "[platform]\nname = t\n[cpu]\narch = powerpc\nvendor = ibm\n", NULL, NULL,
	       NULL, NULL);
}

static void nomwait(void **state)
{
	struct il_machine_idle m;
	(void)state;

	build(&m, "6.18", ZEN3, ZEN3_CST, "[cst.3]\ntype = C3\nlatency = 500\nmethod = ffh\n"
	      "address = 0x10\n[cpu]\ncpuid5_edx = 0x111\n", "idle", "nomwait");
	assert_string_equal(m.drv.states[1].desc, "ACPI HLT");
	assert_int_equal(m.drv.states[1].entry, IL_ENTRY_HLT);
	assert_int_equal(m.drv.states[1].exit_dist.kind, IL_DIST_CONST);
	assert_int_equal((int)m.drv.states[1].exit_dist.a, 2000); /* hlt_exit */
	/* a deeper FFH state keeps MWAIT: only C1 is converted */
	assert_string_equal(m.drv.states[3].desc, "ACPI FFH MWAIT 0x10");
	assert_int_equal(m.drv.states[3].entry, IL_ENTRY_MWAIT);
	assert_int_equal(m.drv.states[3].mwait_hint, 0x10);
}

static void ffh_probe(void **state)
{
	struct il_machine_idle m;
	(void)state;

	/* no C1 sub-state in CPUID.5:EDX: C1 becomes HLT */
	build(&m, "6.18", ZEN3, ZEN3_CST, "[cpu]\ncpuid5_edx = 0x1\n", NULL, NULL);
	assert_string_equal(m.drv.states[1].desc, "ACPI HLT");
	assert_int_equal(m.drv.states[1].entry, IL_ENTRY_HLT);
	assert_true(has_note(&m, "not supported by HW"));
	/* no interrupt-break extension */
	build(&m, "6.18", ZEN3, ZEN3_CST, "[cpu]\ncpuid5_ecx = 1\n", NULL, NULL);
	assert_string_equal(m.drv.states[1].desc, "ACPI HLT");
	/* the HLT register form and an unsupported deep FFH state */
	build(&m, "6.18", ZEN3, "[cst.1]\ntype = C1\nlatency = 1\nmethod = halt\n"
	      "[cst.2]\ntype = C2\nlatency = 60\nmethod = ffh\naddress = 0x20\n"
	      "[cst.3]\ntype = C2\nlatency = 350\nmethod = systemio\naddress = 0x814\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.state_count, 3);
	assert_string_equal(m.drv.states[1].desc, "ACPI HLT");
	/* the dropped entry does not take a slot: the I/O state is slot 2 */
	assert_string_equal(m.drv.states[2].name, "C2");
	assert_string_equal(m.drv.states[2].desc, "ACPI IOPORT 0x814");
	assert_true(has_note(&m, "skip"));
	/* Hygon is an FFH vendor too; "other" is not */
	build(&m, "6.18", ZEN3, ZEN3_CST, "[cpu]\nvendor = hygon\nfamily = 24\n", NULL, NULL);
	assert_string_equal(m.drv.states[1].desc, "ACPI FFH MWAIT 0x0");
	build(&m, "6.18", ZEN3, ZEN3_CST, "[cpu]\nvendor = other\n", NULL, NULL);
	assert_string_equal(m.drv.states[1].desc, "ACPI HLT");
}

static void c1_synthesis(void **state)
{
	struct il_machine_idle m;
	(void)state;

	build(&m, "6.18", ZEN3, "[cst.1]\ntype = C2\nlatency = 350\nmethod = systemio\n"
	      "address = 0x814\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.state_count, 3);
	assert_string_equal(m.drv.states[1].name, "C1");
	assert_string_equal(m.drv.states[1].desc, "ACPI HLT");
	assert_int_equal(m.drv.states[1].exit_latency, 0);
	assert_int_equal(m.drv.states[1].target_residency, 0);
	assert_int_equal(m.drv.states[1].entry, IL_ENTRY_HLT);
	assert_string_equal(m.drv.states[2].name, "C2");
	assert_true(has_note(&m, "C1 synthesised"));
}

static void fadt_path(void **state)
{
	struct il_machine_idle m;
	(void)state;

	/* processor.nocst: FADT C2 at P_BLK+4; C3 needs BM control on this Intel: dropped */
	build(&m, "6.18", INTEL, ZEN3_CST, "[firmware]\npblk = 0x410\nfadt_c2_latency = 50\n"
	      "fadt_c3_latency = 500\n", "processor.nocst", "1");
	assert_int_equal(m.drv.state_count, 3);
	assert_string_equal(m.drv.states[1].desc, "ACPI HLT");
	assert_string_equal(m.drv.states[2].desc, "ACPI P_LVL2 IOPORT 0x414");
	assert_int_equal(m.drv.states[2].exit_latency, 50);
	assert_int_equal(m.drv.states[2].io_port, 0x414);
	assert_false(m.drv.states[2].has_s2idle); /* no _CST, no C2_MP: fall back to C1 */
	assert_true(has_note(&m, "demotes every C2 entry to C1"));
	assert_true(has_note(&m, "requires BM control"));
	/* with the C2_MP flag C2 keeps s2idle and no demotion */
	build(&m, "6.18", INTEL, "[firmware]\npblk = 0x410\nfadt_c2_latency = 50\nfadt_c2_mp = yes\n",
	      NULL, NULL, NULL);
	assert_true(m.drv.states[2].has_s2idle);
	assert_false(has_note(&m, "demotes"));
	/* FADT latencies above 100 / 1000 us invalidate the states: C1 only */
	build(&m, "6.18", INTEL, "[firmware]\npblk = 0x410\nfadt_c2_latency = 101\n"
	      "fadt_c3_latency = 1001\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.state_count, 2);
	assert_true(has_note(&m, "C2 invalidated"));
	assert_true(has_note(&m, "C3 invalidated"));
}

#define C3_IO "[cst.3]\ntype = C3\nlatency = 200\nmethod = systemio\naddress = 0x815\n"

static void c3_bus_master(void **state)
{
	struct il_machine_idle m;
	(void)state;

	/* Intel, SMP, _CST: bm_check = 1, bm_control = 0, allowed without BM control */
	build(&m, "6.18", INTEL, ZEN3_CST, "[firmware]\ncst = yes\n" C3_IO, NULL, NULL);
	assert_int_equal(m.drv.state_count, 4);
	assert_string_equal(m.drv.states[3].name, "C3");
	assert_int_equal(m.drv.states[3].flags,
			 IL_FLAG_TLB_FLUSHED | IL_FLAG_RCU_IDLE | IL_FLAG_TURBO_RELEASE);
	assert_int_equal(m.drv.safe_state_index, 2);
	assert_true(has_note(&m, "without BM control"));
	assert_true(has_note(&m, "BM_STS"));
	/* processor.bm_check_disable: no BM_STS demotion */
	build(&m, "6.18", INTEL, ZEN3_CST, "[firmware]\ncst = yes\n" C3_IO,
	      "processor.bm_check_disable", "y");
	assert_false(has_note(&m, "BM_STS"));
	/*
	 * before 5.19 (27263b3428f5) nocst and bm_check_disable are uint
	 * parameters: any non-zero number sets them, "y" is refused; from
	 * 5.19 bools: "y" sets them, "2" is refused
	 */
	build(&m, "5.15", INTEL, ZEN3_CST, "[firmware]\ncst = yes\n" C3_IO,
	      "processor.bm_check_disable", "2");
	assert_false(has_note(&m, "BM_STS"));
	build(&m, "5.15", INTEL, ZEN3_CST, "[firmware]\ncst = yes\n" C3_IO,
	      "processor.bm_check_disable", "y");
	assert_true(has_note(&m, "BM_STS"));
	assert_true(has_note(&m, "processor.bm_check_disable=y is not an unsigned integer"));
	build(&m, "6.18", INTEL, ZEN3_CST, "[firmware]\ncst = yes\n" C3_IO,
	      "processor.bm_check_disable", "2");
	assert_true(has_note(&m, "BM_STS"));
	assert_true(has_note(&m, "processor.bm_check_disable=2 is not a boolean"));
	build(&m, "5.15", INTEL, ZEN3_CST, "[firmware]\npblk = 0x410\nfadt_c2_latency = 50\n",
	      "processor.nocst", "2");
	assert_string_equal(m.drv.states[2].desc, "ACPI P_LVL2 IOPORT 0x414");
	build(&m, "5.15", INTEL, ZEN3_CST, "[firmware]\npblk = 0x410\nfadt_c2_latency = 50\n",
	      "processor.nocst", "yes");
	assert_true(has_note(&m, "processor.nocst=yes is not an unsigned integer"));
	/* pre-Zen AMD on SMP: no bm_check, C3 needs the FADT WBINVD flag */
	build(&m, "6.18", ZEN3, ZEN3_CST, C3_IO "[cpu]\nfamily = 16\n[firmware]\nfadt_wbinvd = no\n",
	      NULL, NULL);
	assert_int_equal(m.drv.state_count, 3);
	assert_true(has_note(&m, "WBINVD flag: C3 dropped"));
	build(&m, "6.18", ZEN3, ZEN3_CST, C3_IO "[cpu]\nfamily = 16\n", NULL, NULL);
	assert_int_equal(m.drv.state_count, 4);
	assert_int_equal(m.drv.states[3].flags, IL_FLAG_TLB_FLUSHED | IL_FLAG_TURBO_RELEASE);
	assert_true(has_note(&m, "flushed (WBINVD)"));
	/* Zen: bm_check since the 2021 change, not before */
	build(&m, "6.18", ZEN3, ZEN3_CST, C3_IO, NULL, NULL);
	assert_true(m.drv.states[3].flags & IL_FLAG_RCU_IDLE);
	build(&m, "5.15", ZEN3, ZEN3_CST, C3_IO "[firmware]\nfadt_wbinvd = no\n", NULL, NULL);
	assert_int_equal(m.drv.state_count, 3);
	/* one CPU, no _CST: bm_check = 1 needs bm_control (the PM2 block) */
	build(&m, "6.18", "[platform]\nname = t\n[cpu]\nvendor = other\n[firmware]\npblk = 0x410\n"
	      "fadt_c2_latency = 20\nfadt_c3_latency = 200\n", NULL, NULL, NULL, NULL);
	assert_int_equal(m.drv.state_count, 3);
	assert_true(has_note(&m, "requires BM control"));
	build(&m, "6.18", "[platform]\nname = t\n[cpu]\nvendor = other\n[firmware]\npblk = 0x410\n"
	      "fadt_c2_latency = 20\nfadt_c3_latency = 200\npm2_control = yes\n", NULL, NULL, NULL,
	      NULL);
	assert_int_equal(m.drv.state_count, 4);
	assert_string_equal(m.drv.states[3].desc, "ACPI P_LVL3 IOPORT 0x415");
	assert_true(m.drv.states[3].flags & IL_FLAG_RCU_IDLE);
	assert_false(has_note(&m, "without BM control"));
	build(&m, "6.18", "[platform]\nname = t\n[topology]\ncores_per_package = 2\n[cpu]\n"
	      "vendor = other\n[firmware]\npblk = 0x410\nfadt_c2_latency = 20\n"
	      "fadt_c3_latency = 200\n", NULL, NULL, NULL, NULL);
	assert_int_equal(m.drv.state_count, 4); /* SMP other vendor: no bm_check, WBINVD ok */
	assert_false(m.drv.states[3].flags & IL_FLAG_RCU_IDLE);
	/* C3 without an address */
	build(&m, "6.18", ZEN3, ZEN3_CST, "[cst.3]\ntype = C3\nlatency = 200\nmethod = systemio\n",
	      NULL, NULL);
	assert_int_equal(m.drv.state_count, 3);
	assert_true(has_note(&m, "C3 without an address"));
}

/*
 * Out-of-order latencies with an invalid slot between: C1 30, C2 without
 * address (invalid), C2 20, C2 10, processor.max_cstate=4 so the sort sees
 * slots 1..4. 6.10+: the valid ones sorted, 10 20 30. 5.14..6.9: the heapsort
 * with the non-transitive comparator (worked by hand) leaves 20 10 30.
 * Before 5.14: untouched.
 */
#define BUGGY "[cst.1]\ntype = C1\nlatency = 30\nmethod = ffh\naddress = 0\n" \
	"[cst.2]\ntype = C2\nlatency = 99\nmethod = systemio\naddress = 0\n" \
	"[cst.3]\ntype = C2\nlatency = 20\nmethod = systemio\naddress = 0x814\n" \
	"[cst.4]\ntype = C2\nlatency = 10\nmethod = systemio\naddress = 0x815\n"

static void latency_sort(void **state)
{
	struct il_machine_idle m;
	static const struct { const char *rel; unsigned int l1, l3, l4; } cases[] = {
		{ "6.10", 10, 20, 30 }, { "6.18", 10, 20, 30 },
		{ "6.9", 20, 10, 30 }, { "5.14", 20, 10, 30 },
		{ "5.13", 30, 20, 10 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		build(&m, cases[i].rel, ZEN3, BUGGY, NULL, "processor.max_cstate", "4");
		assert_int_equal(m.drv.state_count, 4);
		assert_string_equal(m.drv.states[1].name, "C1");
		assert_string_equal(m.drv.states[2].name, "C3");
		assert_string_equal(m.drv.states[3].name, "C4");
		assert_int_equal(m.drv.states[1].exit_latency, cases[i].l1);
		assert_int_equal(m.drv.states[2].exit_latency, cases[i].l3);
		assert_int_equal(m.drv.states[3].exit_latency, cases[i].l4);
		assert_int_equal(m.drv.states[2].target_residency, 2 * cases[i].l3);
		assert_true(has_note(&m, "out of order"));
	}
	/* two states, plain swap: every sorting release agrees */
	build(&m, "5.14", ZEN3, "[cst.1]\ntype = C1\nlatency = 10\nmethod = ffh\naddress = 0\n"
	      "[cst.2]\ntype = C2\nlatency = 5\nmethod = systemio\naddress = 0x814\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.states[1].exit_latency, 5);
	assert_int_equal(m.drv.states[2].exit_latency, 10);
	/* a shallower type with a lower latency after a deeper one is not "buggy": kept */
	build(&m, "6.18", ZEN3, "[cst.1]\ntype = C1\nlatency = 1\nmethod = ffh\naddress = 0\n"
	      "[cst.2]\ntype = C3\nlatency = 200\nmethod = systemio\naddress = 0x815\n"
	      "[cst.3]\ntype = C2\nlatency = 50\nmethod = systemio\naddress = 0x814\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_latency, 200);
	assert_int_equal(m.drv.states[3].exit_latency, 50);
	assert_false(has_note(&m, "out of order"));
	/* in order: nothing said */
	build(&m, "6.18", ZEN3, ZEN3_CST, NULL, NULL, NULL);
	assert_false(has_note(&m, "out of order"));
}

static void timer_stop(void **state)
{
	struct il_machine_idle m;
	(void)state;

	build(&m, "6.18", ZEN3, ZEN3_CST, "[cpu]\narat = no\n", NULL, NULL);
	assert_false(m.drv.states[1].flags & IL_FLAG_TIMER_STOP);
	assert_true(m.drv.states[2].flags & IL_FLAG_TIMER_STOP);
	assert_true(m.drv.bctimer);
	/* lapic_timer_c2_ok: only C3-type states stop the timer */
	build(&m, "6.18", ZEN3, ZEN3_CST, "[cpu]\narat = no\n", "lapic_timer_c2_ok", "");
	assert_false(m.drv.states[2].flags & IL_FLAG_TIMER_STOP);
	/* the AMD C1E bug: from C1 on (and max C-state 1) */
	build(&m, "6.18", ZEN3, ZEN3_CST, "[cpu]\narat = no\nbug_amd_apic_c1e = yes\n", NULL, NULL);
	assert_true(m.drv.states[1].flags & IL_FLAG_TIMER_STOP);
	/* TSC halting is said */
	build(&m, "6.18", ZEN3, ZEN3_CST, "[cpu]\nnonstop_tsc = no\n", NULL, NULL);
	assert_true(has_note(&m, "TSC halts"));
}

static void room_for_states(void **state)
{
	struct il_machine_idle m;
	char cst[2048] = "";
	(void)state;

	for (int i = 1; i <= 8; i++) {
		size_t l = strlen(cst);
		snprintf(cst + l, sizeof(cst) - l, "[cst.%d]\ntype = %s\nlatency = %d\nmethod = systemio\n"
			 "address = 0x%x\n", i, i == 1 ? "C1" : "C2", i * 10, 0x810 + i);
	}
	build(&m, "6.18", ZEN3, cst, NULL, NULL, NULL);
	assert_int_equal(m.drv.state_count, 8); /* POLL + 7 slots */
	assert_true(has_note(&m, "No room for more idle states"));
	assert_int_equal(m.drv.states[7].exit_latency, 70);
}

/* The platform keys acpi_idle and intel_idle read: refusals name file and line. */
static void platform_keys(void **state)
{
	static const struct { const char *text; int line; const char *msg; } bad[] = {
		{ "[platform]\nname = t\n[firmware]\nexit. = 5\n", 4, "missing state name" },
		{ "[platform]\nname = t\n[firmware]\nexit.ABCDEFGHIJKLMNOP = 5\n", 4, "longer than" },
		{ "[platform]\nname = t\n[firmware]\nexit.C6 = fast\n", 4, "exit.C6" },
		{ "[platform]\nname = t\n[firmware]\npblk = -1\n", 4, "negative" },
		{ "[platform]\nname = t\n[firmware]\nfadt_wbinvd = maybe\n", 4, "yes/no" },
		{ "[platform]\nname = t\n[cpu]\nsgx_enabled = 2\n", 4, "yes/no" },
	};
	struct il_platform p;
	struct il_err e;
	char buf[1024];
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_not_equal(il_platform_load_string(&p, bad[i].text, strlen(bad[i].text),
							     "k.ini", &e), 0);
		assert_int_equal(e.line, bad[i].line);
		assert_string_equal(e.file, "k.ini");
		if (!strstr(e.msg, bad[i].msg))
			fail_msg("'%s' lacks '%s'", e.msg, bad[i].msg);
	}
	/* eleven exit.NAME keys are one too many; a repeated name replaces */
	snprintf(buf, sizeof(buf), "[platform]\nname = t\n[firmware]\n");
	for (int i = 0; i < 11; i++) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, "exit.S%d = %d\n", i, i + 1);
	}
	assert_int_not_equal(il_platform_load_string(&p, buf, strlen(buf), "k.ini", &e), 0);
	assert_int_equal(e.line, 14);
	load(&p, "[platform]\nname = t\n[firmware]\nexit.C2 = 5\nexit.C2 = 7\npblk = 0x410\n"
	     "fadt_c2_latency = 20\nfadt_c3_latency = 0x100\nfadt_c2_mp = yes\npm2_control = on\n",
	     NULL, NULL);
	assert_int_equal(p.nstate_exit, 1);
	assert_int_equal((int)il_platform_state_exit(&p, "C2")->a, 7);
	assert_null(il_platform_state_exit(&p, "C3"));
	assert_int_equal(p.pblk, 0x410);
	assert_int_equal(p.fadt_c3_latency, 256);
	assert_true(p.fadt_c2_mp && p.pm2_control && p.fadt_wbinvd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zen3_table),
		cmocka_unit_test(dummy_wait_amd),
		cmocka_unit_test(dummy_wait_guest),
		cmocka_unit_test(dummy_wait_intel),
		cmocka_unit_test(params),
		cmocka_unit_test(refusals),
		cmocka_unit_test(nomwait),
		cmocka_unit_test(ffh_probe),
		cmocka_unit_test(c1_synthesis),
		cmocka_unit_test(fadt_path),
		cmocka_unit_test(c3_bus_master),
		cmocka_unit_test(latency_sort),
		cmocka_unit_test(timer_stop),
		cmocka_unit_test(room_for_states),
		cmocka_unit_test(platform_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
